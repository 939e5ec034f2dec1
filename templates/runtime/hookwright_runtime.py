"""The protocol every bundled hook speaks: stdin in, at most one JSON object out, never a crash.

Copied next to each pack's runtime scripts, which run as `python3 -I -S <script> --host <host>`:
stdlib only, Python >= 3.8, imports kept to what a hook needs so start-up stays at the floor.

A hook is a function `handle(call) -> Outcome | None` passed to `run()`. `run()` reads
a bounded stdin, parses the payload, calls the function under an internal deadline, and
prints the one output shape the host wants for that event. None is a pass-through: exit 0
and no output (`{}` for Cursor, which wants a JSON object). Any exception, bad stdin or a
missed deadline is a pass-through too, plus one line in the error log (or, for a hook
installed with --fail-closed, a block: exit 2, the reason on stderr). Every deny, decision,
rewrite and pass-through on an error is one line of the decision log beside the error log
(`hookwright log` shows it), holding of the tool's input only what a rewrite changed. It never prints
`defer`, `modifiedToolInput`, a top-level `updatedInput`, or a `hookEventName` other than the
event it was called for. With `--serve` one process answers call after call (`serve()`:
opencode's plugin keeps one runtime per opencode process); both modes answer through
`Hook.answer`, so every pack decides, logs and records the same in either.

Every host's payload reaches the hook in Claude Code's words (`as_claude`), so a pack's hook
is written once: Cursor's `beforeShellExecution` is a PreToolUse call of the Bash tool, its
`Shell` tool is Bash; opencode's plugin (hookwright-<pack>.js) already sends Claude Code's
shape, with the tool names mapped, and so does Codex (its shell tool is Bash there). The answer
goes out in the shape of the host and event it was called for: Claude Code's
`hookSpecificOutput`; Cursor's `permission`, `user_message`, `agent_message`, `updated_input`;
for opencode's plugin `{"decision": "deny", "reason": ...}` (it throws) or `{"updated_input":
{...}}` (it changes the call's arguments in place); Codex's `hookSpecificOutput` as Codex reads
it (`_render_codex`).

The script the host starts is templates/runtime/hook_script.py, installed under each hook's
name; it puts its folder on sys.path, sends our modules' byte-code to the user's cache and
loads the hook's module, which calls nothing itself: the script hands its `handle` to `run()`.

Typed for mypy without a cost at run time: `typing` is imported only by the checker, and an
annotation Python 3.8 cannot evaluate is quoted (`from __future__ import annotations` would
import `__future__` on every call).
"""
import json
import os
import stat
import sys

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    import signal  # _signal, the C module under it, has no stubs and the same functions
    from collections.abc import Callable, Iterable, Mapping
    from types import FrameType
    from typing import Any, BinaryIO, Literal, NoReturn, TextIO

    Decision = Literal["allow", "deny", "ask"]
    Options = dict[str, str | bool]  # the pack's options, typed like their defaults
    SignalHandler = Callable[[int, FrameType | None], Any] | int
else:
    try:  # the C module: `signal` itself would import enum machinery we do not need
        import _signal as signal
    except ImportError:  # pragma: no cover - every CPython has _signal
        import signal

MAX_STDIN = 1 << 20  # a payload beyond 1 MiB is passed through unchecked
DRAIN_LIMIT = 64 << 20  # read (and drop) at most this much of an over-size payload
DEADLINE_S = 5.0  # well under the pack timeouts, so we answer before the host kills us
MAX_LOG_MESSAGE = 1000
DECISION_LOG = "decisions.jsonl"  # beside the error log
MAX_DECISIONS = 1 << 20  # bytes; then the decision log moves to <log>.1 and a new one starts
MAX_DECISION_FIELD = 300  # characters of one value the decision log keeps
PROJECT_VARIABLES = ("CLAUDE_PROJECT_DIR", "CURSOR_PROJECT_DIR")  # where a host says its project is
FAIL_CLOSED = "--fail-closed"  # installed to fail closed: a hook that cannot decide blocks (exit 2)
SERVE = "--serve"  # answer call after call, one line each, until stdin ends (serve())
BLOCKS = 2  # the exit code by which Claude Code and Cursor block a call (and opencode's plugin throws)
HOSTS = ("claude", "cursor", "opencode", "codex")
# PreSkillShellCommand (a skill's shell line, Claude Code 2.1.332's output schema) takes a decision and
# its reason as PreToolUse does, but no context, and any updatedInput there stops the command
PERMISSION_EVENTS = ("PreToolUse", "PreSkillShellCommand")
# Cursor's events in Claude Code's words (docs/hosts/cursor.md#events, #event-mapping), and its tool types
CURSOR_EVENTS = {"preToolUse": "PreToolUse", "beforeShellExecution": "PreToolUse", "beforeMCPExecution": "PreToolUse",
                 "postToolUse": "PostToolUse", "postToolUseFailure": "PostToolUseFailure",
                 "sessionStart": "SessionStart", "beforeSubmitPrompt": "UserPromptSubmit", "stop": "Stop"}
