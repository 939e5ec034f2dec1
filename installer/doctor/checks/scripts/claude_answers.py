"""The code a hook runs, judged against the protocol of the Claude Code events it runs on
(CLAUDE_ANSWER_RULES; installer/hosts/claude/protocol.py)."""
from __future__ import annotations

import json
import re
from typing import Callable, Iterator

from ....hosts.claude import protocol as claude_protocol
from ....hosts.claude.protocol import EventProtocol
from ....patterns import lazy
from ...model import Finding, RuleTable
from ...scripts import event_branches, intent
from ...scripts import flow as script_flow
from ...scripts.keys import IGNORED_FIELDS, Site
from .units import DECISION_INSTEAD, NO_DECISION, HookCode, decision_in_wrong_event, decisions_in_wrong_branch, through

CLAUDE_ANSWER_RULES = RuleTable()  # a hook's code against the protocol of its Claude Code events


# ---- the code a hook runs: the protocol of Claude Code's events (installer/hosts/claude/protocol.py) ----

@CLAUDE_ANSWER_RULES.rule("script/exit-2-does-not-block")
def _exit_2_does_not_block(code: HookCode) -> Iterator[Finding]:
    """Exit 2 where none of the events blocks on it: after the fact when it says it refuses, or an
    event that does not read it."""
    rows, cursor = code.claude_rows, code.cursor_rows
    if cursor and not any(row.blocks for row in cursor.values()):
        for exit_ in code.flow.exits:
            if exit_.status == 2:  # (Cursor: exit 2 blocks only where a deny does, and means nothing else:
                # a guard, whatever its words say, whose fix is its event)
                yield code.report_at_event("script/exit-2-does-not-block", exit_.at, "cursor-guard",
                                           event=next(iter(cursor)), said=_said(exit_.message),
                                           line=exit_.at.line, script="the hook")
                return
    for exit_ in code.flow.exits if rows else ():
        if exit_.status != 2:
            continue
        reached = code.events_reaching(exit_.at.line)  # (a part that runs only for another handler's arguments)
        rows = {event: row for event, row in code.claude_rows.items() if event in reached}
        if not rows:
            continue
        refusal = bool(script_flow.REFUSAL.search(exit_.message))
        meant = refusal or code.says_it_guards  # (after the fact: a guard by its words, or by what the script says it is)
        weak = {e: row for e, row in rows.items()
                if row.exit_2 == claude_protocol.NOT_READ or (row.exit_2 == claude_protocol.FEEDBACK and meant)}
        if len(weak) < len(rows):
            continue
        event, row = next(iter(weak.items()))  # (after the fact, only an exit of a guard is reported)
        after = row.exit_2 == claude_protocol.FEEDBACK
        if meant or (not after and code.says_it_stops):  # a guard where nothing can be refused: the fix is its event
            variant = "after-the-fact" if after else "cannot-refuse"
            yield code.report_at_event("script/exit-2-does-not-block", exit_.at, variant, event=event,
                                       said=_said(exit_.message), line=exit_.at.line, script="the hook")
            return
        yield code.report("script/exit-2-does-not-block", exit_.at, "refusal" if refusal else None, event=event,
                          said=_said(exit_.message))


@CLAUDE_ANSWER_RULES.rule("script/reason-on-stdout")
def _reason_on_stdout(code: HookCode) -> Iterator[Finding]:
    """Exit 2 with no message on stderr, right after text on stdout, where every event blocks on it."""
    rows, flow = code.claude_rows, code.flow
    if not rows or not all(row.exit_2 == claude_protocol.BLOCKS for row in rows.values()):
        return
    first_text: dict[int, tuple[int, script_flow.Write]] = {}  # line: its first text write (and where in the list)
    for index, write in enumerate(flow.writes):
        if write.kind == script_flow.STDOUT_TEXT:
            first_text.setdefault(write.at.line, (index, write))
    for exit_ in flow.exits:
        if exit_.status != 2 or exit_.message:
            continue
        near = [first_text[line] for line in (exit_.at.line - 1, exit_.at.line) if line in first_text]
        text = min(near, key=lambda found: found[0])[1] if near else None
        if text is not None:
            yield code.report("script/reason-on-stdout", text.at, text=f"`{text.what}`")


