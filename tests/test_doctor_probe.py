"""`doctor --probe` (installer/doctor/scripts/probe.py): opt-in only; each foreign Claude Code command
handler runs once per event on a synthetic payload of that event, in a temporary project and
home, with a minimal environment and a short timeout; its answer is read by simulate's reader and
judged per event; a probe finding marks the static script findings it confirms."""
from __future__ import annotations

import json
import os
import textwrap
import time
from pathlib import Path

import pytest
from doctor_support import doctor, found
from hookwright import resources
from hookwright.doctor import discovery, load, report
from hookwright.doctor.model import Context
from hookwright.doctor.scripts import probe
from hookwright.hooks.events import BUILTIN_TOOLS
from hookwright.hosts.claude.protocol import protocol

S = ".claude/settings.json"


def _project(tmp_path: Path, hooks: dict[str, str], groups: list, event: str = "PreToolUse") -> Path:
    base = tmp_path / "p"
    for name, text in hooks.items():
        path = base / ".claude" / "hooks" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
        path.chmod(0o755)
    settings = {"hooks": {event: [{"matcher": m, "hooks": [{"type": "command", "command": c} for c in cs]}
                                  for m, *cs in groups]}}
    (base / ".claude").mkdir(parents=True, exist_ok=True)
    (base / S).write_text(json.dumps(settings, indent=2))
    return base


def _ctx(base: Path, probe_on: bool = True) -> Context:
    files = [load.read(c) for c in discovery.given_candidates([base / S], base)]
    return Context(files, [h for f in files for h in load.handlers(f)], probe=probe_on, tools=list(BUILTIN_TOOLS),
                   project=base)


SPY = """
    #!/bin/sh
    cat > /dev/null
    { echo "cwd=$(pwd)"; env; } >&2
    echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "x"}}}'
"""


@pytest.fixture
def no_sandbox(monkeypatch):
    """The probe as it runs where no sandbox can be made (doctor --probe-without-sandbox)."""
    from hookwright import sandbox

    monkeypatch.setattr(sandbox, "why_not", lambda: "a test without the sandbox")


