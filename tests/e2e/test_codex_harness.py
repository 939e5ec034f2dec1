"""The Codex e2e harness itself, against the real `codex exec` and without hookwright.

If these fail, a Codex e2e failure elsewhere says nothing about hookwright: the CLI, the fake
Responses API or the way we start Codex broke first. The hooks are trusted the way a user's
tool would trust them: with the keys and hashes Codex itself reports (`codex app-server`).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from codex_cli import answer_hook, hook_calls, hooks_file, hooks_list, run_codex, shell, trust_toml
from conftest import git

pytestmark = pytest.mark.e2e

TOUCH = shell("touch made.txt")
DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                               "permissionDecisionReason": "harness-deny-42"}}
REWRITE = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                  "updatedInput": {"command": "touch rewritten.txt"}}}


@pytest.fixture
def repo(project: Path) -> Path:
    git(project, "init", "-q")
    return project


def install(repo: Path, *groups: tuple[str, str | None, list[str]]) -> None:
    folder = repo / ".codex"
    folder.mkdir(exist_ok=True)
    (folder / "hooks.json").write_text(json.dumps(hooks_file(*groups), indent=2))


def trust(home: Path, repo: Path, *, hooks: bool = True) -> list[dict]:
    """Trust the project, and (hooks=True) every hook Codex finds there; Codex's list of them."""
    (home / ".codex").mkdir(exist_ok=True)
    config = home / ".codex" / "config.toml"
    config.write_text(trust_toml([repo]))
    [found] = hooks_list(home, [repo])
    if hooks:
        config.write_text(trust_toml([repo], {hook["key"]: hook["currentHash"] for hook in found["hooks"]}))
    return found["hooks"]


def test_a_trusted_hook_that_denies_blocks_the_shell_call_and_the_model_gets_its_reason(codex_cli, home, repo, tmp_path):
    install(repo, ("PreToolUse", "Bash", [answer_hook(tmp_path, "deny", stdout=DENY)]))
    trust(home, repo)

    run = run_codex(repo, home, [TOUCH, "done"], codex=codex_cli)

    assert run.returncode == 0, run.stderr  # codex exec succeeds although the call was blocked
    assert run.outputs() == ["Command blocked by PreToolUse hook: harness-deny-42. Command: touch made.txt"]
    assert not (repo / "made.txt").exists()
    [call] = hook_calls(tmp_path)
    assert call["input"]["hook_event_name"] == "PreToolUse"
    assert call["input"]["tool_name"] == "Bash"  # the model's exec_command, as Claude Code names it
    assert call["input"]["tool_input"] == {"command": "touch made.txt"}
    assert call["input"]["cwd"] == str(repo)


def test_a_trusted_hook_that_rewrites_changes_the_command_that_runs(codex_cli, home, repo, tmp_path):
    install(repo, ("PreToolUse", "Bash", [answer_hook(tmp_path, "rewrite", stdout=REWRITE)]),
            ("PostToolUse", None, [answer_hook(tmp_path, "after")]))
    trust(home, repo)

    run = run_codex(repo, home, [TOUCH, "done"], codex=codex_cli)

    assert run.returncode == 0, run.stderr
    assert (repo / "rewritten.txt").exists() and not (repo / "made.txt").exists()
    after = [call["input"] for call in hook_calls(tmp_path) if call["name"] == "after"]
    assert [payload["tool_input"] for payload in after] == [{"command": "touch rewritten.txt"}]
    assert "Process exited with code 0" in run.outputs()[0]


def test_an_untrusted_hook_is_skipped_without_a_word(codex_cli, home, repo, tmp_path):
    install(repo, ("PreToolUse", "Bash", [answer_hook(tmp_path, "deny", stdout=DENY)]))
    [hook] = trust(home, repo, hooks=False)  # the project is trusted, the hook is not

    run = run_codex(repo, home, [TOUCH, "done"], codex=codex_cli)

    assert hook["trustStatus"] == "untrusted"
    assert hook["key"] == f"{repo}/.codex/hooks.json:pre_tool_use:0:0"
    assert hook_calls(tmp_path) == []
    assert (repo / "made.txt").exists()
    assert "hook" not in run.stderr.lower()
    assert not [event for event in run.events if "hook" in json.dumps(event).lower()]
    assert run.errors() == []
