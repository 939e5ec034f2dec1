"""opencode's own ways for a plugin to do nothing (measured on opencode 1.18.33:
tests/e2e/test_doctor_opencode_ways_e2e.py): a bus event's name as a hook key, an argument its
tool does not take, an MCP server's name with the characters opencode replaces."""
from __future__ import annotations

import json
import os
from pathlib import Path

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


def _doctor_module(project, code: str, name: str = "p.ts"):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(code)
    return run(None, project=project)


HOOK = 'export const P = async () => ({\n  "tool.execute.before": async (input, output) => {\n%s\n  },\n})\n'
# however a hook picks its tools, Claude Code's argument name read where only opencode's tools come
PICKS = {
    "an early return on a list": ('if (!["read", "edit"].includes(input.tool)) return\n'
                                  '    const path: string = output.args.%s ?? ""\n    if (path.endsWith(".env")) throw new Error("x")'),
    "an early return on a Set": ('if (!WRITE.has(input.tool)) return\n    const target = output.args.%s\n'
                                 '    if (!target) return\n    if (target.endsWith(".env")) throw new Error("x")'),
    "an early return on a tool opencode lacks too": ('if (!NAMED.has(input.tool)) return\n'
                                                     '    if (String(output.args.%s).endsWith(".env")) throw new Error("x")'),
    "a switch": ('switch (input.tool) {\n      case "edit":\n      case `write`:\n'
                 '        if (String(output.args.%s).endsWith(".env")) throw new Error("x")\n        break\n'
                 '      default:\n        return\n    }'),
    "a negated early exit with ||": ('if (input.tool !== "read" && input.tool !== "edit") { return }\n'
                                     '    const { %s } = output.args\n    if (String(%s).endsWith(".env")) throw new Error("x")'),
    "a ternary": 'const p = input.tool === "read" ? output.args.%s : ""\n    if (p.endsWith(".env")) throw new Error("x")',
    "a table of handlers": ('CHECKS[input.tool]?.(output.args)'),
    "a lower-cased name": ('if (input.tool.toLowerCase() !== "read") return\n'
                           '    if (String(output.args.%s).endsWith(".env")) throw new Error("x")'),
}
TOP = ('const WRITE = new Set(["write", "edit"]) as const\nconst NAMED = new Set(["write", "multiedit"])\n'
       'const CHECKS = {\n  read: (args) => { if (String(args.%s).endsWith(".env")) throw new Error("x") },\n'
       '  bash: (args) => { if (args.command.includes("rm")) throw new Error("y") },\n}\n')


def _pick_plugin(pick: str, argument: str) -> str:
    body = PICKS[pick].replace("%s", argument)
    return TOP.replace("%s", argument) + HOOK % body


@pytest.mark.parametrize("pick", list(PICKS))
def test_claude_codes_argument_name_is_reported_however_the_hook_picks_the_tool(project, pick):
    code = _pick_plugin(pick, "file_path")
    (finding,) = found(_doctor_module(project, code), "host/opencode-argument-not-there")
    lines = code.splitlines()
    assert "file_path" in lines[finding.line - 1] and "args" in lines[finding.line - 1]
    assert "filePath" in finding.message


@pytest.mark.parametrize("pick", list(PICKS))
def test_opencodes_argument_name_is_clean_however_the_hook_picks_the_tool(project, pick):
    assert not found(_doctor_module(project, _pick_plugin(pick, "filePath")), "host/opencode-argument-not-there")


@pytest.mark.parametrize("body", [
    'if (input.tool === "bash") return\n    if (String(output.args.file_path).endsWith(".env")) throw new Error("x")',
    'if (WRITE.has(input.tool) || input.tool.startsWith("fs_")) { if (output.args.file_path) throw new Error("x") }',
    'if (!input.tool.startsWith("fs_")) return\n    if (output.args.file_path) throw new Error("x")',
    'switch (input.tool) {\n      case "read": break\n      default:\n        if (output.args.file_path) throw new Error("x")\n    }',
])
def test_a_read_on_every_tool_but_some_or_on_an_mcp_servers_is_not_reported(project, body):
    code = TOP.replace("%s", "filePath") + HOOK % body
    assert not found(_doctor_module(project, code), "host/opencode-argument-not-there")


@pytest.mark.parametrize("prefix", ['`${SERVER}_`', 'SERVER + "_"', 'PREFIX'])
def test_an_mcp_prefix_built_from_the_configured_server_name_is_reported(project, prefix):
    code = ('const SERVER = "orders.db"\nconst PREFIX = `${SERVER}_`\n'
            + HOOK % f'    if (!input.tool.startsWith({prefix})) return\n    if (output.args.sql) throw new Error("x")')
    (finding,) = found(_doctor_module(project, code), "host/opencode-tool-prefix-name")
    assert "startsWith" in code.splitlines()[finding.line - 1] and 'startsWith("orders_db_")' in finding.hint


def test_an_mcp_prefix_built_from_a_name_opencode_keeps_is_clean(project):
    code = 'const SERVER = "orders-db"\n' + HOOK % '    if (input.tool.startsWith(`${SERVER}_`)) throw new Error("x")'
    assert not found(_doctor_module(project, code), "host/opencode-tool-prefix-name")




@pytest.mark.parametrize("body", [
    '    if (input.tool !== "bash") return\n    throw new Error("no")',
    '    if (input.tool !== "bash") return undefined',
    '    const ok = [1].some(() => { return false })\n    if (!ok) throw new Error("no")',
])
def test_a_bare_return_and_a_callbacks_return_are_not_reported(project, body):
    assert not found(_doctor_module(project, HOOK % body), "host/opencode-return-does-not-block")


RETURNS, LOST = "host/opencode-return-does-not-block", "host/opencode-promise-not-awaited"


