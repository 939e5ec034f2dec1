"""Scripts: what each readable hook script writes, judged against what the host reads.

Three units, each with its table of rules, one function per rule:
- a script file with the handlers that run it (SCRIPT_RULES): the Claude Code answer fields it
  writes and what its handlers' events make of them;
- the code a hook runs, a script file or a shell command written inline in the config
  (CODE_RULES): its flow, judged against the protocol of the events it runs on;
- with `--probe`, one foreign Claude Code handler run once on its event (PROBE_RULES): what it
  printed and how it exited (installer/doctor/scripts/probe.py runs it).

Findings about a script point at the script (its line and column); each carries a `related`
entry per handler that runs it. Findings about an inline command or a probed run point at the
handler's command.
"""
from __future__ import annotations

import difflib
import json
import re
import shlex
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol

from ... import safe_read
from ...document import LineIndex
from ...errors import HookwrightError
from ...hooks.regex.overlap import matched_builtins
from ...hosts.claude import protocol as claude_protocol
from ...hosts.claude.protocol import EventProtocol
from ...hosts.cursor import protocol as cursor_protocol
from ...hosts.cursor.protocol import CursorEventProtocol
from ...patterns import lazy
from .. import disk, handler_facts
from ..model import Context, Finding, Handler, RuleTable, cached_property, rule_by_id
from ..scripts import bashisms
from ..scripts import flow as script_flow
from ..scripts.keys import IGNORED_FIELDS, ScriptFacts, Site, analyse_text, strip_comments

if TYPE_CHECKING:
    from ..scripts.probe import ProbeResult

At = Site | script_flow.Place  # a place in a script: a key the analysis found, or a statement of its flow

STOP_EVENTS = ("Stop", "SubagentStop")
PERMISSION_DECISION_EVENTS = frozenset({"PreToolUse", "PreModelSwitch"})  # read permissionDecision (docs/hosts/claude-code.md#decisions-per-event)
BLOCK_WITH_DECISION = 'a top-level "decision": "block" with a "reason"'
DECISION_INSTEAD = {
    "PreToolUse": 'hookSpecificOutput.permissionDecision: "allow", "deny" or "ask" (with permissionDecisionReason)',
    "PermissionRequest": 'hookSpecificOutput.decision: {"behavior": "allow"} or {"behavior": "deny", "message": "..."}',
    **{event: BLOCK_WITH_DECISION for event in ("PostToolUse", "PostToolUseFailure", "PostToolBatch",
                                                "UserPromptSubmit", "UserPromptExpansion", "Stop", "SubagentStop",
                                                "ConfigChange", "PreCompact", "TaskCreated")},
    "TeammateIdle": 'exit 2, or {"continue": false, "stopReason": "..."}',
    "TaskCompleted": 'exit 2, or {"continue": false, "stopReason": "..."}',
    "PermissionDenied": "hookSpecificOutput.retry: true (the call is already denied; the hook can only ask to retry)",
    "Elicitation": 'hookSpecificOutput.action: "accept", "decline" or "cancel"',
    "ElicitationResult": 'hookSpecificOutput.action: "accept", "decline" or "cancel"',
}
NO_DECISION = "nothing: this event has no decision to make (additionalContext or a message, where it reads them)"
MAX_RELATED = 5


class Report(Protocol):
    """Makes a finding of a hook's code at a place in it: at the script, or at an inline command."""

    def __call__(self, rule_id: str, place: At, variant: str | None = None, **params: Any) -> Finding: ...


SCRIPT_RULES = RuleTable()  # the rules of a script file with the handlers that run it, one function each
CODE_RULES = RuleTable()  # the rules of the code a hook runs, a script file or an inline command
PROBE_RULES = RuleTable()  # the rules of a handler `--probe` ran


def check(ctx: Context) -> Iterator[Finding]:
    for script in script_units(ctx):
        yield from SCRIPT_RULES.run(script)
        yield from CODE_RULES.run(script.code)
    for command in _inline_commands(ctx):
        yield from CODE_RULES.run(command)
    if ctx.probe:
        for probed in _probed_runs(ctx):
            yield from PROBE_RULES.run(probed)


# ---- the units ---------------------------------------------------------------------------------------

class Script:
    """One readable script file and the handlers (Claude Code's and Cursor's) that run it, as the
    script-file rules read it."""

    def __init__(self, ctx: Context, facts: ScriptFacts, handlers: list[Handler]) -> None:
        self.ctx = ctx
        self.facts = facts
        self.handlers = handlers

    @cached_property
    def claude(self) -> list[Handler]:
        return [h for h in self.handlers if h.file.host == "claude"]

    @cached_property
    def cursor(self) -> list[Handler]:
        return [h for h in self.handlers if h.file.host == "cursor"]

    @cached_property
    def claude_events(self) -> list[str]:
        """The Claude Code events it runs on, each once, in order."""
        return sorted({h.event for h in self.claude})

    @cached_property
    def code(self) -> HookCode:
        """Its code, as the rules of any hook's code read it."""
        cursor = self.cursor
        return HookCode(self.facts, self.claude_events, sorted({h.event for h in cursor}), self._report,
                        fail_closed=bool(cursor) and all(isinstance(h.value, dict) and h.value.get("failClosed") is True
                                                         for h in cursor),
                        claude_fails_closed=_fail_closed(self.claude),
                        tools=_tools_reached(self.claude) if self.claude and not cursor else None)

    def finding(self, rule_id: str, place: At, handlers: list[Handler], variant: str | None = None,
                **params: Any) -> Finding:
        """A finding at a place in the script, naming the handlers it is about, worded as the rule
        says or as one of its variants."""
        rule = rule_by_id(rule_id)
        message, hint = rule.worded(variant)
        return Finding(rule.id, rule.severity, str(self.facts.path), place.line, place.column,
                       message.format(**params) + _run_by(handlers), hint.format(**params), _related(handlers))

    def _report(self, rule_id: str, place: At, variant: str | None = None, **params: Any) -> Finding:
        """A finding of its code: about the Claude Code handlers for a rule of Claude Code's protocol."""
        return self.finding(rule_id, place, self.claude if rule_id in CLAUDE_RULES and self.claude else self.handlers,
                            variant, **params)


