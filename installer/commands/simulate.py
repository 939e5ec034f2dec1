"""`hookwright simulate`: run the hooks that would fire on one call, as each agent runs them,
and say what it would make of their answers: every agent with hooks in the project (or the one
--host names), each outcome named, and an agent that is not simulated named with the reason.

Claude Code: which handlers fire comes from doctor's discovery and matcher semantics
(installer/hooks/calls.py); they run for real, in parallel, in the project (running.py);
their answers are read and combined as the real CLI reads them (answers.py, with the per-event
table of installer/hosts/claude/protocol.py). Every other agent is simulated by the simulate.py in
its adapter's folder: opencode's plugins run in opencode's own runtime, Cursor's hooks on Cursor's
payloads, read by its protocol table, and Codex's trusted PreToolUse hooks run, are read and are
combined as Codex does. Exit 0 whenever the simulation ran, whatever the
hooks decided; 2 on bad input.
"""
from __future__ import annotations

import importlib
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import hosts, safe_read, sandbox
from ..doctor import handler_facts, run
from ..doctor.checks.installs import SCOPES, not_as_shipped, scope_args
from ..errors import ExitCode, HookwrightError
from ..hooks import answers, calls, running
from ..hooks.calls import Call
from ..hooks.events import CLAUDE_EVENTS, FOLDED_CLAUDE_EVENTS, SCOPE_ORDER, fold
from ..hooks.payload import payload_for
from ..hosts import NAMES as HOSTS
from ..hosts.base import check_project
from ..hosts.claude.protocol import ENV_FILE_EVENTS, cannot_block, fails_closed, protocol, session_variables
from ..project import project_of
from .result import Payload, Result, Status

if TYPE_CHECKING:
    from ..doctor.model import Context, Handler
    from ..hooks.answers import Outcome, RawRun, Reading
    from ..hooks.calls import Call, Selected

VERSION = 1
EXCERPT = 2000  # characters of each stream in the report
PERMISSION_MODES = ("default", "plan", "acceptEdits", "auto", "dontAsk", "bypassPermissions")
CLAUDE = hosts.DEFAULT  # the agent simulate speaks of a call in the words of, and simulates in full


class Simulation(Payload):
    """What simulate sent, which handlers fired, and what Claude Code would make of their answers."""

    omitted_while_none = ("unreadable",)

    def __init__(self, version: int, host: str, event: str, project: str, ran: bool, payload: dict[str, Any],
                 handlers: list[dict[str, Any]], decision: str | None, blocked: bool | None, reason: str | None,
                 tool_input: Any, candidates: list[Any], nondeterministic: bool | None, context: list[str],
                 stops_session: bool | None, stop_reason: str | None, decided_by: list[Any], rewritten_by: list[Any],
                 effect: str | None, permission_rule: dict[str, str] | None, cannot_block: str | None,
                 tool_output: Any, unreadable: list[str] | None = None, hosts: list[dict[str, Any]] | None = None,
                 sandboxed: bool = False) -> None:
        self.version = version
        self.host = host
        self.event = event
        self.project = project
        self.ran = ran  # False: --list-only, nothing ran and nothing was decided
        self.payload = payload  # what every handler got on stdin
        self.handlers = handlers  # each handler that would fire: its source, whether it ran, what it answered
        self.decision = decision
        self.blocked = blocked
        self.reason = reason
        self.tool_input = tool_input  # the input the tool would run with (rewritten or not)
        self.candidates = candidates  # with rewrites racing: each input that could win
        self.nondeterministic = nondeterministic
        self.context = context  # additionalContext the model would get
        self.stops_session = stops_session
        self.stop_reason = stop_reason
        self.decided_by = decided_by  # where the handlers that decided are
        self.rewritten_by = rewritten_by  # where the handlers that rewrote the input are
        self.effect = effect  # what the host does with it all, in words
        self.permission_rule = permission_rule  # a settings rule that still decides the call after the hooks
        self.cannot_block = cannot_block  # why no hook can block this call
        self.tool_output = tool_output  # PostToolUse: what the model gets instead of the tool's result
        self.unreadable = unreadable  # config files that could not be read
        self.sandboxed = sandboxed  # the hooks ran in a sandbox (--sandbox: installer/sandbox.py)
        self.hosts = hosts or []  # each agent with hooks here: its outcome, or why it was not simulated


