"""What hookwright remembers: receipts (next to the runtimes), and in the user state dir
the journal of operations, byte-exact backups (rotated) and the per-file locks."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from . import __version__, atomic, layout, safe_read
from .errors import ExitCode, HookwrightError, command_line
from .hosts import NAMES
from .hosts.base import Entry, Scope, Target
from .provenance import BUNDLED, Source

RECEIPT_FORMAT = 1
JOURNAL_FORMAT = 1
OPERATION_KINDS = ("install", "uninstall", "update", "rollback")  # the commands that write a journal line
KEEP_BACKUPS = 50
LOCK_TIMEOUT_S = 30


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def runtime_matches(folder: Path, name: str, digest: str) -> bool:
    found = safe_read.read_or_none(folder / name, safe_read.RUNTIME)
    return found is not None and sha256(found) == digest


@contextmanager
def locked(config: Path) -> Iterator[None]:
    """Serialise read-modify-write of one config file among hookwright processes."""
    import filelock  # the writing side only: 13 to 22 ms of CPU on status and --help otherwise (scripts/bench_start.py)

    folder = layout.locks()
    atomic.make_dir(folder)
    key = sha256(os.fsencode(atomic.resolve(config)))[:24]  # (a folder's name may be any bytes)
    lock = filelock.FileLock(str(folder / f"{key}.lock"), timeout=LOCK_TIMEOUT_S)
    try:
        with lock:
            yield
    except filelock.Timeout:
        raise HookwrightError(f"another hookwright run has held the lock for {LOCK_TIMEOUT_S}s", path=config,
                              code=ExitCode.REFUSED, hint="wait for it to finish and try again") from None


# ---- receipts ----------------------------------------------------------------------------

@dataclass
class RuntimeFile:
    name: str  # relative to the pack's runtime folder, never outside it
    sha256: str
    mode: int


@dataclass
class Receipt:
    """What one install of one pack put where; how uninstall and upgrade know what is ours."""

    pack: str
    version: str
    host: str
    scope: str
    config: str
    options: dict[str, Any]
    entries: list[Entry]
    files: list[RuntimeFile]
    keep_empty: list[str] = field(default_factory=list)
    created_config: bool = False  # the config did not exist before: uninstall may delete it again
    # folders the first install made for the config (relative to the project, or the user's base):
    # the last uninstall takes them away again if they are empty; folders that were there stay
    created_folders: list[str] = field(default_factory=list)
    config_sha256: str | None = None  # a host whose unit is the pack's own file: that file as written
    tool_version: str = __version__
    source: Source = BUNDLED  # where the pack came from (a folder, a repository at a revision and commit)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECEIPT_FORMAT, "tool_version": self.tool_version, "pack": self.pack,
            "version": self.version, "host": self.host, "scope": self.scope, "config": self.config,
            "options": self.options, "entries": [e.to_json() for e in self.entries],
            "files": [{"name": f.name, "sha256": f.sha256, "mode": f"{f.mode:04o}"} for f in self.files],
            "keep_empty": self.keep_empty, "created_config": self.created_config,
            "created_folders": self.created_folders, "config_sha256": self.config_sha256,
            "source": self.source.to_json(),
        }

    def dumps(self) -> bytes:
        return (json.dumps(self.to_json(), indent=2) + "\n").encode()


def read_receipt(path: Path) -> Receipt | None:
    """A receipt, or None if there is none; a corrupt one is an error naming the file. What it
    says is checked before anything acts on it: a receipt lives in the repository, and anyone
    may have written it (its pack is its folder's, its file names stay in that folder)."""
    try:
        raw = json.loads(safe_read.read(path, safe_read.RECEIPT))
    except FileNotFoundError:
        return None
    except json.JSONDecodeError as err:
        raise HookwrightError(f"the receipt is not valid JSON ({err.msg})", path=path, line=err.lineno,
                              column=err.colno, hint=_repair_hint(path)) from None
    except HookwrightError as err:
        raise HookwrightError(f"the receipt {err.message.removeprefix('file ')}", path=path,
                              hint=_repair_hint(path)) from None
    except (OSError, ValueError, RecursionError) as err:
        raise HookwrightError(f"the receipt is unreadable ({err})", path=path, hint=_repair_hint(path)) from None
    try:
        if not layout.valid_pack_name(raw["pack"]) or raw["pack"] != path.parent.name:
            raise ValueError(f"it names pack {raw['pack']!r}, but lies in the folder of {path.parent.name!r}")
        files = []
        for item in raw["files"]:
            name = item["name"]
            if not isinstance(name, str) or "/" in name or "\\" in name or name in ("", ".", "..") \
                    or name.startswith(".") or "\0" in name:
                raise ValueError(f"file name {name!r} points outside the receipt's folder")
            files.append(RuntimeFile(name, str(item["sha256"]), int(item["mode"], 8)))
        entries = [Entry.from_json(e) for e in raw["entries"]]
        if any(e.pack != raw["pack"] for e in entries):
            raise ValueError("an entry belongs to another pack")
        return Receipt(raw["pack"], raw["version"], raw["host"], raw["scope"], raw["config"],
                       dict(raw.get("options", {})), entries, files, list(raw.get("keep_empty", [])),
                       bool(raw.get("created_config", False)), _relative_paths(raw.get("created_folders", [])),
                       raw.get("config_sha256"), raw.get("tool_version", "?"),
                       Source.from_json(raw["source"]) if "source" in raw else BUNDLED)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise HookwrightError(f"the receipt is invalid: {err}", path=path,
                              hint=_repair_hint(path)) from None


def _repair_hint(receipt: Path) -> str:
    """A receipt lives in its pack's runtime folder: install of that pack, where it is, writes a new one."""
    return f"remove it and run `{command_line('install', receipt.parent.name, '--adopt')}` to repair the install"


def _relative_paths(names: list[Any]) -> list[str]:
    """Folder names a receipt may list: relative, inside the place it belongs to."""
    for name in names:
        if not isinstance(name, str) or name.startswith("/") or ".." in name.split("/") or not name:
            raise ValueError(f"created folder {name!r} points outside the receipt's place")
    return list(names)


# ---- backups -----------------------------------------------------------------------------

def new_id() -> str:
    """Sortable by time (to the microsecond), unique across processes."""
    now = time.time()
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(now)) + f".{int(now % 1 * 1e6):06d}-{os.urandom(2).hex()}"


