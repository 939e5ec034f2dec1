"""The script rules that judge what a hook does against its event's protocol
(installer/doctor/scripts/flow.py, checks/scripts/, installer/hosts/claude/protocol.py).

Every case is a script that really behaves that way: the test runs it on a payload for its event
and reads the answer the way Claude Code does (installer/hooks/answers.py, itself checked
against the real CLI in tests/e2e/test_simulate_conformance.py), then checks that doctor reports
the bad script and not the good one."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from doctor_support import doctor, found, settings
from hookwright.doctor.model import catalog
from hookwright.hooks.answers import RawRun, Reading, read

S = ".claude/settings.json"
CURSOR = ".cursor/hooks.json"
DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "no"}}
DENY_PY = f"print(json.dumps({DENY!r}))"
DENY_SH = f"echo '{json.dumps(DENY)}'"
DENY_JS = f"console.log(JSON.stringify({json.dumps(DENY)}));"
PY = "import json, sys\ndata = json.load(sys.stdin)\n"
SH = "#!/bin/bash\n"
JS = "const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
INTERPRETER = {".py": sys.executable, ".sh": "bash", ".js": "node", ".pl": "perl"}


def payload(event: str, **extra) -> dict:
    body = {"session_id": "t", "transcript_path": "/dev/null", "cwd": "/tmp", "hook_event_name": event}
    if event == "UserPromptSubmit":
        body["prompt"] = "my password is hunter2"
    if event in ("PreToolUse", "PostToolUse", "PermissionRequest", "PostToolUseFailure"):
        body.update(tool_name="Bash", tool_input={"command": "rm -rf /", "description": "d", "timeout": 1000})
    if event == "PostToolUse":
        body["tool_response"] = {"stdout": "error: no such file", "stderr": "", "interrupted": False}
    if event in ("Stop", "SubagentStop"):
        body.update(stop_hook_active=False, last_assistant_message="done")
    body.update(extra)
    return body


def behaviour(tmp_path: Path, name: str, text: str, event: str, **extra) -> Reading:
    """Run the script on a payload for `event` and read its answer as Claude Code would."""
    path = tmp_path / "run" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    command = [INTERPRETER[path.suffix], str(path)]
    ran = subprocess.run(command, input=json.dumps(payload(event, **extra)).encode(), capture_output=True,
                         timeout=30, env={**os.environ, "HOME": str(tmp_path)}, cwd=tmp_path)
    return read(event, " ".join(command), RawRun(ran.returncode, ran.stdout, ran.stderr))


def findings(tmp_path: Path, name: str, text: str, event: str, rule: str, host: str = "claude"):
    base = tmp_path / "project"
    script = base / ".claude" / "hooks" / name
    script.parent.mkdir(parents=True, exist_ok=True)
    script.write_text(text)
    command = f'{INTERPRETER[script.suffix]} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}'
    if host == "cursor":
        files = {".cursor/hooks.json": {"version": 1, "hooks": {event: [
            {"command": f"{INTERPRETER[script.suffix]} .claude/hooks/{name}"}]}}}
    else:
        files = {S: settings(event, matcher="Bash" if event in ("PreToolUse", "PostToolUse", "PermissionRequest")
                             else None, command=command)}
    return found(doctor(base, files), rule)


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


ARMS_SH = SH + src("""
    input="$(cat)"
    case "$(jq -r .tool_name <<<"$input")" in
      Bash) target="$(jq -r '.tool_input.command // ""' <<<"$input")" ;;
      *) exit 0 ;;
    esac
    if grep -q 'rm -rf' <<<"$target"; then
      jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse",
        permissionDecision: "deny", permissionDecisionReason: "no"}}'TO
    fi
    exit 0
    """)
MAIN_RETURNS_1 = PY + src("""
    def main():
        if "rm -rf" in data["tool_input"]["command"]:
            print("Blocked: rm -rf", file=sys.stderr)
            return 1
        return 0
    sys.exit(main())
    """)

# (rule, event, file name, bad script, good script, what the bad one does, what the good one does)
CASES = [
    ("script/text-before-json", "PreToolUse", "h.py",
     PY + 'print("checking", data["tool_name"])\n' + DENY_PY,
     PY + 'print("checking", data["tool_name"], file=sys.stderr)\n' + DENY_PY,
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/text-before-json", "PreToolUse", "h.sh",
     SH + 'INPUT=$(cat)\necho "hook: checking"\n' + DENY_SH + "\n",
     SH + 'INPUT=$(cat)\necho "hook: checking" >&2\n' + DENY_SH + "\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/text-before-json", "PreToolUse", "inline.sh",  # a case written on one line, its arm answering
     SH + 'CMD=$(jq -r .tool_input.command)\necho "checking $CMD"\n'
          'case "$CMD" in *"rm -rf"*) ' + DENY_SH + ';; *) exit 0;; esac\n',
     SH + 'CMD=$(jq -r .tool_input.command)\necho "checking $CMD" >&2\n'
          'case "$CMD" in *"rm -rf"*) ' + DENY_SH + ';; *) exit 0;; esac\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/text-before-json", "PreToolUse", "tee.sh",
     SH + 'cat | tee -a "$HOME/hook.log"\n' + DENY_SH + "\n",
     SH + 'cat | tee -a "$HOME/hook.log" > /dev/null\n' + DENY_SH + "\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/text-before-json", "PreToolUse", "h.js",
     JS + 'console.log("debug: got", data.tool_name);\n' + DENY_JS + "\n",
     JS + 'console.error("debug: got", data.tool_name);\n' + DENY_JS + "\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/text-before-json", "PreToolUse", "branch.py",  # the text is in the other arm: quiet
     PY + 'print("started")\nif data["tool_name"] == "Bash":\n    ' + DENY_PY + "\n",
     PY + 'if data["tool_name"] != "Bash":\n    print("not mine")\n    sys.exit(0)\nelse:\n    ' + DENY_PY + "\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/stdin-read-twice", "PreToolUse", "twice.sh",
     SH + src("""
        TOOL=$(jq -r .tool_name)
        CMD=$(jq -r .tool_input.command)
        case "$CMD" in *"rm -rf"*) echo "no rm" >&2; exit 2;; esac
        """),
     SH + src("""
        INPUT=$(cat)
        TOOL=$(echo "$INPUT" | jq -r .tool_name)
        CMD=$(echo "$INPUT" | jq -r .tool_input.command)
        case "$CMD" in *"rm -rf"*) echo "no rm" >&2; exit 2;; esac
        """),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/stdin-read-twice", "PreToolUse", "twice.py",
     src("""
        import json, sys
        tool = json.load(sys.stdin)["tool_name"]
        raw = sys.stdin.read()
        if "rm -rf" in raw:
            print("no rm", file=sys.stderr)
            sys.exit(2)
        """),
     src("""
        import json, sys
        raw = sys.stdin.read()
        tool = json.loads(raw)["tool_name"]
        if "rm -rf" in raw:
            print("no rm", file=sys.stderr)
            sys.exit(2)
        """),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/updated-input-not-object", "PreToolUse", "string.py",
     PY + src("""
        new = {**data["tool_input"], "command": "echo safe"}
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                                 "updatedInput": json.dumps(new)}}))
        """),
     PY + src("""
        new = {**data["tool_input"], "command": "echo safe"}
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                                 "updatedInput": new}}))
        """),
     lambda r: r.updated_input is None and r.void is not None, lambda r: r.updated_input is not None),
    ("script/updated-input-not-object", "PreToolUse", "arg.sh",
     SH + src("""
        NEW=$(jq -c '.tool_input | .command = "echo safe"')
        jq -n --arg u "$NEW" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: $u}}'
        """),
     SH + src("""
        NEW=$(jq -c '.tool_input | .command = "echo safe"')
        jq -n --argjson u "$NEW" '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: $u}}'
        """),
     lambda r: r.updated_input is None, lambda r: r.updated_input is not None),
    ("script/rewrite-drops-fields", "PreToolUse", "drops.py",
     PY + src("""
        out = {"hookEventName": "PreToolUse", "permissionDecision": "allow",
               "updatedInput": {"command": "rtk " + data["tool_input"]["command"]}}
        print(json.dumps({"hookSpecificOutput": out}))
        """),
     PY + src("""
        out = {"hookEventName": "PreToolUse", "permissionDecision": "allow",
               "updatedInput": {**data["tool_input"], "command": "rtk " + data["tool_input"]["command"]}}
        print(json.dumps({"hookSpecificOutput": out}))
        """),
     lambda r: "timeout" not in r.updated_input, lambda r: r.updated_input["timeout"] == 1000),
    ("script/rewrite-drops-fields", "PreToolUse", "drops.js",
     JS + "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow',"
          " updatedInput: {command: 'rtk ' + data.tool_input.command}}}));\n",
     JS + "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow',"
          " updatedInput: {...data.tool_input, command: 'rtk ' + data.tool_input.command}}}));\n",
     lambda r: "timeout" not in r.updated_input, lambda r: r.updated_input["timeout"] == 1000),
    ("script/exit-2-does-not-block", "PostToolUse", "post.sh",
     SH + 'INPUT=$(cat)\necho "Blocked: rm is not allowed" >&2\nexit 2\n',
     SH + 'INPUT=$(cat)\necho "lint: 3 warnings in the file" >&2\nexit 2\n',  # feedback to Claude: its purpose
     # (the tool has run: exit 2 is a block's feedback after the fact, measured on 2.1.328)
     lambda r: r.decision == "block" and "rm is not allowed" in r.reason, lambda r: r.decision == "block"),
    ("script/exit-2-does-not-block", "PostToolUse", "post.pl",  # Perl's exits read as well
     'my $input = do { local $/; <STDIN> };\nprint STDERR "Blocked: rm is not allowed\\n";\nexit 2;\n',
     'my $input = do { local $/; <STDIN> };\nprint STDERR "lint: 3 warnings in the file\\n";\nexit(2);\n',
     lambda r: r.decision == "block" and "rm is not allowed" in r.reason, lambda r: r.decision == "block"),
    ("script/exit-2-does-not-block", "SessionStart", "start.py",
     PY + 'print("not in a git repository", file=sys.stderr)\nsys.exit(2)\n',
     PY + 'print("not in a git repository", file=sys.stderr)\nsys.exit(0)\n',
     lambda r: r.decision is None, lambda r: r.decision is None),
    ("script/exit-1-fails-open", "PreToolUse", "one.sh",
     SH + 'CMD=$(jq -r .tool_input.command)\nif [[ "$CMD" == *"rm -rf"* ]]; then\n'
          '  echo "BLOCKED: rm -rf is not allowed" >&2\n  exit 1\nfi\n',
     SH + 'CMD=$(jq -r .tool_input.command)\nif [[ "$CMD" == *"rm -rf"* ]]; then\n'
          '  echo "BLOCKED: rm -rf is not allowed" >&2\n  exit 2\nfi\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "PreToolUse", "message.py",
     PY + 'if "rm -rf" in data["tool_input"]["command"]:\n    sys.exit("Blocked: rm -rf is not allowed")\n',
     PY + 'if "rm -rf" in data["tool_input"]["command"]:\n    print("Blocked: rm -rf", file=sys.stderr)\n'
          '    sys.exit(2)\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "Stop", "built.py",  # a message the code builds is a string all the same: exit 1
     PY + 'problems = ["a.py: conflict markers"]\nif problems:\n'
          '    sys.exit("Fix these before finishing:\\n" + "\\n".join(problems))\n',
     PY + 'problems = ["a.py: conflict markers"]\nif problems:\n'
          '    print("Fix these before finishing:\\n" + "\\n".join(problems), file=sys.stderr)\n    sys.exit(2)\n',
     lambda r: r.decision is None, lambda r: r.decision == "block"),
    ("script/exit-1-fails-open", "PreToolUse", "raise.py",
     PY + 'if "rm -rf" in data["tool_input"]["command"]:\n    raise PermissionError("rm -rf is forbidden")\n',
     PY + 'try:\n    if "rm -rf" in data["tool_input"]["command"]:\n        raise PermissionError("rm -rf is forbidden")\n'
          'except PermissionError as error:\n    print(error, file=sys.stderr)\n    sys.exit(2)\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "PreToolUse", "throw.js",
     JS + "if (data.tool_input.command.includes('rm -rf')) {\n  throw new Error('Blocked: rm -rf');\n}\n",
     JS + "if (data.tool_input.command.includes('rm -rf')) {\n  console.error('Blocked: rm -rf');\n"
          "  process.exit(2);\n}\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/continue-false-not-a-block", "PreToolUse", "stop.py",
     PY + 'print(json.dumps({"continue": False, "stopReason": "rm is blocked"}))\n',
     PY + 'print(json.dumps({"continue": False, "stopReason": "rm is blocked", "hookSpecificOutput": {'
          '"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "rm"}}))\n',
     lambda r: r.decision is None and r.stops_session, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "literal.py",
     PY + 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "block"}}))\n',
     PY + 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}))\n',
     lambda r: r.decision is None and r.void is not None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "table.py",
     PY + src("""
        VERDICTS = {"rm": "reject", "ls": "allow"}
        verdict = VERDICTS.get(data["tool_input"]["command"].split()[0], "allow")
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": verdict}}))
        """),
     PY + src("""
        VERDICTS = {"rm": "deny", "ls": "allow"}
        verdict = VERDICTS.get(data["tool_input"]["command"].split()[0], "allow")
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": verdict}}))
        """),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "variable.sh",
     SH + 'INPUT=$(cat)\nDECISION="blocked"\n'
          'echo "{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": \\"$DECISION\\"}}"\n',
     SH + 'INPUT=$(cat)\nDECISION="deny"\n'
          'echo "{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": \\"$DECISION\\"}}"\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "Stop", "stop.js",
     JS + "const VERDICT = {done: 'approve', more: 'deny'};\nconst decision = VERDICT[data.stop_hook_active ? 'done' : 'more'];\n"
          "console.log(JSON.stringify({decision: decision, reason: 'run the tests first'}));\n",
     JS + "const VERDICT = {more: 'block'};\nconst decision = VERDICT[data.stop_hook_active ? 'done' : 'more'];\n"
          "if (decision) console.log(JSON.stringify({decision: decision, reason: 'run the tests first'}));\n",
     lambda r: r.decision is None, lambda r: r.decision == "block"),
    ("script/stop-hook-active", "Stop", "loop.sh",
     SH + 'INPUT=$(cat)\nif [ "$stop_hook_active" = "true" ]; then exit 0; fi\n'
          'echo \'{"decision": "block", "reason": "run the tests"}\'\n',
     SH + 'INPUT=$(cat)\nif [ "$(echo "$INPUT" | jq -r .stop_hook_active)" = "true" ]; then exit 0; fi\n'
          'echo \'{"decision": "block", "reason": "run the tests"}\'\n',
     # on the second stop (stop_hook_active true) the bad one still blocks: a loop
     lambda r: r.decision == "block", lambda r: r.decision is None),
    ("script/continue-false-not-a-block", "TaskCreated", "task.py",
     PY + 'print(json.dumps({"continue": False, "stopReason": "no tasks today"}))\n',
     PY + 'print(json.dumps({"decision": "block", "reason": "no tasks today"}))\n',
     lambda r: r.decision is None, lambda r: r.decision == "block"),
    ("script/reason-on-stdout", "PreToolUse", "reason.sh",
     SH + 'INPUT=$(cat)\necho "BLOCKED: no rm here"\nexit 2\n',
     SH + 'INPUT=$(cat)\necho "BLOCKED: no rm here" >&2\nexit 2\n',
     lambda r: r.decision == "deny" and r.reason.endswith("No stderr output"),
     lambda r: "no rm here" in r.reason),
    ("script/shell-trace", "PreToolUse", "trace.sh",
     SH + 'set -x\nCMD=$(jq -r .tool_input.command)\necho "no rm" >&2\nexit 2\n',
     SH + 'CMD=$(jq -r .tool_input.command)\necho "no rm" >&2\nexit 2\n',
     lambda r: "+ " in r.reason, lambda r: "+ " not in r.reason),
    ("script/input-field-never-sent", "PostToolUse", "output.py",  # Cursor's name for Claude Code's tool_response
     PY + 'if "error" in json.dumps(data.get("tool_output", "")):\n'
          '    print(json.dumps({"decision": "block", "reason": "the command printed an error"}))\n',
     PY + 'if "error" in json.dumps(data.get("tool_response", "")):\n'
          '    print(json.dumps({"decision": "block", "reason": "the command printed an error"}))\n',
     lambda r: r.decision is None, lambda r: r.decision == "block"),
    ("script/input-field-never-sent", "Stop", "stop.sh",
     SH + 'INPUT=$(cat)\nCMD=$(echo "$INPUT" | jq -r \'.tool_input.command // empty\')\n'
          'if [ -z "$CMD" ]; then echo \'{"decision": "block", "reason": "no command ran"}\'; fi\n',
     SH + 'INPUT=$(cat)\nLAST=$(echo "$INPUT" | jq -r \'.last_assistant_message // empty\')\n'
          'if [ -z "$LAST" ]; then echo \'{"decision": "block", "reason": "say something"}\'; fi\n',
     lambda r: r.decision == "block", lambda r: r.decision is None),
    # measured on 2.1.328: a deny on stderr with exit 0 let the call run
    ("script/answer-on-stderr", "PreToolUse", "stderr.py",
     PY + f"print(json.dumps({DENY!r}), file=sys.stderr)\n", PY + DENY_PY + "\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/no-event-name", "PreToolUse", "echo.js",  # the input's field is hook_event_name: undefined, dropped
     JS + "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: data.hookEventName, "
          "permissionDecision: 'deny', permissionDecisionReason: 'no'}}));\n",
     JS + "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: data.hook_event_name, "
          "permissionDecision: 'deny', permissionDecisionReason: 'no'}}));\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/answer-on-stderr", "PreToolUse", "helper.py",  # written by a helper, the answer given at its call
     PY + f"def emit(obj):\n    print(json.dumps(obj), file=sys.stderr)\nemit({DENY!r})\n",
     PY + f"def emit(obj):\n    print(json.dumps(obj))\nemit({DENY!r})\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/answer-on-stderr", "PreToolUse", "main.py",  # in a main() whose returns are the exit status
     "import json, sys\ndef main():\n    json.load(sys.stdin)\n    print(json.dumps(\n        "
     f"{DENY!r}),\n        file=sys.stderr)\n    return 0\nif __name__ == '__main__':\n    sys.exit(main())\n",
     "import json, sys\ndef main():\n    json.load(sys.stdin)\n    print(json.dumps(\n        "
     f"{DENY!r}))\n    return 0\nif __name__ == '__main__':\n    sys.exit(main())\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/answer-on-stderr", "PreToolUse", "stderr.sh",
     SH + "INPUT=$(cat)\n" + DENY_SH + " >&2\nexit 0\n", SH + "INPUT=$(cat)\n" + DENY_SH + "\nexit 0\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/answer-on-stderr", "PreToolUse", "stderr.js",
     JS + f"const out = {json.dumps(DENY)};\nconsole.error(JSON.stringify(out));\n",
     JS + f"const out = {json.dumps(DENY)};\nconsole.log(JSON.stringify(out));\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/answer-on-stderr", "PreToolUse", "arms.sh",  # values read in case arms, the answer built by jq -n
     ARMS_SH.replace("TO", " >&2"), ARMS_SH.replace("TO", ""),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/answer-on-stderr", "PreToolUse", "block.sh",  # the good one: stderr is the reason of exit 2
     SH + "INPUT=$(cat)\necho '{\"decision\": \"block\", \"reason\": \"no rm\"}' >&2\n",
     SH + "INPUT=$(cat)\necho '{\"decision\": \"block\", \"reason\": \"no rm\"}' >&2\nexit 2\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/stdin-read-twice", "PreToolUse", "functions.py",  # two functions that each read stdin
     src("""
        import json, sys
        def tool_name():
            return json.load(sys.stdin)["tool_name"]
        def command():
            return json.load(sys.stdin)["tool_input"]["command"]
        if tool_name() == "Bash" and "rm -rf" in command():
            print("no rm", file=sys.stderr)
            sys.exit(2)
        """),
     src("""
        import json, sys
        def read_input():
            return json.load(sys.stdin)
        data = read_input()
        if data["tool_name"] == "Bash" and "rm -rf" in data["tool_input"]["command"]:
            print("no rm", file=sys.stderr)
            sys.exit(2)
        """),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/text-before-json", "PreToolUse", "exits.py",  # the exit after the answer does not hide the debug line
     PY + 'print("checking")\n' + DENY_PY + '\nsys.exit(0)\n',
     PY + 'print("checking", file=sys.stderr)\n' + DENY_PY + '\nsys.exit(0)\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "helper.py",  # through a helper's parameter
     PY + 'def respond(decision, reason):\n    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",'
          ' "permissionDecision": decision, "permissionDecisionReason": reason}}))\nrespond("block", "no rm")\n',
     PY + 'def respond(decision, reason):\n    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",'
          ' "permissionDecision": decision, "permissionDecisionReason": reason}}))\nrespond("deny", "no rm")\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "fstring.py",
     PY + 'verdict = "reject" if "rm" in data["tool_input"]["command"] else "allow"\n'
          'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": f"{verdict}"}}))\n',
     PY + 'verdict = "deny" if "rm" in data["tool_input"]["command"] else "allow"\n'
          'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": f"{verdict}"}}))\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "ternary.js",
     JS + "const risky = data.tool_input.command.includes('rm');\nconsole.log(JSON.stringify({hookSpecificOutput: {"
          "hookEventName: 'PreToolUse', permissionDecision: risky ? 'reject' : 'allow'}}));\n",
     JS + "const risky = data.tool_input.command.includes('rm');\nconsole.log(JSON.stringify({hookSpecificOutput: {"
          "hookEventName: 'PreToolUse', permissionDecision: risky ? 'deny' : 'allow'}}));\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "PreToolUse", "unrelated.py",  # a try elsewhere does not catch the gate's raise
     PY + 'def branch():\n    try:\n        return open(".git/HEAD").read()\n    except Exception:\n        return "main"\n'
          'def check(command):\n    if "rm -rf" in command:\n        raise PermissionError("rm -rf is not allowed")\n'
          'branch()\ncheck(data["tool_input"]["command"])\n',
     PY + 'def check(command):\n    if "rm -rf" in command:\n        raise PermissionError("rm -rf is not allowed")\n'
          'try:\n    check(data["tool_input"]["command"])\nexcept PermissionError as error:\n'
          '    print(error, file=sys.stderr)\n    sys.exit(2)\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "PreToolUse", "template.js",
     JS + "if (data.tool_input.command.includes('rm')) {\n"
          "  throw new Error(`${data.tool_input.command} is not on the allowlist`);\n}\n",
     JS + "if (data.tool_input.command.includes('rm')) {\n"
          "  console.error(`${data.tool_input.command} is not on the allowlist`);\n  process.exit(2);\n}\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/stdin-read-twice", "PreToolUse", "empty.sh",
     SH + "TOOL=$(jq -r '.tool_name')\nCMD=$(jq -r '.tool_input.command // empty')\n"
          'case "$CMD" in *"rm -rf"*) echo "no rm" >&2; exit 2;; esac\n',
     SH + "INPUT=$(cat)\nCMD=$(echo \"$INPUT\" | jq -r '.tool_input.command // empty')\n"
          'case "$CMD" in *"rm -rf"*) echo "no rm" >&2; exit 2;; esac\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/shell-trace", "PreToolUse", "tracefd.sh",  # the good one traces into a file of its own
     SH + 'set -x\nCMD=$(jq -r .tool_input.command)\necho "no rm" >&2\nexit 2\n',
     SH + 'exec 9>>"$HOME/trace.log"\nBASH_XTRACEFD=9\nset -x\nCMD=$(jq -r .tool_input.command)\necho "no rm" >&2\nexit 2\n',
     lambda r: "+ " in r.reason, lambda r: "+ " not in r.reason),
    ("script/text-before-json", "PreToolUse", "method.py",  # the debug line is in a method the answer comes from
     PY + src("""
        class Guard:
            def __init__(self, data):
                self.command = data["tool_input"]["command"]
            def run(self):
                print(f"checking {self.command}")
                return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
        print(json.dumps(Guard(data).run()))
        """),
     PY + src("""
        import os
        DEBUG = os.environ.get("HOOK_DEBUG") == "1"  # off: the print never runs
        class Guard:
            def __init__(self, data):
                self.command = data["tool_input"]["command"]
            def run(self):
                if DEBUG:
                    print(f"checking {self.command}")
                return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
        print(json.dumps(Guard(data).run()))
        """),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "PreToolUse", "main.py",  # sys.exit(main()): main's return is the status
     MAIN_RETURNS_1, MAIN_RETURNS_1.replace("return 1", "return 2"),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "tuples.py",  # a, b = TABLE[key] with tuples in the table
     PY + 'RULES = {"rm": ("block", "no rm"), "ls": ("allow", "fine")}\n'
          'verdict, why = RULES[data["tool_input"]["command"].split()[0]]\n'
          'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": verdict,'
          ' "permissionDecisionReason": why}}))\n',
     PY + 'RULES = {"rm": ("deny", "no rm"), "ls": ("allow", "fine")}\n'
          'verdict, why = RULES[data["tool_input"]["command"].split()[0]]\n'
          'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": verdict,'
          ' "permissionDecisionReason": why}}))\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/rewrite-drops-fields", "PreToolUse", "ternary.js",  # a variable given one of two new objects
     JS + "const next =\n  data.tool_name === 'Write'\n    ? { file_path: 'x', content: '' }\n"
          "    : { command: data.tool_input.command + ' -q' };\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', "
          "updatedInput: next}}));\n",
     JS + "const next =\n  data.tool_name === 'Write'\n    ? { file_path: 'x', content: '' }\n"
          "    : { ...data.tool_input, command: data.tool_input.command + ' -q' };\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', "
          "updatedInput: next}}));\n",
     lambda r: "timeout" not in r.updated_input, lambda r: r.updated_input["timeout"] == 1000),
    ("script/rewrite-drops-fields", "PreToolUse", "branches.js",  # assigned in an if's arms
     JS + "let updatedInput;\nif (data.tool_name === 'Write') {\n  updatedInput = { file_path: 'x', content: '' };\n"
          "} else {\n  updatedInput = { command: data.tool_input.command };\n}\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', "
          "updatedInput}}));\n",
     JS + "let updatedInput;\nif (data.tool_name === 'Write') {\n  updatedInput = { file_path: 'x', content: '' };\n"
          "} else {\n  updatedInput = { ...data.tool_input };\n}\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', "
          "updatedInput}}));\n",
     lambda r: "timeout" not in r.updated_input, lambda r: r.updated_input["timeout"] == 1000),
    ("script/output-rewrite-ignored", "PostToolUse", "redact.py",  # measured: a string for Bash is ignored
     PY + "def redact(text: str) -> str:\n    return text.replace('error', '[x]')\n"
          "clean = redact(data['tool_response']['stdout'])\n"
          "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', 'updatedToolOutput': clean}}))\n",
     PY + "def redact(text: str) -> str:\n    return text.replace('error', '[x]')\n"
          "clean = dict(data['tool_response'], stdout=redact(data['tool_response']['stdout']))\n"
          "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', 'updatedToolOutput': clean}}))\n",
     lambda r: r.updated_output is None, lambda r: isinstance(r.updated_output, dict)),
    ("script/output-rewrite-ignored", "PostToolUse", "mcp.py",  # the MCP field on a Bash hook
     PY + "clean = data['tool_response']['stdout'].replace('error', '[x]')\n"
          "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', 'updatedMCPToolOutput': clean}}))\n",
     PY + "clean = dict(data['tool_response'], stdout=data['tool_response']['stdout'].replace('error', '[x]'))\n"
          "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', 'updatedToolOutput': clean}}))\n",
     lambda r: r.updated_output is None, lambda r: isinstance(r.updated_output, dict)),
    ("script/rewrite-drops-fields", "PreToolUse", "const.js",
     JS + "const updatedInput = { command: data.tool_input.command + ' -q' };\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput}}));\n",
     JS + "const updatedInput = { ...data.tool_input, command: data.tool_input.command + ' -q' };\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput}}));\n",
     lambda r: "timeout" not in r.updated_input, lambda r: r.updated_input["timeout"] == 1000),
    ("script/text-before-json", "PreToolUse", "computed.py",  # git -C <a variable> init: still a git that prints
     PY + 'import os, subprocess\ncwd = os.getcwd()\nsubprocess.run(["git", "-C", cwd, "init"])\n'
          + DENY_PY + "\n",
     PY + 'import os, subprocess\ncwd = os.getcwd()\n'
          'subprocess.run(["git", "-C", cwd, "init"], capture_output=True)\n' + DENY_PY + "\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/text-before-json", "PreToolUse", "arm.sh",  # the answer in a one-line case arm
     SH + 'INPUT=$(cat)\necho "inspecting"\ncase "$INPUT" in\n  *rm*) ' + DENY_SH + ' ;;\nesac\n',
     SH + 'INPUT=$(cat)\necho "inspecting" >&2\ncase "$INPUT" in\n  *rm*) ' + DENY_SH + ' ;;\nesac\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "PreToolUse", "ci.py",  # no refusal word, but the gate's only way to refuse
     PY + 'if "rm -rf" in data["tool_input"]["command"]:\n    print("rm -rf must go through review", file=sys.stderr)\n'
          '    sys.exit(1)\n',
     PY + 'if "rm -rf" in data["tool_input"]["command"]:\n    print("rm -rf must go through review", file=sys.stderr)\n'
          '    sys.exit(2)\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/input-field-never-sent", "UserPromptSubmit", "typo.sh",  # a name no event sends
     SH + 'INPUT=$(cat)\nTEXT=$(echo "$INPUT" | jq -r \'.user_prompt // empty\')\n'
          'case "$TEXT" in *password*) echo "no secrets in prompts" >&2; exit 2;; esac\n',
     SH + 'INPUT=$(cat)\nTEXT=$(echo "$INPUT" | jq -r \'.prompt // empty\')\n'
          'case "$TEXT" in *password*) echo "no secrets in prompts" >&2; exit 2;; esac\n',
     lambda r: r.decision is None, lambda r: r.decision == "block"),
    ("script/does-not-parse", "PreToolUse", "typo.py",
     PY + 'if "rm -rf" in data["tool_input"]["command"]\n    print("no rm", file=sys.stderr)\n    sys.exit(2)\n',
     PY + 'if "rm -rf" in data["tool_input"]["command"]:\n    print("no rm", file=sys.stderr)\n    sys.exit(2)\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/does-not-parse", "PreToolUse", "typo.js",
     JS + "if (data.tool_input.command.includes('rm -rf') {\n  console.error('no rm');\n  process.exit(2);\n}\n",
     JS + "if (data.tool_input.command.includes('rm -rf')) {\n  console.error('no rm');\n  process.exit(2);\n}\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PreToolUse", "loop.py",  # a loop over the table's items
     PY + src("""
        POLICY = {"rm": "reject", "ls": "allow"}
        for prefix, verdict in POLICY.items():
            if data["tool_input"]["command"].startswith(prefix):
                print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": verdict}}))
                break
        """),
     PY + src("""
        POLICY = {"rm": "deny", "ls": "allow"}
        for prefix, verdict in POLICY.items():
            if data["tool_input"]["command"].startswith(prefix):
                print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": verdict}}))
                break
        """),
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/invalid-decision-value", "PermissionRequest", "short.js",  # {behavior} is {behavior: behavior}
     JS + "const verdicts = {Bash: 'block', Read: 'allow'};\nconst behavior = verdicts[data.tool_name];\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PermissionRequest', decision: {behavior}}}));\n",
     JS + "const verdicts = {Bash: 'deny', Read: 'allow'};\nconst behavior = verdicts[data.tool_name];\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PermissionRequest', decision: {behavior}}}));\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/updated-input-not-object", "PreToolUse", "short.js",
     JS + "const updatedInput = JSON.stringify({...data.tool_input, command: 'echo safe'});\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput}}));\n",
     JS + "const updatedInput = {...data.tool_input, command: 'echo safe'};\n"
          "console.log(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput}}));\n",
     lambda r: r.updated_input is None, lambda r: r.updated_input["command"] == "echo safe"),
    ("script/text-before-json", "PreToolUse", "logs.py",
     PY + 'import logging\nlogging.basicConfig(stream=sys.stdout, level=logging.INFO)\n'
          'logging.info("checking %s", data["tool_name"])\n' + DENY_PY + "\n",
     PY + 'import logging\nlogging.basicConfig(stream=sys.stderr, level=logging.INFO)\n'
          'logging.info("checking %s", data["tool_name"])\n' + DENY_PY + "\n",
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
    ("script/exit-1-fails-open", "PreToolUse", "caught.py",  # the good one: the raise is turned into exit 2
     PY + 'def check(command):\n    if "rm -rf" in command:\n        raise PermissionError("rm -rf is not allowed")\n'
          'check(data["tool_input"]["command"])\n',
     PY + 'def check(command):\n    if "rm -rf" in command:\n        raise PermissionError("rm -rf is not allowed")\n'
          'try:\n    check(data["tool_input"]["command"])\nexcept PermissionError as error:\n'
          '    print(error, file=sys.stderr)\n    sys.exit(2)\n',
     lambda r: r.decision is None, lambda r: r.decision == "deny"),
]
STOP_SECOND_RUN = {"script/stop-hook-active": {"stop_hook_active": True}}
AT_THE_EVENT = {"script/exit-2-does-not-block": "PostToolUse"}  # rule: the event whose key its finding names


@pytest.mark.parametrize("rule, event, name, bad, good, bad_does, good_does", CASES,
                         ids=[f"{c[0].split('/')[1]}-{c[2]}" for c in CASES])
def test_a_script_that_breaks_its_events_protocol_is_reported_and_a_correct_one_is_not(
        tmp_path, rule, event, name, bad, good, bad_does, good_does):
    extra = STOP_SECOND_RUN.get(rule, {})
    assert bad_does(behaviour(tmp_path / "bad", name, bad, event, **extra))
    assert good_does(behaviour(tmp_path / "good", name, good, event, **extra))
    reported = findings(tmp_path / "bad", name, bad, event, rule)
    # (a guard placed after the call is reported at its event's key: the fix is to move it there)
    at, beside = (name, "settings.json") if not AT_THE_EVENT.get(rule) == event else ("settings.json", name)
    assert reported and reported[0].line and Path(reported[0].path).name == at
    assert reported[0].related and reported[0].related[0]["path"].endswith(beside)
    if not (rule == "script/text-before-json" and name == "branch.py"):
        assert not findings(tmp_path / "good", name, good, event, rule), good


def test_the_answers_of_two_arms_of_a_case_written_on_one_line_are_no_second_answer(tmp_path):
    allow = DENY_SH.replace('"deny"', '"allow"')
    text = SH + f'CMD=$(jq -r .tool_input.command)\ncase "$CMD" in *"rm -rf"*) {DENY_SH};; *) {allow};; esac\n'
    assert behaviour(tmp_path, "arms.sh", text, "PreToolUse").decision == "deny"
    assert not findings(tmp_path, "arms.sh", text, "PreToolUse", "script/text-before-json")


def test_the_text_in_the_other_arm_of_an_if_is_not_mixed_with_the_answer(tmp_path):
    good = PY + 'if data["tool_name"] != "Bash":\n    print("not mine")\n    sys.exit(0)\nelse:\n    ' + DENY_PY + "\n"
    assert not findings(tmp_path, "branch.py", good, "PreToolUse", "script/text-before-json")
    arms = PY + 'if data["tool_name"] == "Read":\n    print("reading")\nelse:\n    ' + DENY_PY + "\n"
    assert not findings(tmp_path / "arms", "arms.py", arms, "PreToolUse", "script/text-before-json")


def test_text_on_a_path_that_ends_in_exit_2_is_not_mixed_with_the_answer(tmp_path):
    script = PY + src("""
        if "rm" in data["tool_input"]["command"]:
            print("rm is blocked")
            print("rm is blocked", file=sys.stderr)
            sys.exit(2)
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))
        """)
    assert behaviour(tmp_path, "gate.py", script, "PreToolUse").decision == "deny"
    assert not findings(tmp_path, "gate.py", script, "PreToolUse", "script/text-before-json")


def test_a_shell_debug_line_behind_a_flag_is_not_mixed_with_the_answer(tmp_path):
    script = SH + 'INPUT=$(cat)\n[ -n "${HOOK_DEBUG:-}" ] && echo "debug: $INPUT"\n' + DENY_SH + "\n"
    assert behaviour(tmp_path, "flag.sh", script, "PreToolUse").decision == "deny"
    assert not findings(tmp_path, "flag.sh", script, "PreToolUse", "script/text-before-json")


def test_exit_2_on_an_event_that_blocks_is_not_reported(tmp_path):
    script = SH + 'INPUT=$(cat)\necho "Blocked: rm is not allowed" >&2\nexit 2\n'
    assert behaviour(tmp_path, "pre.sh", script, "PreToolUse").decision == "deny"
    assert not findings(tmp_path, "pre.sh", script, "PreToolUse", "script/exit-2-does-not-block")


def test_an_exit_1_that_does_not_refuse_is_not_reported(tmp_path):
    script = SH + 'command -v jq >/dev/null || { echo "jq is not installed" >&2; exit 1; }\n'
    assert not findings(tmp_path, "jq.sh", script, "PreToolUse", "script/exit-1-fails-open")
    # in a gate that refuses with exit 2, an exit 1 beside it that does not say it refuses is an error path
    other = SH + 'INPUT=$(cat)\n[ -d .git ] || { echo "run me in the repository" >&2; exit 1; }\n' \
        'echo "$INPUT" | grep -q "rm -rf" && { echo "BLOCKED: rm -rf" >&2; exit 2; }\nexit 0\n'
    assert not findings(tmp_path / "other", "gate.sh", other, "PreToolUse", "script/exit-1-fails-open")


def test_a_post_tool_use_hook_waiting_for_a_failure_is_reported(tmp_path):
    script = PY + src("""
        if data.get("tool_response", {}).get("exit_code", 0) != 0:
            print(json.dumps({"decision": "block", "reason": "the command failed: look at it"}))
        """)
    # a successful call's PostToolUse payload has no exit code to look at: it never blocks
    assert behaviour(tmp_path, "post.py", script, "PostToolUse", tool_response={"stdout": "", "stderr": ""}
                     ).decision is None
    (reported,) = findings(tmp_path, "post.py", script, "PostToolUse", "script/failure-in-post-tool-use")
    assert "exit_code" in reported.message and reported.line == 3
    both = tmp_path / "both"
    assert not found(doctor(both, {S: {"hooks": {
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .claude/hooks/post.py"}]}],
        "PostToolUseFailure": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 .claude/hooks/post.py"}]}]}},
        ".claude/hooks/post.py": script}), "script/failure-in-post-tool-use")


CURSOR_DENY = 'print(json.dumps({"permission": "deny", "user_message": "no", "agent_message": "no"}))\n'


def test_a_claude_shaped_answer_from_a_cursor_hook_is_reported(tmp_path):
    bad = PY + DENY_PY + "\n"
    ran = subprocess.run([sys.executable, "-c", bad], input=json.dumps(payload("preToolUse")).encode(),
                         capture_output=True)
    assert "permission" not in json.loads(ran.stdout)  # nothing Cursor reads
    (reported,) = findings(tmp_path, "h.py", bad, "preToolUse", "script/claude-answer-for-cursor", host="cursor")
    assert "hookSpecificOutput" in reported.message and "permission" in reported.message
    assert not findings(tmp_path / "good", "h.py", PY + CURSOR_DENY, "preToolUse", "script/claude-answer-for-cursor",
                        host="cursor")


@pytest.mark.parametrize("name, script, event", [
    ("both.py", PY + 'if data["tool_input"]["command"].startswith("rm"):\n    ' + DENY_PY
     + '\nelse:\n    print(json.dumps({"permission": "allow"}))\n', "preToolUse"),  # the deny is in Claude's shape
    ("camel.py", PY + 'print(json.dumps({"additionalContext": "use the staging db"}))\n', "sessionStart"),
    ("block.py", PY + 'print(json.dumps({"decision": "block", "reason": "run the tests"}))\n', "stop"),
])
def test_claude_habits_in_a_cursor_hook_are_reported(tmp_path, name, script, event):
    (reported,) = findings(tmp_path, name, script, event, "script/claude-answer-for-cursor", host="cursor")
    assert reported.line >= 3


def test_a_cursor_field_the_event_does_not_read_is_reported(tmp_path):
    bad = PY + CURSOR_DENY
    reported = findings(tmp_path, "stop.py", bad, "stop", "script/cursor-field-not-read", host="cursor")
    assert sorted(f.message.split(",")[0].split()[3] for f in reported) == ["agent_message", "permission", "user_message"]
    assert "followup_message" in reported[0].message
    good = PY + 'print(json.dumps({"followup_message": "run the tests"}))\n'
    assert not findings(tmp_path / "good", "stop.py", good, "stop", "script/cursor-field-not-read", host="cursor")


def test_an_inline_command_is_checked_like_a_script(tmp_path):
    bad = "cat | jq -r .tool_input.command | grep -q 'rm -rf' && { echo 'BLOCKED: rm -rf' >&2; exit 1; } || exit 0"
    good = bad.replace("exit 1", "exit 2")
    for command, rule_fires in ((bad, True), (good, False)):
        ran = subprocess.run(["sh", "-c", command], input=json.dumps(payload("PreToolUse")).encode(),
                             capture_output=True)
        reading = read("PreToolUse", command, RawRun(ran.returncode, ran.stdout, ran.stderr))
        assert (reading.decision is None) == rule_fires
        out = doctor(tmp_path / str(rule_fires), {S: settings("PreToolUse", command=command)})
        assert bool(found(out, "script/exit-1-fails-open")) == rule_fires
        if rule_fires:
            assert found(out, "script/exit-1-fails-open")[0].path.endswith("settings.json")


@pytest.mark.parametrize("command, rule", [
    ("""echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", """
     """"updatedInput": {"command": "ls"}}}'""", "script/rewrite-drops-fields"),
    ("""echo '{"hookSpecificOutput": {"hookEventName": "preToolUse", "permissionDecision": "deny"}}'""",
     "script/claude-answer-for-cursor"),
], ids=["a Claude Code rewrite", "a Claude Code answer to Cursor"])
def test_an_inline_command_naming_what_it_writes_is_reported_at_the_command(tmp_path, command, rule):
    """(These findings name the keys the command writes: no clash with the finding's own keys.)"""
    config = ({CURSOR: {"version": 1, "hooks": {"preToolUse": [{"command": command}]}}} if rule.endswith("-for-cursor")
              else {S: settings("PreToolUse", command=command)})
    (finding,) = found(doctor(tmp_path, config), rule)
    assert finding.path.endswith(next(iter(config)).rsplit("/", 1)[-1])


