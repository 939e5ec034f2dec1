"""What the code a hook runs (a script file or an inline command) answers and reads: whatever its
event (CODE_RULES: whether it parses, where its answer goes, how it reads its input and builds a
rewrite); against the protocols of the hosts that run it: the Claude Code events it runs on
(CLAUDE_ANSWER_RULES; installer/hosts/claude/protocol.py), its answer as Cursor reads it
(CURSOR_ANSWER_RULES; installer/hosts/cursor/protocol.py), and the input fields it reads that
its events never send, on either host (INPUT_RULES); its tests that can never be true, by the
language's own rules or against the values the host really sends (CONDITION_RULES, with the tool
names a renaming host's hooks see and the tool input fields a host sends: RENAMED_TOOL_RULES,
TOOL_FIELD_RULES; installer/doctor/scripts/conditions.py); and which scripts run on an event whose
host rejects some answers (rejecting_scripts: rejected.py's rules judge them). (One module: each
module every run loads is about 0.3 M instructions before its own code.)"""
from __future__ import annotations

import difflib
import json
import re
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Iterator

from .... import hosts
from ....hooks.events import BUILTIN_TOOLS
from ....hooks.regex import matched_builtins
from ....hosts.base import Host
from ....hosts.claude import protocol as claude_protocol
from ....hosts.claude.protocol import EventProtocol, protocol
from ....hosts.cursor import protocol as cursor_protocol
from ....patterns import joins, lazy, stands_alone
from ... import handler_facts
from ...model import Context, Finding, Handler, RuleTable
from ...scripts import event_branches, intent, runners
from ...scripts import flow as script_flow
from ...scripts.conditions import bare_name, relative_path_pattern
from ...scripts.delivery import READS_NOTHING  # (not runtimes.py, which only a Python or JavaScript script needs)
from ...scripts.keys import IGNORED_FIELDS, Site, command_facts, strip_comments
from ...scripts.keys import analyse as analyse_script
from ...shell import Where
from .units import (
    DECISION_INSTEAD,
    NO_DECISION,
    AtCommand,
    HookCode,
    Script,
    decision_in_wrong_event,
    decisions_in_wrong_branch,
    scripts_run_by,
    through,
)

if TYPE_CHECKING:  # (an annotation's type: units.py defines it for mypy alone)
    from .units import At

CODE_RULES = RuleTable()  # the rules of the code a hook runs, a script file or an inline command
CLAUDE_ANSWER_RULES = RuleTable()  # a hook's code against the protocol of its Claude Code events
CURSOR_ANSWER_RULES = RuleTable()  # a hook's code as Cursor reads its answer
INPUT_RULES = RuleTable()  # the input fields a hook's code reads


# ---- the code a hook runs, whatever its event -------------------------------------------------------------

@CODE_RULES.rule("script/does-not-parse")
def _does_not_parse(code: HookCode) -> Iterator[Finding]:
    if code.flow.syntax_error:
        what, place = code.flow.syntax_error
        yield code.report("script/does-not-parse", place, "fails-closed" if code.claude_fails_closed else None,
                          what=what, interpreter="python3" if code.facts.language == "python" else "node")


@CODE_RULES.rule("script/text-before-json")
def _text_before_json(code: HookCode) -> Iterator[Finding]:
    """Text (or the hook's own input) and a JSON answer that one run can both print."""
    mixed = code.flow.mixed_output(code.cdpath)
    modules = [(path, analyse_script(path).flow) for path in code.facts.modules] if not mixed else []
    # the answer: printed by the script, or by a module of its own (a helper's deny())
    answer = next((w for flow in [code.flow, *(flow for _, flow in modules)] for w in flow.writes
                   if w.kind == script_flow.STDOUT_JSON), None)
    if not mixed and answer is not None:
        for path, flow in modules:  # a module of its own that prints when it is imported
            printed = flow.import_time_text
            if printed is not None:
                yield _mixed(code, printed.at, "module", text=f"`{printed.what}`",
                                  module=path.name, text_line=printed.at.line, json_line=answer.at.line,
                                  in_file=path)
                return
        for path, flow in modules:  # a module that sends logging to stdout, and the script logs
            logged = next((at for receiver, at in code.flow.log_calls if receiver in flow.stdout_loggers), None)
            if flow.stdout_config is not None and logged is not None:
                yield _mixed(code, flow.stdout_config, "configured-in-module",
                                  module=path.name, text_line=logged.line, json_line=answer.at.line, in_file=path)
                return
    # Cursor takes stdout that is not one JSON object for a failed hook: fail-open, or a block with failClosed
    cursor = "cursor-fail-closed" if code.fail_closed else "cursor"
    claude = bool(code.claude_rows) or not code.cursor_rows
    if not mixed and code.flow.second_answer is not None:
        first, second = code.flow.second_answer
        yield _mixed(code, first.at, "second-answer" if claude else cursor,
                          text=f"`{first.what}`", text_line=first.at.line, json_line=second.at.line,
                          event=" and ".join(code.cursor_rows))
        return
    if not mixed and answer is None:  # a wrapper: npm, yarn or make runs a script that answers, their text before it
        for program, args, assigned, at in code.flow.runner_runs:
            chatter = runners.chatter([program, *args], assigned, code.facts.path.parent)
            answering = runners.answering_script(chatter, Where(project=chatter.folder)) if chatter else None
            if chatter is not None and answering is not None:
                yield _mixed(code, at, "runner", runner=chatter.runner,
                                  prints=chatter.prints, script=answering.name, quiet=chatter.quiet)
                return
    if mixed:
        text, answer = mixed
        own = text.kind == script_flow.STDOUT_INPUT
        variant = ("own-input" if own else None) if claude else cursor
        yield _mixed(code, text.at, variant, text=f"`{text.what}`" if not own else
                          "its own input (a tee that is not sent to /dev/null)", text_line=text.at.line,
                          json_line=answer.at.line, event=" and ".join(code.cursor_rows))
        config = code.flow.stdout_config
        if variant is None and config is not None and text.what.endswith(LOGGING) and config.line != text.at.line:
            # (the line the user changes is where logging is sent to stdout, not each log call)
            yield _mixed(code, config, "configured", text=f"`{text.what[:-len(LOGGING)]}`",
                              text_line=text.at.line, json_line=answer.at.line)


