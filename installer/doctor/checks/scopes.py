"""Scopes: which files a session really reads, and which plugins its settings leave on. A hook in
a settings file the host does not read from the folder it starts in (the git root's project
settings from a subfolder, a package's settings from the root, a user-scope settings.local.json)
never runs there; a plugin the user enabled that a project or local file switches off takes its
hooks with it. Both are the host's own measured semantics (Host.files_never_read,
docs/hosts/claude-code.md#config-files); the rules keep `structure/` ids."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

from ... import hosts
from ...document import Keys
from ...hooks.events import SCOPE_ORDER
from ...hosts.claude import protocol as claude_protocol
from ...patterns import lazy
from .. import handler_facts, load
from ..discovery import installed_hook_files, known_marketplaces
from ..model import ConfigFile, Context, Finding, Handler, RuleTable
from ..scripts import intent

RULES = RuleTable()
SCRIPT_NAME = lazy(r"([\w.-]+\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl|ps1))(?![\w.])")


def check(ctx: Context) -> Iterator[Finding]:
    yield from RULES.run(ctx)


def _signature(handler: Handler) -> tuple[str, frozenset[str]]:
    """What tells one hook from another across files: its event, and its command, or the scripts
    it names (a copy in another folder reaches the same script by another path)."""
    command = handler.command if isinstance(handler.command, str) else ""
    scripts = frozenset(SCRIPT_NAME.findall(command))
    return handler.event, scripts or frozenset({" ".join(command.split())})


@RULES.rule("structure/settings-not-read")
def _settings_not_read(ctx: Context) -> Iterator[Finding]:
    """A hook in a file that the session started here does not read, and that no file it reads
    holds too (a subfolder's own complete settings are fine)."""
    if not ctx.unread:
        return  # (before the signatures: their pattern is compiled for a run with unread files only)
    read = {_signature(h) for h in ctx.handlers}
    for file, why in ctx.unread:
        if why in ("not-settings", "misplaced"):
            yield from _hooks_not_read_there(ctx, file, read, why)
            continue
        missing = []
        for handler in load.handlers(file):
            event, scripts = _signature(handler)
            if any(e == event and scripts & s for e, s in read):
                continue
            missing.append(event)
            keys = handler.keys + ("command",) if handler.command is not None else handler.keys
            folder = file.path.parent.parent
            yield ctx.finding("structure/settings-not-read", file, keys, variant=None if why == "above" else why,
                              event=event, start=str(file.project), folder=str(folder),
                              about=(str(file.path), handler.keys))
        guards = [event for event in missing if _can_refuse(event)]
        here = _start_settings(ctx, file) if guards and why == "above" else None
        if here is not None:  # the file a guard is to be copied into: where the change is made
            data = here.document.data if here.document is not None else None
            yield ctx.finding("structure/settings-not-read", here, ("hooks",) if isinstance(data, dict) and "hooks" in data
                              else (), at_key=True, variant="here", unread=str(file.path), count=len(missing),
                              events=", ".join(dict.fromkeys(missing)), about=(str(file.path), "here"))


def _hooks_not_read_there(ctx: Context, file: ConfigFile, read: set[tuple[str, frozenset[str]]],
                          why: str) -> Iterator[Finding]:
    """A "hooks" block in a file Claude Code reads no hooks from (its state file ~/.claude.json,
    and in it each project's entry; a `hooks.json` beside the settings; `.mcp.json`), or in a
    file of another host's format where that host reads none (`misplaced`: Codex's
    `.codex/hooks/hooks.json`), where no file it reads holds those hooks: one finding at the
    block, the move being the fix."""
    host = hosts.of(file.host) if why == "misplaced" else None
    words = {"host": host.title, "instead": host.read_instead(file.path)[1]} if host is not None else {}
    data = file.document.data if file.document is not None else None
    projects = data.get("projects") if isinstance(data, dict) else None
    blocks: list[tuple[Keys, Any]] = [(("hooks",), data.get("hooks"))] if isinstance(data, dict) else []
    if isinstance(projects, dict) and file.path.name == ".claude.json":
        blocks += [(("projects", name, "hooks"), entry.get("hooks")) for name, entry in projects.items()
                   if isinstance(entry, dict)]
    for keys, hooks in blocks:
        if not isinstance(hooks, dict) or not hooks:
            continue
        events = [str(event) for event, groups in hooks.items() if isinstance(groups, list) and groups]
        unread = [h for h in load.handlers(file) if h.keys[:len(keys)] == keys] if keys == ("hooks",) else []
        if unread and all(_signature(h) in read for h in unread):
            continue  # (the same hooks are in a file the session reads)
        yield ctx.finding("structure/settings-not-read", file, keys, at_key=True, variant=why,
                          events=", ".join(events) or "none", place=str(file.path), about=(str(file.path), keys),
                          **words)


def _can_refuse(event: str) -> bool:
    """Whether a hook on the event can refuse what happens (a guard), from Claude Code's protocol table."""
    row = claude_protocol.PROTOCOL.get(event)
    return row is not None and (row.permission_decisions is not None or
                                row.decisions is not None and not row.after_the_fact)


def _start_settings(ctx: Context, unread: ConfigFile) -> ConfigFile | None:
    """The project settings of the folder the session starts in, read, beside a file it does not read."""
    return next((f for f in ctx.files if f.kind == "claude-settings" and f.scope == "project" and f.project is not None
                 and f.project == unread.project and f.path.parent.parent == f.project and f.document is not None), None)


def _enabled(value: Any) -> bool:
    return value is True or (isinstance(value, list) and bool(value))


EVERY_PROJECT = frozenset({"user", "managed"})  # scopes whose settings a session reads in any project


def _sessions(ctx: Context) -> dict[Path | None, list[ConfigFile]]:
    """The settings files a session reads, per project of the run: the user's and the
    administrator's in every project, a project's own and local files in that project alone. A
    run over a tree of projects names many, and one project's `env` is not another's (chained
    across the run, each command's PATH was looked up in every file of the run: files times
    commands, eight seconds of the corpus tree four times over)."""
    settings = [f for f in ctx.files if f.scope in SCOPE_ORDER and f.document is not None
                and isinstance(f.document.data, dict)]
    everywhere = [f for f in settings if f.scope in EVERY_PROJECT]
    sessions: dict[Path | None, list[ConfigFile]] = {f.project: list(everywhere) for f in ctx.files}
    for file in settings:
        if file.scope not in EVERY_PROJECT:
            sessions[file.project].append(file)
    return sessions


def _by_precedence(files: list[ConfigFile], key: str, kind: str = "claude-settings") -> dict[str, list[tuple[ConfigFile, Any]]]:
    """Each name of a settings object (`env`, `enabledPlugins`) with the values one session's
    files of the kind give it, lowest precedence first: the last is the one that counts."""
    values: dict[str, list[tuple[ConfigFile, Any]]] = {}
    for file in sorted((f for f in files if f.kind == kind), key=lambda f: SCOPE_ORDER[f.scope]):
        given = file.document.data.get(key) if file.document else None
        for name, value in given.items() if isinstance(given, dict) else ():
            values.setdefault(name, []).append((file, value))
    return values


def _once_per_name(ctx: Context, key: str) -> Iterator[tuple[Path | None, str, list[tuple[ConfigFile, Any]]]]:
    """Each project, name and the name's chain in that project's sessions; a chain that only the
    files of every project make (the user's, the administrator's) given once for the run."""
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for project, files in ctx.once(_sessions).items():
        for name, chain in _by_precedence(files, key).items():
            mark = (name, tuple(id(file) for file, _ in chain))
            if mark not in seen:
                seen.add(mark)
                yield project, name, chain


def _paths_given(ctx: Context) -> dict[tuple[str, Path | None], list[tuple[ConfigFile, Any]] | None]:
    """The chain of `env.PATH` per kind of settings file and project (asked for each command)."""
    kinds = {f.kind for files in ctx.once(_sessions).values() for f in files}
    return {(kind, project): _by_precedence(files, "env", kind).get("PATH")
            for project, files in ctx.once(_sessions).items() for kind in kinds}


def settings_path(ctx: Context, file: ConfigFile) -> tuple[ConfigFile, str] | None:
    """The PATH the settings' "env" gives the hooks of this file's host, with the file that sets
    it (of the highest precedence, as the host merges "env": Host.settings_env_kind); None where
    none sets it, or where it names another variable (`$PATH:...`: not known here)."""
    host = hosts.of(file.host)
    if host is None or host.settings_env_kind is None:
        return None
    chain = ctx.once(_paths_given).get((host.settings_env_kind, file.project))
    if not chain:
        return None
    last, value = chain[-1]
    return (last, value) if isinstance(value, str) and value and "$" not in value and "~" not in value else None


# a refusal in a hook's code: an exit 2, or an answer that denies or blocks
REFUSES = lazy(r"""\bexit\(?\s*2\b|["'](?:permissionDecision|decision|behavior)["']\s*:\s*["'](?:deny|block)["']""",
               needs=("exit", "ecision", "behavior"))


@RULES.rule("structure/env-overridden")
def _env_overridden(ctx: Context) -> Iterator[Finding]:
    """`"env": {"MODE": "warn"}` in the local settings over the project's `"MODE": "block"`, where
    a guard refuses only when MODE is "block": the value of the highest file that sets a variable
    is the one a hook gets (measured on Claude Code 2.1.332, docs/hosts/claude-code.md#environment),
    so the guard the project meant never refuses here. At the overriding value."""
    scripts: dict[Path | None, dict[Path, str]] | None = None
    for project, name, chain in _once_per_name(ctx, "env"):
        chain = [(file, str(value)) for file, value in chain
                 if isinstance(value, (str, int, float)) and not isinstance(value, bool)]
        if not chain:
            continue
        last, value = chain[-1]
        meant = [(file, earlier) for file, earlier in chain[:-1] if earlier != value]
        for file, earlier in meant[-1:]:
            if scripts is None:
                scripts = _script_texts(ctx)
            guard = _guard_needing(scripts.get(project, {}), name, earlier, value)
            if guard is not None:
                yield ctx.finding("structure/env-overridden", last, ("env", name), name=name, value=json.dumps(value),
                                  earlier=json.dumps(earlier), scope=file.scope, script=guard.name,
                                  related=[{"path": str(file.path), "line": file.position(("env", name), False)[0],
                                            "column": 1, "message": f"the {file.scope} settings' value"},
                                           {"path": str(guard), "line": 1, "column": 1, "message": "the guard"}])


def _script_texts(ctx: Context) -> dict[Path | None, dict[Path, str]]:
    """Per project, the text of each readable script its sessions' hooks run (the user's hooks in
    every project), in the order of their handlers: each read once for all the variables a run
    overrides, not once per variable and handler (that was a third of a second on the corpus
    tree, whose projects override dozens of variables)."""
    texts: dict[Path, str] = {}
    own: dict[Path | None, list[tuple[int, Path]]] = {}
    everywhere: list[tuple[int, Path]] = []
    for order, handler in enumerate(ctx.handlers):
        for _, facts in handler_facts.script_facts(handler):
            if facts.path not in texts:
                texts[facts.path] = intent.text_of(facts.path) if facts.readable else ""
            wide = handler.file.scope in EVERY_PROJECT
            (everywhere if wide else own.setdefault(handler.file.project, [])).append((order, facts.path))
    return {project: {path: texts[path] for _, path in sorted(everywhere + own.get(project, []))}
            for project in {*own, *ctx.once(_sessions)}}


def _guard_needing(scripts: dict[Path, str], name: str, meant: str, given: str) -> Path | None:
    """The script of a hook that reads the variable and refuses where it holds `meant`: it compares
    it with that value (`== "block"`) and not with the value given (a default may be that), and it
    refuses somewhere."""
    if not any(name in text and meant in text for text in scripts.values()):
        return None  # (no pattern made of the values to compile)
    compared, given_too = (re.compile(rf"""(?:==|!=|\bis)\s*["']{re.escape(value)}["']|["']{re.escape(value)}["']\s*(?:==|!=)|"""
                                      rf"""\bin\s*[(\[{{][^)\]}}\n]*["']{re.escape(value)}["']""") for value in (meant, given))
    for path, text in scripts.items():
        if name in text and meant in text and compared.search(text) and not given_too.search(text) \
                and REFUSES.search(text):
            return path
    return None


@RULES.rule("structure/plugin-switched-off")
def _plugin_switched_off(ctx: Context) -> Iterator[Finding]:
    """`enabledPlugins: {"x@y": false}` in a file of higher precedence than one that enables the
    plugin (measured on Claude Code 2.1.332: a project's false switched off a plugin the user's
    settings enabled, and its hooks): the plugin's guards stop in this project without a word.
    Only for an installed plugin with hooks; managed settings are the administrator's choice."""
    for _, plugin_id, chain in _once_per_name(ctx, "enabledPlugins"):
        last, value = chain[-1]
        on = [file for file, earlier in chain[:-1] if _enabled(earlier)]
        if _enabled(value) or not on or last.scope == "managed" or ctx.project is None:
            continue
        hook_files = installed_hook_files(plugin_id, ctx.project)
        if hook_files:
            yield ctx.finding("structure/plugin-switched-off", last, ("enabledPlugins", plugin_id), at_key=True,
                              plugin=plugin_id, enabled_in=str(on[-1].path), scope=last.scope,
                              related=[{"path": str(on[-1].path), "line": on[-1].position(("enabledPlugins", plugin_id))[0],
                                        "column": 1, "message": "enabled here"},
                                       *({"path": str(p), "line": 1, "column": 1, "message": "its hooks do not run"}
                                         for p in hook_files)])


@RULES.rule("structure/plugin-marketplace-unknown")
def _plugin_marketplace_unknown(ctx: Context) -> Iterator[Finding]:
    """A plugin of a marketplace that no file on this machine declares either: it loads nowhere."""
    return (f for f in ctx.once(_marketplace_findings) if f.rule == "structure/plugin-marketplace-unknown")


@RULES.rule("structure/plugin-marketplace-not-shared")
def _plugin_marketplace_not_shared(ctx: Context) -> Iterator[Finding]:
    """A plugin of a marketplace only this machine knows: it loads for this user alone."""
    return (f for f in ctx.once(_marketplace_findings) if f.rule == "structure/plugin-marketplace-not-shared")


def _marketplace_findings(ctx: Context) -> list[Finding]:
    """The findings of both marketplace rules, worked out once for the two."""
    return list(_undeclared_marketplaces(ctx))


def _undeclared_marketplaces(ctx: Context) -> Iterator[Finding]:
    """A project's shared settings enable `plugin@marketplace` without declaring the marketplace
    (extraKnownMarketplaces): measured on Claude Code 2.1.332, a marketplace no file declares loads
    nothing, without a word; one the user's settings declare loads for that user only. The project
    is shared: what this machine knows does not travel with it."""
    for file in ctx.files:
        host = hosts.of(file.host)
        data = file.document.data if file.document is not None else None
        if host is None or not host.has_plugins or file.scope != "project" or file.kind != "claude-settings" \
                or file.path.name != "settings.json" or not isinstance(data, dict):
            continue
        enabled, declared = data.get("enabledPlugins"), data.get("extraKnownMarketplaces")
        declared = set(declared) if isinstance(declared, dict) else set()
        for plugin_id, value in enabled.items() if isinstance(enabled, dict) else ():
            _, at, market = plugin_id.rpartition("@")
            if not at or not _enabled(value) or market in declared or market in host.builtin_marketplaces:
                continue
            here = _declared_here(ctx, market)
            yield ctx.finding("structure/plugin-marketplace-not-shared" if here else "structure/plugin-marketplace-unknown",
                              file, ("enabledPlugins", plugin_id), at_key=True, plugin=plugin_id, marketplace=market,
                              where=here or "")


def _declared_here(ctx: Context, market: str) -> str | None:
    """Where this machine knows the marketplace from: a settings file of the user (or the
    administrator, or the local file) that declares it, or the marketplaces Claude Code added."""
    declared = ctx.once(_machine_marketplaces).get(market)
    return declared or ("the marketplaces and plugins added on this machine" if market in known_marketplaces() else None)


def _machine_marketplaces(ctx: Context) -> dict[str, str]:
    """Each marketplace a user, local or managed settings file of the run declares, with the first
    such file (asked for each plugin a project enables: a scan of the run's files for each was
    files times plugins, a second of the corpus tree four times over)."""
    declared: dict[str, str] = {}
    for file in ctx.files:
        data = file.document.data if file.document is not None else None
        if file.kind == "claude-settings" and file.scope in ("user", "local", "managed") and isinstance(data, dict) \
                and isinstance(data.get("extraKnownMarketplaces"), dict):
            for market in data["extraKnownMarketplaces"]:
                declared.setdefault(market, str(file.path))
    return declared
