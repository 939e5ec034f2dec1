import json

from support import read_json, write_json


def test_prefs_set_writes_the_user_file_and_list_shows_its_source(hookwright, home, project):
    ran = hookwright("prefs", "set", "deploy-target", "never-ask")

    assert ran.code == 0, ran.err
    user_file = home / ".config" / "hookwright" / "ask-guard.json"
    assert read_json(user_file) == {"version": 1, "questions": {"deploy-target": "never-ask"}, "doors": {}}
    listing = hookwright("prefs", "list", "--project", project, "--json").json["preferences"]
    assert [(r["id"], r["value"], r["source"]) for r in listing] == [("deploy-target", "never-ask", "user")]


def test_a_project_preference_overrides_the_users(hookwright, home, project):
    hookwright("prefs", "set", "deploy-target", "never-ask")
    hookwright("prefs", "set", "deploy-target", "always-ask", "--project", project)
    hookwright("prefs", "set", "deploy-target", "two-way", "--project", project)

    listing = hookwright("prefs", "list", "--project", project, "--json").json["preferences"]

    assert {(r["kind"], r["value"], r["source"], r["overrides"]) for r in listing} == {
        ("question", "always-ask", "project", "user"), ("door", "two-way", "project", None)}
    assert read_json(project / ".claude" / "hookwright-prefs.json")["doors"] == {"deploy-target": "two-way"}


def test_prefs_unset_removes_the_id_and_keeps_the_files_formatting(hookwright, home, project):
    prefs = project / ".claude" / "hookwright-prefs.json"
    write_json(prefs, {"version": 1, "questions": {"a": "never-ask", "b": "always-ask"}, "doors": {}}, indent=4)

    ran = hookwright("prefs", "unset", "a", "--project", project)

    assert ran.code == 0, ran.err
    assert prefs.read_text() == json.dumps({"version": 1, "questions": {"b": "always-ask"}, "doors": {}},
                                           indent=4) + "\n"


def test_prefs_refuse_a_bad_value_an_odd_id_and_an_invalid_file(hookwright, home, project):
    prefs = project / ".claude" / "hookwright-prefs.json"
    original = write_json(prefs, {"version": 1, "questions": {"a": "sometimes"}})

    bad_value = hookwright("prefs", "set", "x", "maybe")
    odd_id = hookwright("prefs", "set", "has space", "never-ask")
    bad_file = hookwright("prefs", "set", "x", "never-ask", "--project", project)

    assert (bad_value.code, odd_id.code, bad_file.code) == (2, 2, 2)
    assert "never-ask" in bad_value.err and "two-way" in bad_value.err and "not a question id" in odd_id.err
    assert str(prefs) in bad_file.err and "questions" in bad_file.err
    assert prefs.read_bytes() == original


def test_prefs_dry_run_shows_the_change_and_writes_nothing(hookwright, home):
    ran = hookwright("prefs", "set", "x", "never-ask", "--dry-run", "--json")

    assert ran.code == 0 and ran.json["status"] == "dry-run"
    assert '"x": "never-ask"' in ran.json["diff"]
    assert not (home / ".config" / "hookwright" / "ask-guard.json").exists()


def test_unset_of_an_id_only_the_project_file_holds_writes_no_user_file_and_says_where_it_is(hookwright, home,
                                                                                             project, monkeypatch):
    from hookwright.layout import user_prefs

    hookwright("prefs", "set", "deploy-target", "never-ask", "--project", project)
    monkeypatch.chdir(project)

    ran = hookwright("prefs", "unset", "deploy-target")

    assert ran.code == 0 and "unchanged" in ran.out
    assert not user_prefs().exists()
    assert "--scope project" in ran.out.replace("\n", "")
    assert read_json(project / ".claude" / "hookwright-prefs.json")["questions"] == {"deploy-target": "never-ask"}


def test_scope_user_with_a_project_writes_the_user_file(hookwright, home, project):
    from hookwright.layout import user_prefs

    hookwright("prefs", "set", "x", "two-way", "--scope", "user", "--project", project)

    assert read_json(user_prefs())["doors"] == {"x": "two-way"}
    assert not (project / ".claude" / "hookwright-prefs.json").exists()
