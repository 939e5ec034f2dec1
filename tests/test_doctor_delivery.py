"""Delivery: a block by exit 2 lost on its way out of the hook (installer/doctor/scripts/delivery.py,
checks/delivery.py), and programs whose own output lands before the JSON answer.

Every case is run: the test feeds the hook a PreToolUse payload the way Claude Code does and reads
its exit status, so a case that claims to lose the block really does, and its twin really blocks
(tests/e2e/test_delivery_e2e.py shows the real CLI letting the call through)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from doctor_support import doctor, found, settings
from hookwright.doctor.scripts import delivery
from hookwright.doctor.scripts.keys import analyse

GUARD = 'import json, sys\njson.load(sys.stdin)\nprint("Blocked: rm", file=sys.stderr)\nsys.exit(2)\n'
PY = "import json, os, subprocess, sys\n"
RUNNERS = {".py": sys.executable, ".js": "node", ".mjs": "node", ".sh": "bash", ".pl": "perl"}
PAYLOAD = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm x"}})

JS_INPUT = "const cp = require('child_process');\nconst input = require('fs').readFileSync(0);\n"


WORKER_HERE = ("const { Worker, isMainThread } = require('worker_threads');\nif (isMainThread) {\n"
               "  require('fs').readFileSync(0);\n  new Worker(__filename);\n} else {\n  process.exit(2);\n}\n")
WORKER_FILE = ("const { Worker } = require('worker_threads');\nconst path = require('path');\n"
               "new Worker(path.join(__dirname, 'check.js'));\nrequire('fs').readFileSync(0);\n")


def _twins(text: str, runs: str, line: int, broken: str, fixed: str) -> tuple[dict, str, int, dict]:
    """A case whose broken hook and twin differ in one word (WORD in the text), its guard beside it."""
    return {runs: text.replace("WORD", broken), "guard.py": GUARD}, runs, line, \
        {runs: text.replace("WORD", fixed), "guard.py": GUARD}


# name: (the hook's files, the one its handler runs, the line doctor names; its twin's files)
CASES = {
    "except SystemExit around a call of a function that exits 2": (
        {"h.py": PY + "def check():\n    json.load(sys.stdin)\n    sys.exit(2)\n"
                      "if __name__ == '__main__':\n    try:\n        check()\n    except SystemExit:\n        pass\n"},
        "h.py", 8,
        {"h.py": PY + "def check():\n    json.load(sys.stdin)\n    sys.exit(2)\n"
                      "if __name__ == '__main__':\n    try:\n        check()\n    except ValueError:\n        pass\n"}),
    "a bare except that exits 0": (
        {"h.py": PY + "BLOCK = 2\ntry:\n    json.load(sys.stdin)\n    sys.exit(BLOCK)\nexcept:\n    sys.exit(0)\n"},
        "h.py", 6,
        {"h.py": PY + "BLOCK = 2\ntry:\n    json.load(sys.stdin)\n    sys.exit(BLOCK)\nexcept Exception:\n    sys.exit(0)\n"}),
    "a finally that exits": (
        {"h.py": PY + "try:\n    json.load(sys.stdin)\n    raise SystemExit(2)\nfinally:\n    sys.exit(0)\n"},
        "h.py", 6,
        {"h.py": PY + "try:\n    json.load(sys.stdin)\n    raise SystemExit(2)\nfinally:\n    print('done', file=sys.stderr)\n"}),
    "sys.exit(2) in the threads a loop starts": (
        {"h.py": PY + "import threading\ndef no_rm():\n    sys.exit(2)\ndef no_push():\n    pass\n"
                      "json.load(sys.stdin)\nthreads = [threading.Thread(target=c) for c in (no_rm, no_push)]\n"
                      "for t in threads:\n    t.start()\nfor t in threads:\n    t.join()\n"}, "h.py", 8,
        {"h.py": PY + "from concurrent.futures import ThreadPoolExecutor\ndef no_rm():\n    sys.exit(2)\n"
                      "def no_push():\n    pass\njson.load(sys.stdin)\nwith ThreadPoolExecutor() as pool:\n"
                      "    for future in [pool.submit(c) for c in (no_rm, no_push)]:\n        future.result()\n"}),
    "an executor's submit whose future nobody reads": (
        {"h.py": PY + "from concurrent.futures import ThreadPoolExecutor, wait\ndef check(name):\n    if name == 'rm':\n"
                      "        sys.exit(2)\njson.load(sys.stdin)\nwith ThreadPoolExecutor() as pool:\n"
                      "    futures = [pool.submit(check, n) for n in ('rm', 'push')]\n    wait(futures)\n"}, "h.py", 8,
        {"h.py": PY + "from concurrent.futures import ThreadPoolExecutor, wait\ndef check(name):\n    if name == 'rm':\n"
                      "        sys.exit(2)\njson.load(sys.stdin)\nwith ThreadPoolExecutor() as pool:\n"
                      "    futures = [pool.submit(check, n) for n in ('rm', 'push')]\n    for f in futures:\n"
                      "        f.result()\n"}),
    "an executor's map whose results are never taken": (
        {"h.py": PY + "from concurrent.futures import ThreadPoolExecutor\ndef check(name):\n    if name == 'rm':\n"
                      "        sys.exit(2)\njson.load(sys.stdin)\nwith ThreadPoolExecutor(4) as pool:\n"
                      "    pool.map(check, ['rm', 'push'])\n"}, "h.py", 8,
        {"h.py": PY + "from concurrent.futures import ThreadPoolExecutor\ndef check(name):\n    if name == 'rm':\n"
                      "        sys.exit(2)\njson.load(sys.stdin)\nwith ThreadPoolExecutor(4) as pool:\n"
                      "    list(pool.map(check, ['rm', 'push']))\n"}),
    "run_in_executor never awaited": (
        {"h.py": PY + "import asyncio\ndef check():\n    sys.exit(2)\nasync def main():\n    json.load(sys.stdin)\n"
                      "    asyncio.get_running_loop().run_in_executor(None, check)\nasyncio.run(main())\n"}, "h.py", 7,
        {"h.py": PY + "import asyncio\ndef check():\n    sys.exit(2)\nasync def main():\n    json.load(sys.stdin)\n"
                      "    await asyncio.get_running_loop().run_in_executor(None, check)\nasyncio.run(main())\n"}),
    "a Node dispatcher that knows 2 is a refusal and exits 1 for it": (
        {"h.js": "const cp = require('child_process');\nconst fs = require('fs');\nconst input = fs.readFileSync(0);\n"
                 "const dir = process.env.CLAUDE_PROJECT_DIR + '/.claude/hooks/guards';\nconst refused = [];\n"
                 "for (const name of fs.readdirSync(dir)) {\n  const r = cp.spawnSync('python3', [dir + '/' + name], "
                 "{ input });\n  if (r.status === 2) refused.push(name);\n}\nif (refused.length) process.exit(1);\n"
                 "process.exit(0);\n", "guards/no_rm.py": GUARD}, "h.js", 10,
        {"h.js": "const cp = require('child_process');\nconst fs = require('fs');\nconst input = fs.readFileSync(0);\n"
                 "const dir = process.env.CLAUDE_PROJECT_DIR + '/.claude/hooks/guards';\nconst refused = [];\n"
                 "for (const name of fs.readdirSync(dir)) {\n  const r = cp.spawnSync('python3', [dir + '/' + name], "
                 "{ input });\n  if (r.status === 2) refused.push(name);\n}\nif (refused.length) process.exit(2);\n"
                 "process.exit(0);\n", "guards/no_rm.py": GUARD}),
    "a Python dispatcher that knows 2 is a refusal and exits 1 for it": (
        {"h.py": PY + "data = sys.stdin.read()\nguards = os.path.join(os.environ['CLAUDE_PROJECT_DIR'], '.claude/hooks/guards')\n"
                      "refused = False\nfor name in os.listdir(guards):\n"
                      "    r = subprocess.run([sys.executable, os.path.join(guards, name)], input=data, text=True)\n"
                      "    if r.returncode == 2:\n        refused = True\nsys.exit(1 if refused else 0)\n",
         "guards/no_rm.py": GUARD}, "h.py", 9,
        {"h.py": PY + "data = sys.stdin.read()\nguards = os.path.join(os.environ['CLAUDE_PROJECT_DIR'], '.claude/hooks/guards')\n"
                      "refused = False\nfor name in os.listdir(guards):\n"
                      "    r = subprocess.run([sys.executable, os.path.join(guards, name)], input=data, text=True)\n"
                      "    if r.returncode == 2:\n        refused = True\nsys.exit(2 if refused else 0)\n",
         "guards/no_rm.py": GUARD}),
    "os.system's wait status tested against 2": (
        {"h.py": PY + "guard = os.path.join(os.path.dirname(__file__), 'guard.py')\n"
                      "rc = os.system(sys.executable + ' ' + guard)\nif rc == 2:\n    sys.exit(2)\n",
         "guard.py": GUARD}, "h.py", 4,
        {"h.py": PY + "guard = os.path.join(os.path.dirname(__file__), 'guard.py')\n"
                      "rc = os.waitstatus_to_exitcode(os.system(sys.executable + ' ' + guard))\nif rc == 2:\n"
                      "    sys.exit(2)\n", "guard.py": GUARD}),
    "spawnSync's result read as exitCode": _twins(
        JS_INPUT + "const r = cp.spawnSync('python3', [__dirname + '/guard.py'], { input });\nprocess.exit(r.WORD);\n",
        "h.js", 4, "exitCode", "status"),
    "a catch that exits with the error's code": _twins(
        JS_INPUT + "try {\n  cp.execFileSync('python3', [__dirname + '/guard.py'], "
                   "{ input, stdio: ['pipe', 'inherit', 'inherit'] });\n} catch (err) {\n  process.exit(err.WORD);\n}\n",
        "h.js", 6, "code", "status"),
    "sys.exit of the CompletedProcess": _twins(
        PY + "data = sys.stdin.read()\nresult = subprocess.run([sys.executable, os.path.dirname(__file__) + "
             "'/guard.py'], input=data, text=True)\nsys.exit(WORD)\n", "h.py", 3, "result", "result.returncode"),
    "a Popen's returncode read before it ends": _twins(
        PY + "data = sys.stdin.read()\nproc = subprocess.Popen([sys.executable, os.path.dirname(__file__) + "
             "'/guard.py'], stdin=subprocess.PIPE, text=True)\nWORD\nsys.exit(proc.returncode)\n", "h.py", 3,
        "proc.stdin.write(data)\nproc.stdin.close()", "proc.communicate(data)"),
    "sys.exit(2) in a multiprocessing.Process whose exitcode nobody reads": (
        {"h.py": PY + "import multiprocessing\ndef check():\n    sys.exit(2)\nif __name__ == '__main__':\n"
                      "    json.load(sys.stdin)\n    worker = multiprocessing.Process(target=check)\n    worker.start()\n"
                      "    worker.join()\n"}, "h.py", 7,
        {"h.py": PY + "import multiprocessing\ndef check():\n    sys.exit(2)\nif __name__ == '__main__':\n"
                      "    json.load(sys.stdin)\n    worker = multiprocessing.Process(target=check)\n    worker.start()\n"
                      "    worker.join()\n    sys.exit(worker.exitcode)\n"}),
    "a wrapper that tells its guard's refusal as 1": _twins(
        'timeout 5 python3 "$(dirname "$0")/guard.py" || WORD\n', "h.sh", 1, "exit 1", "exit $?"),
    "process.exit(2) in this file's worker thread": (
        {"h.js": WORKER_HERE}, "h.js", 6,
        {"h.js": WORKER_HERE.replace("new Worker(__filename);", "new Worker(__filename).on('exit', (code) => process.exit(code));")}),
    "a worker thread running a script that exits 2": (
        {"h.js": WORKER_FILE, "check.js": "require('worker_threads');\nprocess.exit(2);\n"}, "h.js", 3,
        {"h.js": WORKER_FILE.replace("'check.js'));", "'check.js')).on('exit', (code) => process.exit(code));"),
         "check.js": "require('worker_threads');\nprocess.exit(2);\n"}),
    "sys.exit(os.system(...))": (
        {"h.py": PY + "sys.exit(os.system(sys.executable + ' ' + os.path.dirname(__file__) + '/guard.py'))\n",
         "guard.py": GUARD}, "h.py", 2,
        {"h.py": PY + "sys.exit(os.waitstatus_to_exitcode(os.system(sys.executable + ' ' + "
                      "os.path.dirname(__file__) + '/guard.py')))\n", "guard.py": GUARD}),
    "subprocess.call whose status is only printed": (
        {"h.py": PY + "rc = subprocess.call([sys.executable, os.path.dirname(__file__) + '/guard.py'])\n"
                      "print(f'guard said {rc}', file=sys.stderr)\n", "guard.py": GUARD}, "h.py", 2,
        {"h.py": PY + "rc = subprocess.call([sys.executable, os.path.dirname(__file__) + '/guard.py'])\n"
                      "if rc:\n    sys.exit(rc)\n", "guard.py": GUARD}),
    "a Perl dispatcher's exit $? (the wait status)": (
        {"h.pl": 'use File::Basename;\nmy $dir = dirname(__FILE__);\nsystem("python3", "$dir/guard.py");\nexit $?;\n',
         "guard.py": GUARD}, "h.pl", 4,
        {"h.pl": 'use File::Basename;\nmy $dir = dirname(__FILE__);\nsystem("python3", "$dir/guard.py");\n'
                 'exit($? >> 8);\n', "guard.py": GUARD}),
    "an uncaught execSync (node exits 1)": (
        {"h.js": "require('child_process').execSync(`python3 ${__dirname}/guard.py`, {stdio: 'inherit'});\n",
         "guard.py": GUARD}, "h.js", 1,
        {"h.js": "const r = require('child_process').spawnSync('python3', [`${__dirname}/guard.py`], "
                 "{stdio: 'inherit'});\nprocess.exit(r.status);\n", "guard.py": GUARD}),
    "a catch that exits 1 for whichever child failed": (
        {"h.js": "const cp = require('child_process');\nfor (const name of ['guard.py']) {\n  try {\n"
                 "    cp.execFileSync('python3', [__dirname + '/' + name], {stdio: 'inherit'});\n"
                 "  } catch (error) {\n    process.exit(1);\n  }\n}\n", "guard.py": GUARD}, "h.js", 6,
        {"h.js": "const cp = require('child_process');\nfor (const name of ['guard.py']) {\n  try {\n"
                 "    cp.execFileSync('python3', [__dirname + '/' + name], {stdio: 'inherit'});\n"
                 "  } catch (error) {\n    process.exit(error.status);\n  }\n}\n", "guard.py": GUARD}),
    "spawnSync whose status nobody reads": (
        {"h.js": "const cp = require('child_process');\ncp.spawnSync('python3', [__dirname + '/guard.py'], "
                 "{stdio: 'inherit'});\n", "guard.py": GUARD}, "h.js", 2,
        {"h.js": "const cp = require('child_process');\nconst r = cp.spawnSync('python3', [__dirname + '/guard.py'], "
                 "{stdio: 'inherit'});\nprocess.exitCode = r.status;\n", "guard.py": GUARD}),
    "process.exit(0) after process.exitCode = 2": (
        {"h.js": "require('fs').readFileSync(0);\nif (true) { process.exitCode = 2; }\nprocess.exit(0);\n"}, "h.js", 3,
        {"h.js": "require('fs').readFileSync(0);\nif (true) { process.exitCode = 2; }\nprocess.exit();\n"}),
    "a wrapper whose guard is behind || true": (
        {"h.sh": 'python3 "$(dirname "$0")/guard.py" || true\n', "guard.py": GUARD}, "h.sh", 1,
        {"h.sh": 'python3 "$(dirname "$0")/guard.py" || exit $?\n', "guard.py": GUARD}),
    "a wrapper that pipes its guard into tee": (
        {"h.sh": 'DIR="$(cd "$(dirname "$0")" && pwd)"\npython3 "$DIR/guard.py" 2>&1 | tee -a /dev/null >&2\n',
         "guard.py": GUARD}, "h.sh", 2,
        {"h.sh": 'set -o pipefail\nDIR="$(cd "$(dirname "$0")" && pwd)"\n'
                 'python3 "$DIR/guard.py" 2>&1 | tee -a /dev/null >&2\n', "guard.py": GUARD}),
    "a wrapper that reads $? after piping its guard into tee": (
        {"h.sh": 'DIR="$(cd "$(dirname "$0")" && pwd)"\npython3 "$DIR/guard.py" 2>&1 | tee -a /dev/null >&2\n'
                 'rc=$?\nexit $rc\n', "guard.py": GUARD}, "h.sh", 2,
        {"h.sh": 'DIR="$(cd "$(dirname "$0")" && pwd)"\npython3 "$DIR/guard.py" 2>&1 | tee -a /dev/null >&2\n'
                 'rc=${PIPESTATUS[0]}\nexit $rc\n', "guard.py": GUARD}),
    "a wrapper that exits with its test's truth": _twins(
        'python3 "$(dirname "$0")/guard.py"\nrc=$?\nWORD\n', "h.sh", 3, "exit $(( rc != 0 ))", "exit $rc"),
    "sys.exit of a comparison": _twins(
        PY + "rc = subprocess.call([sys.executable, os.path.join(os.path.dirname(__file__), 'guard.py')])\n"
             "sys.exit(WORD)\n", "h.py", 3, "rc != 0", "rc"),
    "an EXIT trap": (
        {"h.sh": "trap 'exit 1' EXIT\ncat >/dev/null\nexit 2\n"}, "h.sh", 1,
        {"h.sh": "trap 'echo bye >&2' EXIT\ncat >/dev/null\nexit 2\n"}),
}


def _write(base: Path, files: dict[str, str], runs: str) -> str:
    hooks = base / ".claude" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (hooks / name).parent.mkdir(parents=True, exist_ok=True)
        (hooks / name).write_text(text)
    return f'{RUNNERS[Path(runs).suffix]} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{runs}'


def _run(base: Path, command: str) -> subprocess.CompletedProcess[str]:
    """The hook's command run on a PreToolUse payload as Claude Code runs it: in the project, so a
    git command in it sees the project, never the repository the tests run from."""
    return subprocess.run(["sh", "-c", command], input=PAYLOAD, text=True, capture_output=True, timeout=30, cwd=base,
                          env={**os.environ, "CLAUDE_PROJECT_DIR": str(base)})


def _status(base: Path, command: str) -> int:
    """The exit status the hook's command ends with."""
    return _run(base, command).returncode


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_block_lost_on_its_way_out_is_flagged_at_the_line_that_loses_it(tmp_path, name, twin):
    broken, runs, line, fixed = CASES[name]
    base = tmp_path / "project"
    command = _write(base, fixed if twin else broken, runs)
    assert (_status(base, command) == 2) == twin  # what the host would receive
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost")
    assert [(Path(f.path).name, f.line) for f in flagged] == ([] if twin else [(runs, line)])


