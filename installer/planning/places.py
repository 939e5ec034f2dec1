"""Where packs are installed for a project, and which of those places a command acts on when
--host and --scope do not say: the install you are looking at.

A place is one agent's scope (`claude project`): the places of a project are the ones `status`
lists for it (its own scopes, and the user's). uninstall, and install of a pack installed
already (an upgrade or a repair), act where the pack is; where it is in several places, a
person on a terminal picks one (or all), and anyone else is refused (exit 3) with the command
that picks each. A place named by --host and --scope where the pack is not, while it is
installed elsewhere for the project, is refused the same way: "not installed here" is never a
success while the pack stays installed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from .. import hosts
from ..errors import ExitCode, HookwrightError, command_line
from ..hosts.base import Scope, implied_scope
from ..project import project_of
from ..records import Record
from .uninstall import installed_receipts

FOUND = "where it is installed for this project"  # the plan's reason for a place no option named
# (question, choices) -> the indexes picked: a person asked on a terminal (None: nobody to ask)
Pick = Callable[[str, list[str]], list[int]]


class Place(Record):
    host: str
    scope: Scope
    file: Path  # the config (for opencode, the plugins folder)
    packs: tuple[str, ...]  # the packs installed there
    unreadable: HookwrightError | None = None  # its config cannot be read: which packs it holds is not known

    @property
    def name(self) -> str:
        return f"{hosts.get(self.host).title} {self.scope.value} scope"

    def flags(self, project: Path | None) -> list[str]:
        """The options that pick this place (--project as given, so the command works from here)."""
        return ["--host", self.host, "--scope", self.scope.value] + (
            ["--project", str(project)] if project is not None and self.scope is not Scope.user else [])


class Chosen(Record):
    """One place a command acts on, and the packs it acts on there (empty: every pack there)."""

    host: str
    scope: Scope
    packs: list[str]
    reason: str | None  # why this place, when the command line did not say it (the plan's header shows it)


def installed_places(project: Path | None, host: str | None = None, scope: Scope | None = None) -> list[Place]:
    """Every place with a pack of ours for this project (the rows of `status`), in status's order."""
    places = []
    for adapter in [hosts.get(host)] if host else hosts.every():
        for where in [scope] if scope else adapter.scopes:
            try:
                target = adapter.target(where, project, None)
            except HookwrightError:  # not a place here: a scope the host lacks, a project that is the home folder
                continue
            unreadable = None
            try:
                wired = adapter.packs_in(target)
            except HookwrightError as error:  # its receipts say what is there, and maybe not all
                wired, unreadable = set(), error
            packs = sorted(set(installed_receipts(target)) | wired)
            if packs or unreadable:
                places.append(Place(adapter.name, where, target.config, tuple(packs), unreadable))
    return places


def _holding(places: list[Place], names: list[str]) -> list[Place]:
    """The places that hold one of the packs (any pack, without names). A pack found in no
    readable config while one cannot be read is not known to be nowhere: that file's error is
    raised (exit 2), never "nothing to do"."""
    found = [p for p in places if (set(names) & set(p.packs) if names else p.packs)]  # (same test as above)
    unknown = [p for p in places if p.unreadable is not None]
    if not found and unknown:
        raise unknown[0].unreadable  # type: ignore[misc]
    return found


def places_to_remove(command: str, names: list[str], host: str | None, scope: Scope | None, project: Path | None,
                     pick: Pick | None, again: list[str]) -> tuple[list[Chosen], list[str]]:
    """Where uninstall acts: ([chosen places], [notes for the packs named that are nowhere]).
    `again`: the options to repeat in a command that picks a place (--yes, --dry-run...)."""
    if host is not None and scope is not None:
        return _named_place(command, names, host, scope, project, again)
    places = _holding(installed_places(project, host, scope), [])
    if not names:
        if not places:
            _refuse_if_elsewhere(command, [], host, scope, project, again)
            return [], [_nowhere([], project)]
        chosen = _one_of(command, [], places, project, pick, again)
        return [Chosen(p.host, p.scope, [], FOUND) for p in chosen], []
    return _per_pack(command, names, places, host, scope, project, pick, again)


