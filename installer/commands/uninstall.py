"""`hookwright uninstall`: take out exactly what our receipts list, nothing else."""
from __future__ import annotations

from pathlib import Path

from .. import atomic, hosts
from ..apply import Consent, run_plans
from ..hosts.base import Scope, implied_scope, scope_reason
from ..planning.uninstall import plan_uninstall, targets_for
from .result import Result


def uninstall(pack_names: list[str], *, host: str = "claude", scope: Scope | None, project: Path | None,
              force: bool = False, dry_run: bool, consent: Consent) -> Result:
    """The host's adapter, then its targets (the packs named, or every pack installed there), a
    plan for each, then run_plans (check, confirm, apply). `scope` None: the project scope with
    --project, else the user scope."""
    adapter = hosts.get(host)
    plans = []
    for target, its_names in targets_for(adapter, scope or implied_scope(project), project, pack_names):
        atomic.check_writable(target.config)
        plan = plan_uninstall(adapter, target, its_names, force)
        plan.project, plan.scope_reason = project, scope_reason(scope, project)
        plans.append(plan)
    return run_plans("uninstall", plans, dry_run=dry_run, consent=consent)
