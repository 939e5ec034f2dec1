"""doctor reads a Node, Bun, Deno or Python guard as its runtime runs it: a throw nothing catches
exits 1 (a failed hook, not a block), a child process can write on the hook's stdout without a
print in sight (Bun's `$`, stdio "inherit"), and a read of stdin can stop at one pipe chunk.
Each bad case has a near-miss twin that must stay clean; each is marked HERE where the user
edits it."""
from __future__ import annotations

import textwrap

import pytest
from doctor_support import doctor, found

S = ".claude/settings.json"
RUNNER = {"js": "node", "mjs": "node", "ts": "bun run", "py": "python3"}
DENY_JS = ('console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",\n'
           '  permissionDecision: "deny", permissionDecisionReason: "frozen" } }));\n')
DENY_PY = ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",\n'
           '    "permissionDecision": "deny", "permissionDecisionReason": "frozen"}}))\n')
READ_JS = 'import { readFileSync } from "node:fs";\nconst input = JSON.parse(readFileSync(0, "utf8"));\n'
READ_PY = "import json, subprocess, sys\ncall = json.load(sys.stdin)\n"


def _findings(tmp_path, name: str, code: str, rule: str, **beside: str) -> list[int]:
    """The lines of `rule`'s findings on the guard `name` run by a PreToolUse hook on Write and Bash
    (with the scripts `beside` it)."""
    command = f'{RUNNER[name.rsplit(".", 1)[1]]} "$CLAUDE_PROJECT_DIR/.claude/hooks/{name}"'
    config = {"hooks": {"PreToolUse": [{"matcher": "Write|Bash", "hooks": [{"type": "command", "command": command}]}]}}
    others = {f".claude/hooks/{other}": text for other, text in beside.items()}
    outcome = doctor(tmp_path, {S: config, f".claude/hooks/{name}": textwrap.dedent(code).lstrip(), **others})
    return [f.line for f in found(outcome, rule) if f.path.endswith(name)]


def _here(code: str) -> list[int]:
    return [n for n, line in enumerate(textwrap.dedent(code).lstrip().splitlines(), 1) if "HERE" in line]


def _judged(tmp_path, name: str, bad: str, twin: str, rule: str, **beside: str) -> None:
    assert _findings(tmp_path / "bad", name, bad, rule, **beside) == _here(bad)
    assert _findings(tmp_path / "twin", name, twin, rule, **beside) == []


# ---- the status of a throw nothing catches ------------------------------------------------------------

THROWS = {
    "a custom class (Bun)": ("guard.ts", READ_JS + """\
        class PolicyViolation extends Error {}
        if (input.tool_input.command?.includes("git push --force")) {
          throw new PolicyViolation("force pushes are not allowed on this repository");  // HERE
        }
        """, READ_JS + """\
        if (input.tool_input.command?.includes("git push --force")) {
          console.error("force pushes are not allowed on this repository");
          process.exit(2);
        }
        """),
    "a string": ("guard.js", READ_JS + """\
        if (input.tool_input.command?.includes("terraform destroy")) throw "terraform destroy is blocked";  // HERE
        """, READ_JS + """\
        if (input.tool_input.command?.includes("terraform destroy")) {
          process.stderr.write("terraform destroy is blocked\\n");
          process.exitCode = 2;
        }
        """),
    "an async main whose rejection nothing handles": ("guard.mjs", READ_JS + """\
        async function main() {
          if (input.tool_input.file_path?.endsWith(".lock")) {
            throw new Error(`lockfiles are not edited by hand: ${input.tool_input.file_path}`);  // HERE
          }
        }
        main();
        """, READ_JS + """\
        async function main() {
          if (input.tool_input.file_path?.endsWith(".lock")) {
            throw new Error(`lockfiles are not edited by hand: ${input.tool_input.file_path}`);
          }
        }
        main().catch((error) => {
          console.error(error.message);
          process.exit(2);
        });
        """),
    "a helper called by a main that is caught": ("guard.mjs", READ_JS + """\
        function check(path) {
          if (path.startsWith("/etc/")) throw new Error("writing under /etc is not allowed");  // HERE
        }
        check(input.tool_input.file_path ?? "");
        """, READ_JS + """\
        function check(path) {
          if (path.startsWith("/etc/")) throw new Error("writing under /etc is not allowed");
        }
        async function main() {
          check(input.tool_input.file_path ?? "");
        }
        main().catch((error) => { console.error(error.message); process.exit(2); });
        """),
    "a handler of uncaught exceptions decides": ("guard.js", READ_JS + """\
        class Refusal extends Error {}
        if (input.tool_input.command?.startsWith("sudo ")) throw new Refusal("sudo is not allowed");  // HERE
        """, READ_JS + """\
        class Refusal extends Error {}
        process.on("uncaughtException", (error) => { console.error(error.message); process.exit(2); });
        if (input.tool_input.command?.startsWith("sudo ")) throw new Refusal("sudo is not allowed");
        """),
}


