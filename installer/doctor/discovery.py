"""Which files doctor reads: every scope of every host, enabled plugins, or the files it was given.

Also what a file is (recognised by its name and content: a Claude Code settings file, a plugin
`hooks.json`, a Cursor `hooks.json`, or another agent's config), and which MCP servers the
project has, so that matchers can be judged against real tool names.
"""
from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import hosts, layout, safe_read
from ..errors import ErrorKind, HookwrightError
from ..hooks.events import CLAUDE_EVENTS, CURSOR_EVENTS, FOLDED_CURSOR_EVENTS, GEMINI_EVENTS, OPENCODE_HOOK_KEYS, fold
from ..hooks.events import SCOPE_ORDER as SCOPE_ORDER  # (re-exported: the checks rank scopes by it)
from ..hooks.model import Candidate as Candidate  # (re-exported: where doctor reads a file from)
from ..hosts.claude import adapter as claude
from ..hosts.claude import user_dir as claude_user_dir
from ..hosts.opencode import SCRIPT_SUFFIXES, in_a_plugin_folder
from ..patterns import lazy
from .model import ConfigFile, Plugin, resolved

if TYPE_CHECKING:
    from ..hosts.base import Host

RULES_FILE = "git-guard-rules"  # the kind of git-guard's rules files (host: hookwright)
RULES_FILE_NAMES = ("git-guard.json", "hookwright-git-guard.json")


# ---- where each host keeps its files -------------------------------------------------------

def scope_candidates(project: Path, names: set[str], also: frozenset[Path] = frozenset(),
                     start: Path | None = None, present: dict[Path, bool] | None = None) -> list[Candidate]:
    """The files of every scope of the hosts named that exist, each host's in precedence order
    (low to high: Host.config_files); `also`: resolved paths to list even where no file is yet (a
    plan's files, checked before they are written). `start`: the folder the agent is started in,
    where that is a folder of the project; a host that was measured to read its project files from
    the folder it starts in (Host.project_files_read_from) has them read from there. `present`:
    whether each path is there, as found so far, filled in here (run.around asks of every project
    of a tree, and asks the disk of the user's and the managed settings once)."""
    found = [c for name in hosts.NAMES if name in names
             for c in hosts.get(name).config_files(_session_folder(hosts.get(name), project, start), also)]
    present = {} if present is None else present
    for candidate in found:
        if candidate.path not in present:
            present[candidate.path] = _there(candidate.path)
    return [c for c in found if present[c.path] or (also and resolved(c.path) in also)]


def _session_folder(host: Host, project: Path, start: Path | None) -> Path:
    if start is None or start == project or project not in start.parents:
        return project
    return start if host.project_files_read_from(start) is not None else project


def never_read(project: Path, names: set[str], start: Path | None = None) -> list[tuple[Candidate, str]]:
    """The files of the hosts named, near a session started in `start` (else the project), that it
    does not read, each with why (Host.files_never_read)."""
    found = []
    for name in hosts.NAMES:
        if name in names:
            host = hosts.get(name)
            folder = _session_folder(host, project, start)
            for path, why in host.files_never_read(folder):
                given = host.given_file(path, folder)  # (its kind, where the host knows it by its place)
                kind = host.read_instead(path)[0] if why == "misplaced" else given.kind if given is not None else None
                found.append((Candidate(path, "unread", kind, folder), why))
    return found


IGNORED_ERRORS = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # (those Path.exists reads as "not there")


def _there(path: Path) -> bool:
    """A file there, a link (its target there or not), or a file that cannot be reached because
    a folder on its way is a link loop (`.claude -> .claude`: the agent reads nothing there, and
    doctor says why, structure/unreadable). In at most two system calls on the path as text:
    doctor asks it of each scope's file in each project of a tree (Path.exists, is_symlink and an
    lstat took 14 M more of the corpus tree's 4,971 M instructions). Another error is raised, as
    Path.exists raises it."""
    name = os.fspath(path)
    try:
        os.stat(name)
        return True
    except OSError as err:
        if err.errno not in IGNORED_ERRORS:
            raise
    except ValueError:  # (a NUL in the name: Path.exists says False)
        return False
    try:
        return stat.S_ISLNK(os.lstat(name).st_mode)
    except OSError as err:
        if err.errno == errno.ELOOP:
            return True
        if err.errno not in IGNORED_ERRORS:
            raise
    return False


