"""Where each key and value of a config.toml is written: the places doctor's findings point at.

tomllib reads the data and gives no positions, and tomlkit keeps the text but not where its
items start. So this is a small position index of our own over text tomllib has already
accepted: one pass, linear in the text, no recursion deeper than the inline tables and arrays
written (tomllib has read those already), building the tree doctor walks for JSON documents
(document.Node's `kind`, `start`, `members`, `items`, `child`). Tables (`[a.b]`), arrays of
tables (`[[a.b]]`), dotted keys, inline tables and arrays land where the data has them; a
value's place is where its text starts, a table's is its header's.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SPACE = " \t"


class Place:
    """One table, array or value of the TOML text, at its offset."""

    __slots__ = ("kind", "start", "members", "items")

    def __init__(self, kind: str, start: int) -> None:
        self.kind = kind  # "object" (a table), "array" or "scalar"
        self.start = start
        self.members: list[tuple[str, int, Place]] = []  # (key, where the key is written, value), file order
        self.items: list[Place] = []

    def child(self, key: str | int) -> Place | None:
        if self.kind == "object":
            for name, _, value in self.members:
                if name == key:
                    return value
        elif self.kind == "array" and isinstance(key, int) and 0 <= key < len(self.items):
            return self.items[key]
        return None

    def _member(self, key: str, at: int, kind: str) -> Place:
        """The member `key` (made where missing); through an array of tables, its last table."""
        found = self.child(key)
        if found is None:
            found = Place(kind, at)
            self.members.append((key, at, found))
        if found.kind == "array" and found.items and kind == "object":
            return found.items[-1]
        return found


def places(text: str) -> Place:
    """The tree of places of a TOML text that tomllib has parsed."""
    return _Reader(text).read()


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def read(self) -> Place:
        root = table = Place("object", 0)
        text = self.text
        while True:
            self._blank(newlines=True)
            if self.at >= len(text):
                return root
            start = self.at
            if text.startswith("[[", start):
                self.at += 2
                keys = self._key()
                self.at = text.index("]]", self.at) + 2
                parent = root
                for key, at in keys[:-1]:
                    parent = parent._member(key, at, "object")
                array = parent._member(keys[-1][0], keys[-1][1], "array")
                table = Place("object", start)
                array.items.append(table)
            elif text[start] == "[":
                self.at += 1
                keys = self._key()
                self.at = text.index("]", self.at) + 1
                table = root
                for key, at in keys:
                    table = table._member(key, at, "object")
            else:
                self._pair(table)
            self._blank(newlines=False)

    def _pair(self, table: Place) -> None:
        """`key = value`, the key dotted or not, into `table`."""
        keys = self._key()
        self.at = self.text.index("=", self.at) + 1
        for key, at in keys[:-1]:
            table = table._member(key, at, "object")
        self._blank(newlines=False)
        name, at = keys[-1]
        table.members.append((name, at, self._value()))

    def _value(self) -> Place:
        text, start = self.text, self.at
        first = text[start]
        if first in "{[":  # (an inline table's members, an array's items, up to its closing bracket)
            place = Place("object" if first == "{" else "array", start)
            closing = "}" if first == "{" else "]"
            self.at += 1
            while True:
                self._blank(newlines=True)
                if text[self.at] == closing:
                    self.at += 1
                    return place
                if text[self.at] == ",":
                    self.at += 1
                elif first == "{":
                    self._pair(place)
                else:
                    place.items.append(self._value())
        if first in "\"'":
            self._string()
        else:  # (a number, a boolean, a date: up to what ends a value)
            while self.at < len(text) and text[self.at] not in ",]}#\r\n":
                self.at += 1
        return Place("scalar", start)

    def _key(self) -> list[tuple[str, int]]:
        """A key, dotted or not: each part and where it is written."""
        parts = []
        text = self.text
        while True:
            self._blank(newlines=False)
            start = self.at
            if text[start] in "\"'":
                self._string()
                parts.append((_unquoted(text[start:self.at]), start))
            else:
                while self.at < len(text) and text[self.at] in _BARE:
                    self.at += 1
                parts.append((text[start:self.at], start))
            self._blank(newlines=False)
            if self.at < len(text) and text[self.at] == ".":
                self.at += 1
                continue
            return parts

    def _string(self) -> None:
        """Past one string: basic or literal, one line or several."""
        text, quote = self.text, self.text[self.at]
        if text.startswith(quote * 3, self.at):
            end = text.index(quote * 3, self.at + 3)
            while text.startswith(quote, end + 3) and end + 3 < len(text):  # (up to two quotes may end it)
                end += 1
            self.at = end + 3
            return
        self.at += 1
        while text[self.at] != quote:
            self.at += 2 if quote == '"' and text[self.at] == "\\" else 1
        self.at += 1

    def _blank(self, newlines: bool) -> None:
        """Past spaces and comments (and line ends where `newlines`)."""
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char in _SPACE or newlines and char in "\r\n":
                self.at += 1
            elif char == "#":
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end
            else:
                return


@lru_cache(maxsize=256)
def _unquoted(written: str) -> str:
    """A quoted key's name (its escapes read by tomllib: `"a\\u0062"` is `ab`)."""
    from pathlib import Path

    from ...resources import toml_from

    value: Any = toml_from(Path("config.toml"), f"k = {written}".encode(), hint="")["k"]
    return str(value)
