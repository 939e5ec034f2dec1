"""The automata of regex matchers (the package asks them where two regexes may meet).

A regex's program (engine.py) read without a text: a position is the instruction after the
last character read; from it, a character leads to the positions of the instructions that
accept it (after the jumps, splits and assertions it meets, which hold or not by the
characters around), and a name may end where the match instruction is reached. The program
searches (it starts with `[^]*`), and once it has matched it stays matched (MATCHED): a
regex is found anywhere in the name, as JavaScript's RegExp.test finds it.

Loaded, with the engine whose programs they step, by the first regex matcher a run reads:
a run of exact matchers does without both (2 M instructions of doctor on one typical file).
"""
from __future__ import annotations

from collections import deque

from . import Matcher
from .engine import Regex, Undecided, is_word

WITNESS_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
MATCHED = -1  # the position of a regex that has matched: whatever follows, it matches
MAX_PRODUCT = 400_000  # positions of one automaton times the other's times the characters told apart
MAX_SUBSETS = 2_000  # sets of positions met while proving that a regex matches every tool of a server
PART_START, PART, PART_UNDERSCORE = 0, 1, 2  # the tool part: nothing read yet; a character; a single `_`
ANY_TEXT = 3  # a value of an open space: any text


def _tool_step(state: int, ch: str) -> int | None:
    """The tool part after one more character: letters, digits, `-` and single `_` (no `__`), not
    starting with `_`; any text for ANY_TEXT."""
    if state == ANY_TEXT:
        return ANY_TEXT
    if ch == "_":
        return PART_UNDERSCORE if state == PART else None
    return PART


class _Automaton:
    """One regex's program, stepped over characters without a text."""

    def __init__(self, regex: Regex) -> None:
        self.regex = regex
        self.code = regex.program.code  # type: ignore[union-attr]
        self.positions = 1 + sum(1 for op in self.code if op[0] == "char")
        self._closures: dict[tuple[int, bool, bool, bool, bool], tuple[tuple[int, ...], bool]] = {}
        self._after: dict[str, frozenset[int]] = {}
        self._accepts: dict[str, frozenset[int]] = {}  # per character: the char instructions that accept it

    def accepting(self, ch: str) -> frozenset[int]:
        found = self._accepts.get(ch)
        if found is None:
            found = self._accepts[ch] = frozenset(pc for pc, op in enumerate(self.code)
                                                  if op[0] == "char" and ch in op[1])
        return found

    def _closure(self, pc: int, at_start: bool, at_end: bool, before: bool, after: bool) -> tuple[tuple[int, ...], bool]:
        """The char instructions reached from pc without reading, and whether the match is."""
        key = (pc, at_start, at_end, before, after)
        found = self._closures.get(key)
        if found is not None:
            return found
        code, seen, stack, chars, matched = self.code, set(), [pc], [], False
        while stack:
            at = stack.pop()
            if at in seen:
                continue
            seen.add(at)
            op = code[at]
            kind = op[0]
            if kind == "char":
                chars.append(at)
            elif kind == "match":
                matched = True
            elif kind == "jmp":
                stack.append(op[1])
            elif kind == "split":
                stack += (op[2], op[1])
            elif kind == "assert":
                holds = {"^": at_start, "$": at_end, "b": before != after, "B": before == after}[op[1]]
                if holds:
                    stack.append(at + 1)
        self.regex.work += len(seen)
        if self.regex.work > MAX_WORK:
            raise Undecided("work")
        found = self._closures[key] = (tuple(sorted(chars)), matched)
        return found

    def step(self, position: int, ch: str, before: bool, at_start: bool = False) -> tuple[int, ...]:
        """The positions after reading `ch` from `position` (`before`: the character read before
        was a word character)."""
        if position == MATCHED:
            return (MATCHED,)
        chars, matched = self._closure(position, at_start, False, before, is_word(ch))
        if matched:
            return (MATCHED,)
        accepting = self.accepting(ch)
        return tuple(pc + 1 for pc in chars if pc in accepting)

    def ends(self, position: int, before: bool, at_start: bool = False) -> bool:
        """Whether a name may end at `position`: the regex has matched by then."""
        return position == MATCHED or self._closure(position, at_start, True, before, False)[1]

    def after(self, text: str) -> frozenset[int]:
        """The positions after reading `text` from the start."""
        found = self._after.get(text)
        if found is None:
            current: frozenset[int] = frozenset({0})
            for index, ch in enumerate(text):
                before = index > 0 and is_word(text[index - 1])
                current = frozenset(p for q in current for p in self.step(q, ch, before, index == 0))
                if MATCHED in current:
                    current = frozenset({MATCHED})
                    break
            found = self._after[text] = current
        return found


MAX_WORK = 2_000_000  # (engine.MAX_WORK: the steps a regex's reading may take in all)


def of_matcher(m: Matcher) -> _Automaton | None:
    """The automaton of a regex matcher; None where none expresses it (look-arounds,
    back-references, a pattern past the engine's bounds)."""
    regex = m.pattern
    if regex is None or regex.program is None or regex.program.looks or regex.undecided:
        return None
    return _AUTOMATA.setdefault(id(regex), (regex, _Automaton(regex)))[1]


