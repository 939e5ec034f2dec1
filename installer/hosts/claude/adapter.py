"""Claude Code: its settings files per scope, and how our hooks sit in them.

`{"hooks": {Event: [{"matcher": ..., "hooks": [handler, ...]}]}}`. Claude Code strips
unknown keys when it rewrites settings, so an entry is ours by its command alone:
`python3 -I -S <...>/hookwright/<pack>/<script> --host claude [...]`.
"""
from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ... import layout, safe_read
from ...document import UTF16LE_BOM, TextReading
from ...hooks.events import BUILTIN_TOOLS, CLAUDE_EVENTS, IF_EVENTS
from ...hooks.model import Candidate, real_path, resolved
from ...layout import DEFAULT_PYTHON
from ...patterns import lazy
from ...records import Record
from ..base import Capabilities, Entry, MatcherGroups, PartTimeHooks, Scope, Target, check_events, files_below
from . import FOLDER, HOOK_VARIABLES, KINDS, SETTINGS_KIND, TITLE, TOOL_INPUTS, user_dir
from .protocol import (
    ACTION_GUARDS,
    ANSWER_TABLE,
    BLOCKED_BY_EXIT_2,
    BLOCKS,
    CLAUDE_GATES,
    IGNORED,
    fails_closed,
    protocol,
)

if TYPE_CHECKING:
    from ...document import Document
    from ...hooks.events import Event
    from ...hooks.model import Candidate
    from ...packs import Pack

PROJECT_VAR = '"$CLAUDE_PROJECT_DIR"'
RUNTIME_FOLDER = {Scope.user: layout.RUNTIME_FOLDER, Scope.project: layout.RUNTIME_FOLDER,
                  Scope.local: layout.LOCAL_RUNTIME_FOLDER}
DEFAULT_TIMEOUT = {"command": 600, "http": 600, "mcp_tool": 600, "prompt": 30, "agent": 60}  # seconds (docs/hosts/claude-code.md#handler-fields)
SHORT_EVENTS = {"UserPromptSubmit": 30, "PreModelSwitch": 30, "PostModelSwitch": 30, "MessageDisplay": 10}
CONFIG_FILE = {Scope.user: "settings.json", Scope.project: "settings.json", Scope.local: "settings.local.json"}


@functools.cache
def managed_dir() -> Path:
    """Where an administrator puts policy files: read by doctor and list, never written. (Made
    once: the platform's, and doctor asks for each project of a tree.)"""
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if sys.platform == "win32":
        return Path(r"C:\Program Files\ClaudeCode")
    return Path("/etc/claude-code")


def managed_paths() -> list[Path]:
    settings, drop_ins = _managed_places()
    # (drop_ins rarely there: a glob compiles its pattern even for a missing folder)
    return [settings, *(sorted(drop_ins.glob("*.json")) if os.path.isdir(drop_ins) else [])]


@functools.cache
def _managed_places() -> tuple[Path, Path]:
    """The managed settings file and its drop-in folder, made once (as managed_dir): doctor asks
    for them for each project of a tree."""
    return managed_dir() / "managed-settings.json", managed_dir() / "managed-settings.d"


def local_settings_read(project: Path) -> list[Path]:
    """The settings.local.json files a session started in `project` reads: the one at the root
    of the git repository (or worktree) it is in, and the project's own (measured on Claude Code
    2.1.332, docs/hosts/claude-code.md#config-files). Project settings, by contrast, come only from the
    folder the session starts in."""
    own = project / ".claude" / CONFIG_FILE[Scope.local]
    root = _git_root(project)
    if root is None or root == project:
        return [own]
    return [root / ".claude" / CONFIG_FILE[Scope.local], own]


def _git_root(folder: Path) -> Path | None:
    """The folder or the nearest folder above it that holds a .git (walked as text, and asked with
    os.access, which says no without raising what os.path.exists catches: doctor asks it for each
    project of a tree, and a Path for each folder up to / cost more than its stat)."""
    path = os.fspath(folder)
    while not os.access(f"{path.rstrip('/')}/.git", os.F_OK):
        above = os.path.dirname(path)
        if above == path:
            return None
        path = above
    return folder if path == os.fspath(folder) else Path(path)


