"""The events under "hooks" (EVENT_RULES): a known event, holding a list; and Claude Code's matcher
groups in an event's list (GROUP_RULES): their keys, and a matcher the event ignores."""
from __future__ import annotations

import json
from typing import Any, Iterator

from ....document import Keys
from ....hooks.events import (
    CLAUDE_EVENTS,
    CLAUDE_TO_CURSOR,
    COMMON_FIELDS,
    CURSOR_EVENTS,
    GEMINI_EVENTS,
    GROUP_KEYS,
    TYPE_FIELDS,
    Event,
    fold,
)
from ....hosts.base import describe
from ...model import ConfigFile, Context, Finding, RuleTable
from .handlers import ALL_TYPE_FIELDS, CLAUDE_FORMAT, Format, HandlerAt, close_words, is_note, near_event, rewritten

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


def _known_not_list(ctx: Context, at: EventAt) -> bool:
    """An event of the host's that does not hold a list (nearly every one does)."""
    return at.known and not isinstance(at.value, list)


@EVENT_RULES.rule("structure/event-not-list", premise=_known_not_list)
def _event_not_list(ctx: Context, at: EventAt) -> Iterator[Finding]:
    """(Under a name the host does not know, nothing runs anyway.)"""
    if at.known and not isinstance(at.value, list):
        yield ctx.finding("structure/event-not-list", at.file, at.keys, event=at.name, found=describe(at.value),
                          items=at.format.items, example=at.format.item_example)


GROUP_RULES = RuleTable()  # one Claude Code matcher group

# ---- Claude Code's matcher groups --------------------------------------------------------------------

class GroupAt:
    """One entry of a Claude Code event's list, as every group rule reads it."""

    def __init__(self, file: ConfigFile, event: str, known: Event | None, value: Any, keys: Keys) -> None:
        self.file = file
        self.event = event
        self.known = known  # the event, when Claude Code has it
        self.value = value  # as written (an object, when the rules past group-not-object read it)
        self.keys = keys

    @property
    def extra_keys(self) -> list[str]:
        """Its keys but "matcher" and "hooks"."""
        return [key for key in self.value if key not in GROUP_KEYS] if isinstance(self.value, dict) else []

    @property
    def handlers(self) -> list[HandlerAt]:
        hooks = self.value.get("hooks") if isinstance(self.value, dict) else None
        return [HandlerAt(self.file, CLAUDE_FORMAT, self.event, self.known, handler, self.keys + ("hooks", index))
                for index, handler in enumerate(hooks)] if isinstance(hooks, list) else []


def _no_hooks_object(ctx: Context, at: GroupAt) -> bool:
    """Not an object with "hooks": the premise of the two rules said alone."""
    return not isinstance(at.value, dict) or "hooks" not in at.value


@GROUP_RULES.rule("structure/group-not-object", alone=True, premise=_no_hooks_object)
def _group_not_object(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    if not isinstance(at.value, dict):
        yield ctx.finding("structure/group-not-object", at.file, at.keys, found=describe(at.value))


@GROUP_RULES.rule("structure/group-hooks-missing", alone=True, premise=_no_hooks_object)
def _group_hooks_missing(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    if isinstance(at.value, dict) and "hooks" not in at.value:
        handler_in_group = "command" in at.value or "type" in at.value
        yield ctx.finding("structure/group-hooks-missing", at.file, at.keys,
                          variant="handler-in-group" if handler_in_group else None)


def _extra_keys(ctx: Context, at: GroupAt) -> bool:
    """A key but "matcher" and "hooks": the premise of the three rules of such keys, which few groups have."""
    return bool(at.extra_keys)


@GROUP_RULES.rule("structure/group-note-key", premise=_extra_keys)
def _group_note_key(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    for key in at.extra_keys:
        if is_note(key):
            yield ctx.finding("structure/group-note-key", at.file, at.keys + (key,), at_key=True, key=key,
                              host=CLAUDE_FORMAT.host, variant=rewritten(at.file))


@GROUP_RULES.rule("structure/group-unknown-key", premise=_extra_keys)
def _group_unknown_key(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    """A key hookwright's facts say nothing of: a note, not a claim."""
    for key in at.extra_keys:
        if not is_note(key) and _misplaced_in_group(key) is None:
            yield ctx.finding("structure/group-unknown-key", at.file, at.keys + (key,), at_key=True, key=key,
                              host=CLAUDE_FORMAT.host, basis=CLAUDE_FORMAT.basis)


@GROUP_RULES.rule("structure/group-misplaced-key", premise=_extra_keys)
def _group_misplaced_key(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    """A handler's field on the group, or a misspelt matcher or hooks."""
    for key in at.extra_keys:
        close = _misplaced_in_group(key)
        if is_note(key) or close is None:
            continue
        variant = "handler-field" if not close else "misspelt"
        kinds = _handler_types(at.value.get("hooks"))
        owners = sorted(kind for kind, fields in TYPE_FIELDS.items() if key in fields)
        if key not in COMMON_FIELDS and owners and kinds and not set(owners) & kinds:
            variant = "other-type-field"  # (moved into these handlers, it would do nothing either)
        yield ctx.finding("structure/group-misplaced-key", at.file, at.keys + (key,), at_key=True, key=key,
                          host=CLAUDE_FORMAT.host, close=close, variant=variant,
                          owners=" and ".join(owners), kinds=" and ".join(sorted(kinds)))


def _misplaced_in_group(key: str) -> str | None:
    """What a group key that is no group key is known to be: "" for a handler's field, the group
    key it misspells; None where hookwright's facts do not know it."""
    if key in COMMON_FIELDS or key in ALL_TYPE_FIELDS:
        return ""
    close = close_words(key, GROUP_KEYS, 0.7)
    return close[0] if close else None


def _handler_types(handlers: Any) -> set[str]:
    """The types of the handlers in a group's "hooks" (a handler without one is a command)."""
    return {str(h.get("type", "command")) for h in handlers if isinstance(h, dict)} if isinstance(handlers, list) else set()


# the premise of the last two group rules, which found nothing in nearly every one of the corpus
# tree's 1,369 groups (each call of a rule that finds nothing makes and runs a generator)
def _matcher_ignored_or_hooks_not_list(ctx: Context, at: GroupAt) -> bool:
    """A matcher on an event that has none, or "hooks" that is not a list."""
    return (at.known is not None and at.known.matcher is None and "matcher" in at.value) \
        or not isinstance(at.value["hooks"], list)


@GROUP_RULES.rule("structure/matcher-ignored", premise=_matcher_ignored_or_hooks_not_list)
def _matcher_ignored(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    matcher = at.value.get("matcher")
    if at.known is not None and at.known.matcher is None and isinstance(matcher, str) \
            and matcher.strip() not in ("", "*"):
        yield ctx.finding("structure/matcher-ignored", at.file, at.keys + ("matcher",), event=at.event,
                          matcher=json.dumps(matcher))


@GROUP_RULES.rule("structure/group-hooks-not-list", premise=_matcher_ignored_or_hooks_not_list)
def _group_hooks_not_list(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    if not isinstance(at.value["hooks"], list):
        yield ctx.finding("structure/group-hooks-not-list", at.file, at.keys + ("hooks",),
                          found=describe(at.value["hooks"]))
