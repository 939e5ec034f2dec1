"""Cursor: install, uninstall, rollback and render into `.cursor/hooks.json` and `~/.cursor/hooks.json`,
and the runtimes answering Cursor-shaped payloads in Cursor's shape.

Cursor's agent cannot run here (it installs from Cursor's site and logs in to Cursor's
servers), so what Cursor would read is checked against its documented shapes: the rendered
files against schemas/cursor-hooks.schema.json, every answer against
schemas/cursor-hook-output.schema.json, and each command through a real shell, run from the
project root as Cursor runs a project's hooks.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest
from hookwright import resources
from support import read_json
from test_git_guard_table import PREFIX, READS_THE_REPOSITORY, ROWS, UNFOLLOWED

DENIED = [(command, expected) for command, expected in ROWS
          if expected not in (None, UNFOLLOWED) and command not in READS_THE_REPOSITORY][::8]
HARMLESS = [command for command, expected in ROWS if expected is None and command not in READS_THE_REPOSITORY][:12]

CURSOR_GUARD = 'python3 -I -S "${CURSOR_PROJECT_DIR:-.}"/.cursor/hookwright/git-guard/git-guard --host cursor'


def schema(name: str) -> dict:
    return json.loads((resources.data_root() / "schemas" / name).read_text())


HOOKS_SCHEMA = jsonschema.Draft202012Validator(schema("cursor-hooks.schema.json"))
OUTPUT_SCHEMA = schema("cursor-hook-output.schema.json")


def answer_is_cursors(answer: dict, event: str) -> None:
    """The answer validates against Cursor's documented output for the event, and nothing else."""
    validator = jsonschema.Draft202012Validator({**OUTPUT_SCHEMA, "$ref": f"#/$defs/{event}"})
    errors = [e.message for e in validator.iter_errors(answer)]
    assert not errors, (answer, errors)


def at(project: Path) -> tuple:
    return ("--host", "cursor", "--scope", "project", "--project", project)


def cursor_payload(event: str, **fields) -> bytes:
    common = {"conversation_id": "c1", "generation_id": "g1", "model": "auto", "hook_event_name": event,
              "cursor_version": "3.7.21", "workspace_roots": ["/work/proj"], "user_email": None,
              "transcript_path": None}
    return json.dumps({**common, **fields}).encode()


def shell_payload(command: str) -> bytes:
    return cursor_payload("beforeShellExecution", command=command, cwd="/work/proj", sandbox=False)


@pytest.fixture
def installed(hookwright, home, project) -> Path:
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    return project


def run_entry(project: Path, stdin: bytes, env: dict, event: str = "beforeShellExecution") -> subprocess.CompletedProcess:
    """The installed entry's command, through a shell from the project root, as Cursor runs it."""
    (entry,) = read_json(project / ".cursor" / "hooks.json")["hooks"][event]
    return subprocess.run(["sh", "-c", entry["command"]], input=stdin, cwd=project, env=env, capture_output=True,
                          timeout=30)


# ---- the file ------------------------------------------------------------------------------------------

def test_install_writes_a_version_1_hooks_json_with_a_flat_entry_and_the_runtimes(installed):
    data = read_json(installed / ".cursor" / "hooks.json")

    assert data == {"version": 1, "hooks": {"beforeShellExecution": [{"command": CURSOR_GUARD, "timeout": 10}]}}
    assert not list(HOOKS_SCHEMA.iter_errors(data))
    assert os.access(installed / ".cursor" / "hookwright" / "git-guard" / "git-guard", os.X_OK)
    assert (installed / ".cursor" / "hookwright" / "git-guard" / "receipt.json").is_file()


def test_path_normalizer_goes_on_pre_tool_use_for_mcp_tools(hookwright, home, project):
    assert hookwright("install", "path-normalizer", *at(project), "--yes").code == 0
    data = read_json(project / ".cursor" / "hooks.json")

    (entry,) = data["hooks"]["preToolUse"]
    assert entry["matcher"] == "MCP:.*" and entry["command"].endswith("path-normalizer --host cursor")
    assert not list(HOOKS_SCHEMA.iter_errors(data))


