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


# Three gates that mean to refuse every Bash call, each broken in a way doctor reads from its
# script, and the corrected twin of one: the real Claude Code runs the call past each broken gate.
TEXT_BEFORE_JSON = """\
import json, sys
json.load(sys.stdin)
print("checking the command")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                         "permissionDecisionReason": "no"}}))
"""
EXIT_1 = """\
import json, sys
json.load(sys.stdin)
sys.exit("Blocked: no shell commands here")
"""
TABLE_VALUE = """\
import json, sys
VERDICTS = {"Bash": "block", "Read": "allow"}
event = json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                         "permissionDecision": VERDICTS[event["tool_name"]]}}))
"""
EXIT_2 = EXIT_1.replace('sys.exit("Blocked: no shell commands here")',
                        'print("Blocked: no shell commands here", file=sys.stderr)\nsys.exit(2)')


@pytest.mark.parametrize("script, rule, gate_holds", [
    (TEXT_BEFORE_JSON, "script/text-before-json", False),
    (EXIT_1, "script/exit-1-fails-open", False),
    (TABLE_VALUE, "script/invalid-decision-value", False),
    (EXIT_2, None, True),
], ids=["text before the JSON", "sys.exit with a message", "a decision from a table", "exit 2 (the fix)"])
def test_doctor_reports_the_gates_the_real_claude_code_lets_through(claude_cli, home, project, script, rule,
                                                                    gate_holds):
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "gate.py").write_text(script)
    command = f'{shlex.quote(sys.executable)} "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.py'
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}))

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.txt"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != gate_holds  # what the real CLI did with the gate's answer

    doctor = hookwright("doctor", "--format", "json", "--probe", home=home, project=project)
    findings = json.loads(doctor.stdout)["findings"]
    script_rules = {f["rule"] for f in findings if f["rule"].startswith("script/") and not f["rule"].startswith(
        "script/probe")}
    if rule is None:
        assert not script_rules
    else:
        (found,) = [f for f in findings if f["rule"] == rule]
        assert found["path"].endswith("gate.py") and found["confirmed_by_probe"], found
