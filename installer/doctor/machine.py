"""What the host combines with the files doctor is given, on this machine.

`hookwright doctor FILE` checks FILE as it is: those findings hold on every machine, a
teammate's and CI's. A project's file also runs together with files that are not in the
project: for Claude Code's .claude/settings.json (or settings.local.json) the user's settings
(CLAUDE_CONFIG_DIR or ~/.claude), the local and managed settings and the plugins they enable
(docs/hosts/claude-code.md#config-files, #deduplication, #command-execution); for Cursor's .cursor/hooks.json,
~/.cursor/hooks.json and the enterprise file (docs/hosts/cursor.md#config-files); for opencode's project
config and plugins, the other config and plugin folders. Those files are read for context,
not checked: only a conflict between a given file and one of them is added, marked with the
machine's files it involves, since elsewhere they differ (or are absent). `--isolated` skips
all this.
"""
from __future__ import annotations

from pathlib import Path

from .. import hosts
from . import discovery, load
from .discovery import Candidate
from .model import ConfigFile, Context, Finding, Handler, Plugin, resolved


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

    given = {resolve(f.path): f for f in ctx.files}
    given_ids = set(map(id, ctx.files))
    read: dict[Path, ConfigFile] = {}

    def file(candidate: Candidate) -> ConfigFile:
        path = resolve(candidate.path)
        if path in given:
            return given[path]
        if path not in read:
            read[path] = load.read(candidate)
        return read[path]

    files: list[ConfigFile] = []
    plugins: list[Plugin] = []
    for host, project in dict.fromkeys(filter(None, map(_home, ctx.files))):
        candidates = discovery.scope_candidates(project, {host})
        if not given.keys() & {resolve(c.path) for c in candidates}:
            continue  # the file is not one the host loads for that project
        group = [file(c) for c in candidates]
        if hosts.get(host).has_plugins:
            enabled = discovery.enabled_plugins(group, project)
            plugins += enabled
            group += [file(c) for c in discovery.plugin_candidates(enabled, project)]
        if hosts.get(host).rewrites_combine != "in-order":
            # where the order of the files is not the order the hooks run in, the given ones go
            # last: a conflict sits on the later of two handlers, so on the file asked about
            group.sort(key=lambda f: id(f) in given_ids)
        listed = set(map(id, files))
        files += [f for f in group if id(f) not in listed]
    of_given: dict[int, list[Handler]] = {}
    for handler in ctx.handlers:
        of_given.setdefault(id(handler.file), []).append(handler)
    handlers = [h for f in files for h in (of_given.get(id(f), []) if id(f) in given_ids else load.handlers(f))]
    return Around(files, handlers, plugins, [f for f in files if id(f) not in given_ids])


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
