"""The Python a hook starts: a version manager's shim noted in the plan with the interpreter behind
it, `--python` for a config of this machine's (never a project's committed one), and a hook whose
interpreter is gone reported by status and doctor."""
from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from hookwright import interpreter
from hookwright.hosts.opencode.adapter import read_plugin

REAL = os.path.realpath(sys.executable)


@pytest.fixture
def pyenv_shim(tmp_path, monkeypatch) -> Path:
    """A python3 first on PATH that, like pyenv's, is a script in a shims folder that starts the real one."""
    shims = tmp_path / "fake-home" / ".pyenv" / "shims"
    shims.mkdir(parents=True)
    shim = shims / "python3"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(REAL)} "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shims}{os.pathsep}{os.environ['PATH']}")
    return shim


def notes(ran) -> list[str]:
    assert ran.code == 0, ran.out + ran.err
    return [note for plan in ran.json["plans"] for note in plan["notes"]]


def command(settings: Path) -> str:
    (group,) = json.loads(settings.read_text())["hooks"]["PreToolUse"]
    return group["hooks"][0]["command"]


def test_a_shim_in_front_of_python3_is_found_with_the_interpreter_behind_it(pyenv_shim):
    shim = interpreter.shim_in_front()
    assert shim is not None and (shim.path, shim.manager) == (str(pyenv_shim), "pyenv")
    assert os.path.realpath(shim.interpreter) == REAL
    assert shim.through_ms > 0 and shim.direct_ms > 0


def test_python3_that_is_the_interpreter_itself_is_no_shim():
    assert interpreter.shim_in_front() is None  # (the suite's python3: a link to the interpreter)


def test_the_plan_says_python3_is_a_shim_and_the_command_it_gives_installs_the_interpreter_behind_it(
        hookwright, home, pyenv_shim):
    (note,) = notes(hookwright("install", "git-guard", "--scope", "user", "--dry-run", "--json"))
    assert "python3 on PATH is pyenv's shim" in note and str(pyenv_shim) in note
    given = note.split("`")[1]
    words = shlex.split(given)
    assert words[:2] == ["hookwright", "install"] and words[-2] == "--python"

    assert hookwright(*words[1:], "--yes").code == 0  # the command as printed
    assert command(home / ".claude" / "settings.json").startswith(shlex.quote(words[-1]) + " -I -S ")
    assert not notes(hookwright("install", "git-guard", "--scope", "user", "--dry-run", "--json"))
    assert hookwright("status", "--json").code == 0


def test_a_projects_committed_command_keeps_python3_and_the_plan_says_why(hookwright, home, project, pyenv_shim):
    (note,) = notes(hookwright("install", "git-guard", "--project", project, "--dry-run", "--json"))
    assert "pyenv's shim" in note and "committed command keeps python3" in note and "--python" not in note

    ran = hookwright("install", "git-guard", "--project", project, "--python", REAL, "--yes")
    assert ran.code == 2 and "committed" in ran.err and "--scope local" in ran.err
    assert not (project / ".claude").exists()


def test_opencode_starts_its_runtime_once_per_process_so_a_shim_is_not_noted(hookwright, home, pyenv_shim):
    assert not notes(hookwright("install", "git-guard", "--host", "opencode", "--scope", "user", "--dry-run",
                                "--json"))


def test_opencodes_plugin_is_made_to_start_the_interpreter_given(hookwright, home):
    assert hookwright("install", "git-guard", "--host", "opencode", "--scope", "user", "--python", REAL,
                      "--yes").code == 0
    plugin = home / ".config" / "opencode" / "plugins" / "hookwright-git-guard.js"
    (hook,) = read_plugin(plugin, plugin.read_bytes()).data["hooks"]
    assert hook["python"] == REAL


@pytest.mark.parametrize("python, says", [
    ("python3.11", "not an absolute path"),
    ("/no/such/python", "no program there"),
    ("/bin/true", "not a Python 3.8 or newer"),
])
def test_python_must_be_a_python_given_by_its_path(hookwright, home, python, says):
    ran = hookwright("install", "git-guard", "--scope", "user", "--python", python, "--yes")
    assert ran.code == 2 and says in ran.err
    assert not (home / ".claude").exists()


def test_the_interpreter_chosen_stays_through_an_upgrade_and_python3_takes_it_back(hookwright, home):
    settings = home / ".claude" / "settings.json"
    assert hookwright("install", "git-guard", "--scope", "user", "--python", REAL, "--yes").code == 0
    assert hookwright("install", "git-guard", "--scope", "user", "--option", "deny_push=true", "--yes").code == 0
    assert command(settings).startswith(f"{shlex.quote(REAL)} -I -S ") and "deny_push=true" in command(settings)

    assert hookwright("install", "git-guard", "--scope", "user", "--python", "python3", "--yes").code == 0
    assert command(settings).startswith("python3 -I -S ")


def test_an_interpreter_in_a_folder_with_a_space_is_quoted_and_its_entry_still_ours(hookwright, home, tmp_path):
    folder = tmp_path / "my pythons"
    folder.mkdir()
    (folder / "python3").symlink_to(REAL)
    settings = home / ".claude" / "settings.json"
    assert hookwright("install", "git-guard", "--scope", "user", "--python", folder / "python3", "--yes").code == 0
    assert command(settings).startswith(f"'{folder / 'python3'}' -I -S ")

    assert hookwright("uninstall", "git-guard", "--scope", "user", "--yes").code == 0
    assert not settings.exists()  # (it made the file, and took its only entry out)


def test_a_hook_whose_interpreter_is_gone_is_reported_by_status_and_doctor_with_a_repair_that_works(
        hookwright, home, project, tmp_path):
    python = tmp_path / "venv" / "python3"
    python.parent.mkdir()
    python.symlink_to(REAL)
    assert hookwright("install", "git-guard", "--scope", "user", "--python", python, "--yes").code == 0
    python.unlink()  # the Python version uninstalled

    status = hookwright("status", "--project", project, "--json")
    (row,) = status.json["installs"]
    (problem,) = row["problems"]
    assert status.code == 1 and problem["rule"] == "install/interpreter-missing"
    assert f"starts {python}, which is no longer there" in problem["message"]
    doctor = hookwright("doctor", "--project", project, "--json")
    (finding,) = [f for f in doctor.json["findings"] if f["rule"] == "install/interpreter-missing"]
    assert finding["severity"] == "error" and "goes on unchecked" in finding["message"]

    repair = problem["hint"].split("`")[1]
    assert hookwright(*shlex.split(repair)[1:], "--yes").code == 0
    assert hookwright("status", "--project", project, "--json").code == 0


def test_python3_missing_from_path_is_an_interpreter_gone_for_every_host(hookwright, home, project, tmp_path,
                                                                          monkeypatch):
    assert hookwright("install", "git-guard", "--scope", "user", "--yes").code == 0
    assert hookwright("install", "git-guard", "--host", "opencode", "--scope", "user", "--yes").code == 0
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))

    rows = hookwright("status", "--project", project, "--json").json["installs"]
    assert {(row["host"], tuple(p["rule"] for p in row["problems"])) for row in rows} == {
        ("claude", ("install/interpreter-missing",)), ("opencode", ("install/interpreter-missing",))}
    assert all("python3, which is not on PATH" in row["problems"][0]["message"] for row in rows)
