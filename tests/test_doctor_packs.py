"""doctor reads git-guard's rules files as git-guard reads them: the user's and each host's
project file, against schemas/git-guard-rules.schema.json and what the schema cannot say,
every problem at its own line and column (rules pack/git-guard-rules-invalid and
pack/git-guard-rule-off-unknown)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hookwright import layout
from hookwright.doctor.run import run

PACK = Path(__file__).resolve().parents[1] / "templates" / "packs" / "git-guard"


def findings(project: Path, hosts=("claude", "cursor", "opencode")) -> list[tuple[str, str, int, int, str]]:
    return [(Path(f.path).name, f.rule, f.line, f.column, f.message) for f in run(project=project, hosts=hosts).findings
            if f.rule.startswith("pack/") and f.severity != "info"]


def rules_file(project: Path, text: str, host: str = "claude") -> Path:
    path = project / layout.GIT_GUARD_PROJECT_RULES[host]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


ROWS = [  # (file text, [(line, column, words of the problem)])
    ('{"rules": {"stash": []}}', []),
    ('{"$schema": "x", "rules": {"no-rebase": ["^git rebase"]}, "reasons": {"no-rebase": "merge"}}', []),
    ('{"rules": {"stash": []}\n', [(2, 1, "")]),  # not JSON: where the reader stopped
    ('{"rules": {"stash": []},\n "rules": {}}', [(2, 2, "twice")]),
    ('{"rules": {"stash": []},\n "rule": {}}', [(2, 2, 'unknown key "rule"')]),
    ('{"rules": {\n  "x": "^git tag"}}', [(2, 8, "rules.x")]),
    ('{"rules": {"x": [\n  5]}}', [(2, 3, "rules.x.0")]),
    ('{"rules": {"x": [\n  "^(git"]}}', [(2, 3, "does not compile")]),
    ('{"reasons": {\n  "stash": "  "}}', [(2, 12, "blank")]),
    ('{"reasons": {\n  "reset-hardd": "typo"}}', [(2, 3, "names no rule")]),
    ('{"rules": {"": ["x"]}}', [(1, 12, "empty rule id")]),
    ('[]', [(1, 1, "")]),
    ('{"rules": {"x": ["("]},\n "reasons": {"y": "z"}}', [(1, 18, "does not compile"), (2, 14, "names no rule")]),
]


@pytest.mark.parametrize("text, expected", ROWS, ids=[row[0][:40] for row in ROWS])
def test_doctor_reports_what_makes_git_guard_ignore_a_rules_file_at_its_line_and_column(home, project, text, expected):
    rules_file(project, text)
    found = findings(project)
    assert [(line, column) for _, _, line, column, _ in found] == [(line, column) for line, column, _ in expected]
    for (_, rule, _, _, message), (_, _, words) in zip(found, expected):
        assert rule == "pack/git-guard-rules-invalid" and words in message
        assert message.startswith("git-guard ignores this whole rules file")


def test_what_doctor_calls_invalid_is_what_git_guard_ignores(home, project):
    """Every row, through git-guard's own reader: a file with a doctor finding is one it ignores."""
    sys.path[:0] = [str(PACK), str(PACK.parents[1] / "runtime")]
    no_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    import rules_files

    sys.dont_write_bytecode = no_bytecode
    for text, expected in ROWS:
        path = rules_file(project, text)
        log = home / "hooks.log"
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("HOOKWRIGHT_LOG", str(log))
            layer = rules_files.read_layer(str(path))
        assert (layer is None) == bool(expected), text
        assert log.exists() == bool(expected)
        log.unlink(missing_ok=True)


@pytest.mark.parametrize("host", ["claude", "cursor", "opencode"])
def test_doctor_finds_each_hosts_project_file_and_only_for_that_host(home, project, host):
    rules_file(project, '{"rules": ', host)
    assert [rule for _, rule, *_ in findings(project, hosts=(host,))] == ["pack/git-guard-rules-invalid"]
    others = tuple(other for other in ("claude", "cursor", "opencode") if other != host)
    assert findings(project, hosts=others) == []


def test_doctor_checks_the_users_rules_file(home, project):
    path = layout.runtime_config_dir() / layout.GIT_GUARD_USER_RULES
    path.parent.mkdir(parents=True)
    path.write_text('{"rules": {"stash": "no"}}')
    assert [(name, rule) for name, rule, *_ in findings(project)] == [("git-guard.json", "pack/git-guard-rules-invalid")]


def test_an_empty_list_for_a_rule_git_guard_does_not_have_is_a_warning_with_the_likely_rule(home, project):
    rules_file(project, '{"rules": {\n  "reset_hard": []}}')
    ((_, rule, line, column, message),) = findings(project)
    assert (rule, line, column) == ("pack/git-guard-rule-off-unknown", 2, 3) and "reset_hard" in message
    (finding,) = [f for f in run(project=project).findings if f.rule == rule]
    assert "reset-hard" in finding.hint


def test_a_rules_file_named_on_the_command_line_is_read_as_one(hookwright, home, project):
    path = rules_file(project, '{"rules": {"x": ["(("]}}')
    ran = hookwright("doctor", str(path), "--json")
    assert ran.code == 1
    report = json.loads(ran.out)
    assert [f["rule"] for f in report["findings"]] == ["pack/git-guard-rules-invalid"]
    assert report["files"][0]["kind"] == "git-guard-rules"


def test_list_and_install_plans_do_not_read_the_rules_files(hookwright, home, project):
    rules_file(project, '{"rules": ')
    assert hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes").code == 0
    ran = hookwright("list", "--project", project, "--json")
    assert ran.code == 0 and "hookwright-git-guard.json" not in ran.out


def test_the_rules_file_names_are_the_runtimes():
    sys.path[:0] = [str(PACK), str(PACK.parents[1] / "runtime")]
    import git_guard

    assert git_guard.USER_RULES == layout.GIT_GUARD_USER_RULES
    assert {host: Path(folder) / git_guard.PROJECT_RULES for host, folder in git_guard.HOST_FOLDERS.items()} == \
        layout.GIT_GUARD_PROJECT_RULES


def test_doctor_names_the_built_in_rules_a_projects_file_switches_off_or_replaces(home, project):
    rules_file(project, '{"rules": {"stash": [], "reset-hard": ["^git reset --hard HEAD~"], "no-tag": ["^git tag"]}}')
    (finding,) = [f for f in run(project=project).findings if f.rule == "pack/git-guard-rules-weakened"]
    assert finding.severity == "info" and "stash (off), reset-hard (replaced)" in finding.message
    path = layout.runtime_config_dir() / layout.GIT_GUARD_USER_RULES  # the user's own file: the user's business
    path.parent.mkdir(parents=True)
    path.write_text('{"rules": {"stash": []}}')
    assert [f.path for f in run(project=project).findings if f.rule == "pack/git-guard-rules-weakened"] == [
        finding.path]


@pytest.mark.parametrize("xdg", [None, "/somewhere/config", "relative/config"])
def test_doctor_looks_for_the_users_file_where_the_runtime_reads_it(home, monkeypatch, xdg):
    sys.path[:0] = [str(PACK.parents[1] / "runtime")]
    import hookwright_runtime

    if xdg is None:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", xdg)
    assert layout.runtime_config_dir() == Path(hookwright_runtime.config_dir())