DENY_THEN = PY + ("json.load(sys.stdin)\nprint(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
                  "'permissionDecision': 'deny', 'permissionDecisionReason': 'no'}}))\n%sos._exit(0)\n")


@pytest.mark.parametrize("text, runs, lost", [
    (DENY_THEN % "", "{python}", True),
    (DENY_THEN % "sys.stdout.flush()\n", "{python}", False),
    (DENY_THEN % "", "{python} -u", False),
    (DENY_THEN % "", "PYTHONUNBUFFERED=1 {python}", False),
], ids=["os._exit after print", "flushed first", "python -u", "PYTHONUNBUFFERED in the command"])
def test_an_answer_left_in_pythons_buffer_by_os_exit_is_flagged_at_the_exit(tmp_path, text, runs, lost):
    base = tmp_path / "project"
    _write(base, {"h.py": text}, "h.py")
    command = runs.format(python=sys.executable) + ' "$CLAUDE_PROJECT_DIR"/.claude/hooks/h.py'
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"} | {"CLAUDE_PROJECT_DIR": str(base)}
    printed = subprocess.run(["sh", "-c", command], input=PAYLOAD, text=True, capture_output=True, timeout=30,
                             env=env).stdout  # (stdout a pipe, as under the host)
    assert (printed == "") == lost
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/output-lost-at-exit")
    assert [(Path(f.path).name, f.line) for f in flagged] == ([("h.py", 4)] if lost else [])


