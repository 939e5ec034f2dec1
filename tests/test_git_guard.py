"""Table-driven tests for the git-guard hook: each row runs the real script as Claude Code does.

A row is (command, expected): expected None means "passes through" (exit 0, empty stdout),
otherwise it is a substring the deny reason must contain.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

SCRIPT = Path(__file__).resolve().parents[1] / "templates" / "packs" / "git-guard" / "git-guard"
PREFIX = "hookwright git-guard: "
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\S* git-guard \S.*$")

STASH = "`git stash`"
STASH_DROP = "`git stash drop`"
RESET = "`git reset --hard`"
CLEAN = "`git clean -f`"
FORCE = "`git push --force`"
CHECKOUT = "`git checkout -- <path>`"
CHECKOUT_FORCE = "`git checkout -f`"
RESTORE = "`git restore <path>`"
BRANCH = "`git branch -D`"
NO_VERIFY = "`--no-verify`"
HOOKS_PATH = "core.hooksPath"
PUSH_OFF = "deny_push"

DESTRUCTIVE = [
    # stash that hides or loses work
    ("git stash", STASH),
    ("git stash -u", STASH),
    ("git stash -k", STASH),
    ("git stash --include-untracked", STASH),
    ("git stash push -m wip", STASH),
    ("git stash save wip", STASH),
    ("git stash -- src/app.py", STASH),
    ("git stash drop", STASH_DROP),
    ("git stash drop stash@{0}", STASH_DROP),
    ("git stash clear", STASH_DROP),
    # reset --hard
    ("git reset --hard", RESET),
    ("git reset --hard HEAD~1", RESET),
    ("git reset origin/main --hard", RESET),
    # clean with force
    ("git clean -f", CLEAN),
    ("git clean --force", CLEAN),
    ("git clean -fd", CLEAN),
    ("git clean -xdf", CLEAN),
    ("git clean -d -x -f", CLEAN),
    # force push
    ("git push --force", FORCE),
    ("git push -f", FORCE),
    ("git push -uf origin main", FORCE),
    ("git push origin main --force-with-lease", FORCE),
    ("git push --force-with-lease=main:abc123 origin main", FORCE),
    ("git push --force-with-lease --force-if-includes", FORCE),
    ("git push origin +main", FORCE),
    ("git push origin +HEAD:refs/heads/main", FORCE),
    # checkout that overwrites files
    ("git checkout -- src/app.py", CHECKOUT),
    ("git checkout .", CHECKOUT),
    ("git checkout HEAD -- file.txt", CHECKOUT),
    ("git checkout main -- a.py b.py", CHECKOUT),
    ("git checkout HEAD~2 file.txt", CHECKOUT),
    ("git checkout -f main", CHECKOUT_FORCE),
    ("git switch --discard-changes main", CHECKOUT_FORCE),
    # restore of the working tree
    ("git restore src/app.py", RESTORE),
    ("git restore .", RESTORE),
    ("git restore --worktree f.txt", RESTORE),
    ("git restore --staged --worktree f.txt", RESTORE),
    ("git restore -SW f.txt", RESTORE),
    ("git restore --source=HEAD~1 f.txt", RESTORE),
    # forced branch deletion
    ("git branch -D feature", BRANCH),
    ("git branch --delete --force feature", BRANCH),
    ("git branch -d -f feature", BRANCH),
    ("git branch -rD origin/feature", BRANCH),
    # CI bypass
    ("git commit --no-verify -m wip", NO_VERIFY),
    ("git commit -n -m wip", NO_VERIFY),
    ("git commit -an", NO_VERIFY),
    ("git commit -nm 'msg'", NO_VERIFY),
    ("git commit -anm msg", NO_VERIFY),
    ("git commit -m msg --no-verif", NO_VERIFY),
    ("git push --no-verify origin main", NO_VERIFY),
    ("git merge --no-verify feature", NO_VERIFY),
    ("git -c core.hooksPath=/dev/null commit -m wip", HOOKS_PATH),
    # seeing through the shell
    ("cd repo && git reset --hard", RESET),
    ("make test; git stash", STASH),
    ("false || git clean -fd", CLEAN),
    ("ls | git stash", STASH),
    ("echo ok\ngit reset --hard", RESET),
    ("echo ok \\\n  && git reset --hard", RESET),
    ("(cd sub && git push --force)", FORCE),
    ("true & git stash", STASH),
    ("if true; then git reset --hard; fi", RESET),
    ("{ git stash; }", STASH),
    ("echo $(git stash)", STASH),
    ("x=`git reset --hard`", RESET),
    ('echo "$(git clean -fd)"', CLEAN),
    ("git reset --hard 2>&1 >/dev/null", RESET),
    # wrappers
    ("sudo git clean -fdx", CLEAN),
    ("sudo -u deploy git reset --hard", RESET),
    ("env git stash", STASH),
    ("env -i PATH=/usr/bin git reset --hard", RESET),
    ("GIT_DIR=.git GIT_WORK_TREE=. git reset --hard", RESET),
    ("command git reset --hard", RESET),
    ("nohup git push -f &", FORCE),
    ("time git reset --hard", RESET),
    ("exec git reset --hard", RESET),
    ("timeout 60 git push --force", FORCE),
    ("git branch --merged | xargs git branch -D", BRANCH),
    ("git branch | xargs -I {} git branch -D {}", BRANCH),
    ("/usr/bin/git reset --hard", RESET),
    ("\\git stash", STASH),
    # git global options before the subcommand
    ("git -C /tmp/repo reset --hard", RESET),
    ("git -c color.ui=never reset --hard", RESET),
    ("git --git-dir=.git --work-tree . reset --hard", RESET),
    ("git --work-tree /tmp/w reset --hard", RESET),
    ("git --no-pager -P stash", STASH),
    # quoting and nested shells
    ("git \"reset\" '--hard'", RESET),
    ("git reset --'hard'", RESET),
    ('bash -c "git reset --hard"', RESET),
    ("sh -c 'cd x && git stash'", STASH),
    ("bash -lc 'git push --force'", FORCE),
    ("/bin/bash -e -c 'git clean -f'", CLEAN),
    ("bash -c \"sh -c 'git clean -fd'\"", CLEAN),
    ("eval 'git reset --hard'", RESET),
    # cannot be tokenized: the fallback scan still denies
    ('git reset --hard "oops', RESET),
    ("cd x && git push --force 'oops", FORCE),
]

HARMLESS = [
    ("git status", None),
    ("git log --oneline -5", None),
    ("git diff HEAD", None),
    ("git log --grep=--no-verify", None),
    ('git commit -am "msg"', None),
    ('git commit -am "no"', None),
    ("git commit -m 'fix -n handling'", None),
    ("git commit -m -n", None),
    ("git commit --amend --no-edit", None),
    ("git push", None),
    ("git push origin main", None),
    ("git push -u origin feature", None),
    ("git checkout -b feature", None),
    ("git checkout -b fix origin/main", None),
    ("git checkout main", None),
    ("git checkout -", None),
    ("git checkout feature --", None),
    ("git switch -c feature", None),
    ("git restore --staged f.txt", None),
    ("git restore -S f.txt", None),
    ("git stash list", None),
    ("git stash show -p", None),
    ("git stash apply", None),
    ("git stash pop", None),
    ("git stash branch tmp", None),
    ("git clean -n", None),
    ("git clean -nd", None),
    ("git branch -d feature", None),
    ("git branch -a", None),
    ("git reset HEAD file.txt", None),
    ("git reset --soft HEAD~1", None),
    ('echo "git reset --hard"', None),
    ("grep -- --no-verify x", None),
    ("grep -rn 'git push --force' docs", None),
    ("printf '%s\\n' 'git stash'", None),
    ("cat <<'EOF' > notes.md\ngit reset --hard\nEOF\nls", None),
    ("git commit -m \"$(cat <<'EOF'\nexplain why git reset --hard is bad\nEOF\n)\"", None),
    ("# git reset --hard\nls", None),
    ("command -v git", None),
    ("bash script.sh --force", None),
    ("git-lfs pull", None),
    ("ls", None),
    ("", None),
    ("   ", None),
]

PAYLOAD_ROWS = [  # (description, raw stdin): bad input that must pass through and be logged
    ("empty stdin", b""),
    ("not json", b"not json"),
    ("a JSON array", b"[]"),
    ("JSON null", b"null"),
    ("a JSON string", b'"git reset --hard"'),
    ("no hook_event_name", b'{"tool_name": "Bash"}'),
    ("no hook_event_name, numeric command", b'{"tool_name": "Bash", "tool_input": {"command": 5}}'),
    ("numeric hook_event_name", b'{"hook_event_name": 5, "tool_name": "Bash"}'),
    ("numeric command",
     b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": 5}}'),
    ("tool_input is a string",
     b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": "git reset --hard"}'),
    ("no tool_input", b'{"hook_event_name": "PreToolUse", "tool_name": "Bash"}'),
    ("non-UTF-8 bytes", b'{"command": "\xff\xfe git reset --hard"}'),
    ("a 2 MiB payload",
     json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                 "tool_input": {"command": "git reset --hard #" + "x" * (2 << 20)}}).encode()),
]


def payload(command, event="PreToolUse", tool="Bash") -> bytes:
    return json.dumps({"hook_event_name": event, "tool_name": tool,
                       "tool_input": {"command": command, "description": "test"},
                       "cwd": "/tmp", "session_id": "s1"}).encode()


def run_guard(stdin: bytes, env: dict, *args: str) -> subprocess.CompletedProcess:
    cli = list(args) if args else ["--host", "claude"]
    return subprocess.run([sys.executable, "-I", "-S", str(SCRIPT), *cli], input=stdin,
                          env=env, capture_output=True, timeout=30)


@pytest.fixture
def log_path(tmp_path) -> Path:
    return tmp_path / "logs" / "hooks.log"


@pytest.fixture
def env(log_path) -> dict:
    return {**os.environ, "HOOKWRIGHT_LOG": str(log_path)}


def log_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def assert_outcome(proc: subprocess.CompletedProcess, expected: str | None) -> None:
    assert proc.returncode == 0, proc.stderr
    if expected is None:
        assert proc.stdout == b""
        return
    decision = json.loads(proc.stdout)
    assert list(decision) == ["hookSpecificOutput"]
    output = decision["hookSpecificOutput"]
    assert set(output) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert output["hookEventName"] == "PreToolUse"
    assert output["permissionDecision"] == "deny"
    reason = output["permissionDecisionReason"]
    assert reason.startswith(PREFIX)
    assert expected in reason
    assert proc.stdout.decode().count("\n") == 1  # exactly one JSON object


def assert_one_log_line(path: Path) -> None:
    lines = log_lines(path)
    assert len(lines) == 1, lines
    assert LOG_LINE.match(lines[0]), lines[0]


@pytest.mark.parametrize("command, expected", DESTRUCTIVE, ids=[c for c, _ in DESTRUCTIVE])
def test_git_guard_denies_destructive_commands(command, expected, env, log_path):
    assert_outcome(run_guard(payload(command), env), expected)
    assert log_lines(log_path) == []


@pytest.mark.parametrize("command, expected", HARMLESS, ids=[repr(c) for c, _ in HARMLESS])
def test_git_guard_passes_harmless_commands(command, expected, env, log_path):
    assert_outcome(run_guard(payload(command), env), expected)
    assert log_lines(log_path) == []


PUSH_OPTION_ROWS = [
    (["--option", "deny_push=true"], "git push", PUSH_OFF),
    (["--option", "deny_push=true"], "cd x && git push origin main", PUSH_OFF),
    (["--option=deny_push=yes"], "sudo git push -u origin feature", PUSH_OFF),
    (["--option", "deny_push=true"], "git push --force", FORCE),
    (["--option", "deny_push=true"], "git status", None),
    (["--option", "deny_push=false"], "git push", None),
    ([], "git push origin main", None),
]


@pytest.mark.parametrize("options, command, expected", PUSH_OPTION_ROWS)
def test_git_guard_denies_plain_push_only_when_deny_push_is_set(options, command, expected,
                                                                env, log_path):
    proc = run_guard(payload(command), env, "--host", "claude", *options)
    assert_outcome(proc, expected)
    assert log_lines(log_path) == []


@pytest.mark.parametrize("stdin", [row[1] for row in PAYLOAD_ROWS],
                         ids=[row[0] for row in PAYLOAD_ROWS])
def test_git_guard_never_fails_on_bad_stdin(stdin, env, log_path):
    assert_outcome(run_guard(stdin, env), None)
    assert_one_log_line(log_path)


QUIET_ROWS = [
    ("another tool", payload("git reset --hard", tool="Read")),
    ("another event", payload("git reset --hard", event="PostToolUse")),
    ("an empty command", payload("")),
]


@pytest.mark.parametrize("stdin", [row[1] for row in QUIET_ROWS], ids=[row[0] for row in QUIET_ROWS])
def test_git_guard_ignores_other_tools_and_events_without_logging(stdin, env, log_path):
    assert_outcome(run_guard(stdin, env), None)
    assert log_lines(log_path) == []


BAD_CLI_ROWS = [
    ["--host", "codex"],
    ["--option", "deny_push=true"],
    ["--host", "claude", "--option", "nope=1"],
    ["--host", "claude", "--option", "deny_push=maybe"],
    ["--host", "claude", "--frobnicate"],
]


@pytest.mark.parametrize("cli", BAD_CLI_ROWS, ids=[" ".join(c) for c in BAD_CLI_ROWS])
def test_git_guard_passes_and_logs_on_an_unknown_host_or_option(cli, env, log_path):
    assert_outcome(run_guard(payload("git reset --hard"), env, *cli), None)
    assert_one_log_line(log_path)


def test_git_guard_logs_to_xdg_state_home_when_hookwright_log_is_unset(home):
    env = {k: v for k, v in os.environ.items() if k != "HOOKWRIGHT_LOG"}
    assert_outcome(run_guard(b"not json", env), None)
    assert_one_log_line(home / ".local" / "state" / "hookwright" / "hooks.log")


def test_git_guard_logs_below_home_when_no_log_location_is_set(home):
    env = {k: v for k, v in os.environ.items() if k not in ("HOOKWRIGHT_LOG", "XDG_STATE_HOME")}
    env["HOME"] = str(home / "other")
    assert_outcome(run_guard(b"[]", env), None)
    assert_one_log_line(home / "other" / ".local" / "state" / "hookwright" / "hooks.log")


def test_git_guard_ignores_a_log_it_cannot_write(tmp_path):
    env = {**os.environ, "HOOKWRIGHT_LOG": "/dev/null/cannot/write.log"}
    proc = run_guard(b"not json", env)
    assert_outcome(proc, None)
    assert proc.stderr == b""


def test_git_guard_still_denies_when_its_log_cannot_be_written(tmp_path):
    env = {**os.environ, "HOOKWRIGHT_LOG": "/dev/null/cannot/write.log"}
    assert_outcome(run_guard(payload("git reset --hard"), env), RESET)


def test_git_guard_appends_one_line_per_failure(env, log_path):
    run_guard(b"", env)
    run_guard(b"[]", env)
    lines = log_lines(log_path)
    assert len(lines) == 2 and all(LOG_LINE.match(line) for line in lines)


def test_git_guard_script_is_an_executable_python3_script():
    assert os.access(SCRIPT, os.X_OK)
    assert SCRIPT.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")


def load_guard_module() -> types.ModuleType:
    """The script as a module, for fast in-process property tests (compiled, no .pyc written)."""
    module = types.ModuleType("hookwright_git_guard")
    exec(compile(SCRIPT.read_text(encoding="utf-8"), str(SCRIPT), "exec"), module.__dict__)
    return module


GUARD = load_guard_module()
SHELL_FRAGMENTS = ["git", "reset", "--hard", "stash", "push", "-f", "-C", "x", "--", "(", ")",
                   "$(", "`", "'", '"', "\\", "\n", ";", "&&", "|", "&", "<<", "EOF", "2>&1",
                   "bash", "-c", "sudo", "env", "A=1", "eval", "#", "$'", "<(", " ", "\t"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SHELL_FRAGMENTS), max_size=30).map("".join))
def test_git_guard_never_raises_on_arbitrary_command_text(command):
    reason = GUARD.check_text(command, {"deny_push": True})
    assert reason is None or isinstance(reason, str)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([c for c, _ in DESTRUCTIVE if "'oops" not in c and '"oops' not in c]),
       st.sampled_from(["cd repo && ", "true; ", "sudo ", "env A=1 ", "echo hi\n", "( "]))
def test_git_guard_still_denies_behind_any_prefix(command, prefix):
    assert GUARD.check_text(prefix + command, {"deny_push": False}) is not None

