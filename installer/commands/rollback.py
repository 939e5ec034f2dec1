"""`hookwright rollback`: undo the last operation of the project (or back to one) at entry level.

Entry level means: remove what the operation added and re-add what it removed, leaving
every other byte of the file as it is now (Claude Code writes these files itself).
If an entry we must touch was changed since, refuse and show how; `--force` restores the
byte-exact backup instead.
"""
from __future__ import annotations

import itertools
from typing import Any

from .. import state
from ..errors import HookwrightError, command_line
from ..planning.apply import Consent, run_plans
from ..planning.rollback import Only, plan_undo, undoable_operations, undone_ids
from ..project import project_of
from .result import Payload, Result, Status


def rollback(*, to: str | None, only: Only = Only(), force: bool, dry_run: bool, consent: Consent) -> Result:
    """Without --to, the newest operation of the project the working folder is in (its project
    and local scopes; the user scope with --scope user, another project with --project, a file
    with --file); with --to, that operation and every later one the options keep."""
    only.check()
    chosen_only = only if to is not None or only.named_a_place else only._replace(project=project_of(None))
    pending = undoable_operations(chosen_only)
    if not pending:
        return Result("rollback", Status.UNCHANGED, notes=[_nothing_to_undo(chosen_only, only)])
    if to is None:  # the last command run, whole (one install of several opencode plugins is one change)
        chosen = [op for op in itertools.takewhile(lambda op: op.batch and op.batch == pending[0].batch, pending)] \
            or pending[:1]
    else:
        ids = [op.id for op in pending]
        if to not in ids:
            raise HookwrightError(f"no operation {to!r} that can still be undone" + ("" if only == Only() else " there"),
                                  hint=f"`{command_line('rollback', '--list')}` shows the ids")
        chosen = pending[: ids.index(to) + 1]
    # newest first, stopping at the first that does not go through: an older operation is not
    # undone while a newer one still stands (plans are made one by one, each on what the last left)
    return run_plans("rollback", (plan_undo(op, force) for op in chosen), dry_run=dry_run, consent=consent)


def _nothing_to_undo(chosen: Only, given: Only) -> str:
    """Why there is nothing to roll back, and how to reach the operations elsewhere, if any."""
    where = f"for {chosen.project}" if given == Only() else "there"
    elsewhere = undoable_operations(Only())
    if given != Only() or not elsewhere:
        return f"nothing to do: no operation to roll back {where}"
    newest = elsewhere[0]
    project = newest.target.get("project")
    there = ("--project", project) if project else ("--scope", "user")
    return (f"nothing to do: no operation to roll back {where}; the newest elsewhere is {newest.kind} of "
            f"{', '.join(newest.packs)} on {newest.target['config']}: `{command_line('rollback', *there)}` undoes it")


def journal_listing(only: Only = Only()) -> Result:
    only.check()
    journal = state.read_journal()
    ops = [op for op in journal if only.keeps(op)]
    undone = undone_ids(journal)
    here = Only(project=project_of(only.project))
    rows = [dict(op.to_json(), undone=op.id in undone, here=here.keeps(op)) for op in ops]
    return Result("rollback", Status.LISTED, payload=Journal(rows, only != Only()))


class Journal(Payload):
    def __init__(self, journal: list[dict[str, Any]], filtered: bool) -> None:
        self.journal = journal  # the operations, newest last, each with whether it was undone
        self.filtered = filtered  # --project, --scope or --file narrowed it