@pytest.mark.parametrize("rule, body, marked", [
    *[(RETURNS, f'    if (input.tool === "bash") {{\n      {statement}\n    }}', statement)
      for statement in ('return false', 'return { block: true, reason: "no" }', 'return "deny"')],
    (LOST, '    $`./check.sh`.nothrow().then((r) => { if (r.exitCode) throw new Error("no") })', "$`"),
    (LOST, '    fetch("http://policy").then((r) => { if (!r.ok) throw new Error("no") })', "fetch"),
    (LOST, '    const r = $`./check.sh`.nothrow().quiet()\n    if (r.exitCode === 2) throw new Error("no")', "const r"),
])
def test_a_return_or_a_promise_opencode_does_not_wait_for_is_reported_where_it_is_written(project, rule, body, marked):
    code = HOOK % body
    (finding,) = found(_doctor_module(project, code), rule)
    assert marked in code.splitlines()[finding.line - 1]


LATER = 'import { execFile, execFileSync, spawn } from "node:child_process"\nimport { readFile } from "node:fs"\n' + HOOK


@pytest.mark.parametrize("body, marked, variant", [
    ('    execFile("./check.sh", [], (err) => {\n      if (err) throw new Error("no")\n    })', "execFile", "callback"),
    ('    setTimeout(() => { throw new Error("no") }, 0)', "setTimeout", "callback"),
    ('    readFile(".policy", "utf8", (err, text) => { if (text.includes("deny")) throw new Error("no") })',
     "readFile", "callback"),
    ('    spawn("./check.sh").on("close", (code) => { if (code) throw new Error("no") })', "spawn", "callback"),
    ('    execFile("./rewrite.sh", [], (err, out) => { output.args.command = out })', "execFile", "args"),
    ('    new Promise((ok, fail) => execFile("./check.sh", [], (e) => e ? fail(e) : ok()))', "new Promise", None),
    ('    const check = async () => { throw new Error("no") }\n    check()', "check()", None),
    ('    ["a"].forEach(async (rule) => { if (await bad(rule)) throw new Error("no") })', "forEach", None),
    # (`return` ends at the line break: the next line is a statement of its own)
    ('    if (!output.args.command) return\n    ["a"].forEach(async () => { throw new Error("no") })', "forEach", None),
])
def test_a_throw_or_change_in_what_the_hook_never_waits_for_is_reported_where_it_starts(project, body, marked,
                                                                                        variant):
    code = LATER % body
    (finding,) = found(_doctor_module(project, code, "p.js"), LOST)
    assert marked in code.splitlines()[finding.line - 1]
    assert ("after the hook has returned" in finding.message) == (variant is not None)
    assert ("changes output.args" in finding.message) == (variant == "args")


@pytest.mark.parametrize("body", [
    '    const r = await $`./check.sh`.nothrow().quiet()\n    if (r.exitCode === 2) throw new Error("no")',
    '    await $`./check.sh`.then((r) => { if (r.exitCode) throw new Error("no") })',
    '    return $`./check.sh`.then((r) => { if (r.exitCode) throw new Error("no") })',
    '    $`notify-send done`.nothrow()',  # (fire and forget: nothing of it counts)
    '    fetch("http://log").then(() => {}).catch(() => {})',
    '    await promisify(execFile)("./check.sh")',
    '    return new Promise((ok, fail) => execFile("./check.sh", [], (e) => e ? fail(e) : ok()))',
    '    await new Promise((ok, fail) => execFile("./check.sh", [], (e) => e ? fail(e) : ok()))',
    '    try { execFileSync("./check.sh") } catch { throw new Error("no") }',
    '    for (const rule of ["a"]) { if (await bad(rule)) throw new Error("no") }',
    '    await Promise.all(["a"].map(async (rule) => { if (await bad(rule)) throw new Error("no") }))',
    '    const check = async () => { throw new Error("no") }\n    await check()',
    '    ["a"].forEach((rule) => { if (rule === output.args.command) throw new Error("no") })',
    '    execFile("notify-send", ["ran"], () => {})',  # (fire and forget: nothing of it counts)
    '    Promise.resolve().then(() => { output.args.command = "nice " + output.args.command })',
])
def test_what_the_hook_awaits_returns_runs_at_once_or_forgets_is_not_reported(project, body):
    assert not found(_doctor_module(project, LATER % body, "p.js"), LOST)


def test_a_default_export_with_a_server_and_no_id_is_reported_and_one_with_an_id_is_not(project):
    server = '  server: async () => ({ "tool.execute.before": async () => { throw new Error("x") } }),\n'
    (finding,) = found(_doctor_module(project, "export default {\n" + server + "}\n", "a.ts"),
                       "host/opencode-plugin-no-id")
    assert finding.line == 1 and finding.path.endswith("a.ts")
    _doctor_module(project, 'export default {\n  id: "b",\n' + server + "}\n", "b.ts")
    assert [f.path for f in found(run(None, project=project), "host/opencode-plugin-no-id")] == [finding.path]


def test_a_permission_ask_hook_is_reported_as_never_called(project):
    code = 'export const P = async () => ({\n  "permission.ask": async (p, output) => { output.status = "deny" },\n})\n'
    (finding,) = found(_doctor_module(project, code, "p.js"), "host/opencode-hook-never-called")
    assert finding.line == 2 and "tool.execute.before" in finding.hint


PREFIXER = ('export const Pager = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
            '    if (input.tool !== "bash") return\n    const cmd = String(output.args.command)\n'
            '    if (%s) output.args.command = %s\n  },\n})\n')
ANCHORED = ('const RULES = [/^git\\s+push\\b.*--force/, /^\\s*(rm|git)\\s+-rf?\\b/i]\n'
            'export const Guard = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
            '    if (input.tool === "bash" && RULES.some((re) => re.test(output.args.command))) throw new Error("no")\n'
            '  },\n})\n')


def _two_plugins(home, project, rewriter: str, guard: str, rewriter_at: str = "user", guard_at: str = "project"):
    folders = {"user": home / ".config" / "opencode" / "plugins", "project": project / ".opencode" / "plugins"}
    for where, name, code in ((rewriter_at, "pager.js", rewriter), (guard_at, "guard.js", guard)):
        folders[where].mkdir(parents=True, exist_ok=True)
        (folders[where] / name).write_text(code)
    return found(run(None, project=project), "host/opencode-rewritten-before-check")


