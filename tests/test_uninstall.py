import json

import pytest
from support import GIT_GUARD_COMMAND, read_json, write_json

FOREIGN = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./theirs.sh"}]}


def scope(project):
    return ("--scope", "project", "--project", project, "--yes")


def test_uninstall_removes_our_entry_and_runtimes_and_nothing_else(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    original = write_json(settings, {"hooks": {"PreToolUse": [FOREIGN]}, "env": {"A": "1"}})
    hookwright("install", "git-guard", *scope(project))

    ran = hookwright("uninstall", "git-guard", *scope(project))

    assert ran.code == 0, ran.err
    assert settings.read_bytes() == original
    assert not (project / ".claude" / "hookwright").exists()


def test_containers_we_emptied_go_and_ones_that_were_empty_before_stay(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"hooks": {"PreToolUse": []}})
    hookwright("install", "git-guard", *scope(project))
    assert read_json(settings)["hooks"]["PreToolUse"]

    hookwright("uninstall", "git-guard", *scope(project))

    assert read_json(settings) == {"hooks": {"PreToolUse": []}}

    write_json(settings, {"other": 1})
    hookwright("install", "git-guard", *scope(project))
    hookwright("uninstall", "git-guard", *scope(project))

    assert read_json(settings) == {"other": 1}



@pytest.mark.parametrize("text", ['{\n  "hooks": {\n    "PreToolUse": [\n    ]\n  }\n}\n',
                                  '{"hooks": { }}', '{ "hooks" : { "PreToolUse": [ ] } , "x": 1 }\n'])
def test_install_then_uninstall_or_rollback_gives_back_the_very_bytes(hookwright, home, project, text):
    """The blanks inside a list or object we filled and emptied again come back too: nothing
    wrote the file between, so undoing our write is the backup's bytes."""
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(text)
    for undo in (("uninstall", "git-guard", *scope(project)), ("rollback", "--project", project, "--yes")):
        hookwright("install", "git-guard", *scope(project))
        assert settings.read_text() != text
        assert hookwright(*undo).code == 0
        assert settings.read_text() == text, undo


def test_an_edit_after_install_is_kept_by_uninstall_and_rollback(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"hooks": {"PreToolUse": [ ]}}')
    for undo in (("uninstall", "git-guard", *scope(project)), ("rollback", "--project", project, "--yes")):
        hookwright("install", "git-guard", *scope(project))
        settings.write_text(settings.read_text().replace('{"hooks"', '{"model": "opus", "hooks"', 1))
        assert hookwright(*undo).code == 0
        assert read_json(settings) == {"model": "opus", "hooks": {"PreToolUse": []}}, undo
        settings.write_text('{"hooks": {"PreToolUse": [ ]}}')


def test_rolling_back_an_uninstall_puts_the_entry_back_where_it_was(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"hooks": {"PreToolUse": [FOREIGN]}})
    hookwright("install", "git-guard", *scope(project))
    hookwright("install", "path-normalizer", *scope(project))
    before = settings.read_bytes()
    hookwright("uninstall", "git-guard", *scope(project))
    hookwright("rollback", "--project", project, "--yes")
    assert settings.read_bytes() == before

def test_a_lost_receipt_does_not_stop_uninstall_our_entries_are_known_by_their_command(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"hooks": {"PreToolUse": [FOREIGN]}})
    hookwright("install", "git-guard", *scope(project))
    (project / ".claude/hookwright/git-guard/receipt.json").unlink()

    ran = hookwright("uninstall", "git-guard", *scope(project))

    assert ran.code == 0, ran.err
    assert read_json(settings) == {"hooks": {"PreToolUse": [FOREIGN]}}
    assert not (project / ".claude/hookwright").exists()


def test_our_handler_moved_into_a_foreign_group_is_taken_out_alone(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"hooks": {"PreToolUse": [FOREIGN]}})
    hookwright("install", "git-guard", *scope(project))
    data = read_json(settings)
    ours = data["hooks"]["PreToolUse"].pop()
    data["hooks"]["PreToolUse"][0]["hooks"].extend(ours["hooks"])
    write_json(settings, data)

    hookwright("uninstall", "git-guard", *scope(project))

    assert read_json(settings) == {"hooks": {"PreToolUse": [FOREIGN]}}


def test_a_runtime_file_changed_since_install_is_kept_and_reported(hookwright, home, project):
    hookwright("install", "git-guard", *scope(project))
    script = project / ".claude/hookwright/git-guard/git-guard"
    script.write_text("# my local patch\n")

    ran = hookwright("uninstall", "git-guard", *scope(project), "--json")

    assert ran.code == 0
    assert script.read_text() == "# my local patch\n"
    assert "changed since install" in " ".join(ran.json["plans"][0]["packs"][0]["notes"])
    assert not (project / ".claude" / "settings.json").exists()  # install created it; empty again, it goes


