"""The code a hook runs: tests that can never be true (CONDITION_RULES; installer/doctor/scripts/conditions.py)."""
from __future__ import annotations

from typing import Iterator

from ...model import Finding, RuleTable
from .units import HookCode

CONDITION_RULES = RuleTable()  # a hook's code: its conditions, whatever the event


@CONDITION_RULES.rule("script/test-never-true")
def _test_never_true(code: HookCode) -> Iterator[Finding]:
    """Each test the shell or the language can never make true: the branch it guards never runs."""
    if not (code.claude_events or code.cursor_events):
        return
    for site in code.facts.never_true:
        kind, text = site.what.split(":", 1)
        yield code.report("script/test-never-true", site, kind, text=text)
