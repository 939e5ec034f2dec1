"""Matchers: will each group fire for what its author meant, read the way the host reads it?"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Callable, Iterator

from ... import hosts
from ...document import Keys
from ...hooks.events import (
    BUILTIN_TOOLS,
    NARROW_EXACT_EVENTS,
    NEWER_THAN_MATCHER_CHANGE,
    OPEN,
    TOOL,
    Event,
)
from ...hooks.regex import VALUE_NAME, Matcher, can_match_a_name, classify, empty_alternative, js_regex, named_servers
from ...hosts.base import Host
from ...hosts.cursor.protocol import CLAUDE_TOOLS_OF_TYPE
from ...patterns import joins, lazy
from ...records import Record
from .. import disk, handler_facts
from ..model import ConfigFile, Context, Finding, Handler, RuleTable, cached_property, describe
from ..scripts import intent

# a tool name and its specifier, `Bash(git push:*)`; not a group after a name: `Bash(?=...)`, nor after an MCP
# name or a name ending in `_` (`mcp__srv__(a|b)` matches mcp__srv__a: MCP rules take no specifier)
PERMISSION_RULE = lazy(r"\s*(?![Mm][Cc][Pp]__)([A-Za-z][A-Za-z0-9_-]*(?<!_))\((?!\?)(.*)\)\s*", needs=(")",))
# what an `if` rule looks like for the tools whose input it can test (permission-rule syntax)
IF_EXAMPLE = {"Bash": "Bash(git *)", "Edit": "Edit(src/**)", "Write": "Write(src/**)", "Read": "Read(src/**)",
              "MultiEdit": "MultiEdit(src/**)", "WebFetch": "WebFetch(domain:example.com)"}
_QUOTED_NAME = lazy(r"""["']([A-Za-z_][\w-]*)\\?["']""")  # the tools an expression names: tool == "Write"
EXPRESSION = lazy(r"==|!=|&&|\|\||\btool(_name|_input)?\b|\bmatches\b|\bin \[",
                  needs=("==", "!=", "&&", "||", "tool", "matches", "in ["))
# what an open matcher is matched against, where those values are names (model names are not)
SERVER_EVENTS = ("Elicitation", "ElicitationResult")  # their matcher is an MCP server's name
OPEN_VALUES = {"SubagentStart": "an agent type", "SubagentStop": "an agent type",
               "Elicitation": "an MCP server name", "ElicitationResult": "an MCP server name",
               "UserPromptExpansion": "a command name"}
# in one entry of a FileChanged matcher: a glob's `*` (not a regex's `.*`, `)*`, `]*` or `\*`) or `{a,b}`,
# in an entry without a regex's anchors, escapes, groups or `+`
FILE_GLOB = lazy(r"(?<![.)\]\\])\*|\{[^{}|]*,[^{}|]*\}")
REGEX_ONLY = lazy(r"[$^\\()+]|\.\*")
# `Mcp__fs__.*`, `MCP__.*`: the MCP prefix in another case (tool names start with `mcp__`)
MISCASED_MCP = lazy(r"(?<![A-Za-z0-9_])(?!mcp__)[Mm][Cc][Pp]__", needs=("__",))
FILE_PATH = lazy(r"[\w.~/-]*/[\w.~-]+")  # a file's path with a folder, written plainly
# a sign of a file's path or name in one alternative of a tool event's matcher: a folder (`src/`), a
# glob (`*.ts`, `**`), an extension at the end (`\.env$`, `.py`), a dot file (`.env`); no tool name has one
FILE_SIGN = lazy(r"/|\*\*|(?:^|[^.)\]\\])\*\.|\\?\.\(?[A-Za-z][A-Za-z0-9|]{0,30}\)?\$?$|^\^?\\?\.[A-Za-z]")
# a matcher written as a glob: names, `_`, `-`, `|` and `*` only, with a `*` after a name's character


class Judged(Record):
    """A matcher the Claude Code rules read: a string, on a Claude Code event whose matcher filters."""

    event: Event
    text: str


class MatcherAt:
    """One matcher group's "matcher", as every matcher rule reads it."""

    def __init__(self, ctx: Context, file: ConfigFile, host: str, event: Event | None, raw: Any, keys: Keys,
                 builtins: list[str], watches: bool = False, event_name: str = "") -> None:
        self.ctx = ctx
        self.file = file
        self.host = host
        self.event_name = event_name  # the event of its group, whichever host
        self.event = event  # Claude Code's event, when it has a matcher the rules of names judge (not FileChanged's)
        self.watches = watches  # FileChanged's: the files to watch, and a pattern their names must match
        self.raw = raw  # as written
        self.keys = keys  # where it is
        self.builtins = builtins  # the built-in tools here (the context's tools but MCP ones)

    @property
    def shown(self) -> str:
        return json.dumps(self.raw)

    @cached_property
    def judged(self) -> Judged | None:
        """The matcher and its event, where the Claude Code rules read it; None where they do not."""
        if isinstance(self.raw, str) and self.event is not None:
            return Judged(self.event, self.raw)
        return None

    @cached_property
    def matcher(self) -> Matcher:
        """How the host reads it: Claude Code's classification (on its event, where it has one), or
        Cursor's regex."""
        if _js_regex_matchers(self.host):
            translated = js_regex(self.raw)
            return Matcher(self.raw, "regex", pattern=translated.pattern, error=translated.error,
                           dialect=tuple(translated.dialect))
        return classify(self.raw, self.event.name) if self.event is not None else classify(self.raw)

    @cached_property
    def file_entries(self) -> list[str]:
        """A FileChanged matcher's `|`-separated entries, each a file to watch (none for any other)."""
        if not self.watches or not isinstance(self.raw, str) or classify(self.raw).kind == "all":
            return []  # ("*": the hook runs for whatever other groups and hooks' watchPaths watch)
        return [entry.strip() for entry in self.raw.split("|")]

    @cached_property
    def known(self) -> list[str]:
        """The values it is matched against: the event's closed set, or the built-in tools."""
        values = self.event.matcher if self.event is not None else None
        return _values(values) if isinstance(values, frozenset) else self.builtins

    @cached_property
    def known_by_case(self) -> dict[str, str]:
        """The known values by their lower case."""
        return _by_case(tuple(self.known))

    @cached_property
    def regex_verdict(self) -> tuple[str, dict[str, str]] | None:
        """The one rule a Claude Code regex matcher ends with (worked out once, for the five rules)."""
        judged = self.judged
        return _regex_verdict(self, judged) if judged is not None and self.matcher.kind == "regex" else None

    def finding(self, rule_id: str, **params: Any) -> Finding:
        return self.ctx.finding(rule_id, self.file, self.keys, **params)


def _regex_verdict(at: MatcherAt, judged: Judged) -> tuple[str, dict[str, str]] | None:
    """Which one rule a Claude Code regex matcher ends with, past its syntax (not-javascript,
    invalid-regex), and what it says: at most one of permission-rule, empty-alternative,
    matches-nothing, case-mismatch and unknown-value."""
    matcher, (event, text), shown = at.matcher, judged, at.shown
    rule = PERMISSION_RULE.fullmatch(text)
    if rule and event.matcher == TOOL:
        return "matcher/permission-rule", {"matcher": shown, "tool": rule[1], "rule": text.strip()}
    if matcher.pattern is None:
        return None
    what = "tool" if event.matcher == TOOL else OPEN_VALUES.get(event.name, "value").split(" ", 1)[-1]
    expression = EXPRESSION.search(text)
    if empty_alternative(text):
        hint = ('matchers are name patterns, not expressions: write the names with single bars, e.g. "Edit|Write"'
                if expression else 'remove the extra "|"')
        return "matcher/empty-alternative", {"matcher": shown, "what": what, "hint": hint}
    if event.matcher == OPEN:
        if event.name in OPEN_VALUES and not can_match_a_name(matcher.pattern, VALUE_NAME):
            return "matcher/matches-nothing", _nothing(shown, OPEN_VALUES[event.name], expression)
        return None
    known = at.known
    if any(matcher.pattern.search(name) for name in known) or matcher.undecided:
        return None
    if event.matcher == TOOL and not expression and file_pattern(text):
        return "matcher/file-pattern", {"matcher": shown}
    near = [name for name in known if matcher.pattern.search_ignoring_case(name)]
    if near and "mcp" not in text.lower() and not matcher.pattern.folded().undecided:
        return "matcher/case-mismatch", {"matcher": shown, "wanted": ", ".join(near[:4]),
                                         "suggestion": "the names in their exact case, e.g. " + json.dumps(near[0])}
    if event.matcher == TOOL and not can_match_a_name(matcher.pattern):
        return "matcher/matches-nothing", _nothing(shown, "a tool name", expression)
    if event.matcher != TOOL:
        return "matcher/unknown-value", {"matcher": shown, "unknown": "any value", "event": event.name,
                                         "values": ", ".join(known)}
    return None


RULES = RuleTable()  # the matcher rules, one function each, in the order they run


def _js_regex_matchers(name: str) -> bool:
    host = hosts.of(name)
    return host is not None and host.js_regex_matchers


def check(ctx: Context) -> Iterator[Finding]:
    builtins = [t for t in ctx.tools if not t.startswith("mcp__")]
    seen: set[tuple[int, Keys]] = set()
    for handler in ctx.handlers:
        document = handler.file.document
        if document is None:
            continue  # (opencode's plugins: no matcher, the code filters)
        where = (id(handler.file), handler.group_keys)
        if where in seen:
            continue
        seen.add(where)
        group = _value(document.data, handler.group_keys)
        if not isinstance(group, dict) or "matcher" not in group:
            continue
        host = hosts.of(handler.file.host)
        event = host.matcher_events.get(handler.event) if host is not None else None
        # FileChanged's matcher is a list of files to watch and a pattern for their names: the file-changed rules'
        watches = event is not None and event.name == "FileChanged"
        if event is not None and (event.matcher is None or watches):
            event = None
        yield from RULES.run(MatcherAt(ctx, handler.file, handler.file.host, event, group["matcher"],
                                       handler.group_keys + ("matcher",), builtins, watches, handler.event))


def _value(data: Any, keys: Keys) -> Any:
    """The value at `keys` in a document's data (a handler's group: the walk found it there)."""
    for key in keys:
        data = data[key]
    return data


# premises of rules that few matchers concern (RuleTable.rule's `premise`): each rule called for each
# of the corpus tree's 948 matchers found nothing in nearly all
def _host_renames_tools(at: MatcherAt) -> bool:
    host = hosts.of(at.host)
    return host is not None and bool(host.tool_renames)


def _starred(at: MatcherAt) -> bool:
    return isinstance(at.raw, str) and "*" in at.raw


def _names_mcp_tools(at: MatcherAt) -> bool:
    return isinstance(at.raw, str) and "mcp__" in at.raw


def _claude_regex(at: MatcherAt) -> bool:
    """A regex matcher the Claude Code rules read (file-pattern's: a glob that is no regex, or a regex's verdict)."""
    return at.judged is not None and at.matcher.kind == "regex"


def _on_an_event_of_set_values(at: MatcherAt) -> bool:
    """A Claude Code event whose values are a closed set (unknown-value's: a tool event's and an
    open event's regex ends with another rule's verdict)."""
    return at.judged is not None and at.judged.event.matcher not in (OPEN, TOOL)


def _comma_or_hyphen(at: MatcherAt) -> bool:
    """needs-recent-host's: names with a comma or a hyphen, which older hosts read as a regex."""
    return isinstance(at.raw, str) and ("," in at.raw or "-" in at.raw)


def _parenthesised(at: MatcherAt) -> bool:
    """permission-rule's: a `)`, which every permission rule's match holds (PERMISSION_RULE)."""
    return isinstance(at.raw, str) and ")" in at.raw


def _on_an_event_of_set_tools(at: MatcherAt) -> bool:
    """An event whose calls all carry names of a set the host fixes (Host.event_tools)."""
    host = hosts.of(at.host)
    return host is not None and at.event_name in host.event_tools


@RULES.rule("matcher/tool-renamed", premise=_host_renames_tools)
def _tool_renamed(at: MatcherAt) -> Iterator[Finding]:
    """A tool name the host's hooks never see: the model's name of a tool they see by another
    (Codex's `exec_command`, seen as `Bash`), or one of their names in another case, where the
    matcher does not also select the name they see (Host.tool_renames)."""
    host = hosts.get(at.host)  # (a host that renames tools: the premise)
    raw = at.raw
    if at.event_name not in host.tool_events or not isinstance(raw, str):
        return
    seen_as = {**{name.lower(): name for name in host.hook_tool_names}, **host.tool_renames}
    selects: Callable[[str], bool]
    if re.fullmatch(host.exact_name_matcher, raw):
        names = [name for name in raw.split("|") if name]
        selects = lambda name: name in names  # noqa: E731
        wrong = [name for name in names if name in host.tool_renames
                 or (name not in host.hook_tool_names and name.lower() in seen_as)]
    else:
        try:
            pattern = re.compile(raw)
        except re.error:
            return  # (its syntax has rules of its own)
        selects = lambda name: pattern.search(name) is not None  # noqa: E731
        wrong = [name for name in host.tool_renames if selects(name)]
    for name in wrong:
        meant = seen_as.get(name) or seen_as[name.lower()]
        if not selects(meant):
            yield at.ctx.finding("matcher/tool-renamed", at.file, at.keys,
                                 variant=None if name in host.tool_renames else "case", matcher=at.shown,
                                 name=json.dumps(name), seen=json.dumps(meant), host=host.title)
            return


def _not_text(at: MatcherAt) -> bool:
    return not isinstance(at.raw, str)


@RULES.rule("matcher/not-string", premise=_not_text)
def _not_string(at: MatcherAt) -> Iterator[Finding]:
    if not isinstance(at.raw, str):
        yield at.finding("matcher/not-string", found=describe(at.raw))


def _syntax_checked(at: MatcherAt) -> bool:
    """Its regex syntax is judged: every Cursor matcher but "" and "*" (Cursor documents no more
    than "a regex-style string"), and Claude Code's regex matchers that are not permission rules."""
    if not isinstance(at.raw, str):
        return False
    if _js_regex_matchers(at.host):
        return at.raw.strip() not in ("", "*")
    judged = at.judged
    return judged is not None and at.matcher.kind == "regex" and not (
        judged.event.matcher == TOOL and PERMISSION_RULE.fullmatch(judged.text))


def _regex_judged(at: MatcherAt) -> bool:
    """A Claude Code regex matcher ends with one rule's finding (the premise of the rules that say only that)."""
    return at.regex_verdict is not None


def _watches_files(at: MatcherAt) -> bool:
    """A FileChanged matcher with files to watch (the premise of the file-changed rules)."""
    return bool(at.file_entries)


@RULES.rule("matcher/not-javascript", premise=_syntax_checked)
def _not_javascript(at: MatcherAt) -> Iterator[Finding]:
    if at.matcher.dialect:
        yield at.finding("matcher/not-javascript", matcher=at.shown, constructs="; ".join(at.matcher.dialect))


@RULES.rule("matcher/invalid-regex", premise=_syntax_checked)
def _invalid_regex(at: MatcherAt) -> Iterator[Finding]:
    if not at.matcher.dialect and at.matcher.error and not _file_glob(at):
        yield at.finding("matcher/invalid-regex", matcher=at.shown, error=at.matcher.error)


@RULES.rule("matcher/file-pattern", premise=_claude_regex)
def _file_pattern(at: MatcherAt) -> Iterator[Finding]:
    """A tool event's matcher written for files (`\\.env$|secrets/`, `*.ts`, `src/**`): it is tested
    against the tool's name, which none of its alternatives can be, so the group never fires.
    A glob that is no regex at all (`*.ts`) is said here rather than as an invalid regex."""
    if _file_glob(at):
        yield at.finding("matcher/file-pattern", matcher=at.shown)
    yield from _regex_rule(at, "matcher/file-pattern")


def _file_glob(at: MatcherAt) -> bool:
    """A Claude Code tool event's matcher that does not compile as a regex and reads as a file pattern."""
    judged = at.judged
    return judged is not None and judged.event.matcher == TOOL and at.matcher.kind == "regex" \
        and at.matcher.pattern is None and not at.matcher.dialect and file_pattern(judged.text)


def file_pattern(text: str) -> bool:
    """Whether a matcher reads as a pattern of files: each of its top-level alternatives has the
    sign of a path or a file's name, and none names an MCP tool."""
    alternatives = _top_level_alternatives(text)
    return "mcp" not in text.lower() and not EXPRESSION.search(text) and all(FILE_SIGN.search(part.strip()) for part in alternatives if part.strip())


def _top_level_alternatives(text: str) -> list[str]:
    """A regex's `|`-separated alternatives outside its groups and sets (`\\.(ts|tsx)$` is one)."""
    parts, depth, start, at = [], 0, 0, 0
    while at < len(text):
        char = text[at]
        if char == "\\":
            at += 2
            continue
        if char in "([":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
        elif char == "|" and not depth:
            parts.append(text[start:at])
            start = at + 1
        at += 1
    return parts + [text[start:]]


@RULES.rule("matcher/tool-glob", premise=_starred)
def _tool_glob(at: MatcherAt) -> Iterator[Finding]:
    """`mcp__*__delete*`: a glob where Claude Code reads a JavaScript regex, in which `*` repeats
    the character before it (measured on 2.1.332, docs/hosts/claude-code.md#matchers). Said where
    the regex matches none of the names the glob stands for: the built-in tools it covers, and a
    name for each configured MCP server with each `*` filled in."""
    judged = at.judged
    if judged is None or judged.event.matcher != TOOL or at.matcher.kind != "regex" or "*" not in judged.text:
        return
    text, pattern = judged.text.strip(), at.matcher.pattern
    if pattern is None or at.matcher.undecided or not _glob_of_names(text):
        return
    fillers = [name for name in at.ctx.mcp_servers if "__" not in name] + ["x"]
    for part in (part.strip() for part in text.split("|") if "*" in part):
        glob = re.compile(".*".join(map(re.escape, part.split("*"))))
        meant = {name: name for name in at.known if glob.fullmatch(name)}  # (made up: the first `*` a server's name)
        meant.update({made.replace("*", "x"): made.replace("*", "…") for filler in fillers
                      for made in [part.replace("*", filler, 1)]})
        if not any(pattern.search(name) for name in meant):
            suggestion = "|".join(GLOB_STAR.sub(".*", part.strip()) for part in text.split("|") if part.strip())
            yield at.finding("matcher/tool-glob", matcher=at.shown, meant=next(iter(meant.values())),
                             suggestion=json.dumps(suggestion))
            return


GLOB_STAR = lazy(r"(?<=[\w-])\*")  # a glob's `*`, after a name's character


@RULES.rule("matcher/server-near-name", premise=_names_mcp_tools)
def _server_near_name(at: MatcherAt) -> Iterator[Finding]:
    """`mcp__linear__.*` where the configured server is `linear-server`: the tools carry the
    server's whole name (measured on 2.1.332, docs/hosts/claude-code.md#matchers), so a matcher
    naming a server nobody configured, beside one whose name holds it (or that it holds) as a word,
    never fires for the tools it aims at. Case and `-`/`_` alone are case-mismatch's."""
    judged = at.judged
    servers = at.ctx.mcp_servers
    if judged is None or judged.event.matcher != TOOL or not servers or "mcp__" not in judged.text:
        return
    by_spelling = _servers_by_spelling(tuple(servers))
    for name in dict.fromkeys(named_servers(judged.text)):
        if name in servers or _spelling(name) in by_spelling or name.startswith("plugin_"):
            continue  # (a plugin's server by its scoped name: the plugin is elsewhere, or plugin-server-bare-name's)
        near = _near_server(_spelling(name), tuple(servers))
        if near is not None and f"mcp__{near}__" not in judged.text:  # (it names both: both are meant)
            fixed = judged.text.replace(f"mcp__{name}__", f"mcp__{near}__")
            yield at.finding("matcher/server-near-name", matcher=at.shown, server=name, near=near,
                             suggestion=json.dumps(fixed))
            return


@lru_cache(maxsize=256)
def _near_server(spelt: str, servers: tuple[str, ...]) -> str | None:
    """The one configured server (not a plugin's: plugin-server-bare-name's) whose name is the
    given one with a word before or after it (`linear` and `linear-server`, `mcp-linear`), or the
    reverse where the words are a package's (`docs-server` for `docs`): `graphiti-memory` beside a
    configured `memory` is most often another server."""
    near = [server for server in servers if not server.startswith("plugin_")
            for own in [_spelling(server)] if own.startswith(spelt + "_") or own.endswith("_" + spelt)
            or _package_words(spelt, own)]
    return near[0] if len(near) == 1 else None


# the words a package's name wraps a server's in (`docs-server`, `mcp-docs`, `server-github` of
# @modelcontextprotocol/server-github) and a project's .mcp.json leaves out of the server's name
PACKAGE_WORDS = frozenset({"mcp", "server", "srv", "service"})


def _package_words(spelt: str, own: str) -> bool:
    """The matcher's server is the configured one's name with package words around it alone."""
    if spelt == own or own not in spelt:
        return False
    before, _, after = spelt.partition(own)
    words = [word for word in (before + "_" + after).split("_") if word]
    return bool(words) and before[-1:] in ("", "_") and after[:1] in ("", "_") and set(words) <= PACKAGE_WORDS


@RULES.rule("matcher/event-tool-never-sent", premise=_on_an_event_of_set_tools)
def _event_tool_never_sent(at: MatcherAt) -> Iterator[Finding]:
    """A matcher on an event whose calls all carry one tool name (Host.event_tools: a skill's
    shell line comes to PreSkillShellCommand as `Bash`, measured on 2.1.332) that can never match
    that name: the skill's name, `Read`. The group never fires."""
    host = hosts.of(at.host)
    sent = host.event_tools.get(at.event_name) if host is not None else None
    if not sent or at.judged is None:
        return
    matcher = at.matcher
    if matcher.kind == "all" or (
            matcher.kind == "regex" and (matcher.pattern is None or matcher.undecided)):
        return
    if any(matcher.matches(tool) for tool in sent):
        return
    project = at.file.project
    skills = [name for name in matcher.names if project is not None
              and disk.is_file(project / ".claude" / "skills" / name / "SKILL.md")]
    yield at.finding("matcher/event-tool-never-sent", variant="skill" if skills else None, matcher=at.shown,
                     event=at.event_name, sent=", ".join(sorted(sent)), skill=skills[0] if skills else "",
                     suggestion=json.dumps(sorted(sent)[0]))


# a skill's shell line: `!` and a command in backticks (docs/hosts/claude-code.md#preskillshellcommand)
SKILL_SHELL_LINE = lazy(r"!`[^`\n]+`", needs=("!`",))


@RULES.rule("matcher/guard-misses-skill-lines")
def _guard_misses_skill_lines(at: MatcherAt) -> Iterator[Finding]:
    """A guard of the shell on a tool event (PreToolUse `Bash`) in a project whose skills run shell
    lines, which come to another event (Host.skill_shell_event, measured on 2.1.332: a PreToolUse
    deny-everything `Bash` hook let a skill's line run), where no hook of the session guards that
    event: the lines the skill runs never meet the guard. At the guard's matcher."""
    host = hosts.of(at.host)
    if host is None or host.skill_shell_event is None:
        return
    event = host.skill_shell_event
    if at.event_name == event or at.event_name not in host.guard_events or at.judged is None:
        return
    shell = host.event_tools.get(event, frozenset())
    if not any(at.matcher.matches(tool) for tool in shell):
        return
    if any(_fires_on(h.matcher, shell, event) for h in at.ctx.once(_handlers_by_event).get(event, ())):
        return
    lines = at.ctx.once(_skill_shell_lines)  # (per host and project: each of a project's guards asked the disk again)
    key = (host.name, at.file.project)
    line = lines[key] if key in lines else lines.setdefault(key, _skill_shell_line(host, at.file.project))
    if line is None:  # (asked before the refusal: reading a guard's script is the dear part, and few projects have skills)
        return
    handlers = at.ctx.once(_handlers_by_group).get((id(at.file), at.keys[:3]), ())
    refusal = next((said for h in handlers if (said := handler_facts.refusal(h)) is not None), None)
    if refusal is not None:
        path, number, text = line
        yield at.finding("matcher/guard-misses-skill-lines", matcher=at.shown, event=at.event_name, skill=path.parent.name,
                         line=text, shell_event=event, tool=sorted(shell)[0], refusal=refusal,
                         related=[{"path": str(path), "line": number, "column": 1,
                                   "message": "a shell line the guard never sees"}])


def _handlers_by_group(ctx: Context) -> dict[tuple[int, Keys], list[Handler]]:
    """The run's handlers by file and group (asked for each matcher: a scan of the run's handlers
    for each was matchers times handlers, a second of the corpus tree four times over)."""
    groups: dict[tuple[int, Keys], list[Handler]] = {}
    for handler in ctx.handlers:
        groups.setdefault((id(handler.file), handler.keys[:3]), []).append(handler)
    return groups


def _handlers_by_event(ctx: Context) -> dict[str, list[Handler]]:
    events: dict[str, list[Handler]] = {}
    for handler in ctx.handlers:
        events.setdefault(handler.event, []).append(handler)
    return events


def _fires_on(matcher: Any, tools: frozenset[str], event: str) -> bool:
    """Whether a group's matcher on the event fires for one of these tools (none, "" and "*": all)."""
    if matcher is None or matcher in ("", "*"):
        return True
    return isinstance(matcher, str) and any(classify(matcher, event).matches(tool) for tool in tools)


def _skill_shell_lines(ctx: Context) -> dict[tuple[str, Any], tuple[Any, int, str] | None]:
    """_skill_shell_line by host and project, filled as the run asks: a run's skills stay as they are."""
    return {}


def _skill_shell_line(host: Host, project: Any) -> tuple[Any, int, str] | None:
    """The first shell line of a skill a session in the project reads: (its SKILL.md, line, text)."""
    for path in host.skill_files(project):
        text = intent.text_of(path) if disk.is_file(path) else ""
        found = SKILL_SHELL_LINE.search(text) if text else None
        if found:
            return path, text.count("\n", 0, found.start()) + 1, found.group(0)
    return None


@RULES.rule("matcher/needs-recent-host", premise=_comma_or_hyphen)
def _needs_recent_host(at: MatcherAt) -> Iterator[Finding]:
    judged = at.judged
    if judged is None or at.matcher.kind != "exact":
        return
    event, raw = judged
    values = event.matcher  # (a closed set's value outside the set is unknown-value's business)
    if event.name not in NARROW_EXACT_EVENTS | NEWER_THAN_MATCHER_CHANGE and ("," in raw or "-" in raw) and not (
            isinstance(values, frozenset) and not set(at.matcher.names) <= values):
        what = " and ".join(w for c, w in ((",", "a comma"), ("-", "a hyphen")) if c in raw)
        yield at.finding("matcher/needs-recent-host", matcher=at.shown, what=what,
                         version="2.1.195" if "-" in raw else "2.1.191")


@RULES.rule("matcher/case-mismatch")
def _case_mismatch(at: MatcherAt) -> Iterator[Finding]:
    """A name in the wrong case: an MCP server's, a tool's or an event value's, or a regex that
    matches the names only with their case ignored."""
    judged = at.judged
    if judged is None:
        return
    event = judged.event
    if event.matcher == TOOL or event.name in SERVER_EVENTS:
        yield from _server_case(at, judged)
    if event.matcher == TOOL:
        yield from _mcp_prefix_case(at, judged.text)
    if at.matcher.kind == "exact" and event.matcher != OPEN:
        known, by_case = at.known, at.known_by_case
        names = at.matcher.names
        wrong_case = [(name, by_case[name.lower()]) for name in names
                      if name not in known and name.lower() in by_case and by_case[name.lower()] not in names]
        if wrong_case:
            fixed = {name: right for name, right in wrong_case}
            suggestion = json.dumps("|".join(fixed.get(name, name) for name in names))
            wanted = ", ".join(f"{right} (it says {name})" for name, right in wrong_case)
            yield at.finding("matcher/case-mismatch", matcher=at.shown, wanted=wanted, suggestion=suggestion)
    yield from _regex_rule(at, "matcher/case-mismatch")


def _glob_of_names(text: str) -> bool:
    r"""Whether a matcher is made of names and `*` (`\w`, `|`, `*`, `-`), a `*` after a name's
    character: what `[\w|*-]*[\w-]\*[\w|*-]*` matched in full, without its compile in each
    process with a matcher that holds a `*`."""
    return all(joins(character, "|*-") for character in text) and any(
        text[at] == "*" and joins(text[at - 1], "-") for at in range(1, len(text)))


def _miscased_mcp(raw: str) -> bool:
    """Whether MISCASED_MCP finds `mcp__` in another case in a matcher: for an ASCII one by str
    finds (a match's own test: not after a letter, digit or `_`), else by the pattern. Each process
    with an MCP matcher compiled it to find nothing."""
    if not raw.isascii():
        return MISCASED_MCP.search(raw) is not None
    lowered = raw.lower()
    at = lowered.find("mcp__")
    while at >= 0:
        if raw[at:at + 3] != "mcp" and (at == 0 or not joins(raw[at - 1])):
            return True
        at = lowered.find("mcp__", at + 1)
    return False


def _mcp_prefix_case(at: MatcherAt, raw: str) -> Iterator[Finding]:
    """`Mcp__fs` or `MCP__.*`: every MCP tool's name starts with `mcp__`, in that case."""
    if not _miscased_mcp(raw):
        return
    fixed = MISCASED_MCP.sub("mcp__", raw)
    if at.matcher.kind == "exact":
        fixed = "|".join(part if part.strip()[5:].partition("__")[2] or not part.strip().startswith("mcp__")
                         else part.strip() + "__.*" for part in fixed.split("|"))
    yield at.finding("matcher/case-mismatch", matcher=at.shown, wanted="MCP tools (their names start with mcp__)",
                     suggestion=json.dumps(fixed))


def _server_case(at: MatcherAt, judged: Judged) -> Iterator[Finding]:
    """`mcp__Linear__.*` where the project's MCP server is `linear` (or `Linear` on an event that
    matches server names): names keep the server's own case, and matching is case-sensitive."""
    ctx, (event, raw) = at.ctx, judged
    by_case, by_spelling = ctx.servers_by_case, _servers_by_spelling(tuple(ctx.mcp_servers))
    named = named_servers(raw) if event.matcher == TOOL else at.matcher.names
    wrong = {name: by_case[name.lower()] for name in named if name not in ctx.mcp_servers and name.lower() in by_case}
    spelt = {name: by_spelling[_spelling(name)] for name in named
             if name not in ctx.mcp_servers and name not in wrong and _spelling(name) in by_spelling}
    if spelt and event.matcher == TOOL:  # `mcp__my_docs__` for the server my-docs: the tools keep its '-'
        fixed = raw
        for name, right in spelt.items():
            fixed = fixed.replace(f"mcp__{name}__", f"mcp__{right}__")
        wanted = ", ".join(f"the tools of MCP server {right} (it says {name})" for name, right in spelt.items())
        yield at.finding("matcher/case-mismatch", matcher=at.shown, wanted=wanted, suggestion=json.dumps(fixed),
                         variant="separator")
    if wrong:
        fixed = raw
        for name, right in wrong.items():
            fixed = (fixed.replace(f"mcp__{name}__", f"mcp__{right}__") if event.matcher == TOOL
                     else "|".join(right if part.strip() == name else part for part in fixed.split("|")))
        what = "the tools of MCP server" if event.matcher == TOOL else "MCP server"
        wanted = ", ".join(f"{what} {right} (it says {name})" for name, right in wrong.items())
        yield at.finding("matcher/case-mismatch", matcher=at.shown, wanted=wanted, suggestion=json.dumps(fixed))


def _spelling(name: str) -> str:
    """A server's name with its case and its '-' and '_' told apart no more."""
    return name.lower().replace("-", "_")


@lru_cache(maxsize=256)
def _servers_by_spelling(servers: tuple[str, ...]) -> dict[str, str]:
    return {_spelling(server): server for server in servers}


def _exact_tool_names(at: MatcherAt) -> bool:
    judged = at.judged
    return judged is not None and at.matcher.kind == "exact" and judged.event.matcher == TOOL


@RULES.rule("matcher/tool-typo", premise=_exact_tool_names)
def _tool_typo(at: MatcherAt) -> Iterator[Finding]:
    known, names, by_case = at.known, at.matcher.names, at.known_by_case
    unknown = [name for name in names if name not in known and name.lower() not in by_case
               and not name.startswith("mcp__")]
    cursors = {name: CLAUDE_TOOLS_OF_TYPE[name][0] for name in unknown if name in CLAUDE_TOOLS_OF_TYPE}  # Shell
    typos = {**{name: close for name in unknown if (close := _close_tool(name, tuple(known)))}, **cursors}
    if typos:
        suggestion = json.dumps("|".join(typos.get(name, name) for name in names))
        yield at.finding("matcher/tool-typo", matcher=at.shown, suggestion=suggestion, names=", ".join(
            f"{name} (Cursor's name for {close})" if name in cursors else f"{name} (did you mean {close}?)"
            for name, close in typos.items()))


@RULES.rule("matcher/mcp-no-tool", premise=_exact_tool_names)
def _mcp_no_tool(at: MatcherAt) -> Iterator[Finding]:
    servers = at.ctx.servers_by_case
    for name in at.matcher.names:
        if name.startswith("mcp__") and not name[5:].partition("__")[2]:
            server = name[5:].rstrip("_")
            pattern = f"mcp__{servers.get(server.lower(), server)}__.*"  # in the configured server's case
            if server.startswith("plugin_") and not name.endswith("__"):  # a plugin's servers: mcp__plugin_<plugin>_<server>__
                pattern = f"mcp__{server}_.*"
            yield at.finding("matcher/mcp-no-tool", name=name, pattern=pattern)


@RULES.rule("matcher/unknown-value", premise=_on_an_event_of_set_values)
def _unknown_value(at: MatcherAt) -> Iterator[Finding]:
    judged = at.judged
    if judged is not None and at.matcher.kind == "exact" and judged.event.matcher not in (OPEN, TOOL):
        known, by_case = at.known, at.known_by_case
        unknown = [name for name in at.matcher.names if name not in known and name.lower() not in by_case]
        if unknown:
            yield at.finding("matcher/unknown-value", matcher=at.shown, unknown=", ".join(map(json.dumps, unknown)),
                             event=judged.event.name, values=", ".join(known))
    yield from _regex_rule(at, "matcher/unknown-value")


def _regex_rule(at: MatcherAt, rule_id: str) -> Iterator[Finding]:
    """The finding a Claude Code regex matcher ends with (_regex_verdict), when it is this rule's."""
    verdict = at.regex_verdict
    if verdict and verdict[0] == rule_id:
        yield at.finding(rule_id, **verdict[1])


@RULES.rule("matcher/undecided", premise=_syntax_checked)
def _undecided(at: MatcherAt) -> Iterator[Finding]:
    """A regex past a bound of doctor's engine: what it matches is unknown, and said so."""
    if at.matcher.pattern is not None and at.matcher.undecided:
        yield at.finding("matcher/undecided", matcher=at.shown, why=at.matcher.undecided)


@RULES.rule("matcher/permission-rule", premise=_parenthesised)
def _permission_rule(at: MatcherAt) -> Iterator[Finding]:
    yield from _regex_rule(at, "matcher/permission-rule")
    host = hosts.of(at.host)  # (a host whose hooks see tools by names of their own, and have no "if": Codex)
    rule = PERMISSION_RULE.fullmatch(at.raw) if isinstance(at.raw, str) and at.judged is None else None
    if rule and host is not None and at.event_name in host.tool_events and (
            rule[1] in host.hook_tool_names or rule[1] in host.tool_renames):
        yield at.finding("matcher/permission-rule", variant="no-if", matcher=at.shown, host=host.title,
                         tool=host.tool_renames.get(rule[1], rule[1]), rule=at.raw.strip())


@RULES.rule("matcher/empty-alternative", premise=_regex_judged)
def _empty_alternative(at: MatcherAt) -> Iterator[Finding]:
    yield from _regex_rule(at, "matcher/empty-alternative")


@RULES.rule("matcher/matches-nothing", premise=_regex_judged)
def _matches_nothing(at: MatcherAt) -> Iterator[Finding]:
    yield from _regex_rule(at, "matcher/matches-nothing")


@RULES.rule("matcher/file-changed-glob", premise=_watches_files)
def _file_changed_glob(at: MatcherAt) -> Iterator[Finding]:
    """A glob in a FileChanged matcher (measured on 2.1.328, docs/hosts/claude-code.md#filechanged):
    each `|`-separated entry is watched as a literal path, and the hook runs only when the changed
    file's name matches the whole matcher, which as a regex `*.proto` is not."""
    yield from _file_changed_globs(at, rejected=True)


@RULES.rule("matcher/file-changed-glob-watches-nothing", premise=_watches_files)
def _file_changed_glob_watches_nothing(at: MatcherAt) -> Iterator[Finding]:
    """A glob that is also a valid regex (`.env*`): its entry watches nothing, though the name test
    may still let the hook run for a file watched some other way."""
    yield from _file_changed_globs(at, rejected=False)


def _file_changed_globs(at: MatcherAt, rejected: bool) -> Iterator[Finding]:
    """The FileChanged matcher's globs, as the rule for a matcher the regex reader rejects (or accepts) says it."""
    globs = [entry for entry in at.file_entries if FILE_GLOB.search(entry) and not REGEX_ONLY.search(entry)]
    if globs and (classify(at.raw, "FileChanged").pattern is None) == rejected:
        yield at.finding("matcher/file-changed-glob" if rejected else "matcher/file-changed-glob-watches-nothing",
                         matcher=at.shown, globs=("the globs " if len(globs) > 1 else "the glob ")
                         + ", ".join(map(json.dumps, globs)))


@RULES.rule("matcher/file-changed-path", premise=_watches_files)
def _file_changed_path(at: MatcherAt) -> Iterator[Finding]:
    """A path with a folder in a FileChanged matcher: watched, but a file's name never matches it."""
    for path in (entry for entry in at.file_entries if FILE_PATH.fullmatch(entry)):
        name = path.rsplit("/", 1)[-1]
        if not classify(at.raw, "FileChanged").matches(name):
            yield at.finding("matcher/file-changed-path", matcher=at.shown, path=json.dumps(path),
                             name=json.dumps(name), suggestion=json.dumps(f"{at.raw}|{name}"))
            return


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
    previous: list[int] = []  # (the row before the first: never read)
    current = list(range(len(b) + 1))
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
def _values(values: frozenset[str]) -> list[str]:
    return sorted(values)


@lru_cache(maxsize=64)
def _by_case(names: tuple[str, ...]) -> dict[str, str]:
    return {name.lower(): name for name in names}


def _nothing(shown: str, what: str, expression: Any) -> dict[str, str]:
    """matches-nothing's words: an expression where a name pattern belongs, or a pattern no name fits."""
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
    return {"matcher": shown, "what": what, "detail": detail, "hint": hint}
