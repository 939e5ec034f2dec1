"""The e2e harness itself, against the real CLI and without hookwright.

If these fail, an e2e failure elsewhere says nothing about hookwright: the CLI, the fake
model API or the way we start the CLI broke first.
"""
from __future__ import annotations

import json
import shlex
import sys

import pytest
from claude_cli import run_claude

pytestmark = pytest.mark.e2e

TOUCH = {"tool": "Bash", "input": {"command": "touch made.txt"}}

DENY_HOOK = """\
import json, sys
json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
    "permissionDecision": "deny", "permissionDecisionReason": "harness-deny-42"}}))
"""


def add_deny_hook(project):
    script = project / "deny_hook.py"
    script.write_text(DENY_HOOK)
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))


def test_a_project_pretooluse_hook_denies_the_bash_call(claude_cli, home, project):
    add_deny_hook(project)

    run = run_claude(project, home, [TOUCH], claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert result["is_error"]
    assert "harness-deny-42" in result["content"]
    assert not (project / "made.txt").exists()
    assert [d["tool_input"]["command"] for d in run.permission_denials] == ["touch made.txt"]


def test_without_a_hook_the_bash_call_runs(claude_cli, home, project):
    run = run_claude(project, home, [TOUCH], claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert not result["is_error"], result["content"]
    assert (project / "made.txt").exists()
    assert run.result["subtype"] == "success"
