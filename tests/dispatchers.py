"""Dispatchers in Python, Node and bash that run several guards as child processes, and scripts whose
answer never reaches the host as one JSON object, each with its corrected twin: shared by the unit
tests (tests/test_doctor_dispatchers.py) and the real Claude Code's (tests/e2e/test_dispatchers_e2e.py).

Every file is written for one gate, TOKEN: each guard refuses the Bash call whose command names
`ran-TOKEN.txt` and lets every other call pass. The line doctor names is marked HERE.
"""
from __future__ import annotations

GUARD = """\
import json, sys
call = json.load(sys.stdin)
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print("Blocked: TOKEN", file=sys.stderr)
    sys.exit(2)
"""
PASSES = "import json, sys\njson.load(sys.stdin)\n"
NOTHING = "import json, sys\njson.load(sys.stdin)\nprint(json.dumps({}))\n"
DENY = ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
        '"permissionDecisionReason": "Blocked: TOKEN"}}')
DENIES = f"""\
import json, sys
call = json.load(sys.stdin)
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print(json.dumps({DENY}))
"""
# the children a dispatcher runs: a guard that exits 2 and one that passes; one that answers {} and one that denies
REFUSING = {"TOKEN-guard.py": GUARD, "TOKEN-pass.py": PASSES}
ANSWERING = {"TOKEN-nothing.py": NOTHING, "TOKEN-deny.py": DENIES}

PY_HEAD = """\
import subprocess, sys
from pathlib import Path
FOLDER = Path(__file__).parent
data = sys.stdin.read()
"""
JS_HEAD = """\
const { execFileSync, spawnSync } = require('child_process');
const input = require('fs').readFileSync(0, 'utf8');
"""
JS_DENY = "{ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', " \
          "permissionDecisionReason: 'Blocked: TOKEN' } }"

JS_KNOWS = JS_HEAD + """\
const fs = require('fs');
const dir = `${process.env.CLAUDE_PROJECT_DIR}/.claude/hooks/TOKEN-guards`;
const refused = [];
for (const name of fs.readdirSync(dir).sort()) {
  const r = spawnSync('python3', [`${dir}/${name}`], { input, encoding: 'utf8' });
  if (r.status === 2) refused.push(`${name}: ${r.stderr.trim()}`);
}
if (refused.length) {
  process.stderr.write(refused.join('\\n') + '\\n');
  process.exit(1);  // HERE
}
process.exit(0);
"""
PY_SYSTEM = PY_HEAD + """\
import os, shlex, tempfile
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as saved:
    saved.write(data)
rc = os.system(f"{sys.executable} {shlex.quote(str(FOLDER / 'TOKEN-guard.py'))} < {shlex.quote(saved.name)}")
if rc == 2:  # HERE
    sys.exit(2)
"""
PY_POOL = """\
import json, sys
from concurrent.futures import ThreadPoolExecutor
def check(command):
    if "ran-TOKEN.txt" in command:
        print("Blocked: TOKEN", file=sys.stderr)
        sys.exit(2)
command = json.load(sys.stdin)["tool_input"]["command"]
with ThreadPoolExecutor(max_workers=2) as pool:
    pool.submit(check, command)  # HERE
"""

JS_WORKER = """\
const { Worker, isMainThread, workerData } = require('worker_threads');
if (isMainThread) {
  const input = require('fs').readFileSync(0, 'utf8');
  new Worker(__filename, { workerData: input });
} else if (JSON.parse(workerData).tool_input.command.includes('ran-TOKEN.txt')) {
  console.error('Blocked: TOKEN');
  process.exit(2);  // HERE
}
"""
PY_PROCESS = """\
import json, multiprocessing, sys
def check(command):
    if "ran-TOKEN.txt" in command:
        print("Blocked: TOKEN", file=sys.stderr)
        sys.exit(2)
if __name__ == "__main__":
    command = json.load(sys.stdin)["tool_input"]["command"]
    worker = multiprocessing.Process(target=check, args=(command,))  # HERE
    worker.start()
    worker.join()
"""

