"""Which handlers Claude Code runs on one call: every scope and enabled plugin, the matcher and
`if` as the host reads them, kill switches, and one run per command among the copies that fire
(which copies of one hook the host runs once: below, also read by doctor's duplicate rules,
installer/doctor/dedup.py, and `hookwright list`).

The files and handlers are the ones doctor's discovery found (installer/doctor/run.context, the
discovery `list` uses), so simulate, doctor's probe and list see one set of hooks.
"""
from __future__ import annotations

import fnmatch
import json
import os
import re
from typing import Any

from .. import hosts
from ..patterns import lazy
from ..records import Record
from .events import CLAUDE_EVENTS, DISABLE_ALL, IF_EVENTS, SCOPE_ORDER, TOOL
from .model import ConfigFile, Configs, Handler
from .model import kind as handler_type
from .regex import Matcher, classify, tools_meet

# the payload field a non-tool event's matcher is compared with (docs/hosts/claude-code.md#events)
MATCHED_FIELD = {
    "SessionStart": "source", "SessionEnd": "reason", "PreCompact": "trigger", "PostCompact": "trigger",
    "Setup": "trigger", "Notification": "notification_type", "SubagentStart": "agent_type",
    "SubagentStop": "agent_type", "ConfigChange": "source", "StopFailure": "error",
    "InstructionsLoaded": "load_reason", "UserPromptExpansion": "command_name",
    "Elicitation": "mcp_server_name", "ElicitationResult": "mcp_server_name", "DirectoryAdded": "source",
    "PreModelSwitch": "to_model",
}
NOT_RUN_TYPES = {
    "http": "an HTTP hook: simulate does not send requests to its URL",
    "prompt": "a prompt hook: it asks a model, which simulate does not call",
    "agent": "an agent hook: it runs a model with tools, which simulate does not call",
    "mcp_tool": "an MCP tool hook: it calls a connected MCP server, which simulate does not start",
}


class Call(Record):
    """The one call simulate runs the hooks on, in Claude Code's words (each host's simulation
    says it in its own)."""

    event: str
    tool: str | None
    tool_input: dict[str, Any] | None
    extra: dict[str, Any]  # --payload's fields
    permission_mode: str
    list_only: bool
    sandboxed: bool = False  # --sandbox: the hooks run in installer/sandbox.py's sandbox


class Selected(Record):
    """A handler that fires on the call, or one that does not, and why."""

    handler: Handler
    runs: bool
    why: str | None = None  # why it does not run (or is not simulated)
    simulated: bool = True  # False: it would fire, but simulate does not run its type


def select(ctx: Configs, host: str, event: str, payload: dict[str, Any]) -> list[Selected]:
    """Every handler of `host` (Claude Code, whose rules these are) on `event` in the project, in
    configuration order, with whether it runs on `payload`."""
    disabled = hooks_disabled_by(ctx.files)
    managed_off = any(f.scope == "managed" for f in disabled)
    managed_only = next((f for f in ctx.files if f.scope == "managed" and f.document is not None
                         and isinstance(f.document.data, dict) and f.document.data.get("allowManagedHooksOnly") is True),
                        None)
    forced = {p.id for p in ctx.plugins if p.enabled_in.scope == "managed"}
    found: list[Selected] = []
    for handler in ctx.handlers:
        if handler.file.host != host or handler.event != event:
            continue
        if disabled and (managed_off or handler.file.scope != "managed"):
            found.append(Selected(handler, False, f"disableAllHooks is on in {disabled[0].path}"))
            continue
        if managed_only and handler.file.scope != "managed" and handler.file.plugin not in forced:
            found.append(Selected(handler, False, f"allowManagedHooksOnly is on in {managed_only.path}: "
                                                  "only managed hooks run"))
            continue
        miss = _misses(handler, event, payload)
        if miss:
            found.append(Selected(handler, False, miss))
            continue
        kind = handler_type(handler)
        if kind != "command":
            found.append(Selected(handler, True, NOT_RUN_TYPES.get(kind or "", "not a valid handler"),
                                  simulated=False))
            continue
        found.append(Selected(handler, True))
    return _once_per_command(found)


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