def simulate(event: str | None, *, tool: str | None = None, tool_input: str | None = None,
             input_file: Path | None = None, payload_file: Path | None = None, command: str | None = None,
             project: Path | None = None, host: str | None = None, permission_mode: str = "default",
             list_only: bool = False, sandboxed: bool = False) -> Result:
    event, host, implied_tool = _in_claude_words(event, host)
    _check_choices(event, host, permission_mode)
    if sandboxed:
        _check_sandbox()
    project = project_of(project).resolve()
    check_project(project)
    rules = protocol(event)
    call_input = _tool_input(tool_input, input_file, command)
    tool = tool or implied_tool
    if command is not None:
        if tool not in (None, "Bash"):
            raise HookwrightError("--command is the Bash tool's command", hint="drop --tool, or give --input")
        tool = "Bash"
    extra = _payload_file(payload_file) if payload_file else {}
    if rules.tool_event and tool is None and "tool_name" not in extra:
        raise HookwrightError(f"{event} is about a tool call: name the tool",
                              hint="give --tool NAME with --input JSON, or --command 'git status' for Bash")
    if not rules.tool_event and (tool is not None or call_input is not None):
        raise HookwrightError(f"{event} is not about a tool call: --tool, --input and --command do not apply",
                              hint="give the event's fields with --payload FILE")
    ctx = run.context(project=project, hosts=set(HOSTS))
    present = [name for name in HOSTS if _has_hooks(ctx, name)]
    chosen = [host] if host else present or [CLAUDE]
    call = Call(event, tool or extra.get("tool_name"), call_input if call_input is not None else extra.get("tool_input"),
                extra, permission_mode, list_only, sandboxed)
    claude = _simulate_claude(ctx, project, call) if CLAUDE in chosen else None
    entries = [claude_entry(claude) if name == CLAUDE and claude else _simulate_other(name, ctx, project, call)
               for name in chosen]
    entries += [{"host": name, "title": hosts.get(name).title, "simulated": False,
                 "why": f"--host {host} asks for one agent: run `hookwright simulate --host {name}` for this one"}
                for name in present if name not in chosen]
    simulation = claude if claude is not None else _from_entry(entries[0], project, call)
    simulation.hosts = entries
    return Result("simulate", Status.SIMULATED if not list_only else Status.LISTED, payload=simulation)


def _has_hooks(ctx: Context, host: str) -> bool:
    """Whether the project (with the user's scope) has hooks of this agent."""
    plugin_kind = hosts.get(host).plugin_file_kind
    if plugin_kind:
        return any(f.kind == plugin_kind for f in ctx.files)
    return any(h.file.host == host for h in ctx.handlers)


