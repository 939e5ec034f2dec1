"""Scripts: what each readable hook script writes, judged against what the host reads.

Findings point at the script (its line and column); each carries a `related` entry per handler
that runs it. With `--probe`, foreign Claude Code handlers are also run once per event and what
they answered is judged (installer/doctor/probe.py).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from installer.doctor import handler_facts
from installer.doctor.model import Context, Finding, Handler, rule_by_id
from installer.doctor.scripts import ScriptFacts, Site

STOP_EVENTS = ("Stop", "SubagentStop")
PERMISSION_DECISION_EVENTS = frozenset({"PreToolUse", "PreModelSwitch"})  # read permissionDecision (§6.2)
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
    for path, (facts, handlers) in by_script.items():
        yield from _script(ctx, facts, handlers)
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


def _at(rule_id: str, facts: ScriptFacts, site: Site, handlers: list[Handler], **params) -> Finding:
    rule = rule_by_id(rule_id)
    return Finding(rule.id, rule.severity, str(facts.path), site.line, site.column, rule.message.format(**params),
                   rule.hint.format(**params), _related(handlers))


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
            if site.what not in ctx.settings_env:
                yield _at("command/input-variable-never-set", facts, site, claude, name=site.what)
        stops = [h for h in claude if h.event in STOP_EVENTS]
        if stops and facts.blocks and not facts.reads_stop_hook_active and facts.delegates is None:
            site = facts.blocks[0]
            yield _at("script/stop-hook-active", facts, site, stops, event=stops[0].event, how=site.what)
    for site in facts.mixed_shapes:
        yield _at("script/mixed-shapes", facts, site, handlers, keys=site.what)


def _wrong_event_name(facts: ScriptFacts, handlers: list[Handler]) -> Iterator[Finding]:
    """A script whose literal hookEventName values name none of the events it runs on (one that
    serves two events and answers only one of them may print nothing on the other)."""
    written = {site.what for site in facts.event_names}
    events = sorted({handler.event for handler in handlers})
    if written and not written & set(events):
        site = facts.event_names[0]
        yield _at("script/wrong-event-name", facts, site, handlers, found=site.what, event=" and ".join(events))


def _answers_the_event_ignores(facts: ScriptFacts, handlers: list[Handler]) -> Iterator[Finding]:
    """A decision in a form that none of the script's events reads (hooks.md §2.1, §6.2): exit 2
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
    from installer.doctor import probe  # runs the user's commands: only with --probe

    for handler, result in probe.results_for(ctx):
        for rule_id, params in probe.verdicts(handler, result):
            yield ctx.finding(rule_id, handler.file, handler.keys + ("command",), **params)