class HookCode:
    """The code a hook runs (a script file, or a shell command written in the config) with the
    events it runs on, as the rules of its flow and of its events' protocol read it."""

    def __init__(self, facts: ScriptFacts, claude_events: list[str], cursor_events: list[str], report: Report,
                 fail_closed: bool = False, tools: frozenset[str] | None = None,
                 claude_fails_closed: bool = False) -> None:
        self.facts = facts
        self.claude_events = claude_events
        self.cursor_events = cursor_events  # (judged only for code Claude Code does not run)
        self.report = report
        self.fail_closed = fail_closed  # every Cursor entry that runs it has "failClosed": true
        # every Claude Code handler that runs it has onFailure "block" where the host reads it: a
        # failure (exit 1, a crash, a timeout) blocks like exit 2 (docs/hosts/claude-code.md#on-failure)
        self.claude_fails_closed = claude_fails_closed
        self.tools = tools  # the tools its matchers reach, for a rewrite's fields (None: any)

    @property
    def flow(self) -> script_flow.Flow:
        return self.facts.flow

    def at_each(self, rule_id: str, places: Iterable[At]) -> Iterator[Finding]:
        """The rule's finding at each of the places its flow found."""
        return (self.report(rule_id, place) for place in places)

    @cached_property
    def claude_rows(self) -> dict[str, EventProtocol]:
        """The protocol of each Claude Code event it runs on."""
        return {event: claude_protocol.protocol(event) for event in self.claude_events}

    @cached_property
    def cursor_rows(self) -> dict[str, CursorEventProtocol]:
        """The protocol of each Cursor event it runs on that Cursor has, for code only Cursor runs."""
        if self.claude_events:
            return {}
        return {event: row for event in self.cursor_events if (row := cursor_protocol.protocol(event)) is not None}

    @cached_property
    def refuses_for_claude(self) -> bool:
        """It refuses in a way Claude Code reads: a deny, a decision block or exit 2."""
        return bool(self.facts.denies) or any(s.what in ("exit 2", "decision: block") for s in self.facts.blocks)


class ProbedRun:
    """One foreign Claude Code handler as `--probe` ran it on its event, as the probe rules read it."""

    def __init__(self, ctx: Context, handler: Handler, result: ProbeResult) -> None:
        self.ctx = ctx
        self.handler = handler
        self.result = result

    @property
    def event(self) -> str:
        return self.result.event

    @cached_property
    def row(self) -> EventProtocol:
        return claude_protocol.protocol(self.event)

    @cached_property
    def answered(self) -> bool:
        """It started, and its answer is read: exit 2 on an event that blocks blocks whatever it printed
        (a command that never started: the command rules say why)."""
        exit_code = self.result.run.exit_code
        return exit_code is not None and not (exit_code == 2 and self.row.exit_2 == claude_protocol.BLOCKS)

    @cached_property
    def printed(self) -> str:
        """Its stdout, as text."""
        return self.result.run.stdout.decode("utf-8", "replace")

    @cached_property
    def stdout(self) -> tuple[dict[str, Any] | None, str | None]:
        """(the JSON object it printed, or None; why what it printed is not read as JSON, or None)."""
        from ...hooks import answers  # (an answer to read: the hooks' reader, over 10 ms)

        return answers.parse_stdout(self.printed)

    @cached_property
    def void_verdict(self) -> str | None:
        """The one rule a JSON answer that breaks the event's schema ends with."""
        void, data = self.result.reading.void, self.stdout[0]
        if void is None or data is None:
            return None
        named = data.get("hookSpecificOutput")
        if void.field == "hookSpecificOutput.hookEventName" and isinstance(named, dict) and "hookEventName" in named:
            return "script/probe-wrong-event"
        if void.field in ("decision", "hookSpecificOutput.permissionDecision", "hookSpecificOutput.hookEventName"):
            return "script/probe-decision-ignored"
        return "script/probe-invalid-output"

    def finding(self, rule_id: str, variant: str | None = None, **params: Any) -> Finding:
        """A finding at the handler's command."""
        return _command_finding(self.ctx, self.handler, rule_id, variant, **params)


def script_units(ctx: Context) -> Iterator[Script]:
    """Each readable script file the command handlers of Claude Code and Cursor run, once, with
    the handlers that run it."""
    by_script: dict[Path, Script] = {}
    for handler in ctx.handlers:
        if not handler_facts.commands_checked(handler) or handler_facts.kind(handler) != "command":
            continue
        for _, facts in handler_facts.script_facts(handler):
            if facts.readable:
                by_script.setdefault(facts.path, Script(ctx, facts, [])).handlers.append(handler)
    yield from by_script.values()


SHELLS = ("sh", "bash", "zsh", "dash", "ksh")
SHELL_C = lazy(r"\s*(?:\S*/)?(?:ba|z|da|k)?sh\s+-c\s")
# what the script rules look at in a command (a command without any of these gives them nothing)
INLINE_SIGNS = lazy(r"\b(?:jq|cat|read|echo|printf|exit|set|tee)\b|updated|continue|decision|permission|"
                          r"behavior|tool_response|hookSpecificOutput|stop_hook_active")


class AtCommand:
    """Where the findings of an inline command go: at the handler's "command"."""

    def __init__(self, ctx: Context, handler: Handler) -> None:
        self.ctx = ctx
        self.handler = handler

    def __call__(self, rule_id: str, place: At, variant: str | None = None, **params: Any) -> Finding:
        return _command_finding(self.ctx, self.handler, rule_id, variant, **params)


def _command_finding(ctx: Context, handler: Handler, rule_id: str, variant: str | None = None,
                    **params: Any) -> Finding:
    """A finding at a handler's "command" (an inline command's, or a probed run's)."""
    return ctx.finding(rule_id, handler.file, handler.keys + ("command",), variant=variant, **params)


def _inline_commands(ctx: Context) -> Iterator[HookCode]:
    """A shell-form command that runs no script file is itself the hook: the same rules, at the
    command in the config."""
    for handler in ctx.handlers:
        if not handler_facts.commands_checked(handler) or handler_facts.kind(handler) != "command":
            continue
        command = handler.value.get("command") if isinstance(handler.value, dict) else None
        if not isinstance(command, str) or handler.value.get("args") is not None or handler_facts.script_facts(handler):
            continue
        if not INLINE_SIGNS.search(command):
            continue  # nothing these rules read: a script run by path, a notify-send...
        claude = handler.file.host == "claude"
        yield HookCode(_inline_facts(command), [handler.event] if claude else [], [] if claude else [handler.event],
                       AtCommand(ctx, handler), tools=_tools_reached([handler]) if claude else None,
                       claude_fails_closed=claude and _fail_closed([handler]))


def _fail_closed(handlers: list[Handler]) -> bool:
    """Every one of these Claude Code handlers makes its failures block (onFailure "block")."""
    return bool(handlers) and all(isinstance(h.value, dict) and claude_protocol.fails_closed(h.event, h.value)
                                  for h in handlers)


@lru_cache(maxsize=4096)
def _inline_facts(command: str) -> ScriptFacts:
    """The analysis of a command's text (the same command in many files is read once)."""
    return analyse_text(_inner_script(command), "shell", Path("<command>"))


