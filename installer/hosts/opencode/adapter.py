"""opencode: one generated plugin module per pack, and how our hooks live in it.

opencode has no list of hooks: plugins are JavaScript modules it loads in-process (its own
Bun), from `.opencode/plugins/` (project) and `$XDG_CONFIG_HOME/opencode/plugins/` (user;
`~/.config/opencode/plugins/` without the variable), `*.js` and `*.ts` one level deep only.
So a pack becomes a file, `hookwright-<pack>.js`, whose only export is the plugin (opencode
drops a whole file for one extra export that is not a function). Its `tool.execute.before`
asks the pack's Python runtime, the same one the other hosts run, started once per opencode
process in its serving mode (`--serve`, one JSON line per call, answered by request id), with a
payload in Claude Code's words, and applies the answer: a deny throws the reason (the model
receives it as the tool's result, and the call does not run); a rewrite changes `output.args`
in place, deleting the keys the new input drops (reassigning `output.args` is ignored);
anything else, a timeout, a dead runtime or a garbled answer passes, with a line in
hookwright's log. (Measured on opencode 1.18.33: docs/hosts/opencode.md#output-protocol,
#runtime.)

The file is ours by its name and its first line, which holds what it was made from as JSON;
it is a pure function of that data, so a file that differs from what its first line makes
was edited, and is never overwritten or removed without --force. The runtimes sit beside
the plugins folder, in `hookwright/<pack>/`, found from the plugin's own URL, so a committed
project plugin works wherever the project is checked out.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterable, Iterator

from ... import resources, safe_read
from ...document import Document
from ...errors import ExitCode, HookwrightError
from ...hooks.model import Candidate, ConfigFile, resolved
from ...layout import DEFAULT_PYTHON, PLUGIN_PREFIX, RUNTIME_FOLDER, plugin_file
from ...patterns import lazy
from ..base import Capabilities, Entry, HandlerPlace, Host, Scope, Target, deep, folders_below
from ..claude.adapter import tools_named
from . import KINDS, PLUGIN_FOLDERS, PLUGIN_KIND, SCRIPT_SUFFIXES, TITLE, TOOL_INPUTS, scope_folder, user_dir

HEADER = "// hookwright-plugin "
FORMAT = 1
EVENT = "tool.execute.before"
# opencode's own tools (docs/hosts/opencode.md#tool-names): every other tool is an MCP server's. 1.18.33
# has no list, multiedit or todoread (measured: a call to one reaches the plugins as tool `invalid`)
OWN_TOOLS = ("apply_patch", "bash", "batch", "codesearch", "edit", "glob", "grep", "invalid", "lsp", "patch",
             "question", "read", "skill", "task", "todowrite", "webfetch", "websearch", "write")
# what other hosts and other opencode versions call opencode's tools, for a plugin that compares
# input.tool with one: opencode 1.18.33 offers none of them, so input.tool never equals one
# (docs/hosts/opencode.md#tool-names; a call to a tool it does not offer reaches the plugins as `invalid`)
OTHER_HOSTS_TOOL_NAMES = {
    "shell": "bash", "sh": "bash", "terminal": "bash", "exec": "bash", "run": "bash", "command": "bash",
    "local_shell": "bash", "exec_command": "bash", "run_shell_command": "bash", "run_terminal_cmd": "bash",
    "execute_command": "bash", "write_file": "write", "create_file": "write", "writefile": "write",
    "read_file": "read", "readfile": "read", "view": "read", "edit_file": "edit", "str_replace": "edit",
    "str_replace_editor": "edit", "str_replace_based_edit_tool": "edit", "replace": "edit", "multiedit": "edit",
    "search_replace": "edit", "list": "glob", "ls": "glob", "list_directory": "glob", "list_dir": "glob",
    "find": "glob", "file_search": "glob", "search": "grep", "grep_search": "grep", "search_file_content": "grep",
    "fetch": "webfetch", "web_fetch": "webfetch", "web_search": "websearch",
    "update_plan": "todowrite", "todo": "todowrite", "agent": "task", "applypatch": "apply_patch"}
# the names Claude Code gives the same tools, which the runtimes read (Claude Code's LS, MultiEdit
# and TodoRead have none in opencode)
CLAUDE_TOOL_NAMES = {"bash": "Bash", "read": "Read", "write": "Write", "edit": "Edit", "glob": "Glob", "grep": "Grep",
                     "webfetch": "WebFetch", "websearch": "WebSearch", "todowrite": "TodoWrite", "task": "Task",
                     "skill": "Skill"}
# the keys of opencode 1.x's plugin hooks (docs/hosts/opencode.md#events), and every name the 1.18.33
# binary's plugin service triggers (scripts/host_drift.py): a function under any other key is never
# called (measured on 1.18.33 with tool.before, PreToolUse and tool.execute.Before)
HOOK_KEYS = ("auth", "chat.headers", "chat.message", "chat.params", "command.execute.before", "config", "dispose",
             "event", "experimental.chat.messages.transform", "experimental.chat.system.transform",
             "experimental.compaction.autocontinue", "experimental.provider.small_model", "experimental.session.compacting",
             "experimental.text.complete", "permission.ask", "provider", "shell.env", "tool", "tool.definition",
             "tool.execute.after", "tool.execute.before")
# the events of opencode's bus in the 1.18.33 binary (its `type:"..."` event definitions): the
# `event` hook gets them as `{event: {type, properties}}`; a function under one of these names as
# a hook key is never called
BUS_EVENTS = frozenset({
    "catalog.updated", "command.executed", "file.edited", "file.watcher.updated", "global.disposed",
    "installation.updated", "integration.connection.updated", "integration.updated", "lsp.updated",
    "mcp.browser.open.failed", "mcp.tools.changed", "message.part.delta", "message.part.removed",
    "message.part.updated", "message.removed", "message.updated", "permission.asked", "permission.replied",
    "plugin.added", "project.directories.updated", "project.updated", "pty.created", "pty.deleted", "pty.exited",
    "pty.updated", "question.asked", "question.rejected", "question.replied", "reference.updated",
    "server.connected", "session.compacted", "session.created", "session.deleted", "session.diff", "session.error",
    "session.idle", "session.status", "session.updated", "todo.updated", "tui.command.execute", "tui.prompt.append",
    "tui.session.select", "tui.toast.show", "vcs.branch.updated", "workspace.failed", "workspace.ready",
    "workspace.status", "worktree.failed", "worktree.ready"})
# hooks the plugin types name that the 1.18.33 binary never calls: it has no trigger("permission.ask"),
# and a permission.ask hook was not called when a tool's permission was `ask` (measured,
# docs/hosts/opencode.md#events)
NEVER_TRIGGERED = frozenset({"permission.ask"})
OPENCODE_TOOL_OF_CLAUDE = {claude: own for own, claude in CLAUDE_TOOL_NAMES.items()}
EVERY_TOOL = "*"  # a hook's `tools` that runs it for every tool
# the nearest hook for a Claude Code event (docs/hosts/opencode.md#event-mapping); the others are
# bus events that the `event` hook gets. (PermissionRequest's nearest, permission.ask, is not among
# the hooks the 1.18.33 binary triggers: no hook is named for it.)
HOOK_FOR_CLAUDE_EVENT = {"PreToolUse": "tool.execute.before", "PostToolUse": "tool.execute.after",
                         "PostToolUseFailure": "tool.execute.after", "UserPromptSubmit": "chat.message",
                         "PreCompact": "experimental.session.compacting"}
_NOT_IN_A_TOOL_NAME = lazy(r"[^A-Za-z0-9_-]")
_FILE_NAME = lazy(r"^hookwright-(?P<pack>[a-z][a-z0-9-]*)\.js$")
_SCRIPT = lazy(r"(?:^|/)hookwright/(?P<pack>[a-z][a-z0-9-]*)/(?P<script>[a-z][a-z0-9-]*)$")


LOADED_SUFFIXES = (".js", ".ts")

# What a plugin may import with nothing installed (docs/hosts/opencode.md#plugin-loading): Node's
# modules, with or without `node:`, and Bun's; and the plugin SDK with the packages it depends on,
# which opencode installs into each config folder itself on its first start there, before it loads
# the plugins (measured on 1.18.33: in a fresh `.opencode/`, plugins importing `yaml` and `zod`
# loaded, one importing `picomatch` did not; the list is the package-lock.json it wrote). Any other package must be in
# a node_modules folder above the plugin, or in the config folder's package.json, which opencode
# installs at start-up (plugins docs): an import that resolves nowhere leaves the plugin out,
# without a word (measured on 1.18.33, tests/e2e/test_doctor_opencode_load_e2e.py).
NODE_MODULES = frozenset({
    "assert", "assert/strict", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto",
    "dgram", "diagnostics_channel", "dns", "dns/promises", "domain", "events", "fs", "fs/promises", "http", "http2",
    "https", "inspector", "module", "net", "os", "path", "path/posix", "path/win32", "perf_hooks", "process",
    "punycode", "querystring", "readline", "readline/promises", "repl", "stream", "stream/consumers",
    "stream/promises", "stream/web", "string_decoder", "sys", "timers", "timers/promises", "tls", "trace_events",
    "tty", "url", "util", "util/types", "v8", "vm", "wasi", "worker_threads", "zlib"})
PROVIDED_PACKAGES = frozenset({
    "bun", "@opencode-ai/plugin", "@ai-sdk/provider", "@opencode-ai/sdk", "@standard-schema/spec", "cross-spawn",
    "detect-libc", "effect", "fast-check", "find-my-way-ts", "ini", "isexe", "json-schema", "kubernetes-types", "msgpackr",
    "msgpackr-extract", "multipasta", "node-gyp-build-optional-packages", "path-key", "pure-rand", "shebang-command",
    "shebang-regex", "toml", "uuid", "which", "yaml", "zod"})
# what Bun tries for a relative import without its file's extension, and for `./x.js` naming `x.ts`
IMPORT_SUFFIXES = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".json", ".node")


def imported_package(spec: str) -> str | None:
    """The npm package an import names (`picomatch`, `@scope/pkg` of `@scope/pkg/sub`); None for
    Node's and Bun's own modules, the SDK opencode provides, and a path."""
    if spec.startswith((".", "/", "node:", "bun:", "file:")) or not spec or spec in NODE_MODULES:
        return None
    parts = spec.split("/")
    package = "/".join(parts[:2]) if spec.startswith("@") else parts[0]
    return None if package in PROVIDED_PACKAGES else package


def import_candidates(plugin: Path, spec: str) -> list[Path]:
    """The files a relative import may be (Bun's resolution: as written, with each suffix, the
    folder's index, and a `.js` naming its `.ts`)."""
    target = plugin.parent / spec
    found = [target, *(Path(f"{target}{suffix}") for suffix in IMPORT_SUFFIXES),
             *(target / f"index{suffix}" for suffix in IMPORT_SUFFIXES)]
    if target.suffix in (".js", ".jsx", ".mjs", ".cjs"):
        found += [target.with_suffix(suffix) for suffix in (".ts", ".tsx", ".mts", ".cts")]
    return found


def why_not_loaded(path: Path) -> str | None:
    """Why opencode does not load this file from a plugins folder (None: it does). Measured on
    1.18.33: `*.js` and `*.ts` directly in `plugins/` or `plugin/` load; `.mjs`, `.cjs` and
    anything in a subfolder are skipped without a word."""
    if path.parent.name not in PLUGIN_FOLDERS:
        return f"it is in a subfolder ({path.parent.name}/) of the plugins folder, and opencode loads only the files directly in it"
    if path.suffix.lower() not in LOADED_SUFFIXES:
        return f"opencode loads only .js and .ts files from a plugins folder, not {path.suffix or 'a file without an extension'}"
    return None


def mcp_tool_name(server: str, tool: str) -> str:
    """What opencode calls an MCP server's tool in `input.tool`: `<server>_<tool>`, every character
    outside [A-Za-z0-9_-] made `_` (measured on 1.18.33: server `My-Srv.x`, tool `do.thing` gave
    `My-Srv_x_do_thing`)."""
    return tool_name(f"{server}_{tool}")


def tool_name(name: str) -> str:
    """A tool's name as opencode writes it in `input.tool`: every character outside [A-Za-z0-9_-] `_`."""
    replaced: str = _NOT_IN_A_TOOL_NAME.sub("_", name)
    return replaced


def config_folders(project: Path) -> list[tuple[str, Path]]:
    """(scope, folder) of every opencode config folder a session in `project` reads, in the
    order opencode reads their plugins: the user's, OPENCODE_CONFIG_DIR's, the project's."""
    found = [("user", user_dir())]
    if os.environ.get("OPENCODE_CONFIG_DIR"):
        found.append(("user", Path(os.environ["OPENCODE_CONFIG_DIR"])))
    found.append(("project", project / ".opencode"))
    return found


CONFIG_NAMES = ("opencode.json", "opencode.jsonc")
# what a plugin spec naming a folder loads, without a package.json there: the first of these (the
# 1.18.33 binary's loader; neither there: "Plugin directory ... is missing package.json or index file")
FOLDER_ENTRIES = ("index.ts", "index.tsx", "index.js", "index.mjs", "index.cjs")
LOCAL_SPEC = lazy(r"^(\.{1,2}/|/|file://)")  # a plugin given by path, not an npm package
_JSON5_PLACE = lazy(r"^<string>:(?P<line>\d+) (?P<what>.*?)(?: at column (?P<column>\d+))?$")


def read_config(path: Path, raw: bytes) -> Any:
    """An opencode.json(c): JSON with comments and trailing commas (docs/hosts/opencode.md#config-files). Most
    are strict JSON, which the json module reads a hundred times faster than json5 (the same
    value: JSON5 is a superset); json5 reads the rest and says where a broken one breaks."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise HookwrightError(f"not UTF-8 text (byte {err.start})", path=path, line=1, column=1,
                              hint="save the file as UTF-8") from None
    try:
        return json.loads(text)
    except ValueError:
        pass
    import json5  # (an opencode.json only: 10 to 19 ms on doctor's start otherwise, scripts/bench_start.py)

    try:
        return json5.loads(text)
    except ValueError as err:
        found = _JSON5_PLACE.match(str(err).split("\n")[0])
        line, column = (int(found["line"]), int(found["column"] or 1)) if found else (1, 1)
        raise HookwrightError(found["what"] if found else str(err).split("\n")[0], path=path, line=line,
                              column=column, hint="fix the file; it is JSON with comments and trailing commas "
                                                  "allowed (JSONC)") from None


def plugin_specs(data: Any) -> Iterator[Any]:
    """The entries of a config's `plugin` list, each a spec or [spec, options]."""
    listed = data.get("plugin") if isinstance(data, dict) else None
    yield from listed if isinstance(listed, list) else ()


def local_plugin(config: Path, entry: Any) -> Path | None:
    """The file a `plugin` entry names, resolved as opencode does: relative to the config, or to
    the folder above `.opencode/` for a config inside it (None: an npm package, or no spec)."""
    spec = entry[0] if isinstance(entry, list) and entry and isinstance(entry[0], str) else entry
    if not isinstance(spec, str) or not LOCAL_SPEC.match(spec):
        return None
    base = config.parent.parent if config.parent.name == ".opencode" else config.parent
    written = spec.removeprefix("file://")
    return Path(written) if written.startswith("/") else (base / written).resolve()


def _lists_plugins(path: Path) -> bool:
    """A config whose `plugin` list names something (a config that does not parse lists nothing)."""
    raw = safe_read.read_or_none(path, safe_read.CONFIG)
    if raw is None or b'"plugin"' not in raw:
        return False
    try:
        return any(True for _ in plugin_specs(read_config(path, raw)))
    except HookwrightError:
        return False


def custom_tools(folders: Iterable[Path]) -> frozenset[str]:
    """The tools the `tool/` and `tools/` folders of these config folders add: each file's name
    (its named exports add `<file>_<export>`, which hold a `_`). Source: opencode's custom tools docs."""
    found = set()
    for folder in folders:
        for sub in ("tool", "tools"):
            try:
                found |= {Path(name).stem for name in os.listdir(folder / sub) if name.endswith((".ts", ".js"))}
            except OSError:
                continue
    return frozenset(found)


class PluginDocument(Document):
    """A generated plugin file: its data is the JSON of its first line, and `render` makes the
    whole file from data (so install twice writes the same bytes)."""

    def render(self, new_data: Any) -> bytes:
        return render_plugin(new_data) if new_data else b""


def read_plugin(path: Path, raw: bytes | None) -> PluginDocument:
    """The plugin file at `path` (None: there is none); data {} for a file without our first line."""
    if raw is None:
        return PluginDocument(path=path, raw=b"", text="", data={}, root=None, exists=False)
    text = raw.decode("utf-8", "replace")
    first = text.removeprefix("\ufeff").split("\n", 1)[0]
    data: Any = {}
    if first.startswith(HEADER):
        try:
            data = json.loads(first[len(HEADER):])
        except ValueError:
            data = {}
    return PluginDocument(path=path, raw=raw, text=text, data=data if isinstance(data, dict) else {}, root=None)


# ---- the files doctor reads -----------------------------------------------------------------

def _config_files(project: Path, also: frozenset[Path]) -> list[Candidate]:
    """opencode's config files, then its plugins in the order it runs them (docs/hosts/opencode.md#load-order): the local files the configs' `plugin` lists name (the user's first), then every file
    in its plugins folders (and one level below: doctor says why opencode skips those), each
    folder in run order; then `also`'s files in a plugins folder."""
    folders = config_folders(project)
    configs = [Candidate(folder / name, scope, "opencode-config", project)
               for scope, folder in folders if scope == "user" for name in CONFIG_NAMES]
    configs += [Candidate(folder / name, "project", "opencode-config", project)
                for folder in (project, project / ".opencode") for name in CONFIG_NAMES]
    in_folders: list[Candidate] = []
    for scope, folder in folders:
        for plugins in (folder / name for name in PLUGIN_FOLDERS):
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
        data = read_config(config, safe_read.read(config, safe_read.CONFIG))
    except (OSError, HookwrightError):
        return []  # (missing: nothing to list; unreadable: its own finding)
    return [(entry[0] if isinstance(entry, list) else entry, path) for entry in plugin_specs(data)
            if (path := local_plugin(config, entry)) is not None]


def _in_run_order(folder: Path) -> list[Path]:
    """A plugins folder's entries in the order opencode runs them: the reverse of the order the
    filesystem lists them, not sorted (measured on 1.18.33: the listing z, a, b, m ran m, b, a, z),
    so the file listed first runs last, and its changes to a call win."""
    try:
        return [Path(entry.path) for entry in os.scandir(folder)][::-1]
    except OSError:
        return []


class Opencode(Host):
    name = "opencode"
    title = TITLE
    scopes = (Scope.user, Scope.project)
    # context: no hook of a plugin's tool.execute.before reaches the model but a thrown reason;
    # questions: opencode's question tool takes no answer from a plugin
    capabilities = Capabilities(block=True, rewrite_input=True, add_context=False, answer_questions=False)
    rewrite_events = frozenset({EVENT})
    rewrite_field = "output.args"  # changed in place
    rewrites_combine = "in-order"  # (docs/hosts/opencode.md#several-hooks)
    programs = ("opencode",)
    file_per_pack = True
    starts_per_call = False  # (the plugin keeps one serving runtime per opencode process)
    schema = "opencode-plugin.schema.json"
    plugin_file_kind = PLUGIN_KIND
    file_kinds = KINDS
    native_events = {EVENT: ("PreToolUse", None)}  # simulate takes opencode's name of the call's event
    # write creates or replaces a file, edit changes one in place (measured on 1.18.33: a guard
    # picking write never saw the edit of the file it protects, docs/hosts/opencode.md#tool-names);
    # apply_patch, offered to some models instead of both, is not counted
    file_changing_tools = ("write", "edit")
    claude_tool_names = CLAUDE_TOOL_NAMES
    # the arguments its own tools take, as a plugin's output.args holds them (TOOL_ARGUMENTS)
    tool_inputs = TOOL_INPUTS
    simulated = True  # simulate.py: the plugins run in opencode's own runtime
    # none of another agent's: a plugin gets the project as `directory` and `worktree`, and what
    # it runs gets opencode's own environment (measured on 1.18.33: docs/hosts/opencode.md#runtime)
    hook_variables = frozenset[str]()

    def config_files(self, project: Path, also: frozenset[Path] = frozenset()) -> list[Candidate]:
        return _config_files(project, also)

    def files_never_read(self, start: Path) -> list[tuple[Path, str]]:
        """The plugins of the `.opencode/` folders below `start`, and the `opencode.json` files there
        that list plugins: opencode reads its project config and `.opencode/` folders from the
        folder it starts in up to the git root, never below it (measured on 1.18.33,
        tests/e2e/test_doctor_opencode_load_e2e.py: started at the root, a package's
        `.opencode/plugins/` guard and the plugin its opencode.json listed let their calls run; started
        in the package, both refused theirs, and so did the root's `.opencode/plugins/` guard)."""
        found: list[tuple[Path, str]] = []
        for sub in folders_below(start):
            for folder in (sub / ".opencode" / name for name in PLUGIN_FOLDERS):
                if folder.is_dir():
                    found += [(path, "opencode-below") for path in sorted(folder.iterdir())
                              if path.suffix in LOADED_SUFFIXES and path.is_file()]
            found += [(path, "opencode-below") for path in (sub / name for name in CONFIG_NAMES)
                      if path.is_file() and _lists_plugins(path)]
        return found

    def project_of(self, file: ConfigFile) -> Path | None:
        """The project of a plugin in its .opencode/plugins folder, or of an opencode.json in it or
        in its .opencode folder."""
        real = resolved(file.path)
        if real.parent.name in PLUGIN_FOLDERS and real.parent.parent.name == ".opencode":
            return real.parent.parent.parent
        if real.name in CONFIG_NAMES:
            return real.parent.parent if real.parent.name == ".opencode" else real.parent
        return None

    def _target(self, scope: Scope, project: Path | None, pack: str | None) -> Target:
        base = scope_folder(project)
        plugins = base / "plugins"
        return Target(self.name, scope, plugins / plugin_file(pack) if pack else plugins, base / RUNTIME_FOLDER,
                      project)

    def render(self, target: Target, pack: Any, options: dict[str, Any], python: str = DEFAULT_PYTHON) -> list[Entry]:
        entries = []
        for hook in pack.hooks_for(self.name):
            wiring = hook.targets[self.name]
            closed = pack.fails_closed(hook, options)
            handler = {"script": f"../hookwright/{pack.name}/{hook.script}",
                       "args": self.runtime_args(pack, options, closed), "tools": wiring.matcher,
                       "timeout": wiring.whole_timeout}
            if python != DEFAULT_PYTHON:
                handler["python"] = python
            entries.append(Entry.of(pack.name, hook.id, EVENT, wiring.matcher, handler))
        return entries

    def wiring_from_claude(self, hook: Any, claude: Any) -> Any:
        """A Claude Code PreToolUse hook runs from the plugin's tool.execute.before, for the same
        tools under opencode's names (`*`: every tool; `mcp`: every MCP tool); the plugin has no
        other event (docs/hosts/opencode.md#event-mapping)."""
        from ...packs import HostTarget

        if claude.event != "PreToolUse":
            return f"hookwright's opencode plugin runs hooks before a tool call only, not on {claude.event}"
        tools = tools_named(claude.matcher)
        if isinstance(tools, str):
            return tools
        if tools.every:
            return HostTarget(EVENT, EVERY_TOOL, claude.timeout)
        if tools.every_mcp:
            if tools.names:
                return "opencode's plugin runs a hook for named tools or for every MCP tool, not both"
            return HostTarget(EVENT, "mcp", claude.timeout)
        names = []
        for name in tools.names:
            if name.startswith("mcp__") and name.count("__") >= 2:
                names.append(mcp_tool_name(*name.split("__", 2)[1:]))
            elif name in OPENCODE_TOOL_OF_CLAUDE:
                names.append(OPENCODE_TOOL_OF_CLAUDE[name])
            else:
                return f"opencode has no tool for Claude Code's {name}"
        return HostTarget(EVENT, "|".join(dict.fromkeys(names)), claude.timeout)

    def interpreter_of(self, handler: Any) -> str | None:
        if self.owner(handler) is None:
            return None
        python = handler.get("python")
        return python if isinstance(python, str) else DEFAULT_PYTHON

    def tools_in_words(self, matcher: str | None) -> str:
        return "every MCP tool (every tool that is not one of opencode's own)" if matcher == "mcp" else \
            ", ".join(matcher.split("|")) if matcher and matcher != EVERY_TOOL else "every tool"

    def owner(self, handler: Any) -> tuple[str, str] | None:
        if not isinstance(handler, dict):
            return None
        found = _SCRIPT.search(str(handler.get("script", "")))
        return (found["pack"], found["script"]) if found else None

    # ---- reading -------------------------------------------------------------------------

    def load(self, path: Path) -> Document:
        try:
            return read_plugin(path, safe_read.read(path, safe_read.CONFIG))
        except FileNotFoundError:
            return read_plugin(path, None)

    def parse(self, path: Path, raw: bytes, lenient: bool = False) -> Document:
        return read_plugin(path, raw)

    def check(self, doc: Document, target: Target, force: bool) -> None:
        if not doc.exists:
            return
        if doc.data == {} and not force:
            raise HookwrightError("a plugin file hookwright did not write has this name", path=doc.path,
                                  code=ExitCode.REFUSED,
                                  hint="rename or remove it, or rerun with --force to replace it")
        if self.edited(doc, target) and not force:
            raise HookwrightError("this plugin file was edited since hookwright wrote it; it is left as it is",
                                  path=doc.path, code=ExitCode.REFUSED,
                                  hint="rerun with --force to replace it (the backup keeps the edited file)")


    def edited(self, doc: Document, target: Target) -> bool:
        """Changed by hand since hookwright wrote it: neither the bytes its receipt records
        (written by any version of hookwright) nor what its first line makes now."""
        if not doc.exists or doc.data == {}:
            return False
        from ...state import read_receipt, sha256

        name = _FILE_NAME.match(doc.path.name)
        try:
            receipt = read_receipt(target.receipt_path(name["pack"])) if name else None
        except HookwrightError:  # (an unreadable receipt is its own problem: the bytes still say)
            receipt = None
        if receipt is not None and receipt.config_sha256 == sha256(doc.raw):
            return False
        return render_plugin(doc.data) != doc.raw

    def packs_in(self, target: Target) -> set[str]:
        """The packs whose plugin file is in this scope's plugins folder (ours by name and first line)."""
        folder = target.config if target.config.suffix != ".js" else target.config.parent
        found = set()
        for path in sorted(folder.glob(f"{PLUGIN_PREFIX}*.js")) if folder.is_dir() else []:
            name = _FILE_NAME.match(path.name)
            if name and self.load(path).data:
                found.add(name["pack"])
        return found

    def holds_nothing(self, data: Any) -> bool:
        return not data or not data.get("hooks")

    # ---- our entries in a file -----------------------------------------------------------

    def walk(self, data: Any) -> Iterator[HandlerPlace]:
        """The hooks a hookwright plugin's first line lists (a foreign plugin's are read by doctor)."""
        for index, hook in enumerate((data or {}).get("hooks") or []):
            if isinstance(hook, dict):
                yield HandlerPlace(EVENT, ("hooks", index), ("hooks", index), hook.get("tools"), hook)

    def add(self, data: Any, entry: Entry) -> dict[str, Any]:
        plugin: dict[str, Any] = deep(data) if data else {"format": FORMAT, "pack": entry.pack, "hooks": []}
        plugin["hooks"].append(entry.handler)
        return plugin

    def remove(self, data: Any, entry: Entry, keep_empty: list[str]) -> dict[str, Any]:
        data = deep(data)
        script = self.owner(entry.handler)
        data["hooks"] = [h for h in data.get("hooks") or [] if self.owner(h) != script]
        return data if data["hooks"] else {}

    def replace(self, data: Any, old: Entry, new: Entry) -> dict[str, Any]:
        plugin: dict[str, Any] = deep(data)
        script = self.owner(old.handler)
        plugin["hooks"] = [new.handler if self.owner(h) == script else h for h in plugin["hooks"]]
        return plugin

    def empty_containers(self, data: Any, entries: list[Entry]) -> list[str]:
        return []  # (the file is the container: it goes with its last entry)


HOST = Opencode()


def export_name(pack: str) -> str:
    return "Hookwright" + "".join(part.capitalize() for part in pack.split("-"))


def render_plugin(data: dict[str, Any]) -> bytes:
    """The plugin module for this data, byte for byte the same for the same data."""
    template = resources.bundled_text("templates", "opencode", "plugin.js")
    header = HEADER + json.dumps(data, sort_keys=True, separators=(",", ":"))
    hooks = json.dumps(data.get("hooks", []), indent=2, sort_keys=True)
    text = (template.replace("__HEADER__", header).replace("__PACK_NAME__", data["pack"])
            .replace("__PACK__", json.dumps(data["pack"]))
            .replace("__EXPORT__", export_name(data["pack"])).replace("__HOOKS__", hooks)
            .replace("__OWN_TOOLS__", json.dumps(list(OWN_TOOLS)))
            .replace("__TOOL_NAMES__", json.dumps(CLAUDE_TOOL_NAMES, sort_keys=True)))
    return text.encode("utf-8")
