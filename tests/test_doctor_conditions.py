"""Conditions that can never be true together: a handler's `if` for a tool its group's matcher
never fires for (measured on Claude Code 2.1.332: tests/e2e/test_doctor_scopes_e2e.py)."""
from __future__ import annotations

import json

import pytest
from doctor_support import doctor, found, settings
from hookwright.doctor.checks.conditions.if_rules import fires_for
from hookwright.doctor.run import run


@pytest.mark.parametrize("matcher, tool, fires", [
    ("Edit", "Bash", False), ("Edit|Write", "Write", True), (None, "Bash", True), ("*", "Bash", True),
    ("Edit.*", "NotebookEdit", True), ("^Edit$", "NotebookEdit", False), ("Ba.*", "Bash", True),
    ("mcp__docs__.*", "mcp__docs__read", True), ("mcp__docs__.*", "mcp__docs", True),
    ("mcp__docs__.*", "mcp__docs__*", True), ("mcp__docs__.*", "mcp__other__*", False), ("Bash", "mcp__docs", False),
    ("mcp__.*", "mcp__docs__read", True), ("Bash", "Bash*", None), ("Bash(", "Bash", None),
])
def test_the_tools_a_matcher_fires_for_meet_the_tool_an_if_names(matcher, tool, fires):
    assert fires_for(matcher, "PreToolUse", tool) is fires


def test_an_if_for_bash_on_an_edit_matcher_is_reported_at_the_if(tmp_path):
    outcome = doctor(tmp_path, {"settings.json": settings(matcher="Edit", **{"if": "Bash(git *)"})})
    (finding,) = found(outcome, "matcher/if-other-tool")
    assert finding.keys[-1] == "if" and "Bash" in finding.message and '"Edit"' in finding.message


@pytest.mark.parametrize("matcher, condition", [
    ("Bash", "Bash(git *)"), ("Edit|Bash", "Bash(git *)"), (None, "Bash(git *)"), ("Write", "Write(*.txt)"),
    ("mcp__docs__.*", "mcp__docs__read_doc"), ("Bash", "not a rule (at all"),
])
def test_an_if_the_matcher_can_fire_for_is_not_reported(tmp_path, matcher, condition):
    outcome = doctor(tmp_path, {"settings.json": settings(matcher=matcher, **{"if": condition})})
    assert not found(outcome, "matcher/if-other-tool")


def test_an_if_on_an_event_without_tool_matchers_is_left_to_if_never_runs(tmp_path):
    outcome = doctor(tmp_path, {"settings.json": settings("Stop", matcher=None, **{"if": "Bash(git *)"})})
    assert not found(outcome, "matcher/if-other-tool") and found(outcome, "structure/if-never-runs")


def _plugin_hooks(tmp_path, matcher, servers=("docs",)):
    root = tmp_path / "plugin"
    (root / ".claude-plugin").mkdir(parents=True)
    (root / ".claude-plugin" / "plugin.json").write_text('{"name": "guarded"}')
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": {s: {"command": "x"} for s in servers}}))
    (root / "hooks").mkdir()
    hooks = root / "hooks" / "hooks.json"
    hooks.write_text(json.dumps(settings(matcher=matcher)))
    return hooks


def test_a_plugin_server_matched_by_its_bare_name_is_reported_with_its_scoped_name(tmp_path):
    outcome = run([_plugin_hooks(tmp_path, "mcp__docs__.*")], project=tmp_path)
    (finding,) = found(outcome, "matcher/plugin-server-bare-name")
    assert finding.keys[-1] == "matcher" and '"mcp__plugin_guarded_docs__.*"' in finding.hint


@pytest.mark.parametrize("matcher", ["mcp__plugin_guarded_docs__.*", "mcp__.*", "mcp__other__.*", "Bash"])
def test_a_matcher_that_names_no_plugin_server_bare_is_not_reported(tmp_path, matcher):
    assert not found(run([_plugin_hooks(tmp_path, matcher)], project=tmp_path), "matcher/plugin-server-bare-name")


def test_a_bare_name_that_a_configured_server_also_has_is_not_reported(tmp_path):
    hooks = _plugin_hooks(tmp_path, "mcp__docs__.*")
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"docs": {"command": "x"}}}))
    assert not found(run([hooks], project=tmp_path), "matcher/plugin-server-bare-name")


def _db_guard(tmp_path, condition: str, guard: str, scripts: dict[str, str] | None = None):
    (tmp_path / ".claude" / "hooks").mkdir(parents=True, exist_ok=True)
    (tmp_path / ".claude" / "hooks" / "db.sh").write_text(guard)
    if scripts is not None:
        (tmp_path / "package.json").write_text(json.dumps({"name": "p", "scripts": scripts}))
    return doctor(tmp_path, {"settings.json": settings(
        matcher="Bash", command='sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/db.sh', **{"if": condition})})


GUARD_FOR_RESET = "grep -Eq 'npm run db:(reset|drop)' && exit 2\nexit 0\n"


@pytest.mark.parametrize("condition, guard, scripts", [
    ("Bash(npm run db:*)", GUARD_FOR_RESET, None),  # the script names db:reset
    ("Bash(npm run db:*)", "exit 2\n", {"db:reset": "x", "db:seed": "y"}),  # package.json's db: scripts
    ("Bash(bin/rails db:*)", "grep -q 'db:drop' && exit 2\nexit 0\n", None),
    ("Bash(pnpm db:*)", "exit 2\n", {"db:push": "x"}),
])
def test_a_legacy_prefix_if_before_a_colon_the_guarded_commands_have_is_reported(tmp_path, condition, guard, scripts):
    (finding,) = found(_db_guard(tmp_path, condition, guard, scripts), "matcher/if-legacy-prefix")
    assert finding.keys[-1] == "if" and ":" in finding.message.split("never matches ")[1].split(",")[0]


@pytest.mark.parametrize("condition, guard, scripts", [
    ("Bash(npm run db*)", GUARD_FOR_RESET, None),  # the glob: matches db:reset (measured)
    ("Bash(npm run db:reset)", GUARD_FOR_RESET, None),
    ("Bash(git push:*)", "grep -q -- '--force' && exit 2\nexit 0\n", None),  # a space follows: the legacy form works
    ("Bash(npm run db:*)", "exit 2\n", {"db": "x", "db:seed": "y"}),  # a `db` script: it may be the one meant
    ("Bash(npm run test:*)", "exit 2\n", {"test": "vitest"}),
])
def test_a_legacy_prefix_if_that_meets_its_guarded_commands_is_not_reported(tmp_path, condition, guard, scripts):
    assert not found(_db_guard(tmp_path, condition, guard, scripts), "matcher/if-legacy-prefix")


def test_a_plugin_server_named_bare_in_an_if_is_reported_at_the_if_with_its_scoped_name(tmp_path):
    hooks = _plugin_hooks(tmp_path, "mcp__.*")
    data = json.loads(hooks.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["if"] = "mcp__docs__search"
    hooks.write_text(json.dumps(data))
    (finding,) = found(run([hooks], project=tmp_path), "matcher/plugin-server-bare-name")
    assert finding.keys[-1] == "if" and '"mcp__plugin_guarded_docs__search"' in finding.hint


def test_an_if_with_the_plugin_servers_scoped_name_is_clean(tmp_path):
    hooks = _plugin_hooks(tmp_path, "mcp__.*")
    data = json.loads(hooks.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["if"] = "mcp__plugin_guarded_docs__search"
    hooks.write_text(json.dumps(data))
    assert not found(run([hooks], project=tmp_path), "matcher/plugin-server-bare-name")
