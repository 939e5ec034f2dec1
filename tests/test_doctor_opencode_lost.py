"""opencode plugins whose guard is lost on the way to opencode, each with its corrected twin
(measured on opencode 1.18.33: tests/e2e/test_doctor_opencode_lost_e2e.py): a hook key given twice
in the returned object, a refusal written in another protocol than a throw, a refusal thrown by the
plugin's own function under a catch that lets it go, a file the plugin function reads from the
project that this project lacks, a plugin spec without `./`, a tool name opencode never sends, and
an absolute path argument compared with relative names."""
from __future__ import annotations

import json

import pytest
from doctor_support import found
from hookwright.doctor.run import run

GUARD = 'async (input, output) => { if (/rm -rf/.test(output.args.command)) throw new Error("no") }'
LOGGER = "async (input, output) => { console.log(input.tool) }"


def _plugin(project, code: str, name: str = "p.js"):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(code)
    return run(None, project=project)


def _hook(project, body: str, helpers: str = ""):
    return _plugin(project, helpers + 'export const P = async ({ directory }) => ({\n'
                   '  "tool.execute.before": async (input, output) => {\n    ' + body + "\n  },\n})\n")


# ---- a hook key twice --------------------------------------------------------------------------------

@pytest.mark.parametrize("code, line", [
    (f'export const P = async () => ({{\n  "tool.execute.before": {GUARD},\n  "tool.execute.before": {LOGGER},\n}})\n', 2),
    (f'export const P = async () => ({{\n  "tool.execute.before": {GUARD},\n  ["tool.execute.before"]: {LOGGER},\n}})\n', 2),
    (f'const guard = async () => ({{ "tool.execute.before": {GUARD} }})\n'
     f'const audit = async () => ({{ "tool.execute.before": {LOGGER} }})\n'
     'export const P = async (ctx) => ({ ...(await guard(ctx)), ...(await audit(ctx)) })\n', 3),
    (f'const GUARD = {{ "tool.execute.before": {GUARD} }}\nconst AUDIT = {{ "tool.execute.before": {LOGGER} }}\n'
     'export const P = async () => Object.assign({}, GUARD, AUDIT)\n', 3),
    (f'export const P = async () => {{\n  const hooks = {{ "tool.execute.before": {GUARD} }}\n'
     f'  return {{ ...hooks, "tool.execute.before": {LOGGER} }}\n}}\n', 3),
])
def test_a_hook_key_given_twice_is_reported_where_the_lost_guard_is(project, code, line):
    (finding,) = found(_plugin(project, code), "host/opencode-hook-twice")
    assert finding.line == line and "this guard never runs" in finding.message


@pytest.mark.parametrize("code", [
    f'export const P = async () => ({{\n  "tool.execute.before": {GUARD},\n  "tool.execute.after": {LOGGER},\n}})\n',
    # the later one calls the earlier: a wrapper
    f'const base = {{ "tool.execute.before": {GUARD} }}\nexport const P = async () => ({{ ...base, '
    '"tool.execute.before": async (i, o) => { console.log(i.tool); await base["tool.execute.before"](i, o) } })\n',
    # two plugins, each with its own object: both run
    f'export const A = async () => ({{ "tool.execute.before": {GUARD} }})\n'
    f'export const B = async () => ({{ "tool.execute.before": {LOGGER} }})\n',
    # a table of handlers by tool, not the returned object
    'const BY_TOOL = { "bash": 1, "bash": 2 }\nexport const P = async () => ({ "tool.execute.before": async () => {} })\n',
])
def test_hooks_each_given_once_or_wrapped_are_not_reported(project, code):
    assert not found(_plugin(project, code), "host/opencode-hook-twice")


# ---- a refusal in another protocol -------------------------------------------------------------------

