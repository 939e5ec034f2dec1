"""Conflicts: hooks that are fine one by one and wrong together.

- The input-rewrite race: two or more handlers on PreToolUse or PermissionRequest that can
  match a common tool and may rewrite its input (docs/hosts/claude-code.md#several-hooks).
- Duplicates: one command configured several times (runs once in settings files, once more
  per plugin copy; docs/hosts/claude-code.md#deduplication, docs/hosts/claude-code.md#deduplication), or one of our packs installed in two scopes.
- Cursor's third-party loading: a Cursor hook that does the job of a Claude Code hook the same
  Cursor project also runs (docs/hosts/cursor.md#config-files).
- SessionEnd's shared budget: 1.5 s, raised to the largest SessionEnd timeout of the settings
  files up to 60 s; a plugin's timeout raises nothing (docs/hosts/claude-code.md#timeouts).

Cost stays linear in the number of handlers: handlers are grouped by event, by racer (one
command runs once) and by matcher signature before any pair is looked at, candidate pairs come
from an index of tool names and MCP servers, and at most MAX_PAIRS race findings are built per
event.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ... import hosts
from ...hosts import claude, cursor
from .. import dedup, handler_facts
from ..facts import BUILTIN_TOOLS, CLAUDE_TO_CURSOR
from ..handler_facts import NO, YES, Rewrite, pack_rewrites
from ..model import Context, Finding, Handler, resolved, timeout_seconds
from ..regex.matching import classify
from ..regex.overlap import Overlap, matched_builtins, mcp_overlap, overlap, server_reach, unseen_servers
from .hosts import claude_tool_names

RACE_EVENTS = ("PreToolUse", "PermissionRequest")
MAX_PAIRS = 200
# Claude Code events and the Cursor events that do the same job (besides CLAUDE_TO_CURSOR)
CURSOR_ALSO = {"PreToolUse": ("beforeShellExecution", "beforeMCPExecution", "beforeReadFile"),
               "PostToolUse": ("afterShellExecution", "afterFileEdit", "afterMCPExecution")}
GENERIC_NAMES = frozenset({"index.js", "index.ts", "index.mjs", "main.py", "hook.sh", "hook.py", "hook.js", "run.sh",
                           "hooks.sh", "run-hook.cmd", "cli.js", "__main__.py"})


def check(ctx: Context) -> Iterator[Finding]:
    yield from _races(ctx)
    yield from _cursor_races(ctx)
    yield from _plugin_races(ctx)
    yield from _moot_pack_hooks(ctx)
    yield from _duplicates(ctx)
    yield from _packs_in_several_scopes(ctx)
    yield from _cursor_third_party(ctx)
    yield from _session_end_budget(ctx)


# ---- the input-rewrite race ------------------------------------------------------------------------

def _combine(handler: Handler) -> str:
    """How the agent of this handler's file combines several hooks' answers (Host.rewrites_combine)."""
    host = hosts.of(handler.file.host)
    return host.rewrites_combine if host else ""


@dataclass
class _Racer:
    """One command as it runs (copies in several files run once), with everything that starts it."""

    handlers: list[Handler]
    rewrite: Rewrite
    matchers: set = field(default_factory=set)

    @property
    def first(self) -> Handler:
        return self.handlers[0]


def _probe_results(ctx: Context) -> dict | None:
    """What --probe saw each handler print; None without --probe (it runs the user's commands)."""
    if not ctx.probe:
        return None
    from ..scripts import probe

    return probe.by_handler(ctx)


def _races(ctx: Context) -> Iterator[Finding]:
    probed = _probe_results(ctx)
    builtins = tuple(t for t in ctx.tools if not t.startswith("mcp__")) or BUILTIN_TOOLS
    for event in RACE_EVENTS:
        racers: dict[tuple, _Racer] = {}
        for handler in ctx.handlers:
            if handler.event != event or _combine(handler) != "parallel":
                continue
            status = handler_facts.rewrite(handler, probed)
            if status.status == NO:
                continue
            # one racer per distinct command: copies (in several files, or a plugin's copy that runs
            # again) print the same answer, so they cannot lose each other's rewrite
            key = ("pack",) + handler.owner if handler.owner else (dedup.dedup_key(handler) or handler_facts.identity(handler))
            racer = racers.get(key)
            if racer is None:
                racer = racers[key] = _Racer([], status)
            elif status.status == YES and racer.rewrite.status != YES:
                racer.rewrite = status
            racer.handlers.append(handler)
            racer.matchers.add(handler.matcher)
        if not any(r.rewrite.status == YES for r in racers.values()):
            continue  # nothing known to rewrite: nothing can race
        yield from _race_findings(ctx, event, list(racers.values()), builtins)


def _race_findings(ctx: Context, event: str, racers: list[_Racer], builtins: tuple[str, ...]) -> Iterator[Finding]:
    # group racers by their matcher signature: racers with one signature share every tool
    groups: dict[frozenset, list[int]] = defaultdict(list)
    for index, racer in enumerate(racers):
        groups[frozenset(racer.matchers)].append(index)
    signatures = list(groups)
    tools_of = {sig: frozenset().union(*(matched_builtins(m, builtins, event) for m in sig)) for sig in signatures}
    servers_of = {sig: {s for s in ctx.mcp_servers if any(server_reach(m, s, event) != "none" for m in sig)}
                  for sig in signatures}
    # the MCP name space beyond the servers doctor can see: two rewriters that meet there race
    # as soon as such a server is configured somewhere doctor did not look, or added later
    unseen_of = {sig: {s for s in unseen_servers(sig, ctx.mcp_servers)
                       if any(server_reach(m, s, event) != "none" for m in sig)} for sig in signatures}
    by_tool: dict[str, list[int]] = defaultdict(list)
    by_server: dict[str, list[int]] = defaultdict(list)
    for number, sig in enumerate(signatures):
        for tool in tools_of[sig]:
            by_tool[tool].append(number)
        for server in servers_of[sig]:
            by_server[server].append(number)
    knows = [any(racers[i].rewrite.status == YES for i in groups[sig]) for sig in signatures]
    # a server one matcher names may be reached by another without naming it: those pairs are all tried
    beyond = [number for number, sig in enumerate(signatures) if unseen_of[sig]]
    focus = {i for i, racer in enumerate(racers) if any(id(h) in ctx.focus for h in racer.handlers)}
    order = {id(h): i for i, h in enumerate(ctx.handlers)}
    emitted = 0
    for number, sig in enumerate(signatures):
        if not knows[number]:
            continue
        partners = {number}
        for tool in tools_of[sig]:
            partners.update(by_tool[tool])
        for server in servers_of[sig]:
            partners.update(by_server[server])
        if unseen_of[sig]:
            partners.update(beyond)
        for other in sorted(partners):
            if other < number and knows[other]:
                continue  # that pair was handled from the other side
            shared = _shared(sig, signatures[other], tools_of, ctx.mcp_servers, event)
            unseen = not shared
            if unseen:
                shared = _shared(sig, signatures[other], tools_of, sorted(unseen_of[sig] | unseen_of[signatures[other]]),
                                 event)
                if not shared:
                    continue
            capped = emitted >= MAX_PAIRS
            if capped and not focus:
                ctx.truncated.add("conflict/input-rewrite-race")
                return
            pairs = _racer_pairs(groups[sig], groups[signatures[other]], number == other)
            for a, b in (p for p in pairs if p[0] in focus or p[1] in focus) if capped else pairs:
                ra, rb = racers[a], racers[b]
                if YES not in (ra.rewrite.status, rb.rewrite.status):
                    continue
                if unseen and not ra.rewrite.status == rb.rewrite.status == YES:
                    continue  # (where doctor cannot see the servers, it reports only rewrites it is sure of)
                focused = a in focus or b in focus
                if not focused:  # (a plan's own racers are always reported: they are what it must show)
                    if emitted >= MAX_PAIRS:
                        ctx.truncated.add("conflict/input-rewrite-race")
                        if not focus:
                            return
                        continue
                    emitted += 1
                race = _unseen_race_finding if unseen else _race_finding
                yield race(ctx, ra, rb, shared, order, focused)


def _racer_pairs(left: list[int], right: list[int], same: bool):
    if same:
        for i, a in enumerate(left):
            for b in left[i + 1:]:
                yield a, b
    else:
        for a in left:
            for b in right:
                yield (a, b) if a < b else (b, a)


def _shared(sig_a: frozenset, sig_b: frozenset, tools_of: dict, servers: list[str], event: str) -> Overlap:
    builtins = tools_of[sig_a] & tools_of[sig_b]
    mcp = []
    for server in servers:
        found = None
        for ma in sig_a:
            for mb in sig_b:
                found = mcp_overlap(ma, mb, server, event)
                if found:
                    break
            if found:
                break
        if found:
            mcp.append(found)
    return Overlap(tuple(sorted(builtins)), tuple(mcp))


def _in_read_order(ra: _Racer, rb: _Racer, order: dict[int, int]) -> tuple[_Racer, _Racer]:
    """A race finding sits on the later handler (in the order doctor read them)."""
    first, second = sorted((ra, rb), key=lambda r: order.get(id(r.first), 0))
    return first, second


def _unseen_race_finding(ctx: Context, ra: _Racer, rb: _Racer, shared: Overlap, order: dict[int, int],
                         focused: bool) -> Finding:
    first, second = _in_read_order(ra, rb, order)
    related = [_place(h, first.rewrite.why) for h in first.handlers[:3]]
    return ctx.finding("conflict/input-rewrite-race-unseen-servers", second.first.file, second.first.keys, related,
                       about=_pair(first, second), focused=focused, a=_name(first), b=_name(second),
                       tools=shared.describe(), looked=", ".join(ctx.mcp_sources) or "nowhere")


def _pair(first: _Racer, second: _Racer) -> tuple:
    """A race's subject: the two commands, whichever tools they share (a narrower matcher
    keeps the race it narrows, with fewer tools in its message)."""
    return tuple(sorted((_name(first), _name(second))))


def _race_finding(ctx: Context, ra: _Racer, rb: _Racer, shared: Overlap, order: dict[int, int],
                  focused: bool) -> Finding:
    # related: the other handler
    first, second = _in_read_order(ra, rb, order)
    related = [_place(h, first.rewrite.why) for h in first.handlers[:3]]
    related += [_place(h, f"another copy of {_name(second)}") for h in second.handlers[1:3]]
    tools = shared.describe()
    name_a, name_b = _name(first), _name(second)
    if name_a == name_b:  # two copies of one script in different places
        name_a = f"{name_a} ({first.first.file.scope} scope)"
        name_b = f"{name_b} ({second.first.file.scope} scope)"
    names = {id(first): name_a, id(second): name_b}
    if first.rewrite.status == YES and second.rewrite.status == YES:
        certain = bool(shared.builtins) or any(name.endswith("__*") for name in shared.mcp)
        rule = "conflict/input-rewrite-race" if certain else "conflict/input-rewrite-race-mcp"
        return ctx.finding(rule, second.first.file, second.first.keys, related, about=_pair(first, second),
                           focused=focused, a=name_a, b=name_b, tools=tools)
    known, unsure = (first, second) if first.rewrite.status == YES else (second, first)
    return ctx.finding("conflict/input-rewrite-race-possible", second.first.file, second.first.keys, related,
                       about=_pair(first, second), focused=focused, a=names[id(known)], b=names[id(unsure)],
                       tools=tools, why=unsure.rewrite.why)


def _name(racer_or_handler) -> str:
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


def _place(handler: Handler, message: str) -> dict:
    line, column = handler.file.position(handler.keys)
    return {"path": str(handler.file.path), "line": line, "column": column, "message": message}


# ---- Cursor: two preToolUse entries that both answer updated_input -----------------------------------

# the tool types Cursor's preToolUse matches (docs/hosts/cursor.md#matchers), and one MCP tool standing for all
CURSOR_TOOLS = ("Shell", "Read", "Write", "Edit", "StrReplace", "Grep", "Delete", "Task", "MCP:any_tool")


def _cursor_races(ctx: Context) -> Iterator[Finding]:
    """Cursor runs every matching preToolUse entry of every source; how two `updated_input`
    answers combine is not documented (docs/hosts/cursor.md#rewriting-input): across files the higher-priority
    source wins, in one file nobody says. Either way one rewrite is lost."""
    racers: dict[tuple, Handler] = {}
    for handler in ctx.handlers:
        if _combine(handler) == "priority" and handler.event in hosts.get(handler.file.host).rewrite_events and \
                handler_facts.rewrite(handler).status == YES:
            # one script installed twice gives one answer twice: that loses nothing
            key = ("pack",) + handler.owner if handler.owner else (handler.command or "", id(handler))
            racers.setdefault(key, handler)
    found = list(racers.values())
    emitted = 0
    for index, later in enumerate(found):
        for earlier in found[:index]:
            tools = _cursor_tools_shared(earlier.matcher, later.matcher)
            if not tools:
                continue
            focused = id(later) in ctx.focus or id(earlier) in ctx.focus
            if emitted >= MAX_PAIRS and not focused:
                ctx.truncated.add("conflict/cursor-input-rewrite-conflict")
                continue
            emitted += 1
            same_file = earlier.file.path == later.file.path
            yield ctx.finding("conflict/cursor-input-rewrite-conflict", later.file, later.keys,
                              [_place(earlier, f"it rewrites {tools} too")], about=_pair_names(earlier, later),
                              focused=focused, a=_name(earlier), b=_name(later), tools=tools,
                              outcome="Cursor does not document which of two entries of one file wins" if same_file
                              else f"the answer of the higher-priority file wins ({_cursor_winner(earlier, later)})")


def _cursor_tools_shared(a: str | None, b: str | None) -> str | None:
    """The Cursor tool types two preToolUse matchers both fire for, in words (None: none)."""
    ma, mb = classify(a, "preToolUse"), classify(b, "preToolUse")
    names = list(CURSOR_TOOLS) + [n for m in (ma, mb) for n in m.names if n not in CURSOR_TOOLS]
    shared = [n for n in names if ma.matches(n) and mb.matches(n)]
    if not shared:
        return None
    if ma.kind == mb.kind == "all":
        return "every tool"
    return ", ".join("MCP tools" if n == "MCP:any_tool" else n for n in shared)


CURSOR_PRIORITY = ("managed", "project", "user")  # highest first (docs/hosts/cursor.md#config-files)


def _cursor_winner(a: Handler, b: Handler) -> str:
    rank = {scope: i for i, scope in enumerate(CURSOR_PRIORITY)}
    first, second = sorted((a, b), key=lambda h: rank.get(h.file.scope, len(rank)))
    return f"{first.file.scope} over {second.file.scope}" if first.file.scope != second.file.scope else \
        f"{first.file.path} over {second.file.path}"


def _pair_names(a: Handler, b: Handler) -> tuple:
    return tuple(sorted((_name(a), _name(b))))


# ---- opencode: plugins that change the same arguments -------------------------------------------------

def _plugin_races(ctx: Context) -> Iterator[Finding]:
    """Two opencode plugins whose tool.execute.before set one argument of one tool: the last
    to run wins (they run in the order the filesystem lists the files)."""
    writers = []
    for handler in ctx.handlers:
        if _combine(handler) == "in-order" and handler_facts.rewrite(handler).status == YES:
            keys = {"*"} if handler.owner else {key for key, *_ in handler.value.get("writes") or []}
            writers.append((handler, keys))
    for index, (later, later_keys) in enumerate(writers):
        for earlier, earlier_keys in writers[:index]:
            if later.owner and later.owner == earlier.owner:
                continue  # one pack in two places: conflict/pack-in-several-scopes says so
            tools = _plugin_tools_shared(earlier.matcher, later.matcher)
            keys = later_keys | earlier_keys if "*" in later_keys | earlier_keys else later_keys & earlier_keys
            if tools and keys:
                named = ", ".join(sorted(k for k in keys if k != "*"))
                shown = (named + (", maybe more" if "*" in keys else "")) if named else "any argument"
                yield ctx.finding_at("conflict/plugin-args-race", later.file, *_write_place(later, keys),
                                     [_plugin_place(earlier, keys, "it runs first: the other's change wins over its own")],
                                     a=_plugin_name(earlier), b=_plugin_name(later), tools=tools, arguments=shown)


def _write_place(handler: Handler, keys: set[str]) -> tuple[int, int]:
    """Where a plugin sets the first of these arguments (our plugin: its hook's line in the header)."""
    if handler.owner:
        return handler.file.position(handler.keys)
    for key, line, column in handler.value.get("writes") or []:
        if key in keys or "*" in keys or key == "*":
            return line, column
    return 1, 1


def _plugin_place(handler: Handler, keys: set[str], message: str) -> dict:
    line, column = _write_place(handler, keys)
    return {"path": str(handler.file.path), "line": line, "column": column, "message": message}


def _plugin_tools_shared(a: str | None, b: str | None) -> str | None:
    """The tools two opencode plugin hooks both run for, in words (None: none)."""
    from ...hosts.opencode import OWN_TOOLS

    def tools(spec: str | None) -> set[str] | None:  # None: every tool; {"mcp"}: every MCP tool
        return None if not spec else {"mcp"} if spec == "mcp" else set(spec.split("|"))

    ta, tb = tools(a), tools(b)
    if ta is None or tb is None:
        shared = tb if ta is None else ta
        return "every tool" if shared is None else "MCP tools" if shared == {"mcp"} else ", ".join(sorted(shared))
    if "mcp" in ta and "mcp" in tb:
        return "MCP tools"
    mcp_side, other = (ta, tb) if "mcp" in ta else (tb, ta) if "mcp" in tb else (None, None)
    if mcp_side is not None:
        names = sorted(t for t in other if t not in OWN_TOOLS)
    else:
        names = sorted(ta & tb)
    return ", ".join(names) or None


def _plugin_name(handler: Handler) -> str:
    if handler.owner:
        return f"hookwright pack {handler.owner[0]} ({handler.owner[1]})"
    return f"the plugin {handler.file.path.name}"


# ---- a hook of ours that a foreign one makes moot -------------------------------------------------

def _moot_pack_hooks(ctx: Context) -> Iterator[Finding]:
    """A pack hook whose job is a rewrite (an answer, a normalised path), beside a foreign hook
    on the same calls that can refuse them: a deny or exit 2 wins over every rewrite (deny >
    defer > ask > allow; docs/hosts/claude-code.md#several-hooks, d), so on the calls it refuses, ours does
    nothing. (A foreign rewrite that drops what ours set is the input-rewrite race.)"""
    builtins = tuple(t for t in ctx.tools if not t.startswith("mcp__")) or BUILTIN_TOOLS
    ours = [h for h in ctx.handlers if h.owner and _combine(h) == "parallel" and h.event in RACE_EVENTS
            and pack_rewrites(*h.owner)]
    if not ours:
        return
    for handler in ours:
        for other in ctx.handlers:
            if other.event != handler.event or other.owner or other.file.host != handler.file.host:
                continue
            servers = unseen_servers((handler.matcher, other.matcher), ()) + ctx.mcp_servers
            shared = overlap(handler.matcher, other.matcher, builtins, servers, handler.event)
            why = handler_facts.refusal(other) if shared else None
            if why:
                yield ctx.finding("conflict/pack-hook-moot", handler.file, handler.keys, [_place(other, why)],
                                  about=(handler.owner, _name(other)), pack=handler.owner[0], hook=handler.owner[1],
                                  other=_name(other), tools=shared.describe(), why=why)
                break


# ---- duplicates ----------------------------------------------------------------------------------------

def _duplicates(ctx: Context) -> Iterator[Finding]:
    builtins = tuple(t for t in ctx.tools if not t.startswith("mcp__")) or BUILTIN_TOOLS
    for copy in dedup.copies(ctx.handlers, builtins, ctx.mcp_servers):
        handler, of = copy.handler, copy.of
        if copy.runs:
            host = hosts.of(handler.file.host)
            why = (f"{host.title} documents no deduplication" if host and not host.dedups_commands else
                   "Claude Code deduplicates by the exact command string, and this one is written differently"
                   if copy.respelled else "a plugin's copy of a handler runs on its own")
            yield ctx.finding("conflict/duplicate-runs-twice", handler.file, handler.keys,
                              [_place(of, "the first copy")], first=_where(of, handler), why=why,
                              times="twice" if copy.times == 2 else f"{copy.times} times")
        elif copy.covered:  # (one that repeats only some of its calls is needed for the rest)
            yield ctx.finding("conflict/duplicate-handler", handler.file, handler.keys,
                              [_place(of, "the copy that runs")], first=_where(of, handler),
                              effect=_copy_effect(of, handler))


def _copy_effect(kept: Handler, copy: Handler) -> str:
    """What the extra copy changes: nothing, or, where the copies differ in other fields, what
    nobody documents (whose fields apply)."""
    a, b = kept.value, copy.value  # objects: only they have a deduplication key
    fields = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    if not fields:
        return ", so this copy changes nothing"
    return (f"; the copies differ in {', '.join(json.dumps(f) for f in fields)}, and which copy's fields "
            "Claude Code applies is not documented")


def _where(first: Handler, handler: Handler) -> str:
    line, _ = first.file.position(first.keys)
    if first.file.path == handler.file.path:
        return f"line {line} of this file"
    return f"{first.file.path}:{line}"


def _packs_in_several_scopes(ctx: Context) -> Iterator[Finding]:
    """One pack hook wired in two places runs twice: Claude Code dedups only one command
    string (and ours differ between scopes); Cursor and opencode run every file's hooks."""
    by_owner: dict[tuple, list[Handler]] = defaultdict(list)
    for handler in ctx.handlers:
        if handler.owner:
            by_owner[(handler.file.host, handler.event) + handler.owner].append(handler)
    for (host, _event, pack, script), handlers in by_owner.items():
        copies: dict[str, Handler] = {}
        for handler in handlers:  # the ones that run apart: distinct commands, or distinct files
            copies.setdefault(handler.command or "" if hosts.get(host).dedups_commands else str(handler.file.path),
                              handler)
        if len(copies) < 2:
            continue
        first, *others = copies.values()
        agent = hosts.get(host)
        why = f"the commands differ, so {agent.title}" if agent.dedups_commands else \
            f"{agent.title} runs the hooks of every file it loads, so it"
        for handler in others:
            yield ctx.finding("conflict/pack-in-several-scopes", handler.file,
                              handler.keys + (("command",) if not hosts.get(host).file_per_pack else ()),
                              [_place(first, f"pack {pack} in the {first.file.scope} scope")], pack=pack,
                              script=script, other=f"{first.file.path} ({first.file.scope} scope)", why=why,
                              times="twice" if len(copies) == 2 else f"{len(copies)} times")


# ---- Cursor's third-party loading of Claude Code hooks -------------------------------------------------

def _cursor_project(path: Path) -> Path | None | str:
    """The project a Cursor hooks.json belongs to; "user" for ~/.cursor/hooks.json."""
    real = resolved(path)
    if real.parent == resolved(cursor.user_dir()):
        return "user"
    if real.parent.name == ".cursor" and real.name == "hooks.json":
        return real.parent.parent
    return None


def _claude_project(path: Path, user_settings: Path) -> Path | None | str:
    real = resolved(path)
    if real == user_settings:
        return "user"
    if real.parent.name == ".claude" and real.name in ("settings.json", "settings.local.json"):
        return real.parent.parent
    return None


def _cursor_third_party(ctx: Context) -> Iterator[Finding]:
    cursor_files = {id(f): p for f in ctx.files if f.host == "cursor" and (p := _cursor_project(f.path))}
    if not cursor_files:
        return
    user_settings = resolved(claude.user_dir() / "settings.json")
    claude_files = {id(f): p for f in ctx.files
                    if f.kind == "claude-settings" and (p := _claude_project(f.path, user_settings))}
    if not claude_files:
        return
    # Claude Code handlers by (Cursor event, project), "user" being every project's
    by_place: dict[tuple, list[Handler]] = defaultdict(list)
    for handler in ctx.handlers:
        place = claude_files.get(id(handler.file))
        if place:
            for cursor_event in _cursor_events(handler.event):
                by_place[(cursor_event, place)].append(handler)
    for handler in ctx.handlers:
        project = cursor_files.get(id(handler.file))
        if not project or handler_facts.kind(handler) != "command":
            continue
        if project == "user":  # a user-level Cursor hook runs in every project
            others = [h for (event, _), hs in by_place.items() if event == handler.event for h in hs]
        else:
            others = by_place.get((handler.event, project), []) + by_place.get((handler.event, "user"), [])
        for other in others:
            why = _same_job(handler, other)
            if why:
                yield ctx.finding("conflict/cursor-runs-claude-hooks", handler.file, handler.keys,
                                  [_place(other, "the Claude Code hook Cursor also runs")],
                                  other=str(other.file.path), why=why)
                break


def _cursor_events(event: str) -> tuple[str, ...]:
    mapped = CLAUDE_TO_CURSOR.get(event)
    return ((mapped,) if mapped else ()) + CURSOR_ALSO.get(event, ())


def _same_job(cursor_handler: Handler, claude_handler: Handler) -> str | None:
    """Why the two do one job on one call: the same pack hook, command or script (a script of
    the same name only with the same content), on tools both can fire for."""
    if not _fires_on_a_shared_tool(cursor_handler, claude_handler):
        return None
    if cursor_handler.owner and cursor_handler.owner == claude_handler.owner:
        return f"both run hookwright pack {cursor_handler.owner[0]}'s {cursor_handler.owner[1]}"
    if cursor_handler.command and cursor_handler.command == claude_handler.command:
        return "the same command"
    a = handler_facts.resolution(cursor_handler).script
    b = handler_facts.resolution(claude_handler).script
    if a is None or b is None or not a.is_file():
        return None  # (a missing script is the command check's finding: it runs nothing twice)
    if resolved(a) == resolved(b):
        return f"both run {a}"
    if a.name == b.name and a.name not in GENERIC_NAMES and b.is_file() and a.read_bytes() == b.read_bytes():
        return f"both run a script named {a.name}, with the same content"
    return None


# the Claude Code tools a Cursor event, or a Cursor tool type in a matcher, fires for (docs/hosts/cursor.md#matchers)
CURSOR_EVENT_TOOLS = {"beforeShellExecution": ("Bash",), "afterShellExecution": ("Bash",), "beforeReadFile": ("Read",),
                      "afterFileEdit": ("Edit", "Write", "MultiEdit")}
CURSOR_TOOL_TYPES = {"Shell": ("Bash",), "Read": ("Read",), "Write": ("Write", "Edit", "MultiEdit"),
                     "Edit": ("Edit", "MultiEdit"), "Grep": ("Grep",), "Task": ("Task", "Agent")}
MCP_TOOL = "mcp__any__tool"  # stands for every MCP tool


def _fires_on_a_shared_tool(cursor_handler: Handler, claude_handler: Handler) -> bool:
    """Whether a call exists that both fire on: the Claude Code tools the Cursor entry can fire
    for (by its event and matcher), tried against the Claude Code matcher. Non-tool events share
    their one kind of call."""
    event, matcher = cursor_handler.event, cursor_handler.matcher
    if event in CURSOR_EVENT_TOOLS:
        tools = CURSOR_EVENT_TOOLS[event]
    elif event in ("beforeMCPExecution", "afterMCPExecution"):
        tools = (MCP_TOOL,)
    elif event in ("preToolUse", "postToolUse", "postToolUseFailure") and matcher and matcher.strip() not in ("*", ""):
        names, renamed = claude_tool_names(matcher)
        if len(renamed) == len(names):
            return False  # it names only Claude Code's tools: Cursor never fires it (host/cursor-claude-tool-name)
        tools = tuple(t for name in names for t in (CURSOR_TOOL_TYPES.get(name, ()) or
                                                     ((MCP_TOOL,) if name.startswith("MCP:") else ())))
    else:
        return True
    claude_matcher = classify(claude_handler.matcher, claude_handler.event)
    return any(claude_matcher.matches(tool) or (tool == MCP_TOOL and _reaches_mcp(claude_matcher)) for tool in tools)


def _reaches_mcp(matcher) -> bool:
    return matcher.kind == "all" or any(n.startswith("mcp__") for n in matcher.names) or (
        matcher.kind == "regex" and "mcp" in (matcher.text or ""))


# ---- SessionEnd's shared budget ---------------------------------------------------------------------

SESSION_END_BUDGET = 1.5  # seconds, when no SessionEnd timeout of a settings file raises it
SESSION_END_CAP = 60  # the most a configured timeout raises it to
BUDGET_VARIABLE = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"


def _session_end_budget(ctx: Context) -> Iterator[Finding]:
    """A SessionEnd hook whose timeout the shared budget cuts short: above 60 s anywhere, or
    above the budget in a plugin (whose own timeout does not raise it). Values of 1000 and more
    are milliseconds to structure/timeout-milliseconds; the variable that sets the budget
    (in the environment or a settings file's "env") turns this off."""
    if os.environ.get(BUDGET_VARIABLE) or any(_sets_budget(f.document.data) for f in ctx.files if f.document):
        return
    ends = [(h, timeout_seconds(h.value.get("timeout"))) for h in ctx.handlers
            if h.file.host == "claude" and h.event == "SessionEnd" and isinstance(h.value, dict)]
    ends = [(handler, timeout) for handler, timeout in ends if timeout is not None]
    for handler, timeout in ends:
        if timeout >= 1000:
            continue
        if timeout > SESSION_END_CAP:
            budget, why = SESSION_END_CAP, "no SessionEnd timeout raises the shared budget past 60 s"
        elif dedup.runs_with(handler)[0] == "plugin":
            raised = [t for h, t in ends if dedup.runs_with(h)[0] != "plugin" and dedup.share_a_session(h, handler)]
            budget = max(SESSION_END_BUDGET, min(max(raised, default=0), SESSION_END_CAP))
            if timeout <= budget:
                continue
            why = (f"a plugin's own timeout does not raise the shared budget, and no SessionEnd hook of "
                   f"the settings files loaded with it asks for {timeout:g} s")
        else:
            continue
        yield ctx.finding("conflict/session-end-budget", handler.file, handler.keys + ("timeout",),
                          value=f"{timeout:g}", budget=f"{budget:g}", why=why)


def _sets_budget(data: object) -> bool:
    return isinstance(data, dict) and isinstance(data.get("env"), dict) and BUDGET_VARIABLE in data["env"]
