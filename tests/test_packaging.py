import stat
import subprocess
import sys
import zipfile

from installer import resources

REPO = resources.data_root()


def test_the_wheel_carries_the_templates_and_schemas_with_the_runtime_run_bit(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path), str(REPO)], check=True, cwd=tmp_path)
    [wheel] = tmp_path.glob("hookwright-*.whl")

    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        runtime = archive.getinfo("installer/_data/templates/packs/git-guard/git-guard")

    assert "installer/_data/templates/packs/git-guard/pack.toml" in names
    assert "installer/_data/schemas/pack.schema.json" in names
    assert "installer/_data/schemas/claude-settings.schema.json" in names
    assert (runtime.external_attr >> 16) & stat.S_IXUSR
    assert not any(name.startswith("tests/") for name in names)
