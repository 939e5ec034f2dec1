"""The units the script rules read: a script file with the handlers that run it (Script), the code a
hook runs, a script file or an inline command, with its events (HookCode), and where their
findings go."""
from __future__ import annotations

import os
import shlex
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol

from .... import hosts
from ....hooks.events import CLAUDE_EVENTS
from ....hooks.regex import matched_builtins
from ....hosts.claude import protocol as claude_protocol
from ....hosts.claude.protocol import EventProtocol
from ....hosts.cursor import protocol as cursor_protocol
from ....hosts.cursor.protocol import CursorEventProtocol
from ....patterns import holds_word, lazy
from ....records import Record
from ... import handler_facts
from ...model import Context, Finding, Handler, cached_property, rule_by_id
from ...scripts import arguments as script_arguments
from ...scripts import event_branches
from ...scripts import flow as script_flow
from ...scripts import intent as script_intent
from ...scripts.keys import INLINE, ScriptFacts, Site, analyse, command_facts

if TYPE_CHECKING:  # (types only annotations name: typing builds a Protocol class when its module loads)
    At = Site | script_flow.Place  # a place in a script: a key the analysis found, or a statement of its flow

    class Report(Protocol):
        """Makes a finding of a hook's code at a place in it: at the script, or at an inline command."""

        def __call__(self, rule_id: str, place: At, variant: str | None = None, **params: Any) -> Finding: ...

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

# the events that read hookSpecificOutput.permissionDecision (docs/hosts/claude-code.md#decisions-per-event)
PERMISSION_DECISION_EVENTS = frozenset({"PreToolUse", "PreModelSwitch"})


def decision_in_wrong_event(facts: ScriptFacts, events: list[str]) -> bool:
    """A script file of one Claude Code event that answers permissionDecision there, the event not
    one that reads it, and that does not tell events apart: script/decision-wrong-event's case
    (script/field-the-event-ignores leaves that field to it: one finding per defect)."""
    return bool(facts.permission_decisions) and facts.path != INLINE and len(events) == 1 \
        and events[0] not in PERMISSION_DECISION_EVENTS and not facts.reads_event_name


def decisions_in_wrong_branch(facts: ScriptFacts, events: list[str]) -> list[tuple[Site, list[str]]]:
    """A script file that tells its events apart (its test of hook_event_name) and answers
    permissionDecision in the part that runs on events that do not read it: (where, those of
    the script's events), each such answer."""
    branches = facts.flow.event_branches
    if not facts.reads_event_name or not branches or facts.path == INLINE:
        return []
    found = []
    for site in facts.permission_decisions:
        meant = sorted(set(events) & (event_branches.events_at(branches, site.line) or frozenset()))
        if meant and not PERMISSION_DECISION_EVENTS & set(meant):
            found.append((site, meant))
    return found


MAX_RELATED = 5


