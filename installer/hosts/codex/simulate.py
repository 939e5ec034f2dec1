"""simulate for Codex CLI: the project's Codex hooks that fire on a PreToolUse call run for real,
as Codex runs them, and their answers are read and combined as Codex reads them
(installer/hosts/codex/protocol.py, each fact measured on 0.171.0: docs/hosts/codex.md).

What Codex would not run is not run, and the report says why: a hook it skips until the user
trusts it (an untrusted project, no trusted hash or another hook's), a file it drops whole, a
group whose matcher is no regex, a handler type it does not run. Every hook that fires starts at
once, in the session's folder (the project simulate names), through the user's login shell.
"""
from __future__ import annotations

import json
import os
import tempfile
import uuid
from functools import partial
from pathlib import Path
from typing import Any, Callable

from ...hooks.answers import RawRun
from ...hooks.calls import Call
from ...hooks.model import ConfigFile, Configs, Handler
from ...hooks.running import run_argv, together
from ..base import Scope
from . import protocol
from .adapter import HOST as CODEX

EXCERPT = 2000  # characters of each stream in the report


def payload_for(event: str, tool: str | None, tool_input: Any, project: Path, extra: dict[str, Any]) -> dict[str, Any]:
    """What Codex sends a hook of the event on stdin (docs/hosts/codex.md#stdin-payload), --payload's
    fields over it and the tool given over those."""
    sent: dict[str, Any] = {"session_id": str(uuid.uuid4()), "transcript_path": None, "cwd": str(project),
                            "hook_event_name": event, "model": "simulated", "permission_mode": "bypassPermissions"}
    if event != "SessionStart":
        sent["turn_id"] = str(uuid.uuid4())
    own: dict[str, dict[str, Any]] = {"SessionStart": {"source": "startup"}, "UserPromptSubmit": {"prompt": ""},
                                      "Stop": {"stop_hook_active": False, "last_assistant_message": ""},
                                      "PostToolUse": {"tool_response": ""}}
    sent.update(own.get(event, {}))
    if protocol.SIMULATED_EVENTS.get(event) == "tool_name":
        sent["tool_use_id"] = f"call_{uuid.uuid4().hex[:24]}"
    sent.update({key: value for key, value in extra.items() if key != "hook_event_name"})
    if tool is not None:
        sent.update(tool_name=tool, tool_input=tool_input)
    return sent


def simulate(ctx: Configs, project: Path, call: Call,
             in_sandbox: Callable[[list[Handler], Path, Path], Callable[[list[str]], list[str]]] | None = None
             ) -> dict[str, Any]:
    """The outcome of one call for Codex (simulate's host entry); `in_sandbox`: how each hook's
    argv runs in a sandbox, given the hooks, the project and a scratch folder (simulate --sandbox)."""
    entry: dict[str, Any] = {"host": CODEX.name, "title": CODEX.title, "event": call.event, "tool": call.tool,
                             "given_input": call.tool_input, "simulated": True, "why": None, "handlers": [],
                             "notes": [], "decision": "none", "blocked": False, "reason": None,
                             "tool_input": call.tool_input, "context": [], "candidates": [call.tool_input],
                             "nondeterministic": False, "effect": "no Codex hook fires: the call runs"}
    event = call.event
    if event not in protocol.SIMULATED_EVENTS:
        entry.update(simulated=False, why=f"simulate runs Codex's {', '.join(protocol.SIMULATED_EVENTS)} hooks, "
                                          f"not {event}'s", decision=None, blocked=None, tool_input=None,
                     candidates=[], nondeterministic=None, effect=None)
        return entry
    matched = protocol.SIMULATED_EVENTS[event]
    tool = CODEX.hook_tool_name(call.tool or "") if matched == "tool_name" else None
    entry.update(tool=tool, notes=_tool_notes(call.tool or "", tool, call.tool_input) if tool is not None else [])
    payload = payload_for(event, tool, call.tool_input, project, call.extra)
    subject = None if matched is None else str(payload.get(matched, ""))
    rows = [_selected(handler, event, subject) for handler in ctx.handlers
            if handler.file.host == CODEX.name and handler.event == event]
    rows = _untrusted_skipped(rows, ctx.files)
    entry["handlers"] = [row for row, _ in rows]
    if call.list_only:
        entry.update(simulated=False, why="--list-only: nothing was run", decision=None, blocked=None,
                     tool_input=None, candidates=[], nondeterministic=None, effect=None)
        return entry
    firing = [(row, handler) for row, handler in rows if row["fires"] and row["simulated"]]
    stdin = json.dumps(payload).encode()
    with tempfile.TemporaryDirectory(prefix="hookwright-simulate-") as scratch:
        wrap = in_sandbox([h for _, h in firing], project, Path(scratch)) if in_sandbox is not None else None
        runs = together([partial(_run, handler, event, stdin, project, wrap) for _, handler in firing])
    readings = []
    read = protocol.read if event == protocol.EVENT else partial(protocol.read_other, event)
    blocks = "deny" if event == protocol.EVENT else "block"
    for (row, handler), run in zip(firing, runs):
        reading = read(run.exit_code, run.stdout, run.stderr, _failed(run))
        row.update(exit_code=run.exit_code, timed_out=run.timed_out, duration_ms=round(run.duration * 1000, 1),
                   stdout=run.stdout.decode("utf-8", "replace")[:EXCERPT],
                   stderr=run.stderr.decode("utf-8", "replace")[:EXCERPT], read_as=reading.read_as,
                   decision=blocks if reading.status == "blocked" else None, reason=reading.block_reason,
                   updated_input=reading.updated_input if isinstance(reading.updated_input, dict) else None,
                   context=[reading.context] if reading.context else [],
                   system_message=reading.system_message)
        if handler.value.get("async") is True:  # (its answer comes too late to count)
            row["read_as"] += "; async: its answer does not count"
            continue
        readings.append((reading, run.finished))
    combined = _combined(tool or "", call.tool_input, readings) if event == protocol.EVENT else \
        _combined_other(event, [reading for reading, _ in readings])
    return {**entry, **combined, "notes": entry["notes"] + combined.get("notes", [])}