def _inner_script(command: str) -> str:
    """`bash -c '...'` runs the quoted script: that is the code to read."""
    if not SHELL_C.match(command):
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if len(words) >= 3 and words[0].rsplit("/", 1)[-1] in SHELLS and words[1] == "-c":
        return words[2]
    return command


def _probed_runs(ctx: Context) -> Iterator[ProbedRun]:
    """What each foreign Claude Code handler answered its event under --probe."""
    from ..scripts import probe  # runs the user's commands: only with --probe (it loads simulate, about 20 ms)

    for handler, result in probe.results_for(ctx):
        yield ProbedRun(ctx, handler, result)


def _related(handlers: list[Handler]) -> list[dict[str, Any]]:
    out = []
    for handler in handlers[:MAX_RELATED]:
        line, column = handler.file.position(handler.keys + ("command",))
        out.append({"path": str(handler.file.path), "line": line, "column": column,
                    "message": f"the {handler.event} handler that runs this script"
                               + (f" (1 of {len(handlers)})" if len(handlers) > MAX_RELATED else "")})
    return out


def _run_by(handlers: list[Handler]) -> str:
    """Which config entry runs the script, for the message: ` (run by the PreToolUse hook at
    .claude/settings.json:12)`."""
    if not handlers:
        return ""
    handler = handlers[0]
    line, _ = handler.file.position(handler.keys + ("command",))
    path = handler.file.path
    try:
        shown = path.relative_to(handler.file.project).as_posix() if handler.file.project else path.name
    except ValueError:
        shown = str(path)
    more = f" and {len(handlers) - 1} more" if len(handlers) > 1 else ""
    return f" (run by the {handler.event} hook at {shown}:{line}{more})"


def _tools_reached(handlers: list[Handler]) -> frozenset[str]:
    """The tools (of those a rewrite is judged for) the handlers' matchers reach."""
    return frozenset().union(*(matched_builtins(h.matcher, tuple(script_flow.TOOL_FIELDS), h.event) for h in handlers))


# ---- a script file and the handlers that run it ------------------------------------------------------

@SCRIPT_RULES.rule("script/ignored-output-field")
def _ignored_output_field(script: Script) -> Iterator[Finding]:
    if not script.claude:
        return
    for site in script.facts.ignored:
        yield script.finding("script/ignored-output-field", site, script.claude,
                             "should-proceed" if site.what == "shouldProceed" else None, field=site.what)
    for site in script.facts.top_level_updated_input:
        yield script.finding("script/ignored-output-field", site, script.claude, "top-level")
    for site in script.facts.top_level_fields if script.facts.delegates is None else ():  # (a helper may wrap it)
        yield script.finding("script/ignored-output-field", site, script.claude, "top-level-decision"
                             if site.what == "permissionDecision" else "top-level-field", field=site.what)


@SCRIPT_RULES.rule("script/defer")
def _defer(script: Script) -> Iterator[Finding]:
    for site in script.facts.defer if script.claude else ():
        yield script.finding("script/defer", site, script.claude)


@SCRIPT_RULES.rule("script/no-event-name")
def _no_event_name(script: Script) -> Iterator[Finding]:
    for site in script.facts.no_event_name if script.claude else ():
        yield script.finding("script/no-event-name", site, script.claude)


@SCRIPT_RULES.rule("script/wrong-event-name")
def _wrong_event_name(script: Script) -> Iterator[Finding]:
    """Literal hookEventName values that name none of the events the script runs on (one that
    serves two events and answers only one of them may print nothing on the other)."""
    written = {site.what for site in script.facts.event_names}
    events = script.claude_events
    if script.claude and written and not written & set(events):
        site = script.facts.event_names[0]
        yield script.finding("script/wrong-event-name", site, script.claude, found=site.what,
                             event=" and ".join(events))


@SCRIPT_RULES.rule("script/exit-2-ignored")
def _exit_2_ignored(script: Script) -> Iterator[Finding]:
    """Exit 2 on PermissionRequest, which does not read it (docs/hosts/claude-code.md#events), from a
    script that never answers `behavior` and runs on no event where exit 2 blocks (a Notification
    handler beside it changes nothing)."""
    exits = [site for site in script.facts.blocks if site.what == "exit 2"]
    events = script.claude_events
    elsewhere = {claude_protocol.protocol(event).exit_2 for event in events if event != "PermissionRequest"}
    if "PermissionRequest" in events and exits and "behavior" not in script.facts.answers \
            and elsewhere <= {claude_protocol.NOT_READ}:
        yield script.finding("script/exit-2-ignored", exits[0], script.claude)


@SCRIPT_RULES.rule("script/decision-wrong-event")
def _decision_wrong_event(script: Script) -> Iterator[Finding]:
    """permissionDecision outside PreToolUse and PreModelSwitch (docs/hosts/claude-code.md#decisions-per-event),
    from a script of one event that does not tell events apart (one that reads hook_event_name may
    answer permissionDecision only on PreToolUse, where it runs too)."""
    facts, events = script.facts, script.claude_events
    if facts.permission_decisions and len(events) == 1 and events[0] not in PERMISSION_DECISION_EVENTS \
            and not facts.reads_event_name:
        yield script.finding("script/decision-wrong-event", facts.permission_decisions[0], script.claude,
                             event=events[0], instead=DECISION_INSTEAD.get(events[0], NO_DECISION))


@SCRIPT_RULES.rule("command/input-variable-never-set")
def _input_variable_never_set(script: Script) -> Iterator[Finding]:
    """A legacy input variable the script reads that no settings file's "env" sets (the command
    rule of the same id reads the command's own text)."""
    for site in script.facts.legacy_variables if script.claude else ():
        if site.what not in script.ctx.settings_env:
            yield script.finding("command/input-variable-never-set", site, script.claude, name=site.what)


@SCRIPT_RULES.rule("script/stop-hook-active")
def _stop_hook_active(script: Script) -> Iterator[Finding]:
    """A Stop or SubagentStop hook that can block and never reads stop_hook_active from its input."""
    facts = script.facts
    stops = [h for h in script.claude if h.event in STOP_EVENTS]
    from_env = facts.flow.stop_flag_from_env
    # (measured on 2.1.328: a Stop hook's additionalContext sends Claude back to work, as a block does)
    answers_stop = not facts.reads_event_name and (not facts.event_names or any(e.what == "Stop" for e in facts.event_names))
    context = [site for site in facts.specific_keys if site.what == "additionalContext"] \
        if answers_stop and any(h.event == "Stop" for h in stops) else []
    goes_on = [*facts.blocks, *context]
    if stops and goes_on and (from_env or not facts.reads_stop_hook_active) and facts.delegates is None:
        at: At = from_env or goes_on[0]
        variant = "from-environment" if from_env else "context" if not facts.blocks else None
        yield script.finding("script/stop-hook-active", at, stops, variant, event=stops[0].event, how=goes_on[0].what)