def test_a_deno_guard_is_read_by_its_own_exit(tmp_path):
    bad = READ_JS + 'if (input.tool_input.command?.includes("rm -rf")) {\n  console.error("rm -rf is not allowed");\n' \
                    "  Deno.exit(1);  // HERE\n}\n"
    _judged(tmp_path, "guard.ts", bad, bad.replace("Deno.exit(1);  // HERE", "Deno.exit(2);"), "script/exit-1-fails-open")


CHILD_PY = "import sys\nprint('blocked: no touching here', file=sys.stderr)\nsys.exit(2)\n"
DISPATCHERS = {
    "asyncio's returncode read before the child has exited": ("run.py", """\
        import asyncio, sys
        async def main():
            proc = await asyncio.create_subprocess_exec(sys.executable, "child.py")
            return proc.returncode  # HERE
        sys.exit(asyncio.run(main()))
        """, """\
        import asyncio, sys
        async def main():
            proc = await asyncio.create_subprocess_exec(sys.executable, "child.py")
            await proc.wait()
            return proc.returncode
        sys.exit(asyncio.run(main()))
        """),
    "asyncio's child never waited for": ("run.py", """\
        import asyncio, sys
        async def main():
            proc = await asyncio.create_subprocess_shell("python3 child.py")  # HERE
        asyncio.run(main())
        """, """\
        import asyncio, sys
        async def main():
            proc = await asyncio.create_subprocess_shell("python3 child.py")
            await proc.communicate()
            sys.exit(proc.returncode)
        asyncio.run(main())
        """),
    "Bun's $ without .nothrow()": ("run.ts", """\
        import { $ } from "bun";
        await $`python3 ${import.meta.dir}/child.py`;  // HERE
        """, """\
        import { $ } from "bun";
        const result = await $`python3 ${import.meta.dir}/child.py`.nothrow();
        process.exit(result.exitCode);
        """),
    "zx's $ without .nothrow()": ("run.mjs", """\
        import { $ } from "zx";
        await $`python3 ${import.meta.dirname}/child.py`;  // HERE
        """, """\
        import { $ } from "zx";
        $.nothrow = true;
        process.exit((await $`python3 ${import.meta.dirname}/child.py`).exitCode);
        """),
    "Bun's $ with .nothrow(), its exitCode unread": ("run.ts", """\
        import { $ } from "bun";
        await $`python3 ${import.meta.dir}/child.py`.nothrow();  // HERE
        """, """\
        import { $ } from "bun";
        process.exitCode = (await $`python3 ${import.meta.dir}/child.py`.nothrow()).exitCode;
        """),
    "spawnSync with a timeout, its null status passed on": ("run.js", """\
        const { spawnSync } = require("child_process");
        const child = spawnSync("python3", [__dirname + "/child.py"], { stdio: "inherit", timeout: 5000 });
        process.exit(child.status);  // HERE
        """, """\
        const { spawnSync } = require("child_process");
        const child = spawnSync("python3", [__dirname + "/child.py"], { stdio: "inherit", timeout: 5000 });
        process.exit(child.status ?? 1);
        """),
    "Node maps the child's status to 0 or 1": ("run.js", """\
        const { spawnSync } = require("child_process");
        const result = spawnSync("python3", [__dirname + "/child.py"], { stdio: "inherit" });
        process.exit(result.status === 0 ? 0 : 1);  // HERE
        """, """\
        const { spawnSync } = require("child_process");
        const result = spawnSync("python3", [__dirname + "/child.py"], { stdio: "inherit" });
        process.exit(result.status ?? 1);
        """),
    "Node's exit handler maps the code": ("run.js", """\
        const { spawn } = require("child_process");
        const child = spawn("python3", [__dirname + "/child.py"], { stdio: "inherit" });
        child.on("exit", (code) => {
          if (code !== 0) process.exit(1);  // HERE
        });
        """, """\
        const { spawn } = require("child_process");
        const child = spawn("python3", [__dirname + "/child.py"], { stdio: "inherit" });
        child.on("exit", (code) => process.exit(code ?? 1));
        """),
    "Python's check=True uncaught": ("run.py", """\
        import os, subprocess, sys
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "child.py")], check=True)  # HERE
        """, """\
        import os, subprocess, sys
        sys.exit(subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "child.py")]).returncode)
        """),
    "Python's CalledProcessError handler exits 1": ("run.py", """\
        import os, subprocess, sys
        try:
            subprocess.check_call([sys.executable, os.path.join(os.path.dirname(__file__), "child.py")])
        except subprocess.CalledProcessError:  # HERE
            sys.exit(1)
        """, """\
        import os, subprocess, sys
        try:
            subprocess.check_call([sys.executable, os.path.join(os.path.dirname(__file__), "child.py")])
        except subprocess.CalledProcessError as error:
            sys.exit(error.returncode)
        """),
    "Python maps every failure to 1": ("run.py", """\
        import os, subprocess, sys
        rc = subprocess.call([sys.executable, os.path.join(os.path.dirname(__file__), "child.py")])
        if rc != 0:
            sys.exit(1)  # HERE
        """, """\
        import os, subprocess, sys
        rc = subprocess.call([sys.executable, os.path.join(os.path.dirname(__file__), "child.py")])
        if rc != 0:
            sys.exit(rc)
        """),
    "Bun.spawn whose exited is not awaited": ("run.ts", """\
        const proc = Bun.spawn(["python3", `${import.meta.dir}/child.py`], { stdin: "inherit", stderr: "inherit" });
        process.exit(proc.exitCode ?? 0);  // HERE
        """, """\
        const proc = Bun.spawn(["python3", `${import.meta.dir}/child.py`], { stdin: "inherit", stderr: "inherit" });
        process.exit(await proc.exited);
        """),
}


