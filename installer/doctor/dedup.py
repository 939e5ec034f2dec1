"""Copies of one hook across a configuration: which of them run, and how often.

Which copies the host runs once is installer/hooks/firing.py's (Claude Code runs a command, with
its args, or a URL once per event among the handlers that fire on it). Copies only meet where one session loads them (a project's files with the user, managed and
plugin files; never two projects) and where their matchers fire on one call: the same logger on
Bash and on Read is needed twice, and is no copy.

Used by doctor (conflict/duplicate-*) and by `hookwright list` (which copy runs).
"""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Iterator

from .. import hosts
from ..hooks.firing import (
    EVERY_SESSION,
    DedupKey,
    Session,
    condition,
    copy_key,
    dedups_commands,
    runs_with,
    session,
    share_a_session,
)
from ..hooks.regex import covers, fires_on_some_call, meets
from . import handler_facts
from .model import Handler


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
        if len(same) < 2:
            continue  # (a handler without a copy, as nearly every one of a tree of projects: 60 M of the corpus tree's 4,957 M)
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
        if dedups_commands(handler) and handler_facts.kind(handler) == "command" and \
                isinstance(handler.command, str) and "args" not in handler.value:
            runs = handler_facts.resolution(handler).runs
            if runs:
                groups[(handler.event, runs)].append(handler)
    for (event, _), same in groups.items():
        if len(same) < 2 or len({h.command for h in same}) < 2:
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
            conditions = {condition(h), condition(handler)} - {None}  # noqa: B023 (used within the iteration)
            return len(conditions) < 2 and meets(h.matcher, handler.matcher, event, builtins, servers)  # noqa: B023

        def fires_wherever(a: Handler, b: Handler) -> bool:
            """a fires on every call b fires on (its `if`, if any, is b's)."""
            return condition(a) in (None, condition(b)) and covers(a.matcher, b.matcher, event, builtins, servers)

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
