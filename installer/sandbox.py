"""Foreign hooks run only in isolation: the sandbox `doctor --probe` (and `simulate --sandbox`)
runs a repository's hook commands in.

A hook command is whatever the repository says: it may read the real home folder (keys, tokens),
call a server, leave a process behind that calls `setsid` to outlive its run. Run in the sandbox,
it sees the file system read-only, an empty tmpfs where the real home, /tmp, /var/tmp, /run and
/dev/shm were (no files, no sockets of other programs; of the home only the toolchains it needs
to start, read-only: `toolchains`), no network (a network namespace of its
own, with only a loopback that is down: a server on the machine's 127.0.0.1 is out of reach), and
only the throwaway folders the caller names writable; every process it starts dies when it ends
(a PID namespace: its first process, installer/sandbox_init.py, exits with the hook's status, and
the kernel kills the rest).

It is made with Linux user namespaces through util-linux's `unshare` (measured on this machine's
kind, Linux 6.x: as root and as an unprivileged user alike); `why_not()` says why no sandbox can
be made where it cannot (another system, no `unshare`, user namespaces switched off), found by
starting one, once per process.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Callable

INIT = Path(__file__).with_name("sandbox_init.py")
EMPTIED = ("/tmp", "/var/tmp", "/run", "/dev/shm")  # (besides the home folders)
CANNOT = 125  # sandbox_init's exit when it could not make the sandbox


class Sandbox:
    """A sandbox for commands whose throwaway folders are `writable` (each stays readable and
    writable at its own path), with `readable` folders shown read-only through the emptied ones
    (a project under the home folder, for simulate)."""

    def __init__(self, writable: list[Path], readable: list[Path] | None = None) -> None:
        self.writable = writable
        self.readable = readable or []

    def argv(self, command: list[str], cwd: Path, root: Path) -> list[str]:
        """The argv that runs `command` in the sandbox, in `cwd`; `root`: an empty folder of the
        caller's (it becomes the sandbox's /)."""
        hidden = hidden_folders()
        tools = toolchains(command, hidden)
        if any(command[0].startswith(folder + "/") for folder in hidden):  # (found out here, where it cannot see:
            real = os.path.realpath(command[0])  # the toolchain it links into, or PATH in there)
            shown = any(real.startswith(tool + "/") for tool in tools)
            command = [real if shown else os.path.basename(command[0]), *command[1:]]
        config = {"root": str(root), "empty": hidden, "cwd": str(cwd),
                  "writable": [str(p) for p in self.writable],
                  "readable": [str(p) for p in self.readable] + tools}
        return [shutil.which("unshare") or "unshare", "--user", "--map-root-user", "--mount", "--net", "--pid", "--ipc",
                "--uts", "--fork", "--kill-child", "--", sys.executable, "-I", "-S", str(INIT), json.dumps(config), "--",
                *command]


def wrapper(scratch: Path, cwd: Path, readable: set[Path]) -> Callable[[list[str]], list[str]]:
    """How an argv runs in a sandbox whose only writable folder is `scratch` (its new root made
    there), in `cwd`, the folders `readable` (and those inside them) shown read-only."""
    shown = sorted(f for f in readable if f.is_dir() and not any(o in f.parents for o in readable))
    root = scratch / "sandbox-root"
    root.mkdir(exist_ok=True)
    box = Sandbox([scratch], shown)
    return lambda argv: box.argv(argv, cwd, root)


def toolchains(command: list[str], hidden: list[str]) -> list[str]:
    """The folders inside the hidden home folders that the hook needs to start at all, shown
    read-only: each folder of PATH there (with its toolchain, the folder above a `bin` or
    `shims`: ~/.pyenv, ~/.cargo), and the installation of an interpreter the command names by
    its path (a virtual environment's python is a link into ~/.pyenv/versions/3.11.9). The rest
    of the home folder (keys, tokens, other projects) stays hidden."""
    named = [command[0], *([os.path.realpath(command[0])] if os.path.isabs(command[0]) else [])]
    if len(command) >= 3 and command[1] == "-c":  # (the shell form: the program is the script's first word)
        first = command[2].strip().split(None, 1)
        named += [first[0].strip("'\"")] if first else []
    found = []
    for path in [*os.environ.get("PATH", "").split(os.pathsep), *(p for p in named if os.path.isabs(p))]:
        real = os.path.realpath(path)
        if not path or not any(real.startswith(home + "/") for home in hidden[:-len(EMPTIED)]):
            continue
        folder = real if os.path.isdir(real) else os.path.dirname(real)
        parent = os.path.dirname(folder)
        if os.path.basename(folder) in ("bin", "shims") and os.path.basename(parent) != ".local" \
                and parent not in hidden:
            folder = parent
        found.append(folder)
    return sorted(f for f in set(found) if os.path.isdir(f) and not any(f.startswith(o + "/") for o in found))


def hidden_folders() -> list[str]:
    """The folders a sandboxed command sees empty: the home folders (of $HOME and of the account),
    then the shared scratch and socket folders."""
    homes = [os.environ.get("HOME", ""), os.path.expanduser("~" + _account())]
    return list(dict.fromkeys(os.path.realpath(h) for h in homes if h and os.path.isabs(h) and h != "/")) \
        + list(EMPTIED)


def _account() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.getuid()).pw_name
    except (ImportError, KeyError):
        return ""


@cache
def why_not() -> str | None:
    """None where a sandbox can be made on this machine; else why not, in words."""
    if sys.platform != "linux":
        return f"a sandbox is made with Linux namespaces, and this system is {sys.platform}"
    if shutil.which("unshare") is None:
        return "util-linux's `unshare`, which makes the sandbox, is not installed"
    with tempfile.TemporaryDirectory(prefix="hookwright-sandbox-") as scratch:
        root = Path(scratch) / "root"
        root.mkdir()
        argv = Sandbox([Path(scratch)]).argv(["/bin/sh", "-c", "exit 0"], Path(scratch), root)
        try:
            done = subprocess.run(argv, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"a test sandbox did not start: {error}"
    if done.returncode == 0:
        return None
    said = done.stderr.decode("utf-8", "replace").strip().splitlines()
    return f"a test sandbox failed ({said[-1] if said else f'exit {done.returncode}'}): user namespaces may be off here"
