"""With `--probe`, one foreign Claude Code handler run once on its event (PROBE_RULES): what it
printed and how it exited (installer/doctor/scripts/probe.py runs it). Its findings point at the
handler's command."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Iterator

from ....hosts.claude import protocol as claude_protocol
from ....hosts.claude.protocol import EventProtocol
from ...model import Context, Finding, Handler, RuleTable, cached_property
from ...scripts import flow as script_flow
from .units import DECISION_INSTEAD, NO_DECISION, command_finding

if TYPE_CHECKING:
    from ...scripts.probe import ProbeResult


PROBE_RULES = RuleTable()  # the rules of a handler `--probe` ran


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
        from ....hooks import answers  # (an answer to read: the hooks' reader, over 10 ms)

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
        return command_finding(self.ctx, self.handler, rule_id, variant, **params)


def probed_runs(ctx: Context) -> Iterator[ProbedRun]:
    """What each foreign Claude Code handler answered its event under --probe."""
    from ...scripts import probe  # runs the user's commands: only with --probe (it loads simulate, about 20 ms)

    for handler, result in probe.results_for(ctx):
        yield ProbedRun(ctx, handler, result)


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
    from ....hooks import running  # (--probe only: about 20 ms)

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