def valid_id(text: Any) -> bool:
    """Whether `text` is an id new_id made (YYYYmmdd-HHMMSS.uuuuuu-xxxx): a backup's folder name."""
    return (isinstance(text, str) and len(text) == 27 and text[8] == "-" and text[15] == "." and text[22] == "-"
            and (text[:8] + text[9:15] + text[16:22]).isdigit() and text.isascii()
            and all(c in "0123456789abcdef" for c in text[23:]))


def save_backup(config: Path, config_bytes: bytes | None, pack_dirs: list[Path]) -> str:
    """A byte-exact copy of the config and of our pack folders, taken before a write."""
    backup_id = new_id()
    folder = layout.backups() / backup_id
    atomic.make_dir(folder)
    meta = {"config": str(config), "config_existed": config_bytes is not None,
            "packs": {d.name: str(d) for d in pack_dirs}}
    if config_bytes is not None:
        atomic.write_bytes(folder / "config", config_bytes, mode=0o600)
    for pack_dir in pack_dirs:
        saved = folder / "packs" / pack_dir.name
        atomic.make_dir(saved)
        for name, (content, mode) in files_in(pack_dir, safe_read.RUNTIME).items():
            atomic.write_new(saved / name, content, mode)
    atomic.write_bytes(folder / "meta.json", json.dumps(meta, indent=2).encode(), mode=0o600)
    _rotate_backups()
    return backup_id


def files_in(folder: Path, kind: safe_read.Kind) -> dict[str, tuple[bytes, int]]:
    """{name: (content, mode)} of the regular files directly in a runtime folder (or a backup of
    one): a link, a pipe or a folder there is no file of ours, and is neither read nor copied."""
    found = {}
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except OSError as err:
        raise safe_read.unreadable(folder, err) from None
    for entry in entries:
        if entry.is_file(follow_symlinks=False):
            found[entry.name] = (safe_read.read(entry.path, kind), entry.stat(follow_symlinks=False).st_mode & 0o777)
    return found


def backup_folder(backup_id: str) -> Path:
    if not valid_id(backup_id):
        raise HookwrightError(f"backup {backup_id!r} is no backup hookwright made", path=layout.journal(),
                              code=ExitCode.REFUSED, hint="remove the operation naming it from the journal")
    folder = layout.backups() / backup_id
    if not (folder / "meta.json").is_file():
        raise HookwrightError(f"backup {backup_id} is gone (backups are rotated after {KEEP_BACKUPS})",
                              code=ExitCode.REFUSED)
    return folder


def _rotate_backups() -> None:
    root = layout.backups()
    for old in sorted(p for p in root.iterdir() if p.is_dir())[:-KEEP_BACKUPS]:
        shutil.rmtree(old, ignore_errors=True)


# ---- journal -----------------------------------------------------------------------------