def test_a_field_the_event_does_not_read_is_reported(tmp_path):
    def script(event):
        return PY + src(f"""
            print(json.dumps({{"hookSpecificOutput": {{"hookEventName": "{event}",
                  "updatedInput": {{**data["tool_input"], "command": "echo safe"}}}}}}))
            """)
    # after the fact, a rewrite is dropped; before it, the same answer rewrites the call
    post, pre = script("PostToolUse"), script("PreToolUse")
    assert "hookSpecificOutput.updatedInput" in behaviour(tmp_path / "post", "rw.py", post, "PostToolUse").ignored_fields
    assert behaviour(tmp_path / "pre", "rw.py", pre, "PreToolUse").updated_input["command"] == "echo safe"
    (reported,) = findings(tmp_path / "post", "rw.py", post, "PostToolUse", "script/field-the-event-ignores")
    assert "updatedInput" in reported.message and "PreToolUse" in reported.message
    assert not findings(tmp_path / "pre", "rw.py", pre, "PreToolUse", "script/field-the-event-ignores")


def test_any_key_right_inside_hook_specific_output_that_the_event_does_not_read_is_reported(tmp_path):
    """Not only the distinctive field names: hookSpecificOutput.decision on PreToolUse (the
    PermissionRequest shape) drops a deny, and the call goes ahead; simulate reads it so too."""
    deny = PY + 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "decision": "deny"}}))\n'
    assert behaviour(tmp_path / "run", "d.py", deny, "PreToolUse").decision is None
    (reported,) = findings(tmp_path / "pre", "d.py", deny, "PreToolUse", "script/field-the-event-ignores")
    assert "hookSpecificOutput.decision" in reported.message and "the answer is dropped" in reported.message
    assert "permissionDecision" in reported.hint
    # PermissionRequest reads behavior only inside its decision object
    flat = PY + ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", '
                 '"behavior": "deny", "message": "no"}}))\n')
    assert behaviour(tmp_path / "run", "f.py", flat, "PermissionRequest").decision is None
    reported = findings(tmp_path / "perm", "f.py", flat, "PermissionRequest", "script/field-the-event-ignores")
    assert [f.message.split(",")[0] for f in reported] == [
        "the script writes hookSpecificOutput.behavior", "the script writes hookSpecificOutput.message"]
    # a word and a colon in a string's text is no key
    context = PY + ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", '
                    '"additionalContext": "Reminder: read the style guide"}}))\n')
    assert not findings(tmp_path / "ctx", "c.py", context, "PreToolUse", "script/field-the-event-ignores")


