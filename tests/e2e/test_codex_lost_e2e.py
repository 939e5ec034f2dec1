"""Codex hooks that never act, each beside its corrected twin on the real Codex 0.171.0, and doctor
naming the broken one (docs/hosts/codex.md#config-files, #stdin-payload):

- hooks written in `~/.config/codex/hooks.json` (the XDG folder other tools use): Codex reads its
  user hooks from $CODEX_HOME (default ~/.codex) alone; the twin's are there;
- a UserPromptSubmit hook that reads the prompt as `user_prompt`: Codex sends it as `prompt`.
"""
from __future__ import annotations

import json
import subprocess

import pytest
from claude_cli import hookwright
from codex_cli import run_codex, shell, trust_toml

pytestmark = pytest.mark.e2e

REFUSE = ("import json, sys\nif {case!r} in json.load(sys.stdin)['tool_input']['command']:\n"
          "    print('refused {case}', file=sys.stderr)\n    sys.exit(2)\n")


def _findings(home, repo, rule: str) -> list[tuple[str, int]]:
    doctor = json.loads(hookwright("doctor", "--format", "json", home=home, project=repo).stdout)
    return [(f["path"], f["line"]) for f in doctor["findings"] if f["rule"] == rule]


def test_user_hooks_in_the_xdg_folder_never_run_and_doctor_says_where_codex_reads_them(codex_cli, home, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for folder, case in ((home / ".config" / "codex", "xdg"), (home / ".codex", "home")):
        (folder / "hooks").mkdir(parents=True)
        (folder / "hooks" / f"{case}_guard.py").write_text(REFUSE.format(case=f"{case}.txt"))
        (folder / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": f"python3 {folder}/hooks/{case}_guard.py"}]}]}},
            indent=2))
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

    run = run_codex(repo, home, [shell("touch xdg.txt"), shell("touch home.txt"), "done"], bypass_hook_trust=True,
                    env={"XDG_CONFIG_HOME": str(home / ".config")})

    assert (repo / "xdg.txt").exists() and not (repo / "home.txt").exists(), run.stderr[-3000:]
    assert _findings(home, repo, "structure/settings-not-read") == [(str(home / ".config" / "codex" / "hooks.json"), 2)]


def test_a_prompt_hook_reads_the_prompt_as_prompt_not_user_prompt(codex_cli, home, tmp_path):
    repo = tmp_path / "repo"
    (repo / ".codex" / "hooks").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for field in ("user_prompt", "prompt"):
        (repo / ".codex" / "hooks" / f"{field}.py").write_text(
            f"import json, pathlib, sys\ntext = json.load(sys.stdin).get({field!r}, '')\n"
            f"pathlib.Path({str(repo / (field + '.seen'))!r}).write_text(text)\n")
    (repo / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": f'python3 "$(git rev-parse --show-toplevel)"/.codex/hooks/{field}.py'}
        for field in ("user_prompt", "prompt")]}]}}, indent=2))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

    run = run_codex(repo, home, ["done"], bypass_hook_trust=True)

    assert (repo / "prompt.seen").read_text() == "go", run.stderr[-3000:]
    assert (repo / "user_prompt.seen").read_text() == ""
    assert _findings(home, repo, "script/input-field-never-sent") == [(str(repo / ".codex" / "hooks" / "user_prompt.py"), 2)]
