"""git-guard, installed by hookwright, in the real Claude Code CLI.

Installs the pack into a git project, lets the scripted model run ``git reset --hard``,
and checks both what the model was told and what happened to the work tree; then
uninstalls and checks that the same command goes through again.
"""
from __future__ import annotations

import pytest
from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

RESET = {"tool": "Bash", "input": {"command": "git reset --hard"}}
STATUS = {"tool": "Bash", "input": {"command": "git status"}}


def test_git_guard_denies_reset_hard_until_uninstalled(claude_cli, home, dirty_repo):
    project = dirty_repo
    scope = ("--scope", "project", "--project", str(project), "--yes")

    installed = hookwright("install", "git-guard", *scope, home=home, project=project)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert (project / ".claude" / "settings.json").is_file()

    run = run_claude(project, home, [RESET, STATUS], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    reset, status = run.tool_results
    assert reset["is_error"], reset["content"]
    assert "git-guard" in reset["content"]
    assert (project / "a.txt").read_text() == "v2\n"
    assert not status["is_error"], status["content"]
    assert "modified" in status["content"] or "a.txt" in status["content"]

    removed = hookwright("uninstall", "git-guard", *scope, home=home, project=project)
    assert removed.returncode == 0, removed.stdout + removed.stderr

    run = run_claude(project, home, [RESET], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    [reset] = run.tool_results
    assert not reset["is_error"], reset["content"]
    assert (project / "a.txt").read_text() == "v1\n"
