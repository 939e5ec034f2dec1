"""Unit tests of the shared hook runtime library (templates/runtime/hookwright_runtime.py).

The library is what every bundled hook speaks through: render() decides the only output
shapes the host ever sees, run() turns every failure into a logged pass-through.
"""
from __future__ import annotations

import ast
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import lay_out_runtime

RUNTIME_DIR = Path(__file__).resolve().parents[1] / "templates" / "runtime"
sys.path.insert(0, str(RUNTIME_DIR))
_no_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in templates/
import hookwright_runtime as hw  # noqa: E402

sys.dont_write_bytecode = _no_bytecode

EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart",
          "SubagentStart", "Stop", "SubagentStop", "Notification", "PermissionRequest", "PreCompact",
          "SessionEnd"]
FORBIDDEN = {"modifiedToolInput", "updatedToolInput", "shouldProceed", "updatedInput", "decision",
             "permissionDecision", "continue", "suppressOutput"}  # at the top level
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (\S+) (\S.*)$")


# --- render(): the output shapes ---------------------------------------------------------------

def pre(**specific):
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **specific}}


RENDER_ROWS = [  # (id, outcome, event, expected)
    ("deny", hw.deny("no"), "PreToolUse",
     pre(permissionDecision="deny", permissionDecisionReason="no")),
    ("allow", hw.allow(), "PreToolUse", pre(permissionDecision="allow")),
    ("allow with a reason", hw.allow(reason="fine"), "PreToolUse",
     pre(permissionDecision="allow", permissionDecisionReason="fine")),
    ("allow with input", hw.allow({"a": 1}), "PreToolUse",
     pre(permissionDecision="allow", updatedInput={"a": 1})),
    ("allow with an empty input", hw.allow({}), "PreToolUse",
     pre(permissionDecision="allow", updatedInput={})),
    ("rewrite without a decision", hw.rewrite({"path": "/a"}), "PreToolUse", pre(updatedInput={"path": "/a"})),
    ("ask", hw.Outcome("ask", "sure?"), "PreToolUse",
     pre(permissionDecision="ask", permissionDecisionReason="sure?")),
    ("deny never carries input", hw.Outcome("deny", "no", {"a": 1}), "PreToolUse",
     pre(permissionDecision="deny", permissionDecisionReason="no")),
    ("ask never carries input", hw.Outcome("ask", None, {"a": 1}), "PreToolUse", pre(permissionDecision="ask")),
    ("context on PreToolUse", hw.add_context("note"), "PreToolUse", pre(additionalContext="note")),
    ("deny with context", hw.Outcome("deny", "no", context="see x"), "PreToolUse",
     pre(permissionDecision="deny", permissionDecisionReason="no", additionalContext="see x")),
    ("context on PostToolUse", hw.add_context("note"), "PostToolUse",
     {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "note"}}),
    ("context on PostToolUseFailure", hw.add_context("go on"), "PostToolUseFailure",
     {"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "go on"}}),
    ("context on SessionStart", hw.add_context("hi"), "SessionStart",
     {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "hi"}}),
    ("a decision PostToolUse cannot take", hw.deny("no"), "PostToolUse", None),
    ("input PostToolUse cannot take", hw.allow({"a": 1}), "PostToolUse", None),
    ("a rewrite PostToolUse cannot take", hw.rewrite({"a": 1}), "PostToolUse", None),
    ("context Stop cannot take here", hw.add_context("x"), "Stop", None),
    ("a decision PermissionRequest cannot take this way", hw.allow({"a": 1}), "PermissionRequest", None),
    ("nothing decided", hw.Outcome(), "PreToolUse", None),
    ("an empty context", hw.add_context(""), "PostToolUse", None),
    ("an empty reason is left out", hw.deny(""), "PreToolUse", pre(permissionDecision="deny")),
]


@pytest.mark.parametrize("outcome, event, expected", [row[1:] for row in RENDER_ROWS],
                         ids=[row[0] for row in RENDER_ROWS])
def test_render_gives_the_one_shape_claude_code_reads(outcome, event, expected):
    assert hw.render(outcome, "claude", event) == expected


def test_render_outputs_nothing_for_an_unknown_host():
    assert hw.render(hw.deny("no"), "gemini", "PreToolUse") is None


@pytest.mark.parametrize("event", [None, "", 5])
def test_render_outputs_nothing_without_an_event_name(event):
    assert hw.render(hw.deny("no"), "claude", event) is None


