"""What Claude Code makes of one hook's exit code and output, and of several hooks together.

Pure functions over what a handler printed: no processes here, so every rule is unit-tested on
its own. The per-event facts (what exit 2 does, which fields an event reads) come from
installer/hosts/claude/protocol.py; the rules that are the same for every event are here, as
measured on Claude Code 2.1.328 (docs/hosts/claude-code.md#measured; the extra cases in
tests/e2e/test_simulate_conformance.py): exit 2 blocks whatever stdout says, with the JSON's
reason when that JSON blocks too, else stderr; stdout is JSON when it starts with `{` after
whitespace and parses, plain text otherwise; exit 1 (or any other code) with valid JSON is read
like exit 0; an answer that breaks the event's schema (a `hookSpecificOutput` without the
right `hookEventName`, a decision the event does not accept, `updatedInput` that is not an
object) counts for nothing at all; a timed-out hook counts for nothing; several hooks combine
as deny > defer > ask > allow, every `additionalContext` is kept (joined in the order the hooks finish), and when two rewrite the
input differently the last to finish wins.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..hosts.claude.protocol import (
    BLOCKS,
    CONTEXT,
    CONTINUE_IGNORED,
    FAILS,
    FEEDBACK,
    IGNORED,
    PATH,
    STOPS,
    UNIVERSAL_FIELDS,
    input_schema_error,
    protocol,
)
from ..records import Record
from .payload import as_the_tool_gets_it

if TYPE_CHECKING:
    from .calls import SettingsRule

PRECEDENCE = ("deny", "defer", "ask", "allow")  # the most restrictive answer applies
CONTEXT_GOES_ON = frozenset({"Stop"})  # where added context is sent to Claude as a turn of its own, so it goes on


class RawRun(Record):
    """What one handler did: how it ended and what it printed."""

    exit_code: int | None  # None: it never started, or was killed
    stdout: bytes = b""
    stderr: bytes = b""
    duration: float = 0.0  # seconds
    finished: float = 0.0  # when it ended (a monotonic clock), to tell the last finisher
    timed_out: bool = False
    start_error: str | None = None  # why it could not start


class Void(Record):
    """Why a JSON answer counts for nothing: the field that breaks the event's schema, and how."""

    field: str  # "decision", "continue", "hookSpecificOutput", "hookSpecificOutput.hookEventName"...
    why: str


@dataclass
class Reading:
    """One handler's answer as the host reads it."""

    read_as: str  # how its output was read, in words
    decision: str | None = None  # allow | deny | ask | defer (tool events); block (others); None: no say
    reason: str | None = None
    updated_input: dict[str, Any] | None = None  # a rewrite of the tool input (it replaces the input whole)
    updated_output: Any = None  # PostToolUse: what the model gets instead of the tool's result
    context: list[str] = field(default_factory=list)  # text added to Claude's context
    stops_session: bool = False  # continue: false
    stop_reason: str | None = None
    system_message: str | None = None  # shown to the user
    warnings: list[str] = field(default_factory=list)
    ignored_fields: list[str] = field(default_factory=list)  # field names the host does not read here
    void: Void | None = None  # the JSON broke the event's schema, so none of it counts

    @property
    def counts(self) -> bool:
        return self.decision is not None or self.updated_input is not None or bool(self.context) \
            or self.stops_session or self.updated_output is not None


def read(event: str, command: str, run: RawRun, background: bool = False, fails_closed: bool = False) -> Reading:
    """What Claude Code makes of `run`, the answer of the handler `command` to `event`
    (`background`: an `async` handler, which the host does not wait for; `fails_closed`: its
    `onFailure: "block"` holds here, so a failure counts as exit 2)."""
    failure = _failure(event, run) if fails_closed and not background else None
    reading = _failed_closed(event, command, run, failure) if failure else _read(event, command, run, background)
    if protocol(event).blocks_unless_allowed:
        _nothing_can_wait(reading)
    for text in reading.context:
        if len(text) > MAX_CONTEXT:
            reading.warnings.append(f"the context is {len(text):,} characters: past {MAX_CONTEXT:,} Claude gets it as a "
                                    f"saved file, with a preview of its first {CONTEXT_PREVIEW:,}")
    return reading


