"""Codex's own rules in doctor, each a broken hook and its corrected twin (docs/hosts/codex.md,
measured on 0.171.0: tests/e2e/test_codex_rules_e2e.py): answers a PreToolUse hook cannot give,
an exit 2 without its reason, a rewrite on an event that does not apply it, and the places of a
hooks file Codex reads and never runs."""
from __future__ import annotations

import json
import textwrap

import pytest
from doctor_support import doctor, found

CODEX = ".codex/hooks.json"
GUARD = "python3 .codex/guard.py"


def codex(tmp_path, script: str, event: str = "PreToolUse", name: str = "guard.py", command: str = GUARD):
    files = {CODEX: {"hooks": {event: [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}},
             f".codex/{name}": textwrap.dedent(script).lstrip("\n")}
    return doctor(tmp_path, files)


def guard(answer: str) -> str:
    return f"""
    import json, sys
    data = json.load(sys.stdin)
    if "rm -rf" in data["tool_input"]["command"]:
        {answer}
    """


DENY = 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}))'


@pytest.mark.parametrize("bad", [
    'print(json.dumps({"continue": False, "stopReason": "rm -rf is not allowed"}))',
    'print(json.dumps({"decision": "block", "reason": "no", "suppressOutput": True}))',
    'print(json.dumps({"stopReason": "no", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}))',
], ids=["continue-false", "suppress-output", "stop-reason-beside-a-deny"])
def test_an_answer_key_codex_refuses_on_pre_tool_use_is_found_where_it_is_written(tmp_path, bad):
    [hit] = found(codex(tmp_path / "bad", guard(bad)), "script/answer-rejected")
    assert (hit.line, "hook as failed" in hit.message) == (4, True)
    twin = bad.replace('"suppressOutput": True', '"suppressOutput": False') if "suppress" in bad else DENY
    assert found(codex(tmp_path / "good", guard(twin)), "script/answer-rejected") == []


SHELL_GUARD = """
#!/bin/bash
cmd=$(jq -r .tool_input.command)
if [[ $cmd == *"rm -rf"* ]]; then
  echo "rm -rf is not allowed"{to}
  exit 2
fi
"""


@pytest.mark.parametrize("language", ["python", "shell"])
def test_an_exit_2_whose_reason_goes_to_stdout_is_found_at_the_print_and_its_twin_on_stderr_is_quiet(tmp_path, language):
    if language == "python":
        bad, good = (guard('print("rm -rf is not allowed"{})\n        sys.exit(2)'.format(to)) for to in ("", ", file=sys.stderr"))
        name = "guard.py"
    else:
        bad, good = (SHELL_GUARD.format(to=to) for to in ("", " >&2"))
        name = "guard.sh"
    command = GUARD if language == "python" else "bash .codex/guard.sh"
    [hit] = found(codex(tmp_path / "bad", bad, name=name, command=command), "script/exit-2-without-reason")
    assert hit.line == 4 and "line 5" in hit.message
    assert found(codex(tmp_path / "good", good, name=name, command=command), "script/exit-2-without-reason") == []


@pytest.mark.parametrize("language", ["python", "shell"])
def test_a_codex_guard_that_refuses_by_exit_1_is_found_at_the_exit_and_its_exit_2_twin_is_quiet(tmp_path, language):
    # (Codex 0.171.0 runs the call on any exit but 2: docs/hosts/codex.md#output-protocol)
    if language == "python":
        bad, good = (guard(f'print("rm -rf is not allowed", file=sys.stderr)\n        sys.exit({status})')
                     for status in (1, 2))
        name, command = "guard.py", GUARD
    else:
        bad, good = (SHELL_GUARD.format(to=" >&2").replace("exit 2", f"exit {status}") for status in (1, 2))
        name, command = "guard.sh", "bash .codex/guard.sh"
    [hit] = found(codex(tmp_path / "bad", bad, name=name, command=command), "script/exit-1-fails-open")
    assert (hit.line, "Codex CLI" in hit.message) == (5, True)
    assert found(codex(tmp_path / "good", good, name=name, command=command), "script/exit-1-fails-open") == []


@pytest.mark.parametrize("key", ["permission_decision", "PermissionDecision"])
def test_a_misspelt_decision_makes_codex_reject_the_whole_answer_and_its_twin_is_quiet(tmp_path, key):
    # (a deny with a field Codex does not know let the call run on 0.171.0: docs/hosts/codex.md#output-protocol)
    [hit] = found(codex(tmp_path / "bad", guard(DENY.replace('"permissionDecision"', f'"{key}"'))),
                  "script/misspelt-field")
    assert hit.line == 4 and "Codex CLI takes no answer with a field it does not know" in hit.message
    assert found(codex(tmp_path / "good", guard(DENY)), "script/misspelt-field") == []
    # on PostToolUse (not measured) it is not said
    assert found(codex(tmp_path / "post", guard(DENY.replace('"permissionDecision"', f'"{key}"')), "PostToolUse"),
                 "script/misspelt-field") == []