@pytest.mark.parametrize("decision", ["defer", "block", "approve", "Deny", ""])
def test_render_refuses_a_decision_claude_code_would_void_or_that_ends_a_run(decision):
    with pytest.raises(ValueError):
        hw.render(hw.Outcome(decision, "x"), "claude", "PreToolUse")


@pytest.mark.parametrize("updated", ["a string", ["a", "list"], 5])
def test_render_refuses_an_updated_input_that_is_not_a_whole_object(updated):
    with pytest.raises(TypeError):
        hw.render(hw.allow(updated), "claude", "PreToolUse")


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                       max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(decision=st.sampled_from([None, "allow", "deny", "ask"]), reason=st.none() | st.text(max_size=10),
       updated=st.none() | st.dictionaries(st.text(max_size=5), JSONISH, max_size=3),
       context=st.none() | st.text(max_size=10), event=st.sampled_from(EVENTS) | st.text(min_size=1, max_size=12))
def test_render_shapes_hold_for_any_outcome_and_event(decision, reason, updated, context, event):
    output = hw.render(hw.Outcome(decision, reason, updated, context), "claude", event)
    if output is None:
        return
    assert list(output) == ["hookSpecificOutput"]
    specific = output["hookSpecificOutput"]
    assert specific["hookEventName"] == event
    assert set(specific) <= {"hookEventName", "permissionDecision", "permissionDecisionReason",
                             "updatedInput", "additionalContext"}
    assert "defer" not in json.dumps(specific.get("permissionDecision"))
    if "permissionDecision" in specific or "updatedInput" in specific:
        assert event == "PreToolUse"
    if "updatedInput" in specific:
        assert specific.get("permissionDecision", "allow") == "allow"
        assert specific["updatedInput"] == updated
    if "permissionDecisionReason" in specific:
        assert "permissionDecision" in specific
    json.dumps(output, allow_nan=False)


# --- run(): every failure is a logged pass-through -------------------------------------------------

@pytest.fixture
def log_path(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "logs" / "hooks.log"
    monkeypatch.setenv("HOOKWRIGHT_LOG", str(path))
    return path


def log_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def payload(event="PreToolUse", tool="Bash", tool_input=None, **extra) -> bytes:
    data = {"hook_event_name": event, "tool_name": tool, "tool_input": tool_input or {"command": "ls"},
            "cwd": "/tmp", "session_id": "s"}
    data.update(extra)
    return json.dumps(data).encode()


def call_run(handle, stdin: bytes, argv=("--host", "claude"), **kwargs):
    """run() in-process; returns (exit code, stdout text)."""
    out = io.StringIO()
    code = hw.run("test-hook", handle, __file__, argv=list(argv), stdin=io.BytesIO(stdin), stdout=out,
                  **kwargs)
    return code, out.getvalue()


def deny_all(call):
    return hw.deny("denied")


def test_run_prints_one_json_line_for_a_decision(log_path):
    code, out = call_run(deny_all, payload())
    assert code == 0
    assert out == json.dumps(pre(permissionDecision="deny", permissionDecisionReason="denied")) + "\n"
    assert log_lines(log_path) == []


def test_run_prints_nothing_for_a_pass_through(log_path):
    assert call_run(lambda call: None, payload()) == (0, "")
    assert log_lines(log_path) == []


def test_run_gives_the_handler_the_call(log_path):
    seen = []
    call_run(seen.append, payload(tool_input={"command": "x"}), argv=["--host", "claude", "--option", "k=v"])
    [call] = seen
    assert (call.name, call.host, call.event, call.tool_name) == ("test-hook", "claude", "PreToolUse", "Bash")
    assert call.tool_input == {"command": "x"} and call.option("k") == "v" and call.option("nope", 3) == 3
    assert call.folder == str(Path(__file__).resolve().parent)


BAD_STDIN = [
    ("empty", b""),
    ("blank", b"  \n"),
    ("not JSON", b"{oops"),
    ("not UTF-8", b'{"hook_event_name": "PreToolUse", "x": "\xff"}'),
    ("an array", b"[]"),
    ("a string", b'"PreToolUse"'),
    ("null", b"null"),
    ("no event", b'{"tool_name": "Bash"}'),
    ("an empty event", b'{"hook_event_name": ""}'),
    ("a numeric event", b'{"hook_event_name": 5}'),
    ("NaN", b'{"hook_event_name": "PreToolUse", "x": NaN}'),
    ("Infinity", b'{"hook_event_name": "PreToolUse", "x": -Infinity}'),
    ("nested too deeply", b'{"hook_event_name": "PreToolUse", "x": ' + b"[" * 100000 + b"]" * 100000 + b"}"),
    ("an integer too long", b'{"hook_event_name": "PreToolUse", "x": ' + b"9" * 5000 + b"}"),
]


@pytest.mark.parametrize("stdin", [row[1] for row in BAD_STDIN], ids=[row[0] for row in BAD_STDIN])
def test_run_passes_through_bad_stdin_with_one_log_line(stdin, log_path):
    assert call_run(deny_all, stdin) == (0, "")
    lines = log_lines(log_path)
    assert len(lines) == 1 and LOG_LINE.match(lines[0]).group(1) == "test-hook"


def test_run_passes_through_an_over_size_payload_and_reads_it_all(log_path, monkeypatch):
    monkeypatch.setattr(hw, "MAX_STDIN", 100)
    stream = io.BytesIO(payload(tool_input={"command": "x" * 5000}))
    assert hw.run("test-hook", deny_all, __file__, argv=["--host", "claude"], stdin=stream,
                  stdout=io.StringIO()) == 0
    assert stream.read() == b""  # drained: the host never writes into a closed pipe
    [line] = log_lines(log_path)
    assert "over 100 bytes" in line


def test_run_accepts_a_payload_of_exactly_the_limit(log_path, monkeypatch):
    data = payload()
    monkeypatch.setattr(hw, "MAX_STDIN", len(data))
    assert call_run(deny_all, data)[1] != ""


@pytest.mark.parametrize("argv", [[], ["--host", "gemini"], ["--host", "Claude"], ["--option", "a=b"]])
def test_run_passes_through_an_unknown_host_with_one_log_line(argv, log_path):
    assert call_run(deny_all, payload(), argv=argv) == (0, "")
    [line] = log_lines(log_path)
    assert "unknown --host" in line


def test_run_logs_a_host_flag_without_a_value_and_passes_through(log_path):
    assert call_run(deny_all, payload(), argv=["--host"]) == (0, "")
    assert [line.split(" ", 2)[2] for line in log_lines(log_path)] == ["--host without a value",
                                                                       "unknown --host None"]


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyError("k"), RecursionError(),
                                   SystemExit(2), KeyboardInterrupt()])