def _read(event: str, command: str, run: RawRun, background: bool) -> Reading:
    rules = protocol(event)
    if background:
        return Reading("async: it runs in the background, and its answer is never read",
                       warnings=["an async hook cannot block, rewrite or add context: the call does not wait for it"])
    if run.start_error is not None:
        return Reading("could not start: the call goes on", warnings=[run.start_error])
    if run.timed_out:
        return Reading("timed out: killed, its answer never counts, the call goes on",
                       warnings=[f"killed after {run.duration:.1f} s ("
                                 + ("its timeout, or the time SessionEnd hooks share, whichever came first"
                                    if event == "SessionEnd" else "its timeout") + ")"])
    stdout = run.stdout.decode("utf-8", "replace")
    stderr = run.stderr.decode("utf-8", "replace").strip()
    data, not_json = parse_stdout(stdout)
    if run.exit_code == 2 and rules.exit_2 == BLOCKS:
        reading = _answer(event, data) if data is not None else None
        if reading is not None and reading.decision in ("deny", "block"):
            reading.read_as = "exit 2: blocks, with the reason its JSON gives"
            return reading
        warnings = ["exit 2 blocks whatever stdout says: its JSON is not read"] if data is not None else []
        said = stderr or "No stderr output"
        return Reading("exit 2: blocks, with stderr as the reason", decision=_block(event),
                       reason=f"[{command}]: {said}" if rules.exit_2_names_command else said, warnings=warnings)
    if run.exit_code != 0 and rules.exit_2 == FAILS:
        return Reading(f"exit {run.exit_code}: fails the action", decision="block", reason=stderr or None)
    if data is not None:
        reading = _answer(event, data)
        if run.exit_code != 0:
            reading.read_as = f"exit {run.exit_code} with valid JSON: the JSON decides, the exit code is ignored"
            if run.exit_code == 2:
                reading.warnings.append(f"exit 2 does not block {event}: {_exit_2(event)}")
        return reading
    if run.exit_code == 2 and rules.exit_2 == FEEDBACK:  # (measured on 2.1.328: "hook blocking error", as a block's reason)
        return Reading(f"exit 2 on {event}: {_exit_2(event)}", decision="block",
                       reason=f"[{command}]: {stderr}" if stderr else f"[{command}]: No stderr output")
    if run.exit_code == 2:
        return Reading(f"exit 2 on {event}: {_exit_2(event)}")
    if run.exit_code != 0:
        first = stderr.splitlines()[0] if stderr else "no stderr"
        return Reading(f"exit {run.exit_code}: a non-blocking error, the call goes on ({first})",
                       warnings=[not_json] if not_json else [])
    if not stdout.strip():
        return Reading("nothing on stdout: no say")
    if rules.plain_stdout == CONTEXT:
        return Reading("plain text: added to Claude's context", context=[stdout.strip()])
    if rules.plain_stdout == PATH:
        return Reading("plain text: the path it answers", reason=stdout.strip())
    return Reading("plain text: goes to the debug log only, no say",
                   warnings=[not_json] if not_json else [])


def _failure(event: str, run: RawRun) -> str | None:
    """How the handler failed, in the host's words ("failed", "timed out"), or None: it could not
    start, timed out, exited with neither 0 nor 2 (valid JSON beside it or not), or printed JSON
    that breaks the event's schema; plain text and invalid JSON on exit 0 are no failure
    (measured on 2.1.332, docs/hosts/claude-code.md#on-failure)."""
    if run.timed_out:
        return "timed out"
    if run.start_error is not None or run.exit_code not in (0, 2):
        return "failed"
    data, _ = parse_stdout(run.stdout.decode("utf-8", "replace"))
    if run.exit_code == 0 and data is not None and _void(event, data, data.get("hookSpecificOutput")):
        return "failed"
    return None


def _failed_closed(event: str, command: str, run: RawRun, failure: str) -> Reading:
    """A failure under `onFailure: "block"`: it counts as exit 2, with the host's reason."""
    stderr = run.stderr.decode("utf-8", "replace").strip() or run.start_error or "No stderr output"
    reason = f'[{command}]: {failure}; blocking because onFailure is "block"' + (
        f"\n{stderr}" if failure == "failed" else "")
    read_as = f'{failure}, and onFailure is "block": it counts as exit 2'
    exit_2 = protocol(event).exit_2
    if exit_2 in (BLOCKS, FAILS, FEEDBACK):
        return Reading(f"{read_as}, which {'blocks' if exit_2 != FEEDBACK else 'is feedback to Claude'}",
                       decision=_block(event), reason=reason)
    if exit_2 == IGNORED:  # (PermissionRequest: the host answers the request with a deny)
        return Reading(f"{read_as}: the permission is refused", decision="deny", reason=reason)
    return Reading(f"{read_as}, which does nothing on {event}")