PY_BOUND = """\
import os, subprocess, sys, tempfile
from pathlib import Path
CHECKS = Path(__file__).parent / "checks"
saved = tempfile.TemporaryFile("w+")
saved.write(sys.stdin.read())
rc = 0
for name in ("TOKEN-guard.py", "TOKEN-pass.py"):
    saved.seek(0)
    rc = subprocess.call([sys.executable, CHECKS / name], stdin=saved)  # HERE
sys.exit(rc)
"""

# name: (rule, the dispatcher's name, its text, its twin's text, the children)
CASES = {
    "pycontinue": ("delivery/exit-2-lost", "TOKEN.py", PY_HEAD + """\
for name in ("TOKEN-guard.py", "TOKEN-pass.py"):
    try:
        subprocess.run([sys.executable, str(FOLDER / name)], input=data, text=True, check=True)
    except subprocess.CalledProcessError:  # HERE
        continue
sys.exit(0)
""", PY_HEAD + """\
for name in ("TOKEN-guard.py", "TOKEN-pass.py"):
    try:
        subprocess.run([sys.executable, str(FOLDER / name)], input=data, text=True, check=True)
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
sys.exit(0)
""", REFUSING),
    "pylast": ("delivery/exit-2-lost", "TOKEN.py", PY_HEAD + """\
code = 0
for name in ("TOKEN-guard.py", "TOKEN-pass.py"):
    proc = subprocess.run([sys.executable, str(FOLDER / name)], input=data, text=True)
    code = proc.returncode  # HERE
sys.exit(code)
""", PY_HEAD + """\
code = 0
for name in ("TOKEN-guard.py", "TOKEN-pass.py"):
    proc = subprocess.run([sys.executable, str(FOLDER / name)], input=data, text=True)
    code = max(code, proc.returncode)
sys.exit(code)
""", REFUSING),
    "pyany": ("delivery/exit-2-lost", "TOKEN.py", PY_HEAD + """\
GUARDS = ["TOKEN-guard.py", "TOKEN-pass.py"]
codes = [subprocess.run([sys.executable, str(FOLDER / g)], input=data, text=True).returncode for g in GUARDS]
sys.exit(1 if any(codes) else 0)  # HERE
""", PY_HEAD + """\
GUARDS = ["TOKEN-guard.py", "TOKEN-pass.py"]
codes = [subprocess.run([sys.executable, str(FOLDER / g)], input=data, text=True).returncode for g in GUARDS]
sys.exit(max(codes))
""", REFUSING),
    "jsflag": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
let failed = false;
for (const name of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  try {
    execFileSync('python3', [`${__dirname}/${name}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  } catch (error) {  // HERE
    console.error(`${name} failed with ${error.status}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
""", JS_HEAD + """\
for (const name of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  try {
    execFileSync('python3', [`${__dirname}/${name}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  } catch (error) {
    process.exit(error.status ?? 1);
  }
}
""", REFUSING),
    "jsmapped": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
const GUARDS = ['TOKEN-guard.py', 'TOKEN-pass.py'];
GUARDS.forEach((name) => {
  const result = spawnSync('python3', [`${__dirname}/${name}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    process.exit(1);  // HERE
  }
});
""", JS_HEAD + """\
const GUARDS = ['TOKEN-guard.py', 'TOKEN-pass.py'];
GUARDS.forEach((name) => {
  const result = spawnSync('python3', [`${__dirname}/${name}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    process.exit(result.status ?? 1);
  }
});
""", REFUSING),
    "jslast": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
let status = 0;
for (const name of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  const result = spawnSync('python3', [`${__dirname}/${name}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  status = result.status;  // HERE
}
process.exit(status);
""", JS_HEAD + """\
let status = 0;
for (const name of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  const result = spawnSync('python3', [`${__dirname}/${name}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  status = Math.max(status, result.status ?? 1);
}
process.exit(status);
""", REFUSING),
    "pyfolder": ("delivery/exit-2-lost", "TOKEN.py", PY_HEAD + """\
failed = False
for guard in sorted((FOLDER / "TOKEN-guards").glob("*.py")):
    if subprocess.run([sys.executable, str(guard)], input=data, text=True).returncode != 0:
        failed = True
sys.exit(1 if failed else 0)  # HERE
""", PY_HEAD + """\
worst = 0
for guard in sorted((FOLDER / "TOKEN-guards").glob("*.py")):
    worst = max(worst, subprocess.run([sys.executable, str(guard)], input=data, text=True).returncode)
sys.exit(worst)
""", {f"TOKEN-guards/{name}": text for name, text in REFUSING.items()}),
    "pylogged": ("delivery/exit-2-lost", "TOKEN.py", PY_HEAD + """\
for name in ("TOKEN-guard.py", "TOKEN-pass.py"):
    command = [sys.executable, str(FOLDER / name)]
    try:
        subprocess.run(command, input=data, text=True, check=True)
    except subprocess.CalledProcessError as error:  # HERE
        print(f"{name} failed ({error.returncode})", file=sys.stderr)
""", PY_HEAD + """\
for name in ("TOKEN-guard.py", "TOKEN-pass.py"):
    command = [sys.executable, str(FOLDER / name)]
    try:
        subprocess.run(command, input=data, text=True, check=True)
    except subprocess.CalledProcessError as error:
        print(f"{name} failed ({error.returncode})", file=sys.stderr)
        sys.exit(error.returncode)
""", REFUSING),
    "jsspawn": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
const { spawn } = require('child_process');
const child = spawn('python3', [`${__dirname}/TOKEN-guard.py`], { stdio: ['pipe', 'inherit', 'inherit'] });
child.stdin.end(input);
child.on('close', (code) => process.exit(code === 0 ? 0 : 1));  // HERE
""", JS_HEAD + """\
const { spawn } = require('child_process');
const child = spawn('python3', [`${__dirname}/TOKEN-guard.py`], { stdio: ['pipe', 'inherit', 'inherit'] });
child.stdin.end(input);
child.on('close', (code) => process.exit(code ?? 1));
""", REFUSING),
    "pytable": ("delivery/stdin-not-passed", "TOKEN.py", """\
import json, subprocess, sys
from pathlib import Path
FOLDER = Path(__file__).parent
GUARDS = {"Bash": ["TOKEN-guards/shell.py"], "Write": ["TOKEN-guards/paths.py"]}
call = json.load(sys.stdin)
for guard in GUARDS.get(call["tool_name"], []):
    done = subprocess.run([sys.executable, str(FOLDER / guard)], capture_output=True, text=True)  # HERE
    if done.returncode == 2:
        sys.stderr.write(done.stderr)
        sys.exit(2)
""", """\
import json, subprocess, sys
from pathlib import Path
FOLDER = Path(__file__).parent
GUARDS = {"Bash": ["TOKEN-guards/shell.py"], "Write": ["TOKEN-guards/paths.py"]}
call = json.load(sys.stdin)
for guard in GUARDS.get(call["tool_name"], []):
    done = subprocess.run([sys.executable, str(FOLDER / guard)], input=json.dumps(call), capture_output=True, text=True)
    if done.returncode == 2:
        sys.stderr.write(done.stderr)
        sys.exit(2)
""", {"TOKEN-guards/shell.py": GUARD, "TOKEN-guards/paths.py": PASSES}),
    "jsfolder": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
const fs = require('fs');
const path = require('path');
const dir = path.join(__dirname, 'TOKEN-guards');
for (const g of fs.readdirSync(dir).filter((f) => f.endsWith('.py')).sort()) {
  try {
    execFileSync('python3', [path.join(dir, g)], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  } catch (err) {  // HERE
    console.error(`${g} exited ${err.status}`);
  }
}
process.exit(0);
""", JS_HEAD + """\
const fs = require('fs');
const path = require('path');
const dir = path.join(__dirname, 'TOKEN-guards');
for (const g of fs.readdirSync(dir).filter((f) => f.endsWith('.py')).sort()) {
  try {
    execFileSync('python3', [path.join(dir, g)], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  } catch (err) {
    console.error(`${g} exited ${err.status}`);
    process.exit(err.status ?? 1);
  }
}
process.exit(0);
""", {f"TOKEN-guards/{name}": text for name, text in REFUSING.items()}),
    "jsstarved": ("delivery/stdin-not-passed", "TOKEN.js", JS_HEAD + """\
for (const g of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  const r = spawnSync('python3', [`${__dirname}/${g}`], { stdio: 'inherit' });  // HERE
  if (r.status !== 0) process.exit(r.status ?? 1);
}
""", JS_HEAD + """\
for (const g of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  const r = spawnSync('python3', [`${__dirname}/${g}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
""", REFUSING),
    "pyjoined": ("delivery/answers-joined", "TOKEN.py", PY_HEAD + """\
for name in ("TOKEN-nothing.py", "TOKEN-deny.py"):
    subprocess.run([sys.executable, str(FOLDER / name)], input=data, text=True)  # HERE
""", PY_HEAD + """\
import json
for name in ("TOKEN-nothing.py", "TOKEN-deny.py"):
    said = subprocess.run([sys.executable, str(FOLDER / name)], input=data, text=True, capture_output=True).stdout
    if "permissionDecision" in said:
        print(said)
        sys.exit(0)
""", ANSWERING),
    "jsjoined": ("delivery/answers-joined", "TOKEN.js", JS_HEAD + """\
let out = '';
for (const name of ['TOKEN-nothing.py', 'TOKEN-deny.py']) {
  out += execFileSync('python3', [`${__dirname}/${name}`], { input, encoding: 'utf8' });  // HERE
}
process.stdout.write(out);
""", JS_HEAD + """\
const answers = [];
for (const name of ['TOKEN-nothing.py', 'TOKEN-deny.py']) {
  const said = execFileSync('python3', [`${__dirname}/${name}`], { input, encoding: 'utf8' });
  answers.push(JSON.parse(said.trim() || '{}'));
}
process.stdout.write(JSON.stringify(Object.assign({}, ...answers)));
""", ANSWERING),
    "shjoined": ("delivery/answers-joined", "TOKEN.sh", """\
#!/bin/bash
payload="$(cat)"
for check in TOKEN-nothing.py TOKEN-deny.py; do
  printf '%s' "$payload" | python3 "$(dirname "$0")/$check"  # HERE
done
exit 0
""", """\
#!/bin/bash
payload="$(cat)"
for check in TOKEN-nothing.py TOKEN-deny.py; do
  said="$(printf '%s' "$payload" | python3 "$(dirname "$0")/$check")"
  case "$said" in *permissionDecision*) printf '%s\n' "$said"; exit 0 ;; esac
done
exit 0
""", ANSWERING),
    "shturn": ("delivery/answers-joined", "TOKEN.sh", """\
#!/bin/bash
HOOKS="$(dirname "$0")"
payload="$(cat)"
python3 "$HOOKS/TOKEN-nothing.py" <<<"$payload"  # HERE
python3 "$HOOKS/TOKEN-deny.py" <<<"$payload"
""", """\
#!/bin/bash
HOOKS="$(dirname "$0")"
payload="$(cat)"
python3 "$HOOKS/TOKEN-nothing.py" <<<"$payload" >/dev/null
python3 "$HOOKS/TOKEN-deny.py" <<<"$payload"
""", ANSWERING),
    "pybranch": ("script/wrong-event-name", "TOKEN.py", """\
import json, sys
call = json.load(sys.stdin)
event = call["hook_event_name"]
if event == "PostToolUse":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "checked"}}))
elif event == "PreToolUse" and "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",  # HERE
                                              "permissionDecision": "deny", "permissionDecisionReason": "no"}}))
""", """\
import json, sys
call = json.load(sys.stdin)
event = call["hook_event_name"]
if event == "PostToolUse":
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "checked"}}))
elif event == "PreToolUse" and "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                              "permissionDecision": "deny", "permissionDecisionReason": "no"}}))
""", {}),
    "pytwo": ("script/text-before-json", "TOKEN.py", f"""\