def test_a_top_level_decision_on_an_event_that_reads_none_is_reported(tmp_path):
    """PermissionRequest decides in hookSpecificOutput.decision: a top-level "decision": "deny"
    is dropped, and the permission prompt appears as if the hook had not answered."""
    deny = PY + 'print(json.dumps({"decision": "deny", "reason": "no rm"}))\n'
    assert behaviour(tmp_path / "run", "d.py", deny, "PermissionRequest").decision is None
    (reported,) = findings(tmp_path, "d.py", deny, "PermissionRequest", "script/invalid-decision-value")
    assert "PermissionRequest reads no top-level decision" in reported.message
    assert '{"behavior": "deny"' in reported.hint


@pytest.mark.parametrize("event, variant", [("preToolUse", "goes ahead without anyone being asked"),
                                            ("subagentStart", "treats ask as deny"),
                                            ("beforeShellExecution", None)])
def test_a_cursor_ask_where_cursor_does_not_ask_is_reported(tmp_path, event, variant):
    """preToolUse accepts ask and does not enforce it; subagentStart takes it for deny; only
    beforeShellExecution and beforeMCPExecution ask (other-hosts.md §1.3)."""
    script = PY + 'print(json.dumps({"permission": "ask", "user_message": "sure?"}))\n'
    reported = findings(tmp_path, "ask.py", script, event, "script/cursor-ask-not-asked", host="cursor")
    assert [variant in f.message for f in reported] == ([True] if variant else [])


