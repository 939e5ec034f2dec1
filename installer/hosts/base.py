"""What every host adapter provides, and the words they share: scope, target, entry, host.

A host is one agent whose hooks we manage, one folder each (installer/hosts/<name>/: its adapter,
adapter.py, with a HOST object, looked up with installer.hosts.get; its protocol table beside it). It knows where its files are per scope, how to read them
strictly, how a pack's hooks are written for it, which entries in a file are ours, how to add,
replace and remove them, and what it can express at all (block a call, rewrite its input, add
context, answer a question). Commands, plans, rollback, list, simulate and doctor ask the host
(the facts doctor, simulate and list read a file by: config_files, given_file, project_of,
command_cwd, fails_closed, unstarted_effect, matcher_events, skipped_in and the class attributes
beside them: file_kinds, answer_table, probed...); outside this folder no code compares an
agent's name (tests/test_host_names.py holds that at none).

A host's places are its folder's __init__.py, not its adapter: FOLDER (a project's folder of its
files, `.claude`), KINDS (doctor's kinds of its files, the one hookwright writes into first: the
adapter's file_kinds) and user_dir() (its folder of the user scope), with what discovery needs to
recognise its files. The registry (installer.hosts: project_folders, user_folders, of_kind) and
doctor's discovery read them there, and the adapter reads them from there too, so that a run
without a file of a host does not load its adapter.
"""
from __future__ import annotations

import copy
import errno
import functools
import json
import os
import re
import shlex
import shutil
from abc import ABC, abstractmethod
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Collection, Iterator, Mapping

from .. import safe_read
from ..document import STRICT_UTF8, Document, Keys, TextReading, read_document
from ..errors import ErrorKind, HookwrightError
from ..layout import DEFAULT_PYTHON, LOCAL_RUNTIME_FOLDER, RECEIPT, RUNTIME_FOLDER
from ..patterns import lazy
from ..records import Record

if TYPE_CHECKING:
    from ..document import Document
    from ..hooks.events import Event
    from ..hooks.model import Candidate, ConfigFile
    from ..packs import HostTarget, Pack, PackHook
    from ..planning.plan import Plan
    from .versions import Pin


class Scope(str, Enum):
    user = "user"
    project = "project"
    local = "local"


SCOPE_LINES = {  # what each scope means, in one line (the interactive install shows them)
    Scope.user: "for you, in every project on this machine",
    Scope.project: "for everyone who works on the project (the files are committed with it)",
    Scope.local: "for you, in this project only (git-ignored)",
}


def implied_scope(project: Path | None) -> Scope:
    """--project without --scope means the project scope (a user-scope install ignores it)."""
    return Scope.project if project is not None else Scope.user


def looped(path: Path) -> bool:
    """Whether following `path`'s links never ends (a `.claude` that links to itself)."""
    try:
        os.stat(path)
    except OSError as err:
        return err.errno == errno.ELOOP
    return False


def check_project(project: Path | None) -> None:
    """A --project that names no folder is a usage error (exit 2), said alike by every command."""
    if project is not None and not project.is_dir():
        raise HookwrightError("the project folder does not exist", path=project, hint="check --project")


def scope_reason(scope: Scope | None, project: Path | None) -> str | None:
    """What the plan's header says when the user did not name the scope."""
    if scope is not None:
        return None
    return "--project without --scope" if project is not None else "the default; --scope to choose"


class Target:
    """One config file of one host, and where the runtimes we wire into it live."""

    def __init__(self, host: str, scope: Scope, config: Path, runtime_root: Path, project: Path | None,
                 personal: bool = False) -> None:
        self.host = host
        self.scope = scope
        self.config = config
        self.runtime_root = runtime_root  # one folder per pack, each with its receipt
        self.project = project
        self.personal = personal  # the runtimes must stay out of version control (a .gitignore in runtime_root)

    def pack_dir(self, pack: str) -> Path:
        return self.runtime_root / pack

    def receipt_path(self, pack: str) -> Path:
        return self.pack_dir(pack) / RECEIPT

    @property
    def place_args(self) -> list[str]:
        """The options that name this place on a command line (a hint's command)."""
        return ["--host", self.host, "--scope", self.scope.value] + (
            ["--project", str(self.project)] if self.scope is not Scope.user and self.project is not None else [])

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, "scope": self.scope.value, "config": str(self.config),
                "runtime_root": str(self.runtime_root),
                "project": str(self.project) if self.project else None, "personal": self.personal}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "Target":
        """The target a journal entry recorded (rollback acts on it wherever it is run from)."""
        return cls(raw["host"], Scope(raw["scope"]), Path(raw["config"]), Path(raw["runtime_root"]),
                   Path(raw["project"]) if raw.get("project") else None,
                   raw.get("personal", Path(raw["runtime_root"]).name == LOCAL_RUNTIME_FOLDER))


class HandlerPlace:
    """One handler in a config's hooks tree (Host.walk)."""

    def __init__(self, event: str, keys: Keys, group: Keys, matcher: Any, value: Any) -> None:
        self.event = event
        self.keys = keys  # where the handler is: ("hooks", event, group, "hooks", index), or ("hooks", event, index)
        self.group = group  # where its matcher group is (a flat entry: the entry itself)
        self.matcher = matcher  # as written (a string, or whatever else is there)
        self.value = value  # an object, or a bare string where an object belongs (the checks say what is wrong)


class Entry(Record):
    """One hook handler we put (or will put) into a config: where, and the exact handler."""

    pack: str
    hook: str
    event: str
    matcher: str | None
    handler_json: str  # the handler object as JSON (key order kept), so an Entry is hashable

    @classmethod
    def of(cls, pack: str, hook: str, event: str, matcher: str | None, handler: dict[str, Any]) -> "Entry":
        return cls(pack, hook, event, matcher, json.dumps(handler))

    @property
    def key(self) -> str:
        """Identity for comparing plans: where it goes and what it runs, key order aside."""
        return json.dumps([self.event, self.matcher, self.handler], sort_keys=True)

    @property
    def handler(self) -> dict[str, Any]:
        handler: dict[str, Any] = json.loads(self.handler_json)
        return handler

    @property
    def command(self) -> str:
        return str(self.handler.get("command", ""))

    def to_json(self) -> dict[str, Any]:
        return {"pack": self.pack, "hook": self.hook, "event": self.event, "matcher": self.matcher,
                "handler": self.handler}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "Entry":
        return cls.of(raw["pack"], raw["hook"], raw["event"], raw.get("matcher"), raw["handler"])

    def describe(self) -> str:
        on = f" on {self.matcher}" if self.matcher else ""
        return f"{self.event}{on}: {self.pack}/{self.hook}"


class Dropped(Record):
    """Why a host drops a whole file of hooks it reads (Host.dropped): install refuses to edit it,
    doctor says it."""

    keys: Keys  # where the file breaks the host's format (() the file as a whole)
    why: str
    fix: str  # what to do, for a hint
    # what the host does instead of reading it, as a variant of doctor's rule words it (None: drops
    # the file; "not-started": refuses to start at all, as Codex does with a config.toml)
    effect: str | None = None


