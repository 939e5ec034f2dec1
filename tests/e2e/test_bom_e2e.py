"""What Claude Code does with a settings file that starts with a UTF-8 byte-order mark: it reads it
(docs/hosts/claude-code.md#settings-files). install keeps the mark and edits the file, and doctor
says nothing about it, on the strength of this experiment."""
from __future__ import annotations

import json

import pytest
from claude_cli import hookwright, run_claude
from test_harness import DENY_HOOK, TOUCH

pytestmark = pytest.mark.e2e
BOM = b"\xef\xbb\xbf"


def test_claude_code_runs_the_hooks_of_a_settings_file_that_starts_with_a_bom_and_so_does_an_install_into_it(
        claude_cli, home, project):
    import shlex
    import sys

    script = project / "deny_hook.py"
    script.write_text(DENY_HOOK)
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_bytes(BOM + json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}, indent=2).encode())

    run = run_claude(project, home, [TOUCH], claude=claude_cli)
    installed = hookwright("install", "path-normalizer", "--scope", "project", "--project", str(project), "--yes",
                           home=home, project=project)
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert "harness-deny-42" in result["content"] and not (project / "made.txt").exists()
    assert installed.returncode == 0, installed.stderr
    assert settings.read_bytes().startswith(BOM) and "path-normalizer" in settings.read_text(encoding="utf-8-sig")
    assert not [f for f in json.loads(doctor.stdout)["findings"] if "bom" in f["message"].lower()]
