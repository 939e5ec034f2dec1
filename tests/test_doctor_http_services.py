"""An HTTP hook's service in the project that refuses by status code (installer/doctor/checks/
http_services.py): Claude Code reads a decision only from a 2xx body, so a 403 lets the call go
ahead (tests/e2e/test_language_exits_e2e.py measures it on the real CLI)."""
from __future__ import annotations

from pathlib import Path

import pytest
from doctor_support import doctor, found

SERVER = """\
import json
from http.server import BaseHTTPRequestHandler, HTTPServer

class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        call = json.loads(self.rfile.read(int(self.headers["content-length"])))
        if "rm -rf" in call["tool_input"].get("command", ""):
            %s
            self.end_headers()
            self.wfile.write(json.dumps(%s).encode())
            return
        self.send_response(204)
        self.end_headers()

HTTPServer(("127.0.0.1", 8787), Handler).serve_forever()
"""
EXPRESS = """\
const express = require("express");
const app = express();
app.post("/hook", (req, res) => {
  if (req.body.tool_input.command.includes("rm -rf")) return res.status(%s).json(%s);
  res.status(204).end();
});
app.listen(8787);
"""
DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "no rm -rf"}}


def _settings(url: str = "http://127.0.0.1:8787/hook", event: str = "PreToolUse") -> dict:
    return {"hooks": {event: [{"matcher": "Bash", "hooks": [{"type": "http", "url": url}]}]}}


@pytest.mark.parametrize("name, text, line", [
    ("tools/policy.py", SERVER % ("self.send_response(403)", {"error": "no rm -rf"}), 8),
    ("server/index.js", EXPRESS % (403, '{error: "no rm -rf"}'), 4),
    ("tools/policy.py", SERVER % ("self.send_response(200)", DENY), None),
    ("server/index.js", EXPRESS % (200, "{hookSpecificOutput: {hookEventName: 'PreToolUse', "
                                        "permissionDecision: 'deny'}}"), None),
], ids=["python 403", "express 403", "python 200 deny (the fix)", "express 200 deny (the fix)"])
def test_a_service_that_refuses_by_status_is_flagged_at_the_status(tmp_path, name, text, line):
    out = doctor(tmp_path, {name: text, ".claude/settings.json": _settings()})
    flagged = [(Path(f.path).name, f.line) for f in found(out, "delivery/http-status-not-a-block")]
    assert flagged == ([(Path(name).name, line)] if line else [])


@pytest.mark.parametrize("settings", [
    _settings("http://127.0.0.1:9999/hook"),  # another port
    _settings("https://policy.example.com:8787/hook"),  # another machine: its code is not here
    _settings(event="PostToolUse"),  # (an event where nothing blocks: its own rules)
], ids=["another port", "another host", "an event that blocks nothing"])
def test_a_service_the_hook_does_not_call_here_is_not_judged(tmp_path, settings):
    text = SERVER % ("self.send_response(403)", {"error": "no rm -rf"})
    out = doctor(tmp_path, {"tools/policy.py": text, ".claude/settings.json": settings})
    assert found(out, "delivery/http-status-not-a-block") == []
