"""Which settings files a session reads from the folder it starts in, and which plugins its settings
leave on, as Claude Code 2.1.332 was measured to (docs/hosts/claude-code.md#config-files,
tests/e2e/test_doctor_scope_semantics_e2e.py): doctor run from that folder names the line to change."""
from __future__ import annotations

import json
from pathlib import Path

from doctor_support import found, settings, write
from hookwright.doctor.run import run

GUARD = "#!/bin/sh\nexit 2\n"
THROUGH_PROJECT = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'
FROM_GIT_ROOT = '"$(git rev-parse --show-toplevel)"/.claude/hooks/guard.sh'


def _repo(project, files):
    (project / ".git").mkdir()
    write(project, {".claude/hooks/guard.sh": GUARD, **files})
    (project / ".claude" / "hooks" / "guard.sh").chmod(0o755)


def _line(path, text):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_the_git_roots_local_guard_reached_through_the_project_dir_is_missing_from_a_subfolder(home, project):
    _repo(project, {".claude/settings.local.json": settings(command=THROUGH_PROJECT), "services/api/main.py": ""})
    outcome = run(None, project=project, start=project / "services" / "api")
    (missing,) = found(outcome, "command/script-missing")
    local = project / ".claude" / "settings.local.json"
    assert (missing.path, missing.line) == (str(local), _line(local, "\"command\":"))
    assert "services/api" in missing.message and "git rev-parse --show-toplevel" in missing.hint


def test_the_git_roots_local_guard_reached_from_the_git_root_runs_from_a_subfolder(home, project):
    _repo(project, {".claude/settings.local.json": settings(command=FROM_GIT_ROOT), "services/api/main.py": ""})
    outcome = run(None, project=project, start=project / "services" / "api")
    assert not found(outcome, "command/script-missing") and not found(outcome, "structure/settings-not-read")


def test_the_git_roots_project_guard_does_not_run_in_a_session_started_in_a_subfolder(home, project):
    _repo(project, {".claude/settings.json": settings(command=FROM_GIT_ROOT),
                    "web/.claude/settings.json": {"permissions": {"allow": ["Bash(npm test)"]}}})
    outcome = run(None, project=project / "web", start=project / "web")
    unread, here = sorted(found(outcome, "structure/settings-not-read"), key=lambda f: f.path)
    root, web = project / ".claude" / "settings.json", project / "web" / ".claude" / "settings.json"
    assert (unread.path, unread.line, unread.severity) == (str(root), _line(root, "\"command\":"), "warning")
    assert "PreToolUse" in unread.message and str(project / "web") in unread.message
    # and the file the hooks are to be copied into, the one the session reads
    assert (here.path, here.line) == (str(web), 1) and str(root) in here.message


def test_a_subfolder_without_settings_of_its_own_is_told_of_the_roots_file_alone(home, project):
    _repo(project, {".claude/settings.json": settings(command=FROM_GIT_ROOT), "web/index.js": ""})
    outcome = run(None, project=project / "web", start=project / "web")
    (unread,) = found(outcome, "structure/settings-not-read")
    assert unread.path == str(project / ".claude" / "settings.json")


def test_a_subfolder_that_holds_the_guard_too_is_not_told_the_roots_copy_is_unread(home, project):
    _repo(project, {".claude/settings.json": settings(command=FROM_GIT_ROOT),
                    "web/.claude/settings.json": settings(command='"$CLAUDE_PROJECT_DIR"/../.claude/hooks/guard.sh')})
    outcome = run(None, project=project / "web", start=project / "web")
    assert not found(outcome, "structure/settings-not-read")


def test_a_packages_own_guard_does_not_run_in_a_session_started_at_the_root(home, project):
    _repo(project, {".claude/settings.json": settings(event="PostToolUse", command="echo formatted"),
                    "packages/billing/.claude/settings.json": settings(matcher="Edit|Write", command="node money.js")})
    outcome = run(None, project=project, start=project)
    (unread,) = found(outcome, "structure/settings-not-read")
    package = project / "packages" / "billing" / ".claude" / "settings.json"
    assert (unread.path, unread.line) == (str(package), _line(package, "\"command\":"))
    assert "above this folder" in unread.message and "packages/billing" in unread.hint


CODEX_GUARD = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": 'bash "$(git rev-parse --show-toplevel)/services/pay/.codex/guard.sh"'}]}]}}