STDIN_EVENTS = ("let raw = '';\nprocess.stdin.on('data', (c) => (raw += c));\nprocess.stdin.on('end', () => {\n"
                "  console.error('Blocked: rm');\n  process.exit(2);\n});\n")
ASYNC_MAIN = ("async function main() {\n  let raw = '';\n  for await (const c of process.stdin) raw += c;\n"
              "  console.error('Blocked: rm');\n  process.exit(2);\n}\n")

# the check run as a child, its answer given in execFile's callback (node waits for it)
EXEC_FILE = ("const { execFile } = require('child_process');\n"
             "execFile('sh', ['-c', 'exit 2'], (err) => {\n"
             "  if (err) { console.error('Blocked: rm'); process.exit(2); }\n")


# an ES module that reads its input with a top-level await, then answers and exits
AWAITED_STDIN = ("import { text } from 'node:stream/consumers';\nconst raw = %s;\n"
                 "const p = raw instanceof Promise ? {} : JSON.parse(raw);\n"
                 "if (String(p.tool_input?.command).startsWith('rm')) { console.error('Blocked: rm'); process.exit(2); }\n"
                 "process.exit(0);\n")


@pytest.mark.parametrize("name, text, line", [
    ("h.mjs", AWAITED_STDIN % "await text(process.stdin)", None),
    ("h.mjs", AWAITED_STDIN % "text(process.stdin)", 5),
], ids=["an awaited read at the top level", "the read not awaited"])
def test_an_es_module_that_awaits_its_input_at_the_top_level_exits_after_reading_it(tmp_path, name, text, line):
    base = tmp_path / "project"
    command = _write(base, {name: text}, name)
    assert (_status(base, command) == 2) == (line is None)  # what the host would receive
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}),
                    "delivery/exit-before-async-work")
    assert [(Path(f.path).name, f.line) for f in flagged] == ([(name, line)] if line else [])


