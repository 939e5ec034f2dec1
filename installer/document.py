"""Strict JSON config files that remember their formatting.

A `Document` is read strictly (the hosts ignore a whole file that is not strict JSON),
keeps its exact text, and knows the span of every value. `Document.render(new_data)`
produces the new file by splicing: the text of everything that did not change is kept
byte for byte (indent, key order, spacing, escapes, line endings, BOM, final newline);
only containers whose members changed are rebuilt, in the style of their neighbours.
"""
from __future__ import annotations

import bisect
import difflib
import json
import re
from _json import scanstring  # what json.decoder uses, in C (typeshed types it here only)
from functools import cache
from itertools import accumulate
from pathlib import Path
from typing import Any, NoReturn

from . import safe_read
from .errors import ErrorKind, ExitCode, HookwrightError
from .patterns import lazy
from .records import Record

BOM = "\ufeff"
UTF16LE_BOM = b"\xff\xfe"


class TextReading(Record):
    """How a host turns a config file's bytes into text (Host.text_reading, measured per host):
    the byte-order marks that select another codec than UTF-8, and whether bytes that are not
    UTF-8 are read as U+FFFD instead of voiding the file."""

    marks: tuple[tuple[bytes, str], ...] = ()  # (mark, codec): the first whose bytes start the file
    replaces: bool = False


STRICT_UTF8 = TextReading()
MAX_BYTES = safe_read.CONFIG.max_bytes  # a hook config beyond this is not something we should edit
MAX_DEPTH = 200
Keys = tuple[str | int, ...]  # a JSON path, the keys and indexes from the root: ("hooks", "PreToolUse", 0)

FIRST_INDENT = lazy(r"\n([ \t]+)\S")
KEY_COLON = lazy(r'"\s*:(\s*)')
UNICODE_ESCAPE = lazy(r"\\u[0-9a-fA-F]{4}")
def without_lone_surrogates(text: str) -> str:
    """`text` with each lone surrogate (only ever inside a JSON string: "Pre\\udc00" read back)
    written as its JSON escape, so that the text encodes as UTF-8 and reads back the same."""
    return text if text.isascii() else text.translate(_surrogate_escapes())


@cache
def _surrogate_escapes() -> dict[int, str]:
    return {code: f"\\u{code:04x}" for code in range(0xD800, 0xE000)}


class Node:
    """One JSON value's place in the text, [start, end). A container's members (or items) are read
    from its document's index (_Source.index: every container's spans, in one walk of the text)."""

    __slots__ = ("source", "kind", "start", "end", "_members", "_items")

    def __init__(self, source: "_Source", start: int, end: int) -> None:
        self.source, self.start, self.end = source, start, end
        first = source.text[start]
        self.kind = "object" if first == "{" else "array" if first == "[" else "scalar"
        self._members: list[tuple[str, int, Node]] | None = None
        self._items: list[Node] | None = None

    @property
    def members(self) -> list[tuple[str, int, "Node"]]:
        """An object's (key, key_start, value) in file order; [] for anything else."""
        if self._members is None:
            source = self.source
            self._members = [(key, key_start, Node(source, start, end))
                             for key, key_start, start, end in source.index().members.get(self.start, ())]
        return self._members

    @property
    def items(self) -> list["Node"]:
        if self._items is None:
            source = self.source
            self._items = [Node(source, start, end) for start, end in source.index().items.get(self.start, ())]
        return self._items

    def child(self, key: str | int) -> "Node | None":
        if self.kind == "object":
            for name, _, value in reversed(self.members):
                if name == key:
                    return value
        elif self.kind == "array" and isinstance(key, int) and 0 <= key < len(self.items):
            return self.items[key]
        return None


