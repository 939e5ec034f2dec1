"""Real Cursor and opencode configs, byte for byte: install then uninstall gives back what was
there, installing twice is installing once, and what we cannot edit is left alone (exit 2).

Always over the copies in tests/fixtures/cursor-hooks and tests/fixtures/opencode (see the
README there); over every Cursor file and every opencode config and plugin folder of
../shared/corpus when it is beside the repo (skipped, with the reason, without it).

Cursor: each file is the project's `.cursor/hooks.json`, and git-guard and path-normalizer go
in and out. opencode: the files of one repository are laid out as a project (plugins in
`.opencode/plugins/`, the config at the root) and both packs go in as plugin files of their
own and out again: nothing of the project's may change, byte or name.
"""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from support import SHARED

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CORPUS = SHARED / "corpus"
PACKS = ("git-guard", "path-normalizer")


def _files(folder: str) -> list:
    """(source, path) of every fixture in tests/fixtures/<folder>, then of the corpus folder."""
    found = [pytest.param(p, id=f"fixture/{p.name}") for p in sorted((FIXTURES / folder).iterdir())]
    if not CORPUS.is_dir():
        return found + [pytest.param(None, id="corpus-absent")]
    return found + [pytest.param(p, id=f"corpus/{p.name}") for p in sorted((CORPUS / folder).iterdir()) if p.is_file()]


def _path(path: Path | None, request) -> Path:
    if path is None:
        request.getfixturevalue("shared")  # skips, with the reason, without ../shared
    return path


def cursor_refusal(raw: bytes) -> str | None:
    """Why install must refuse this hooks.json (exit 2), decided without the product code."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        return f"not JSON: {err}"
    if not isinstance(data, dict):
        return "not an object"
    if "version" in data and data["version"] != 1:
        return "another version"
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        return '"hooks" is not an object'
    if any(not isinstance(entries, list) for entries in hooks.values()):
        return "an event is not a list"
    return None


def snapshot(folder: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("path", _files("cursor-hooks"))
def test_a_real_cursor_file_goes_back_to_its_bytes(path, request, hookwright, home, project):
    path = _path(path, request)
    raw = path.read_bytes()
    hooks = project / ".cursor" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_bytes(raw)
    where = ("--host", "cursor", "--scope", "project", "--project", project, "--yes")

    installed = hookwright("install", *PACKS, *where)
    if cursor_refusal(raw):
        assert installed.code == 2 and f"{hooks}" in installed.err, (cursor_refusal(raw), installed.err)
        assert hooks.read_bytes() == raw
        return
    assert installed.code == 0, installed.out + installed.err
    after_install = hooks.read_bytes()
    again = hookwright("install", *PACKS, *where, "--json")
    assert again.code == 0 and again.json["status"] == "unchanged" and hooks.read_bytes() == after_install
    assert hookwright("uninstall", *PACKS, *where).code == 0
    assert hooks.read_bytes() == raw
    assert not (project / ".cursor" / "hookwright").exists()


def _opencode_projects() -> list:
    """The fixtures as one project; the corpus's files grouped by the repository they come from."""
    cases = [pytest.param(sorted((FIXTURES / "opencode").iterdir()), id="fixtures")]
    if not CORPUS.is_dir():
        return cases + [pytest.param(None, id="corpus-absent")]
    by_repo = defaultdict(list)
    for path in sorted((CORPUS / "opencode").iterdir()):
        by_repo["__".join(path.name.split("__")[:2])].append(path)
    return cases + [pytest.param(paths, id=f"corpus/{repo}") for repo, paths in sorted(by_repo.items())]


def lay_out(project: Path, paths: list[Path]) -> None:
    """A plugin file goes into .opencode/plugins/ (by the last part of its name), a config to the root."""
    for path in paths:
        name = path.name.split("__")[-1]
        if name.startswith("opencode.json"):
            (project / name).write_bytes(path.read_bytes())
        else:
            target = project / ".opencode" / "plugins" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())


@pytest.mark.parametrize("paths", _opencode_projects())
def test_a_real_opencode_project_is_left_as_it_was(paths, request, hookwright, home, project):
    if paths is None:
        request.getfixturevalue("shared")
    lay_out(project, paths)
    before = snapshot(project)
    where = ("--host", "opencode", "--scope", "project", "--project", project, "--yes")

    installed = hookwright("install", *PACKS, *where)
    assert installed.code == 0, installed.out + installed.err
    now = snapshot(project)
    assert {name: data for name, data in now.items() if name in before} == before  # theirs, untouched
    again = hookwright("install", *PACKS, *where, "--json")
    assert again.code == 0 and again.json["status"] == "unchanged" and snapshot(project) == now
    assert hookwright("uninstall", *PACKS, *where).code == 0
    assert snapshot(project) == before
