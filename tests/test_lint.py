"""The code is linted with the rule set written in pyproject.toml ([tool.ruff.lint]): a finding
fails the suite, so CI fails on it."""
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