SETTINGS_NAMES = (CONFIG_FILE[Scope.project], CONFIG_FILE[Scope.local])


def files_never_read(start: Path) -> list[tuple[Path, str]]:
    """Settings files a session started in `start` does not read (measured on Claude Code 2.1.332,
    docs/hosts/claude-code.md#config-files): a user-scope settings.local.json; the project and
    local settings of the folders above it up to the git root (but the root's local file, which
    it reads); those of the folders below it (a monorepo's packages); and the files with a
    "hooks" block it reads no hooks from at all (~/.claude.json, a hooks.json beside the user's or
    the project's settings, .mcp.json)."""
    never = [(user_dir() / CONFIG_FILE[Scope.local], "user-local")]
    root = _git_root(start)
    above = [] if root is None or root == start else [f for f in start.parents if root in (f, *f.parents)]
    never += [(folder / ".claude" / name, "above") for folder in above for name in SETTINGS_NAMES
              if not (folder == root and name == CONFIG_FILE[Scope.local])]
    if start != Path.home():
        never += [(path, "below") for path in files_below(start, ".claude", SETTINGS_NAMES)]
    user = user_dir()
    never = [(path, why) for path, why in never if path.is_file() and (why == "user-local" or path.parent != user)]
    return never + [(path, "not-settings") for path in (state_file(), user / "hooks.json", start / ".claude" / "hooks.json",
                                                        start / ".mcp.json") if _holds_hooks(path)]


def state_file() -> Path:
    """~/.claude.json, Claude Code's own state (its MCP servers, per user and per project); with
    CLAUDE_CONFIG_DIR set, it lives in that directory."""
    return user_dir() / ".claude.json" if os.environ.get("CLAUDE_CONFIG_DIR") else Path.home() / ".claude.json"


def _holds_hooks(path: Path) -> bool:
    """A JSON file Claude Code reads no hooks from that says "hooks" (a substring test first:
    ~/.claude.json grows to megabytes, and doctor reads it for its MCP servers anyway)."""
    raw = safe_read.read_or_none(path, safe_read.STATE) if path.is_file() else None
    return raw is not None and b'"hooks"' in raw


MAX_SKILLS = 200  # skill folders read in one place (a bound: a repository's folder is not trusted)


