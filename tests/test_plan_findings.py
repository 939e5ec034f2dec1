"""Every plan is checked by doctor across the project's scopes: what it introduces (conflicts
first), resolves and keeps, shown before anything is written; an introduced error needs consent."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import jsonschema
import pytest
from hookwright import resources
from support import commands, read_json, write_json

REWRITER = """\
    import json, sys
    data = json.load(sys.stdin)
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                             "updatedInput": dict(data["tool_input"], path="/elsewhere")}}))
"""
EXIT_2_GUARD = """\
    import json, sys
    if "secret" in json.dumps(json.load(sys.stdin)):
        sys.exit(2)
"""


def hook_script(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def foreign(matcher: str, command: str, event: str = "PreToolUse") -> dict:
    return {"hooks": {event: [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}}


def project_rewriter(project: Path, matcher: str = "mcp__fs__.*") -> Path:
    """A project hook whose script rewrites the input, and the MCP server `fs` in .mcp.json."""
    hook_script(project / ".claude" / "hooks", "rewrite.py", REWRITER)
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "fs-server"}}})
    settings = project / ".claude" / "settings.json"
    write_json(settings, foreign(matcher, 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rewrite.py'))
    return settings


def at(project: Path) -> tuple:
    return ("--scope", "project", "--project", project)


def findings(ran) -> list[dict]:
    return [f for plan in ran.json["plans"] for f in plan["findings"]]


def introduced(ran) -> list[str]:
    return [f["rule"] for f in findings(ran) if f["change"] == "introduced"]


# ---- what the plan shows ----------------------------------------------------------------------------

def test_a_foreign_rewriter_beside_path_normalizer_is_a_race_the_plan_shows(hookwright, home, project):
    settings = project_rewriter(project)
    ran = hookwright("install", "path-normalizer", *at(project), "--dry-run", "--json")

    assert ran.code == 0
    (race,) = [f for f in findings(ran) if f["change"] == "introduced"]
    assert race["rule"] == "conflict/input-rewrite-race" and race["severity"] == "error"
    assert race["file"] == str(settings) and race["line"] > 1 and race["column"] >= 1
    assert "rewrite.py" in race["message"] and "path-normalizer" in race["message"] and "mcp__fs__*" in race["message"]


def test_a_foreign_rewriter_on_the_question_tool_races_with_ask_guard(hookwright, home, project):
    hook_script(project / ".claude" / "hooks", "rewrite.py", REWRITER)
    write_json(project / ".claude" / "settings.json",
               foreign("AskUserQuestion", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rewrite.py'))
    ran = hookwright("install", "ask-guard", *at(project), "--dry-run", "--json")

    race = [f for f in findings(ran) if f["rule"] == "conflict/input-rewrite-race"]
    assert [f["change"] for f in race] == ["introduced"] and "AskUserQuestion" in race[0]["message"]


def test_two_of_our_packs_with_their_defaults_do_not_race_and_a_matcher_that_makes_them_race_is_shown(
        hookwright, home, project):
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "fs-server"}}})
    defaults = hookwright("install", "ask-guard", "path-normalizer", *at(project), "--dry-run", "--json")
    assert [f for f in findings(defaults) if f["rule"].startswith("conflict/")] == []

    ran = hookwright("install", "ask-guard", "path-normalizer", *at(project), "--option", "tools=mcp__.*", "--dry-run",
                     "--json")

    (race,) = [f for f in findings(ran) if f["rule"].startswith("conflict/input-rewrite-race")]
    assert race["change"] == "introduced" and race["severity"] == "warning"  # they meet only at a tool name
    assert "ask-guard" in race["message"] and "path-normalizer" in race["message"]
    assert "mcp__fs__AskUserQuestion" in race["message"]
    # a warning needs no consent
    assert hookwright("install", "ask-guard", "path-normalizer", *at(project), "--option", "tools=mcp__.*",
                      "--yes").code == 0


def test_with_no_mcp_server_in_sight_two_rewriters_on_mcp_tools_still_warn(hookwright, home, project):
    """The trial: no server configured where doctor looks, two rewriters on `mcp__.*`."""
    project_rewriter(project, matcher="mcp__.*")
    (project / ".mcp.json").unlink()
    ran = hookwright("install", "path-normalizer", *at(project), "--dry-run", "--json")

    (race,) = [f for f in findings(ran) if f["change"] == "introduced"]
    assert race["rule"] == "conflict/input-rewrite-race-unseen-servers" and race["severity"] == "warning"
    for looked_at in (project / ".mcp.json", home / ".claude.json", "managed-mcp.json"):
        assert str(looked_at) in race["message"]


def test_with_yes_the_warnings_a_change_brings_are_said_before_done(hookwright, home, project):
    """--yes shows no plan, so what the written change brought is said after it (it needs no consent)."""
    project_rewriter(project, matcher="mcp__.*")
    (project / ".mcp.json").unlink()
    ran = hookwright("install", "path-normalizer", *at(project), "--yes")

    assert ran.code == 0
    assert "this change introduced 1 finding" in ran.out and "conflict/input-rewrite-race-unseen-servers" in ran.out
    assert ran.out.index("input-rewrite-race-unseen-servers") < ran.out.index("done: install wrote")
    assert "+ add" not in ran.out  # the recap, not the plan
    quiet = hookwright("uninstall", "path-normalizer", *at(project), "--yes")
    assert quiet.code == 0
    quiet = hookwright("-q", "install", "path-normalizer", *at(project), "--yes")
    assert "input-rewrite-race-unseen-servers" in quiet.out and "hint:" not in quiet.out


def test_with_yes_a_change_that_brings_nothing_says_only_done(hookwright, home, project):
    ran = hookwright("install", "git-guard", *at(project), "--yes")

    assert ran.code == 0 and "introduced" not in ran.out and "done: install wrote" in ran.out


def test_a_rewriter_in_the_user_scope_races_with_an_install_in_the_project(hookwright, home, project):
    hook_script(home / "hooks", "rewrite.py", REWRITER)
    write_json(home / ".claude" / "settings.json", foreign("mcp__.*", f"python3 {home / 'hooks' / 'rewrite.py'}"))
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "fs-server"}}})
    ran = hookwright("install", "path-normalizer", *at(project), "--dry-run", "--json")

    assert introduced(ran) == ["conflict/input-rewrite-race"]
    assert findings(ran)[0]["file"] == str(project / ".claude" / "settings.json")


def test_a_plugins_rewriter_races_with_an_install(hookwright, home, project):
    plugin = home / ".claude" / "plugins" / "cache" / "rewriter"
    hook_script(plugin / "hooks", "rewrite.py", REWRITER)
    write_json(plugin / "hooks" / "hooks.json",
               {"description": "rewrites", **foreign("mcp__.*", 'python3 "${CLAUDE_PLUGIN_ROOT}"/hooks/rewrite.py')})
    write_json(home / ".claude" / "plugins" / "installed_plugins.json",
               {"version": 2, "plugins": {"rewriter@tools": [{"scope": "user", "installPath": str(plugin)}]}})
    write_json(home / ".claude" / "settings.json", {"enabledPlugins": {"rewriter@tools": True}})
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "fs-server"}}})
    ran = hookwright("install", "path-normalizer", *at(project), "--dry-run", "--json")

    assert introduced(ran) == ["conflict/input-rewrite-race"]


def test_a_foreign_guard_on_the_same_calls_makes_the_rewrite_moot(hookwright, home, project):
    hook_script(project / ".claude" / "hooks", "guard.py", EXIT_2_GUARD)
    write_json(project / ".claude" / "settings.json",
               foreign("mcp__fs__read_file", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py'))
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "fs-server"}}})
    ran = hookwright("install", "path-normalizer", *at(project), "--dry-run", "--json")

    assert introduced(ran) == ["conflict/pack-hook-moot"]


def test_the_same_pack_in_the_user_and_the_project_scope_is_shown_to_run_twice(hookwright, home, project):
    assert hookwright("install", "git-guard", "--scope", "user", "--yes").code == 0
    ran = hookwright("install", "git-guard", *at(project), "--dry-run", "--json")

    # (one finding per event git-guard is wired to: a Bash call, a skill's shell line)
    assert introduced(ran) == ["conflict/pack-in-several-scopes"] * 2


def test_a_clean_install_introduces_nothing(hookwright, home, project):
    ran = hookwright("install", "git-guard", "path-normalizer", "ask-guard", *at(project), "--dry-run", "--json")

    # our own entries are checked too, without their runtime files (written only after the plan)
    assert not [f for f in introduced(ran) if not f.startswith("conflict/input-rewrite-race")]


def test_an_option_that_makes_a_bad_matcher_is_a_finding_the_plan_introduces(hookwright, home, project):
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "fs-server"}}})
    ran = hookwright("install", "path-normalizer", *at(project), "--option", "tools=mcp__fs", "--dry-run", "--json")

    assert "matcher/mcp-no-tool" in introduced(ran)


def test_the_text_plan_shows_the_findings_between_the_summary_and_the_diff(hookwright, home, project):
    project_rewriter(project)
    shown = hookwright("install", "path-normalizer", *at(project), "--dry-run").out

    summary, block, diff = shown.index("+ add"), shown.index("this change introduces 1 finding"), shown.index("+++")
    assert summary < block < diff
    assert "error conflict/input-rewrite-race" in shown and "hint:" in shown


def test_findings_it_keeps_are_a_count_with_the_command_that_shows_them(hookwright, home, project):
    write_json(project / ".claude" / "settings.json", {"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo done", "timeout": 5000}]}]}})  # milliseconds: a warning
    shown = hookwright("install", "git-guard", *at(project), "--dry-run").out

    assert f"it keeps 1 existing finding (hookwright doctor --project {project} shows them)" in shown
    assert "this change introduces" not in shown


# ---- consent -------------------------------------------------------------------------------------------

def test_with_yes_an_introduced_error_is_refused_with_exit_3_and_nothing_written(hookwright, home, project):
    settings = project_rewriter(project)
    before = settings.read_bytes()
    ran = hookwright("install", "path-normalizer", *at(project), "--yes")

    assert ran.code == 3
    assert "conflict/input-rewrite-race" in ran.out and "--allow-conflicts" in ran.err
    assert settings.read_bytes() == before
    assert not (project / ".claude" / "hookwright").exists()


def test_allow_conflicts_writes_it_anyway(hookwright, home, project):
    settings = project_rewriter(project)
    ran = hookwright("install", "path-normalizer", *at(project), "--yes", "--allow-conflicts", "--json")

    assert ran.code == 0 and ran.json["status"] == "applied"
    assert introduced(ran) == ["conflict/input-rewrite-race"]  # the applied plan still says what it brought
    assert len(commands(read_json(settings))) == 2


def test_without_a_terminal_the_plan_says_which_flags_would_accept_the_conflict(hookwright, home, project):
    project_rewriter(project)
    ran = hookwright("install", "path-normalizer", *at(project))

    assert ran.code == 3 and "--yes" in ran.err and "--allow-conflicts" in ran.err


def test_an_uninstall_that_removes_a_racer_resolves_the_race(hookwright, home, project):
    project_rewriter(project)
    assert hookwright("install", "path-normalizer", *at(project), "--yes", "--allow-conflicts").code == 0
    ran = hookwright("uninstall", "path-normalizer", *at(project), "--dry-run", "--json")

    assert [(f["rule"], f["change"]) for f in findings(ran)] == [("conflict/input-rewrite-race", "resolved")]
    assert "this change resolves 1 finding" in hookwright("uninstall", "path-normalizer", *at(project), "--dry-run").out


def test_removing_our_entries_needs_no_consent_for_errors_it_keeps(hookwright, home, project):
    write_json(project / ".claude" / "settings.json",
               foreign("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh'))  # an error, not ours
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    ran = hookwright("uninstall", "git-guard", *at(project), "--yes", "--json")

    assert ran.code == 0 and ran.json["status"] == "applied"
    kept = [(f["rule"], f["severity"]) for f in findings(ran) if f["change"] == "kept"]
    assert ("command/script-missing", "error") in kept and len(kept) == len(findings(ran))


def test_a_rollback_that_brings_a_race_back_needs_consent(hookwright, home, project):
    settings = project_rewriter(project)
    assert hookwright("install", "path-normalizer", *at(project), "--yes", "--allow-conflicts").code == 0
    assert hookwright("uninstall", "path-normalizer", *at(project), "--yes").code == 0
    before = settings.read_bytes()

    refused = hookwright("rollback", "--project", project, "--yes", "--json")
    assert refused.code == 3 and refused.json["status"] == "refused"
    assert introduced(refused) == ["conflict/input-rewrite-race"]
    assert settings.read_bytes() == before
    assert hookwright("rollback", "--project", project, "--yes", "--allow-conflicts").code == 0
    assert len(commands(read_json(settings))) == 2


# ---- the JSON document ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def result_schema():
    schema = json.loads((resources.data_root() / "schemas" / "result.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_every_plan_document_matches_its_schema(hookwright, home, project, result_schema):
    project_rewriter(project)
    documents = [
        hookwright("install", "path-normalizer", *at(project), "--dry-run", "--json"),
        hookwright("install", "path-normalizer", *at(project), "--yes", "--json"),  # refused
        hookwright("install", "path-normalizer", *at(project), "--json"),  # needs confirmation
        hookwright("install", "path-normalizer", *at(project), "--yes", "--allow-conflicts", "--json"),
        hookwright("install", "path-normalizer", *at(project), "--yes", "--json"),  # unchanged
        hookwright("uninstall", "path-normalizer", *at(project), "--yes", "--json"),
        hookwright("rollback", "--project", project, "--dry-run", "--json"),
    ]
    statuses = [ran.json["status"] for ran in documents]
    assert statuses == ["dry-run", "refused", "needs-confirmation", "applied", "unchanged", "applied", "dry-run"]
    for ran in documents:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in result_schema.iter_errors(ran.json)]
        assert not errors, errors


def test_the_schema_rejects_a_finding_without_its_change(result_schema):
    plan = {"target": {"host": "claude", "scope": "user", "config": "/x", "runtime_root": "/y", "project": None},
            "changed": True, "added": [], "removed": [], "packs": [], "changed_paths": [], "diff": "", "notes": [],
            "findings": [{"rule": "conflict/input-rewrite-race", "severity": "error", "file": "/x", "line": 1,
                          "column": 1, "message": "m", "hint": "h"}]}
    document = {"schema": "hookwright/1", "hookwright_version": "0", "command": "install", "status": "dry-run",
                "exit_code": 0, "plans": [plan], "operation": None}
    assert not result_schema.is_valid(document)
    plan["findings"][0]["change"] = "introduced"
    assert result_schema.is_valid(document)


# ---- what the trial and the review found -----------------------------------------------------------------

def test_narrowing_a_rewriter_keeps_the_race_it_narrows_and_needs_no_consent(hookwright, home, project):
    project_rewriter(project, matcher="mcp__.*")
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "a"}, "gh": {"command": "b"}}})
    assert hookwright("install", "path-normalizer", *at(project), "--yes", "--allow-conflicts").code == 0
    ran = hookwright("install", "path-normalizer", *at(project), "--option", "tools=mcp__fs__.*", "--yes", "--json")

    assert ran.code == 0 and ran.json["status"] == "applied"
    (race,) = [f for f in findings(ran) if f["rule"] == "conflict/input-rewrite-race"]
    assert race["change"] == "kept" and "mcp__fs__*" in race["message"] and "mcp__gh__" not in race["message"]


def test_with_more_pairs_than_doctor_lists_the_plans_own_races_are_all_shown_and_none_passes_for_resolved(
        hookwright, home, project):
    hook_script(project / ".claude" / "hooks", "rewrite.py", REWRITER)
    write_json(project / ".mcp.json", {"mcpServers": {"fs": {"command": "fs-server"}}})
    groups = [{"matcher": "mcp__.*", "hooks": [{"type": "command",
                                                "command": f'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rewrite.py {n}'}]}
              for n in range(21)]  # 210 pairs among themselves: over doctor's 200
    write_json(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": groups}})
    ran = hookwright("install", "path-normalizer", *at(project), "--dry-run", "--json")

    races = [f for f in findings(ran) if f["rule"] == "conflict/input-rewrite-race"]
    assert sum(f["change"] == "introduced" for f in races) == 21  # one with each foreign rewriter
    assert not [f for f in races if f["change"] != "introduced"]
    assert any("too many pairs" in note for note in ran.json["plans"][0]["notes"])



def test_a_kill_switch_that_stops_every_hook_is_a_finding_the_plan_keeps(hookwright, home, project):
    """(found by review) The switches that weigh the files together are checked in a plan too."""
    write_json(project / ".claude" / "settings.json", {"disableAllHooks": True})
    ran = hookwright("install", "git-guard", *at(project), "--dry-run", "--json")

    assert ("structure/hooks-disabled", "kept") in [(f["rule"], f["change"]) for f in findings(ran)]

def test_a_finding_the_change_keeps_points_into_the_file_as_written(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                                  "command": "echo first"}]}],
                                    "Stop": [{"hooks": [{"type": "command", "command": "echo done", "timeout": 5000}]}]}})
    ran = hookwright("install", "git-guard", *at(project), "--yes", "--json")

    (kept,) = [f for f in findings(ran) if f["rule"] == "structure/timeout-milliseconds"]
    assert kept["change"] == "kept"
    after = hookwright("doctor", "--project", project, "--format", "json").json
    (now,) = [f for f in after["findings"] if f["rule"] == "structure/timeout-milliseconds"]
    assert (kept["line"], kept["column"]) == (now["line"], now["column"])


def test_a_rollback_over_several_operations_shows_every_plan_in_a_dry_run(hookwright, home, project):
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    first = hookwright("rollback", "--list", "--json").json["journal"][0]["id"]
    assert hookwright("install", "path-normalizer", *at(project), "--yes").code == 0
    ran = hookwright("rollback", "--to", first, "--dry-run", "--json")

    assert ran.code == 0 and ran.json["status"] == "dry-run" and len(ran.json["plans"]) == 2


def test_the_journal_and_an_error_document_match_the_schema_too(hookwright, home, project, result_schema):
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    listing = hookwright("rollback", "--list", "--json")
    (project / ".claude" / "settings.json").write_text("{ not json")
    error = hookwright("install", "git-guard", *at(project), "--yes", "--json")

    assert error.code == 2
    for ran in (listing, error):
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in result_schema.iter_errors(ran.json)]
        assert not errors, errors


def test_a_rule_the_projects_doctor_config_ignores_neither_shows_in_the_plan_nor_blocks_it(hookwright, home,
                                                                                          project):
    project_rewriter(project)
    (project / ".hookwright.toml").write_text('[doctor]\nignore = ["conflict/input-rewrite-race"]\n')

    ran = hookwright("install", "path-normalizer", *at(project), "--yes", "--json")

    assert ran.code == 0 and "conflict/input-rewrite-race" not in introduced(ran)
