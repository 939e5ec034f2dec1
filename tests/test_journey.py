"""A user's journey in a real terminal (tmux, 60 columns, bash): a fresh home, two projects, three
agents. Install, upgrade with an option, move into a subfolder, status, uninstall without flags,
rollback: every step acts on the project the shell is in, and at the end every file is byte for
byte what it was at the start. Then the tables at 60 columns: words never cut, ids whole."""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hookwright import resources
from hookwright.packs import load_pack
from test_interactive import Tmux

WIDTH = 60
MARK = re.compile(r"\[rc=(\d+)\]")


class Shell:
    """bash in tmux, with `hookwright` the CLI of this checkout, in a home of the test's own."""

    def __init__(self, tmp_path: Path, home: Path, width: int = WIDTH) -> None:
        if shutil.which("tmux") is None:
            pytest.skip("tmux is not installed (.ci/run installs it)")
        tmp_path.mkdir(parents=True, exist_ok=True)
        rc = tmp_path / "bashrc"
        rc.write_text(f"PS1='$ '\nhookwright() {{ {shlex.quote(sys.executable)} -m hookwright \"$@\"; }}\n")
        env = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state"),
               "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
               "PYTHONPATH": os.environ.get("PYTHONPATH") or str(resources.data_root()), "PATH": os.environ["PATH"],
               "TERM": "xterm-256color"}
        self.terminal = Tmux(tmp_path, ["bash", "--noprofile", "--rcfile", str(rc), "-i"], env, width=width,
                             height=50)
        self.terminal.run("set-option", "-t", "main", "history-limit", "50000")
        self.done = 0
        self.wait_for_prompt()

    def wait_for_prompt(self) -> None:
        """Keys typed before bash's line editor is up are echoed by the terminal ahead of the
        prompt (a slow start on a fresh machine did it), and the typed line is lost among them."""
        self.terminal.wait_for(lambda shown: shown.rstrip("\n").rsplit("\n", 1)[-1].startswith("$"))

    def run(self, line: str, timeout: float = 60) -> tuple[int, str]:
        """Type a command line, wait for it to end; (its exit code, what it printed)."""
        self.wait_for_prompt()
        self.terminal.run("send-keys", "-t", "main", "-l", f"{line}; echo \"[rc=$?]\"")
        self.terminal.keys("Enter")
        self.done += 1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.terminal.screen()
            marks = list(MARK.finditer(shown))
            if len(marks) >= self.done:
                end = marks[self.done - 1]
                start = marks[self.done - 2].end() if self.done > 1 else 0
                lines = shown[start:end.start()].split("\n")
                typed = next(i for i, text in enumerate(lines) if text.startswith("$ "))
                return int(end.group(1)), "\n".join(lines[typed + 1:])
            time.sleep(0.1)
        raise AssertionError(f"{line!r} never ended:\n{self.terminal.screen()}")

    def close(self) -> None:
        self.terminal.close()


def snapshot(*roots: Path) -> dict[str, bytes | None]:
    """Every file under the roots, by path, with its bytes (a folder: None)."""
    found: dict[str, bytes | None] = {}
    for root in roots:
        for path in sorted(root.rglob("*")) if root.exists() else []:
            found[str(path)] = None if path.is_dir() else path.read_bytes()
    return found


