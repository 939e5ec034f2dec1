"""What several conflict families share: the built-in tools of a run, a handler's place (as a
related entry, or as where a finding about it sits), and the first hook a table finds something about."""
from __future__ import annotations

from typing import Any, Iterable

from ....hooks.events import BUILTIN_TOOLS
from ...model import Context, Finding, Handler, RuleTable


def first_found(ctx: Context, table: RuleTable, units: Iterable[object]) -> list[Finding]:
    """What the table finds in the first of `units` it finds anything in (one finding per hook,
    about the first hook it meets)."""
    for unit in units:
        found = table.run(ctx, unit)
        if found:
            return found
    return []


def builtins_here(ctx: Context) -> tuple[str, ...]:
    """The built-in tools here (the context's tools but MCP ones; all of Claude Code's without any)."""
    return tuple(t for t in ctx.tools if not t.startswith("mcp__")) or BUILTIN_TOOLS


def place(handler: Handler, message: str) -> dict[str, Any]:
    line, column = handler_position(handler)
    return {"path": str(handler.file.path), "line": line, "column": column, "message": message}


def handler_position(handler: Handler) -> tuple[int, int]:
    """Where a hook is named: its command (in a config written one key a line, the handler's own
    line holds only its `{`), else the handler."""
    return handler.file.position(handler.keys + ("command",))


def at_handler(finding: Finding, handler: Handler) -> Finding:
    """A finding about a whole hook, moved to where the hook is named (its keys, which tell
    findings apart before and after a change, stay the handler's)."""
    line, column = handler_position(handler)
    return finding._replace(line=line, column=column)
