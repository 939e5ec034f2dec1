"""The answers a host rejects (REJECTED_RULES): a decision value an event of a host that reads
Claude Code's answer shape does not support, so the hook counts as failed and the call runs
(Host.rejected_answers, answer_needs, rejected_keys, exit_2_needs_reason, background_events,
answer_fields: Codex's). A run imports it only where one of its scripts runs on such an event
(answers.rejecting_scripts): doctor on one typical file, with Claude Code hooks alone, 346.7 M ->
346.5 M instructions."""
from __future__ import annotations

import json
import re
from typing import Iterator

from .... import hosts
from ....hosts.base import Host
from ....patterns import lazy
from ...model import Finding, RuleTable
from ...scripts.keys import Site
from .answers import rewrites_elsewhere
from .units import Script, through

REJECTED_RULES = RuleTable()  # a script of a host whose events reject some answers, with the handlers that run it


@REJECTED_RULES.rule("script/answer-rejected")
def _answer_rejected(script: Script) -> Iterator[Finding]:
    """A decision value that every event the script runs on rejects."""
    handlers = script.handlers
    host = hosts.of(handlers[0].file.host)
    if host is None:
        return
    rejected = [host.rejected_answers.get(h.event, {}) for h in handlers if h.file.host == host.name]
    seen = set()
    for value in script.facts.flow.values:
        key = (value.field, value.value)
        if key in seen or not all(key in table for table in rejected):
            continue
        seen.add(key)
        yield script.finding("script/answer-rejected", value.at, handlers, field=value.field,
                             value=json.dumps(value.value), via=through(value), host=host.title,
                             event=handlers[0].event, said=rejected[0][key])
    unknown = _field_unknown(script, host)
    if unknown is not None:
        site, variant = unknown
        yield script.finding("script/answer-rejected", site, handlers, variant, field=site.what, host=host.title,
                             event=handlers[0].event)
        return
    keyed = [host.rejected_keys.get(h.event, {}) for h in handlers if h.file.host == host.name]
    if not keyed or not all(keyed):
        return
    lines = script.text.splitlines() if any(literal for table in keyed for literal, _ in table.values()) else []
    for site in [*(Site("continue", p.line, p.column) for p in script.facts.flow.continue_false),
                 *(site for site in script.facts.output_keys if site.what != "continue")]:  # (the flow reads continue: false)
        if all(site.what in table for table in keyed):
            literal, said = keyed[0][site.what]
            if literal is not None and site.what != "continue":
                after = lines[site.line - 1][site.column - 1:] if 0 < site.line <= len(lines) else ""
                if not re.match(rf"['\"]?{site.what}['\"]?\s*[:=]\s*{literal}\b", after, re.I):
                    continue
            yield script.finding("script/answer-rejected", site, handlers, field=site.what,
                                 value=literal or "with any value", via="", host=host.title, event=handlers[0].event,
                                 said=said)
            return  # (one such key says it: the answer is refused whole)


def _field_unknown(script: Script, host: Host) -> tuple[Site, str] | None:
    """The first place the script's answer holds a field the host's answer for every event it runs
    on does not have (Host.answer_fields): a hookSpecificOutput without hookEventName, a key inside
    it or a decision at the top level that the answer has no field for; with its variant."""
    tables = [host.answer_fields.get(h.event) for h in script.handlers if h.file.host == host.name]
    facts = script.facts
    if not tables or not all(tables) or facts.delegates is not None or facts.reads_event_name or facts.tells_hosts_apart:
        return None
    top = frozenset.intersection(*(t[0] for t in tables if t))
    specific = frozenset.intersection(*(t[1] for t in tables if t))
    nameless = next((site for site in facts.no_event_name if site.what == "hookSpecificOutput"), None)
    if nameless is not None:
        return nameless, "no-event-name"
    misspelt = {site.what for site in facts.misspelt}  # (script/misspelt-field says those)
    inside = next((site for site in facts.specific_keys if site.what not in specific and site.what not in misspelt), None)
    if inside is not None:
        return inside, "unknown-field"
    outside = next((site for site in facts.top_level_fields if site.what not in top), None)
    return (outside, "top-level") if outside is not None else None


