"""`hookwright simulate` against the real Claude Code: every scenario runs twice, and must agree.

Each scenario is a set of settings files (user, project, local; at a git root and in a
subfolder) whose PreToolUse hooks are answer_hook.py with a spec (what to print, how to exit,
how long to sleep), and one tool call. It runs once through `hookwright simulate` and once
through the real CLI (pinned, headless, fake model API on 127.0.0.1), and the two must agree on:
- the verdict: the tool ran, was denied, was asked about (refused in -p), or was deferred;
- the input the tool ran with (a PostToolUse recorder writes it), or, when simulate says the
  outcome is nondeterministic, that it is one of simulate's candidates;
- the context added (the CLI sends each `additionalContext` to the model);
- whether the session stopped (`continue: false`);
- which hooks ran, and how often (each hook writes its name to fired.log).
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from claude_cli import run_claude

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent
ANSWER = HERE / "answer_hook.py"
MCP_SERVER = HERE / "fake_mcp_server.py"
PY = sys.executable
ORIGINAL = {"command": "echo ORIG", "description": "orig desc", "timeout": 60000}
MCP_CALL = {"path": "notes/a.txt", "mode": "r"}
WRITE = {"file_path": "src/a.txt", "content": "W"}  # relative: the host makes it absolute
RECORDER = f"{shlex.quote(PY)} -c " + shlex.quote(
    "import json, os, sys; d = json.load(sys.stdin); "
    "open(os.path.join(os.environ['CLAUDE_PROJECT_DIR'], 'ran.jsonl'), 'a').write(json.dumps(d['tool_input']) + '\\n')")


def pre(**specific) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **specific}})


def decide(decision: str, reason: str | None = None, **more) -> str:
    return pre(permissionDecision=decision, permissionDecisionReason=reason or f"says {decision}", **more)


@dataclass
class Hook:
    name: str
    stdout: str = ""
    exit: int = 0
    stderr: str = ""
    sleep: float = 0
    timeout: float | None = None
    fields: dict = field(default_factory=dict)  # more handler fields (async...)


@dataclass
class Scenario:
    name: str
    groups: dict[str, list[tuple[str | None, list[Hook]]]]  # file -> [(matcher, hooks)]
    tool: str = "Bash"
    tool_input: dict = field(default_factory=lambda: dict(ORIGINAL))
    launch: str = "."  # the folder the CLI starts in, below the project root
    git: bool = False
    permissions: dict = field(default_factory=dict)  # the project settings' permission rules


P, L, U = "project", "local", "user"


def one(*hooks: Hook, matcher: str | None = "Bash", where: str = P) -> dict:
    return {where: [(matcher, list(hooks))]}


def matcher_case(text: str | None) -> Scenario:
    return Scenario(f"matcher {text!r}", one(Hook("m", decide("deny")), matcher=text))


SCENARIOS = [
    # one hook, each decision
    Scenario("allow", one(Hook("a", decide("allow")))),
    Scenario("deny", one(Hook("a", decide("deny", "no way")))),
    Scenario("ask", one(Hook("a", decide("ask", "sure?")))),
    Scenario("defer", one(Hook("a", decide("defer")))),
    # every pair of decisions
    Scenario("allow + deny", one(Hook("a", decide("allow")), Hook("b", decide("deny")))),
    Scenario("deny + defer", one(Hook("a", decide("deny")), Hook("b", decide("defer")))),
    Scenario("defer + ask", one(Hook("a", decide("defer")), Hook("b", decide("ask")))),
    Scenario("ask + allow", one(Hook("a", decide("ask")), Hook("b", decide("allow")))),
    Scenario("deny + ask", one(Hook("a", decide("deny")), Hook("b", decide("ask")))),
    Scenario("defer + allow", one(Hook("a", decide("defer")), Hook("b", decide("allow")))),
    # exit codes, with and without JSON
    Scenario("exit 0, {}", one(Hook("a", "{}"))),
    Scenario("exit 0, nothing", one(Hook("a"))),
    Scenario("exit 0, invalid JSON beside a rewrite", one(
        Hook("a", "{not json"), Hook("b", decide("allow", updatedInput={"command": "echo FROM_B"})))),
    Scenario("exit 0, plain text", one(Hook("a", "deny this please"))),
    Scenario("exit 0, text before the JSON", one(Hook("a", "debug: starting\n" + decide("deny")))),
    Scenario("exit 0, whitespace before the JSON", one(Hook("a", "\n\n   " + decide("deny")))),
    Scenario("exit 0, a byte-order mark before the JSON", one(Hook("a", "\ufeff" + decide("deny")))),
    Scenario("exit 0, NaN in the JSON", one(Hook("a", decide("deny")[:-1] + ', "score": NaN}'))),
    Scenario("exit 1 with stderr", one(Hook("a", exit=1, stderr="oops"))),
    Scenario("exit 0 with a deny JSON on stderr", one(Hook("a", exit=0, stderr=decide("deny", "from stderr")))),
    Scenario("exit 1 with a deny JSON", one(Hook("a", decide("deny", "from exit 1"), exit=1))),
    Scenario("exit 1 with a rewrite JSON", one(Hook("a", decide("allow", updatedInput={"command": "echo X1"}), exit=1))),
    Scenario("exit 2 with stderr", one(Hook("a", exit=2, stderr="blocked by stderr"))),
    Scenario("exit 2 with an allow JSON", one(Hook("a", decide("allow"), exit=2, stderr="still blocked"))),
    Scenario("exit 3 with the legacy block", one(Hook("a", json.dumps({"decision": "block", "reason": "legacy"}), exit=3))),
    Scenario("legacy approve beside a rewrite", one(
        Hook("a", json.dumps({"decision": "approve"})), Hook("b", decide("allow", updatedInput={"command": "echo B"})))),
    # answers that count for nothing, and ignored names
    Scenario("wrong hookEventName", one(Hook("a", json.dumps({"hookSpecificOutput": {
        "hookEventName": "PostToolUse", "permissionDecision": "deny"}})))),
    Scenario("no hookEventName", one(Hook("a", json.dumps({"hookSpecificOutput": {"permissionDecision": "deny"}})))),
    Scenario("invalid decision value", one(Hook("a", pre(permissionDecision="block")))),
    Scenario("updatedInput as a string", one(Hook("a", pre(permissionDecision="allow", updatedInput="echo S")))),
    Scenario("modifiedToolInput is ignored", one(Hook("a", pre(permissionDecision="allow",
                                                               modifiedToolInput={"command": "echo M"})))),
    Scenario("top-level updatedInput is ignored", one(Hook("a", json.dumps({"updatedInput": {"command": "echo T"},
                                                                             "permissionDecision": "deny"})))),
    Scenario("a top-level decision deny", one(Hook("a", json.dumps({"decision": "deny", "reason": "top"})))),
    Scenario("PermissionRequest's decision shape on PreToolUse", one(Hook("a", pre(decision="deny")))),
    Scenario("a top-level permissionDecision deny", one(Hook("a", json.dumps({"permissionDecision": "deny"})))),
    Scenario("continue false beside a wrong hookEventName", one(Hook("a", json.dumps({
        "continue": False, "hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "deny"}})))),
    Scenario("continue given as a string", one(Hook("a", json.dumps({
        "continue": "no", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}})))),
    Scenario("updatedInput as a list", one(Hook("a", pre(permissionDecision="allow", updatedInput=["echo L"])))),
    Scenario("additionalContext as a number beside a deny", one(Hook("a", pre(permissionDecision="deny",
                                                                               additionalContext=5)))),
    Scenario("a deny reason given as a number", one(Hook("a", pre(permissionDecision="deny",
                                                                   permissionDecisionReason=7)))),
    Scenario("an async deny", one(Hook("a", decide("deny"), fields={"async": True}))),
    Scenario("additionalContext beside a deny", one(Hook("a", decide("deny", additionalContext="CTX-one")))),
    Scenario("additionalContext beside an ask", one(Hook("a", decide("ask", additionalContext="CTX-one")))),
    Scenario("a rewrite beside an ask", one(Hook("a", decide("ask", updatedInput={"command": "echo ASKED"})))),
    Scenario("a systemMessage and suppressOutput", one(Hook("a", json.dumps({
        "systemMessage": "hello user", "suppressOutput": True, "hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny"}})))),
    Scenario("exit 2 with nothing on stderr", one(Hook("a", exit=2))),
    Scenario("a deny and continue false", one(Hook("a", json.dumps({
        "continue": False, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}})))),
    # onFailure: "block" makes a failure count as exit 2 (docs/hosts/claude-code.md#on-failure); without it
    # a failure lets the call run (exit 1, exit 2 and plain text without it: the scenarios above)
    *(Scenario(f"{name}, onFailure {value}" if value else name, one(
        Hook("a", stdout, code, stderr, sleep, timeout, {"onFailure": value} if value else {})))
      for name, stdout, code, stderr, sleep, timeout, values in (
          ("exit 1", "", 1, "E1", 0, None, ("block", "continue")),
          ("exit 3", "", 3, "", 0, None, ("block",)),
          ("exit 2", "", 2, "E2", 0, None, ("block",)),
          ("a timeout", "", 0, "", 4, 1, ("block", None)),
          ("exit 1 beside a valid allow", decide("allow"), 1, "", 0, None, ("block", None)),
          ("JSON of another event", json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                                                       "permissionDecision": "deny"}}), 0, "", 0, None,
           ("block",)),
          ("plain text", "words", 0, "", 0, None, ("block",)))
      for value in values),
    Scenario("an async exit 1, onFailure block", one(Hook("a", exit=1, fields={"onFailure": "block", "async": True}))),
    # timeouts
    Scenario("a timed-out deny beside a rewrite", one(
        Hook("slow", decide("deny"), sleep=4, timeout=1), Hook("b", decide("allow", updatedInput={"command": "echo B"})))),
    # rewrites
    Scenario("a rewrite that drops fields", one(Hook("a", decide("allow", updatedInput={"command": "echo changed"})))),
    Scenario("a rewrite without a decision", one(Hook("a", pre(updatedInput={"command": "echo bare"})))),
    Scenario("a rewrite the tool's schema rejects", one(Hook("a", decide("allow", updatedInput={"cmd": "echo T"})))),
    Scenario("a rewrite with the wrong type", one(Hook("a", decide("allow", updatedInput={"command": 5})))),
    Scenario("two rewrites, one much slower", one(
        Hook("a", decide("allow", updatedInput={"command": "echo A"}), sleep=1.5),
        Hook("b", decide("allow", updatedInput={"command": "echo B"})))),
    Scenario("two rewrites in two groups", {P: [("Bash", [Hook("a", decide("allow", updatedInput={"command": "echo A"}))]),
                                                ("*", [Hook("b", decide("allow", updatedInput={"command": "echo B"}))])]}),
    # bash's syntax in a shell-form command: /bin/sh (dash here) stops at the array with exit 2, a block
    Scenario("a command sh cannot parse", one(Hook("a", fields={"command": 'x=(a b); echo "${x[0]}"'}))),
    Scenario("a here-string beside a rewrite", one(Hook("a", fields={"command": 'cat <<< "$HOME" >/dev/null'}),
                                                   Hook("b", decide("allow", updatedInput={"command": "echo B"})))),
    Scenario("a deny beside a rewrite", one(Hook("a", decide("deny")),
                                            Hook("b", decide("allow", updatedInput={"command": "echo B"})))),
    # context and continue
    Scenario("additionalContext", one(Hook("a", pre(additionalContext="CTX-one")))),
    Scenario("two contexts, joined as they finish", one(Hook("a", pre(additionalContext="CTX-a"), sleep=0.8),
                                                       Hook("b", pre(additionalContext="CTX-b")))),
    Scenario("continue false with a rewrite", one(Hook("a", json.dumps({
        "continue": False, "stopReason": "enough", "hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "echo CF"}}})))),
    # matchers
    *(matcher_case(text) for text in ("Bash", "Read|Bash", "Ba.*", "^Bash$", "*", "", None, "bash", "Bas",
                                      "Bash(echo:*)")),
    Scenario("MCP regex matcher with a rewrite", one(
        Hook("a", decide("allow", updatedInput={"path": "/abs/notes/a.txt", "mode": "r"})), matcher="mcp__docs__.*"),
        tool="mcp__docs__read_doc", tool_input=dict(MCP_CALL)),
    Scenario("MCP server name alone matches nothing", one(Hook("a", decide("deny")), matcher="mcp__docs"),
             tool="mcp__docs__read_doc", tool_input=dict(MCP_CALL)),
    Scenario("MCP exact tool name", one(Hook("a", decide("deny")), matcher="mcp__docs__read_doc"),
             tool="mcp__docs__read_doc", tool_input=dict(MCP_CALL)),
    Scenario("an if that matches the command", one(Hook("a", decide("deny"), fields={"if": "Bash(echo *)"}))),
    Scenario("an if that does not", one(Hook("a", decide("deny"), fields={"if": "Bash(git *)"}))),
    Scenario("an if on another tool", one(Hook("a", decide("deny"), fields={"if": "Read"}), matcher="*")),
    # the settings' permission rules, which a hook's answer does not switch off
    Scenario("a deny rule beats a hook's allow", one(Hook("a", decide("allow"))),
             permissions={"deny": ["Bash(echo *)"]}),
    Scenario("a deny rule beats a hook's ask", one(Hook("a", decide("ask"))), permissions={"deny": ["Bash(echo *)"]}),
    Scenario("an ask rule still prompts after a hook's allow", one(Hook("a", decide("allow"))),
             permissions={"ask": ["Bash(echo *)"]}),
    Scenario("a deny rule for another command", one(Hook("a", decide("allow"))), permissions={"deny": ["Bash(rm *)"]}),
    Scenario("a deny rule judges the rewritten command", one(Hook("a", decide("allow", updatedInput={
        "command": "rm -f nothing-here"}))), permissions={"deny": ["Bash(rm *)"]}),
    Scenario("a deny rule on one part of a compound command", one(Hook("a", decide("allow"))),
             tool_input={"command": "echo ORIG; FOO=1 rm -f nothing-here"}, permissions={"deny": ["Bash(rm *)"]}),
    Scenario("a word rule is the word, not a prefix", one(Hook("a", decide("allow"))),
             permissions={"deny": ["Bash(ech:*)"]}),
    Scenario("an if on one part of a compound command", one(Hook("a", decide("deny"), fields={"if": "Bash(rm *)"})),
             tool_input={"command": "echo ORIG && rm -f nothing-here"}),
    Scenario("an if with a trailing * matches the bare command", one(Hook("a", decide("deny"), fields={
        "if": "Bash(echo *)"})), tool_input={"command": "echo"}),
    # scopes
    # file tools: a path deny rule for the tools that write is an Edit(...) rule, checked before the hooks
    Scenario("an Edit deny rule refuses a Write before the hooks run", one(Hook("a", pre(additionalContext="CTX-never")),
             matcher="*"), tool="Write", tool_input=dict(WRITE), permissions={"deny": ["Edit(src/**)"]}),
    Scenario("a Write deny rule refuses nothing", one(Hook("a", pre(additionalContext="CTX-ran")), matcher="*"),
             tool="Write", tool_input=dict(WRITE), permissions={"deny": ["Write(src/**)"]}),
    Scenario("a relative path reaches the tool made absolute", one(Hook("a", decide("allow", updatedInput={
        "file_path": "other.txt", "content": "W"})), matcher="Write"), tool="Write", tool_input=dict(WRITE)),
    Scenario("the same hook in user, project and local settings", {
        where: [("Bash", [Hook("same", decide("allow", updatedInput={"command": "echo once"}))])] for where in (U, P, L)}),
    Scenario("copies run with the timeout of the file of highest precedence", {
        U: [("Bash", [Hook("same", decide("deny", "slow deny"), sleep=2, timeout=1)])],
        P: [("Bash", [Hook("same", decide("deny", "slow deny"), sleep=2, timeout=5)])]}),
    Scenario("a copy with an if beside one without each run", {
        U: [("Bash", [Hook("same", pre(additionalContext="CTX-copy"))])],
        P: [("Bash", [Hook("same", pre(additionalContext="CTX-copy"), fields={"if": "Bash(echo *)"})])]}),
    Scenario("copies with different if rules each run", {
        U: [("Bash", [Hook("same", pre(additionalContext="CTX-copy"), fields={"if": "Bash(echo ORIG)"})])],
        P: [("Bash", [Hook("same", pre(additionalContext="CTX-copy"), fields={"if": "Bash(echo *)"})])]}),
    Scenario("local settings at the git root and in the launch folder", {
        "root-local": [("Bash", [Hook("root", pre(additionalContext="CTX-root"), sleep=0.5)])],
        "root-project": [("Bash", [Hook("rootp", decide("deny"))])],
        L: [("Bash", [Hook("sub", pre(additionalContext="CTX-sub"))])]}, launch="sub", git=True),
]


# ---- running a scenario both ways ------------------------------------------------------------

def lay_out(scenario: Scenario, root: Path, home: Path) -> Path:
    """The scenario's files under root; returns the launch folder."""
    specs = root / "specs"
    specs.mkdir()
    launch = root / scenario.launch
    launch.mkdir(parents=True, exist_ok=True)
    if scenario.git:
        subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    places = {U: home / ".claude" / "settings.json", P: launch / ".claude" / "settings.json",
              L: launch / ".claude" / "settings.local.json", "root-local": root / ".claude" / "settings.local.json",
              "root-project": root / ".claude" / "settings.json"}
    files: dict[Path, dict] = {}
    for where, groups in scenario.groups.items():
        hooks = files.setdefault(places[where], {"hooks": {"PreToolUse": []}})["hooks"]["PreToolUse"]
        for matcher, members in groups:
            handlers = []
            for hook in members:
                spec = specs / f"{hook.name}.json"
                spec.write_text(json.dumps({"name": hook.name, "stdout": hook.stdout, "exit": hook.exit,
                                            "stderr": hook.stderr, "sleep": hook.sleep}))
                handler = {"type": "command", "command": f"{shlex.quote(PY)} {ANSWER} {spec}"}
                if hook.timeout:
                    handler["timeout"] = hook.timeout
                handler.update(hook.fields)
                handlers.append(handler)
            hooks.append({"hooks": handlers} if matcher is None else {"matcher": matcher, "hooks": handlers})
    project_file = places[P]
    files.setdefault(project_file, {"hooks": {}})["hooks"]["PostToolUse"] = [
        {"hooks": [{"type": "command", "command": RECORDER}]}]
    if scenario.permissions:
        files[project_file]["permissions"] = scenario.permissions
    for path, data in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2))
    return launch


