"""`doctor FILE` on a project's file also reports its conflicts with what the agent loads with it on
this machine (installer/doctor/run.py: around): the user's settings, the local and managed ones, the
plugins they enable, Cursor's user file, opencode's other plugin folders. Those findings are
marked as depending on this machine; the file's own findings stay as `--isolated` gives them,
and a machine without such files (CI) adds nothing."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from doctor_support import found, settings, write
from hookwright import resources
from hookwright.doctor.run import run

S = ".claude/settings.json"
LOCAL = ".claude/settings.local.json"
REWRITER = """
    import json, sys
    data = json.load(sys.stdin)
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                             "updatedInput": dict(data["tool_input"], touched=True)}}))
"""
CURSOR_REWRITER = """
    import json, sys
    data = json.load(sys.stdin)
    print(json.dumps({"permission": "allow", "updated_input": dict(data["tool_input"], touched=True)}))
"""
RACE = "conflict/input-rewrite-race"


def rewriter(folder: Path, name: str, text: str = REWRITER) -> str:
    """A script that rewrites the tool input, and the command that runs it."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return f"python3 {path}"


def bash_rewriter(folder: Path, name: str) -> dict:
    return settings(command=rewriter(folder, name))


@pytest.fixture
def claude_home(home, monkeypatch) -> Path:
    """The user's Claude Code folder, moved by CLAUDE_CONFIG_DIR as Claude Code allows."""
    folder = home / "claude-config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(folder))
    return folder


def racing_project(project: Path, claude_home: Path) -> Path:
    """A project file whose Bash rewriter races with one in the user's settings; the project file."""
    write(claude_home, {"settings.json": bash_rewriter(claude_home / "hooks", "user.py")})
    (named,) = write(project, {S: bash_rewriter(project / ".claude" / "hooks", "team.py")})
    return named


def test_a_project_rewriter_that_races_with_one_in_the_user_settings_is_marked_as_depending_on_this_machine(
        project, claude_home):
    named = racing_project(project, claude_home)
    outcome = run([named], project=project, machine=True)
    (race,) = found(outcome, RACE)
    assert race.path == str(named) and race.machine == (str(claude_home / "settings.json"),)
    assert "`user.py` and `team.py`" in race.message
    assert race.related[0]["path"] == str(claude_home / "settings.json")
    assert race.to_json()["depends_on_machine"] is True
    assert [f.path for f in outcome.machine] == [claude_home / "settings.json"]
    assert [str(f.path) for f in outcome.files] == [str(named)]  # the user's settings are not checked


def test_with_isolated_the_named_file_is_checked_alone(hookwright, project, claude_home):
    named = racing_project(project, claude_home)
    assert not found(run([named], project=project), RACE)
    ran = hookwright("doctor", "--isolated", "--json", named)
    assert ran.code == 0 and ran.json["findings"] == [] and ran.json["context"] == []
    assert ran.json["summary"]["machine_dependent"] == 0


def test_a_finding_inside_the_named_file_is_not_marked_and_is_the_one_the_isolated_run_gives(project, claude_home):
    hooks = project / ".claude" / "hooks"
    a, b = rewriter(hooks, "a.py"), rewriter(hooks, "b.py")
    named_data = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": a},
                                                                         {"type": "command", "command": b}]}],
                            "Stop": [{"hooks": [{"type": "command", "command": "echo done", "timeout": 5000}]}]}}
    (named,) = write(project, {S: named_data})
    # the user's settings hold a copy of a.py: the race of a.py and b.py stays the file's own
    write(claude_home, {"settings.json": settings(command=a)})
    alone = run([named], project=project).findings
    assert {f.rule for f in alone} >= {RACE, "structure/timeout-milliseconds"}
    with_machine = run([named], project=project, machine=True).findings
    assert [f for f in with_machine if not f.machine] == alone
    # (the copy itself is this machine's: Claude Code runs the command once for both)
    assert [f.rule for f in with_machine if f.machine] == ["conflict/duplicate-handler"]
    assert all(f.to_json()["depends_on_machine"] is False for f in alone)


def test_a_user_settings_file_that_is_not_json_is_not_reported_against_the_named_file(hookwright, project,
                                                                                      claude_home, monkeypatch):
    write(claude_home, {"settings.json": '{"hooks": {},}'})
    (named,) = write(project, {S: bash_rewriter(project / ".claude" / "hooks", "team.py")})
    monkeypatch.chdir(project)
    ran = hookwright("doctor", "--json", named)
    assert ran.code == 0 and ran.json["findings"] == []  # exit 2 is for the files named, not for this machine's
    (context,) = ran.json["context"]
    assert context["path"] == str(claude_home / "settings.json") and context["error"]
    text = hookwright("doctor", named)
    (note,) = [line for line in text.out.splitlines() if line.startswith("this machine:")]
    assert "~/claude-config/settings.json could not be read" in note
    assert text.out.splitlines()[-1] == "0 errors, 0 warnings in 1 file"


def test_a_race_with_the_local_settings_sits_on_the_named_project_file(project, home):
    (named, local) = write(project, {S: bash_rewriter(project / ".claude" / "hooks", "team.py"),
                                     LOCAL: bash_rewriter(project / ".claude" / "hooks", "mine.py")})
    (race,) = found(run([named], project=project, machine=True), RACE)
    assert race.path == str(named) and race.machine == (str(local),)


