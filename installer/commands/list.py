"""`hookwright list`: the merged, effective view of every hook from every scope and plugin.

The same files doctor reads (installer/doctor/discovery.py and load.py): Claude Code's user,
project, local and managed settings, the hooks of enabled plugins, and Cursor's hooks.json.
One row per handler, by event and matcher: where it comes from, who owns it (a hookwright pack
or "foreign"), its type and timeout, whether it may rewrite tool input, and whether it runs at
all (the same command in several settings files runs once).
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import hosts
from ..doctor import dedup, handler_facts, run
from ..errors import ExitCode, HookwrightError, did_you_mean
from ..hooks.events import BUILTIN_TOOLS, CLAUDE_EVENTS, CURSOR_EVENTS
from ..hooks.firing import hooks_disabled_by
from ..hosts import NAMES as HOSTS
from ..hosts.base import check_project, outline_problem
from .result import Payload, Result, Status

if TYPE_CHECKING:
    from ..doctor.model import ConfigFile, Context, Handler

SCOPE_ORDER = {"managed": 0, "user": 1, "project": 2, "local": 3, "plugin": 4, "given": 5}


class HookList(Payload):
    def __init__(self, project: str, files: list[dict[str, Any]], plugins: list[dict[str, Any]],
                 disabled_by: list[str], hooks: list[dict[str, Any]], filters: dict[str, Any] | None = None) -> None:
        self.project = project
        self.files = files  # every file read: path, host, scope, kind, plugin, readable, error (line, column), no_hooks_read
        self.plugins = plugins  # the enabled plugins: id, installed
        self.disabled_by = disabled_by  # the files whose disableAllHooks wins
        self.hooks = hooks  # one row per handler (schemas/list.schema.json)
        self.filters = {} if filters is None else filters  # --host, --scope, --event, --mine as given


def list_hooks(project: Path | None = None, host: str | None = None, *, scope: str | None = None,
               event: str | None = None, mine: bool = False) -> Result:
    """The effective view, or (with filters) the rows of one scope, one event, or hookwright's own."""
    if host is not None and host not in HOSTS:
        raise HookwrightError(f"list does not know host {host!r}",
                              hint=did_you_mean(host, HOSTS) or f"use --host {' or '.join(HOSTS)}")
    check_project(project)
    ctx = run.context(project=project, hosts={host} if host else set(HOSTS))
    unreadable = any(f.error is not None for f in ctx.files)  # shown with the rest; the exit code says it too
    view = effective_view(ctx)
    if event is not None:
        _check_event(event, {row["event"] for row in view.hooks})
    view.hooks = [row for row in view.hooks if (scope is None or row["source"]["scope"] == scope)
                  and (event is None or row["event"] == event) and (not mine or row["owner"] != "foreign")]
    view.filters = {"host": host, "scope": scope, "event": event, "mine": mine}
    return Result("list", Status.LISTED, exit_code=ExitCode.BAD_INPUT if unreadable else ExitCode.OK, payload=view)


def _check_event(event: str, listed: set[str]) -> None:
    """An event no host has and no hook here uses is a typo: say which one was meant."""
    known = {*CLAUDE_EVENTS, *CURSOR_EVENTS, *listed}
    if event not in known:
        raise HookwrightError(f"no agent has a hook event {event!r}, and no hook here uses one",
                              hint=did_you_mean(event, sorted(known)) or "`hookwright list` shows the events in use")


