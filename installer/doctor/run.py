"""One doctor run: find the files, read them, build the context, run every check; and for the files
doctor is given, what the host combines with them on this machine (`around`, below)."""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .. import hosts
from ..hooks.events import BUILTIN_TOOLS
from ..hooks.model import kind
from ..hosts import NAMES as HOSTS  # every agent doctor checks by default
from . import discovery, disk, handler_facts, load, parallel
from .discovery import Candidate
from .model import ConfigFile, Context, Finding, Handler, Plugin, resolved

# installer/doctor/checks/<name>.py, each with `check(ctx) -> Iterable[Finding]`, run in this order
CHECK_MODULES = ("structure", "scopes", "matchers", "conditions", "hosts", "cursor", "commands", "scripts",
                 "delivery", "http_services", "opencode", "conflicts", "installs", "packs")
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
# the checks whose findings on a file or a handler depend on that file and the run's shared facts
# alone (tools, MCP servers, the settings' variables, a setting the run's files merge):
# parallel.py may split them by project. The others also weigh files together (scripts by path,
# races, the kill switch that counts once, plugin manifests, our installs per project folder)
# and see the whole run.
LOCAL_CHECKS = ("structure", "matchers", "conditions", "commands")
# the checks of one host's own kind of file: a run without such a file does not import them
CHECK_KINDS = {"cursor": frozenset({"cursor-hooks"}), "opencode": frozenset({"opencode-plugin", "opencode-config"}),
               "packs": frozenset({"git-guard-rules"})}
# the checks of one kind of handler: a run without such a handler does not import them (a
# module is about 1 M instructions to load, doctor on one typical file 400 M)
CHECK_HANDLER_KINDS = {"http_services": "http"}


class Outcome:
    def __init__(self, context: Context, findings: list[Finding], machine: list[ConfigFile] | None = None) -> None:
        self.context = context
        self.findings = findings
        self.machine = [] if machine is None else machine  # read for the given files' conflicts (around, below)

    @property
    def project(self) -> Path | None:
        return self.context.project

    @property
    def files(self) -> list[ConfigFile]:
        return self.context.files

    @property
    def handlers(self) -> list[Handler]:
        return self.context.handlers

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)


def run(paths: list[Path] | None = None, *, project: Path | None = None, hosts: Iterable[str] = HOSTS,
        probe: bool = False, machine: bool = False, start: Path | None = None) -> Outcome:
    """Check the given files, or (without paths) every scope of `hosts` for `project` plus the
    hooks of the plugins they enable. A given path that is missing is reported as unreadable.
    `machine`: also the given files' conflicts with the files their host loads with them here.
    `start`: the folder in the project the agent would be started in (the working folder)."""
    project = _project_folder(project)
    ctx = context(paths, project=project, hosts=hosts, probe=probe, pack_files=True, start=start)
    nearby: list[Around] = []  # (this machine's files, read while the checks run: findings' `meanwhile`)
    if paths and machine:
        found = findings(ctx, meanwhile=lambda: nearby.append(around(ctx)))
    else:
        found = findings(ctx)
    found = _with_host_versions(ctx, found)
    if not nearby or not nearby[0].others:
        return Outcome(ctx, found)
    here = nearby[0]
    # the machine's own hooks are not the user's to have run by naming a file: no probe here
    combined = _context(here.files, here.handlers, here.plugins, project, probe=False)
    combined.focus = frozenset(map(id, ctx.handlers))  # (the given files' pairs are never cut short)
    extra = involving(findings(combined, ("conflicts",)), ctx, found, here)
    return Outcome(ctx, _in_report_order(found + extra, ctx.files), here.others)


def _with_host_versions(ctx: Context, found: list[Finding]) -> list[Finding]:
    """The findings, and once per host installed in a newer release than doctor's facts, a note
    naming those of them that rest on a measurement (checks/hosts.py RUN_RULES)."""
    from .checks.hosts import RUN_RULES

    notes = RUN_RULES.run(ctx, found)
    return _in_report_order(found + notes, ctx.files) if notes else found


