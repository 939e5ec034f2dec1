"""Matchers as regular expressions: how Claude Code reads one matcher (`classify`), and which real
tools two matchers can both match (`matched_builtins`, `server_reach`, `overlap`...).

Measured on Claude Code 2.1.328 (docs/hosts/claude-code.md#matchers): `*`, an empty or a missing matcher
matches everything; a matcher made only of letters, digits, `_`, `|` and spaces (since 2.1.195
also `-`, since 2.1.191 also `,`) is an exact name or a list of exact names; anything else is a
JavaScript regex, unanchored (`RegExp.prototype.test`) and case-sensitive. FileChanged and
StopFailure use the narrower exact set (letters, digits, `_`, `|`). Every matcher rule reads a
matcher so, with `classify`.

`js_regex` says whether the host's regex engine accepts a pattern (Python's `re` compiles a
translation of it, whose error messages name what is wrong, and the constructs that JavaScript
rejects or reads differently are named besides), and gives the pattern to match with: an
engine.Regex, which reads the JavaScript source itself and never backtracks. No regex a config
supplies is run by Python's `re`.

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

All of it is the package's own module, which every doctor run loads: the reading of a matcher
and the meeting of two were modules of their own (matching.py, overlap.py), 343.7 M -> 342.0 M
instructions of doctor on a typical file as one. The regex engine (engine.py) and its automata
(automaton.py) load only for a regex matcher.
"""
from __future__ import annotations

import re
import warnings
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Iterator

from ...patterns import lazy
from ...records import Record
from ..events import BUILTIN_TOOLS, CLAUDE_EVENTS, NARROW_EXACT_EVENTS, OPEN, TOOL

if TYPE_CHECKING:
    from .engine import Regex

# what a matcher of exact names may hold, and an event's that tells names apart by `|` alone (sets,
# not patterns: their compiles were 0.7 M instructions of doctor on a typical file)
NARROW_EXACT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_|")
EXACT = NARROW_EXACT | frozenset(", \t-")


class Matcher(Record):
    """One matcher as the host reads it."""

    text: str | None
    kind: str  # "all" | "exact" | "regex"
    names: tuple[str, ...] = ()  # exact: the names it matches
    pattern: Regex | None = None  # regex: what it matches (None where the host's engine rejects it)
    error: str | None = None  # regex: why the host's regex engine rejects it
    dialect: tuple[str, ...] = ()  # regex: constructs JavaScript rejects or reads differently (then
    # `pattern` is what JavaScript makes of them, or None when JavaScript rejects the pattern)

    @property
    def undecided(self) -> str | None:
        """Why what this regex matches is not worked out (past a bound of the engine), or None."""
        return self.pattern.undecided if self.pattern is not None else None

    def matches(self, name: str) -> bool:
        if self.kind == "all":
            return True
        if self.kind == "exact":
            return name in self.names
        return bool(self.pattern and self.pattern.search(name))


@lru_cache(maxsize=4096)
def classify(matcher: str | None, event: str = "PreToolUse") -> Matcher:
    if matcher is None or matcher.strip() in ("", "*"):
        return Matcher(matcher, "all")
    exact = NARROW_EXACT if event in NARROW_EXACT_EVENTS else EXACT
    if exact.issuperset(matcher):  # (its blanks are spaces and tabs: each name stripped of them)
        names = tuple(n for n in (part.strip() for part in matcher.replace(",", "|").split("|")) if n)
        return Matcher(matcher, "exact", names=names)
    translated = js_regex(matcher)
    return Matcher(matcher, "regex", pattern=translated.pattern, error=translated.error,
                   dialect=tuple(translated.dialect))


# ---- JavaScript regex -> Python re ------------------------------------------------------------

class Translated:
    def __init__(self, python: str | None, pattern: Regex | None, error: str | None = None,
                 dialect: list[str] | None = None) -> None:
        self.python = python
        self.pattern = pattern
        self.error = error  # the host's regex engine rejects it
        self.dialect = [] if dialect is None else dialect  # constructs JavaScript rejects or reads differently


_JS_ESCAPES = set("dDwWsSbBfnrtv")
_PY_ANCHORS = {"A": "start of input", "Z": "end of input", "z": "end of input", "G": "end of the previous match"}
_GROUP_FLAGS = lazy(r"\(\?[aiLmsux-]+[):]")


JS_NAMED_GROUP = lazy(r"\(\?<([A-Za-z_$][\w$]*)>", needs=("(?<",))
JS_BACKREFERENCE = lazy(r"\\k<([A-Za-z_$][\w$]*)>")
HEX_2 = lazy(r"[0-9A-Fa-f]{2}")  # \xHH
OPEN_MINIMUM = lazy(r"\{,\d+\}")  # `{,2}`: a repeat from 0 to Python, text to JavaScript
HEX_4 = lazy(r"[0-9A-Fa-f]{4}")  # \uHHHH