SKILL_CANNOT_WAIT = "the hook asked for approval, which a skill can't wait for"
SKILL_NO_REWRITE = "the hook changed the command, which isn't supported here"


def _nothing_can_wait(reading: Reading) -> None:
    """On an event where only an allow lets the action go on (a skill's shell line): ask and
    defer block, and so does a rewrite (measured on 2.1.332, docs/hosts/claude-code.md#preskillshellcommand)."""
    if reading.updated_input is not None and reading.decision not in ("deny", "block"):
        reading.decision, reading.reason, reading.updated_input = "deny", SKILL_NO_REWRITE, None
        reading.warnings.append("a rewrite is not supported here: the line does not run")
    elif reading.decision == "ask":
        reading.decision, reading.reason = "deny", reading.reason or SKILL_CANNOT_WAIT
        reading.warnings.append("ask blocks here: nobody can be asked while a skill runs")
    elif reading.decision == "defer":
        reading.decision, reading.reason = "deny", SKILL_CANNOT_WAIT
        reading.warnings.append("defer blocks here: nothing can wait for an approval while a skill runs")


def parse_stdout(stdout: str) -> tuple[dict[str, Any] | None, str | None]:
    """The object stdout holds, as the host parses it (JSON only when it starts with `{` after
    whitespace), or (None, why what looks like JSON is read as plain text; None for plain text)."""
    text = stdout.strip().strip("\ufeff").strip()  # (JavaScript's trim takes a byte-order mark for a blank)
    if not text:
        return None, None
    if text.startswith("{"):
        try:
            return json.loads(text, parse_constant=_not_javascript_json), None
        except ValueError as err:
            return None, f"stdout is not valid JSON ({err}): it is read as plain text"
    if _ends_in_object(text):  # the usual slip: a log line printed before the answer
        return None, (f"stdout starts with {text.splitlines()[0][:40]!r}, not {{: the JSON after it is never "
                      "read, all of stdout is plain text")
    if text[0] in '["':
        try:
            json.loads(text)
            return None, "stdout is JSON but not an object: it is read as plain text"
        except ValueError:
            pass
    return None, (f"stdout starts with {text[:20]!r}, not {{: it is read as plain text, not as JSON"
                  if "{" in text else None)


def _not_javascript_json(constant: str) -> Any:
    """NaN and Infinity, which Python's json writes and reads and JSON.parse rejects."""
    raise ValueError(f"{constant} is not JSON")


def _ends_in_object(text: str, tries: int = 50) -> bool:
    """Does `text` end in a JSON object that starts after other text?"""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start > 0 and tries:
        try:
            value, end = decoder.raw_decode(text, start)
            if isinstance(value, dict) and not text[end:].strip():
                return True
        except ValueError:
            pass
        start, tries = text.find("{", start + 1), tries - 1
    return False


def _answer(event: str, data: dict[str, Any]) -> Reading:
    """A JSON answer read by the event's schema: the whole answer is void when it breaks it."""
    rules = protocol(event)
    reading = Reading("JSON")
    top = set(UNIVERSAL_FIELDS) | {"hookSpecificOutput"}
    if rules.decisions is not None:
        top |= {"decision", "reason"}
    reading.ignored_fields = [name for name in data if name not in top]
    specific = data.get("hookSpecificOutput")
    void = _void(event, data, specific)
    if void:
        return Reading(f"JSON that counts for nothing: {void.why}", void=void, warnings=[
            f"{void.why}: the host drops the whole answer (\"A hook gave no usable answer\")"])
    if isinstance(specific, dict):
        known = rules.specific_fields | {"hookEventName"}
        reading.ignored_fields += [f"hookSpecificOutput.{name}" for name in specific if name not in known]
        _specific(event, specific, reading)
    if reading.decision is None and data.get("decision") is not None:
        legacy = data["decision"]
        reading.decision = ("allow" if legacy == "approve" else "deny") if rules.permission_decisions else _block(event)
        reading.reason = data.get("reason") if isinstance(data.get("reason"), str) else None
        if rules.permission_decisions:
            reading.warnings.append(f'"decision": "{legacy}" is the deprecated form of permissionDecision')
    if data.get("continue") is False and rules.continue_false == CONTINUE_IGNORED:
        reading.warnings.append(f"continue: false stops nothing on {event}: the session goes on")
    elif data.get("continue") is False:
        reading.stops_session = True
        reading.stop_reason = data.get("stopReason") if isinstance(data.get("stopReason"), str) else None
    if isinstance(data.get("systemMessage"), str):
        reading.system_message = data["systemMessage"]
    reading.warnings += [f"{name} is not a field Claude Code reads here: it is ignored" for name in
                         reading.ignored_fields]
    return reading


