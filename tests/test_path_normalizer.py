"""Table-driven tests for the path-normalizer hook: payload in, exact stdout and exit code out.

Each row runs the real script as Claude Code does (`python3 -I -S <script> --host claude`),
from a folder laid out as the installer lays it: the shared hook script beside
path_normalizer.py and the runtime library.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import lay_out_runtime

CWD = "/work/proj"
TOOL = "mcp__docs__read_doc"


def payload(tool_input, cwd=CWD, event="PreToolUse", tool=TOOL, **extra) -> bytes:
    data = {"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "hook_event_name": event,
            "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_1",
            "permission_mode": "default", "mcp_server": "docs"}
    if cwd is not None:
        data["cwd"] = cwd
    data.update(extra)
    return json.dumps(data).encode()


def rewritten(tool_input) -> bytes:
    """The one output shape: updatedInput with the whole input, no permission decision."""
    return (json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                               "updatedInput": tool_input}}) + "\n").encode()


@pytest.fixture(scope="module")
def script(tmp_path_factory) -> Path:
    return lay_out_runtime(tmp_path_factory.mktemp("runtime") / "path-normalizer", "path-normalizer") / "path-normalizer"


@pytest.fixture
def log_path(tmp_path) -> Path:
    return tmp_path / "logs" / "hooks.log"


@pytest.fixture
def run(script, log_path, tmp_path):
    env = {**os.environ, "HOOKWRIGHT_LOG": str(log_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}

    def run(stdin: bytes, *options: str) -> subprocess.CompletedProcess:
        cli = ["--host", "claude"] + [arg for option in options for arg in ("--option", option)]
        return subprocess.run([sys.executable, "-I", "-S", str(script), *cli], input=stdin,
                              env=env, capture_output=True, timeout=30)

    return run


def log_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


REWRITES = [  # (id, tool_input, options, expected updatedInput)
    ("the brief's example", {"path": "notes/a.txt", "mode": "r"}, (),
     {"path": f"{CWD}/notes/a.txt", "mode": "r"}),
    ("dot slash", {"path": "./a.txt"}, (), {"path": f"{CWD}/a.txt"}),
    ("dot dot", {"path": "../other/x.md"}, (), {"path": "/work/other/x.md"}),
    ("normalized", {"path": "a/b/.././c//d.txt"}, (), {"path": f"{CWD}/a/c/d.txt"}),
    ("the cwd itself", {"directory": "."}, (), {"directory": CWD}),
    ("a trailing slash goes", {"dir": "build/"}, (), {"dir": f"{CWD}/build"}),
    ("a colon that is no URL", {"path": "notes:v2.txt"}, (), {"path": f"{CWD}/notes:v2.txt"}),
    ("spaces and unicode", {"file_path": "my docs/résumé ü.txt"}, (),
     {"file_path": f"{CWD}/my docs/résumé ü.txt"}),
    ("every default argument name",
     {"path": "p", "file_path": "f", "target_path": "t", "directory": "d", "dir": "e", "other": "o"}, (),
     {"path": f"{CWD}/p", "file_path": f"{CWD}/f", "target_path": f"{CWD}/t", "directory": f"{CWD}/d",
      "dir": f"{CWD}/e", "other": "o"}),
    ("only the relative ones", {"path": "rel.txt", "target_path": "/abs/x", "dir": "~/y"}, (),
     {"path": f"{CWD}/rel.txt", "target_path": "/abs/x", "dir": "~/y"}),
    ("every other field echoed, nested values and key order included",
     {"mode": "r", "path": "a.txt", "options": {"path": "nested/stays", "list": [1, 2.5, None, True, {"x": "y"}]},
      "count": 0, "empty": {}, "flag": False, "big": 12345678901234567890},
     (), {"mode": "r", "path": f"{CWD}/a.txt",
          "options": {"path": "nested/stays", "list": [1, 2.5, None, True, {"x": "y"}]},
          "count": 0, "empty": {}, "flag": False, "big": 12345678901234567890}),
    ("configured argument names", {"src": "a", "dest": "b", "path": "c"}, ("args=src,dest",),
     {"src": f"{CWD}/a", "dest": f"{CWD}/b", "path": "c"}),
    ("argument names with blanks and repeats", {"src": "a", "path": "c"}, ("args= src , src,,",),
     {"src": f"{CWD}/a", "path": "c"}),
    ("the tools option changes only the matcher", {"path": "a"}, ("tools=mcp__docs__.*",),
     {"path": f"{CWD}/a"}),
]


@pytest.mark.parametrize("tool_input, options, expected", [row[1:] for row in REWRITES],
                         ids=[row[0] for row in REWRITES])
def test_path_normalizer_rewrites_relative_paths_and_echoes_the_rest(run, log_path, tool_input,
                                                                     options, expected):
    proc = run(payload(tool_input), *options)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, rewritten(expected), b"")
    assert log_lines(log_path) == []


def test_path_normalizer_output_bytes_are_exactly_these(run):
    proc = run(payload({"path": "notes/a.txt", "mode": "r"}))
    assert proc.stdout == (b'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": '
                           b'{"path": "/work/proj/notes/a.txt", "mode": "r"}}}\n')


def test_path_normalizer_resolves_against_a_cwd_with_a_trailing_slash(run):
    proc = run(payload({"path": "a.txt"}, cwd=CWD + "/"))
    assert proc.stdout == rewritten({"path": f"{CWD}/a.txt"})


UNCHANGED = [  # (id, stdin): no output, exit 0, nothing logged
    ("absolute", payload({"path": "/etc/hosts", "mode": "r"})),
    ("home", payload({"path": "~/notes.txt"})),
    ("home alone", payload({"path": "~"})),
    ("other user's home", payload({"path": "~bob/x"})),
    ("file URL", payload({"path": "file:///tmp/x"})),
    ("file URL without slashes", payload({"path": "file:notes.txt"})),
    ("http URL", payload({"path": "http://example.com/a"})),
    ("s3 URL", payload({"file_path": "s3://bucket/key"})),
    ("windows drive", payload({"path": "C:\\Users\\x"})),
    ("windows drive with slashes", payload({"path": "c:/x"})),
    ("empty", payload({"path": ""})),
    ("blank", payload({"path": "   "})),
    ("a number", payload({"path": 5})),
    ("null", payload({"path": None})),
    ("a list", payload({"path": ["a.txt"]})),
    ("an object", payload({"path": {"p": "a.txt"}})),
    ("no path argument", payload({"query": "a.txt"})),
    ("relative, but not a configured name", payload({"source": "a.txt"})),
    ("nested only", payload({"options": {"path": "a.txt"}})),
    ("empty input", payload({})),
    ("input not an object", payload("a.txt")),
    ("no input", json.dumps({"hook_event_name": "PreToolUse", "tool_name": TOOL, "cwd": CWD}).encode()),
    ("another event", payload({"path": "a.txt"}, event="PostToolUse", tool_response={"ok": True})),
    ("a failure event", payload({"path": "a.txt"}, event="PostToolUseFailure", error="x")),
    ("no cwd, but nothing relative either", payload({"path": "/abs"}, cwd=None)),
]


@pytest.mark.parametrize("stdin", [row[1] for row in UNCHANGED], ids=[row[0] for row in UNCHANGED])
def test_path_normalizer_prints_nothing_when_nothing_changes(run, log_path, stdin):
    proc = run(stdin)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert log_lines(log_path) == []


LOGGED = [  # (id, stdin, options): no output, exit 0, one line in the error log
    ("no cwd", payload({"path": "a.txt"}, cwd=None), ()),
    ("relative cwd", payload({"path": "a.txt"}, cwd="proj"), ()),
    ("empty cwd", payload({"path": "a.txt"}, cwd=""), ()),
    ("cwd a number", payload({"path": "a.txt"}, cwd=5), ()),
    ("not JSON", b"{not json", ()),
    ("empty stdin", b"", ()),
    ("a JSON array", b"[]", ()),
    ("no hook_event_name", json.dumps({"tool_input": {"path": "a.txt"}, "cwd": CWD}).encode(), ()),
    ("NaN in the input", payload({"path": "a.txt"}).replace(b'"a.txt"', b'"a.txt", "x": NaN'), ()),
    ("a number too big for JSON's floats", payload({"path": "a.txt"}).replace(b'"a.txt"', b'"a.txt", "x": 1e999'), ()),
    ("over 1 MiB", payload({"path": "a.txt", "blob": "x" * (1 << 20)}), ()),
]


@pytest.mark.parametrize("stdin, options", [row[1:] for row in LOGGED], ids=[row[0] for row in LOGGED])
def test_path_normalizer_passes_through_and_logs_what_it_cannot_handle(run, log_path, stdin, options):
    proc = run(stdin, *options)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    assert len(log_lines(log_path)) == 1
    assert " path-normalizer " in log_lines(log_path)[0]


def test_path_normalizer_ignores_an_unknown_option_with_a_log_line_and_still_rewrites(run, log_path):
    proc = run(payload({"path": "a.txt"}), "nope=1")
    assert proc.stdout == rewritten({"path": f"{CWD}/a.txt"})
    assert len(log_lines(log_path)) == 1 and "unknown option 'nope'" in log_lines(log_path)[0]


def test_path_normalizer_never_decides_for_the_user(run):
    """A rewrite without permissionDecision keeps the user's permission checks (an allow would skip them)."""
    out = json.loads(run(payload({"path": "a.txt"})).stdout)["hookSpecificOutput"]
    assert "permissionDecision" not in out and "permissionDecisionReason" not in out


def test_path_normalizer_pack_is_wired_to_pretooluse_with_the_tools_option_as_matcher():
    from hookwright.packs import load_pack

    pack = load_pack("path-normalizer")
    [hook] = pack.hooks
    target = hook.targets["claude"]
    assert (hook.script, hook.rewrites_input, hook.blocks) == ("path-normalizer", True, False)
    assert (target.event, target.matcher_option, target.timeout) == ("PreToolUse", "tools", 10)
    assert pack.options["tools"].default == "^mcp__(?!.*__AskUserQuestion$)"
    assert pack.options["args"].default == "path,file_path,target_path,directory,dir"
    assert pack.matcher(hook, "claude", {"tools": "mcp__docs__.*", "args": "path"}) == "mcp__docs__.*"