class Skipped(Record):
    """A hook of a host's file that the host will not run until the user trusts it (Host.skipped)."""

    event: str
    keys: Keys  # where the handler is in the file
    handler: Any  # as written (Host.owner tells whose it is)
    why: str  # what is not trusted, in the host's words
    fix: str  # how to trust it by hand (the lines to add where the host keeps its trust)
    # where the host keeps the decision that keeps it skipped, the line to change (a stale hash, a
    # project marked untrusted: its file and line), if any
    stale_at: tuple[Path, int] | None = None
    # what the host's interactive session asks about it before it runs, and how to answer ("": it
    # asks nothing, and the skip is silent everywhere)
    asked: str = ""


class HooksOff(Record):
    """A setting of the host's, outside its hooks files, that keeps it from running the hooks of
    those files (Host.hooks_off): status and doctor say it where it is."""

    path: Path  # the file that says it
    keys: Keys  # where in it (() the file as a whole)
    why: str  # what it does, in words
    fix: str
    line: int = 1  # the line of `keys` in the file
    known: bool = True  # False: hookwright does not know what the host makes of it (not measured)


class PartTimeHooks(Record):
    """Hooks a file registers that run in only part of a session (Host.part_time_hooks): a skill's
    frontmatter, whose hooks start once the skill has run."""

    host: str
    path: Path
    line: int  # the line that registers them (`hooks:`)
    owner: str  # what registers them, in words ("skill release")
    events: tuple[tuple[str, tuple[str, ...]], ...]  # (event, the commands of its hooks)
    when: str  # when they run, in words


class Capabilities(Record):
    """What a host lets a hook do (the README's capability table is made from these)."""

    block: bool  # refuse a tool call, with a reason the model reads
    rewrite_input: bool  # change a tool call's arguments before it runs
    add_context: bool  # add text the model reads
    answer_questions: bool  # answer the agent's question to the user (AskUserQuestion)

    def lacks(self, needs: set[str]) -> list[str]:
        return [need for need in sorted(needs) if not getattr(self, need)]


CAPABILITY_WORDS = {"block": "block a tool call", "rewrite_input": "rewrite a tool's input",
                    "add_context": "add context for the model", "answer_questions": "answer a question"}


