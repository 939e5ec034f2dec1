"""The code a hook runs, judged as Cursor reads its answer (CURSOR_ANSWER_RULES;
installer/hosts/cursor/protocol.py)."""
from __future__ import annotations

import json
from typing import Iterator

from ....hosts.claude import protocol as claude_protocol
from ....hosts.cursor import protocol as cursor_protocol
from ...model import Finding, RuleTable
from ...scripts import flow as script_flow
from .units import At, HookCode, through

CURSOR_ANSWER_RULES = RuleTable()  # a hook's code as Cursor reads its answer


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
