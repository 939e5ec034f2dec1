"""Which real tools two matchers can both match.

A matcher is read exactly as Claude Code reads it (installer/doctor/regex/matching.classify, the
same reading every matcher rule uses; docs/hosts/claude-code.md#matchers):
`*`, empty or missing matches everything; a matcher of letters, digits, `_`, `|`, space (and,
on current hosts, `-` and `,`) is a list of exact names; anything else is a JavaScript regex,
unanchored and case-sensitive.

"Real tools" are the built-in tool names plus, for every MCP server configured for the
project, the open space `mcp__<server>__<tool>` (a tool part of letters, digits, `_`, `-`).
That space is infinite, so two regexes are intersected as finite automata (interegular), not
by trying sample names: `mcp__.*__AskUserQuestion` and `mcp__srv__.*` share
`mcp__srv__AskUserQuestion`; `mcp__srv__A.*` and `mcp__srv__B.*` share nothing. Constructs a
finite automaton cannot express (look-arounds, back-references, anchors inside groups) fall
back to sampling: the built-in names and, per server, names built from the words in both
patterns.

Cost: each distinct matcher is read once (cached); `matched_builtins` is linear in the tool
list; an automaton intersection is only needed for two regexes that both reach one server.
"""
from __future__ import annotations

import re
from collections import deque
from enum import Enum
from functools import lru_cache
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    Generic,
    Hashable,
    Iterable,
    Iterator,
    Protocol,
    Sequence,
    TypeVar,
)

from ...patterns import lazy
from ..facts import CLAUDE_EVENTS, OPEN, TOOL
from .matching import Matcher, can_match_a_name, classify

if TYPE_CHECKING:  # (interegular is imported when an automaton is first built)
    from interegular.fsm import FSM
    from interegular.fsm import State as FsmState

TOOL_PART = lazy(r"[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*_?")  # the tool part of an MCP tool name (no "__")
WITNESS_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
ANY_OTHER_SERVER = "any-other-server"  # stands for every MCP server that no matcher names


class Overlap:
    """Real tool names two matchers both match."""

    def __init__(self, builtins: tuple[str, ...] = (), mcp: tuple[str, ...] = ()) -> None:
        self.builtins = builtins  # built-in tools
        self.mcp = mcp  # "mcp__srv__*" (every tool of the server) or an example name per server

    def __bool__(self) -> bool:
        return bool(self.builtins or self.mcp)

    @property
    def names(self) -> tuple[str, ...]:
        return self.builtins + self.mcp

    def describe(self, limit: int = 6) -> str:
        names = [name.replace(f"mcp__{ANY_OTHER_SERVER}__", "mcp__<server>__") for name in self.names]
        shown = ", ".join(names[:limit])
        return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def read(matcher: str | None, event: str = "PreToolUse") -> Matcher:
    return classify(matcher, event)


@lru_cache(maxsize=16384)
def matched_builtins(matcher: str | None, tools: tuple[str, ...], event: str = "PreToolUse") -> frozenset[str]:
    m = classify(matcher, event)
    if m.kind == "all":
        return frozenset(tools)
    if m.kind == "exact":
        return frozenset(name for name in m.names if name in tools)
    if m.pattern is None:  # the host's regex engine rejects it: the group never fires
        return frozenset()
    return frozenset(name for name in tools if m.pattern.search(name))


def server_reach(matcher: str | None, server: str, event: str = "PreToolUse") -> str:
    """How much of `mcp__<server>__*` a matcher reaches: "all", "some" or "none"."""
    return _reach(classify(matcher, event), server)


# every MCP tool but some named ones, as path-normalizer's default excludes the question tools:
# `^mcp__(?!.*__AskUserQuestion$)`, with `.*` after it or not (a look-ahead no automaton here expresses)
_ALL_BUT_NAMED = lazy(r"^\^mcp__\(\?!\.\*__(?:[A-Za-z0-9_-]+\|)*[A-Za-z0-9_-]+\$\)(?:\.\*)?$")


