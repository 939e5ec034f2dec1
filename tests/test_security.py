"""Hostile paths, world-writable places, and the interpreter isolation the runtimes rely on."""
import json
import os
import shlex
import subprocess

import pytest
from support import commands, read_json

PAYLOAD = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "git reset --hard"}})
HOSTILE_NAMES = ["sp ace", "qu'ote", 'dou"ble', "dol$HOME", "back`id`tick", "sub$(touch pwned)", "new\nline",
                 "-leading-dash", "semi;colon&amp", "star*?[x]"]


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=repr)
def test_a_hostile_home_path_is_quoted_so_a_real_shell_runs_exactly_our_runtime(hookwright, tmp_path, monkeypatch,
                                                                              name):
    home = tmp_path / name
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    assert hookwright("install", "git-guard", "--scope", "user", "--yes").code == 0
    [command] = commands(read_json(home / ".claude" / "settings.json"))
    done = subprocess.run(["sh", "-c", command], input=PAYLOAD, capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, HOOKWRIGHT_LOG=str(tmp_path / "log")), timeout=30)

    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert shlex.split(command)[3] == str(home / ".claude" / "hookwright" / "git-guard" / "git-guard")
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize("name", ["sp ace", "qu'ote", "dol$HOME", "sub$(touch pwned)"], ids=repr)
def test_a_hostile_project_path_works_through_claude_project_dir(hookwright, home, tmp_path, name):
    project = tmp_path / name
    project.mkdir()
    hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")
    [command] = commands(read_json(project / ".claude" / "settings.json"))

    done = subprocess.run(["sh", "-c", command], input=PAYLOAD, capture_output=True, text=True, cwd=project,
                          env=dict(os.environ, CLAUDE_PROJECT_DIR=str(project), HOOKWRIGHT_LOG=str(tmp_path / "l")),
                          timeout=30)

    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert not (tmp_path / "pwned").exists() and not (project / "pwned").exists()


def test_runtime_files_and_folders_have_no_group_or_world_write_whatever_the_umask(hookwright, home, project):
    old = os.umask(0)
    try:
        hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")
    finally:
        os.umask(old)

    runtime_root = project / ".claude" / "hookwright"
    for path in [runtime_root, *runtime_root.rglob("*")]:
        assert not path.stat().st_mode & 0o022, path


def test_install_refuses_a_world_writable_runtime_folder(hookwright, home, project):
    folder = project / ".claude" / "hookwright"
    folder.mkdir(parents=True)
    folder.chmod(0o777)

    ran = hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")

    assert ran.code == 3
    assert "writable by every user" in ran.err and str(folder) in ran.err
    assert not (project / ".claude" / "settings.json").exists()


def test_install_refuses_to_reference_a_world_writable_runtime_script(hookwright, home, project):
    hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")
    script = project / ".claude" / "hookwright" / "git-guard" / "git-guard"
    script.chmod(0o777)
    before = (project / ".claude" / "settings.json").read_bytes()

    ran = hookwright("install", "git-guard", "--scope", "project", "--project", project, "--option",
                     "deny_push=true", "--yes")

    assert ran.code == 3 and str(script) in ran.err
    assert (project / ".claude" / "settings.json").read_bytes() == before


def test_runtimes_ignore_pythonpath_and_the_user_site_so_a_planted_module_is_never_imported(hookwright, home,
                                                                                           project, tmp_path):
    hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")
    [command] = commands(read_json(project / ".claude" / "settings.json"))
    marker = tmp_path / "hostile-code-ran"
    planted = tmp_path / "planted"
    planted.mkdir()
    hostile = f"open({str(marker)!r}, 'a').write('ran\\n')\nraise ImportError('planted')\n"
    for module in ("json.py", "re.py", "shlex.py", "hookwright_runtime.py", "git_guard.py"):
        (planted / module).write_text(hostile)
    user_site = home / ".local" / "lib"
    for version in ("python3.8", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13"):
        site = user_site / version / "site-packages"
        site.mkdir(parents=True)
        (site / "usercustomize.py").write_text(hostile)
        (site / "evil.pth").write_text(f"import os; open({str(marker)!r}, 'a').write('pth\\n')\n")
    env = dict(os.environ, CLAUDE_PROJECT_DIR=str(project), PYTHONPATH=str(planted), HOME=str(home),
               PYTHONSTARTUP=str(planted / "json.py"), HOOKWRIGHT_LOG=str(tmp_path / "log"))

    guarded = subprocess.run(["sh", "-c", command], input=PAYLOAD, capture_output=True, text=True, env=env,
                             cwd=project, timeout=30)
    assert json.loads(guarded.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert not marker.exists()

    unguarded = command.replace("python3 -I -S ", "python3 ")  # the same runtime, without isolation
    subprocess.run(["sh", "-c", unguarded], input=PAYLOAD, capture_output=True, text=True, env=env, cwd=project,
                   timeout=30)
    assert marker.exists()  # the plant works: only -I -S kept it out
