"""Host: is each file in the format of the host that reads it, and are its plugins there?"""
from __future__ import annotations

import json
import re
from typing import Iterator

from ...hosts import cursor_protocol
from ..facts import BUILTIN_TOOLS, CLAUDE_ONLY_FIELDS, CLAUDE_TO_CURSOR, CURSOR_EVENTS, FOLDED_CLAUDE_EVENTS, fold
from ..model import ConfigFile, Context, Finding
from ..regex.matching import js_regex

CLAUDE_TO_CURSOR_TOOLS = {"Bash": "Shell"}  # docs/hosts/cursor.md#matchers (Edit, Read, Write, Grep, Task: the same)
TOOL_NAMES = frozenset(cursor_protocol.TOOL_TYPES + BUILTIN_TOOLS)  # Cursor's tool types and Claude Code's tools
OTHER_AGENTS = {  # (opencode's files have checks of their own: checks/opencode.py)
    "gemini-hooks": "Gemini CLI hooks (BeforeTool/AfterTool-style events, timeouts in milliseconds)",
    "grok-hooks": "a Grok CLI plugin's hooks",
}


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        if file.kind in OTHER_AGENTS:
            yield ctx.finding("host/other-agent-format", file, (), what=OTHER_AGENTS[file.kind])
        elif file.kind == "unknown" and file.error is None:
            yield ctx.finding("host/unrecognised-file", file, (), why=_why(file))
        elif file.kind == "cursor-hooks" and file.document is not None and isinstance(file.document.data, dict):
            yield from _cursor(ctx, file)
    for plugin in ctx.plugins:
        if plugin.install_path is None:
            yield ctx.finding("host/plugin-not-installed", plugin.enabled_in, ("enabledPlugins", plugin.id),
                              plugin=plugin.id)


def _why(file: ConfigFile) -> str:
    if file.path.suffix.lower() in (".js", ".ts", ".mjs", ".cjs", ".mts"):
        return "a script, not an opencode plugin"
    return "not JSON" if ".json" not in file.path.name.lower() else "unknown format"


def _cursor(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    data = file.document.data
    if "version" not in data and not _plugin_file(file):
        yield ctx.finding("host/cursor-version-missing", file, ())
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return
    for event, entries in hooks.items():
        claude_name = FOLDED_CLAUDE_EVENTS.get(fold(event))
        if event not in CURSOR_EVENTS and claude_name:
            cursor_name = CLAUDE_TO_CURSOR.get(claude_name)
            if cursor_name:
                yield ctx.finding("host/cursor-claude-event", file, ("hooks", event), at_key=True, event=event,
                                  cursor_name=f' (Cursor calls it "{cursor_name}")',
                                  hint=f'rename it to "{cursor_name}"')
            else:
                yield ctx.finding("host/cursor-claude-event", file, ("hooks", event), at_key=True, event=event, cursor_name="",
                                  hint="Cursor has no such event: keep this hook in Claude Code's settings")
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict):
                yield from _cursor_entry(ctx, file, event, entry, ("hooks", event, i))


def _cursor_entry(ctx: Context, file: ConfigFile, event: str, entry: dict, keys: tuple) -> Iterator[Finding]:
    if "hooks" in entry:
        yield ctx.finding("host/cursor-claude-group", file, keys)
        return
    yield from _claude_fields(ctx, file, entry, keys)
    row = cursor_protocol.protocol(event)
    if row is None:
        return
    yield from _fields_without_effect(ctx, file, event, row, entry, keys)
    matcher = entry.get("matcher")
    if not isinstance(matcher, str):
        return
    if row.matcher_subject == cursor_protocol.TOOL:
        yield from _claude_tool_names(ctx, file, keys + ("matcher",), matcher)
    elif row.matcher_subject == cursor_protocol.COMMAND:
        yield from _tool_named_on_command(ctx, file, event, keys + ("matcher",), matcher)
    elif row.matcher_subject == cursor_protocol.LITERAL:
        yield from _literal_missed(ctx, file, event, row.literal, keys + ("matcher",), matcher)


CLAUDE_FIELD_HINTS = {
    "if": "put the condition in the matcher or in the script",
    "args": "write the arguments into \"command\": Cursor runs it as one shell string",
    "url": "Cursor runs commands only: call the endpoint from a script (curl ...)",
    "headers": "Cursor runs commands only: call the endpoint from a script (curl ...)",
    "allowedEnvVars": "Cursor runs commands only: call the endpoint from a script (curl ...)",
}


def _claude_fields(ctx: Context, file: ConfigFile, entry: dict, keys: tuple) -> Iterator[Finding]:
    """Claude Code handler fields copied into a Cursor entry (`async`, `if`, `statusMessage`,
    `args`...): Cursor's entries have none of them, so what they ask for does not happen."""
    for key in entry:
        if key in CLAUDE_ONLY_FIELDS:
            yield ctx.finding("host/cursor-claude-field", file, keys + (key,), at_key=True, field=key,
                              hint=CLAUDE_FIELD_HINTS.get(key, f'remove "{key}"'))


