"""doctor reads a Cursor hooks.json the way Cursor does (installer/hosts/cursor/protocol.py): what
each event's matcher is tested against, which fields an entry has and where they matter; and two
Claude Code traps: an http header's variables and a plugin manifest naming its default hooks file."""
from __future__ import annotations

import json

import pytest
from doctor_support import doctor, found, settings, write
from hookwright.hooks.events import CURSOR_EVENTS
from hookwright.hosts.cursor import protocol as cursor_protocol


def cursor(event: str, **entry) -> dict:
    return {".cursor/hooks.json": {"version": 1, "hooks": {event: [{"command": "./x.sh", **entry}]}}}


# ---- the protocol table ----------------------------------------------------------------------

def test_the_protocol_has_one_row_per_cursor_event_and_none_for_others():
    assert set(cursor_protocol.PROTOCOL) == CURSOR_EVENTS
    assert cursor_protocol.protocol("PreToolUse") is None


def test_the_protocol_says_what_ask_does_where_permission_is_read():
    assert cursor_protocol.protocol("preToolUse").ask == cursor_protocol.NOT_ENFORCED
    assert cursor_protocol.protocol("subagentStart").ask == cursor_protocol.DENIES
    assert cursor_protocol.protocol("beforeShellExecution").ask == cursor_protocol.ASKS
    assert cursor_protocol.protocol("stop").permissions is None
    assert "conversation_id" in cursor_protocol.protocol("stop").stdin_fields
    assert "conversation_id" not in cursor_protocol.protocol("workspaceOpen").stdin_fields


# ---- matchers on the command text --------------------------------------------------------------

@pytest.mark.parametrize("matcher", ["Shell", "^Bash$", "Shell|Read"])
def test_a_tool_name_as_a_shell_execution_matcher_is_a_warning(tmp_path, matcher):
    (finding,) = found(doctor(tmp_path / "p", cursor("beforeShellExecution", matcher=matcher)),
                       "host/cursor-command-matcher-names-tool")
    assert finding.severity == "warning" and "command text" in finding.message


def test_a_lone_shell_matcher_is_told_to_go(tmp_path):
    (finding,) = found(doctor(tmp_path / "p", cursor("afterShellExecution", matcher="Shell")),
                       "host/cursor-command-matcher-names-tool")
    assert finding.hint.startswith("remove the matcher")


@pytest.mark.parametrize("event, matcher", [("beforeShellExecution", "git\\s+push|rm -rf"),
                                            ("preToolUse", "Shell"), ("beforeShellExecution", "Shellcheck")])
def test_a_command_pattern_or_a_tool_matcher_on_a_tool_event_is_fine(tmp_path, event, matcher):
    assert not found(doctor(tmp_path / "p", cursor(event, matcher=matcher)), "host/cursor-command-matcher-names-tool")


def test_a_matcher_that_misses_a_literal_events_value_never_fires(tmp_path):
    (finding,) = found(doctor(tmp_path / "p", cursor("stop", matcher="Shell")), "host/cursor-matcher-misses-literal")
    assert '"Stop"' in finding.message


@pytest.mark.parametrize("event, matcher", [("stop", "Stop"), ("beforeSubmitPrompt", "UserPrompt"),
                                            ("stop", ".*"), ("stop", "*"), ("afterFileEdit", "Write")])
def test_a_matcher_that_matches_the_literal_or_another_subject_is_quiet(tmp_path, event, matcher):
    assert not found(doctor(tmp_path / "p", cursor(event, matcher=matcher)), "host/cursor-matcher-misses-literal")


# ---- Claude Code event names in Cursor's spelling ------------------------------------------------

@pytest.mark.parametrize("event, renamed", [("userPromptSubmit", "beforeSubmitPrompt"), ("PreToolUse", "preToolUse"),
                                            ("pre_tool_use", "preToolUse"), ("permissionRequest", None),
                                            ("notification", None), ("STOP", "stop")])
def test_claude_event_names_in_any_case_are_reported(tmp_path, event, renamed):
    (finding,) = found(doctor(tmp_path / "p", cursor(event)), "host/cursor-claude-event")
    assert (f'rename it to "{renamed}"' == finding.hint) if renamed else "no such event" in finding.hint


