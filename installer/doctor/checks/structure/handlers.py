"""Handlers, Claude Code's and Cursor's entries (HANDLER_RULES): their type, fields, timeouts,
headers, shell and the events they run on; and first, what the other structure families share
with them: how each host's hooks file is written (a Format: what differs between the hosts' files
is data, so that a rule both hosts share is one function), a value's type as a message names it,
and the words of a key (a note, a name another host or release spells another way, a near miss).
(One module: each module every run loads is about 0.3 M instructions before its own code.)"""
from __future__ import annotations

import difflib
import json
from typing import Any, Collection, Iterable, Iterator

from .... import hosts
from ....document import Keys
from ....hooks.events import (
    CLAUDE_EVENTS,
    CLAUDE_ONLY_FIELDS,
    COMMON_FIELDS,
    CURSOR_EVENTS,
    CURSOR_FIELDS,
    CURSOR_TYPES,
    FOLDED_CLAUDE_EVENTS,
    FOLDED_CURSOR_EVENTS,
    IF_EVENTS,
    INTERNAL_COMMAND_FIELDS,
    REQUIRED_FIELDS,
    SHELLS,
    TYPE_FIELDS,
    Event,
    OneOf,
    fold,
)
from ....hosts.base import describe
from ....hosts.claude.protocol import ON_FAILURE_IGNORED
from ....patterns import lazy
from ...model import ConfigFile, Context, Finding, RuleTable, cached_property, timeout_seconds
from .settings import settings_objects, shown_value

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


HANDLER_RULES = RuleTable()  # one handler: of a Claude Code matcher group, or a Cursor entry


# the premises of the rules of a handler object's keys, of its "timeout" and of an http handler's
# headers (RuleTable.rule's `premise`): on the corpus tree's 1,870 handlers, eleven of the
# twenty-one rules had nothing to look at in most of them
def _keys_judged(ctx: Context, at: HandlerAt) -> bool:
    """A key of the handler object that a key rule speaks for (HandlerAt.key_rules)."""
    return isinstance(at.value, dict) and bool(at.key_rules)


def _timeout_broken(ctx: Context, at: HandlerAt) -> bool:
    """A "timeout" that breaks a timeout rule (HandlerAt.timeout_rule)."""
    return isinstance(at.value, dict) and at.timeout_rule is not None


def _http(ctx: Context, at: HandlerAt) -> bool:
    return isinstance(at.value, dict) and at.kind == "http"


# and of the rules of a handler object's type, and of the fields few handlers have: each called for
# each of the corpus tree's 1,870 handlers found nothing in all but five (a rule's call alone, a
# generator made and run, is about 3,000 instructions: 34 M of the tree's 5,209 M for eight rules)
def _not_object(ctx: Context, at: HandlerAt) -> bool:
    return not isinstance(at.value, dict)


def _type_not_known(ctx: Context, at: HandlerAt) -> bool:
    return at.kind is None


def _shell_given(ctx: Context, at: HandlerAt) -> bool:
    return "shell" in at.value


def _if_given(ctx: Context, at: HandlerAt) -> bool:
    return "if" in at.value


def _on_failure_given(ctx: Context, at: HandlerAt) -> bool:
    return "onFailure" in at.value


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
        close = ["command"] if key == "cmd" else close_words(key, self.fields, 0.6)
        return close[0] if close else None

    def _key_rule(self, key: str, value: Any) -> str | None:
        if key in self.format.judged_elsewhere:
            return None
        if key == "once":
            return "structure/once-ignored"
        if key in ("async", "asyncRewake") and self.kind not in (None, "command"):
            return "structure/async-non-command"
        if key not in self.fields:
            if is_note(key):
                return "structure/handler-note-key"
            return "structure/handler-misplaced-key" if self.misplaced(key) is not None else "structure/handler-unknown-key"
        return None if has_type(key, value, self.fields[key]) else "structure/field-type"


