"""Run the real opencode CLI headless against FakeChatAPI and collect what happened.

opencode reads the provider from the project's opencode.json (a custom OpenAI-compatible
provider pointed at the fake), and its plugins from the project's `.opencode/plugins/` and
the user's `$XDG_CONFIG_HOME/opencode/plugins/`. Measured on 1.18.33 (claude-code-observed.md):

- PWD must be the project in opencode's environment, or it ignores the project's provider
  and tries the internet;
- in a config folder without `node_modules/`, it first runs `npm install @opencode-ai/plugin`
  (10 to 40 s against the registry). Our plugin imports nothing of that package, so the
  folders get what opencode checks for instead (`seed_config_folder`): the runs stay offline
  and take seconds.

The binary is found at import time (HOOKWRIGHT_OPENCODE, else scripts/setup-e2e.sh's install of the
release HOOKWRIGHT_OPENCODE_VERSION names, the pin of installer/hosts/versions.toml by default).
"""
from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from claude_cli import CliRun, hookwright, run_to_end
from fake_chat_api import FakeChatAPI
from fake_model_api import Turn
from hookwright.hosts import versions

PIN = versions.wanted("opencode@" + os.environ.get("HOOKWRIGHT_OPENCODE_VERSION", ""))
OPENCODE_VERSION = PIN.version
_INHERITED = ("PATH", "LANG", "LC_ALL")  # nothing else of the developer's reaches opencode


def _default_opencode() -> Path:
    if os.environ.get("HOOKWRIGHT_OPENCODE"):
        return Path(os.environ["HOOKWRIGHT_OPENCODE"])
    return PIN.executable(versions.e2e_root())


OPENCODE = _default_opencode()


@dataclass
class OpencodeRun(CliRun):
    """One opencode run; tool_results are {"tool_call_id", "content"}."""

    arrivals: list[float] = field(default_factory=list, repr=False)  # when each model turn was asked for

    def tool_parts(self) -> list[dict]:
        """opencode's own record of each tool call: tool, status, input, output or error."""
        return [dict(tool=e["part"].get("tool"), **(e["part"].get("state") or {}))
                for e in self.events if e.get("type") == "tool_use"]


def seed_config_folder(folder: Path) -> None:
    """What opencode checks before installing its plugin SDK into a config folder: a
    `node_modules/` and a lock file that lists the SDK."""
    (folder / "node_modules").mkdir(parents=True, exist_ok=True)
    lock = folder / "package-lock.json"
    if not lock.exists():
        lock.write_text(json.dumps({"packages": {"": {"dependencies": {"@opencode-ai/plugin": OPENCODE_VERSION}}}}))


def project_config(api_url: str, mcp: Mapping[str, list[str]] | None = None) -> dict:
    config = {
        "$schema": "https://opencode.ai/config.json",
        "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Fake",
                              "options": {"baseURL": api_url, "apiKey": "dummy"},
                              "models": {"fake-model": {"name": "Fake", "tool_call": True}}}},
        "model": "fake/fake-model", "small_model": "fake/fake-model",
        "permission": {"bash": "allow", "edit": "allow"}, "autoupdate": False, "share": "disabled",
    }
    if mcp:
        config["mcp"] = {name: {"type": "local", "command": list(command)} for name, command in mcp.items()}
    return config


def run_opencode(project: Path, home: Path, turns: Sequence[Turn], *, env: Mapping[str, str | None] | None = None,
                 mcp: Mapping[str, list[str]] | None = None, config: Mapping | None = None,
                 timeout: float = 180) -> OpencodeRun:
    """`opencode run` in the project with the model playing `turns`. `env`: variables to set
    (None: unset), such as XDG_CONFIG_HOME. The project's opencode.json is (re)written with
    the fake provider, `mcp`'s local servers, and `config`'s keys over them (a `permission`...)."""
    with FakeChatAPI(list(turns)) as api, tempfile.TemporaryDirectory(prefix="hw-oc-") as tmp:
        (project / "opencode.json").write_text(json.dumps({**project_config(api.url, mcp), **(config or {})}, indent=2)
                                               + "\n")
        child = {name: os.environ[name] for name in _INHERITED if name in os.environ}
        child.update({"HOME": str(home), "PWD": str(project), "TMPDIR": tmp,
                      "OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1",
                      "OPENCODE_DISABLE_SHARE": "1", "OPENCODE_DISABLE_LSP_DOWNLOAD": "1"})
        for name, value in (env or {}).items():
            if value is None:
                child.pop(name, None)
            else:
                child[name] = value
        config_home = Path(child.get("XDG_CONFIG_HOME") or home / ".config")
        for folder in (config_home / "opencode", project / ".opencode"):
            seed_config_folder(folder)
        code, events, err, timed_out = run_to_end(
            [str(OPENCODE), "run", "--format", "json", "--print-logs", "go"], project, child, timeout)
        return OpencodeRun(code, events, err, api.tool_results(), list(api.requests), timed_out, list(api.arrivals))


def write_plugins(folder: Path, files: dict[str, str]) -> None:
    """Each plugin file's code into the folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, code in files.items():
        (folder / name).write_text(code)


def flagged_lines(home: Path, project: Path, rules: set[str]) -> dict[str, list[tuple[str, int]]]:
    """Where doctor, run on the project, reports each of these rules: (file name, line), sorted."""
    doctor = hookwright("doctor", "--project", str(project), "--json", home=home, project=project,
                        env={"XDG_CONFIG_HOME": None})
    found: dict[str, list[tuple[str, int]]] = {rule: [] for rule in rules}
    for finding in json.loads(doctor.stdout)["findings"]:
        if finding["rule"] in rules:
            found[finding["rule"]].append((Path(finding["path"]).name, finding["line"]))
    return {rule: sorted(places) for rule, places in found.items()}


def marked_lines(files: dict[str, str], rules: dict[str, str]) -> dict[str, list[tuple[str, int]]]:
    """Where each rule should flag: the lines marked `// flagged` in its bad plugin, sorted."""
    expected: dict[str, list[tuple[str, int]]] = {rule: [] for rule in rules.values()}
    for name, rule in rules.items():
        expected[rule] += [(name, number) for number, line in enumerate(files[name].splitlines(), 1)
                           if "// flagged" in line]
    return {rule: sorted(places) for rule, places in expected.items()}
