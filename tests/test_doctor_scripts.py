"""Static analysis of hook scripts (installer/doctor/scripts/keys.py) and the script rules
(installer/doctor/checks/scripts/), plus the corpus pin: which real scripts emit what."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from doctor_support import doctor, found, settings
from hookwright.doctor.model import catalog
from hookwright.doctor.scripts.keys import MAX_BYTES, analyse, analyse_text, detect_language, strip_comments
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

S = ".claude/settings.json"


def facts(text: str, language: str):
    return analyse_text(textwrap.dedent(text).lstrip("\n"), language)


# ---- what a script writes -------------------------------------------------------------------------

PY_REWRITE = """
    import json, sys
    data = json.load(sys.stdin)
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                             "updatedInput": {**data["tool_input"], "command": "x"}}}))
"""
JS_REWRITE = """
    const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    // updatedInput replaces the whole input
    process.stdout.write(JSON.stringify({hookSpecificOutput: {hookEventName: 'PreToolUse',
      updatedInput: {...input.tool_input, command: 'x'}}}));
"""
SH_REWRITE = """
    #!/bin/bash
    INPUT=$(cat)
    UPDATED=$(echo "$INPUT" | jq -c '.tool_input | .command = "rtk " + .command')
    jq -n --argjson u "$UPDATED" '{
      "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": $u}
    }'