class Host(ABC):
    """One agent's hook files, as an installer sees them."""

    name: ClassVar[str]  # claude | cursor | opencode
    title: ClassVar[str]  # "Claude Code"
    scopes: ClassVar[tuple[Scope, ...]]
    capabilities: ClassVar[Capabilities]
    programs: ClassVar[tuple[str, ...]] = ()  # its command-line programs, to tell whether it is on this machine
    file_per_pack: ClassVar[bool] = False  # each pack is a file of its own, wholly ours (opencode's plugins)
    starts_per_call: ClassVar[bool] = True  # a hook's process per call (opencode's plugin keeps one per process)
    rewrite_events: ClassVar[frozenset[str]] = frozenset()  # where a hook's answer can change the tool's input
    rewrite_field: ClassVar[str] = ""  # what in a hook's answer carries the new input
    # how it decodes its config files' bytes (a byte-order mark that selects UTF-16, undecodable
    # bytes read as U+FFFD): install writes such a file back in its encoding, doctor reads it so
    text_reading: ClassVar[TextReading] = STRICT_UTF8

    @property
    def answers_as(self) -> str:
        """The host whose answer shape a hook prints here (Codex reads Claude Code's
        hookSpecificOutput): doctor reads a script's rewrite in that shape."""
        return self.name
    # top-level keys the host needs for its hooks to load, that an install adds where missing, and why
    required_keys: ClassVar[dict[str, tuple[Any, str]]] = {}
    # facts doctor, simulate and list read the host's files by (installer/hooks, installer/doctor)
    dedups_commands: ClassVar[bool] = False  # one command string in several settings files runs once
    has_plugins: ClassVar[bool] = False  # its settings enable plugins that bring hooks of their own
    # the plugin marketplaces it knows without any settings declaring them (`name@marketplace`)
    builtin_marketplaces: ClassVar[frozenset[str]] = frozenset()
    # doctor's command and script rules read its command hooks, and a project's files of it are
    # checked with the machine's other scopes and shared out between processes
    commands_checked: ClassVar[bool] = False
    # the kind of file whose code holds its hooks, registered in-process (opencode's plugins); None:
    # its hooks sit in a JSON tree that doctor loads handler by handler
    plugin_file_kind: ClassVar[str | None] = None
    # doctor's names of the kinds of its files (config_files' candidates, a ConfigFile's kind;
    # installer.hosts.of_kind tells a kind's host), the kind of the file hookwright writes into first
    file_kinds: ClassVar[tuple[str, ...]] = ()
    # doctor --probe runs its foreign command hooks on a synthetic payload of each event and reads
    # their answers (by Claude Code's protocol table: the one host whose every event it has)
    probed: ClassVar[bool] = False
    # schemas/<this>: what its hooks' answers are checked against by `pack test`, where the host
    # itself cannot run here and its documented answer shapes stand in for it (Cursor's)
    answer_schema: ClassVar[str] = ""
    # which protocol table doctor's script rules read its hooks' output by (installer/hosts/*/
    # protocol.py's TABLE): Claude Code's per-event answers or Cursor's; "" neither
    answer_table: ClassVar[str] = ""
    # its SessionEnd hooks share one time budget, which cuts a longer timeout short
    shares_session_end_budget: ClassVar[bool] = False
    # environment variables it gives the hooks of some events only: the variable, those events
    event_variables: ClassVar[dict[str, frozenset[str]]] = {}
    # the variables of its own it sets for its command hooks (measured or documented), of which a
    # hook copied from another host may need one it does not set; None: not known, and doctor says
    # nothing of another host's variable in its hooks
    hook_variables: ClassVar[frozenset[str] | None] = None
    # the tools that change a file's content, each by its own name (a guard of files matched on
    # some of them leaves the others free to change the file)
    file_changing_tools: ClassVar[tuple[str, ...]] = ()
    # the host whose hook files it also runs, in the same projects (Cursor's third-party configs:
    # Claude Code's settings), so that a hook in each may answer one call twice; "" none
    runs_hooks_of: ClassVar[str] = ""
    # its own names of events simulate takes: (Claude Code's event, the tool the event implies)
    native_events: ClassVar[dict[str, tuple[str, str | None]]] = {}
    # Claude Code's events by its names for them (simulate takes these too, where --host names it or none)
    event_names: ClassVar[dict[str, str]] = {}
    simulated: ClassVar[bool] = False  # its folder has a simulate.py that runs its hooks on a call
    # the events whose hook can refuse an action (a tool call, a prompt, a settings change): where
    # such a guard cannot start, the action goes through unchecked
    guard_events: ClassVar[frozenset[str]] = frozenset()
    # the fields an answer of each event may hold, at its top level and inside hookSpecificOutput,
    # where the host rejects the whole answer for any other (Codex's structs); {}: not so
    answer_fields: ClassVar[dict[str, tuple[frozenset[str], frozenset[str]]]] = {}
    # the events whose hooks run after the call they are about, with what a refusal there does
    # (measured), for a guard registered on one of them; {} where doctor's protocol rules say it
    after_the_call: ClassVar[dict[str, str]] = {}
    # the events whose handlers' "if" (a permission rule) the host tests before running them
    condition_events: ClassVar[frozenset[str]] = frozenset()
    # how it starts a hook's command, giving it its input as JSON on stdin alone, with no arguments
    # and no variable of the input ("sh -c"); "": not known, and doctor says nothing of either
    input_on_stdin_only: ClassVar[str] = ""
    # it runs a shell-form command with `sh -c` (on Linux: dash, where bash's syntax fails), with the
    # call on stdin and no arguments
    shell_form_in_sh: ClassVar[bool] = False
    # a handler's "shell" value -> the programs the host starts for it, one of which must be on PATH
    # (none there: the hook never runs); {}: not known, or the value changes nothing
    shell_programs: ClassVar[dict[str, tuple[str, ...]]] = {}
    # the names its hooks see tools by, where they differ from the model's: the model's name -> the
    # name a hook sees (and a matcher selects); the names its own tools are matched by; the events
    # whose matcher is a tool's name; and its exact-list form of a matcher. Empty: not known, and
    # doctor says nothing about a matcher's tool names there.
    tool_renames: ClassVar[dict[str, str]] = {}
    hook_tool_names: ClassVar[frozenset[str]] = frozenset()
    tool_events: ClassVar[frozenset[str]] = frozenset()
    exact_name_matcher: ClassVar[str] = ""
    # the tool names an event's hooks get where the event fixes them (a matcher that matches none never fires)
    event_tools: ClassVar[dict[str, frozenset[str]]] = {}
    # the event a skill's shell lines (`!` and a command in backticks) come to instead of the tool
    # events: a guard of the shell on the tool events never sees them (None: no such lines)
    skill_shell_event: ClassVar[str | None] = None
    # its tools' names for Claude Code's tools (opencode's `bash`, Cursor's `Shell`: Bash), where a
    # config or a script written for it may name one to Claude Code
    claude_tool_names: ClassVar[dict[str, str]] = {}
    # the fields of a tool's input its hooks get by another name than the model gives it: model's -> hooks'
    tool_input_renames: ClassVar[dict[str, str]] = {}
    # the fields of tool_input its hooks get from each of its tools, by the name they see it by (measured);
    # a tool not listed: not known
    # the kind of its settings files whose "env" the session gives every hook, merged across scopes
    # (the highest file that sets a variable wins); None: no such files
    settings_env_kind: ClassVar[str | None] = None
    tool_inputs: ClassVar[dict[str, frozenset[str]]] = {}
    # the event that fires only for a call that would ask the user (Claude Code's PermissionRequest),
    # and the permission modes in which the calls of some tools never ask
    prompt_event: ClassVar[str] = ""
    prompt_free_modes: ClassVar[dict[str, frozenset[str]]] = {}
    # the commands of its shell tool a mode lets through unasked (a mode: the words that start them)
    prompt_free_commands: ClassVar[dict[str, frozenset[str]]] = {}
    # a mode a settings file sets only in some scopes (the others' are not taken up): mode -> scopes
    prompt_mode_scopes: ClassVar[dict[str, frozenset[str]]] = {}
    # the command-line flags that start a session in a mode: flag -> mode
    prompt_mode_flags: ClassVar[dict[str, str]] = {}
    # the field of tool_input that carries the text a file-writing tool writes, per tool (measured)
    written_text: ClassVar[dict[str, str]] = {}
    # what a field of a tool's input holds, where its name does not say it: tool -> a note for a hint
    tool_input_notes: ClassVar[dict[str, str]] = {}
    # answers an event rejects, so that the hook counts as failed and the call runs (it fails open):
    # event -> {(field, value): what the host says}
    rejected_answers: ClassVar[dict[str, dict[tuple[str, str], str]]] = {}
    # answers an event takes only with another field beside them, else the hook fails (and the call
    # runs): event -> {(field, value): (the field it needs, what the host says)}
    answer_needs: ClassVar[dict[str, dict[tuple[str, str], tuple[str, str]]]] = {}
    # answer keys an event rejects by their presence (a value given: only that value, as JSON
    # writes it), so that the hook counts as failed and the call runs: event -> {key: (value, said)}
    rejected_keys: ClassVar[dict[str, dict[str, tuple[str | None, str]]]] = {}
    # the fields each event's hook gets on stdin, for a host whose input no other table says (Codex;
    # Claude Code's and Cursor's are their protocol tables'): event -> fields (an event left out: not measured)
    input_fields: ClassVar[dict[str, frozenset[str]]] = {}
    # it reads a hook's JSON answer on stdout whatever its exit status (Claude Code: exit 1 with a
    # JSON answer is read like exit 0); False: on exit 0 alone, a non-zero exit is a failed hook
    reads_answer_on_failure: ClassVar[bool] = False
    # it writes a hook's input as compact JSON (no space after `:` or `,`), measured: a text match
    # on the raw input that expects `"key": "value"` never holds; False where not measured
    compact_input: ClassVar[bool] = False
    # the events whose exit 2 blocks only with a reason on stderr (without one the hook failed
    # and the call runs): event -> what the host says
    exit_2_needs_reason: ClassVar[dict[str, str]] = {}
    # the events whose `async: true` handler runs in the background, its answer never read (a
    # block or a rewrite never happens), for a host whose scripts doctor reads by rejected_answers
    # (Codex); Claude Code's async hooks are script/async-answer-never-read's by its protocol table
    background_events: ClassVar[frozenset[str]] = frozenset()
    js_regex_matchers: ClassVar[bool] = False  # a matcher is a JavaScript regex-style string (Cursor's)
    # what a hook's exit 2 does, per event where it blocks (`python3 missing.py` exits 2)
    exit_2_blocks: ClassVar[dict[str, str]] = {}
    # how the answers of several hooks on one call combine: "parallel" (all run on the original
    # input, the last to finish wins), "priority" (all run, the higher-priority file's answer wins,
    # in one file nobody says), "in-order" (one after another, each sees what the last changed)
    rewrites_combine: ClassVar[str] = ""

    @property
    def pin(self) -> Pin | None:
        """The release hookwright's facts about this host are measured on (hosts/versions.toml),
        None for a host no release of which runs here (Cursor)."""
        from .versions import pin

        return pin(self.name)

    def installed(self) -> tuple[str, Path] | None:
        """(version, program) of this host on PATH, read without running it: a version in the
        program's real path (the native installer keeps `.../versions/2.1.332`), or the npm
        package.json above it; None where neither says."""
        for program in self.programs:
            found = shutil.which(program)
            if found is None:
                continue
            real = Path(found).resolve()
            named = next((part for part in reversed(real.parts) if VERSION_NAME.fullmatch(part)), None)
            if named is not None:
                return named, real
            package = self.pin.npm if self.pin else ""
            for folder in list(real.parents)[:3] if package else []:
                version = _package_version(folder / "package.json", package)
                if version is not None:
                    return version, real
        return None

    @property
    def facts_basis(self) -> str:
        """What hookwright's facts about this host rest on, as a note about a name they lack says it."""
        pin = self.pin
        return f"facts measured on {self.title} {pin.version}" if pin else f"facts from {self.title}'s documentation"

    # ---- where ---------------------------------------------------------------------------

    def target(self, scope: Scope, project: Path | None, pack: str | None = None) -> Target:
        """The file a pack goes into in `scope` (for a host whose unit is a file: the pack's own)."""
        if scope not in self.scopes:
            raise HookwrightError(f"{self.title} has no {scope.value} scope",
                                  hint=f"use --scope {' or '.join(s.value for s in self.scopes)}")
        if scope is Scope.user:
            return self._target(scope, None, pack)
        from ..project import project_of

        project = project_of(project).resolve()
        if not project.is_dir():
            raise HookwrightError(f"the project folder {project} does not exist", path=project,
                                  hint="give an existing folder with --project")
        found = self._target(scope, project, pack)
        user = self._target(Scope.user, None, pack)
        for folder in (found.config.parent, found.runtime_root.parent):
            if os.path.islink(folder) and looped(folder):
                raise HookwrightError("cannot be read: its symlinks form a loop", path=folder, kind=ErrorKind.UNREADABLE,
                                      hint="fix or remove the link that points back at itself")
        if os.path.realpath(found.config.parent) == os.path.realpath(user.config.parent):
            raise HookwrightError(f"in {project}, {scope.value} scope is your user settings ({user.config.parent})",
                                  path=found.config, hint="use --scope user, or run from a project")
        return found

    @abstractmethod
    def _target(self, scope: Scope, project: Path | None, pack: str | None) -> Target:
        """The target in an existing project (None for the user scope)."""

    def project_file(self) -> str:
        """The project's config file from the project's folder (`.claude/settings.json`), for a hint."""
        probe = Path("/project")
        return self._target(Scope.project, probe, "x").config.relative_to(probe).as_posix()

    def user_hooks_folder(self) -> str:
        """Where a user keeps the scripts of their own hooks, as a hint names it (`~/.claude/hooks/`)."""
        folder, home = self.user_folder(), Path.home()
        return ("~/" + folder.relative_to(home).as_posix() if folder.is_relative_to(home) else str(folder)) + "/hooks/"

    def given_file(self, path: Path, project: Path) -> Candidate | None:
        """What the place of a file named on doctor's command line says where it is one of this
        host's files (its scope, project and kind), else None."""
        return None

    def given_files(self, paths: list[Path], project: Path) -> list[Candidate | None]:
        """given_file of each path: an adapter whose answer compares with places it has to look
        up on the disk (the user's folder, the managed policies) looks them up once for all."""
        return [self.given_file(path, project) for path in paths]

    def project_files_read_from(self, start: Path) -> list[Path] | None:
        """The project config files a session started in `start` reads (None: not measured, so
        nothing is said about a session started in a subfolder)."""
        return None

    # the events whose JSON answer this host rejects whole for a field it does not know (the hook
    # failed: a deny beside a misspelt field lets the call run); measured per host
    rejects_unknown_fields: frozenset[str] = frozenset()

    def files_never_read(self, start: Path) -> list[tuple[Path, str]]:
        """Files of this host's shape, near a session started in `start`, that the session does not
        read, each with why (a variant of structure/settings-not-read): only what was measured."""
        return []

    def read_instead(self, path: Path) -> tuple[str, str]:
        """For a file of files_never_read's "misplaced": the kind of file it is written as, and the
        place the host reads such a file from instead."""
        raise NotImplementedError

    def user_folder(self) -> Path:
        """The host's folder of the user scope (~/.claude): never a project's, wherever it is."""
        return self._target(Scope.user, None, "x").runtime_root.parent

    def found_on_this_machine(self) -> str | None:
        """Where this host shows itself here (its config folder, or a program on PATH), if it does."""
        folder = self._target(Scope.user, None, "x").config.parent
        if folder.is_dir():
            return str(folder)
        program = next((p for p in self.programs if shutil.which(p)), None)
        return shutil.which(program) if program else None

    # ---- reading -------------------------------------------------------------------------

    def read(self, target: Target, force: bool = False) -> Document:
        """The config, read strictly; a shape we cannot edit without guessing is an error that
        names the file, the line and the column (exit 2). `force`: take over our own file even
        if someone edited it (hosts whose unit is a file)."""
        doc = self.load(target.config)
        self.check(doc, target, force)
        return doc

    def load(self, path: Path) -> Document:
        """The file as a document (a missing file: an empty one), without judging its shape."""
        return read_document(path, self.text_reading)

    def edited(self, doc: Document, target: Target) -> bool:
        """Whether someone changed a file that is wholly ours by hand (a host whose unit is a
        pack's own file can tell; in a shared config, the receipt's entries tell instead)."""
        return False

    def parse(self, path: Path, raw: bytes, lenient: bool = False) -> Document:
        """A document from bytes (a backup's), as `load` reads them; `lenient`: as the host reads
        them, undecodable bytes replaced where it replaces them (doctor)."""
        return Document.parse(path, raw, self.text_reading, lenient)

    def check(self, doc: Document, target: Target, force: bool) -> None:
        """Refuse a document whose shape we cannot edit without guessing (a host that can
        edit any shape it reads refuses nothing)."""
        return None

    def packs_in(self, target: Target) -> set[str]:
        """The packs whose entries are in this scope's config (receipt or not)."""
        doc = self.read(target)
        return {who[0] for place in self.walk(doc.data) if (who := self.owner(place.value))}

    def holds_nothing(self, data: Any) -> bool:
        """The data is what a new file holds: a file we created for it can go again."""
        return isinstance(data, dict) and not data

    schema: ClassVar[str] = ""  # schemas/<this>: what the host reads

    def problems(self, data: Any) -> set[str]:
        """Violations of the host's schema, as comparable strings (to refuse a write that adds any)."""
        from .. import resources

        return {f"{'/'.join(map(str, e.instance_path)) or '(root)'}: {e.message}"
                for e in resources.schema_errors(self.schema, data)} if data else set()

    def new_document_data(self) -> Any:
        """What a file that does not exist yet holds, before our entries go in."""
        return {}

    # ---- what a pack becomes -------------------------------------------------------------

    def refusal(self, pack: Pack) -> str | None:
        """Why this host cannot run the pack as it is meant (None: it can). Never degraded:
        a pack that would do less here than it says is refused here."""
        lacking = self.capabilities.lacks(set(pack.needs))
        if lacking:
            return (f"{pack.name} needs to {' and '.join(CAPABILITY_WORDS[n] for n in lacking)}, "
                    f"which {self.title} hooks cannot do")
        if self.name not in pack.hosts:
            return f"{pack.name} is made for {', '.join(pack.hosts)} only (its pack.toml's hosts)"
        for hook in pack.hooks:
            why = hook.why_unwired(self.name)
            if why:
                return f"{pack.name}'s hook {hook.id} cannot run in {self.title}: {why}"
        unwired = [hook.id for hook in pack.hooks if self.name not in hook.targets]
        if len(unwired) == len(pack.hooks):
            return f"{pack.name} has no wiring for {self.title}"
        if unwired:
            return f"{pack.name} would run only in part in {self.title}: {', '.join(unwired)} have no wiring for it"
        for hook in pack.hooks:  # (a pack author's mistake: the manifest wires a rewrite where none is read)
            for event in hook.targets[self.name].events:
                if hook.rewrites_input and event not in self.rewrite_events:
                    return (f"{pack.name}'s {hook.id} rewrites tool input, which {self.title} reads only on "
                            f"{' and '.join(sorted(self.rewrite_events))}, not on {event}")
        return None

    def config_files(self, project: Path, also: frozenset[Path] = frozenset()) -> list[Candidate]:
        """Every file it reads hooks from for `project`, scope by scope in precedence order (low to
        high), whether it exists or not; `also`: resolved paths of files to be written (a plan's)."""
        return []

    def project_of(self, file: ConfigFile) -> Path | None:
        """The project whose sessions load `file` (None: not one project's file)."""
        return file.project if file.scope in ("project", "local") else None

    def command_cwd(self, file: ConfigFile) -> tuple[Path | None, bool]:
        """The folder a command of `file` starts in, and whether that is wherever the host was
        started (the project, for a session started there) rather than a fixed folder."""
        return file.project, True

    @property
    def matcher_events(self) -> Mapping[str, Event]:
        """Its events whose matcher doctor's matcher rules judge, by name, with what each filters."""
        return {}

    def unstarted_effect(self, event: str, handler: Any, exits_2: str | None) -> str:
        """What the host does when a command handler on `event` cannot start; `exits_2`: why the
        hook exits 2 instead (python's, for a missing script), which a gate may read as a block."""
        return "the hook never runs (a non-blocking error)"

    def fails_closed(self, event: str, handler: Any) -> bool:
        """Whether a failure of this handler (it cannot start, crashes, times out) blocks the call."""
        return False

    def default_timeout(self, kind: str | None, event: str) -> float | None:
        """Seconds a handler of this type runs on this event when its entry sets none (None: not documented)."""
        return None

    def tools_in_words(self, matcher: str | None) -> str:
        """The tools a wiring's matcher runs on, for messages."""
        return matcher or "every tool"

    def skill_files(self, project: Path | None) -> list[Path]:
        """The skill files a session in the project reads whose shell lines skill_shell_event sees."""
        return []

    def part_time_hooks(self, project: Path | None) -> list[PartTimeHooks]:
        """The hooks of a session in the project that run only in part of it, where they are written."""
        return []

    def tools_selected(self, matcher: Any) -> frozenset[str] | None:
        """Every tool a group's matcher selects, by the name its hooks see it by; None where that
        cannot be listed (every tool, a regex, a name that may be an MCP server's tool)."""
        return None

    def ignored_options(self, pack: Pack, chosen: dict[str, Any]) -> str | None:
        """Why an option given on the command line does nothing in this host (None: each one
        counts): it chooses the matcher in other hosts, and here the wiring fixes the matcher."""
        for hook in pack.hooks_for(self.name):
            own = hook.targets[self.name]
            for host, wiring in hook.targets.items():
                option = wiring.matcher_option
                if option in chosen and host != self.name and own.matcher_option != option:
                    return (f"--option {option} chooses {pack.name}'s matcher in other agents; in {self.title} "
                            f"it runs on {self.tools_in_words(own.matcher)} whatever the option says")
        return None

    @abstractmethod
    def render(self, target: Target, pack: Pack, options: dict[str, Any], python: str = DEFAULT_PYTHON) -> list[Entry]:
        """The entries that wire the pack's hooks into this host's file, with these options,
        started by this interpreter (interpreter.DEFAULT: python3 from PATH)."""

    project_var: ClassVar[str] = ""  # how a committed command names the project folder ("$CLAUDE_PROJECT_DIR")

    @property
    def project_folder_word(self) -> str:
        """How a committed command names the project's folder, as a hint writes it: its variable, or
        (a host without one) the shell words that find it when the hook runs."""
        return self.project_var

    def shared_by_projects(self, file: ConfigFile) -> bool:
        """Its hooks run in every project's sessions (the user's, the administrator's, a plugin's):
        a script they reach through the project's folder has to be in each project."""
        return bool(self.project_var) and (file.scope in ("user", "managed") or file.from_plugin)

    def runtime_path(self, target: Target, pack: Pack, hook: PackHook) -> str:
        """The hook's runtime as its command names it (path_word)."""
        return self.path_word(target, target.pack_dir(pack.name) / hook.script)

    def path_word(self, target: Target, path: Path) -> str:
        """A path of the install as a command names it: through the project variable in a
        project's config, so a committed config works for every teammate; else a quoted
        absolute path."""
        if target.scope is Scope.user or target.project is None:
            return quoted_absolute(path)
        return self.project_var + "/" + quoted_absolute(path.relative_to(target.project))

    # ---- a hook written for Claude Code (a command pack's) ---------------------------------

    # the host runs a command written for Claude Code's protocol as it is (Claude Code): a command
    # hook is then its own entry; every other host runs it behind the runtime (packs.py)
    runs_commands_as_written: ClassVar[bool] = False
    # a Claude Code event's name here, for a host whose hooks take Claude Code's matchers and answers
    events_from_claude: ClassVar[dict[str, str]] = {}

    def wiring_from_claude(self, hook: PackHook, claude: HostTarget) -> HostTarget | str:
        """How a command hook wired for Claude Code (`claude`: its event, matcher and timeout) is
        wired here, or why it cannot be (the pack is then refused here, with that reason). A host
        whose hooks take Claude Code's events and matchers names its events in
        `events_from_claude`; one that differs says how in its own adapter."""
        from ..packs import HostTarget

        event = self.events_from_claude.get(claude.event)
        if event is None:
            return f"{self.title} has no event for Claude Code's {claude.event} that hookwright can wire it to"
        return HostTarget(event, claude.matcher, claude.timeout)

    def command_as_written(self, target: Target, pack: Pack, hook: PackHook) -> str:
        """A command hook's command for a host that runs it as written: the pack's folder, as
        installed there, in place of ${PACK_DIR}."""
        from ..packs import PACK_DIR

        return (hook.command or "").replace(PACK_DIR, self.path_word(target, target.pack_dir(pack.name)))

    def as_written_owner(self, command: str) -> tuple[str, str] | None:
        """(pack, the command as its pack.toml writes it) for a command hook's entry of ours: a
        command that runs files of a pack's runtime folder, named as command_as_written names them."""
        found = as_written_pattern(self.project_var).search(command)
        if found is None:
            return None
        from ..packs import PACK_DIR

        pack = found["pack"]
        return pack, as_written_pattern(self.project_var).sub(
            lambda m: PACK_DIR if m["pack"] == pack else m[0], command)

    # what a hook entry sets to fail closed here: a failure of the hook (it cannot start, times out,
    # crashes) blocks the call instead of letting it go on (None: the host offers nothing for it)
    fail_closed_field: ClassVar[tuple[str, Any] | None] = None

    def runtime_command(self, pack: Pack, options: dict[str, Any], where: str, python: str = DEFAULT_PYTHON,
                        fail_closed: bool = False) -> str:
        """`python3 -I -S <where> --host <host> [--option k=v] [--fail-closed]`: how a shell starts a
        runtime (or the interpreter named by its path in place of python3)."""
        extra = "".join(f" --option {name}={shlex.quote(text)}" for name, text in changed_options(pack, options))
        return (f"{shlex.quote(python)} -I -S {where} --host {self.name}{extra}"
                + (f" {FAIL_CLOSED_FLAG}" if fail_closed else ""))

    def interpreter_of(self, handler: Any) -> str | None:
        """The interpreter one of our entries starts (None: not one of ours)."""
        parts = runtime_parts(str(handler.get("command", "")), self.name) if isinstance(handler, dict) else None
        return shlex.split(parts[0])[0] if parts else None

    def runtime_args(self, pack: Pack, options: dict[str, Any], fail_closed: bool = False) -> list[str]:
        """The same arguments after the script, as a list (for a host that starts it without a shell)."""
        return ["--host", self.name, *(arg for name, text in changed_options(pack, options)
                                       for arg in ("--option", f"{name}={text}")),
                *([FAIL_CLOSED_FLAG] if fail_closed else [])]

    def fail_closed(self, handler: dict[str, Any]) -> dict[str, Any]:
        """The handler with what makes this host block the call when the hook fails."""
        if self.fail_closed_field is None:
            return handler
        key, value = self.fail_closed_field
        return {**handler, key: value}

    # ---- our entries in a file -----------------------------------------------------------

    def owner(self, handler: Any) -> tuple[str, str] | None:
        """(pack, script) if this handler runs one of our runtimes; (pack, its command as the pack
        writes it) if it runs a command hook of ours as written."""
        if not isinstance(handler, dict):
            return None
        command = str(handler.get("command", ""))
        if "hookwright" not in command:  # (in every match of either pattern: most commands compile neither)
            return None
        parts = runtime_parts(command, self.name)
        if parts:
            return parts[1], parts[2]
        return self.as_written_owner(command) if self.runs_commands_as_written else None

    def owned_entries(self, data: Any, pack: str) -> list[Entry]:
        """Our entries for `pack` as they stand in the file now (whatever the receipt says)."""
        found = []
        for place in self.walk(data):
            who = self.owner(place.value)
            if who and who[0] == pack:
                found.append(Entry.of(pack, who[1], place.event, place.matcher, place.value))
        return found

    def loads(self, value: Any) -> bool:
        """Whether the host runs what walk found as a handler (doctor reads the ones it runs; the
        edits find ours wherever they are)."""
        return True

    @abstractmethod
    def walk(self, data: Any) -> Iterator[HandlerPlace]:
        """Every handler in a config's hooks tree, in file order, and where it is: the one walk of
        the host's tree, which the edits and doctor both read (doctor only what `loads` keeps)."""

    def find(self, data: Any, entry: Entry) -> Any | None:
        """The handler now in the file that runs `entry`'s script (ours by its command), if any."""
        script = self.owner(entry.handler)
        for place in self.walk(data):
            if place.event == entry.event and self.owner(place.value) == script:
                return place.value
        return None

    @abstractmethod
    def add(self, data: Any, entry: Entry) -> dict[str, Any]:
        """The data with our entry added (a copy; never inside a foreign group)."""

    @abstractmethod
    def remove(self, data: Any, entry: Entry, keep_empty: list[str]) -> dict[str, Any]:
        """The data without the handler that runs `entry`'s script; containers this emptied go,
        those in `keep_empty` (empty before we came) stay."""

    def replace(self, data: Any, old: Entry, new: Entry) -> dict[str, Any]:
        """Upgrade in place where the host allows it; else remove and add."""
        return self.add(self.remove(data, old, keep_empty=[]), new)

    # ---- what the host makes of a change ----------------------------------------------------

    # where the host keeps its own trust in hooks, which it runs no hook without ("" none): only
    # --trust-hooks writes it, never by default
    trust_store: ClassVar[str] = ""

    def change_notes(self, target: Target, before: Any, after: Any, again: list[str]) -> list[str]:
        """What the host will do with the file as changed that the plan must say (Codex: the hooks
        it will skip until they are trusted, and how to trust them). `before`, `after`: the file's
        data; `again`: the words of a command that makes the same change (for a hint)."""
        return []

    def trust_plan(self, changes: list[Plan]) -> Plan | None:
        """The plan that writes the host's trust in the hooks `changes` leave in their files (None:
        nothing to trust), for --trust-hooks; made again from the changes as written (Plan.follows)."""
        return None

    def dropped(self, doc: Document) -> Dropped | None:
        """Why the host drops this whole file, which it reads without error otherwise, and none of
        its hooks run (None: it loads it): a host whose format is stricter than its JSON (Codex)."""
        return None

    def never_loaded(self, data: Any) -> list[tuple[Keys, str, str]]:
        """The places of a file the host reads that it skips without running them, each with why
        and what to do: (keys, why, fix). For hosts whose structure rules do not read their files."""
        return []

    def hooks_switch(self, data: Any) -> tuple[Keys, bool] | None:
        """Where a file of the host says whether the host runs hooks at all, and what it says (None:
        it says nothing), for a switch whose value in the file of highest precedence counts for every
        file of the session (Codex's `[features] hooks`; Claude Code's disableAllHooks has rules of its own)."""
        return None

    def hooks_off(self, project: Path) -> list[HooksOff]:
        """What keeps the host from running any hook of the user's or the project's files in a
        session started in `project`, besides the switch in those files doctor reads
        (hooks_switch): its system and managed settings (Codex's /etc/codex). Empty: nothing known."""
        return []

    def allow_rules_wait_for_trust(self, scope: str | None, project: Path | None) -> bool:
        """Whether the allow rules of a file of `scope` are not taken up in `project` yet, as the
        folder is not trusted on this machine (a headless run there asks for what they allow; an
        interactive session trusts the folder first, and from then on they hold)."""
        return False

    def unparsed_effect(self, path: Path) -> str | None:
        """What the host does with a file of its that does not parse, as a variant of doctor's
        rule words it: None, it ignores that file; "not-started", it does not start at all."""
        return None

    def skipped(self, target: Target, data: Any) -> list[Skipped]:
        """The hooks of the file (its `data`) that the host will skip, without a word, until the
        user trusts them (Codex), as the host's own trust store says now; status and doctor say them."""
        return []

    def skipped_in(self, path: Path, scope: str, data: Any) -> list[Skipped]:
        """`skipped` for a file found where the host reads it (doctor's, simulate's): a user or
        project file, its project the folder above its own (nothing for another scope)."""
        if scope not in (Scope.user.value, Scope.project.value):
            return []
        where = Scope(scope)
        project = path.parent.parent if where is Scope.project else None
        return self.skipped(Target(self.name, where, path, path.parent / RUNTIME_FOLDER, project), data)

    def empty_containers(self, data: Any, entries: list[Entry]) -> list[str]:
        """Containers on the entries' paths that exist and are empty: they must stay after uninstall."""
        kept = []
        hooks = data.get("hooks") if isinstance(data, dict) else None
        if hooks == {}:
            kept.append("hooks")
        for event in {e.event for e in entries}:
            if isinstance(hooks, dict) and hooks.get(event) == []:
                kept.append(f"hooks.{event}")
        return kept



