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

Everything here is a pure function of its inputs (PATH lookups are the caller's job), so the
results are cached: one resolution per distinct command in a run of thousands of handlers.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import NamedTuple
from ..patterns import lazy

# Hard-coded home directories: macOS, Linux, Windows (either slash).
HOME_PATH = lazy(r"(?<![\w.$}])(/Users/[^/\s'\"$`]+/|/home/[^/\s'\"$`]+/|[A-Za-z]:[\\/]{1,2}Users[\\/]{1,2}[^\\/\s'\"]+[\\/])")

PYTHON = lazy(r"(?:python|pypy)(?:\d+(?:\.\d+)?)?(?:\.exe)?$")
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish"})
NODE_LIKE = frozenset({"node", "nodejs", "tsx", "ts-node", "esno", "esr", "bun", "deno"})
OTHER_INTERPRETERS = frozenset({"ruby", "perl", "php", "Rscript", "lua", "osascript", "pwsh", "powershell"})
RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx", "pipx"})  # run a package, not a file
WRAPPERS = frozenset({"exec", "command", "nohup", "builtin", "time", "stdbuf", "sudo", "doas", "caffeinate"})
# Shell keywords and builtins that do not run a file; `cd`, `export`, `test` are read for
# their effect (directory, variables, guards)
NO_FILE = frozenset({
    "echo", "printf", "true", "false", ":", "exit", "return", "set", "unset", "shift", "read", "wait",
    "trap", "ulimit", "umask", "local", "declare", "typeset", "readonly", "eval", "alias", "sleep",
    "cat", "tee", "jq", "grep", "sed", "awk", "head", "tail", "tr", "cut", "xargs", "mkdir", "touch",
    "rm", "cp", "mv", "ln", "chmod", "date", "pwd", "basename", "dirname", "wc", "sort", "uniq",
})
KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}",
                      "(", ")", "time"})
COMPOUND_OPENERS = frozenset({"{", "(", "if", "while", "until"})
COMPOUND_CLOSERS = frozenset({"}", ")", "fi", "done"})
BRANCH_WORDS = frozenset({"then", "else", "elif", "do"})
REDIRECT = lazy(r"(?:\d+|&)?(?:>>|>&|<&|<<<|<>|>\||>|<)")
ASSIGNMENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=")
# Paths the host puts in the environment; unquoted, the shell splits them where they hold a space
PATH_PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CURSOR_PROJECT_DIR",
                     "CURSOR_PLUGIN_ROOT")
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".sh", ".bash", ".zsh", ".rb",
                   ".pl", ".php", ".ps1")


# ---- results ---------------------------------------------------------------------------------

class Invocation(NamedTuple):
    """One simple command in the string: what it runs and which file, if any."""

    executable: str  # the program as the shell sees it after expansion ("python3", "/abs/x.sh", "npx")
    program: str | None = None  # a bare name the shell looks up on PATH ("python3", "node", "rtk")
    interpreter: str | None = None  # set when a script runs through a program ("python3", "uv run", "source")
    script: str | None = None  # the file it runs, as written after expansion (may be relative)
    path: Path | None = None  # that file, absolute; None when it cannot be known statically
    direct: bool = False  # the file itself is executed (needs its executable bit)
    relative: bool = False  # the file's path is relative to the directory the host was started in
    runner: bool = False  # a package runner (npx, uvx...): runs a package, not a file
    inline: bool = False  # the interpreter runs code given inline (-c, -e, -m module)
    dynamic: str | None = None  # why the file cannot be known statically ($(...), a variable...)
    guarded: bool = False  # a `test -f`/`[ -x ]` on the same file runs first
    program_guarded: bool = False  # a `command -v`/`type`/`hash`/`which` of its program runs first
    tolerated: bool = False  # its failure cannot fail the hook: `... || true`, `... || exit 0`, `... &`
    sets_status: bool = True  # its exit status can become the hook's (nothing runs after it, no pipe, no ||)


