"""Guards whose refusal the real Claude Code never receives because of what their runtime does on
its own (Node, Bun, Python), and their corrected twins, all in one session each.

A throw nothing catches (or a rejection nothing handles) exits 1; Bun's `$`, a child with stdio
"inherit" and Python's Popen print the child's output before the deny JSON; Bun's `$` turns a
child's exit 2 into a ShellError (exit 1); a Bun.spawn whose `exited` is not awaited has no
status yet (exit 0); spawnSync's status is null when its timeout kills the
child, and process.exit(null) exits 0; a read of stdin that takes one chunk cuts a large Write's
payload (80 KB for Node's first chunk, 300 KB for one os.read of 64 KB, which no read exceeds:
one of 1 MB once took the whole payload on a busy machine), so the parse fails and the guard lets
it through. Bun runs as opencode's own
executable (a Bun build: BUN_BE_BUN=1). The broken project lets each marked call run, the twin
project refuses each; doctor flags each broken guard at the line marked `HERE` and no twin.
What the host did is recorded in docs/hosts/claude-code.md#what-a-runtime-does-on-its-own.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, run_claude

pytestmark = pytest.mark.e2e

NODE_HEAD = """\
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
if (!input.tool_input.command.includes("touch ran-%s.txt")) process.exit(0);
"""
BUN_HEAD = """\
import { $ } from "bun";
const input = await Bun.stdin.json();
if (!input.tool_input.command.includes("touch ran-%s.txt")) process.exit(0);
"""
PY_HEAD = """\
import json, subprocess, sys
call = json.load(sys.stdin)
if "touch ran-%s.txt" not in call["tool_input"]["command"]:
    sys.exit(0)