"""


@pytest.mark.parametrize("text, language", [(PY_REWRITE, "python"), (JS_REWRITE, "javascript"),
                                            (SH_REWRITE, "shell")])
def test_a_rewriter_is_recognised_in_each_language(text, language):
    found_ = facts(text, language)
    assert found_.rewrites("claude")[0] == "yes"
    assert found_.rewrites("cursor")[0] == "no"
    assert not (found_.ignored or found_.top_level_updated_input or found_.no_event_name or found_.mixed_shapes)


@pytest.mark.parametrize("text, language", [
    ("""
     out = {"hookSpecificOutput": {"hookEventName": "PreToolUse"}}
     out["hookSpecificOutput"]["updatedInput"] = {"command": "x"}
     print(json.dumps(out))
     """, "python"),
    ("""
     jq -n --argjson u "$U" '{hookSpecificOutput: {hookEventName: "PreToolUse"}} | .hookSpecificOutput.updatedInput = $u'
     """, "shell"),
    ("""
     const out = { hookEventName: 'PreToolUse', permissionDecision: 'allow' };
     out.updatedInput = { command: 'x' };
     console.log(JSON.stringify({ hookSpecificOutput: out }));
     """, "javascript"),
    ("""
     echo "{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"updatedInput\\": {\\"command\\": \\"x\\"}}}"
     """, "shell"),
])
def test_rewrites_built_step_by_step(text, language):
    assert facts(text, language).rewrites("claude")[0] == "yes"


def test_comments_and_docstrings_are_not_emissions():
    py = facts('''
        """Rewrites nothing. (Other hooks use modifiedToolInput or updatedInput; not this one.)"""
        # print(json.dumps({"hookSpecificOutput": {"updatedInput": {}}}))
        print("{}")
        ''', "python")
    assert py.rewrites("claude")[0] == "no" and not py.ignored
    js = facts("""
        /* {"modifiedToolInput": 1} */
        // hookSpecificOutput: { updatedInput: x }
        const re = /"updatedInput":/;
        console.log('{}');
        """, "javascript")
    assert js.rewrites("claude")[0] == "no" and not js.ignored
    sh = facts("""
        # jq -n '{"hookSpecificOutput": {"updatedInput": $u}}'
        echo '{}'  # modifiedToolInput: no
        echo "${#ARR}" "$#"
        """, "shell")
    assert sh.rewrites("claude")[0] == "no" and not sh.ignored


def test_fields_claude_code_ignores():
    f = facts("""
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "modifiedToolInput": {"c": 1}}}))
        print(json.dumps({"shouldProceed": False}))
        out["updatedToolInput"] = {}
        """, "python")
    assert [(s.what, s.line) for s in f.ignored] == [("modifiedToolInput", 1), ("shouldProceed", 2),
                                                    ("updatedToolInput", 3)]
    assert f.ignored[0].column == 73  # its opening quote
    assert f.rewrites("claude")[0] == "no"
    reads_only = facts('x = data.get("modifiedToolInput"); y = data["shouldProceed"]\n', "python")
    assert not reads_only.ignored


def test_top_level_updated_input():
    legacy = facts("""
        echo '{"decision": "approve", "updatedInput": {"command": "ls"}}'
        """, "shell")
    assert [s.line for s in legacy.top_level_updated_input] == [1]
    assert legacy.rewrites("claude")[0] == "no"
    no_hso = facts("print(json.dumps({'updatedInput': new}))\n", "python")
    assert no_hso.top_level_updated_input
    # PermissionRequest: updatedInput inside decision, inside hookSpecificOutput
    permission = facts("""
        decision = {"behavior": "allow", "updatedInput": new}
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}}))
        """, "python")
    assert not permission.top_level_updated_input and permission.rewrites("claude")[0] == "yes"
    # an internal structure that merely carries updatedInput is not the output
    internal = facts("""
        return {'action': 'answer', 'updatedInput': {**tool_input}}
        print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PermissionRequest', 'decision': d}}))
        """, "python")
    assert not internal.top_level_updated_input


def test_defer():
    f = facts("""
        function defer() {
          const out = { hookEventName: 'PreToolUse', permissionDecision: 'defer' };
          process.stdout.write(JSON.stringify({ hookSpecificOutput: out }));
        }
        """, "javascript")
    assert [(s.line, s.column) for s in f.defer] == [(2, 46)]
    assert not facts("print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
                     "'permissionDecision': 'deny'}}))\n", "python").defer


def test_hook_specific_output_without_event_name():
    f = facts("""
        print(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}))
        """, "python")
    assert [(s.line, s.column) for s in f.no_event_name] == [(1, 41)]  # its {
    via_variable = facts("""
        hso = {"permissionDecision": "deny"}
        print(json.dumps({"hookSpecificOutput": hso}))
        """, "python")
    assert via_variable.no_event_name
    assert not facts(PY_REWRITE, "python").no_event_name
    spread = facts("console.log(JSON.stringify({hookSpecificOutput: {...base, permissionDecision: 'deny'}}))\n",
                   "javascript")
    assert not spread.no_event_name
    schema = facts("""
        const Out = { hookSpecificOutput: { type: "object", description: "PreToolUse fields" } };
        """, "javascript")
    assert not schema.no_event_name


def test_event_names_written_as_literals():
    one = facts("""
        out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
        """, "python")
    assert [(s.what, s.line) for s in one.event_names] == [("PreToolUse", 1)]
    per_event = facts("""
        if event == "PreToolUse":
            out["hookSpecificOutput"]["hookEventName"] = "PreToolUse"
        else:
            out["hookSpecificOutput"]["hookEventName"] = "PostToolUse"
        """, "python")
    assert {s.what for s in per_event.event_names} == {"PreToolUse", "PostToolUse"}
    shell = facts("""echo '{"hookSpecificOutput":{"hookEventName":"Stop"}}'\n""", "shell")
    assert [s.what for s in shell.event_names] == ["Stop"]
    copied = facts("""
        name = "PreToolUse"
        print(json.dumps({"hookSpecificOutput": {"hookEventName": data["hook_event_name"]}}))
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse"}}))
        """, "python")
    assert copied.event_names == ()  # one of them is not a literal: the name may be right


def test_a_script_answering_for_each_of_its_events_is_not_wrong(tmp_path):
    base = tmp_path / "p"
    command = _write(base, ".claude/hooks/hook.py", """
        import json, sys
        event = json.load(sys.stdin)["hook_event_name"]
        if event == "PreToolUse":
            print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}))
        else:
            print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}))
        """)
    config = {"hooks": {event: [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]
                        for event in ("PreToolUse", "PostToolUse")}}
    assert not found(doctor(base, {S: config}), "script/wrong-event-name")
    config["hooks"]["PermissionRequest"] = config["hooks"]["PreToolUse"]  # it may print nothing there
    assert not found(doctor(base, {S: config}), "script/wrong-event-name")
    only = {"hooks": {"PermissionRequest": config["hooks"]["PreToolUse"]}}
    (wrong,) = found(doctor(base, {S: only}), "script/wrong-event-name")
    assert "runs on PermissionRequest" in wrong.message and len(wrong.related) == 1


def test_mixed_shapes():
    f = facts("""
        echo '{"permission": "deny", "user_message": "no", "hookSpecificOutput": {"hookEventName": "PreToolUse"}}'
        """, "shell")
    assert f.mixed_shapes and "hookSpecificOutput" in f.mixed_shapes[0].what and "permission" in f.mixed_shapes[0].what
    branches = facts("""
        if [ -n "$CURSOR_PROJECT_DIR" ]; then
          echo '{"permission": "deny", "user_message": "no"}'
        else
          echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'
        fi
        """, "shell")
    assert not branches.mixed_shapes
    cursor = facts("""echo '{"permission": "allow", "updated_input": {"command": "ls"}}'\n""", "shell")
    assert cursor.rewrites("cursor")[0] == "yes" and cursor.rewrites("claude")[0] == "no"


def test_stop_hook_facts():
    blocks = facts("""
        import json, sys
        print(json.dumps({"decision": "block", "reason": "tests are failing"}))
        """, "python")
    assert blocks.blocks and not blocks.reads_stop_hook_active
    careful = facts("""
        data = json.load(sys.stdin)
        if data.get("stop_hook_active"):
            sys.exit(0)
        sys.exit(2)
        """, "python")
    assert careful.blocks and careful.reads_stop_hook_active
    assert facts("[ \"$(jq -r .stop_hook_active)\" = true ] && exit 0\nexit 2\n", "shell").reads_stop_hook_active


@pytest.mark.parametrize("text, language, what", [
    ("command -v rtk >/dev/null && exec rtk hook claude\n", "shell", "exec rtk"),
    ("INPUT=$(cat)\npython3 ~/.claude/hooks/real.py\n", "shell", "python3"),
    ("import subprocess\nsubprocess.run(['rtk', 'hook'])\n", "python", "subprocess.run"),
    ("import os\nos.execvp('rtk', ['rtk', 'hook'])\n", "python", "os.execvp"),
    ("require('child_process').spawn('rtk', [], {stdio: 'inherit'})\n", "javascript", "inherit"),
])
def test_handing_output_to_another_program_makes_it_unknown(text, language, what):
    status, why = analyse_text(text, language).rewrites("claude")
    assert status == "unknown" and what in why


def test_captured_output_is_not_handing_over():
    text = "import subprocess, json\nout = subprocess.run(['git', 'status'], capture_output=True)\nprint('{}')\n"
    assert analyse_text(text, "python").rewrites("claude")[0] == "no"


def test_languages_and_limits(tmp_path):
    assert detect_language(Path("x.py"), "") == "python"
    assert detect_language(Path("x.mjs"), "") == "javascript"
    assert detect_language(Path("hook"), "#!/usr/bin/env -S python3 -I\n") == "python"
    assert detect_language(Path("hook"), "#!/usr/bin/env node\n") == "javascript"
    assert detect_language(Path("hook"), "#!/bin/bash\n") == "shell"
    assert detect_language(Path("hook"), "echo hi\n") == "shell"  # sh runs a file without a shebang
    assert detect_language(Path("hook"), "#!/usr/bin/ruby\n") == "unknown"
    big = tmp_path / "big.py"
    big.write_text("#" * (MAX_BYTES + 1))
    assert not analyse(big).readable and analyse(big).rewrites()[0] == "unknown"
    binary = tmp_path / "hook"
    binary.write_bytes(b"\x7fELF\x00\x00")
    assert analyse(binary).why_not == "a binary file"
    assert not analyse(tmp_path / "missing.py").readable


def test_a_command_lines_refusal_is_read_without_working_out_its_flow():
    """The rewrite and refusal facts of a command line (handler_facts) read its keys alone; its
    flow is worked out when a rule first reads it, and kept."""
    from hookwright.doctor.scripts.flow import Later

    found = analyse_text("jq -r .tool_input.command | grep -q 'rm -rf /srv' && exit 2", "shell")
    assert [site.what for site in found.blocks] == ["exit 2"]
    assert type(found.__dict__["_flow"]) is Later
    assert [exit_.status for exit_ in found.flow.exits] == [2]
    assert found.flow is found.flow and type(found.__dict__["_flow"]) is not Later


def test_a_handlers_scripts_are_read_once_a_run_and_again_in_the_next(tmp_path):
    from hookwright.doctor import disk, handler_facts
    from hookwright.doctor.run import context

    script = tmp_path / "guard.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    path = tmp_path / S
    path.parent.mkdir()
    path.write_text(json.dumps(settings(command="sh guard.sh")))
    handler = context([path], project=tmp_path).handlers[0]
    first = handler_facts.script_facts(handler)
    assert handler_facts.script_facts(handler) is first and not first[0][1].blocks
    script.write_text("#!/bin/sh\necho 'refused' >&2\nexit 2\n")
    assert handler_facts.script_facts(handler) is first  # (one run reads the disk once)
    disk.fresh()  # the next run
    assert [site.what for _, facts in handler_facts.script_facts(handler) for site in facts.blocks] == ["exit 2"]


def test_comment_stripping_keeps_offsets():
    for text, language in ((PY_REWRITE, "python"), (JS_REWRITE, "javascript"), (SH_REWRITE, "shell")):
        stripped = strip_comments(text, language)
        assert len(stripped) == len(text) and stripped.count("\n") == text.count("\n")
    broken = "def f(:\n    # modifiedToolInput\n"
    assert "modifiedToolInput" not in strip_comments(broken, "python")  # untokenizable Python still loses comments


# ---- the script rules -------------------------------------------------------------------------------

def _write(base: Path, rel: str, text: str) -> str:
    path = base / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    path.chmod(0o755)
    return f'python3 "$CLAUDE_PROJECT_DIR"/{rel}'


def _script_rules(outcome) -> list[str]:
    return [f.rule for f in outcome.findings if f.rule.startswith("script/")]


GOOD = PY_REWRITE


@pytest.mark.parametrize("rule, event, bad", [
    ("script/ignored-output-field", "PreToolUse",
     'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "modifiedToolInput": {}}}))\n'),
    ("script/ignored-output-field", "PreToolUse", 'print(json.dumps({"shouldProceed": False}))\n'),
    ("script/ignored-output-field", "PreToolUse", 'print(json.dumps({"decision": "approve", "updatedInput": {}}))\n'),
    ("script/defer", "PreToolUse",
     'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}))\n'),
    ("script/no-event-name", "PreToolUse",
     'print(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "r"}}))\n'),
    ("script/mixed-shapes", "PreToolUse",
     'print(json.dumps({"permission": "deny", "hookSpecificOutput": {"hookEventName": "PreToolUse"}}))\n'),
    ("script/stop-hook-active", "Stop", 'print(json.dumps({"decision": "block", "reason": "go on"}))\n'),
    ("script/wrong-event-name", "PreToolUse",
     'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}))\n'),
])
def test_each_script_rule_fires_and_stays_quiet_on_a_valid_script(tmp_path, rule, event, bad):
    base = tmp_path / "p"
    matcher = "Bash" if event == "PreToolUse" else None
    command = _write(base, ".claude/hooks/hook.py", "import json, sys\n" + bad)
    out = doctor(base, {S: settings(event, matcher=matcher, command=command)})
    assert _script_rules(out) == [rule]
    (finding,) = found(out, rule)
    assert finding.path == str(base / ".claude/hooks/hook.py") and finding.line == 2
    command_line = 9 if matcher else 8
    assert finding.related and finding.related[0]["path"] == str(base / S)
    assert finding.related[0]["line"] == command_line
    good = GOOD if event == "PreToolUse" else """
        import json, sys
        if json.load(sys.stdin).get("stop_hook_active"):
            sys.exit(0)
        print(json.dumps({"decision": "block", "reason": "go on"}))
        """
    command = _write(base, ".claude/hooks/hook.py", good)
    assert not _script_rules(doctor(base, {S: settings(event, matcher=matcher, command=command)}))


def test_a_stop_hook_that_never_blocks_needs_no_stop_hook_active(tmp_path):
    base = tmp_path / "p"
    command = _write(base, ".claude/hooks/notify.py", "print('{}')\n")
    assert not _script_rules(doctor(base, {S: settings("Stop", matcher=None, command=command)}))


def test_one_script_many_handlers_one_finding(tmp_path):
    base = tmp_path / "p"
    command = _write(base, ".claude/hooks/hook.py", 'print(json.dumps({"shouldProceed": False}))\n')
    config = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]},
                                       {"matcher": "Edit", "hooks": [{"type": "command", "command": command + " x"}]}]}}
    (finding,) = found(doctor(base, {S: config}), "script/ignored-output-field")
    assert len(finding.related) == 2


def test_cursor_handlers_only_get_the_cross_host_rule(tmp_path):
    base = tmp_path / "p"
    _write(base, ".cursor/hooks/hook.py",
           'print(json.dumps({"permission": "deny", "hookSpecificOutput": {"modifiedToolInput": 1}}))\n')
    config = {"version": 1, "hooks": {"preToolUse": [{"command": "python3 .cursor/hooks/hook.py"}]}}
    assert _script_rules(doctor(base, {".cursor/hooks.json": config})) == ["script/mixed-shapes"]


PERMISSION_DENY = ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", '
                   '"decision": {"behavior": "deny", "message": "needs review"}}}))\n')


@pytest.mark.parametrize("event, bad, good", [
    ("PermissionRequest", 'print("needs review", file=sys.stderr)\nsys.exit(2)\n', PERMISSION_DENY),
])
def test_exit_2_on_permission_request_is_reported_as_ignored(tmp_path, event, bad, good):
    base = tmp_path / "p"
    command = _write(base, ".claude/hooks/perm.py", "import json, sys\n" + bad)
    (finding,) = found(doctor(base, {S: settings(event, matcher="Bash", command=command)}), "script/exit-2-ignored")
    assert finding.line == 3 and finding.severity == "error"
    command = _write(base, ".claude/hooks/perm.py", "import json, sys\n" + good)
    assert not _script_rules(doctor(base, {S: settings(event, matcher="Bash", command=command)}))
    # the same script also on PreToolUse, where exit 2 blocks: it may be answering that one
    command = _write(base, ".claude/hooks/perm.py", "import json, sys\n" + bad)
    both = {"hooks": {event: settings(event, matcher="Bash", command=command)["hooks"][event],
                      "PreToolUse": settings("PreToolUse", matcher="Bash", command=command)["hooks"]["PreToolUse"]}}
    assert not found(doctor(base, {S: both}), "script/exit-2-ignored")
    # also on Notification, where exit 2 blocks nothing either: still ignored on PermissionRequest
    beside = {"hooks": {event: both["hooks"][event],
                        "Notification": settings("Notification", matcher=None, command=command)["hooks"]["Notification"]}}
    (finding,) = found(doctor(base, {S: beside}), "script/exit-2-ignored")
    assert finding.line == 3


@pytest.mark.parametrize("event, instead", [
    ("PostToolUse", '"decision": "block"'),
    ("PermissionRequest", '"behavior"'),
    ("Notification", "no decision to make"),
    ("TaskCompleted", '"continue": false'),
])
def test_permission_decision_on_an_event_that_does_not_read_it(tmp_path, event, instead):
    base = tmp_path / "p"
    deny = ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "%s", "permissionDecision": "deny", '
            '"permissionDecisionReason": "no"}}))\n' % event)
    command = _write(base, ".claude/hooks/hook.py", "import json, sys\n" + deny)
    matcher = None if event == "Notification" else "Bash"
    said = doctor(base, {S: settings(event, matcher=matcher, command=command)})
    (finding,) = found(said, "script/decision-wrong-event")
    assert event in finding.message and instead in finding.hint and finding.line == 2
    assert found(said, "script/field-the-event-ignores") == []  # (one finding for the answer's form)
    pre = deny.replace(event, "PreToolUse")
    command = _write(base, ".claude/hooks/hook.py", "import json, sys\n" + pre)
    assert not found(doctor(base, {S: settings("PreToolUse", matcher="Bash", command=command)}),
                     "script/decision-wrong-event")
    # a script that answers each event its own way
    branching = ('event = json.load(sys.stdin)["hook_event_name"]\n'
                 'if event == "PreToolUse":\n    ' + pre.replace("PreToolUse", "PreToolUse") +
                 'else:\n    print(json.dumps({"decision": "block", "reason": "no"}))\n')
    command = _write(base, ".claude/hooks/hook.py", "import json, sys\n" + branching)
    assert not found(doctor(base, {S: settings(event, matcher=matcher, command=command)}),
                     "script/decision-wrong-event")



GUARD = """
    INPUT=$(cat)
    # a note: [[ in a comment is no code
    if [[ "$INPUT" == *"rm -rf"* ]]; then
      echo "no rm -rf" >&2
      exit 2
    fi
