"""What doctor says about copies of one hook, checked against what the real Claude Code runs.

One logging hook is configured three times: on Bash and on Read in the project's settings, and
on Bash again in settings.local.json. Claude Code runs it once per call among the copies that
match (claude-code-observed.md i), so the Read copy is needed and only the local Bash copy adds
nothing: doctor must call that one, and only that one, a duplicate.
"""
from __future__ import annotations

import json
import shlex
import sys

import pytest

from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

LOGGER = """\
import json, os, sys
event = json.load(sys.stdin)
with open(os.environ["CLAUDE_PROJECT_DIR"] + "/calls.log", "a") as log:
    log.write(event["tool_name"] + "\\n")
"""


def test_doctor_calls_a_copy_a_duplicate_only_where_claude_code_runs_it_once(claude_cli, home, project):
    script = project / "log_call.py"
    script.write_text(LOGGER)
    (project / "notes.txt").write_text("hello\n")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"

    def group(matcher: str) -> dict:
        return {"matcher": matcher, "hooks": [{"type": "command", "command": command}]}

    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [group("Bash"), group("Read")]}}, indent=2))
    (project / ".claude" / "settings.local.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [group("Bash")]}}, indent=2))

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "true"}},
                                     {"tool": "Read", "input": {"file_path": str(project / "notes.txt")}}],
                     claude=claude_cli)

    assert run.returncode == 0, run.stderr
    assert (project / "calls.log").read_text().split() == ["Bash", "Read"]  # each call once, Read included
    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    duplicates = [f for f in json.loads(doctor.stdout)["findings"] if f["rule"].startswith("conflict/duplicate")]
    assert [(f["rule"], f["path"]) for f in duplicates] == [
        ("conflict/duplicate-handler", str(project / ".claude" / "settings.local.json"))]