def test_run_passes_through_an_exception_in_the_handler_with_one_log_line(error, log_path):
    def handle(call):
        raise error

    assert call_run(handle, payload()) == (0, "")
    [line] = log_lines(log_path)
    assert type(error).__name__ in line


def test_run_passes_through_a_pass_through_with_its_message(log_path):
    def handle(call):
        raise hw.PassThrough("nothing to judge")

    assert call_run(handle, payload()) == (0, "")
    [line] = log_lines(log_path)
    assert line.endswith(" test-hook nothing to judge")


def test_run_passes_through_an_outcome_that_cannot_be_rendered(log_path):
    assert call_run(lambda call: hw.Outcome("defer"), payload()) == (0, "")
    assert call_run(lambda call: hw.allow({"x": float("nan")}), payload()) == (0, "")
    assert call_run(lambda call: hw.allow({"x": object()}), payload()) == (0, "")
    assert len(log_lines(log_path)) == 3


@pytest.mark.parametrize("swallow", [False, True], ids=["plain", "handler catches Exception"])
def test_run_passes_through_when_the_internal_deadline_passes(swallow, log_path, monkeypatch):
    monkeypatch.setattr(hw, "DEADLINE_S", 0.2)

    finished = []

    def slow(call):
        try:
            time.sleep(3)
            finished.append("slept it out")
        except Exception:
            if not swallow:
                raise
        return hw.deny("too late")

    assert call_run(slow, payload()) == (0, "")
    assert finished == []  # interrupted by the deadline, not waited out (and a handler's except cannot keep it)
    [line] = log_lines(log_path)
    assert "internal deadline of 0.2s passed" in line
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_run_disarms_its_alarm_and_restores_the_signal_handler(log_path):
    before = signal.getsignal(signal.SIGALRM)
    call_run(deny_all, payload())
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) == before


OPTION_ROWS = [  # (argv after --host claude, defaults, expected options, log lines)
    (["--option", "flag=true", "--option=name=x=y"], None, {"flag": True, "name": "x=y"}, 0),
    (["--option", "flag=false"], None, {"flag": False}, 0),
    (["--option", "flag=yes"], {"flag": False}, {"flag": True}, 0),
    (["--option", "flag=OFF"], {"flag": True}, {"flag": False}, 0),
    ([], {"flag": False, "name": "d"}, {"flag": False, "name": "d"}, 0),
    (["--option", "name=v"], {"flag": False, "name": "d"}, {"flag": False, "name": "v"}, 0),
    (["--option", "flag=maybe"], {"flag": True}, {"flag": True}, 1),
    (["--option", "other=1"], {"flag": False}, {"flag": False}, 1),
    (["--option", "noequals"], {"flag": False}, {"flag": False}, 1),
    (["--verbose"], {"flag": False}, {"flag": False}, 1),
    (["--option"], {"flag": False}, {"flag": False}, 1),
]


