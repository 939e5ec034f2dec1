"""Matchers: will each group fire for what its author meant, read the way the host reads it?"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Iterator

from ...patterns import lazy
from ..facts import BUILTIN_TOOLS, CLAUDE_EVENTS, NARROW_EXACT_EVENTS, NEWER_THAN_MATCHER_CHANGE, OPEN, TOOL, Event
from ..model import ConfigFile, Context, Finding, Handler, describe
from ..regex.matching import VALUE_NAME, Matcher, can_match_a_name, classify, empty_alternative, js_regex
from ..regex.overlap import named_servers

PERMISSION_RULE = lazy(r"\s*([A-Za-z][A-Za-z0-9_-]*)\((.*)\)\s*")
# what an `if` rule looks like for the tools whose input it can test (permission-rule syntax)
IF_EXAMPLE = {"Bash": "Bash(git *)", "Edit": "Edit(src/**)", "Write": "Write(src/**)", "Read": "Read(src/**)",
              "MultiEdit": "MultiEdit(src/**)", "WebFetch": "WebFetch(domain:example.com)"}
_QUOTED_NAME = lazy(r"""["']([A-Za-z_][\w-]*)\\?["']""")  # the tools an expression names: tool == "Write"
EXPRESSION = lazy(r"==|!=|&&|\|\||\btool(_name|_input)?\b|\bmatches\b|\bin \[")
# what an open matcher is matched against, where those values are names (model names are not)
SERVER_EVENTS = ("Elicitation", "ElicitationResult")  # their matcher is an MCP server's name
OPEN_VALUES = {"SubagentStart": "an agent type", "SubagentStop": "an agent type",
               "Elicitation": "an MCP server name", "ElicitationResult": "an MCP server name",
               "UserPromptExpansion": "a command name"}


def check(ctx: Context) -> Iterator[Finding]:
    builtins = [t for t in ctx.tools if not t.startswith("mcp__")]
    seen: set[tuple[int, tuple]] = set()
    for handler in ctx.handlers:
        if handler.file.document is None:
            continue  # (opencode's plugins: no matcher, the code filters)
        where = (id(handler.file), handler.group_keys)
        if where in seen:
            continue
        seen.add(where)
        group = _value(handler.file, handler.group_keys)
        if not isinstance(group, dict) or "matcher" not in group:
            continue
        keys = handler.group_keys + ("matcher",)
        raw = group["matcher"]
        if not isinstance(raw, str):
            yield ctx.finding("matcher/not-string", handler.file, keys, found=describe(raw))
        elif handler.file.host == "cursor":
            yield from _cursor(ctx, handler, raw, keys)
        elif handler.file.host == "claude":
            event = CLAUDE_EVENTS.get(handler.event)
            # FileChanged turns its matcher into a list of files to watch, not a filter: not judged here
            if event is not None and event.matcher is not None and event.name != "FileChanged":
                yield from _claude(ctx, handler.file, event, raw, keys, builtins)


def _value(file: ConfigFile, keys: tuple) -> Any:
    value = file.document.data
    for key in keys:
        value = value[key]
    return value


def _claude(ctx: Context, file: ConfigFile, event: Event, raw: str, keys: tuple,
            builtins: list[str]) -> Iterator[Finding]:
    matcher = classify(raw, event.name)
    shown = json.dumps(raw)
    if event.matcher == TOOL or event.name in SERVER_EVENTS:
        yield from _server_case(ctx, file, event, raw, shown, keys)
    if matcher.kind == "exact":
        yield from _exact(ctx, file, event, matcher, shown, keys, builtins)
    elif matcher.kind == "regex":
        yield from _regex(ctx, file, event, matcher, shown, keys, builtins)


def _exact(ctx: Context, file: ConfigFile, event: Event, matcher: Matcher, shown: str, keys: tuple,
           builtins: list[str]) -> Iterator[Finding]:
    raw = matcher.text
    closed = isinstance(event.matcher, frozenset)  # a value outside the set is unknown-value's business
    if event.name not in NARROW_EXACT_EVENTS | NEWER_THAN_MATCHER_CHANGE and ("," in raw or "-" in raw) and not (
            closed and not set(matcher.names) <= event.matcher):
        what = " and ".join(w for c, w in ((",", "a comma"), ("-", "a hyphen")) if c in raw)
        yield ctx.finding("matcher/needs-recent-host", file, keys, matcher=shown, what=what,
                          version="2.1.195" if "-" in raw else "2.1.191")
    if event.matcher == OPEN:
        return
    known = builtins if event.matcher == TOOL else _values(event.matcher)
    by_case = _by_case(tuple(known))
    wrong_case = [(name, by_case[name.lower()]) for name in matcher.names
                  if name not in known and name.lower() in by_case and by_case[name.lower()] not in matcher.names]
    if wrong_case:
        fixed = {name: right for name, right in wrong_case}
        suggestion = json.dumps("|".join(fixed.get(name, name) for name in matcher.names))
        wanted = ", ".join(f"{right} (it says {name})" for name, right in wrong_case)
        yield ctx.finding("matcher/case-mismatch", file, keys, matcher=shown, wanted=wanted, suggestion=suggestion)
    if event.matcher == TOOL:
        typos = {name: _close_tool(name, tuple(known)) for name in matcher.names
                 if name not in known and name.lower() not in by_case and not name.startswith("mcp__")}
        typos = {name: close for name, close in typos.items() if close}
        if typos:
            suggestion = json.dumps("|".join(typos.get(name, name) for name in matcher.names))
            yield ctx.finding("matcher/tool-typo", file, keys, matcher=shown, suggestion=suggestion,
                              names=", ".join(f"{name} (did you mean {close}?)" for name, close in typos.items()))
        servers = ctx.servers_by_case
        for name in matcher.names:
            if name.startswith("mcp__") and not name[5:].partition("__")[2]:
                server = name[5:].rstrip("_")
                pattern = f"mcp__{servers.get(server.lower(), server)}__.*"  # in the configured server's case
                yield ctx.finding("matcher/mcp-no-tool", file, keys, name=name, pattern=pattern)
        return
    unknown = [name for name in matcher.names if name not in known and name.lower() not in by_case]
    if unknown:
        yield ctx.finding("matcher/unknown-value", file, keys, matcher=shown,
                          unknown=", ".join(map(json.dumps, unknown)), event=event.name, values=", ".join(known))


def _server_case(ctx: Context, file: ConfigFile, event: Event, raw: str, shown: str, keys: tuple) -> Iterator[Finding]:
    """`mcp__Linear__.*` where the project's MCP server is `linear` (or `Linear` on an event that
    matches server names): names keep the server's own case, and matching is case-sensitive."""
    by_case = ctx.servers_by_case
    named = named_servers(raw) if event.matcher == TOOL else classify(raw, event.name).names
    wrong = {name: by_case[name.lower()] for name in named if name not in ctx.mcp_servers and name.lower() in by_case}
    if wrong:
        fixed = raw
        for name, right in wrong.items():
            fixed = (fixed.replace(f"mcp__{name}__", f"mcp__{right}__") if event.matcher == TOOL
                     else "|".join(right if part.strip() == name else part for part in fixed.split("|")))
        what = "the tools of MCP server" if event.matcher == TOOL else "MCP server"
        wanted = ", ".join(f"{what} {right} (it says {name})" for name, right in wrong.items())
        yield ctx.finding("matcher/case-mismatch", file, keys, matcher=shown, wanted=wanted, suggestion=json.dumps(fixed))


@lru_cache(maxsize=1024)
def _close_tool(name: str, tools: tuple[str, ...]) -> str | None:
    """The built-in tool a name is a misspelling of: one edit away (two for names of eight
    letters or more); names under four letters are too easily close to something."""
    if len(name) < 4:
        return None
    limit = 2 if len(name) >= 8 else 1
    return next((tool for tool in tools if abs(len(tool) - len(name)) <= limit and _edits(name, tool, limit) <= limit),
                None)


def _edits(a: str, b: str, limit: int) -> int:
    """Levenshtein distance of a and b (with swapped neighbours as one edit), or limit + 1."""
    previous, current = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        before, previous, current = previous, current, [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
    return current[-1]


@lru_cache(maxsize=64)
def _values(values: frozenset) -> list[str]:
    return sorted(values)


@lru_cache(maxsize=64)
def _by_case(names: tuple[str, ...]) -> dict[str, str]:
    return {name.lower(): name for name in names}


def _regex(ctx: Context, file: ConfigFile, event: Event, matcher: Matcher, shown: str, keys: tuple,
           builtins: list[str]) -> Iterator[Finding]:
    rule = PERMISSION_RULE.fullmatch(matcher.text)
    if rule and event.matcher == TOOL:
        yield ctx.finding("matcher/permission-rule", file, keys, matcher=shown, tool=rule[1],
                          rule=matcher.text.strip())
        return
    yield from _syntax(ctx, file, matcher, shown, keys)
    if matcher.pattern is None:
        return
    what = "tool" if event.matcher == TOOL else OPEN_VALUES.get(event.name, "value").split(" ", 1)[-1]
    expression = EXPRESSION.search(matcher.text)
    if empty_alternative(matcher.text):
        hint = ('matchers are name patterns, not expressions: write the names with single bars, e.g. "Edit|Write"'
                if expression else 'remove the extra "|"')
        yield ctx.finding("matcher/empty-alternative", file, keys, matcher=shown, what=what, hint=hint)
        return
    if event.matcher == OPEN:
        if event.name in OPEN_VALUES and not can_match_a_name(matcher.pattern.pattern, VALUE_NAME):
            yield _nothing(ctx, file, shown, keys, OPEN_VALUES[event.name], expression)
        return
    known = builtins if event.matcher == TOOL else _values(event.matcher)
    if any(matcher.pattern.search(name) for name in known):
        return
    folded = re.compile(matcher.pattern.pattern, matcher.pattern.flags | re.IGNORECASE)
    near = [name for name in known if folded.search(name)]
    if near and "mcp" not in matcher.text.lower():
        yield ctx.finding("matcher/case-mismatch", file, keys, matcher=shown, wanted=", ".join(near[:4]),
                          suggestion="the names in their exact case, e.g. " + json.dumps(near[0]))
    elif event.matcher == TOOL and not can_match_a_name(matcher.pattern.pattern):
        yield _nothing(ctx, file, shown, keys, "a tool name", expression)
    elif event.matcher != TOOL:
        yield ctx.finding("matcher/unknown-value", file, keys, matcher=shown, unknown="any value",
                          event=event.name, values=", ".join(known))


def _nothing(ctx: Context, file: ConfigFile, shown: str, keys: tuple, what: str, expression: Any) -> Finding:
    if expression:
        detail = " (it is an expression, not a name pattern)"
        named = [name for name in dict.fromkeys(_QUOTED_NAME.findall(shown))
                 if name in BUILTIN_TOOLS or name.startswith("mcp__")]
        example = IF_EXAMPLE.get(named[0] if named else "Bash")
        hint = (f'match by name ("matcher": "{"|".join(named) or "Bash"}") and put input conditions in the '
                f'handler\'s "if"{f" (e.g. {json.dumps(example)})" if example else ""} or in the script')
    else:
        detail = " (it needs characters that no such name has)"
        hint = 'write the names, e.g. "Edit|Write", or a regex over them'
    return ctx.finding("matcher/matches-nothing", file, keys, matcher=shown, what=what, detail=detail, hint=hint)


def _syntax(ctx: Context, file: ConfigFile, matcher: Matcher, shown: str, keys: tuple) -> Iterator[Finding]:
    if matcher.dialect:
        yield ctx.finding("matcher/not-javascript", file, keys, matcher=shown, constructs="; ".join(matcher.dialect))
    elif matcher.error:
        yield ctx.finding("matcher/invalid-regex", file, keys, matcher=shown, error=matcher.error)


def _cursor(ctx: Context, handler: Handler, raw: str, keys: tuple) -> Iterator[Finding]:
    """Cursor's matcher semantics are not documented beyond "a regex-style string": only check
    that it is one."""
    if raw.strip() in ("", "*"):
        return
    translated = js_regex(raw)
    matcher = Matcher(raw, "regex", pattern=translated.pattern, error=translated.error,
                      dialect=tuple(translated.dialect))
    yield from _syntax(ctx, handler.file, matcher, json.dumps(raw), keys)
