"""Which handlers Claude Code runs on one call (`select`): every scope and enabled plugin, the
matcher and `if` as the host reads them, kill switches, and one run per command among the copies
that fire; and the settings' permission rules that still decide the call after the hooks. simulate
asks it, with the hooks' answers (answers.py) and their runs (running.py).

The rules it applies are firing.py's (kill switches, a permission rule, which copies of one hook
the host runs once), which doctor reads too: this module is simulate's alone, and a doctor run
does not load it (its records and functions, in firing.py, were 0.6 M instructions of doctor
on a typical file: 341.2 M -> 340.6 M apart).

The files and handlers are the ones doctor's discovery found (installer/doctor/run.context, the
discovery `list` uses), so simulate, doctor's probe and list see one set of hooks.
"""
from __future__ import annotations

from typing import Any

from ..records import Record
from .events import CLAUDE_EVENTS, IF_EVENTS, SCOPE_ORDER, TOOL
from .firing import EDIT_TOOLS, READ_TOOLS, copy_key, hooks_disabled_by, permission_rule_matches, rule_tool, runs_with
from .model import Configs, Handler
from .model import kind as handler_type
from .regex import Matcher, classify

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
                if isinstance(rule, str) and rule_tool(rule) is not None \
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