class Script:
    """One readable script file and the handlers (Claude Code's and Cursor's) that run it, as the
    script-file rules read it."""

    def __init__(self, ctx: Context, facts: ScriptFacts, handlers: list[Handler],
                 imported_by: Path | None = None) -> None:
        self.ctx = ctx
        self.facts = facts
        self.handlers = handlers
        self.imported_by = imported_by  # a module of a hook's own (its script imports it), not a script a hook runs
        # a module's: each file that imports it, with the handlers that run that file (or the script above it)
        self.importers: dict[Path, tuple[ScriptFacts, list[Handler]]] = {}

    @cached_property
    def text(self) -> str:
        """Its text, as doctor reads a script (bounded); "" where it cannot be read now."""
        return script_intent.text_of(self.facts.path)

    @cached_property
    def claude(self) -> list[Handler]:
        """Its Claude Code handlers, but those under a name that is not an event: they never run
        (structure/event-never-runs, structure/unknown-event), so no rule reasons from that name."""
        return [h for h in self.handlers if read_by(h, claude_protocol.ANSWER_TABLE) and h.event in CLAUDE_EVENTS]

    @cached_property
    def cursor(self) -> list[Handler]:
        return [h for h in self.handlers if read_by(h, cursor_protocol.ANSWER_TABLE)]

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
                        tools_of=self.claude if self.claude and not cursor else None,
                        report_at_event=self._report_at_event,
                        arguments={h.event: [*self.arguments_of(h)] for h in self.claude},
                        cdpath=bool(os.environ.get("CDPATH")), protocol=host_protocol(self.handlers),
                        other_inputs=other_inputs(self.handlers))

    def arguments_of(self, handler: Handler) -> Iterator[tuple[str, ...] | None]:
        """The arguments the handler passes the script (the words after it in what its command
        runs), None where they cannot be told (a variable, a script run through another)."""
        runs = handler_facts.runs(handler)
        path = self.facts.path
        yield tuple(str(w) for w in runs[runs.index(path) + 1:]) if runs and path in runs else None

    def reaches(self, handler: Handler, line: int) -> bool:
        """Whether the script's run for this handler, with its arguments, reaches the line."""
        return all(args is None or script_arguments.reaches(self.facts.flow.argv_regions, line, args)
                   for args in self.arguments_of(handler))

    def finding(self, rule_id: str, place: At, handlers: list[Handler], variant: str | None = None,
                **params: Any) -> Finding:
        """A finding at a place in the script, naming the handlers it is about, worded as the rule
        says or as one of its variants."""
        rule = rule_by_id(rule_id)
        message, hint = rule.worded(variant)
        return Finding(rule.id, rule.severity, str(self.facts.path), place.line, place.column,
                       message.format(**params) + _run_by(handlers, self.imported_by), hint.format(**params),
                       _related(handlers))

    def _report_at_event(self, rule_id: str, place: At, variant: str | None = None, **params: Any) -> Finding:
        """A finding of its code where the handler (Claude Code's, else Cursor's) that runs it on
        params["event"] (the first Claude Code one where none is named) is registered on its event
        (handler_facts.registration): a guard on an event that cannot refuse is mended by moving it,
        so every such finding sits there, one per defect; the message names the script's line
        ({script}, {line}), and the line is its related entry."""
        event = params.get("event")
        handler = next(h for h in [*self.claude, *self.cursor] if event is None or h.event == event)
        rule = rule_by_id(rule_id)
        message, hint = rule.worded(variant)
        keys, at_key = handler_facts.registration(handler)
        line, column = handler.file.position(keys, at_key)
        related = [{"path": str(self.facts.path), "line": place.line, "column": place.column,
                    "message": f"the line of {self.facts.path.name} it is about"}]
        other = handler.keys[:2] if keys != handler.keys[:2] else handler.keys + ("command",)
        other_line, other_column = handler.file.position(other, other == handler.keys[:2])
        if other_line != line:  # (both lines of the registration: the event's key and the handler's command)
            related.append({"path": str(handler.file.path), "line": other_line, "column": other_column,
                            "message": f"the {handler.event} key" if other == handler.keys[:2] else "the handler's command"})
        words = {"line": place.line, **params, "script": self.facts.path.name}
        return Finding(rule.id, rule.severity, str(handler.file.path), line, column, message.format(**words),
                       hint.format(**words), related, keys, at_key)

    def _report(self, rule_id: str, place: At, variant: str | None = None, **params: Any) -> Finding:
        """A finding of its code: about the Claude Code handlers for a rule of Claude Code's protocol;
        at the event the handler is registered on for a rule whose fix is another event; in a module
        it imports for what that module does (params["in_file"])."""
        in_file = params.pop("in_file", None)
        if in_file is not None:
            return self._report(rule_id, place, variant, **params)._replace(path=str(in_file))
        if rule_id in AT_THE_EVENT and self.claude and self.imported_by is None:
            return self._report_at_event(rule_id, place, variant, **params)
        return self.finding(rule_id, place, self.claude if rule_id in CLAUDE_RULES and self.claude else self.handlers,
                            variant, **params)