@CLAUDE_ANSWER_RULES.rule("script/exit-1-fails-open")
def exit_1_fails_open(code: HookCode) -> Iterator[Finding]:
    """An exit other than 0 and 2 that means to refuse, where every event (of Claude Code, of Codex,
    or of Cursor for code only Cursor runs, without failClosed) blocks on exit 2 alone."""
    facts = code.facts
    # (a dispatcher refuses through the programs it runs: only an exit that says it refuses counts)
    refuses = code.refuses_for_claude or bool(facts.answers) or facts.delegates is not None
    if code.claude_events:
        if code.claude_fails_closed:  # (with onFailure "block" an exit 1 blocks)
            return
        rows = code.claude_rows
        blocking = [e for e, row in rows.items() if row.exit_2 == claude_protocol.BLOCKS]
        if not blocking or len(blocking) < len(rows):
            return
        action = "tool call" if rows[blocking[0]].tool_event else "action"
        for exit_ in _refusals_that_fail_open(code.flow, refuses):
            yield _fails_open(code, exit_, "Claude Code", action)
        return
    if code.exit_2_host:
        for exit_ in _refusals_that_fail_open(code.flow, refuses):
            yield _fails_open(code, exit_, code.exit_2_host, "tool call")
        yield from _answered_then_failed(code, code.exit_2_host, "tool call")
        return
    cursor = code.cursor_rows
    if code.cursor_events and not code.fail_closed and len(cursor) == len(code.cursor_events) \
            and all(row.blocks for row in cursor.values()):
        # (a `permission` only ever "allow" is no way to refuse: the refusal is the exit, d57's shape)
        refuses = any(s.what == "exit 2" for s in facts.blocks) or any(
            value.field == "permission" and value.value != "allow" for value in code.flow.values) or (
            "permission" in {s.what for s in facts.output_keys} and not any(
                value.field == "permission" for value in code.flow.values))
        for exit_ in _refusals_that_fail_open(code.flow, refuses):
            yield _fails_open(code, exit_, "Cursor", "action")
        yield from _answered_then_failed(code, "Cursor", "action")


ANSWER_REACH = 4  # lines between a printed JSON answer and the exit that ends its run
REFUSING_VALUES = frozenset({"deny", "block"})  # a permission, permissionDecision or decision that refuses


def _answered_then_failed(code: HookCode, host: str, action: str) -> Iterator[Finding]:
    """A JSON refusal printed on stdout (a deny, a decision block) that the run then ends with an
    exit other than 0 and 2, where its host reads the answer on exit 0 alone (Cursor's docs;
    Codex measured): the answer is thrown away with the failed hook, and the action goes ahead."""
    if not code.answers_on_exit_0:
        return
    flow, facts = code.flow, code.facts
    refusals = {site.line for site in facts.denies} | {site.line for site in facts.blocks if site.what == "decision: block"} \
        | {value.at.line for value in flow.values if value.value in REFUSING_VALUES}
    printed = [w.at.line for w in flow.writes if w.kind == script_flow.STDOUT_JSON]
    for exit_ in flow.exits:
        if exit_.status in (0, 2, None):
            continue
        json_line = next((line for line in reversed(printed) if exit_.at.line - ANSWER_REACH <= line <= exit_.at.line),
                         None)
        if json_line is None or not any(json_line - ANSWER_REACH <= line <= json_line for line in refusals):
            continue
        yield code.report("script/exit-1-fails-open", exit_.at, "answer-then-exit", how=f"`{exit_.how}`",
                          status=exit_.status, host=host, action=action, json_line=json_line)


def _fails_open(code: HookCode, exit_: script_flow.Exit, host: str, action: str) -> Finding:
    """The finding of one such exit; the message says its status where the code does not write it (a raise)."""
    shows_status = re.search(rf"\b{exit_.status}\b", exit_.how) is not None
    return code.report("script/exit-1-fails-open", exit_.at, None if shows_status else "status-not-written",
                       how=f"`{exit_.how}`", said=_said(exit_.message), status=exit_.status, host=host, action=action)