@lru_cache(maxsize=16384)
def _reach(m: Matcher, server: str) -> str:
    prefix = f"mcp__{server}__"
    if m.kind == "all" or m.kind == "regex" and m.pattern is not None and _takes_whole_prefix(m.pattern, prefix):
        return "all"
    if m.kind == "regex" and m.pattern is not None and _ALL_BUT_NAMED.match(m.pattern.pattern):
        return "all"  # (every tool of the server but a few named: a race with it is as good as certain)
    touched = _touches(m, server)
    # (exact names, or decided by sampling: never all; True comes of a regex Python compiled alone)
    if touched is not True or m.pattern is None:
        return "some" if touched else "none"
    if any(not m.pattern.search(name) for name in _sample_names(server, (m,))):
        return "some"  # a tool name of the server it misses
    machine = _search_machine(m.pattern.pattern)
    if machine is None:  # a pattern no automaton here expresses: "every tool" cannot be shown
        return "some"
    missed = _search([_ServerSpace(server), _Not(machine)])
    return "all" if missed is None else "some"


# what can make a match depend on the text after it: an end anchor, a word boundary, a look-around
# (conservative: a "$" in a character class counts too, and leaves the question to the automaton)
_END_SENSITIVE = lazy(r"\$|\\[ZbB]|\(\?<?[=!]")


# `mcp__<server>__` written out, and not followed by a quantifier (which would apply to its last `_`)
_LITERAL_SERVER = lazy(r"\^?mcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__(?![?*+{])")


def _names_only_other_servers(pattern: str, server: str) -> bool:
    """Every branch starts with `mcp__<another server>__`: such a text never occurs in a tool name
    of `server` (a tool part has no `__`, and neither has a server name here)."""
    if "__" in server:
        return False
    branches = _top_level_branches(pattern) or []
    return all((found := _LITERAL_SERVER.match(branch)) and found.group(1) != server for branch in branches)


def _takes_whole_prefix(pattern: re.Pattern[str], prefix: str) -> bool:
    """A regex that finds a match inside `mcp__<server>__` itself, with nothing that looks past
    the match, matches every tool name that starts so (the regex is searched, unanchored)."""
    return not _END_SENSITIVE.search(pattern.pattern) and pattern.search(prefix) is not None


@lru_cache(maxsize=16384)
def _touches(m: Matcher, server: str) -> bool | str:
    """Whether a matcher matches some tool of the server: True (found by the automaton), "some"
    (exact names, or sampling where the automaton cannot decide), or False. The cheap half of
    `_reach`, which also proves "every tool" only when needed."""
    prefix = f"mcp__{server}__"
    if m.kind == "all":
        return True
    if m.kind == "exact":
        return "some" if any(_in_server(name, prefix) for name in m.names) else False
    if m.pattern is None or _names_only_other_servers(m.pattern.pattern, server):
        return False
    if _samples_match(server, (m,)):
        return True  # a tool name of the server it matches: no automaton needed
    machine = _search_machine(m.pattern.pattern)
    found = _GAVE_UP if machine is None else _search([_ServerSpace(server), machine])
    if found is _GAVE_UP:
        return "some" if _samples_match(server, (m,)) else False
    return found is not None


def overlap(a: str | None, b: str | None, tools: Iterable[str], mcp_servers: Iterable[str],
            event: str = "PreToolUse") -> Overlap:
    """The real tool names both matchers can match (built-ins, then one entry per MCP server)."""
    builtins = tuple(t for t in tools if not t.startswith("mcp__"))
    shared = matched_builtins(a, builtins, event) & matched_builtins(b, builtins, event)
    mcp = []
    for server in mcp_servers:
        found = mcp_overlap(a, b, server, event)
        if found:
            mcp.append(found)
    return Overlap(tuple(t for t in builtins if t in shared), tuple(mcp))