def _tool_notes(given: str, tool: str, tool_input: Any) -> list[str]:
    """What simulate says of the tool as Codex's hooks see it: the name a call of it reaches them
    by, and the input fields they get from it (Codex.tool_inputs, measured on 0.171.0)."""
    notes = [f"Codex's hooks get a call of {given} as {tool} (tool_name {tool!r}), and a matcher naming "
             f"either selects it"] if given and given != tool else []
    fields = CODEX.tool_inputs.get(tool)
    if fields is not None and not (isinstance(tool_input, dict) and fields <= tool_input.keys()):
        what = " (an edit is apply_patch's patch text)" if tool == "apply_patch" else ""
        notes.append(f"Codex gives {tool}'s hooks tool_input with {', '.join(sorted(fields))} only{what}; "
                     f"the input given is passed as it is")
    return notes


def _selected(handler: Handler, event: str, subject: str | None) -> tuple[dict[str, Any], Handler]:
    """A handler's row: whether it fires on the call (its matcher tried on `subject`, the tool's
    name or SessionStart's source; None: the event has no matcher), and why not."""
    value = handler.value if isinstance(handler.value, dict) else {}
    row: dict[str, Any] = {"source": handler.source(), "type": value.get("type"), "command": value.get("command"),
                           "matcher": handler.matcher, "event": event,
                           "timeout": protocol.timeout_of(value, event), "fires": True, "simulated": True,
                           "why": None, "from_project": handler.file.scope == Scope.project.value and handler.owner is None}
    drop = CODEX.dropped(handler.file.document) if handler.file.document is not None else None
    tool = subject or ""
    matched = protocol.matches(handler.matcher, tool) if subject is not None else True
    if drop is not None:
        row.update(fires=False, why=f"Codex drops its whole file: {drop.why}")
    elif subject is not None and protocol.undecided(handler.matcher) is not None:
        row.update(fires=False, simulated=False, why=f"what its matcher {handler.matcher!r} matches cannot be worked "
                                                     f"out safely ({protocol.undecided(handler.matcher)}): not run")
    elif matched is None:
        row.update(fires=False, why=f"its matcher {handler.matcher!r} is no regex Codex reads: Codex skips the group")
    elif not matched:
        row.update(fires=False, why=f"its matcher {handler.matcher!r} does not match {tool!r}")
    elif value.get("type") in ("prompt", "agent"):
        row.update(fires=False, why=f"a {value['type']} hook: Codex skips it (not supported yet)")
    elif value.get("type") != "command":
        row.update(simulated=False, why="an MCP tool hook: it calls an MCP server, which simulate does not start")
    elif not isinstance(value.get("command"), str) or not value["command"].strip():
        row.update(fires=False, why="a blank command: Codex skips it")
    return row, handler