@pytest.mark.parametrize("text, line", [
    (STDIN_EVENTS + "process.exit(0);\n", 7),
    (ASYNC_MAIN + "main().catch((e) => console.error(e));\nprocess.exit(0);\n", 8),
    (STDIN_EVENTS, None),
    (ASYNC_MAIN + "main().catch((e) => console.error(e));\n", None),
    (ASYNC_MAIN + "main().then(() => process.exit(0));\n", None),
    ("if (process.argv.includes('--off')) process.exit(0);\n" + STDIN_EVENTS, None),
    (EXEC_FILE + "});\nprocess.exit(0);\n", 5),
    (EXEC_FILE + "  process.exit(0);\n});\n", None),
    (EXEC_FILE + "});\nsetTimeout(() => process.exit(1), 5000).unref();\n", None),
], ids=["exit after stdin.on", "exit after an unawaited main()", "exit in the end handler", "no exit of its own",
        "exit once main is done", "an exit behind an if", "exit after execFile's callback was set",
        "exit in execFile's callback", "a watchdog timer"])
def test_an_exit_before_the_asynchronous_work_has_run_is_flagged_at_the_exit(tmp_path, text, line):
    base = tmp_path / "project"
    command = _write(base, {"h.js": text}, "h.js")
    assert (_status(base, command) == 2) == (line is None)  # what the host would receive
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}),
                    "delivery/exit-before-async-work")
    assert [(Path(f.path).name, f.line) for f in flagged] == ([("h.js", line)] if line else [])


def test_a_lost_block_on_an_event_where_exit_2_blocks_nothing_is_not_reported(tmp_path):
    broken, runs, _, _ = CASES["a bare except that exits 0"]
    base = tmp_path / "project"
    command = _write(base, broken, runs)
    out = doctor(base, {".claude/settings.json": settings("PostToolUse", command=command)})
    assert found(out, "delivery/exit-2-lost") == []


def test_a_script_that_also_answers_with_a_json_decision_is_not_reported(tmp_path):
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
    text = PY + f"try:\n    print(json.dumps({deny!r}))\n    sys.exit(2)\nexcept BaseException:\n    pass\n"
    base = tmp_path / "project"
    command = _write(base, {"h.py": text}, "h.py")
    assert found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost") == []


