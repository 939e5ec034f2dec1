"""simulate for opencode: the project's plugins on one sample tool call, in opencode's own runtime.

opencode is one Bun-compiled executable, and with BUN_BE_BUN=1 it runs a script as Bun itself
(measured on 1.18.33: `BUN_BE_BUN=1 opencode --version` printed Bun's version, 1.3.14, and ran a
script), so the plugins run in the runtime opencode loads them in: templates/opencode/simulate.js
loads them and triggers `tool.execute.before` as opencode's plugin service does
(docs/hosts/opencode.md#simulate). Which plugins run, and in which order, is doctor's discovery
(installer/doctor/discovery.py), the order opencode runs them in.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

from ... import resources, safe_read, sandbox
from ...errors import HookwrightError
from ...hooks.calls import Call
from ...hooks.model import Configs
from ...records import Record
from . import adapter as opencode

EVENT = opencode.EVENT
RUN_AS_BUN = "BUN_BE_BUN"
TIMEOUT = 120.0  # seconds: opencode puts no timeout on a plugin's hook; simulate stops waiting here
CLAUDE_TO_OPENCODE_TOOLS = {claude: own for own, claude in opencode.CLAUDE_TOOL_NAMES.items()}


class Runtime(Record):
    """opencode's executable, and the Bun it is."""

    program: Path
    bun: str


