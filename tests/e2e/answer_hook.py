#!/usr/bin/env python3
"""A hook for the simulate conformance suite: it answers as its spec file says.

    python3 answer_hook.py SPEC.json

The spec: {"name": ..., "stdout": "...", "stderr": "...", "exit": 0, "sleep": 0}. On each call it
appends its name to $CLAUDE_PROJECT_DIR/fired.log (which hooks ran, and how often), reads its
stdin, sleeps, prints and exits. Standard library only.
"""
import json
import os
import sys
import time

spec = json.load(open(sys.argv[1], encoding="utf-8"))
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "fired.log"), "a", encoding="utf-8") as log:
    log.write(spec["name"] + "\n")
sys.stdin.read()
time.sleep(spec.get("sleep", 0))
sys.stdout.write(spec.get("stdout", ""))
sys.stderr.write(spec.get("stderr", ""))
sys.stdout.flush()
sys.exit(spec.get("exit", 0))
