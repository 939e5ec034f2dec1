"""Conflicts: hooks that are fine one by one and wrong together.

One module per family, each rule one function in a table over the unit it looks at; `check`
runs the families in this order:
- races.py: the input-rewrite race, two hooks that may rewrite one call's input (Claude Code,
  Cursor's preToolUse, opencode's plugins);
- moot.py: a hook of one of our packs whose rewrite a foreign hook can refuse;
- copies.py: duplicates, one command configured several times, or one of our packs in two scopes;
- cross_host.py: a Cursor hook that does the job of a Claude Code hook Cursor also runs;
- session_end.py: SessionEnd hooks under the shared budget.
"""
from __future__ import annotations

from importlib import import_module
from typing import Callable, Iterator

from .... import hosts
from ...model import Context, Finding

FAMILIES = ("races", "moot", "copies", "cross_host", "session_end")
# what a run must hold for a family to find anything there: a run without it does not import the
# family (each module is about 1 M instructions of doctor's 394 M on a typical file)
PREMISES: dict[str, Callable[[Context], bool]] = {
    "cross_host": lambda ctx: any((host := hosts.of(f.host)) is not None and host.runs_hooks_of for f in ctx.files),
    "session_end": lambda ctx: any(h.event == "SessionEnd" for h in ctx.handlers),
}


def check(ctx: Context) -> Iterator[Finding]:
    for name in FAMILIES:
        if name not in PREMISES or PREMISES[name](ctx):
            yield from import_module(f"{__name__}.{name}").check(ctx)
