"""Table-driven tests for the git-guard hook: each row runs the real script as Claude Code does.

A row is (command, expected): expected None means "passes through" (exit 0, empty stdout),
otherwise it is a substring the deny reason must contain. The script runs from a folder laid
out as the installer lays it: the pack's script beside the shared runtime library.
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
from support import lay_out_runtime

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
MODULE = TEMPLATES / "packs" / "git-guard" / "git_guard.py"
RUNTIME = TEMPLATES / "runtime" / "hookwright_runtime.py"
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
    ("git clean -f -e '*.log'", CLEAN),
    ("git clean -fe n", CLEAN),
    # force push
    ("git push --force", FORCE),
    ("git push -f", FORCE),
    ("git push -uf origin main", FORCE),
    ("git push origin main --force-with-lease", FORCE),
    ("git push --force-with-lease=main:abc123 origin main", FORCE),
    ("git push --force-with-lease --force-if-includes", FORCE),
    ("git push --force-if-includes --force origin main", FORCE),
    ("git push --force-if-includes -f", FORCE),
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
    ("git clean -fn", None),
    ("git clean -n -f", None),
    ("git clean -fdn", None),
    ("git clean -xdfn", None),
    ("git clean --force --dry-run", None),
    ("git clean -f --dry-run -d", None),
    ("git push --force-if-includes", None),
    ("git push --force-if-includes origin main", None),
    ("git push --no-force-with-lease origin main", None),
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


INSTALLED: dict[str, Path] = {}


@pytest.fixture(scope="module", autouse=True)
def installed_guard(tmp_path_factory) -> Path:
    INSTALLED["script"] = lay_out_runtime(tmp_path_factory.mktemp("runtime") / "git-guard", "git-guard") / "git-guard"
    return INSTALLED["script"]


def run_guard(stdin: bytes, env: dict, *args: str) -> subprocess.CompletedProcess:
    cli = list(args) if args else ["--host", "claude"]
    return subprocess.run([sys.executable, "-I", "-S", str(INSTALLED["script"]), *cli], input=stdin,
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


BAD_HOST_ROWS = [
    ["--host", "codex"],
    ["--option", "deny_push=true"],
]


@pytest.mark.parametrize("cli", BAD_HOST_ROWS, ids=[" ".join(c) for c in BAD_HOST_ROWS])
def test_git_guard_passes_and_logs_on_an_unknown_host(cli, env, log_path):
    assert_outcome(run_guard(payload("git reset --hard"), env, *cli), None)
    assert_one_log_line(log_path)


BAD_OPTION_ROWS = [  # (extra arguments, command, expected): the bad part is ignored, the guard works
    (["--option", "nope=1"], "git reset --hard", RESET),
    (["--option", "deny_push=maybe"], "git reset --hard", RESET),
    (["--option", "deny_push=maybe"], "git push", None),
    (["--frobnicate"], "git reset --hard", RESET),
    (["--option", "no_equals_sign"], "git stash", STASH),
]


@pytest.mark.parametrize("extra, command, expected", BAD_OPTION_ROWS,
                         ids=[" ".join(row[0]) + " " + row[1] for row in BAD_OPTION_ROWS])
def test_git_guard_ignores_and_logs_an_unknown_option_but_still_guards(extra, command, expected,
                                                                       env, log_path):
    assert_outcome(run_guard(payload(command), env, "--host", "claude", *extra), expected)
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


def load_guard_module() -> types.ModuleType:
    """git_guard.py, the hook's module, for fast in-process property tests (no .pyc written)."""
    sys.path[:0] = [str(MODULE.parent), str(RUNTIME.parent)]
    no_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in templates/
    import git_guard

    sys.dont_write_bytecode = no_bytecode
    return git_guard


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



# --- the user's override file: <XDG_CONFIG_HOME>/hookwright/git-guard.json ---------------------

@pytest.fixture
def config_home(tmp_path) -> Path:
    return tmp_path / "config"


@pytest.fixture
def override_env(env, config_home) -> dict:
    return {**env, "XDG_CONFIG_HOME": str(config_home)}


