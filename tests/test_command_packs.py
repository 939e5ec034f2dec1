"""A command pack: a hook of one's own, written for Claude Code's protocol, on every agent.

Claude Code runs the command as written; Cursor and opencode run it behind the runtime, which
hands it the call in Claude Code's words and turns its answer into theirs. Each test installs a
real pack folder (tests/fixtures/claude-guard's guard, or one written here) with the CLI in
process, and runs what was installed as the agent would: the command through sh, the runtime
with the agent's own payload.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import read_json, write_json

FIXTURE = Path(__file__).parent / "fixtures" / "claude-guard"
RUNTIME_DIR = Path(__file__).resolve().parents[1] / "templates" / "runtime"
sys.path.insert(0, str(RUNTIME_DIR))
_no_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
import hookwright_runtime as hw  # noqa: E402

sys.dont_write_bytecode = _no_bytecode

MANIFEST = '''name = "{name}"
version = "{version}"
description = "A guard written for Claude Code."

[[hooks]]
id = "guard"
command = "{command}"
description = "rm -rf blocked (exit 2), curl denied (JSON), echo hello rewritten (updatedInput)."
rewrites_input = true
blocks = true

[hooks.claude]
event = "{event}"
matcher = "{matcher}"
timeout = {timeout}
'''


def make_pack(folder: Path, name: str = "my-guard", version: str = "1.0.0", command: str = "python3 ${PACK_DIR}/guard.py",
              event: str = "PreToolUse", matcher: str = "Bash", timeout: int = 10, extra: str = "",
              script: str | None = None) -> Path:
    """A command pack folder: its pack.toml and the fixture's guard (or `script` as guard.py)."""
    pack = folder / name
    pack.mkdir(parents=True, exist_ok=True)
    (pack / "pack.toml").write_text(MANIFEST.format(name=name, version=version, command=command, event=event,
                                                    matcher=matcher, timeout=timeout) + extra)
    guard = pack / "guard.py"
    if script is None:
        shutil.copy(FIXTURE / ".claude" / "hooks" / "guard.py", guard)
    else:
        guard.write_text(script)
    return pack


def where(project: Path, host: str) -> list[str]:
    return ["--host", host, "--scope", "project", "--project", str(project)]


CONFIG = {"claude": ".claude/settings.json", "cursor": ".cursor/hooks.json",
          "opencode": ".opencode/plugins/hookwright-my-guard.js"}
RUNTIME = {"cursor": ".cursor/hookwright/my-guard/guard", "opencode": ".opencode/hookwright/my-guard/guard"}


def run_claude_entry(project: Path, home: Path, command: str, tool_input: dict) -> subprocess.CompletedProcess:
    """The entry's command as Claude Code runs it: sh -c in the project, CLAUDE_PROJECT_DIR set."""
    payload = {"session_id": "s", "transcript_path": None, "cwd": str(project), "permission_mode": "default",
               "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": tool_input, "tool_use_id": "t"}
    return subprocess.run(["sh", "-c", command], input=json.dumps(payload).encode(), capture_output=True,
                          cwd=project, timeout=30, env={**os.environ, "CLAUDE_PROJECT_DIR": str(project)})


def run_runtime(script: Path, host: str, payload: dict, *extra: str, env: dict | None = None):
    return subprocess.run([sys.executable, "-I", "-S", str(script), "--host", host, *extra],
                          input=json.dumps(payload).encode(), capture_output=True, timeout=60,
                          env={**os.environ, **(env or {})})


def cursor_payload(project: Path, command: str, event: str = "preToolUse") -> dict:
    """What Cursor sends (docs/hosts/cursor.md#stdin-payload): its own names, not Claude Code's."""
    base = {"conversation_id": "c", "generation_id": "g", "model": "m", "hook_event_name": event,
            "cursor_version": "1.7", "workspace_roots": [str(project)], "user_email": None, "transcript_path": None}
    if event == "beforeShellExecution":
        return {**base, "command": command, "cwd": str(project), "sandbox": False}
    return {**base, "tool_name": "Shell", "tool_input": {"command": command}, "tool_use_id": "t", "cwd": str(project)}


# ---- the runtime reads a Claude Code answer as Claude Code does ----------------------------------

