"""The words every doctor check speaks: config files, the handlers in them, findings.

Checks are plain functions `check(ctx: Context) -> Iterable[Finding]` in
installer/doctor/checks/<kind>.py. They build findings with `ctx.finding(rule_id, file,
keys, **params)`: the rule's severity, message and hint come from the catalog
(installer/doctor/rules/<kind>.toml, compiled into catalog.json), the line and column from the
JSON path `keys`.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Callable, Generic, Hashable, Iterable, NamedTuple, Sequence, TypeVar, overload

from .. import safe_read
from ..document import Document, Keys
from ..errors import HookwrightError
from ..hosts.base import describe as describe  # re-exported: what a JSON value is, for messages
from ..patterns import lazy

SEVERITIES = ("error", "warning", "info")
RULES_DIR = Path(__file__).resolve().parent / "rules"
CATALOG = "catalog.json"  # compiled from the TOML files: scripts/build_rule_catalog.py


_Value = TypeVar("_Value")


class cached_property(Generic[_Value]):
    """functools.cached_property without the lock Python 3.11's takes on each first read (3.12
    dropped it): doctor reads tens of thousands of them once each, on objects no other thread sees."""

    def __init__(self, compute: Callable[[Any], _Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached_property[_Value]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _Value: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> _Value | cached_property[_Value]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


class Rule:
    def __init__(self, id: str, kind: str, severity: str, message: str, hint: str, explanation: str,
                 variants: dict[str, dict[str, str]] | None = None) -> None:
        self.id = id  # "<kind>/<name>", stable: tools and users refer to it
        self.kind = kind  # structure | matcher | command | script | conflict | host
        self.severity = severity
        self.message = message  # str.format template, filled from the finding's params
        self.hint = hint
        self.explanation = explanation
        # other wordings of one finding, by name (`[rule.<variant>]` in the TOML): message and hint
        self.variants = variants or {}

    def worded(self, variant: str | None) -> tuple[str, str]:
        """(message, hint) templates, the rule's own or one variant's."""
        if variant is None:
            return self.message, self.hint
        chosen = self.variants[variant]
        return chosen.get("message", self.message), chosen.get("hint", self.hint)


@cache
def catalog() -> dict[str, Rule]:
    """Every rule, by id. The rules are written in rules/<kind>.toml (one `[rule-name]` table
    per rule) and compiled into rules/catalog.json (scripts/build_rule_catalog.py; a test
    checks that it matches): json's C parser reads them all in a fraction of what parsing one
    TOML file costs, and every doctor run, and every install's plan check, needs some."""
    raw = json.loads(safe_read.read(RULES_DIR / CATALOG, safe_read.BUNDLED))
    return {rule_id: Rule(rule_id, rule_id.split("/", 1)[0], **fields) for rule_id, fields in raw.items()}


def rule_by_id(rule_id: str) -> Rule:
    return catalog()[rule_id]


def compile_catalog() -> dict[str, dict[str, Any]]:
    """rules/catalog.json's content, from the TOML files (a rule's severity must be a known one)."""
    from ..resources import read_toml  # the package's one TOML reader (here: only a catalog build reads TOML)

    rules: dict[str, dict[str, Any]] = {}
    for path in sorted(RULES_DIR.glob("*.toml")):
        for name, raw in read_toml(path, hint="fix the rule's TOML", kind=safe_read.BUNDLED).items():
            rule_id = f"{path.stem}/{name}"
            if raw["severity"] not in SEVERITIES:
                raise ValueError(f"{path}: {rule_id} has severity {raw['severity']!r}")
            rules[rule_id] = {"severity": raw["severity"], "message": raw["message"], "hint": raw["hint"],
                              "explanation": raw["explanation"].strip()}
            variants = {key: value for key, value in raw.items() if isinstance(value, dict)}
            if variants:
                rules[rule_id]["variants"] = variants
    return rules


# a rule's function: the findings of one rule in the unit its table hands every rule (a command, a matcher...)
RuleFunction = TypeVar("RuleFunction", bound=Callable[..., Iterable["Finding"]])


class RuleTable:
    """A check module's rules: one function per rule, registered with its id by `@table.rule(id)`,
    run in the order they were registered. The rule's words stay in the catalog; the function
    only finds. A test holds every registered id to the catalog, and the catalog to the ids."""

    def __init__(self) -> None:
        self.functions: dict[str, Callable[..., Iterable[Finding]]] = {}
        self.alone: list[str] = []  # rules whose finding means the others do not apply, tried in order
        self._alone: list[Callable[..., Iterable[Finding]]] = []  # (their functions, and the others': the run
        self._others: list[Callable[..., Iterable[Finding]]] = []  # calls them once per unit, thousands of times)

    def rule(self, rule_id: str, alone: bool = False) -> Callable[[RuleFunction], RuleFunction]:
        """`alone`: when this rule finds something, the others are not run (a command that
        cannot start at all has nothing else worth saying). The function is registered as it is."""
        def register(function: RuleFunction) -> RuleFunction:
            if rule_id in self.functions:
                raise ValueError(f"{rule_id} is registered twice")
            self.functions[rule_id] = function
            if alone:
                self.alone.append(rule_id)
            (self._alone if alone else self._others).append(function)
            return function
        return register

    def run(self, *args: Any) -> list[Finding]:
        for function in self._alone:
            found = list(function(*args))
            if found:
                return found
        found = []
        for function in self._others:
            found.extend(function(*args))
        return found


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
        self._positions: dict[Keys, tuple[int, int]] = {}

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
        if at_key and keys:
            parent = document.node_at(*keys[:-1])
            key_start = next((start for name, start, _ in parent.members if name == keys[-1]), None) if parent else None
            if key_start is not None:
                return document.position_of(key_start)
        found = self._positions.get(keys)
        if found is None:
            nearest = document.root  # (the root is there when nothing along the path is)
            for end in range(len(keys), 0, -1):
                node = document.node_at(*keys[:end])
                if node is not None:
                    nearest = node
                    break
            found = self._positions[keys] = document.position_of(nearest.start)
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

    def source(self) -> dict[str, Any]:
        """Where the handler is, as `list --json` and `simulate --json` give it."""
        line, column = self.file.position(self.keys)
        return {"path": str(self.file.path), "scope": self.file.scope, "plugin": self.file.plugin,
                "line": line, "column": column}


