"""An HTTP hook's own service, where the project holds it: a server on the loopback port the
hook's URL names. Claude Code reads a decision only from a 2xx answer's JSON body; any other
status is a non-blocking error (docs/hosts/claude-code.md#exit-codes), so a service that refuses
with 403 lets the call go ahead. Reported at the line that sends the refusing status.

The project is looked through within bounds (a few folders deep, a few hundred source files,
none larger than a script doctor reads), for a file that names the port and starts a server.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

from ... import hosts, safe_read
from ...document import LineIndex
from ...errors import HookwrightError
from ...patterns import lazy
from .. import handler_facts
from ..model import Context, Finding, Handler, RuleTable
from ..scripts.keys import MAX_BYTES

RULES = RuleTable()
LOOPBACK = frozenset({"127.0.0.1", "localhost", "0.0.0.0", "::1"})
SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts")
SKIPPED = frozenset({"node_modules", "venv", "__pycache__", "dist", "build", "vendor", "site-packages"})
MAX_DEPTH, MAX_FILES = 4, 400
SERVER = lazy(r"HTTPServer|createServer|\.listen\s*\(|Bun\.serve|Deno\.serve|\bFlask\s*\(|FastAPI\s*\(|"
              r"\bexpress\s*\(|\bHono\b|uvicorn\.run|web\.run_app", needs=("Server", "listen", "serve", "Flask",
                                                                     "FastAPI", "express", "Hono", "uvicorn",
                                                                     "run_app"))
# a status that says no (not a malformed request: 400, 404, 405, 500 are any server's errors)
REFUSING = "401|403|406|409|422|423|451"
STATUS_SENT = lazy(rf"""send_(?:response|error)\s*\(\s*(?:HTTPStatus\.\w+|(?P<a>{REFUSING}))\b|"""
                   rf"""\babort\s*\(\s*(?P<b>{REFUSING})\b|status_code\s*=\s*(?P<c>{REFUSING})\b|"""
                   rf"""\.status\s*\(\s*(?P<d>{REFUSING})\b|writeHead\s*\(\s*(?P<e>{REFUSING})\b|"""
                   rf"""statusCode\s*=\s*(?P<f>{REFUSING})\b|\bstatus\s*:\s*(?P<g>{REFUSING})\b|"""
                   rf"""HTTPStatus\.(?P<h>FORBIDDEN|UNAUTHORIZED|CONFLICT|UNPROCESSABLE_ENTITY)\b""")
DECISION = lazy(r"permissionDecision|hookSpecificOutput|[\"']decision[\"']|\bdecision\s*:",
                needs=("permissionDecision", "hookSpecificOutput", "decision"))


def check(ctx: Context) -> Iterator[Finding]:
    services: dict[int, list[Handler]] = {}
    for handler in ctx.handlers:
        port = _loopback_port(handler)
        host = hosts.of(handler.file.host)
        if port is not None and host is not None and handler.event in host.exit_2_blocks:
            services.setdefault(port, []).append(handler)
    if not services or ctx.project is None:
        return
    for path, text in _sources(ctx.project):
        for port, handlers in services.items():
            if re.search(rf"(?<![\w.]){port}(?!\d)", text) and SERVER.search(text):
                yield from RULES.run(_Service(ctx, path, text, port, handlers))


class _Service:
    """A source file of the project that serves the port an HTTP hook calls."""

    def __init__(self, ctx: Context, path: Path, text: str, port: int, handlers: list[Handler]) -> None:
        self.ctx, self.path, self.text, self.port, self.handlers = ctx, path, text, port, handlers


@RULES.rule("delivery/http-status-not-a-block")
def _http_status_not_a_block(service: _Service) -> Iterator[Finding]:
    """A service that refuses with a status (403) and never answers with a decision in a 2xx body."""
    if DECISION.search(service.text):
        return
    sent = STATUS_SENT.search(service.text)
    if sent is None:
        return
    status = next((g for g in sent.groups() if g), "403")
    status = {"FORBIDDEN": "403", "UNAUTHORIZED": "401", "CONFLICT": "409", "UNPROCESSABLE_ENTITY": "422"}.get(
        status, status)
    line, column = LineIndex(service.text).at(sent.start())
    handler = service.handlers[0]
    related = [{"path": str(h.file.path), "line": h.file.position(h.keys + ("url",))[0], "column": 1,
                "message": f"the {h.event} HTTP hook that calls it"} for h in service.handlers[:5]]
    yield service.ctx.finding_at("delivery/http-status-not-a-block", handler.file, line, column, related,
                                 status=status, event=handler.event, port=service.port)._replace(
        path=str(service.path))


def _loopback_port(handler: Handler) -> int | None:
    """The port of an HTTP hook's URL on this machine (None: not an HTTP hook, or another host)."""
    if handler_facts.kind(handler) != "http" or not isinstance(handler.value, dict):
        return None
    url = handler.value.get("url")
    if not isinstance(url, str):
        return None
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None
    return port if (parts.hostname or "") in LOOPBACK else None


def _sources(root: Path) -> Iterator[tuple[Path, str]]:
    """The project's source files, a few folders deep, as text (hidden and dependency folders skipped)."""
    pending, seen = [(root, 0)], 0
    while pending and seen < MAX_FILES:
        folder, depth = pending.pop(0)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if (entry.name.startswith(".") and entry.name != ".claude") or entry.name in SKIPPED or entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                if depth + 1 < MAX_DEPTH:
                    pending.append((Path(entry.path), depth + 1))
            elif entry.name.endswith(SOURCE_SUFFIXES) and seen < MAX_FILES:
                seen += 1
                try:
                    if entry.stat(follow_symlinks=False).st_size > MAX_BYTES:
                        continue
                    yield Path(entry.path), safe_read.read_text(entry.path, safe_read.SCRIPT)
                except (OSError, HookwrightError):
                    continue
