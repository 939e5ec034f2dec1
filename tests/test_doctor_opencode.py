"""doctor and list on opencode's plugins folders: which files opencode loads, what their
tool.execute.before changes, and two plugins that change the same arguments."""
from __future__ import annotations

import os
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


def test_of_two_plugins_in_one_folder_the_one_the_filesystem_lists_first_runs_last_and_wins(tmp_path):
    """Measured on opencode 1.18.33: one folder's plugins run in the reverse of the order readdir
    lists them (the listing z, a, b, m ran m, b, a, z)."""
    out = doctor(tmp_path / "p", {OC + "a.js": plugin("bash", "command"), OC + "b.js": plugin("bash", "command")},
                 given=False)
    listed_first, listed_second = (entry.name for entry in os.scandir(tmp_path / "p" / OC))
    (race,) = found(out, "conflict/plugin-args-race")
    assert Path(race.path).name == listed_first and Path(race.related[0]["path"]).name == listed_second
    assert race.message.endswith(f"the change of the last to run, the plugin {listed_first}, is the one that counts")


def test_a_config_folders_plugin_folder_runs_before_its_plugins_folder(tmp_path):
    files = {".opencode/plugins/a.js": plugin("bash", "command"), ".opencode/plugin/b.js": plugin("bash", "command")}
    (race,) = found(doctor(tmp_path / "p", files, given=False), "conflict/plugin-args-race")
    assert race.path.endswith("plugins/a.js") and race.related[0]["path"].endswith("plugin/b.js")


def test_plugins_named_on_the_command_line_race_without_a_winner_named(tmp_path):
    """doctor does not know where opencode finds files named on the command line, so not which runs last."""
    out = doctor(tmp_path / "p", {OC + "a.js": plugin("bash", "command"), OC + "b.js": plugin("bash", "command")})
    (race,) = found(out, "conflict/plugin-args-race")
    assert "only the last one's change counts" in race.message and race.related[0]["message"] == "it changes them too"


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
    assert "only the last one's change counts" in races[0]["message"]  # (where readdir will list it is not known)


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


def test_the_race_sits_at_the_line_where_the_later_plugin_sets_the_argument(tmp_path):
    out = doctor(tmp_path / "p", {OC + "a.js": plugin("bash", "command"), OC + "b.js": plugin("bash", "command")},
                 given=False)
    (race,) = found(out, "conflict/plugin-args-race")
    later = Path(race.path).name
    assert (race.line, race.column) == (4, 5), race
    assert race.related[0]["line"] == 4 and Path(race.related[0]["path"]).name != later


def test_a_plugin_that_destructures_its_arguments_is_read_like_one_that_does_not(tmp_path):
    destructured = ('export const P = async () => ({\n  "tool.execute.before": async ({ tool }, { args }) => {\n'
                    '    if (tool === "bash") args.command = "x"\n  },\n})\n')
    files = {OC + "a.js": plugin("bash", "command"), OC + "b.js": destructured}
    (race,) = found(doctor(tmp_path / "p", files, given=False), "conflict/plugin-args-race")
    assert "of bash (command)" in race.message
    files[OC + "a.js"] = plugin("read", "command")  # the destructured `tool` keeps it to bash
    assert not found(doctor(tmp_path / "q", files, given=False), "conflict/plugin-args-race")


def test_a_plugin_file_opencode_drops_whole_races_with_nobody(tmp_path):
    for extra in ('export const VERSION = "1"\n', "export class Helper {}\n", "export enum Mode { A }\n"):
        files = {OC + "a.ts": plugin("bash", "command"), OC + "b.ts": plugin("bash", "command") + extra}
        out = doctor(tmp_path / str(len(extra)), files, given=False)
        assert not found(out, "conflict/plugin-args-race"), extra
        (dropped,) = found(out, "host/opencode-plugin-export-not-function")
        assert Path(dropped.path).name == "b.ts" and dropped.line == 7


def test_an_exported_class_is_named_with_the_error_opencode_gives(tmp_path):
    out = doctor(tmp_path / "p", {OC + "a.js": plugin("bash", "command") + "export default class {}\n"}, given=False)
    (dropped,) = found(out, "host/opencode-plugin-export-not-function")
    assert "is a class" in dropped.message and "Cannot call a class constructor" in dropped.message