class Claude(MatcherGroups):
    name = "claude"
    title = TITLE
    scopes = (Scope.user, Scope.project, Scope.local)
    capabilities = Capabilities(block=True, rewrite_input=True, add_context=True, answer_questions=True)
    # FF FE starts UTF-16 LE; anything else is UTF-8, a byte that is not read as U+FFFD
    # (docs/hosts/claude-code.md#settings-files, measured on 2.1.332)
    text_reading = TextReading(marks=((UTF16LE_BOM, "utf-16-le"),), replaces=True)
    rewrite_events = frozenset({"PreToolUse", "PermissionRequest"})
    rewrite_field = "hookSpecificOutput.updatedInput"
    rewrites_combine = "parallel"  # (docs/hosts/claude-code.md#several-hooks)
    dedups_commands = True  # (docs/hosts/claude-code.md#deduplication)
    programs = ("claude",)
    schema = "claude-settings.schema.json"
    project_var = PROJECT_VAR
    # a failure counts as exit 2, which blocks what the event guards (docs/hosts/claude-code.md#handler-fields)
    fail_closed_field = ("onFailure", "block")
    runs_commands_as_written = True  # (a command pack's hooks speak its protocol)
    has_plugins = True  # enabledPlugins (docs/hosts/claude-code.md#plugin-hooks)
    # its own plugins (`@builtin`, measured on 2.1.332) and Anthropic's official marketplace (plugins
    # reference: available to every user); any other must be declared (docs/hosts/claude-code.md#marketplaces)
    builtin_marketplaces = frozenset({"builtin", "claude-plugins-official"})
    tool_events = frozenset(event for event in CLAUDE_EVENTS if protocol(event).tool_event)
    # measured on 2.1.332 (docs/hosts/claude-code.md#environment): a variable of a higher file wins;
    # an "env" PATH is the PATH a hook's command is looked up on (`python3` not on it: the hook
    # cannot start); CLAUDE_PROJECT_DIR is Claude Code's own, whatever "env" says
    settings_env_kind = SETTINGS_KIND
    tool_inputs = TOOL_INPUTS
    # tools of its older releases that the pinned one does not give the model: a matcher may name
    # them, no call carries the name (measured on 2.1.332: MultiEdit is not among the tools of a
    # request to the model, docs/hosts/claude-code.md#stdin-payload)
    tools_not_offered = frozenset({"MultiEdit"})
    # PermissionRequest fires only where the call would ask: not for a call an allow rule of a file
    # read covers, nor for Write, Edit and the file commands of Bash in acceptEdits mode, nor for
    # any call in bypassPermissions mode, which the user's settings and the command line's flags set
    # and a project's or a local file's do not (measured on 2.1.332 in a trusted folder,
    # docs/hosts/claude-code.md#permission-rules)
    prompt_event = "PermissionRequest"
    prompt_free_modes = {"acceptEdits": frozenset({"Write", "Edit"}), "bypassPermissions": frozenset(BUILTIN_TOOLS)}
    prompt_free_commands = {"acceptEdits": frozenset({"touch", "mkdir", "cp", "mv", "rm", "rmdir", "sed"})}
    prompt_mode_scopes = {"bypassPermissions": frozenset({"user"})}
    prompt_mode_flags = {"--dangerously-skip-permissions": "bypassPermissions", "--permission-mode bypassPermissions":
                         "bypassPermissions", "--permission-mode=bypassPermissions": "bypassPermissions",
                         "--permission-mode acceptEdits": "acceptEdits", "--permission-mode=acceptEdits": "acceptEdits"}
    # the text a call writes: Write's whole file, Edit's replacement (measured on 2.1.332,
    # docs/hosts/claude-code.md#stdin-payload: a guard reading only `content` let an Edit through)
    written_text = {"Write": "content", "Edit": "new_string", "NotebookEdit": "new_source"}
    # a skill's shell line comes to PreSkillShellCommand as tool_name `Bash`: a matcher `Bash` fired,
    # the skill's name and `Read` did not (measured on 2.1.332, docs/hosts/claude-code.md#preskillshellcommand)
    event_tools = {"PreSkillShellCommand": frozenset({"Bash"})}
    # and a PreToolUse hook never sees that line (measured on 2.1.328 and 2.1.332: a deny-everything
    # PreToolUse `Bash` hook let a skill's `echo` run; docs/hosts/claude-code.md#preskillshellcommand)
    skill_shell_event = "PreSkillShellCommand"
    commands_checked = True
    reads_answer_on_failure = True  # (measured on 2.1.328: installer/hosts/claude/protocol.py)
    compact_input = True  # (measured on 2.1.332: docs/hosts/claude-code.md#stdin-payload)
    guard_events = ACTION_GUARDS
    condition_events = IF_EVENTS
    exit_2_blocks = BLOCKED_BY_EXIT_2
    input_on_stdin_only = "sh -c"  # (Claude Code's hooks reference: the input comes as JSON on stdin)
    shell_form_in_sh = True  # (measured on 2.1.328: /bin/sh, with "shell": "bash" too; docs/hosts/claude-code.md#measured)
    # (measured on 2.1.332 on Linux without PowerShell: the hook never ran, without a word;
    # docs/hosts/claude-code.md#command-execution)
    shell_programs = {"powershell": ("pwsh", "powershell")}
    file_kinds = KINDS
    probed = True
    answer_table = ANSWER_TABLE
    shares_session_end_budget = True  # (docs/hosts/claude-code.md#timeouts)
    # measured on 2.1.332 (docs/hosts/claude-code.md#environment): set on SessionStart, not
    # on UserPromptSubmit, Pre/PostToolUse(Failure), Stop or SessionEnd; Setup, CwdChanged and
    # FileChanged by the hooks reference
    event_variables = {"CLAUDE_ENV_FILE": frozenset({"SessionStart", "Setup", "CwdChanged", "FileChanged"})}
    hook_variables = HOOK_VARIABLES
    # Write creates or replaces a file, Edit changes one in place (measured on 2.1.332: a PreToolUse
    # guard matched on Write never saw the Edit of the file it protects)
    file_changing_tools = ("Write", "Edit")

    def skill_files(self, project: Path | None) -> list[Path]:
        """The project's skills and the user's (`skills/<name>/SKILL.md`), MAX_SKILLS of each at most."""
        folders = [*([project / ".claude" / "skills"] if project is not None else []), user_dir() / "skills"]
        found = []
        for folder in folders:
            try:
                names = sorted(entry.name for entry in os.scandir(folder) if entry.is_dir())[:MAX_SKILLS]
            except OSError:
                continue
            found += [folder / name / "SKILL.md" for name in names]
        return found

    def part_time_hooks(self, project: Path | None) -> list[PartTimeHooks]:
        """The `hooks:` of each skill's frontmatter: measured on 2.1.332
        (docs/hosts/claude-code.md#hooks-in-a-skills-frontmatter), a PreToolUse guard there let a
        Bash call run in a session that had not run the skill, and
        refused it once the prompt had run the skill."""
        found = []
        for path in self.skill_files(project):
            read = frontmatter_hooks(safe_read.read_or_none(path, safe_read.SCRIPT) or b"")
            if read is not None and read[1]:
                found.append(PartTimeHooks(self.name, path, read[0], f"skill {path.parent.name}", read[1],
                                           "only once the skill has run in a session (from then on)"))
        return found

    def tools_selected(self, matcher: Any) -> frozenset[str] | None:
        """A list of exact names of its tools whose input is known (`Edit|Write`), a name of a
        tool it no longer offers left out (`Write|Edit|MultiEdit`: no call is named MultiEdit);
        None for any other matcher (every tool, a regex, a tool not in tool_inputs, an MCP tool's name)."""
        from ...hooks.regex import classify  # (the matcher's reader; a doctor run has loaded it)

        found = classify(matcher if isinstance(matcher, str) else None)
        names = frozenset(found.names) - self.tools_not_offered if found.kind == "exact" else None
        return names if names and names <= self.tool_inputs.keys() else None

    def config_files(self, project: Path, also: frozenset[Path] = frozenset()) -> list[Candidate]:
        kind = SETTINGS_KIND
        return [Candidate(user_dir() / "settings.json", "user", kind, project),
                Candidate(project / ".claude" / "settings.json", "project", kind, project),
                *(Candidate(p, "local", kind, project) for p in local_settings_read(project)),
                *(Candidate(p, "managed", kind, project) for p in managed_paths())]

    def given_file(self, path: Path, project: Path) -> Candidate | None:
        """A managed policy file (checked before it is deployed), the user's settings, a project's."""
        return self.given_files([path], project)[0]

    def given_files(self, paths: list[Path], project: Path) -> list[Candidate | None]:
        # (the managed policies and the user's settings resolved once: doctor on the corpus's 269
        # projects made 4,842 stat and lstat calls, 18 a file; now 2,162, 8 a file)
        managed = {resolved(p) for p in managed_paths()}
        user = resolved(user_dir())
        user_settings = (user / "settings.json", user / "settings.local.json")
        folders: dict[str, str] = {}  # (real_path's: each folder on the way followed once for all the files)
        return [_given(path, Path(real_path(str(path), folders)), project, managed, user_settings) for path in paths]

    @property
    def matcher_events(self) -> Mapping[str, Event]:
        return CLAUDE_EVENTS

    def unstarted_effect(self, event: str, handler: Any, exits_2: str | None) -> str:
        if isinstance(handler, dict) and fails_closed(event, handler) and protocol(event).exit_2 in (BLOCKS, IGNORED):
            return ('the hook fails, and with "onFailure": "block" Claude Code blocks every call it matches '
                    "(docs/hosts/claude-code.md#on-failure)")
        if exits_2 and event in BLOCKED_BY_EXIT_2:
            return f"{exits_2}, which Claude Code reads as a blocking error: " + BLOCKED_BY_EXIT_2[event]
        if event == "PermissionRequest":
            return "the hook never runs, and Claude Code asks for permission as if it were not there"
        if event in CLAUDE_GATES:
            return "the hook never runs, and the gate fails open (a non-blocking error)"
        return super().unstarted_effect(event, handler, exits_2)

    def fails_closed(self, event: str, handler: Any) -> bool:
        return isinstance(handler, dict) and fails_closed(event, handler)

    def _target(self, scope: Scope, project: Path | None, pack: str | None) -> Target:
        base = user_dir() if project is None else project / FOLDER
        return Target(self.name, scope, base / CONFIG_FILE[scope], base / RUNTIME_FOLDER[scope], project,
                      personal=scope is Scope.local)

    def project_files_read_from(self, start: Path) -> list[Path]:
        """The project settings of the folder it starts in alone, the local settings there and at
        the git root (docs/hosts/claude-code.md#config-files, measured on 2.1.332)."""
        return [start / ".claude" / CONFIG_FILE[Scope.project], *local_settings_read(start)]

    def files_never_read(self, start: Path) -> list[tuple[Path, str]]:
        return files_never_read(start)

    def render(self, target: Target, pack: Pack, options: dict[str, Any], python: str = DEFAULT_PYTHON) -> list[Entry]:
        """Our runtime's command for a hook module; a command hook's own command, as written."""
        entries = []
        for hook in pack.hooks_for(self.name):
            wiring = hook.targets[self.name]
            closed = pack.fails_closed(hook, options)
            command = self.command_as_written(target, pack, hook) if hook.command is not None else \
                self.runtime_command(pack, options, self.runtime_path(target, pack, hook), python, closed)
            handler = {"type": "command", "command": command, "timeout": wiring.whole_timeout}
            handler = self.fail_closed(handler) if closed else handler
            entries += [Entry.of(pack.name, hook.id, event, pack.matcher(hook, self.name, options), handler)
                        for event in wiring.events]
        return entries

    def allow_rules_wait_for_trust(self, scope: str | None, project: Path | None) -> bool:
        """A project's allow rules in a folder no ~/.claude.json entry (its own or a parent's) trusts:
        measured on 2.1.332 (docs/hosts/claude-code.md#permission-rules), `"allow": ["Bash"]` kept a
        PermissionRequest hook from running in a trusted folder, not in an untrusted one (`-p`)."""
        if scope != Scope.project.value or project is None:
            return False
        raw = safe_read.read_or_none(state_file(), safe_read.STATE) if state_file().is_file() else None
        try:
            projects = json.loads(raw).get("projects") if raw else None
        except (ValueError, AttributeError, RecursionError):
            return False  # (a state file we cannot read says nothing either way)
        if not isinstance(projects, dict):
            return True
        return not any(isinstance(entry := projects.get(str(folder)), dict) and entry.get("hasTrustDialogAccepted") is True
                       for folder in (project, *project.parents))

    def default_timeout(self, kind: str | None, event: str) -> float | None:
        seconds = DEFAULT_TIMEOUT.get(kind or "")
        return SHORT_EVENTS.get(event, seconds) if kind in ("command", "http", "mcp_tool") else seconds

    def owner(self, handler: Any) -> tuple[str, str] | None:
        if not isinstance(handler, dict) or handler.get("type") != "command":
            return None
        return super().owner(handler)

    def check(self, doc: Document, target: Target, force: bool) -> None:
        check_document(doc)


