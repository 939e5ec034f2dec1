"""`hookwright simulate`: which hooks fire, how their answers are read, and the outcome.

The reading rules are tested on their own (installer/hooks/answers.py takes what a handler
printed, no process); the command is run in-process on small settings files whose hooks are
one-line shell commands. tests/e2e/test_simulate_conformance.py checks the same outcomes
against the real Claude Code.
"""
from __future__ import annotations

import json
import shlex

import pytest
from hookwright import resources
from hookwright.hooks.answers import RawRun, combine, read
from support import write_json

BASH = "PreToolUse"


def answer(**specific) -> bytes:
    return json.dumps({"hookSpecificOutput": {"hookEventName": BASH, **specific}}).encode()


def ran(stdout: bytes = b"", exit_code: int = 0, stderr: bytes = b"", **extra) -> RawRun:
    return RawRun(exit_code, stdout, stderr, **extra)


# ---- one answer --------------------------------------------------------------------------------

def test_exit_2_blocks_whatever_stdout_says():
    reading = read(BASH, "guard", ran(answer(permissionDecision="allow"), 2, b"no resets"))
    assert reading.decision == "deny"
    assert reading.reason == "[guard]: no resets"
    assert any("not read" in w for w in reading.warnings)


def test_exit_2_with_a_deny_json_blocks_with_the_json_reason():
    reading = read(BASH, "guard", ran(answer(permissionDecision="deny", permissionDecisionReason="JSON says"), 2,
                                      b"stderr says"))
    assert (reading.decision, reading.reason) == ("deny", "JSON says")


def test_exit_1_with_valid_json_is_read_like_exit_0():
    reading = read(BASH, "x", ran(answer(permissionDecision="deny", permissionDecisionReason="R"), 1))
    assert (reading.decision, reading.reason) == ("deny", "R")
    assert "the JSON decides" in reading.read_as


def test_exit_1_without_json_is_a_non_blocking_error():
    reading = read(BASH, "x", ran(b"", 1, b"boom\nmore"))
    assert reading.decision is None and not reading.counts
    assert "non-blocking" in reading.read_as and "boom" in reading.read_as


def test_leading_whitespace_before_the_json_is_fine():
    assert read(BASH, "x", ran(b"\n\n  " + answer(permissionDecision="deny"))).decision == "deny"


def test_text_before_the_json_makes_it_plain_text():
    reading = read(BASH, "x", ran(b"debug\n" + answer(permissionDecision="deny")))
    assert reading.decision is None
    assert "plain text" in reading.read_as
    assert any("not {" in w for w in reading.warnings)


@pytest.mark.parametrize("stdout", [b"", b"{}", b"{not json", b"just text", b"[1]"])
def test_empty_invalid_or_plain_output_has_no_say(stdout):
    reading = read(BASH, "x", ran(stdout))
    assert not reading.counts


def test_a_deny_without_a_reason_reads_blocked_by_hook():
    assert read(BASH, "x", ran(answer(permissionDecision="deny"))).reason == "Blocked by hook"


@pytest.mark.parametrize("specific, why", [
    ({"hookEventName": "PostToolUse", "permissionDecision": "deny"}, "hookEventName"),
    ({"permissionDecision": "deny"}, "no hookEventName"),
    ({"hookEventName": BASH, "permissionDecision": "block"}, "permissionDecision"),
    ({"hookEventName": BASH, "permissionDecision": "allow", "updatedInput": "echo S"}, "updatedInput is a string"),
])
def test_an_answer_that_breaks_the_schema_counts_for_nothing(specific, why):
    reading = read(BASH, "x", ran(json.dumps({"hookSpecificOutput": specific}).encode()))
    assert reading.decision is None and reading.updated_input is None
    assert why in reading.read_as
    assert any("no usable answer" in w for w in reading.warnings)


def test_field_names_the_host_does_not_read_are_reported_as_ignored():
    stdout = json.dumps({"updatedInput": {"command": "x"}, "shouldProceed": False, "hookSpecificOutput": {
        "hookEventName": BASH, "permissionDecision": "allow", "modifiedToolInput": {"command": "y"}}}).encode()
    reading = read(BASH, "x", ran(stdout))
    assert reading.decision == "allow" and reading.updated_input is None
    assert reading.ignored_fields == ["updatedInput", "shouldProceed", "hookSpecificOutput.modifiedToolInput"]
    assert len([w for w in reading.warnings if "ignored" in w]) == 3


@pytest.mark.parametrize("legacy, decision", [("block", "deny"), ("approve", "allow")])
def test_the_legacy_decision_forms_map_to_deny_and_allow(legacy, decision):
    reading = read(BASH, "x", ran(json.dumps({"decision": legacy, "reason": "old"}).encode(), 3))
    assert (reading.decision, reading.reason) == (decision, "old")


def test_continue_false_stops_the_session_without_blocking_the_tool():
    stdout = json.dumps({"continue": False, "stopReason": "enough"}).encode()
    reading = read(BASH, "x", ran(stdout))
    assert reading.stops_session and reading.stop_reason == "enough" and reading.decision is None


def test_a_timed_out_hook_never_counts():
    reading = read(BASH, "x", RawRun(None, answer(permissionDecision="deny"), timed_out=True, duration=2.0))
    assert not reading.counts and "timed out" in reading.read_as


def test_defer_ignores_the_rewrite_and_the_context():
    reading = read(BASH, "x", ran(answer(permissionDecision="defer", updatedInput={"a": 1}, additionalContext="c")))
    assert reading.decision == "defer" and reading.updated_input is None and reading.context == []


def test_plain_stdout_is_context_on_user_prompt_submit_and_nowhere_on_stop():
    assert read("UserPromptSubmit", "x", ran(b"remember this\n")).context == ["remember this"]
    assert read("Stop", "x", ran(b"remember this\n")).context == []


def test_exit_2_on_post_tool_use_gives_feedback_and_blocks_nothing():
    reading = read("PostToolUse", "x", ran(b"", 2, b"lint failed"))  # (measured: "hook blocking error from command")
    assert reading.decision == "block" and reading.reason == "[x]: lint failed" and reading.context == []
    outcome = combine("PostToolUse", {"command": "make"}, [reading], [0.0])
    assert not outcome.blocked and "the reason goes to Claude" in outcome.effect


