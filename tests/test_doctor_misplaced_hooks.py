"""A hooks file of a host's format written where that host reads none (structure/settings-not-read,
misplaced), beside its twin in the place the host reads: Codex reads `.codex/hooks.json` and
`[hooks]` of `.codex/config.toml` alone (measured on 0.171.0 with hooks/list:
tests/e2e/test_codex_facts.py), Cursor `.cursor/hooks.json` and `~/.cursor/hooks.json` (its hooks
docs, docs/hosts/cursor.md#config-files)."""
from __future__ import annotations

import json

import pytest
from doctor_support import doctor, found, write

CODEX_HOOKS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "bash g.sh"}]}]}}
CODEX_TOML = '[[hooks.PreToolUse]]\nmatcher = "Bash"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\ncommand = "bash g.sh"\n'
CURSOR_HOOKS = {"version": 1, "hooks": {"beforeShellExecution": [{"command": "bash .cursor/hooks/g.sh"}]}}
NOT_READ = "structure/settings-not-read"


def unread(project, files: dict) -> list:
    write(project, {".git/HEAD": "ref: refs/heads/main\n", **files})
    return found(doctor(project, {}, given=False, start=project), NOT_READ)


@pytest.mark.parametrize("place, content, instead", [
    (".codex/hooks/hooks.json", CODEX_HOOKS, ".codex/hooks.json"),
    (".codex/config/hooks.json", CODEX_HOOKS, ".codex/hooks.json"),
    (".codex/hooks.toml", CODEX_TOML, ".codex/hooks.json"),
    (".codex/settings.json", CODEX_HOOKS, ".codex/hooks.json"),
    ("hooks.json", CODEX_HOOKS, ".codex/hooks.json"),
    (".cursor/hooks/hooks.json", CURSOR_HOOKS, ".cursor/hooks.json"),
    ("hooks.json", CURSOR_HOOKS, ".cursor/hooks.json"),
])
def test_a_hooks_file_where_its_host_reads_none_is_named_with_the_file_it_reads(tmp_path, home, place, content, instead):
    project = tmp_path / "project"
    folder = {".codex/config.toml": "", ".cursor/.keep": ""} if place == "hooks.json" else {}
    [hit] = unread(project, {place: content, **folder})
    assert hit.path == str(project / place) and hit.severity == "warning"
    assert f"it reads them from {project / instead}" in hit.message and "never run" in hit.message


@pytest.mark.parametrize("place, content", [(".codex/hooks.json", CODEX_HOOKS), (".codex/config.toml", CODEX_TOML),
                                            (".cursor/hooks.json", CURSOR_HOOKS)])
def test_the_same_hooks_where_the_host_reads_them_are_not_named(tmp_path, home, place, content):
    assert unread(tmp_path / "project", {place: content}) == []


def test_the_users_hooks_in_a_subfolder_of_codex_home_are_named_with_codex_homes_file(tmp_path, home):
    write(home, {".codex/hooks/hooks.json": CODEX_HOOKS})
    [hit] = unread(tmp_path / "project", {})
    assert hit.path == str(home / ".codex/hooks/hooks.json") and str(home / ".codex/hooks.json") in hit.message


def test_the_users_cursor_hooks_in_a_subfolder_are_named_with_the_users_file(tmp_path, home):
    write(home, {".cursor/hooks/hooks.json": CURSOR_HOOKS})
    [hit] = unread(tmp_path / "project", {})
    assert str(home / ".cursor/hooks.json") in hit.message


@pytest.mark.parametrize("files", [
    {"hooks.json": CODEX_HOOKS, ".codex/config.toml": "", ".claude-plugin/plugin.json": {"name": "p"}},  # a plugin's top
    {"hooks.json": CODEX_HOOKS},  # no .codex: whose file it is, nothing says
    {"hooks.json": CURSOR_HOOKS, ".cursor-plugin/plugin.json": {"name": "p"}, ".cursor/.keep": ""},
    {".codex/hooks/hooks.json": CURSOR_HOOKS},  # Cursor's shape in a .codex subfolder: no Codex event
    {".codex/hooks/notes.json": CODEX_HOOKS},  # another name: a script's data
    {".codex/hooks/hooks.json": {"hooks": {"Deploy": []}}},  # no event of Codex's
    {".cursor/rules/hooks.json": "{not json"},
    {".codex/hooks/hooks.json": CODEX_HOOKS, ".codex/hooks.json": CODEX_HOOKS},  # the same hooks read: a copy
])
def test_near_misses_are_not_named(tmp_path, home, files):
    assert unread(tmp_path / "project", files) == []


def test_the_finding_sits_at_the_hooks_block_of_the_misplaced_file(tmp_path, home):
    project = tmp_path / "project"
    [hit] = unread(project, {".codex/hooks/hooks.json": json.dumps({"description": "d", **CODEX_HOOKS}, indent=2)})
    assert (hit.line, hit.keys) == (3, ("hooks",))
