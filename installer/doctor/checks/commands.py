"""Commands: does each command handler start, the same way on every machine that loads it?

Each command is resolved statically first (installer/doctor/shell/resolve.py): only a path the host
would really use is checked on disk, and a path built at run time ($(...), backticks, unknown
variables) is never called missing.

Reach (REACH_RULES): hooks that depend on files of another scope. A hook of the user's settings,
the administrator's or a plugin runs in every project, and one that reaches its script through
the project's folder (`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`) finds it only in the projects
that have it; a plugin's own script belongs under `${CLAUDE_PLUGIN_ROOT}`. Where the script is
missing in this project, command/script-missing says so (worded for a shared hook); these rules
say what holds where it is not missing.
"""
from __future__ import annotations

import fnmatch
import json
import os
import re
import stat
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from ... import hosts, safe_read
from ...document import Keys
from ...errors import HookwrightError
from ...hooks.events import GENERIC_INPUT_VARIABLE, LEGACY_INPUT_VARIABLE
from ...hosts.base import Host
from ...patterns import joins, lazy
from .. import disk, handler_facts
from ..model import ConfigFile, Context, Finding, Handler, RuleTable, cached_property, rule_by_id
from ..scripts import bashisms, runners, variables
from ..scripts import delivery as script_delivery
from ..scripts.keys import ScriptFacts as keys_facts
from ..shell import Invocation, Resolution, Where
from ..shell.lex import HOST_STDERR, HOST_STDOUT, Lexer, Streams, Unreadable, stdin_takers, streams
from ..shell.resolve import python_name
from .installs import install_target
from .scopes import settings_path as _settings_path

# `${NAME:-...}` falls back to something else and is left alone
LEGACY_INPUT = lazy(rf"\$\{{?({LEGACY_INPUT_VARIABLE}|{GENERIC_INPUT_VARIABLE})(?![A-Za-z0-9_]|\}}?:?-)",
                    needs=("CLAUDE_TOOL", "CLAUDE_HOOK", "CLAUDE_FILE", "CLAUDE_BASH", "CLAUDE_NOTIFICATION",
                           "CLAUDE_EXIT", "TOOL_", "FILE_PATH", "STDIN", "ARGUMENTS"))
# the shell's positional parameters: Claude Code's `sh -c` gives a hook no arguments
POSITIONAL_NAMES = "123456789@*"
# words a command can start with before the program it runs: a test, a loop, a cd
LEADING_WORDS = frozenset({"if", "while", "until", "for", "case", "[", "[[", "test", "cd", "!", "{", "("})
# set for plugin hooks only; `${CLAUDE_PLUGIN_ROOT:-fallback}` copes with that
PLUGIN_VARIABLE = lazy(r"\$\{?(CLAUDE_PLUGIN_(?:ROOT|DATA))(?![A-Za-z0-9_]|:?[-=])", needs=("CLAUDE_PLUGIN_",))
USER_CONFIG = lazy(r"\$\{user_config\.([^}]*)\}", needs=("${user_config.",))  # a plugin's user option (docs/hosts/claude-code.md#handler-fields)
RELATIVE_IN_PROJECT = ("the project root while the session is there, but not once it works in a subdirectory or a "
                      "worktree")
SHARED_SCOPES = ("project", "plugin", "managed", "given")
# builtins with no file on PATH (export/local/declare/readonly and the guards type/hash never get here)
SHELL_BUILTINS = frozenset({"source", ".", "cd", "test", "[", "[[", "echo", "printf", "true", "false", ":", "exit",
                            "set", "unset", "read", "eval", "exec", "command", "builtin", "trap", "return", "shift",
                            "wait", "ulimit", "umask", "typeset", "let", "shopt", "pushd", "popd", "dirs", "continue",
                            "break", "getopts", "mapfile", "readarray", "disown", "jobs", "fg", "bg", "enable",
                            "bind", "history", "caller", "compgen", "complete", "suspend", "logout", "times",
                            "alias", "unalias"})
ANSWER_KEYS = frozenset({"permissionDecision", "decision", "behavior"})  # a decision on stdout



def _guards_an_action(handler: Handler) -> bool:
    """A hook that can refuse a tool call, a prompt or a settings change: if its program is
    missing, the action goes through unchecked (Stop hooks, notifiers and loggers aside)."""
    host = hosts.of(handler.file.host)
    return host is not None and handler.event in host.guard_events


PYTHON_EXITS_2 = "python exits 2 when its script is missing"


def _effect(handler: Handler, exits_2: str | None = None, silent: bool = False, part: bool = False) -> str:
    """What the host does when the command cannot start; `exits_2`: why the hook exits 2 instead
    (`python3 missing.py`: PYTHON_EXITS_2), which a gate reads as a block; `silent`: the command
    exits 0 all the same (`missing.sh || true`), so not even an error notice shows; `part`: what
    cannot start is not the first thing the command runs (inside an `if`, after a `cd`), so only
    that part of the hook does not run."""
    effect = _host_effect(handler, exits_2)
    if part:
        effect = effect.replace("the hook never runs", "that part of the hook never runs")
    return effect.replace("(a non-blocking error)", "(silently: the command still exits 0)") if silent else effect


def _host_effect(handler: Handler, exits_2: str | None) -> str:
    host = hosts.of(handler.file.host)
    if host is None:
        return "the hook never runs (a non-blocking error)"
    return host.unstarted_effect(handler.event, handler.value, exits_2)


def _path_with_arguments(inv: Invocation | None) -> bool:
    """Exec form `"command": "/usr/bin/env node"`: no file has that name, but its first word is one."""
    text = str(inv.path) if inv is not None and inv.path is not None else ""
    return " " in text and not disk.exists(text) and disk.exists(text.split()[0])


def python_exit_2(inv: Invocation | None, why: str) -> str | None:
    """`why` when python runs the file and its exit status 2 becomes the hook's (no `|| true`,
    nothing after it in sequence or in a pipe); else None."""
    if inv is None:
        return None
    python = inv.interpreter is not None and python_name(Path(inv.interpreter.split()[-1]).name)
    return why if python and not inv.tolerated and inv.sets_status else None


