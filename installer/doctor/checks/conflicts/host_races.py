"""The input-rewrite race's kin on the hosts that run a call's hooks otherwise than all at once
(Host.rewrites_combine): two Cursor preToolUse entries that rewrite one call's input, the
higher-priority source winning (CURSOR_RACE_RULES), and two opencode plugins that change one
call's arguments, the last to run winning (PLUGIN_RACE_RULES). A run without a file of such a host
does not import it (conflicts.PREMISES): doctor on one typical file 345.3 M -> 344.9 M instructions."""
from __future__ import annotations

from typing import Any, Iterator

from .... import hosts
from ....hooks.regex import classify
from ....patterns import lazy
from ... import handler_facts
from ...handler_facts import YES
from ...model import Context, Finding, Handler, RuleTable, cached_property
from . import at_handler, place
from .races import MAX_PAIRS, combine, hook_name, subject

CURSOR_RACE_RULES = RuleTable()  # two Cursor preToolUse entries that rewrite one call's input (CursorPair)
PLUGIN_RACE_RULES = RuleTable()  # two opencode plugins that change one call's arguments (PluginPair)


def check(ctx: Context) -> Iterator[Finding]:
    for cursor_pair in _cursor_race_pairs(ctx):
        yield from CURSOR_RACE_RULES.run(ctx, cursor_pair)
    for plugin_pair in _plugin_race_pairs(ctx):
        yield from PLUGIN_RACE_RULES.run(ctx, plugin_pair)


# ---- Cursor: two preToolUse entries that both answer updated_input -----------------------------------

# the tool types Cursor's preToolUse matches (docs/hosts/cursor.md#matchers), and one MCP tool standing for all
CURSOR_TOOLS = ("Shell", "Read", "Write", "Edit", "StrReplace", "Grep", "Delete", "Task", "MCP:any_tool")
CURSOR_PRIORITY = ("managed", "project", "user")  # highest first (docs/hosts/cursor.md#config-files)
CURSOR_MCP_NAME = lazy(r"MCP:[\w-]+")  # one MCP tool, as Cursor names it


class CursorPair:
    """Two Cursor entries that rewrite input (`updated_input`), the earlier one read first."""

    def __init__(self, earlier: Handler, later: Handler, focused: bool) -> None:
        self.earlier = earlier
        self.later = later
        self.focused = focused  # one of them is a plan's own

    @cached_property
    def tools(self) -> str | None:
        """The Cursor tool types both fire for, in words (None: none)."""
        return _cursor_tools_shared(self.earlier.matcher, self.later.matcher)


def _cursor_race_pairs(ctx: Context) -> Iterator[CursorPair]:
    """Cursor runs every matching preToolUse entry of every source: the pairs of rewriting entries
    whose matchers meet, at most MAX_PAIRS of them (a plan's own are never cut short)."""
    racers: dict[tuple[object, ...], Handler] = {}
    for handler in ctx.handlers:
        if combine(handler) == "priority" and handler.event in hosts.get(handler.file.host).rewrite_events and \
                handler_facts.rewrite(handler).status == YES:
            # one script installed twice gives one answer twice: that loses nothing
            key = ("pack",) + handler.owner if handler.owner else (handler.command or "", id(handler))
            racers.setdefault(key, handler)
    found = list(racers.values())
    emitted = 0
    for index, later in enumerate(found):
        for earlier in found[:index]:
            pair = CursorPair(earlier, later, focused=id(later) in ctx.focus or id(earlier) in ctx.focus)
            if not pair.tools:
                continue
            if emitted >= MAX_PAIRS and not pair.focused:
                ctx.truncated.add("conflict/cursor-input-rewrite-conflict")
                continue
            emitted += 1
            yield pair


@CURSOR_RACE_RULES.rule("conflict/cursor-input-rewrite-conflict")
def _cursor_input_rewrite_conflict(ctx: Context, pair: CursorPair) -> Iterator[Finding]:
    """How two `updated_input` answers combine is not documented (docs/hosts/cursor.md#rewriting-input):
    across files the higher-priority source wins, in one file nobody says. Either way one rewrite is lost."""
    earlier, later = pair.earlier, pair.later
    if pair.tools:
        found = ctx.finding("conflict/cursor-input-rewrite-conflict", later.file, later.keys,
                            [place(earlier, f"it rewrites {pair.tools} too")], about=subject(earlier, later),
                            focused=pair.focused, a=hook_name(earlier), b=hook_name(later), tools=pair.tools,
                            winner=_cursor_winner(earlier, later),
                            variant="one-file" if earlier.file.path == later.file.path else None)
        yield at_handler(found, later)


def _cursor_tools_shared(a: str | None, b: str | None) -> str | None:
    """The Cursor tool types two preToolUse matchers both fire for, in words (None: none)."""
    ma, mb = classify(a, "preToolUse"), classify(b, "preToolUse")
    # besides the tool types, each MCP tool a matcher names outright (`MCP:search`, a regex to classify)
    written = [alt.strip().removeprefix("^").removesuffix("$") for m in (a, b) if m for alt in m.split("|")]
    named = [n for n in written if CURSOR_MCP_NAME.fullmatch(n)]
    names = list(dict.fromkeys([*CURSOR_TOOLS, *(n for m in (ma, mb) for n in m.names), *named]))
    shared = [n for n in names if ma.matches(n) and mb.matches(n)]
    if not shared:
        return None
    if ma.kind == mb.kind == "all":
        return "every tool"
    return ", ".join("MCP tools" if n == "MCP:any_tool" else n for n in shared)