class HookCode:
    """The code a hook runs (a script file, or a shell command written in the config) with the
    events it runs on, as the rules of its flow and of its events' protocol read it."""

    def __init__(self, facts: ScriptFacts, claude_events: list[str], cursor_events: list[str], report: Report,
                 fail_closed: bool = False, tools_of: list[Handler] | None = None,
                 claude_fails_closed: bool = False, report_at_event: Report | None = None,
                 arguments: dict[str, list[tuple[str, ...] | None]] | None = None, cdpath: bool = False,
                 protocol: HostProtocol | None = None, other_inputs: dict[str, frozenset[str]] | None = None) -> None:
        self.facts = facts
        self.other_inputs = other_inputs or {}  # event -> the fields a host without an answer table sends (Codex)
        protocol = protocol or host_protocol([])
        self.answers_on_exit_0 = protocol.answers_on_exit_0
        self.host = protocol.title
        self.exit_2_host = protocol.exit_2_host
        self.compact_input = protocol.compact_input
        # the user's environment (the agent's, as doctor runs in it) has a CDPATH, which Claude Code hands its hooks
        # (one in the settings' env it does not: docs/hosts/claude-code.md#exit-status-on-the-way-out)
        self.cdpath = cdpath
        self.claude_events = claude_events
        self.cursor_events = cursor_events  # (judged only for code Claude Code does not run)
        self.report = report
        self.fail_closed = fail_closed  # every Cursor entry that runs it has "failClosed": true
        # every Claude Code handler that runs it has onFailure "block" where the host reads it: a
        # failure (exit 1, a crash, a timeout) blocks like exit 2 (docs/hosts/claude-code.md#on-failure)
        self.claude_fails_closed = claude_fails_closed
        self._tools_of = tools_of  # the handlers whose matchers reach the tools a rewrite is judged for (None: any)
        # a script's finding at the event key of its handler (params["event"]): where the fix is to
        # run it on another event; an inline command's findings are at its handler already
        self.report_at_event = report_at_event or report
        # the arguments each Claude Code event's handlers pass (None: not told), for what runs on each
        self.arguments = arguments or {}

    def events_reaching(self, line: int) -> list[str]:
        """The Claude Code events on which some handler's run, with its arguments, reaches the line
        (the parts of a script that only run for an argument: scripts/arguments.py)."""
        regions = self.facts.flow.argv_regions
        if not regions:
            return self.claude_events
        return [event for event in self.claude_events
                if any(args is None or script_arguments.reaches(regions, line, args)
                       for args in self.arguments.get(event, [None]))]

    @property
    def flow(self) -> script_flow.Flow:
        return self.facts.flow

    @cached_property
    def tools(self) -> frozenset[str] | None:
        """The tools its matchers reach, for a rewrite's fields (None: any): worked out where a rule
        reads them, code that builds a new input (on the corpus tree none of its 213 inline
        commands, whose matchers were classified, their regexes built: 38 M instructions)."""
        return _tools_reached(self._tools_of) if self._tools_of is not None else None

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
    def says_it_guards(self) -> bool:
        """A script whose name or opening lines say it stops a change, deciding from the call's
        input alone (it runs no checker and reads no tool result): scripts/intent.py."""
        path = self.facts.path
        return path != INLINE and script_intent.guard_after_the_fact(script_intent.text_of(path), path)

    @cached_property
    def says_it_stops(self) -> bool:
        """A script whose name or opening lines say it stops something, whatever it reads
        (scripts/intent.py): on an event that cannot stop anything, that is a guard misplaced."""
        path = self.facts.path
        return path != INLINE and script_intent.says_it_guards(script_intent.text_of(path), path)

    @cached_property
    def refuses_for_claude(self) -> bool:
        """It refuses in a way Claude Code reads: a deny, a decision block or exit 2."""
        return bool(self.facts.denies) or any(s.what in ("exit 2", "decision: block") for s in self.facts.blocks)


def scripts_run_by(ctx: Context, wanted: Callable[[Handler], bool]) -> dict[Path, Script]:
    """Each readable script file the wanted command handlers run, once, with the handlers that run it."""
    by_script: dict[Path, Script] = {}
    for handler, facts in script_runs(ctx):
        if wanted(handler):
            by_script.setdefault(facts.path, Script(ctx, facts, [])).handlers.append(handler)
    return by_script


def script_runs(ctx: Context) -> list[tuple[Handler, ScriptFacts]]:
    """Each command handler with each readable script file it runs, in the run's order: worked out
    once per run, as four tables ask for their own handlers' scripts (on the corpus tree, whose
    scripts are not there to read, each asking went over its 1,870 handlers: 14 M instructions)."""
    return ctx.once(_script_runs)


def _script_runs(ctx: Context) -> list[tuple[Handler, ScriptFacts]]:
    return [(handler, facts) for handler in ctx.handlers if handler_facts.kind(handler) == "command"
            for _, facts in handler_facts.script_facts(handler) if facts.readable]