def mcp_overlap(a: str | None, b: str | None, server: str, event: str = "PreToolUse") -> str | None:
    """None, `mcp__<server>__*` when both match every tool of the server, or one tool name both match."""
    ma, mb = classify(a, event), classify(b, event)
    reach_a, reach_b = _reach(ma, server), _reach(mb, server)
    if "none" in (reach_a, reach_b):
        return None
    if reach_a == "all" and reach_b == "all":
        return f"mcp__{server}__*"
    return _mcp_pair(ma, mb, server)


@lru_cache(maxsize=16384)
def _mcp_pair(ma: Matcher, mb: Matcher, server: str) -> str | None:
    prefix = f"mcp__{server}__"
    for first, second in ((ma, mb), (mb, ma)):
        if first.kind == "exact":
            return next((n for n in first.names if _in_server(n, prefix) and second.matches(n)), None)
    sample = _samples_match(server, (ma, mb))
    if sample:
        return sample  # (the automata prove there is none, and find names no sample has)
    machines: list[_Machine[Any]] = [_ServerSpace(server)]
    for m in (ma, mb):
        if m.pattern is not None:  # a regex (one the host rejects reaches no server: it never comes here)
            machine = _search_machine(m.pattern.pattern)
            if machine is None:
                return _samples_match(server, tuple(x for x in (ma, mb) if x.kind == "regex"))
            machines.append(machine)
    found = _search(machines)
    if found is _GAVE_UP:
        return _samples_match(server, tuple(x for x in (ma, mb) if x.kind == "regex"))
    return found


def _in_server(name: str, prefix: str) -> bool:
    return name.startswith(prefix) and TOOL_PART.fullmatch(name[len(prefix):]) is not None


# ---- automata ------------------------------------------------------------------------------------
#
# Each "machine" has start(), step(state, char) -> state (None: dead) and accepts(state). A search
# runs them side by side, breadth first, over the characters a tool name can have, and returns
# the shortest name all of them accept (or None). A regex is searched for anywhere in the name
# (JavaScript's RegExp.test) by running its automaton from every position at once (a lazy subset
# construction), which is far cheaper than determinising `.*(?:...).*`.

class _GaveUp(Enum):
    GAVE_UP = "gave up"  # the search met MAX_STATES states before it could tell


_GAVE_UP: Final = _GaveUp.GAVE_UP
MAX_STATES = 50_000

_S = TypeVar("_S", bound=Hashable)  # a machine's state (a search remembers the states it has seen)


class _Machine(Protocol[_S]):
    def start(self) -> _S: ...

    def step(self, state: _S, ch: str) -> _S | None: ...

    def accepts(self, state: _S) -> bool: ...


class _ServerSpace:
    """`mcp__<server>__` then a tool part: letters, digits, `-` and single `_` (no `__`)."""

    def __init__(self, server: str) -> None:
        self.prefix = f"mcp__{server}__"

    def start(self) -> int | str:  # (how much of the prefix is read; then "tool", or "tool_" after one "_")
        return 0

    def step(self, state: int | str, ch: str) -> int | str | None:
        n = len(self.prefix)
        if isinstance(state, int):
            if state < n:
                return state + 1 if ch == self.prefix[state] else None
            return None if ch == "_" else "tool"  # the first character of the tool part
        if state == "tool":
            return "tool_" if ch == "_" else "tool"
        return None if ch == "_" else "tool"  # after one "_"

    def accepts(self, state: int | str) -> bool:
        return state in ("tool", "tool_")


# per branch of a regex: the states its automaton may be in, and whether it has matched already
_Progress = tuple[tuple[frozenset["FsmState"], bool], ...]


