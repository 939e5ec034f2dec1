"""opencode: will it load each plugin file, and does each plugin change calls the way opencode reads it?

Measured on opencode 1.18.33 (docs/hosts/opencode.md#plugin-loading): a plugins
folder's `*.js` and `*.ts` load, `.mjs`, `.cjs` and files in subfolders do not, all without a
word; a file with a syntax error is skipped silently; one export that is not a function drops
the whole file; `output.args = {...}` is ignored (only changes in place count). hookwright's
own plugins run a runtime beside the plugins folder, which must be there.

Two units, each with its table of rules, one function per rule: a plugin file (PLUGIN_RULES)
and an opencode.json(c) (CONFIG_RULES).
"""
from __future__ import annotations

import difflib
import json
import os
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ... import hosts, safe_read
from ...document import LineIndex
from ...errors import HookwrightError
from ...hooks.events import BUILTIN_TOOLS, CLAUDE_EVENTS
from ...hosts.base import describe
from ...hosts.opencode import PLUGIN_FOLDERS, TOOL_ARGUMENTS
from ...hosts.opencode import adapter as opencode
from ...hosts.opencode import user_dir as opencode_user_dir
from ...patterns import lazy
from .. import disk, handler_facts
from ..model import ConfigFile, Context, Finding, RuleTable, cached_property
from ..scripts import intent, keys, plugins
from ..scripts.plugins import UNKNOWN as UNKNOWN_ARGUMENT
from ..scripts.plugins import Place
from ..scripts.variables import unguarded_use

PLUGIN_RULES = RuleTable()  # the rules of one plugin file, one function each
CONFIG_RULES = RuleTable()  # the rules of one opencode config


ORDER_RULES = RuleTable()  # the rules of the plugins in the order opencode runs them


def check(ctx: Context) -> Iterator[Finding]:
    plugin_files = []
    for file in ctx.files:
        if file.kind == "opencode-plugin" and file.source is not None:
            plugin_files.append(PluginFile(ctx, file, file.source))
            yield from PLUGIN_RULES.run(plugin_files[-1])
        elif file.kind == "opencode-config" and (file.source is not None or file.error is not None):
            yield from CONFIG_RULES.run(OpencodeConfig(ctx, file, file.source))
    yield from ORDER_RULES.run(ctx, [plugin for plugin in plugin_files if plugin.foreign])


# ---- a plugin file -----------------------------------------------------------------------------------

class PluginFile:
    """One plugin file, as the plugin rules read it: hookwright's own (which runs a runtime) or
    another's (whose code is read)."""

    def __init__(self, ctx: Context, file: ConfigFile, source: bytes) -> None:
        self.ctx = ctx
        self.file = file
        self.source = source

    @cached_property
    def not_loaded_because(self) -> str | None:
        """Why opencode does not load it from the plugins folder it is in (a file a config lists
        loads wherever it is; one named on the command line elsewhere is judged for its code only)."""
        file = self.file
        why = None if file.plugin else opencode.why_not_loaded(file.path)
        in_plugins_folder = file.scope != "given" or file.path.parent.name in PLUGIN_FOLDERS or \
            file.path.parent.parent.name in PLUGIN_FOLDERS
        return why if in_plugins_folder else None

    @property
    def where_opencode_loads_it(self) -> bool:
        """Found in a plugins folder or listed by a config, or named on the command line in a
        plugins folder: what it imports and reads resolves from where it is (a file copied out of
        its project, named elsewhere, is judged for its code only)."""
        file = self.file
        return file.scope != "given" or file.plugin is not None or file.path.parent.name in PLUGIN_FOLDERS

    @cached_property
    def imported(self) -> bool:
        """A file in a subfolder that a plugin beside the subfolder imports (`./lib/util`): a
        helper module, where opencode expects one, not a plugin it fails to load."""
        path = self.file.path
        wanted = os.fsencode(f"./{path.parent.name}/{path.stem}")
        return any(other.path.parent == path.parent.parent and other.source is not None and wanted in other.source
                   for other in self.ctx.files if other.kind == "opencode-plugin")

    @cached_property
    def ours(self) -> dict[str, Any]:
        """What hookwright wrote into its own plugin (its pack and hooks); {} for another's."""
        data: dict[str, Any] = opencode.read_plugin(self.file.path, self.source).data
        return data

    @cached_property
    def facts(self) -> plugins.PluginFacts:
        """What another's plugin code does (its exports, its changes to a call's arguments), with
        what the functions it imports from its own modules throw (a refusal a catch here may swallow)."""
        source = self.source
        local = b"./" in source and b"import" in source
        thrown = self.thrown_elsewhere if local and (b"catch" in source or b"allSettled" in source) else frozenset()
        merged = self.hooks_elsewhere if local and (b"..." in source or b"Object.assign" in source) else frozenset()
        return plugins.analyse(self.file.path, source, thrown, merged)

    @cached_property
    def modules(self) -> list[tuple[str, str, Path, bytes]]:
        """(local name, the name it exports, its file, its text) of what this plugin imports from its own modules."""
        found = []
        for local, (module, name) in plugins.local_imports(self.file.path, self.source).items():
            path = _module_file(self.file.path.parent / module)
            source = safe_read.read_or_none(path, safe_read.SCRIPT) if path is not None else None
            if path is not None and source:
                found.append((local, name, path, source))
        return found

    @property
    def thrown_elsewhere(self) -> frozenset[str]:
        """The names this plugin binds to functions of its own modules that throw (`check`, `policy.check`)."""
        found = set()
        for local, name, path, source in self.modules:
            throwing = plugins.throwing_exports(path, source)
            found |= {f"{local}.{each}" for each in throwing} if name == "*" else {local} if name in throwing else set()
        return frozenset(found)

    @property
    def hooks_elsewhere(self) -> frozenset[tuple[str, str, bool]]:
        """(name as this plugin binds it, hook key, whether it throws) of the plugin functions it
        imports from its own modules."""
        found = set()
        for local, name, path, source in self.modules:
            for export, key, guard in plugins.plugin_hooks(path, source):
                if name == "*" or export == name:
                    found.add((f"{local}.{export}" if name == "*" else local, key, guard))
        return frozenset(found)

    @property
    def loaded(self) -> bool:
        return self.not_loaded_because is None

    @property
    def foreign(self) -> bool:
        """Loaded, and not hookwright's own: its code is what the rules read."""
        return self.loaded and not self.ours


MODULE_SUFFIXES = ("", ".ts", ".js", ".mjs", ".mts", "/index.ts", "/index.js")  # as Bun resolves an import


def _module_file(written: Path) -> Path | None:
    """The file a relative import names, as Bun finds it (with or without its suffix, or a folder's index)."""
    return next((Path(f"{written}{suffix}") for suffix in MODULE_SUFFIXES if disk.is_file(Path(f"{written}{suffix}"))),
                None)


@PLUGIN_RULES.rule("host/opencode-plugin-not-loaded", alone=True)
def _plugin_not_loaded(plugin: PluginFile) -> Iterator[Finding]:
    if plugin.not_loaded_because and not plugin.imported:
        yield plugin.ctx.finding_at("host/opencode-plugin-not-loaded", plugin.file, 1, 1, why=plugin.not_loaded_because)


