"""Host: is each file in the format of the host that reads it, and are its plugins there? (Cursor's
own hooks files and their entries: checks/cursor.py, loaded by a run with one.)"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ... import hosts
from ...hosts.base import Skipped, newer
from ...hosts.opencode import SCRIPT_SUFFIXES
from ..model import ConfigFile, Context, Finding, Plugin, RuleTable

OTHER_AGENTS = {  # (opencode's files have checks of their own: checks/opencode.py)
    "gemini-hooks": "Gemini CLI hooks (BeforeTool/AfterTool-style events, timeouts in milliseconds)",
    "grok-hooks": "a Grok CLI plugin's hooks",
}


RUN_RULES = RuleTable()  # rules of a whole run, given what it found: said once (run.run asks them last)
FILE_RULES = RuleTable()  # the host rules of one whole file, one function each
PLUGIN_RULES = RuleTable()  # the host rules of one plugin a settings file enables


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        yield from FILE_RULES.run(ctx, file)
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
def _other_agent_format(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    if file.kind in OTHER_AGENTS:
        yield ctx.finding("host/other-agent-format", file, (), what=OTHER_AGENTS[file.kind])


@FILE_RULES.rule("host/file-dropped")
def _file_dropped(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    """A file its host reads as JSON and then drops whole, for a shape stricter than JSON (Codex)."""
    host = hosts.of(file.host)
    if host is None or file.document is None:
        return
    drop = host.dropped(file.document)
    if drop is not None:
        yield ctx.finding("host/file-dropped", file, drop.keys, host=host.title, why=drop.why, fix=drop.fix,
                          variant=drop.effect)


# the premise of the rules of a whole file that concern one kind of host (RuleTable.rule's
# `premise`): asked of every file of a tree of projects, it found nothing in any
def _host_keeps_trust(ctx: Context, file: ConfigFile) -> bool:
    """A host that runs no hook without the user's trust (Host.trust_store)."""
    host = hosts.of(file.host)
    return host is not None and bool(host.trust_store)


@FILE_RULES.rule("host/hook-untrusted", premise=_host_keeps_trust)
def _hook_untrusted(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    """A hook its host skips, without a word and without asking, until the user trusts it (Codex:
    a project marked untrusted); hookwright's own are install/hook-untrusted, with the command that
    trusts them."""
    return _at_their_lines(ctx, file, "host/hook-untrusted", asked=False)


@FILE_RULES.rule("host/hook-not-yet-trusted", premise=_host_keeps_trust)
def _hook_not_yet_trusted(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    """A hook its host runs only once trusted, and whose trust its interactive session asks for
    before it runs (Codex: a project with no decision yet, a hook new, changed or moved): a fresh
    clone's hooks are not a defect, but a headless run skips them without a word."""
    return _at_their_lines(ctx, file, "host/hook-not-yet-trusted", asked=True)


def _at_their_lines(ctx: Context, file: ConfigFile, rule: str, asked: bool) -> Iterator[Finding]:
    """The hooks of the file, not ours, that its host skips until they are trusted, whose trust it
    asks for (`asked`) or not: each at the line that keeps it skipped where the host keeps one (a
    stale hash, a project's trust_level), the hook related, once for all the hooks one line keeps
    off; else at the hook."""
    host = hosts.of(file.host)
    if host is None or file.document is None or host.dropped(file.document) is not None:
        return
    at_line: dict[tuple[Path, int], list[Skipped]] = {}
    for skipped in host.skipped_in(file.path, file.scope, file.document.data):
        if host.owner(skipped.handler) is not None or bool(skipped.asked) != asked:
            continue
        if skipped.stale_at is not None:
            at_line.setdefault(skipped.stale_at, []).append(skipped)
            continue
        yield ctx.finding(rule, file, skipped.keys, host=host.title, event=skipped.event, why=skipped.why,
                          fix=skipped.fix, asked=skipped.asked)
    for (path, line), kept in at_line.items():
        related = [{"path": str(file.path), "line": place[0], "column": place[1], "message": "a hook it keeps off"}
                   for place in (file.position(one.keys) for one in kept)]
        first = kept[0]
        found = ctx.finding_at(rule, file, line, 1, related, "several" if len(kept) > 1 else None, host=host.title,
                               event=first.event, why=first.why, fix=first.fix, asked=first.asked, count=len(kept))
        yield found._replace(path=str(path))


@FILE_RULES.rule("host/hook-never-loaded")
def _hook_never_loaded(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    """A place of the file its host reads and skips (Host.never_loaded): an event it does not have,
    a handler type it does not run, a timeout it cuts."""
    host = hosts.of(file.host)
    if host is None or file.document is None or host.dropped(file.document) is not None:
        return
    for keys, why, fix in host.never_loaded(file.document.data):
        yield ctx.finding("host/hook-never-loaded", file, keys, at_key=len(keys) == 2, why=why, fix=fix)


@FILE_RULES.rule("host/hooks-switched-off")
def _hooks_switched_off(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    """A switch that turns off every hook of the host (Host.hooks_switch), in the file whose value
    counts: the last of the session's files that sets it (user, then the project's from its root
    down), or a file named alone. Said where the host has hooks in this run to switch off, and
    where no pack of ours is among them: install/hooks-off owns that line (one finding per defect,
    the more specific rule, as with install/ and host/hook-untrusted)."""
    host = hosts.of(file.host)
    said = host.hooks_switch(file.document.data) if host is not None and file.document is not None else None
    if host is None or said is None or said[1]:
        return
    together = file.scope != "given"
    setting = [f for f in ctx.files if f.host == host.name and f.document is not None and (f.scope != "given") == together
               and (together or f is file) and host.hooks_switch(f.document.data) is not None]
    if max(setting, key=lambda f: (f.scope == "project", len(f.path.parts))) is not file:
        return
    off = list({id(h.file): h.file for h in ctx.handlers if h.file.host == host.name
                and (h.file.scope != "given") == together}.values())
    if not off:
        return
    found = ctx.finding("host/hooks-switched-off", file, said[0], host=host.title, key=".".join(map(str, said[0])),
                        files=_some(off), related=[{"path": str(f.path), "line": 1, "column": 1,
                                               "message": "its hooks do not run"} for f in off])
    if together and any(h.owner for h in ctx.handlers if h.file.host == host.name):
        from .installs import hooks_off_places  # (only where a pack of ours may be among the hooks switched off)

        if (found.path, found.line) in hooks_off_places(ctx):
            return
    yield found


@FILE_RULES.rule("host/unrecognised-file")
def _unrecognised_file(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    if file.kind == "unknown" and file.error is None:
        yield ctx.finding("host/unrecognised-file", file, (), why=_why(file))


def _why(file: ConfigFile) -> str:
    if file.path.suffix.lower() in SCRIPT_SUFFIXES:
        return "a script, not an opencode plugin"
    return "not JSON" if ".json" not in file.path.name.lower() else "unknown format"


# ---- one enabled plugin --------------------------------------------------------------------------------

@PLUGIN_RULES.rule("host/plugin-not-installed")
def _plugin_not_installed(ctx: Context, plugin: Plugin) -> Iterator[Finding]:
    if plugin.install_path is None:
        yield ctx.finding("host/plugin-not-installed", plugin.enabled_in, ("enabledPlugins", plugin.id),
                          plugin=plugin.id)