def _alive(marker: str) -> list[int]:
    """The processes whose command line holds `marker`."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if marker.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
        except OSError:
            continue
    return found


def test_runs_in_a_temporary_world_with_a_minimal_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "do-not-leak")
    base = _project(tmp_path, {"spy.sh": SPY}, [("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/spy.sh')])
    ((handler, result),) = probe.results_for(_ctx(base))
    assert result.rewrites and result.tool == "Bash" and result.event == "PreToolUse"
    seen = dict(line.split("=", 1) for line in result.run.stderr.decode().splitlines() if "=" in line)
    names = set(seen) - {"cwd", "PWD", "SHLVL", "_", "OLDPWD"}
    assert names == {"PATH", "LANG", "HOME", "TMPDIR", "CLAUDE_PROJECT_DIR", "CLAUDECODE", "CLAUDE_CODE_SESSION_ID",
                     "CLAUDE_EFFORT", "CLAUDE_PID"}  # (the session's: claude_protocol.session_variables)
    assert seen["cwd"] == seen["CLAUDE_PROJECT_DIR"] != str(base)  # a copy of the project, not the real one
    assert seen["HOME"] != os.environ["HOME"] and "hookwright-probe-" in seen["HOME"]
    assert not Path(seen["CLAUDE_PROJECT_DIR"]).exists()  # cleaned up


@pytest.mark.parametrize("sandboxed", [True, False], ids=["in the sandbox", "without one"])
def test_a_hanging_hook_is_killed_with_its_children(tmp_path, request, sandboxed):
    if not sandboxed:
        request.getfixturevalue("no_sandbox")
    marker = f"60.{os.getpid()}{int(sandboxed)}7"  # (a sleep no other process runs)
    hang = f"""
        #!/bin/sh
        sleep {marker} &
        wait
    """
    base = _project(tmp_path, {"hang.sh": hang}, [("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hang.sh')])
    ctx = _ctx(base)
    started = time.monotonic()
    ((_, result),) = probe.results_for(ctx, timeout=1)
    assert result.run.timed_out and time.monotonic() - started < 10
    for _ in range(50):
        if not _alive(marker):
            break
        time.sleep(0.05)
    else:
        pytest.fail("the hook's child process outlived the probe")


def test_never_run_without_probe(tmp_path, no_sandbox):
    marker = tmp_path / "ran"
    base = _project(tmp_path, {}, [("Bash", f"touch {marker}")])
    assert probe.results_for(_ctx(base, probe_on=False)) == []
    doctor(base, {}, given=False)
    assert not marker.exists()
    doctor(base, {}, given=False, probe=True)
    assert marker.exists()


def test_only_foreign_command_handlers_run_each_command_once_per_event(tmp_path):
    ours = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude'
    base = _project(tmp_path, {}, [("Bash", "echo '{}'", ours), ("Edit", "echo '{}'"), ("NoSuchTool", "echo x")])
    ((handler, result),) = probe.results_for(_ctx(base))
    assert handler.command == "echo '{}'" and result.reading.read_as == "JSON" and result.run.exit_code == 0
    settings = {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo '{}'"}]}],
                          "Stop": [{"hooks": [{"type": "command", "command": "echo '{}'"},
                                              {"type": "command", "command": "echo late", "async": True}]}],
                          "NoSuchEvent": [{"hooks": [{"type": "command", "command": "echo x"}]}]}}
    (base / S).write_text(json.dumps(settings))
    assert [(h.event, r.tool) for h, r in probe.results_for(_ctx(base))] == [("PostToolUse", "Bash"), ("Stop", None)]


def test_the_tool_is_one_the_matcher_matches(tmp_path):
    base = _project(tmp_path, {}, [("Write|Edit", "cat"), ("mcp__.*", "cat -")])
    ctx = _ctx(base)
    assert [t for _, t in probe.candidates(ctx)] == ["Write"]  # no MCP server configured: not probed
    ctx.mcp_servers = ["docs"]
    assert [t for _, t in probe.candidates(ctx)] == ["Write", "mcp__docs__probe"]


def test_results_are_computed_once_per_run(tmp_path, no_sandbox):
    counter = tmp_path / "count"
    base = _project(tmp_path, {}, [("Bash", f"echo x >> {counter}")])
    ctx = _ctx(base)
    probe.results_for(ctx)
    probe.results_for(ctx)
    probe.by_handler(ctx)
    assert counter.read_text().count("x") == 1


def test_exec_form(tmp_path):
    base = _project(tmp_path, {"rw.py": """
        import json, sys
        json.load(sys.stdin)
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {}}}))
    """}, [])
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3", "args": ["${CLAUDE_PROJECT_DIR}/.claude/hooks/rw.py"]},
        {"type": "command", "command": "hookwright-no-such-program", "args": []}]}]}}
    (base / S).write_text(json.dumps(settings))
    results = [(r.rewrites, r.run.start_error) for _, r in probe.results_for(_ctx(base))]
    assert results == [(True, None), (False, "hookwright-no-such-program is not on PATH")]


# ---- the probe rules, and what the conflict check makes of a probe ---------------------------------

@pytest.mark.parametrize("rule, bad, good", [
    ("script/probe-invalid-output", "echo '{not json'", "echo '{}'"),
    ("script/probe-wrong-event",
     """echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}'""",
     """echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'"""),
    ("script/probe-timeout", "sleep 30", "true"),
])
def test_probe_rules(tmp_path, monkeypatch, rule, bad, good):
    monkeypatch.setattr(probe, "TIMEOUT", 1.0)
    out = doctor(tmp_path / "bad", {S: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": bad}]}]}}}, probe=True)
    (finding,) = found(out, rule)
    assert finding.path == str(tmp_path / "bad" / S) and finding.line == 9  # the command
    quiet = doctor(tmp_path / "good", {S: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": good}]}]}}}, probe=True)
    assert not [f for f in quiet.findings if f.rule.startswith("script/probe")]
    unprobed = doctor(tmp_path / "bad", {}, probe=False)
    assert not found(unprobed, rule)


def test_a_probed_rewrite_turns_the_warning_into_the_error(tmp_path):
    base = _project(tmp_path, {"rw.py": """
        import json, sys
        json.load(sys.stdin)
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {}}}))
    """}, [])
    # hidden.sh hands over with exec to a script named only when it runs: statically its output is unknown
    hidden = base / ".claude/hooks/hidden.sh"
    hidden.write_text('#!/bin/sh\nexec python3 "$(dirname "$0")/$(printf rw).py"\n')
    hidden.chmod(0o755)
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rw.py'}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hidden.sh'}]},
    ]}}
    (base / S).write_text(json.dumps(settings))
    plain = doctor(base, {}, given=False)
    assert [f.rule for f in plain.findings if "race" in f.rule] == ["conflict/input-rewrite-race-possible"]
    probed = doctor(base, {}, given=False, probe=True)
    (race,) = [f for f in probed.findings if "race" in f.rule]
    assert race.rule == "conflict/input-rewrite-race" and "`hidden.sh`" in race.message