def test_an_exit_2_without_reason_is_not_said_of_claude_code_which_blocks_on_it(tmp_path):
    bad = guard('print("no")\n        sys.exit(2)')
    files = {".claude/settings.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 .claude/guard.py"}]}]}}, ".claude/guard.py": textwrap.dedent(bad).lstrip("\n")}
    assert found(doctor(tmp_path, files), "script/exit-2-without-reason") == []


REWRITE = 'print(json.dumps({{"hookSpecificOutput": {{"hookEventName": "{event}", {allow}"updatedInput": {{"command": "echo no"}}}}}}))'


def test_a_rewrite_on_post_tool_use_is_found_and_its_twin_on_pre_tool_use_is_quiet(tmp_path):
    bad = guard(REWRITE.format(event="PostToolUse", allow=""))
    [hit] = found(codex(tmp_path / "bad", bad, event="PostToolUse"), "script/rewrite-not-applied")
    assert hit.line == 4 and "PreToolUse" in hit.message
    good = guard(REWRITE.format(event="PreToolUse", allow='"permissionDecision": "allow", '))
    assert found(codex(tmp_path / "good", good), "script/rewrite-not-applied") == []


def hooks(event: str, **handler) -> dict:
    return {CODEX: {"hooks": {event: [{"hooks": [{"type": "command", "command": "echo x", **handler}]}]}}}


@pytest.mark.parametrize("bad, good, line", [
    (hooks("Stopp"), hooks("Stop"), 3),
    (hooks("stop"), hooks("Stop"), 3),
    (hooks("PostToolUseFailure"), hooks("PostToolUse"), 3),
    (hooks("Notification"), hooks("Stop"), 3),
    (hooks("Stop", type="prompt", prompt="done?"), hooks("Stop"), 7),
    (hooks("SessionEnd", timeout=30), hooks("SessionEnd", timeout=3), 9),
    ({".codex/config.toml": '[[hooks.pre_tool_use]]\n[[hooks.pre_tool_use.hooks]]\ntype = "command"\ncommand = "x"\n'},
     {".codex/config.toml": '[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "x"\n'
                            '[hooks.state."/p/.codex/config.toml:pre_tool_use:0:0"]\ntrusted_hash = "sha256:00"\n'}, 1),
    ({CODEX: {"hooks": {"PreToolUse": [{"matcher": "Bash", "type": "command", "command": "x"}]}}},
     {CODEX: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}}}, 7),
    ({CODEX: {"hooks": {"Stop": [{"handlers": [{"type": "command", "command": "x"}]}]}}}, hooks("Stop"), 5),
    ({".codex/config.toml": '[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.handlers]]\ntype = "command"\n'
                            'command = "x"\n'},
     {".codex/config.toml": '[[hooks.PreToolUse]]\nmatcher = "Bash"\n\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n'
                            'command = "x"\n'}, 4),
    ({CODEX: {"hooks": {"Stop": [{"matcher": "x"}]}}}, {CODEX: {"hooks": {"Stop": [{"matcher": "x", "hooks": []}]}}}, 4),
], ids=["typo", "lower-case", "claude-event", "notification", "prompt-type", "session-end-timeout", "toml-event",
        "flat-handler", "handlers-list", "toml-handlers-table", "group-alone"])
def test_a_place_codex_reads_and_never_runs_is_found_and_its_twin_is_quiet(tmp_path, bad, good, line):
    """A matcher group with no "hooks" list loads as a group of no handler, its other keys
    ignored, and the file's other groups load (a flat Cursor-style handler, `handlers` in
    hooks.json or as a TOML table: measured on 0.171.0 with hooks/list, tests/e2e/test_codex_facts.py)."""
    bad = {name: json.dumps(value, indent=2) if isinstance(value, dict) else value for name, value in bad.items()}
    good = {name: json.dumps(value, indent=2) if isinstance(value, dict) else value for name, value in good.items()}
    [hit] = found(doctor(tmp_path / "bad", bad), "host/hook-never-loaded")
    assert hit.line == line
    assert found(doctor(tmp_path / "good", good), "host/hook-never-loaded") == []


@pytest.mark.parametrize("bad", ["Bash(git push*)", "Bash(rm:*)", "exec_command(rm -rf *)"])
def test_a_permission_rule_as_a_codex_matcher_is_found_and_the_tool_name_alone_is_quiet(tmp_path, bad):
    def matcher(raw):
        return {CODEX: {"hooks": {"PreToolUse": [{"matcher": raw, "hooks": [{"type": "command", "command": "x"}]}]}}}
    [hit] = found(doctor(tmp_path / "bad", matcher(bad)), "matcher/permission-rule")
    assert '"matcher": "Bash"' in hit.hint and 'no "if"' in hit.hint
    assert found(doctor(tmp_path / "good", matcher("Bash")), "matcher/permission-rule") == []


@pytest.mark.parametrize("read", ["data['tool_input'].get('{f}', '')", "data['tool_input']['{f}']",
                                  "data.get('tool_input', {{}}).get('{f}')"])