def js_regex(source: str) -> Translated:
    """Whether JavaScript accepts a (non-unicode) regex, what Python's translation of it says where
    it does not, what JavaScript reads differently; and the pattern to match with."""
    from .engine import MAX_SOURCE, Regex  # (a regex matcher's only: 1.6 M instructions of a run without one)

    if len(source) > MAX_SOURCE:  # (not compiled to judge it either: the pattern says it is undecided)
        return Translated(None, Regex(source))
    out: list[str] = []
    dialect: list[str] = []  # read differently by JavaScript
    rejected: list[str] = []  # rejected by JavaScript
    names = set(JS_NAMED_GROUP.findall(source))
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            if i + 1 == n:
                return Translated(None, None, error="\\ at end of pattern", dialect=dialect)
            piece, i = _escape(source, i, names, dialect, in_class=False)
            out.append(piece)
            continue
        if ch == "[":
            char_class, i = _char_class(source, i, names, dialect)
            if char_class is None:
                return Translated(None, None, error="unterminated character class [...]", dialect=dialect)
            out.append(char_class)
            continue
        if ch == "(" and source.startswith("(?", i):
            rest = source[i:]
            if rest.startswith(("(?:", "(?=", "(?!", "(?<=", "(?<!")):
                out.append("(?")
                i += 2
                continue
            named = JS_NAMED_GROUP.match(rest)
            if named:
                out.append(f"(?P<{named[1]}>")
                i += named.end()
                continue
            construct = _GROUP_FLAGS.match(rest)
            if construct:
                rejected.append(f"{construct[0]!r} (inline flags: JavaScript throws 'Invalid group')")
            elif rest.startswith("(?P"):
                rejected.append("'(?P...' (Python's named group; JavaScript writes (?<name>...) and throws "
                                "'Invalid group')")
            elif rest.startswith("(?#"):
                rejected.append("'(?#...)' (a comment group: JavaScript throws 'Invalid group')")
            elif rest.startswith("(?>"):
                rejected.append("'(?>...)' (an atomic group: JavaScript throws 'Invalid group')")
            elif rest.startswith("(?("):
                rejected.append("'(?(...)' (a conditional group: JavaScript throws 'Invalid group')")
            else:
                return Translated(None, None, error=f"invalid group {rest[:4]!r}", dialect=dialect)
            out.append("(?")
            i += 2
            continue
        if ch == "{" and (open_min := OPEN_MINIMUM.match(source, i)):
            out.append("\\" + open_min[0])  # (JavaScript takes it for text: a quantifier needs its minimum)
            dialect.append(f"{open_min[0]!r} (JavaScript reads it as text; Python as a repeat from 0)")
            i = open_min.end()
            continue
        if ch in "*+?}" and i + 1 < n and source[i + 1] == "+" and (ch != "+" or i == 0 or source[i - 1] != "\\"):
            rejected.append(f"'{ch}+' (a possessive quantifier: JavaScript throws 'Nothing to repeat')")
        out.append(ch)
        i += 1
    python = "".join(out)
    if rejected:  # a SyntaxError in JavaScript
        return Translated(python, None, error="not a JavaScript regex", dialect=rejected + dialect)
    if _compiles(python):
        return Translated(python, Regex(source), dialect=dialect)
    try:  # (compiled, never run: its errors are the words the messages use)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            re.compile(python)
    except re.error as err:
        if "look-behind requires fixed-width" not in str(err):  # (JavaScript allows any look-behind)
            return Translated(python, None, error=str(err), dialect=dialect)
    except (RecursionError, OverflowError) as err:  # absurd nesting or repeat counts
        return Translated(python, None, error=str(err) or type(err).__name__, dialect=dialect)
    return Translated(python, Regex(source), dialect=dialect)


# what `_compiles` reads: ASCII punctuation, which a backslash makes a literal in Python's re; what a
# class of plain characters lacks; how deep its groups may nest
PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
CLASS_MARKS = frozenset("\\[]-^")
MAX_PLAIN_DEPTH = 20


def _compiles(python: str) -> bool:
    """Whether Python's re surely compiles a translation, read without compiling it: literals, `.`,
    escaped punctuation, classes of plain characters, groups without `?`, `|`, `^`, `$`, and `*`,
    `+` or `?` only after what they can repeat. Each of the corpus tree's regex matchers was
    compiled to learn that it compiles (0.66 M instructions each, 37 in one of the shared run's
    workers); a pattern this does not read is compiled, for the error's words."""
    depth, repeatable, i = 0, False, 0
    while i < len(python):
        character = python[i]
        if character in "*+?":
            if not repeatable:
                return False
            repeatable = False
        elif character == "\\":
            if python[i + 1:i + 2] not in PUNCTUATION:
                return False
            i, repeatable = i + 1, True
        elif character == "[":
            end = python.find("]", i + 1)
            if end <= i + 1 or not CLASS_MARKS.isdisjoint(python[i + 1:end]):
                return False
            i, repeatable = end, True
        elif character == "(":
            if python[i + 1:i + 2] == "?" or depth == MAX_PLAIN_DEPTH:
                return False
            depth, repeatable = depth + 1, False
        elif character == ")":
            if depth == 0:
                return False
            depth, repeatable = depth - 1, True
        elif character in "{}]":
            return False
        else:
            repeatable = character not in "|^$"
        i += 1
    return depth == 0


