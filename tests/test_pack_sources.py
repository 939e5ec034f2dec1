"""Install a pack from where it lives: a folder, or a git repository at a pinned revision; the
receipt records where from, status shows it, and update moves it with a plan.

The repositories are real ones made here with git, in temporary folders: never the network.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from support import read_json
from test_command_packs import make_pack, where

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=True,
                          env={**os.environ, **GIT_ENV})
    return done.stdout.strip()


def release(repo: Path, version: str, tag: bool = True) -> str:
    """Commit the pack in `repo` at `version` (and tag it v<version>); returns the commit."""
    manifest = repo / "pack.toml"
    manifest.write_text(re.sub(r'^version = "[^"]*"', f'version = "{version}"', manifest.read_text(), flags=re.MULTILINE))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", f"release {version}")
    if tag:
        git(repo, "tag", f"v{version}")
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path) -> Path:
    """A git repository whose root is a command pack, tagged v1.0.0 and v1.1.0, on branch main."""
    folder = make_pack(tmp_path / "src").rename(tmp_path / "src" / "guard-repo")  # (a folder of any name)
    git(folder, "init", "-q", "-b", "main")
    release(folder, "1.0.0")
    release(folder, "1.1.0")
    return folder


def test_a_git_work_tree_holding_a_pack_is_a_folder_too(hookwright, home, project, repo):
    assert hookwright("install", str(repo), *where(project, "claude"), "--yes").code == 0
    assert read_json(project / ".claude" / "hookwright" / "my-guard" / "receipt.json")["source"] == {
        "kind": "folder", "location": str(repo)}


def test_a_pack_folder_named_on_the_command_line_installs_and_its_receipt_says_where_from(
        hookwright, home, project, tmp_path, monkeypatch):
    pack = make_pack(tmp_path / "mine")
    monkeypatch.chdir(tmp_path)

    ran = hookwright("install", "./mine/my-guard", *where(project, "claude"), "--yes")

    assert ran.code == 0, ran.err
    receipt = read_json(project / ".claude" / "hookwright" / "my-guard" / "receipt.json")
    assert receipt["source"] == {"kind": "folder", "location": str(pack)}
    row = hookwright("status", "--project", project, "--json").json["installs"][0]
    assert row["source"] == {"kind": "folder", "location": str(pack)}
    assert str(pack) in hookwright("status", "--project", project).out


@pytest.mark.parametrize("rev", ["v1.0.0", "main", "commit"])
def test_a_repository_at_a_revision_installs_that_revisions_pack_with_its_commit_recorded(hookwright, home,
                                                                                         project, repo, rev):
    first = git(repo, "rev-parse", "v1.0.0")
    rev = first if rev == "commit" else rev
    want = "1.1.0" if rev == "main" else "1.0.0"

    ran = hookwright("install", f"{repo}@{rev}", *where(project, "claude"), "--yes")

    assert ran.code == 0, ran.err
    receipt = read_json(project / ".claude" / "hookwright" / "my-guard" / "receipt.json")
    commit = git(repo, "rev-parse", rev)
    assert receipt["version"] == want
    assert receipt["source"] == {"kind": "git", "location": str(repo), "rev": rev, "commit": commit}
    assert {f["name"] for f in receipt["files"]} == {"guard.py"} and all(len(f["sha256"]) == 64 for f in receipt["files"])
    assert (Path(home) / ".cache" / "hookwright" / "repos").is_dir()  # (the user's cache folder, not the project)
    status = hookwright("status", "--project", project)
    assert f"{repo}@{rev}" in status.out


def test_update_moves_a_repositorys_pack_to_its_newest_version_tag_with_a_plan(hookwright, home, project, repo):
    assert hookwright("install", f"{repo}@v1.0.0", *where(project, "claude"), "--yes").code == 0
    settings = (project / ".claude" / "settings.json").read_bytes()

    shown = hookwright("update", "--project", project, "--dry-run")

    assert shown.code == 0, shown.err
    assert "upgrade 1.0.0 → 1.1.0" in shown.out and f"{repo}@v1.0.0" in shown.out and f"{repo}@v1.1.0" in shown.out
    assert read_json(project / ".claude" / "hookwright" / "my-guard" / "receipt.json")["version"] == "1.0.0"
    done = hookwright("update", "--project", project, "--yes", "--json")
    assert done.code == 0, done.err
    assert done.json["command"] == "update" and done.json["plans"][0]["packs"][0]["action"] == "upgrade"
    receipt = read_json(project / ".claude" / "hookwright" / "my-guard" / "receipt.json")
    assert (receipt["version"], receipt["source"]["rev"]) == ("1.1.0", "v1.1.0")
    assert (project / ".claude" / "settings.json").read_bytes() == settings  # (the same command: only the files moved)
    assert hookwright("update", "--project", project, "--yes").code == 0  # nothing newer: unchanged
    back = hookwright("update", "my-guard", "--rev", "v1.0.0", "--project", project, "--yes")
    assert back.code == 0 and read_json(project / ".claude" / "hookwright" / "my-guard" / "receipt.json")[
        "version"] == "1.0.0"
    undone = hookwright("rollback", "--project", project, "--yes")  # (an update's journal line is one rollback takes)
    assert undone.code == 0, undone.err
    assert read_json(project / ".claude" / "hookwright" / "my-guard" / "receipt.json")["version"] == "1.1.0"


def test_update_follows_a_branch_to_its_new_tip(hookwright, home, project, repo):
    assert hookwright("install", f"{repo}@main", *where(project, "cursor"), "--yes").code == 0
    commit = release(repo, "1.2.0", tag=False)

    assert hookwright("update", "--project", project, "--yes").code == 0

    receipt = read_json(project / ".cursor" / "hookwright" / "my-guard" / "receipt.json")
    assert (receipt["version"], receipt["source"]["commit"]) == ("1.2.0", commit)


def test_a_bundled_pack_updates_to_the_bundled_version_through_the_same_plan(hookwright, home, project):
    assert hookwright("install", "git-guard", *where(project, "claude"), "--yes").code == 0
    receipt = project / ".claude" / "hookwright" / "git-guard" / "receipt.json"
    old = read_json(receipt)
    receipt.write_text(json.dumps(dict(old, version="0.9.0")))

    ran = hookwright("update", "git-guard", "--project", project, "--yes", "--json")

    assert ran.code == 0, ran.err
    assert ran.json["plans"][0]["packs"][0]["action"] == "upgrade"
    assert read_json(receipt)["version"] == old["version"]


def test_a_pack_from_elsewhere_named_again_is_reinstalled_from_its_recorded_commit(hookwright, home, project, repo):
    assert hookwright("install", f"{repo}@v1.0.0", *where(project, "claude"), "--yes").code == 0
    (project / ".claude" / "hookwright" / "my-guard" / "guard.py").unlink()

    ran = hookwright("install", "my-guard", "--project", project, "--yes")

    assert ran.code == 0, ran.err
    assert (project / ".claude" / "hookwright" / "my-guard" / "guard.py").read_bytes() == \
        subprocess.run(["git", "-C", str(repo), "show", "v1.0.0:guard.py"], capture_output=True, check=True).stdout


def test_a_pack_in_a_folder_of_a_repository_is_named_after_a_hash_sign(hookwright, home, project, tmp_path):
    repo = tmp_path / "hooks"
    make_pack(repo / "packs")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")

    assert hookwright("install", f"{repo}@main#packs/my-guard", *where(project, "claude"), "--yes").code == 0
    escaped = hookwright("install", f"{repo}@main#../x", *where(project, "claude"), "--yes")
    assert escaped.code == 2 and "a path inside it" in escaped.err


BAD_SOURCES = [  # (id, what is named, the words of the error)
    ("a repository without a revision", "file://{repo}", "without a revision"),
    ("a URL without a revision", "https://example.invalid/hooks.git", "without a revision"),
    ("a revision the repository does not have", "{repo}@v9.9.9", "has no revision 'v9.9.9'"),
    ("a folder without a pack", "{tmp}", "holds no pack.toml"),
]


@pytest.mark.parametrize("row", BAD_SOURCES, ids=[row[0] for row in BAD_SOURCES])
def test_a_source_that_names_no_pack_is_refused_with_what_to_do(hookwright, home, project, repo, tmp_path, row):
    _, named, words = row

    ran = hookwright("install", named.format(repo=repo, tmp=tmp_path / "src"), *where(project, "claude"), "--yes")

    assert ran.code == 2 and words in ran.err, ran.err
    assert list(project.iterdir()) == []


def test_a_repositorys_pack_named_like_a_bundled_one_is_refused(hookwright, home, project, tmp_path):
    repo = make_pack(tmp_path / "src", name="git-guard")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")

    ran = hookwright("install", f"{repo}@main", *where(project, "claude"), "--yes")

    assert ran.code == 2 and "like a pack hookwright installs by that name" in ran.err, ran.err


def test_fetching_a_repository_runs_none_of_its_programs(hookwright, home, project, repo, tmp_path):
    """The repository's own config may name programs git would run (a monitor, hooks): none runs."""
    marker = tmp_path / "ran"
    git(repo, "config", "core.fsmonitor", f"touch {marker}; false")
    hooks = repo / ".git" / "hooks"
    for name in ("post-checkout", "reference-transaction", "pre-auto-gc"):
        (hooks / name).write_text(f"#!/bin/sh\ntouch {marker}\n")
        (hooks / name).chmod(0o755)

    assert hookwright("install", f"{repo}@v1.0.0", *where(project, "claude"), "--yes").code == 0
    assert hookwright("update", "--project", project, "--yes").code == 0

    assert not marker.exists()


def test_a_link_in_a_repository_never_reaches_outside_its_tree(hookwright, home, project, tmp_path):
    repo = make_pack(tmp_path / "src")
    (tmp_path / "secret.py").write_text("print('outside')\n")
    (repo / "guard.py").unlink()
    (repo / "guard.py").symlink_to(tmp_path / "secret.py")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "one")

    ran = hookwright("install", f"{repo}@main", *where(project, "claude"), "--yes")

    assert ran.code == 2 and "guard.py" in ran.err, ran.err
    assert list(project.iterdir()) == []
