"""Codex's hook trust (docs/hosts/codex.md#trust), computed as the page says and checked on the
real Codex: the key and hash of every kind of hook agree with what `codex app-server` reports,
a hook trusted with them runs, and one edited after it was trusted is skipped.

The key and the hash are the Codex host's own (installer/hosts/codex/trust.py, the algorithm of
docs/hosts/codex.md#trust-hash): what status, doctor and --trust-hooks compute is what is held here.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from codex_cli import answer_hook, hook_calls, hooks_list, run_codex, shell, trust_toml
from conftest import git
from hookwright.hosts.codex import trust

pytestmark = pytest.mark.e2e

EVENT_KEY_LABELS = trust.LABELS
DEFAULT_CONTEXT_LIMIT = trust.DEFAULT_CONTEXT_LIMIT


def documented(source: Path, hooks: dict) -> dict[str, str]:
    """key: hash of every command hook of a hooks.json document, as the page computes them."""
    return {trust.trust_key(str(source), event, g, h): trust.trusted_hash(event, group, handler)
            for event, groups in hooks["hooks"].items() for g, group in enumerate(groups)
            for h, handler in enumerate(group["hooks"])}


def command(text: str, **fields: object) -> dict:
    return {"type": "command", "command": text, **fields}


VARIED = {"hooks": {
    **{event: [{"matcher": "Bash", "hooks": [command(f"echo {event}")]}] for event in EVENT_KEY_LABELS},
    "PreToolUse": [
        {"matcher": "Bash", "hooks": [command("echo a", timeout=30), command("echo b", statusMessage="vérifie…"),
                                      command("echo c", **{"async": True}), command("echo d", timeout=0)]},
        {"matcher": "", "hooks": [command('printf "%s\\n" \'é ☃ "q" \\\\ \t\u0001\u007f\u2028\'', unknown=1)]},
        {"hooks": [command("echo e", additionalContextLimit=DEFAULT_CONTEXT_LIMIT),
                   command("echo f", additionalContextLimit=100, statusMessage=None)]},
    ],
    "SessionEnd": [{"hooks": [command("echo g", timeout=10, **{"async": True})]}],
    "Stop": [{"matcher": "ignored", "hooks": [command("echo h", additionalContextLimit=7)]}],
}}


def test_the_documented_key_and_hash_of_every_kind_of_hook_are_those_codex_computes(codex_cli, home, tmp_path):
    (home / ".codex").mkdir()
    source = home / ".codex" / "hooks.json"
    source.write_text(json.dumps(VARIED, indent=2))

    [found] = hooks_list(home, [tmp_path])

    codex = {hook["key"]: hook["currentHash"] for hook in found["hooks"]}
    assert len(codex) == 20
    assert codex == documented(source, VARIED)
    assert found["errors"] == []


def test_a_project_hook_trusted_with_the_documented_hash_runs_and_once_edited_is_skipped(codex_cli, home, project, tmp_path):
    git(project, "init", "-q")
    (project / "sub").mkdir()
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [command(answer_hook(tmp_path, "guard"))]}]}}
    source = project / ".codex" / "hooks.json"
    source.parent.mkdir()
    source.write_text(json.dumps(hooks))
    (home / ".codex").mkdir()
    # the project is trusted by its git root, and Codex reads the root's .codex/ from a subfolder
    (home / ".codex" / "config.toml").write_text(trust_toml([project], documented(source, hooks)))

    ran = run_codex(project / "sub", home, [shell("true"), "done"], codex=codex_cli)

    assert ran.returncode == 0, ran.stderr
    assert [call["name"] for call in hook_calls(tmp_path)] == ["guard"]

    hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"] += " "  # one space more
    source.write_text(json.dumps(hooks))
    run_codex(project / "sub", home, [shell("true"), "done"], codex=codex_cli)

    assert [call["name"] for call in hook_calls(tmp_path)] == ["guard"]  # not run again
    [found] = hooks_list(home, [project / "sub"])
    assert [hook["trustStatus"] for hook in found["hooks"]] == ["modified"]


def test_only_the_users_config_trusts_a_hook_and_a_trusted_hook_can_be_turned_off(codex_cli, home, tmp_path):
    repos = {name: tmp_path / name for name in ("self-trusted", "disabled", "spaced")}
    hooks = {"hooks": {"Stop": [{"hooks": [command("true")]}]}}
    trusted = {}
    for name, repo in repos.items():
        (repo / ".codex").mkdir(parents=True)
        git(repo, "init", "-q")
        (repo / ".codex" / "hooks.json").write_text(json.dumps(hooks))
        trusted[name] = documented(repo / ".codex" / "hooks.json", hooks)
    # a repository's own .codex/config.toml says its hook is trusted: Codex does not listen
    (repos["self-trusted"] / ".codex" / "config.toml").write_text(trust_toml([], trusted["self-trusted"]))
    [(disabled_key, disabled_hash)] = trusted["disabled"].items()
    [(spaced_key, spaced_hash)] = trusted["spaced"].items()
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        trust_toml(repos.values(), {f"  {spaced_key} ": spaced_hash})
        + f"[hooks.state.{json.dumps(disabled_key)}]\ntrusted_hash = {json.dumps(disabled_hash)}\nenabled = false\n")

    found = hooks_list(home, list(repos.values()))

    status = [[(hook["trustStatus"], hook["enabled"]) for hook in entry["hooks"]] for entry in found]
    assert status == [[("untrusted", True)], [("trusted", False)], [("trusted", True)]]