CURSOR_TOOLS = {"Shell": "Bash"}
CURSOR_PERMISSION_EVENTS = ("preToolUse", "beforeShellExecution", "beforeMCPExecution")
CURSOR_CONTEXT_EVENTS = ("sessionStart", "postToolUse")
DECISIONS = ("allow", "deny", "ask")
CONTEXT_EVENTS = ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart", "SubagentStart")
TRUE_WORDS = ("true", "yes", "1", "on")
FALSE_WORDS = ("false", "no", "0", "off")


class PassThrough(Exception):
    """Stop quietly without output; the message goes to the error log."""


class Call(object):
    """One invocation: the host, the event, the payload, the pack options, the script's name."""

    def __init__(self, name: str, host: str, payload: "dict[str, Any]", options: "Options", folder: str,
                 host_event: object = None) -> None:
        self.name = name
        self.host = host
        self.payload = payload  # in Claude Code's words, whatever the host (as_claude)
        self.options = options
        self.folder = folder  # where the script and its pack files live
        self.event = payload.get("hook_event_name")
        self.host_event = host_event or self.event  # the event as the host named it
        self.tool_name = payload.get("tool_name")
        tool_input = payload.get("tool_input")
        self.tool_input: "dict[str, Any]" = tool_input if isinstance(tool_input, dict) else {}

    def option(self, key: str, default: "str | bool | None" = None) -> "str | bool | None":
        return self.options.get(key, default)


class Outcome(object):
    """What a hook decided; `render()` turns it into the host's output object."""

    def __init__(self, decision: "Decision | None" = None, reason: "str | None" = None,
                 updated_input: "dict[str, Any] | None" = None, context: "str | None" = None) -> None:
        self.decision = decision  # "allow" | "deny" | "ask" | None
        self.reason = reason
        self.updated_input = updated_input
        self.context = context


def deny(reason: str) -> Outcome:
    return Outcome(decision="deny", reason=reason)


def allow(updated_input: "dict[str, Any] | None" = None, reason: "str | None" = None) -> Outcome:
    """Allow the call, which also skips the permission prompt the user would otherwise get."""
    return Outcome(decision="allow", reason=reason, updated_input=updated_input)


def rewrite(updated_input: "dict[str, Any]") -> Outcome:
    """Replace the tool input without a decision: the user's permission rules still apply.

    Measured on Claude Code 2.1.328: `updatedInput` without `permissionDecision` is applied,
    and in default mode the rewritten call still needs the usual approval, whereas `allow`
    would approve it on the user's behalf.
    """
    return Outcome(updated_input=updated_input)


def add_context(text: str) -> Outcome:
    return Outcome(context=text)


def as_claude(host: str, payload: "dict[str, Any]") -> "tuple[dict[str, Any], object]":
    """(the payload in Claude Code's words, the event as the host named it)."""
    event: "Any" = payload.get("hook_event_name")  # a JSON value (a string, if read_payload read it)
    if host != "cursor":
        return payload, event
    out = dict(payload, hook_event_name=CURSOR_EVENTS.get(event, event))
    if event == "beforeShellExecution":
        out["tool_name"], out["tool_input"] = "Bash", {"command": payload.get("command")}
    elif event == "beforeMCPExecution" and isinstance(payload.get("tool_input"), str):
        try:  # this event sends the arguments as a JSON string
            out["tool_input"] = loads(payload["tool_input"])
        except ValueError:
            raise PassThrough("beforeMCPExecution tool_input is not JSON") from None
    if isinstance(payload.get("tool_name"), str) and event != "beforeShellExecution":
        out["tool_name"] = CURSOR_TOOLS.get(payload["tool_name"], payload["tool_name"])
    roots = payload.get("workspace_roots")
    if not isinstance(out.get("cwd"), str) and isinstance(roots, list) and roots and isinstance(roots[0], str):
        out["cwd"] = roots[0]
    return out, event


def render(outcome: Outcome, host: str, event: object) -> "dict[str, object] | None":
    """The host's JSON for an outcome, or None if this host/event cannot express it (or has
    nothing to say). `event`: as the host named it.

    `updatedInput` goes out only on PreToolUse, with `allow` or with no decision; a deny or
    ask never carries one. It must be the whole new input object (it replaces the old one).
    """
    if host not in HOSTS or not isinstance(event, str) or not event:
        return None
    if outcome.decision is not None and outcome.decision not in DECISIONS:
        raise ValueError("decision %r is not one of %s" % (outcome.decision, ", ".join(DECISIONS)))
    if outcome.updated_input is not None and not isinstance(outcome.updated_input, dict):
        raise TypeError("updated_input must be the whole tool input object, not %s"
                        % type(outcome.updated_input).__name__)
    if host == "cursor":
        return _render_cursor(outcome, event)
    if host == "opencode":
        return _render_opencode(outcome, event)
    if host == "codex":
        return _render_codex(outcome, event)
    specific: "dict[str, object]" = {"hookEventName": event}
    if event in PERMISSION_EVENTS:
        decision = outcome.decision
        if decision:
            specific["permissionDecision"] = decision
            if outcome.reason:
                specific["permissionDecisionReason"] = str(outcome.reason)
        if outcome.updated_input is not None and decision in (None, "allow") and event == "PreToolUse":
            specific["updatedInput"] = outcome.updated_input
    if outcome.context and (event in CONTEXT_EVENTS or event == "PreToolUse"):
        specific["additionalContext"] = str(outcome.context)
    if len(specific) == 1:
        return None
    return {"hookSpecificOutput": specific}


