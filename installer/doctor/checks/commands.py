"""Commands: does each command handler start, the same way on every machine that loads it?

Each command is resolved statically first (installer/doctor/shell/resolve.py): only a path the host
would really use is checked on disk, and a path built at run time ($(...), backticks, unknown
variables) is never called missing.
"""
from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Iterator

from ...patterns import lazy
from .. import disk, handler_facts
from ..facts import LEGACY_INPUT_VARIABLE
from ..model import HOST_NAMES, Context, Finding, Handler, rule_by_id
from ..shell.interpret import PYTHON
from ..shell.results import Invocation, Resolution

# `${NAME:-...}` falls back to something else and is left alone
LEGACY_INPUT = lazy(rf"\$\{{?({LEGACY_INPUT_VARIABLE})(?![A-Za-z0-9_]|\}}?:?-)")
# set for plugin hooks only; `${CLAUDE_PLUGIN_ROOT:-fallback}` copes with that
PLUGIN_VARIABLE = lazy(r"\$\{?(CLAUDE_PLUGIN_(?:ROOT|DATA))(?![A-Za-z0-9_]|:?[-=])")
USER_CONFIG = lazy(r"\$\{user_config\.([^}]*)\}")  # a plugin's user option (docs/hosts/claude-code.md#handler-fields)
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
# what exit 2 does per event (docs/hosts/claude-code.md#events, #exit-codes): `python3 missing.py` exits 2
BLOCKED_BY_EXIT_2 = {
    "PreToolUse": "every tool call it matches is refused",
    "UserPromptSubmit": "every prompt is erased",
    "UserPromptExpansion": "every expansion is blocked",
    "Stop": "Claude is told to keep going each time it tries to stop",
    "SubagentStop": "subagents are told to keep going each time they try to stop",
    "PreCompact": "compaction is blocked",
    "ConfigChange": "settings changes are blocked",
    "TeammateIdle": "the event is blocked", "TaskCreated": "every task creation is rolled back",
    "TaskCompleted": "the event is blocked", "PostToolBatch": "the agent loop stops",
    "Elicitation": "the elicitation is blocked", "ElicitationResult": "the elicitation result is blocked",
    "WorktreeCreate": "worktree creation fails", "PreModelSwitch": "model switches are refused",
}
ANSWER_KEYS = frozenset({"permissionDecision", "decision", "behavior"})  # a decision on stdout
CLAUDE_GATES = frozenset({"PreToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "ConfigChange"})
ACTION_GUARDS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit", "ConfigChange"})
# Cursor: exit 2 blocks, and so does any failure of a hook with "failClosed": true (docs/hosts/cursor.md#events)
CURSOR_GATES = frozenset({"preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile",
                          "beforeSubmitPrompt", "subagentStart", "beforeTabFileRead"})


def _guards_an_action(handler: Handler) -> bool:
    """A hook that can refuse a tool call, a prompt or a settings change: if its program is
    missing, the action goes through unchecked (Stop hooks, notifiers and loggers aside)."""
    guards = CURSOR_GATES if handler.file.host == "cursor" else ACTION_GUARDS
    return handler.event in guards


PYTHON_EXITS_2 = "python exits 2 when its script is missing"


def _effect(handler: Handler, exits_2: str | None = None, silent: bool = False) -> str:
    """What the host does when the command cannot start; `exits_2`: why the hook exits 2 instead
    (`python3 missing.py`: PYTHON_EXITS_2), which a gate reads as a block; `silent`: the command
    exits 0 all the same (`missing.sh || true`), so not even an error notice shows."""
    effect = _host_effect(handler, exits_2)
    return effect.replace("(a non-blocking error)", "(silently: the command still exits 0)") if silent else effect


def _host_effect(handler: Handler, exits_2: str | None) -> str:
    event, host = handler.event, handler.file.host
    if host == "cursor" and event in CURSOR_GATES:
        if exits_2:
            return f"{exits_2}, which Cursor reads as a block: every action this hook matches is refused"
        if isinstance(handler.value, dict) and handler.value.get("failClosed") is True:
            return "the hook fails, and with \"failClosed\": true Cursor blocks every action it matches"
        return "the hook never runs, and the gate fails open (the action proceeds)"
    if exits_2 and host == "claude" and event in BLOCKED_BY_EXIT_2:
        return f"{exits_2}, which Claude Code reads as a blocking error: " + BLOCKED_BY_EXIT_2[event]
    if host == "claude" and event == "PermissionRequest":
        return "the hook never runs, and Claude Code asks for permission as if it were not there"
    if host == "claude" and event in CLAUDE_GATES:
        return "the hook never runs, and the gate fails open (a non-blocking error)"
    return "the hook never runs (a non-blocking error)"


def _swallowed_blocks(ctx: Context, handler: Handler, keys: tuple) -> Iterator[Finding]:
    """A script that refuses only by exiting 2 (no JSON decision on stdout, which would still get
    through), run where the command hands the host another exit status: the block never lands."""
    for inv, facts in handler_facts.script_facts(handler):
        if inv.sets_status and not inv.tolerated or not facts.readable or ANSWER_KEYS & set(facts.answers):
            continue
        if any(site.what == "exit 2" for site in facts.blocks):
            yield ctx.finding("command/block-swallowed", handler.file, keys, script=_quote(inv.script or str(inv.path)))
            return


def _path_with_arguments(inv: Invocation | None) -> bool:
    """Exec form `"command": "/usr/bin/env node"`: no file has that name, but its first word is one."""
    text = str(inv.path) if inv is not None and inv.path is not None else ""
    return " " in text and not disk.exists(text) and disk.exists(text.split()[0])


def _never_set(ctx: Context, handler: Handler, keys: tuple) -> Iterator[Finding]:
    """The first legacy input variable the command reads that neither a settings file's "env" nor
    the command itself sets (NAME=..., read NAME, export NAME: the name written bare)."""
    command = handler.command
    for match in LEGACY_INPUT.finditer(command):
        name = match.group(1)
        if name not in ctx.settings_env and not re.search(rf"(?<![\w${{]){name}(?!\w)", command):
            yield ctx.finding("command/input-variable-never-set", handler.file, keys, name=name)
            return


def _python_exit_2(inv: Invocation | None, why: str) -> str | None:
    """`why` when python runs the file and its exit status 2 becomes the hook's (no `|| true`,
    nothing after it in sequence or in a pipe); else None."""
    if inv is None:
        return None
    python = inv.interpreter is not None and PYTHON.match(Path(inv.interpreter.split()[-1]).name)
    return why if python and not inv.tolerated and inv.sets_status else None


def _bad_interpreter(first_line: bytes) -> str | None:
    """Why the kernel cannot start a script with this `#!` line (None: it can, or there is none,
    and the shell runs it itself)."""
    if not first_line.startswith(b"#!"):
        return None
    line = first_line[2:].decode("utf-8", "replace")
    if line.endswith("\r"):
        last = line.split()[-1] if line.split() else ""
        return ("its #! line ends with a carriage return (Windows line endings), so the program it names is "
                f"looked for as {json.dumps(last + chr(13))}")
    words = line.split()
    if not words or not words[0].startswith("/"):
        return None
    if not disk.exists(words[0]):
        return f"the interpreter its #! line names, {words[0]}, does not exist here"
    if Path(words[0]).name == "env":
        program = next((w for w in words[1:] if not w.startswith("-") and "=" not in w), None)
        if program and disk.which(program) is None:
            return f"its #! line runs {program} through env, and {program} is not on PATH"
    return None


def check(ctx: Context) -> Iterator[Finding]:
    once_per_file: dict[str, list[Finding]] = {}
    for handler in ctx.handlers:
        if handler.file.host not in ("claude", "cursor") or handler_facts.kind(handler) != "command":
            continue
        if not isinstance(handler.command, str) or not handler.command.strip():
            continue  # the structure rules report a missing command
        for finding in _check(ctx, handler):
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


def _check(ctx: Context, handler: Handler) -> Iterator[Finding]:
    file = handler.file
    res = handler_facts.resolution(handler)
    value = handler.value
    exec_form = res.form == "exec"
    host = HOST_NAMES.get(file.host, file.host)
    command_keys = handler.keys + ("command",)

    def keys_for(inv: Invocation) -> tuple:
        """Exec form: the position of the argument that names the script; else the command."""
        args = value.get("args")
        if exec_form and inv.script and isinstance(args, list):
            name = Path(inv.script).name
            for index, arg in enumerate(args):
                if isinstance(arg, str) and arg.endswith(name):
                    return handler.keys + ("args", index)
        return command_keys

    if res.broken or (exec_form and _path_with_arguments(res.main)):  # "python3 -u", "/usr/bin/env node"
        yield ctx.finding("command/exec-arguments-in-command", file, command_keys, command=json.dumps(handler.command),
                          effect=_effect(handler))
        return
    user_config = USER_CONFIG.search(handler.command)
    if user_config and not exec_form and file.host == "claude":
        name = user_config.group(0)
        if file.from_plugin:
            effect = _effect(handler)
            hint = (f"read ${'CLAUDE_PLUGIN_OPTION_' + user_config.group(1).upper()} in the shell instead, or use "
                    f"exec form: the program in \"command\", its arguments (with {name}) in \"args\"")
        else:  # nothing substitutes it outside a plugin, and sh rejects the name
            effect = ("sh rejects it as a bad substitution, so the hook fails before it does anything (where sh is "
                      "dash, as on Debian and Ubuntu, with exit 2, which a gate reads as a block; bash exits 1)")
            hint = "user_config exists only in plugin hooks: write the value itself, or read an environment variable"
        yield ctx.finding("command/user-config-in-shell-form", file, command_keys, name=name, effect=effect, hint=hint)

    if file.host == "claude" and "CLAUDE_" in handler.command:
        yield from _never_set(ctx, handler, command_keys)
    args = value.get("args")
    text = " ".join([handler.command, *map(str, args)]) if isinstance(args, list) else handler.command
    plugin_variable = PLUGIN_VARIABLE.search(text) if "CLAUDE_PLUGIN_" in text else None
    outside_plugin = plugin_variable is not None and file.host == "claude" and not file.from_plugin
    if outside_plugin:
        yield ctx.finding("command/plugin-variable-outside-plugin", file, command_keys, name=plugin_variable.group(1),
                          effect=_effect(handler, _python_exit_2(res.main, PYTHON_EXITS_2)))

    checked: set[Path] = set()
    for inv in res.invocations:
        if inv.path is None or inv.dynamic or inv.guarded:
            continue
        if inv.relative and file.host == "claude" and file.scope not in ("project", "local", "given"):
            continue  # relative to wherever the host starts: reported as relative, not as missing
        shown = inv.script or str(inv.path)
        path = inv.path
        mode = disk.mode(path)
        exists = mode is not None
        is_file = exists and stat.S_ISREG(mode)
        if exists and not is_file and not stat.S_ISDIR(mode):
            continue  # a device or a pipe (`source /dev/null`): there, and not a script to check
        if not is_file:
            effect = _effect(handler, _python_exit_2(inv, PYTHON_EXITS_2), silent=inv.tolerated or not inv.sets_status)
            if exists:
                effect = "it is a directory; " + effect
            also = f" (looked for {path})" if str(path) != shown else ""
            yield ctx.finding("command/script-missing", file, keys_for(inv), script=_quote(shown), effect=effect,
                              also=also)
            continue
        if path in checked:
            continue
        checked.add(path)
        if inv.direct and sys.platform != "win32":
            if not mode & 0o111:
                yield ctx.finding("command/not-executable", file, keys_for(inv), script=_quote(shown),
                                  name=_quote(shown))
            why = _bad_interpreter(disk.first_line(path))
            if why:
                yield ctx.finding("command/bad-interpreter", file, keys_for(inv), script=_quote(shown), why=why,
                                  effect=_effect(handler))
        yield from _writable(ctx, handler, path, keys_for(inv))

    if file.host == "claude" and handler.event in BLOCKED_BY_EXIT_2 and any(
            inv.tolerated or not inv.sets_status for inv in res.invocations if inv.path is not None):
        yield from _swallowed_blocks(ctx, handler, command_keys)

    for inv in res.invocations:
        if inv.relative and file.host == "claude":
            script = inv.script or inv.executable
            fixed = script.removeprefix("./")
            if file.scope in ("project", "local"):
                when, hint = RELATIVE_IN_PROJECT, f'write "$CLAUDE_PROJECT_DIR"/{fixed} (quoted), or an absolute path'
            else:
                when = "a different folder in every project, so the script is missing in most of them"
                hint = f"write the script's absolute path, or ~/... for one in your home (not {fixed})"
            yield ctx.finding("command/relative-path", file, keys_for(inv), script=script, host=host, when=when,
                              hint=hint)
            break

    for path in res.home_paths:
        if _home_path_is_a_problem(file.scope, path):
            yield ctx.finding("command/home-path", file, command_keys, path=path)
            break

    for name in [n for n in res.unquoted if not (outside_plugin and n.startswith("CLAUDE_PLUGIN_"))][:1]:
        value_now = handler_facts.where(file).variables.get(name) or ""
        if any(c.isspace() for c in value_now):  # broken on this machine, not only on some
            exits_2 = _python_exit_2(res.main, "python exits 2 when the path it gets is cut short")
            yield ctx.finding("command/split-path", file, command_keys, name=name, value=value_now,
                              effect=_effect(handler, exits_2))
        else:
            yield ctx.finding("command/unquoted-placeholder", file, command_keys, name=name)

    if file.host == "claude" and not exec_form and "shell" not in value:
        if any((inv.script or "").endswith(".sh") or inv.executable.endswith(".sh") for inv in res.invocations):
            yield ctx.finding("command/sh-without-shell", file, command_keys, also="")

    yield from _programs(ctx, handler, res, command_keys, host)


def _programs(ctx: Context, handler: Handler, res: Resolution, keys: tuple, host: str) -> Iterator[Finding]:
    if res.dynamic:
        return
    reported = set()
    for inv in res.invocations:
        program = inv.program
        if not program or inv.dynamic or inv.program_guarded or program in reported or program in SHELL_BUILTINS:
            continue
        if inv.tolerated and not (inv is res.main and _guards_an_action(handler)):
            continue  # `notify-send ... || true`: the hook goes on without it (a guard's own program counts)
        if not (inv.interpreter or inv.runner or inv is res.main or res.form == "exec"):
            continue
        if disk.which(program) is None:
            reported.add(program)
            effect = _effect(handler)
            yield ctx.finding("command/interpreter-not-found", handler.file, keys, program=program, effect=effect)


def _writable(ctx: Context, handler: Handler, path: Path, keys: tuple) -> Iterator[Finding]:
    if sys.platform == "win32":
        return
    mode = disk.mode(path)
    if mode is not None and mode & stat.S_IWOTH:
        yield ctx.finding("command/world-writable", handler.file, keys, what=f"the script {path}", path=_quote(str(path)))
        return
    parent = path.parent
    mode = disk.mode(parent)
    if mode is not None and mode & stat.S_IWOTH and not mode & stat.S_ISVTX:
        yield ctx.finding("command/world-writable", handler.file, keys,
                          what=f"the directory {parent} (which holds {path.name})", path=_quote(str(parent)))


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