# interpreters that read the one argument Linux passes from a `#!` line as one option word, and fail
# on "-e -u" (measured here: bash 5.2 "- : invalid option", exit 1; python3 3.11 "Unknown option: - ",
# exit 2; node 20 "bad option"); perl and ruby read the line's options themselves
ONE_OPTION_INTERPRETERS = lazy(r"(?:ba|da|z|k)?sh|python[\d.]*|node(?:js)?|bun|deno")
# a script in a language sh cannot read, by its name: without a `#!` line sh runs it all the same
NOT_SHELL_SUFFIXES = frozenset({".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl", ".php"})
BOM = b"\xef\xbb\xbf"
SHELLS = frozenset({"sh", "dash", "bash", "zsh", "ksh"})
# (not an exit 2: the effect itself) a shell script that sh runs in bash's place
UNDER_SH = ("it runs, but what only bash reads fails under sh (dash: a [[ test is false, an array stops it with exit 2), "
            "so a gate may let the calls it should refuse through")
SH_SYNTAX_ERROR = "sh stops at the first line of another language it cannot parse, with exit 2 (dash 0.5.12)"


def _bad_interpreter(first_line: bytes, path: Path) -> tuple[str, str | None] | None:
    """Why the system cannot start a script with this first line in the interpreter it names
    (None: it can, or sh runs a shell script itself). Linux gives the interpreter the rest of the
    `#!` line as one argument (env then looks for a program named "bash -e": measured with
    coreutils 9.1, exit 127; `env -S` splits it), and a line that does not begin with `#!` (a
    byte-order mark before it, or none) is no `#!` line: sh runs the file as a shell script.
    With the reason, why it exits 2 where it does (None: it exits 1 or 127; UNDER_SH: it runs)."""
    if first_line.startswith(BOM + b"#!"):
        marked = first_line[5:].decode("utf-8", "replace").split()
        program = (marked[1] if len(marked) > 1 and marked[0].endswith("/env") else marked[0]).rsplit("/", 1)[-1] \
            if marked else ""
        if program and program not in bashisms.SH_NAMES:
            return (f"a byte-order mark stands before its #! line, so the system does not see that line and sh runs "
                    f"the script in place of {program}"), SH_SYNTAX_ERROR if program not in SHELLS else UNDER_SH
        return None
    if not first_line.startswith(b"#!"):
        if path.suffix in NOT_SHELL_SUFFIXES and first_line.strip():
            return "it has no #! line, so sh runs it as a shell script, which it is not", SH_SYNTAX_ERROR
        return None
    line = first_line[2:].decode("utf-8", "replace")
    if line.endswith("\r"):
        last = line.split()[-1] if line.split() else ""
        return ("its #! line ends with a carriage return (Windows line endings), so the program it names is "
                f"looked for as {json.dumps(last + chr(13))}"), None
    words = line.split()
    if not words or not words[0].startswith("/"):
        return None
    if not disk.exists(words[0]):
        return f"the interpreter its #! line names, {words[0]}, does not exist here", None
    name = Path(words[0]).name
    if name == "env":
        if len(words) > 2 and not (words[1].startswith("-") and "S" in words[1].split("=")[0]):
            return (f"Linux passes {json.dumps(' '.join(words[1:]))} to env as one word, and env finds no program "
                    "of that name (only env -S splits it)"), None
        named = next((w for w in words[1:] if not w.startswith("-") and "=" not in w), None)
        if named and disk.which(named) is None:
            return f"its #! line runs {named} through env, and {named} is not on PATH", None
    elif len(words) > 2 and ONE_OPTION_INTERPRETERS.fullmatch(name):
        return (f"Linux passes {json.dumps(' '.join(words[1:]))} to {name} as one argument, which {name} does not "
                "read as options"), "python exits 2 on an option it does not know" if python_name(name) else None
    return None


class Command:
    """One command handler, as every command rule reads it (what several rules read is worked
    out once, on first use)."""

    def __init__(self, handler: Handler, written: str, res: Resolution, keys: Keys) -> None:
        self.handler = handler
        self.written = written  # its "command" as written: a string, not blank (check() makes a Command of no other)
        self.res = res  # what it runs (shell/resolve.py)
        self.keys = keys  # where a finding about the command points: its "command"

    @property
    def file(self) -> ConfigFile:
        return self.handler.file

    @property
    def exec_form(self) -> bool:
        return self.res.form == "exec"

    @property
    def host(self) -> str:
        return self.adapter.title

    @cached_property
    def adapter(self) -> Host:
        return hosts.get(self.file.host)  # (a command of a host's file: check() makes no other; asked by most rules)

    @cached_property
    def from_launch_dir(self) -> bool:
        """The host starts it wherever the host itself was started (not in a fixed folder)."""
        return self.adapter.command_cwd(self.file)[1]

    @cached_property
    def scripts_read(self) -> tuple[tuple[Invocation, keys_facts], ...]:
        """handler_facts.script_facts of its handler: what each script it runs that was read says
        (asked by six rules of each command, each time walking its invocations and the disk cache)."""
        return handler_facts.script_facts(self.handler)

    @cached_property
    def streams(self) -> tuple[Streams, ...]:
        """Where each simple command of the line sends its stdout and stderr (shell/lex.py: streams)."""
        return streams(self.written)

    def streams_of(self, script: str) -> Streams | None:
        """Where the output of the simple command that names `script` goes (None: none read)."""
        name = Path(script).name
        return next((s for s in self.streams if any(name in w.text for w in s.command.plain)), None)

    @cached_property
    def text(self) -> str:
        """The command with its exec-form arguments."""
        args = self.handler.value.get("args")
        return " ".join([self.written, *map(str, args)]) if isinstance(args, list) else self.written

    @cached_property
    def plugin_variable_outside_plugin(self) -> re.Match[str] | None:
        """${CLAUDE_PLUGIN_ROOT} or _DATA in a hook that is not a plugin's: never set there."""
        if "CLAUDE_PLUGIN_" not in self.text or not self.adapter.has_plugins or self.file.from_plugin:
            return None
        found: re.Match[str] | None = PLUGIN_VARIABLE.search(self.text)
        return found

    def runs_later(self, inv: Invocation) -> bool:
        """Something runs before the invocation: another program, or a test it sits behind (`if`,
        `[ ... ] &&`, `cd x &&`), so the hook starts even where the invocation cannot."""
        first = self.written.split(None, 1)[0] if self.written.strip() else ""
        return inv is not self.res.invocations[0] or first in LEADING_WORDS

    def keys_for(self, inv: Invocation) -> Keys:
        """Exec form: the position of the argument that names the script; else the command."""
        args = self.handler.value.get("args")
        if self.exec_form and inv.script and isinstance(args, list):
            name = Path(inv.script).name
            for index, arg in enumerate(args):
                if isinstance(arg, str) and arg.endswith(name):
                    return self.handler.keys + ("args", index)
        return self.keys

    @cached_property
    def files_on_disk(self) -> list[tuple[Invocation, Path, int | None]]:
        """(invocation, its file, the file's mode or None) for each file the host would really
        start: a path built at run time, or behind a `test -f`, is not looked at."""
        found = []
        for inv in self.res.invocations:
            if inv.path is None or inv.dynamic or inv.guarded:
                continue
            if inv.relative and self.from_launch_dir and self.file.scope not in ("project", "local", "given"):
                continue  # relative to wherever the host starts: reported as relative, not as missing
            mode = disk.mode(inv.path)
            if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
                continue  # a device or a pipe (`source /dev/null`): there, and not a script to check
            found.append((inv, inv.path, mode))
        return found

    @cached_property
    def scripts_on_disk(self) -> list[tuple[Invocation, Path, int]]:
        """The files of files_on_disk that are there, each once."""
        found: dict[Path, tuple[Invocation, Path, int]] = {}
        for inv, path, mode in self.files_on_disk:
            if mode is not None and stat.S_ISREG(mode) and path not in found:
                found[path] = (inv, path, mode)
        return list(found.values())

    @cached_property
    def first_unquoted(self) -> tuple[str, str] | None:
        """(the first placeholder the shell splits, its value here), a plugin variable outside a
        plugin aside (reported as never set)."""
        outside = self.plugin_variable_outside_plugin is not None
        for name in self.res.unquoted:
            if not (outside and name.startswith("CLAUDE_PLUGIN_")):
                return name, handler_facts.where(self.file).variables.get(name) or ""
        return None


