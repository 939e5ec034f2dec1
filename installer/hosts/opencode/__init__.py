"""opencode, all in one folder: where its plugins are and how a pack becomes one (adapter.py).

Here, its places (hosts/base.py, "a host's places"): what the registry and doctor's discovery
read without loading the adapter, which reads them from here too."""
from __future__ import annotations

from pathlib import Path

from ..base import env_path

TITLE = "opencode"
FOLDER = ".opencode"  # a project's folder of its files
PLUGIN_KIND = "opencode-plugin"  # doctor's names of the kinds of its files
CONFIG_KIND = "opencode-config"
KINDS = (PLUGIN_KIND, CONFIG_KIND)
SCRIPT_SUFFIXES = (".js", ".ts", ".mjs", ".cjs", ".mts")  # what doctor reads as a plugin (and says why opencode does not load)
# in the order opencode runs them: measured on 1.18.33, a config folder's plugin/ ran before its
# plugins/, whichever of the two the filesystem listed first
PLUGIN_FOLDERS = ("plugin", "plugins")
# the arguments each of opencode's own tools takes, as its schema in the 1.18.33 binary names them
# (docs/hosts/opencode.md#tool-names): a hook that reads another on such a tool reads undefined
TOOL_ARGUMENTS = {"bash": ("command", "timeout", "workdir", "description"), "read": ("filePath", "offset", "limit"),
                  "write": ("content", "filePath"), "edit": ("filePath", "oldString", "newString", "replaceAll"),
                  "glob": ("pattern", "path"), "grep": ("pattern", "path", "include"),
                  "webfetch": ("url", "format", "timeout"), "todowrite": ("todos",), "skill": ("name",),
                  "task": ("description", "prompt", "subagent_type", "task_id", "command"),
                  "apply_patch": ("patchText",), "question": ("questions",), "invalid": ("tool", "error"),
                  "lsp": ("operation", "filePath", "line", "character", "query"),
                  "websearch": ("query", "numResults", "livecrawl", "type", "contextMaxCharacters")}
# the arguments its own tools take, as a plugin's output.args holds them (Host.tool_inputs)
TOOL_INPUTS = {tool: frozenset(arguments) for tool, arguments in TOOL_ARGUMENTS.items() if tool != "invalid"}


def user_dir() -> Path:
    """opencode's user folder: $XDG_CONFIG_HOME/opencode, else ~/.config/opencode (measured:
    with the variable set, ~/.config/opencode/plugins is not read)."""
    return env_path("XDG_CONFIG_HOME", Path.home() / ".config") / "opencode"


def scope_folder(project: Path | None) -> Path:
    """Its folder of a scope, where the plugins and the runtimes beside them are: the user's
    (project None), or the project's `.opencode`."""
    return user_dir() if project is None else project / FOLDER


def in_a_plugin_folder(path: Path) -> bool:
    """A script in a folder named like opencode's plugins folders, under a folder named for opencode."""
    return path.parent.name in PLUGIN_FOLDERS and any("opencode" in part.lower() for part in path.parts)
