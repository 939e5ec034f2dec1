"""Dispatchers that run several guards as child processes (Python and Node), and scripts whose
answer never reaches Claude Code as one JSON object, with their corrected twins, in one session
of the real CLI (the cases: tests/dispatchers.py).

Each gate refuses the Bash call that names its own token (`touch ran-TOKEN.txt`) and lets every
other pass: a dispatcher whose loop loses its guard's exit 2 (a CalledProcessError caught and the
loop continued, a status each pass overwrites, a status of its own, a catch that sets a flag, an
exit 1 for any failure), whose children's answers land on its stdout one after another (`{}`, then
a deny), a Python or Node guard that prints its deny and then `{}` (or prints again in a
`finally:`), and a shell guard whose `exec >>log 2>&1` sends its deny into the log; a helper's
`return 2` called as a statement (Python, an async main under asyncio.run, Node, a bash `case` arm),
a deny printed inside `redirect_stdout(sys.stderr)` or after `sys.stdout = open(os.devnull, "w")`,
spawnSync's `r.code` tested for 2, Node's `process.stdin.read()` as it starts (null), and bash
loops and `case`s on a guard's status that let its 2 go (a skip before the child, `rc=$?` each
pass, `*) exit 0`). The real CLI
runs the call past each broken gate and not past its twin; doctor names each broken gate at the
line marked HERE, with its rule, and not the twin. What the host did is recorded in
docs/hosts/claude-code.md#exit-status-on-the-way-out.
"""
from __future__ import annotations

import json

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, only_its_call, run_gates
from dispatchers import CASES, command, files, marked_line

pytestmark = pytest.mark.e2e


def test_dispatchers_and_answers_that_never_reach_the_host_let_the_call_run_and_doctor_names_the_line(
        claude_cli, home, project):
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    gates, commands = [], []
    for name in CASES:
        for kind in ("broken", "twin"):
            token = f"{name}-{kind}"
            for path, text in files(name, kind == "twin", token).items():
                (hooks / path).parent.mkdir(parents=True, exist_ok=True)
                (hooks / path).write_text(text)
            gates.append(token)
            commands.append(command(name, token))
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": run, "if": only_its_call(gate)} for gate, run in zip(gates, commands)]}]}},
        indent=1))

    ran, run = run_gates(project, home, gates, claude=claude_cli)
    # what the real CLI did with each gate's answer (Claude Code CLAUDE_VERSION)
    assert ran == {token for token in gates if token.endswith("-broken")}, (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    rules = {case[0] for case in CASES.values()}
    flagged = {(f["path"].rsplit("/", 1)[1], f["rule"], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in rules}
    assert flagged == {(CASES[name][1].replace("TOKEN", f"{name}-broken"), CASES[name][0], marked_line(name))
                       for name in CASES}