class LineIndex:
    """1-based line and column of an offset in a text, as an editor shows them: one pass over
    the text, then O(log n) per offset (a file with thousands of findings is not scanned from
    its start for each one). The one place that turns offsets into positions."""

    def __init__(self, text: str) -> None:
        # (map, not a generator: the corpus tree's files hold 28,000 lines, each a Python step so)
        self.starts = list(accumulate(map((1).__add__, map(len, text.split("\n"))), initial=0))
        self.starts.pop()  # (where a line after the last one would start)

    def at(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1


class Document:
    def __init__(self, path: Path, raw: bytes, text: str, data: Any, root: Node | None, bom: bool = False,
                 exists: bool = True, encoding: str = "utf-8", undecoded: tuple[int, int, int] | None = None) -> None:
        self.path = path
        self.raw = raw  # exactly what was read (b"" for a file that does not exist yet)
        self.text = text  # decoded, without BOM
        self.data = data
        self.root = root
        self.bom = bom
        self.exists = exists
        self.encoding = encoding  # the codec it was read with, and is written back in
        # (byte, line, column) of the first byte read as U+FFFD (a host that replaces them: doctor only)
        self.undecoded = undecoded
        self._lines: LineIndex | None = None
        # ---- reading -------------------------------------------------------------------

    @classmethod
    def new(cls, path: Path) -> "Document":
        return cls(path=path, raw=b"", text="", data={}, root=None, exists=False)

    @classmethod
    def parse(cls, path: Path, raw: bytes, reading: TextReading = STRICT_UTF8, lenient: bool = False) -> "Document":
        """`reading`: how the host decodes the bytes; `lenient`: read what it replaces as it does
        (doctor, which reports it), rather than refuse a file we could not write back byte for byte."""
        if len(raw) > MAX_BYTES:
            raise HookwrightError(
                f"file is {len(raw) / 1e6:.1f} MB; a hook config larger than "
                f"{MAX_BYTES // (1024 * 1024)} MiB is refused",
                path=path, kind=ErrorKind.NOT_JSON,
                hint="check that this is the right file",
            )
        encoding = next((codec for mark, codec in reading.marks if raw.startswith(mark)), "utf-8")
        undecoded = None
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as err:
            before = raw[: err.start].decode(encoding, "replace")
            line, col = LineIndex(before.lstrip(BOM)).at(len(before.lstrip(BOM)))
            if not (lenient and reading.replaces):
                utf16 = _utf16_form(raw)
                raise HookwrightError(
                    f"is {utf16}, not UTF-8" if utf16 and encoding == "utf-8" else
                    f"not {_CODEC_NAMES.get(encoding, encoding)} text (byte 0x{raw[err.start]:02x} at offset {err.start})",
                    path=path, line=line, column=col, kind=ErrorKind.NOT_JSON,
                    hint="save the file as UTF-8",
                ) from None
            text, undecoded = raw.decode(encoding, "replace"), (raw[err.start], line, col)
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        if "\x00" in text:
            offset = text.index("\x00")
            line, col = LineIndex(text).at(offset)
            utf16 = _utf16_form(raw)
            raise HookwrightError(f"is {utf16}, not UTF-8" if utf16 else "contains a NUL byte; this is not a text file",
                                  path=path, kind=ErrorKind.NOT_JSON, line=line, column=col,
                                  hint="save the file as UTF-8" if utf16 else "restore the file from a backup")
        data = _strict_loads(path, text)
        if text.count("[") + text.count("{") > MAX_DEPTH and _deeper_than(data, MAX_DEPTH):
            raise _too_deep(path)
        return cls(path=path, raw=raw, text=text, data=data, root=_Source(text).root(), bom=bom, encoding=encoding,
                   undecoded=undecoded)

    def decode(self, raw: bytes) -> str:
        """Bytes of this file (as read, or as rendered) as text, without the BOM: for a diff."""
        return raw.decode(self.encoding, "replace").lstrip(BOM)

    def position(self, node: Node) -> tuple[int, int]:
        """1-based line and column of a value, as an editor shows them."""
        return self.position_of(node.start)

    def position_of(self, offset: int) -> tuple[int, int]:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines.at(offset)

    def node_at(self, *keys: str | int) -> Node | None:
        node = self.root
        for key in keys:
            if node is None:
                return None
            node = node.child(key)
        return node

    def start_of(self, keys: Keys, at_key: bool = False) -> int:
        """Where the value at `keys` begins (`at_key`: where its key does), or where its nearest
        parent that is there begins: read along the path in the document's index, no Node made."""
        root = self.root
        assert root is not None
        if not isinstance(root, Node):  # a tree of places built with the document (Codex's TOML: toml_places.py)
            return _start_along(root, keys, at_key)
        index = root.source.index()
        start = root.start
        for depth, key in enumerate(keys):
            members = index.members.get(start)
            if members is not None:
                for member in members:  # (a parsed document's keys are unique)
                    if member[0] == key:
                        break
                else:
                    return start
                if at_key and depth == len(keys) - 1:
                    return member[1]
                start = member[2]
                continue
            items = index.items.get(start)
            if items is None or not isinstance(key, int) or not 0 <= key < len(items):
                return start
            start = items[key][0]
        return start

    # ---- writing -------------------------------------------------------------------

    @property
    def newline(self) -> str:
        return "\r\n" if "\r\n" in self.text else "\n"

    def render(self, new_data: Any) -> bytes:
        """The file's new bytes for `new_data`, keeping every unchanged part's text."""
        if self.exists and new_data == self.data and type(new_data) is type(self.data):
            return self.raw
        if self.root is None:
            text = _dumps(new_data, "  ", ": ", ensure_ascii=False) + "\n"
        else:
            style = _Style.of(self)
            body = _Splicer(self.text, style).render(self.root, self.data, new_data)
            text = self.text[: self.root.start] + body + self.text[self.root.end:]
        if json.loads(text) != new_data:  # the splice must say exactly what was asked
            raise HookwrightError(
                "internal error: the edited text does not match the intended document",
                code=ExitCode.INTERNAL, path=self.path,
            )
        return ((BOM if self.bom else "") + without_lone_surrogates(text)).encode(self.encoding)


# ---- strict parsing with clear messages -----------------------------------------------

_CODEC_NAMES = {"utf-8": "UTF-8", "utf-16-le": "UTF-16 (little-endian)"}


def _utf16_form(raw: bytes) -> str | None:
    """What UTF-16 a file that no reader took is written in, when it is (NUL high or low bytes)."""
    if raw.startswith((UTF16LE_BOM + b"\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32 text"
    if raw.startswith((b"\xfe\xff", UTF16LE_BOM)) and not raw.startswith(UTF16LE_BOM + b"\x00\x00"):
        return "UTF-16 big-endian text" if raw[0] == 0xFE else "UTF-16 little-endian text"
    head = raw[:512]
    if len(head) >= 8 and head.count(0) * 4 > len(head):
        even = head[::2].count(0)
        return ("UTF-16 big-endian" if even > head[1::2].count(0) else "UTF-16 little-endian") + \
            " text without a byte-order mark"
    return None


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The hosts silently keep the last of two equal keys; we refuse to guess which one counts."""
    seen = dict(pairs)
    if len(seen) < len(pairs):
        names = [key for key, _ in pairs]
        raise _Duplicate(next(key for i, key in enumerate(names) if key in names[:i]))
    return seen


def _too_deep(path: Path) -> HookwrightError:
    return HookwrightError(f"JSON is nested more than {MAX_DEPTH} levels deep; that is no hook config", path=path,
                           hint="check that this is the right file", kind=ErrorKind.NOT_JSON)


class _NotJson(Exception):
    def __init__(self, message: str, pattern: str) -> None:
        super().__init__(message)
        self.pattern = pattern  # finds the offending token in the text


MAX_INT_DIGITS = 4300  # Python's own limit; JavaScript would turn such a number into Infinity


def _not_json(constant: str) -> NoReturn:
    raise _NotJson(f"{constant} is not a JSON value (the hosts' JSON parser rejects it)",
                   re.escape(constant))


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _NotJson(f"a number with {len(digits.lstrip('-'))} digits is not a setting", r"-?\d{%d,}" % (MAX_INT_DIGITS + 1))
    return int(digits)


def _outside_strings(text: str, pattern: str) -> int:
    """Offset of the first match of `pattern` that is not inside a JSON string."""
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|(' + pattern + ")", text):
        if match.group(1):
            return match.start(1)
    return 0


def _strict_loads(path: Path, text: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_reject_duplicates, parse_constant=_not_json,
                          parse_int=_bounded_int)
    except _NotJson as bad:
        line, col = LineIndex(text).at(_outside_strings(text, bad.pattern))
        raise HookwrightError(f"invalid JSON: {bad}", path=path, line=line, column=col, kind=ErrorKind.NOT_JSON,
                              reason=str(bad), hint="write an ordinary number or a string instead") from None
    except _Duplicate as dup:
        key, offset = _first_duplicate(text) or (str(dup), 0)
        line, col = LineIndex(text).at(offset)
        raise HookwrightError(
            f"duplicate key {json.dumps(key)}: the hosts keep only the last one, so one of them is silently lost",
            path=path, line=line, column=col, hint="merge the two entries into one key", kind=ErrorKind.DUPLICATE_KEY,
        ) from None
    except RecursionError:
        raise _too_deep(path) from None
    except json.JSONDecodeError as err:
        raise _syntax_error(path, text, err) from None
    except ValueError as err:  # e.g. an integer with thousands of digits
        raise HookwrightError(f"invalid JSON: {err}", path=path, hint="check that this is the right file",
                              kind=ErrorKind.NOT_JSON, reason=str(err)) from None


IGNORED = "; Claude Code and Cursor ignore the whole file when it is not strict JSON"


def _syntax_error(path: Path, text: str, err: json.JSONDecodeError) -> HookwrightError:
    at = text[err.pos:err.pos + 2]
    before = text[:err.pos].rstrip()
    line, col, ignored = err.lineno, err.colno, ""
    if at.startswith(("//", "/*")) or (at.startswith("#")):
        what, ignored = "a comment", IGNORED
        hint = "remove the comment (JSON has no comments)"
    elif before.endswith(",") and at[:1] in ("}", "]"):
        what, ignored = "a trailing comma", IGNORED
        hint = "remove the comma before the closing bracket"
        line, col = LineIndex(text).at(len(before) - 1)
    elif not text.strip():
        what = "the file is empty"
        hint = "delete the empty file or write {} into it"
    elif err.pos >= len(text.rstrip()):
        what = "the file ends too early (truncated?)"
        hint = "restore the file or complete the JSON"
    elif err.msg == "Extra data":  # (json's words for it)
        what = "more text after the JSON value has ended (two documents, or a bracket too many)"
        hint = "keep one JSON value: merge the two, or remove what follows the first"
    else:
        what = err.msg
        hint = "fix the JSON syntax at that position"
    return HookwrightError(f"invalid JSON: {what}{ignored}", path=path, line=line, column=col, hint=hint,
                           kind=ErrorKind.NOT_JSON, reason=what)


# What follows in an array: past the blanks and a comma, an item that is a string without an
# escape (group 2), a container (3: its bracket) or a number or literal (4); none of them (group 1
# alone, empty) at the array's end or before a string with an escape. In an object: its next key,
# without an escape (group 1), the colon, and its value as an item's; the blanks alone at the
# object's end or before a key with an escape. One match reads a member or an item: each Python
# call of the walk costs more than the characters it reads (see _Source.index). (The blanks of an
# object's end are _MEMBER's, and those of the text's start are stripped as text: two patterns
# fewer to compile: doctor on a typical file 371.1 M -> 370.7 M instructions, the corpus tree
# 4,574.9 M -> 4,571.8 M.)
_VALUE = r'(?:("[^"]*(?<!\\)")|([\[{])|([^ \t\n\r,\]}"]+))?'
_BLANKS = r"[ \t\n\r,]*"
_ITEM = lazy(_BLANKS + "()" + _VALUE)
_MEMBER = lazy(_BLANKS + r'(?:("[^"\\]*")[ \t\n\r]*:[ \t\n\r]*' + _VALUE + ")?")


class _Index:
    """Every container of a text, by where it starts: an object's members (key, key_start,
    value_start, value_end) and an array's items (start, end), in text order."""

    def __init__(self) -> None:
        self.members: dict[int, list[tuple[str, int, int, int]]] = {}
        self.items: dict[int, list[tuple[int, int]]] = {}


class _Duplicate(Exception):
    """A key repeated in one object (its name is the message; `at`: where the repeat is written)."""

    def __init__(self, key: str, at: int = 0) -> None:
        super().__init__(key)
        self.at = at


class _Source:
    """The text of a document that json.loads accepted, and the index of its containers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.first = len(text) - len(text.lstrip(" \t\n\r"))  # where the root value starts
        self.last = len(text.rstrip(" \t\n\r"))  # where the root value ends: only whitespace follows
        self._index: _Index | None = None

    def root(self) -> Node:
        return Node(self, self.first, self.last)

    def index(self, duplicates: bool = False) -> _Index:
        """Every container's members or items, from one walk of the text on first use (a
        finding's place, a splice): a member or an item is one pattern match, a container ends
        where its own walk does, and a value is read again only for a string with an escape.
        `duplicates`: stop at the first key that repeats one of its object (_Duplicate)."""
        if self._index is None:
            index, start = _Index(), self.first
            if self.text[start] in "[{":
                self._container(start, index, duplicates)
            self._index = index
        return self._index

    def _container(self, start: int, index: _Index, duplicates: bool) -> int:
        """Index the container at `start` and those in it: where it ends. (The value's three
        readings are written out in both loops: a call for each value costs 2 M instructions of
        the corpus tree.)"""
        text = self.text
        if text[start] == "{":
            members: list[tuple[str, int, int, int]] = []
            index.members[start] = members
            seen: set[str] = set()
            at = start + 1
            while True:
                value: re.Match[str] = _MEMBER.match(text, at)
                key_start, after = value.span(1)
                if key_start >= 0:
                    key = text[key_start + 1:after - 1]
                else:  # the object's end, or a key with an escape: past the blanks
                    key_start = value.end()
                    if text[key_start] != '"':
                        return key_start + 1
                    key, after = scanstring(text, key_start + 1)
                    value = _ITEM.match(text, text.index(":", after) + 1)
                if duplicates:
                    if key in seen:
                        raise _Duplicate(key, key_start)
                    seen.add(key)
                kind = value.lastindex or 1  # (group 1 always takes part)
                if kind == 1:  # a string with an escape
                    value_start = value.end()
                    at = scanstring(text, value_start + 1)[1]
                else:
                    value_start, at = value.span(kind)
                    if kind == 3:
                        at = self._container(value_start, index, duplicates)
                members.append((key, key_start, value_start, at))
        items: list[tuple[int, int]] = []
        index.items[start] = items
        at = start + 1
        while True:
            item: re.Match[str] = _ITEM.match(text, at)
            kind = item.lastindex or 1
            if kind == 1:  # the array's end, or a string with an escape
                value_start = item.end()
                if text[value_start] != '"':
                    return value_start + 1
                at = scanstring(text, value_start + 1)[1]
            else:
                value_start, at = item.span(kind)
                if kind == 3:
                    at = self._container(value_start, index, duplicates)
            items.append((value_start, at))


def _start_along(root: Node, keys: Keys, at_key: bool) -> int:
    """Document.start_of read with `child` and `members` down a tree of places that answer them."""
    node = root
    for depth, key in enumerate(keys):
        if at_key and depth == len(keys) - 1:
            for name, key_start, _ in node.members:
                if name == key:
                    return key_start
        found = node.child(key)
        if found is None:
            return node.start
        node = found
    return node.start


def _first_duplicate(text: str) -> tuple[str, int] | None:
    """The first key, in text order, that repeats an earlier key of its object, and where it is.

    json.loads stops at the object that holds it, so the text after that may not be JSON at all:
    the walk goes in text order and stops there (None if what it reads runs into broken text)."""
    try:
        _Source(text).index(duplicates=True)
    except _Duplicate as found:
        return str(found), found.at
    except (IndexError, KeyError, ValueError, RecursionError):
        return None
    return None


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether some value lies more than `limit` levels below the top (json.loads itself allows
    about 1000): a list or object at depth `limit` that is not empty."""
    level = [data] if isinstance(data, (dict, list)) else []
    for _ in range(limit):
        level = [child for value in level for child in (value.values() if isinstance(value, dict) else value)
                 if isinstance(child, (dict, list))]
    return any(level)


# ---- splicing -------------------------------------------------------------------------

Piece = tuple[int | None, int | None, str]  # a member or item rendered: (original index, original start, text)


class _Style:
    def __init__(self, indent: str | None, colon: str, newline: str, ensure_ascii: bool) -> None:
        self.indent = indent  # one level of indentation; None for a minified file
        self.colon = colon  # ": " or ":"
        self.newline = newline
        self.ensure_ascii = ensure_ascii

    @classmethod
    def of(cls, doc: Document) -> "_Style":
        text, root = doc.text, doc.root
        indent = None
        first = _first_start(root) if root is not None else None
        if root is None or first is None:  # nothing to imitate: lay out as for a new file
            return cls("  ", ": ", doc.newline, ensure_ascii=False)
        lead = text[root.start + 1: first]
        if "\n" in lead:
            indent = lead.rsplit("\n", 1)[1] or None
        if indent is None and "\n" in text.strip():
            match = FIRST_INDENT.search(text)
            indent = match.group(1) if match else "  "
        colon_match = KEY_COLON.search(text)
        colon = ":" + (colon_match.group(1).replace("\r", "").replace("\n", "") if colon_match else " ")
        has_escapes = UNICODE_ESCAPE.search(text) is not None
        has_raw_non_ascii = any(ord(c) > 127 for c in text)
        return cls(indent, colon if len(colon) <= 2 else ": ", doc.newline,
                   ensure_ascii=has_escapes and not has_raw_non_ascii)


def _dumps(value: Any, indent: str | None, colon: str, ensure_ascii: bool) -> str:
    separators = (",", colon)
    return json.dumps(value, indent=indent, separators=separators, ensure_ascii=ensure_ascii)


def _first_start(node: Node) -> int | None:
    """Where a container's first member (its key, for an object) begins; None when empty."""
    if node.kind == "object" and node.members:
        return node.members[0][1]
    if node.kind == "array" and node.items:
        return node.items[0].start
    return None


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


class _Splicer:
    def __init__(self, text: str, style: _Style) -> None:
        self.text = text
        self.style = style

    def render(self, node: Node, old: Any, new: Any) -> str:
        if _same(old, new):
            return self.text[node.start:node.end]
        if node.kind == "object" and isinstance(old, dict) and isinstance(new, dict):
            return self._object(node, old, new)
        if node.kind == "array" and isinstance(old, list) and isinstance(new, list):
            return self._array(node, old, new)
        return self._fresh(new, self._line_indent(node.start))

    def _line_indent(self, offset: int) -> str:
        line_start = self.text.rfind("\n", 0, offset) + 1
        line = self.text[line_start:offset]
        return line[:len(line) - len(line.lstrip(" \t"))]

    def _fresh(self, value: Any, base: str) -> str:
        out = _dumps(value, self.style.indent, self.style.colon, self.style.ensure_ascii)
        return out.replace("\n", self.style.newline + base)

    def _object(self, node: Node, old: dict[str, Any], new: dict[str, Any]) -> str:
        by_key = {key: (i, key_start, value) for i, (key, key_start, value) in enumerate(node.members)}
        pieces: list[Piece] = []
        inner = self._inner_indent(node)
        for key, (i, key_start, value) in sorted(by_key.items(), key=lambda kv: kv[1][0]):
            if key in new:
                head = self.text[key_start:value.start]
                pieces.append((i, key_start, head + self.render(value, old[key], new[key])))
        for key, value in new.items():
            if key not in old:
                text = json.dumps(key, ensure_ascii=self.style.ensure_ascii) + self.style.colon
                pieces.append((None, None, text + self._fresh(value, inner)))
        return self._container(node, pieces, "{", "}", [(ks, v) for _, ks, v in node.members])

    def _array(self, node: Node, old: list[Any], new: list[Any]) -> str:
        pieces: list[Piece] = []
        inner = self._inner_indent(node)
        keys_old = [json.dumps(v, sort_keys=True) for v in old]
        keys_new = [json.dumps(v, sort_keys=True) for v in new]

        matcher = difflib.SequenceMatcher(a=keys_old, b=keys_new, autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal" or (op == "replace" and a1 - a0 == b1 - b0):
                for i, j in zip(range(a0, a1), range(b0, b1)):
                    item = node.items[i]
                    pieces.append((i, item.start, self.render(item, old[i], new[j])))
            else:
                for j in range(b0, b1):
                    pieces.append((None, None, self._fresh(new[j], inner)))
        return self._container(node, pieces, "[", "]", [(item.start, item) for item in node.items])

    def _inner_indent(self, node: Node) -> str:
        first = _first_start(node)
        if first is not None:
            lead = self.text[node.start + 1:first]
            if "\n" in lead:
                return lead.rsplit("\n", 1)[1]
            return self._line_indent(node.start)
        return self._line_indent(node.start) + (self.style.indent or "")

    def _container(self, node: Node, pieces: list[Piece], open_: str, close: str,
                   originals: list[tuple[int, Node]]) -> str:
        """Join the pieces; where two kept pieces were neighbours, keep the text between them."""
        if not pieces:
            return open_ + close
        if not originals:  # was empty: lay out in the document's style
            if self.style.indent is None:
                return open_ + ",".join(p[2] for p in pieces) + close
            outer = self._line_indent(node.start)
            inner = outer + self.style.indent
            nl = self.style.newline
            return open_ + nl + inner + ("," + nl + inner).join(p[2] for p in pieces) + nl + outer + close
        first_start = originals[0][0]
        last_end = originals[-1][1].end
        lead = self.text[node.start + 1:first_start]
        trail = self.text[last_end:node.end - 1]
        seps = [self.text[originals[k][1].end:originals[k + 1][0]] for k in range(len(originals) - 1)]
        default_sep = seps[0] if seps else "," + lead
        out = [open_, lead]
        for k, (index, _, text) in enumerate(pieces):
            if k:
                prev = pieces[k - 1][0]
                out.append(seps[prev] if index is not None and prev is not None and index == prev + 1
                           else default_sep)
            out.append(text)
        out.append(trail)
        out.append(close)
        return "".join(out)


def read_document(path: Path, reading: TextReading = STRICT_UTF8) -> Document:
    """Read a config file strictly; a missing file is an empty document that will be created."""
    try:
        raw = safe_read.read(path, safe_read.CONFIG)
    except FileNotFoundError:
        if path.is_symlink():
            raise HookwrightError("the file is a symlink whose target does not exist", path=path,
                                  kind=ErrorKind.UNREADABLE, hint="fix or remove the dangling link") from None
        return Document.new(path)
    return Document.parse(path, raw, reading)
