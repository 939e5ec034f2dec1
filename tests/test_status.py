"""`hookwright status`: which packs are installed where, and whether each is whole."""
import json

from support import write_json


def _status(hookwright, project, code=0):
    ran = hookwright("status", "--project", project, "--json")
    assert ran.code == code, ran.out + ran.err
    return json.loads(ran.out)


def _by_place(doc):
    return {(row["pack"], row["host"], row["scope"]): row for row in doc["installs"]}


def test_status_lists_every_install_with_agent_scope_file_and_version(hookwright, home, project):
    hookwright("install", "git-guard", "--project", project, "--yes")
    hookwright("install", "path-normalizer", "--yes")
    hookwright("install", "git-guard", "--host", "opencode", "--project", project, "--yes")

    rows = _by_place(_status(hookwright, project))

    assert set(rows) == {("git-guard", "claude", "project"), ("path-normalizer", "claude", "user"),
                         ("git-guard", "opencode", "project")}
    assert rows[("git-guard", "claude", "project")]["file"] == str(project / ".claude" / "settings.json")
    assert rows[("path-normalizer", "claude", "user")]["file"] == str(home / ".claude" / "settings.json")
    assert all(row["version"] == row["bundled_version"] and not row["upgrade"] and not row["problems"]
               for row in rows.values())


def test_a_missing_runtime_and_a_hand_edited_entry_are_problems_with_the_repair_and_exit_1(hookwright, home,
                                                                                         project):
    hookwright("install", "git-guard", "--project", project, "--yes")
    (project / ".claude" / "hookwright" / "git-guard" / "git-guard").unlink()
    settings = project / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = 99
    write_json(settings, data)

    (row,) = _status(hookwright, project, code=1)["installs"]

    assert {p["rule"] for p in row["problems"]} == {"install/runtime-missing", "install/entry-differs"}
    assert all(f"hookwright install git-guard --host claude --scope project --project {project}" in p["hint"]
               for p in row["problems"] if p["rule"] == "install/runtime-missing")
    shown = hookwright("status", "--project", project)
    assert shown.code == 1 and "install/runtime-missing" in shown.out



def test_an_entry_of_ours_whose_folder_was_deleted_is_a_problem_and_adopt_repairs_it(hookwright, home, project):
    """The entry stays in the settings and refuses every call (python3 exits 2 without its
    script): status must not list only the installs it has a receipt for."""
    import shutil

    hookwright("install", "git-guard", "--project", project, "--yes")
    shutil.rmtree(project / ".claude" / "hookwright")

    (row,) = _status(hookwright, project, code=1)["installs"]

    assert (row["pack"], row["version"]) == ("git-guard", None)
    assert [p["rule"] for p in row["problems"]] == ["install/no-receipt", "install/runtime-missing"]
    assert all("--adopt" in p["hint"] for p in row["problems"])
    assert hookwright("install", "git-guard", "--project", project, "--adopt", "--yes").code == 0
    (row,) = _status(hookwright, project)["installs"]
    assert not row["problems"]

def test_an_older_installed_version_says_the_bundled_one_is_newer(hookwright, home, project):
    hookwright("install", "git-guard", "--project", project, "--yes")
    receipt = project / ".claude" / "hookwright" / "git-guard" / "receipt.json"
    data = json.loads(receipt.read_text())
    data["version"] = "0.9.0"
    receipt.write_text(json.dumps(data))

    (row,) = _status(hookwright, project)["installs"]

    assert row["version"] == "0.9.0" and row["upgrade"] is True
    assert "bundled" in hookwright("status", "--project", project).out


def test_with_nothing_installed_status_says_how_to_install(hookwright, home, project):
    assert _status(hookwright, project)["installs"] == []
    assert "hookwright packs lists the packs to install" in hookwright("status", "--project", project).out


def test_an_unreadable_config_is_said_with_its_place_and_every_other_install_is_still_listed(hookwright, home,
                                                                                            project):
    hookwright("install", "git-guard", "--project", project, "--yes")
    broken = home / ".cursor" / "hooks.json"
    broken.parent.mkdir(parents=True)
    broken.write_text('{"version": 1,\n  "hooks": {bad}}\n')

    doc = _status(hookwright, project, code=2)
    ran = hookwright("status", "--project", project)

    assert set(_by_place(doc)) == {("git-guard", "claude", "project")}
    (error,) = doc["unreadable"]
    assert (error["path"], error["line"], error["column"]) == (str(broken), 2, 13) and error["hint"]
    assert ran.code == 2 and "git-guard" in ran.out and f"{broken}:2:13" in ran.err
    assert broken.read_text() == '{"version": 1,\n  "hooks": {bad}}\n'


def test_an_install_whose_own_config_cannot_be_read_is_listed_unchecked_beside_the_others(hookwright, home, project):
    hookwright("install", "git-guard", "--project", project, "--yes")
    hookwright("install", "git-guard", "--host", "cursor", "--project", project, "--yes")
    (project / ".cursor" / "hooks.json").write_text('{"version": 1, "hooks": {')

    rows = _by_place(_status(hookwright, project, code=2))
    ran = hookwright("status", "--project", project)

    assert rows[("git-guard", "claude", "project")]["checked"] and not rows[("git-guard", "claude", "project")]["problems"]
    assert not rows[("git-guard", "cursor", "project")]["checked"]
    assert "not checked" in ran.out and str(project / ".cursor" / "hooks.json") in ran.err
