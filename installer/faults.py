"""Test-only crash points, so the crash tests can kill a write at every step.

`HOOKWRIGHT_TEST_TRACE=<file>` appends each point reached ("name:n", the n-th time this
process reached it); `HOOKWRIGHT_TEST_KILL_AT=name:n` sends SIGKILL to this process there.
Unset (always, outside the tests), `checkpoint` is a dictionary lookup and nothing else.
"""
from __future__ import annotations

import os
import signal
from collections import Counter

_reached: Counter[str] = Counter()


def checkpoint(name: str) -> None:
    kill_at = os.environ.get("HOOKWRIGHT_TEST_KILL_AT")
    trace = os.environ.get("HOOKWRIGHT_TEST_TRACE")
    if not (kill_at or trace):
        return
    _reached[name] += 1
    label = f"{name}:{_reached[name]}"
    if trace:
        with open(trace, "a", encoding="utf-8") as out:
            out.write(label + "\n")
    if kill_at == label:
        os.kill(os.getpid(), signal.SIGKILL)