def test_hooks_are_probed_side_by_side_as_claude_code_runs_them(tmp_path, no_sandbox):
    """Each hook waits for the other to have started: run one after the other, both time out.
    (They meet in a folder outside their own: no sandbox lets them.)"""
    meet = tmp_path / "meet"
    meet.mkdir()
    hook = """
        #!/bin/sh
        touch {meet}/{me}
        for i in $(seq 1 200); do [ -e {meet}/{other} ] && {{ echo '{{}}'; exit 0; }}; sleep 0.05; done
        exit 1
    """
    base = _project(tmp_path, {"a.sh": hook.format(meet=meet, me="a", other="b"),
                               "b.sh": hook.format(meet=meet, me="b", other="a")},
                    [("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh'),
                     ("Edit", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/b.sh')])
    assert [r.run.exit_code for _, r in probe.results_for(_ctx(base), timeout=20)] == [0, 0]


def test_a_hook_gets_its_own_timeout_when_shorter_and_the_message_says_which_limit_stopped_it(tmp_path, monkeypatch):
    monkeypatch.setattr(probe, "TIMEOUT", 3.0)
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "sleep 30", "timeout": 1},
        {"type": "command", "command": "sleep 31"}]}]}}
    out = doctor(tmp_path / "p", {S: hooks}, probe=True)
    own, default = found(out, "script/probe-timeout")
    assert "within 1 s" in own.message and "stopped at its own timeout" in own.message
    assert "within 3 s" in default.message and "its own timeout, 600 s, is longer" in default.message
    assert "waits up to 600 s" in default.hint


# ---- every event, read as Claude Code reads it ------------------------------------------------------

HOOK = 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/hook.sh'


def _answer(event: str, **fields) -> str:
    """A shell line printing a hookSpecificOutput answer for `event`."""
    return "echo '" + json.dumps({"hookSpecificOutput": {"hookEventName": event, **fields}}) + "'\n"


def _probe(tmp_path: Path, event: str, script: str) -> tuple:
    """doctor --probe on a project whose one `event` handler runs the shell script `script`
    (after reading its input): the outcome, and its probe findings."""
    base = tmp_path / "p"
    hook = base / ".claude" / "hooks" / "hook.sh"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\nINPUT=$(cat)\n" + textwrap.dedent(script).lstrip("\n"))
    group = {"matcher": "Bash"} if protocol(event).tool_event else {}
    group["hooks"] = [{"type": "command", "command": HOOK}]
    out = doctor(base, {S: {"hooks": {event: [group]}}}, probe=True)
    return out, [f for f in out.findings if f.rule.startswith("script/probe-")]


