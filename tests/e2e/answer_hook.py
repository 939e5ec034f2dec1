#!/usr/bin/env python3
"""A hook that answers as its spec file says, for the e2e suites of every host.

    python3 answer_hook.py SPEC.json

The spec: {"name": ..., "stdout": "...", "stderr": "...", "exit": 0, "sleep": 0, "record": PATH}.
On each call it reads its stdin, appends its name to $CLAUDE_PROJECT_DIR/fired.log where Claude
Code sets that (which hooks ran, and how often), and with "record" appends one JSON line there:
its name, the input it got, its pid and when it started and ended (Codex has no project
variable, and its payloads are the fact under test). Then it sleeps, prints and exits.
Standard library only.
"""
import json
import os
import sys
import time

start = time.time()
spec = json.load(open(sys.argv[1], encoding="utf-8"))
payload = sys.stdin.read()
if "CLAUDE_PROJECT_DIR" in os.environ:
    with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "fired.log"), "a", encoding="utf-8") as log:
        log.write(spec["name"] + "\n")
time.sleep(spec.get("sleep", 0))
if spec.get("record"):
    try:
        received = json.loads(payload)
    except ValueError:
        received = payload
    with open(spec["record"], "a", encoding="utf-8") as log:
        log.write(json.dumps({"name": spec["name"], "input": received, "pid": os.getpid(),
                              "start": start, "end": time.time()}) + "\n")
sys.stdout.write(spec.get("stdout", ""))
sys.stderr.write(spec.get("stderr", ""))
sys.stdout.flush()
sys.exit(spec.get("exit", 0))
