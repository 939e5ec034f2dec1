"""The shell reader's second step: the words walked as a shell would run them, into the
simple commands and the file each one runs (wrappers such as `env` and `timeout`, `cd dir &&`,
interpreters with their scripts, package runners, `test -f` guards). A `sh -c` string is read
again by the reader the caller passes in."""
from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Callable

from ...patterns import lazy
from .exit import ExitStatus, shell_options
from .lex import KEYWORDS, Word
from .results import Invocation, Resolution, Where

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

class Interpreter:
    """Walks the words as a shell would run them: which file each simple command runs."""

    def __init__(self, where: Where, read: Callable[[str, Where], Resolution]) -> None:
        self.where = where
        self.read = read  # reads the string a `sh -c` runs: the whole reader (resolve.resolve_shell)
        self.stopped: str | None = None  # why the rest of the command was not followed
        self.unquoted: list[str] = []  # Resolution.unquoted

    def run(self, words: list[Word]) -> list[Invocation]:
        found: list[Invocation] = []
        cwd, launch = self.where.cwd, self.where.cwd_is_launch_dir
        guards: set[str] = set()
        command: list[Word] = []
        status = ExitStatus(found)
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
            return Invocation(name, program=program, program_guarded=name in guards)
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
                    inner = self.read(options + script.text, where)  # what runs: the outer shell expanded it
                    # whether the inner shell splits a placeholder: read with the placeholders it gets
                    # (bash -c '$CLAUDE_PROJECT_DIR/x.sh', or "..." that left them unquoted in there)
                    split = self.read(script.inner_command, where) if script.inner_command else inner
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
        # (made by place: the run's commonest record, 1,400 on the corpus tree; by name each took _complete)
        return Invocation(executable, program, interpreter, text, path, direct, relative, False, False, dynamic,
                          guarded, program_guarded)

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
    """Collapse `.` and `..` without touching the disk (symlinks are the checks' business)."""
    return Path(posixpath.normpath(path))