def pack_file_candidates(project: Path, hosts: set[str]) -> list[Candidate]:
    """The files of hookwright's own packs that exist: git-guard's rules files, the user's and,
    for each host, the project's."""
    found = [Candidate(layout.runtime_config_dir() / layout.GIT_GUARD_USER_RULES, "user", RULES_FILE, project)]
    found += [Candidate(project / path, "project", RULES_FILE, project)
              for host, path in layout.GIT_GUARD_PROJECT_RULES.items() if host in hosts]
    return [c for c in found if c.path.exists() or c.path.is_symlink()]


def given_candidates(paths: list[Path], project: Path) -> list[Candidate]:
    """Files named on the command line (a missing one is reported by reading it, and the others
    are still checked); a directory is a usage error."""
    for path in paths:
        if path.is_dir():
            raise HookwrightError("is a directory; doctor checks files", path=path, kind=ErrorKind.UNREADABLE,
                                  hint="name the config files, or run doctor without paths (and --project DIR) "
                                       "to check every scope of a project")
    found: list[Candidate | None] = [None] * len(paths)
    for name in hosts.NAMES:  # a path is the first host's that knows it (Host.given_files: its scope and project)
        left = [i for i, known in enumerate(found) if known is None]
        if not left:
            break  # (the hosts after it not loaded: a run of Claude Code files loads no other adapter)
        for i, known in zip(left, hosts.get(name).given_files([paths[i] for i in left], project)):
            found[i] = known
    return [known or _not_a_host_file(path, project) for path, known in zip(paths, found)]


def _not_a_host_file(path: Path, project: Path) -> Candidate:
    """A named file no host's place knows: a plugin's hooks.json (its plugin root), or a file given as it is."""
    parent = resolved(path).parent
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
        if in_a_plugin_folder(path) or (text is not None and any(key in text for key in OPENCODE_HOOK_KEYS)):
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

def enabled_plugins(files: list[ConfigFile], project: Path, registry: Callable[[], Any] | None = None) -> list[Plugin]:
    """Plugins switched on by the settings files (the highest-precedence value counts), with their
    install path from installed_plugins.json and their hook files. `registry`: that file's JSON,
    where the caller reads it once for many projects (run.around: the corpus tree's 86 projects
    that switch a plugin on read it 86 times)."""
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
    installed = _installed_plugins(project, (registry or plugin_registry)())
    if installed is None:  # no readable registry: we cannot tell installed from missing
        return []
    plugins = []
    for plugin_id, file in on.items():
        root = installed.get(plugin_id)
        plugins.append(Plugin(plugin_id, file, root, _plugin_hook_files(root) if root else []))
    return plugins


def installed_hook_files(plugin_id: str, project: Path) -> list[Path]:
    """The hook files of a plugin as installed for `project` (none where it is not installed)."""
    root = (_installed_plugins(project, plugin_registry()) or {}).get(plugin_id)
    return _plugin_hook_files(root) if root is not None else []


def plugin_registry() -> Any:
    """installed_plugins.json's JSON: the plugins Claude Code installed on this machine (None: no such file)."""
    return _load_json(claude_user_dir() / "plugins" / "installed_plugins.json")


def _installed_plugins(project: Path, raw: Any) -> dict[str, Path] | None:
    """{"name@marketplace": install path} from installed_plugins.json's JSON, `raw` (format 1: one
    object per plugin; format 2: a list of installs per plugin, each with a scope and maybe a projectPath)."""
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
            found[plugin_id] = _directory_source(plugin_id) or Path(chosen[0]["installPath"]).expanduser()
    return found