LOGGING = " (logging to stdout)"


@CODE_RULES.rule("script/answer-sent-away")
def _answer_sent_away(code: HookCode) -> Iterator[Finding]:
    """A shell script whose lasting `exec >>log` sends its stdout elsewhere before its JSON answer."""
    sent = code.flow.stdout_sent_away
    if sent is not None:
        at, how, answer = sent
        yield code.report("script/answer-sent-away", at, how=f"`{how}`", json_line=answer.at.line)


def _mixed(code: HookCode, place: At, variant: str | None, **params: Any) -> Finding:
    """script/text-before-json's finding, naming the host that reads the stdout."""
    return code.report("script/text-before-json", place, variant, host=code.host, **params)


@CODE_RULES.rule("script/answer-on-stderr")
def _answer_on_stderr(code: HookCode) -> Iterator[Finding]:
    """A JSON answer written only to stderr, by code that never exits 2 (where stderr is the
    block's reason), writes nothing else on stdout that could be the answer, and hands its
    output to no other program: the host reads the answer from
    stdout (measured on 2.1.328: a PreToolUse deny on stderr with exit 0 let the call run)."""
    flow = code.flow
    if not flow.stderr_answers or code.facts.delegates is not None or flow.unread_output \
            or any(w.kind == script_flow.STDOUT_JSON for w in flow.writes) \
            or any(e.status == 2 or e.status is None and not e.relayed for e in flow.exits):  # (one not read may be 2)
        return
    yield code.report("script/answer-on-stderr", flow.stderr_answers[0], host=code.host)


@CODE_RULES.rule("script/answer-not-json")
def _answer_not_json(code: HookCode) -> Iterator[Finding]:
    """console.log of the answer object itself: printed in JavaScript's notation, not JSON."""
    return code.at_each("script/answer-not-json", code.flow.inspected_answers)


@CODE_RULES.rule("script/stdin-read-twice")
def _stdin_read_twice(code: HookCode) -> Iterator[Finding]:
    return code.at_each("script/stdin-read-twice", code.flow.stdin_reads)


@CODE_RULES.rule("script/stdin-read-partly")
def _stdin_read_partly(code: HookCode) -> Iterator[Finding]:
    """A read of stdin that stops before the end of a large payload (scripts/runtimes.py)."""
    for what, place in code.flow.partial_reads:
        yield code.report("script/stdin-read-partly", place, "nothing" if what.startswith(READS_NOTHING) else None,
                          what=what)


@CODE_RULES.rule("script/shell-trace")
def _shell_trace(code: HookCode) -> Iterator[Finding]:
    if code.flow.trace:
        yield code.report("script/shell-trace", code.flow.trace)


@CODE_RULES.rule("script/value-keeps-quotes")
def _value_keeps_quotes(code: HookCode) -> Iterator[Finding]:
    """A value read by jq without -r (a JSON string, quotes and all) tested with an anchored pattern."""
    for value in code.flow.quoted_values:
        yield code.report("script/value-keeps-quotes", script_flow.Place(value.line, value.column),
                          variable=value.variable, test=value.test, test_line=value.test_line)


@CODE_RULES.rule("script/updated-input-not-object")
def _updated_input_not_object(code: HookCode) -> Iterator[Finding]:
    return code.at_each("script/updated-input-not-object", code.flow.input_as_string)


@CODE_RULES.rule("script/rewrite-drops-fields")
def _rewrite_drops_fields(code: HookCode) -> Iterator[Finding]:
    """updatedInput built anew, with some of the fields of a tool its matchers reach."""
    for place, keys in code.flow.new_inputs:
        missing = script_flow.dropped_fields(keys, code.tools)
        if missing:
            yield code.report("script/rewrite-drops-fields", place, written=", ".join(keys), missing=", ".join(missing))


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
    if all(exit_.status in (0, 2, None) for exit_ in code.flow.exits):
        return  # (each finding is an exit of another status: a command line's delegates are not worked out for none)
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




# ---- the code a hook runs: Cursor's answer (installer/hosts/cursor/protocol.py) --------------------------

CLAUDE_ANSWER = ("hookSpecificOutput", "permissionDecision", "hookEventName")
CURSOR_FIELDS = frozenset().union(*(row.output_fields for row in cursor_protocol.PROTOCOL.values()))
# Claude Code's names for what Cursor calls otherwise (a script written for one, run by the other)
CLAUDE_NAMES = {"additionalContext": "additional_context", "userMessage": "user_message",
                "agentMessage": "agent_message", "followupMessage": "followup_message",
                "updatedInput": "updated_input"}


@CURSOR_ANSWER_RULES.rule("script/claude-answer-for-cursor")
def _claude_answer_for_cursor(code: HookCode) -> Iterator[Finding]:
    """An answer in Claude Code's shape from code only Cursor runs (one object with both shapes
    is mixed-shapes')."""
    facts, rows = code.facts, code.cursor_rows
    if not rows:
        return
    written = {site.what: site for site in facts.output_keys}
    reads = frozenset().union(*(row.output_fields for row in rows.values()))
    blocks = any(v.field == "decision" and v.value in ("block", "deny", "approve", "allow") for v in facts.flow.values)
    claude_keys = [k for k in (*CLAUDE_ANSWER, *CLAUDE_NAMES) if k in written] + (["decision"] if blocks else [])
    one_shape = not (set(written) & CURSOR_FIELDS) or not facts.tells_hosts_apart
    if claude_keys and one_shape and reads and not facts.mixed_shapes:
        example = ('{"permission": "deny", "user_message": "...", "agent_message": "..."}' if "permission" in reads
                   else "{" + ", ".join(f'"{f}": ...' for f in sorted(reads)) + "}")
        renamed = [f"{k} (Cursor's is {CLAUDE_NAMES[k]})" for k in claude_keys if k in CLAUDE_NAMES]
        site: At = written.get(claude_keys[0]) or next(v.at for v in facts.flow.values if v.field == "decision")
        yield code.report("script/claude-answer-for-cursor", site, written=", ".join(renamed or claude_keys),
                          expected=", ".join(sorted(reads)), example=example)