def _void(event: str, data: dict[str, Any], specific: Any) -> Void | None:
    """Why the answer breaks the event's schema, or None."""
    rules = protocol(event)
    if "decision" in data and data["decision"] is not None:
        allowed = rules.decisions or frozenset()
        if data["decision"] not in allowed:
            return Void("decision", f"decision {json.dumps(data['decision'])} is not one {event} accepts" + (
                f" ({', '.join(sorted(allowed))})" if allowed else ""))
    if "continue" in data and not isinstance(data["continue"], bool):
        return Void("continue", "continue is not true or false")
    if "hookSpecificOutput" not in data:
        return None
    if not isinstance(specific, dict):
        return Void("hookSpecificOutput", "hookSpecificOutput is not an object")
    if "hookEventName" not in specific:
        return Void("hookSpecificOutput.hookEventName", "hookSpecificOutput has no hookEventName")
    if specific["hookEventName"] != event and specific["hookEventName"] not in rules.also_named:
        return Void("hookSpecificOutput.hookEventName", f"hookSpecificOutput.hookEventName is "
                    f"{json.dumps(specific['hookEventName'])}, not \"{event}\"")
    decision = specific.get("permissionDecision")
    if "permissionDecision" in specific and rules.permission_decisions is not None \
            and decision not in rules.permission_decisions:
        return Void("hookSpecificOutput.permissionDecision",
                    f"permissionDecision {json.dumps(decision)} is not one of {', '.join(PRECEDENCE)}")
    if "updatedInput" in specific and not isinstance(specific["updatedInput"], dict):
        return Void("hookSpecificOutput.updatedInput",
                    f"updatedInput is {_kind(specific['updatedInput'])}, not an object")
    for name in ("additionalContext", "permissionDecisionReason"):
        if name in specific and not isinstance(specific[name], str):
            return Void(f"hookSpecificOutput.{name}", f"{name} is {_kind(specific[name])}, not a string")
    return None


def _specific(event: str, specific: dict[str, Any], reading: Reading) -> None:
    if event == "PermissionRequest":
        behaviour = specific.get("decision")
        if isinstance(behaviour, dict) and behaviour.get("behavior") in ("allow", "deny"):
            reading.decision = behaviour["behavior"]
            reading.reason = behaviour.get("message") if isinstance(behaviour.get("message"), str) else None
            if reading.decision == "allow" and isinstance(behaviour.get("updatedInput"), dict):
                reading.updated_input = behaviour["updatedInput"]
            if reading.decision == "deny" and behaviour.get("interrupt") is True:  # (measured: the run ends)
                reading.stops_session, reading.stop_reason = True, reading.reason
        return
    if event == "PostToolUse":  # the model gets this instead of the tool's result (a string for a built-in tool: ignored)
        for name in ("updatedMCPToolOutput", "updatedToolOutput"):
            if isinstance(specific.get(name), (dict, list)):
                reading.updated_output = specific[name]
                break
    decision = specific.get("permissionDecision")
    if decision is not None:
        reading.decision = decision
        reason = specific.get("permissionDecisionReason")
        reading.reason = reason if reason else ("Blocked by hook" if decision == "deny" else None)
    if decision == "defer":  # the tool waits for a resumed session: nothing else counts
        if "updatedInput" in specific or "additionalContext" in specific:
            reading.warnings.append("updatedInput and additionalContext are ignored with defer")
        return
    if isinstance(specific.get("updatedInput"), dict):
        reading.updated_input = specific["updatedInput"]
    if isinstance(specific.get("additionalContext"), str) and specific["additionalContext"] \
            and "additionalContext" in protocol(event).specific_fields:  # (a skill's line sends it nowhere)
        reading.context.append(specific["additionalContext"])


def _block(event: str) -> str:
    return "deny" if protocol(event).permission_decisions else "block"