@SCRIPT_RULES.rule("script/async-answer-never-read")
def _async_answer_never_read(script: Script) -> Iterator[Finding]:
    """A script that refuses or rewrites, run by an `async` handler: Claude Code does not wait for
    it, so its answer is never read (measured: an async deny let the call run; `asyncRewake`
    is another matter: its exit 2 wakes Claude)."""
    background = [h for h in script.claude if isinstance(h.value, dict) and h.value.get("async") is True
                  and h.value.get("asyncRewake") is not True]
    facts = script.facts
    if facts.reads_event_name:  # (it may answer only the events it runs on in the foreground)
        return
    blocking = [h for h in background if claude_protocol.protocol(h.event).exit_2 == claude_protocol.BLOCKS]
    deciding = [h for h in background if h.event in handler_facts.REWRITE_EVENTS["claude"]]  # (where a deny counts too)
    exits = [site for site in facts.blocks if site.what == "exit 2"]
    answers = sorted([*(exits or facts.blocks)] if blocking else [], key=lambda s: (s.line, s.column))
    answers += sorted([*facts.denies, *dict(facts.rewrite_sites).get("claude", ())] if deciding else [],
                      key=lambda s: (s.line, s.column))
    if answers:
        handlers = blocking if answers[0] in facts.blocks else deciding
        yield script.finding("script/async-answer-never-read", answers[0], handlers, event=handlers[0].event,
                             how=answers[0].what)


@SCRIPT_RULES.rule("script/mixed-shapes")
def _mixed_shapes(script: Script) -> Iterator[Finding]:
    for site in script.facts.mixed_shapes:
        yield script.finding("script/mixed-shapes", site, script.handlers, written=site.what)


@SCRIPT_RULES.rule("script/bash-only-syntax")
def _bash_only_syntax(script: Script) -> Iterator[Finding]:
    """Bash's syntax in a shell script that sh runs: `sh x.sh`, or no `#!` line under the /bin/sh
    that runs a Claude Code command (scripts/bashisms.py)."""
    if script.facts.language != "shell":
        return
    run_by_sh = [(handler, how) for handler in script.claude if (how := _how_sh_runs(handler, script.facts.path))]
    if not run_by_sh:
        return
    try:
        text = safe_read.read_text(script.facts.path, safe_read.SCRIPT)
    except (OSError, HookwrightError):
        return
    found = bashisms.first(strip_comments(text, "shell"))
    if found:
        construct, offset = found
        line, column = LineIndex(text).at(offset)
        yield script.finding("script/bash-only-syntax", Site(construct.what, line, column),
                             [handler for handler, _ in run_by_sh], what=construct.what, how=run_by_sh[0][1],
                             effect=construct.effect, instead=construct.instead)


def _how_sh_runs(handler: Handler, path: Path) -> str | None:
    """How the handler's command has sh run the script at path, said for the message (None: it does not)."""
    if handler_facts.resolution(handler).form != "shell":
        return None  # (exec form: a script without a #! line does not start at all)
    for inv, facts in handler_facts.script_facts(handler):
        if facts.path != path:
            continue
        if inv.executable == ".":
            return "the command reads it into Claude Code's /bin/sh with `.`, whatever its #! line says"
        if inv.interpreter and inv.executable.rsplit("/", 1)[-1] in bashisms.SH_NAMES:
            return f"the command runs it with `{inv.executable}`, whatever its #! line says"
        if inv.direct and not disk.first_line(path).startswith(b"#!"):
            return "it has no #! line, so the /bin/sh that runs the command runs it too"
    return None


# ---- the code a hook runs: whatever the event ------------------------------------------------------------

# the rules of Claude Code's protocol: a script's finding names the Claude Code handlers that run it
CLAUDE_RULES = frozenset({"script/exit-2-does-not-block", "script/exit-1-fails-open", "script/reason-on-stdout",
                          "script/continue-false-not-a-block", "script/invalid-decision-value",
                          "script/failure-in-post-tool-use"})


@CODE_RULES.rule("script/does-not-parse")
def _does_not_parse(code: HookCode) -> Iterator[Finding]:
    if code.flow.syntax_error:
        what, place = code.flow.syntax_error
        yield code.report("script/does-not-parse", place, "fails-closed" if code.claude_fails_closed else None,
                          what=what, interpreter="python3" if code.facts.language == "python" else "node")


@CODE_RULES.rule("script/text-before-json")
def _text_before_json(code: HookCode) -> Iterator[Finding]:
    """Text (or the hook's own input) and a JSON answer that one run can both print."""
    mixed = code.flow.mixed_output()
    if mixed:
        text, answer = mixed
        own = text.kind == script_flow.STDOUT_INPUT
        # Cursor takes stdout that is not one JSON object for a failed hook: fail-open, or a block with failClosed
        cursor = "cursor-fail-closed" if code.fail_closed else "cursor"
        variant = ("own-input" if own else None) if code.claude_rows or not code.cursor_rows else cursor
        yield code.report("script/text-before-json", text.at, variant, text=f"`{text.what}`" if not own else
                          "its own input (a tee that is not sent to /dev/null)", text_line=text.at.line,
                          json_line=answer.at.line, event=" and ".join(code.cursor_rows))


@CODE_RULES.rule("script/answer-on-stderr")
def _answer_on_stderr(code: HookCode) -> Iterator[Finding]:
    """A JSON answer written only to stderr, by code that never exits 2 (where stderr is the
    block's reason), writes nothing else on stdout that could be the answer, and hands its
    output to no other program: the host reads the answer from
    stdout (measured on 2.1.328: a PreToolUse deny on stderr with exit 0 let the call run)."""
    flow = code.flow
    if not flow.stderr_answers or code.facts.delegates is not None or flow.unread_output \
            or any(w.kind == script_flow.STDOUT_JSON for w in flow.writes) \
            or any(e.status in (2, None) for e in flow.exits):  # (an exit whose status is not read may be 2)
        return
    host = "Cursor" if code.cursor_events and not code.claude_events else "Claude Code"
    yield code.report("script/answer-on-stderr", flow.stderr_answers[0], host=host)


@CODE_RULES.rule("script/stdin-read-twice")
def _stdin_read_twice(code: HookCode) -> Iterator[Finding]:
    return code.at_each("script/stdin-read-twice", code.flow.stdin_reads)


@CODE_RULES.rule("script/shell-trace")
def _shell_trace(code: HookCode) -> Iterator[Finding]:
    if code.flow.trace:
        yield code.report("script/shell-trace", code.flow.trace)


