"""`hookwright install`: wire packs into a host's config, copy their runtimes, keep a receipt."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import hosts, interpreter
from ..apply import Consent, run_plans
from ..errors import HookwrightError
from ..hosts.base import Scope, scope_reason
from ..packs import Pack, resolve_options
from ..plan import Plan
from ..planning.install import check_host, check_place, plan_install, targets_for
from ..planning.places import Chosen, places_to_install
from ..runtime_check import check_loads
from ..sources import load_all
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
    packs = load_all(pack_names, project)
    chosen = resolve_options(list(packs.values()), options)
    checked = interpreter.chosen(python) if python is not None else None
    again = [*consent.again, *(arg for option in options for arg in ("--option", option))]
    places = places_to_install(list(packs), host, scope, project, consent.pick, again)
    plans = plans_for("install", [(place, [packs[name] for name in place.packs]) for place in places], chosen,
                      scope=scope, project=project, adopt=adopt, force=force, python=checked)
    return run_plans("install", plans, dry_run=dry_run, consent=consent)


def plans_for(command: str, places: list[tuple[Chosen, list[Pack]]], chosen: dict[str, dict[str, Any]], *,
              scope: Scope | None,
              project: Path | None, adopt: bool = False, force: bool = False,
              python: str | None = None) -> list[Plan]:
    """The install plans of these packs in these places (install, update and a project's list
    share them): each place checked (the host runs each pack as meant, the packs load, the
    folders are safe) and planned, one plan per file, before anything is written."""
    plans = []
    for place, packs in places:
        adapter = hosts.get(place.host)
        if python is not None and python != interpreter.DEFAULT and place.scope is Scope.project:
            raise HookwrightError(f"--python {python} names an interpreter of this machine, and a project's config "
                                  "is committed: every clone would start it", hint="install it in the user scope "
                                  "(--scope user)" + (" or the local scope (--scope local)"
                                                      if Scope.local in adapter.scopes else ""))
        check_host(adapter, packs, chosen)
        check_loads(packs, adapter.name, python)
        for target, in_file in targets_for(adapter, place.scope, project, packs):
            check_place(adapter, target, in_file)
            plan = plan_install(adapter, target, in_file, chosen, adopt, force, python)
            plan.command, plan.project, plan.scope_reason = command, project, place.reason or scope_reason(scope, project)
            plans.append(plan)
    return plans
