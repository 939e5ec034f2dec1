"""How each host's hooks file is written, as the structure rules read it: what differs between
the hosts' files is data, in a Format, so that a rule both hosts share is one function."""
from __future__ import annotations

from typing import Any, Collection

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
    REQUIRED_FIELDS,
    SHELLS,
    TYPE_FIELDS,
)

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