def test_a_codex_guard_reading_the_models_cmd_is_found_and_its_twin_reading_command_is_quiet(tmp_path, read):
    script = "import json, sys\ndata = json.load(sys.stdin)\ncmd = " + read + "\nif 'rm -rf' in cmd:\n    sys.exit(2)\n"
    [hit] = found(codex(tmp_path / "bad", script.format(f="cmd")), "script/input-field-renamed")
    assert hit.line == 3 and "tool_input.command" in hit.message
    assert found(codex(tmp_path / "good", script.format(f="command")), "script/input-field-renamed") == []


def test_a_shell_guard_reading_the_models_cmd_with_jq_is_found(tmp_path):
    bad = '#!/bin/bash\ncmd=$(jq -r .tool_input.cmd)\n[[ $cmd == *"rm -rf"* ]] && { echo no >&2; exit 2; }\nexit 0\n'
    [hit] = found(codex(tmp_path, bad, name="guard.sh", command="bash .codex/guard.sh"), "script/input-field-renamed")
    assert (hit.line, hit.column) == (2, 25)


EDIT_GUARD = "import json, sys\ndata = json.load(sys.stdin)\npath = data['tool_input'].get('{field}', '')\n" \
    "if '.env' in path:\n    print('no edits to .env', file=sys.stderr)\n    sys.exit(2)\n"


