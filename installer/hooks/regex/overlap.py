"""Which real tools two matchers can both match.

A matcher is read exactly as Claude Code reads it (installer/hooks/regex/matching.classify, the
same reading every matcher rule uses; docs/hosts/claude-code.md#matchers):
`*`, empty or missing matches everything; a matcher of letters, digits, `_`, `|`, space (and,
on current hosts, `-` and `,`) is a list of exact names; anything else is a JavaScript regex,
unanchored and case-sensitive.

"Real tools" are the built-in tool names plus, for every MCP server configured for the
project, the open space `mcp__<server>__<tool>` (a tool part of letters, digits, `_`, `-`).
That space is infinite, so two regexes are intersected as automata (the Thompson automata of
engine.py), not by trying sample names: `mcp__.*__AskUserQuestion` and `mcp__srv__.*` share
`mcp__srv__AskUserQuestion`; `mcp__srv__A.*` and `mcp__srv__B.*` share nothing. Constructs
no automaton expresses (look-arounds, back-references) and patterns past the engine's bounds
fall back to sampling: the built-in names and, per server, names built from the words in both
patterns.

Cost, and why it is bounded: each distinct matcher is read once (cached), and so is what it
makes of each server's prefix `mcp__<server>__`. Two regexes are intersected once per pair,
whatever the number of servers: one search over the product of their automata and the tool
part's three states, started from every server's prefix at once, and each server's answer read
off it. A state of that search is one position of each automaton (not a set of them), so it
visits at most 6 x |A| x |B| states: the bound is a property of the two patterns, checked before
the search (MAX_PRODUCT), never a cap met on the way. Whether a regex matches *every* tool of a
server needs sets of positions (a complement); that search stops at MAX_SUBSETS sets, and the
answer is then "some" (one shared name is named instead of all of them).
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Iterator

from ...patterns import lazy
from ..events import BUILTIN_TOOLS, CLAUDE_EVENTS, OPEN, TOOL
from .matching import Matcher, can_match_a_name, classify

if TYPE_CHECKING:
    from .engine import Regex

TOOL_PART = lazy(r"[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*_?")  # the tool part of an MCP tool name (no "__")
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
    if m.kind == "regex" and m.pattern is not None and _ALL_BUT_NAMED.match(m.pattern.source):
        return "all"  # (every tool of the server but a few named: a race with it is as good as certain)
    touched = _touches(m, server)
    # (exact names, or decided by sampling: never all; True comes of a regex the automaton read)
    if touched is not True or m.pattern is None:
        return "some" if touched else "none"
    if any(not m.pattern.search(name) for name in _sample_names(server, (m,))):
        return "some"  # a tool name of the server it misses
    from .automaton import of_matcher, takes_every_tool  # (a regex matcher's: see automaton.py)

    automaton = of_matcher(m)
    return "all" if automaton is not None and takes_every_tool(automaton, prefix) else "some"


# what can make a match depend on the text after it: an end anchor, a word boundary, a look-around
# (conservative: a "$" in a character class counts too, and leaves the question to the automaton)
_END_SENSITIVE = lazy(r"\$|\\[bB]|\(\?<?[=!]")


# `mcp__<server>__` written out, and not followed by a quantifier (which would apply to its last `_`)
_LITERAL_SERVER = lazy(r"\^?mcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__(?![?*+{])")


def _names_only_other_servers(pattern: str, server: str) -> bool:
    """Every branch starts with `mcp__<another server>__`: such a text never occurs in a tool name
    of `server` (a tool part has no `__`, and neither has a server name here)."""
    if "__" in server:
        return False
    branches = _top_level_branches(pattern) or []
    return all((found := _LITERAL_SERVER.match(branch)) and found.group(1) != server for branch in branches)


def _takes_whole_prefix(pattern: Regex, prefix: str) -> bool:
    """A regex that finds a match inside `mcp__<server>__` itself, with nothing that looks past
    the match, matches every tool name that starts so (the regex is searched, unanchored)."""
    return not _END_SENSITIVE.search(pattern.source) and pattern.search(prefix)


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
    if m.pattern is None or _names_only_other_servers(m.pattern.source, server):
        return False
    if _samples_match(server, (m,)):
        return True  # a tool name of the server it matches: no automaton needed
    from .automaton import meet, of_matcher  # (a regex matcher's: see automaton.py)

    automaton = of_matcher(m)
    found = None if automaton is None else meet((automaton,), {server: prefix})
    if found is None:  # (no automaton: sampling is the answer)
        return "some" if _samples_match(server, (m,)) else False
    return found[server] is not None


def overlap(a: str | None, b: str | None, tools: Iterable[str], mcp_servers: Iterable[str],
            event: str = "PreToolUse") -> Overlap:
    """The real tool names both matchers can match (built-ins, then one entry per MCP server)."""
    builtins = tuple(t for t in tools if not t.startswith("mcp__"))
    shared = matched_builtins(a, builtins, event) & matched_builtins(b, builtins, event)
    return Overlap(tuple(t for t in builtins if t in shared),
                   tuple(mcp_overlaps(a, b, tuple(mcp_servers), event).values()))


def mcp_overlap(a: str | None, b: str | None, server: str, event: str = "PreToolUse") -> str | None:
    """None, `mcp__<server>__*` when both match every tool of the server, or one tool name both match."""
    return mcp_overlaps(a, b, (server,), event).get(server)


def mcp_overlaps(a: str | None, b: str | None, servers: tuple[str, ...], event: str = "PreToolUse") -> dict[str, str]:
    """{server: what both matchers match of it}, in the servers' order, for the servers where they
    meet: `mcp__<server>__*` when both match every tool of it, else one tool name both match.
    The two regexes' automata are searched once for all the servers together."""
    ma, mb = classify(a, event), classify(b, event)
    return dict(_pair_overlaps(*sorted((ma, mb), key=_order), servers))