def _simulate_claude(ctx: Context, project: Path, call: Call) -> Simulation:
    event, list_only = call.event, call.list_only
    rules = protocol(event)
    with tempfile.TemporaryDirectory(prefix="hookwright-simulate-") as scratch:
        transcript = Path(scratch) / "transcript.jsonl"
        transcript.write_text("")
        payload = payload_for(event, project, transcript, tool=call.tool, tool_input=call.tool_input, extra=call.extra,
                              permission_mode=call.permission_mode)  # the flags win over --payload
        selected = [_unless_tampered(s) for s in calls.select(ctx, CLAUDE, event, payload)]
        refused_first = calls.refused_before_the_hooks(ctx, event, payload)
        if refused_first is not None:
            selected = [s._replace(runs=False, why=f"the settings' deny rule {refused_first.rule} refuses the call "
                                                   "before any hook runs") for s in selected]
        to_run = [s.handler for s in selected if s.runs and s.simulated]
        env = {**_environment(ctx), **session_variables(payload["session_id"])}
        if event in ENV_FILE_EVENTS:
            env["CLAUDE_ENV_FILE"] = str(Path(scratch) / "env.sh")
        wrap = _in_sandbox(to_run, project, Path(scratch)) if call.sandboxed else None
        raws = [] if list_only else running.run_all(to_run, json.dumps(payload).encode(), project, env,
                                                    budget=running.shared_budget(event, to_run, env), wrap=wrap)
    raw_of = dict(zip(map(id, to_run), raws))
    read_of = {id(h): answers.read(event, h.command or "", raw_of[id(h)], background=h.value.get("async") is True
                                   or h.value.get("asyncRewake") is True, fails_closed=fails_closed(event, h.value))
               for h in to_run if id(h) in raw_of}
    outcome = None if list_only else answers.combine(
        event, payload.get("tool_input") if rules.tool_event else None, [read_of[id(h)] for h in to_run],
        [r.finished for r in raws], lambda tool_input: calls.settings_rule(ctx, {**payload, "tool_input": tool_input}),
        cannot_block(event, payload), payload.get("tool_name"), payload["cwd"])
    unreadable = [str(f.path) for f in ctx.files if f.error is not None and f.host == CLAUDE]
    return Simulation(
        version=VERSION, host=CLAUDE, event=event, project=str(project), ran=not list_only, payload=payload,
        handlers=[_handler_json(s, raw_of.get(id(s.handler)), read_of.get(id(s.handler))) for s in selected],
        **_outcome_json(outcome, to_run), unreadable=unreadable or None, sandboxed=call.sandboxed)


def claude_entry(simulation: Simulation) -> dict[str, Any]:
    """Claude Code's outcome as one of the agents' entries (the document's top level holds it whole)."""
    return {"host": CLAUDE, "title": hosts.get(CLAUDE).title, "simulated": simulation.ran, "event": simulation.event,
            "tool": simulation.payload.get("tool_name"), "decision": simulation.decision, "blocked": simulation.blocked,
            "reason": simulation.reason, "tool_input": simulation.tool_input, "effect": simulation.effect,
            "why": None if simulation.ran else "--list-only: nothing was run"}


def _simulate_other(host: str, ctx: Context, project: Path, call: Call) -> dict[str, Any]:
    """The outcome of the call for an agent other than Claude Code (the simulate module in its
    adapter's folder, installer/hosts/<name>/simulate.py), or why it is not simulated there."""
    if not hosts.get(host).simulated:
        return {"host": host, "title": hosts.get(host).title, "simulated": False,
                "why": f"simulate does not run {hosts.get(host).title}'s hooks"}
    module = importlib.import_module(f"..hosts.{host}.simulate", __package__)
    entry: dict[str, Any] = module.simulate(ctx, project, call, _in_sandbox if call.sandboxed else None)
    return entry


def _from_entry(entry: dict[str, Any], project: Path, call: Call) -> Simulation:
    """The document of a run whose first agent is not Claude Code: that agent's outcome."""
    blocked = entry.get("blocked")
    return Simulation(
        version=VERSION, host=entry["host"], event=entry.get("event") or call.event, project=str(project),
        ran=bool(entry.get("simulated")), payload={"hook_event_name": entry.get("event") or call.event,
                                                   "cwd": str(project), "tool_name": entry.get("tool"),
                                                   "tool_input": entry.get("given_input")},
        handlers=entry.get("handlers", []), decision=entry.get("decision"), blocked=blocked,
        reason=entry.get("reason"), tool_input=entry.get("tool_input"),
        candidates=entry.get("candidates", [entry.get("tool_input")] if entry.get("simulated") else []),
        nondeterministic=entry.get("nondeterministic", False if entry.get("simulated") else None),
        context=entry.get("context", []), stops_session=None, stop_reason=None,
        decided_by=[], rewritten_by=[], effect=entry.get("effect"), permission_rule=None, cannot_block=None,
        tool_output=None)


