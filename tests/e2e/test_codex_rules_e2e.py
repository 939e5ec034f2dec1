"""Codex's own rules, and the command and script rules as they hold for Codex, on the real Codex,
each broken hook beside its corrected twin, in one session: every hook's script acts only on the
shell call that names its case, so one `codex exec` with one call per case shows which calls each
hook blocked or rewrote, and doctor, run on the same project, must name every broken hook and none
of the twins (docs/hosts/codex.md#output-protocol, #rewriting-input, #file-format,
#command-execution). The session starts in a subfolder of the project, as a teammate's may."""
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
EXIT_2 = "print('not here', file=sys.stderr)\nsys.exit(2)\n"
SHELL_EXIT_2 = 'case "$(cat)" in *{case}*) echo "not here" >&2; exit 2;; esac\n'
BASH_EXIT_2 = 'if [[ "$(cat)" == *{case}* ]]; then echo "not here" >&2; exit 2; fi\n'  # (bash's [[ ]]: sh has none)
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
    # continue-good's deny, then exit 1: Codex reads the JSON on exit 0 alone
    "deny-exit1-bad": ("PreToolUse", f"print(json.dumps({DENY!r}))\nsys.exit(1)\n", True, "script/exit-1-fails-open"),
    # continue-good's deny with its decision's key spelt the input's way: a field Codex does not know
    "misspelt-bad": ("PreToolUse", "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
                     "'permission_decision': 'deny', 'permissionDecisionReason': 'not here'}}))\n", True,
                     "script/misspelt-field"),
    # text on stdout before the deny: not one JSON object, so no answer (its twin prints it on stderr)
    "chatty-bad": ("PreToolUse", f"print('checking the call')\nprint(json.dumps({DENY!r}))\n", True,
                   "script/text-before-json"),
    "chatty-good": ("PreToolUse", f"print('checking the call', file=sys.stderr)\nprint(json.dumps({DENY!r}))\n",
                    False, None),
    # exit-2-good's script, run by a command that hands Codex another status, or drops its stderr
    "swallowed-bad": ("PreToolUse", EXIT_2, True, "command/block-swallowed"),
    "diverted-bad": ("PreToolUse", EXIT_2, True, "script/exit-2-without-reason"),
    # continue-good's deny, after an echo on the same stdout
    "beside-bad": ("PreToolUse", f"print(json.dumps({DENY!r}))\n", True, "command/text-beside-answer"),
    # run by a bash wrapper whose last command sets its status (its twin passes the script's on)
    "wrapped-bad": ("PreToolUse", EXIT_2, True, "delivery/exit-2-lost"),
    "wrapped-good": ("PreToolUse", EXIT_2, False, None),
    # a shell guard by a path relative to the session's folder (the subfolder: not found, exit 127),
    # its twin from the top of the work tree; a user hook's from its own folder, its twin absolute
    "relative-bad": ("PreToolUse", SHELL_EXIT_2, True, "command/relative-path"),
    "relative-good": ("PreToolUse", SHELL_EXIT_2, False, None),
    "user-relative-bad": ("PreToolUse", SHELL_EXIT_2, True, "command/relative-path"),
    "user-relative-good": ("PreToolUse", SHELL_EXIT_2, False, None),
    # a shell guard whose script is not there (bash exits 127: a failed hook); its twin: relative-good
    "missing-bad": ("PreToolUse", None, True, "command/script-missing"),
    # continue-good's deny and exit2-good's refusal on PostToolUse, after the command ran
    "post-deny-bad": ("PostToolUse", f"print(json.dumps({DENY!r}))\n", True, "script/guard-after-the-call"),
    "post-guard-exit2-bad": ("PostToolUse", EXIT_2, True, "script/guard-after-the-call"),
    # continue-good's deny, its script named through Claude Code's project variable (empty under
    # Codex); a script that builds a path from it itself, and its twin with a default
    "projectdir-bad": ("PreToolUse", SHELL_EXIT_2, True, "script/variable-of-another-host"),
    "projectdir-script-bad": ("PreToolUse", "import os\npolicy = os.environ['CLAUDE_PROJECT_DIR'] + '/AGENTS.md'\n"
                              f"print(json.dumps({DENY!r}))\n", True, "script/variable-of-another-host"),
    # continue-good's deny with a field Codex's answer does not have (Claude Code ignores it), with
    # its decision at the top level, and without hookEventName: each a whole answer Codex rejects
    "unknown-field-bad": ("PreToolUse", "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
                          "'permissionDecision': 'deny', 'permissionDecisionReason': 'not here', 'reason': 'not here'}}))\n",
                          True, "script/answer-rejected"),
    "top-level-bad": ("PreToolUse", "print(json.dumps({'permissionDecision': 'deny', "
                      "'permissionDecisionReason': 'not here'}))\n", True, "script/answer-rejected"),
    "no-event-name-bad": ("PreToolUse", "print(json.dumps({'hookSpecificOutput': {'permissionDecision': 'deny', "
                          "'permissionDecisionReason': 'not here'}}))\n", True, "script/answer-rejected"),
    # bash's [[ ]] in a guard the command runs with sh (dash here: `[[: not found`, the test false); its twin with bash
    "sh-bash-bad": ("PreToolUse", BASH_EXIT_2, True, "script/bash-only-syntax"),
    "sh-bash-good": ("PreToolUse", BASH_EXIT_2, False, None),
    # continue-good's deny written on stderr, with exit 0: Codex reads the answer from stdout alone
    "stderr-json-bad": ("PreToolUse", f"sys.stderr.write(json.dumps({DENY!r}) + '\\n')\n", True,
                        "script/answer-on-stderr"),
    "projectdir-script-good": ("PreToolUse", "import os\npolicy = os.environ.get('CLAUDE_PROJECT_DIR', os.getcwd()) "
                               f"+ '/AGENTS.md'\nprint(json.dumps({DENY!r}))\n", False, None),
}
AT_THE_HANDLER = {"host/hook-never-loaded", "script/async-answer-never-read", "command/block-swallowed",
                  "command/text-beside-answer", "command/relative-path", "command/script-missing",
                  "script/guard-after-the-call"}  # (in hooks.json)
