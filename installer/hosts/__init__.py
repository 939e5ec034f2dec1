"""The agents hookwright manages, by name: `hookwright.hosts.get("cursor")`.

One folder per agent (claude/, cursor/, opencode/, codex/), whose adapter.py holds a HOST object that
implements installer.hosts.base.Host. An adapter loads only when its host is asked for: where its
files are and what other hosts' rules ask of it (its places: TITLE, FOLDER, KINDS, user_dir(),
TOOL_INPUTS, HOOK_VARIABLES, in the folder's __init__.py) is read without
it, so that a run with no file of a host never loads its adapter (doctor on one Claude Code
settings file: the Codex, opencode and Cursor adapters were 6.5 M of its 371.1 M instructions).
"""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Callable

from ..errors import HookwrightError, did_you_mean

if TYPE_CHECKING:
    from .base import Host

NAMES = ("claude", "cursor", "opencode", "codex")
DEFAULT = "claude"  # the agent a command without --host is about


def get(name: str) -> Host:
    found = _LOADED.get(name)
    if found is not None:
        return found
    if name not in NAMES:
        raise HookwrightError(f"unknown host {name!r}", hint=did_you_mean(name, NAMES) or f"hosts: {', '.join(NAMES)}")
    adapter: Host = importlib.import_module(f".{name}.adapter", __name__).HOST
    _LOADED[name] = adapter
    return adapter


class _Loaded(dict[str, "Host"]):
    """The adapters loaded so far, by name; a host's name not among them loads its adapter (`of`),
    another name is no host of ours (None)."""

    def __missing__(self, name: str) -> Host | None:
        return get(name) if name in NAMES else None


_LOADED = _Loaded()


def every() -> list[Host]:
    return [get(name) for name in NAMES]


def _places(name: str) -> ModuleType:
    """The host's package, which says its places (TITLE, FOLDER, KINDS, user_dir(), TOOL_INPUTS...) without its adapter."""
    return importlib.import_module(f".{name}", __name__)


def project_folders() -> tuple[str, ...]:
    """The folder each host keeps a project's files in (`.claude`): a folder holding one is a project."""
    return tuple(dict.fromkeys(_places(name).FOLDER for name in NAMES))


def user_folders() -> list[Path]:
    """Each host's folder of the user scope (~/.claude): never a project's, wherever it is."""
    return [_places(name).user_dir() for name in NAMES]


def of_kind(kind: str) -> Host | None:
    """The host whose files are of this kind (doctor's word for a file: Host.file_kinds), None for
    a kind of no host hookwright installs into."""
    if not _KINDS:
        _KINDS.update((each, name) for name in NAMES for each in _places(name).KINDS)
    name = _KINDS.get(kind)
    return get(name) if name is not None else None


_KINDS: dict[str, str] = {}  # kind -> its host's name


def sender(field: str, host: Host) -> str | None:
    """Another host whose tools send the field in their input (Host.tool_inputs: the first, in
    NAMES's order), by name: read from its places, so that a Claude Code hook reading opencode's
    `path` loads no other adapter."""
    return next((name for name in NAMES if name != host.name
                 and any(field in fields for fields in _places(name).TOOL_INPUTS.values())), None)


def title(name: str) -> str:
    """The host's name for people ("Claude Code"), from its places (Host.title)."""
    title: str = _places(name).TITLE
    return title


# The host of a file doctor read (None for an agent hookwright does not install into: Gemini CLI,
# Grok, a file of unknown kind): the registry's own lookup, no Python call where the adapter is
# loaded. doctor asks it for each handler in some forty rules (48,753 times on the corpus tree),
# and a function's call was most of its cost: the tree went from 4,567.9 M to 4,549.2 M instructions
of: Callable[[str], Host | None] = _LOADED.__getitem__


# the hosts whose files may register hooks that run in only part of a session (Host.part_time_hooks:
# Claude Code's skills): doctor asks them alone, and loads no other adapter to ask
PART_TIME_HOSTS = ("claude",)

# the hosts that set variables of their own for their hooks (Host.hook_variables, their places'
# HOOK_VARIABLES): a hook copied from one of them may keep a name the host it now runs under never sets
VARIABLE_HOSTS = ("claude", "cursor")


def variables_of_others(host: Host) -> dict[str, str]:
    """Each variable another host sets for its hooks and this one does not, with that host's name
    (read from its places: a Claude Code run does not load Cursor's adapter to ask); {} where this
    host's own are not known (Host.hook_variables)."""
    own = host.hook_variables
    if own is None:
        return {}
    found: dict[str, str] = {}
    for name in VARIABLE_HOSTS:
        for variable in sorted(_places(name).HOOK_VARIABLES) if name != host.name else ():
            if variable not in own:
                found.setdefault(variable, name)  # (the host that named it first: CLAUDE_PROJECT_DIR is Claude Code's)
    return found
