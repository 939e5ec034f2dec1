"""Answers and names the host reads otherwise than their author meant, checked on the real agents
(Claude Code, Codex): a key spelt otherwise than the field (in the hook, or in a module of its own
it imports), a test that can never be true, a matcher naming a tool Codex's hooks never see, an
answer Codex rejects; and what doctor says about each broken hook and its corrected twin."""
from __future__ import annotations

import json
import shlex
import sys

import pytest
from claude_cli import hookwright, run_claude
from codex_cli import run_codex, shell

pytestmark = pytest.mark.e2e

# a helper module that builds the answer, imported by the hook (the key is spelt by the test)
HELPER = """\
export function answer(payload, decision, reason) {
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      %s: payload.hook_event_name,
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  }));
}
"""
IMPORTING_HOOK = """\
import { answer } from "./helper.mjs";
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
answer(JSON.parse(raw), "deny", "no shell commands here");
"""
SPELT_HOOK = """\
import json, sys
json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "%s": "deny",
                                         "permissionDecisionReason": "no shell commands here"}}))
"""


def _configure(project, command: str) -> None:
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}))


def _script_findings(home, project) -> list[dict]:
    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    return [f for f in json.loads(doctor.stdout)["findings"] if f["rule"].startswith("script/")]


@pytest.mark.parametrize("key, gate_holds", [("hook_event_name", False), ("hookEventName", True)],
                         ids=["snake_case in the helper", "hookEventName (the fix)"])
def test_an_event_name_spelt_in_an_imported_helper_voids_the_deny_and_doctor_points_at_the_helper(
        claude_cli, home, project, key, gate_holds):
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "helper.mjs").write_text(HELPER % key)
    (hooks / "gate.mjs").write_text(IMPORTING_HOOK)
    _configure(project, 'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.mjs')

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.txt"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != gate_holds  # what the real CLI did with the answer

    found = _script_findings(home, project)
    if gate_holds:
        assert not found
    else:
        assert [(f["rule"], f["path"].rsplit("/", 1)[-1], f["line"]) for f in found] == [
            ("script/no-event-name", "helper.mjs", 4)]


@pytest.mark.parametrize("key, gate_holds", [("permission_decision", False), ("PermissionDecision", False),
                                             ("permissionDecision", True)],
                         ids=["snake_case", "another case", "permissionDecision (the fix)"])
def test_a_decision_key_spelt_otherwise_lets_the_call_run_and_doctor_names_the_field(
        claude_cli, home, project, key, gate_holds):
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "gate.py").write_text(SPELT_HOOK % key)
    _configure(project, f'{shlex.quote(sys.executable)} "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.py')

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.txt"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != gate_holds

    found = _script_findings(home, project)
    if gate_holds:
        assert not found
    else:
        assert [(f["rule"], f["line"]) for f in found] == [("script/misspelt-field", 3)]
        assert '"permissionDecision"' in found[0]["hint"]


# a guard that means to refuse `touch ran.txt`, its test written each way (bad forms, then the fixes)
SHELL_GUARD = """\
#!/bin/bash
cmd=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["tool_input"]["command"])')
%s
  echo "no touching here" >&2
  exit 2
fi
exit 0
"""
PYTHON_GUARD = """\
import json, sys
command = json.load(sys.stdin)["tool_input"]["command"]
if %s:
    print("no touching here", file=sys.stderr)
    sys.exit(2)
"""


@pytest.mark.parametrize("language, test, kind", [
    ("shell", 'if [ "$cmd" == *"touch ran"* ]; then', "single-bracket"),
    ("shell", 'if [[ $cmd == "*touch ran*" ]]; then', "quoted-pattern"),
    ("shell", 'if [[ $cmd =~ "^touch\\s+ran" ]]; then', "quoted-regex"),
    ("python", '"touch ran.txt" in command.split()', "split"),
    ("shell", 'if [[ $cmd == *"touch ran"* ]]; then', None),
    ("shell", 'if [[ $cmd =~ ^touch[[:space:]]+ran ]]; then', None),
    ("python", '"touch ran.txt" in command', None),
], ids=["[ ] with a glob", "[[ ]] with a quoted glob", "=~ with a quoted regex", "a phrase among split words",
        "[[ ]] glob (the fix)", "=~ unquoted (the fix)", "a phrase in the string (the fix)"])
def test_a_guard_whose_test_can_never_be_true_lets_the_call_run_and_doctor_points_at_the_test(
        claude_cli, home, project, language, test, kind):
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    if language == "shell":
        (hooks / "guard.sh").write_text(SHELL_GUARD % test)
        (hooks / "guard.sh").chmod(0o755)
        command = 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'
    else:
        (hooks / "guard.py").write_text(PYTHON_GUARD % test)
        command = f'{shlex.quote(sys.executable)} "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py'
    _configure(project, command)

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.txt"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() == (kind is not None)  # the broken test lets it through

    found = [f for f in _script_findings(home, project) if f["rule"] == "script/test-never-true"]
    assert [(f["line"]) for f in found] == ([3] if kind else [])


# ---- Codex: the names its hooks see and the answers it rejects ----------------------------------------

CODEX_GUARD = """\
import json, sys
command = json.load(sys.stdin)["tool_input"]["command"]
if "touch ran" in command:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "%s",
                                             "permissionDecisionReason": "no touching here"}}))
"""


def _codex_findings(home, project, rule: str) -> list[dict]:
    done = hookwright("doctor", "--format", "json", home=home, project=project, env={"CODEX_HOME": None})
    return [f for f in json.loads(done.stdout)["findings"] if f["rule"] == rule]


def _codex_guard(home, project, matcher: str, decision: str) -> None:
    script = project / "guard.py"
    script.write_text(CODEX_GUARD % decision)
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    (home / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": matcher, "hooks": [{"type": "command", "command": f"{shlex.quote(sys.executable)} {script}"}]}]}}))


@pytest.mark.parametrize("matcher, variant", [("shell|exec_command", "renamed"), ("bash", "case"), ("Bash", None)],
                         ids=["the model's tool names", "Bash in lower case", "Bash (the fix)"])
def test_a_codex_matcher_naming_a_tool_its_hooks_never_see_never_runs_and_doctor_says_so(
        codex_cli, home, project, matcher, variant):
    _codex_guard(home, project, matcher, "deny")
    run = run_codex(project, home, [shell("touch ran.txt"), "done"], bypass_hook_trust=True)
    assert (project / "ran.txt").exists() == (variant is not None), run.stderr

    found = _codex_findings(home, project, "matcher/tool-renamed")
    assert len(found) == (variant is not None)
    if variant:
        assert found[0]["path"].endswith("hooks.json") and '"Bash"' in found[0]["message"]


@pytest.mark.parametrize("decision, rejected", [("ask", True), ("deny", False)], ids=["ask", "deny (the fix)"])
def test_an_answer_codex_rejects_lets_the_call_run_and_doctor_points_at_it(codex_cli, home, project, decision,
                                                                           rejected):
    _codex_guard(home, project, "Bash", decision)
    run = run_codex(project, home, [shell("touch ran.txt"), "done"], bypass_hook_trust=True)
    assert (project / "ran.txt").exists() == rejected, run.stderr

    found = _codex_findings(home, project, "script/answer-rejected")
    assert [(f["path"].rsplit("/", 1)[-1], f["line"]) for f in found] == ([("guard.py", 4)] if rejected else [])
