"""Cursor's third-party loading (CURSOR_CLAUDE_RULES): a Cursor hook that does the job of a
Claude Code hook the same Cursor project also runs (docs/hosts/cursor.md#config-files)."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Iterator

from .... import hosts, safe_read
from ....hooks.events import CLAUDE_TO_CURSOR
from ....hooks.regex import Matcher, classify
from ....hosts.claude import adapter as claude
from ....hosts.claude import user_dir as claude_user_dir
from ....hosts.cursor import protocol as cursor_protocol
from ....hosts.cursor import user_dir as cursor_user_dir
from ... import handler_facts
from ...model import ConfigFile, Context, Finding, Handler, RuleTable, resolved
from ..cursor import claude_tool_names
from . import at_handler, first_found, place

# Claude Code events and the Cursor events that do the same job (besides CLAUDE_TO_CURSOR)
CURSOR_ALSO = {"PreToolUse": ("beforeShellExecution", "beforeMCPExecution", "beforeReadFile"),
               "PostToolUse": ("afterShellExecution", "afterFileEdit", "afterMCPExecution")}
GENERIC_NAMES = frozenset({"index.js", "index.ts", "index.mjs", "main.py", "hook.sh", "hook.py", "hook.js", "run.sh",
                           "hooks.sh", "run-hook.cmd", "cli.js", "__main__.py"})

CURSOR_CLAUDE_RULES = RuleTable()  # a Cursor entry beside a Claude Code hook Cursor also runs (CursorBeside)


def check(ctx: Context) -> Iterator[Finding]:
    for claude_hooks in _claude_hooks_beside_cursor_entries(ctx):
        yield from first_found(ctx, CURSOR_CLAUDE_RULES, claude_hooks)


# ---- Cursor's third-party loading of Claude Code hooks -------------------------------------------------

class CursorBeside:
    """A Cursor command entry, and a Claude Code hook on the matching event that Cursor also runs."""

    def __init__(self, entry: Handler, claude: Handler) -> None:
        self.entry = entry
        self.claude = claude


def _runs_claude_hooks(file: ConfigFile) -> bool:
    """A file of a host that also runs Claude Code's hooks in its projects (Host.runs_hooks_of)."""
    host = hosts.of(file.host)
    return host is not None and host.runs_hooks_of == claude.HOST.name


def _cursor_project(path: Path) -> Path | str | None:
    """The project a Cursor hooks.json belongs to; "user" for ~/.cursor/hooks.json."""
    real = resolved(path)
    if real.parent == resolved(cursor_user_dir()):
        return "user"
    if real.parent.name == ".cursor" and real.name == "hooks.json":
        return real.parent.parent
    return None


def _claude_project(path: Path, user_settings: Path) -> Path | str | None:
    real = resolved(path)
    if real == user_settings:
        return "user"
    if real.parent.name == ".claude" and real.name in ("settings.json", "settings.local.json"):
        return real.parent.parent
    return None


def _claude_hooks_beside_cursor_entries(ctx: Context) -> Iterator[Iterator[CursorBeside]]:
    """For each Cursor command entry, the Claude Code hooks of its project (and the user's) on the
    matching event, one by one (the first that does its job is the finding)."""
    cursor_files = {id(f): p for f in ctx.files if _runs_claude_hooks(f) and (p := _cursor_project(f.path))}
    if not cursor_files:
        return
    user_settings = resolved(claude_user_dir() / "settings.json")
    claude_files = {id(f): p for f in ctx.files
                    if f.kind == "claude-settings" and (p := _claude_project(f.path, user_settings))}
    if not claude_files:
        return
    # Claude Code handlers by (Cursor event, project), "user" being every project's
    by_place: dict[tuple[str, Path | str], list[Handler]] = defaultdict(list)
    for handler in ctx.handlers:
        place = claude_files.get(id(handler.file))
        if place:
            for cursor_event in _cursor_events(handler.event):
                by_place[(cursor_event, place)].append(handler)
    for handler in ctx.handlers:
        project = cursor_files.get(id(handler.file))
        if not project or handler_facts.kind(handler) != "command":
            continue
        if project == "user":  # a user-level Cursor hook runs in every project
            others = [h for (event, _), hs in by_place.items() if event == handler.event for h in hs]
        else:
            others = by_place.get((handler.event, project), []) + by_place.get((handler.event, "user"), [])
        yield (CursorBeside(handler, other) for other in others)


