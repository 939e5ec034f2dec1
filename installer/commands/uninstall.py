"""`hookwright uninstall`: take out exactly what our receipts list, nothing else."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from .. import atomic, hosts
from ..hosts.base import Scope, scope_reason
from ..planning.apply import Consent, run_plans
from ..planning.install import trust_plans
from ..planning.places import places_to_remove
from ..planning.uninstall import plan_uninstall, targets_for
from .result import Result, Status


def uninstall(pack_names: list[str], *, host: str | None = None, scope: Scope | None, project: Path | None,
              force: bool = False, dry_run: bool, consent: Consent) -> Result:
    """Where the packs are installed for the project (planning/places.py: the one place, the place
    --host and --scope name, or the one a person picks), a plan for each file there (the packs
    named, or every pack installed there), then run_plans (check, confirm, apply). A pack that is
    installed nowhere for the project is nothing to do (exit 0), said as such."""
    chosen, notes = places_to_remove("uninstall", list(dict.fromkeys(pack_names)), host, scope, project,
                                     consent.pick, list(consent.again))
    if not chosen:
        return Result("uninstall", Status.UNCHANGED, notes=notes)
    plans = []
    for place in chosen:
        adapter = hosts.get(place.host)
        for target, its_names in targets_for(adapter, place.scope, project, place.packs):
            atomic.check_writable(target.config)
            plans.append(replace(plan_uninstall(adapter, target, its_names, force), project=project,
                                 scope_reason=place.reason or scope_reason(scope, project)))
    if consent.trust:
        plans += trust_plans(plans)
    result = run_plans("uninstall", plans, dry_run=dry_run, consent=consent)
    result.notes = notes
    return result