@pytest.mark.parametrize("event", ["PermissionRequest", "PostToolUseFailure", "SessionStart"])
def test_continue_false_stops_nothing_where_the_real_cli_went_on(event):
    """Measured on 2.1.328 in -p: the session went on to the model's answer on these events."""
    reading = read(event, "x", ran(b'{"continue": false, "stopReason": "enough"}'))
    assert not reading.stops_session and any("stops nothing" in w for w in reading.warnings)
    assert read("PostToolUse", "x", ran(b'{"continue": false}')).stops_session


def test_a_permission_request_deny_with_interrupt_ends_the_run():
    answer = {"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                                     "decision": {"behavior": "deny", "message": "no", "interrupt": True}}}
    outcome = combine("PermissionRequest", {"command": "x"}, [read("PermissionRequest", "x", ran(json.dumps(answer).encode()))],
                      [0.0])
    assert outcome.stops_session and "ends the run" in outcome.effect
    answer["hookSpecificOutput"]["decision"].pop("interrupt")
    assert not read("PermissionRequest", "x", ran(json.dumps(answer).encode())).stops_session


def test_post_tool_use_output_the_hook_gives_is_what_claude_gets_from_the_last_to_finish():
    def hook(output):
        return read("PostToolUse", "x", ran(json.dumps({"hookSpecificOutput": {
            "hookEventName": "PostToolUse", "updatedToolOutput": output}}).encode()))

    first, second = {"stdout": "ONE", "stderr": ""}, {"stdout": "TWO", "stderr": ""}
    outcome = combine("PostToolUse", {"command": "ls"}, [hook(first), hook(second)], [2.0, 1.0])
    assert outcome.tool_output == first and "in place of the tool's result" in outcome.effect
    assert hook("a string").updated_output is None  # (measured: a string for Bash was ignored)


# ---- several answers -----------------------------------------------------------------------------

ORIGINAL = {"command": "echo ORIG", "description": "d"}


def combined(*stdouts: bytes, finished=None):
    readings = [read(BASH, f"h{i}", ran(s)) for i, s in enumerate(stdouts)]
    return combine(BASH, ORIGINAL, readings, finished or list(range(len(readings))))


@pytest.mark.parametrize("first, second, wins", [
    ("allow", "deny", "deny"), ("deny", "defer", "deny"), ("defer", "ask", "defer"), ("ask", "allow", "ask"),
    ("allow", "allow", "allow"), ("defer", "allow", "defer"),
])
def test_decisions_combine_most_restrictive_first(first, second, wins):
    for order in ((first, second), (second, first)):
        outcome = combined(*(answer(permissionDecision=d) for d in order))
        assert outcome.decision == wins
        assert outcome.blocked == (wins in ("deny", "defer"))


def test_no_answer_at_all_is_decision_none_and_the_original_input_runs():
    outcome = combined(b"", b"{}")
    assert (outcome.decision, outcome.tool_input, outcome.candidates) == ("none", ORIGINAL, [ORIGINAL])


def test_a_rewrite_replaces_the_whole_input():
    outcome = combined(answer(permissionDecision="allow", updatedInput={"command": "echo changed"}))
    assert outcome.tool_input == {"command": "echo changed"}
    assert not outcome.nondeterministic


def test_two_different_rewrites_are_nondeterministic_and_the_last_to_finish_wins():
    a, b = {"command": "echo A"}, {"command": "echo B"}
    outcome = combined(answer(updatedInput=a), answer(updatedInput=b), finished=[5.0, 1.0])
    assert outcome.nondeterministic and outcome.candidates == [a, b]
    assert outcome.tool_input == a  # it finished last in this run


def test_two_identical_rewrites_are_one_candidate():
    same = {"command": "echo same"}
    outcome = combined(answer(updatedInput=same), answer(updatedInput=same))
    assert not outcome.nondeterministic and outcome.candidates == [same]


def test_a_deny_beside_a_rewrite_runs_nothing():
    outcome = combined(answer(permissionDecision="deny"), answer(permissionDecision="allow", updatedInput={"x": 1}))
    assert outcome.blocked and outcome.tool_input is None


def test_every_context_is_kept():
    outcome = combined(answer(additionalContext="one"), answer(additionalContext="two"))
    assert outcome.context == ["one", "two"]


# ---- the command -------------------------------------------------------------------------------

def hook(command: str, **extra) -> dict:
    return {"type": "command", "command": command, **extra}


def prints(data: dict) -> str:
    return f"printf '%s' {shlex.quote(json.dumps(data))}"


def settings(path, *groups, event=BASH, **top):
    write_json(path, {"hooks": {event: list(groups)}, **top})


def simulate(hookwright, project, *args):
    done = hookwright("simulate", *args, "--project", project, "--json")
    assert done.code == 0, done.out + done.err
    return done.json


def test_a_guard_that_exits_2_blocks_the_command(hookwright, home, project, project_settings):
    settings(project_settings, {"matcher": "Bash", "hooks": [hook("echo 'no resets' >&2; exit 2")]})
    doc = simulate(hookwright, project, "--command", "git reset --hard")
    assert (doc["decision"], doc["blocked"], doc["tool_input"]) == ("deny", True, None)
    assert "no resets" in doc["reason"]
    [row] = doc["handlers"]
    assert row["exit_code"] == 2 and row["source"]["line"] == 7 and row["source"]["scope"] == "project"


def test_the_payload_is_what_claude_code_sends(hookwright, home, project, project_settings):
    settings(project_settings, {"hooks": [hook('cat > "$CLAUDE_PROJECT_DIR/payload.json"; pwd > cwd.txt')]})
    doc = simulate(hookwright, project, "--tool", "Read", "--input", '{"file_path": "/x"}')
    sent = json.loads((project / "payload.json").read_text())
    assert {"session_id", "transcript_path", "cwd", "hook_event_name", "permission_mode", "tool_name",
            "tool_input", "tool_use_id"} <= set(sent)
    assert (sent["tool_name"], sent["tool_input"], sent["cwd"]) == ("Read", {"file_path": "/x"}, str(project))
    assert (project / "cwd.txt").read_text().strip() == str(project)
    assert doc["payload"]["tool_use_id"] == sent["tool_use_id"]



def test_a_relative_file_path_reaches_the_hooks_and_the_tool_made_absolute(hookwright, home, project, project_settings):
    """Measured on 2.1.328: Read {"file_path": "r.txt"} reached the hook as <project>/r.txt, and a
    rewrite to "other.txt" ran the tool on <project>/other.txt; Edit gets replace_all: false."""
    rewrite = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"file_path": "o.txt"}}})
    settings(project_settings, {"matcher": "Read", "hooks": [hook('cat > "$CLAUDE_PROJECT_DIR/payload.json"; echo '
                                                                  + shlex.quote(rewrite))]},
             {"matcher": "Edit", "hooks": [hook('cat > "$CLAUDE_PROJECT_DIR/edit.json"')]})
    doc = simulate(hookwright, project, "--tool", "Read", "--input", '{"file_path": "r.txt"}')
    assert json.loads((project / "payload.json").read_text())["tool_input"] == {"file_path": str(project / "r.txt")}
    assert doc["tool_input"] == {"file_path": str(project / "o.txt")}
    simulate(hookwright, project, "--tool", "Edit", "--input", '{"file_path": "/e", "old_string": "a", "new_string": "b"}')
    assert json.loads((project / "edit.json").read_text())["tool_input"]["replace_all"] is False