def _rules(tmp_path: Path, event: str, script: str) -> list[str]:
    return [f.rule for f in _probe(tmp_path, event, script)[1]]


@pytest.mark.parametrize("event, fields", [
    ("PreToolUse", {"tool_use_id"}),
    ("PermissionRequest", set()),
    ("PostToolUse", {"tool_use_id", "tool_response"}),
    ("PostToolUseFailure", {"tool_use_id", "error", "is_interrupt"}),
])
def test_a_tool_event_gets_a_call_of_a_tool_its_matcher_matches_with_the_events_own_fields(tmp_path, event, fields,
                                                                                            no_sandbox):
    sent = tmp_path / "payload.json"
    _probe(tmp_path, event, f'echo "$INPUT" > {sent}\n')
    payload = json.loads(sent.read_text())
    assert payload["hook_event_name"] == event and payload["tool_name"] == "Bash"
    assert set(payload["tool_input"]) == {"command", "description"}
    assert fields <= set(payload) and ("tool_use_id" in payload) == ("tool_use_id" in fields)


REWRITE = {"command": "ls"}  # the synthetic Bash call also has a description


@pytest.mark.parametrize("event, script, expected", [
    ("PreToolUse", _answer("PreToolUse", permissionDecision="deny"), []),
    ("PreToolUse", _answer("PreToolUse", permissionDecision="allow", updatedInput=REWRITE),
     ["script/probe-rewrite-drops-fields"]),
    ("PreToolUse", 'echo "$INPUT" | python3 -c \'import json, sys; i = json.load(sys.stdin)["tool_input"]; '
                   'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", '
                   '"updatedInput": dict(i, command="ls")}}))\'\n', []),
    ("PreToolUse", _answer("PreToolUse", permissionDecision="block"), ["script/probe-decision-ignored"]),
    ("PreToolUse", "echo 'refused' >&2\nexit 1\n", ["script/probe-exit-does-not-block"]),
    ("PreToolUse", "echo 'refused' >&2\nexit 2\n", []),
    ("PermissionRequest", _answer("PermissionRequest", decision={"behavior": "allow", "updatedInput": REWRITE}),
     ["script/probe-rewrite-drops-fields"]),
    ("PermissionRequest", _answer("PermissionRequest", decision={"behavior": "deny", "message": "no"}), []),
    ("PermissionRequest", "echo no >&2\nexit 2\n", ["script/probe-exit-does-not-block"]),
    ("PostToolUse", _answer("PostToolUse", permissionDecision="deny"), ["script/probe-decision-ignored"]),
    ("PostToolUse", """echo '{"decision": "block", "reason": "lint failed"}'\n""", []),
    ("PostToolUse", "echo 'blocked: rm is not allowed' >&2\nexit 2\n", ["script/probe-exit-does-not-block"]),
    ("PostToolUse", "echo 'lint: 3 warnings' >&2\nexit 2\n", []),
    ("PostToolUseFailure", _answer("PostToolUse", additionalContext="x"), ["script/probe-wrong-event"]),
    ("PostToolUseFailure", _answer("PostToolUseFailure", additionalContext="x"), []),
], ids=["a PreToolUse deny is fine", "a PreToolUse rewrite that keeps only command drops description",
        "a PreToolUse rewrite from the input keeps every field", "permissionDecision block is no PreToolUse value",
        "exit 1 with a reason fails the PreToolUse gate open", "exit 2 blocks PreToolUse",
        "a PermissionRequest allow rewrite that keeps only command drops description", "a PermissionRequest deny is fine",
        "exit 2 on PermissionRequest is ignored", "permissionDecision on PostToolUse is dropped",
        "decision block on PostToolUse is fine", "exit 2 on PostToolUse blocks nothing",
        "exit 2 on PostToolUse is feedback to Claude",
        "another event's hookEventName on PostToolUseFailure", "PostToolUseFailure context is fine"])