def _escape(source: str, i: int, names: set[str], dialect: list[str], in_class: bool) -> tuple[str, int]:
    if i + 1 >= len(source):  # inside a class: the class is unterminated anyway
        return "\\\\", i + 1
    c = source[i + 1]
    if c.isdigit():
        if c == "0" and not (i + 2 < len(source) and source[i + 2].isdigit()):
            return "\\x00", i + 2
        return "\\" + c, i + 2
    if c in _JS_ESCAPES:
        return "\\" + c, i + 2
    if c == "c":
        if i + 2 < len(source) and source[i + 2].isalpha():
            return f"\\x{ord(source[i + 2].upper()) - 64:02x}", i + 3
        return "\\\\c", i + 2
    if c == "x":
        if HEX_2.match(source[i + 2:i + 4]):
            return source[i:i + 4], i + 4
        return "x", i + 2
    if c == "u":
        if HEX_4.match(source[i + 2:i + 6]):
            return source[i:i + 6], i + 6
        return "u", i + 2
    if c == "k" and not in_class:
        named = JS_BACKREFERENCE.match(source[i:])
        if named and named[1] in names:
            return f"(?P={named[1]})", i + named.end()
        return "k", i + 2
    if c.isascii() and c.isalpha():  # JavaScript: an identity escape, the letter itself
        if c in _PY_ANCHORS and not in_class:
            dialect.append(f"'\\{c}' (the {_PY_ANCHORS[c]} in Python and PCRE, the letter {c} in JavaScript)")
        return c, i + 2
    return "\\" + c, i + 2


def _char_class(source: str, i: int, names: set[str], dialect: list[str]) -> tuple[str | None, int]:
    j = i + 1
    negated = source.startswith("^", j)
    if negated:
        j += 1
    if source.startswith("]", j):  # JavaScript: [] matches nothing, [^] matches anything
        return ("[\\s\\S]" if negated else "(?!)"), j + 1
    out = ["[^" if negated else "["]
    while j < len(source):
        ch = source[j]
        if ch == "]":
            out.append("]")
            return "".join(out), j + 1
        if ch == "\\":
            piece, j = _escape(source, j, names, dialect, in_class=True)
            out.append(piece)
            continue
        if ch == "[":  # literal in JavaScript; Python warns about nested sets
            out.append("\\[")
        else:
            out.append(ch)
        j += 1
    return None, j


def empty_alternative(source: str) -> bool:
    """True when the pattern's top level has an empty alternative (`a||b`, `|a`, `a|`): it then
    matches the empty string, so an unanchored matcher matches every name."""
    depth, at_start, i = 0, True, 0
    while i < len(source):
        ch = source[i]
        if ch == "\\":
            at_start, i = False, i + 2
            continue
        if ch == "[":
            end = source.find("]", i + 2 if source.startswith("[]", i) or source.startswith("[^]", i) else i + 1)
            at_start, i = False, (len(source) if end < 0 else end + 1)
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif ch == "|" and depth == 0:
            if at_start:
                return True
            at_start = True
            i += 1
            continue
        at_start = False
        i += 1
    return at_start and "|" in source and depth == 0


# ---- can a regex match any tool name at all? ---------------------------------------------------

TOOL_NAME = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")  # built-ins, mcp__<server>__<tool>
VALUE_NAME = TOOL_NAME | frozenset(":/@")  # agent types, MCP server names, command names

def can_match_a_name(pattern: Regex, alphabet: frozenset[str] = TOOL_NAME) -> bool:
    """False only when no string made of the alphabet's characters can contain a match; True when
    that is possible or cannot be decided.

    Decided on the pattern's syntax tree: a sequence needs every item, a branch one
    alternative, a repeat with minimum 0 nothing. Anchors, look-arounds and back-references are
    read as "anything" (a superset of the language), so "matches nothing" is only ever said
    when it is certain."""
    return pattern.can_match(alphabet)


# ---- which real tools two matchers can both match --------------------------------------------

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
    """The MCP servers a matcher names: `github` in `mcp__github__.*` or `mcp__github__create_issue`.
    (What `mcp__([A-Za-z0-9_-]+?)__` found, by str finds: its compile was each process's with an
    MCP matcher.) After each `mcp__`, the shortest run of a server name's characters that `__` ends."""
    names: list[str] = []
    at = matcher.find("mcp__")
    while at >= 0:
        end = at + 5
        while end < len(matcher) and matcher[end] in SERVER_NAME:
            end += 1
            if matcher.startswith("__", end):
                names.append(matcher[at + 5:end])
                at = matcher.find("mcp__", end + 2)
                break
        else:
            at = matcher.find("mcp__", at + 1)
    return names


SERVER_NAME = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


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
