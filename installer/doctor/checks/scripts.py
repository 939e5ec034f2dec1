"""Scripts: what each readable hook script writes, judged against what the host reads.

Findings point at the script (its line and column); each carries a `related` entry per handler
that runs it. With `--probe`, foreign Claude Code handlers are also run once per event and what
they answered is judged (installer/doctor/scripts/probe.py).
"""
from __future__ import annotations

import json
import re
import shlex
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from ...hosts import claude_protocol, cursor_protocol
from ...patterns import lazy
from .. import handler_facts
from ..model import Context, Finding, Handler, rule_by_id
from ..scripts import flow as script_flow
from ..scripts.keys import ScriptFacts, Site, analyse_text

STOP_EVENTS = ("Stop", "SubagentStop")
PERMISSION_DECISION_EVENTS = frozenset({"PreToolUse", "PreModelSwitch"})  # read permissionDecision (docs/hosts/claude-code.md#decisions-per-event)
BLOCK_WITH_DECISION = 'a top-level "decision": "block" with a "reason"'
DECISION_INSTEAD = {
    "PermissionRequest": 'hookSpecificOutput.decision: {"behavior": "allow"} or {"behavior": "deny", "message": "..."}',
    **{event: BLOCK_WITH_DECISION for event in ("PostToolUse", "PostToolUseFailure", "PostToolBatch",
                                                "UserPromptSubmit", "UserPromptExpansion", "Stop", "SubagentStop",
                                                "ConfigChange", "PreCompact", "TaskCreated")},
    "TeammateIdle": 'exit 2, or {"continue": false, "stopReason": "..."}',
    "TaskCompleted": 'exit 2, or {"continue": false, "stopReason": "..."}',
    "PermissionDenied": "hookSpecificOutput.retry: true (the call is already denied; the hook can only ask to retry)",
    "Elicitation": 'hookSpecificOutput.action: "accept", "decline" or "cancel"',
    "ElicitationResult": 'hookSpecificOutput.action: "accept", "decline" or "cancel"',
}
NO_DECISION = "nothing: this event has no decision to make (additionalContext or a message, where it reads them)"
CONSEQUENCE = {
    "modifiedToolInput": ("the tool runs with its original input",
                          "write the new input as hookSpecificOutput.updatedInput (it replaces the whole input)"),
    "updatedToolInput": ("the tool runs with its original input",
                         "write the new input as hookSpecificOutput.updatedInput (it replaces the whole input)"),
    "shouldProceed": ("the call is not stopped",
                      "to stop the call, exit 2 with a reason on stderr or answer permissionDecision \"deny\""),
    "updatedInput": ("a top-level updatedInput is ignored, so the tool runs with its original input",
                     "move updatedInput into hookSpecificOutput, next to \"hookEventName\""),
}


def check(ctx: Context) -> Iterator[Finding]:
    by_script: dict[Path, tuple[ScriptFacts, list[Handler]]] = {}
    for handler in ctx.handlers:
        if handler.file.host not in ("claude", "cursor") or handler_facts.kind(handler) != "command":
            continue
        for _, facts in handler_facts.script_facts(handler):
            if facts.readable:
                by_script.setdefault(facts.path, (facts, []))[1].append(handler)
    for facts, handlers in by_script.values():
        yield from _script(ctx, facts, handlers)
    yield from _inline_commands(ctx)
    if ctx.probe:
        yield from _probed(ctx)


MAX_RELATED = 5


def _related(handlers: list[Handler]) -> list[dict]:
    out = []
    for handler in handlers[:MAX_RELATED]:
        line, column = handler.file.position(handler.keys + ("command",))
        out.append({"path": str(handler.file.path), "line": line, "column": column,
                    "message": f"the {handler.event} handler that runs this script"
                               + (f" (1 of {len(handlers)})" if len(handlers) > MAX_RELATED else "")})
    return out


