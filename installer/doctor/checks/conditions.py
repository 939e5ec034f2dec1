"""Conditions: a handler whose conditions can never all be true at once. Its group's matcher
decides which tools it fires for; its `if` rule names one tool (or one MCP server's tools); when
the two sets do not meet, the handler never runs, and nothing says so. And a matcher that names
an MCP server by a name no tool has: a plugin's server, whose tools carry the plugin's name."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from ... import hosts, safe_read
from ...hooks.events import BUILTIN_TOOLS, SCOPE_ORDER, TOOL
from ...hooks.firing import permission_rule_matches, rule_tool
from ...hooks.regex import classify, matched_builtins, named_servers, server_reach
from ...patterns import lazy
from .. import disk, handler_facts
from ..model import ConfigFile, Context, Finding, Handler, RuleTable
from .scripts.event_fit import guards_files, handler_code

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
GUARDED_EVENTS = ("PreToolUse", "PermissionRequest")  # where a guard of a tool call refuses it


# the premises of the rules each of a run's handlers and groups is handed (RuleTable.rule's
# `premise`): on the corpus tree, two rules of 1,870 handlers and one of 1,366 groups found nothing
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


def _conditioned(ctx: Context, handler: Handler) -> bool:
    """The premise of the rules of a handler's `if` (RuleTable.rule's `premise`): its host reads
    one there (on the corpus tree 20 of 1,870 handlers, where five rules were asked of each)."""
    return _condition(handler) is not None


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


@RULES.rule("matcher/if-other-tool", premise=_conditioned)
def _if_other_tool(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"matcher": "Edit"` with `"if": "Bash(git *)"`: the `if` is tested only on the calls the
    matcher fired for, and none of those is a Bash call. And `"if": "bash(...)"` or `"Shell(...)"`:
    a tool by another host's name or in another case, which no call of this host's has
    (measured on 2.1.332: neither fired on a Bash call, `Bash(true)` did)."""
    condition = _condition(handler)
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


@RULES.rule("matcher/if-narrows-matcher", premise=_conditioned)
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


# `npm run db:*`: the legacy prefix form, a command word right before `:*`
LEGACY_PREFIX = lazy(r"(?P<prefix>.*?(?P<word>[\w.-]+)):\*")
# a package runner whose scripts are named in package.json: `npm run`, `pnpm`, `yarn`, `bun run`
PACKAGE_RUNNER = lazy(r"(?:npm|pnpm|yarn|bun)(?:[ \t]+(?:run|run-script))?[ \t]+(?P<word>[\w.-]+)")