def findings(ctx: Context, checks: Sequence[str] = CHECK_MODULES,
             meanwhile: Callable[[], object] | None = None) -> list[Finding]:
    """What the checks find in a context, in report order (file, line, column, severity, rule),
    many projects' files shared out between processes where that pays (parallel.py).
    `meanwhile`: what else this process has to do before it uses the findings (run's look at this
    machine's files): done with its own checks, before it takes the workers' shares left, where
    the run is shared out, instead of after the workers (the corpus tree's around, about 90 M
    instructions, leaves the part of the run no other process shares)."""
    count = parallel.workers(ctx)
    local = [name for name in checks if name in LOCAL_CHECKS]
    if count > 1 and local:
        check_functions(checks)  # imported once, before the workers start
        handler_facts.work_out(ctx.handlers)
        rest = [name for name in checks if name not in LOCAL_CHECKS]

        def whole() -> list[Finding]:
            found = _checked(ctx, rest)
            if meanwhile is not None:
                meanwhile()
            return found

        return _in_report_order(list(parallel.findings(ctx, count, lambda share: _checked(share, local), whole)),
                                ctx.files)
    found = _checked(ctx, checks)
    if meanwhile is not None:
        meanwhile()
    return _in_report_order(found, ctx.files)


def _checked(ctx: Context, checks: Sequence[str]) -> list[Finding]:
    found: list[Finding] = []
    for check in check_functions([name for name in checks if _may_find(name, ctx)]):
        found.extend(check(ctx))
    if ctx.probe:  # what the probe saw happen confirms what the scripts were read to do
        from .scripts import probe  # (--probe only: it loads simulate, about 20 ms)

        found = probe.confirm(ctx, found)
    return found


def _may_find(check: str, ctx: Context) -> bool:
    """Whether the run holds what the check looks at (CHECK_KINDS, CHECK_HANDLER_KINDS)."""
    if check in CHECK_KINDS:
        return any(f.kind in CHECK_KINDS[check] for f in ctx.files)
    if check in CHECK_HANDLER_KINDS:
        return any(kind(h) == CHECK_HANDLER_KINDS[check] for h in ctx.handlers)
    return True


def _in_report_order(found: list[Finding], files: list[ConfigFile]) -> list[Finding]:
    """The config files in the order they were read, then the scripts (by path); in a file, by
    place, severity, rule and message: a function of the findings alone, whatever order the
    checks (or the processes) found them in."""
    order = {str(f.path): i for i, f in enumerate(files)}
    return sorted(found, key=lambda f: (order.get(f.path, len(order)), f.path, f.line or 0, f.column or 0,
                                        SEVERITY_ORDER[f.severity], f.rule, f.message))


def context(paths: list[Path] | None = None, *, project: Path | None = None, hosts: Iterable[str] = HOSTS,
            probe: bool = False, pack_files: bool = False, start: Path | None = None) -> Context:
    """The files read, their handlers, and what the checks (and `list`) need to know of the
    project: its MCP servers and the plugins its settings enable. `pack_files`: also the files
    of hookwright's own packs (git-guard's rules), which hold no hooks: doctor checks them.
    `start`: the folder in the project the agent is started in; the files near it that the agent
    does not read are kept apart (Context.unread)."""
    project = _project_folder(project)
    start = start.resolve() if start is not None else None
    unread: list[tuple[ConfigFile, str]] = []
    if paths:
        files = [load.read(c) for c in discovery.given_candidates(list(paths), project)]
        plugins: list[Plugin] = []
    else:
        files = [load.read(c) for c in discovery.scope_candidates(project, set(hosts), start=start)]
        if pack_files:
            files += [load.read(c) for c in discovery.pack_file_candidates(project, set(hosts))]
        plugins = discovery.enabled_plugins(files, project) if _have_plugins(hosts) else []
        files += [load.read(c) for c in discovery.plugin_candidates(plugins, project)]
        if start is not None:
            unread = [(load.read(c), why) for c, why in discovery.never_read(project, set(hosts), start)]
    ctx = _context(files, [h for f in files for h in load.handlers(f)], plugins, project, probe)
    ctx.unread = unread
    return ctx


def _project_folder(project: Path | None) -> Path:
    """The project a run looks at: the one given, else the one the working folder is in, resolved."""
    from ..project import project_of

    return project_of(project).resolve()