class Resolution(NamedTuple):
    form: str  # "shell" | "exec" | "none" (not a command handler, or no command)
    invocations: tuple[Invocation, ...] = ()
    main: Invocation | None = None  # the one that does the hook's work (the script it runs, if any)
    dynamic: str | None = None  # the whole command could not be read (PowerShell, a `for` loop...)
    home_paths: tuple[str, ...] = ()  # hard-coded home directories in the command (/Users/x/, /home/x/)
    # host path placeholders outside double quotes in a word that names a file or a `cd` target
    unquoted: tuple[str, ...] = ()
    broken: str | None = None  # why the host cannot start the command at all
    # shell form: the words the shell runs, expanded, the script as its absolute path (so that
    # `"$CLAUDE_PROJECT_DIR"/x.sh` and `"${CLAUDE_PROJECT_DIR}/x.sh"` compare equal); None if dynamic
    runs: tuple[str | Path, ...] | None = None

    @property
    def resolved(self) -> bool:
        """Everything the main invocation runs is known statically."""
        return self.dynamic is None and self.main is not None and self.main.dynamic is None

    @property
    def executable(self) -> str | None:
        return self.main.executable if self.main else None

    @property
    def interpreter(self) -> str | None:
        return self.main.interpreter if self.main else None

    @property
    def script(self) -> Path | None:
        return self.main.path if self.main else None

    @property
    def launch_dependent(self) -> bool:
        return any(i.relative for i in self.invocations)

    @property
    def scripts(self) -> tuple[Invocation, ...]:
        """Every invocation that runs a file we can name (the ones to check on disk)."""
        return tuple(i for i in self.invocations if i.path is not None)

    def to_json(self) -> dict:
        main = self.main
        return {"form": self.form, "resolved": self.resolved, "dynamic": self.dynamic or (main.dynamic if main else None),
                "executable": self.executable, "interpreter": self.interpreter,
                "script": str(self.script) if self.script else None,
                "launch_dependent": self.launch_dependent, "home_paths": list(self.home_paths)}


class Where(NamedTuple):
    """What the command's placeholders and relative paths mean for one config file."""

    project: Path | None = None  # $CLAUDE_PROJECT_DIR (and Cursor's $CURSOR_PROJECT_DIR)
    plugin_root: Path | None = None  # ${CLAUDE_PLUGIN_ROOT}
    home: Path | None = None  # $HOME and ~
    cwd: Path | None = None  # the working directory the host gives the command
    cwd_is_launch_dir: bool = True  # cwd is "wherever the host was started" (Claude Code), not a fixed folder
    env: tuple[tuple[str, str], ...] = ()  # other variables known to be set (name, value)

    @property
    def variables(self) -> dict[str, str | None]:
        """The values the placeholders stand for (None: set, but only known when the hook runs);
        computed once per Where, and never changed."""
        return _variables(self)


