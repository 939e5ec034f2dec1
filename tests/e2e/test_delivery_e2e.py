"""Gates whose block never reaches the real Claude Code, and their corrected twins.

Each broken gate means to refuse a Bash call (exit 2, or a deny on stdout), and the code between
the refusal and the host loses it: an except that catches sys.exit(2)'s SystemExit, a dispatcher
that drops its child's status or hands sys.exit a wait status, a catch around execSync, an exit
status set back to 0, a wrapper whose own last command decides its status, an EXIT trap, a git
command that prints on stdout before the JSON answer. The real CLI runs the call past each broken
gate and not past its twin; doctor flags the broken one at the line marked `HERE` and not the twin.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, only_its_call, run_claude, run_gates

pytestmark = pytest.mark.e2e

GUARD = """\
import json, sys
json.load(sys.stdin)
print("Blocked: no shell commands here", file=sys.stderr)
sys.exit(2)
"""
DENY = ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
        '"permissionDecisionReason": "no shell commands here"}}')

CAUGHT = """\
import json, sys
def main():
    json.load(sys.stdin)
    print("Blocked: no shell commands here", file=sys.stderr)
    sys.exit(2)
try:
    main()
except BaseException as error:  # HERE
    print(f"hook failed: {error!r}", file=sys.stderr)
