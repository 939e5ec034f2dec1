"""What Claude Code does with the bytes of a settings file (docs/hosts/claude-code.md#settings-files):
it reads one that starts with a UTF-8 byte-order mark (install keeps the mark and edits the file,
doctor says nothing), one in UTF-16 LE with its mark, one with a byte that is not UTF-8, and not the
other UTF-16 and UTF-32 forms; and it follows a settings file or folder linked from elsewhere."""
from __future__ import annotations

import json
import os

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


# Each encoding a Windows editor or shell writes a settings file in, with what Claude Code does with
# it: True when the file is read (its deny hook runs), False when the whole file is ignored.
SETTINGS_ENCODINGS = {
    "utf-16-le with a BOM (PowerShell 5's Out-File)": (lambda text: b"\xff\xfe" + text.encode("utf-16-le"), True),
    "utf-16-le without a BOM": (lambda text: text.encode("utf-16-le"), False),
    "utf-16-be with a BOM": (lambda text: b"\xfe\xff" + text.encode("utf-16-be"), False),
    "utf-16-be without a BOM": (lambda text: text.encode("utf-16-be"), False),
    "utf-32-le with a BOM": (lambda text: b"\xff\xfe\x00\x00" + text.encode("utf-32-le"), False),
    "latin-1 bytes in a string": (lambda text: text.replace('"Bash"', '"Bash", "_note": "caf\xe9"')
                                  .encode("latin-1"), True),
    "utf-8 with CRLF line ends": (lambda text: text.replace("\n", "\r\n").encode(), True),
}


@pytest.mark.parametrize("scope", ["project", "user"])
@pytest.mark.parametrize("encoding", SETTINGS_ENCODINGS)
def test_claude_code_reads_a_settings_file_in_each_encoding_as_its_reader_decodes_it(
        claude_cli, home, project, encoding, scope):
    import shlex
    import sys

    encode, read = SETTINGS_ENCODINGS[encoding]
    script = project / "deny_hook.py"
    script.write_text(DENY_HOOK)
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    settings = (project if scope == "project" else home) / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_bytes(encode(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}, indent=2) + "\n"))

    run = run_claude(project, home, [TOUCH], claude=claude_cli)

    assert run.returncode == 0, run.stderr
    [result] = run.tool_results
    assert ("harness-deny-42" in result["content"]) is read, result["content"]
    assert (project / "made.txt").exists() is not read


@pytest.mark.parametrize("form", ["file link", "relative file link", "folder link"])
def test_claude_code_follows_a_settings_file_linked_from_a_shared_folder_and_so_does_doctor(
        claude_cli, home, project, tmp_path, form):
    import shlex
    import sys

    shared = tmp_path / "shared"
    (shared / ".claude").mkdir(parents=True)
    (shared / "deny_hook.py").write_text(DENY_HOOK)
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(shared / 'deny_hook.py'))}"
    (shared / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}}, indent=2))
    if form == "folder link":
        (project / ".claude").symlink_to(shared / ".claude")
    else:
        (project / ".claude").mkdir()
        target = shared / ".claude" / "settings.json"
        (project / ".claude" / "settings.json").symlink_to(os.path.relpath(target, project / ".claude")
                                                           if form.startswith("relative") else target)

    run = run_claude(project, home, [TOUCH], claude=claude_cli)
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project)

    [result] = run.tool_results
    assert "harness-deny-42" in result["content"] and not (project / "made.txt").exists()
    report = json.loads(doctor.stdout)
    assert report["summary"]["handlers"] == 1 and report["summary"]["errors"] == 0, report["findings"]