@pytest.mark.parametrize("event, has_mode, has_prompt_id", [
    ("PreToolUse", True, True), ("SessionStart", False, False), ("PreCompact", False, True), ("Notification", True, False)])
def test_the_payload_has_the_fields_the_real_cli_sends_on_each_event(hookwright, home, project, project_settings,
                                                                    event, has_mode, has_prompt_id):
    from hookwright.hooks.payload import payload_for

    sent = payload_for(event, project, project / "t.jsonl", tool="Bash" if event == "PreToolUse" else None,
                       tool_input={"command": "ls"} if event == "PreToolUse" else None)
    assert ("permission_mode" in sent, "prompt_id" in sent) == (has_mode, has_prompt_id)
    assert ("effort" in sent) == (event == "PreToolUse")

def test_matchers_are_read_as_the_host_reads_them(hookwright, home, project, project_settings):
    matchers = ["Bash", "bash", "Ba.*", "Bas", "*", "", "Read|Bash", "^B"]
    settings(project_settings, *({"matcher": m, "hooks": [hook(f"true {i}")]} for i, m in enumerate(matchers)))
    doc = simulate(hookwright, project, "--command", "ls")
    fires = {row["matcher"]: row["fires"] for row in doc["handlers"]}
    assert fires == {"Bash": True, "bash": False, "Ba.*": True, "Bas": False, "*": True, "": True,
                     "Read|Bash": True, "^B": True}


def test_the_same_command_in_three_scopes_runs_once(hookwright, home, project, project_settings):
    counter = project / "count.txt"
    command = f"echo x >> {shlex.quote(str(counter))}"
    for path in (home / ".claude" / "settings.json", project_settings, project / ".claude" / "settings.local.json"):
        settings(path, {"matcher": "Bash", "hooks": [hook(command)]})
    doc = simulate(hookwright, project, "--command", "ls")
    # the copy that runs is the local one, of highest precedence (measured: its timeout counted)
    assert [(row["source"]["scope"], row["fires"]) for row in doc["handlers"]] == [
        ("user", False), ("project", False), ("local", True)]
    assert all("runs once" in row["why"] for row in doc["handlers"][:2])
    assert counter.read_text() == "x\n"


def test_copies_with_different_if_rules_each_run(hookwright, home, project, project_settings):
    """Measured on 2.1.328: the same command with `if` Bash(echo *) and Bash(echo ORIG) ran twice."""
    counter = project / "count.txt"
    command = f"echo x >> {shlex.quote(str(counter))}"
    settings(home / ".claude" / "settings.json", {"matcher": "Bash", "hooks": [hook(command, **{"if": "Bash(echo ORIG)"})]})
    settings(project_settings, {"matcher": "Bash", "hooks": [hook(command, **{"if": "Bash(echo *)"})]})
    doc = simulate(hookwright, project, "--command", "echo ORIG")
    assert [row["fires"] for row in doc["handlers"]] == [True, True] and counter.read_text() == "x\nx\n"


def test_local_settings_are_read_at_the_git_root_and_the_launch_folder(hookwright, home, project):
    (project / ".git").mkdir()
    sub = project / "sub"
    settings(project / ".claude" / "settings.local.json", {"hooks": [hook("true root-local")]})
    settings(project / ".claude" / "settings.json", {"hooks": [hook("true root-project")]})
    settings(sub / ".claude" / "settings.local.json", {"hooks": [hook("true sub-local")]})
    doc = simulate(hookwright, sub, "--command", "ls")
    assert sorted(row["command"] for row in doc["handlers"]) == ["true root-local", "true sub-local"]


def test_two_rewriters_are_reported_as_nondeterministic(hookwright, home, project, project_settings):
    def rewrite(text):
        return prints({"hookSpecificOutput": {"hookEventName": BASH, "updatedInput": {"command": text}}})
    settings(project_settings, {"hooks": [hook(rewrite("echo A")), hook("sleep 0.3; " + rewrite("echo B"))]})
    doc = simulate(hookwright, project, "--command", "ls")
    assert doc["nondeterministic"] and doc["candidates"] == [{"command": "echo A"}, {"command": "echo B"}]
    assert doc["tool_input"] == {"command": "echo B"}  # it slept: it finished last
    assert len(doc["rewritten_by"]) == 2
    text = hookwright("simulate", "--command", "ls", "--project", project)
    assert "nondeterministic: the last hook to finish wins" in text.out


def test_hooks_run_in_parallel(hookwright, home, project, project_settings):
    settings(project_settings, {"hooks": [hook(f"date +%s.%N >> starts.txt; sleep 0.6 # {i}") for i in range(3)]})
    doc = simulate(hookwright, project, "--command", "ls")
    assert all(row["duration_ms"] >= 550 for row in doc["handlers"])
    starts = [float(line) for line in (project / "starts.txt").read_text().split()]
    assert len(starts) == 3 and max(starts) - min(starts) < 0.5  # one after another: 0.6 s apart at least


def test_a_handler_past_its_timeout_is_killed_and_fails_open(hookwright, home, project, project_settings):
    settings(project_settings, {"hooks": [hook("sleep 5; echo '{\"decision\": \"block\"}'", timeout=1)]})
    doc = simulate(hookwright, project, "--command", "ls")
    [row] = doc["handlers"]
    assert row["timed_out"] and row["duration_ms"] < 3000
    assert (doc["decision"], doc["blocked"]) == ("none", False)


def test_types_it_does_not_run_are_listed_with_the_reason(hookwright, home, project, project_settings):
    settings(project_settings, {"hooks": [{"type": "http", "url": "http://127.0.0.1:9/"},
                                          {"type": "prompt", "prompt": "is this safe?"}]})
    doc = simulate(hookwright, project, "--command", "ls")
    assert [(row["fires"], row["simulated"]) for row in doc["handlers"]] == [(True, False), (True, False)]
    assert "HTTP" in doc["handlers"][0]["why"] and "model" in doc["handlers"][1]["why"]


