"""`doctor --probe`: run each foreign PreToolUse handler once on a synthetic payload, and say
what it printed. Opt-in only, never run by default: these are the user's commands.

Each handler runs the way Claude Code runs it (shell form through `sh -c`, exec form spawned
directly), but in a throwaway world: the working directory is a temporary project (the
directories of scripts that live in the real project or home are copied there first, so that
`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh` still finds its script), HOME is a temporary home,
and the environment holds only PATH, LANG, HOME, TMPDIR and CLAUDE_PROJECT_DIR. A handler gets
TIMEOUT seconds; then its whole process group is killed.

What it printed is classified the way Claude Code reads a PreToolUse answer
(claude-code-hooks.md §5, §6; claude-code-observed.md d, e): nothing, `{}`, plain text, a
decision (exit 2, permissionDecision, legacy decision), a rewrite (hookSpecificOutput.
updatedInput), invalid output (broken JSON, or hookSpecificOutput without hookEventName), the
wrong hookEventName, a failure (another exit code) or a timeout. A probed rewrite turns an
"unknown" rewriter into a known one for the conflict check.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path

from installer.doctor import handler_facts
from installer.doctor.model import Context, Handler, timeout_seconds
from installer.simulate.running import exec_form, kill_group

TIMEOUT = 5.0
DEFAULT_TIMEOUT = 600.0  # a command hook's timeout when it sets none (hooks.md §3)
MAX_PARALLEL = 8
MAX_OUTPUT = 1024 * 1024
MAX_COPY_FILES = 200
MAX_COPY_BYTES = 1024 * 1024
PREFERRED_TOOLS = ("Bash", "Write", "Edit", "Read", "AskUserQuestion")


@dataclass(frozen=True)
class ProbeResult:
    outcome: str  # nothing | empty-object | text | decision | rewrite | invalid | wrong-event | other | failed | timeout
    detail: str  # what it printed, in a few words
    why: str | None = None
    tool: str | None = None  # the tool name of the synthetic call
    exit_code: int | None = None
    timeout: float = TIMEOUT

    @property
    def rewrites(self) -> bool:
        return self.outcome == "rewrite"

    def to_json(self) -> dict:
        return {"outcome": self.outcome, "detail": self.detail, "why": self.why, "tool": self.tool,
                "exit_code": self.exit_code}


def payload(tool: str, project: Path) -> dict:
    inputs = {
        "Bash": {"command": "echo hookwright-probe", "description": "hookwright doctor --probe"},
        "Write": {"file_path": str(project / "probe.txt"), "content": "hookwright probe\n"},
        "Edit": {"file_path": str(project / "probe.txt"), "old_string": "probe", "new_string": "probed"},
        "Read": {"file_path": str(project / "probe.txt")},
        "AskUserQuestion": {"questions": [{"question": "Proceed with the probe?", "header": "Probe",
                                           "multiSelect": False,
                                           "options": [{"label": "Yes", "description": "go on"},
                                                       {"label": "No", "description": "stop"}]}]},
    }
    return {"session_id": "hookwright-probe", "transcript_path": str(project / "transcript.jsonl"),
            "cwd": str(project), "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": inputs.get(tool, {"probe": True}), "tool_use_id": "toolu_hookwright_probe"}


def classify(stdout: bytes, stderr: bytes, exit_code: int | None, event: str = "PreToolUse") -> ProbeResult:
    """What Claude Code makes of a PreToolUse hook's output."""
    text = stdout.decode("utf-8", "replace").strip()
    first_err = stderr.decode("utf-8", "replace").strip().splitlines()[:1]
    if exit_code == 2:
        return ProbeResult("decision", "exit 2 (a block)", why=first_err[0] if first_err else None, exit_code=2)
    if not text:
        if exit_code not in (0, None):
            return ProbeResult("failed", f"nothing, exit {exit_code}", why=first_err[0] if first_err else None,
                               exit_code=exit_code)
        return ProbeResult("nothing", "nothing", exit_code=exit_code)
    if not text.startswith("{"):
        looks_like_json = text.startswith("[") or "hookSpecificOutput" in text or "permissionDecision" in text
        if looks_like_json:
            why = "stdout must start with { to be read as JSON; this is read as plain text"
            return ProbeResult("invalid", _short(text), why=why, exit_code=exit_code)
        return ProbeResult("text", _short(text), exit_code=exit_code)
    try:
        data = json.loads(text)
    except ValueError as err:
        return ProbeResult("invalid", _short(text), why=f"not valid JSON ({err.msg}); read as plain text",
                           exit_code=exit_code)
    if not isinstance(data, dict):
        return ProbeResult("invalid", _short(text), why="not a JSON object", exit_code=exit_code)
    if data == {}:
        return ProbeResult("empty-object", "{}", exit_code=exit_code)
    hso = data.get("hookSpecificOutput")
    if isinstance(hso, dict):
        name = hso.get("hookEventName")
        if name is None:
            return ProbeResult("invalid", "hookSpecificOutput without hookEventName",
                               why="the whole hookSpecificOutput is discarded", exit_code=exit_code)
        if name != event:
            return ProbeResult("wrong-event", json.dumps(name), exit_code=exit_code)
        if "updatedInput" in hso:
            decision = hso.get("permissionDecision")
            return ProbeResult("rewrite", "hookSpecificOutput.updatedInput"
                               + (f" with permissionDecision {json.dumps(decision)}" if decision else ""),
                               exit_code=exit_code)
        if "permissionDecision" in hso:
            return ProbeResult("decision", f"permissionDecision {json.dumps(hso['permissionDecision'])}",
                               exit_code=exit_code)
    elif hso is not None:
        return ProbeResult("invalid", "hookSpecificOutput that is not an object", exit_code=exit_code)
    if data.get("decision") in ("approve", "block"):
        return ProbeResult("decision", f"decision {json.dumps(data['decision'])} (legacy)", exit_code=exit_code)
    return ProbeResult("other", "JSON with " + ", ".join(sorted(map(str, data))[:5]), exit_code=exit_code)