class MatcherGroups(Host):
    """A host whose file holds matcher groups, `{"hooks": {Event: [{"matcher": ..., "hooks":
    [handler, ...]}]}}` (Claude Code, Codex): the one walk of that tree and its edits."""

    def walk(self, data: Any) -> Iterator[HandlerPlace]:
        """The handlers (objects, or bare strings) of each well-formed matcher group."""
        hooks = data.get("hooks") if isinstance(data, dict) else None
        for event, groups in hooks.items() if isinstance(hooks, dict) else ():
            for gi, group in enumerate(groups) if isinstance(groups, list) else ():
                if not (isinstance(group, dict) and isinstance(group.get("hooks"), list)):
                    continue
                matcher = group.get("matcher")
                for hi, value in enumerate(group["hooks"]):
                    if isinstance(value, (dict, str)):
                        yield HandlerPlace(event, ("hooks", event, gi, "hooks", hi), ("hooks", event, gi), matcher,
                                           value)

    # ---- editing -----------------------------------------------------------------------------

    def add(self, data: dict[str, Any], entry: Entry) -> dict[str, Any]:
        """Our handler goes into a group of our own (never into a foreign group), at the end."""
        data = deep(data)
        groups = data.setdefault("hooks", {}).setdefault(entry.event, [])
        for group in groups:
            if (isinstance(group, dict) and group.get("matcher") == entry.matcher
                    and isinstance(group.get("hooks"), list) and group["hooks"]
                    and all((self.owner(h) or ("",))[0] == entry.pack for h in group["hooks"])):
                group["hooks"].append(entry.handler)
                return data
        group = {"matcher": entry.matcher} if entry.matcher is not None else {}
        group["hooks"] = [entry.handler]
        groups.append(group)
        return data

    def remove(self, data: dict[str, Any], entry: Entry, keep_empty: list[str]) -> dict[str, Any]:
        data = deep(data)
        script = self.owner(entry.handler)
        for event, (_, _, gi, _, hi), handler in [(p.event, p.keys, p.value) for p in self.walk(data)]:
            if event == entry.event and self.owner(handler) == script:
                groups = data["hooks"][event]
                del groups[gi]["hooks"][hi]
                if not groups[gi]["hooks"]:
                    del groups[gi]
                if not groups and f"hooks.{event}" not in keep_empty:
                    del data["hooks"][event]
                if not data["hooks"] and "hooks" not in keep_empty:
                    del data["hooks"]
                return data
        return data

    def replace(self, data: dict[str, Any], old: Entry, new: Entry) -> dict[str, Any]:
        """Upgrade in place: same position when event and matcher stay, else remove and add."""
        if (old.event, old.matcher) == (new.event, new.matcher):
            data = deep(data)
            script = self.owner(old.handler)
            for place in self.walk(data):
                if place.event == old.event and self.owner(place.value) == script:
                    _, event, gi, _, hi = place.keys
                    data["hooks"][event][gi]["hooks"][hi] = new.handler
                    return data
        return super().replace(data, old, new)


