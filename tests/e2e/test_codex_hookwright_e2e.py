"""hookwright's packs in the real Codex CLI (0.171.0): installed, trusted as the plan says, and taken out.

One project, one journey: git-guard installed into a committed `.codex/hooks.json` that already
holds a hook of the team's; before the trust step status and doctor say Codex will skip it, and
Codex does (the reset runs); after the step the plan names (`--trust-hooks`), the reset is
blocked with git-guard's reason and `git status` runs, from a subfolder too; path-normalizer's
rewrite reaches an MCP server's call; uninstall gives the file back byte for byte, and the reset
runs again. Each `codex exec` is one scripted run against the fake Responses API (about a second).
"""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from claude_cli import hookwright
from codex_cli import hooks_list, run_codex, shell
from conftest import git

pytestmark = pytest.mark.e2e

SERVER = Path(__file__).resolve().with_name("fake_mcp_server.py")
TEAM_HOOKS = b'{\n  "hooks": {\n    "Stop": [ { "hooks": [ { "type": "command", "command": "true" } ] } ]\n  }\n}\n'


def cli(*args: str, home: Path, project: Path) -> str:
    done = hookwright(*args, home=home, project=project, env={"CODEX_HOME": None})
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done.stdout + done.stderr


def read_doc(path: str) -> dict:
    """The model's call of the fake MCP server's read_doc, as Codex offers it (namespace mcp__docs)."""
    return {"tool": "read_doc", "namespace": "mcp__docs", "input": {"path": path, "mode": "r"}}


def test_git_guard_and_path_normalizer_in_codex_from_install_through_trust_to_uninstall(codex_cli, home, dirty_repo,
                                                                                       tmp_path):
    repo = dirty_repo
    hooks = repo / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_bytes(TEAM_HOOKS)
    git(repo, "add", ".codex")
    git(repo, "commit", "-q", "-m", "the team's hooks")
    where = ("--host", "codex", "--scope", "project", "--project", str(repo))

    said = cli("install", "git-guard", *where, "--yes", home=home, project=repo)
    assert "Codex will skip 1 hook" in said and "until you trust the project" in said
    trust_step = next(line for line in said.splitlines() if "--trust-hooks`" in line).split("`")[1]
    assert trust_step == f"hookwright install git-guard --host codex --scope project --project {repo} --trust-hooks"

    status = json.loads(cli("status", "--project", str(repo), "--json", home=home, project=repo))
    [row] = [row for row in status["installs"] if row["host"] == "codex"]
    assert [p["rule"] for p in row["problems"]] == ["install/hook-not-yet-trusted"]  # (an interactive codex asks)
    assert "the project" in row["problems"][0]["message"]
    found = json.loads(cli("doctor", "--project", str(repo), "--json", home=home, project=repo))["findings"]
    assert sorted(f["rule"] for f in found if f["rule"].endswith(("hook-untrusted", "hook-not-yet-trusted"))) == [
        "host/hook-not-yet-trusted", "install/hook-not-yet-trusted"]  # the team's Stop hook, and git-guard

    run = run_codex(repo, home, [shell("git reset --hard"), "done"], codex=codex_cli)  # skipped: it runs
    assert "blocked" not in run.outputs()[0] and (repo / "a.txt").read_text() == "v1\n"
    (repo / "a.txt").write_text("v2\n")

    said = cli(*shlex.split(trust_step)[1:], "--yes", home=home, project=repo)
    assert "trusts the project" in said
    [listed] = hooks_list(home, [repo / "src"])
    assert {hook["trustStatus"] for hook in listed["hooks"] if "git-guard" in hook["command"]} == {"trusted"}
    status = json.loads(cli("status", "--project", str(repo), "--json", home=home, project=repo))
    assert [row["problems"] for row in status["installs"] if row["host"] == "codex"] == [[]]

    (repo / "src").mkdir()
    for cwd in (repo, repo / "src"):
        run = run_codex(cwd, home, [shell("git reset --hard"), shell("git status --short"), "done"], codex=codex_cli)
        reset, status_out = run.outputs()
        assert reset.startswith("Command blocked by PreToolUse hook: hookwright git-guard: `git reset --hard`"), reset
        assert "(rule reset-hard)" in reset and "a.txt" in status_out
        assert (repo / "a.txt").read_text() == "v2\n"

    cli("install", "path-normalizer", *where, "--trust-hooks", "--yes", home=home, project=repo)
    record = tmp_path / "mcp-calls.jsonl"
    server = ["-c", f"mcp_servers.docs={{command = {json.dumps(sys.executable)}, "
                    f"args = [{json.dumps(str(SERVER))}, {json.dumps(str(record))}]}}"]
    run_codex(repo / "src", home, [read_doc("notes/a.txt"), read_doc("/srv/b.txt"), "done"], extra_args=server,
              codex=codex_cli)
    assert [json.loads(line)["arguments"] for line in record.read_text().splitlines()] == [
        {"path": f"{repo}/src/notes/a.txt", "mode": "r"}, {"path": "/srv/b.txt", "mode": "r"}]

    cli("uninstall", "git-guard", "path-normalizer", *where, "--trust-hooks", "--yes", home=home, project=repo)
    assert hooks.read_bytes() == TEAM_HOOKS and not (repo / ".codex" / "hookwright").exists()
    run = run_codex(repo, home, [shell("git reset --hard"), "done"], codex=codex_cli)
    assert "blocked" not in run.outputs()[0] and (repo / "a.txt").read_text() == "v1\n"
