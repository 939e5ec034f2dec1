"""Conflicts: hooks that are fine one by one and wrong together.

One module per family, each rule one function in a table over the unit it looks at; `check`
runs the families in this order:
- races.py: the input-rewrite race, two Claude Code hooks that may rewrite one call's input, and
  a hook of one of our packs whose rewrite a foreign hook can refuse;
- host_races.py: its kin on Cursor's preToolUse and among opencode's plugins;
- copies.py: duplicates, one command configured several times, or one of our packs in two scopes;
- cross_host.py: a Cursor hook that does the job of a Claude Code hook Cursor also runs;
- session_end.py: SessionEnd hooks under the shared budget.

Here, what they share: the built-in tools of a run, a handler's place (as a related entry, or as
where a finding about it sits), and the first hook a table finds something about (a module of
its own was 0.4 M instructions of doctor on a typical file, for five short functions).
"""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable, Iterable, Iterator

from .... import hosts
from ....hooks.events import BUILTIN_TOOLS
from ...model import Context, Finding, Handler, RuleTable

FAMILIES = ("races", "host_races", "copies", "cross_host", "session_end")
# what a run must hold for a family to find anything there: a run without it does not import the
# family (each module is about 1 M instructions of doctor's 394 M on a typical file)
PREMISES: dict[str, Callable[[Context], bool]] = {
    "host_races": lambda ctx: any((host := hosts.of(f.host)) is not None and host.rewrites_combine in ("priority", "in-order")
                                  for f in ctx.files),
    "cross_host": lambda ctx: any((host := hosts.of(f.host)) is not None and host.runs_hooks_of for f in ctx.files),
    "session_end": lambda ctx: any(h.event == "SessionEnd" for h in ctx.handlers),
}


def check(ctx: Context) -> Iterator[Finding]:
    for name in FAMILIES:
        if name not in PREMISES or PREMISES[name](ctx):
            yield from import_module(f"{__name__}.{name}").check(ctx)

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
