"""The prompt path, on a real pseudo-terminal: plan shown, question asked, answer obeyed."""
import json
import os
import pty
import select
import shlex
import shutil
import subprocess
import sys
import time

import pytest

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


# ---- in a real terminal emulator (tmux): the conflict prompt -------------------------------------------

REWRITER = ("import json, sys\ndata = json.load(sys.stdin)\nprint(json.dumps({'hookSpecificOutput': {"
            "'hookEventName': 'PreToolUse', 'permissionDecision': 'allow', 'updatedInput': data['tool_input']}}))\n")


class Tmux:
    """One tmux server of our own (its own socket), one session running one command."""

    def __init__(self, tmp_path, command: list[str], env: dict) -> None:
        self.socket = f"hookwright-test-{os.getpid()}-{id(self)}"
        self.exit_file = tmp_path / "exit-code"
        line = " ".join(shlex.quote(part) for part in ["env", *(f"{k}={v}" for k, v in env.items()), *command])
        self.run("new-session", "-d", "-s", "main", "-x", "200", "-y", "60",
                 f"{line}; echo $? > {shlex.quote(str(self.exit_file))}; sleep 60")

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", "main")

    def wait_for(self, predicate, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.screen()
            if predicate(shown):
                return shown
            time.sleep(0.1)
        raise AssertionError(f"the terminal never showed what was waited for:\n{self.screen()}")

    def exit_code(self, timeout: float = 30) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.exit_file.is_file() and self.exit_file.read_text().strip():
                return int(self.exit_file.read_text())
            time.sleep(0.1)
        raise AssertionError(f"the command never ended:\n{self.screen()}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def test_in_a_terminal_the_prompt_names_the_conflict_and_defaults_to_no(tmp_path, home, project):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    (project / ".claude" / "hooks").mkdir(parents=True)
    (project / ".claude" / "hooks" / "rewrite.py").write_text(REWRITER)
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"fs": {"command": "fs-server"}}}))
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "mcp__fs__.*", "hooks": [
        {"type": "command", "command": 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rewrite.py'}]}]}}, indent=2))
    before = settings.read_bytes()
    env = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".state"), "PYTHONPATH": str(resources.data_root()),
           "PATH": os.environ["PATH"]}
    terminal = Tmux(tmp_path, [sys.executable, "-m", "installer", "install", "path-normalizer", "--scope", "project",
                               "--project", str(project)], env)
    try:
        shown = terminal.wait_for(lambda text: "Apply it anyway" in text)
        prompt = shown[shown.index("This change introduces"):]
        assert "conflict/input-rewrite-race" in prompt and "rewrite.py" in prompt
        assert "[y/n] (n)" in prompt  # the default is no
        terminal.run("send-keys", "-t", "main", "Enter")  # take the default
        assert terminal.exit_code() == 3
        assert "declined" in terminal.screen()
    finally:
        terminal.close()
    assert settings.read_bytes() == before


def test_in_a_terminal_install_asks_for_the_agent_with_the_ones_found_here_first(tmp_path, home, project):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    (home / ".cursor").mkdir()  # Cursor is on this machine; Claude Code and opencode are not
    env = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".state"), "XDG_CONFIG_HOME": str(home / ".config"),
           "PYTHONPATH": str(resources.data_root()), "PATH": "/usr/bin:/bin"}
    terminal = Tmux(tmp_path, [sys.executable, "-m", "installer", "install", "--project", str(project)], env)
    try:
        shown = terminal.wait_for(lambda text: "Agent" in text and "):" in text)
        agents = [line.split()[0] for line in shown.splitlines() if "found" in line]
        assert agents == ["cursor", "claude", "opencode"] and f"found: {home / '.cursor'}" in shown
        assert "(cursor)" in shown.splitlines()[-1] or "(cursor):" in shown  # found first, and the default
        terminal.run("send-keys", "-t", "main", "Enter")
        shown = terminal.wait_for(lambda text: "Packs to install" in text)
        assert "ask-guard: (not for Cursor: ask-guard needs to answer a question" in shown
        for wrong, said in (("1", "which Cursor hooks cannot do: choose again"), ("nope", "there is no pack 'nope'")):
            terminal.run("send-keys", "-t", "main", wrong, "Enter")  # asked again, with the reason
            shown = terminal.wait_for(lambda text, said=said: said in text)
        terminal.run("send-keys", "-t", "main", "git-guard", "Enter")
        shown = terminal.wait_for(lambda text: "Scope" in text)
        assert "local" not in shown.split("Packs to install")[1]  # Cursor has no local scope
        terminal.run("send-keys", "-t", "main", "project", "Enter")
        terminal.wait_for(lambda text: "Apply this change?" in text)
        terminal.run("send-keys", "-t", "main", "y", "Enter")
        assert terminal.exit_code() == 0, terminal.screen()
    finally:
        terminal.close()
    (entry,) = json.loads((project / ".cursor" / "hooks.json").read_text())["hooks"]["beforeShellExecution"]
    assert entry["command"].endswith("git-guard --host cursor")
