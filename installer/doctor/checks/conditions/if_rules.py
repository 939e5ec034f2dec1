"""The rules of a handler's `if` (IF_RULES), where its host reads one there (conditions.if_condition):
a tool the matcher never fires for, a matcher it narrows, a command prefix or an exact command
that misses the calls it was written for, a plugin's MCP server named bare. conditions.check
imports it for such a handler only."""
from __future__ import annotations

import json
import re
from typing import Iterator

from .... import hosts, safe_read
from ....hooks.events import BUILTIN_TOOLS
from ....hooks.firing import permission_rule_matches, rule_tool
from ....hooks.regex import classify, server_reach
from ....patterns import lazy
from ... import disk, handler_facts
from ...model import Context, Finding, Handler, RuleTable
from . import if_condition, plugin_scoped

IF_RULES = RuleTable()  # a handler's `if`
ONE_RULE = lazy(r"[ \t]*[A-Za-z_][\w-]*(?:\([^()|]*\))?[ \t]*")  # `Edit(src/**)`: what was measured of `if`


@IF_RULES.rule("matcher/if-other-tool")
def _if_other_tool(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"matcher": "Edit"` with `"if": "Bash(git *)"`: the `if` is tested only on the calls the
    matcher fired for, and none of those is a Bash call. And `"if": "bash(...)"` or `"Shell(...)"`:
    a tool by another host's name or in another case, which no call of this host's has
    (measured on 2.1.332: neither fired on a Bash call, `Bash(true)` did)."""
    condition = if_condition(handler)
    tool = rule_tool(condition) if condition is not None else None
    own = _own_name(ctx, handler, tool) if tool is not None and condition is not None else None
    if own is not None and tool is not None and condition is not None:
        yield ctx.finding("matcher/if-other-tool", handler.file, handler.keys + ("if",), variant="no-such-tool",
                          condition=json.dumps(condition), tool=tool, own=own,
                          suggestion=json.dumps(own + condition.strip()[len(tool):]))
        return
    if tool is None or fires_for(handler.matcher, handler.event, tool) is not False:
        return
    yield ctx.finding("matcher/if-other-tool", handler.file, handler.keys + ("if",), condition=json.dumps(condition),
                      tool=tool, matcher=json.dumps(handler.matcher))


def _own_name(ctx: Context, handler: Handler, tool: str) -> str | None:
    """The host's own name of a tool an `if` names by another host's name (Cursor's `Shell`, Codex's
    `exec_command`) or in another case (opencode's `bash`, an MCP server `Linear` configured as
    `linear`), where the host has no tool by that name; None for a name it has, or one nobody's
    (a tool newer than hookwright's list, a server not configured here)."""
    if tool.startswith("mcp__"):
        server, separator, rest = tool[len("mcp__"):].partition("__")
        right = ctx.servers_by_case.get(server.lower())
        return f"mcp__{right}{separator}{rest}" if right and server not in ctx.mcp_servers else None
    if tool in BUILTIN_TOOLS:
        return None
    by_case = {name.lower(): name for name in BUILTIN_TOOLS}
    if tool.lower() in by_case:
        return by_case[tool.lower()]
    others = {name: own for host in hosts.every() if host.name != handler.file.host
              for name, own in {**host.tool_renames, **host.claude_tool_names}.items()}
    return others.get(tool)


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


@IF_RULES.rule("matcher/if-narrows-matcher")
def _if_narrows_matcher(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"matcher": "Edit|Write"` with `"if": "Edit(config/*)"`: an `if` names one tool (measured:
    `if: "Edit(src/**)"` did not fire on a Write, docs/hosts/claude-code.md#matchers), so the other
    tools the matcher lists never run the hook, unless another handler of the group runs for them."""
    condition = if_condition(handler)
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


# `npm run db:*`: the legacy prefix form, a command word right before `:*`
LEGACY_PREFIX = lazy(r"(?P<prefix>.*?(?P<word>[\w.-]+)):\*")
# a package runner whose scripts are named in package.json: `npm run`, `pnpm`, `yarn`, `bun run`
PACKAGE_RUNNER = lazy(r"(?:npm|pnpm|yarn|bun)(?:[ \t]+(?:run|run-script))?[ \t]+(?P<word>[\w.-]+)")


@IF_RULES.rule("matcher/if-legacy-prefix")
def _if_legacy_prefix(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"if": "Bash(npm run db:*)"` on a guard for `npm run db:reset`: the trailing `:*` is the
    legacy prefix form, `npm run db` then a space or nothing (measured on 2.1.332: it fired on
    `npm run db` and `npm run db -- reset`, not on `npm run db:reset`), so the calls the guard
    was written for, named `db:...` in its script or the project's package.json, never run it."""
    condition = if_condition(handler)
    rule = condition.strip() if condition is not None else ""
    found = LEGACY_PREFIX.fullmatch(rule[len("Bash("):-1]) if rule.startswith("Bash(") and rule.endswith(")") else None
    if condition is None or found is None:
        return
    meant = _namespaced(handler, found["prefix"], found["word"])
    if meant is None or permission_rule_matches(condition, {"tool_name": "Bash", "tool_input": {"command": meant}}):
        return
    yield ctx.finding("matcher/if-legacy-prefix", handler.file, handler.keys + ("if",), condition=json.dumps(condition),
                      meant=meant, prefix=found["prefix"], suggestion=json.dumps(f"Bash({found['prefix']}*)"))


NAMESPACED = r"(?<![\w.-]){word}:(?P<rest>[\w(\[][\w|:.-]*)"


def _namespaced(handler: Handler, prefix: str, word: str) -> str | None:
    """A command `prefix:...` the handler was written for: one its script names (`db:reset`, a
    regex's `db:(reset|drop)`), or a script of the project's package.json that a package runner's
    prefix names (`npm run db:*` with `"db:reset"` in scripts)."""
    pattern = re.compile(NAMESPACED.format(word=re.escape(word)))
    for _, facts in handler_facts.script_facts(handler):
        raw = safe_read.read_or_none(facts.path, safe_read.SCRIPT) if facts.readable else None
        text = raw.decode("utf-8", "replace") if raw is not None else ""
        found = pattern.search(text)
        if found:
            rest = found["rest"].lstrip("([").split("|")[0].rstrip(")]\\b")
            return f"{prefix}:{rest or 'x'}"
    runner = PACKAGE_RUNNER.fullmatch(prefix)
    project = handler.file.project
    if runner is None or project is None or not disk.is_file(project / "package.json"):
        return None
    raw = safe_read.read_or_none(project / "package.json", safe_read.SCRIPT)
    try:
        scripts = json.loads(raw or b"{}").get("scripts")
    except (ValueError, AttributeError):
        return None
    names = [name for name in scripts if isinstance(name, str)] if isinstance(scripts, dict) else []
    if word in names:
        return None  # (`npm run db:*` may well mean the `db` script and its arguments)
    return next((f"{prefix[:-len(word)]}{name}" for name in names if name.startswith(word + ":")), None)


# `Bash(npm publish)`: a command with no wildcard, the whole rule
EXACT_COMMAND = lazy(r"[ \t]*Bash\((?P<command>[^()*]*[^()*\s:])\)[ \t]*")


@IF_RULES.rule("matcher/if-exact-command")
def _if_exact_command(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"if": "Bash(npm publish)"`: a Bash rule without a wildcard matches that command exactly
    (measured on 2.1.332: it did not fire on `npm publish --access public`, `Bash(npm publish *)`
    and the legacy `Bash(git push:*)` did), so the hook never runs for the command with any
    argument, which is how the calls it aims at come. The rule reader's own verdict decides
    (hooks/firing.py), so a form it reads as a prefix is left alone."""
    condition = if_condition(handler)
    found = EXACT_COMMAND.fullmatch(condition) if condition is not None else None
    if condition is None or found is None:
        return
    command = " ".join(found["command"].split())
    with_argument = {"tool_name": "Bash", "tool_input": {"command": command + " --x"}}
    if permission_rule_matches(condition, with_argument):
        return
    yield ctx.finding("matcher/if-exact-command", handler.file, handler.keys + ("if",), condition=json.dumps(condition),
                      command=command, example=command + " --help" if " " not in command else command + " --force",
                      suggestion=json.dumps(f"Bash({command} *)"))


@IF_RULES.rule("matcher/plugin-server-bare-name")
def _plugin_server_bare_name_if(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"if": "mcp__docs__search"` where `docs` is a plugin's server: the tool is
    `mcp__plugin_<plugin>_docs__search`, so the `if` names a tool that never comes."""
    condition = if_condition(handler)
    tool = rule_tool(condition) if condition is not None else None
    server = tool[len("mcp__"):].partition("__")[0] if tool is not None and tool.startswith("mcp__") else ""
    scoped = plugin_scoped(ctx, server) if server else None
    if condition is not None and scoped:
        yield ctx.finding("matcher/plugin-server-bare-name", handler.file, handler.keys + ("if",), variant="if",
                          matcher=json.dumps(condition), server=server, scoped=scoped,
                          suggestion=json.dumps(condition.replace(f"mcp__{server}", f"mcp__{scoped}", 1)))