def _exit_2(event: str) -> str:
    if protocol(event).exit_2 == FEEDBACK:
        return "the action has happened; stderr goes to Claude"
    return "nothing: a non-blocking error"


def _kind(value: Any) -> str:
    return {str: "a string", list: "a list", bool: "true or false", type(None): "null"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else "not an object")


# ---- several hooks ---------------------------------------------------------------------------

@dataclass
class Outcome:
    """What the host does with every handler's answer together."""

    decision: str  # allow | deny | ask | defer | block | none
    blocked: bool  # the tool (or the action) would not run
    reason: str | None
    tool_input: dict[str, Any] | None  # the input the tool would run with; None when it would not run
    candidates: list[Any]  # every input it may run with (more than one: nondeterministic)
    nondeterministic: bool
    context: list[str]
    stops_session: bool
    stop_reason: str | None
    deciders: list[int]  # indexes of the handlers whose answer decided
    rewriters: list[int]  # indexes of the handlers whose rewrite may be the one applied
    settings_rule: SettingsRule | None = None  # a permission rule that still decides after the hooks
    cannot_block: str | None = None  # why no hook can block this call
    invalid_input: str | None = None  # why the rewritten input fails the tool's schema (the call is refused)
    tool_output: Any = None  # PostToolUse: what the model gets instead of the tool's result (the last hook to finish)
    effect: str = ""  # what the host does, in words


def combine(event: str, original: dict[str, Any] | None, readings: list[Reading], finished: list[float],
            settings_rule_for: Callable[[dict[str, Any] | None], SettingsRule | None] | None = None,
            cannot_block: str | None = None, tool: str | None = None, cwd: str = ".") -> Outcome:
    """The combined answer of `readings` (in configuration order); `finished`: when each ended.
    `settings_rule_for`: the deny or ask rule of the settings that covers the call with a given
    input, read against the input the tool would run with (measured on 2.1.328: the rules judge
    the rewritten command), a deny rule refusing what the hooks allowed; `cannot_block`: why no
    hook can block the call; `tool`: the tool called, whose schema a rewritten input must meet;
    `cwd`: where a rewritten relative file path points (the host makes it absolute)."""
    decisions = [r.decision for r in readings]
    decision = next((d for d in (*PRECEDENCE, "block") if d in decisions), "none")
    blocked = decision in ("deny", "defer", "block") and not protocol(event).after_the_fact and cannot_block is None
    deciders = [i for i, d in enumerate(decisions) if d == decision and decision != "none"]
    reasons = [reason for i in deciders if (reason := readings[i].reason)]
    rewriters = [i for i, r in enumerate(readings) if r.updated_input is not None and r.decision not in ("deny",)]
    rewrites = {i: as_the_tool_gets_it(tool, readings[i].updated_input or {}, cwd) for i in rewriters}
    distinct: list[dict[str, Any] | None] = []
    for i in rewriters:
        if rewrites[i] not in distinct:
            distinct.append(rewrites[i])
    if protocol(event).after_the_fact:  # the tool has run, with the input it was given
        tool_input, candidates = original, [original]
    elif blocked or original is None:
        tool_input, candidates = None, [None] if original is not None else []
    elif not distinct:
        tool_input, candidates = original, [original]
    else:
        last = max(rewriters, key=lambda i: finished[i])
        tool_input, candidates = rewrites[last], distinct
    invalid = input_schema_error(tool, tool_input) if distinct and tool_input is not None else None
    if invalid is not None:
        blocked, tool_input, candidates = True, None, [None]
    settings_rule = settings_rule_for(tool_input if tool_input is not None else original) \
        if settings_rule_for is not None and event == "PreToolUse" else None
    if settings_rule is not None and settings_rule.kind == "deny" and not blocked:
        blocked, tool_input, candidates = True, None, [None]
    by_finish = sorted(range(len(readings)), key=lambda i: finished[i])  # the host joins them as they end
    context = [] if decision == "defer" else [_as_sent(text) for i in by_finish for text in readings[i].context]
    if event == "UserPromptSubmit" and blocked:
        context = []  # (the prompt is erased, and the context with it: measured on 2.1.328)
    if event in CONTEXT_GOES_ON and context and not any(r.stops_session for r in readings):
        blocked = True  # (measured on 2.1.328: a Stop hook's additionalContext is sent back, and Claude goes on)
    stoppers = [r for r in readings if r.stops_session]
    if stoppers and protocol(event).blocks_unless_allowed:  # (measured on 2.1.332: the skill's line never ran)
        blocked, tool_input, candidates = True, None, [None]
    outputs = [i for i in by_finish if readings[i].updated_output is not None]
    outcome = Outcome(decision=decision, blocked=blocked, reason="\n".join(reasons) or None, tool_input=tool_input,
                      candidates=candidates, nondeterministic=len(distinct) > 1 and not blocked, context=context,
                      stops_session=bool(stoppers),
                      stop_reason=next((r.stop_reason for r in stoppers if r.stop_reason), None),
                      deciders=deciders, rewriters=rewriters, settings_rule=settings_rule, cannot_block=cannot_block,
                      invalid_input=invalid, tool_output=readings[outputs[-1]].updated_output if outputs else None)
    outcome.effect = effect(event, outcome, tool_call=original is not None)
    return outcome


