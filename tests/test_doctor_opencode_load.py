"""Plugins opencode never loads (measured on opencode 1.18.33: tests/e2e/test_doctor_opencode_load_e2e.py,
docs/hosts/opencode.md#broken-plugins): an import that resolves nowhere, and a file read at load by a
path relative to opencode's working folder (the project) where it is not. Each bad plugin beside its
twin; the finding sits at the import or the read."""
from __future__ import annotations

import pytest
from doctor_support import found, write
from hookwright.doctor.run import run

HOOKS = ('export const P = async ({ directory }) => {\nLOAD  return {\n    "tool.execute.before": async (input, output) => {\n'
         '      if (input.tool === "bash" && String(output.args.command).includes("rm -rf")) throw new Error("no")\n'
         '    },\n  }\n}\n')


def _plugin(head: str = "", load: str = "") -> str:
    return head + HOOKS.replace("LOAD", load)


def _findings(project, files, rule):
    write(project, {".git/HEAD": "ref: refs/heads/main\n", **files})
    return [(f.path.rsplit("/", 1)[-1], f.line) for f in found(run(None, project=project), rule)]


MISSING = "host/opencode-plugin-import-missing"


@pytest.mark.parametrize("head, load, line", [
    ('import picomatch from "picomatch"\n', "", 1),
    ('import { minimatch } from "minimatch/dist/esm/index.js"\n', "", 1),
    ('const ini = require("js-yaml")\n', "", 1),
    ("", '  const { rules } = await import("./lib/rules.js")\n', 2),
    ('import policy from "../policy.json"\n', "", 1),
])
def test_an_import_that_resolves_nowhere_is_found_at_the_import(project, head, load, line):
    assert _findings(project, {".opencode/plugins/p.js": _plugin(head, load)}, MISSING) == [("p.js", line)]


@pytest.mark.parametrize("head, load, more", [
    ('import picomatch from "picomatch"\n', "", {".opencode/node_modules/picomatch/index.js": "module.exports = 1\n"}),
    ('import picomatch from "picomatch"\n', "", {"node_modules/picomatch/index.js": "module.exports = 1\n"}),
    ('import picomatch from "picomatch"\n', "", {".opencode/package.json": '{"dependencies": {"picomatch": "^4"}}'}),
    ('import { readFileSync } from "node:fs"\nimport os from "os"\nimport { tool } from "@opencode-ai/plugin"\n', "", {}),
    ("", '  const { rules } = await import("./lib/rules.js")\n', {".opencode/plugins/lib/rules.ts": "export const rules = []\n"}),
    ('import policy from "../policy.json"\n', "", {".opencode/policy.json": "{}"}),
    ('import type { Plugin } from "@acme/types"\n', "", {}),
    ("", '  try { await import("optional-pkg") } catch {}\n', {}),
])
def test_an_import_bun_resolves_or_drops_is_quiet(project, head, load, more):
    assert _findings(project, {".opencode/plugins/p.js": _plugin(head, load), **more}, MISSING) == []


def test_a_typescript_import_used_as_a_type_alone_is_dropped_and_quiet(project):
    typed = 'import { Rules } from "@acme/rules"\nconst RULES: Rules = []\n'
    used = 'import { rules } from "@acme/rules"\nconst RULES = rules()\n'
    assert _findings(project, {".opencode/plugins/p.ts": _plugin(typed)}, MISSING) == []
    assert _findings(project, {".opencode/plugins/q.ts": _plugin(used)}, MISSING) == [("q.ts", 1)]


def test_a_plugin_copied_out_of_its_project_and_named_alone_is_judged_for_its_code_only(tmp_path):
    write(tmp_path, {"copied.js": _plugin('import picomatch from "picomatch"\n')})
    assert not found(run([tmp_path / "copied.js"], project=tmp_path), MISSING)


THROWS = "host/opencode-plugin-throws-at-load"


@pytest.mark.parametrize("head, load, line", [
    ("", '  const policy = JSON.parse(require("fs").readFileSync("policy.json", "utf8"))\n', 2),
    ('import fs from "node:fs"\nconst RULES = fs.readFileSync("rules.txt", "utf8")\n', "", 2),
    ('import path from "node:path"\nimport fs from "node:fs"\n',
     '  const rules = fs.readFileSync(path.join(process.cwd(), "rules.txt"), "utf8")\n', 4),
    ("", '  const policy = await Bun.file("policy.json").json()\n', 2),
    ('import { readFile } from "node:fs/promises"\n', '  const policy = await readFile("policy.json", "utf8")\n', 3),
])
def test_a_file_read_at_load_where_the_working_folder_has_none_is_found_at_the_read(project, head, load, line):
    files = {".opencode/plugins/p.js": _plugin(head, load), ".opencode/policy.json": "{}", ".opencode/rules.txt": "x"}
    assert _findings(project, files, THROWS) == [("p.js", line)]


@pytest.mark.parametrize("head, load", [
    ("", '  const policy = JSON.parse(require("fs").readFileSync(`${directory}/.opencode/policy.json`, "utf8"))\n'),
    ('import fs from "node:fs"\nconst RULES = fs.readFileSync(new URL("../rules.txt", import.meta.url), "utf8")\n', ""),
    ('import fs from "node:fs"\nconst RULES = fs.readFileSync(".opencode/rules.txt", "utf8")\n', ""),
    ('import fs from "node:fs"\nconst RULES = fs.existsSync("rules.txt") ? fs.readFileSync("rules.txt", "utf8") : ""\n', ""),
    ('import fs from "node:fs"\nlet RULES = ""\ntry { RULES = fs.readFileSync("rules.txt", "utf8") } catch {}\n', ""),
    ("", '  const policy = await Bun.file("at-root.json").json()\n'),
])
def test_a_file_read_at_load_that_is_there_or_cannot_throw_is_quiet(project, head, load):
    files = {".opencode/plugins/p.js": _plugin(head, load), ".opencode/policy.json": "{}", ".opencode/rules.txt": "x",
             "at-root.json": "{}"}
    assert _findings(project, files, THROWS) == []


def test_a_read_inside_a_hook_is_not_one_at_load(project):
    load = HOOKS.replace('if (input.tool', 'const p = require("fs").readFileSync("policy.json", "utf8")\n      if (input.tool')
    assert _findings(project, {".opencode/plugins/p.js": load.replace("LOAD", "")}, THROWS) == []


def test_the_finding_says_where_the_file_is_and_which_line_opencode_logs(project):
    files = {".opencode/plugins/p.js": _plugin("", '  const p = require("fs").readFileSync("policy.json", "utf8")\n'),
             ".opencode/policy.json": "{}"}
    write(project, files)
    (finding,) = found(run(None, project=project), THROWS)
    assert ".opencode/policy.json is there" in finding.message and "failed to load plugin" in finding.message
    assert 'join(directory, ".opencode/policy.json")' in finding.hint


@pytest.mark.parametrize("package", ["yaml", "zod", "effect", "@opencode-ai/sdk"])
def test_a_package_opencode_installs_with_its_plugin_sdk_is_quiet(project, package):
    code = _plugin(f'import * as lib from "{package}"\n')
    assert _findings(project, {".opencode/plugins/p.js": code}, MISSING) == []