def test_a_handler_that_passes_the_exit_on_is_not_reported(tmp_path):
    text = PY + ("try:\n    json.load(sys.stdin)\n    sys.exit(2)\nexcept BaseException as error:\n"
                 "    print(error, file=sys.stderr)\n    raise\n")
    base = tmp_path / "project"
    command = _write(base, {"h.py": text}, "h.py")
    assert _status(base, command) == 2
    assert found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost") == []


@pytest.mark.parametrize("program, args, prints", [
    ("git", ["status"], True), ("git", ["-C", "/tmp", "log", "-1"], True), ("git", ["fetch", "origin"], False),
    ("git", ["pull", "-q"], False), ("git", ["diff", "--quiet"], False), ("/usr/bin/git", ["show"], True),
    ("npm", ["run", "lint"], True), ("npm", ["run", "lint", "--silent"], False), ("make", ["-s"], False),
    ("pip", ["install", "x"], True), ("pip", ["--version"], False),
    # curl writes the body it receives on stdout unless told otherwise (-o, -O)
    ("curl", ["-s", "x"], True), ("curl", ["-sSo", "out.json", "x"], False), ("curl", ["--output", "f", "x"], False),
    ("grep", ["-E", "rm -rf"], True), ("grep", ["-qE", "rm -rf"], False), ("grep", ["--quiet", "x"], False),
    ("command", ["-v", "jq"], True), ("command", ["jq", "."], False), ("which", ["jq"], True),
    ("cd", ["-"], True), ("cd", ["/tmp"], False), ("nvm", ["use"], True),
])
def test_which_programs_print_on_the_hooks_stdout(program, args, prints):
    assert delivery.prints_on_stdout(program, args) is prints


@pytest.mark.parametrize("name, text, flagged", [
    ("git.sh", "#!/bin/bash\ncat >/dev/null\ngit status\necho '{\"continue\": true}'\n", True),
    ("quiet.sh", "#!/bin/bash\ncat >/dev/null\ngit status >/dev/null 2>&1\necho '{\"continue\": true}'\n", False),
    ("pushd.sh", "#!/bin/bash\ncat >/dev/null\npushd /tmp\necho '{\"continue\": true}'\n", True),
    ("captured.sh", "#!/bin/bash\ncat >/dev/null\nS=$(git status --porcelain)\necho '{\"continue\": true}'\n", False),
    ("npm.sh", "#!/bin/bash\ncat >/dev/null\nnpm ls || true\necho '{\"continue\": true}'\n", True),
    ("grep.sh", "#!/bin/bash\ncmd=$(jq -r .tool_input.command)\nif echo \"$cmd\" | grep -E 'rm'; then\n"
                "  echo '{\"continue\": true}'\nfi\n", True),
    ("grep-q.sh", "#!/bin/bash\ncmd=$(jq -r .tool_input.command)\nif echo \"$cmd\" | grep -qE 'rm'; then\n"
                  "  echo '{\"continue\": true}'\nfi\n", False),
    ("which.sh", "#!/bin/bash\ncat >/dev/null\nif command -v jq; then echo '{\"continue\": true}'; fi\n", True),
    ("curl.sh", "#!/bin/bash\ncat >/dev/null\ncurl -s -m 1 file:///etc/hostname\necho '{\"continue\": true}'\n", True),
    ("run.py", PY + "json.load(sys.stdin)\nsubprocess.run(['git', 'status'])\nprint(json.dumps({'continue': True}))\n",
     True),
    ("taken.py", PY + "json.load(sys.stdin)\nsubprocess.run(['git', 'pull'], capture_output=True)\n"
                      "print(json.dumps({'continue': True}))\n", False),
])
def test_a_program_whose_own_output_lands_before_the_json_answer(tmp_path, name, text, flagged):
    base = tmp_path / "project"
    command = _write(base, {name: text}, name)
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    printed = subprocess.run(["sh", "-c", command], input=PAYLOAD, text=True, capture_output=True, timeout=60,
                             cwd=base, env={**os.environ, "CLAUDE_PROJECT_DIR": str(base)}).stdout
    assert (not printed.lstrip().startswith("{")) == flagged  # the answer is not alone on stdout
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert bool(found(out, "script/text-before-json")) == flagged


CD_THEN_DENY = ("#!/bin/bash\ncmd=$(jq -r .tool_input.command)\n{cd}\n"
                "jq -n '{{hookSpecificOutput: {{hookEventName: \"PreToolUse\", permissionDecision: \"deny\"}}}}'\n")


@pytest.mark.parametrize("cd, cdpath, flagged", [
    ("cd src", ".:/tmp", True),
    ("cd src", "", False),  # no CDPATH: cd prints nothing
    ("cd .claude", ".:/tmp", True),  # (a name that starts with a dot is looked for too: not ./)
    ("cd ./src", ".:/tmp", False),
    ("cd src >/dev/null", ".:/tmp", False),
    ('cd "$CLAUDE_PROJECT_DIR/src"', ".:/tmp", False),  # (a path from /: CDPATH is not searched)
])
def test_a_cd_that_an_inherited_cdpath_makes_print_the_folder_before_the_json(tmp_path, monkeypatch, cd, cdpath,
                                                                              flagged):
    """The user's environment, which Claude Code hands its hooks (measured on 2.1.332: a CDPATH in the
    settings' env is not: docs/hosts/claude-code.md#exit-status-on-the-way-out)."""
    base = tmp_path / "project"
    (base / "src").mkdir(parents=True)
    (base / ".claude").mkdir()
    command = _write(base, {"h.sh": CD_THEN_DENY.format(cd=cd)}, "h.sh")
    monkeypatch.setenv("CDPATH", cdpath)
    printed = subprocess.run(["sh", "-c", command], input=PAYLOAD, text=True, capture_output=True, timeout=60,
                             cwd=base, env={**os.environ, "CLAUDE_PROJECT_DIR": str(base)}).stdout
    assert (not printed.lstrip().startswith("{")) == flagged
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert [f.line for f in found(out, "script/text-before-json")] == ([3] if flagged else [])


def test_the_corpus_scripts_lose_no_block(shared):
    """../shared/corpus/hook-scripts: none of the forty loses its own exit 2 on the way out
    (read one by one: the two wrappers run scripts the corpus does not hold)."""
    folder = shared / "corpus" / "hook-scripts"
    assert [path.name for path in sorted(folder.iterdir()) if analyse(path).flow.lost_blocks] == []


