"""What doctor asks the file system, asked once per path in a run.

Ten thousand handlers often run twenty scripts: without this, each handler stat'ed its script
for every check that looks at it (29,645 stats for 43 paths on such a file), read the first
line of the same interpreter again and again, and searched PATH for the same program. Every
context doctor builds starts with `fresh()` (run._context), so a run sees the disk as it is when
the run begins, and a test or a plan that changes files between runs is never answered from a
stale entry.
"""
from __future__ import annotations

import os
import shutil
import stat as _stat
from pathlib import Path

from .. import safe_read
from ..errors import HookwrightError
from ..hosts.base import folders_below

_stats: dict[str, os.stat_result | None] = {}
_first_lines: dict[str, bytes] = {}
_programs: dict[tuple[str, str], str | None] = {}  # (program, PATH): where it is
run_number = 0  # counted by fresh(): what is worked out from the disk's answers holds for that run alone


def fresh() -> None:
    """Forget what the previous run saw."""
    global run_number
    run_number += 1
    _stats.clear()
    _first_lines.clear()
    _programs.clear()
    folders_below.cache_clear()


def stat(path: Path | str) -> os.stat_result | None:
    """os.stat of the path, following symlinks (None: it is not there, or cannot be reached)."""
    key = os.fspath(path)
    if key in _stats:  # (not a KeyError caught: most paths of a run are asked once)
        return _stats[key]
    try:
        found: os.stat_result | None = os.stat(key)
    except (OSError, ValueError):
        found = None
    _stats[key] = found
    return found


def exists(path: Path | str) -> bool:
    return stat(path) is not None


def is_file(path: Path | str) -> bool:
    found = stat(path)
    return found is not None and _stat.S_ISREG(found.st_mode)


def mode(path: Path | str) -> int | None:
    found = stat(path)
    return found.st_mode if found else None


def first_line(path: Path | str) -> bytes:
    """The start of a file's first line (where a `#!` line is), b"" if it cannot be read."""
    key = os.fspath(path)
    found = _first_lines.get(key)
    if found is None:
        try:
            found = safe_read.read(key, safe_read.SCRIPT, prefix=256).split(b"\n", 1)[0]
        except (OSError, HookwrightError):
            found = b""
        _first_lines[key] = found
    return found


def which(program: str, path: str | None = None) -> str | None:
    """shutil.which over this process's PATH, or over `path` (the one a hook is given)."""
    key = (program, os.environ.get("PATH", os.defpath) if path is None else path)
    if key not in _programs:
        _programs[key] = shutil.which(program, path=key[1])
    return _programs[key]