def _context(files: list[ConfigFile], handlers: list[Handler], plugins: list[Plugin], project: Path,
             probe: bool) -> Context:
    disk.fresh()  # a run sees the disk as it is now
    servers, sources = discovery.mcp_servers(project, files, plugins)
    return Context(files, handlers, probe=probe, tools=[*BUILTIN_TOOLS, *(f"mcp__{s}__.*" for s in servers)],
                   mcp_servers=servers, plugins=plugins, project=project, mcp_sources=sources)


def _have_plugins(names: Iterable[str]) -> bool:
    """Whether a host named enables plugins that bring hooks of their own."""
    return any(hosts.get(name).has_plugins for name in names)


def staged(project: Path, changes: dict[Path, bytes | None], *, hosts: Iterable[str] = HOSTS,
           reuse: Context | None = None) -> Context:
    """Every scope of `project` with each file in `changes` holding the given bytes (None: the
    file gone), as a plan sees it: its result, checked before it is written, or its starting
    point, read once for the plan. A changed file the host does not read for this project
    changes nothing. Files of `reuse` that do not change are its very objects, with their
    handlers, so what doctor worked out about them (how their commands resolve, what their
    scripts print) is not worked out again."""
    project = project.resolve()
    by_path = {resolved(path): raw for path, raw in changes.items()}
    kept = {resolved(f.path): f for f in reuse.files} if reuse else {}
    handlers_of: dict[int, list[Handler]] = {}
    for handler in reuse.handlers if reuse else ():
        handlers_of.setdefault(id(handler.file), []).append(handler)

    def read(candidates: list[Candidate]) -> list[ConfigFile]:
        files = []
        for candidate in candidates:
            path = resolved(candidate.path)
            if path not in by_path:
                files.append(kept.get(path) or load.read(candidate))
            elif by_path[path] is not None:
                files.append(load.read(candidate, staged=by_path[path]))
        return files

    files = read(discovery.scope_candidates(project, set(hosts), also=frozenset(by_path)))
    plugins = discovery.enabled_plugins(files, project) if _have_plugins(hosts) else []
    files += read(discovery.plugin_candidates(plugins, project))
    handlers = [h for f in files for h in (handlers_of.get(id(f)) or load.handlers(f))]
    return _context(files, handlers, plugins, project, probe=False)


def check_functions(names: Sequence[str] = CHECK_MODULES) -> list[Callable[[Context], Iterable[Finding]]]:
    """The checks, imported by the import statement's own machinery (importlib.import_module
    takes a path that `python -X importtime` does not see, and the benchmark's import table
    would leave out the costliest modules of a run)."""
    return [__import__(f"{__package__}.checks.{name}", fromlist=["check"]).check for name in names]


# ---- what the host combines with the files doctor is given, on this machine ----------------------------
#
# `hookwright doctor FILE` checks FILE as it is: those findings hold on every machine, a
# teammate's and CI's. A project's file also runs together with files that are not in the
# project: for Claude Code's .claude/settings.json (or settings.local.json) the user's settings
# (CLAUDE_CONFIG_DIR or ~/.claude), the local and managed settings and the plugins they enable
# (docs/hosts/claude-code.md#config-files, #deduplication, #command-execution); for Cursor's .cursor/hooks.json,
# ~/.cursor/hooks.json and the enterprise file (docs/hosts/cursor.md#config-files); for opencode's project
# config and plugins, the other config and plugin folders. Those files are read for context,
# not checked: only a conflict between a given file and one of them is added, marked with the
# machine's files it involves, since elsewhere they differ (or are absent). `--isolated` skips
# all this.

class Around:
    """The given files with the ones their host loads with them, in the order it loads them."""

    def __init__(self, files: list[ConfigFile], handlers: list[Handler], plugins: list[Plugin],
                 others: list[ConfigFile]) -> None:
        self.files = files  # the given files are the very objects doctor checked
        self.handlers = handlers
        self.plugins = plugins
        self.others = others  # the files of this machine alone


