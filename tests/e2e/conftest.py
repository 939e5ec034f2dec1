"""Fixtures for tests that drive the real Claude Code, opencode and Codex CLIs (marked ``e2e``).

The CLIs' locations are resolved when this module is imported (claude_cli.CLAUDE,
opencode_cli.OPENCODE, codex_cli.CODEX), before the autouse guard in tests/conftest.py strips HOOKWRIGHT_*
and replaces HOME.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest
from claude_cli import CLAUDE
from claude_cli import PIN as CLAUDE_PIN
from codex_cli import CODEX
from codex_cli import PIN as CODEX_PIN
from hookwright.hosts.versions import Pin
from opencode_cli import OPENCODE
from opencode_cli import PIN as OPENCODE_PIN


def installed(name: str, pin: Pin, cli: Path, path: str = "/usr/bin:/bin") -> Path:
    """`cli` if its --version says it is `pin`'s release; else the test is skipped, saying how to
    install it. It runs with a scratch HOME (opencode writes its folders there even for this)."""
    try:
        with tempfile.TemporaryDirectory() as scratch:
            version = subprocess.run([str(cli), "--version"], capture_output=True, text=True, timeout=60,
                                     env={"PATH": path, "HOME": scratch}).stdout.strip()
    except OSError:
        version = ""
    if not pin.says_it_is(version):
        pytest.skip(f"{name} {pin.version} not installed: run scripts/setup-e2e.sh {pin.host}@{pin.version}"
                    f" (looked for {cli}{', found ' + version if version else ''})")
    return cli


@pytest.fixture(scope="session")
def claude_cli() -> Path:
    """The CLI binary of the release under test (the pin, or HOOKWRIGHT_CLAUDE_VERSION's); the test
    is skipped when it is not installed."""
    return installed("Claude Code CLI", CLAUDE_PIN, CLAUDE)


@pytest.fixture(scope="session")
def opencode_cli() -> Path:
    """The opencode binary of the release under test (the pin, or HOOKWRIGHT_OPENCODE_VERSION's); the
    test is skipped when it is not installed."""
    return installed("opencode", OPENCODE_PIN, OPENCODE)


@pytest.fixture(scope="session")
def codex_cli() -> Path:
    """The Codex CLI of the release under test (the pin, or HOOKWRIGHT_CODEX_VERSION's); the test is
    skipped when it is not installed. Its npm launcher is a node script: node is looked for on the PATH."""
    return installed("Codex CLI", CODEX_PIN, CODEX, os.environ.get("PATH", "/usr/bin:/bin"))


def git(project: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=test", "-c", "user.email=test@example.com", *args],
                   cwd=project, check=True, capture_output=True)


@pytest.fixture
def dirty_repo(project: Path) -> Path:
    """A repo whose a.txt is committed as v1 and changed to v2: reset --hard would lose v2."""
    git(project, "init", "-q")
    (project / "a.txt").write_text("v1\n")
    git(project, "add", "a.txt")
    git(project, "commit", "-q", "-m", "v1")
    (project / "a.txt").write_text("v2\n")
    return project


@pytest.fixture
def work_repo(dirty_repo, tmp_path):
    """dirty_repo with an untracked file, a pushed branch `feature` on a bare `origin`, and a reflog."""
    project = dirty_repo
    (project / "notes.txt").write_text("mine\n")
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", str(origin))
    git(project, "branch", "feature")
    git(project, "remote", "add", "origin", str(origin))
    git(project, "push", "-q", "origin", "HEAD:refs/heads/main", "feature")
    return project


AGENT_FIXTURES = {"claude_cli": "claude", "opencode_cli": "opencode", "codex_cli": "codex"}


def pytest_collection_modifyitems(items):
    """Each test that drives an agent is marked with it (`-m claude`, `-m opencode`, `-m codex`): the suites
    scripts/e2e_on_version.py runs on another release of that agent."""
    for item in items:
        for fixture, agent in AGENT_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(agent)
