"""A plan: the difference between a config today and the config wanted, plus the runtime
files to write or remove. Plans are shown before anything is written and carried out by
apply.py; the same code path serves --dry-run."""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .. import hosts, safe_read
from ..document import Document
from ..errors import ExitCode, HookwrightError
from ..hosts.base import Entry, Target
from ..project import project_of
from ..text_enum import TextEnum

if TYPE_CHECKING:
    from .plan_check import PlanFinding



class Action(TextEnum):
    """What a plan does to one pack, as its line in the plan and the JSON's "action" say."""

    INSTALL = "install"
    UPGRADE = "upgrade"  # a newer version of the pack
    RECONFIGURE = "reconfigure"  # other option values
    REPAIR = "repair"  # entries or runtime files put back as the receipt says
    UNINSTALL = "uninstall"
    RESTORE = "restore"  # a rollback puts the folder back as it was
    UNCHANGED = "unchanged"


@dataclass(frozen=True)
class PackChange:
    """What happens in one pack's runtime folder (the receipt is one of its files): made whole by
    the planning, never changed after, as the plan it is part of (its collections are frozen when
    it is made: a tuple, a read-only mapping)."""

    pack: str
    action: Action
    folder: Path
    writes: Mapping[str, tuple[bytes, int]] = field(default_factory=dict)  # name -> (content, mode)
    removes: Sequence[str] = ()
    version_from: str | None = None
    version_to: str | None = None
    notes: Sequence[str] = ()
    on_failure: str | None = None  # a pack with a hook that blocks: continue (fails open) or block (fails closed)
    on_failure_how: str = ""  # what that means in this host, in words (the plan's pack line)
    source_from: str | None = None  # a pack from elsewhere: where the one installed came from (provenance.Source)
    source_to: str | None = None  # and where the one planned comes from

    def __post_init__(self) -> None:
        _freeze(self, ("removes", "notes"), ("writes",))

    @property
    def touches_files(self) -> bool:
        return bool(self.writes or self.removes)


# a plan's fields that belong to the command run, not to the files: a plan made again keeps them
RUN_FIELDS = ("command", "batch", "project", "scope_reason", "undoes", "undoes_what")


@dataclass(frozen=True)
class Plan:
    """Built once and never changed: what is shown is what is checked and what is written. Where
    the world changed, or a step adds its part (the run's batch, doctor's findings), a new plan is
    made (again(), checked(), dataclasses.replace). Its collections are frozen when it is made
    (tuples, read-only mappings): a step that appends to one fails."""

    command: str
    target: Target
    document: Document
    new_data: Any
    added: Sequence[Entry] = ()
    removed: Sequence[Entry] = ()
    packs: Sequence[PackChange] = ()
    notes: Sequence[str] = ()
    exact_bytes: bytes | None = None  # the bytes to write, when not the rendering (rollback, a file wholly ours)
    replan: Callable[[], "Plan"] | None = None
    # a plan whose change follows from the plans run before it (Codex's trust in the hooks they
    # wrote, a trust key being a hook's place): made again from those as written (after()) before
    # anything is decided about it, since their files may hold another layout than was planned
    follows: Callable[[list["Plan"]], "Plan"] | None = None
    delete_config: bool = False  # the config did not exist before we wrote it, and is empty again
    remove_folders: Sequence[Path] = ()  # with the config: folders we made for it, if empty
    made_folders: Sequence[str] = ()  # an install: the folders it makes (journaled before)
    batch: str | None = None  # the command run it is part of (run_plans sets it): rollback undoes a run whole
    project: Path | None = None  # where its effect on the hooks is checked (user scope: cwd or --project)
    findings: Sequence[PlanFinding] = ()  # installer.plan_check: what it does to doctor's
    # files it writes outside the pack folders (the local scope's .gitignore), so the plan names every write
    other_writes: Mapping[Path, bytes] = field(default_factory=dict)
    scope_reason: str | None = None  # why this scope, when the user did not name it (--project alone)
    undoes: str | None = None  # a rollback's plan: the operation it undoes (the journal records it)
    undoes_what: str | None = None  # that operation in words ("install of git-guard"), for the result line

    def __post_init__(self) -> None:
        _freeze(self, ("added", "removed", "packs", "notes", "remove_folders", "made_folders", "findings"),
                ("other_writes",))

    @cached_property
    def new_bytes(self) -> bytes:
        """What the config will hold (b"" once deleted)."""
        if self.delete_config:
            return b""
        if self.exact_bytes is not None:
            return self.exact_bytes
        return self.document.render(self.new_data) if self.config_changes_data else self.document.raw

    @property
    def config_changes_data(self) -> bool:
        if not self.document.exists:  # a file we would create only to hold nothing stays absent
            return bool(self.new_data != {})
        return bool(self.new_data != self.document.data)

    @property
    def config_changed(self) -> bool:
        return self.new_bytes != self.document.raw or self.delete_config and self.document.exists

    @property
    def changed(self) -> bool:
        return self.config_changed or bool(self.other_writes) or any(p.touches_files for p in self.packs)

    def signature(self) -> tuple[list[Any], ...]:
        """What the plan does, independent of unrelated bytes elsewhere in the file."""
        return (sorted(e.key for e in self.added), sorted(e.key for e in self.removed),
                sorted((p.pack, p.action, tuple(sorted(p.writes)), tuple(sorted(p.removes))) for p in self.packs),
                sorted(map(str, self.other_writes)))

    def again(self) -> "Plan":
        """The same change planned again on the files as they are now (the run's fields kept)."""
        if self.replan is None:
            return self
        return replace(self.replan(), **{name: getattr(self, name) for name in RUN_FIELDS})

    def after(self, written: list["Plan"]) -> "Plan":
        """The plan made again from the plans run before it in its run, as they were written (the
        run's fields kept); itself where it does not follow them."""
        if self.follows is None:
            return self
        return replace(self.follows(written), **{name: getattr(self, name) for name in RUN_FIELDS})

    def updates(self) -> list[tuple[Entry, Entry]]:
        """(old, new) for each hook the plan removes and adds again changed (another option,
        version or a hand edit): one change to show as an update, not a removal and an addition."""
        added = {(e.pack, e.hook, e.event): e for e in self.added}
        return [(old, added[(old.pack, old.hook, old.event)]) for old in self.removed
                if (old.pack, old.hook, old.event) in added]

    def checked(self) -> "Plan":
        """This plan with doctor's findings before and after the change, for the plan to show (and
        to ask about)."""
        from .plan_check import check

        findings, notes = check(self, self.project or self.target.project or project_of(None))
        return replace(self, findings=findings, notes=(*self.notes, *(note for note in notes if note not in self.notes)))

    @property
    def blocking_findings(self) -> list[PlanFinding]:
        """The errors the change would introduce: it is not written without consent."""
        return [f for f in self.findings if f.blocks]

    def check_valid(self) -> None:
        """Never write a file the host would reject: no schema problem the file did not have."""
        if not self.config_changed or self.delete_config:
            return
        host = hosts.get(self.target.host)
        new_problems = host.problems(self.new_data) - (host.problems(self.document.data) if self.document.exists else set())
        if new_problems:
            raise HookwrightError(f"the result would not be a valid {host.title} file; nothing written",
                                  path=self.target.config, code=ExitCode.REFUSED,
                                  detail="\n".join(sorted(new_problems)))

    def unified_diff(self) -> str:
        old = self.document.decode(self.document.raw)
        new = self.document.decode(self.new_bytes)
        name = str(self.target.config)
        return "".join(difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True),
            fromfile=name if self.document.exists else "/dev/null",
            tofile="/dev/null" if self.delete_config else name))

    def changed_paths(self) -> list[str]:
        """Every JSON path the change touches (DeepDiff), to show that nothing foreign moved."""
        from deepdiff import DeepDiff  # only --json output needs it: 32 ms of CPU on status (scripts/bench_start.py)

        diff = DeepDiff(self.document.data if self.document.exists else {}, self.new_data,
                        ignore_order=False, view="tree")
        return sorted({_dotted(item.path(output_format="list")) for items in diff.values() for item in items})

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target.to_json(),
            "changed": self.changed,
            "added": [e.to_json() for e in self.added],
            "removed": [e.to_json() for e in self.removed],
            "packs": [{"pack": p.pack, "action": p.action.value, "folder": str(p.folder),
                       "version_from": p.version_from, "version_to": p.version_to,
                       "writes": sorted(p.writes), "removes": sorted(p.removes), "notes": list(p.notes),
                       "on_failure": p.on_failure, "source_from": p.source_from, "source_to": p.source_to}
                      for p in self.packs],
            "other_writes": sorted(map(str, self.other_writes)),
            "changed_paths": self.changed_paths() if self.config_changed else [],
            "diff": self.unified_diff(),
            "findings": [f.to_json() for f in self.findings],
            "notes": list(self.notes),
        }