def test_a_permission_decision_at_the_top_level_is_reported(tmp_path):
    """observed §e: a top-level permissionDecision (no hookSpecificOutput) is silently ignored."""
    top = PY + 'print(json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "no rm"}))\n'
    assert behaviour(tmp_path / "run", "t.py", top, "PreToolUse").decision is None
    (reported,) = findings(tmp_path / "a", "t.py", top, "PreToolUse", "script/ignored-output-field")
    assert "permissionDecision at the top level" in reported.message
    inside = PY + 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}))\n'
    assert not findings(tmp_path / "b", "i.py", inside, "PreToolUse", "script/ignored-output-field")
    # additionalContext too (the e2e scenario "prompt: a top-level additionalContext is dropped")
    context = PY + 'print(json.dumps({"additionalContext": "use the style guide"}))\n'
    assert not behaviour(tmp_path / "run", "c.py", context, "UserPromptSubmit").context
    (reported,) = findings(tmp_path / "c", "c.py", context, "UserPromptSubmit", "script/ignored-output-field")
    assert "additionalContext at the top level" in reported.message


def test_a_cursor_answer_from_a_claude_code_hook_is_reported(tmp_path):
    """Claude Code reads none of Cursor's flat fields; simulate reads the answer so too."""
    flat = PY + 'print(json.dumps({"additional_context": "read the style guide"}))\n'
    assert not behaviour(tmp_path / "run", "f.py", flat, "SessionStart").counts
    (reported,) = findings(tmp_path / "a", "f.py", flat, "SessionStart", "script/cursor-answer-for-claude")
    assert "hookSpecificOutput.additionalContext" in reported.message
    both = PY + ('print(json.dumps({"additional_context": "x", "hookSpecificOutput": {"hookEventName": '
                 '"SessionStart", "additionalContext": "x"}}))\n')
    assert not findings(tmp_path / "b", "b.py", both, "SessionStart", "script/cursor-answer-for-claude")


