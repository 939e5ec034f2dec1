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
from claude_cli import CLAUDE, CLAUDE_VERSION
from codex_cli import CODEX, CODEX_VERSION
from opencode_cli import OPENCODE, OPENCODE_VERSION


@pytest.fixture(scope="session")
def claude_cli() -> Path:
    """The pinned CLI binary; the test is skipped when it is not installed."""
    try:
        version = subprocess.run([str(CLAUDE), "--version"], capture_output=True, text=True,
                                 timeout=30, env={"PATH": "/usr/bin:/bin"}).stdout
    except OSError:
        version = ""
    if not version.startswith(CLAUDE_VERSION + " "):
        pytest.skip(f"Claude Code CLI {CLAUDE_VERSION} not installed: run scripts/setup-e2e.sh"
                    f" (looked for {CLAUDE}{', found ' + version.strip() if version else ''})")
    return CLAUDE


@pytest.fixture(scope="session")
def opencode_cli() -> Path:
    """The pinned opencode binary; the test is skipped when it is not installed."""
    try:
        with tempfile.TemporaryDirectory() as scratch:  # it writes its folders into HOME even for this
            version = subprocess.run([str(OPENCODE), "--version"], capture_output=True, text=True,
                                     timeout=60, env={"PATH": "/usr/bin:/bin", "HOME": scratch}).stdout.strip()
    except OSError:
        version = ""
    if version != OPENCODE_VERSION:
        pytest.skip(f"opencode {OPENCODE_VERSION} not installed: run scripts/setup-e2e.sh"
                    f" (looked for {OPENCODE}{', found ' + version if version else ''})")
    return OPENCODE


@pytest.fixture(scope="session")
def codex_cli() -> Path:
    """The pinned Codex CLI; the test is skipped when it is not installed."""
    try:  # the npm launcher is a node script: node is looked for on the PATH
        version = subprocess.run([str(CODEX), "--version"], capture_output=True, text=True, timeout=60,
                                 env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}).stdout.strip()
    except OSError:
        version = ""
    if version != f"codex-cli {CODEX_VERSION}":
        pytest.skip(f"Codex CLI {CODEX_VERSION} not installed: run scripts/setup-e2e.sh"
                    f" (looked for {CODEX}{', found ' + version if version else ''})")
    return CODEX


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
