"""Fixtures for tests that drive the real Claude Code and opencode CLIs (marked ``e2e``).

The CLIs' locations are resolved when this module is imported (claude_cli.CLAUDE,
opencode_cli.OPENCODE), before the autouse guard in tests/conftest.py strips HOOKWRIGHT_*
and replaces HOME.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from claude_cli import CLAUDE
from claude_cli import PIN as CLAUDE_PIN
from opencode_cli import OPENCODE
from opencode_cli import PIN as OPENCODE_PIN


@pytest.fixture(scope="session")
def claude_cli() -> Path:
    """The CLI binary of the release under test (the pin, or HOOKWRIGHT_CLAUDE_VERSION's); the test
    is skipped when it is not installed."""
    try:
        version = subprocess.run([str(CLAUDE), "--version"], capture_output=True, text=True,
                                 timeout=30, env={"PATH": "/usr/bin:/bin"}).stdout
    except OSError:
        version = ""
    if not CLAUDE_PIN.says_it_is(version):
        pytest.skip(f"Claude Code CLI {CLAUDE_PIN.version} not installed: run scripts/setup-e2e.sh claude@{CLAUDE_PIN.version}"
                    f" (looked for {CLAUDE}{', found ' + version.strip() if version else ''})")
    return CLAUDE


@pytest.fixture(scope="session")
def opencode_cli() -> Path:
    """The opencode binary of the release under test (the pin, or HOOKWRIGHT_OPENCODE_VERSION's); the
    test is skipped when it is not installed."""
    try:
        with tempfile.TemporaryDirectory() as scratch:  # it writes its folders into HOME even for this
            version = subprocess.run([str(OPENCODE), "--version"], capture_output=True, text=True,
                                     timeout=60, env={"PATH": "/usr/bin:/bin", "HOME": scratch}).stdout.strip()
    except OSError:
        version = ""
    if not OPENCODE_PIN.says_it_is(version):
        pytest.skip(f"opencode {OPENCODE_PIN.version} not installed: run scripts/setup-e2e.sh opencode@{OPENCODE_PIN.version}"
                    f" (looked for {OPENCODE}{', found ' + version if version else ''})")
    return OPENCODE


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


AGENT_FIXTURES = {"claude_cli": "claude", "opencode_cli": "opencode"}


def pytest_collection_modifyitems(items):
    """Each test that drives an agent is marked with it (`-m claude`, `-m opencode`): the suites
    scripts/e2e_on_version.py runs on another release of that agent."""
    for item in items:
        for fixture, agent in AGENT_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(agent)