def test_uninstall_without_pack_names_removes_every_pack_installed_there(hookwright, home, project):
    hookwright("install", "git-guard", *scope(project))

    ran = hookwright("uninstall", *scope(project), "--json")

    assert ran.code == 0
    assert [p["pack"] for p in ran.json["plans"][0]["packs"]] == ["git-guard"]
    assert not (project / ".claude").exists()


def test_uninstalling_a_pack_that_is_not_there_changes_nothing(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    original = write_json(settings, {"hooks": {"PreToolUse": [FOREIGN]}})

    ran = hookwright("uninstall", "git-guard", *scope(project), "--json")

    assert ran.code == 0 and ran.json["status"] == "unchanged"
    assert settings.read_bytes() == original


def test_uninstall_is_journaled_with_the_entries_it_removed(hookwright, home, project):
    hookwright("install", "git-guard", *scope(project))
    hookwright("uninstall", "git-guard", *scope(project))

    listing = hookwright("rollback", "--list", "--json").json["journal"]

    assert [op["kind"] for op in listing] == ["install", "uninstall"]
    assert [e["handler"]["command"] for e in listing[1]["removed"]] == [GIT_GUARD_COMMAND] * 2  # (Bash, skill lines)
    backup = home / ".local/state/hookwright/backups" / listing[1]["backup"]
    assert json.loads((backup / "config").read_bytes())["hooks"]


def test_uninstalling_where_there_is_no_settings_file_creates_none(hookwright, home, project):
    ran = hookwright("uninstall", "git-guard", *scope(project), "--json")

    assert ran.code == 0 and ran.json["status"] == "unchanged"
    assert not (project / ".claude").exists()


# ---- the folders an install made go with it, the ones that were there stay --------------------

def _tree(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_the_last_uninstall_takes_away_the_folders_the_installs_made_in_any_order(hookwright, home, project):
    for first, second in (("project", "local"), ("local", "project")):
        for where in ("project", "local"):
            assert hookwright("install", "git-guard", "--scope", where, "--project", project, "--yes").code == 0
        assert (project / ".claude" / "settings.json").is_file() and (project / ".claude" / "settings.local.json").is_file()
        for where in (first, second):
            ran = hookwright("uninstall", "git-guard", "--scope", where, "--project", project, "--yes")
            assert ran.code == 0, ran.err
        assert _tree(project) == [], (first, second, _tree(project))


def test_two_opencode_plugins_installed_together_leave_no_folder_behind(hookwright, home, project):
    where = ("--host", "opencode", "--scope", "project", "--project", project, "--yes")
    assert hookwright("install", "git-guard", "path-normalizer", *where).code == 0
    assert {"hookwright-git-guard.js", "hookwright-path-normalizer.js"} <= set(
        p.name for p in (project / ".opencode" / "plugins").iterdir())

    assert hookwright("uninstall", "git-guard", *where).code == 0
    assert (project / ".opencode" / "plugins" / "hookwright-path-normalizer.js").is_file()
    assert hookwright("uninstall", "path-normalizer", *where).code == 0
    assert _tree(project) == []


def test_a_folder_that_was_there_before_the_install_stays_after_the_uninstall(hookwright, home, project):
    (project / ".opencode").mkdir()
    (project / ".claude").mkdir()
    for host in ("opencode", "claude"):
        where = ("--host", host, "--scope", "project", "--project", project, "--yes")
        assert hookwright("install", "git-guard", *where).code == 0
        assert hookwright("uninstall", "git-guard", *where).code == 0
    assert _tree(project) == [".claude", ".opencode"]


def test_rollback_of_the_first_install_takes_away_the_folders_it_made(hookwright, home, project):
    for host, folder in (("cursor", ".cursor"), ("opencode", ".opencode"), ("claude", ".claude")):
        assert hookwright("install", "git-guard", "--host", host, "--scope", "project", "--project", project,
                          "--yes").code == 0
        assert (project / folder).is_dir()
        ran = hookwright("rollback", "--host", host, "--project", project, "--yes")
        assert ran.code == 0, ran.err
        assert _tree(project) == [], (host, _tree(project))


def test_uninstall_of_an_entry_the_user_edited_shows_the_edit_and_needs_force(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"env": {"A": "1"}})
    hookwright("install", "git-guard", *scope(project))
    data = read_json(settings)
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 99
    edited = write_json(settings, data)

    refused = hookwright("uninstall", "git-guard", *scope(project))

    assert refused.code == 3 and settings.read_bytes() == edited
    assert "changed since hookwright wrote it" in refused.err and '"timeout": 99' in refused.err
    assert "--force" in refused.err

    forced = hookwright("uninstall", "git-guard", *scope(project), "--force")

    assert forced.code == 0 and read_json(settings) == {"env": {"A": "1"}}