def _order(m: Matcher) -> tuple[str, str]:
    return m.kind, m.text or ""


@lru_cache(maxsize=16384)
def _pair_overlaps(ma: Matcher, mb: Matcher, servers: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    found: dict[str, str | None] = {}
    searched: dict[str, str] = {}  # the servers left to the automata: their prefix
    for server in dict.fromkeys(servers):
        reach_a, reach_b = _reach(ma, server), _reach(mb, server)
        if "none" in (reach_a, reach_b):
            continue
        if reach_a == "all" and reach_b == "all":
            found[server] = f"mcp__{server}__*"
            continue
        decided, name = _quick_pair(ma, mb, server)
        if decided:
            found[server] = name
        else:
            searched[server] = f"mcp__{server}__"
    if searched:
        from .automaton import meet, of_matcher  # (regex matchers': see automaton.py)

        automata = (of_matcher(ma), of_matcher(mb))
        met = None if None in automata else meet(automata, searched)  # type: ignore[arg-type]
        for server in searched:
            found[server] = met[server] if met is not None else \
                _samples_match(server, tuple(x for x in (ma, mb) if x.kind == "regex"))
    return tuple((server, name) for server in dict.fromkeys(servers) if (name := found.get(server)))


def _quick_pair(ma: Matcher, mb: Matcher, server: str) -> tuple[bool, str | None]:
    """What two matchers share of a server without an automaton, if that tells: (True, the exact
    name both match or None), or (True, a sample name both match); (False, None) where the
    automata must tell."""
    prefix = f"mcp__{server}__"
    for first, second in ((ma, mb), (mb, ma)):
        if first.kind == "exact":
            return True, next((n for n in first.names if _in_server(n, prefix) and second.matches(n)), None)
    sample = _samples_match(server, (ma, mb))
    return bool(sample), sample  # (the automata prove there is none, and find names no sample has)


def _in_server(name: str, prefix: str) -> bool:
    return name.startswith(prefix) and TOOL_PART.fullmatch(name[len(prefix):]) is not None


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


def _samples_match(server: str, matchers: tuple[Matcher, ...]) -> str | None:
    """A sample tool name of the server that every matcher matches, or None (which proves
    nothing: the automata decide then, or, for patterns they cannot express, this is the answer)."""
    return next((name for name in _sample_names(server, matchers) if all(m.matches(name) for m in matchers)), None)


NAME_WORD = lazy(r"[A-Za-z0-9_-]+")


@lru_cache(maxsize=4096)
def _sample_names(server: str, matchers: tuple[Matcher, ...]) -> tuple[str, ...]:
    """Tool names of the server built from the words the patterns contain and the built-in names."""
    words = set(BUILTIN_TOOLS) | {"x", "tool"}
    for m in matchers:
        source = m.pattern.source if m.pattern is not None else " ".join(m.names)
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
    if c.pattern is None or (space == TOOL and not can_match_a_name(c.pattern)):
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
    return space != TOOL or can_match_a_name(m.pattern)


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
        return (can_match_a_name(ma.pattern) and can_match_a_name(mb.pattern)
                and bool(overlap(a, b, builtins, _servers(servers, a, b), event)))
    # values nobody can list (agent types, another host's tools: Cursor's `^Shell$` and `^Read$`):
    # a string both regexes match, or True where the automata cannot tell
    from .automaton import ANY_TEXT, WITNESS_CHARS, meet, of_matcher  # (regex matchers': see automaton.py)

    automata = (of_matcher(ma), of_matcher(mb))
    if None in automata:
        return True
    met = meet(automata, {"": ""}, WITNESS_CHARS + ":./ ", ANY_TEXT)  # type: ignore[arg-type]
    return met is None or met[""] is not None


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


_NAMED_SERVER = lazy(r"mcp__([A-Za-z0-9_-]+?)__", needs=("mcp__",))


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
