"""`hookwright install`: wire packs into a host's config, copy their runtimes, keep a receipt."""
from __future__ import annotations

from pathlib import Path

from .. import hosts, interpreter
from ..apply import Consent, run_plans
from ..errors import HookwrightError
from ..hosts.base import Scope, implied_scope, scope_reason
from ..packs import load_pack
from ..planning.install import check_place, options_for, plan_install, targets_for
from .result import Result


def install(pack_names: list[str], *, host: str = "claude", scope: Scope | None, project: Path | None,
            options: list[str], adopt: bool, force: bool = False, dry_run: bool, consent: Consent,
            python: str | None = None) -> Result:
    """The host's adapter, then its targets, a plan for each, then run_plans (check, confirm,
    apply). `scope` None: the project scope with --project, else the user scope. `python`: the
    interpreter the hooks start (None: as installed, else python3)."""
    if not pack_names:
        raise HookwrightError("name at least one pack to install", hint="`hookwright packs` lists them")
    adapter = hosts.get(host)
    packs = [load_pack(name) for name in dict.fromkeys(pack_names)]
    chosen = options_for(adapter, packs, options)
    where = scope or implied_scope(project)
    if python is not None and python != interpreter.DEFAULT and where is Scope.project:
        raise HookwrightError(f"--python {python} names an interpreter of this machine, and a project's config is "
                              "committed: every clone would start it", hint="install it in the user scope "
                              "(--scope user)" + (" or the local scope (--scope local)"
                                                  if Scope.local in adapter.scopes else ""))
    python = interpreter.chosen(python) if python is not None else None
    plans = []
    for target, its_packs in targets_for(adapter, where, project, packs):
        check_place(adapter, target, its_packs)
        plan = plan_install(adapter, target, its_packs, chosen, adopt, force, python)
        plan.project, plan.scope_reason = project, scope_reason(scope, project)
        plans.append(plan)
    return run_plans("install", plans, dry_run=dry_run, consent=consent)
