"""The words below doctor, simulate and list: the files that hold hooks, the handlers in them as
their host loads them, and the hook configuration of one project (Configs).

Its classes are plain ones with an __init__ (doctor's speed: installer/doctor/__init__.py).
"""
from __future__ import annotations

import os
from pathlib import Path
from stat import S_ISLNK
from typing import TYPE_CHECKING, Any, Callable

from .. import hosts
from ..document import Document, Keys
from ..errors import HookwrightError

if TYPE_CHECKING:  # a type checker reads ours as the standard one it behaves as, and Self as Configs'
    from functools import cached_property as cached_property

    from typing_extensions import Self
else:
    class cached_property:
        """functools.cached_property without the lock Python 3.11's takes on each first read (3.12
        dropped it): doctor reads tens of thousands of them once each, on objects no other thread
        sees. Typed for mypy alone: a Generic class with its overloads, a TypeVar, and Configs'
        TypeVar (its bound a string, which typing compiles) were 0.6 M of the 340.6 M instructions
        of doctor on a typical file."""

        def __init__(self, compute: Callable[[Any], Any]) -> None:
            self.compute = compute
            self.name = compute.__name__
            self.__doc__ = compute.__doc__

        def __set_name__(self, owner: type, name: str) -> None:
            self.name = name

        def __get__(self, instance: object | None, owner: type | None = None) -> Any:
            if instance is None:
                return self
            value = instance.__dict__[self.name] = self.compute(instance)
            return value


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


class ConfigFile:
    """One file that holds (or should hold) hooks."""

    def __init__(self, path: Path, kind: str, host: str, scope: str, document: Document | None = None,
                 project: Path | None = None, plugin: str | None = None, plugin_root: Path | None = None,
                 error: HookwrightError | None = None, source: bytes | None = None) -> None:
        self.path = path
        # claude-settings | claude-plugin-hooks | cursor-hooks | opencode-config | opencode-plugin
        # | gemini-hooks | grok-hooks | unknown
        self.kind = kind
        self.host = host  # claude | cursor | opencode | gemini | grok | unknown
        self.scope = scope  # user | project | local | managed | plugin | given
        self.document = document  # None for files that are not JSON (opencode plugins) or unreadable
        self.project = project  # what $CLAUDE_PROJECT_DIR is for this file's hooks
        self.plugin = plugin  # "name@marketplace" for a plugin's hooks file
        self.plugin_root = plugin_root  # what ${CLAUDE_PLUGIN_ROOT} is for a plugin's hooks file
        self.error = error  # why the file could not be read or parsed (document is None then)
        self.source = source  # the bytes of a file that is not strict JSON (opencode's plugins and JSONC)
        self._positions: dict[tuple[Keys, bool], tuple[int, int]] = {}

    @property
    def from_plugin(self) -> bool:
        """A plugin's hooks (found through enabledPlugins, or a plugin hooks.json named on the command line)."""
        return self.scope == "plugin" or self.kind == "claude-plugin-hooks"

    def position(self, keys: Keys, at_key: bool = False) -> tuple[int, int]:
        """Line and column of the value at `keys` (`at_key`: of its key, for a finding about the
        name); of its nearest existing parent when it is missing (a required field: the
        handler); 1, 1 for a file without a JSON document."""
        document = self.document
        if document is None or document.root is None:
            return 1, 1
        found = self._positions.get((keys, at_key))
        if found is None:
            found = self._positions[keys, at_key] = document.position_of(document.start_of(keys, at_key))
        return found

class Handler:
    """One hook handler as the host would load it."""

    def __init__(self, file: ConfigFile, event: str, matcher: str | None, value: Any, keys: Keys, group_keys: Keys,
                 owner: tuple[str, str] | None = None) -> None:
        self.file = file
        self.event = event
        self.matcher = matcher  # None: no matcher (matches everything)
        self.value = value  # the handler's JSON (a dict; a bare string where someone wrote one)
        self.keys = keys  # JSON path to the handler, e.g. ("hooks", "PreToolUse", 0, "hooks", 1)
        self.group_keys = group_keys  # JSON path to its matcher group (Claude); == keys for flat Cursor entries
        self.owner = owner  # (pack, script) when it runs one of our runtimes

    @property
    def command(self) -> Any:
        """Its "command" as written: a string in a well-formed handler, any JSON value in another
        (the checks that need a string test for one); None where there is none."""
        return self.value.get("command") if isinstance(self.value, dict) else None

    @property
    def where(self) -> str:
        """`file:line`, as a report names the handler."""
        return f"{self.file.path}:{self.file.position(self.keys)[0]}"

    @cached_property
    def kind(self) -> str | None:
        """Its type ("command" when a Cursor entry leaves it out; "plugin" for opencode's code
        in-process), or None for a bare string: kept, as a run asks it of each handler a dozen
        times (the corpus tree: 23,069 asks of 1,870 handlers, each a host lookup). Safe to keep:
        a handler's value and file are set when its file is loaded and nothing changes them."""
        value = self.value
        host = hosts.of(self.file.host)
        if host is not None and host.plugin_file_kind:
            return "plugin"
        if not isinstance(value, dict):
            return None
        default = "command"
        return value.get("type", default) if isinstance(value.get("type", default), str) else None

    def source(self) -> dict[str, Any]:
        """Where the handler is, as `list --json` and `simulate --json` give it."""
        line, column = self.file.position(self.keys)
        return {"path": str(self.file.path), "scope": self.file.scope, "plugin": self.file.plugin,
                "line": line, "column": column}


