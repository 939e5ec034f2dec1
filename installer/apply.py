"""Carry out a confirmed plan: lock, re-plan against the bytes on disk, back up, write.

Order matters for a crash at any instant: new runtime files go in before the config that
points at them; the config changes before files it no longer points at are removed;
receipts and the journal come last, so a half-finished run is seen and repaired next time.
"""
from __future__ import annotations

import time

from . import atomic, state
from .errors import ExitCode, HookwrightError
from .faults import checkpoint
from .hosts.base import RECEIPT
from .plan import Plan

ATTEMPTS = 5


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


def apply(plan: Plan, kind: str) -> tuple[Plan, state.Operation | None]:
    """Write the plan; returns the plan actually written (re-made under the lock) and its journal entry."""
    target = plan.target
    with state.locked(target.config):
        _clean_stale_temps(plan)
        for _ in range(ATTEMPTS):
            fresh = plan.again()
            if fresh.signature() != plan.signature():
                raise HookwrightError(
                    "the config changed since the plan was made, and the change is no longer the one shown",
                    path=target.config, code=ExitCode.REFUSED, hint="run the command again to see the new plan")
            if not fresh.changed:
                return fresh, None
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
                         plan.added, plan.removed, backup, time.time(), plan.undoes, state="pending",
                         made_folders=plan.made_folders, batch=plan.batch)
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
        before = saved / change.pack
        try:
            for name in change.writes:
                if (before / name).is_file():
                    atomic.write_bytes(change.folder / name, (before / name).read_bytes(),
                                       mode=(before / name).stat().st_mode & 0o777)
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


def _drop_empty_runtime_root(root) -> None:
    try:
        names = set(p.name for p in root.iterdir())
    except OSError:
        return
    if names <= {".gitignore"}:
        if names:
            atomic.remove(root / ".gitignore")
        atomic.remove_empty_dirs(root, root.parent)