def take(path: Path) -> list[str]:
    lines = path.read_text().splitlines() if path.exists() else []
    path.unlink(missing_ok=True)
    return lines


@dataclass
class Seen:
    verdict: str  # ran | deny | ask | defer
    ran_with: dict | None
    context: list[str]
    stopped: bool
    fired: list[str]


def through_simulate(hookwright, scenario: Scenario, launch: Path) -> tuple[Seen, dict]:
    done = hookwright("simulate", "PreToolUse", "--tool", scenario.tool, "--input", json.dumps(scenario.tool_input),
                      "--project", launch, "--json")
    assert done.code == 0, done.out + done.err
    doc = done.json
    verdict = {"deny": "deny", "ask": "ask", "defer": "defer"}.get(doc["decision"], "ran")
    if doc["permission_rule"] and verdict not in ("deny", "defer"):  # a settings rule decides after the hooks
        verdict = doc["permission_rule"]["kind"]
    if verdict == "ran" and doc["blocked"]:  # refused all the same: a rewrite the tool's schema rejects
        verdict = "refused"
    seen = Seen(verdict, doc["tool_input"] if verdict == "ran" else None, doc["context"], doc["stops_session"],
                sorted(take(launch / "fired.log")))
    return seen, doc


def through_claude(claude_cli, scenario: Scenario, launch: Path, home: Path, tmp: Path) -> Seen:
    args: list[str] = []
    if scenario.tool.startswith("mcp__"):
        config = tmp / "mcp.json"
        config.write_text(json.dumps({"mcpServers": {"docs": {"command": PY, "args": [str(MCP_SERVER),
                                                                                      str(tmp / "mcp-calls.jsonl")]}}}))
        args = ["--mcp-config", str(config), "--strict-mcp-config"]
    run = run_claude(launch, home, [{"tool": scenario.tool, "input": scenario.tool_input}], extra_args=args,
                     claude=claude_cli)
    assert run.returncode == 0 and not run.timed_out, run.stderr
    ran = [json.loads(line) for line in take(launch / "ran.jsonl")]
    result = run.result or {}
    if result.get("terminal_reason") == "tool_deferred":
        verdict = "defer"
    elif ran:
        verdict = "ran"
    elif run.tool_results:
        [answer] = run.tool_results
        # a hook's deny, a deny rule's (on a file tool's path too; else: an ask nobody answers)
        denied = ("hook error", "has been denied", "denied by your permission settings")
        verdict = "refused" if "failed schema validation" in str(answer["content"]) else \
            "deny" if any(text in str(answer["content"]) for text in denied) else "ask"
    else:  # the session stopped before any result was sent: a denial, if any, is listed
        verdict = "deny" if run.permission_denials else "ran"
    context = added_context(run.requests[-1]["body"]) if run.requests else []
    return Seen(verdict, ran[0] if ran else None, context, result.get("terminal_reason") == "hook_stopped",
                sorted(take(launch / "fired.log")))