@REJECTED_RULES.rule("script/async-answer-never-read")
def _answer_in_the_background(script: Script) -> Iterator[Finding]:
    """A script that refuses or rewrites, run by an `async` handler on an event where its host
    starts it and goes on without it (Host.background_events: Codex's PreToolUse): its answer is
    never read. Said at the handler's "async", the line to change."""
    facts = script.facts
    host = hosts.of(script.handlers[0].file.host)
    if host is None or facts.reads_event_name:
        return
    background = [h for h in script.handlers if h.file.host == host.name and h.event in host.background_events
                  and isinstance(h.value, dict) and h.value.get("async") is True]
    exits = [site for site in facts.blocks if site.what == "exit 2"] or [
        Site(end.how, end.at.line, end.at.column) for end in facts.flow.exits if end.status == 2]
    answers = sorted([*(exits or facts.blocks), *facts.denies, *dict(facts.rewrite_sites).get(host.answers_as, ())],
                     key=lambda site: (site.line, site.column))
    if not background or not answers:
        return
    related = [{"path": str(facts.path), "line": answers[0].line, "column": answers[0].column,
                "message": f"the answer {facts.path.name} gives ({answers[0].what})"}]
    for handler in background:
        yield script.ctx.finding("script/async-answer-never-read", handler.file, handler.keys + ("async",), related,
                                 at_key=True, variant="no-rewake", event=handler.event, how=answers[0].what,
                                 script=facts.path.name, line=answers[0].line, host=host.title)


# what writes to stderr in the languages doctor reads (a reason there, wherever it is written)
_STDERR = lazy(r"stderr|>&\s*2|/dev/stderr|console\.(?:error|warn)|\bwarn\b|\bdie\b|\bcroak\b|\blogg(?:ing|er)\b")


@REJECTED_RULES.rule("script/exit-2-without-reason")
def _exit_2_without_reason(script: Script) -> Iterator[Finding]:
    """An exit 2 on an event whose host blocks with it only beside a reason on stderr (Codex), from
    a script that writes nothing on stderr: the hook failed, and the call runs. Said at the text it
    prints on stdout right before (the line to send to stderr), else at the exit."""
    handlers = script.handlers
    host = hosts.of(handlers[0].file.host)
    if host is None or not all(h.event in host.exit_2_needs_reason for h in handlers if h.file.host == host.name):
        return
    flow = script.facts.flow
    bare = [e for e in flow.exits if e.status == 2 and not e.message]
    if not bare or _STDERR.search(script.text):
        return
    for exit in bare[:1]:
        printed = [w.at for w in flow.writes if w.at.line < exit.at.line]
        yield script.finding("script/exit-2-without-reason", printed[-1] if printed else exit.at, handlers,
                             host=host.title, event=handlers[0].event, exit_line=exit.at.line,
                             said=host.exit_2_needs_reason[handlers[0].event])


@REJECTED_RULES.rule("script/rewrite-not-applied")
def _rewrite_not_applied(script: Script) -> Iterator[Finding]:
    """updatedInput written by a script that every event it runs on does not apply it on (Codex
    applies it on PreToolUse only, before the call runs)."""
    handlers = script.handlers
    host = hosts.of(handlers[0].file.host)
    if host is None or not all(rewrites_elsewhere(host, h.event) for h in handlers if h.file.host == host.name):
        return
    for site in dict(script.facts.rewrite_sites).get(host.answers_as, ())[:1]:
        yield script.finding("script/rewrite-not-applied", site, handlers, host=host.title, event=handlers[0].event,
                             events=", ".join(sorted(host.rewrite_events)))


@REJECTED_RULES.rule("script/answer-incomplete")
def _answer_incomplete(script: Script) -> Iterator[Finding]:
    """A decision value that every event the script runs on takes only with another field beside
    it (Codex's deny with its reason, its allow with updatedInput), where the script never writes
    that field."""
    handlers = script.handlers
    host = hosts.of(handlers[0].file.host)
    if host is None:
        return
    needs = [host.answer_needs.get(h.event, {}) for h in handlers if h.file.host == host.name]
    written = {site.what for site in script.facts.output_keys}
    seen = set()
    for value in script.facts.flow.values:
        key = (value.field, value.value)
        if key in seen or not all(key in table for table in needs) or needs[0][key][0] in written:
            continue
        seen.add(key)
        needed, said = needs[0][key]
        yield script.finding("script/answer-incomplete", value.at, handlers, field=value.field,
                             value=json.dumps(value.value), via=through(value), host=host.title,
                             event=handlers[0].event, needed=needed, said=said)