# Cursor's answer fields that no Claude Code answer has (`continue` and `env` are Claude Code's words too)
CURSOR_ONLY = frozenset({"permission", "user_message", "agent_message", "followup_message", "updated_input",
                         "additional_context", "updated_mcp_tool_output"})


@CURSOR_ANSWER_RULES.rule("script/cursor-answer-for-claude")
def _cursor_answer_for_claude(code: HookCode) -> Iterator[Finding]:
    """An answer in Cursor's flat shape from code only Claude Code runs, with nothing of Claude
    Code's shape beside it: Claude Code reads none of it."""
    facts = code.facts
    if not code.claude_rows or code.cursor_rows or facts.tells_hosts_apart or facts.mixed_shapes \
            or not any(w.kind == script_flow.STDOUT_JSON for w in facts.flow.writes):
        return  # (a script that prints no JSON writes its objects elsewhere: a log, a request)
    written = {site.what: site for site in facts.output_keys}
    cursor = [key for key in sorted(CURSOR_ONLY & set(written), key=lambda k: (written[k].line, written[k].column))]
    claude = set(written) & {*CLAUDE_ANSWER, "decision", "continue", "systemMessage", "reason"}
    if cursor and not claude:
        fields = frozenset().union(*(row.specific_fields for row in claude_protocol.PROTOCOL.values()))
        ours = {cursor_name: claude_name for claude_name, cursor_name in CLAUDE_NAMES.items() if claude_name in fields}
        yield code.report("script/cursor-answer-for-claude", written[cursor[0]], event=next(iter(code.claude_rows)),
                          written=", ".join(f"{k} (Claude Code's is hookSpecificOutput.{ours[k]})" if k in ours else k
                                            for k in cursor))


@CURSOR_ANSWER_RULES.rule("script/cursor-field-not-read")
def _cursor_field_not_read(code: HookCode) -> Iterator[Finding]:
    """A Cursor answer field that none of the Cursor events the code runs on reads; a refusal on
    events none of which can block or keep the agent going is a guard on the wrong event, said once
    where the hook is registered (the fix is its event, not the script's answer; on stop it is the
    answer: followup_message keeps the agent going)."""
    rows = code.cursor_rows
    if not rows:
        return
    written = {site.what: site for site in code.facts.output_keys}
    reads = frozenset().union(*(row.output_fields for row in rows.values()))
    refusals = _refusals(code)
    if refusals and not any(row.blocks or row.continues for row in rows.values()):
        field, site = next(iter(refusals.items()))
        event = next(iter(rows))
        yield code.report_at_event("script/cursor-field-not-read", site, "cannot-block", field=field, event=event,
                                   instead=_blocking_twin(event, field))
        return
    for field in sorted(set(written) & CURSOR_FIELDS - reads):
        where_read = sorted(e for e, row in cursor_protocol.PROTOCOL.items() if field in row.output_fields)
        yield code.report("script/cursor-field-not-read", written[field], field=field, event=next(iter(rows)),
                          reads=", ".join(sorted(reads)) or "no output at all", read_on=", ".join(where_read))


def _blocking_twin(event: str, field: str) -> str:
    """The event a guard on `event` belongs on: its before-twin where Cursor has one that reads the
    refusal (afterShellExecution: beforeShellExecution), else every event that reads it."""
    for after, before in (("after", "before"), ("post", "pre")):
        twin = before + event[len(after):] if event.startswith(after) else ""
        row = cursor_protocol.protocol(twin) if twin else None
        if row is not None and row.blocks and field in row.output_fields:
            return twin
    return " or ".join(sorted(e for e, row in cursor_protocol.PROTOCOL.items() if row.blocks and field in row.output_fields))


@CURSOR_ANSWER_RULES.rule("script/cursor-invalid-permission")
def _cursor_invalid_permission(code: HookCode) -> Iterator[Finding]:
    """A `permission` value none of the Cursor events accepts (allow, deny and, where read, ask)."""
    rows = code.cursor_rows
    accepted = [row.permissions for row in rows.values() if row.permissions is not None]
    if not accepted or len(accepted) < len(rows):
        return  # (an event that does not read permission: cursor-field-not-read)
    for value in code.flow.values:
        if value.field == "permission" and not any(value.value in a for a in accepted):
            allowed = sorted(frozenset().union(*accepted))
            yield code.report("script/cursor-invalid-permission", value.at, value=value.value,
                              via=through(value), event=" and ".join(rows),
                              accepted=", ".join(json.dumps(v) for v in allowed))
            return


@CURSOR_ANSWER_RULES.rule("script/cursor-ask-not-asked")
def _cursor_ask_not_asked(code: HookCode) -> Iterator[Finding]:
    """permission "ask" where Cursor does not ask: preToolUse lets the action go on (ask accepted
    by the schema, not enforced), subagentStart treats it as deny (docs/hosts/cursor.md#events)."""
    rows = code.cursor_rows
    what = {row.ask for row in rows.values()}
    if not rows or len(what) != 1 or what - {cursor_protocol.NOT_ENFORCED, cursor_protocol.DENIES}:
        return
    asks = sorted(e for e, row in cursor_protocol.PROTOCOL.items() if row.ask == cursor_protocol.ASKS)
    for value in code.flow.values:
        if value.field == "permission" and value.value == "ask":
            yield code.report("script/cursor-ask-not-asked", value.at,
                              "denies" if what == {cursor_protocol.DENIES} else None, event=" and ".join(rows),
                              via=through(value), asks=" and ".join(asks))
            return


# what refuses on a Cursor event, by the field it is written in (docs/hosts/cursor.md#answer-fields)
REFUSAL_FIELDS = ("permission", "continue")


def _refusals(code: HookCode) -> dict[str, At]:
    """Where the code refuses, by the field: a `permission` that is not "allow", a `continue: false`."""
    found: dict[str, At] = {}
    for value in code.flow.values:
        if value.field == "permission" and value.value != "allow":
            found.setdefault("permission", value.at)
    if code.flow.continue_false:
        found.setdefault("continue", code.flow.continue_false[0])
    return found