class Plugin:
    """A plugin that a settings file enables: `"enabledPlugins": {"name@marketplace": true}`."""

    def __init__(self, id: str, enabled_in: ConfigFile, install_path: Path | None, hook_files: list[Path]) -> None:
        self.id = id  # "name@marketplace"
        self.enabled_in = enabled_in  # the settings file whose value counts (highest precedence)
        self.install_path = install_path  # from <claude user dir>/plugins/installed_plugins.json; None: not installed
        self.hook_files = hook_files


class Configs:
    """The hook configuration of one project: its files, their handlers, and what is known of
    the project they run in (tools, MCP servers, plugins, the settings' variables)."""

    def __init__(self, files: list[ConfigFile], handlers: list[Handler], probe: bool = False,
                 tools: list[str] | None = None, mcp_servers: list[str] | None = None,
                 plugins: list[Plugin] | None = None, project: Path | None = None,
                 mcp_sources: list[str] | None = None, settings_env: frozenset[str] | None = None) -> None:
        self.files = files
        self.handlers = handlers
        self.probe = probe
        # Real tool names: the built-in tools, then one `mcp__<server>__.*` pattern per MCP server
        # configured for the project (tell them apart by the `mcp__` prefix).
        self.tools = [] if tools is None else tools
        self.mcp_servers = [] if mcp_servers is None else mcp_servers  # those servers' names, as tool names use them
        self.plugins = [] if plugins is None else plugins  # enabled plugins, installed or not
        self.project = project  # the project doctor looked at (cwd or --project)
        self.mcp_sources = [] if mcp_sources is None else mcp_sources  # where it looked for MCP servers
        # the variables the settings files' "env" sets for the session (and so for its hooks), read
        # from the files unless given (a share of a run is given the run's: parallel.py)
        self.settings_env = settings_env if settings_env is not None else frozenset(
            name for f in files if f.document is not None and isinstance(f.document.data, dict)
            and isinstance(f.document.data.get("env"), dict) for name in f.document.data["env"])
        # every file of the run, whose settings merge (httpHookAllowedEnvVars): a share of a run keeps the run's
        self.run_files = files
        # a plan's check: ids of the handlers it adds or removes, whose conflicts are never cut short
        self.focus: frozenset[int] = frozenset()
        self.truncated: set[str] = set()  # rules whose findings were cut short (too many pairs)
        # files near the session's folder that its host does not read, each with why (doctor's)
        self.unread: list[tuple[ConfigFile, str]] = []

    def narrowed(self, files: list[ConfigFile], handlers: list[Handler], plugins: list[Plugin]) -> Self:
        """Some of this run's files and handlers, with its facts of the project (tools, MCP
        servers, the settings' variables), its files and its focus."""
        narrowed = type(self)(files, handlers, self.probe, self.tools, self.mcp_servers, plugins, self.project,
                           self.mcp_sources, self.settings_env)
        narrowed.focus = self.focus
        narrowed.run_files = self.run_files
        return narrowed

    @cached_property
    def servers_by_case(self) -> dict[str, str]:
        """The configured MCP servers by their lower-case name (built once; each matcher asks)."""
        return {server.lower(): server for server in self.mcp_servers}


def kind(handler: Handler) -> str | None:
    """The handler's type (Handler.kind)."""
    return handler.kind


HOST_NAMES = {"claude": "Claude Code", "cursor": "Cursor", "opencode": "opencode", "gemini": "Gemini CLI",
              "grok": "Grok CLI"}


def resolved(path: Path) -> Path:
    """The path with its symlinks followed; as written (made absolute) where they loop or the
    disk refuses (Path.resolve raises RuntimeError on a loop before Python 3.13)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def real_path(path: str, folders: dict[str, str]) -> str:
    """What resolved(Path(path)) gives, as text: the disk asked only whether the last part is a
    link (lstat) where its folder was followed before (`folders`, the real path of each folder
    asked, which this fills in); else Path.resolve's walk, which follows each part of the path
    from the root. A report shows hundreds of files in a few folders: the corpus tree's 269
    files were 60.3 M instructions of Path.resolve and relative_to (report.shown_path), and the
    claude adapter's real paths of the given files 162,000 instructions a file."""
    folder, _, name = path.rpartition("/")
    if folder and name not in ("", ".", ".."):
        try:
            plain = not S_ISLNK(os.lstat(path).st_mode)
        except OSError:  # (missing, or a folder on its way that loops: resolve says what it is)
            plain = False
        if plain:  # (the folder is there, and its real path is the path's but for the last part)
            real_folder = folders.get(folder)
            if real_folder is None:
                real_folder = folders[folder] = real_path(folder, folders)
            return real_folder.rstrip("/") + "/" + name
    return str(resolved(Path(path)))


def timeout_seconds(value: Any) -> float | None:
    """A handler's "timeout" as the host reads it: a positive number of seconds, else None."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None