def _cursor_winner(a: Handler, b: Handler) -> str:
    rank = {scope: i for i, scope in enumerate(CURSOR_PRIORITY)}
    first, second = sorted((a, b), key=lambda h: rank.get(h.file.scope, len(rank)))
    return f"{first.file.scope} over {second.file.scope}" if first.file.scope != second.file.scope else \
        f"{first.file.path} over {second.file.path}"


# ---- opencode: plugins that change the same arguments -------------------------------------------------

class PluginPair:
    """Two opencode plugin hooks that change a tool's arguments (tool.execute.before), each with
    the arguments it sets ("*": any), the earlier one read first."""

    def __init__(self, earlier: Handler, earlier_keys: set[str], later: Handler, later_keys: set[str]) -> None:
        self.earlier = earlier
        self.earlier_keys = earlier_keys
        self.later = later
        self.later_keys = later_keys

    @property
    def one_pack(self) -> bool:
        """One pack in two places (conflict/pack-in-several-scopes says so)."""
        return self.later.owner is not None and self.later.owner == self.earlier.owner

    @cached_property
    def tools(self) -> str | None:
        """The tools both run for, in words (None: none)."""
        return _plugin_tools_shared(self.earlier.matcher, self.later.matcher)

    @property
    def order_known(self) -> bool:
        """Whether doctor knows which of the two runs last: not where a file was named on the command
        line (where opencode would find it is not known), nor where a plan has yet to write it
        (where the filesystem will list it is not known)."""
        return all(file.scope != "given" and file.path.exists() for file in (self.earlier.file, self.later.file))

    @cached_property
    def arguments(self) -> set[str]:
        """The arguments both may set."""
        both = self.later_keys | self.earlier_keys
        return both if "*" in both else self.later_keys & self.earlier_keys


def _plugin_race_pairs(ctx: Context) -> Iterator[PluginPair]:
    """Every pair of opencode plugin hooks that change arguments: they run one after another, in
    the order discovery reads them (docs/hosts/opencode.md#load-order), and the last one's change counts."""
    writers = []
    for handler in ctx.handlers:
        if combine(handler) == "in-order" and handler_facts.rewrite(handler).status == YES:
            keys = {"*"} if handler.owner else {key for key, *_ in handler.value.get("writes") or []}
            writers.append((handler, keys))
    for index, (later, later_keys) in enumerate(writers):
        for earlier, earlier_keys in writers[:index]:
            yield PluginPair(earlier, earlier_keys, later, later_keys)


@PLUGIN_RACE_RULES.rule("conflict/plugin-args-race")
def _plugin_args_race(ctx: Context, pair: PluginPair) -> Iterator[Finding]:
    if pair.one_pack or not pair.tools or not pair.arguments:
        return
    keys = pair.arguments
    named = ", ".join(sorted(k for k in keys if k != "*"))
    shown = (named + (", maybe more" if "*" in keys else "")) if named else "any argument"
    yield ctx.finding_at("conflict/plugin-args-race", pair.later.file, *_write_place(pair.later, keys),
                         [_plugin_place(pair.earlier, keys, "it runs first: the other's change wins over its own"
                                        if pair.order_known else "it changes them too")],
                         variant=None if pair.order_known else "order-unknown", a=_plugin_name(pair.earlier),
                         b=_plugin_name(pair.later), tools=pair.tools, arguments=shown)


def _write_place(handler: Handler, keys: set[str]) -> tuple[int, int]:
    """Where a plugin sets the first of these arguments (our plugin: its hook's line in the header)."""
    if handler.owner:
        return handler.file.position(handler.keys)
    for key, line, column in handler.value.get("writes") or []:
        if key in keys or "*" in keys or key == "*":
            return line, column
    return 1, 1


def _plugin_place(handler: Handler, keys: set[str], message: str) -> dict[str, Any]:
    line, column = _write_place(handler, keys)
    return {"path": str(handler.file.path), "line": line, "column": column, "message": message}


def _plugin_tools_shared(a: str | None, b: str | None) -> str | None:
    """The tools two opencode plugin hooks both run for, in words (None: none)."""
    from ....hosts.opencode.adapter import OWN_TOOLS  # (loaded by a run with opencode plugins only)

    def tools(spec: str | None) -> set[str] | None:  # None: every tool; {"mcp"}: every MCP tool
        return None if not spec else {"mcp"} if spec == "mcp" else set(spec.split("|"))

    ta, tb = tools(a), tools(b)
    if ta is None or tb is None:
        shared = tb if ta is None else ta
        return "every tool" if shared is None else "MCP tools" if shared == {"mcp"} else ", ".join(sorted(shared))
    if "mcp" in ta and "mcp" in tb:
        return "MCP tools"
    if "mcp" in ta or "mcp" in tb:  # every MCP tool on one side: the other's tools that are no built-in
        names = sorted(t for t in (tb if "mcp" in ta else ta) if t not in OWN_TOOLS)
    else:
        names = sorted(ta & tb)
    return ", ".join(names) or None


def _plugin_name(handler: Handler) -> str:
    if handler.owner:
        return f"hookwright pack {handler.owner[0]} ({handler.owner[1]})"
    return f"the plugin {handler.file.path.name}"