import json, sys
call = json.load(sys.stdin)
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print(json.dumps({DENY}))  # HERE
print(json.dumps({{}}))
""", f"""\
import json, sys
call = json.load(sys.stdin)
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print(json.dumps({DENY}))
    sys.exit(0)
print(json.dumps({{}}))
""", {}),
    "pyfinally": ("script/text-before-json", "TOKEN.py", f"""\
import json, sys
def main():
    call = json.load(sys.stdin)
    try:
        if "ran-TOKEN.txt" in call["tool_input"]["command"]:
            print(json.dumps({DENY}))  # HERE
            return
    finally:
        print(json.dumps({{"suppressOutput": True}}))
main()
""", f"""\
import json, sys
def main():
    call = json.load(sys.stdin)
    try:
        if "ran-TOKEN.txt" in call["tool_input"]["command"]:
            print(json.dumps({DENY}))
            return
    finally:
        print("checked TOKEN", file=sys.stderr)
main()
""", {}),
    "jstwo": ("script/text-before-json", "TOKEN.js", f"""\
const call = JSON.parse(require('fs').readFileSync(0, 'utf8'));
if (call.tool_input.command.includes('ran-TOKEN.txt')) {{
  console.log(JSON.stringify({JS_DENY}));  // HERE
}}
console.log(JSON.stringify({{}}));
""", f"""\
const call = JSON.parse(require('fs').readFileSync(0, 'utf8'));
if (call.tool_input.command.includes('ran-TOKEN.txt')) {{
  console.log(JSON.stringify({JS_DENY}));
}} else {{
  console.log(JSON.stringify({{}}));
}}
""", {}),
    # the dispatcher never reads the input: its first child does, to the end, and the guard after it reads nothing
    "jsinherit": ("delivery/stdin-not-passed", "TOKEN.js", """\
