"""A Python dispatcher that has read the hook's input and runs its guard through a shell gives the
guard that input when the command it writes redirects or pipes it (`guard < saved.json`,
`cat saved.json | guard`): no delivery/stdin-not-passed there. Without the redirection, or with a
`<` that is only an argument of a program run without a shell, the guard reads an empty stdin.

Each dispatcher is run on a PreToolUse payload, so a case said to pass the input really blocks and
one said to starve its guard really lets the call run."""
from __future__ import annotations

import pytest
from doctor_support import doctor, found, settings
from test_doctor_delivery import GUARD, _status, _write

HEAD = ("import os, subprocess, sys, tempfile\nHERE = os.path.dirname(os.path.abspath(__file__))\n"
        "payload = sys.stdin.read()\n"
        "with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as saved:\n    saved.write(payload)\n")
GUARD_AT = "{sys.executable} {os.path.join(HERE, 'guard.py')}"
EXIT = "sys.exit(2 if rc == 2 else 0)\n"

# name: (how the dispatcher runs its guard, whether the guard gets the input)
RUNS = {
    "os.system with the saved input redirected": (
        f"rc = os.waitstatus_to_exitcode(os.system(f\"{GUARD_AT} < {{saved.name}}\"))\n", True),
    "shell=True with the saved input piped in": (
        f"rc = subprocess.run(f\"cat {{saved.name}} | {GUARD_AT}\", shell=True).returncode\n", True),
    "os.system with no redirection": (f"rc = os.waitstatus_to_exitcode(os.system(f\"{GUARD_AT}\"))\n", False),
    "a list argv whose '<' is only an argument": (
        "rc = subprocess.run([sys.executable, os.path.join(HERE, 'guard.py'), '<', saved.name]).returncode\n", False),
}


@pytest.mark.parametrize("name", list(RUNS))
def test_a_python_dispatcher_passes_its_input_to_a_guard_through_the_shell_only_by_redirecting_it(tmp_path, name):
    run, passes = RUNS[name]
    base = tmp_path / "project"
    command = _write(base, {"run.py": HEAD + run + EXIT, "guard.py": GUARD}, "run.py")

    assert (_status(base, command) == 2) == passes  # what the host would receive
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/stdin-not-passed")
    assert bool(flagged) != passes, flagged


PASSES = "import json, sys\njson.load(sys.stdin)\n"  # reads the whole input, refuses nothing
JS_LOOP = ("const cp = require('child_process');\n{read}for (const g of ['pass.py', 'guard.py']) {{\n"
           "  const r = cp.spawnSync('python3', [__dirname + '/' + g], {options});\n"
           "  if (r.status === 2) process.exit(2);\n}}\n")
PY_LOOP = ("import os, subprocess, sys\nHERE = os.path.dirname(os.path.abspath(__file__))\n{read}"
           "for g in ('pass.py', 'guard.py'):\n    r = subprocess.run([sys.executable, os.path.join(HERE, g)]{options})\n"
           "    if r.returncode == 2:\n        sys.exit(2)\n")
PY_TURNS = ("import os, subprocess, sys\nHERE = os.path.dirname(os.path.abspath(__file__))\n{read}"
            "subprocess.run([sys.executable, os.path.join(HERE, 'pass.py')]{options})\n"
            "r = subprocess.run([sys.executable, os.path.join(HERE, 'guard.py')]{options})\nsys.exit(r.returncode)\n")
# name: (the dispatcher, its file, the line doctor names; its twin, which reads the input once and hands it to each)
SHARED_STDIN = {
    "a Node loop whose children inherit stdin": (
        JS_LOOP.format(read="", options="{ stdio: 'inherit' }"), "run.js", 3,
        JS_LOOP.format(read="const input = require('fs').readFileSync(0);\n",
                       options="{ input, stdio: ['pipe', 'inherit', 'inherit'] }")),
    "a Node loop whose children get fd 0": (
        JS_LOOP.format(read="", options="{ stdio: [0, 1, 2] }"), "run.js", 3,
        JS_LOOP.format(read="const input = require('fs').readFileSync(0);\n",
                       options="{ input, stdio: ['pipe', 1, 2] }")),
    "a Python loop whose children inherit stdin": (
        PY_LOOP.format(read="", options=""), "run.py", 4,
        PY_LOOP.format(read="data = sys.stdin.read()\n", options=", input=data, text=True")),
    "two Python children run in turn": (
        PY_TURNS.format(read="", options=""), "run.py", 4,
        PY_TURNS.format(read="data = sys.stdin.read()\n", options=", input=data, text=True")),
}


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(SHARED_STDIN))
def test_children_that_share_the_dispatchers_unread_stdin_leave_all_but_the_first_nothing(tmp_path, name, twin):
    broken, runs, line, fixed = SHARED_STDIN[name]
    base = tmp_path / "project"
    command = _write(base, {runs: fixed if twin else broken, "pass.py": PASSES, "guard.py": GUARD}, runs)

    assert (_status(base, command) == 2) == twin  # what the host would receive
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/stdin-not-passed")
    assert [f.line for f in flagged] == ([] if twin else [line])


