"""Kill hookwright with SIGKILL at every step of a write, then check that nothing was lost.

A first, uninterrupted child run (a fork of the test process) records every crash point it passes
(HOOKWRIGHT_TEST_TRACE); then, for each point, a fresh copy of the same world is set up and
a child is killed exactly there (HOOKWRIGHT_TEST_KILL_AT). After each kill: the settings
file is either the old or the new version, byte for byte; the same command run again
completes; afterwards no temp file is left and the result equals the uninterrupted one.
Where a kill left a half-written install, doctor reports it; after the rerun, it does not.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import NamedTuple

import filelock  # noqa: F401  (imported before the forks, as everything a child runs)
import platformdirs  # noqa: F401
import pytest
from hookwright import faults, resources, state
from hookwright.commands.install import install
from hookwright.commands.rollback import rollback
from hookwright.commands.uninstall import uninstall
from hookwright.doctor import run as doctor
from hookwright.hosts.base import Scope
from hookwright.hosts.opencode.adapter import read_plugin, render_plugin
from hookwright.planning.apply import Consent
from hookwright.planning.rollback import Only
from support import forked

pytestmark = pytest.mark.slow  # (a kill at every step of every command: a minute and a half of child processes)

FOREIGN = {  # what each host's project already holds: the file we write into, or one beside ours
    "claude": (".claude/settings.json", json.dumps({"permissions": {"allow": ["Read"]}, "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./theirs.sh"}]}]}}, indent=2) + "\n"),
    "cursor": (".cursor/hooks.json", json.dumps({"version": 1, "hooks": {"beforeShellExecution": [
        {"command": "./theirs.sh"}]}}, indent=2) + "\n"),
    "opencode": (".opencode/plugins/theirs.js", "export const Theirs = async () => ({})\n"),
    "codex": (".codex/hooks.json", json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./theirs.sh"}]}]}}, indent=2) + "\n"),
}
CONFIG = {"claude": ".claude/settings.json", "cursor": ".cursor/hooks.json",
          "opencode": ".opencode/plugins/hookwright-git-guard.js", "codex": ".codex/hooks.json"}  # the file the command changes
TRUST = "~/.codex/config.toml"  # Codex's trust, which --trust-hooks writes beside the project's file (snapshot's name)
USER_TRUST = "# the user's own\nmodel = \"o4\"\n"

# name: (host, commands that set the world up, the command under test); a command is (name, packs, options)
SCENARIOS = {
    "install": ("claude", [], ("install", ["git-guard"], [])),
    "install-two-packs": ("claude", [], ("install", ["git-guard", "path-normalizer"], [])),
    "uninstall": ("claude", [("install", ["git-guard"], [])], ("uninstall", ["git-guard"], [])),
    "upgrade-option": ("claude", [("install", ["git-guard"], [])], ("install", ["git-guard"], ["deny_push=true"])),
    "rollback": ("claude", [("install", ["git-guard"], [])], ("rollback", [], [])),
    "cursor-install": ("cursor", [], ("install", ["git-guard"], [])),
    "cursor-uninstall": ("cursor", [("install", ["git-guard"], [])], ("uninstall", ["git-guard"], [])),
    "opencode-install": ("opencode", [], ("install", ["git-guard"], [])),
    "opencode-uninstall": ("opencode", [("install", ["git-guard"], [])], ("uninstall", ["git-guard"], [])),
    "codex-install": ("codex", [], ("install", ["git-guard"], [])),
    "codex-install-trusted": ("codex", [], ("install", ["git-guard", "path-normalizer"], ["--trust-hooks"])),
    "codex-uninstall": ("codex", [("install", ["git-guard"], ["--trust-hooks"])], ("uninstall", ["git-guard"], [])),
}

# The child is a fork of this process, with hookwright imported already: it calls the command
# functions the CLI calls, without an interpreter's and the CLI's start-up each time (the write
# path under test is the same, in a process of its own that SIGKILL ends); it is killed, or it
# exits 0 (1 and its traceback in ChildRun.stderr when the command fails).
def _command(host: str, command, project: Path) -> None:
    name, packs, options = command
    trusting = "--trust-hooks" in options  # (install's flag, not a pack option)
    options = [option for option in options if option != "--trust-hooks"]
    yes = Consent(yes=True, trust=trusting)
    if name == "install":
        install(packs, host=host, scope=Scope.project, project=project, options=options, adopt=False,
                dry_run=False, consent=yes)
    elif name == "uninstall":
        uninstall(packs, host=host, scope=Scope.project, project=project, dry_run=False, consent=yes)
    else:
        rollback(to=None, only=Only(project=project), force=False, dry_run=False, consent=yes)


class ChildRun(NamedTuple):
    returncode: int  # minus the signal that ended it, as subprocess says it
    stderr: str


def environment(world: Path, extra_env=None) -> dict:
    home = world / "home"
    return dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / ".state"),
                XDG_CONFIG_HOME=str(home / ".config"), PYTHONPATH=str(resources.data_root()), **(extra_env or {}))


def cli(world: Path, host: str, command, extra_env=None) -> ChildRun:
    errors = world.parent / "child-stderr.txt"

    def child() -> None:
        os.environ.clear()
        os.environ.update(environment(world, extra_env))
        os.chdir(world)
        faults._reached.clear()
        _command(host, command, world / "project")

    _, status = os.waitpid(forked(child, stderr=errors), 0)
    return ChildRun(os.waitstatus_to_exitcode(status), errors.read_text(encoding="utf-8"))


def make_world(root: Path, host: str, setup) -> Path:
    """The world at root/world (always the same path: the journal records absolute paths),
    and a pristine copy of it at root/pristine to start each kill from."""
    world = root / "world"
    (world / "home").mkdir(parents=True)
    (world / "project").mkdir()
    name, text = FOREIGN[host]
    (world / "project" / name).parent.mkdir(parents=True)
    (world / "project" / name).write_text(text)
    (world / "home" / ".codex").mkdir()
    (world / "home" / ".codex" / "config.toml").write_text(USER_TRUST)
    for args in setup:
        done = cli(world, host, args)
        assert done.returncode == 0, done.stderr
    shutil.copytree(world, root / "pristine", symlinks=True)
    return world


def reset_world(root: Path) -> Path:
    world = root / "world"
    shutil.rmtree(world)
    shutil.copytree(root / "pristine", world, symlinks=True)
    return world


def snapshot(world: Path) -> dict[str, bytes]:
    """Every file of the project (the user's view), by relative path, and Codex's trust in the
    user's config.toml (which --trust-hooks writes)."""
    project = world / "project"
    files = {str(p.relative_to(project)): p.read_bytes() for p in sorted(project.rglob("*")) if p.is_file()}
    trust = world / "home" / ".codex" / "config.toml"
    return {**files, TRUST: trust.read_bytes()} if trust.is_file() else files


def temp_files(world: Path) -> list[str]:
    return [str(p) for p in world.rglob("*.hookwright-tmp-*") if "backups" not in p.parts]


def kill_points(root: Path, host: str, command) -> tuple[list[str], dict, dict]:
    world = reset_world(root)
    before = snapshot(world)
    trace = root / "trace.txt"
    done = cli(world, host, command, {"HOOKWRIGHT_TEST_TRACE": str(trace)})
    assert done.returncode == 0, done.stderr
    return trace.read_text().split(), before, snapshot(world)


def finished(world: Path, command) -> bool:
    """A rollback killed after it was journaled as done has nothing left to do (a rerun would
    undo the operation before it); install and uninstall are simply run again."""
    if command[0] != "rollback":
        return False
    saved = dict(os.environ)
    os.environ.update(environment(world))
    try:
        last = state.read_journal()[-1]
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return last.kind == "rollback" and last.state == "done"


def in_world_home(world: Path, monkeypatch) -> None:
    """This process's home and state folders: the world's (as environment() gives a child)."""
    monkeypatch.setenv("HOME", str(world / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(world / "home" / ".state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(world / "home" / ".config"))


def read_scripts_ahead(world: Path, host: str, monkeypatch) -> None:
    """Every check of doctor run once in this process on the world as it is: the children forked
    after it find each script's facts in its memo (keyed on path, size and mtime, which
    reset_world's copies keep), where each would otherwise read our runtime scripts again before
    its first write, about half of the suite's time. What a child writes, and where a kill
    lands, does not depend on it (the trace is taken by a child forked after it too)."""
    in_world_home(world, monkeypatch)
    doctor.findings(doctor.context(project=world / "project", hosts=[host], pack_files=True))


def install_findings(world: Path, host: str, monkeypatch) -> list[str]:
    """What doctor says about our installs in the world (run in-process with the world's home):
    its installs check, the one that writes every install/ rule, on the files a whole doctor run
    reads (the other checks would read our runtime scripts again after every kill, two thirds of
    the suite's time, to say nothing about an install)."""
    in_world_home(world, monkeypatch)
    ctx = doctor.context(project=world / "project", hosts=[host], pack_files=True)
    return [f.rule for f in doctor.findings(ctx, ("installs",))]


def parses(host: str, data: bytes | None) -> None:
    """The file is whole: strict JSON, or (opencode) a plugin made from its first line."""
    if data is None:
        return
    if host == "opencode":
        assert render_plugin(read_plugin(Path("x"), data).data) == data
    else:
        json.loads(data)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_kill_at_any_step_leaves_the_old_or_the_new_file_and_the_next_run_completes(tmp_path, scenario,
                                                                                     monkeypatch):
    host, setup, command = SCENARIOS[scenario]
    read_scripts_ahead(make_world(tmp_path, host, setup), host, monkeypatch)  # (the pristine copy keeps its mtimes)
    points, before, after = kill_points(tmp_path, host, command)
    finished_findings = install_findings(tmp_path / "world", host, monkeypatch)
    # (Codex: the hooks not trusted yet, which it asks about, or skips in a project marked untrusted)
    assert set(finished_findings) <= {"install/hook-not-yet-trusted", "install/hook-untrusted"}
    config = CONFIG[host]
    assert len(points) >= 8 and before.get(config) != after.get(config)

    for point in points:
        world = reset_world(tmp_path)
        killed = cli(world, host, command, {"HOOKWRIGHT_TEST_KILL_AT": point})
        assert killed.returncode == -9, f"{point}: {killed.stderr}"

        now = snapshot(world)
        assert now.get(config) in (before.get(config), after.get(config)), point
        assert now.get(TRUST) in (before.get(TRUST), after.get(TRUST)), point
        parses(host, now.get(config))
        if now not in (before, after):  # half-written: doctor must say so
            assert install_findings(world, host, monkeypatch) != finished_findings, \
                f"doctor saw nothing wrong after a kill at {point}"

        if not finished(world, command):
            again = cli(world, host, command)
            assert again.returncode == 0, f"after a kill at {point}: {again.stderr}"
        assert temp_files(world) == [], point
        assert snapshot(world) == after, f"after a kill at {point} and a second run"
        assert install_findings(world, host, monkeypatch) == finished_findings, point