def added_context(body: dict) -> list[str]:
    """The context the hooks added, as the CLI sends it to the model: a system message
    "PreToolUse:<tool> hook additional context: <one per line, in the order they finished>"."""
    found = []
    for message in body.get("messages", []):
        for block in message.get("content") if isinstance(message.get("content"), list) else []:
            text = block.get("text", "") if isinstance(block, dict) else ""
            if message.get("role") == "system" and " hook additional context: " in text:
                found += text.split(" hook additional context: ", 1)[1].split("\n")
    return found


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_simulate_agrees_with_the_real_cli(scenario, claude_cli, hookwright, home, tmp_path):
    root = tmp_path / "proj"
    root.mkdir()
    launch = lay_out(scenario, root, home)
    simulated, doc = through_simulate(hookwright, scenario, launch)
    real = through_claude(claude_cli, scenario, launch, home, tmp_path)
    assert simulated.verdict == real.verdict
    if doc["nondeterministic"]:
        assert real.ran_with in doc["candidates"]
    else:
        assert simulated.ran_with == real.ran_with
    assert simulated.context == real.context
    assert simulated.stopped == real.stopped
    assert simulated.fired == real.fired


# ---- events without a tool -----------------------------------------------------------------------

@dataclass
class EventScenario:
    name: str
    event: str
    hook: Hook
    payload: dict = field(default_factory=dict)