@PLUGIN_RULES.rule("host/opencode-runtime-missing")
def _runtime_missing(plugin: PluginFile) -> Iterator[Finding]:
    """A hookwright plugin whose runtime (beside the plugins folder) is gone."""
    ours = plugin.ours if plugin.loaded else {}
    for index, hook in enumerate(ours.get("hooks") or []):
        script = (plugin.file.path.parent / str(hook.get("script", ""))).resolve()
        if not script.is_file():
            yield plugin.ctx.finding("host/opencode-runtime-missing", plugin.file, ("hooks", index), runtime=script,
                                     pack=ours.get("pack"), scope_args=_scope_args(plugin))


def _scope_args(plugin: PluginFile) -> str:
    """The options that name the plugin's place (its scope, and the project of a project's plugin)."""
    import shlex

    where = ["--host", "opencode", "--scope", "user" if plugin.file.scope == "user" else "project"]
    if plugin.file.scope != "user" and plugin.file.project is not None:
        where += ["--project", str(plugin.file.project)]
    return " ".join(map(shlex.quote, where))


@PLUGIN_RULES.rule("host/opencode-plugin-syntax-error", alone=True)
def _plugin_syntax_error(plugin: PluginFile) -> Iterator[Finding]:
    """opencode skips the file silently: nothing else in it counts."""
    if plugin.foreign and plugin.facts.syntax_error:
        yield plugin.ctx.finding_at("host/opencode-plugin-syntax-error", plugin.file, *plugin.facts.syntax_error)


@PLUGIN_RULES.rule("host/opencode-plugin-import-missing")
def _plugin_import_missing(plugin: PluginFile) -> Iterator[Finding]:
    """An import Bun resolves nowhere: a package no node_modules above the plugin holds and its
    config folder's package.json does not list, or a relative file that is not there. opencode
    leaves the plugin out without a word (measured on 1.18.33)."""
    judged = plugin.foreign and plugin.where_opencode_loads_it and not plugin.facts.syntax_error
    for spec, place in plugin.facts.imports if judged else ():
        package = opencode.imported_package(spec)
        if spec.startswith("."):
            if not any(disk.exists(candidate) for candidate in opencode.import_candidates(plugin.file.path, spec)):
                yield plugin.ctx.finding_at("host/opencode-plugin-import-missing", plugin.file, *place, variant="file",
                                            spec=spec)
        elif package is not None and not _installed(plugin, package):
            listed = _listed_in(plugin, package)
            yield plugin.ctx.finding_at("host/opencode-plugin-import-missing", plugin.file, *place,
                                        variant="not-installed" if listed else None, spec=spec, package=package,
                                        manifest=listed, config=plugin.file.path.parent.parent)


def _installed(plugin: PluginFile, package: str) -> bool:
    """In a node_modules folder above the plugin, or listed by its config folder's package.json
    (which opencode installs at start-up)."""
    folder = plugin.file.path.parent
    for above in (folder, *folder.parents):
        if disk.exists(above / "node_modules" / package):
            return True
    return _depends_on(plugin.file.path.parent.parent / "package.json", package)


def _listed_in(plugin: PluginFile, package: str) -> Path | None:
    """A package.json above the config folder (the project's) that lists the package: it is there
    once someone installs the project's packages, which opencode does not do."""
    for above in plugin.file.path.parent.parent.parents:
        if _depends_on(above / "package.json", package):
            return above / "package.json"
        if plugin.file.project is not None and above == plugin.file.project:
            break
    return None


def _depends_on(manifest: Path, package: str) -> bool:
    raw = safe_read.read_or_none(manifest, safe_read.CONFIG) if disk.is_file(manifest) else None
    try:
        data = json.loads(raw) if raw is not None else None
    except ValueError:
        return False
    return isinstance(data, dict) and any(isinstance(data.get(key), dict) and package in data[key] for key in (
        "dependencies", "devDependencies", "optionalDependencies", "peerDependencies"))


@PLUGIN_RULES.rule("host/opencode-plugin-throws-at-load")
def _plugin_throws_at_load(plugin: PluginFile) -> Iterator[Finding]:
    """A file read while the plugin loads, by a path relative to opencode's working folder (the
    project, where opencode starts), that is not there: the read throws and opencode leaves the
    plugin out, with one ERROR line for a throw in the plugin function and none for one at the
    module's top level (measured on 1.18.33)."""
    project = plugin.file.project
    if project is None or plugin.file.scope == "given" or not plugin.foreign:
        return
    for read in plugin.facts.load_reads:
        if disk.exists(project / read.path):
            problem = _not_json(project / read.path) if read.parsed else None
            if problem is not None:
                yield plugin.ctx.finding_at("host/opencode-plugin-throws-at-load", plugin.file, *read.place,
                                            variant="not-json", path=read.path, problem=problem)
            continue
        beside = _sample_of(project / read.path) if read.joined else next(
            (f for f in (plugin.file.path.parent / read.path, plugin.file.path.parent.parent / read.path)
             if disk.exists(f)), None)
        yield plugin.ctx.finding_at("host/opencode-plugin-throws-at-load", plugin.file, *read.place,
                                    variant="joined" if read.joined else "top-level" if not read.in_plugin else None,
                                    path=read.path, project=project,
                                    there=f" ({_shown(beside, project)} is there)" if beside is not None else "",
                                    fix=_shown(beside, project) if beside is not None and not read.joined else read.path)


def _not_json(path: Path) -> str | None:
    """Why JSON.parse would throw on the file's text (JavaScript's JSON is Python's, less NaN and
    Infinity), or None; a file too big or unreadable to tell is left alone."""
    raw = safe_read.read_or_none(path, safe_read.CONFIG)
    if raw is None:
        return None
    try:
        json.loads(raw.decode("utf-8-sig"), parse_constant=_no_constant)  # (a BOM: not judged, not measured)
    except UnicodeDecodeError:
        return None
    except ValueError as err:
        return f"{err.msg} at line {err.lineno}, column {err.colno}" if isinstance(err, json.JSONDecodeError) else str(err)
    return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _sample_of(path: Path) -> Path | None:
    """A file beside a missing one that stands for it (`policy.example.json`, `policy.json.sample`)."""
    try:
        names = sorted(os.listdir(path.parent))
    except OSError:
        return None
    stem = path.name.split(".")[0]
    return next((path.parent / name for name in names if name != path.name and name.startswith(stem + ".")
                 and any(word in name for word in ("example", "sample", "template", "dist", "default"))), None)


def _shown(path: Path, project: Path) -> str:
    try:
        return path.relative_to(project).as_posix()
    except ValueError:
        return str(path)


@PLUGIN_RULES.rule("host/opencode-plugin-export-not-function")
def _export_not_function(plugin: PluginFile) -> Iterator[Finding]:
    for export in plugin.facts.exports if plugin.foreign else ():
        if export.what:
            yield plugin.ctx.finding_at("host/opencode-plugin-export-not-function", plugin.file, *export.place,
                                        variant="class" if export.what == "a class" else "no-server"
                                        if export.what == "an object without server()" else None, name=export.name,
                                        what=export.what)