def test_an_if_condition_narrows_the_handler(hookwright, home, project, project_settings):
    settings(project_settings, {"hooks": [hook("true git", **{"if": "Bash(git *)"}), hook("true npm", **{"if": "Bash(npm *)"})]})
    doc = simulate(hookwright, project, "--command", "git push")
    assert [row["fires"] for row in doc["handlers"]] == [True, False]


def test_disable_all_hooks_runs_nothing(hookwright, home, project, project_settings):
    settings(project_settings, {"hooks": [hook("exit 2")]}, disableAllHooks=True)
    doc = simulate(hookwright, project, "--command", "ls")
    assert not doc["handlers"][0]["fires"] and doc["decision"] == "none"


def test_list_only_runs_nothing(hookwright, home, project, project_settings):
    marker = project / "ran.txt"
    settings(project_settings, {"hooks": [hook(f"touch {shlex.quote(str(marker))}")]})
    doc = simulate(hookwright, project, "--command", "ls", "--list-only")
    assert not doc["ran"] and doc["handlers"][0]["fires"] and not marker.exists()
    assert doc["decision"] is None


def test_an_event_without_a_tool_takes_its_fields_from_a_payload_file(hookwright, home, project, project_settings,
                                                                      tmp_path):
    settings(project_settings, {"hooks": [hook('jq -r .prompt 2>/dev/null || python3 -c "import json,sys; '
                                                "print(json.load(sys.stdin)['prompt'])\"")]},
             event="UserPromptSubmit")
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({"prompt": "add tests"}))
    doc = simulate(hookwright, project, "UserPromptSubmit", "--payload", payload)
    assert doc["context"] == ["add tests"]
    assert doc["tool_input"] is None and doc["decision"] == "none"


def test_every_document_matches_its_schema(hookwright, home, project, project_settings):
    import jsonschema

    schema = json.loads((resources.data_root() / "schemas" / "simulate.schema.json").read_text())
    settings(project_settings, {"hooks": [hook(prints({"hookSpecificOutput": {"hookEventName": BASH,
                                                                              "permissionDecision": "ask"}})),
                                          {"type": "http", "url": "http://127.0.0.1:9/"}]})
    for extra in ((), ("--list-only",)):
        doc = simulate(hookwright, project, "--command", "ls", *extra)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in
                  jsonschema.Draft202012Validator(schema).iter_errors(doc)]
        assert errors == []
    assert not jsonschema.Draft202012Validator(schema).is_valid(dict(doc, decision="maybe"))


@pytest.mark.parametrize("args, message", [
    (("--tool", "Bash", "--input", '{"command": '), "--input:1:13"),
    (("--tool", "Bash", "--input", "[1]"), "must be a JSON object"),
    (("--command", "ls", "--input", "{}"), "both give the tool input"),
    (("PreToolUse",), "name the tool"),
    (("Stop", "--command", "ls"), "not about a tool call"),
    (("pretooluse", "--command", "ls"), "did you mean PreToolUse"),
    (("--host", "claude", "tool.execute.before", "--command", "ls"), "tool.execute.before is opencode's event"),
])
def test_bad_input_is_exit_2_with_a_clear_message(hookwright, home, project, args, message):
    done = hookwright("simulate", *args, "--project", project)
    assert done.code == 2
    assert message in done.err


def test_exit_0_whatever_the_hooks_decided_and_a_handler_that_cannot_start_is_its_own_line(
        hookwright, home, project, project_settings):
    settings(project_settings, {"hooks": [hook("exit 2"), hook("nonexistent-tool", args=["x"])]})
    done = hookwright("simulate", "--command", "ls", "--project", project)
    assert done.code == 0
    assert "nonexistent-tool is not on PATH" in json.dumps(simulate(hookwright, project, "--command", "ls"))


def test_an_async_hook_runs_but_its_answer_is_never_read():
    reading = read(BASH, "x", ran(answer(permissionDecision="deny")), background=True)
    assert not reading.counts and "async" in reading.read_as


def test_a_post_tool_use_block_is_feedback_the_tool_has_already_run():
    readings = [read("PostToolUse", "x", ran(json.dumps({"decision": "block", "reason": "fix lint"}).encode()))]
    outcome = combine("PostToolUse", ORIGINAL, readings, [0.0])
    assert (outcome.decision, outcome.blocked, outcome.tool_input, outcome.reason) == (
        "block", False, ORIGINAL, "fix lint")


def test_a_permission_request_answer_is_its_decision_behaviour():
    stdout = json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {
        "behavior": "allow", "updatedInput": {"command": "touch y"}}}}).encode()
    reading = read("PermissionRequest", "x", ran(stdout))
    assert (reading.decision, reading.updated_input) == ("allow", {"command": "touch y"})
    assert read("PermissionRequest", "x", ran(b"", 2, b"no")).decision is None  # exit 2 is not honoured there


def test_a_session_start_hook_matches_its_source_and_gets_an_env_file(hookwright, home, project, project_settings):
    settings(project_settings, {"matcher": "startup", "hooks": [hook('echo "$CLAUDE_ENV_FILE"; echo started')]},
             {"matcher": "resume", "hooks": [hook("echo resumed")]}, event="SessionStart")
    doc = simulate(hookwright, project, "SessionStart")
    assert doc["payload"]["source"] == "startup"
    assert [row["fires"] for row in doc["handlers"]] == [True, False]
    [context] = doc["context"]
    assert context.endswith("env.sh\nstarted")


def test_allow_managed_hooks_only_keeps_every_other_scope_from_running(hookwright, home, project, project_settings,
                                                                      monkeypatch, tmp_path):
    managed = tmp_path / "managed" / "managed-settings.json"
    write_json(managed, {"allowManagedHooksOnly": True, "hooks": {BASH: [{"hooks": [hook("true managed")]}]}})
    from hookwright.hosts.claude import adapter as claude

    monkeypatch.setattr(claude, "managed_paths", lambda: [managed])
    settings(project_settings, {"hooks": [hook("exit 2")]})
    doc = simulate(hookwright, project, "--command", "ls")
    fires = {row["command"]: (row["fires"], row["why"]) for row in doc["handlers"]}
    assert fires["true managed"] == (True, None)
    assert not fires["exit 2"][0] and "allowManagedHooksOnly" in fires["exit 2"][1]
    assert doc["decision"] == "none"