"""


@pytest.mark.parametrize("shebang, command, reported", [
    ("#!/bin/bash\n", 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', True),  # sh ignores the #! line
    ("#!/bin/bash\n", '. "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', True),  # sourced into Claude Code's sh
    ("", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', True),  # no #! line: the sh that runs the command runs it
    ("#!/bin/bash\n", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', False),
    ("", 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', False),
    ("#!/bin/sh\n", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', True),  # its own #! line asks for sh
    ("#!/usr/bin/env sh\n", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', True),
    ("#!/bin/sh\n", 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', False),  # bash named: the #! line unread
])
def test_a_bash_script_that_sh_runs_is_reported_at_its_line(tmp_path, shebang, command, reported):
    base = tmp_path / "p"
    script = base / ".claude/hooks/guard.sh"
    script.parent.mkdir(parents=True)
    script.write_text(shebang + textwrap.dedent(GUARD).lstrip("\n"))
    script.chmod(0o755)
    ran = subprocess.run(["sh", "-c", command], input=b"rm -rf /", capture_output=True, cwd=base,
                         env={**os.environ, "CLAUDE_PROJECT_DIR": str(base)})
    assert (ran.returncode == 2) != reported, ran.stderr  # (dash: `[[` not found, the test false, the guard open)
    hits = found(doctor(base, {S: settings(command=command)}), "script/bash-only-syntax")
    assert len(hits) == reported
    if reported:
        (hit,) = hits
        assert (hit.path, hit.line, hit.column) == (str(script), 3 + bool(shebang), 4)
        assert "[[ ... ]]" in hit.message and "PreToolUse hook at .claude/settings.json" in hit.message

def test_every_script_rule_is_tested():
    tested = {"script/ignored-output-field", "script/defer", "script/no-event-name", "script/mixed-shapes",
              "script/stop-hook-active", "script/wrong-event-name", "script/exit-2-ignored",
              "script/decision-wrong-event",
              # judged against the event's protocol: tests/test_doctor_script_protocol.py
              "script/text-before-json", "script/reason-on-stdout", "script/shell-trace",
              "script/updated-input-not-object", "script/rewrite-drops-fields", "script/exit-2-does-not-block",
              "script/exit-1-fails-open", "script/continue-false-not-a-block", "script/invalid-decision-value",
              "script/stdin-read-twice", "script/failure-in-post-tool-use", "script/claude-answer-for-cursor",
              "script/stdin-read-partly", "script/answer-not-json",  # tests/test_doctor_runtimes.py
              "script/answer-sent-away",  # tests/test_doctor_dispatchers.py
              "script/cursor-field-not-read", "script/input-field-never-sent", "script/field-the-event-ignores",
              "script/input-text-spaced",  # tests/test_doctor_never_sent.py
              # a variable, a wait, an input shape where the event has none of it: tests/test_doctor_event_fit.py
              "script/variable-not-on-event", "script/outlasts-its-time", "script/input-shape-differs",
              "script/does-not-parse", "script/cursor-ask-not-asked", "script/async-answer-never-read",
              "script/cursor-answer-for-claude", "script/cursor-invalid-permission", "script/bash-only-syntax",
              "script/answer-on-stderr", "script/output-rewrite-ignored",
              # a key spelt otherwise, a test never true, an answer the host rejects: tests/test_doctor_answer_names.py
              "script/misspelt-field", "script/test-never-true", "script/answer-rejected",
              # a value the host never sends, an answer without the field it needs: tests/test_doctor_never_sent.py
              "script/value-never-sent", "script/answer-incomplete", "script/tool-name-renamed",
              # Codex's exit 2 without its reason, a rewrite on an event that does not apply it: tests/test_codex_rules.py
              "script/exit-2-without-reason", "script/rewrite-not-applied", "script/input-field-renamed",
              "script/tool-field-not-sent", "script/guard-after-the-call", "script/variable-of-another-host",
              # one file tool's text read where the matcher fires for another: tests/test_doctor_never_hold.py
              "script/written-text-not-read",
              # a refusal in the field its Cursor event does not read, plain text where Cursor reads JSON:
              # tests/test_doctor_cursor_semantics.py
              "script/cursor-refusal-not-read", "script/cursor-text-not-json",
              # a value read by jq without -r tested with an anchored pattern: tests/test_doctor_shell_values.py
              "script/value-keeps-quotes",
              # how the interpreter a hook starts loads its script: tests/test_doctor_hook_start.py
              "script/module-system", "script/import-not-found",
              # with --probe only: tests/test_doctor_probe.py
              "script/probe-invalid-output", "script/probe-wrong-event", "script/probe-timeout",
              "script/probe-decision-ignored", "script/probe-rewrite-drops-fields", "script/probe-exit-does-not-block"}
    assert {r for r in catalog() if r.startswith("script/")} == tested


# ---- the corpus ---------------------------------------------------------------------------------------

def test_corpus_hook_scripts(shared):
    """Every script in ../shared/corpus/hook-scripts, analysed: which emit what Claude Code ignores,
    which may rewrite input. Pinned (checked by reading each file)."""
    folder = shared / "corpus" / "hook-scripts"
    results = {p.name: analyse(p) for p in sorted(folder.iterdir()) if p.is_file()}
    assert len(results) == 40 and all(f.readable for f in results.values())

    def emitting(attribute):
        return {name: [(s.what, s.line) for s in getattr(f, attribute)]
                for name, f in results.items() if getattr(f, attribute)}

    # the one script that writes modifiedToolInput: its gh rewrite never happens
    assert emitting("ignored") == {"phrazzld__claude-config__hooks__github-cli-guard.py": [("modifiedToolInput", 103)]}
    # an older copy of gstack's question hook answers "defer" (the newer one in garrytan/gstack does not)
    assert emitting("defer") == {
        "dopiotrek__dotclaude__skills__gstack__hosts__claude__hooks__question-preference-hook.ts": [("defer", 98)]}
    assert emitting("top_level_updated_input") == {}
    assert emitting("no_event_name") == {}
    assert emitting("mixed_shapes") == {}
    rewrites = {name: f.rewrites("claude")[0] for name, f in results.items()}
    assert {n for n, s in rewrites.items() if s == "unknown"} == {
        "MFGod__agents-config__.cursor__hooks__rtk-rewrite.sh",  # exec rtk hook cursor
        "redpanda-data__ui-harness__.claude__hooks__rtk-rewrite.sh",  # exec rtk hook claude
    }
    assert {n for n, s in rewrites.items() if s == "no"} == {
        "dopiotrek__dotclaude__skills__gstack__hosts__claude__hooks__question-preference-hook.ts",
        "garrytan__gstack__hosts__claude__hooks__question-preference-hook.ts",  # deny + reason, never updatedInput
        "phrazzld__claude-config__hooks__github-cli-guard.py",  # modifiedToolInput: ignored, so no rewrite
    }
    assert sum(1 for s in rewrites.values() if s == "yes") == 35
    assert all(rewrites[n] == "yes" for n in results if "rtk-rewrite" in n and "MFGod__agents-config__.cursor" not in n
               and "redpanda-data__ui-harness__.claude__hooks__rtk" not in n)



CODE_BITS = st.sampled_from(['{', '}', '"', "'", "`", "\\", "#", "//", "/*", "*/", "\n", ":", "=", "[", "]", ".",
                             "hookSpecificOutput", "updatedInput", "hookEventName", "modifiedToolInput", "<<EOF",
                             "EOF", '"""', "permissionDecision", "defer", "exec ", "...", "**", "$", "${x:-y}"])