EVENT_SCENARIOS = [
    EventScenario("prompt: plain stdout is context", "UserPromptSubmit", Hook("p", "CTX-plain")),
    EventScenario("prompt: additionalContext", "UserPromptSubmit", Hook("p", json.dumps({"hookSpecificOutput": {
        "hookEventName": "UserPromptSubmit", "additionalContext": "CTX-json"}}))),
    EventScenario("prompt: exit 2 erases the prompt", "UserPromptSubmit", Hook("p", exit=2, stderr="no prompts")),
    EventScenario("prompt: decision block", "UserPromptSubmit", Hook("p", json.dumps({"decision": "block",
                                                                                       "reason": "not this"}))),
    EventScenario("prompt: exit 1 goes on", "UserPromptSubmit", Hook("p", exit=1, stderr="oops")),
    EventScenario("prompt: a block erases the context with the prompt", "UserPromptSubmit", Hook("p", json.dumps({
        "decision": "block", "reason": "not this", "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit", "additionalContext": "CTX-lost"}}))),
    EventScenario("prompt: a long context comes as a saved file with a preview", "UserPromptSubmit",
                  Hook("p", "CTX-long " + "x" * 10_100)),
    EventScenario("prompt: a top-level additionalContext is dropped", "UserPromptSubmit",
                  Hook("p", json.dumps({"additionalContext": "CTX-top"}))),
    EventScenario("prompt: wrong hookEventName", "UserPromptSubmit", Hook("p", json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "additionalContext": "CTX-lost"}}))),
    EventScenario("stop: decision block keeps Claude going", "Stop", Hook("s", json.dumps({"decision": "block",
                                                                                            "reason": "go on"}))),
    EventScenario("stop: plain stdout is not context", "Stop", Hook("s", "CTX-stop")),
    EventScenario("stop: additionalContext keeps Claude going", "Stop", Hook("s", json.dumps({"hookSpecificOutput": {
        "hookEventName": "Stop", "additionalContext": "CTX-more"}}))),
    EventScenario("stop: exit 2 keeps Claude going", "Stop", Hook("s", exit=2, stderr="not yet")),
    # what doctor's script rules say of a Stop hook, on the real CLI (tests/test_doctor_script_protocol.py)
    EventScenario("stop: decision deny is no Stop value", "Stop", Hook("s", json.dumps({"decision": "deny",
                                                                                         "reason": "go on"}))),
    EventScenario("stop: decision approve is no Stop value", "Stop", Hook("s", json.dumps({"decision": "approve",
                                                                                            "reason": "go on"}))),
    EventScenario("stop: text before the block", "Stop", Hook("s", "checking the tests\n" + json.dumps(
        {"decision": "block", "reason": "go on"}))),
    EventScenario("stop: exit 1 saying blocked goes on", "Stop", Hook("s", exit=1, stderr="blocked: tests fail")),
]


