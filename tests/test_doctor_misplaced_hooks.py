"""A hooks file of a host's format written where that host reads none (structure/settings-not-read,
misplaced), beside its twin in the place the host reads: Codex reads `.codex/hooks.json` and
`[hooks]` of `.codex/config.toml` alone (measured on 0.171.0 with hooks/list:
tests/e2e/test_codex_facts.py), Cursor `.cursor/hooks.json` and `~/.cursor/hooks.json` (its hooks
docs, docs/hosts/cursor.md#config-files), opencode its config and `.opencode/` folders from the folder it
starts in up to the git root (measured on 1.18.33)."""
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
    ("hooks/hooks-cursor.json", CURSOR_HOOKS, ".cursor/hooks.json"),  # an exporter's plugin-style file
    ("hooks/hooks.json", CURSOR_HOOKS, ".cursor/hooks.json"),
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
    {"hooks/hooks-cursor.json": CURSOR_HOOKS, ".cursor-plugin/plugin.json": {"hooks": "./hooks/hooks-cursor.json"}},
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


# ---- opencode: a package's plugins, below the folder the session starts in --------------------------

GUARD_PLUGIN = ('export const G = async () => ({\n  "tool.execute.before": async (input, output) => {\n'
                '    if (input.tool === "bash" && output.args.command.includes("rm -rf")) throw new Error("no")\n  },\n})\n')


@pytest.mark.parametrize("place", ["packages/web/.opencode/plugins/guard.js", "packages/web/.opencode/plugin/guard.ts",
                                   "packages/web/opencode.json"])
def test_a_packages_opencode_plugins_are_named_from_the_root(tmp_path, home, place):
    """opencode reads .opencode and opencode.json from the start up to the git root, never below
    (measured on 1.18.33: tests/e2e/test_doctor_opencode_load_e2e.py)."""
    project = tmp_path / "project"
    files = {"packages/web/guards/guard.js": GUARD_PLUGIN}
    files[place] = {"plugin": ["./guards/guard.js"]} if place.endswith(".json") else GUARD_PLUGIN
    [hit] = unread(project, files)
    assert hit.path == str(project / place) and "opencode" in hit.message and str(project / "packages/web") in hit.hint


@pytest.mark.parametrize("files", [
    {".opencode/plugins/guard.js": GUARD_PLUGIN},  # the start's own
    {"packages/web/opencode.json": {"mcp": {}}},  # a package's config that lists no plugin
    {"packages/web/.opencode/plugins/README.md": "notes"},  # no plugin
    {"packages/web/.opencode/plugins/guard.js": GUARD_PLUGIN, ".opencode/plugins/guard.js": GUARD_PLUGIN},  # a copy
    {"node_modules/x/.opencode/plugins/guard.js": GUARD_PLUGIN},  # a dependency's
])
def test_the_starts_own_plugins_and_a_package_without_plugins_are_not_named(tmp_path, home, files):
    assert unread(tmp_path / "project", files) == []


def test_started_in_the_package_its_plugins_are_read(tmp_path, home):
    project = tmp_path / "project"
    write(project, {".git/HEAD": "ref: refs/heads/main\n", "packages/web/.opencode/plugins/guard.js": GUARD_PLUGIN})
    package = project / "packages" / "web"
    assert found(doctor(package, {}, given=False, start=package), NOT_READ) == []