@hsettings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(CODE_BITS, st.text(max_size=3)), max_size=40).map("".join),
       st.sampled_from(["python", "javascript", "shell"]))
def test_any_text_is_analysed_without_error(text, language):
    found = analyse_text(text, language)
    found.to_json()
    assert len(strip_comments(text, language)) == len(text)


@pytest.mark.parametrize("name, text, reported", [
    ("envread.sh", 'echo "$CLAUDE_TOOL_INPUT" | grep -q "rm -rf" && exit 2\nexit 0\n', True),
    ("env.py", 'import os, sys\nif "rm -rf" in os.environ.get("CLAUDE_TOOL_INPUT", ""):\n    sys.exit(2)\n', True),
    ("set.sh", 'CLAUDE_TOOL_INPUT=$(cat)\necho "$CLAUDE_TOOL_INPUT" | grep -q "rm -rf" && exit 2\nexit 0\n', False),
    ("stdin.py", 'import json, sys\njson.load(sys.stdin)\n', False),
])
def test_a_script_that_reads_its_input_from_a_variable_claude_code_never_sets(tmp_path, name, text, reported):
    base = tmp_path / "p"
    runner = "python3 " if name.endswith(".py") else ""
    command = runner + _write(base, f".claude/hooks/{name}", text).split(" ", 1)[-1]
    hits = found(doctor(base, {S: settings("PreToolUse", matcher="Bash", command=command)}),
                 "command/input-variable-never-set")
    assert bool(hits) == reported
    if reported:
        assert hits[0].path == str(base / ".claude/hooks" / name) and "CLAUDE_TOOL_INPUT" in hits[0].message


