"""Codex CLI, all in one folder: where its hooks.json files are and how hooks sit in them
(adapter.py), and the trust Codex needs before it runs a hook (trust.py).

Here, its places (hosts/base.py, "a host's places"): what the registry and doctor's discovery
read without loading the adapter, which reads them from here too."""
from __future__ import annotations

import os
from pathlib import Path

TITLE = "Codex CLI"
FOLDER = ".codex"  # a project's folder of its files
KIND = "codex-hooks"  # doctor's name for the kind of file
CONFIG_KIND = "codex-config"  # a config.toml, read for its [hooks] (and its switches)
KINDS = (KIND, CONFIG_KIND)
SHELL_TOOL = "Bash"  # the one name its hooks see a shell call by
# the fields of tool_input its hooks get from each of its tools (Host.tool_inputs, measured on 0.171.0)
TOOL_INPUTS = {SHELL_TOOL: frozenset({"command"}), "apply_patch": frozenset({"command"})}


def user_dir() -> Path:
    """$CODEX_HOME, else ~/.codex."""
    value = os.environ.get("CODEX_HOME", "")
    return Path(os.path.abspath(value)) if value else Path.home() / ".codex"