def _cursor_events(event: str) -> tuple[str, ...]:
    mapped = CLAUDE_TO_CURSOR.get(event)
    return ((mapped,) if mapped else ()) + CURSOR_ALSO.get(event, ())


@CURSOR_CLAUDE_RULES.rule("conflict/cursor-runs-claude-hooks")
def _cursor_runs_claude_hooks(ctx: Context, at: CursorBeside) -> Iterator[Finding]:
    same = _same_job(at.entry, at.claude)
    if same is not None:
        variant, params = same
        found = ctx.finding("conflict/cursor-runs-claude-hooks", at.entry.file, at.entry.keys,
                            [place(at.claude, "the Claude Code hook Cursor also runs")], other=str(at.claude.file.path),
                            variant=variant, **params)
        yield at_handler(found, at.entry)


def _same_job(cursor_handler: Handler, claude_handler: Handler) -> tuple[str | None, dict[str, Any]] | None:
    """Whether the two do one job on one call, and how (the rule's variant and its fields): the
    same pack hook, command or script (a script of the same name only with the same content),
    on tools both can fire for."""
    if not _fires_on_a_shared_tool(cursor_handler, claude_handler):
        return None
    if cursor_handler.owner and cursor_handler.owner == claude_handler.owner:
        return "same-pack", {"pack": cursor_handler.owner[0], "hook": cursor_handler.owner[1]}
    if cursor_handler.command and cursor_handler.command == claude_handler.command:
        return None, {}
    a = handler_facts.resolution(cursor_handler).script
    b = handler_facts.resolution(claude_handler).script
    if a is None or b is None or not a.is_file():
        return None  # (a missing script is the command check's finding: it runs nothing twice)
    if resolved(a) == resolved(b):
        return "same-script", {"script": str(a)}
    if a.name == b.name and a.name not in GENERIC_NAMES and _same_bytes(a, b):
        return "same-content", {"name": a.name}
    return None


def _same_bytes(a: Path, b: Path) -> bool:
    """Two readable scripts with the same content."""
    first = safe_read.read_or_none(a, safe_read.SCRIPT)
    return first is not None and first == safe_read.read_or_none(b, safe_read.SCRIPT)


# the Claude Code tools a Cursor event fires for (a tool type in a matcher: cursor_protocol.CLAUDE_TOOLS_OF_TYPE)
CURSOR_EVENT_TOOLS = {"beforeShellExecution": ("Bash",), "afterShellExecution": ("Bash",), "beforeReadFile": ("Read",),
                      "afterFileEdit": ("Edit", "Write", "MultiEdit")}
MCP_TOOL = "mcp__any__tool"  # stands for every MCP tool


def _fires_on_a_shared_tool(cursor_handler: Handler, claude_handler: Handler) -> bool:
    """Whether a call exists that both fire on: the Claude Code tools the Cursor entry can fire
    for (by its event and matcher), tried against the Claude Code matcher. Non-tool events share
    their one kind of call."""
    event, matcher = cursor_handler.event, cursor_handler.matcher
    tools: tuple[str, ...]
    if event in CURSOR_EVENT_TOOLS:
        tools = CURSOR_EVENT_TOOLS[event]
    elif event in ("beforeMCPExecution", "afterMCPExecution"):
        tools = (MCP_TOOL,)
    elif event in ("preToolUse", "postToolUse", "postToolUseFailure") and matcher and matcher.strip() not in ("*", ""):
        names, renamed = claude_tool_names(matcher)
        if len(renamed) == len(names):
            return False  # it names only Claude Code's tools: Cursor never fires it (host/cursor-claude-tool-name)
        tools = tuple(t for name in names for t in (cursor_protocol.CLAUDE_TOOLS_OF_TYPE.get(name, ()) or
                                                     ((MCP_TOOL,) if name.startswith("MCP:") else ())))
    else:
        return True
    claude_matcher = classify(claude_handler.matcher, claude_handler.event)
    return any(claude_matcher.matches(tool) or (tool == MCP_TOOL and _reaches_mcp(claude_matcher)) for tool in tools)


def _reaches_mcp(matcher: Matcher) -> bool:
    return matcher.kind == "all" or any(n.startswith("mcp__") for n in matcher.names) or (
        matcher.kind == "regex" and "mcp" in (matcher.text or ""))
