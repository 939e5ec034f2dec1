"""`hookwright install`: wire packs into a host's config, copy their runtimes, keep a receipt."""
from __future__ import annotations

from pathlib import Path

from .. import hosts
from ..apply import Consent, run_plans
from ..errors import HookwrightError
from ..hosts.base import Scope, implied_scope, scope_reason
from ..packs import load_pack
from ..planning.install import check_place, options_for, plan_install, targets_for
from .result import Result


def install(pack_names: list[str], *, host: str = "claude", scope: Scope | None, project: Path | None,
            options: list[str], adopt: bool, force: bool = False, dry_run: bool, consent: Consent) -> Result:
    """The host's adapter, then its targets, a plan for each, then run_plans (check, confirm,
    apply). `scope` None: the project scope with --project, else the user scope."""
    if not pack_names:
        raise HookwrightError("name at least one pack to install", hint="`hookwright packs` lists them")
    adapter = hosts.get(host)
    packs = [load_pack(name) for name in dict.fromkeys(pack_names)]
    chosen = options_for(adapter, packs, options)
    plans = []
    for target, its_packs in targets_for(adapter, scope or implied_scope(project), project, packs):
        check_place(adapter, target, its_packs)
        plan = plan_install(adapter, target, its_packs, chosen, adopt, force)
        plan.project, plan.scope_reason = project, scope_reason(scope, project)
        plans.append(plan)
    return run_plans("install", plans, dry_run=dry_run, consent=consent)