def _short(text: str, limit: int = 60) -> str:
    line = text.splitlines()[0] if text else ""
    return json.dumps(line[:limit]) + (" [and more]" if len(line) > limit or "\n" in text.strip() else "")


# ---- running ---------------------------------------------------------------------------------------

def probe_handler(handler: Handler, tool: str, timeout: float | None = None) -> ProbeResult:
    """Run one handler once on a synthetic `tool` call, in a temporary project and home."""
    timeout = timeout or TIMEOUT
    value = handler.value
    command = value.get("command") if isinstance(value, dict) else None
    if not isinstance(command, str) or not command.strip():
        return ProbeResult("failed", "no command", tool=tool)
    with tempfile.TemporaryDirectory(prefix="hookwright-probe-") as scratch:
        root = Path(scratch)
        project, home, tmp = root / "project", root / "home", root / "tmp"
        for folder in (project, home, tmp):
            folder.mkdir()
        _mirror_scripts(handler, project, home)
        env = {"PATH": os.environ.get("PATH", os.defpath), "LANG": os.environ.get("LANG", "C.UTF-8"),
               "HOME": str(home), "TMPDIR": str(tmp), "CLAUDE_PROJECT_DIR": str(project)}
        if handler.file.plugin_root:
            env["CLAUDE_PLUGIN_ROOT"] = str(handler.file.plugin_root)
        argv = _argv(value, command, env)
        if argv is None:
            return ProbeResult("failed", "its executable is not on PATH", tool=tool)
        stdin = json.dumps(payload(tool, project)).encode()
        try:
            proc = subprocess.Popen(argv, cwd=project, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True)
        except OSError as error:
            return ProbeResult("failed", f"could not start: {error.strerror or error}", tool=tool)
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            return ProbeResult("timeout", "no answer", tool=tool, timeout=timeout)
        finally:
            kill_group(proc)
        result = classify(out[:MAX_OUTPUT], err[:MAX_OUTPUT], proc.returncode)
        return ProbeResult(result.outcome, result.detail, result.why, tool, result.exit_code, timeout)


def _argv(value: dict, command: str, env: dict) -> list[str] | None:
    args = value.get("args")
    if args is None:
        return ["/bin/sh", "-c", command]
    return exec_form(command, args, env)[0]


