"""`hookwright uninstall`: take out exactly what our receipts list, nothing else."""
from __future__ import annotations

from pathlib import Path

from installer import atomic, hosts
from installer.commands.result import Consent, Result, run_plans
from installer.errors import HookwrightError
from installer.hosts.base import Host, Scope, Target
from installer.packs import RUNTIME_LIBRARY, load_pack
from installer.plan import RECEIPT, PackChange, Plan, runtime_matches
from installer.state import read_receipt


def uninstall(pack_names: list[str], *, host: str = "claude", scope: Scope, project: Path | None, force: bool = False,
              dry_run: bool, consent: Consent) -> Result:
    adapter = hosts.get(host)
    names = list(dict.fromkeys(pack_names)) or installed_packs(adapter, scope, project)
    if not names:
        where = adapter.target(scope, project, None)
        raise HookwrightError("no hookwright pack is installed here", path=where.config,
                              hint="choose the host and scope with --host and --scope (and --project)")
    by_file: dict[Path, tuple[Target, list[str]]] = {}
    for name in names:
        target = adapter.target(scope, project, name)
        by_file.setdefault(target.config, (target, []))[1].append(name)
    plans = []
    for target, its_names in by_file.values():
        atomic.check_writable(target.config)
        plan = plan_uninstall(adapter, target, its_names, force)
        plan.project = project
        plans.append(plan)
    return run_plans("uninstall", plans, dry_run=dry_run, consent=consent)


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
        keep_empty = receipt.keep_empty if receipt else []
        for entry in present:
            data = host.remove(data, entry, keep_empty)
            removed.append(entry)
        change = PackChange(name, "uninstall", folder, version_from=receipt.version if receipt else None)
        if receipt is None:
            if not present:
                change.action = "unchanged"
                change.notes.append(f"{name} is not installed here")
            else:
                change.notes.append("no receipt: entries recognised by their command")
                ours = {host.owner(e.handler)[1] for e in present} | _bundled_file_names(host, name)
                change.removes = sorted(file for file in ours if (folder / file).is_file())
        else:
            for item in receipt.files:
                if runtime_matches(folder, item.name, item.sha256):
                    change.removes.append(item.name)
                elif (folder / item.name).exists():
                    change.notes.append(f"kept {folder / item.name}: it was changed since install")
            change.removes.append(RECEIPT)
        changes.append(change)
    created = [r for r in receipts if r.created_config]
    return Plan("uninstall", target, doc, data, [], removed, changes,
                replan=lambda: plan_uninstall(host, target, names, force),
                # only when no other pack of ours still has entries in this file
                delete_config=doc.exists and host.holds_nothing(data) and bool(created)
                and not _others_in(target, names))


def _bundled_file_names(host: Host, name: str) -> set[str]:
    """Without a receipt, the files the bundled pack of that name would have put there."""
    try:
        return set(load_pack(name).runtime_files(host.name))
    except HookwrightError:
        return {RUNTIME_LIBRARY}


def _others_in(target: Target, names: list[str]) -> list[str]:
    """Packs besides `names` whose receipt says they are wired into this very file."""
    others = []
    for name in installed_receipts(target):
        receipt = read_receipt(target.receipt_path(name)) if name not in names else None
        if receipt is not None and receipt.config == target.config.name:
            others.append(name)
    return others


def installed_receipts(target: Target) -> list[str]:
    if not target.runtime_root.is_dir():
        return []
    return sorted(p.name for p in target.runtime_root.iterdir() if (p / RECEIPT).is_file())