@PLUGIN_RULES.rule("host/opencode-args-reassigned")
def _args_reassigned(plugin: PluginFile) -> Iterator[Finding]:
    yield from _at_each(plugin, "host/opencode-args-reassigned", plugin.facts.reassigns)
    for key, place in plugin.facts.local_changes if plugin.foreign else ():
        yield plugin.ctx.finding_at("host/opencode-args-reassigned", plugin.file, *place, variant="copy", name=key)


def _at_each(plugin: PluginFile, rule_id: str, places: Iterable[Place]) -> Iterator[Finding]:
    """A finding of the rule at each place, in a plugin that is not ours."""
    for place in places if plugin.foreign else ():
        yield plugin.ctx.finding_at(rule_id, plugin.file, *place)


@PLUGIN_RULES.rule("host/opencode-hook-never-called")
def _hook_never_called(plugin: PluginFile) -> Iterator[Finding]:
    """A function a plugin returns under a key opencode has no hook for: a dotted one
    (`tool.before`) or a Claude Code event (`PreToolUse`). opencode calls none of them, without a word."""
    for key, place in plugin.facts.hook_places if plugin.foreign else ():
        if key in CLAUDE_EVENTS:
            yield plugin.ctx.finding_at("host/opencode-hook-never-called", plugin.file, *place, variant="claude",
                                        key=key, own=opencode.HOOK_FOR_CLAUDE_EVENT.get(key, "event"))
        elif key in opencode.NEVER_TRIGGERED:
            yield plugin.ctx.finding_at("host/opencode-hook-never-called", plugin.file, *place,
                                        variant="not-triggered", key=key, own="tool.execute.before")
        elif key in opencode.BUS_EVENTS:
            yield plugin.ctx.finding_at("host/opencode-hook-never-called", plugin.file, *place, variant="bus-event",
                                        key=key, own="event")
        elif "." in key and key not in opencode.HOOK_KEYS:
            close = difflib.get_close_matches(key, opencode.HOOK_KEYS, n=1)
            yield plugin.ctx.finding_at("host/opencode-hook-never-called", plugin.file, *place,
                                        variant=None if close else "unlike", key=key, own=close[0] if close else None)


    for key, place, outer in plugin.facts.unreturned if plugin.foreign else ():
        if key in opencode.HOOK_KEYS:
            yield plugin.ctx.finding_at("host/opencode-hook-never-called", plugin.file, *place,
                                        variant="nested" if outer else "not-returned", key=key, outer=outer)

    for key, place in plugin.facts.compared_types if plugin.foreign else ():
        if key in opencode.HOOK_KEYS and key not in opencode.BUS_EVENTS:
            yield plugin.ctx.finding_at("host/opencode-hook-never-called", plugin.file, *place, variant="hook-as-event",
                                        key=key)


@PLUGIN_RULES.rule("host/opencode-plugin-no-id")
def _plugin_no_id(plugin: PluginFile) -> Iterator[Finding]:
    if plugin.foreign and plugin.facts.default_without_id:
        yield plugin.ctx.finding_at("host/opencode-plugin-no-id", plugin.file, *plugin.facts.default_without_id)


@PLUGIN_RULES.rule("host/opencode-plugin-commonjs")
def _plugin_commonjs(plugin: PluginFile) -> Iterator[Finding]:
    if plugin.foreign and plugin.facts.commonjs and not plugin.facts.syntax_error:
        yield plugin.ctx.finding_at("host/opencode-plugin-commonjs", plugin.file, *plugin.facts.commonjs)


def _rule_at_each_place(rule_id: str, places: Callable[[plugins.PluginFacts], Iterable[Place]]) -> None:
    """Registers a rule that reports each of these places of a plugin's code (not ours)."""
    PLUGIN_RULES.rule(rule_id)(lambda plugin: _at_each(plugin, rule_id, places(plugin.facts)))


_rule_at_each_place("host/opencode-process-exit", lambda facts: facts.exits)  # (it ends opencode itself)
_rule_at_each_place("host/opencode-return-does-not-block", lambda facts: facts.returns)


@PLUGIN_RULES.rule("host/opencode-refusal-caught")
def _refusal_caught(plugin: PluginFile) -> Iterator[Finding]:
    """A refusal of tool.execute.before that the hook's own catch turns into a pass (plugins.Caught)."""
    for caught in plugin.facts.caught if plugin.foreign else ():
        if caught.what == "call":  # (a formatter's failure swallowed is no refusal lost: a guard's is)
            guard = next((script for script in bridged_scripts(plugin) if keys.analyse(script).exits_2()), None)
            if guard is not None:
                yield plugin.ctx.finding_at("host/opencode-refusal-caught", plugin.file, *caught.place, variant="call",
                                            script=guard.name, refusal=caught.line)
            continue
        yield plugin.ctx.finding_at("host/opencode-refusal-caught", plugin.file, *caught.place,
                                    variant=None if caught.what == "shell" else "imported" if caught.what == "function"
                                    and not caught.thrown else caught.what, refusal=caught.line,
                                    catch=caught.catch.line, name=caught.name, thrown=caught.thrown)


@PLUGIN_RULES.rule("host/opencode-path-compared-relative")
def _path_compared_relative(plugin: PluginFile) -> Iterator[Finding]:
    """An absolute path argument tested against relative names (plugins.RelativeTest)."""
    for test in plugin.facts.relative_tests if plugin.foreign else ():
        yield plugin.ctx.finding_at("host/opencode-path-compared-relative", plugin.file, *test.place,
                                    argument=test.argument, written=test.written)


@PLUGIN_RULES.rule("host/opencode-hook-twice")
def _hook_twice(plugin: PluginFile) -> Iterator[Finding]:
    """A hook key the returned object holds twice: the earlier function never runs (plugins.Twice)."""
    for twice in plugin.facts.twice if plugin.foreign else ():
        yield plugin.ctx.finding_at("host/opencode-hook-twice", plugin.file, *twice.lost,
                                    variant="guard" if twice.guard else None, key=twice.key, kept=twice.kept.line)


@PLUGIN_RULES.rule("host/opencode-refusal-unread")
def _refusal_unread(plugin: PluginFile) -> Iterator[Finding]:
    """A refusal tool.execute.before writes where opencode does not read it (plugins.Unread)."""
    for unread in plugin.facts.unread if plugin.foreign else ():
        yield plugin.ctx.finding_at("host/opencode-refusal-unread", plugin.file, *unread.place,
                                    variant=None if unread.what == "field" else unread.what, name=unread.name)


@PLUGIN_RULES.rule("host/opencode-promise-not-awaited")
def _promise_not_awaited(plugin: PluginFile) -> Iterator[Finding]:
    """A promise or a callback the hook starts and never waits for, whose throw or change of the
    arguments comes once opencode has gone on with the call."""
    for lost in plugin.facts.lost if plugin.foreign else ():
        yield plugin.ctx.finding_at("host/opencode-promise-not-awaited", plugin.file, *lost.place,
                                    variant=None if lost.what == "promise" else lost.what)