def write_overrides(config_home: Path, content) -> Path:
    path = config_home / "hookwright" / "git-guard.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


REBASE_REASON = "Rebasing is off in this repository; merge instead."

OVERRIDE_ROWS = [  # (file content, command, expected)
    # a rule id in the file replaces the built-in rule: only its regexes count now
    ({"rules": {"reset-hard": [r"^git reset --hard HEAD~"]}}, "git reset --hard", None),
    ({"rules": {"reset-hard": [r"^git reset --hard HEAD~"]}}, "git reset --hard HEAD~1", RESET),
    ({"rules": {"reset-hard": [r"^git reset --hard HEAD~"]}}, "cd x && sudo git reset --hard HEAD~2", RESET),
    ({"rules": {"reset-hard": [r"^git reset --hard HEAD~"]}}, "git reset --keep HEAD~1", None),
    ({"rules": {"reset-hard": ["nomatch", r"--merge\b"]}}, "git reset --merge", RESET),
    # ids absent from the file keep their built-in behaviour
    ({"rules": {"reset-hard": [r"^git reset --hard HEAD~"]}}, "git stash", STASH),
    ({"rules": {"reset-hard": [r"^git reset --hard HEAD~"]}}, "git push --force", FORCE),
    # an empty list turns a rule off, and only that rule
    ({"rules": {"stash": []}}, "git stash", None),
    ({"rules": {"stash": []}}, "git stash -u", None),
    ({"rules": {"stash": []}}, "git stash drop", STASH_DROP),
    ({"rules": {"stash": []}}, "git reset --hard", RESET),
    ({"rules": {"no-verify": []}}, "git commit --no-verify -m wip", None),
    ({"rules": {"clean-force": [], "push-force": []}}, "git clean -fdx && git push -f", None),
    # a new id adds a rule, with its own reason or a generic one that names it
    ({"rules": {"no-rebase": [r"^git rebase\b"]}, "reasons": {"no-rebase": REBASE_REASON}},
     "git rebase main", REBASE_REASON),
    ({"rules": {"no-rebase": [r"^git rebase\b"]}}, "git rebase -i HEAD~3", "'no-rebase'"),
    ({"rules": {"no-rebase": [r"^git rebase\b"]}}, "git status", None),
    ({"rules": {"no-rebase": [r"^git rebase\b"]}}, "git reset --hard", RESET),
    ({"rules": {"no-rebase": []}}, "git rebase main", None),
    # the built-in rules come first, then the new ones in file order
    ({"rules": {"any-reset": [r"^git reset"]}, "reasons": {"any-reset": "no resets"}},
     "git reset --hard", RESET),
    ({"rules": {"a": ["^git tag"], "b": ["^git tag"]}, "reasons": {"a": "rule a", "b": "rule b"}},
     "git tag v1", "rule a"),
    # "reasons" alone replaces the text of a built-in rule and keeps its check
    ({"reasons": {"reset-hard": "Ask Ana before resetting."}}, "git reset --hard", "Ask Ana before resetting."),
    ({"reasons": {"reset-hard": "Ask Ana before resetting."}}, "git reset --soft HEAD~1", None),
    # the normalized invocation: launchers and git's global options gone, quotes removed,
    # whitespace collapsed; each -c setting is also seen as `git -c <setting>`
    ({"rules": {"exact": [r"^git rebase --onto main topic$"]}},
     "sudo env A=1 /usr/bin/git -C repo -c color.ui=never rebase  '--onto'\t\"main\" topic", "'exact'"),
    ({"rules": {"exact": [r"^git commit -m two words$"]}}, "git commit -m 'two\n   words'", "'exact'"),
    ({"rules": {"hooks-path": [r"^git -c core\.hooksPath=/dev/null$"]}},
     "git -c core.hooksPath=/dev/null commit -m wip", HOOKS_PATH),
    ({"rules": {"hooks-path": [r"^git -c core\.hooksPath=/dev/null$"]}},
     "git -c core.hooksPath=.githooks commit -m wip", None),
    ({"rules": {"push-to-main": [r"^git push\b.*\bmain\b"]}}, "git -c http.proxy=x push origin main", "'push-to-main'"),
    # the file's "push" rule is in force without the deny_push option
    ({"rules": {"push": [r"^git push origin main$"]}}, "git push origin main", PUSH_OFF),
    ({"rules": {"push": [r"^git push origin main$"]}}, "git push origin feature", None),
    # a regex may use Python's inline flags
    ({"rules": {"loud": [r"(?i)^git push .*--FORCE"]}, "reasons": {"loud": "loud"}, },
     "git push origin main --force", FORCE),
    ({"rules": {"push-force": [r"(?i)--FORCE"]}, "reasons": {"push-force": "loud"}},
     "git push origin main --force", "loud"),
]