ANSWERS = [  # (id, event, exit code, stdout, stderr, what it means: (decision, reason, updated input, context))
    ("exit 2 blocks with stderr", "PreToolUse", 2, "", "no rm", ("deny", "no rm", None, None)),
    ("exit 2 with a deny gives the JSON's reason", "PreToolUse", 2,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
     '"permissionDecisionReason": "json says"}}', "stderr says", ("deny", "json says", None, None)),
    ("exit 2 with an allow still blocks", "PreToolUse", 2,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}', "no",
     ("deny", "no", None, None)),
    ("a JSON deny", "PreToolUse", 0,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
     '"permissionDecisionReason": "nope"}}', "", ("deny", "nope", None, None)),
    ("ask", "PreToolUse", 0, '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}', "",
     ("ask", None, None, None)),
    ("a rewrite without a decision", "PreToolUse", 0,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "ls"}}}', "",
     (None, None, {"command": "ls"}, None)),
    ("allow with a rewrite", "PreToolUse", 0,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", '
     '"updatedInput": {"command": "ls"}}}', "", ("allow", None, {"command": "ls"}, None)),
    ("a deny carries no rewrite", "PreToolUse", 0,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
     '"updatedInput": {"command": "ls"}}}', "", ("deny", None, None, None)),
    ("the old block", "PreToolUse", 0, '{"decision": "block", "reason": "old"}', "", ("deny", "old", None, None)),
    ("continue false refuses the call", "PreToolUse", 0, '{"continue": false, "stopReason": "stop"}', "",
     ("deny", "stop", None, None)),
    ("JSON after an exit 1 decides", "PreToolUse", 1,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}', "",
     ("deny", None, None, None)),
    ("nothing passes", "PreToolUse", 0, "", "", None),
    ("plain text on PreToolUse passes", "PreToolUse", 0, "all good", "", None),
    ("empty JSON passes", "PreToolUse", 0, "{}", "", None),
    ("context after a call", "PostToolUse", 0,
     '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "note this"}}', "",
     (None, None, None, "note this")),
    ("a block after a call tells the model", "PostToolUse", 0, '{"decision": "block", "reason": "look again"}', "",
     (None, None, None, "look again")),
    ("exit 2 after a call tells the model", "PostToolUse", 2, "", "it broke", (None, None, None, "it broke")),
    ("plain text at session start is context", "SessionStart", 0, "remember x", "", (None, None, None, "remember x")),
]


@pytest.mark.parametrize("row", ANSWERS, ids=[row[0] for row in ANSWERS])
def test_the_runtime_reads_a_commands_answer_as_claude_code_does(row):
    _, event, code, stdout, stderr, meant = row
    outcome = hw.claude_answer(event, code, stdout.encode(), stderr.encode())
    if meant is None:
        assert outcome is None
    else:
        assert (outcome.decision, outcome.reason, outcome.updated_input, outcome.context) == meant


FAILURES = [  # (id, event, exit code, stdout): what Claude Code counts as a failure of the hook
    ("exit 1 without JSON", "PreToolUse", 1, ""),
    ("exit 127 (a missing script)", "PreToolUse", 127, ""),
    ("JSON that is none", "PreToolUse", 0, '{"hookSpecificOutput": '),
    ("an answer for another event", "PreToolUse", 0, '{"hookSpecificOutput": {"hookEventName": "PostToolUse"}}'),
    ("no hookEventName", "PreToolUse", 0, '{"hookSpecificOutput": {"permissionDecision": "deny"}}'),
    ("an unknown decision", "PreToolUse", 0,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "maybe"}}'),
    ("updatedInput that is no object", "PreToolUse", 0,
     '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": "ls"}}'),
]


@pytest.mark.parametrize("row", FAILURES, ids=[row[0] for row in FAILURES])
def test_an_answer_claude_code_counts_as_a_failure_passes_through_with_its_reason(row):
    _, event, code, stdout = row
    with pytest.raises(hw.PassThrough):
        hw.claude_answer(event, code, stdout.encode(), b"")


# ---- installed on every agent ---------------------------------------------------------------------

@pytest.fixture
def packs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "packs"
    make_pack(folder)
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(folder))
    return folder