FOUND_IN = {"diverted-bad": "hooks.json", "wrapped-bad": "wrapped-bad.sh", "sh-bash-bad": "sh-bash-bad.sh",
            "projectdir-bad": "hooks.json"}  # (where else a case's finding is)
TREE = '"$(git rev-parse --show-toplevel)"/.codex/hooks'  # (a project's script, from wherever the session is)
# how a case's command differs from `python3 TREE/<case>.py` ({script}: that), and where it is configured
COMMANDS = {"swallowed-bad": "{script} || true", "diverted-bad": "{script} 2>/dev/null",
            "beside-bad": "echo checking && {script}",
            "wrapped-bad": f"bash {TREE}/wrapped-bad.sh", "wrapped-good": f"bash {TREE}/wrapped-good.sh",
            "relative-bad": "bash .codex/hooks/relative-bad.sh", "relative-good": f"bash {TREE}/relative-good.sh",
            "user-relative-bad": "bash .codex/hooks/user-relative-bad.sh",
            "user-relative-good": "bash {home}/.codex/hooks/user-relative-good.sh",
            "missing-bad": f"bash {TREE}/missing-bad.sh",
            "projectdir-bad": 'bash "$CLAUDE_PROJECT_DIR"/.codex/hooks/projectdir-bad.sh',
            "sh-bash-bad": f"sh {TREE}/sh-bash-bad.sh", "sh-bash-good": f"bash {TREE}/sh-bash-good.sh"}
USER_CASES = {"user-relative-bad", "user-relative-good"}  # (in $CODEX_HOME/hooks.json, their scripts beside it)
WRAPPERS = {"wrapped-bad": 'python3 "$(dirname "$0")/wrapped-bad.py"\necho checked >&2\n',
            "wrapped-good": 'python3 "$(dirname "$0")/wrapped-good.py"\nstatus=$?\necho checked >&2\nexit $status\n'}
