"""Names with a fixed set of values (a plan's actions) that read as their text everywhere."""
from __future__ import annotations

from enum import Enum


class TextEnum(str, Enum):
    """A str Enum whose member is its value as text: in f-strings, in JSON and as a dict key
    (Python 3.10 has no StrEnum; a plain str Enum hashes by name and formats as Class.NAME)."""

    __hash__ = str.__hash__

    def __format__(self, format_spec: str) -> str:
        return str.__format__(self.value, format_spec)

    def __str__(self) -> str:
        return str(self.value)