# ---- a child's output on the hook's stdout ---------------------------------------------------------

CHILDREN = {
    "Bun's $ without .quiet()": ("guard.ts", 'import { $ } from "bun";\n' + READ_JS + """\
        const result = await $`git -C ${input.cwd} branch --show-current`.nothrow();  // HERE
        if (result.stdout.toString().trim() === "main") {
        """ + DENY_JS + "}\n", 'import { $ } from "bun";\n' + READ_JS + """\
        const result = await $`git -C ${input.cwd} branch --show-current`.nothrow().quiet();
        if (result.stdout.toString().trim() === "main") {
        """ + DENY_JS + "}\n"),
    "Bun.$ of a program that prints": ("guard.ts", READ_JS + """\
        await Bun.$`git log -1 --oneline`;  // HERE
        """ + DENY_JS, READ_JS + """\
        const behind = await Bun.$`git rev-list --count HEAD..origin/main`.text();
        """ + DENY_JS),
    "Bun's $ renamed": ("guard.ts", 'import { $ as sh } from "bun";\n' + READ_JS + """\
        await sh`git status --short`;  // HERE
        """ + DENY_JS, 'import { $ as sh } from "bun";\n' + READ_JS + """\
        await sh`git status --short > /dev/null`;
        """ + DENY_JS),
    "Node's execSync with stdio inherit": ("guard.js", READ_JS.replace("import { readFileSync } from \"node:fs\"",
                                                                       "const { readFileSync } = require(\"fs\")") + """\
        const { execSync } = require("child_process");
        execSync("git pull --ff-only", { stdio: "inherit" });  // HERE
        """ + DENY_JS, READ_JS.replace("import { readFileSync } from \"node:fs\"",
                                       "const { readFileSync } = require(\"fs\")") + """\
        const { execSync } = require("child_process");
        execSync("git pull --ff-only", { stdio: ["ignore", "pipe", "inherit"] });
        """ + DENY_JS),
    "Bun.spawn with stdout inherit": ("guard.ts", READ_JS + """\
        await Bun.spawn(["git", "status"], { stdout: "inherit" }).exited;  // HERE
        """ + DENY_JS, READ_JS + """\
        await Bun.spawn(["git", "status"]).exited;
        """ + DENY_JS),
    "console.debug (stdout, as console.dir and console.table)": ("guard.mjs", READ_JS + """\
        console.debug("checking", input.tool_name);  // HERE
        """ + DENY_JS, READ_JS + """\
        console.warn("checking", input.tool_name);
        """ + DENY_JS),
    "a rich Console": ("guard.py", READ_PY.replace("import json", "from rich.console import Console\nimport json") + \
                       'Console().print(f"checking {call[\'tool_name\']}")  # HERE\n' + DENY_PY,
                       READ_PY.replace("import json", "from rich.console import Console\nimport json") + \
                       'Console(stderr=True).print(f"checking {call[\'tool_name\']}")\n' + DENY_PY),
    "a rich Console kept in a name": ("guard.py", READ_PY + 'from rich.console import Console\nconsole = Console()\n'
                                      'console.log("checking", call["tool_name"])  # HERE\n' + DENY_PY,
                                      READ_PY + 'from rich.console import Console\nconsole = Console(stderr=True)\n'
                                      'console.log("checking", call["tool_name"])\n' + DENY_PY),
    "Python's pprint": ("guard.py", READ_PY.replace("import json", "import json, pprint") + \
                        'pprint.pprint(call["tool_input"])  # HERE\n' + DENY_PY,
                        READ_PY.replace("import json", "import json, pprint") + \
                        'pprint.pprint(call["tool_input"], stream=sys.stderr)\n' + DENY_PY),
    "click.echo": ("guard.py", READ_PY.replace("import json", "import click, json") + \
                   'click.echo(f"checking {call[\'tool_name\']}")  # HERE\n' + DENY_PY,
                   READ_PY.replace("import json", "import click, json") + \
                   'click.echo(f"checking {call[\'tool_name\']}", err=True)\n' + DENY_PY),
    "Python's Popen": ("guard.py", READ_PY + 'subprocess.Popen(["git", "status"]).wait()  # HERE\n' + DENY_PY,
                       READ_PY + 'subprocess.Popen(["git", "status"], stdout=subprocess.DEVNULL).wait()\n' + DENY_PY),
    "Python's stdout=sys.stdout": ("guard.py", READ_PY + 'subprocess.run(["git", "status"], stdout=sys.stdout)  # HERE\n'
                                   + DENY_PY, READ_PY + 'subprocess.run(["git", "status"], stdout=sys.stderr)\n' + DENY_PY),
}