VERSION_NAME = lazy(r"\d+\.\d+\.\d+")


def _package_version(manifest: Path, package: str) -> str | None:
    """The version of npm package `package` whose package.json this is, if it is that one's."""
    raw = safe_read.read_or_none(manifest, safe_read.STATE)
    try:
        data = json.loads(raw) if raw is not None else None
    except ValueError:
        return None
    version = data.get("version") if isinstance(data, dict) and data.get("name") == package else None
    return version if isinstance(version, str) and VERSION_NAME.fullmatch(version) else None


def newer(version: str, than: str) -> bool:
    """Whether release `version` comes after `than` (x.y.z, compared part by part)."""
    return tuple(map(int, version.split("."))) > tuple(map(int, than.split(".")))


def runtime_parts(command: str, host: str) -> tuple[str, str, str] | None:
    """(python, pack, script) of the command of one of our runtimes for this host: `python3 -I -S
    <...>/hookwright/<pack>/<script> --host <host>` (python3, or an interpreter's absolute path,
    quoted where it needs to be; the last `hookwright[-local]/` folder of the command that fits).
    Read with str methods, not a pattern: its compile was 1.6 M instructions of doctor on a
    typical file, which has one of our commands."""
    if command.startswith("python3"):
        python = "python3"
    elif command.startswith("'/"):
        python = command[:command.find("'", 2) + 1]  # ("" where the quote is not closed)
    elif command.startswith("/"):
        python = command.split(None, 1)[0].split("'", 1)[0].split('"', 1)[0]
        python = python if len(python) > 1 else ""
    else:
        return None
    start = len(python) + len(" -I -S ")
    if not python or not command.startswith(" -I -S ", len(python)):
        return None
    at = len(command)
    while (at := command.rfind("hookwright", start, at + len("hookwright") - 1)) >= 0:  # (the last first)
        named = _pack_and_script(command, at + len("hookwright"), host)
        if named:
            return python, *named
    return None


