"""Every command of the command line but doctor (cli.py holds the app, the global options, doctor,
and what parses a run): loaded for these commands and for the whole group (`--help`, a name
typer must correct, shell completion), never by a doctor run. Defining a command makes its
options (typer.Option: about 70,000 instructions each), and these commands have some 60: 5.6 M
of the 371.1 M instructions of `doctor FILE` on a typical file while they were defined in cli.py."""

from pathlib import Path
from typing import TYPE_CHECKING, List, Literal, Optional

import typer

from .cli import HELP_FLAGS, HOSTS, HOSTS_WITH_DEFAULT, ProjectOpt, app, execute, in_project
from .hosts.base import Scope

if TYPE_CHECKING:
    from .commands.result import Result
    from .planning.apply import Consent

JsonOpt = typer.Option(False, "--json", help="Print one versioned JSON document on stdout.")
DryRunOpt = typer.Option(False, "--dry-run", help="Show the plan; write nothing.")
YesOpt = typer.Option(False, "--yes", "-y", help="Apply without asking.")
ScopeOpt = typer.Option(None, "--scope", help="user (default), project or local.")
HostOpt = typer.Option(None, "--host", help=f"Agent whose hooks to change: {HOSTS_WITH_DEFAULT}.")
ForceOpt = typer.Option(False, "--force", help="Overwrite or remove a hookwright plugin file someone edited (opencode).")

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
    in_project(project, as_json)
    execute(as_json, produce)


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
    in_project(project, as_json)
    execute(as_json, produce)


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
    in_project(project, as_json)
    execute(as_json, produce)


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
    in_project(project, as_json)
    execute(as_json, produce)


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
    in_project(project, as_json)
    execute(as_json, produce)


@app.command("packs")
def packs_(host: Optional[str] = typer.Option(None, "--host", help="Only the packs that run in this agent: "
                                               f"{HOSTS} (and why the others do not)."),
           as_json: bool = JsonOpt) -> None:
    """List the bundled packs, their hooks, and what each may do."""
    def produce() -> "Result":
        from .commands.packs import list_packs

        return list_packs(host)
    execute(as_json, produce)


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
    in_project(project, as_json)
    execute(as_json, produce)


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
    in_project(project, as_json)
    execute(as_json, produce)


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
    in_project(project, as_json)
    execute(as_json, produce)


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
        in_project(project, as_json)
    execute(as_json, produce)


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
    execute(as_json, produce)


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
    execute(as_json, produce)


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

    execute(as_json, lambda: prefs.set_value(question_id, value, project=_prefs_project(scope, project),
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

    execute(as_json, lambda: prefs.unset(question_id, project=_prefs_project(scope, project), dry_run=dry_run,
                                          project_dir=_project(project)))


@prefs_app.command("list")
def prefs_list(project: Optional[Path] = PrefsProjectOpt, as_json: bool = JsonOpt) -> None:
    """The merged view: every id, its value, and which file it comes from."""
    from .commands import prefs

    execute(as_json, lambda: prefs.merged(_project(project)))


