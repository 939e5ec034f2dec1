"""The protocol every bundled hook speaks: stdin in, at most one JSON object out, never a crash.

Copied next to each pack's runtime scripts, which run as `python3 -I -S <script> --host <host>`:
stdlib only, Python >= 3.8, imports kept to what a hook needs so start-up stays at the floor.

A hook script is a function `handle(call) -> Outcome | None` passed to `run()`. `run()` reads
a bounded stdin, parses the payload, calls the function under an internal deadline, and
prints the one output shape the host wants for that event. None is a pass-through: exit 0
and no output. Any exception, bad stdin or a missed deadline is a pass-through too, plus one
line in the error log. It never prints `defer`, `modifiedToolInput`, a top-level
`updatedInput`, or a `hookEventName` other than the event it was called for.
"""
import json
import os
import signal
import sys
import time

MAX_STDIN = 1 << 20  # a payload beyond 1 MiB is passed through unchecked
DEADLINE_S = 5.0  # well under the pack timeouts, so we answer before the host kills us
HOSTS = ("claude",)
PERMISSION_EVENTS = ("PreToolUse",)
CONTEXT_EVENTS = ("PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart", "SubagentStart")


class PassThrough(Exception):
    """Stop quietly without output; the message goes to the error log."""


class Call(object):
    """One invocation: the host, the event, the payload, the pack options, the script's name."""

    def __init__(self, name, host, payload, options, folder):
        self.name = name
        self.host = host
        self.payload = payload
        self.options = options
        self.folder = folder  # where the script and its pack files live
        self.event = payload.get("hook_event_name")
        self.tool_name = payload.get("tool_name")
        tool_input = payload.get("tool_input")
        self.tool_input = tool_input if isinstance(tool_input, dict) else {}

    def option(self, key, default=None):
        return self.options.get(key, default)


class Outcome(object):
    """What a hook decided; `render()` turns it into the host's output object."""

    def __init__(self, decision=None, reason=None, updated_input=None, context=None):
        self.decision = decision  # "allow" | "deny" | "ask" | None
        self.reason = reason
        self.updated_input = updated_input
        self.context = context


def deny(reason):
    return Outcome(decision="deny", reason=reason)


def allow(updated_input=None, reason=None):
    return Outcome(decision="allow", reason=reason, updated_input=updated_input)


def add_context(text):
    return Outcome(context=text)


def render(outcome, host, event):
    """The host's JSON for an outcome, or None if this host/event cannot express it."""
    if host != "claude":
        return None
    specific = {"hookEventName": event}
    if event in PERMISSION_EVENTS and outcome.decision in ("allow", "deny", "ask"):
        specific["permissionDecision"] = outcome.decision
        if outcome.reason:
            specific["permissionDecisionReason"] = outcome.reason
        if outcome.updated_input is not None and outcome.decision == "allow":
            specific["updatedInput"] = outcome.updated_input
    if outcome.context and (event in CONTEXT_EVENTS or event in PERMISSION_EVENTS):
        specific["additionalContext"] = outcome.context
    if len(specific) == 1:
        return None
    return {"hookSpecificOutput": specific}


# ---- files: where state, logs and preferences live (the installer uses the same places) -----

def state_dir():
    if os.environ.get("XDG_STATE_HOME"):
        return os.path.join(os.environ["XDG_STATE_HOME"], "hookwright")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/hookwright")
    return os.path.expanduser("~/.local/state/hookwright")


def config_dir():
    if os.environ.get("XDG_CONFIG_HOME"):
        return os.path.join(os.environ["XDG_CONFIG_HOME"], "hookwright")
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/hookwright")
    return os.path.expanduser("~/.config/hookwright")


def log(name, message):
    """One line in the error log; a log that cannot be written is not worth failing over."""
    path = os.environ.get("HOOKWRIGHT_LOG") or os.path.join(state_dir(), "hooks.log")
    try:
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder):
            os.makedirs(folder, 0o700)
        line = "%s %s %s\n" % (time.strftime("%Y-%m-%dT%H:%M:%S%z"), name, " ".join(str(message).split()))
        with open(path, "a") as out:
            out.write(line)
    except Exception:
        pass


def read_json_file(path):
    """A JSON object from a file: None if there is no file; ValueError if it is not an object."""
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read().decode("utf-8"))
    except (IOError, OSError):
        return None
    if not isinstance(data, dict):
        raise ValueError("%s: expected a JSON object" % path)
    return data


# ---- the run loop -----------------------------------------------------------------------------

def parse_argv(argv):
    """--host H and --option key=value; an unknown flag is logged and ignored, never fatal."""
    host, options, problems = None, {}, []
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--host" and args:
            host = args.pop(0)
        elif arg == "--option" and args:
            key, sep, value = args.pop(0).partition("=")
            if sep:
                options[key] = {"true": True, "false": False}.get(value, value)
            else:
                problems.append("option without =: %s" % key)
        else:
            problems.append("unknown argument %r" % arg)
    return host, options, problems


def read_payload(stream):
    raw = stream.read(MAX_STDIN + 1)
    if len(raw) > MAX_STDIN:
        raise PassThrough("payload over %d bytes; passed through unchecked" % MAX_STDIN)
    try:
        payload = json.loads(raw.decode("utf-8"))
    except ValueError as error:
        raise PassThrough("stdin is not a JSON payload: %s" % error)
    if not isinstance(payload, dict):
        raise PassThrough("payload is not a JSON object")
    return payload


class _Deadline(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Deadline()


def run(name, handle, script_path, argv=None, stdin=None, stdout=None):
    """Run one hook call and return the exit code (always 0: a hook must never break the agent)."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    alarm = None
    try:
        host, options, problems = parse_argv(sys.argv[1:] if argv is None else argv)
        for problem in problems:
            log(name, problem)
        if host not in HOSTS:
            raise PassThrough("unknown --host %r" % host)
        payload = read_payload(stdin)
        call = Call(name, host, payload, options, os.path.dirname(os.path.abspath(script_path)))
        alarm = _start_deadline()
        outcome = handle(call)
        _stop_deadline(alarm)
        if outcome is not None:
            output = render(outcome, host, call.event)
            if output is not None:
                stdout.write(json.dumps(output) + "\n")
                stdout.flush()
    except PassThrough as quiet:
        log(name, quiet)
    except _Deadline:
        log(name, "internal deadline of %.1fs passed; passed through" % DEADLINE_S)
    except Exception as error:
        log(name, "%s: %s" % (type(error).__name__, error))
    finally:
        _stop_deadline(alarm)
    return 0


def _start_deadline():
    try:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, DEADLINE_S)
        return previous
    except (AttributeError, ValueError):  # no SIGALRM (Windows), or not the main thread
        return None


def _stop_deadline(previous):
    if previous is not None:
        signal.setitimer(signal.ITIMER_REAL, 0)
