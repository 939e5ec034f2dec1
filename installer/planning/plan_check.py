"""What a plan does to doctor's findings for the project it changes.

Every plan (install, upgrade, uninstall, rollback) is checked before it is shown: doctor's
checks run on the effective hooks of the project (every scope and enabled plugin the host
combines there) as they are, and with the changed file as it would be written. The difference
is what the plan shows: the findings it introduces (conflicts first: two hooks rewriting one
tool's input, copies that run twice, a hook of ours a foreign one makes moot), the ones it
resolves, and how many it keeps. An introduced error needs consent.

Conflicts are between hooks, so they are worked out again for the whole project; the pairs
that involve an entry the change adds or removes are always listed, however many pairs there
are. The other checks look at one handler at a time, so a change can only bring their
findings with the entries it adds and take them away with the entries it removes: only the
added entries are checked again. That is also what keeps a finding that the disk, not the
plan, changed in the meantime (another install removing a runtime) from passing for one the
plan introduces.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..doctor import report, run
from ..doctor.model import resolved
from ..records import Record

if TYPE_CHECKING:
    from ..doctor.model import ConfigFile, Context, Finding, Handler
    from ..document import Keys
    from .plan import Plan

INTRODUCED, RESOLVED, KEPT = "introduced", "resolved", "kept"
CONFLICTS = ("conflicts",)
# install/*: hookwright's own bookkeeping (receipts, runtime files), which is what the plan changes
BOOKKEEPING = ("installs",)
# about a runtime file: for a pack the plan installs, that file is not written yet when it is checked
RUNTIME_KINDS = ("command/", "script/", "host/opencode-runtime-missing")
_ORDER = {INTRODUCED: 0, RESOLVED: 1, KEPT: 2}
_SEVERITY = {"error": 0, "warning": 1, "info": 2}


class PlanFinding(Record):
    """A doctor finding, and what the plan does to it."""

    finding: Finding
    change: str  # introduced | resolved | kept

    @property
    def blocks(self) -> bool:
        """An error the change would bring: not written without consent."""
        return self.change == INTRODUCED and self.finding.severity == "error"

    def to_json(self) -> dict[str, Any]:
        f = self.finding
        return {"rule": f.rule, "severity": f.severity, "file": f.path, "line": f.line, "column": f.column,
                "message": f.message, "hint": f.hint, "change": self.change}


def check(plan: Plan, project: Path) -> tuple[list[PlanFinding], list[str]]:
    """The findings `plan` introduces, resolves and keeps in `project`, introduced ones first
    (conflicts before the rest, errors before warnings), and notes on what could not be listed.
    Introduced and kept findings point into the file as it would be written, resolved ones
    into the file as it is."""
    per_handler = [name for name in run.CHECK_MODULES if name not in (*CONFLICTS, *BOOKKEEPING)]  # (a new check too)
    config = plan.target.config
    # the plan's own reading of the file it changes (the disk may have moved on since), then its result
    before = run.staged(project, {config: plan.document.raw if plan.document.exists else None})
    after = run.staged(project, {config: None if plan.delete_config else plan.new_bytes}, reuse=before)
    old_file, new_file = _file(before, config), _file(after, config)
    added, removed, moved = _entries_changed(_handlers_of(before, old_file), _handlers_of(after, new_file))
    before.focus, after.focus = frozenset(map(id, removed)), frozenset(map(id, added))
    old = run.findings(before, (*per_handler, *CONFLICTS))
    unwritten = {(str(h.file.path), h.keys) for h in added if h.owner and h.owner[0] in {p.pack for p in plan.packs}}
    new = [_moved(f, old_file, new_file, moved) for f in old
           if not f.rule.startswith("conflict/") and not _about_any(f, removed)]
    new += [f for f in run.findings(_only(after, new_file, added), per_handler)
            if _about_any(f, added) and not (f.rule.startswith(RUNTIME_KINDS) and _about(f, unwritten))]
    new += run.findings(after, CONFLICTS)
    cut = before.truncated | after.truncated
    notes = []
    if cut:  # beyond the cap, only the pairs the change takes part in are listed on both sides
        unlisted = sum(1 for f in old if f.rule in cut and not f.focused)
        old = [f for f in old if f.rule not in cut or f.focused]
        new = [f for f in new if f.rule not in cut or f.focused]
        notes.append(f"the project has too many pairs of rewriting hooks to list them all: the plan shows the ones "
                     f"this change takes part in, and not {unlisted} others (hookwright doctor lists them)")
    keeps = report.from_config(project).keeps  # a rule the project's doctor config leaves out, the plan does too
    return _compare([f for f in old if keeps(f)], [f for f in new if keeps(f)]), notes


def _compare(old: list[Finding], new: list[Finding]) -> list[PlanFinding]:
    waiting = Counter(f.identity() for f in old)
    found = []
    for finding in new:
        key = finding.identity()
        found.append(PlanFinding(finding, KEPT if waiting[key] else INTRODUCED))
        waiting[key] -= bool(waiting[key])
    for finding in old:
        key = finding.identity()
        if waiting[key]:
            waiting[key] -= 1
            found.append(PlanFinding(finding, RESOLVED))
    found.sort(key=lambda p: (_ORDER[p.change], not p.finding.rule.startswith("conflict/"),
                              _SEVERITY[p.finding.severity]))
    return found


def _file(ctx: Context, config: Path) -> ConfigFile | None:
    return next((f for f in ctx.files if resolved(f.path) == resolved(config)), None)


def _handlers_of(ctx: Context, file: ConfigFile | None) -> list[Handler]:
    return [h for h in ctx.handlers if h.file is file] if file is not None else []


def _entries_changed(then: list[Handler], now: list[Handler]) -> tuple[list[Handler], list[Handler], dict[Keys, Keys]]:
    """The handlers of the changed file that the change adds and removes, and where each one
    it keeps went (its JSON path, and its group's, then and now). Equal handlers, same event
    and matcher, are the same entry wherever they moved; equal ones pair off in order."""
    def key(handler: Handler) -> tuple[str, str | None, str]:
        return handler.event, handler.matcher, json.dumps(handler.value, sort_keys=True)

    waiting: dict[tuple[str, str | None, str], list[Handler]] = {}
    for handler in then:
        waiting.setdefault(key(handler), []).append(handler)
    added: list[Handler] = []
    kept: set[int] = set()
    moved: dict[Keys, Keys] = {}
    for handler in now:
        same = waiting.get(key(handler))
        if same:
            was = same.pop(0)
            kept.add(id(was))
            moved.setdefault(was.group_keys, handler.group_keys)
            moved[was.keys] = handler.keys
        else:
            added.append(handler)
    return added, [h for h in then if id(h) not in kept], moved


def _moved(finding: Finding, old: ConfigFile | None, new: ConfigFile | None, moved: dict[Keys, Keys]) -> Finding:
    """A finding of the changed file that the change keeps, at its place in the file as written:
    its JSON path, with the part that named its handler (or group) as it is named there now."""
    if old is None or new is None or finding.path != str(old.path) or not finding.keys:
        return finding
    keys = finding.keys
    for n in range(len(keys), 0, -1):
        if keys[:n] in moved:
            keys = moved[keys[:n]] + keys[n:]
            break
    line, column = new.position(keys, finding.at_key)
    return finding._replace(line=line, column=column)


def _only(ctx: Context, file: ConfigFile | None, handlers: list[Handler]) -> Context:
    """The project's context narrowed to some handlers of the changed file (and no plugins, whose
    findings are the other files'), for the checks that look at one handler at a time."""
    return ctx.narrowed([file] if file else [], handlers, [])


def _about_any(finding: Finding, handlers: list[Handler]) -> bool:
    return _about(finding, {(str(h.file.path), h.keys) for h in handlers}
                  | {(str(h.file.path), h.group_keys) for h in handlers if h.group_keys != h.keys})


def _about(finding: Finding, places: set[tuple[str, Keys]]) -> bool:
    """Whether the finding sits at one of these JSON paths of a file, or inside one. A group's
    own keys (its matcher) count as its handlers'; its other handlers do not."""
    keys = finding.keys
    for n in range(len(keys) + 1):
        if (finding.path, keys[:n]) in places:
            rest = keys[n:]
            return not (rest[:1] == ("hooks",) and len(rest) > 1 and (finding.path, keys[:n + 2]) not in places)
    return False
