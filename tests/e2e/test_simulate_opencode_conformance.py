"""`hookwright simulate --host opencode` against the real opencode: every scenario runs twice, and must agree.

A scenario is a set of plugin files (in the project's and the user's config folders, or listed
with options in the user's opencode.json) and one tool call. simulate runs the plugins in
opencode's own runtime (its executable as Bun) on the call; the real opencode (pinned, headless,
fake model API on 127.0.0.1) makes the call. They must agree on whether the tool ran, on the
error the model got when it did not, and on the arguments it ran with when it did.

What a call ran with is its part's input for bash; for other tools opencode records the input
the model gave, so the evidence is what the tool got: the MCP server's record of its arguments,
the content the read tool returned.

The real runs are batched (an opencode run costs about ten seconds): every scenario's plugins
act only on calls that carry its marker (S01, S02...) in their arguments, so many scenarios share
one project and one run, a tool call each. A plugin that fails to load, or that never acts, is
its scenario's own file, and what it would do on its marker's call shows whether it ran.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from claude_cli import hookwright as hookwright_cli
from opencode_cli import OPENCODE, run_opencode

pytestmark = pytest.mark.e2e

MCP_SERVER = Path(__file__).with_name("fake_mcp_server.py")
GUARD = 'if (!JSON.stringify(output.args).includes("{M}")) return\n'


def before(body: str, export: str = "export const {N} = async () => ({{\n  \"tool.execute.before\": async (input, output) => {{\n{B}  }},\n}})\n") -> str:
    """A plugin file whose tool.execute.before runs `body` on its scenario's calls ({M}: the marker)."""
    text = export.replace("{B}", "    " + GUARD + "".join(f"    {line}\n" for line in body.splitlines()))
    return text.replace("{{", "{").replace("}}", "}")


@dataclass
class Scenario:
    marker: str
    name: str
    files: dict[str, str]  # "project:plugins/x.js" | "user:plugins/x.js" | "user:opencode.json" -> text
    tool: str = "bash"
    args: dict = field(default_factory=dict)  # {M} in a value: the marker
    batch: str = "main"
    mcp: bool = False

    def call(self, project: Path) -> dict:
        text = json.dumps(self.args or {"command": "echo {M} ran", "description": "{M}"})
        return json.loads(text.replace("{M}", self.marker).replace("{P}", str(project)))