@CODE_RULES.rule("script/updated-input-not-object")
def _updated_input_not_object(code: HookCode) -> Iterator[Finding]:
    return code.at_each("script/updated-input-not-object", code.flow.input_as_string)


@CODE_RULES.rule("script/rewrite-drops-fields")
def _rewrite_drops_fields(code: HookCode) -> Iterator[Finding]:
    """updatedInput built anew, with some of the fields of a tool its matchers reach."""
    for place, keys in code.flow.new_inputs:
        missing = script_flow.dropped_fields(keys, code.tools)
        if missing:
            yield code.report("script/rewrite-drops-fields", place, written=", ".join(keys), missing=", ".join(missing))


# ---- the code a hook runs: the protocol of Claude Code's events (installer/hosts/claude/protocol.py) ----

@CODE_RULES.rule("script/exit-2-does-not-block")
def _exit_2_does_not_block(code: HookCode) -> Iterator[Finding]:
    """Exit 2 where none of the events blocks on it: after the fact when it says it refuses, or an
    event that does not read it."""
    rows, cursor = code.claude_rows, code.cursor_rows
    if cursor and not any(row.blocks for row in cursor.values()):
        for exit_ in code.flow.exits:
            if exit_.status == 2:  # (Cursor: exit 2 blocks only where a deny does)
                yield code.report("script/exit-2-does-not-block", exit_.at, "cursor", event=" and ".join(cursor),
                                  said=_said(exit_.message))
                return
    for exit_ in code.flow.exits if rows else ():
        if exit_.status != 2:
            continue
        refusal = bool(script_flow.REFUSAL.search(exit_.message))
        weak = {e: row for e, row in rows.items()
                if row.exit_2 == claude_protocol.NOT_READ or (row.exit_2 == claude_protocol.FEEDBACK and refusal)}
        if len(weak) < len(rows):
            continue
        event, row = next(iter(weak.items()))  # (after the fact, only an exit that says it refuses is reported)
        variant = "after-the-fact" if row.exit_2 == claude_protocol.FEEDBACK else "refusal" if refusal else None
        yield code.report("script/exit-2-does-not-block", exit_.at, variant, event=event, said=_said(exit_.message))


@CODE_RULES.rule("script/reason-on-stdout")
def _reason_on_stdout(code: HookCode) -> Iterator[Finding]:
    """Exit 2 with no message on stderr, right after text on stdout, where every event blocks on it."""
    rows, flow = code.claude_rows, code.flow
    if not rows or not all(row.exit_2 == claude_protocol.BLOCKS for row in rows.values()):
        return
    first_text: dict[int, tuple[int, script_flow.Write]] = {}  # line: its first text write (and where in the list)
    for index, write in enumerate(flow.writes):
        if write.kind == script_flow.STDOUT_TEXT:
            first_text.setdefault(write.at.line, (index, write))
    for exit_ in flow.exits:
        if exit_.status != 2 or exit_.message:
            continue
        near = [first_text[line] for line in (exit_.at.line - 1, exit_.at.line) if line in first_text]
        text = min(near, key=lambda found: found[0])[1] if near else None
        if text is not None:
            yield code.report("script/reason-on-stdout", text.at, text=f"`{text.what}`")


@CODE_RULES.rule("script/exit-1-fails-open")
def _exit_1_fails_open(code: HookCode) -> Iterator[Finding]:
    """An exit other than 0 and 2 that means to refuse, where every event (of Claude Code, or of
    Cursor for code only Cursor runs, without failClosed) blocks on exit 2 alone."""
    facts = code.facts
    if code.claude_events:
        if code.claude_fails_closed:  # (with onFailure "block" an exit 1 blocks)
            return
        rows = code.claude_rows
        blocking = [e for e, row in rows.items() if row.exit_2 == claude_protocol.BLOCKS]
        if not blocking or len(blocking) < len(rows):
            return
        action = "tool call" if rows[blocking[0]].tool_event else "action"
        for exit_ in _refusals_that_fail_open(code.flow, code.refuses_for_claude or bool(facts.answers)):
            yield _fails_open(code, exit_, "Claude Code", action)
        return
    cursor = code.cursor_rows
    if code.cursor_events and not code.fail_closed and len(cursor) == len(code.cursor_events) \
            and all(row.blocks for row in cursor.values()):
        refuses = any(s.what == "exit 2" for s in facts.blocks) or "permission" in {s.what for s in facts.output_keys}
        for exit_ in _refusals_that_fail_open(code.flow, refuses):
            yield _fails_open(code, exit_, "Cursor", "action")


def _fails_open(code: HookCode, exit_: script_flow.Exit, host: str, action: str) -> Finding:
    """The finding of one such exit; the message says its status where the code does not write it (a raise)."""
    shows_status = re.search(rf"\b{exit_.status}\b", exit_.how) is not None
    return code.report("script/exit-1-fails-open", exit_.at, None if shows_status else "status-not-written",
                       how=f"`{exit_.how}`", said=_said(exit_.message), status=exit_.status, host=host, action=action)


def _refusals_that_fail_open(flow: script_flow.Flow, refuses_otherwise: bool) -> list[script_flow.Exit]:
    """Exits other than 0 and 2, with no JSON answer printed just before, that say they refuse; or,
    in a script with no other way to refuse, that say anything but an error (`npm publish must go
    through CI`, not `jq is not installed`)."""
    answered = {w.at.line for w in flow.writes if w.kind == script_flow.STDOUT_JSON}
    return [e for e in flow.exits if e.status not in (0, 2, None) and e.message
            and (script_flow.REFUSAL.search(e.message) or (
                not refuses_otherwise and not script_flow.FAILURE_WORDS.search(e.message)))
            and not any(e.at.line - 4 <= line <= e.at.line for line in answered)]


def _said(message: str) -> str:
    message = " ".join(message.split())
    return json.dumps(message[:60] + ("..." if len(message) > 60 else "")) if message else "no message"


@CODE_RULES.rule("script/continue-false-not-a-block")
def _continue_false_not_a_block(code: HookCode) -> Iterator[Finding]:
    """{"continue": false} from code that never refuses otherwise, on an event where it does not stop the action."""
    rows, flow = code.claude_rows, code.flow
    if not rows or not flow.continue_false or code.refuses_for_claude:
        return
    event = next((e for e in rows if rows[e].continue_false != claude_protocol.STOPS), None)
    if event:
        ignored = rows[event].continue_false == claude_protocol.CONTINUE_IGNORED
        yield code.report("script/continue-false-not-a-block", flow.continue_false[0], "ignored" if ignored else None,
                          event=event, effect=rows[event].continue_false,
                          action="tool call" if rows[event].tool_event else "action")


