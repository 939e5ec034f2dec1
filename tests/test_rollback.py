import json

import pytest
from support import GIT_GUARD_COMMAND, commands, read_json, write_json


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch, project):
    """Each command runs where a user would run it: in the project (rollback undoes its operations)."""
    monkeypatch.chdir(project)


def scope(project):
    return ("--scope", "project", "--project", project, "--yes")


def test_rollback_of_an_install_keeps_a_foreign_edit_made_since(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"permissions": {"allow": ["Read"]}})
    hookwright("install", "git-guard", *scope(project))
    data = read_json(settings)
    data["permissions"]["allow"].append("Bash(npm test)")  # as Claude Code saves an approval
    write_json(settings, data)

    ran = hookwright("rollback", "--yes")

    assert ran.code == 0, ran.err
    assert read_json(settings) == {"permissions": {"allow": ["Read", "Bash(npm test)"]}}
    assert not (project / ".claude" / "hookwright").exists()


def test_rollback_of_an_uninstall_puts_the_entry_and_its_runtime_back(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    hookwright("install", "git-guard", *scope(project))
    installed = settings.read_bytes()
    script = (project / ".claude/hookwright/git-guard/git-guard").read_bytes()
    hookwright("uninstall", "git-guard", *scope(project))

    ran = hookwright("rollback", "--yes")

    assert ran.code == 0, ran.err
    assert settings.read_bytes() == installed
    assert (project / ".claude/hookwright/git-guard/git-guard").read_bytes() == script
    assert (project / ".claude/hookwright/git-guard/receipt.json").is_file()


def test_rollback_refuses_when_our_entry_was_changed_since_and_force_restores_the_backup(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    original = write_json(settings, {"a": 1})
    hookwright("install", "git-guard", *scope(project))
    data = read_json(settings)
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 99
    edited = write_json(settings, data)

    refused = hookwright("rollback", "--yes")

    assert refused.code == 3
    assert "changed since" in refused.err and '"timeout": 99' in refused.err
    assert settings.read_bytes() == edited

    forced = hookwright("rollback", "--force", "--yes")

    assert forced.code == 0, forced.err
    assert settings.read_bytes() == original


def test_rollback_to_an_operation_undoes_it_and_everything_after(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    original = write_json(settings, {"a": 1})
    hookwright("install", "git-guard", *scope(project))
    hookwright("uninstall", "git-guard", *scope(project))
    hookwright("install", "git-guard", *scope(project), "--option", "deny_push=true")
    first = hookwright("rollback", "--list", "--json").json["journal"][0]["id"]

    ran = hookwright("rollback", "--to", first, "--yes")

    assert ran.code == 0, ran.err
    assert read_json(settings) == {"a": 1}
    assert settings.read_bytes() == original
    journal = hookwright("rollback", "--list", "--json").json["journal"]
    assert [op["undone"] for op in journal[:3]] == [True, True, True]


def test_rollback_with_nothing_to_undo_is_nothing_to_do(hookwright, home):
    ran = hookwright("rollback", "--yes")

    assert ran.code == 0 and ran.out.startswith("nothing to do: no operation to roll back for ")


def test_rollback_dry_run_shows_the_plan_and_writes_nothing(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    hookwright("install", "git-guard", *scope(project))
    installed = settings.read_bytes()

    ran = hookwright("rollback", "--dry-run", "--json")

    assert ran.code == 0 and ran.json["status"] == "dry-run"
    # (git-guard guards a Bash call and a skill's shell line: one entry on each event)
    assert [(e["event"], e["handler"]["command"]) for e in ran.json["plans"][0]["removed"]] == [
        ("PreToolUse", GIT_GUARD_COMMAND), ("PreSkillShellCommand", GIT_GUARD_COMMAND)]
    assert settings.read_bytes() == installed
    assert commands(read_json(settings)) == [GIT_GUARD_COMMAND]


def test_rollback_undoes_one_install_of_several_opencode_plugins_whole(hookwright, home, project):
    where = ("--host", "opencode", "--scope", "project", "--project", project, "--yes")
    assert hookwright("install", "git-guard", *where).code == 0
    plugins = project / ".opencode" / "plugins"
    before = sorted(p.name for p in plugins.iterdir())
    assert hookwright("install", "path-normalizer", "git-guard", *where, "--option", "deny_push=true").code == 0
    assert sorted(p.name for p in plugins.iterdir()) == ["hookwright-git-guard.js", "hookwright-path-normalizer.js"]

    ran = hookwright("rollback", "--yes", "--json")

    assert ran.code == 0, ran.err
    assert len(ran.json["plans"]) == 2  # both files of the one install
    assert sorted(p.name for p in plugins.iterdir()) == before
    assert "deny_push" not in (plugins / "hookwright-git-guard.js").read_text()  # the first install's options again
    again = hookwright("rollback", "--yes", "--json")  # and the next rollback undoes the first install
    assert again.code == 0 and not (project / ".opencode").exists()


def _two_projects(hookwright, tmp_path):
    """git-guard into project a, then into project b, then path-normalizer for the user."""
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a, b):
        folder.mkdir()
        assert hookwright("install", "git-guard", *scope(folder)).code == 0
    assert hookwright("install", "path-normalizer", "--scope", "user", "--yes").code == 0
    return a, b


def test_rollback_with_project_undoes_that_projects_last_operation_only(hookwright, home, tmp_path):
    a, b = _two_projects(hookwright, tmp_path)

    ran = hookwright("rollback", "--project", a, "--yes")

    assert ran.code == 0, ran.err
    assert not (a / ".claude" / "settings.json").exists()  # (the install made it)
    assert commands(read_json(b / ".claude" / "settings.json")) == [GIT_GUARD_COMMAND]
    assert (home / ".claude" / "hookwright" / "path-normalizer").is_dir()


def test_rollback_scope_and_file_narrow_the_journal_and_the_listing(hookwright, home, tmp_path):
    a, b = _two_projects(hookwright, tmp_path)

    listed = hookwright("rollback", "--list", "--file", b / ".claude" / "settings.json", "--json").json["journal"]
    users = hookwright("rollback", "--list", "--scope", "user", "--json").json["journal"]

    assert [row["target"]["config"] for row in listed] == [str(b / ".claude" / "settings.json")]
    assert [row["packs"] for row in users] == [["path-normalizer"]]

    ran = hookwright("rollback", "--file", b / ".claude" / "settings.json", "--yes")

    assert ran.code == 0, ran.err
    assert not (b / ".claude" / "hookwright").exists()
    assert commands(read_json(a / ".claude" / "settings.json")) == [GIT_GUARD_COMMAND]


def test_rollback_where_nothing_was_done_says_so_and_changes_nothing(hookwright, home, tmp_path):
    a, _ = _two_projects(hookwright, tmp_path)
    elsewhere = tmp_path / "c"
    elsewhere.mkdir()

    ran = hookwright("rollback", "--project", elsewhere, "--yes")

    assert ran.code == 0 and "nothing to do: no operation to roll back there" in ran.out
    assert commands(read_json(a / ".claude" / "settings.json")) == [GIT_GUARD_COMMAND]


def test_a_rollback_plan_of_several_operations_on_one_file_names_the_file_once(hookwright, home, project):
    for pack in ("git-guard", "path-normalizer"):
        hookwright("install", pack, *scope(project))
    first = hookwright("rollback", "--list", "--json").json["journal"][0]["id"]

    ran = hookwright("rollback", "--to", first, "--dry-run")

    assert ran.out.count(f"rollback → {project / '.claude' / 'settings.json'}") == 1
    assert ran.out.count("undo operation") == 2


def test_rolling_back_a_local_uninstall_puts_the_runtimes_gitignore_back_with_them(hookwright, home, project):
    local = ("--scope", "local", "--project", project, "--yes")
    ignore = project / ".claude" / "hookwright-local" / ".gitignore"
    hookwright("install", "git-guard", *local)
    hookwright("uninstall", "git-guard", *local)
    assert not ignore.exists()

    ran = hookwright("rollback", "--yes")

    assert ran.code == 0, ran.err
    assert ignore.read_text().endswith("*\n") and (ignore.parent / "git-guard" / "git-guard").is_file()


def test_a_missing_gitignore_of_the_local_runtimes_is_put_back_by_install(hookwright, home, project):
    local = ("--scope", "local", "--project", project, "--yes")
    hookwright("install", "git-guard", *local)
    ignore = project / ".claude" / "hookwright-local" / ".gitignore"
    ignore.unlink()

    ran = hookwright("install", "git-guard", *local)

    assert ran.code == 0 and ignore.is_file()
    assert f"wrote {ignore}" in ran.out.replace("\n", "")  # the done line names what was written, not the config


def test_a_narrowed_journal_with_nothing_in_it_says_so_not_that_the_journal_is_empty(hookwright, home, project):
    hookwright("install", "git-guard", *scope(project))

    narrowed = hookwright("rollback", "--list", "--host", "opencode")
    whole = hookwright("rollback", "--list", "--json").json

    assert "no operation there" in narrowed.out and "empty" not in narrowed.out
    assert whole["filtered"] is False and len(whole["journal"]) == 1


def _tamper_last_operation(home, **fields):
    journal = home / ".local" / "state" / "hookwright" / "journal.jsonl"
    lines = journal.read_text().splitlines()
    index = max(i for i, line in enumerate(lines) if '"kind"' in line)
    record = json.loads(lines[index])
    for key, value in fields.items():
        if key in record:
            record[key] = value
        else:
            record["target"][key.removeprefix("target_")] = value
    lines[index] = json.dumps(record)
    journal.write_text("\n".join(lines) + "\n")
    return index + 1


@pytest.mark.parametrize("fields", [
    {"packs": ["../../../victim"]},
    {"packs": ["git-guard/../../../../victim"]},
    {"backup": "../../../victim"},
    {"target_runtime_root": "/"},
    {"target_config": "/etc/passwd"},
], ids=["a pack name that climbs out", "a pack name with a slash", "a backup id that climbs out",
        "a runtime root at /", "a config outside its scope folder"])
def test_a_journal_entry_that_names_what_hookwright_never_writes_is_refused_and_nothing_is_touched(
        hookwright, home, project, tmp_path, fields):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious.txt").write_text("keep me\n")
    hookwright("install", "git-guard", *scope(project))
    line = _tamper_last_operation(home, **fields)
    settings = (project / ".claude" / "settings.json").read_bytes()

    ran = hookwright("rollback", "--yes")

    assert ran.code == 2, ran.err
    assert f"journal.jsonl:{line}:1" in ran.err and "remove that line" in ran.err
    assert (victim / "precious.txt").read_text() == "keep me\n"
    assert (project / ".claude" / "settings.json").read_bytes() == settings