def test_a_services_codex_guard_does_not_run_in_a_codex_session_started_at_the_root(home, project, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    _repo(project, {"services/pay/.codex/hooks.json": CODEX_GUARD, "services/pay/.codex/guard.sh": GUARD})
    (unread,) = found(run(None, project=project, start=project), "structure/settings-not-read")
    below = project / "services" / "pay" / ".codex" / "hooks.json"
    assert (unread.path, unread.line) == (str(below), _line(below, "\"command\":"))
    assert "Codex" in unread.message and str(project / "services" / "pay") in unread.hint


def test_a_codex_guard_below_is_read_by_a_session_started_there_or_held_at_the_root_too(home, project, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    _repo(project, {"services/pay/.codex/hooks.json": CODEX_GUARD, "services/pay/.codex/guard.sh": GUARD})
    pay = project / "services" / "pay"
    assert not found(run(None, project=project, start=pay), "structure/settings-not-read")
    write(project, {".codex/hooks.json": CODEX_GUARD})  # (the root's copy runs in every session)
    assert not found(run(None, project=project, start=project), "structure/settings-not-read")


def test_a_user_settings_local_file_is_never_read(home, project):
    write(home, {".claude/settings.local.json": settings(command="~/.claude/hooks/rm-guard.sh")})
    (unread,) = found(run(None, project=project, start=project), "structure/settings-not-read")
    assert unread.path == str(home / ".claude" / "settings.local.json") and "never runs" in unread.message


def test_the_same_hook_in_the_user_settings_is_read(home, project):
    write(home, {".claude/settings.json": settings(command="echo guard")})
    assert not found(run(None, project=project, start=project), "structure/settings-not-read")


def _installed_plugin(home, plugin_id="guard@team"):
    root = home / ".claude" / "plugins" / "cache" / "team" / "guard" / "1.0.0"
    write(root, {".claude-plugin/plugin.json": {"name": "guard"}, "hooks/hooks.json": settings(command="echo no")})
    write(home, {".claude/plugins/installed_plugins.json": {"version": 2, "plugins": {plugin_id: [
        {"scope": "user", "installPath": str(root), "version": "1.0.0"}]}}})
    return root


def test_a_local_false_switches_off_a_plugin_the_user_enabled(home, project):
    _installed_plugin(home)
    write(home, {".claude/settings.json": {"enabledPlugins": {"guard@team": True}}})
    write(project, {".claude/settings.local.json": {"permissions": {}, "enabledPlugins": {"guard@team": False}}})
    (off,) = found(run(None, project=project), "structure/plugin-switched-off")
    local = project / ".claude" / "settings.local.json"
    assert (off.path, off.line) == (str(local), _line(local, '"guard@team"'))
    assert "guard@team" in off.message and off.related[0]["path"] == str(home / ".claude" / "settings.json")


def test_a_plugin_enabled_in_both_files_stays_on(home, project):
    _installed_plugin(home)
    write(home, {".claude/settings.json": {"enabledPlugins": {"guard@team": True}}})
    write(project, {".claude/settings.local.json": {"enabledPlugins": {"guard@team": True}}})
    assert not found(run(None, project=project), "structure/plugin-switched-off")


def test_a_false_for_a_plugin_without_hooks_says_nothing(home, project):
    write(home, {".claude/settings.json": {"enabledPlugins": {"guard@team": True}}})
    write(project, {".claude/settings.json": json.loads('{"enabledPlugins": {"guard@team": false}}')})
    assert not found(run(None, project=project), "structure/plugin-switched-off")


def _directory_marketplace(home, source: str = "./plugins/guard"):
    """guard@team installed from a `directory` marketplace: its cache copy, and its source folder."""
    cache = _installed_plugin(home)
    folder = home / "src" / "team"
    write(folder, {".claude-plugin/marketplace.json": {"name": "team", "owner": {"name": "t"},
                                                       "plugins": [{"name": "guard", "source": source}]},
                   "plugins/guard/.claude-plugin/plugin.json": {"name": "guard"},
                   "plugins/guard/hooks/hooks.json": settings(command='"$CLAUDE_PROJECT_DIR"/hooks/guard.sh')})
    write(home, {".claude/plugins/known_marketplaces.json": {"team": {
        "source": {"source": "directory", "path": str(folder)}, "installLocation": str(folder)}},
        ".claude/settings.json": {"enabledPlugins": {"guard@team": True}}})
    return cache, folder / "plugins" / "guard"


def test_a_directory_marketplaces_plugin_is_read_from_its_source_folder_where_it_runs(home, project):
    cache, source = _directory_marketplace(home)
    outcome = run(None, project=project)
    paths = {Path(f.path) for f in outcome.findings} | {f.path for f in outcome.files}
    assert source / "hooks" / "hooks.json" in paths and cache / "hooks" / "hooks.json" not in paths
    (missing,) = found(outcome, "command/script-missing")
    assert Path(missing.path) == source / "hooks" / "hooks.json"


def test_a_directory_marketplace_whose_source_is_gone_falls_back_to_the_installed_copy(home, project):
    cache, source = _directory_marketplace(home, source="./plugins/elsewhere")
    outcome = run(None, project=project)
    assert cache / "hooks" / "hooks.json" in {f.path for f in outcome.files}


def test_a_subfolders_own_settings_are_pointed_at_only_for_a_guard_of_the_root(home, project):
    _repo(project, {".claude/settings.json": settings(event="PostToolUse", matcher="Edit", command="echo formatted"),
                    "web/.claude/settings.json": {"permissions": {"allow": ["Bash(npm test)"]}}})
    outcome = run(None, project=project / "web", start=project / "web")
    (unread,) = found(outcome, "structure/settings-not-read")  # (the formatter alone: no guard lost)
    assert unread.path == str(project / ".claude" / "settings.json")


SKILL_GUARD = """---
name: release
description: Cut a release
hooks:
  {event}:
    - matcher: Bash
      hooks:
        - type: command
          command: bash "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.sh"
---

# Release
"""


def test_a_guard_written_only_in_a_skills_frontmatter_is_a_warning_at_its_hooks_line(home, project):
    write(project, {".claude/skills/release/SKILL.md": SKILL_GUARD.format(event="PreToolUse"),
                    ".claude/settings.json": {"permissions": {"allow": ["Bash(pytest:*)"]}}})

    (finding,) = found(run(None, project=project), "structure/guard-only-in-skill")

    assert (finding.path, finding.line, finding.severity) == (str(project / ".claude/skills/release/SKILL.md"), 4, "warning")
    assert "skill release" in finding.message and "PreToolUse" in finding.message and "guard.sh" in finding.message


def test_a_skill_guard_a_settings_file_registers_too_or_a_skill_hook_that_guards_nothing_is_not_reported(home, project):
    write(project, {".claude/skills/release/SKILL.md": SKILL_GUARD.format(event="PreToolUse"),
                    ".claude/skills/notes/SKILL.md": SKILL_GUARD.format(event="PostToolUse").replace("guard.sh", "log.sh"),
                    ".claude/skills/plain/SKILL.md": "---\nname: plain\ndescription: no hooks\n---\nhooks: in the text\n",
                    ".claude/settings.json": settings(command="./.claude/hooks/guard.sh")})

    assert not found(run(None, project=project), "structure/guard-only-in-skill")


def test_a_users_skill_guard_is_reported_in_the_users_skill(home, project):
    write(home, {".claude/skills/ship/SKILL.md": SKILL_GUARD.format(event="PermissionRequest")})
    write(project, {".claude/settings.json": {}})

    (finding,) = found(run(None, project=project), "structure/guard-only-in-skill")

    assert finding.path == str(home / ".claude/skills/ship/SKILL.md") and "PermissionRequest" in finding.message


def test_the_frontmatter_reader_takes_the_block_form_and_nothing_outside_the_top_level_hooks_key():
    from hookwright.hosts.claude.adapter import frontmatter_hooks

    assert frontmatter_hooks(b'---\nname: x\nhooks:\n  "PreToolUse":\n  - matcher: Bash\n    hooks:\n    - type: command\n'
                             b'      command: "./g.sh --strict"\n  Stop:\n    - hooks:\n        - command: y\n---\n') == \
        (3, (("PreToolUse", ("./g.sh --strict",)), ("Stop", ("y",))))
    assert frontmatter_hooks(b"---\nname: x\nmetadata:\n  hooks:\n    PreToolUse: []\n---\n") is None
    assert frontmatter_hooks(b"---\nname: x\n---\nhooks:\n  PreToolUse:\n") is None
    assert frontmatter_hooks(b"# hooks: none here\n") is None


def test_a_settings_file_linked_to_a_shared_folder_is_read_and_a_link_to_nothing_names_its_target(home, project,
                                                                                                  tmp_path):
    shared = tmp_path / "shared"
    write(shared, {"settings.json": settings(command="./guard.sh")})
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").symlink_to("../../shared/settings.json")
    assert len(run(None, project=project).handlers) == 1

    (shared / "settings.json").unlink()
    (finding,) = found(run(None, project=project), "structure/unreadable")
    assert "links to ../../shared/settings.json, which does not exist" in finding.message
    assert finding.hint == "restore the file it links to, or replace the link with the file"


def test_the_given_files_real_paths_are_their_symlinks_followed(tmp_path):
    """The claude adapter asks each folder on the way to the files it is given whether it is a
    link once (hooks.model.real_path): every path comes out as hooks.model.resolved makes it, through
    linked folders and files, a loop, a `..`, a root written `//` and a relative path."""
    import os

    from hookwright.hooks.model import real_path, resolved

    (tmp_path / "real" / ".claude").mkdir(parents=True)
    (tmp_path / "real" / ".claude" / "settings.json").write_text("{}")
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    (tmp_path / "real" / ".claude" / "settings.local.json").symlink_to("settings.json")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    paths = [tmp_path / "real" / ".claude" / "settings.json", tmp_path / "linked" / ".claude" / "settings.json",
             tmp_path / "real" / ".claude" / "settings.local.json", tmp_path / "loop" / ".claude" / "settings.json",
             tmp_path / "real" / ".claude" / ".." / ".claude" / "settings.json", tmp_path / "missing" / "settings.json",
             Path("//" + str(tmp_path).lstrip("/")) / "real" / ".claude" / "settings.json",
             Path(os.path.relpath(tmp_path / "real" / ".claude" / "settings.json"))]
    folders: dict[str, str] = {}
    for path in paths + paths:
        assert real_path(str(path), folders) == str(resolved(path)), path