def _fields_without_effect(ctx: Context, file: ConfigFile, event: str, row: cursor_protocol.CursorEventProtocol,
                           entry: dict, keys: tuple) -> Iterator[Finding]:
    """Cursor fields that the event (or the entry's type) never uses: `loop_limit` caps only
    follow-ups, `failClosed: true` only blocks where the event can block, `model` and `prompt`
    belong to prompt hooks."""
    why = {}
    if "loop_limit" in entry and not row.continues:
        why["loop_limit"] = (f"it caps the follow-up messages of {_events_where('continues')}, "
                             f"and {event} sends none")
    if entry.get("failClosed") is True and not row.blocks:
        why["failClosed"] = f"it makes a failed hook block the action, and {event} cannot block"
    if entry.get("type", "command") == "command":
        why.update({key: "it belongs to a prompt hook (\"type\": \"prompt\"), and this entry runs a command"
                    for key in ("model", "prompt") if key in entry})
    for key, reason in why.items():
        yield ctx.finding("host/cursor-field-no-effect", file, keys + (key,), at_key=True, field=key, event=event,
                          why=reason)


def _events_where(flag: str) -> str:
    return " and ".join(event for event, row in cursor_protocol.PROTOCOL.items() if getattr(row, flag))


SHELL_TOOL_NAMES = ("Shell", "Bash")


def _tool_named_on_command(ctx: Context, file: ConfigFile, event: str, keys: tuple, matcher: str) -> Iterator[Finding]:
    """On beforeShellExecution / afterShellExecution the matcher is tested against the command
    text: a tool type there (`Shell`, `Bash`, `Read`) matches only commands that contain the word."""
    names = [alt.strip().removeprefix("^").removesuffix("$") for alt in matcher.split("|")]
    tools = [name for name in names if name in TOOL_NAMES]
    if not tools:
        return
    if all(name in SHELL_TOOL_NAMES for name in names):
        hint = f"remove the matcher: {event} runs for every shell command"
    else:
        hint = 'write a pattern over the command text, e.g. "^git push|rm -rf", or remove the matcher'
    yield ctx.finding("host/cursor-command-matcher-names-tool", file, keys, matcher=json.dumps(matcher),
                      event=event, tools=" or ".join(json.dumps(name) for name in tools), hint=hint)


def _literal_missed(ctx: Context, file: ConfigFile, event: str, literal: str, keys: tuple,
                    matcher: str) -> Iterator[Finding]:
    """beforeSubmitPrompt, stop, afterAgentResponse and afterAgentThought test their matcher
    against one fixed value (`UserPromptSubmit`, `Stop`...): a matcher that misses it never fires."""
    if matcher.strip() in ("", "*"):
        return
    translated = js_regex(matcher)
    if translated.pattern is not None and not translated.pattern.search(literal):
        yield ctx.finding("host/cursor-matcher-misses-literal", file, keys, matcher=json.dumps(matcher),
                          event=event, literal=literal)


def _claude_tool_names(ctx: Context, file: ConfigFile, keys: tuple, matcher: str) -> Iterator[Finding]:
    """A Cursor matcher that names tools as Claude Code does (`Bash`, `mcp__srv__tool`): Cursor's
    tool types are `Shell`, `Read`, `Write`..., and MCP tools are `MCP:<tool>`."""
    alternatives = matcher.split("|")
    names, renamed = claude_tool_names(matcher)
    if renamed:
        suggestion = "|".join(alt.replace(name, renamed[name]) if name in renamed else alt
                              for alt, name in zip(alternatives, names))
        yield ctx.finding("host/cursor-claude-tool-name", file, keys, matcher=json.dumps(matcher),
                          names=", ".join(f"{name} (Cursor's is {cursor})" for name, cursor in renamed.items()),
                          suggestion=json.dumps(suggestion))


def claude_tool_names(matcher: str) -> tuple[list[str], dict[str, str]]:
    """The names a Cursor matcher's alternatives give (`^Bash$` gives Bash), and those that are
    Claude Code's tool names, with Cursor's name for each (Bash: Shell)."""
    names = [alt.strip().removeprefix("^").removesuffix("$") for alt in matcher.split("|")]
    renamed = {name: CLAUDE_TO_CURSOR_TOOLS.get(name) or _cursor_mcp_name(name) for name in names}
    return names, {name: cursor for name, cursor in renamed.items() if cursor and cursor not in names}


def _cursor_mcp_name(name: str) -> str | None:
    server, _, tool = name.removeprefix("mcp__").partition("__")
    return f"MCP:{tool}" if name.startswith("mcp__") and server and re.fullmatch(r"[\w-]+", tool or "") else None


def _plugin_file(file: ConfigFile) -> bool:
    """A Cursor plugin's hook file, where `version` is optional (not .cursor/hooks.json)."""
    return file.scope == "plugin" or (file.path.parent.name == "hooks" and ".cursor" not in file.path.parts)
