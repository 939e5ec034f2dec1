"""Answers the host reads otherwise than their author meant: a key of hookSpecificOutput spelt
otherwise than the field (case, `_`), in the hook's script or in a module of its own that
the script imports."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from doctor_support import doctor, settings
from hookwright.doctor.scripts.keys import analyse, analyse_text

S = ".claude/settings.json"


def _answer(**fields: str) -> str:
    return ("import json, sys\njson.load(sys.stdin)\nprint(json.dumps({'hookSpecificOutput': "
            + json.dumps(fields) + "}))\n")


def _script_findings(base: Path, files: dict, command: str) -> list[tuple[str, str, int]]:
    out = doctor(base, {**files, S: settings(command=command)})
    return [(f.rule, Path(f.path).name, f.line) for f in out.findings if f.rule.startswith("script/")]


@pytest.mark.parametrize("key", ["permission_decision", "PermissionDecision",
                                 "permissiondecision"])
def test_a_decision_key_spelt_otherwise_is_an_answer_that_never_counts(tmp_path, key):
    hook = _answer(hookEventName="PreToolUse", **{key: "deny"}, permissionDecisionReason="no")
    found = _script_findings(tmp_path, {".claude/hooks/gate.py": hook}, "python3 .claude/hooks/gate.py")
    assert found == [("script/misspelt-field", "gate.py", 3)]


def test_the_corrected_twin_has_no_finding(tmp_path):
    hook = _answer(hookEventName="PreToolUse", permissionDecision="deny", permissionDecisionReason="no",
                   additionalContext="x")
    assert _script_findings(tmp_path, {".claude/hooks/gate.py": hook}, "python3 .claude/hooks/gate.py") == []


def test_a_context_key_in_lower_case_is_named_with_the_field_it_means(tmp_path):
    out = doctor(tmp_path, {".claude/hooks/ctx.py": _answer(hookEventName="PreToolUse", additionalcontext="x"),
                            S: settings(command="python3 .claude/hooks/ctx.py")})
    (finding,) = [f for f in out.findings if f.rule == "script/misspelt-field"]
    assert '"additionalcontext"' in finding.message and "additionalContext" in finding.hint


def test_an_event_name_spelt_as_the_input_spells_it_points_at_that_key():
    facts = analyse_text('out = {"hookSpecificOutput": {\n  "permissionDecision": "deny",\n'
                         '  "hook_event_name": "PreToolUse"}}\n', "python")
    assert [(s.what, s.line) for s in facts.no_event_name] == [("hook_event_name", 3)]
    assert facts.misspelt == ()  # (one finding for it: no-event-name)


def test_keys_outside_hook_specific_output_are_not_read_as_misspellings():
    # Cursor's answer is snake_case at the top level; a payload read is no answer
    facts = analyse_text('print(json.dumps({"permission": "deny", "updated_input": {}, "user_message": "m"}))\n'
                         'cmd = event["tool_input"]["command"]\n', "python")
    assert facts.misspelt == ()


HELPER = """\
export const decide = (payload, decision, reason) => process.stdout.write(JSON.stringify({
  hookSpecificOutput: { permissionDecision: decision, permissionDecisionReason: reason,
    %s: payload.hook_event_name },
}));
"""
IMPORTER = 'import { decide } from "./%s";\nimport { readFileSync } from "fs";\ndecide(JSON.parse(readFileSync(0)), "deny", "no");\n'


@pytest.mark.parametrize("key, expected", [("hook_event_name", [("script/no-event-name", "helpers.mjs", 3)]),
                                           ("hookEventName", [])])
def test_a_helper_module_the_hook_imports_is_read_for_its_answer(tmp_path, key, expected):
    files = {".claude/hooks/helpers.mjs": HELPER % key, ".claude/hooks/gate.mjs": IMPORTER % "helpers.mjs"}
    assert _script_findings(tmp_path, files, "node .claude/hooks/gate.mjs") == expected


def test_an_import_without_its_extension_and_a_python_module_beside_the_script_are_found(tmp_path):
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "lib.js").write_text("module.exports = {};\n")
    (hooks / "verdicts.py").write_text("X = 1\n")
    (hooks / "gate.js").write_text('const lib = require("./lib");\n')
    (hooks / "gate.py").write_text("import json\nfrom verdicts import X\nimport os.path\n")
    assert analyse(hooks / "gate.js").modules == (hooks / "lib.js",)
    assert analyse(hooks / "gate.py").modules == (hooks / "verdicts.py",)


def test_a_helper_is_judged_only_for_its_answer_not_as_a_whole_hook(tmp_path):
    # it never reads stdin and never exits: that is its importer's business
    helper = "def deny(reason):\n    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',\n" \
             "        'permissionDecision': 'deny', 'permissionDecisionReason': reason}}))\n"
    files = {".claude/hooks/answers.py": "import json\n" + helper,
             ".claude/hooks/gate.py": "import json, sys\nfrom answers import deny\njson.load(sys.stdin)\ndeny('no')\n"}
    assert _script_findings(tmp_path, files, "python3 .claude/hooks/gate.py") == []


# ---- tests that can never be true -------------------------------------------------------------------

from hookwright.doctor.scripts.conditions import never_true  # noqa: E402


@pytest.mark.parametrize("code, language, kind", [
    ('if [ "$cmd" == *"rm -rf"* ]; then exit 2; fi', "shell", "single-bracket"),
    ('if [ "$cmd" = *rm* ]; then exit 2; fi', "shell", "single-bracket"),
    ('test "$cmd" == *"git push"* && exit 2', "shell", "single-bracket"),
    ('if [[ $cmd == "*rm -rf*" ]]; then exit 2; fi', "shell", "quoted-pattern"),
    ("if [[ $cmd == 'rm -rf*' || $x ]]; then exit 2; fi", "shell", "quoted-pattern"),
    ('if [[ $cmd =~ "rm\\s+-rf" ]]; then exit 2; fi', "shell", "quoted-regex"),
    ("if [[ $cmd =~ '^git push' ]]; then exit 2; fi", "shell", "quoted-regex"),
    ('case "$cmd" in\n  "*rm -rf*") exit 2 ;;\n  *) exit 0 ;;\nesac', "shell", "case-pattern"),
    ('if "rm -rf" in command.split():\n    sys.exit(2)', "python", "split"),
    ('if (cmd.split(" ").includes("rm -rf")) process.exit(2);', "javascript", "split"),
])
def test_a_test_the_shell_or_language_can_never_make_true_is_found(code, language, kind):
    assert [t.kind for t in never_true(code, language)] == [kind]


@pytest.mark.parametrize("code, language", [
    ('if [[ $cmd == *"rm -rf"* ]]; then exit 2; fi', "shell"),   # [[ ]] matches the glob
    ('if [ "$cmd" = "*" ]; then exit 2; fi', "shell"),            # a quoted star in [ ]: text, on purpose
    ('if [ "$cmd" != *rm* ]; then exit 0; fi', "shell"),          # (always true, not never: not this rule)
    ('if [[ $cmd == "rm -rf" ]]; then exit 2; fi', "shell"),      # no pattern: an exact comparison
    ('if [[ $cmd =~ "rm -rf" ]]; then exit 2; fi', "shell"),      # a quoted text is a substring test
    ('if [[ $cmd =~ "$re" ]]; then exit 2; fi', "shell"),
    ('re="rm\\s+-rf"; if [[ $cmd =~ $re ]]; then exit 2; fi', "shell"),
    ('case "$cmd" in\n  *"rm -rf"*) exit 2 ;;\nesac', "shell"),
    ('if "rm" in command.split():\n    sys.exit(2)', "python"),
    ('if "rm -rf" in command:\n    sys.exit(2)', "python"),
    ('if "rm -rf" in shlex.split(command):\n    sys.exit(2)', "python"),
    ('if (cmd.includes("rm -rf")) process.exit(2);', "javascript"),
])
def test_a_test_that_can_be_true_is_not_reported(code, language):
    assert list(never_true(code, language)) == []


def test_the_finding_points_at_the_test_of_the_script_a_hook_runs(tmp_path):
    guard = '#!/bin/bash\ncmd=$(jq -r .tool_input.command)\nif [ "$cmd" == *"rm -rf"* ]; then\n  exit 2\nfi\n'
    out = doctor(tmp_path, {".claude/hooks/guard.sh": guard, S: settings(command="bash .claude/hooks/guard.sh")})
    (finding,) = [f for f in out.findings if f.rule == "script/test-never-true"]
    assert (Path(finding.path).name, finding.line, finding.column) == ("guard.sh", 3, 16)
    assert "`[` does no pattern matching" in finding.message and '[[ $var == *"rm -rf"* ]]' in finding.hint


# ---- Codex: the names its hooks see, the answers it rejects -----------------------------------------

CODEX = ".codex/hooks.json"


def _codex(base: Path, matcher: str, script: str | None = None) -> list:
    command = "python3 .codex/guard.py"
    files = {CODEX: {"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}}}
    if script is not None:
        files[".codex/guard.py"] = script
    out = doctor(base, files)
    return [f for f in out.findings if f.rule in ("matcher/tool-renamed", "script/answer-rejected")]


@pytest.mark.parametrize("matcher, named", [("exec_command", "exec_command"), ("shell|exec_command", "shell"),
                                            ("bash", "bash"), ("^(shell|exec_command)$", "exec_command"),
                                            ("apply_patch|BASH", "BASH")])
def test_a_codex_matcher_that_never_selects_the_shell_as_its_hooks_see_it_is_found(tmp_path, matcher, named):
    (finding,) = _codex(tmp_path, matcher)
    assert finding.rule == "matcher/tool-renamed" and f'"{named}"' in finding.message and '"Bash"' in finding.hint


@pytest.mark.parametrize("matcher", ["Bash", "Bash|exec_command", "B.sh", "(?i)bash", "", "*", "apply_patch|Write",
                                     "mcp__fs__read", "view_image", "Read"])
def test_a_codex_matcher_that_selects_bash_or_names_a_tool_doctor_cannot_list_is_not_reported(tmp_path, matcher):
    assert _codex(tmp_path, matcher) == []


def test_a_claude_code_matcher_naming_exec_command_is_not_judged_by_codex_facts(tmp_path):
    out = doctor(tmp_path, {S: settings(matcher="exec_command")})
    assert not [f for f in out.findings if f.rule == "matcher/tool-renamed"]


ASK = _answer(hookEventName="PreToolUse", permissionDecision="ask", permissionDecisionReason="sure?")


def test_an_ask_on_codex_is_an_answer_it_rejects_pointed_at_where_the_script_writes_it(tmp_path):
    (finding,) = _codex(tmp_path, "Bash", ASK)
    assert (finding.rule, Path(finding.path).name, finding.line) == ("script/answer-rejected", "guard.py", 3)
    assert "unsupported permissionDecision:ask" in finding.message


def test_a_deny_on_codex_and_an_ask_on_claude_code_are_not_rejected(tmp_path):
    deny = ASK.replace('"ask"', '"deny"')
    assert _codex(tmp_path / "codex", "Bash", deny) == []
    out = doctor(tmp_path / "claude", {".claude/hooks/gate.py": ASK, S: settings(command="python3 .claude/hooks/gate.py")})
    assert not [f for f in out.findings if f.rule == "script/answer-rejected"]
