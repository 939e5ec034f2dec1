"""Codex's own rules on the real Codex, each broken hook beside its corrected twin, in one session:
every hook's script acts only on the shell call that names its case, so one `codex exec` with one
call per case shows which calls each hook blocked or rewrote, and doctor, run on the same project,
must name every broken hook and none of the twins (docs/hosts/codex.md#output-protocol,
#rewriting-input, #file-format)."""
from __future__ import annotations

import json
import subprocess

import pytest
from claude_cli import hookwright
from codex_cli import run_codex, shell, trust_toml

pytestmark = pytest.mark.e2e

HEAD = "import json, sys\ndata = json.load(sys.stdin)\nif {case!r} not in data['tool_input']['command']:\n    sys.exit(0)\n"
DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "not here"}}
# case -> (event key in hooks.json, the script's answer, whether its call runs as the model wrote it, the rule)
CASES = {
    "continue-bad": ("PreToolUse", "print(json.dumps({'continue': False, 'stopReason': 'not here'}))\n", True,
                     "script/answer-rejected"),
    "continue-good": ("PreToolUse", f"print(json.dumps({DENY!r}))\n", False, None),
    "exit2-bad": ("PreToolUse", "print('not here')\nsys.exit(2)\n", True, "script/exit-2-without-reason"),
    "exit2-good": ("PreToolUse", "print('not here', file=sys.stderr)\nsys.exit(2)\n", False, None),
    "exit1-bad": ("PreToolUse", "print('not here', file=sys.stderr)\nsys.exit(1)\n", True, "script/exit-1-fails-open"),
    "rewrite-bad": ("PostToolUse", "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', "
                    "'updatedInput': {'command': 'touch rewritten-bad.txt'}}}))\n", True, "script/rewrite-not-applied"),
    "rewrite-good": ("PreToolUse", "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
                     "'permissionDecision': 'allow', 'updatedInput': {'command': 'touch rewritten-good.txt'}}}))\n",
                     False, None),
    "event-bad": ("preToolUse", f"print(json.dumps({DENY!r}))\n", True, "host/hook-never-loaded"),
    "event-good": ("PreToolUse", f"print(json.dumps({DENY!r}))\n", False, None),
    "background-bad": ("PreToolUse", f"print(json.dumps({DENY!r}))\n", True, "script/async-answer-never-read"),
    "background-exit2-bad": ("PreToolUse", "print('not here', file=sys.stderr)\nsys.exit(2)\n", True,
                             "script/async-answer-never-read"),
    "background-good": ("PreToolUse", f"print(json.dumps({DENY!r}))\n", False, None),
    "null-matcher-good": ("PreToolUse", f"print(json.dumps({DENY!r}))\n", False, None),
    "no-matcher-good": ("PreToolUse", f"print(json.dumps({DENY!r}))\n", False, None),
}
AT_THE_HANDLER = {"host/hook-never-loaded", "script/async-answer-never-read"}  # (said in hooks.json, not the script)
# how a case's group differs from {"matcher": "Bash", "hooks": [{"type": "command", "command": ...}]}:
# an async handler (its twin in the foreground), a matcher null or left out (every tool)
GROUPS = {"background-bad": {"async": True}, "background-exit2-bad": {"async": True},
          "background-good": {"async": False}, "null-matcher-good": {"matcher": None}, "no-matcher-good": {"matcher": ...}}


def test_each_broken_codex_hook_lets_its_call_through_and_doctor_names_it_and_none_of_the_twins(
        codex_cli, home, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".codex" / "hooks").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    events: dict[str, list] = {}
    for case, (event, answer, _, _) in CASES.items():
        (repo / ".codex" / "hooks" / f"{case}.py").write_text(HEAD.format(case=case) + answer)
        change = GROUPS.get(case, {})
        handler = {"type": "command", "command": f"python3 .codex/hooks/{case}.py",
                   **{key: value for key, value in change.items() if key != "matcher"}}
        group = {"matcher": change.get("matcher", "Bash"), "hooks": [handler]}
        events.setdefault(event, []).append({key: value for key, value in group.items() if value is not ...})
    (repo / ".codex" / "hooks.json").write_text(json.dumps({"hooks": events}, indent=2))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

    run_codex(repo, home, [*(shell(f"touch {case}.txt") for case in CASES), "done"], bypass_hook_trust=True)

    ran = {case for case in CASES if (repo / f"{case}.txt").exists()}
    assert ran == {case for case, (_, _, runs, _) in CASES.items() if runs}
    assert (repo / "rewritten-good.txt").exists() and not (repo / "rewritten-bad.txt").exists()

    doctor = hookwright("doctor", "--format", "json", home=home, project=repo)
    said = {(f["rule"], f["path"].split("/")[-1]) for f in json.loads(doctor.stdout)["findings"]
            if f["rule"] in {rule for *_, rule in CASES.values() if rule}}
    assert said == {(rule, "hooks.json" if rule in AT_THE_HANDLER else f"{case}.py")
                    for case, (*_, rule) in CASES.items() if rule}