@pytest.mark.parametrize("extra, defaults, expected, logged", OPTION_ROWS)
def test_run_types_options_like_their_defaults_and_logs_what_it_ignores(extra, defaults, expected, logged,
                                                                       log_path):
    seen = []
    call_run(seen.append, payload(), argv=["--host", "claude"] + extra, defaults=defaults)
    assert seen[0].options == expected
    assert len(log_lines(log_path)) == logged


def test_run_reads_host_given_with_an_equals_sign(log_path):
    assert call_run(deny_all, payload(), argv=["--host=claude"])[1] != ""


# --- the serving mode (--serve): one process, call after call ---------------------------------------

def call_serve(handle, lines: list[bytes], argv=("--host", "claude"), **kwargs):
    """run(--serve) in-process on these request lines; returns (exit code, the replies read as JSON)."""
    out = io.StringIO()
    code = hw.run("test-hook", handle, __file__, argv=[*argv, "--serve"], stdin=io.BytesIO(b"".join(lines)),
                  stdout=out, **kwargs)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def reply(ident: int, stdout: str = "", stderr: str = "", code: int = 0) -> dict:
    """A served reply as the one-shot mode's stdout, stderr and exit code make it."""
    said = {"id": ident, "code": code}
    return {**said, **({"stdout": stdout} if stdout else {}), **({"stderr": stderr} if stderr else {})}


def test_serve_replies_to_each_line_with_its_id_what_run_prints_and_exits_with(log_path):
    def judge(call):
        return hw.deny("no") if call.tool_input["command"] == "rm" else None

    lines = [b"7 " + payload(tool_input={"command": "rm"}) + b"\n", b"8 " + payload() + b"\n"]
    code, replies = call_serve(judge, lines)

    assert code == 0
    assert replies == [reply(7, call_run(judge, payload(tool_input={"command": "rm"}))[1]), reply(8)]
    assert log_lines(log_path) == []


@pytest.mark.parametrize("host", ["claude", "cursor", "opencode"])
def test_serve_passes_through_each_bad_payload_with_its_line_and_answers_the_next(host, log_path):
    bad = [stdin for _, stdin in BAD_STDIN if b"\n" not in stdin]
    lines = [b"%d %s\n" % (n, stdin) for n, stdin in enumerate(bad)] + [b"99 " + payload() + b"\n"]
    code, replies = call_serve(deny_all, lines, argv=("--host", host))
    served = log_lines(log_path)

    nothing = call_run(deny_all, b"", argv=("--host", host))[1]
    assert replies[:-1] == [reply(n, nothing) for n in range(len(bad))]
    assert replies[-1] == reply(99, call_run(deny_all, payload(), argv=("--host", host))[1])
    assert len(served) == len(bad)


def test_serve_blocks_a_call_it_cannot_decide_when_installed_to_fail_closed(log_path):
    code, replies = call_serve(deny_all, [b"1 {oops\n", b"2 " + payload() + b"\n"],
                               argv=("--host", "opencode", "--fail-closed"))
    assert replies[0]["code"] == 2 and "installed to fail closed" in replies[0]["stderr"]
    assert "stdout" not in replies[0] and replies[1]["code"] == 0 and "denied" in replies[1]["stdout"]


def test_serve_passes_through_an_over_size_payload_and_answers_the_next(log_path, monkeypatch):
    monkeypatch.setattr(hw, "MAX_STDIN", 300)
    big = b"1 " + payload(tool_input={"command": "x" * 5000}) + b"\n"
    code, replies = call_serve(deny_all, [big, b"2 " + payload() + b"\n"])

    assert replies[0] == reply(1) and "denied" in replies[1]["stdout"]
    [line] = log_lines(log_path)
    assert "over 300 bytes" in line


def test_serve_skips_a_line_without_an_id_with_a_log_line(log_path):
    code, replies = call_serve(deny_all, [b"x " + payload() + b"\n", payload() + b"\n", b"3 " + payload() + b"\n"])
    assert [said["id"] for said in replies] == [3]
    assert len(log_lines(log_path)) == 2


