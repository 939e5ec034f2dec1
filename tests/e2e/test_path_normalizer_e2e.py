"""path-normalizer, installed by hookwright, in the real Claude Code CLI with a real MCP server.

The test starts a small stdio MCP server (fake_mcp_server.py, tool `read_doc`) through
`--mcp-config`, lets the scripted model call `mcp__docs__read_doc` with a relative path, and
checks what the server itself received: the absolute path, with the other argument intact.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

SERVER = Path(__file__).resolve().with_name("fake_mcp_server.py")
RELATIVE = {"tool": "mcp__docs__read_doc", "input": {"path": "notes/a.txt", "mode": "r"}}
ABSOLUTE = {"tool": "mcp__docs__read_doc", "input": {"path": "/srv/docs/b.txt", "mode": "rb"}}


@pytest.fixture
def docs_server(tmp_path: Path) -> tuple[Path, Path]:
    """(the --mcp-config file for a server named "docs", the file it records its calls in)."""
    record = tmp_path / "mcp-calls.jsonl"
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"docs": {
        "type": "stdio", "command": sys.executable, "args": [str(SERVER), str(record)]}}}))
    return config, record


def calls(record: Path) -> list[dict]:
    if not record.exists():
        return []
    return [json.loads(line) for line in record.read_text().splitlines()]


def mcp_args(config: Path) -> list[str]:
    return ["--mcp-config", str(config), "--strict-mcp-config"]


def test_path_normalizer_gives_the_mcp_server_an_absolute_path_until_uninstalled(claude_cli, home, project,
                                                                                docs_server):
    config, record = docs_server
    scope = ("--scope", "project", "--project", str(project), "--yes")
    installed = hookwright("install", "path-normalizer", *scope, home=home, project=project)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    run = run_claude(project, home, [RELATIVE, ABSOLUTE], extra_args=mcp_args(config), claude=claude_cli)

    assert run.returncode == 0, run.stderr
    assert calls(record) == [
        {"tool": "read_doc", "arguments": {"path": f"{project.resolve()}/notes/a.txt", "mode": "r"}},
        {"tool": "read_doc", "arguments": {"path": "/srv/docs/b.txt", "mode": "rb"}},
    ]
    relative, absolute = run.tool_results
    assert not relative["is_error"] and f"{project.resolve()}/notes/a.txt" in relative["content"]
    assert not absolute["is_error"], absolute["content"]
    assert not (home / ".local" / "state" / "hookwright" / "hooks.log").exists()  # no hook errors

    removed = hookwright("uninstall", "path-normalizer", *scope, home=home, project=project)
    assert removed.returncode == 0, removed.stdout + removed.stderr
    record.unlink()

    run = run_claude(project, home, [RELATIVE], extra_args=mcp_args(config), claude=claude_cli)

    assert run.returncode == 0, run.stderr
    assert calls(record) == [{"tool": "read_doc", "arguments": {"path": "notes/a.txt", "mode": "r"}}]


def test_path_normalizer_rewrites_without_approving_the_call_for_the_user(claude_cli, home, project,
                                                                          docs_server):
    """In the default permission mode an MCP call needs approval, and nobody can give it in -p.

    The rewrite carries no permissionDecision, so the call is still refused: the hook did not
    approve it on the user's behalf (an `allow` would have, measured with 2.1.328). The
    refusal lists the rewritten input, so the hook did run.
    """
    config, record = docs_server
    installed = hookwright("install", "path-normalizer", "--scope", "project", "--project", str(project),
                           "--yes", home=home, project=project)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    run = run_claude(project, home, [RELATIVE], extra_args=mcp_args(config), claude=claude_cli,
                     skip_permissions=False)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert result["is_error"] and "permission" in result["content"].lower(), result["content"]
    assert calls(record) == []
    # the hook did rewrite it: the refused call is listed with the rewritten input
    assert [d["tool_input"] for d in run.permission_denials] == [
        {"path": f"{project.resolve()}/notes/a.txt", "mode": "r"}]