@pytest.mark.parametrize("scenario", EVENT_SCENARIOS, ids=[s.name for s in EVENT_SCENARIOS])
def test_simulate_agrees_with_the_real_cli_on_events_without_a_tool(scenario, claude_cli, hookwright, home, tmp_path):
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    spec = tmp_path / "spec.json"
    hook = scenario.hook
    spec.write_text(json.dumps({"name": hook.name, "stdout": hook.stdout, "exit": hook.exit, "stderr": hook.stderr}))
    command = f"{shlex.quote(PY)} {ANSWER} {spec}"
    (project / ".claude" / "settings.json").write_text(json.dumps(
        {"hooks": {scenario.event: [{"hooks": [{"type": "command", "command": command}]}]}}))
    done = hookwright("simulate", scenario.event, "--project", project, "--json")
    assert done.code == 0, done.out + done.err
    doc = done.json
    take(project / "fired.log")
    run = run_claude(project, home, ["first", "second"], claude=claude_cli)
    assert run.returncode == 0 and not run.timed_out, run.stderr
    if scenario.event == "UserPromptSubmit":
        real_blocked = not run.requests  # the prompt never reached the model
    else:
        real_blocked = len(run.requests) > 1  # Claude was sent back to work
    assert doc["blocked"] == real_blocked
    first = json.dumps(run.requests[0]["body"]) if run.requests else ""
    # the context reaches the model with the prompt, or (Stop) with the turn it sends Claude back on
    sent = first if scenario.event != "Stop" else json.dumps([r["body"] for r in run.requests[1:]])
    for text in doc["context"]:
        assert text in sent
    for text in ("CTX-plain", "CTX-json", "CTX-lost", "CTX-stop", "CTX-top"):
        assert (text in first) == (text in doc["context"])


