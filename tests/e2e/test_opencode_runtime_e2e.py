"""The serving runtime behind hookwright's opencode plugin, in the real opencode 1.18.33.

git-guard's plugin starts one runtime for the opencode process and keeps it; each way that runtime
can fail is provoked here for real, through the model's own bash calls: the runtime killed
between calls, stopped so that a call times out, two tool calls at once, an answer that is
garbage. Each time the agent goes on, the log has a line that says what happened, and the next
call is judged again (by a new runtime where the old one is gone). No runtime outlives opencode,
and none is left a zombie while it runs.

A bash call finds the runtime among opencode's own children (`ps --ppid $PPID`: the bash tool's
parent is opencode), by the `--serve` in its command line.
"""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from claude_cli import hookwright
from hookwright.hosts.opencode.adapter import render_plugin
from opencode_cli import run_opencode

pytestmark = pytest.mark.e2e

RUNTIME = Path(__file__).resolve().parents[2] / "templates" / "runtime"
RESET = {"tool": "bash", "input": {"command": "git reset --hard", "description": "discard"}}
STATUS = {"tool": "bash", "input": {"command": "git status --short", "description": "status"}}
SERVING = "ps -o pid=,args= --ppid $PPID | awk '/--serv[e]/ {print $1}'"  # opencode's serving runtimes


def bash(command: str) -> dict:
    return {"tool": "bash", "input": {"command": command, "description": "probe"}}


CHILDREN = bash("ps -o stat=,args= --ppid $PPID | grep -v '^R'")  # opencode's children (but this ps)
KILL = bash(f"kill -KILL $({SERVING}) && echo killed")
STOP = bash(f"kill -STOP $({SERVING}) && echo stopped")


def guarded(home: Path, project: Path) -> Path:
    """git-guard installed for opencode in the project; the log its plugin and runtime write to."""
    done = hookwright("install", "git-guard", "--host", "opencode", "--scope", "project", "--project", str(project),
                      "--yes", home=home, project=project)
    assert done.returncode == 0, done.stdout + done.stderr
    return home / "hooks.log"


def run(project: Path, home: Path, turns: list, log: Path):
    ran = run_opencode(project, home, [*turns, "done"], env={"HOOKWRIGHT_LOG": str(log)})
    assert ran.returncode == 0 and not ran.timed_out, ran.stderr[-3000:]
    return ran


