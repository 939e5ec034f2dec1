"""Regular expressions compiled when first used, not at import.

doctor's readers hold dozens of patterns, and most runs use some of them only (a config whose
scripts are all missing reads none of the script patterns; a shell script none of the Python
ones): compiling them all at import cost about 15 ms of every run. On first use a pattern
takes its compiled form's place in the module that defined it, so every later use is a plain
re.Pattern call.
"""
from __future__ import annotations

import re
import sys
from typing import Any


class LazyPattern:
    """Stands for `re.compile(pattern, flags)`; compiles it on the first method call."""

    __slots__ = ("pattern", "_flags", "_compiled", "_home")

    def __init__(self, pattern: str, flags: int, home: dict[str, Any]) -> None:
        self.pattern, self._flags, self._home = pattern, flags, home
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
            for key, value in list(self._home.items()):  # the module's global names for it
                if value is self:
                    self._home[key] = self._compiled
        return getattr(self._compiled, name)


def lazy(pattern: str, flags: int = 0) -> Any:
    """A pattern to use like a compiled one (typed Any: it answers every re.Pattern method),
    defined at the top level of a module."""
    return LazyPattern(pattern, flags, sys._getframe(1).f_globals)