def _refusals_that_fail_open(flow: script_flow.Flow, refuses_otherwise: bool) -> list[script_flow.Exit]:
    """Exits other than 0 and 2, with no JSON answer printed just before, that say they refuse; or,
    in a script with no other way to refuse, that say anything but an error (`npm publish must go
    through CI`, not `jq is not installed`)."""
    answered = {w.at.line for w in flow.writes if w.kind == script_flow.STDOUT_JSON}
    return [e for e in flow.exits if e.status not in (0, 2, None) and e.message
            and (script_flow.REFUSAL.search(e.message) or (
                not refuses_otherwise and not script_flow.FAILURE_WORDS.search(e.message)))
            and not any(e.at.line - 4 <= line <= e.at.line for line in answered)]


def _said(message: str) -> str:
    message = " ".join(message.split())
    return json.dumps(message[:60] + ("..." if len(message) > 60 else "")) if message else "no message"


@CLAUDE_ANSWER_RULES.rule("script/continue-false-not-a-block")
def _continue_false_not_a_block(code: HookCode) -> Iterator[Finding]:
    """{"continue": false} from code that never refuses otherwise, on an event where it does not stop the action."""
    rows, flow = code.claude_rows, code.flow
    if not rows or not flow.continue_false or code.refuses_for_claude:
        return
    event = next((e for e in rows if rows[e].continue_false != claude_protocol.STOPS), None)
    if event:
        ignored = rows[event].continue_false == claude_protocol.CONTINUE_IGNORED
        yield code.report("script/continue-false-not-a-block", flow.continue_false[0], "ignored" if ignored else None,
                          event=event, effect=rows[event].continue_false,
                          action="tool call" if rows[event].tool_event else "action")


DECISION_ACCEPTED: dict[str, Callable[[EventProtocol], frozenset[str] | None]] = {
    "permissionDecision": lambda row: row.permission_decisions,
    "decision": lambda row: row.decisions,
    "behavior": lambda row: frozenset({"allow", "deny"}) if "decision" in row.specific_fields else None,
}


@CLAUDE_ANSWER_RULES.rule("script/invalid-decision-value")
def _invalid_decision_value(code: HookCode) -> Iterator[Finding]:
    """A decision value none of the events accepts (defer has a rule of its own)."""
    rows = code.claude_rows
    seen = set()
    for value in code.flow.values if rows else ():
        accepted_of = DECISION_ACCEPTED.get(value.field)
        if accepted_of is None or value.value == "defer" or (value.field, value.value) in seen:
            continue
        accepted = [accepted_of(row) for row in rows.values()]
        known = [a for a in accepted if a is not None]
        if value.field == "decision" and not known:  # none of the events reads a top-level decision
            seen.add((value.field, value.value))
            yield code.report("script/invalid-decision-value", value.at, "not-read", field=value.field,
                              value=value.value, via=through(value),
                              event=" and ".join(rows), instead=DECISION_INSTEAD.get(next(iter(rows)), NO_DECISION))
            continue
        if len(known) < len(accepted) or any(value.value in a for a in known):
            continue  # an event that does not read the field at all has rules of its own
        seen.add((value.field, value.value))
        allowed = sorted(known[0])
        quoted = ", ".join(json.dumps(v) for v in allowed)
        yield code.report("script/invalid-decision-value", value.at, field=value.field, value=value.value,
                          via=through(value), event=" and ".join(rows),
                          accepted=quoted, answer=("one of " if len(allowed) > 1 else "") + quoted)


# hookSpecificOutput fields with names no other object uses (decision, action, content are too common)
SPECIFIC_FIELDS = frozenset({"additionalContext", "updatedInput", "permissionDecisionReason", "updatedToolOutput",
                             "updatedMCPToolOutput", "sessionTitle", "watchPaths", "worktreePath", "displayContent",
                             "initialUserMessage", "reloadSkills", "suppressOriginalPrompt", "updatedPermissions",
                             "classifierContext"})
INSIDE_DECISION = frozenset({"updatedInput", "updatedPermissions"})  # PermissionRequest's decision object
# the fields of that object (docs/hosts/claude-code.md#decisions-per-event), and the keys that carry an answer
DECISION_OBJECT_FIELDS = INSIDE_DECISION | {"behavior", "message", "interrupt"}
ANSWER_FIELDS = frozenset({"decision", "permissionDecision", "behavior", "action", "retry"})