_NAME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")  # of a pack's or a script's name


def _pack_and_script(command: str, at: int, host: str) -> tuple[str, str] | None:
    """`[-local]/<pack>/<script>['"] --host <host>` at `at`, then a blank or the command's end."""
    at += 7 if command.startswith("-local/", at) else 1 if command.startswith("/", at) else len(command) + 1
    pack_end = _name_end(command, at)
    script_end = _name_end(command, pack_end + 1) if command.startswith("/", pack_end) else -1
    if pack_end == at or script_end <= pack_end + 1:
        return None
    end = script_end + (command[script_end:script_end + 1] in ("'", '"'))
    tail = f" --host {host}"
    after = end + len(tail)
    if not command.startswith(tail, end) or after < len(command) and not command[after].isspace():
        return None
    return command[at:pack_end], command[pack_end + 1:script_end]


def _name_end(command: str, at: int) -> int:
    """Where a pack's or a script's name starting at `at` ends (`at` itself: no name there)."""
    if not "a" <= command[at:at + 1] <= "z":
        return at
    end = at + 1
    while end < len(command) and command[end] in _NAME_CHARACTERS:
        end += 1
    return end


@functools.cache
def as_written_pattern(project_var: str) -> re.Pattern[str]:
    """A pack's runtime folder as Host.path_word writes it into a command: the project variable
    and a relative path, or an absolute path (quoted where it needs to be), ending in
    `hookwright[-local]/<pack>` before the `/` of a file in it (the last such folder of the word)."""
    return re.compile(rf"""(?:{re.escape(project_var) + "/" if project_var else "(?!)"}[^\s'"]*|'/[^']*|/[^\s'";&|()<>]*)"""
                      r"""hookwright(?:-local)?/(?P<pack>[a-z][a-z0-9-]*)'?(?=/)""")