def _mirror_scripts(handler: Handler, project: Path, home: Path) -> None:
    """Copy the folders of the scripts the command names from the real project and home into the
    temporary ones, so the command finds them where it looks (and changes only the copies)."""
    real_project = handler.file.project
    real_home = Path(os.environ["HOME"]) if os.environ.get("HOME") else None
    for inv in handler_facts.resolution(handler).invocations:
        path = handler_facts.script_of(inv)
        if path is None:
            continue
        for real, fake in ((real_project, project), (real_home, home)):
            if real is None:
                continue
            try:
                relative = path.parent.relative_to(real)
            except ValueError:
                continue
            _copy_folder(path.parent, fake / relative)
            break


def _copy_folder(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    try:
        entries = sorted(source.iterdir())[:MAX_COPY_FILES]
    except OSError:
        return
    for entry in entries:
        try:
            if entry.is_file() and entry.stat().st_size <= MAX_COPY_BYTES:
                shutil.copy2(entry, target / entry.name)
        except OSError:
            continue


# ---- which handlers, which tool --------------------------------------------------------------------

def candidates(ctx: Context) -> list[tuple[Handler, str]]:
    """Foreign PreToolUse command handlers of Claude Code (each distinct command once) and the tool
    name to call them with: one their matcher matches."""
    from installer.doctor.overlap import matched_builtins, server_reach

    builtins = tuple(t for t in ctx.tools if not t.startswith("mcp__"))
    seen, out = set(), []
    for handler in ctx.handlers:
        if handler.file.host != "claude" or handler.event != "PreToolUse" or handler.owner is not None:
            continue
        if handler_facts.kind(handler) != "command" or not isinstance(handler.command, str):
            continue
        identity = handler_facts.identity(handler)
        if identity in seen:
            continue
        seen.add(identity)
        matched = matched_builtins(handler.matcher, builtins)
        tool = next((t for t in PREFERRED_TOOLS if t in matched), min(matched) if matched else None)
        if tool is None:
            server = next((s for s in ctx.mcp_servers if server_reach(handler.matcher, s) != "none"), None)
            if server is None:
                continue
            from installer.doctor.overlap import mcp_overlap

            name = mcp_overlap(handler.matcher, None, server)
            tool = name if name and not name.endswith("*") else f"mcp__{server}__probe"
        out.append((handler, tool))
    return out


_RUNS: dict[int, tuple[weakref.ref, list]] = {}


def results_for(ctx: Context, timeout: float | None = None) -> list[tuple[Handler, ProbeResult]]:
    """Probe every candidate once per doctor run (cached on the context); [] without --probe."""
    timeout = timeout or TIMEOUT
    if not ctx.probe:
        return []
    cached = _RUNS.get(id(ctx))
    if cached is not None and cached[0]() is ctx:
        return cached[1]
    chosen = candidates(ctx)
    if not chosen:
        return []
    from concurrent.futures import ThreadPoolExecutor  # each probe mostly waits on its process

    with ThreadPoolExecutor(max_workers=min(MAX_PARALLEL, len(chosen))) as pool:
        # Claude Code runs the matching hooks of one call in parallel too; a hook's own shorter
        # timeout is the one it gets
        answers = pool.map(lambda pair: probe_handler(pair[0], pair[1], min(timeout, own_timeout(pair[0]))), chosen)
        results = list(zip((handler for handler, _ in chosen), answers))
    _RUNS[id(ctx)] = (weakref.ref(ctx), results)
    return results


def own_timeout(handler: Handler) -> float:
    """The handler's timeout as Claude Code applies it: its `timeout` in seconds, or the default."""
    value = handler.value.get("timeout") if isinstance(handler.value, dict) else None
    return timeout_seconds(value) or DEFAULT_TIMEOUT


def by_handler(ctx: Context) -> dict[int, ProbeResult]:
    """{id(handler): result} for every handler whose command was probed (copies included)."""
    results = results_for(ctx)
    if not results:
        return {}
    by_identity = {handler_facts.identity(h): r for h, r in results}
    out = {}
    for handler in ctx.handlers:
        if handler.owner is None and handler.event == "PreToolUse" and handler.file.host == "claude":
            result = by_identity.get(handler_facts.identity(handler))
            if result is not None:
                out[id(handler)] = result
    return out
