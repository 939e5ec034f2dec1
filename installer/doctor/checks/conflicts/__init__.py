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

from typing import Iterator

from ...model import Context, Finding
from . import copies, cross_host, moot, races, session_end

FAMILIES = (races, moot, copies, cross_host, session_end)


def check(ctx: Context) -> Iterator[Finding]:
    for family in FAMILIES:
        yield from family.check(ctx)