@pytest.mark.parametrize("event", ["preToolUse", "stop", "subagentStart", "beforeSubmitPrompt"])
def test_cursors_own_event_names_are_not_claude_names(tmp_path, event):
    assert not found(doctor(tmp_path / "p", cursor(event)), "host/cursor-claude-event")


# ---- fields Cursor does not read ----------------------------------------------------------------

@pytest.mark.parametrize("field, value", [("async", True), ("statusMessage", "checking"), ("once", True),
                                          ("if", "Bash(git *)"), ("args", ["-x"]), ("shell", "bash")])
def test_a_claude_handler_field_in_a_cursor_entry_is_a_warning_not_an_unknown_key(tmp_path, field, value):
    out = doctor(tmp_path / "p", cursor("preToolUse", **{field: value}))
    (finding,) = found(out, "host/cursor-claude-field")
    assert finding.severity == "warning" and f'"{field}"' in finding.message
    assert not found(out, "structure/handler-unknown-key")


def test_cursors_own_fields_are_no_claude_fields(tmp_path):
    entry = {"matcher": "Shell", "timeout": 10, "failClosed": True}
    assert not found(doctor(tmp_path / "p", cursor("preToolUse", **entry)), "host/cursor-claude-field")


@pytest.mark.parametrize("event, field, value", [("preToolUse", "loop_limit", 5), ("afterFileEdit", "failClosed", True),
                                                 ("stop", "failClosed", True), ("stop", "model", "fast")])
def test_a_field_the_event_never_uses_is_a_warning(tmp_path, event, field, value):
    (finding,) = found(doctor(tmp_path / "p", cursor(event, **{field: value})), "host/cursor-field-no-effect")
    assert f'"{field}"' in finding.message and event in finding.message


@pytest.mark.parametrize("event, entry", [("stop", {"loop_limit": 5}), ("subagentStop", {"loop_limit": None}),
                                          ("beforeReadFile", {"failClosed": True}),
                                          ("afterFileEdit", {"failClosed": False}),
                                          ("stop", {"type": "prompt", "prompt": "done?", "model": "fast"})])
def test_a_field_where_the_event_uses_it_is_quiet(tmp_path, event, entry):
    assert not found(doctor(tmp_path / "p", cursor(event, **entry)), "host/cursor-field-no-effect")


# ---- Claude Code http hooks: variables in headers --------------------------------------------------

def http(headers: dict, **fields) -> dict:
    return settings(type="http", command=None, url="https://example.test/hook", headers=headers, **fields)


@pytest.mark.parametrize("value", ["Bearer $TOKEN", "Bearer ${TOKEN}"])
def test_a_header_variable_not_in_allowed_env_vars_is_sent_empty(tmp_path, value):
    out = doctor(tmp_path / "p", {".claude/settings.json": http({"Authorization": value}, allowedEnvVars=["OTHER"])})
    (finding,) = found(out, "structure/http-header-variable-not-allowed")
    assert finding.severity == "error" and "$TOKEN" in finding.message


def test_a_header_variable_without_any_allowed_env_vars_says_so(tmp_path):
    out = doctor(tmp_path / "p", {".claude/settings.json": http({"Authorization": "Bearer $TOKEN"})})
    (finding,) = found(out, "structure/http-header-variable-not-allowed")
    assert "no allowedEnvVars" in finding.message


def test_a_listed_header_variable_or_a_plain_header_is_fine(tmp_path):
    listed = http({"Authorization": "Bearer $TOKEN", "X-Team": "core"}, allowedEnvVars=["TOKEN"])
    out = doctor(tmp_path / "p", {".claude/settings.json": listed})
    assert not found(out, "structure/http-header-variable-not-allowed")
    assert not found(out, "structure/http-header-variable-not-in-settings")


def test_a_header_variable_the_settings_limit_leaves_out_is_a_warning(tmp_path):
    limited = {**http({"Authorization": "Bearer $TOKEN"}, allowedEnvVars=["TOKEN"]), "httpHookAllowedEnvVars": ["OTHER"]}
    (finding,) = found(doctor(tmp_path / "p", {".claude/settings.json": limited}),
                       "structure/http-header-variable-not-in-settings")
    assert finding.severity == "warning"