@pytest.mark.parametrize("gate, value", [
    ('/^(git|gh)\\b/.test(cmd)', '`GIT_PAGER=cat ${cmd}`'),
    ('true', '"rtk " + cmd.trim()'),
    ('cmd.startsWith("git")', '`env -u GIT_DIR ${cmd}`'),
])
def test_a_guard_anchored_at_the_start_run_after_a_plugin_that_puts_text_first_is_reported(home, project, gate, value):
    findings = _two_plugins(home, project, PREFIXER % (gate, value), ANCHORED)
    assert [(Path(f.path).name, f.line) for f in findings] == [("guard.js", 1), ("guard.js", 1)]
    assert {f.column for f in findings} == {16, 42} and "pager.js" in findings[0].message


def test_a_guard_testing_startswith_run_after_a_plugin_that_puts_text_first_is_reported(home, project):
    guard = ANCHORED.replace("RULES.some((re) => re.test(output.args.command))",
                             'String(output.args.command).startsWith("git push --force")')
    (finding,) = _two_plugins(home, project, PREFIXER % ("true", '"nice -n 10 " + cmd'), guard)
    assert (Path(finding.path).name, finding.line) == ("guard.js", 4) and "pager.js" in finding.message
    # a tool picked by a prefix is no test of the command
    assert not _two_plugins(home, project, PREFIXER % ("true", '"nice " + cmd'), guard.replace(
        'String(output.args.command).startsWith("git push --force")', 'input.tool.startsWith("git")'))


@pytest.mark.parametrize("rewriter, guard, rewriter_at, guard_at", [
    (PREFIXER % ("true", '`GIT_PAGER=cat ${cmd}`'), ANCHORED, "project", "user"),  # (the guard runs first)
    (PREFIXER % ("true", '`GIT_PAGER=cat ${cmd}`'), ANCHORED.replace("/^git", "/(^|\\s)git").replace(
        "/^\\s*(rm|git)", "/\\b(rm|git)"), "user", "project"),  # (unanchored)
    (PREFIXER % ("/^npm\\b/.test(cmd)", '`CI=1 ${cmd}`'), ANCHORED, "user", "project"),  # (other commands)
    (PREFIXER % ("true", '`git -c core.pager=cat ${cmd.slice(4)}`'),
     ANCHORED.replace(", /^\\s*(rm|git)\\s+-rf?\\b/i", ""), "user", "project"),  # (it still starts with git)
    (PREFIXER % ("true", '`${cmd} | head -100`'), ANCHORED, "user", "project"),  # (text after, not before)
])
def test_a_guard_the_change_does_not_hide_from_is_not_reported(home, project, rewriter, guard, rewriter_at, guard_at):
    assert not _two_plugins(home, project, rewriter, guard, rewriter_at, guard_at)


def test_in_one_folder_a_guard_is_reported_where_the_rewrite_runs_first_in_the_reverse_of_the_listing(tmp_path):
    """opencode runs one folder's files in the reverse of the order the filesystem lists them
    (docs/hosts/opencode.md#load-order): the same two names, with the roles swapped, in two projects."""
    reported = {}
    for project, (rewriter, guard) in (("a", ("x.js", "y.js")), ("b", ("y.js", "x.js"))):
        folder = tmp_path / project / ".opencode" / "plugins"
        folder.mkdir(parents=True)
        for name in ("x.js", "y.js"):
            (folder / name).write_text(PREFIXER % ("true", '`GIT_PAGER=cat ${cmd}`') if name == rewriter else ANCHORED)
        runs = [name for name in reversed(os.listdir(folder))]
        findings = found(run(None, project=tmp_path / project), "host/opencode-rewritten-before-check")
        reported[project] = bool(findings)
        assert reported[project] == (runs.index(rewriter) < runs.index(guard))
        assert all(Path(f.path).name == guard and "reverse of the order" in f.related[0]["message"] for f in findings)
    assert sorted(reported.values()) == [False, True]


def test_a_guard_that_strips_the_text_the_other_plugin_puts_first_is_not_reported(home, project):
    guard = ANCHORED.replace('re.test(output.args.command)', 're.test(String(output.args.command).replace(/^rtk\\s+/, ""))')
    assert not _two_plugins(home, project, PREFIXER % ("true", '"rtk " + cmd'), guard)
    assert _two_plugins(home, project, PREFIXER % ("true", '"nice " + cmd'), guard)  # (it strips another)


@pytest.mark.parametrize("table, flagged", [
    ('{ Bash: "bash-guard.sh", "Write": "path-guard.sh" }', ["Bash", "Write"]),
    ('{ bash: "bash-guard.sh", write: "path-guard.sh" }', []),
])
def test_a_table_looked_up_by_tool_is_read_for_the_names_it_keys(project, table, flagged):
    code = f"const GUARDS = {table}\n" + HOOK % '    const script = GUARDS[input.tool]\n    if (!script) return'
    findings = found(_doctor_module(project, code), "host/opencode-tool-name")
    assert sorted(f.message.split('"')[1] for f in findings) == flagged and all(f.line == 1 for f in findings)


@pytest.mark.parametrize("shape, flagged", [('{ id: "p", setup: async () => ({}) }', True),
                                            ('{ setup: async () => ({}) }', True),
                                            ('{ id: "p", server: async () => ({}) }', False)])
def test_a_default_export_without_a_server_is_a_file_opencode_drops(project, shape, flagged):
    findings = found(_doctor_module(project, f"export default {shape}\n"), "host/opencode-plugin-export-not-function")
    assert [("server()" in f.message, f.line) for f in findings] == ([(True, 1)] if flagged else [])


# ---- a plugin that runs a script written for Claude Code (a bridge) ----------------------------------

