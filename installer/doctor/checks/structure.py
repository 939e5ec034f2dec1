"""Structure: does each file parse, and is every event, group and handler in the shape its host reads?

check() walks each file down to its handlers and hands each unit to the table of its rules, one
function per rule: a file that did not parse to UNPARSED_RULES, a parsed one to FILE_RULES, each
event under "hooks" to EVENT_RULES, each Claude Code matcher group to GROUP_RULES, each handler
(Claude Code's, or a Cursor entry) to HANDLER_RULES. Each reads one file (a merged setting, such
as httpHookAllowedEnvVars, from the run's files); what weighs the files together, the kill
switches and the plugin manifests, is switches.py. What differs between the two hosts' files is
data, in a Format, so that a rule both hosts share is one function.
"""
from __future__ import annotations

import difflib
import json
import re
from typing import Any, Collection, Iterable, Iterator, TypedDict

from ... import hosts, resources
from ...document import Keys
from ...errors import ErrorKind, HookwrightError
from ...hooks.events import (
    BUILTIN_TOOLS,
    CLAUDE_EVENTS,
    CLAUDE_ONLY_FIELDS,
    COMMON_FIELDS,
    CURSOR_EVENTS,
    CURSOR_FIELDS,
    CURSOR_TYPES,
    FOLDED_CLAUDE_EVENTS,
    FOLDED_CURSOR_EVENTS,
    GROUP_KEYS,
    IF_EVENTS,
    INTERNAL_COMMAND_FIELDS,
    REQUIRED_FIELDS,
    SHELLS,
    TYPE_FIELDS,
    Event,
    OneOf,
    fold,
)
from ...hosts.base import describe, outline_problem
from ...hosts.claude.protocol import GUARD_EVENTS, ON_FAILURE_IGNORED
from ...patterns import lazy
from ..model import HOST_NAMES, ConfigFile, Context, Finding, RuleTable, cached_property, timeout_seconds
from ..shell.lex import NAME

SCHEMASTORE_SOURCE = "schemastore/claude-code-settings.json"  # the settings schema the editors use
SCHEMASTORE = "schemastore/claude-code-settings.assertions.json"  # ...without its descriptions (build_rule_catalog.py)
ALL_TYPE_FIELDS = {key: kind for fields in TYPE_FIELDS.values() for key, kind in fields.items()}
# a Claude Code handler's fields by its type (None: a type the host does not have, so any type's)
FIELDS_OF_TYPE = {kind: {**COMMON_FIELDS, **(TYPE_FIELDS[kind] if kind else ALL_TYPE_FIELDS)}
                  for kind in (None, *TYPE_FIELDS)}
NON_EMPTY = {"command", "url", "prompt", "server", "tool"}
EXPECTED: dict[object, str] = {
    str: "a string", bool: "true or false", dict: "an object", "strings": "a list of strings",
    "string-map": "an object of strings", (int, float): "a number", (int, type(None)): "a number or null"}


class Format:
    """How one host's hooks file is written, as the structure rules read it."""

    def __init__(self, adapter: str, host: str, example: str, events: Collection[str], folded: dict[str, str],
                 top_level: tuple[dict[str, str], ...], others: dict[str, str], items: str, item_example: str,
                 grouped: bool, types: tuple[str, ...], default_type: str | None, fields: dict[str, Any] | None,
                 required: dict[str, tuple[str, ...]], judged_elsewhere: frozenset[str], shells: tuple[str, ...]) -> None:
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
    shells=SHELLS)
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

UNPARSED_RULES = RuleTable()  # a file that could not be read or parsed
FILE_RULES = RuleTable()  # a parsed file, as a whole
EVENT_RULES = RuleTable()  # one key under "hooks"
GROUP_RULES = RuleTable()  # one Claude Code matcher group
HANDLER_RULES = RuleTable()  # one handler: of a Claude Code matcher group, or a Cursor entry


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        if file.error is not None:
            # (JSONC: host/opencode-config-unreadable says what is wrong; git-guard's rules: pack/)
            if file.kind not in ("opencode-config", "git-guard-rules"):
                yield from UNPARSED_RULES.run(ctx, Unparsed(file, file.error))
        elif file.document is not None and file.host in FORMATS:
            at = FileAt(file, FORMATS[file.host], file.document.data)
            yield from FILE_RULES.run(ctx, at)
            for event in at.events:
                yield from EVENT_RULES.run(ctx, event)
                for group in event.groups:
                    yield from GROUP_RULES.run(ctx, group)
                    for handler in group.handlers:
                        yield from HANDLER_RULES.run(ctx, handler)
                for entry in event.entries:
                    yield from HANDLER_RULES.run(ctx, entry)


# ---- a file that did not parse -----------------------------------------------------------------------

