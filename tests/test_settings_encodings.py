"""A settings file in the encodings Windows tools write, read as Claude Code reads it
(docs/hosts/claude-code.md#settings-files, measured on 2.1.332 in tests/e2e/test_bom_e2e.py):
UTF-16 LE with its byte-order mark is read whole, a byte that is not UTF-8 is read as U+FFFD,
and UTF-16 without the mark, UTF-16 BE and UTF-32 void the file. install and uninstall keep the
file's own encoding, byte for byte."""
from __future__ import annotations

import json

import pytest
from doctor_support import doctor, found, settings

S = ".claude/settings.json"
GUARD = settings(command="bash .claude/hooks/guard.sh")
TEXT = json.dumps(GUARD, indent=2).replace("\n", "\r\n") + "\r\n"  # (PowerShell writes CRLF)


def utf16le_bom(text: str) -> bytes:
    return b"\xff\xfe" + text.encode("utf-16-le")


def test_a_utf16_le_settings_file_with_its_byte_order_mark_is_read_and_its_hooks_checked(tmp_path):
    outcome = doctor(tmp_path, {S: utf16le_bom(TEXT)})

    assert not found(outcome, "structure/invalid-json") and not found(outcome, "structure/not-utf8")
    assert len(outcome.handlers) == 1


@pytest.mark.parametrize("raw, says", [
    (b"\xfe\xff" + TEXT.encode("utf-16-be"), "UTF-16 big-endian text"),
    (TEXT.encode("utf-16-le"), "UTF-16 little-endian text without a byte-order mark"),
    (TEXT.encode("utf-16-be"), "UTF-16 big-endian text without a byte-order mark"),
    (b"\xff\xfe\x00\x00" + TEXT.encode("utf-32-le"), "UTF-32 text"),
], ids=["utf-16 be with its mark", "utf-16 le without a mark", "utf-16 be without a mark", "utf-32 le"])
def test_utf16_that_claude_code_does_not_decode_voids_the_file_and_doctor_names_the_encoding(tmp_path, raw, says):
    [finding] = found(doctor(tmp_path, {S: raw}), "structure/invalid-json")

    assert finding.severity == "error" and says in finding.message and "ignores this entire file" in finding.message
    assert finding.hint == "save the file as UTF-8"


def test_a_latin1_byte_is_read_as_the_replacement_character_and_reported_where_it_is(tmp_path):
    raw = TEXT.replace("guard.sh", "garde-\xe9.sh").encode("latin-1")

    outcome = doctor(tmp_path, {S: raw})

    [finding] = found(outcome, "structure/not-utf8")
    line = TEXT.splitlines().index(next(x for x in TEXT.splitlines() if "guard.sh" in x)) + 1
    assert (finding.severity, finding.line) == ("warning", line) and "byte 0xe9" in finding.message
    assert not found(outcome, "structure/invalid-json") and len(outcome.handlers) == 1


def test_a_utf8_file_with_only_utf8_text_has_no_encoding_finding(tmp_path):
    outcome = doctor(tmp_path, {S: TEXT.replace("guard.sh", "garde-\xe9.sh").encode("utf-8")})

    assert not found(outcome, "structure/not-utf8") and not found(outcome, "structure/invalid-json")


def scope(project):
    return ("--scope", "project", "--project", project, "--yes")


def test_install_into_a_utf16_le_file_writes_it_back_in_utf16_and_uninstall_gives_back_its_bytes(
        hookwright, home, project):
    settings_file = project / ".claude" / "settings.json"
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(original := utf16le_bom(TEXT))

    installed = hookwright("install", "git-guard", *scope(project))

    assert installed.code == 0, installed.err
    raw = settings_file.read_bytes()
    assert raw.startswith(b"\xff\xfe") and raw[2:].decode("utf-16-le").startswith(TEXT[:20])
    data = json.loads(raw[2:].decode("utf-16-le"))
    assert data["hooks"]["PreToolUse"][0] == GUARD["hooks"]["PreToolUse"][0] and len(data["hooks"]["PreToolUse"]) > 1
    assert "\r\n" in raw[2:].decode("utf-16-le") and "\n" not in raw[2:].decode("utf-16-le").replace("\r\n", "")

    removed = hookwright("uninstall", "git-guard", *scope(project))

    assert removed.code == 0, removed.err
    assert settings_file.read_bytes() == original


def test_uninstall_after_an_edit_of_a_utf16_file_renders_it_again_in_utf16(hookwright, home, project):
    settings_file = project / ".claude" / "settings.json"
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes(utf16le_bom(TEXT))
    hookwright("install", "git-guard", *scope(project))
    edited = settings_file.read_bytes()[2:].decode("utf-16-le").replace('{\r\n  "hooks"', '{\r\n  "model": "x",\r\n  "hooks"', 1)
    settings_file.write_bytes(utf16le_bom(edited))

    removed = hookwright("uninstall", "git-guard", *scope(project))

    assert removed.code == 0, removed.err
    assert settings_file.read_bytes() == utf16le_bom(TEXT.replace('{\r\n  "hooks"', '{\r\n  "model": "x",\r\n  "hooks"', 1))