def test_an_opencode_config_opencode_cannot_read_is_exit_2_at_its_line_and_column(hookwright, home, project):
    config = project / "opencode.json"
    raw = b'{\n  "plugin": [\n    "./a.js",,\n  ]\n}\n'
    config.write_bytes(raw)
    ran = hookwright("doctor", "--project", project, "--json")
    assert ran.code == 2, ran.out
    (bad,) = [f for f in ran.json["findings"] if f["rule"] == "host/opencode-config-unreadable"]
    assert (bad["line"], bad["column"]) == (3, 14) and 'Unexpected ","' in bad["message"]
    assert not [f for f in ran.json["findings"] if f["rule"].startswith("structure/")]
    assert config.read_bytes() == raw


def test_a_local_plugin_an_opencode_config_lists_is_read_like_one_in_a_plugins_folder(tmp_path):
    files = {"opencode.jsonc": '{\n  // ours\n  "plugin": ["./tools/guard.js", "some-npm-plugin"],\n}\n',
             "tools/guard.js": plugin("bash", "command"), OC + "z.js": plugin("bash", "command")}
    out = doctor(tmp_path / "p", files, given=False)
    assert not found(out, "host/opencode-plugin-not-loaded")  # (it loads though it is not in plugins/)
    (race,) = found(out, "conflict/plugin-args-race")
    assert Path(race.path).name == "z.js" and Path(race.related[0]["path"]).name == "guard.js"  # listed ones run first


def test_a_plugin_both_listed_and_in_a_plugins_folder_loads_once(tmp_path):
    files = {"opencode.json": {"plugin": ["./.opencode/plugins/a.js"]}, OC + "a.js": plugin("bash", "command")}
    out = doctor(tmp_path / "p", files, given=False)
    assert [f.path.name for f in out.files if f.kind == "opencode-plugin"] == ["a.js"]
    assert not found(out, "conflict/plugin-args-race")


def test_a_helper_a_plugin_imports_from_a_subfolder_and_other_files_beside_the_plugins_are_no_plugins(tmp_path):
    """opencode loads helpers in a subfolder as nothing, as it should (other-hosts.md 2.2: put
    helpers in a sub-folder); a README or a JSON file beside the plugins is no plugin either."""
    main = 'import { check } from "./lib/util.js"\n' + plugin("bash", "command")
    files = {OC + "a.js": main, OC + "lib/util.js": "export function check() { return true }\n",
             OC + "README.md": "# our plugins\n", OC + "cfg.json": {"strict": True}}
    out = doctor(tmp_path / "p", files, given=False)
    assert sorted(Path(f.path).name for f in out.files if f.kind == "opencode-plugin") == ["a.js", "util.js"]
    assert not found(out, "host/opencode-plugin-not-loaded")
    files[OC + "a.js"] = plugin("bash", "command")  # nothing imports it: a plugin kept where opencode skips it
    assert [Path(f.path).name for f in found(doctor(tmp_path / "q", files, given=False),
                                              "host/opencode-plugin-not-loaded")] == ["util.js"]


def test_an_mcp_tools_snake_case_argument_and_both_spellings_of_a_tool_are_no_mistakes(tmp_path):
    """An MCP server's arguments keep the server's names; `t === "bash" || t === "Bash"` still runs."""
    files = {OC + "m.js": plugin("filesystem_write_file", "file_path"),
             OC + "b.js": plugin("bash", "command").replace('input.tool !== "bash"',
                                                            'input.tool !== "bash" && input.tool !== "Bash"')}
    out = doctor(tmp_path / "p", files, given=False)
    assert not found(out, "host/opencode-argument-name") and not found(out, "host/opencode-tool-name")


def test_an_mcp_tools_name_is_given_as_opencode_spells_it(tmp_path):
    """Measured on opencode 1.18.33: every character outside [A-Za-z0-9_-] of the server's and the
    tool's name becomes `_` (server My-Srv.x, tool do.thing: My-Srv_x_do_thing)."""
    out = doctor(tmp_path / "p", {OC + "m.js": plugin("mcp__My-Srv.x__do.thing", "path")}, given=False)
    (named,) = found(out, "host/opencode-tool-name")
    assert named.hint == 'compare with "My-Srv_x_do_thing"', named
    fixed = plugin("mcp__My-Srv.x__do.thing", "path").replace('input.tool !== "mcp__My-Srv.x__do.thing"',
                                                               'input.tool !== "My-Srv_x_do_thing"')
    assert not found(doctor(tmp_path / "q", {OC + "m.js": fixed}, given=False), "host/opencode-tool-name")


