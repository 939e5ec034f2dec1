"""Which settings files Claude Code reads from the folder it is started in, and which plugins its
settings leave on, each bad case beside its corrected twin in one session on the real Claude Code:
every hook logs its name when it runs; doctor, run in the same folder, flags the bad ones where
they need the change and leaves the twins alone (docs/hosts/claude-code.md#sessions-started-in-a-subfolder).

Started in a subfolder of a git repository (`web`, with settings of its own):
- the git root's project settings are not read (structure/settings-not-read, at the hook and at
  the subfolder's own settings, where it is to be copied), a hook the subfolder's own settings
  hold too runs;
- the git root's local settings are read, with `$CLAUDE_PROJECT_DIR` the subfolder: a script named
  through it is missing (command/script-missing), one named from the git root runs;
- a user-scope settings.local.json is never read (structure/settings-not-read), settings.json is.
Started at the root:
- a package's settings are not read (structure/settings-not-read);
- a plugin the user enabled and the project's local settings switch off does not run
  (structure/plugin-switched-off); one enabled in both does, from the `directory` marketplace's
  source folder, not from the cache copy installed_plugins.json names.
Conditions and rewrites, in one session:
- `"if": "Bash(npm run db:*)"` never runs its guard on `npm run db:reset` (the legacy prefix form:
  matcher/if-legacy-prefix); `"if": "Bash(npm run db*)"` does;
- an Edit rewrite written from file_path, old_string and new_string loses the call's
  `replace_all` (script/rewrite-drops-fields); one that starts from the call's input keeps it.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from claude_cli import doctor_flags, line_of, run_claude

pytestmark = pytest.mark.e2e

CALL = [{"tool": "Bash", "input": {"command": "true"}}]


def _hook(command: str) -> dict:
    return {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}


def _write(path: Path, data: dict | str, executable: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=2))
    if executable:
        path.chmod(0o755)
    return path


def _logger(log: Path, name: str) -> str:
    return f"echo {name} >> {log}"




def test_a_session_started_in_a_subfolder_reads_its_own_and_the_roots_local_settings_only(claude_cli, home,
                                                                                         tmp_path):
    log, repo = tmp_path / "ran.log", tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    web = repo / "web"
    _write(repo / ".claude" / "hooks" / "mark.sh", f"#!/bin/sh\necho root-local-script >> {log}\n", executable=True)
    root = _write(repo / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": _logger(log, "root-project")}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": _logger(log, "copied")}]}]}})
    local = _write(repo / ".claude" / "settings.local.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/mark.sh'}]},
        {"matcher": "Bash", "hooks": [{"type": "command",
                                       "command": '"$(git rev-parse --show-toplevel)"/.claude/hooks/mark.sh'}]}]}})
    own = _write(web / ".claude" / "settings.json", _hook(_logger(log, "copied")))
    user_local = _write(home / ".claude" / "settings.local.json", _hook(_logger(log, "user-local")))
    _write(home / ".claude" / "settings.json", _hook(_logger(log, "user")))

    run = run_claude(web, home, CALL, claude=claude_cli)
    assert run.returncode == 0, run.stderr
    ran = log.read_text().split()
    assert sorted(ran) == ["copied", "root-local-script", "user"]  # (the root's copy of "copied" did not run)

    flagged = doctor_flags(home, web, {"structure/settings-not-read", "command/script-missing"})
    assert flagged == {(str(root), line_of(root, "root-project")), (str(user_local), line_of(user_local, "user-local")),
                       (str(local), line_of(local, "CLAUDE_PROJECT_DIR")), (str(own), line_of(own, "\"hooks\""))}


def _installed(home: Path, plugin: str, log: Path) -> dict:
    """A plugin of the marketplace `team`, installed from a folder: its copy in the cache, whose
    hook logs `<name>-cache` (the marketplace's source folder, which runs, logs the name alone)."""
    cache = home / ".claude" / "plugins" / "cache" / "team" / plugin / "1.0.0"
    _write(cache / ".claude-plugin" / "plugin.json", {"name": plugin, "version": "1.0.0"})
    _write(cache / "hooks" / "hooks.json", _hook(_logger(log, plugin + "-cache")))
    return {"scope": "user", "installPath": str(cache), "version": "1.0.0",
            "installedAt": "2026-12-01T00:00:00.000Z", "lastUpdated": "2026-12-01T00:00:00.000Z"}


def test_a_session_started_at_the_root_reads_no_packages_settings_and_no_plugin_a_higher_file_switches_off(
        claude_cli, home, tmp_path):
    log, repo = tmp_path / "ran.log", tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    market = home / "src" / "team"
    _write(market / ".claude-plugin" / "marketplace.json", {"name": "team", "owner": {"name": "team"}, "plugins": [
        {"name": name, "source": f"./plugins/{name}", "version": "1.0.0"} for name in ("offguard", "onguard")]})
    for name in ("offguard", "onguard"):
        _write(market / "plugins" / name / ".claude-plugin" / "plugin.json", {"name": name, "version": "1.0.0"})
        _write(market / "plugins" / name / "hooks" / "hooks.json", _hook(_logger(log, name)))
    source = {"source": "directory", "path": str(market)}
    _write(home / ".claude" / "plugins" / "installed_plugins.json", {"version": 2, "plugins": {
        f"{name}@team": [_installed(home, name, log)] for name in ("offguard", "onguard")}})
    _write(home / ".claude" / "plugins" / "known_marketplaces.json", {"team": {
        "source": source, "installLocation": str(market), "lastUpdated": "2026-12-01T00:00:00.000Z"}})
    _write(home / ".claude" / "settings.json", {"enabledPlugins": {"offguard@team": True, "onguard@team": True},
                                                "extraKnownMarketplaces": {"team": {"source": source}}})
    local = _write(repo / ".claude" / "settings.local.json", {"enabledPlugins": {"offguard@team": False,
                                                                                 "onguard@team": True}})
    _write(repo / ".claude" / "settings.json", _hook(_logger(log, "root-project")))
    package = _write(repo / "packages" / "billing" / ".claude" / "settings.json", _hook(_logger(log, "package")))

    run = run_claude(repo, home, CALL, claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert sorted(log.read_text().split()) == ["onguard", "root-project"]

    flagged = doctor_flags(home, repo, {"structure/settings-not-read", "structure/plugin-switched-off"})
    assert flagged == {(str(package), line_of(package, "package")), (str(local), line_of(local, "offguard"))}


DB_GUARD = "grep -q 'npm run db:{target}' && {{ echo 'ask first' >&2; exit 2; }}\nexit 0\n"
REWRITER = """\
import json, sys
call = json.load(sys.stdin)
given = call["tool_input"]
answer = {"hookEventName": "PreToolUse", "permissionDecision": "allow"}
if given["file_path"].endswith("kept.txt"):
    answer["updatedInput"] = {**given, "new_string": "z"}
else:
    answer["updatedInput"] = {"file_path": given["file_path"], "old_string": given["old_string"], "new_string": "z"}
print(json.dumps({"hookSpecificOutput": answer}))
"""


def test_a_legacy_prefix_if_never_runs_its_guard_and_a_subset_rewrite_loses_replace_all(claude_cli, home, project):
    _write(project / "package.json", {"name": "p", "version": "1.0.0", "scripts": {
        "db:reset": "touch reset.txt", "db:drop": "touch drop.txt"}})
    hooks = project / ".claude" / "hooks"
    for target in ("reset", "drop"):
        _write(hooks / f"{target}.sh", DB_GUARD.format(target=target))
    rewriter = _write(hooks / "rewrite.py", REWRITER)
    settings = _write(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [
            {"type": "command", "if": "Bash(npm run db:*)", "command": f"sh {hooks / 'reset.sh'}"},
            {"type": "command", "if": "Bash(npm run db*)", "command": f"sh {hooks / 'drop.sh'}"}]},
        {"matcher": "Edit", "hooks": [{"type": "command", "command": f"python3 {rewriter}"}]}]}})
    for name in ("lost.txt", "kept.txt"):
        (project / name).write_text("x x\n")
    edits = [call for name in ("lost.txt", "kept.txt") for call in (
        {"tool": "Read", "input": {"file_path": str(project / name)}},
        {"tool": "Edit", "input": {"file_path": str(project / name), "old_string": "x", "new_string": "y",
                                   "replace_all": True}})]
    calls = [{"tool": "Bash", "input": {"command": f"npm run db:{target}"}} for target in ("reset", "drop")]

    run = run_claude(project, home, calls + edits, claude=claude_cli, timeout=240)
    assert run.returncode == 0, run.stderr
    assert (project / "reset.txt").exists() and not (project / "drop.txt").exists()
    assert (project / "lost.txt").read_text() == "x x\n"  # replace_all fell back to false: two matches, refused
    assert (project / "kept.txt").read_text() == "z z\n"

    flagged = doctor_flags(home, project, {"matcher/if-legacy-prefix", "script/rewrite-drops-fields"})
    assert flagged == {(str(settings), line_of(settings, "npm run db:*")), (str(rewriter), line_of(rewriter, '"old_string": given'))}