S = Scenario
SCENARIOS = [
    S("S01", "a throw stops the call with its message", {"project:plugins/S01.js": before('throw new Error("S01 says no")')}),
    S("S02", "a thrown string", {"project:plugins/S02.js": before('throw "S02 string"')}),
    S("S03", "a thrown object", {"project:plugins/S03.js": before('throw {code: 3, why: "S03"}')}),
    S("S04", "a rewrite in place", {"project:plugins/S04.js": before('output.args.command = "echo S04 rewritten"')}),
    S("S05", "a reassigned output.args is never seen",
      {"project:plugins/S05.js": before('output.args = {command: "echo S05 replaced", description: "x"}')}),
    S("S06", "a key deleted in place", {"project:plugins/S06.js": before("delete output.args.description")}),
    S("S07", "a key added in place", {"project:plugins/S07.js": before("output.args.timeout = 5000")}),
    S("S08", "two plugins on one tool: the user's, then the project's",
      {"user:plugins/S08a.js": before('output.args.command = "echo S08 user"'),
       "project:plugins/S08b.js": before('output.args.command = output.args.command + " then project"')}),
    S("S09", "two plugins on one tool: the other order",
      {"project:plugins/S09a.js": before('output.args.command = output.args.command + " then project"'),
       "user:plugins/S09b.js": before('output.args.command = "echo S09 user"')}),
    S("S10", "the first plugin throws: the second is never called",
      {"user:plugins/S10a.js": before('throw new Error("S10 first")'),
       "project:plugins/S10b.js": before('output.args.command = "echo S10 second"')}),
    S("S11", "the first rewrites, the second throws",
      {"user:plugins/S11a.js": before('output.args.command = "echo S11 first"'),
       "project:plugins/S11b.js": before('throw new Error("S11 second: " + output.args.command)')}),
    S("S12", "a plugin that fails to load: an export that is not a function",
      {"project:plugins/S12.js": before('throw new Error("S12 should not run")') + 'export const VERSION = "1"\n'}),
    S("S13", "a plugin with a syntax error", {"project:plugins/S13.js": before('throw new Error("S13")') + "}}}\n"}),
    S("S14", "a .mjs plugin is not loaded", {"project:plugins/S14.mjs": before('throw new Error("S14")')}),
    S("S15", "a plugin in a subfolder is not loaded", {"project:plugins/sub/S15.js": before('throw new Error("S15")')}),
    S("S16", "an async hook", {"project:plugins/S16.js": before(
        'await new Promise((done) => setTimeout(done, 300))\noutput.args.command = "echo S16 later"')}),
    S("S17", "an async hook that rejects", {"project:plugins/S17.ts": before(
        'await new Promise((done) => setTimeout(done, 200))\nawait Promise.reject(new Error("S17 rejected"))')}),
    S("S18", "export default {id, server}", {"project:plugins/S18.js": before(
        'output.args.command = "echo S18 server"',
        export='export default {{id: "s18", server: async () => ({{\n  "tool.execute.before": async (input, output) => {{\n{B}  }},\n}})}}\n')}),
    S("S19", "a TypeScript plugin with types", {"project:plugins/S19.ts": before(
        'const said: string = "echo S19 typed"\noutput.args.command = said',
        export='import type {{ Plugin }} from "@opencode-ai/plugin"\nexport const {N}: Plugin = async () => ({{\n  "tool.execute.before": async (input: any, output: any) => {{\n{B}  }},\n}})\n')}),
    S("S20", "one function exported twice runs once", {"project:plugins/S20.js": before(
        'output.args.command = output.args.command + " +once"',
        export='const P = async () => ({{\n  "tool.execute.before": async (input, output) => {{\n{B}  }},\n}})\nexport default P\nexport {{ P }}\n')}),
    S("S21", "two plugin functions in one file both run", {"project:plugins/S21.js":
        before('output.args.command = output.args.command + " +one"').replace("{N}", "One")
        + before('output.args.command = output.args.command + " +two"').replace("{N}", "Two")}),
    S("S22", "a hook under a key opencode has no hook for", {"project:plugins/S22.js": before(
        'throw new Error("S22")', export='export const {N} = async () => ({{\n  "tool.before": async (input, output) => {{\n{B}  }},\n}})\n')}),
    S("S23", "a CommonJS plugin is not loaded", {"project:plugins/S23.js": before(
        'throw new Error("S23")', export='module.exports = async () => ({{\n  "tool.execute.before": async (input, output) => {{\n{B}  }},\n}})\n')}),
    S("S24", "a plugin whose set-up throws", {"project:plugins/S24.js": before(
        'throw new Error("S24 hook")', export='export const {N} = async () => {{\n  throw new Error("S24 set-up")\n  return {{"tool.execute.before": async (input, output) => {{\n{B}  }}}}\n}}\n')}),
    S("S25", "an MCP tool by opencode's name", {"project:plugins/S25.js": before(
        'if (input.tool === "docs_read_doc") output.args.path = "/abs/" + output.args.path')},
      tool="docs_read_doc", args={"path": "{M}/notes.md", "mode": "r"}, mcp=True),
    S("S26", "another tool's argument rewritten", {"project:plugins/S26.js": before(
        'if (input.tool === "read") output.args.filePath = output.args.filePath.replace("S26.txt", "S26-other.txt")')},
      tool="read", args={"filePath": "{P}/{M}.txt"}),
    S("S27", "changing input.tool changes nothing", {"project:plugins/S27.js": before('input.tool = "read"')}),
    S("S28", "options from the user's opencode.json", {
        "user:lib/S28.js": before('output.args.command = output.args.command + " " + (options?.suffix ?? "none")',
                                  export='export const {N} = async (ctx, options) => ({{\n  "tool.execute.before": async (input, output) => {{\n{B}  }},\n}})\n'),
        "user:opencode.json": json.dumps({"plugin": [["./lib/S28.js", {"suffix": "with-options"}]]})}),
    S("S29", "a hook's return value is ignored", {"project:plugins/S29.js": before('return {args: {command: "echo S29 returned"}}')}),
    S("S30", "process.exit in a hook ends opencode", {"project:plugins/S30.js": before("process.exit(0)")}, batch="exit"),
]
BATCHES = sorted({s.batch for s in SCENARIOS})


def lay_out(scenarios: list[Scenario], project: Path, config_home: Path) -> None:
    """Every scenario's files: the project's .opencode/ and the user's config folder."""
    user_config: dict = {}
    for scenario in scenarios:
        for where, text in scenario.files.items():
            scope, _, relative = where.partition(":")
            folder = project / ".opencode" if scope == "project" else config_home / "opencode"
            text = text.replace("{M}", scenario.marker).replace("{N}", f"P{scenario.marker}")
            if relative == "opencode.json":
                user_config.setdefault("plugin", []).extend(json.loads(text)["plugin"])
                continue
            path = folder / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        if scenario.tool == "read":
            (project / f"{scenario.marker}.txt").write_text("first\n")
            (project / f"{scenario.marker}-other.txt").write_text("other\n")
    if user_config:
        (config_home / "opencode").mkdir(parents=True, exist_ok=True)
        (config_home / "opencode" / "opencode.json").write_text(json.dumps(user_config))


