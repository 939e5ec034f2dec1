"""simulate for Cursor: the project's Cursor hooks run for real on Cursor's payloads, and their
answers are read as Cursor documents it (installer/hosts/cursor/protocol.py).

Cursor's agent runs only with Cursor's own app and servers, so Cursor itself cannot be run here
and nothing of this was measured on it (docs/hosts/cursor.md#measured): the report says so. A
call in Claude Code's words is Cursor's events for it: a Bash call fires `preToolUse` (tool type
`Shell`) and `beforeShellExecution` (matched against the command), an MCP tool's fires
`preToolUse` (`MCP:<tool>`) and `beforeMCPExecution`, another tool `preToolUse`; the other
events by CLAUDE_TO_CURSOR (docs/hosts/cursor.md#event-mapping).
"""
from __future__ import annotations

import json
import os
import re
import tempfile
import uuid
from pathlib import Path
from typing import Any, Callable

from ...hooks.answers import RawRun, parse_stdout
from ...hooks.calls import Call
from ...hooks.events import CLAUDE_TO_CURSOR
from ...hooks.model import Configs, Handler, timeout_seconds
from ...hooks.running import run_one
from . import protocol as cursor_protocol
from .adapter import HOST as CURSOR
from .protocol import ASKS, COMMAND, DENIES, LITERAL, NONE, TOOL

TITLE = "Cursor"
NOT_RUN_HERE = ("Cursor itself cannot be run here (its agent needs Cursor's app and servers): its hooks ran for real, "
                "and their answers were read as Cursor documents it (docs/hosts/cursor.md), not as measured on Cursor")
DEFAULT_TIMEOUT = 60.0  # seconds: Cursor documents none (docs/hosts/cursor.md#timeouts)
CLAUDE_TOOL_TYPES = {"Bash": "Shell"}  # docs/hosts/cursor.md#matchers; Read, Write, Grep, Task: the same names
PRIORITY = {"managed": 0, "project": 1, "user": 2}  # who wins a conflict: enterprise, (team), project, user


def events_for(event: str, tool: str | None) -> list[str]:
    """Cursor's events for one call that Claude Code calls `event` on `tool`."""
    if event != "PreToolUse":
        return [CLAUDE_TO_CURSOR[event]] if event in CLAUDE_TO_CURSOR else []
    if tool == "Bash":
        return ["preToolUse", "beforeShellExecution"]
    return ["preToolUse", "beforeMCPExecution"] if tool and tool.startswith("mcp__") else ["preToolUse"]


def tool_type(tool: str) -> str:
    """Cursor's tool type of a tool given in Claude Code's words."""
    if tool.startswith("mcp__") and tool.count("__") >= 2:
        return "MCP:" + tool.split("__", 2)[2]
    return CLAUDE_TOOL_TYPES.get(tool, tool)


def payload_for(event: str, tool: str | None, tool_input: dict[str, Any] | None, project: Path) -> dict[str, Any]:
    """What Cursor sends the event's hooks on stdin for this call (docs/hosts/cursor.md#stdin-payload)."""
    payload: dict[str, Any] = {"conversation_id": str(uuid.uuid4()), "generation_id": str(uuid.uuid4()),
                               "model": "simulated", "hook_event_name": event, "cursor_version": "simulated",
                               "workspace_roots": [str(project)], "user_email": None, "transcript_path": None}
    given = tool_input or {}
    if event == "preToolUse":
        payload.update(tool_name=tool_type(tool or ""), tool_input=given, tool_use_id=f"tool_{uuid.uuid4().hex[:16]}",
                       cwd=str(project))
    elif event == "beforeShellExecution":
        payload.update(command=given.get("command", ""), cwd=str(project), sandbox=False)
    elif event == "beforeMCPExecution":
        payload.update(tool_name=(tool or "").split("__", 2)[-1], tool_input=json.dumps(given), command="")
    return payload


