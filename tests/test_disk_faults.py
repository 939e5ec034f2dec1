"""Real write failures in the middle of a write: a full disk, a read-only file system, a
folder we may not write. Each leaves the settings file byte-identical and no temp file,
and the failed install takes its half-written runtimes back out.

The file systems are real tmpfs mounts (the tests run as root, as CI does); permission
denied is real too: the CLI runs as root without the capability to override file permissions.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hookwright import resources
from support import write_json

DROP_ROOT_OVERRIDE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


@pytest.fixture
def tmpfs(tmp_path):
    mount = tmp_path / "fs"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k,mode=0777", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


# each host whose config file is JSON, and that file in a project: (path, a document of the host's
# shape with room in it; Codex takes no root key but description and hooks)
CONFIGS = {"claude": (".claude/settings.json", {"hooks": {}, "padding": "x" * 2000}),
           "codex": (".codex/hooks.json", {"description": "x" * 2000, "hooks": {}})}


def run_install(project: Path, state: Path, prefix=(), host: str = "claude") -> subprocess.CompletedProcess:
    env = {"PATH": os.environ["PATH"], "HOME": str(state), "XDG_STATE_HOME": str(state / "state"),
           "PYTHONPATH": str(resources.data_root())}
    return subprocess.run([*prefix, sys.executable, "-m", "hookwright", "install", "git-guard", "--host", host,
                           "--scope", "project", "--project", str(project), "--yes"], env=env, capture_output=True,
                          text=True, timeout=60, cwd="/")


def leftovers(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if ".hookwright-tmp-" in p.name
                  or "hookwright" in p.parts)


@pytest.mark.parametrize("host", CONFIGS)
def test_a_full_disk_during_the_write_leaves_the_original_and_no_temp_file(tmpfs, tmp_path, host):
    project = tmpfs / "project"
    name, document = CONFIGS[host]
    settings = project / name
    original = write_json(settings, document)
    fd = os.open(tmpfs / "filler", os.O_WRONLY | os.O_CREAT)
    try:  # fill the disk to the last byte
        while True:
            os.write(fd, b"\0" * 512)
    except OSError:
        pass
    finally:
        os.close(fd)

    done = run_install(project, tmp_path / "elsewhere", host=host)

    assert done.returncode == 4, done.stderr
    assert "no space left" in done.stderr and str(project) in done.stderr
    assert settings.read_bytes() == original
    assert leftovers(project) == []


@pytest.mark.parametrize("host", CONFIGS)
def test_a_read_only_file_system_leaves_the_original_and_no_temp_file(tmpfs, tmp_path, host):
    project = tmpfs / "project"
    name, document = CONFIGS[host]
    settings = project / name
    original = write_json(settings, document)
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)

    done = run_install(project, tmp_path / "elsewhere", host=host)

    assert done.returncode == 2, done.stderr
    assert "read-only" in done.stderr
    assert settings.read_bytes() == original
    assert leftovers(project) == []


def test_permission_denied_on_the_runtime_folder_leaves_the_original(tmp_path):
    project = tmp_path / "project"
    settings = project / ".claude" / "settings.json"
    original = write_json(settings, {"hooks": {}})
    runtimes = project / ".claude" / "hookwright"
    runtimes.mkdir()
    runtimes.chmod(0o555)  # no one may create files in it, root included once it drops dac_override

    done = run_install(project, tmp_path / "elsewhere", prefix=DROP_ROOT_OVERRIDE)

    assert done.returncode == 2, done.stderr
    assert "permission denied" in done.stderr
    assert settings.read_bytes() == original
    assert not runtimes.exists() or os.listdir(runtimes) == []  # an empty runtime folder is tidied away
    assert [p for p in (project / ".claude").iterdir() if ".hookwright-tmp-" in p.name] == []
