"""The command line: parse, call one function per command, print its result in one place.

Heavy modules (jsonschema-rs, deepdiff, rich) load inside the commands, so `--help` is quick.
"""

import copy
import errno
import functools
import os
import signal
import sys
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Callable, List, Literal, Optional

import typer

from .errors import ExitCode, HookwrightError
from .hosts import DEFAULT as DEFAULT_HOST
from .hosts import NAMES as HOST_NAMES
from .hosts.base import Scope

# Each command imports its own modules when it runs: all of them at the top would cost --help 80 ms,
# status 53 ms and doctor FILE 72 ms of CPU (scripts/bench_start.py).
if TYPE_CHECKING:
    from typer._click.core import Command  # (typer vendors click)
    from typer.models import CommandInfo

    from .commands.result import Result
    from .planning.apply import Consent

HELP_FLAGS = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    name="hookwright",
    help="Install, check and remove the hooks of AI coding agents, without losing anyone's config.",
    no_args_is_help=True,
    context_settings=HELP_FLAGS,
    add_completion=True,
    pretty_exceptions_enable=False,
)

def _either(names: List[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


HOSTS = _either(list(HOST_NAMES))  # "claude, cursor or opencode": the hosts' registry, in words
HOSTS_WITH_DEFAULT = _either([f"{name} (default)" if name == DEFAULT_HOST else name for name in HOST_NAMES])
JsonOpt = typer.Option(False, "--json", help="Print one versioned JSON document on stdout.")
DryRunOpt = typer.Option(False, "--dry-run", help="Show the plan; write nothing.")
YesOpt = typer.Option(False, "--yes", "-y", help="Apply without asking.")
ScopeOpt = typer.Option(None, "--scope", help="user (default), project or local.")
HostOpt = typer.Option(None, "--host", help=f"Agent whose hooks to change: {HOSTS_WITH_DEFAULT}.")
ForceOpt = typer.Option(False, "--force", help="Overwrite or remove a hookwright plugin file someone edited (opencode).")
ProjectOpt = typer.Option(None, "--project", help="The project folder (default: the project the current folder is "
                                                  "in: the nearest folder above with an agent's config folder, "
                                                  "else the git root).",
                          file_okay=False)


def _version(show: bool) -> None:
    if show:
        from . import __version__

        print(f"hookwright {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit."),
          quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only what was asked for and errors: "
                                                                  "findings without hints, no notes, no summary."),
          verbose: bool = typer.Option(False, "--verbose", "-v", help="Print more: the plan of a change made with "
                                                                      "--yes, the other places a finding involves.")) -> None:
    """Install, check and remove the hooks of AI coding agents, without losing anyone's config."""
    from . import output

    if quiet and verbose:
        raise typer.BadParameter("--quiet and --verbose ask for opposite things", param_hint="--quiet")
    output.verbosity = -1 if quiet else 1 if verbose else 0


AllowConflictsOpt = typer.Option(False, "--allow-conflicts",
                                 help="With --yes: write even if the change introduces a conflict (an error doctor finds).")
OutsideScopeOpt = typer.Option(False, "--allow-outside-scope",
                               help="Write through a link that leads out of the scope's folder (a linked settings "
                                    "file or .claude folder) or onto another scope's file. Deletes never go "
                                    "through a link.")
TrustHooksOpt = typer.Option(False, "--trust-hooks",
                             help="Also write the agent's own trust in the hooks this change leaves (Codex skips a hook "
                                  "it has not been told to trust): a second change, to the agent's user config, shown "
                                  "and asked about like the first. Never without this option.")


def _consent(yes: bool, allow_conflicts: bool, as_json: bool, **again: bool) -> "Consent":
    """Who agrees to a write: --yes, or a person on a terminal (not with --json, whose stdout
    is for the document alone), or nobody. `again`: the flags given that a command printed as a
    hint repeats (dry_run=True is --dry-run), with --yes and --allow-conflicts."""
    from . import output, printers
    from .planning.apply import Consent

    person = output.interactive() and not (yes or as_json)
    flags = {"yes": yes, "allow_conflicts": allow_conflicts, **again}
    return Consent(ask=printers.ask if person else None, yes=yes, allow_conflicts=allow_conflicts,
                   allow_outside_scope=again.get("allow_outside_scope", False), pick=printers.pick if person else None,
                   trust=again.get("trust_hooks", False),
                   again=tuple("--" + name.replace("_", "-") for name, given in flags.items() if given))


