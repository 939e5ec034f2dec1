"""Answers a host rejects (REJECTED_RULES): a decision value an event of a host that reads Claude
Code's answer shape does not support, so the hook counts as failed and the call runs (Host.rejected_answers)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from .... import hosts
from ... import handler_facts
from ...model import Context, Finding, RuleTable
from .units import Script, through

REJECTED_RULES = RuleTable()  # a script of a host whose events reject some answers, with the handlers that run it


def rejecting_scripts(ctx: Context) -> Iterator[Script]:
    """Each readable script run by a command handler on an event whose host rejects some answers,
    once, with those handlers."""
    by_script: dict[Path, Script] = {}
    for handler in ctx.handlers:
        host = hosts.of(handler.file.host)
        if host is None or handler.event not in host.rejected_answers or handler_facts.kind(handler) != "command":
            continue
        for _, facts in handler_facts.script_facts(handler):
            if facts.readable:
                by_script.setdefault(facts.path, Script(ctx, facts, [])).handlers.append(handler)
    yield from by_script.values()


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
