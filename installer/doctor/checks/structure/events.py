"""The events under "hooks" (EVENT_RULES): a known event, holding a list."""
from __future__ import annotations

from typing import Any, Iterator

from ....document import Keys
from ....hooks.events import (
    CLAUDE_EVENTS,
    CLAUDE_TO_CURSOR,
    CURSOR_EVENTS,
    GEMINI_EVENTS,
    fold,
)
from ....hosts.base import describe
from ...model import ConfigFile, Context, Finding, RuleTable
from .common import Format, is_note, near_event, rewritten
from .groups import GroupAt
from .handlers import HandlerAt

EVENT_RULES = RuleTable()  # one key under "hooks"
_FROM_CURSOR = {cursor: claude for claude, cursor in CLAUDE_TO_CURSOR.items()}
OTHER_AGENTS_EVENTS = (("Cursor", CURSOR_EVENTS), ("Gemini CLI", GEMINI_EVENTS))  # (as a message names each)

# ---- the events under "hooks" ------------------------------------------------------------------------

class EventAt:
    """One key under "hooks": an event's name, or a note, or a name the host does not know."""

    def __init__(self, file: ConfigFile, format: Format, name: str, value: Any) -> None:
        self.file = file
        self.format = format
        self.name = name
        self.value = value  # as written: a list, when the host reads it

    @property
    def keys(self) -> Keys:
        return ("hooks", self.name)

    @property
    def known(self) -> bool:
        return self.name in self.format.events

    @property
    def unknown(self) -> bool:
        """Not the host's (another host's event names are the host rules' to judge)."""
        return not self.known and fold(self.name) not in self.format.others

    @property
    def never_runs(self) -> str | None:
        """For a host whose event names are exact (Format.exact_events), an unknown name that no
        release of it will run: its own event written otherwise (`preToolUse`: ""), or another
        agent's event (that agent, as a message names it); None for any other name (a newer
        release may have it)."""
        if not self.format.exact_events or not self.unknown or self.note:
            return None
        if fold(self.name) in self.format.folded:
            return ""
        return next((agent for agent, events in OTHER_AGENTS_EVENTS if self.name in events), None)

    @property
    def note(self) -> bool:
        """An unknown name that reads as a comment: its value is prose, not hooks."""
        return self.unknown and is_note(self.name)

    @property
    def listed(self) -> list[Any]:
        """What the host would read as its list, when it reads one."""
        return self.value if isinstance(self.value, list) and not self.note else []

    @property
    def groups(self) -> list[GroupAt]:
        """Claude Code's matcher groups."""
        if not self.format.grouped:
            return []
        known = CLAUDE_EVENTS.get(self.name)
        return [GroupAt(self.file, self.name, known, group, self.keys + (index,))
                for index, group in enumerate(self.listed)]

    @property
    def entries(self) -> list[HandlerAt]:
        """Cursor's entries: its handlers, but a Claude Code group (host/cursor-claude-group says so)."""
        if self.format.grouped:
            return []
        return [HandlerAt(self.file, self.format, self.name, None, entry, self.keys + (index,))
                for index, entry in enumerate(self.listed) if not (isinstance(entry, dict) and "hooks" in entry)]


def _unknown(ctx: Context, at: EventAt) -> bool:
    """A name that is not the host's: the premise of the three rules of such names."""
    return at.unknown


@EVENT_RULES.rule("structure/hooks-note-key", premise=_unknown)
def _hooks_note_key(ctx: Context, at: EventAt) -> Iterator[Finding]:
    if at.note:
        yield ctx.finding("structure/hooks-note-key", at.file, at.keys, at_key=True, key=at.name, host=at.format.host,
                          variant=rewritten(at.file))


@EVENT_RULES.rule("structure/event-never-runs", premise=_unknown)
def _event_never_runs(ctx: Context, at: EventAt) -> Iterator[Finding]:
    """A name the host never runs hooks under, whatever its release: a warning where the hooks
    are, not a note (measured on Claude Code 2.1.332: a guard under `preToolUse` never ran)."""
    other = at.never_runs
    if other is not None:
        near = near_event(at.name, at.format) or _FROM_CURSOR.get(at.name) or at.format.example
        yield ctx.finding("structure/event-never-runs", at.file, at.keys, at_key=True, event=at.name,
                          host=at.format.host, near=near, variant="other-host" if other else None, other=other)


@EVENT_RULES.rule("structure/unknown-event", premise=_unknown)
def _unknown_event(ctx: Context, at: EventAt) -> Iterator[Finding]:
    if at.unknown and not at.note and at.never_runs is None:
        near = near_event(at.name, at.format)
        yield ctx.finding("structure/unknown-event", at.file, at.keys, at_key=True, event=at.name, host=at.format.host,
                          near=near, basis=at.format.basis, variant="near" if near else None)


@EVENT_RULES.rule("structure/event-not-list")
def _event_not_list(ctx: Context, at: EventAt) -> Iterator[Finding]:
    """(Under a name the host does not know, nothing runs anyway.)"""
    if at.known and not isinstance(at.value, list):
        yield ctx.finding("structure/event-not-list", at.file, at.keys, event=at.name, found=describe(at.value),
                          items=at.format.items, example=at.format.item_example)
