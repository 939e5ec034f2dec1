"""Carry out plans: ask for consent (run_plans, run_plan), then, for a confirmed plan, lock,
re-plan against the bytes on disk, back up, write. The only place that writes a user's files.

Order matters for a crash at any instant: new runtime files go in before the config that
points at them; the config changes before files it no longer points at are removed;
receipts and the journal come last, so a half-finished run is seen and repaired next time.
"""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from .. import atomic, confine, safe_read, state
from ..commands.result import Result, Status
from ..errors import ExitCode, HookwrightError
from ..faults import checkpoint
from ..layout import RECEIPT
from ..records import Record
from .plan import Plan

if TYPE_CHECKING:
    from .places import Pick

ATTEMPTS = 5


class Consent(Record):
    """How a writing command may go ahead: a person asked on a terminal (`ask` shows the plan
    and returns the answer), --yes, or nobody (no terminal: the plan is shown, exit 3). An
    error the change introduces (a conflict) stops --yes unless --allow-conflicts is given; a
    write through a link out of the scope's folder is refused unless --allow-outside-scope is
    (installer/confine.py)."""

    ask: Callable[["Plan", bool], bool] | None = None  # (plan, asked before and the files changed since)
    yes: bool = False
    allow_conflicts: bool = False
    allow_outside_scope: bool = False
    pick: Pick | None = None  # which of several places the change is for (a person on a terminal)
    again: tuple[str, ...] = ()  # the options to repeat in a command printed as a hint (--yes, --dry-run...)
    trust: bool = False  # --trust-hooks: also write the agent's own trust in the hooks written (Codex's)


def run_plans(command: str, plans: Iterable[Plan], *, dry_run: bool, consent: Consent) -> Result:
    """Run plans one after the other (one per file), stopping at the first that does not go
    through; the result holds every plan run, the last operation and the worst exit code.
    `plans` may be a generator: each plan is then made after the one before was carried out; a
    plan that follows the ones before it (Plan.follows) is made again from them as written."""
    results: list[Result] = []
    batch = state.new_id()
    for plan in plans:
        if not dry_run:  # (a dry run shows each plan as made: nothing before it was written)
            plan = plan.after([done for result in results for done in result.plans])
        results.append(run_plan(command, replace(plan, batch=batch), dry_run=dry_run, consent=consent))
        if results[-1].exit_code != ExitCode.OK:
            break
    statuses = [r.status for r in results]
    stopped = results[-1].exit_code != ExitCode.OK
    status = statuses[-1] if stopped else next((s for s in (Status.APPLIED, Status.DRY_RUN) if s in statuses), statuses[-1])
    written = [r for r in results if r.operation]
    return Result(command, status, [p for r in results for p in r.plans],
                  written[-1].operation if written else None, max(r.exit_code for r in results),
                  shown=any(r.shown for r in results))


def _approved(plan: Plan, ask: Callable[["Plan", bool], bool]) -> Plan | None:
    """The plan the person said yes to. The files may change while the question waits (an
    editor, the agent): then the new plan is shown and asked about again, so what is written
    is always what was shown. None: declined."""
    again = False
    while ask(plan, again):
        fresh = plan.again()
        if fresh.document.raw == plan.document.raw and fresh.signature() == plan.signature():
            return plan
        if not fresh.changed:
            return fresh
        fresh.check_valid()
        plan, again = fresh.checked(), True
    return None


def run_plan(command: str, plan: Plan, *, dry_run: bool, consent: Consent) -> Result:
    if not plan.changed:
        if not dry_run and confine.confined(plan, consent.allow_outside_scope):
            tidy(plan)
        return Result(command, Status.UNCHANGED, [plan])
    confine.check(plan, consent.allow_outside_scope)
    plan.check_valid()
    plan = plan.checked()
    if dry_run:
        return Result(command, Status.DRY_RUN, [plan])
    if consent.yes:
        if plan.blocking_findings and not consent.allow_conflicts:
            return Result(command, Status.REFUSED, [plan], exit_code=ExitCode.REFUSED)
    elif consent.ask is None:
        return Result(command, Status.NEEDS_CONFIRMATION, [plan], exit_code=ExitCode.REFUSED)
    else:
        approved = _approved(plan, consent.ask)
        if approved is None:
            return Result(command, Status.DECLINED, [plan], exit_code=ExitCode.REFUSED)
        plan = approved
    written, op = apply(plan, command, consent.allow_outside_scope)
    written = replace(written, findings=plan.findings)  # (the same change, made again under the lock)
    return Result(command, Status.APPLIED if op else Status.UNCHANGED, [written], operation=op,
                  shown=not consent.yes)


def tidy(plan: Plan) -> None:
    """Remove temp files a killed run left next to the plan's files (a run with nothing to change)."""
    with state.locked(plan.target.config):
        _clean_stale_temps(plan)


def _clean_stale_temps(plan: Plan) -> None:
    """Only our own: the config's temp files beside it (other files there, such as the other
    packs' opencode plugins, are written under their own locks), and our pack folders'."""
    config = atomic.resolve(plan.target.config)
    atomic.clean_stale_temps(config.parent, of=config.name)
    for change in plan.packs:
        atomic.clean_stale_temps(change.folder)