def _render_cursor(outcome: Outcome, event: str) -> "dict[str, object] | None":
    """Cursor's flat answer. `ask` is not enforced on preToolUse, so a hook that wants the
    user asked denies there instead (with its reason): a guard must not silently allow.
    Only preToolUse can rewrite input (`updated_input`, replacing the whole input)."""
    out: "dict[str, object]" = {}
    decision = outcome.decision
    if decision and event in CURSOR_PERMISSION_EVENTS:
        out["permission"] = "deny" if decision == "ask" and event == "preToolUse" else decision
        if outcome.reason:
            out["user_message"] = out["agent_message"] = str(outcome.reason)
    if outcome.updated_input is not None and decision in (None, "allow"):
        if event != "preToolUse":
            raise ValueError("Cursor rewrites a tool's input only on preToolUse, not on %s" % event)
        out["updated_input"] = outcome.updated_input
    if outcome.context and event in CURSOR_CONTEXT_EVENTS:
        out["additional_context"] = str(outcome.context)
    return out or None


def _render_opencode(outcome: Outcome, event: str) -> "dict[str, object] | None":
    """What hookwright's opencode plugin reads: a deny (it throws the reason, which the model
    receives), or the new arguments (it changes the call's arguments in place). An ask has
    no answer there: the plugin cannot ask the user, so a guard denies."""
    if event not in PERMISSION_EVENTS:
        return None
    if outcome.decision in ("deny", "ask"):
        return {"decision": "deny", "reason": str(outcome.reason or "refused by a hookwright hook")}
    if outcome.updated_input is not None:
        return {"updated_input": outcome.updated_input}
    return None


def _render_codex(outcome: Outcome, event: str) -> "dict[str, object] | None":
    """Claude Code's answer as Codex 0.171.0 takes it (docs/hosts/codex.md#output-protocol): a
    deny needs its reason (Codex lets a deny without one run); `ask` is rejected there and
    `codex exec` cannot ask, so a guard that wants the user asked denies, with its reason; a
    rewrite needs `permissionDecision: "allow"` beside `updatedInput` (alone, either one is
    rejected, and the call runs unchanged), and `allow` carries nothing else: without a rewrite
    the answer says nothing (the user's approvals apply either way: Codex's allow only rewrites)."""
    if event == "PreToolUse" and outcome.decision in ("deny", "ask"):
        specific: "dict[str, object]" = {"hookEventName": event, "permissionDecision": "deny",
                                         "permissionDecisionReason": str(outcome.reason or "refused by a hookwright hook")}
    elif event == "PreToolUse" and outcome.updated_input is not None:
        specific = {"hookEventName": event, "permissionDecision": "allow", "updatedInput": outcome.updated_input}
    else:
        specific = {"hookEventName": event}
    if outcome.context and event in ("PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SubagentStart"):
        specific["additionalContext"] = str(outcome.context)
    return {"hookSpecificOutput": specific} if len(specific) > 1 else None


# ---- files: where state, logs and preferences live (the installer uses the same places) -----

def _xdg(variable: str, fallback: str) -> str:
    """An XDG base directory: the variable if it holds an absolute path, else ~/<fallback>."""
    value = os.environ.get(variable, "")
    if os.path.isabs(value):
        return value
    return os.path.join(os.path.expanduser("~"), fallback)


def state_dir() -> str:
    if sys.platform == "darwin" and not os.environ.get("XDG_STATE_HOME"):
        return os.path.expanduser("~/Library/Application Support/hookwright")
    return os.path.join(_xdg("XDG_STATE_HOME", os.path.join(".local", "state")), "hookwright")


def config_dir() -> str:
    if sys.platform == "darwin" and not os.environ.get("XDG_CONFIG_HOME"):
        return os.path.expanduser("~/Library/Application Support/hookwright")
    return os.path.join(_xdg("XDG_CONFIG_HOME", ".config"), "hookwright")


def cache_dir() -> str:
    return os.path.join(_xdg("XDG_CACHE_HOME", ".cache"), "hookwright")


def log_path() -> str:
    """The error log: $HOOKWRIGHT_LOG, else hooks.log in the state folder."""
    return os.environ.get("HOOKWRIGHT_LOG") or os.path.join(state_dir(), "hooks.log")


def decisions_path() -> str:
    """The decision log, beside the error log: one JSON line per deny, rewrite, decision or
    pass-through on an error (`hookwright log` reads it)."""
    return os.path.join(os.path.dirname(log_path()), DECISION_LOG)


def _append(path: str, text: str) -> None:
    """One line at the end of a log of ours, its folder made private if it is new."""
    folder = os.path.dirname(path)
    if folder and not os.path.isdir(folder):
        os.makedirs(folder, 0o700)
    with open(path, "a", encoding="utf-8", errors="backslashreplace") as out:
        out.write(text)