def test_a_header_variable_any_settings_file_allows_is_fine(tmp_path):
    files = {".claude/settings.json": {**http({"Authorization": "Bearer $TOKEN"}, allowedEnvVars=["TOKEN"]),
                                       "httpHookAllowedEnvVars": ["OTHER"]},
             ".claude/settings.local.json": {"httpHookAllowedEnvVars": ["TOKEN"]}}
    assert not found(doctor(tmp_path / "p", files), "structure/http-header-variable-not-in-settings")


# ---- plugin manifests ----------------------------------------------------------------------------

HOOKS = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done"}]}]}}


def plugin(tmp_path, manifest_hooks):
    """doctor on a plugin's hooks/hooks.json, beside a manifest whose "hooks" is `manifest_hooks`."""
    root = tmp_path / "plugin"
    write(root, {".claude-plugin/plugin.json": {"name": "demo", "hooks": manifest_hooks}, "hooks/extra.json": HOOKS})
    return doctor(root, {"hooks/hooks.json": HOOKS})


@pytest.mark.parametrize("named", ["./hooks/hooks.json", "hooks/hooks.json", ["./hooks/extra.json", "./hooks/hooks.json"]])
def test_a_manifest_naming_the_default_hooks_file_loads_it_twice(tmp_path, named):
    (finding,) = found(plugin(tmp_path, named), "structure/plugin-manifest-names-default-hooks")
    assert finding.path.endswith("plugin.json") and finding.severity == "warning"
    assert json.dumps("./hooks/hooks.json" if isinstance(named, list) else named) in finding.message


@pytest.mark.parametrize("named", ["./hooks/extra.json", ["./hooks/hooks-cursor.json"]])
def test_a_manifest_naming_other_hook_files_is_fine(tmp_path, named):
    out = plugin(tmp_path, named)
    assert not found(out, "structure/plugin-manifest-names-default-hooks")


# ---- what a Cursor hook reads of its input ---------------------------------------------------------

READS = {  # a prompt gate that reads a tool call's command, in each way a script reads its input
    "gate.sh": "#!/bin/bash\nINPUT=$(cat)\nCMD=$(printf '%s' \"$INPUT\" | jq -r '.{field}.command // empty' 2>/dev/null)\n"
               "case \"$CMD\" in *secret*) echo '{\"continue\": false}'; exit 0;; esac\necho '{}'\n",
    "gate.py": "import json, sys\ncommand = json.load(sys.stdin).get(\"{field}\", {}).get(\"command\", \"\")\n"
               "print(json.dumps({\"continue\": \"secret\" not in command}))\n",
    "gate.js": "const { {field} } = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
               "console.log(JSON.stringify({continue: !String({field}).includes('secret')}));\n",
    "guarded.py": "import json, sys\ntry:\n    data = json.loads(sys.stdin.read())\nexcept ValueError:\n    data = {}\n"
                  "print(json.dumps({\"continue\": \"secret\" not in str(data.get(\"{field}\"))}))\n",
}
RUN = {"gate.sh": "bash .cursor/hooks/gate.sh", "gate.py": "python3 .cursor/hooks/gate.py",
       "gate.js": "node .cursor/hooks/gate.js", "guarded.py": "python3 .cursor/hooks/guarded.py"}


def cursor_script(tmp_path, name: str, event: str, field: str):
    """doctor on a project whose Cursor `event` runs the script `name`, reading `field` of its input."""
    base = tmp_path / "p"
    write(base, {f".cursor/hooks/{name}": READS[name].replace("{field}", field)})
    return doctor(base, {".cursor/hooks.json": {"version": 1, "hooks": {event: [{"command": RUN[name]}]}}})


@pytest.mark.parametrize("name", sorted(READS))
def test_a_prompt_hook_reading_a_tool_calls_input_is_told_the_event_never_sends_it(tmp_path, name):
    (finding,) = found(cursor_script(tmp_path, name, "beforeSubmitPrompt", "tool_input"), "script/input-field-never-sent")
    assert finding.path.endswith(name) and "beforeSubmitPrompt never sends it" in finding.message


@pytest.mark.parametrize("name", sorted(READS))
def test_a_hook_reading_what_its_event_sends_is_quiet(tmp_path, name):
    assert not found(cursor_script(tmp_path, name, "preToolUse", "tool_input"), "script/input-field-never-sent")