BRIDGE = """\
import { spawnSync } from "node:child_process";
import path from "node:path";
const NAMES = { bash: "Bash", read: "Read", write: "Write", edit: "Edit" };
export const Bridge = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const payload = { hook_event_name: "PreToolUse", tool_name: %s, tool_input: %s };
    const r = spawnSync(path.join(directory, ".claude/hooks", "guard.sh"), [], { input: JSON.stringify(payload) });
    if (r.status === 2) throw new Error(r.stderr.toString());
  },
});
"""
CLAUDE_GUARD = """\
#!/bin/sh
input=$(cat)
tool=$(printf '%s' "$input" | jq -r '.tool_name')
file=$(printf '%s' "$input" | jq -r '.tool_input.file_path // empty')
[ "$tool" = "Read" ] && case "$file" in *.env) exit 2 ;; esac
exit 0
"""


def _doctor_bridge(project: Path, tool_name: str, tool_input: str, guard: str = CLAUDE_GUARD):
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "guard.sh").write_text(guard)
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "bridge.js").write_text(BRIDGE % (tool_name, tool_input))
    return run(None, project=project)


@pytest.mark.parametrize("tool_input", ["output.args", "{ ...output.args }", "{ ...output.args, command: output.args.command }"])
def test_a_bridge_handing_opencodes_arguments_to_a_claude_script_is_reported_at_both_ends(project, tool_input):
    findings = found(_doctor_bridge(project, "NAMES[input.tool]", tool_input), "host/opencode-script-reads-claude-names")
    assert sorted((Path(f.path).name, f.line) for f in findings) == [("bridge.js", 6), ("guard.sh", 4)]
    assert "filePath" in findings[0].message


@pytest.mark.parametrize("tool_input, guard", [
    ("{ ...output.args, file_path: output.args.filePath }", CLAUDE_GUARD),  # the bridge renames it
    ("output.args", CLAUDE_GUARD.replace(".tool_input.file_path //", ".tool_input.file_path // .tool_input.filePath //")),
])
def test_a_bridge_that_hands_claudes_names_or_a_script_that_reads_both_is_clean(project, tool_input, guard):
    outcome = _doctor_bridge(project, "NAMES[input.tool]", tool_input, guard)
    assert not found(outcome, "host/opencode-script-reads-claude-names")


def test_a_bridge_handing_opencodes_tool_name_to_a_script_comparing_claudes_is_reported(project):
    findings = found(_doctor_bridge(project, "input.tool", "{ file_path: output.args.filePath }"),
                     "host/opencode-script-reads-claude-names")
    assert [(Path(f.path).name, f.line) for f in findings] == [("bridge.js", 6)] and "Read" in findings[0].message


SETTINGS_BRIDGE = """\
import { readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
export const Bridge = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const settings = JSON.parse(readFileSync(path.join(directory, ".claude/settings.json"), "utf8"));
    for (const group of settings.hooks?.PreToolUse ?? []) {
      for (const hook of group.hooks) {
        const r = spawnSync("sh", ["-c", hook.command], {
          input: JSON.stringify({ tool_name: NAMES[input.tool], tool_input: output.args }),
          env: { ...process.env, CLAUDE_PROJECT_DIR: directory }, encoding: "utf8" });
        if (r.status === 2) throw new Error(r.stderr);
      }
    }
  },
});
const NAMES = { read: "Read", bash: "Bash" };
"""


def test_a_bridge_that_runs_every_hook_of_the_claude_settings_is_a_host_of_their_scripts(project):
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "guard.sh").write_text(CLAUDE_GUARD)
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [
        {"type": "command", "command": 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'}]}]}}))
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "bridge.js").write_text(SETTINGS_BRIDGE)
    findings = found(run(None, project=project), "host/opencode-script-reads-claude-names")
    assert sorted((Path(f.path).name, f.line) for f in findings) == [("bridge.js", 10), ("guard.sh", 4)]


DENYING_GUARD = """\
#!/usr/bin/env python3
import json, sys
call = json.load(sys.stdin)
if str(call["tool_input"].get("command", "")).startswith("rm -rf"):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "no rm -rf"}}))
sys.exit(0)
"""
EXITING_GUARD = "#!/bin/sh\njq -r .tool_input.command | grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }\nexit 0\n"
STATUS_ONLY = "if (r.status === 2) throw new Error(r.stderr.toString());"
STDOUT_ONLY = ('const answer = JSON.parse(r.stdout.toString() || "{}");\n'
               '    if (answer.hookSpecificOutput?.permissionDecision === "deny") throw new Error("denied");')
BOTH = STATUS_ONLY + "\n    " + STDOUT_ONLY


def _doctor_answer_bridge(project: Path, guard: str, reads: str):
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "guard.sh").write_text(guard)
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    code = (BRIDGE % ("NAMES[input.tool]", "output.args")).replace(
        'if (r.status === 2) throw new Error(r.stderr.toString());', reads)
    (folder / "bridge.js").write_text(code)
    return [f for f in found(run(None, project=project), "host/opencode-script-reads-claude-names")]


@pytest.mark.parametrize("guard, reads, what", [(DENYING_GUARD, STATUS_ONLY, "exit status"),
                                                (EXITING_GUARD, STDOUT_ONLY, "JSON")])
def test_a_bridge_reading_the_answer_by_the_channel_the_script_does_not_answer_on_is_reported(project, guard, reads,
                                                                                              what):
    (finding,) = _doctor_answer_bridge(project, guard, reads)
    assert Path(finding.path).name == "bridge.js" and finding.line == 8 and what in finding.message


@pytest.mark.parametrize("guard, reads", [(DENYING_GUARD, STDOUT_ONLY), (EXITING_GUARD, STATUS_ONLY),
                                          (DENYING_GUARD, BOTH), (EXITING_GUARD, BOTH)])
def test_a_bridge_reading_the_answer_the_script_gives_is_clean(project, guard, reads):
    assert not _doctor_answer_bridge(project, guard, reads)


