"""doctor's rule controls: --select, --ignore, --min-severity, and the project's config."""
import json

from support import write_json

# three findings of three rules: a timeout in milliseconds (warning), a lower-case matcher that
# matches no tool (warning or error), a command that is never set (error): see docs/rules.md
NOISY = {"hooks": {"PreToolUse": [
    {"matcher": "bash", "hooks": [{"type": "command", "command": "echo $CLAUDE_TOOL_INPUT", "timeout": 30000}]}]}}


def _rules(ran) -> set[str]:
    return {f["rule"] for f in json.loads(ran.out)["findings"]}


def _project(project):
    write_json(project / ".claude" / "settings.json", NOISY)
    return project


def test_without_controls_doctor_reports_findings_of_several_kinds(hookwright, home, project):
    ran = hookwright("doctor", "--project", _project(project), "--json")

    assert len({rule.split("/")[0] for rule in _rules(ran)}) >= 2


def test_select_by_prefix_keeps_only_that_kind_and_says_how_many_it_hid(hookwright, home, project):
    everything = _rules(hookwright("doctor", "--project", _project(project), "--json"))
    kind = sorted(everything)[0].split("/")[0]

    ran = hookwright("doctor", "--project", project, "--json", "--select", kind)
    doc = json.loads(ran.out)

    assert _rules(ran) == {r for r in everything if r.startswith(kind + "/")}
    assert doc["summary"]["hidden"] == len(json.loads(hookwright("doctor", "--project", project, "--json").out)
                                           ["findings"]) - len(doc["findings"]) > 0
    assert doc["selection"]["select"] == [kind]


def test_ignore_by_id_drops_that_rule_and_the_exit_code_follows_what_is_left(hookwright, home, project):
    everything = _rules(hookwright("doctor", "--project", _project(project), "--json"))

    ran = hookwright("doctor", "--project", project, "--json", "--ignore", ",".join(sorted(everything)))

    assert _rules(ran) == set() and ran.code == 0
    assert "hidden by the rule selection" in hookwright("doctor", "--project", project,
                                                          "--ignore", ",".join(sorted(everything))).out


def test_min_severity_error_leaves_out_warnings_and_notes(hookwright, home, project):
    ran = hookwright("doctor", "--project", _project(project), "--json", "--min-severity", "error")

    severities = {f["severity"] for f in json.loads(ran.out)["findings"]}
    assert severities == {"error"}


def test_a_selector_that_names_no_rule_is_a_usage_error_with_the_closest_names(hookwright, home, project):
    ran = hookwright("doctor", "--project", _project(project), "--select", "comand")

    assert ran.code == 2 and "did you mean command" in ran.err


def test_the_pyproject_config_ignores_a_rule_and_the_command_line_adds_to_it(hookwright, home, project):
    everything = sorted(_rules(hookwright("doctor", "--project", _project(project), "--json")))
    (project / "pyproject.toml").write_text(f'[tool.hookwright.doctor]\nignore = ["{everything[0]}"]\n')

    by_config = hookwright("doctor", "--project", project, "--json")
    both = hookwright("doctor", "--project", project, "--json", "--ignore", everything[1])
    without = hookwright("doctor", "--project", project, "--json", "--no-config")

    assert _rules(by_config) == set(everything[1:])
    assert _rules(both) == set(everything[2:])
    assert _rules(without) == set(everything)
    assert json.loads(by_config.out)["selection"]["config"] == str(project / "pyproject.toml")


def test_hookwright_toml_wins_over_pyproject_and_is_found_from_a_subfolder(hookwright, home, project, monkeypatch):
    everything = sorted(_rules(hookwright("doctor", "--project", _project(project), "--json")))
    (project / "pyproject.toml").write_text('[tool.hookwright.doctor]\nmin-severity = "error"\n')
    (project / ".hookwright.toml").write_text(f'[doctor]\nselect = ["{everything[0]}"]\n')
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")

    ran = hookwright("doctor", str(project / ".claude" / "settings.json"), "--json")

    assert _rules(ran) == {everything[0]}


def test_a_config_with_a_syntax_error_names_its_line_and_column_and_exits_2(hookwright, home, project):
    (_project(project) / ".hookwright.toml").write_text('[doctor]\nselect = ["command"\nignore = []\n')

    ran = hookwright("doctor", "--project", project)

    assert ran.code == 2
    assert f"{project / '.hookwright.toml'}:3:" in ran.err.replace("\n", "")


def test_an_unknown_setting_in_the_config_is_refused_with_the_one_meant(hookwright, home, project):
    (_project(project) / ".hookwright.toml").write_text('[doctor]\nignores = ["command"]\n')

    ran = hookwright("doctor", "--project", project)

    assert ran.code == 2 and "unknown doctor setting 'ignores'" in ran.err and "did you mean ignore" in ran.err


def test_strict_in_the_config_makes_warnings_fail(hookwright, home, project):
    write_json(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi", "timeout": 30000}]}]}})
    assert hookwright("doctor", "--project", project).code == 0
    (project / ".hookwright.toml").write_text("[doctor]\nstrict = true\n")

    assert hookwright("doctor", "--project", project).code == 1


def test_explain_without_a_rule_lists_every_rule_of_the_catalog(hookwright, home):
    from hookwright.doctor.model import catalog

    ran = hookwright("doctor", "--explain", "--json")

    assert [r["id"] for r in json.loads(ran.out)["rules"]] == sorted(catalog())
    assert "command/home-path" in hookwright("doctor", "--explain").out


def test_a_config_above_the_project_that_someone_else_owns_is_skipped_and_the_report_says_which_chose(
        hookwright, home, tmp_path):
    """A shared parent folder (/tmp, a world-writable checkout root) is anyone's to write: a config
    there owned by another user does not silence this project's errors."""
    import os
    import subprocess

    shared = tmp_path / "shared"
    project = _project(shared / "repo")
    everything = sorted(_rules(hookwright("doctor", "--project", project, "--json")))
    planted = shared / ".hookwright.toml"
    planted.write_text('[doctor]\nmin-severity = "error"\nignore = ["' + '", "'.join(everything) + '"]\n')
    os.chown(planted, 65534, 65534)  # (the tests run as root where CI does; as a user, chown to another fails)

    skipped = hookwright("doctor", "--project", project, "--json")
    shown = hookwright("doctor", "--project", project)
    subprocess.run(["git", "init", "-q", str(shared)], check=True)  # now the file is inside the repository
    taken = hookwright("doctor", "--project", project, "--json")
    (project / ".hookwright.toml").write_text('[doctor]\nstrict = true\n')
    own = hookwright("doctor", "--project", project)

    assert _rules(skipped) == set(everything)
    assert json.loads(skipped.out)["selection"]["skipped_configs"][0]["path"] == str(planted)
    assert "not read:" in shown.out and "owned by" in shown.out
    assert _rules(taken) == set() and json.loads(taken.out)["selection"]["config"] == str(planted)
    assert f"rules chosen by {project / '.hookwright.toml'}" in own.out
