"""Host: is each file in the format of the host that reads it, and are its plugins there?"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from ... import hosts
from ...hooks.events import (
    BUILTIN_TOOLS,
    CLAUDE_ONLY_FIELDS,
    CLAUDE_TO_CURSOR,
    CURSOR_EVENTS,
    FOLDED_CLAUDE_EVENTS,
    fold,
)
from ...hooks.regex.matching import js_regex
from ...hosts.base import Skipped, newer
from ...hosts.cursor import protocol as cursor_protocol
from ..model import ConfigFile, Context, Finding, Plugin, RuleTable, cached_property

CLAUDE_TO_CURSOR_TOOLS = {"Bash": "Shell"}  # docs/hosts/cursor.md#matchers (Edit, Read, Write, Grep, Task: the same)
TOOL_NAMES = frozenset(cursor_protocol.TOOL_TYPES + BUILTIN_TOOLS)  # Cursor's tool types and Claude Code's tools
OTHER_AGENTS = {  # (opencode's files have checks of their own: checks/opencode.py)
    "gemini-hooks": "Gemini CLI hooks (BeforeTool/AfterTool-style events, timeouts in milliseconds)",
    "grok-hooks": "a Grok CLI plugin's hooks",
}
# the Claude Code handler fields whose hint host/cursor-claude-field words otherwise (its variants)
CLAUDE_FIELD_VARIANTS = {"if": "condition", "args": "arguments", "url": "http", "headers": "http",
                         "allowedEnvVars": "http"}
SHELL_TOOL_NAMES = ("Shell", "Bash")
# the events whose `followup_message` keeps the agent going (what `loop_limit` caps)
CONTINUING_EVENTS = " and ".join(event for event, row in cursor_protocol.PROTOCOL.items() if row.continues)


class FileAt:
    """One file doctor read, as the host rules of a whole file read it."""

    def __init__(self, file: ConfigFile) -> None:
        self.file = file

    @cached_property
    def cursor_data(self) -> dict[str, Any] | None:
        """The top-level object of a Cursor hooks.json (None: not one, or not an object)."""
        file = self.file
        if file.kind != "cursor-hooks" or file.document is None or not isinstance(file.document.data, dict):
            return None
        return file.document.data

    @cached_property
    def cursor_hooks(self) -> dict[str, Any]:
        """Its "hooks" object: Cursor's events by name ({} where there is none)."""
        hooks = self.cursor_data.get("hooks") if self.cursor_data is not None else None
        return hooks if isinstance(hooks, dict) else {}

    def entries(self) -> Iterator[CursorEntry]:
        """Each object among its events' entries (the structure rules report the others)."""
        for event, entries in self.cursor_hooks.items():
            for index, entry in enumerate(entries if isinstance(entries, list) else []):
                if isinstance(entry, dict):
                    yield CursorEntry(self.file, event, entry, ("hooks", event, index))


class CursorEntry:
    """One entry of a Cursor hooks.json, as every entry rule reads it."""

    def __init__(self, file: ConfigFile, event: str, value: dict[str, Any], keys: tuple[str | int, ...]) -> None:
        self.file = file
        self.event = event
        self.value = value
        self.keys = keys

    @cached_property
    def protocol(self) -> cursor_protocol.CursorEventProtocol | None:
        """What Cursor does with its event (None: an event Cursor does not have)."""
        return cursor_protocol.protocol(self.event)

    @property
    def matcher(self) -> str | None:
        """Its "matcher", where that is a string."""
        matcher = self.value.get("matcher")
        return matcher if isinstance(matcher, str) else None

    def matched_against(self, subject: str) -> str | None:
        """Its matcher, where its event tests the matcher against `subject` (cursor_protocol's TOOL...)."""
        return self.matcher if self.protocol is not None and self.protocol.matcher_subject == subject else None

    def finding(self, ctx: Context, rule_id: str, keys: tuple[str | int, ...] = (), at_key: bool = False,
                variant: str | None = None, **params: Any) -> Finding:
        """A finding about the entry, or about its value at `keys`."""
        return ctx.finding(rule_id, self.file, self.keys + keys, at_key=at_key, variant=variant, **params)


RUN_RULES = RuleTable()  # rules of a whole run, given what it found: said once (run.run asks them last)
FILE_RULES = RuleTable()  # the host rules of one whole file, one function each
ENTRY_RULES = RuleTable()  # the host rules of one Cursor entry, one function each
PLUGIN_RULES = RuleTable()  # the host rules of one plugin a settings file enables


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        at = FileAt(file)
        yield from FILE_RULES.run(ctx, at)
        for entry in at.entries():
            yield from ENTRY_RULES.run(ctx, entry)
    for plugin in ctx.plugins:
        yield from PLUGIN_RULES.run(ctx, plugin)


