"""`hookwright install`: wire packs into a host's config, copy their runtimes, keep a receipt."""
from __future__ import annotations

from pathlib import Path

from .. import hosts, interpreter
from ..apply import Consent, run_plans
from ..errors import HookwrightError
from ..hosts.base import Scope, scope_reason
from ..packs import load_pack, resolve_options
from ..planning.install import check_host, check_place, plan_install, targets_for
from ..planning.places import places_to_install
from ..runtime_check import check_loads
from .result import Result


def install(pack_names: list[str], *, host: str | None = None, scope: Scope | None, project: Path | None,
            options: list[str], adopt: bool, force: bool = False, dry_run: bool, consent: Consent,
            python: str | None = None) -> Result:
    """Where each pack goes (planning/places.py: a pack installed for the project already is
    upgraded or repaired where it is; another goes to --host, Claude Code by default, and --scope,
    the user scope by default or the project scope with --project), the files there, a plan for
    each, then run_plans (check, confirm, apply). `python`: the interpreter the hooks start
    (None: as installed, else python3); each pack's modules are loaded in it first."""
    if not pack_names:
        raise HookwrightError("name at least one pack to install", hint="`hookwright packs` lists them")
    packs = {name: load_pack(name) for name in dict.fromkeys(pack_names)}
    chosen = resolve_options(list(packs.values()), options)
    checked = interpreter.chosen(python) if python is not None else None
    plans = []
    again = [*consent.again, *(arg for option in options for arg in ("--option", option))]
    for place in places_to_install(list(packs), host, scope, project, consent.pick, again):
        adapter = hosts.get(place.host)
        if checked is not None and checked != interpreter.DEFAULT and place.scope is Scope.project:
            raise HookwrightError(f"--python {checked} names an interpreter of this machine, and a project's config "
                                  "is committed: every clone would start it", hint="install it in the user scope "
                                  "(--scope user)" + (" or the local scope (--scope local)"
                                                      if Scope.local in adapter.scopes else ""))
        its_packs = [packs[name] for name in place.packs]
        check_host(adapter, its_packs, chosen)
        check_loads(its_packs, adapter.name, checked)
        for target, in_file in targets_for(adapter, place.scope, project, its_packs):
            check_place(adapter, target, in_file)
            plan = plan_install(adapter, target, in_file, chosen, adopt, force, checked)
            plan.project, plan.scope_reason = project, place.reason or scope_reason(scope, project)
            plans.append(plan)
    return run_plans("install", plans, dry_run=dry_run, consent=consent)
