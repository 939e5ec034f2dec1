"""The agents hookwright manages, by name: `installer.hosts.get("cursor")`.

One module per agent (claude.py, cursor.py, opencode.py), each with a HOST object that
implements installer.hosts.base.Host. A module loads only when its host is asked for.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from installer.errors import HookwrightError

if TYPE_CHECKING:
    from installer.hosts.base import Host

NAMES = ("claude", "cursor", "opencode")


def get(name: str) -> Host:
    if name not in NAMES:
        raise HookwrightError(f"unknown host {name!r}", hint=f"hosts: {', '.join(NAMES)}")
    return importlib.import_module(f"installer.hosts.{name}").HOST


def every() -> list[Host]:
    return [get(name) for name in NAMES]