def test_where_a_script_reads_an_input_field_does_not_depend_on_the_processs_string_hashing(tmp_path):
    # two variables parsed from JSON read the same field: the field's place is the first variable's
    # read, in every process (a set of the variables once made it each process's own)
    script = tmp_path / "two.js"
    script.write_text('const a = JSON.parse(require("fs").readFileSync(0, "utf8"));\n'
                      "const b = JSON.parse(process.argv[2]);\nconsole.log(b.tool_name, a.tool_name);\n")
    program = ("import sys\nfrom hookwright.doctor.scripts.keys import analyse_text\n"
               "print(analyse_text(open(sys.argv[1]).read(), 'javascript').flow.input_reads)")
    places = {subprocess.run([sys.executable, "-c", program, str(script)], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(6)}
    assert places == {"(('tool_name', Place(line=3, column=26)),)\n"}


def test_reading_a_python_script_with_an_invalid_escape_warns_of_nothing():
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        facts = analyse_text('import json, sys\nprint(json.dumps({"p": "a\\/b"}))\n', "python")
    assert caught == [] and facts.flow.syntax_error is None


@pytest.mark.parametrize("fields, reported", [({"async": True}, True), ({}, False),
                                              ({"async": True, "asyncRewake": True}, False)],
                         ids=["async", "in the foreground", "asyncRewake"])
def test_a_guard_run_in_the_background_is_reported(tmp_path, fields, reported):
    """An async hook's answer is never read (the e2e scenario "an async deny": the call ran):
    reported at the handler's "async" key, the line to change, with the script's exit as related."""
    base = tmp_path / "p"
    command = _write(base, ".claude/hooks/guard.py", 'import sys\nprint("no", file=sys.stderr)\nsys.exit(2)\n')
    config = settings("PreToolUse", matcher="Bash", command=command)
    config["hooks"]["PreToolUse"][0]["hooks"][0].update(fields)
    found_here = found(doctor(base, {S: config}), "script/async-answer-never-read")
    written = json.dumps(config, indent=2).splitlines()
    async_line = next((n for n, text in enumerate(written, 1) if '"async"' in text), None)
    assert [(Path(f.path).name, f.line) for f in found_here] == ([("settings.json", async_line)] if reported else [])
    assert [(Path(r["path"]).name, r["line"]) for f in found_here for r in f.related] == (
        [("guard.py", 3)] if reported else [])


def test_a_guard_in_the_background_whose_block_is_its_main_functions_return_value_is_reported(tmp_path):
    """`return 2` from main(), ended by sys.exit(main()): the flow follows the status to exit 2."""
    base = tmp_path / "p"
    guard = ('import json, sys\n\ndef main():\n    if "rm" in json.load(sys.stdin)["tool_input"]["command"]:\n'
             '        print("no", file=sys.stderr)\n        return 2\n    return 0\n\nsys.exit(main())\n')
    command = _write(base, ".claude/hooks/guard.py", guard)
    config = settings("PreToolUse", matcher="Bash", command=command)
    config["hooks"]["PreToolUse"][0]["hooks"][0]["async"] = True
    found_here = found(doctor(base, {S: config}), "script/async-answer-never-read")
    assert [(Path(r["path"]).name, r["line"]) for f in found_here for r in f.related] == [("guard.py", 6)]


def test_a_stop_hook_that_adds_context_without_reading_stop_hook_active_is_reported(tmp_path):
    """A Stop hook's additionalContext sends Claude back to work (the e2e scenario "stop:
    additionalContext keeps Claude going"), so it loops as a block does."""
    base = tmp_path / "p"
    body = 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "run the tests"}}))\n'
    command = _write(base, ".claude/hooks/more.py", "import json, sys\n" + body)
    (finding,) = found(doctor(base, {S: settings("Stop", matcher=None, command=command)}), "script/stop-hook-active")
    assert "sends Claude back to work" in finding.message
    guarded = 'if json.load(sys.stdin).get("stop_hook_active"):\n    sys.exit(0)\n' + body
    command = _write(base, ".claude/hooks/more.py", "import json, sys\n" + guarded)
    assert not found(doctor(base, {S: settings("Stop", matcher=None, command=command)}), "script/stop-hook-active")
