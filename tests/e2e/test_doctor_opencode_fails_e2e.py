"""opencode's own ways for a plugin's guard to fail, each a bad plugin and its corrected twin run
side by side in one session of the real opencode 1.18.33: the bad one lets its call run, the twin
refuses its own; doctor flags each bad plugin at the line marked `// flagged`, and no twin.

- in one project (`test_a_guard_fails_by_its_own_code`): Claude Code's argument name read after
  an early return on a Set of tools; `return false` where only a throw blocks; a Bun `$` call
  whose `.then()` throws, unawaited; a tool name compared as `Bash`; a default export with a
  server and no id, and one with 2.0's `setup` instead of a server; a `permission.ask` hook (never called by 1.18.33, even for a call the config
  says to ask about);
- in another project (`test_a_guard_fails_by_what_it_never_waits_for`): a throw in what the hook
  starts and returns before it settles (`execFile`'s callback, a timer, a child's `close`
  listener, a `new Promise` and an async function not awaited, `forEach(async ...)`) and a
  change of the arguments in `execFile`'s callback, each beside a twin that awaits or returns it
  (or runs it synchronously); the uncaught throws end opencode with status 1 once the session is
  over, and every call still ran;
- across scopes (`test_a_guard_fails_by_what_runs_before_it`): a global plugin that puts text
  before the command, run before a project guard anchored at the start (and a guard it runs
  after, which is unharmed); an MCP server's tools picked by a prefix built from the configured
  name `orders.db`, which opencode writes `orders_db`;
- across scopes the other way (`test_a_guard_misses_what_a_plugin_run_after_it_changes`): the
  user's guard, run before a project plugin that expands an alias into the command it refuses;
  the same expander listed in the project's opencode.json runs before every plugins folder.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from opencode_cli import flagged_lines, marked_lines, run_opencode, write_plugins

pytestmark = pytest.mark.e2e

MCP_SERVER = Path(__file__).with_name("fake_mcp_server.py")
BEFORE = 'export const P = async ({ $ }) => ({\n  "tool.execute.before": async (input, output) => {\n%s\n  },\n})\n'


def _bash(name: str) -> dict:
    return {"tool": "bash", "input": {"command": f"touch {name} && echo RAN {name}", "description": name}}


def _touching(name: str) -> str:
    return f'input.tool === "bash" && String(output.args.command).includes("touch {name}")'


OWN_CODE = {
    # Claude Code's argument name, after an early return on a Set of the tools: the read goes on
    "arg-bad.ts": ('const READS = new Set(["read", "grep"])\n' + BEFORE % (
        '    if (!READS.has(input.tool)) return\n'
        '    const path: string = output.args.file_path ?? ""  // flagged\n'
        '    if (path.endsWith("a.secret")) throw new Error("refused a.secret")')),
    "arg-twin.ts": ('const READS = new Set(["read", "grep"])\n' + BEFORE % (
        '    if (!READS.has(input.tool)) return\n'
        '    const path: string = output.args.filePath ?? ""\n'
        '    if (path.endsWith("b.secret")) throw new Error("refused b.secret")')),
    "return-bad.js": BEFORE % f'    if ({_touching("c.txt")}) return false  // flagged',
    "return-twin.js": BEFORE % f'    if ({_touching("d.txt")}) throw new Error("refused d.txt")',
    "shell-bad.js": BEFORE % (
        f'    if (!({_touching("e.txt")})) return\n'
        '    $`false`.nothrow().quiet().then((r) => {  // flagged\n'
        '      if (r.exitCode !== 0) throw new Error("refused e.txt")\n    })'),
    "shell-twin.js": BEFORE % (
        f'    if (!({_touching("f.txt")})) return\n'
        '    const r = await $`false`.nothrow().quiet()\n'
        '    if (r.exitCode !== 0) throw new Error("refused f.txt")'),
    "case-bad.js": BEFORE % (
        '    if (input.tool === "Bash" && String(output.args.command).includes("touch g.txt")) throw new Error("g")'
        '  // flagged'),
    "case-twin.js": BEFORE % (
        '    if (input.tool.toLowerCase() === "bash" && String(output.args.command).includes("touch h.txt"))'
        ' throw new Error("refused h.txt")'),
    "noid-bad.ts": ('export default {  // flagged\n  server: async () => ({\n    "tool.execute.before": async (input, output) => {\n'
                    f'      if ({_touching("i.txt")}) throw new Error("refused i.txt")\n    }},\n  }}),\n}}\n'),
    "noid-twin.ts": ('export default {\n  id: "noid-twin",\n  server: async () => ({\n'
                     '    "tool.execute.before": async (input, output) => {\n'
                     f'      if ({_touching("j.txt")}) throw new Error("refused j.txt")\n    }},\n  }}),\n}}\n'),
    "setup-bad.ts": ('export default {  // flagged\n  id: "setup-bad",\n  setup: async () => ({\n'
                     '    "tool.execute.before": async (input, output) => {\n'
                     f'      if ({_touching("p.txt")}) throw new Error("refused p.txt")\n    }},\n  }}),\n}}\n'),
    "ask-bad.js": ('import { writeFileSync } from "fs"\n'
                   'export const P = async ({ directory }) => ({\n'
                   '  "permission.ask": async (permission, output) => {  // flagged\n'
                   '    writeFileSync(`${directory}/asked.txt`, JSON.stringify(permission))\n'
                   '    output.status = "deny"\n  },\n})\n'),
    "ask-twin.js": BEFORE % f'    if ({_touching("l.txt")}) throw new Error("refused l.txt")',
}
# the rule each bad plugin is flagged by
OWN_RULES = {"arg-bad.ts": "host/opencode-argument-not-there", "return-bad.js": "host/opencode-return-does-not-block",
             "shell-bad.js": "host/opencode-promise-not-awaited", "case-bad.js": "host/opencode-tool-name",
             "noid-bad.ts": "host/opencode-plugin-no-id", "ask-bad.js": "host/opencode-hook-never-called",
             "setup-bad.ts": "host/opencode-plugin-export-not-function"}


def _results(run) -> list[str]:
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    return [result["content"] for result in run.tool_results]


def test_a_guard_fails_by_its_own_code(opencode_cli, home, project):
    for name in ("a.secret", "b.secret"):
        (project / name).write_text(f"TOKEN of {name}\n")
    write_plugins(project / ".opencode" / "plugins", OWN_CODE)
    calls = [{"tool": "read", "input": {"filePath": str(project / "a.secret")}},
             {"tool": "read", "input": {"filePath": str(project / "b.secret")}},
             *map(_bash, ["c.txt", "d.txt", "e.txt", "f.txt", "g.txt", "h.txt", "i.txt", "j.txt", "p.txt", "l.txt",
                           "k.txt"])]
    # the config asks before `touch k.txt`: the one call a permission.ask hook could be given
    permission = {"bash": {"*": "allow", "touch k.txt*": "ask"}, "edit": "allow", "read": "allow"}
    run = run_opencode(project, home, [*calls, "done"], config={"permission": permission})
    results = _results(run)
    # the permission was asked (and the headless run rejected it, which ends the session there)
    (asked,) = [part for part in run.tool_parts() if part["input"].get("description") == "k.txt"]
    assert "rejected permission" in asked["error"] and len(results) == len(calls) - 1
    read_a, read_b = results[:2]
    assert "TOKEN of a.secret" in read_a and "refused b.secret" in read_b
    for bad, twin in (("c", "d"), ("e", "f"), ("g", "h"), ("i", "j"), ("p", "j")):
        assert (project / f"{bad}.txt").exists(), f"{bad}.txt: the bad plugin refused it"
        assert not (project / f"{twin}.txt").exists() and f"refused {twin}.txt" in results[calls.index(
            _bash(f"{twin}.txt"))]
    assert not (project / "l.txt").exists()
    assert not (project / "k.txt").exists()
    assert not (project / "asked.txt").exists()  # permission.ask was never called
    assert flagged_lines(home, project, set(OWN_RULES.values())) == marked_lines(OWN_CODE, OWN_RULES)


ORDER_GLOBAL = {  # the user's plugins folder: runs before the project's
    "pager.js": BEFORE % ('    if (input.tool !== "bash") return\n    const cmd = String(output.args.command).trim()\n'
                          '    if (/^touch\\s/.test(cmd)) output.args.command = `PAGER=cat ${cmd}`'),
}
FIRST = {  # listed by the user's config: runs before every plugins folder, so before pager.js
    "first-guard.js": BEFORE % ('    if (input.tool === "bash" && /^touch m\\.txt/.test(output.args.command))'
                                ' throw new Error("refused m.txt")'),
}
ORDER_PROJECT = {
    "late-guard.js": ('const RULES = [\n  /^touch n\\.txt/,  // flagged\n]\n' + BEFORE % (
        '    if (input.tool !== "bash") return\n'
        '    if (RULES.some((re) => re.test(output.args.command))) throw new Error("refused n.txt")')),
    "late-twin.js": BEFORE % ('    if (input.tool === "bash" && /(^|\\s)touch o\\.txt/.test(output.args.command))'
                              ' throw new Error("refused o.txt")'),
    "mcp-bad.js": ('const SERVER = "orders.db"\n' + BEFORE % (
        '    if (input.tool.startsWith(`${SERVER}_`)) throw new Error("refused orders")  // flagged')),
    "mcp-twin.js": ('const SERVER = "billing.db"\n' + BEFORE % (
        '    if (input.tool.startsWith(`${SERVER.replace(/[^A-Za-z0-9_-]/g, "_")}_`)) throw new Error("refused billing")')),
}
LATER = ('import { execFile, execFileSync, spawn } from "node:child_process"\nimport { promisify } from "node:util"\n'
         + BEFORE)


def _refusing(name: str, body: str) -> str:
    return LATER % f'    if (!({_touching(name)})) return\n{body.replace("NAME", name)}'


FAIL = '(e) => e ? fail(new Error("refused NAME")) : ok()'
# each plugin: the file of the call it refuses, and what it does
NEVER_WAITED_BODIES = {
    "exec-bad.js": ("q.txt", '    execFile("false", [], (err) => {  // flagged\n'
                             '      if (err) throw new Error("refused NAME")\n    })'),
    "timer-bad.js": ("r.txt", '    setTimeout(() => { throw new Error("refused NAME") }, 0)  // flagged'),
    "close-bad.js": ("s.txt", '    spawn("false").on("close", (code) => {  // flagged\n'
                              '      if (code) throw new Error("refused NAME")\n    })'),
    "promise-bad.js": ("t.txt", f'    new Promise((ok, fail) => execFile("false", [], {FAIL}))  // flagged'),
    "async-bad.js": ("u.txt", '    const check = async () => { throw new Error("refused NAME") }\n'
                              '    check()  // flagged'),
    "each-bad.js": ("v.txt", '    ["x"].forEach(async () => { throw new Error("refused NAME") })  // flagged'),
    "args-bad.js": ("w.txt", '    execFile("true", [], () => {  // flagged\n'
                             '      output.args.command = "echo REWRITTEN NAME"\n    })'),
    "exec-twin.js": ("q2.txt", '    try { await promisify(execFile)("false") } catch { throw new Error("refused NAME") }'),
    "return-twin.js": ("t2.txt", f'    return new Promise((ok, fail) => execFile("false", [], {FAIL}))'),
    "await-twin.js": ("s2.txt", f'    await new Promise((ok, fail) => spawn("false").on("close", {FAIL}))'),
    "sync-twin.js": ("r2.txt", '    try { execFileSync("false") } catch { throw new Error("refused NAME") }'),
    "for-twin.js": ("u2.txt", '    for (const x of ["x"]) { await Promise.resolve(x); throw new Error("refused NAME") }'),
    "all-twin.js": ("v2.txt", '    await Promise.all(["x"].map(async () => { throw new Error("refused NAME") }))'),
    "args-twin.js": ("w2.txt", '    await new Promise((ok) => execFile("true", [], () => {\n'
                               '      output.args.command = "echo REWRITTEN NAME"; ok()\n    }))'),
}
NEVER_WAITED = {file: _refusing(name, body) for file, (name, body) in NEVER_WAITED_BODIES.items()}


def test_a_guard_fails_by_what_it_never_waits_for(opencode_cli, home, project):
    write_plugins(project / ".opencode" / "plugins", NEVER_WAITED)
    calls = [_bash(name) for name, _ in NEVER_WAITED_BODIES.values()]
    run = run_opencode(project, home, [*calls, "done"])
    assert not run.timed_out and run.returncode == 1, run.stderr[-3000:]  # (the uncaught throws, at the end)
    assert "error: refused q.txt" in run.stderr
    results = [result["content"] for result in run.tool_results]
    assert len(results) == len(calls)
    for (plugin, (file, _)), result in zip(NEVER_WAITED_BODIES.items(), results):
        if plugin == "args-twin.js":
            assert result.strip() == f"REWRITTEN {file}" and not (project / file).exists()
        elif plugin.endswith("-bad.js"):
            assert (project / file).exists() and f"RAN {file}" in result, plugin
        else:
            assert not (project / file).exists() and f"refused {file}" in result, plugin
    rule = "host/opencode-promise-not-awaited"
    expected = marked_lines(NEVER_WAITED, {file: rule for file in NEVER_WAITED if file.endswith("-bad.js")})
    assert sorted(flagged_lines(home, project, {rule})[rule]) == sorted(expected[rule])


ORDER_RULES = {"late-guard.js": "host/opencode-rewritten-before-check", "mcp-bad.js": "host/opencode-tool-prefix-name"}


def test_a_guard_fails_by_what_runs_before_it(opencode_cli, home, project, tmp_path):
    user = home / ".config" / "opencode"
    write_plugins(user / "plugins", ORDER_GLOBAL)
    write_plugins(user / "first", FIRST)
    (user / "opencode.json").write_text(json.dumps({"plugin": ["./first/first-guard.js"]}))
    write_plugins(project / ".opencode" / "plugins", ORDER_PROJECT)
    records = {server: tmp_path / f"{server}.jsonl" for server in ("orders", "billing")}
    mcp = {f"{server}.db": [sys.executable, str(MCP_SERVER), str(record)] for server, record in records.items()}
    calls = [*map(_bash, ["m.txt", "n.txt", "o.txt"]),
             {"tool": "orders_db_read_doc", "input": {"path": "a.md"}},
             {"tool": "billing_db_read_doc", "input": {"path": "a.md"}}]
    results = _results(run_opencode(project, home, [*calls, "done"], mcp=mcp, env={"XDG_CONFIG_HOME": None}))
    assert len(results) == len(calls)
    assert "refused m.txt" in results[0] and not (project / "m.txt").exists()  # (it ran before the change)
    assert (project / "n.txt").exists() and "RAN n.txt" in results[1]  # (it ran on `PAGER=cat touch n.txt`)
    assert "refused o.txt" in results[2] and not (project / "o.txt").exists()
    assert records["orders"].exists() and not records["billing"].exists()
    assert "refused billing" in results[4]
    assert flagged_lines(home, project, set(ORDER_RULES.values())) == marked_lines(ORDER_PROJECT, ORDER_RULES)


GUARD_OF_THE_USER = {  # the user's plugins folder: runs before the project's, after every listed plugin
    "shell-guard.js": BEFORE % ('    if (input.tool === "bash" && /touch bad/.test(output.args.command))'
                                ' throw new Error(`refused ${output.args.command}`)'),
}


def _expander(alias: str, name: str, flagged: bool) -> str:
    return BEFORE % ('    if (input.tool !== "bash") return\n'
                     '    const [head, ...rest] = String(output.args.command).split(" ")\n'
                     f'    if (head === "{alias}") output.args.command = ["touch {name} && echo RAN {name}", ...rest]'
                     f'.join(" "){"  // flagged" if flagged else ""}')


EXPANDERS = {"aliases.js": _expander("mkbad1", "bad1.txt", True)}  # the project's plugins folder
LISTED = {"aliases-first.js": _expander("mkbad2", "bad2.txt", False)}  # listed by the project's config


def test_a_guard_misses_what_a_plugin_run_after_it_changes(opencode_cli, home, project):
    write_plugins(home / ".config" / "opencode" / "plugins", GUARD_OF_THE_USER)
    write_plugins(project / ".opencode" / "plugins", EXPANDERS)
    write_plugins(project / "listed", LISTED)
    calls = [{"tool": "bash", "input": {"command": alias, "description": alias}} for alias in ("mkbad1", "mkbad2")]
    results = _results(run_opencode(project, home, [*calls, "done"], env={"XDG_CONFIG_HOME": None},
                                    config={"plugin": ["./listed/aliases-first.js"]}))
    assert len(results) == len(calls)
    assert (project / "bad1.txt").exists() and "RAN bad1.txt" in results[0]  # (the guard saw `mkbad1`)
    assert not (project / "bad2.txt").exists() and "refused touch bad2.txt" in results[1]
    rule = "host/opencode-checked-before-rewrite"
    assert flagged_lines(home, project, {rule}) == marked_lines(EXPANDERS, {"aliases.js": rule})