LOGS = "#!/bin/bash\ncat >> \"$(dirname \"$0\")/hook.log\"\n"  # reads the input to its end
NOTIFIES = "#!/bin/bash\necho 'checking a call' >&2\n"  # leaves stdin alone
SH_GUARD = "#!/bin/bash\ncmd=$(jq -r .tool_input.command)\ncase \"$cmd\" in rm*) echo 'no rm' >&2; exit 2 ;; esac\n"


@pytest.mark.parametrize("wrapper, first, starved", [
    ('DIR="$(dirname "$0")"\n"$DIR/first.sh"\n"$DIR/guard.sh"\n', LOGS, True),
    ('DIR="$(dirname "$0")"\nbash "$DIR/first.sh" && bash "$DIR/guard.sh"\n', LOGS, True),
    ('DIR="$(dirname "$0")"\npayload=$(cat)\n"$DIR/first.sh" <<<"$payload"\n"$DIR/guard.sh" <<<"$payload"\n', LOGS, False),
    ('DIR="$(dirname "$0")"\n"$DIR/first.sh"\n"$DIR/guard.sh"\n', NOTIFIES, False),  # (the first never reads it)
    ('DIR="$(dirname "$0")"\n"$DIR/first.sh" </dev/null\n"$DIR/guard.sh"\n', LOGS, False),
], ids=["in turn", "behind &&", "read once, handed to each", "a first that leaves stdin alone", "a first given nothing"])
def test_a_wrapper_whose_first_child_reads_the_input_leaves_the_next_nothing(tmp_path, wrapper, first, starved):
    base = tmp_path / "project"
    command = _write(base, {"run.sh": "#!/bin/bash\n" + wrapper, "first.sh": first, "guard.sh": SH_GUARD}, "run.sh")
    for name in ("first.sh", "guard.sh"):
        (base / ".claude/hooks" / name).chmod(0o755)
    assert (_status(base, command) == 2) != starved  # what the host would receive
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/stdin-not-passed")
    assert [f.line for f in flagged] == ([wrapper.count("\n") + 1] if starved else [])  # (after the #! line)


@pytest.mark.parametrize("loop, starved", [
    ('for g in first.sh guard.sh; do\n  "$DIR/$g"\ndone\n', True),
    ('for g in "$DIR"/*.sh; do\n  "$g"\ndone\n', True),
    ('payload=$(cat)\nfor g in first.sh guard.sh; do\n  "$DIR/$g" <<<"$payload"\ndone\n', False),
], ids=["over names", "over a folder's files", "the input read once and handed to each"])
def test_a_wrapper_loop_whose_first_child_reads_the_input_leaves_the_next_nothing(tmp_path, loop, starved):
    base = tmp_path / "project"
    wrapper = '#!/bin/bash\nDIR="$(dirname "$0")/checks"\n' + loop
    command = _write(base, {"run.sh": wrapper, "checks/first.sh": LOGS, "checks/guard.sh": SH_GUARD}, "run.sh")
    for name in ("first.sh", "guard.sh"):
        (base / ".claude/hooks/checks" / name).chmod(0o755)
    assert (_status(base, command) == 2) != starved  # what the host would receive
    flagged = found(doctor(base, {".claude/settings.json": settings(command=command)}), "delivery/stdin-not-passed")
    assert [f.line for f in flagged] == ([wrapper.count("\n", 0, wrapper.rindex('  "$')) + 1] if starved else [])