@pytest.mark.parametrize("hook", [
    'async (input, output) => {\n    if (input.tool === "bash" && /rm -rf/.test(input.args?.command ?? "")) throw new Error("x")',
    'async ({ tool, args }) => {\n    if (tool === "bash" && String(args.command).includes("rm -rf")) throw new Error("x")',
])
def test_arguments_read_from_the_before_hooks_input_are_reported(project, hook):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "p.js").write_text(f'export const P = async () => ({{\n  "tool.execute.before": {hook}\n  }},\n}})\n')
    (finding,) = found(run(None, project=project), "host/opencode-argument-not-there")
    assert finding.line in (2, 3) and "output.args" in finding.hint


def test_arguments_read_from_the_after_hooks_input_are_not_reported(project):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "p.js").write_text('export const P = async () => ({\n  "tool.execute.after": async (input, output) => {\n'
                                 '    if (input.tool === "bash" && input.args.command) output.output += "!"\n  },\n})\n')
    assert not found(run(None, project=project), "host/opencode-argument-not-there")


@pytest.mark.parametrize("body", [
    'let command = output.args.command\n    if (command.startsWith("git ")) command = "rtk " + command',
    'let { command } = output.args\n    command += " --dry-run"',
])
def test_a_change_to_a_copy_of_an_argument_is_reported(project, body):
    (finding,) = found(_doctor(project, body), "host/opencode-args-reassigned")
    assert "copy of output.args.command" in finding.message and finding.line == 4


@pytest.mark.parametrize("body", [
    'let command = output.args.command\n    command = "rtk " + command\n    output.args.command = command',
    'let n = output.args.limit\n    const x = n + 1',
])
def test_a_copy_written_back_or_only_read_is_clean(project, body):
    assert not found(_doctor(project, body), "host/opencode-args-reassigned")


@pytest.mark.parametrize("compared, flagged", [('"tool.execute.before"', True), ('"session.idle"', False),
                                               ('"file.edited"', False)])
def test_a_hook_key_compared_with_a_bus_events_type_is_reported(project, compared, flagged):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "p.js").write_text('export const P = async () => ({\n  event: async ({ event }) => {\n'
                                 f'    if (event.type === {compared}) throw new Error("x")\n  }},\n}})\n')
    findings = found(run(None, project=project), "host/opencode-hook-never-called")
    assert [(f.line, "not an event of its bus" in f.message) for f in findings] == ([(3, True)] if flagged else [])


# ---- the exit status a bridge refuses on, against the one its script refuses with ------------------

STATUS_BRIDGE = """\
import { spawnSync, spawn } from "node:child_process";
export const Bridge = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash") return;
    %s
  },
});
"""
SPAWNED = 'const r = spawnSync("sh", [".claude/hooks/guard.sh"], { input: JSON.stringify({ tool_input: output.args }) });'


def _doctor_status_bridge(project: Path, test: str, guard: str = EXITING_GUARD):
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "guard.sh").write_text(guard)
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "bridge.js").write_text(STATUS_BRIDGE % test)
    return [(Path(f.path).name, f.line, f.message) for f in found(run(None, project=project),
                                                                  "host/opencode-script-exit-unheard")]


@pytest.mark.parametrize("test, said", [
    (SPAWNED + "\n    if (r.status === 1) throw new Error(String(r.stderr));", "exits 1"),
    (SPAWNED + "\n    if (r.exitCode == 1 || r.exitCode == 3) { throw new Error('refused'); }", "exits 1 or 3"),
    (SPAWNED + "\n    if (r.status !== 1) return;\n    throw new Error('refused');", "exits 1"),
    (SPAWNED + "\n    if (r.status === 0 || r.status === 2) return;\n    throw new Error('refused');", "exits any but 0 or 2"),
    ('await new Promise((resolve, reject) => {\n      const child = spawn("sh", [".claude/hooks/guard.sh"]);\n'
     '      child.on("close", (code) => { if (code === 1) reject(new Error("refused")); else resolve(); });\n    });',
     "exits 1"),
])
def test_a_bridge_refusing_on_another_status_than_the_scripts_exit_2_is_reported_at_its_test(project, test, said):
    [(name, line, message)] = _doctor_status_bridge(project, test)
    assert name == "bridge.js" and line == (7 if "close" in test else 6) and said in message


@pytest.mark.parametrize("test", [
    SPAWNED + "\n    if (r.status === 2) throw new Error(String(r.stderr));",
    SPAWNED + "\n    if (r.status !== 0) throw new Error(String(r.stderr));",
    SPAWNED + "\n    if (r.status === 0) return;\n    throw new Error('refused');",
    SPAWNED + "\n    if (r.status === 1 || r.status === 2) throw new Error('refused');",
])
def test_a_bridge_refusing_on_the_scripts_exit_2_is_clean(project, test):
    assert _doctor_status_bridge(project, test) == []


def test_a_bridge_refusing_on_exit_1_runs_a_script_that_refuses_with_exit_1_cleanly(project):
    guard = EXITING_GUARD.replace("exit 2", "exit 1")
    assert _doctor_status_bridge(project, SPAWNED + "\n    if (r.status === 1) throw new Error('no');", guard) == []


# ---- a guard of files that picks some of opencode's tools that change a file --------------------------

LOCK_GUARD = """\
export const LockGuard = async () => ({
  "tool.execute.before": async (input, output) => {
    %s
  },
});
"""
THROWS = 'if (String(output.args.filePath).endsWith(".lock")) throw new Error("lock files are generated");'


@pytest.mark.parametrize("body, flagged", [
    ('if (input.tool !== "write") return;\n    ' + THROWS, 3),
    ('if (input.tool === "edit") {\n      ' + THROWS + "\n    }", 3),
    ('if (input.tool !== "write" && input.tool !== "edit") return;\n    ' + THROWS, None),
    ('if (["write", "edit"].includes(input.tool)) {\n      ' + THROWS + "\n    }", None),
    (THROWS, None),  # (every tool)
    ('if (input.tool !== "bash") return;\n    if (output.args.command.includes("rm -rf")) throw new Error("no");', None),
])
def test_a_guard_of_files_picking_write_or_edit_alone_is_reported_at_its_pick(project, body, flagged):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "lock.js").write_text(LOCK_GUARD % body)
    findings = found(run(None, project=project), "host/opencode-guard-misses-tools")
    assert [f.line for f in findings] == ([flagged] if flagged else [])
    assert all("opencode's" in f.message for f in findings)


