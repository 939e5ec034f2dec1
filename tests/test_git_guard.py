"""git-guard's protocol, options and rules files, each row run through the real script as Claude Code does.

What git-guard decides for each command is tests/test_git_guard_table.py's table; this file
holds the rest: bad payloads, options, logging, the user's rules file. A row here is
(..., expected): None means "passes through" (exit 0, empty stdout), otherwise a substring the
deny reason must contain. The script runs from a folder laid out as the installer lays it.
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
from hookwright import resources
from hypothesis import given, settings
from hypothesis import strategies as st
from support import lay_out_runtime
from test_git_guard_table import READS_THE_REPOSITORY, ROWS, UNFOLLOWED

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
    ["--host", "gemini"],
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


def load_guard_module(name: str = "git_guard") -> types.ModuleType:
    """A module of the pack (git_guard.py, the hook's), for fast in-process property tests (no .pyc written)."""
    sys.path[:0] = [str(MODULE.parent), str(RUNTIME.parent)]
    no_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in templates/
    module = __import__(name)
    sys.dont_write_bytecode = no_bytecode
    return module


GUARD = load_guard_module()
FILES = load_guard_module("rules_files")  # the rules files' reading
DENIED = [command for command, expected in ROWS if expected not in (None, UNFOLLOWED) and "oops" not in command
          and command not in READS_THE_REPOSITORY]
SHELL_FRAGMENTS = ["git", "reset", "--hard", "stash", "push", "-f", "-C", "x", "--", "(", ")",
                   "$(", "`", "'", '"', "\\", "\n", ";", "&&", "|", "&", "<<", "EOF", "2>&1",
                   "bash", "-c", "sudo", "env", "A=1", "eval", "#", "$'", "<(", " ", "\t"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SHELL_FRAGMENTS), max_size=30).map("".join))
def test_git_guard_never_raises_on_arbitrary_command_text(command):
    reason = GUARD.check_text(command, {"deny_push": True})
    assert reason is None or isinstance(reason, str)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([command for command in DENIED if command.startswith("git ")]),
       st.sampled_from(["cd repo && ", "true; ", "sudo ", "env A=1 ", "echo hi\n", "( "]))
def test_git_guard_still_denies_behind_any_prefix(command, prefix):
    assert GUARD.check_text(prefix + command + (" )" if prefix == "( " else ""), {"deny_push": False}) is not None



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
    ("a key twice", '{"rules": {"stash": []}, "rules": {"reset-hard": []}}'),
    ("$schema is a number", {"$schema": 1, "rules": {"stash": []}}),
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
    assert "git-guard.json ignored as a whole, its rules are not in force" in log_lines(log_path)[0]
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
    assert ids == ["hooks-path", "stash", "stash-drop", "reset-hard", "clean-force", "push-force", "push-delete",
                   "checkout-discard", "restore-discard", "branch-force-delete", "tag-delete", "ref-delete",
                   "reflog-expire", "prune-objects", "history-rewrite", "worktree-remove-force", "submodule-force",
                   "rm-force", "git-dir-delete", "no-verify", "push"]
    doc = GUARD.__doc__
    assert all(rule_id in doc for rule_id in ids)
    assert set(ids) - {"push"} == {expected for _, expected in ROWS if expected not in (None, UNFOLLOWED)}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(DENIED))
def test_git_guard_with_every_built_in_rule_turned_off_denies_nothing(command):
    rules = FILES.rules_from({"rules": {rule_id: [] for rule_id, _, _ in GUARD.RULES}})
    assert rules == []
    assert GUARD.check_text(command, {"deny_push": True}, rules) is None


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(DENIED))
def test_git_guard_an_empty_override_file_keeps_every_built_in_decision(command):
    rules = FILES.rules_from({})
    assert GUARD.check_text(command, {"deny_push": False}, rules) == GUARD.check_text(command, {"deny_push": False})


# --- the project's rules file, over the user's, on each host --------------------------------------

PROJECT_FILES = {"claude": ".claude", "cursor": ".cursor", "opencode": ".opencode"}


def host_payload(host: str, command: str, project: Path, cwd: Path | None = None) -> bytes:
    """The payload each host sends, with the folder it names the project by."""
    if host == "cursor":
        return json.dumps({"hook_event_name": "beforeShellExecution", "command": command, "cwd": str(cwd or project),
                           "workspace_roots": [str(project)], "conversation_id": "c", "generation_id": "g"}).encode()
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(cwd or project),
                       "tool_input": {"command": command}, "session_id": "s"}).encode()


