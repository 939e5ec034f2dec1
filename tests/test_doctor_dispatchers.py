"""Dispatchers that run several guards as child processes, and scripts whose answer never reaches
the host as one JSON object (tests/dispatchers.py holds the cases): each case is run the way
Claude Code runs it, so a broken one really lets the call through and its twin really refuses it
(tests/e2e/test_dispatchers_e2e.py shows the real CLI doing so), and doctor names the broken one
at the line to change and stays quiet on the twin."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from dispatchers import CASES, RUNNERS, command, files, marked_line
from doctor_support import doctor, settings
from hookwright.doctor.scripts import delivery, delivery_javascript

PAYLOAD = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "touch ran-gate.txt"}})


def _refused(base: Path, run: str) -> bool:
    """What the host would make of the hook's run: refused by exit 2, or by stdout that is one
    JSON object with a PreToolUse deny."""
    done = subprocess.run(["sh", "-c", run], input=PAYLOAD, text=True, capture_output=True, timeout=60, cwd=base,
                          env={**os.environ, "CLAUDE_PROJECT_DIR": str(base)})
    if done.returncode == 2:
        return True
    try:
        answer = json.loads(done.stdout) if done.stdout.strip() else {}
    except json.JSONDecodeError:
        return False  # (two objects, or text: plain text to the host)
    said = answer.get("hookSpecificOutput", {})  # (named for another event, the whole object is discarded)
    return said.get("hookEventName") == "PreToolUse" and said.get("permissionDecision") == "deny"


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_dispatcher_or_script_whose_refusal_never_reaches_the_host_is_named_at_the_line_to_change(
        tmp_path, name, twin):
    base = tmp_path / "project"
    hooks = base / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    for path, text in files(name, twin, "gate").items():
        (hooks / path).parent.mkdir(parents=True, exist_ok=True)
        (hooks / path).write_text(text)
    run = command(name, "gate")
    assert _refused(base, run) == twin
    rule, main = CASES[name][0], CASES[name][1].replace("TOKEN", "gate")
    flagged = [(Path(f.path).name, f.line) for f in doctor(base, {".claude/settings.json": settings(command=run)}).findings
               if f.rule == rule]
    assert flagged == ([] if twin else [(main, marked_line(name))])


def _javascript(code: str) -> tuple[delivery.Lost, ...]:
    from hookwright.doctor.scripts.flow import _balanced, _close

    lines = code.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def place(offset: int) -> tuple[int, int]:
        row = max(i for i, start in enumerate(starts) if start <= offset)
        return row + 1, offset - starts[row] + 1

    return delivery_javascript.javascript(code, place, _close, _balanced)


@pytest.mark.parametrize("loop", [
    "for (const g of ['a.py', 'b.py']) {\n",
    "const GUARDS = ['a.py', 'b.py'];\nfor (const g of GUARDS) {\n",
    "['a.py', 'b.py'].forEach((g) => {\n",
], ids=["over a literal", "over a named array", "forEach"])
def test_a_node_loop_runs_each_script_its_list_names(loop):
    code = loop + "  try {\n    execFileSync('python3', [g]);\n  } catch (e) {\n    failed = true;\n  }\n}\n"
    assert sorted(lost.child for lost in _javascript(code) if lost.rule == "exit-2-lost") == ["a.py", "b.py"]


def test_a_status_only_logged_in_a_catch_is_not_passed_on():
    code = ("for (const g of ['a.py', 'b.py']) {\n  try {\n    execFileSync('python3', [g]);\n  } catch (e) {\n"
            "    console.error(`failed: ${e.status}`);\n  }\n}\n")
    assert {lost.line for lost in _javascript(code)} == {4}
    assert _javascript(code.replace("console.error(`failed: ${e.status}`)", "process.exit(e.status)")) == ()


# a script that answers each of its two events in a branch of its own; %s: the names each branch writes
BRANCHED = {
    "h.py": """import json, sys
call = json.load(sys.stdin)
event = call.get("hook_event_name")
if event == "PreToolUse":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "%s", "permissionDecision": "deny",
                                             "permissionDecisionReason": "no"}}))
elif event == "PostToolUse":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "%s", "additionalContext": "checked"}}))
""",
    "h.js": """const call = JSON.parse(require('fs').readFileSync(0, 'utf8'));
switch (call.hook_event_name) {
  case 'PreToolUse':
    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: '%s', permissionDecision: 'deny',
      permissionDecisionReason: 'no' } }));
    break;
  case 'PostToolUse':
    console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: '%s', additionalContext: 'checked' } }));
    break;
}
""",
    "h.sh": """#!/bin/bash