def around(ctx: Context) -> Around:
    """The given files of `ctx` among the other scopes (and plugins) of their projects."""
    real: dict[Path, Path] = {}  # each path's symlinks followed once: a tree of projects asks of the user's files in each

    def resolve(path: Path) -> Path:
        found = real.get(path)
        if found is None:
            found = real[path] = resolved(path)
        return found

    # a candidate written as a given file's path is that file, where no two given files are one
    # file (their inodes differ: a stat each, not every symlink of every path followed); any other
    # is compared with the given files' real paths, followed on the first such candidate (the
    # user's or the managed settings, a git root's): on the corpus tree, 133.9 M -> 88.7 M
    # instructions of this function
    as_written = {f.path: f for f in ctx.files} if _apart(ctx.files) else {}
    by_real: dict[Path, ConfigFile] = {}

    def given(path: Path) -> ConfigFile | None:
        found = as_written.get(path)
        if found is None:
            if not by_real:
                by_real.update((resolve(f.path), f) for f in ctx.files)
            found = by_real.get(resolve(path))
        return found

    given_ids = set(map(id, ctx.files))
    read: dict[Path, ConfigFile] = {}

    def file(candidate: Candidate) -> ConfigFile:
        found = given(candidate.path)
        if found is not None:
            return found
        path = resolve(candidate.path)
        if path not in read:
            read[path] = load.read(candidate)
        return read[path]

    # whether each scope's file is there, asked of the disk once: every project of a tree asks of
    # the user's and the managed settings (and the files listed are kept as they come, not gathered
    # again for each project: on the corpus tree's 269 projects, 200.8 M -> 177.9 M instructions)
    present: dict[Path, bool] = {}
    registry = cache(discovery.plugin_registry)  # (read once for all the projects, as the files' presence)
    files: list[ConfigFile] = []
    listed: set[int] = set()
    plugins: list[Plugin] = []
    for host, project in dict.fromkeys(filter(None, map(_home, ctx.files))):
        candidates = discovery.scope_candidates(project, {host}, present=present)
        if all(given(c.path) is None for c in candidates):
            continue  # the file is not one the host loads for that project
        group = [file(c) for c in candidates]
        if hosts.get(host).has_plugins:
            enabled = discovery.enabled_plugins(group, project, registry)
            plugins += enabled
            group += [file(c) for c in discovery.plugin_candidates(enabled, project)]
        if hosts.get(host).rewrites_combine != "in-order":
            # where the order of the files is not the order the hooks run in, the given ones go
            # last: a conflict sits on the later of two handlers, so on the file asked about
            group.sort(key=lambda f: id(f) in given_ids)
        added = [f for f in group if id(f) not in listed]
        files += added
        listed.update(map(id, added))
    of_given: dict[int, list[Handler]] = {}
    for handler in ctx.handlers:
        of_given.setdefault(id(handler.file), []).append(handler)
    handlers = [h for f in files for h in (of_given.get(id(f), []) if id(f) in given_ids else load.handlers(f))]
    return Around(files, handlers, plugins, [f for f in files if id(f) not in given_ids])


def _apart(files: list[ConfigFile]) -> bool:
    """Whether the files are all there and no two of them are one file (two paths whose symlinks
    lead to one file, or hard links of it, share its inode)."""
    inodes = set()
    for file in files:
        found = disk.stat(file.path)
        if found is None:
            return False
        inodes.add((found.st_dev, found.st_ino))
    return len(inodes) == len(files)


def _home(file: ConfigFile) -> tuple[str, Path] | None:
    """(host, project) of a project's file, from where it is; None for any other file."""
    host = hosts.of(file.host)
    project = host.project_of(file) if host is not None and (host.commands_checked or host.plugin_file_kind) else None
    return None if project is None else (file.host, project)


def involving(found: list[Finding], ctx: Context, known: list[Finding], machine: Around) -> list[Finding]:
    """The findings of the combined files that involve a given file and a file of this machine
    (where they sit or a related place), and that checking the given files alone did not find;
    each marked with the machine's files it involves."""
    given = {str(f.path) for f in ctx.files}
    others = {str(f.path) for f in machine.others}
    seen = {f.identity() for f in known}
    kept = []
    for finding in found:
        places = list(dict.fromkeys([finding.path, *(r["path"] for r in finding.related)]))
        mine = tuple(p for p in places if p in others)
        if mine and given.intersection(places) and finding.identity() not in seen:
            kept.append(finding._replace(machine=mine))
    return kept
