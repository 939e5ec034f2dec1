"""The one error type users see, and the exit codes it maps to."""
from __future__ import annotations

from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    OK = 0
    FINDINGS = 1  # doctor found errors
    BAD_INPUT = 2  # usage error, unreadable or invalid input; nothing written
    REFUSED = 3  # needs confirmation, concurrent change, conflict, result would be invalid
    INTERNAL = 4  # a bug; nothing half-written
    INTERRUPTED = 130


class HookwrightError(Exception):
    """A problem the user can act on: what, where (file, line, column), and what to do."""

    def __init__(
        self,
        message: str,
        *,
        code: ExitCode = ExitCode.BAD_INPUT,
        path: Path | str | None = None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = str(path) if path is not None else None
        self.line = line
        self.column = column
        self.hint = hint
        self.detail = detail

    @property
    def location(self) -> str | None:
        if self.path is None:
            return None
        if self.line is None:
            return self.path
        return f"{self.path}:{self.line}:{self.column or 1}"

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.message}"

    def to_json(self) -> dict:
        return {
            "message": self.message,
            "exit_code": int(self.code),
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "hint": self.hint,
            "detail": self.detail,
        }
