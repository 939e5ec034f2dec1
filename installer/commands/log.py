"""`hookwright log`: what our hooks decided, newest first.

The bundled runtimes write one JSON line per deny, ask, allow, rewrite and pass-through on an
error to the decision log beside hooks.log (templates/runtime/hookwright_runtime.py: record),
moving it to `<log>.1` past its bound. This reads both files, newest line first, and keeps the
lines of the project (the one the working folder is in, or --project; --all for every one),
of a pack and of a decision. A line that is not a decision (cut short by a full disk, say) is
skipped and counted.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .. import layout, safe_read
from ..errors import HookwrightError, did_you_mean
from ..hosts.base import check_project
from ..project import project_of
from .result import Payload, Result, Status

DECISIONS = ("deny", "ask", "allow", "rewrite", "error")
MAX_READ = 8 << 20  # bytes read of one log file: the runtimes keep each under about 1 MiB


class Decisions(Payload):
    def __init__(self, project: str | None, filters: dict[str, Any], files: list[str], skipped: int,
                 entries: list[dict[str, Any]]) -> None:
        self.project = project  # the project the lines were kept for (None: --all)
        self.filters = filters  # --pack, --decision, --limit as given
        self.files = files  # the log files read, newest first
        self.skipped = skipped  # lines that were not a decision
        self.entries = entries  # newest first (schemas/log.schema.json)


def show_log(project: Path | None = None, *, every_project: bool = False, pack: str | None = None,
             decision: str | None = None, limit: int | None = 50) -> Result:
    """The decision log's lines, newest first, kept by project, pack and decision."""
    if decision is not None and decision not in DECISIONS:
        raise HookwrightError(f"{decision!r} is not a decision the hooks log",
                              hint=did_you_mean(decision, DECISIONS) or f"use one of {', '.join(DECISIONS)}")
    if every_project and project is not None:
        raise HookwrightError("--all and --project both say which project", hint="give one of them")
    if limit is not None and limit < 1:
        raise HookwrightError("--limit must be 1 or more", hint="--limit 20")
    check_project(project)
    here = None if every_project else project_of(project).resolve()
    newest = layout.decision_log()
    files = [newest, newest.with_name(newest.name + ".1")]
    lines, skipped = _read(files)
    kept = [e for e in lines if (here is None or _in_project(e, here)) and (pack is None or e.get("pack") == pack)
            and (decision is None or e.get("decision") == decision)]
    return Result("log", Status.LISTED, payload=Decisions(
        str(here) if here else None, {"pack": pack, "decision": decision, "limit": limit},
        [str(f) for f in files if f.is_file()], skipped, kept[:limit] if limit else kept))


def _read(files: list[Path]) -> tuple[list[dict[str, Any]], int]:
    """Every decision of the files (the newest file first), newest first; and how many lines were not one."""
    entries: list[dict[str, Any]] = []
    skipped = 0
    for path in files:
        try:
            raw = safe_read.read(path, safe_read.STATE, prefix=MAX_READ)
        except (OSError, HookwrightError):
            continue
        for line in reversed(raw.splitlines()):
            try:
                entry = json.loads(line)
            except ValueError:
                entry = None
            if isinstance(entry, dict) and isinstance(entry.get("decision"), str):
                entries.append(entry)
            elif line.strip():
                skipped += 1
    return entries, skipped


def _in_project(entry: dict[str, Any], project: Path) -> bool:
    """A decision taken in the project or in a folder of it (an agent started in a subfolder)."""
    where = entry.get("project")
    if not isinstance(where, str) or not where:
        return False
    folder = Path(os.path.realpath(where))
    return folder == project or project in folder.parents