DECISION_ACCEPTED: dict[str, Callable[[EventProtocol], frozenset[str] | None]] = {
    "permissionDecision": lambda row: row.permission_decisions,
    "decision": lambda row: row.decisions,
    "behavior": lambda row: frozenset({"allow", "deny"}) if "decision" in row.specific_fields else None,
}


def _through(value: script_flow.Value) -> str:
    """How a decision value reaches the answer, for a message: ` (through a variable or table)`, or nothing."""
    return f" (through {value.via})" if value.via else ""


@CODE_RULES.rule("script/invalid-decision-value")
def _invalid_decision_value(code: HookCode) -> Iterator[Finding]:
    """A decision value none of the events accepts (defer has a rule of its own)."""
    rows = code.claude_rows
    seen = set()
    for value in code.flow.values if rows else ():
        accepted_of = DECISION_ACCEPTED.get(value.field)
        if accepted_of is None or value.value == "defer" or (value.field, value.value) in seen:
            continue
        accepted = [accepted_of(row) for row in rows.values()]
        known = [a for a in accepted if a is not None]
        if value.field == "decision" and not known:  # none of the events reads a top-level decision
            seen.add((value.field, value.value))
            yield code.report("script/invalid-decision-value", value.at, "not-read", field=value.field,
                              value=value.value, via=_through(value),
                              event=" and ".join(rows), instead=DECISION_INSTEAD.get(next(iter(rows)), NO_DECISION))
            continue
        if len(known) < len(accepted) or any(value.value in a for a in known):
            continue  # an event that does not read the field at all has rules of its own
        seen.add((value.field, value.value))
        allowed = sorted(known[0])
        quoted = ", ".join(json.dumps(v) for v in allowed)
        yield code.report("script/invalid-decision-value", value.at, field=value.field, value=value.value,
                          via=_through(value), event=" and ".join(rows),
                          accepted=quoted, answer=("one of " if len(allowed) > 1 else "") + quoted)


# hookSpecificOutput fields with names no other object uses (decision, action, content are too common)
SPECIFIC_FIELDS = frozenset({"additionalContext", "updatedInput", "permissionDecisionReason", "updatedToolOutput",
                             "updatedMCPToolOutput", "sessionTitle", "watchPaths", "worktreePath", "displayContent",
                             "initialUserMessage", "reloadSkills", "suppressOriginalPrompt", "updatedPermissions",
                             "classifierContext"})
INSIDE_DECISION = frozenset({"updatedInput", "updatedPermissions"})  # PermissionRequest's decision object
# the fields of that object (docs/hosts/claude-code.md#decisions-per-event), and the keys that carry an answer
DECISION_OBJECT_FIELDS = INSIDE_DECISION | {"behavior", "message", "interrupt"}
ANSWER_FIELDS = frozenset({"decision", "permissionDecision", "behavior", "action", "retry"})


@CODE_RULES.rule("script/field-the-event-ignores")
def _field_the_event_ignores(code: HookCode) -> Iterator[Finding]:
    """hookSpecificOutput fields that none of the events reads (dropped without a word)."""
    rows = code.claude_rows
    if not rows or code.facts.reads_event_name:
        return
    known = frozenset().union(*(row.specific_fields | (INSIDE_DECISION if "decision" in row.specific_fields
                                                       else frozenset()) for row in rows.values()))
    # a key right inside hookSpecificOutput is one of its fields whatever its name; any other key
    # only where no other object would use its name
    # (the fields no event reads have a rule of their own: script/ignored-output-field)
    direct = frozenset().union(*(row.specific_fields for row in rows.values())) | {"hookEventName", *IGNORED_FIELDS}
    decision_object = any("decision" in row.specific_fields for row in rows.values())
    reported = set()
    for site in [*code.facts.specific_keys, *code.facts.output_keys]:
        inside = site in code.facts.specific_keys
        if site.what in reported or (site.what in direct if inside else
                                     site.what not in SPECIFIC_FIELDS or site.what in known):
            continue
        reported.add(site.what)
        readers = sorted(e for e, row in claude_protocol.PROTOCOL.items() if site.what in row.specific_fields)
        variant = ("inside-decision" if decision_object and site.what in DECISION_OBJECT_FIELDS
                   else "decision" if site.what in ANSWER_FIELDS else None)
        yield code.report("script/field-the-event-ignores", site, variant, field=site.what, event=" and ".join(rows),
                          readers=", ".join(readers[:4]) + (", ..." if len(readers) > 4 else "") or "no event",
                          instead=DECISION_INSTEAD.get(next(iter(rows)), NO_DECISION))


@CODE_RULES.rule("script/failure-in-post-tool-use")
def _failure_in_post_tool_use(code: HookCode) -> Iterator[Finding]:
    if code.claude_events == ["PostToolUse"] and code.flow.failure_fields:
        field, place = code.flow.failure_fields[0]
        yield code.report("script/failure-in-post-tool-use", place, field=field)


# ---- the code a hook runs: Cursor's answer (installer/hosts/cursor/protocol.py) --------------------------

CLAUDE_ANSWER = ("hookSpecificOutput", "permissionDecision", "hookEventName")
CURSOR_FIELDS = frozenset().union(*(row.output_fields for row in cursor_protocol.PROTOCOL.values()))
# Claude Code's names for what Cursor calls otherwise (a script written for one, run by the other)
CLAUDE_NAMES = {"additionalContext": "additional_context", "userMessage": "user_message",
                "agentMessage": "agent_message", "followupMessage": "followup_message",
                "updatedInput": "updated_input"}


@CODE_RULES.rule("script/claude-answer-for-cursor")
def _claude_answer_for_cursor(code: HookCode) -> Iterator[Finding]:
    """An answer in Claude Code's shape from code only Cursor runs (one object with both shapes
    is mixed-shapes')."""
    facts, rows = code.facts, code.cursor_rows
    if not rows:
        return
    written = {site.what: site for site in facts.output_keys}
    reads = frozenset().union(*(row.output_fields for row in rows.values()))
    blocks = any(v.field == "decision" and v.value in ("block", "deny", "approve", "allow") for v in facts.flow.values)
    claude_keys = [k for k in (*CLAUDE_ANSWER, *CLAUDE_NAMES) if k in written] + (["decision"] if blocks else [])
    one_shape = not (set(written) & CURSOR_FIELDS) or not facts.tells_hosts_apart
    if claude_keys and one_shape and reads and not facts.mixed_shapes:
        example = ('{"permission": "deny", "user_message": "...", "agent_message": "..."}' if "permission" in reads
                   else "{" + ", ".join(f'"{f}": ...' for f in sorted(reads)) + "}")
        renamed = [f"{k} (Cursor's is {CLAUDE_NAMES[k]})" for k in claude_keys if k in CLAUDE_NAMES]
        site: At = written.get(claude_keys[0]) or next(v.at for v in facts.flow.values if v.field == "decision")
        yield code.report("script/claude-answer-for-cursor", site, written=", ".join(renamed or claude_keys),
                          expected=", ".join(sorted(reads)), example=example)