@pytest.mark.parametrize("event, reported", [("postToolUse", True), ("afterShellExecution", True), ("stop", True),
                                             ("preToolUse", False), ("beforeShellExecution", False)])
def test_exit_2_on_a_cursor_event_that_cannot_block_is_reported(tmp_path, event, reported):
    """Cursor's exit 2 blocks as a deny does, where a deny can (other-hosts.md §1.3: postToolUse,
    afterShellExecution and stop cannot block)."""
    script = SH + 'cat >/dev/null\necho "no rm" >&2\nexit 2\n'
    found_here = findings(tmp_path, "d.sh", script, event, "script/exit-2-does-not-block", host="cursor")
    assert [("cannot block" in f.message) for f in found_here] == ([True] if reported else [])


def test_a_cursor_answer_that_is_no_deny_is_reported(tmp_path):
    """preToolUse reads permission allow, deny or ask: a Claude Code decision, or permission
    "block", refuses nothing."""
    decision = PY + 'print(json.dumps({"decision": "deny", "reason": "nope"}))\n'
    assert findings(tmp_path / "a", "d.py", decision, "preToolUse", "script/claude-answer-for-cursor", host="cursor")
    block = PY + 'print(json.dumps({"permission": "block"}))\n'
    (reported,) = findings(tmp_path / "b", "b.py", block, "preToolUse", "script/cursor-invalid-permission",
                           host="cursor")
    assert '"block"' in reported.message
    deny = PY + 'print(json.dumps({"permission": "deny", "user_message": "no"}))\n'
    assert not findings(tmp_path / "c", "c.py", deny, "preToolUse", "script/cursor-invalid-permission", host="cursor")


