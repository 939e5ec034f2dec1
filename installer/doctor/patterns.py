"""Regular expressions compiled when first used, not at import.

doctor's readers hold dozens of patterns, and most runs use a few of them (a config whose
scripts are all missing reads none of the script patterns): compiling them all at import cost
about 10 ms of every run.
"""
from __future__ import annotations

import re
from typing import Any


class LazyPattern:
    """Stands for `re.compile(pattern, flags)`; compiles it on the first method call."""

    __slots__ = ("_pattern", "_flags", "_compiled")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._pattern, self._flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return getattr(self._compiled, name)


def lazy(pattern: str, flags: int = 0) -> Any:
    """A pattern to use like a compiled one (typed Any: it answers every re.Pattern method)."""
    return LazyPattern(pattern, flags)