def _at(rule_id: str, facts: ScriptFacts, site: Site | script_flow.Place, handlers: list[Handler],
        **params) -> Finding:
    rule = rule_by_id(rule_id)
    return Finding(rule.id, rule.severity, str(facts.path), site.line, site.column,
                   rule.message.format(**params) + _run_by(handlers), rule.hint.format(**params), _related(handlers))


def _run_by(handlers: list[Handler]) -> str:
    """Which config entry runs the script, for the message: ` (run by the PreToolUse hook at
    .claude/settings.json:12)`."""
    if not handlers:
        return ""
    handler = handlers[0]
    line, _ = handler.file.position(handler.keys + ("command",))
    path = handler.file.path
    try:
        shown = path.relative_to(handler.file.project).as_posix() if handler.file.project else path.name
    except ValueError:
        shown = str(path)
    more = f" and {len(handlers) - 1} more" if len(handlers) > 1 else ""
    return f" (run by the {handler.event} hook at {shown}:{line}{more})"


def _script(ctx: Context, facts: ScriptFacts, handlers: list[Handler]) -> Iterator[Finding]:
    claude = [h for h in handlers if h.file.host == "claude"]
    if claude:
        for site in facts.ignored:
            consequence, hint = CONSEQUENCE[site.what]
            yield _at("script/ignored-output-field", facts, site, claude, field=site.what, consequence=consequence,
                      hint=hint)
        for site in facts.top_level_updated_input:
            consequence, hint = CONSEQUENCE["updatedInput"]
            yield _at("script/ignored-output-field", facts, site, claude, field="updatedInput at the top level",
                      consequence=consequence, hint=hint)
        for site in facts.defer:
            yield _at("script/defer", facts, site, claude)
        for site in facts.no_event_name:
            yield _at("script/no-event-name", facts, site, claude)
        yield from _wrong_event_name(facts, claude)
        yield from _answers_the_event_ignores(facts, claude)
        for site in facts.legacy_variables:
            if site.what not in (ctx.settings_env or ()):
                yield _at("command/input-variable-never-set", facts, site, claude, name=site.what)
        stops = [h for h in claude if h.event in STOP_EVENTS]
        from_env = facts.flow.stop_flag_from_env
        if stops and facts.blocks and (from_env or not facts.reads_stop_hook_active) and facts.delegates is None:
            at: Site | script_flow.Place = from_env or facts.blocks[0]
            reads = ("reads stop_hook_active from a variable Claude Code never sets (it comes on stdin)" if from_env
                     else "never reads stop_hook_active from its input")
            yield _at("script/stop-hook-active", facts, at, stops, event=stops[0].event, how=facts.blocks[0].what,
                      reads=reads)
    cursor = [h for h in handlers if h.file.host == "cursor"]
    yield from protocol_findings(
        facts, sorted({h.event for h in claude}), sorted({h.event for h in cursor}),
        lambda rule, place, **params: _at(rule, facts, place, claude if rule in CLAUDE_RULES and claude else handlers,
                                          **params),
        fail_closed=bool(cursor) and all(isinstance(h.value, dict) and h.value.get("failClosed") is True
                                         for h in cursor),
        tools=_tools_reached(claude) if claude and not cursor else None)
    for site in facts.mixed_shapes:
        yield _at("script/mixed-shapes", facts, site, handlers, keys=site.what)


# ---- the event's protocol (installer/hosts/claude_protocol.py) ---------------------------------------

CLAUDE_RULES = frozenset({"script/exit-2-does-not-block", "script/exit-1-fails-open", "script/reason-on-stdout",
                          "script/continue-false-not-a-block", "script/invalid-decision-value",
                          "script/failure-in-post-tool-use"})