def test_a_bridge_running_the_script_in_a_command_line_is_followed_to_its_exit_status(project):
    """`execSync("sh .claude/hooks/guard.sh")` throws on any status but 0; a catch that refuses only on 1 lets 2 through."""
    body = ('try {\n      execSync("sh .claude/hooks/guard.sh", { input: JSON.stringify({ tool_input: output.args }) });\n'
            '    } catch (e) {\n      if (e.status === 1) throw new Error("refused");\n    }')
    code = STATUS_BRIDGE.replace('import { spawnSync, spawn } from "node:child_process";',
                                 'import { execSync } from "node:child_process";')
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "guard.sh").write_text(EXITING_GUARD)
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "bridge.js").write_text(code % body)
    [finding] = found(run(None, project=project), "host/opencode-script-exit-unheard")
    assert finding.line == 8 and "exits 1" in finding.message
    (folder / "bridge.js").write_text(code % body.replace("e.status === 1", "e.status === 2"))
    assert found(run(None, project=project), "host/opencode-script-exit-unheard") == []


NESTED = 'export const P = async () => ({\n  hooks: {\n    "tool.execute.before": async (input, output) => {\n' \
         '      if (input.tool === "bash") throw new Error("no")\n    },\n  },\n})\n'
NO_RETURN = 'export const P = async () => {\n  const hooks = {\n    "tool.execute.before": async (input, output) => {\n' \
            '      if (input.tool === "bash") throw new Error("no")\n    },\n  }\n}\n'


@pytest.mark.parametrize("code, variant", [(NESTED, '"hooks"'), (NO_RETURN, "no return")])
def test_hooks_the_plugin_function_does_not_return_at_the_top_are_never_called(project, code, variant):
    (finding,) = found(_doctor_module(project, code, "p.js"), "host/opencode-hook-never-called")
    assert finding.line == 3 and variant in finding.message


@pytest.mark.parametrize("code", [
    NO_RETURN.replace("  }\n}\n", "  }\n  return hooks\n}\n"),  # (returned through a name)
    NESTED.replace("  hooks: {\n", "  ...{\n"),  # (spread into the returned object)
    'export const P = async () => {\n  return {\n    "tool.execute.before": async (input, output) => {},\n  }\n}\n',
])
def test_hooks_returned_at_the_top_or_through_a_name_are_quiet(project, code):
    assert not found(_doctor_module(project, code, "p.js"), "host/opencode-hook-never-called")


CAUGHT = "host/opencode-refusal-caught"


@pytest.mark.parametrize("body, marked, variant", [
    ('    try {\n      const r = await $`./guard.sh`.quiet()\n      if (r.exitCode === 2) throw new Error("no")\n'
     '    } catch (err) {\n      console.error(`guard failed: ${err}`)\n    }', "const r = await $", "ShellError"),
    ('    let r\n    try {\n      r = await $`./guard.sh`\n    } catch (err) {\n      return\n    }\n'
     '    if (r.exitCode !== 0) throw new Error("no")', "r = await $", "ShellError"),
    ('    try {\n      const r = await $`./guard.sh`.nothrow()\n      if (r.exitCode === 2) throw new Error("no")\n'
     '    } catch (err) {\n      console.error(err)\n    }', "} catch (err) {", "the throw on line 5"),
])
def test_a_refusal_its_own_catch_takes_for_a_pass_is_reported_where_it_is_lost(project, body, marked, variant):
    """Bun 1.3.14 (opencode 1.18.33's) throws ShellError on `await $`...`` of an exit 2 without .nothrow()."""
    (finding,) = found(_doctor_module(project, HOOK_WITH_SHELL % body), CAUGHT)
    text = (project / ".opencode" / "plugins" / "p.ts").read_text().splitlines()
    assert marked in text[finding.line - 1] and variant in finding.message


@pytest.mark.parametrize("body", [
    '    let r\n    try {\n      r = await $`./guard.sh`.nothrow().quiet()\n    } catch (err) {\n      console.error(err)\n'
    '      return\n    }\n    if (r.exitCode === 2) throw new Error("no")',
    '    try {\n      const r = await $`./guard.sh`.nothrow()\n      if (r.exitCode === 2) throw new Error("no")\n'
    '    } catch (err) {\n      console.error(err)\n      throw err\n    }',
    '    try {\n      await $`./guard.sh`\n    } catch (err) {\n      throw new Error(`refused: ${err}`)\n    }',
    '    try {\n      JSON.parse(output.args.command)\n    } catch (err) {\n      return\n    }',
])
def test_a_catch_that_throws_again_or_a_status_read_with_nothrow_is_not_reported(project, body):
    assert not found(_doctor_module(project, HOOK_WITH_SHELL % body), CAUGHT)


HOOK_WITH_SHELL = 'export const P = async ({ $ }) => ({\n  "tool.execute.before": async (input, output) => {\n%s\n  },\n})\n'


@pytest.mark.parametrize("test, rule", [
    ('input.tool.startsWith("mcp__srv__")', "host/opencode-tool-prefix-name"),
    ('input.tool.startsWith("mcp__")', "host/opencode-tool-prefix-name"),
    ("/^mcp__srv__/.test(input.tool)", "host/opencode-tool-pattern"),
    ('input.tool.includes("mcp__")', "host/opencode-tool-pattern"),
    ("input.tool.match(/^mcp__srv__(query|exec)$/)", "host/opencode-tool-pattern"),
    ("/^(Bash|Edit|Write)$/.test(input.tool)", "host/opencode-tool-pattern"),
    ('input.tool.search(/^mcp__/) === 0', "host/opencode-tool-pattern"),
    ('new RegExp("Bash").test(input.tool)', "host/opencode-tool-pattern"),
    ('input.tool.match(new RegExp("^(Write|Edit)$"))', "host/opencode-tool-pattern"),
])
def test_a_tool_test_written_for_claude_codes_names_is_reported_where_it_is_written(project, test, rule):
    (finding,) = found(_doctor(project, f'if ({test}) throw new Error("x")'), rule)
    assert finding.line >= 3 and "opencode" in finding.message