@pytest.mark.parametrize("body, word", [
    ('if (input.tool === "bash" && /rm/.test(output.args.command)) { output.status = "deny"; output.reason = "x" }',
     "output.status"),
    ('if (/rm/.test(output.args.command)) output.block = true', "output.block"),
    ('if (/rm/.test(output.args.command)) { input.decision = "block" }', "input.decision"),
    ('if (/rm/.test(output.args.command)) Object.assign(output, { abort: true, reason: "x" })', "output.abort"),
    ('if (/rm/.test(output.args.command)) { process.exitCode = 2 }', "exit status"),
    ('if (/rm/.test(output.args.command)) console.log(JSON.stringify({ hookSpecificOutput: '
     '{ permissionDecision: "deny" } }))', "Claude Code's JSON"),
])
def test_a_refusal_opencode_never_reads_is_reported_at_its_line(project, body, word):
    (finding,) = found(_hook(project, body), "host/opencode-refusal-unread")
    assert finding.line == 3 and word in finding.message


@pytest.mark.parametrize("body", [
    'if (/rm/.test(output.args.command)) { output.status = "deny"; throw new Error("refused") }',
    'output.args.status = "checked"',  # (an argument of the tool: opencode reads it)
    'output.seen = true',
    'if (/rm/.test(output.args.command)) throw new Error("refused")',
])
def test_a_refusal_that_throws_or_a_write_that_is_no_refusal_is_not_reported(project, body):
    assert not found(_hook(project, body), "host/opencode-refusal-unread")


def test_a_permission_ask_hook_may_set_its_status(project):
    code = 'export const P = async () => ({\n  "permission.ask": async (input, output) => { output.status = "deny" },\n})\n'
    assert not found(_plugin(project, code), "host/opencode-refusal-unread")


# ---- a refusal of the plugin's own function, caught --------------------------------------------------

CHECKS = ('function check(cmd) { if (/rm -rf/.test(cmd)) throw new Error("refused") }\n'
          'function verify(cmd) { check(cmd) }\n'
          'async function checkLater(cmd) { if (/rm -rf/.test(cmd)) throw new Error("refused") }\n'
          'const policy = { test(cmd) { if (/rm -rf/.test(cmd)) throw new Error("refused") } }\n'
          'class Rules { assert(cmd) { if (/rm -rf/.test(cmd)) throw new Error("refused") } }\n'
          'const rules = new Rules()\n')


@pytest.mark.parametrize("body", [
    'try { check(output.args.command) } catch (err) { console.error(err) }',
    'try { verify(output.args.command) } catch (err) { console.error(err) }',  # (two levels down)
    'try { await checkLater(output.args.command) } catch { }',
    'try { policy.test(output.args.command) } catch (err) { console.error(err.message) }',
    'try { rules.assert(output.args.command) } catch (err) { console.error(err.message) }',
    'await checkLater(output.args.command).catch((err) => console.error(err))',
    'await Promise.allSettled([checkLater(output.args.command)])',
])
def test_a_refusal_thrown_below_a_catch_that_lets_it_go_is_reported(project, body):
    (finding,) = found(_hook(project, body, CHECKS), "host/opencode-refusal-caught")
    assert "refuses through" in finding.message


@pytest.mark.parametrize("body", [
    'try { check(output.args.command) } catch (err) { console.error(err); throw err }',
    'check(output.args.command)',
    'await checkLater(output.args.command)',
    'try { JSON.parse(output.args.command) } catch { }',  # (a function of another module: no refusal of its own)
    'const r = await Promise.allSettled([checkLater(output.args.command)])\n'
    '    if (r.some((x) => x.status === "rejected")) throw new Error("refused")',
    'await checkLater(output.args.command).catch((err) => { throw new Error(`refused: ${err.message}`) })',
])
def test_a_refusal_that_reaches_opencode_is_not_reported(project, body):
    assert not found(_hook(project, body, CHECKS), "host/opencode-refusal-caught")


# ---- a file the plugin reads from the project, missing here -----------------------------------------

@pytest.mark.parametrize("read", [
    'JSON.parse(readFileSync(join(directory, ".opencode", "policy.json"), "utf8"))',
    'JSON.parse(readFileSync(`${directory}/.opencode/policy.json`, "utf8"))',
    'JSON.parse(readFileSync(join(worktree, ".opencode/policy.json"), "utf8"))',
])
def test_a_project_file_the_plugin_reads_at_load_that_this_project_lacks_is_reported(project, read):
    (project / ".opencode").mkdir()
    (project / ".opencode" / "policy.example.json").write_text('{"deny": []}')
    code = ('import { readFileSync } from "node:fs"\nimport { join } from "node:path"\n'
            f'export const P = async ({{ directory, worktree }}) => {{\n  const policy = {read}\n'
            '  return { "tool.execute.before": async () => { if (policy.deny.length) throw new Error("x") } }\n}\n')
    (finding,) = found(_plugin(project, code), "host/opencode-plugin-throws-at-load")
    assert finding.line == 4 and "policy.example.json is there" in finding.message


