"""What the interactive Codex asks before it runs a hook it is not told to trust, and what doctor
grades it (docs/hosts/codex.md#trust, measured on 0.171.0): started in a git project the user's
config.toml says nothing of, `codex` asks "Trust this folder?"; in a trusted project whose hook has
no trusted hash, or a stale one, "Hooks need review"; in a project the config.toml marks
untrusted it asks nothing ("Open restricted": its hooks stay off); with every hash trusted, neither.
`codex exec` asks nothing and skips them (test_codex_facts.py, project folders). So doctor warns
where Codex asks (host/hook-not-yet-trusted) and errs where it does not (host/hook-untrusted, at
the trust_level line), and says nothing of the trusted twin."""
from __future__ import annotations

import json
import subprocess

import pytest
from claude_cli import hookwright
from codex_cli import tui_screen
from hookwright.hosts.codex import trust

pytestmark = pytest.mark.e2e

HOOKS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo checked"}]}]}}
FOLDER, REVIEW, RESTRICTED = "Trust this folder?", "Hooks need review", "Open restricted"
READY = "Ask Codex to do anything"  # (the prompt of a session that asked nothing)
# case -> (the project's trust_level in the user's config.toml, the hook's hash: trusted, stale or none),
# what Codex asks, and doctor's rule
CASES = {"fresh": (None, None, FOLDER, "host/hook-not-yet-trusted"),
         "new-hook": ("trusted", None, REVIEW, "host/hook-not-yet-trusted"),
         "stale-hash": ("trusted", "stale", REVIEW, "host/hook-not-yet-trusted"),
         "marked-untrusted": ("untrusted", None, RESTRICTED, "host/hook-untrusted"),
         "trusted": ("trusted", "trusted", None, None)}


@pytest.mark.parametrize("case", CASES)
def test_codex_asks_before_it_runs_a_hook_not_trusted_yet_and_doctor_warns_there_and_errs_where_it_does_not(
        codex_cli, home, tmp_path, case):
    level, hashed, asks, rule = CASES[case]
    repo = tmp_path / "repo"
    (repo / ".codex").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".codex" / "hooks.json").write_text(json.dumps(HOOKS))
    [hook] = trust.hooks_of(f"{repo}/.codex/hooks.json", HOOKS)
    lines = [f'[projects."{repo}"]', f'trust_level = "{level}"'] if level else []
    if hashed:
        lines += [f'[hooks.state."{hook.key}"]', f'trusted_hash = "{hook.hash if hashed == "trusted" else "sha256:" + "0" * 64}"']
    (home / ".codex").mkdir(exist_ok=True)
    (home / ".codex" / "config.toml").write_text("\n".join(lines) + "\n")

    screen = tui_screen(repo, home, until=[FOLDER, REVIEW, RESTRICTED] if asks else [READY])

    assert [mark for mark in (FOLDER, REVIEW, RESTRICTED) if mark in screen] == ([asks] if asks else []), screen[-400:]
    found = json.loads(hookwright("doctor", "--format", "json", home=home, project=repo).stdout)["findings"]
    said = [(f["rule"], f["severity"], f["path"]) for f in found if "trusted" in f["rule"]]
    where = str(home / ".codex" / "config.toml") if case in ("marked-untrusted", "stale-hash") else str(repo / ".codex" / "hooks.json")
    assert said == ([(rule, "error" if rule == "host/hook-untrusted" else "warning", where)] if rule else [])
