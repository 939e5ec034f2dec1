"""Answers a host rejects (REJECTED_RULES): a decision value an event of a host that reads Claude
Code's answer shape does not support, so the hook counts as failed and the call runs (Host.rejected_answers)."""
from __future__ import annotations

import json
from typing import Iterator

from .... import hosts
from ...model import Context, Finding, Handler, RuleTable
from .units import Script, scripts_run_by, through

REJECTED_RULES = RuleTable()  # a script of a host whose events reject some answers, with the handlers that run it


def rejecting_scripts(ctx: Context) -> Iterator[Script]:
    """Each readable script run by a command handler on an event whose host rejects some answers,
    once, with those handlers."""
    yield from scripts_run_by(ctx, _on_a_rejecting_event).values()


def _on_a_rejecting_event(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and (handler.event in host.rejected_answers or handler.event in host.answer_needs)


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