@RULES.rule("matcher/if-legacy-prefix", premise=_conditioned)
def _if_legacy_prefix(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"if": "Bash(npm run db:*)"` on a guard for `npm run db:reset`: the trailing `:*` is the
    legacy prefix form, `npm run db` then a space or nothing (measured on 2.1.332: it fired on
    `npm run db` and `npm run db -- reset`, not on `npm run db:reset`), so the calls the guard
    was written for, named `db:...` in its script or the project's package.json, never run it."""
    condition = _condition(handler)
    rule = condition.strip() if condition is not None else ""
    found = LEGACY_PREFIX.fullmatch(rule[len("Bash("):-1]) if rule.startswith("Bash(") and rule.endswith(")") else None
    if condition is None or found is None:
        return
    meant = _namespaced(handler, found["prefix"], found["word"])
    if meant is None or permission_rule_matches(condition, {"tool_name": "Bash", "tool_input": {"command": meant}}):
        return
    yield ctx.finding("matcher/if-legacy-prefix", handler.file, handler.keys + ("if",), condition=json.dumps(condition),
                      meant=meant, prefix=found["prefix"], suggestion=json.dumps(f"Bash({found['prefix']}*)"))


PROMPTED_TOOL = "Bash"  # the tool whose allow rules were measured to skip PermissionRequest (2.1.332)
# a regex's blank or word edge, in a script that names a command (`\bgit\s+push`, `git[ ]push`)
REGEX_BLANK = lazy(r"\\s[+*?]?|\[ \][+*?]?|\\ |\\b", needs=("\\s", "[ ]", "\\ ", "\\b"))


@RULES.rule("matcher/never-asked", premise=_on_prompt_event)
def _never_asked(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """A PermissionRequest hook for calls that never ask (Host.prompt_event): an allow rule of a
    file the session reads covers the commands its script guards (or every call of the tools its
    matcher fires for), or the permission mode lets those tools through (acceptEdits: Write, Edit).
    Measured on 2.1.332 (docs/hosts/claude-code.md#permission-rules): the hook ran for no such call."""
    host = hosts.get(handler.file.host)  # (a host with a prompt event: the premise)
    matched = matched_builtins(handler.matcher, BUILTIN_TOOLS, handler.event)
    if not matched:
        return
    settings = sorted((f for f in _one_session(ctx, handler.file) if f.document is not None
                       and isinstance(f.document.data, dict) and isinstance(f.document.data.get("permissions"), dict)),
                      key=lambda f: SCOPE_ORDER.get(f.scope or "", -1))
    modes = [(f, f.document.data["permissions"].get("defaultMode")) for f in settings]  # type: ignore[union-attr]
    file, mode = next(((f, m) for f, m in reversed(modes) if isinstance(m, str)
                       and f.scope in host.prompt_mode_scopes.get(m, {f.scope})), (None, None))
    freed = host.prompt_free_modes.get(mode or "", frozenset())
    if file is not None and matched <= freed:
        yield ctx.finding("matcher/never-asked", file, ("permissions", "defaultMode"), variant="mode", mode=mode,
                          tools=", ".join(sorted(matched)), related=_hook_at(handler))
        return
    command = _freed_command(handler, host.prompt_free_commands.get(mode or "", frozenset())) if file else None
    if file is not None and command is not None:
        yield ctx.finding("matcher/never-asked", file, ("permissions", "defaultMode"), variant="commands", mode=mode,
                          command=command, related=_hook_at(handler))
        return
    launched = _launched(handler, host.prompt_mode_flags) if handler.file.project is not None else None
    keys, at_key = handler_facts.registration(handler)
    if launched is not None and matched <= host.prompt_free_modes.get(launched[3], frozenset()) and not any(
            h.file is handler.file and handler_facts.registration(h)[0] == keys for h in ctx.handlers[:ctx.handlers.index(handler)]):
        path, line, flag, mode = launched
        yield ctx.finding("matcher/never-asked", handler.file, keys, at_key=at_key, variant="launched",
                          flag=flag, mode=mode, place=f"{path.name}:{line}", tools=", ".join(sorted(matched)),
                          related=[{"path": str(path), "line": line, "column": 1, "message": f"the agent started with {flag}"}])
        return
    for file in settings:
        allow = file.document.data["permissions"].get("allow")  # type: ignore[union-attr]
        for index, rule in enumerate(allow if isinstance(allow, list) else []):
            what = _allowed_guard(handler, rule, matched) if isinstance(rule, str) else None
            if what is not None:
                untrusted = rule_tool(rule) == PROMPTED_TOOL and host.allow_rules_wait_for_trust(file.scope, file.project)
                yield ctx.finding("matcher/never-asked", file, ("permissions", "allow", index), rule=json.dumps(rule),
                                  what=what, related=_hook_at(handler), variant="once-trusted" if untrusted else None)
                return


def _freed_command(handler: Handler, commands: frozenset[str]) -> str | None:
    """A command the mode lets through unasked that the hook's script looks for (`rm -rf`), where
    its matcher fires for the shell tool alone."""
    if not commands or matched_builtins(handler.matcher, BUILTIN_TOOLS, handler.event) != {PROMPTED_TOOL}:
        return None
    code = handler_code(handler)
    if code is None or not any(word in code.text for word in commands):
        return None
    text = REGEX_BLANK.sub(" ", code.text)
    found = re.search(r"(?<![\w./-])(" + "|".join(sorted(commands)) + r") +-?[\w*./-]", text)
    return found[0].rstrip("-") if found else None


# the files that say how a project starts its agent, read for a flag that sets its permission mode
LAUNCH_FILES = ("README.md", "README", "CLAUDE.md", "AGENTS.md", "CONTRIBUTING.md", "Makefile", "justfile", "package.json",
                ".devcontainer/devcontainer.json", ".devcontainer/Dockerfile", "Dockerfile", "docker-compose.yml",
                "compose.yaml", ".envrc", "docs/README.md")
NEGATED = lazy(r"(?i)\b(?:never|don'?t|do not|avoid|without|instead of|not|no longer)\b")


def _launched(handler: Handler, flags: dict[str, str]) -> tuple[Path, int, str, str] | None:
    """Where the project says its agent is started with a flag that sets a permission mode
    (`claude --dangerously-skip-permissions` in the README, a Makefile, the devcontainer): the
    file, the line, the flag and the mode; None where no such file says so, or says not to."""
    project = handler.file.project
    if not flags or project is None:
        return None
    firsts = {flag.split()[0].split("=")[0] for flag in flags}
    for name in LAUNCH_FILES:
        raw = safe_read.read_or_none(project / name, safe_read.SCRIPT) if disk.is_file(project / name) else None
        text = raw.decode("utf-8", "replace") if raw else ""
        if not any(first in text for first in firsts):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            spaced = " ".join(line.split())
            for flag, mode in flags.items():
                at = spaced.find(flag)
                if at >= 0 and not spaced[at + len(flag):at + len(flag) + 1].isalnum() and not NEGATED.search(spaced[:at]):
                    return project / name, number, flag, mode
    return None


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


def _one_session(ctx: Context, file: ConfigFile) -> list[ConfigFile]:
    """The file and the others of its host a session that loads it reads with it: the user's and
    the managed ones, and its own project's; none beside a file named on the command line (judged
    alone, as scopes.py judges one)."""
    return [f for f in ctx.files if f is file or f.host == file.host and "given" not in (f.scope, file.scope)
            and (f.scope not in ("project", "local") or f.project == file.project)]


def _allowed_guard(handler: Handler, rule: str, matched: frozenset[str]) -> str | None:
    """What of the hook's calls an allow rule lets through unasked: every call of the tools it fires
    for (`Bash`, `Bash(*)`), or a command its script or its `if` names (`Bash(git push:*)` for a
    script that refuses `git push`); None where the rule leaves it something to ask about."""
    tool = rule_tool(rule)
    if tool != PROMPTED_TOOL or tool not in matched:
        return None
    spec = rule.strip()[len(tool):].strip("()")
    if spec in ("", "*"):
        return f"every {tool} call" if matched == {tool} else None
    words = spec[:-2] if spec.endswith(":*") else spec[:-2] if spec.endswith(" *") else spec
    if "*" in words or len(words.split()) < 2:
        return None  # (one word, `cat` or `uv`, a script runs as often as it looks for it)
    condition = _condition(handler)
    if condition is not None and rule_tool(condition) == tool:
        named = condition.strip()[len(tool):].strip("()").rstrip("* :")
        return f"`{named}` (the command of the hook's \"if\")" if named and (
            named.startswith(words) or words.startswith(named)) else None
    code = handler_code(handler)
    if code is None or words.split()[0] not in code.text:
        return None
    text = REGEX_BLANK.sub(" ", code.text)
    pattern = r"(?<![\w-])" + r" +".join(map(re.escape, words.split())) + r"(?![\w-])"
    return f"`{words}` (a command the hook's script looks for)" if re.search(pattern, text) else None


def _hook_at(handler: Handler) -> list[dict[str, object]]:
    document = handler.file.document
    keys = handler.keys + ("command",) if handler.command is not None else handler.keys
    node = document.node_at(*keys) if document is not None else None
    line, column = document.position(node) if document is not None and node is not None else (1, 1)
    return [{"path": str(handler.file.path), "line": line, "column": column, "message": "the PermissionRequest hook"}]


# `Bash(npm publish)`: a command with no wildcard, the whole rule
EXACT_COMMAND = lazy(r"[ \t]*Bash\((?P<command>[^()*]*[^()*\s:])\)[ \t]*")


@RULES.rule("matcher/if-exact-command", premise=_conditioned)
def _if_exact_command(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"if": "Bash(npm publish)"`: a Bash rule without a wildcard matches that command exactly
    (measured on 2.1.332: it did not fire on `npm publish --access public`, `Bash(npm publish *)`
    and the legacy `Bash(git push:*)` did), so the hook never runs for the command with any
    argument, which is how the calls it aims at come. The rule reader's own verdict decides
    (hooks/firing.py), so a form it reads as a prefix is left alone."""
    condition = _condition(handler)
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


@GROUP_RULES.rule("matcher/plugin-server-bare-name", premise=_names_mcp_tools)
def _plugin_server_bare_name(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`mcp__docs__.*` where `docs` is an MCP server only a plugin brings: Claude Code names its
    tools `mcp__plugin_<plugin>_docs__<tool>` (docs/hosts/claude-code.md#plugin-hooks)."""
    matcher = _tool_matcher(handler)
    if matcher is None or "mcp__" not in matcher:
        return
    for server in dict.fromkeys(named_servers(matcher)):
        scoped = _plugin_scoped(ctx, server)
        if scoped:
            fixed = matcher.replace(f"mcp__{server}__", f"mcp__{scoped}__")
            yield ctx.finding("matcher/plugin-server-bare-name", handler.file, handler.group_keys + ("matcher",),
                              matcher=json.dumps(matcher), server=server, scoped=scoped,
                              suggestion=json.dumps(fixed))


@RULES.rule("matcher/plugin-server-bare-name", premise=_conditioned)
def _plugin_server_bare_name_if(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """`"if": "mcp__docs__search"` where `docs` is a plugin's server: the tool is
    `mcp__plugin_<plugin>_docs__search`, so the `if` names a tool that never comes."""
    condition = _condition(handler)
    tool = rule_tool(condition) if condition is not None else None
    server = tool[len("mcp__"):].partition("__")[0] if tool is not None and tool.startswith("mcp__") else ""
    scoped = _plugin_scoped(ctx, server) if server else None
    if condition is not None and scoped:
        yield ctx.finding("matcher/plugin-server-bare-name", handler.file, handler.keys + ("if",), variant="if",
                          matcher=json.dumps(condition), server=server, scoped=scoped,
                          suggestion=json.dumps(condition.replace(f"mcp__{server}", f"mcp__{scoped}", 1)))


def _plugin_scoped(ctx: Context, server: str) -> str | None:
    """The scoped name (`plugin_<plugin>_<server>`) of a server only a plugin brings, for its bare name."""
    if server in ctx.mcp_servers:
        return None
    return next((name for name in ctx.mcp_servers if name.startswith("plugin_") and name.endswith("_" + server)
                 and len(name) > len("plugin__" + server)), None)