RULES = RuleTable()  # the command rules, one function each, in the order they run
REACH_RULES = RuleTable()  # a command of a hook every project runs (a shared file's)


# the premises several command rules share (RuleTable.rule's `premise`): asked once per command,
# the rules that need them are not run where they fail (on the corpus tree's 1,856 commands, most)
def _scripts_there(ctx: Context, command: Command) -> bool:
    """A script file it starts is there (the rules that read the file's mode and first line)."""
    return bool(command.scripts_on_disk)


def _scripts_read(ctx: Context, command: Command) -> bool:
    """A script it runs was read (the rules of what the script answers on which stream)."""
    return bool(command.scripts_read)


def _placeholder_unquoted(ctx: Context, command: Command) -> bool:
    return bool(command.res.unquoted)


def _broken_or_exec_form(ctx: Context, command: Command) -> bool:
    return bool(command.res.broken) or command.exec_form


def _block_may_be_swallowed(ctx: Context, command: Command) -> bool:
    """block-swallowed's: on an event where exit 2 blocks, a script it runs was read, or a runner is
    named on the line or in a variable it may expand (a recipe's)."""
    return command.handler.event in command.adapter.exit_2_blocks and (
        bool(command.scripts_read) or runners.may_name_a_runner(command.written)
        or _variables_name_a_runner(handler_facts.where(command.file)))


def _answers_or_names_a_runner(ctx: Context, command: Command) -> bool:
    """A shell-form command that runs a script that was read, or may name a package manager or make
    (text-beside-answer's: neither, and it reads nothing)."""
    return not command.exec_form and (bool(command.scripts_read) or runners.may_name_a_runner(command.written))


def _expands(ctx: Context, command: Command) -> bool:
    """A `$` in the command: a variable, an option of a plugin or an argument it reads."""
    return "$" in command.written


def _names_a_user_option(ctx: Context, command: Command) -> bool:
    """user-config-in-shell-form's: what every USER_CONFIG match holds."""
    return "${user_config." in command.written


def _names_a_plugin_variable(ctx: Context, command: Command) -> bool:
    return "CLAUDE_PLUGIN_" in command.text


def _names_a_home_path(ctx: Context, command: Command) -> bool:
    return bool(command.res.home_paths)


def check(ctx: Context) -> Iterator[Finding]:
    once_per_file: dict[str, list[Finding]] = {}
    shared: set[tuple[object, ...]] = set()
    everywhere: dict[int, bool] = {}  # each file's: does every project run its hooks (REACH_RULES' premise, once a file)
    for handler in ctx.handlers:
        if not handler_facts.commands_checked(handler) or handler_facts.kind(handler) != "command":
            continue
        file = handler.file
        if id(file) not in everywhere:
            host = hosts.of(file.host)
            everywhere[id(file)] = host is not None and file.project is not None and host.shared_by_projects(file)
        if everywhere[id(file)]:
            yield from REACH_RULES.run(ctx, handler)
        written = handler.command
        if not isinstance(written, str) or not written.strip():
            continue  # the structure rules report a missing command
        command = Command(handler, written, handler_facts.resolution(handler), handler.keys + ("command",))
        for finding in RULES.run(ctx, command):
            if finding.about and finding.rule == "command/interpreter-not-found":  # (at a PATH the hooks share)
                if finding.about in shared:
                    continue
                shared.add(finding.about)
            if finding.rule in ONCE_PER_FILE:
                once_per_file.setdefault(finding.path, []).append(finding)
            else:
                yield finding
    for found in once_per_file.values():
        yield _said_once(found)


# notes that hold for every such hook on every machine: said once per file, the other hooks listed with it
ONCE_PER_FILE = ("command/sh-without-shell",)


def _said_once(found: list[Finding]) -> Finding:
    first, others = found[0], found[1:]
    if not others:
        return first
    also = f", nor {'does' if len(others) == 1 else 'do'} {len(others)} more in this file (listed with it)"
    return first._replace(message=rule_by_id(first.rule).message.format(also=also),
                          related=[*first.related, *({"path": f.path, "line": f.line, "column": f.column,
                                                      "message": "the same here"} for f in others)])