def test_a_child_that_never_blocks_or_cannot_be_read_is_nobodys_lost_block(tmp_path):
    """A notifier started and forgotten, or a child doctor cannot find, decides nothing it could lose."""
    notify = PY + "json.load(sys.stdin)\nprint('ok', file=sys.stderr)\n"
    text = PY + ("subprocess.Popen([sys.executable, os.path.dirname(__file__) + '/notify.py'])\n"
                 "subprocess.run([sys.executable, '/nowhere/guard.py'])\n")
    base = tmp_path / "project"
    command = _write(base, {"h.py": text, "notify.py": notify}, "h.py")
    assert found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost") == []


@pytest.mark.parametrize("first", ["except SystemExit:\n    raise\n", "except (SystemExit, KeyboardInterrupt):\n    raise\n",
                                   "except SystemExit as stop:\n    sys.exit(stop.code)\n"])
def test_a_catch_all_after_a_handler_that_passes_the_exit_on_never_sees_it(tmp_path, first):
    """Python gives an exception to the first handler that names it: a bare except after
    `except SystemExit: raise` catches crashes only, and the exit 2 reaches the host."""
    text = PY + "try:\n    json.load(sys.stdin)\n    sys.exit(2)\n" + first + "except:\n    sys.exit(0)\n"
    base = tmp_path / "project"
    command = _write(base, {"h.py": text}, "h.py")
    assert _status(base, command) == 2
    assert found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost") == []


def test_a_catch_all_before_the_handler_that_would_pass_the_exit_on_still_takes_it(tmp_path):
    text = PY + "try:\n    json.load(sys.stdin)\n    sys.exit(2)\nexcept BaseException:\n    sys.exit(0)\n" \
                "except SystemExit:\n    raise\n"
    base = tmp_path / "project"
    command = _write(base, {"h.py": text}, "h.py")
    assert _status(base, command) == 0
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost")
    assert [f.line for f in flagged] == [5]


def test_a_handler_that_exits_2_itself_keeps_the_block(tmp_path):
    text = PY + "try:\n    json.load(sys.stdin)\n    sys.exit(2)\nexcept BaseException:\n    sys.exit(2)\n"
    base = tmp_path / "project"
    command = _write(base, {"h.py": text}, "h.py")
    assert _status(base, command) == 2
    assert found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost") == []


@pytest.mark.parametrize("fill, dropped", [
    ('new["file_path"] = ti["file_path"]\nnew["new_string"] = ti["new_string"]\n', True),
    ("for key in ti:\n    new[key] = ti[key]\nnew['new_string'] = 'x'\n", False),
    ("new.update(ti)\nnew['new_string'] = 'x'\n", False),
])
def test_a_rewrite_filled_in_key_by_key_is_read_as_the_keys_it_is_given(tmp_path, fill, dropped):
    text = (PY + "call = json.load(sys.stdin)\nti = call['tool_input']\nnew = {}\n" + fill +
            "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'updatedInput': new}}))\n")
    base = tmp_path / "project"
    command = _write(base, {"h.py": text}, "h.py")
    flagged = found(doctor(base, {".claude/settings.json": settings(matcher="Edit", command=command)}),
                    "script/rewrite-drops-fields")
    assert [(f.line, "old_string" in f.message) for f in flagged] == ([(4, True)] if dropped else [])  # (new = {}: where it is made)


ARGUMENT_DISPATCH = {  # a script run as `h.* pre` on PreToolUse and `h.* post` on PostToolUse
    "h.py": (PY + "mode = sys.argv[1] if len(sys.argv) > 1 else ''\ncall = json.load(sys.stdin)\n"
             "if mode == 'pre':\n    if 'rm' in call['tool_input']['command']:\n"
             "        print('Blocked: rm', file=sys.stderr)\n        sys.exit(2)\n"
             "elif mode == 'post':\n    print('formatted', file=sys.stderr)\n"
             "if '--verbose' in sys.argv:\n    print('checked', file=sys.stderr)\n"),
    "h.mjs": ("import { readFileSync } from 'node:fs';\nconst mode = process.argv[2];\n"
              "const call = JSON.parse(readFileSync(0, 'utf8'));\n"
              "if (mode === 'pre') {\n  if (call.tool_input.command.includes('rm')) {\n"
              "    console.error('Blocked: rm');\n    process.exit(2);\n  }\n"
              "} else if (mode === 'post') {\n  console.error('formatted');\n}\n"),
}


@pytest.mark.parametrize("script", list(ARGUMENT_DISPATCH))
@pytest.mark.parametrize("pre, flagged", [("pre", False), ("PreToolUse", True), ("--verbose", False)],
                         ids=["the argument its branch names", "another spelling", "a flag"])
def test_a_python_or_node_script_that_branches_on_an_argument_its_handler_does_not_pass(tmp_path, script, pre,
                                                                                         flagged):
    base = tmp_path / "project"
    command = _write(base, {script: ARGUMENT_DISPATCH[script]}, script)
    assert (_status(base, f"{command} {pre}") == 2) == (pre == "pre")  # (the payload names rm)
    out = doctor(base, {".claude/settings.json": {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"{command} {pre}"}]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"{command} post"}]}]}}})
    hits = found(out, "delivery/argument-unmatched")
    assert [f"`{pre}`" in f.message and "PreToolUse hook" in f.message for f in hits] == ([True] if flagged else [])


@pytest.mark.parametrize("other_arm, line", [
    ('    new = {"command": "nice -n 10 " + cmd}\n', 8),
    ('    new = {**ti, "command": "nice -n 10 " + cmd}\n', None),
], ids=["one arm builds a new object", "both arms keep the call's fields"])
def test_a_rewrite_built_in_each_arm_of_an_if_is_judged_arm_by_arm(tmp_path, other_arm, line):
    text = (PY + "call = json.load(sys.stdin)\nti = call['tool_input']\ncmd = ti['command']\n"
            "if cmd.startswith('npm '):\n    new = {**ti, 'command': 'pnpm ' + cmd[4:]}\nelse:\n" + other_arm +
            "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'updatedInput': new}}))\n")
    base = tmp_path / "project"
    command = _write(base, {"h.py": text}, "h.py")
    flagged = found(doctor(base, {".claude/settings.json": settings(matcher="Bash", command=command)}),
                    "script/rewrite-drops-fields")
    assert [f.line for f in flagged] == ([line] if line else [])