def git_project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def test_a_journey_through_two_projects_and_three_agents_acts_where_the_shell_is_and_leaves_every_byte(
        tmp_path, home):
    a, b = git_project(tmp_path / "a"), git_project(tmp_path / "b")
    (a / ".claude").mkdir()
    (a / ".claude" / "settings.json").write_text('{\n  "permissions": {"allow": ["Read"]}\n}\n')
    (b / ".cursor").mkdir()
    (b / ".cursor" / "hooks.json").write_text('{"version": 1, "hooks": {"stop": [{"command": "./done.sh"}]}}\n')
    for folder in (a / "src" / "deep", b / "lib"):
        folder.mkdir(parents=True)
    agents = [home / ".claude", home / ".cursor", home / ".config" / "opencode"]
    start = snapshot(a, b, *agents)
    shell = Shell(tmp_path, home)
    try:
        def ok(line: str) -> str:
            code, printed = shell.run(line)
            assert code == 0, f"{line}: exit {code}\n{printed}"
            return printed

        ok(f"cd {shlex.quote(str(a))}")
        ok("hookwright install git-guard --scope project --yes")
        ok(f"cd {shlex.quote(str(b))}")
        ok("hookwright install git-guard --host cursor --scope project --yes")
        ok("hookwright install path-normalizer --host opencode --scope project --yes")
        ok(f"cd {shlex.quote(str(a))}")
        upgraded = ok("hookwright install git-guard --option deny_push=true --yes")
        assert str(a / ".claude" / "settings.json") in upgraded.replace("\n", "")
        assert "deny_push=true" in (a / ".claude" / "settings.json").read_text()

        ok("cd src/deep")
        status = ok("hookwright status")
        assert f"project: {a}" in status.replace("\n", "")
        assert f"git-guard  {load_pack('git-guard').version}  claude  project" in status and "deny_push=true" in status
        assert "cursor" not in status and "opencode" not in status  # b's installs are b's
        removed = ok("hookwright uninstall --yes")
        assert "done: uninstall wrote" in removed and str(a) in removed.replace("\n", "")
        assert (a / ".claude" / "settings.json").read_bytes() == start[str(a / ".claude" / "settings.json")]

        ok(f"cd {shlex.quote(str(b / 'lib'))}")
        code, refused = shell.run("hookwright uninstall --yes")  # two packs, two places: say which
        assert code == 3 and "--host cursor --scope project" in refused and "--host opencode --scope project" in refused
        listed = ok("hookwright rollback --list")
        assert listed.count("*") >= 2  # b's operations are marked as this project's
        undone = ok("hookwright rollback --yes")
        assert "rollback undid install of path-normalizer" in undone.replace("\n", " ")
        undone = ok("hookwright rollback --yes")
        assert "rollback undid install of git-guard" in undone.replace("\n", " ")
        assert str(b / ".cursor" / "hooks.json") in undone.replace("\n", "")
        nothing = ok("hookwright rollback --yes")
        assert "nothing to do" in nothing
    finally:
        shell.close()
    assert snapshot(a, b, *agents) == start


def _words(text: str) -> set[str]:
    return set(text.split())


def test_tables_at_60_columns_wrap_between_words_and_keep_ids_whole(tmp_path, home):
    project = git_project(tmp_path / "p")
    for host, pack in (("claude", "git-guard"), ("claude", "path-normalizer"), ("cursor", "git-guard")):
        subprocess.run([sys.executable, "-m", "hookwright", "install", pack, "--host", host, "--scope", "project",
                        "--project", str(project), "--yes"], check=True, capture_output=True,
                       env={**os.environ, "HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state"),
                            "XDG_CONFIG_HOME": str(home / ".config"),
                            "PYTHONPATH": os.environ.get("PYTHONPATH") or str(resources.data_root())})
    wide, narrow = Shell(tmp_path / "wide", home, width=200), Shell(tmp_path / "narrow", home)
    try:
        for shell in (wide, narrow):
            shell.run(f"cd {shlex.quote(str(project))}")
        for command in ("hookwright packs", "hookwright status", "hookwright list", "hookwright rollback --list",
                        "hookwright doctor --explain"):
            _, broad = wide.run(command)
            code, printed = narrow.run(command)
            lines = printed.splitlines()
            assert code in (0, 1), (command, printed)  # (lines the terminal wrapped are joined again: words count)
            whole = _words(broad)  # (a column's name as a label, `file:`, is no cut word)
            too_long = [word for word in whole if len(word) > WIDTH - 6]  # (these cannot but be cut)
            cut = {word for word in _words(printed) - whole if word.rstrip(":") not in whole
                   and not any(word in long for long in too_long)}
            assert not cut, f"{command} cut these words at {WIDTH} columns: {sorted(cut)[:10]}\n{printed}"
            if command == "hookwright packs":
                assert len(lines) < 4 * len(broad.splitlines()), printed
    finally:
        wide.close()
        narrow.close()