def test_a_project_file_that_is_there_or_read_in_a_try_is_not_reported(project):
    (project / ".opencode" / "plugins").mkdir(parents=True)
    (project / ".opencode" / "policy.json").write_text('{"deny": []}')
    code = ('import { readFileSync } from "node:fs"\nimport { join } from "node:path"\n'
            'export const P = async ({ directory }) => {\n'
            '  const policy = JSON.parse(readFileSync(join(directory, ".opencode", "policy.json"), "utf8"))\n'
            '  let extra = []\n  try { extra = JSON.parse(readFileSync(join(directory, "extra.json"), "utf8")) } catch { }\n'
            '  return { "tool.execute.before": async () => { if (policy.deny.length + extra.length) throw new Error("x") } }\n}\n')
    assert not found(_plugin(project, code), "host/opencode-plugin-throws-at-load")


# ---- a plugin spec opencode takes for an npm package -------------------------------------------------

def _config(project, *specs):
    (project / "opencode.json").write_text(json.dumps({"plugin": list(specs)}, indent=2))
    return run(None, project=project)


@pytest.mark.parametrize("spec, fix", [("tools/opencode/guard.js", '"./tools/opencode/guard.js"'),
                                       ("plugins/guard.ts", '"./plugins/guard.ts"'),
                                       ("tools/guard", '"./tools/guard"')])
def test_a_local_plugin_written_without_dot_slash_is_reported(project, spec, fix):
    (project / "tools" / "opencode").mkdir(parents=True)
    (project / "tools" / "opencode" / "guard.js").write_text("export const G = async () => ({})\n")
    (project / "tools" / "guard").mkdir()
    (finding,) = found(_config(project, spec), "host/opencode-plugin-not-a-path")
    assert fix in finding.hint and finding.line == 3


def test_a_plugin_from_the_home_folder_with_a_tilde_is_reported(project, home):
    (finding,) = found(_config(project, "~/hooks/guard.js"), "host/opencode-plugin-not-a-path")
    assert str(home / "hooks" / "guard.js") in finding.hint


@pytest.mark.parametrize("spec", ["./tools/opencode/guard.js", "opencode-wakatime", "@org/opencode-guard@1.2.0",
                                  "file:///opt/guard.js", "superpowers@git+https://github.com/obra/superpowers.git",
                                  "github:org/guard"])
def test_paths_and_npm_specs_are_not_reported(project, spec):
    (project / "tools" / "opencode").mkdir(parents=True)
    (project / "tools" / "opencode" / "guard.js").write_text("export const G = async () => ({})\n")
    assert not found(_config(project, spec), "host/opencode-plugin-not-a-path")


# ---- a tool name opencode never sends ----------------------------------------------------------------

@pytest.mark.parametrize("test, hint", [
    ('new Set(["shell"]).has(input.tool)', '"bash"'),
    ('input.tool === "run_shell_command"', '"bash"'),
    ('["write_file", "edit"].includes(input.tool)', '"write"'),
    ('input.tool === "exterminate"', "opencode's tool names"),
])
def test_a_tool_name_opencode_never_sends_is_reported(project, test, hint):
    (finding,) = found(_hook(project, f'if ({test}) throw new Error("no")'), "host/opencode-tool-name")
    assert hint in finding.hint


def test_a_custom_tool_of_the_project_is_a_tool_name(project):
    (project / ".opencode" / "tools").mkdir(parents=True)
    (project / ".opencode" / "tools" / "deploy.ts").write_text("export default {}\n")
    assert not found(_hook(project, 'if (input.tool === "deploy") throw new Error("no")'), "host/opencode-tool-name")