HOST = Claude()


class ToolSet(Record):
    """The tools a Claude Code matcher runs a hook for, as another host's wiring needs them."""

    every: bool = False  # every tool (no matcher, "", "*")
    names: tuple[str, ...] = ()  # exact tool names (an MCP tool's: mcp__<server>__<tool>)
    every_mcp: bool = False  # every MCP tool (mcp__.*)


EXACT_MATCHER = lazy(r"[A-Za-z0-9_\- ,|]+")  # (docs/hosts/claude-code.md#matchers: an exact name or a list)
_EVERY_MCP = lazy(r"\^?mcp__(?:\.[*+])?\$?")
_ANCHORED_NAME = lazy(r"\^?(?P<name>[A-Za-z0-9_-]+)\$?")


def tools_named(matcher: str | None) -> ToolSet | str:
    """The tools a PreToolUse (or PostToolUse) matcher names, or why they cannot be told: an
    exact name or list (`Bash`, `Edit|Write`, `Edit, Write`), every tool, every MCP tool
    (`mcp__.*`), or alternatives of those joined by | (`^Bash$|mcp__.*`). Any other regular
    expression is not followed."""
    if matcher is None or matcher.strip() in ("", "*"):
        return ToolSet(every=True)
    if EXACT_MATCHER.fullmatch(matcher):
        return ToolSet(names=tuple(dict.fromkeys(n.strip() for n in matcher.replace(",", "|").split("|") if n.strip())))
    text = matcher.strip()
    for start, end in (("^(", ")$"), ("(", ")")):
        if text.startswith(start) and text.endswith(end):
            text = text[len(start):-len(end)]
            break
    names, every_mcp = [], False
    for part in text.split("|"):
        named = _ANCHORED_NAME.fullmatch(part.strip())
        if _EVERY_MCP.fullmatch(part.strip()) and "." in part or part.strip() == "^mcp__":
            every_mcp = True
        elif named is not None:
            names.append(named["name"])
        else:
            return (f"its matcher {matcher!r} is a regular expression hookwright does not translate (it takes names, "
                    "lists of names and mcp__.*): give the hook this agent's table in pack.toml")
    return ToolSet(names=tuple(dict.fromkeys(names)), every_mcp=every_mcp)


