import stat
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from hookwright import resources

pytestmark = pytest.mark.slow  # (builds wheels and a virtual environment)

REPO = resources.data_root()


def test_the_wheel_carries_the_templates_and_schemas_with_the_runtime_run_bit(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path), str(REPO)], check=True, cwd=tmp_path)
    [wheel] = tmp_path.glob("hookwright-*.whl")

    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        runtime = archive.getinfo("hookwright/_data/templates/runtime/hook_script.py")

    assert "hookwright/_data/templates/packs/git-guard/pack.toml" in names
    assert "hookwright/_data/templates/packs/git-guard/git_guard.py" in names
    assert "hookwright/_data/schemas/pack.schema.json" in names
    assert "hookwright/_data/schemas/claude-settings.schema.json" in names
    assert (runtime.external_attr >> 16) & stat.S_IXUSR
    assert not any(name.startswith(("tests/", "installer/")) for name in names)  # (imported as hookwright)
    assert "hookwright/cli.py" in names and not any("__pycache__" in name for name in names)
    # every module of the package, a subpackage's too (pyproject.toml names each package folder)
    modules = {"hookwright/" + path.relative_to(REPO / "installer").as_posix()
               for path in (REPO / "installer").rglob("*.py")}
    assert modules - names == set()


def test_hookwright_and_pypa_installer_live_in_one_venv_and_both_work_and_uninstall_cleanly(tmp_path):
    """The import name is hookwright, not the repo's folder name installer: PyPA's installer (the
    wheel installer poetry and pdm depend on) owns site-packages/installer/, and installed
    beside us it once replaced our __init__.py, so `hookwright --version` printed its version."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    here = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # our dependencies from the test environment (not from the network); its hookwright is an
    # editable finder, which a path added this way does not load
    (Path(here) / "_test_dependencies.pth").write_text(
        "\n".join(dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))) + "\n")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path), str(REPO)], check=True, cwd=tmp_path)
    [wheel] = tmp_path.glob("hookwright-*.whl")

    def pip(*args):
        subprocess.run([python, "-m", "pip", "--quiet", *args], check=True, cwd=tmp_path)

    pip("install", "--no-deps", str(wheel))
    pip("install", "installer==1.1.0")
    ours = subprocess.run([str(venv / "bin" / "hookwright"), "--version"], capture_output=True, text=True, check=True,
                          cwd=tmp_path)
    theirs = subprocess.run([python, "-c", "import installer, hookwright; print(installer.__version__, "
                             "hookwright.__file__)"], capture_output=True, text=True, check=True,
                            cwd=tmp_path)  # (not the checkout, whose folder installer/ python -c would find)

    assert ours.stdout.strip() == f"hookwright {resources_version()}"
    assert theirs.stdout.split()[0] == "1.1.0" and "/hookwright/__init__.py" in theirs.stdout
    pip("uninstall", "--yes", "installer")
    after = subprocess.run([str(venv / "bin" / "hookwright"), "--version"], capture_output=True, text=True,
                           cwd=tmp_path)
    assert after.returncode == 0 and after.stdout.strip() == ours.stdout.strip()


def resources_version() -> str:
    from hookwright import __version__

    return __version__