class Unparsed:
    """A file doctor could not read, or whose JSON did not parse."""

    def __init__(self, file: ConfigFile, error: HookwrightError) -> None:
        self.file = file
        self.error = error  # why it could not be read or parsed

    def finding(self, ctx: Context, rule_id: str, **params: Any) -> Finding:
        """At the error's own line and column, with the reader's hint."""
        return ctx.finding_at(rule_id, self.file, self.error.line, self.error.column,
                              hint=self.error.hint or "fix the file", **params)


@UNPARSED_RULES.rule("structure/unreadable")
def _unreadable(ctx: Context, at: Unparsed) -> Iterator[Finding]:
    if at.error.kind is ErrorKind.UNREADABLE:
        yield at.finding(ctx, "structure/unreadable", error=at.error.message)


@UNPARSED_RULES.rule("structure/duplicate-key")
def _duplicate_key(ctx: Context, at: Unparsed) -> Iterator[Finding]:
    if at.error.kind is ErrorKind.DUPLICATE_KEY:
        yield at.finding(ctx, "structure/duplicate-key", error=at.error.message)


@UNPARSED_RULES.rule("structure/invalid-json")
def _invalid_json(ctx: Context, at: Unparsed) -> Iterator[Finding]:
    if at.error.kind not in (ErrorKind.UNREADABLE, ErrorKind.DUPLICATE_KEY):
        host = HOST_NAMES.get(at.file.host, HOST_NAMES["claude"])  # (a file of unknown kind: read as Claude Code's)
        yield at.finding(ctx, "structure/invalid-json", detail=at.error.reason, host=host)


# ---- a parsed file: its outline, and Claude Code's settings outside "hooks" ------------------------

class ProblemFields(TypedDict, total=False):
    """The fields the schema rules' wordings fill in."""

    where: str  # the JSON path, as a/b/0
    found: str  # the value, as shown
    rule: str  # a permission rule, quoted
    allowed: str  # an enum's values
    types: str  # the types a value may have
    problem: str  # jsonschema-rs's own message, where no wording of ours fits


class SettingsProblem:
    """One thing wrong in a settings file outside "hooks", which of the two schema rules says it,
    and in which of its wordings."""

    def __init__(self, rule: str, keys: Keys, variant: str | None, fields: ProblemFields) -> None:
        self.rule = rule  # structure/settings-schema or structure/settings-schema-opinion
        self.keys = keys
        self.variant = variant
        self.fields = fields


class FileAt:
    """A Claude Code or Cursor hooks file that parsed, as the file rules read it."""

    def __init__(self, file: ConfigFile, format: Format, data: Any) -> None:
        self.file = file
        self.format = format
        self.data = data  # its JSON

    @cached_property
    def outline(self) -> tuple[tuple[str, ...], str] | None:
        """What keeps the host from reading any hooks out of it (hosts.base.outline_problem)."""
        return outline_problem(self.data)

    @property
    def top_level(self) -> dict[str, Any]:
        return self.data if isinstance(self.data, dict) else {}

    @property
    def events(self) -> list[EventAt]:
        """The keys under "hooks", when it is an object of events."""
        hooks = self.top_level.get("hooks")
        if not isinstance(hooks, dict):
            return []
        return [EventAt(self.file, self.format, name, value) for name, value in hooks.items()]

    @cached_property
    def settings_problems(self) -> list[SettingsProblem]:
        """A Claude Code settings file's problems outside "hooks" (which the rules here read
        themselves): its permission rules first, then SchemaStore's complaints."""
        rest = {key: value for key, value in self.top_level.items() if key != "hooks"}
        if self.file.kind != "claude-settings" or not rest:
            return []
        found = list(_permission_problems(rest.get("permissions")))
        for error in settings_schema_errors(_without_permission_rules(rest)):
            rule = "structure/settings-schema-opinion" if _opinion(error) else "structure/settings-schema"
            variant, fields = _problem(error)
            fields["where"] = "/".join(str(k) for k in error.keys) or "the top level"
            found.append(SettingsProblem(rule, error.keys, variant, fields))
        return found


@FILE_RULES.rule("structure/not-object", alone=True)
def _not_object(ctx: Context, at: FileAt) -> Iterator[Finding]:
    if at.outline and not at.outline[0]:
        yield ctx.finding("structure/not-object", at.file, (), found=at.outline[1])