def protocol_findings(facts: ScriptFacts, claude_events: list[str], cursor_events: list[str],
                      report, fail_closed: bool = False, tools: frozenset[str] | None = None) -> Iterator[Finding]:
    """Everything the script's flow breaks: on any host, on the Claude Code events it runs on
    (their protocol), and for a script only Cursor runs, Cursor's answer shape.
    `report(rule_id, place, **params)` makes the finding (at the script, or at an inline command)."""
    yield from _flow(facts, report, tools)
    if claude_events:
        yield from _protocol(facts, claude_events, report)
    elif cursor_events:
        yield from _cursor_answer(facts, cursor_events, report)
        if not fail_closed and all((row := cursor_protocol.protocol(e)) is not None and row.blocks
                                   for e in cursor_events):
            refuses = any(s.what == "exit 2" for s in facts.blocks) or "permission" in {s.what for s in facts.output_keys}
            for exit_ in _refusals_that_fail_open(facts.flow, refuses):
                yield _fails_open(exit_, "Cursor", "action", report)
    if not facts.reads_event_name and facts.delegates is None:
        yield from _fields_never_sent(facts, claude_events, cursor_events, report)


CLAUDE_SENDS = {event: claude_protocol.COMMON_INPUT | row.sends for event, row in claude_protocol.PROTOCOL.items()}
CURSOR_SENDS = {event: row.stdin_fields for event, row in cursor_protocol.PROTOCOL.items()}
INPUT_FIELDS = frozenset().union(*CLAUDE_SENDS.values(), *CURSOR_SENDS.values())


def _meant(field: str, sent: frozenset[str]) -> str | None:
    """The field the event sends that an unknown name seems meant for (user_prompt: prompt)."""
    import difflib

    close = difflib.get_close_matches(field, sorted(sent), n=1, cutoff=0.8)
    inside = [name for name in sorted(sent, key=len, reverse=True) if len(name) > 3 and name in field]
    return close[0] if close else (inside[0] if inside else None)


def _fields_never_sent(facts: ScriptFacts, claude_events: list[str], cursor_events: list[str],
                       report) -> Iterator[Finding]:
    """A field of some event's input (either host's) that none of the script's events sends."""
    sent = frozenset().union(*(CLAUDE_SENDS.get(e, claude_protocol.COMMON_INPUT) for e in claude_events),
                             *(CURSOR_SENDS.get(e, cursor_protocol.COMMON_STDIN) for e in cursor_events))
    if not (claude_events or cursor_events) or not (set(claude_events) <= set(CLAUDE_SENDS)) \
            or not (set(cursor_events) <= set(CURSOR_SENDS)):
        return  # an event this table does not know: no judgement
    events = " and ".join(claude_events + cursor_events)
    read = {field for field, _ in facts.flow.input_reads}
    for field, place in facts.flow.input_reads:
        meant = _meant(field, sent)
        if field not in INPUT_FIELDS and meant and meant not in read:  # a name no event sends: a typo?
            yield report("script/input-field-never-sent", place, field=field, event=events,
                         senders=f"no event does: did you mean {meant}?")
        if field in INPUT_FIELDS and field not in sent:
            same, other = (CLAUDE_SENDS, CURSOR_SENDS) if claude_events else (CURSOR_SENDS, CLAUDE_SENDS)
            senders = sorted(e for e, fields in same.items() if field in fields) or sorted(
                f"{'Cursor' if claude_events else 'Claude Code'}'s {e}" for e, fields in other.items() if field in fields)
            yield report("script/input-field-never-sent", place, field=field, event=events,
                         senders="it comes with " + ", ".join(senders[:4]) + (" ..." if len(senders) > 4 else ""))