def log(name: str, message: object) -> None:
    """One line in the error log; a log that cannot be written is not worth failing over."""
    try:
        import time

        text = " ".join(str(message).split())
        if len(text) > MAX_LOG_MESSAGE:
            text = text[:MAX_LOG_MESSAGE] + "..."
        _append(log_path(), "%s %s %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%S%z"), name, text or "-"))
    except Exception:
        pass


def _clipped(value: object) -> object:
    """A value as the decision log keeps it: a string cut at MAX_DECISION_FIELD characters,
    anything else as its JSON cut alike (a rewritten path stays whole, a pasted file does not)."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, (bool, int, float)) or value is None or len(text) <= MAX_DECISION_FIELD:
        return value
    return text[:MAX_DECISION_FIELD] + "..."


def changed_fields(before: "Mapping[str, Any]", after: "Mapping[str, Any]") -> "dict[str, list[object]]":
    """The fields a rewrite changed, each [before, after] (None where absent): what the decision
    log keeps of a rewritten input, and no more."""
    return dict((key, [_clipped(before.get(key)), _clipped(after.get(key))])
                for key in sorted(set(before) | set(after)) if before.get(key) != after.get(key))


def record(name: str, script_path: str, host: "str | None", payload: "Mapping[str, Any]", decision: str,
           reason: "object" = None, changed: "dict[str, list[object]] | None" = None,
           blocked: "bool | None" = None) -> None:
    """One line of the decision log: which hook (pack and script) decided what on which call,
    in which project, and why. It holds no more of the tool's input than the decision rests
    on: the fields a rewrite changed, never the rest. Over MAX_DECISIONS bytes the log moves
    to <log>.1 (the one before is dropped), so it stays bounded. Never raises."""
    try:
        import time

        path = decisions_path()
        try:
            if os.stat(path).st_size > MAX_DECISIONS:
                os.replace(path, path + ".1")
        except OSError:
            pass
        now = time.time()
        entry = {"time": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(now)) + ".%03d" % (now % 1 * 1000),
                 "pack": os.path.basename(os.path.dirname(os.path.abspath(script_path))),
                 "hook": name, "host": host, "event": _clipped(payload.get("hook_event_name")),
                 "tool": _clipped(payload.get("tool_name")), "decision": decision,
                 "reason": _clipped(" ".join(str(reason).split())) if reason is not None else None,
                 "project": _clipped(_project_of(payload)), "session": _clipped(payload.get("session_id"))}
        if changed:
            entry["changed"] = changed
        if blocked is not None:
            entry["blocked"] = blocked
        _append(path, json.dumps(entry, ensure_ascii=False, default=str) + "\n")
    except Exception:
        pass


def _project_of(payload: "Mapping[str, Any]") -> object:
    """The project the call was made in: what the host says its project folder is, else the
    session's working directory, else this process's."""
    for variable in PROJECT_VARIABLES:
        if os.environ.get(variable):
            return os.environ[variable]
    roots = payload.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str):
        return roots[0]
    cwd = payload.get("cwd")
    return cwd if isinstance(cwd, str) and cwd else os.getcwd()


def _no_constants(word: str) -> "NoReturn":
    raise ValueError("%s is not JSON" % word)


def loads(data: "str | bytes") -> "Any":
    """Strict JSON from bytes or text: no NaN/Infinity, which the host never sends or reads."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    return json.loads(data, parse_constant=_no_constants)


def file_signature(path: str) -> object:
    """What changes when the file at `path` does (None: no such file): a hook that keeps what it
    read of a file compares this on each call, as a serving runtime lives through edits."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (path, found.st_mtime_ns, found.st_size, found.st_ino)


MAX_JSON_FILE = 4 << 20  # a preferences or rules file larger than this is no such file


def read_json_file(path: str) -> "dict[str, Any] | None":
    """A JSON object from a file: None if there is no file; ValueError if it cannot be read or
    is not a JSON object (the message says why). A repository may put a FIFO or a link to a
    device there: only a regular file is read (opened without blocking), up to MAX_JSON_FILE."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            found = os.fstat(fd)
            if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_JSON_FILE:
                raise ValueError("%s: cannot be read: not a regular file of at most %d bytes" % (path, MAX_JSON_FILE))
            raw = os.read(fd, MAX_JSON_FILE + 1)
        finally:
            os.close(fd)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (IOError, OSError) as error:
        raise ValueError("%s: cannot be read: %s" % (path, error.strerror or error)) from None
    try:
        data = loads(raw)
    except (ValueError, RecursionError) as error:
        raise ValueError("%s: not valid JSON: %s" % (path, error)) from None
    if not isinstance(data, dict):
        raise ValueError("%s: expected a JSON object" % path)
    return data


# ---- command hooks: a command of the user's own, in Claude Code's protocol ---------------------

