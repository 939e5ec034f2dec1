"""opencode plugins whose guard is lost on the way, each bad plugin beside its corrected twin in one
session of the real opencode 1.18.33: the bad one lets its call run, the twin refuses its own;
doctor flags each bad plugin at the line marked `// flagged`, and no twin.

- a hook key given twice in the returned object (the later logger replaces the guard); the twin
  does both in one function;
- a refusal written as permission.ask's `output.status = "deny"`; the twin throws;
- a refusal thrown by the plugin's own function inside a try whose catch logs and goes on; the
  twin's catch throws again;
- a policy file read through `join(directory, ...)` while the plugin loads, missing in this
  project (opencode logs "failed to load plugin" and goes on without it); the twin's file is there;
- a guard that picks the tool `shell` (opencode 1.18.33 calls it `bash`); the twin picks `bash`;
- a write guard that tests `output.args.filePath` against relative names (the model sends the
  absolute path); the twin tests the path relative to `directory`;
- a local plugin listed in opencode.json as `tools/...` (taken for an npm package); the twin as
  `./tools/...`.
"""
from __future__ import annotations

import pytest
from opencode_cli import flagged_lines, marked_lines, run_opencode, write_plugins

pytestmark = pytest.mark.e2e


def _refuses(name: str) -> str:
    return f'if (input.tool === "bash" && String(output.args.command).includes("touch {name}")) '


def _hook(name: str, body: str, before: str = "", head: str = "") -> str:
    return (f'{head}export const P = async ({{ directory }}) => {{\n{before}  return {{\n'
            f'    "tool.execute.before": async (input, output) => {{\n{body}\n    }},\n  }}\n}}\n')


PLUGINS = {
    "twice-bad.js": ('export const P = async () => ({\n'
                     '  "tool.execute.before": async (input, output) => {  // flagged\n'
                     f'    {_refuses("b1.txt")}throw new Error("refused b1.txt")\n  }},\n'
                     '  "tool.execute.before": async (input) => { console.log("audit", input.tool) },\n})\n'),
    "twice-twin.js": ('export const P = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
                      '    console.log("audit", input.tool)\n'
                      f'    {_refuses("b2.txt")}throw new Error("refused b2.txt")\n  }},\n}})\n'),
    "status-bad.js": _hook("b3.txt", f'      {_refuses("b3.txt")}{{\n'
                                     '        output.status = "deny"  // flagged\n      }'),
    "status-twin.js": _hook("b4.txt", f'      {_refuses("b4.txt")}{{ throw new Error("refused b4.txt") }}'),
    "caught-bad.js": _hook("b5.txt", '      try { check(output.args.command) }\n'
                                     '      catch (err) { console.error("guard:", err.message) }  // flagged',
                           head='function check(cmd) { if (String(cmd).includes("touch b5.txt")) throw new Error("refused b5.txt") }\n'),
    "caught-twin.js": _hook("b6.txt", '      try { check(output.args.command) }\n'
                                      '      catch (err) { console.error("guard:", err.message); throw err }',
                            head='function check(cmd) { if (String(cmd).includes("touch b6.txt")) throw new Error("refused b6.txt") }\n'),
    "policy-bad.js": _hook("b7.txt", f'      {_refuses("b7.txt")}{{ if (policy.deny) throw new Error("refused b7.txt") }}',
                           '  const policy = JSON.parse(readFileSync(join(directory, ".opencode", "team-policy.json"), "utf8"))'
                           '  // flagged\n',
                           'import { readFileSync } from "node:fs"\nimport { join } from "node:path"\n'),
    "policy-twin.js": _hook("b8.txt", f'      {_refuses("b8.txt")}{{ if (policy.deny) throw new Error("refused b8.txt") }}',
                            '  const policy = JSON.parse(readFileSync(join(directory, ".opencode", "policy.json"), "utf8"))\n',
                            'import { readFileSync } from "node:fs"\nimport { join } from "node:path"\n'),
    "shell-bad.ts": _hook("b9.txt", '      if (input.tool === "shell"  // flagged\n'
                                    '          && String(output.args.command).includes("touch b9.txt")) throw new Error("refused b9.txt")'),
    "shell-twin.ts": _hook("b10.txt", f'      {_refuses("b10.txt")}throw new Error("refused b10.txt")'),
    "path-bad.js": _hook("", '      if (input.tool === "write" && [".env.local", "config/.env"].includes(output.args.filePath))'
                             '  // flagged\n        throw new Error("refused .env.local")'),
    "path-twin.js": _hook("", '      if (input.tool === "write" && relative(directory, output.args.filePath) === "secrets.json")\n'
                              '        throw new Error("refused secrets.json")', head='import { relative } from "node:path"\n'),
}
RULES = {"twice-bad.js": "host/opencode-hook-twice", "status-bad.js": "host/opencode-refusal-unread",
         "caught-bad.js": "host/opencode-refusal-caught", "policy-bad.js": "host/opencode-plugin-throws-at-load",
         "shell-bad.ts": "host/opencode-tool-name", "path-bad.js": "host/opencode-path-compared-relative"}
LISTED = {"guard-bad.js": _hook("", f'      {_refuses("b11.txt")}throw new Error("refused b11.txt")'),
          "guard-twin.js": _hook("", f'      {_refuses("b12.txt")}throw new Error("refused b12.txt")')}


def _bash(name: str) -> dict:
    return {"tool": "bash", "input": {"command": f"touch {name} && echo RAN {name}", "description": name}}


def test_a_guard_lost_on_the_way_lets_its_call_run_and_its_twin_refuses(opencode_cli, home, project):
    config = project / ".opencode"
    write_plugins(config / "plugins", PLUGINS)
    write_plugins(project / "tools", LISTED)
    (config / "policy.json").write_text('{"deny": true}\n')
    (config / "team-policy.example.json").write_text('{"deny": true}\n')
    names = [f"b{n}.txt" for n in range(1, 13)]
    writes = [{"tool": "write", "input": {"filePath": str(project / name), "content": "TOKEN=1\n"}}
              for name in (".env.local", "secrets.json")]
    run = run_opencode(project, home, [*map(_bash, names), *writes, "done"],
                       config={"plugin": ["tools/guard-bad.js", "./tools/guard-twin.js"]})
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    results = [result["content"] for result in run.tool_results]
    assert len(results) == len(names) + len(writes)
    for name, result in zip(names, results):
        bad = int(name[1:-4]) % 2 == 1
        assert (project / name).exists() == bad and (f"RAN {name}" in result) == bad, (name, result)
    assert (project / ".env.local").exists() and not (project / "secrets.json").exists(), results[-2:]
    failed = [line for line in run.stderr.splitlines() if "failed to load plugin" in line]
    assert any("policy-bad.js" in line and "ENOENT" in line for line in failed), failed
    assert flagged_lines(home, project, set(RULES.values())) == marked_lines(PLUGINS, RULES)
    listed = flagged_lines(home, project, {"host/opencode-plugin-not-a-path"})["host/opencode-plugin-not-a-path"]
    config_text = (project / "opencode.json").read_text().splitlines()
    assert listed == [("opencode.json", next(n for n, line in enumerate(config_text, 1) if "tools/guard-bad.js" in line))]