def _freeze(made: Any, sequences: tuple[str, ...], mappings: tuple[str, ...]) -> None:
    """A frozen dataclass's collections made immutable as it is built (the one place its fields
    are set after __init__), whatever the caller passed: tuples and read-only mappings."""
    for name in sequences:
        object.__setattr__(made, name, tuple(getattr(made, name)))
    for name in mappings:
        object.__setattr__(made, name, MappingProxyType(dict(getattr(made, name))))


PERSONAL_GITIGNORE = b"# written by hookwright: personal hook runtimes (local scope)\n*\n"


def personal_gitignore(target: Target, changes: list[PackChange]) -> dict[Path, bytes]:
    """The local scope is personal: its runtimes stay out of version control, by a .gitignore
    in their root, written with them, or put back where someone removed it."""
    ignore = target.runtime_root / ".gitignore"
    if not target.personal or ignore.exists():
        return {}
    if not any(c.writes or c.folder.is_dir() and any(c.folder.iterdir()) for c in changes):
        return {}
    return {ignore: PERSONAL_GITIGNORE}


def edited_entries(action: str, target: Target, edited: list[tuple[Entry, Any]], force_does: str) -> HookwrightError:
    """The refusal when entries we must touch were changed by someone since we wrote them:
    each as we wrote it and as it is now, so the user sees the edit before consenting (--force)."""
    count = f"{len(edited)} entr{'y was' if len(edited) == 1 else 'ies were'}"
    return HookwrightError(
        f"cannot {action}: {count} changed since hookwright wrote {'it' if len(edited) == 1 else 'them'}",
        path=target.config, code=ExitCode.REFUSED,
        hint=f"edit them back, or use --force to {force_does}",
        detail="\n".join(f"{entry.describe()}\n  expected: {json.dumps(entry.handler)}\n  now:      {json.dumps(now)}"
                         for entry, now in edited))


def _dotted(parts: list[Any]) -> str:
    return ".".join(str(p) for p in parts)


def file_writes(folder: Path, wanted: dict[str, tuple[bytes, int]]) -> dict[str, tuple[bytes, int]]:
    """Only the files whose bytes or mode differ from what is on disk."""
    writes = {}
    for name, (content, mode) in wanted.items():
        path = folder / name
        try:
            same = safe_read.read_or_none(path, safe_read.RUNTIME) == content and (path.stat().st_mode & 0o777) == mode
        except OSError:
            same = False
        if not same:
            writes[name] = (content, mode)
    return writes
