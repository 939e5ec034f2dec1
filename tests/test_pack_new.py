"""`hookwright pack new NAME [--from FILE]`: a pack of one's own, made to install as it is.

Each test runs the CLI in process in a tmp folder, then installs what it made as a user would
(`hookwright install ./NAME`) and runs what was installed as the agent would.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hookwright.pack_cases import answer_schema_errors
from support import read_json, write_json
from test_command_packs import FIXTURE, cursor_payload, run_claude_entry, run_runtime, where


def settings_with(project: Path, hooks: dict) -> Path:
    path = project / ".claude" / "settings.json"
    write_json(path, {"hooks": hooks})
    return path


def command_hook(command: str, **more) -> dict:
    return {"type": "command", "command": command, **more}


def test_a_new_pack_installs_as_made_and_its_guard_blocks_rm_rf(hookwright, home, project, here):
    made = hookwright("pack", "new", "my-guard")
    assert made.code == 0, made.err
    folder = here / "my-guard"
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()) == [
        "guard.py", "pack.toml", "tests/blocks-rm-rf.json", "tests/lets-ls-through.json"]

    assert hookwright("install", "./my-guard", *where(project, "claude"), "--yes").code == 0

    command = read_json(project / ".claude" / "settings.json")["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    blocked = run_claude_entry(project, home, command, {"command": "rm -rf build"})
    assert (blocked.returncode, blocked.stderr.decode()) == (2, "my-guard: rm -rf is not allowed here\n")
    assert run_claude_entry(project, home, command, {"command": "ls"}).returncode == 0


def test_pack_new_json_names_what_it_wrote_and_what_to_run_next(hookwright, home, here):
    doc = json.loads(hookwright("pack", "new", "mine", "--into", here / "packs", "--json").out)
    assert doc["status"] == "applied" and doc["folder"] == str(here / "packs" / "mine")
    assert [step.split()[:3] for step in doc["next_steps"]] == [["hookwright", "pack", "test"],
                                                                ["hookwright", "install", str(here / "packs" / "mine")]]


def test_a_folder_that_exists_or_a_name_that_is_no_pack_name_is_refused_and_nothing_written(hookwright, home, here):
    (here / "taken").mkdir()
    (here / "taken" / "mine.txt").write_text("keep")

    taken = hookwright("pack", "new", "taken")
    bad = hookwright("pack", "new", "My_Guard")

    assert (taken.code, bad.code) == (2, 2)
    assert "exists already" in taken.err and "is not a pack name" in bad.err
    assert sorted(p.name for p in here.rglob("*")) == ["mine.txt", "taken"]


def test_a_claude_code_settings_file_becomes_a_pack_that_puts_its_hooks_into_cursor(hookwright, home, project, here):
    theirs = project / "theirs"
    shutil.copytree(FIXTURE / ".claude", theirs / ".claude")

    made = hookwright("pack", "new", "from-claude", "--from", theirs / ".claude" / "settings.json")

    assert made.code == 0, made.err
    manifest = (here / "from-claude" / "pack.toml").read_text()
    assert 'command = "python3 ${PACK_DIR}/guard.py"' in manifest and 'matcher = "Bash"' in manifest
    assert "rewrites_input = true" in manifest  # (doctor reads updatedInput in the script)
    assert (here / "from-claude" / "guard.py").read_bytes() == (FIXTURE / ".claude" / "hooks" / "guard.py").read_bytes()
    assert read_json(here / "from-claude" / "tests" / "guard-sample.json")["tool_name"] == "Bash"

    assert hookwright("install", "./from-claude", *where(project, "cursor"), "--yes").code == 0

    script = project / ".cursor" / "hookwright" / "from-claude" / "guard"
    answers = {command: json.loads(run_runtime(script, "cursor", cursor_payload(project, command)).stdout)
               for command in ("rm -rf x", "curl x", "echo hello", "ls")}
    assert answer_schema_errors([{"event": "preToolUse", "exit_code": 0, "stdout": json.dumps(answer)}
                                 for answer in answers.values()], "cursor-hook-output.schema.json") == []  # (Cursor's words only)
    assert answers["rm -rf x"]["permission"] == "deny" and answers["curl x"]["permission"] == "deny"
    assert answers["echo hello"] == {"updated_input": {"command": "echo rewritten"}} and answers["ls"] == {}


def test_each_command_of_a_config_becomes_a_hook_and_what_a_pack_cannot_carry_is_said_with_why(hookwright, home,
                                                                                                project, here):
    hooks_dir = project / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    (hooks_dir / "check.sh").write_text('#!/bin/sh\n. "$(dirname "$0")/lib.sh"\nexit 0\n')
    (hooks_dir / "lib.sh").write_text("say() { echo \"$1\"; }\n")
    os.chmod(hooks_dir / "check.sh", 0o755)
    config = settings_with(project, {
        "PreToolUse": [{"matcher": "Write|Edit", "hooks": [command_hook("$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh"),
                                                           {"type": "http", "url": "http://127.0.0.1:9/"}]}],
        "Stop": [{"hooks": [command_hook("echo done >> /tmp/never", **{"async": True}),
                            command_hook("echo stopped")]}]})

    ran = hookwright("pack", "new", "mixed", "--from", config, "--json")

    assert ran.code == 0, ran.err
    doc = json.loads(ran.out)
    assert [(h["id"], h["event"], h["matcher"]) for h in doc["hooks"]] == [("check", "PreToolUse", "Write|Edit"),
                                                                             ("stop-all", "Stop", None)]
    assert doc["hooks"][0]["command"] == "${PACK_DIR}/check.sh"
    assert doc["hooks"][1]["command"] == "sh ${PACK_DIR}/stop-all.sh"
    assert {(n["type"], n["why"].split(",")[0]) for n in doc["not_carried"]} == {
        ("http", "an http hook posts to a URL"), ("command", "it runs async")}
    folder = here / "mixed"
    assert (folder / "lib.sh").is_file() and os.access(folder / "check.sh", os.X_OK)  # (what it sources, its run bit)
    assert (folder / "stop-all.sh").read_text() == "#!/bin/sh\necho stopped\n"
    assert hookwright("install", "./mixed", *where(project, "claude"), "--yes").code == 0
    for host, title in (("cursor", "Cursor"), ("opencode", "opencode")):  # (no Stop answer is carried there)
        refused = hookwright("install", "./mixed", *where(project, host), "--yes")
        assert refused.code == 3 and f"hook stop-all cannot run in {title}" in refused.err


def test_a_plugins_hooks_json_names_its_scripts_through_the_plugin_root(hookwright, home, here, tmp_path):
    plugin = tmp_path / "plugin"
    (plugin / "scripts").mkdir(parents=True)
    shutil.copy(FIXTURE / ".claude" / "hooks" / "guard.py", plugin / "scripts" / "guard.py")
    hooks = plugin / "hooks" / "hooks.json"
    write_json(hooks, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        command_hook("python3 ${CLAUDE_PLUGIN_ROOT}/scripts/guard.py")]}]}})

    ran = hookwright("pack", "new", "plugged", "--from", hooks)

    assert ran.code == 0, ran.err
    assert 'command = "python3 ${PACK_DIR}/guard.py"' in (here / "plugged" / "pack.toml").read_text()


@pytest.mark.parametrize("config, says", [
    ({"version": 1, "hooks": {"preToolUse": [{"command": "true"}]}}, "is not Claude Code's"),
    ({"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "done?"}]}]}}, "holds no command hook"),
])
def test_a_config_with_nothing_a_pack_can_carry_is_refused_and_nothing_written(hookwright, home, project, here, config,
                                                                              says):
    path = project / (".cursor/hooks.json" if "version" in config else ".claude/settings.json")
    write_json(path, config)

    ran = hookwright("pack", "new", "nothing", "--from", path)

    assert ran.code == 2 and says in ran.err
    assert not (here / "nothing").exists() and list(here.iterdir()) == []


def test_a_script_larger_than_a_hooks_script_can_be_is_refused_and_nothing_written(hookwright, home, project, here,
                                                                                   monkeypatch):
    from hookwright import safe_read

    monkeypatch.setattr(safe_read, "SCRIPT", safe_read.Kind("hook script", safe_read.MiB))
    script = project / ".claude" / "hooks" / "big.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n" + "true\n" * 250_000)
    config = settings_with(project, {"PreToolUse": [{"hooks": [command_hook("sh .claude/hooks/big.sh")]}]})

    ran = hookwright("pack", "new", "big", "--from", config)

    assert ran.code == 2 and "a hook script larger than 1 MiB is refused" in ran.err and str(script) in ran.err
    assert list(here.iterdir()) == []
