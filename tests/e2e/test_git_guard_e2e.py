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


# ---- the rest of the family, the evasions, and a team's rules file --------------------------------

def bash(command: str) -> dict:
    return {"tool": "Bash", "input": {"command": command, "description": "run"}}


# (command, the rule that denies it) each as a model would send it; what it would destroy is checked after
FAMILY = [
    ("git push origin :feature", "push-delete"),
    ("g=git; $g reset --hard", "reset-hard"),
    ("bash <<'EOF'\ngit clean -fdx\nEOF", "clean-force"),
    ("git reflog expire --expire=now --all && git gc --prune=now", "reflog-expire"),
    ("echo feature | xargs git branch -D", "branch-force-delete"),
]


def assert_nothing_lost(project) -> None:
    import subprocess

    def out(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=project, capture_output=True, text=True, check=True).stdout

    assert (project / "a.txt").read_text() == "v2\n" and (project / "notes.txt").read_text() == "mine\n"
    assert "refs/heads/feature" in out("ls-remote", "origin")
    assert out("branch", "--list", "feature").strip() == "feature"
    assert out("reflog").strip()


def test_git_guard_denies_the_family_and_its_evasions_in_claude_code_and_reads_the_teams_file(claude_cli, home,
                                                                                               work_repo):
    project = work_repo
    scope = ("--scope", "project", "--project", str(project), "--yes")
    installed = hookwright("install", "git-guard", *scope, home=home, project=project)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    run = run_claude(project, home, [bash(command) for command, _ in FAMILY] + [bash("git stash list")],
                     claude=claude_cli)
    assert run.returncode == 0, run.stderr
    *denied, listed = run.tool_results
    for (command, rule), result in zip(FAMILY, denied):
        assert result["is_error"] and result["content"].rstrip().endswith(f"(rule {rule})"), (command, result)
    assert not listed["is_error"], listed["content"]
    assert_nothing_lost(project)

    (project / ".claude" / "hookwright-git-guard.json").write_text('{"rules": {"stash": []}}')  # the team's choice
    run = run_claude(project, home, [bash("git stash")], claude=claude_cli)
    [stash] = run.tool_results
    assert not stash["is_error"], stash["content"]
    assert (project / "a.txt").read_text() == "v1\n"  # stashed, as the project's file allows