READ_GUARDS = {  # a beforeReadFile guard that denies .env files, reading the path as {path} says
    "read-guard.sh": "#!/bin/bash\nFILE=$(jq -r '{path} // empty')\n"
                     "case \"$FILE\" in *.env) echo '{\"permission\": \"deny\"}';; *) echo '{\"permission\": \"allow\"}';; esac\n",
    "read-guard.py": "import json, sys\ndata = json.load(sys.stdin)\npath = {path}\n"
                     "print(json.dumps({\"permission\": \"deny\" if path.endswith(\".env\") else \"allow\"}))\n",
    "read-guard.js": "const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));\nconst file = {path};\n"
                     "console.log(JSON.stringify({permission: file.endsWith('.env') ? 'deny' : 'allow'}));\n",
}
READ_BY = {  # how each language reads the file's path: (the last word of file_path alone, file_path, a fallback)
    "read-guard.sh": (".path", ".file_path", "(.file_path // .path)"),
    "read-guard.py": ('data.get("path", "")', 'data.get("file_path", "")', 'data.get("file_path") or data.get("path", "")'),
    "read-guard.js": ("data.path || ''", "data.file_path || ''", "data.file_path || data.path || ''"),
}
RUN_GUARD = {"read-guard.sh": "bash .cursor/hooks/read-guard.sh", "read-guard.py": "python3 .cursor/hooks/read-guard.py",
             "read-guard.js": "node .cursor/hooks/read-guard.js"}


def read_guard(tmp_path, name: str, form: int, event: str = "beforeReadFile"):
    base = tmp_path / "p"
    write(base, {f".cursor/hooks/{name}": READ_GUARDS[name].replace("{path}", READ_BY[name][form])})
    return doctor(base, {".cursor/hooks.json": {"version": 1, "hooks": {event: [{"command": RUN_GUARD[name]}]}}})


@pytest.mark.parametrize("name", sorted(READ_GUARDS))
def test_a_read_guard_reading_path_where_cursor_sends_file_path_is_told_the_field_it_means(tmp_path, name):
    """Cursor's beforeReadFile sends `file_path` (docs/hosts/cursor.md#events): a guard reading
    `path` always sees it missing and allows every read."""
    (finding,) = found(read_guard(tmp_path, name, 0), "script/input-field-never-sent")
    assert finding.path.endswith(name) and finding.line in (2, 3) and "did you mean file_path?" in finding.message


@pytest.mark.parametrize("form", [1, 2])
@pytest.mark.parametrize("name", sorted(READ_GUARDS))
def test_a_read_guard_reading_file_path_or_falling_back_to_path_is_quiet(tmp_path, name, form):
    assert not found(read_guard(tmp_path, name, form), "script/input-field-never-sent")


def test_a_name_that_ends_a_field_every_event_sends_is_no_typo_of_it(tmp_path):
    """`path` also ends transcript_path, which every event sends: only a field of the event's own
    is taken for what a name means, so an afterShellExecution hook's `path` is not told of it."""
    hits = found(read_guard(tmp_path, "read-guard.py", 0, "afterShellExecution"), "script/input-field-never-sent")
    assert not any("transcript_path" in hit.message for hit in hits)


@pytest.mark.parametrize("command", [
    """jq -r '"\\(.command) - \\(.tool_input.description // "none")"' >> ~/agent.log""",  # in a string's \(...)
    """jq -r '[.command, .tool_input.description] | @tsv' >> ~/agent.log""",
    """jq -e 'select(.tool_input.command | test("rm"))' >/dev/null && exit 2 || exit 0""",
])
def test_every_field_a_jq_filter_reads_of_the_input_is_judged(tmp_path, command):
    config = {"version": 1, "hooks": {"beforeShellExecution": [{"command": command}]}}
    (finding,) = found(doctor(tmp_path / "p", {".cursor/hooks.json": config}), "script/input-field-never-sent")
    assert "reads tool_input" in finding.message and "beforeShellExecution never sends it" in finding.message


