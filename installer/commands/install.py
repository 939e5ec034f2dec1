"""`hookwright install`: wire packs into a host's config, copy their runtimes, keep a receipt."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import hosts, interpreter
from ..errors import HookwrightError
from ..hosts.base import Scope, scope_reason
from ..layout import DEFAULT_PYTHON
from ..packs import Pack, resolve_options
from ..planning.apply import Consent, run_plans
from ..planning.install import check_host, check_place, plan_install, targets_for, trust_plans
from ..planning.places import Chosen, places_to_install
from ..planning.plan import Plan
from ..project import project_of
from ..runtime_check import check_loads
from ..sources import load_all
from ..team import TeamList, option_assignments, read_list
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
        listed = read_list(project_of(project))
        if listed is None:
            raise HookwrightError("name at least one pack to install", hint="`hookwright packs` lists them; a "
                                  "project's own list goes in .hookwright.toml ([[packs]], docs/your-own-hooks.md)")
        return install_list(listed, host=host, scope=scope, project=project, options=options, adopt=adopt,
                            force=force, dry_run=dry_run, consent=consent, python=python)
    packs = load_all(pack_names, project)
    chosen = resolve_options(list(packs.values()), options)
    checked = interpreter.chosen(python) if python is not None else None
    again = [*consent.again, *(arg for option in options for arg in ("--option", option))]
    places = places_to_install(list(packs), host, scope, project, consent.pick, again)
    plans = plans_for("install", [(place, [packs[name] for name in place.packs]) for place in places], chosen,
                      scope=scope, project=project, adopt=adopt, force=force, python=checked)
    if consent.trust:
        plans += trust_plans(plans)
    return run_plans("install", plans, dry_run=dry_run, consent=consent)


def install_list(listed: TeamList, *, host: str | None, scope: Scope | None, project: Path | None,
                 options: list[str], adopt: bool, force: bool, dry_run: bool, consent: Consent,
                 python: str | None) -> Result:
    """The project's list (team.py) into the project scope of each agent found on this machine
    (or --host's): each pack where the list puts it and the agent runs it; a pack the agent
    cannot run, where the list does not name that agent, is left out with a note saying why."""
    if scope not in (None, Scope.project):
        raise HookwrightError(f"{listed.path.name}'s pack list is the project's: it installs into the project scope",
                              path=listed.path, hint="drop --scope, or name the packs to install elsewhere")
    agents = [host] if host else [adapter.name for adapter in hosts.every() if adapter.found_on_this_machine()]
    if not agents:
        raise HookwrightError("no agent hookwright installs into is found on this machine", path=listed.path,
                              hint="name one with --host claude (or cursor, opencode)")
    loaded = [(wanted, load_all([wanted.spec], project)) for wanted in listed.packs]
    unknown = sorted({name for wanted in listed.packs for name in wanted.hosts or () if name not in hosts.NAMES})
    if unknown:
        raise HookwrightError(f"{listed.path.name} names an agent hookwright does not know: {', '.join(unknown)}",
                              path=listed.path, hint=f"the agents: {', '.join(hosts.NAMES)}")
    every = {pack.name: pack for _, found in loaded for pack in found.values()}
    chosen = resolve_options(list(every.values()), [assignment for wanted, found in loaded for pack in found
                                                    for assignment in option_assignments(pack, wanted.options)]
                             + options)
    checked = interpreter.chosen(python) if python is not None else None
    places, notes = [], []
    for agent in agents:
        adapter = hosts.get(agent)
        packs = []
        for wanted, found in loaded:
            for pack in found.values():
                why = adapter.refusal(pack)
                if wanted.hosts is not None and agent not in wanted.hosts:
                    continue
                if why and wanted.hosts is None:
                    notes.append(f"{pack.name} is not installed into {adapter.title}: {why}")
                    continue
                packs.append(pack)
        if packs:
            places.append((Chosen(agent, Scope.project, [p.name for p in packs],
                                  f"the project's list ({listed.path.name})"), packs))
    plans = plans_for("install", places, chosen, scope=Scope.project, project=project, adopt=adopt, force=force,
                      python=checked)
    if consent.trust:
        plans += trust_plans(plans)
    result = run_plans("install", plans, dry_run=dry_run, consent=consent)
    result.notes = notes + result.notes
    return result


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
        if python is not None and python != DEFAULT_PYTHON and place.scope is Scope.project:
            raise HookwrightError(f"--python {python} names an interpreter of this machine, and a project's config "
                                  "is committed: every clone would start it", hint="install it in the user scope "
                                  "(--scope user)" + (" or the local scope (--scope local)"
                                                      if Scope.local in adapter.scopes else ""))
        check_host(adapter, packs, chosen)
        check_loads(packs, adapter.name, python)
        for target, in_file in targets_for(adapter, place.scope, project, packs):
            check_place(adapter, target, in_file)
            plans.append(replace(plan_install(adapter, target, in_file, chosen, adopt, force, python), command=command,
                                 project=project, scope_reason=place.reason or scope_reason(scope, project)))
    return plans
