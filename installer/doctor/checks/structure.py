"""Structure: does each file parse, and is every event, group and handler in the shape its host reads?"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Iterator, NamedTuple

from ... import resources
from ...errors import ErrorKind
from ...hosts.base import outline_problem
from ...patterns import lazy
from .. import load
from ..discovery import SCOPE_ORDER, Candidate
from ..facts import (
    BUILTIN_TOOLS,
    CLAUDE_EVENTS,
    CLAUDE_ONLY_FIELDS,
    COMMON_FIELDS,
    CURSOR_EVENTS,
    CURSOR_FIELDS,
    CURSOR_TYPES,
    DISABLE_ALL,
    FOLDED_CLAUDE_EVENTS,
    FOLDED_CURSOR_EVENTS,
    GROUP_KEYS,
    IF_EVENTS,
    MANAGED_ONLY_KEYS,
    REQUIRED_FIELDS,
    SHELLS,
    TYPE_FIELDS,
    Event,
    fold,
)
from ..model import HOST_NAMES, ConfigFile, Context, Finding, RuleTable, describe, resolved, timeout_seconds

SCHEMASTORE = "schemastore/claude-code-settings.json"  # the settings schema the editors use
ALL_TYPE_FIELDS = {key: kind for fields in TYPE_FIELDS.values() for key, kind in fields.items()}
NON_EMPTY = {"command", "url", "prompt", "server", "tool"}
EXPECTED = {str: "a string", bool: "true or false", dict: "an object", "strings": "a list of strings",
            "string-map": "an object of strings", (int, float): "a number", (int, type(None)): "a number or null"}


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        if file.error is not None:
            if file.kind != "opencode-config":  # (JSONC: host/opencode-config-unreadable says what is wrong)
                yield _unparsed(ctx, file)
        elif file.document is not None and file.host == "claude":
            yield from _claude(ctx, file)
        elif file.document is not None and file.host == "cursor":
            yield from _cursor(ctx, file)
    yield from _kill_switches(ctx)
    yield from _manifests_naming_default_hooks(ctx)


def _unparsed(ctx: Context, file: ConfigFile) -> Finding:
    error = file.error
    params = {"error": error.message, "hint": error.hint or "fix the file"}
    if error.kind is ErrorKind.UNREADABLE:
        return ctx.finding_at("structure/unreadable", file, error.line, error.column, **params)
    if error.kind is ErrorKind.DUPLICATE_KEY:
        return ctx.finding_at("structure/duplicate-key", file, error.line, error.column, **params)
    host = HOST_NAMES.get(file.host, HOST_NAMES["claude"])  # (a file of unknown kind: read as Claude Code's)
    return ctx.finding_at("structure/invalid-json", file, error.line, error.column, detail=error.reason, host=host,
                          hint=params["hint"])


# ---- Claude Code: settings files and plugin hooks.json ---------------------------------------------

def _outline(ctx: Context, file: ConfigFile, host: str, example: str,
             *event_names: dict[str, str]) -> Iterator[Finding]:
    """The shape both hosts share: an object, no event at the top level beside `"hooks"` (names
    looked up folded, in `event_names`), and `"hooks"` an object of events."""
    data = file.document.data
    problem = outline_problem(data)
    if problem and not problem[0]:
        yield ctx.finding("structure/not-object", file, (), found=problem[1])
        return
    for key in data:
        event = next((names[fold(key)] for names in event_names if fold(key) in names), None)
        if key != "hooks" and event:
            yield ctx.finding("structure/top-level-event", file, (key,), at_key=True, key=key, event=event, host=host)
    if problem:
        yield ctx.finding("structure/hooks-not-object", file, ("hooks",), found=problem[1], example=example)


def _claude(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    yield from _outline(ctx, file, "Claude Code", "PreToolUse", FOLDED_CLAUDE_EVENTS)
    data = file.document.data
    if not isinstance(data, dict):
        return
    if file.kind == "claude-settings":
        yield from _schema(ctx, file, data)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        known = CLAUDE_EVENTS.get(event)
        if known is None:
            yield _unknown_event(ctx, file, event, "Claude Code", CLAUDE_EVENTS, FOLDED_CLAUDE_EVENTS)
            if _note(event):
                continue  # a note's value is prose, not matcher groups
        if not isinstance(groups, list):
            if known is not None:  # under an unknown name (a "$comment" key, say) nothing runs anyway
                yield ctx.finding("structure/event-not-list", file, ("hooks", event), event=event,
                                  found=describe(groups), items="matcher groups",
                                  example='{"matcher": "...", "hooks": [...]}')
            continue
        for gi, group in enumerate(groups):
            yield from _group(ctx, file, event, known, group, ("hooks", event, gi))


def _group(ctx: Context, file: ConfigFile, event: str, known: Event | None, group: Any,
           keys: tuple) -> Iterator[Finding]:
    if not isinstance(group, dict):
        yield ctx.finding("structure/group-not-object", file, keys, found=describe(group))
        return
    if "hooks" not in group:
        if "command" in group or "type" in group:
            yield ctx.finding("structure/group-hooks-missing", file, keys,
                              detail=" (the handler is written straight into the group)",
                              hint='wrap the handler: {"matcher": "...", "hooks": [{"type": "command", '
                                   '"command": "..."}]}')
        else:
            yield ctx.finding("structure/group-hooks-missing", file, keys, detail="",
                              hint='add "hooks": [{"type": "command", "command": "..."}]')
        return
    for key in group:
        if key in GROUP_KEYS:
            continue
        if _note(key):
            yield ctx.finding("structure/group-note-key", file, keys + (key,), at_key=True, key=key, host="Claude Code",
                              lost=_lost(file))
        elif key in COMMON_FIELDS or key in ALL_TYPE_FIELDS:
            yield ctx.finding("structure/group-unknown-key", file, keys + (key,), at_key=True, key=key, host="Claude Code",
                              detail=" (it is a handler field, placed on the group)",
                              hint=f'move "{key}" into each handler of the group\'s "hooks"')
        else:
            close = _close(key, GROUP_KEYS, 0.7)
            yield ctx.finding("structure/group-unknown-key", file, keys + (key,), at_key=True, key=key, host="Claude Code",
                              detail="", hint=f'did you mean "{close[0]}"?' if close else
                              'a group holds only "matcher" and "hooks"')
    matcher = group.get("matcher")
    if known is not None and known.matcher is None and isinstance(matcher, str) and matcher.strip() not in ("", "*"):
        yield ctx.finding("structure/matcher-ignored", file, keys + ("matcher",), event=event,
                          matcher=json.dumps(matcher))
    handlers = group["hooks"]
    if not isinstance(handlers, list):
        yield ctx.finding("structure/group-hooks-not-list", file, keys + ("hooks",), found=describe(handlers))
        return
    for hi, handler in enumerate(handlers):
        yield from _handler(ctx, file, event, known, handler, keys + ("hooks", hi))


def _not_an_object(ctx: Context, file: ConfigFile, value: Any, keys: tuple, host: str) -> Finding | None:
    """A bare string (a command without its object) or another non-object where a handler belongs."""
    if isinstance(value, str):
        return ctx.finding("structure/handler-string", file, keys, host=host, command=json.dumps(value))
    if not isinstance(value, dict):
        return ctx.finding("structure/handler-not-object", file, keys, found=describe(value))
    return None


class HandlerAt(NamedTuple):
    """One entry of a Claude Code matcher group's "hooks", as every handler rule reads it."""

    file: ConfigFile
    event: str
    known: Event | None  # the event, when Claude Code has it
    value: Any  # the entry as written (an object, when the rules past handler-not-object read it)
    keys: tuple

    @property
    def kind(self) -> str | None:
        """Its "type", when that is one Claude Code has."""
        kind = self.value.get("type")
        return kind if isinstance(kind, str) and kind in TYPE_FIELDS else None

    @property
    def fields(self) -> dict[str, Any]:
        """The fields a handler of its type may have (of any type, when its type is not known), and their types."""
        return {**COMMON_FIELDS, **(TYPE_FIELDS[self.kind] if self.kind else ALL_TYPE_FIELDS)}

    def keys_for(self, rule_id: str) -> Iterator[str]:
        """Its keys that this rule speaks for: each key is one rule's at most (key_rule)."""
        fields = self.fields
        return (key for key, value in self.value.items() if _key_rule(key, value, self.kind, fields) == rule_id)


