"""A team's list: the packs a project commits in .hookwright.toml, which `hookwright install`
with no pack named installs for the agents found on the machine, and doctor compares with what
is installed.

The agents found are the ones whose user folder exists in the test's home (~/.claude, ~/.cursor):
PATH holds python3 and the system's programs only, so that no agent CLI of this machine counts.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_command_packs import FIXTURE

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]


def git(folder: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=folder, check=True, capture_output=True)


@pytest.fixture(autouse=True)
def _no_agent_on_path(monkeypatch, _python3_folder):
    monkeypatch.setenv("PATH", os.pathsep.join([_python3_folder, "/usr/bin", "/bin"]))


@pytest.fixture
def guard_repository(tmp_path) -> str:
    """A repository holding a command pack in its folder `guard`, tagged v1.0.0, as a file:// URL."""
    repository = tmp_path / "hooks-repo"
    (repository / "guard").mkdir(parents=True)
    shutil.copy(FIXTURE / ".claude" / "hooks" / "guard.py", repository / "guard" / "guard.py")
    (repository / "guard" / "pack.toml").write_text(
        'name = "guard"\nversion = "1.0.0"\ndescription = "A guard of our own."\n\n[[hooks]]\nid = "guard"\n'
        'command = "python3 ${PACK_DIR}/guard.py"\ndescription = "rm -rf blocked."\nrewrites_input = true\n'
        'blocks = true\n\n[hooks.claude]\nevent = "PreToolUse"\nmatcher = "Bash"\ntimeout = 10\n')
    git(repository, "init", "-q")
    git(repository, "add", ".")
    git(repository, "commit", "-q", "-m", "guard")
    git(repository, "tag", "v1.0.0")
    return f"file://{repository}"


LIST = '''[[packs]]
pack = "git-guard"
options = {{ deny_unparsed = true }}

[[packs]]
pack = "{url}"
rev = "v1.0.0"
folder = "guard"
'''


def team_project(folder: Path, url: str, text: str = LIST) -> Path:
    """A committed project whose .hookwright.toml lists git-guard and the repository's guard."""
    folder.mkdir(parents=True)
    (folder / ".hookwright.toml").write_text(text.format(url=url))
    (folder / "README.md").write_text("ours\n")
    git(folder, "init", "-q")
    git(folder, "add", ".")
    git(folder, "commit", "-q", "-m", "the team's hooks")
    return folder


def fresh_home(monkeypatch, where: Path, *agents: str) -> Path:
    """A home of its own, where these agents' user folders exist (the agents found here)."""
    for agent in agents:
        (where / agent).mkdir(parents=True)
    for name, value in (("HOME", where), ("XDG_STATE_HOME", where / ".local" / "state"),
                        ("XDG_CONFIG_HOME", where / ".config"), ("XDG_CACHE_HOME", where / ".cache")):
        monkeypatch.setenv(name, str(value))
    return where