def _flow(facts: ScriptFacts, report, tools: frozenset[str] | None = None) -> Iterator[Finding]:
    """What is wrong whatever the event: two answers mixed on stdout, stdin read twice, tracing,
    updatedInput as a string or as a new object that drops fields."""
    flow = facts.flow
    if flow.syntax_error:
        what, place = flow.syntax_error
        yield report("script/does-not-parse", place, what=what,
                     interpreter="python3" if facts.language == "python" else "node")
    mixed = flow.mixed_output()
    if mixed:
        text, answer = mixed
        what = "its own input (a tee that is not sent to /dev/null)" if text.kind == script_flow.STDOUT_INPUT \
            else f"`{text.what}`"
        yield report("script/text-before-json", text.at, text=what, text_line=text.at.line,
                     json_line=answer.at.line)
    for place in flow.stdin_reads:
        yield report("script/stdin-read-twice", place)
    if flow.trace:
        yield report("script/shell-trace", flow.trace)
    for place in flow.input_as_string:
        yield report("script/updated-input-not-object", place)
    for place, keys in flow.new_inputs:
        missing = script_flow.dropped_fields(keys, tools)
        if missing:
            yield report("script/rewrite-drops-fields", place, keys=", ".join(keys), missing=", ".join(missing))


def _protocol(facts: ScriptFacts, events: list[str], report) -> Iterator[Finding]:
    """The script's exits, decisions and continue:false against what its events read."""
    rows = {event: claude_protocol.protocol(event) for event in events}
    flow = facts.flow
    refuses = bool(facts.denies) or any(s.what in ("exit 2", "decision: block") for s in facts.blocks)
    yield from _exits(flow, rows, report, refuses or bool(facts.answers))
    if flow.continue_false and not refuses:
        event = next((e for e in events if rows[e].continue_false != claude_protocol.STOPS), None)
        if event:
            ignored = rows[event].continue_false == claude_protocol.CONTINUE_IGNORED
            yield report("script/continue-false-not-a-block", flow.continue_false[0], event=event,
                         effect="is ignored" if ignored else rows[event].continue_false,
                         action="tool call" if rows[event].tool_event else "action",
                         hint='exit 2 with the reason on stderr, or answer {"decision": "block", "reason": "..."}'
                         if ignored else 'answer permissionDecision "deny" with a reason (or exit 2) to refuse the call')
    yield from _decision_values(flow, rows, report)
    yield from _fields_the_events_ignore(facts, rows, report)
    if events == ["PostToolUse"] and flow.failure_fields:
        field, place = flow.failure_fields[0]
        yield report("script/failure-in-post-tool-use", place, field=field)


# hookSpecificOutput fields with names no other object uses (decision, action, content are too common)
SPECIFIC_FIELDS = frozenset({"additionalContext", "updatedInput", "permissionDecisionReason", "updatedToolOutput",
                             "updatedMCPToolOutput", "sessionTitle", "watchPaths", "worktreePath", "displayContent",
                             "initialUserMessage", "reloadSkills", "suppressOriginalPrompt", "updatedPermissions",
                             "classifierContext"})
INSIDE_DECISION = frozenset({"updatedInput", "updatedPermissions"})  # PermissionRequest's decision object


def _fields_the_events_ignore(facts: ScriptFacts, rows: dict, report) -> Iterator[Finding]:
    """hookSpecificOutput fields that none of the script's events reads (dropped without a word)."""
    if facts.reads_event_name:
        return
    known = frozenset().union(*(row.specific_fields | (INSIDE_DECISION if "decision" in row.specific_fields
                                                       else frozenset()) for row in rows.values()))
    for site in facts.output_keys:
        if site.what in SPECIFIC_FIELDS and site.what not in known:
            readers = sorted(e for e, row in claude_protocol.PROTOCOL.items() if site.what in row.specific_fields)
            yield report("script/field-the-event-ignores", site, field=site.what, event=" and ".join(rows),
                         readers=", ".join(readers[:4]) + (", ..." if len(readers) > 4 else "") or "no event")