def test_claude_code_gets_the_command_as_written_with_the_pack_folder_in_place(hookwright, home, project, packs):
    ran = hookwright("install", "my-guard", *where(project, "claude"), "--yes")

    assert ran.code == 0, ran.err
    handler = read_json(project / CONFIG["claude"])["hooks"]["PreToolUse"][0]
    assert handler["matcher"] == "Bash"
    assert handler["hooks"] == [{"type": "command", "timeout": 10,
                                 "command": 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hookwright/my-guard/guard.py'}]
    assert sorted(p.name for p in (project / ".claude" / "hookwright" / "my-guard").iterdir()) == [
        "guard.py", "receipt.json"]  # (no runtime: Claude Code speaks the command's protocol)
    command = handler["hooks"][0]["command"]
    denied = run_claude_entry(project, home, command, {"command": "rm -rf build"})
    assert (denied.returncode, denied.stderr.decode()) == (2, "guard: rm -rf is not allowed in this project\n")
    rewritten = json.loads(run_claude_entry(project, home, command, {"command": "echo hello"}).stdout)
    assert rewritten["hookSpecificOutput"]["updatedInput"] == {"command": "echo rewritten"}


@pytest.mark.parametrize("event", ["preToolUse", "beforeShellExecution"])
def test_cursor_gets_the_guards_meaning_in_answers_its_schema_takes(hookwright, home, project, packs, event):
    from hookwright.pack_cases import answer_schema_errors

    assert hookwright("install", "my-guard", *where(project, "cursor"), "--yes").code == 0
    entry = read_json(project / CONFIG["cursor"])["hooks"]["preToolUse"][0]
    assert entry["matcher"] == "Shell"  # (Claude Code's Bash is Cursor's Shell; a rewriter runs on preToolUse)
    script = project / RUNTIME["cursor"]
    answers = {}
    for command in ("rm -rf build", "curl https://example.com", "echo hello", "ls"):
        done = run_runtime(script, "cursor", cursor_payload(project, command, event),
                           env={"CURSOR_PROJECT_DIR": str(project)})
        assert done.returncode == 0, done.stderr
        answers[command] = json.loads(done.stdout)
        assert answer_schema_errors([{"event": event, "exit_code": 0, "stdout": done.stdout.decode()}], "cursor-hook-output.schema.json") == []
    assert answers["rm -rf build"] == {"permission": "deny", "user_message": "guard: rm -rf is not allowed in this project",
                                       "agent_message": "guard: rm -rf is not allowed in this project"}
    assert answers["curl https://example.com"]["permission"] == "deny"
    assert answers["curl https://example.com"]["agent_message"] == "guard: no network from the agent"
    assert answers["ls"] == {}
    if event == "preToolUse":  # (Cursor rewrites a call's input on preToolUse only)
        assert answers["echo hello"] == {"updated_input": {"command": "echo rewritten"}}


def test_a_guard_that_does_not_rewrite_runs_on_cursors_shell_event_where_ask_asks(hookwright, home, project, tmp_path,
                                                                                  monkeypatch):
    folder = tmp_path / "asking"
    make_pack(folder, script="import sys\nprint('{\"hookSpecificOutput\": {\"hookEventName\": \"PreToolUse\", "
                             "\"permissionDecision\": \"ask\", \"permissionDecisionReason\": \"sure?\"}}')\n")
    text = (folder / "my-guard" / "pack.toml").read_text().replace("rewrites_input = true", "rewrites_input = false")
    (folder / "my-guard" / "pack.toml").write_text(text)
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(folder))

    assert hookwright("install", "my-guard", *where(project, "cursor"), "--yes").code == 0

    hooks = read_json(project / CONFIG["cursor"])["hooks"]
    assert list(hooks) == ["beforeShellExecution"] and "matcher" not in hooks["beforeShellExecution"][0]
    done = run_runtime(project / RUNTIME["cursor"], "cursor", cursor_payload(project, "ls", "beforeShellExecution"))
    assert json.loads(done.stdout) == {"permission": "ask", "user_message": "sure?", "agent_message": "sure?"}


def test_opencodes_serving_runtime_answers_as_its_plugin_reads(hookwright, home, project, packs):
    assert hookwright("install", "my-guard", *where(project, "opencode"), "--yes").code == 0
    plugin = (project / CONFIG["opencode"]).read_text()
    assert '"tools": "bash"' in plugin
    lines = b"".join(f"{n} ".encode() + json.dumps({
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
        "session_id": "s", "cwd": str(project), "permission_mode": "default"}).encode() + b"\n"
        for n, command in enumerate(["rm -rf build", "curl x", "echo hello", "ls"], 1))
    done = subprocess.run([sys.executable, "-I", "-S", str(project / RUNTIME["opencode"]), "--host", "opencode",
                           "--serve"], input=lines, capture_output=True, timeout=60)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [json.loads(r.get("stdout") or "null") for r in replies] == [
        {"decision": "deny", "reason": "guard: rm -rf is not allowed in this project"},
        {"decision": "deny", "reason": "guard: no network from the agent"},
        {"updated_input": {"command": "echo rewritten"}}, None]


@pytest.mark.parametrize("host", ["claude", "cursor", "opencode"])
def test_a_command_pack_installed_and_uninstalled_leaves_the_files_byte_identical(hookwright, home, project, packs,
                                                                                  host):
    theirs = {"claude": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                                                                                 "command": "echo theirs"}]}]}},
              "cursor": {"version": 1, "hooks": {"preToolUse": [{"command": "echo theirs"}]}}}
    before = {}
    if host in theirs:
        write_json(project / CONFIG[host], theirs[host], indent=4)
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}

    assert hookwright("install", "my-guard", *where(project, host), "--yes").code == 0
    assert (project / CONFIG[host]).read_bytes() != before.get(project / CONFIG[host])
    assert hookwright("uninstall", "my-guard", *where(project, host), "--yes").code == 0

    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before
    assert sorted(p for p in project.rglob("*") if p.is_dir()) == sorted(
        {p for f in before for p in f.parents if project in p.parents})


