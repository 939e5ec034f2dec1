"""opencode: a generated plugin file per pack, installed, upgraded, removed and rolled back like
any config, and the plugin's behaviour run in Node (the real opencode runs it in
tests/e2e/test_opencode_e2e.py).
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from hookwright.hosts.opencode.adapter import read_plugin, render_plugin

NODE = shutil.which("node")


def at(project: Path) -> tuple:
    return ("--host", "opencode", "--scope", "project", "--project", project)


def plugin_of(project: Path, pack: str = "git-guard") -> Path:
    return project / ".opencode" / "plugins" / f"hookwright-{pack}.js"


# ---- the file -----------------------------------------------------------------------------------------------

def test_install_writes_one_plugin_file_whose_only_export_is_the_plugin(hookwright, home, project):
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    text = plugin_of(project).read_text()

    assert [line for line in text.splitlines() if line.startswith("export ")] == [
        "export const HookwrightGitGuard = async ({ directory }) => ({"]
    assert os.access(project / ".opencode" / "hookwright" / "git-guard" / "git-guard", os.X_OK)
    data = read_plugin(plugin_of(project), plugin_of(project).read_bytes()).data
    assert data == {"format": 1, "pack": "git-guard", "hooks": [
        {"script": "../hookwright/git-guard/git-guard", "args": ["--host", "opencode"], "tools": "bash", "timeout": 10}]}


def test_a_plugin_is_a_pure_function_of_its_first_line(hookwright, home, project):
    assert hookwright("install", "path-normalizer", *at(project), "--yes").code == 0
    raw = plugin_of(project, "path-normalizer").read_bytes()

    assert render_plugin(read_plugin(Path("x"), raw).data) == raw


def test_install_twice_is_install_once_and_uninstall_leaves_nothing_of_ours(hookwright, home, project):
    (project / ".opencode").mkdir()
    (project / ".opencode" / ".gitignore").write_text("node_modules\n")  # opencode's own
    assert hookwright("install", "git-guard", "path-normalizer", *at(project), "--yes").code == 0
    again = hookwright("install", "git-guard", "path-normalizer", *at(project), "--yes", "--json")
    assert again.code == 0 and again.json["status"] == "unchanged"

    assert hookwright("uninstall", *at(project), "--yes").code == 0  # every pack installed there
    assert [p.name for p in (project / ".opencode").rglob("*")] == [".gitignore"]
    assert (project / ".opencode" / ".gitignore").read_text() == "node_modules\n"


def test_an_option_upgrades_the_plugin_in_place(hookwright, home, project):
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    ran = hookwright("install", "git-guard", *at(project), "--option", "deny_push=true", "--yes", "--json")

    assert ran.code == 0 and ran.json["plans"][0]["packs"][0]["action"] == "reconfigure"
    (hook,) = read_plugin(Path("x"), plugin_of(project).read_bytes()).data["hooks"]
    assert hook["args"] == ["--host", "opencode", "--option", "deny_push=true"]


def test_rollback_removes_the_plugin_it_added(hookwright, home, project):
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    assert hookwright("rollback", "--host", "opencode", "--project", project, "--yes").code == 0
    assert not plugin_of(project).exists() and not (project / ".opencode" / "hookwright").exists()


def test_an_edited_plugin_is_never_overwritten_or_removed_without_force(hookwright, home, project):
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    plugin = plugin_of(project)
    edited = plugin.read_text().replace("const PACK", "// my tweak\nconst PACK")
    plugin.write_text(edited)

    for args in (("install", "git-guard", "--option", "deny_push=true"), ("uninstall", "git-guard")):
        ran = hookwright(*args, *at(project), "--yes")
        assert ran.code == 3 and "edited" in ran.err and "--force" in ran.err
        assert plugin.read_text() == edited
    assert hookwright("uninstall", "git-guard", *at(project), "--yes", "--force").code == 0
    assert not plugin.exists()


def test_a_file_of_someone_elses_with_our_name_is_left_alone(hookwright, home, project):
    plugin = plugin_of(project)
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const Mine = async () => ({})\n")
    ran = hookwright("install", "git-guard", *at(project), "--yes")

    assert ran.code == 3 and "did not write" in ran.err
    assert plugin.read_text() == "export const Mine = async () => ({})\n"


@pytest.mark.parametrize("xdg", [True, False])
def test_the_user_scope_follows_xdg_config_home(hookwright, home, monkeypatch, tmp_path, xdg):
    config_home = tmp_path / "xdg" if xdg else home / ".config"
    if xdg:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    else:
        monkeypatch.delenv("XDG_CONFIG_HOME")
    assert hookwright("install", "git-guard", "--host", "opencode", "--scope", "user", "--yes").code == 0

    assert (config_home / "opencode" / "plugins" / "hookwright-git-guard.js").is_file()
    assert (config_home / "opencode" / "hookwright" / "git-guard" / "git-guard").is_file()


def test_render_prints_what_install_writes(hookwright, home, project):
    shown = hookwright("render", "git-guard", *at(project))
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    assert shown.code == 0 and shown.out == plugin_of(project).read_text()


def test_ask_guard_and_the_local_scope_are_refused_with_the_reason(hookwright, home, project):
    ran = hookwright("install", "ask-guard", *at(project), "--yes")
    assert ran.code == 3 and "answer a question" in ran.err
    ran = hookwright("install", "git-guard", "--host", "opencode", "--scope", "local", "--project", project, "--yes")
    assert ran.code == 2 and "no local scope" in ran.err
    assert not (project / ".opencode").exists()


# ---- the plugin, run in Node ----------------------------------------------------------------------------------

HARNESS = """
import {{ {export} as plugin }} from "./plugin.mjs";
const hooks = await plugin({{ directory: {directory} }});
const call = async ([tool, args]) => {{
  if (tool === "sleep") return new Promise((done) => setTimeout(() => done({{ slept: args.ms }}), args.ms));
  try {{
    await hooks["tool.execute.before"]({{ tool, sessionID: "s1", callID: "c1" }}, {{ args }});
    return {{ args }};
  }} catch (error) {{
    return {{ thrown: error.message }};
  }}
}};
const results = [];
for (const step of {steps}) results.push(...(await Promise.all(step.map(call))));
console.log(JSON.stringify(results));
"""

RUNTIME = Path(__file__).resolve().parents[1] / "templates" / "runtime"


def run_plugin(tmp_path: Path, hooks: list[dict], calls: list, scripts: dict[str, str], log: Path,
               at_once: bool = False) -> list[dict]:
    """The plugin rendered for `hooks`, beside runtimes written from `scripts`, called in Node: one
    call after another, or all at once. A script is a hook module's `handle` body (run by the
    runtime library, as a pack's is), or a whole program when it starts with `#!`."""
    if NODE is None:
        pytest.skip("node is not installed (the e2e setup installs it)")
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "plugin.mjs").write_bytes(render_plugin({"format": 1, "pack": "probe", "hooks": hooks}))
    folder = tmp_path / "hookwright" / "probe"
    folder.mkdir(parents=True)
    shutil.copy(RUNTIME / "hookwright_runtime.py", folder)
    for name, text in scripts.items():
        if text.startswith("#!"):
            (folder / name).write_text(text)
            continue
        shutil.copy(RUNTIME / "hook_script.py", folder / name)
        body = textwrap.indent(textwrap.dedent(text).strip(), "    ")
        (folder / f"{name}.py").write_text(f"import hookwright_runtime as hw\nNAME = 'probe'\nOPTIONS = {{}}\n\n\n"
                                           f"def handle(call):\n{body}\n")
    steps = [calls] if at_once else [[one] for one in calls]
    (plugins / "harness.mjs").write_text(HARNESS.format(export="HookwrightProbe", directory=json.dumps(str(tmp_path)),
                                                        steps=json.dumps(steps)))
    done = subprocess.run([NODE, "harness.mjs"], cwd=plugins, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOOKWRIGHT_LOG": str(log)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def hook(script: str, tools: str = "bash", timeout: float = 10) -> dict:
    return {"script": f"../hookwright/probe/{script}", "args": ["--host", "opencode"], "tools": tools, "timeout": timeout}


def test_a_deny_throws_its_reason_and_a_rewrite_changes_the_arguments_in_place(tmp_path):
    scripts = {"deny": "return hw.deny('not this one')",
               "rewrite": "return hw.rewrite(dict(call.tool_input, file_path='/abs/a.txt'))"}
    calls = [["bash", {"command": "rm -rf /"}], ["read", {"filePath": "a.txt", "limit": 5}]]
    log = tmp_path / "hooks.log"
    results = run_plugin(tmp_path, [hook("deny"), hook("rewrite", "read")], calls, scripts, log)

    assert results[0] == {"thrown": "not this one"}
    assert results[1] == {"args": {"filePath": "/abs/a.txt", "limit": 5}}  # camelCase kept, in place
    assert not log.exists()


def test_keys_the_new_input_drops_are_deleted(tmp_path):
    scripts = {"shrink": "return hw.rewrite({'msg': 'only this'})"}
    results = run_plugin(tmp_path, [hook("shrink", "mcp")], [["srv_X", {"msg": "a", "extra": 1}]], scripts,
                         tmp_path / "hooks.log")
    assert results == [{"args": {"msg": "only this"}}]


def test_calls_made_at_once_each_get_their_own_answer_from_one_runtime(tmp_path):
    scripts = {"pid": """
        import os
        if call.tool_input['command'] == 'pid':
            return hw.deny(str(os.getpid()))
        return hw.rewrite({'command': call.tool_input['command'] + ' checked'})
    """}
    calls = [["bash", {"command": f"echo {n}"}] for n in range(8)] + [["bash", {"command": "pid"}]]
    results = run_plugin(tmp_path, [hook("pid")], calls + [["bash", {"command": "pid"}]], scripts,
                         tmp_path / "hooks.log", at_once=True)

    assert results[:8] == [{"args": {"command": f"echo {n} checked"}} for n in range(8)]
    assert results[8] == results[9] and results[8]["thrown"].isdigit()  # one process answered them all


@pytest.mark.parametrize("script, says", [
    ("#!\nimport sys\nsys.exit(3)\n", "the runtime exited 3 before it answered"),
    ("#!\nimport sys\nsys.stderr.write('it broke\\n')\nsys.exit(3)\n", "exited 3 (it broke)"),
    ("#!\nimport sys\nfor line in sys.stdin:\n    print('not json', flush=True)\n", "the runtime answered no call (\"not json\"), and was stopped before it answered"),
    ("#!\nimport json, sys\nfor line in sys.stdin:\n"
     "    print(json.dumps({'id': int(line.split()[0]), 'code': 0, 'stdout': '{oops'}), flush=True)\n",
     "an answer that is not JSON"),
    ("#!\nimport json, sys\nfor line in sys.stdin:\n    print(json.dumps({'id': int(line.split()[0]), 'code': 3}), flush=True)\n",
     "the runtime answered with exit code 3"),
    ("#!\nimport time\ntime.sleep(5)\n", "no answer within 1s"),
    ("import time\ntime.sleep(5)\n", "no answer within 1s"),  # in the hook itself, past the plugin's timeout
])
def test_a_runtime_that_fails_lets_the_call_go_on_and_logs_a_line(tmp_path, script, says):
    log = tmp_path / "hooks.log"
    timeout = 1 if "within 1s" in says else 30  # (a loaded machine may take seconds to start Python)
    results = run_plugin(tmp_path, [hook("broken", timeout=timeout)], [["bash", {"command": "ls"}]], {"broken": script},
                         log)

    assert results == [{"args": {"command": "ls"}}]
    (line,) = log.read_text().splitlines()
    assert " probe ../hookwright/probe/broken: " in line and says in line and line.endswith("; the call goes on")


@pytest.mark.parametrize("script, says", [
    ("#!\nimport sys\nsys.exit(3)\n", "the runtime exited 3 before it answered"),
    ("#!\nimport time\ntime.sleep(5)\n", "no answer within 1s"),
    ("raise ValueError('cannot judge')", "ValueError: cannot judge"),  # the runtime's own block, exit 2
])
def test_a_hook_installed_to_fail_closed_blocks_the_call_it_could_not_check(tmp_path, script, says):
    closed = dict(hook("broken", timeout=1 if "within 1s" in says else 30), args=["--host", "opencode", "--fail-closed"])
    log = tmp_path / "hooks.log"
    (result,) = run_plugin(tmp_path, [closed], [["bash", {"command": "ls"}]], {"broken": script}, log)

    assert says in result["thrown"] and "installed to fail closed: the call is blocked" in result["thrown"]
    assert says in log.read_text()


def test_a_runtime_that_cannot_start_lets_every_call_go_on_and_logs_each(tmp_path):
    gone = dict(hook("deny"), python=str(tmp_path / "no-such-python"))
    log = tmp_path / "hooks.log"
    results = run_plugin(tmp_path, [gone], [["bash", {"command": "ls"}]] * 2, {"deny": "return hw.deny('no')"}, log)

    assert results == [{"args": {"command": "ls"}}] * 2
    lines = log.read_text().splitlines()
    assert len(lines) == 2 and all("ENOENT" in line for line in lines), lines


def test_a_runtime_that_dies_is_started_again_on_the_next_call_with_a_line_in_the_log(tmp_path):
    scripts = {"mortal": """
        import os, signal, threading
        if call.tool_input['command'] == 'die now':
            os._exit(0)
        if call.tool_input['command'] == 'die later':
            threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGKILL)).start()
        return hw.deny(str(os.getpid()))
    """}
    log = tmp_path / "hooks.log"
    calls = [["bash", {"command": "pid"}], ["bash", {"command": "die now"}], ["bash", {"command": "die later"}],
             ["sleep", {"ms": 1500}], ["bash", {"command": "pid"}]]
    first, died, second, _, third = run_plugin(tmp_path, [hook("mortal")], calls, scripts, log)

    assert died == {"args": {"command": "die now"}}
    assert len({first["thrown"], second["thrown"], third["thrown"]}) == 3  # a new process each time
    now, later = log.read_text().splitlines()
    assert "the runtime exited 0 before it answered; the call goes on" in now
    assert "the runtime ended by SIGKILL between calls; the next call starts it again" in later


def test_a_hook_runs_only_for_its_tools(tmp_path):
    scripts = {"deny": "return hw.deny('no')"}
    calls = [["bash", {}], ["read", {}], ["srv_tool", {}]]
    assert run_plugin(tmp_path, [hook("deny", "mcp")], calls, scripts, tmp_path / "log") == [
        {"args": {}}, {"args": {}}, {"thrown": "no"}]


def test_the_payload_is_in_claude_codes_words(tmp_path):
    scripts = {"show": """
        import json
        return hw.deny(json.dumps(call.payload, sort_keys=True))
    """}
    (result,) = run_plugin(tmp_path, [hook("show", "edit")], [["edit", {"filePath": "a", "oldString": "x"}]], scripts,
                           tmp_path / "log")
    call = json.loads(result["thrown"])
    assert call["hook_event_name"] == "PreToolUse" and call["tool_name"] == "Edit"
    assert call["tool_input"] == {"file_path": "a", "old_string": "x"} and call["cwd"] == str(tmp_path)



def test_a_plugin_file_as_its_receipt_records_it_is_ours_though_this_version_renders_it_otherwise(
        hookwright, home, project):
    """An upgrade of hookwright that changes the plugin template must not take the files the
    older version wrote for hand edits: the receipt keeps the bytes written."""
    where = ("--host", "opencode", "--scope", "project", "--project", project, "--yes")
    assert hookwright("install", "git-guard", *where).code == 0
    plugin = project / ".opencode" / "plugins" / "hookwright-git-guard.js"
    receipt_path = project / ".opencode" / "hookwright" / "git-guard" / "receipt.json"
    older = plugin.read_bytes().replace(b"\n", b"\n// as an older hookwright wrote it\n", 1)
    plugin.write_bytes(older)
    assert hookwright("uninstall", "git-guard", *where).code == 3  # edited: left alone
    receipt = json.loads(receipt_path.read_text())
    receipt["config_sha256"] = hashlib.sha256(older).hexdigest()
    receipt_path.write_text(json.dumps(receipt))

    assert hookwright("uninstall", "git-guard", *where).code == 0
    assert not plugin.exists()
