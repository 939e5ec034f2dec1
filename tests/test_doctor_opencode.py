"""doctor and list on opencode's plugins folders: which files opencode loads, what their
tool.execute.before changes, and two plugins that change the same arguments."""
from __future__ import annotations

from pathlib import Path

from doctor_support import doctor, found

OC = ".opencode/plugins/"


def plugin(tool: str, *keys: str, export: str = "P") -> str:
    sets = " ".join(f'output.args.{key} = "x";' for key in keys)
    return (f'export const {export} = async () => ({{\n  "tool.execute.before": async (input, output) => {{\n'
            f'    if (input.tool !== "{tool}") return\n    {sets}\n  }},\n}})\n')


def test_two_plugins_that_set_one_argument_of_one_tool_race(tmp_path):
    out = doctor(tmp_path / "p", {OC + "a.js": plugin("bash", "command"), OC + "b.ts": plugin("bash", "command")},
                 given=False)
    (race,) = found(out, "conflict/plugin-args-race")
    assert race.severity == "warning" and "bash" in race.message and "command" in race.message
    assert "a.js" in race.message and "b.ts" in race.message


def test_plugins_that_set_different_arguments_or_tools_do_not_race(tmp_path):
    files = {OC + "a.js": plugin("bash", "command"), OC + "b.js": plugin("bash", "description"),
             OC + "c.js": plugin("read", "command")}
    assert not found(doctor(tmp_path / "p", files, given=False), "conflict/plugin-args-race")


def test_a_plugin_opencode_does_not_load_races_with_nobody(tmp_path):
    files = {OC + "a.js": plugin("bash", "command"), OC + "b.mjs": plugin("bash", "command")}
    out = doctor(tmp_path / "p", files, given=False)
    assert not found(out, "conflict/plugin-args-race") and found(out, "host/opencode-plugin-not-loaded")


def test_path_normalizer_races_with_a_plugin_that_sets_an_mcp_tools_arguments(hookwright, home, project):
    (project / OC).mkdir(parents=True)
    (project / OC / "paths.js").write_text(plugin("docs_read", "path"))
    ran = hookwright("install", "path-normalizer", "--host", "opencode", "--scope", "project", "--project", project,
                     "--dry-run", "--json")

    races = [f for p in ran.json["plans"] for f in p["findings"] if f["rule"] == "conflict/plugin-args-race"]
    assert [f["change"] for f in races] == ["introduced"]
    assert "hookwright pack path-normalizer" in races[0]["message"] and "docs_read" in races[0]["message"]


def test_list_shows_opencode_plugins_ours_and_foreign(hookwright, home, project):
    (project / OC).mkdir(parents=True)
    (project / OC / "mine.ts").write_text(plugin("bash", "command"))
    assert hookwright("install", "git-guard", "--host", "opencode", "--scope", "project", "--project", project,
                      "--yes").code == 0
    rows = hookwright("list", "--project", project, "--host", "opencode", "--json").json["hooks"]

    by_owner = {row["owner"]: row for row in rows}
    assert set(by_owner) == {"git-guard", "foreign"}
    assert by_owner["git-guard"]["matcher"] == "bash" and by_owner["git-guard"]["rewrites_input"]["status"] == "no"
    assert by_owner["foreign"]["rewrites_input"]["status"] == "yes"
    assert by_owner["foreign"]["source"]["path"] == str(project / OC / "mine.ts")


def test_doctor_is_clean_on_a_fresh_hookwright_plugin(hookwright, home, project):
    assert hookwright("install", "git-guard", "path-normalizer", "--host", "opencode", "--scope", "project",
                      "--project", project, "--yes").code == 0
    report = hookwright("doctor", "--project", project, "--host", "opencode", "--format", "json").json
    assert report["findings"] == [], report["findings"]


def test_a_hookwright_plugin_whose_runtime_is_gone_is_an_error(hookwright, home, project):
    assert hookwright("install", "git-guard", "--host", "opencode", "--scope", "project", "--project", project,
                      "--yes").code == 0
    (project / ".opencode" / "hookwright" / "git-guard" / "git-guard").unlink()
    ran = hookwright("doctor", "--project", project, "--host", "opencode")
    assert ran.code == 1 and "host/opencode-runtime-missing" in ran.out


def test_opencode_json_with_comments_is_read_as_jsonc(tmp_path):
    config = '{\n  // my plugins\n  "plugin": ["./gone.js",],\n}\n'
    out = doctor(tmp_path / "p", {"opencode.json": config}, given=False)
    (missing,) = found(out, "host/opencode-plugin-missing")
    assert missing.line == 3 and Path(tmp_path / "p" / "gone.js").name in missing.message
