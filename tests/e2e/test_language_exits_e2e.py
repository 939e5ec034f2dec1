"""Guards whose refusal the real Claude Code never receives because of how their language ends a
process or where their answer goes, and their corrected twins, all in two sessions; and
PostToolUse redactions whose replacement output Claude Code drops.

Each guard refuses one Bash call of its own (`touch NAME.txt`) and lets every other pass, so the
guards of one project can share a session: the broken project lets each marked call run, the
twin project refuses each. Doctor flags each broken guard at the line marked `HERE` (in the
script, or in the settings where the fix is to the handler) and none of the twins. What the host
did is recorded in docs/hosts/claude-code.md#exit-status-on-the-way-out.
"""
from __future__ import annotations

import json
import shlex
import socket
import subprocess
import sys
import time

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, run_claude

pytestmark = pytest.mark.e2e

DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "no touching here"}}
HEAD = """\
import json, os, subprocess, sys, threading
call = json.load(sys.stdin)
if "touch %s.txt" not in call["tool_input"]["command"]:
    sys.exit(0)
"""
REFUSE = 'print("Blocked: no touching here", file=sys.stderr)\nsys.exit(2)\n'

# name: (the broken guard's code after HEAD, its twin's), each refusing `touch NAME.txt`
SCRIPTS = {
    "thread": (
        f"def check():\n    {REFUSE.replace(chr(10), chr(10) + '    ').rstrip()}\n"
        "worker = threading.Thread(target=check)  # HERE\nworker.start()\nworker.join()\n",
        f"from concurrent.futures import ThreadPoolExecutor\ndef check():\n    {REFUSE.replace(chr(10), chr(10) + '    ').rstrip()}\n"
        "with ThreadPoolExecutor() as pool:\n    pool.submit(check).result()\n"),
    "quick_exit": (
        f"print(json.dumps({DENY!r}))\nos._exit(0)  # HERE\n",
        f"print(json.dumps({DENY!r}))\nsys.stdout.flush()\nos._exit(0)\n"),
    "message": (
        "reasons = ['no touching here']\nsys.exit('Blocked: ' + '; '.join(reasons))  # HERE\n",
        "reasons = ['no touching here']\nprint('Blocked: ' + '; '.join(reasons), file=sys.stderr)\nsys.exit(2)\n"),
    "git_status": (
        f"subprocess.run(['git', '-C', call['cwd'], 'status'])  # HERE\nprint(json.dumps({DENY!r}))\n",
        f"subprocess.run(['git', '-C', call['cwd'], 'status'], capture_output=True)\nprint(json.dumps({DENY!r}))\n"),
    "background": (REFUSE, REFUSE),  # run by an async handler (the twin's is not)
    "after": (REFUSE, REFUSE),  # run on PostToolUse (the twin's on PreToolUse)
}
JS_HEAD = """\
let raw = "";
process.stdin.on("data", (chunk) => (raw += chunk));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  if (!input.tool_input.command.includes("touch %s.txt")) return;
"""
JS_SCRIPTS = {
    "early_exit": (
        '  console.error("Blocked: no touching here");\n  process.exit(2);\n});\nprocess.exit(0);  // HERE\n',
        '  console.error("Blocked: no touching here");\n  process.exit(2);\n});\n'),
    "event_echo": (
        "  console.log(JSON.stringify({hookSpecificOutput: {hookEventName: input.hookEventName,  // HERE\n"
        '    permissionDecision: "deny", permissionDecisionReason: "no touching here"}}));\n});\n',
        "  console.log(JSON.stringify({hookSpecificOutput: {hookEventName: input.hook_event_name,\n"
        '    permissionDecision: "deny", permissionDecisionReason: "no touching here"}}));\n});\n'),
}
# a Perl dispatcher that runs the guard beside it (child.py) and means to pass its status on
PERL = """\
use File::Basename;
my $dir = dirname(__FILE__);
system("python3", "$dir/child.py");
%s
"""
PERL_SCRIPTS = {"perl_dispatch": ("exit $?;  # HERE", "exit($? >> 8);")}
# PostToolUse guards that mean to hide SECRET-NAME in `echo SECRET-NAME`'s output from the model
REDACT_HEAD = """\
import json, sys
call = json.load(sys.stdin)
if "SECRET-%s" not in call["tool_input"]["command"]:
    sys.exit(0)
response = call["tool_response"]
"""
FIELD_OF = {"text": "updatedToolOutput", "mcp": "updatedMCPToolOutput"}
REDACTS = {name: (
    f"clean = response['stdout'].replace('SECRET', 'REDACTED')\nprint(json.dumps({{'hookSpecificOutput': "
    f"{{'hookEventName': 'PostToolUse',\n    '{field}': clean}}}}))  # HERE\n",
    "clean = dict(response, stdout=response['stdout'].replace('SECRET', 'REDACTED'))\nprint(json.dumps("
    "{'hookSpecificOutput': {'hookEventName': 'PostToolUse',\n    'updatedToolOutput': clean}}))\n")
    for name, field in FIELD_OF.items()}
# script: the rule doctor reports the broken one with
RULES = {"thread": "delivery/exit-2-lost", "quick_exit": "delivery/output-lost-at-exit",
         "message": "script/exit-1-fails-open", "git_status": "script/text-before-json",
         "background": "script/async-answer-never-read", "after": "script/exit-2-does-not-block",
         "early_exit": "delivery/exit-before-async-work", "event_echo": "script/no-event-name",
         "text": "script/output-rewrite-ignored", "mcp": "script/output-rewrite-ignored",
         "perl_dispatch": "delivery/exit-2-lost"}