# Cursor's answer fields that no Claude Code answer has (`continue` and `env` are Claude Code's words too)
CURSOR_ONLY = frozenset({"permission", "user_message", "agent_message", "followup_message", "updated_input",
                         "additional_context", "updated_mcp_tool_output"})


@CODE_RULES.rule("script/cursor-answer-for-claude")
def _cursor_answer_for_claude(code: HookCode) -> Iterator[Finding]:
    """An answer in Cursor's flat shape from code only Claude Code runs, with nothing of Claude
    Code's shape beside it: Claude Code reads none of it."""
    facts = code.facts
    if not code.claude_rows or code.cursor_rows or facts.tells_hosts_apart or facts.mixed_shapes \
            or not any(w.kind == script_flow.STDOUT_JSON for w in facts.flow.writes):
        return  # (a script that prints no JSON writes its objects elsewhere: a log, a request)
    written = {site.what: site for site in facts.output_keys}
    cursor = [key for key in sorted(CURSOR_ONLY & set(written), key=lambda k: (written[k].line, written[k].column))]
    claude = set(written) & {*CLAUDE_ANSWER, "decision", "continue", "systemMessage", "reason"}
    if cursor and not claude:
        fields = frozenset().union(*(row.specific_fields for row in claude_protocol.PROTOCOL.values()))
        ours = {cursor_name: claude_name for claude_name, cursor_name in CLAUDE_NAMES.items() if claude_name in fields}
        yield code.report("script/cursor-answer-for-claude", written[cursor[0]], event=next(iter(code.claude_rows)),
                          written=", ".join(f"{k} (Claude Code's is hookSpecificOutput.{ours[k]})" if k in ours else k
                                            for k in cursor))


@CODE_RULES.rule("script/cursor-field-not-read")
def _cursor_field_not_read(code: HookCode) -> Iterator[Finding]:
    """A Cursor answer field that none of the Cursor events the code runs on reads."""
    rows = code.cursor_rows
    if not rows:
        return
    written = {site.what: site for site in code.facts.output_keys}
    reads = frozenset().union(*(row.output_fields for row in rows.values()))
    for field in sorted(set(written) & CURSOR_FIELDS - reads):
        where_read = sorted(e for e, row in cursor_protocol.PROTOCOL.items() if field in row.output_fields)
        yield code.report("script/cursor-field-not-read", written[field], field=field, event=next(iter(rows)),
                          reads=", ".join(sorted(reads)) or "no output at all", read_on=", ".join(where_read))


@CODE_RULES.rule("script/cursor-invalid-permission")
def _cursor_invalid_permission(code: HookCode) -> Iterator[Finding]:
    """A `permission` value none of the Cursor events accepts (allow, deny and, where read, ask)."""
    rows = code.cursor_rows
    accepted = [row.permissions for row in rows.values() if row.permissions is not None]
    if not accepted or len(accepted) < len(rows):
        return  # (an event that does not read permission: cursor-field-not-read)
    for value in code.flow.values:
        if value.field == "permission" and not any(value.value in a for a in accepted):
            allowed = sorted(frozenset().union(*accepted))
            yield code.report("script/cursor-invalid-permission", value.at, value=value.value,
                              via=_through(value), event=" and ".join(rows),
                              accepted=", ".join(json.dumps(v) for v in allowed))
            return


@CODE_RULES.rule("script/cursor-ask-not-asked")
def _cursor_ask_not_asked(code: HookCode) -> Iterator[Finding]:
    """permission "ask" where Cursor does not ask: preToolUse lets the action go on (ask accepted
    by the schema, not enforced), subagentStart treats it as deny (docs/hosts/cursor.md#events)."""
    rows = code.cursor_rows
    what = {row.ask for row in rows.values()}
    if not rows or len(what) != 1 or what - {cursor_protocol.NOT_ENFORCED, cursor_protocol.DENIES}:
        return
    asks = sorted(e for e, row in cursor_protocol.PROTOCOL.items() if row.ask == cursor_protocol.ASKS)
    for value in code.flow.values:
        if value.field == "permission" and value.value == "ask":
            yield code.report("script/cursor-ask-not-asked", value.at,
                              "denies" if what == {cursor_protocol.DENIES} else None, event=" and ".join(rows),
                              via=_through(value), asks=" and ".join(asks))
            return


# ---- the code a hook runs: its input, on either host ----------------------------------------------------

CLAUDE_SENDS = {event: claude_protocol.COMMON_INPUT | row.sends for event, row in claude_protocol.PROTOCOL.items()}
CURSOR_SENDS = {event: row.stdin_fields for event, row in cursor_protocol.PROTOCOL.items()}
INPUT_FIELDS: frozenset[str] = frozenset().union(*CLAUDE_SENDS.values(), *CURSOR_SENDS.values())


@CODE_RULES.rule("script/input-field-never-sent")
def _input_field_never_sent(code: HookCode) -> Iterator[Finding]:
    """A field of some event's input (either host's) that none of the code's events sends, read by
    code that does not tell events apart."""
    facts, claude_events, cursor_events = code.facts, code.claude_events, code.cursor_events
    if facts.reads_event_name or facts.delegates is not None or not (claude_events or cursor_events) \
            or not set(claude_events) <= set(CLAUDE_SENDS) or not set(cursor_events) <= set(CURSOR_SENDS):
        return  # (an event this table does not know: no judgement)
    sent = frozenset().union(*(CLAUDE_SENDS[e] for e in claude_events), *(CURSOR_SENDS[e] for e in cursor_events))
    events = " and ".join(claude_events + cursor_events)
    read = {field for field, _ in facts.flow.input_reads}
    for field, place in facts.flow.input_reads:
        meant = _meant(field, sent)
        if field not in INPUT_FIELDS and meant and meant not in read:  # a name no event sends: a typo?
            yield code.report("script/input-field-never-sent", place, "typo", field=field, event=events, meant=meant)
        if field in INPUT_FIELDS and field not in sent:
            same, other = (CLAUDE_SENDS, CURSOR_SENDS) if claude_events else (CURSOR_SENDS, CLAUDE_SENDS)
            senders = sorted(e for e, fields in same.items() if field in fields) or sorted(
                f"{'Cursor' if claude_events else 'Claude Code'}'s {e}" for e, fields in other.items() if field in fields)
            yield code.report("script/input-field-never-sent", place, field=field, event=events,
                              senders=", ".join(senders[:4]) + (" ..." if len(senders) > 4 else ""))


