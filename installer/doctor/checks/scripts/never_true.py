"""The code a hook runs: tests that can never be true (CONDITION_RULES; installer/doctor/scripts/conditions.py),
by the language's own rules or against the values the host really sends."""
from __future__ import annotations

from typing import Iterator

from ....hooks.events import BUILTIN_TOOLS
from ....hosts.claude.protocol import protocol
from ...model import Finding, RuleTable
from ...scripts.conditions import relative_path_pattern
from ...scripts.keys import Site
from .units import HookCode

CONDITION_RULES = RuleTable()  # a hook's code: its conditions, whatever the event
SENT_TOOL_NAMES = frozenset(BUILTIN_TOOLS)


@CONDITION_RULES.rule("script/test-never-true")
def _test_never_true(code: HookCode) -> Iterator[Finding]:
    """Each test the shell or the language can never make true: the branch it guards never runs."""
    if not (code.claude_events or code.cursor_events):
        return
    for site in code.facts.never_true:
        kind, text = site.what.split(":", 1)
        yield code.report("script/test-never-true", site, kind, text=text)


def _compared(code: HookCode, field: str) -> list[tuple[Site, str]]:
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
    for site, text in _compared(code, "file_path"):
        if relative_path_pattern(text):
            yield code.report("script/value-never-sent", site, "path", text=text)