# how a case's group differs from {"matcher": "Bash", "hooks": [{"type": "command", "command": ...}]}:
# an async handler (its twin in the foreground), a matcher null or left out (every tool)
GROUPS = {"background-bad": {"async": True}, "background-exit2-bad": {"async": True},
          "background-good": {"async": False}, "null-matcher-good": {"matcher": None}, "no-matcher-good": {"matcher": ...}}


def test_each_broken_codex_hook_lets_its_call_through_and_doctor_names_it_and_none_of_the_twins(
        codex_cli, home, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".codex" / "hooks").mkdir(parents=True)
    (repo / "sub").mkdir()
    (home / ".codex" / "hooks").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    events: dict[str, dict[str, list]] = {"project": {}, "user": {}}
    for case, (event, answer, _, _) in CASES.items():
        folder = (home if case in USER_CASES else repo) / ".codex" / "hooks"
        if answer in (SHELL_EXIT_2, BASH_EXIT_2):
            (folder / f"{case}.sh").write_text(answer.format(case=case))
        elif answer is not None:
            (folder / f"{case}.py").write_text(HEAD.format(case=case) + answer)
        if case in WRAPPERS:
            (folder / f"{case}.sh").write_text("#!/bin/bash\n" + WRAPPERS[case])
        change = GROUPS.get(case, {})
        command = COMMANDS.get(case, "{script}").format(script=f"python3 {TREE}/{case}.py", home=home)
        handler = {"type": "command", "command": command,
                   **{key: value for key, value in change.items() if key != "matcher"}}
        group = {"matcher": change.get("matcher", "Bash"), "hooks": [handler]}
        scope = "user" if case in USER_CASES else "project"
        events[scope].setdefault(event, []).append({key: value for key, value in group.items() if value is not ...})
    (repo / ".codex" / "hooks.json").write_text(json.dumps({"hooks": events["project"]}, indent=2))
    (home / ".codex" / "hooks.json").write_text(json.dumps({"hooks": events["user"]}, indent=2))
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

    run = run_codex(repo / "sub", home, [*(shell(f"touch {case}.txt") for case in CASES), "done"],
                    bypass_hook_trust=True)

    ran = {case for case in CASES if (repo / "sub" / f"{case}.txt").exists()}
    assert ran == {case for case, (_, _, runs, _) in CASES.items() if runs}, (run.timed_out, run.stderr[-3000:])
    assert (repo / "sub" / "rewritten-good.txt").exists() and not (repo / "sub" / "rewritten-bad.txt").exists()

    doctor = hookwright("doctor", "--format", "json", home=home, project=repo)
    said = {(f["rule"], f["path"].split("/")[-1]) for f in json.loads(doctor.stdout)["findings"]
            if f["rule"] in {rule for *_, rule in CASES.values() if rule}}
    assert said == {(rule, "hooks.json" if rule in AT_THE_HANDLER else FOUND_IN.get(case, f"{case}.py"))
                    for case, (*_, rule) in CASES.items() if rule}


def test_a_python_guard_whose_script_is_missing_blocks_every_call_with_pythons_error_and_doctor_says_so(
        codex_cli, home, tmp_path):
    # python exits 2 for a missing script, its "can't open file" on stderr: Codex's block and its reason
    repo = tmp_path / "repo"
    (repo / ".codex" / "hooks").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".codex" / "hooks" / "present.py").write_text("import sys\nsys.stdin.read()\n")
    for name in ("gone", "present"):
        (repo / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": f"python3 {TREE}/{name}.py"}]}]}}))
        (home / ".codex").mkdir(exist_ok=True)
        (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

        run = run_codex(repo, home, [shell(f"touch {name}.txt"), "done"], bypass_hook_trust=True)

        assert (repo / f"{name}.txt").exists() == (name == "present")
        doctor = json.loads(hookwright("doctor", "--format", "json", home=home, project=repo).stdout)
        missing = [f["message"] for f in doctor["findings"] if f["rule"] == "command/script-missing"]
        if name == "gone":
            assert "can't open file" in run.outputs()[0]
            assert len(missing) == 1 and "which Codex reads as a block" in missing[0]
        else:
            assert missing == []