@pytest.mark.parametrize("timeout", [None, 5], ids=["no timeout: the 1.5 s budget", "timeout 5 raises it"])
def test_session_end_hooks_share_the_budget_the_real_cli_gives_them(timeout, claude_cli, hookwright, home, tmp_path):
    """A SessionEnd hook that takes 3 s: killed at 1.5 s without a timeout, left to finish with
    `timeout: 5` (docs/hosts/claude-code.md#timeouts), by the real CLI and by simulate alike."""
    project = tmp_path / "proj"
    (project / ".claude").mkdir(parents=True)
    log = project / "end.log"
    handler = {"type": "command", "command": f"echo start >> {shlex.quote(str(log))}; sleep 3; "
                                             f"echo end >> {shlex.quote(str(log))}"}
    if timeout:
        handler["timeout"] = timeout
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"SessionEnd": [{"hooks": [handler]}]}}))
    done = hookwright("simulate", "SessionEnd", "--project", project, "--json")
    assert done.code == 0, done.out + done.err
    [row] = done.json["handlers"]
    simulated = log.read_text().split()
    log.unlink()
    run = run_claude(project, home, ["done"], claude=claude_cli)
    assert run.returncode == 0 and not run.timed_out, run.stderr
    deadline = time.monotonic() + 4  # time for a hook left running to write "end" (or a hook let finish)
    while time.monotonic() < deadline and log.read_text().split() != ["start", "end"]:
        time.sleep(0.2)
    assert log.read_text().split() == simulated == (["start", "end"] if timeout else ["start"])
    assert row["timed_out"] == (timeout is None)


