"""Helpers for the doctor tests: write a few config files, run doctor in-process, read its findings."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hookwright.doctor.run import Outcome, run

ECHO = {"type": "command", "command": "echo hi"}


def settings(event: str = "PreToolUse", matcher: str | None = "Bash", group: dict | None = None,
             **handler: Any) -> dict:
    """`{"hooks": {event: [{"matcher": matcher, "hooks": [handler]}]}}` with a working default handler."""
    body = {**ECHO, **handler}
    entry = {"matcher": matcher} if matcher is not None else {}
    entry.update(group or {})
    entry["hooks"] = [{k: v for k, v in body.items() if v is not None}]
    return {"hooks": {event: [entry]}}


def write(base: Path, files: dict[str, Any]) -> list[Path]:
    """Write each file (dicts and lists as JSON, strings and bytes as they are, None: a directory)."""
    paths = []
    for name, content in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir()
        elif isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def doctor(base: Path, files: dict[str, Any], *, given: bool = True, **options: Any) -> Outcome:
    """Run doctor on the files (as if named on the command line), or on the project `base` (given=False)."""
    base.mkdir(parents=True, exist_ok=True)
    paths = write(base, files)
    if given:
        return run(paths, project=base, **options)
    return run(None, project=base, **options)


def rule_ids(outcome: Outcome) -> list[str]:
    return [f.rule for f in outcome.findings]


def found(outcome: Outcome, rule: str) -> list:
    return [f for f in outcome.findings if f.rule == rule]