def project_files(project: Path) -> dict[str, bytes]:
    return {str(p.relative_to(project)): p.read_bytes() for p in sorted(project.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(project).parts}


def test_two_fresh_homes_and_one_committed_list_give_the_same_files(hookwright, tmp_path, monkeypatch,
                                                                    guard_repository):
    origin = team_project(tmp_path / "origin", guard_repository)
    made = {}
    for clone in ("alice", "bob"):
        project = tmp_path / clone / "project"
        project.parent.mkdir()
        git(project.parent, "clone", "-q", str(origin), str(project))
        fresh_home(monkeypatch, tmp_path / clone / "home", ".claude", ".cursor")
        monkeypatch.chdir(project)

        ran = hookwright("install", "--yes")

        assert ran.code == 0, ran.out + ran.err
        made[clone] = project_files(project)
    assert made["alice"] == made["bob"]
    assert {".claude/settings.json", ".cursor/hooks.json", ".claude/hookwright/guard/guard.py",
            ".cursor/hookwright/git-guard/receipt.json"} <= set(made["alice"])
    assert not any(name.startswith(".opencode") for name in made["alice"])  # (opencode is not on this machine)
    receipt = json.loads(made["alice"][".claude/hookwright/git-guard/receipt.json"])
    assert receipt["options"]["deny_unparsed"] is True


def test_install_with_no_pack_named_plans_the_list_where_each_agent_runs_it_and_says_what_it_leaves_out(
        hookwright, tmp_path, monkeypatch, guard_repository):
    project = team_project(tmp_path / "project", guard_repository,
                           LIST + '\n[[packs]]\npack = "ask-guard"\n\n[[packs]]\npack = "path-normalizer"\n'
                                  'hosts = ["cursor"]\n')
    fresh_home(monkeypatch, tmp_path / "home", ".claude", ".cursor")
    monkeypatch.chdir(project)

    doc = json.loads(hookwright("install", "--dry-run", "--json").out)

    planned = {(plan["target"]["host"], pack["pack"]) for plan in doc["plans"] for pack in plan["packs"]}
    assert planned == {("claude", "git-guard"), ("claude", "guard"), ("claude", "ask-guard"),
                       ("cursor", "git-guard"), ("cursor", "guard"), ("cursor", "path-normalizer")}
    assert all(plan["target"]["scope"] == "project" for plan in doc["plans"])
    assert [note for note in doc["notes"] if note.startswith("ask-guard is not installed into Cursor: ")]

    only = json.loads(hookwright("install", "--host", "cursor", "--dry-run", "--json").out)
    assert {plan["target"]["host"] for plan in only["plans"]} == {"cursor"}


def test_doctor_says_where_the_installs_differ_from_the_list(hookwright, tmp_path, monkeypatch, guard_repository):
    project = team_project(tmp_path / "project", guard_repository)
    fresh_home(monkeypatch, tmp_path / "home", ".claude")
    monkeypatch.chdir(project)
    assert hookwright("install", "--yes").code == 0

    def differs() -> list[str]:
        doc = json.loads(hookwright("doctor", "--format", "json", "--select", "install/list").out)
        return sorted(f["message"] for f in doc["findings"])

    assert differs() == []
    (project / ".hookwright.toml").write_text(
        LIST.format(url=guard_repository).replace("deny_unparsed = true", "deny_unparsed = false")
        .replace("v1.0.0", "v1.1.0") + '\n[[packs]]\npack = "ask-guard"\n')
    assert hookwright("install", "path-normalizer", "--host", "claude", "--scope", "project", "--yes").code == 0

    config = ".hookwright.toml"
    assert differs() == sorted([
        f"the project's pack list ({config}) names ask-guard for Claude Code, and it is not installed in Claude "
        "Code's project scope",
        f"the project's pack list ({config}) names {guard_repository}@v1.1.0#guard for Claude Code, and "
        f"{guard_repository}@v1.0.0#guard ({commit(project)[:12]}) is installed there",
        f"the project's pack list ({config}) sets git-guard's option deny_unparsed to false for Claude Code, and it "
        "is true there",
        f"path-normalizer is installed in Claude Code's project scope, and the project's pack list ({config}) does "
        "not name it"])


def commit(project: Path) -> str:
    return json.loads((project / ".claude" / "hookwright" / "guard" / "receipt.json").read_text())["source"]["commit"]


def test_a_list_the_schema_refuses_is_an_error_at_its_place_and_a_doctor_finding(hookwright, tmp_path, monkeypatch):
    project = tmp_path / "project"
    project.mkdir()
    (project / ".hookwright.toml").write_text('[[packs]]\npack = "git-guard"\nversion = "1"\n')
    before = (project / ".hookwright.toml").read_bytes()
    fresh_home(monkeypatch, tmp_path / "home", ".claude")
    monkeypatch.chdir(project)

    ran = hookwright("install", "--yes")
    doc = json.loads(hookwright("doctor", "--format", "json", "--select", "install/list").out)

    assert ran.code == 2 and "invalid pack list at packs.0" in ran.err and ".hookwright.toml" in ran.err
    assert [f["rule"] for f in doc["findings"]] == ["install/list-invalid"]
    assert (project / ".hookwright.toml").read_bytes() == before and not (project / ".claude").exists()
