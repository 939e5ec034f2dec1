"""The prompt path, on a real pseudo-terminal: plan shown, question asked, answer obeyed."""
import json
import os
import pty
import re
import select
import shlex
import shutil
import subprocess
import sys
import time

import pytest
from hookwright import resources
from support import commands, read_json


def run_on_a_terminal(args, answer, env, timeout=30):
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "hookwright", *args], stdin=follower, stdout=follower,
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
    return dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / ".state"), TERM="xterm", COLUMNS="200",
                LINES="200")  # (a plan taller than the terminal goes through a pager: see the tmux tests)


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

    def __init__(self, tmp_path, command: list[str], env: dict, width: int = 200, height: int = 60) -> None:
        self.socket = f"hookwright-test-{os.getpid()}-{id(self)}"
        self.exit_file = tmp_path / "exit-code"
        # (COLUMNS and LINES from the environment tests run in would override the terminal's size)
        line = " ".join(shlex.quote(part) for part in ["env", "-u", "COLUMNS", "-u", "LINES",
                                                       *(f"{k}={v}" for k, v in env.items()), *command])
        self.run("new-session", "-d", "-s", "main", "-x", str(width), "-y", str(height),
                 f"{line}; echo $? > {shlex.quote(str(self.exit_file))}; sleep 60")

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True).stdout

    def screen(self, joined: bool = True, styles: bool = False) -> str:
        """The pane with its history: lines the terminal wrapped joined again (`joined`), with
        the escape sequences of colours and styles (`styles`)."""
        flags = ["-J"] * joined + ["-e"] * styles
        return self.run("capture-pane", "-p", *flags, "-S", "-", "-t", "main")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "main", *keys)

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
    terminal = Tmux(tmp_path, [sys.executable, "-m", "hookwright", "install", "path-normalizer", "--scope", "project",
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
    terminal = Tmux(tmp_path, [sys.executable, "-m", "hookwright", "install", "--project", str(project)], env)
    try:
        shown = terminal.wait_for(lambda text: "Agent" in text and "):" in text)
        agents = [line.split()[0] for line in shown.splitlines() if "found" in line]
        assert agents == ["cursor", "claude", "opencode", "codex"] and f"found: {home / '.cursor'}" in shown
        assert "(cursor)" in shown.splitlines()[-1] or "(cursor):" in shown  # found first, and the default
        terminal.run("send-keys", "-t", "main", "Enter")
        shown = terminal.wait_for(lambda text: "Packs to install" in text)
        assert re.search(r"ask-guard:\s+\(not for Cursor: ask-guard needs to answer a question", shown)
        for wrong, said in (("1", "which Cursor hooks cannot do: choose again"), ("nope", "there is no pack 'nope'")):
            terminal.run("send-keys", "-t", "main", wrong, "Enter")  # asked again, with the reason
            shown = terminal.wait_for(lambda text, said=said: said in text)
        terminal.run("send-keys", "-t", "main", "git-guard", "Enter")
        shown = terminal.wait_for(lambda text: "Scope" in text)
        assert "local" not in shown.split("Packs to install")[1]  # Cursor has no local scope
        terminal.run("send-keys", "-t", "main", "project", "Enter")
        terminal.wait_for(lambda text: "git-guard.deny_push (false):" in text)  # its options, with their defaults
        terminal.run("send-keys", "-t", "main", "Enter")
        terminal.wait_for(lambda text: "git-guard.deny_unparsed (false):" in text)
        terminal.run("send-keys", "-t", "main", "Enter")
        terminal.wait_for(lambda text: "git-guard.on_failure [continue/block] (continue):" in text)  # (every guard's)
        terminal.run("send-keys", "-t", "main", "Enter")
        terminal.wait_for(lambda text: "Apply this change?" in text)
        terminal.run("send-keys", "-t", "main", "y", "Enter")
        assert terminal.exit_code() == 0, terminal.screen()
    finally:
        terminal.close()
    (entry,) = json.loads((project / ".cursor" / "hooks.json").read_text())["hooks"]["beforeShellExecution"]
    assert entry["command"].endswith("git-guard --host cursor")


# ---- the guided install, driven through a real terminal ------------------------------------------------

def _guided(tmp_path, home, project, *args, width=200, height=60, env=None):
    """`hookwright install ARGS` in a tmux terminal, with no agent on PATH (claude is the default)."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (.ci/run installs it)")
    base = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".state"), "XDG_CONFIG_HOME": str(home / ".config"),
            "PYTHONPATH": str(resources.data_root()), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    return Tmux(tmp_path, [sys.executable, "-m", "hookwright", "install", *map(str, args)], {**base, **(env or {})},
                width=width, height=height)


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _nothing_written(home, project) -> bool:
    return not (project / ".claude").exists() and not (home / ".claude").exists()


def test_the_guided_install_asks_agent_packs_scope_and_options_and_writes_what_was_chosen(tmp_path, home, project):
    terminal = _guided(tmp_path, home, project, "--project", project)
    try:
        terminal.wait_for(lambda text: "Agent [claude/cursor/opencode/codex] (claude):" in text)
        terminal.keys("Enter")
        terminal.wait_for(lambda text: "Packs to install" in text)
        terminal.keys("path-normalizer", "Enter")
        shown = terminal.wait_for(lambda text: "Scope [user/project/local] (project):" in text)  # (--project)
        assert "for you, in this project only (git-ignored)" in shown  # each scope in a line
        terminal.keys("project", "Enter")
        terminal.wait_for(lambda text: "path-normalizer.tools (^mcp__(?!.*__AskUserQuestion$)):" in text)
        terminal.keys("mcp__fs__.*", "Enter")
        terminal.wait_for(lambda text: "path-normalizer.args (" in text)
        terminal.keys("Enter")
        shown = terminal.wait_for(lambda text: "Apply this change?" in text)
        assert "PreToolUse on mcp__fs__.*" in shown and "project scope" in shown
        terminal.keys("y", "Enter")
        assert terminal.exit_code() == 0, terminal.screen()
    finally:
        terminal.close()
    (group,) = read_json(project / ".claude" / "settings.json")["hooks"]["PreToolUse"]
    assert group["matcher"] == "mcp__fs__.*"


def test_declining_at_the_confirm_prompt_writes_nothing_and_exits_3(tmp_path, home, project):
    terminal = _guided(tmp_path, home, project, "git-guard", "--project", project)
    try:
        terminal.wait_for(lambda text: "Apply this change? [y/n] (n):" in text)
        terminal.keys("n", "Enter")
        assert terminal.exit_code() == 3
        assert "declined: nothing written" in terminal.screen()
    finally:
        terminal.close()
    assert _nothing_written(home, project)


@pytest.mark.parametrize("prompt, answers_before", [
    ("Agent [", []),
    ("Packs to install", ["Enter"]),
    ("Scope [", ["Enter", "git-guard Enter"]),
    ("git-guard.deny_push (false):", ["Enter", "git-guard Enter", "project Enter"]),
    ("git-guard.deny_unparsed (false):", ["Enter", "git-guard Enter", "project Enter", "Enter"]),
    ("git-guard.on_failure [", ["Enter", "git-guard Enter", "project Enter", "Enter", "Enter"]),
    ("Apply this change?", ["Enter", "git-guard Enter", "project Enter", "Enter", "Enter", "Enter"]),
])
def test_ctrl_c_at_any_prompt_writes_nothing_leaves_a_clean_line_and_exits_130(tmp_path, home, project, prompt,
                                                                              answers_before):
    terminal = _guided(tmp_path, home, project, "--project", project)
    waits = ["Agent [", "Packs to install", "Scope [", "git-guard.deny_push (false):", "git-guard.deny_unparsed (false):",
             "git-guard.on_failure [", "Apply this change?"]
    try:
        for wait, answer in zip(waits, answers_before):
            terminal.wait_for(lambda text, wait=wait: wait in text)
            *words, key = answer.split(" ")
            terminal.keys(*words, key) if words else terminal.keys(key)
        terminal.wait_for(lambda text: prompt in _last_line(text))
        terminal.keys("C-c")
        assert terminal.exit_code() == 130
        lines = [line for line in terminal.screen().splitlines() if line.strip()]
        assert lines[-1] == "hookwright: interrupted"  # on a line of its own, not after the prompt
    finally:
        terminal.close()
    assert _nothing_written(home, project)


def test_a_bad_answer_is_asked_again_at_once_with_the_reason(tmp_path, home, project):
    terminal = _guided(tmp_path, home, project, "--host", "claude", "--scope", "project", "--project", project)
    try:
        terminal.wait_for(lambda text: "Packs to install" in text)
        terminal.keys("4", "Enter")  # there are three
        terminal.wait_for(lambda text: "there is no pack '4'" in text and _last_line(text).startswith("Packs to"))
        terminal.keys("path-normalizer", "Enter")
        asked = "path-normalizer.tools (^mcp__(?!.*__AskUserQuestion$)):"
        terminal.wait_for(lambda text: asked in text)
        terminal.keys("mcp__(", "Enter")  # not a regular expression
        shown = terminal.wait_for(lambda text: text.count(asked) == 2)
        assert "is not a usable matcher" in shown and "answer again" in shown
        terminal.keys("C-c")
        assert terminal.exit_code() == 130
    finally:
        terminal.close()
    assert _nothing_written(home, project)


def test_a_plan_taller_than_the_terminal_goes_through_the_pager_and_stays_above_the_question(tmp_path, home,
                                                                                              project):
    if shutil.which("less") is None:
        pytest.skip("less is not installed (.ci/run installs it)")
    terminal = _guided(tmp_path, home, project, "ask-guard", "--scope", "project", "--project", project,
                       "-o", "mode=answer", "-o", "session=auto", height=15)
    try:
        shown = terminal.wait_for(lambda text: _last_line(text) == ":" and "install → " in text)
        assert "Apply this change?" not in shown  # the pager holds the plan; the question waits
        terminal.keys("q")
        shown = terminal.wait_for(lambda text: "Apply this change?" in text)
        terminal.keys("n", "Enter")
        assert terminal.exit_code() == 3
    finally:
        terminal.close()
    assert _nothing_written(home, project)


def test_in_a_60_column_terminal_menus_wrap_between_words(tmp_path, home, project):
    from hookwright.packs import load_pack

    terminal = _guided(tmp_path, home, project, "--host", "claude", "--project", project, width=60)
    try:
        shown = terminal.wait_for(lambda text: "Packs to install" in text)
        raw = terminal.screen(joined=False)
        terminal.keys("C-c")
        terminal.exit_code()
    finally:
        terminal.close()
    menu = raw[raw.index("Packs"):raw.index("Packs to install")]
    assert all(len(line) <= 60 for line in menu.splitlines())
    words = set(menu.split())
    for name in ("git-guard", "path-normalizer"):
        assert set(load_pack(name).description.split()) <= words, name  # no word cut in two
    assert "Packs to install" in shown


@pytest.mark.parametrize("no_color", [False, True])
def test_no_color_turns_the_colours_off_and_they_are_on_without_it(tmp_path, home, project, no_color):
    terminal = _guided(tmp_path, home, project, "git-guard", "--project", project,
                       env={"NO_COLOR": "1"} if no_color else {})
    try:
        terminal.wait_for(lambda text: "Apply this change?" in text)
        styled = terminal.screen(styles=True)
        terminal.keys("n", "Enter")
        terminal.exit_code()
    finally:
        terminal.close()
    colours = re.findall(r"\x1b\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[25];[0-9;]+)m", styled)
    assert bool(colours) is not no_color


def test_answers_ignore_case_at_every_question(tmp_path, home, project):
    terminal = _guided(tmp_path, home, project, "--project", project)
    asked = [("Agent [claude/cursor/opencode/codex] (claude):", "Claude"), ("Packs to install", "Git-Guard"),
             ("Scope [user/project/local] (project):", "PROJECT"), ("git-guard.deny_push (false):", "True"),
             ("git-guard.deny_unparsed (false):", "FALSE"), ("git-guard.on_failure [continue/block] (continue):", "Block"),
             ("Apply this change?", "Y")]
    try:
        for question, answer in asked:
            terminal.wait_for(lambda text, question=question: question in text)
            terminal.keys(answer, "Enter")
        assert terminal.exit_code() == 0, terminal.screen()
    finally:
        terminal.close()
    (group,) = read_json(project / ".claude" / "settings.json")["hooks"]["PreToolUse"]
    assert group["hooks"][0]["command"].endswith("--option deny_push=true --fail-closed")
    assert group["hooks"][0]["onFailure"] == "block"


def test_on_a_terminal_a_pack_in_two_places_is_a_question_and_only_the_place_picked_changes(tmp_path, home, project,
                                                                                            hookwright):
    for host in ("claude", "opencode"):
        assert hookwright("install", "git-guard", "--host", host, "--scope", "project", "--project", project,
                          "--yes").code == 0
    claude = (project / ".claude" / "settings.json").read_bytes()
    terminal = Tmux(tmp_path, [sys.executable, "-m", "hookwright", "uninstall", "git-guard", "--project", str(project)],
                    {"HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state"),
                     "XDG_CONFIG_HOME": str(home / ".config"), "PYTHONPATH": str(resources.data_root()),
                     "PATH": os.environ["PATH"], "TERM": "xterm-256color", "PAGER": "cat"})  # (a plugin's long diff)
    try:
        shown = terminal.wait_for(lambda text: "Which one (a number, or all)" in text)
        assert "git-guard is installed for this project in 2 places" in shown
        assert "1. Claude Code project scope" in shown and "2. opencode project scope" in shown
        terminal.keys("2", "Enter")
        terminal.wait_for(lambda text: "Apply this change?" in text)
        terminal.keys("y", "Enter")
        assert terminal.exit_code() == 0, terminal.screen()
    finally:
        terminal.close()
    assert not (project / ".opencode").exists() and (project / ".claude" / "settings.json").read_bytes() == claude