@PLUGIN_RULES.rule("host/opencode-after-the-call")
def _after_the_call(plugin: PluginFile) -> Iterator[Finding]:
    """A throw in tool.execute.after, or a change to its input.args: the tool has already run."""
    for what, place in plugin.facts.after_the_call if plugin.foreign else ():
        if what != "guard":
            yield plugin.ctx.finding_at("host/opencode-after-the-call", plugin.file, *place,
                                        variant="args" if what == "args" else None)


@PLUGIN_RULES.rule("host/opencode-guard-after-the-call")
def _guard_after_the_call(plugin: PluginFile) -> Iterator[Finding]:
    """A tool.execute.after that throws on the call's arguments and never reads the tool's output:
    a guard, placed where the tool has already run."""
    for what, place in plugin.facts.after_the_call if plugin.foreign else ():
        if what == "guard":
            yield plugin.ctx.finding_at("host/opencode-guard-after-the-call", plugin.file, *place)


# what Claude Code calls a tool, for the opencode tool of that name (WebFetch: webfetch)
OPENCODE_TOOL_OF = {claude_name: own for own, claude_name in opencode.CLAUDE_TOOL_NAMES.items()}
# Claude Code's argument names, for opencode's camelCase ones (docs/hosts/opencode.md#tool-names)
# Claude Code's tools opencode has none of (MultiEdit, LS...), as a plugin would write them
CLAUDE_ONLY_TOOLS = frozenset(name.lower() for name in BUILTIN_TOOLS) - set(opencode.OWN_TOOLS)
CAMEL_CASE_ARGUMENTS = {"file_path": "filePath", "old_string": "oldString", "new_string": "newString",
                        "replace_all": "replaceAll", "notebook_path": "notebookPath"}


@PLUGIN_RULES.rule("host/opencode-tool-name")
def _tool_name(plugin: PluginFile) -> Iterator[Finding]:
    """input.tool compared with Claude Code's name for a tool (`Bash`, `mcp__srv__x`): opencode's
    are lower case, and an MCP tool is `<server>_<tool>` (measured on opencode 1.18.33)."""
    compared = {name for name, _ in plugin.facts.tool_names}
    servers = _mcp_servers(plugin.ctx) if plugin.foreign and plugin.facts.tool_names else []
    for name, place in plugin.facts.tool_names if plugin.foreign else ():
        if name in opencode.OWN_TOOLS:
            continue
        own = OPENCODE_TOOL_OF.get(name) or (name.lower() if name.lower() in opencode.OWN_TOOLS else None)
        mcp = opencode.mcp_tool_name(*name[5:].split("__", 1)) if name.startswith("mcp__") and "__" in name[5:] \
            else None
        replaced = opencode.tool_name(name) if not (own or mcp) else None  # (`my.docs_read`: my_docs_read)
        if replaced == name:
            replaced = None
        if (own or mcp or replaced) and (own or mcp or replaced) not in compared:  # (`t === "bash" || t === "Bash"` still runs)
            yield plugin.ctx.finding_at("host/opencode-tool-name", plugin.file, *place,
                                        variant="mcp" if mcp else "replaced" if replaced else None, name=name,
                                        own=own or mcp or replaced)
        elif not (own or mcp or replaced) and (server := _server_spelt_otherwise(name, servers)) is not None:
            written = opencode.tool_name(server) + name[len(opencode.tool_name(server)):]
            if written not in compared:
                yield plugin.ctx.finding_at("host/opencode-tool-name", plugin.file, *place, variant="server",
                                            name=name, server=server, own=written)
        elif not (own or mcp or replaced) and _never_offered(plugin, name, servers):
            near = opencode.OTHER_HOSTS_TOOL_NAMES.get(name.lower())
            if near not in compared:
                yield plugin.ctx.finding_at("host/opencode-tool-name", plugin.file, *place,
                                            variant="other" if near else "unknown", name=name, own=near,
                                            tools=", ".join(t for t in opencode.OWN_TOOLS if t not in ("invalid", "batch")))


def _never_offered(plugin: PluginFile, name: str, servers: list[str]) -> bool:
    """A tool name no session of this project can have in input.tool: not one of opencode's own,
    nor a custom tool the config folders or a plugin add, nor (for a name with `_` or `-`) an MCP
    server's or another host's name opencode could share with one; while an npm plugin, which may
    add any tool, is listed, only another host's name (OTHER_HOSTS_TOOL_NAMES) is claimed."""
    extra = plugin.ctx.once(_tools_beyond_builtin)
    if extra is not None and (name in extra or name.lower() in extra):
        return False
    if extra is None or "_" in name or "-" in name:  # (an MCP tool is <server>_<tool>)
        return name.lower() in opencode.OTHER_HOSTS_TOOL_NAMES and not any(
            name.startswith(opencode.tool_name(server) + "_") for server in servers)
    return bool(name) and name.isascii() and not name.startswith(("mcp", "*"))


def _tools_beyond_builtin(ctx: Context) -> frozenset[str] | None:
    """The tools beyond opencode's own a session can be offered in this run's projects (custom
    tools, plugins' `tool` hooks); None when they cannot be known (an npm plugin is listed, or a
    plugin adds tools under names its code does not spell out)."""
    folders = {opencode_user_dir()}
    for file in ctx.files:
        if file.kind == "opencode-plugin":
            folders.add(file.path.parent.parent)
            if file.source is not None and b'tool' in file.source and "tool" in plugins.analyse(
                    file.path, file.source).hooks:
                return None
        elif file.kind == "opencode-config":
            folders.add(file.path.parent if file.path.parent.name == ".opencode" else file.path.parent / ".opencode")
            if file.source is not None and b'"plugin"' in file.source and file.error is None:
                try:
                    data = opencode.read_config(file.path, file.source)
                except (ValueError, HookwrightError):
                    return None
                if any(opencode.local_plugin(file.path, entry) is None for entry in opencode.plugin_specs(data)):
                    return None
        if file.project is not None:
            folders.add(file.project / ".opencode")
    return opencode.custom_tools(folders)


@PLUGIN_RULES.rule("host/opencode-tool-prefix-name")
def _tool_prefix_name(plugin: PluginFile) -> Iterator[Finding]:
    """input.tool.startsWith("my.docs_"): opencode writes that server's tools `my_docs_<tool>`
    (every character outside [A-Za-z0-9_-] made `_`), so no tool name starts so; and Claude Code's
    form of an MCP server's tools (`mcp__srv__`), which no opencode tool name has."""
    for prefix, place in plugin.facts.prefix_places if plugin.foreign else ():
        if prefix.startswith(CLAUDE_MCP_PREFIX):
            own = _opencode_mcp_prefix(prefix)
            if own not in plugin.facts.tool_prefixes:
                yield plugin.ctx.finding_at("host/opencode-tool-prefix-name", plugin.file, *place, variant="mcp",
                                            prefix=prefix, own=own or "<server>_")
            continue
        replaced = opencode.tool_name(prefix)
        if replaced != prefix and replaced not in plugin.facts.tool_prefixes:
            yield plugin.ctx.finding_at("host/opencode-tool-prefix-name", plugin.file, *place, prefix=prefix,
                                        own=replaced)
            continue
        server = _server_spelt_otherwise(prefix, _mcp_servers(plugin.ctx))
        if server is not None and opencode.tool_name(server) + "_" not in plugin.facts.tool_prefixes:
            yield plugin.ctx.finding_at("host/opencode-tool-prefix-name", plugin.file, *place, variant="server",
                                        prefix=prefix, server=server, own=opencode.tool_name(server) + "_")