# ---- Cursor: input fields whose type differs by event (docs/hosts/cursor.md#events) ----------------

MCP_CALL = {"hook_event_name": "beforeMCPExecution", "tool_name": "query",
            "tool_input": json.dumps({"sql": "DROP TABLE users"}), "url": "http://db"}
TOOL_CALL = {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "rm -rf /"}}
DENY_CURSOR = "{'permission': 'deny', 'user_message': 'no'}"

# name: (event, the payload Cursor sends, the script, the line doctor names, its twin)
CURSOR_CASES = {
    "a JSON string read as an object (Python)": (
        "beforeMCPExecution", MCP_CALL,
        PY + "call = json.load(sys.stdin)\nif 'DROP' in call['tool_input']['sql']:\n"
             f"    print(json.dumps({DENY_CURSOR}))\n", 3,
        PY + "call = json.load(sys.stdin)\nif 'DROP' in json.loads(call['tool_input'])['sql']:\n"
             f"    print(json.dumps({DENY_CURSOR}))\n"),
    "a JSON string read as an object (jq)": (
        "beforeMCPExecution", MCP_CALL,
        "#!/bin/bash\nSQL=$(jq -r '.tool_input.sql')\ncase \"$SQL\" in *DROP*) "
        "echo '{\"permission\": \"deny\"}';; esac\n", 2,
        "#!/bin/bash\nSQL=$(jq -r '.tool_input | fromjson | .sql')\ncase \"$SQL\" in *DROP*) "
        "echo '{\"permission\": \"deny\"}';; esac\n"),
    "an object parsed as a JSON string (JavaScript)": (
        "preToolUse", TOOL_CALL,
        "const call = JSON.parse(require('fs').readFileSync(0, 'utf8'));\nconst args = JSON.parse(call.tool_input);\n"
        "if (args.command.includes('rm')) console.log(JSON.stringify({permission: 'deny'}));\n", 2,
        "const call = JSON.parse(require('fs').readFileSync(0, 'utf8'));\nconst args = call.tool_input;\n"
        "if (args.command.includes('rm')) console.log(JSON.stringify({permission: 'deny'}));\n"),
}


def _cursor_project(base: Path, name: str, text: str, event: str) -> str:
    hooks = base / ".cursor" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    (hooks / name).write_text(text)
    return f"{RUNNERS[Path(name).suffix]} .cursor/hooks/{name}"


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(CURSOR_CASES))
def test_a_cursor_field_read_in_the_shape_another_event_sends_it(tmp_path, name, twin):
    event, payload, broken, line, fixed = CURSOR_CASES[name]
    suffix = {"Python": ".py", "jq": ".sh", "JavaScript": ".js"}[name.rsplit("(", 1)[1].rstrip(")")]
    base = tmp_path / "project"
    command = _cursor_project(base, "hook" + suffix, fixed if twin else broken, event)
    ran = subprocess.run(["sh", "-c", command], input=json.dumps(payload), text=True, capture_output=True,
                         timeout=30, cwd=base)
    assert ('"deny"' in ran.stdout) == twin  # what Cursor would get: a deny only from the twin
    out = doctor(base, {".cursor/hooks.json": {"version": 1, "hooks": {event: [{"command": command}]}}})
    flagged = found(out, "delivery/input-field-type")
    assert [(Path(f.path).name, f.line) for f in flagged] == ([] if twin else [("hook" + suffix, line)])


@pytest.mark.parametrize("command, flagged", [
    ("jq -r '.tool_input.query' | grep -qi drop && exit 2 || exit 0", True),
    ("jq -r '.tool_input | fromjson | .query' | grep -qi drop && exit 2 || exit 0", False),
], ids=["object", "parsed"])
def test_a_jq_filter_written_in_hooks_json_reads_the_field_in_the_shape_its_event_sends(tmp_path, command, flagged):
    payload = {"tool_name": "db_query", "tool_input": json.dumps({"query": "DROP TABLE users"})}
    ran = subprocess.run(["sh", "-c", command], input=json.dumps(payload), text=True, capture_output=True, timeout=30)
    assert (ran.returncode == 2) != flagged  # (the object read errs in jq, grep finds nothing, and the call goes on)
    out = doctor(tmp_path, {".cursor/hooks.json": {"version": 1, "hooks": {"beforeMCPExecution": [{"command": command}]}}})
    assert [(Path(f.path).name, f.line) for f in found(out, "delivery/input-field-type")] == (
        [("hooks.json", 6)] if flagged else [])


def test_a_script_that_tells_the_events_apart_may_read_each_its_own_way(tmp_path):
    text = (PY + "call = json.load(sys.stdin)\nargs = call['tool_input']\n"
                 "if call['hook_event_name'] == 'beforeMCPExecution':\n    args = json.loads(args)\n"
                 "print(json.dumps({'permission': 'allow'}))\n")
    base = tmp_path / "project"
    command = _cursor_project(base, "hook.py", text, "beforeMCPExecution")
    out = doctor(base, {".cursor/hooks.json": {"version": 1, "hooks": {"beforeMCPExecution": [{"command": command}],
                                                                        "preToolUse": [{"command": command}]}}})
    assert found(out, "delivery/input-field-type") == []


@pytest.mark.parametrize("text, reads", [
    ("x = data['tool_input']['command']", [("tool_input", "object")]),
    ("x = data.get('tool_input', {}).get('command')", [("tool_input", "object")]),
    ("ti = data.get('tool_input') or {}\ncmd = ti.get('command')", [("tool_input", "object")]),
    ("args = json.loads(data['tool_input'])", [("tool_input", "text")]),
    ("out = data['tool_output']\nif isinstance(out, str): out = json.loads(out)", []),
    ("my_tool_input.command", []),
])
def test_how_a_script_reads_the_fields_whose_type_differs_by_event(text, reads):
    found_reads = delivery.field_reads(text, lambda offset: (1, offset + 1))
    assert [(r.field, r.shape) for r in found_reads] == reads