COMMANDS_FILE = "commands.json"  # beside a command pack's hooks: {"hooks": {<hook id>: {"command", "args", "timeout"}}}
PACK_DIR = "${PACK_DIR}"  # in a command: the pack's folder, which is this runtime folder once installed
# Claude Code's exit 2, on the events a command hook can be carried to another host on
# (docs/hosts/claude-code.md#events): it blocks the call, or the call happened and stderr goes to the model
EXIT_2_BLOCKS = ("PreToolUse", "UserPromptSubmit")
EXIT_2_TELLS = ("PostToolUse", "PostToolUseFailure")
PLAIN_STDOUT_IS_CONTEXT = ("UserPromptSubmit", "SessionStart")  # (docs/hosts/claude-code.md#exit-codes)
MAX_ANSWER = 1 << 20  # bytes of a command's stdout or stderr that are read


def command_handler(folder: str, name: str) -> "Callable[[Call], Outcome | None]":
    """The `handle` of hook `name` of a command pack installed in `folder`: it runs the hook's
    command (commands.json) on the call in Claude Code's words and reads its answer as Claude
    Code would. Its `deadline` is the command's own timeout: a command is given most of the time
    the host gives the hook, and a little is kept to answer. A commands.json without the hook is
    a ValueError (the hook's module does not load: cannot_load says so)."""
    spec = (read_json_file(os.path.join(folder, COMMANDS_FILE)) or {}).get("hooks", {}).get(name)
    if not isinstance(spec, dict) or not isinstance(spec.get("command"), str):
        raise ValueError("%s names no command for hook %s" % (os.path.join(folder, COMMANDS_FILE), name))
    timeout = float(spec.get("timeout") or DEADLINE_S)
    budget = max(timeout - min(1.5, timeout / 4), 0.1)

    def handle(call: Call) -> "Outcome | None":
        return run_command(call, folder, spec, budget)

    handle.deadline = budget + min(1.0, timeout / 8)  # type: ignore[attr-defined]
    return handle


def _shell_quoted(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def run_command(call: Call, folder: str, spec: "Mapping[str, Any]", budget: float) -> "Outcome | None":
    """Run the command as Claude Code runs a hook's (`sh -c`, or the executable and its `args`
    without a shell), in the project, with CLAUDE_PROJECT_DIR set, the payload on stdin; a
    command that outlives `budget` is killed with everything it started, and passes."""
    import subprocess

    if isinstance(spec.get("args"), list):
        argv = [spec["command"].replace(PACK_DIR, folder)] + [str(a).replace(PACK_DIR, folder) for a in spec["args"]]
    else:
        argv = ["/bin/sh", "-c", spec["command"].replace(PACK_DIR, _shell_quoted(folder))]
    project = str(_project_of(call.payload))
    env = dict(os.environ)
    env.setdefault("CLAUDE_PROJECT_DIR", project)
    cwd = call.payload.get("cwd")
    cwd = cwd if isinstance(cwd, str) and os.path.isdir(cwd) else project if os.path.isdir(project) else None
    stdin = json.dumps(claude_payload(call.payload, project)).encode()
    try:
        child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 cwd=cwd, env=env, start_new_session=True)
    except OSError as error:
        raise PassThrough("the command cannot start: %s" % error) from None
    try:
        out, err = child.communicate(stdin, timeout=budget)
    except subprocess.TimeoutExpired:
        raise PassThrough("the command did not answer within %.1fs; it was stopped" % budget) from None
    finally:
        if child.poll() is None:
            _kill_group(child.pid)
            child.wait()
    return claude_answer(str(call.event), child.returncode, out[:MAX_ANSWER], err[:MAX_ANSWER])


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, 9)
    except OSError:
        pass


def claude_payload(payload: "Mapping[str, Any]", project: str) -> "dict[str, Any]":
    """The payload as Claude Code would send it: the fields a hook written for it reads, whatever
    the host called them (as_claude has mapped the event and the tool)."""
    out = dict(payload)
    out.setdefault("session_id", payload.get("conversation_id") or payload.get("sessionID") or "")
    out.setdefault("transcript_path", None)
    out.setdefault("cwd", project)
    out.setdefault("permission_mode", "default")
    return out


def claude_answer(event: str, code: "int | None", stdout: bytes, stderr: bytes) -> "Outcome | None":
    """A hook's exit code and output read as Claude Code reads them (docs/hosts/claude-code.md
    #output-protocol), as an Outcome the host's answer is rendered from. What Claude Code counts
    as a failure (an exit other than 0 and 2 without valid JSON, JSON that breaks the event's
    protocol) raises PassThrough: the call goes on with a log line, or is blocked where the hook
    was installed to fail closed; so does stdout that starts like JSON and is none."""
    said = stderr.decode("utf-8", "replace").strip()
    text = stdout.decode("utf-8", "replace").strip()
    data = None
    if text.startswith("{"):
        try:
            data = loads(text)
        except (ValueError, RecursionError) as error:
            if code != 2:
                raise PassThrough("the command's answer starts like JSON and is none: %s" % error) from None
    if code == 2 and event in EXIT_2_BLOCKS:  # (it blocks whatever the JSON says; the JSON's reason, if it blocks too)
        try:
            answered = _json_answer(event, data) if isinstance(data, dict) else None
        except PassThrough:
            answered = None
        if answered is not None and answered.decision == "deny":
            return answered
        return deny(said or "blocked by a hook (exit 2, nothing on stderr)")
    if code == 2 and event in EXIT_2_TELLS:
        return add_context(said) if said else None
    if isinstance(data, dict):
        return _json_answer(event, data)
    if code != 0:
        raise PassThrough("the command exited %s%s" % (code, ": " + said.splitlines()[-1][:300] if said else ""))
    if text and event in PLAIN_STDOUT_IS_CONTEXT:
        return add_context(text)
    return None