"""
DENY_JS = ('console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",\n'
           '  permissionDecision: "deny", permissionDecisionReason: "no touching here" } }));\n')
DENY_PY = ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",\n'
           '    "permissionDecision": "deny", "permissionDecisionReason": "no touching here"}}))\n')
CHILD = "import sys\nprint('Blocked: no touching here', file=sys.stderr)\nsys.exit(2)\n"  # child.py
SLOW_CHILD = "import sys, time\ntime.sleep(5)\nprint('Blocked: no touching here', file=sys.stderr)\nsys.exit(2)\n"  # slow.py: killed by its dispatcher's timeout

# name: (file, the broken guard's code after its head, its twin's), each refusing `touch ran-NAME.txt`
GATES = {
    "throw": ("throw.js", NODE_HEAD, (
        'class PolicyViolation extends Error {}\nthrow new PolicyViolation("no touching here");  // HERE\n',
        'console.error("no touching here");\nprocess.exit(2);\n')),
    "rejection": ("rejection.mjs", NODE_HEAD.replace('require("fs")', '(await import("node:fs"))'), (
        'async function main() {\n  throw new Error("touching is not allowed here");  // HERE\n}\nmain();\n',
        'async function main() {\n  throw new Error("touching is not allowed here");\n}\n'
        'main().catch((error) => { console.error(error.message); process.exit(2); });\n')),
    "bun_shell": ("bun_shell.ts", BUN_HEAD, (
        "const top = await $`git rev-parse --show-toplevel`.nothrow();  // HERE\n" + DENY_JS,
        "const top = await $`git rev-parse --show-toplevel`.nothrow().quiet();\n" + DENY_JS)),
    "bun_dispatch": ("bun_dispatch.ts", BUN_HEAD, (
        "await $`python3 ${import.meta.dir}/child.py`;  // HERE\n",
        "const result = await $`python3 ${import.meta.dir}/child.py`.nothrow();\nprocess.exit(result.exitCode);\n")),
    "bun_spawn": ("bun_spawn.ts", BUN_HEAD, (
        "const proc = Bun.spawn([\"python3\", `${import.meta.dir}/child.py`], { stderr: \"inherit\" });\n"
        "process.exit(proc.exitCode ?? 0);  // HERE\n",
        "const proc = Bun.spawn([\"python3\", `${import.meta.dir}/child.py`], { stderr: \"inherit\" });\n"
        "process.exit(await proc.exited);\n")),
    "inherit": ("inherit.js", NODE_HEAD, (
        'require("child_process").execSync("git rev-parse --show-toplevel", { stdio: "inherit" });  // HERE\n' + DENY_JS,
        'require("child_process").execSync("git rev-parse --show-toplevel", { stdio: "pipe" });\n' + DENY_JS)),
    "timeout": ("timeout.js", NODE_HEAD, (
        'const child = require("child_process").spawnSync("python3", [__dirname + "/slow.py"], { timeout: 500 });\n'
        "process.exit(child.status);  // HERE\n",
        'const child = require("child_process").spawnSync("python3", [__dirname + "/slow.py"], { timeout: 500 });\n'
        'if (child.status === null) console.error("no touching here: the check did not finish");\n'
        "process.exit(child.status ?? 2);\n")),
    "check_true": ("check_true.py", PY_HEAD, (
        'subprocess.run([sys.executable, __file__.replace("check_true.py", "child.py")], check=True)  # HERE\n',
        'sys.exit(subprocess.run([sys.executable, __file__.replace("check_true.py", "child.py")]).returncode)\n')),
    "mapped": ("mapped.py", PY_HEAD, (
        'rc = subprocess.call([sys.executable, __file__.replace("mapped.py", "child.py")])\nif rc != 0:\n'
        '    sys.exit(1)  # HERE\n',
        'rc = subprocess.call([sys.executable, __file__.replace("mapped.py", "child.py")])\nif rc != 0:\n'
        '    sys.exit(rc)\n')),
    "debug": ("debug.js", NODE_HEAD, (
        'console.debug("checking", input.tool_name);  // HERE\n' + DENY_JS,
        'console.warn("checking", input.tool_name);\n' + DENY_JS)),
    "popen": ("popen.py", PY_HEAD, (
        'subprocess.Popen(["git", "rev-parse", "--show-toplevel"]).wait()  # HERE\n' + DENY_PY,
        'subprocess.Popen(["git", "rev-parse", "--show-toplevel"], stdout=subprocess.DEVNULL).wait()\n' + DENY_PY)),
}
# guards on Write that refuse `big-NAME.txt`, sent more than one read takes: Node's first chunk is 64 KB,
# one os.read of Claude Code's stdin (a socket) took 219,264 bytes on 2.1.332
BIG = {"first_chunk": 80_000, "os_read": 300_000}
PARTIAL = {
    "first_chunk": ("first_chunk.js", (
        'process.stdin.once("data", (chunk) => {  // HERE\n'
        "  let input;\n  try { input = JSON.parse(chunk); } catch { process.exit(0); }\n"
        '  if (input.tool_input.file_path.endsWith("big-first_chunk.txt")) {\n'
        '    console.error("no big files here");\n    process.exit(2);\n  }\n});\n',
        'let raw = "";\nprocess.stdin.on("data", (chunk) => (raw += chunk));\nprocess.stdin.on("end", () => {\n'
        "  let input;\n  try { input = JSON.parse(raw); } catch { process.exit(0); }\n"
        '  if (input.tool_input.file_path.endsWith("big-first_chunk.txt")) {\n'
        '    console.error("no big files here");\n    process.exit(2);\n  }\n});\n')),
    "os_read": ("os_read.py", (
        "import json, os, sys\ntry:\n    call = json.loads(os.read(0, 65536))  # HERE\nexcept ValueError:\n    sys.exit(0)\n"
        'if call["tool_input"]["file_path"].endswith("big-os_read.txt"):\n'
        '    print("no big files here", file=sys.stderr)\n    sys.exit(2)\n',
        "import json, os, sys\ntry:\n    call = json.loads(sys.stdin.buffer.read())\nexcept ValueError:\n    sys.exit(0)\n"
        'if call["tool_input"]["file_path"].endswith("big-os_read.txt"):\n'
        '    print("no big files here", file=sys.stderr)\n    sys.exit(2)\n')),
}
RULES = {"throw": "script/exit-1-fails-open", "rejection": "script/exit-1-fails-open",
         "bun_shell": "script/text-before-json", "inherit": "script/text-before-json",
         "popen": "script/text-before-json", "bun_dispatch": "delivery/exit-2-lost", "bun_spawn": "delivery/exit-2-lost",
         "check_true": "delivery/exit-2-lost", "mapped": "delivery/exit-2-lost", "debug": "script/text-before-json",
         "timeout": "delivery/exit-2-lost", "first_chunk": "script/stdin-read-partly",
         "os_read": "script/stdin-read-partly"}


def _code(name: str, twin: bool) -> tuple[str, str]:
    if name in PARTIAL:
        file, versions = PARTIAL[name]
        return file, versions[twin]
    file, head, versions = GATES[name]
    return file, head % name + versions[twin]


def _command(file: str, bun: str) -> str:
    runner = {"js": "node", "mjs": "node", "py": shlex.quote(sys.executable), "ts": f"{shlex.quote(bun)} run"}
    return f'{runner[file.rsplit(".", 1)[1]]} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{file}'


def _project(project, twin: bool, opencode) -> None:
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    for name in RULES:
        file, text = _code(name, twin)
        (hooks / file).write_text(text)
    (hooks / "child.py").write_text(CHILD)
    (hooks / "slow.py").write_text(SLOW_CHILD)
    bun = project / "tools" / "bun"  # Bun itself: opencode's executable with BUN_BE_BUN=1
    bun.parent.mkdir()
    bun.write_text(f"#!/bin/sh\nBUN_BE_BUN=1 exec {shlex.quote(str(opencode))} \"$@\"\n")
    bun.chmod(0o755)
    handlers = [{"type": "command", "command": _command(_code(name, twin)[0], str(bun))} for name in GATES]
    big = [{"type": "command", "command": _command(_code(name, twin)[0], str(bun))} for name in PARTIAL]
    config = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}, {"matcher": "Write", "hooks": big}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(config, indent=2))
    subprocess.run(["git", "init", "-q", str(project)], check=True)


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
def test_a_refusal_lost_by_what_the_runtime_does_on_its_own_is_what_doctor_flags(
        claude_cli, opencode_cli, home, project, twin):
    _project(project, twin, opencode_cli)
    calls = [{"tool": "Bash", "input": {"command": f"touch ran-{name}.txt"}} for name in GATES]
    calls += [{"tool": "Write", "input": {"file_path": str(project / f"big-{name}.txt"), "content": "x" * BIG[name]}}
              for name in PARTIAL]
    run = run_claude(project, home, calls, claude=claude_cli, timeout=240)
    assert run.returncode == 0, run.stderr
    # what the real CLI did with each guard's answer (Claude Code CLAUDE_VERSION)
    ran = {name for name in GATES if (project / f"ran-{name}.txt").exists()}
    ran |= {name for name in PARTIAL if (project / f"big-{name}.txt").exists()}
    assert ran == (set() if twin else set(RULES)), (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    flagged = {(f["rule"], f["path"].rsplit("/", 1)[1], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in RULES.values() and f["severity"] in ("error", "warning")}
    expected = set()
    for name, rule in RULES.items() if not twin else ():
        file, text = _code(name, twin)
        expected.add((rule, file, next(n for n, line in enumerate(text.splitlines(), 1) if "HERE" in line)))
    assert flagged == expected
