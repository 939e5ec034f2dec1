"""A pack manifest with bad fields is refused with its file, the field and exit 2."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GOOD = '''name = "mine"
version = "1.0.0"
description = "My pack."

[[hooks]]
id = "mine"
script = "mine"
description = "Observes Bash."
rewrites_input = false
blocks = false

[hooks.claude]
event = "PreToolUse"
matcher = "Bash"
timeout = 5
'''

BAD = {
    "invalid TOML": (GOOD.replace('version = "1.0.0"', "version = 1.0.0.0"), "invalid TOML"),
    "version of the wrong type": (GOOD.replace('version = "1.0.0"', "version = 1"), "version"),
    "version not semver": (GOOD.replace('"1.0.0"', '"one"'), "version"),
    "no hooks": (GOOD.split("[[hooks]]")[0], "hooks"),
    "an unknown top-level key": (GOOD.replace('description = "My pack."', 'description = "My pack."\nfoo = 1'),
                                 "foo"),
    "a timeout of zero": (GOOD.replace("timeout = 5", "timeout = 0"), "timeout"),
    "a timeout in milliseconds": (GOOD.replace("timeout = 5", "timeout = 5000"), "timeout"),
    "rewrites_input not a boolean": (GOOD.replace("rewrites_input = false", 'rewrites_input = "no"'),
                                     "rewrites_input"),
    "a hook whose module is not in the pack": (GOOD.replace('script = "mine"', 'script = "missing"'), "missing.py"),
    "a name that differs from its folder": (GOOD.replace('name = "mine"', 'name = "other"'), "folder"),
    "a matcher option the pack does not declare": (GOOD.replace('matcher = "Bash"', 'matcher_option = "tools"'),
                                                   "tools"),
    "a hostile script name": (GOOD.replace('script = "mine"', 'script = "../../etc/passwd"'), "script"),
    "a script named like a stdlib module": (GOOD.replace('script = "mine"', 'script = "json"'), "module of Python's own"),
}
MODULE = """import hookwright_runtime as hw

NAME, OPTIONS = "mine", {}


def handle(call):
    return hw.deny("mine says no")
"""


def write_pack(packs: Path, manifest: str) -> Path:
    """A pack of one's own: its pack.toml and the module of its one hook."""
    pack = packs / "mine"
    pack.mkdir(parents=True)
    (pack / "pack.toml").write_text(manifest)
    (pack / "mine.py").write_text(MODULE)
    return pack


@pytest.mark.parametrize("case", BAD, ids=str)
def test_a_pack_manifest_with_bad_fields_is_refused_naming_the_file_and_field(hookwright, home, project, tmp_path,
                                                                             monkeypatch, case):
    text, phrase = BAD[case]
    pack = write_pack(tmp_path / "packs", text)
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "mine", "--scope", "project", "--project", project, "--yes")

    assert ran.code == 2, ran.err
    assert str(pack / "pack.toml") in ran.err and phrase in ran.err
    assert not (project / ".claude").exists()


def test_a_good_manifest_in_hookwright_packs_path_installs_and_its_hook_runs_through_the_shared_script(
        hookwright, home, project, tmp_path, monkeypatch):
    write_pack(tmp_path / "packs", GOOD)
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "mine", "--scope", "project", "--project", project, "--yes")

    assert ran.code == 0, ran.err
    folder = project / ".claude" / "hookwright" / "mine"
    assert sorted(p.name for p in folder.iterdir()) == ["hookwright_runtime.py", "mine", "mine.py", "receipt.json"]
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},
               "cwd": str(project), "session_id": "s"}
    proc = subprocess.run([sys.executable, "-I", "-S", str(folder / "mine"), "--host", "claude"],
                          input=json.dumps(payload).encode(), capture_output=True, timeout=30,
                          env={"PATH": os.environ["PATH"], "HOME": str(home), "XDG_CACHE_HOME": str(tmp_path / "cache"),
                               "HOOKWRIGHT_LOG": str(tmp_path / "log")})
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert json.loads(proc.stdout)["hookSpecificOutput"]["permissionDecisionReason"] == "mine says no"


def test_a_pack_of_ones_own_named_like_a_bundled_one_is_refused_naming_both_folders(hookwright, home, project,
                                                                                      tmp_path, monkeypatch):
    mine = write_pack(tmp_path / "packs", GOOD.replace('name = "mine"', 'name = "git-guard"')).rename(
        tmp_path / "packs" / "git-guard")
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")

    assert ran.code == 2 and "two packs are named 'git-guard'" in ran.err and str(mine) in ran.err, ran.err
    assert not (project / ".claude").exists()


def test_the_bundled_folder_named_again_in_hookwright_packs_path_is_one_folder(hookwright, home, project, monkeypatch):
    from hookwright import resources

    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", f"{resources.packs_dir()}/../packs{os.pathsep}{resources.packs_dir()}")

    assert hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes").code == 0


def test_a_pack_that_rewrites_input_on_an_event_that_cannot_is_refused_for_that_agent(hookwright, home, project,
                                                                                       tmp_path, monkeypatch):
    write_pack(tmp_path / "packs", GOOD.replace("rewrites_input = false", "rewrites_input = true") +
               '\n[hooks.cursor]\nevent = "beforeShellExecution"\ntimeout = 5\n')
    monkeypatch.setenv("HOOKWRIGHT_PACKS_PATH", str(tmp_path / "packs"))

    ran = hookwright("install", "mine", "--host", "cursor", "--scope", "project", "--project", project, "--yes")

    assert ran.code == 3 and "reads only on preToolUse, not on beforeShellExecution" in ran.err, ran.err
    assert not (project / ".cursor").exists()
    assert hookwright("install", "mine", "--scope", "project", "--project", project, "--yes").code == 0  # Claude Code


@pytest.mark.parametrize("host", ["cursor", "opencode"])
def test_an_option_that_only_chooses_another_agents_matcher_is_refused(hookwright, home, project, host):
    where = ("--host", host, "--scope", "project", "--project", project, "--yes")
    ran = hookwright("install", "path-normalizer", *where, "--option", "tools=mcp__docs__.*")

    assert ran.code == 2 and "--option tools chooses path-normalizer's matcher in other agents" in ran.err, ran.err
    assert list(project.iterdir()) == []
    assert hookwright("install", "path-normalizer", *where, "--option", "args=path").code == 0  # one it honours