def runtime() -> tuple[Runtime | None, str | None]:
    """The opencode on PATH, run as Bun, or why there is none to run the plugins in."""
    found = shutil.which("opencode")
    if found is None:
        return None, "opencode is not installed here (no `opencode` on PATH), so its plugins cannot run in its runtime"
    with tempfile.TemporaryDirectory(prefix="hookwright-opencode-") as scratch:
        try:
            done = subprocess.run([found, "--version"], env={**os.environ, RUN_AS_BUN: "1", "HOME": scratch},
                                  capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as error:
            return None, f"{found} did not start as Bun: {error}"
    version = done.stdout.strip()
    if done.returncode != 0 or not version[:1].isdigit():
        return None, f"{found} is no Bun-built opencode ({RUN_AS_BUN}=1 {found} --version printed {version[:40]!r})"
    return Runtime(Path(found), version), None


def tool_name(tool: str) -> str:
    """opencode's name of a tool given in Claude Code's words (`Bash` is `bash`, `mcp__fs__read` is
    `fs_read`), or as it is."""
    if tool.startswith("mcp__") and tool.count("__") >= 2:
        _, server, name = tool.split("__", 2)
        return opencode.mcp_tool_name(server, name)
    return CLAUDE_TO_OPENCODE_TOOLS.get(tool, tool)


def plugins_in_order(files: list[Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """(each plugin file opencode loads, in the order it runs them, with its options; why the other
    plugin files doctor found are not loaded)."""
    loaded, skipped = [], []
    options = _options(files)
    for file in files:
        if file.kind != "opencode-plugin":
            continue
        why = None if file.plugin else opencode.why_not_loaded(file.path)
        if why is not None:
            skipped.append(f"{file.path}: {why}")
            continue
        loaded.append({"path": str(file.path), "options": options.get(file.path) if file.plugin else None})
    return loaded, skipped


def _options(files: list[Any]) -> dict[Path, Any]:
    """The options a config's `plugin` list gives each local plugin it names (`[spec, options]`)."""
    found: dict[Path, Any] = {}
    for file, data in _configs(files):
        for entry in opencode.plugin_specs(data):
            path = opencode.local_plugin(file.path, entry)
            if path is not None and isinstance(entry, list) and len(entry) > 1:
                found[path] = entry[1]
    return found


def _configs(files: list[Any]) -> list[tuple[Any, Any]]:
    """(file, its data) of each opencode config doctor found that can be read (JSON with comments)."""
    found = []
    for file in files:
        if file.kind == "opencode-config" and file.error is None:
            try:
                found.append((file, opencode.read_config(file.path, safe_read.read(file.path, safe_read.CONFIG))))
            except (OSError, HookwrightError):
                continue
    return found


class Run(Record):
    """What the driver reported, or why it did not."""

    report: dict[str, Any] | None
    stdout: str
    stderr: str
    failure: str | None  # the driver did not finish: killed at TIMEOUT, or it crashed


def run(where: Runtime, plugins: list[dict[str, Any]], tool: str, args: dict[str, Any], project: Path,
        timeout: float = TIMEOUT, sandboxed: bool = False) -> Run:
    """The plugins on one call of `tool` with `args`, in `project`, as opencode triggers them
    (`sandboxed`: in installer/sandbox.py's sandbox, the project and the plugins readable)."""
    request = {"plugins": plugins, "tool": tool, "args": args, "directory": str(project), "worktree": str(project),
               "sessionID": f"ses_{uuid.uuid4().hex[:24]}", "callID": f"call_{uuid.uuid4().hex[:24]}"}
    driver = resources.data_root() / "templates" / "opencode" / "simulate.js"
    with tempfile.TemporaryDirectory(prefix="hookwright-simulate-") as scratch:
        out = Path(scratch) / "report.json"
        argv = [str(where.program), str(driver), str(out)]
        if sandboxed:
            shown = {project, driver.parent, *(Path(p["path"]).parent for p in plugins)}
            argv = sandbox.wrapper(Path(scratch), project, shown)(argv)
        try:
            done = subprocess.run(argv, input=json.dumps(request), text=True,
                                  capture_output=True, cwd=project, env={**os.environ, RUN_AS_BUN: "1"},
                                  timeout=timeout, start_new_session=True)
        except subprocess.TimeoutExpired as expired:
            return Run(None, _text(expired.stdout), _text(expired.stderr),
                       f"a hook was still running after {timeout:g} s (opencode puts no timeout on a plugin's hook: "
                       "the call would wait for it)")
        found = safe_read.read_or_none(out, safe_read.INPUT)  # (the plugins ran in that process: anything may be there)
        try:
            report = json.loads(found) if found is not None else None
        except ValueError:
            report = None
    failure = None if report is not None else f"the plugins ended the runtime (exit {done.returncode})"
    return Run(report, done.stdout, done.stderr, failure)


def _text(value: bytes | str | None) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value or ""


def npm_plugins(files: list[Any]) -> list[str]:
    """The npm packages the project's opencode configs list as plugins: opencode installs them at
    start-up, so simulate does not run them."""
    return [str(entry[0] if isinstance(entry, list) else entry) for file, data in _configs(files)
            for entry in opencode.plugin_specs(data) if opencode.local_plugin(file.path, entry) is None]


TITLE = "opencode"
BLOCKED = ("the tool does not run: the model gets the thrown message as the tool's result (its part: status error), "
           "and later plugins' hooks are not called")
EXITED = "process.exit in a hook ends opencode itself: the tool does not run and the model gets no result"


def simulate(ctx: Configs, project: Path, call: Call, in_sandbox: object = None) -> dict[str, Any]:
    """The outcome of the call for opencode, or why it is not simulated: opencode's plugins are
    simulated on a tool call (with --sandbox, in a sandbox of their own: `in_sandbox` is Cursor's)."""
    if call.event != "PreToolUse" or call.tool is None:
        return {"host": opencode.HOST.name, "title": TITLE, "simulated": False,
                "why": f"opencode's plugins are simulated on a tool call ({EVENT}), not on {call.event}"}
    return _tool_call(ctx.files, project, call.tool, call.tool_input or {}, call.list_only, call.sandboxed)


def _tool_call(files: list[Any], project: Path, tool: str, args: dict[str, Any], list_only: bool = False,
               sandboxed: bool = False) -> dict[str, Any]:
    """The outcome of one tool call for opencode: which plugins load, what each plugin's
    tool.execute.before did, and what opencode does with it (simulate's host entry); `sandboxed`:
    the plugins run in a sandbox (simulate --sandbox)."""
    plugins, skipped = plugins_in_order(files)
    notes = [f"not loaded by opencode: {why}" for why in skipped]
    notes += [f"not simulated: {spec} is an npm plugin, which opencode installs at start-up" for spec in npm_plugins(files)]
    name = tool_name(tool)
    entry: dict[str, Any] = {"host": opencode.HOST.name, "title": TITLE, "event": EVENT, "tool": name, "given_input": args,
                             "simulated": True, "why": None, "runtime": None, "handlers": [], "notes": notes,
                             "decision": "none", "blocked": False, "reason": None, "tool_input": args,
                             "effect": "no plugin of the project's: it runs"}
    if not plugins:
        return entry
    where, why = runtime()
    rows = [_plugin_row(plugin["path"], files) for plugin in plugins]
    entry["handlers"] = rows
    if where is None or list_only:
        entry.update(simulated=False, why=why or "--list-only: nothing was run", decision=None, blocked=None,
                     tool_input=None, effect=None)
        return entry
    entry["runtime"] = f"{where.program} (Bun {where.bun})"
    done = run(where, plugins, name, args, project, sandboxed=sandboxed)
    if done.report is None:
        entry.update(decision=None, blocked=None, tool_input=None, effect=done.failure,
                     notes=notes + ([f"its stderr: {done.stderr.strip()[:400]}"] if done.stderr.strip() else []))
        return entry
    report = done.report
    for row, loaded in zip(rows, report["plugins"]):
        row.update(fires=loaded["loaded"], why=None if loaded["loaded"] else f"opencode does not load it: {loaded['error']}",
                   plugins=loaded["plugins"], hooks=[hook for hook in report["hooks"] if hook["path"] == loaded["path"]])
        for hook in row["hooks"]:
            if hook["reassigned"]:
                hook["warning"] = "it assigned a new object to output.args, which opencode never sees: change it in place"
    entry["client_calls"] = report["client_calls"]
    outcome = report["outcome"]
    if outcome["exited"]:
        entry.update(decision="deny", blocked=True, reason=outcome["exited"], tool_input=None, effect=EXITED)
    elif outcome["blocked"]:
        entry.update(decision="deny", blocked=True, reason=outcome["error"], tool_input=None, effect=BLOCKED)
    else:
        changed = outcome["args"] != args
        entry.update(decision="allow" if changed else "none", tool_input=outcome["args"],
                     effect="it runs, with the arguments the plugins changed in place" if changed else "it runs")
    return entry


def _plugin_row(path: str, files: list[Any]) -> dict[str, Any]:
    """A plugin file as simulate's handler rows describe one."""
    file = next((f for f in files if str(f.path) == path), None)
    return {"source": {"path": path, "scope": file.scope if file else "project", "plugin": file.plugin if file else None,
                       "line": 1, "column": 1},
            "type": "plugin", "command": None, "matcher": None, "timeout": None, "fires": True, "simulated": True,
            "why": None}