def lines(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def serving_and_zombies(children: dict) -> tuple[int, int]:
    """How many of opencode's children are serving runtimes, and how many of them (an interpreter
    ps shows as `[python3] <defunct>`) are zombies (state Z). opencode's own children, such as the
    git it runs for its snapshots, are its to reap: one caught between its exit and opencode's
    wait failed a CI run."""
    rows = [line.split(None, 1) for line in children["content"].splitlines() if line.strip()]
    return (sum("--serve" in row[-1] for row in rows),
            sum(row[0].startswith("Z") and row[-1].startswith("[python") for row in rows))


def refused(result: dict) -> bool:
    return result["content"].startswith("hookwright git-guard: ") and "reset --hard" in result["content"]


def test_a_runtime_killed_between_calls_is_started_again_and_the_log_says_so(opencode_cli, home, dirty_repo):
    log = guarded(home, dirty_repo)
    ran = run(dirty_repo, home, [STATUS, KILL, RESET, CHILDREN], log)

    status, killed, reset, children = ran.tool_results
    assert "a.txt" in status["content"] and killed["content"] == "killed\n"
    assert refused(reset) and (dirty_repo / "a.txt").read_text() == "v2\n"  # judged by a new runtime
    assert serving_and_zombies(children) == (1, 0), children["content"]  # the new one, and the old one reaped
    (line,) = lines(log)
    assert "the runtime ended by SIGKILL between calls; the next call starts it again" in line


def test_a_call_the_runtime_does_not_answer_in_time_goes_on_and_the_next_is_judged_again(opencode_cli, home,
                                                                                         dirty_repo):
    log = guarded(home, dirty_repo)
    ran = run(dirty_repo, home, [STATUS, STOP, STATUS, RESET, CHILDREN], log)

    status, stopped, late, reset, children = ran.tool_results
    assert stopped["content"] == "stopped\n" and "a.txt" in late["content"]  # it went on, unjudged
    assert refused(reset)  # a new runtime
    assert serving_and_zombies(children) == (1, 0), children["content"]
    (line,) = lines(log)
    assert "no answer within 10s; the runtime is stopped; the call goes on" in line


def test_two_tool_calls_at_once_each_get_their_own_answer(opencode_cli, home, dirty_repo):
    log = guarded(home, dirty_repo)
    ran = run(dirty_repo, home, [[RESET, STATUS, RESET]], log)

    first, status, second = sorted(ran.tool_results, key=lambda r: r["tool_call_id"])
    assert refused(first) and refused(second) and "a.txt" in status["content"]
    assert (dirty_repo / "a.txt").read_text() == "v2\n" and lines(log) == []


GARBAGE = """\
import sys
for line in sys.stdin:
    print("no JSON at all", flush=True)
"""


def test_a_runtime_that_answers_garbage_lets_the_call_go_on_with_a_line_in_the_log(opencode_cli, home, project):
    """A runtime of our own (not a pack's) that answers every call with garbage."""
    plugins, runtime = project / ".opencode" / "plugins", project / ".opencode" / "hookwright" / "probe"
    plugins.mkdir(parents=True)
    runtime.mkdir(parents=True)
    hook = {"script": "../hookwright/probe/garbage", "args": ["--host", "opencode"], "tools": "bash", "timeout": 10}
    (plugins / "hookwright-probe.js").write_bytes(render_plugin({"format": 1, "pack": "probe", "hooks": [hook]}))
    (runtime / "garbage").write_text(GARBAGE)
    log = home / "hooks.log"
    ran = run(project, home, [bash("echo ran")] * 2, log)

    assert [result["content"] for result in ran.tool_results] == ["ran\n"] * 2
    assert len(lines(log)) == 2 and all('answered no call ("no JSON at all")' in line for line in lines(log))


def test_no_runtime_outlives_opencode(opencode_cli, home, dirty_repo):
    log = guarded(home, dirty_repo)
    ran = run(dirty_repo, home, [bash(f"{SERVING} > serving.pid"), STATUS], log)

    (pid,) = (dirty_repo / "serving.pid").read_text().split()
    assert "a.txt" in ran.tool_results[1]["content"]
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:  # its stdin ended with opencode: it ends too
        time.sleep(0.1)
    assert not alive(pid), f"the runtime {pid} outlived opencode"


def alive(pid: str) -> bool:
    """Running (a zombie has ended; what reaps it then is the system's, opencode being gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_without_python3_on_path_every_call_goes_on_with_a_line_in_the_log(opencode_cli, home, dirty_repo, tmp_path):
    """opencode's own Bun says so when the runtime cannot start: no throw, no hang."""
    log = guarded(home, dirty_repo)
    tools = tmp_path / "bin"  # what the session needs, and no python3
    tools.mkdir()
    for program in ("bash", "sh", "git", "env"):
        (tools / program).symlink_to(shutil.which(program))
    ran = run_opencode(dirty_repo, home, [RESET, bash("echo ran"), "done"],
                       env={"HOOKWRIGHT_LOG": str(log), "PATH": str(tools)})
    assert ran.returncode == 0 and not ran.timed_out, ran.stderr[-3000:]

    assert [result["content"] for result in ran.tool_results][1] == "ran\n"
    assert (dirty_repo / "a.txt").read_text() == "v1\n"  # unguarded, the reset ran
    assert len(lines(log)) == 2 and all("python3" in line and "the call goes on" in line for line in lines(log)), \
        lines(log)
