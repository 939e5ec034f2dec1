"""Codex CLI: `$CODEX_HOME/hooks.json` and `<project>/.codex/hooks.json`, and how our hooks sit in them.

`{"description": ..., "hooks": {Event: [{"matcher": ..., "hooks": [handler, ...]}]}}`: Claude
Code's matcher groups, Claude Code's event names, and Codex's own rules (docs/hosts/codex.md,
measured on 0.171.0):

- The root takes `description` and `hooks` and nothing else: a `$schema` or any other root key,
  a wrong type anywhere, a byte-order mark, and Codex drops the whole file with one warning. So
  hookwright never writes one, and refuses to edit a file Codex would drop (exit 2, at the place).
- `[hooks]` in a `config.toml` beside the file loads too, after the hooks.json (Codex warns when a
  folder has both), keyed for trust under the config.toml's path: doctor, status and list read it
  (its places from toml_places.py), hookwright never writes it. A wrong type there is no dropped
  file: Codex does not start at all (exit 1, `Error loading config.toml: ... in `hooks``).
- No project variable: a hook runs in the session's folder, which may be any folder of the
  project. A committed entry names its runtime from the top of the git work tree, found when
  it runs, `"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/.codex/hookwright/...`: Codex
  loads a project's `.codex/` only from that top down to the session's folder (outside git, only
  in the folder itself, which `pwd` names), so the command finds the runtime wherever a teammate
  checked the project out. The user scope names the runtime by its absolute path.
- No hook runs untrusted, and Codex says nothing when it skips one (codex_trust.py): the plan says
  which hooks the change leaves untrusted and how to trust them; --trust-hooks writes the trust.
- No question can be asked (a guard that wants to ask denies), and a hook that fails lets the call
  run (the runtime's --fail-closed exit 2 blocks; a timeout still lets it run).

An entry is ours by its command: `python3 -I -S <...>/hookwright/<pack>/<script> --host codex [...]`.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ... import resources, safe_read
from ...document import Document
from ...errors import ExitCode, HookwrightError, command_line
from ...hooks.model import resolved
from ...layout import DEFAULT_PYTHON, RUNTIME_FOLDER
from ..base import (
    Capabilities,
    Dropped,
    Entry,
    HooksOff,
    MatcherGroups,
    Scope,
    Skipped,
    Target,
    check_events,
    env_path,
    files_below,
    holds_events,
    plugin_top,
    quoted_absolute,
    refuse_shape,
    subfolders,
)
from . import CONFIG_KIND, FOLDER, KIND, KINDS, SHELL_TOOL, TITLE, TOOL_INPUTS, trust, user_dir

if TYPE_CHECKING:
    from ...doctor.discovery import Candidate
    from ...hooks.model import ConfigFile
    from ...packs import HostTarget, Pack, PackHook
    from ...planning.plan import Plan

HOOKS_FILE = "hooks.json"
CONFIG_FILE = "config.toml"
# Codex's system config.toml and its managed settings (requirements.toml, managed_config.toml) on
# Linux and macOS, read before and over the user's (docs/hosts/codex.md#switches)
SYSTEM_FOLDER = Path("/etc/codex")
REQUIREMENTS_FILE = "requirements.toml"
MANAGED_CONFIG_FILE = "managed_config.toml"
# what of the managed requirements is measured (#switches); another key about hooks is not
KNOWN_REQUIREMENTS = {"allow_managed_hooks_only", "features"}
ROOT_KEYS = ("description", "hooks")
# how deep a hooks.json nests arrays and objects, the root one: at one more Codex drops the file
# with "recursion limit exceeded" (#file-format, measured on 0.171.0)
MAX_NESTING = 127
# the other names its hooks' matchers select a tool by ([hook_names]; apply_patch's measured on 0.171.0: #tool-names)
TOOL_ALIASES = {"apply_patch": ("Write", "Edit"), "spawn_agent": ("Agent",)}
# the top of the git work tree, as a committed command finds it when it runs (see above)
WORK_TREE = '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"'
TRUST_FLAG = "--trust-hooks"
# what the interactive `codex` asks before it runs a hook that is not trusted yet, measured on 0.171.0
# (docs/hosts/codex.md#trust): a project with no trust decision, and a hook with no hash or another's
FOLDER_ASKED = ('started in the project, `codex` asks "Trust this folder?" first (answer "Trust and continue"), '
                "and `codex exec` skips it without a word")
REVIEW_ASKED = ('`codex` asks "Hooks need review" when it starts (answer "Trust all and continue", or review it '
                "in /hooks), and `codex exec` skips it without a word")
# names beside a config.toml that Codex never reads hooks from (#config-files, measured on 0.171.0)
MISPLACED_NAMES = ("hooks.toml", "hooks.jsonc", "settings.json")
EVERY_MCP_TOOL = "^mcp__"  # (an MCP tool is mcp__<server>__<tool>: docs/hosts/codex.md#tool-names)


def xdg_folder() -> Path | None:
    """$XDG_CONFIG_HOME/codex (else ~/.config/codex), where other tools keep their config but Codex
    reads nothing (#config-files: it reads $CODEX_HOME alone); None where CODEX_HOME names it."""
    folder = env_path("XDG_CONFIG_HOME", Path.home() / ".config") / "codex"
    return None if resolved(folder) == resolved(user_dir()) else folder


def home_as_codex_names_it() -> Path:
    """The folder as Codex names it in a hook's trust key: $CODEX_HOME with its links resolved
    (Codex canonicalises the variable), or ~/.codex as $HOME says."""
    value = os.environ.get("CODEX_HOME", "")
    return Path(os.path.realpath(value)) if value else Path.home() / ".codex"


def user_config() -> Path:
    """The user's config.toml: the one file whose trust counts (docs/hosts/codex.md#trust)."""
    return user_dir() / CONFIG_FILE


class Settings(dict):  # type: ignore[type-arg]
    """A config.toml's data, a type of its own: the checks of a hooks.json leave it alone."""


def settings_document(path: Path, raw: bytes | None) -> Document:
    """A config.toml as a document: its data read with tomllib, its bytes kept as they are."""
    if raw is None:
        doc = Document.new(path)
        doc.data = Settings()
        return doc
    from .toml_places import places

    data = Settings(trust.parse_toml(raw, path))
    text = raw.decode("utf-8")
    return Document(path, raw, text, data, places(text), exists=True)  # type: ignore[arg-type]


def read_settings(path: Path) -> Document:
    """A config.toml as a document; a missing one is an empty document."""
    try:
        return settings_document(path, safe_read.read(path, safe_read.CONFIG))
    except FileNotFoundError:
        return settings_document(path, None)


def read_store() -> trust.Store:
    """The trust the user's config.toml holds (none where there is no file)."""
    path = user_config()
    return trust.store_from(path, read_settings(path).data)


COMMON_INPUT = frozenset({"session_id", "transcript_path", "cwd", "hook_event_name", "model"})
TOOL_INPUT = frozenset({"turn_id", "permission_mode", "tool_name", "tool_input", "tool_use_id", "agent_id", "agent_type"})
MODEL_REQUEST = frozenset({"kind", "request_id", "attempt_number", "thread_id", "turn_id"})


class Codex(MatcherGroups):
    name = "codex"
    title = TITLE
    scopes = (Scope.user, Scope.project)
    # asking: `permissionDecision: "ask"` is rejected, and codex exec cannot ask at all
    # (docs/hosts/codex.md#asking-the-user)
    capabilities = Capabilities(block=True, rewrite_input=True, add_context=True, answer_questions=False)
    rewrite_events = frozenset({"PreToolUse"})  # (docs/hosts/codex.md#rewriting-input)
    rewrite_field = "hookSpecificOutput.updatedInput"
    answers_as = "claude"  # (its hooks print Claude Code's hookSpecificOutput: #output-protocol)
    rewrites_combine = "parallel"  # every hook starts at once; the last rewrite to finish wins (#several-hooks)
    programs = ("codex",)
    # doctor's command and script rules read its command hooks: each rule's premise is one of the
    # facts below (measured on 0.171.0: tests/e2e/test_codex_rules_e2e.py), never its name
    commands_checked = True
    # the one event its exit 2 (with a reason on stderr) is measured to block on (#output-protocol);
    # a guard there that cannot start lets the call run (#timeouts: a missing command, a crash)
    exit_2_blocks = {"PreToolUse": "every call it matches is refused"}
    guard_events = frozenset({"PreToolUse"})
    # a PostToolUse deny, exit 2 or block comes after the command ran: a block only hands the model
    # its reason instead of the command's output (#what-the-model-gets, measured on 0.171.0:
    # tests/e2e/test_codex_rules_e2e.py); a Stop block makes the turn go on (#what-the-model-gets)
    after_the_call = {"PostToolUse": "the command has already run: a block there only hands the model the reason "
                                     "instead of the command's output, and a PreToolUse-shaped deny is not read at all",
                      "Stop": "every call of the turn has already run: a block there only makes the turn go on"}
    # the user's shell with -lc, the payload on stdin, no project or input variable (#command-execution)
    input_on_stdin_only = "the user's shell, -lc"
    hook_variables = frozenset[str]()  # (none of its own: #command-execution, measured)
    file_kinds = KINDS
    simulated = True  # simulate.py, by protocol.py
    schema = "codex-hooks.schema.json"
    trust_store = "the user's config.toml ($CODEX_HOME/config.toml)"
    # its hooks see every call of the model's shell tools as `Bash` (#tool-names: measured for
    # exec_command, the tool 0.171.0 offers; the others are the shell tools of its source), and its
    # own tools are matched by these names, case-sensitive (#matchers); any other tool (MCP, an
    # extension's) keeps a name of its own, which doctor cannot list
    tool_renames = {name: SHELL_TOOL for name in ("exec_command", "shell", "shell_command", "local_shell",
                                                  "unified_exec")}
    tool_input_renames = {"cmd": "command"}  # exec_command's `cmd`, as its hooks get it (#stdin-payload, measured)
    hook_tool_names = frozenset({SHELL_TOOL, "apply_patch", "Write", "Edit", "spawn_agent", "Agent"})
    # a shell call's command, and an edit's patch text: the model edits files with apply_patch, a
    # freeform tool whose input is the patch, and its hooks (which `Write` and `Edit` also select)
    # get it as tool_input.command, no file_path (#tool-names, measured on 0.171.0)
    tool_inputs = TOOL_INPUTS
    tool_input_notes = {"apply_patch": "an edit's patch text: the paths are its `*** Add File:`, `*** Update File:` "
                                       "and `*** Delete File:` lines"}
    tool_events = frozenset({"PreToolUse", "PostToolUse", "PermissionRequest"})
    # what each event's hook gets on stdin (#stdin-payload, measured on 0.171.0; agent_id and
    # agent_type inside a subagent, from the source): a script reading `user_prompt` reads nothing
    input_fields = {event: COMMON_INPUT | fields for event, fields in {
        "SessionStart": frozenset({"permission_mode", "source"}),
        "UserPromptSubmit": frozenset({"turn_id", "permission_mode", "prompt"}),
        "PreToolUse": TOOL_INPUT, "PostToolUse": TOOL_INPUT | {"tool_response"},
        "PreModelRequest": MODEL_REQUEST, "PostModelRequest": MODEL_REQUEST | {
            "status", "error", "token_usage", "response_id"},
        "Stop": frozenset({"turn_id", "permission_mode", "stop_hook_active", "last_assistant_message"}),
        "SessionEnd": frozenset({"reason"})}.items()}
    exact_name_matcher = r"[A-Za-z0-9_|]*"  # a list of exact names; anything else is a regex (#matchers)
    # (#output-protocol, #asking-the-user: measured on 0.171.0)
    rejected_answers = {"PreToolUse": {
        ("permissionDecision", "ask"): "unsupported permissionDecision:ask"}}
    answer_needs = {"PreToolUse": {
        ("permissionDecision", "deny"): ("permissionDecisionReason",
                                         "permissionDecision:deny without a non-empty permissionDecisionReason"),
        ("permissionDecision", "allow"): ("updatedInput", "unsupported permissionDecision:allow")}}

    # a PreToolUse answer with these keys is invalid: the hook failed and the call runs (#output-protocol)
    rejected_keys = {"PreToolUse": {"continue": ("false", "unsupported continue:false on PreToolUse"),
                                    "stopReason": (None, "unsupported stopReason on PreToolUse"),
                                    "suppressOutput": ("true", "unsupported suppressOutput on PreToolUse")}}
    exit_2_needs_reason = {"PreToolUse": "exited with code 2 but did not write a blocking reason"}

    @property
    def answer_fields(self) -> dict[str, tuple[frozenset[str], frozenset[str]]]:  # type: ignore[override]
        """A PreToolUse answer with another field, or a hookSpecificOutput without hookEventName, is
        invalid: the hook failed and the call runs (#output-protocol, measured on 0.171.0:
        tests/e2e/test_codex_rules_e2e.py)."""
        from .protocol import SPECIFIC_FIELDS, TOP_FIELDS  # (the protocol module imports this one)

        return {"PreToolUse": (frozenset(TOP_FIELDS), frozenset(SPECIFIC_FIELDS))}
    reads_answer_on_failure = False  # (a deny with exit 1 let the call run: #output-protocol, measured)
    # an async PreToolUse hook's deny (after 2 s) and exit 2 let their calls run, its sync twin's
    # blocked (#handler-fields, measured on 0.171.0: tests/e2e/test_codex_rules_e2e.py)
    background_events = frozenset({"PreToolUse"})

    @property
    def project_folder_word(self) -> str:
        """No project variable (#command-execution): the top of the work tree, as install writes it."""
        return WORK_TREE

    def _target(self, scope: Scope, project: Path | None, pack: str | None) -> Target:
        base = user_dir() if project is None else project / FOLDER
        return Target(self.name, scope, base / HOOKS_FILE, base / RUNTIME_FOLDER, project)

    def config_files(self, project: Path, also: frozenset[Path] = frozenset()) -> list[Candidate]:
        """$CODEX_HOME's hooks.json and config.toml, then each `.codex/`'s from the project root down
        to the project's folder, root first, in each folder the hooks.json first (#config-files)."""
        from ...doctor.discovery import Candidate

        home = user_dir()
        found = [Candidate(home / HOOKS_FILE, "user", KIND, project), Candidate(home / CONFIG_FILE, "user", CONFIG_KIND, project)]
        for path in self.project_files_read_from(project):
            if path.parent != home:
                found += [Candidate(path, "project", KIND, path.parent.parent),
                          Candidate(path.with_name(CONFIG_FILE), "project", CONFIG_KIND, path.parent.parent)]
        return found

    def given_file(self, path: Path, project: Path) -> Candidate | None:
        """A hooks.json or config.toml in a .codex folder or $CODEX_HOME: the user's, or a project's."""
        from ...doctor.discovery import Candidate

        parent = resolved(path).parent
        user = parent == resolved(user_dir())
        kind = {HOOKS_FILE: KIND, CONFIG_FILE: CONFIG_KIND}.get(path.name)
        if kind is None or not (user or parent.name == FOLDER):
            return None
        return Candidate(path, "user" if user else "project", kind, project if user else parent.parent)

    # a deny with an unknown field beside it let the call run: the output structs take no unknown
    # field (measured on 0.171.0, docs/hosts/codex.md#output-protocol)
    rejects_unknown_fields = frozenset({"PreToolUse"})

    def files_never_read(self, start: Path) -> list[tuple[Path, str]]:
        """The `.codex/` files in the folders below `start`: Codex reads the project layers from the
        root down to the folder it starts in, never one below it (#config-files, measured); and
        the hooks files written where Codex reads none (`misplaced`, #config-files, measured on
        0.171.0: hooks/list listed none of them): a hooks.json in a subfolder of a `.codex/` or of
        $CODEX_HOME (`.codex/hooks/hooks.json`, beside the scripts), a `hooks.toml`, `hooks.jsonc`
        or `settings.json` beside the config, and a `hooks.json` at the top of a project that has
        a `.codex/` (and is no plugin, whose manifest may name it)."""
        below = [(path, "codex-below") for path in files_below(start, FOLDER, (HOOKS_FILE, CONFIG_FILE))
                 if path.parent != user_dir()]
        folders = [user_dir(), *(path.parent for path in self.project_files_read_from(start))]
        places = [folder / name for folder in folders for name in MISPLACED_NAMES]
        places += [sub / HOOKS_FILE for folder in folders for sub in subfolders(folder)]
        root = trust.root_of(start)
        if (root / FOLDER).is_dir() and not plugin_top(root):
            places.append(root / HOOKS_FILE)
        xdg = xdg_folder()
        places += [xdg / name for name in (HOOKS_FILE, CONFIG_FILE, *MISPLACED_NAMES)] if xdg is not None else []
        return below + [(path, "misplaced") for path in dict.fromkeys(places) if holds_events(path, trust.LABELS)]

    def read_instead(self, path: Path) -> tuple[str, str]:
        """A project's hooks in `.codex/hooks.json` (or `[hooks]` of `.codex/config.toml`), the
        user's in $CODEX_HOME's (#config-files)."""
        home = user_dir()
        xdg = xdg_folder()
        user = home in path.parents and FOLDER not in path.relative_to(home).parts[:-1] or \
            xdg is not None and xdg in path.parents
        folder = home if user else next((p for p in (path.parent, *path.parents) if p.name == FOLDER),
                                        trust.root_of(path.parent) / FOLDER)
        kind = CONFIG_KIND if path.suffix == ".toml" else KIND
        return kind, f"{folder / HOOKS_FILE} (or [hooks] in {folder / CONFIG_FILE})"

    def project_files_read_from(self, start: Path) -> list[Path]:
        """Every `.codex/hooks.json` from the project root down to the folder (#config-files)."""
        root = trust.root_of(start)
        return [folder / FOLDER / HOOKS_FILE for folder in reversed((start, *start.parents)) if root in (folder, *folder.parents)]

    # ---- what a pack becomes -------------------------------------------------------------
    def wiring_from_claude(self, hook: PackHook, claude: HostTarget) -> HostTarget | str:
        """Not yet: Codex has PreToolUse, but reads a Claude Code answer otherwise (ask, allow alone and
        continue:false make the hook fail and the call run; a deny needs its reason: #output-protocol),
        so a command pack written for Claude Code is not known to mean the same here."""
        return (f"hookwright does not wire a command pack into {self.title} yet: Codex reads Claude Code's "
                "answers differently (an ask, an allow alone or continue:false make the hook fail and the "
                "call run; a deny needs a reason), so this hook is not known to mean the same there")


    def render(self, target: Target, pack: Pack, options: dict[str, Any], python: str = DEFAULT_PYTHON) -> list[Entry]:
        entries = []
        for hook in pack.hooks_for(self.name):
            wiring = hook.targets[self.name]
            closed = pack.fails_closed(hook, options)
            handler = {"type": "command",
                       "command": self.runtime_command(pack, options, self.runtime_path(target, pack, hook), python,
                                                       closed),
                       "timeout": wiring.whole_timeout}
            entries += [Entry.of(pack.name, hook.id, event, pack.matcher(hook, self.name, options), handler)
                        for event in wiring.events]
        return entries

    def runtime_path(self, target: Target, pack: Pack, hook: PackHook) -> str:
        """A project's runtime from the top of the work tree, found when the hook runs (the
        module's docstring says why); the user's by its absolute path."""
        path = target.pack_dir(pack.name) / hook.script
        if target.scope is Scope.user or target.project is None:
            return quoted_absolute(path)
        return WORK_TREE + "/" + quoted_absolute(path.relative_to(trust.root_of(target.project)))

    def unstarted_effect(self, event: str, handler: Any, exits_2: str | None) -> str:
        """A hook that cannot start fails, and Codex runs the call (#timeouts: a missing command
        and a crash let it run); but python's own exit 2 for a missing script comes with its error
        on stderr, which is the reason Codex blocks with (#output-protocol)."""
        if exits_2 and event in self.exit_2_blocks:
            return f"{exits_2} and writes its error on stderr, which Codex reads as a block: {self.exit_2_blocks[event]}"
        if event in self.guard_events:
            return "the hook fails, and Codex runs the call as if it were not there (it fails open)"
        return "the hook fails, and Codex goes on without it"

    def shared_by_projects(self, file: ConfigFile) -> bool:
        """The user's hooks run in every project's sessions, in the session's folder (#command-execution)."""
        return file.scope in ("user", "managed")

    def default_timeout(self, kind: str | None, event: str) -> float | None:
        """600 s unset; SessionEnd and Interrupt 1 s (docs/hosts/codex.md#timeouts)."""
        if kind != "command":
            return None
        return 1 if event in trust.SHORT_TIMEOUT else trust.DEFAULT_TIMEOUT

    def tools_in_words(self, matcher: str | None) -> str:
        return "every MCP tool" if matcher == EVERY_MCP_TOOL else matcher or "every tool"

    def tools_selected(self, matcher: Any) -> frozenset[str] | None:
        """A list of exact names of its own tools or their aliases (`Edit|Write`: apply_patch), each
        tool by the name its hooks see (#matchers, #tool-names)."""
        if not isinstance(matcher, str) or not matcher or not re.fullmatch(self.exact_name_matcher, matcher):
            return None
        names = set(matcher.split("|")) - {""}
        return frozenset(map(self.hook_tool_name, names)) if names <= self.hook_tool_names else None

    def hook_tool_name(self, tool: str) -> str:
        """The name a call of the tool reaches its hooks by (tool_name): the tool an alias stands for
        (`Edit`, `Write`: apply_patch), Bash for the model's shell tools, else the name itself."""
        return self.tool_renames.get(tool) or next((name for name, aliases in TOOL_ALIASES.items() if tool in aliases),
                                                   tool)

    def owner(self, handler: Any) -> tuple[str, str] | None:
        if not isinstance(handler, dict) or handler.get("type") != "command":
            return None
        return super().owner(handler)

    # ---- reading -------------------------------------------------------------------------

    def load(self, path: Path) -> Document:
        """A hooks.json, or a TOML file: the user's config.toml (the trust plan's file), or one doctor reads."""
        if path.suffix != ".toml":
            return super().load(path)
        return read_settings(path)

    def parse(self, path: Path, raw: bytes, lenient: bool = False) -> Document:
        return settings_document(path, raw) if path.suffix == ".toml" else super().parse(path, raw, lenient)

    def problems(self, data: Any) -> set[str]:
        return set() if isinstance(data, Settings) else super().problems(data)

    def check(self, doc: Document, target: Target, force: bool) -> None:
        """Refuse a file Codex would drop whole (a hook added to it would never run) and shapes we
        cannot edit without guessing: exit 2, at the place."""
        if not doc.exists or isinstance(doc.data, Settings):
            return
        check_events(doc, "a Codex hooks.json", 'write it as {"hooks": {...}}', "PreToolUse", "matcher groups",
                     '{"matcher": "...", "hooks": [...]}')
        drop = self.dropped(doc)
        if drop is None:
            return
        for key, start, _ in doc.root.members if doc.root and len(drop.keys) == 1 else ():
            if key == drop.keys[0]:  # (a root key Codex refuses: its name is the place)
                line, column = doc.position_of(start)
                raise HookwrightError(f"Codex drops this whole file: {drop.why}", path=doc.path, line=line,
                                      column=column, hint=drop.fix)
        refuse_shape(doc, f"Codex drops this whole file: {drop.why}", *drop.keys, hint=drop.fix)

    def dropped(self, doc: Document) -> Dropped | None:
        """A byte-order mark, a root key but `description` and `hooks`, a wrong type anywhere
        (the schema: Codex's own struct): Codex drops the file with one warning (#file-format)."""
        if isinstance(doc.data, Settings):
            return _config_refused(self.schema, doc.data)
        if doc.bom:
            return Dropped((), "it starts with a byte-order mark (Codex reads strict JSON)",
                           "save the file as UTF-8 without a byte-order mark")
        for key in doc.data if isinstance(doc.data, dict) else ():
            if key not in ROOT_KEYS:
                return Dropped((key,), f"its top level takes \"description\" and \"hooks\" only, not {json.dumps(key)}",
                               f"remove {json.dumps(key)} (Codex reads nothing else there; hookwright never writes one)")
        too_deep = _nested_past(doc.data, MAX_NESTING)
        if too_deep is not None:
            return Dropped(too_deep, f"it nests arrays and objects {MAX_NESTING + 1} deep, and Codex's JSON reader "
                           f"stops at {MAX_NESTING} (\"recursion limit exceeded\")",
                           "flatten the value there (Codex reads nothing of it anyway: it is no key of its own)")
        for error in resources.schema_errors(self.schema, doc.data)[:1]:
            keys = tuple(error.instance_path)
            where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
            return Dropped(keys, f"{where or 'the file'}: {error.message}",
                           "fix the value (docs/hosts/codex.md#file-format says what Codex takes)")
        return None

    def never_loaded(self, data: Any) -> list[tuple[tuple[str | int, ...], str, str]]:
        """What Codex reads and never runs, without a word or with one line a headless run does
        not show (measured on 0.171.0, docs/hosts/codex.md#file-format, #handler-fields,
        #timeouts): an event name it does not have (case-sensitive; Claude Code's
        PostToolUseFailure and Notification are none of its), a matcher group with no `hooks`
        list (a flat handler, `handlers`: its other keys are ignored), a `prompt` or `agent`
        handler, a blank command; and a SessionEnd or Interrupt timeout over 3 s, cut to 3."""
        hooks = data.get("hooks") if isinstance(data, dict) else None
        found: list[tuple[tuple[str | int, ...], str, str]] = []
        for event, groups in hooks.items() if isinstance(hooks, dict) else ():
            if event == "state" and isinstance(data, Settings):
                continue
            if event not in trust.LABELS:
                close = next((name for name in trust.LABELS if name.lower() == str(event).lower()), None)
                found.append((("hooks", event), f"Codex has no event {json.dumps(event)} and ignores it without a word",
                              f"use {close}: event names are case-sensitive" if close else
                              "use one of Codex's events (docs/hosts/codex.md#events)"))
                continue
            for index, group in enumerate(groups if isinstance(groups, list) else []):
                if isinstance(group, dict) and "hooks" not in group:
                    found.append(_group_without_hooks(("hooks", event, index), group))
            for place in self.walk({"hooks": {event: groups}}):
                handler = place.value
                if not isinstance(handler, dict):
                    continue
                kind, timeout = handler.get("type"), handler.get("timeout")
                if kind in ("prompt", "agent"):
                    found.append((place.keys + ("type",), f"Codex skips {kind} hooks (\"{kind} hooks are not "
                                  "supported yet\")", "run a command hook instead"))
                elif kind == "command" and isinstance(handler.get("command"), str) and not handler["command"].strip():
                    found.append((place.keys + ("command",), "Codex skips a hook whose command is blank",
                                  "write the command, or remove the hook"))
                elif event in trust.SHORT_TIMEOUT and isinstance(timeout, int) and timeout > 3:
                    found.append((place.keys + ("timeout",), f"Codex cuts a {event} hook's timeout to 3 s and stops "
                                  f"it then, not after {timeout} s", "keep the hook's work under 3 s (or move it "
                                  "to Stop)"))
        return found

    def hooks_switch(self, data: Any) -> tuple[tuple[str, ...], bool] | None:
        """`[features] hooks` in a config.toml, or its old name `codex_hooks` (Codex warns that it is
        deprecated): false runs no hook of any file, without a word, and the config.toml of highest
        precedence that says it counts: a project's `true` over the user's `false` ran the user's
        hook (measured on 0.171.0: tests/e2e/test_codex_config_toml_e2e.py)."""
        features = data.get("features") if isinstance(data, Settings) else None
        for name in ("hooks", "codex_hooks"):
            if isinstance(features, dict) and isinstance(features.get(name), bool):
                return ("features", name), features[name]
        return None

    def hooks_off(self, project: Path) -> list[HooksOff]:
        """Measured on 0.171.0 (docs/hosts/codex.md#switches), each time without a word: the managed
        requirements' `allow_managed_hooks_only = true` runs only managed hooks (none of ours) and
        their `[features] hooks = false` none, whatever the config files say; requirements that
        do not parse keep Codex from starting. Then `[features] hooks` of the config.toml of
        highest precedence that sets it counts: managed_config.toml, the project's (in a trusted
        project), the user's, the system's. Another key of the requirements about hooks: not known."""
        requirements = SYSTEM_FOLDER / REQUIREMENTS_FILE
        try:
            doc = read_settings(requirements)
        except HookwrightError as error:
            return [HooksOff(requirements, (), f"Codex does not start while its managed requirements do not parse "
                                               f"({error.message})", "fix the file (it is the machine's administrator's)",
                             error.line or 1)]
        required = doc.data
        found = []
        if required.get("allow_managed_hooks_only") is True:
            found.append(HooksOff(requirements, ("allow_managed_hooks_only",),
                                  "allow_managed_hooks_only = true in Codex's managed requirements: it runs the "
                                  "managed hooks only", "ask the machine's administrator: no hook of a user or a "
                                  "project runs here", _line(doc, ("allow_managed_hooks_only",))))
        switch = self.hooks_switch(required)
        if switch is not None and not switch[1]:
            found.append(_switched_off(doc, switch[0], "in Codex's managed requirements, over every config.toml"))
        found += [HooksOff(requirements, (key,), f"Codex's managed requirements set {key}, and hookwright has not "
                           "measured what Codex does with it", "read docs/hosts/codex.md#switches",
                           _line(doc, (key,)), known=False)
                  for key in required if "hook" in key and key not in KNOWN_REQUIREMENTS]
        said = None
        for path in self._config_layers(project):
            try:
                layer = read_settings(path)
            except HookwrightError:  # (a config.toml that does not parse is a finding of its own)
                continue
            switch = self.hooks_switch(layer.data)
            said = (layer, switch) if switch is not None else said
        if said is not None and not said[1][1]:
            found.append(_switched_off(said[0], said[1][0], "in the config.toml of highest precedence that says it"))
        return found

    def _config_layers(self, project: Path) -> list[Path]:
        """The config.toml files of a session in `project`, lowest precedence first (#config-files)."""
        try:
            store = read_store()
        except HookwrightError:  # (the user's config that cannot be read trusts no project: its own finding)
            store = trust.store_from(user_config(), {})
        root = trust.root_of(project)
        below = [folder for folder in reversed(project.parents) if root in folder.parents]
        folders = [root, *below, *([project] if project != root else [])]
        trusted = [folder / FOLDER / CONFIG_FILE for folder in folders
                   if trust.project_trust(folder, store)[0] == trust.TRUSTED and folder / FOLDER != user_dir()]
        return [SYSTEM_FOLDER / CONFIG_FILE, user_config(), *trusted, SYSTEM_FOLDER / MANAGED_CONFIG_FILE]

    def unparsed_effect(self, path: Path) -> str | None:
        """A config.toml that is not TOML: Codex does not start (measured on 0.171.0, exit 1,
        `Error loading config.toml: ... <file>:<line>:<column>`); a hooks.json is dropped."""
        return "not-started" if path.name == CONFIG_FILE else None

    # ---- trust ---------------------------------------------------------------------------

    def hooks_source(self, target: Target) -> str:
        """The file's path as Codex names it in the trust keys of its hooks (#trust-key)."""
        if target.scope is Scope.user or target.project is None:
            return str(home_as_codex_names_it() / target.config.name)
        return os.path.join(os.path.realpath(target.project), FOLDER, target.config.name)

    def change_notes(self, target: Target, before: Any, after: Any, again: list[str]) -> list[str]:
        try:
            store = read_store()
        except HookwrightError as error:
            return [f"Codex runs no hook it is not told to trust, and its trust is in {error.path}, which cannot be "
                    f"read ({error.message}): hookwright cannot say which hooks Codex will run"]
        source = self.hooks_source(target)
        skipped = _newly_skipped(source, before, after, store)
        notes = _both_files_notes(target)
        was = {(h.key, h.hash) for h in trust.hooks_of(source, before)}
        brought = any((h.key, h.hash) not in was for h in trust.hooks_of(source, after))
        untrusted = _untrusted_project(target, store) if brought else None
        if not skipped and untrusted is None:
            return notes
        how = (f"`{command_line(*again, TRUST_FLAG)}` writes the trust into {store.path}, or add these lines "
               f"there:\n{trust.toml_lines([untrusted] if untrusted else [], {h.key: h.hash for h in skipped})}")
        if untrusted is not None:
            notes.append(f"Codex loads no hook of this project, and says nothing, until you trust the project "
                         f"({untrusted}) in {store.path}; a trusted project's .codex/config.toml and exec policies "
                         f"load too" + ("" if skipped else f". {how}"))
        if skipped:
            notes.append(f"Codex will skip {_count(len(skipped), 'hook')} of {target.config}, without a word, until "
                         f"{'it is' if len(skipped) == 1 else 'they are'} trusted by "
                         f"{'its' if len(skipped) == 1 else 'their'} hash: "
                         f"{'; '.join(_describe(h) for h in skipped)}. {how}")
        return notes

    def skipped(self, target: Target, data: Any) -> list[Skipped]:
        """Every command hook of the file but those Codex runs: a project not trusted, no hash
        trusted for the hook's key, or another hook's (a hook turned off with `enabled = false` is
        the user's choice, not said here)."""
        hooks = list(trust.hooks_of(self.hooks_source(target), data))
        try:
            store = read_store()
        except HookwrightError as error:
            return [_skipped(data, hook, f"Codex does not start with its config {error.path} ({error.message})",
                             f"fix {error.path}") for hook in hooks]
        project = _untrusted_project(target, store)
        level = trust.project_trust(target.project, store)[0] if project is not None and target.project else None
        whys = {trust.UNTRUSTED: f"no hash is trusted for its key in {store.path}",
                trust.MODIFIED: f"the hash trusted for its key in {store.path} is another's: the hook was edited "
                                f"or moved since it was trusted"}
        found = []
        for hook in hooks:
            state = store.state_of(hook)
            asked, at = REVIEW_ASKED, trust.hash_line(store.path, hook.key) if state == trust.MODIFIED else None
            if project is not None and level is None:
                why, asked = f"the project is not trusted yet: {store.path} says nothing of {project}", FOLDER_ASKED
            elif project is not None:  # (marked untrusted: no question is asked, the hooks stay off)
                why, asked = f"{store.path} marks the project {project} trust_level = {json.dumps(level)}", ""
                at = (store.path, _line(read_settings(store.path), ("projects", project, "trust_level")))
            elif state in whys:
                why = whys[state]
            else:
                continue
            found.append(_skipped(data, hook, why, _trust_step(store, project, hook), at, asked))
        return found

    def trust_plan(self, changes: list[Plan]) -> Plan | None:
        files = _changed_files(self, changes)
        return _trust_plan(self, files, from_disk=False) if files else None


HOST = Codex()


def _config_refused(schema: str, data: Settings) -> Dropped | None:
    """A config.toml whose `[hooks]` (its events; `state` is the trust) has a wrong type: Codex
    does not start with it (measured on 0.171.0: `Error loading config.toml: invalid type: string
    "ten", expected u64 in `hooks``, exit 1), so no hook of any file runs, nor anything else."""
    hooks = data.get("hooks")
    if hooks is None:
        return None
    view = {"hooks": {event: groups for event, groups in hooks.items() if event != "state"}
            if isinstance(hooks, dict) else hooks}
    for error in resources.schema_errors(schema, view)[:1]:
        keys = tuple(error.instance_path)
        where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
        return Dropped(keys, f"{where}: {error.message}",
                       "fix the value (docs/hosts/codex.md#file-format says what Codex takes)", "not-started")
    return None


def _group_without_hooks(keys: tuple[str | int, ...], group: dict[str, Any]) -> tuple[tuple[str | int, ...], str, str]:
    """A matcher group with no `hooks` key: Codex reads its `hooks` as an empty list and ignores
    every other key, so the group runs nothing and the file's other groups load (measured on
    0.171.0, docs/hosts/codex.md#file-format). Said at what was meant to be the handlers: a list
    under another name (`handlers`, `hook`), else a handler's fields written into the group."""
    listed = next((key for key, value in group.items() if key != "matcher" and isinstance(value, (list, dict))), None)
    if listed is not None:
        return (keys + (listed,), f"Codex reads a matcher group's handlers from \"hooks\" alone and ignores "
                f"{json.dumps(listed)}: this group has no handler", f"rename {json.dumps(listed)} to \"hooks\"")
    field = next((key for key in ("command", "type") if key in group), None)
    if field is not None:
        return (keys + (field,), "a handler written straight into the matcher group (Cursor's flat shape): Codex "
                "reads a group's handlers from its \"hooks\" list alone and ignores these keys, so the group runs "
                "nothing", 'wrap the handler: {"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}')
    return (keys, "this matcher group has no \"hooks\" list, so Codex runs nothing for it",
            'add "hooks": [{"type": "command", "command": "..."}]')


def _nested_past(data: Any, limit: int) -> tuple[str | int, ...] | None:
    """The keys of the first array or object nested deeper than `limit` (the root is 1), or None."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, keys = stack.pop()
        if len(keys) >= limit:
            return keys
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        stack.extend((child, (*keys, key)) for key, child in reversed(list(children))
                     if isinstance(child, (dict, list)))
    return None


def _switched_off(doc: Document, keys: tuple[str, ...], where: str) -> HooksOff:
    return HooksOff(doc.path, keys, f"{'.'.join(keys)} = false {where}: Codex runs no hook at all",
                    f"remove it, or set it to true, in {doc.path}", _line(doc, keys))


def _line(doc: Document, keys: tuple[str, ...]) -> int:
    node = doc.node_at(*keys)
    return doc.position(node)[0] if node is not None else 1


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _skipped(data: Any, hook: trust.Hook, why: str, fix: str, stale_at: tuple[Path, int] | None = None,
             asked: str = "") -> Skipped:
    keys = ("hooks", hook.event, hook.group, "hooks", hook.handler)
    return Skipped(hook.event, keys, data["hooks"][hook.event][hook.group]["hooks"][hook.handler], why, fix, stale_at,
                   asked)


def _trust_step(store: trust.Store, project: str | None, hook: trust.Hook) -> str:
    """How a person trusts the hook (and its project) by hand, so that it works as printed: a
    table the user's config.toml already has is changed where it is (a second table of the same
    name is no TOML, and Codex would not start), the others are added at the end of the file."""
    steps = []
    if project is not None and project in store.projects:
        steps.append(f"in {store.path}, set trust_level = \"trusted\" in [projects.{trust.toml_string(project)}]")
    if store.state_of(hook) in (trust.UNTRUSTED, trust.MODIFIED) and hook.key in store.states:
        steps.append(f"in {store.path}, set trusted_hash = {trust.toml_string(hook.hash)} in "
                     f"[hooks.state.{trust.toml_string(hook.key)}]")
    projects = [project] if project is not None and project not in store.projects else []
    hashes = {hook.key: hook.hash} if store.state_of(hook) == trust.UNTRUSTED and hook.key not in store.states else {}
    if projects or hashes:
        where = f"add these lines at the end of {store.path}" if store.path.exists() else f"create {store.path} with these lines"
        steps.append(f"{where}:\n{trust.toml_lines(projects, hashes)}")
    return "; then ".join(steps)


def _ours(hook: trust.Hook) -> bool:
    return HOST.owner({"type": "command", "command": hook.command}) is not None


def _describe(hook: trust.Hook) -> str:
    owner = HOST.owner({"type": "command", "command": hook.command})
    return f"{hook.event} ({'/'.join(owner) if owner else hook.command})"


def _newly_skipped(source: str, before: Any, after: Any, store: trust.Store) -> list[trust.Hook]:
    """The hooks the file holds after a change that Codex will skip and ran before it, or that
    the change put there: new, edited, or moved to another place (their key is positional)."""
    was = {(h.key, h.hash): store.state_of(h) for h in trust.hooks_of(source, before)}
    return [h for h in trust.hooks_of(source, after)
            if store.state_of(h) in (trust.UNTRUSTED, trust.MODIFIED) and was.get((h.key, h.hash)) != store.state_of(h)]


def _untrusted_project(target: Target, store: trust.Store) -> str | None:
    """The key to trust a project install's project under, where it is not trusted yet."""
    if target.scope is Scope.user or target.project is None:
        return None
    level, key = trust.project_trust(target.project, store)
    return None if level == trust.TRUSTED else key