def test_tool_events(tmp_path, event, script, expected):
    assert _rules(tmp_path, event, script) == expected


def test_the_findings_name_the_event_and_what_the_rewrite_dropped(tmp_path):
    _, (drop,) = _probe(tmp_path / "a", "PermissionRequest", _answer(
        "PermissionRequest", decision={"behavior": "allow", "updatedInput": REWRITE}))
    assert "decision.updatedInput" in drop.message and "leaves out description" in drop.message
    _, (ignored,) = _probe(tmp_path / "b", "PostToolUse", _answer("PostToolUse", permissionDecision="deny"))
    assert "PostToolUse" in ignored.message and "dropped" in ignored.message and '"decision": "block"' in ignored.hint


@pytest.mark.parametrize("script, expected", [
    ("echo 'the branch is main'\n", []),
    (_answer("UserPromptSubmit", additionalContext="the branch is main"), []),
    ("""echo 'checking the prompt'\necho '{"decision": "block", "reason": "no secrets"}'\n""",
     ["script/probe-invalid-output"]),
    ("""echo '{"decision": "block", "reason": "no secrets"}'\n""", []),
    ("echo 'no secrets' >&2\nexit 1\n", ["script/probe-exit-does-not-block"]),
    ("echo 'no secrets' >&2\nexit 2\n", []),
], ids=["plain text is context", "additionalContext is fine", "text then JSON loses the block",
        "decision block is fine", "exit 1 with a reason lets the prompt through", "exit 2 blocks the prompt"])
def test_the_prompt_event(tmp_path, script, expected):
    assert _rules(tmp_path, "UserPromptSubmit", script) == expected


def test_json_after_a_debug_line_is_said_to_be_never_read(tmp_path):
    _, (finding,) = _probe(tmp_path, "UserPromptSubmit",
                           """echo 'checking the prompt'\necho '{"decision": "block", "reason": "no"}'\n""")
    assert "on UserPromptSubmit" in finding.message and "the JSON after it is never read" in finding.message
    assert "nothing before it" in finding.hint


@pytest.mark.parametrize("event", ["Stop", "SubagentStop"])
@pytest.mark.parametrize("script, expected", [
    ("""echo '{"decision": "block", "reason": "tests are failing"}'\n""", []),
    ("""echo '{"decision": "deny", "reason": "tests are failing"}'\n""", ["script/probe-decision-ignored"]),
    ("", []),
], ids=["decision block keeps Claude going", "decision deny is void", "nothing lets it stop"])
def test_the_stop_events(tmp_path, event, script, expected):
    out, probed = _probe(tmp_path, event, script)
    assert [f.rule for f in probed] == expected
    assert all(f'decision "deny" is not one {event} accepts' in f.message for f in probed)


@pytest.mark.parametrize("event, script, expected", [
    ("SessionStart", "echo 'the branch is main'\n", []),
    ("SessionStart", _answer("SessionStart", additionalContext="the branch is main"), []),
    ("SessionStart", """echo 'export PROBED=1' >> "$CLAUDE_ENV_FILE"\n""", []),
    ("SessionStart", _answer("SessionStart", permissionDecision="deny"), ["script/probe-decision-ignored"]),
    ("SessionEnd", "", []),
    ("SessionEnd", """echo '{"decision": "block", "reason": "not yet"}'\n""", ["script/probe-decision-ignored"]),
], ids=["SessionStart plain text is context", "SessionStart additionalContext is fine",
        "SessionStart hooks get CLAUDE_ENV_FILE", "permissionDecision on SessionStart is dropped",
        "SessionEnd printing nothing is fine", "SessionEnd has no decision to make"])
def test_the_session_events(tmp_path, event, script, expected):
    assert _rules(tmp_path, event, script) == expected


