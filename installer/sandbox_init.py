"""The first process inside a hook's sandbox (installer/sandbox.py starts it under `unshare`, in
new user, mount, network, PID and IPC namespaces, as PID 1): it makes the file system read-only,
hides the real home folder and the sockets of /run and /tmp behind empty tmpfs mounts, mounts
the throwaway folders writable, moves itself into that root for good (pivot_root), then runs the
hook and exits with its status. When it exits, the kernel kills every process left in the PID
namespace: a child that called setsid, a daemon the hook started, all of them.

Standard library only, run as a script with `python3 -I -S`: nothing of the hookwright package
is importable in there, and nothing of the project's is imported. Exit 125 with a line on
stderr when the sandbox cannot be made (nothing of the hook ran).

    python3 -I -S sandbox_init.py CONFIG_JSON -- ARGV...
"""
from __future__ import annotations

import ctypes
import json
import os
import platform
import sys
import warnings  # noqa: F401 (os.execvp imports it: after the pivot, the interpreter's own files may be hidden)
from typing import Any

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_NOATIME, MS_NODIRATIME, MS_BIND, MS_REC, MS_PRIVATE, MS_RELATIME = 1024, 2048, 4096, 16384, 1 << 18, 1 << 21
MNT_DETACH = 2
PR_SET_NO_NEW_PRIVS = 38
# statvfs's flags of a mount that a user namespace may not drop when it remounts it (MNT_LOCK_*)
LOCKED = ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
          (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME), (os.ST_RELATIME, MS_RELATIME))
PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217,
              "armv7l": 218, "i686": 217}
CANNOT = 125

libc = ctypes.CDLL(None, use_errno=True)


class SandboxError(Exception):
    pass


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise SandboxError(f"{what}: {os.strerror(err)}")


def mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(libc.mount(source and source.encode(), target.encode(), fstype and fstype.encode(), ctypes.c_ulong(flags),
                      data and data.encode()), f"mount {target}")


def _mount_points() -> list[str]:
    """Every mount point of this namespace, parents before children."""
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as info:
        points = [line.split()[4] for line in info]
    decoded = [p.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")
               for p in points]
    return sorted(set(decoded), key=lambda p: (p.count("/"), p))


def _read_only(root: str) -> None:
    """Remount every mount under `root` read-only, keeping the flags the namespace may not drop."""
    for point in _mount_points():
        if point != root and not point.startswith(root + "/"):
            continue
        try:
            found = os.statvfs(point).f_flag
        except OSError:
            continue  # (a mount we cannot even look at: nothing to write there either)
        locked = sum(flag for st, flag in LOCKED if found & st)
        if libc.mount(None, point.encode(), None, ctypes.c_ulong(MS_REMOUNT | MS_BIND | MS_RDONLY | locked), None):
            err = ctypes.get_errno()
            if not found & os.ST_RDONLY and not point.startswith((root + "/proc", root + "/sys")):
                raise SandboxError(f"cannot make {point[len(root):] or '/'} read-only: {os.strerror(err)}")


def _inside(root: str, path: str) -> str:
    return root + os.path.abspath(path)


def build(config: dict[str, Any]) -> None:
    root = config["root"]
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("/", root, None, MS_BIND | MS_REC)
    _read_only(root)
    for path in config["empty"]:  # the real home, /tmp, /run: an empty tmpfs each, nothing of them seen
        if os.path.isdir(_inside(root, path)) and not os.path.islink(path):
            mount("tmpfs", _inside(root, path), "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64m")
    for path, writable in [(p, True) for p in config["writable"]] + [(p, False) for p in config["readable"]]:
        target = _inside(root, path)
        os.makedirs(target, exist_ok=True)  # (inside a tmpfs just mounted, where a hidden folder held it)
        mount(path, target, None, MS_BIND | MS_REC)
        if not writable:
            _read_only(target)
    try:
        mount("proc", _inside(root, "/proc"), "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)  # (this PID namespace's)
    except SandboxError:
        pass  # (a container that masks /proc forbids it: the host's, read-only, stays)
    number = PIVOT_ROOT.get(platform.machine())
    if number is None:
        raise SandboxError(f"pivot_root's system call number on {platform.machine()} is not known here")
    os.chdir(root)
    _check(libc.syscall(number, b".", b"."), "pivot_root")
    _check(libc.umount2(b".", MNT_DETACH), "detach the old root")
    os.chdir("/")
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")


def main(argv: list[str]) -> int:
    config, command = json.loads(argv[1]), argv[3:]
    try:
        build(config)
    except (SandboxError, OSError) as error:
        print(f"hookwright sandbox: {error}", file=sys.stderr)
        return CANNOT
    child = os.fork()
    if child == 0:
        try:
            os.chdir(config["cwd"])
            os.execvp(command[0], command)
        except OSError as error:
            print(f"hookwright sandbox: cannot run {command[0]}: {error.strerror}", file=sys.stderr)
        os._exit(127)
    while True:  # (PID 1 inherits every orphan: reap them until the hook itself is done)
        pid, status = os.wait()
        if pid == child:
            return os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