@pytest.mark.parametrize("fail_closed, words", [(False, "lets the action go ahead"),
                                                 (True, "it blocks every action the hook matches")])
def test_text_before_the_json_is_a_failed_hook_to_cursor(tmp_path, fail_closed, words):
    """Cursor reads a stdout that is not one JSON object as a failed hook: fail-open, or a block
    with failClosed (other-hosts.md 1.2)."""
    base = tmp_path / "project"
    script = base / ".cursor" / "hooks" / "t.sh"
    script.parent.mkdir(parents=True)
    script.write_text(SH + 'cat >/dev/null\necho checking\necho \'{"permission": "allow"}\'\n')
    entry = {"command": "bash .cursor/hooks/t.sh", **({"failClosed": True} if fail_closed else {})}
    out = doctor(base, {".cursor/hooks.json": {"version": 1, "hooks": {"beforeShellExecution": [entry]}}})
    (reported,) = found(out, "script/text-before-json")
    assert words in reported.message and "Claude Code" not in reported.message


def test_a_script_run_through_npx_tsx_is_read(tmp_path):
    base = tmp_path / "p"
    script = "const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));\nconsole.log('checking');\n" + DENY_JS
    for command in ("npx tsx .claude/hooks/h.ts", "npx -y tsx@4 .claude/hooks/h.ts", "bunx tsx .claude/hooks/h.ts"):
        out = doctor(base, {S: settings("PreToolUse", command=command), ".claude/hooks/h.ts": script})
        assert [Path(f.path).name for f in found(out, "script/text-before-json")] == ["h.ts"], command