@dataclass
class Seen:
    ran: bool
    error: str | None
    args: dict | None  # what the tool ran with


@pytest.fixture(scope="module")
def real(opencode_cli, tmp_path_factory) -> dict[str, tuple[Path, Path, dict[str, Seen]]]:
    """Each batch laid out and run once through the real opencode: (project, config home, what each
    scenario's call did)."""
    found = {}
    for batch in BATCHES:
        scenarios = [s for s in SCENARIOS if s.batch == batch]
        root = tmp_path_factory.mktemp(f"oc-{batch}")
        project, home, config_home = root / "project", root / "home", root / "home" / ".config"
        project.mkdir()
        home.mkdir()
        lay_out(scenarios, project, config_home)
        turns = [{"tool": s.tool, "input": s.call(project)} for s in scenarios] + ["done"]
        mcp = {"docs": [sys.executable, str(MCP_SERVER), str(root / "mcp.jsonl")]} if any(s.mcp for s in scenarios) else None
        run = run_opencode(project, home, turns, env={"XDG_CONFIG_HOME": str(config_home)}, mcp=mcp)
        assert not run.timed_out, run.stderr[-3000:]
        parts = run.tool_parts()
        record = root / "mcp.jsonl"
        served = [json.loads(line)["arguments"] for line in record.read_text().splitlines()] if record.exists() else []
        seen = {}
        for scenario in scenarios:
            part = next((p for p in parts if scenario.marker in json.dumps(p.get("input"))), None)
            args = part.get("input") if part else None
            if scenario.mcp:  # (what the server got)
                args = next((a for a in served if scenario.marker in json.dumps(a)), None)
            elif scenario.tool == "read" and part and part.get("status") == "completed":  # (the file it read)
                read = "-other" if "other" in str(part.get("output")) else ""
                args = {**args, "filePath": str(project / f"{scenario.marker}{read}.txt")}
            seen[scenario.marker] = Seen(ran=part is not None and part.get("status") == "completed",
                                         error=part.get("error") if part else None, args=args)
        found[batch] = (project, config_home, seen)
    return found


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{s.marker} {s.name}" for s in SCENARIOS])
def test_simulate_agrees_with_the_real_opencode(scenario, real, hookwright, monkeypatch, tmp_path):
    project, config_home, seen = real[scenario.batch]
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "opencode").symlink_to(OPENCODE)
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("HOME", str(config_home.parent))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    call = scenario.call(project)

    done = hookwright("simulate", "--host", "opencode", "--tool", scenario.tool, "--input", json.dumps(call),
                      "--project", project, "--json")

    assert done.code == 0, done.out + done.err
    doc = done.json
    real_seen = seen[scenario.marker]
    assert doc["host"] == "opencode" and doc["ran"], doc
    assert doc["blocked"] == (not real_seen.ran), (doc, real_seen)
    if real_seen.ran:
        assert doc["tool_input"] == real_seen.args
    elif real_seen.error is not None:
        assert doc["reason"] == real_seen.error
    else:  # the call never got a result: opencode ended (process.exit)
        assert doc["reason"].startswith("process.exit")


def test_the_hookwright_plugin_is_simulated_in_opencode_as_it_runs_there(opencode_cli, hookwright, home, project,
                                                                         monkeypatch, tmp_path):
    """git-guard installed for opencode: simulate says the reset is refused with our reason, as the
    real opencode refuses it."""
    installed = hookwright_cli("install", "git-guard", "--host", "opencode", "--scope", "project", "--project",
                               str(project), "--yes", home=home, project=project)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "opencode").symlink_to(OPENCODE)
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ['PATH']}")
    reset = {"command": "git reset --hard", "description": "discard"}

    done = hookwright("simulate", "--command", "git reset --hard", "--project", project, "--json")
    run = run_opencode(project, home, [{"tool": "bash", "input": reset}, "done"])

    (entry,) = [h for h in done.json["hosts"] if h["host"] == "opencode"]
    (part,) = run.tool_parts()
    assert entry["blocked"] and part["status"] == "error"
    assert entry["reason"] == part["error"] and entry["reason"].startswith("hookwright git-guard: ")