def _server_spelt_otherwise(name: str, servers: Iterable[str]) -> str | None:
    """The configured MCP server whose tools' names `name` (a tool's name or a prefix of one) means,
    spelt otherwise than opencode writes them: in another case, or with `_` for a `-` or `.` opencode
    keeps or replaces (`my_db_` for the server `my-db`, whose tools are `my-db_<tool>`); None if it
    names none, or one rightly."""
    for server in servers:
        own = opencode.tool_name(server) + "_"
        if name.startswith(own) or len(name) < len(own):
            continue
        if _folded(name[:len(own)]) == _folded(own):
            return server
    return None


SEPARATORS = lazy(r"[-_.]")  # (folded alike when a server's name is compared with a plugin's spelling)
CLAUDE_MCP_SERVER = lazy(r"mcp__([A-Za-z0-9][\w.-]*?)__")  # the server in Claude Code's form of an MCP tool name


def _folded(name: str) -> str:
    folded: str = SEPARATORS.sub("_", name.lower())
    return folded


def _mcp_servers(ctx: Context) -> list[str]:
    """The MCP servers of every opencode config doctor read in this run (the user's, the project's)."""
    servers: list[str] = []
    for file in ctx.files:
        if file.kind == "opencode-config" and file.source is not None and file.error is None:
            try:
                data = opencode.read_config(file.path, file.source)
            except (ValueError, HookwrightError):
                continue
            mcp = data.get("mcp") if isinstance(data, dict) else None
            servers += [name for name in mcp if isinstance(name, str)] if isinstance(mcp, dict) else []
    return servers


CLAUDE_MCP_PREFIX = "mcp__"  # Claude Code's MCP tool names: mcp__<server>__<tool>


def _opencode_mcp_prefix(claude: str) -> str | None:
    """opencode's prefix of the tools of the server a Claude Code prefix names (`mcp__my.srv__`:
    `my_srv_`); None where it names none (`mcp__`)."""
    server = claude[len(CLAUDE_MCP_PREFIX):].split("__", 1)[0]
    return opencode.tool_name(server) + "_" if server else None


@PLUGIN_RULES.rule("host/opencode-tool-pattern")
def _tool_pattern(plugin: PluginFile) -> Iterator[Finding]:
    """A regex or substring test of input.tool written for Claude Code's names (`/^mcp__srv__/`,
    `/^(Bash|Edit)$/`, `.includes("mcp__")`) that none of opencode's own names passes: the hook
    never runs for the tools it means (opencode's names: docs/hosts/opencode.md#tool-names)."""
    for test in plugin.facts.tool_patterns if plugin.foreign else ():
        try:
            pattern = re.compile(test.pattern, re.I if test.ignore_case else 0)
        except (re.error, RecursionError):
            continue  # (a JavaScript form Python's engine does not take: doctor says nothing)
        if any(pattern.search(own) for own in opencode.OWN_TOOLS):
            continue
        if CLAUDE_MCP_PREFIX in test.pattern.replace("\\", ""):
            server = CLAUDE_MCP_SERVER.search(test.pattern.replace("\\", ""))
            own = _opencode_mcp_prefix(f"mcp__{server.group(1)}__") if server else None
            if own is None or not pattern.search(own + "x"):
                yield plugin.ctx.finding_at("host/opencode-tool-pattern", plugin.file, *test.place, variant="mcp",
                                            written=test.written, own=f"{own}<tool>" if own else "<server>_<tool>")
            continue
        claude = [name for name in BUILTIN_TOOLS if pattern.search(name) and name in OPENCODE_TOOL_OF]
        extra = plugin.ctx.once(_tools_beyond_builtin) or frozenset()
        other = [name for name in opencode.OTHER_HOSTS_TOOL_NAMES if pattern.fullmatch(name) and name not in extra]
        if claude:
            yield plugin.ctx.finding_at("host/opencode-tool-pattern", plugin.file, *test.place, written=test.written,
                                        names=", ".join(claude), own=", ".join(OPENCODE_TOOL_OF[n] for n in claude))
        elif other:  # (`/^(shell|run_shell_command)$/`: whole names, of other hosts alone)
            yield plugin.ctx.finding_at("host/opencode-tool-pattern", plugin.file, *test.place, variant="other",
                                        written=test.written, names=", ".join(other),
                                        own=", ".join(dict.fromkeys(opencode.OTHER_HOSTS_TOOL_NAMES[n] for n in other)))


@PLUGIN_RULES.rule("host/opencode-argument-name")
def _argument_name(plugin: PluginFile) -> Iterator[Finding]:
    """output.args.file_path: Claude Code's name for an argument opencode calls filePath. An MCP
    server's arguments keep the server's names (measured on 1.18.33: file_path set on `fs_write_file`
    reached the server), so a hook that picks other tools than opencode's, by name or by a prefix
    none of opencode's has (`input.tool.startsWith("fs_")`), may be changing theirs."""
    others = {name for name in plugin.facts.tools or () if name not in opencode.OWN_TOOLS and name not in OPENCODE_TOOL_OF
              and not name.startswith("mcp__") and name not in BUILTIN_TOOLS}  # (LS, MultiEdit: no tool here at all)
    servers = {prefix for prefix in plugin.facts.tool_prefixes if not any(own.startswith(prefix)
                                                                          for own in opencode.OWN_TOOLS)}
    if others or servers:
        return
    for write in plugin.facts.writes if plugin.foreign else ():
        if write.key in CAMEL_CASE_ARGUMENTS:
            yield plugin.ctx.finding_at("host/opencode-argument-name", plugin.file, *write.place, name=write.key,
                                        own=CAMEL_CASE_ARGUMENTS[write.key])