@RULES.rule("command/exec-arguments-in-command", alone=True, premise=_broken_or_exec_form)
def _exec_arguments_in_command(ctx: Context, command: Command) -> Iterator[Finding]:
    """"python3 -u" or "/usr/bin/env node" as an exec form's command: nothing starts."""
    if command.res.broken or (command.exec_form and _path_with_arguments(command.res.main)):
        yield ctx.finding("command/exec-arguments-in-command", command.file, command.keys,
                          command=json.dumps(command.written), effect=_effect(command.handler))


@RULES.rule("command/user-config-in-shell-form", premise=_names_a_user_option)
def _user_config_in_shell_form(ctx: Context, command: Command) -> Iterator[Finding]:
    user_config = USER_CONFIG.search(command.written)
    if not user_config or command.exec_form or not command.adapter.has_plugins:
        return
    name = user_config.group(0)
    if command.file.from_plugin:
        effect = _effect(command.handler)
        hint = (f"read ${'CLAUDE_PLUGIN_OPTION_' + user_config.group(1).upper()} in the shell instead, or use "
                f"exec form: the program in \"command\", its arguments (with {name}) in \"args\"")
    else:  # nothing substitutes it outside a plugin, and sh rejects the name
        effect = ("sh rejects it as a bad substitution, so the hook fails before it does anything (where sh is "
                  "dash, as on Debian and Ubuntu, with exit 2, which a gate reads as a block; bash exits 1)")
        hint = "user_config exists only in plugin hooks: write the value itself, or read an environment variable"
    yield ctx.finding("command/user-config-in-shell-form", command.file, command.keys, name=name, effect=effect,
                      hint=hint)


@RULES.rule("command/input-variable-never-set", premise=_expands)
def _input_variable_never_set(ctx: Context, command: Command) -> Iterator[Finding]:
    """The first legacy input variable the command reads that neither a settings file's "env" nor
    the command itself sets (NAME=..., read NAME, export NAME: the name written bare); else an
    argument it reads ($1, "$@"), which `sh -c` never gives it."""
    text, runs = command.written, command.adapter.input_on_stdin_only
    if not runs or command.exec_form:
        return
    for match in LEGACY_INPUT.finditer(text):
        name = match.group(1)
        if name not in ctx.settings_env and not written_bare(name, text):
            yield ctx.finding("command/input-variable-never-set", command.file, command.keys, name=name,
                              host=command.host)
            return
    argument = _argument_read(text)
    if argument:
        yield ctx.finding("command/input-variable-never-set", command.file, command.keys, variant="argument",
                          name=argument, host=command.host, runs=runs)


def written_bare(name: str, text: str) -> bool:
    r"""Whether `text` writes the variable `name` bare, as a command that sets it does (NAME=...,
    read NAME, export NAME): with no word character, `$` or `{` before it, no word character after
    it (what `(?<![\w${])NAME(?!\w)` found: a compile for each name, nine in each process that
    checks the corpus tree's commands)."""
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not joins(text[at - 1], "${")) and (end == len(text) or not joins(text[end])):
            return True
        at = text.find(name, at + 1)
    return False


def _positional(text: str) -> str | None:
    """The first positional parameter a text reads: $1 to $9, $@, $*, ${1} to ${9} (a plain
    find: as a regex, a compile of 0.4 M instructions of doctor on a typical file)."""
    at = text.find("$")
    while at >= 0:
        name = text[at + 1:at + 2]
        if name and name in POSITIONAL_NAMES:
            return text[at:at + 2]
        braced = text[at + 2:at + 3]
        if name == "{" and braced and braced in POSITIONAL_NAMES[:9] and text[at + 3:at + 4] == "}":
            return text[at:at + 4]
        at = text.find("$", at + 1)
    return None


def _argument_read(text: str) -> str | None:
    """A positional parameter the command reads where nothing in it could have set one: no function
    (whose own arguments they would be), no `set --`, no nested `sh -c '...' _ arg`, xargs or awk."""
    if _positional(text) is None:
        return None
    try:
        words = Lexer(text, {}, None).words()
    except Unreadable:
        return None
    texts = [word.text for word in words]
    if "-c" in texts or any(t in ("xargs", "awk", "gawk", "function", "parallel") for t in texts) \
            or any(pair in (("(", ")"), ("set", "--")) for pair in zip(texts, texts[1:])):
        return None
    for word in words:
        found = _positional(word.text) if word.dynamic else None
        if found:
            return found
    return None


@RULES.rule("command/plugin-variable-outside-plugin", premise=_names_a_plugin_variable)
def _plugin_variable_outside_plugin(ctx: Context, command: Command) -> Iterator[Finding]:
    found = command.plugin_variable_outside_plugin
    if found:
        yield ctx.finding("command/plugin-variable-outside-plugin", command.file, command.keys, name=found.group(1),
                          effect=_effect(command.handler, python_exit_2(command.res.main, PYTHON_EXITS_2)))


@RULES.rule("command/script-missing")
def _script_missing(ctx: Context, command: Command) -> Iterator[Finding]:
    for inv, path, mode in command.files_on_disk:
        if mode is not None and stat.S_ISREG(mode):
            continue
        shown = inv.script or str(path)
        effect = _effect(command.handler, python_exit_2(inv, PYTHON_EXITS_2), silent=inv.tolerated or not inv.sets_status,
                         part=command.runs_later(inv))
        if mode is not None:
            effect = "it is a directory; " + effect
        also = f" (looked for {path})" if str(path) != shown else ""
        variable = handler_facts.through_project(command.handler, inv)
        if variable and plugins_own(command.file, path) is not None:
            continue  # (one finding per defect: command/plugin-script-through-project names the plugin's own copy)
        start = None if variable else handler_facts.through_start_folder(command.handler, inv)
        file = command.file
        # (what only a variant's words name, worked out for that variant: a tree of projects
        # without their scripts has a thousand of these findings, nearly all in the plain words)
        worded: dict[str, Any] = {}
        if variable:
            worded = {"variable": variable, "beside": ctx.once(_shared_script_places)[file.host],
                      "scope": "a plugin" if file.from_plugin else f"the {file.scope} settings"}
        elif start:
            worded = {"variable": start, "start": str(file.project), "folder": str(file.path.parent.parent),
                      "relative": path.relative_to(file.project).as_posix() if file.project else ""}
        yield ctx.finding("command/script-missing", file, command.keys_for(inv), script=_quote(shown),
                          effect=effect, also=also, **worded,
                          variant="other-projects" if variable else "start-folder" if start else None)