def test_serve_keeps_its_replies_apart_from_what_a_hook_prints(log_path, capsys):
    def chatty(call):
        print("debugging")
        return hw.deny("denied")

    code, replies = call_serve(chatty, [b"1 " + payload() + b"\n"])
    assert replies == [reply(1, call_run(deny_all, payload())[1])]
    assert capsys.readouterr().err == "debugging\n"


def test_serve_passes_through_a_call_past_the_deadline_and_answers_the_next(log_path, monkeypatch):
    monkeypatch.setattr(hw, "DEADLINE_S", 0.2)

    def slow_once(call):
        if call.tool_input["command"] == "slow":
            time.sleep(3)
        return hw.deny("in time")

    code, replies = call_serve(slow_once, [b"1 " + payload(tool_input={"command": "slow"}) + b"\n",
                                           b"2 " + payload() + b"\n"])
    assert replies[0] == reply(1) and "in time" in replies[1]["stdout"]
    [line] = log_lines(log_path)
    assert "internal deadline of 0.2s passed" in line


def test_serve_gives_the_terminals_interrupt_and_stdout_back_when_it_ends(log_path):
    before, stdout = signal.getsignal(signal.SIGINT), sys.stdout
    call_serve(deny_all, [b"1 " + payload() + b"\n"])
    assert signal.getsignal(signal.SIGINT) == before and sys.stdout is stdout


def deny_all_script(tmp_path):
    """The shared hook script as `deny-all`, on a module that denies everything, and an env logging into tmp."""
    script = tmp_path / "deny-all"
    shutil.copy2(RUNTIME_DIR / "hookwright_runtime.py", tmp_path / "hookwright_runtime.py")
    shutil.copy2(RUNTIME_DIR / "hook_script.py", script)
    (tmp_path / "deny_all.py").write_text("import hookwright_runtime as hw\nNAME, OPTIONS = 't', None\n\n\n"
                                          "def handle(call):\n    return hw.deny('x')\n")
    return script, {**os.environ, "HOOKWRIGHT_LOG": str(tmp_path / "log"), "XDG_CACHE_HOME": str(tmp_path / "cache")}


def test_a_hook_module_without_its_handle_passes_through_with_a_line_on_stderr(tmp_path):
    script, env = deny_all_script(tmp_path)
    (tmp_path / "deny_all.py").write_text("NAME = 't'\n")  # no handle, no OPTIONS
    proc = subprocess.run([sys.executable, "-I", "-S", str(script), "--host", "claude"], input=payload(),
                          capture_output=True, env=env, timeout=30)
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert f"hookwright {tmp_path.name}/deny-all: cannot load its modules: ".encode() in proc.stderr


def test_a_hook_module_with_a_syntax_error_leaves_a_line_in_both_logs_and_blocks_when_installed_to_fail_closed(
        tmp_path):
    script, env = deny_all_script(tmp_path)
    (tmp_path / "deny_all.py").write_text("NAME = 't'\ndef handle(call)\n")
    proc = subprocess.run([sys.executable, "-I", "-S", str(script), "--host", "claude"], input=payload(),
                          capture_output=True, env=env, timeout=30)
    assert (proc.returncode, proc.stdout) == (0, b"")
    [line] = log_lines(tmp_path / "log")
    assert "deny-all cannot load its modules: SyntaxError" in line
    [entry] = decisions(tmp_path / "decisions.jsonl")
    assert (entry["pack"], entry["hook"], entry["decision"], entry["blocked"]) == (tmp_path.name, "deny-all", "error",
                                                                                    False)

    closed = subprocess.run([sys.executable, "-I", "-S", str(script), "--host", "claude", "--fail-closed"],
                            input=payload(), capture_output=True, env=env, timeout=30)
    assert (closed.returncode, closed.stdout) == (2, b"")
    assert b"installed to fail closed: the call is blocked" in closed.stderr
    assert decisions(tmp_path / "decisions.jsonl")[-1]["blocked"] is True


def test_run_really_writes_to_stdout_and_exits_0_as_a_script(tmp_path):
    script, env = deny_all_script(tmp_path)
    proc = subprocess.run([sys.executable, "-I", "-S", str(script), "--host", "claude"], input=payload(),
                          capture_output=True, env=env, timeout=30)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert json.loads(proc.stdout) == pre(permissionDecision="deny", permissionDecisionReason="x")


def test_run_passes_through_as_a_script_started_without_stdin(tmp_path):
    script, env = deny_all_script(tmp_path)
    proc = subprocess.run([sys.executable, "-I", "-S", str(script), "--host", "claude"], capture_output=False,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=30,
                          preexec_fn=lambda: os.close(0))
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert len(log_lines(tmp_path / "log")) == 1