def test_a_tool_regex_tested_on_a_name_given_input_tool_is_reported(project):
    body = 'const t = input.tool\n    if (/^(Bash|Write)$/.test(t)) throw new Error("x")'
    (finding,) = found(_doctor(project, body), "host/opencode-tool-pattern")
    assert finding.line == 4 and "bash, write" in finding.message


@pytest.mark.parametrize("test", [
    'input.tool.startsWith("srv_")', "/^srv_/.test(input.tool)", 'input.tool.includes("srv_")',
    "/^(bash|edit|write)$/.test(input.tool)", "/^(Bash|Edit)$/i.test(input.tool)", "/^custom_/.test(input.tool)",
    "/^(mcp__srv__|srv_)/.test(input.tool)", 'input.tool.endsWith("_query")', 'new RegExp("bash|edit").test(input.tool)',
    'new RegExp("Bash", "i").test(input.tool)',
])
def test_a_tool_test_opencodes_names_can_pass_is_quiet(project, test):
    outcome = _doctor(project, f'if ({test}) throw new Error("x")')
    assert not found(outcome, "host/opencode-tool-pattern") and not found(outcome, "host/opencode-tool-prefix-name")


GUARD_OF_COMMANDS = ('export const Guard = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
                     '    if (input.tool !== "bash") return\n'
                     '    if (/rm\\s+-rf/.test(output.args.command ?? "")) throw new Error("no")\n  },\n})\n')
EXPANDER = ('const ALIASES = { cleanbuild: "rm -rf build dist" }\n'
            'export const Aliases = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
            '    if (input.tool !== "%s") return\n'
            '    const [head, ...rest] = (output.args.command ?? "").split(" ")\n'
            '    if (ALIASES[head]) output.args.command = [ALIASES[head], ...rest].join(" ")\n  },\n})\n')


def _guard_and_expander(home, project, expander: str, guard_at: str = "user", expander_at: str = "project",
                        listed: bool = False):
    folders = {"user": home / ".config" / "opencode" / "plugins", "project": project / ".opencode" / "plugins"}
    folders[guard_at].mkdir(parents=True, exist_ok=True)
    (folders[guard_at] / "shell-guard.js").write_text(GUARD_OF_COMMANDS)
    place = project / "listed" if listed else folders[expander_at]
    place.mkdir(parents=True, exist_ok=True)
    (place / "aliases.js").write_text(expander)
    if listed:
        (project / "opencode.json").write_text(json.dumps({"plugin": ["./listed/aliases.js"]}))
    return found(run(None, project=project), "host/opencode-checked-before-rewrite")


def test_a_plugin_that_changes_the_command_after_the_users_guard_checked_it_is_reported_at_the_change(home, project):
    (finding,) = _guard_and_expander(home, project, EXPANDER % "bash")
    assert (Path(finding.path).name, finding.line) == ("aliases.js", 6) and "shell-guard.js" in finding.message
    assert finding.severity == "warning" and finding.related[0]["line"] == 4


@pytest.mark.parametrize("case", ["listed in opencode.json", "its folder runs first", "another tool", "text put first"])
def test_a_change_the_guard_sees_or_that_cannot_hide_a_command_is_not_reported(home, project, case):
    expander = EXPANDER % ("edit" if case == "another tool" else "bash")
    if case == "text put first":
        expander = expander.replace("[ALIASES[head], ...rest].join(\" \")", "`nice -n 5 ${output.args.command}`")
    findings = _guard_and_expander(home, project, expander, *(("project", "user") if case == "its folder runs first"
                                                              else ("user", "project")),
                                   listed=case == "listed in opencode.json")
    assert findings == []


SPAWNING = ('import { spawnSync } from "node:child_process"\n'
            'export const P = async ({ directory }) => ({\n  "tool.execute.before": async (input, output) => {\n'
            '    const r = spawnSync("bash", [%s + "/.claude/hooks/guard.sh"], {input: JSON.stringify(output.args)})\n'
            '    if (r.status === 2) throw new Error(String(r.stderr))\n  },\n})\n')


@pytest.mark.parametrize("folder, flagged", [
    ("process.env.CLAUDE_PROJECT_DIR", True), ("process.env.CURSOR_PROJECT_DIR", True),
    ("directory", False), ("(process.env.CLAUDE_PROJECT_DIR ?? directory)", False),
])
def test_a_plugin_finding_a_script_through_another_agents_project_variable_is_reported_at_that_line(
        project, folder, flagged):
    hits = found(_doctor_module(project, SPAWNING % folder, "p.js"), "host/opencode-variable-of-another-host")
    assert [(Path(h.path).name, h.line) for h in hits] == ([("p.js", 4)] if flagged else [])


def test_a_claude_script_a_plugin_runs_that_reads_claude_codes_project_variable_is_reported_in_the_script(project):
    script = project / ".claude" / "hooks" / "guard.py"
    script.parent.mkdir(parents=True)
    script.write_text('import json, os, sys\nroot = os.environ["CLAUDE_PROJECT_DIR"]\nsys.exit(0)\n')
    code = SPAWNING.replace('spawnSync("bash", [%s + "/.claude/hooks/guard.sh"]',
                            'spawnSync("python3", [directory + "/.claude/hooks/guard.py"]')
    (hit,) = found(_doctor_module(project, code, "p.js"), "host/opencode-variable-of-another-host")
    assert (hit.path, hit.line) == (str(script), 2) and "opencode never does" in hit.message