@RULES.rule("command/not-executable", premise=_scripts_there)
def _not_executable(ctx: Context, command: Command) -> Iterator[Finding]:
    for inv, _path, mode in command.scripts_on_disk:
        if inv.direct and sys.platform != "win32" and not mode & 0o111:
            shown = _quote(inv.script or str(inv.path))
            yield ctx.finding("command/not-executable", command.file, command.keys_for(inv), script=shown, name=shown,
                              effect=_effect(command.handler))


@RULES.rule("command/bad-interpreter", premise=_scripts_there)
def _bad_interpreter_line(ctx: Context, command: Command) -> Iterator[Finding]:
    """An interpreter that cannot start, at the hook's command; a #! line ending in a carriage
    return at the line to change: the .gitattributes line that checks the script out with CRLF
    (a script mended by hand gets them back on the next checkout), else the script's line 1."""
    for inv, path, _mode in command.scripts_on_disk:
        first = disk.first_line(path)
        bad = _bad_interpreter(first, path) if inv.direct and sys.platform != "win32" else None
        if not bad:
            continue
        why, exits_2 = bad
        effect = exits_2 if exits_2 is UNDER_SH else _effect(command.handler, exits_2 if command.res.main is inv else None)
        found = ctx.finding("command/bad-interpreter", command.file, command.keys_for(inv),
                            script=_quote(inv.script or str(path)), why=why, effect=effect)
        run_at = {"path": found.path, "line": found.line, "column": found.column, "message": "the hook that runs it"}
        forced = _crlf_attribute(path) if first.endswith(b"\r") else None
        if forced is None:  # (at the #! line, where the change is made)
            found = found._replace(path=str(path), line=1, column=len(first) if first.endswith(b"\r") else 1,
                                   related=[run_at])
        else:
            found = ctx.finding("command/bad-interpreter", command.file, command.keys_for(inv), variant="attribute",
                                script=_quote(inv.script or str(path)), why=why, effect=effect,
                                attribute=forced[2], name=path.name)._replace(
                path=str(forced[0]), line=forced[1], column=1,
                related=[run_at, {"path": str(path), "line": 1, "column": len(first), "message": "its #! line"}])
        yield found


GIT_ATTRIBUTE_EOL = lazy(r"(?:^|\s)eol=(\w+)")


def _crlf_attribute(script: Path) -> tuple[Path, int, str] | None:
    """The .gitattributes line (file, line, text) that gives the script `eol=crlf`: the last line
    whose pattern matches it and sets eol, in the nearest file up to the repository's root (a
    pattern without a slash matches the file's name, one with a slash its path from that folder)."""
    folder = script.parent
    for _ in range(MAX_ATTRIBUTE_FOLDERS):
        attributes = folder / ".gitattributes"
        if disk.is_file(attributes):
            try:
                text = safe_read.read_text(attributes, safe_read.SETTINGS)
            except (OSError, HookwrightError):
                text = ""
            found = None
            relative = script.relative_to(folder).as_posix()
            for number, line in enumerate(text.splitlines(), 1):
                words = line.split()
                eol = GIT_ATTRIBUTE_EOL.search(line)
                if not words or words[0].startswith("#") or eol is None:
                    continue
                pattern = words[0].lstrip("/")
                if fnmatch.fnmatchcase(relative if "/" in words[0].rstrip("/") else script.name, pattern):
                    found = (attributes, number, line.strip()) if eol.group(1) == "crlf" else None
            if found is not None:
                return found
        if disk.exists(folder / ".git") or folder.parent == folder:
            return None
        folder = folder.parent
    return None


MAX_ATTRIBUTE_FOLDERS = 16  # the folders above a script looked in for .gitattributes


@RULES.rule("command/world-writable", premise=_scripts_there)
def _world_writable(ctx: Context, command: Command) -> Iterator[Finding]:
    if sys.platform == "win32":
        return
    for inv, path, mode in command.scripts_on_disk:
        keys = command.keys_for(inv)
        if mode & stat.S_IWOTH:
            yield ctx.finding("command/world-writable", command.file, keys, what=f"the script {path}",
                              path=_quote(str(path)))
            continue
        parent = disk.mode(path.parent)
        if parent is not None and parent & stat.S_IWOTH and not parent & stat.S_ISVTX:
            yield ctx.finding("command/world-writable", command.file, keys,
                              what=f"the directory {path.parent} (which holds {path.name})",
                              path=_quote(str(path.parent)))


@RULES.rule("command/block-swallowed", premise=_block_may_be_swallowed)
def _block_swallowed(ctx: Context, command: Command) -> Iterator[Finding]:
    """A script that refuses only by exiting 2 (no JSON decision on stdout, which would still get
    through), run where the command hands the host another exit status: the block never lands."""
    yield from _lost_in_recipe(ctx, command)
    if not any(inv.tolerated or not inv.sets_status for inv in command.res.invocations if inv.path is not None):
        return
    for inv, facts in command.scripts_read:
        if inv.sets_status and not inv.tolerated or not facts.readable or ANSWER_KEYS & set(facts.answers):
            continue
        if facts.exits_2():
            yield ctx.finding("command/block-swallowed", command.file, command.keys,
                              script=_quote(inv.script or str(inv.path)), host=command.host)
            return


def _lost_in_recipe(ctx: Context, command: Command) -> Iterator[Finding]:
    """A runner's recipe (a make target's line, a package.json script) that runs a script refusing
    only by exit 2 and ends with another status: make ignoring the line's failure (`-` before it,
    `make -i`, `.IGNORE:`), or the line's own `|| ...` or a command after the script. At the
    recipe's line, the command related."""
    where = handler_facts.where(command.file)
    if not runners.may_name_a_runner(command.written) and not _variables_name_a_runner(where):
        return  # (no make or npm on the line, nor in a variable it may name: the line's streams are not worked out)
    known = {name: value for name, value in where.variables.items() if value is not None}
    for found in command.streams:
        words = [PLACEHOLDER.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), w.text)
                 for w in found.command.plain if not w.assignment] if found.command.kind == "simple" else []
        for recipe in runners.recipes(words, where.cwd):
            lost = runners.swallowed(recipe)
            if lost is None:
                continue
            script, how = lost
            finding = ctx.finding("command/block-swallowed", command.file, command.keys,
                                  variant="make" if recipe.ignored else "recipe", script=_quote(script.name), how=how,
                                  host=command.host, runner=recipe.runner)
            yield finding._replace(path=str(recipe.file), line=recipe.line, column=1, related=[
                {"path": finding.path, "line": finding.line, "column": finding.column,
                 "message": f"the hook's command that runs {recipe.runner}"}])
            return