def test_the_exec_form_is_spawned_without_a_shell_with_its_placeholders_filled():
    from hookwright.hooks.running import command_line

    argv, why = command_line({"command": "python3", "args": ["${CLAUDE_PROJECT_DIR}/h.py", "$HOME"]},
                             {"PATH": "/usr/bin:/bin", "CLAUDE_PROJECT_DIR": "/p"})
    assert why is None and argv[0].endswith("/python3") and argv[1:] == ["/p/h.py", "$HOME"]
    argv, _ = command_line({"command": "echo hi"}, {"PATH": "/usr/bin:/bin"})
    assert argv[1:] == ["-c", "echo hi"] and argv[0].endswith(("bash", "sh"))
    assert command_line({"command": "nope-xyz", "args": []}, {"PATH": "/usr/bin"}) == (None, "nope-xyz is not on PATH")


# ---- what the host does beyond the hooks' answers ------------------------------------------------

ALLOW = prints({"hookSpecificOutput": {"hookEventName": BASH, "permissionDecision": "allow"}})


def test_a_deny_rule_of_the_settings_refuses_the_call_a_hook_allowed(hookwright, home, project, project_settings):
    """A PreToolUse allow does not override a deny rule (2.1.77), and an ask rule still prompts
    after it (about 2.1.220): docs/hosts/claude-code.md#permission-rules."""
    settings(project_settings, {"matcher": "Bash", "hooks": [hook(ALLOW)]},
             permissions={"deny": ["Bash(rm *)"], "ask": ["Bash(git push *)"]})
    doc = simulate(hookwright, project, "--command", "rm -rf build")
    assert (doc["decision"], doc["blocked"], doc["tool_input"]) == ("allow", True, None)
    assert doc["permission_rule"] == {"kind": "deny", "rule": "Bash(rm *)", "path": str(project_settings)}
    assert "deny rule Bash(rm *)" in doc["effect"]
    asked = simulate(hookwright, project, "--command", "git push origin main")
    assert (asked["blocked"], asked["permission_rule"]["kind"]) == (False, "ask")
    assert asked["effect"].startswith("the user is asked")
    free = simulate(hookwright, project, "--command", "ls")
    assert (free["blocked"], free["permission_rule"], free["effect"]) == (False, None, "it runs")


def test_a_permission_request_nobody_answers_shows_the_prompt(hookwright, home, project, project_settings):
    settings(project_settings, {"matcher": "Bash", "hooks": [hook("echo no >&2; exit 2")]}, event="PermissionRequest")
    doc = simulate(hookwright, project, "PermissionRequest", "--command", "rm -rf build")
    assert (doc["decision"], doc["blocked"]) == ("none", False)
    assert "the permission prompt appears" in doc["effect"]


def test_continue_false_on_stop_beats_a_block(hookwright, home, project, project_settings):
    """`continue: false` stops Claude and beats any event-specific decision (hooks.md §6.1)."""
    settings(project_settings, {"hooks": [hook(prints({"continue": False, "stopReason": "halt", "decision": "block",
                                                       "reason": "keep going"}))]}, event="Stop")
    doc = simulate(hookwright, project, "Stop")
    assert doc["stops_session"] and doc["stop_reason"] == "halt"
    assert doc["effect"].startswith("Claude stops")


def test_a_change_of_the_managed_policy_settings_cannot_be_blocked(hookwright, home, project, project_settings,
                                                                   tmp_path):
    settings(project_settings, {"hooks": [hook("echo no >&2; exit 2")]}, event="ConfigChange")
    for source, blocked in (("policy_settings", False), ("user_settings", True)):
        payload = tmp_path / f"{source}.json"
        payload.write_text(json.dumps({"source": source}))
        doc = simulate(hookwright, project, "ConfigChange", "--payload", payload)
        assert (doc["decision"], doc["blocked"]) == ("block", blocked), source
        assert (doc["cannot_block"] is None) == blocked


def test_session_end_hooks_share_one_short_budget(hookwright, home, project, project_settings):
    """1.5 s, raised to the largest timeout a settings file gives one (docs/hosts/claude-code.md#timeouts)."""
    settings(project_settings, {"hooks": [hook("sleep 3; echo bye")]}, event="SessionEnd")
    [row] = simulate(hookwright, project, "SessionEnd")["handlers"]
    assert row["timed_out"] and row["duration_ms"] < 2500
    settings(project_settings, {"hooks": [hook("sleep 3; echo bye"), hook("true", timeout=5)]}, event="SessionEnd")
    first, _ = simulate(hookwright, project, "SessionEnd")["handlers"]
    assert not first["timed_out"] and first["exit_code"] == 0


