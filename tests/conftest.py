"""Shared fixtures: every test runs with a home directory that cannot be written.

HOME points below /dev/null, so a test that forgets to choose a home fails loudly
instead of touching the developer's real ~/.claude. Tests that need a home take
the `home` fixture, which points HOME, the XDG dirs and CLAUDE_CONFIG_DIR's parent
at a temporary directory.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

UNUSABLE_HOME = "/dev/null/tests-must-use-the-home-fixture"
SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(autouse=True)
def _no_real_home(monkeypatch):
    for name in list(os.environ):
        if name.startswith(("XDG_", "CLAUDE", "HOOKWRIGHT_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", UNUSABLE_HOME)
    monkeypatch.setenv("USERPROFILE", UNUSABLE_HOME)


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
def shared() -> Path:
    """The team's ../shared folder; tests that need it skip with a reason where it is absent."""
    if not (SHARED / "corpus").is_dir():
        pytest.skip(f"../shared is not beside the repo ({SHARED}); corpus tests need it")
    return SHARED

