"""The code a hook runs: tests that can never be true (CONDITION_RULES; installer/doctor/scripts/conditions.py),
by the language's own rules or against the values the host really sends."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator

from .... import hosts
from ....hooks.events import BUILTIN_TOOLS
from ....hooks.regex import matched_builtins
from ....hosts.claude.protocol import protocol
from ....patterns import lazy
from ... import handler_facts
from ...model import Context, Finding, Handler, RuleTable
from ...scripts import keys
from ...scripts.conditions import bare_name, relative_path_pattern
from ...scripts.keys import Site
from .units import AtCommand, HookCode, Script, scripts_run_by

if TYPE_CHECKING:
    pass

CONDITION_RULES = RuleTable()  # a hook's code: its conditions, whatever the event
RENAMED_TOOL_RULES = RuleTable()  # a script of a host whose hooks see tools by other names than the model's
TOOL_FIELD_RULES = RuleTable()  # a script of a host that knows the fields of its tools' input
SENT_TOOL_NAMES = frozenset(BUILTIN_TOOLS)


@CONDITION_RULES.rule("script/test-never-true")
def _test_never_true(code: HookCode) -> Iterator[Finding]:
    """Each test the shell or the language can never make true: the branch it guards never runs."""
    if not (code.claude_events or code.cursor_events or code.other_inputs):  # (the shell's rules: any host's hook)
        return
    for site in code.facts.never_true:
        kind, text = site.what.split(":", 1)
        yield code.report("script/test-never-true", site, kind, text=text)


def _compared(code: HookCode | Script, field: str) -> list[tuple[Site, str]]:
    return [(site, site.what.split(":", 1)[1]) for site in code.facts.compared if site.what.startswith(field + ":")]


@CONDITION_RULES.rule("script/value-never-sent")
def _value_never_sent(code: HookCode) -> Iterator[Finding]:
    """A tool event's field compared with a value Claude Code never sends there: a tool name it has
    no tool by (`"bash"`, Cursor's `"Shell"`), where the code compares it with none it has; a
    relative pattern for `file_path`, which Claude Code sends absolute (docs/hosts/claude-code.md,
    measured: a relative `file_path` reached the hooks made absolute)."""
    if not any(protocol(event).tool_event for event in code.claude_events):
        return
    names = _compared(code, "tool_name")
    if names and not any(text in SENT_TOOL_NAMES or text.startswith("mcp__") for _, text in names):
        for site, text in names:
            if text.replace("_", "").replace("-", "").isalnum():
                yield code.report("script/value-never-sent", site, text=text)
    paths = _compared(code, "file_path")
    # a bare name (".env", "secrets.json") is relative too: reported where every name compared is one,
    # so that `case "$f" in *.env|.env)` (whose other arm matches) stays alone
    bare = bool(paths) and all(bare_name(text) or relative_path_pattern(text) for _, text in paths)
    for site, text in paths:
        if relative_path_pattern(text) or bare and bare_name(text):
            yield code.report("script/value-never-sent", site, "path", text=text)


def renaming_scripts(ctx: Context) -> list[Script]:
    """Each readable script a command handler runs on a tool event of a host whose hooks see tools
    by other names than the model's (Host.tool_renames: Codex), with those handlers."""
    return list(scripts_run_by(ctx, _on_a_renamed_tool_event).values())


def _on_a_renamed_tool_event(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and bool(host.tool_renames) and handler.event in host.tool_events


@RENAMED_TOOL_RULES.rule("script/tool-name-renamed")
def _tool_name_renamed(script: Script) -> Iterator[Finding]:
    """`tool_name == "exec_command"` in a Codex hook: its hooks see every shell call as `Bash`
    (Host.tool_renames, measured), so where the script compares with no name they do see, the
    test is never true."""
    host = hosts.of(script.handlers[0].file.host)
    if host is None:
        return
    names = _compared(script, "tool_name")
    if not names or any(text in host.hook_tool_names for _, text in names):
        return
    seen_as = {**{name.lower(): name for name in host.hook_tool_names}, **host.tool_renames}
    for site, text in names:
        if text in seen_as or text.lower() in seen_as:
            yield script.finding("script/tool-name-renamed", site, script.handlers, text=text, host=host.title,
                                 name=seen_as.get(text) or seen_as[text.lower()])


# a read of a field of the call's tool_input, in the languages doctor reads (`.cmd`, `["cmd"]`, `.get("cmd")`)
# between tool_input and the field, only what closes its own lookup or gives a default (`")`, `, {})`,
# `"]`, ` or {})`, ` ?? {})`): never another expression (`input.tool_input && input.tool_input.x` reads
# x, not "tool_input"), nor the shell after a jq filter (`'{i: .tool_input}' >> .codex/log` reads nothing)
_INPUT_FIELD = lazy(r"tool_input\b(?:[\s\"'()\[\]{},|?]|\bor\b){0,12}?(?:\.get\(\s*['\"]|\?\.|\.|\[\s*['\"])(?P<field>\w+)\b")


@RENAMED_TOOL_RULES.rule("script/input-field-renamed")
def _input_field_renamed(script: Script) -> Iterator[Finding]:
    """`tool_input.cmd` in a Codex hook: the model's shell tool takes `cmd`, its hooks get the
    command as `tool_input.command` (Host.tool_input_renames, measured), so the value read is
    always missing, where the script reads the field hooks get nowhere."""
    host = hosts.of(script.handlers[0].file.host)
    if host is None or not host.tool_input_renames:
        return
    reads = [(m.start("field"), m["field"]) for m in _INPUT_FIELD.finditer(script.text)]
    fields = {field for _, field in reads}
    for offset, field in reads:
        sent = host.tool_input_renames.get(field)
        if sent is not None and sent not in fields:
            line = script.text.count("\n", 0, offset) + 1
            column = offset - script.text.rfind("\n", 0, offset)
            yield script.finding("script/input-field-renamed", Site(field, line, column), script.handlers,
                                 field=field, sent=sent, host=host.title)
            return


class FieldReader:
    """Code whose reads of tool_input script/tool-field-not-sent judges: a script file, with the
    handlers that run it, or a command written in the config, with its one handler."""

    def __init__(self, ctx: Context, text: str, language: str, handlers: list[Handler],
                 script: Script | None = None) -> None:
        self.ctx = ctx
        self.text = text
        self.language = language
        self.handlers = handlers
        self.script = script

    def tells_hosts_apart(self) -> bool:
        if self.script is not None:
            return self.script.facts.tells_hosts_apart
        return keys.command_facts(self.text).tells_hosts_apart

    def shared(self) -> bool:
        """A hook of another host runs it too (its fields may be that host's)."""
        return self.script is not None and _run_by_another_host(self.script, self.handlers[0].file.host)

    def report(self, rule_id: str, place: Site, variant: str | None = None, **params: str | None) -> Finding:
        if self.script is not None:
            return self.script.finding(rule_id, place, self.handlers, variant, **params)
        return AtCommand(self.ctx, self.handlers[0])(rule_id, place, variant, **params)


def tool_field_readers(ctx: Context) -> Iterator[FieldReader]:
    """Each readable script, and each command that reads tool_input itself, that a command handler
    runs on a tool event of a host that knows the fields of its tools' input (Host.tool_inputs:
    Claude Code, Codex), with those handlers."""
    for script in scripts_run_by(ctx, _on_a_tool_event_of_known_inputs).values():
        yield FieldReader(ctx, script.text, script.facts.language, script.handlers, script)
    for handler in ctx.handlers:
        command = handler.value.get("command") if isinstance(handler.value, dict) else None
        if isinstance(command, str) and "tool_input" in command and handler_facts.kind(handler) == "command" \
                and _on_a_tool_event_of_known_inputs(handler) and not handler_facts.script_facts(handler):
            yield FieldReader(ctx, command, "shell", [handler])


def _on_a_tool_event_of_known_inputs(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and bool(host.tool_inputs) and handler.event in host.tool_events


# a variable the call's tool_input is put in (`ti = data.get("tool_input", {})`, `const ti = input.tool_input ?? {}`)
_INPUT_VARIABLE = lazy(r"""(?:(?:const|let|var)\s+)?(?P<var>[A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\], |]+)?=\s*[^=\n;]*?"""
                       r"""(?:\[\s*["']tool_input["']\s*\]|\.get\(\s*["']tool_input["'][^)\n]*\)|\.tool_input\b)"""
                       r"""\s*(?:\|\||or\b|\?\?|;|$)""", re.M, needs=("tool_input",))
# `const { file_path, content } = input.tool_input`: each name is a field read
_INPUT_DESTRUCTURED = lazy(r"""(?:const|let|var)\s*\{(?P<names>[^{}]*)\}\s*=\s*[\w$.?]*\btool_input\b""",
                           needs=("tool_input",))
# `const { tool_input: { path } } = event`, `({ tool_input: { file_path } }) => ...`: a nested destructuring
_INPUT_NESTED = lazy(r"""(?:(?:const|let|var)\s*|\(\s*)\{[^{}=]*?\btool_input\s*:\s*\{(?P<names>[^{}]*)\}""",
                     needs=("tool_input",))
_NAME = lazy(r"""(?:^|,)\s*(?P<name>[A-Za-z_$][\w$]*)""")
_JQ_PIPED = lazy(r"tool_input\s*\|\s*\.(?P<field>\w+)\b", needs=("|",))  # jq's `.tool_input | .x` (asked of a text with tool_input)


def tool_input_reads(code: str) -> list[tuple[int, str]]:
    """The fields of the call's tool_input the code reads, each at its first read, in order:
    `.tool_input.x`, `["tool_input"]["x"]`, `.get("tool_input", {}).get("x")`, jq's
    `.tool_input | .x`, a variable holding tool_input and read so, a destructuring of it (nested
    in the event's too)."""
    if "tool_input" not in code:
        return []
    found: dict[str, int] = {}
    for pattern in (_INPUT_FIELD, _JQ_PIPED):
        for m in pattern.finditer(code):
            found.setdefault(m["field"], m.start("field"))
    binds = "=" in code  # (the two forms below bind a name: a text without "=" compiles neither, 3 M instructions)
    for m in _INPUT_VARIABLE.finditer(code) if binds else ():
        var = re.escape(m["var"])
        for use in re.finditer(rf"""(?<![\w$.]){var}(?:\??\.get\(\s*["'](?P<a>\w+)|\[\s*["'](?P<b>\w+)["']|"""
                               rf"""\??\.(?P<c>[A-Za-z_]\w*)\b(?!\s*\())""", code[m.end():]):
            found.setdefault(use["a"] or use["b"] or use["c"], m.end() + use.start())
    for m in _INPUT_DESTRUCTURED.finditer(code) if binds else ():
        for name in _NAME.finditer(m["names"]):
            found.setdefault(name["name"], m.start("names") + name.start("name"))
    for m in _INPUT_NESTED.finditer(code) if "{" in code else ():
        for name in _NAME.finditer(m["names"]):
            found.setdefault(name["name"], m.start("names") + name.start("name"))
    return sorted(((offset, field) for field, offset in found.items()), key=lambda read: read[0])


def _folded(name: str) -> str:
    """A field's name without its case and underscores: `file_path` and `filePath` fold alike."""
    return name.replace("_", "").lower()


@TOOL_FIELD_RULES.rule("script/tool-field-not-sent")
def _tool_field_not_sent(code: FieldReader) -> Iterator[Finding]:
    """A field of tool_input the calls the script's hooks run on never carry (Host.tool_inputs,
    measured): Codex sends an edit as apply_patch, with the patch text as tool_input.command
    alone, so a script that reads none of the fields its matchers' tools send reads nothing; and
    a script that reads another host's name for a field (opencode's `filePath` in a Claude Code
    hook, which gets `file_path`) reads nothing, unless it reads the host's own name too (a
    fallback for both). Not said for a script another host's hooks run too, nor one that tells
    hosts apart; where a matcher may select a tool whose fields are not known (every tool, a
    regex), only a field whose own name one of the host's tools sends."""
    host = hosts.of(code.handlers[0].file.host)
    if host is None or not host.tool_inputs:
        return
    stripped = keys.strip_comments(code.text, code.language)
    reads = tool_input_reads(stripped)
    if not reads or code.tells_hosts_apart() or code.shared():
        return
    selected = [host.tools_selected(handler.matcher) for handler in code.handlers]
    tools = frozenset().union(*(s for s in selected if s)) if all(selected) else None
    known = host.tool_inputs if tools is None else {tool: host.tool_inputs[tool] for tool in tools}
    sent = frozenset().union(*known.values())
    read = {field for _, field in reads}
    named = ", ".join(sorted(tools)) if tools else "every tool they match"
    others = [(offset, field, other, own) for offset, field in reads
              for other in [None if field in sent else hosts.sender(field, host)] if other is not None
              for own in [next((name for name in sorted(sent) if _folded(name) == _folded(field)), None)]
              if own not in read and (own is not None or tools is not None)]
    carried = [field for _, field in reads if field in sent]
    if carried and others:  # (a fallback whose value meets a carried field's on its way to the test: dead, harmless)
        others = [entry for entry in others if not _same_decision(stripped, carried, entry[1])]
    others.sort(key=lambda read: read[3] is None)  # (another agent's name for a field the host sends by its own, first)
    if tools and not read & (sent | host.tool_input_renames.keys()) and not (others and others[0][3]):
        offset, field = reads[0]
        notes = "".join(f" ({host.tool_input_notes[tool]})" for tool in sorted(tools) if tool in host.tool_input_notes)
        yield code.report("script/tool-field-not-sent", _site(code.text, offset, field), field=field,
                          host=host.title, tools=named, sent=", ".join(sorted(sent)), notes=notes)
    elif others:
        offset, field, other, own = others[0]
        yield code.report("script/tool-field-not-sent", _site(code.text, offset, field),
                          "other-host" if own else "other-host-only", field=field, host=host.title,
                          other=hosts.title(other), own=own, tools=named, sent=", ".join(sorted(sent)))


@TOOL_FIELD_RULES.rule("script/written-text-not-read")
def _written_text_not_read(code: FieldReader) -> Iterator[Finding]:
    """A guard that checks the text a call writes by one tool's field (`content`, Write's) while
    its matcher also fires for a tool that sends the text under another (Edit's `new_string`):
    Host.written_text, measured on 2.1.332 (an Edit that added what the guard looks for in
    `content` went through). Not said where the script reads the other field too, nor for a
    script another host's hooks run."""
    host = hosts.of(code.handlers[0].file.host)
    if host is None or not host.written_text or not any(h.event in host.guard_events for h in code.handlers):
        return
    reads = tool_input_reads(keys.strip_comments(code.text, code.language))
    read = {field for _, field in reads}
    text_fields = set(host.written_text.values())
    if not read & text_fields or code.tells_hosts_apart() or code.shared():
        return
    writers = tuple(host.written_text)
    matched = frozenset().union(*(matched_builtins(h.matcher if isinstance(h.matcher, str) else None, writers, h.event)
                                  for h in code.handlers if h.event in host.guard_events))
    missed = [tool for tool in writers if tool in matched and host.written_text[tool] not in read]
    if not missed:
        return
    offset, field = next((offset, field) for offset, field in reads if field in text_fields)
    reader = next((tool for tool, own in host.written_text.items() if own == field), field)
    yield code.report("script/written-text-not-read", _site(code.text, offset, field), field=field, reader=reader,
                      missed=", ".join(missed), sent=", ".join(f"{tool} sends it as {host.written_text[tool]}"
                                                               for tool in missed))


# what a line gives a value to: `x = ...`, `x += ...`, `local x=$(...)`, `x.append(...)`, `for x in ...`
_TARGET = lazy(r"""^\s*(?:(?:local|export|readonly|declare|const|let|var)\s+)?(?P<name>[A-Za-z_$][\w$]*)\s*"""
               r"""(?:\+|\|\||\?\?|or)?=(?!=)|(?P<item>[A-Za-z_$][\w$]*)\.(?:append|extend|push|add|insert|update)\s*\(|"""
               r"""\bfor\s*\(?\s*(?:(?:const|let|var)\s+)?(?P<each>[A-Za-z_$][\w$]*)\s+(?:in|of)\b""")
_WORD = lazy(r"[A-Za-z_$][\w$]*")
MAX_HOPS = 8  # assignments followed from a field's read to the value a test reads


def _same_decision(code: str, carried: list[str], fallback: str) -> bool:
    """Whether the value read from a field the calls never carry flows into the same variable as
    one read from a field they carry (`paths += [...command...]`, then `paths.append(ti["file_path"])`;
    `p = ti.get("file_path") or ti.get("command")`): the carried one reaches the test, and the
    other is a fallback for another agent's calls, not the script's only source. Read on one line
    (jq's `.file_path // .path`), or followed through plain assignments, appends and for loops,
    line by line (MAX_HOPS passes)."""
    fallback_word = re.compile(rf"\b{re.escape(fallback)}\b")
    carried_words = [re.compile(rf"\b{re.escape(field)}\b") for field in carried]
    lines = []
    for line in code.splitlines():
        if fallback_word.search(line) and any(word.search(line) for word in carried_words):
            return True  # (one expression: `.file_path // .path`, `get("file_path") or get("path")`)
        targets = {m.group("name") or m.group("item") or m.group("each") for m in _TARGET.finditer(line)}
        lines.append((line, targets - {None}, set(_WORD.findall(line))))

    def reached(field: str) -> set[str]:
        names = set().union(*(targets for line, targets, _ in lines if re.search(rf"\b{re.escape(field)}\b", line)))
        for _ in range(MAX_HOPS):
            more = set().union(*(targets for _, targets, words in lines if targets and words & names)) - names
            if not more:
                break
            names |= more
        return names

    ours = reached(fallback)
    return bool(ours) and any(ours & reached(field) for field in carried)


def _site(text: str, offset: int, field: str) -> Site:
    line = text.count("\n", 0, offset) + 1
    return Site(field, line, offset - text.rfind("\n", 0, offset))


def _run_by_another_host(script: Script, host: str) -> bool:
    """Whether a hook of another host runs the script too (its fields may be that host's)."""
    return any(h.file.host != host and any(facts.path == script.facts.path for _, facts in handler_facts.script_facts(h))
               for h in script.ctx.handlers if handler_facts.kind(h) == "command")