def test_a_hook_that_never_reads_its_input_does_not_end_simulate(home, project, project_settings, tmp_path):
    """A hook that exits before reading a 200 KB payload closes the pipe under it: a broken pipe
    simulate ignores, as Claude Code does (the CLI keeps SIGPIPE's default for its own output, so
    this runs in a process of its own)."""
    import os
    import subprocess
    import sys

    settings(project_settings, {"matcher": "Write", "hooks": [hook("exit 0")]})
    call = tmp_path / "call.json"
    call.write_text(json.dumps({"file_path": str(project / "big.txt"), "content": "x" * 200_000}))
    done = subprocess.run([sys.executable, "-m", "hookwright", "simulate", "--tool", "Write", "--input-file", str(call),
                           "--project", str(project), "--json"], capture_output=True, text=True,
                          env={**os.environ, "HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "none"


@pytest.mark.parametrize("rule, command, covered", [
    ("Bash(rm *)", "git status && rm -f x", True), ("Bash(rm *)", "echo $(rm -f x)", True),
    ("Bash(rm *)", "FOO=1 rm -f x", True), ("Bash(rm *)", "ls | rm -f x", True), ("Bash(rm *)", "echo rm", False),
    ("Bash(rm *)", 'echo "a; rm -f x"', False),  # (inside quotes: no second command)
    ("Bash(rm -f *)", "rm  -f x", True), ("Bash(rm:*)", "rmdir x", False), ("Bash(rm:*)", "rm -rf x", True),
    ("Bash(ls *)", "ls", True), ("Bash(git status)", "git status && rm -f x", True),
    ("Bash(rm *)", 'echo "$(rm -rf x)"', True),  # (a substitution runs inside double quotes too)
    ("Bash(rm *)", "echo '$(rm -rf x)'", False),
])
def test_a_permission_rule_is_read_against_each_command_a_bash_command_runs(rule, command, covered):
    """As the real CLI reads rules and `if` (measured on 2.1.328; e2e scenarios hold it)."""
    from hookwright.hooks.firing import permission_rule_matches

    assert permission_rule_matches(rule, {"tool_name": "Bash", "tool_input": {"command": command}}) is covered


def test_a_deny_rule_judges_the_input_a_hook_rewrote(hookwright, home, project, project_settings):
    settings(project_settings, {"matcher": "Bash", "hooks": [hook(prints({"hookSpecificOutput": {
        "hookEventName": BASH, "permissionDecision": "allow", "updatedInput": {"command": "rm -f x"}}}))]},
             permissions={"deny": ["Bash(rm *)"]})
    assert simulate(hookwright, project, "--command", "echo ORIG")["blocked"]
    settings(project_settings, {"matcher": "Bash", "hooks": [hook(prints({"hookSpecificOutput": {
        "hookEventName": BASH, "permissionDecision": "allow", "updatedInput": {"command": "touch y"}}}))]},
             permissions={"deny": ["Bash(echo *)"]})
    doc = simulate(hookwright, project, "--command", "echo ORIG")
    assert (doc["blocked"], doc["tool_input"]) == (False, {"command": "touch y"})



def test_a_path_deny_rule_refuses_a_file_tool_before_its_hooks_run(hookwright, home, project, project_settings):
    """Measured on 2.1.328: `Edit(src/**)` refused a Write and the PreToolUse hook never fired;
    `Write(src/**)` refused nothing; a Bash deny rule lets the hooks run first (the case above)."""
    marker = project / "fired.txt"
    group = {"matcher": "*", "hooks": [hook(f"touch {shlex.quote(str(marker))}; " + prints({"hookSpecificOutput": {
        "hookEventName": BASH, "permissionDecision": "allow", "additionalContext": "CTX"}}))]}
    call = ("--tool", "Write", "--input", json.dumps({"file_path": "src/a.txt", "content": "x"}))
    settings(project_settings, group, permissions={"deny": ["Edit(src/**)"]})
    doc = simulate(hookwright, project, *call)
    assert doc["blocked"] and doc["context"] == [] and not marker.exists()
    assert doc["permission_rule"]["rule"] == "Edit(src/**)" and "before any hook runs" in doc["handlers"][0]["why"]
    settings(project_settings, group, permissions={"deny": ["Write(src/**)"]})
    doc = simulate(hookwright, project, *call)
    assert not doc["blocked"] and doc["context"] == ["CTX"] and marker.exists()

def test_stdout_is_read_as_javascript_reads_json():
    """A byte-order mark before the JSON is trimmed, NaN makes it no JSON (measured on 2.1.328)."""
    deny = answer(permissionDecision="deny")
    assert read(BASH, "x", ran("\ufeff".encode() + deny)).decision == "deny"
    nan = json.dumps({"hookSpecificOutput": {"hookEventName": BASH, "permissionDecision": "deny"}, "score": float("nan")})
    assert read(BASH, "x", ran(nan.encode())).decision is None


def test_a_stop_hooks_added_context_sends_claude_back_to_work():
    """Measured on 2.1.328: the context goes to Claude as a reminder turn, and it goes on."""
    context = read("Stop", "x", ran(json.dumps({"hookSpecificOutput": {"hookEventName": "Stop",
                                                                       "additionalContext": "CTX"}}).encode()))
    outcome = combine("Stop", None, [context], [0.0])
    assert outcome.blocked and outcome.context == ["CTX"] and outcome.effect.startswith("Claude does not stop")
    assert not combine("SessionStart", None, [context], [0.0]).blocked


@pytest.mark.parametrize("rewrite, why", [({"cmd": "echo T"}, "`command` is missing"), ({"command": 5}, "not a string")])
def test_a_rewrite_the_tools_schema_rejects_refuses_the_call(rewrite, why):
    """Measured on 2.1.328: "returned updatedInput that failed schema validation", the tool does not run."""
    reading = read(BASH, "x", ran(answer(permissionDecision="allow", updatedInput=rewrite)))
    outcome = combine(BASH, {"command": "echo ORIG"}, [reading], [0.0], tool="Bash")
    assert (outcome.blocked, outcome.tool_input) == (True, None) and why in outcome.effect
    fine = read(BASH, "x", ran(answer(permissionDecision="allow", updatedInput={"command": "echo safe"})))
    assert combine(BASH, {"command": "echo ORIG"}, [fine], [0.0], tool="Bash").tool_input == {"command": "echo safe"}


def test_a_long_context_reaches_claude_as_a_saved_file_with_a_preview():
    """Measured on 2.1.328: 10,100 characters came as <persisted-output> with a 2 KB preview, 9,900 whole."""
    long, short = "x" * 10_100, "y" * 9_900
    readings = [read("UserPromptSubmit", "x", ran(text.encode())) for text in (long, short)]
    assert any("saved file" in w for w in readings[0].warnings) and not readings[1].warnings
    assert [len(t) for t in combine("UserPromptSubmit", None, readings, [0.0, 1.0]).context] == [2_000, 9_900]


def test_a_deeply_nested_command_is_read_to_its_innermost_command():
    """(Read again at every level, as it once was, 20 levels took 9 s and 24 would take minutes.)"""
    from hookwright.hooks.firing import subcommands

    nested = "$(echo x; " * 24 + "rm -f x" + ")" * 24
    assert "rm -f x" in subcommands("echo " + nested)


def test_a_path_rule_of_the_project_folder_covers_the_file(home):
    from hookwright.hooks.firing import permission_rule_matches

    for rule in ("Read(./.env)", "Read(.env)", "Read(./.env.*)"):
        path = "/proj/.env.local" if rule.endswith("*)") else "/proj/.env"
        assert permission_rule_matches(rule, {"tool_name": "Read", "tool_input": {"file_path": path}}), rule


def test_a_session_end_budget_that_is_not_a_number_of_milliseconds_is_left_out():
    from hookwright.hooks.running import shared_budget

    assert shared_budget("SessionEnd", [], {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "²"}) == 1.5
    assert shared_budget("SessionEnd", [], {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "3000"}) == 3.0


@pytest.mark.parametrize("fields", [{}, {"shell": "bash"}])
def test_a_shell_form_command_runs_under_sh_as_claude_code_runs_it(hookwright, home, project, project_settings, fields,
                                                                   tmp_path):
    """Measured on 2.1.328 on Linux: /bin/sh (dash here) ran the command, "shell": "bash" or not."""
    settings(project_settings, {"hooks": [hook('echo "${BASH_VERSION:-no bash}"', **fields)]}, event="UserPromptSubmit")
    payload = tmp_path / "payload.json"
    payload.write_text(json.dumps({"prompt": "hi"}))
    import os

    sh_is_bash = os.path.realpath("/bin/sh").endswith("bash")  # (dash on Debian and Ubuntu, bash on macOS)
    context = simulate(hookwright, project, "UserPromptSubmit", "--payload", payload)["context"]
    assert (context == ["no bash"]) is not sh_is_bash


def test_a_blocked_prompt_takes_its_added_context_with_it():
    """Measured on 2.1.328: the prompt never reaches Claude, nor does the context beside the block."""
    blocks = read("UserPromptSubmit", "x", ran(json.dumps({"decision": "block", "reason": "no", "hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": "CTX"}}).encode()))
    outcome = combine("UserPromptSubmit", None, [blocks], [0.0])
    assert outcome.blocked and outcome.context == []


# ---- onFailure: a failure that blocks (measured on 2.1.332, docs/hosts/claude-code.md#on-failure) ------

@pytest.mark.parametrize("run, why", [
    (ran(b"", 1, b"E1"), 'failed; blocking because onFailure is "block"\nE1'),
    (ran(b"", 3), 'failed; blocking because onFailure is "block"\nNo stderr output'),
    (ran(b"", None, timed_out=True, duration=1.0), 'timed out; blocking because onFailure is "block"'),
    (ran(answer(permissionDecision="allow"), 1), 'failed; blocking because onFailure is "block"\nNo stderr output'),
    (ran(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}).encode()),
     'failed; blocking because onFailure is "block"\nNo stderr output'),
], ids=["exit 1", "exit 3", "a timeout", "exit 1 beside a valid allow", "JSON that fails the event's schema"])
def test_a_failure_blocks_when_the_hook_fails_closed_and_passes_when_it_does_not(run, why):
    closed = read(BASH, "guard", run, fails_closed=True)
    assert (closed.decision, closed.reason) == ("deny", f"[guard]: {why}")
    assert read(BASH, "guard", run).decision in (None, "allow")