@FILE_RULES.rule("structure/top-level-event")
def _top_level_event(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """An event beside "hooks" (names looked up folded, among the host's and, in a Cursor
    file, Claude Code's)."""
    for key in at.top_level:
        event = next((names[fold(key)] for names in at.format.top_level if fold(key) in names), None)
        if key != "hooks" and event:
            # a guard event's hooks there, exactly named, void the whole settings file (docs/hosts/claude-code.md#invalid-handlers)
            voids = at.file.kind == "claude-settings" and key in GUARD_EVENTS and bool(at.top_level[key])
            yield ctx.finding("structure/top-level-event", at.file, (key,), at_key=True, key=key, event=event,
                              host=at.format.host, variant="voids-the-file" if voids else None)


@FILE_RULES.rule("structure/hooks-not-object")
def _hooks_not_object(ctx: Context, at: FileAt) -> Iterator[Finding]:
    if at.outline and at.outline[0]:
        yield ctx.finding("structure/hooks-not-object", at.file, ("hooks",), found=at.outline[1],
                          example=at.format.example)


@FILE_RULES.rule("structure/guard-handler-breaks-file")
def _guard_handler_breaks_file(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """The first handler (or group) of an event that guards an action which breaks the settings
    schema: Claude Code ignores the whole settings file for it (docs/hosts/claude-code.md#invalid-handlers)."""
    if at.file.kind != "claude-settings":
        return
    for event in at.events:
        if event.name not in GUARD_EVENTS:
            continue
        for group in event.groups:
            why = _group_breaks_schema(group.value)
            broken = [(group.keys, why)] if why else [(h.keys, w) for h in group.handlers if (w := _breaks_schema(h))]
            if broken:
                keys, why = broken[0]
                yield ctx.finding("structure/guard-handler-breaks-file", at.file, keys, event=event.name, why=why)
                return


def _group_breaks_schema(group: Any) -> str | None:
    if not isinstance(group, dict):
        return f"the matcher group is {describe(group)}"
    if "matcher" in group and not isinstance(group["matcher"], str):
        return f"its group's \"matcher\" is {describe(group['matcher'])}, not a string"
    if not isinstance(group.get("hooks"), list):
        return "its group has no \"hooks\" list"
    return None


def _breaks_schema(at: HandlerAt) -> str | None:
    """Why the handler breaks Claude Code's settings schema, in a few words (None: it does not)."""
    value = at.value
    if not isinstance(value, dict):
        return f"it is {describe(value)}, not a handler object"
    if "type" not in value:
        return "it has no \"type\""
    if at.kind is None:
        return f"\"type\" is {_shown(value['type'])}"
    missing = [field for field in REQUIRED_FIELDS[at.kind] if field not in value]
    if missing:
        return f"it has no \"{missing[0]}\""
    wrong = at.keys_for("structure/field-type")
    if wrong:
        return f"\"{wrong[0]}\" is {_shown(value[wrong[0]])}, not {_expected(wrong[0], at.fields[wrong[0]])}"
    if at.timeout_rule == "structure/timeout-invalid":
        return f"\"timeout\" is {_shown(value['timeout'])}, not a number above 0"
    if at.kind == "command" and isinstance(value.get("shell"), str) and value["shell"] not in SHELLS:
        return f"\"shell\" is {_shown(value['shell'])}"
    return None


@FILE_RULES.rule("structure/settings-schema")
def _settings_schema(ctx: Context, at: FileAt) -> Iterator[Finding]:
    return _settings_problems(ctx, at, "structure/settings-schema")


@FILE_RULES.rule("structure/settings-schema-opinion")
def _settings_schema_opinion(ctx: Context, at: FileAt) -> Iterator[Finding]:
    return _settings_problems(ctx, at, "structure/settings-schema-opinion")


def _settings_problems(ctx: Context, at: FileAt, rule_id: str) -> Iterator[Finding]:
    """The findings of one of the two rules the settings schema's problems are sorted into."""
    for found in at.settings_problems:
        if found.rule == rule_id:
            yield ctx.finding(rule_id, at.file, found.keys, variant=found.variant, **found.fields)


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
    def note(self) -> bool:
        """An unknown name that reads as a comment: its value is prose, not hooks."""
        return self.unknown and _note(self.name)

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


@EVENT_RULES.rule("structure/hooks-note-key")
def _hooks_note_key(ctx: Context, at: EventAt) -> Iterator[Finding]:
    if at.note:
        yield ctx.finding("structure/hooks-note-key", at.file, at.keys, at_key=True, key=at.name, host=at.format.host,
                          variant=_rewritten(at.file))


@EVENT_RULES.rule("structure/unknown-event")
def _unknown_event(ctx: Context, at: EventAt) -> Iterator[Finding]:
    if at.unknown and not at.note:
        near = _near_event(at.name, at.format)
        yield ctx.finding("structure/unknown-event", at.file, at.keys, at_key=True, event=at.name, host=at.format.host,
                          near=near, basis=at.format.basis, variant="near" if near else None)


@EVENT_RULES.rule("structure/event-not-list")
def _event_not_list(ctx: Context, at: EventAt) -> Iterator[Finding]:
    """(Under a name the host does not know, nothing runs anyway.)"""
    if at.known and not isinstance(at.value, list):
        yield ctx.finding("structure/event-not-list", at.file, at.keys, event=at.name, found=describe(at.value),
                          items=at.format.items, example=at.format.item_example)


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


@GROUP_RULES.rule("structure/group-not-object", alone=True)
def _group_not_object(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    if not isinstance(at.value, dict):
        yield ctx.finding("structure/group-not-object", at.file, at.keys, found=describe(at.value))


@GROUP_RULES.rule("structure/group-hooks-missing", alone=True)
def _group_hooks_missing(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    if isinstance(at.value, dict) and "hooks" not in at.value:
        handler_in_group = "command" in at.value or "type" in at.value
        yield ctx.finding("structure/group-hooks-missing", at.file, at.keys,
                          variant="handler-in-group" if handler_in_group else None)


@GROUP_RULES.rule("structure/group-note-key")
def _group_note_key(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    for key in at.extra_keys:
        if _note(key):
            yield ctx.finding("structure/group-note-key", at.file, at.keys + (key,), at_key=True, key=key,
                              host=CLAUDE_FORMAT.host, variant=_rewritten(at.file))


@GROUP_RULES.rule("structure/group-unknown-key")
def _group_unknown_key(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    """A key hookwright's facts say nothing of: a note, not a claim."""
    for key in at.extra_keys:
        if not _note(key) and _misplaced_in_group(key) is None:
            yield ctx.finding("structure/group-unknown-key", at.file, at.keys + (key,), at_key=True, key=key,
                              host=CLAUDE_FORMAT.host, basis=CLAUDE_FORMAT.basis)


@GROUP_RULES.rule("structure/group-misplaced-key")
def _group_misplaced_key(ctx: Context, at: GroupAt) -> Iterator[Finding]:
    """A handler's field on the group, or a misspelt matcher or hooks."""
    for key in at.extra_keys:
        close = _misplaced_in_group(key)
        if _note(key) or close is None:
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
    close = _close(key, GROUP_KEYS, 0.7)
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


# ---- handlers: Claude Code's, and Cursor's entries -----------------------------------------------------

class HandlerAt:
    """One handler, as every handler rule reads it: an entry of a Claude Code matcher group's
    "hooks", or of a Cursor event's list."""

    def __init__(self, file: ConfigFile, format: Format, event: str, known: Event | None, value: Any, keys: Keys) -> None:
        self.file = file
        self.format = format
        self.event = event
        self.known = known  # the Claude Code event, when Claude Code has it (None for Cursor's)
        self.value = value  # the entry as written (an object, when the rules past handler-not-object read it)
        self.keys = keys

    @cached_property
    def kind(self) -> str | None:
        """Its type, when that is one the host has."""
        kind = self.value.get("type", self.format.default_type)
        return kind if isinstance(kind, str) and kind in self.format.types else None

    @cached_property
    def fields(self) -> dict[str, Any]:
        """The fields it may have, and their types: Claude Code's of its type (of any type, when
        its type is not known), Cursor's one list."""
        if self.format.fields is not None:
            return self.format.fields
        return FIELDS_OF_TYPE[self.kind]

    @cached_property
    def timeout_rule(self) -> str | None:
        """The one timeout rule its "timeout" breaks, if any (three rules ask)."""
        return _timeout_rule(self.value)

    @cached_property
    def key_rules(self) -> dict[str, str]:
        """Its keys that a key rule speaks for, and which one (each key is one rule's at most)."""
        return {key: rule for key, value in self.value.items() if (rule := self._key_rule(key, value))}

    def keys_for(self, rule_id: str) -> list[str]:
        return [key for key, rule in self.key_rules.items() if rule == rule_id]

    def misplaced(self, key: str) -> str | None:
        """What a key that is no field of this handler is known to be: "" for a field of another
        Claude Code type, the field it misspells; None where hookwright's facts do not know it."""
        if self.kind and self.format.fields is None and key in ALL_TYPE_FIELDS:
            return ""
        close = ["command"] if key == "cmd" else _close(key, self.fields, 0.6)
        return close[0] if close else None

    def _key_rule(self, key: str, value: Any) -> str | None:
        if key in self.format.judged_elsewhere:
            return None
        if key == "once":
            return "structure/once-ignored"
        if key in ("async", "asyncRewake") and self.kind not in (None, "command"):
            return "structure/async-non-command"
        if key not in self.fields:
            if _note(key):
                return "structure/handler-note-key"
            return "structure/handler-misplaced-key" if self.misplaced(key) is not None else "structure/handler-unknown-key"
        return None if _has_type(key, value, self.fields[key]) else "structure/field-type"


@HANDLER_RULES.rule("structure/handler-string", alone=True)
def _handler_string(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """A command without its object."""
    if isinstance(at.value, str):
        yield ctx.finding("structure/handler-string", at.file, at.keys, host=at.format.host,
                          command=json.dumps(at.value))


@HANDLER_RULES.rule("structure/handler-not-object", alone=True)
def _handler_not_object(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if not isinstance(at.value, (str, dict)):
        yield ctx.finding("structure/handler-not-object", at.file, at.keys, found=describe(at.value))


@HANDLER_RULES.rule("structure/type-missing")
def _type_missing(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "type" not in at.value and at.format.default_type is None:
        yield ctx.finding("structure/type-missing", at.file, at.keys)


@HANDLER_RULES.rule("structure/type-unknown")
def _type_unknown(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "type" in at.value and at.kind is None:
        yield ctx.finding("structure/type-unknown", at.file, at.keys + ("type",), found=json.dumps(at.value["type"]),
                          host=at.format.host, types=", ".join(at.format.types))


@HANDLER_RULES.rule("structure/field-missing")
def _field_missing(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for field in at.format.required.get(at.kind, ()) if at.kind else ():
        if field not in at.value:
            yield ctx.finding("structure/field-missing", at.file, at.keys, type=at.kind, field=field)


@HANDLER_RULES.rule("structure/once-ignored")
def _once_ignored(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/once-ignored"):
        yield ctx.finding("structure/once-ignored", at.file, at.keys + (key,), host=at.format.host)


@HANDLER_RULES.rule("structure/async-non-command")
def _async_non_command(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/async-non-command"):
        yield ctx.finding("structure/async-non-command", at.file, at.keys + (key,), key=key, type=at.kind)


@HANDLER_RULES.rule("structure/handler-note-key")
def _handler_note_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/handler-note-key"):
        yield ctx.finding("structure/handler-note-key", at.file, at.keys + (key,), at_key=True, key=key,
                          host=at.format.host, variant=_rewritten(at.file))


@HANDLER_RULES.rule("structure/handler-unknown-key")
def _handler_unknown_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """A key hookwright's facts say nothing of: a note, not a claim."""
    for key in at.keys_for("structure/handler-unknown-key"):
        yield ctx.finding("structure/handler-unknown-key", at.file, at.keys + (key,), at_key=True, key=key,
                          host=at.format.host, type=at.kind or "command", fields=_listed(at.fields),
                          basis=at.format.basis)


@HANDLER_RULES.rule("structure/handler-misplaced-key")
def _handler_misplaced_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """Told what the handler has instead: a field of another Claude Code type, or a near name
    (Cursor's types share one list of fields)."""
    for key in at.keys_for("structure/handler-misplaced-key"):
        close = at.misplaced(key)
        yield ctx.finding("structure/handler-misplaced-key", at.file, at.keys + (key,), at_key=True, key=key,
                          host=at.format.host, type=at.kind or "command", fields=_listed(at.fields),
                          close=close, variant="misspelt" if close else "other-type")


@HANDLER_RULES.rule("structure/field-type")
def _field_type(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/field-type"):
        yield ctx.finding("structure/field-type", at.file, at.keys + (key,), field=key, found=_shown(at.value[key]),
                          expected=_expected(key, at.fields[key]))


@HANDLER_RULES.rule("structure/timeout-invalid")
def _timeout_invalid(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.timeout_rule == "structure/timeout-invalid":
        yield ctx.finding("structure/timeout-invalid", at.file, at.keys + ("timeout",), found=_shown(at.value["timeout"]))


@HANDLER_RULES.rule("structure/timeout-long")
def _timeout_long(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.timeout_rule == "structure/timeout-long":
        yield _timeout_finding(ctx, "structure/timeout-long", at)


@HANDLER_RULES.rule("structure/timeout-milliseconds")
def _timeout_milliseconds(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.timeout_rule == "structure/timeout-milliseconds":
        yield _timeout_finding(ctx, "structure/timeout-milliseconds", at)


@HANDLER_RULES.rule("structure/http-header-variable-not-allowed")
def _header_variables_not_allowed(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """Claude Code puts a variable's value into a header only when the handler's
    `allowedEnvVars` lists it; any other is sent as an empty string (docs/hosts/claude-code.md#handler-fields)."""
    if at.kind != "http":
        return
    allowed = _allowed_variables(at.value)
    for header, variable in _header_variables(at.value):
        if variable not in allowed:
            yield ctx.finding("structure/http-header-variable-not-allowed", at.file, at.keys + ("headers", header),
                              header=json.dumps(header), variable=variable,
                              variant="no-list" if "allowedEnvVars" not in at.value else None)


@HANDLER_RULES.rule("structure/http-header-variable-not-in-settings")
def _header_variables_beyond_settings(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """`httpHookAllowedEnvVars` in settings is an outer limit (the lists of every file merge):
    a variable the handler allows but no such list names is still sent empty (docs/hosts/claude-code.md#kill-switches)."""
    if at.kind != "http":
        return
    lists = [settings.data["httpHookAllowedEnvVars"] for settings in settings_objects(ctx.run_files)
             if isinstance(settings.data.get("httpHookAllowedEnvVars"), list)]
    if not lists:
        return
    limit = {name for names in lists for name in names}
    allowed = _allowed_variables(at.value)
    for header, variable in _header_variables(at.value):
        if variable in allowed and variable not in limit:
            yield ctx.finding("structure/http-header-variable-not-in-settings", at.file, at.keys + ("headers", header),
                              header=json.dumps(header), variable=variable)


@HANDLER_RULES.rule("structure/shell-invalid")
def _shell_invalid(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    shell = at.value.get("shell")
    if at.kind == "command" and at.format.shells and isinstance(shell, str) and shell not in at.format.shells:
        yield ctx.finding("structure/shell-invalid", at.file, at.keys + ("shell",), found=json.dumps(shell))


@HANDLER_RULES.rule("structure/shell-ignored")
def _shell_ignored(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    shell = at.value.get("shell")
    if at.kind == "command" and isinstance(shell, str) and shell in at.format.shells and "args" in at.value:
        yield ctx.finding("structure/shell-ignored", at.file, at.keys + ("shell",))


@HANDLER_RULES.rule("structure/if-never-runs")
def _if_never_runs(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "if" in at.value and at.known is not None and at.event not in IF_EVENTS:
        yield ctx.finding("structure/if-never-runs", at.file, at.keys + ("if",), event=at.event)


@HANDLER_RULES.rule("structure/on-failure-ignored")
def _on_failure_ignored(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """onFailure "block" where Claude Code does not read it (docs/hosts/claude-code.md#on-failure)."""
    value = at.value
    if at.format is not CLAUDE_FORMAT or at.kind not in ("command", "http", "mcp_tool") \
            or value.get("onFailure") in (None, "continue") or (at.kind != "mcp_tool" and value["onFailure"] != "block"):
        return
    if value.get("async") is True or value.get("asyncRewake") is True:
        yield ctx.finding("structure/on-failure-ignored", at.file, at.keys + ("onFailure",), variant="async",
                          where="", what="")
    elif at.event in ON_FAILURE_IGNORED:
        yield ctx.finding("structure/on-failure-ignored", at.file, at.keys + ("onFailure",), where=f"on {at.event}",
                          what=GOES_ON_ANYWAY.get(at.event, "it go on"))


# what a failed hook lets happen where onFailure "block" is ignored
GOES_ON_ANYWAY = {"Stop": "Claude stop", "SubagentStop": "the subagent stop", "TaskCompleted": "the task complete",
                  "TeammateIdle": "the teammate go idle"}


@HANDLER_RULES.rule("structure/type-unsupported-event")
def _type_unsupported_event(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.kind and at.known is not None and at.kind not in at.known.types:
        yield ctx.finding("structure/type-unsupported-event", at.file, at.keys + ("type",), event=at.event,
                          type=at.kind, types=", ".join(t for t in TYPE_FIELDS if t in at.known.types))


def _timeout_rule(handler: dict[str, Any]) -> str | None:
    """The one timeout rule a handler's "timeout" breaks, if any."""
    if "timeout" not in handler:
        return None
    value = handler["timeout"]
    if timeout_seconds(value) is None:
        return "structure/timeout-invalid"
    if value < 1000:
        return None
    # whole minutes that are no round number of milliseconds (1800, 3600, 345600): a long
    # wait written in seconds on purpose, such as a hook that waits for a person
    return "structure/timeout-long" if value % 60 == 0 and value % 500 else "structure/timeout-milliseconds"


def _timeout_finding(ctx: Context, rule_id: str, at: HandlerAt) -> Finding:
    """A timeout of 1000 or more, in seconds and read as milliseconds."""
    value = at.value["timeout"]
    return ctx.finding(rule_id, at.file, at.keys + ("timeout",), value=_number(value), human=_duration(value),
                       seconds=_number(value / 1000))


HEADER_VARIABLE = lazy(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


def _header_variables(handler: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(header, variable) for each `$VAR` / `${VAR}` in an http handler's header values."""
    headers = handler.get("headers")
    for name, value in headers.items() if isinstance(headers, dict) else ():
        for match in HEADER_VARIABLE.finditer(value) if isinstance(value, str) else ():
            yield name, match.group(1) or match.group(2)


def _allowed_variables(handler: dict[str, Any]) -> list[str]:
    allowed = handler.get("allowedEnvVars")
    return [name for name in allowed if isinstance(name, str)] if isinstance(allowed, list) else []


def _listed(fields: dict[str, Any]) -> str:
    """A handler's fields, as a hint names them (the binary's @internal ones left out)."""
    return ", ".join(name for name in fields if name not in INTERNAL_COMMAND_FIELDS)


def _has_type(key: str, value: Any, kind: Any) -> bool:
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


def _expected(key: str, kind: object) -> str:
    if isinstance(kind, OneOf):
        return " or ".join(json.dumps(value) for value in sorted(kind, reverse=True))
    return "a non-empty string" if key in NON_EMPTY else EXPECTED[kind]


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else describe(value)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _duration(seconds: float) -> str:
    if seconds >= 86400:
        return f"{seconds / 86400:.3g} days"
    if seconds >= 3600:
        return f"{seconds / 3600:.3g} hours"
    return f"{seconds / 60:.3g} minutes"


NOTE_WORDS = {"description", "desc", "comment", "comments", "note", "notes", "name", "id", "title", "label",
              "purpose", "todo", "doc", "docs", "info", "about", "summary", "reason", "why"}


def _note(key: str) -> bool:
    """A comment or documentation key (`_comment`, `// PURPOSE`, `$comment`, `description`)."""
    return key.startswith(("_", "$", "//", "#", "@")) or key.strip().lower() in NOTE_WORDS


def _rewritten(file: ConfigFile) -> str | None:
    """The note-key rules' wording for a file its host rewrites, dropping what it does not know:
    Claude Code rewrites its settings files (approvals into settings.local.json...), not managed
    settings, plugin or Cursor files."""
    return "rewritten" if file.kind == "claude-settings" and file.scope != "managed" else None


def _close(word: str, known: Iterable[str], cutoff: float) -> list[str]:
    """The known name closest to a misspelt one (at most one), for "did you mean"."""
    return difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)


def _near_event(event: str, format: Format) -> str | None:
    """The host's event a misspelt name most likely means: the same name written otherwise, else
    a close one."""
    same = format.folded.get(fold(event))
    if same:
        return same
    close = _close(event, format.events, 0.75)
    return close[0] if close else None


# ---- Claude Code settings: SchemaStore's schema outside "hooks" --------------------------------------

class SchemaError:
    """One schema violation, as the rules below read it."""

    def __init__(self, keys: Keys, validator: str, instance: Any, allowed: tuple[Any, ...] = (), message: str = "") -> None:
        self.keys = keys  # where the offending value is
        self.validator = validator  # the schema keyword it breaks: type, enum, pattern, additionalProperties...
        self.instance = instance  # the offending value (for a key name that breaks propertyNames: the name)
        self.allowed = allowed  # enum: the allowed values; type: the allowed types; additionalProperties: the extra keys
        self.message = message

    @classmethod
    def of(cls, error: Any) -> SchemaError:
        keys = tuple(error.instance_path)
        if error.kind.name == "propertyNames":  # judge the key name itself
            error = error.kind.error
        kind = error.kind
        allowed: Iterable[Any] = (getattr(kind, "options", None) or getattr(kind, "types", None)
                                  or getattr(kind, "unexpected", None) or ())
        return cls(keys, kind.name, error.instance, tuple(allowed), error.message)


def settings_schema_errors(settings: dict[str, Any]) -> list[SchemaError]:
    """SchemaStore's complaints about a settings object, in document order of their paths
    (jsonschema-rs words them)."""
    errors = [SchemaError.of(error) for error in resources.schema_errors(SCHEMASTORE, settings)]
    return sorted(errors, key=lambda e: [str(k) for k in e.keys])


PERMISSION_LISTS = ("allow", "deny", "ask")
BUILTIN_TOOL_NAMES = frozenset(BUILTIN_TOOLS)
TOOL_NAME = lazy(r"[A-Za-z_][\w-]*")
PLAIN_RULE = lazy(r"mcp__[^(]*|[A-Za-z_][\w-]*(?:\([^()\\]+\))?")  # no parenthesis inside
SPECIFIER_TOKEN = lazy(r"\\.|[()]", re.S)  # an escaped character, or a parenthesis


def _without_permission_rules(settings: dict[str, Any]) -> dict[str, Any]:
    """Permission rules are read by our own check below: SchemaStore's pattern for them is one
    huge regex (four fifths of the time doctor spent on a corpus) and lags the host's tools."""
    permissions = settings.get("permissions")
    if not isinstance(permissions, dict):
        return settings
    lists: dict[str, list[Any]] = {key: [] for key in PERMISSION_LISTS if isinstance(permissions.get(key), list)}
    return {**settings, "permissions": {**permissions, **lists}}


def _permission_problems(permissions: Any) -> Iterator[SettingsProblem]:
    """Each rule must read as `Tool` or `Tool(specifier)`; a tool Claude Code does not have is
    worth a warning (SchemaStore's list lags the host, so not an error)."""
    if not isinstance(permissions, dict):
        return
    for key in PERMISSION_LISTS:
        rules = permissions.get(key)
        for index, rule in enumerate(rules if isinstance(rules, list) else []):
            keys: Keys = ("permissions", key, index)
            where = f"permissions/{key}/{index}"
            if not isinstance(rule, str):
                yield SettingsProblem("structure/settings-schema", keys, "not-string",
                                      {"where": where, "found": describe(rule)})
            elif not _parses_as_permission_rule(rule):
                yield SettingsProblem("structure/settings-schema", keys, "not-a-rule",
                                      {"where": where, "rule": json.dumps(rule)})
            elif not rule.startswith("mcp__") and rule.split("(", 1)[0] not in BUILTIN_TOOL_NAMES:
                yield SettingsProblem("structure/settings-schema-opinion", keys, "unknown-tool",
                                      {"where": where, "rule": json.dumps(rule)})


def _opinion(error: SchemaError) -> bool:
    """Where SchemaStore is stricter than the host, as the corpus of real configs and the real CLI
    show: the tools a permission rule may name (it lags the host's tool list), env names and
    values, enum values it lacks, and top-level settings newer than the schema. A permission rule
    that cannot parse, a wrong type (measured on 2.1.332: `"cleanupPeriodDays": "thirty"` made
    Claude Code ignore the whole file), a missing field or an unknown key inside a known setting
    stays an error."""
    keys = error.keys
    if error.validator == "additionalProperties":  # newer top-level settings, and notes to the reader
        return not keys or all(k.startswith(("_", "$", "//")) for k in error.allowed)
    if keys == ("env",):  # a variable's name: upper case is SchemaStore's taste, a space a real error
        return NAME.fullmatch(str(error.instance)) is not None
    if keys[:1] == ("env",):  # a variable's value: a number read as one (measured on 2.1.332: the file loaded)
        return error.validator in ("pattern", "enum", "type")
    # a value SchemaStore's enum lacks: its lists lag the host (measured on 2.1.332: effortLevel "max" loaded)
    return error.validator == "enum"


def _parses_as_permission_rule(rule: str) -> bool:
    """`Tool` or `Tool(specifier)`: a non-empty specifier whose parentheses balance and close the
    rule. It may hold parentheses itself, escaped or balanced (Claude Code saves approved commands
    such as `Bash(python -c "json.load\\(sys.stdin\\)")`); two rules in one string do not parse."""
    if PLAIN_RULE.fullmatch(rule):  # most rules: nothing to balance (a file of 160,000: 5 s to 0.2 s)
        return True
    name = TOOL_NAME.match(rule)
    if name is None:
        return False
    specifier = rule[name.end():]
    if not specifier:
        return True
    if len(specifier) < 3 or specifier[0] != "(":
        return False
    depth = 0
    token: re.Match[str]
    for token in SPECIFIER_TOKEN.finditer(specifier):
        if token.group()[0] == "\\":
            continue
        depth += 1 if token.group() == "(" else -1
        if depth == 0:
            return token.end() == len(specifier)
    return False


def _problem(error: SchemaError) -> tuple[str | None, ProblemFields]:
    """The schema rules' wording of one violation, and its fields: ours for the common
    validators, else jsonschema-rs's own message (cut short)."""
    shown = _shown(error.instance)
    if error.validator == "pattern":
        return "pattern", {"found": shown}
    if error.validator == "enum":
        allowed = ", ".join(json.dumps(v) for v in error.allowed[:8]) + (", ..." if len(error.allowed) > 8 else "")
        return "enum", {"found": shown, "allowed": allowed}
    if error.validator == "type":
        return "type", {"found": shown, "types": " or ".join(error.allowed)}
    message = error.message
    return None, {"problem": message if len(message) <= 160 else message[:157] + "..."}


# ---- settings files as objects (switches.py reads them together) ----------------------------------

class ObjectFile:
    """A file doctor read whose JSON is an object: a Claude Code settings file, a plugin's manifest."""

    def __init__(self, file: ConfigFile, data: dict[str, Any]) -> None:
        self.file = file
        self.data = data

    @property
    def managed(self) -> bool:
        return self.file.scope == "managed" or self.file.path.name.startswith("managed-settings")


def settings_objects(files: list[ConfigFile]) -> list[ObjectFile]:
    return [ObjectFile(f, f.document.data) for f in files if f.kind == "claude-settings" and f.document is not None
            and isinstance(f.document.data, dict)]
