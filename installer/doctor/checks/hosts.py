"""Host: is each file in the format of the host that reads it, and are its plugins there?"""
from __future__ import annotations

import json
import re
from typing import Iterator

from installer.doctor.facts import CLAUDE_TO_CURSOR, CURSOR_EVENTS, FOLDED_CLAUDE_EVENTS, fold
from installer.doctor.model import ConfigFile, Context, Finding
from installer.hosts import cursor_protocol

CLAUDE_TO_CURSOR_TOOLS = {"Bash": "Shell"}  # other-hosts.md §1.4 (Edit, Read, Write, Grep, Task: the same)
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
            if isinstance(entry, dict) and "hooks" in entry:
                yield ctx.finding("host/cursor-claude-group", file, ("hooks", event, i))
            elif isinstance(entry, dict) and _matched_on(event, cursor_protocol.TOOL) and isinstance(entry.get("matcher"), str):
                yield from _claude_tool_names(ctx, file, ("hooks", event, i, "matcher"), entry["matcher"])


def _matched_on(event: str, subject: str) -> bool:
    row = cursor_protocol.protocol(event)
    return row is not None and row.matcher_subject == subject


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