@CURSOR_ANSWER_RULES.rule("script/cursor-refusal-not-read")
def _cursor_refusal_not_read(code: HookCode) -> Iterator[Finding]:
    """A refusal in a field one of the Cursor events the code runs on does not read, where the code
    never writes the field that event refuses with: beforeSubmitPrompt reads `continue`, not
    `permission`; the permission events read `permission`, not `continue`. The one answer serves
    both events (d73's DLP script), so on one of them nothing is refused."""
    rows = code.cursor_rows
    refusals = _refusals(code) if rows else {}
    written = {site.what for site in code.facts.output_keys} | set(refusals)
    for event, row in rows.items():
        own = next((field for field in REFUSAL_FIELDS if field in row.output_fields), None)
        if own is None or own in written:
            continue
        for field, at in refusals.items():
            if field not in row.output_fields:
                yield code.report("script/cursor-refusal-not-read", at, field=field, event=event, own=own,
                                  example='{"continue": false, "user_message": "..."}' if own == "continue"
                                  else '{"permission": "deny", "user_message": "..."}')
                return


@CURSOR_ANSWER_RULES.rule("script/cursor-text-not-json")
def _cursor_text_not_json(code: HookCode) -> Iterator[Finding]:
    """Plain text on stdout, and no JSON at all, from code only Cursor runs on events that read an
    answer: Cursor reads stdout as one JSON object (sessionStart's context is `additional_context`),
    so the text is an answer it cannot parse, a failed hook (docs/hosts/cursor.md#bad-json)."""
    rows, flow = code.cursor_rows, code.flow
    reads = sorted(frozenset().union(*(row.output_fields for row in rows.values()))) if rows else []
    if not reads or any(w.kind == script_flow.STDOUT_JSON for w in flow.writes) or code.facts.output_keys \
            or any(exit_.status == 2 for exit_ in flow.exits):
        return
    text = next((w for w in flow.writes if w.kind == script_flow.STDOUT_TEXT), None)
    if text is not None:
        yield code.report("script/cursor-text-not-json", text.at, "fail-closed" if code.fail_closed else None,
                          text=f"`{text.what}`", event=" and ".join(rows), reads=", ".join(reads),
                          example='{"additional_context": "..."}' if "additional_context" in reads else
                          "{" + ", ".join(f'"{field}": ...' for field in reads) + "}")




# ---- the code a hook runs: its input, on either host ----------------------------------------------------

CLAUDE_SENDS = {event: claude_protocol.COMMON_INPUT | row.sends for event, row in claude_protocol.PROTOCOL.items()}
CURSOR_SENDS = {event: row.stdin_fields for event, row in cursor_protocol.PROTOCOL.items()}
INPUT_FIELDS: frozenset[str] = frozenset().union(*CLAUDE_SENDS.values(), *CURSOR_SENDS.values())


@INPUT_RULES.rule("script/input-field-never-sent")
def _input_field_never_sent(code: HookCode) -> Iterator[Finding]:
    """A field of some event's input (either host's) that none of the code's events sends, read by
    code that does not tell events apart."""
    facts, claude_events, cursor_events = code.facts, code.claude_events, code.cursor_events
    others = code.other_inputs
    if not facts.flow.input_reads or facts.reads_event_name or facts.delegates is not None \
            or not (claude_events or cursor_events or others) \
            or not set(claude_events) <= set(CLAUDE_SENDS) or not set(cursor_events) <= set(CURSOR_SENDS):
        return  # (an event this table does not know: no judgement)
    sent = frozenset().union(*(CLAUDE_SENDS[e] for e in claude_events), *(CURSOR_SENDS[e] for e in cursor_events),
                             *others.values())
    events = " and ".join(claude_events + cursor_events + sorted(set(others) - set(claude_events)))
    read = {field for field, _ in facts.flow.input_reads}
    for field, place in facts.flow.input_reads:
        # (a name no event sends: a typo? Its near names asked of difflib for such a name alone: on
        # the corpus tree 39 reads got that far, each of a field some event sends: 15 M instructions)
        if field not in INPUT_FIELDS and (meant := _meant(field, sent)) and meant not in read:
            yield code.report("script/input-field-never-sent", place, "typo", field=field, event=events, meant=meant)
        if field in INPUT_FIELDS and field not in sent:
            same, other = (CLAUDE_SENDS, CURSOR_SENDS) if claude_events else (CURSOR_SENDS, CLAUDE_SENDS) \
                if cursor_events else ({}, CLAUDE_SENDS)  # (a Codex hook's: Claude Code's events name it)
            senders = sorted(e for e, fields in same.items() if field in fields) or sorted(
                f"{'Cursor' if claude_events else 'Claude Code'}'s {e}" for e, fields in other.items() if field in fields)
            yield code.report("script/input-field-never-sent", place, field=field, event=events,
                              senders=", ".join(senders[:4]) + (" ..." if len(senders) > 4 else ""))


@INPUT_RULES.rule("script/input-shape-differs")
def _input_shape_differs(code: HookCode) -> Iterator[Finding]:
    """A guard run on several events that can refuse, which reads only fields one of them never
    sends (Cursor's beforeReadFile sends `file_path` at the top level, preToolUse `tool_input`):
    on that event its check reads nothing and lets everything through. Code that tells events
    apart, or reads some field every event sends it, is not reported."""
    facts = code.facts
    if not facts.flow.input_reads or facts.reads_event_name or facts.delegates is not None or facts.tells_hosts_apart:
        return  # (no input read: nothing to report, and a command line's delegates are not worked out)
    if not set(code.claude_events) <= set(CLAUDE_SENDS) or not _refuses(code):
        return
    rows = [(e, CLAUDE_SENDS[e], _claude_refuses(e)) for e in code.claude_events] + \
        [(e, CURSOR_SENDS[e], row.blocks) for e, row in code.cursor_rows.items()]
    if len(rows) < 2:
        return
    common = frozenset.intersection(*(sends for _, sends, _ in rows))
    reads = [(field, place) for field, place in facts.flow.input_reads if field not in common]
    read = {field for field, _ in reads}
    for event, sends, refuses in rows:
        if not refuses or not read or read & sends or not any(read & other for e, other, _ in rows if e != event):
            continue
        field, place = reads[0]
        own = sorted(sends - common)
        yield code.report("script/input-shape-differs", place, field=field, event=event,
                          sends=", ".join(own) if own else "none of them")
        return


def _claude_refuses(event: str) -> bool:
    row = claude_protocol.protocol(event)
    return row is not None and (row.permission_decisions is not None or row.decisions is not None and not row.after_the_fact)