const { spawnSync } = require('child_process');
for (const name of ['TOKEN-pass.py', 'TOKEN-guard.py']) {
  const result = spawnSync('python3', [`${__dirname}/${name}`], { stdio: 'inherit' });  // HERE
  if (result.status === 2) process.exit(2);
}
""", JS_HEAD + """\
for (const name of ['TOKEN-pass.py', 'TOKEN-guard.py']) {
  const result = spawnSync('python3', [`${__dirname}/${name}`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  if (result.status === 2) process.exit(2);
}
""", {"TOKEN-pass.py": PASSES, "TOKEN-guard.py": GUARD}),
    # the dispatcher knows 2 is a refusal (it tests for it), collects the refusals, and exits 1 for them; its
    # guards are found through the project's folder, which doctor does not follow into a loop
    "jsknows": ("delivery/exit-2-lost", "TOKEN.js", JS_KNOWS, JS_KNOWS.replace("process.exit(1);  // HERE", "process.exit(2);"),
                {f"TOKEN-guards/{name}": text for name, text in REFUSING.items()}),
    # os.system returns the wait status: the guard's 2 is 512, never equal to 2
    "pysystem": ("delivery/exit-2-lost", "TOKEN.py", PY_SYSTEM,
                 PY_SYSTEM.replace("if rc == 2:  # HERE", "if os.waitstatus_to_exitcode(rc) == 2:"), REFUSING),
    # sys.exit(2) in an executor's worker thread: its SystemExit waits in a future nobody reads
    "pypool": ("delivery/exit-2-lost", "TOKEN.py", PY_POOL,
               PY_POOL.replace("pool.submit(check, command)  # HERE", "pool.submit(check, command).result()"), {}),
    # Node's spawnSync result has `status`: `exitCode` (Bun's and a ChildProcess's name) is undefined, exit 0
    "jsexitcode": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
const r = spawnSync('python3', [`${__dirname}/TOKEN-guard.py`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
process.exit(r.exitCode);  // HERE
""", JS_HEAD + """\
const r = spawnSync('python3', [`${__dirname}/TOKEN-guard.py`], { input, stdio: ['pipe', 'inherit', 'inherit'] });
process.exit(r.status ?? 1);
""", REFUSING),
    # sys.exit() of the CompletedProcess object prints it and exits 1
    "pyexitobject": ("delivery/exit-2-lost", "TOKEN.py", PY_HEAD + """\
result = subprocess.run([sys.executable, str(FOLDER / "TOKEN-guard.py")], input=data, text=True)  # HERE
sys.exit(result)
""", PY_HEAD + """\
result = subprocess.run([sys.executable, str(FOLDER / "TOKEN-guard.py")], input=data, text=True)
sys.exit(result.returncode)
""", REFUSING),
    # process.exit(2) in a worker thread ends the worker alone: the main thread ends 0
    "jsworker": ("delivery/exit-2-lost", "TOKEN.js", JS_WORKER, JS_WORKER.replace(
        "new Worker(__filename, { workerData: input });", "new Worker(__filename, { workerData: input })"
        ".on('exit', (code) => process.exit(code));"), {}),
    # sys.exit(2) in a multiprocessing.Process ends that process alone: the script ends 0
    "pyprocess": ("delivery/exit-2-lost", "TOKEN.py", PY_PROCESS, PY_PROCESS + "    sys.exit(worker.exitcode)\n", {}),
    "shexec": ("script/answer-sent-away", "TOKEN.sh", f"""\
#!/bin/bash
exec >>"$(dirname "$0")/TOKEN.log" 2>&1  # HERE
input=$(cat)
case "$input" in
  *ran-TOKEN.txt*) echo '{DENY}' ;;
esac
exit 0
""", f"""\
#!/bin/bash
exec 2>>"$(dirname "$0")/TOKEN.log"
input=$(cat)
case "$input" in
  *ran-TOKEN.txt*) echo '{DENY}' ;;
esac
exit 0
""", {}),
    # the guards' names joined under their folder (`os.path.join(FOLDER, "checks", name)`), a status each pass overwrites
    "pyjoined_folder": ("delivery/exit-2-lost", "TOKEN.py", PY_HEAD + """\
import os
rc = 0
for name in ["TOKEN-guard.py", "TOKEN-pass.py"]:
    proc = subprocess.run([sys.executable, os.path.join(FOLDER, "checks", name)], input=data, text=True)
    rc = proc.returncode  # HERE
sys.exit(rc)
""", PY_HEAD + """\
import os
rc = 0
for name in ["TOKEN-guard.py", "TOKEN-pass.py"]:
    proc = subprocess.run([sys.executable, os.path.join(FOLDER, "checks", name)], input=data, text=True)
    rc = rc or proc.returncode
sys.exit(rc)
""", {f"checks/{name}": text for name, text in REFUSING.items()}),
    # `rc = subprocess.call(...)` on each pass, the guards under a folder the module names
    "pyboundfolder": ("delivery/exit-2-lost", "TOKEN.py", PY_BOUND, PY_BOUND.replace(
        "rc = subprocess.call([sys.executable, CHECKS / name], stdin=saved)  # HERE",
        "rc = max(rc, subprocess.call([sys.executable, CHECKS / name], stdin=saved))"),
        {f"checks/{name}": text for name, text in REFUSING.items()}),
    # Node: the guards under `path.join(__dirname, 'checks', name)`, a status each pass overwrites
    "jsjoinedfolder": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
const path = require('path');
let code = 0;
for (const name of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  const r = spawnSync('python3', [path.join(__dirname, 'checks', name)], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  code = r.status;  // HERE
}
process.exit(code);
""", JS_HEAD + """\
const path = require('path');
let code = 0;
for (const name of ['TOKEN-guard.py', 'TOKEN-pass.py']) {
  const r = spawnSync('python3', [path.join(__dirname, 'checks', name)], { input, stdio: ['pipe', 'inherit', 'inherit'] });
  code = Math.max(code, r.status ?? 1);
}
process.exit(code);
""", {f"checks/{name}": text for name, text in REFUSING.items()}),
    # bash: `|| rc=$?` keeps a failing pass's status, but no exit after the loop hands it on (the loop's 0)
    "shfailedinto": ("delivery/exit-2-lost", "TOKEN.sh", """\
payload=$(cat)
rc=0
for g in TOKEN-guard.py TOKEN-pass.py; do
  python3 "$(dirname "$0")/$g" <<<"$payload" || rc=$?  # HERE
done
""", """\
payload=$(cat)
rc=0
for g in TOKEN-guard.py TOKEN-pass.py; do
  python3 "$(dirname "$0")/$g" <<<"$payload" || rc=$?
done
exit $rc
""", REFUSING),
    # a helper's `return 2` whose call is a statement of its own: the script runs on and ends 0
    "pyreturned": ("delivery/exit-2-lost", "TOKEN.py", """\
import json, sys
def deny(why):
    print(f"Blocked: {why}", file=sys.stderr)
    return 2  # HERE
call = json.load(sys.stdin)
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    deny("TOKEN")
""", """\
import json, sys
def deny(why):
    print(f"Blocked: {why}", file=sys.stderr)
    return 2
call = json.load(sys.stdin)
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    sys.exit(deny("TOKEN"))
""", {}),
    # the answer printed inside redirect_stdout(sys.stderr): it goes to stderr, and exit 0 lets the call run
    "pyredirected": ("script/answer-on-stderr", "TOKEN.py", f"""\
import contextlib, json, sys
with contextlib.redirect_stdout(sys.stderr):  # HERE
    call = json.load(sys.stdin)
    if "ran-TOKEN.txt" in call["tool_input"]["command"]:
        print(json.dumps({DENY}))
""", f"""\
import contextlib, json, sys
with contextlib.redirect_stdout(sys.stderr):
    call = json.load(sys.stdin)
    refused = "ran-TOKEN.txt" in call["tool_input"]["command"]
if refused:
    print(json.dumps({DENY}))
""", {}),
    # an async main's `return 2` run by asyncio.run(...) as a statement: the value goes nowhere
    "pyasyncmain": ("delivery/exit-2-lost", "TOKEN.py", """\
import asyncio, json, sys
async def main():
    call = json.load(sys.stdin)
    if "ran-TOKEN.txt" in call["tool_input"]["command"]:
        print("Blocked: TOKEN", file=sys.stderr)
        return 2  # HERE
    return 0
asyncio.run(main())
""", """\
import asyncio, json, sys
async def main():
    call = json.load(sys.stdin)
    if "ran-TOKEN.txt" in call["tool_input"]["command"]:
        print("Blocked: TOKEN", file=sys.stderr)
        return 2
    return 0
sys.exit(asyncio.run(main()))
""", {}),
    # a Node helper's `return 2` whose call is a statement of its own: node ends 0
    "jsreturned": ("delivery/exit-2-lost", "TOKEN.js", """\
const call = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function deny(why) {
  console.error(`Blocked: ${why}`);
  return 2;  // HERE
}
if ((call.tool_input?.command ?? '').includes('ran-TOKEN.txt')) deny('TOKEN');
""", """\
const call = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function deny(why) {
  console.error(`Blocked: ${why}`);
  return 2;
}
if ((call.tool_input?.command ?? '').includes('ran-TOKEN.txt')) process.exit(deny('TOKEN'));
""", {}),
    # stdout pointed at os.devnull to quiet a library, and the answer printed through it
    "pydevnull": ("script/answer-sent-away", "TOKEN.py", f"""\
import json, os, sys
sys.stdout = open(os.devnull, "w")  # HERE
call = json.load(sys.stdin)
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print(json.dumps({DENY}))
""", f"""\
import json, os, sys
sys.stdout = open(os.devnull, "w")
call = json.load(sys.stdin)
sys.stdout = sys.__stdout__
if "ran-TOKEN.txt" in call["tool_input"]["command"]:
    print(json.dumps({DENY}))
""", {}),
    # spawnSync's result read by a field it does not have, in a test: undefined is never 2
    "jsstatusfield": ("delivery/exit-2-lost", "TOKEN.js", JS_HEAD + """\
const fs = require('fs');
const path = require('path');
const dir = path.join(__dirname, 'TOKEN-guards');
for (const file of fs.readdirSync(dir).sort()) {
  const r = spawnSync('python3', [path.join(dir, file)], { input, encoding: 'utf8' });
  if (r.code === 2) {  // HERE
    process.stderr.write(r.stderr);
    process.exit(2);
  }
}
""", JS_HEAD + """\
const fs = require('fs');
const path = require('path');
const dir = path.join(__dirname, 'TOKEN-guards');
for (const file of fs.readdirSync(dir).sort()) {
  const r = spawnSync('python3', [path.join(dir, file)], { input, encoding: 'utf8' });
  if (r.status === 2) {
    process.stderr.write(r.stderr);
    process.exit(2);
  }
}
""", {f"TOKEN-guards/{name}": text for name, text in REFUSING.items()}),
    # process.stdin.read() as the script starts: null, so the guard reads no input and lets the call run
    "jsnull": ("script/stdin-read-partly", "TOKEN.js", """\
const raw = process.stdin.read();  // HERE
const call = raw ? JSON.parse(raw.toString()) : {};
if ((call.tool_input?.command ?? '').includes('ran-TOKEN.txt')) {
  console.error('Blocked: TOKEN');
  process.exit(2);
}
""", """\
const raw = require('fs').readFileSync(0);
const call = raw.length ? JSON.parse(raw.toString()) : {};
if ((call.tool_input?.command ?? '').includes('ran-TOKEN.txt')) {
  console.error('Blocked: TOKEN');
  process.exit(2);
}
""", {}),
    # the chunks a "data" handler gathers, parsed right after it is registered: still empty then
    "jsearlyparse": ("script/stdin-read-partly", "TOKEN.js", """\
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { data += chunk; });
const call = data ? JSON.parse(data) : {};  // HERE
if ((call.tool_input?.command ?? '').includes('ran-TOKEN.txt')) {
  console.error('Blocked: TOKEN');
  process.exit(2);
}
""", """\
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { data += chunk; });
process.stdin.on('end', () => {
  const call = data ? JSON.parse(data) : {};
  if ((call.tool_input?.command ?? '').includes('ran-TOKEN.txt')) {
    console.error('Blocked: TOKEN');
    process.exit(2);
  }
});
""", {}),
    # a bash loop over a folder's guards: a skip before the child is no look at its status
    "shfolder": ("delivery/exit-2-lost", "TOKEN.sh", """\
