"""hookwright's opencode plugins in the real opencode 1.18.33.

git-guard installed with `--host opencode`: a scripted `git reset --hard` is refused with our
reason (which the model receives) and the work is kept, `git status` runs; after uninstall
the plugin file is gone and the reset runs. path-normalizer's rewrite reaches a real MCP
server. The user scope works with XDG_CONFIG_HOME set and unset. A plugin file that exports a
class or an enum beside its plugin function is dropped whole, as doctor says. Of plugins in one
folder that set one argument, the one the filesystem lists first runs last and wins, as doctor says.
The tools opencode offers are among those hookwright counts as opencode's own, and every tool
whose Claude Code name the runtimes and doctor translate is offered. An MCP tool's name is the one
doctor suggests, and a snake_case argument a plugin sets on it reaches the server, as doctor lets be.
The plugin mistakes doctor reports do in opencode what doctor says: a hook under a key opencode
has no hook for, or a CommonJS export, never runs; process.exit ends opencode; a throw in
tool.execute.after does not stop the call.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from claude_cli import hookwright
from hookwright.hosts.opencode.adapter import CLAUDE_TOOL_NAMES, OWN_TOOLS
from opencode_cli import run_opencode

pytestmark = pytest.mark.e2e

RESET = {"tool": "bash", "input": {"command": "git reset --hard", "description": "discard"}}
STATUS = {"tool": "bash", "input": {"command": "git status --short", "description": "status"}}
MCP_SERVER = Path(__file__).with_name("fake_mcp_server.py")


def installed(*args: str, home: Path, project: Path, env: dict | None = None) -> None:
    done = hookwright(*args, "--host", "opencode", "--yes", home=home, project=project, env=env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_git_guard_refuses_reset_hard_in_opencode_until_uninstalled(opencode_cli, home, dirty_repo):
    project = dirty_repo
    plugin = project / ".opencode" / "plugins" / "hookwright-git-guard.js"
    installed("install", "git-guard", "--scope", "project", "--project", str(project), home=home, project=project)
    assert plugin.is_file()

    run = run_opencode(project, home, [RESET, STATUS, "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    reset, status = run.tool_results
    assert reset["content"].startswith("hookwright git-guard: ") and "reset --hard" in reset["content"]
    assert (project / "a.txt").read_text() == "v2\n"  # the work is still there
    assert "a.txt" in status["content"]  # and the harmless command ran

    installed("uninstall", "git-guard", "--scope", "project", "--project", str(project), home=home, project=project)
    assert not plugin.exists() and not (project / ".opencode" / "hookwright").exists()
    run = run_opencode(project, home, [RESET, "done"])
    assert run.returncode == 0, run.stderr[-3000:]
    assert (project / "a.txt").read_text() == "v1\n"  # nothing stops it now


def test_git_guard_denies_the_family_and_its_evasions_in_opencode_and_reads_the_teams_file(opencode_cli, home,
                                                                                            work_repo):
    from test_git_guard_e2e import FAMILY, assert_nothing_lost

    project = work_repo
    installed("install", "git-guard", "--scope", "project", "--project", str(project), home=home, project=project)
    turns = [{"tool": "bash", "input": {"command": command, "description": "run"}} for command, _ in FAMILY]
    run = run_opencode(project, home, [*turns, STATUS, "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    *denied, status = run.tool_results
    for (command, rule), result in zip(FAMILY, denied):
        assert result["content"].startswith("hookwright git-guard: ") and f"(rule {rule})" in result["content"], (
            command, result)
    assert "a.txt" in status["content"]
    assert_nothing_lost(project)  # (the runtime answered each call: nothing ran)

    (project / ".opencode" / "hookwright-git-guard.json").write_text('{"rules": {"stash": []}}')  # the team's choice
    run = run_opencode(project, home, [{"tool": "bash", "input": {"command": "git stash", "description": "s"}}, "done"])
    assert run.returncode == 0, run.stderr[-3000:]
    assert (project / "a.txt").read_text() == "v1\n"  # stashed, as the project's file allows


def test_path_normalizers_rewrite_reaches_an_mcp_server(opencode_cli, home, project, tmp_path):
    record = tmp_path / "calls.jsonl"
    installed("install", "path-normalizer", "--scope", "project", "--project", str(project), home=home,
              project=project)
    call = {"tool": "docs_read_doc", "input": {"path": "notes/a.md", "mode": "r"}}

    run = run_opencode(project, home, [call, "done"],
                       mcp={"docs": [sys.executable, str(MCP_SERVER), str(record)]})
    assert run.returncode == 0, run.stderr[-3000:]
    (received,) = [json.loads(line) for line in record.read_text().splitlines()]
    assert received == {"tool": "read_doc", "arguments": {"path": str(project / "notes" / "a.md"), "mode": "r"}}


@pytest.mark.parametrize("xdg", [True, False], ids=["XDG_CONFIG_HOME set", "XDG_CONFIG_HOME unset"])
def test_a_user_scope_install_works_with_and_without_xdg_config_home(opencode_cli, home, dirty_repo, tmp_path, xdg):
    project = dirty_repo
    config_home = tmp_path / "xdg-config" if xdg else home / ".config"
    env = {"XDG_CONFIG_HOME": str(config_home) if xdg else None}
    installed("install", "git-guard", "--scope", "user", home=home, project=project, env=env)
    assert (config_home / "opencode" / "plugins" / "hookwright-git-guard.js").is_file()

    run = run_opencode(project, home, [RESET, "done"], env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    (reset,) = run.tool_results
    assert reset["content"].startswith("hookwright git-guard: ")
    assert (project / "a.txt").read_text() == "v2\n"



THROWER = ('export const P = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
           '    if (output.args.command.includes("TOKEN")) throw new Error("refused by the plugin")\n  },\n})\n')
EXPORTS = {"alone": "", "class": "export class Helper {}\n", "enum": "export enum Mode { A }\n"}


def test_a_plugin_file_with_an_export_that_is_not_a_plugin_function_is_dropped_whole(opencode_cli, home, project):
    """The fact behind host/opencode-plugin-export-not-function: the hook of the very file doctor
    flags never runs in the real opencode, and the file doctor passes does. The three files sit in
    one folder, one session: each refuses only the call that names it."""
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    for name, extra in EXPORTS.items():
        (folder / f"p-{name}.ts").write_text(THROWER.replace("TOKEN", f"call-{name}") + extra)

    calls = [{"tool": "bash", "input": {"command": f"echo call-{name}", "description": name}} for name in EXPORTS]
    run = run_opencode(project, home, [*calls, "done"])
    assert run.returncode == 0, run.stderr[-3000:]
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)
    flagged = {Path(f["path"]).name for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] == "host/opencode-plugin-export-not-function"}
    refused = {name for name, result in zip(EXPORTS, run.tool_results) if "refused by the plugin" in result["content"]}
    assert len(run.tool_results) == len(EXPORTS), run.tool_results
    assert flagged == {f"p-{name}.ts" for name, extra in EXPORTS.items() if extra}, flagged
    assert refused == {name for name, extra in EXPORTS.items() if not extra}, run.tool_results


SETTER = ('export const P = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
          '    if (input.tool === "bash") output.args.command = "echo FROM_%s"\n  },\n})\n')
ECHO = {"tool": "bash", "input": {"command": "echo ORIG", "description": "echo"}}


def test_of_plugins_in_one_folder_the_one_the_filesystem_lists_first_wins_where_doctor_says(opencode_cli, home,
                                                                                           project):
    """The fact behind conflict/plugin-args-race: opencode 1.18.33 runs one folder's plugins in the
    reverse of the order readdir lists them, so the last to run, whose change counts, is the first
    listed; doctor's race findings sit on that one."""
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    for name in "mcx":
        (folder / f"{name}.js").write_text(SETTER % name)
    first = next(os.scandir(folder)).name

    run = run_opencode(project, home, [ECHO, "done"])
    assert run.returncode == 0, run.stderr[-3000:]
    (echo,) = run.tool_results
    assert echo["content"] == f"FROM_{first[0]}\n"
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)
    races = [f for f in json.loads(doctor.stdout)["findings"] if f["rule"] == "conflict/plugin-args-race"]
    assert len(races) == 3 and [Path(f["path"]).name for f in races].count(first) == 2, races
    assert all(Path(f["related"][0]["path"]).name != first for f in races)


