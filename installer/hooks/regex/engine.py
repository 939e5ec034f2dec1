"""JavaScript regexes evaluated in time linear in the text: a matcher or any other pattern a
config supplies is never handed to a backtracking engine.

A pattern is parsed as JavaScript reads it (`new RegExp(source)`: no flags, the web's Annex B
syntax) and compiled to a Thompson automaton (a program of character sets, splits and
assertions). `search` runs it over a text breadth first, every thread at once, so its cost is
at most the program's size times the text's length whatever the pattern: no
`^(([a-zA-Z_]+)*)*!$` can make it backtrack. The sets of threads met are remembered per pattern
(a lazy DFA), so a pattern asked about many names steps through most of them by lookup.

What a Thompson automaton cannot hold:
- look-arounds are evaluated at each position where a thread meets one, by running their own
  program from there (forward, or backward for a look-behind), and remembered per position: the
  cost is then at most quadratic in the text, whose length `search` caps (MAX_TEXT);
- a back-reference makes the language non-regular: such a pattern is run by a backtracking
  matcher, all of them together stopped after MAX_STEPS steps in a process (about two seconds),
  and is `undecided` from the start, which doctor says in a finding (what it answers past the
  budget is "no match", which nothing may be built on);
- a program past MAX_PROGRAM instructions (counted repeats are written out: `(?:a{999}){999}`), a
  pattern nested past MAX_DEPTH or longer than MAX_SOURCE is `undecided` too, and never run; so
  is one whose searches have visited MAX_WORK instructions (a huge pattern asked about many
  texts), from then on.
"""
from __future__ import annotations

import bisect
from typing import Any, Callable, Iterable, Sequence

MAX_PROGRAM = 5_000  # instructions of a compiled pattern (counted repeats written out)
MAX_DEPTH = 100  # groups, classes and repeats nested in one another
MAX_TEXT = 4096  # characters of one text searched (names are far shorter; the rest is not read)
MAX_STEPS = 1_000_000  # the backtracking matcher's budget in one process (patterns with back-references)
MAX_DFA = 4096  # the remembered thread sets of one pattern (then it forgets them and starts again)
MAX_SOURCE = 64 * 1024  # characters of a pattern read at all
MAX_WORK = 2_000_000  # instructions one pattern's searches may visit (about a second): then it is undecided

LINE_TERMINATORS = "\n\r\u2028\u2029"  # what `.` does not match
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" \
           "\u2028\u2029\u202f\u205f\u3000\ufeff"
MAX_CODE = 0xFFFF  # a non-unicode JavaScript regex reads UTF-16 code units


class Undecided(Exception):
    """The pattern is past a bound this engine keeps: what it matches is not worked out."""


class PatternError(Exception):
    """Not a pattern JavaScript accepts (the translation to Python says why in the host's words)."""


# ---- character sets ------------------------------------------------------------------------------

class CharSet:
    """A set of characters as sorted, disjoint ranges of code points, maybe negated."""

    __slots__ = ("ranges", "negated", "fold", "_starts")

    def __init__(self, ranges: Iterable[tuple[int, int]], negated: bool = False, fold: bool = False) -> None:
        merged: list[tuple[int, int]] = []
        for lo, hi in sorted(ranges):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        self.ranges = tuple(merged)
        self.negated = negated
        self.fold = fold  # either case of a letter matches (the `i` flag)
        self._starts = [lo for lo, _ in merged]

    def __contains__(self, ch: str) -> bool:
        if self.fold:
            return any(self._has(c) for c in {ch, ch.lower(), ch.upper()} if len(c) == 1)
        return self._has(ch)

    def _has(self, ch: str) -> bool:
        code = ord(ch)
        index = bisect.bisect_right(self._starts, code) - 1
        inside = index >= 0 and code <= self.ranges[index][1]
        return inside != self.negated

    def folded(self) -> CharSet:
        return CharSet(self.ranges, self.negated, fold=True)

    def meets(self, alphabet: frozenset[str]) -> bool:
        """Whether the set holds a character of the alphabet (a single character by lookup)."""
        ranges = self.ranges
        if len(ranges) == 1 and ranges[0][0] == ranges[0][1] and not self.negated and not self.fold:
            return chr(ranges[0][0]) in alphabet
        return any(ch in self for ch in alphabet)


