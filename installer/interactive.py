"""The questions `hookwright install` asks on a terminal when no pack is named.

Agent, packs, scope, then each pack's options: every answer is checked when it is given and
asked again at once when it is wrong, and every question has the flag that answers it without
a terminal (--host, the pack names, --scope, --option). What is already installed where is
shown beside each pack, and an option's default is the value installed there, if any.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.prompt import Prompt

from . import hosts, output, printers
from .commands.status import installed
from .errors import HookwrightError, did_you_mean
from .hosts.base import SCOPE_LINES, Host, Scope, implied_scope
from .packs import bundled_pack_names, load_pack
from .planning.install import check_matchers
from .records import Record


class Answers(Record):
    host: str
    packs: list[str]
    scope: Scope
    options: list[str]  # as --option PACK.KEY=VALUE


def ask_install(host: str | None, scope: Scope | None, project: Path | None, options: list[str]) -> Answers:
    """What the user wants installed; the questions the flags already answer are not asked."""

    console = output.out()
    installs = installed(project).installs
    if host is None:  # the agents found on this machine first
        found = {h.name: h.found_on_this_machine() for h in hosts.every()}
        order = sorted(hosts.NAMES, key=lambda name: found[name] is None)
        console.print("[bold]Agents[/]")
        printers.menu([(f"[bold]{name}[/]", f"{hosts.get(name).title}: [dim]" + output.escape(
            f"found: {found[name]}" if found[name] else "not found on this machine") + "[/]") for name in order])
        host = Prompt.ask("Agent", choices=list(order), default=order[0], console=console, case_sensitive=False)
    adapter = hosts.get(host)
    chosen = _ask_packs(adapter, installs)
    if scope is None:
        console.print("[bold]Scopes[/]")
        printers.menu([(f"[bold]{choice.value}[/]", SCOPE_LINES[choice]) for choice in adapter.scopes])
        scope = Scope(Prompt.ask("Scope", choices=[s.value for s in adapter.scopes], case_sensitive=False,
                                 default=implied_scope(project).value, console=console))
    given = {assignment.partition("=")[0].rpartition(".")[2] for assignment in options}
    asked = [f"{pack}.{name}={value}" for pack in chosen
             for name, value in _ask_options(adapter, pack, _installed_options(installs, pack, host, scope), given)]
    return Answers(host, chosen, scope, [*options, *asked])


def _ask_packs(adapter: Host, installed: list[dict[str, Any]]) -> list[str]:

    names = bundled_pack_names()
    rows = []
    for number, name in enumerate(names, 1):
        pack = load_pack(name)
        why = adapter.refusal(pack)
        places = [f"{row['host']} {row['scope']}" for row in installed if row["pack"] == name]
        text = f"[dim](not for {adapter.title}: {output.escape(why)})[/]" if why else output.escape(pack.description)
        rows.append((f"{number}. [bold]{name}[/]:", text + (f" [green](installed: {', '.join(places)})[/]"
                                                         if places else "")))
    output.out().print("[bold]Packs[/]")
    printers.menu(rows)
    while True:  # until every pack named is one this agent runs
        picked = Prompt.ask("Packs to install (numbers or names, comma-separated)", console=output.out())
        by_name = {name.lower(): name for name in names}  # (answers ignore case, as every question's do)
        chosen = [names[int(t) - 1] if t.isdigit() and 0 < int(t) <= len(names) else by_name.get(t.lower(), t)
                  for t in (t.strip() for t in picked.split(",")) if t]
        problem = _unusable_packs(adapter, names, chosen)
        if problem is None:
            return list(dict.fromkeys(chosen))
        output.out().print(f"[red]{output.escape(problem)}[/]: choose again")


def _unusable_packs(adapter: Host, names: list[str], chosen: list[str]) -> str | None:
    """Why the packs picked at the prompt cannot be installed for this agent (None: they can)."""
    if not chosen:
        return "name at least one pack"
    for name in chosen:
        if name not in names:
            meant = did_you_mean(name, names)
            return f"there is no pack {name!r}" + (f" ({meant})" if meant else "")
        why = adapter.refusal(load_pack(name))
        if why:
            return why
    return None


def _installed_options(installed: list[dict[str, Any]], pack: str, host: str, scope: Scope) -> dict[str, Any]:
    for row in installed:
        if (row["pack"], row["host"], row["scope"]) == (pack, host, scope.value):
            options: dict[str, Any] = row["options"]
            return options
    return {}


def _ask_options(adapter: Host, pack_name: str, current: dict[str, Any], given: set[str]) -> list[tuple[str, str]]:
    """(option, value) for each option of the pack that this agent reads and no --option set."""
    pack = load_pack(pack_name)
    values = pack.defaults() | {k: v for k, v in current.items() if k in pack.options}
    answers = []
    for name, option in pack.options.items():
        if name in given or adapter.ignored_options(pack, {name: values[name]}):
            continue
        shown = str(values[name]).lower() if option.type == "bool" else str(values[name])
        printers.menu([(f"[bold]{pack_name}.{name}[/]", output.escape(option.description))])
        while True:
            text = Prompt.ask(f"{pack_name}.{name}", default=shown, choices=list(option.choices) or None,
                              case_sensitive=False,
                              console=output.out())
            try:
                value = option.parse(text)
                check_matchers(adapter, pack, values | {name: value})
            except HookwrightError as error:
                output.out().print(f"[red]{output.escape(error.message)}[/]: answer again")
                continue
            values[name] = value
            answers.append((name, text))
            break
    return answers