def test_a_dispatcher_that_lets_its_guard_answer_on_the_inherited_stdout_is_not_text(tmp_path):
    code = READ_JS + 'const { execSync } = require("child_process");\n' \
                     'execSync("node ./guards/no-secrets.js", { stdio: "inherit" });\n' + DENY_JS
    assert _findings(tmp_path, "guard.js", code, "script/text-before-json") == []


# ---- stdin read in part ----------------------------------------------------------------------------

PARTIAL = {
    "the first chunk": ("guard.js", """\
        process.stdin.once("data", (chunk) => {  // HERE
          const input = JSON.parse(chunk.toString("utf8"));
          if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        });
        """, """\
        const chunks = [];
        process.stdin.on("data", (chunk) => chunks.push(chunk));
        process.stdin.on("end", () => {
          const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        });
        """),
    "each chunk parsed": ("guard.js", """\
        process.stdin.on("data", (data) => {  // HERE
          const input = JSON.parse(data);
          if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        });
        """, """\
        let data = "";
        process.stdin.on("data", (chunk) => { data += chunk; });
        process.stdin.on("end", () => {
          const input = JSON.parse(data);
          if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        });
        """),
    "for await, one chunk": ("guard.mjs", """\
        for await (const chunk of process.stdin) {  // HERE
          const input = JSON.parse(chunk);
          if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        }
        """, """\
        let text = "";
        for await (const chunk of process.stdin) {
          text += chunk;
        }
        const input = JSON.parse(text);
        if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        """),
    "one readSync": ("guard.js", """\
        const fs = require("fs");
        const buffer = Buffer.alloc(1 << 20);
        const size = fs.readSync(0, buffer, 0, buffer.length, null);  // HERE
        const input = JSON.parse(buffer.toString("utf8", 0, size));
        if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        """, """\
        const fs = require("fs");
        const input = JSON.parse(fs.readFileSync(0, "utf8"));
        if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        """),
    "one read of Bun's stream": ("guard.ts", """\
        const reader = Bun.stdin.stream().getReader();
        const { value } = await reader.read();  // HERE
        const input = JSON.parse(new TextDecoder().decode(value));
        if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        """, """\
        const input = await Bun.stdin.json();
        if (input.tool_input.content?.includes("BEGIN PRIVATE KEY")) process.exit(2);
        """),
    "Python's os.read": ("guard.py", """\
        import json, os, sys
        call = json.loads(os.read(0, 1 << 20))  # HERE
        if "BEGIN PRIVATE KEY" in call["tool_input"].get("content", ""):
            sys.exit(2)
        """, """\
        import json, os, sys
        raw = b""
        while chunk := os.read(0, 65536):
            raw += chunk
        call = json.loads(raw)
        if "BEGIN PRIVATE KEY" in call["tool_input"].get("content", ""):
            sys.exit(2)
        """),
    "Python's read(N)": ("guard.py", """\
        import json, sys
        call = json.loads(sys.stdin.read(65536))  # HERE
        if "BEGIN PRIVATE KEY" in call["tool_input"].get("content", ""):
            sys.exit(2)
        """, """\
        import json, sys
        call = json.loads(sys.stdin.read())
        if "BEGIN PRIVATE KEY" in call["tool_input"].get("content", ""):
            sys.exit(2)
        """),
}