def _meant(field: str, sent: frozenset[str]) -> str | None:
    """The field the event sends that an unknown name seems meant for (user_prompt: prompt)."""
    close = difflib.get_close_matches(field, sorted(sent), n=1, cutoff=0.8)
    inside = [name for name in sorted(sent, key=len, reverse=True) if len(name) > 3 and name in field]
    return close[0] if close else (inside[0] if inside else None)


# ---- a handler `--probe` ran (installer/doctor/scripts/probe.py) -----------------------------------------

# decision fields an event may not read: written there, they are dropped without a word
DECISION_FIELDS = ("hookSpecificOutput.permissionDecision", "hookSpecificOutput.decision")
# where exit 2 does not block, what it does there, as probe-exit-does-not-block's variant words it
# (docs/hosts/claude-code.md#events, #exit-codes)
EXIT_2 = {claude_protocol.FEEDBACK: "after-the-fact", claude_protocol.NOT_READ: "not-read",
          claude_protocol.IGNORED: "ignored"}
# a package runner that had to fetch its package: the probe's world has no cache, so this says nothing of the hook
RUNNER_FETCHING = ("npm warn exec", "npm error", "npm ERR!", "error: could not determine executable")


@PROBE_RULES.rule("script/probe-timeout", alone=True)
def _probe_timeout(probed: ProbedRun) -> Iterator[Finding]:
    """No answer in time: nothing else it did is judged."""
    result = probed.result
    if result.run.timed_out:
        own = _own_timeout(probed.handler)
        yield probed.finding("script/probe-timeout", None if own <= result.timeout else "probe-limit",
                             event=probed.event, seconds=f"{result.timeout:g}", own=f"{own:g}")


def _own_timeout(handler: Handler) -> float:
    """The seconds Claude Code gives the handler (the hooks' runner: imported only with --probe)."""
    from ...hooks import running  # (--probe only: about 20 ms)

    return running.timeout_of(handler)


@PROBE_RULES.rule("script/probe-invalid-output")
def _probe_invalid_output(probed: ProbedRun) -> Iterator[Finding]:
    """Stdout that is not one JSON object, or JSON that breaks the event's schema."""
    if not probed.answered:
        return
    event, not_json = probed.event, probed.stdout[1]
    if not_json:
        yield probed.finding("script/probe-invalid-output", event=event, detail=not_json,
                             what=_short(probed.printed))
    void = probed.result.reading.void
    if void is not None and probed.void_verdict == "script/probe-invalid-output":
        yield probed.finding("script/probe-invalid-output", "schema", event=event, why=void.why, field=void.field)


@PROBE_RULES.rule("script/probe-wrong-event")
def _probe_wrong_event(probed: ProbedRun) -> Iterator[Finding]:
    data = probed.stdout[0]
    if probed.answered and data is not None and probed.void_verdict == "script/probe-wrong-event":
        yield probed.finding("script/probe-wrong-event", event=probed.event,
                             found=json.dumps(data["hookSpecificOutput"]["hookEventName"]))


@PROBE_RULES.rule("script/probe-decision-ignored")
def _probe_decision_ignored(probed: ProbedRun) -> Iterator[Finding]:
    """A decision the event voids (a value it does not accept, no or another hookEventName),
    drops (a field it does not read), or does not take as a refusal (continue: false)."""
    if not probed.answered or probed.stdout[0] is None:
        return
    event, read = probed.event, probed.result.reading
    instead = DECISION_INSTEAD.get(event, NO_DECISION)
    if read.void is not None and probed.void_verdict == "script/probe-decision-ignored":
        yield probed.finding("script/probe-decision-ignored", event=event, instead=instead, why=read.void.why)
    for name in (f for f in DECISION_FIELDS if f in read.ignored_fields):
        yield probed.finding("script/probe-decision-ignored", "dropped", event=event, instead=instead, field=name)
    stop = probed.row.continue_false
    said_stop = (probed.stdout[0] or {}).get("continue") is False  # (where it is ignored, the reading does not stop)
    if said_stop and read.decision is None and stop in (claude_protocol.STOPS_AFTER, claude_protocol.CONTINUE_IGNORED):
        yield probed.finding("script/probe-decision-ignored", "continue-false-stops" if stop == claude_protocol.STOPS_AFTER
                             else "continue-false", event=event, instead=instead)


@PROBE_RULES.rule("script/probe-rewrite-drops-fields")
def _probe_rewrite_drops_fields(probed: ProbedRun) -> Iterator[Finding]:
    """A rewrite replaces the whole input (docs/hosts/claude-code.md#rewriting-input): the fields of
    the call it leaves out are gone."""
    result = probed.result
    read = result.reading
    if not probed.answered or read.updated_input is None or read.decision in ("deny", "defer") \
            or not result.tool_input:
        return
    dropped = [name for name in result.tool_input if name not in read.updated_input]
    if dropped:
        yield probed.finding("script/probe-rewrite-drops-fields", event=result.event, tool=result.tool,
                             fields=", ".join(dropped),
                             where="decision.updatedInput" if result.event == "PermissionRequest" else "updatedInput")


@PROBE_RULES.rule("script/probe-exit-does-not-block")
def _probe_exit_does_not_block(probed: ProbedRun) -> Iterator[Finding]:
    """An exit code that does not block where the hook seems to mean it to (no JSON decided)."""
    run, read, row = probed.result.run, probed.result.reading, probed.row
    after_the_fact = run.exit_code == 2 and row.exit_2 == claude_protocol.FEEDBACK  # (read as a block's feedback)
    if not probed.answered or (read.decision is not None and not after_the_fact) or run.exit_code in (0, None):
        return
    stderr = run.stderr.decode("utf-8", "replace").strip()
    if any(sign in stderr for sign in RUNNER_FETCHING):
        return
    # after the fact, exit 2 is how a hook gives Claude feedback: reported only when it says it refuses
    feedback_only = row.exit_2 == claude_protocol.FEEDBACK and not script_flow.REFUSAL.search(stderr)
    if run.exit_code == 2 and row.exit_2 in EXIT_2 and not feedback_only:
        yield probed.finding("script/probe-exit-does-not-block", EXIT_2[row.exit_2], event=probed.event)
    elif run.exit_code != 2 and row.exit_2 == claude_protocol.BLOCKS and stderr:
        yield probed.finding("script/probe-exit-does-not-block", event=probed.event, status=run.exit_code,
                             said=_short(stderr))


def _short(output: str, limit: int = 60) -> str:
    """Its first line, quoted and cut short."""
    text = output.strip()
    line = text.splitlines()[0] if text else ""
    return json.dumps(line[:limit]) + (" [and more]" if len(line) > limit or "\n" in text else "")