def _in_project(given: Path | None, as_json: bool) -> None:
    """Name the project a command acts on when it was found above the working folder (not with
    --project, which names it, nor with --json, whose document names it)."""
    from . import output
    from .project import away_from, project_of

    if given is None and not as_json:
        found = project_of(None)
        if away_from(found):
            output.print_project(found)


def _execute(as_json: bool, produce: Callable[[], "Result"], error_format: str | None = None) -> None:
    """The one place where a command's result or error becomes output and an exit code.
    `error_format`: doctor's --format, so that an error in CI still gives a SARIF log."""
    from . import output

    try:
        try:
            result = produce()
        except (OSError, RuntimeError) as error:
            looped = _looped(error)
            if looped is None:
                raise
            raise looped from None
    except HookwrightError as error:
        output.print_error(error, error_format or ("json" if as_json else "text"))
        raise typer.Exit(int(error.code)) from None
    output.print_result(result, as_json)
    raise typer.Exit(int(result.exit_code))


def _looped(error: OSError | RuntimeError) -> HookwrightError | None:
    """A symlink loop met where no reader said it in words (exit 2, never a traceback): the OS's
    ELOOP, or Path.resolve's RuntimeError (before Python 3.13)."""
    if isinstance(error, OSError) and error.errno == errno.ELOOP:
        where = error.filename
    elif isinstance(error, RuntimeError) and str(error).startswith("Symlink loop from "):
        where = str(error).removeprefix("Symlink loop from ").strip("'\"")
    else:
        return None
    return HookwrightError("cannot be read: its symlinks form a loop", path=where,
                           hint="fix or remove the link that points back at itself")