def _key_rule(key: str, value: Any, kind: str | None, fields: dict[str, Any]) -> str | None:
    """Which rule, if any, speaks for one key of a Claude Code handler."""
    if key in ("type", "timeout"):
        return None  # (the type rules and the timeout rules)
    if key == "once":
        return "structure/once-ignored"
    if key in ("async", "asyncRewake") and kind not in (None, "command"):
        return "structure/async-non-command"
    if key not in fields:
        return "structure/handler-note-key" if _note(key) else "structure/handler-unknown-key"
    return None if _has_type(key, value, fields[key]) else "structure/field-type"


HANDLER_RULES = RuleTable()  # the rules of one Claude Code handler, one function each


def _handler(ctx: Context, file: ConfigFile, event: str, known: Event | None, handler: Any,
             keys: tuple) -> Iterator[Finding]:
    yield from HANDLER_RULES.run(ctx, HandlerAt(file, event, known, handler, keys))


@HANDLER_RULES.rule("structure/handler-string", alone=True)
def _handler_string(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if isinstance(at.value, str):
        yield _not_an_object(ctx, at.file, at.value, at.keys, "Claude Code")


@HANDLER_RULES.rule("structure/handler-not-object", alone=True)
def _handler_not_object(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if not isinstance(at.value, (str, dict)):
        yield _not_an_object(ctx, at.file, at.value, at.keys, "Claude Code")


@HANDLER_RULES.rule("structure/type-missing")
def _type_missing(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "type" not in at.value:
        yield ctx.finding("structure/type-missing", at.file, at.keys)


@HANDLER_RULES.rule("structure/type-unknown")
def _type_unknown(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "type" in at.value and at.kind is None:
        yield ctx.finding("structure/type-unknown", at.file, at.keys + ("type",), found=json.dumps(at.value["type"]),
                          host="Claude Code", types=", ".join(TYPE_FIELDS))


@HANDLER_RULES.rule("structure/field-missing")
def _field_missing(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for field in REQUIRED_FIELDS.get(at.kind, ()):
        if field not in at.value:
            yield ctx.finding("structure/field-missing", at.file, at.keys, type=at.kind, field=field)


@HANDLER_RULES.rule("structure/once-ignored")
def _once_ignored(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/once-ignored"):
        yield ctx.finding("structure/once-ignored", at.file, at.keys + (key,), host="Claude Code")


@HANDLER_RULES.rule("structure/async-non-command")
def _async_non_command(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/async-non-command"):
        yield ctx.finding("structure/async-non-command", at.file, at.keys + (key,), key=key, type=at.kind)


@HANDLER_RULES.rule("structure/handler-note-key")
def _handler_note_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/handler-note-key"):
        yield _unknown_key(ctx, at.file, at.keys, key, at.kind, at.fields, "Claude Code")


@HANDLER_RULES.rule("structure/handler-unknown-key")
def _handler_unknown_key(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    for key in at.keys_for("structure/handler-unknown-key"):
        yield _unknown_key(ctx, at.file, at.keys, key, at.kind, at.fields, "Claude Code")


@HANDLER_RULES.rule("structure/field-type")
def _field_type(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    fields = at.fields
    for key in at.keys_for("structure/field-type"):
        yield ctx.finding("structure/field-type", at.file, at.keys + (key,), field=key, found=_shown(at.value[key]),
                          expected=_expected(key, fields[key]))


@HANDLER_RULES.rule("structure/timeout-invalid")
def _timeout_invalid(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    yield from _timeout(ctx, at.file, at.value, at.keys, "structure/timeout-invalid")


@HANDLER_RULES.rule("structure/timeout-long")
def _timeout_long(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    yield from _timeout(ctx, at.file, at.value, at.keys, "structure/timeout-long")


@HANDLER_RULES.rule("structure/timeout-milliseconds")
def _timeout_milliseconds(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    yield from _timeout(ctx, at.file, at.value, at.keys, "structure/timeout-milliseconds")


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
                              listed=" (the handler has no allowedEnvVars)" if "allowedEnvVars" not in at.value else "")


@HANDLER_RULES.rule("structure/http-header-variable-not-in-settings")
def _header_variables_beyond_settings(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    """`httpHookAllowedEnvVars` in settings is an outer limit (the lists of every file merge):
    a variable the handler allows but no such list names is still sent empty (docs/hosts/claude-code.md#kill-switches)."""
    if at.kind != "http":
        return
    lists = [f.document.data["httpHookAllowedEnvVars"] for f in _settings(ctx.files)
             if isinstance(f.document.data.get("httpHookAllowedEnvVars"), list)]
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
    if at.kind == "command" and isinstance(shell, str) and shell not in SHELLS:
        yield ctx.finding("structure/shell-invalid", at.file, at.keys + ("shell",), found=json.dumps(shell))


@HANDLER_RULES.rule("structure/shell-ignored")
def _shell_ignored(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    shell = at.value.get("shell")
    if at.kind == "command" and isinstance(shell, str) and shell in SHELLS and "args" in at.value:
        yield ctx.finding("structure/shell-ignored", at.file, at.keys + ("shell",))


@HANDLER_RULES.rule("structure/if-never-runs")
def _if_never_runs(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if "if" in at.value and at.known is not None and at.event not in IF_EVENTS:
        yield ctx.finding("structure/if-never-runs", at.file, at.keys + ("if",), event=at.event)


@HANDLER_RULES.rule("structure/type-unsupported-event")
def _type_unsupported_event(ctx: Context, at: HandlerAt) -> Iterator[Finding]:
    if at.kind and at.known is not None and at.kind not in at.known.types:
        yield ctx.finding("structure/type-unsupported-event", at.file, at.keys + ("type",), event=at.event,
                          type=at.kind, types=", ".join(t for t in TYPE_FIELDS if t in at.known.types))


def _timeout(ctx: Context, file: ConfigFile, handler: dict, keys: tuple, only: str | None = None) -> Iterator[Finding]:
    """The timeout rules (`only`: just this one of them), for a Claude Code handler or a Cursor entry."""
    if "timeout" not in handler:
        return
    value = handler["timeout"]
    if timeout_seconds(value) is None:
        rule = "timeout-invalid"
    elif value >= 1000:
        # whole minutes that are no round number of milliseconds (1800, 3600, 345600): a long
        # wait written in seconds on purpose, such as a hook that waits for a person
        rule = "timeout-long" if value % 60 == 0 and value % 500 else "timeout-milliseconds"
    else:
        return
    if only not in (None, f"structure/{rule}"):
        return
    if rule == "timeout-invalid":
        yield ctx.finding("structure/timeout-invalid", file, keys + ("timeout",), found=_shown(value))
    else:
        yield ctx.finding(f"structure/{rule}", file, keys + ("timeout",), value=_number(value),
                          human=_duration(value), seconds=_number(value / 1000))


HEADER_VARIABLE = lazy(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")


def _header_variables(handler: dict) -> Iterator[tuple[str, str]]:
    """(header, variable) for each `$VAR` / `${VAR}` in an http handler's header values."""
    headers = handler.get("headers")
    for name, value in headers.items() if isinstance(headers, dict) else ():
        for match in HEADER_VARIABLE.finditer(value) if isinstance(value, str) else ():
            yield name, match.group(1) or match.group(2)


def _allowed_variables(handler: dict) -> list[str]:
    allowed = handler.get("allowedEnvVars")
    return [name for name in allowed if isinstance(name, str)] if isinstance(allowed, list) else []


def _has_type(key: str, value: Any, kind: Any) -> bool:
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


def _expected(key: str, kind: Any) -> str:
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


def _unknown_event(ctx: Context, file: ConfigFile, event: str, host: str, events: Iterable[str],
                   folded: dict[str, str]) -> Finding:
    """A key under "hooks" that names no event: a note (`$comment`) or an event the host lacks."""
    if _note(event):
        return ctx.finding("structure/hooks-note-key", file, ("hooks", event), at_key=True, key=event, host=host, lost=_lost(file))
    return ctx.finding("structure/unknown-event", file, ("hooks", event), at_key=True, event=event, host=host,
                       suggestion=_suggest(event, events, folded))


def _lost(file: ConfigFile) -> str:
    """Claude Code rewrites its settings files (approvals into settings.local.json...), not managed
    settings, plugin or Cursor files."""
    return " and drops it when it rewrites the file" if file.kind == "claude-settings" and file.scope != "managed" \
        else ""


def _unknown_key(ctx: Context, file: ConfigFile, keys: tuple, key: str, kind: str | None, fields: dict,
                 host: str) -> Finding:
    if _note(key):
        return ctx.finding("structure/handler-note-key", file, keys + (key,), at_key=True, key=key, host=host, lost=_lost(file))
    return ctx.finding("structure/handler-unknown-key", file, keys + (key,), at_key=True, key=key, host=host,
                       hint=_unknown_key_hint(key, kind, fields))


def _unknown_key_hint(key: str, kind: str | None, fields: dict) -> str:
    if kind and key in ALL_TYPE_FIELDS:
        return f'"{key}" belongs to another handler type; a "{kind}" handler has: ' + ", ".join(fields)
    close = _close(key, fields, 0.6)
    if key == "cmd":
        close = ["command"]
    if close:
        return f'did you mean "{close[0]}"?'
    return "remove it: a handler has " + ", ".join(fields)


def _close(word: str, known, cutoff: float) -> list[str]:
    """The known name closest to a misspelt one (at most one), for "did you mean"."""
    import difflib  # only when something is misspelt

    return difflib.get_close_matches(word, list(known), n=1, cutoff=cutoff)


def _suggest(event: str, known: Any, folded: dict[str, str]) -> str:
    same = folded.get(fold(event))
    if same:
        return f' (did you mean "{same}"?)'
    close = _close(event, known, 0.75)
    return f' (did you mean "{close[0]}"?)' if close else ""


# ---- Claude Code settings: SchemaStore's schema outside "hooks" --------------------------------------

class SchemaError(NamedTuple):
    """One schema violation, as the rules below read it."""

    keys: tuple  # where the offending value is
    validator: str  # the schema keyword it breaks: type, enum, pattern, additionalProperties...
    instance: Any  # the offending value (for a key name that breaks propertyNames: the name)
    allowed: tuple = ()  # enum: the allowed values; type: the allowed types; additionalProperties: the extra keys
    message: str = ""

    @classmethod
    def of(cls, error: Any) -> "SchemaError":
        keys = tuple(error.instance_path)
        if error.kind.name == "propertyNames":  # judge the key name itself
            error = error.kind.error
        kind = error.kind
        allowed = getattr(kind, "options", None) or getattr(kind, "types", None) or getattr(kind, "unexpected", ())
        return cls(keys, kind.name, error.instance, tuple(allowed), error.message)


def settings_schema_errors(settings: dict) -> list[SchemaError]:
    """SchemaStore's complaints about a settings object, in document order of their paths
    (jsonschema-rs words them)."""
    errors = [SchemaError.of(error) for error in resources.schema_errors(SCHEMASTORE, settings)]
    return sorted(errors, key=lambda e: [str(k) for k in e.keys])


PERMISSION_LISTS = ("allow", "deny", "ask")
BUILTIN_TOOL_NAMES = frozenset(BUILTIN_TOOLS)
TOOL_NAME = lazy(r"[A-Za-z_][\w-]*")
PLAIN_RULE = lazy(r"mcp__[^(]*|[A-Za-z_][\w-]*(?:\([^()\\]+\))?")  # no parenthesis inside
SPECIFIER_TOKEN = lazy(r"\\.|[()]", re.S)  # an escaped character, or a parenthesis


def _schema(ctx: Context, file: ConfigFile, data: dict) -> Iterator[Finding]:
    rest = {key: value for key, value in data.items() if key != "hooks"}
    if not rest:
        return
    yield from _permission_rules(ctx, file, rest.get("permissions"))
    for error in settings_schema_errors(_without_permission_rules(rest)):
        keys = error.keys
        where = "/".join(str(k) for k in keys) or "the top level"
        rule = "structure/settings-schema-opinion" if _opinion(error, keys) else "structure/settings-schema"
        yield ctx.finding(rule, file, keys, where=where, problem=_problem(error))


def _without_permission_rules(settings: dict) -> dict:
    """Permission rules are read by our own check below: SchemaStore's pattern for them is one
    huge regex (four fifths of the time doctor spent on a corpus) and lags the host's tools."""
    permissions = settings.get("permissions")
    if not isinstance(permissions, dict):
        return settings
    lists = {key: [] for key in PERMISSION_LISTS if isinstance(permissions.get(key), list)}
    return {**settings, "permissions": {**permissions, **lists}}


def _permission_rules(ctx: Context, file: ConfigFile, permissions: Any) -> Iterator[Finding]:
    """Each rule must read as `Tool` or `Tool(specifier)`; a tool Claude Code does not have is
    worth a warning (SchemaStore's list lags the host, so not an error)."""
    if not isinstance(permissions, dict):
        return
    for key in PERMISSION_LISTS:
        rules = permissions.get(key)
        for index, rule in enumerate(rules if isinstance(rules, list) else []):
            if not isinstance(rule, str):
                rule_id, problem = "structure/settings-schema", f"{describe(rule)} should be a string"
            elif not _parses_as_permission_rule(rule):
                rule_id = "structure/settings-schema"
                problem = f"{json.dumps(rule)} is not a permission rule (Tool or Tool(specifier))"
            elif not rule.startswith("mcp__") and rule.split("(", 1)[0] not in BUILTIN_TOOL_NAMES:
                rule_id = "structure/settings-schema-opinion"
                problem = f"{json.dumps(rule)} names a tool Claude Code does not list"
            else:
                continue
            yield ctx.finding(rule_id, file, ("permissions", key, index), where=f"permissions/{key}/{index}",
                              problem=problem)


def _opinion(error: SchemaError, keys: tuple) -> bool:
    """Where SchemaStore is stricter than the host, as the corpus of real configs shows: the
    tools a permission rule may name (it lags the host's tool list), env names and values, and
    top-level settings newer than the schema. A permission rule that cannot parse, a wrong type,
    a missing field or an unknown key inside a known setting stays an error."""
    if error.validator == "additionalProperties":  # newer top-level settings, and notes to the reader
        return not keys or all(k.startswith(("_", "$", "//")) for k in error.allowed)
    if keys == ("env",):  # a variable's name: upper case is SchemaStore's taste, a space a real error
        return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(error.instance)) is not None
    if keys[:1] == ("env",):  # a variable's value
        return error.validator in ("pattern", "enum")
    return False


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
    for match in SPECIFIER_TOKEN.finditer(specifier):
        if match.group()[0] == "\\":
            continue
        depth += 1 if match.group() == "(" else -1
        if depth == 0:
            return match.end() == len(specifier)
    return False


def _problem(error: SchemaError) -> str:
    shown = _shown(error.instance)
    if error.validator == "pattern":
        return f"{shown} is not in the form the schema expects"
    if error.validator == "enum":
        allowed = ", ".join(json.dumps(v) for v in error.allowed[:8])
        return f"{shown} is not one of {allowed}" + (", ..." if len(error.allowed) > 8 else "")
    if error.validator == "type":
        return f"{shown} should be of type {' or '.join(error.allowed)}"
    message = error.message
    return message if len(message) <= 160 else message[:157] + "..."


# ---- Cursor hooks.json ---------------------------------------------------------------------------

def _cursor(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    yield from _outline(ctx, file, "Cursor", "preToolUse", FOLDED_CURSOR_EVENTS, FOLDED_CLAUDE_EVENTS)
    data = file.document.data
    hooks = data.get("hooks") if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        return
    for event, entries in hooks.items():
        if event not in CURSOR_EVENTS and fold(event) not in FOLDED_CLAUDE_EVENTS:  # Claude names: host rules
            yield _unknown_event(ctx, file, event, "Cursor", CURSOR_EVENTS, FOLDED_CURSOR_EVENTS)
            if _note(event):
                continue
        if not isinstance(entries, list):
            if event in CURSOR_EVENTS:
                yield ctx.finding("structure/event-not-list", file, ("hooks", event), event=event,
                                  found=describe(entries), items="hook entries", example='{"command": "..."}')
            continue
        for i, entry in enumerate(entries):
            yield from _cursor_entry(ctx, file, entry, ("hooks", event, i))


def _cursor_entry(ctx: Context, file: ConfigFile, entry: Any, keys: tuple) -> Iterator[Finding]:
    wrong = _not_an_object(ctx, file, entry, keys, "Cursor")
    if wrong is not None:
        yield wrong
        return
    if "hooks" in entry:  # a Claude Code group: host/cursor-claude-group says so
        return
    kind = entry.get("type", "command")
    if kind not in CURSOR_TYPES:
        yield ctx.finding("structure/type-unknown", file, keys + ("type",), found=json.dumps(kind), host="Cursor",
                          types=", ".join(CURSOR_TYPES))
    elif kind not in entry:  # a command entry needs "command", a prompt entry "prompt"
        yield ctx.finding("structure/field-missing", file, keys, type=kind, field=kind)
    for key, value in entry.items():
        if key == "timeout" or key in CLAUDE_ONLY_FIELDS:  # Claude Code's fields: host/cursor-claude-field
            continue
        if key not in CURSOR_FIELDS:
            yield _unknown_key(ctx, file, keys, key, None, CURSOR_FIELDS, "Cursor")
        elif not _has_type(key, value, CURSOR_FIELDS[key]):
            yield ctx.finding("structure/field-type", file, keys + (key,), field=key, found=_shown(value),
                              expected=_expected(key, CURSOR_FIELDS[key]))
    yield from _timeout(ctx, file, entry, keys)


# ---- Claude plugin manifests ---------------------------------------------------------------------

def _manifests_naming_default_hooks(ctx: Context) -> Iterator[Finding]:
    """A plugin's `.claude-plugin/plugin.json` whose `hooks` names `hooks/hooks.json`: Claude Code
    loads that file anyway, and refuses the second load ("Duplicate hooks file detected")."""
    roots = {resolved(p.install_path) for p in ctx.plugins if p.install_path is not None}
    roots |= {resolved(f.plugin_root) for f in ctx.files if f.plugin_root is not None}
    for root in sorted(roots):
        default = root / "hooks" / "hooks.json"
        manifest = _manifest(ctx, root / ".claude-plugin" / "plugin.json")
        named = manifest.document.data.get("hooks") if manifest and isinstance(manifest.document.data, dict) else None
        listed = [(("hooks",), named)] if isinstance(named, str) else \
            [(("hooks", i), item) for i, item in enumerate(named)] if isinstance(named, list) else []
        for keys, item in listed:
            if isinstance(item, str) and default.is_file() and resolved(root / item) == resolved(default):
                yield ctx.finding("structure/plugin-manifest-names-default-hooks", manifest, keys, value=json.dumps(item))


def _manifest(ctx: Context, path: Path) -> ConfigFile | None:
    """The manifest as doctor read it (inline hooks make it a hooks file), else read now; None
    when there is none or it does not parse."""
    if not path.is_file():
        return None
    file = next((f for f in ctx.files if f.path == path), None) or load.read(Candidate(path, "plugin", "claude-plugin-hooks"))
    return file if file.document is not None else None


# ---- switches that explain why hooks do not run ------------------------------------------------------

def hooks_disabled_by(files: list[ConfigFile]) -> list[ConfigFile]:
    """The settings files whose `disableAllHooks: true` counts: of the scopes, only the value with
    the highest precedence (a project `false` overrides a user `true`); each named file alone."""
    settings = _settings(files)
    deciding = [f for f in settings if f.scope not in SCOPE_ORDER]
    having = [f for f in settings if f.scope in SCOPE_ORDER and DISABLE_ALL in f.document.data]
    if having:  # later managed drop-ins win over earlier ones
        deciding.append(max(enumerate(having), key=lambda p: (SCOPE_ORDER[p[1].scope], p[0]))[1])
    return [f for f in deciding if f.document.data.get(DISABLE_ALL) is True]


def _settings(files: list[ConfigFile]) -> list[ConfigFile]:
    return [f for f in files if f.kind == "claude-settings" and f.document is not None
            and isinstance(f.document.data, dict)]


def _kill_switches(ctx: Context) -> Iterator[Finding]:
    for file in hooks_disabled_by(ctx.files):
        note = (" (in managed settings: every hook is off, managed ones included)" if _managed(file)
                else " (hooks from settings files and plugins are off; managed hooks still run)")
        yield ctx.finding("structure/hooks-disabled", file, (DISABLE_ALL,), scope_note=note)
    for file in _settings(ctx.files):
        for key in MANAGED_ONLY_KEYS:
            value = file.document.data.get(key)
            on = value is True if key == "allowManagedHooksOnly" else (
                value is True or (isinstance(value, list) and "hooks" in value))
            if not on:
                continue
            yield ctx.finding("structure/managed-hooks-only", file, (key,), key=key,
                              variant=None if _managed(file) else "outside-managed")


def _managed(file: ConfigFile) -> bool:
    return file.scope == "managed" or file.path.name.startswith("managed-settings")
