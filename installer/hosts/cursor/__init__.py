"""Cursor, all in one folder: where its hooks.json files are and how hooks sit in them
(adapter.py), and what each event makes of a hook's answer (protocol.py).

Here, its places (hosts/base.py, "a host's places"): what the registry and doctor's discovery
read without loading the adapter, which reads them from here too."""
from __future__ import annotations

from pathlib import Path

TITLE = "Cursor"
FOLDER = ".cursor"  # a project's folder of its files
KIND = "cursor-hooks"  # doctor's name for the kind of file
KINDS = (KIND,)
TOOL_INPUTS: dict[str, frozenset[str]] = {}  # (the fields its tools send: not known, Host.tool_inputs)
# every hook's, with Claude Code's name for the project folder, and a plugin's folder under both
# names (docs/hosts/cursor.md#stdin-payload): Host.hook_variables
HOOK_VARIABLES = frozenset({"CURSOR_PROJECT_DIR", "CURSOR_VERSION", "CURSOR_USER_EMAIL", "CURSOR_TRANSCRIPT_PATH",
                            "CURSOR_CODE_REMOTE", "CLAUDE_PROJECT_DIR", "CURSOR_PLUGIN_ROOT", "CLAUDE_PLUGIN_ROOT"})


def user_dir() -> Path:
    return Path.home() / FOLDER