@lru_cache(maxsize=1024)
def _variables(where: Where) -> dict[str, str | None]:
    known: dict[str, str | None] = dict(where.env)
    for name, value in (("CLAUDE_PROJECT_DIR", where.project), ("CURSOR_PROJECT_DIR", where.project),
                        ("CLAUDE_PLUGIN_ROOT", where.plugin_root), ("CURSOR_PLUGIN_ROOT", where.plugin_root),
                        ("HOME", where.home)):
        known[name] = str(value) if value is not None else None
    return known


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
    a `test -f ~/app/x.sh` guarding `"$CLAUDE_PROJECT_DIR"/x.sh`."""
    project = str(where.project)
    return (".." not in command and "~" not in command and "HOME" not in command and project not in command
            and PORTABLE_FOLDER.fullmatch(project) is not None and not any(name in command for name, _ in where.env))


# the project each command was first read for: naming another folder in a stand-in's result
# costs less than reading the command again, but more than reading it once for one project
_FIRST_PROJECT: dict[tuple, Path] = {}


# a project folder whose name reads the same wherever the shell meets it: no blank, quote,
# glob, `$` or `..`
PORTABLE_FOLDER = lazy(r"(?:/(?!\.\.?(?:/|$))[A-Za-z0-9_+,.@%=-]+)+")
STAND_IN = Path("/\x00project")  # (no real path holds a NUL)


def _relocated(general: Resolution, project: str) -> Resolution:
    """The resolution read with STAND_IN for the project, naming the project instead."""
    mark = str(STAND_IN)

    def text(value):
        return value.replace(mark, project) if isinstance(value, str) and mark in value else value

    def path(value):
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
        words = _Lexer(command, where.variables, where.home).words()
    except _Unreadable as why:
        return Resolution("shell", dynamic=str(why), home_paths=homes)
    interpreter = _Interpreter(where)
    invocations = tuple(interpreter.run(words))
    main = _main(invocations)
    return Resolution("shell", invocations, main, dynamic=interpreter.stopped, home_paths=homes,
                      unquoted=tuple(dict.fromkeys(interpreter.unquoted)),
                      # (a command without $ or a relative script is written one way: left None, for speed)
                      runs=_what_runs(words, main) if "$" in command or (main and main.relative) else None)


@lru_cache(maxsize=8192)
def resolve_exec(command: str, args: tuple[str, ...], where: Where) -> Resolution:
    homes = _home_paths(" ".join((command, *args)))
    variables = where.variables
    words = [_placeholder_word(command, variables), *(_placeholder_word(a, variables) for a in args)]
    first = words[0]
    if "/" not in command and any(c.isspace() for c in command.strip()):
        # the spawn fails: there is no program called "python3 x.py"
        why = "exec form: `command` must be just the executable, without arguments"
        inv = Invocation(command, dynamic=why)
        return Resolution("exec", (inv,), inv, home_paths=homes, broken=why)
    inv = _Interpreter(where).simple([first, *words[1:]], where.cwd, where.cwd_is_launch_dir, set())
    invocations = (inv,) if inv else ()
    return Resolution("exec", invocations, _main(invocations), home_paths=homes)


def _what_runs(words: list[Word], main: Invocation | None) -> tuple[str | Path, ...] | None:
    """Resolution.runs: the words, with the script as its absolute path; None if one is dynamic."""
    script, path = (main.script, main.path) if main is not None and main.path is not None else (None, None)
    runs = []
    for word in words:
        if word.dynamic:
            return None
        runs.append(path if word.text == script else word.text)
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


# ---- words -----------------------------------------------------------------------------------

class _Unreadable(Exception):
    pass


@dataclass
class Word:
    text: str  # after quote removal and the expansions we can do
    dynamic: str | None = None  # an expansion only the running shell can do
    quoted: bool = False  # some part was quoted (a quoted `=` is not an assignment...)
    operator: bool = False  # &&, ||, ;, |, & , newline, ( or )
    assignment: bool = False  # NAME=value, unquoted name
    redirect: bool = False  # >, 2>, >>, <, &>, 2>&...: the next word is its target
    unquoted: str | None = None  # a PATH_PLACEHOLDERS name expanded outside quotes (split at spaces)
    # `text` with the host placeholders that were expanded inside double quotes written back, for
    # telling whether a shell that runs this word as a command (`bash -c "..."`) would split them
    inner_command: str | None = None


def _placeholder_word(text: str, variables: dict[str, str | None]) -> Word:
    """Exec form: no shell; Claude Code substitutes its own `${NAME}` placeholders only."""
    dynamic = None

    def sub(match: re.Match) -> str:
        nonlocal dynamic
        value = variables.get(match.group(1))
        if value is None:
            dynamic = dynamic or f"${{{match.group(1)}}} is only known when the hook runs"
            return match.group(0)
        return value

    out = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_.]*)\}", sub, text)
    if out.startswith("~"):
        dynamic = dynamic or "exec form runs without a shell, so ~ is not expanded"
    return Word(out, dynamic=dynamic)


_WINDOWS = lazy(r"[A-Za-z]:[\\/]")
_GLOB = lazy(r"[*?\[]")
_OPERATOR = lazy(r"&&|\|\||;;|\|&|[;|&\n()]")
_PLAIN = lazy(r"""[^\s'"\\$`;&|()<>]+""")
_BLANKS = lazy(r"[ \t]+")
_PLAIN_DQ = lazy(r"""[^"\\$`]+""")
MAX_NESTING = 50
_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
# A word with nothing to unquote, expand or glob, not an assignment and not starting with ~ or #:
# its text is itself (the lookahead leaves anything else, a \r say, to the full reading)
_SIMPLE_WORD = lazy(r"""[^\s'"\\$`;&|()<>~#=*?\[][^\s'"\\$`;&|()<>=*?\[]*(?=[ \t\n;&|()<>]|$)""")


class _Lexer:
    """POSIX shell words, with the expansions that can be done statically."""

    def __init__(self, text: str, variables: dict[str, str | None], home: Path | None, depth: int = 0) -> None:
        self.text = text
        self.variables = variables
        self.home = home
        self.depth = depth  # of ${X:-...} defaults read inside each other
        self.i = 0

    def words(self) -> list[Word]:
        out: list[Word] = []
        text, n = self.text, len(self.text)
        in_test = False  # inside [[ ]]: && || ( ) are part of the test, and =~ takes a regex
        while self.i < n:
            if in_test and out and out[-1].text == "=~" and not out[-1].quoted and text[self.i] not in " \t":
                out.append(self._regex_operand())
                continue
            ch = text[self.i]
            if ch in " \t":
                self.i = _BLANKS.match(text, self.i).end()
                continue
            if ch == "\\" and text.startswith("\\\n", self.i):
                self.i += 2
                continue
            if ch == "#":  # at the start of a word: a comment
                end = text.find("\n", self.i)
                self.i = n if end < 0 else end
                continue
            if text.startswith("<<", self.i) and not text.startswith("<<<", self.i):
                raise _Unreadable("a here-document (not read here)")
            redirect = REDIRECT.match(text, self.i)
            if redirect:
                out.append(Word(redirect.group(0), redirect=True))
                self.i = redirect.end()
                continue
            op = _OPERATOR.match(text, self.i)
            op = op.group(0) if op else None
            if op:
                out.append(Word(op, operator=not (in_test and op in ("&&", "||", "(", ")"))))
                self.i += len(op)
                continue
            simple = _SIMPLE_WORD.match(text, self.i)
            if simple:  # most words: nothing to unquote or expand
                out.append(Word(simple.group()))
                self.i = simple.end()
                in_test = in_test and simple.group() != "]]"
                continue
            out.append(self._word())
            in_test = in_test or (out[-1].text == "[[" and not out[-1].quoted and _starts_a_command(out[:-1]))
        return out

    def _regex_operand(self) -> Word:
        """The pattern after `=~` in [[ ]]: one word up to a blank outside parentheses, with
        its | and ( ) (a regex, not a pipeline)."""
        text, n = self.text, len(self.text)
        start, depth = self.i, 0
        while self.i < n:
            c = text[self.i]
            if c in "'\"":
                end = text.find(c, self.i + 1)
                self.i = n if end < 0 else end + 1
                continue
            if c == "\\":
                self.i += 2
                continue
            if c in " \t\n" and depth <= 0:
                break
            depth += (c == "(") - (c == ")")
            self.i += 1
        return Word(text[start:self.i], quoted=True)

    def _word(self) -> Word:
        text, n = self.text, len(self.text)
        parts: list[str] = []
        dynamic: str | None = None
        quoted = False
        unquoted: str | None = None
        deferred: list[tuple[int, str]] = []  # (index in parts, placeholder as written) for inner_command
        start = self.i
        # a leading unquoted ~ (or ~/...) is the home directory
        if text[self.i] == "~":
            j = self.i + 1
            while j < n and (text[j].isalnum() or text[j] in "_-.") :
                j += 1
            if j == self.i + 1 and (j == n or text[j] in "/ \t;&|)\n"):
                if self.home is None:
                    dynamic = "~ is only known when the hook runs"
                    parts.append("~")
                else:
                    parts.append(str(self.home))
                self.i = j
            elif j > self.i + 1:
                dynamic = f"{text[self.i:j]} is another user's home"
                parts.append(text[self.i:j])
                self.i = j
        while self.i < n:
            ch = text[self.i]
            if ch in " \t\n;&|()<>":
                break
            if ch == "'":
                end = text.find("'", self.i + 1)
                if end < 0:
                    raise _Unreadable("an unterminated ' quote")
                parts.append(text[self.i + 1:end])
                quoted = True
                self.i = end + 1
            elif ch == '"':
                self.i += 1
                quoted = True
                while True:
                    if self.i >= n:
                        raise _Unreadable('an unterminated " quote')
                    c = text[self.i]
                    if c == '"':
                        self.i += 1
                        break
                    if c == "\\" and self.i + 1 < n and text[self.i + 1] in '$`"\\\n':
                        parts.append(text[self.i + 1])
                        self.i += 2
                    elif c == "$":
                        at = self.i
                        value, why, placeholder = self._dollar()
                        if placeholder:
                            deferred.append((len(parts), text[at:self.i]))
                        parts.append(value)
                        dynamic = dynamic or why
                    elif c == "`":
                        self._backtick()
                        dynamic = dynamic or "`...` is worked out when the hook runs"
                    else:
                        plain = _PLAIN_DQ.match(text, self.i)
                        end = plain.end() if plain else self.i + 1
                        parts.append(text[self.i:end])
                        self.i = end
            elif ch == "\\":
                if self.i + 1 < n:
                    parts.append(text[self.i + 1])
                self.i += 2
            elif ch == "$":
                value, why, placeholder = self._dollar()
                unquoted = unquoted or placeholder
                parts.append(value)
                dynamic = dynamic or why
            elif ch == "`":
                self._backtick()
                parts.append("`")
                dynamic = dynamic or "`...` is worked out when the hook runs"
            else:
                plain = _PLAIN.match(text, self.i)
                end = plain.end() if plain else self.i + 1
                parts.append(text[self.i:end])
                self.i = end
        raw = text[start:self.i]
        word = Word("".join(parts), dynamic=dynamic, quoted=quoted)
        if deferred:
            for index, written in deferred:
                parts[index] = written
            word.inner_command = "".join(parts)
        word.assignment = bool(ASSIGNMENT.match(raw))
        word.unquoted = None if word.assignment else unquoted  # NAME=$X is not split
        if not quoted and _GLOB.search(raw) and not word.assignment and "=" not in raw:
            word.dynamic = word.dynamic or "a glob pattern is expanded when the hook runs"
        return word

    def _dollar(self) -> tuple[str, str | None, str | None]:
        """Expand `$...` at self.i; (text, why it is dynamic or None, the PATH_PLACEHOLDERS name
        whose value it gives: `$CLAUDE_PROJECT_DIR`, or `${X:-$CLAUDE_PROJECT_DIR}` with X unset)."""
        text, n = self.text, len(self.text)
        i = self.i + 1
        if text.startswith("((", i):
            self.i = self._skip_parens(i)
            return "$((...))", "$((...)) is worked out when the hook runs", None
        if i < n and text[i] == "(":
            self.i = self._skip_parens(i)
            return "$(...)", "$(...) is worked out when the hook runs", None
        if i < n and text[i] == "{":
            end = self._matching_brace(i)
            inner = text[i + 1:end]
            self.i = end + 1
            match = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=])(.*))?", inner, re.S)
            if not match:  # ${CLAUDE_PROJECT_DIR%/}, ${#X}...: still the placeholder's value, split unquoted
                name = _NAME.match(inner)
                placeholder = name.group(0) if name and name.group(0) in PATH_PLACEHOLDERS else None
                return "${" + inner + "}", f"${{{inner}}} is worked out when the hook runs", placeholder
            name, op, default = match.groups()
            placeholder = name if name in PATH_PLACEHOLDERS else None
            value = self.variables.get(name)
            if value is not None:
                return value, None, placeholder
            if op is not None:
                if self.depth >= MAX_NESTING:
                    raise _Unreadable("${...} defaults nested too deep")
                sub = _Lexer(default, self.variables, self.home, self.depth + 1)
                try:
                    words = sub.words()
                except _Unreadable:
                    return default, f"${{{name}}} is only known when the hook runs", placeholder
                return (" ".join(w.text for w in words), next((w.dynamic for w in words if w.dynamic), None),
                        placeholder or next((w.unquoted for w in words if w.unquoted), None))
            return "${" + name + "}", f"${{{name}}} is only known when the hook runs", placeholder
        match = _NAME.match(text, i)
        if match:
            self.i = match.end()
            name = match.group(0)
            placeholder = name if name in PATH_PLACEHOLDERS else None
            value = self.variables.get(name)
            if value is not None:
                return value, None, placeholder
            return "$" + name, f"${name} is only known when the hook runs", placeholder
        if i < n and (text[i].isdigit() or text[i] in "@*#?$!-"):
            self.i = i + 1
            return "$" + text[i], f"${text[i]} is only known when the hook runs", None
        self.i = i
        return "$", None, None

    def _skip_parens(self, i: int) -> int:
        depth, n, text = 0, len(self.text), self.text
        quote = None
        while i < n:
            c = text[i]
            if quote:
                if c == quote:
                    quote = None
                elif c == "\\" and quote == '"':
                    i += 1
            elif c in "'\"":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        raise _Unreadable("an unterminated $(")

    def _matching_brace(self, i: int) -> int:
        depth, text = 0, self.text
        for j in range(i, len(text)):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    return j
        raise _Unreadable("an unterminated ${")

    def _backtick(self) -> None:
        end = self.text.find("`", self.i + 1)
        if end < 0:
            raise _Unreadable("an unterminated `")
        self.i = end + 1