def test_only_tools_opencode_offers_are_suggested(tmp_path):
    """Measured on opencode 1.18.33: it offers no list, multiedit or todoread (a call to one becomes
    the tool `invalid`); websearch it offers where OPENCODE_ENABLE_EXA is set. A name it has no tool
    by is still reported (the test is never true), with the tool that does the job where there is one."""
    files = {OC + f"{name}.js": plugin(name, "x") for name in ("LS", "MultiEdit", "TodoRead", "WebSearch")}
    suggested = sorted(f.hint for f in found(doctor(tmp_path / "p", files, given=False), "host/opencode-tool-name"))
    assert suggested[:3] == ['compare with "edit"', 'compare with "glob"', 'compare with "websearch"']
    assert suggested[3].startswith("compare with one of opencode's tool names (apply_patch, bash,")


def test_an_mcp_servers_snake_case_argument_on_tools_picked_by_prefix_is_no_mistake(tmp_path):
    """Measured on opencode 1.18.33: output.args.file_path set on fs_write_file, picked with
    input.tool.startsWith("fs_"), reached the MCP server. A prefix of opencode's own tools is theirs."""
    def by_prefix(prefix: str) -> str:
        return plugin("x", "file_path").replace('input.tool !== "x"', f'!input.tool.startsWith("{prefix}")')

    out = doctor(tmp_path / "p", {OC + "fs.js": by_prefix("fs_")}, given=False)
    assert not found(out, "host/opencode-argument-name")
    (misnamed,) = found(doctor(tmp_path / "q", {OC + "rw.js": by_prefix("rea")}, given=False),
                        "host/opencode-argument-name")
    assert misnamed.hint == "set output.args.filePath"


def test_a_table_of_handlers_by_bus_event_is_no_hook_opencode_never_calls(tmp_path):
    """Only the keys of an object a function returns are read as hooks: the plugin's own table of
    handlers, looked up by event.type, is not."""
    table = ('const handlers = {"session.idle": async () => {}, Stop: async () => {}}\n'
             'export const P = async () => ({event: async ({ event }) => handlers[event.type]?.()})\n')
    assert not found(doctor(tmp_path / "p", {OC + "t.js": table}, given=False), "host/opencode-hook-never-called")
    returned = table.replace("event: async", '"session.idle": async () => {}, Stop: async () => {}, event: async')
    keys = [f.message.split('"')[1] for f in found(doctor(tmp_path / "q", {OC + "t.js": returned}, given=False),
                                                   "host/opencode-hook-never-called")]
    assert keys == ["session.idle", "Stop"]


def test_a_throw_in_tool_execute_after_that_never_leaves_it_is_not_reported(tmp_path):
    """Only a throw that ends the hook turns the call's output into an error (measured on 1.18.33)."""
    after = ('export const P = async () => ({"tool.execute.after": async (input, output) => {\n'
             '  try { throw new Error("caught") } catch (e) { output.output += String(e) }\n'
             '  const check = () => { throw new Error("not called here") }\n'
             '  if (input.tool === "write") throw new Error("lint failed")\n}})\n')
    (thrown,) = found(doctor(tmp_path / "p", {OC + "a.js": after}, given=False), "host/opencode-after-the-call")
    assert (thrown.line, thrown.column) == (4, 31)


def test_a_helpers_table_and_a_table_the_plugin_never_returns_are_no_hooks(tmp_path):
    """Only what a plugin function (an export, or its `server`) gives back is read as hooks: a
    helper's table of handlers and an object of commands are not, nor their process.exit (found by review)."""
    factory = ('function makeHandlers(c) { return {"session.idle": async () => {}, "file.edited": async () => {}} }\n'
               'const commands = { Shutdown: async () => { process.exit(0) } }\n'
               'export const Notify = async ({ client }) => {\n  const h = makeHandlers(client);\n'
               '  return { event: async ({ event }) => h[event.type]?.(event) };\n};\n')
    out = doctor(tmp_path / "p", {OC + "factory.js": factory}, given=False)
    assert not found(out, "host/opencode-hook-never-called") and not found(out, "host/opencode-process-exit")
    served = 'export default { id: "x", server: async () => ({ PreToolUse: async () => { process.exit(2) } }) }\n'
    out = doctor(tmp_path / "q", {OC + "served.js": served}, given=False)
    assert found(out, "host/opencode-hook-never-called") and found(out, "host/opencode-process-exit")
