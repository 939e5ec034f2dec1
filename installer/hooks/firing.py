"""When Claude Code runs a handler: the kill switches (`disableAllHooks`), a permission rule as an
`if` or the settings' permissions read it, and which copies of one hook the host runs once (also
read by doctor's duplicate rules, installer/doctor/dedup.py, and `hookwright list`). Which
handlers run on one call is calls.py's, simulate's alone, which applies these rules."""
from __future__ import annotations

import fnmatch
import json
import os
import re
from typing import Any

from .. import hosts
from ..patterns import lazy
from .events import DISABLE_ALL, SCOPE_ORDER
from .model import ConfigFile, Handler
from .model import kind as handler_type
from .regex import tools_meet


def hooks_disabled_by(files: list[ConfigFile]) -> list[ConfigFile]:
    """The settings files whose `disableAllHooks: true` counts: of the scopes, only the value with
    the highest precedence (a project `false` overrides a user `true`); each named file alone."""
    settings = [(f, f.document.data) for f in files if f.kind == "claude-settings" and f.document is not None
                and isinstance(f.document.data, dict)]
    deciding = [(f, data) for f, data in settings if f.scope not in SCOPE_ORDER]
    having = [(f, data) for f, data in settings if f.scope in SCOPE_ORDER and DISABLE_ALL in data]
    if having:  # later managed drop-ins win over earlier ones
        deciding.append(max(enumerate(having), key=lambda p: (SCOPE_ORDER[p[1][0].scope], p[0]))[1])
    return [f for f, data in deciding if data.get(DISABLE_ALL) is True]


# ---- "if": one permission rule ---------------------------------------------------------------

_RULE = lazy(r"^(?P<tool>[^()\s]+)(?:\((?P<spec>.*)\))?$", re.S)
ASSIGNMENT_WORD = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")  # FOO=1 before a command
PATH_FIELDS = ("file_path", "path", "notebook_path")
READ_TOOLS = frozenset({"Read"})
EDIT_TOOLS = frozenset({"Write", "Edit", "MultiEdit", "NotebookEdit"})  # a settings path rule names them Edit(...)
URL_SCHEME = lazy(r"^[a-z]+://")


def rule_tool(rule: str) -> str | None:
    """The tool a permission rule names (`Bash` of `Bash(git *)`, `mcp__srv__*`), None where it is unreadable."""
    found = _RULE.match(rule.strip())
    return found["tool"] if found else None


def permission_rule_matches(rule: str, payload: dict[str, Any], settings: bool = False) -> bool:
    """Whether a permission rule such as `Bash(git *)` or `Edit(src/**)` covers the call: the tool
    name, then for Bash the command (a `*` glob, `:*` a prefix), for file tools the path (a glob),
    for WebFetch `domain:`. A rule it cannot read fires, as the host fails open on Bash.
    `settings`: a rule of the settings' permissions, where a path rule for the tools that write
    files is an `Edit(...)` rule (measured on 2.1.328: `Edit(src/**)` refused a Write, `Write(src/**)`
    did not), while an `if` names the tool itself (`Write(*.txt)` fired on a Write, `Edit(...)` did not)."""
    found = _RULE.match(rule.strip())
    if found is None:
        return True
    tool, spec = found["tool"], found["spec"]
    name = payload.get("tool_name")
    if settings and name in EDIT_TOOLS and spec not in (None, "", "*"):
        name = "Edit"
    if not isinstance(name, str) or not tools_meet(tool, name):
        return False
    if spec is None or spec in ("", "*"):
        return True
    given = payload.get("tool_input")
    tool_input: dict[str, Any] = given if isinstance(given, dict) else {}
    if name == "Bash" and isinstance(tool_input.get("command"), str):
        return any(_command_matches(spec, part) for part in subcommands(tool_input["command"]))
    if spec.startswith("domain:") and isinstance(tool_input.get("url"), str):
        host = URL_SCHEME.sub("", tool_input["url"]).split("/")[0]
        return fnmatch.fnmatchcase(host, spec[len("domain:"):])
    path = next((tool_input[f] for f in PATH_FIELDS if isinstance(tool_input.get(f), str)), None)
    if path is not None:
        pattern = spec.lstrip("/") if spec.startswith("//") else os.path.expanduser(spec) if spec.startswith("~/") \
            else spec
        relative = pattern[2:] if pattern.startswith("./") else pattern.lstrip("/")
        return fnmatch.fnmatchcase(path, pattern) or fnmatch.fnmatchcase(path, "*/" + relative)
    return True


def _command_matches(spec: str, command: str) -> bool:
    """`rm:*` is the word rm and what follows (not rmdir); a glob matches the command, `ls *` a bare
    `ls` too (measured on 2.1.328: `Bash(ls *)` fired on `ls`, `Bash(rm:*)` let `rmdir` run)."""
    if spec.endswith(":*"):
        return command == spec[:-2] or command.startswith(spec[:-2] + " ")
    return fnmatch.fnmatchcase(command, spec) or (spec.endswith(" *") and command == spec[:-2])


def subcommands(command: str) -> list[str]:
    """The simple commands a Bash command runs, as Claude Code reads them against a rule (measured
    on 2.1.328: `Bash(rm *)` refused `git status && rm -f x`, `echo $(rm -f x)` and `FOO=1 rm -f x`):
    the whole command, each part between && || ; | & and newlines outside quotes, what $(...) and
    backquotes run; each without its leading NAME=value words, its blanks runs of one."""
    parts: list[str] = []
    inner: list[str] = []  # what $(...) and backquotes run
    current: list[str] = []
    quote: str | None = None
    i = 0
    while i < len(command):
        c = command[i]
        if quote != "'" and (command.startswith("$(", i) or c == "`"):  # (runs inside double quotes too)
            end = _closing(command, i)
            inner.append(command[i + 2:end] if c == "$" else command[i + 1:end])
            current.append(command[i:end + 1])
            i = end + 1
            continue
        if quote:
            quote = None if c == quote else quote
            if c == "\\" and quote == '"' and i + 1 < len(command):
                current.append(c)
                i += 1
                c = command[i]
        elif c in "'\"":
            quote = c
        elif c in ";&|\n":
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    parts.append("".join(current))
    found = [command, *parts, *(sub for text in inner for sub in subcommands(text))]
    return list(dict.fromkeys(cleaned for part in found if (cleaned := _without_assignments(part))))


def _closing(command: str, start: int) -> int:
    """Where the $( or backquote at `start` closes (the end of the text if it does not)."""
    if command[start] == "`":
        end = command.find("`", start + 1)
        return end if end >= 0 else len(command)
    depth = 0
    for i in range(start + 1, len(command)):
        depth += (command[i] == "(") - (command[i] == ")")
        if depth == 0:
            return i
    return len(command)


def _without_assignments(part: str) -> str:
    words = part.split()
    while words and ASSIGNMENT_WORD.match(words[0]):
        words = words[1:]
    return " ".join(words)


# ---- which copies of one hook the host runs once --------------------------------------------------------
#
# Which copies of one hook the host runs once: the same command (with its args and its `if`)
# or URL in several files runs once per event among those that fire, where the host deduplicates
# (Claude Code: docs/hosts/claude-code.md#deduplication); a plugin's copy runs on its own beside
# them, and a host that documents no deduplication (Cursor) runs each entry.
#
# Used by simulate and doctor's probe (which copy runs on a call: firing.py), doctor
# (conflict/duplicate-*: installer/doctor/dedup.py) and `hookwright list`.

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
    what = handler_type(handler)
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