@pytest.mark.parametrize("command", [
    """jq -r '.command | "\\(.tool_input)"' >> ~/agent.log""",  # after a |, `.` is no longer the input
    """jq -r '.command + " " + (.cwd // "")' >> ~/agent.log""",
    """jq -r 'map(.tool_input) | length' >> ~/agent.log""",  # map's argument reads each element
    """jq -r '.tool_input.command' saved.json >> ~/agent.log""",  # a file, not the hook's input
    """jq -n --arg c "$(cat)" '{tool_input: $c}' >> ~/agent.log""",  # -n: no input
])
def test_jq_reading_what_the_event_sends_or_something_else_is_quiet(tmp_path, command):
    config = {"version": 1, "hooks": {"beforeShellExecution": [{"command": command}]}}
    assert not found(doctor(tmp_path / "p", {".cursor/hooks.json": config}), "script/input-field-never-sent")


@pytest.mark.parametrize("exit_status, reported", [(0, True), (2, False)])
def test_a_cursor_answer_on_stderr_is_lost_unless_exit_2_blocks(tmp_path, exit_status, reported):
    command = f"""echo '{{"permission": "deny", "user_message": "no"}}' >&2; exit {exit_status}"""
    config = {"version": 1, "hooks": {"beforeShellExecution": [{"command": command}]}}
    hits = found(doctor(tmp_path / "p", {".cursor/hooks.json": config}), "script/answer-on-stderr")
    assert bool(hits) == reported and all("Cursor reads the answer from stdout" in h.message for h in hits)


# ---- an output Cursor replaces for MCP tools only ----------------------------------------------------

REPLACES_OUTPUT = 'import json, sys\njson.load(sys.stdin)\nprint(json.dumps({"updated_mcp_tool_output": {"text": "redacted"}}))\n'


@pytest.mark.parametrize("matcher, said", [("Shell", True), ("Shell|Read", True), ("MCP:query", False),
                                           ("MCP:.*|Shell", False), (None, False), ("Sh.*", False)])
def test_updated_mcp_tool_output_from_a_post_tool_use_hook_matching_no_mcp_tool_is_found_at_the_answer(
        tmp_path, matcher, said):
    """Cursor replaces the output of MCP tools only (docs/hosts/cursor.md#answer-fields): a matcher
    naming built-in tool types alone never reaches one; one that may is left alone."""
    entry = {"command": "python3 .cursor/hook.py", **({"matcher": matcher} if matcher is not None else {})}
    files = {".cursor/hooks.json": {"version": 1, "hooks": {"postToolUse": [entry]}}, ".cursor/hook.py": REPLACES_OUTPUT}
    hits = found(doctor(tmp_path, files), "script/output-rewrite-ignored")
    assert [(hit.path.endswith("hook.py"), hit.line, "MCP tools only" in hit.message) for hit in hits] == (
        [(True, 3, True)] if said else [])


# ---- a refusal printed as JSON, then exit 1 (docs/hosts/cursor.md#exit-codes: the JSON is read on exit 0) ----

CURSOR_DENY = {
    "shell": ('#!/bin/bash\ninput=$(cat)\nif echo "$input" | grep -q "rm -rf"; then\n'
              '  echo \'{"permission": "deny", "user_message": "no rm -rf"}\'\n  exit {status}\nfi\n'
              'echo \'{"permission": "allow"}\'\n', "bash .cursor/guard.sh", "guard.sh", 5),
    "python": ('import json, sys\ndata = json.load(sys.stdin)\nif "rm -rf" in data.get("command", ""):\n'
               '    print(json.dumps({{"permission": "deny", "user_message": "no rm -rf"}}))\n    sys.exit({status})\n',
               "python3 .cursor/guard.py", "guard.py", 5),
    "node": ('const input = JSON.parse(require("fs").readFileSync(0, "utf8"));\n'
             'if (input.command.includes("rm -rf")) {{\n'
             '  console.log(JSON.stringify({{ permission: "deny", user_message: "no rm -rf" }}));\n'
             '  process.exit({status});\n}}\n', "node .cursor/guard.js", "guard.js", 4),
}


@pytest.mark.parametrize("language", CURSOR_DENY)
def test_a_cursor_deny_printed_as_json_then_exit_1_is_found_at_the_exit_and_its_exit_0_twin_is_quiet(tmp_path, language):
    script, command, name, line = CURSOR_DENY[language]

    def guard(folder, status, **entry):
        files = {".cursor/hooks.json": {"version": 1, "hooks": {"beforeShellExecution": [{"command": command, **entry}]}},
                 f".cursor/{name}": script.replace("{status}", str(status)) if language == "shell"
                 else script.format(status=status)}
        return found(doctor(tmp_path / folder, files, given=False), "script/exit-1-fails-open")

    [hit] = guard("bad", 1)
    assert (hit.path.endswith(name), hit.line) == (True, line) and "Cursor reads the JSON answer on exit 0 alone" in hit.message
    assert guard("good", 0) == []
    assert guard("closed", 1, failClosed=True) == []  # (a failure blocks there: the deny holds)


