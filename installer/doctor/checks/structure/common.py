"""What several structure families share: a value's type as a message names it, and the words
of a key (a note, a name another host or release spells another way, a near miss)."""
from __future__ import annotations

import difflib
import json
from typing import Any, Iterable

from ....hooks.events import (
    INTERNAL_COMMAND_FIELDS,
    OneOf,
    fold,
)
from ....hosts.base import describe
from ...model import ConfigFile
from .formats import Format

NON_EMPTY = {"command", "url", "prompt", "server", "tool"}
EXPECTED: dict[object, str] = {
    str: "a string", bool: "true or false", dict: "an object", "strings": "a list of strings",
    "string-map": "an object of strings", (int, float): "a number", (int, type(None)): "a number or null"}


def listed(fields: dict[str, Any]) -> str:
    """A handler's fields, as a hint names them (the binary's @internal ones left out)."""
    return ", ".join(name for name in fields if name not in INTERNAL_COMMAND_FIELDS)


def has_type(key: str, value: Any, kind: Any) -> bool:
    if isinstance(kind, OneOf):
        return isinstance(value, str) and value in kind
    if kind == "strings":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == "string-map":
        return isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    if kind is bool:
        return isinstance(value, bool)
    if isinstance(value, bool) and kind is not bool:
        return False
    if not isinstance(value, kind):
        return False
    return not (key in NON_EMPTY and isinstance(value, str) and not value.strip())


def expected(key: str, kind: object) -> str:
    if isinstance(kind, OneOf):
        return " or ".join(json.dumps(value) for value in sorted(kind, reverse=True))
    return "a non-empty string" if key in NON_EMPTY else EXPECTED[kind]


def shown_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else describe(value)


NOTE_WORDS = {"description", "desc", "comment", "comments", "note", "notes", "name", "id", "title", "label",
              "purpose", "todo", "doc", "docs", "info", "about", "summary", "reason", "why"}


def is_note(key: str) -> bool:
    """A comment or documentation key (`_comment`, `// PURPOSE`, `$comment`, `description`)."""
    return key.startswith(("_", "$", "//", "#", "@")) or key.strip().lower() in NOTE_WORDS


def rewritten(file: ConfigFile) -> str | None:
    """The note-key rules' wording for a file its host rewrites, dropping what it does not know:
    Claude Code rewrites its settings files (approvals into settings.local.json...), not managed
    settings, plugin or Cursor files."""
    return "rewritten" if file.kind == "claude-settings" and file.scope != "managed" else None


def close_words(word: str, known: Iterable[str], cutoff: float) -> list[str]:
    """The known name closest to a misspelt one (at most one), for "did you mean"."""
    return difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)


def near_event(event: str, format: Format) -> str | None:
    """The host's event a misspelt name most likely means: the same name written otherwise, else
    a close one."""
    same = format.folded.get(fold(event))
    if same:
        return same
    close = close_words(event, format.events, 0.75)
    return close[0] if close else None
