"""`[hooks]` in Codex's config.toml files, and the switches there, on the real Codex, beside what
doctor says of each (docs/hosts/codex.md#config-files, #switches): the keys and hashes of the
hooks of the user's and a project's config.toml are those hookwright computes, the trust step
doctor prints makes Codex trust them, a wrong type or bad TOML stops `codex` (exit 1), and
`[features] hooks = false` runs no hook, the config.toml of highest precedence counting."""
from __future__ import annotations

import json
import subprocess

import pytest
import tomllib
from claude_cli import hookwright
from codex_cli import answer_hook, hook_calls, hooks_list, run_codex, shell, trust_toml
from hookwright.hosts.codex import trust

pytestmark = pytest.mark.e2e

AOT = '[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = {command}\ntimeout = {timeout}\n'
INLINE = '[hooks]\nPostToolUse = [{{ matcher = "Bash", hooks = [{{ type = "command", command = {command} }}] }}]\n'


def new_repo(path):
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def findings(home, repo, rule: str) -> list[dict]:
    ran = hookwright("doctor", "--format", "json", home=home, project=repo)
    return [f for f in json.loads(ran.stdout)["findings"] if f["rule"] == rule]


def test_config_toml_hooks_are_keyed_and_hashed_as_hookwright_computes_and_doctors_trust_step_trusts_them(
        codex_cli, home, tmp_path):
    repo = new_repo(tmp_path / "repo")
    (repo / ".codex").mkdir()
    (repo / ".codex" / "config.toml").write_text(INLINE.format(command=json.dumps("echo project")))
    config = home / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text(trust_toml([repo]) + AOT.format(command=json.dumps("echo user"), timeout=5))

    [listed] = hooks_list(home, [repo])
    ours = {hook.key: hook.hash for path in (config, repo / ".codex" / "config.toml")
            for hook in trust.hooks_of(str(path), tomllib.loads(path.read_text()))}
    assert {hook["key"]: hook["currentHash"] for hook in listed["hooks"]} == ours
    assert {hook["trustStatus"] for hook in listed["hooks"]} == {"untrusted"}

    # (trusted project, hooks with no hash: the interactive codex asks, "Hooks need review": a warning)
    hints = [f["hint"] for f in findings(home, repo, "host/hook-not-yet-trusted")]
    assert len(hints) == 2
    for hint in hints:  # done as printed: the lines at the end of the user's config.toml
        config.write_text(config.read_text() + hint.split(":\n", 1)[1] + "\n")
    [listed] = hooks_list(home, [repo])
    assert {hook["trustStatus"] for hook in listed["hooks"]} == {"trusted"}
    assert findings(home, repo, "host/hook-not-yet-trusted") + findings(home, repo, "host/hook-untrusted") == []


CONFIGS = {  # case -> (the user's config.toml after the trust, the project's .codex/config.toml, the hook runs, rule)
    "wrong type": ("", AOT.format(command="@", timeout='"ten"'), False, "host/file-dropped"),
    "the fixed type": ("", AOT.format(command="@", timeout=10), True, "host/file-dropped"),
    "not TOML": ("", "[hooks\n" + AOT.format(command="@", timeout=10), False, "structure/invalid-json"),
    "user's switch off": ("[features]\nhooks = false\n", AOT.format(command="@", timeout=10), False,
                          "host/hooks-switched-off"),
    "project's switch on over it": ("[features]\nhooks = false\n",
                                    "[features]\nhooks = true\n" + AOT.format(command="@", timeout=10), True,
                                    "host/hooks-switched-off"),
}


@pytest.mark.parametrize("case", CONFIGS)
def test_a_config_toml_codex_refuses_stops_it_and_a_switch_off_runs_no_hook_as_doctor_says(
        codex_cli, home, tmp_path, case):
    user, project, runs, rule = CONFIGS[case]
    repo = new_repo(tmp_path / "repo")
    (repo / ".codex").mkdir()
    (repo / ".codex" / "config.toml").write_text(project.replace("@", json.dumps(answer_hook(tmp_path, "guard"))))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]) + user)

    ran = run_codex(repo, home, [shell("true"), "done"], bypass_hook_trust=True)

    assert [call["name"] for call in hook_calls(tmp_path)] == (["guard"] if runs else [])
    assert (ran.returncode == 1 and "Error loading config.toml" in ran.stderr) == (rule != "host/hooks-switched-off"
                                                                                   and not runs)
    said = findings(home, repo, rule)
    assert bool(said) != runs, said
