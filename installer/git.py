"""Every git call hookwright makes: with the repository's own programs switched off.

A repository's `.git/config` is the repository's to write, and someone else may have written it:
`core.fsmonitor` names a program git runs on `ls-files`, `status` and `check-ignore` alike (a
crafted one ran on `install --scope local --dry-run`), and hooks run on what writes. So every
call switches the monitor and the hooks off on its command line (which wins over every config
file), takes no optional lock (a look never writes the index), never prompts and never pages.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SAFE_CONFIG = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat")
SAFE_ENV = {"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat"}
TIMEOUT_S = 30


def available() -> bool:
    return shutil.which("git") is not None


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    """`git -C folder ARGS`, its output captured; None where git is not installed, cannot start
    or takes longer than TIMEOUT_S (a look at a repository is never worth a hang)."""
    try:
        return subprocess.run(["git", *SAFE_CONFIG, "-C", str(folder), *args], capture_output=True,
                              stdin=subprocess.DEVNULL, env={**os.environ, **SAFE_ENV}, timeout=TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