def test_a_plugin_the_user_settings_enable_repeats_a_project_hook(project, claude_home):
    root = claude_home / "plugins" / "cache" / "guard"
    write(root, {"hooks/hooks.json": {"description": "guard", "hooks": settings(command="echo guard")["hooks"]}})
    write(claude_home, {"plugins/installed_plugins.json": {"version": 2, "plugins": {
        "guard@tools": [{"scope": "user", "installPath": str(root), "version": "1.0.0"}]}},
        "settings.json": {"enabledPlugins": {"guard@tools": True}}})
    (named,) = write(project, {S: settings(command="echo guard")})
    (twice,) = found(run([named], project=project, machine=True), "conflict/duplicate-runs-twice")
    assert twice.path == str(named) and twice.machine == (str(root / "hooks" / "hooks.json"),)


def test_a_cursor_project_file_conflicts_with_the_user_hooks_json(project, home):
    user = rewriter(home / ".cursor" / "hooks", "user.py", CURSOR_REWRITER)
    team = rewriter(project / ".cursor" / "hooks", "team.py", CURSOR_REWRITER)
    write(home, {".cursor/hooks.json": {"version": 1, "hooks": {"preToolUse": [{"command": user, "matcher": "Shell"}]}}})
    (named,) = write(project, {".cursor/hooks.json": {"version": 1, "hooks": {"preToolUse": [{"command": team}]}}})
    (conflict,) = found(run([named], project=project, machine=True), "conflict/cursor-input-rewrite-conflict")
    assert conflict.path == str(named) and conflict.machine == (str(home / ".cursor" / "hooks.json"),)
    assert "project over user" in conflict.message
    assert not found(run([named], project=project), "conflict/cursor-input-rewrite-conflict")


def test_an_opencode_pack_in_the_user_plugins_folder_too_runs_twice_on_this_machine(hookwright, home, project):
    for scope in ("user", "project"):
        ran = hookwright("install", "path-normalizer", "--host", "opencode", "--scope", scope, "--project", project,
                         "--yes")
        assert ran.code == 0, ran.err
    (named,) = (project / ".opencode" / "plugins").glob("hookwright-*.js")
    findings = hookwright("doctor", "--json", "--project", project, named).json["findings"]
    (twice,) = [f for f in findings if f["rule"] == "conflict/pack-in-several-scopes"]
    assert twice["depends_on_machine"] and twice["machine_files"][0].startswith(str(home))
    isolated = hookwright("doctor", "--json", "--isolated", "--project", project, named).json["findings"]
    assert "conflict/pack-in-several-scopes" not in [f["rule"] for f in isolated]


def test_the_cli_reports_the_machine_dependent_race_in_json_and_counts_it_for_the_exit_code(hookwright, project,
                                                                                           claude_home):
    import jsonschema

    named = racing_project(project, claude_home)
    ran = hookwright("doctor", "--format", "json", named)
    assert ran.code == 1  # an error on this machine is an error: the hooks do race here
    (race,) = ran.json["findings"]
    assert race["rule"] == RACE and race["depends_on_machine"] is True
    assert race["machine_files"] == [str(claude_home / "settings.json")]
    assert ran.json["summary"]["machine_dependent"] == 1 and ran.json["summary"]["errors"] == 1
    schema = json.loads((resources.data_root() / "schemas" / "doctor.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    assert [e.message for e in validator.iter_errors(ran.json)] == []
    assert [e.message for e in validator.iter_errors(hookwright("doctor", "--json", "--isolated", named).json)] == []
    assert not validator.is_valid(dict(ran.json, findings=[{k: v for k, v in race.items() if k != "machine_files"}]))


def test_the_text_output_tags_a_machine_finding_and_the_summary_counts_it(hookwright, project, claude_home,
                                                                          monkeypatch):
    named = racing_project(project, claude_home)
    monkeypatch.chdir(project)
    lines = hookwright("doctor", S).out.splitlines()
    (race,) = [line for line in lines if RACE in line]
    assert race.endswith("(this machine: ~/claude-config/settings.json)")
    assert lines[-1] == "1 error, 0 warnings in 1 file; 1 depends on this machine"
    sarif = hookwright("doctor", "--format", "sarif", named).json
    (result,) = sarif["runs"][0]["results"]
    assert result["properties"] == {"dependsOnMachine": True, "machineFiles": [str(claude_home / "settings.json")]}


def test_in_ci_without_user_settings_the_same_command_says_nothing_extra(hookwright, project, home):
    (named,) = write(project, {S: bash_rewriter(project / ".claude" / "hooks", "team.py")})
    ran = hookwright("doctor", "--json", named)
    assert ran.code == 0 and ran.json["context"] == [] and ran.json["findings"] == []
    assert ran.json == hookwright("doctor", "--json", "--isolated", named).json


def test_a_file_outside_any_project_is_checked_alone(project, claude_home):
    write(claude_home, {"settings.json": bash_rewriter(claude_home / "hooks", "user.py")})
    (loose,) = write(project, {"hooks-draft.json": bash_rewriter(project / "hooks", "team.py")})
    outcome = run([loose], project=project, machine=True)
    assert outcome.machine == [] and not found(outcome, RACE)


def test_isolated_without_files_is_a_usage_error(hookwright, project):
    ran = hookwright("doctor", "--isolated", "--project", project)
    assert ran.code == 2 and "--isolated" in ran.err