@pytest.mark.parametrize("matcher", ["Edit|Write", "apply_patch", "Write"])
def test_a_codex_edit_guard_reading_claudes_file_path_is_found_and_its_twin_reading_the_patch_is_quiet(
        tmp_path, matcher):
    def edit_guard(folder, field, matcher=matcher):
        files = {CODEX: {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": GUARD}]}]}},
                 ".codex/guard.py": EDIT_GUARD.format(field=field)}
        return found(doctor(tmp_path / folder, files), "script/tool-field-not-sent")

    [hit] = edit_guard("bad", "file_path")
    assert (hit.line, hit.severity) == (3, "error") and "apply_patch" in hit.message and "tool_input.command" in hit.message
    assert edit_guard("good", "command") == []
    assert edit_guard("every-tool", "file_path", matcher="*") == []  # (an MCP tool may send a file_path)
    assert edit_guard("mcp-too", "file_path", matcher="Edit|mcp__fs__write") == []


def test_an_edit_guard_claude_code_runs_too_is_left_alone_on_codex(tmp_path):
    hook = {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": GUARD}]}
    files = {CODEX: {"hooks": {"PreToolUse": [hook]}}, ".claude/settings.json": {"hooks": {"PreToolUse": [hook]}},
             ".codex/guard.py": EDIT_GUARD.format(field="file_path")}
    assert found(doctor(tmp_path, files), "script/tool-field-not-sent") == []


def test_continue_true_beside_a_deny_is_no_rejected_answer(tmp_path):
    both = DENY.replace('{"hookSpecificOutput"', '{"continue": True, "hookSpecificOutput"')
    assert found(codex(tmp_path, guard(both)), "script/answer-rejected") == []


def async_guard(tmp_path, answer: str, **handler):
    files = {CODEX: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": GUARD, **handler}]}]}}, ".codex/guard.py": textwrap.dedent(guard(answer)).lstrip("\n")}
    return doctor(tmp_path, {name: json.dumps(value, indent=2) if isinstance(value, dict) else value
                             for name, value in files.items()})


@pytest.mark.parametrize("answer", [DENY, 'print("no", file=sys.stderr)\n        sys.exit(2)',
                                    REWRITE.format(event="PreToolUse", allow='"permissionDecision": "allow", ')],
                         ids=["deny", "exit-2", "rewrite"])
def test_an_async_codex_guard_is_found_at_its_async_key_and_its_foreground_twin_is_quiet(tmp_path, answer):
    """Codex starts an async PreToolUse hook and goes on: its deny and its exit 2 let the call run
    (docs/hosts/codex.md#handler-fields, measured on 0.171.0)."""
    [hit] = found(async_guard(tmp_path / "bad", answer, **{"async": True}), "script/async-answer-never-read")
    assert hit.line == 10 and "Codex CLI does not wait" in hit.message and "asyncRewake" not in hit.hint
    assert found(async_guard(tmp_path / "good", answer, **{"async": False}), "script/async-answer-never-read") == []


def test_an_async_codex_hook_that_only_logs_is_no_finding(tmp_path):
    assert found(async_guard(tmp_path, 'open("log", "a").write("seen")', **{"async": True}),
                 "script/async-answer-never-read") == []


def nested(depth: int) -> str:
    """A hooks.json whose arrays and objects nest `depth` deep (the root one), in a key Codex does not read."""
    inner = "[" * (depth - 6) + "]" * (depth - 6)
    return ('{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo x",\n"notes": '
            + inner + '}]}]}}')


def test_a_hooks_json_nested_past_codexs_limit_is_dropped_and_one_level_less_loads(tmp_path):
    """Measured on 0.171.0 (docs/hosts/codex.md#file-format): 128 deep, "recursion limit exceeded"."""
    [hit] = found(doctor(tmp_path / "bad", {CODEX: nested(128)}), "host/file-dropped")
    assert hit.line == 2 and "recursion limit exceeded" in hit.message
    assert found(doctor(tmp_path / "good", {CODEX: nested(127)}), "host/file-dropped") == []


# ---- the command and script rules on Codex hooks (measured on 0.171.0: tests/e2e/test_codex_rules_e2e.py) ----

TREE = '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/.codex/hooks'
EXIT_2 = guard('print("rm -rf is not allowed", file=sys.stderr)\n        sys.exit(2)')


def codex_hook(tmp_path, command: str, scripts: dict[str, str], user: dict | None = None):
    """A git project whose .codex/hooks.json runs `command` on PreToolUse, its scripts in .codex/hooks/."""
    files = {".git": None, CODEX: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}},
             **{f".codex/hooks/{name}": textwrap.dedent(text).lstrip("\n") for name, text in scripts.items()}}
    return doctor(tmp_path, files, given=False) if user is None else doctor(tmp_path, {**files, **user}, given=False)


@pytest.mark.parametrize("rule, bad, good", [
    ("command/block-swallowed", f"python3 {TREE}/guard.py || true", f"python3 {TREE}/guard.py"),
    ("script/exit-2-without-reason", f"python3 {TREE}/guard.py 2>/dev/null", f"python3 {TREE}/guard.py"),
    ("command/text-beside-answer", f"echo checking && python3 {TREE}/deny.py", f"python3 {TREE}/deny.py"),
    ("command/relative-path", "python3 .codex/hooks/guard.py", f"python3 {TREE}/guard.py"),
], ids=["or-true", "stderr-to-null", "echo-before", "relative"])
def test_a_codex_command_that_loses_its_guards_answer_is_found_at_the_command_and_its_twin_is_quiet(
        tmp_path, rule, bad, good):
    scripts = {"guard.py": EXIT_2, "deny.py": guard(DENY)}
    [hit] = found(codex_hook(tmp_path / "bad", bad, scripts), rule)
    assert hit.path.endswith("hooks.json") and "Claude" not in hit.message + hit.hint
    assert found(codex_hook(tmp_path / "good", good, scripts), rule) == []


def test_a_relative_codex_script_is_hinted_from_the_top_of_the_work_tree_not_a_variable_codex_never_sets(tmp_path):
    [hit] = found(codex_hook(tmp_path, "bash .codex/hooks/guard.sh", {"guard.sh": "exit 0\n"}), "command/relative-path")
    assert "Codex CLI runs the hook in" in hit.message
    assert hit.hint.startswith('write "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/.codex/hooks/guard.sh')


@pytest.mark.parametrize("folder", ["bad", "good"])
def test_a_codex_user_hook_running_its_script_by_a_relative_path_is_found_and_its_absolute_twin_is_quiet(
        tmp_path, monkeypatch, folder):
    # Codex runs a user hook in the session's folder, not in $CODEX_HOME (#command-execution)
    home = tmp_path / "home" / ".codex"
    monkeypatch.setenv("CODEX_HOME", str(home))
    command = "bash .codex/hooks/guard.sh" if folder == "bad" else f"bash {home}/hooks/guard.sh"
    files = {"home/.codex/hooks.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command}]}]}}, "home/.codex/hooks/guard.sh": "exit 0\n"}
    hits = found(doctor(tmp_path, files), "command/relative-path")
    assert [(hit.path, "missing in most of them" in hit.message) for hit in hits] == (
        [(str(home / "hooks.json"), True)] if folder == "bad" else [])


def test_one_work_tree_command_in_two_codex_projects_is_read_in_each_projects_own_folder(tmp_path):
    # (a command read once for many projects must not lose what git's top of each of them is)
    command = f"python3 {TREE}/guard.py"
    for name in ("one", "two"):
        [hit] = found(codex_hook(tmp_path / name, command, {}), "command/script-missing")
        assert str(tmp_path / name / ".codex/hooks/guard.py") in hit.message


@pytest.mark.parametrize("program, effect", [
    ("bash", "Codex runs the call as if it were not there"),
    ("python3", "which Codex reads as a block: every call it matches is refused")])
def test_a_codex_guard_whose_script_is_missing_is_found_with_what_codex_does_and_its_twin_is_quiet(
        tmp_path, program, effect):
    suffix = "sh" if program == "bash" else "py"
    command = f"{program} {TREE}/guard.{suffix}"
    [hit] = found(codex_hook(tmp_path / "bad", command, {}), "command/script-missing")
    assert effect in hit.message
    assert found(codex_hook(tmp_path / "good", command, {f"guard.{suffix}": "exit 0\n"}), "command/script-missing") == []


WRAPPER = '#!/bin/bash\npython3 "$(dirname "$0")/guard.py"\n{after}echo checked >&2\n{end}'


def test_a_codex_wrapper_whose_last_command_sets_its_status_is_found_and_its_twin_passing_the_status_on_is_quiet(tmp_path):
    command = f"bash {TREE}/wrap.sh"
    bad = {"wrap.sh": WRAPPER.format(after="", end=""), "guard.py": EXIT_2}
    [hit] = found(codex_hook(tmp_path / "bad", command, bad), "delivery/exit-2-lost")
    assert hit.path.endswith("wrap.sh") and "every call it matches is refused" in hit.message
    good = {"wrap.sh": WRAPPER.format(after="status=$?\n", end="exit $status\n"), "guard.py": EXIT_2}
    assert found(codex_hook(tmp_path / "good", command, good), "delivery/exit-2-lost") == []


def test_a_codex_guard_printing_text_before_its_json_is_found_naming_codex_and_its_twin_on_stderr_is_quiet(tmp_path):
    def chatty(to):
        return guard(f'print("checking"{to})\n        {DENY}')
    command = f"python3 {TREE}/guard.py"
    [hit] = found(codex_hook(tmp_path / "bad", command, {"guard.py": chatty("")}), "script/text-before-json")
    assert hit.line == 4 and "Codex CLI reads it all as plain text" in hit.message
    good = codex_hook(tmp_path / "good", command, {"guard.py": chatty(", file=sys.stderr")})
    assert found(good, "script/text-before-json") == []


@pytest.mark.parametrize("case", ["present", "missing", "absolute"])
def test_a_codex_user_hook_reaching_its_script_through_the_work_trees_top_is_found_with_codex_folders_in_its_hint(
        tmp_path, monkeypatch, case):
    # a user hook runs in every project's session, in the session's folder (#command-execution); its
    # twin names its script beside it, by its absolute path
    home = tmp_path / "home" / ".codex"
    monkeypatch.setenv("CODEX_HOME", str(home))
    command = f"bash {home}/hooks/guard.sh" if case == "absolute" else f"bash {TREE}/guard.sh"
    files = {".git": None, "home/.codex/hooks.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command}]}]}}, "home/.codex/hooks/guard.sh": "exit 0\n"}
    if case != "missing":
        files[".codex/hooks/guard.sh"] = "exit 0\n"
    outcome = doctor(tmp_path, files, given=False)
    hits = found(outcome, "command/shared-hook-project-script") + found(outcome, "command/script-missing")
    if case == "absolute":
        assert hits == []
        return
    [hit] = hits
    assert hit.rule == ("command/script-missing" if case == "missing" else "command/shared-hook-project-script")
    assert "every project" in hit.message and ("~/.codex/hooks/" in hit.hint or f"{home}/hooks/" in hit.hint)
    assert ".claude" not in hit.hint and "CLAUDE_PLUGIN_ROOT" not in hit.hint


# ---- trust: graded by what Codex does (measured on 0.171.0: docs/hosts/codex.md#trust) ----

def trusting(tmp_path, monkeypatch, level: str | None, hashed: bool = False):
    """A git project with two hooks, and a user config.toml that says `level` of it (None: nothing)."""
    from hookwright.hosts.codex import trust

    home = tmp_path / "home" / ".codex"
    monkeypatch.setenv("CODEX_HOME", str(home))
    data = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"},
                                                                   {"type": "command", "command": "true"}]}]}}
    project = tmp_path / "repo"
    hashes = {h.key: h.hash for h in trust.hooks_of(f"{project}/{CODEX}", data)} if hashed else {}
    config = "# mine\nmodel = \"x\"\n\n" + (f'[projects."{project}"]\ntrust_level = "{level}"\n' if level else "")
    files = {".git": None, CODEX: data, "../home/.codex/config.toml": config + trust.toml_lines([], hashes) + "\n"}
    return doctor(project, files, given=False), home / "config.toml"


