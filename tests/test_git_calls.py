"""Every git call hookwright makes goes through installer/git.py, which switches off the programs a
repository's own config names (core.fsmonitor, hooks): a cloned repository runs nothing of its own
when hookwright looks at it."""
from __future__ import annotations

import ast
import subprocess

from hookwright import resources

PACKAGE = resources.data_root() / "installer"


def _git_argv(source: str) -> list[int]:
    """Lines of lists and tuples that start a `git` command line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.List, ast.Tuple)) and node.elts and isinstance(node.elts[0], ast.Constant) \
                and node.elts[0].value == "git":
            found.append(node.lineno)
    return found


def test_no_module_but_git_py_builds_a_git_command_line():
    found = {path.relative_to(PACKAGE).as_posix(): lines for path in PACKAGE.rglob("*.py")
             if (lines := _git_argv(path.read_text(encoding="utf-8")))}

    assert list(found) == ["git.py"], found
    assert _git_argv('subprocess.run(["git", "-C", folder, "status"])') == [1]  # (the check can fail)


def _booby_trapped(project, marker):
    """A repository whose config runs a program on every look at its index, and hooks on every write."""
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    trap = project / "trap.sh"
    trap.write_text(f"#!/bin/sh\necho ran >> '{marker}'\n")
    trap.chmod(0o755)
    hooks = project / "trap-hooks"
    hooks.mkdir()
    for name in ("post-index-change", "reference-transaction", "pre-commit"):
        (hooks / name).write_text(f"#!/bin/sh\necho hook >> '{marker}'\n")
        (hooks / name).chmod(0o755)
    subprocess.run(["git", "-C", str(project), "config", "core.fsmonitor", str(trap)], check=True)
    subprocess.run(["git", "-C", str(project), "config", "core.hooksPath", str(hooks)], check=True)


def test_a_local_install_looks_at_git_without_running_the_repositorys_fsmonitor_or_hooks(hookwright, home, project,
                                                                                        tmp_path):
    marker = tmp_path / "ran.txt"
    _booby_trapped(project, marker)
    subprocess.run(["git", "-C", str(project), "ls-files"], capture_output=True, check=True)
    assert marker.read_text() == "ran\n"  # (the trap works: plain git runs it)
    marker.unlink()

    planned = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--dry-run", "--json")
    done = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--yes")

    assert planned.code == 0 and done.code == 0, planned.err + done.err
    assert any("git does not ignore it" in note for note in planned.json["plans"][0]["notes"])  # (git still asked)
    assert not marker.exists()
