"""hookwright acts where you mean (issue 34): each failure the trial met, run as the user ran it,
in real folders: a subfolder of a git project, a second project, a pack of your own with a
syntax error. Every command runs in the folder the user's shell was in (monkeypatch.chdir)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from support import commands, read_json, write_json

GIT_GUARD_PROJECT = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude'


def git_project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


@pytest.fixture
def proj1(tmp_path) -> Path:
    return git_project(tmp_path / "proj1")


@pytest.fixture
def proj7(tmp_path) -> Path:
    return git_project(tmp_path / "proj7")


# ---- the project is found from a subfolder -----------------------------------------------------------

def test_from_a_subfolder_status_doctor_and_install_act_on_the_project_above(hookwright, home, proj1, monkeypatch):
    monkeypatch.chdir(proj1)
    assert hookwright("install", "git-guard", "--scope", "project", "--yes").code == 0
    deep = proj1 / "src" / "deep"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)

    status = hookwright("status", "--json").json
    doctor = hookwright("doctor", "--format", "json")
    again = hookwright("install", "git-guard", "--scope", "project", "--yes")
    text = hookwright("status")

    assert status["project"] == str(proj1) and [r["pack"] for r in status["installs"]] == ["git-guard"]
    assert json.loads(doctor.out)["summary"]["files"] == 1 and json.loads(doctor.out)["project"] == str(proj1)
    assert again.code == 0 and "unchanged" in again.out and not (deep / ".claude").exists()
    assert f"project: {proj1}" in text.err  # named, as it is not the current folder


def test_doctor_from_a_subfolder_says_claude_code_started_there_would_not_read_the_project_settings(
        hookwright, home, proj1, monkeypatch):
    monkeypatch.chdir(proj1)
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    (proj1 / "sub").mkdir()
    monkeypatch.chdir(proj1 / "sub")

    ran = json.loads(hookwright("doctor", "--format", "json").out)

    unread = [f for f in ran["findings"] if f["rule"] == "structure/settings-not-read"]
    assert unread and {f["path"] for f in unread} == {str(proj1 / ".claude" / "settings.json")}
    assert all(f"not read by a session started in {proj1 / 'sub'}" in f["message"] for f in unread)
    monkeypatch.chdir(proj1)
    assert "not read by" not in hookwright("doctor").out  # started at the project: it does


def test_the_nearest_folder_with_an_agents_config_folder_wins_over_the_git_root(hookwright, home, proj1,
                                                                                  monkeypatch):
    inner = proj1 / "packages" / "app"
    (inner / ".cursor").mkdir(parents=True)
    (inner / "lib").mkdir()
    monkeypatch.chdir(inner / "lib")
    assert hookwright("status", "--json").json["project"] == str(inner)
    monkeypatch.chdir(proj1 / "packages")
    assert hookwright("status", "--json").json["project"] == str(proj1)  # the git root


def test_the_home_folders_agent_config_is_the_user_scope_never_a_project(hookwright, home, monkeypatch):
    (home / ".claude").mkdir()
    (home / "notes").mkdir()
    monkeypatch.chdir(home / "notes")
    assert hookwright("status", "--json").json["project"] == str(home / "notes")


@pytest.mark.parametrize("named", [".", "{project}", "{project}/src"])
def test_doctor_dir_checks_that_project(hookwright, home, proj1, monkeypatch, named):
    hookwright("install", "git-guard", "--project", proj1, "--yes")
    (proj1 / "src").mkdir()
    monkeypatch.chdir(proj1)

    ran = hookwright("doctor", named.format(project=proj1), "--format", "json")

    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["summary"]["files"] == 1


# ---- the install you are looking at ---------------------------------------------------------------------

def test_uninstall_without_flags_takes_the_pack_out_where_status_lists_it(hookwright, home, proj1, monkeypatch):
    monkeypatch.chdir(proj1)
    hookwright("install", "git-guard", "--scope", "project", "--yes")

    ran = hookwright("uninstall", "git-guard", "--yes")

    assert ran.code == 0, ran.err
    assert "done: uninstall wrote" in ran.out and not (proj1 / ".claude").exists()
    assert hookwright("status", "--json").json["installs"] == []


def test_not_installed_here_is_never_a_success_while_the_pack_is_installed_elsewhere(hookwright, home, proj1,
                                                                                       monkeypatch):
    monkeypatch.chdir(proj1)
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    settings = (proj1 / ".claude" / "settings.json").read_bytes()

    ran = hookwright("uninstall", "git-guard", "--scope", "user", "--yes")

    assert ran.code == 3
    assert "hookwright uninstall git-guard --host claude --scope project --yes" in ran.err
    assert (proj1 / ".claude" / "settings.json").read_bytes() == settings


def test_a_pack_in_several_places_is_refused_with_yes_listing_the_command_of_each(hookwright, home, proj1,
                                                                                   monkeypatch):
    monkeypatch.chdir(proj1)
    for host in ("claude", "opencode"):
        hookwright("install", "git-guard", "--host", host, "--scope", "project", "--yes")

    for args in (["uninstall", "git-guard", "--yes"], ["uninstall", "--yes"], ["install", "git-guard", "--yes"]):
        ran = hookwright(*args)
        assert ran.code == 3, args
        assert "installed for this project in 2 places" in ran.err
        assert "--host claude --scope project" in ran.err and "--host opencode --scope project" in ran.err
    assert commands(read_json(proj1 / ".claude" / "settings.json")) == [GIT_GUARD_PROJECT]


def test_a_pack_installed_nowhere_is_nothing_to_do_exit_0_in_every_command(hookwright, home, proj1, monkeypatch):
    monkeypatch.chdir(proj1)
    for args in (["uninstall", "git-guard", "--yes"], ["uninstall", "--yes"], ["rollback", "--yes"]):
        ran = hookwright(*args)
        assert ran.code == 0 and ran.out.startswith("nothing to do: "), args
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    same = hookwright("install", "git-guard", "--yes")
    assert same.code == 0 and "unchanged" in same.out


def test_upgrade_with_an_option_acts_where_the_pack_is_and_a_later_install_says_it_keeps_it(hookwright, home,
                                                                                               proj1, monkeypatch):
    monkeypatch.chdir(proj1)
    hookwright("install", "git-guard", "--scope", "project", "--yes")

    upgraded = hookwright("install", "git-guard", "--option", "deny_push=true", "--yes")
    again = hookwright("install", "git-guard", "--yes")

    assert upgraded.code == 0 and not (home / ".claude" / "settings.json").exists()
    assert commands(read_json(proj1 / ".claude" / "settings.json")) == [GIT_GUARD_PROJECT + " --option deny_push=true"]
    assert "git-guard keeps deny_push=true from the install before" in again.out
    listed = hookwright("status")
    assert "deny_push=true" in listed.out


# ---- rollback is the project's ----------------------------------------------------------------------------

def test_rollback_in_one_project_never_changes_another(hookwright, home, proj1, proj7, monkeypatch):
    monkeypatch.chdir(proj1)
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    monkeypatch.chdir(proj7)
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    hookwright("install", "git-guard", "--scope", "project", "--option", "deny_push=true", "--yes")
    seven = (proj7 / ".claude" / "settings.json").read_bytes()
    monkeypatch.chdir(proj1)

    ran = hookwright("rollback", "--yes")

    assert ran.code == 0, ran.err
    assert (proj7 / ".claude" / "settings.json").read_bytes() == seven
    assert not (proj1 / ".claude").exists()
    assert "done: rollback undid install of git-guard (" in ran.out
    assert f"in {proj1 / '.claude' / 'settings.json'}" in ran.out
    listed = hookwright("rollback", "--list", "--json").json["journal"]
    assert [row["here"] for row in listed] == [True, False, False, True]


def test_rolling_back_an_upgrade_gives_back_the_entries_in_their_order_after_a_foreign_edit(hookwright, home,
                                                                                              proj1, monkeypatch):
    monkeypatch.chdir(proj1)
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    hookwright("install", "path-normalizer", "--scope", "project", "--yes")
    settings = proj1 / ".claude" / "settings.json"
    before = read_json(settings)
    hookwright("install", "git-guard", "--scope", "project", "--option", "deny_push=true", "--yes")
    edited = read_json(settings)
    edited["model"] = "opus"  # Claude Code saves a setting meanwhile
    write_json(settings, edited)

    assert hookwright("rollback", "--yes").code == 0

    assert json.dumps(read_json(settings)) == json.dumps({**before, "model": "opus"})


# ---- a hook that cannot run is not a silent pass ---------------------------------------------------------------

MANIFEST = """name = "my-guard"
version = "1.0.0"
description = "Denies rm -rf."

