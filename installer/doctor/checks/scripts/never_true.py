"""The code a hook runs: tests that can never be true (CONDITION_RULES; installer/doctor/scripts/conditions.py),
by the language's own rules or against the values the host really sends."""
from __future__ import annotations

from typing import Iterator

from .... import hosts
from ....hooks.events import BUILTIN_TOOLS
from ....hosts.claude.protocol import protocol
from ....patterns import lazy
from ... import handler_facts
from ...model import Context, Finding, Handler, RuleTable
from ...scripts.conditions import relative_path_pattern
from ...scripts.keys import Site
from .units import HookCode, Script, scripts_run_by

CONDITION_RULES = RuleTable()  # a hook's code: its conditions, whatever the event
RENAMED_TOOL_RULES = RuleTable()  # a script of a host whose hooks see tools by other names than the model's
SENT_TOOL_NAMES = frozenset(BUILTIN_TOOLS)


@CONDITION_RULES.rule("script/test-never-true")
def _test_never_true(code: HookCode) -> Iterator[Finding]:
    """Each test the shell or the language can never make true: the branch it guards never runs."""
    if not (code.claude_events or code.cursor_events):
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
    for site, text in _compared(code, "file_path"):
        if relative_path_pattern(text):
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
_INPUT_FIELD = lazy(r"tool_input\b[^\n]{0,12}?(?:\.get\(\s*['\"]|\?\.|\.|\[\s*['\"])(?P<field>\w+)\b")


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


@RENAMED_TOOL_RULES.rule("script/tool-field-not-sent")
def _tool_field_not_sent(script: Script) -> Iterator[Finding]:
    """`tool_input.file_path` in a Codex hook whose matchers select only its edits (`Edit|Write`):
    Codex sends an edit as apply_patch, with the patch text as tool_input.command and no other
    field (Host.tool_inputs, measured), so where the script reads none of the fields the selected
    tools send, what it reads is always missing. Not said for a script another host's hooks run
    too, nor where a matcher may select a tool whose fields are not known (every tool, a regex)."""
    host = hosts.of(script.handlers[0].file.host)
    if host is None or not host.tool_inputs:
        return
    tools: set[str] = set()
    for handler in script.handlers:
        selected = host.tools_selected(handler.matcher)
        if selected is None or not selected <= host.tool_inputs.keys():
            return
        tools |= selected
    sent = frozenset().union(*(host.tool_inputs[tool] for tool in tools))
    reads = [(m.start("field"), m["field"]) for m in _INPUT_FIELD.finditer(script.text)]
    if not tools or not reads or any(field in sent or field in host.tool_input_renames for _, field in reads) \
            or _run_by_another_host(script, host.name):
        return
    offset, field = reads[0]
    line = script.text.count("\n", 0, offset) + 1
    column = offset - script.text.rfind("\n", 0, offset)
    yield script.finding("script/tool-field-not-sent", Site(field, line, column), script.handlers, field=field,
                         host=host.title, tools=", ".join(sorted(tools)), sent=", ".join(sorted(sent)))


def _run_by_another_host(script: Script, host: str) -> bool:
    """Whether a hook of another host runs the script too (its fields may be that host's)."""
    return any(h.file.host != host and any(facts.path == script.facts.path for _, facts in handler_facts.script_facts(h))
               for h in script.ctx.handlers if handler_facts.kind(h) == "command")
