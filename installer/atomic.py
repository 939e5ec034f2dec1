"""The one place that writes user files.

Every write is: temp file in the same directory, fsync, keep the old file's mode,
`os.replace`, fsync the directory. A symlinked path is written through (the link
stays). A crash at any instant leaves the old file or the new one, never a mix;
temp files a crash left behind are recognisable by name and removed on the next run.
"""
from __future__ import annotations

import ctypes
import errno
import functools
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import Callable

from . import safe_read
from .errors import ExitCode, HookwrightError
from .faults import checkpoint
from .layout import TEMP_MARK, stale_temps

GIVE_BACK_ROUNDS = 8


class ConcurrentChange(Exception):
    """The file's bytes changed between our read and our replace."""


def resolve(path: Path) -> Path:
    """The real file behind `path` (links followed), with a clear error for a link loop."""
    if not path.is_symlink():
        return path
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:  # a dangling link: write its target into being
        return Path(os.path.realpath(path))
    except OSError as err:
        raise _error(err, path) from None


def is_read_only(path: Path) -> bool:
    """True if the file or folder is marked read-only, even for root (who may write anyway)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return False
    if os.geteuid() == 0:
        return not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    return not os.access(path, os.W_OK)


def world_writable(path: Path) -> bool:
    """Writable by every user, without the sticky bit that would keep others' files safe."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return bool(mode & stat.S_IWOTH) and not (stat.S_ISDIR(mode) and mode & stat.S_ISVTX)


def check_writable(path: Path) -> None:
    """Refuse up front, before any plan is shown, to write where the user said no."""
    target = resolve(path)
    if target.exists() and not target.is_file():
        kind = "a directory" if target.is_dir() else "a FIFO" if target.is_fifo() else "not a regular file"
        raise HookwrightError(f"is {kind}, but a config file belongs here", path=path,
                              hint="move it out of the way, or choose another scope")
    if target.exists() and is_read_only(target):
        raise HookwrightError("is read-only", path=path,
                              hint="make it writable (chmod u+w) if you want hookwright to change it")
    folder = _existing_parent(target.parent)
    if is_read_only(folder):
        raise HookwrightError(f"the folder {folder} is not writable", path=path,
                              hint="make the folder writable or choose another scope")


