"""The prompt path, on a real pseudo-terminal: plan shown, question asked, answer obeyed."""
import os
import pty
import select
import subprocess
import sys
import time

from installer import resources
from support import commands, read_json


def run_on_a_terminal(args, answer, env, timeout=30):
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "installer", *args], stdin=follower, stdout=follower,
                            stderr=follower, env=env, cwd=resources.data_root(), close_fds=True)
    os.close(follower)
    output, answered, deadline = b"", False, time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        if not answered and b"Apply this change?" in output:
            os.write(leader, answer.encode() + b"\r")
            answered = True
        if proc.poll() is not None and not ready:
            break
    proc.wait(timeout=5)
    os.close(leader)
    return proc.returncode, output.decode("utf-8", "replace")


def terminal_env(home):
    return dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / ".state"), TERM="xterm", COLUMNS="200")


def test_on_a_terminal_install_shows_the_plan_and_writes_after_yes(home, project):
    code, shown = run_on_a_terminal(["install", "git-guard", "--scope", "project", "--project", str(project)],
                                    "y", terminal_env(home))

    assert code == 0, shown
    assert "PreToolUse on Bash" in shown and "+++" in shown
    assert len(commands(read_json(project / ".claude" / "settings.json"))) == 1


def test_on_a_terminal_answering_no_writes_nothing(home, project):
    code, shown = run_on_a_terminal(["install", "git-guard", "--scope", "project", "--project", str(project)],
                                    "n", terminal_env(home))

    assert code == 3, shown
    assert "declined" in shown
    assert not (project / ".claude").exists()