def _untrusted_skipped(rows: list[tuple[dict[str, Any], Handler]], files: list[ConfigFile]
                       ) -> list[tuple[dict[str, Any], Handler]]:
    """Each hook Codex skips until the user trusts it, marked so, with how to trust it."""
    skipped: dict[tuple[Path, tuple[Any, ...]], str] = {}
    for file in files:
        if file.host != CODEX.name or file.document is None or CODEX.dropped(file.document) is not None:
            continue
        for found in CODEX.skipped_in(file.path, file.scope, file.document.data):
            skipped[(file.path, tuple(found.keys))] = f"Codex skips it, without a word: {found.why}; {found.fix}"
    for row, handler in rows:
        why = skipped.get((handler.file.path, tuple(handler.keys)))
        if why is not None and row["fires"]:
            row.update(fires=False, why=why)
    return rows


def _run(handler: Handler, event: str, stdin: bytes, project: Path,
         wrap: Callable[[list[str]], list[str]] | None) -> RawRun:
    argv = protocol.argv(handler.value["command"])
    return run_argv(wrap(argv) if wrap is not None else argv, stdin, project, dict(os.environ),
                    protocol.timeout_of(handler.value, event))


def _failed(run: RawRun) -> str | None:
    if run.timed_out:
        return "timed out: killed"
    return run.start_error if run.exit_code is None else None


def _combined_other(event: str, readings: list[protocol.Reading]) -> dict[str, Any]:
    """The outcome on an event other than PreToolUse, where it is measured: hooks that said nothing,
    or (PostToolUse, Stop) one block with its reason; else what is not known, said."""
    outcome: dict[str, Any] = {"tool_input": None, "candidates": [], "nondeterministic": False,
                               "context": [r.context for r in readings if r.context]}
    unknown = [r for r in readings if r.status == "unknown"]
    blocking = [r for r in readings if r.status == "blocked"]
    if unknown or len(blocking) > 1:
        why = "a hook's answer" if unknown else "several blocks (which reason Codex passes on)"
        return {**outcome, "decision": None, "blocked": None, "reason": None, "nondeterministic": None,
                "effect": f"not simulated: what Codex does with {why} on {event} is not measured"}
    if blocking:
        return {**outcome, "decision": "block", "blocked": True, "reason": blocking[0].block_reason,
                "effect": protocol.BLOCK_EFFECT[event]}
    return {**outcome, "decision": "none", "blocked": False, "reason": None,
            "effect": f"Codex goes on: {'no hook said anything' if readings else 'no Codex hook fires'}"}


def _combined(tool: str, tool_input: Any, readings: list[tuple[protocol.Reading, float]]) -> dict[str, Any]:
    """One block blocks, with the reason of the first blocking hook in configured order; else the
    rewrite of the hook that finished last; every hook's context, in configured order."""
    context = [r.context for r, _ in readings if r.context]
    blocking = [r for r, _ in readings if r.status == "blocked"]
    if blocking:
        return {"decision": "deny", "blocked": True, "reason": blocking[0].block_reason, "tool_input": None,
                "candidates": [], "nondeterministic": False, "context": context,
                "effect": "the call does not run: the model gets \"Command blocked by PreToolUse hook: <reason>\""}
    rewrites = sorted(((finished, r.updated_input) for r, finished in readings if r.updated_input is not None),
                      key=lambda found: found[0])
    if not rewrites:
        fired = bool(readings)
        return {"decision": "none", "blocked": False, "reason": None, "tool_input": tool_input,
                "candidates": [tool_input], "nondeterministic": False, "context": context,
                "effect": "the call runs" + (" (no hook blocked or rewrote it)" if fired else ": no Codex hook fires")}
    candidates = [protocol.applied(tool, updated) for _, updated in rewrites]
    won, failure = candidates[-1]
    notes = ["several hooks rewrite the input: the one that finishes last wins, so which one is a race"] \
        if len(rewrites) > 1 else []
    if failure is not None:
        return {"decision": "none", "blocked": True, "reason": failure, "tool_input": None, "candidates": [],
                "nondeterministic": len(rewrites) > 1, "context": context, "notes": notes,
                "effect": f"the call fails: the model gets \"{failure}\""}
    return {"decision": "allow", "blocked": False, "reason": None, "tool_input": won,
            "candidates": [c for c, why in candidates if why is None], "nondeterministic": len(rewrites) > 1,
            "context": context, "notes": notes, "effect": "the call runs with the input rewritten"}