# ---- simple commands ---------------------------------------------------------------------------

class _Interpreter:
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
        status = _ExitStatus(found)
        for word in [*words, Word("\n", operator=True)]:
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
        if program is None and name.startswith("/") and base == "env" and not first.quoted:
            return self.simple([Word("env"), *rest], cwd, launch, guards)  # /usr/bin/env python3 x.py
        if program is None and name.startswith("/") and _interpreter_kind(base) is not None:
            return self._interpreted(name, _interpreter_kind(base), rest, cwd, launch, guards)  # /usr/bin/python3 x.py
        if program is None:
            return self._file(name, program=None, interpreter=None, word=first, cwd=cwd, launch=launch,
                              guards=guards, direct=True)
        if base == "uv" and rest and rest[0].text == "run":
            return self._uv_run(name, rest[1:], cwd, launch, guards)
        kind = _interpreter_kind(base)
        if kind is None:
            return Invocation(name, program=program, program_guarded=name in guards)
        return self._interpreted(name, kind, rest, cwd, launch, guards)

    def _run_package(self, name: str, rest: list[Word], cwd, launch, guards) -> Invocation:
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

    def _uv_run(self, name: str, rest: list[Word], cwd, launch, guards) -> Invocation:
        takes_value = {"--with", "-w", "--python", "-p", "--project", "--directory", "--env-file", "--extra",
                       "--group", "--index", "--index-url", "--extra-index-url", "--with-requirements",
                       "--package", "--only-group", "--no-group", "--find-links", "-f", "--config-file"}
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
        if not target.dynamic and PYTHON.match(base):
            return self._interpreted(target.text, "python", rest[i + 1:], cwd, launch, guards, via=name,
                                     label=f"uv run {target.text}")
        if target.dynamic or target.text.endswith(".py") or "/" in target.text:
            return self._file(target.text, program=name, interpreter="uv run", word=target, cwd=cwd,
                              launch=launch, guards=guards, direct=False)
        return Invocation(name, program=name, runner=True)  # a tool or an entry point of the project

    def _interpreted(self, name: str, kind: str, rest: list[Word], cwd, launch, guards,
                     via: str | None = None, label: str | None = None) -> Invocation:
        program = via or name
        inline_flags = {"python": {"-c", "-m"}, "node": {"-e", "--eval", "-p", "--print"},
                        "shell": {"-c"}, "other": {"-e", "-E", "-r", "-Command", "-c", "-EncodedCommand"}}[kind]
        takes_value = {"python": {"-W", "-X", "-Q"},
                       "node": {"-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file",
                                "--conditions", "-C", "--input-type", "--title"},
                       "shell": {"-o", "-O", "+o", "+O"},
                       "other": {"-I", "-M", "-d", "-ExecutionPolicy"}}[kind]
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
                    inner = resolve_shell(script.text, where)  # what runs: the outer shell expanded it
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
            i += 2 if text in takes_value else 1
        if i >= len(words) or words[i].text == "-":
            return Invocation(name, program=program, interpreter=name, inline=True,
                                  program_guarded=program in guards)
        target = words[i]
        if base in ("bun", "deno") and not target.dynamic and "/" not in target.text \
                and not target.text.endswith(SCRIPT_SUFFIXES):
            return Invocation(name, program=program, runner=True)  # a package.json script or a package
        return self._file(target.text, program=program, interpreter=label or name,
                          word=target, cwd=cwd, launch=launch, guards=guards, direct=False)

    def _script(self, name, program, args, cwd, launch, guards, interpreter, direct) -> Invocation:
        if not args:
            return Invocation(name, program=program, interpreter=interpreter, inline=True)
        return self._file(args[0].text, program=program, interpreter=interpreter, word=args[0], cwd=cwd,
                          launch=launch, guards=guards, direct=direct, executable=name)

    def _file(self, text: str, *, program: str | None, interpreter: str | None, word: Word, cwd: Path | None,
              launch: bool, guards: set[str], direct: bool, executable: str | None = None) -> Invocation:
        if word.unquoted:
            self.unquoted.append(word.unquoted)
        # `which python3 && python3 x.py` vouches for python3, not for x.py
        found = partial(Invocation, executable or (text if direct else (program or text)), program=program,
                        interpreter=interpreter, script=text, direct=direct,
                        program_guarded=program is not None and program in guards)
        if word.dynamic:
            return found(dynamic=word.dynamic, guarded=text in guards)
        if "\\" in text or _WINDOWS.match(text):
            return found(dynamic="a Windows path", guarded=text in guards)
        if text.startswith("/"):
            return found(path=_normal(text), guarded=text in guards)
        if cwd is None:
            why = ("a relative path: it depends on the directory the host was started in" if launch
                   else "relative to a directory only known when the hook runs")
            return found(relative=launch, dynamic=why, guarded=text in guards)
        absolute = _normal(f"{cwd}/{text}")
        return found(path=absolute, relative=launch, guarded=text in guards or str(absolute) in guards)

    def _where(self, cwd: Path | None, launch: bool) -> Where:
        w = self.where
        return Where(w.project, w.plugin_root, w.home, cwd, launch, w.env)


