"""The hook runtimes (stdlib only, their own XDG reading) and the installer (platformdirs) must
find the same folders: the state folder (journal, backups, the runtimes' error log) and the
config folder (ask-guard's preferences, git-guard's rules), whatever the environment says."""
import json
import subprocess
import sys

import pytest
from hookwright import resources

RUNTIME = resources.data_root() / "templates" / "runtime"
ENVIRONMENTS = {
    "nothing set": {},
    "absolute XDG folders": {"XDG_STATE_HOME": "{home}/state", "XDG_CONFIG_HOME": "{home}/conf"},
    "relative XDG folders, which the XDG spec says to ignore": {"XDG_STATE_HOME": "rel/state",
                                                                  "XDG_CONFIG_HOME": "rel/conf"},
    "empty XDG folders": {"XDG_STATE_HOME": "", "XDG_CONFIG_HOME": ""},
}


def _runtime_folders(env: dict) -> dict:
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import hookwright_runtime as hw; "
            "print(json.dumps({'state': hw.state_dir(), 'config': hw.config_dir()}))")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(RUNTIME)], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", list(ENVIRONMENTS))
def test_the_runtime_and_the_installer_find_the_same_state_and_config_folders(name, home, tmp_path, monkeypatch):
    from hookwright import state
    from hookwright.commands import prefs

    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    for variable in ("XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in ENVIRONMENTS[name].items():
        env[variable] = value.format(home=home)
        monkeypatch.setenv(variable, env[variable])
    monkeypatch.chdir(tmp_path)

    runtime = _runtime_folders(env)

    assert str(state.state_dir()) == runtime["state"]
    assert str(prefs.user_file().parent) == runtime["config"]