def _refuses(code: HookCode) -> bool:
    """It can refuse: a deny, a block, exit 2, or Cursor's permission field."""
    facts = code.facts
    return code.refuses_for_claude or facts.exits_2() or any(s.what == "permission" for s in facts.output_keys)


# the fields every event sends, which no name read in a check is taken to be meant for by its last word
COMMON_INPUT = claude_protocol.COMMON_INPUT | cursor_protocol.COMMON_STDIN


def _meant(field: str, sent: frozenset[str]) -> str | None:
    """The field the event sends that an unknown name seems meant for: one close to it (user_prompt:
    prompt), one inside it, or one of the event's own whose last word it is (Cursor's beforeReadFile
    sends file_path, not path; preToolUse tool_name, not name)."""
    close = difflib.get_close_matches(field, sorted(sent), n=1, cutoff=0.8)
    inside = [name for name in sorted(sent, key=len, reverse=True) if len(name) > 3 and name in field]
    tail = [name for name in sorted(sent - COMMON_INPUT) if len(field) > 3 and name.endswith("_" + field)]
    return close[0] if close else inside[0] if inside else tail[0] if len(tail) == 1 else None


@INPUT_RULES.rule("script/input-text-spaced")
def _input_text_spaced(code: HookCode) -> Iterator[Finding]:
    """A guard that looks for a key and its value in the raw text of its input with a space after
    the colon (`grep -q '"command": "git push'`), run only by hosts that write the input as compact
    JSON (Host.compact_input, measured): the text never appears, so the test never holds."""
    matches = code.facts.flow.spaced_matches
    if matches and code.compact_input and _refuses(code):
        text, place = matches[0]
        yield code.report("script/input-text-spaced", place, text=text, host=code.host)


# ---- the code a hook runs: tests that can never be true (installer/doctor/scripts/conditions.py) --------

CONDITION_RULES = RuleTable()  # a hook's code: its conditions, whatever the event
RENAMED_TOOL_RULES = RuleTable()  # a script of a host whose hooks see tools by other names than the model's
TOOL_FIELD_RULES = RuleTable()  # a script of a host that knows the fields of its tools' input
SENT_TOOL_NAMES = frozenset(BUILTIN_TOOLS)


@CONDITION_RULES.rule("script/test-never-true")
def _test_never_true(code: HookCode) -> Iterator[Finding]:
    """Each test the shell or the language can never make true: the branch it guards never runs."""
    if not (code.claude_events or code.cursor_events or code.other_inputs):  # (the shell's rules: any host's hook)
        return
    for site in code.facts.never_true:
        kind, text = site.what.split(":", 1)
        yield code.report("script/test-never-true", site, kind, text=text)


def _compared(code: HookCode | Script, field: str) -> list[tuple[Site, str]]:
    return [(site, site.what.split(":", 1)[1]) for site in code.facts.compared if site.what.startswith(field + ":")]


@CONDITION_RULES.rule("script/value-never-sent")
def _value_never_sent(code: HookCode) -> Iterator[Finding]:
    """A tool event's field compared with a value Claude Code never sends there: a tool name it has
    no tool by (`"bash"`, Cursor's `"Shell"`), where the code compares it with none it has; a
    relative pattern for `file_path`, which Claude Code sends absolute (docs/hosts/claude-code.md,
    measured: a relative `file_path` reached the hooks made absolute)."""
    if not any(protocol(event).tool_event for event in code.claude_events):
        return
    names = _compared(code, "tool_name")
    if names and not any(text in SENT_TOOL_NAMES or text.startswith("mcp__") for _, text in names):
        for site, text in names:
            if text.replace("_", "").replace("-", "").isalnum():
                yield code.report("script/value-never-sent", site, text=text)
    paths = _compared(code, "file_path")
    # a bare name (".env", "secrets.json") is relative too: reported where every name compared is one,
    # so that `case "$f" in *.env|.env)` (whose other arm matches) stays alone
    bare = bool(paths) and all(bare_name(text) or relative_path_pattern(text) for _, text in paths)
    for site, text in paths:
        if relative_path_pattern(text) or bare and bare_name(text):
            yield code.report("script/value-never-sent", site, "path", text=text)


def renaming_scripts(ctx: Context) -> list[Script]:
    """Each readable script a command handler runs on a tool event of a host whose hooks see tools
    by other names than the model's (Host.tool_renames: Codex), with those handlers."""
    return list(scripts_run_by(ctx, _on_a_renamed_tool_event).values())


