"""A repository someone else wrote cannot hurt you: each crafted repository of tests/hostile_repos.py
goes through every command a user or a CI job runs on it (COMMANDS), in one process of its own
under an address-space limit of 1 GiB, each command with a limit of 30 s of CPU time, and of 120 s
of wall-clock time for a command that waits (tests/hostile_run.py: CPU time is what reading the
repository costs, which a busy machine does not change). For every repository: no command is killed or runs past its limit, none
exits 4 (a bug), nothing outside the project is written or deleted (a fake home and a sibling
folder are compared before and after, byte for byte), no server the test runs on 127.0.0.1 is
contacted, and no process a hook started is left; then what the repository's own row checks.

hookwright's own state (the journal, backups, locks, the runtimes' log) lives in a state folder
beside them, which the writing commands are meant to write."""
from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import NamedTuple

import pytest
from hostile_repos import REPOS, Repo, World

ADDRESS_SPACE = 1 << 30
CPU_S = 30
WALL_S = 120
RUNNER = Path(__file__).with_name("hostile_run.py")


def commands(repo: Repo, world: World) -> list[tuple[str, list[str]]]:
    """Every command a user or CI runs on a repository, as (name, argv); the writing ones in the
    repository's agent and scope."""
    project = str(world.project)
    where = ["--host", repo.host, "--scope", repo.scope, "--project", project]
    return [
        ("doctor", ["doctor", "--project", project]),
        ("doctor --format json", ["doctor", "--project", project, "--format", "json"]),
        ("doctor --format sarif", ["doctor", "--project", project, "--format", "sarif"]),
        ("list", ["list", "--project", project]),
        ("status", ["status", "--project", project]),
        ("probe-report", []),  # (doctor --probe's runs, each hook's output kept: what it saw in the sandbox)
        # (--list-only: a hook runs as long as its own timeout says, up to 10 minutes; the probe runs them)
        ("simulate", ["simulate", "--project", project, "--command", "git status", "--list-only", "--json"]),
        ("install --dry-run", ["install", "git-guard", *where, "--dry-run"]),
        ("install --yes", ["install", "git-guard", *where, "--yes"]),
        ("uninstall --yes", ["uninstall", "git-guard", *where, "--yes"]),
        ("rollback --yes", ["rollback", "--yes"]),
    ]


class Outcome(NamedTuple):
    code: int | None
    killed: str | None
    seconds: float
    out: str
    err: str


class Server:
    """A TCP server on 127.0.0.1 that counts who reached it."""

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.reached = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.reached += 1
            connection.close()

    def close(self) -> None:
        self.socket.close()


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry below `folder`: its kind, and its bytes' hash, mode or link target."""
    seen: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            st = os.lstat(path)
            if os.path.islink(path):
                seen[path] = ("link", os.readlink(path))
            elif os.path.isfile(path):
                with open(path, "rb") as data:
                    seen[path] = ("file", hashlib.sha256(data.read()).hexdigest(), st.st_mode)
            else:
                seen[path] = ("other", st.st_mode)
    return seen


def alive(marker: str) -> list[str]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes()
        except OSError:
            continue
        if marker.encode() in text and b"pytest" not in text:
            found.append(text.replace(b"\0", b" ").decode("utf-8", "replace"))
    return found