def _exits(flow: script_flow.Flow, rows: dict, report, refuses_otherwise: bool = True) -> Iterator[Finding]:
    blocking = [e for e, row in rows.items() if row.exit_2 == claude_protocol.BLOCKS]
    for exit_ in flow.exits:
        if exit_.status == 2:
            yield from _exit_two(exit_, rows, bool(script_flow.REFUSAL.search(exit_.message)), flow, report)
    if blocking and len(blocking) == len(rows):
        action = "tool call" if rows[blocking[0]].tool_event else "action"
        for exit_ in _refusals_that_fail_open(flow, refuses_otherwise):
            yield _fails_open(exit_, "Claude Code", action, report)


def _fails_open(exit_: script_flow.Exit, host: str, action: str, report) -> Finding:
    shows_status = re.search(rf"\b{exit_.status}\b", exit_.how) is not None
    return report("script/exit-1-fails-open", exit_.at, how=f"`{exit_.how}`", said=_said(exit_.message),
                  status="" if shows_status else f", which exits {exit_.status}", host=host, action=action)


def _refusals_that_fail_open(flow: script_flow.Flow, refuses_otherwise: bool = True) -> list[script_flow.Exit]:
    """Exits other than 0 and 2, with no JSON answer printed just before, that say they refuse; or,
    in a script with no other way to refuse, that say anything but an error (`npm publish must go
    through CI`, not `jq is not installed`)."""
    answered = {w.at.line for w in flow.writes if w.kind == script_flow.STDOUT_JSON}
    return [e for e in flow.exits if e.status not in (0, 2, None) and e.message
            and (script_flow.REFUSAL.search(e.message) or (
                not refuses_otherwise and not script_flow.FAILURE_WORDS.search(e.message)))
            and not any(e.at.line - 4 <= line <= e.at.line for line in answered)]


def _exit_two(exit_: script_flow.Exit, rows: dict, refusal: bool, flow: script_flow.Flow, report) -> Iterator[Finding]:
    weak = {e: row for e, row in rows.items()
            if row.exit_2 == claude_protocol.NOT_READ or (row.exit_2 == claude_protocol.FEEDBACK and refusal)}
    if weak and len(weak) == len(rows):
        event, row = next(iter(weak.items()))
        if row.exit_2 == claude_protocol.FEEDBACK:
            effect, hint = ("does not block: the tool has already run, its stderr is shown to Claude and nothing "
                            "is undone", f"refuse before the call, in a PreToolUse hook; on {event} exit 2 only "
                            "gives Claude feedback")
        else:
            effect, hint = ("is a non-blocking error like any other: nothing is stopped and its stderr only goes "
                            "to the debug log", f"{event} cannot refuse anything; exit 0 (or move the check to an "
                            "event that can block)")
        yield report("script/exit-2-does-not-block", exit_.at, event=event, effect=effect, hint=hint,
                     refusal=f" to refuse ({_said(exit_.message)})" if refusal else "")
    if not exit_.message and rows and all(row.exit_2 == claude_protocol.BLOCKS for row in rows.values()):
        text = next((w for w in flow.writes if w.kind == script_flow.STDOUT_TEXT
                     and 0 <= exit_.at.line - w.at.line <= 1), None)
        if text is not None:
            yield report("script/reason-on-stdout", text.at, text=f"`{text.what}`")


def _said(message: str) -> str:
    message = " ".join(message.split())
    return json.dumps(message[:60] + ("..." if len(message) > 60 else "")) if message else "no message"


DECISION_ACCEPTED = {
    "permissionDecision": lambda row: row.permission_decisions,
    "decision": lambda row: row.decisions,
    "behavior": lambda row: frozenset({"allow", "deny"}) if "decision" in row.specific_fields else None,
}