def _on_a_renamed_tool_event(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and bool(host.tool_renames) and handler.event in host.tool_events


@RENAMED_TOOL_RULES.rule("script/tool-name-renamed")
def _tool_name_renamed(script: Script) -> Iterator[Finding]:
    """`tool_name == "exec_command"` in a Codex hook: its hooks see every shell call as `Bash`
    (Host.tool_renames, measured), so where the script compares with no name they do see, the
    test is never true."""
    host = hosts.of(script.handlers[0].file.host)
    if host is None:
        return
    names = _compared(script, "tool_name")
    if not names or any(text in host.hook_tool_names for _, text in names):
        return
    seen_as = {**{name.lower(): name for name in host.hook_tool_names}, **host.tool_renames}
    for site, text in names:
        if text in seen_as or text.lower() in seen_as:
            yield script.finding("script/tool-name-renamed", site, script.handlers, text=text, host=host.title,
                                 name=seen_as.get(text) or seen_as[text.lower()])


# between tool_input and the field it reads, only what closes its own lookup or gives a default (`")`,
# `, {})`, `"]`, ` or {})`, ` ?? {})`): never another expression (`input.tool_input && input.tool_input.x`
# reads x, not "tool_input"), nor the shell after a jq filter (`'{i: .tool_input}' >> .codex/log` reads nothing)
LOOKUP_MARKS = frozenset("\"'()[]{},|?")
MAX_LOOKUP_MARKS = 12


def input_field_reads(text: str) -> Iterator[tuple[int, str]]:
    """Each read of a field of the call's tool_input, in the languages doctor reads (`.cmd`,
    `?.cmd`, `["cmd"]`, `.get("cmd")`), with where its name starts: str tests, not a pattern (its
    compile was 0.8 M instructions of doctor on a typical file, whose jq command names tool_input:
    336.4 M -> 335.6 M; tests/test_plain_tests.py holds it to the pattern it stands for)."""
    at = text.find("tool_input")
    while at >= 0:
        found = None
        here = at + len("tool_input")
        for taken in range(MAX_LOOKUP_MARKS + 1) if not _word_at(text, here) else ():
            found = _field_looked_up(text, here)
            if found is not None or taken == MAX_LOOKUP_MARKS:
                break
            if here < len(text) and (text[here].isspace() or text[here] in LOOKUP_MARKS):
                here += 1
            elif text.startswith("or", here) and stands_alone(text, here, here + 2):
                here += 2
            else:
                break
        if found is None:
            at = text.find("tool_input", at + 1)
        else:
            yield found[0], text[found[0]:found[1]]
            at = text.find("tool_input", found[1])


def _word_at(text: str, index: int) -> bool:
    """A word character there, as a regex's \\w (patterns.joins)."""
    return 0 <= index < len(text) and joins(text[index])


def _field_looked_up(text: str, at: int) -> tuple[int, int] | None:
    """Where the name a lookup at `at` reads starts and ends: `.get("x`, `?.x`, `.x`, `["x`."""
    if text.startswith(".get(", at):
        found = _quoted_name(text, at + len(".get("))
        if found is not None:
            return found
    if text.startswith("?.", at):
        return _name(text, at + 2)
    if text.startswith(".", at):
        return _name(text, at + 1)
    return _quoted_name(text, at + 1) if text.startswith("[", at) else None


def _quoted_name(text: str, at: int) -> tuple[int, int] | None:
    while at < len(text) and text[at].isspace():
        at += 1
    return _name(text, at + 1) if at < len(text) and text[at] in "'\"" else None


def _name(text: str, start: int) -> tuple[int, int] | None:
    end = start
    while _word_at(text, end):
        end += 1
    return (start, end) if end > start else None


@RENAMED_TOOL_RULES.rule("script/input-field-renamed")
def _input_field_renamed(script: Script) -> Iterator[Finding]:
    """`tool_input.cmd` in a Codex hook: the model's shell tool takes `cmd`, its hooks get the
    command as `tool_input.command` (Host.tool_input_renames, measured), so the value read is
    always missing, where the script reads the field hooks get nowhere."""
    host = hosts.of(script.handlers[0].file.host)
    if host is None or not host.tool_input_renames:
        return
    reads = list(input_field_reads(script.text))
    fields = {field for _, field in reads}
    for offset, field in reads:
        sent = host.tool_input_renames.get(field)
        if sent is not None and sent not in fields:
            line = script.text.count("\n", 0, offset) + 1
            column = offset - script.text.rfind("\n", 0, offset)
            yield script.finding("script/input-field-renamed", Site(field, line, column), script.handlers,
                                 field=field, sent=sent, host=host.title)
            return


class FieldReader:
    """Code whose reads of tool_input script/tool-field-not-sent judges: a script file, with the
    handlers that run it, or a command written in the config, with its one handler."""

    def __init__(self, ctx: Context, text: str, language: str, handlers: list[Handler],
                 script: Script | None = None) -> None:
        self.ctx = ctx
        self.text = text
        self.language = language
        self.handlers = handlers
        self.script = script

    @cached_property
    def stripped(self) -> str:
        """Its text with the comments blanked (keys.strip_comments)."""
        return strip_comments(self.text, self.language)

    @cached_property
    def reads(self) -> list[tuple[int, str]]:
        """The fields of tool_input it reads (tool_input_reads): worked out once for both rules
        (each of the corpus tree's commands that reads one was scanned twice, 0.3 M instructions each)."""
        return tool_input_reads(self.stripped)

    def tells_hosts_apart(self) -> bool:
        if self.script is not None:
            return self.script.facts.tells_hosts_apart
        return command_facts(self.text).tells_hosts_apart

    def shared(self) -> bool:
        """A hook of another host runs it too (its fields may be that host's)."""
        return self.script is not None and _run_by_another_host(self.script, self.handlers[0].file.host)

    def report(self, rule_id: str, place: Site, variant: str | None = None, **params: str | None) -> Finding:
        if self.script is not None:
            return self.script.finding(rule_id, place, self.handlers, variant, **params)
        return AtCommand(self.ctx, self.handlers[0])(rule_id, place, variant, **params)


def tool_field_readers(ctx: Context) -> Iterator[FieldReader]:
    """Each readable script, and each command that reads tool_input itself, that a command handler
    runs on a tool event of a host that knows the fields of its tools' input (Host.tool_inputs:
    Claude Code, Codex), with those handlers."""
    for script in scripts_run_by(ctx, _on_a_tool_event_of_known_inputs).values():
        yield FieldReader(ctx, script.text, script.facts.language, script.handlers, script)
    for handler in ctx.handlers:
        command = handler.value.get("command") if isinstance(handler.value, dict) else None
        if isinstance(command, str) and "tool_input" in command and handler_facts.kind(handler) == "command" \
                and _on_a_tool_event_of_known_inputs(handler) and not handler_facts.script_facts(handler):
            yield FieldReader(ctx, command, "shell", [handler])


def _on_a_tool_event_of_known_inputs(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and bool(host.tool_inputs) and handler.event in host.tool_events


# a variable the call's tool_input is put in (`ti = data.get("tool_input", {})`, `const ti = input.tool_input ?? {}`)
_INPUT_VARIABLE = lazy(r"""(?:(?:const|let|var)\s+)?(?P<var>[A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\], |]+)?=\s*[^=\n;]*?"""
                       r"""(?:\[\s*["']tool_input["']\s*\]|\.get\(\s*["']tool_input["'][^)\n]*\)|\.tool_input\b)"""
                       r"""\s*(?:\|\||or\b|\?\?|;|$)""", re.M, needs=("tool_input",))
# `const { file_path, content } = input.tool_input`: each name is a field read
_INPUT_DESTRUCTURED = lazy(r"""(?:const|let|var)\s*\{(?P<names>[^{}]*)\}\s*=\s*[\w$.?]*\btool_input\b""",
                           needs=("tool_input",))
# `const { tool_input: { path } } = event`, `({ tool_input: { file_path } }) => ...`: a nested destructuring
_INPUT_NESTED = lazy(r"""(?:(?:const|let|var)\s*|\(\s*)\{[^{}=]*?\btool_input\s*:\s*\{(?P<names>[^{}]*)\}""",
                     needs=("tool_input",))
_NAME = lazy(r"""(?:^|,)\s*(?P<name>[A-Za-z_$][\w$]*)""")
_JQ_PIPED = lazy(r"tool_input\s*\|\s*\.(?P<field>\w+)\b", needs=("|",))  # jq's `.tool_input | .x` (asked of a text with tool_input)


def tool_input_reads(code: str) -> list[tuple[int, str]]:
    """The fields of the call's tool_input the code reads, each at its first read, in order:
    `.tool_input.x`, `["tool_input"]["x"]`, `.get("tool_input", {}).get("x")`, jq's
    `.tool_input | .x`, a variable holding tool_input and read so, a destructuring of it (nested
    in the event's too)."""
    if "tool_input" not in code:
        return []
    found: dict[str, int] = {}
    for offset, field in input_field_reads(code):
        found.setdefault(field, offset)
    for m in _JQ_PIPED.finditer(code):
        found.setdefault(m["field"], m.start("field"))
    binds = "=" in code  # (the two forms below bind a name: a text without "=" compiles neither, 3 M instructions)
    for m in _INPUT_VARIABLE.finditer(code) if binds and _may_bind_input(code) else ():
        var = re.escape(m["var"])
        for use in re.finditer(rf"""(?<![\w$.]){var}(?:\??\.get\(\s*["'](?P<a>\w+)|\[\s*["'](?P<b>\w+)["']|"""
                               rf"""\??\.(?P<c>[A-Za-z_]\w*)\b(?!\s*\())""", code[m.end():]):
            found.setdefault(use["a"] or use["b"] or use["c"], m.end() + use.start())
    for m in _INPUT_DESTRUCTURED.finditer(code) if binds else ():
        for name in _NAME.finditer(m["names"]):
            found.setdefault(name["name"], m.start("names") + name.start("name"))
    for m in _INPUT_NESTED.finditer(code) if "{" in code else ():
        for name in _NAME.finditer(m["names"]):
            found.setdefault(name["name"], m.start("names") + name.start("name"))
    return sorted(((offset, field) for field, offset in found.items()), key=lambda read: read[0])


def _may_bind_input(code: str) -> bool:
    """Whether the code holds what every match of _INPUT_VARIABLE holds: a `tool_input` with `=`
    before it and no `;` or other `=` between, read as `.tool_input`, `["tool_input"]` or
    `.get("tool_input"...)`, and after that an end: `||`, `or`, `??`, `;` or the line's. The
    pattern tries every name before every `=` of a text, and scans the rest of the line from
    each: on the corpus tree, 0.9 M instructions for each of the 67 commands that read
    tool_input, none of them with a match (the tree's tool-field rules, with FieldReader.reads:
    102 M -> 33 M instructions; the test: tests/test_plain_tests.py)."""
    at = code.find("tool_input")
    while at >= 0:
        after, equals = at + len("tool_input"), code.rfind("=", 0, at)
        if equals >= 0 and code.find(";", equals, at) < 0:
            if code[at - 1] == "." and not (after < len(code) and joins(code[after])) and _input_ends(code, after):
                return True
            if code[at - 1] in "\"'" and code[after:after + 1] in ("'", '"'):
                bracket = after + 1
                while bracket < len(code) and code[bracket].isspace():
                    bracket += 1
                if code.startswith("]", bracket) and _input_ends(code, bracket + 1):
                    return True
                call = code.find(")", after + 1)
                if call >= 0 and "\n" not in code[after + 1:call] and _input_ends(code, call + 1):
                    return True
        at = code.find("tool_input", at + 1)
    return False


def _input_ends(code: str, at: int) -> bool:
    r"""Whether _INPUT_VARIABLE's end, `\s*(?:\|\||or\b|\?\?|;|$)` of a multiline pattern, matches at `at`."""
    end = at
    while end < len(code) and code[end].isspace():
        end += 1
    if end == len(code) or "\n" in code[at:end]:
        return True
    return code.startswith(("||", "??", ";"), end) or code.startswith("or", end) and not (
        end + 2 < len(code) and joins(code[end + 2]))


def _folded(name: str) -> str:
    """A field's name without its case and underscores: `file_path` and `filePath` fold alike."""
    return name.replace("_", "").lower()


@TOOL_FIELD_RULES.rule("script/tool-field-not-sent")
def _tool_field_not_sent(code: FieldReader) -> Iterator[Finding]:
    """A field of tool_input the calls the script's hooks run on never carry (Host.tool_inputs,
    measured): Codex sends an edit as apply_patch, with the patch text as tool_input.command
    alone, so a script that reads none of the fields its matchers' tools send reads nothing; and
    a script that reads another host's name for a field (opencode's `filePath` in a Claude Code
    hook, which gets `file_path`) reads nothing, unless it reads the host's own name too (a
    fallback for both). Not said for a script another host's hooks run too, nor one that tells
    hosts apart; where a matcher may select a tool whose fields are not known (every tool, a
    regex), only a field whose own name one of the host's tools sends."""
    host = hosts.of(code.handlers[0].file.host)
    if host is None or not host.tool_inputs:
        return
    reads = code.reads
    if not reads or code.tells_hosts_apart() or code.shared():
        return
    selected = [host.tools_selected(handler.matcher) for handler in code.handlers]
    tools = frozenset().union(*(s for s in selected if s)) if all(selected) else None
    known = host.tool_inputs if tools is None else {tool: host.tool_inputs[tool] for tool in tools}
    sent = frozenset().union(*known.values())
    read = {field for _, field in reads}
    named = ", ".join(sorted(tools)) if tools else "every tool they match"
    others = [(offset, field, other, own) for offset, field in reads
              for other in [None if field in sent else hosts.sender(field, host)] if other is not None
              for own in [next((name for name in sorted(sent) if _folded(name) == _folded(field)), None)]
              if own not in read and (own is not None or tools is not None)]
    carried = [field for _, field in reads if field in sent]
    if carried and others:  # (a fallback whose value meets a carried field's on its way to the test: dead, harmless)
        others = [entry for entry in others if not _same_decision(code.stripped, carried, entry[1])]
    others.sort(key=lambda read: read[3] is None)  # (another agent's name for a field the host sends by its own, first)
    if tools and not read & (sent | host.tool_input_renames.keys()) and not (others and others[0][3]):
        offset, field = reads[0]
        notes = "".join(f" ({host.tool_input_notes[tool]})" for tool in sorted(tools) if tool in host.tool_input_notes)
        yield code.report("script/tool-field-not-sent", _site(code.text, offset, field), field=field,
                          host=host.title, tools=named, sent=", ".join(sorted(sent)), notes=notes)
    elif others:
        offset, field, other, own = others[0]
        yield code.report("script/tool-field-not-sent", _site(code.text, offset, field),
                          "other-host" if own else "other-host-only", field=field, host=host.title,
                          other=hosts.title(other), own=own, tools=named, sent=", ".join(sorted(sent)))


@TOOL_FIELD_RULES.rule("script/written-text-not-read")
def _written_text_not_read(code: FieldReader) -> Iterator[Finding]:
    """A guard that checks the text a call writes by one tool's field (`content`, Write's) while
    its matcher also fires for a tool that sends the text under another (Edit's `new_string`):
    Host.written_text, measured on 2.1.332 (an Edit that added what the guard looks for in
    `content` went through). Not said where the script reads the other field too, nor for a
    script another host's hooks run."""
    host = hosts.of(code.handlers[0].file.host)
    if host is None or not host.written_text or not any(h.event in host.guard_events for h in code.handlers):
        return
    reads = code.reads
    read = {field for _, field in reads}
    text_fields = set(host.written_text.values())
    if not read & text_fields or code.tells_hosts_apart() or code.shared():
        return
    writers = tuple(host.written_text)
    matched = frozenset().union(*(matched_builtins(h.matcher if isinstance(h.matcher, str) else None, writers, h.event)
                                  for h in code.handlers if h.event in host.guard_events))
    missed = [tool for tool in writers if tool in matched and host.written_text[tool] not in read]
    if not missed:
        return
    offset, field = next((offset, field) for offset, field in reads if field in text_fields)
    reader = next((tool for tool, own in host.written_text.items() if own == field), field)
    yield code.report("script/written-text-not-read", _site(code.text, offset, field), field=field, reader=reader,
                      missed=", ".join(missed), sent=", ".join(f"{tool} sends it as {host.written_text[tool]}"
                                                               for tool in missed))


# what a line gives a value to: `x = ...`, `x += ...`, `local x=$(...)`, `x.append(...)`, `for x in ...`
_TARGET = lazy(r"""^\s*(?:(?:local|export|readonly|declare|const|let|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*"""
               r"""(?:\+|\|\||\?\?|or)?=(?!=)|(?P<item>[A-Za-z_$][\w$]*)\.(?:append|extend|push|add|insert|update)\s*\(|"""
               r"""\bfor\s*\(?\s*(?:(?:const|let|var)\s+)?(?P<each>[A-Za-z_$][\w$]*)\s+(?:in|of)\b""")
_WORD = lazy(r"[A-Za-z_$][\w$]*")
MAX_HOPS = 8  # assignments followed from a field's read to the value a test reads


def _same_decision(code: str, carried: list[str], fallback: str) -> bool:
    """Whether the value read from a field the calls never carry flows into the same variable as
    one read from a field they carry (`paths += [...command...]`, then `paths.append(ti["file_path"])`;
    `p = ti.get("file_path") or ti.get("command")`): the carried one reaches the test, and the
    other is a fallback for another agent's calls, not the script's only source. Read on one line
    (jq's `.file_path // .path`), or followed through plain assignments, appends and for loops,
    line by line (MAX_HOPS passes)."""
    fallback_word = re.compile(rf"\b{re.escape(fallback)}\b")
    carried_words = [re.compile(rf"\b{re.escape(field)}\b") for field in carried]
    lines = []
    for line in code.splitlines():
        if fallback_word.search(line) and any(word.search(line) for word in carried_words):
            return True  # (one expression: `.file_path // .path`, `get("file_path") or get("path")`)
        targets = {m.group("name") or m.group("item") or m.group("each") for m in _TARGET.finditer(line)}
        lines.append((line, targets - {None}, set(_WORD.findall(line))))

    def reached(field: str) -> set[str]:
        names = set().union(*(targets for line, targets, _ in lines if re.search(rf"\b{re.escape(field)}\b", line)))
        for _ in range(MAX_HOPS):
            more = set().union(*(targets for _, targets, words in lines if targets and words & names)) - names
            if not more:
                break
            names |= more
        return names

    ours = reached(fallback)
    return bool(ours) and any(ours & reached(field) for field in carried)


def _site(text: str, offset: int, field: str) -> Site:
    line = text.count("\n", 0, offset) + 1
    return Site(field, line, offset - text.rfind("\n", 0, offset))


def _run_by_another_host(script: Script, host: str) -> bool:
    """Whether a hook of another host runs the script too (its fields may be that host's)."""
    return any(h.file.host != host and any(facts.path == script.facts.path for _, facts in handler_facts.script_facts(h))
               for h in script.ctx.handlers if handler_facts.kind(h) == "command")


# ---- a script on events whose host rejects some answers (its rules: rejected.py) -------------------------

def rejecting_scripts(ctx: Context) -> Iterator[Script]:
    """Each readable script run by a command handler on an event whose host rejects some answers,
    once, with those handlers."""
    yield from scripts_run_by(ctx, _on_a_rejecting_event).values()


def _on_a_rejecting_event(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and (handler.event in host.rejected_answers or handler.event in host.answer_needs
                                 or handler.event in host.rejected_keys or handler.event in host.exit_2_needs_reason
                                 or handler.event in host.background_events or handler.event in host.answer_fields
                                 or rewrites_elsewhere(host, handler.event))


def rewrites_elsewhere(host: Host, event: str) -> bool:
    """An event on which a host that reads Claude Code's answer shape without a table of its own
    (Codex) does not apply updatedInput: its rewrite events are others."""
    return not host.answer_table and bool(host.rewrite_events) and event not in host.rewrite_events