def test_foreign_entries_and_formatting_survive_and_uninstall_gives_back_the_bytes(hookwright, home, project):
    hooks = project / ".cursor" / "hooks.json"
    hooks.parent.mkdir()
    original = ('{\n    "version": 1,\n    "hooks": {\n        "beforeShellExecution": [\n'
                '            { "command": "./audit.sh", "failClosed": true }\n        ],\n'
                '        "stop": [ { "command": "say done" } ]\n    }\n}\n').encode()
    hooks.write_bytes(original)

    assert hookwright("install", "git-guard", "path-normalizer", *at(project), "--yes").code == 0
    data = read_json(hooks)
    assert data["hooks"]["beforeShellExecution"][0] == {"command": "./audit.sh", "failClosed": True}
    assert data["hooks"]["stop"] == [{"command": "say done"}]
    assert b'\n        "stop": [ { "command": "say done" } ]' in hooks.read_bytes()  # untouched text
    assert hookwright("uninstall", "git-guard", "path-normalizer", *at(project), "--yes").code == 0
    assert hooks.read_bytes() == original
    assert not (project / ".cursor" / "hookwright").exists()



def test_a_project_hooks_json_without_version_gets_it_with_our_entry_and_says_so(hookwright, home, project):
    """Cursor does not load a project hooks.json without "version": 1 (docs/hosts/cursor.md): an
    install that left it out would report ok for a hook that never runs."""
    hooks = project / ".cursor" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text('{"hooks": {"stop": [{"command": "say done"}]}}')
    planned = hookwright("install", "git-guard", *at(project), "--dry-run", "--json").json
    assert any('adds "version": 1' in note for note in planned["plans"][0]["notes"])
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    assert read_json(hooks)["version"] == 1
    checked = hookwright("doctor", hooks, "--json").json
    assert not [f for f in checked["findings"] if f["rule"] == "host/cursor-version-missing"]

def test_installing_twice_is_installing_once(hookwright, home, installed):
    before = (installed / ".cursor" / "hooks.json").read_bytes()
    again = hookwright("install", "git-guard", *at(installed), "--yes", "--json")

    assert again.json["status"] == "unchanged" and (installed / ".cursor" / "hooks.json").read_bytes() == before


def test_our_entry_with_a_hooks_key_added_by_hand_is_repaired_in_place_and_uninstall_takes_it_out(hookwright,
                                                                                                   installed):
    """Cursor does not run it as written (a Claude Code group's key), but it is still ours: the
    next install puts it right, never beside it, and uninstall leaves nothing."""
    hooks_json = installed / ".cursor" / "hooks.json"
    data = read_json(hooks_json)
    data["hooks"]["beforeShellExecution"][0]["hooks"] = []
    hooks_json.write_text(json.dumps(data, indent=2) + "\n")

    assert hookwright("install", "git-guard", *at(installed), "--yes").code == 0
    assert read_json(hooks_json)["hooks"]["beforeShellExecution"] == [{"command": CURSOR_GUARD, "timeout": 10}]
    assert hookwright("uninstall", "git-guard", *at(installed), "--yes").code == 0
    assert not (installed / ".cursor").exists()


def test_uninstall_removes_a_file_it_created(hookwright, installed):
    assert hookwright("uninstall", "git-guard", *at(installed), "--yes").code == 0
    assert not (installed / ".cursor").exists()


def test_rollback_takes_the_entry_out_again(hookwright, installed):
    assert hookwright("rollback", "--host", "cursor", "--project", installed, "--yes").code == 0
    assert not (installed / ".cursor" / "hooks.json").exists()


def test_the_user_scope_uses_an_absolute_path(hookwright, home):
    assert hookwright("install", "git-guard", "--host", "cursor", "--scope", "user", "--yes").code == 0
    (entry,) = read_json(home / ".cursor" / "hooks.json")["hooks"]["beforeShellExecution"]
    assert entry["command"] == f"python3 -I -S {home}/.cursor/hookwright/git-guard/git-guard --host cursor"


def test_render_prints_what_install_writes(hookwright, home, project):
    shown = hookwright("render", "git-guard", *at(project))
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0

    assert shown.code == 0 and shown.out == (project / ".cursor" / "hooks.json").read_text()


@pytest.mark.parametrize("args, code, says", [
    (("install", "ask-guard"), 3, "needs to answer a question, which Cursor hooks cannot do"),
    (("install", "git-guard", "--scope", "local"), 2, "Cursor has no local scope"),
])
def test_what_cursor_cannot_do_is_refused_with_the_reason(hookwright, home, project, args, code, says):
    ran = hookwright(*args, "--host", "cursor", "--project", project, "--yes")

    assert ran.code == code and says in ran.err
    assert not (project / ".cursor").exists()