def test_a_stop_hook_active_read_from_the_environment_is_reported_where_it_is_read(tmp_path):
    script = SH + 'INPUT=$(cat)\nif [ "$stop_hook_active" = "true" ]; then exit 0; fi\necho \'{"decision": "block", "reason": "x"}\'\n'
    (reported,) = findings(tmp_path, "loop.sh", script, "Stop", "script/stop-hook-active")
    assert reported.line == 3 and "never sets" in reported.message


def test_an_inline_command_that_reads_stdin_twice_is_reported(tmp_path):
    command = ('[ "$(jq -r .tool_name)" = Bash ] && jq -r .tool_input.command | grep -q "git push" '
               '&& { echo no >&2; exit 2; } || true')
    ran = subprocess.run(["sh", "-c", command], input=json.dumps(payload("PreToolUse", tool_input={
        "command": "git push"})).encode(), capture_output=True)
    assert ran.returncode == 0  # the second jq got nothing: the push is not refused
    assert found(doctor(tmp_path, {S: settings("PreToolUse", command=command)}), "script/stdin-read-twice")
    once = 'INPUT=$(cat); [ "$(echo "$INPUT" | jq -r .tool_name)" = Bash ] && echo "$INPUT" | jq -r .tool_input.command'
    assert not found(doctor(tmp_path / "once", {S: settings("PreToolUse", command=once)}), "script/stdin-read-twice")


def test_a_cursor_gate_that_exits_1_fails_open_unless_fail_closed(tmp_path):
    script = "import json, sys\nd = json.load(sys.stdin)\nif d['command'].startswith('rm -rf'):\n    sys.exit('blocked')\n"
    assert findings(tmp_path, "gate.py", script, "beforeShellExecution", "script/exit-1-fails-open", host="cursor")
    base = tmp_path / "closed"
    (base / ".claude" / "hooks").mkdir(parents=True)
    (base / ".claude" / "hooks" / "gate.py").write_text(script)
    closed = {".cursor/hooks.json": {"version": 1, "hooks": {"beforeShellExecution": [
        {"command": f"{sys.executable} .claude/hooks/gate.py", "failClosed": True}]}}}
    assert not found(doctor(base, closed), "script/exit-1-fails-open")


def test_a_post_tool_use_hook_waiting_for_a_failure_through_a_variable_is_reported(tmp_path):
    script = PY + 'resp = data.get("tool_response", {})\nif resp.get("exit_code", 0) != 0:\n    print("failed")\n'
    (reported,) = findings(tmp_path, "post.py", script, "PostToolUse", "script/failure-in-post-tool-use")
    assert reported.related[0]["line"] == 4  # (found there; reported at the event it is registered on)
    assert reported.path.endswith("settings.json") and "post.py" in reported.message and "its line 4" in reported.message


def test_what_a_rewrite_drops_is_named_for_the_tools_its_matcher_reaches(tmp_path):
    script = PY + src("""
        path = data["tool_input"]["file_path"].replace("\\\\", "/")
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                                 "updatedInput": {"file_path": path}}}))
        """)
    base = tmp_path / "p"
    (base / ".claude" / "hooks").mkdir(parents=True)
    (base / ".claude" / "hooks" / "path.py").write_text(script)
    command = f'{sys.executable} "$CLAUDE_PROJECT_DIR"/.claude/hooks/path.py'
    for matcher, missing in (("Write", "content"), ("Edit", "old_string, new_string, replace_all"),
                             ("Read", "offset, limit"), ("Write|Edit", "content, old_string, new_string, replace_all")):
        (reported,) = found(doctor(base, {S: settings("PreToolUse", matcher=matcher, command=command)}),
                            "script/rewrite-drops-fields")
        assert f"loses {missing} if" in reported.message, matcher
    # a matcher that reaches none of the tools whose fields it names: nothing to judge
    assert not found(doctor(base, {S: settings("PreToolUse", matcher="Bash", command=command)}),
                     "script/rewrite-drops-fields")


LIBRARY = 'log() { echo "[hook] $*"; }\nlog_err() { echo "[hook] $*" >&2; }\ndeny() { echo \'%s\'; }\n' % json.dumps(DENY)


@pytest.mark.parametrize("logger, mixed", [("log", True), ("log_err", False)])
def test_a_function_of_a_sourced_library_that_prints_on_stdout_is_read(tmp_path, logger, mixed):
    script = SH + f'. "$(dirname "$0")/lib.sh"\nINPUT=$(cat)\n{logger} "checking"\ndeny\n'
    base = tmp_path / "p"
    hooks = base / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "lib.sh").write_text(LIBRARY)
    (hooks / "gate.sh").write_text(script)
    ran = subprocess.run(["bash", str(hooks / "gate.sh")], input=json.dumps(payload("PreToolUse")).encode(),
                         capture_output=True)
    reading = read("PreToolUse", "gate.sh", RawRun(ran.returncode, ran.stdout, ran.stderr))
    assert (reading.decision is None) == mixed  # the log line before the answer voids it
    reported = found(doctor(base, {S: settings("PreToolUse", command='bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/gate.sh')}),
                     "script/text-before-json")
    assert bool(reported) == mixed
    if mixed:
        assert reported[0].line == 4 and "lib.sh" in reported[0].message


def test_every_protocol_rule_has_a_case():
    covered = {case[0] for case in CASES} | {"script/failure-in-post-tool-use", "script/claude-answer-for-cursor",
                                              "script/cursor-field-not-read", "script/field-the-event-ignores",
                                              "script/cursor-ask-not-asked", "script/cursor-answer-for-claude",
                                              "script/cursor-invalid-permission"}
    new = {"script/text-before-json", "script/reason-on-stdout", "script/shell-trace",
           "script/updated-input-not-object", "script/rewrite-drops-fields", "script/exit-2-does-not-block",
           "script/exit-1-fails-open", "script/continue-false-not-a-block", "script/invalid-decision-value",
           "script/stdin-read-twice", "script/failure-in-post-tool-use", "script/claude-answer-for-cursor",
           "script/cursor-field-not-read", "script/input-field-never-sent", "script/field-the-event-ignores",
           "script/does-not-parse", "script/answer-on-stderr"}
    assert new <= set(catalog()) and new <= covered