def matches(handler: Handler, row: cursor_protocol.CursorEventProtocol, payload: dict[str, Any]) -> bool:
    """Whether the entry's matcher lets it fire on this payload (no matcher: every call)."""
    matcher = handler.value.get("matcher") if isinstance(handler.value, dict) else None
    if not isinstance(matcher, str) or not matcher or row.matcher_subject == NONE:
        return True
    subject = {TOOL: payload.get("tool_name"), COMMAND: payload.get("command"), LITERAL: row.literal}.get(
        row.matcher_subject)
    if not isinstance(subject, str):
        return True
    try:
        return re.search(matcher, subject) is not None
    except re.error:
        return matcher == subject


def read(row: cursor_protocol.CursorEventProtocol, run: RawRun, fail_closed: bool) -> dict[str, Any]:
    """One entry's answer as Cursor reads it: exit 2 blocks; exit 0's stdout is one JSON object
    whose honoured fields count; anything else (another exit, a timeout, stdout that is not a JSON
    object) is a failure, which blocks only with failClosed (docs/hosts/cursor.md#exit-codes)."""
    failed = None
    data: dict[str, Any] | None = None
    if run.timed_out:
        failed = "timed out"
    elif run.exit_code == 2:
        return {"read_as": "exit 2: blocks" if row.blocks else "exit 2, on an event that cannot block: no say",
                "decision": "deny" if row.blocks else None, "reason": run.stderr.decode("utf-8", "replace").strip() or None}
    elif run.exit_code != 0:
        failed = f"exit {run.exit_code}" if run.exit_code is not None else (run.start_error or "did not start")
    else:
        text = run.stdout.decode("utf-8", "replace")
        data, _ = parse_stdout(text)
        if data is None and text.strip():
            failed = "stdout is not one JSON object"
    if failed:
        blocks = fail_closed and row.blocks
        return {"read_as": f"failed ({failed}): " + ("failClosed blocks" if blocks else "the action goes on"),
                "decision": "deny" if blocks else None, "reason": f"the hook failed ({failed})" if blocks else None}
    answer = data or {}
    reading: dict[str, Any] = {"read_as": "JSON" if answer else "nothing on stdout: no say", "decision": None,
                               "reason": None, "ignored": sorted(k for k in answer if k not in row.output_fields)}
    permission = answer.get("permission")
    if row.permissions is not None and permission in row.permissions:
        reading["decision"] = "deny" if permission == "ask" and row.ask == DENIES else \
            "ask" if permission == "ask" and row.ask == ASKS else "allow" if permission == "ask" else permission
        if permission == "ask" and reading["decision"] == "allow":
            reading["read_as"] += ': "ask" is not enforced here: the action goes on'
    message = answer.get("agent_message") or answer.get("user_message")
    reading["reason"] = message if isinstance(message, str) else None
    if "updated_input" in row.output_fields and isinstance(answer.get("updated_input"), dict):
        reading["updated_input"] = answer["updated_input"]
    if "continue" in row.output_fields and answer.get("continue") is False:
        reading["decision"] = "deny"
    return reading


def simulate(ctx: Configs, project: Path, call: Call,
             in_sandbox: Callable[[list[Handler], Path, Path], Callable[[list[str]], list[str]]] | None = None
             ) -> dict[str, Any]:
    """The outcome of one call for Cursor (simulate's host entry); `in_sandbox`: how each hook's
    argv runs in a sandbox, given the hooks, the project and a scratch folder (simulate --sandbox)."""
    with tempfile.TemporaryDirectory(prefix="hookwright-simulate-") as scratch:
        handlers = [h for h in ctx.handlers if h.file.host == CURSOR.name]
        wrap = in_sandbox(handlers, project, Path(scratch)) if in_sandbox is not None else None
        return _simulate(ctx, call.event, call.tool, call.tool_input, project, call.list_only, wrap)