@dataclass
class Operation:
    """One applied change to one config file, with what it added and removed, and its backup."""

    id: str
    kind: str  # install | uninstall | rollback
    target: dict[str, Any]  # Target.to_json()
    packs: list[str]
    added: list[Entry]
    removed: list[Entry]
    backup: str | None
    time: float
    undoes: str | None = None
    state: str = "done"  # pending (written before the change; a crash may leave it so) | done | aborted
    made_folders: list[str] = field(default_factory=list)  # an install's folders to make (its receipts keep them)
    batch: str | None = None  # the one command run it was part of (opencode: one install, a plugin file per pack)
    written_sha256: str | None = None  # the config's bytes as this operation wrote them (None: it removed the file)

    def to_json(self) -> dict[str, Any]:
        return {"format": JOURNAL_FORMAT, "id": self.id, "kind": self.kind, "target": self.target,
                "packs": self.packs, "added": [e.to_json() for e in self.added],
                "removed": [e.to_json() for e in self.removed], "backup": self.backup,
                "time": self.time, "undoes": self.undoes, "state": self.state, "made_folders": self.made_folders,
                "batch": self.batch, "written_sha256": self.written_sha256}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> "Operation":
        """The operation a journal line records, checked as a receipt is before anything acts on
        it (ValueError says what is wrong): rollback deletes and writes where it says."""
        op = cls(raw["id"], raw["kind"], raw["target"], raw["packs"],
                 [Entry.from_json(e) for e in raw["added"]], [Entry.from_json(e) for e in raw["removed"]],
                 raw.get("backup"), raw["time"], raw.get("undoes"), raw.get("state", "done"),
                 _relative_paths(raw.get("made_folders", [])), raw.get("batch"), raw.get("written_sha256"))
        if not valid_id(op.id) or op.kind not in OPERATION_KINDS \
                or op.state not in ("pending", "done", "aborted"):
            raise ValueError(f"operation {op.id!r} has an id, kind or state hookwright does not write")
        if op.backup is not None and not valid_id(op.backup):
            raise ValueError(f"its backup {op.backup!r} is no backup folder hookwright makes")
        names = [*op.packs, *(e.pack for e in [*op.added, *op.removed])]
        bad = next((name for name in names if not layout.valid_pack_name(name)), None)
        if bad is not None:
            raise ValueError(f"pack name {bad!r} is no pack name (a pack's folder is named after it)")
        _check_target(op.target)
        return op


def _check_target(raw: Any) -> None:
    """A journal's target is a place hookwright writes: a known host and scope, absolute paths
    without `..`, the runtime root one of ours, beside the config (opencode: beside its plugins
    folder), in the project for a project's scope."""
    target = Target.from_json(raw)
    paths = [target.config, target.runtime_root, *([target.project] if target.project else [])]
    if target.host not in NAMES or any(not p.is_absolute() or ".." in p.parts for p in paths):
        raise ValueError("its target is no place hookwright writes (an unknown agent, or a relative path)")
    scope_folder = target.runtime_root.parent
    if target.runtime_root.name not in layout.RUNTIME_FOLDERS or scope_folder not in target.config.parents \
            or len(target.config.relative_to(scope_folder).parts) > 2:
        raise ValueError(f"its config {target.config} and runtime folder {target.runtime_root} are not side by side")
    # (a user file may name a project: the change it was written for, as Codex's trust is)
    if target.scope is not Scope.user and (target.project is None or scope_folder.parent != target.project):
        raise ValueError(f"its {target.scope.value} scope does not match its project {target.project}")


def last_write_if_untouched(config: Path, raw: bytes) -> Operation | None:
    """The newest operation that wrote the config, where the file still holds the bytes it wrote
    (`raw`): nothing else has written it since, so its backup is what undoing it gives back."""
    where = str(config)
    last = next((op for op in reversed(read_journal()) if op.target.get("config") == where), None)
    return last if last is not None and last.written_sha256 == sha256(raw) else None


def append_journal(op: Operation) -> None:
    _append_line(op.to_json())


def mark_operation(op_id: str, new_state: str) -> None:
    """Record that a pending operation finished (done) or never changed the config (aborted)."""
    _append_line({"format": JOURNAL_FORMAT, "id": op_id, "state": new_state})


def _append_line(record: dict[str, Any]) -> None:
    import filelock

    path = layout.journal()
    atomic.make_dir(path.parent)
    line = (json.dumps(record) + "\n").encode()
    with filelock.FileLock(str(path) + ".lock", timeout=LOCK_TIMEOUT_S):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)


def read_journal() -> list[Operation]:
    """Every complete operation line; a line cut short by a crash is skipped. A whole line that
    records what hookwright never writes (a pack named `../../x`, a target outside any scope) is
    an error naming its line: rollback would act on it."""
    path = layout.journal()
    try:
        lines = safe_read.read(path, safe_read.JOURNAL).decode("utf-8", "replace").splitlines()
    except FileNotFoundError:
        return []
    ops: dict[str, Operation] = {}
    for number, line in enumerate(lines, 1):
        try:
            record = json.loads(line)
        except ValueError:
            continue  # (cut short by a crash)
        try:
            if isinstance(record, dict) and "kind" in record:
                ops[record["id"]] = Operation.from_json(record)
            elif isinstance(record, dict) and record.get("id") in ops:
                ops[record["id"]].state = record["state"]
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            raise HookwrightError(f"the journal's line {number} is not an operation hookwright wrote: {err}",
                               path=path, line=number, column=1, code=ExitCode.BAD_INPUT,
                               hint="remove that line from the journal (rollback cannot undo it)") from None
    return [op for op in ops.values() if op.state != "aborted"]