@pytest.mark.parametrize("event", ["Notification", "SubagentStart", "PermissionDenied"])
def test_exit_2_does_not_block_an_event_that_does_not_read_it(tmp_path, event):
    _, (finding,) = _probe(tmp_path / "bad", event, "echo 'not now' >&2\nexit 2\n")
    assert finding.rule == "script/probe-exit-does-not-block" and f"on {event}" in finding.message
    assert "non-blocking error" in finding.message
    assert _rules(tmp_path / "good", event, "echo 'noted' >&2\n") == []


# ---- what the probe confirms ----------------------------------------------------------------------

@pytest.mark.parametrize("event, script, static, probed", [
    ("PostToolUse", _answer("PostToolUse", permissionDecision="deny"), "script/decision-wrong-event",
     "script/probe-decision-ignored"),
    ("PermissionRequest", "echo no >&2\nexit 2\n", "script/exit-2-ignored", "script/probe-exit-does-not-block"),
])
def test_a_static_finding_the_probe_saw_happen_is_marked_confirmed(tmp_path, event, script, static, probed):
    out, _ = _probe(tmp_path, event, script)
    (seen,) = found(out, static)
    assert seen.confirmed_by_probe and seen.to_json()["confirmed_by_probe"] is True
    (probe_finding,) = found(out, probed)
    assert f"(this confirms {static} at hook.sh:{seen.line})" in probe_finding.message
    assert not probe_finding.confirmed_by_probe
    lines = ["".join(text for text, _ in line) for line in report.text(report.document(out), tmp_path)]
    (tagged,) = [line for line in lines if "[confirmed by --probe]" in line]
    assert f"{static}  [confirmed by --probe]" in tagged
    unprobed = doctor(tmp_path / "p", {}, probe=False)
    assert [f.confirmed_by_probe for f in found(unprobed, static)] == [False]


def test_the_doctor_document_with_a_confirmed_finding_matches_its_schema(tmp_path):
    import jsonschema

    out, _ = _probe(tmp_path, "PermissionRequest", "echo no >&2\nexit 2\n")
    schema = json.loads((resources.data_root() / "schemas" / "doctor.schema.json").read_text())
    doc = report.document(out)
    jsonschema.validate(doc, schema)
    assert any(f["confirmed_by_probe"] for f in doc["findings"])


@pytest.mark.parametrize("event, script, words, not_said", [
    ("PreToolUse", """echo '{"continue": false, "stopReason": "no"}'\n""",
     "continue: false does not refuse anything on PreToolUse, so the action goes ahead, then Claude stops", ""),
    ("TaskCreated", """echo '{"continue": false, "stopReason": "no"}'\n""",
     "continue: false does not refuse anything on TaskCreated, so the action goes ahead", "then Claude stops"),
    ("PreToolUse", _answer("PreToolUse", permissionDecision="allow", updatedInput='{"command": "ls"}'),
     "the hook printed JSON that breaks the event's schema: ", ""),
], ids=["continue false lets the tool run, then stops", "continue false is ignored on TaskCreated",
        "an updatedInput string voids the answer"])
def test_each_case_of_a_probe_rule_is_worded_its_own_way(tmp_path, event, script, words, not_said):
    _, probed = _probe(tmp_path, event, script)
    (finding,) = [f for f in probed if words in f.message]
    assert not not_said or not_said not in finding.message


def test_the_probe_runs_at_most_its_cap_of_hooks_and_says_how_many_it_left_out(tmp_path, no_sandbox, monkeypatch):
    monkeypatch.setattr(probe, "MAX_PROBED", 3)
    base = _project(tmp_path, {}, [("Bash", *(f"echo '{{}}' # {i}" for i in range(5)))])
    ctx = _ctx(base)

    assert len(probe.results_for(ctx)) == 3
    assert "2 more were not run" in probe.left_out(ctx)
    assert probe.left_out(_ctx(base, probe_on=False)) is None
