"""The agents hookwright manages, by name: `hookwright.hosts.get("cursor")`.

One folder per agent (claude/, cursor/, opencode/, codex/), whose adapter.py holds a HOST object that
implements installer.hosts.base.Host. An adapter loads only when its host is asked for.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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


_LOADED: dict[str, Host] = {}  # (doctor asks for a file's host tens of thousands of times a run)


def every() -> list[Host]:
    return [get(name) for name in NAMES]


def of_kind(kind: str) -> Host | None:
    """The host whose files are of this kind (doctor's word for a file: Host.file_kinds), None for
    a kind of no host hookwright installs into."""
    if not _KINDS:
        _KINDS.update((each, host) for host in every() for each in host.file_kinds)
    return _KINDS.get(kind)


_KINDS: dict[str, Host] = {}


def of(name: str) -> Host | None:
    """The host of a file doctor read (None for an agent hookwright does not install into:
    Gemini CLI, Grok, a file of unknown kind)."""
    return _LOADED.get(name) or (get(name) if name in NAMES else None)


# the hosts that set variables of their own for their hooks (Host.hook_variables): a hook copied
# from one of them may keep a name the host it now runs under never sets
VARIABLE_HOSTS = ("claude", "cursor")


def variables_of_others(host: Host) -> dict[str, Host]:
    """Each variable another host sets for its hooks and this one does not, with that host; {} where
    this host's own are not known (Host.hook_variables)."""
    own = host.hook_variables
    if own is None:
        return {}
    found: dict[str, Host] = {}
    for other in map(get, VARIABLE_HOSTS):
        for variable in sorted(other.hook_variables or ()) if other is not host else ():
            if variable not in own:
                found.setdefault(variable, other)  # (the host that named it first: CLAUDE_PROJECT_DIR is Claude Code's)
    return found