def effective_view(ctx: Context) -> HookList:
    """The data of `hookwright list` for files and handlers already loaded (a doctor Context)."""
    event_order = {name: i for i, name in enumerate([*CLAUDE_EVENTS, *sorted(CURSOR_EVENTS)])}
    runs_as = {id(c.handler): c for c in dedup.copies(ctx.handlers, BUILTIN_TOOLS, ctx.mcp_servers) if not c.runs}
    rows: list[dict[str, Any]] = []
    for handler in ctx.handlers:
        value = handler.value
        kind = handler_facts.kind(handler)
        row: dict[str, Any] = {
            "host": handler.file.host,
            "event": handler.event,
            "matcher": handler.matcher if handler.matcher not in (None, "") else "*",
            "if": value.get("if") if isinstance(value, dict) and isinstance(value.get("if"), str) else None,
            "source": handler.source(),
            "owner": f"{handler.owner[0]}" if handler.owner else "foreign",
            "hook": handler.owner[1] if handler.owner else None,
            "type": kind if kind else "invalid (a bare string)",
            "timeout": _timeout(handler, kind),
            "runs": _what(value, kind),
            "rewrites_input": _rewrites(handler),
            "deduplicated": None,
            "fails_closed": _fails_closed(handler),
        }
        copy = runs_as.get(id(handler))
        if copy is not None:
            kept = copy.of.where
            row["deduplicated"] = f"runs once, as {kept}" if copy.covered else f"runs once with {kept} where both match"
        rows.append(row)
    rows.sort(key=lambda r: (r["host"], event_order.get(r["event"], len(event_order)), r["event"], r["matcher"],
                             SCOPE_ORDER.get(r["source"]["scope"], 9), r["source"]["path"], r["source"]["line"] or 0))
    disabled = [str(f.path) for f in hooks_disabled_by(ctx.files)]
    return HookList(
        project=str(ctx.project),
        files=[{"path": str(f.path), "host": f.host, "scope": f.scope, "kind": f.kind, "plugin": f.plugin,
                "readable": f.error is None, "error": f.error.message if f.error else None,
                "line": f.error.line if f.error else None, "column": f.error.column if f.error else None,
                "no_hooks_read": _no_hooks_read(f)} for f in ctx.files],
        plugins=[{"id": p.id, "installed": p.install_path is not None} for p in ctx.plugins],
        disabled_by=disabled,
        hooks=rows,
    )


def _no_hooks_read(file: ConfigFile) -> str | None:
    """Why the host reads no hooks at all from a file it can parse (its shape), else None."""
    problem = outline_problem(file.document.data) if file.document is not None and file.host in HOSTS else None
    if problem is None:
        return None
    where, found = problem
    return f'"hooks" is {found}, not an object' if where else f"the file holds {found}, not an object"


def _timeout(handler: Handler, kind: str | None) -> dict[str, Any]:
    value = handler.value.get("timeout") if isinstance(handler.value, dict) else None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"seconds": value, "default": False}
    host = hosts.of(handler.file.host)
    return {"seconds": host.default_timeout(kind, handler.event) if host else None, "default": True}


def _what(value: Any, kind: str | None) -> str | None:
    if not isinstance(value, dict):
        return str(value)
    if kind == "plugin":  # opencode: our runtime, or the plugin's own code
        return " ".join([str(value.get("script")), *map(str, value.get("args") or [])]) if "script" in value \
            else "its own JavaScript, in process"
    field = {"command": "command", "http": "url", "prompt": "prompt", "agent": "prompt", "mcp_tool": "tool"}.get(kind or "")
    text = value.get(field) if field else None
    if kind == "mcp_tool":
        text = f"{value.get('server')}/{value.get('tool')}"
    if isinstance(value.get("args"), list):
        text = " ".join([str(text), *map(str, value["args"])])
    return text if isinstance(text, str) else None


def _fails_closed(handler: Handler) -> bool:
    """Whether a failure of the hook blocks (Claude Code's onFailure "block", Cursor's failClosed)."""
    host = hosts.of(handler.file.host)
    return host is not None and host.fails_closed(handler.event, handler.value)


def _rewrites(handler: Handler) -> dict[str, Any]:
    if handler.event not in handler_facts.REWRITE_EVENTS.get(handler.file.host, ()):
        return {"status": "no", "why": f"{handler.event} hooks cannot rewrite tool input"}
    found = handler_facts.rewrite(handler)
    return {"status": found.status, "why": found.why}
