"""Conditions: a handler whose conditions can never all be true at once. Its group's matcher
decides which tools it fires for; its `if` rule names one tool (or one MCP server's tools); when
the two sets do not meet, the handler never runs, and nothing says so. And a matcher that names
an MCP server by a name no tool has: a plugin's server, whose tools carry the plugin's name.

Here, the rules of every handler and group (a guard of files that misses some of the tools that
change them, a plugin's server named bare in a matcher); the rules of a rare unit each have a
module of their own that a run imports only where a handler is one (a module's code is about
15 instructions a byte to load, before its body runs): a handler's `if` (if_rules.py: on the
corpus tree 20 of 1,870 handlers) and a hook of the event its host asks before a call that needs
permission (never_asked.py: 14). Doctor on one typical file, which has neither: 344.9 M ->
344.4 M instructions."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from .... import hosts
from ....hooks.events import TOOL
from ....hooks.regex import matched_builtins, named_servers
from ...model import Context, Finding, Handler, RuleTable
from ..scripts.event_fit import guards_files, handler_code

RULES = RuleTable()


def check(ctx: Context) -> Iterator[Finding]:
    groups: set[tuple[int, tuple[object, ...]]] = set()
    for handler in ctx.handlers:
        yield from RULES.run(ctx, handler)
        if _conditioned(ctx, handler):
            from .if_rules import IF_RULES  # (a handler with an `if` only: see the docstring)

            yield from IF_RULES.run(ctx, handler)
        if _on_prompt_event(ctx, handler):
            from .never_asked import PROMPT_RULES  # (a hook of the prompt event only: see the docstring)

            yield from PROMPT_RULES.run(ctx, handler)
        where = (id(handler.file), handler.group_keys)
        if where not in groups:  # (the group's matcher: once per group)
            groups.add(where)
            yield from GROUP_RULES.run(ctx, handler)


GROUP_RULES = RuleTable()  # the rules of a handler's group (its matcher), run once per group
GUARDED_EVENTS = ("PreToolUse", "PermissionRequest")  # where a guard of a tool call refuses it


# the premises of the rules each of a run's handlers and groups is handed (RuleTable.rule's
# `premise`, or check's for a module of rules of their own): on the corpus tree, two rules of 1,870
# handlers and one of 1,366 groups found nothing
def _guards_some_tools(ctx: Context, handler: Handler) -> bool:
    """A hook of an event where a guard refuses tool calls, on a matcher of some tools, not all."""
    return handler.event in GUARDED_EVENTS and handler.matcher not in (None, "", "*")


def _on_prompt_event(ctx: Context, handler: Handler) -> bool:
    """A hook of the event its host asks before a call that needs permission (Host.prompt_event)."""
    host = hosts.of(handler.file.host)
    return host is not None and bool(host.prompt_event) and handler.event == host.prompt_event


def _names_mcp_tools(ctx: Context, handler: Handler) -> bool:
    return isinstance(handler.matcher, str) and "mcp__" in handler.matcher


@RULES.rule("matcher/guard-misses-tools", premise=_guards_some_tools)
def _guard_misses_tools(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """A guard of files (it reads the call's file path and refuses) whose matcher fires for some of
    the tools that change a file but not all (Host.file_changing_tools): the others change the
    protected file unguarded (measured on 2.1.332, docs/hosts/claude-code.md#matchers)."""
    host = hosts.of(handler.file.host)
    tools = host.file_changing_tools if host is not None else ()
    if not tools:
        return
    matched = matched_builtins(handler.matcher, tools, handler.event)
    if not matched or len(matched) == len(tools):
        return
    code = handler_code(handler)
    if code is None or "file_path" not in code.text and "filePath" not in code.text:
        return
    for other in ctx.once(_guards_by_code).get((handler.event, handler.file.host, code.path), ()):
        if other is not handler:  # (the same script in another group of the event: the tools they match together)
            matched |= matched_builtins(other.matcher, tools, other.event)
    missed = [tool for tool in tools if tool not in matched]
    if not missed or not guards_files(code, handler, missed):
        return
    yield ctx.finding("matcher/guard-misses-tools", handler.file, handler.group_keys + ("matcher",),
                      matcher=handler.matcher, matched=", ".join(sorted(matched)), missed=", ".join(missed),
                      related=[{"path": str(code.path), "line": 1, "column": 1, "message": "the guard"}]
                      if code.path is not None else [])


def _conditioned(ctx: Context, handler: Handler) -> bool:
    """The premise of the rules of a handler's `if` (RuleTable.rule's `premise`): its host reads
    one there (on the corpus tree 20 of 1,870 handlers, where five rules were asked of each)."""
    return if_condition(handler) is not None


def if_condition(handler: Handler) -> str | None:
    """The handler's `if` where its host reads one on this event, on a matcher of tool names."""
    host = hosts.of(handler.file.host)
    value = handler.value
    if host is None or not isinstance(value, dict) or not isinstance(value.get("if"), str):
        return None
    event = host.matcher_events.get(handler.event)
    if event is None or event.matcher != TOOL or handler.event not in host.condition_events:
        return None
    condition: str = value["if"]
    return condition


def _guards_by_code(ctx: Context) -> dict[tuple[str, str, Path | None], list[Handler]]:
    """The handlers of the guarded events by event, host and the script they run (None: their
    own command line), asked for each file guard: a scan of the run's handlers for each was
    handlers times guards, a fifth of the corpus tree four times over."""
    found: dict[tuple[str, str, Path | None], list[Handler]] = {}
    for handler in ctx.handlers:
        code = handler_code(handler) if handler.event in GUARDED_EVENTS else None
        if code is not None:
            found.setdefault((handler.event, handler.file.host, code.path), []).append(handler)
    return found


def _tool_matcher(handler: Handler) -> str | None:
    """The group's matcher, where its host matches it against tool names on this event."""
    host = hosts.of(handler.file.host)
    event = host.matcher_events.get(handler.event) if host is not None else None
    return handler.matcher if event is not None and event.matcher == TOOL and isinstance(handler.matcher, str) else None


@GROUP_RULES.rule("matcher/plugin-server-bare-name", premise=_names_mcp_tools)
def _plugin_server_bare_name(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`mcp__docs__.*` where `docs` is an MCP server only a plugin brings: Claude Code names its
    tools `mcp__plugin_<plugin>_docs__<tool>` (docs/hosts/claude-code.md#plugin-hooks)."""
    matcher = _tool_matcher(handler)
    if matcher is None or "mcp__" not in matcher:
        return
    for server in dict.fromkeys(named_servers(matcher)):
        scoped = plugin_scoped(ctx, server)
        if scoped:
            fixed = matcher.replace(f"mcp__{server}__", f"mcp__{scoped}__")
            yield ctx.finding("matcher/plugin-server-bare-name", handler.file, handler.group_keys + ("matcher",),
                              matcher=json.dumps(matcher), server=server, scoped=scoped,
                              suggestion=json.dumps(fixed))


def plugin_scoped(ctx: Context, server: str) -> str | None:
    """The scoped name (`plugin_<plugin>_<server>`) of a server only a plugin brings, for its bare name."""
    if server in ctx.mcp_servers:
        return None
    return next((name for name in ctx.mcp_servers if name.startswith("plugin_") and name.endswith("_" + server)
                 and len(name) > len("plugin__" + server)), None)