WRAPPER = 'cd "$CLAUDE_PROJECT_DIR" || exit 1\n{run}\nstatus=$?\n{end}'
PASS_ON = "exit $status\n"
MAKEFILE = "GUARD := .claude/hooks/guard.py\n\ncheck: shell secrets\n\nshell:\n\t{line}\n\nsecrets:\n\t@true\n"
PACKAGE = {"name": "gates", "version": "1.0.0", "scripts": {"lint": "eslint .", "guard": "{line}"}}
# name: (the wrapper's runner command, the runner's file and its line running the guard, the wrapper's end;
#        the same fixed, the file and line doctor names)
THROUGH_RUNNERS = {
    "make ignores the line's failure (-)": (
        "make -s -f .claude/hooks/Makefile", ("Makefile", "-@python3 $(GUARD)"), PASS_ON,
        ("Makefile", "@python3 $(GUARD)"), PASS_ON, ("Makefile", 6)),
    "a prerequisite's line ends with || echo": (
        "make -s -f .claude/hooks/Makefile check", ("Makefile", "@python3 $(GUARD) || echo 'guard failed' >&2"),
        PASS_ON, ("Makefile", "@python3 $(GUARD) || { echo 'guard failed' >&2; exit 2; }"), PASS_ON, ("Makefile", 6)),
    "an npm script that echoes after the guard": (
        "npm run --silent guard", ("package.json", "python3 .claude/hooks/guard.py; echo checked >&2"), PASS_ON,
        ("package.json", "python3 .claude/hooks/guard.py"), PASS_ON, ("package.json", 6)),
    "a wrapper that maps make's failure to 1": (
        "make -s -f .claude/hooks/Makefile", ("Makefile", "@python3 $(GUARD)"), '[ $status -eq 0 ] || exit 1\nexit 0\n',
        ("Makefile", "@python3 $(GUARD)"), PASS_ON, ("h.sh", 4)),
    "a wrapper that maps npm's failure to 3": (
        "npm run --silent guard", ("package.json", "python3 .claude/hooks/guard.py"),
        'if [ "$status" -ne 0 ]; then\n  echo "policy failed ($status)" >&2\n  exit 3\nfi\nexit 0\n',
        ("package.json", "python3 .claude/hooks/guard.py"),
        'if [ "$status" -ne 0 ]; then\n  echo "policy failed ($status)" >&2\n  exit "$status"\nfi\nexit 0\n',
        ("h.sh", 6)),
}


def _runner_files(run: str, defined: tuple[str, str], end: str) -> dict[str, str]:
    file, line = defined
    files = {"h.sh": WRAPPER.format(run=run, end=end), "guard.py": GUARD}
    if file == "Makefile":
        files["Makefile"] = MAKEFILE.format(line=line)
    return files


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(THROUGH_RUNNERS))
def test_a_block_lost_in_the_runner_a_wrapper_runs_is_flagged_where_it_is_lost(tmp_path, name, twin):
    run, defined, end, fixed_defined, fixed_end, (file, line) = THROUGH_RUNNERS[name]
    base = tmp_path / "project"
    used, used_end = (fixed_defined, fixed_end) if twin else (defined, end)
    command = _write(base, _runner_files(run, used, used_end), "h.sh")
    if used[0] == "package.json":
        (base / "package.json").write_text(json.dumps(PACKAGE, indent=1).replace("{line}", used[1]))
    assert (_status(base, command) == 2) == twin  # what the host would receive (GNU make 4.3, npm 11.19.1)
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/exit-2-lost")
    assert [(Path(f.path).name, f.line) for f in flagged] == ([] if twin else [(file, line)])


@pytest.mark.parametrize("script, lost", [
    ("python3 .claude/hooks/guard.py || echo 'guard reported a problem' >&2", True),
    ("python3 .claude/hooks/guard.py; echo done", True),
    ("python3 .claude/hooks/guard.py | tee -a /tmp/hook.log", True),
    ("python3 .claude/hooks/guard.py", False),
    ("echo checking >&2 && python3 .claude/hooks/guard.py", False),
    ("python3 .claude/hooks/guard.py || exit $?", False),
])
def test_an_npm_script_the_hook_runs_is_judged_as_the_command_it_runs(tmp_path, script, lost):
    base = tmp_path / "project"
    _write(base, {"guard.py": GUARD}, "guard.py")
    (base / "package.json").write_text(json.dumps(PACKAGE, indent=1).replace("{line}", script.replace('"', '\\"')))
    command = "npm run --silent guard"
    assert (_status(base, command) == 2) != lost  # npm 11.19.1 ends with its script's status
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "command/block-swallowed")
    assert [(Path(f.path).name, f.line) for f in flagged] == ([("package.json", 6)] if lost else [])


PASSES = "import json, sys\njson.load(sys.stdin)\n"
ARGUMENT_LOOP = 'DIR="$(dirname "$0")"\n{read}for g; do\n  python3 "$DIR/$g"{given}{passes}\ndone\n'


@pytest.mark.parametrize("read, given, passes, rule", [
    ("payload=$(cat)\n", ' <<<"$payload"', "", "delivery/exit-2-lost"),  # the last pass's 0 replaces the guard's 2
    ("", "", " || exit $?", "delivery/stdin-not-passed"),  # the first child reads the input: the guard, nothing
    ("payload=$(cat)\n", ' <<<"$payload"', " || exit $?", None),
], ids=["the last pass decides", "the first pass takes the input", "the input handed to each, each status looked at"])
def test_a_loop_over_the_wrappers_arguments_runs_each_guard_its_command_names(tmp_path, read, given, passes, rule):
    base = tmp_path / "project"
    wrapper = ARGUMENT_LOOP.format(read=read, given=given, passes=passes)
    order = "guard.py pass.py" if rule == "delivery/exit-2-lost" else "pass.py guard.py"
    command = _write(base, {"h.sh": wrapper, "guard.py": GUARD, "pass.py": PASSES}, "h.sh") + f" {order}"
    assert (_status(base, command) == 2) == (rule is None)  # what the host would receive (bash 5.2)
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    flagged = [(f.rule, f.line) for f in out.findings if f.rule in ("delivery/exit-2-lost", "delivery/stdin-not-passed")]
    assert flagged == ([(rule, wrapper.count("\n", 0, wrapper.index("python3")) + 1)] if rule else [])