# found at this line of the settings: the async key; the event that registers the guard after the call
AT_THE_HANDLER = {"background": '"async"', "after": '"PostToolUse"'}


def _code(name: str, twin: bool) -> tuple[str, str]:
    """A guard's file name and text, broken or its twin."""
    if name in JS_SCRIPTS:
        return f"{name}.js", JS_HEAD % name + JS_SCRIPTS[name][twin]
    if name in PERL_SCRIPTS:
        return f"{name}.pl", PERL % PERL_SCRIPTS[name][twin]
    if name in REDACTS:
        return f"{name}.py", REDACT_HEAD % name + REDACTS[name][twin]
    return f"{name}.py", HEAD % name + SCRIPTS[name][twin]


def _handler(name: str, twin: bool) -> dict:
    file = _code(name, twin)[0]
    runner = {"js": "node", "pl": "perl"}.get(file.rsplit(".", 1)[1], shlex.quote(sys.executable))
    command = f'{runner} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{file}'
    return {"type": "command", "command": command, **({"async": True} if name == "background" and not twin else {})}


def _project(project, twin: bool) -> str:
    """The project's guards and settings; the settings' text."""
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    for name in RULES:
        file, text = _code(name, twin)
        (hooks / file).write_text(text)
    (hooks / "child.py").write_text(HEAD % "perl_dispatch" + REFUSE)
    guards = [*SCRIPTS, *JS_SCRIPTS, *PERL_SCRIPTS]
    before = [_handler(name, twin) for name in guards if twin or name != "after"]
    after = [_handler(name, twin) for name in REDACTS] + ([] if twin else [_handler("after", twin)])
    config = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": before}],
                        "PostToolUse": [{"matcher": "Bash", "hooks": after}]}}
    text = json.dumps(config, indent=2)
    (project / ".claude" / "settings.json").write_text(text)
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # (git status has something to say)
    return text


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
def test_a_refusal_lost_by_how_the_language_ends_or_where_it_answers_is_what_doctor_flags(
        claude_cli, home, project, twin):
    settings = _project(project, twin)
    guards = [*SCRIPTS, *JS_SCRIPTS, *PERL_SCRIPTS]
    calls = [{"tool": "Bash", "input": {"command": f"touch {name}.txt"}} for name in guards]
    calls += [{"tool": "Bash", "input": {"command": f"echo SECRET-{name}"}} for name in REDACTS]
    run = run_claude(project, home, calls, claude=claude_cli, timeout=180)
    assert run.returncode == 0, run.stderr
    # what the real CLI did with each guard's answer (Claude Code CLAUDE_VERSION)
    ran = {name for name in guards if (project / f"{name}.txt").exists()}
    assert ran == (set() if twin else set(guards)), (CLAUDE_VERSION, run.tool_results)
    seen = {name for name in REDACTS if any(f"SECRET-{name}" in r["content"] for r in run.tool_results)}
    assert seen == (set() if twin else set(REDACTS)), (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    flagged = {(f["rule"], f["path"].rsplit("/", 1)[1], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in RULES.values()}
    expected = set()
    for name, rule in RULES.items() if not twin else ():
        if name in AT_THE_HANDLER:
            line = next(n for n, text in enumerate(settings.splitlines(), 1) if AT_THE_HANDLER[name] in text)
            expected.add((rule, "settings.json", line))
        else:
            file, text = _code(name, twin)
            expected.add((rule, file, next(n for n, line in enumerate(text.splitlines(), 1) if "HERE" in line)))
    assert flagged == expected


# an HTTP hook's service in the project: it refuses `touch ran.txt` with 403 (the twin: a 200 deny)
SERVICE = """\
import json, sys
from http.server import BaseHTTPRequestHandler, HTTPServer

class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        call = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        if "touch ran.txt" in call.get("tool_input", {}).get("command", ""):
%s
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps(%s).encode())
            return
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass

HTTPServer(("127.0.0.1", %d), Handler).serve_forever()
"""
REFUSALS = ("            self.send_response(403)  # HERE", {"error": "no touching here"})
TWIN_REFUSALS = ("            self.send_response(200)", DENY)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("twin", [False, True], ids=["403", "a 200 deny (the fix)"])
def test_an_http_hook_whose_service_refuses_by_status_lets_the_call_run_and_doctor_points_at_the_status(
        claude_cli, home, project, twin):
    port = _free_port()
    status, body = TWIN_REFUSALS if twin else REFUSALS
    server = project / "tools" / "policy_server.py"
    server.parent.mkdir(parents=True)
    server.write_text(SERVICE % (status, repr(body), port))
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "http", "url": f"http://127.0.0.1:{port}/hook", "timeout": 5}]}]}}))
    serving = subprocess.Popen([sys.executable, str(server)])
    try:
        for _ in range(100):  # (until it listens)
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.txt"}}], claude=claude_cli)
    finally:
        serving.terminate()
        serving.wait(timeout=10)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != twin, (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    flagged = [(f["path"].rsplit("/", 1)[1], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] == "delivery/http-status-not-a-block"]
    here = next(n for n, line in enumerate(server.read_text().splitlines(), 1) if "HERE" in line) if not twin else 0
    assert flagged == ([] if twin else [("policy_server.py", here)])