def _json_answer(event: str, data: "dict[str, Any]") -> "Outcome | None":
    """An answer's JSON object as Claude Code reads it on `event`; one that breaks the protocol
    (Claude Code voids it) raises PassThrough."""
    outcome = Outcome()
    if data.get("continue") is False:  # Claude Code stops the session; the nearest a call can get: refused
        outcome.decision = "deny"
        outcome.reason = str(data.get("stopReason") or "the hook stopped the session (continue: false)")
    old = data.get("decision")
    if old in ("block", "approve") and outcome.decision is None:
        if event in EXIT_2_TELLS:  # (the call happened: the reason goes to the model)
            outcome.context = str(data.get("reason") or "")
        else:
            outcome.decision = "deny" if old == "block" else "allow"
            outcome.reason = str(data.get("reason") or "") or None
    specific = data.get("hookSpecificOutput")
    if specific is not None:
        if not isinstance(specific, dict) or specific.get("hookEventName") != event:
            raise PassThrough("the answer's hookSpecificOutput is not for %s (Claude Code would ignore it)" % event)
        decision = specific.get("permissionDecision")
        if decision is not None and decision not in DECISIONS + ("defer",):
            raise PassThrough("permissionDecision %r is none of allow, deny, ask, defer" % (decision,))
        updated = specific.get("updatedInput")
        if updated is not None and not isinstance(updated, dict):
            raise PassThrough("updatedInput is not an object (Claude Code would ignore the answer)")
        if decision in DECISIONS and outcome.decision is None:
            outcome.decision = decision
            reason = specific.get("permissionDecisionReason")
            outcome.reason = str(reason) if reason is not None else outcome.reason
        if updated is not None and decision != "defer" and outcome.decision in (None, "allow"):
            outcome.updated_input = updated
        context = specific.get("additionalContext")
        if isinstance(context, str) and context and decision != "defer":
            outcome.context = (outcome.context + "\n" + context) if outcome.context else context
    if outcome.decision is None and outcome.updated_input is None and not outcome.context:
        return None
    return outcome


# ---- the run loop -----------------------------------------------------------------------------

def parse_argv(argv: "Iterable[str]") -> "tuple[str | None, dict[str, str], list[str]]":
    """--host H and --option key=value (also --host=H, --option=key=value); raw strings.

    Returns (host, options, problems): an unknown flag is a problem to log, never fatal.
    """
    host: "str | None" = None
    options: "dict[str, str]" = {}
    problems: "list[str]" = []
    args = list(argv)
    while args:
        arg = args.pop(0)
        flag, eq, value = arg.partition("=")
        if arg in (FAIL_CLOSED, SERVE):
            continue
        if flag in ("--host", "--option") and not eq:
            if not args:
                problems.append("%s without a value" % flag)
                continue
            value = args.pop(0)
        if flag == "--host":
            host = value
        elif flag == "--option":
            key, sep, text = value.partition("=")
            if sep and key:
                options[key] = text
            else:
                problems.append("option without key=value: %r" % value)
        else:
            problems.append("unknown argument %r ignored" % arg)
    return host, options, problems


def coerce_options(options: "dict[str, str]",
                   defaults: "Mapping[str, str | bool] | None") -> "tuple[Options, list[str]]":
    """Options typed like their defaults. Unknown keys and bad values are dropped, with a
    problem each, so a stale or mistyped flag never turns a guard off.

    Without defaults, "true"/"false" become booleans and everything else stays a string.
    """
    if defaults is None:
        return dict((k, {"true": True, "false": False}.get(v, v)) for k, v in options.items()), []
    chosen: "Options" = dict(defaults)
    problems: "list[str]" = []
    for key, text in sorted(options.items()):
        if key not in defaults:
            problems.append("unknown option %r ignored" % key)
        elif isinstance(defaults[key], bool):
            if text.lower() in TRUE_WORDS:
                chosen[key] = True
            elif text.lower() in FALSE_WORDS:
                chosen[key] = False
            else:
                problems.append("option %s takes true or false, not %r; using %s"
                                % (key, text, "true" if defaults[key] else "false"))
        else:
            chosen[key] = text
    return chosen, problems


def read_payload(stream: "BinaryIO") -> "dict[str, Any]":
    """The payload on a stream, read to its end (at most MAX_STDIN bytes are kept)."""
    raw = stream.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        drained = len(raw)
        while drained < DRAIN_LIMIT:  # so the host does not write into a closed pipe
            chunk = stream.read(1 << 20)
            if not chunk:
                break
            drained += len(chunk)
    return parse_payload(raw)


