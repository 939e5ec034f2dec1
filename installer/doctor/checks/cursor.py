"""Cursor's own hooks files (the kind cursor-hooks): is each in Cursor's format, and does each entry
do what it says? A run without such a file does not import this module (run.CHECK_KINDS): the
Claude Code files of a typical run loaded it with the host rules, for nothing.

A script's answer as Cursor reads it is checks/scripts/'s; a Cursor hook that does the job of a
Claude Code hook the same project runs, checks/conflicts/cross_host.py's."""
from __future__ import annotations

import json
from typing import Any, Iterator

from ...hooks.events import (
    BUILTIN_TOOLS,
    CLAUDE_ONLY_FIELDS,
    CLAUDE_TO_CURSOR,
    CURSOR_EVENTS,
    FOLDED_CLAUDE_EVENTS,
    fold,
)
from ...hooks.regex import js_regex
from ...hosts.cursor import protocol as cursor_protocol
from ..model import ConfigFile, Context, Finding, RuleTable, cached_property

CLAUDE_TO_CURSOR_TOOLS = {"Bash": "Shell"}  # docs/hosts/cursor.md#matchers (Edit, Read, Write, Grep, Task: the same)
TOOL_NAMES = frozenset(cursor_protocol.TOOL_TYPES + BUILTIN_TOOLS)  # Cursor's tool types and Claude Code's tools
# the Claude Code handler fields whose hint host/cursor-claude-field words otherwise (its variants)
CLAUDE_FIELD_VARIANTS = {"if": "condition", "args": "arguments", "url": "http", "headers": "http",
                         "allowedEnvVars": "http"}
SHELL_TOOL_NAMES = ("Shell", "Bash")
# the events whose `followup_message` keeps the agent going (what `loop_limit` caps)
CONTINUING_EVENTS = " and ".join(event for event, row in cursor_protocol.PROTOCOL.items() if row.continues)


class FileAt:
    """A Cursor hooks.json doctor read, as the rules of a whole file read it."""

    def __init__(self, file: ConfigFile) -> None:
        self.file = file

    @cached_property
    def cursor_data(self) -> dict[str, Any] | None:
        """The top-level object of a Cursor hooks.json (None: not one, or not an object)."""
        file = self.file
        if file.kind != "cursor-hooks" or file.document is None or not isinstance(file.document.data, dict):
            return None
        return file.document.data

    @cached_property
    def cursor_hooks(self) -> dict[str, Any]:
        """Its "hooks" object: Cursor's events by name ({} where there is none)."""
        hooks = self.cursor_data.get("hooks") if self.cursor_data is not None else None
        return hooks if isinstance(hooks, dict) else {}

    def entries(self) -> Iterator[CursorEntry]:
        """Each object among its events' entries (the structure rules report the others)."""
        for event, entries in self.cursor_hooks.items():
            for index, entry in enumerate(entries if isinstance(entries, list) else []):
                if isinstance(entry, dict):
                    yield CursorEntry(self.file, event, entry, ("hooks", event, index))


class CursorEntry:
    """One entry of a Cursor hooks.json, as every entry rule reads it."""

    def __init__(self, file: ConfigFile, event: str, value: dict[str, Any], keys: tuple[str | int, ...]) -> None:
        self.file = file
        self.event = event
        self.value = value
        self.keys = keys

    @cached_property
    def protocol(self) -> cursor_protocol.CursorEventProtocol | None:
        """What Cursor does with its event (None: an event Cursor does not have)."""
        return cursor_protocol.protocol(self.event)

    @property
    def matcher(self) -> str | None:
        """Its "matcher", where that is a string."""
        matcher = self.value.get("matcher")
        return matcher if isinstance(matcher, str) else None

    def matched_against(self, subject: str) -> str | None:
        """Its matcher, where its event tests the matcher against `subject` (cursor_protocol's TOOL...)."""
        return self.matcher if self.protocol is not None and self.protocol.matcher_subject == subject else None

    def finding(self, ctx: Context, rule_id: str, keys: tuple[str | int, ...] = (), at_key: bool = False,
                variant: str | None = None, **params: Any) -> Finding:
        """A finding about the entry, or about its value at `keys`."""
        return ctx.finding(rule_id, self.file, self.keys + keys, at_key=at_key, variant=variant, **params)