def test_the_tools_opencode_offers_are_the_ones_hookwright_knows(opencode_cli, home, project):
    """websearch is offered only where OPENCODE_ENABLE_EXA is set, and then searches the web: left out."""
    run = run_opencode(project, home, [STATUS, "done"])
    assert run.returncode == 0, run.stderr[-3000:]
    offered = {tool["function"]["name"] for request in run.requests for tool in request.get("tools") or []}
    assert offered <= set(OWN_TOOLS) and set(CLAUDE_TOOL_NAMES) - {"websearch"} <= offered, offered


MCP_PLUGINS = {
    "prefix.js": 'export const P = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
                 '    if (input.tool.startsWith("My-Srv_x_")) output.args.file_path = "from-plugin.md"\n  },\n})\n',
    "claude.js": 'export const P = async () => ({\n  "tool.execute.before": async (input) => {\n'
                 '    if (input.tool === "mcp__My-Srv.x__read_doc") throw new Error("never")\n  },\n})\n',
}


def test_an_mcp_tools_name_and_snake_case_argument_are_as_doctor_says(opencode_cli, home, project, tmp_path):
    record = tmp_path / "calls.jsonl"
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    for name, code in MCP_PLUGINS.items():
        (folder / name).write_text(code)
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)
    findings = json.loads(doctor.stdout)["findings"]
    assert not [f for f in findings if f["rule"] == "host/opencode-argument-name"], findings
    (renamed,) = [f for f in findings if f["rule"] == "host/opencode-tool-name"]
    assert renamed["hint"] == 'compare with "My-Srv_x_read_doc"'

    call = {"tool": "My-Srv_x_read_doc", "input": {"path": "a.md"}}
    run = run_opencode(project, home, [call, "done"], mcp={"My-Srv.x": [sys.executable, str(MCP_SERVER), str(record)]})
    assert run.returncode == 0, run.stderr[-3000:]
    (received,) = [json.loads(line) for line in record.read_text().splitlines()]
    assert received == {"tool": "read_doc", "arguments": {"path": "a.md", "file_path": "from-plugin.md"}}