# each table's forms: the rule that finds the broken one
TABLES = {"script/exit-1-fails-open": THROWS,  # a throw nothing catches exits 1
          "delivery/exit-2-lost": DISPATCHERS,  # the runtime loses the child's 2
          "script/text-before-json": CHILDREN,  # a child's output is the hook's stdout
          "script/stdin-read-partly": PARTIAL}  # a read of stdin stops at one chunk
FORMS = [(rule, case) for rule, table in TABLES.items() for case in table]


@pytest.mark.parametrize("rule, case", FORMS, ids=[f"{rule}: {case}" for rule, case in FORMS])
def test_each_runtime_form_is_found_where_the_user_edits_it_and_its_near_miss_twin_stays_clean(tmp_path, rule, case):
    name, bad, twin = TABLES[rule][case]
    _judged(tmp_path, name, bad, twin, rule, **{"child.py": CHILD_PY})


@pytest.mark.parametrize("language", ["python", "node"])
def test_an_assert_that_refuses_exits_1_and_fails_open(tmp_path, language):
    if language == "python":
        bad = READ_PY + 'assert "rm -rf" not in call["tool_input"]["command"], "rm -rf is not allowed"  # HERE\n'
        twin = READ_PY + ('if "rm -rf" in call["tool_input"]["command"]:\n'
                          '    print("rm -rf is not allowed", file=sys.stderr)\n    sys.exit(2)\n')
        _judged(tmp_path, "guard.py", bad, twin, "script/exit-1-fails-open")
        return
    head = 'const assert = require("node:assert");\nconst input = JSON.parse(require("fs").readFileSync(0, "utf8"));\n'
    bad = head + 'assert.ok(!input.tool_input.command.includes("rm -rf"), "rm -rf is not allowed");  // HERE\n'
    twin = head + ('try {\n  assert.ok(!input.tool_input.command.includes("rm -rf"), "rm -rf is not allowed");\n'
                   '} catch (error) {\n  console.error(error.message);\n  process.exit(2);\n}\n')
    _judged(tmp_path, "guard.js", bad, twin, "script/exit-1-fails-open")