@PLUGIN_RULES.rule("host/opencode-argument-not-there")
def _argument_not_there(plugin: PluginFile) -> Iterator[Finding]:
    """output.args.file_path read in a hook that picks read: opencode's read takes filePath, so
    the value is undefined and a check on it never holds. Only where the hook picks opencode's own
    tools by name (those 1.18.33 does not have, like multiedit, never come), none by a prefix (an
    MCP server's tools take the server's names)."""
    for place in plugin.facts.input_args if plugin.foreign else ():
        yield plugin.ctx.finding_at("host/opencode-argument-not-there", plugin.file, *place, variant="input")
    for read in plugin.facts.reads if plugin.foreign else ():
        tools = read.tools or frozenset()
        known = tools & TOOL_ARGUMENTS.keys()
        rest = tools - known  # (opencode's own tools whose arguments are not known, or no tool of its)
        if not known or read.prefixed or read.key == UNKNOWN_ARGUMENT or \
                any(name not in opencode.OWN_TOOLS and name.lower() not in CLAUDE_ONLY_TOOLS for name in rest):
            continue
        taken = {argument for tool in known for argument in TOOL_ARGUMENTS[tool]}
        own = CAMEL_CASE_ARGUMENTS.get(read.key)
        if read.key in taken or rest and own is None:
            continue
        yield plugin.ctx.finding_at("host/opencode-argument-not-there", plugin.file, *read.place,
                                    variant="claude" if own in taken else None, name=read.key, own=own,
                                    tools=", ".join(sorted(known)), taken=", ".join(sorted(taken)))


@PLUGIN_RULES.rule("host/opencode-guard-misses-tools")
def _plugin_guard_misses_tools(plugin: PluginFile) -> Iterator[Finding]:
    """A plugin's guard of files (its tool.execute.before throws, and reads the call's filePath)
    that picks some of opencode's tools that change a file but not all (Host.file_changing_tools,
    measured): the others change the protected file unguarded. Said at its first test of such a
    tool's name. A bridge that hands the call to a script is not judged here (the script decides,
    and may be about new files only)."""
    guards, tools = plugin.facts.guards, opencode.HOST.file_changing_tools
    if not plugin.foreign or guards is None or guards.but or guards.prefixed or plugin.facts.handed:
        return
    picked = [tool for tool in tools if tool in guards.names]
    missed = [tool for tool in tools if tool not in guards.names]
    if not picked or not missed or not any(read.key in FILE_ARGUMENTS and read.tools and read.tools & set(picked)
                                           for read in plugin.facts.reads):
        return
    place = next(place for name, place in plugin.facts.tool_names if name in picked)
    yield plugin.ctx.finding_at("host/opencode-guard-misses-tools", plugin.file, *place,
                                matched=", ".join(picked), missed=", ".join(missed), every=", ".join(tools))


FILE_ARGUMENTS = frozenset({"filePath", "file_path", "path"})  # what a guard of files reads of the call


# ---- a plugin that runs a script written for Claude Code -------------------------------------------

# a name or path in the plugin's text: a script's (`"protect-secrets.sh"`, `${dir}/.claude/hooks/x.py`), a folder's
PLUGIN_STRING = lazy(r"""(?P<q>["'`])(?P<text>[^"'`\n]{1,300})(?P=q)""")
BRIDGED_SUFFIXES = (".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl")
CLAUDE_SETTINGS = ".claude/settings"  # named by a bridge that reads the hooks there and runs them
# a Claude Code argument name read as a field (`.file_path`, `["file_path"]`, `.get("file_path")`, jq's `.file_path`)
CLAUDE_ARGUMENT_READ = lazy(r"""(?:\.get\(\s*|\[\s*)?(?P<q>["']?)(?<![\w$])\.?(?P<field>file_path|old_string|new_string|"""
                            r"""replace_all|notebook_path)(?P=q)""", needs=("_path", "_string", "_all"))


def bridged_scripts(plugin: PluginFile) -> list[Path]:
    """The scripts a plugin names that are there: each name or path in its text, against the
    project, the plugin's folder and each folder the plugin names (`.claude/hooks` + `"guard.sh"`)."""
    text = plugin.source.decode("utf-8", "replace")
    strings = [m["text"].rsplit("}", 1)[-1] for m in PLUGIN_STRING.finditer(text)]
    # a script's path, alone or as a word of a command (`"python3 .claude/hooks/guard.py"`)
    named = [word.lstrip("/") for s in strings for word in s.split() if word.endswith(BRIDGED_SUFFIXES)]
    folders = [s.strip("/") for s in strings if "/" in s.strip("/") or s.startswith(".") and " " not in s]
    bases = [b for b in (plugin.file.project, plugin.file.path.parent, plugin.file.path.parent.parent) if b is not None]
    found: dict[Path, None] = {}
    for name in named:
        for base in bases:
            for folder in ("", *folders):
                candidate = base / folder / name
                if disk.is_file(candidate):
                    found[candidate] = None
    if not found and CLAUDE_SETTINGS in text:  # a bridge that runs every hook the project's settings hold
        for handler in plugin.ctx.handlers:
            if handler.file.kind == "claude-settings" and handler.file.project == plugin.file.project \
                    and handler.event == "PreToolUse":
                found.update((facts.path, None) for _, facts in handler_facts.script_facts(handler))
    return [path for path in found if path != plugin.file.path]


@PLUGIN_RULES.rule("host/opencode-script-reads-claude-names")
def _script_reads_claude_names(plugin: PluginFile) -> Iterator[Finding]:
    """`{tool_name, tool_input: output.args}` handed to a script written for Claude Code: opencode
    names the arguments filePath, oldString... (docs/hosts/opencode.md#tool-names), so the script's
    `tool_input.file_path` is always missing; and `tool_name: input.tool` is `read`, not `Read`.
    The plugin is one more host of the script: its names are what the script gets."""
    handed = [h for h in plugin.facts.handed if plugin.foreign and (h.args or h.tool_name)]
    tools = plugin.facts.tools
    if not handed or tools is not None and not tools & {"read", "write", "edit", "lsp", "bash"}:
        return
    for script in bridged_scripts(plugin):
        raw = safe_read.read_or_none(script, safe_read.SCRIPT)
        if raw is None or b"tool_input" not in raw and b"tool_name" not in raw:
            continue
        facts = keys.analyse(script)
        code = keys.strip_comments(raw.decode("utf-8", "replace"), facts.language)
        index = LineIndex(code)
        for h in handed:
            for m in CLAUDE_ARGUMENT_READ.finditer(code) if h.args and "tool_input" in code else ():
                field = m["field"]
                own = CAMEL_CASE_ARGUMENTS[field]
                if field in h.renamed or own in code or tools is not None and not any(
                        own in TOOL_ARGUMENTS.get(tool, ()) for tool in tools):
                    continue
                line, column = index.at(m.start("field"))
                yield plugin.ctx.finding_at("host/opencode-script-reads-claude-names", plugin.file, *h.place,
                                            script=script, field=field, own=own)
                yield plugin.ctx.finding_at("host/opencode-script-reads-claude-names", plugin.file, line, column,
                                            variant="script", plugin=plugin.file.path, field=field,
                                            own=own)._replace(path=str(script))
                break
            yield from _answer_not_read(plugin, h, script, facts)
            names = [site for site in facts.compared if site.what.startswith("tool_name:")]
            if h.tool_name is not None and names and all(site.what.split(":", 1)[1] in BUILTIN_TOOLS for site in names):
                site = names[0]
                yield plugin.ctx.finding_at("host/opencode-script-reads-claude-names", plugin.file, *h.tool_name,
                                            variant="tool-name", script=script, name=site.what.split(":", 1)[1])