class _Search:
    """Where in the name a regex can match (unanchored), from its branches' automata."""

    def __init__(self, branches: list[tuple[FSM, bool, bool]]) -> None:
        self.branches = branches  # (fsm of the branch body, anchored at start, anchored at end)

    def start(self) -> _Progress:
        states: list[tuple[frozenset[FsmState], bool]] = []
        for fsm, _, end in self.branches:
            active = frozenset({fsm.initial})
            states.append((active, not end and fsm.initial in fsm.finals))
        return tuple(states)

    def step(self, state: _Progress, ch: str) -> _Progress:
        out: list[tuple[frozenset[FsmState], bool]] = []
        for (fsm, start, end), (active, matched) in zip(self.branches, state):
            if matched:
                out.append((frozenset(), True))
                continue
            symbol = fsm.alphabet[ch]
            moved: set[FsmState] = set()
            for s in active:
                target = fsm.map.get(s, {}).get(symbol)
                if target is not None:
                    moved.add(target)
            if not start:
                moved.add(fsm.initial)  # a match may begin at the next position
            matched = not end and any(s in fsm.finals for s in moved)
            out.append((frozenset() if matched else frozenset(moved), matched))
        return tuple(out)

    def accepts(self, state: _Progress) -> bool:
        return any(matched or (end and any(s in fsm.finals for s in active))
                   for (fsm, _, end), (active, matched) in zip(self.branches, state))


class _Not(Generic[_S]):
    """What its machine rejects: its dead state (None) lives on, and accepts."""

    def __init__(self, machine: _Machine[_S]) -> None:
        self.machine = machine

    def start(self) -> _S | None:
        return self.machine.start()

    def step(self, state: _S | None, ch: str) -> _S | None:
        return None if state is None else self.machine.step(state, ch)

    def accepts(self, state: _S | None) -> bool:
        return state is None or not self.machine.accepts(state)


def _search(machines: Sequence[_Machine[Any]], chars: str = WITNESS_CHARS) -> str | _GaveUp | None:
    """The shortest string every machine accepts; None if there is none; _GAVE_UP past MAX_STATES."""
    negated = [isinstance(m, _Not) for m in machines]
    start = tuple(m.start() for m in machines)
    queue = deque([(start, "")])
    seen = {start}
    while queue:
        states, text = queue.popleft()
        if all(m.accepts(s) for m, s in zip(machines, states)):
            return text
        for ch in chars:
            nxt = []
            for m, s, neg in zip(machines, states, negated):
                t = m.step(s, ch)
                if t is None and not neg:
                    break
                nxt.append(t)
            else:
                key = tuple(nxt)
                if key not in seen:
                    if len(seen) >= MAX_STATES:
                        return _GAVE_UP
                    seen.add(key)
                    queue.append((key, text + ch))
    return None


@lru_cache(maxsize=4096)
def _search_machine(python: str) -> _Search | None:
    """The unanchored-search machine of a Python-syntax regex; None when a finite automaton
    cannot express it here (look-arounds, back-references, anchors inside groups)."""
    import interegular

    branches = _top_level_branches(python)
    if branches is None:
        return None
    parsed: list[tuple[FSM, bool, bool]] = []
    for branch in branches:
        start = branch.startswith("^")
        body = branch[1:] if start else branch
        end = body.endswith("$") and not _escaped(body, len(body) - 1)
        body = body[:-1] if end else body
        if _has_anchor(body):
            return None
        try:
            fsm = interegular.parse_pattern(body).to_fsm()
        except Exception:  # noqa: BLE001 - Unsupported (look-arounds, back-references), InvalidSyntax
            return None
        parsed.append((fsm, start, end))
    return _Search(parsed)


def _outside_classes(pattern: str) -> Iterator[tuple[int, str, bool]]:
    """(index, character, escaped) for each regex token outside a character class `[...]`;
    an escape such as `\\b` comes as one token, its letter with escaped=True."""
    in_class, i = False, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if not in_class and i + 1 < len(pattern):
                yield i, pattern[i + 1], True
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern.startswith("[^", i):
                i += 1
            if pattern.startswith("]", i + 1):
                i += 1  # a "]" right after "[" or "[^" is a member
        else:
            yield i, c, False
        i += 1