# ---- a module of the guard's own that writes on stdout ------------------------------------------------

LOGGING_MODULE = "import logging, sys\nlogging.basicConfig(%s)  # HERE\nlog = logging.getLogger('hooks')\n"
LOGGING_GUARD = READ_PY.replace("import json", "from hooklog import log\nimport json") + \
    'log.info("checking %s", call["tool_name"])\nif "rm -rf" in call["tool_input"]["command"]:\n    ' + DENY_PY
NODE_LIB = ('%s("policy library loaded");  // HERE\nexport function deny(reason) {\n'
            '  console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",\n'
            '    permissionDecision: "deny", permissionDecisionReason: reason } }));\n}\n')
NODE_GUARD = 'import { deny } from "./lib.mjs";\n' + READ_JS + 'if (input.tool_input.command.includes("rm -rf")) deny("no");\n'


@pytest.mark.parametrize("language", ["python logging", "node print"])
def test_a_module_the_guard_imports_that_writes_on_stdout_is_found_at_its_own_line(tmp_path, language):
    if language == "python logging":
        name, guard, module, bad, twin = "guard.py", LOGGING_GUARD, "hooklog.py", \
            LOGGING_MODULE % "stream=sys.stdout, level=logging.INFO", LOGGING_MODULE % "level=logging.INFO"
    else:
        name, guard, module, bad, twin = "guard.mjs", NODE_GUARD, "lib.mjs", NODE_LIB % "console.log", \
            NODE_LIB % "console.error"
    for side, text in (("bad", bad), ("twin", twin)):
        command = f'{RUNNER[name.rsplit(".", 1)[1]]} "$CLAUDE_PROJECT_DIR/.claude/hooks/{name}"'
        config = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}
        outcome = doctor(tmp_path / side, {S: config, f".claude/hooks/{name}": guard, f".claude/hooks/{module}": text})
        hits = [(f.path.rsplit("/", 1)[1], f.line) for f in found(outcome, "script/text-before-json")]
        assert hits == ([(module, _here(text)[0])] if side == "bad" else [])


ANSWER_JS = '{ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } }'


@pytest.mark.parametrize("bad, twin", [
    (READ_JS + f"console.log({ANSWER_JS});  // HERE\n", READ_JS + f"console.log(JSON.stringify({ANSWER_JS}));\n"),
    (READ_JS + f"const answer = {ANSWER_JS};\nif (input.tool_name === \"Bash\") console.info(answer);  // HERE\n",
     READ_JS + f"const answer = {ANSWER_JS};\nif (input.tool_name === \"Bash\") console.info(JSON.stringify(answer));\n"
     "console.error({ checked: input.tool_name });\n"),
], ids=["a literal", "a name declared with one"])
def test_an_answer_object_console_log_prints_in_javascripts_notation_is_found_and_its_stringified_twin_is_not(
        tmp_path, bad, twin):
    _judged(tmp_path, "guard.mjs", bad, twin, "script/answer-not-json")