@pytest.mark.parametrize("content, command, expected", OVERRIDE_ROWS,
                         ids=[f"{json.dumps(c)[:60]} | {cmd!r}" for c, cmd, _ in OVERRIDE_ROWS])
def test_git_guard_rules_follow_the_override_file(content, command, expected, config_home,
                                                  override_env, log_path):
    write_overrides(config_home, content)
    assert_outcome(run_guard(payload(command), override_env), expected)
    assert log_lines(log_path) == []


def test_git_guard_deny_push_still_works_next_to_an_override_file(config_home, override_env, log_path):
    write_overrides(config_home, {"rules": {"stash": []}})
    proc = run_guard(payload("git push"), override_env, "--host", "claude", "--option", "deny_push=true")
    assert_outcome(proc, PUSH_OFF)
    assert log_lines(log_path) == []


def test_git_guard_reads_the_override_file_below_home_without_xdg_config_home(home, log_path):
    write_overrides(home / ".config", {"rules": {"reset-hard": []}})
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    env["HOOKWRIGHT_LOG"] = str(log_path)
    assert_outcome(run_guard(payload("git reset --hard"), env), None)
    assert_outcome(run_guard(payload("git stash"), env), STASH)


INVALID_OVERRIDES = [  # (why, file content): each one falls back to the built-ins as a whole
    ("not JSON", '{"rules": {"stash": []'),
    ("JSON with a comment", '{"rules": {"stash": []} // off\n}'),
    ("not UTF-8", b'{"rules": {"stash": []}, "reasons": {"reset-hard": "\xff"}}'),
    ("a JSON array", '[{"rules": {"stash": []}}]'),
    ("NaN", '{"rules": {"stash": []}, "reasons": {"x": NaN}}'),
    ("rules is a list", {"rules": [["stash", []]]}),
    ("a rule is a string", {"rules": {"stash": [], "reset-hard": "^git reset"}}),
    ("a rule is null", {"rules": {"stash": [], "reset-hard": None}}),
    ("a regex is a number", {"rules": {"stash": [], "reset-hard": ["^git reset", 5]}}),
    ("a regex does not compile", {"rules": {"stash": [], "reset-hard": ["^git reset (--hard"]}}),
    ("an empty rule id", {"rules": {"stash": [], "": ["x"]}}),
    ("reasons is a list", {"rules": {"stash": []}, "reasons": ["x"]}),
    ("a reason is a number", {"rules": {"stash": []}, "reasons": {"reset-hard": 5}}),
    ("a reason is empty", {"rules": {"stash": []}, "reasons": {"reset-hard": " "}}),
    ("a reason for no rule", {"rules": {"stash": []}, "reasons": {"reset-hardd": "typo"}}),
    ("an unknown top-level key", {"rules": {"stash": []}, "rule": {"reset-hard": []}}),
]


@pytest.mark.parametrize("content", [row[1] for row in INVALID_OVERRIDES],
                         ids=[row[0] for row in INVALID_OVERRIDES])