@pytest.fixture
def world(tmp_path):
    server = Server()
    root = tmp_path
    made = World(root=root, project=root / "project", home=root / "home", sibling=root / "sibling",
                 state=root / "state", port=server.port, marker=f"hookwright-hostile-{os.getpid()}-{id(root)}")
    for folder in (made.project, made.home, made.sibling, made.state):
        folder.mkdir()
    (made.home / ".claude").mkdir()
    (made.home / ".claude" / "settings.json").write_text(json.dumps({"model": "opus", "hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "echo mine"}]}]}}, indent=2) + "\n")
    made.secret.parent.mkdir()
    made.secret.write_text(f"secret-{made.marker}\n")
    (made.sibling / "victim.txt").write_text("someone else's file\n")
    (made.sibling / "settings.json").write_text('{"hooks": {}}\n')
    yield made, server
    server.close()


def run_repository(repo: Repo, world: World) -> dict[str, Outcome]:
    out = world.state / "outputs"
    out.mkdir()
    spec = {"env": world.env, "cwd": str(world.project), "out": str(out), "address_space": ADDRESS_SPACE,
            "cpu_s": CPU_S, "wall_s": WALL_S, "commands": commands(repo, world)}
    done = subprocess.run([sys.executable, str(RUNNER), json.dumps(spec)], capture_output=True, text=True,
                          timeout=WALL_S * (len(spec["commands"]) + 2))
    assert done.returncode == 0, done.stderr[-3000:]
    ran = {}
    for row in json.loads(done.stdout):
        ran[row["name"]] = Outcome(row["exit_code"], row["killed"], row["seconds"],
                                   Path(row["out"]).read_text(errors="replace"),
                                   Path(row["err"]).read_text(errors="replace"))
    return ran


# (the analysis rows, each command reading a long input: the slow ones)
@pytest.mark.parametrize("repo", [pytest.param(repo, marks=[pytest.mark.slow] if repo.attack == "unbounded analysis" else [])
                                  for repo in REPOS], ids=[repo.name for repo in REPOS])
def test_a_crafted_repository_cannot_hurt_you(world, repo):
    world, server = world
    repo.build(world)
    home, sibling = snapshot(world.home), snapshot(world.sibling)

    ran = run_repository(repo, world)

    said = {name: f"exit {o.code}, {o.seconds}s: {o.err[-1500:]}" for name, o in ran.items()}
    assert not {name: o.killed for name, o in ran.items() if o.killed}, said
    assert not [name for name, o in ran.items() if o.code == 4], said
    assert snapshot(world.home) == home, "the home folder changed"
    assert snapshot(world.sibling) == sibling, "a folder beside the project changed"
    assert server.reached == 0, "a hook reached the server on 127.0.0.1"
    assert not alive(world.marker), "a process a hook started outlived the run"
    sarif = json.loads(ran["doctor --format sarif"].out)
    assert sarif["version"] == "2.1.0" and sarif["runs"], "doctor --format sarif printed no log"
    json.loads(ran["doctor --format json"].out or ran["doctor --format json"].err)
    if repo.check is not None:
        repo.check(world, ran)


def test_the_table_holds_every_attack_class_and_forty_repositories_at_least():
    classes = {repo.attack for repo in REPOS}
    names = [repo.name for repo in REPOS]

    assert len(REPOS) >= 40 and len(set(names)) == len(names)
    assert classes >= {"unbounded reads", "writes that leave the scope", "trusting what the repository says about itself",
                       "running what the repository says", "strange text", "link loops", "doctor's own config"}


def test_the_runner_reports_a_command_past_its_limits_as_killed_and_one_that_crashes_as_exit_4(tmp_path):
    """The suite's checks can fail: a command that hangs is killed at its wall-clock limit, one that
    computes without end at its CPU-time limit, one that allocates past the address space fails, and
    the runner says so."""
    spec = {"env": {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "PYTHONPATH": str(RUNNER.parent),
                    "XDG_STATE_HOME": str(tmp_path / "state")},
            # the wall-clock limit well above the CPU one: on a machine others keep busy (a load of 9 on
            # two cores) one CPU-second of spinning took more than two seconds of wall clock
            "cwd": str(tmp_path), "out": str(tmp_path), "address_space": ADDRESS_SPACE, "cpu_s": 1,
            "wall_s": 5, "commands": [["hang", ["__hang__"]], ["spin", ["__spin__"]], ["oom", ["__oom__"]]]}
    fifo = tmp_path / "input.json"
    os.mkfifo(fifo)
    probe = (f"import runpy, sys; sys.argv = ['hostile_run.py', {json.dumps(spec)!r}]\n"
             "import hookwright.cli as cli\n"
             "def main(argv):\n"
             "    if argv == ['__hang__']: open(" + repr(str(fifo)) + ").read()\n"
             "    if argv == ['__spin__']:\n        while True: pass\n"
             "    if argv == ['__oom__']: b'x' * (2 << 30)\n"
             "cli.main = main\n"
             f"runpy.run_path({str(RUNNER)!r}, run_name='__main__')\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    hang, spin, oom = json.loads(done.stdout)

    assert hang["killed"] == "past the wall-clock limit" and hang["exit_code"] is None
    assert spin["killed"] == "past the CPU-time limit" and spin["exit_code"] is None
    assert oom["exit_code"] == 4 and "MemoryError" in Path(oom["err"]).read_text()
