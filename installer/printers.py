"""Each command's text for people, but doctor's: a plan's diff, findings and question, status, list,
log, rollback's journal, packs, simulate, render, prefs, --explain (output.py prints through these,
and only a run that prints one of them loads this module)."""
from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING, Any, Callable

from . import hosts, output
from .commands.result import Result, Status
from .errors import HookwrightError, command_line
from .output import escape, short_path

# rich is imported where something is printed with it (output.py says why)
if TYPE_CHECKING:
    from rich.syntax import Syntax
    from rich.table import Table

    from .commands.list import HookList
    from .commands.log import Decisions
    from .commands.pack import PackMade, PackTested
    from .commands.packs import PackList
    from .commands.prefs import Preferences, PrefsWritten
    from .commands.render import Rendered
    from .commands.rollback import Journal
    from .commands.simulate import Simulation
    from .commands.status import Installs
    from .hosts.base import Entry
    from .planning.plan import Plan


def _diff(text: str) -> Syntax:
    from rich.syntax import Syntax

    return Syntax(text, "diff", theme="ansi_dark", background_color="default")


# each command's payload (commands/*.py) by its class, and how it prints as text
PRINTERS: dict[str, Callable[[Any, Result], None]] = {
    "Installs": lambda status, _: print_status(status),
    "HookList": lambda listed, _: print_hooks(listed),
    "Decisions": lambda decisions, _: print_decisions(decisions),
    "Journal": lambda journal, _: print_journal(journal),
    "Rendered": lambda rendered, _: print_rendered(rendered),
    "PackList": lambda listed, _: print_packs(listed),
    "PackMade": lambda made, _: print_pack_made(made),
    "PackTested": lambda tested, _: print_pack_tested(tested),
    "Preferences": lambda preferences, _: print_preferences(preferences),
    "PrefsWritten": lambda written, result: print_prefs_written(written, result.status),
    "Simulation": lambda simulation, _: print_simulation(simulation),
    "Rules": lambda rules, _: print_rule(rules.rules[0]) if rules.one else print_rules(rules.rules),
}


def print_outcome(result: Result) -> None:
    """A writing command's plans, notes and outcome (output.print_result: not JSON, no payload)."""
    if result.status in (Status.DRY_RUN, Status.NEEDS_CONFIRMATION, Status.REFUSED) or output.verbosity > 0:
        for index, plan in enumerate(result.plans):  # (a file's header once, over its plans in a row)
            print_plan(plan, header=index == 0 or result.plans[index - 1].target.config != plan.target.config)
    elif result.status is Status.APPLIED and not result.shown:  # --yes: what the change brings is said all the same
        for plan in result.plans:
            _print_plan_findings(plan, changes=(("introduced", "this change introduced"),), kept=False,
                                 hints=output.verbosity >= 0)
    if output.verbosity < 0 and result.exit_code == 0:  # (what went wrong is said all the same)
        return
    for plan in result.plans:
        for note in (*plan.notes, *(n for p in plan.packs for n in p.notes)):
            output.out().print(f"[dim]note:[/] {escape(note)}")
    for note in result.notes:  # ("nothing to do: ...", said as the outcome where there is no plan)
        output.out().print(escape(note) if not result.plans else f"[dim]note:[/] {escape(note)}")
    if not result.plans:
        return
    target = ", ".join(dict.fromkeys(str(path) for p in result.plans for path in _written(p)))
    undone = "; ".join(f"{p.undoes_what} ({p.undoes}) in {p.target.config}" for p in result.plans if p.undoes)
    message = {
        Status.APPLIED: (f"[green]done[/]: rollback undid {escape(undone)}" if undone else
                         f"[green]done[/]: {result.command} wrote {escape(target)}")
                   + (f" (operation {result.operation.id}, backup {result.operation.backup})" if result.operation else ""),
        Status.UNCHANGED: f"[green]unchanged[/]: {escape(target)} already is as wanted; nothing written",
        Status.DRY_RUN: "[yellow]dry run[/]: nothing written",
        Status.NEEDS_CONFIRMATION: "[yellow]needs confirmation[/]: no terminal to ask on; rerun with --yes to apply"
                              + (" and --allow-conflicts to accept the conflicts it introduces"
                                 if any(p.blocking_findings for p in result.plans) else ""),
        Status.DECLINED: "[yellow]declined[/]: nothing written",
        Status.REFUSED: "[red]refused[/]: the change introduces " + _count(
            sum(len(p.blocking_findings) for p in result.plans), "error") + " (shown above); nothing written. "
            "Rerun with --yes --allow-conflicts to write it anyway",
    }[result.status]
    (output.err() if result.status in (Status.NEEDS_CONFIRMATION, Status.REFUSED) else output.out()).print(message)


