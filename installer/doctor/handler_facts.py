"""What doctor knows about one handler beyond its JSON: what its command runs (shell/resolve.py), what
the script it runs writes (scripts/keys.py), and whether it may rewrite tool input.

Shared by the command, script and conflict checks and by `hookwright list`, so that all of them
read a handler the same way. Every function here is cheap to call again: resolution and script
analysis are cached on their inputs.
"""
from __future__ import annotations

import json
import os
import weakref
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Hashable, Iterable

from .. import hosts, resources
from ..document import Keys
from ..errors import HookwrightError
from ..hooks.model import kind as kind  # (re-exported: the checks ask handler_facts)
from . import disk
from .model import ConfigFile, Handler
from .scripts import keys
from .shell import Invocation, Resolution, Where
from .shell.resolve import NO_FILE, resolve_handler, resolve_shell

if TYPE_CHECKING:  # (probe.py reads this module: its type only)
    from .scripts.probe import ProbeResult

YES, NO, UNKNOWN = "yes", "no", "unknown"
PASSED_ENV = ("CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "TMPDIR")
# events whose handlers can rewrite tool input (Claude Code; Cursor's preToolUse `updated_input`)
REWRITE_EVENTS = {"claude": frozenset({"PreToolUse", "PermissionRequest"}), "cursor": frozenset({"preToolUse"}),
                  "opencode": frozenset({"tool.execute.before"})}


def where(file: ConfigFile) -> Where:
    """What `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PLUGIN_ROOT}`, `~` and relative paths mean for the
    commands of this file (worked out once per file object: one doctor run reads a file once, in
    one environment)."""
    cached = _WHERE.get(id(file))
    if cached is not None and cached[0]() is file:
        return cached[1]
    found = _compute_where(file)
    if len(_WHERE) > 4096:
        _WHERE.clear()
    _WHERE[id(file)] = (weakref.ref(file), found)
    return found


_WHERE: dict[int, tuple[weakref.ref[ConfigFile], Where]] = {}


def _compute_where(file: ConfigFile) -> Where:
    env = tuple((name, os.environ[name]) for name in PASSED_ENV if os.environ.get(name))
    home = _home()
    host = hosts.of(file.host)
    # the folder the host starts the command in (Claude Code: the one it was started in, the project)
    cwd, launch_dir = host.command_cwd(file) if host is not None else (file.project, True)
    return Where(file.project, file.plugin_root, home, cwd, launch_dir, env)  # (by place: by name, 3 M of the corpus tree)


def registration(handler: Handler) -> tuple[Keys, bool]:
    """The config line that registers the handler on its event, as (JSON path, at its key): the
    event's key where the event holds this group (or Cursor entry) alone; else the handler's
    command, which tells it from the others (its group's matcher for one without). A guard on an
    event that cannot refuse is reported there, where the user moves it."""
    event_keys = handler.keys[:2]
    data = handler.file.document.data if handler.file.document is not None else None
    groups = data.get(event_keys[0], {}).get(event_keys[1]) if isinstance(data, dict) and isinstance(
        data.get(event_keys[0]), dict) else None
    if not isinstance(groups, list) or len(groups) <= 1:
        return event_keys, True
    value = handler.value
    if isinstance(value, dict) and "command" in value:
        return handler.keys + ("command",), False
    return (handler.group_keys + ("matcher",), True) if handler.matcher is not None else (handler.keys, True)


def commands_checked(handler: Handler) -> bool:
    """Its host's command hooks are what the command and script rules read (Host.commands_checked)."""
    host = hosts.of(handler.file.host)
    return host is not None and host.commands_checked


def _home() -> Path | None:
    home = os.environ.get("HOME")
    return _folder(home) if home else None


@lru_cache(maxsize=8)
def _folder(text: str) -> Path:
    """A folder's Path, made once for its text (pathlib parses each part of a text: the home
    folder's Path made for each file of the corpus tree was 3.7 M of the 21.4 M instructions of
    its files' places)."""
    return Path(text)


_RESOLVED: dict[int, tuple[weakref.ref[Handler], Resolution]] = {}


def resolution(handler: Handler) -> Resolution:
    """What the handler's command runs (computed once per handler object)."""
    cached = _RESOLVED.get(id(handler))
    if cached is not None and cached[0]() is handler:
        return cached[1]
    found = resolve_handler(handler.value, where(handler.file))
    if len(_RESOLVED) > 100_000:
        _RESOLVED.clear()
    _RESOLVED[id(handler)] = (weakref.ref(handler), found)
    return found


def through_project(handler: Handler, inv: Invocation) -> str | None:
    """The project variable (`$CLAUDE_PROJECT_DIR`) through which a hook shared by every project
    (the user's, the administrator's, a plugin's) reaches the invocation's file, else None: that
    file has to be in each project the hook runs in."""
    file, host = handler.file, hosts.of(handler.file.host)
    if host is None or file.project is None or not host.shared_by_projects(file):
        return None
    return _through(handler, inv, host.project_var) or next(
        (spelling for spelling in FOLDER_SPELLINGS if _through(handler, inv, spelling)), None)


# the other ways a command names the folder its hook runs in, which is the project's (or its git
# root): a shared hook that reaches a script through one is as bound to one project as through
# $CLAUDE_PROJECT_DIR
FOLDER_SPELLINGS = ("$PWD", "${PWD}", "$(pwd)", "`pwd`", "$(git rev-parse --show-toplevel)",
                    "$(git rev-parse --show-toplevel 2>/dev/null || pwd)", "`git rev-parse --show-toplevel`")


def through_start_folder(handler: Handler, inv: Invocation) -> str | None:
    """The project variable through which a project or local file read from a folder below its
    own (the git root's local settings, for a session started in a subfolder) reaches the
    invocation's file, else None: the variable is the folder the session starts in."""
    file, host = handler.file, hosts.of(handler.file.host)
    if host is None or file.project is None or file.scope not in ("project", "local") \
            or file.path.parent.parent == file.project:
        return None
    return _through(handler, inv, host.project_var)


def _through(handler: Handler, inv: Invocation, project_var: str | None) -> str | None:
    file = handler.file
    if not project_var or inv.path is None or inv.dynamic or file.project is None:
        return None
    name = project_var if project_var in FOLDER_SPELLINGS else project_var.strip('"').lstrip("$").strip("{}")
    command = handler.value.get("command") if isinstance(handler.value, dict) else None
    args = handler.value.get("args") if isinstance(handler.value, dict) else None
    written = " ".join(map(str, [command, *(args if isinstance(args, list) else [])]))
    if name not in written or not inv.path.is_relative_to(file.project):
        return None
    return name if name in FOLDER_SPELLINGS else "$" + name


def script_of(inv: Invocation) -> Path | None:
    """The invocation's file if it is there to be read."""
    if inv.path is None or inv.dynamic:
        return None
    return inv.path if disk.is_file(inv.path) else None


def script_facts(handler: Handler) -> tuple[tuple[Invocation, keys.ScriptFacts], ...]:
    """The analysis of every script the handler's command runs that exists and can be read: worked
    out once per handler object and run, as it depends on nothing else (its resolution is the
    handler's, the disk is read once per run: disk.run_number). A run asks it of each handler
    about eleven times (the corpus tree: 21,004 asks of 1,870 handlers, about 2% of its CPU)."""
    cached = _SCRIPT_FACTS.get(id(handler))
    if cached is not None and cached[0]() is handler and cached[1] == disk.run_number:
        return cached[2]
    found: tuple[tuple[Invocation, keys.ScriptFacts], ...] = ()
    for inv in resolution(handler).invocations:  # (a loop, not a generator made for each handler)
        path = script_of(inv)
        if path is not None:
            found += ((inv, keys.analyse(path)),)
    if len(_SCRIPT_FACTS) > 100_000:
        _SCRIPT_FACTS.clear()
    _SCRIPT_FACTS[id(handler)] = (weakref.ref(handler), disk.run_number, found)
    return found


_SCRIPT_FACTS: dict[int, tuple[weakref.ref[Handler], int, tuple[tuple[Invocation, keys.ScriptFacts], ...]]] = {}


def work_out(handlers: Iterable[Handler]) -> None:
    """What each handler's command runs and what its scripts print, worked out now and once:
    before a run's checks are shared out between processes (parallel.py). The command check in
    the workers and the script and race checks here both ask; worked out on both sides, they
    cost a sixth more CPU than one process does. Each worker inherits them as forked."""
    for handler in handlers:
        for _, facts in script_facts(handler):
            _ = facts.flow  # (the flow too: keys.ScriptFacts works it out on its first read)


class Rewrite:
    def __init__(self, status: str, source: str, why: str) -> None:
        self.status = status  # yes | no | unknown
        self.source = source  # pack | script | command | probe | type | none
        self.why = why

    def to_json(self) -> dict[str, str]:
        return {"status": self.status, "source": self.source, "why": self.why}


def rewrite(handler: Handler, probed: dict[int, ProbeResult] | None = None) -> Rewrite:
    """May this handler rewrite the tool input? Known for our packs (pack.toml's
    `rewrites_input`), found by reading the scripts for the others, "unknown" otherwise.
    `probed`: results of `doctor --probe` by id(handler); a probed rewrite makes "unknown" a "yes"."""
    host = handler.file.host
    what = kind(handler)
    if what is None:
        return Rewrite(NO, "type", "a bare string is not a handler; it never runs")
    if what in ("prompt", "agent"):
        return Rewrite(NO, "type", f"a {what} hook answers ok/not ok; it cannot rewrite input")
    if what == "plugin" and handler.owner is None:
        writes = handler.value.get("writes") or []
        if not writes:
            return Rewrite(NO, "script", "its tool.execute.before never changes output.args")
        key, line, _ = writes[0]
        return Rewrite(YES, "script", f"it sets output.args.{key} (line {line})" if key != "*" else
                       f"it changes output.args (line {line})")
    if what in ("http", "mcp_tool"):
        static = Rewrite(UNKNOWN, "type", f"an {what} hook's answer comes from elsewhere; it may carry updatedInput")
        return _with_probe(static, handler, probed)
    if handler.owner is not None:
        pack, script = handler.owner
        flag = pack_rewrites(pack, script)
        if flag is not None:
            return Rewrite(YES if flag else NO, "pack",
                           f"pack {pack} declares that {script} {'rewrites' if flag else 'does not rewrite'} input")
    return _with_probe(_static(handler, host), handler, probed)


def _with_probe(static: Rewrite, handler: Handler, probed: dict[int, ProbeResult] | None) -> Rewrite:
    if static.status == YES or not probed:
        return static
    result = probed.get(id(handler))
    if result is not None and result.rewrites:
        return Rewrite(YES, "probe", "--probe: its answer carries an updatedInput")
    return static


def _static(handler: Handler, host: str) -> Rewrite:
    res = resolution(handler)
    if res.form == "none":
        return Rewrite(NO, "none", "no command to run")
    if res.dynamic:
        return Rewrite(UNKNOWN, "command", f"the command could not be read: {res.dynamic}")
    statuses: list[Rewrite] = []
    inline_text = False
    for inv in res.invocations:
        if inv.guarded and script_of(inv) is None and inv.path is not None:
            continue
        if inv.dynamic:
            statuses.append(Rewrite(UNKNOWN, "command", f"{inv.script or inv.executable}: {inv.dynamic}"))
        elif inv.path is not None:
            path = script_of(inv)
            if path is None:
                if disk.exists(inv.path):
                    statuses.append(Rewrite(UNKNOWN, "script", f"{inv.path} is not a file"))
                statuses.append(Rewrite(NO, "script", f"{inv.path.name} is missing, so it never runs"))
                continue  # (the command check reports it)
            if inv.direct and not _executable(path):
                statuses.append(Rewrite(NO, "script", f"{path.name} is not executable, so it never runs"))
                continue
            facts = keys.analyse(path)
            status, why = _through_wrapper(facts, where(handler.file), host) or facts.rewrites(host)
            statuses.append(Rewrite(status, "script", f"{path.name}: {why}"))
        elif inv.runner:
            statuses.append(Rewrite(UNKNOWN, "command", f"`{inv.executable}` runs a package whose output is not known"))
        elif inv.inline or (inv.program in NO_FILE):
            inline_text = True  # the command line itself holds the code (echo '{...}', python3 -c '...')
        elif inv.program:
            statuses.append(Rewrite(UNKNOWN, "command", f"`{inv.program}` is a program whose output is not known"))
    if inline_text:
        facts = keys.command_facts(handler.command or "")
        status, why = facts.rewrites(host)
        if status == YES:
            why = "the command line writes " + hosts.get(host).rewrite_field.rsplit(".", 1)[-1]
        statuses.append(Rewrite(status, "command", why if status != NO else "the command line never writes it"))
    for wanted in (YES, UNKNOWN):
        for found in statuses:
            if found.status == wanted:
                return found
    if statuses:
        return statuses[0]
    return Rewrite(NO, "command", "the command runs nothing that could write output")


MAX_WRAPPERS = 2  # a wrapper that runs a wrapper is followed; one more level is not


def runs(handler: Handler) -> tuple[str | Path, ...] | None:
    """What the handler's command runs in the end (Resolution.runs): through shell wrappers that
    hand their output to one command and answer nothing themselves, that command's words; so a
    wrapper and the script it runs, each configured once, print one answer."""
    res, at = resolution(handler), where(handler.file)
    for _ in range(MAX_WRAPPERS):
        path = _main_script(res)
        facts = keys.analyse(path) if path is not None else None
        if facts is None or len(facts.handed_to) != 1 or facts.rewrites(handler.file.host)[0] != UNKNOWN:
            break
        res = resolve_shell(facts.handed_to[0], at)
    return res.runs


def _main_script(res: Resolution) -> Path | None:
    """The script a command mainly runs, if it is there to be read."""
    return script_of(res.main) if res.main is not None else None


def _through_wrapper(facts: keys.ScriptFacts, at: Where, host: str, depth: int = 0) -> tuple[str, str] | None:
    """Whether a shell script whose output comes from other scripts (`exec python3 "$DIR/x.py"`,
    `node "$(dirname "$0")/x.js" "$@"`) rewrites, read from those scripts: None where it writes
    the answer itself, or one of them is not a file its words name (a variable, `$1`)."""
    if not facts.handed_to or facts.rewrites(host)[0] != UNKNOWN:
        return None
    found = []
    for command in facts.handed_to:
        path = _main_script(resolve_shell(command, at))
        if path is None:
            return None
        inner = keys.analyse(path)
        status, why = (_through_wrapper(inner, at, host, depth + 1) if depth + 1 < MAX_WRAPPERS else None) \
            or inner.rewrites(host)
        found.append((status, f"it runs {path.name}; there, {why}"))
    return next((f for f in found if f[0] == YES), None) or next((f for f in found if f[0] == UNKNOWN), found[0])


def refusal(handler: Handler) -> str | None:
    """How a foreign command handler may refuse the call it runs on (exit 2, a "block" or "deny"
    decision), read from its scripts and its command line; None if it never does, or if that
    cannot be read."""
    if kind(handler) != "command" or handler.owner is not None:
        return None
    res = resolution(handler)
    found = [(f"line {{line}} of {facts.path.name}", facts) for _, facts in script_facts(handler)]
    if any(inv.inline or inv.program in NO_FILE for inv in res.invocations):
        found.append(("its command line", keys.command_facts(handler.command or "")))
    for where, facts in found:
        sites = sorted(facts.blocks + facts.denies, key=lambda site: site.line)
        if sites:
            return f"{sites[0].what} at {where.format(line=sites[0].line)}"
    return None


def _executable(path: Path) -> bool:
    if os.name == "nt":
        return True
    return bool((disk.mode(path) or 0) & 0o111)


@lru_cache(maxsize=64)
def pack_rewrites(pack: str, script: str) -> bool | None:
    """Whether our pack's hook running `script` rewrites input (pack.toml), None if unknown."""
    bundled = resources.pack_flags().get(pack)
    if bundled is not None:  # (a bundled pack's name is never another's: load_pack looks there first)
        return bundled.get(script)
    from ..packs import load_pack  # (a pack of the user's own: the manifests' reader, about 3 ms)

    try:
        loaded = load_pack(pack)
    except HookwrightError:
        return None
    flags = [hook.rewrites_input for hook in loaded.hooks if hook.script == script]
    return any(flags) if flags else None


def identity(handler: Handler) -> tuple[Hashable, ...]:
    """Two handlers with one identity run once (docs/hosts/claude-code.md#deduplication): the same
    command (and args) or URL in settings files; a plugin's copy stays separate."""
    value = handler.value
    plugin = handler.file.plugin or (str(handler.file.path) if handler.file.scope == "plugin" else None)
    if not isinstance(value, dict):
        return ("string", str(value), plugin, id(handler))
    what = kind(handler)
    if what == "command":
        args = value.get("args")
        return ("command", value.get("command"), json.dumps(args, sort_keys=True) if args is not None else None, plugin)
    if what == "http":
        return ("http", value.get("url"), plugin)
    return (what, id(handler))
