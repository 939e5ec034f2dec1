"""The input-rewrite race: two handlers on PreToolUse or PermissionRequest that can match a
common tool and may rewrite its input (docs/hosts/claude-code.md#several-hooks) (RACE_RULES), and
its kin for Cursor's preToolUse and opencode's plugins (host_races.py); and a hook of one of our packs whose rewrite a foreign hook on the same calls makes moot: a
refusal wins over every rewrite (MOOT_RULES).

Cost stays linear in the number of handlers: handlers are grouped by event, by racer (one
command runs once) and by matcher signature before any pair is looked at, candidate pairs come
from an index of tool names and MCP servers, and at most MAX_PAIRS race findings are built per
event.
"""
from __future__ import annotations

import json
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Iterator

from .... import hosts
from ....hooks.firing import dedup_key
from ....hooks.regex import (
    Overlap,
    classify,
    matched_builtins,
    mcp_overlaps,
    overlap,
    server_reach,
    tools_meet,
    unseen_servers,
)
from ....patterns import lazy
from ... import handler_facts
from ...handler_facts import NO, YES, Rewrite, pack_rewrites
from ...model import Context, Finding, Handler, RuleTable, cached_property
from . import at_handler, builtins_here, first_found, place

if TYPE_CHECKING:  # (probe loads only with --probe)
    from ...scripts.probe import ProbeResult


RACE_EVENTS = ("PreToolUse", "PermissionRequest")
MAX_PAIRS = 200
PERMISSION_TOOL = lazy(r"\s*([^()\s]+)")  # the tool a handler's `if` rule names: Bash of `Bash(git *)`

RACE_RULES = RuleTable()  # two Claude Code hooks that may rewrite one call's input (RacePair)
MOOT_RULES = RuleTable()  # a rewriting pack hook beside a foreign hook on its event (PackBeside)


def check(ctx: Context) -> Iterator[Finding]:
    for race in _race_pairs(ctx):
        yield from RACE_RULES.run(ctx, race)
    for foreign_hooks in _foreign_hooks_beside_packs(ctx):
        yield from first_found(ctx, MOOT_RULES, foreign_hooks)


# ---- the input-rewrite race ------------------------------------------------------------------------

def combine(handler: Handler) -> str:
    """How the agent of this handler's file combines several hooks' answers (Host.rewrites_combine)."""
    host = hosts.of(handler.file.host)
    return host.rewrites_combine if host else ""


class _Racer:
    """One command as it runs (copies in several files run once), with everything that starts it."""

    def __init__(self, handlers: list[Handler], rewrite: Rewrite, matchers: set[str | None] | None = None) -> None:
        self.handlers = handlers
        self.rewrite = rewrite
        self.matchers = set() if matchers is None else matchers

    @property
    def first(self) -> Handler:
        return self.handlers[0]

    @property
    def rewrites(self) -> bool:
        """Known to rewrite the input (not only maybe)."""
        return self.rewrite.status == YES

    @cached_property
    def if_tools(self) -> tuple[str, ...] | None:
        """The tools its copies' `if` rules name (`Bash` of `Bash(git *)`); None when a copy has none."""
        tools = []
        for handler in self.handlers:
            rule = handler.value.get("if") if isinstance(handler.value, dict) else None
            found = PERMISSION_TOOL.match(rule) if isinstance(rule, str) else None
            if found is None:
                return None
            tools.append(found[1])
        return tuple(tools)


