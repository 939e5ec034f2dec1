"""A host's places (its folder's __init__.py: TITLE, FOLDER, KINDS, user_dir(), TOOL_INPUTS,
HOOK_VARIABLES) say what
its adapter says, and doctor on a Claude Code settings file loads no other host's adapter: the
registry, discovery and the rules that ask every host read the places instead (issue 37)."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hookwright import hosts
from hookwright.hosts.base import Host, Scope

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", hosts.NAMES)
def test_the_places_are_the_adapters_own(name, home, monkeypatch, tmp_path):
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-home"))
    places = importlib.import_module(f"hookwright.hosts.{name}")
    host = hosts.get(name)
    probe = Path("/project")

    assert host.target(Scope.user, None).config.is_relative_to(places.user_dir())
    assert host.user_folder() == places.user_dir()
    assert host._target(Scope.project, probe, "x").config.relative_to(probe).parts[0] == places.FOLDER
    assert host.file_kinds == places.KINDS
    assert (host.title, host.tool_inputs) == (places.TITLE, places.TOOL_INPUTS) == (hosts.title(name), places.TOOL_INPUTS)
    assert all(hosts.of_kind(kind) is host for kind in places.KINDS)
    assert (name in hosts.VARIABLE_HOSTS) == hasattr(places, "HOOK_VARIABLES")
    if name in hosts.VARIABLE_HOSTS:
        assert host.hook_variables == places.HOOK_VARIABLES


def test_the_sender_of_a_field_is_the_first_other_host_whose_tools_send_it():
    claude = hosts.get("claude")

    assert hosts.sender("path", claude) == "opencode"  # (its glob and grep: Claude Code's Glob sends it too, not asked)
    assert hosts.sender("filePath", claude) == "opencode"
    assert hosts.sender("file_path", hosts.get("codex")) == "claude"
    assert hosts.sender("no_such_field", claude) is None


def test_the_part_time_hosts_are_those_whose_adapter_says_which_hooks_run_part_time():
    overriding = [name for name in hosts.NAMES if type(hosts.get(name)).part_time_hooks is not Host.part_time_hooks]

    assert list(hosts.PART_TIME_HOSTS) == overriding


def test_doctor_on_a_claude_code_file_loads_no_other_hosts_adapter(tmp_path):
    """The places are read without the adapters: a host with no file in the run is not loaded
    (doctor on one typical settings file: the Codex, opencode and Cursor adapters' modules). A
    question only another host answers still loads it (a field this host's tools never send, that
    another's do: script/tool-field-not-sent asks them)."""
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": "npx prettier --write \"$(jq -r .tool_input.file_path)\""}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo done >> /tmp/claude-stop.log"}]}]}}))
    code = ("import os, runpy, sys\n"
            "def leave(code, _exit=os._exit):  # (the CLI leaves by os._exit: say the modules first)\n"
            "    print(sorted(m for m in sys.modules if m.startswith('installer.hosts.') and m.count('.') > 2), "
            "file=sys.stderr, flush=True)\n"
            "    _exit(code)\n"
            "os._exit = leave\n"
            "sys.argv = ['hookwright', 'doctor', sys.argv[1]]\n"
            "runpy.run_module('installer', run_name='__main__')\n")
    ran = subprocess.run([sys.executable, "-c", code, str(settings)], cwd=project, capture_output=True, text=True,
                         env={"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)})
    loaded = eval(ran.stderr.strip().splitlines()[-1])

    assert "in 1 file" in ran.stdout
    assert [m for m in loaded if not m.startswith("installer.hosts.claude.")] == [
        "installer.hosts.cursor.protocol"]  # (hooks.events reads Cursor's event names there)


def test_of_is_a_hosts_adapter_by_name_and_none_for_another_agent():
    assert hosts.of("cursor") is hosts.get("cursor")
    assert hosts.of("gemini") is None and hosts.of("unknown") is None
    assert "gemini" not in hosts._LOADED