class _ExitStatus:
    """Which invocations cannot fail the hook (Invocation.tolerated), and whose exit status cannot
    become the hook's (Invocation.sets_status), followed as the shell's lists and compound
    commands go by.

    Tolerated: `a || true`, `a || exit 0`, `a &`, `if a; then`, `while a; do`, `{ a; } || true`,
    `a || { log; exit 0; }`, and a last `; true` or `; exit 0` that makes the hook's status 0
    whatever ran before it (not under `set -e`, nor after an `exec`). Not setting the status:
    a command another one follows in sequence, one piped into another, one followed by `||`.
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
        self.in_branch = False  # the current command follows `then`, `else`, `do`...
        self.tolerated: list[tuple[int, int]] = []
        self.undecided: list[tuple[int, int]] = []

    def keywords(self, words: list[str]) -> None:
        self.in_branch = bool(words) and words[0] in BRANCH_WORDS  # `; then`, `; else`: no new command
        for word in words:
            self._open_or_close(word)
            self.condition = word in ("if", "elif", "while", "until") or (self.condition and word not in ("then", "do"))

    def command(self, words: list[Word], raw: list[Word]) -> None:
        """A simple command, without its keywords, wrappers and redirections (`raw`: with them)."""
        if not words:
            return
        self.command_start = len(self.found)
        if self.joined_by in (";", "\n", "&", ";;") and not (self.in_branch or self.exits_early):
            self.undecided.append(self.previous_list)  # the list before it no longer decides the status
        self.succeeded = _succeeds(words) and self.joined_by != "&&"
        if self.succeeded and self.joined_by == "||":
            self._tolerate(self.list_start)
        self.last_alone = self.succeeded and not self.opened and self.joined_by in (None, ";", "\n", "&")
        if words[0].text == "set" and any(_ERREXIT.match(w.text) for w in words[1:]) or (
                raw and raw[0].text == "exec" and not raw[0].quoted):
            self.exits_early = True

    def tested(self, inv: Invocation) -> Invocation:
        return inv._replace(tolerated=True) if self.condition else inv

    def operator(self, token: str) -> None:
        self.in_branch = False
        self._open_or_close(token)  # a subshell's ( and )
        if token == "&":  # in the background: its exit status is nobody's
            self._tolerate(self.list_start)
        if token in ("|", "|&"):
            self.undecided.append((self.command_start, len(self.found)))
        elif token == "||":
            self.undecided.append((self.list_start, len(self.found)))
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


_ERREXIT = lazy(r"-[a-zA-Z]*e|errexit$")


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


def _leading_keywords(words: list[Word]) -> list[str]:
    """The reserved words a simple command starts with (`if`, `then`, `{`, `fi`...)."""
    out = []
    for word in words:
        if word.quoted or word.text not in KEYWORDS:
            break
        out.append(word.text)
    return out


def _starts_a_command(before: list[Word]) -> bool:
    """The next word is in command position: first, or after an operator or a keyword."""
    return not before or before[-1].operator or (before[-1].text in KEYWORDS and not before[-1].quoted)


def _succeeds(command: list[Word]) -> bool:
    """`true`, `:` or `exit 0`: after `||`, the list before it can fail without failing the hook
    (a bare `exit` keeps the failed status)."""
    head, args = command[0].text, [w.text for w in command[1:]]
    return (head in ("true", ":") and not command[0].quoted) or (head == "exit" and args == ["0"])


def _interpreter_kind(base: str) -> str | None:
    if PYTHON.match(base):
        return "python"
    if base in NODE_LIKE:
        return "node"
    if base in SHELLS:
        return "shell"
    if base in OTHER_INTERPRETERS:
        return "other"
    return None


def _normal(path: str) -> Path:
    """Collapse `.` and `..` without touching the disk (symlinks are the checks' business)."""
    return Path(posixpath.normpath(path))
