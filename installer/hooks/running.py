"""Run the handlers that fire, the way Claude Code runs them: all at once, in the project folder,
each with the payload on stdin, `CLAUDE_PROJECT_DIR` set and its own timeout, after which its
whole process group is killed (docs/hosts/claude-code.md#several-hooks, g, j).

These are the user's own commands, run for real: `simulate --list-only` runs nothing.
"""
from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .. import hosts
from ..hosts.claude.protocol import SESSION_END_BUDGET_VARIABLE, session_end_budget
from .answers import RawRun
from .model import Handler, timeout_seconds

MAX_OUTPUT = 1024 * 1024  # what is kept of each stream


def timeout_of(handler: Handler) -> float:
    value = timeout_seconds(handler.value.get("timeout"))
    return value or hosts.get("claude").default_timeout("command", handler.event) or 600.0


def shared_budget(event: str, handlers: list[Handler], env: dict[str, str]) -> float | None:
    """The time every hook of the event shares, past which all are killed (SessionEnd's), or None."""
    if event != "SessionEnd":
        return None
    given = env.get(SESSION_END_BUDGET_VARIABLE, "")
    if given.isascii() and given.isdigit() and int(given) > 0:
        return int(given) / 1000
    configured = [timeout_seconds(h.value.get("timeout")) for h in handlers if not h.file.from_plugin]
    return session_end_budget([t for t in configured if t])


def run_all(handlers: list[Handler], stdin: bytes, project: Path, env: dict[str, str],
            budget: float | None = None, wrap: Callable[[list[str]], list[str]] | None = None) -> list[RawRun]:
    """Every handler at once; their runs in the same order. `budget`: the time they share (each
    is killed at its own timeout or there, whichever comes first); `wrap`: as for run_one."""
    def one(handler: Handler) -> RawRun:
        own = timeout_of(handler)
        return run_one(handler, stdin, project, env, min(own, budget) if budget else own, wrap)

    return together([functools.partial(one, handler) for handler in handlers])


def together(runs: list[Callable[[], RawRun]]) -> list[RawRun]:
    """Each run at once, in a thread of its own; their results in the same order."""
    done: list[RawRun | None] = [None] * len(runs)

    def one(index: int, run: Callable[[], RawRun]) -> None:
        done[index] = run()

    threads = [threading.Thread(target=one, args=(i, r), daemon=True) for i, r in enumerate(runs)]
    # a hook that exits without reading its stdin closes the pipe under the payload: that is a
    # broken pipe to ignore (communicate does), not the signal that ends this process (the CLI
    # restores SIGPIPE's default for its own output, cli.py)
    ignoring = hasattr(signal, "SIGPIPE") and threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGPIPE, signal.SIG_IGN) if ignoring else None
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        if ignoring:
            signal.signal(signal.SIGPIPE, before)
    return [run if run is not None else RawRun(None, start_error="it did not run") for run in done]


def run_one(handler: Handler, stdin: bytes, project: Path, env: dict[str, str],
            timeout: float | None = None, wrap: Callable[[list[str]], list[str]] | None = None) -> RawRun:
    """One handler on `stdin`, in `project`, killed after `timeout` (its own by default).
    `wrap`: the argv that runs the handler's argv in a sandbox (installer/sandbox.py)."""
    child = dict(env, CLAUDE_PROJECT_DIR=str(project))
    if handler.file.plugin_root:
        child["CLAUDE_PLUGIN_ROOT"] = str(handler.file.plugin_root)
    argv, why = command_line(handler.value, child)
    if argv is None:
        return RawRun(None, start_error=why)
    return run_argv(wrap(argv) if wrap is not None else argv, stdin, project, child, timeout or timeout_of(handler))


def run_argv(argv: list[str], stdin: bytes, cwd: Path, env: dict[str, str], timeout: float) -> RawRun:
    """One hook's process, `stdin` given, its whole process group killed after `timeout` seconds
    (every host's runs end here; how the argv is made and in which folder is the host's)."""
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as error:
        return RawRun(None, start_error=f"could not start {argv[0]}: {error.strerror or error}")
    try:
        stdout, stderr = proc.communicate(stdin, timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        kill_group(proc)
        stdout, stderr = proc.communicate()
        timed_out = True
    finally:
        kill_group(proc)
    end = time.monotonic()
    return RawRun(None if timed_out else proc.returncode, stdout[:MAX_OUTPUT], stderr[:MAX_OUTPUT], end - start, end,
                  timed_out=timed_out)


def command_line(value: dict[str, Any], env: dict[str, str]) -> tuple[list[str] | None, str | None]:
    """The argv Claude Code starts: the shell form through /bin/sh, the exec form (`args`)
    spawned directly with its placeholders filled in."""
    command = value.get("command")
    if not isinstance(command, str) or not command.strip():
        return None, "it has no command"
    args = value.get("args")
    if args is None:
        if value.get("shell") == "powershell":
            shell = shutil.which("pwsh", path=env.get("PATH"))
            return ([shell, "-NoProfile", "-Command", command], None) if shell else (
                None, "its shell is powershell, which is not installed here")
        # sh, whatever "shell" says (measured on 2.1.328 on Linux: /bin/sh, dash here, ran the
        # command with "shell": "bash" too, so bash-only syntax fails there)
        shell = "/bin/sh" if os.path.exists("/bin/sh") else shutil.which("bash", path=env.get("PATH")) or "sh"
        return [shell, "-c", command], None
    return exec_form(command, args, env)


def exec_form(command: str, args: list[Any], env: dict[str, str]) -> tuple[list[str] | None, str | None]:
    """The exec form's argv: no shell, `${CLAUDE_PROJECT_DIR}` and `${CLAUDE_PLUGIN_ROOT}` filled
    in, the executable looked up on PATH (or why it cannot be)."""
    words = [command, *(a for a in args if isinstance(a, str))]
    for name in ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT"):
        if env.get(name):
            words = [w.replace("${" + name + "}", env[name]) for w in words]
    if "/" not in words[0]:
        found = shutil.which(words[0], path=env.get("PATH"))
        if found is None:
            return None, f"{words[0]} is not on PATH"
        words[0] = found
    return words, None


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the handler and everything it started in its session, and reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        proc.wait(timeout=2)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail
        pass