REFUSE = 'async () => { throw new Error("refused by the plugin") }'
# only the call that names TOKEN, whatever the hook is handed (the call's arguments, or its output)
REFUSE_TOKEN = ('async (input, output) => {\n'
                '  if (JSON.stringify([input, output]).includes("TOKEN")) throw new Error("refused by the plugin")\n}')
MISTAKES = {  # plugin code: (doctor's rule, whether the tool ran, what the model got for it)
    "hook-key": ('export const P = async () => ({ "tool.before": %s })\n' % REFUSE,
                 "host/opencode-hook-never-called", True, "RAN-hook-key\n"),
    "claude-event": ('export const P = async () => ({ PreToolUse: %s })\n' % REFUSE,
                     "host/opencode-hook-never-called", True, "RAN-claude-event\n"),
    "commonjs": ('module.exports = async () => ({ "tool.execute.before": %s })\n' % REFUSE,
                 "host/opencode-plugin-commonjs", True, "RAN-commonjs\n"),
    "throw-after": ('export const P = async () => ({ "tool.execute.after": %s })\n'
                    % REFUSE_TOKEN.replace("TOKEN", "RAN-throw-after"),
                    "host/opencode-after-the-call", True, "refused by the plugin"),
}
EXIT = 'export const P = async () => ({ "tool.execute.before": async () => { process.exit(0) } })\n'


def test_the_plugin_mistakes_doctor_reports_do_what_doctor_says(opencode_cli, home, project):
    """A hook under a key opencode has no hook for, under a Claude Code event, or in a CommonJS
    export never runs (each would refuse every call); a throw in tool.execute.after does not stop
    its call, whose output the model gets in its place. One folder, one session, a call each."""
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    for name, (code, *_) in MISTAKES.items():
        (folder / f"{name}.js").write_text(code)
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)
    assert sorted((Path(f["path"]).name, f["rule"]) for f in json.loads(doctor.stdout)["findings"]) == sorted(
        (f"{name}.js", rule) for name, (_, rule, *_) in MISTAKES.items()), doctor.stdout

    calls = [{"tool": "bash", "input": {"command": f"touch ran-{name}.txt && echo RAN-{name}", "description": name}}
             for name in MISTAKES]
    run = run_opencode(project, home, [*calls, "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    for name, (_, _, ran, _) in MISTAKES.items():
        assert (project / f"ran-{name}.txt").exists() == ran, name
    assert [r["content"] for r in run.tool_results] == [answer for *_, answer in MISTAKES.values()]


def test_a_plugin_that_calls_process_exit_ends_opencode_before_the_call_as_doctor_says(opencode_cli, home, project):
    folder = project / ".opencode" / "plugins"
    folder.mkdir(parents=True)
    (folder / "p.js").write_text(EXIT)
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)
    assert [f["rule"] for f in json.loads(doctor.stdout)["findings"]] == ["host/opencode-process-exit"], doctor.stdout

    run = run_opencode(project, home, [{"tool": "bash", "input": {"command": "touch ran.txt", "description": "t"}},
                                       "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    assert not (project / "ran.txt").exists()
    assert run.tool_results == []