@CLAUDE_ANSWER_RULES.rule("script/field-the-event-ignores")
def _field_the_event_ignores(code: HookCode) -> Iterator[Finding]:
    """hookSpecificOutput fields that none of the events reads (dropped without a word)."""
    every = code.claude_rows
    branches = code.flow.event_branches
    if not every or code.facts.reads_event_name and not branches:
        return
    reported = {site.what for site in code.facts.misspelt}  # (script/misspelt-field says what they mean)
    if decision_in_wrong_event(code.facts, code.claude_events) or decisions_in_wrong_branch(code.facts, code.claude_events):
        reported |= {"permissionDecision", "permissionDecisionReason"}  # (script/decision-wrong-event: the answer's form)
    for site in [*code.facts.specific_keys, *code.facts.output_keys]:
        # a script that tells its events apart (its test of hook_event_name) is judged branch by
        # branch: a field is read by the events the part that writes it runs on
        meant = event_branches.events_at(branches, site.line) if code.facts.reads_event_name else None
        rows = every if not code.facts.reads_event_name else {e: r for e, r in every.items() if e in (meant or ())}
        if not rows:
            continue
        known = frozenset().union(*(row.specific_fields | (INSIDE_DECISION if "decision" in row.specific_fields
                                                           else frozenset()) for row in rows.values()))
        # a key right inside hookSpecificOutput is one of its fields whatever its name; any other key
        # only where no other object would use its name
        # (the fields no event reads have a rule of their own: script/ignored-output-field)
        direct = frozenset().union(*(row.specific_fields for row in rows.values())) | {"hookEventName", *IGNORED_FIELDS}
        decision_object = any("decision" in row.specific_fields for row in rows.values())
        inside = site in code.facts.specific_keys
        if site.what in reported or (site.what in direct if inside else
                                     site.what not in SPECIFIC_FIELDS or site.what in known):
            continue
        reported.add(site.what)
        readers = sorted(e for e, row in claude_protocol.PROTOCOL.items() if site.what in row.specific_fields)
        variant = ("inside-decision" if decision_object and site.what in DECISION_OBJECT_FIELDS
                   else "decision" if site.what in ANSWER_FIELDS else None)
        yield code.report("script/field-the-event-ignores", site, variant, field=site.what, event=" and ".join(rows),
                          readers=", ".join(readers[:4]) + (", ..." if len(readers) > 4 else "") or "no event",
                          instead=DECISION_INSTEAD.get(next(iter(rows)), NO_DECISION))


# a script's opening lines that say it acts on a failed call: "When a test run fails", "on a failing build"
SAYS_ON_FAILURE = lazy(r"(?i)\b(?:when|if|on|after|whenever)\b[^.\n]{0,50}?\bfail\w*")


def _opening_words(text: str) -> str:
    """The comment and docstring lines a script opens with (its head without its code)."""
    words, in_docstring = [], False
    for line in intent.head(text).splitlines():
        stripped = line.strip()
        quotes = stripped.count('"""') + stripped.count("'''")
        if in_docstring or quotes:
            words.append(stripped)
            in_docstring = in_docstring != (quotes % 2 == 1)
        elif stripped.startswith(("#", "//", "/*", "*")):
            words.append(stripped)
    return "\n".join(words)


@CLAUDE_ANSWER_RULES.rule("script/failure-in-post-tool-use")
def _failure_in_post_tool_use(code: HookCode) -> Iterator[Finding]:
    """A PostToolUse hook that looks for a failure: by a field of tool_response (at the field), or,
    reading the result, by what its opening lines say it does on a failed call (at the event, where
    the fix is): a failed call fires PostToolUseFailure instead (measured on 2.1.328 and 2.1.332)."""
    if code.claude_events != ["PostToolUse"]:
        return
    if code.flow.failure_fields:
        field, place = code.flow.failure_fields[0]
        yield code.report("script/failure-in-post-tool-use", place, field=field)
        return
    text = intent.text_of(code.facts.path) if code.facts.path is not None else ""
    said = SAYS_ON_FAILURE.search(_opening_words(text)) if "tool_response" in text and "fail" in text.lower() else None
    if said is not None:
        line = next((n for n, part in enumerate(text.splitlines(), 1) if said.group(0).split()[0] in part), 1)
        yield code.report_at_event("script/failure-in-post-tool-use", Site(said.group(0), line, 1), "intent",
                                   event="PostToolUse", said=" ".join(said.group(0).split()))