def test_a_project_marked_untrusted_is_one_error_at_its_trust_level_line_and_its_trusted_twin_is_quiet(
        tmp_path, monkeypatch):
    outcome, config = trusting(tmp_path / "bad", monkeypatch, "untrusted")
    [hit] = found(outcome, "host/hook-untrusted")
    assert (hit.path, hit.line, hit.severity) == (str(config), 5, "error")
    assert "2 hooks" in hit.message and "without asking" in hit.message and len(hit.related) == 2
    assert 'set trust_level = "trusted"' in hit.hint
    assert found(outcome, "host/hook-not-yet-trusted") == []
    twin, _ = trusting(tmp_path / "good", monkeypatch, "trusted", hashed=True)
    assert found(twin, "host/hook-untrusted") + found(twin, "host/hook-not-yet-trusted") == []


@pytest.mark.parametrize("level, asks", [(None, "Trust this folder?"), ("trusted", "Hooks need review")],
                         ids=["fresh-clone", "new-hooks"])
def test_hooks_codex_asks_to_trust_are_a_warning_that_says_the_question_and_never_an_error(
        tmp_path, monkeypatch, level, asks):
    outcome, _ = trusting(tmp_path, monkeypatch, level)
    hits = found(outcome, "host/hook-not-yet-trusted")
    assert len(hits) == 2 and all(h.severity == "warning" and asks in h.message and "codex exec" in h.message
                                  for h in hits)
    assert [f for f in outcome.findings if f.severity == "error"] == []


