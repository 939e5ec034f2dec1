"""The plan of an uninstall: exactly the entries and runtime files our receipts list, and the
folders we made for them. Nothing here writes."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import hosts, safe_read, state
from ..document import Document
from ..errors import HookwrightError
from ..hosts.base import Entry, Host, Scope, Target
from ..layout import RECEIPT
from ..packs import RUNTIME_LIBRARY, load_pack
from ..state import Receipt, read_receipt, runtime_matches
from .plan import Action, PackChange, Plan, edited_entries


def targets_for(host: Host, scope: Scope, project: Path | None, pack_names: list[str]) -> list[tuple[Target, list[str]]]:
    """The files the packs come out of (the packs named, or every one installed in the scope):
    one per scope, or one per pack for a host whose unit is a file (opencode)."""
    names = list(dict.fromkeys(pack_names)) or installed_packs(host, scope, project)
    by_file: dict[Path, tuple[Target, list[str]]] = {}
    for name in names:
        target = host.target(scope, project, name)
        by_file.setdefault(target.config, (target, []))[1].append(name)
    return list(by_file.values())


def installed_packs(host: Host, scope: Scope, project: Path | None) -> list[str]:
    """Packs with a receipt in this host's scope, or with entries in its config that run our runtimes."""
    target = host.target(scope, project, None)
    return sorted(set(installed_receipts(target)) | host.packs_in(target))


def plan_uninstall(host: Host, target: Target, names: list[str], force: bool = False) -> Plan:
    doc = host.read(target, force)
    data = doc.data
    removed = []
    changes = []
    receipts = []
    for name in names:
        folder = target.pack_dir(name)
        receipt = read_receipt(target.receipt_path(name))
        receipts.extend([receipt] if receipt else [])
        present = host.owned_entries(data, name)
        if receipt and not force:
            _refuse_edited(host, target, present, receipt)
        keep_empty = receipt.keep_empty if receipt else []
        for entry in present:
            data = host.remove(data, entry, keep_empty)
            removed.append(entry)
        changes.append(_runtime_removal(host, name, folder, receipt, present))
    others = _others_in(target, names)
    gone = doc.exists and host.holds_nothing(data) and (  # the file goes when nothing of anyone's is left in it,
        host.file_per_pack or any(r.created_config for r in receipts) and not others)  # and we made it
    return Plan("uninstall", target, doc, data, [], removed, changes,
                notes=host.change_notes(target, doc.data if doc.exists else {}, {} if gone else data,
                                        ["uninstall", *names, *target.place_args]),
                replan=lambda: plan_uninstall(host, target, names, force), delete_config=gone,
                remove_folders=made_folders(target, receipts) if gone else [],
                exact_bytes=None if gone else as_before_our_last_write(host, target, doc, data))


def _runtime_removal(host: Host, name: str, folder: Path, receipt: Receipt | None, present: list[Entry]) -> PackChange:
    """What uninstalling a pack does to its runtime folder: the files its receipt lists as we wrote
    them (a changed one is kept, and said), or without a receipt the files its entries run."""
    notes: list[str] = []
    if receipt is None:
        if not present:
            return PackChange(name, Action.UNCHANGED, folder, notes=[f"{name} is not installed here"])
        ours = {owner[1] for e in present if (owner := host.owner(e.handler))} | _bundled_file_names(host, name)
        return PackChange(name, Action.UNINSTALL, folder, removes=sorted(file for file in ours if (folder / file).is_file()),
                          notes=["no receipt: entries recognised by their command"])
    removes = []
    for item in receipt.files:
        if runtime_matches(folder, item.name, item.sha256):
            removes.append(item.name)
        elif (folder / item.name).exists():
            notes.append(f"kept {folder / item.name}: it was changed since install")
    return PackChange(name, Action.UNINSTALL, folder, removes=[*removes, RECEIPT], version_from=receipt.version,
                      notes=notes)


def as_before_our_last_write(host: Host, target: Target, doc: Document, data: Any) -> bytes | None:
    """The config's bytes from before our last write to it, where nothing has changed it since
    (it holds the bytes that write wrote) and the change planned now gives back exactly the data
    it had then: undoing our own write gives back its bytes too, down to the blanks inside a list
    it emptied, which an entry-level edit cannot know."""
    last = None if host.file_per_pack or not doc.exists else state.last_write_if_untouched(target.config, doc.raw)
    if last is None or last.backup is None:
        return None
    raw = safe_read.read_or_none(state.backup_folder(last.backup) / "config", safe_read.BACKUP)
    if raw is None:
        return None
    try:
        before = host.parse(target.config, raw)
    except HookwrightError:
        return None
    same = json.dumps(before.data, sort_keys=True) == json.dumps(data, sort_keys=True)
    return raw if same and raw != doc.raw else None


def _refuse_edited(host: Host, target: Target, present: list[Entry], receipt: Receipt) -> None:
    """An entry of ours that someone changed since (a longer timeout, another matcher) is theirs
    too now: removing it needs --force, after seeing the edit."""
    written = {(e.event, host.owner(e.handler)): e for e in receipt.entries}
    edited = [(ours, entry.handler) for entry in present
              for ours in [written.get((entry.event, host.owner(entry.handler)))]
              if ours is not None and (ours.handler, ours.matcher) != (entry.handler, entry.matcher)]
    if edited:
        raise edited_entries(f"uninstall {receipt.pack}", target, edited, "remove them, edit and all")


def _bundled_file_names(host: Host, name: str) -> set[str]:
    """Without a receipt, the files the bundled pack of that name would have put there."""
    try:
        return set(load_pack(name).runtime_files(host.name))
    except HookwrightError:
        return {RUNTIME_LIBRARY}


def receipts_beside(target: Target) -> list[Any]:
    """Every receipt of this host in this place (a project's scopes share its folders)."""
    roots = [target]
    if target.scope is not Scope.user:
        host = hosts.get(target.host)
        roots += [host.target(s, target.project) for s in host.scopes if s not in (Scope.user, target.scope)]
    found = [read_receipt(where.receipt_path(name)) for where in roots for name in installed_receipts(where)]
    return [r for r in found if r is not None]


def receipts_in(target: Target) -> list[Any]:
    """The receipts of the packs wired into this very file."""
    found = [read_receipt(target.receipt_path(name)) for name in installed_receipts(target)]
    return [r for r in found if r is not None and r.config == target.config.name]


def _others_in(target: Target, names: list[str]) -> list[str]:
    """Packs besides `names` whose receipt says they are wired into this very file."""
    return [r.pack for r in receipts_in(target) if r.pack not in names]


def made_folders(target: Target, receipts: list[Any]) -> list[Path]:
    """The folders hookwright made in this place, by these receipts and the others beside them,
    deepest first: they go with the file if nothing else is in them (a folder another file of
    ours still needs is not empty)."""
    base = target.runtime_root.parent.parent
    names = {name for r in [*receipts, *receipts_beside(target)] for name in r.created_folders}
    return sorted((base / name for name in names), key=lambda p: len(p.parts), reverse=True)


def installed_receipts(target: Target) -> list[str]:
    if not target.runtime_root.is_dir():
        return []
    return sorted(p.name for p in target.runtime_root.iterdir() if (p / RECEIPT).is_file())