def check_document(doc: Document) -> None:
    """Refuse shapes we cannot edit without guessing (exit 2, with the position)."""
    check_events(doc, "the settings file", "wrap the settings in { } or restore the file", "PreToolUse",
                 "matcher groups", '{"matcher": "...", "hooks": [...]}')


def _given(path: Path, real: Path, project: Path, managed: set[Path],
           user_settings: tuple[Path, Path]) -> Candidate | None:
    if real in managed or path.name == "managed-settings.json" or real.parent.name == "managed-settings.d":
        return Candidate(path, "managed", SETTINGS_KIND, project)
    if real in user_settings:
        return Candidate(path, "user", SETTINGS_KIND, project)
    if real.parent.name == ".claude" and path.name in ("settings.json", "settings.local.json"):
        scope = "project" if path.name == "settings.json" else "local"
        return Candidate(path, scope, SETTINGS_KIND, real.parent.parent)
    return None



FRONTMATTER_KEY = lazy(r"([ \t]*)(?:- +)?([\w\"'-]+)[ \t]*:[ \t]*(.*)")


def frontmatter_hooks(raw: bytes) -> tuple[int, tuple[tuple[str, tuple[str, ...]], ...]] | None:
    """The line of a Markdown file's YAML frontmatter `hooks:` and, per event under it, the commands
    of its hooks (read line by line: the block form Claude Code's docs show); None without one."""
    if raw.lstrip()[:3] != b"---" or b"hooks" not in raw[:64 * 1024]:
        return None  # (most skills: no frontmatter hooks, and no pattern compiled for them)
    lines = raw[:64 * 1024].decode("utf-8", "replace").splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    hooks_line, inside, event_indent = None, False, None
    events: dict[str, list[str]] = {}
    for number, line in enumerate(lines[1:], 2):
        if line.strip() == "---":
            break
        found = FRONTMATTER_KEY.fullmatch(line)
        if found is None or line.lstrip().startswith("#"):
            continue
        indent, key, value = len(found[1]), _unquoted(found[2]), found[3].strip()
        if indent == 0:
            inside = key == "hooks" and hooks_line is None
            hooks_line = number if inside else hooks_line
        elif inside and (event_indent is None or indent == event_indent) and not line.lstrip().startswith("-"):
            event_indent = indent
            events[key] = []
        elif inside and key == "command" and value and events:
            events[list(events)[-1]].append(_unquoted(value))
    return None if hooks_line is None else (hooks_line, tuple((event, tuple(commands)) for event, commands in events.items()))


def _unquoted(value: str) -> str:
    return value[1:-1] if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'" else value