input=$(cat)
event=$(printf '%%s' "$input" | jq -r .hook_event_name)
case "$event" in
  PreToolUse)
    echo '{"hookSpecificOutput": {"hookEventName": "%s", "permissionDecision": "deny", "permissionDecisionReason": "no"}}'
    ;;
  PostToolUse)
    echo '{"hookSpecificOutput": {"hookEventName": "%s", "additionalContext": "checked"}}'
    ;;
esac
""",
}


@pytest.mark.parametrize("swapped", [True, False], ids=["names swapped", "each its own"])
@pytest.mark.parametrize("script", list(BRANCHED))
def test_the_event_name_each_branch_of_a_script_answers_with_is_judged_against_the_event_that_branch_runs_on(
        tmp_path, script, swapped):
    names = ("PostToolUse", "PreToolUse") if swapped else ("PreToolUse", "PostToolUse")
    text = BRANCHED[script] % names
    run = f'{RUNNERS[script[script.index("."):]]} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{script}'
    config = {"hooks": {event: [{"matcher": "Bash", "hooks": [{"type": "command", "command": run}]}]
                        for event in ("PreToolUse", "PostToolUse")}}
    found = [(f.line, f.message.split(":")[0]) for f in doctor(tmp_path, {f".claude/hooks/{script}": text,
                                                                          ".claude/settings.json": config}).findings
             if f.rule == "script/wrong-event-name"]
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "permissionDecision" in row)
    assert found == ([(line, 'hookSpecificOutput names "PostToolUse" in the part of the script that runs on '
                             'PreToolUse (its test of hook_event_name)')] if swapped else [])


BY_ARGUMENT = {  # one helper writes every answer; the script's argument says which part runs
    "modes.py": """\
import json, sys
mode = sys.argv[1] if len(sys.argv) > 1 else "pre"
call = json.load(sys.stdin)
def answer(extra):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": %s, **extra}}))
if mode == "pre" and "ran-gate.txt" in call["tool_input"]["command"]:
    answer({"permissionDecision": "deny", "permissionDecisionReason": "no"})
elif mode == "post":
    answer({"additionalContext": "checked"})
""",
    "modes.sh": """\
#!/bin/bash
input=$(cat)
answer() {
  printf '{"hookSpecificOutput": {"hookEventName": %s, %%s}}\\n' "$1"
}
case "$1" in
  pre) case "$input" in *ran-gate.txt*) answer '"permissionDecision": "deny", "permissionDecisionReason": "no"' ;; esac ;;
  post) answer '"additionalContext": "checked"' ;;
esac
""",
}


@pytest.mark.parametrize("fixed", [False, True], ids=["one name for every mode", "the event handed in"])
@pytest.mark.parametrize("script", list(BY_ARGUMENT))
def test_a_script_told_its_event_by_an_argument_is_judged_per_handler_by_the_name_its_run_can_write(
        tmp_path, script, fixed):
    name = ('call["hook_event_name"]' if script.endswith(".py") else '"\'"$(jq -r .hook_event_name <<<"$input")"\'"') \
        if fixed else '"PostToolUse"'
    text = BY_ARGUMENT[script] % name
    (tmp_path / ".claude" / "hooks").mkdir(parents=True)
    (tmp_path / ".claude" / "hooks" / script).write_text(text)
    run = f'{RUNNERS[script[script.index("."):]]} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{script}'
    assert _refused(tmp_path, f"{run} pre") == fixed
    config = {"hooks": {event: [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"{run} {mode}"}]}]
                        for event, mode in (("PreToolUse", "pre"), ("PostToolUse", "post"))}}
    found = [(f.line, f.message.split(" (")[0]) for f in doctor(tmp_path, {".claude/settings.json": config}).findings
             if f.rule == "script/wrong-event-name"]
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "hookEventName" in row)
    assert found == ([] if fixed else [(line, 'hookSpecificOutput names "PostToolUse" for every answer the PreToolUse '
                                              "hook's run writes")])


@pytest.mark.parametrize("spawn, read, lost", [
    ("require('child_process').spawnSync('python3', ['guard.py'], { input })", "r.status", False),
    ("require('child_process').spawnSync('python3', ['guard.py'], { input })", "r.exitCode", True),
    ("require('child_process').spawnSync('python3', ['guard.py'], { input })", "r.code", True),
    # Bun's SyncSubprocess holds exitCode and success (Bun's reference: bun is not installed here)
    ("Bun.spawnSync(['python3', 'guard.py'], { stdin: input })", "r.exitCode", False),
    ("Bun.spawnSync(['python3', 'guard.py'], { stdin: input })", "r.status", True),
])
def test_a_childs_status_read_by_the_name_its_runtime_gives_it(spawn, read, lost):
    code = f"const input = require('fs').readFileSync(0);\nconst r = {spawn};\nprocess.exit({read});\n"
    found = [place for place in _javascript(code) if place.rule == "exit-2-lost"]
    assert [(place.line, place.status) for place in found] == ([(3, "0")] if lost else [])
