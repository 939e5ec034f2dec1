"""What several structure families share: how each host's hooks file is written (a Format: what
differs between the hosts' files is data, so that a rule both hosts share is one function), a
value's type as a message names it, and the words of a key (a note, a name another host or
release spells another way, a near miss)."""
from __future__ import annotations

import difflib
import json
from typing import Any, Collection, Iterable

from .... import hosts
from ....hooks.events import (
    CLAUDE_EVENTS,
    CLAUDE_ONLY_FIELDS,
    COMMON_FIELDS,
    CURSOR_EVENTS,
    CURSOR_FIELDS,
    CURSOR_TYPES,
    FOLDED_CLAUDE_EVENTS,
    FOLDED_CURSOR_EVENTS,
    INTERNAL_COMMAND_FIELDS,
    REQUIRED_FIELDS,
    SHELLS,
    TYPE_FIELDS,
    OneOf,
    fold,
)
from ....hosts.base import describe
from ...model import ConfigFile

ALL_TYPE_FIELDS = {key: kind for fields in TYPE_FIELDS.values() for key, kind in fields.items()}
# a Claude Code handler's fields by its type (None: a type the host does not have, so any type's)
FIELDS_OF_TYPE = {kind: {**COMMON_FIELDS, **(TYPE_FIELDS[kind] if kind else ALL_TYPE_FIELDS)}
                  for kind in (None, *TYPE_FIELDS)}


class Format:
    """How one host's hooks file is written, as the structure rules read it."""

    def __init__(self, adapter: str, host: str, example: str, events: Collection[str], folded: dict[str, str],
                 top_level: tuple[dict[str, str], ...], others: dict[str, str], items: str, item_example: str,
                 grouped: bool, types: tuple[str, ...], default_type: str | None, fields: dict[str, Any] | None,
                 required: dict[str, tuple[str, ...]], judged_elsewhere: frozenset[str], shells: tuple[str, ...],
                 exact_events: bool = False) -> None:
        self.adapter = adapter  # the host's adapter (installer.hosts), which says what its facts rest on
        self.host = host  # as messages name it
        self.example = example  # an event, for the hooks-not-object hint
        self.events = events
        self.folded = folded  # its events by folded name, for "did you mean"
        self.top_level = top_level  # folded names of events that do not belong at the top level
        self.others = others  # another host's events by folded name: under "hooks", host rules speak for them
        self.items = items  # what an event's list holds (event-not-list), and one of them written out
        self.item_example = item_example
        self.grouped = grouped  # an event holds matcher groups of handlers (Claude Code), not the handlers (Cursor)
        self.types = types  # handler types
        self.default_type = default_type  # the type of a handler without "type"; None: it needs one
        self.fields = fields  # every handler's fields, and their types; None: each type has its own
        self.required = required  # the fields a handler of each type needs
        self.judged_elsewhere = judged_elsewhere  # handler keys the key rules leave to other rules
        self.shells = shells  # what a command handler's "shell" may be (none: it has no "shell")
        # its event names are exact: one written otherwise, or another agent's, never runs (measured)
        self.exact_events = exact_events

    @property
    def basis(self) -> str:
        """What its facts rest on, as a note about a name they do not have says it."""
        return hosts.get(self.adapter).facts_basis


CLAUDE_FORMAT = Format(
    adapter="claude", host="Claude Code", example="PreToolUse", events=CLAUDE_EVENTS, folded=FOLDED_CLAUDE_EVENTS,
    top_level=(FOLDED_CLAUDE_EVENTS,), others={}, items="matcher groups",
    item_example='{"matcher": "...", "hooks": [...]}', grouped=True, types=tuple(TYPE_FIELDS), default_type=None,
    fields=None, required=REQUIRED_FIELDS,
    judged_elsewhere=frozenset({"type", "timeout"}),  # (the type rules, the timeout rules)
    shells=SHELLS,
    exact_events=True)  # (docs/hosts/claude-code.md#events: a guard under "preToolUse" never ran on 2.1.332)
CURSOR_FORMAT = Format(
    adapter="cursor", host="Cursor", example="preToolUse", events=CURSOR_EVENTS, folded=FOLDED_CURSOR_EVENTS,
    top_level=(FOLDED_CURSOR_EVENTS, FOLDED_CLAUDE_EVENTS), others=FOLDED_CLAUDE_EVENTS, items="hook entries",
    item_example='{"command": "..."}', grouped=False, types=CURSOR_TYPES, default_type="command",
    fields=CURSOR_FIELDS,
    required={kind: (kind,) for kind in CURSOR_TYPES},  # a command entry needs "command", a prompt entry "prompt"
    # (the timeout rules; Claude Code's fields: host/cursor-claude-field)
    judged_elsewhere=frozenset({"timeout"}) | CLAUDE_ONLY_FIELDS,
    shells=())
FORMATS = {"claude": CLAUDE_FORMAT, "cursor": CURSOR_FORMAT}


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
