#!/usr/bin/env python3
"""A hook that answers as its spec file says, for the e2e suites of every host.

    python3 answer_hook.py SPEC.json

The spec: {"name": ..., "stdout": "...", "stderr": "...", "exit": 0, "sleep": 0, "record": PATH,
"answers": {COMMAND: {"stdout": ..., ...}}}. On each call it reads its stdin, appends its name to
$CLAUDE_PROJECT_DIR/fired.log where Claude Code sets that (which hooks ran, and how often),
sleeps, and with "record" appends one JSON line there: its name, the input it got, its pid and
when it started and ended (Codex has no project variable, and its payloads are the facts under
test). Then it prints and exits. Where the tool call's command is a key of "answers", that
answer (stdout, stderr, exit, sleep) replaces the spec's own, so one run can try many answers.
Standard library only.
"""
import json
import os
import sys
import time

start = time.time()
spec = json.load(open(sys.argv[1], encoding="utf-8"))
payload = sys.stdin.read()
try:
    received = json.loads(payload)
except ValueError:
    received = payload
command = received.get("tool_input", {}).get("command") if isinstance(received, dict) else None
answer = spec.get("answers", {}).get(command, spec) if isinstance(command, str) else spec
if "CLAUDE_PROJECT_DIR" in os.environ:
    with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "fired.log"), "a", encoding="utf-8") as log:
        log.write(spec["name"] + "\n")
time.sleep(answer.get("sleep", 0))
if spec.get("record"):
    with open(spec["record"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"name": spec["name"], "input": received, "pid": os.getpid(),
                              "start": start, "end": time.time()}) + "\n")
sys.stdout.write(answer.get("stdout", ""))
sys.stderr.write(answer.get("stderr", ""))
sys.stdout.flush()
sys.exit(answer.get("exit", 0))