PLACEHOLDER = lazy(r"\$\{(\w+)\}|\$(\w+)", needs=("$",))


@lru_cache(maxsize=1024)
def _variables_name_a_runner(where: Where) -> bool:
    """Whether a placeholder's value known for this place may name a runner: once per place (a
    frozen Where), not per command. (The work tree's top, which a command may add to the values
    later, is a folder of the path PWD already names.)"""
    return any(value is not None and runners.may_name_a_runner(value) for value in where.variables.values())


@RULES.rule("command/input-read-twice", premise=_scripts_read)
def _input_read_twice(ctx: Context, command: Command) -> Iterator[Finding]:
    """Two scripts of one command line that each read the hook's input from the stdin they share
    (`a.sh && b.sh`, `a.sh; b.sh`): the first reads it to the end, the second reads nothing.
    Reported where the second refuses (by exit 2 or a JSON decision): it can no longer see the call."""
    if command.exec_form or len(command.res.invocations) < 2:
        return
    scripts = [(Path(inv.script).name, facts) for inv, facts in command.scripts_read
               if inv.script is not None and facts.readable and (facts.flow.reads_stdin or facts.flow.input_reads)]
    if len(scripts) < 2:
        return  # (the premise before the parse: on the corpus tree, 35 ms of command lines parsed for nothing)
    takers = stdin_takers(command.written)
    readers: dict[int, tuple[str, keys_facts]] = {}
    for name, facts in scripts:
        at = next((i for i, taker in enumerate(takers) if any(name in w.text for w in taker.plain)), None)
        if at is not None:
            readers.setdefault(at, (name, facts))
    if len(readers) < 2:
        return
    (_, (first, _)), (_, (second, facts)) = sorted(readers.items())[:2]
    if facts.exits_2() or ANSWER_KEYS & set(facts.answers):
        yield ctx.finding("command/input-read-twice", command.file, command.keys, first=_quote(first),
                          second=_quote(second), host=command.host)


@RULES.rule("command/answer-diverted", premise=_scripts_read)
def _answer_diverted(ctx: Context, command: Command) -> Iterator[Finding]:
    """A script that answers with a JSON decision on stdout, run where the command sends its stdout
    elsewhere (`> log`, `| tee log >/dev/null`, `| logger`, `>&2`): the host reads no answer."""
    if command.exec_form:
        return
    for inv, facts in command.scripts_read:
        keys = [key for key in facts.answers if key in ANSWER_KEYS]
        if not keys or inv.script is None:
            continue
        found = command.streams_of(inv.script)
        if found is not None and found.stdout != HOST_STDOUT:
            yield ctx.finding("command/answer-diverted", command.file, command.keys, script=_quote(inv.script),
                              key=keys[0], where=found.stdout)
            return


@RULES.rule("command/block-reason-dropped", premise=_scripts_read)
def _block_reason_dropped(ctx: Context, command: Command) -> Iterator[Finding]:
    """A script that refuses by exiting 2, its reason on stderr, run where the command sends its
    stderr elsewhere (`2>/dev/null`, `2>>log`, `2>&1`): the block lands, its reason does not."""
    handler = command.handler
    if command.exec_form or handler.event not in command.adapter.exit_2_blocks:
        return
    for inv, facts in command.scripts_read:
        if inv.script is None or inv.tolerated or not inv.sets_status or not facts.readable or not facts.exits_2() \
                or ANSWER_KEYS & set(facts.answers):
            continue  # (a block the command swallows: command/block-swallowed)
        found = command.streams_of(inv.script)
        if found is None or found.stderr == HOST_STDERR:
            continue
        needs_reason = command.adapter.exit_2_needs_reason.get(handler.event)
        if needs_reason is not None:  # (no reason, no block: the hook failed, and the call runs)
            yield ctx.finding("script/exit-2-without-reason", command.file, command.keys, variant="diverted",
                              script=_quote(inv.script), where=found.stderr, host=command.adapter.title,
                              event=handler.event, said=needs_reason)
        else:
            yield ctx.finding("command/block-reason-dropped", command.file, command.keys, script=_quote(inv.script),
                              where=found.stderr)
        return


@RULES.rule("command/text-beside-answer", premise=_answers_or_names_a_runner)
def _text_beside_answer(ctx: Context, command: Command) -> Iterator[Finding]:
    """A command line that runs, beside a script answering with a JSON decision, another command
    whose text reaches the same stdout (`echo "checking" && guard.py`, `git status; guard.py`,
    `guard.py; echo done`): the host reads one JSON object or nothing."""
    if command.exec_form:
        return
    answering = [Path(inv.script).name for inv, facts in command.scripts_read
                 if inv.script is not None and any(key in ANSWER_KEYS for key in facts.answers)]
    runner = runners.may_name_a_runner(command.written)
    if not answering and not runner:
        return  # (neither premise holds: the command's tree is not read)
    every = command.streams
    chatty = _runner_chatter(command, every, ctx.once(_settings_env)) if runner else None
    if chatty is not None:
        chatter, script = chatty
        yield ctx.finding("command/text-beside-answer", command.file, command.keys, variant="runner", runner=chatter.runner,
                          prints=chatter.prints, script=script, quiet=chatter.quiet)
        return
    if not answering:
        return
    if not any(s.stdout == HOST_STDOUT and any(name in w.text for w in s.command.plain for name in answering)
               for s in every):
        return  # (the answer itself does not reach the host: command/answer-diverted)
    for found in every:
        words = [w.text for w in found.command.plain]
        if found.stdout != HOST_STDOUT or not words or any(name in w for w in words for name in answering):
            continue
        if words[0] in ("echo", "printf", "pwd", "date", "ls", "env") or (words[0] == "cat" and len(words) > 1) \
                or script_delivery.prints_on_stdout(words[0], words[1:]):
            yield ctx.finding("command/text-beside-answer", command.file, command.keys, text=" ".join(words)[:60],
                              script=answering[0])
            return


