"""Conditions: a handler whose conditions can never all be true at once. Its group's matcher
decides which tools it fires for; its `if` rule names one tool (or one MCP server's tools); when
the two sets do not meet, the handler never runs, and nothing says so. And a matcher that names
an MCP server by a name no tool has: a plugin's server, whose tools carry the plugin's name."""
from __future__ import annotations

import json
from typing import Iterator

from ... import hosts
from ...hooks.events import TOOL
from ...hooks.firing import rule_tool
from ...hooks.regex.matching import classify
from ...hooks.regex.overlap import named_servers, server_reach
from ...patterns import lazy
from ..model import Context, Finding, Handler, RuleTable

RULES = RuleTable()
ONE_RULE = lazy(r"[ \t]*[A-Za-z_][\w-]*(?:\([^()|]*\))?[ \t]*")  # `Edit(src/**)`: what was measured of `if`


def check(ctx: Context) -> Iterator[Finding]:
    groups: set[tuple[int, tuple[object, ...]]] = set()
    for handler in ctx.handlers:
        yield from RULES.run(ctx, handler)
        where = (id(handler.file), handler.group_keys)
        if where not in groups:  # (the group's matcher: once per group)
            groups.add(where)
            yield from GROUP_RULES.run(ctx, handler)


GROUP_RULES = RuleTable()  # the rules of a handler's group (its matcher), run once per group


def _condition(handler: Handler) -> str | None:
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


def fires_for(matcher: str | None, event: str, tool: str) -> bool | None:
    """Whether a matcher can fire for the tool (or tools) a permission rule names: a tool's
    name, `mcp__srv` or `mcp__srv__*` for a server's tools. None where doctor cannot tell (a
    regex past its engine's bounds, a glob in another place)."""
    m = classify(matcher, event)
    if m.kind == "all":
        return True
    if m.kind == "regex" and (m.pattern is None or m.undecided):
        return None  # (a regex the host rejects is the matcher rules' business)
    server = _whole_server(tool)
    if server is not None:
        return server_reach(matcher, server, event) != "none"
    if "*" in tool:
        return None
    return m.matches(tool)


def _whole_server(tool: str) -> str | None:
    """The server of `mcp__srv` or `mcp__srv__*` (every tool of one MCP server), else None."""
    if not tool.startswith("mcp__"):
        return None
    rest = tool[len("mcp__"):]
    if "__" not in rest:
        return rest or None
    server, _, name = rest.partition("__")
    return server if name == "*" and server else None


@RULES.rule("matcher/if-other-tool")
def _if_other_tool(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"matcher": "Edit"` with `"if": "Bash(git *)"`: the `if` is tested only on the calls the
    matcher fired for, and none of those is a Bash call."""
    condition = _condition(handler)
    tool = rule_tool(condition) if condition is not None else None
    if tool is None or fires_for(handler.matcher, handler.event, tool) is not False:
        return
    yield ctx.finding("matcher/if-other-tool", handler.file, handler.keys + ("if",), condition=json.dumps(condition),
                      tool=tool, matcher=json.dumps(handler.matcher))


@RULES.rule("matcher/if-narrows-matcher")
def _if_narrows_matcher(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"matcher": "Edit|Write"` with `"if": "Edit(config/*)"`: an `if` names one tool (measured:
    `if: "Edit(src/**)"` did not fire on a Write, docs/hosts/claude-code.md#matchers), so the other
    tools the matcher lists never run the hook, unless another handler of the group runs for them."""
    condition = _condition(handler)
    tool = rule_tool(condition) if condition is not None and ONE_RULE.fullmatch(condition) else None
    matcher = classify(handler.matcher, handler.event)
    if tool is None or matcher.kind != "exact" or tool not in matcher.names:
        return
    covered: set[str | None] = {tool}
    for sibling in _group_handlers(handler):
        other = sibling.get("if") if isinstance(sibling, dict) else None
        if sibling is not handler.value:
            covered |= set(matcher.names) if not isinstance(other, str) else {rule_tool(other)}
    missed = [name for name in matcher.names if name not in covered]
    if missed:
        yield ctx.finding("matcher/if-narrows-matcher", handler.file, handler.keys + ("if",),
                          condition=json.dumps(condition), tool=tool, missed=", ".join(missed),
                          matcher=json.dumps(handler.matcher))


def _group_handlers(handler: Handler) -> list[object]:
    """The handlers of the handler's matcher group, as written."""
    value = handler.file.document.data if handler.file.document is not None else None
    try:
        for key in handler.group_keys:
            value = value[key]  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        return []
    group = value.get("hooks") if isinstance(value, dict) else None
    return group if isinstance(group, list) else []


def _tool_matcher(handler: Handler) -> str | None:
    """The group's matcher, where its host matches it against tool names on this event."""
    host = hosts.of(handler.file.host)
    event = host.matcher_events.get(handler.event) if host is not None else None
    return handler.matcher if event is not None and event.matcher == TOOL and isinstance(handler.matcher, str) else None


@GROUP_RULES.rule("matcher/plugin-server-bare-name")
def _plugin_server_bare_name(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`mcp__docs__.*` where `docs` is an MCP server only a plugin brings: Claude Code names its
    tools `mcp__plugin_<plugin>_docs__<tool>` (docs/hosts/claude-code.md#plugin-hooks)."""
    matcher = _tool_matcher(handler)
    if matcher is None or "mcp__" not in matcher:
        return
    configured = set(ctx.mcp_servers)
    for server in dict.fromkeys(named_servers(matcher)):
        if server in configured:
            continue
        scoped = [name for name in ctx.mcp_servers if name.startswith("plugin_") and name.endswith("_" + server)
                  and len(name) > len("plugin__" + server)]
        if scoped:
            fixed = matcher.replace(f"mcp__{server}__", f"mcp__{scoped[0]}__")
            yield ctx.finding("matcher/plugin-server-bare-name", handler.file, handler.group_keys + ("matcher",),
                              matcher=json.dumps(matcher), server=server, scoped=scoped[0],
                              suggestion=json.dumps(fixed))