@pytest.mark.parametrize("content, says", [
    ('{"version": 1, "hooks": {"stop": [ }', "invalid JSON"),
    ('{"version": 1, "hooks": []}', '"hooks" must be an object'),
    ('{"version": 2, "hooks": {}}', "version 1 format only"),
    ('{"version": 1, "hooks": {"stop": {"command": "x"}}}', "must be a list of entries"),
])
def test_a_file_cursor_or_we_cannot_read_is_left_byte_identical_with_exit_2(hookwright, home, project, content, says):
    hooks = project / ".cursor" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(content)
    ran = hookwright("install", "git-guard", *at(project), "--yes")

    assert ran.code == 2 and says in ran.err and f"{hooks}:" in ran.err
    assert hooks.read_text() == content


# ---- the runtimes, as Cursor runs them -------------------------------------------------------------------

@pytest.mark.parametrize("command, expected", DENIED, ids=[c for c, _ in DENIED])
def test_git_guard_refuses_in_cursors_words(installed, home, command, expected):
    """(Every row of the table on Cursor's payload: tests/test_git_guard_table.py; here, a sample against the schema.)"""
    env = {**os.environ, "HOME": str(home), "HOOKWRIGHT_LOG": str(home / "hooks.log"), "CURSOR_PROJECT_DIR": str(installed)}
    done = run_entry(installed, shell_payload(command), env)

    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    answer_is_cursors(answer, "beforeShellExecution")
    assert answer["permission"] == "deny" and answer["agent_message"].startswith(PREFIX)
    assert answer["agent_message"].endswith("(rule %s)" % expected) and answer["user_message"] == answer["agent_message"]
    assert not (home / "hooks.log").exists()


@pytest.mark.parametrize("command", HARMLESS, ids=[repr(c) for c in HARMLESS])
def test_git_guard_passes_a_harmless_command_with_an_empty_answer(installed, home, command):
    env = {**os.environ, "HOME": str(home), "HOOKWRIGHT_LOG": str(home / "hooks.log")}  # no CURSOR_PROJECT_DIR
    done = run_entry(installed, shell_payload(command), env)

    assert done.returncode == 0 and json.loads(done.stdout) == {}


def test_git_guard_reads_cursors_generic_shell_tool_too(installed, home):
    script = installed / ".cursor" / "hookwright" / "git-guard" / "git-guard"
    stdin = cursor_payload("preToolUse", tool_name="Shell", tool_input={"command": "git reset --hard"},
                           tool_use_id="t1", cwd=str(installed))
    done = subprocess.run(["python3", "-I", "-S", str(script), "--host", "cursor"], input=stdin, capture_output=True,
                          env={**os.environ, "HOME": str(home)}, timeout=30)

    answer = json.loads(done.stdout)
    answer_is_cursors(answer, "preToolUse")
    assert answer["permission"] == "deny" and "reset --hard" in answer["agent_message"]


def test_path_normalizer_rewrites_an_mcp_call_with_updated_input(hookwright, home, project):
    assert hookwright("install", "path-normalizer", *at(project), "--yes").code == 0
    stdin = cursor_payload("preToolUse", tool_name="MCP:read_file", tool_input={"path": "notes/a.md", "limit": 5},
                           tool_use_id="t1", cwd=str(project))
    env = {**os.environ, "HOME": str(home), "HOOKWRIGHT_LOG": str(home / "hooks.log")}
    done = run_entry(project, stdin, env, event="preToolUse")

    answer = json.loads(done.stdout)
    answer_is_cursors(answer, "preToolUse")
    assert answer == {"updated_input": {"path": str(project / "notes" / "a.md"), "limit": 5}}


def test_a_broken_payload_is_a_pass_through_with_an_empty_object_and_a_log_line(installed, home):
    env = {**os.environ, "HOME": str(home), "HOOKWRIGHT_LOG": str(home / "hooks.log")}
    done = run_entry(installed, b"{not json", env)

    assert done.returncode == 0 and done.stdout == b"{}\n"
    assert len((home / "hooks.log").read_text().splitlines()) == 1


def test_a_cursor_answer_never_carries_claude_codes_fields():
    """The output schema itself: Claude Code's shape is not Cursor's."""
    with pytest.raises(AssertionError):
        answer_is_cursors({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}},
                          "beforeShellExecution")
    with pytest.raises(AssertionError):
        answer_is_cursors({"permission": "deny", "updated_input": {}}, "preToolUse")