def print_rendered(rendered: Rendered) -> None:
    """The file itself on stdout, so it can be piped or compared."""
    sys.stdout.write(rendered.content)
    output.err().print(f"[dim]install would write this to {escape(rendered.file)}, and the runtime files "
                f"{escape(', '.join(rendered.runtime_files) or '(none: they are already there)')}[/]")


def print_prefs_written(written: PrefsWritten, status: str) -> None:
    if output.verbosity < 0:
        return
    if written.diff:
        output.out().print(_diff(written.diff))
    output.out().print({Status.APPLIED: "[green]done[/]: wrote ", Status.DRY_RUN: "[yellow]dry run[/]: would write ",
                 Status.UNCHANGED: "[green]unchanged[/]: "}[status] + escape(written.file))
    if written.note:
        output.out().print(f"[dim]note:[/] {escape(written.note)}")


def _written(plan: Plan) -> list[Any]:
    """What a plan writes, as the done line names it: the config, else the runtime folders."""
    if plan.config_changed or not plan.changed:
        return [plan.target.config]
    return [c.folder for c in plan.packs if c.touches_files] + sorted(plan.other_writes)


def print_plan(plan: Plan, header: bool = True) -> None:
    """`header` False: the plan follows another on the same file, whose header names it."""
    scope = f"{plan.target.scope.value} scope" + (f": {plan.scope_reason}" if plan.scope_reason else "")
    if header:
        output.out().print(f"[bold]{plan.command}[/] → {escape(str(plan.target.config))} "
                    f"([cyan]{plan.target.host}[/], {escape(scope)})")
    if plan.undoes:
        output.out().print(f"  [bold]undo operation {plan.undoes}[/]")
    for change in plan.packs:
        versions = (f" {change.version_from} → {change.version_to}" if change.version_from and change.version_to
                    and change.version_from != change.version_to else "")
        failure = f"; {change.on_failure_how}" if change.on_failure_how else ""
        output.out().print(f"  pack [bold]{escape(change.pack)}[/]: {change.action}{versions}{escape(failure)}")
        if change.source_to and change.source_from != change.source_to:
            came = f"{change.source_from} → {change.source_to}" if change.source_from else change.source_to
            output.out().print(f"    from {escape(came)}")
    updates = plan.updates()
    updated = {entry for pair in updates for entry in pair}
    for old, new in updates:
        output.out().print(f"  [yellow]~ update[/] {escape(new.describe())}  [dim]{escape(_what_changed(old, new))}[/]")
    for entry in plan.added:
        if entry not in updated:
            output.out().print(f"  [green]+ add[/]    {escape(entry.describe())}  [dim]{escape(entry.command)}[/]")
    for entry in plan.removed:
        if entry not in updated:
            output.out().print(f"  [red]- remove[/] {escape(entry.describe())}  [dim]{escape(entry.command)}[/]")
    for change in plan.packs:
        for name in sorted(change.writes):
            output.out().print(f"  [green]write[/]  {escape(str(change.folder / name))}")
        for name in change.removes:
            output.out().print(f"  [red]delete[/] {escape(str(change.folder / name))}")
    for path in sorted(plan.other_writes):
        output.out().print(f"  [green]write[/]  {escape(str(path))}")
    _print_plan_findings(plan)
    diff = plan.unified_diff()
    if diff:
        output.out().print(_diff(diff))
    elif not plan.changed:
        output.out().print("  [dim](no change)[/]")


def _what_changed(old: Entry, new: Entry) -> str:
    """The fields an update changes, old → new, in a few words."""
    before, after = {"matcher": old.matcher, **old.handler}, {"matcher": new.matcher, **new.handler}
    changed = [f"{key} {json.dumps(before.get(key))} → {json.dumps(after.get(key))}"
               for key in dict.fromkeys([*before, *after]) if before.get(key) != after.get(key)]
    return "; ".join(changed) or "key order"


SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "dim"}
PLAN_CHANGES = (("introduced", "this change introduces"), ("resolved", "this change resolves"))


