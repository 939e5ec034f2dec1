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

The reading goes lex.py (words), then here: the words walked as a shell would run them, into the
simple commands and the file each one runs (wrappers such as `env` and `timeout`, `cd dir &&`,
interpreters with their scripts, package runners, `test -f` guards; a `sh -c` string read again
as a whole command), and which simple commands' failure can fail the hook (ExitStatus:
`... || true`, `set -e`, `&&`, a pipe, what runs after it), so that a missing script behind
`|| true` is reported as silent and a block by exit 2 as swallowed. The package's __init__.py
holds what it reports. Everything here is a pure function of its inputs (PATH lookups are the
caller's job), so the results are cached: one resolution per distinct command in a run of
thousands of handlers.
"""
from __future__ import annotations

import posixpath
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from ...patterns import lazy
from . import Invocation, Resolution, Where
from .lex import KEYWORDS, Lexer, Unreadable, Word, placeholder_word, reads_the_disk

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
        # (made by place, its plugin root None as tested: a _replace was 9,000 instructions, for
        # 763 of the corpus tree's commands)
        general = Where(STAND_IN, None, where.home, where.cwd and STAND_IN, where.cwd_is_launch_dir, where.env)
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
            and _portable(project) and not (where.env and any(name in command for name, _ in where.env)))


# the project each command was first read for: naming another folder in a stand-in's result
# costs less than reading the command again, but more than reading it once for one project
_FIRST_PROJECT: dict[tuple[str, Where, str | None], Path] = {}


# what a project folder's name may hold to read the same wherever the shell meets it: no blank,
# quote, glob or `$`
PORTABLE_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+,.@%=-")


def _portable(folder: str) -> bool:
    """Whether an absolute folder's name is portable: its parts of PORTABLE_CHARACTERS, none of
    them empty, `.` or `..` (plain tests: as a regex, a compile of 0.6 M instructions of doctor on a
    typical file; each asked of the whole name, not of each part in a loop: 2.1 us to 0.9 us for
    each command of a project of the corpus tree)."""
    walled = f"{folder}/"
    return (folder[:1] == "/" and "//" not in walled and "/./" not in walled and "/../" not in walled
            and PORTABLE_CHARACTERS.issuperset(folder.replace("/", "")))


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
    interpreter = Interpreter(where)
    invocations = tuple(interpreter.run(words))
    main = _main(invocations)
    # (made by place, every field given: made by name, a record takes _complete, 18,900 instructions
    # a Resolution where by place it takes 5,300; one for each command text of a run, 1,603 on the
    # corpus tree)
    return Resolution("shell", invocations, main, interpreter.stopped, homes, tuple(dict.fromkeys(interpreter.unquoted)),
                      None, _what_runs(words, main))


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
    inv = Interpreter(where).simple([first, *words[1:]], where.cwd, where.cwd_is_launch_dir, set())
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


# ---- the words walked as a shell runs them ----------------------------------------------------

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish"})
NODE_LIKE = frozenset({"node", "nodejs", "tsx", "ts-node", "esno", "esr", "bun", "deno"})
OTHER_INTERPRETERS = frozenset({"ruby", "perl", "php", "Rscript", "lua", "osascript", "pwsh", "powershell"})
RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx", "pipx"})  # run a package, not a file
WRAPPERS = frozenset({"exec", "command", "nohup", "builtin", "time", "stdbuf", "sudo", "doas", "caffeinate"})
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".sh", ".bash", ".zsh", ".rb",
                   ".pl", ".php", ".ps1")


def python_name(name: str) -> bool:
    """Whether a program's name is Python's: python or pypy, then a version (3, 3.12) and .exe if
    any (a plain test: as a regex, a compile of 0.7 M instructions of doctor on a typical file)."""
    name = name[:-1] if name.endswith("\n") else name  # (as `$` read it)
    version = name[6:] if name.startswith("python") else name[4:] if name.startswith("pypy") else None
    if version is None:
        return False
    version = version[:-4] if version.endswith(".exe") else version
    major, dot, minor = version.partition(".")
    return not version or major.isdecimal() and (not dot or minor.isdecimal())


_WINDOWS = lazy(r"[A-Za-z]:[\\/]")
UV_FLAGS_WITH_VALUE = frozenset({"--with", "-w", "--python", "-p", "--project", "--directory", "--env-file",
                                 "--extra", "--group", "--index", "--index-url", "--extra-index-url",
                                 "--with-requirements", "--package", "--only-group", "--no-group", "--find-links", "-f",
                                 "--config-file"})
# by interpreter kind: the flags that make it run code given inline, and those that take a value
INLINE_FLAGS = {"python": frozenset({"-c", "-m"}), "node": frozenset({"-e", "--eval", "-p", "--print"}),
                "shell": frozenset({"-c"}), "other": frozenset({"-e", "-E", "-r", "-Command", "-c", "-EncodedCommand"})}
FLAGS_WITH_VALUE = {"python": frozenset({"-W", "-X", "-Q"}),
                    "node": frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader",
                                       "--env-file", "--conditions", "-C", "--input-type", "--title"}),
                    "shell": frozenset({"-o", "-O", "+o", "+O"}),
                    "other": frozenset({"-I", "-M", "-d", "-ExecutionPolicy"})}


# ---- simple commands ---------------------------------------------------------------------------

# the newline that ends the last command: read, never changed (one word for every run, not one made
# for each of the corpus tree's 1,776 command texts: its work_out 449.7 M -> 444.6 M instructions)
END_OF_COMMAND = Word("\n", operator=True)


class Interpreter:
    """Walks the words as a shell would run them: which file each simple command runs."""

    def __init__(self, where: Where) -> None:
        self.where = where
        self.stopped: str | None = None  # why the rest of the command was not followed
        self.unquoted: list[str] = []  # Resolution.unquoted

    def run(self, words: list[Word]) -> list[Invocation]:
        found: list[Invocation] = []
        cwd, launch = self.where.cwd, self.where.cwd_is_launch_dir
        guards: set[str] = set()
        command: list[Word] = []
        status = ExitStatus(found)
        for word in (*words, END_OF_COMMAND):
            if not word.operator:
                command.append(word)
                continue
            if command and command[0].text in KEYWORDS:
                status.keywords(_leading_keywords(command))
            command, raw = self._strip(command), command
            status.command(command, raw)
            if command:
                head = command[0].text
                if head in ("for", "case", "select", "function") or (raw and raw[-1].text == "()"):
                    self.stopped = f"a shell `{head}` construct (not followed statically)"
                    break
                if head == "cd":
                    cwd, launch = self._cd(command[1:], cwd, launch)
                elif head in ("test", "[", "[["):
                    guards.update(self._guarded(command[1:], cwd))
                    if head != "[[":  # [[ ]] does not split words
                        self.unquoted.extend(w.unquoted for w in command[1:] if w.unquoted)
                elif head == "command" and len(command) > 2 and command[1].text in ("-v", "-V"):
                    guards.add(command[2].text)
                elif head in ("type", "hash", "which"):  # `type X >/dev/null && X`: X is looked for first
                    guards.update(w.text for w in command[1:] if not w.text.startswith("-"))
                elif head not in ("export", "readonly", "local", "declare"):
                    inv = self.simple(command, cwd, launch, guards, stripped=True)
                    if inv is not None:
                        found.append(status.tested(inv))
            status.operator(word.text)
            command = []
        status.finish()
        return found

    def _cd(self, args: list[Word], cwd: Path | None, launch: bool) -> tuple[Path | None, bool]:
        args = [a for a in args if a.text not in ("-P", "-L", "--")]
        if not args:
            return self.where.home, False
        target = args[0]
        if target.unquoted:
            self.unquoted.append(target.unquoted)
        if target.dynamic or target.text == "-":
            return None, False
        if target.text.startswith("/"):
            return _normal(target.text), False
        return (_normal(f"{cwd}/{target.text}") if cwd else None), launch

    def _guarded(self, args: list[Word], cwd: Path | None) -> set[str]:
        found = set()
        for flag, operand in zip(args, args[1:]):
            if flag.text in ("-f", "-e", "-x", "-r", "-s") and not operand.dynamic:
                found.add(operand.text)
                if cwd and not operand.text.startswith("/"):
                    found.add(str(cwd / operand.text))
        return found

    def simple(self, words: list[Word], cwd: Path | None, launch: bool, guards: set[str],
               stripped: bool = False) -> Invocation | None:
        words = words if stripped else self._strip(words)
        if not words:
            return None
        first = words[0]
        if first.dynamic:
            if "/" in first.text or first.text.endswith(SCRIPT_SUFFIXES):
                return self._file(first.text, program=None, interpreter=None, word=first, cwd=cwd, launch=launch,
                                  guards=guards, direct=True)
            return Invocation(first.text, dynamic=first.dynamic)
        name = first.text
        base = name.rsplit("/", 1)[-1]
        rest = words[1:]
        if "/" not in name and base in RUNNERS:
            return self._run_package(name, rest, cwd, launch, guards)
        if "/" not in name and base in ("pnpm", "yarn", "npm") and rest and rest[0].text in ("dlx", "exec", "x", "run"):
            return Invocation(name, program=name, runner=True)
        if name in ("source", "."):
            return self._script(name, None, rest[:1], cwd, launch, guards, interpreter="source", direct=False)
        program = None if "/" in name else name
        kind = _interpreter_kind(base)
        if program is None and name.startswith("/") and base == "env" and not first.quoted:
            return self.simple([Word("env"), *rest], cwd, launch, guards)  # /usr/bin/env python3 x.py
        if program is None and name.startswith("/") and kind is not None:
            return self._interpreted(name, kind, rest, cwd, launch, guards)  # /usr/bin/python3 x.py
        if program is None:
            return self._file(name, program=None, interpreter=None, word=first, cwd=cwd, launch=launch,
                              guards=guards, direct=True)
        if base == "uv" and rest and rest[0].text == "run":
            return self._uv_run(name, rest[1:], cwd, launch, guards)
        if kind is None:
            # (a program's, made by place: 720 of the corpus tree's invocations, each 13,900
            # instructions by name)
            return Invocation(name, program, None, None, None, False, False, False, False, None, False, name in guards,
                              False, True)
        return self._interpreted(name, kind, rest, cwd, launch, guards)

    def _run_package(self, name: str, rest: list[Word], cwd: Path | None, launch: bool,
                     guards: set[str]) -> Invocation:
        """`npx tsx x.ts`, `bunx ts-node x.ts`: a package that is an interpreter runs the script
        after it (found through the runner); any other package is not a file."""
        words = list(rest)
        while words and words[0].text.startswith("-"):
            takes = words[0].text in ("-p", "--package", "-c", "--call")
            words = words[2:] if takes else words[1:]
        if words and not words[0].dynamic and words[0].text.split("@")[0] in NODE_LIKE - {"node", "nodejs"}:
            return self._interpreted(words[0].text.split("@")[0], "node", words[1:], cwd, launch, guards, via=name)
        return Invocation(name, program=name, runner=True)

    @staticmethod
    def _strip(words: list[Word]) -> list[Word]:
        """Drop redirections, NAME=value prefixes, keywords and wrappers (env, exec, timeout...)."""
        out: list[Word] = []
        skip_next = False
        for word in words:
            if skip_next:
                skip_next = False
            elif word.redirect:
                skip_next = True
            else:
                out.append(word)
        while out:
            head = out[0]
            if head.assignment:
                out = out[1:]
                continue
            if head.quoted:
                break
            if head.text in KEYWORDS:
                out = out[1:]
            elif head.text == "command" and len(out) > 1 and out[1].text in ("-v", "-V"):
                break
            elif head.text in WRAPPERS:
                out = out[1:]
                while out and out[0].text.startswith("-") and out[0].text != "-":
                    out = out[1:]
            elif head.text == "env":
                out = out[1:]
                while out and (out[0].assignment or out[0].text.startswith("-")):
                    takes = out[0].text in ("-u", "-C", "-S")
                    out = out[2:] if takes else out[1:]
            elif head.text in ("timeout", "gtimeout", "nice"):
                out = out[1:]
                while out and out[0].text.startswith("-"):
                    takes = out[0].text in ("-k", "-s", "-n", "--signal", "--kill-after")
                    out = out[2:] if takes else out[1:]
                if head.text != "nice" and out:
                    out = out[1:]  # the duration
            else:
                break
        return out

    def _uv_run(self, name: str, rest: list[Word], cwd: Path | None, launch: bool, guards: set[str]) -> Invocation:
        takes_value = UV_FLAGS_WITH_VALUE
        i = 0
        while i < len(rest) and rest[i].text.startswith("-"):
            if rest[i].text == "--":
                i += 1
                break
            step = 2 if rest[i].text in takes_value else 1
            self.unquoted.extend(w.unquoted for w in rest[i:i + step] if w.unquoted)  # --project $CLAUDE_PROJECT_DIR
            i += step
        if i >= len(rest):
            return Invocation(name, program=name, runner=True)
        target = rest[i]
        base = target.text.rsplit("/", 1)[-1]
        if not target.dynamic and python_name(base):
            return self._interpreted(target.text, "python", rest[i + 1:], cwd, launch, guards, via=name,
                                     label=f"uv run {target.text}")
        if target.dynamic or target.text.endswith(".py") or "/" in target.text:
            return self._file(target.text, program=name, interpreter="uv run", word=target, cwd=cwd,
                              launch=launch, guards=guards, direct=False)
        return Invocation(name, program=name, runner=True)  # a tool or an entry point of the project

    def _interpreted(self, name: str, kind: str, rest: list[Word], cwd: Path | None, launch: bool, guards: set[str],
                     via: str | None = None, label: str | None = None) -> Invocation:
        program = via or name
        inline_flags, takes_value = INLINE_FLAGS[kind], FLAGS_WITH_VALUE[kind]
        words = list(rest)
        base = name.rsplit("/", 1)[-1]
        if base == "deno" and words and words[0].text in ("run", "-A"):
            words = words[1:]
        if base == "bun" and words and words[0].text in ("run", "x"):
            words = words[1:]
        i = 0
        while i < len(words):
            text = words[i].text
            if kind == "other" and text.lower() in ("-file", "-f") and base in ("pwsh", "powershell"):
                i += 1
                break
            if text in inline_flags:
                if kind == "shell" and text == "-c" and i + 1 < len(words) and not words[i + 1].dynamic:
                    script, where = words[i + 1], self._where(cwd, launch)
                    # (`bash -o pipefail -c '...'`, `sh -e -c`: the shell's own flags hold inside)
                    errexit, pipefail = shell_options([w.text for w in words[:i]])
                    options = "set -e; " * bool(errexit) + "set -o pipefail; " * bool(pipefail)
                    inner = resolve_shell(options + script.text, where)  # what runs: the outer shell expanded it
                    # whether the inner shell splits a placeholder: read with the placeholders it gets
                    # (bash -c '$CLAUDE_PROJECT_DIR/x.sh', or "..." that left them unquoted in there)
                    split = resolve_shell(script.inner_command, where) if script.inner_command else inner
                    self.unquoted.extend(split.unquoted)
                    if inner.main is not None and inner.main.script is not None:
                        return inner.main
                return Invocation(name, program=program, interpreter=name, inline=True,
                                  program_guarded=program in guards)
            if text == "--":
                i += 1
                break
            if not text.startswith("-") or text == "-":
                break
            clustered = kind == "shell" and text[:1] in "-+" and text[1:].isalpha() and text.endswith(("o", "O"))
            i += 2 if text in takes_value or clustered else 1  # (`bash -euo pipefail x.sh`: -o's value)
        if i >= len(words) or words[i].text == "-":
            return Invocation(name, program=program, interpreter=name, inline=True,
                                  program_guarded=program in guards)
        target = words[i]
        if base in ("bun", "deno") and not target.dynamic and "/" not in target.text \
                and not target.text.endswith(SCRIPT_SUFFIXES):
            return Invocation(name, program=program, runner=True)  # a package.json script or a package
        return self._file(target.text, program=program, interpreter=label or name,
                          word=target, cwd=cwd, launch=launch, guards=guards, direct=False)

    def _script(self, name: str, program: str | None, args: list[Word], cwd: Path | None, launch: bool,
                guards: set[str], interpreter: str, direct: bool) -> Invocation:
        if not args:
            return Invocation(name, program=program, interpreter=interpreter, inline=True)
        return self._file(args[0].text, program=program, interpreter=interpreter, word=args[0], cwd=cwd,
                          launch=launch, guards=guards, direct=direct, executable=name)

    def _file(self, text: str, *, program: str | None, interpreter: str | None, word: Word, cwd: Path | None,
              launch: bool, guards: set[str], direct: bool, executable: str | None = None) -> Invocation:
        if word.unquoted:
            self.unquoted.append(word.unquoted)
        # `which python3 && python3 x.py` vouches for python3, not for x.py
        executable = executable or (text if direct else (program or text))
        program_guarded = program is not None and program in guards
        path, relative, dynamic, guarded = None, False, word.dynamic or None, text in guards
        if dynamic:
            pass
        elif "\\" in text or (text[1:2] == ":" and _WINDOWS.match(text)):  # (a drive letter's colon, tested first)
            dynamic = "a Windows path"
        elif text.startswith("/"):
            path = _normal(text)
        elif cwd is None:
            relative, dynamic = launch, ("a relative path: it depends on the directory the host was started in"
                                         if launch else "relative to a directory only known when the hook runs")
        else:
            path, relative = _normal(f"{cwd}/{text}"), launch
            guarded = guarded or str(path) in guards
        # (made by place, every field given: the run's commonest record, 1,400 on the corpus tree; by
        # name, or with the last fields left out, each took _complete)
        return Invocation(executable, program, interpreter, text, path, direct, relative, False, False, dynamic,
                          guarded, program_guarded, False, True)

    def _where(self, cwd: Path | None, launch: bool) -> Where:
        w = self.where
        return Where(w.project, w.plugin_root, w.home, cwd, launch, w.env)


def _leading_keywords(words: list[Word]) -> list[str]:
    """The reserved words a simple command starts with (`if`, `then`, `{`, `fi`...)."""
    out = []
    for word in words:
        if word.quoted or word.text not in KEYWORDS:
            break
        out.append(word.text)
    return out


def _interpreter_kind(base: str) -> str | None:
    if python_name(base):
        return "python"
    if base in NODE_LIKE:
        return "node"
    if base in SHELLS:
        return "shell"
    if base in OTHER_INTERPRETERS:
        return "other"
    return None


def _normal(path: str) -> Path:
    """Collapse `.` and `..` without touching the disk (symlinks are the checks' business).

    pathlib drops `.` and empty parts as posixpath.normpath does, and keeps a leading `//` as it
    does: only a path with `..` asks normpath. The path is made as its folder's Path (made once per
    folder) and its name: pathlib parses each part of a text it is given, about 2,300 instructions
    a part on top of its 14,000, and a run's scripts sit in fewer folders than there are scripts.
    (The corpus tree's 1,329 paths took 31,800 instructions each, made whole after normpath.)"""
    if ".." in path:
        path = posixpath.normpath(path)
    folder, _, name = path.rpartition("/")
    if not folder or not name or path.startswith("//"):
        return Path(path)
    return _folder(folder) / name


@lru_cache(maxsize=1024)
def _folder(text: str) -> Path:
    return Path(text)


# ---- which failures fail the hook ------------------------------------------------------------------

COMPOUND_OPENERS = frozenset({"{", "(", "if", "while", "until"})
COMPOUND_CLOSERS = frozenset({"}", ")", "fi", "done"})
BRANCH_WORDS = frozenset({"then", "else", "elif", "do"})


class ExitStatus:
    """Which invocations cannot fail the hook (Invocation.tolerated), and whose exit status cannot
    become the hook's (Invocation.sets_status), followed as the shell's lists and compound
    commands go by.

    Tolerated: `a || true`, `a || exit 0`, `a &`, `if a; then`, `while a; do`, `{ a; } || true`,
    `a || { log; exit 0; }`, and a last `; true` or `; exit 0` that makes the hook's status 0
    whatever ran before it (not under `set -e`, nor after an `exec`). Not setting the status:
    a command another one follows in sequence, one piped into another (unless `set -o pipefail` came
    first), one followed by `||` (unless
    what follows the `||` exits with the failed status: `|| exit`, `|| { rc=$?; log; exit $rc; }`),
    one whose status `!` inverts.
    Ranges of `found` are recorded as they are seen and applied once at the end."""

    def __init__(self, found: list[Invocation]) -> None:
        self.found = found
        self.list_start = 0  # where in `found` the current `a && b || c` list began
        self.previous_list = (0, 0)  # the list before the last `;`, newline or `&`
        self.command_start = 0  # where the current simple command's invocation goes
        self.joined_by: str | None = None  # the operator before the current command
        # compound commands open ({ }, ( ), if...fi, loops): the list holding each (where it began),
        # whether it came after `||`, and the opening word
        self.opened: list[tuple[int, bool, str]] = []
        self.condition = False  # between `if`/`while`/`until` and `then`/`do`: a status the shell tests
        self.succeeded = False  # the last command was `true`, `:` or `exit 0`, not reached by `&&`
        self.last_alone = False  # ... and it began a list of its own, outside any compound command
        self.exits_early = False  # `set -e` or an `exec`: a failure ends the hook there
        self.pipefail = False  # `set -o pipefail`: a pipeline fails with the last of its commands that failed
        self.in_branch = False  # the current command follows `then`, `else`, `do`...
        self.negated = False  # the current pipeline starts with `!`: its status is inverted, 2 becomes 0
        # the command after the last `||`, while it runs: which `undecided` range the `||` made, and how
        # many compound commands were open before it (a `{ ...; }` after the `||` is one command)
        self.fallback: tuple[int, int] | None = None
        self.tolerated: list[tuple[int, int]] = []
        self.undecided: list[tuple[int, int]] = []

    def keywords(self, words: list[str]) -> None:
        self.in_branch = bool(words) and words[0] in BRANCH_WORDS  # `; then`, `; else`: no new command
        self.negated = "!" in words
        for word in words:
            self._open_or_close(word)
            self.condition = word in ("if", "elif", "while", "until") or (self.condition and word not in ("then", "do"))

    def command(self, words: list[Word], raw: list[Word]) -> None:
        """A simple command, without its keywords, wrappers and redirections (`raw`: with them)."""
        if not words:
            return
        self.command_start = len(self.found)
        if self.negated:  # (`! guard.sh`: its exit 2 becomes 0)
            self.undecided.append((self.command_start, self.command_start + 1))
            self.negated = False
        if self.joined_by in (";", "\n", "&", ";;") and not (self.in_branch or self.exits_early):
            self.undecided.append(self.previous_list)  # the list before it no longer decides the status
        self.succeeded = _succeeds(words) and self.joined_by != "&&"
        if self.fallback is not None and passes_status_on(words, first=self.joined_by == "||"):  # `|| exit $rc`
            self.undecided[self.fallback[0]] = (0, 0)
        if self.succeeded and self.joined_by == "||":
            self._tolerate(self.list_start)
        self.last_alone = self.succeeded and not self.opened and self.joined_by in (None, ";", "\n", "&")
        errexit, pipefail = shell_options([w.text for w in words[1:]]) if words[0].text == "set" else (None, None)
        if errexit or (raw and raw[0].text == "exec" and not raw[0].quoted):
            self.exits_early = True
        if pipefail is not None:
            self.pipefail = pipefail

    def tested(self, inv: Invocation) -> Invocation:
        return inv._replace(tolerated=True) if self.condition else inv

    def operator(self, token: str) -> None:
        self.in_branch = False
        self._open_or_close(token)  # a subshell's ( and )
        if token == "&":  # in the background: its exit status is nobody's
            self._tolerate(self.list_start)
        if token in ("|", "|&") and not self.pipefail:  # (under pipefail, a guard's exit 2 piped into `tee` is the pipeline's)
            self.undecided.append((self.command_start, len(self.found)))
        elif self.fallback is not None and len(self.opened) <= self.fallback[1]:
            self.fallback = None  # the command after the `||` has ended
        if token == "||":
            self.undecided.append((self.list_start, len(self.found)))
            self.fallback = (len(self.undecided) - 1, len(self.opened))
        if token in (";", "\n", "&", ";;"):
            self.previous_list = (self.list_start, len(self.found))
            self.list_start = len(self.found)
        self.joined_by = token

    def finish(self) -> None:
        """Apply what was seen to the invocations."""
        if self.last_alone and not self.exits_early:
            self._tolerate(0)
        if not (self.tolerated or self.undecided):
            return
        tolerated, undecided = _covered(self.tolerated, len(self.found)), _covered(self.undecided, len(self.found))
        for index, inv in enumerate(self.found):
            if (tolerated[index] and not inv.tolerated) or undecided[index]:
                self.found[index] = inv._replace(tolerated=inv.tolerated or tolerated[index],
                                            sets_status=not undecided[index])

    def _open_or_close(self, token: str) -> None:
        if token in COMPOUND_OPENERS:
            self.opened.append((self.list_start, self.joined_by == "||", token))
            self.list_start = len(self.found)  # inside, a list of its own
        elif token in COMPOUND_CLOSERS and self.opened:
            self.list_start, after_or, opener = self.opened.pop()  # the compound is one command of its list
            if opener in ("{", "(") and after_or and self.succeeded:  # `a || { log; exit 0; }`
                self._tolerate(self.list_start)
            if token in ("fi", "done"):  # which branch ran, and whether its last command did, is not known
                self.succeeded = False

    def _tolerate(self, start: int) -> None:
        self.tolerated.append((start, len(self.found)))


def shell_options(words: list[str]) -> tuple[bool | None, bool | None]:
    """(errexit, pipefail) as a `set` command's options or a shell's own flags turn them on (True)
    or off (False), None where they say nothing: `-e`, `-euo pipefail`, `-o errexit`, `+o pipefail`.
    (A shell's flags end at its first operand: the caller passes the words before it.)"""
    errexit: bool | None = None
    pipefail: bool | None = None
    for index, word in enumerate(words):
        if word[:1] not in ("-", "+") or word in ("-", "--", "-c"):  # (an empty word too: a trailing `\`)
            continue
        on = word[0] == "-"
        named = words[index + 1] if word[1:].endswith(("o",)) and index + 1 < len(words) else ""
        if "e" in word[1:] and word[1:].isalpha():
            errexit = on
        if named == "pipefail":
            pipefail = on
        elif named == "errexit":
            errexit = on
    return errexit, pipefail


def _covered(ranges: list[tuple[int, int]], size: int) -> list[bool]:
    """For each index below `size`, whether one of the [start, end) ranges holds it."""
    depth, marks = [0] * (size + 1), []
    for start, end in ranges:
        depth[start] += 1
        depth[end] -= 1
    running = 0
    for index in range(size):
        running += depth[index]
        marks.append(running > 0)
    return marks


def passes_status_on(command: list[Word], first: bool) -> bool:
    """After `||`: `exit $rc` (a status saved from `$?`, or any the hook computes) or `exit 2`, and as
    the first command there `exit` or `exit $?` (later, they give the status of what ran before them):
    a failure before the `||` still ends the shell with a blocking status. (Read by the command line's
    model here and by a wrapper script's, scripts/shell_status.py.)"""
    if command[0].text != "exit":  # (a quoted "exit" is still the builtin)
        return False
    if len(command) == 1 or command[1].text in ("$?", "${?}"):
        return first
    return command[1].dynamic is not None or command[1].text == "2"


def _succeeds(command: list[Word]) -> bool:
    """`true`, `:` or `exit 0`: after `||`, the list before it can fail without failing the hook
    (a bare `exit` keeps the failed status)."""
    head = command[0].text
    return (head in ("true", ":") and not command[0].quoted) or (
        head == "exit" and len(command) == 2 and command[1].text == "0")
