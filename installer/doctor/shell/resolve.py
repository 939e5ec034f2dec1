"""What a hook's command runs, worked out without running it.

Shell form (no `args`): Claude Code hands the string to `sh -c` (Git Bash on Windows) with the
working directory set to the directory it was started in (the project) and `CLAUDE_PROJECT_DIR`
set to it (docs/hosts/claude-code.md#command-execution). So the string is read here the way a POSIX shell reads
it: quotes, `$VAR`/`${VAR}`/`${VAR:-default}`, `~`, `NAME=value` prefixes, `cd dir && ...`,
lists and pipelines, wrappers (`env`, `exec`, `timeout`...), and an interpreter followed by a
script (`python3 x.py`, `node x.js`, `bash x.sh`, `uv run x.py`). What only the shell can know
when the hook runs (`$(...)`, backticks, an unknown variable) makes that word *dynamic*: no
file is claimed missing on its account. A package runner (`npx`, `uvx`, `bunx`, `pnpm dlx`)
runs a package, not a file.

Exec form (`args` present): `command` is the executable, looked up on PATH when it is a bare
name, spawned without a shell (so no quotes, variables or `~`; Claude Code substitutes its
`${CLAUDE_...}` placeholders), and `args` are its arguments.

The reading goes lex.py (words), interpret.py (what each simple command runs, and which
failures fail the hook); the package's __init__.py holds what it reports. Everything here is a
pure function of its inputs (PATH lookups are the caller's job), so the results are cached: one
resolution per distinct command in a run of thousands of handlers.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from ...patterns import lazy
from . import Invocation, Resolution, Where
from .interpret import Interpreter
from .lex import Lexer, Unreadable, Word, placeholder_word, reads_the_disk

# Hard-coded home directories: macOS, Linux, Windows (either slash).
HOME_PATH = lazy(r"(?<![\w.$}])(/Users/[^/\s'\"$`]+/|/home/[^/\s'\"$`]+/|[A-Za-z]:[\\/]{1,2}Users[\\/]{1,2}[^\\/\s'\"]+[\\/])")
# Shell keywords and builtins that do not run a file; `cd`, `export`, `test` are read for
# their effect (directory, variables, guards)
NO_FILE = frozenset({
    "echo", "printf", "true", "false", ":", "exit", "return", "set", "unset", "shift", "read", "wait",
    "trap", "ulimit", "umask", "local", "declare", "typeset", "readonly", "eval", "alias", "sleep",
    "cat", "tee", "jq", "grep", "sed", "awk", "head", "tail", "tr", "cut", "xargs", "mkdir", "touch",
    "rm", "cp", "mv", "ln", "chmod", "date", "pwd", "basename", "dirname", "wc", "sort", "uniq",
})


# ---- entry point -----------------------------------------------------------------------------

def resolve_handler(value: object, where: Where) -> Resolution:
    """The resolution of a handler's JSON (a dict with `command`, maybe `args` and `shell`)."""
    if not isinstance(value, dict) or value.get("type", "command") != "command":
        return Resolution("none")
    command = value.get("command")
    if not isinstance(command, str) or not command.strip():
        return Resolution("none")
    args = value.get("args")
    if args is not None:
        strings = tuple(a for a in args if isinstance(a, str)) if isinstance(args, list) else ()
        return resolve_exec(command, strings, where)
    return resolve_shell(command, where, shell=value.get("shell") if isinstance(value.get("shell"), str) else None)


@lru_cache(maxsize=8192)
def resolve_shell(command: str, where: Where, shell: str | None = None) -> Resolution:
    """The command read for one file's place. A command that several projects hold (a monorepo
    holds the same hooks in many) is read once for all of them after the first: with a stand-in
    for the project's folder, which the result then names. Where the folder's name could change
    how the words read (a `..` in the command, an unusual character), it is read with the folder."""
    project = where.project
    if project is not None and where.cwd in (None, project) and where.plugin_root is None and \
            _names_the_project_only_by_its_variables(command, where):
        general = where._replace(project=STAND_IN, cwd=where.cwd and STAND_IN)
        if _FIRST_PROJECT.setdefault((command, general, shell), project) != project:
            return _relocated(_resolve_shell(command, general, shell), str(project))
        if len(_FIRST_PROJECT) > 100_000:
            _FIRST_PROJECT.clear()
    return _resolve_shell(command, where, shell)


def _names_the_project_only_by_its_variables(command: str, where: Where) -> bool:
    """A command that could spell a path in the project another way (literally, through ~ or
    $HOME, through another variable, with `..`) compares text that the stand-in would change:
    a `test -f ~/app/x.sh` guarding `"$CLAUDE_PROJECT_DIR"/x.sh`. One whose reading asks the disk
    about its folders (the lexer's reads_the_disk: the top of the work tree, Codex's way to name the
    project) reads the project's own folders, which the stand-in does not have."""
    project = str(where.project)
    return (".." not in command and "~" not in command and "HOME" not in command and project not in command
            and not reads_the_disk(command)
            and _portable(project) and not any(name in command for name, _ in where.env))


