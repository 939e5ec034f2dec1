"""The protocol every bundled hook speaks: stdin in, at most one JSON object out, never a crash.

Copied next to each pack's runtime scripts, which run as `python3 -I -S <script> --host <host>`:
stdlib only, Python >= 3.8, imports kept to what a hook needs so start-up stays at the floor.

A hook is a function `handle(call) -> Outcome | None` passed to `run()`. `run()` reads
a bounded stdin, parses the payload, calls the function under an internal deadline, and
prints the one output shape the host wants for that event. None is a pass-through: exit 0
and no output (`{}` for Cursor, which wants a JSON object). Any exception, bad stdin or a
missed deadline is a pass-through too, plus one line in the error log. It never prints
`defer`, `modifiedToolInput`, a top-level `updatedInput`, or a `hookEventName` other than the
event it was called for.

Every host's payload reaches the hook in Claude Code's words (`as_claude`), so a pack's hook
is written once: Cursor's `beforeShellExecution` is a PreToolUse call of the Bash tool, its
`Shell` tool is Bash; opencode's plugin (hookwright-<pack>.js) already sends Claude Code's
shape, with the tool names mapped. The answer goes out in the shape of the host and event it
was called for: Claude Code's `hookSpecificOutput`; Cursor's `permission`, `user_message`,
`agent_message`, `updated_input`; for opencode's plugin `{"decision": "deny", "reason": ...}`
(it throws) or `{"updated_input": {...}}` (it changes the call's arguments in place).

The script the host starts is templates/runtime/hook_script.py, installed under each hook's
name; it puts its folder on sys.path, sends our modules' byte-code to the user's cache and
loads the hook's module, which calls nothing itself: the script hands its `handle` to `run()`.

Typed for mypy without a cost at run time: `typing` is imported only by the checker, and an
annotation Python 3.8 cannot evaluate is quoted (`from __future__ import annotations` would
import `__future__` on every call).
"""
import json
import os
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
HOSTS = ("claude", "cursor", "opencode")
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


def log(name: str, message: object) -> None:
    """One line in the error log; a log that cannot be written is not worth failing over."""
    try:
        import time

        path = os.environ.get("HOOKWRIGHT_LOG") or os.path.join(state_dir(), "hooks.log")
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder):
            os.makedirs(folder, 0o700)
        text = " ".join(str(message).split())
        if len(text) > MAX_LOG_MESSAGE:
            text = text[:MAX_LOG_MESSAGE] + "..."
        line = "%s %s %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%S%z"), name, text or "-")
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as out:
            out.write(line)
    except Exception:
        pass


def _no_constants(word: str) -> "NoReturn":
    raise ValueError("%s is not JSON" % word)


def loads(data: "str | bytes") -> "Any":
    """Strict JSON from bytes or text: no NaN/Infinity, which the host never sends or reads."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    return json.loads(data, parse_constant=_no_constants)


def read_json_file(path: str) -> "dict[str, Any] | None":
    """A JSON object from a file: None if there is no file; ValueError if it cannot be read or
    is not a JSON object (the message says why)."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
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
    raw = stream.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        drained = len(raw)
        while drained < DRAIN_LIMIT:  # so the host does not write into a closed pipe
            chunk = stream.read(1 << 20)
            if not chunk:
                break
            drained += len(chunk)
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


def run(name: str, handle: "Callable[[Call], Outcome | None]", script_path: str, argv: "Iterable[str] | None" = None,
        stdin: "BinaryIO | None" = None, stdout: "TextIO | None" = None,
        defaults: "Mapping[str, str | bool] | None" = None) -> int:
    """Run one hook call and return the exit code (always 0: a hook must never break the agent).

    `defaults`: the pack's options and their default values; when given, options are typed
    like them and unknown ones are logged and ignored.
    """
    problems: "list[object]" = []  # each one a line in the error log
    host = None
    try:
        stdin = stdin or sys.stdin.buffer  # inside the try: without fds 0/1, these are None
        stdout = stdout or sys.stdout
        host, raw_options, argv_problems = parse_argv(sys.argv[1:] if argv is None else argv)
        options, option_problems = coerce_options(raw_options, defaults)
        problems += argv_problems + option_problems
        if host not in HOSTS:
            raise PassThrough("unknown --host %r" % host)
        alarm = _start_deadline()
        try:
            payload, host_event = as_claude(host, read_payload(stdin))
            call = Call(name, host, payload, options, os.path.dirname(os.path.abspath(script_path)), host_event)
            outcome = handle(call)
            output = render(outcome, host, host_event) if outcome is not None else None
            text = json.dumps(output, allow_nan=False) + "\n" if output is not None else None
        finally:
            _stop_deadline(alarm)  # before any logging or writing: the alarm must not fire there
        if text is not None:
            stdout.write(text)
            stdout.flush()
            stdout = None  # answered
    except PassThrough as quiet:
        problems.append(quiet)
    except _Deadline:
        problems.append("internal deadline of %.1fs passed; passed through" % DEADLINE_S)
    except BaseException as error:  # SystemExit and KeyboardInterrupt too: never exit non-zero
        problems.append("%s: %s" % (type(error).__name__, error))
    if host == "cursor" and stdout is not None:
        _say_nothing(stdout)
    for problem in problems:
        log(name, problem)
    return 0


def _say_nothing(stdout: "TextIO") -> None:
    """Cursor's pass-through is an empty object: it wants JSON from every hook."""
    try:
        stdout.write("{}\n")
        stdout.flush()
    except Exception:
        pass


def _start_deadline() -> "SignalHandler | None":
    try:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, DEADLINE_S)
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