class RacePair:
    """Two racers on one event whose matchers meet, as every race rule reads them."""

    def __init__(self, first: _Racer, second: _Racer, shared: Overlap, unseen: bool, focused: bool) -> None:
        self.first = first  # the one doctor read first
        self.second = second  # the later one, where a finding sits
        self.shared = shared  # the tools both fire for
        self.unseen = unseen  # they meet only at MCP servers doctor cannot see
        self.focused = focused  # one of them is a plan's own

    @property
    def rewriters(self) -> int:
        """How many of the two are known to rewrite the input (the others may)."""
        return self.first.rewrites + self.second.rewrites

    @property
    def reported(self) -> bool:
        """Whether a race rule speaks for the pair: two known rewriters, or one beside one that may
        rewrite where doctor sees the servers they meet at (where it cannot, it reports only
        rewrites it is sure of)."""
        return self.rewriters == 2 or (self.rewriters == 1 and not self.unseen)

    @property
    def certain(self) -> bool:
        """They share a tool that surely exists: a built-in one, or every tool of an MCP server."""
        return bool(self.shared.builtins) or any(name.endswith("__*") for name in self.shared.mcp)

    @cached_property
    def names(self) -> tuple[str, str]:
        """The two as the findings name them, with their scopes where they are two copies of one script."""
        first, second = hook_name(self.first), hook_name(self.second)
        if first != second:
            return first, second
        return f"{first} ({self.first.first.file.scope} scope)", f"{second} ({self.second.first.file.scope} scope)"

    def related(self, copies: bool = True) -> list[dict[str, Any]]:
        """The first racer's handlers (and, with `copies`, the second's other copies)."""
        related = [place(h, self.first.rewrite.why) for h in self.first.handlers[:3]]
        if copies:
            related += [place(h, f"another copy of {hook_name(self.second)}") for h in self.second.handlers[1:3]]
        return related

    def finding(self, ctx: Context, rule_id: str, related: list[dict[str, Any]], **params: Any) -> Finding:
        """At the later racer's first copy that fires for a tool the two share: a copy whose matcher
        reaches other tools only is no place to narrow the race."""
        later = next((h for h in self.second.handlers
                      if any(classify(h.matcher, h.event).matches(tool) for tool in self.shared.builtins)),
                     self.second.first)
        found = ctx.finding(rule_id, later.file, later.keys, related, about=subject(self.first, self.second),
                            focused=self.focused, tools=self.shared.describe(), **params)
        return at_handler(found, later)


def _probe_results(ctx: Context) -> dict[int, ProbeResult] | None:
    """What --probe saw each handler print; None without --probe (it runs the user's commands)."""
    if not ctx.probe:
        return None
    from ...scripts import probe  # (--probe only: it loads simulate, about 20 ms)

    return probe.by_handler(ctx)


def _race_pairs(ctx: Context) -> Iterator[RacePair]:
    """On each event where hooks run in parallel, the pairs of racers whose matchers meet."""
    probed = _probe_results(ctx)
    builtins = builtins_here(ctx)
    for event in RACE_EVENTS:
        racers = _racers(ctx, event, probed)
        if any(r.rewrites for r in racers):  # (nothing known to rewrite: nothing can race)
            yield from _racers_meeting(ctx, event, racers, builtins)


def _racers(ctx: Context, event: str, probed: dict[int, ProbeResult] | None) -> list[_Racer]:
    """The handlers of the event that may rewrite, one racer per distinct command: copies (in
    several files, or a plugin's copy that runs again) print the same answer, so they cannot
    lose each other's rewrite."""
    racers: dict[tuple[object, ...], _Racer] = {}
    for handler in ctx.handlers:
        if handler.event != event or combine(handler) != "parallel":
            continue
        status = handler_facts.rewrite(handler, probed)
        if status.status == NO:
            continue
        # (one script spelt two ways, `/p/x.py` and `"$CLAUDE_PROJECT_DIR"/x.py`, or run through a
        # wrapper, runs twice: a duplicate, no race)
        runs = handler_facts.runs(handler)
        key = ("pack",) + handler.owner if handler.owner else (("runs", runs) if runs else None) or \
            dedup_key(handler) or handler_facts.identity(handler)
        racer = racers.get(key)
        if racer is None:
            racer = racers[key] = _Racer([], status)
        elif status.status == YES and racer.rewrite.status != YES:
            racer.rewrite = status
        racer.handlers.append(handler)
        racer.matchers.add(handler.matcher)
    return list(racers.values())