# ---- a skill's shell lines: PreSkillShellCommand (2.1.332, docs/hosts/claude-code.md#preskillshellcommand) --

SKILL_LINE = "echo RAN-SKILL >> ran.txt; echo RAN-OUT"
NOT_RUN = "[not run: blocked by hook: "


def skill(decision: str, reason: str | None = None, **more) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand", "permissionDecision": decision,
                                              **({"permissionDecisionReason": reason} if reason else {}), **more}})


@dataclass
class SkillScenario:
    name: str
    hooks: list[Hook]  # its PreSkillShellCommand hooks, on Bash
    line: str = SKILL_LINE  # the skill's !`...` line
    packs: tuple[str, ...] = ()  # installed by hookwright into the project
    blocked: bool | None = None  # what both must say, where the scenario is about that

SKILL_SCENARIOS = [
    SkillScenario("deny", [Hook("s", skill("deny", "no skills"))]),
    SkillScenario("a deny named PreToolUse", [Hook("s", decide("deny", "as PreToolUse"))]),
    SkillScenario("ask", [Hook("s", skill("ask", "sure?"))]),
    SkillScenario("defer", [Hook("s", skill("defer"))]),
    SkillScenario("a rewrite", [Hook("s", skill("allow", updatedInput={"command": "echo OTHER >> ran.txt"}))]),
    SkillScenario("allow", [Hook("s", skill("allow"))]),
    SkillScenario("added context", [Hook("s", json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreSkillShellCommand", "additionalContext": "CTX-skill"}}))]),
    SkillScenario("exit 2", [Hook("s", exit=2, stderr="exit two says no")]),
    SkillScenario("exit 1", [Hook("s", exit=1, stderr="E1")]),
    SkillScenario("exit 1, onFailure block", [Hook("s", exit=1, stderr="E1", fields={"onFailure": "block"})]),
    SkillScenario("a timeout, onFailure block", [Hook("s", sleep=4, timeout=1, fields={"onFailure": "block"})]),
    SkillScenario("a deny beside an allow", [Hook("s", skill("allow")), Hook("t", skill("deny", "t says no"))]),
    SkillScenario("git-guard on git reset --hard", [], "git reset --hard", packs=("git-guard",), blocked=True),
    SkillScenario("git-guard on git status", [], "git status --short", packs=("git-guard",), blocked=False),
]


def skill_output(body: dict) -> str:
    """The text block that carries the skill to the model: `Base directory for this skill: ...`, then
    its text with each shell line's output, or `[not run: blocked by hook: <reason>]` in its place."""
    return next((block["text"] for message in body.get("messages", []) if isinstance(message.get("content"), list)
                 for block in message["content"] if isinstance(block, dict)
                 and block.get("text", "").startswith("Base directory for this skill")), "")


@pytest.mark.parametrize("scenario", SKILL_SCENARIOS, ids=[s.name for s in SKILL_SCENARIOS])
def test_simulate_agrees_with_the_real_cli_on_a_skills_shell_line(scenario, claude_cli, hookwright, home, tmp_path):
    """A skill's `!`cmd`` line: simulate PreSkillShellCommand with the line as the Bash command, then
    the real CLI runs `/probe`; they must agree on whether the line ran, on the reason the model is
    given when it did not, and on which hooks ran."""
    project = tmp_path / "proj"
    (project / ".claude" / "skills" / "probe").mkdir(parents=True)
    (project / ".claude" / "skills" / "probe" / "SKILL.md").write_text(
        f"---\nname: probe\ndescription: a probe\n---\nOutput: !`{scenario.line}`\n")
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    for pack in scenario.packs:
        installed = hookwright("install", pack, "--scope", "project", "--project", project, "--yes")
        assert installed.code == 0, installed.out + installed.err
    specs = tmp_path / "specs"
    specs.mkdir()
    handlers = []
    for hook in scenario.hooks:
        spec = specs / f"{hook.name}.json"
        spec.write_text(json.dumps({"name": hook.name, "stdout": hook.stdout, "exit": hook.exit,
                                    "stderr": hook.stderr, "sleep": hook.sleep}))
        handlers.append({"type": "command", "command": f"{shlex.quote(PY)} {ANSWER} {spec}",
                         **({"timeout": hook.timeout} if hook.timeout else {}), **hook.fields})
    settings = project / ".claude" / "settings.json"
    data = json.loads(settings.read_text()) if settings.exists() else {}
    if handlers:
        data.setdefault("hooks", {}).setdefault("PreSkillShellCommand", []).append({"matcher": "Bash", "hooks": handlers})
    settings.write_text(json.dumps(data, indent=2))

    done = hookwright("simulate", "PreSkillShellCommand", "--command", scenario.line, "--project", project, "--json")
    assert done.code == 0, done.out + done.err
    doc = done.json
    simulated_fired = sorted(take(project / "fired.log"))
    run = run_claude(project, home, ["done"], claude=claude_cli, prompt="/probe")
    assert run.returncode == 0 and not run.timed_out, run.stderr
    text = skill_output(run.requests[0]["body"]) if run.requests else ""
    assert text, "the skill never reached the model"
    real_blocked = NOT_RUN in text
    assert doc["blocked"] == real_blocked, text
    assert scenario.blocked in (None, real_blocked), text
    if real_blocked:  # (the model gets the reason on one line: each run of blanks made one space)
        assert " ".join(doc["reason"].split()) == text.split(NOT_RUN, 1)[1].rstrip()[:-1]
    assert doc["context"] == [] and "CTX-skill" not in json.dumps(run.requests[0]["body"])
    assert simulated_fired == sorted(take(project / "fired.log"))