def test_a_codex_deny_printed_as_json_then_exit_1_is_found_at_the_exit_and_its_exit_0_twin_is_quiet(tmp_path):
    # (Codex reads the JSON answer on exit 0 alone: a deny with exit 1 let the call run, #output-protocol)
    [hit] = found(codex(tmp_path / "bad", guard(f"{DENY}\n        sys.exit(1)")), "script/exit-1-fails-open")
    assert hit.line == 5 and "Codex CLI reads the JSON answer on exit 0 alone" in hit.message
    assert found(codex(tmp_path / "good", guard(f"{DENY}\n        sys.exit(0)")), "script/exit-1-fails-open") == []


@pytest.mark.parametrize("bad, said", [
    ('echo "$CLAUDE_TOOL_INPUT" | grep -q "rm -rf" && exit 2', "$CLAUDE_TOOL_INPUT is never set: Codex CLI passes"),
    ('case "$1" in *rm*) exit 2;; esac', "Codex CLI runs it with no arguments (the user's shell, -lc)")],
    ids=["variable", "argument"])
def test_a_codex_command_reading_its_input_from_a_variable_or_an_argument_is_found_and_its_stdin_twin_is_quiet(
        tmp_path, bad, said):
    # (Codex gives the payload on stdin alone: no input variable, no argument; #command-execution)
    [hit] = found(codex_hook(tmp_path / "bad", bad, {}), "command/input-variable-never-set")
    assert said in hit.message
    good = 'jq -r .tool_input.command | grep -q "rm -rf" && { echo no >&2; exit 2; }; exit 0'
    assert found(codex_hook(tmp_path / "good", good, {}), "command/input-variable-never-set") == []


GUARD_WORDS = '"""Refuse destructive shell commands."""\n'


@pytest.mark.parametrize("event, answer", [
    ("PostToolUse", DENY),
    ("PostToolUse", 'print("rm -rf is not allowed", file=sys.stderr)\n        sys.exit(2)'),
    ("Stop", DENY),
], ids=["post-tool-use-deny", "post-tool-use-exit-2", "stop-deny"])
def test_a_codex_guard_on_an_event_after_the_call_is_found_at_its_event_and_its_pre_tool_use_twin_is_quiet(
        tmp_path, event, answer):
    script = GUARD_WORDS + guard(answer).lstrip("\n")
    [hit] = found(codex(tmp_path / "bad", script, event=event), "script/guard-after-the-call")
    config = tmp_path / "bad" / CODEX
    assert (hit.path, hit.line) == (str(config), 3) and "after the call" in hit.message and "PreToolUse" in hit.hint
    assert found(codex(tmp_path / "good", script), "script/guard-after-the-call") == []


def test_a_codex_post_tool_use_hook_that_judges_the_result_with_a_block_is_not_a_guard_after_the_call(tmp_path):
    checker = """
    import json, sys
    data = json.load(sys.stdin)
    if "Traceback" in data.get("tool_response", ""):
        print(json.dumps({"decision": "block", "reason": "the command failed: read its output"}))
    """
    assert found(codex(tmp_path, checker, event="PostToolUse"), "script/guard-after-the-call") == []


@pytest.mark.parametrize("command", [
    '"$CLAUDE_PROJECT_DIR"/.codex/guard.sh',
    'bash "${CLAUDE_PROJECT_DIR}/.codex/guard.sh"',
    '"$CURSOR_PROJECT_DIR"/.codex/guard.sh',
    'python3 "$CLAUDE_PROJECT_DIR/.codex/guard.py"',
])
def test_a_codex_command_building_its_path_from_another_agents_variable_is_found_at_the_command(tmp_path, command):
    script = SHELL_GUARD.format(to=" >&2") if command.rstrip('"').endswith(".sh") else guard(DENY)
    name = "guard.sh" if ".sh" in command else "guard.py"
    [hit] = found(codex(tmp_path, script, name=name, command=command), "script/variable-of-another-host")
    command_line = next(i for i, line in enumerate((tmp_path / CODEX).read_text().splitlines(), 1) if '"command":' in line)
    assert (hit.path, hit.line) == (str(tmp_path / CODEX), command_line) and "Codex CLI does not" in hit.message
    if "python3" in command:  # (python exits 2 for the missing file: Codex reads that as a block)
        assert "refused" in hit.message


@pytest.mark.parametrize("command", [
    'bash "$(git rev-parse --show-toplevel)"/.codex/guard.sh',
    'bash "${CLAUDE_PROJECT_DIR:-$(git rev-parse --show-toplevel)}"/.codex/guard.sh',
    'CLAUDE_PROJECT_DIR="$(pwd)" bash "$CLAUDE_PROJECT_DIR"/.codex/guard.sh',
])
def test_a_codex_command_naming_the_folder_its_own_way_or_with_a_default_is_quiet(tmp_path, command):
    outcome = codex(tmp_path, SHELL_GUARD.format(to=" >&2"), name="guard.sh", command=command)
    assert found(outcome, "script/variable-of-another-host") == []


