"""What a plan does to doctor's findings for the project it changes.

Every plan (install, upgrade, uninstall, rollback) is checked before it is shown: doctor's
checks run on the effective hooks of the project (every scope and enabled plugin the host
combines there) as they are, and with the changed file as it would be written. The difference
is what the plan shows: the findings it introduces (conflicts first: two hooks rewriting one
tool's input, copies that run twice, a hook of ours a foreign one makes moot), the ones it
resolves, and how many it keeps. An introduced error needs consent.

Conflicts are between hooks, so they are worked out again for the whole project. The other
checks look at one handler at a time, so a change can only bring their findings with the
entries it adds and take them away with the entries it removes: only the added entries are
checked again. That is also what keeps a finding that the disk, not the plan, changed in the
meantime (another install removing a runtime) from passing for one the plan introduces.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from installer.doctor.model import ConfigFile, Context, Finding, Handler
    from installer.plan import Plan

INTRODUCED, RESOLVED, KEPT = "introduced", "resolved", "kept"
CONFLICTS = ("conflicts",)
# install/*: hookwright's own bookkeeping (receipts, runtime files), which is what the plan changes
PER_HANDLER = ("structure", "matchers", "hosts", "commands", "scripts")
# about a runtime file: for a pack the plan installs, that file is not written yet when it is checked
RUNTIME_KINDS = ("command/", "script/")
_POSITION = re.compile(r"(?<=line )\d+|(?<=:)\d+\b")  # "line 12 of this file", "settings.json:12"
_ORDER = {INTRODUCED: 0, RESOLVED: 1, KEPT: 2}
_SEVERITY = {"error": 0, "warning": 1, "info": 2}


class PlanFinding(NamedTuple):
    """A doctor finding, and what the plan does to it."""

    finding: Finding
    change: str  # introduced | resolved | kept

    @property
    def blocks(self) -> bool:
        """An error the change would bring: not written without consent."""
        return self.change == INTRODUCED and self.finding.severity == "error"

    def to_json(self) -> dict:
        f = self.finding
        return {"rule": f.rule, "severity": f.severity, "file": f.path, "line": f.line, "column": f.column,
                "message": f.message, "hint": f.hint, "change": self.change}


def check(plan: Plan, project: Path) -> list[PlanFinding]:
    """The findings `plan` introduces, resolves and keeps in `project`, introduced ones first
    (conflicts before the rest, errors before warnings)."""
    from installer.doctor import run

    config = plan.target.config
    # the plan's own reading of the file it changes (the disk may have moved on since), then its result
    before = run.staged(project, {config: plan.document.raw if plan.document.exists else None})
    after = run.staged(project, {config: None if plan.delete_config else plan.new_bytes}, reuse=before)
    added, removed = _entries_changed(_file(before, config), _file(after, config), before, after)
    old = run.findings(before, (*PER_HANDLER, *CONFLICTS))
    unwritten = {(str(h.file.path), h.keys) for h in added if h.owner and h.owner[0] in {p.pack for p in plan.packs}}
    new = [f for f in old if not f.rule.startswith("conflict/") and not _about_any(f, removed)]
    new += [f for f in run.findings(_only(after, config, added), PER_HANDLER)
            if _about_any(f, added) and not (f.rule.startswith(RUNTIME_KINDS) and _about(f, unwritten))]
    new += run.findings(after, CONFLICTS)
    return _compare(old, new)


def _compare(old: list[Finding], new: list[Finding]) -> list[PlanFinding]:
    waiting = Counter(map(_identity, old))
    found = []
    for finding in new:
        key = _identity(finding)
        found.append(PlanFinding(finding, KEPT if waiting[key] else INTRODUCED))
        waiting[key] -= bool(waiting[key])
    for finding in old:
        key = _identity(finding)
        if waiting[key]:
            waiting[key] -= 1
            found.append(PlanFinding(finding, RESOLVED))
    found.sort(key=lambda p: (_ORDER[p.change], not p.finding.rule.startswith("conflict/"),
                              _SEVERITY[p.finding.severity]))
    return found


def _identity(finding: Finding) -> tuple:
    """The same finding before and after the change, wherever the change moved it in the file."""
    return finding.rule, finding.path, _POSITION.sub("#", finding.message)


def _file(ctx: Context, config: Path) -> ConfigFile | None:
    from installer.doctor.model import resolved

    return next((f for f in ctx.files if resolved(f.path) == resolved(config)), None)


def _entries_changed(old: ConfigFile | None, new: ConfigFile | None, before: Context,
                     after: Context) -> tuple[list[Handler], list[Handler]]:
    """The handlers of the changed file that the change adds and removes (equal handlers, same
    event and matcher, are the same entry wherever they moved)."""
    then = [h for h in before.handlers if h.file is old] if old is not None else []
    now = [h for h in after.handlers if h.file is new] if new is not None else []
    return _unmatched(now, then), _unmatched(then, now)


def _unmatched(handlers: list[Handler], others: list[Handler]) -> list[Handler]:
    """The handlers that no equal one among `others` pairs off with (each pairs off once)."""
    def key(handler: Handler) -> tuple:
        return handler.event, handler.matcher, json.dumps(handler.value, sort_keys=True)

    waiting = Counter(map(key, others))
    left = []
    for handler in handlers:
        if waiting[key(handler)]:
            waiting[key(handler)] -= 1
        else:
            left.append(handler)
    return left


def _only(ctx: Context, config: Path, handlers: list[Handler]) -> Context:
    """The project's context narrowed to some handlers of the changed file (and no plugins, whose
    findings are the other files'), for the checks that look at one handler at a time."""
    from dataclasses import replace

    file = _file(ctx, config)
    return replace(ctx, files=[file] if file else [], handlers=handlers, plugins=[])


def _about_any(finding: Finding, handlers: list[Handler]) -> bool:
    return _about(finding, {(str(h.file.path), h.keys) for h in handlers}
                  | {(str(h.file.path), h.group_keys) for h in handlers if h.group_keys != h.keys})


def _about(finding: Finding, places: set[tuple[str, tuple]]) -> bool:
    """Whether the finding sits at one of these JSON paths of a file, or inside one. A group's
    own keys (its matcher) count as its handlers'; its other handlers do not."""
    keys = finding.keys
    for n in range(len(keys) + 1):
        if (finding.path, keys[:n]) in places:
            rest = keys[n:]
            return not (rest[:1] == ("hooks",) and len(rest) > 1 and (finding.path, keys[:n + 2]) not in places)
    return False