def known_marketplaces() -> frozenset[str]:
    """The marketplaces this machine's Claude Code has added (`claude plugin marketplace add`, or
    one a settings file declared that it installed): known_marketplaces.json's names, and those of
    the plugins installed_plugins.json lists."""
    known = _load_json(claude_user_dir() / "plugins" / "known_marketplaces.json")
    installed = plugin_registry()
    plugins = installed.get("plugins") if isinstance(installed, dict) else None
    names = [*(known if isinstance(known, dict) else ()),  # (a plugin installed here came from a marketplace it knew)
             *(plugin_id.rpartition("@")[2] for plugin_id in (plugins if isinstance(plugins, dict) else ()))]
    return frozenset(name for name in names if isinstance(name, str) and name)


def _directory_source(plugin_id: str) -> Path | None:
    """The folder a plugin of a `directory` marketplace runs from: its source in the marketplace's
    folder, not the cache copy installed_plugins.json names (measured on Claude Code 2.1.332,
    docs/hosts/claude-code.md#plugin-hooks: its hooks ran from the source, with
    ${CLAUDE_PLUGIN_ROOT} there). None for another kind of marketplace, or a source not there."""
    name, _, market = plugin_id.rpartition("@")
    known = _load_json(claude_user_dir() / "plugins" / "known_marketplaces.json")
    entry = known.get(market) if isinstance(known, dict) else None
    source = entry.get("source") if isinstance(entry, dict) else None
    if not isinstance(source, dict) or source.get("source") != "directory" or not isinstance(source.get("path"), str):
        return None
    folder = Path(source["path"]).expanduser()
    manifest = _load_json(folder / ".claude-plugin" / "marketplace.json")
    listed = manifest.get("plugins") if isinstance(manifest, dict) else None
    meta = manifest.get("metadata") if isinstance(manifest, dict) else None
    base = meta.get("pluginRoot") if isinstance(meta, dict) and isinstance(meta.get("pluginRoot"), str) else ""
    for plugin in listed if isinstance(listed, list) else []:
        if isinstance(plugin, dict) and plugin.get("name") == name and isinstance(plugin.get("source"), str):
            written = plugin["source"]
            root = (folder / written if written.startswith(("./", "../")) or not base else folder / base / written)
            return root.resolve() if root.is_dir() else None
    return None


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
    sources = [project / ".mcp.json", claude.state_file(), claude.managed_dir() / "managed-mcp.json"]
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
    roots = {p.install_path: p.id.split("@")[0] for p in plugins if p.install_path}
    for file in files:  # (a plugin's hooks file named on the command line: its name is its manifest's)
        if file.plugin_root is not None and file.plugin_root not in roots:
            manifest = _load_json(file.plugin_root / ".claude-plugin" / "plugin.json")
            name = manifest.get("name") if isinstance(manifest, dict) else None
            roots[file.plugin_root] = name if isinstance(name, str) and name else file.plugin_root.name
    for root, plugin_name in roots.items():
        bundled_files = [root / ".mcp.json", root / ".claude-plugin" / "plugin.json"]
        sources += bundled_files
        bundled = [name for path in bundled_files for name in _server_names(_load_json(path))]
        names += [f"plugin_{plugin_name}_{server}" for server in bundled]
    unique = dict.fromkeys(NOT_IN_A_SERVER_NAME.sub("_", n) for n in names if n)
    return list(unique), [str(p) for p in sources]


def _server_names(data: Any) -> list[str]:
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return [name for name in servers if isinstance(name, str)] if isinstance(servers, dict) else []


def _load_json(path: Path) -> Any:
    """A helper file's JSON, or None when it is missing, unreadable or not JSON: these files only
    add context (tool names, plugin paths); doctor does not lint them."""
    raw = safe_read.read_or_none(path, safe_read.STATE)
    try:
        return json.loads(raw) if raw is not None else None
    except (ValueError, RecursionError):
        return None