@pytest.mark.parametrize("read, flagged", [
    ('root = os.environ["CLAUDE_PROJECT_DIR"]', True),
    ('root = os.getenv("CLAUDE_PROJECT_DIR")', True),
    ('root = os.environ.get("CLAUDE_PROJECT_DIR", os.getcwd())', False),
    ('root = os.environ.get("CLAUDE_PROJECT_DIR") or os.getcwd()', False),
    ('root = os.environ.get("CLAUDE_PROJECT_DIR")\n    if not root:\n        root = os.getcwd()', False),
])
def test_a_script_codex_runs_that_reads_claude_codes_project_variable_is_found_at_the_read(tmp_path, read, flagged):
    script = f"""
    import json, os, sys
    {read}
    policy = open(os.path.join(root, "AGENTS.md")).read()
    {DENY}
    """
    hits = found(codex(tmp_path, script), "script/variable-of-another-host")
    assert [(h.path, h.line) for h in hits] == ([(str(tmp_path / ".codex/guard.py"), 2)] if flagged else [])


def test_a_script_claude_code_and_codex_share_is_found_once_for_codex_and_never_for_claude_code(tmp_path):
    script = '#!/bin/bash\nexec python3 "$CLAUDE_PROJECT_DIR/tools/check.py"\n'
    files = {CODEX: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                 {"type": "command", "command": "bash hooks/guard.sh"}]}]}},
             ".claude/settings.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                 {"type": "command", "command": 'bash "$CLAUDE_PROJECT_DIR"/hooks/guard.sh'}]}]}},
             "hooks/guard.sh": script, "tools/check.py": "import sys\nsys.exit(0)\n"}
    hits = found(doctor(tmp_path, files, given=False), "script/variable-of-another-host")
    assert [(h.path, h.line, "Codex CLI" in h.message) for h in hits] == [(str(tmp_path / "hooks/guard.sh"), 2, True)]


@pytest.mark.parametrize("answer, field, variant", [
    ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
     '"permissionDecisionReason": "no", "reason": "no"}}))', "reason", "has no field"),
    ('print(json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "no"}))', "permissionDecision",
     "at the top level"),
    ('print(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}}))',
     "hookSpecificOutput", "no hookEventName"),
], ids=["a field inside", "a decision at the top", "no event name"])
def test_an_answer_shape_codex_rejects_whole_is_found_where_it_is_written_and_the_plain_deny_is_quiet(
        tmp_path, answer, field, variant):
    [hit] = found(codex(tmp_path / "bad", guard(answer)), "script/answer-rejected")
    assert hit.line == 4 and variant in hit.message and "runs the call" in hit.message
    assert found(codex(tmp_path / "good", guard(DENY)), "script/answer-rejected") == []


def test_the_same_extra_field_in_a_claude_code_guard_is_not_a_rejected_answer(tmp_path):
    answer = ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
              '"permissionDecisionReason": "no", "reason": "no"}}))')
    files = {".claude/settings.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                 {"type": "command", "command": "python3 .claude/guard.py"}]}]}},
             ".claude/guard.py": textwrap.dedent(guard(answer)).lstrip("\n")}
    assert found(doctor(tmp_path, files), "script/answer-rejected") == []


# ---- the PreToolUse answers Codex does not act on, in each language that writes one ---------------

ANSWERS = {  # Codex fails open on each (measured on 0.171.0: tests/e2e/test_codex_rules_e2e.py)
    "ask": ("script/answer-rejected", {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                                                              "permissionDecisionReason": "confirm"}}),
    "deny-without-reason": ("script/answer-incomplete", {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                                                "permissionDecision": "deny"}}),
    "continue-false": ("script/answer-rejected", {"continue": False}),
}
TWINS = {"deny-with-reason": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                                     "permissionDecisionReason": "no"}},
         "legacy-block": {"decision": "block", "reason": "no"}}


def writer(language: str, answer: dict) -> tuple[str, str]:
    """A guard of `rm` that prints `answer`, written in `language`: (script name, text)."""
    text = json.dumps(answer)
    test = "cmd=$(jq -r '.tool_input.command')\nif [[ $cmd == *rm* ]]; then\n"
    return {
        "printf": ("guard.sh", f"#!/bin/bash\n{test}  printf '%s\\n' '{text}'\nfi\n"),
        "heredoc": ("guard.sh", f"#!/bin/bash\n{test}  cat <<'EOF'\n{json.dumps(answer, indent=2)}\nEOF\nfi\n"),
        "jq": ("guard.sh", f"#!/bin/bash\n{test}  jq -n '{text}'\nfi\n"),
        "python": ("guard.py", "import json, sys\nif 'rm' in json.load(sys.stdin)['tool_input']['command']:\n"
                               f"    print(json.dumps({answer!r}))\n"),
        "node": ("guard.js", "const d = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
                             f"if (d.tool_input.command.includes('rm')) console.log(JSON.stringify({text}));\n"),
    }[language]


LANGUAGES = ["printf", "heredoc", "jq", "python", "node"]
RUNNERS = {".sh": "bash", ".py": "python3", ".js": "node"}


