"""The one way in: every file hookwright reads is read here (tests/test_hostile.py holds that no
other code opens a file for reading).

A repository someone else wrote may put anything where a file is expected: a FIFO (a read
blocks forever), a device or a link to one (`/dev/zero` never ends), a socket, a link loop, a
file of gigabytes. So a file is read only if it is a regular file (a symlink is followed, and
must end at one), checked before it is opened and again on the open descriptor (it may be
swapped in between), opened without blocking and without becoming a controlling terminal, and
read only up to the size cap of its kind: beyond it, the read stops and says so. What fails is a
HookwrightError that names the file, says what it is and what to do (exit 2; doctor makes it a
finding). A missing file raises FileNotFoundError: to many callers it is a file yet to be made.
"""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import ErrorKind, HookwrightError
from .records import Record

MiB = 1024 * 1024


class Kind(Record):
    """What a file is to hookwright, and the most of it that is read."""

    what: str  # in a message: "a hook config larger than 10 MiB is refused"
    max_bytes: int
    too_large: str = ErrorKind.UNREADABLE  # how a file beyond the cap counts (a config: not JSON a host takes)


CONFIG = Kind("hook config", 10 * MiB, ErrorKind.NOT_JSON)  # settings, hooks.json, opencode configs and plugins
RECEIPT = Kind("receipt", 1 * MiB)
JOURNAL = Kind("journal", 64 * MiB)
BACKUP = Kind("backed-up file", 10 * MiB)  # a config or runtime file in hookwright's backups
RUNTIME = Kind("runtime file", 4 * MiB)  # an installed runtime file, compared with what we shipped
SCRIPT = Kind("hook script", 10 * MiB)  # what doctor reads of a hook's script (doctor's readers bound the rest)
MANIFEST = Kind("pack manifest", 1 * MiB)  # pack.toml and the modules of a pack
SETTINGS = Kind("settings file", 4 * MiB)  # doctor's .hookwright.toml and pyproject.toml, ask-guard's prefs
STATE = Kind("state file", 64 * MiB)  # another program's files doctor reads for context (~/.claude.json)
INPUT = Kind("input file", 10 * MiB)  # a payload or tool input given to simulate
BUNDLED = Kind("bundled file", 16 * MiB)  # hookwright's own templates, schemas and rules

_NOT_REGULAR = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISDIR, "a directory"))
_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
          | getattr(os, "O_BINARY", 0))


def read(path: Path | str, kind: Kind, *, prefix: int | None = None) -> bytes:
    """The file's bytes (`prefix`: at most its first that many, and no size cap), or a
    HookwrightError that says why not; FileNotFoundError for a missing file or a dangling link."""
    try:
        mode = os.stat(path).st_mode  # (follows links: a link counts for what it ends at)
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as err:
        raise unreadable(path, err) from None
    _regular_or_refuse(path, mode)
    try:
        fd = os.open(path, _FLAGS)
    except FileNotFoundError:
        raise
    except OSError as err:
        raise unreadable(path, err) from None
    try:
        found = os.fstat(fd)
        _regular_or_refuse(path, found.st_mode)  # (swapped for something else since the look above)
        limit = prefix if prefix is not None else kind.max_bytes
        if prefix is None and found.st_size > limit:
            raise _too_large(path, kind, found.st_size)
        data = _read_upto(fd, limit + (prefix is None))
    except OSError as err:
        raise unreadable(path, err) from None
    finally:
        os.close(fd)
    if prefix is None and len(data) > limit:  # (it grew while we read)
        raise _too_large(path, kind, len(data))
    return data


def read_text(path: Path | str, kind: Kind) -> str:
    """The file as UTF-8 text (an undecodable byte read as U+FFFD: for files only scanned)."""
    return read(path, kind).decode("utf-8", "replace")


def read_or_none(path: Path | str, kind: Kind) -> bytes | None:
    """The bytes of a file that only adds context, or None where it is missing or cannot be read."""
    try:
        return read(path, kind)
    except (OSError, HookwrightError):
        return None


def _read_upto(fd: int, count: int) -> bytes:
    chunks, left = [], count
    while left > 0:
        chunk = os.read(fd, min(left, MiB))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _regular_or_refuse(path: Path | str, mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    what = next((name for test, name in _NOT_REGULAR if test(mode)), "not a regular file")
    if what == "a directory":
        raise unreadable(path, IsADirectoryError())
    raise HookwrightError(f"cannot be read: it is {what}, not a regular file", path=path, kind=ErrorKind.UNREADABLE,
                          hint="put a regular file here; hookwright does not read pipes, devices or sockets")


def _too_large(path: Path | str, kind: Kind, size: int) -> HookwrightError:
    return HookwrightError(f"file is {size / 1e6:.1f} MB; a {kind.what} larger than {kind.max_bytes // MiB} MiB "
                           "is refused", path=path, kind=kind.too_large, hint="check that this is the right file")


def unreadable(path: Path | str, err: OSError | ValueError) -> HookwrightError:
    """A file that cannot be opened or read, said in words with what to do."""
    if isinstance(err, IsADirectoryError):
        said, hint = "is a directory, but a file belongs here", "move the directory out of the way"
    elif isinstance(err, NotADirectoryError):
        said, hint = "cannot be read: a part of this path is a file, not a folder", "move that file out of the way"
    elif isinstance(err, PermissionError):
        said, hint = "cannot be read (permission denied)", "check the file's owner and mode"
    elif isinstance(err, OSError) and err.errno == errno.ELOOP:
        said, hint = "cannot be read: its symlinks form a loop", "fix or remove the link that points back at itself"
    elif isinstance(err, ValueError):  # (a NUL byte in the path)
        said, hint = f"cannot be read: {err}", "check the path"
    else:
        said, hint = f"cannot be read: {err.strerror or err}", "check the file"
    return HookwrightError(said, path=path, hint=hint, kind=ErrorKind.UNREADABLE)
