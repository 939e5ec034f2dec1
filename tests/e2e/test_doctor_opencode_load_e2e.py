"""A plugin opencode never loads, and two plugins of one folder in the order opencode runs them:
each bad plugin beside its corrected twin in one session of the real opencode 1.18.33. The bad
one lets its call run, the twin refuses its own; doctor flags each bad plugin at the line marked
`// flagged`, and no twin.

- `test_a_plugin_that_fails_to_load_guards_nothing`: an import no node_modules holds (a package,
  a relative file), and a file read at start-up by a path relative to opencode's working folder
  (the project) where the file sits elsewhere, in the plugin function and at the module's top
  level (the one logs an ERROR line, the other nothing); the twins import a package in `.opencode/node_modules` or the project's, a file that is
  there, and read their files through `directory` or `import.meta.url`, or one at the project root.
- in the same session, a plugin's hooks nested under another key of the object it returns; the
  twin returns its hooks through a name. A plugin function with a body and no return breaks
  every prompt (`test_a_plugin_function_that_returns_nothing_fails_every_prompt`).
- `test_a_rewrite_run_first_in_one_folder_defeats_an_anchored_guard`: inside one plugins folder
  opencode runs the files in the reverse of the order the filesystem lists them; the roles are
  given once the listing is known, so a wrapper (`timeout 60 bash -lc "..."`) runs before the guard
  whose `^touch` it defeats, and another guard runs before the wrapper of its own command.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from opencode_cli import flagged_lines, marked_lines, run_opencode, write_plugins

pytestmark = pytest.mark.e2e

BEFORE = ('export const P = async ({ directory }) => {\n%s  return {\n'
          '    "tool.execute.before": async (input, output) => {\n'
          '      if (input.tool === "bash" && String(output.args.command).includes("touch %s")) %s\n'
          '    },\n  }\n}\n')


def _guard(name: str, before: str = "", refusal: str = "") -> str:
    return BEFORE % (before, name, refusal or f'throw new Error("refused {name}")')


LOAD = {
    "import-bad.js": 'import rules from "hw-not-installed"  // flagged\n' + _guard("a1.txt"),
    "import-twin.js": 'import rules from "hw-installed"\n' + _guard("a2.txt", refusal='throw new Error(rules("a2.txt"))'),
    "import-root-twin.ts": 'import rules from "hw-at-root"\n' + _guard("a3.txt", refusal='throw new Error(rules("a3.txt"))'),
    "relative-bad.js": 'import { rule } from "./lib/gone.js"  // flagged\n' + _guard("a4.txt"),
    "relative-twin.js": 'import { rule } from "./lib/rule.js"\n' + _guard("a5.txt", refusal='throw new Error(rule("a5.txt"))'),
    "startup-bad.js": 'import { readFileSync } from "node:fs"\n' + _guard(
        "a6.txt", '  const policy = JSON.parse(readFileSync("policy.json", "utf8"))  // flagged\n'),
    "startup-twin.js": 'import { readFileSync } from "node:fs"\nimport { join } from "node:path"\n' + _guard(
        "a7.txt", '  const policy = JSON.parse(readFileSync(join(directory, ".opencode", "policy.json"), "utf8"))\n'),
    "toplevel-bad.js": 'import fs from "node:fs"\nconst WORDS = fs.readFileSync(".opencode/words.txt", "utf8")\n'
                       'const RULES = fs.readFileSync("rules.txt", "utf8")  // flagged\n' + _guard("a8.txt"),
    "toplevel-twin.js": 'import fs from "node:fs"\nconst RULES = fs.readFileSync(new URL("../rules.txt", import.meta.url), "utf8")\n'
                        + _guard("a9.txt"),
    "root-twin.js": 'import { readFileSync } from "node:fs"\n' + _guard(
        "a10.txt", '  const policy = readFileSync("root-policy.json", "utf8")\n'),
    "nested-bad.js": ('export const P = async () => ({\n  hooks: {\n'
                      '    "tool.execute.before": async (input, output) => {  // flagged\n'
                      '      if (String(output.args.command).includes("touch a11.txt")) throw new Error("refused a11.txt")\n'
                      '    },\n  },\n})\n'),
    "returned-twin.js": ('export const P = async () => {\n  const hooks = {\n'
                         '    "tool.execute.before": async (input, output) => {\n'
                         '      if (String(output.args.command).includes("touch a12.txt")) throw new Error("refused a12.txt")\n'
                         '    },\n  }\n  return hooks\n}\n'),
}
LOAD_RULES = {"nested-bad.js": "host/opencode-hook-never-called",
              "import-bad.js": "host/opencode-plugin-import-missing",
              "relative-bad.js": "host/opencode-plugin-import-missing",
              "startup-bad.js": "host/opencode-plugin-throws-at-load", "toplevel-bad.js": "host/opencode-plugin-throws-at-load"}


def _package(folder: Path, name: str) -> None:
    (folder / name).mkdir(parents=True)
    (folder / name / "package.json").write_text(json.dumps({"name": name, "main": "index.js"}))
    (folder / name / "index.js").write_text('module.exports = (what) => `refused ${what}`\n')


def _bash(name: str) -> dict:
    return {"tool": "bash", "input": {"command": f"touch {name} && echo RAN {name}", "description": name}}


def test_a_plugin_that_fails_to_load_guards_nothing(opencode_cli, home, project):
    config = project / ".opencode"
    write_plugins(config / "plugins", LOAD)
    write_plugins(config / "plugins" / "lib", {"rule.js": "export const rule = (what) => `refused ${what}`\n"})
    _package(config / "node_modules", "hw-installed")
    _package(project / "node_modules", "hw-at-root")
    (config / "policy.json").write_text('{"denied": []}\n')
    (config / "rules.txt").write_text("no\n")
    (config / "words.txt").write_text("no\n")
    (project / "root-policy.json").write_text("{}\n")
    names = [f"a{n}.txt" for n in range(1, 13)]
    run = run_opencode(project, home, [*map(_bash, names), "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    results = [result["content"] for result in run.tool_results]
    assert len(results) == len(names)
    for plugin, name, result in zip(LOAD, names, results):
        if "-bad" in plugin:
            assert (project / name).exists() and f"RAN {name}" in result, plugin
        else:
            assert not (project / name).exists() and f"refused {name}" in result, plugin
    # what opencode says of each: a throw in the plugin function is an ERROR line; a throw while the
    # module is imported, or an import that resolves nowhere, nothing at all
    failed = [line for line in run.stderr.splitlines() if "failed to load plugin" in line]
    assert any("startup-bad.js" in line and "ENOENT" in line for line in failed), failed
    said = [line for line in run.stderr.splitlines() if "level=ERROR" in line or "level=WARN" in line]
    assert not [line for line in said for name in ("import-bad", "relative-bad", "toplevel-bad", "hw-not-installed")
                if name in line], said
    assert flagged_lines(home, project, set(LOAD_RULES.values())) == marked_lines(LOAD, LOAD_RULES)


NO_RETURN = {"noreturn-bad.js": ('export const P = async () => {\n  const hooks = {\n'
                                 '    "tool.execute.before": async (input, output) => {  // flagged\n'
                                 '      if (String(output.args.command).includes("touch c1.txt")) throw new Error("no")\n'
                                 '    },\n  }\n}\n')}


def test_a_plugin_function_that_returns_nothing_fails_every_prompt(opencode_cli, home, project):
    """Its twin is every plugin above that returns its hooks."""
    write_plugins(project / ".opencode" / "plugins", NO_RETURN)
    run = run_opencode(project, home, [_bash("c1.txt"), "done"])
    assert run.returncode == 1 and not run.tool_results and not (project / "c1.txt").exists(), run.stderr[-2000:]
    assert "undefined is not an object" in run.stderr and "Plugin.trigger" in run.stderr
    rule = "host/opencode-hook-never-called"
    assert flagged_lines(home, project, {rule}) == marked_lines(NO_RETURN, {"noreturn-bad.js": rule})


def _wrapper(name: str) -> str:
    return ('export const Wrap = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
            '    if (input.tool !== "bash") return\n    const cmd = output.args.command ?? ""\n'
            f'    if (cmd.startsWith("timeout ") || !cmd.includes("{name}")) return\n'
            '    output.args.command = `timeout 60 bash -lc ${JSON.stringify(cmd)}`\n  },\n})\n')


def _anchored(name: str, flagged: bool) -> str:
    pattern = name.replace(".", "\\.")
    return ('export const Guard = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
            '    if (input.tool !== "bash") return\n'
            f'    if (/^touch {pattern}/.test(output.args.command ?? "")) throw new Error("refused {name}")'
            + ('  // flagged' if flagged else '') + '\n  },\n})\n')


def test_a_rewrite_run_first_in_one_folder_defeats_an_anchored_guard(opencode_cli, home, project):
    folder = project / ".opencode" / "plugins"
    write_plugins(folder, {f"p{n}.js": "" for n in range(1, 5)})
    # the order opencode runs them in: the reverse of the listing (docs/hosts/opencode.md#load-order)
    first, second, third, fourth = [name for name in reversed(os.listdir(folder)) if name.startswith("p")]
    files = {first: _anchored("b2.txt", False), second: _wrapper("b1.txt"), third: _anchored("b1.txt", True),
             fourth: _wrapper("b2.txt")}
    write_plugins(folder, files)
    run = run_opencode(project, home, [_bash("b1.txt"), _bash("b2.txt"), "done"])
    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    wrapped, refused = [result["content"] for result in run.tool_results]
    commands = [part["input"]["command"] for part in run.tool_parts()]
    assert (project / "b1.txt").exists() and "RAN b1.txt" in wrapped, commands
    assert not (project / "b2.txt").exists() and "refused b2.txt" in refused
    rule = "host/opencode-rewritten-before-check"
    assert flagged_lines(home, project, {rule}) == marked_lines(files, {third: rule})


def test_a_packages_plugins_load_only_in_a_session_started_in_the_package(opencode_cli, home, project):
    """opencode reads opencode.json and the .opencode folders from the folder it starts in up to
    the git root, never below: a package's guard and the plugin its opencode.json lists let their
    calls run in a session started at the root, where the root's own guard refuses its call; in a
    session started in the package all three refuse. doctor, run at the root, names the package's
    two files (structure/settings-not-read), not the root's guard."""
    from claude_cli import hookwright
    from conftest import git
    from opencode_cli import seed_config_folder

    git(project, "init", "-q")
    package = project / "packages" / "web"
    write_plugins(project / ".opencode" / "plugins", {"root-guard.js": _guard("b2.txt")})
    seed_config_folder(package / ".opencode")
    write_plugins(package / ".opencode" / "plugins", {"package-guard.js": _guard("b1.txt")})
    write_plugins(package / "guards", {"listed.js": _guard("b3.txt")})
    (package / "opencode.json").write_text(json.dumps({"plugin": ["./guards/listed.js"]}))
    names = ["b1.txt", "b2.txt", "b3.txt"]

    at_root = run_opencode(project, home, [*map(_bash, names), "done"])  # (it rewrites the root's opencode.json only)
    doctor = hookwright("doctor", "--json", home=home, project=project, env={"XDG_CONFIG_HOME": None})
    in_package = run_opencode(package, home, [*map(_bash, names), "done"], config={"plugin": ["./guards/listed.js"]})

    assert [(project / name).exists() for name in names] == [True, False, True], at_root.stderr[-2000:]
    assert [(package / name).exists() for name in names] == [False, False, False], in_package.stderr[-2000:]
    unread = sorted(Path(f["path"]).name for f in json.loads(doctor.stdout)["findings"]
                    if f["rule"] == "structure/settings-not-read")
    assert unread == ["opencode.json", "package-guard.js"]
