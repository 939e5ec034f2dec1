"""SessionEnd's shared budget (SESSION_END_RULES): 1.5 s, raised to the largest SessionEnd
timeout of the settings files up to 60 s; a plugin's timeout raises nothing
(docs/hosts/claude-code.md#timeouts)."""
from __future__ import annotations

import os
from typing import Iterator

from .... import hosts
from ....hooks.firing import runs_with, share_a_session
from ....hosts.claude.protocol import SESSION_END_BUDGET_VARIABLE, SESSION_END_MAX_BUDGET, session_end_budget
from ...model import Context, Finding, Handler, RuleTable, timeout_seconds

SESSION_END_RULES = RuleTable()  # a SessionEnd hook under the shared budget (SessionEndHook)


def check(ctx: Context) -> Iterator[Finding]:
    for end in _session_end_hooks(ctx):
        yield from SESSION_END_RULES.run(ctx, end)


# ---- SessionEnd's shared budget (claude_protocol.SESSION_END_*: simulate runs the hooks under it) ---------

class SessionEndHook:
    """A Claude Code SessionEnd hook with a timeout, and every such hook (what raises the budget)."""

    def __init__(self, handler: Handler, timeout: float, ends: list[tuple[Handler, float]]) -> None:
        self.handler = handler
        self.timeout = timeout  # seconds
        self.ends = ends


def _session_end_hooks(ctx: Context) -> Iterator[SessionEndHook]:
    """Claude Code's SessionEnd hooks with a timeout, unless the variable that sets the budget
    is set (in the environment or a settings file's "env")."""
    if os.environ.get(SESSION_END_BUDGET_VARIABLE) or any(_sets_budget(f.document.data) for f in ctx.files if f.document):
        return
    ends: list[tuple[Handler, float]] = []
    for handler in ctx.handlers:
        host = hosts.of(handler.file.host)
        if host and host.shares_session_end_budget and handler.event == "SessionEnd" and isinstance(handler.value, dict):
            timeout = timeout_seconds(handler.value.get("timeout"))
            if timeout is not None:
                ends.append((handler, timeout))
    for handler, timeout in ends:
        yield SessionEndHook(handler, timeout, ends)


@SESSION_END_RULES.rule("conflict/session-end-budget")
def _session_end_budget(ctx: Context, end: SessionEndHook) -> Iterator[Finding]:
    """A SessionEnd hook whose timeout the shared budget cuts short: above 60 s anywhere, or
    above the budget in a plugin (whose own timeout does not raise it). Values of 1000 and more
    are milliseconds to structure/timeout-milliseconds."""
    handler, timeout = end.handler, end.timeout
    if timeout >= 1000:
        return
    variant: str | None = None
    budget: float
    if timeout > SESSION_END_MAX_BUDGET:
        budget = SESSION_END_MAX_BUDGET
    elif runs_with(handler)[0] == "plugin":
        raised = [t for h, t in end.ends if runs_with(h)[0] != "plugin" and share_a_session(h, handler)]
        budget = session_end_budget(raised)
        if timeout <= budget:
            return
        variant = "plugin"
    else:
        return
    yield ctx.finding("conflict/session-end-budget", handler.file, handler.keys + ("timeout",), value=f"{timeout:g}",
                      budget=f"{budget:g}", variant=variant)


def _sets_budget(data: object) -> bool:
    return isinstance(data, dict) and isinstance(data.get("env"), dict) and SESSION_END_BUDGET_VARIABLE in data["env"]