def places_to_install(names: list[str], host: str | None, scope: Scope | None, project: Path | None,
                      pick: Pick | None, again: list[str]) -> list[Chosen]:
    """Where install acts: without --host and --scope, a pack installed for this project already
    is upgraded or repaired where it is; any other pack, and every pack with either option, goes
    where the options say (Claude Code, and the user scope, or the project scope with --project)."""
    if host is not None or scope is not None:  # (a new install's place, as the options say it)
        return [Chosen(host or hosts.DEFAULT, scope or implied_scope(project), list(names), None)]
    places = installed_places(project)
    chosen: dict[tuple[str, Scope], Chosen] = {}
    for name in names:
        where = [p for p in places if name in p.packs]  # (an unreadable config: the plan says why, exit 2)
        targets: list[tuple[str, Scope, str | None]] = [(hosts.DEFAULT, implied_scope(project), None)]
        if where:
            targets = [(p.host, p.scope, FOUND) for p in _one_of("install", [name], where, project, pick, again)]
        for place_host, place_scope, reason in targets:
            key = (place_host, place_scope)
            chosen.setdefault(key, Chosen(place_host, place_scope, [], reason)).packs.append(name)
    return list(chosen.values())


def _per_pack(command: str, names: list[str], places: list[Place], host: str | None, scope: Scope | None,
              project: Path | None, pick: Pick | None, again: list[str]) -> tuple[list[Chosen], list[str]]:
    chosen: dict[tuple[str, Scope], Chosen] = {}
    notes = []
    for name in names:
        where = _holding(places, [name])
        if not where:
            _refuse_if_elsewhere(command, [name], host, scope, project, again)
            notes.append(_nowhere([name], project))
            continue
        for place in _one_of(command, [name], where, project, pick, again):
            key = (place.host, place.scope)
            chosen.setdefault(key, Chosen(place.host, place.scope, [], FOUND)).packs.append(name)
    return list(chosen.values()), notes


def _named_place(command: str, names: list[str], host: str, scope: Scope, project: Path | None,
                 again: list[str]) -> tuple[list[Chosen], list[str]]:
    """--host and --scope both given: that place; a pack named that is not there but elsewhere is refused."""
    there = installed_places(project, host, scope)
    if there and there[0].unreadable is not None:
        raise there[0].unreadable
    installed = set(there[0].packs) if there else set()
    missing = [name for name in names if name not in installed] if names else ([] if installed else [""])
    notes = []
    for name in missing:
        _refuse_if_elsewhere(command, [name] if name else [], host, scope, project, again)
        notes.append(_nowhere([name] if name else [], project, hosts.get(host).title + f" {scope.value} scope"))
    wanted = [name for name in names if name in installed]
    if names and not wanted:
        return [], notes
    if not names and not installed:
        return [], notes
    return [Chosen(host, scope, wanted, None)], notes


def _refuse_if_elsewhere(command: str, names: list[str], host: str | None, scope: Scope | None,
                         project: Path | None, again: list[str]) -> None:
    """The packs are not where the options say, but are installed elsewhere for this project: refuse."""
    elsewhere = [p for p in installed_places(project) if (set(names) & set(p.packs) if names else p.packs)]
    if not elsewhere:
        return
    what = names[0] if names else "no hookwright pack"
    said = " ".join(filter(None, [f"--host {host}" if host else "", f"--scope {scope.value}" if scope else ""]))
    raise HookwrightError(
        f"{what} is not installed where {said} says{'' if names else ' is installed'}, but "
        f"{'it is' if names else 'packs are'} installed for this project in {_count(len(elsewhere), 'other place')}; "
        "nothing was changed", code=ExitCode.REFUSED,
        detail=_commands(command, names, elsewhere, project, again), hint="run the command of the place you mean")


def _one_of(command: str, names: list[str], places: list[Place], project: Path | None, pick: Pick | None,
            again: list[str]) -> list[Place]:
    """The one place there is, or the ones a person picks (several: asked; nobody to ask: refused)."""
    if len(places) == 1:
        return places
    what = names[0] if names else "hookwright packs"
    question = f"{what} {'is' if names else 'are'} installed for this project in {len(places)} places"
    if pick is not None:
        picked = pick(question, [f"{p.name}: {p.file}" for p in places])
        if picked:
            return [places[i] for i in picked]
        raise HookwrightError("no place was chosen; nothing was changed", code=ExitCode.REFUSED)
    raise HookwrightError(f"{question}; say which (nothing was changed)", code=ExitCode.REFUSED,
                          detail=_commands(command, names, places, project, again),
                          hint="run the command of the place you mean")


def _commands(command: str, names: list[str], places: list[Place], project: Path | None, again: list[str]) -> str:
    """One line per place: the command that acts there, then the file."""
    return "\n".join(f"  {command_line(command, *(names or p.packs), *p.flags(project), *again)}    # {p.file}"
                     for p in places)


def _nowhere(names: list[str], project: Path | None, where: str | None = None) -> str:
    what = f"{names[0]} is not installed" if names else "no hookwright pack is installed"
    return f"nothing to do: {what} " + (f"in {where} " if where else "") + f"for {project_of(project)} or for you"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")
