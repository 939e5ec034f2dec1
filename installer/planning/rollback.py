"""The plan of a rollback: at entry level, what the operation added comes out and what it removed
goes back, every other byte of the file as it is now; with --force, the byte-exact backup.
Nothing here writes."""
from __future__ import annotations

from pathlib import Path

from .. import atomic, hosts, safe_read, state
from ..document import Document
from ..errors import ExitCode, HookwrightError
from ..hooks.model import resolved
from ..hosts.base import Host, Scope, Target, check_project
from ..records import Record
from ..state import read_receipt
from .plan import Action, PackChange, Plan, edited_entries, file_writes, personal_gitignore
from .uninstall import made_folders


class Only(Record):
    """Which operations a rollback looks at: those on one host's files, in one project, in one
    scope, on one file (None: any). The journal spans every project and scope."""

    host: str | None = None
    project: Path | None = None
    scope: Scope | None = None
    file: Path | None = None

    def keeps(self, op: state.Operation) -> bool:
        target = op.target
        return ((self.host is None or target["host"] == self.host)
                and (self.scope is None or target["scope"] == self.scope.value)
                and (self.project is None or bool(target.get("project"))
                     and resolved(Path(target["project"])) == resolved(self.project))
                and (self.file is None or resolved(Path(target["config"])) == resolved(self.file)))

    @property
    def named_a_place(self) -> bool:
        """A project, a file or the user scope was asked for: not the project the working folder is in."""
        return self.project is not None or self.file is not None or self.scope is Scope.user

    def check(self) -> None:
        if self.host is not None:
            hosts.get(self.host)  # a host we know, or a usage error
        check_project(self.project)


def undone_ids(ops: list[state.Operation]) -> set[str]:
    """Operations a finished rollback undid (an interrupted rollback undid nothing for sure)."""
    return {op.undoes for op in ops if op.undoes and op.state == "done"}


def undoable_operations(only: Only = Only()) -> list[state.Operation]:
    """Newest first: the operations `only` keeps that are not rollbacks and were not undone yet."""
    ops = state.read_journal()
    undone = undone_ids(ops)
    return [op for op in reversed(ops) if op.kind != "rollback" and op.id not in undone and only.keeps(op)]


def plan_undo(op: state.Operation, force: bool) -> Plan:
    target = Target.from_json(op.target)
    host = hosts.get(target.host)
    atomic.check_writable(target.config)
    backup = state.backup_folder(op.backup) if op.backup else None
    before = _backup_document(host, target, backup)
    packs = [_restore_pack(target, name, backup) for name in op.packs]
    # what every plan of this undo says of itself, whichever way it puts the file back
    undoes_what = f"{op.kind} of {', '.join(op.packs) or 'nothing'}"
    other_writes = personal_gitignore(target, [c for c in packs if c.writes])
    doc = host.load(target.config)
    # the folders the operation's install made, which go with the file it made
    made = made_folders(target, [r for r in map(read_receipt, map(target.receipt_path, op.packs)) if r])
    if force:
        if before is None:
            raise HookwrightError(f"operation {op.id} has no backup to restore", code=ExitCode.REFUSED)
        return Plan("rollback", target, doc, before.data, list(op.removed), list(op.added), packs, undoes=op.id,
                    undoes_what=undoes_what, other_writes=other_writes,
                    exact_bytes=before.raw, delete_config=not before.exists,
                    remove_folders=made if not before.exists else [],
                    notes=[f"restores the byte-exact backup {op.backup}"])
    host.check(doc, target, force=False)
    if host.file_per_pack and before is not None:  # the unit is the file: back to the bytes it had (a file
        # someone edited is refused above), the edits a --force install overwrote included
        return Plan("rollback", target, doc, before.data, list(op.removed), list(op.added), packs, undoes=op.id,
                    undoes_what=undoes_what, other_writes=other_writes,
                    exact_bytes=before.raw if before.exists else None, delete_config=not before.exists and doc.exists,
                    remove_folders=made if not before.exists else [], replan=lambda: plan_undo(op, force))
    data = doc.data if doc.exists else host.new_document_data()
    changed = []
    keep_empty = host.empty_containers(before.data, op.added) if before and before.exists else []
    replaced = {(e.pack, e.hook, e.event): e for e in op.removed}  # an update: the entry it replaced
    for entry in op.added:
        current = host.find(data, entry)
        older = replaced.get((entry.pack, entry.hook, entry.event))
        if current is not None and current != entry.handler:
            changed.append((entry, current))
        elif current is not None and older is not None:  # back in its place, not moved to the end
            data = host.replace(data, entry, older)
        elif current is not None:
            data = host.remove(data, entry, keep_empty)
    for entry in op.removed:
        current = host.find(data, entry)
        if current is None:
            data = host.add(data, entry)
        elif current != entry.handler:
            changed.append((entry, current))
    if changed:
        raise edited_entries(f"undo {op.kind} {op.id}", target, changed, "restore the byte-exact backup")
    gone = doc.exists and host.holds_nothing(data) and before is not None and not before.exists
    return Plan("rollback", target, doc, data, list(op.removed), list(op.added), packs, undoes=op.id,
                    undoes_what=undoes_what, other_writes=other_writes,
                replan=lambda: plan_undo(op, force), delete_config=gone, remove_folders=made if gone else [],
                exact_bytes=before.raw if not gone and before is not None and before.exists
                and _still_as_written(op, doc) else None)


def _still_as_written(op: state.Operation, doc: Document) -> bool:
    """The file holds what `op` wrote, and nothing wrote it since: undoing op is then its backup's
    bytes, in their order (re-adding a removed entry at its old place, an emptied list's blanks)."""
    last = state.last_write_if_untouched(doc.path, doc.raw) if doc.exists else None
    return last is not None and last.id == op.id


def _backup_document(host: Host, target: Target, backup: Path | None) -> Document | None:
    if backup is None:
        return None
    try:
        return host.parse(target.config, safe_read.read(backup / "config", safe_read.BACKUP))
    except FileNotFoundError:
        return Document.new(target.config)


def _restore_pack(target: Target, name: str, backup: Path | None) -> PackChange:
    """Put the pack's runtime folder back as the backup holds it (absent if it was absent)."""
    folder = target.pack_dir(name)
    saved = backup / "packs" / name if backup else None
    wanted = state.files_in(saved, safe_read.BACKUP) if saved else {}
    current = {p.name for p in folder.iterdir() if p.is_file()} if folder.is_dir() else set()
    return PackChange(name, Action.RESTORE, folder, file_writes(folder, wanted), sorted(current - set(wanted)))