payload=$(cat)
for g in "$(dirname "$0")"/TOKEN-guards/*.py; do
  [ -f "$g" ] || continue
  printf '%s' "$payload" | python3 "$g"  # HERE
done
""", """\
payload=$(cat)
for g in "$(dirname "$0")"/TOKEN-guards/*.py; do
  [ -f "$g" ] || continue
  printf '%s' "$payload" | python3 "$g" || exit $?
done
""", {f"TOKEN-guards/{name}": text for name, text in REFUSING.items()}),
    # each pass stores its guard's status anew, and the exit after the loop hands on the last
    "shstored": ("delivery/exit-2-lost", "TOKEN.sh", """\
payload=$(cat)
rc=0
for g in TOKEN-guard.py TOKEN-pass.py; do
  python3 "$(dirname "$0")/$g" <<<"$payload"
  rc=$?  # HERE
done
exit $rc
""", """\
payload=$(cat)
rc=0
for g in TOKEN-guard.py TOKEN-pass.py; do
  python3 "$(dirname "$0")/$g" <<<"$payload"
  s=$?
  if [ "$s" -gt "$rc" ]; then rc=$s; fi
done
exit $rc
""", REFUSING),
    # a helper's `return 2` called in a case arm: it ends the function only, and the log line after sets 0
    "shreturned": ("delivery/exit-2-lost", "TOKEN.sh", """\
deny() {
  echo "Blocked: $1" >&2
  return 2  # HERE
}
input=$(cat)
case "$input" in
  *ran-TOKEN.txt*) deny "TOKEN" ;;
esac
echo "checked" >/dev/null
""", """\
deny() {
  echo "Blocked: $1" >&2
  return 2
}
input=$(cat)
case "$input" in
  *ran-TOKEN.txt*) deny "TOKEN" || exit $? ;;
esac
echo "checked" >/dev/null
""", {}),
    # a case on the guard's status that blocks for 1 and lets every other status (its 2 too) through
    "shmapped": ("delivery/exit-2-lost", "TOKEN.sh", """\
python3 "$(dirname "$0")/TOKEN-guard.py"
case $? in
  0) exit 0 ;;
  1) exit 2 ;;
  *) echo "the guard crashed" >&2; exit 0 ;;  # HERE
esac
""", """\
python3 "$(dirname "$0")/TOKEN-guard.py"
case $? in
  0) exit 0 ;;
  1|2) exit 2 ;;
  *) echo "the guard crashed" >&2; exit 0 ;;
esac
""", REFUSING),
}
RUNNERS = {".py": "python3", ".js": "node", ".sh": "bash"}


def files(name: str, twin: bool, token: str) -> dict[str, str]:
    """The gate's files (the dispatcher or script first), for the gate named `token`."""
    _, main, broken, fixed, children = CASES[name]
    return {path.replace("TOKEN", token): text.replace("TOKEN", token)
            for path, text in {main: fixed if twin else broken, **children}.items()}


def command(name: str, token: str) -> str:
    """The hook's command, as Claude Code runs it from the settings."""
    main = CASES[name][1]
    return f'{RUNNERS[main[main.rindex("."):]]} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{main.replace("TOKEN", token)}'


def marked_line(name: str) -> int:
    """The line of the broken script doctor names."""
    return next(n for n, line in enumerate(CASES[name][2].splitlines(), 1) if "HERE" in line)