def scripts_of(ctx: Context) -> list[Script]:
    """Each readable script file the command handlers of Claude Code and Cursor run, once, with
    the handlers that run it; then the modules of their own they import. Worked out once per run
    (the script and delivery checks both read them, with what each Script works out on first use)."""
    return ctx.once(_scripts_of)


def _scripts_of(ctx: Context) -> list[Script]:
    by_script = scripts_run_by(ctx, handler_facts.commands_checked)
    return [*by_script.values(), *_modules_of(ctx, by_script)]


def _modules_of(ctx: Context, scripts: dict[Path, Script]) -> Iterator[Script]:
    """The modules of their own the scripts import that build an answer (a `decide()` helper in
    lib.mjs), and the modules those import, MODULE_DEPTH deep: each once, with the handlers of
    every script that imports it, as the rules of an answer's shape read it (Script.imported_by)."""
    modules: dict[Path, Script] = {}
    level = [(script.facts, script.handlers) for script in scripts.values()]
    for _ in range(MODULE_DEPTH):
        following = []
        for importer, handlers in level:
            for path in importer.modules:
                if path in scripts:
                    continue
                if path not in modules:
                    facts = analyse(path)
                    if not facts.readable:
                        continue
                    modules[path] = Script(ctx, facts, [], imported_by=importer.path)
                module = modules[path]
                _, users = module.importers.setdefault(importer.path, (importer, []))
                users += [h for h in handlers if h not in users]
                module.handlers += [h for h in handlers if h not in module.handlers]
                following.append((module.facts, handlers))
        level = following
    yield from (m for m in modules.values() if m.facts.output_keys or m.facts.no_event_name)


MODULE_DEPTH = 3  # a helper's helper's helper: deeper imports are not followed


SHELLS = ("sh", "bash", "zsh", "dash", "ksh")
SHELL_C = lazy(r"\s*(?:\S*/)?(?:ba|z|da|k)?sh\s+-c\s", needs=("-c",))
# what the script rules look at in a command (a command without any of these gives them nothing):
# one of these words standing alone, or one of these texts anywhere (plain finds: as one regex, it
# was the dearest compile of doctor on a typical file, 1.6 M instructions)
INLINE_WORDS = ("jq", "cat", "read", "echo", "printf", "exit", "set", "tee")
INLINE_TEXTS = ("updated", "continue", "decision", "permission", "behavior", "tool_response", "hookSpecificOutput",
                "stop_hook_active")


class AtCommand:
    """Where the findings of an inline command go: at the handler's "command"."""

    def __init__(self, ctx: Context, handler: Handler) -> None:
        self.ctx = ctx
        self.handler = handler

    def __call__(self, rule_id: str, place: At, variant: str | None = None, **params: Any) -> Finding:
        return command_finding(self.ctx, self.handler, rule_id, variant, **params)


def command_finding(ctx: Context, handler: Handler, rule_id: str, variant: str | None = None,
                    **params: Any) -> Finding:
    """A finding at a handler's "command" (an inline command's, or a probed run's)."""
    return ctx.finding(rule_id, handler.file, handler.keys + ("command",), variant=variant, **params)


def inline_commands(ctx: Context) -> list[HookCode]:
    """A shell-form command that runs no script file is itself the hook: the same rules, at the
    command in the config. Worked out once per run (the script and delivery checks both read them:
    on the corpus tree, 212 commands whose protocol, tools and inputs were worked out twice)."""
    return ctx.once(_inline_commands)


def _inline_commands(ctx: Context) -> list[HookCode]:
    return list(_each_inline_command(ctx))


def _each_inline_command(ctx: Context) -> Iterator[HookCode]:
    for handler in ctx.handlers:
        if not handler_facts.commands_checked(handler) or handler_facts.kind(handler) != "command":
            continue
        command = handler.value.get("command") if isinstance(handler.value, dict) else None
        if not isinstance(command, str) or handler.value.get("args") is not None or handler_facts.script_facts(handler):
            continue
        if not any(map(command.__contains__, INLINE_TEXTS)) and not holds_word(command, INLINE_WORDS):
            continue  # nothing these rules read: a script run by path, a notify-send...
        claude = read_by(handler, claude_protocol.ANSWER_TABLE)
        cursor = read_by(handler, cursor_protocol.ANSWER_TABLE)
        yield HookCode(_inline_facts(command), [handler.event] if claude else [], [handler.event] if cursor else [],
                       AtCommand(ctx, handler), tools_of=[handler] if claude else None,
                       claude_fails_closed=claude and _fail_closed([handler]), protocol=host_protocol([handler]),
                       other_inputs=other_inputs([handler]))


