"""Regular expressions compiled when first used, not at import, and, where a pattern can only
match at a literal, not at all for a text without it.

doctor's readers hold dozens of patterns, and most runs use some of them only (a config whose
scripts are all missing reads none of the script patterns; a shell script none of the Python
ones): compiling them all at import cost about 15 ms of every run. On first use a pattern
takes its compiled form's place in the module that defined it, so every later use is a plain
re.Pattern call.

A script reader's pattern for `hookSpecificOutput` or `updatedInput` finds nothing in a script
that never says the word, which most scripts are: given the literals one of which every match
contains (`needs`), it answers such a text at once, compiling nothing, and never rescans it. A
test proves each pattern's literals from its parse (tests/test_patterns.py).
"""
from __future__ import annotations

import importlib
import re
import sys
from typing import Any, Iterator

DEFINED: list[LazyPattern] = []  # every pattern defined here (the tests read them)
# (as an int: `flags & re.IGNORECASE` runs enum.Flag's Python code, 10,000 instructions a pattern)
CASE_BLIND = int(re.IGNORECASE)


class LazyPattern:
    """Stands for `re.compile(pattern, flags)`; compiles it on the first method call."""

    __slots__ = ("pattern", "_flags", "_compiled", "_home")

    def __init__(self, pattern: str, flags: int, home: dict[str, Any]) -> None:
        self.pattern, self._flags, self._home = pattern, flags, home
        self._compiled: re.Pattern[str] | None = None
        DEFINED.append(self)

    @property
    def key(self) -> tuple[str, int]:
        """The pattern and the flags it was defined with."""
        return self.pattern, int(self._flags)

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
            for key, value in list(self._home.items()):  # the module's global names for it
                if value is self:
                    self._home[key] = self._compiled
        return self._compiled

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled(), name)


class Prefiltered(LazyPattern):
    """A lazy pattern every match of which contains one of `needs`: it stays in its module's
    globals (to keep asking), and a text with none of them has no match."""

    __slots__ = ("needs", "folded", "_asked")

    def __init__(self, pattern: str, flags: int, needs: tuple[str, ...]) -> None:
        super().__init__(pattern, flags, {})  # (no global to replace)
        self.folded = bool(int(flags) & CASE_BLIND) or pattern.startswith("(?i)")  # a case-blind pattern
        self.needs = tuple(literal.lower() for literal in needs) if self.folded else needs
        self._asked: tuple[str, bool] = ("", True)  # the last text asked about, and the answer

    def _absent(self, text: str) -> bool:
        asked, absent = self._asked
        if text is asked:  # (one long text searched at many positions is scanned once)
            return absent
        if self.folded:  # (case-blind matching also takes ſ for s and İ, ı for i, which lower() keeps)
            absent = text.isascii() and not any(map(text.lower().__contains__, self.needs))
        else:  # (map, not a generator: a run over the corpus asks 30,000 times)
            absent = not any(map(text.__contains__, self.needs))
        self._asked = (text, absent)
        return absent

    def search(self, text: str, *span: int) -> re.Match[str] | None:
        return None if self._absent(text) else self.compiled().search(text, *span)

    def match(self, text: str, *span: int) -> re.Match[str] | None:
        return None if self._absent(text) else self.compiled().match(text, *span)

    def finditer(self, text: str, *span: int) -> Iterator[re.Match[str]]:
        return iter(()) if self._absent(text) else self.compiled().finditer(text, *span)

    def findall(self, text: str, *span: int) -> list[Any]:
        return [] if self._absent(text) else self.compiled().findall(text, *span)

    def fullmatch(self, text: str, *span: int) -> re.Match[str] | None:
        return None if self._absent(text) else self.compiled().fullmatch(text, *span)

    def sub(self, replacement: Any, text: str, count: int = 0) -> str:
        return text if self._absent(text) else self.compiled().sub(replacement, text, count)


def lazy(pattern: str, flags: int = 0, needs: tuple[str, ...] = ()) -> Any:
    """A pattern to use like a compiled one (typed Any: it answers every re.Pattern method),
    defined at the top level of a module; with `needs`, the literals one of which every match
    contains (in any case, for a case-blind pattern), for the pattern's search, match, fullmatch,
    finditer, findall and sub."""
    if not needs:
        return LazyPattern(pattern, flags, sys._getframe(1).f_globals)
    return Prefiltered(pattern, flags, needs)


def holds_word(text: str, words: tuple[str, ...], also: str = "") -> bool:
    r"""Whether `text` holds one of `words` with no word character on either side, nor one of
    `also` (what `\b(?:one|two)\b` finds, or `(?<![\w-])(?:one|two)(?![\w-])` with also="-"),
    without compiling a pattern: most runs ask this of a few commands and lines, and a compile
    costs more than the finds (docs/contributing.md)."""
    for word in words:
        at = text.find(word)
        while at >= 0:
            if stands_alone(text, at, at + len(word), also):
                return True
            at = text.find(word, at + 1)
    return False


def stands_alone(text: str, start: int, end: int, also: str = "") -> bool:
    r"""Whether text[start:end] has no word character on either side (`\b` of a word), nor one of `also`."""
    return (start == 0 or not joins(text[start - 1], also)) and (end == len(text) or not joins(text[end], also))


def joins(character: str, also: str = "") -> bool:
    r"""`\w` of a str pattern (a letter, digit or numeral of any script, or `_`), or one of `also`."""
    return character.isalnum() or character == "_" or character in also


def marked(text: str, mark: str, followers: frozenset[str]) -> bool:
    """Whether `mark` (one character) stands right before one of `followers` somewhere in `text`:
    what a pattern `<mark>[<followers>]` finds, by str finds and without its compile."""
    at = text.find(mark)
    while at >= 0:
        if text[at + 1:at + 2] in followers:
            return True
        at = text.find(mark, at + 1)
    return False


def every_pattern() -> list[LazyPattern]:
    """Every pattern the package defines, its modules all imported (for the tests)."""
    import pkgutil  # (the tests' only: 0.4 ms of every command's start otherwise, python -X importtime)

    for module in pkgutil.walk_packages(sys.modules[__package__].__path__, f"{__package__}."):
        if not module.name.endswith(".__main__"):
            importlib.import_module(module.name)
    return list(DEFINED)
