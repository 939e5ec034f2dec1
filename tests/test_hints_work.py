"""Every hint hookwright prints is a command that works as printed: across the scenarios where it
points somewhere (a pack in several places, in another place than the one named, a broken
install, a pack in two scopes, nothing to roll back here, an option kept, a receipt that cannot be
read...), each `hookwright ...` it prints (in backticks, after `hint:`, or on a line of its own)
is run as printed, in the folder the user was in, and must do its job: exit 0 (doctor: no usage
error), or, for a change without --yes, stop at the confirmation that a terminal would ask."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

BACKTICKED = re.compile(r"`(hookwright [^`]+)`")
ON_A_LINE = re.compile(r"^\s*(?:hint:\s*)?(hookwright \S.*?)(?:\s{2,}#.*)?$")
WRITES = ("install", "uninstall", "rollback")


def printed_commands(text: str) -> list[str]:
    found = BACKTICKED.findall(text)
    for line in text.splitlines():
        if "`" not in line and (match := ON_A_LINE.match(line)):
            found.append(match.group(1).rstrip())
    return list(dict.fromkeys(found))


def run_as_printed(hookwright, command: str):
    words = shlex.split(command)
    assert words[0] == "hookwright"
    ran = hookwright(*words[1:])
    assert ran.code != 2 and "internal error" not in ran.err, (command, ran.out, ran.err)
    if words[1] in WRITES and not {"--yes", "--dry-run", "--list"} & set(words):
        assert ran.code == 3 and "needs confirmation" in ran.err, (command, ran.out, ran.err)
        ran = hookwright(*words[1:], "--yes")  # what a person says yes to on a terminal
    assert ran.code in (0, 1), (command, ran.out, ran.err)
    return ran


def git_project(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


@pytest.fixture
def demo(tmp_path, home, monkeypatch) -> Path:
    project = git_project(tmp_path / "my demo")  # (a space: every path in a printed command is quoted)
    monkeypatch.chdir(project)
    return project


def _in_two_places(hookwright, demo):
    for host in ("claude", "opencode"):
        assert hookwright("install", "git-guard", "--host", host, "--scope", "project", "--yes").code == 0
    return hookwright("uninstall", "git-guard", "--yes")


def _elsewhere(hookwright, demo):
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    return hookwright("uninstall", "git-guard", "--scope", "user", "--yes")


def _runtime_missing(hookwright, demo):
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    (demo / ".claude" / "hookwright" / "git-guard" / "git_guard.py").unlink()
    return hookwright("status")


def _two_opencode_scopes(hookwright, demo):
    for scope in ("user", "project"):
        hookwright("install", "git-guard", "--host", "opencode", "--scope", scope, "--yes")
    return hookwright("doctor")


def _nothing_to_roll_back_here(hookwright, demo):
    other = git_project(demo.parent / "other project")
    hookwright("install", "git-guard", "--project", other, "--yes")
    return hookwright("rollback", "--yes")


def _option_kept(hookwright, demo):
    hookwright("install", "git-guard", "--scope", "project", "--option", "deny_push=true", "--yes")
    return hookwright("install", "git-guard", "--yes")


def _receipt_unreadable(hookwright, demo):
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    receipt = demo / ".claude" / "hookwright" / "git-guard" / "receipt.json"
    receipt.write_text("{not json")
    ran = hookwright("uninstall", "git-guard", "--yes")
    receipt.unlink()  # the hint says: remove it, then run
    return ran


def _upgradable(hookwright, demo):
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    receipt = demo / ".claude" / "hookwright" / "git-guard" / "receipt.json"
    receipt.write_text(json.dumps({**json.loads(receipt.read_text()), "version": "0.9.0"}))
    return hookwright("status")


def _a_folder_and_a_file(hookwright, demo):
    (demo / "a.json").write_text("{}")
    return hookwright("doctor", "sub folder" if (demo / "sub folder").mkdir() is None else "", "a.json")


def _no_such_operation(hookwright, demo):
    hookwright("install", "git-guard", "--scope", "project", "--yes")
    return hookwright("rollback", "--to", "20200101-000000.000000-abcd", "--yes")


SCENARIOS = [_in_two_places, _elsewhere, _runtime_missing, _two_opencode_scopes, _nothing_to_roll_back_here,
             _option_kept, _receipt_unreadable, _upgradable, _a_folder_and_a_file, _no_such_operation]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__.strip("_") for s in SCENARIOS])
def test_every_command_a_hint_prints_works_as_printed(hookwright, demo, scenario):
    ran = scenario(hookwright, demo)
    printed = printed_commands(ran.out + "\n" + ran.err)

    assert printed, f"no command printed:\n{ran.out}\n{ran.err}"
    for command in printed:
        run_as_printed(hookwright, command)


def test_the_command_of_each_place_acts_there_alone(hookwright, demo):
    ran = _in_two_places(hookwright, demo)
    claude, opencode = printed_commands(ran.err)

    run_as_printed(hookwright, opencode)

    assert not (demo / ".opencode").exists() and (demo / ".claude" / "settings.json").is_file()


def test_the_hint_for_a_pack_in_two_opencode_scopes_names_the_agent(hookwright, demo, home):
    ran = _two_opencode_scopes(hookwright, demo)
    [command] = [c for c in printed_commands(ran.out) if c.startswith("hookwright uninstall")]

    assert "--host opencode" in command
    run_as_printed(hookwright, command)
    assert hookwright("doctor", "--select", "conflict").code == 0
    assert [(r["host"], r["scope"]) for r in hookwright("status", "--json").json["installs"]] == [
        ("opencode", "user" if "--scope project" in command else "project")]