FAIL_CLOSED_FLAG = "--fail-closed"  # the runtime blocks (exit 2) when it cannot decide (hookwright_runtime.py)


def changed_options(pack: Pack, options: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, text) of the options that differ from their default: the rest are left out, so
    a default install's command stays the same across versions. (on_failure is no option of the
    runtime's: it is the --fail-closed flag, and the host's own field.)"""
    from ..packs import ON_FAILURE

    return [(name, ("true" if value else "false") if isinstance(value, bool) else str(value))
            for name, value in sorted(options.items()) if value != pack.options[name].default and name != ON_FAILURE]


BELOW_DEPTH, BELOW_FOLDERS = 4, 2000  # how far down, and over how many folders, doctor looks for them
SKIPPED_BELOW = frozenset({"node_modules", "vendor", "target", "dist", "build", "__pycache__"})


MAX_SUBFOLDERS = 64  # the subfolders of a host's folder looked into for a misplaced hooks file (a repository is not trusted)
# a plugin's manifest folders: a hooks.json at a plugin's top may be the one its manifest names
PLUGIN_MANIFEST_FOLDERS = (".codex-plugin", ".claude-plugin", ".cursor-plugin")


def subfolders(folder: Path) -> list[Path]:
    """The folders directly in `folder` (at most MAX_SUBFOLDERS, through no link)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return []
    return [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)][:MAX_SUBFOLDERS]