def decision(host: str, command: str, project: Path, env: dict, cwd: Path | None = None) -> str | None:
    proc = run_guard(host_payload(host, command, project, cwd), env, "--host", host)
    assert proc.returncode == 0, proc.stderr
    said = json.loads(proc.stdout) if proc.stdout.strip() else {}
    if host == "cursor":
        return said.get("agent_message")
    if host == "opencode":
        return said.get("reason")
    return said.get("hookSpecificOutput", {}).get("permissionDecisionReason")


def write_project_rules(project: Path, host: str, content) -> Path:
    path = project / PROJECT_FILES[host] / "hookwright-git-guard.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


@pytest.fixture
def layered_env(override_env, tmp_path) -> dict:
    """No CLAUDE_PROJECT_DIR/CURSOR_PROJECT_DIR: the payload names the project."""
    return {k: v for k, v in override_env.items() if k not in ("CLAUDE_PROJECT_DIR", "CURSOR_PROJECT_DIR")}


LAYER_ROWS = [  # (user file, project file, command, expected)
    (None, {"rules": {"stash": []}}, "git stash", None),  # the project switches a rule off
    (None, {"rules": {"stash": []}}, "git reset --hard", RESET),  # and only that one
    (None, {"rules": {"no-rebase": ["^git rebase"]}, "reasons": {"no-rebase": "We merge here."}},
     "git rebase main", "We merge here."),  # adds one
    (None, {"rules": {"reset-hard": ["^git reset --hard HEAD~"]}}, "git reset --hard", None),  # replaces one
    (None, {"reasons": {"push-force": "Ask Ana."}}, "git push -f", "Ask Ana."),
    ({"rules": {"stash": []}}, {"rules": {"stash": ["^git stash$"]}}, "git stash", STASH),  # project over user
    ({"rules": {"stash": []}}, {"rules": {"stash": ["^git stash$"]}}, "git stash -u", None),
    ({"rules": {"stash": []}}, {"reasons": {"reset-hard": "Team rule."}}, "git stash", None),  # the user's stays
    ({"rules": {"stash": []}}, {"reasons": {"reset-hard": "Team rule."}}, "git reset --hard", "Team rule."),
    ({"rules": {"a": ["^git tag"]}, "reasons": {"a": "user a"}},
     {"rules": {"b": ["^git tag"]}, "reasons": {"b": "project b"}}, "git tag v1", "user a"),  # user's added first
    ({"rules": {"stash": []}}, '{"rules": {"reset-hard": []}', "git stash", None),  # an invalid project file...
    ({"rules": {"stash": []}}, '{"rules": {"reset-hard": []}', "git reset --hard", RESET),  # ...is ignored whole
    ('{"rules": ', {"rules": {"stash": []}}, "git stash", None),  # an invalid user file: the project's still holds
    ('{"rules": ', {"rules": {"stash": []}}, "git clean -f", CLEAN),
]


@pytest.mark.parametrize("host", ["claude", "cursor", "opencode"])
@pytest.mark.parametrize("user, project_file, command, expected", LAYER_ROWS,
                         ids=[f"{i}:{row[2]}" for i, row in enumerate(LAYER_ROWS)])
def test_the_projects_rules_file_goes_over_the_users_on_every_host(host, user, project_file, command, expected,
                                                                  tmp_path, config_home, layered_env, log_path):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    if user is not None:
        write_overrides(config_home, user)
    write_project_rules(project, host, project_file)
    reason = decision(host, command, project, layered_env)
    assert (reason is None) == (expected is None) and (expected is None or expected in reason), reason
    invalid = sum(isinstance(content, str) for content in (user, project_file))
    assert len(log_lines(log_path)) == invalid


@pytest.mark.parametrize("host", ["claude", "cursor", "opencode"])
def test_each_host_reads_its_own_folders_rules_file_only(host, tmp_path, layered_env):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for other in PROJECT_FILES:
        if other != host:
            write_project_rules(project, other, {"rules": {"reset-hard": []}})
    assert RESET in decision(host, "git reset --hard", project, layered_env)
    write_project_rules(project, host, {"rules": {"reset-hard": []}})
    assert decision(host, "git reset --hard", project, layered_env) is None


@pytest.mark.parametrize("host", ["claude", "cursor", "opencode"])
def test_the_rules_file_is_found_from_a_subfolder_up_to_the_repository_root(host, tmp_path, layered_env):
    repo = tmp_path / "repo"
    sub = repo / "pkg" / "sub"
    sub.mkdir(parents=True)
    (repo / ".git").mkdir()
    write_project_rules(repo, host, {"rules": {"reset-hard": []}})
    assert decision(host, "git reset --hard", sub, layered_env) is None
    write_project_rules(tmp_path, host, {"rules": {"clean-force": []}})  # above the repository: not this project's
    assert CLEAN in decision(host, "git clean -f", sub, layered_env)