# ---- the whole run -------------------------------------------------------------------------------------

@RUN_RULES.rule("host/newer-than-facts")
def _newer_than_facts(ctx: Context, found: list[Finding]) -> Iterator[Finding]:
    """An installed host newer than the release doctor's facts are measured on, said once, at the
    first of its files, with the rules of this run's findings that rest on what that release did."""
    for name in hosts.NAMES:
        first = next((f for f in ctx.files if f.host == name), None)
        if first is None:
            continue  # (a host with no file in the run: its adapter not loaded for it)
        host = hosts.get(name)
        installed = host.installed()
        pin = host.pin if installed is not None else None  # (the pins' TOML read where a host is installed only)
        if installed is None or pin is None or not newer(installed[0], pin.version):
            continue
        theirs = {str(f.path) for f in ctx.files if f.host == host.name}
        measured = _measured_rules(host.title, pin.version)
        affected = sorted({f.rule for f in found if f.rule in measured and f.path in theirs})
        yield ctx.finding("host/newer-than-facts", first, (), variant=None if affected else "none-affected",
                          host=host.title, version=installed[0], program=str(installed[1]),
                          pinned=pin.version, rules=", ".join(affected))


@RUN_RULES.rule("host/hooks-off-elsewhere")
def _hooks_off_elsewhere(ctx: Context, found: list[Finding]) -> Iterator[Finding]:
    """A setting outside the hooks files doctor reads that keeps their host from running any of
    them (Host.hooks_off: Codex's system and managed settings), said once, where it is set, for
    the files with hooks not ours (ours: install/hooks-off); what the host's own files switch off
    is host/hooks-switched-off's. Where install/hooks-off speaks at the same line (a pack of ours
    is switched off too), it owns that line: one finding per defect."""
    read = {f.path for f in ctx.files}
    from .installs import HOOKS_OFF_RULES

    owned = {(f.path, f.line) for f in found if f.rule in HOOKS_OFF_RULES}
    for name in hosts.NAMES:
        theirs = list({id(h.file): h.file for h in ctx.handlers if h.file.host == name and h.owner is None
                       and h.file.scope in ("user", "project")}.values())
        if not theirs:
            continue  # (a host with no handler in the run: its adapter not loaded for it)
        host = hosts.get(name)
        for setting in host.hooks_off(ctx.project or Path.cwd()):
            if setting.path not in read and (str(setting.path), setting.line) not in owned:
                yield ctx.finding_at("host/hooks-off-elsewhere", ConfigFile(setting.path, "unknown", host.name, "managed"),
                                     setting.line, 1, variant=None if setting.known else "unknown", host=host.title,
                                     why=setting.why, fix=setting.fix, files=_some(theirs))


def _some(files: list[ConfigFile]) -> str:
    shown = ", ".join(str(f.path) for f in files[:3])
    return shown + (f" and {len(files) - 3} more" if len(files) > 3 else "")


def _measured_rules(title: str, pinned: str) -> frozenset[str]:
    """The rules whose explanation rests on a measurement of this host (a release of its line)."""
    import re

    from ..model import catalog

    major = re.escape(pinned.split(".")[0])
    cites = re.compile(rf"(?:measured|observed)[^.]{{0,40}}?(?:{re.escape(title)} )?{major}\.\d+\.\d+", re.I)
    return frozenset(rule.id for rule in catalog().values() if cites.search(rule.explanation))


# ---- a whole file --------------------------------------------------------------------------------------

@FILE_RULES.rule("host/other-agent-format")
def _other_agent_format(ctx: Context, at: FileAt) -> Iterator[Finding]:
    if at.file.kind in OTHER_AGENTS:
        yield ctx.finding("host/other-agent-format", at.file, (), what=OTHER_AGENTS[at.file.kind])


