"""`doctor --probe`: run each foreign Claude Code command handler once, on a synthetic payload for
its own event, and judge what it answered. Opt-in only, never run by default: these are the
user's commands.

Each handler runs the way Claude Code runs it (installer/hooks/running.py: the shell form
through /bin/sh, the exec form spawned directly), but in a throwaway world: the working directory
is a temporary project (the directories of scripts that live in the real project or home are
copied there first, so that `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh` still finds its script),
HOME is a temporary home, and the environment holds only PATH, LANG, HOME, TMPDIR,
CLAUDE_PROJECT_DIR, the session's variables (claude_protocol.session_variables) and CLAUDE_ENV_FILE
where the event sets it. A handler gets TIMEOUT seconds
(or its own timeout, when shorter); then its whole process group is killed. Each distinct
command runs once per event, on the payload simulate would send (installer/hooks/payload.py),
a tool event's on a tool its matcher matches.

What it answered is read by simulate's reader (installer/hooks/answers.py, with the per-event
table of installer/hosts/claude/protocol.py), and the probe rules (PROBE_RULES in
installer/doctor/checks/scripts/) say what in it Claude Code does not take the way the hook
means: JSON read as plain text, another event's hookEventName, a decision the event does not
read, a rewrite that drops fields of the input, an exit code that does not block, a timeout.
A probed rewrite turns an "unknown" rewriter into a known one for the conflict
check, and a probe finding marks the static script findings it confirms (`confirm`).
"""
from __future__ import annotations

import json
import os
import tempfile
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import hosts, safe_read
from ...hooks import answers, running
from ...hooks.answers import RawRun, Reading
from ...hooks.events import CLAUDE_EVENTS
from ...hooks.payload import payload_for
from ...hooks.regex import matched_builtins, mcp_overlap, server_reach
from ...hosts.claude.protocol import ENV_FILE_EVENTS, protocol, session_variables
from .. import handler_facts
from ..model import Context, Finding, Handler

TIMEOUT = 5.0
MAX_PARALLEL = 8
MAX_PROBED = 32  # hook commands run per doctor run: four rounds of MAX_PARALLEL, 20 s at most with TIMEOUT
MAX_COPY_FILES = 200
COPIED = safe_read.Kind("script copied for the probe", 1024 * 1024)  # (a larger file is left out)
PREFERRED_TOOLS = ("Bash", "Write", "Edit", "Read", "AskUserQuestion")
# the static script findings each probe finding confirms, by running the script they are about
CONFIRMS = {
    "script/probe-invalid-output": ("script/text-before-json", "script/updated-input-not-object", "script/shell-trace"),
    "script/probe-wrong-event": ("script/wrong-event-name",),
    "script/probe-decision-ignored": ("script/decision-wrong-event", "script/invalid-decision-value",
                                      "script/no-event-name", "script/wrong-event-name",
                                      "script/continue-false-not-a-block"),
    "script/probe-rewrite-drops-fields": ("script/rewrite-drops-fields",),
    "script/probe-exit-does-not-block": ("script/exit-2-does-not-block", "script/exit-2-ignored",
                                         "script/exit-1-fails-open"),
}


@dataclass(frozen=True)
class ProbeResult:
    """One handler's run on its event's synthetic payload, and how Claude Code reads it."""

    event: str
    tool: str | None  # the synthetic call's tool, on tool events
    tool_input: dict[str, Any] | None  # and its input
    run: RawRun
    reading: Reading
    timeout: float  # the seconds it was given

    @property
    def rewrites(self) -> bool:
        return self.reading.updated_input is not None


