"""The command line: parse, call one function per command, print its result in one place.

Heavy modules (jsonschema-rs, deepdiff, rich) load inside the commands, so `--help` is quick.
doctor is defined here, every other command in cli_commands.py, which a doctor run never loads
(see _command).
"""

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

# Each command imports its own modules when it runs: all of them at the top would cost --help 80 ms,
# status 53 ms and doctor FILE 72 ms of CPU (scripts/bench_start.py).
if TYPE_CHECKING:
    from typer._click.core import Command  # (typer vendors click)
    from typer.models import CommandInfo

    from .commands.result import Result

HELP_FLAGS = {"help_option_names": ["-h", "--help"]}


def _typer(add_completion: bool) -> typer.Typer:
    """The program's group as typer builds it: with its completion options, or without them (_command)."""
    return typer.Typer(
        name="hookwright",
        help="Install, check and remove the hooks of AI coding agents, without losing anyone's config.",
        no_args_is_help=True,
        context_settings=HELP_FLAGS,
        add_completion=add_completion,
        pretty_exceptions_enable=False,
    )


app = _typer(add_completion=True)
# every command and group, in the order --help lists them (typer lists the commands, then the groups)
COMMANDS = ("install", "update", "uninstall", "rollback", "render", "packs", "status", "list", "doctor", "simulate",
            "log", "pack", "prefs")


def _either(names: List[str]) -> str:
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


HOSTS = _either(list(HOST_NAMES))  # "claude, cursor or opencode": the hosts' registry, in words
HOSTS_WITH_DEFAULT = _either([f"{name} (default)" if name == DEFAULT_HOST else name for name in HOST_NAMES])
ProjectOpt = typer.Option(None, "--project", help="The project folder (default: the project the current folder is "
                                                  "in: the nearest folder above with an agent's config folder, "
                                                  "else the git root).",
                          file_okay=False)


def _version(show: bool) -> None:
    if show:
        from . import __version__

        print(f"hookwright {__version__}")
        raise typer.Exit()


QuietOpt = typer.Option(False, "--quiet", "-q", help="Print only what was asked for and errors: findings without "
                                                     "hints, no notes, no summary.")
VerboseOpt = typer.Option(False, "--verbose", "-v", help="Print more: the plan of a change made with --yes, the other "
                                                         "places a finding involves.")


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit."),
          quiet: bool = QuietOpt, verbose: bool = VerboseOpt) -> None:
    """Install, check and remove the hooks of AI coding agents, without losing anyone's config."""
    _before_a_command(quiet, verbose)


def _before_a_command(quiet: bool = QuietOpt, verbose: bool = VerboseOpt) -> None:
    """The global options, which the group's callback takes; alone, the callback of a run that
    names its command (_command: --version is never given there)."""
    from . import output

    if quiet and verbose:
        raise typer.BadParameter("--quiet and --verbose ask for opposite things", param_hint="--quiet")
    output.verbosity = -1 if quiet else 1 if verbose else 0


def in_project(given: Path | None, as_json: bool) -> None:
    """Name the project a command acts on when it was found above the working folder (not with
    --project, which names it, nor with --json, whose document names it)."""
    from . import output
    from .project import away_from, project_of

    if given is None and not as_json:
        found = project_of(None)
        if away_from(found):
            output.print_project(found)


def execute(as_json: bool, produce: Callable[[], "Result"], error_format: str | None = None) -> None:
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
        raise typer.Exit(error.code) from None
    output.print_result(result, as_json)
    raise typer.Exit(result.exit_code)


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
        in_project(project, chosen != "text")
    execute(chosen == "json", produce, error_format=chosen)


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
    """The command line as typer builds it from the command functions, once per process (the tests
    run main in-process). Given the name of the command a run asks for, the group holds that
    command alone: typer builds a command's options from its function's signature, which took
    5 of the 6 ms that building all of them costs, in a doctor run of about 60. The commands but
    doctor are defined in cli_commands.py, loaded here for them and for the whole group only
    (their options were 5.6 M of the 371.1 M instructions of doctor on a typical file). A run
    that names its command has no use for typer's --install-completion and --show-completion:
    given before the command they leave it unnamed, after it they are not the group's. Building
    them was 1.0 M of the 354.7 M of doctor on a typical file. Nor for --version (its group
    callback is _before_a_command's, without it): it ends the run before a command is looked
    at, so it is given before one or not at all; building and parsing it, an eager option with
    a callback of its own, was 0.4 M of doctor's 340.0 M."""
    if name is None or name in COMMANDS and name != "doctor":
        from . import cli_commands  # noqa: F401 (defining its commands registers them on app)
    alone = _typer(add_completion=name not in COMMANDS)
    alone.registered_commands = sorted((c for c in app.registered_commands if name in (None, _name(c))),
                                       key=lambda c: COMMANDS.index(_name(c)))
    alone.registered_groups = [g for g in app.registered_groups if name in (None, g.name)]
    if name in COMMANDS:
        alone.callback()(_before_a_command)
    else:
        alone.registered_callback = app.registered_callback
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
    (`--help` first needs the whole group, as does a name typer must correct). Or "--version"
    when it comes first: it prints the version and ends the run before a command is looked at,
    so the group is built with none (building every command took 31.8 M of the 267.9 M
    instructions of `hookwright --version`)."""
    for arg in args:
        if arg not in BEFORE_A_COMMAND:
            return arg if arg in COMMANDS or arg == "--version" else None
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
