"""Copies of one hook: which of them run, and how often.

Claude Code runs a command (with its args) or a URL once per event among the handlers that fire
on it, whichever settings files they are in (docs/hosts/claude-code.md#deduplication; docs/hosts/claude-code.md#deduplication); a plugin's
copy runs on its own beside them, and Cursor documents no deduplication, so each entry runs.
Copies only meet where one session loads them (a project's files with the user, managed and
plugin files; never two projects) and where their matchers fire on one call: the same logger on
Bash and on Read is needed twice, and is no copy.

Used by doctor (conflict/duplicate-*) and by `hookwright list` (which copy runs).
"""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Iterator

from .. import hosts
from . import handler_facts
from .model import Handler
from .regex.overlap import covers, fires_on_some_call, meets

EVERY_SESSION = ("every session",)
# what one command is, to Claude Code: ("command", command, args[, plugin root]) or ("http", url)
DedupKey = tuple[str | None, ...]
# the copies deduplicated together: ("settings",), ("plugin", name), or (host, id(handler)) for one that runs alone
Unit = tuple[str | int, ...]
Session = tuple[str, ...]  # which sessions load a file: EVERY_SESSION, ("project", path), ("file", path)


class Copy:
    def __init__(self, handler: Handler, of: Handler, runs: bool, times: int = 1, covered: bool = True,
                 respelled: bool = False) -> None:
        self.handler = handler  # the repeated copy
        self.of = of  # an earlier copy it repeats
        self.runs = runs  # it runs as well (another plugin's copy, Cursor); False: deduplicated with `of`
        self.times = times  # how many copies run on a call they all fire on (when `runs`)
        self.covered = covered  # (not `runs`) `of` fires wherever it fires; False: only on some of its calls
        self.respelled = respelled  # (`runs`) another command string that runs the same thing


def copies(handlers: list[Handler], builtins: tuple[str, ...], servers: list[str]) -> list[Copy]:
    """Every handler that repeats an earlier one, in the order of `handlers`."""
    groups: dict[tuple[str, str, DedupKey], list[Handler]] = defaultdict(list)  # by host, event and key
    for handler in handlers:
        host = hosts.of(handler.file.host)
        key = copy_key(handler) if host is not None and not host.file_per_pack else None
        if key is not None:
            groups[(handler.file.host, handler.event, key)].append(handler)
    found: dict[int, Copy] = {}
    for (_, event, _), same in groups.items():
        for together in _loaded_together(same):
            for copy in _repeats(event, together, builtins, servers):
                found.setdefault(id(copy.handler), copy)
    for copy in _respelled(handlers, builtins, servers):
        found.setdefault(id(copy.handler), copy)
    order = {id(h): i for i, h in enumerate(handlers)}
    return sorted(found.values(), key=lambda c: order[id(c.handler)])


def _respelled(handlers: list[Handler], builtins: tuple[str, ...], servers: list[str]) -> Iterator[Copy]:
    """Commands written differently that run the same thing (`"$CLAUDE_PROJECT_DIR"/x.sh` and
    `"${CLAUDE_PROJECT_DIR}/x.sh"`): Claude Code deduplicates by the exact string, so each runs."""
    groups: dict[tuple[str, tuple[str | Path, ...]], list[Handler]] = defaultdict(list)  # by event and what runs
    for handler in handlers:
        if _dedups_commands(handler) and handler_facts.kind(handler) == "command" and \
                isinstance(handler.command, str) and "args" not in handler.value:
            runs = handler_facts.resolution(handler).runs
            if runs:
                groups[(handler.event, runs)].append(handler)
    for (event, _), same in groups.items():
        if len({h.command for h in same}) < 2:
            continue
        for index, handler in enumerate(same):
            other = next((h for h in same[:index] if h.command != handler.command and share_a_session(h, handler)
                          and meets(h.matcher, handler.matcher, event, builtins, servers)), None)
            if other is not None:
                yield Copy(handler, other, runs=True, times=2, respelled=True)