def _misses(handler: Handler, event: str, payload: dict[str, Any]) -> str | None:
    """Why the handler's matcher or `if` keeps it from firing on `payload`, or None."""
    known = CLAUDE_EVENTS.get(event)
    if known is not None and known.matcher is not None:
        subject = payload.get("tool_name") if known.matcher == TOOL else payload.get(MATCHED_FIELD.get(event, ""))
        matcher = classify(handler.matcher, event)
        if isinstance(subject, str) and not matcher.matches(subject):
            return f"its matcher {handler.matcher!r} does not match {subject!r} (the host reads it as {_how(matcher)})"
    condition = handler.value.get("if") if isinstance(handler.value, dict) else None
    if condition is None:
        return None
    if event not in IF_EVENTS:
        return f'it has "if", which {event} never evaluates: such a handler never runs'
    if isinstance(condition, str) and not permission_rule_matches(condition, payload):
        return f'its "if" {condition!r} does not match this call'
    return None


def _how(matcher: Matcher) -> str:
    if matcher.kind == "exact":
        return "an exact name" + (" list" if len(matcher.names) > 1 else "") + ", case-sensitive"
    return "an unanchored, case-sensitive regex" if matcher.kind == "regex" else "everything"


def _once_per_command(found: list[Selected]) -> list[Selected]:
    """The same command (with its args, and its `if`) in several settings files runs once among
    the copies that fire, the copy of the file of highest precedence (measured on 2.1.328: a local
    copy's timeout counted over the project's, the project's over the user's; copies with
    different `if` rules both ran); a plugin's copy runs on its own
    (docs/hosts/claude-code.md#deduplication)."""
    repeated: dict[tuple[Any, ...], list[int]] = {}
    for index, selected in enumerate(found):
        key = copy_key(selected.handler) if selected.runs else None
        if key is not None:
            repeated.setdefault((runs_with(selected.handler), key), []).append(index)
    kept = list(found)
    for indexes in repeated.values():
        rank = {i: SCOPE_ORDER.get(found[i].handler.file.scope, -1) for i in indexes}
        winner = max(indexes, key=lambda i: (rank[i], -i))
        for i in indexes:
            if i != winner:  # (in one scope the first copy is taken to run: that was not measured)
                higher = ", the file of higher precedence" if rank[winner] > rank[i] else ""
                kept[i] = found[i]._replace(runs=False, why=f"the same command fires from {found[winner].handler.where}"
                                                            f"{higher}: it runs once, from there")
    return kept


# ---- the settings' permission rules, which a hook's answer does not switch off -------------------

class SettingsRule(Record):
    """A permission rule of the settings that still decides a call after the hooks."""

    kind: str  # deny | ask
    rule: str
    path: str  # the settings file that holds it


def settings_rule(ctx: Configs, payload: dict[str, Any], kinds: tuple[str, ...] = ("deny", "ask")) -> SettingsRule | None:
    """The first deny rule of the project's settings that covers the call, else the first ask rule
    (docs/hosts/claude-code.md#permission-rules): a hook's allow does not override a deny rule
    (2.1.77), nor its ask (2.1.101), and a matching ask rule still prompts after a hook's allow
    (about 2.1.220). A rule that cannot be read decides nothing here."""
    for kind in kinds:
        for file in ctx.files:
            data = file.document.data if file.kind == "claude-settings" and file.document is not None else None
            permissions = data.get("permissions") if isinstance(data, dict) else None
            rules = permissions.get(kind) if isinstance(permissions, dict) else None
            for rule in rules if isinstance(rules, list) else ():
                if isinstance(rule, str) and _RULE.match(rule.strip()) \
                        and permission_rule_matches(rule, payload, settings=True):
                    return SettingsRule(kind, rule, str(file.path))
    return None


def refused_before_the_hooks(ctx: Configs, event: str, payload: dict[str, Any]) -> SettingsRule | None:
    """A deny rule on a file's path refuses a file tool's call before any PreToolUse hook runs
    (measured on 2.1.328: `Read(./secret.txt)`, and `Edit(src/**)` on a Write, refused the call and
    the hook never fired; a Bash deny rule lets the hooks run first, and judges the rewrite)."""
    if event != "PreToolUse" or payload.get("tool_name") not in READ_TOOLS | EDIT_TOOLS:
        return None
    return settings_rule(ctx, payload, ("deny",))


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
