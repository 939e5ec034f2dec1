"""The code is linted with the rule set written in pyproject.toml ([tool.ruff.lint]) and type-checked
strictly by mypy ([tool.mypy]): a finding fails the suite, so CI fails on it."""
import shutil
import subprocess
import sys
from pathlib import Path

from hookwright import resources

REPO = resources.data_root()


def test_ruff_finds_nothing_in_the_package_the_runtimes_the_tests_and_the_scripts():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is a test dependency (pyproject.toml [project.optional-dependencies] test)"
    done = subprocess.run([ruff, "check", "--no-cache", "installer", "templates", "tests", "scripts"], cwd=REPO,
                          capture_output=True, text=True)

    assert done.returncode == 0, done.stdout + done.stderr


def _mypy(*targets: str, cache: str) -> subprocess.CompletedProcess[str]:
    """mypy with the strict settings of pyproject.toml ([tool.mypy]); its cache in the repo's
    .mypy_cache (git ignores it), one folder per run so that two workers never share one."""
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(REPO / ".mypy_cache" / cache), *targets],
                          cwd=REPO, capture_output=True, text=True)


def test_mypy_finds_nothing_in_the_package():
    done = _mypy("installer", cache="package")

    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_the_runtimes_each_read_as_the_runtime_folder_holds_it():
    """The runtime and the pack modules are top-level modules side by side, as in an installed
    runtime folder (a pack module imports hookwright_runtime)."""
    modules = sorted(str(p.relative_to(REPO)) for folder in ("templates/runtime", "templates/packs")
                     for p in (REPO / folder).rglob("*.py"))
    done = _mypy(*modules, cache="runtimes")

    assert modules and done.returncode == 0, done.stdout + done.stderr