def plugin_top(folder: Path) -> bool:
    """A folder that holds a plugin's manifest, which may name a hooks file at its top."""
    return any((folder / manifest).is_dir() for manifest in PLUGIN_MANIFEST_FOLDERS)


def holds_events(path: Path, events: Collection[str]) -> bool:
    """A file (JSON, or TOML by its suffix) whose "hooks" object names one of `events`: a hooks
    file in a host's shape, wherever it was written (read within the config bound; a file that
    does not parse holds none)."""
    raw = safe_read.read_or_none(path, safe_read.CONFIG) if path.is_file() else None
    if raw is None or b"hooks" not in raw:
        return False
    try:
        if path.suffix == ".toml":
            # (a misplaced TOML file only: its TOML reader, which a run without one never loads)
            from .. import resources

            data: Any = resources.toml_from(path, raw, "")
        else:
            data = json.loads(raw)
    except (ValueError, RecursionError, HookwrightError):
        return False
    hooks = data.get("hooks") if isinstance(data, dict) else None
    return isinstance(hooks, dict) and any(event in hooks for event in events)


def files_below(start: Path, folder_name: str, names: tuple[str, ...]) -> list[Path]:
    """The `<folder_name>/<name>` files in the folders below `start` (a monorepo's packages'
    `.claude/settings.json`, `.codex/hooks.json`)."""
    return [sub / folder_name / name for sub in folders_below(start) for name in names
            if (sub / folder_name / name).is_file()]


@functools.lru_cache(maxsize=4)
def folders_below(start: Path) -> tuple[Path, ...]:
    """The folders below `start`, breadth first, bounded in depth and in folders visited, through no
    link and no hidden or dependency folder. Walked once for every host that looks there in a doctor
    run (doctor's `disk.fresh()` forgets it for the next run)."""
    found: list[Path] = []
    level = [start]
    for _depth in range(BELOW_DEPTH):
        deeper = []
        for folder in level:
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except OSError:
                continue
            for entry in entries:
                if len(found) >= BELOW_FOLDERS:
                    return tuple(found)
                if entry.name.startswith(".") or entry.name in SKIPPED_BELOW or not entry.is_dir(follow_symlinks=False):
                    continue
                found.append(Path(entry.path))
                deeper.append(found[-1])
        level = deeper
    return tuple(found)


def describe(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")


def outline_problem(data: Any) -> tuple[tuple[str, ...], str] | None:
    """What keeps a host from reading any hooks out of a config: (where, what is there instead) when
    the file is not an object, ((), "a list"), or its "hooks" is not an object of events,
    (("hooks",), "a string"); None when the outline is right. Install refuses such a file, doctor
    reports it, list says why it shows no hooks from it."""
    if not isinstance(data, dict):
        return (), describe(data)
    if "hooks" in data and not isinstance(data["hooks"], dict):
        return ("hooks",), describe(data["hooks"])
    return None


def check_events(doc: Document, what: str, example: str, event_example: str, entries: str, entry_example: str) -> None:
    """The shape every JSON host shares: an object, `"hooks"` an object of events, each event a
    list (of `entries`). Anything else is refused at its position (exit 2): editing it would
    mean guessing."""
    problem = outline_problem(doc.data)
    if problem and not problem[0]:
        refuse_shape(doc, f"{what} must hold a JSON object, not {problem[1]}", hint=example)
    if problem:
        refuse_shape(doc, f'"hooks" must be an object of events, not {problem[1]}', "hooks",
                     hint=f'write it as "hooks": {{"{event_example}": [...]}}')
    for event, listed in (doc.data.get("hooks") or {}).items():
        if not isinstance(listed, list):
            refuse_shape(doc, f'"hooks.{event}" must be a list of {entries}, not {describe(listed)}', "hooks", event,
                         hint=f'write it as "{event}": [{entry_example}]')


def refuse_shape(doc: Document, message: str, *keys: str | int, hint: str) -> None:
    """Stop on a shape we cannot edit without guessing: exit 2, at the value's position."""
    node = doc.node_at(*keys)
    line, col = doc.position(node) if node else (None, None)
    raise HookwrightError(message, path=doc.path, line=line, column=col, hint=hint)


def quoted_absolute(path: Path) -> str:
    return shlex.quote(str(path))


def deep(data: Any) -> Any:
    return copy.deepcopy(data)


def env_path(variable: str, fallback: Path) -> Path:
    """An XDG-style folder: the variable if it holds an absolute path, else the fallback."""
    value = os.environ.get(variable, "")
    return Path(value) if os.path.isabs(value) else fallback
