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
from dispatchers import CASES, command, files, marked_line
from doctor_support import doctor, settings
from hookwright.doctor.scripts import delivery

PAYLOAD = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "touch ran-gate.txt"}})


def _refused(base: Path, run: str) -> bool:
    """What the host would make of the hook's run: refused by exit 2, or by stdout that is one
    JSON object with a deny."""
    done = subprocess.run(["sh", "-c", run], input=PAYLOAD, text=True, capture_output=True, timeout=60, cwd=base,
                          env={**os.environ, "CLAUDE_PROJECT_DIR": str(base)})
    if done.returncode == 2:
        return True
    try:
        answer = json.loads(done.stdout) if done.stdout.strip() else {}
    except json.JSONDecodeError:
        return False  # (two objects, or text: plain text to the host)
    return answer.get("hookSpecificOutput", {}).get("permissionDecision") == "deny"


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

    return delivery.javascript(code, place, _close, _balanced)


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