@app.command()
def install(
    packs: Optional[List[str]] = typer.Argument(None, help="Packs to install: a name (see `hookwright packs`), a "
                                                            "pack's folder, or a git repository at a revision "
                                                            "(URL@REV)."),
    host: Optional[str] = HostOpt,
    scope: Optional[Scope] = ScopeOpt,
    project: Optional[Path] = ProjectOpt,
    option: List[str] = typer.Option([], "--option", "-o", help="Pack option KEY=VALUE (or PACK.KEY=VALUE)."),
    adopt: bool = typer.Option(False, "--adopt", help="Take over entries that run our runtime but have no receipt."),
    python: Optional[str] = typer.Option(
        None, "--python", help="The interpreter the hooks start, by its absolute path (user and local scopes), "
                               "or python3 (from PATH, the default)."),
    force: bool = ForceOpt,
    trust_hooks: bool = TrustHooksOpt,
    dry_run: bool = DryRunOpt,
    yes: bool = YesOpt,
    allow_conflicts: bool = AllowConflictsOpt,
    allow_outside_scope: bool = OutsideScopeOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Render packs for a host and scope, show the plan and the conflicts it brings, write it atomically."""
    def produce() -> "Result":
        from . import output
        from .commands.install import install as run

        chosen, where, agent, values = list(packs or []), scope, host, list(option)
        if not chosen and output.interactive() and not as_json and not _has_list(project):
            from .interactive import ask_install

            agent, chosen, where, values = ask_install(agent, where, project, values)
        return run(chosen, host=agent, scope=where, project=project, options=values, adopt=adopt, force=force,
                   dry_run=dry_run, consent=_consent(yes, allow_conflicts, as_json, dry_run=dry_run, force=force,
                                                     adopt=adopt, allow_outside_scope=allow_outside_scope,
                                                     trust_hooks=trust_hooks), python=python)
    _in_project(project, as_json)
    _execute(as_json, produce)


def _has_list(project: Path | None) -> bool:
    """Whether the project has a pack list for `install` with no pack named (then nothing is asked)."""
    from .project import project_of
    from .team import read_list

    return read_list(project_of(project)) is not None


@app.command()
def update(
    packs: Optional[List[str]] = typer.Argument(None, help="Packs to update (default: every pack installed there)."),
    rev: Optional[str] = typer.Option(None, "--rev", help="The revision to move a pack from a git repository to "
                                                          "(default: its newest version tag, or its branch's tip)."),
    host: Optional[str] = HostOpt,
    scope: Optional[Scope] = ScopeOpt,
    project: Optional[Path] = ProjectOpt,
    dry_run: bool = DryRunOpt,
    yes: bool = YesOpt,
    allow_conflicts: bool = AllowConflictsOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Move installed packs to their newest version where they are installed: a bundled pack to the
    version bundled, a folder's to what the folder holds, a repository's to its newest revision."""
    def produce() -> "Result":
        from .commands.update import update as run

        return run(list(packs or []), host=host, scope=scope, project=project, rev=rev, dry_run=dry_run,
                   consent=_consent(yes, allow_conflicts, as_json, dry_run=dry_run))
    _in_project(project, as_json)
    _execute(as_json, produce)


@app.command()
def uninstall(
    packs: Optional[List[str]] = typer.Argument(None, help="Packs to remove (default: every pack installed there)."),
    host: Optional[str] = HostOpt,
    scope: Optional[Scope] = ScopeOpt,
    project: Optional[Path] = ProjectOpt,
    force: bool = typer.Option(False, "--force", help="Remove entries, and opencode plugin files, that someone "
                                                      "edited since hookwright wrote them."),
    trust_hooks: bool = TrustHooksOpt,
    dry_run: bool = DryRunOpt,
    yes: bool = YesOpt,
    allow_conflicts: bool = AllowConflictsOpt,
    allow_outside_scope: bool = OutsideScopeOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Remove exactly the entries and runtime files our receipts list; nothing else."""
    def produce() -> "Result":
        from .commands.uninstall import uninstall as run

        return run(list(packs or []), host=host, scope=scope, project=project, force=force, dry_run=dry_run,
                   consent=_consent(yes, allow_conflicts, as_json, dry_run=dry_run, force=force,
                                    allow_outside_scope=allow_outside_scope, trust_hooks=trust_hooks))
    _in_project(project, as_json)
    _execute(as_json, produce)


@app.command()
def rollback(
    to: Optional[str] = typer.Option(None, "--to", help="Undo this operation and every later one."),
    list_: bool = typer.Option(False, "--list", help="Show the journal of operations."),
    host: Optional[str] = typer.Option(None, "--host", help="Only operations on this agent's files."),
    project: Optional[Path] = typer.Option(None, "--project", file_okay=False,
                                           help="Only operations on this project's files (its project and local "
                                                "scopes)."),
    scope: Optional[Scope] = typer.Option(None, "--scope", help="Only operations in this scope."),
    file: Optional[Path] = typer.Option(None, "--file", dir_okay=False, help="Only operations on this config file."),
    force: bool = typer.Option(False, "--force", help="Restore the byte-exact backup instead of entry-level undo."),
    dry_run: bool = DryRunOpt,
    yes: bool = YesOpt,
    allow_conflicts: bool = AllowConflictsOpt,
    allow_outside_scope: bool = OutsideScopeOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Undo the last operation at entry level, keeping later edits elsewhere in the file. The
    journal spans every project and scope: --project, --scope, --file and --host narrow it."""
    def produce() -> "Result":
        from .commands import rollback as command
        from .planning.rollback import Only

        only = Only(host, project, scope, file)
        if list_:
            return command.journal_listing(only)
        return command.rollback(to=to, only=only, force=force, dry_run=dry_run,
                                consent=_consent(yes, allow_conflicts, as_json,
                                                 allow_outside_scope=allow_outside_scope))
    _in_project(project, as_json)
    _execute(as_json, produce)


@app.command()
def render(
    pack: str = typer.Argument(..., help="The pack to render (see `hookwright packs`)."),
    host: str = typer.Option(..., "--host", help=f"{HOSTS}."),
    scope: Optional[Scope] = ScopeOpt,
    project: Optional[Path] = ProjectOpt,
    option: List[str] = typer.Option([], "--option", "-o", help="Pack option KEY=VALUE."),
    as_json: bool = JsonOpt,
) -> None:
    """Print the file install would write for this host and scope (the config with the pack's
    entries in it, or opencode's plugin); nothing is written."""
    def produce() -> "Result":
        from .commands.render import render as run

        return run(pack, host=host, scope=scope, project=project, options=option)
    _in_project(project, as_json)
    _execute(as_json, produce)


@app.command("packs")
def packs_(host: Optional[str] = typer.Option(None, "--host", help="Only the packs that run in this agent: "
                                               f"{HOSTS} (and why the others do not)."),
           as_json: bool = JsonOpt) -> None:
    """List the bundled packs, their hooks, and what each may do."""
    def produce() -> "Result":
        from .commands.packs import list_packs

        return list_packs(host)
    _execute(as_json, produce)


@app.command()
def status(
    project: Optional[Path] = ProjectOpt,
    host: Optional[str] = typer.Option(None, "--host", help=f"Only this agent: {HOSTS}."),
    as_json: bool = JsonOpt,
) -> None:
    """Which packs are installed where (agent, scope, file), their versions and the bundled ones,
    and whether their entries and runtime files are as installed. Exit 1 when one is not."""
    def produce() -> "Result":
        from .commands.status import status as run

        return run(project, host)
    _in_project(project, as_json)
    _execute(as_json, produce)


@app.command("list")
def list_(
    project: Optional[Path] = ProjectOpt,
    host: Optional[str] = typer.Option(None, "--host", help=f"Only this agent's hooks: {HOSTS}."),
    scope: Optional[Literal["managed", "user", "project", "local", "plugin"]] = typer.Option(None, "--scope", help="Only the hooks of this scope."),
    event: Optional[str] = typer.Option(None, "--event", help="Only the hooks of this event (PreToolUse, stop...)."),
    mine: bool = typer.Option(False, "--mine", help="Only the hooks hookwright installed (its packs)."),
    as_json: bool = JsonOpt,
) -> None:
    """The merged, effective view: every hook from every scope and plugin, by event and matcher."""
    def produce() -> "Result":
        from .commands.list import list_hooks

        return list_hooks(project, host, scope=scope, event=event, mine=mine)
    _in_project(project, as_json)
    _execute(as_json, produce)


@app.command()
def doctor(
    # readable=False: a file doctor cannot read is a finding (structure/unreadable), not a usage error
    paths: Optional[List[Path]] = typer.Argument(None, help="Config files to check (default: every scope).",
                                                 readable=False),
    host: Optional[str] = typer.Option(None, "--host", help=f"Only this agent's scopes: {HOSTS}."),
    project: Optional[Path] = ProjectOpt,
    fmt: Literal["text", "json", "sarif"] = typer.Option("text", "--format", help="text, json or sarif."),
    probe: bool = typer.Option(False, "--probe", help="Also run foreign Claude Code command hooks once per event "
                                                      "on a synthetic payload, in a sandbox: no network, your home "
                                                      "folder hidden, the rest read-only (opt-in)."),
    probe_without_sandbox: bool = typer.Option(False, "--probe-without-sandbox",
                                               help="With --probe where no sandbox can be made: run the hooks anyway, "
                                                    "with your home folder, files and network in their reach."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    isolated: bool = typer.Option(False, "--isolated", help="Check the named files alone, not also their conflicts "
                                                            "with the other scopes and plugins the agent loads with "
                                                            "them on this machine."),
    select: List[str] = typer.Option([], "--select", metavar="RULES",
                                     help="Report only these rules: ids or prefixes (command, conflict/input), "
                                          "comma-separated or repeated. Replaces the config's select."),
    ignore: List[str] = typer.Option([], "--ignore", metavar="RULES",
                                     help="Leave out these rules (ids or prefixes); adds to the config's ignore."),
    min_severity: Optional[Literal["error", "warning", "info"]] = typer.Option(None, "--min-severity",
                                                    help="Report only findings at least this severe."),
    no_config: bool = typer.Option(False, "--no-config", help="Do not read the project's doctor settings "
                                                              "(pyproject.toml's tool.hookwright.doctor table, "
                                                              ".hookwright.toml's doctor table)."),
    explain: Optional[str] = typer.Option(None, "--explain", metavar="[RULE]",
                                          help="Explain one rule and exit; without a rule, list every rule."),
    as_json: bool = typer.Option(False, "--json", help="Same as --format json."),
) -> None:
    """Check hook configs: structure, matchers, commands, scripts, conflicts. A named project file
    is also checked against the other scopes and plugins the agent loads with it on this machine
    (the user's settings, local, managed): those findings are marked "this machine" and count.
    Exit 1 on errors, 2 when a named config file cannot be read or parsed (the others are still
    checked)."""
    chosen = "json" if as_json else fmt

    def produce() -> "Result":
        from . import output
        from .commands import doctor as command

        if as_json and fmt == "sarif":
            raise HookwrightError("--json means --format json, and --format sarif asks for another format",
                                  hint="give one of them")
        if explain is not None:
            return command.explain(explain, chosen) if explain else command.rules(chosen)
        with output.working("checking the hook configs"):
            return command.doctor(list(paths or []), host=host, project=project, fmt=chosen, probe=probe,
                                  strict=strict, isolated=isolated, select=select, ignore=ignore,
                                  min_severity=min_severity,
                                  use_config=not no_config, probe_without_sandbox=probe_without_sandbox)
    if not paths and explain is None:
        _in_project(project, chosen != "text")
    _execute(chosen == "json", produce, error_format=chosen)


@app.command()
def simulate(
    event: Optional[str] = typer.Argument(None, help="The hook event (default: PreToolUse)."),
    tool: Optional[str] = typer.Option(None, "--tool", help="The tool called, as Claude Code names it: Bash, "
                                                            "Write, mcp__server__tool..."),
    tool_input: Optional[str] = typer.Option(None, "--input", metavar="JSON", help="The tool's input, a JSON object."),
    input_file: Optional[Path] = typer.Option(None, "--input-file", help="The tool's input from a JSON file.",
                                              dir_okay=False),
    command: Optional[str] = typer.Option(None, "--command", help="Shorthand for --tool Bash --input "
                                                                  "'{\"command\": ...}'."),
    payload_file: Optional[Path] = typer.Option(None, "--payload", help="More payload fields from a JSON file "
                                                                        "(events without a tool: prompt, source...).",
                                                dir_okay=False),
    project: Optional[Path] = ProjectOpt,
    host: Optional[str] = typer.Option(None, "--host", help=f"Only this agent: {HOSTS} (default: each with hooks here)."),
    permission_mode: str = typer.Option("default", "--permission-mode", help="The permission_mode the payload says."),
    list_only: bool = typer.Option(False, "--list-only", help="Show which hooks would run; run nothing."),
    sandboxed: bool = typer.Option(False, "--sandbox", help="Run the hooks in a sandbox: no network, your home folder "
                                                            "hidden, the file system read-only (the project too)."),
    as_json: bool = JsonOpt,
) -> None:
    """Run the hooks that would fire on a sample call, as each agent with hooks here would run
    them, and show what that agent would make of their answers: the decision, the input the tool
    would run with, the context added. The hooks are your own commands, run for real, in the
    project folder (with their side effects): use --list-only to see what would run first. Exit 0
    when the simulation ran, whatever the hooks decided; 2 on bad input."""
    def produce() -> "Result":
        from .commands.simulate import simulate as command_

        return command_(event, tool=tool, tool_input=tool_input, input_file=input_file, payload_file=payload_file,
                        command=command, project=project, host=host, permission_mode=permission_mode,
                        list_only=list_only, sandboxed=sandboxed)
    _in_project(project, as_json)
    _execute(as_json, produce)


@app.command("log")
def log_(
    project: Optional[Path] = typer.Option(None, "--project", file_okay=False,
                                           help="The project whose decisions to show (default: the project the "
                                                "current folder is in)."),
    every_project: bool = typer.Option(False, "--all", help="The decisions of every project."),
    pack: Optional[str] = typer.Option(None, "--pack", help="Only this pack's decisions."),
    decision: Optional[str] = typer.Option(None, "--decision", help="Only this decision: deny, ask, allow, rewrite "
                                                                     "or error (a hook that could not decide)."),
    limit: int = typer.Option(50, "--limit", help="At most this many, the newest."),
    as_json: bool = JsonOpt,
) -> None:
    """What the bundled hooks decided, newest first: every deny, rewrite and error, which hook, on
    which call, and why (the decision log beside hooks.log)."""
    def produce() -> "Result":
        from .commands.log import show_log

        return show_log(project, every_project=every_project, pack=pack, decision=decision, limit=limit)
    if not every_project:
        _in_project(project, as_json)
    _execute(as_json, produce)


pack_app = typer.Typer(help="Packs of your own: make one, try it on every agent.", no_args_is_help=True,
                       context_settings=HELP_FLAGS)
app.add_typer(pack_app, name="pack")


@pack_app.command("new")
def pack_new(
    name: str = typer.Argument(..., help="The pack's name (its folder's): lowercase words joined by -."),
    from_file: Optional[Path] = typer.Option(None, "--from", dir_okay=False, readable=False,
                                             help="Make it from the command hooks of a Claude Code settings file or "
                                                  "a plugin's hooks.json (their scripts copied in)."),
    into: Optional[Path] = typer.Option(None, "--into", file_okay=False,
                                        help="The folder to make it in (default: the current folder)."),
    as_json: bool = JsonOpt,
) -> None:
    """Make a pack folder of your own hooks in Claude Code's protocol, which installs into every
    agent as it is: a guard to start from with its test cases, or the hooks of a config you have."""
    def produce() -> "Result":
        from .commands.pack import new_pack

        return new_pack(name, from_file, into)
    _execute(as_json, produce)


@pack_app.command("test")
def pack_test(
    pack: Optional[str] = typer.Argument(None, help="The pack: a folder (default: the current one), a name, or "
                                                    "URL@REV."),
    host: Optional[str] = typer.Option(None, "--host", help="Only this agent (default: every agent the pack is "
                                                            "made for)."),
    as_json: bool = JsonOpt,
) -> None:
    """Run a pack's test cases (its tests/*.json) on every agent it is made for, as each agent
    would: installed in a scratch project, the agent's own payload, the answer read as the agent
    reads it (Cursor's also checked against its output schema). Exit 1 when a case does not do
    what it expects; 2 on bad input."""
    def produce() -> "Result":
        from .commands.pack import try_pack

        return try_pack(pack, host)
    _execute(as_json, produce)


prefs_app = typer.Typer(help="Question preferences for the ask-guard pack (project over user).",
                        no_args_is_help=True, context_settings=HELP_FLAGS)
app.add_typer(prefs_app, name="prefs")


PrefsScope = Optional[Literal["user", "project"]]
PrefsProjectOpt = typer.Option(None, "--project", file_okay=False,
                               help="The project whose preferences file to use (default: the project the "
                                    "current folder is in).")
PrefsScopeOpt = typer.Option(None, "--scope", help="Which file: user (default) or project (--project DIR alone "
                                                   "means project).")


def _project(given: Path | None) -> Path:
    """--project, else the project the working folder is in."""
    from .project import project_of

    return project_of(given)


def _prefs_project(scope: PrefsScope, project: Path | None) -> Path | None:
    """The project whose file to write, or None for the user's file."""
    if scope == "project" or scope is None and project is not None:
        return _project(project)
    return None


@prefs_app.command("set")
def prefs_set(
    question_id: str = typer.Argument(..., help="The id in the question's <qid:...> marker."),
    value: str = typer.Argument(..., help="never-ask or always-ask; or the door type: one-way or two-way"),
    scope: PrefsScope = PrefsScopeOpt,
    project: Optional[Path] = PrefsProjectOpt,
    dry_run: bool = DryRunOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Mark a question never-ask (auto-decided when safe) or always-ask, or record whether its
    decision can be undone (two-way) or not (one-way: never auto-decided)."""
    from .commands import prefs

    _execute(as_json, lambda: prefs.set_value(question_id, value, project=_prefs_project(scope, project),
                                              dry_run=dry_run))


@prefs_app.command("unset")
def prefs_unset(
    question_id: str = typer.Argument(...),
    scope: PrefsScope = PrefsScopeOpt,
    project: Optional[Path] = PrefsProjectOpt,
    dry_run: bool = DryRunOpt,
    as_json: bool = JsonOpt,
) -> None:
    """Forget a question's preference and door type."""
    from .commands import prefs

    _execute(as_json, lambda: prefs.unset(question_id, project=_prefs_project(scope, project), dry_run=dry_run,
                                          project_dir=_project(project)))


@prefs_app.command("list")
def prefs_list(project: Optional[Path] = PrefsProjectOpt, as_json: bool = JsonOpt) -> None:
    """The merged view: every id, its value, and which file it comes from."""
    from .commands import prefs

    _execute(as_json, lambda: prefs.merged(_project(project)))


def entry() -> None:
    """The `hookwright` program (started by __main__.main, with the garbage collector off). Once
    the command is done (every file written, closed and renamed, the output flushed), the process
    leaves without the interpreter's teardown, which frees every object one by one and took as
    long as a whole doctor run's checks on a typical project (mypy leaves the same way). Tests
    call main().

    A reader that stops reading (`| head`) ends the program as it ends other Unix tools: by
    SIGPIPE, quietly (the shell says 141). Every write of a user file is atomic and safe
    against a kill at any point, so there is nothing to finish first."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        main()
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe (`| head`): nothing more can be said there
            pass
    os._exit(code)


def _print_any_text() -> None:
    """Text a file holds can be what no encoding prints: a lone surrogate escape in a JSON string
    ("Pre\\udc00"), a file name that is not UTF-8. Such a character is printed as its escape,
    `\\udc00`, which is also how JSON writes it inside a string: a report (text, JSON, SARIF) names
    it, and never stops on it."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # (a stream already closed, or one that cannot change now)
                pass


OPTIONAL_VALUES = ("--explain",)  # options whose value may be left out (typer has no such options)


def _with_optional_values(args: list[str]) -> list[str]:
    """`doctor --explain` alone (at the end, or before another option) is `--explain ''`."""
    given = []
    for index, arg in enumerate(args):
        given.append(arg)
        if arg in OPTIONAL_VALUES and (index + 1 == len(args) or args[index + 1].startswith("-")):
            given.append("")
    return given


BEFORE_A_COMMAND = {"-q", "--quiet", "-v", "--verbose"}  # the global options that leave the command to run


@functools.cache
def _command(name: str | None = None) -> "Command":
    """The command line as typer builds it from the functions above, once per process (the tests
    run main in-process). Given the name of the command a run asks for, the group holds that
    command alone: typer builds a command's options from its function's signature, which took
    5 of the 6 ms that building all of them costs, in a doctor run of about 60."""
    if name is None:
        return _flowed(typer.main.get_command(app))
    alone = copy.copy(app)
    alone.registered_commands = [c for c in app.registered_commands if _name(c) == name]
    alone.registered_groups = [g for g in app.registered_groups if g.name == name]
    return _flowed(typer.main.get_command(alone))


def _flowed(command: "Command") -> "Command":
    """typer prints the line breaks of a docstring as written (in the list of commands, and after
    a command's first paragraph), so a help text came out ragged at any width but the source's:
    each paragraph is made one line, for the terminal to wrap."""
    if command.help:
        command.help = "\n\n".join(" ".join(paragraph.split()) for paragraph in command.help.split("\n\n"))
    for sub in getattr(command, "commands", {}).values():
        _flowed(sub)
    return command


def _name(command: "CommandInfo") -> str:
    return command.name or typer.main.get_command_name(getattr(command.callback, "__name__", ""))


def _asked_for(args: list[str]) -> str | None:
    """The command `args` run, when only global options that change no listing come before it
    (`--help` or `--version` first needs the whole group, as does a name typer must correct)."""
    for arg in args:
        if arg not in BEFORE_A_COMMAND:
            names = {*map(_name, app.registered_commands), *(g.name for g in app.registered_groups)}
            return arg if arg in names else None
    return None


def main(argv: list[str] | None = None) -> None:
    _print_any_text()
    try:
        args = _with_optional_values(sys.argv[1:] if argv is None else argv)
        code = _command(_asked_for(args)).main(args=args, prog_name="hookwright", standalone_mode=False)  # (Ctrl-C is 130)
    except typer.Exit as done:
        code = done.exit_code
    except (typer.Abort, KeyboardInterrupt):  # Ctrl-D at a prompt, or Ctrl-C outside typer's reach
        code = ExitCode.INTERRUPTED
    except typer.TyperException as usage:  # a usage error: unknown option, bad value
        from typer._click.exceptions import ClickException  # typer (pinned below 0.29) vendors click

        if isinstance(usage, ClickException):
            usage.show()  # the usage line, then the error
        else:
            print(f"Error: {usage}", file=sys.stderr)
        code = ExitCode.BAD_INPUT
    except Exception:  # a bug: say so plainly; every write is atomic, so nothing is half-written

        traceback.print_exc()
        print("hookwright: internal error (a bug); nothing was half-written. Please report it.", file=sys.stderr)
        code = ExitCode.INTERNAL
    if code == ExitCode.INTERRUPTED:  # the shell's prompt on a line of its own, after the ^C
        print("\nhookwright: interrupted", file=sys.stderr)
    sys.exit(int(code or 0))