def _shared_script_places(ctx: Context) -> dict[str, str]:
    """shared_script_places of each host of the run's files, for the hints (asked for each
    missing script: a thousand times on the corpus tree, each asking the adapter for its user folder),
    asked once per host (once per file, the corpus tree asked the adapter 269 times)."""
    return {name: shared_script_places(hosts.get(name)) for name in {file.host for file in ctx.files}
            if hosts.of(name)}


def _settings_env(ctx: Context) -> dict[str, str]:
    """The values the settings files' "env" gives every hook's environment (measured on 2.1.332:
    docs/hosts/claude-code.md#exit-status-on-the-way-out), npm_config_loglevel among them."""
    return {name: value for f in ctx.run_files if f.document is not None and isinstance(f.document.data, dict)
            and isinstance(f.document.data.get("env"), dict) for name, value in f.document.data["env"].items()
            if isinstance(value, str)}


def _runner_chatter(command: Command, every: tuple[Streams, ...],
                    environment: dict[str, str]) -> tuple[runners.Chatter, str] | None:
    """A package manager or make on the command line, its stdout the host's, printing text of its
    own around a script of package.json (a Makefile's recipe) that answers with a JSON decision:
    (what it prints, the answering script's name). `environment`: what the settings give the hook's."""
    cwd = handler_facts.where(command.file).cwd
    for found in every:
        if found.stdout != HOST_STDOUT or found.command.kind != "simple":
            continue
        plain = found.command.plain
        assigned = {**environment, **dict(w.text.split("=", 1) for w in plain if w.assignment)}
        words = [w.text for w in plain if not w.assignment]
        chatter = runners.chatter(words, assigned, cwd)
        answering = runners.answering_script(chatter, handler_facts.where(command.file)) if chatter else None
        if chatter is not None and answering is not None:
            return chatter, answering.name
    return None


@RULES.rule("command/relative-path")
def _relative_path(ctx: Context, command: Command) -> Iterator[Finding]:
    if not command.from_launch_dir:
        return
    for inv in command.res.invocations:
        if inv.relative:
            script = inv.script or inv.executable
            fixed = script.removeprefix("./")
            if command.file.scope in ("project", "local"):
                quoted = " (quoted)" if command.adapter.project_var else ""
                when, hint = RELATIVE_IN_PROJECT, f"write {_from_project(command, fixed)}{quoted}, or an absolute path"
            else:
                when = "a different folder in every project, so the script is missing in most of them"
                hint = f"write the script's absolute path, or ~/... for one in your home (not {fixed})"
            yield ctx.finding("command/relative-path", command.file, command.keys_for(inv), script=script,
                              host=command.host, when=when, hint=hint)
            return


def _from_project(command: Command, relative: str) -> str:
    """A path of the project as a committed command of the host names it, for a hint: through its
    project variable (`"$CLAUDE_PROJECT_DIR"/x`), or the words that find the project's top where
    the host has none (Host.project_folder_word)."""
    return f"{command.adapter.project_folder_word}/{relative}"


@RULES.rule("command/home-path", premise=_names_a_home_path)
def _home_path(ctx: Context, command: Command) -> Iterator[Finding]:
    for path in command.res.home_paths:
        if _home_path_is_a_problem(command.file.scope, path):
            yield ctx.finding("command/home-path", command.file, command.keys, path=path,
                              project=_from_project(command, "..."))
            return


@RULES.rule("command/split-path", premise=_placeholder_unquoted)
def _split_path(ctx: Context, command: Command) -> Iterator[Finding]:
    """The unquoted placeholder's value here has a blank: broken on this machine, not only on some."""
    found = command.first_unquoted
    if found and any(c.isspace() for c in found[1]):
        exits_2 = python_exit_2(command.res.main, "python exits 2 when the path it gets is cut short")
        yield ctx.finding("command/split-path", command.file, command.keys, name=found[0], value=found[1],
                          effect=_effect(command.handler, exits_2))


@RULES.rule("command/unquoted-placeholder", premise=_placeholder_unquoted)
def _unquoted_placeholder(ctx: Context, command: Command) -> Iterator[Finding]:
    found = command.first_unquoted
    if found and not any(c.isspace() for c in found[1]):
        yield ctx.finding("command/unquoted-placeholder", command.file, command.keys, name=found[0])


@RULES.rule("command/bash-only-syntax")
def _bash_only_syntax(ctx: Context, command: Command) -> Iterator[Finding]:
    """Bash's syntax in a shell-form command, which Claude Code runs with /bin/sh (measured on
    2.1.328 on Linux: dash, with "shell": "bash" too), or in the script of its `sh -c '...'`."""
    if command.exec_form or not command.adapter.shell_form_in_sh:
        return
    found = bashisms.first(command.written)
    if found:
        construct = found[0]
        yield ctx.finding("command/bash-only-syntax", command.file, command.keys, what=construct.what,
                          effect=construct.effect, instead=construct.instead)


@RULES.rule("command/sh-without-shell")
def _sh_without_shell(ctx: Context, command: Command) -> Iterator[Finding]:
    if not command.adapter.shell_form_in_sh or command.exec_form or "shell" in command.handler.value:
        return
    if any((inv.script or "").endswith(".sh") or inv.executable.endswith(".sh") for inv in command.res.invocations):
        yield ctx.finding("command/sh-without-shell", command.file, command.keys, also="")


