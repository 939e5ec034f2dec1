"""Hooks whose conditions or scripts lie in another place than the hook, each a bad case and its
corrected twin run on the real Claude Code: the bad one lets a call through that its guard means
to refuse, the twin refuses it; doctor flags the bad one where it needs the change, not the twin.

- an `if` for Bash on a group whose matcher fires only for Edit (matcher/if-other-tool);
- a user-scope guard that reaches its script through the project's folder, run in a project
  without it (command/script-missing, worded for a hook every project runs);
- a plugin's guard that reaches its own script through the project's folder instead of
  `${CLAUDE_PLUGIN_ROOT}` (command/plugin-script-through-project).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

GUARD = "#!/bin/sh\necho 'no touching here' >&2\nexit 2\n"
TOUCH = [{"tool": "Bash", "input": {"command": "touch ran.txt"}}]


def _settings(matcher: str, command: str, **handler: str) -> str:
    return json.dumps({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
        {"type": "command", "command": command, **handler}]}]}}, indent=2)


def _guard(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GUARD)
    path.chmod(0o755)


def _line_of(path: Path, key: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if f'"{key}":' in text)


def _findings(home: Path, project: Path, *given: Path) -> list[dict]:
    doctor = hookwright("doctor", "--format", "json", *map(str, given), home=home, project=project)
    return json.loads(doctor.stdout)["findings"]


@pytest.mark.parametrize("matcher, holds", [("Edit", False), ("Bash", True)], ids=["matcher Edit", "matcher Bash"])
def test_an_if_for_a_tool_the_matcher_never_fires_for_never_runs(claude_cli, home, project, matcher, holds):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(_settings(matcher, "echo 'no touching here' >&2; exit 2", **{"if": "Bash(touch *)"}))

    run = run_claude(project, home, TOUCH, claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != holds

    flagged = [(f["path"], f["line"]) for f in _findings(home, project) if f["rule"] == "matcher/if-other-tool"]
    assert flagged == ([] if holds else [(str(settings), _line_of(settings, "if"))])


@pytest.mark.parametrize("command, holds", [
    ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', False),
    ('"$HOME"/.claude/hooks/guard.sh', True),
], ids=["through the project", "beside the user settings"])
def test_a_user_hook_finds_its_script_only_where_it_looks_for_it(claude_cli, home, project, tmp_path, command, holds):
    _guard(home / ".claude" / "hooks" / "guard.sh")
    _guard(tmp_path / "other" / ".claude" / "hooks" / "guard.sh")  # (the one project that has it)
    (home / ".claude" / "settings.json").write_text(_settings("Bash", command))

    run = run_claude(project, home, TOUCH, claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != holds

    missing = [f for f in _findings(home, project) if f["rule"] == "command/script-missing"]
    if holds:
        assert not missing
    else:
        (found,) = missing
        assert found["path"] == str(home / ".claude" / "settings.json") and "not in this project" in found["message"]
        other = _findings(home, tmp_path / "other")
        assert [f["rule"] for f in other if f["rule"].startswith("command/")
                and f["rule"] != "command/sh-without-shell"] == ["command/shared-hook-project-script"]


@pytest.mark.parametrize("variable, holds", [("$CLAUDE_PROJECT_DIR", False), ("${CLAUDE_PLUGIN_ROOT}", True)],
                         ids=["through the project", "through the plugin"])
def test_a_plugin_hook_reaches_its_own_script_only_through_its_root(claude_cli, home, project, tmp_path, variable,
                                                                   holds):
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "guarded", "version": "1.0.0"}))
    _guard(plugin / "hooks" / "guard.sh")
    hooks = plugin / "hooks" / "hooks.json"
    hooks.write_text(_settings("Bash", f'"{variable}"/hooks/guard.sh'))

    run = run_claude(project, home, TOUCH, claude=claude_cli, extra_args=["--plugin-dir", str(plugin)])
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != holds

    flagged = [(f["path"], f["line"]) for f in _findings(home, project, hooks)
               if f["rule"] == "command/plugin-script-through-project"]
    assert flagged == ([] if holds else [(str(hooks), _line_of(hooks, "command"))])


MCP_SERVER = Path(__file__).resolve().parent / "fake_mcp_server.py"


def _mcp_config(server: str, record: Path) -> str:
    return json.dumps({"mcpServers": {server: {"command": sys.executable, "args": [str(MCP_SERVER), str(record)]}}})


@pytest.mark.parametrize("matcher, holds", [("mcp__docs__.*", False), ("mcp__plugin_guarded_docs__.*", True)],
                         ids=["the server's bare name", "the plugin's scoped name"])
def test_a_plugin_mcp_server_is_matched_by_its_scoped_name_only(claude_cli, home, project, tmp_path, matcher, holds):
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "guarded", "version": "1.0.0"}))
    record = tmp_path / "calls.jsonl"
    (plugin / ".mcp.json").write_text(_mcp_config("docs", record))
    hooks = plugin / "hooks" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(_settings(matcher, "echo 'no docs here' >&2; exit 2"))

    run = run_claude(project, home, [{"tool": "mcp__plugin_guarded_docs__read_doc", "input": {"path": "a.txt"}}],
                     claude=claude_cli, extra_args=["--plugin-dir", str(plugin)])
    assert run.returncode == 0, run.stderr
    assert record.exists() != holds  # the server was called: the guard did not fire

    flagged = [(f["path"], f["line"]) for f in _findings(home, project, hooks)
               if f["rule"] == "matcher/plugin-server-bare-name"]
    assert flagged == ([] if holds else [(str(hooks), _line_of(hooks, "matcher"))])


@pytest.mark.parametrize("matcher, holds", [("mcp__docs__.*", False), ("mcp__Docs__.*", True)],
                         ids=["another case", "the server's own case"])
def test_a_matcher_names_an_mcp_server_in_its_own_case_only(claude_cli, home, project, tmp_path, matcher, holds):
    record = tmp_path / "calls.jsonl"
    (project / ".mcp.json").write_text(_mcp_config("Docs", record))
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"enableAllProjectMcpServers": True, "hooks": {"PreToolUse": [{
        "matcher": matcher, "hooks": [{"type": "command", "command": "echo 'no docs here' >&2; exit 2"}]}]}}, indent=2))

    run = run_claude(project, home, [{"tool": "mcp__Docs__read_doc", "input": {"path": "a.txt"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert record.exists() != holds

    flagged = [(f["path"], f["line"]) for f in _findings(home, project) if f["rule"] == "matcher/case-mismatch"]
    assert flagged == ([] if holds else [(str(settings), _line_of(settings, "matcher"))])


@pytest.mark.parametrize("project_value, holds", [(None, False), (False, True)],
                         ids=["the user's true counts", "the project's false wins"])
def test_disable_all_hooks_in_the_user_settings_switches_off_the_projects_guard(claude_cli, home, project,
                                                                                 project_value, holds):
    user = home / ".claude" / "settings.json"
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"model": "sonnet", "disableAllHooks": True}, indent=2))
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    data = json.loads(_settings("Bash", "echo 'no touching here' >&2; exit 2"))
    if project_value is not None:
        data["disableAllHooks"] = project_value
    settings.write_text(json.dumps(data, indent=2))

    run = run_claude(project, home, TOUCH, claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != holds

    flagged = [(f["path"], f["line"]) for f in _findings(home, project) if f["rule"].startswith("structure/hooks-dis")]
    assert flagged == ([] if holds else [(str(user), _line_of(user, "disableAllHooks"))])
    assert all(f["rule"] == "structure/hooks-disabled-elsewhere" for f in _findings(home, project)
               if f["rule"].startswith("structure/hooks-dis"))
