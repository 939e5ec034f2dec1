"""Which copies of one hook the host runs once: the same command (with its args and its `if`)
or URL in several files runs once per event among those that fire, where the host deduplicates
(Claude Code: docs/hosts/claude-code.md#deduplication); a plugin's copy runs on its own beside
them, and a host that documents no deduplication (Cursor) runs each entry.

Used by simulate and doctor's probe (which copy runs on a call: firing.py), doctor
(conflict/duplicate-*: installer/doctor/dedup.py) and `hookwright list`.
"""
from __future__ import annotations

import json

from .. import hosts
from .model import Handler, kind

EVERY_SESSION = ("every session",)
# what one command is, to Claude Code: ("command", command, args[, plugin root]) or ("http", url)
DedupKey = tuple[str | None, ...]
# the copies deduplicated together: ("settings",), ("plugin", name), or (host, id(handler)) for one that runs alone
Unit = tuple[str | int, ...]
Session = tuple[str, ...]  # which sessions load a file: EVERY_SESSION, ("project", path), ("file", path)


def condition(handler: Handler) -> object:
    """The handler's `if` (a permission rule that narrows its matcher), None without one."""
    return handler.value.get("if")  # (copies are objects: only they have a dedup_key)


def dedup_key(handler: Handler) -> DedupKey | None:
    """Handlers with one key are copies: the same command (and args), or the same URL."""
    value = handler.value
    if not isinstance(value, dict):
        return None
    what = kind(handler)
    if what == "command" and isinstance(value.get("command"), str):
        args = value.get("args")
        args = json.dumps(args, sort_keys=True) if args is not None else None
        if "CLAUDE_PLUGIN_" in value["command"] or "CLAUDE_PLUGIN_" in (args or ""):
            # the same template in two plugins names two files (docs/hosts/claude-code.md#deduplication, fixed in 2.1.69)
            return ("command", value["command"], args, str(handler.file.plugin_root))
        return ("command", value["command"], args)
    if what == "http" and isinstance(value.get("url"), str):
        return ("http", value["url"])
    return None


def copy_key(handler: Handler) -> DedupKey | None:
    """Handlers with one copy key are copies Claude Code runs once: one dedup_key and one `if`
    (measured on 2.1.328: the same command with two `if` rules, or with one and without, ran twice)."""
    key = dedup_key(handler)
    if key is None:
        return None
    written = condition(handler)
    # (most have none: json.dumps(None) is "null", and its call about 11,000 instructions, 22 M of
    # the corpus tree's 4,897 M for its 1,870 handlers)
    return (*key, "null" if written is None else json.dumps(written))


def dedups_commands(handler: Handler) -> bool:
    host = hosts.of(handler.file.host)
    return host is not None and host.dedups_commands


def runs_with(handler: Handler) -> Unit:
    """Copies with one unit are deduplicated together: all settings files; each plugin on its own;
    each Cursor entry on its own."""
    if not dedups_commands(handler):
        return (handler.file.host, id(handler))
    if handler.file.from_plugin:
        return ("plugin", handler.file.plugin or str(handler.file.path))
    return ("settings",)


def session(handler: Handler) -> Session:
    """Which sessions load the handler's file: every one (user, managed, enabled plugins), those of
    one project (project and local settings), or none known (a loose file named on the command
    line, a plugin's hooks.json among them: nothing says which settings enable that plugin)."""
    file = handler.file
    if file.scope in ("user", "managed") or (file.scope == "plugin" and file.plugin):
        return EVERY_SESSION
    if file.scope in ("project", "local"):
        return ("project", str(file.project))
    return ("file", str(file.path))


def share_a_session(a: Handler, b: Handler) -> bool:
    sa, sb = session(a), session(b)
    return EVERY_SESSION in (sa, sb) or sa == sb