def sample_input(tool: str, project: Path) -> dict[str, Any]:
    """A plausible input for a call of `tool` (one field at least, so a rewrite can drop it)."""
    inputs: dict[str, dict[str, Any]] = {
        "Bash": {"command": "echo hookwright-probe", "description": "hookwright doctor --probe"},
        "Write": {"file_path": str(project / "probe.txt"), "content": "hookwright probe\n"},
        "Edit": {"file_path": str(project / "probe.txt"), "old_string": "probe", "new_string": "probed"},
        "Read": {"file_path": str(project / "probe.txt")},
        "AskUserQuestion": {"questions": [{"question": "Proceed with the probe?", "header": "Probe",
                                           "multiSelect": False,
                                           "options": [{"label": "Yes", "description": "go on"},
                                                       {"label": "No", "description": "stop"}]}]},
    }
    return inputs.get(tool, {"probe": True})


# ---- running ---------------------------------------------------------------------------------------

def probe_handler(handler: Handler, tool: str | None, timeout: float | None = None) -> ProbeResult:
    """Run one handler once on a synthetic call of its event (of `tool`, on tool events), in a
    temporary project and home, inside the sandbox where one can be made (installer/sandbox.py;
    doctor refuses --probe without one, unless --probe-without-sandbox); it gets `timeout`
    seconds, or its own timeout when shorter."""
    from ... import sandbox

    event = handler.event
    timeout = min(timeout or TIMEOUT, running.timeout_of(handler))
    with tempfile.TemporaryDirectory(prefix="hookwright-probe-") as scratch:
        root = Path(scratch)
        project, home, tmp, new_root = root / "project", root / "home", root / "tmp", root / "sandbox-root"
        for folder in (project, home, tmp, new_root):
            folder.mkdir()
        transcript = root / "transcript.jsonl"
        transcript.write_text("")
        _mirror_scripts(handler, project, home)
        env = {"PATH": os.environ.get("PATH", os.defpath), "LANG": os.environ.get("LANG", "C.UTF-8"),
               "HOME": str(home), "TMPDIR": str(tmp)}
        if event in ENV_FILE_EVENTS:
            env["CLAUDE_ENV_FILE"] = str(root / "env.sh")
        tool_input = sample_input(tool, project) if tool else None
        sent = payload_for(event, project, transcript, tool=tool, tool_input=tool_input)
        env.update(session_variables(sent["session_id"]))
        box = sandbox.Sandbox([root]) if sandbox.why_not() is None else None
        run = running.run_one(handler, json.dumps(sent).encode(), project, env, timeout,
                              wrap=(lambda argv: box.argv(argv, project, new_root)) if box else None)
    return ProbeResult(event, tool, tool_input, run, answers.read(event, handler.command or "", run), timeout)


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
        content = safe_read.read_or_none(entry, COPIED)
        if content is not None:
            copy = target / entry.name
            copy.write_bytes(content)  # (into the probe's own throwaway folder, not a user file)
            copy.chmod(entry.stat().st_mode & 0o755)


# ---- which handlers, which tool --------------------------------------------------------------------

def candidates(ctx: Context) -> list[tuple[Handler, str | None]]:
    """Foreign command handlers of Claude Code (each distinct command once per event; async ones,
    whose answer is never read, left out) and the tool to call them with on a tool event: one
    their matcher matches (a tool event's handler that matches no known tool is left out)."""
    seen, out = set(), []
    for handler in ctx.handlers:
        if not _probed_kind(handler):
            continue
        key = (handler_facts.identity(handler), handler.event)
        if key in seen:
            continue
        tool = _tool(ctx, handler.matcher) if protocol(handler.event).tool_event else None
        if protocol(handler.event).tool_event and tool is None:
            continue
        seen.add(key)
        out.append((handler, tool))
    return out


def _probed_kind(handler: Handler) -> bool:
    """A handler the probe runs: a foreign Claude Code command on a real event, not async."""
    host = hosts.of(handler.file.host)
    if host is None or not host.probed or handler.owner is not None or handler.event not in CLAUDE_EVENTS:
        return False
    if handler_facts.kind(handler) != "command" or not isinstance(handler.command, str):
        return False
    return handler.value.get("async") is not True and handler.value.get("asyncRewake") is not True


