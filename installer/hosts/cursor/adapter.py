"""Cursor: `~/.cursor/hooks.json` and `<project>/.cursor/hooks.json`, and how our hooks sit in them.

`{"version": 1, "hooks": {event: [{"command": ..., "matcher": ..., "timeout": ...}]}}`: flat
entries, no groups (docs/hosts/cursor.md#file-format). No local scope; the enterprise file is read (by
doctor and list), never written. An entry is ours by its command:
`python3 -I -S <...>/hookwright/<pack>/<script> --host cursor [...]`.

Cursor runs a project's hooks from the project root and sets CURSOR_PROJECT_DIR to it, so a
committed entry runs `"${CURSOR_PROJECT_DIR:-.}"/.cursor/hookwright/...`: right for every
teammate, whether the variable is set or not; the user scope uses an absolute path.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ...hooks.events import CLAUDE_TO_CURSOR, CURSOR_EVENTS
from ...hooks.model import Candidate, resolved
from ...layout import DEFAULT_PYTHON, RUNTIME_FOLDER
from ..base import (
    Capabilities,
    Entry,
    HandlerPlace,
    Host,
    Scope,
    Target,
    check_events,
    deep,
    holds_events,
    plugin_top,
    refuse_shape,
    subfolders,
)
from ..claude.adapter import tools_named
from . import FOLDER, HOOK_VARIABLES, KIND, KINDS, TITLE, user_dir
from .protocol import ANSWER_TABLE, CLAUDE_TOOLS_OF_TYPE

if TYPE_CHECKING:
    from ...document import Document
    from ...hooks.model import Candidate, ConfigFile
    from ...packs import HostTarget, Pack, PackHook

PROJECT_VAR = '"${CURSOR_PROJECT_DIR:-.}"'
VERSION = 1
# Cursor's tool type in a matcher for a Claude Code tool (docs/hosts/cursor.md#matchers; Write covers Edit too)
TOOL_TYPE_OF_CLAUDE = {"Bash": "Shell", "Read": "Read", "Write": "Write", "Edit": "Write", "MultiEdit": "Write",
                       "Grep": "Grep", "Task": "Task"}


def managed_paths() -> list[Path]:
    """The enterprise (MDM) hooks file: read by doctor and list, never written."""
    if sys.platform == "darwin":
        return [Path("/Library/Application Support/Cursor/hooks.json")]
    if sys.platform == "win32":
        return [Path(r"C:\ProgramData\Cursor\hooks.json")]
    return [Path("/etc/cursor/hooks.json")]


# Cursor: exit 2 blocks, and so does any failure of a hook with "failClosed": true (docs/hosts/cursor.md#events)
CURSOR_GATES = frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile",
                          "beforeSubmitPrompt", "subagentStart", "beforeTabFileRead"})


# hooks files in Cursor's shape at a project's top, where Cursor reads none outside a plugin (an
# exporter's `hooks/hooks-cursor.json`, which is a plugin's place: other-hosts and user-needs notes)
TOP_LEVEL_NAMES = ("hooks.json", "hooks-cursor.json", "hooks/hooks.json", "hooks/hooks-cursor.json")


class Cursor(Host):
    name = "cursor"
    title = TITLE
    scopes = (Scope.user, Scope.project)
    # answers: Cursor has no question tool; context only on sessionStart and postToolUse
    capabilities = Capabilities(block=True, rewrite_input=True, add_context=True, answer_questions=False)
    rewrite_events = frozenset({"preToolUse"})  # (docs/hosts/cursor.md#rewriting-input)
    rewrite_field = "updated_input"
    rewrites_combine = "priority"  # (docs/hosts/cursor.md#rewriting-input)
    programs = ("cursor", "cursor-agent")
    schema = "cursor-hooks.schema.json"
    project_var = PROJECT_VAR
    fail_closed_field = ("failClosed", True)  # a crash, a timeout or invalid JSON blocks (docs/hosts/cursor.md#file-format)
    # (docs/hosts/cursor.md: "version" is required in a project's hooks.json)
    required_keys = {"version": (VERSION, "Cursor does not load a project hooks.json without it")}
    # simulate takes Cursor's own names of the call's events (docs/hosts/cursor.md#event-mapping)
    native_events = {"beforeShellExecution": ("PreToolUse", "Bash"), "beforeMCPExecution": ("PreToolUse", None),
                     "preToolUse": ("PreToolUse", None)}
    simulated = True  # simulate.py: the hooks run on Cursor's payloads
    guard_events = CURSOR_GATES
    hook_variables = HOOK_VARIABLES
    commands_checked = True
    # exit 0: Cursor reads the JSON on stdout; any other but 2: the hook failed (docs/hosts/cursor.md#exit-codes)
    reads_answer_on_failure = False
    js_regex_matchers = True  # (docs/hosts/cursor.md#matchers)
    # its matchers' tool types, each for the Claude Code tool it stands for first (`Shell`: Bash)
    claude_tool_names = {kind: tools[0] for kind, tools in CLAUDE_TOOLS_OF_TYPE.items()}
    file_kinds = KINDS
    answer_schema = "cursor-hook-output.schema.json"  # (docs/hosts/cursor.md#measured: Cursor cannot run here)
    answer_table = ANSWER_TABLE
    runs_hooks_of = "claude"  # (its third-party configs: docs/hosts/cursor.md#config-files)

    @property
    def event_names(self) -> dict[str, str]:  # type: ignore[override]

        return CLAUDE_TO_CURSOR

    def config_files(self, project: Path, also: frozenset[Path] = frozenset()) -> list[Candidate]:
        return [Candidate(user_dir() / "hooks.json", "user", KIND, project),
                Candidate(project / ".cursor" / "hooks.json", "project", KIND, project),
                *(Candidate(p, "managed", KIND, project) for p in managed_paths())]

    def files_never_read(self, start: Path) -> list[tuple[Path, str]]:
        """Hooks files in Cursor's shape where Cursor reads none (`misplaced`): a hooks.json in a
        subfolder of the project's or the user's `.cursor/` (`.cursor/hooks/hooks.json`, beside
        the scripts), and one at the top of a project or in its `hooks/` (a plugin's places) where
        the project is no plugin, whose manifest may name it. Cursor reads `<project root>/.cursor/hooks.json` and
        `~/.cursor/hooks.json` (its hooks docs, docs/hosts/cursor.md#config-files)."""
        folders = [user_dir(), start / ".cursor"]
        places = [sub / "hooks.json" for folder in folders for sub in subfolders(folder)]
        if not plugin_top(start):  # (a plugin's own hooks file, which its manifest names, is read)
            places += [start / name for name in TOP_LEVEL_NAMES]
        return [(path, "misplaced") for path in places if holds_events(path, CURSOR_EVENTS)]

    def read_instead(self, path: Path) -> tuple[str, str]:
        """The hooks.json of the `.cursor/` the file sits below, or of the project it is the top of."""
        if path.parent.parent.name == ".cursor":
            return KIND, str(path.parent.parent / "hooks.json")
        top = path.parent.parent if path.parent.name == "hooks" else path.parent
        return KIND, str(top / ".cursor" / "hooks.json")

    def given_file(self, path: Path, project: Path) -> Candidate | None:
        """A hooks.json in a .cursor folder: the user's, or a project's."""
        parent = resolved(path).parent
        if parent.name != ".cursor" or path.name != "hooks.json":
            return None
        user = parent == resolved(user_dir())
        return Candidate(path, "user" if user else "project", KIND, project if user else parent.parent)

    def command_cwd(self, file: ConfigFile) -> tuple[Path | None, bool]:
        """Cursor runs project hooks from the project root, user hooks from ~/.cursor
        (docs/hosts/cursor.md#config-files)."""
        if file.scope in ("user", "managed"):
            return file.path.parent, False
        return (file.path.parent.parent if file.path.parent.name == ".cursor" else file.project), False

    def unstarted_effect(self, event: str, handler: Any, exits_2: str | None) -> str:
        if event not in CURSOR_GATES:
            return super().unstarted_effect(event, handler, exits_2)
        if exits_2:
            return f"{exits_2}, which Cursor reads as a block: every action this hook matches is refused"
        if self.fails_closed(event, handler):
            return "the hook fails, and with \"failClosed\": true Cursor blocks every action it matches"
        return "the hook never runs, and the gate fails open (the action proceeds)"

    def fails_closed(self, event: str, handler: Any) -> bool:
        return isinstance(handler, dict) and handler.get("failClosed") is True

    def _target(self, scope: Scope, project: Path | None, pack: str | None) -> Target:
        base = user_dir() if project is None else project / FOLDER
        return Target(self.name, scope, base / "hooks.json", base / RUNTIME_FOLDER, project)

    def render(self, target: Target, pack: Pack, options: dict[str, Any], python: str = DEFAULT_PYTHON) -> list[Entry]:
        entries = []
        for hook in pack.hooks_for(self.name):
            wiring = hook.targets[self.name]
            closed = pack.fails_closed(hook, options)
            handler: dict[str, Any] = {"command": self.runtime_command(
                pack, options, self.runtime_path(target, pack, hook), python, closed)}
            matcher = pack.matcher(hook, self.name, options)
            if matcher is not None:
                handler["matcher"] = matcher
            handler["timeout"] = wiring.whole_timeout
            handler = self.fail_closed(handler) if closed else handler
            entries.append(Entry.of(pack.name, hook.id, wiring.event, matcher, handler))
        return entries

    def wiring_from_claude(self, hook: PackHook, claude: HostTarget) -> HostTarget | str:
        """A Claude Code PreToolUse hook runs on preToolUse, its tools as Cursor's tool types (one
        on Bash alone that does not rewrite, on beforeShellExecution, where `ask` asks the user); a
        PostToolUse hook on postToolUse (its context, or its block's reason, reaches the model as
        additional_context); a SessionStart hook on sessionStart. The runtime carries no other
        event's answer (docs/hosts/cursor.md#event-mapping, #matchers)."""
        from ...packs import HostTarget

        if claude.event == "SessionStart":
            if tools_named(claude.matcher) != tools_named(None):
                return f"Cursor's sessionStart has no matcher: it would run on every start, not on {claude.matcher!r} only"
            return HostTarget("sessionStart", None, claude.timeout)
        if claude.event not in ("PreToolUse", "PostToolUse"):
            return f"hookwright's runtime carries no answer of a Claude Code {claude.event} hook into Cursor"
        tools = tools_named(claude.matcher)
        if isinstance(tools, str):
            return tools
        if claude.event == "PreToolUse" and tools.names == ("Bash",) and not tools.every_mcp and not hook.rewrites_input:
            return HostTarget("beforeShellExecution", None, claude.timeout)
        types = [] if tools.every else ["MCP:.*"] if tools.every_mcp else []
        for name in tools.names:
            if name.startswith("mcp__") and name.count("__") >= 2:
                types.append("MCP:" + name.split("__", 2)[2])
            elif name in TOOL_TYPE_OF_CLAUDE:
                types.append(TOOL_TYPE_OF_CLAUDE[name])
            else:
                return f"Cursor has no tool type for Claude Code's {name}"
        matcher = "|".join(dict.fromkeys(types)) or None
        return HostTarget("preToolUse" if claude.event == "PreToolUse" else "postToolUse", matcher, claude.timeout)

    def owner(self, handler: Any) -> tuple[str, str] | None:
        if not isinstance(handler, dict) or handler.get("type", "command") != "command":
            return None
        return super().owner(handler)

    def new_document_data(self) -> dict[str, Any]:
        return {"version": VERSION}

    def holds_nothing(self, data: Any) -> bool:
        return data in ({}, {"version": VERSION})

    def check(self, doc: Document, target: Target, force: bool) -> None:
        if not doc.exists:
            return
        check_events(doc, "a Cursor hooks.json", 'write it as {"version": 1, "hooks": {...}}', "preToolUse",
                     "entries", '{"command": "..."}')
        if "version" in doc.data and doc.data["version"] != VERSION:
            refuse_shape(doc, f'"version" is {doc.data["version"]!r}; hookwright writes Cursor\'s version 1 format only',
                         "version", hint="check which Cursor wrote this file; hookwright leaves it alone")

    def walk(self, data: Any) -> Iterator[HandlerPlace]:
        """The flat entries of each event."""
        hooks = data.get("hooks") if isinstance(data, dict) else None
        for event, entries in hooks.items() if isinstance(hooks, dict) else ():
            for index, entry in enumerate(entries) if isinstance(entries, list) else ():
                if isinstance(entry, (dict, str)):
                    keys = ("hooks", event, index)
                    yield HandlerPlace(event, keys, keys, entry.get("matcher") if isinstance(entry, dict) else None,
                                       entry)

    def loads(self, value: Any) -> bool:
        """A Claude Code matcher group in an entry's place is no entry Cursor runs
        (host/cursor-claude-group says so)."""
        return not (isinstance(value, dict) and "hooks" in value)

    def add(self, data: dict[str, Any], entry: Entry) -> dict[str, Any]:
        data = deep(data)
        for key, (value, _) in self.required_keys.items():
            data.setdefault(key, value)
        data.setdefault("hooks", {}).setdefault(entry.event, []).append(entry.handler)
        return data

    def remove(self, data: dict[str, Any], entry: Entry, keep_empty: list[str]) -> dict[str, Any]:
        data = deep(data)
        script = self.owner(entry.handler)
        entries = (data.get("hooks") or {}).get(entry.event) or []
        for index, handler in enumerate(entries):
            if self.owner(handler) == script:
                del entries[index]
                if not entries and f"hooks.{entry.event}" not in keep_empty:
                    del data["hooks"][entry.event]
                if not data["hooks"] and "hooks" not in keep_empty:
                    del data["hooks"]
                break
        return data

    def replace(self, data: dict[str, Any], old: Entry, new: Entry) -> dict[str, Any]:
        """Upgrade in place where the event stays: the entry keeps its position."""
        if old.event == new.event:
            data = deep(data)
            script = self.owner(old.handler)
            entries = data["hooks"][old.event]
            for index, handler in enumerate(entries):
                if self.owner(handler) == script:
                    entries[index] = new.handler
                    return data
        return super().replace(data, old, new)


HOST = Cursor()