def _existing_parent(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def write_bytes(path: Path, data: bytes, *, expect: bytes | None = None, mode: int | None = None) -> None:
    """Atomically replace `path` with `data`.

    `expect`: the bytes we planned against (b"" for a file that did not exist); if the
    file holds anything else right before the replace, raise ConcurrentChange and leave
    it alone. `mode`: for a new file (an existing file keeps its own mode).
    """
    target = resolve(path)
    folder = target.parent
    try:
        make_dir(folder)
        old_stat = _stat_or_none(target)

        fd, temp = tempfile.mkstemp(prefix=f".{target.name}{TEMP_MARK}{os.getpid()}-", dir=folder)
    except OSError as err:
        raise _error(err, path) from None
    try:
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                checkpoint("temp-written")
                os.fsync(out.fileno())
            checkpoint("temp-synced")
            if old_stat is not None:
                os.chmod(temp, stat.S_IMODE(old_stat.st_mode))
                if os.geteuid() == 0:
                    os.chown(temp, old_stat.st_uid, old_stat.st_gid)
            else:
                os.chmod(temp, mode if mode is not None else 0o644)
            _swap_in(temp, target, expect, data)
            checkpoint("replaced")
        except OSError as err:
            raise _error(err, path) from None
    except BaseException:
        _unlink_quietly(temp)
        raise
    _fsync_dir(folder)


def write_new(path: Path, data: bytes, mode: int) -> None:
    """Create a file that must not exist yet, in a folder of hookwright's own (a backup's copy
    of a runtime file): no temp file, no fsync of its own (what makes a backup whole is its
    meta.json, written last with write_bytes)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), mode)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
    except OSError as err:
        raise _error(err, path) from None


def _swap_in(temp: str, target: Path, expect: bytes | None, data: bytes) -> None:
    """Move the temp file (holding `data`) into place; with `expect`, only over exactly those bytes.

    The check and the move are one atomic step where the kernel allows it: a new file is
    linked into place (fails if someone created it meanwhile); an existing one is swapped
    with the temp file (Linux RENAME_EXCHANGE), and if what came out is not what we planned
    against, it goes straight back (_give_back). Elsewhere: check, then replace. The check
    also comes first everywhere: a write since our read is found before ours is in place,
    where another program could read it (and build on it) before it goes back.
    """
    if expect is None:
        os.replace(temp, target)
        return
    if not target.exists() and expect == b"":
        try:
            os.link(temp, target)
        except FileExistsError:
            raise ConcurrentChange(str(target)) from None
        except OSError:  # no hard links here (some network or FAT file systems): check, then replace
            if target.exists():
                raise ConcurrentChange(str(target)) from None
            os.replace(temp, target)
            return
        os.unlink(temp)
        return
    if _current(target) != expect:  # (a write since our read, caught before anyone sees ours)
        raise ConcurrentChange(str(target))
    if not _exchange(temp, target):  # no swap here, or the file went since our look
        if _current(target) != expect:
            raise ConcurrentChange(str(target))
        os.replace(temp, target)
        return
    taken = _current(Path(temp))
    if taken != expect:  # someone wrote between our read and now: give it back
        _give_back(temp, target, data, taken)
        _fsync_dir(target.parent)  # (else a power cut could leave ours in place, theirs in a temp file)
        raise ConcurrentChange(str(target))
    os.unlink(temp)


def _give_back(temp: str, target: Path, placed: bytes, taken: bytes) -> None:
    """Put back the write our swap took out of the file (`taken`, now in `temp`), over ours
    (`placed`). Another program may write the file between the two swaps: the swap back then
    takes out its write, the newest, not ours; so that one goes back in, and so on, until a
    swap takes out what the one before put in. A writer that never stops can outlast the rounds:
    its write then in `temp` goes with it, and the one in place stays. A file deleted meanwhile
    stays deleted."""
    for _ in range(GIVE_BACK_ROUNDS):
        if not _exchange(temp, target):
            return
        out = _current(Path(temp))
        if out == placed:
            return
        placed, taken = taken, out


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: str, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2); False where the system cannot."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(str(b)), _RENAME_EXCHANGE) == 0:
        return True

    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOENT):
        return False
    raise OSError(err, os.strerror(err), str(b))


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    if sys.platform != "linux":
        return None

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    return function


def remove(path: Path, *, expect: bytes | None = None) -> None:
    """Remove a file we own; a missing file is fine. `expect`: as for write_bytes."""
    if expect is not None and _current(path) != expect:
        raise ConcurrentChange(str(path))
    try:
        path.unlink()
    except FileNotFoundError:
        return
    except OSError as err:
        raise _error(err, path) from None
    _fsync_dir(path.parent)


def remove_empty_dirs(folder: Path, stop: Path) -> None:
    """Remove `folder` and its parents up to (not including) `stop` while they are empty."""
    while folder != stop and stop in folder.parents:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def make_dir(folder: Path, attempts: int = 5) -> None:
    """Create a folder (and missing parents) without group/world write, whatever the umask says.
    A parent that another run removes meanwhile (the last uninstall in a shared folder takes
    the empty folder away) is made again."""
    missing, top = [], folder
    while not top.exists() and top != top.parent:
        missing.append(top)
        top = top.parent
    try:
        for created in reversed(missing):
            created.mkdir(exist_ok=True)
            os.chmod(created, 0o755)
    except FileNotFoundError as err:
        if attempts <= 1:
            raise _error(err, missing[0]) from None
        make_dir(folder, attempts - 1)
    except OSError as err:
        raise _error(err, missing[0]) from None


def write_new_folder(folder: Path, files: dict[str, tuple[bytes, int]],
                     check: Callable[[Path], None] | None = None) -> None:
    """Make `folder`, which must not exist, holding `files` (name: bytes and mode; a name may
    hold one folder level, tests/x.json): written whole in a temp folder beside it, checked there
    by `check`, then renamed into place, so that a failure leaves no half-made folder."""
    if os.path.lexists(folder):
        raise HookwrightError(f"{folder} exists already", path=folder,
                              hint="give another name, or remove that folder first")
    make_dir(folder.parent)
    try:
        temp = Path(tempfile.mkdtemp(prefix=f".{folder.name}{TEMP_MARK}{os.getpid()}-", dir=folder.parent))
    except OSError as err:
        raise _error(err, folder) from None
    try:
        os.chmod(temp, 0o755)
        for name, (data, mode) in files.items():
            path = temp / name
            make_dir(path.parent)
            with open(path, "xb") as out:
                out.write(data)
                os.fsync(out.fileno())
            os.chmod(path, mode)
        if check is not None:
            check(temp)
        os.rename(temp, folder)  # (a folder made there meanwhile is not replaced: rename refuses a non-empty one)
    except OSError as err:
        shutil.rmtree(temp, ignore_errors=True)
        raise _error(err, folder) from None
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    _fsync_dir(folder.parent)


def clean_stale_temps(folder: Path, of: str | None = None) -> list[Path]:
    """Remove temp files a killed run left behind (call only while holding the lock of the files
    they are for). `of`: only the temp files of the file with this name (another file in the
    folder may be written right now, under a lock of its own)."""
    removed = [t for t in stale_temps(folder) if of is None or t.name.startswith(f".{of}{TEMP_MARK}")]
    for temp in removed:
        _unlink_quietly(temp)
    return removed


def _current(path: Path) -> bytes:
    """What the file holds now, to compare with what we planned against."""
    try:
        return safe_read.read(path, safe_read.CONFIG)
    except FileNotFoundError:
        return b""


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink_quietly(path: str | Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


_EXPLAIN = {
    errno.EACCES: ("permission denied", ExitCode.BAD_INPUT),
    errno.EPERM: ("operation not permitted", ExitCode.BAD_INPUT),
    errno.EROFS: ("the file system is read-only", ExitCode.BAD_INPUT),
    errno.ELOOP: ("symlink loop", ExitCode.BAD_INPUT),
    errno.ENOTDIR: ("a path component is not a folder", ExitCode.BAD_INPUT),
    errno.EISDIR: ("is a directory", ExitCode.BAD_INPUT),
    errno.ENOSPC: ("no space left on the device", ExitCode.INTERNAL),
    errno.EDQUOT: ("disk quota exceeded", ExitCode.INTERNAL),
}


def _error(err: OSError, path: Path) -> HookwrightError:
    what, code = _EXPLAIN.get(err.errno or 0, (err.strerror or str(err), ExitCode.INTERNAL))
    return HookwrightError(f"cannot write: {what}; the original file is unchanged", path=path, code=code,
                           hint="fix the cause and run the command again")