def test_what_the_protocol_rules_find_in_the_corpus_scripts(shared):
    """../shared/corpus/hook-scripts, each judged on the events it names (hookEventName) or as a
    PreToolUse hook, Cursor's copies as Cursor preToolUse hooks. Pinned after reading each hit."""
    from hookwright.doctor.checks.scripts import code_findings
    from hookwright.doctor.checks.scripts.units import HookCode
    from hookwright.doctor.scripts.keys import analyse

    hits = {}
    for path in sorted((shared / "corpus" / "hook-scripts").iterdir()):
        facts = analyse(path)
        events = sorted({site.what for site in facts.event_names}) or ["PreToolUse"]
        cursor = ".cursor__" in path.name
        code = HookCode(facts, [] if cursor else events, ["preToolUse"] if cursor else [],
                        lambda rule, place, variant=None, **params: (rule, place.line))
        for rule, line in code_findings(code):
            hits.setdefault(rule, []).append((path.name, line))
    # each builds updatedInput as {"command": ...}: the call's description, timeout and
    # run_in_background are dropped (observed a: a 1 s timeout was lost); and redpanda-data's
    # rewrites go to stderr (echo "{...updatedInput...}" >&2, jq -n '{...}' >&2) with exit 0, which
    # Claude Code never reads as the answer (their hook library says "exit 2 + JSON stderr")
    assert hits == {"script/answer-on-stderr": [
        ("redpanda-data__ui-harness__.claude__hooks__llm-test-flags.sh", 103),
        ("redpanda-data__ui-harness__.claude__hooks__subagent-length-cap.sh", 84),  # (the `}' >&2` of its jq -n)
        ("redpanda-data__ui-harness__setup-agent-config__scripts__llm-test-flags.sh", 73)],
        "script/rewrite-drops-fields": [
        ("CPIDLE__claude-dotfiles__hooks__intercept-rm.py", 58),
        ("Yugoge__claude-code-config__hooks__pretool-overnight-hook-guard.py", 1799),
        ("cjthompson__claude-code-config__plugins__command-watchdog__hooks__bash-watchdog.py", 78),
        ("gutyoh__claude-code-config__.claude__hooks__enforce-git-pull-rebase.sh", 69),
        ("yurukusa__claude-code-hooks__hooks__comment-strip.sh", 57)]}


def test_a_raise_in_a_function_handed_to_a_library_is_no_known_exit(tmp_path):
    """`hw.run(NAME, handle)`: the library that calls `handle` may catch what it raises (ours
    turns hw.PassThrough into a pass-through), so only a raise the script itself lets out of
    the run exits 1 (found on a fresh git-guard install)."""
    handed = (PY + 'import hooklib\n\ndef check(command):\n    raise hooklib.PassThrough("rm -rf is forbidden")\n\n'
              'def handle(call):\n    check(call["tool_input"]["command"])\n\nsys.exit(hooklib.run(handle))\n')
    assert findings(tmp_path / "handed", "handed.py", handed, "PreToolUse", "script/exit-1-fails-open") == []
    direct = PY + 'def handle(call):\n    raise PermissionError("rm -rf is forbidden")\n\nhandle(data)\n'
    assert findings(tmp_path / "direct", "direct.py", direct, "PreToolUse", "script/exit-1-fails-open")


@pytest.mark.parametrize("name, text", [
    ("both.py", PY + f"out = {DENY!r}\nprint(json.dumps(out), file=sys.stderr)\n"
                     "sys.stdout.write(json.dumps(out) + '\\n')\n"),
    ("buffer.py", PY + f"out = {DENY!r}\nprint(json.dumps(out), file=sys.stderr)\n"
                       "sys.stdout.buffer.write(json.dumps(out).encode())\n"),
    ("variable.sh", SH + f"OUT='{json.dumps(DENY)}'\necho \"$OUT\" >&2\necho \"$OUT\"\n"),
    ("status.py", PY + f"BLOCK = 2\nprint(json.dumps({DENY!r}), file=sys.stderr)\nsys.exit(BLOCK)\n"),
    ("status.sh", SH + f"BLOCK=2\necho '{json.dumps(DENY)}' >&2\nexit \"$BLOCK\"\n"),
    ("status.js", JS + f"const BLOCK = 2;\nconsole.error(JSON.stringify({json.dumps(DENY)}));\nprocess.exit(BLOCK);\n"),
])
def test_an_answer_on_stderr_beside_stdout_or_an_exit_doctor_cannot_read_is_not_called_lost(tmp_path, name, text):
    """The answer may reach stdout too (a write whose text is not read here), or the exit status
    may be 2 (a variable): the rule keeps quiet rather than guess (found by review)."""
    assert not findings(tmp_path, name, text, "PreToolUse", "script/answer-on-stderr")


def test_a_shell_answer_sent_to_stderr_is_reported_at_the_redirection_that_sends_it_there(tmp_path):
    text = SH + "INPUT=$(cat)\njq -n '{hookSpecificOutput: {hookEventName: \"PreToolUse\",\n" \
                "  permissionDecision: \"deny\", permissionDecisionReason: \"no\"}}' >&2\nexit 0\n"
    reported = findings(tmp_path, "split.sh", text, "PreToolUse", "script/answer-on-stderr")
    assert [(f.line, f.column) for f in reported] == [(4, 65)]  # the `>&2` after the closing quote


@pytest.mark.parametrize("name, text", [
    ("either.sh", SH + "INPUT=$(cat)\nCMD=$(echo \"$INPUT\" | jq -r '.tool_input.command // .command // empty')\n"
                       "echo \"$CMD\" >&2\nexit 0\n"),
    ("settings.js", "const fs = require('fs'), os = require('os');\n"
                    "const { model } = JSON.parse(fs.readFileSync(os.homedir() + '/.claude/settings.json', 'utf8'));\n"
                    "console.log(JSON.stringify({}));\n"),
])
def test_fields_that_stand_in_for_each_other_or_come_from_another_file_are_no_input_never_sent(tmp_path, name, text):
    """`.tool_input.command // .command` reads whichever the event sends, and a JSON file of the
    script's own is not the hook's input (found by review: both were false alarms)."""
    assert not findings(tmp_path, name, text, "PreToolUse", "script/input-field-never-sent")


BOTH_EVENTS = PY + src("""
    event = data["hook_event_name"]
    if event == "PreToolUse":
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))
    elif event == "PostToolUse" and "error" in json.dumps(data.get("tool_response", "")):
        ANSWER
    """)


@pytest.mark.parametrize("answer, reported", [
    ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny", '
     '"permissionDecisionReason": "the command failed"}}))', True),
    ('print(json.dumps({"decision": "block", "reason": "the command failed"}))', False),
])
def test_a_decision_in_the_part_of_a_script_for_an_event_that_reads_none_is_reported_there(tmp_path, answer, reported):
    text = BOTH_EVENTS.replace("ANSWER", answer)
    reading = behaviour(tmp_path, "both.py", text, "PostToolUse")  # (as Claude Code reads it: the deny ignored)
    assert ("hookSpecificOutput.permissionDecision" in reading.ignored_fields) == reported
    assert (reading.decision == "block") != reported
    base = tmp_path / "project"
    run = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/both.py'
    config = {"hooks": {event: [{"matcher": "Bash", "hooks": [{"type": "command", "command": run}]}]
                        for event in ("PreToolUse", "PostToolUse")}}
    out = doctor(base, {".claude/hooks/both.py": text, S: config})
    lines = [n for n, row in enumerate(text.splitlines(), 1) if "deny" in row]
    assert [(f.line, "part that runs on PostToolUse" in f.message) for f in found(out, "script/decision-wrong-event")] \
        == [(line, True) for line in lines]
    assert not found(out, "script/field-the-event-ignores")  # (one finding for the one defect)


def test_an_answer_printed_to_stderr_over_several_lines_is_reported_at_its_file_argument(tmp_path):
    script = ("import json, sys\ndef main():\n    json.load(sys.stdin)\n    print(json.dumps(\n        "
              f"{DENY!r}),\n        file=sys.stderr)\n    return 0\nif __name__ == '__main__':\n    sys.exit(main())\n")
    (hit,) = findings(tmp_path, "main.py", script, "PreToolUse", "script/answer-on-stderr")
    assert hit.line == 6  # file=sys.stderr, where the stream is chosen