def test_git_guard_falls_back_to_the_built_ins_on_an_invalid_override_file(content, config_home,
                                                                           override_env, log_path):
    path = config_home / "hookwright" / "git-guard.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content if isinstance(content, bytes) else
                     (content if isinstance(content, str) else json.dumps(content)).encode())
    assert_outcome(run_guard(payload("git stash"), override_env), STASH)  # the file's "stash": [] is void
    assert_one_log_line(log_path)
    assert "git-guard.json ignored, using the built-in rules" in log_lines(log_path)[0]
    assert_outcome(run_guard(payload("git reset --hard"), override_env), RESET)
    assert_outcome(run_guard(payload("git status"), override_env), None)


def test_git_guard_says_why_an_override_file_is_invalid(config_home, override_env, log_path):
    write_overrides(config_home, {"rules": {"reset-hard": ["^git reset (--hard"]}})
    run_guard(payload("git status"), override_env)
    [line] = log_lines(log_path)
    assert "rules.reset-hard" in line and "does not compile" in line


def test_git_guard_treats_an_unreadable_override_file_as_invalid(config_home, override_env, log_path):
    (config_home / "hookwright" / "git-guard.json").mkdir(parents=True)  # a directory, not a file
    assert_outcome(run_guard(payload("git stash"), override_env), STASH)
    assert_one_log_line(log_path)


def test_git_guard_reads_no_override_file_for_commands_without_git(config_home, override_env, log_path):
    write_overrides(config_home, "not json")
    assert_outcome(run_guard(payload("ls -la && make test"), override_env), None)
    assert log_lines(log_path) == []


def test_git_guard_rule_ids_are_the_documented_ones():
    ids = [rule_id for rule_id, _, _ in GUARD.RULES]
    assert ids == ["hooks-path", "stash", "stash-drop", "reset-hard", "clean-force", "push-force",
                   "checkout-discard", "restore-discard", "branch-force-delete", "no-verify", "push"]
    doc = GUARD.__doc__
    assert all(rule_id in doc for rule_id in ids)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([c for c, _ in DESTRUCTIVE if "'oops" not in c and '"oops' not in c]))
def test_git_guard_with_every_built_in_rule_turned_off_denies_nothing(command):
    rules = GUARD.rules_from({"rules": {rule_id: [] for rule_id, _, _ in GUARD.RULES}})
    assert rules == []
    assert GUARD.check_text(command, {"deny_push": True}, rules) is None


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([c for c, _ in DESTRUCTIVE if "'oops" not in c and '"oops' not in c]))
def test_git_guard_an_empty_override_file_keeps_every_built_in_decision(command):
    rules = GUARD.rules_from({})
    assert GUARD.check_text(command, {"deny_push": False}, rules) == GUARD.check_text(command, {"deny_push": False})


# --- git_guard.shell_commands(): what a Bash command string runs -------------------------------

SHELL_ROWS = [
    ("ls -la", [["ls", "-la"]]),
    ("cd x && git status | head -1; echo 'a;b'", [["cd", "x"], ["git", "status"], ["head", "-1"], ["echo", "a;b"]]),
    ("sudo -u root env A=1 nohup timeout 5 git push", [["git", "push"]]),
    ("bash -lc 'git stash && ls'", [["bash", "-lc", "git stash && ls"], ["git", "stash"], ["ls"]]),
    ("echo $(git rev-parse HEAD)", [["echo", "$(git rev-parse HEAD)"], ["git", "rev-parse", "HEAD"]]),
    ("cat <<EOF\ngit reset --hard\nEOF\nls", [["cat"], ["ls"]]),
    ("# git reset --hard", []),
    ("command -v git", []),
    ("git 2>&1 >/dev/null status", [["git", "status"]]),
]


@pytest.mark.parametrize("text, expected", SHELL_ROWS, ids=[row[0] for row in SHELL_ROWS])
def test_shell_commands_lists_what_the_shell_would_run(text, expected):
    assert list(GUARD.shell_commands(text)) == expected


def test_shell_commands_falls_back_to_a_crude_scan_for_text_it_cannot_read():
    assert list(GUARD.shell_commands("echo 'unbalanced && git push -f")) == []
    assert list(GUARD.shell_commands("echo 'unbalanced && git push -f", fallback_names=("git",))) == [
        ["git", "push", "-f"]]
