"""Claude Code's matcher groups (GROUP_RULES): their keys, and a matcher the event ignores."""
from __future__ import annotations

import json
from typing import Any, Iterator

from ....document import Keys
from ....hooks.events import (
    COMMON_FIELDS,
    GROUP_KEYS,
    TYPE_FIELDS,
    Event,
)
from ....hosts.base import describe
from ...model import ConfigFile, Context, Finding, RuleTable
from .common import ALL_TYPE_FIELDS, CLAUDE_FORMAT, close_words, is_note, rewritten
from .handlers import HandlerAt

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


@GROUP_RULES.rule("structure/matcher-ignored")
def _matcher_ignored(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    matcher = at.value.get("matcher")
    if at.known is not None and at.known.matcher is None and isinstance(matcher, str) \
            and matcher.strip() not in ("", "*"):
        yield ctx.finding("structure/matcher-ignored", at.file, at.keys + ("matcher",), event=at.event,
                          matcher=json.dumps(matcher))


@GROUP_RULES.rule("structure/group-hooks-not-list")
def _group_hooks_not_list(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    if not isinstance(at.value["hooks"], list):
        yield ctx.finding("structure/group-hooks-not-list", at.file, at.keys + ("hooks",),
                          found=describe(at.value["hooks"]))