# the project each command was first read for: naming another folder in a stand-in's result
# costs less than reading the command again, but more than reading it once for one project
_FIRST_PROJECT: dict[tuple[str, Where, str | None], Path] = {}


# what a project folder's name may hold to read the same wherever the shell meets it: no blank,
# quote, glob or `$`
PORTABLE_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+,.@%=-")


def _portable(folder: str) -> bool:
    """Whether an absolute folder's name is portable: its parts of PORTABLE_CHARACTERS, none of
    them `.` or `..` (plain tests: as a regex, a compile of 0.6 M instructions of doctor on a
    typical file)."""
    parts = folder.split("/")
    return len(parts) > 1 and not parts[0] and all(
        part and part not in (".", "..") and PORTABLE_CHARACTERS.issuperset(part) for part in parts[1:])
STAND_IN = Path("/\x00project")  # (no real path holds a NUL)
# a field of a stand-in's result, relocated as what it is: a text (or a path) stays one, None stays None
_Text = TypeVar("_Text", str, "str | None")
_Place = TypeVar("_Place", Path, "Path | None")


def _relocated(general: Resolution, project: str) -> Resolution:
    """The resolution read with STAND_IN for the project, naming the project instead."""
    mark = str(STAND_IN)

    def text(value: _Text) -> _Text:
        return value.replace(mark, project) if isinstance(value, str) and mark in value else value

    def path(value: _Place) -> _Place:
        return Path(str(value).replace(mark, project)) if value is not None and mark in str(value) else value

    def invocation(inv: Invocation) -> Invocation:
        return inv._replace(executable=text(inv.executable), program=text(inv.program),
                            interpreter=text(inv.interpreter), script=text(inv.script), path=path(inv.path),
                            dynamic=text(inv.dynamic))

    invocations = tuple(map(invocation, general.invocations))
    main = next((mine for mine, theirs in zip(invocations, general.invocations) if theirs is general.main), None)
    runs = tuple(path(r) if isinstance(r, Path) else text(r) for r in general.runs) if general.runs else general.runs
    return general._replace(invocations=invocations, main=main, dynamic=text(general.dynamic),
                            broken=text(general.broken), runs=runs)


@lru_cache(maxsize=8192)
def _resolve_shell(command: str, where: Where, shell: str | None) -> Resolution:
    homes = _home_paths(command)
    if shell == "powershell":
        return Resolution("shell", dynamic="a PowerShell command (not read here)", home_paths=homes)
    try:
        words = Lexer(command, where.variables, where.home).words()
    except Unreadable as why:
        return Resolution("shell", dynamic=str(why), home_paths=homes)
    interpreter = Interpreter(where, resolve_shell)
    invocations = tuple(interpreter.run(words))
    main = _main(invocations)
    return Resolution("shell", invocations, main, dynamic=interpreter.stopped, home_paths=homes,
                      unquoted=tuple(dict.fromkeys(interpreter.unquoted)), runs=_what_runs(words, main))


@lru_cache(maxsize=8192)
def resolve_exec(command: str, args: tuple[str, ...], where: Where) -> Resolution:
    homes = _home_paths(" ".join((command, *args)))
    variables = where.variables
    words = [placeholder_word(command, variables), *(placeholder_word(a, variables) for a in args)]
    first = words[0]
    if "/" not in command and any(c.isspace() for c in command.strip()):
        # the spawn fails: there is no program called "python3 x.py"
        why = "exec form: `command` must be just the executable, without arguments"
        unstartable = Invocation(command, dynamic=why)
        return Resolution("exec", (unstartable,), unstartable, home_paths=homes, broken=why)
    inv = Interpreter(where, resolve_shell).simple([first, *words[1:]], where.cwd, where.cwd_is_launch_dir, set())
    invocations = (inv,) if inv else ()
    return Resolution("exec", invocations, _main(invocations), home_paths=homes)


def _what_runs(words: list[Word], main: Invocation | None) -> tuple[str | Path, ...] | None:
    """Resolution.runs: the words, with the script as its absolute path; None if one is dynamic."""
    script, path = (main.script, main.path) if main is not None and main.path is not None else (None, None)
    runs: list[str | Path] = []
    for word in words:
        if word.dynamic:
            return None
        runs.append(path if path is not None and word.text == script else word.text)
    return tuple(runs)


def _main(invocations: tuple[Invocation, ...]) -> Invocation | None:
    for sourced in (False, True):
        for inv in invocations:
            if (inv.interpreter == "source") == sourced and (
                    inv.script is not None or (inv.dynamic is not None and inv.program is None and not inv.runner)):
                return inv
    for inv in invocations:
        if inv.runner or inv.inline or (inv.program and inv.program not in NO_FILE):
            return inv
    return invocations[0] if invocations else None


def _home_paths(text: str) -> tuple[str, ...]:
    if "Users" not in text and "/home/" not in text:  # what every home path has: skip the scan
        return ()
    return tuple(dict.fromkeys(m.group(1) for m in HOME_PATH.finditer(text)))