def _print_plan_findings(plan: Plan, changes: tuple[tuple[str, str], ...] = PLAN_CHANGES, kept: bool = True,
                         hints: bool = True) -> None:
    """What the change does to doctor's findings: the ones it introduces and resolves in full,
    the ones it keeps as a count (doctor shows them)."""
    for change, heading in changes:
        shown = [f for f in plan.findings if f.change == change]
        if not shown:
            continue
        output.out().print(f"  [bold]{heading}[/] {_count(len(shown), 'finding')}:")
        for item in shown:
            f = item.finding
            output.out().print(f"    [{SEVERITY_STYLE[f.severity]}]{f.severity}[/] {f.rule}  "
                        f"[dim]{escape(f'{f.path}:{f.line}:{f.column}')}[/]")
            output.out().print(f"      {escape(f.message)}")
            if change == "introduced" and hints:
                output.out().print(f"      [dim]hint: {escape(f.hint)}[/]")
    still = sum(1 for f in plan.findings if f.change == "kept") if kept else 0
    if still:
        where = plan.project or plan.target.project

        command = command_line("doctor", *(["--project", where] if where else []))
        output.out().print(f"  [dim]it keeps {_count(still, 'existing finding')} ({escape(command)} shows them)[/]")


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def ask(plan: Plan, changed_since: bool = False) -> bool:
    if changed_since:
        output.out().print(f"[bold yellow]{escape(str(plan.target.config))} changed while you were deciding[/]: "
                    "this is the plan now")
    with output.out().capture() as captured:
        print_plan(plan)
    _show_or_page(captured.get())
    from rich.prompt import Confirm

    blocking = plan.blocking_findings
    if not blocking:
        return Confirm.ask("Apply this change?", default=False, console=output.out())
    first = blocking[0].finding
    more = f" and {_count(len(blocking) - 1, 'more error')}" if len(blocking) > 1 else ""
    output.out().print(f"[bold red]This change introduces {first.rule}[/]{more}: {escape(first.message)}")
    return Confirm.ask("Apply it anyway, conflict and all?", default=False, console=output.out())


def pick(question: str, choices: list[str]) -> list[int]:
    """A question on the terminal with numbered choices: the indexes picked (`all`: every one)."""
    from rich.prompt import Prompt

    output.out().print(f"[bold]{escape(question)}[/]:")
    menu([(f"{number}.", escape(choice)) for number, choice in enumerate(choices, 1)])
    numbers = [str(number) for number in range(1, len(choices) + 1)]
    answer = Prompt.ask("Which one (a number, or all)", choices=[*numbers, "all"], case_sensitive=False,
                        show_choices=False, console=output.out())
    return list(range(len(choices))) if answer.lower() == "all" else [int(answer) - 1]


