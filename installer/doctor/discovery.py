"""Which files doctor reads: every scope of every host, enabled plugins, or the files it was given.

Also what a file is (recognised by its name and content: a Claude Code settings file, a plugin
`hooks.json`, a Cursor `hooks.json`, or another agent's config), and which MCP servers the
project has, so that matchers can be judged against real tool names.
"""
from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

from .. import layout, safe_read
from ..errors import ErrorKind, HookwrightError
from ..hooks.events import CLAUDE_EVENTS, CURSOR_EVENTS, FOLDED_CURSOR_EVENTS, GEMINI_EVENTS, OPENCODE_HOOK_KEYS, fold
from ..hooks.events import SCOPE_ORDER as SCOPE_ORDER  # (re-exported: the checks rank scopes by it)
from ..hosts.claude import adapter as claude
from ..hosts.codex import adapter as codex
from ..hosts.codex.adapter import codex_home
from ..hosts.cursor import adapter as cursor
from ..hosts.opencode import adapter as opencode
from ..patterns import lazy
from .model import ConfigFile, Plugin, resolved

SCRIPT_SUFFIXES = (".js", ".ts", ".mjs", ".cjs", ".mts")
RULES_FILE = "git-guard-rules"  # the kind of git-guard's rules files (host: hookwright)
RULES_FILE_NAMES = ("git-guard.json", "hookwright-git-guard.json")


class Candidate:
    """A file to check, and what its location already says about it."""

    def __init__(self, path: Path, scope: str, kind: str | None = None, project: Path | None = None,
                 plugin: str | None = None, plugin_root: Path | None = None) -> None:
        self.path = path
        self.scope = scope
        self.kind = kind  # known from the location; None: recognise it by name and content
        self.project = project
        self.plugin = plugin
        self.plugin_root = plugin_root


# ---- where each host keeps its files -------------------------------------------------------

def scope_candidates(project: Path, hosts: set[str], also: frozenset[Path] = frozenset()) -> list[Candidate]:
    """The files of every scope that exist, in precedence order (low to high); `also`: resolved
    paths to list even where no file is yet (a plan's files, checked before they are written)."""
    found: list[Candidate] = []
    if "claude" in hosts:
        base = claude.user_dir()
        found.append(Candidate(base / "settings.json", "user", "claude-settings", project))
        found.append(Candidate(project / ".claude" / "settings.json", "project", "claude-settings", project))
        found.extend(Candidate(p, "local", "claude-settings", project) for p in claude.local_settings_read(project))
        found.extend(Candidate(p, "managed", "claude-settings", project) for p in claude.managed_paths())
    if "cursor" in hosts:
        found.append(Candidate(cursor.user_dir() / "hooks.json", "user", "cursor-hooks", project))
        found.append(Candidate(project / ".cursor" / "hooks.json", "project", "cursor-hooks", project))
        found.extend(Candidate(p, "managed", "cursor-hooks", project) for p in cursor.managed_paths())
    if "opencode" in hosts:
        found.extend(_opencode_candidates(project, also))
    if "codex" in hosts:
        found.extend(codex.HOST.config_files(project, also))
    return [c for c in found if c.path.exists() or c.path.is_symlink() or _looped(c.path)
            or (also and resolved(c.path) in also)]


def _looped(path: Path) -> bool:
    """A file that cannot be reached because a folder on its way is a link loop (`.claude ->
    .claude`): the agent reads nothing there, and doctor says why (structure/unreadable)."""
    try:
        os.lstat(path)
    except OSError as err:
        return err.errno == errno.ELOOP
    return False


def pack_file_candidates(project: Path, hosts: set[str]) -> list[Candidate]:
    """The files of hookwright's own packs that exist: git-guard's rules files, the user's and,
    for each host, the project's."""
    found = [Candidate(layout.runtime_config_dir() / layout.GIT_GUARD_USER_RULES, "user", RULES_FILE, project)]
    found += [Candidate(project / path, "project", RULES_FILE, project)
              for host, path in layout.GIT_GUARD_PROJECT_RULES.items() if host in hosts]
    return [c for c in found if c.path.exists() or c.path.is_symlink()]


