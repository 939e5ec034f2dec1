"""`hookwright uninstall`: take out exactly what our receipts list, nothing else."""
from __future__ import annotations

from pathlib import Path

from installer import atomic
from installer.commands.result import Consent, Result, run_plan
from installer.document import read_document
from installer.errors import HookwrightError
from installer.hosts import claude as host
from installer.hosts.base import Scope, Target
from installer.packs import RUNTIME_LIBRARY, load_pack
from installer.plan import RECEIPT, PackChange, Plan, runtime_matches
from installer.state import read_receipt


def uninstall(pack_names: list[str], *, scope: Scope, project: Path | None, dry_run: bool,
              consent: Consent) -> Result:
    target = host.target(scope, project)
    atomic.check_writable(target.config)
    names = list(dict.fromkeys(pack_names)) or installed_packs(target)
    if not names:
        raise HookwrightError("no hookwright pack is installed here", path=target.config,
                              hint="choose the scope with --scope (and --project)")
    plan = plan_uninstall(target, names)
    plan.project = project
    return run_plan("uninstall", plan, dry_run=dry_run, consent=consent)


def installed_packs(target: Target) -> list[str]:
    """Packs with a receipt here, or with entries in the config that run our runtimes."""
    names = set(installed_receipts(target))
    doc = read_document(target.config)
    host.check_document(doc)
    names |= {who[0] for *_, handler in host.handlers(doc.data) if (who := host.owner(handler))}
    return sorted(names)


def plan_uninstall(target: Target, names: list[str]) -> Plan:
    doc = read_document(target.config)
    host.check_document(doc)
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
                ours = {host.owner(e.handler)[1] for e in present} | _bundled_file_names(name)
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
                replan=lambda: plan_uninstall(target, names),
                # only when no other pack of ours still has a receipt here
                delete_config=doc.exists and data == {} and bool(created)
                and not set(installed_receipts(target)) - set(names))


def _bundled_file_names(name: str) -> set[str]:
    """Without a receipt, the files the bundled pack of that name would have put there."""
    try:
        return set(load_pack(name).runtime_files(host.NAME))
    except HookwrightError:
        return {RUNTIME_LIBRARY}


def installed_receipts(target: Target) -> list[str]:
    if not target.runtime_root.is_dir():
        return []
    return sorted(p.name for p in target.runtime_root.iterdir() if (p / RECEIPT).is_file())
