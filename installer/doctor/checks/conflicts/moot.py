"""A hook of one of our packs whose rewrite a foreign hook on the same calls makes moot: a
refusal wins over every rewrite (MOOT_RULES)."""
from __future__ import annotations

from typing import Iterator

from ....hooks.regex.overlap import (
    Overlap,
    overlap,
    unseen_servers,
)
from ... import handler_facts
from ...handler_facts import pack_rewrites
from ...model import Context, Finding, Handler, RuleTable, cached_property
from . import at_handler, builtins_here, first_found, place
from .races import RACE_EVENTS, combine, hook_name

MOOT_RULES = RuleTable()  # a rewriting pack hook beside a foreign hook on its event (PackBeside)


def check(ctx: Context) -> Iterator[Finding]:
    for foreign_hooks in _foreign_hooks_beside_packs(ctx):
        yield from first_found(ctx, MOOT_RULES, foreign_hooks)


# ---- a hook of ours that a foreign one makes moot -------------------------------------------------

class PackBeside:
    """A hook of one of our packs whose job is a rewrite, and a foreign hook on its event and host."""

    def __init__(self, handler: Handler, owner: tuple[str, str], other: Handler, builtins: tuple[str, ...],
                 servers: list[str]) -> None:
        self.handler = handler
        self.owner = owner  # its (pack, script)
        self.other = other
        self.builtins = builtins
        self.servers = servers  # the MCP servers they may meet at, seen or not

    @cached_property
    def shared(self) -> Overlap:
        return overlap(self.handler.matcher, self.other.matcher, self.builtins, self.servers, self.handler.event)

    @cached_property
    def refusal(self) -> str | None:
        """How the foreign hook may refuse the calls both run on (None: it never does, or they share none)."""
        return handler_facts.refusal(self.other) if self.shared else None


def _foreign_hooks_beside_packs(ctx: Context) -> Iterator[Iterator[PackBeside]]:
    """For each pack hook whose job is a rewrite (an answer, a normalised path), the foreign hooks
    on its event, one by one (the first that makes it moot is the finding)."""
    builtins = builtins_here(ctx)
    for handler in ctx.handlers:
        owner = handler.owner
        if owner and combine(handler) == "parallel" and handler.event in RACE_EVENTS and pack_rewrites(*owner):
            yield (PackBeside(handler, owner, other, builtins,
                              unseen_servers((handler.matcher, other.matcher), ()) + ctx.mcp_servers)
                   for other in ctx.handlers
                   if other.event == handler.event and not other.owner and other.file.host == handler.file.host)


@MOOT_RULES.rule("conflict/pack-hook-moot")
def _pack_hook_moot(ctx: Context, at: PackBeside) -> Iterator[Finding]:
    """A foreign hook on the same calls that can refuse them: a deny or exit 2 wins over every
    rewrite (deny > defer > ask > allow; docs/hosts/claude-code.md#several-hooks, d), so on the
    calls it refuses, ours does nothing. (A foreign rewrite that drops what ours set is the
    input-rewrite race.)"""
    why = at.refusal
    if why:
        pack, hook = at.owner
        found = ctx.finding("conflict/pack-hook-moot", at.handler.file, at.handler.keys, [place(at.other, why)],
                            about=(at.owner, hook_name(at.other)), pack=pack, hook=hook, other=hook_name(at.other),
                            tools=at.shared.describe(), why=why)
        yield at_handler(found, at.handler)
