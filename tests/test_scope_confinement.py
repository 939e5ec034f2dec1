"""Writes stay where the scope says (installer/confine.py): a link a repository committed never takes
install, uninstall or rollback out of the scope's folder or onto another scope's file, and nothing
is ever deleted through a link."""
from __future__ import annotations

import os

import pytest
from support import GIT_GUARD_COMMAND, commands, read_json, write_json


def project_args(project):
    return ("--scope", "project", "--project", project)


def snapshot(folder):
    return {str(p): (p.read_bytes() if p.is_file() and not p.is_symlink() else os.readlink(p) if p.is_symlink()
                     else None) for p in sorted(folder.rglob("*"))}


def test_a_project_settings_file_linked_to_the_users_is_refused_naming_both_and_the_users_stays_as_it_was(
        hookwright, home, project):
    user = home / ".claude" / "settings.json"
    before = write_json(user, {"model": "opus"})
    link = project / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(os.path.relpath(user, link.parent))

    planned = hookwright("install", "git-guard", *project_args(project), "--dry-run")
    ran = hookwright("install", "git-guard", *project_args(project), "--yes")

    for refused in (planned, ran):
        assert refused.code == 3, refused.err
        assert str(link) in refused.err and str(user) in refused.err and "--allow-outside-scope" in refused.err
    assert user.read_bytes() == before
    assert not (project / ".claude" / "hookwright").exists() and not (home / ".claude" / "hookwright").exists()


@pytest.mark.parametrize("folder", [".claude", ".cursor", ".opencode"])
def test_a_scope_folder_linked_out_of_the_project_gets_nothing_written(hookwright, home, project, tmp_path, folder):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / folder).symlink_to(elsewhere)
    host = {".claude": "claude", ".cursor": "cursor", ".opencode": "opencode"}[folder]

    ran = hookwright("install", "git-guard", "--host", host, *project_args(project), "--yes")

    assert ran.code == 3, ran.err
    assert str(elsewhere) in ran.err and list(elsewhere.iterdir()) == []


def test_a_pack_folder_linked_out_of_the_project_is_never_deleted_through_even_with_the_flag(hookwright, home, project,
                                                                                            tmp_path):
    hookwright("install", "git-guard", *project_args(project), "--yes")
    folder = project / ".claude" / "hookwright" / "git-guard"
    elsewhere = tmp_path / "elsewhere"
    folder.rename(elsewhere)
    folder.symlink_to(elsewhere)
    before = snapshot(elsewhere)

    plain = hookwright("uninstall", "git-guard", *project_args(project), "--yes")
    flagged = hookwright("uninstall", "git-guard", *project_args(project), "--yes", "--allow-outside-scope")
    rolled = hookwright("rollback", "--yes", "--project", project)

    for refused in (plain, flagged, rolled):
        assert refused.code == 3, refused.err
        assert "through the link" in refused.err and str(elsewhere) in refused.err
    assert snapshot(elsewhere) == before


def test_a_runtime_file_linked_to_the_settings_file_is_refused_as_one_file_with_two_roles(hookwright, home, project):
    """A repair would write the shipped module over the settings, flag or not."""
    settings = project / ".claude" / "settings.json"
    hookwright("install", "git-guard", *project_args(project), "--yes")
    module = project / ".claude" / "hookwright" / "git-guard" / "git_guard.py"
    module.unlink()
    module.symlink_to("../../settings.json")
    before = settings.read_bytes()

    ran = hookwright("install", "git-guard", *project_args(project), "--yes", "--allow-outside-scope")

    assert ran.code == 3 and "are one file" in ran.err, ran.err
    assert settings.read_bytes() == before


def test_a_local_settings_file_linked_to_the_project_settings_lands_on_another_scopes_file(hookwright, home, project):
    project_settings = write_json(project / ".claude" / "settings.json", {"a": 1})
    (project / ".claude" / "settings.local.json").symlink_to("settings.json")

    ran = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--yes")

    assert ran.code == 3 and "the project scope's config" in ran.err, ran.err
    assert (project / ".claude" / "settings.json").read_bytes() == project_settings


def test_a_link_that_stays_inside_the_scopes_folder_is_written_through(hookwright, home, project):
    real = project / ".claude" / "team" / "settings.json"
    write_json(real, {})
    (project / ".claude" / "settings.json").symlink_to("team/settings.json")

    ran = hookwright("install", "git-guard", *project_args(project), "--yes")

    assert ran.code == 0, ran.err
    assert commands(read_json(real)) == [GIT_GUARD_COMMAND]