def other_inputs(handlers: list[Handler]) -> dict[str, frozenset[str]]:
    """The input fields of each event these handlers run on, for the hosts whose input only their
    adapter says (Host.input_fields: Codex); an event it has not measured is left out."""
    found: dict[str, frozenset[str]] = {}
    for handler in handlers:
        host = hosts.of(handler.file.host)
        if host is not None and handler.event in host.input_fields:
            found[handler.event] = found.get(handler.event, frozenset()) | host.input_fields[handler.event]
    return found


def read_by(handler: Handler, table: str) -> bool:
    """Whether the handler's host has its hooks' output read by this protocol table (Host.answer_table)."""
    host = hosts.of(handler.file.host)
    return host is not None and host.answer_table == table


class HostProtocol(Record):
    """What the hosts that run a hook's code say of its answer, taken from their adapters once."""

    title: str  # the host, as a message names it (the default agent's where several run it, or none is known)
    # the title of a host with no answer table of its own (Codex) whose exit 2 blocks on every
    # event it runs on: there too an exit 1 lets the call run (Host.exit_2_needs_reason); "" where
    # any of them runs elsewhere
    exit_2_host: str
    answers_on_exit_0: bool  # every host that runs it reads its JSON answer on exit 0 alone (Cursor, Codex)
    compact_input: bool = False  # every host that runs it writes its input as compact JSON (Host.compact_input)


def host_protocol(handlers: list[Handler]) -> HostProtocol:
    """The protocol record of the hosts that run these handlers."""
    found = [(handler, hosts.of(handler.file.host)) for handler in handlers]
    titles = {host.title for _, host in found if host is not None}
    exit_2 = bool(found) and all(host is not None and not host.answer_table and handler.event in host.exit_2_needs_reason
                                 for handler, host in found)
    return HostProtocol(titles.pop() if len(titles) == 1 else hosts.get(hosts.DEFAULT).title,
                        next(host.title for _, host in found if host is not None) if exit_2 else "",
                        bool(found) and all(host is not None and not host.reads_answer_on_failure for _, host in found),
                        bool(found) and all(host is not None and host.compact_input for _, host in found))


def _fail_closed(handlers: list[Handler]) -> bool:
    """Every one of these Claude Code handlers makes its failures block (onFailure "block")."""
    return bool(handlers) and all(isinstance(h.value, dict) and claude_protocol.fails_closed(h.event, h.value)
                                  for h in handlers)


@lru_cache(maxsize=4096)
def _inline_facts(command: str) -> ScriptFacts:
    """The analysis of a command's text (the same command in many files is read once)."""
    return command_facts(_inner_script(command))


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


def _related(handlers: list[Handler]) -> list[dict[str, Any]]:
    out = []
    for handler in handlers[:MAX_RELATED]:
        line, column = handler.file.position(handler.keys + ("command",))
        out.append({"path": str(handler.file.path), "line": line, "column": column,
                    "message": f"the {handler.event} handler that runs this script"
                               + (f" (1 of {len(handlers)})" if len(handlers) > MAX_RELATED else "")})
    return out


def _run_by(handlers: list[Handler], imported_by: Path | None = None) -> str:
    """Which config entry runs the script, for the message: ` (run by the PreToolUse hook at
    .claude/settings.json:12)`; for a module, which script imports it: ` (imported by
    no-deploy.mjs, run by ...)`."""
    if not handlers:
        return ""
    if imported_by is not None:
        return _run_by(handlers).replace(" (run by", f" (imported by {imported_by.name}, run by", 1)
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


# the rules whose fix is the event a script is registered on: found in the script, reported at the event
AT_THE_EVENT = frozenset({"script/failure-in-post-tool-use"})
# the rules of Claude Code's protocol: a script's finding names the Claude Code handlers that run it
CLAUDE_RULES = frozenset({"script/exit-2-does-not-block", "script/exit-1-fails-open", "script/reason-on-stdout",
                          "script/continue-false-not-a-block", "script/invalid-decision-value",
                          "script/failure-in-post-tool-use"})


def through(value: script_flow.Value) -> str:
    """How a decision value reaches the answer, for a message: ` (through a variable or table)`, or nothing."""
    return f" (through {value.via})" if value.via else ""
