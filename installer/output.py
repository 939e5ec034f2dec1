"""All printing: rich for people, one versioned JSON document for programs. Here what every command
prints through (the consoles, a result, an error, doctor's report); each other command's text is
printers.py's, which a doctor run never loads."""
from __future__ import annotations

import json
import os
import sys
import threading
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, TextIO

from . import __version__
from .commands.result import Result
from .errors import HookwrightError

# rich is imported where something is printed with it: doctor FILE never loads it, which saves its
# run 52 ms of CPU (scripts/bench_start.py)
if TYPE_CHECKING:
    from rich.console import Console

    from .commands.doctor import Report
    from .doctor.report import Line

JSON_SCHEMA = "hookwright/1"
verbosity = 0  # -1 --quiet, 1 --verbose (the command line's callback sets it)


def out() -> "Console":
    """The console for people (rich loads only when there is something to print for them:
    a JSON run never imports it). Into a pipe or a file nothing is wrapped (one line per row
    for grep), unless COLUMNS says how wide."""
    return _console(sys.stdout, os.environ.get("COLUMNS"), stderr=False)


def err() -> "Console":
    return _console(sys.stderr, os.environ.get("COLUMNS"), stderr=True)


@cache
def _console(stream: TextIO, columns: str | None, stderr: bool) -> "Console":
    """One console per stream and COLUMNS: its width is fixed when it is made, so a console made
    for one stream (a terminal) must not go on printing into another (a pipe) at that width."""
    from rich.console import Console

    width = None if stream.isatty() or columns else 1000  # None: the terminal's (or COLUMNS)
    return Console(stderr=stderr, highlight=False, soft_wrap=True, width=width)


def escape(text: str) -> str:
    from rich.markup import escape as rich_escape

    return rich_escape(text)


@contextmanager
def working(what: str, after: float = 1.0) -> Iterator[None]:
    """A spinner on a terminal's stderr for work that takes longer than `after` seconds (a
    doctor run over a tree of projects), gone before the result is printed. Quick runs, pipes
    and --quiet see nothing, and do not load rich for it."""
    if verbosity < 0 or not sys.stderr.isatty():
        yield
        return

    lock, done, started = threading.Lock(), threading.Event(), []

    def show() -> None:
        with lock:
            if not done.is_set():
                started.append(err().status(f"{what}...", spinner="dots"))
                started[-1].start()

    timer = threading.Timer(after, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            done.set()
            for status in started:
                status.stop()


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def print_project(project: Path) -> None:
    """The project a command acts on, named where it is not the working folder (found above it)."""
    if verbosity >= 0:
        err().print(f"[dim]project:[/] {escape(short_path(str(project), None))} [dim](the current folder is in it)[/]")


def print_json(payload: dict[str, Any]) -> None:
    doc = {"schema": JSON_SCHEMA, "hookwright_version": __version__, **payload}
    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def print_payload(result: Result, as_json: bool) -> None:
    """A read-only command's payload: its JSON document, or as text. Printing depends on the
    payloads, never the reverse: they are plain data (commands/result.py)."""
    payload: Any = result.payload  # (one of printers.PRINTERS' classes, or doctor's Report)
    kind = type(payload).__name__
    if kind == "Report":  # doctor's report: text, JSON or SARIF, as its --format says
        print_report(payload)
        return
    if kind == "Rules":  # --explain: as its --format says
        as_json = payload.format != "text"
    if as_json:
        print_json(result.to_json())
    else:
        from . import printers  # (every command's text but doctor's: see print_result)

        printers.PRINTERS[kind](payload, result)


def print_result(result: Result, as_json: bool) -> None:
    """A read-only command's payload prints itself (doctor's report here, the others' through
    printers.py); a writing command's plans, notes and outcome are printers.print_outcome's."""
    if result.payload is not None:
        print_payload(result, as_json)
        return
    if as_json:
        print_json(result.to_json())
        return
    from . import printers  # (a writing command's plans: doctor never loads their printers, 1.1 M instructions)

    printers.print_outcome(result)


def print_error(error: HookwrightError, fmt: str = "text") -> None:
    """On stderr for people; on stdout as a JSON document instead, or (doctor --format sarif) as
    a SARIF log whose invocation failed as well, so that a CI step that uploads the file gets a
    valid one."""
    if fmt == "json":
        print_json({"error": error.to_json(), "exit_code": int(error.code)})
        return
    if fmt == "sarif":
        from .doctor import report

        _print_compact(report.sarif_failure(error, Path.cwd()))
    err().print(f"[bold red]error[/]: {escape(str(error))}")
    if error.detail:
        err().print(escape(error.detail))
    if error.hint:
        err().print(f"[dim]hint:[/] {escape(error.hint)}")


def print_report(report_: Report) -> None:
    """doctor prints its own document (`hookwright-doctor/1`), SARIF, or text grouped by file."""
    from .doctor import report

    if report_.format == "json":
        _print_compact(report_.report)
    elif report_.format == "sarif":
        _print_compact(report.sarif(report_.report, Path.cwd()))
    else:
        _print_lines(report.text(report_.report, Path.cwd(), verbosity))


def _print_lines(lines: list[Line]) -> None:
    """Styled segments, coloured by rich on a terminal (or with FORCE_COLOR or TTY_COMPATIBLE=1,
    as rich reads them); elsewhere (a pipe, pre-commit, CI) the plain text, without loading rich,
    a fifth of a one-file doctor run."""
    if sys.stdout.isatty() or os.environ.get("FORCE_COLOR") or os.environ.get("TTY_COMPATIBLE") == "1":
        from rich.text import Text

        for segments in lines:
            out().print(Text.assemble(*((text, style or "") for text, style in segments)))
    else:
        # (lists, not generators, joined: a generator's frame for each of a tree's 6,000 lines
        # of findings cost 33.0 M instructions, the lists 21.9 M)
        sys.stdout.write("".join(["".join([text for text, _ in segments]) + "\n" for segments in lines]))


def _print_compact(doc: dict[str, Any]) -> None:
    """A doctor report can hold thousands of findings: one line, written by json's C encoder
    (indenting falls back to the pure-Python one, several times slower)."""
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")


def short_path(path: str, project: str | None) -> str:
    """A path as the user would type it: relative to the project, or from ~."""
    from .doctor.report import typed_path
    from .hooks.model import resolved

    return typed_path(path, resolved(Path(project)) if project else None)