def parse_payload(raw: bytes) -> "dict[str, Any]":
    if len(raw) > MAX_STDIN:
        raise PassThrough("payload over %d bytes; passed through unchecked" % MAX_STDIN)
    if not raw.strip():
        raise PassThrough("empty stdin")
    try:
        payload = loads(raw)
    except UnicodeDecodeError:
        raise PassThrough("stdin is not UTF-8") from None
    except ValueError as error:
        raise PassThrough("stdin is not a JSON payload: %s" % error) from None
    except RecursionError:
        raise PassThrough("stdin is JSON nested too deeply") from None
    if not isinstance(payload, dict):
        raise PassThrough("payload is not a JSON object")
    event = payload.get("hook_event_name")
    if not isinstance(event, str) or not event:
        raise PassThrough("payload has no hook_event_name")
    return payload


class _Deadline(BaseException):
    """A BaseException, so a hook's own `except Exception` cannot swallow it."""


def _on_alarm(signum: int, frame: "FrameType | None") -> "NoReturn":
    raise _Deadline()


class Reply(object):
    """What a call makes the process say: the text for stdout (None: nothing), for stderr, the exit code."""

    def __init__(self, stdout: "str | None" = None, stderr: "str | None" = None, code: int = 0) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.code = code


class Hook(object):
    """One hook as its command line set it up. Both modes answer a payload through `answer`, so
    a pack decides, logs and records the same whether its process serves one call or many."""

    def __init__(self, name: str, handle: "Callable[[Call], Outcome | None]", script_path: str, host: "str | None",
                 options: "Options", fail_closed: bool) -> None:
        self.name = name
        self.handle = handle
        self.deadline = float(getattr(handle, "deadline", DEADLINE_S))  # a command hook's is its own timeout
        self.script_path = script_path
        self.host = host
        self.options = options
        self.fail_closed = fail_closed

    def answer(self, read: "Callable[[Any], dict[str, Any]]", source: "Any", problems: "list[object]") -> Reply:
        """The reply to the payload `read(source)` gives; never raises: whatever goes wrong is a
        pass-through (a block, failing closed), with its line in the log (`problems` too)."""
        failed: "object" = None  # what stopped the call before it was answered
        payload: "dict[str, Any]" = {}
        outcome = text = None
        try:
            if self.host not in HOSTS:
                raise PassThrough("unknown --host %r" % self.host)
            alarm = _start_deadline(self.deadline)
            try:
                payload, host_event = as_claude(self.host, read(source))
                call = Call(self.name, self.host, payload, self.options,
                            os.path.dirname(os.path.abspath(self.script_path)), host_event)
                outcome = self.handle(call)
                output = render(outcome, self.host, host_event) if outcome is not None else None
                text = json.dumps(output, allow_nan=False) + "\n" if output is not None else None
            finally:
                _stop_deadline(alarm)  # before any logging or writing: the alarm must not fire there
        except PassThrough as quiet:
            failed = quiet
        except _Deadline:
            failed = "internal deadline of %.1fs passed; passed through" % self.deadline
        except BaseException as error:  # SystemExit and KeyboardInterrupt too: never exit non-zero
            failed = "%s: %s" % (type(error).__name__, error)
        closed = failed is not None and self.fail_closed
        for problem in problems + ([failed] if failed is not None else []):
            log(self.name, problem)
        if text is not None and outcome is not None and (outcome.decision is not None
                                                          or outcome.updated_input is not None):
            tool_input = payload.get("tool_input")  # (context alone is no decision)
            record(self.name, self.script_path, self.host, payload, outcome.decision or "rewrite", outcome.reason,
                   changed_fields(tool_input if isinstance(tool_input, dict) else {}, outcome.updated_input)
                   if outcome.updated_input is not None else None)
        elif failed is not None:
            record(self.name, self.script_path, self.host, payload, "error", failed, blocked=closed)
        if closed:
            return Reply(stderr=_fail_closed_reason(self.name, failed), code=BLOCKS)
        if text is None and self.host == "cursor":
            text = SAY_NOTHING  # Cursor's pass-through is an empty object: it wants JSON from every hook
        return Reply(text)


SAY_NOTHING = "{}\n"


def run(name: str, handle: "Callable[[Call], Outcome | None]", script_path: str, argv: "Iterable[str] | None" = None,
        stdin: "BinaryIO | None" = None, stdout: "TextIO | None" = None,
        defaults: "Mapping[str, str | bool] | None" = None) -> int:
    """Run one hook call and return the exit code: 0, a hook must never break the agent; or,
    for a hook installed to fail closed (--fail-closed), 2 when it could not decide, which
    blocks the call with the reason on stderr. With --serve, answer call after call (`serve`).

    `defaults`: the pack's options and their default values; when given, options are typed
    like them and unknown ones are logged and ignored. Every answer that denies, decides or
    rewrites, and every pass-through on an error, is a line of the decision log.
    """
    args = list(sys.argv[1:] if argv is None else argv)
    host, raw_options, argv_problems = parse_argv(args)
    options, option_problems = coerce_options(raw_options, defaults)
    hook = Hook(name, handle, script_path, host, options, FAIL_CLOSED in args)
    problems: "list[object]" = list(argv_problems + option_problems)  # each one a line in the error log
    if SERVE in args:
        return serve(hook, stdin or getattr(sys.stdin, "buffer", None), stdout or sys.stdout, problems)
    # (without fds 0/1, sys.stdin and sys.stdout are None: reading fails inside answer(), and passes)
    reply = hook.answer(read_payload, stdin or getattr(sys.stdin, "buffer", None), problems)
    _say(stdout or sys.stdout, reply.stdout)
    _say(sys.stderr, reply.stderr)
    return reply.code