def _opencode_candidates(project: Path, also: frozenset[Path]) -> list[Candidate]:
    """opencode's config files, then its plugins in the order it runs them (docs/hosts/opencode.md#load-order): the local files the configs' `plugin` lists name (the user's first), then every file
    in its plugins folders (and one level below: doctor says why opencode skips those), each
    folder in run order; then `also`'s files in a plugins folder."""
    folders = opencode.config_folders(project)
    configs = [Candidate(folder / name, scope, "opencode-config", project)
               for scope, folder in folders if scope == "user" for name in opencode.CONFIG_NAMES]
    configs += [Candidate(folder / name, "project", "opencode-config", project)
                for folder in (project, project / ".opencode") for name in opencode.CONFIG_NAMES]
    in_folders: list[Candidate] = []
    for scope, folder in folders:
        for plugins in (folder / name for name in opencode.PLUGIN_FOLDERS):
            for entry in _in_run_order(plugins):
                if entry.is_dir():
                    in_folders.extend(Candidate(inner, scope, "opencode-plugin", project) for inner in _in_run_order(entry)
                                      if inner.suffix.lower() in SCRIPT_SUFFIXES)
                elif entry.suffix.lower() in SCRIPT_SUFFIXES:  # (a README or a JSON file beside them is no plugin)
                    in_folders.append(Candidate(entry, scope, "opencode-plugin", project))
            listed = {resolved(c.path) for c in in_folders}
            in_folders.extend(Candidate(path, scope, "opencode-plugin", project) for path in sorted(also)
                              if path.parent == resolved(plugins) and path not in listed)
    # a file both listed and in a plugins folder loads once, where it is declared last: the folder
    seen = {resolved(c.path) for c in in_folders}
    named = []
    for config in configs:
        for spec, path in _listed_plugins(config.path):
            if resolved(path) not in seen and path.is_file():
                seen.add(resolved(path))
                named.append(Candidate(path, config.scope, "opencode-plugin", project, plugin=spec))
    return configs + named + in_folders


def _listed_plugins(config: Path) -> list[tuple[str, Path]]:
    """(spec, file) of each local plugin a readable opencode config lists."""
    try:
        data = opencode.read_config(config, safe_read.read(config, safe_read.CONFIG))
    except (OSError, HookwrightError):
        return []  # (missing: nothing to list; unreadable: its own finding)
    return [(entry[0] if isinstance(entry, list) else entry, path) for entry in opencode.plugin_specs(data)
            if (path := opencode.local_plugin(config, entry)) is not None]


def _in_run_order(folder: Path) -> list[Path]:
    """A plugins folder's entries in the order opencode runs them: the reverse of the order the
    filesystem lists them, not sorted (measured on 1.18.33: the listing z, a, b, m ran m, b, a, z),
    so the file listed first runs last, and its changes to a call win."""
    try:
        return [Path(entry.path) for entry in os.scandir(folder)][::-1]
    except OSError:
        return []


def given_candidates(paths: list[Path], project: Path) -> list[Candidate]:
    """Files named on the command line (a missing one is reported by reading it, and the others
    are still checked); a directory is a usage error."""
    user = resolved(claude.user_dir())
    known = _KnownPlaces(managed=frozenset(resolved(p) for p in claude.managed_paths()),
                         user_settings=(user / "settings.json", user / "settings.local.json"),
                         cursor_user=resolved(cursor.user_dir()), codex_user=resolved(codex_home()))
    found = []
    for path in paths:
        if path.is_dir():
            raise HookwrightError("is a directory; doctor checks files", path=path, kind=ErrorKind.UNREADABLE,
                                  hint="name the config files, or run doctor without paths (and --project DIR) "
                                       "to check every scope of a project")
        found.append(_given(path, project, known))
    return found


class _KnownPlaces:
    """Where the files of the scopes that do not follow from a file's own folder live."""

    def __init__(self, managed: frozenset[Path], user_settings: tuple[Path, Path], cursor_user: Path,
                 codex_user: Path) -> None:
        self.managed = managed
        self.user_settings = user_settings
        self.cursor_user = cursor_user
        self.codex_user = codex_user


def _given(path: Path, project: Path, known: _KnownPlaces) -> Candidate:
    """What the location of a named file says: its scope, its project, its plugin root."""
    real = resolved(path)
    parent = real.parent
    if real in known.managed or path.name == "managed-settings.json" or parent.name == "managed-settings.d":
        return Candidate(path, "managed", "claude-settings", project)  # (a policy file checked before it is deployed)
    if real in known.user_settings:
        return Candidate(path, "user", "claude-settings", project)
    if parent.name == ".claude" and path.name in ("settings.json", "settings.local.json"):
        scope = "project" if path.name == "settings.json" else "local"
        return Candidate(path, scope, "claude-settings", parent.parent)
    if parent.name == ".cursor" and path.name == "hooks.json":
        scope = "user" if parent == known.cursor_user else "project"
        return Candidate(path, scope, "cursor-hooks", parent.parent if scope == "project" else project)
    if path.name == "hooks.json" and (parent.name == ".codex" or parent == known.codex_user):
        scope = "user" if parent == known.codex_user else "project"
        return Candidate(path, scope, "codex-hooks", parent.parent if scope == "project" else project)
    if parent.name == "hooks" and path.name == "hooks.json":
        return Candidate(path, "plugin", None, project, plugin_root=parent.parent)
    return Candidate(path, "given", None, project)