class _Signatures:
    """The racers of one event grouped by matcher signature (racers with one signature share
    every tool), with an index of the tools and MCP servers each signature reaches: where the
    candidate pairs come from."""

    def __init__(self, ctx: Context, event: str, racers: list[_Racer], builtins: tuple[str, ...]) -> None:
        self.event = event
        self.servers = ctx.mcp_servers
        self.groups: dict[frozenset[str | None], list[int]] = defaultdict(list)
        for index, racer in enumerate(racers):
            self.groups[frozenset(racer.matchers)].append(index)
        self.all = signatures = list(self.groups)
        self.tools_of = {sig: frozenset[str]().union(*(matched_builtins(m, builtins, event) for m in sig))
                         for sig in signatures}
        servers_of = {sig: {s for s in ctx.mcp_servers if any(server_reach(m, s, event) != "none" for m in sig)}
                      for sig in signatures}
        self.servers_of = servers_of
        # the MCP name space beyond the servers doctor can see: two rewriters that meet there race
        # as soon as such a server is configured somewhere doctor did not look, or added later
        self.unseen_of = {sig: {s for s in unseen_servers(sig, ctx.mcp_servers)
                                if any(server_reach(m, s, event) != "none" for m in sig)} for sig in signatures}
        self.by_tool: dict[str, list[int]] = defaultdict(list)
        self.by_server: dict[str, list[int]] = defaultdict(list)
        for number, sig in enumerate(signatures):
            for tool in self.tools_of[sig]:
                self.by_tool[tool].append(number)
            for server in servers_of[sig]:
                self.by_server[server].append(number)
        self.knows = [any(racers[i].rewrites for i in self.groups[sig]) for sig in signatures]
        # a server one matcher names may be reached by another without naming it: those pairs are all tried
        self.beyond = [number for number, sig in enumerate(signatures) if self.unseen_of[sig]]

    def partners(self, number: int) -> list[int]:
        """The signatures that may meet signature `number` (itself included), each pair once."""
        sig = self.all[number]
        partners = {number}
        for tool in self.tools_of[sig]:
            partners.update(self.by_tool[tool])
        for server in self.servers_of[sig]:
            partners.update(self.by_server[server])
        if self.unseen_of[sig]:
            partners.update(self.beyond)
        # (a pair with a known rewriter before this one was handled from the other side)
        return [other for other in sorted(partners) if not (other < number and self.knows[other])]

    def shared(self, number: int, other: int) -> tuple[Overlap, bool]:
        """What two signatures share at the servers doctor sees, else at those it cannot see
        (then True)."""
        shared = _shared(self.all[number], self.all[other], self.tools_of, self.servers, self.event)
        return (shared, False) if shared else (self.shared_unseen(number, other), True)

    def shared_unseen(self, number: int, other: int) -> Overlap:
        a, b = self.all[number], self.all[other]
        return _shared(a, b, self.tools_of, sorted(self.unseen_of[a] | self.unseen_of[b]), self.event)


def _racers_meeting(ctx: Context, event: str, racers: list[_Racer], builtins: tuple[str, ...]) -> Iterator[RacePair]:
    """The pairs a race rule speaks for, at most MAX_PAIRS of them (a plan's own are never cut
    short), from the candidate pairs of the signature index."""
    signatures = _Signatures(ctx, event, racers, builtins)
    focus = {i for i, racer in enumerate(racers) if any(id(h) in ctx.focus for h in racer.handlers)}
    order = {id(h): i for i, h in enumerate(ctx.handlers)}
    emitted = 0
    for number, sig in enumerate(signatures.all):
        if not signatures.knows[number]:
            continue
        for other in signatures.partners(number):
            shared, unseen = signatures.shared(number, other)
            if not shared:
                continue
            capped = emitted >= MAX_PAIRS
            if capped and not focus:
                ctx.truncated.add("conflict/input-rewrite-race")
                return
            pairs = _racer_pairs(signatures.groups[sig], signatures.groups[signatures.all[other]], number == other)
            for a, b in (p for p in pairs if p[0] in focus or p[1] in focus) if capped else pairs:
                narrowed, met_unseen = _narrowed_by_if(shared, racers[a], racers[b]), unseen
                if not narrowed and not unseen:  # their `if` rules may meet at a server doctor cannot see
                    narrowed, met_unseen = _narrowed_by_if(signatures.shared_unseen(number, other),
                                                           racers[a], racers[b]), True
                if not narrowed:
                    continue  # their `if` rules name tools apart: no call fires both
                first, second = _in_read_order(racers[a], racers[b], order)
                pair = RacePair(first, second, narrowed, met_unseen, focused=a in focus or b in focus)
                if not pair.reported:
                    continue
                if not pair.focused:  # (a plan's own racers are always reported: they are what it must show)
                    if emitted >= MAX_PAIRS:
                        ctx.truncated.add("conflict/input-rewrite-race")
                        if not focus:
                            return
                        continue
                    emitted += 1
                yield pair


def _narrowed_by_if(shared: Overlap, a: _Racer, b: _Racer) -> Overlap:
    """The tools both racers fire for once their `if` rules are read: a rule names one tool
    (`Bash(git *)`: Bash; `mcp__srv__*`: the server's), so two racers whose rules name different
    tools share no call. Two rules on one tool are taken to meet (a compound command may match both)."""
    if_a, if_b = a.if_tools, b.if_tools
    if if_a is None and if_b is None:
        return shared
    if if_a is not None and if_b is not None and not any(tools_meet(x, y) for x in if_a for y in if_b):
        return Overlap()

    def fires(name: str) -> bool:
        return all(tools is None or any(tools_meet(tool, name) for tool in tools) for tools in (if_a, if_b))

    return Overlap(tuple(n for n in shared.builtins if fires(n)), tuple(n for n in shared.mcp if fires(n)))