def test_status_and_doctor_know_an_installed_command_pack_as_ours(hookwright, home, project, packs):
    assert hookwright("install", "my-guard", *where(project, "claude"), "--yes").code == 0

    status = hookwright("status", "--project", project, "--json")
    assert status.code == 0, status.out
    assert [(r["pack"], r["problems"]) for r in status.json["installs"]] == [("my-guard", [])]
    listed = hookwright("list", "--project", project, "--mine", "--json")
    assert [h["owner"] for h in listed.json["hooks"]] == ["my-guard"]


def test_a_command_that_fails_or_hangs_passes_logged_and_blocks_where_installed_to_fail_closed(
        hookwright, home, project, tmp_path, monkeypatch):
    folder = tmp_path / "flaky"
    make_pack(folder, timeout=2, script="import json, sys, time\n"
                                        "if 'hang' in json.load(sys.stdin)['tool_input']['command']:\n"
                                        "    time.sleep(30)\n"
                                        "sys.exit(1)\n")
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(folder))
    log = tmp_path / "hooks.log"

    assert hookwright("install", "my-guard", *where(project, "cursor"), "--yes").code == 0
    for command in ("crash", "hang"):
        started = time.monotonic()
        done = run_runtime(project / RUNTIME["cursor"], "cursor", cursor_payload(project, command),
                           env={"HOOKWRIGHT_LOG": str(log)})
        assert (done.returncode, json.loads(done.stdout)) == (0, {}), done.stderr
        assert time.monotonic() - started < 2  # (inside the 2 s Cursor gives the hook)
    said = log.read_text()
    assert "the command exited 1" in said and "did not answer within" in said
    decisions = [json.loads(line) for line in (tmp_path / "decisions.jsonl").read_text().splitlines()]
    assert [(d["pack"], d["decision"]) for d in decisions] == [("my-guard", "error")] * 2

    assert hookwright("install", "my-guard", *where(project, "cursor"), "-o", "on_failure=block", "--yes").code == 0
    assert read_json(project / CONFIG["cursor"])["hooks"]["preToolUse"][0]["failClosed"] is True
    done = run_runtime(project / RUNTIME["cursor"], "cursor", cursor_payload(project, "crash"), "--fail-closed",
                       env={"HOOKWRIGHT_LOG": str(log)})
    assert done.returncode == 2 and b"installed to fail closed" in done.stderr


# ---- what an agent cannot express is refused, with the reason ------------------------------------

REFUSED = [  # (id, manifest changes, host, the reason's words)
    ("a hook after the call, in opencode", {"event": "PostToolUse"}, "opencode",
     "runs hooks before a tool call only, not on PostToolUse"),
    ("a matcher that is a regular expression, in Cursor", {"matcher": "Ba.*"}, "cursor", "regular expression"),
    ("a tool Cursor has no type for", {"matcher": "WebFetch"}, "cursor", "no tool type for Claude Code's WebFetch"),
    ("a tool opencode does not have", {"matcher": "NotebookEdit"}, "opencode", "no tool for Claude Code's NotebookEdit"),
    ("an event the runtime cannot carry, in Cursor", {"event": "Stop", "matcher": "*"}, "cursor",
     "carries no answer of a Claude Code Stop hook"),
    ("a rewrite after the call, in Cursor", {"event": "PostToolUse"}, "cursor", "reads only on preToolUse"),
]