@HANDLER_RULES.rule("structure/handler-string", alone=True, premise=_not_object)
def _handler_string(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """A command without its object."""
    if isinstance(at.value, str):
        yield ctx.finding("structure/handler-string", at.file, at.keys, host=at.format.host,
                          command=json.dumps(at.value))


@HANDLER_RULES.rule("structure/handler-not-object", alone=True, premise=_not_object)
def _handler_not_object(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if not isinstance(at.value, (str, dict)):
        yield ctx.finding("structure/handler-not-object", at.file, at.keys, found=describe(at.value))


@HANDLER_RULES.rule("structure/type-missing", premise=_type_not_known)
def _type_missing(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "type" not in at.value and at.format.default_type is None:
        yield ctx.finding("structure/type-missing", at.file, at.keys)


@HANDLER_RULES.rule("structure/type-unknown", premise=_type_not_known)
def _type_unknown(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "type" in at.value and at.kind is None:
        yield ctx.finding("structure/type-unknown", at.file, at.keys + ("type",), found=json.dumps(at.value["type"]),
                          host=at.format.host, types=", ".join(at.format.types))


def _field_missing_here(ctx: Context, at: HandlerAt) -> bool:
    """A field its type needs is not there (nearly every handler has them all)."""
    return at.kind is not None and any(field not in at.value for field in at.format.required.get(at.kind, ()))


@HANDLER_RULES.rule("structure/field-missing", premise=_field_missing_here)
def _field_missing(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for field in at.format.required.get(at.kind, ()) if at.kind else ():
        if field not in at.value:
            yield ctx.finding("structure/field-missing", at.file, at.keys, type=at.kind, field=field)


@HANDLER_RULES.rule("structure/once-ignored", premise=_keys_judged)
def _once_ignored(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/once-ignored"):
        yield ctx.finding("structure/once-ignored", at.file, at.keys + (key,), host=at.format.host)


@HANDLER_RULES.rule("structure/async-non-command", premise=_keys_judged)
def _async_non_command(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/async-non-command"):
        yield ctx.finding("structure/async-non-command", at.file, at.keys + (key,), key=key, type=at.kind)


@HANDLER_RULES.rule("structure/handler-note-key", premise=_keys_judged)
def _handler_note_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/handler-note-key"):
        yield ctx.finding("structure/handler-note-key", at.file, at.keys + (key,), at_key=True, key=key,
                          host=at.format.host, variant=rewritten(at.file))


@HANDLER_RULES.rule("structure/handler-unknown-key", premise=_keys_judged)
def _handler_unknown_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """A key hookwright's facts say nothing of: a note, not a claim."""
    for key in at.keys_for("structure/handler-unknown-key"):
        yield ctx.finding("structure/handler-unknown-key", at.file, at.keys + (key,), at_key=True, key=key,
                          host=at.format.host, type=at.kind or "command", fields=listed(at.fields),
                          basis=at.format.basis)


@HANDLER_RULES.rule("structure/handler-misplaced-key", premise=_keys_judged)
def _handler_misplaced_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """Told what the handler has instead: a field of another Claude Code type, or a near name
    (Cursor's types share one list of fields)."""
    for key in at.keys_for("structure/handler-misplaced-key"):
        close = at.misplaced(key)
        yield ctx.finding("structure/handler-misplaced-key", at.file, at.keys + (key,), at_key=True, key=key,
                          host=at.format.host, type=at.kind or "command", fields=listed(at.fields),
                          close=close, variant="misspelt" if close else "other-type")


@HANDLER_RULES.rule("structure/field-type", premise=_keys_judged)
def _field_type(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/field-type"):
        yield ctx.finding("structure/field-type", at.file, at.keys + (key,), field=key, found=shown_value(at.value[key]),
                          expected=expected(key, at.fields[key]))


@HANDLER_RULES.rule("structure/timeout-invalid", premise=_timeout_broken)
def _timeout_invalid(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.timeout_rule == "structure/timeout-invalid":
        yield ctx.finding("structure/timeout-invalid", at.file, at.keys + ("timeout",), found=shown_value(at.value["timeout"]))


@HANDLER_RULES.rule("structure/timeout-long", premise=_timeout_broken)
def _timeout_long(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.timeout_rule == "structure/timeout-long":
        yield _timeout_finding(ctx, "structure/timeout-long", at)


@HANDLER_RULES.rule("structure/timeout-milliseconds", premise=_timeout_broken)
def _timeout_milliseconds(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.timeout_rule == "structure/timeout-milliseconds":
        yield _timeout_finding(ctx, "structure/timeout-milliseconds", at)


@HANDLER_RULES.rule("structure/http-header-variable-not-allowed", premise=_http)
def _header_variables_not_allowed(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """Claude Code puts a variable's value into a header only when the handler's
    `allowedEnvVars` lists it; any other is sent as an empty string (docs/hosts/claude-code.md#handler-fields)."""
    allowed = _allowed_variables(at.value)
    for header, variable in _header_variables(at.value):
        if variable not in allowed:
            yield ctx.finding("structure/http-header-variable-not-allowed", at.file, at.keys + ("headers", header),
                              header=json.dumps(header), variable=variable,
                              variant="no-list" if "allowedEnvVars" not in at.value else None)


@HANDLER_RULES.rule("structure/http-header-variable-not-in-settings", premise=_http)
def _header_variables_beyond_settings(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """`httpHookAllowedEnvVars` in settings is an outer limit (the lists of every file merge):
    a variable the handler allows but no such list names is still sent empty (docs/hosts/claude-code.md#kill-switches)."""
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


@HANDLER_RULES.rule("structure/shell-invalid", premise=_shell_given)
def _shell_invalid(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    shell = at.value.get("shell")
    if at.kind == "command" and at.format.shells and isinstance(shell, str) and shell not in at.format.shells:
        yield ctx.finding("structure/shell-invalid", at.file, at.keys + ("shell",), found=json.dumps(shell))


@HANDLER_RULES.rule("structure/shell-ignored", premise=_shell_given)
def _shell_ignored(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    shell = at.value.get("shell")
    if at.kind == "command" and isinstance(shell, str) and shell in at.format.shells and "args" in at.value:
        yield ctx.finding("structure/shell-ignored", at.file, at.keys + ("shell",))


@HANDLER_RULES.rule("structure/if-never-runs", premise=_if_given)
def _if_never_runs(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "if" in at.value and at.known is not None and at.event not in IF_EVENTS:
        yield ctx.finding("structure/if-never-runs", at.file, at.keys + ("if",), event=at.event)


@HANDLER_RULES.rule("structure/on-failure-ignored", premise=_on_failure_given)
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


def _type_not_on_event(ctx: Context, at: HandlerAt) -> bool:
    """Its type is one the event does not run (nearly every handler's it runs)."""
    return bool(at.kind) and at.known is not None and at.kind not in at.known.types


@HANDLER_RULES.rule("structure/type-unsupported-event", premise=_type_not_on_event)
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


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _duration(seconds: float) -> str:
    if seconds >= 86400:
        return f"{seconds / 86400:.3g} days"
    if seconds >= 3600:
        return f"{seconds / 3600:.3g} hours"
    return f"{seconds / 60:.3g} minutes"