@RULES.rule("command/interpreter-not-found")
def _interpreter_not_found(ctx: Context, command: Command) -> Iterator[Finding]:
    res = command.res
    shell = command.handler.value.get("shell")
    programs = command.adapter.shell_programs.get(shell, ()) if isinstance(shell, str) and not command.exec_form \
        else ()
    if programs and not any(disk.which(program) for program in programs):  # (the shell the host would start)
        yield ctx.finding("command/interpreter-not-found", command.file, command.handler.keys + ("shell",),
                          variant="shell", program=programs[0], shell=shell, effect=_effect(command.handler))
        return
    hidden = variables.hidden_by_own_path(command.written, SHELL_BUILTINS) if "PATH=" in command.written and not command.exec_form \
        else None
    if hidden is not None:  # (a PATH the command sets itself, for what it runs after)
        yield ctx.finding("command/interpreter-not-found", command.file, command.keys, variant="command-path",
                          program=hidden.program, path=hidden.path, folder=hidden.folder,
                          effect=_effect(command.handler))
        return
    if res.dynamic:
        return
    reported = set()
    given = _settings_path(ctx, command.file)  # (the settings' PATH for this file's hooks, if one sets it)
    for inv in res.invocations:
        program = inv.program
        if not program or inv.dynamic or inv.program_guarded or program in reported or program in SHELL_BUILTINS:
            continue
        if inv.tolerated and not (inv is res.main and _guards_an_action(command.handler)):
            continue  # `notify-send ... || true`: the hook goes on without it (a guard's own program counts)
        if not (inv.interpreter or inv.runner or inv is res.main or res.form == "exec"):
            continue
        if given is not None and disk.which(program) is not None:  # (installed, and not on the PATH the hook gets)
            if disk.which(program, given[1]) is None:
                reported.add(program)
                yield _hidden_by_settings_path(ctx, command, given, program)
            continue
        if disk.which(program) is None:
            if inv is res.main and command.handler.owner and install_target(command.file) is not None:
                continue  # our own install's interpreter: install/interpreter-missing says it, with its repair
            reported.add(program)
            later = command.runs_later(inv)
            yield ctx.finding("command/interpreter-not-found", command.file, command.keys, program=program,
                              effect=_effect(command.handler, part=later), variant="later" if later else None)
    if given is None or sys.platform == "win32":
        return
    for inv, path, _mode in command.scripts_on_disk:
        program = _env_interpreter(disk.first_line(path)) if inv.direct else None
        if program and program not in reported and disk.which(program) is not None \
                and disk.which(program, given[1]) is None:  # (`#!/usr/bin/env bash`: env looks it up on that PATH)
            reported.add(program)
            yield _hidden_by_settings_path(ctx, command, given, program)


_ENV_SHEBANG = lazy(r"^#!\s*/(?:usr/)?bin/env\s+(?:-S\s+)?(?P<program>[\w.+-]+)")


def _env_interpreter(first: bytes) -> str | None:
    """The program a `#!/usr/bin/env X` line looks up on PATH (X), else None."""
    found = _ENV_SHEBANG.match(first.decode("utf-8", "replace"))
    return str(found["program"]) if found else None


def _hidden_by_settings_path(ctx: Context, command: Command, given: tuple[ConfigFile, str], program: str) -> Finding:
    """At the settings' `env.PATH`, where the change is: the program is installed, not on that PATH
    (said once per program: check() keeps the first hook's)."""
    file, value = given
    folder = str(Path(disk.which(program) or program).parent)
    return ctx.finding("command/interpreter-not-found", file, ("env", "PATH"), variant="settings-path",
                       program=program, path=value, folder=folder, scope=file.scope,
                       effect=_effect(command.handler),
                       related=[{"path": str(command.file.path), "line": command.file.position(command.keys)[0],
                                 "column": 1, "message": f"a hook that starts {program}"}],
                       about=(str(file.path), "env", "PATH", program))


def _home_path_is_a_problem(scope: str, path: str) -> bool:
    """In a shared file any home path is; in a personal file (user, local) only someone else's."""
    if scope in SHARED_SCOPES:
        return True
    home = os.environ.get("HOME")
    if not home:
        return True
    mine = home.rstrip("/") + "/"
    return not path.replace("\\", "/").startswith(mine) and not mine.startswith(path.replace("\\", "/"))


def _quote(text: str) -> str:
    return text if not any(c in text for c in " '\"$`\\") else "'" + text.replace("'", "'\\''") + "'"


# ---- reach: a hook every project runs, and the scripts it reaches through the project ---------------

def _shared_scripts(handler: Handler) -> Iterator[tuple[str, Path, str]]:
    """(the script as written, its path in this project, the variable) for each file the shared
    hook reaches through the project's folder."""
    for inv in handler_facts.resolution(handler).invocations:
        variable = handler_facts.through_project(handler, inv)
        if variable is not None and inv.path is not None:
            yield inv.script or str(inv.path), inv.path, variable


def plugins_own(file: ConfigFile, path: Path) -> Path | None:
    """The plugin's own copy of a script its hook reaches through the project's folder (`path`, in
    the project), or None: command/plugin-script-through-project's case, which script-missing leaves to it."""
    root, project = file.plugin_root, file.project
    if root is None or project is None or not file.from_plugin or not path.is_relative_to(project):
        return None
    own = root / path.relative_to(project)
    return own if disk.is_file(own) else None


@REACH_RULES.rule("command/plugin-script-through-project")
def _plugin_script_through_project(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """A plugin's hook that names its own script through the project: the script is in the
    plugin's folder, and no project has it there."""
    for script, path, variable in _shared_scripts(handler):
        own = plugins_own(handler.file, path)
        if own is not None and handler.file.project is not None:
            yield ctx.finding("command/plugin-script-through-project", handler.file, handler.keys + ("command",),
                              script=script, variable=variable, own=str(own),
                              relative=path.relative_to(handler.file.project).as_posix())


@REACH_RULES.rule("command/shared-hook-project-script")
def _shared_hook_project_script(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """A user, managed or plugin hook whose script is in this project: it runs in every project,
    and doctor cannot tell whether the others have the script."""
    file = handler.file
    for script, path, variable in _shared_scripts(handler):
        project = file.project
        if project is None or not disk.is_file(path):
            continue  # (missing here: command/script-missing)
        if file.plugin_root is not None and disk.is_file(file.plugin_root / path.relative_to(project)):
            continue  # (the plugin's own script: plugin-script-through-project)
        host = hosts.get(file.host)
        yield ctx.finding("command/shared-hook-project-script", file, handler.keys + ("command",), script=script,
                          variable=variable, scope="a plugin" if file.from_plugin else f"the {file.scope} settings",
                          user_hooks=host.user_hooks_folder(), project_file=host.project_file())


def shared_script_places(host: Host) -> str:
    """Where a hook shared by every project keeps its script, for a hint: beside the user's
    settings, or (a host with plugins) in a plugin's own folder."""
    plugin = ", a plugin's own folder through ${CLAUDE_PLUGIN_ROOT}" if host.has_plugins else ""
    return host.user_hooks_folder() + plugin