def _simulate(ctx: Configs, event: str, tool: str | None, tool_input: dict[str, Any] | None, project: Path,
              list_only: bool = False, wrap: Callable[[list[str]], list[str]] | None = None) -> dict[str, Any]:
    """The outcome of one call for Cursor; `wrap`: each hook's argv in a sandbox."""
    events = events_for(event, tool)
    entry: dict[str, Any] = {"host": CURSOR.name, "title": TITLE, "event": " and ".join(events) or None, "tool": tool,
                             "given_input": tool_input, "simulated": True, "why": None, "handlers": [],
                             "notes": [NOT_RUN_HERE], "decision": "none", "blocked": False, "reason": None,
                             "tool_input": tool_input, "effect": "no Cursor hook fires: it goes on"}
    if not events:
        entry.update(simulated=False, why=f"Cursor has no event for Claude Code's {event}", decision=None, blocked=None,
                     effect=None)
        return entry
    env = dict(os.environ, CURSOR_PROJECT_DIR=str(project), CURSOR_VERSION="simulated")
    readings: list[tuple[Handler, dict[str, Any]]] = []
    for name in events:
        row = cursor_protocol.protocol(name)
        payload = payload_for(name, tool, tool_input, project)
        for handler in (h for h in ctx.handlers if h.file.host == CURSOR.name and h.event == name
                        and isinstance(h.value, dict)):
            fires = matches(handler, row, payload) if row is not None else False
            shown = {"source": handler.source(), "type": "command", "command": handler.value.get("command"),
                     "matcher": handler.matcher, "timeout": _timeout(handler), "fires": fires,
                     "simulated": fires and not list_only, "why": None if fires else "its matcher does not match",
                     "event": name}
            entry["handlers"].append(shown)
            if fires and handler.value.get("type", "command") != "command":
                shown.update(simulated=False, why="a prompt hook: it asks a model, which simulate does not call")
            if not shown["simulated"] or row is None:
                continue
            run = run_one(handler, json.dumps(payload).encode(), project, env, _timeout(handler), wrap)
            reading = read(row, run, handler.value.get("failClosed") is True)
            shown.update(exit_code=run.exit_code, timed_out=run.timed_out, duration_ms=round(run.duration * 1000, 1),
                         stdout=run.stdout.decode("utf-8", "replace")[:2000],
                         stderr=run.stderr.decode("utf-8", "replace")[:2000], **reading)
            readings.append((handler, reading))
    if list_only:
        entry.update(simulated=False, why="--list-only: nothing was run", decision=None, blocked=None, tool_input=None,
                     effect=None)
        return entry
    combined = _combined(readings, tool_input)
    entry["notes"] += combined.pop("notes")
    return {**entry, **combined}


def _combined(readings: list[tuple[Handler, dict[str, Any]]], tool_input: dict[str, Any] | None) -> dict[str, Any]:
    """deny > ask > allow; of several rewrites, the source of highest priority (enterprise, project,
    user), in one file the last (how one file's entries combine is not documented: a note says so)."""
    decisions = [reading["decision"] for _, reading in readings]
    decision = next((d for d in ("deny", "ask", "allow") if d in decisions), "none")
    reasons = [r["reason"] for _, r in readings if r["decision"] == decision and r.get("reason")]
    rewrites = sorted(((PRIORITY.get(h.file.scope, 3), i, r["updated_input"]) for i, (h, r) in enumerate(readings)
                       if "updated_input" in r), key=lambda found: (found[0], -found[1]))
    notes = ["two entries rewrite the input; how Cursor combines them is not documented (the one of the source of "
             "highest priority is taken)"] if len(rewrites) > 1 else []
    if len(decisions) > 1:
        notes.append("how one file's entries combine is not documented: a deny is taken to win")
    blocked = decision == "deny"
    effect = ("it does not go on: a Cursor hook denies it" if blocked else
              "the user is asked" if decision == "ask" else
              "it goes on, with the input rewritten" if rewrites else "it goes on")
    return {"decision": decision, "blocked": blocked, "reason": "\n".join(reasons) or None,
            "tool_input": None if blocked else (rewrites[0][2] if rewrites else tool_input), "effect": effect,
            "notes": notes}


def _timeout(handler: Handler) -> float:
    value = handler.value.get("timeout") if isinstance(handler.value, dict) else None
    return timeout_seconds(value) or DEFAULT_TIMEOUT
