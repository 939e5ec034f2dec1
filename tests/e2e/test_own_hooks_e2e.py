"""Hooks of one's own, on every agent: a guard written only for Claude Code, made into a pack with
`hookwright pack new --from`, committed to a local git repository, installed from it at a
revision (URL@REV#folder), and run by the real Claude Code and the real opencode.

The guard (tests/fixtures/claude-guard) blocks `rm -rf` by exit 2 with its reason on stderr,
denies `curl` with a JSON permissionDecision, rewrites `echo hello` to `echo rewritten` with
updatedInput, and lets the rest through: each agent must do all four as the script means.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from claude_cli import hookwright, run_claude
from conftest import git
from opencode_cli import run_opencode

pytestmark = pytest.mark.e2e

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "claude-guard"
COMMANDS = ["rm -rf build", "curl https://example.com", "echo hello", "echo through"]


@pytest.fixture
def guard_repository(tmp_path: Path, home: Path) -> str:
    """The guard's Claude Code project made into a pack, committed and tagged v1.0.0 in a local
    repository: the URL@REV#folder to install it from."""
    theirs = tmp_path / "theirs"
    shutil.copytree(FIXTURE, theirs)
    repository = tmp_path / "hooks-repo"
    repository.mkdir()
    made = hookwright("pack", "new", "guard", "--from", str(theirs / ".claude" / "settings.json"),
                      home=home, project=repository)
    assert made.returncode == 0, made.stdout + made.stderr
    git(repository, "init", "-q")
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "the guard as a pack")
    git(repository, "tag", "v1.0.0")
    return f"{repository}@v1.0.0#guard"


def installed(source: str, host: str, home: Path, project: Path) -> None:
    done = hookwright("install", source, "--host", host, "--scope", "project", "--project", str(project), "--yes",
                      home=home, project=project)
    assert done.returncode == 0, done.stdout + done.stderr


def test_claude_code_blocks_denies_rewrites_and_lets_through_as_the_guard_means(claude_cli, home, project,
                                                                                 guard_repository):
    installed(guard_repository, "claude", home, project)
    (project / "build").mkdir()

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": c, "description": "run"}}
                                     for c in COMMANDS] + ["done"], claude=claude_cli)

    assert run.returncode == 0, run.stderr
    removed, fetched, hello, through = run.tool_results
    assert removed["is_error"] and "guard: rm -rf is not allowed in this project" in removed["content"]
    assert (project / "build").is_dir()
    assert fetched["is_error"] and "guard: no network from the agent" in fetched["content"]
    assert not hello["is_error"] and hello["content"].strip() == "rewritten"
    assert not through["is_error"] and through["content"].strip() == "through"


def test_opencode_blocks_denies_rewrites_and_lets_through_as_the_guard_means(opencode_cli, home, project,
                                                                             guard_repository):
    installed(guard_repository, "opencode", home, project)
    (project / "build").mkdir()

    run = run_opencode(project, home, [{"tool": "bash", "input": {"command": c, "description": "run"}}
                                       for c in COMMANDS] + ["done"])

    assert run.returncode == 0 and not run.timed_out, run.stderr[-3000:]
    removed, fetched, hello, through = run.tool_results
    assert "guard: rm -rf is not allowed in this project" in removed["content"]
    assert (project / "build").is_dir()
    assert "guard: no network from the agent" in fetched["content"]
    assert hello["content"].strip() == "rewritten"
    assert through["content"].strip() == "through"


def test_pack_test_runs_the_guard_in_opencodes_own_runtime_with_what_it_expects(opencode_cli, home, project,
                                                                                guard_repository, tmp_path):
    pack = Path(guard_repository.split("@")[0]) / "guard"
    (pack / "tests" / "blocks.json").write_text(json.dumps({
        "tool_name": "Bash", "tool_input": {"command": "rm -rf build"},
        "expect": {"blocked": True, "reason_contains": "rm -rf is not allowed"}}))
    (pack / "tests" / "rewrites.json").write_text(json.dumps({
        "tool_name": "Bash", "tool_input": {"command": "echo hello"},
        "expect": {"blocked": False, "tool_input": {"command": "echo rewritten"}}}))
    on_path = tmp_path / "bin"
    on_path.mkdir()
    (on_path / "opencode").symlink_to(opencode_cli)  # (simulate runs the opencode on PATH)
    path = os.pathsep.join([str(on_path), os.environ["PATH"]])

    ran = hookwright("pack", "test", str(pack), "--host", "opencode", "--json", home=home, project=project,
                     env={"PATH": path})

    assert ran.returncode == 0, ran.stdout + ran.stderr
    [opencode] = json.loads(ran.stdout)["hosts"]
    assert {case["case"]: case["passed"] for case in opencode["cases"]} == {
        "blocks": True, "guard-sample": True, "rewrites": True}