@pytest.mark.parametrize("name, reported", [("deploy", False), ("shell", True)])
def test_only_other_hosts_names_are_claimed_while_an_npm_plugin_may_add_tools(project, name, reported):
    (project / "opencode.json").write_text('{"plugin": ["opencode-deploy-tools"]}')
    outcome = _hook(project, f'if (input.tool === "{name}") throw new Error("no")')
    assert bool(found(outcome, "host/opencode-tool-name")) == reported


@pytest.mark.parametrize("test", ['input.tool === "bash"', 'input.tool === "my_docs_search"',
                                  'input.tool === "shell" || input.tool === "bash"'])
def test_opencodes_own_names_mcp_names_and_a_near_name_beside_its_own_are_not_reported(project, test):
    assert not found(_hook(project, f'if ({test}) throw new Error("no")'), "host/opencode-tool-name")


# ---- an absolute path compared with relative names ---------------------------------------------------

@pytest.mark.parametrize("body, name", [
    ('if (new Set([".env", "secrets.json"]).has(output.args.filePath)) throw new Error("no")', ".env"),
    ('if (output.args.filePath === "src/secrets.ts") throw new Error("no")', "src/secrets.ts"),
    ('const { filePath } = output.args\n    if (filePath.startsWith(".env")) throw new Error("no")', ".env"),
    ('const file = String(output.args.filePath ?? "")\n    switch (file) { case "config/prod.json": throw new Error("no") }',
     "config/prod.json"),
])
def test_an_absolute_path_argument_compared_with_relative_names_is_reported(project, body, name):
    (finding,) = found(_hook(project, body), "host/opencode-path-compared-relative")
    assert f'"{name}"' in finding.message and finding.line >= 3


@pytest.mark.parametrize("body", [
    'if (output.args.filePath.endsWith("/.env")) throw new Error("no")',
    'if (basename(output.args.filePath) === ".env") throw new Error("no")',
    'if (relative(directory, output.args.filePath) === "src/secrets.ts") throw new Error("no")',
    'const rel = relative(directory, output.args.filePath)\n    if (new Set([".env"]).has(rel)) throw new Error("no")',
    'if (output.args.filePath === join(directory, ".env")) throw new Error("no")',
    'if (output.args.filePath.startsWith("/etc/")) throw new Error("no")',
    'if (/\\.env$/.test(output.args.filePath)) throw new Error("no")',
    'if (output.args.command === "ls") throw new Error("no")',
])
def test_a_path_fitted_to_its_names_or_compared_absolute_is_not_reported(project, body):
    helpers = 'import { basename, join, relative } from "node:path"\n'
    assert not found(_hook(project, body, helpers), "host/opencode-path-compared-relative")


@pytest.mark.parametrize("imported, call", [
    ('import { check } from "./lib/policy.js"', "check(output.args.command)"),
    ('import { check as verify } from "./lib/policy"', "verify(output.args.command)"),
    ('import * as policy from "./lib/policy.js"', "policy.check(output.args.command)"),
    ('import { checkAll } from "./lib/policy.js"', "checkAll(output.args.command)"),  # (it calls check)
])
def test_a_refusal_thrown_by_the_plugins_own_module_under_a_catch_is_reported(project, imported, call):
    lib = project / ".opencode" / "plugins" / "lib"
    lib.mkdir(parents=True)
    (lib / "policy.js").write_text('export function check(cmd) { if (/rm -rf/.test(cmd)) throw new Error("refused") }\n'
                                   'export const checkAll = (cmd) => { for (const c of cmd.split(";")) check(c) }\n'
                                   'export function quiet(cmd) { try { check(cmd) } catch { } }\n')
    body = f"try {{ {call} }} catch (err) {{ console.error(err) }}"
    (finding,) = found(_hook(project, body, imported + "\n"), "host/opencode-refusal-caught")
    assert "a function of the plugin's own module" in finding.message


def test_a_function_of_the_plugins_module_that_never_throws_out_is_not_reported(project):
    lib = project / ".opencode" / "plugins" / "lib"
    lib.mkdir(parents=True)
    (lib / "policy.js").write_text('export function quiet(cmd) { try { if (cmd) throw new Error("x") } catch { } }\n')
    body = "try { quiet(output.args.command) } catch (err) { console.error(err) }"
    assert not found(_hook(project, body, 'import { quiet } from "./lib/policy.js"\n'), "host/opencode-refusal-caught")