def test_a_claude_code_deny_printed_as_json_then_exit_1_is_quiet_for_claude_code_reads_it(tmp_path):
    script = CURSOR_DENY["python"][0].replace('"permission": "deny", "user_message": "no rm -rf"',
                                               '"hookSpecificOutput": {{"hookEventName": "PreToolUse", '
                                               '"permissionDecision": "deny", "permissionDecisionReason": "no"}}')
    files = {".claude/settings.json": settings(command='python3 "$CLAUDE_PROJECT_DIR"/.claude/guard.py'),
             ".claude/guard.py": script.format(status=1).replace('data.get("command", "")', 'str(data)')}
    assert found(doctor(tmp_path, files, given=False), "script/exit-1-fails-open") == []


# ---- a refusal in the field its event does not read; plain text where Cursor reads JSON -----------

DLP = ('import json, re, sys\npayload = json.load(sys.stdin)\ntext = payload.get("prompt", "") + payload.get("command", "")\n'
       'if re.search(r"sk_live_", text):\n    print(json.dumps({ANSWER}))\nelse:\n    print(json.dumps({{"permission": "allow"}}))\n')
DENY = '{{"permission": "deny", "user_message": "a key"}}'
BY_EVENT = ('{{"continue": False, "user_message": "a key"}} if payload.get("hook_event_name") == "beforeSubmitPrompt" '
            'else {{"permission": "deny", "user_message": "a key"}}')


def _cursor_script(tmp_path, folder, events, script, name="dlp.py"):
    files = {".cursor/hooks.json": {"version": 1, "hooks": {event: [{"command": f"python3 .cursor/{name}"}]
                                                         for event in events}},
             f".cursor/{name}": script}
    return doctor(tmp_path / folder, files, given=False)


def test_a_permission_deny_answered_to_before_submit_prompt_is_found_at_the_refusal(tmp_path):
    outcome = _cursor_script(tmp_path, "bad", ["beforeSubmitPrompt", "beforeShellExecution"], DLP.format(ANSWER=DENY))
    (hit,) = found(outcome, "script/cursor-refusal-not-read")
    assert (hit.line, hit.severity) == (5, "error") and "beforeSubmitPrompt" in hit.message and '"continue": false' in hit.hint


@pytest.mark.parametrize("events, answer", [
    (["beforeSubmitPrompt", "beforeShellExecution"], BY_EVENT),  # (each event gets its own refusal)
    (["beforeShellExecution", "beforeReadFile"], DENY),  # (both read permission)
])
def test_a_refusal_each_event_reads_is_quiet(tmp_path, events, answer):
    assert found(_cursor_script(tmp_path, "good", events, DLP.format(ANSWER=answer)), "script/cursor-refusal-not-read") == []


def test_continue_false_answered_to_a_permission_event_is_found(tmp_path):
    answer = '{{"continue": False, "user_message": "a key"}}'
    outcome = _cursor_script(tmp_path, "bad", ["beforeShellExecution"], DLP.format(ANSWER=answer).replace(
        '{"permission": "allow"}', '{}'))
    (hit,) = found(outcome, "script/cursor-refusal-not-read")
    assert "refuses with continue" in hit.message and '"permission": "deny"' in hit.hint


CONTEXT = '#!/bin/bash\ncat >/dev/null\n{PRINT}\nexit 0\n'


def test_plain_text_from_a_session_start_hook_is_found_where_it_is_printed(tmp_path):
    outcome = _cursor_script(tmp_path, "bad", ["sessionStart"], CONTEXT.format(PRINT='echo "Deploy freeze until Monday"'),
                             "context.sh")
    (hit,) = found(outcome, "script/cursor-text-not-json")
    assert hit.line == 3 and "additional_context" in hit.hint