def _decision_values(flow: script_flow.Flow, rows: dict, report) -> Iterator[Finding]:
    """A decision value none of the script's events accepts (defer has a rule of its own)."""
    seen = set()
    for value in flow.values:
        accepted_of = DECISION_ACCEPTED.get(value.field)
        if accepted_of is None or value.value == "defer" or (value.field, value.value) in seen:
            continue
        accepted = [accepted_of(row) for row in rows.values()]
        if not accepted or any(a is None for a in accepted) or any(value.value in a for a in accepted):
            continue  # an event that does not read the field at all has rules of its own
        seen.add((value.field, value.value))
        allowed = sorted(accepted[0])
        quoted = ", ".join(json.dumps(v) for v in allowed)
        yield report("script/invalid-decision-value", value.at, field=value.field, value=value.value,
                     via=f" (through {value.via})" if value.via else "", event=" and ".join(rows),
                     accepted=quoted, answer=("one of " if len(allowed) > 1 else "") + quoted)


def _tools_reached(handlers: list[Handler]) -> frozenset[str]:
    """The tools (of those a rewrite is judged for) the handlers' matchers reach."""
    from ..regex.overlap import matched_builtins

    return frozenset().union(*(matched_builtins(h.matcher, tuple(script_flow.TOOL_FIELDS), h.event) for h in handlers))


# ---- Cursor (installer/hosts/cursor_protocol.py) ------------------------------------------------------

CLAUDE_ANSWER = ("hookSpecificOutput", "permissionDecision", "hookEventName")
CURSOR_FIELDS = frozenset().union(*(row.output_fields for row in cursor_protocol.PROTOCOL.values()))


# Claude Code's names for what Cursor calls otherwise (a script written for one, run by the other)
CLAUDE_NAMES = {"additionalContext": "additional_context", "userMessage": "user_message",
                "agentMessage": "agent_message", "followupMessage": "followup_message",
                "updatedInput": "updated_input"}


def _cursor_answer(facts: ScriptFacts, events: list[str], report) -> Iterator[Finding]:
    """A script only Cursor runs: an answer in Claude Code's shape, or fields its events ignore."""
    rows = {event: row for event in events if (row := cursor_protocol.protocol(event)) is not None}
    if not rows:
        return
    written = {site.what: site for site in facts.output_keys}
    reads = frozenset().union(*(row.output_fields for row in rows.values()))
    blocks = any(v.field == "decision" and v.value == "block" for v in facts.flow.values)
    claude_keys = [k for k in (*CLAUDE_ANSWER, *CLAUDE_NAMES) if k in written] + (["decision"] if blocks else [])
    one_shape = not (set(written) & CURSOR_FIELDS) or not facts.tells_hosts_apart
    if claude_keys and one_shape and reads and not facts.mixed_shapes:  # (one object with both: mixed-shapes)
        example = ('{"permission": "deny", "user_message": "...", "agent_message": "..."}' if "permission" in reads
                   else "{" + ", ".join(f'"{f}": ...' for f in sorted(reads)) + "}")
        renamed = [f"{k} (Cursor's is {CLAUDE_NAMES[k]})" for k in claude_keys if k in CLAUDE_NAMES]
        site = written.get(claude_keys[0]) or next(v.at for v in facts.flow.values if v.field == "decision")
        yield report("script/claude-answer-for-cursor", site, keys=", ".join(renamed or claude_keys),
                     expected=", ".join(sorted(reads)), example=example)
    for field in sorted(set(written) & CURSOR_FIELDS - reads):
        event = next(iter(rows))
        where_read = sorted(e for e, row in cursor_protocol.PROTOCOL.items() if field in row.output_fields)
        yield report("script/cursor-field-not-read", written[field], field=field, event=event,
                     reads=", ".join(sorted(reads)) or "no output at all",
                     hint=f"{field} is read on {', '.join(where_read)}; drop it here")


# ---- commands written inline (shell and jq in the config itself) ----------------------------------------

SHELLS = ("sh", "bash", "zsh", "dash", "ksh")
SHELL_C = lazy(r"\s*(?:\S*/)?(?:ba|z|da|k)?sh\s+-c\s")
# what the script rules look at in a command (a command without any of these gives them nothing)
INLINE_SIGNS = lazy(r"\b(?:jq|cat|read|echo|printf|exit|set|tee)\b|updated|continue|decision|permission|"
                          r"behavior|tool_response|hookSpecificOutput|stop_hook_active")


