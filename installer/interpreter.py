"""The Python a hook's command starts: `python3` from PATH, or an interpreter named by its path.

A version manager's shim (pyenv, asdf, mise, rtx...) stands as `python3` on PATH and starts
the manager on every call to pick the real interpreter: measured here, pyenv's shim costs a
hook start 93 ms of CPU against 22 ms for the interpreter behind it (docs/hook-runtimes.md,
"Per-call cost"). Claude Code and Cursor start a hook's process on every tool call, so install
says so and offers the interpreter behind the shim, for a config that stays on this machine; a
project's committed command keeps `python3`, which works for everyone who checks it out.
An interpreter named by its path can go away (a Python version uninstalled): status and
doctor then say that the hook never runs (`missing`).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from .errors import HookwrightError
from .layout import DEFAULT_PYTHON
from .records import Record

OLDEST = (3, 8)  # the oldest Python the runtimes run on (templates/runtime)
# where a version manager keeps its shims (a path's parts), and the manager's name
SHIM_FOLDERS = ((".pyenv/shims", "pyenv"), (".asdf/shims", "asdf"), ("mise/shims", "mise"), ("rtx/shims", "rtx"),
                (".rye/shims", "rye"))
PROBE_TIMEOUT_S = 20


class Shim(Record):
    """`python3` on PATH is a launcher in front of the interpreter it starts."""

    path: str  # what `python3` on PATH is
    manager: str  # "pyenv", "asdf", ... or "a launcher" when the folder names none
    interpreter: str  # the interpreter it starts now
    through_ms: float  # one start through the launcher, here
    direct_ms: float  # one start of the interpreter itself

    def says(self) -> str:
        who = f"{self.manager}'s shim" if self.manager != "a launcher" else "a launcher"
        return (f"python3 on PATH is {who} ({self.path}): it starts {self.interpreter} through "
                f"{self.manager if self.manager != 'a launcher' else 'itself'} on every hook start "
                f"({self.through_ms:.0f} ms here, against {self.direct_ms:.0f} ms for that interpreter)")


_probed: dict[tuple[str, object], Shim | None] = {}


def shim_in_front() -> Shim | None:
    """The launcher `python3` on PATH is, if it is one (None: it is the interpreter itself, or
    there is none): asked once per process for each file it resolves to."""
    found = shutil.which(DEFAULT_PYTHON)
    if found is None:
        return None
    try:
        seen = os.stat(found)
    except OSError:
        return None
    key = (found, (seen.st_mtime_ns, seen.st_size, seen.st_ino))
    if key not in _probed:
        _probed[key] = _behind(found)
    return _probed[key]


def _behind(found: str) -> Shim | None:
    through = _start(found)
    if through is None:
        return None
    interpreter, through_ms = through
    if os.path.realpath(interpreter) == os.path.realpath(found):
        return None
    direct = _start(interpreter)
    return Shim(found, _manager(found), interpreter, through_ms, direct[1] if direct else float("nan"))


def _start(program: str) -> tuple[str, float] | None:
    """(the interpreter a start of `program` runs, how long the start took in ms); None if it did not run."""
    started = time.perf_counter()
    try:
        done = subprocess.run([program, "-I", "-S", "-c", "import sys; print(sys.executable)"], capture_output=True,
                              text=True, timeout=PROBE_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return None
    elapsed = (time.perf_counter() - started) * 1000
    interpreter = done.stdout.strip()
    return (interpreter, elapsed) if done.returncode == 0 and os.path.isabs(interpreter) else None


def _manager(path: str) -> str:
    posix = Path(path).as_posix()
    return next((name for folder, name in SHIM_FOLDERS if f"/{folder}/" in posix), "a launcher")


def chosen(python: str) -> str:
    """The interpreter `--python` names, checked: `python3` (the portable default), or the absolute
    path of a Python 3.8 or newer that runs here. Anything else is refused (exit 2)."""
    if python == DEFAULT_PYTHON:
        return python
    hint = f"give the absolute path of a Python {OLDEST[0]}.{OLDEST[1]} or newer, or {DEFAULT_PYTHON}"
    if not os.path.isabs(python):
        raise HookwrightError(f"--python {python}: not an absolute path; a hook's command must not depend on the "
                              "folder it runs in", hint=hint)
    if not os.access(python, os.X_OK) or os.path.isdir(python):
        raise HookwrightError(f"--python {python}: no program there", hint=hint)
    try:
        done = subprocess.run([python, "-I", "-S", "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, stdin=subprocess.DEVNULL)
        version = tuple(int(part) for part in done.stdout.split())
    except (OSError, subprocess.SubprocessError, ValueError):
        version = ()
    if len(version) != 2 or version < OLDEST:
        raise HookwrightError(f"--python {python}: not a Python {OLDEST[0]}.{OLDEST[1]} or newer", hint=hint)
    return python


def missing(interpreter: str) -> str | None:
    """Why the interpreter a hook starts is not there (None: it is): a path that is gone, or a
    name not on PATH (this process's, which is the agent's when it runs from the same shell)."""
    if os.path.isabs(interpreter):
        return None if os.access(interpreter, os.X_OK) and not os.path.isdir(interpreter) else "is no longer there"
    return None if shutil.which(interpreter) else "is not on PATH"