def _answer_not_read(plugin: PluginFile, handed: plugins.Handed, script: Path, facts: keys.ScriptFacts) -> Iterator[Finding]:
    """A bridge that refuses on the script's exit status alone, for a script that refuses with a
    JSON answer (exit 0), or on its JSON alone, for one that refuses with exit 2: Claude Code reads
    both, the bridge one, so under opencode the refusal is lost."""
    if handed.answer is None:
        return
    channel, place = handed.answer
    exit_two = any(site.what == "exit 2" for site in facts.blocks)
    answers = bool(facts.denies) or any(site.what == "decision: block" for site in facts.blocks)
    if channel == "status" and answers and not exit_two:
        yield plugin.ctx.finding_at("host/opencode-script-reads-claude-names", plugin.file, *place, variant="json-answer",
                                    script=script)
    elif channel == "stdout" and exit_two and not answers:
        yield plugin.ctx.finding_at("host/opencode-script-reads-claude-names", plugin.file, *place, variant="exit-answer",
                                    script=script)


@PLUGIN_RULES.rule("host/opencode-script-exit-unheard")
def _script_exit_unheard(plugin: PluginFile) -> Iterator[Finding]:
    """A plugin that refuses the call on some exit statuses of the script it runs (`r.status === 1`),
    none of them 2, for a script that refuses with exit 2 (written for Claude Code, where exit 2
    blocks): the refusal is a status the plugin lets through."""
    tests = plugin.facts.status_tests if plugin.foreign else ()
    if not tests or any(test.refuses(2) for test in tests):
        return
    for script in bridged_scripts(plugin):
        facts = keys.analyse(script)
        if facts.readable and facts.exits_2():
            test = tests[0]
            yield plugin.ctx.finding_at("host/opencode-script-exit-unheard", plugin.file, *test.place,
                                        script=script.name, tested=test.said())
            return


# how a plugin hands a program it runs the call on stdin: Bun's `.stdin(...)`, a Response redirected
# in (`< ${new Response(json)}`), child_process's `input:` or its stdin stream, a pipe into it
HANDS_STDIN = lazy(r"\.stdin\b|\binput\s*:|new Response\(|\bstdin\s*:|<<<|\|\s*(?:bash|sh|python3?|node|bun)\b")
# how a script reads its input from stdin (what a bridge must hand it)
READS_STDIN = lazy(r"\$\(cat\)|\bcat\s*\)|sys\.stdin|readFileSync\(\s*(?:0|['\"]/dev/stdin)|/dev/stdin|\bjq\b|"
                   r"process\.stdin|\bread\s+-r|\binput\s*=\s*\$\(cat")


@PLUGIN_RULES.rule("host/opencode-bridge-without-input")
def _bridge_without_input(plugin: PluginFile) -> Iterator[Finding]:
    """A plugin that runs a script reading the call from stdin (written for Claude Code, which hands
    it the payload there) and hands it nothing there: the script reads an empty input, its check
    finds nothing, and the call runs (measured on opencode 1.18.33)."""
    if not plugin.foreign or plugins.HOOK not in plugin.facts.hooks or plugin.facts.handed:
        return
    text = plugin.source.decode("utf-8", "replace")
    if HANDS_STDIN.search(text):
        return
    for script in bridged_scripts(plugin):
        if READS_STDIN.search(intent.text_of(script)):
            at = text.find(script.name)
            line = text.count("\n", 0, at) + 1 if at >= 0 else 1
            yield plugin.ctx.finding_at("host/opencode-bridge-without-input", plugin.file, line, 1, script=script.name)
            return


@PLUGIN_RULES.rule("host/opencode-variable-of-another-host")
def _variable_of_another_host(plugin: PluginFile) -> Iterator[Finding]:
    """A plugin, or a script written for Claude Code that it runs, building a path from a variable
    another agent sets for its hooks (`${process.env.CLAUDE_PROJECT_DIR}/.claude/hooks/x.sh`):
    opencode sets none of them (Host.hook_variables), so the path starts at / and the check fails."""
    others = hosts.variables_of_others(opencode.HOST) if plugin.foreign else {}
    if not others:
        return
    texts = [(plugin.source.decode("utf-8", "replace"), plugin.file.path)]
    texts += [(intent.text_of(script), script) for script in bridged_scripts(plugin)]
    for text, path in texts:
        found = next(((variable, other, at) for variable, other in others.items()
                      if variable in text and (at := unguarded_use(text, variable)) is not None), None)
        if found is None:
            continue
        variable, name, at = found
        line = text.count("\n", 0, at) + 1
        finding = plugin.ctx.finding_at("host/opencode-variable-of-another-host", plugin.file, line, 1,
                                        variable=variable, other=hosts.get(name).title, host=opencode.HOST.title)
        yield finding if path == plugin.file.path else finding._replace(path=str(path), related=[
            {"path": str(plugin.file.path), "line": 1, "column": 1, "message": "the plugin that runs it"}])
        return


# ---- the plugins, in the order opencode runs them -----------------------------------------------------

def _runs_before(earlier: ConfigFile, later: ConfigFile) -> bool:
    """Whether opencode surely runs `earlier` (read before `later`) first: two files of one plugins
    folder, in the reverse of the filesystem's listing, which is how doctor reads them (measured on
    1.18.33, docs/hosts/opencode.md#load-order); not a file of a config folder's plugin/ against
    one of its plugins/ (measured to vary), nor a file named on the command line."""
    if "given" in (earlier.scope, later.scope):
        return False
    listed = earlier.plugin is not None or later.plugin is not None
    return listed or earlier.path.parent == later.path.parent or earlier.path.parent.parent != later.path.parent.parent


FIRST_IN_THE_FOLDER = ("this plugin runs first (opencode runs the files of one folder in the reverse of the order "
                       "the filesystem lists them) and puts the text before the value")


@ORDER_RULES.rule("host/opencode-rewritten-before-check")
def _rewritten_before_check(ctx: Context, plugin_files: list[PluginFile]) -> Iterator[Finding]:
    """A plugin that puts text before an argument (`rtk git push`), run before a guard whose
    regexes must match at the start of it (`/^git\\s+push/`): they never match what it changed."""
    for index, rewriter in enumerate(plugin_files):
        for change in rewriter.facts.prefixings:
            for guard in plugin_files[index + 1:]:
                guarded = guard.facts.guards
                if guarded is None or not change.tools.meets(guarded) or \
                        not _runs_before(rewriter.file, guard.file) or \
                        not any(read.key == change.key for read in guard.facts.reads):
                    continue
                first = change.prefix.lstrip()
                word = first.split()[0].lower() if first.split() else ""
                if any(regex.strips and (not regex.lead or word in {w.lower() for w in regex.lead})
                       for regex in guard.facts.anchored):
                    continue  # (it strips that text first: `.replace(/^rtk\\s+/, "")`)
                for regex in (regex for regex in guard.facts.anchored if not regex.strips):
                    words = {w.lower() for w in regex.lead} if regex.ignore_case else set(regex.lead)
                    start = first.lower() if regex.ignore_case else first
                    gate = None if change.gate is None else {w.lower() for w in change.gate}
                    if any(start.startswith(word) and not start[len(word):len(word) + 1].isidentifier()
                           for word in words) or \
                            gate is not None and not gate & {w.lower() for w in regex.lead}:
                        continue
                    one_folder = rewriter.file.path.parent == guard.file.path.parent and \
                        rewriter.file.plugin is None and guard.file.plugin is None
                    yield ctx.finding_at("host/opencode-rewritten-before-check", guard.file, *regex.place,
                                         [{"path": str(rewriter.file.path), "line": change.place.line,
                                           "column": change.place.column,
                                           "message": FIRST_IN_THE_FOLDER if one_folder else
                                           "this plugin runs first and puts the text before the value"}],
                                         variant="one-folder" if one_folder else None,
                                         plugin=rewriter.file.path.name, key=change.key, prefix=change.prefix,
                                         word=sorted(regex.lead)[0])


