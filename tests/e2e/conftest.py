"""Fixtures for tests that drive the real Claude Code CLI (marked ``e2e``).

The CLI's location is resolved when this module is imported (see claude_cli.CLAUDE),
before the autouse guard in tests/conftest.py strips HOOKWRIGHT_* and replaces HOME.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from claude_cli import CLAUDE, CLAUDE_VERSION


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