def _tool(ctx: Context, matcher: str | None) -> str | None:
    """A tool `matcher` matches: a preferred built-in, another built-in, else a tool of an MCP
    server it reaches."""
    matched = matched_builtins(matcher, tuple(t for t in ctx.tools if not t.startswith("mcp__")))
    tool = next((t for t in PREFERRED_TOOLS if t in matched), min(matched) if matched else None)
    if tool is not None:
        return tool
    server = next((s for s in ctx.mcp_servers if server_reach(matcher, s) != "none"), None)
    if server is None:
        return None
    name = mcp_overlap(matcher, None, server)
    return name if name and not name.endswith("*") else f"mcp__{server}__probe"


_RUNS: dict[int, tuple[weakref.ref[Context], list[tuple[Handler, ProbeResult]]]] = {}


def results_for(ctx: Context, timeout: float | None = None) -> list[tuple[Handler, ProbeResult]]:
    """Probe every candidate once per doctor run (cached on the context); [] without --probe."""
    if not ctx.probe:
        return []
    cached = _RUNS.get(id(ctx))
    if cached is not None and cached[0]() is ctx:
        return cached[1]
    chosen = candidates(ctx)[:MAX_PROBED]
    if not chosen:
        return []
    with ThreadPoolExecutor(max_workers=min(MAX_PARALLEL, len(chosen))) as pool:
        # Claude Code runs the matching hooks of one call in parallel too
        answers = pool.map(lambda pair: probe_handler(pair[0], pair[1], timeout), chosen)
        results = list(zip((handler for handler, _ in chosen), answers))
    _RUNS[id(ctx)] = (weakref.ref(ctx), results)
    return results


def left_out(ctx: Context) -> str | None:
    """What --probe did not run in this doctor run, in words (a repository's hundreds of hooks
    would make the probe as long as they are many), or None."""
    more = len(candidates(ctx)) - MAX_PROBED if ctx.probe else 0
    if more <= 0:
        return None
    return (f"--probe ran the first {MAX_PROBED} hook commands (at most {MAX_PROBED} per run, in file order): "
            f"{more} more were not run, so their probe findings are missing")


def by_handler(ctx: Context) -> dict[int, ProbeResult]:
    """{id(handler): result} for every handler whose command was probed on its event (copies included)."""
    results = {(handler_facts.identity(h), h.event): r for h, r in results_for(ctx)}
    if not results:
        return {}
    found = ((h, results.get((handler_facts.identity(h), h.event))) for h in ctx.handlers if _probed_kind(h))
    return {id(h): result for h, result in found if result is not None}


# ---- the static findings a probe confirms ----------------------------------------------------------

def confirm(ctx: Context, findings: list[Finding]) -> list[Finding]:
    """`findings` with each static script finding a probe finding confirms marked so (it is about
    a script the probed handler runs, or about its inline command, and CONFIRMS lists its rule),
    and each such probe finding saying which it confirmed."""
    at = {(str(h.file.path), h.keys + ("command",)): h for h in ctx.handlers}
    out = list(findings)
    for i, probed in enumerate(findings):
        handler = at.get((probed.path, probed.keys)) if probed.rule in CONFIRMS else None
        if handler is None:
            continue
        scripts = {str(facts.path) for _, facts in handler_facts.script_facts(handler)}
        hits = [j for j, f in enumerate(findings) if f.rule in CONFIRMS[probed.rule]
                and (f.path in scripts or (f.path, f.keys) == (probed.path, probed.keys))]
        for j in hits:
            out[j] = out[j]._replace(confirmed_by_probe=True)
        if hits:
            named = "; ".join(f"{findings[j].rule} at {Path(findings[j].path).name}:{findings[j].line}" for j in hits)
            out[i] = out[i]._replace(message=f"{probed.message} (this confirms {named})")
    return out