def _top_level_branches(pattern: str) -> list[str] | None:
    """Split on `|` outside groups and classes."""
    branches: list[str] = []
    depth, start = 0, 0
    for i, c, escaped in _outside_classes(pattern):
        if escaped:
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            branches.append(pattern[start:i])
            start = i + 1
    branches.append(pattern[start:])
    return branches


def _escaped(text: str, index: int) -> bool:
    count, j = 0, index - 1
    while j >= 0 and text[j] == "\\":
        count += 1
        j -= 1
    return count % 2 == 1


def _has_anchor(body: str) -> bool:
    """An anchor (^, $, \\b, \\B, \\A, \\Z) outside a character class."""
    return any((escaped and c in "bBAZ") or (not escaped and c in "^$") for _, c, escaped in _outside_classes(body))


def _samples_match(server: str, matchers: tuple[Matcher, ...]) -> str | None:
    """A sample tool name of the server that every matcher matches, or None (which proves
    nothing: the automata decide then, or, for patterns they cannot express, this is the answer)."""
    return next((name for name in _sample_names(server, matchers) if all(m.matches(name) for m in matchers)), None)


NAME_WORD = lazy(r"[A-Za-z0-9_-]+")


@lru_cache(maxsize=4096)
def _sample_names(server: str, matchers: tuple[Matcher, ...]) -> tuple[str, ...]:
    """Tool names of the server built from the words the patterns contain and the built-in names."""
    from ..facts import BUILTIN_TOOLS

    words = set(BUILTIN_TOOLS) | {"x", "tool"}
    for m in matchers:
        source = m.pattern.pattern if m.pattern is not None else " ".join(m.names)
        words |= set(NAME_WORD.findall(source))
    prefix = f"mcp__{server}__"
    candidates = sorted({prefix + w.removeprefix(prefix) for w in words if w} |
                        {prefix + w.split("__")[-1] for w in words if "__" in w and w.split("__")[-1]})
    return tuple(name for name in candidates if _in_server(name, prefix))


# ---- copies of one command: where does each of two matchers fire? -------------------------------

def covers(kept: str | None, copy: str | None, event: str, builtins: tuple[str, ...],
           servers: Iterable[str]) -> bool:
    """Every call the matcher `copy` fires on, `kept` fires on too (False where that cannot be shown)."""
    space = _space(event)
    k, c = classify(kept, event), classify(copy, event)
    if space is None or k.kind == "all" or k == c:
        return True
    if c.kind == "exact":
        return all(k.matches(name) for name in c.names)
    if c.kind == "all":
        return False
    if c.pattern is None or (space == TOOL and not can_match_a_name(c.pattern.pattern)):
        return True  # that copy never fires (the host rejects the regex, or no tool name can match it)
    if isinstance(space, frozenset):
        return all(k.matches(value) for value in space if c.matches(value))
    if space == TOOL:
        if not matched_builtins(copy, builtins, event) <= matched_builtins(kept, builtins, event):
            return False
        # a server `kept` does not cover whole must be out of the copy's reach (a sample name
        # proves the opposite without building an automaton)
        return not any(_reach(k, s) != "all" and (_samples_match(s, (c,)) or _touches(c, s))
                       for s in _servers(servers, kept, copy))
    return False


def fires_on_some_call(matcher: str | None, event: str) -> bool:
    """False only where no call can fire the matcher: a regex the host rejects, or one no value
    (no tool name) can match."""
    space, m = _space(event), classify(matcher, event)
    if space is None or m.kind in ("all", "exact"):
        return True
    if m.pattern is None:
        return False
    if isinstance(space, frozenset):
        return any(m.matches(value) for value in space)
    return space != TOOL or can_match_a_name(m.pattern.pattern)