def _racer_pairs(left: list[int], right: list[int], same: bool) -> Iterator[tuple[int, int]]:
    if same:
        for i, a in enumerate(left):
            for b in left[i + 1:]:
                yield a, b
    else:
        for a in left:
            for b in right:
                yield (a, b) if a < b else (b, a)


def _shared(sig_a: frozenset[str | None], sig_b: frozenset[str | None],
            tools_of: dict[frozenset[str | None], frozenset[str]], servers: list[str], event: str) -> Overlap:
    """The tools two signatures share: built-ins, and for each server what the first pair of
    their matchers that meets there shares (each pair searched once for every server)."""
    builtins = tools_of[sig_a] & tools_of[sig_b]
    found: dict[str, str] = {}
    for ma in sig_a:
        for mb in sig_b:
            left = tuple(s for s in servers if s not in found)
            if not left:
                break
            for server, name in mcp_overlaps(ma, mb, left, event).items():
                found.setdefault(server, name)
    return Overlap(tuple(sorted(builtins)), tuple(found[s] for s in servers if s in found))


def _in_read_order(ra: _Racer, rb: _Racer, order: dict[int, int]) -> tuple[_Racer, _Racer]:
    """A race finding sits on the later handler (in the order doctor read them)."""
    first, second = sorted((ra, rb), key=lambda r: order.get(id(r.first), 0))
    return first, second


def subject(first: _Racer | Handler, second: _Racer | Handler) -> tuple[str, str]:
    """A race's subject: the two commands, whichever tools they share (a narrower matcher
    keeps the race it narrows, with fewer tools in its message)."""
    a, b = sorted((hook_name(first), hook_name(second)))
    return a, b


@RACE_RULES.rule("conflict/input-rewrite-race")
def _input_rewrite_race(ctx: Context, pair: RacePair) -> Iterator[Finding]:
    """Two known rewriters on a tool that surely exists."""
    if not pair.unseen and pair.rewriters == 2 and pair.certain:
        yield pair.finding(ctx, "conflict/input-rewrite-race", pair.related(), a=pair.names[0], b=pair.names[1])


@RACE_RULES.rule("conflict/input-rewrite-race-mcp")
def _input_rewrite_race_mcp(ctx: Context, pair: RacePair) -> Iterator[Finding]:
    """Two known rewriters that meet only at tools an MCP server may not have."""
    if not pair.unseen and pair.rewriters == 2 and not pair.certain:
        yield pair.finding(ctx, "conflict/input-rewrite-race-mcp", pair.related(), a=pair.names[0], b=pair.names[1])


@RACE_RULES.rule("conflict/input-rewrite-race-possible")
def _input_rewrite_race_possible(ctx: Context, pair: RacePair) -> Iterator[Finding]:
    """A known rewriter beside a hook that may rewrite (doctor cannot read what it prints)."""
    if pair.unseen or pair.rewriters != 1:
        return
    known, unsure = pair.names if pair.first.rewrites else pair.names[::-1]
    why = (pair.second if pair.first.rewrites else pair.first).rewrite.why
    yield pair.finding(ctx, "conflict/input-rewrite-race-possible", pair.related(), a=known, b=unsure, why=why)


@RACE_RULES.rule("conflict/input-rewrite-race-unseen-servers")
def _input_rewrite_race_unseen_servers(ctx: Context, pair: RacePair) -> Iterator[Finding]:
    """Two known rewriters that meet in the MCP name space, at servers doctor cannot see."""
    if pair.unseen and pair.rewriters == 2:
        yield pair.finding(ctx, "conflict/input-rewrite-race-unseen-servers", pair.related(copies=False),
                           a=hook_name(pair.first), b=hook_name(pair.second), looked=", ".join(ctx.mcp_sources) or "nowhere")


def hook_name(racer_or_handler: _Racer | Handler) -> str:
    handler = racer_or_handler.first if isinstance(racer_or_handler, _Racer) else racer_or_handler
    if handler.owner:
        return f"hookwright pack {handler.owner[0]} ({handler.owner[1]})"
    value = handler.value
    if isinstance(value, dict) and handler_facts.kind(handler) == "http":
        return f"the HTTP hook {value.get('url')}"
    command = handler.command or json.dumps(value)[:60]
    script = handler_facts.resolution(handler).script
    if script is not None:
        return f"`{script.name}`"
    return "`" + (command if len(command) <= 60 else command[:57] + "...") + "`"


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
