"""Hooks shared by every project (the user's settings, a plugin's) that reach their script through
the project's folder (measured on Claude Code 2.1.332: tests/e2e/test_doctor_scopes_e2e.py)."""
from __future__ import annotations

import json

import pytest
from doctor_support import found, settings, write
from hookwright.doctor.run import run

THROUGH_PROJECT = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'


def _guard(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 2\n")
    path.chmod(0o755)


def test_a_user_hook_whose_script_is_not_in_this_project_says_the_hook_runs_in_every_project(home, project):
    write(home, {".claude/settings.json": settings(command=THROUGH_PROJECT)})
    (missing,) = found(run(None, project=project), "command/script-missing")
    assert "not in this project" in missing.message and "$CLAUDE_PROJECT_DIR" in missing.message


def test_a_user_hook_whose_script_is_in_this_project_depends_on_every_project_having_it(home, project):
    write(home, {".claude/settings.json": settings(command=THROUGH_PROJECT)})
    _guard(project / ".claude" / "hooks" / "guard.sh")
    outcome = run(None, project=project)
    (shared,) = found(outcome, "command/shared-hook-project-script")
    assert "cannot tell" in shared.message and shared.path.endswith("settings.json")
    assert not found(outcome, "command/script-missing")


def test_a_project_hook_through_the_project_is_no_shared_hook(project):
    write(project, {".claude/settings.json": settings(command=THROUGH_PROJECT)})
    _guard(project / ".claude" / "hooks" / "guard.sh")
    outcome = run(None, project=project)
    assert not found(outcome, "command/shared-hook-project-script") and not found(outcome, "command/script-missing")


def test_a_missing_project_script_of_the_project_settings_keeps_the_plain_wording(project):
    write(project, {".claude/settings.json": settings(command=THROUGH_PROJECT)})
    (missing,) = found(run(None, project=project), "command/script-missing")
    assert "does not exist" in missing.message


def _plugin(tmp_path, command):
    root = tmp_path / "plugin"
    write(root, {".claude-plugin/plugin.json": {"name": "guarded"}, "hooks/hooks.json": settings(command=command)})
    _guard(root / "hooks" / "guard.sh")
    return root / "hooks" / "hooks.json"


def test_a_plugin_hook_that_reaches_its_own_script_through_the_project_is_an_error(tmp_path, project):
    hooks = _plugin(tmp_path, '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh')
    outcome = run([hooks], project=project)
    (through,) = found(outcome, "command/plugin-script-through-project")
    assert '"${CLAUDE_PLUGIN_ROOT}"/hooks/guard.sh' in through.hint and through.keys[-1] == "command"
    assert found(outcome, "command/script-missing") == []  # (missing from the project too: one finding)


def test_a_plugin_hook_through_its_root_is_not_reported(tmp_path, project):
    outcome = run([_plugin(tmp_path, '"${CLAUDE_PLUGIN_ROOT}"/hooks/guard.sh')], project=project)
    assert not [f for f in outcome.findings if f.rule.startswith("command/")
                and f.rule not in ("command/sh-without-shell",)]


def test_a_plugin_hook_through_the_project_to_a_script_only_the_project_has_depends_on_every_project(tmp_path,
                                                                                                    project):
    hooks = _plugin(tmp_path, THROUGH_PROJECT)
    _guard(project / ".claude" / "hooks" / "guard.sh")
    outcome = run([hooks], project=project)
    assert [f.rule for f in outcome.findings if f.rule.startswith("command/") and "shell" not in f.rule] == [
        "command/shared-hook-project-script"]
    assert json.loads(hooks.read_text())  # (untouched)


@pytest.mark.parametrize("command", ['"$PWD"/.claude/hooks/guard.sh', '"$(pwd)/.claude/hooks/guard.sh"',
                                     '"$(git rev-parse --show-toplevel)"/.claude/hooks/guard.sh'])
def test_a_user_hook_through_the_folder_it_runs_in_is_bound_to_the_project_as_through_the_project_dir(
        home, project, command):
    (project / ".git").mkdir()  # (the work tree's top is the project)
    write(home, {".claude/settings.json": settings(command=command)})
    outcome = run(None, project=project)
    (missing,) = found(outcome, "command/script-missing")
    assert "not in this project" in missing.message
    _guard(project / ".claude" / "hooks" / "guard.sh")
    (shared,) = found(run(None, project=project), "command/shared-hook-project-script")
    assert shared.path.endswith("settings.json")


def test_a_user_hook_through_the_home_folder_is_not_bound_to_a_project(home, project):
    _guard(home / ".claude" / "hooks" / "guard.sh")
    write(home, {".claude/settings.json": settings(command='"$HOME"/.claude/hooks/guard.sh')})
    outcome = run(None, project=project)
    assert not found(outcome, "command/script-missing") and not found(outcome, "command/shared-hook-project-script")
