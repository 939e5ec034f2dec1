"""apply_patch as Codex's hooks see it, on the real Codex, in one session (docs/hosts/codex.md#tool-names).

The model edits files with apply_patch, a freeform tool: the fake API streams each edit as a
custom_tool_call whose input is the patch, for a model whose metadata offer the tool
(PATCHING_MODEL). Every hook acts only on the patch that names its case's file, so one
`codex exec` with one edit per case shows what each hook got, blocked or rewrote; doctor, run on
the same project, must name the edit guard that reads Claude Code's `file_path` (its edit goes
through) and not its twin that reads the patch (its edit is blocked).
"""
from __future__ import annotations

import json
import subprocess

import pytest
from claude_cli import hookwright
from codex_cli import PATCHING_MODEL, answer_hook, hook_calls, hooks_file, run_codex, trust_toml

pytestmark = pytest.mark.e2e


def patch(name: str, old: str = "one", new: str = "two") -> str:
    return f"*** Begin Patch\n*** Update File: {name}\n@@\n-{old}\n+{new}\n*** End Patch\n"


REWRITTEN = patch("rewrite.txt", new="three")
# the answers of the recording hook on `Edit`, by the patch it gets as tool_input.command
ANSWERS = {
    patch("deny.txt"): {"stderr": "no edits to deny.txt", "exit": 2},
    patch("rewrite.txt"): {"stdout": {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                                             "updatedInput": {"command": REWRITTEN}}}},
    patch("no-command.txt"): {"stdout": {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                                                "permissionDecision": "allow",
                                                                "updatedInput": {"file_path": "no-command.txt"}}}},
}
# a guard of one file written for Claude Code's Edit (file_path), and its twin reading the patch
GUARD = ("import json, sys\ndata = json.load(sys.stdin)\nwhat = data['tool_input'].get({field!r}) or ''\n"
         "if {name!r} in what:\n    print('not {name}', file=sys.stderr)\n    sys.exit(2)\n")
CASES = ("deny.txt", "rewrite.txt", "no-command.txt", "file-path.env", "command.env", "plain.txt")


def test_codex_hooks_get_an_edit_as_apply_patchs_patch_text_and_doctor_names_a_guard_reading_file_path(
        codex_cli, home, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".codex" / "hooks").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for name in CASES:
        (repo / name).write_text("one\n")
    record = tmp_path / "record"
    record.mkdir()
    for field, name in (("file_path", "file-path.env"), ("command", "command.env")):
        (repo / ".codex" / "hooks" / f"{field}.py").write_text(GUARD.format(field=field, name=name))
    pre, post = answer_hook(record, "pre-Edit", answers=ANSWERS), answer_hook(record, "post-Edit|Write")
    hooks = hooks_file(("PreToolUse", "Edit", [pre]), ("PreToolUse", "Write", ["python3 .codex/hooks/file_path.py"]),
                       ("PreToolUse", "apply_patch", ["python3 .codex/hooks/command.py"]),
                       ("PreToolUse", "Bash", [answer_hook(record, "pre-Bash")]), ("PostToolUse", "Edit|Write", [post]))
    (repo / ".codex" / "hooks.json").write_text(json.dumps(hooks, indent=2))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

    run = run_codex(repo, home, [*({"tool": "apply_patch", "input": patch(name)} for name in CASES), "done"],
                    bypass_hook_trust=True, model=PATCHING_MODEL)

    now = {name: (repo / name).read_text() for name in CASES}
    assert now == {"deny.txt": "one\n", "rewrite.txt": "three\n", "no-command.txt": "one\n",
                   "file-path.env": "two\n", "command.env": "one\n", "plain.txt": "two\n"}
    outputs = run.outputs()
    assert len(outputs) == len(CASES)
    assert outputs[0].startswith("Command blocked by PreToolUse hook: no edits to deny.txt. Command: *** Begin Patch")
    assert outputs[2] == "hook returned updatedInput without string field `command`"
    assert outputs[4].startswith("Command blocked by PreToolUse hook: not command.env")
    calls = hook_calls(record)
    assert {call["name"] for call in calls} == {"pre-Edit", "post-Edit|Write"}  # (the Bash hook: never)
    pres = [call["input"] for call in calls if call["name"] == "pre-Edit"]
    assert [(got["tool_name"], got["tool_input"]) for got in pres] == [("apply_patch", {"command": patch(name)})
                                                                     for name in CASES]
    posts = {got["tool_input"]["command"]: got for got in (c["input"] for c in calls if c["name"] == "post-Edit|Write")}
    assert set(posts) == {REWRITTEN, patch("file-path.env"), patch("plain.txt")}
    assert posts[REWRITTEN]["tool_name"] == "apply_patch" and "Success." in posts[REWRITTEN]["tool_response"]

    doctor = hookwright("doctor", "--format", "json", home=home, project=repo)
    said = [(f["path"].split("/")[-1], f["line"]) for f in json.loads(doctor.stdout)["findings"]
            if f["rule"] == "script/tool-field-not-sent"]
    assert said == [("file_path.py", 3)]
