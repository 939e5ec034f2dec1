"""The one error type users see, and the exit codes it maps to."""
from __future__ import annotations

import difflib
import shlex
from pathlib import Path
from typing import Any, Iterable


class ExitCode:
    """The exit codes, as ints: names on a plain class, not an IntEnum (nor are ErrorKind and
    commands.result.Status str Enums): creating those three enum classes and their str base was
    3.0 M of the 346.7 M instructions of doctor on a typical file, and nothing asks more of them
    than their values (docs/contributing.md)."""

    OK = 0
    FINDINGS = 1  # doctor found errors
    BAD_INPUT = 2  # usage error, unreadable or invalid input; nothing written
    REFUSED = 3  # needs confirmation, concurrent change, conflict, result would be invalid
    INTERNAL = 4  # a bug; nothing half-written
    INTERRUPTED = 130


class ErrorKind:
    """What went wrong with a file, for code that must tell errors apart (doctor's rules) without
    reading their messages: one of these texts."""

    PROBLEM = "problem"  # anything else
    UNREADABLE = "unreadable"  # not read at all: missing, a folder, a pipe, no permission, a link loop
    NOT_JSON = "not-json"  # read, but not strict JSON the hosts would take (syntax, encoding, size, depth)
    DUPLICATE_KEY = "duplicate-key"  # JSON with a key twice in one object: the hosts keep the last


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The hint for a name that is none of `choices`: the closest ones (and the ids that end in
    it, so `home-path` finds `command/home-path`), or None when nothing is close."""
    known = list(choices)
    close = difflib.get_close_matches(word, known, n=3, cutoff=cutoff)
    close += [c for c in known if c.endswith("/" + word) and c not in close]
    return f"did you mean {', '.join(close)}?" if close else None


def command_line(*words: object) -> str:
    """A hookwright command as a hint prints it: each word quoted for the shell, so that it works
    as printed (a path with a space, say)."""
    return " ".join(["hookwright", *(shlex.quote(str(word)) for word in words)])


class HookwrightError(Exception):
    """A problem the user can act on: what, where (file, line, column), and what to do."""

    def __init__(
        self,
        message: str,
        *,
        code: int = ExitCode.BAD_INPUT,
        path: Path | str | None = None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        detail: str | None = None,
        kind: str = ErrorKind.PROBLEM,
        reason: str | None = None,
    ) -> None:
        """`reason`: the cause alone, without what it leads to (a comment, for "invalid JSON:
        a comment; the hosts ignore the whole file"), where a report words the rest itself."""
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = str(path) if path is not None else None
        self.line = line
        self.column = column
        self.hint = hint
        self.detail = detail
        self.kind = kind
        self.reason = reason or message

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

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "exit_code": self.code,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "hint": self.hint,
            "detail": self.detail,
        }