_AUTOMATA: dict[int, tuple[Regex, _Automaton]] = {}  # (the regex kept alive beside its id)


def _classes(automata: tuple[_Automaton, ...], chars: str) -> list[str]:
    """One character of each class the automata (and the tool part, and word boundaries) cannot
    tell apart, the first of each in `chars` order."""
    seen: dict[tuple[object, ...], str] = {}
    for ch in chars:
        key = (ch == "_", is_word(ch), *(a.accepting(ch) for a in automata))
        seen.setdefault(key, ch)
    return list(seen.values())


def meet(automata: tuple[_Automaton, ...], prefixes: dict[str, str], chars: str = WITNESS_CHARS,
          space: int = PART_START) -> dict[str, str | None] | None:
    """For each key of `prefixes`, the shortest (then first in `chars` order) continuation after its
    prefix that every automaton accepts, as the whole name; None for a key with none. One search
    for all the keys: their start states are all put in, the product explored once, and each
    answer read off. None (for all) where the product is past MAX_PRODUCT or a regex past its
    work: then sampling answers."""
    classes = _classes(automata, chars)
    size = len(classes)
    for automaton in automata:
        size *= automaton.positions
    if size > MAX_PRODUCT:
        return None
    try:
        return _product_search(automata, prefixes, classes, space)
    except Undecided:
        return None


Node = tuple[int, bool, bool, tuple[int, ...]]  # (space state, previous is a word character, at the start, positions)


def _product_search(automata: tuple[_Automaton, ...], prefixes: dict[str, str], classes: list[str],
                    space: int) -> dict[str, str | None]:
    starts: dict[str, list[Node]] = {}
    for key, prefix in prefixes.items():
        before = bool(prefix) and is_word(prefix[-1])
        combos: list[tuple[int, ...]] = [()]
        for automaton in automata:
            combos = [c + (p,) for c in combos for p in sorted(automaton.after(prefix))]
        starts[key] = [(space, before, not prefix, c) for c in combos]
    # explore forward from every start at once
    edges: dict[Node, list[tuple[str, Node]]] = {}
    queue = deque(node for nodes in starts.values() for node in nodes)
    while queue:
        node = queue.popleft()
        if node in edges:
            continue
        state, before, at_start, positions = node
        out: list[tuple[str, Node]] = []
        edges[node] = out
        for ch in classes:
            following = _tool_step(state, ch)
            if following is None:
                continue
            combos = [()]
            for automaton, position in zip(automata, positions):
                steps = automaton.step(position, ch, before, at_start)
                combos = [c + (p,) for c in combos for p in steps]
                if not combos:
                    break
            for combo in combos:
                nxt = (following, is_word(ch), False, combo)
                out.append((ch, nxt))
                if nxt not in edges:
                    queue.append(nxt)
    # how far each state is from an accepted end (backwards from the accepting states)
    reverse: dict[Node, list[Node]] = {}
    for node, out in edges.items():
        for _, nxt in out:
            reverse.setdefault(nxt, []).append(node)
    distance: dict[Node, int] = {}
    frontier: deque[Node] = deque()
    for node in edges:
        state, before, at_start, positions = node
        if state != PART_START and all(a.ends(p, before, at_start) for a, p in zip(automata, positions)):
            distance[node] = 0
            frontier.append(node)
    while frontier:
        node = frontier.popleft()
        for previous in reverse.get(node, ()):
            if previous not in distance:
                distance[previous] = distance[node] + 1
                frontier.append(previous)
    # each key's name: the shortest, first in character order
    found: dict[str, str | None] = {}
    for key, nodes in starts.items():
        reached = [n for n in nodes if n in distance]
        if not reached:
            found[key] = None
            continue
        left = min(distance[n] for n in reached)
        current: set[Node] = {n for n in reached if distance[n] == left}
        text: list[str] = []
        while left:
            left -= 1
            for ch in classes:
                closer = {t for n in current for c, t in edges[n] if c == ch and distance.get(t) == left}
                if closer:
                    current = closer
                    text.append(ch)
                    break
        found[key] = prefixes[key] + "".join(text)
    return found


def takes_every_tool(automaton: _Automaton, prefix: str) -> bool:
    """Whether the regex matches every tool name of the server `prefix` opens: no tool part
    leads it to a set of positions where the name may not end. The sets met are at most
    MAX_SUBSETS (then: not shown, "some")."""
    try:
        start = (PART_START, is_word(prefix[-1]), automaton.after(prefix))
        if MATCHED in start[2]:
            return True
        classes = _classes((automaton,), WITNESS_CHARS)
        seen = {start}
        queue = deque([start])
        while queue:
            state, before, positions = queue.popleft()
            if state != PART_START and not any(automaton.ends(p, before) for p in positions):
                return False  # a tool name it does not match
            for ch in classes:
                following = _tool_step(state, ch)
                if following is None:
                    continue
                moved = frozenset(q for p in positions for q in automaton.step(p, ch, before))
                nxt = (following, is_word(ch), frozenset({MATCHED}) if MATCHED in moved else moved)
                if nxt not in seen:
                    if len(seen) >= MAX_SUBSETS:
                        return False
                    seen.add(nxt)
                    queue.append(nxt)
        return True
    except Undecided:
        return False
