"""What every host adapter provides, and the words they share: scope, target, entry."""
from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any


class Scope(str, Enum):
    user = "user"
    project = "project"
    local = "local"


@dataclass(frozen=True)
class Target:
    """One config file of one host, and where the runtimes we wire into it live."""

    host: str
    scope: Scope
    config: Path
    runtime_root: Path  # <scope dir>/hookwright: one folder per pack, each with its receipt
    project: Path | None

    def pack_dir(self, pack: str) -> Path:
        return self.runtime_root / pack

    def receipt_path(self, pack: str) -> Path:
        return self.pack_dir(pack) / "receipt.json"

    def to_json(self) -> dict:
        return {"host": self.host, "scope": self.scope.value, "config": str(self.config),
                "runtime_root": str(self.runtime_root),
                "project": str(self.project) if self.project else None}

    @classmethod
    def from_json(cls, raw: dict) -> "Target":
        """The target a journal entry recorded (rollback acts on it wherever it is run from)."""
        return cls(raw["host"], Scope(raw["scope"]), Path(raw["config"]), Path(raw["runtime_root"]),
                   Path(raw["project"]) if raw.get("project") else None)


@dataclass(frozen=True)
class Entry:
    """One hook handler we put (or will put) into a config: where, and the exact handler."""

    pack: str
    hook: str
    event: str
    matcher: str | None
    handler_json: str  # the handler object as JSON (key order kept), so an Entry is hashable

    @classmethod
    def of(cls, pack: str, hook: str, event: str, matcher: str | None, handler: dict) -> "Entry":
        return cls(pack, hook, event, matcher, json.dumps(handler))

    @property
    def key(self) -> str:
        """Identity for comparing plans: where it goes and what it runs, key order aside."""
        return json.dumps([self.event, self.matcher, self.handler], sort_keys=True)

    @property
    def handler(self) -> dict[str, Any]:
        return json.loads(self.handler_json)

    @property
    def command(self) -> str:
        return self.handler.get("command", "")

    def to_json(self) -> dict:
        return {"pack": self.pack, "hook": self.hook, "event": self.event, "matcher": self.matcher,
                "handler": self.handler}

    @classmethod
    def from_json(cls, raw: dict) -> "Entry":
        return cls.of(raw["pack"], raw["hook"], raw["event"], raw.get("matcher"), raw["handler"])

    def describe(self) -> str:
        on = f" on {self.matcher}" if self.matcher else ""
        return f"{self.event}{on}: {self.pack}/{self.hook}"
