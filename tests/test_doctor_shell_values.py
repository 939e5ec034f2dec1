"""What a shell guard tests and prints, as the host receives it: a value read by jq without -r
keeps its JSON quotes, so an anchored pattern never matches it (installer/doctor/scripts/jq.py: kept_quotes);
a command's own output before the JSON answer (installer/doctor/scripts/flow.py), whatever a quoted
message holds. Each broken case is run by bash on a PreToolUse payload and really answers
otherwise than its twin (tests/e2e/test_shell_status_e2e.py shows the real CLI)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from doctor_support import doctor, settings
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from test_doctor_delivery import _run, _status, _write

BLOCK = 'echo "Blocked" >&2; exit 2'
DENY = """jq -n --arg r "$rel <is> frozen" \\
  '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: $r}}'"""

# name: (the rule, the script, the line doctor names, its twin)
CASES = {
    "a regex anchored with ^": (
        "script/value-keeps-quotes", "cmd=$(jq '.tool_input.command')\nif [[ $cmd =~ ^rm[[:space:]] ]]; then "
        + BLOCK + "; fi\nexit 0\n", 1,
        "cmd=$(jq -r '.tool_input.command')\nif [[ $cmd =~ ^rm[[:space:]] ]]; then " + BLOCK + "; fi\nexit 0\n"),
    "a glob in a case arm, the value read through a here-string": (
        "script/value-keeps-quotes", 'input=$(cat)\ncmd=$(jq .tool_input.command <<<"$input")\ncase "$cmd" in\n'
        "  rm*) " + BLOCK + " ;;\nesac\n", 2,
        'input=$(cat)\ncmd=$(jq --raw-output .tool_input.command <<<"$input")\ncase "$cmd" in\n  rm*) ' + BLOCK
        + " ;;\nesac\n"),
    "an equality test with !=": (
        "script/value-keeps-quotes", 'tool=$(jq ".tool_name // empty")\n[ "$tool" != "Bash" ] && exit 0\n' + BLOCK
        + "\n", 1, 'tool=$(jq -r ".tool_name // empty")\n[ "$tool" != "Bash" ] && exit 0\n' + BLOCK + "\n"),
    "a grep -E ^ fed by echo": (
        "script/value-keeps-quotes", "local_cmd=$(jq '.tool_input.command')\n"
        "if echo \"$local_cmd\" | grep -qE '^(rm|mv) '; then " + BLOCK + "; fi\n", 1,
        "local_cmd=$(jq -r '.tool_input.command')\nif echo \"$local_cmd\" | grep -qE '^(rm|mv) '; then " + BLOCK
        + "; fi\n"),
    "pushd prints the stack before the JSON, the message holding a quoted >": (
        "script/text-before-json", 'rel=$(jq -r .tool_input.command)\npushd "${CLAUDE_PROJECT_DIR:-.}"\n' + DENY
        + "\npopd >/dev/null\n", 2,
        'rel=$(jq -r .tool_input.command)\npushd "${CLAUDE_PROJECT_DIR:-.}" >/dev/null\n' + DENY
        + "\npopd >/dev/null\n"),
}


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_test_that_never_matches_or_text_before_the_answer_is_flagged_at_the_line_to_change(tmp_path, name, twin):
    rule, broken, line, fixed = CASES[name]
    base = tmp_path / "project"
    command = _write(base, {"h.sh": fixed if twin else broken}, "h.sh")
    if rule == "script/text-before-json":  # what the host would receive: one JSON object, or text before it
        assert _run(base, command).stdout.startswith("{") == twin
    else:
        assert (_status(base, command) == 2) == twin
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    flagged = [(f.rule, f.line) for f in out.findings if f.rule == rule and Path(f.path).name == "h.sh"]
    assert flagged == ([] if twin else [(rule, line)])


@pytest.mark.parametrize("text", [
    "cmd=$(jq '.tool_input.command')\ncase \"$cmd\" in *rm\\ -rf*) exit 2 ;; esac\n",  # looks inside the value
    "cmd=$(jq '.tool_input.command')\n[[ $cmd == '\"rm'* ]] && exit 2\nexit 0\n",  # the quote written in the pattern
    "cmd=$(jq '.tool_input.command')\necho \"$cmd\" | grep -q 'rm ' && exit 2\nexit 0\n",  # unanchored grep
    "active=$(jq '.stop_hook_active')\n[ \"$active\" = true ] && exit 0\nexit 2\n",  # a boolean prints bare
    "args=$(jq -c '.tool_input')\n[[ $args == '{'* ]] && exit 2\nexit 0\n",  # an object, not a string
])
def test_values_whose_quotes_do_not_matter_stay_clean(tmp_path, text):
    base = tmp_path / "project"
    command = _write(base, {"h.sh": text}, "h.sh")
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert [f.rule for f in out.findings if f.rule == "script/value-keeps-quotes"] == []


@pytest.mark.parametrize("line, prints", [
    ("git stash", True), ("git stash -q", False), ("git pull --ff-only", True), ("git fetch origin", False),
    ("git branch", True), ("git branch feature", False), ("git config user.name", True),
    ("git config user.name bot", False), ("git worktree add ../wt", True), ("git checkout -b x", False),
    ("npx prettier --write \"$f\"", True), ("ruff check \"$f\"", True), ("mkdir -pv build", True),
    ("mkdir -p build", False), ("dirs", True), ("ruff check \"$f\" >/dev/null", False),
    ("export CDPATH=.:$HOME/src\ncd app", True), ("export CDPATH=.:$HOME/src\ncd \"$CLAUDE_PROJECT_DIR\"", False),
])
def test_a_command_that_prints_on_stdout_before_the_answer_is_named_and_its_quiet_twin_is_not(tmp_path, line, prints):
    text = f"f=$(jq -r .tool_input.file_path)\n{line}\necho '{{\"decision\": \"block\", \"reason\": \"no\"}}'\n"
    base = tmp_path / "project"
    command = _write(base, {"h.sh": text}, "h.sh")
    out = doctor(base, {".claude/settings.json": settings(event="PostToolUse", matcher="Edit", command=command)})
    flagged = [f.line for f in out.findings if f.rule == "script/text-before-json"]
    assert flagged == ([text.count("\n", 0, text.index(line.split("\n")[-1])) + 1] if prints else [])


@pytest.mark.parametrize("text, flagged", [
    ("tool=$(jq '.tool_name' | head -n 1)\n[ \"Bash\" = \"$tool\" ] || exit 0\nexit 2\n", True),
    ("tool=$(jq '.tool_name' | xargs)\n[ \"Bash\" = \"$tool\" ] || exit 0\nexit 2\n", False),  # xargs unquotes
    ("tool=$(jq '.tool_name' | tr -d '\"')\n[ \"$tool\" = Bash ] || exit 0\nexit 2\n", False),
])
def test_what_a_pipe_after_jq_does_to_the_quotes_is_followed(tmp_path, text, flagged):
    base = tmp_path / "project"
    command = _write(base, {"h.sh": text}, "h.sh")
    assert (_status(base, command) == 2) != flagged  # the comparison really never holds where flagged
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert [f.line for f in out.findings if f.rule == "script/value-keeps-quotes"] == ([1] if flagged else [])


ANSWER = """answer() {  # decision reason
  jq -cn --arg d "$1" --arg r "$2" \\
    '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: $d, permissionDecisionReason: $r}}'%s
}
"""
ALLOW = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}'
# name: (the hook's files, the line doctor names in h.sh, its twin's files)
TWO_ANSWERS = {
    "a function that prints the deny and does not exit, called in a case arm": (
        {"h.sh": "cmd=$(jq -r .tool_input.command)\n" + ANSWER % "" + 'case "$cmd" in\n'
                 '  *rm*) answer deny "no deleting" ;;\nesac\nanswer allow ok\n'}, 7,
        {"h.sh": "cmd=$(jq -r .tool_input.command)\n" + ANSWER % "" + 'case "$cmd" in\n'
                 '  *rm*) answer deny "no deleting"; exit 0 ;;\nesac\nanswer allow ok\n'}),
    "the function in a helper file the script sources": (
        {"lib.sh": ANSWER % "", "h.sh": 'source "$(dirname "$0")/lib.sh"\ncmd=$(jq -r .tool_input.command)\n'
                                        'if [[ $cmd == *rm* ]]; then\n  answer deny "no deleting"\nfi\n'
                                        'answer allow ok\n'}, 4,
        {"lib.sh": ANSWER % "\n  exit 0", "h.sh": 'source "$(dirname "$0")/lib.sh"\ncmd=$(jq -r .tool_input.command)\n'
                                                  'if [[ $cmd == *rm* ]]; then\n  answer deny "no deleting"\nfi\n'
                                                  'answer allow ok\n'}),
    "an echoed deny in an if, then the allow after it": (
        {"h.sh": "cmd=$(jq -r .tool_input.command)\nif [[ $cmd == *rm* ]]; then\n"
                 "  echo '" + ALLOW.replace("allow", "deny") + "'\nfi\necho '" + ALLOW + "'\n"}, 3,
        {"h.sh": "cmd=$(jq -r .tool_input.command)\nif [[ $cmd == *rm* ]]; then\n"
                 "  echo '" + ALLOW.replace("allow", "deny") + "'\nelse\n  echo '" + ALLOW + "'\nfi\n"}),
    "answers built into variables, the deny's echo without exit": (
        {"h.sh": "deny=$(jq -cn '{hookSpecificOutput: {hookEventName: \"PreToolUse\", permissionDecision: \"deny\"}}')\n"
                 "allow='" + ALLOW + "'\ncmd=$(jq -r .tool_input.command)\n"
                 'if [[ $cmd == *rm* ]]; then echo "$deny"; fi\nprintf \'%s\\n\' "$allow"\n'}, 4,
        {"h.sh": "deny=$(jq -cn '{hookSpecificOutput: {hookEventName: \"PreToolUse\", permissionDecision: \"deny\"}}')\n"
                 "allow='" + ALLOW + "'\ncmd=$(jq -r .tool_input.command)\n"
                 'if [[ $cmd == *rm* ]]; then echo "$deny"; exit 0; fi\nprintf \'%s\\n\' "$allow"\n'}),
    "a main function that answers and runs on": (
        {"h.sh": ANSWER % "" + 'main() {\n  cmd=$(jq -r .tool_input.command)\n'
                 '  [[ $cmd == *rm* ]] && answer deny "no deleting"\n  answer allow ok\n}\nmain\n'}, 7,
        {"h.sh": ANSWER % "" + 'main() {\n  cmd=$(jq -r .tool_input.command)\n'
                 '  [[ $cmd == *rm* ]] && { answer deny "no deleting"; return; }\n  answer allow ok\n}\nmain\n'}),
}


@pytest.mark.parametrize("text", [
    # the run ends after the inner if that answers, before the answer below it
    "cmd=$(jq -r .tool_input.command)\nif [[ $cmd == *rm* ]]; then\n  if [ -n \"$CI\" ]; then\n"
    "    echo '" + ALLOW.replace("allow", "ask") + "'\n  else\n    echo '" + ALLOW.replace("allow", "deny")
    + "'\n  fi\n  exit 0\nfi\necho '" + ALLOW + "'\n",
    # the function that prints the deny exits
    'deny() {\n  echo "{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"PreToolUse\\", \\"permissionDecision\\": '
    '\\"deny\\"}}"\n  exit 0\n}\ncmd=$(jq -r .tool_input.command)\n[[ $cmd == *rm* ]] && deny\necho \'' + ALLOW + "'\n",
])
def test_answers_on_paths_that_end_apart_stay_clean(tmp_path, text):
    base = tmp_path / "project"
    command = _write(base, {"h.sh": text}, "h.sh")
    assert json.loads(_run(base, command).stdout)  # one JSON object
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert [f.line for f in out.findings if f.rule == "script/text-before-json"] == []


DENY_ECHO = ("echo '" + ALLOW.replace("allow", "deny") + "'")
GUARDED = "cmd=$(jq -r .tool_input.command)\nif [[ $cmd == *rm* ]]; then\n  " + DENY_ECHO + "\n  exit 0\nfi\n"
# name: (the hook's files, the line doctor names in h.sh, its twin's files); h.sh runs with bash
STDOUT_FROM_A_LINE_ON = {
    "an EXIT trap that echoes, after the answer and its exit": (
        {"h.sh": "trap 'echo \"guard done\"' EXIT\n" + GUARDED}, 1,
        {"h.sh": "trap 'echo \"guard done\" >&2' EXIT\n" + GUARDED}),
    "an EXIT trap calling a function that echoes": (
        {"h.sh": 'cleanup() {\n  echo "cleaned up"\n}\ntrap cleanup EXIT\n' + GUARDED}, 4,
        {"h.sh": 'cleanup() {\n  echo "cleaned up" >&2\n}\ntrap cleanup EXIT\n' + GUARDED}),
    "a set -x trace sent to stdout": (
        {"h.sh": "BASH_XTRACEFD=1\nset -x\n" + GUARDED}, 1,
        {"h.sh": "BASH_XTRACEFD=2\nset -x\n" + GUARDED}),
    "a lasting exec 2>&1, and a line on stderr after it": (
        {"h.sh": 'exec > >(tee -a "$CLAUDE_PROJECT_DIR/hook.log") 2>&1\necho "checking" >&2\n' + GUARDED}, 1,
        {"h.sh": 'exec > >(tee -a "$CLAUDE_PROJECT_DIR/hook.log")\necho "checking" >&2\n' + GUARDED}),
    "a sourced env file that echoes": (
        {"env.sh": 'export APP_ENV=dev\necho "env loaded"\n',
         "h.sh": 'source "$(dirname "$0")/env.sh"\n' + GUARDED}, 1,
        {"env.sh": 'export APP_ENV=dev\necho "env loaded" >&2\n',
         "h.sh": 'source "$(dirname "$0")/env.sh"\n' + GUARDED}),
    "a command's stderr joined to stdout by 2>&1": (
        {"h.sh": 'curl -o "$CLAUDE_PROJECT_DIR/copy" "file://$0" 2>&1\n' + GUARDED}, 1,
        {"h.sh": 'curl -s -o "$CLAUDE_PROJECT_DIR/copy" "file://$0" 2>&1\n' + GUARDED}),
    "a wrapper that runs the answering script through npm run": (
        {"guard.sh": "#!/bin/bash\n" + GUARDED, "h.sh": 'cd "$CLAUDE_PROJECT_DIR"\nnpm run guard\n'}, 2,
        {"guard.sh": "#!/bin/bash\n" + GUARDED, "h.sh": 'cd "$CLAUDE_PROJECT_DIR"\nnpm run --silent guard\n'}),
}


NOT_ONE_OBJECT = {**TWO_ANSWERS, **STDOUT_FROM_A_LINE_ON}


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(NOT_ONE_OBJECT))
def test_stdout_that_is_not_one_json_object_is_flagged_at_the_line_to_change(tmp_path, name, twin):
    broken, line, fixed = NOT_ONE_OBJECT[name]
    base = tmp_path / "project"
    command = _write(base, fixed if twin else broken, "h.sh")
    (base / "package.json").write_text('{"name": "p", "version": "1.0.0", "scripts": '
                                       '{"guard": "bash .claude/hooks/guard.sh"}}')
    printed = _run(base, command).stdout
    assert _one_object(printed) == twin and "deny" in printed, printed  # what the host would receive
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    flagged = [f.line for f in out.findings if f.rule == "script/text-before-json" and Path(f.path).name == "h.sh"]
    assert flagged == ([] if twin else [line])


def _one_object(printed: str) -> bool:
    try:
        json.loads(printed)
    except ValueError:
        return False
    return True


JQ_READS = ['x=$(jq .tool_input.command)', 'x=$(echo "$i" | jq -r .a)', 'x="$(jq ".tool_name")"', "x=$(jq .a -r)",
            "x=$(jq '.a | .b' -r)", "x=$(jq .a > -r)", "x=$(jq .a 2> -r)", 'x=$(jq "-r" .a)', "x=$(jq '.a -r')",
            "x=$(jq -c .a)", "x=$(jq -rc .a)", "x=$(jq --raw-output .a)", "x=`jq .a`", "x=$(jq .a | head -1)",
            'x=$(j"q" .a)', "x=$(jq -j .a 2>/dev/null)", "cat <<EOF\nit's\nEOF\nx=$(jq '.a\n -r ')"]
ANCHORED = ['[ "$x" = Bash ]', "case $x in rm*) exit 2;; esac", 'echo "$x" | grep -q "^git"', "[[ $x == git* ]]"]


@given(st.lists(st.sampled_from(JQ_READS), min_size=1, max_size=3), st.sampled_from(ANCHORED),
       st.sampled_from(["; ", "\n", " && "]))
@hsettings(max_examples=300, deadline=None)
def test_a_text_whose_every_jq_says_raw_is_not_parsed_for_quoted_values_and_never_has_one(reads, test, joiner):
    """The premise that spares a command line its parse (flow._every_jq_raw) holds only where the
    parse finds no value that keeps its quotes: a jq without -r, in quotes, spelt with them or
    given a `> -r` file is left to the parse."""
    from hookwright.doctor.scripts.flow import _every_jq_raw
    from hookwright.doctor.scripts.jq import kept_quotes
    from hookwright.document import LineIndex

    code = joiner.join([*reads, test])
    if _every_jq_raw(code):
        assert kept_quotes(code, LineIndex(code).at) == ()
    if any(read in ("x=$(jq .tool_input.command)", 'x="$(jq ".tool_name")"') for read in reads) or (
            'x=$(j"q" .a)' in reads and "jq" in code.replace('j"q"', "")):
        assert not _every_jq_raw(code)
