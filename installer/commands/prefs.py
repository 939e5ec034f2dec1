"""`hookwright prefs`: the question preferences the ask-guard pack reads.

Two files, project over user, each `{"version": 1, "questions": {id: never-ask|always-ask},
"doors": {id: one-way|two-way}}`: the user file in the user config dir, the project file at
`<project>/.claude/hookwright-prefs.json` (commit it to share the team's choices). Written
like every other user file: locked, format kept, atomic. The command itself is the
confirmation: `prefs set` writes without asking; `--dry-run` shows the change.
"""
from __future__ import annotations

import copy
import difflib
from pathlib import Path
from typing import Any

from .. import atomic, state
from ..document import Document, read_document
from ..errors import ExitCode, HookwrightError
from ..layout import project_prefs, user_prefs
from ..patterns import lazy
from .result import Payload, Result, Status

QUESTION_VALUES = ("never-ask", "always-ask")
DOOR_VALUES = ("one-way", "two-way")
_ID = lazy(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$")


def _read(path: Path) -> Document:
    doc = read_document(path)
    if not doc.exists:
        doc.data = {"version": 1, "questions": {}, "doors": {}}
        return doc
    data = doc.data
    problem = None
    if not isinstance(data, dict):
        problem = "must be a JSON object"
    elif data.get("version", 1) != 1:
        problem = f"has version {data.get('version')!r}; this hookwright knows version 1"
    else:
        for table, allowed in (("questions", QUESTION_VALUES), ("doors", DOOR_VALUES)):
            values = data.get(table, {})
            if not isinstance(values, dict) or any(v not in allowed for v in values.values()):
                problem = f'"{table}" must map ids to one of {", ".join(allowed)}'
    if problem:
        node = doc.root
        line, col = doc.position(node) if node else (None, None)
        raise HookwrightError(f"invalid preferences file: {problem}", path=path, line=line, column=col,
                              hint="fix it by hand, or move it away and set the preferences again")
    return doc


def _change(path: Path, table: str, qid: str, value: str | None, dry_run: bool) -> Result:
    if not _ID.match(qid):
        raise HookwrightError(f"{qid!r} is not a question id (letters, digits, . _ : -)")
    atomic.check_writable(path)
    with state.locked(path):
        atomic.clean_stale_temps(path.parent)
        doc = _read(path)
        data = copy.deepcopy(doc.data)
        section = data.setdefault(table, {})
        if value is None:
            section.pop(qid, None)
        else:
            section[qid] = value
        if data == doc.data:  # (an unset in a file that does not exist does not make it)
            return Result("prefs", Status.UNCHANGED, payload=PrefsWritten(str(path)))
        new = doc.render(data) if doc.exists else Document.new(path).render(data)
        diff = "".join(difflib.unified_diff(doc.raw.decode("utf-8", "replace").splitlines(True),
                                            new.decode("utf-8").splitlines(True),
                                            fromfile=str(path) if doc.exists else "/dev/null", tofile=str(path)))
        if not dry_run:
            try:
                atomic.write_bytes(path, new, expect=doc.raw, mode=0o644)
            except atomic.ConcurrentChange:
                raise HookwrightError("the preferences file changed while hookwright wrote it; nothing was written",
                                      path=path, code=ExitCode.REFUSED, hint="run the command again") from None
    return Result("prefs", Status.DRY_RUN if dry_run else Status.APPLIED, payload=PrefsWritten(str(path), diff))


def set_value(qid: str, value: str, *, project: Path | None, dry_run: bool) -> Result:
    """A preference (never-ask, always-ask) or a door type (one-way, two-way) for one id."""
    table = "questions" if value in QUESTION_VALUES else "doors" if value in DOOR_VALUES else None
    if table is None:
        raise HookwrightError(f"{value!r} is neither a preference nor a door type",
                              hint=f"use one of: {', '.join(QUESTION_VALUES + DOOR_VALUES)}")
    return _change(project_prefs(project) if project else user_prefs(), table, qid, value, dry_run)


def unset(qid: str, *, project: Path | None, dry_run: bool, project_dir: Path | None = None) -> Result:
    """Forget an id in one file (the project's with `project`). When only the other file holds it,
    nothing is written and the result says where it is. `project_dir`: where to look for the
    project file when the user file is the one changed."""
    path = project_prefs(project) if project else user_prefs()
    first = _change(path, "questions", qid, None, dry_run)
    second = _change(path, "doors", qid, None, dry_run)
    result = first if first.status != Status.UNCHANGED else second
    if result.status == Status.UNCHANGED:
        other = user_prefs() if project else project_prefs(project_dir) if project_dir else None
        if other is not None and _holds(other, qid):
            flag = "--scope user" if project else "--scope project"
            assert isinstance(result.payload, PrefsWritten)  # (what _change answers with)
            result.payload.note = f"{qid} is not set in {path}; it is set in {other} (add {flag} to unset it there)"
    return result


def _holds(path: Path, qid: str) -> bool:
    data = _read(path).data
    return any(qid in data.get(table, {}) for table in ("questions", "doors"))


def merged(project: Path | None) -> Result:
    """Every id with its effective value and where it comes from (project over user)."""
    sources = [("user", user_prefs())]
    if project:
        sources.append(("project", project_prefs(project)))
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for source, path in sources:
        data = _read(path).data
        for table in ("questions", "doors"):
            for qid, value in data.get(table, {}).items():
                shadowed = rows.get((table, qid))
                rows[(table, qid)] = {"kind": table[:-1], "id": qid, "value": value, "source": source,
                                      "file": str(path), "overrides": shadowed["source"] if shadowed else None}
    return Result("prefs", Status.LISTED, payload=Preferences(sorted(rows.values(), key=lambda r: (r["kind"], r["id"])),
                                                             {s: str(p) for s, p in sources}))


class PrefsWritten(Payload):
    omitted_while_none = ("diff", "note")

    def __init__(self, file: str, diff: str | None = None, note: str | None = None) -> None:
        self.file = file
        self.diff = diff  # what changed (none: nothing did)
        self.note = note  # where an id to unset is instead


class Preferences(Payload):
    def __init__(self, preferences: list[dict[str, Any]], files: dict[str, str]) -> None:
        self.preferences = preferences  # kind, id, value, source, file, overrides
        self.files = files  # the files read, by scope