class Finding(NamedTuple):
    rule: str
    severity: str
    path: str
    line: int  # 1-based; 1, 1 where the file holds no place for it
    column: int
    message: str
    hint: str
    related: Sequence[dict[str, Any]] = ()  # other places involved: {"path", "line", "column", "message"}
    # what a plan's check tells findings apart by, before and after a change (never printed):
    keys: Keys = ()  # the JSON path it is about
    at_key: bool = False  # at the key of `keys`, not at its value
    about: tuple[Hashable, ...] = ()  # its subject where the message holds more (two racers)
    focused: bool = False  # it involves a handler in Context.focus
    # the files not given (the user's settings, a plugin...) that `doctor FILE` found it with: it
    # depends on this machine (doctor/machine.py); () for a finding of the given files alone
    machine: tuple[str, ...] = ()
    confirmed_by_probe: bool = False  # a static finding that `doctor --probe` saw happen (probe.confirm)

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "severity": self.severity, "path": self.path, "line": self.line,
                "column": self.column, "message": self.message, "hint": self.hint, "related": list(self.related),
                "depends_on_machine": bool(self.machine), "machine_files": list(self.machine),
                "confirmed_by_probe": self.confirmed_by_probe}

    def identity(self) -> tuple[str, str, tuple[Hashable, ...] | str]:
        """The same finding in two runs (before and after a change, alone and with this
        machine's files): by its subject where it names one (a race narrowed to fewer tools is
        the same race), else by its message, wherever it moved in the file."""
        return self.rule, self.path, self.about or _POSITION.sub("#", self.message)


_POSITION = lazy(r"(?<=line )\d+|(?<=:)\d+\b")  # "line 12 of this file", "settings.json:12"


class Plugin:
    """A plugin that a settings file enables: `"enabledPlugins": {"name@marketplace": true}`."""

    def __init__(self, id: str, enabled_in: ConfigFile, install_path: Path | None, hook_files: list[Path]) -> None:
        self.id = id  # "name@marketplace"
        self.enabled_in = enabled_in  # the settings file whose value counts (highest precedence)
        self.install_path = install_path  # from <claude user dir>/plugins/installed_plugins.json; None: not installed
        self.hook_files = hook_files


class Context:
    """The files of a run, their handlers, and what the checks need to know of the project."""

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

    def narrowed(self, files: list[ConfigFile], handlers: list[Handler], plugins: list[Plugin]) -> Context:
        """Some of this run's files and handlers, with its facts of the project (tools, MCP
        servers, the settings' variables), its files and its focus."""
        narrowed = Context(files, handlers, self.probe, self.tools, self.mcp_servers, plugins, self.project,
                           self.mcp_sources, self.settings_env)
        narrowed.focus = self.focus
        narrowed.run_files = self.run_files
        return narrowed

    @cached_property
    def servers_by_case(self) -> dict[str, str]:
        """The configured MCP servers by their lower-case name (built once; each matcher asks)."""
        return {server.lower(): server for server in self.mcp_servers}

    def finding(self, rule_id: str, file: ConfigFile, keys: Keys = (), related: Sequence[dict[str, Any]] | None = None,
                at_key: bool = False, about: tuple[Hashable, ...] = (), focused: bool = False, variant: str | None = None,
                **params: Any) -> Finding:
        """A finding at the value at `keys` (`at_key`: at its key, where the name is what is wrong),
        worded as the rule says, or as one of its variants."""
        line, column = file.position(keys, at_key)
        rule = rule_by_id(rule_id)
        message, hint = rule.worded(variant)
        return Finding(rule.id, rule.severity, str(file.path), line, column, message.format(**params),
                       hint.format(**params), related or [], keys, at_key, about, focused)

    def finding_at(self, rule_id: str, file: ConfigFile, line: int | None, column: int | None,
                   related: Sequence[dict[str, Any]] | None = None, variant: str | None = None, **params: Any) -> Finding:
        """A finding at a known position (a syntax error's line and column, say)."""
        rule = rule_by_id(rule_id)
        message, hint = rule.worded(variant)
        return Finding(rule.id, rule.severity, str(file.path), line or 1, column or 1,
                       message.format(**params), hint.format(**params), related or [])


HOST_NAMES = {"claude": "Claude Code", "cursor": "Cursor", "opencode": "opencode", "gemini": "Gemini CLI",
              "grok": "Grok CLI"}


def resolved(path: Path) -> Path:
    """The path with its symlinks followed; as written (made absolute) where they loop or the
    disk refuses (Path.resolve raises RuntimeError on a loop before Python 3.13)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def timeout_seconds(value: Any) -> float | None:
    """A handler's "timeout" as the host reads it: a positive number of seconds, else None."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None