[[hooks]]
id = "my-guard"
script = "my-guard"
description = "PreToolUse on Bash: denies rm -rf."
rewrites_input = false
blocks = true

[hooks.claude]
event = "PreToolUse"
matcher = "Bash"
timeout = 10
"""
GOOD = ('import hookwright_runtime as hw\nNAME = "my-guard"\nOPTIONS = {}\n\n\ndef handle(call):\n'
        '    return hw.deny("no rm -rf") if "rm -rf" in call.tool_input.get("command", "") else None\n')


@pytest.fixture
def my_guard(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "packs" / "my-guard"
    folder.mkdir(parents=True)
    (folder / "pack.toml").write_text(MANIFEST)
    (folder / "my_guard.py").write_text(GOOD)
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(folder.parent))
    return folder


@pytest.mark.parametrize("module, says, line", [
    ("NAME = 'my-guard'\nOPTIONS = {}\ndef handle(call)\n    return None\n", "SyntaxError", 3),
    ("NAME = 'my-guard'\nOPTIONS = {}\n", "defines no handle", None),
    ("import requests\nNAME = 'my-guard'\nOPTIONS = {}\ndef handle(call):\n    return None\n",
     "No module named 'requests'", 1),
])
def test_a_pack_of_your_own_that_does_not_load_is_refused_before_anything_is_written(
        hookwright, home, proj1, my_guard, monkeypatch, module, says, line):
    (my_guard / "my_guard.py").write_text(module)
    monkeypatch.chdir(proj1)

    ran = hookwright("install", "my-guard", "--scope", "project", "--yes")

    assert ran.code == 2 and says in ran.err, ran.err
    assert f"{my_guard / 'my_guard.py'}{f':{line}:' if line else ''}" in ran.err
    assert not (proj1 / ".claude").exists()


def test_an_installed_guard_whose_module_breaks_logs_its_line_and_status_and_doctor_say_it(
        hookwright, home, proj1, my_guard, monkeypatch):
    monkeypatch.chdir(proj1)
    assert hookwright("install", "my-guard", "--scope", "project", "--yes").code == 0
    installed = proj1 / ".claude" / "hookwright" / "my-guard"
    (installed / "my_guard.py").write_text(GOOD.replace("def handle(call):", "def handle(call)"))
    env = {**os.environ, "HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state"),
           "XDG_CACHE_HOME": str(home / ".cache")}
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"},
               "cwd": str(proj1)}

    ran = subprocess.run([sys.executable, "-I", "-S", str(installed / "my-guard"), "--host", "claude"],
                         input=json.dumps(payload).encode(), capture_output=True, env=env, timeout=30)

    assert ran.returncode == 0  # the agent is never broken...
    log = (home / ".local" / "state" / "hookwright" / "hooks.log").read_text()
    assert "my-guard cannot load its modules: SyntaxError" in log  # ...and it is never silent
    status = hookwright("status")
    doctor = hookwright("doctor")
    assert status.code == 1 and "install/runtime-cannot-load" in status.out
    assert doctor.code == 1 and "install/runtime-cannot-load" in doctor.out
    decided = hookwright("log", "--decision", "error", "--json").json["entries"]
    assert [(e["pack"], e["tool"]) for e in decided] == [("my-guard", "Bash")]


# ---- our packs never race each other ----------------------------------------------------------------------------

def _pairs() -> list[tuple[str, str, str]]:
    from hookwright import hosts
    from hookwright.packs import bundled_pack_names, load_pack

    return [(host.name, a, b) for host in hosts.every()
            for a, b in combinations(bundled_pack_names(), 2)
            if not host.refusal(load_pack(a)) and not host.refusal(load_pack(b))]


@pytest.mark.parametrize("host, a, b", _pairs())
def test_every_pair_of_bundled_packs_installed_with_their_defaults_has_no_conflict(hookwright, home, proj1, host,
                                                                                   a, b):
    (proj1 / ".mcp.json").write_text(json.dumps({"mcpServers": {"fs": {"command": "fs-server"}}}))
    ran = hookwright("install", a, b, "--host", host, "--scope", "project", "--project", proj1, "--yes")
    assert ran.code == 0, ran.out + ran.err

    doctor = json.loads(hookwright("doctor", "--project", proj1, "--host", host, "--format", "json").out)

    assert [f["rule"] for f in doctor["findings"] if f["rule"].startswith("conflict/")] == []


# ---- options checked ------------------------------------------------------------------------------------------------

def test_a_matcher_option_that_matches_no_tool_is_a_finding_in_the_plan(hookwright, home, proj1):
    ran = hookwright("install", "path-normalizer", "--project", proj1, "--option", "tools=Mcp__fs", "--dry-run")

    assert ran.code == 0
    assert "this change introduces 1 finding" in ran.out and "matcher/case-mismatch" in ran.out
    assert 'write "mcp__fs__.*"' in ran.out


def test_a_malformed_list_option_is_exit_2_and_writes_nothing(hookwright, home, proj1):
    ran = hookwright("install", "path-normalizer", "--project", proj1, "--option", "args=path, ,file_path,,/etc",
                     "--yes")

    assert ran.code == 2 and "option args has an empty name" in ran.err
    assert not (proj1 / ".claude").exists()
    ran = hookwright("install", "path-normalizer", "--project", proj1, "--option", "args=path,/etc", "--yes")
    assert ran.code == 2 and "'/etc' is not a name" in ran.err