def _say(stream: "TextIO | None", text: "str | None") -> None:
    if text is None or stream is None:
        return
    try:
        stream.write(text)
        stream.flush()
    except Exception:
        pass


MAX_ID = 20  # digits of a request id


def serve(hook: Hook, stdin: "BinaryIO | None", stdout: "TextIO", problems: "list[object]") -> int:
    """The serving mode, for a host that keeps one runtime for many calls (hookwright's opencode
    plugin). Each line in is `<id> <payload JSON>`; each line out, in order, is one JSON object,
    `{"id": <id>, "code": <exit code>, "stdout": <text>, "stderr": <text>}`: what the one-shot
    mode would print and exit with (stdout and stderr left out when empty). It ends when stdin
    does, which is how the host ends it. What a hook prints goes to stderr: answers stay whole."""
    for problem in problems:
        log(hook.name, problem)
    interrupt = _set_signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C at the host's terminal is the host's
    channel, printed, sys.stdout = stdout, sys.stdout, sys.stderr
    try:
        while stdin is not None:
            line = stdin.readline(MAX_ID + 2 + MAX_STDIN)
            if not line:
                return 0
            rest = line
            while rest and not rest.endswith(b"\n"):  # over-size: read the rest, keep what was read
                rest = stdin.readline(1 << 20)
            ident, _, raw = line.rstrip(b"\n").partition(b" ")
            if not ident.isdigit() or len(ident) > MAX_ID:
                log(hook.name, "a request without an id ignored: %r" % line[:80])
                continue
            reply = hook.answer(parse_payload, raw, [])
            said: "dict[str, object]" = {"id": int(ident), "code": reply.code}
            if reply.stdout:
                said["stdout"] = reply.stdout
            if reply.stderr:
                said["stderr"] = reply.stderr
            channel.write(json.dumps(said) + "\n")
            channel.flush()
        return 0
    except BaseException as error:  # (a host gone while we answered): never a crash
        log(hook.name, "stopped serving: %s: %s" % (type(error).__name__, error))
        return 0
    finally:
        sys.stdout = printed
        if interrupt is not None:
            _set_signal(signal.SIGINT, interrupt)


def _fail_closed_reason(name: str, failed: object) -> str:
    """A hook installed to fail closed could not decide: the call is blocked, and the model told why."""
    return ("hookwright %s could not check this call (%s), and it is installed to fail closed: the call is blocked\n"
            % (name, " ".join(str(failed).split())[:MAX_LOG_MESSAGE]))


def cannot_load(script_path: str, error: BaseException, argv: "Iterable[str] | None" = None) -> int:
    """The hook's module did not load (a syntax error, no handle): never a silent pass. A line
    in the error log and the decision log, the reason on stderr, and the exit code: 0, or 2 for
    a hook installed to fail closed."""
    args = list(sys.argv[1:] if argv is None else argv)
    name = os.path.basename(script_path)
    why = "cannot load its modules: %s: %s" % (type(error).__name__, error)
    log(name, why)
    host, _, _ = parse_argv(args)
    closed = FAIL_CLOSED in args
    try:  # (read, also so that the host never writes into a closed pipe: which call it was, for the log)
        payload, _ = as_claude(str(host), read_payload(sys.stdin.buffer))
    except BaseException:
        payload = {}
    record(name, script_path, host, payload, "error", why, blocked=closed)
    if closed:
        _say(sys.stderr, _fail_closed_reason(name, why))
        return BLOCKS
    try:
        sys.stderr.write("hookwright %s/%s: %s\n" % (os.path.basename(os.path.dirname(os.path.abspath(script_path))),
                                                      name, why))
    except Exception:
        pass
    return 0


def _set_signal(number: int, handler: "SignalHandler") -> "SignalHandler | None":
    """The handler it replaced (None: not set, outside the main thread)."""
    try:
        previous = signal.signal(number, handler)
        return previous if previous is not None else signal.SIG_DFL
    except (AttributeError, ValueError, OSError):
        return None


def _start_deadline(seconds: float) -> "SignalHandler | None":
    try:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        return previous if previous is not None else signal.SIG_DFL
    except (AttributeError, ValueError, OSError):  # no SIGALRM (Windows), or not the main thread
        return None


def _stop_deadline(previous: "SignalHandler | None") -> None:
    if previous is not None:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        except (AttributeError, ValueError, OSError):
            pass
