"""How Claude Code reads a matcher, and JavaScript regexes approximated by Python's `re`.

Measured on Claude Code 2.1.328 (docs/hosts/claude-code.md#matchers): `*`, an empty or a missing matcher
matches everything; a matcher made only of letters, digits, `_`, `|` and spaces (since 2.1.195
also `-`, since 2.1.191 also `,`) is an exact name or a list of exact names; anything else is a
JavaScript regex, unanchored (`RegExp.prototype.test`) and case-sensitive. FileChanged and
StopFailure use the narrower exact set (letters, digits, `_`, `|`).

`js_regex` says whether the host's regex engine accepts a pattern (Python's `re` compiles a
translation of it, whose error messages name what is wrong, and the constructs that JavaScript
rejects or reads differently are named besides), and gives the pattern to match with: an
engine.Regex, which reads the JavaScript source itself and never backtracks. No regex a config
supplies is run by Python's `re`.
"""
from __future__ import annotations

import re
import warnings
from functools import lru_cache
from typing import TYPE_CHECKING

from ...patterns import lazy
from ...records import Record
from ..events import NARROW_EXACT_EVENTS

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


JS_NAMED_GROUP = lazy(r"\(\?<([A-Za-z_$][\w$]*)>")
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