def test_claude_codes_project_dir_and_cursors_workspace_root_name_the_project(tmp_path, layered_env):
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / ".git").mkdir(parents=True)
    (elsewhere / ".git").mkdir(parents=True)
    write_project_rules(project, "claude", {"rules": {"stash": []}})
    write_project_rules(project, "cursor", {"rules": {"stash": []}})
    env = {**layered_env, "CLAUDE_PROJECT_DIR": str(project)}
    assert decision("claude", "git stash", elsewhere, env) is None  # cwd elsewhere, the project dir holds the file
    assert STASH in decision("claude", "git stash", elsewhere, layered_env)
    payload = json.dumps({"hook_event_name": "beforeShellExecution", "command": "git stash", "cwd": str(project / "x"),
                          "workspace_roots": [str(elsewhere), str(project)]}).encode()
    assert json.loads(run_guard(payload, layered_env, "--host", "cursor").stdout) == {}  # the root holding the cwd


def test_a_rules_file_in_the_home_folder_is_never_a_projects(home, log_path):
    (home / "repo").mkdir()
    write_project_rules(home, "claude", {"rules": {"reset-hard": []}})  # ~/.claude/hookwright-git-guard.json
    env = {**os.environ, "HOOKWRIGHT_LOG": str(log_path)}
    assert RESET in decision("claude", "git reset --hard", home / "repo", env)


def test_the_project_file_is_read_again_when_it_changes(tmp_path, layered_env):
    """A serving runtime answers many calls: the rules follow the file (GUARD.active_rules in-process)."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    path = write_project_rules(project, "claude", {"rules": {"stash": []}})
    payload = {"cwd": str(project)}
    env = {k: v for k, v in layered_env.items() if k == "XDG_CONFIG_HOME"}
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("CLAUDE_PROJECT_DIR", raising=False)
        for name, value in env.items():
            patch.setenv(name, value)
        assert "stash" not in [rule.id for rule in GUARD.active_rules("claude", payload)]
        path.write_text(json.dumps({"rules": {"stash": [], "tag-delete": []}}))
        os.utime(path, ns=(1, 1))
        ids = [rule.id for rule in GUARD.active_rules("claude", payload)]
        assert "stash" not in ids and "tag-delete" not in ids


# --- the schema and the runtime's checker agree ------------------------------------------------------

SCHEMA = json.loads((TEMPLATES.parent / "schemas" / "git-guard-rules.schema.json").read_text())
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                                       max_size=3), max_leaves=6)
KEYS = st.sampled_from(["rules", "reasons", "$schema", "rule", "", "x"])
IDS = st.sampled_from(["stash", "reset-hard", "no-rebase", "", " ", "é"])
TEXTS = st.sampled_from(["^git tag", "", " ", "\t\n", "\x1c", "\u3000", "\ufeff", "ok", "\u00a0x"])
RULES_FILES = st.dictionaries(KEYS, st.one_of(
    JSON_VALUES,
    st.dictionaries(IDS, st.one_of(JSON_VALUES, st.lists(st.one_of(TEXTS, JSON_VALUES), max_size=3)), max_size=3),
    st.dictionaries(IDS, st.one_of(TEXTS, JSON_VALUES), max_size=3)), max_size=3) | JSON_VALUES


WHITE_SPACE_ISH = ["\t", "\n", "\x0b", "\x0c", "\r", " ", "\x1c", "\x1f", "\x85", "\xa0", "\u1680", "\u2000",
                   "\u200a", "\u200b", "\u2028", "\u202f", "\u205f", "\u3000", "\ufeff", "x"]


@pytest.mark.parametrize("text", WHITE_SPACE_ISH, ids=[repr(ch) for ch in WHITE_SPACE_ISH])
def test_the_runtimes_checker_and_the_schema_agree_on_what_a_blank_reason_is(text):
    import jsonschema

    data = {"reasons": {"stash": text * 2}}
    assert jsonschema.Draft202012Validator(SCHEMA).is_valid(data) == (FILES.structure_problem(data) is None)
    assert not resources.schema_errors("git-guard-rules.schema.json", data) == (FILES.structure_problem(data) is None)


@settings(max_examples=600, deadline=None)
@given(RULES_FILES)
def test_the_runtimes_checker_agrees_with_the_schema(data):
    import jsonschema

    by_schema = jsonschema.Draft202012Validator(SCHEMA).is_valid(data)
    assert by_schema == (FILES.structure_problem(data) is None), (data, FILES.structure_problem(data))
    assert by_schema == (not resources.schema_errors("git-guard-rules.schema.json", data))  # doctor's validator too


def test_the_schema_lists_the_built_in_rules_in_order():
    assert SCHEMA["$defs"]["builtin"]["enum"] == list(GUARD.RULE_IDS)