# ---- what a file is ----------------------------------------------------------------------------

def recognise(path: Path, text: str | None, data: Any, parsed: bool) -> tuple[str, str]:
    """(kind, host) from the file's name and content. `parsed`: the text is strict JSON (`data`)."""
    name = path.name.lower()
    parts = [p.lower() for p in path.parts]
    if name in RULES_FILE_NAMES:
        return RULES_FILE, "hookwright"
    if name.endswith(SCRIPT_SUFFIXES):
        in_plugin_dir = path.parent.name in ("plugin", "plugins") and any("opencode" in p for p in parts)
        if in_plugin_dir or (text is not None and any(key in text for key in OPENCODE_HOOK_KEYS)):
            return "opencode-plugin", "opencode"
        return "unknown", "unknown"
    if name.endswith(("opencode.json", ".jsonc")):
        return "opencode-config", "opencode"
    if ".grok" in parts:
        return "grok-hooks", "grok"
    if not parsed:
        if ".json" not in name:
            return "unknown", "unknown"
        return _by_name(path)
    if isinstance(data, dict):
        hooks = data.get("hooks")
        if isinstance(hooks, dict) and any(event in GEMINI_EVENTS for event in hooks):
            return "gemini-hooks", "gemini"
        if ".claude" in parts and "settings" in name:
            return "claude-settings", "claude"
        if ".cursor" in parts or _cursor_shaped(data):
            return "cursor-hooks", "cursor"
        if not _plugin_name(name) and "settings" not in name and "description" in data \
                and set(data) <= {"description", "hooks", "$schema"}:
            return "claude-plugin-hooks", "claude"
    return _by_name(path)


def _by_name(path: Path) -> tuple[str, str]:
    name = path.name.lower()
    if ".cursor" in (p.lower() for p in path.parts):
        return "cursor-hooks", "cursor"
    if _plugin_name(name) or (path.parent.name == "hooks" and "settings" not in name):
        return "claude-plugin-hooks", "claude"
    return "claude-settings", "claude"


SETTINGS_FRAGMENT = lazy(r"settings[._-]?hooks\.json$")


def _plugin_name(name: str) -> bool:
    """`hooks.json` (and `x-hooks.json`), but not a settings fragment such as `settings.hooks.json`."""
    return name.endswith("hooks.json") and not SETTINGS_FRAGMENT.search(name)


def _cursor_shaped(data: dict[str, Any]) -> bool:
    """Cursor's `{"version": 1, "hooks": {event: [flat entries]}}`, told apart from Claude Code's
    `{"hooks": {Event: [{"matcher", "hooks": [...]}]}}` by `version`, the event names and the entries."""
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return "version" in data and any(fold(k) in FOLDED_CURSOR_EVENTS and k not in CLAUDE_EVENTS for k in data)
    cursor_events = [e for e in hooks if e in CURSOR_EVENTS]
    claude_events = [e for e in hooks if e in CLAUDE_EVENTS]
    grouped = any(isinstance(entry, dict) and "hooks" in entry
                  for entries in hooks.values() if isinstance(entries, list) for entry in entries)
    if "version" in data:
        return bool(cursor_events) or not grouped
    return bool(cursor_events) and not claude_events


# ---- plugins -------------------------------------------------------------------------------------

def enabled_plugins(files: list[ConfigFile], project: Path) -> list[Plugin]:
    """Plugins switched on by the settings files (the highest-precedence value counts), with their
    install path from installed_plugins.json and their hook files."""
    values: dict[str, tuple[Any, ConfigFile]] = {}
    settings = [(f, f.document.data) for f in files if f.kind == "claude-settings" and f.document is not None]
    for file, data in sorted(settings, key=lambda pair: SCOPE_ORDER.get(pair[0].scope, -1)):
        enabled = data.get("enabledPlugins") if isinstance(data, dict) else None
        if isinstance(enabled, dict):
            for plugin_id, value in enabled.items():
                values[plugin_id] = (value, file)
    on = {pid: file for pid, (value, file) in values.items() if value is True or (isinstance(value, list) and value)}
    if not on:
        return []
    installed = _installed_plugins(project)
    if installed is None:  # no readable registry: we cannot tell installed from missing
        return []
    plugins = []
    for plugin_id, file in on.items():
        root = installed.get(plugin_id)
        plugins.append(Plugin(plugin_id, file, root, _plugin_hook_files(root) if root else []))
    return plugins