@pytest.mark.parametrize("server, test, rule", [
    ("my-db", 'input.tool.startsWith("my_db_")', "host/opencode-tool-prefix-name"),
    ("GitHub", 'input.tool.startsWith("github_")', "host/opencode-tool-prefix-name"),
    ("my-db", 'input.tool === "my_db_query"', "host/opencode-tool-name"),
    ("my-db", 'input.tool === "my-db_query"', None),
    ("my-db", 'input.tool.startsWith("my-db_")', None),
    ("GitHub", '["GitHub_create_issue", "bash"].includes(input.tool)', None),
])
def test_a_tool_name_spelt_otherwise_than_opencode_writes_the_configured_server_is_reported(project, server, test, rule):
    (project / "opencode.json").write_text(json.dumps({"mcp": {server: {"type": "local", "command": ["srv"]}}}))
    outcome = _doctor(project, f'if ({test}) throw new Error("x")')
    hits = found(outcome, "host/opencode-tool-prefix-name") + found(outcome, "host/opencode-tool-name")
    assert [(h.rule, h.line) for h in hits] == ([(rule, 3)] if rule else [])
    assert all(server in h.message for h in hits)


@pytest.mark.parametrize("runs, flagged", [
    ('spawnSync("bash", [directory + "/.claude/hooks/guard.sh"])', True),
    ('await $`bash ${directory}/.claude/hooks/guard.sh`.nothrow().quiet()', True),
    ('spawnSync("bash", [directory + "/.claude/hooks/guard.sh"], {input: JSON.stringify(output.args)})', False),
    ('await $`bash ${directory}/.claude/hooks/guard.sh < ${new Response(JSON.stringify(output.args))}`.nothrow()', False),
])
def test_a_bridge_that_hands_a_stdin_reading_guard_nothing_is_reported_at_the_script(project, runs, flagged):
    script = project / ".claude" / "hooks" / "guard.sh"
    script.parent.mkdir(parents=True)
    script.write_text('#!/bin/bash\ncmd=$(jq -r .tool_input.command)\n[[ $cmd == *"rm -rf"* ]] && exit 2\nexit 0\n')
    code = ('import { spawnSync } from "node:child_process"\n'
            'export const P = async ({ directory, $ }) => ({\n  "tool.execute.before": async (input, output) => {\n'
            f'    const r = {runs}\n    if ((r.status ?? r.exitCode) === 2) throw new Error("no")\n  }},\n}})\n')
    hits = found(_doctor_module(project, code, "p.js"), "host/opencode-bridge-without-input")
    assert [(Path(h.path).name, h.line) for h in hits] == ([("p.js", 4)] if flagged else [])


THROWING_BRIDGE = """\
import { execFileSync, execSync, execFile } from "node:child_process";
import * as cp from "node:child_process";
import { promisify } from "node:util";
import { execa } from "execa";
export const Bridge = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash") return;
    try {
      %s
    } catch (err) {
      console.error("guard failed:", err.message);%s
    }
  },
});
"""
PAYLOAD = "{ input: JSON.stringify({ tool_input: output.args }) }"
THROWING_CALLS = {  # each runs the guard and throws when it exits 2: the throw is the refusal
    "execFileSync": f'execFileSync("sh", [".claude/hooks/guard.sh"], {PAYLOAD});',
    "execSync": f'execSync("sh .claude/hooks/guard.sh", {PAYLOAD});',
    "member": f'cp.execFileSync("sh", [".claude/hooks/guard.sh"], {PAYLOAD});',
    "promisified": f'await promisify(execFile)("sh", [".claude/hooks/guard.sh"], {PAYLOAD});',
    "execa": f'await execa("sh", [".claude/hooks/guard.sh"], {PAYLOAD});',
}


def _doctor_throwing_bridge(project: Path, call: str, catch_tail: str = "", guard: str = EXITING_GUARD):
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "guard.sh").write_text(guard)
    (project / "node_modules" / "execa").mkdir(parents=True)  # (installed: no import finding in the way)
    (project / "node_modules" / "execa" / "package.json").write_text('{"name": "execa", "main": "index.js"}')
    return _doctor_module(project, THROWING_BRIDGE % (call, catch_tail), "bridge.js")


@pytest.mark.parametrize("call", sorted(THROWING_CALLS))
def test_a_call_that_throws_on_the_guards_exit_2_inside_a_catch_that_goes_on_is_reported_at_the_call(project, call):
    """execFileSync throws when its program exits non-zero; measured on opencode 1.18.33
    (tests/e2e/test_doctor_opencode_ways_e2e.py): in a try whose catch logs, the guard's exit 2 let
    the call run."""
    (finding,) = found(_doctor_throwing_bridge(project, THROWING_CALLS[call]), CAUGHT)
    assert finding.line == 10 and "guard.sh exits non-zero" in finding.message and "line 9" in finding.message


@pytest.mark.parametrize("call", sorted(THROWING_CALLS))
def test_a_catch_that_throws_again_on_the_guards_refusal_is_quiet(project, call):
    outcome = _doctor_throwing_bridge(project, THROWING_CALLS[call],
                                      '\n      if (err.status === 2) throw new Error("refused");')
    assert not found(outcome, CAUGHT)


@pytest.mark.parametrize("call", [
    'spawnSync("sh", [".claude/hooks/guard.sh"]);',  # (spawnSync throws on no exit status: its own rules)
    f'execFile("sh", [".claude/hooks/guard.sh"], {PAYLOAD});',  # (not awaited: no throw reaches the try)
    'execFileSync("prettier", ["--check", output.args.command]);',  # (no script of the plugin's that refuses)
])
def test_a_call_that_does_not_throw_a_guards_refusal_into_the_try_is_quiet(project, call):
    assert not found(_doctor_throwing_bridge(project, call), CAUGHT)


def test_a_swallowed_throw_of_a_program_that_never_refuses_is_quiet(project):
    """A formatter's failure swallowed so is the author's choice, not a refusal lost."""
    outcome = _doctor_throwing_bridge(project, THROWING_CALLS["execFileSync"], guard="#!/bin/sh\nexit 0\n")
    assert not found(outcome, CAUGHT)