@pytest.mark.parametrize("event, printed", [
    ("sessionStart", 'jq -n --arg c "Deploy freeze" \'{additional_context: $c}\''),
    ("sessionStart", 'echo \'{"additional_context": "Deploy freeze until Monday"}\''),
    ("afterFileEdit", 'echo "formatted"'),  # (an event that reads no answer)
])
def test_json_or_text_where_no_answer_is_read_is_quiet(tmp_path, event, printed):
    outcome = _cursor_script(tmp_path, "good", [event], CONTEXT.format(PRINT=printed), "context.sh")
    assert found(outcome, "script/cursor-text-not-json") == []


GUARD = ('const input = JSON.parse(require("fs").readFileSync(0, "utf8"));\n'
         'if (/\\.env$/.test(input.file_path || "")) {\n  console.error(`${input.file_path} holds credentials`);\n'
         '  process.exit(STATUS);\n}\nprocess.stdout.write(JSON.stringify({ permission: "allow" }));\n')


@pytest.mark.parametrize("status, reported", [(1, True), (2, False)])
def test_a_guard_whose_only_answer_is_allow_refusing_with_exit_1_fails_open(tmp_path, status, reported):
    files = {".cursor/hooks.json": {"version": 1, "hooks": {"beforeReadFile": [{"command": "node .cursor/g.js"}]}},
             ".cursor/g.js": GUARD.replace("STATUS", str(status))}
    hits = found(doctor(tmp_path / str(status), files, given=False), "script/exit-1-fails-open")
    assert [(hit.line, "Cursor" in hit.message) for hit in hits] == ([(4, True)] if reported else [])


# ---- a guard on a Cursor event that cannot block ---------------------------------------------------

SHELL_GUARDS = {  # a guard of destructive commands, refusing with permission deny
    "guard.sh": "#!/bin/bash\ncmd=$(jq -r '.command // empty')\nif [[ $cmd == *'rm -rf'* ]]; then\n"
                "  echo '{\"permission\": \"deny\", \"user_message\": \"no\", \"agent_message\": \"no\"}'\n  exit 0\nfi\n"
                "echo '{\"permission\": \"allow\"}'\n",
    "guard.py": "import json, sys\ncmd = json.load(sys.stdin).get('command', '')\nif 'rm -rf' in cmd:\n"
                "    print(json.dumps({'permission': 'deny', 'user_message': 'no'}))\n",
    "guard.js": "const { command } = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
                "if (command.includes('rm -rf')) console.log(JSON.stringify({ permission: 'deny', user_message: 'no' }));\n",
}
RUN_SHELL_GUARD = {"guard.sh": "bash .cursor/hooks/guard.sh", "guard.py": "python3 .cursor/hooks/guard.py",
                   "guard.js": "node .cursor/hooks/guard.js"}


def shell_guard(tmp_path, name: str, event: str):
    base = tmp_path / "p"
    write(base, {f".cursor/hooks/{name}": SHELL_GUARDS[name]})
    return doctor(base, {".cursor/hooks.json": {"version": 1, "hooks": {event: [{"command": RUN_SHELL_GUARD[name]}]}}})


@pytest.mark.parametrize("name", sorted(SHELL_GUARDS))
def test_a_guard_on_after_shell_execution_is_said_once_at_its_event_with_the_event_before_it(tmp_path, name):
    """afterShellExecution runs once the command has run and reads no answer (Cursor's hooks docs,
    docs/hosts/cursor.md#events): the fix is the event the hook is registered on."""
    (finding,) = found(shell_guard(tmp_path, name, "afterShellExecution"), "script/cursor-field-not-read")
    assert finding.path.endswith("hooks.json") and finding.line == 4 and finding.keys == ("hooks", "afterShellExecution")
    assert "cannot block" in finding.message and "beforeShellExecution" in finding.hint
    assert finding.related[0]["path"].endswith(name)


@pytest.mark.parametrize("name", sorted(SHELL_GUARDS))
def test_the_same_guard_on_before_shell_execution_is_quiet(tmp_path, name):
    assert not found(shell_guard(tmp_path, name, "beforeShellExecution"), "script/cursor-field-not-read")


def test_a_guard_on_after_file_edit_is_told_the_events_that_read_its_refusal(tmp_path):
    (finding,) = found(shell_guard(tmp_path, "guard.py", "afterFileEdit"), "script/cursor-field-not-read")
    assert "beforeReadFile" in finding.hint and "preToolUse" in finding.hint