@pytest.mark.parametrize("row", REFUSED, ids=[row[0] for row in REFUSED])
def test_a_command_hook_an_agent_cannot_run_as_meant_is_refused_there_with_the_reason(hookwright, home, project,
                                                                                       tmp_path, monkeypatch, row):
    _, changes, host, words = row
    make_pack(tmp_path / "packs", **changes)
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "my-guard", *where(project, host), "--yes")

    assert ran.code == 3 and words in ran.err, ran.err
    assert list(project.iterdir()) == []


def test_a_pack_made_for_some_agents_is_refused_in_another(hookwright, home, project, tmp_path, monkeypatch):
    make_pack(tmp_path / "packs")
    manifest = tmp_path / "packs" / "my-guard" / "pack.toml"
    manifest.write_text(manifest.read_text().replace('description = "A guard', 'hosts = ["claude"]\ndescription = "A guard'))
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "my-guard", *where(project, "cursor"), "--yes")

    assert ran.code == 3 and "made for claude only" in ran.err, ran.err


def test_a_pack_may_name_every_agent_hookwright_installs_into_as_its_hosts(hookwright, home, project, tmp_path,
                                                                           monkeypatch):
    from installer.hosts import NAMES
    make_pack(tmp_path / "packs")
    manifest = tmp_path / "packs" / "my-guard" / "pack.toml"
    named = ", ".join(f'"{name}"' for name in NAMES)
    manifest.write_text(manifest.read_text().replace('description = "A guard', f'hosts = [{named}]\ndescription = "A guard'))
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "my-guard", *where(project, "claude"), "--yes")

    assert ran.code == 0, ran.err


# ---- a broken pack is refused at install, at its place -------------------------------------------

BROKEN = [  # (id, how the pack is broken, the file the error names, its line, words of the reason)
    ("a script that is not there", {"command": "python3 ${PACK_DIR}/gone.py"}, "pack.toml", None,
     "'gone.py', which is not in the pack's folder"),
    ("a Python syntax error", {"script": "import json\nif True\n"}, "guard.py", 2, "does not parse in python3"),
    ("a shell syntax error", {"command": "sh ${PACK_DIR}/guard.py"}, "guard.py", None, "does not parse in sh"),
    ("a command sh cannot read", {"command": "python3 ${PACK_DIR}/guard.py && ("}, "pack.toml", None,
     "its command is not one sh can read"),
    ("a script run without its run bit", {"command": "${PACK_DIR}/guard.py"}, "guard.py", None, "has no run bit"),
    ("an interpreter that is not here", {"command": "no-such-python3 ${PACK_DIR}/guard.py"}, "pack.toml", None,
     "no-such-python3"),
    ("the folder in quotes", {"command": 'python3 \\"${PACK_DIR}/guard.py\\"'}, "pack.toml", None,
     "outside quotes"),
    ("a command that names no file of the pack", {"command": "echo hi"}, "pack.toml", None, "names no file of the pack"),
    ("no Claude Code wiring", {"event": "preToolUse", "matcher": "Shell",
                               "extra_replace": ("[hooks.claude]", "[hooks.cursor]")},
     "pack.toml", None, "needs its [hooks.claude] table"),
    ("both a script and a command", {"extra_replace": ('id = "guard"', 'id = "guard"\nscript = "guard"')},
     "pack.toml", None, "not both"),
    ("a timeout the schema refuses", {"timeout": 0}, "pack.toml", None, "timeout"),
]


@pytest.mark.parametrize("row", BROKEN, ids=[row[0] for row in BROKEN])
def test_a_broken_command_pack_is_refused_at_install_with_its_place_and_reason(hookwright, home, project, tmp_path,
                                                                               monkeypatch, row):
    _, broken, file, line, words = row
    broken = dict(broken)
    replace = broken.pop("extra_replace", None)
    pack = make_pack(tmp_path / "packs", **broken)
    if replace:
        (pack / "pack.toml").write_text((pack / "pack.toml").read_text().replace(*replace))
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "my-guard", *where(project, "claude"), "--yes")

    assert ran.code in (2, 3) and words in ran.err, ran.err
    place = str(pack / file) + (f":{line}:" if line else "")
    assert place in ran.err, ran.err
    assert list(project.iterdir()) == []


def test_a_pack_file_that_is_a_link_is_refused(hookwright, home, project, tmp_path, monkeypatch):
    pack = make_pack(tmp_path / "packs")
    (tmp_path / "elsewhere.py").write_text("print('x')\n")
    (pack / "guard.py").unlink()
    (pack / "guard.py").symlink_to(tmp_path / "elsewhere.py")
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "my-guard", *where(project, "claude"), "--yes")

    assert ran.code == 2 and "is not a regular file (a symbolic link)" in ran.err, ran.err