def _both_files_notes(target: Target) -> list[str]:
    """Codex loads `[hooks]` of the config.toml beside a hooks.json too, and warns about both."""
    beside = target.config.parent / CONFIG_FILE
    try:
        data = read_settings(beside).data
    except HookwrightError:
        return []
    hooks = data.get("hooks")
    if not isinstance(hooks, dict) or not set(hooks) - {"state"}:
        return []
    return [f"Codex also loads the hooks in [hooks] of {beside}, and warns that the folder has both (\"prefer a "
            f"single representation\"); hookwright reads that table and never writes it"]


def _changed_files(host: Codex, plans: list[Plan]) -> list[tuple[Target, Any, Any]]:
    """(target, data before, data after) of each of the host's plans."""
    return [(plan.target, plan.document.data if plan.document.exists else {},
             {} if plan.delete_config else plan.new_data) for plan in plans if plan.target.host == host.name]


def _trust_plan(host: Codex, files: list[tuple[Target, Any, Any]], from_disk: bool) -> Plan:
    """The change to the user's config.toml that trusts what Codex would skip of `files` ((target,
    data before the change, data after it)): each project not trusted yet, the hooks of ours
    that are new or changed, and the hooks the change moved, which were trusted at their old
    place; and that forgets the trust of our hooks the change takes away, where it still holds
    their hash. `from_disk`: the files as they are now (written), not as planned."""
    from ...planning.plan import Plan

    config = user_config()
    doc = host.load(config)
    store = trust.store_from(config, doc.data)
    projects: list[str] = []
    hashes: dict[str, str] = {}
    forget: dict[str, str] = {}
    described: list[str] = []
    for target, before, after in files:
        if from_disk:
            now = host.load(target.config)
            after = now.data if now.exists else {}
        source = host.hooks_source(target)
        trusted_before = {h.hash for h in trust.hooks_of(source, before) if store.state_of(h) == trust.TRUSTED}
        ours_after = False
        for hook in trust.hooks_of(source, after):
            ours = _ours(hook)
            ours_after = ours_after or ours
            if store.state_of(hook) in (trust.UNTRUSTED, trust.MODIFIED) and (ours or hook.hash in trusted_before):
                hashes[hook.key] = hook.hash
                described.append(f"{_describe(hook)} in {target.config}")
        kept = {(h.key, h.hash) for h in trust.hooks_of(source, after)}
        forget.update((h.key, h.hash) for h in trust.hooks_of(source, before)
                      if (h.key, h.hash) not in kept and _ours(h) and store.state_of(h) == trust.TRUSTED)
        untrusted = _untrusted_project(target, store) if ours_after else None
        if untrusted is not None and untrusted not in projects:
            projects.append(untrusted)
    raw = doc.raw if doc.exists else b""
    try:
        written = trust.with_trust(raw, projects, hashes, forget)
    except Exception as error:  # (tomlkit's own errors, on a shape it cannot extend)
        raise HookwrightError(f"cannot add the trust to this file without changing what it says ({error})",
                              path=config, code=ExitCode.REFUSED,
                              hint=f"add these lines by hand:\n{trust.toml_lines(projects, hashes)}") from None
    notes = [f"trusts the project {folder} in Codex: its .codex/config.toml and exec policies load too"
             for folder in projects]
    notes += [f"trusts {what} in Codex" for what in described]
    notes += [f"forgets Codex's trust in {key}, a hook of ours the change takes away" for key in forget if key not in hashes]
    # (a user file, written for the project of the change: rollback there undoes it with the change)
    project = next((target.project for target, _, _ in files if target.project is not None), None)
    target = Target(host.name, Scope.user, config, user_dir() / RUNTIME_FOLDER, project)
    # once the changes are written it is made again (follows): from what each found under its lock
    # and the files as they are then, for another run may have moved the hooks meanwhile
    return Plan("trust", target, doc, settings_document(config, written).data, notes=notes, exact_bytes=written,
                replan=lambda: _trust_plan(host, files, from_disk=True),
                follows=None if from_disk else
                lambda done: _trust_plan(host, _changed_files(host, done) or files, from_disk=True))
