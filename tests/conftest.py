"""Shared fixtures: every test runs with a home directory that cannot be written.

HOME points below /dev/null, so a test that forgets to choose a home fails loudly
instead of touching the developer's real ~/.claude. Tests that need a home take
the `home` fixture, which points HOME, the XDG dirs and CLAUDE_CONFIG_DIR's parent
at a temporary directory.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import SHARED

UNUSABLE_HOME = "/dev/null/tests-must-use-the-home-fixture"


@pytest.fixture(scope="session")
def _python3_folder(tmp_path_factory) -> str:
    """A folder whose python3 is the interpreter that runs the tests, never a version manager's shim."""
    folder = tmp_path_factory.mktemp("python3-on-path")
    (folder / "python3").symlink_to(os.path.realpath(sys.executable))
    return str(folder)


@pytest.fixture(autouse=True)
def _python3_is_the_interpreter(monkeypatch, _python3_folder):
    """python3 on PATH is an interpreter, not a shim: a plan says the same on every machine (install
    notes a shim, interpreter.shim_in_front); the tests of a shim put their own first on PATH."""
    monkeypatch.setenv("PATH", _python3_folder + os.pathsep + os.environ.get("PATH", ""))


@pytest.fixture(autouse=True)
def _no_real_home(monkeypatch):
    for name in list(os.environ):
        if name.startswith(("XDG_", "CLAUDE", "CODEX_", "HOOKWRIGHT_")) or name in ("COLUMNS", "LINES"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", UNUSABLE_HOME)
    monkeypatch.setenv("USERPROFILE", UNUSABLE_HOME)


@pytest.fixture(scope="session")
def _folders_above_tmp(tmp_path_factory) -> list[Path]:
    """The folders above every test's tmp dirs whose `.git` would put each test project inside
    a repository (and change what hookwright takes for the project); none has one at the start."""
    base = tmp_path_factory.getbasetemp().resolve()
    return [folder for folder in base.parents if not (folder / ".git").exists()]


@pytest.fixture(autouse=True)
def _no_git_above_tmp(_folders_above_tmp):
    """A test that runs `git init` in the wrong folder (once /tmp itself) fails, not the tests
    after it, whose projects are suddenly inside that repository."""
    yield
    made = [str(folder / ".git") for folder in _folders_above_tmp if (folder / ".git").exists()]
    assert not made, f"this test made {made}: every project under the tmp dirs is now inside it"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fresh, writable home with its own XDG state dir and hook error log."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    return home


@pytest.fixture
def project(tmp_path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    return project


@pytest.fixture
def here(tmp_path, monkeypatch) -> Path:
    """A folder of the test's own, the current folder (for a command that writes where it runs)."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def shared() -> Path:
    """The team's ../shared folder; tests that need it skip with a reason where it is absent."""
    if not (SHARED / "corpus").is_dir():
        pytest.skip(f"../shared is not beside the repo ({SHARED}); corpus tests need it")
    return SHARED



@dataclass
class Ran:
    """One in-process CLI run: exit code and what it printed."""

    code: int
    out: str
    err: str

    @property
    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def hookwright(capsys):
    """Run the CLI in-process: `hookwright("install", "git-guard", ...)` -> Ran."""
    from hookwright.cli import main

    def run(*args: str) -> Ran:
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as done:
            code = int(done.code or 0)
        captured = capsys.readouterr()
        return Ran(code, captured.out, captured.err)

    return run


@pytest.fixture
def project_settings(project) -> Path:
    return project / ".claude" / "settings.json"



# ---- CI: a skipped test is a failed test ----------------------------------------------------

_skipped: list[str] = []


def pytest_runtest_logreport(report):
    if report.skipped and os.environ.get("HOOKWRIGHT_NO_SKIPS") == "1":
        _skipped.append(f"{report.nodeid}: {report.longrepr[2] if isinstance(report.longrepr, tuple) else ''}")


def pytest_sessionfinish(session, exitstatus):
    if _skipped:
        print("\nHOOKWRIGHT_NO_SKIPS=1 and these tests were skipped:\n  " + "\n  ".join(_skipped))
        session.exitstatus = 1


# ---- CI: the long tests first ----------------------------------------------------------------

def pytest_collection_modifyitems(items):
    """The slow tests first, then the e2e ones, then the rest (each group in its own order): under
    pytest-xdist's work stealing (scripts/test.sh) each worker then ends on short tests, where a
    test of a minute left last kept one worker running alone while the other had nothing to do."""
    items.sort(key=lambda item: 0 if item.get_closest_marker("slow") else 1 if item.get_closest_marker("e2e") else 2)