"""
DISPATCHER = """\
import os, subprocess, sys
subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "guard.py")])  # HERE
"""
WAIT_STATUS = """\
import os, sys
status = os.system(sys.executable + " " + os.path.join(os.path.dirname(__file__), "guard.py"))  # HERE
sys.exit(status)
"""
EXEC_SYNC = """\
const { execSync } = require("child_process");
try {
  execSync(`python3 ${__dirname}/guard.py`, { stdio: "inherit" });
} catch (error) {  // HERE
  console.error("guard failed");
}
"""
EXIT_CODE = """\
require("fs").readFileSync(0, "utf8");
console.error("Blocked: no shell commands here");
process.exitCode = 2;
process.exitCode = 0;  // HERE
"""
WRAPPER = """\
#!/bin/bash
python3 "$(dirname "$0")/guard.py"  # HERE
echo "guard ran" >&2
"""
TRAP = """\
#!/bin/bash
trap 'rm -f /tmp/hw-guard.$$; exit 0' EXIT  # HERE
cat > /tmp/hw-guard.$$
echo "Blocked: no shell commands here" >&2
exit 2
"""
GIT_OUTPUT = """\
#!/bin/bash
cat > /dev/null
cd "$CLAUDE_PROJECT_DIR" && git status  # HERE
echo '%s'
""" % DENY

CASES = {  # name: (files, the file the handler runs, the rule, its twin's files)
    "except BaseException around sys.exit(2)": (
        {"gate.py": CAUGHT}, "gate.py", "delivery/exit-2-lost",
        {"gate.py": CAUGHT.replace("except BaseException as error:  # HERE", "except Exception as error:")}),
    "subprocess.run drops the child's status": (
        {"gate.py": DISPATCHER, "guard.py": GUARD}, "gate.py", "delivery/exit-2-lost",
        {"gate.py": DISPATCHER.replace("subprocess.run(", "sys.exit(subprocess.run(").replace(
            '"guard.py")])', '"guard.py")]).returncode)'), "guard.py": GUARD}),
    "sys.exit(os.system(...)) exits 512": (
        {"gate.py": WAIT_STATUS, "guard.py": GUARD}, "gate.py", "delivery/exit-2-lost",
        {"gate.py": WAIT_STATUS.replace("sys.exit(status)", "sys.exit(os.waitstatus_to_exitcode(status))"),
         "guard.py": GUARD}),
    "a catch around execSync": (
        {"gate.js": EXEC_SYNC, "guard.py": GUARD}, "gate.js", "delivery/exit-2-lost",
        {"gate.js": EXEC_SYNC.replace('console.error("guard failed");', "process.exit(error.status);"),
         "guard.py": GUARD}),
    "process.exitCode set back to 0": (
        {"gate.js": EXIT_CODE}, "gate.js", "delivery/exit-2-lost",
        {"gate.js": EXIT_CODE.replace("process.exitCode = 0;  // HERE\n", "")}),
    "a wrapper's own last command": (
        {"gate.sh": WRAPPER, "guard.py": GUARD}, "gate.sh", "delivery/exit-2-lost",
        {"gate.sh": 'echo "running the guard" >&2\nexec python3 "$(dirname "$0")/guard.py"\n', "guard.py": GUARD}),
    "an EXIT trap that exits 0": (
        {"gate.sh": TRAP}, "gate.sh", "delivery/exit-2-lost",
        {"gate.sh": TRAP.replace("; exit 0' EXIT  # HERE", "' EXIT")}),
    "git status before the JSON answer": (
        {"gate.sh": GIT_OUTPUT}, "gate.sh", "script/text-before-json",
        {"gate.sh": GIT_OUTPUT.replace("git status  # HERE", "git status >/dev/null")}),
}
RUNNERS = {"py": sys.executable, "js": "node", "sh": "bash"}


def _command(runs: str, folder: str = "") -> str:
    return f'{shlex.quote(RUNNERS[runs.rsplit(".", 1)[1]])} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{folder}{runs}'


def _project(project, files: dict[str, str], runs: str) -> None:
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (hooks / name).write_text(text)
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": _command(runs)}]}]}}))
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # (git status has something to say)


def test_a_block_the_code_loses_on_its_way_to_claude_code_is_what_doctor_flags(claude_cli, home, project):
    """Every gate and its twin in one session, each in a folder of its own: its handler's `if`
    (docs/hosts/claude-code.md) gives it the one call that names its folder."""
    hooks = project / ".claude" / "hooks"
    gates, handlers = {}, []
    for n, (name, (broken, runs, _, fixed)) in enumerate(CASES.items()):
        for kind, files in (("broken", broken), ("twin", fixed)):
            folder = f"case{n}-{kind}"
            (hooks / folder).mkdir(parents=True)
            for file, text in files.items():
                (hooks / folder / file).write_text(text)
            gates[folder] = name
            handlers.append({"type": "command", "command": _command(runs, folder + "/"),
                             "if": only_its_call(folder)})
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]}}))
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # (git status has something to say)

    ran, run = run_gates(project, home, gates, claude=claude_cli)
    # what the real CLI did with each gate's answer (Claude Code CLAUDE_VERSION)
    assert ran == {folder for folder in gates if folder.endswith("-broken")}, (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    rules = {rule for _, _, rule, _ in CASES.values()}
    flagged = {(*f["path"].rsplit("/", 2)[1:], f["rule"], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in rules}
    expected = set()
    for folder, name in gates.items():
        broken, runs, rule, _ = CASES[name]
        if folder.endswith("-broken"):
            line = next(n for n, text in enumerate(broken[runs].splitlines(), 1) if "HERE" in text)
            expected.add((folder, runs, rule, line))
    assert flagged == expected


REWRITE = """\
import json, sys
call = json.load(sys.stdin)
command = call["tool_input"]["command"]
new_input = {"command": command}  # HERE
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                         "updatedInput": new_input}}))
"""


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
def test_a_rewrite_built_from_some_of_the_fields_loses_the_others_on_the_real_cli(claude_cli, home, project, twin):
    """The call gives Bash a 1 s timeout on a 4 s command: a rewrite that keeps only `command`
    drops the timeout and the command runs to its end; one that starts from the input keeps it."""
    text = REWRITE.replace('{"command": command}  # HERE', '{**call["tool_input"], "command": command}') if twin \
        else REWRITE
    _project(project, {"gate.py": text}, "gate.py")
    call = {"command": "sleep 4; touch late.txt", "timeout": 1000, "description": "wait"}
    run = run_claude(project, home, [{"tool": "Bash", "input": call}], claude=claude_cli, timeout=180)
    assert run.returncode == 0, run.stderr
    assert (project / "late.txt").exists() != twin, (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    flagged = [f for f in json.loads(doctor.stdout)["findings"] if f["rule"] == "script/rewrite-drops-fields"]
    assert [f["line"] for f in flagged] == ([] if twin else [4])  # where the object is made


def test_a_hook_that_answers_without_reading_its_stdin_is_still_heard(claude_cli, home, project):
    """A deny printed before the hook reads any of a 300 KB payload (more than a pipe holds):
    Claude Code still reads the answer, so ending before stdin is read loses nothing (and doctor
    says nothing of it)."""
    _project(project, {"gate.sh": "#!/bin/bash\necho '%s'\n" % DENY}, "gate.sh")
    settings = project / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace('"Bash"', '"Write"'))
    target = project / "big.txt"
    run = run_claude(project, home, [{"tool": "Write", "input": {"file_path": str(target), "content": "x" * 300_000}}],
                     claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert not target.exists(), (CLAUDE_VERSION, run.tool_results)
    assert "no shell commands here" in json.dumps(run.tool_results)
    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    assert [f["rule"] for f in json.loads(doctor.stdout)["findings"] if f["path"].endswith("gate.sh")] == []
