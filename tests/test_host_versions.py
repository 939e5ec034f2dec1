"""The agents' versions are one input (installer/hosts/versions.toml), read by setup-e2e.sh, the
e2e tests and doctor, and each release installs into a folder of its own."""
import subprocess
import sys
from pathlib import Path

import pytest
from hookwright import hosts
from hookwright.hosts import versions


def test_every_agent_that_runs_here_has_one_pinned_release_read_through_its_host():
    assert set(versions.pins()) == {"claude", "opencode", "codex"}
    assert hosts.get("claude").pin == versions.pin("claude")
    assert hosts.get("cursor").pin is None  # Cursor's agent cannot run here


def test_two_releases_of_one_agent_install_into_folders_side_by_side(tmp_path):
    pinned = versions.wanted("claude")
    other = versions.wanted("claude@2.1.328")

    assert other.version == "2.1.328" and pinned.version != other.version
    assert pinned.folder(tmp_path) != other.folder(tmp_path)
    assert other.executable(tmp_path) == tmp_path / "claude" / "2.1.328" / "node_modules" / "@anthropic-ai" \
        / "claude-code" / "bin" / "claude.exe"


def test_a_release_is_told_by_what_its_version_option_prints():
    claude = versions.wanted("claude@2.1.332")

    assert claude.says_it_is("2.1.332 (Claude Code)\n")
    assert not claude.says_it_is("2.1.328 (Claude Code)")
    assert versions.wanted("opencode@1.18.33").says_it_is("1.18.33")


def test_an_agent_without_a_pin_is_refused_with_the_ones_there_are():
    with pytest.raises(SystemExit, match="agents: claude, opencode, codex"):
        versions.wanted("gemini@1.0")


def test_the_module_runs_as_a_script_without_the_package_and_prints_what_setup_e2e_reads(tmp_path):
    """scripts/setup-e2e.sh runs it with a bare python3, before any virtual environment exists."""
    done = subprocess.run([sys.executable, "-I", "-S", str(Path(versions.__file__)), "--root", str(tmp_path),
                           "claude@2.1.328"], capture_output=True, text=True, check=True)

    host, npm, version, folder, executable, expected = done.stdout.rstrip("\n").split(" ", 5)
    assert (host, npm, version, expected) == ("claude", "@anthropic-ai/claude-code", "2.1.328", "2.1.328 (Claude Code)")
    assert Path(folder) == tmp_path / "claude" / "2.1.328" and Path(executable).is_relative_to(Path(folder))
