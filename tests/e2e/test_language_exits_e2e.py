"""Guards whose refusal the real Claude Code never receives because of how their language ends a
process or where their answer goes, and their corrected twins, all in two sessions.

Each guard refuses one Bash call of its own (`touch NAME.txt`) and lets every other pass, so the
guards of one project can share a session: the broken project lets each marked call run, the
twin project refuses each. Doctor flags each broken guard at the line marked `HERE` (in the
script, or in the settings where the fix is to the handler) and none of the twins. What the host
did is recorded in docs/hosts/claude-code.md#exit-status-on-the-way-out.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, run_claude

pytestmark = pytest.mark.e2e

DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "no touching here"}}
HEAD = """\
import json, os, subprocess, sys, threading
call = json.load(sys.stdin)
if "touch %s.txt" not in call["tool_input"]["command"]:
    sys.exit(0)
"""
REFUSE = 'print("Blocked: no touching here", file=sys.stderr)\nsys.exit(2)\n'

# name: (the broken guard's code after HEAD, its twin's), each refusing `touch NAME.txt`
SCRIPTS = {
    "thread": (
        f"def check():\n    {REFUSE.replace(chr(10), chr(10) + '    ').rstrip()}\n"
        "worker = threading.Thread(target=check)  # HERE\nworker.start()\nworker.join()\n",
        f"from concurrent.futures import ThreadPoolExecutor\ndef check():\n    {REFUSE.replace(chr(10), chr(10) + '    ').rstrip()}\n"
        "with ThreadPoolExecutor() as pool:\n    pool.submit(check).result()\n"),
    "quick_exit": (
        f"print(json.dumps({DENY!r}))\nos._exit(0)  # HERE\n",
        f"print(json.dumps({DENY!r}))\nsys.stdout.flush()\nos._exit(0)\n"),
    "message": (
        "reasons = ['no touching here']\nsys.exit('Blocked: ' + '; '.join(reasons))  # HERE\n",
        "reasons = ['no touching here']\nprint('Blocked: ' + '; '.join(reasons), file=sys.stderr)\nsys.exit(2)\n"),
    "git_status": (
        f"subprocess.run(['git', '-C', call['cwd'], 'status'])  # HERE\nprint(json.dumps({DENY!r}))\n",
        f"subprocess.run(['git', '-C', call['cwd'], 'status'], capture_output=True)\nprint(json.dumps({DENY!r}))\n"),
    "background": (REFUSE, REFUSE),  # run by an async handler (the twin's is not)
    "after": (REFUSE, REFUSE),  # run on PostToolUse (the twin's on PreToolUse)
}
# script: the rule doctor reports the broken one with
RULES = {"thread": "delivery/exit-2-lost", "quick_exit": "delivery/output-lost-at-exit",
         "message": "script/exit-1-fails-open", "git_status": "script/text-before-json",
         "background": "script/async-answer-never-read", "after": "script/exit-2-does-not-block"}
AT_THE_HANDLER = {"background": '"async"', "after": '"PostToolUse"'}  # found at this key of the settings


def _handler(name: str, twin: bool) -> dict:
    command = f'{shlex.quote(sys.executable)} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}.py'
    return {"type": "command", "command": command, **({"async": True} if name == "background" and not twin else {})}


def _project(project, twin: bool) -> str:
    """The project's guards and settings; the settings' text."""
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    for name, (broken, fixed) in SCRIPTS.items():
        (hooks / f"{name}.py").write_text(HEAD % name + (fixed if twin else broken))
    before = [_handler(name, twin) for name in SCRIPTS if twin or name != "after"]
    config = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": before}]}}
    if not twin:
        config["hooks"]["PostToolUse"] = [{"matcher": "Bash", "hooks": [_handler("after", twin)]}]
    text = json.dumps(config, indent=2)
    (project / ".claude" / "settings.json").write_text(text)
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # (git status has something to say)
    return text


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
def test_a_refusal_lost_by_how_the_language_ends_or_where_it_answers_is_what_doctor_flags(
        claude_cli, home, project, twin):
    settings = _project(project, twin)
    calls = [{"tool": "Bash", "input": {"command": f"touch {name}.txt"}} for name in SCRIPTS]
    run = run_claude(project, home, calls, claude=claude_cli, timeout=180)
    assert run.returncode == 0, run.stderr
    # what the real CLI did with each guard's answer (Claude Code CLAUDE_VERSION)
    ran = {name for name in SCRIPTS if (project / f"{name}.txt").exists()}
    assert ran == (set() if twin else set(SCRIPTS)), (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    flagged = {(f["rule"], f["path"].rsplit("/", 1)[1], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in RULES.values()}
    expected = set()
    for name, rule in RULES.items() if not twin else ():
        if name in AT_THE_HANDLER:
            line = next(n for n, text in enumerate(settings.splitlines(), 1) if AT_THE_HANDLER[name] in text)
            expected.add((rule, "settings.json", line))
        else:
            text = (HEAD % name + SCRIPTS[name][0]).splitlines()
            expected.add((rule, f"{name}.py", next(n for n, line in enumerate(text, 1) if "HERE" in line)))
    assert flagged == expected
