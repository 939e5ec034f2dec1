"""opencode's own ways for a plugin to do nothing (measured on opencode 1.18.33:
tests/e2e/test_doctor_opencode_ways_e2e.py): a bus event's name as a hook key, an argument its
tool does not take, an MCP server's name with the characters opencode replaces."""
from __future__ import annotations

import pytest
from doctor_support import found
from hookwright.doctor.run import run


def _doctor(project, body: str):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "p.js").write_text('export const P = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
                                 + body + "\n  },\n})\n")
    return run(None, project=project)


@pytest.mark.parametrize("body, name", [
    ('if (input.tool === "read" && output.args.file_path) throw new Error("x")', "file_path"),
    ('if (input.tool === "bash") { const { cmd } = output.args; if (cmd) throw new Error("x") }', "cmd"),
    ('const t = input.tool\n    if (t === "edit" || t === "write") { if (output.args["old_string"]) throw new Error("x") }',
     "old_string"),
])
def test_an_argument_the_picked_tool_does_not_take_is_reported_where_it_is_read(project, body, name):
    (finding,) = found(_doctor(project, body), "host/opencode-argument-not-there")
    assert f"args.{name}" in finding.message and finding.line >= 3


@pytest.mark.parametrize("body", [
    'if (input.tool === "read" && output.args.filePath) throw new Error("x")',
    'if (input.tool === "edit" || input.tool === "write") { if (output.args.content) throw new Error("x") }',
    'if (output.args.file_path) throw new Error("x")',  # (no tool picked: an MCP tool's, maybe)
    'if (input.tool.startsWith("fs_")) { if (output.args.file_path) throw new Error("x") }',
    'if (input.tool === "bash" || input.tool.startsWith("fs_")) { if (output.args.file_path) throw new Error("x") }',
    'if (input.tool === "read") output.args.filePath = "x"',
    # a tool picked by a Set (not read): the hook's other comparison is about another tool
    'if (TOOLS.has(input.tool)) { if (output.args.filePath) throw new Error("x") }\n'
    '    if (input.tool === "bash") output.args.command = "y"',
])
def test_an_argument_the_tool_takes_or_an_mcp_tools_is_not_reported(project, body):
    assert not found(_doctor(project, body), "host/opencode-argument-not-there")


def test_a_prefix_with_a_character_opencode_replaces_is_reported_with_the_replaced_one(project):
    (finding,) = found(_doctor(project, 'if (input.tool.startsWith("my.docs_")) throw new Error("x")'),
                       "host/opencode-tool-prefix-name")
    assert 'startsWith("my_docs_")' in finding.hint


def test_a_prefix_tested_both_ways_is_not_reported(project):
    body = 'if (input.tool.startsWith("my.docs_") || input.tool.startsWith("my_docs_")) throw new Error("x")'
    assert not found(_doctor(project, body), "host/opencode-tool-prefix-name")


@pytest.mark.parametrize("key, variant", [("session.idle", True), ("file.edited", True), ("tool.before", False)])
def test_a_bus_event_as_a_hook_key_says_the_event_hook_gets_it(project, key, variant):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "p.js").write_text(f'export const P = async () => ({{ "{key}": async () => {{}} }})\n')
    (finding,) = found(run(None, project=project), "host/opencode-hook-never-called")
    assert ("bus" in finding.message) is variant and ("event.type" in finding.hint) is variant
