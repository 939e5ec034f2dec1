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
            "print(json.dumps({'state': hw.state_dir(), 'config': hw.config_dir(), 'decisions': hw.decisions_path()}))")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code, str(RUNTIME)], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", list(ENVIRONMENTS))
def test_the_runtime_and_the_installer_find_the_same_state_and_config_folders(name, home, tmp_path, monkeypatch):
    from hookwright import layout

    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    for variable in ("XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(variable, raising=False)
    for variable, value in ENVIRONMENTS[name].items():
        env[variable] = value.format(home=home)
        monkeypatch.setenv(variable, env[variable])
    monkeypatch.chdir(tmp_path)

    runtime = _runtime_folders(env)

    assert str(layout.state_dir()) == runtime["state"]
    assert str(layout.config_dir()) == runtime["config"]
    assert str(layout.decision_log()) == runtime["decisions"]


def test_the_decision_log_is_beside_the_error_log_wherever_hookwright_log_puts_it(home, tmp_path, monkeypatch):
    from hookwright import layout

    monkeypatch.setenv("HOOKWRIGHT_LOG", str(tmp_path / "logs" / "hooks.log"))
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "HOOKWRIGHT_LOG": str(tmp_path / "logs" / "hooks.log")}
    assert str(layout.decision_log()) == _runtime_folders(env)["decisions"] == str(tmp_path / "logs" / "decisions.jsonl")


def test_ask_guards_runtime_reads_its_preferences_from_the_files_prefs_writes():
    """The file names, beside the folders above: the runtime's constants are layout's."""
    import ast

    from hookwright import layout

    source = (resources.packs_dir() / "ask-guard" / "ask_guard_common.py").read_text(encoding="utf-8")
    names = {node.targets[0].id: node.value for node in ast.parse(source).body
             if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)}
    assert ast.literal_eval(names["USER_PREFS"]) == layout.USER_PREFS
    joined = names["PROJECT_PREFS"]  # os.path.join(".claude", "hookwright-prefs.json")
    assert [ast.literal_eval(arg) for arg in joined.args] == list(layout.PROJECT_PREFS.parts)