# --- the error log and the user's directories --------------------------------------------------------

def test_log_prefers_hookwright_log_over_xdg_state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOOKWRIGHT_LOG", str(tmp_path / "explicit.log"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    hw.log("me", "hello")
    assert len(log_lines(tmp_path / "explicit.log")) == 1
    assert not (tmp_path / "state").exists()


def test_log_goes_to_xdg_state_home_without_hookwright_log(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    hw.log("me", "hello")
    [line] = log_lines(tmp_path / "state" / "hookwright" / "hooks.log")
    assert LOG_LINE.match(line).groups() == ("me", "hello")
    assert os.stat(tmp_path / "state" / "hookwright").st_mode & 0o077 == 0


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS keeps state in ~/Library")
def test_log_goes_below_home_without_any_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    hw.log("me", "hello")
    assert len(log_lines(tmp_path / ".local" / "state" / "hookwright" / "hooks.log")) == 1


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS keeps state in ~/Library")
def test_log_ignores_a_relative_xdg_state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")
    monkeypatch.chdir(tmp_path)
    hw.log("me", "hello")
    assert not (tmp_path / "relative").exists()
    assert len(log_lines(tmp_path / "home" / ".local" / "state" / "hookwright" / "hooks.log")) == 1


def test_log_writes_one_line_whatever_the_message(log_path):
    hw.log("me", "two\nlines\tand  spaces")
    hw.log("me", "x" * 5000)
    hw.log("me", "")
    hw.log("me", "caf\u00e9 \udcff")
    lines = log_lines(log_path)
    assert len(lines) == 4
    assert lines[0].endswith(" me two lines and spaces")
    assert len(lines[1]) < 1100 and lines[1].endswith("...")
    assert lines[2].endswith(" me -")


def test_log_never_raises_when_the_log_cannot_be_written(monkeypatch):
    monkeypatch.setenv("HOOKWRIGHT_LOG", "/dev/null/cannot/write.log")
    hw.log("me", "hello")


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS keeps config in ~/Library")
def test_config_and_state_dirs_honour_absolute_xdg_variables_only(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert hw.config_dir() == str(tmp_path / ".config" / "hookwright")
    assert hw.state_dir() == str(tmp_path / ".local" / "state" / "hookwright")
    assert hw.cache_dir() == str(tmp_path / ".cache" / "hookwright")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/x/config")
    monkeypatch.setenv("XDG_STATE_HOME", "/x/state")
    monkeypatch.setenv("XDG_CACHE_HOME", "/x/cache")
    assert (hw.config_dir(), hw.state_dir(), hw.cache_dir()) == (
        "/x/config/hookwright", "/x/state/hookwright", "/x/cache/hookwright")
    monkeypatch.setenv("XDG_CONFIG_HOME", "rel")
    assert hw.config_dir() == str(tmp_path / ".config" / "hookwright")


def test_read_json_file(tmp_path):
    assert hw.read_json_file(tmp_path / "missing.json") is None
    assert hw.read_json_file(tmp_path / "not-a-dir.json" / "x") is None
    (tmp_path / "ok.json").write_text('{"a": [1]}')
    assert hw.read_json_file(tmp_path / "ok.json") == {"a": [1]}
    for name, content in [("list.json", "[]"), ("bad.json", "{"), ("nan.json", '{"a": NaN}'),
                          ("latin1.json", b'{"a": "\xe9"}')]:
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        with pytest.raises(ValueError, match=name):
            hw.read_json_file(path)
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(ValueError, match="cannot be read"):
        hw.read_json_file(tmp_path / "dir.json")


def test_read_json_file_reads_no_fifo_and_no_device_a_repository_put_in_a_files_place(tmp_path):
    """(a blocking read of a FIFO would hold the hook until the agent's timeout; /dev/zero never ends)"""
    os.mkfifo(tmp_path / "prefs.json")
    (tmp_path / "rules.json").symlink_to("/dev/zero")
    with open(tmp_path / "big.json", "wb") as big:
        big.truncate(hw.MAX_JSON_FILE + 1)
    for name in ("prefs.json", "rules.json", "big.json"):
        with pytest.raises(ValueError, match="not a regular file of at most"):
            hw.read_json_file(str(tmp_path / name))


# --- byte-code goes to the user's cache, never beside the scripts ---------------------------------

def test_a_pack_script_leaves_no_byte_code_beside_itself(tmp_path):
    folder = lay_out_runtime(tmp_path / "project" / ".claude" / "hookwright" / "git-guard", "git-guard")
    env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "HOOKWRIGHT_LOG": str(tmp_path / "log")}
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-I", "-S", str(folder / "git-guard"), "--host", "claude"],
                              input=payload(tool_input={"command": "git status"}), env=env,
                              capture_output=True, timeout=30, cwd=tmp_path / "project")
        assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert sorted(p.name for p in folder.iterdir()) == ["git-guard", "git_cli.py", "git_guard.py",
                                                        "hookwright_runtime.py", "rules_files.py", "shell_follow.py",
                                                        "shell_reader.py"]
    cached = (tmp_path / "cache" / "hookwright" / "pycache").rglob("*.pyc")
    assert sorted(p.name.split(".")[0] for p in cached) == [  # not the stdlib
        "git_cli", "git_guard", "hookwright_runtime", "shell_reader"]  # (a plain command needs no shell_follow)
    assert not (tmp_path / "log").exists()