def answering(tmp_path, language: str, answer: dict):
    name, text = writer(language, answer)
    command = f"{RUNNERS[name[name.rindex('.'):]]} .codex/{name}"
    return codex(tmp_path, text, name=name, command=command)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", sorted(ANSWERS))
def test_a_pre_tool_use_answer_codex_does_not_act_on_is_found_in_every_language(tmp_path, kind, language):
    rule, answer = ANSWERS[kind]
    assert len(found(answering(tmp_path, language, answer), rule)) == 1


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("twin", sorted(TWINS))
def test_a_deny_with_its_reason_or_a_legacy_block_is_quiet_in_every_language(tmp_path, twin, language):
    outcome = answering(tmp_path, language, TWINS[twin])
    assert found(outcome, "script/answer-rejected") == [] and found(outcome, "script/answer-incomplete") == []


@pytest.mark.parametrize("test, flagged", [('[ "$cmd" == *"rm -rf"* ]', True), ('[[ $cmd == "*rm -rf*" ]]', True),
                                           ('[[ $cmd == *"rm -rf"* ]]', False)])
def test_a_shell_test_that_is_never_true_is_found_in_a_codex_guard_as_in_claude_codes(tmp_path, test, flagged):
    """The shell's rules, not the host's: `[` does no pattern matching, a quoted pattern is text."""
    script = f'#!/bin/bash\ncmd=$(jq -r .tool_input.command)\nif {test}; then echo no >&2; exit 2; fi\n'
    hits = found(codex(tmp_path, script, name="guard.sh", command="bash .codex/guard.sh"), "script/test-never-true")
    assert [hit.line for hit in hits] == ([3] if flagged else [])


def test_a_codex_prompt_filter_reading_user_prompt_is_found_and_its_twin_reading_prompt_is_quiet(tmp_path):
    """Codex sends the prompt as `prompt` (measured on 0.171.0: tests/e2e/test_codex_lost_e2e.py)."""
    script = "import json, re, sys\nevent = json.load(sys.stdin)\nif re.search(r'AKIA', event.get('{f}', '')):\n" \
             "    print('no keys', file=sys.stderr)\n    sys.exit(2)\n"
    [hit] = found(codex(tmp_path / "bad", script.format(f="user_prompt"), event="UserPromptSubmit"),
                  "script/input-field-never-sent")
    assert hit.line == 3 and "did you mean prompt" in hit.message
    assert found(codex(tmp_path / "good", script.format(f="prompt"), event="UserPromptSubmit"),
                 "script/input-field-never-sent") == []


@pytest.mark.parametrize("write", ["sys.stderr.write(json.dumps(ANSWER) + '\\n')", "print(json.dumps(ANSWER), file=sys.stderr)",
                                   "sys.stderr.write(f'{json.dumps(ANSWER)}\\n')"])
def test_a_codex_deny_written_on_stderr_is_found_and_its_twin_on_stdout_is_quiet(tmp_path, write):
    """Codex reads a hook's answer from stdout alone (measured on 0.171.0: tests/e2e/test_codex_rules_e2e.py)."""
    answer = 'ANSWER = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", ' \
             '"permissionDecisionReason": "no"}}\n'
    script = "import json, sys\n" + answer + "if 'rm -rf' in json.load(sys.stdin)['tool_input']['command']:\n    "
    [hit] = found(codex(tmp_path / "bad", script + write + "\n"), "script/answer-on-stderr")
    assert hit.line == 4 and "Codex CLI reads the answer from stdout only" in hit.message
    assert found(codex(tmp_path / "good", script + "print(json.dumps(ANSWER))\n"), "script/answer-on-stderr") == []


def test_hooks_in_the_xdg_folder_are_found_with_where_codex_reads_them(tmp_path, home):
    """Codex reads $CODEX_HOME alone (measured on 0.171.0: tests/e2e/test_codex_lost_e2e.py)."""
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}
    (home / ".config" / "codex").mkdir(parents=True)
    (home / ".config" / "codex" / "hooks.json").write_text(json.dumps(hooks, indent=2))
    project = tmp_path / "p"
    [hit] = found(doctor(project, {"README.md": "x"}, given=False, start=project), "structure/settings-not-read")
    assert hit.path == str(home / ".config" / "codex" / "hooks.json") and str(home / ".codex" / "hooks.json") in hit.message


@pytest.mark.parametrize("command, flagged", [("sh .codex/guard.sh", True), ("bash .codex/guard.sh", False)])
def test_bash_syntax_in_a_guard_a_codex_command_runs_with_sh_is_found(tmp_path, command, flagged):
    """`sh x.sh` is dash on Debian and Ubuntu whichever agent runs the command (measured on Codex 0.171.0:
    tests/e2e/test_codex_rules_e2e.py, sh-bash-bad)."""
    script = '#!/bin/bash\nif [[ "$(cat)" == *"rm -rf"* ]]; then echo no >&2; exit 2; fi\n'
    hits = found(codex(tmp_path, script, name="guard.sh", command=command), "script/bash-only-syntax")
    assert [hit.line for hit in hits] == ([2] if flagged else [])
