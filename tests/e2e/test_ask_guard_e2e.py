"""ask-guard, installed by hookwright, in the real Claude Code CLI.

AskUserQuestion exists only in the Agent SDK's transport (`-p --input-format stream-json
--permission-prompt-tool stdio`), where a question the hooks leave alone goes to the SDK host
as a `can_use_tool` control request on stdout, and the host's `control_response` on stdin
carries the answers. What 2.1.328 did, pinned here:

- a marked never-ask question (two-way door, one recommended option) is answered by
  question-preference: an ordinary "Your questions have been answered" result, no request to
  the host, and question-log records it with source "auto";
- an unmarked question is left alone: with the host's stdin already closed (run_claude) the
  CLI's permission request fails ("Tool permission request failed: AbortError: Stream closed",
  is_error, in permission_denials), neither PostToolUse nor PostToolUseFailure fires, and
  nothing is logged; with a live host that answers it, question-log records it as "user";
- in mode=deny the model gets the hook error naming the chosen option and the hook logs
  "auto-deny" itself (PostToolUse does not fire after a deny);
- a failing MCP question tool fires PostToolUseFailure, and ask-error-fallback's advice reaches
  the model as a system message.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from claude_cli import CLAUDE, _kill_tree, cli_env, hookwright, run_claude
from fake_model_api import FakeModelAPI

pytestmark = pytest.mark.e2e

MARKED = "Which deploy target? <qid:deploy-target>"
UNMARKED = "Which log format do you want?"


def question(text: str, *labels: str) -> dict:
    return {"question": text, "header": "Choice", "multiSelect": False,
            "options": [{"label": label, "description": "use " + label} for label in labels]}


ASK_MARKED = {"tool": "AskUserQuestion",
              "input": {"questions": [question(MARKED, "staging (recommended)", "canary")]}}
ASK_UNMARKED = {"tool": "AskUserQuestion",
                "input": {"questions": [question(UNMARKED, "json (recommended)", "text")]}}
PREFS = {"version": 1, "questions": {"deploy-target": "never-ask"}, "doors": {"deploy-target": "two-way"}}


class State:
    """Where the hooks keep their files: the CLI gives them HOME and no XDG variables."""

    def __init__(self, home: Path):
        self.root = home / ".local" / "state" / "hookwright"

    def questions(self) -> list[dict]:
        path = self.root / "ask-guard" / "questions.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def markers(self) -> list[str]:
        folder = self.root / "ask-guard" / "auto"
        return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []

    def errors(self) -> list[str]:
        path = self.root / "hooks.log"
        return path.read_text().splitlines() if path.exists() else []


def install(home: Path, project: Path, *extra: str) -> State:
    done = hookwright("install", "ask-guard", "--scope", "project", "--project", str(project), "--yes", *extra,
                      home=home, project=project)
    assert done.returncode == 0, done.stdout + done.stderr
    prefs = project / ".claude" / "hookwright-prefs.json"
    prefs.write_text(json.dumps(PREFS))
    return State(home)


def session_id(events: list[dict]) -> str:
    return next(e["session_id"] for e in events if e.get("type") == "system" and e.get("subtype") == "init")


def model_saw(requests: list[dict], text: str) -> bool:
    return any(text in json.dumps(r["body"].get("messages", [])) for r in requests)


# ---- the SDK host, played by the test ---------------------------------------------------------

def run_sdk_host(project: Path, home: Path, turns: list, answer, *, claude: Path = CLAUDE,
                 timeout: float = 120) -> dict:
    """Run the CLI as the Agent SDK does and answer its `can_use_tool` requests with
    ``answer(request) -> response``. Returns the control requests, events and tool results."""
    args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose",
            "--permission-prompt-tool", "stdio", "--dangerously-skip-permissions"]
    prompt = {"type": "user", "message": {"role": "user", "content": "go"}}
    requests, events = [], []
    with FakeModelAPI(list(turns)) as api, tempfile.TemporaryDirectory(prefix="hw-cc-") as tmp:
        proc = subprocess.Popen([str(claude), *args], cwd=project, env=cli_env(api.url, home, tmp),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        killer = threading.Timer(timeout, _kill_tree, [proc.pid])
        killer.start()
        try:
            proc.stdin.write((json.dumps(prompt) + "\n").encode())
            proc.stdin.flush()
            for raw in proc.stdout:
                try:
                    event = json.loads(raw)
                except ValueError:
                    continue
                events.append(event)
                if event.get("type") == "control_request":
                    if event["request"].get("subtype") == "can_use_tool":
                        requests.append(event["request"])
                        response = {"subtype": "success", "request_id": event["request_id"],
                                    "response": answer(event["request"])}
                    else:  # nothing else is expected; an answer keeps the CLI from waiting
                        response = {"subtype": "error", "request_id": event["request_id"],
                                    "error": "not supported by this test host"}
                    proc.stdin.write((json.dumps({"type": "control_response", "response": response}) + "\n").encode())
                    proc.stdin.flush()
                elif event.get("type") == "result":
                    proc.stdin.close()  # end of the conversation: the CLI exits
            proc.wait(timeout=30)
            stderr = proc.stderr.read().decode("utf-8", "replace")
        finally:
            killer.cancel()
            if proc.poll() is None:
                _kill_tree(proc.pid)
                proc.wait()
        return {"returncode": proc.returncode, "requests": requests, "events": events,
                "tool_results": api.tool_results(), "stderr": stderr, "api_requests": list(api.requests)}


# ---- the tests --------------------------------------------------------------------------------

def test_never_ask_question_is_answered_by_the_hook(claude_cli, home, project):
    state = install(home, project)

    run = run_claude(project, home, [ASK_MARKED], sdk_mode=True, claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert not result["is_error"], result["content"]
    assert result["content"] == (f'Your questions have been answered: "{MARKED}"="staging (recommended)". '
                                 "You can now continue with these answers in mind.")
    assert run.permission_denials == []
    [record] = state.questions()
    assert record.pop("time")
    assert record == {
        "id": "deploy-target", "question": MARKED, "options": ["staging (recommended)", "canary"],
        "answer": "staging (recommended)", "source": "auto", "session_id": session_id(run.events),
        "tool_use_id": result["tool_use_id"],
        "why": {"preference": "never-ask", "preference_source": "project", "door": "two-way",
                "door_source": "registry"}}
    assert state.markers() == []  # consumed by question-log
    assert state.errors() == []
    assert not model_saw(run.requests, "hookwright ask-guard: the question tool")  # no fallback advice


def test_unmarked_question_is_left_alone(claude_cli, home, project):
    """Nobody on the SDK side to answer: the CLI's permission request fails, and the hook did
    not step in (no answer, no marker, no log line; PostToolUse never fired)."""
    state = install(home, project)

    run = run_claude(project, home, [ASK_UNMARKED], sdk_mode=True, claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert result["is_error"]
    assert result["content"] == "Tool permission request failed: AbortError: Stream closed"
    assert [d["tool_name"] for d in run.permission_denials] == ["AskUserQuestion"]
    assert state.markers() == []
    assert state.questions() == []
    assert state.errors() == []


def test_log_tells_auto_from_user_answers_in_one_session(claude_cli, home, project):
    """A live SDK host: the marked question never reaches it, the unmarked one does and the
    host answers; question-log records the first as auto and the second as user."""
    state = install(home, project)

    def host(request: dict) -> dict:
        answers = {q["question"]: "text" for q in request["input"]["questions"]}
        return {"behavior": "allow", "updatedInput": dict(request["input"], answers=answers)}

    run = run_sdk_host(project, home, [ASK_MARKED, ASK_UNMARKED], host, claude=claude_cli)

    assert run["returncode"] == 0, run["stderr"]
    assert [[q["question"] for q in r["input"]["questions"]] for r in run["requests"]] == [[UNMARKED]]
    first, second = run["tool_results"]
    assert not first["is_error"] and '"staging (recommended)"' in first["content"]
    assert not second["is_error"] and f'"{UNMARKED}"="text"' in second["content"]
    records = state.questions()
    assert [(r["id"], r["question"], r["answer"], r["source"]) for r in records] == [
        ("deploy-target", MARKED, "staging (recommended)", "auto"),
        (records[1]["id"], UNMARKED, "text", "user"),
    ]
    assert records[1]["id"].startswith("h-") and len(records[1]["id"]) == 14
    assert {r["session_id"] for r in records} == {session_id(run["events"])}
    assert state.markers() == []
    assert state.errors() == []


def test_deny_mode_names_the_option_and_logs_auto_deny(claude_cli, home, project):
    state = install(home, project, "--option", "mode=deny")

    run = run_claude(project, home, [ASK_MARKED], sdk_mode=True, claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert result["is_error"]
    assert result["content"].startswith("PreToolUse:AskUserQuestion hook error: ")
    assert ('- [deploy-target] "Which deploy target?" -> take "staging (recommended)"'
            in result["content"]), result["content"]
    assert [d["tool_name"] for d in run.permission_denials] == ["AskUserQuestion"]
    [record] = state.questions()
    assert (record["id"], record["answer"], record["source"]) == ("deploy-target", "staging (recommended)", "auto-deny")
    assert state.markers() == []
    assert state.errors() == []


MCP_SERVER = r'''
import json, sys
calls = sys.argv[1]
def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    if not line.strip():
        continue
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        version = msg.get("params", {}).get("protocolVersion", "2024-11-05")
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": version, "capabilities": {"tools": {}},
              "serverInfo": {"name": "ui", "version": "1.0"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{"name": "AskUserQuestion",
              "description": "Ask the user questions.", "inputSchema": {"type": "object",
              "properties": {"questions": {"type": "array"}}, "required": ["questions"]}}]}})
    elif method == "tools/call":
        with open(calls, "a") as out:
            out.write(json.dumps(msg.get("params")) + "\n")
        send({"jsonrpc": "2.0", "id": mid, "result": {"isError": True,
              "content": [{"type": "text", "text": "the question UI is not connected"}]}})
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
'''


def test_failing_mcp_question_tool_gets_fallback_advice(claude_cli, home, project, tmp_path):
    """Plain `claude -p` (headless): the MCP question tool fails, PostToolUseFailure fires, and
    the model is told to stop and report that it is blocked."""
    state = install(home, project)
    server = tmp_path / "ui_server.py"
    server.write_text(MCP_SERVER)
    calls = tmp_path / "calls.jsonl"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"ui": {"command": sys.executable,
                                                         "args": [str(server), str(calls)]}}}))
    ask = {"tool": "mcp__ui__AskUserQuestion",
           "input": {"questions": [question(UNMARKED, "json (recommended)", "text")]}}

    run = run_claude(project, home, [ask], claude=claude_cli,
                     extra_args=["--mcp-config", str(config), "--strict-mcp-config"])

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert result["is_error"] and "the question UI is not connected" in result["content"]
    assert len(calls.read_text().splitlines()) == 1  # the tool really ran and failed
    advice = ("PostToolUseFailure:mcp__ui__AskUserQuestion hook additional context: hookwright ask-guard: the "
              "question tool mcp__ui__AskUserQuestion failed (the question UI is not connected)")
    assert model_saw(run.requests, advice)
    assert model_saw(run.requests, "Nobody can answer questions in this session (a headless run).")
    assert model_saw(run.requests, "Recommended: json (recommended)")
    assert state.questions() == []  # PostToolUse did not fire
    assert state.errors() == []
