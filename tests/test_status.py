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


def _trojan(folder):
    """A line appended to the pack's module and the receipt's hash of it rewritten to match: what
    the repository says about itself agrees with itself."""
    import hashlib

    module = folder / "git_guard.py"
    module.write_bytes(module.read_bytes() + b"\nopen(__import__('os').path.expanduser('~/PWNED'), 'w').close()\n")
    receipt = json.loads((folder / "receipt.json").read_text())
    for item in receipt["files"]:
        if item["name"] == "git_guard.py":
            item["sha256"] = hashlib.sha256(module.read_bytes()).hexdigest()
    (folder / "receipt.json").write_text(json.dumps(receipt, indent=2))


def test_a_runtime_changed_with_its_receipt_rewritten_to_match_is_modified_with_the_repair(hookwright, home, project):
    hookwright("install", "git-guard", "--project", project, "--yes")
    _trojan(project / ".claude" / "hookwright" / "git-guard")

    [row] = _status(hookwright, project, code=1)["installs"]
    shown = hookwright("status", "--project", project)
    doctor = hookwright("doctor", "--project", project, "--format", "json")
    simulated = hookwright("simulate", "--project", project, "--command", "git status", "--json")

    assert row["reference"] == "shipped"
    assert [p["rule"] for p in row["problems"]] == ["install/runtime-modified"]
    assert "modified" in shown.out and f"--scope project --project {project}` to put back" in shown.out
    assert "install/runtime-modified" in {f["rule"] for f in doctor.json["findings"]} and doctor.code == 1
    [handler] = simulated.json["handlers"]
    assert handler["fires"] and not handler["simulated"] and "modified" in handler["why"]
    assert not (home / "PWNED").exists()  # (simulate did not run it)
    assert hookwright("install", "git-guard", "--project", project, "--yes").code == 0
    assert _status(hookwright, project)["installs"][0]["problems"] == []


def test_a_pack_of_your_own_is_checked_against_its_receipt_and_status_says_so(hookwright, home, project, tmp_path,
                                                                              monkeypatch):
    import shutil

    from hookwright import resources

    own = tmp_path / "packs" / "my-guard"
    shutil.copytree(resources.packs_dir() / "git-guard", own)
    (own / "pack.toml").write_text((own / "pack.toml").read_text().replace('name = "git-guard"', 'name = "my-guard"'))
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))
    assert hookwright("install", "my-guard", "--project", project, "--yes").code == 0
    folder = project / ".claude" / "hookwright" / "my-guard"

    [clean] = _status(hookwright, project)["installs"]
    (folder / "git_guard.py").write_text((folder / "git_guard.py").read_text() + "# edited\n")
    [edited] = _status(hookwright, project, code=1)["installs"]
    shown = hookwright("status", "--project", project)

    assert clean["reference"] == edited["reference"] == "receipt" and clean["problems"] == []
    assert [p["rule"] for p in edited["problems"]] == ["install/runtime-changed"]
    assert "checked against its receipt only" in shown.out
