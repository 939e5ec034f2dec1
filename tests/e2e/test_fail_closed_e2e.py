"""A guard installed to fail closed, in the real Claude Code CLI.

First the host fact the option is built on (docs/hosts/claude-code.md#handler-fields): a command
hook that fails (exit 1, neither 0 nor 2) lets the Bash call run, and the same hook with
`"onFailure": "block"` blocks it. Then git-guard installed with `--option on_failure=block`,
whose module no longer loads: its runtime blocks the call (exit 2) where the default install lets
it run; and whose script fails before the runtime can say anything: Claude Code blocks it.
"""
from __future__ import annotations

import json

import pytest
from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

STATUS = {"tool": "Bash", "input": {"command": "git status"}}


def _settings_with(project, handler: dict) -> None:
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [handler]}]}}))


@pytest.mark.parametrize("on_failure, blocked", [(None, False), ("continue", False), ("block", True)])
def test_a_failing_hook_blocks_the_call_only_with_on_failure_block(claude_cli, home, dirty_repo, on_failure, blocked):
    handler = {"type": "command", "command": "echo the hook broke >&2; exit 1", "timeout": 10}
    if on_failure is not None:
        handler["onFailure"] = on_failure
    _settings_with(dirty_repo, handler)

    run = run_claude(dirty_repo, home, [STATUS], claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [status] = run.tool_results
    assert status["is_error"] is blocked, status["content"]


@pytest.mark.parametrize("on_failure, blocked", [("continue", False), ("block", True)])
def test_git_guard_whose_module_does_not_load_blocks_only_when_installed_to_fail_closed(
        claude_cli, home, dirty_repo, on_failure, blocked):
    installed = hookwright("install", "git-guard", "--scope", "project", "--option", f"on_failure={on_failure}",
                           "--yes", home=home, project=dirty_repo)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    module = dirty_repo / ".claude" / "hookwright" / "git-guard" / "git_guard.py"
    module.write_text(module.read_text() + "\ndef broken(\n")

    run = run_claude(dirty_repo, home, [STATUS], claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [status] = run.tool_results
    assert status["is_error"] is blocked, status["content"]
    if blocked:
        assert "installed to fail closed" in status["content"]
    log = (home / ".local" / "state" / "hookwright" / "hooks.log").read_text()
    assert "git-guard cannot load its modules: SyntaxError" in log


def test_git_guard_whose_script_fails_before_the_runtime_speaks_is_blocked_by_claude_code(claude_cli, home, dirty_repo):
    installed = hookwright("install", "git-guard", "--scope", "project", "--option", "on_failure=block", "--yes",
                           home=home, project=dirty_repo)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    (dirty_repo / ".claude" / "hookwright" / "git-guard" / "git-guard").write_text("import sys\nsys.exit(1)\n")

    run = run_claude(dirty_repo, home, [STATUS], claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [status] = run.tool_results
    assert status["is_error"], status["content"]  # the exit 1 is a failure, and onFailure: block blocks it
