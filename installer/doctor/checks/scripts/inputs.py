"""The code a hook runs: the input fields it reads that its events never send, on either host
(INPUT_RULES)."""
from __future__ import annotations

import difflib
from typing import Iterator

from ....hosts.claude import protocol as claude_protocol
from ....hosts.cursor import protocol as cursor_protocol
from ...model import Finding, RuleTable
from .units import HookCode

INPUT_RULES = RuleTable()  # the input fields a hook's code reads


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
    if facts.reads_event_name or facts.delegates is not None or not (claude_events or cursor_events or others) \
            or not set(claude_events) <= set(CLAUDE_SENDS) or not set(cursor_events) <= set(CURSOR_SENDS):
        return  # (an event this table does not know: no judgement)
    sent = frozenset().union(*(CLAUDE_SENDS[e] for e in claude_events), *(CURSOR_SENDS[e] for e in cursor_events),
                             *others.values())
    events = " and ".join(claude_events + cursor_events + sorted(set(others) - set(claude_events)))
    read = {field for field, _ in facts.flow.input_reads}
    for field, place in facts.flow.input_reads:
        meant = _meant(field, sent)
        if field not in INPUT_FIELDS and meant and meant not in read:  # a name no event sends: a typo?
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
    if facts.reads_event_name or facts.delegates is not None or facts.tells_hosts_apart:
        return
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