@ORDER_RULES.rule("host/opencode-checked-before-rewrite")
def _checked_before_rewrite(ctx: Context, plugin_files: list[PluginFile]) -> Iterator[Finding]:
    """A plugin that changes an argument (an alias expander, a wrapper) run after a guard that
    checks that argument: the guard saw the call as the model wrote it, and what runs is never
    checked. Only a change that is more than text put before the value (host/opencode-rewritten-
    before-check judges those), of a plugin surely run after the guard."""
    for index, guard in enumerate(plugin_files):
        guarded = guard.facts.guards
        if guarded is None:
            continue
        checked = {read.key for read in guard.facts.reads}
        for rewriter in plugin_files[index + 1:]:
            prefixed = {change.place for change in rewriter.facts.prefixings}
            write = next((w for w in rewriter.facts.writes if w.key in checked and w.place not in prefixed
                          and w.tools is not None and w.tools.meets(guarded)), None)
            if write is None or rewriter.facts.guards is not None or not _runs_before(guard.file, rewriter.file):
                continue
            read = next(read.place for read in guard.facts.reads if read.key == write.key)
            yield ctx.finding_at("host/opencode-checked-before-rewrite", rewriter.file, *write.place,
                                 [{"path": str(guard.file.path), "line": read.line, "column": read.column,
                                   "message": "this guard runs first, on the call as the model wrote it"}],
                                 guard=_shown(guard.file.path, guard.file.project or guard.file.path.parent),
                                 key=write.key)


# ---- an opencode config ------------------------------------------------------------------------------

class OpencodeConfig:
    """One opencode.json(c), as the config rules read it: JSONC (comments, trailing commas) whose
    `plugin` list names npm packages and local files."""

    def __init__(self, ctx: Context, file: ConfigFile, source: bytes | None) -> None:
        self.ctx = ctx
        self.file = file
        self.source = source  # None: it could not be read (file.error says why)

    @cached_property
    def data(self) -> Any:
        """Its value (None when it could not be read)."""
        if self.file.error is not None or self.source is None:
            return None
        return opencode.read_config(self.file.path, self.source)

    @cached_property
    def listed(self) -> Any:
        """Its `plugin` value, as written (None: it has none)."""
        return self.data.get("plugin") if isinstance(self.data, dict) else None

    @cached_property
    def text(self) -> str:
        return (self.source or b"").decode("utf-8", "replace")

    def line_of(self, text: str) -> tuple[int, int]:
        """Where `"text"` first appears in the file (JSONC has no strict parse to take positions from)."""
        source = self.text
        offset = source.find(f'"{text}"')
        if offset < 0:
            return 1, 1
        line = source.count("\n", 0, offset) + 1
        return line, offset - (source.rfind("\n", 0, offset) + 1) + 1


def _spec(entry: Any) -> Any:
    """The package or path of a `plugin` entry: the entry, or the first item of [spec, options]."""
    return entry[0] if isinstance(entry, list) and entry and isinstance(entry[0], str) else entry


@CONFIG_RULES.rule("host/opencode-config-unreadable", alone=True)
def _config_unreadable(config: OpencodeConfig) -> Iterator[Finding]:
    error = config.file.error
    if error is not None:
        yield config.ctx.finding_at("host/opencode-config-unreadable", config.file, error.line, error.column,
                                    detail=error.message)


@CONFIG_RULES.rule("host/opencode-plugin-list")
def _plugin_list(config: OpencodeConfig) -> Iterator[Finding]:
    """A `plugin` that is not a list, or an entry that is neither a spec nor [spec, options]."""
    listed = config.listed
    if listed is None:
        return
    if not isinstance(listed, list):
        yield config.ctx.finding_at("host/opencode-plugin-list", config.file, *config.line_of("plugin"),
                                    found=describe(listed))
        return
    for entry in opencode.plugin_specs(config.data):
        if not isinstance(_spec(entry), str):
            yield config.ctx.finding_at("host/opencode-plugin-list", config.file, *config.line_of("plugin"),
                                        variant="entry", found=describe(entry))


@CONFIG_RULES.rule("host/opencode-plugin-missing")
def _plugin_missing(config: OpencodeConfig) -> Iterator[Finding]:
    """A local file the `plugin` list names that is not there: it loads nothing."""
    for entry in opencode.plugin_specs(config.data):
        spec = _spec(entry)
        path = opencode.local_plugin(config.file.path, entry) if isinstance(spec, str) else None
        if path is not None and not path.exists():
            yield config.ctx.finding_at("host/opencode-plugin-missing", config.file, *config.line_of(spec), spec=spec,
                                        path=path)
        elif path is not None and path.is_dir() and not any(
                (path / name).is_file() for name in ("package.json", *opencode.FOLDER_ENTRIES)):
            yield config.ctx.finding_at("host/opencode-plugin-missing", config.file, *config.line_of(spec),
                                        variant="folder", spec=spec, path=path,
                                        entries=", ".join(opencode.FOLDER_ENTRIES))


@CONFIG_RULES.rule("host/opencode-plugin-not-a-path")
def _plugin_not_a_path(config: OpencodeConfig) -> Iterator[Finding]:
    """A `plugin` entry meant as a local file that opencode takes for an npm package: it treats a
    spec as a path only when it starts with `.`, `/` (or a drive) or `file://` (the 1.18.33
    binary's loader), so `plugins/guard.js` or `~/hooks/guard.js` is looked up on npm and never loads."""
    base = config.file.path.parent.parent if config.file.path.parent.name == ".opencode" else config.file.path.parent
    for entry in opencode.plugin_specs(config.data):
        spec = _spec(entry)
        if not isinstance(spec, str) or opencode.local_plugin(config.file.path, entry) is not None or \
                spec.startswith("@") or ":" in spec or "#" in spec:
            continue
        home = spec.startswith("~")
        written = (Path.home() / spec[2:]) if spec.startswith("~/") else base / spec
        if home or spec.lower().endswith(PLUGIN_SUFFIXES) or "/" in spec and disk.exists(written):
            yield config.ctx.finding_at("host/opencode-plugin-not-a-path", config.file, *config.line_of(spec),
                                        variant="home" if home else None, spec=spec,
                                        fix=str(written) if home else f"./{spec}")


PLUGIN_SUFFIXES = (".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx")
