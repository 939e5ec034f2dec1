"""Structure: does each file parse, and is every event, group and handler in the shape its host reads?

check() walks each file down to its handlers and hands each unit to the table of its rules, one
function per rule: a file, parsed or not, to the tables here (FILE_RULES: its outline, a guard hook
that breaks the file for Claude Code, and Claude Code's settings outside "hooks", which settings.py
reads; UNPARSED_RULES: one that could not be read or parsed), each event under "hooks" and each
Claude Code matcher group to events.py, each handler (Claude Code's, or a Cursor entry) to
handlers.py. Each reads one file (a merged setting, such as httpHookAllowedEnvVars, from the run's
files); what weighs the files together, the kill switches and the plugin manifests, is scopes.py.
What differs between the two hosts' files is data, in a Format (handlers.py, with what the families
share), so that a rule both hosts share is one function. (The file rules and the walk share this
module, the events and groups one: each module every run loads is about 0.3 M instructions before
its own code.)
"""
from __future__ import annotations

from typing import Any, Iterator

from .... import hosts
from ....errors import ErrorKind, HookwrightError
from ....hooks.events import (
    REQUIRED_FIELDS,
    SHELLS,
    fold,
)
from ....hosts.base import describe, outline_problem
from ....hosts.claude.protocol import GUARD_EVENTS
from ...model import HOST_NAMES, ConfigFile, Context, Finding, RuleTable, cached_property
from .events import EVENT_RULES, GROUP_RULES, EventAt
from .handlers import FORMATS, HANDLER_RULES, Format, HandlerAt, expected
from .settings import SettingsProblem, problems_outside_hooks, shown_value


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


FILE_RULES = RuleTable()  # a parsed file, as a whole
UNPARSED_RULES = RuleTable()  # a file that could not be read or parsed

# ---- a parsed file: its outline, and Claude Code's settings outside "hooks" ------------------------

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
        # once per distinct file text in a run: the projects of a monorepo often share their
        # settings (the corpus tree four times over, 1,076 files: 68 to 20 ms of a run; the tree once, 269: the same)
        text = self.file.document.text if self.file.document is not None else None
        found = _PROBLEMS.get(text) if text is not None else None
        if found is None:
            if len(_PROBLEMS) >= 4096:
                _PROBLEMS.clear()
            found = problems_outside_hooks(rest)
            if text is not None:
                _PROBLEMS[text] = found
        return found


_PROBLEMS: dict[str, list[SettingsProblem]] = {}  # FileAt.settings_problems by file text (never changed)


@FILE_RULES.rule("structure/not-object", alone=True)
def _not_object(ctx: Context, at: FileAt) -> Iterator[Finding]:
    if at.outline and not at.outline[0]:
        yield ctx.finding("structure/not-object", at.file, (), found=at.outline[1])


@FILE_RULES.rule("structure/not-utf8")
def _not_utf8(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A byte the host read as U+FFFD (Host.text_reading): the file loads, but not as written."""
    undecoded = at.file.document.undecoded if at.file.document is not None else None
    if undecoded is not None:
        byte, line, column = undecoded
        yield ctx.finding_at("structure/not-utf8", at.file, line, column, byte=f"0x{byte:02x}", host=at.format.host)


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


@FILE_RULES.rule("structure/hooks-key-misspelt")
def _hooks_key_misspelt(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """`"Hooks"`, `"hook"`: a top-level key that is "hooks" written otherwise, holding events of the
    host, in a file without "hooks" of its own: its hooks never run (keys are exact)."""
    if "hooks" in at.top_level or not at.format.exact_events:
        return
    for key, value in at.top_level.items():
        if fold(key) in ("hooks", "hook") and isinstance(value, dict) \
                and any(fold(str(name)) in at.format.folded for name in value):
            # guard events' hooks there void the whole settings file, as at the top level (measured)
            voids = at.file.kind == "claude-settings" and any(value.get(event) for event in GUARD_EVENTS)
            yield ctx.finding("structure/hooks-key-misspelt", at.file, (key,), at_key=True, key=key,
                              host=at.format.host, variant="voids-the-file" if voids else None)
            return


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
        return f"\"type\" is {shown_value(value['type'])}"
    missing = [field for field in REQUIRED_FIELDS[at.kind] if field not in value]
    if missing:
        return f"it has no \"{missing[0]}\""
    wrong = at.keys_for("structure/field-type")
    if wrong:
        return f"\"{wrong[0]}\" is {shown_value(value[wrong[0]])}, not {expected(wrong[0], at.fields[wrong[0]])}"
    if at.timeout_rule == "structure/timeout-invalid":
        return f"\"timeout\" is {shown_value(value['timeout'])}, not a number above 0"
    if at.kind == "command" and isinstance(value.get("shell"), str) and value["shell"] not in SHELLS:
        return f"\"shell\" is {shown_value(value['shell'])}"
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


# ---- a file that did not parse -----------------------------------------------------------------------

class Unparsed:
    """A file doctor could not read, or whose JSON did not parse."""

    def __init__(self, file: ConfigFile, error: HookwrightError) -> None:
        self.file = file
        self.error = error  # why it could not be read or parsed

    def finding(self, ctx: Context, rule_id: str, variant: str | None = None, **params: Any) -> Finding:
        """At the error's own line and column, with the reader's hint."""
        return ctx.finding_at(rule_id, self.file, self.error.line, self.error.column, variant=variant,
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
        known = hosts.of_kind(at.file.kind)
        host = known.title if known is not None else HOST_NAMES.get(at.file.host, HOST_NAMES["claude"])  # (unknown: as Claude Code's)
        effect = known.unparsed_effect(at.file.path) if known is not None else None  # (a host's other format)
        yield at.finding(ctx, "structure/invalid-json", detail=at.error.reason if effect is None else at.error.message,
                         host=host, variant=effect)