# context longer than this is saved to a file: Claude gets its path and a preview of its start
# (measured on 2.1.328: 10,100 characters came as <persisted-output> with "Preview (first 2KB)"; 9,900 whole)
MAX_CONTEXT = 10_000
CONTEXT_PREVIEW = 2_000


def _as_sent(text: str) -> str:
    """A hook's added context as the model gets it: whole, or past MAX_CONTEXT the start of its preview."""
    return text if len(text) <= MAX_CONTEXT else text[:CONTEXT_PREVIEW]


EFFECTS = {
    ("PostToolUse", "block"): "the tool has run; the reason goes to Claude beside its result",
    ("PostToolUseFailure", "block"): "the tool has failed; the reason goes to Claude",
    ("UserPromptSubmit", "block"): "the prompt is erased and never reaches Claude",
    ("Stop", "block"): "Claude does not stop: it goes on, with the reason as its next instruction",
    ("SubagentStop", "block"): "the subagent does not stop: it goes on, with the reason",
    ("PermissionRequest", "allow"): "the permission is granted without asking",
    ("PermissionRequest", "deny"): "the permission is refused",
    ("PermissionRequest", "none"): "no hook decides: the permission prompt appears as usual (in claude -p nobody "
                                   "can answer it: refused)",
    ("ConfigChange", "block"): "the settings change is not applied",
    ("PreCompact", "block"): "the compaction does not happen",
    ("PreSkillShellCommand", "deny"): "the skill's shell line does not run: the model gets "
                                      "[not run: blocked by hook: <reason>] in its place",
    ("PreSkillShellCommand", "allow"): "the skill's shell line runs",
    ("PreSkillShellCommand", "none"): "the skill's shell line runs",
}
ASKED = "the user is asked (in claude -p nobody can answer: refused)"


def effect(event: str, outcome: Outcome, tool_call: bool) -> str:
    """What the host does with the combined answer, in words."""
    decision, rule = outcome.decision, outcome.settings_rule
    if outcome.stops_session and protocol(event).continue_false == STOPS:
        return "Claude stops: continue: false ends it, whatever a hook decided"
    if outcome.stops_session and event == "PermissionRequest":
        return "the permission is refused, and interrupt: true ends the run"
    if outcome.invalid_input is not None:
        return f"the tool does not run: the rewritten input fails its schema ({outcome.invalid_input})"
    if outcome.cannot_block is not None and decision in ("deny", "block"):
        return f"{outcome.cannot_block}: the block is ignored and it goes on"
    if event == "PreToolUse" and rule is not None and decision not in ("deny", "defer"):
        if rule.kind == "deny":
            return f"the tool does not run: the settings' deny rule {rule.rule} refuses it (a hook's answer does " \
                   "not override a deny rule)"
        return f"{ASKED}: the settings' ask rule {rule.rule} still prompts, whatever a hook answered"
    if decision == "ask":
        return ASKED
    if event in CONTEXT_GOES_ON and outcome.blocked and decision == "none":
        return "Claude does not stop: the added context is sent to it as a reminder, and it goes on (at every stop)"
    if outcome.blocked:
        return EFFECTS.get((event, decision)) or ("the tool does not run" if tool_call else "the action is blocked")
    if outcome.tool_output is not None:
        return "the tool has run; Claude gets the hook's output in place of the tool's result" + (
            ", with the block's reason" if decision == "block" else "")
    return EFFECTS.get((event, decision)) or ("it runs" if tool_call else "it goes on")
