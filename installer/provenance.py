"""Where an installed pack came from, as its receipt records it (state.Receipt) and status and
update read it: a leaf module, so that reading a receipt loads no pack machinery."""
from __future__ import annotations

from typing import Any

from .records import Record


class Source(Record):
    """Where a pack came from, as its receipt records it: bundled with hookwright, a folder (named
    on the command line, or on HOOKWRIGHT_PACKS_PATH), or a git repository at a revision."""

    kind: str  # bundled | folder | git
    location: str | None = None  # the folder, or the repository's URL
    rev: str | None = None  # git: the revision asked for (a tag, a branch, a commit)
    commit: str | None = None  # git: the commit it named
    folder: str | None = None  # git: the pack's folder in the repository (None: its root)

    def to_json(self) -> dict[str, Any]:
        return {key: value for key, value in self._asdict().items() if value is not None}

    @classmethod
    def from_json(cls, raw: Any) -> "Source":
        if not isinstance(raw, dict) or raw.get("kind") not in ("bundled", "folder", "git") or not all(
                isinstance(raw.get(key), (str, type(None))) for key in cls._fields):
            raise ValueError(f"source {raw!r} is none of bundled, folder, git")
        return cls(raw["kind"], raw.get("location"), raw.get("rev"), raw.get("commit"), raw.get("folder"))

    @property
    def spec(self) -> str | None:
        """What `hookwright install` takes to install from here again (None: by its name)."""
        if self.kind == "git":
            return f"{self.location}@{self.rev}" + (f"#{self.folder}" if self.folder else "")
        return self.location if self.kind == "folder" else None

    def describe(self) -> str:
        """In a line of status or of a plan: the folder, or the repository at its revision and commit."""
        if self.kind == "git" and self.commit and self.commit != self.rev:
            return f"{self.spec} ({self.commit[:12]})"
        return self.spec or "bundled"


BUNDLED = Source("bundled")