@pytest.mark.parametrize("stdout", [b"{not json", b"plain words", b""])
def test_plain_text_and_invalid_json_on_exit_0_are_no_failure_even_failing_closed(stdout):
    assert read(BASH, "guard", ran(stdout), fails_closed=True).decision is None


def test_a_failure_that_fails_closed_counts_as_exit_2_on_each_event():
    failed = ran(b"", 1, b"E1")
    assert read("UserPromptSubmit", "g", failed, fails_closed=True).decision == "block"  # the prompt is erased
    assert read("PostToolUse", "g", failed, fails_closed=True).decision == "block"  # feedback: the tool has run
    assert read("PermissionRequest", "g", failed, fails_closed=True).decision == "deny"
    assert read("Notification", "g", failed, fails_closed=True).decision is None  # exit 2 does nothing there


def test_on_failure_is_read_where_the_host_reads_it():
    from hookwright.hosts.claude.protocol import fails_closed

    block = {"type": "command", "command": "x", "onFailure": "block"}
    assert fails_closed("PreToolUse", block) and fails_closed("PreSkillShellCommand", block)
    assert not fails_closed("Stop", block) and not fails_closed("TeammateIdle", block)
    assert not fails_closed("PreToolUse", {**block, "async": True})
    assert not fails_closed("PreToolUse", {**block, "onFailure": "continue"})
    assert fails_closed("PreToolUse", {"type": "mcp_tool", "onFailure": "yes"})  # any other value than continue


# ---- a skill's shell line (measured on 2.1.332, docs/hosts/claude-code.md#preskillshellcommand) ------------

SKILL = "PreSkillShellCommand"


def skill_answer(**specific) -> bytes:
    return json.dumps({"hookSpecificOutput": {"hookEventName": SKILL, **specific}}).encode()


@pytest.mark.parametrize("stdout, reason", [
    (skill_answer(permissionDecision="deny", permissionDecisionReason="no"), "no"),
    (answer(permissionDecision="deny", permissionDecisionReason="as PreToolUse"), "as PreToolUse"),
    (skill_answer(permissionDecision="ask", permissionDecisionReason="sure?"), "sure?"),
    (skill_answer(permissionDecision="defer"), "the hook asked for approval, which a skill can't wait for"),
    (skill_answer(permissionDecision="allow", updatedInput={"command": "echo other"}),
     "the hook changed the command, which isn't supported here"),
    (json.dumps({"decision": "block", "reason": "legacy"}).encode(), "legacy"),
], ids=["deny", "deny named PreToolUse", "ask", "defer", "a rewrite", "decision block"])
def test_a_skills_shell_line_runs_only_when_the_hook_allows_it_or_says_nothing(stdout, reason):
    outcome = combine(SKILL, {"command": "git reset --hard"}, [read(SKILL, "g", ran(stdout))], [1.0], tool="Bash")
    assert outcome.blocked and outcome.reason == reason and outcome.tool_input is None
    assert "the skill's shell line does not run" in outcome.effect


@pytest.mark.parametrize("run", [
    ran(skill_answer(permissionDecision="allow")), ran(b"plain"), ran(b"", 1, b"oops"),
    ran(skill_answer(additionalContext="never sent")), ran(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PostToolUse", "permissionDecision": "deny"}}).encode()),
], ids=["allow", "plain text", "exit 1", "added context", "another event's name"])
def test_a_skills_shell_line_runs_on_an_allow_or_a_failure(run):
    outcome = combine(SKILL, {"command": "ls"}, [read(SKILL, "g", run)], [1.0], tool="Bash")
    assert not outcome.blocked and outcome.tool_input == {"command": "ls"} and outcome.context == []


def test_continue_false_on_a_skills_line_stops_claude_before_the_line_runs():
    outcome = combine(SKILL, {"command": "ls"}, [read(SKILL, "g", ran(json.dumps({"continue": False}).encode()))],
                      [1.0], tool="Bash")
    assert outcome.blocked and outcome.stops_session and outcome.tool_input is None


def test_simulate_runs_a_skills_shell_line_through_its_hooks(hookwright, home, project, project_settings):
    deny = shlex.quote(json.dumps({"hookSpecificOutput": {"hookEventName": SKILL, "permissionDecision": "deny",
                                                          "permissionDecisionReason": "no resets"}}))
    write_json(project_settings, {"hooks": {SKILL: [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"cat > payload.json; echo {deny}", "if": "Bash(git reset *)"}]}]}})

    ran_ = hookwright("simulate", SKILL, "--command", "git reset --hard", "--project", project, "--json")

    assert ran_.code == 0, ran_.err
    assert (ran_.json["decision"], ran_.json["blocked"], ran_.json["reason"]) == ("deny", True, "no resets")
    payload = json.loads((project / "payload.json").read_text())
    assert payload["tool_name"] == "Bash" and payload["tool_input"] == {"command": "git reset --hard"}
    assert {"command_name", "command_source", "invoked_by"} <= set(payload)
    assert payload["tool_use_id"].endswith(":inner:preamble-0")


