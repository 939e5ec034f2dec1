"""opencode's own ways for a plugin to do nothing, each a bad plugin and its corrected twin run on
the real opencode 1.18.33: the bad one's guard or hook never acts, the twin's does; doctor flags
the bad one at the line that needs the change, and not the twin.

- a bus event's name (`session.idle`) as a hook key, not inside the `event` hook;
- an argument read by Claude Code's name (`output.args.file_path`) on a tool that takes `filePath`;
- an MCP server's tools picked by the server's name as configured (`my.docs_`), which opencode
  writes with `_` for every character outside [A-Za-z0-9_-] (`my_docs_`);
- a plugin that runs a guard written for Claude Code, handing it opencode's argument names, or
  refusing on an exit status (1) other than the one the guard refuses with (2), or running it with
  Bun's `$` (which throws on exit 2 without .nothrow()) or execFileSync (which throws on any exit but
  0) in a try whose catch lets the call run;
- a guard of a file that picks `write` alone, where `edit` changes the file too;
- the arguments read from tool.execute.before's input, which has none (they are output.args);
- a change to a copy of an argument, never written back; a hook key waited for in the `event` hook.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from claude_cli import hookwright
from opencode_cli import run_opencode

pytestmark = pytest.mark.e2e

MCP_SERVER = Path(__file__).with_name("fake_mcp_server.py")
STATUS = {"tool": "bash", "input": {"command": "true", "description": "status"}}


def _plugin(project: Path, code: str) -> Path:
    plugin = project / ".opencode" / "plugins" / "p.js"
    plugin.parent.mkdir(parents=True)
    plugin.write_text(code)
    return plugin


def _flagged(home: Path, project: Path, rule: str) -> list[tuple[str, int]]:
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)
    return [(f["path"], f["line"]) for f in json.loads(doctor.stdout)["findings"] if f["rule"] == rule]


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


IDLE = {
    "a hook key": '  "session.idle": async () => { writeFileSync(MARK, "idle") },\n',
    "inside event": '  event: async ({ event }) => { if (event.type === "session.idle") writeFileSync(MARK, "idle") },\n',
}


@pytest.mark.parametrize("where", list(IDLE))
def test_a_bus_event_reaches_a_plugin_only_through_the_event_hook(opencode_cli, home, project, where):
    mark = project / "idle.txt"
    plugin = _plugin(project, f'import {{ writeFileSync }} from "fs"\nconst MARK = {json.dumps(str(mark))}\n'
                              f"export const P = async () => ({{\n{IDLE[where]}}})\n")
    run = run_opencode(project, home, [STATUS, "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    called = mark.exists()
    assert called == (where == "inside event")
    expected = [] if called else [(str(plugin), _line_of(plugin, "session.idle"))]
    assert _flagged(home, project, "host/opencode-hook-never-called") == expected


GUARD = ('export const P = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
         '    if (input.tool === "read" && String(output.args.%s).endsWith("secret.key")) throw new Error("no secrets")\n'
         "  },\n})\n")


@pytest.mark.parametrize("argument", ["file_path", "filePath"])
def test_a_guard_reads_the_argument_by_the_name_the_tool_takes(opencode_cli, home, project, argument):
    (project / "secret.key").write_text("TOKEN=secret\n")
    plugin = _plugin(project, GUARD % argument)
    read = {"tool": "read", "input": {"filePath": str(project / "secret.key")}}
    run = run_opencode(project, home, [read, "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    (result,) = run.tool_results
    refused = "no secrets" in result["content"]
    assert refused == (argument == "filePath") and ("TOKEN=secret" in result["content"]) != refused
    expected = [] if refused else [(str(plugin), _line_of(plugin, argument))]
    assert _flagged(home, project, "host/opencode-argument-not-there") == expected


PREFIX_GUARD = ('export const P = async () => ({\n  "tool.execute.before": async (input) => {\n'
                '    if (input.tool.startsWith("%s")) throw new Error("no docs here")\n  },\n})\n')


@pytest.mark.parametrize("prefix", ["my.docs_", "my_docs_"])
def test_an_mcp_servers_tools_are_picked_by_the_name_opencode_writes(opencode_cli, home, project, tmp_path, prefix):
    record = tmp_path / "calls.jsonl"
    plugin = _plugin(project, PREFIX_GUARD % prefix)
    call = {"tool": "my_docs_read_doc", "input": {"path": "a.md"}}
    run = run_opencode(project, home, [call, "done"], mcp={"my.docs": [sys.executable, str(MCP_SERVER), str(record)]})
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    reached = record.exists()
    assert reached == (prefix == "my.docs_")
    expected = [(str(plugin), _line_of(plugin, "startsWith"))] if reached else []
    assert _flagged(home, project, "host/opencode-tool-prefix-name") == expected


# how a guard picks the server's tools: Claude Code's form of their names, or opencode's (the twin)
CLAUDE_FORMS = {
    "startsWith mcp__": ('input.tool.startsWith("mcp__my.docs__")', "host/opencode-tool-prefix-name"),
    "a regex of mcp__": ("/^mcp__my\\.docs__/.test(input.tool)", "host/opencode-tool-pattern"),
    "includes mcp__": ('input.tool.includes("mcp__")', "host/opencode-tool-pattern"),
    "a regex of opencode's name": ("/^my_docs_/.test(input.tool)", None),
}


@pytest.mark.parametrize("form", list(CLAUDE_FORMS))
def test_a_guard_waiting_for_claude_codes_mcp_names_never_sees_opencodes(opencode_cli, home, project, tmp_path, form):
    test, rule = CLAUDE_FORMS[form]
    record = tmp_path / "calls.jsonl"
    plugin = _plugin(project, 'export const P = async () => ({\n  "tool.execute.before": async (input) => {\n'
                              f'    if ({test}) throw new Error("no docs here")\n  }},\n}})\n')
    call = {"tool": "my_docs_read_doc", "input": {"path": "a.md"}}
    run = run_opencode(project, home, [call, "done"], mcp={"my.docs": [sys.executable, str(MCP_SERVER), str(record)]})
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    assert record.exists() == (rule is not None)
    for each in {r for _, r in CLAUDE_FORMS.values() if r}:
        assert _flagged(home, project, each) == ([(str(plugin), 3)] if each == rule else [])


TOUCH_GUARD_SH = '#!/bin/bash\ncase "$(cat)" in *touch*) echo "no touching" >&2; exit 2;; esac\n'
# a bridge to a Claude Code guard, finding it through Claude Code's project variable or opencode's own
VARIABLE_BRIDGE = ('import { spawnSync } from "node:child_process"\n'
          'export const P = async ({ directory }) => ({\n  "tool.execute.before": async (input, output) => {\n'
          '    if (input.tool !== "bash") return\n'
          '    const r = spawnSync("bash", [%s + "/.claude/hooks/guard.sh"], {input: JSON.stringify({tool_input: output.args})})\n'
          '    if (r.status === 2) throw new Error(String(r.stderr))\n  },\n})\n')


@pytest.mark.parametrize("project_dir", ["process.env.CLAUDE_PROJECT_DIR", "directory"])
def test_a_bridge_finding_its_guard_through_claude_codes_project_variable_never_runs_it(
        opencode_cli, home, project, project_dir):
    guard = project / ".claude" / "hooks" / "guard.sh"
    guard.parent.mkdir(parents=True)
    guard.write_text(TOUCH_GUARD_SH)
    plugin = _plugin(project, VARIABLE_BRIDGE % project_dir)
    run = run_opencode(project, home, [{"tool": "bash", "input": {"command": "touch t.txt", "description": "t"}},
                                       "done"], env={"CLAUDE_PROJECT_DIR": None})
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    bad = project_dir.startswith("process.env")
    assert (project / "t.txt").exists() == bad
    expected = [(str(plugin), _line_of(plugin, "spawnSync(\"bash\""))] if bad else []
    assert _flagged(home, project, "host/opencode-variable-of-another-host") == expected


@pytest.mark.parametrize("handed", [False, True], ids=["nothing", "the call"])
def test_a_bridge_that_hands_its_guard_nothing_on_stdin_never_refuses(opencode_cli, home, project, handed):
    guard = project / ".claude" / "hooks" / "guard.sh"
    guard.parent.mkdir(parents=True)
    guard.write_text(TOUCH_GUARD_SH)
    code = VARIABLE_BRIDGE % "directory"
    if not handed:
        code = code.replace(", {input: JSON.stringify({tool_input: output.args})}", "")
    plugin = _plugin(project, code)
    run = run_opencode(project, home, [{"tool": "bash", "input": {"command": "touch t.txt", "description": "t"}},
                                       "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    assert (project / "t.txt").exists() != handed
    expected = [] if handed else [(str(plugin), _line_of(plugin, "guard.sh"))]
    assert _flagged(home, project, "host/opencode-bridge-without-input") == expected


PLACED = {
    "after the call": ('  "tool.execute.after": async (input) => {\n'
                       '    if (input.tool === "bash" && input.args.command.includes("touch")) throw new Error("no touching")\n'
                       "  },\n"),
    "before the call": ('  "tool.execute.before": async (input, output) => {\n'
                        '    if (input.tool === "bash" && output.args.command.includes("touch")) throw new Error("no touching")\n'
                        "  },\n"),
}


@pytest.mark.parametrize("where", list(PLACED))
def test_a_guard_stops_the_call_only_before_it(opencode_cli, home, project, where):
    plugin = _plugin(project, f"export const P = async () => ({{\n{PLACED[where]}}})\n")
    touch = {"tool": "bash", "input": {"command": "touch ran.txt && echo RAN", "description": "touch"}}
    run = run_opencode(project, home, [touch, "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    ran = (project / "ran.txt").exists()
    assert ran == (where == "after the call")
    expected = [(str(plugin), _line_of(plugin, "tool.execute.after"))] if ran else []
    assert _flagged(home, project, "host/opencode-guard-after-the-call") == expected


# a plugin that runs the project's Claude Code guard under opencode, handing it the call as
# Claude Code's payload; the bad one (on read) hands opencode's arguments as they are, the twin
# (on write) hands them by Claude Code's names
BRIDGE = """\
import { spawnSync } from "node:child_process";
import path from "node:path";
export const %s = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "%s") return;
    const payload = { hook_event_name: "PreToolUse", tool_name: "%s", tool_input: %s };
    const r = spawnSync("sh", [path.join(directory, ".claude/hooks", "protect-secrets.sh")], {
      input: JSON.stringify(payload), encoding: "utf8" });
    if (r.status === 2) throw new Error(r.stderr.trim());
  },
});
"""
# the same kind of bridge on bash, whose guard refuses with exit 2 (Claude Code's blocking status):
# the bad one refuses only on exit 1, the twin on any status but 0
STATUS_BRIDGE = """\
import { spawnSync } from "node:child_process";
import path from "node:path";
export const %s = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash" || !output.args.command.includes("%s")) return;
    const r = spawnSync("sh", [path.join(directory, ".claude/hooks", "no-blocked.sh")], {
      input: JSON.stringify({ tool_name: "Bash", tool_input: output.args }), encoding: "utf8" });
    if (%s) throw new Error(r.stderr.trim() || "refused");
  },
});
"""
# the same guard run by Bun's `$` inside a try whose catch takes a broken guard for a pass: without
# .nothrow() the guard's exit 2 is a ShellError the catch swallows; the twin reads exitCode
BUN_BRIDGE = """\
export const BunBridge = async ({ $, directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash" || !output.args.command.includes("blocked-three")) return;
    try {
      const r = await $`echo ${JSON.stringify({ tool_input: output.args })} | sh ${directory}/.claude/hooks/no-blocked.sh`.quiet();
      if (r.exitCode === 2) throw new Error("refused");
    } catch (err) {
      console.error(`guard failed: ${err}`);
    }
  },
});
"""
BUN_TWIN = """\
export const BunTwin = async ({ $, directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash" || !output.args.command.includes("blocked-four")) return;
    let r;
    try {
      r = await $`echo ${JSON.stringify({ tool_input: output.args })} | sh ${directory}/.claude/hooks/no-blocked.sh`.nothrow().quiet();
    } catch (err) {
      console.error(`guard failed: ${err}`);
      return;
    }
    if (r.exitCode === 2) throw new Error("refused");
  },
});
"""
# the same guard run by execFileSync, which throws when the guard exits 2: that throw is the
# refusal, and the bad bridge's catch swallows it; the twin's catch throws again on status 2
SYNC_BRIDGE = """\
import { execFileSync } from "node:child_process";
export const %s = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool !== "bash" || !output.args.command.includes("%s")) return;
    try {
      execFileSync("sh", [`${directory}/.claude/hooks/no-blocked.sh`], { input: JSON.stringify({ tool_input: output.args }) });
    } catch (err) {
      console.error("guard failed:", err.message);%s
    }
  },
});
"""
BLOCKED_GUARD = """\
cmd=$(jq -r '.tool_input.command // empty')
case "$cmd" in *blocked-*) echo "blocked files are off limits" >&2; exit 2 ;; esac
exit 0
"""
# a guard of one generated file in a plugin: the bad one picks write alone, the twin write and edit
LOCK_GUARD = """\
export const %s = async () => ({
  "tool.execute.before": async (input, output) => {
    if (%s) return;
    if (String(output.args.filePath).endsWith("%s")) throw new Error("%s is generated");
  },
});
"""
SECRETS_GUARD = """\
file=$(jq -r '.tool_input.file_path // empty')
case "$file" in *.pem|*/secrets/*) echo "secrets are off limits" >&2; exit 2 ;; esac
exit 0
"""


def test_a_bridge_to_a_claude_guard_hands_it_claudes_argument_names_or_the_guard_never_holds(
        opencode_cli, home, project):
    guard = project / ".claude" / "hooks" / "protect-secrets.sh"
    guard.parent.mkdir(parents=True)
    guard.write_text(SECRETS_GUARD)
    (project / "deploy.pem").write_text("TOKEN=secret\n")  # (opencode itself asks before reading a .env)
    plugins = project / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    bad = plugins / "read-bridge.js"
    bad.write_text(BRIDGE % ("ReadBridge", "read", "Read", "output.args"))
    (plugins / "write-bridge.js").write_text(BRIDGE % ("WriteBridge", "write", "Write",
                                                       "{ ...output.args, file_path: output.args.filePath }"))
    # and a guard that reads the arguments from tool.execute.before's input, which has none; a
    # rewrite of a copy of the command; a hook key waited for as a bus event's type
    from_input = plugins / "from-input.js"
    from_input.write_text(INPUT_ARGS_GUARD)
    copy = plugins / "copy.js"
    copy.write_text(COPY_REWRITE)
    seen = plugins / "seen.js"
    seen.write_text(HOOK_AS_EVENT % json.dumps(str(project / "seen.txt")))
    (guard.parent / "no-blocked.sh").write_text(BLOCKED_GUARD)
    status_bad = plugins / "status-bridge.js"
    status_bad.write_text(STATUS_BRIDGE % ("StatusBridge", "blocked-one", "r.status === 1"))
    (plugins / "status-twin.js").write_text(STATUS_BRIDGE % ("StatusTwin", "blocked-two", "r.status !== 0"))
    bun_bad = plugins / "bun-bridge.js"
    bun_bad.write_text(BUN_BRIDGE)
    (plugins / "bun-twin.js").write_text(BUN_TWIN)
    sync_bad = plugins / "sync-bridge.js"
    sync_bad.write_text(SYNC_BRIDGE % ("SyncBridge", "blocked-five", ""))
    (plugins / "sync-twin.js").write_text(SYNC_BRIDGE % ("SyncTwin", "blocked-six",
                                                         '\n      if (err.status === 2) throw new Error("refused");'))
    lock_bad = plugins / "lock-guard.js"
    lock_bad.write_text(LOCK_GUARD % ("LockGuard", 'input.tool !== "write"', "a.lock", "a.lock"))
    (plugins / "lock-twin.js").write_text(LOCK_GUARD % ("LockTwin", 'input.tool !== "write" && input.tool !== "edit"',
                                                        "b.lock", "b.lock"))
    for name in ("a.lock", "b.lock"):
        (project / name).write_text("v1\n")
    locks = [{"tool": "read", "input": {"filePath": str(project / n)}} for n in ("a.lock", "b.lock")] + [
        {"tool": "edit", "input": {"filePath": str(project / n), "oldString": "v1", "newString": "v2"}}
        for n in ("a.lock", "b.lock")]
    touches = [{"tool": "bash", "input": {"command": f"touch blocked-{n}.txt", "description": n}} for n in ("one", "two", "three", "four", "five", "six")]
    read = {"tool": "read", "input": {"filePath": str(project / "deploy.pem")}}
    write = {"tool": "write", "input": {"filePath": str(project / "copy.pem"), "content": "TOKEN=leaked\n"}}
    bash = {"tool": "bash", "input": {"command": "touch pushed.txt", "description": "push"}}
    run = run_opencode(project, home, [read, write, bash, *touches, *locks, "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    read_result, write_result, *_ = run.tool_results
    assert (project / "blocked-one.txt").exists()  # the guard's exit 2 was no status the plugin refused on
    assert not (project / "blocked-two.txt").exists()
    assert (project / "blocked-three.txt").exists()  # Bun's $ threw on exit 2, the catch let the call run
    assert not (project / "blocked-four.txt").exists()
    assert (project / "blocked-five.txt").exists()  # execFileSync threw on exit 2, the catch let the call run
    assert not (project / "blocked-six.txt").exists()
    assert (project / "a.lock").read_text() == "v2\n"  # the guard picked write alone: the edit ran
    assert (project / "b.lock").read_text() == "v1\n"
    assert "TOKEN=secret" in read_result["content"]  # the guard read no file_path: the read ran
    assert "secrets are off limits" in write_result["content"] and not (project / "copy.pem").exists()
    assert (project / "pushed.txt").exists()  # input.args was undefined: the guard let it run
    assert not (project / "rewritten.txt").exists()  # the copy changed, the call ran as it was
    assert not (project / "seen.txt").exists()  # no event of that type came
    assert sorted(_flagged(home, project, "host/opencode-script-reads-claude-names")) == sorted([
        (str(bad), _line_of(bad, "tool_input")), (str(guard), _line_of(guard, "file_path"))])
    assert _flagged(home, project, "host/opencode-guard-misses-tools") == [(str(lock_bad), _line_of(lock_bad, '"write"'))]
    assert _flagged(home, project, "host/opencode-script-exit-unheard") == [
        (str(status_bad), _line_of(status_bad, "r.status === 1"))]
    assert sorted(_flagged(home, project, "host/opencode-refusal-caught")) == sorted([
        (str(bun_bad), _line_of(bun_bad, "const r = await $")), (str(sync_bad), _line_of(sync_bad, "} catch (err) {"))])
    assert _flagged(home, project, "host/opencode-argument-not-there") == [
        (str(from_input), _line_of(from_input, "input.args"))]
    assert _flagged(home, project, "host/opencode-args-reassigned") == [(str(copy), _line_of(copy, "rewritten.txt"))]
    assert _flagged(home, project, "host/opencode-hook-never-called") == [(str(seen), _line_of(seen, "event.type"))]


COPY_REWRITE = """\
export const Copy = async () => ({
  "tool.execute.before": async (input, output) => {
    let command = output.args.command;
    if (input.tool === "bash") command = "touch rewritten.txt";
  },
});
"""
HOOK_AS_EVENT = """\
import { writeFileSync } from "node:fs";
export const Seen = async () => ({
  event: async ({ event }) => { if (event.type === "tool.execute.before") writeFileSync(%s, "seen") },
});
"""
INPUT_ARGS_GUARD = """\
export const FromInput = async () => ({
  "tool.execute.before": async (input, output) => {
    if (input.tool === "bash" && String(input.args?.command).includes("pushed")) throw new Error("no pushing");
  },
});
"""