# --- typed for mypy at no cost at start-up ------------------------------------------------------------

RUNTIME_SOURCES = sorted([*RUNTIME_DIR.glob("*.py"), *RUNTIME_DIR.parent.glob("packs/*/*.py")])


def evaluated_annotations(tree: ast.AST):
    """Every annotation outside the `if TYPE_CHECKING:` blocks, which only the checker reads."""
    checker_only = {id(node) for block in ast.walk(tree)
                    if isinstance(block, ast.If) and isinstance(block.test, ast.Name) and block.test.id == "TYPE_CHECKING"
                    for statement in block.body for node in ast.walk(statement)}
    for node in ast.walk(tree):
        if id(node) in checker_only:
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg,
                             arguments.kwarg]:
                if argument is not None and argument.annotation is not None:
                    yield argument.annotation
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


@pytest.mark.parametrize("path", RUNTIME_SOURCES, ids=lambda path: path.name)
def test_a_runtime_module_parses_as_python_3_8_and_quotes_every_annotation_3_8_cannot_evaluate(path):
    """Python 3.8 evaluates annotations when it defines a function: `dict[str, Any]` or `str | None`
    would fail there, and `from __future__ import annotations` would import __future__ on every call."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=path.name, feature_version=(3, 8))
    unquoted = [ast.unparse(annotation) for annotation in evaluated_annotations(tree)
                if not isinstance(annotation, (ast.Constant, ast.Name, ast.Attribute))]
    assert unquoted == []


START_UP_CALLS = [  # (pack, script, payload): each reaches the code it is there for
    ("git-guard", "git-guard", payload(tool_input={"command": "git reset --hard"})),
    ("path-normalizer", "path-normalizer", payload(tool="mcp__docs__read", tool_input={"path": "a.txt"})),
    ("ask-guard", "question-preference", payload(tool="AskUserQuestion", tool_input={"questions": [
        {"question": "Tabs? <qid:indent>", "options": [{"label": "Tabs (recommended)"}, {"label": "Spaces"}]}]})),
    ("ask-guard", "question-log", payload(  # an unmarked question: logged under a hash of its text
        "PostToolUse", "AskUserQuestion", {"questions": [{"question": "Tabs?", "options": ["Tabs", "Spaces"]}]},
        tool_response={"answers": {"Tabs?": "Tabs"}}, tool_use_id="toolu_1")),
    ("ask-guard", "ask-error-fallback", payload(
        "PostToolUseFailure", "AskUserQuestion", {"questions": [{"question": "Tabs?", "options": ["Tabs"]}]},
        error="Tool result missing due to internal error")),
]


@pytest.mark.parametrize("pack, script, stdin", START_UP_CALLS, ids=[row[1] for row in START_UP_CALLS])
def test_a_hook_imports_neither_typing_nor_the_modules_it_has_c_halves_for(tmp_path, pack, script, stdin):
    """Its types are for the checker only (TYPE_CHECKING), and it loads _signal and _sha1, not
    signal and hashlib, which cost start-up time."""
    folder = lay_out_runtime(tmp_path / "project" / ".claude" / "hookwright" / pack, pack)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path / "home"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "HOOKWRIGHT_LOG": str(tmp_path / "log")}
    proc = subprocess.run([sys.executable, "-I", "-S", "-X", "importtime", str(folder / script), "--host", "claude"],
                          input=stdin, env=env, capture_output=True, timeout=30, cwd=tmp_path / "project")
    timings = proc.stderr.decode().splitlines()
    imported = {line.rsplit("|", 1)[-1].strip() for line in timings if line.startswith("import time:")}
    assert (proc.returncode, [line for line in timings if not line.startswith("import time:")]) == (0, [])
    assert script.replace("-", "_") in imported  # the hook's module: the run reached it
    assert imported & {"typing", "__future__", "collections.abc", "signal", "hashlib"} == set()
    assert not (tmp_path / "log").exists()


# --- the decision log: every deny, rewrite and pass-through on an error, one line each ---------------

def decisions(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []


def test_a_deny_is_one_line_of_the_decision_log_beside_the_error_log(log_path, monkeypatch):
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", "/work/proj")
    call_run(deny_all, payload(tool_input={"command": "git reset --hard", "description": "secret plans"}))
    [entry] = decisions(log_path.parent / "decisions.jsonl")
    assert {k: entry[k] for k in ("hook", "host", "event", "tool", "decision", "reason", "project", "session")} == {
        "hook": "test-hook", "host": "claude", "event": "PreToolUse", "tool": "Bash", "decision": "deny",
        "reason": "denied", "project": "/work/proj", "session": "s"}
    assert entry["pack"] == Path(__file__).parent.name  # the folder the script is in
    assert "secret plans" not in json.dumps(entry) and "reset" not in json.dumps(entry)  # no input it did not need


def test_a_rewrite_keeps_only_the_fields_it_changed(log_path):
    call_run(lambda call: hw.rewrite(dict(call.tool_input, path="/tmp/a.txt")),
             payload(tool="mcp__fs__read", tool_input={"path": "a.txt", "content": "a long file " * 100}))
    [entry] = decisions(log_path.parent / "decisions.jsonl")
    assert (entry["decision"], entry["changed"]) == ("rewrite", {"path": ["a.txt", "/tmp/a.txt"]})
    assert entry["project"] == "/tmp"  # the payload's cwd, without a variable naming the project


def test_a_pass_through_writes_no_decision_and_an_error_writes_one(log_path):
    call_run(lambda call: None, payload())
    call_run(lambda call: hw.add_context("note"), payload(event="PostToolUse"))
    assert decisions(log_path.parent / "decisions.jsonl") == []
    call_run(lambda call: 1 / 0, payload())
    [entry] = decisions(log_path.parent / "decisions.jsonl")
    assert (entry["decision"], entry["reason"], entry["blocked"]) == ("error", "ZeroDivisionError: division by zero",
                                                                     False)


def test_a_hook_installed_to_fail_closed_blocks_a_call_it_could_not_check(log_path, capsys):
    def broken(call):
        raise hw.PassThrough("Bash tool_input.command is not a string")

    assert call_run(broken, payload(), argv=["--host", "claude", "--fail-closed"]) == (2, "")
    assert "could not check this call (Bash tool_input.command is not a string)" in capsys.readouterr().err
    assert decisions(log_path.parent / "decisions.jsonl")[-1]["blocked"] is True
    assert call_run(deny_all, payload(), argv=["--host", "claude", "--fail-closed"])[0] == 0  # a decision is no failure
    assert call_run(broken, payload(), argv=["--host", "cursor", "--fail-closed"]) == (2, "")  # (no {} on stdout)
    assert len(log_lines(log_path)) == 2  # the two failures; the flag itself is no problem


def test_the_decision_log_is_bounded_by_moving_it_aside(log_path, monkeypatch):
    monkeypatch.setattr(hw, "MAX_DECISIONS", 2000)
    for _ in range(40):
        call_run(deny_all, payload())
    folder = log_path.parent
    kept = decisions(folder / "decisions.jsonl")
    older = decisions(folder / "decisions.jsonl.1")
    assert kept and older and len(kept) + len(older) < 40  # the oldest went
    assert (folder / "decisions.jsonl").stat().st_size <= 2000 + 1000
    assert sorted(p.name for p in folder.iterdir()) == ["decisions.jsonl", "decisions.jsonl.1"]


def test_a_value_the_decision_log_keeps_is_cut_at_its_bound():
    changed = hw.changed_fields({"a": "x" * 1000, "b": 1, "gone": [1]}, {"a": "y", "b": 1, "new": {"k": "v" * 999}})
    assert changed["a"] == ["x" * hw.MAX_DECISION_FIELD + "...", "y"]
    assert changed["gone"] == [[1], None] and changed["new"][1].endswith("...") and "b" not in changed


def test_the_decision_log_is_never_a_reason_to_fail(log_path, monkeypatch):
    monkeypatch.setenv("HOOKWRIGHT_LOG", "/dev/null/cannot/hooks.log")
    assert call_run(deny_all, payload())[0] == 0