@FILE_RULES.rule("host/file-dropped")
def _file_dropped(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A file its host reads as JSON and then drops whole, for a shape stricter than JSON (Codex)."""
    host = hosts.of(at.file.host)
    if host is None or at.file.document is None:
        return
    drop = host.dropped(at.file.document)
    if drop is not None:
        yield ctx.finding("host/file-dropped", at.file, drop.keys, host=host.title, why=drop.why, fix=drop.fix,
                          variant=drop.effect)


# premises of the rules of a whole file that concern one kind of host or file (RuleTable.rule's
# `premise`): each asked of every file of a tree of projects found nothing in any
def _host_keeps_trust(ctx: Context, at: FileAt) -> bool:
    """A host that runs no hook without the user's trust (Host.trust_store)."""
    host = hosts.of(at.file.host)
    return host is not None and bool(host.trust_store)


def _cursor_file(ctx: Context, at: FileAt) -> bool:
    return at.cursor_data is not None


@FILE_RULES.rule("host/hook-untrusted", premise=_host_keeps_trust)
def _hook_untrusted(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A hook its host skips, without a word and without asking, until the user trusts it (Codex:
    a project marked untrusted); hookwright's own are install/hook-untrusted, with the command that
    trusts them."""
    return _at_their_lines(ctx, at, "host/hook-untrusted", asked=False)


@FILE_RULES.rule("host/hook-not-yet-trusted", premise=_host_keeps_trust)
def _hook_not_yet_trusted(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A hook its host runs only once trusted, and whose trust its interactive session asks for
    before it runs (Codex: a project with no decision yet, a hook new, changed or moved): a fresh
    clone's hooks are not a defect, but a headless run skips them without a word."""
    return _at_their_lines(ctx, at, "host/hook-not-yet-trusted", asked=True)


def _at_their_lines(ctx: Context, at: FileAt, rule: str, asked: bool) -> Iterator[Finding]:
    """The hooks of the file, not ours, that its host skips until they are trusted, whose trust it
    asks for (`asked`) or not: each at the line that keeps it skipped where the host keeps one (a
    stale hash, a project's trust_level), the hook related, once for all the hooks one line keeps
    off; else at the hook."""
    host = hosts.of(at.file.host)
    if host is None or at.file.document is None or host.dropped(at.file.document) is not None:
        return
    at_line: dict[tuple[Path, int], list[Skipped]] = {}
    for skipped in host.skipped_in(at.file.path, at.file.scope, at.file.document.data):
        if host.owner(skipped.handler) is not None or bool(skipped.asked) != asked:
            continue
        if skipped.stale_at is not None:
            at_line.setdefault(skipped.stale_at, []).append(skipped)
            continue
        yield ctx.finding(rule, at.file, skipped.keys, host=host.title, event=skipped.event, why=skipped.why,
                          fix=skipped.fix, asked=skipped.asked)
    for (path, line), kept in at_line.items():
        related = [{"path": str(at.file.path), "line": place[0], "column": place[1], "message": "a hook it keeps off"}
                   for place in (at.file.position(one.keys) for one in kept)]
        first = kept[0]
        found = ctx.finding_at(rule, at.file, line, 1, related, "several" if len(kept) > 1 else None, host=host.title,
                               event=first.event, why=first.why, fix=first.fix, asked=first.asked, count=len(kept))
        yield found._replace(path=str(path))


@FILE_RULES.rule("host/hook-never-loaded")
def _hook_never_loaded(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A place of the file its host reads and skips (Host.never_loaded): an event it does not have,
    a handler type it does not run, a timeout it cuts."""
    host = hosts.of(at.file.host)
    if host is None or at.file.document is None or host.dropped(at.file.document) is not None:
        return
    for keys, why, fix in host.never_loaded(at.file.document.data):
        yield ctx.finding("host/hook-never-loaded", at.file, keys, at_key=len(keys) == 2, why=why, fix=fix)


@FILE_RULES.rule("host/hooks-switched-off")
def _hooks_switched_off(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A switch that turns off every hook of the host (Host.hooks_switch), in the file whose value
    counts: the last of the session's files that sets it (user, then the project's from its root
    down), or a file named alone. Said where the host has hooks in this run to switch off, and
    where no pack of ours is among them: install/hooks-off owns that line (one finding per defect,
    the more specific rule, as with install/ and host/hook-untrusted)."""
    host = hosts.of(at.file.host)
    said = host.hooks_switch(at.file.document.data) if host is not None and at.file.document is not None else None
    if host is None or said is None or said[1]:
        return
    together = at.file.scope != "given"
    setting = [f for f in ctx.files if f.host == host.name and f.document is not None and (f.scope != "given") == together
               and (together or f is at.file) and host.hooks_switch(f.document.data) is not None]
    if max(setting, key=lambda f: (f.scope == "project", len(f.path.parts))) is not at.file:
        return
    off = list({id(h.file): h.file for h in ctx.handlers if h.file.host == host.name
                and (h.file.scope != "given") == together}.values())
    if not off:
        return
    found = ctx.finding("host/hooks-switched-off", at.file, said[0], host=host.title, key=".".join(map(str, said[0])),
                        files=_some(off), related=[{"path": str(f.path), "line": 1, "column": 1,
                                               "message": "its hooks do not run"} for f in off])
    if together and any(h.owner for h in ctx.handlers if h.file.host == host.name):
        from .installs import hooks_off_places  # (only where a pack of ours may be among the hooks switched off)

        if (found.path, found.line) in hooks_off_places(ctx):
            return
    yield found


@FILE_RULES.rule("host/unrecognised-file")
def _unrecognised_file(ctx: Context, at: FileAt) -> Iterator[Finding]:
    if at.file.kind == "unknown" and at.file.error is None:
        yield ctx.finding("host/unrecognised-file", at.file, (), why=_why(at.file))


def _why(file: ConfigFile) -> str:
    if file.path.suffix.lower() in (".js", ".ts", ".mjs", ".cjs", ".mts"):
        return "a script, not an opencode plugin"
    return "not JSON" if ".json" not in file.path.name.lower() else "unknown format"


@FILE_RULES.rule("host/cursor-version-missing", premise=_cursor_file)
def _cursor_version_missing(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """Required in a project's hooks.json (other-hosts.md 1.2); a user's or a plugin's may omit it."""
    if at.cursor_data is not None and "version" not in at.cursor_data and not _plugin_file(at.file) \
            and at.file.scope in ("project", "given"):
        yield ctx.finding("host/cursor-version-missing", at.file, ())


@FILE_RULES.rule("host/cursor-version-invalid", premise=_cursor_file)
def _cursor_version_invalid(ctx: Context, at: FileAt) -> Iterator[Finding]:
    version = at.cursor_data.get("version", 1) if at.cursor_data is not None else 1
    if isinstance(version, bool) or not (isinstance(version, (int, float)) and version == 1):  # (1.0 is 1 to JSON)
        yield ctx.finding("host/cursor-version-invalid", at.file, ("version",), found=json.dumps(version))


@FILE_RULES.rule("host/cursor-claude-event", premise=_cursor_file)
def _cursor_claude_event(ctx: Context, at: FileAt) -> Iterator[Finding]:
    """A Claude Code event name (in any case) that Cursor does not have, as a Cursor event."""
    for event in at.cursor_hooks:
        claude_name = FOLDED_CLAUDE_EVENTS.get(fold(event))
        if event in CURSOR_EVENTS or not claude_name:
            continue
        cursor_name = CLAUDE_TO_CURSOR.get(claude_name)
        yield ctx.finding("host/cursor-claude-event", at.file, ("hooks", event), at_key=True, event=event,
                          cursor_name=cursor_name, variant=None if cursor_name else "no-cursor-event")


def _plugin_file(file: ConfigFile) -> bool:
    """A Cursor plugin's hook file, where `version` is optional (not .cursor/hooks.json)."""
    return file.scope == "plugin" or (file.path.parent.name == "hooks" and ".cursor" not in file.path.parts)


# ---- one Cursor entry ----------------------------------------------------------------------------------

@ENTRY_RULES.rule("host/cursor-claude-group", alone=True)
def _cursor_claude_group(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """A Claude Code matcher group where a flat entry belongs: nothing else in it is read."""
    if "hooks" in entry.value:
        yield entry.finding(ctx, "host/cursor-claude-group")


@ENTRY_RULES.rule("host/cursor-claude-field")
def _cursor_claude_field(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """Claude Code handler fields copied into a Cursor entry (`async`, `if`, `statusMessage`,
    `args`...): Cursor's entries have none of them, so what they ask for does not happen."""
    for key in entry.value:
        if key in CLAUDE_ONLY_FIELDS:
            yield entry.finding(ctx, "host/cursor-claude-field", (key,), at_key=True, field=key,
                                variant=CLAUDE_FIELD_VARIANTS.get(key))


@ENTRY_RULES.rule("host/cursor-field-no-effect")
def _cursor_field_no_effect(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """Cursor fields that the event (or the entry's type) never uses: `loop_limit` caps only
    follow-ups, `failClosed: true` only blocks where the event can block, `model` and `prompt`
    belong to prompt hooks."""
    row, value = entry.protocol, entry.value
    if row is None:
        return
    unused: dict[str, str | None] = {}  # field: the variant that says why
    if "loop_limit" in value and not row.continues:
        unused["loop_limit"] = None
    if value.get("failClosed") is True and not row.blocks:
        unused["failClosed"] = "cannot-block"
    if value.get("type", "command") == "command":
        unused.update({key: "prompt-field" for key in ("model", "prompt") if key in value})
    for key, variant in unused.items():
        yield entry.finding(ctx, "host/cursor-field-no-effect", (key,), at_key=True, field=key, event=entry.event,
                            events=CONTINUING_EVENTS, variant=variant)


@ENTRY_RULES.rule("host/cursor-claude-tool-name")
def _cursor_claude_tool_name(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """A Cursor matcher that names tools as Claude Code does (`Bash`, `mcp__srv__tool`): Cursor's
    tool types are `Shell`, `Read`, `Write`..., and MCP tools are `MCP:<tool>`."""
    matcher = entry.matched_against(cursor_protocol.TOOL)
    if matcher is None:
        return
    names, renamed = claude_tool_names(matcher)
    if renamed:
        suggestion = "|".join(alt.replace(name, renamed[name]) if name in renamed else alt
                              for alt, name in zip(matcher.split("|"), names))
        yield entry.finding(ctx, "host/cursor-claude-tool-name", ("matcher",), matcher=json.dumps(matcher),
                            names=", ".join(f"{name} (Cursor's is {cursor})" for name, cursor in renamed.items()),
                            suggestion=json.dumps(suggestion))


@ENTRY_RULES.rule("host/cursor-command-matcher-names-tool")
def _cursor_command_matcher_names_tool(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """On beforeShellExecution / afterShellExecution the matcher is tested against the command
    text: a tool type there (`Shell`, `Bash`, `Read`) matches only commands that contain the word."""
    matcher = entry.matched_against(cursor_protocol.COMMAND)
    if matcher is None:
        return
    names = _alternatives(matcher)
    tools = [name for name in names if name in TOOL_NAMES]
    if tools:
        yield entry.finding(ctx, "host/cursor-command-matcher-names-tool", ("matcher",), matcher=json.dumps(matcher),
                            event=entry.event, tools=" or ".join(json.dumps(name) for name in tools),
                            variant="shell-only" if all(name in SHELL_TOOL_NAMES for name in names) else None)


@ENTRY_RULES.rule("host/cursor-matcher-misses-literal")
def _cursor_matcher_misses_literal(ctx: Context, entry: CursorEntry) -> Iterator[Finding]:
    """beforeSubmitPrompt, stop, afterAgentResponse and afterAgentThought test their matcher
    against one fixed value (`UserPromptSubmit`, `Stop`...): a matcher that misses it never fires."""
    matcher = entry.matched_against(cursor_protocol.LITERAL)
    literal = entry.protocol.literal if entry.protocol is not None else None
    if matcher is None or literal is None or matcher.strip() in ("", "*"):
        return
    translated = js_regex(matcher)
    if translated.pattern is not None and not translated.pattern.search(literal):
        yield entry.finding(ctx, "host/cursor-matcher-misses-literal", ("matcher",), matcher=json.dumps(matcher),
                            event=entry.event, literal=literal)


# ---- one enabled plugin --------------------------------------------------------------------------------

@PLUGIN_RULES.rule("host/plugin-not-installed")
def _plugin_not_installed(ctx: Context, plugin: Plugin) -> Iterator[Finding]:
    if plugin.install_path is None:
        yield ctx.finding("host/plugin-not-installed", plugin.enabled_in, ("enabledPlugins", plugin.id),
                          plugin=plugin.id)


def claude_tool_names(matcher: str) -> tuple[list[str], dict[str, str]]:
    """The names a Cursor matcher's alternatives give (`^Bash$` gives Bash), and those that are
    Claude Code's tool names, with Cursor's name for each (Bash: Shell)."""
    names = _alternatives(matcher)
    renamed = {name: CLAUDE_TO_CURSOR_TOOLS.get(name) or _cursor_mcp_name(name) for name in names}
    return names, {name: cursor for name, cursor in renamed.items() if cursor and cursor not in names}


def _alternatives(matcher: str) -> list[str]:
    """The names a matcher's alternatives give, anchors aside (`^Bash$|Read` gives Bash, Read)."""
    return [alt.strip().removeprefix("^").removesuffix("$") for alt in matcher.split("|")]


def _cursor_mcp_name(name: str) -> str | None:
    """Cursor's name for a Claude Code MCP tool name or pattern: `MCP:<tool>`, which names no
    server (`mcp__github__.*` gives `MCP:.*`, `mcp__.*` too)."""
    if not name.startswith("mcp__"):
        return None
    server, _, tool = name.removeprefix("mcp__").partition("__")
    if server in (".*", ".+") and not tool:
        return "MCP:.*"
    return f"MCP:{tool}" if server and tool else None