def _chars(text: str) -> list[tuple[int, int]]:
    return [(ord(c), ord(c)) for c in text]


DIGIT = [(48, 57)]
WORD = [(48, 57), (65, 90), (95, 95), (97, 122)]
SPACE = _chars(JS_SPACE)
ANY = CharSet([], negated=True)
DOT = CharSet(_chars(LINE_TERMINATORS), negated=True)
WORD_SET = CharSet(WORD)
CLASS_ESCAPES = {"d": (DIGIT, False), "D": (DIGIT, True), "w": (WORD, False), "W": (WORD, True),
                 "s": (SPACE, False), "S": (SPACE, True)}
CONTROL_ESCAPES = {"f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


WORD_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")  # WORD_SET's, by lookup


def is_word(ch: str) -> bool:
    return ch in WORD_CHARS


# ---- syntax tree ---------------------------------------------------------------------------------
# ("set", CharSet) | ("cat", [node]) | ("alt", [node]) | ("rep", node, min, max or None)
# | ("group", node, number) | ("assert", "^" | "$" | "b" | "B") | ("look", node, ahead, negated)
# | ("backref", number)

Node = tuple[Any, ...]
Instruction = tuple[Any, ...]


_SYNTAX = frozenset("^$\\.*+?()[]{}|")  # the characters that may mean more than themselves


class _Parser:
    """JavaScript's regex grammar, non-unicode with Annex B (what `new RegExp(s)` accepts)."""

    def __init__(self, source: str) -> None:
        self.s = source
        self.i = 0
        self.groups = 0
        groups = _capturing_groups(source)
        self.total_groups = len(groups)
        self.names: dict[str, int] = {}
        for number, name in enumerate(groups, 1):
            if name is not None:
                self.names.setdefault(name, number)
        self.depth = 0
        self.backrefs = False
        self.lookarounds = False

    def parse(self) -> Node:
        node = self.disjunction()
        if self.i < len(self.s):
            raise PatternError(f"unmatched ) at {self.i}")
        return node

    def _deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Undecided(f"nested more than {MAX_DEPTH} deep")

    def disjunction(self) -> Node:
        alternatives = [self.alternative()]
        while self.i < len(self.s) and self.s[self.i] == "|":
            self.i += 1
            alternatives.append(self.alternative())
        return alternatives[0] if len(alternatives) == 1 else ("alt", alternatives)

    def alternative(self) -> Node:
        items: list[Node] = []
        s, end = self.s, len(self.s)
        while self.i < end and s[self.i] not in "|)":
            i = self.i
            if s[i] not in _SYNTAX and (i + 1 == end or s[i + 1] not in "*+?{"):
                # a plain character, unquantified: most of a matcher (the corpus's 50 regex matchers
                # are built in 2.8 ms where a term each and a set each took 6.0 ms)
                items.append(("set", _char(ord(s[i]))))
                self.i += 1
            else:
                items.append(self.term())
        return items[0] if len(items) == 1 else ("cat", items)

    def term(self) -> Node:
        s, start = self.s, self.i
        ch = s[start]
        if ch == "^" or ch == "$":
            self.i += 1
            return ("assert", ch)
        if s.startswith(("\\b", "\\B"), start):
            self.i += 2
            return ("assert", s[start + 1])
        if s.startswith(("(?<=", "(?<!"), start):
            self.i += 4
            return self._look(ahead=False, negated=s[start + 3] == "!")  # (not quantifiable)
        if s.startswith(("(?=", "(?!"), start):
            self.i += 3
            atom = self._look(ahead=True, negated=s[start + 2] == "!")
        else:
            atom = self.atom()
        return self.quantified(atom)

    def _look(self, ahead: bool, negated: bool) -> Node:
        self._deeper()
        self.lookarounds = True
        body = self.disjunction()
        self._close()
        self.depth -= 1
        return ("look", body, ahead, negated)

    def _close(self) -> None:
        if self.i >= len(self.s) or self.s[self.i] != ")":
            raise PatternError("missing )")
        self.i += 1

    def quantified(self, atom: Node) -> Node:
        s = self.s
        if self.i >= len(s):
            return atom
        ch = s[self.i]
        low: int
        high: int | None
        if ch == "*":
            low, high, self.i = 0, None, self.i + 1
        elif ch == "+":
            low, high, self.i = 1, None, self.i + 1
        elif ch == "?":
            low, high, self.i = 0, 1, self.i + 1
        elif ch == "{" and (braced := _braced(s, self.i)) is not None:
            low, high, self.i = braced
        else:
            return atom
        if self.i < len(s) and s[self.i] == "?":
            self.i += 1  # lazy: the same language
        if atom[0] == "assert":
            raise PatternError("nothing to repeat")
        if high is not None and high < low:
            raise PatternError("numbers out of order in {} quantifier")
        return ("rep", atom, low, high)

    def atom(self) -> Node:
        s, i = self.s, self.i
        ch = s[i]
        if ch == ".":
            self.i += 1
            return ("set", DOT)
        if ch == "(":
            self._deeper()
            if s.startswith("(?:", i):
                self.i += 3
                body = self.disjunction()
                self._close()
                self.depth -= 1
                return body
            if s.startswith("(?<", i):
                end = s.find(">", i)
                if end < 0:
                    raise PatternError("invalid group name")
                self.i = end + 1
            elif s.startswith("(?", i):
                raise PatternError("invalid group")
            else:
                self.i += 1
            self.groups += 1
            number = self.groups
            body = self.disjunction()
            self._close()
            self.depth -= 1
            return ("group", body, number)
        if ch == ")":
            raise PatternError("unmatched )")
        if ch == "[":
            return ("set", self.char_class())
        if ch == "\\":
            return self.atom_escape()
        if ch in "*+?":
            raise PatternError("nothing to repeat")
        if ch == "{" and _braced(s, i) is not None:
            raise PatternError("nothing to repeat")
        self.i += 1
        return ("set", _char(ord(ch)))

    def atom_escape(self) -> Node:
        s, i = self.s, self.i
        if i + 1 >= len(s):
            raise PatternError("\\ at end of pattern")
        c = s[i + 1]
        if c.isdigit() and c != "0":
            j = i + 1
            while j < len(s) and s[j].isdigit():
                j += 1
            number = int(s[i + 1:j])
            if number <= self.total_groups:
                self.i = j
                self.backrefs = True
                return ("backref", number)
        if c == "k" and self.names:
            end = s.find(">", i)
            if s.startswith("\\k<", i) and end > 0 and s[i + 3:end] in self.names:
                self.i = end + 1
                self.backrefs = True
                return ("backref", self.names[s[i + 3:end]])
        if c in CLASS_ESCAPES:
            self.i += 2
            ranges, negated = CLASS_ESCAPES[c]
            return ("set", CharSet(ranges, negated))
        code, self.i = _character_escape(s, i, in_class=False)
        return ("set", _char(code))

    def char_class(self) -> CharSet:
        s = self.s
        i = self.i + 1
        negated = i < len(s) and s[i] == "^"
        if negated:
            i += 1
        ranges: list[tuple[int, int]] = []
        sets: list[CharSet] = []  # \D, \W, \S inside a class
        while True:
            if i >= len(s):
                raise PatternError("unterminated character class")
            if s[i] == "]":
                break
            first, i, escape = self._class_atom(i)
            if i + 1 < len(s) and s[i] == "-" and s[i + 1] != "]" and first is not None:
                second, j, _ = self._class_atom(i + 1)
                if second is not None:
                    if second < first:
                        raise PatternError("bad character range")
                    ranges.append((first, second))
                    i = j
                    continue
                ranges.append((first, first))  # Annex B: [a-\d] is a, -, and the digits
                ranges.append((45, 45))
                first, i, escape = self._class_atom(i + 1)
            if first is not None:
                ranges.append((first, first))
            elif escape is not None:
                cls, cls_negated = CLASS_ESCAPES[escape]
                if cls_negated:
                    sets.append(CharSet(cls, True))
                else:
                    ranges += cls
        self.i = i + 1
        if sets:  # a negated escape in a class: written out over the code units
            ranges += _ranges_of(sets)
        return CharSet(ranges, negated)

    def _class_atom(self, i: int) -> tuple[int | None, int, str | None]:
        """(code point, next index, class escape letter) of one class atom."""
        s = self.s
        if s[i] != "\\":
            return ord(s[i]), i + 1, None
        if i + 1 >= len(s):
            raise PatternError("\\ at end of pattern")
        c = s[i + 1]
        if c in CLASS_ESCAPES:
            return None, i + 2, c
        if c == "b":
            return 8, i + 2, None
        if c == "-":
            return 45, i + 2, None
        code, j = _character_escape(s, i, in_class=True)
        return code, j, None


_CHARS: dict[int, CharSet] = {}  # the set of one character, by its code (sets are never changed)


def _char(code: int) -> CharSet:
    found = _CHARS.get(code)
    if found is None:
        found = _CHARS[code] = CharSet([(code, code)])
    return found


def _ranges_of(sets: Sequence[CharSet]) -> list[tuple[int, int]]:
    """The ranges of a union of negated sets (their complements' gaps)."""
    out: list[tuple[int, int]] = []
    for charset in sets:
        lo = 0
        for start, end in charset.ranges:
            if start > lo:
                out.append((lo, start - 1))
            lo = end + 1
        if lo <= MAX_CODE:
            out.append((lo, MAX_CODE))
    return out


def _character_escape(s: str, i: int, in_class: bool) -> tuple[int, int]:
    """A character escape's code point and the index after it (s[i] is the backslash)."""
    c = s[i + 1]
    if c in CONTROL_ESCAPES:
        return ord(CONTROL_ESCAPES[c]), i + 2
    if c == "c":
        if i + 2 < len(s) and s[i + 2].isascii() and s[i + 2].isalpha():
            return ord(s[i + 2].upper()) - 64, i + 3
        if in_class and i + 2 < len(s) and (s[i + 2].isdigit() or s[i + 2] == "_"):
            return ord(s[i + 2]) % 32, i + 3
        return 92, i + 1  # the backslash itself, then `c` as text
    if c == "x" and _hex(s[i + 2:i + 4], 2):
        return int(s[i + 2:i + 4], 16), i + 4
    if c == "u" and _hex(s[i + 2:i + 6], 4):
        return int(s[i + 2:i + 6], 16), i + 6
    if c in "01234567":  # a legacy octal escape (\0 is NUL)
        j, limit = i + 1, (3 if c in "0123" else 2)
        while j < len(s) and j - i - 1 < limit and s[j] in "01234567":
            j += 1
        return int(s[i + 1:j], 8), j
    return ord(c), i + 2  # an identity escape (\8, \y, \/ ...)


def _hex(text: str, size: int) -> bool:
    return len(text) == size and all(c in "0123456789abcdefABCDEF" for c in text)


def _braced(s: str, i: int) -> tuple[int, int | None, int] | None:
    """`{n}`, `{n,}` or `{n,m}` at i: (min, max, index after it); None where it is text."""
    j = i + 1
    while j < len(s) and s[j].isdigit():
        j += 1
    if j == i + 1:
        return None
    low = int(s[i + 1:j])
    if j < len(s) and s[j] == "}":
        return low, low, j + 1
    if j >= len(s) or s[j] != ",":
        return None
    k = j + 1
    while k < len(s) and s[k].isdigit():
        k += 1
    if k >= len(s) or s[k] != "}":
        return None
    return low, (int(s[j + 1:k]) if k > j + 1 else None), k + 1


def _capturing_groups(source: str) -> list[str | None]:
    """The capturing groups of a pattern in order, each by its name (None: unnamed); counted
    before parsing, since a back-reference may come before its group."""
    groups: list[str | None] = []
    i, in_class = 0, False
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(" and not source.startswith("(?", i):
            groups.append(None)
        elif source.startswith("(?<", i) and not source.startswith(("(?<=", "(?<!"), i):
            end = source.find(">", i)
            groups.append(source[i + 3:end] if end > 0 else None)
        i += 1
    return groups


# ---- programs ------------------------------------------------------------------------------------
# One instruction per index: ("char", CharSet) | ("split", x, y) | ("jmp", x) | ("assert", kind)
# | ("look", Program, ahead, negated) | ("match",)

class Program:
    """A compiled pattern (or a look-around's body), run in one direction."""

    def __init__(self, code: list[Instruction], forward: bool) -> None:
        self.code = code
        self.forward = forward
        self.looks = any(op[0] == "look" for op in code)


class _Compiler:
    def __init__(self) -> None:
        self.size = 0

    def program(self, node: Node, forward: bool) -> Program:
        code: list[Instruction] = []
        self.emit(node, code, forward)
        code.append(("match",))
        return Program(code, forward)

    def _grow(self, code: list[Instruction], count: int = 1) -> None:
        self.size += count
        if self.size > MAX_PROGRAM:
            raise Undecided(f"more than {MAX_PROGRAM:,} automaton states")

    def emit(self, node: Node, code: list[Instruction], forward: bool) -> None:
        kind = node[0]
        if kind == "set":
            self._grow(code)
            code.append(("char", node[1]))
        elif kind == "cat":
            for item in (node[1] if forward else reversed(node[1])):
                self.emit(item, code, forward)
        elif kind == "group":
            self.emit(node[1], code, forward)
        elif kind == "alt":
            jumps = []
            for index, alternative in enumerate(node[1]):
                if index < len(node[1]) - 1:
                    self._grow(code)
                    split = len(code)
                    code.append(None)  # type: ignore[arg-type]  # (filled below)
                    self.emit(alternative, code, forward)
                    self._grow(code)
                    jumps.append(len(code))
                    code.append(None)  # type: ignore[arg-type]
                    code[split] = ("split", split + 1, len(code))
                else:
                    self.emit(alternative, code, forward)
            for jump in jumps:
                code[jump] = ("jmp", len(code))
        elif kind == "rep":
            _, body, low, high = node
            for _ in range(low):
                self.emit(body, code, forward)
            if high is None:
                self._grow(code)
                split = len(code)
                code.append(None)  # type: ignore[arg-type]
                self.emit(body, code, forward)
                self._grow(code)
                code.append(("jmp", split))
                code[split] = ("split", split + 1, len(code))
            else:
                splits = []
                for _ in range(high - low):
                    self._grow(code)
                    splits.append(len(code))
                    code.append(None)  # type: ignore[arg-type]
                    self.emit(body, code, forward)
                for split in splits:
                    code[split] = ("split", split + 1, len(code))
        elif kind == "assert":
            self._grow(code)
            code.append(("assert", node[1]))
        elif kind == "look":
            _, body, ahead, negated = node
            self._grow(code)
            code.append(("look", self.program(body, ahead), ahead, negated))
        else:  # a back-reference: no automaton holds it
            raise Undecided("a back-reference")


# ---- running a program ---------------------------------------------------------------------------

class _Run:
    """A program's threads over one text: which instructions they reach at a position."""

    def __init__(self, program: Program, text: str, limit: float = float("inf")) -> None:
        self.program = program
        self.text = text
        self.limit = limit  # past this much work, it stops (Undecided)
        self.looked: dict[tuple[int, int], bool] = {}  # (instruction, position): its look-around held
        self.work = 0  # instructions visited (look-arounds' runs included)

    def holds(self, kind: str, position: int) -> bool:
        text = self.text
        if kind == "^":
            return position == 0
        if kind == "$":
            return position == len(text)
        before = position > 0 and is_word(text[position - 1])
        after = position < len(text) and is_word(text[position])
        return (before != after) == (kind == "b")

    def closure(self, pcs: Iterable[int], position: int) -> set[int]:
        """The instructions reached from `pcs` without reading a character (at `position`)."""
        code = self.program.code
        seen: set[int] = set()
        stack = list(pcs)
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            self.work += 1
            if self.work > self.limit:
                raise Undecided("work")
            op = code[pc]
            kind = op[0]
            if kind == "jmp":
                stack.append(op[1])
            elif kind == "split":
                stack.append(op[2])
                stack.append(op[1])
            elif kind == "assert":
                if self.holds(op[1], position):
                    stack.append(pc + 1)
            elif kind == "look":
                key = (pc, position)
                held = self.looked.get(key)
                if held is None:
                    inner = _Run(op[1], self.text, self.limit - self.work)
                    try:
                        held = self.looked[key] = inner.anchored(position) != op[3]
                    finally:
                        self.work += inner.work
                if held:
                    stack.append(pc + 1)
        return seen

    def anchored(self, position: int) -> bool:
        """A match starting at `position` (ending there, for a backward program)."""
        code, text, step = self.program.code, self.text, 1 if self.program.forward else -1
        current = self.closure([0], position)
        while True:
            if any(code[pc][0] == "match" for pc in current):
                return True
            index = position if step == 1 else position - 1
            if not current or not 0 <= index < len(text):
                return False
            ch = text[index]
            moved = [pc + 1 for pc in current if code[pc][0] == "char" and ch in code[pc][1]]
            position += step
            current = self.closure(moved, position)


class Regex:
    """A JavaScript regex as a host's `RegExp.prototype.test` reads it (unanchored, no flags unless
    `ignore_case`), decided without backtracking."""

    def __init__(self, source: str, ignore_case: bool = False) -> None:
        self.source = source
        self.ignore_case = ignore_case
        self.undecided: str | None = None  # why the engine cannot work out what it matches
        self.tree: Node | None = None
        self.program: Program | None = None
        self.work = 0  # instructions its searches visited
        self._possible: dict[frozenset[str], bool] = {}
        self._needs: tuple[str, ...] | None = None
        self._folded: Regex | None = None
        if len(source) > MAX_SOURCE:
            self.undecided = f"longer than {MAX_SOURCE // 1024} KiB"
            return
        parser = _Parser(source)
        try:
            tree = parser.parse()
        except Undecided as err:
            self.undecided = str(err)
            return
        except (PatternError, IndexError, ValueError, OverflowError) as err:  # (JavaScript's verdict comes from elsewhere)
            self.undecided = f"a construct this engine does not read ({err})"
            return
        # what every match holds (its text then contains one of them): a text without any is
        # answered without running the program (on the corpus tree 4,056 of the matcher rules'
        # 4,080 searches end there; with the rest below, the matcher check took about 66 ms, now 25)
        self._needs = _needed(tree)
        self.tree = _folded(tree) if ignore_case else tree
        self.lookarounds = parser.lookarounds
        if parser.backrefs:
            self.undecided = "a back-reference (its language is no automaton's)"
            return
        try:
            self.program = _Compiler().program(_search_tree(self.tree), True)
        except Undecided as err:
            self.undecided = str(err)
            return
        self._steps: dict[tuple[object, ...], object] = {}  # the lazy DFA: (threads, context, char) -> threads

    def search(self, text: str) -> bool:
        """Whether the pattern matches somewhere in the text (False where it is undecided and the
        budget ran out: a finding says so)."""
        text = text[:MAX_TEXT]
        if self._needs is not None and not self._may_hold(text, self.ignore_case):
            return False
        if self.program is None:
            return self.tree is not None and _backtrack(self.tree, text)
        if self.work > MAX_WORK:
            return False
        run = _Run(self.program, text, MAX_WORK - self.work)
        try:
            return run.anchored(0) if self.program.looks else self._search_cached(run)
        except Undecided:
            return False
        finally:
            self.work += run.work
            if self.work > MAX_WORK:
                self.undecided = f"its searches took more than {MAX_WORK:,} steps"

    def _search_cached(self, run: _Run) -> bool:
        """The search as a lazy DFA: a state is the set of threads, and what a character does to it
        depends on that set, the character, and whether the one before was a word character
        (for \\b) or there was none (for ^)."""
        steps = self._steps
        if len(steps) > MAX_DFA:
            steps.clear()
        text, code = run.text, run.program.code
        state: object = ("start",)
        previous = ""  # "" at the start, else "w" or "n"
        for position, ch in enumerate(text):
            key = (state, previous, ch)
            found = steps.get(key)
            if found is None:
                threads = run.closure([0] if state == ("start",) else state, position)  # type: ignore[arg-type]
                if any(code[pc][0] == "match" for pc in threads):
                    found = True
                else:
                    found = frozenset(pc + 1 for pc in threads if code[pc][0] == "char" and ch in code[pc][1])
                steps[key] = found
            if found is True:
                return True
            state = found
            previous = "w" if is_word(ch) else "n"
        end = (state, previous, None)
        found = steps.get(end)
        if found is None:
            threads = run.closure([0] if state == ("start",) else state, len(text))  # type: ignore[arg-type]
            found = steps[end] = any(code[pc][0] == "match" for pc in threads)
        return bool(found)

    def _may_hold(self, text: str, ignore_case: bool) -> bool:
        """Whether the text holds one of the strings every match holds (ignoring case: in an
        ASCII text, the only one where that is lower-casing both; any other is searched)."""
        needs = self._needs or ()
        if not ignore_case:
            return any(need in text for need in needs)
        if not text.isascii():
            return True
        text = text.lower()
        return any(not need.isascii() or need.lower() in text for need in needs)

    def search_ignoring_case(self, text: str) -> bool:
        """`folded().search(text)`, the folded pattern built only for a text that may hold a match."""
        if self._needs is not None and not self._may_hold(text[:MAX_TEXT], True):
            return False
        return self.folded().search(text)

    def folded(self) -> Regex:
        """The same pattern with the `i` flag: what it would match ignoring case."""
        if self._folded is None:
            self._folded = Regex(self.source, ignore_case=True)
        return self._folded

    def can_match(self, alphabet: frozenset[str]) -> bool:
        """False only when no text made of the alphabet's characters contains a match: a path to
        the match that reads only such characters, assertions and look-arounds taken to hold
        (a negative one with an empty body never does), back-references as anything."""
        if self.tree is None:
            return True
        if alphabet not in self._possible:
            self._possible[alphabet] = _possible(self.tree, alphabet)
        return self._possible[alphabet]


def _needed(node: Node) -> tuple[str, ...] | None:
    """Strings one of which every match of `node` contains (None: none known): the longest run
    of single characters in a sequence, one per alternative of a choice."""
    kind = node[0]
    if kind == "set":
        char = _literal(node[1])
        return None if char is None else (char,)
    if kind == "cat":
        runs, run = [], ""
        for item in _sequence(node[1]):
            char = _literal(item[1]) if item[0] == "set" else None
            if char is None:
                runs.append(run)
                run = ""
            else:
                run += char
        longest = max([*runs, run], key=len)
        if longest:
            return (longest,)
        return next(filter(None, map(_needed, node[1])), None)
    if kind == "alt":
        found = [_needed(n) for n in node[1]]
        return None if None in found else tuple(dict.fromkeys(need for needs in found for need in needs))  # type: ignore[union-attr]
    if kind == "group" or (kind == "rep" and node[2] > 0):
        return _needed(node[1])
    return None


def _sequence(items: list[Node]) -> Iterable[Node]:
    """A sequence's items, with the sequences inside it (bare or in a group) written out."""
    for item in items:
        inner = item[1] if item[0] == "group" else item
        if inner[0] == "cat":
            yield from _sequence(inner[1])
        else:
            yield inner


def _literal(charset: CharSet) -> str | None:
    """The one character a set matches, case included (None: any other set)."""
    ranges = charset.ranges
    if charset.negated or charset.fold or len(ranges) != 1 or ranges[0][0] != ranges[0][1]:
        return None
    return chr(ranges[0][0])


def _search_tree(tree: Node) -> Node:
    """`[^]*?(?:tree)`: the pattern found anywhere."""
    return ("cat", [("rep", ("set", ANY), 0, None), tree])


def _folded(node: Node) -> Node:
    kind = node[0]
    if kind == "set":
        return ("set", node[1].folded())
    if kind in ("cat", "alt"):
        return (kind, [_folded(n) for n in node[1]])
    if kind in ("rep", "group", "look"):
        return (kind, _folded(node[1]), *node[2:])
    return node


def _nullable(node: Node) -> bool:
    kind = node[0]
    if kind == "set":
        return False
    if kind == "cat":
        return all(_nullable(n) for n in node[1])
    if kind == "alt":
        return any(_nullable(n) for n in node[1])
    if kind == "rep":
        return node[2] == 0 or _nullable(node[1])
    if kind == "group":
        return _nullable(node[1])
    return True  # assertions, look-arounds, back-references (an empty group's)


def _possible(node: Node, alphabet: frozenset[str]) -> bool:
    kind = node[0]
    if kind == "set":
        charset: CharSet = node[1]
        return charset.meets(alphabet)
    if kind == "cat":
        return all(_possible(n, alphabet) for n in node[1])
    if kind == "alt":
        return any(_possible(n, alphabet) for n in node[1])
    if kind == "rep":
        return node[2] == 0 or _possible(node[1], alphabet)
    if kind == "group":
        return _possible(node[1], alphabet)
    if kind == "look" and node[3]:  # (?!) and (?!x|): never holds
        return not _nullable(node[1])
    return True


# ---- back-references: backtracking within a budget -----------------------------------------------

_BUDGET = [MAX_STEPS]  # the steps left to every backtracking search of this process


def _backtrack(tree: Node, text: str) -> bool:
    """A search by backtracking, for a pattern with back-references, stopped after MAX_STEPS steps
    (then no match is reported: the pattern is `undecided`, and doctor says so)."""
    groups: dict[int, tuple[int, int]] = {}

    def run(node: Node, i: int, then: Callable[[int], bool]) -> bool:
        _BUDGET[0] -= 1
        if _BUDGET[0] < 0:
            raise Undecided("budget")
        kind = node[0]
        if kind == "set":
            return i < len(text) and text[i] in node[1] and then(i + 1)
        if kind == "cat":
            return seq(node[1], 0, i, then)
        if kind == "alt":
            return any(run(n, i, then) for n in node[1])
        if kind == "group":
            number = node[2]

            def close(j: int) -> bool:
                old = groups.get(number)
                groups[number] = (i, j)
                if then(j):
                    return True
                if old is None:
                    groups.pop(number, None)
                else:
                    groups[number] = old
                return False
            return run(node[1], i, close)
        if kind == "rep":
            return rep(node[1], node[2], node[3], i, then, -1)
        if kind == "assert":
            return _Run(Program([], True), text).holds(node[1], i) and then(i)
        if kind == "look":
            _, body, ahead, negated = node
            if ahead:
                found = run(body, i, lambda j: True)
            else:
                found = any(run(body, k, lambda j: j == i) for k in range(i, -1, -1))
            return found != negated and then(i)
        span = groups.get(node[1])  # backref
        if span is None:
            return then(i)
        captured = text[span[0]:span[1]]
        return text.startswith(captured, i) and then(i + len(captured))

    def seq(items: list[Node], k: int, i: int, then: Callable[[int], bool]) -> bool:
        if k == len(items):
            return then(i)
        return run(items[k], i, lambda j: seq(items, k + 1, j, then))

    def rep(body: Node, low: int, high: int | None, i: int, then: Callable[[int], bool], last: int) -> bool:
        if low > 0:
            return run(body, i, lambda j: rep(body, low - 1, None if high is None else high - 1, j, then, i))
        if high != 0 and i != last and run(body, i, lambda j: rep(body, 0, None if high is None else high - 1, j,
                                                                   then, i)):
            return True
        return then(i)

    try:
        return any(run(tree, start, lambda j: True) for start in range(len(text) + 1))
    except (Undecided, RecursionError):
        return False