def _show_or_page(text: str) -> None:
    """The text as it is, or, when it is taller than the terminal, through the user's pager
    ($PAGER, else less), which leaves it on the screen above the question that follows."""
    from rich.text import Text

    width, height = output.out().size
    lines = sum(max(1, -(-len(line) // width)) for line in Text.from_ansi(text).plain.split("\n"))
    pager = os.environ.get("PAGER") or ("less" if shutil.which("less") else None)
    if lines < height - 1 or not pager:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    # less: -R keeps the colours, -X leaves the text on the screen, -F quits at once if it fits after all
    env = {**os.environ, "LESS": os.environ.get("LESS", "-RXF")}
    subprocess.run(pager, shell=True, input=text.encode("utf-8", "replace"), env=env, check=False)


class _Rows:
    """Rows for people: a table (no box, a header) where every column fits the terminal with its
    ids whole and its text wrapped between words; on a terminal too narrow for that, one block per
    row (its ids on the first line, each other column on a line of its own, wrapped between words
    under itself). `whole`: the columns of ids (never cut); cells may hold markup."""

    GAP = 2

    def __init__(self, *columns: str, whole: tuple[str, ...] = ()) -> None:
        self.columns = columns
        self.whole = whole
        self.rows: list[tuple[str, ...]] = []

    def add_row(self, *cells: str) -> None:
        self.rows.append(cells)

    def print(self) -> None:
        if self._fits():
            output.out().print(self._table(), soft_wrap=False)
            return
        for cells in self.rows:
            named = dict(zip(self.columns, cells))
            output.out().print("  ".join(named[c] for c in self.whole if named[c]) or cells[0])
            menu([(f"[dim]{column.strip()}:[/]", named[column]) for column in self.columns
                  if column not in self.whole and _plain(named[column]).strip()], indent=2)

    def _fits(self) -> bool:
        """Every id whole and every word of the other columns unbroken, side by side."""
        needed = 0
        for index, column in enumerate(self.columns):
            cells = [_plain(column), *(_plain(row[index]) for row in self.rows)]
            widths = [len(cell) if column in self.whole else max(map(len, cell.split() or [""])) for cell in cells]
            needed += max(widths) + self.GAP
        return needed - self.GAP <= output.out().width

    def _table(self) -> Table:
        from rich.table import Table

        table = Table(box=None, pad_edge=False)
        for name in self.columns:
            table.add_column(name, overflow="fold", no_wrap=name in self.whole)
        for cells in self.rows:
            table.add_row(*cells)
        return table


def _plain(markup: str) -> str:
    from rich.text import Text

    return Text.from_markup(markup).plain


def print_journal(journal: Journal) -> None:
    rows = journal.journal
    if not rows:
        output.out().print("no operation there in the journal" if journal.filtered else "the journal is empty")
        return

    table = _Rows("here", "operation", "when", "what", "packs", "file", "entries", whole=("operation",))
    for row in rows:
        when = datetime.datetime.fromtimestamp(row["time"]).strftime("%Y-%m-%d %H:%M:%S")
        what = row["kind"] + (f" of {row['undoes']}" if row.get("undoes") else "")
        state = " [dim](undone)[/]" if row["undone"] else (" [yellow](interrupted)[/]" if row["state"] == "pending"
                                                             else "")
        table.add_row("*" if row["here"] else "", row["id"], when, what + state, escape(", ".join(row["packs"])),
                      escape(short_path(row["target"]["config"], None)),  # (the journal spans projects: no relative path)
                      f"+{len(row['added'])} -{len(row['removed'])}")
    table.print()
    if any(row["here"] for row in rows):
        output.out().print("[dim]here *: an operation on a file of this project (rollback without --to undoes the newest)[/]")


def print_decisions(decisions: Decisions) -> None:
    """`hookwright log`: one row per decision, newest first."""
    entries = decisions.entries
    where = f" in {short_path(decisions.project, None)}" if decisions.project else ""
    if not entries:
        filters = ", ".join(f"--{k} {v}" for k, v in decisions.filters.items() if v and k != "limit")
        read = ", ".join(short_path(f, None) for f in decisions.files) or "no decision log yet"
        output.out().print(f"no decisions{escape(where)}{escape(' matching ' + filters) if filters else ''} "
                    f"[dim](read: {escape(read)})[/]")
        return

    colour = {"deny": "red", "ask": "yellow", "error": "magenta", "rewrite": "cyan", "allow": "green"}
    table = _Rows("when", "decision", "hook", "tool", "why", whole=("when", "decision", "hook"))
    for entry in entries:
        when = str(entry.get("time", "?"))[:19].replace("T", " ")
        if when[:10] == datetime.date.today().isoformat():
            when = when[11:]
        decided = str(entry.get("decision"))
        if entry.get("blocked"):
            decided += " (blocked)"
        why = str(entry.get("reason") or "")
        changed = entry.get("changed")
        if isinstance(changed, dict):
            why = "; ".join([why] * bool(why) + [f"{k}: {json.dumps(v[0])} → {json.dumps(v[1])}"
                                                  for k, v in changed.items() if isinstance(v, list) and len(v) == 2])
        if not decisions.project and entry.get("project"):
            why += f" [{short_path(str(entry['project']), None)}]"
        hook = f"{entry.get('pack')}/{entry.get('hook')}"
        table.add_row(escape(when), f"[{colour.get(decided.split()[0], 'white')}]{escape(decided)}[/]", escape(hook),
                      escape(str(entry.get("tool") or "-")), escape(why))
    table.print()
    if output.verbosity >= 0:
        more = f"; {decisions.skipped} unreadable lines skipped" if decisions.skipped else ""
        output.out().print(f"[dim]{_count(len(entries), 'decision')}{escape(where)}, newest first{more}[/]")


def print_status(status: Installs) -> None:
    """`hookwright status`: a table of installs, then what is wrong with each that is not whole."""
    from .provenance import Source  # (status has it loaded; every doctor run would pay 0.5 ms for it)

    installs = status.installs
    for error in status.unreadable:  # (the JSON document holds them as error documents)
        output.print_error(HookwrightError(error["message"], path=error["path"], line=error["line"], column=error["column"],
                                    hint=error["hint"], detail=error["detail"]))
    if not installs:
        output.out().print(f"no hookwright pack is installed for {escape(status.project)} or for you"
                    + (" in the files that could be read" if status.unreadable else "")
                    + " ([dim]hookwright packs[/] lists the packs to install)")
        return
    sources = any(row["source"] for row in installs)  # (a column of its own only where a pack came from elsewhere)
    table = _Rows("pack", "version", *(["from"] if sources else []), "agent", "scope", "file", "options", "state",
                  whole=("pack", "version", "agent", "scope"))
    for row in installs:
        version = row["version"] or "?"
        if row["upgrade"]:
            version += f" [yellow]({row['bundled_version']} bundled)[/]"
        modified = any(p["rule"] == "install/runtime-modified" for p in row["problems"])
        state = ("[red]modified[/]" if modified else f"[red]{_count(len(row['problems']), 'problem')}[/]"
                 if row["problems"] else "[green]ok[/]" if row["checked"]
                 else "[yellow]not checked[/] (its file cannot be read)")
        options = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in row["options"].items())
        came = [escape(Source.from_json(row["source"]).describe() if row["source"] else "bundled")] if sources else []
        table.add_row(escape(row["pack"]), version, *came, row["host"], row["scope"],
                      escape(short_path(row["file"], status.project)), escape(options or "-"), state)
    table.print()
    for row in installs:
        for problem in row["problems"]:
            output.out().print(f"[{SEVERITY_STYLE[problem['severity']]}]{problem['severity']}[/] {problem['rule']}: "
                        f"{escape(problem['message'])}")
            output.out().print(f"  [dim]hint: {escape(problem['hint'])}[/]")
    for row in installs:
        if row["reference"] == "receipt" and output.verbosity >= 0:
            output.out().print(f"[dim]{escape(row['pack'])} {escape(row['version'] or '?')} ({row['scope']}): its runtime files "
                        "are checked against its receipt only, which lives beside them: this hookwright does not ship "
                        "that pack at that version[/]")
    upgrades = [row for row in installs if row["upgrade"]]
    if upgrades and output.verbosity >= 0:
        output.out().print(f"[dim]{_count(len(upgrades), 'pack')} can be upgraded:[/]")
        for row in upgrades:
            where = ["--project", status.project] if row["scope"] != "user" else []
            output.out().print(f"  {escape(command_line('install', row['pack'], '--host', row['host'], '--scope', row['scope'], *where))}")


def print_preferences(preferences: Preferences) -> None:
    rows = preferences.preferences
    if not rows:
        output.out().print("no preferences set (files: " + escape(", ".join(preferences.files.values())) + ")")
    for row in rows:
        over = f" [dim](overrides {row['overrides']})[/]" if row["overrides"] else ""
        output.out().print(f"{row['kind']:<8} {escape(row['id']):<30} {row['value']:<11} {row['source']}{over}")


MENU_TEXT_MIN = 36  # columns the text beside the labels needs; with less, each text goes under its label


def menu(rows: list[tuple[str, str]], indent: int = 2) -> None:
    """Label and text side by side, the text wrapped at the terminal's width between words,
    under itself (markup in both): the interactive menus and the pack listing. Where the
    labels leave the text too little room (a narrow terminal), each text goes under its label."""
    from rich.padding import Padding
    from rich.table import Table

    label_width = max((len(_plain(label)) for label, _ in rows), default=0)
    longest_word = max((len(word) for _, text in rows for word in _plain(text).split()), default=0)
    beside = output.out().width - indent - label_width - 1 >= max(MENU_TEXT_MIN, longest_word)
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=beside, overflow="fold")  # (only a word longer than the column is cut)
    if beside:
        grid.add_column(overflow="fold")
    for label, text in rows:
        if beside:
            grid.add_row(label, text)
        else:
            grid.add_row(label)
            grid.add_row(Padding(text, (0, 0, 0, 4), expand=False))
    output.out().print(Padding(grid, (0, 0, 0, indent), expand=False), soft_wrap=False)


def print_packs(listed: PackList) -> None:
    if listed.not_for_host:
        menu([(f"[dim]{escape(name)}:[/]", f"[dim]not for this agent: {escape(why)}[/]")
              for name, why in listed.not_for_host.items()], indent=0)
    for pack in listed.packs:
        menu([(f"[bold]{escape(pack['name'])}[/] {pack['version']}:", escape(pack["description"]))], indent=0)
        rows = []
        for hook in pack["hooks"]:
            flags = [f for f, on in (("blocks", hook["blocks"]), ("rewrites input", hook["rewrites_input"])) if on]
            wiring = "; ".join(f"{host}: {' and '.join([t['event'], *t['also_on']])}"
                               + (f" on {t['matcher']}" if t["matcher"] else "")
                               for host, t in hook["hosts"].items())
            rows.append((f"{escape(hook['id'])}:", f"{escape(hook['description'])} [dim]({escape(wiring)}; "
                                                   f"{', '.join(flags) or 'observes only'})[/]"))
        for name, option in pack["options"].items():
            choices = f" [dim](one of {', '.join(option['choices'])})[/]" if option.get("choices") else ""
            rows.append((f"option {name}={escape(str(option['default']).lower())}:",
                         escape(option["description"]) + choices))
        menu(rows)


def print_pack_made(made: PackMade) -> None:
    if output.verbosity < 0:
        return
    output.out().print(f"[green]done[/]: made pack {escape(made.name)} in {escape(made.folder)}"
                + (f" from {escape(made.source)}" if made.source else ""))
    menu([(f"{escape(hook['id'])}:", escape(f"{hook['event']}" + (f" on {hook['matcher']}" if hook["matcher"] else "")
                                           + f": {hook['command']}")) for hook in made.hooks])
    for file in made.files:
        if file["from"]:
            output.out().print(f"  [dim]copied {escape(file['from'])} as {escape(file['name'])}[/]")
    for left in made.not_carried:
        output.err().print(f"[yellow]left out[/]: {escape(left['event'])} {escape(left['type'])} hook (line {left['line']}):"
                    f" {escape(left['why'])}")
    output.out().print("next: " + "  or  ".join(escape(step) for step in made.next_steps))


def print_pack_tested(tested: PackTested) -> None:
    output.out().print(f"pack {escape(tested.pack)} ({escape(tested.folder)})")
    for host in tested.hosts:
        if not host["tested"]:
            output.out().print(f"[yellow]{escape(host['title'])}: not tried[/]: {escape(host['why'] or '')}")
            continue
        output.out().print(f"[bold]{escape(host['title'])}[/]")
        rows = []
        for case in host["cases"]:
            mark = {True: "[green]passed[/]", False: "[red]failed[/]", None: "[yellow]not run[/]"}[case["passed"]]
            said = case.get("effect") or case.get("why") or ""
            if case.get("reason"):
                said += f" ({case['reason']})"
            if case.get("rewritten_to") is not None:
                said += f"; its input: {json.dumps(case['rewritten_to'])}"
            problems = [*case.get("differs", []), *case.get("schema_errors", [])]
            rows.append((f"{escape(case['case'])}: {mark}", escape(said + "".join(f"; {p}" for p in problems))))
        menu(rows)


def print_rule(rule: dict[str, Any]) -> None:
    """--explain RULE: the rule's message and hint as templates, and why it matters."""
    from .doctor import report

    output.out().print(f"[bold]{rule['id']}[/] ({rule['severity']})")
    output.out().print(f"message: {escape(report.template(rule['message']))}")
    if report.template(rule["hint"]) != "<hint>":
        output.out().print(f"hint: {escape(report.template(rule['hint']))}")
    output.out().print()
    output.out().print(escape(rule["explanation"]))


def print_rules(rules: list[dict[str, Any]]) -> None:
    """One line per rule, by kind: the id, its severity, what it reports (the message as a template)."""
    from .doctor import report

    table = _Rows("rule", "severity", "reports", whole=("rule", "severity"))
    for rule in rules:
        table.add_row(rule["id"], f"[{SEVERITY_STYLE[rule['severity']]}]{rule['severity']}[/]",
                      escape(report.template(rule["message"])))
    table.print()
    example = f"hookwright doctor --explain {rules[0]['id']}" if rules else "hookwright doctor --explain"
    output.out().print(f"[dim]{len(rules)} rules; {escape(example)} tells more of one[/]")


def print_hooks(listed: HookList) -> None:
    """`hookwright list`: one block per host and event, one line per handler."""
    rows = listed.hooks
    for path in listed.disabled_by:
        output.out().print(f"[yellow]note:[/] disableAllHooks is true in {escape(path)}")
    unreadable = [f for f in listed.files if not f["readable"]]
    for f in unreadable:
        where = f"{f['path']}:{f['line']}:{f['column'] or 1}" if f["line"] else f["path"]
        output.out().print(f"[red]unreadable:[/] {escape(where)}: {escape(f['error'] or '')}")
    for f in listed.files:
        if f.get("no_hooks_read"):
            output.out().print(f"[yellow]no hooks read from[/] {escape(f['path'])}: {escape(f['no_hooks_read'])} "
                        "(hookwright doctor tells more)")
    if not rows:
        filters = ", ".join(f"--{k} {v}" if v is not True else f"--{k}" for k, v in listed.filters.items() if v)
        read = ", ".join(f["path"] for f in listed.files if f["readable"]) or "none found"
        output.out().print(f"no hooks{escape(' matching ' + filters) if filters else ''} (files read: {escape(read)})")
        return
    colour = {"yes": "red", "unknown": "yellow", "no": "green"}
    by_event: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        by_event.setdefault((row["host"], row["event"]), []).append(row)
    for (host, event), its_rows in by_event.items():
        output.out().print(f"[bold]{escape(event)}[/] [dim]({host})[/]")
        table = _Rows("  matcher", "hook: what it runs", "timeout", "rewrites", "from", whole=("  matcher",))
        for row in its_rows:
            timeout = row["timeout"]["seconds"]
            shown_timeout = "-" if timeout is None else f"{timeout:g}s" + (" (default)" if row["timeout"]["default"]
                                                                           else "")
            rewrite = row["rewrites_input"]["status"]
            owner = row["owner"] + (f"/{row['hook']}" if row["hook"] else "")
            kind = f" ({row['type']})" if row["type"] != "command" else ""
            kind += " (fails closed)" if row["fails_closed"] else ""
            runs = f": [dim]{escape(row['runs'])}[/]" if row["runs"] else ""
            dedup = f" [dim]({escape(row['deduplicated'])})[/]" if row["deduplicated"] else ""
            matcher = row["matcher"] + (f" if {row['if']}" if row["if"] else "")
            where = dict(row["source"], path=short_path(row["source"]["path"], listed.project))
            table.add_row("  " + escape(matcher), escape(owner + kind) + runs, shown_timeout,
                          f"[{colour.get(rewrite, 'white')}]{rewrite}[/]",
                          f"{row['source']['scope']} {escape(_source(where))}{dedup}")
        table.print()


def print_simulation(simulation: Simulation) -> None:
    """`hookwright simulate`: per agent with hooks here, each handler, what it did and how it was read,
    then the outcome; an agent that was not simulated is named with the reason."""
    in_full = simulation.host == hosts.DEFAULT  # (the document is Claude Code's simulation, whole)
    if in_full:
        print_claude_simulation(simulation)
    for entry in simulation.hosts:
        if in_full and entry["host"] == simulation.host:
            continue
        _print_host_entry(entry, simulation.project)


def _print_host_entry(entry: dict[str, Any], project: str) -> None:
    """One agent's outcome (opencode's plugins, Cursor's entries), or why it was not simulated."""
    title = entry["title"]
    call = f" {entry['tool']} {json.dumps(entry.get('given_input'), ensure_ascii=False)}" if entry.get("tool") else ""
    output.out().print(f"[bold]{escape(title)}: {escape(entry.get('event') or '')}[/]{escape(call)} [dim]in {escape(project)}[/]")
    if not entry["simulated"] and not entry.get("handlers"):
        output.out().print(f"  [yellow]not simulated:[/] {escape(entry['why'] or '')}")
        return
    if entry.get("runtime"):
        output.out().print(f"  [dim]in {escape(title)}'s own runtime: {escape(entry['runtime'])}[/]")
    for row in entry.get("handlers", []):
        where = _source(row["source"])
        what = row["command"] if row.get("command") is not None else row.get("type")
        if not row["fires"]:
            output.out().print(f"  [dim]skip[/] {escape(where)}  {escape(str(what))}\n       [dim]{escape(row['why'] or '')}[/]")
            continue
        hooks = row.get("hooks")
        if hooks is not None:  # an opencode plugin: what each of its tool.execute.before did
            if not hooks:
                output.out().print(f"  [dim]no say[/] {escape(where)}  [dim](no tool.execute.before)[/]")
            for hook in hooks:
                did = f"threw: {hook['error']}" if hook["threw"] else "returned"
                output.out().print(f"  [bold]{'deny' if hook['threw'] else 'ran'}[/] {escape(where)}  [dim]{escape(did)}, "
                            f"{hook['ms']:g} ms[/]")
                if hook.get("warning"):
                    output.out().print(f"       [yellow]warning:[/] {escape(hook['warning'])}")
            continue
        if "read_as" in row:
            shown = row["decision"] or ("rewrites the input" if row.get("updated_input") is not None else "no say")
            output.out().print(f"  [bold]{escape(shown)}[/] {escape(where)}  {escape(str(what))}\n"
                        f"       [dim]{escape(row.get('event') or '')}: read as {escape(row['read_as'])}[/]")
        else:
            output.out().print(f"  [cyan]would run[/] {escape(where)}  {escape(str(what))}")
    if not entry["simulated"]:
        output.out().print(f"  [yellow]not simulated:[/] {escape(entry['why'] or '')}")
        return
    colour = {"deny": "red", "ask": "yellow", "allow": "green"}
    output.out().print(f"[bold]outcome ({escape(title)}):[/] [{colour.get(entry['decision'] or '', 'white')}]"
                f"{escape(str(entry['decision']))}[/]: {escape(entry.get('effect') or '')}"
                + (f"; reason: {escape(entry['reason'])}" if entry.get("reason") else ""))
    if entry.get("tool_input") is not None and entry.get("given_input") is not None \
            and entry["tool_input"] != entry["given_input"]:
        output.out().print(f"  input becomes: {escape(json.dumps(entry['tool_input'], ensure_ascii=False))}")
    for note in entry.get("notes", []):
        output.out().print(f"  [dim]note: {escape(note)}[/]")


def print_claude_simulation(simulation: Simulation) -> None:
    """Claude Code's part: each handler, what it did and how it was read, then the outcome."""
    payload = simulation.payload
    call = f" {payload['tool_name']} {json.dumps(payload.get('tool_input'), ensure_ascii=False)}" \
        if "tool_name" in payload else ""
    output.out().print(f"[bold]Claude Code: {escape(simulation.event)}[/]{escape(call)} [dim]in {escape(simulation.project)}[/]")
    for path in simulation.unreadable or []:
        output.out().print(f"[red]unreadable:[/] {escape(path)} (hookwright doctor says why; its hooks do not run)")
    if not simulation.handlers:
        output.out().print("no Claude Code hook is configured for this event")
    if simulation.sandboxed:
        output.out().print("[dim]in a sandbox: no network, your home folder hidden, the file system read-only[/]")
    for row in simulation.handlers:
        where = _source(row["source"]) + (" [from the project]" if row["from_project"] else "")
        what = row["command"] if row["command"] is not None else row["type"]
        if not row["fires"]:
            output.out().print(f"  [dim]skip[/] {escape(where)}  {escape(str(what))}\n       [dim]{escape(row['why'] or '')}[/]")
            continue
        if not row["simulated"]:
            output.out().print(f"  [yellow]not simulated[/] {escape(where)}  {escape(str(what))}\n       "
                        f"[dim]{escape(row['why'] or '')}[/]")
            continue
        if "read_as" not in row:
            output.out().print(f"  [cyan]would run[/] {escape(where)}  {escape(str(what))} [dim](timeout {row['timeout']:g}s)[/]")
            continue
        ended = "timed out" if row["timed_out"] else f"exit {row['exit_code']}" if row["exit_code"] is not None \
            else "did not start"
        shown = row["decision"] or ("rewrites the input" if row["updated_input"] is not None else "no say")
        output.out().print(f"  [bold]{escape(shown)}[/] {escape(where)}  {escape(str(what))}\n"
                    f"       [dim]{ended}, {row['duration_ms']:g} ms; read as {escape(row['read_as'])}[/]")
        for name in ("stdout", "stderr"):
            if row[name].strip():
                text = row[name].strip().replace("\n", " | ")
                output.out().print(f"       [dim]{name}: {escape(text[:200] + ('...' if len(text) > 200 else ''))}[/]")
        for warning in row["warnings"]:
            output.out().print(f"       [yellow]warning:[/] {escape(warning)}")
    if not simulation.ran:
        output.out().print("[dim]--list-only: nothing was run[/]")
        return
    colour = {"deny": "red", "block": "red", "defer": "yellow", "ask": "yellow", "allow": "green"}
    verdict = f"[{colour.get(simulation.decision or '', 'white')}]{simulation.decision}[/]"
    output.out().print(f"[bold]outcome:[/] {verdict}: {escape(simulation.effect or '')}"
                + (f"; reason: {escape(simulation.reason)}" if simulation.reason else ""))
    if simulation.permission_rule:
        output.out().print(f"  [dim]the rule is in {escape(simulation.permission_rule['path'])}[/]")
    if simulation.nondeterministic:
        output.out().print("  [red]nondeterministic: the last hook to finish wins[/]; it may run with any of:")
        for candidate in simulation.candidates:
            output.out().print(f"    {escape(json.dumps(candidate, ensure_ascii=False))}")
    elif simulation.tool_input is not None and simulation.tool_input != payload.get("tool_input"):
        output.out().print(f"  input replaced by: {escape(json.dumps(simulation.tool_input, ensure_ascii=False))}")
    if simulation.tool_output is not None:
        output.out().print(f"  output replaced by: {escape(json.dumps(simulation.tool_output, ensure_ascii=False))}")
    for text in simulation.context:
        output.out().print(f"  context added: {escape(text)}")
    if simulation.stops_session and not (simulation.effect or "").startswith("Claude stops"):
        output.out().print("  then the session stops (continue: false)" + (f": {escape(simulation.stop_reason)}"
                                                                     if simulation.stop_reason else ""))
    elif simulation.stop_reason:
        output.out().print(f"  stop reason, shown to the user: {escape(simulation.stop_reason)}")


def _source(src: dict[str, Any]) -> str:
    """A handler's place in a report: file:line, and the plugin it comes from."""
    return f"{src['path']}:{src['line']}" + (f" [plugin {src['plugin']}]" if src["plugin"] else "")