def _in_claude_words(event: str | None, host: str | None) -> tuple[str, str | None, str | None]:
    """(Claude Code's event, the agent, the tool the event implies) for an event given in any agent's words."""
    for native in hosts.every():
        if event in native.native_events:
            claude, tool = native.native_events[event]
            if host not in (None, native.name):
                title = hosts.get(host).title if host in HOSTS else host
                raise HookwrightError(f"{event} is {native.title}'s event, not {title}'s",
                                      hint=f"use --host {native.name}, or the event in Claude Code's words: {claude}")
            return claude, native.name, tool
    for named in hosts.every():
        own_names = {own: claude for claude, own in named.event_names.items()}
        if event in own_names and host in (None, named.name):
            return own_names[event], named.name, None
    return event or "PreToolUse", host, None


def _check_sandbox() -> None:
    why = sandbox.why_not()
    if why is not None:
        raise HookwrightError(f"--sandbox: no sandbox can be made here: {why}", code=ExitCode.REFUSED,
                              hint="run simulate without --sandbox (the hooks then run as the agent runs them, with "
                                   "your files and network in reach), or --list-only to run nothing")


def _in_sandbox(handlers: list[Handler], project: Path, scratch: Path) -> Callable[[list[str]], list[str]]:
    """How each hook's argv runs in the sandbox: the project and the folders of the scripts the
    hooks name readable (not writable), the scratch folder (transcript, env file) writable."""
    folders = {project}
    for handler in handlers:
        folders.update(inv.path.parent for inv in handler_facts.resolution(handler).invocations if inv.path is not None)
        if handler.file.plugin_root:
            folders.add(handler.file.plugin_root)
    return sandbox.wrapper(scratch, project, folders)


def _from_project(handler: Handler, project: Path) -> bool:
    """Whether the hook is the repository's own command, from a file the project holds (its
    settings, a plugin inside it): someone else's, unless you wrote it. (A hookwright pack's hook
    there runs what hookwright ships, checked before it runs.)"""
    return handler.owner is None and (handler.file.scope in ("project", "local") or project in handler.file.path.parents)


def _unless_tampered(selected: Selected) -> Selected:
    """A hook of ours whose runtime is not what its pack ships is not run: the agent would run
    whatever was put there, and simulate does not run that silently (the report says why)."""
    handler = selected.handler
    if not selected.runs or handler.owner is None:
        return selected
    scripts = [inv.path for inv in handler_facts.resolution(handler).invocations if inv.path is not None]
    why = not_as_shipped("claude", scripts[0].parent) if scripts else None
    if why is None:
        return selected
    scope = SCOPES.get(handler.file.scope)
    repair = f"hookwright install {handler.owner[0]}" + (
        f" {scope_args(hosts.get('claude').target(scope, handler.file.project))}" if scope else "")
    return selected._replace(simulated=False, why=f"not run: {why}; `{repair}` puts back the shipped runtime")


def _check_choices(event: str | None, host: str | None, permission_mode: str) -> None:
    if host is not None and host not in HOSTS:
        raise HookwrightError(f"simulate does not know host {host!r}", hint=f"use --host {' or '.join(HOSTS)}")
    if event is not None and event not in CLAUDE_EVENTS:
        close = FOLDED_CLAUDE_EVENTS.get(fold(event))
        raise HookwrightError(f"{event!r} is not a Claude Code hook event",
                              hint=f"did you mean {close}?" if close else "the events: " + ", ".join(CLAUDE_EVENTS))
    if permission_mode not in PERMISSION_MODES:
        raise HookwrightError(f"{permission_mode!r} is not a permission mode",
                              hint=f"use one of {', '.join(PERMISSION_MODES)}")


def _tool_input(text: str | None, file: Path | None, command: str | None) -> dict[str, Any] | None:
    given = [name for name, value in (("--input", text), ("--input-file", file), ("--command", command))
             if value is not None]
    if len(given) > 1:
        raise HookwrightError(f"{' and '.join(given)} both give the tool input", hint="give one of them")
    if command is not None:
        return {"command": command}
    if file is not None:
        text = _input_text(file, "input")
    if text is None:
        return None
    value = _parse(text, str(file) if file else "--input")
    if not isinstance(value, dict):
        raise HookwrightError("the tool input must be a JSON object", path=str(file) if file else "--input",
                              hint='for example --input \'{"command": "ls"}\'')
    return value