def _installed_plugins(project: Path) -> dict[str, Path] | None:
    """{"name@marketplace": install path} from installed_plugins.json (format 1: one object per
    plugin; format 2: a list of installs per plugin, each with a scope and maybe a projectPath)."""
    registry = claude.user_dir() / "plugins" / "installed_plugins.json"
    raw = _load_json(registry)
    if not isinstance(raw, dict) or not isinstance(raw.get("plugins"), dict):
        return None
    found = {}
    for plugin_id, entry in raw["plugins"].items():
        installs = entry if isinstance(entry, list) else [entry]
        installs = [i for i in installs if isinstance(i, dict) and isinstance(i.get("installPath"), str)]
        mine = [i for i in installs if i.get("projectPath") and Path(i["projectPath"]) == project]
        anywhere = [i for i in installs if not i.get("projectPath")]
        chosen = (mine or anywhere)[:1]
        if chosen:
            found[plugin_id] = Path(chosen[0]["installPath"]).expanduser()
    return found


def _plugin_hook_files(root: Path) -> list[Path]:
    """`hooks/hooks.json`, plus the extra files that `.claude-plugin/plugin.json` names in `hooks`,
    or plugin.json itself where `hooks` holds the hooks inline (docs/hosts/claude-code.md#plugin-hooks: string, list or object)."""
    files = []
    default = root / "hooks" / "hooks.json"
    if default.is_file():
        files.append(default)
    manifest_path = root / ".claude-plugin" / "plugin.json"
    manifest = _load_json(manifest_path)
    extra = manifest.get("hooks") if isinstance(manifest, dict) else None
    if isinstance(extra, dict):
        files.append(manifest_path)
    for item in [extra] if isinstance(extra, str) else extra if isinstance(extra, list) else []:
        if isinstance(item, str):
            path = resolved(root / item)
            if path.is_file() and path not in files:
                files.append(path)
    return files


def plugin_candidates(plugins: list[Plugin], project: Path) -> list[Candidate]:
    return [Candidate(path, "plugin", "claude-plugin-hooks", project, plugin.id, plugin.install_path)
            for plugin in plugins for path in plugin.hook_files]


# ---- MCP servers ---------------------------------------------------------------------------------

NOT_IN_A_SERVER_NAME = lazy(r"[^A-Za-z0-9_-]")


def mcp_servers(project: Path, files: list[ConfigFile], plugins: list[Plugin]) -> tuple[list[str], list[str]]:
    """Names of the MCP servers configured for the project, as they appear in tool names, and
    the files looked at for them: `.mcp.json`, `mcpServers` in ~/.claude.json (user and this
    project's entry), settings' `enabledMcpjsonServers`, the servers plugins bundle
    (`plugin_<plugin>_<server>`) and the administrator's managed-mcp.json."""
    names: list[str] = []
    sources = [project / ".mcp.json", _claude_json(), claude.managed_dir() / "managed-mcp.json"]
    names += _server_names(_load_json(sources[0]))
    names += _server_names(_load_json(sources[2]))
    state = _load_json(sources[1])
    if isinstance(state, dict):
        names += _server_names(state)
        projects = state.get("projects")
        entry = projects.get(str(project)) if isinstance(projects, dict) else None
        names += _server_names(entry)
        if isinstance(entry, dict):
            names += [n for n in entry.get("enabledMcpjsonServers") or [] if isinstance(n, str)]
    for file in files:
        data = file.document.data if file.kind == "claude-settings" and file.document else None
        if isinstance(data, dict):
            listed = data.get("enabledMcpjsonServers")
            names += [n for n in listed if isinstance(n, str)] if isinstance(listed, list) else []
            names += _server_names(data)
    for plugin in plugins:
        if plugin.install_path:
            plugin_name = plugin.id.split("@")[0]
            bundled_files = [plugin.install_path / ".mcp.json", plugin.install_path / ".claude-plugin" / "plugin.json"]
            sources += bundled_files
            bundled = [name for path in bundled_files for name in _server_names(_load_json(path))]
            names += [f"plugin_{plugin_name}_{server}" for server in bundled]
    unique = dict.fromkeys(NOT_IN_A_SERVER_NAME.sub("_", n) for n in names if n)
    return list(unique), [str(p) for p in sources]


def _server_names(data: Any) -> list[str]:
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return [name for name in servers if isinstance(name, str)] if isinstance(servers, dict) else []


def _claude_json() -> Path:
    """~/.claude.json (Claude Code's state: MCP servers per user and per project); with
    CLAUDE_CONFIG_DIR set, it lives in that directory."""
    return claude.user_dir() / ".claude.json" if os.environ.get("CLAUDE_CONFIG_DIR") else Path.home() / ".claude.json"


def _load_json(path: Path) -> Any:
    """A helper file's JSON, or None when it is missing, unreadable or not JSON: these files only
    add context (tool names, plugin paths); doctor does not lint them."""
    raw = safe_read.read_or_none(path, safe_read.STATE)
    try:
        return json.loads(raw) if raw is not None else None
    except (ValueError, RecursionError):
        return None