def apply(plan: Plan, kind: str, allow_outside_scope: bool = False) -> tuple[Plan, state.Operation | None]:
    """Write the plan; returns the plan actually written (re-made under the lock) and its journal entry."""
    target = plan.target
    with state.locked(target.config):
        _clean_stale_temps(plan)
        for _ in range(ATTEMPTS):
            fresh = plan.again()
            if not fresh.changed:  # (another run got there first, say the same install: what was asked for holds)
                return fresh, None
            if fresh.signature() != plan.signature():
                raise HookwrightError(
                    "the config changed since the plan was made, and the change is no longer the one planned",
                    path=target.config, code=ExitCode.REFUSED, hint="run the command again to see the new plan")
            confine.check(fresh, allow_outside_scope)  # (the links as they are now, under the lock)
            fresh.check_valid()
            try:
                return fresh, _write(fresh, kind)
            except atomic.ConcurrentChange:
                if not plan.replan:
                    break
                continue  # the host wrote the file between our read and our replace: plan again
    raise HookwrightError("the config keeps changing under us (another program is writing it)",
                          path=target.config, code=ExitCode.REFUSED, hint="try again in a moment")


def _write(plan: Plan, kind: str) -> state.Operation:
    target = plan.target
    backup = state.save_backup(target.config, plan.document.raw if plan.document.exists else None,
                               [p.folder for p in plan.packs])
    checkpoint("backup-saved")
    op = state.Operation(state.new_id(), kind, target.to_json(), [p.pack for p in plan.packs],
                         list(plan.added), list(plan.removed), backup, time.time(), plan.undoes, state="pending",
                         made_folders=list(plan.made_folders), batch=plan.batch,
                         written_sha256=None if plan.delete_config else state.sha256(plan.new_bytes))
    state.append_journal(op)  # pending: a crash from here on leaves an operation rollback can undo
    checkpoint("journal-written")
    try:
        _write_runtimes_and_config(plan)
    except Exception:  # the config was not changed (its write is the last, atomic step)
        _restore_pack_folders(plan, backup)
        state.mark_operation(op.id, "aborted")
        raise
    for change in plan.packs:  # then what the config no longer needs, receipts last
        for name in sorted(change.removes, key=lambda n: n == RECEIPT):
            atomic.remove(change.folder / name)
            checkpoint("runtime-file-removed")
        atomic.remove_empty_dirs(change.folder, target.runtime_root.parent)
    _drop_empty_runtime_root(target.runtime_root)
    for folder in plan.remove_folders:  # the ones we made for the file we took away, deepest first, if empty
        atomic.remove_empty_dirs(folder, folder.parent)
    state.mark_operation(op.id, "done")
    checkpoint("journal-done")
    op.state = "done"
    return op


def _restore_pack_folders(plan: Plan, backup: str) -> None:
    """After a failed write (disk full, permission denied), put our runtime folders back as
    they were, so a failed install leaves no half set of runtimes. Best effort: the config,
    which is what matters, was never touched."""
    saved = state.backup_folder(backup) / "packs"
    for change in plan.packs:
        if not change.writes:
            continue
        try:
            before = state.files_in(saved / change.pack, safe_read.BACKUP)
            for name in change.writes:
                if name in before:
                    content, mode = before[name]
                    atomic.write_bytes(change.folder / name, content, mode=mode)
                else:
                    atomic.remove(change.folder / name)
            atomic.remove_empty_dirs(change.folder, plan.target.runtime_root.parent)
        except HookwrightError:
            continue
    _drop_empty_runtime_root(plan.target.runtime_root)


def _write_runtimes_and_config(plan: Plan) -> None:
    """Runtimes, then receipts, then the config: no entry ever points at a missing script,
    and a receipt always exists for entries we wrote (so a crash is repaired, not refused)."""
    target = plan.target
    for path, content in plan.other_writes.items():
        atomic.make_dir(path.parent)
        atomic.write_bytes(path, content)
    for change in plan.packs:
        for name, (content, mode) in sorted(change.writes.items(), key=lambda item: item[0] == RECEIPT):
            atomic.make_dir(change.folder)
            atomic.write_bytes(change.folder / name, content, mode=mode)
            if (change.folder / name).stat().st_mode & 0o777 != mode:
                (change.folder / name).chmod(mode)
            checkpoint("receipt-written" if name == RECEIPT else "runtime-file-written")
    if plan.delete_config:
        atomic.remove(target.config, expect=plan.document.raw)
    elif plan.config_changed:
        atomic.write_bytes(target.config, plan.new_bytes,
                           expect=plan.document.raw if plan.document.exists else b"", mode=0o644)
    checkpoint("config-written")


def _drop_empty_runtime_root(root: Path) -> None:
    if root.is_symlink():  # (a link is not ours to empty: what it leads to stays as it is)
        return
    try:
        names = set(p.name for p in root.iterdir())
    except OSError:
        return
    if names <= {".gitignore"}:
        if names:
            atomic.remove(root / ".gitignore")
        atomic.remove_empty_dirs(root, root.parent)