def test_a_plugin_folder_without_an_entry_is_reported_and_one_with_an_index_is_not(project):
    (project / "tools" / "guard").mkdir(parents=True)
    (project / "tools" / "indexed").mkdir(parents=True)
    (project / "tools" / "indexed" / "index.ts").write_text("export const G = async () => ({})\n")
    (finding,) = found(_config(project, "./tools/guard", "./tools/indexed"), "host/opencode-plugin-missing")
    assert "no package.json" in finding.message and finding.line == 3


@pytest.mark.parametrize("text, reported", [('{"deny": ["rm -rf"],}', True), ('{"deny": [] // none yet\n}', True),
                                            ('{"deny": []}', False)])
def test_a_policy_the_plugin_parses_at_load_that_is_no_json_is_reported(project, text, reported):
    (project / ".opencode").mkdir()
    (project / ".opencode" / "policy.json").write_text(text)
    code = ('import { readFileSync } from "node:fs"\nimport { join } from "node:path"\n'
            'export const P = async ({ directory }) => {\n'
            '  const policy = JSON.parse(readFileSync(join(directory, ".opencode/policy.json"), "utf8"))\n'
            '  return { "tool.execute.before": async () => { if (policy.deny.length) throw new Error("x") } }\n}\n')
    hits = found(_plugin(project, code), "host/opencode-plugin-throws-at-load")
    assert [(hit.line, "is no JSON" in hit.message) for hit in hits] == ([(4, True)] if reported else [])


@pytest.mark.parametrize("test, reported", [("/^(shell|run_shell_command)$/.test(input.tool)", True),
                                            ("/^(shell|bash)$/.test(input.tool)", False),
                                            ("/^github_/.test(input.tool)", False)])
def test_a_regex_that_passes_only_other_hosts_tool_names_is_reported(project, test, reported):
    hits = found(_hook(project, f'if ({test}) throw new Error("no")'), "host/opencode-tool-pattern")
    assert [("bash" in hit.hint) for hit in hits] == ([True] if reported else [])


@pytest.mark.parametrize("imported, merged", [
    ('import { Guard } from "./lib/guard.js"\nimport { Audit } from "./lib/audit.js"',
     "({ ...(await Guard(ctx)), ...(await Audit(ctx)) })"),
    ('import * as guard from "./lib/guard.js"\nimport { Audit as Log } from "./lib/audit"',
     "Object.assign({}, await guard.Guard(ctx), await Log(ctx))"),
])
def test_two_plugins_of_the_projects_modules_merged_into_one_object_are_reported(project, imported, merged):
    lib = project / ".opencode" / "plugins" / "lib"
    lib.mkdir(parents=True)
    (lib / "guard.js").write_text(f'export const Guard = async () => ({{ "tool.execute.before": {GUARD} }})\n')
    (lib / "audit.js").write_text(f'export async function Audit() {{ return {{ "tool.execute.before": {LOGGER} }} }}\n')
    (finding,) = found(_plugin(project, f"{imported}\nexport const Team = async (ctx) => {merged}\n"),
                       "host/opencode-hook-twice")
    assert "this guard never runs" in finding.message and finding.line == 3


def test_plugins_of_the_projects_modules_with_keys_of_their_own_are_not_reported(project):
    lib = project / ".opencode" / "plugins" / "lib"
    lib.mkdir(parents=True)
    (lib / "guard.js").write_text(f'export const Guard = async () => ({{ "tool.execute.before": {GUARD} }})\n')
    (lib / "audit.js").write_text(f'export const Audit = async () => ({{ "tool.execute.after": {LOGGER} }})\n')
    code = ('import { Guard } from "./lib/guard.js"\nimport { Audit } from "./lib/audit.js"\n'
            "export const Team = async (ctx) => ({ ...(await Guard(ctx)), ...(await Audit(ctx)) })\n")
    assert not found(_plugin(project, code), "host/opencode-hook-twice")