def _repeats(event: str, handlers: list[Handler], builtins: tuple[str, ...], servers: list[str]) -> Iterator[Copy]:
    """A copy its own unit has another copy of, firing wherever it fires, adds nothing (the later
    of two that fire alike, or the narrower one wherever it is); one that shares calls with
    another unit's earlier copy runs again on them; one that shares only some calls with its own
    unit's copy runs once on those (and is needed for the rest). An `if` narrows a copy like its
    matcher: copies with different ones each fire on their own calls. A copy whose matcher fires
    on no call is nobody's copy (matcher/matches-nothing says so)."""
    redundant: set[int] = set()  # copies found to add nothing: no other copy shares calls "with" them
    handlers = [h for h in handlers if fires_on_some_call(h.matcher, event)]
    for index, handler in enumerate(handlers):
        mine, earlier = runs_with(handler), handlers[:index]

        def fires_with(h: Handler) -> bool:
            """Some call fires both (different `if` rules are taken to share none)."""
            conditions = {_condition(h), _condition(handler)} - {None}  # noqa: B023 (used within the iteration)
            return len(conditions) < 2 and meets(h.matcher, handler.matcher, event, builtins, servers)  # noqa: B023

        def fires_wherever(a: Handler, b: Handler) -> bool:
            """a fires on every call b fires on (its `if`, if any, is b's)."""
            return _condition(a) in (None, _condition(b)) and covers(a.matcher, b.matcher, event, builtins, servers)

        def wider(h: Handler, position: int) -> bool:
            """h fires wherever `handler` does (and, coming later, on more)."""
            return fires_wherever(h, handler) and (position < index or not fires_wherever(handler, h))  # noqa: B023

        # the first wider copy that is not itself redundant, else the first wider one (coverage is
        # transitive: a redundant wider copy has a wider one that is not)
        kept = None
        for position, h in enumerate(handlers):
            if h is not handler and runs_with(h) == mine and wider(h, position):
                kept = kept or h
                if id(h) not in redundant:
                    kept = h
                    break
        if kept is not None:
            redundant.add(id(handler))
            yield Copy(handler, kept, runs=False)
            continue
        again = [h for h in earlier if runs_with(h) != mine and fires_with(h)]
        if again:
            yield Copy(handler, again[0], runs=True, times=1 + len({runs_with(h) for h in again}))
            continue
        partly = next((h for h in earlier if runs_with(h) == mine and id(h) not in redundant and fires_with(h)), None)
        if partly is not None:
            yield Copy(handler, partly, runs=False, covered=False)


def _condition(handler: Handler) -> object:
    """The handler's `if` (a permission rule that narrows its matcher), None without one."""
    return handler.value.get("if")  # (copies are objects: only they have a dedup_key)


def dedup_key(handler: Handler) -> DedupKey | None:
    """Handlers with one key are copies: the same command (and args), or the same URL."""
    value = handler.value
    if not isinstance(value, dict):
        return None
    kind = handler_facts.kind(handler)
    if kind == "command" and isinstance(value.get("command"), str):
        args = value.get("args")
        args = json.dumps(args, sort_keys=True) if args is not None else None
        if "CLAUDE_PLUGIN_" in value["command"] or "CLAUDE_PLUGIN_" in (args or ""):
            # the same template in two plugins names two files (docs/hosts/claude-code.md#deduplication, fixed in 2.1.69)
            return ("command", value["command"], args, str(handler_facts.where(handler.file).plugin_root))
        return ("command", value["command"], args)
    if kind == "http" and isinstance(value.get("url"), str):
        return ("http", value["url"])
    return None


def copy_key(handler: Handler) -> DedupKey | None:
    """Handlers with one copy key are copies Claude Code runs once: one dedup_key and one `if`
    (measured on 2.1.328: the same command with two `if` rules, or with one and without, ran twice)."""
    key = dedup_key(handler)
    return None if key is None else (*key, json.dumps(_condition(handler)))


def _dedups_commands(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and host.dedups_commands


def runs_with(handler: Handler) -> Unit:
    """Copies with one unit are deduplicated together: all settings files; each plugin on its own;
    each Cursor entry on its own."""
    if not _dedups_commands(handler):
        return (handler.file.host, id(handler))
    if handler.file.from_plugin:
        return ("plugin", handler.file.plugin or str(handler.file.path))
    return ("settings",)


def session(handler: Handler) -> Session:
    """Which sessions load the handler's file: every one (user, managed, enabled plugins), those of
    one project (project and local settings), or none known (a loose file named on the command
    line, a plugin's hooks.json among them: nothing says which settings enable that plugin)."""
    file = handler.file
    if file.scope in ("user", "managed") or (file.scope == "plugin" and file.plugin):
        return EVERY_SESSION
    if file.scope in ("project", "local"):
        return ("project", str(file.project))
    return ("file", str(file.path))


def share_a_session(a: Handler, b: Handler) -> bool:
    sa, sb = session(a), session(b)
    return EVERY_SESSION in (sa, sb) or sa == sb


def _loaded_together(copies: list[Handler]) -> list[list[Handler]]:
    """The copies split by the sessions that load them together: a project's files after the
    files every session loads (so a project's copy is the extra one); a loose file on its own.
    Two projects never share a session."""
    everywhere: list[Handler] = []
    by_session: dict[Session, list[Handler]] = {}
    for handler in copies:
        where = session(handler)
        (everywhere if where == EVERY_SESSION else by_session.setdefault(where, [])).append(handler)
    groups = [(everywhere if where[0] == "project" else []) + handlers for where, handlers in by_session.items()]
    if not any(where[0] == "project" for where in by_session):
        groups.append(everywhere)  # no project to load them with: the files every session loads, together
    return groups