FILE_RULES = RuleTable()  # the rules of one whole Cursor hooks.json, one function each
ENTRY_RULES = RuleTable()  # the rules of one Cursor entry, one function each


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        at = FileAt(file)
        if at.cursor_data is None:
            continue
        yield from FILE_RULES.run(ctx, at)
        for entry in at.entries():
            yield from ENTRY_RULES.run(ctx, entry)


# ---- a whole file --------------------------------------------------------------------------------------

@FILE_RULES.rule("host/cursor-version-missing")
def _cursor_version_missing(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """Required in a project's hooks.json (other-hosts.md 1.2); a user's or a plugin's may omit it."""
    if at.cursor_data is not None and "version" not in at.cursor_data and not _plugin_file(at.file) \
            and at.file.scope in ("project", "given"):
        yield ctx.finding("host/cursor-version-missing", at.file, ())


@FILE_RULES.rule("host/cursor-version-invalid")
def _cursor_version_invalid(ctx: Context, at: FileAt) -> Iterator[Finding]:
    version = at.cursor_data.get("version", 1) if at.cursor_data is not None else 1
    if isinstance(version, bool) or not (isinstance(version, (int, float)) and version == 1):  # (1.0 is 1 to JSON)
        yield ctx.finding("host/cursor-version-invalid", at.file, ("version",), found=json.dumps(version))


@FILE_RULES.rule("host/cursor-claude-event")
def _cursor_claude_event(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A Claude Code event name (in any case) that Cursor does not have, as a Cursor event."""
    for event in at.cursor_hooks:
        claude_name = FOLDED_CLAUDE_EVENTS.get(fold(event))
        if event in CURSOR_EVENTS or not claude_name:
            continue
        cursor_name = CLAUDE_TO_CURSOR.get(claude_name)
        yield ctx.finding("host/cursor-claude-event", at.file, ("hooks", event), at_key=True, event=event,
                          cursor_name=cursor_name, variant=None if cursor_name else "no-cursor-event")


def _plugin_file(file: ConfigFile) -> bool:
    """A Cursor plugin's hook file, where `version` is optional (not .cursor/hooks.json)."""
    return file.scope == "plugin" or (file.path.parent.name == "hooks" and ".cursor" not in file.path.parts)


# ---- one Cursor entry ----------------------------------------------------------------------------------

@ENTRY_RULES.rule("host/cursor-claude-group", alone=True)
def _cursor_claude_group(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """A Claude Code matcher group where a flat entry belongs: nothing else in it is read."""
    if "hooks" in entry.value:
        yield entry.finding(ctx, "host/cursor-claude-group")


@ENTRY_RULES.rule("host/cursor-claude-field")
def _cursor_claude_field(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """Claude Code handler fields copied into a Cursor entry (`async`, `if`, `statusMessage`,
    `args`...): Cursor's entries have none of them, so what they ask for does not happen."""
    for key in entry.value:
        if key in CLAUDE_ONLY_FIELDS:
            yield entry.finding(ctx, "host/cursor-claude-field", (key,), at_key=True, field=key,
                                variant=CLAUDE_FIELD_VARIANTS.get(key))


@ENTRY_RULES.rule("host/cursor-field-no-effect")
def _cursor_field_no_effect(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """Cursor fields that the event (or the entry's type) never uses: `loop_limit` caps only
    follow-ups, `failClosed: true` only blocks where the event can block, `model` and `prompt`
    belong to prompt hooks."""
    row, value = entry.protocol, entry.value
    if row is None:
        return
    unused: dict[str, str | None] = {}  # field: the variant that says why
    if "loop_limit" in value and not row.continues:
        unused["loop_limit"] = None
    if value.get("failClosed") is True and not row.blocks:
        unused["failClosed"] = "cannot-block"
    if value.get("type", "command") == "command":
        unused.update({key: "prompt-field" for key in ("model", "prompt") if key in value})
    for key, variant in unused.items():
        yield entry.finding(ctx, "host/cursor-field-no-effect", (key,), at_key=True, field=key, event=entry.event,
                            events=CONTINUING_EVENTS, variant=variant)


@ENTRY_RULES.rule("host/cursor-claude-tool-name")
def _cursor_claude_tool_name(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """A Cursor matcher that names tools as Claude Code does (`Bash`, `mcp__srv__tool`): Cursor's
    tool types are `Shell`, `Read`, `Write`..., and MCP tools are `MCP:<tool>`."""
    matcher = entry.matched_against(cursor_protocol.TOOL)
    if matcher is None:
        return
    names, renamed = claude_tool_names(matcher)
    if renamed:
        suggestion = "|".join(alt.replace(name, renamed[name]) if name in renamed else alt
                              for alt, name in zip(matcher.split("|"), names))
        yield entry.finding(ctx, "host/cursor-claude-tool-name", ("matcher",), matcher=json.dumps(matcher),
                            names=", ".join(f"{name} (Cursor's is {cursor})" for name, cursor in renamed.items()),
                            suggestion=json.dumps(suggestion))


@ENTRY_RULES.rule("host/cursor-command-matcher-names-tool")
def _cursor_command_matcher_names_tool(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """On beforeShellExecution / afterShellExecution the matcher is tested against the command
    text: a tool type there (`Shell`, `Bash`, `Read`) matches only commands that contain the word."""
    matcher = entry.matched_against(cursor_protocol.COMMAND)
    if matcher is None:
        return
    names = _alternatives(matcher)
    tools = [name for name in names if name in TOOL_NAMES]
    if tools:
        yield entry.finding(ctx, "host/cursor-command-matcher-names-tool", ("matcher",), matcher=json.dumps(matcher),
                            event=entry.event, tools=" or ".join(json.dumps(name) for name in tools),
                            variant="shell-only" if all(name in SHELL_TOOL_NAMES for name in names) else None)


@ENTRY_RULES.rule("host/cursor-matcher-misses-literal")
def _cursor_matcher_misses_literal(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """beforeSubmitPrompt, stop, afterAgentResponse and afterAgentThought test their matcher
    against one fixed value (`UserPromptSubmit`, `Stop`...): a matcher that misses it never fires."""
    matcher = entry.matched_against(cursor_protocol.LITERAL)
    literal = entry.protocol.literal if entry.protocol is not None else None
    if matcher is None or literal is None or matcher.strip() in ("", "*"):
        return
    translated = js_regex(matcher)
    if translated.pattern is not None and not translated.pattern.search(literal):
        yield entry.finding(ctx, "host/cursor-matcher-misses-literal", ("matcher",), matcher=json.dumps(matcher),
                            event=entry.event, literal=literal)


def claude_tool_names(matcher: str) -> tuple[list[str], dict[str, str]]:
    """The names a Cursor matcher's alternatives give (`^Bash$` gives Bash), and those that are
    Claude Code's tool names, with Cursor's name for each (Bash: Shell)."""
    names = _alternatives(matcher)
    renamed = {name: CLAUDE_TO_CURSOR_TOOLS.get(name) or _cursor_mcp_name(name) for name in names}
    return names, {name: cursor for name, cursor in renamed.items() if cursor and cursor not in names}


def _alternatives(matcher: str) -> list[str]:
    """The names a matcher's alternatives give, anchors aside (`^Bash$|Read` gives Bash, Read)."""
    return [alt.strip().removeprefix("^").removesuffix("$") for alt in matcher.split("|")]


def _cursor_mcp_name(name: str) -> str | None:
    """Cursor's name for a Claude Code MCP tool name or pattern: `MCP:<tool>`, which names no
    server (`mcp__github__.*` gives `MCP:.*`, `mcp__.*` too)."""
    if not name.startswith("mcp__"):
        return None
    server, _, tool = name.removeprefix("mcp__").partition("__")
    if server in (".*", ".+") and not tool:
        return "MCP:.*"
    return f"MCP:{tool}" if server and tool else None
