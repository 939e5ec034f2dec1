"""`hookwright pack test [PACK]`: a pack's cases on every agent it is made for, as each agent
would run them, in a scratch home (opencode's runs are in tests/e2e/test_own_hooks_e2e.py: they
need the real opencode)."""
from __future__ import annotations

import json
import shutil

import pytest
from support import write_json
from test_command_packs import FIXTURE, make_pack


def outcomes(doc: dict) -> dict[tuple[str, str], object]:
    return {(host["host"], case["case"]): case["passed"] for host in doc["hosts"] for case in host["cases"]}


def test_a_new_pack_passes_its_own_test_as_made_in_claude_code_and_cursor(hookwright, home, here):
    assert hookwright("pack", "new", "my-guard").code == 0

    ran = hookwright("pack", "test", "./my-guard", "--json")

    assert ran.code == 0, ran.out + ran.err
    doc = json.loads(ran.out)
    passed = outcomes(doc)
    assert {key: passed[key] for key in passed if key[0] != "opencode"} == {
        ("claude", "blocks-rm-rf"): True, ("claude", "lets-ls-through"): True,
        ("cursor", "blocks-rm-rf"): True, ("cursor", "lets-ls-through"): True}
    cursor = next(host for host in doc["hosts"] if host["host"] == "cursor")
    blocked = cursor["cases"][0]
    assert (blocked["blocked"], blocked["reason"], blocked["schema_errors"]) == (
        True, "my-guard: rm -rf is not allowed here", [])
    assert not (home / ".claude").exists() and not (here / "my-guard" / ".claude").exists()  # (a scratch home)


def test_a_case_the_hook_does_not_do_fails_with_what_differs_and_exit_1(hookwright, home, here):
    assert hookwright("pack", "new", "my-guard").code == 0
    write_json(here / "my-guard" / "tests" / "wrong.json", {
        "event": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /tmp/x"},
        "expect": {"blocked": False, "reason_contains": "never said"}})

    ran = hookwright("pack", "test", "./my-guard", "--host", "cursor")

    assert ran.code == 1
    assert "wrong: failed" in ran.out and "blocked: expected false, got true" in ran.out
    assert "does not say 'never said'" in ran.out


def test_a_guard_made_from_claude_code_hooks_shows_its_rewrite_in_each_agent(hookwright, home, here):
    theirs = here / "theirs"
    shutil.copytree(FIXTURE, theirs)
    assert hookwright("pack", "new", "theirs-guard", "--from", theirs / ".claude" / "settings.json").code == 0
    write_json(here / "theirs-guard" / "tests" / "curl.json", {
        "tool_name": "Bash", "tool_input": {"command": "curl x"},
        "expect": {"blocked": True, "decision": "deny", "reason_contains": "no network"}})

    doc = json.loads(hookwright("pack", "test", "./theirs-guard", "--json").out)

    for host in ("claude", "cursor"):
        cases = {case["case"]: case for row in doc["hosts"] if row["host"] == host for case in row["cases"]}
        assert cases["guard-sample"]["rewritten_to"] == {"command": "echo rewritten"}, host
        assert cases["curl"]["passed"] is True, cases["curl"]


def test_an_agent_the_pack_cannot_run_on_is_said_with_why_and_not_tried(hookwright, home, here):
    make_pack(here, event="Stop", matcher="", extra="")
    text = (here / "my-guard" / "pack.toml").read_text().replace('matcher = ""\n', "").replace(
        "rewrites_input = true", "rewrites_input = false")
    (here / "my-guard" / "pack.toml").write_text(text)

    doc = json.loads(hookwright("pack", "test", "./my-guard", "--json").out)

    tried = {row["host"]: (row["tested"], row["why"]) for row in doc["hosts"]}
    assert tried["claude"] == (True, None)
    assert tried["cursor"][0] is False and "cannot run in Cursor" in tried["cursor"][1]


@pytest.mark.parametrize("text, says", [
    ("{not json", "a test case is not JSON"),
    ('{"tool_input": {"command": "ls"}}', "invalid test case"),
    ('{"tool_name": "Bash", "expect": {"blocked": "yes"}}', "invalid test case at expect/blocked"),
])
def test_a_broken_case_is_refused_with_its_file_before_anything_runs(hookwright, home, here, text, says):
    assert hookwright("pack", "new", "my-guard").code == 0
    (here / "my-guard" / "tests" / "broken.json").write_text(text)

    ran = hookwright("pack", "test", "./my-guard")

    assert ran.code == 2 and says in ran.err and "broken.json" in ran.err


def test_a_cursor_answer_its_schema_refuses_is_reported():
    from hookwright.pack_cases import answer_schema_errors

    rows = [{"event": "preToolUse", "exit_code": 0, "stdout": '{"permission": "deny"}'},
            {"event": "preToolUse", "exit_code": 0, "stdout": json.dumps({"hookSpecificOutput": {
                "permissionDecision": "deny"}})},
            {"event": "beforeShellExecution", "exit_code": 2, "stdout": "not read"}]

    errors = answer_schema_errors(rows, "cursor-hook-output.schema.json")

    assert len(errors) == 1 and errors[0].startswith("preToolUse: ") and "hookSpecificOutput" in errors[0]