def _input_text(file: Path, what: str) -> str:
    try:
        return safe_read.read(file, safe_read.INPUT).decode("utf-8")
    except HookwrightError as err:
        raise HookwrightError(f"cannot read the {what} file: {err.message.removeprefix('cannot be read: ')}",
                              path=file, hint=err.hint) from None
    except (OSError, UnicodeDecodeError) as err:
        raise HookwrightError(f"cannot read the {what} file: {getattr(err, 'strerror', None) or err}",
                              path=file) from None


def _payload_file(file: Path) -> dict[str, Any]:
    value = _parse(_input_text(file, "payload"), str(file))
    if not isinstance(value, dict):
        raise HookwrightError("the payload must be a JSON object: the fields the event sends", path=file)
    return value


def _parse(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise HookwrightError(f"invalid JSON: {err.msg}", path=where, line=err.lineno, column=err.colno,
                              hint="give a JSON object; quote it for the shell") from None


def _environment(ctx: Context) -> dict[str, str]:
    """The agent's environment for its hooks: this one, with the settings files' `env` on top
    (higher scopes last)."""
    env = dict(os.environ)
    blocks = sorted(((f.scope, f.document.data["env"]) for f in ctx.files if f.kind == "claude-settings"
                     and f.document is not None and isinstance(f.document.data, dict)
                     and isinstance(f.document.data.get("env"), dict)),
                    key=lambda block: SCOPE_ORDER.get(block[0], 9))
    for _, block in blocks:
        env.update({str(k): str(v) for k, v in block.items() if isinstance(v, (str, int, float))})
    return env


def _handler_json(selected: Selected, raw: RawRun | None, read: Reading | None) -> dict[str, Any]:
    handler = selected.handler
    value = handler.value if isinstance(handler.value, dict) else {}
    row: dict[str, Any] = {
        "source": handler.source(),
        "type": value.get("type"), "command": value.get("command"), "args": value.get("args"),
        "matcher": handler.matcher, "timeout": running.timeout_of(handler) if value.get("type") == "command" else None,
        "fires": selected.runs, "simulated": selected.simulated and selected.runs, "why": selected.why,
        "from_project": _from_project(handler, Path(handler.file.project)) if handler.file.project else False,
    }
    if raw is not None:
        row.update({
            "exit_code": raw.exit_code, "duration_ms": round(raw.duration * 1000, 1), "timed_out": raw.timed_out,
            "stdout": raw.stdout.decode("utf-8", "replace")[:EXCERPT],
            "stderr": raw.stderr.decode("utf-8", "replace")[:EXCERPT],
        })
    if read is not None:
        row.update({"read_as": read.read_as, "decision": read.decision, "reason": read.reason,
                    "updated_input": read.updated_input, "updated_output": read.updated_output, "context": read.context,
                    "stops_session": read.stops_session, "system_message": read.system_message,
                    "warnings": read.warnings, "ignored_fields": read.ignored_fields})
    return row


def _outcome_json(outcome: Outcome | None, handlers: list[Handler]) -> dict[str, Any]:
    if outcome is None:  # --list-only: nothing ran, nothing decided
        return {"decision": None, "blocked": None, "reason": None, "tool_input": None, "candidates": [],
                "nondeterministic": None, "context": [], "stops_session": None, "stop_reason": None,
                "decided_by": [], "rewritten_by": [], "effect": None, "permission_rule": None, "cannot_block": None,
                "tool_output": None}
    rule = outcome.settings_rule
    return {"decision": outcome.decision, "blocked": outcome.blocked, "reason": outcome.reason,
            "tool_input": outcome.tool_input, "candidates": outcome.candidates,
            "nondeterministic": outcome.nondeterministic, "context": outcome.context,
            "stops_session": outcome.stops_session, "stop_reason": outcome.stop_reason,
            "decided_by": [handlers[i].where for i in outcome.deciders],
            "rewritten_by": [handlers[i].where for i in outcome.rewriters], "effect": outcome.effect,
            "permission_rule": {"kind": rule.kind, "rule": rule.rule, "path": rule.path} if rule else None,
            "cannot_block": outcome.cannot_block, "tool_output": outcome.tool_output}