@lru_cache(maxsize=4096)
def _inline_facts(command: str) -> ScriptFacts:
    """The analysis of a command's text (the same command in many files is read once)."""
    return analyse_text(_inner_script(command), "shell", Path("<command>"))


def _inner_script(command: str) -> str:
    """`bash -c '...'` runs the quoted script: that is the code to read."""
    if not SHELL_C.match(command):
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if len(words) >= 3 and words[0].rsplit("/", 1)[-1] in SHELLS and words[1] == "-c":
        return words[2]
    return command

def _inline_commands(ctx: Context) -> Iterator[Finding]:
    """A shell-form command that runs no script file is itself the hook: the same rules, at the
    command in the config."""
    for handler in ctx.handlers:
        if handler.file.host not in ("claude", "cursor") or handler_facts.kind(handler) != "command":
            continue
        command = handler.value.get("command") if isinstance(handler.value, dict) else None
        if not isinstance(command, str) or handler.value.get("args") is not None or handler_facts.script_facts(handler):
            continue
        if not INLINE_SIGNS.search(command):
            continue  # nothing these rules read: a script run by path, a notify-send...
        facts = _inline_facts(command)
        keys = handler.keys + ("command",)

        def report(rule_id: str, place, **params) -> Finding:  # (called within this iteration)
            return ctx.finding(rule_id, handler.file, keys, **params)  # noqa: B023

        claude = [handler.event] if handler.file.host == "claude" else []
        yield from protocol_findings(facts, claude, [handler.event] if not claude else [], report,
                                     tools=_tools_reached([handler]) if claude else None)


def _wrong_event_name(facts: ScriptFacts, handlers: list[Handler]) -> Iterator[Finding]:
    """A script whose literal hookEventName values name none of the events it runs on (one that
    serves two events and answers only one of them may print nothing on the other)."""
    written = {site.what for site in facts.event_names}
    events = sorted({handler.event for handler in handlers})
    if written and not written & set(events):
        site = facts.event_names[0]
        yield _at("script/wrong-event-name", facts, site, handlers, found=site.what, event=" and ".join(events))


def _answers_the_event_ignores(facts: ScriptFacts, handlers: list[Handler]) -> Iterator[Finding]:
    """A decision in a form that none of the script's events reads (docs/hosts/claude-code.md#events, #decisions-per-event): exit 2
    on PermissionRequest, permissionDecision outside PreToolUse and PreModelSwitch. A script that
    also runs on an event that reads it may be answering that one."""
    events = sorted({handler.event for handler in handlers})
    exits = [site for site in facts.blocks if site.what == "exit 2"]
    if events == ["PermissionRequest"] and exits and "behavior" not in facts.answers:
        yield _at("script/exit-2-ignored", facts, exits[0], handlers)
    # one event, and a script that does not tell events apart (one that reads hook_event_name may
    # answer permissionDecision only on PreToolUse, where it runs too)
    if facts.permission_decisions and len(events) == 1 and events[0] not in PERMISSION_DECISION_EVENTS \
            and not facts.reads_event_name:
        yield _at("script/decision-wrong-event", facts, facts.permission_decisions[0], handlers,
                  event=events[0], instead=DECISION_INSTEAD.get(events[0], NO_DECISION))


def _probed(ctx: Context) -> Iterator[Finding]:
    """What each foreign Claude Code handler answered its event under --probe, at its command."""
    from ..scripts import probe  # runs the user's commands: only with --probe

    for handler, result in probe.results_for(ctx):
        for rule_id, params in probe.verdicts(handler, result):
            yield ctx.finding(rule_id, handler.file, handler.keys + ("command",), **params)