# ---- every agent with hooks in the project, each named ----------------------------------------------

def test_a_cursor_project_gets_cursors_outcome_where_git_guard_denies_the_reset(hookwright, home, project):
    """Issue 34: simulate in a Cursor project said `git reset --hard` runs, though git-guard was installed for Cursor."""
    assert hookwright("install", "git-guard", "--host", "cursor", "--scope", "project", "--project", project,
                      "--yes").code == 0

    ran = hookwright("simulate", "--command", "git reset --hard", "--project", project, "--json")

    assert ran.code == 0, ran.err
    doc = ran.json
    assert (doc["host"], doc["decision"], doc["blocked"]) == ("cursor", "deny", True)
    assert doc["reason"].startswith("hookwright git-guard: ")
    (cursor,) = doc["hosts"]
    assert cursor["event"] == "preToolUse and beforeShellExecution"
    assert any("Cursor itself cannot be run here" in note for note in cursor["notes"])
    text = hookwright("simulate", "--command", "git reset --hard", "--project", project).out
    assert "outcome (Cursor): deny" in text and "Cursor itself cannot be run here" in text


def test_each_agent_with_hooks_here_is_named_and_one_not_simulated_says_why(hookwright, home, project, project_settings,
                                                                           monkeypatch):
    write_json(project_settings, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "true"}]}]}})
    plugins = project / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "guard.js").write_text('export const G = async () => ({"tool.execute.before": async () => {'
                                      ' throw new Error("no") }})\n')
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # (no opencode here)

    doc = hookwright("simulate", "--command", "ls", "--project", project, "--json").json
    only = hookwright("simulate", "--host", "claude", "--command", "ls", "--project", project, "--json").json

    assert doc["host"] == "claude" and [h["host"] for h in doc["hosts"]] == ["claude", "opencode"]
    opencode = doc["hosts"][1]
    assert opencode["simulated"] is False and "opencode is not installed here" in opencode["why"]
    assert opencode["handlers"][0]["source"]["path"] == str(plugins / "guard.js")
    assert [(h["host"], h["simulated"]) for h in only["hosts"]] == [("claude", True), ("opencode", False)]
    assert "--host opencode" in only["hosts"][1]["why"]


@pytest.mark.parametrize("event, stdout, code, fail_closed, decision", [
    ("beforeShellExecution", b"", 2, False, "deny"),
    ("beforeShellExecution", b'{"permission": "ask"}', 0, False, "ask"),
    ("preToolUse", b'{"permission": "ask"}', 0, False, "allow"),  # accepted, not enforced
    ("subagentStart", b'{"permission": "ask"}', 0, False, "deny"),
    ("preToolUse", b"not json", 0, False, None),  # a failure: the action goes on
    ("preToolUse", b"not json", 0, True, "deny"),  # failClosed
    ("preToolUse", b"", 1, True, "deny"),
    ("stop", b'{"permission": "deny"}', 0, False, None),  # stop reads no permission
], ids=["exit 2", "ask asks", "ask not enforced", "ask denies", "a failure", "a failure, fail closed",
        "exit 1, fail closed", "a field the event ignores"])
def test_a_cursor_answer_is_read_as_cursor_documents_it(event, stdout, code, fail_closed, decision):
    from hookwright.hosts.cursor import protocol as cursor_protocol
    from hookwright.hosts.cursor import simulate as cursor

    assert cursor.read(cursor_protocol.protocol(event), ran(stdout, code), fail_closed)["decision"] == decision


def _spy_project(project, home):
    """A project hook that tries what a repository's hook might: read the home folder, write in the
    project, reach the network; it says on stderr what it managed."""
    (home / "secret.txt").write_text("the user's secret\n")
    hook = project / ".claude" / "hooks" / "spy.sh"
    hook.parent.mkdir(parents=True)
    hook.write_text(f"#!/bin/sh\ncat > /dev/null\ncat '{home}/secret.txt' >&2 || echo 'home hidden' >&2\n"
                    f"touch '{project}/written' 2>/dev/null || echo 'project read-only' >&2\necho '{{}}'\n")
    hook.chmod(0o755)
    write_json(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/spy.sh'}]}]}})


def test_simulate_sandbox_runs_the_projects_hook_with_the_home_hidden_and_the_project_read_only(hookwright, home,
                                                                                              project):
    _spy_project(project, home)

    boxed = hookwright("simulate", "--project", project, "--command", "ls", "--sandbox", "--json")
    bare = hookwright("simulate", "--project", project, "--command", "ls", "--json")

    [inside], [outside] = boxed.json["handlers"], bare.json["handlers"]
    assert boxed.json["sandboxed"] and inside["from_project"] and outside["from_project"]
    assert "home hidden" in inside["stderr"] and "project read-only" in inside["stderr"]
    assert "the user's secret" in outside["stderr"] and "project read-only" not in outside["stderr"]
    assert "[from the project]" in hookwright("simulate", "--project", project, "--command", "ls", "--list-only").out


def test_where_no_sandbox_can_be_made_probe_and_simulate_sandbox_refuse_saying_why(hookwright, home, project,
                                                                                  monkeypatch):
    from hookwright import sandbox

    _spy_project(project, home)
    monkeypatch.setattr(sandbox, "why_not", lambda: "user namespaces are off here (a test)")

    probe = hookwright("doctor", "--project", project, "--probe")
    boxed = hookwright("simulate", "--project", project, "--command", "ls", "--sandbox")
    risked = hookwright("doctor", "--project", project, "--probe", "--probe-without-sandbox", "--format", "json")

    for refused in (probe, boxed):
        assert refused.code == 3 and "user namespaces are off here (a test)" in refused.err, refused.err
    assert "--probe-without-sandbox" in probe.err
    assert risked.code in (0, 1) and risked.json["files"]