def meets(a: str | None, b: str | None, event: str, builtins: tuple[str, ...], servers: Iterable[str]) -> bool:
    """Some call fires both matchers (True where that cannot be ruled out)."""
    space = _space(event)
    ma, mb = classify(a, event), classify(b, event)
    if space is None or "all" in (ma.kind, mb.kind) or ma == mb:
        return True
    for first, second in ((ma, mb), (mb, ma)):
        if first.kind == "exact":
            return any(second.matches(name) for name in first.names)
    if ma.pattern is None or mb.pattern is None:  # the host rejects a regex: that copy never fires
        return False
    if isinstance(space, frozenset):
        return any(ma.matches(value) and mb.matches(value) for value in space)
    if space == TOOL:
        return (can_match_a_name(ma.pattern.pattern) and can_match_a_name(mb.pattern.pattern)
                and bool(overlap(a, b, builtins, _servers(servers, a, b), event)))
    # values nobody can list (agent types, another host's tools: Cursor's `^Shell$` and `^Read$`):
    # a string both regexes match, or True where the automata cannot tell
    machine_a, machine_b = _search_machine(ma.pattern.pattern), _search_machine(mb.pattern.pattern)
    return machine_a is None or machine_b is None or _search([machine_a, machine_b], WITNESS_CHARS + ":./ ") is not None


def _servers(configured: Iterable[str], *matchers: str | None) -> tuple[str, ...]:
    """The MCP servers whose tools two matchers are compared on: those configured, those the
    matchers name (`mcp__github__.*` reaches GitHub's tools wherever it is configured), and one
    that nobody names, for the matchers that reach every server (`.*`, `mcp__.*`)."""
    named = (name for text in matchers if text for name in named_servers(text))
    return tuple(dict.fromkeys([*configured, *named, ANY_OTHER_SERVER]))


def unseen_servers(matchers: Iterable[str | None], configured: Iterable[str]) -> list[str]:
    """The servers two matchers may meet at beyond those configured: the ones they name, and
    ANY_OTHER_SERVER for every server nobody names."""
    known = set(configured)
    named = (name for text in matchers if text for name in named_servers(text) if name not in known)
    return list(dict.fromkeys([*named, ANY_OTHER_SERVER]))


def named_servers(matcher: str) -> list[str]:
    """The MCP servers a matcher names: `github` in `mcp__github__.*` or `mcp__github__create_issue`."""
    names: list[str] = _NAMED_SERVER.findall(matcher)
    return names


_NAMED_SERVER = lazy(r"mcp__([A-Za-z0-9_-]+?)__")


def _space(event: str) -> str | frozenset[str] | None:
    """What the event's matcher filters: TOOL, a closed set of values, OPEN (values nobody can
    list: agent types, file names, another host's events), or None (the event has no matcher)."""
    known = CLAUDE_EVENTS.get(event)
    return known.matcher if known else OPEN


def tools_meet(a: str, b: str) -> bool:
    """Whether two tool names or name patterns may stand for one tool: a permission rule's (`Bash`,
    `mcp__srv` for a whole server, `mcp__srv__*`), an Overlap's (`mcp__srv__*`, or any server no
    matcher names), or a call's tool name."""
    if any(name.startswith(f"mcp__{ANY_OTHER_SERVER}__") for name in (a, b)):
        return all(name.startswith("mcp__") or name.endswith("*") and "mcp__".startswith(name[:-1]) for name in (a, b))
    prefix_a, prefix_b = _tool_prefix(a), _tool_prefix(b)
    if prefix_a is None and prefix_b is None:
        return a == b
    if prefix_a is None or prefix_b is None:
        exact, prefix = (a, prefix_b) if prefix_a is None else (b, prefix_a)
        return exact.startswith(prefix or "")
    return prefix_a.startswith(prefix_b) or prefix_b.startswith(prefix_a)


def _tool_prefix(tool: str) -> str | None:
    """What every tool a pattern names starts with (`mcp__srv__*` and `mcp__srv`: mcp__srv__), None for a name."""
    if tool.endswith("*"):
        return tool[:-1]
    return tool + "__" if tool.startswith("mcp__") and tool.count("__") == 1 else None
