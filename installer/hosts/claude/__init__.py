"""Claude Code, all in one folder: where its settings files are and how hooks sit in them
(adapter.py), and what each event makes of a hook's answer (protocol.py).

Here, its places (hosts/base.py, "a host's places"): what the registry and doctor's discovery
read without loading the adapter, which reads them from here too."""
from __future__ import annotations

import functools
import os
from pathlib import Path

TITLE = "Claude Code"
FOLDER = ".claude"  # a project's folder of its files
SETTINGS_KIND = "claude-settings"  # doctor's names of the kinds of its files
PLUGIN_HOOKS_KIND = "claude-plugin-hooks"
KINDS = (SETTINGS_KIND, PLUGIN_HOOKS_KIND)
# set for every command hook (plugin hooks add CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA)
HOOK_ENVIRONMENT = frozenset({"CLAUDE_PROJECT_DIR", "CLAUDE_CODE_SESSION_ID", "CLAUDE_EFFORT", "CLAUDECODE",
                              "CLAUDE_CODE_CHILD_SESSION", "CLAUDE_PID"})
# every command hook's, and a plugin's hooks' folders (docs/hosts/claude-code.md#environment): Host.hook_variables
HOOK_VARIABLES = HOOK_ENVIRONMENT | {"CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CLAUDE_ENV_FILE"}
# the fields of tool_input its own tools send, as their input schemas in the 2.1.332 binary name
# them (docs/hosts/claude-code.md#stdin-payload; measured: a Write guard reading `filePath` read
# nothing); Grep's as sdk-tools.d.ts of 2.1.332 types it (the same names as the schema the model
# is given); MCP tools: not listed, not known
TOOL_INPUTS = {
    "Bash": frozenset({"command", "timeout", "description", "run_in_background", "dangerouslyDisableSandbox"}),
    "Read": frozenset({"file_path", "offset", "limit", "pages"}),
    "Write": frozenset({"file_path", "content"}),
    "Edit": frozenset({"file_path", "old_string", "new_string", "replace_all"}),
    "NotebookEdit": frozenset({"notebook_path", "cell_id", "new_source", "cell_type", "edit_mode"}),
    "Glob": frozenset({"pattern", "path"}),
    "Grep": frozenset({"pattern", "path", "glob", "output_mode", "-B", "-A", "-C", "context", "-n", "-i", "-o",
                       "type", "head_limit", "offset", "multiline"}),
    "WebFetch": frozenset({"url", "prompt", "offset"}),
    "WebSearch": frozenset({"query", "allowed_domains", "blocked_domains"}),
}


def user_dir() -> Path:
    """~/.claude, or wherever CLAUDE_CONFIG_DIR moves it."""
    return _user_dir(os.environ.get("CLAUDE_CONFIG_DIR"), os.environ.get("HOME"))


@functools.lru_cache(maxsize=8)
def _user_dir(configured: str | None, home: str | None) -> Path:
    """(kept per value of the two variables it depends on: doctor asks it for each project of a
    tree, and each file it is given, and Path.home() builds the path anew each time)"""
    return Path(configured).expanduser() if configured else Path.home() / ".claude"
