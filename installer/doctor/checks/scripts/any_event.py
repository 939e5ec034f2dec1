"""The code a hook runs, a script file or an inline command, whatever its event (CODE_RULES):
whether it parses, where its answer goes, how it reads its input and builds a rewrite."""
from __future__ import annotations

from typing import Any, Iterator

from ...model import Finding, RuleTable
from ...scripts import flow as script_flow
from ...scripts import runners
from ...scripts.delivery import READS_NOTHING  # (not runtimes.py, which only a Python or JavaScript script needs)
from ...scripts.keys import analyse as analyse_script
from ...shell.results import Where
from .units import At, HookCode

CODE_RULES = RuleTable()  # the rules of the code a hook runs, a script file or an inline command


@CODE_RULES.rule("script/does-not-parse")
def _does_not_parse(code: HookCode) -> Iterator[Finding]:
    if code.flow.syntax_error:
        what, place = code.flow.syntax_error
        yield code.report("script/does-not-parse", place, "fails-closed" if code.claude_fails_closed else None,
                          what=what, interpreter="python3" if code.facts.language == "python" else "node")


@CODE_RULES.rule("script/text-before-json")
def _text_before_json(code: HookCode) -> Iterator[Finding]:
    """Text (or the hook's own input) and a JSON answer that one run can both print."""
    mixed = code.flow.mixed_output(code.cdpath)
    modules = [(path, analyse_script(path).flow) for path in code.facts.modules] if not mixed else []
    # the answer: printed by the script, or by a module of its own (a helper's deny())
    answer = next((w for flow in [code.flow, *(flow for _, flow in modules)] for w in flow.writes
                   if w.kind == script_flow.STDOUT_JSON), None)
    if not mixed and answer is not None:
        for path, flow in modules:  # a module of its own that prints when it is imported
            printed = flow.import_time_text
            if printed is not None:
                yield _mixed(code, printed.at, "module", text=f"`{printed.what}`",
                                  module=path.name, text_line=printed.at.line, json_line=answer.at.line,
                                  in_file=path)
                return
        for path, flow in modules:  # a module that sends logging to stdout, and the script logs
            logged = next((at for receiver, at in code.flow.log_calls if receiver in flow.stdout_loggers), None)
            if flow.stdout_config is not None and logged is not None:
                yield _mixed(code, flow.stdout_config, "configured-in-module",
                                  module=path.name, text_line=logged.line, json_line=answer.at.line, in_file=path)
                return
    # Cursor takes stdout that is not one JSON object for a failed hook: fail-open, or a block with failClosed
    cursor = "cursor-fail-closed" if code.fail_closed else "cursor"
    claude = bool(code.claude_rows) or not code.cursor_rows
    if not mixed and code.flow.second_answer is not None:
        first, second = code.flow.second_answer
        yield _mixed(code, first.at, "second-answer" if claude else cursor,
                          text=f"`{first.what}`", text_line=first.at.line, json_line=second.at.line,
                          event=" and ".join(code.cursor_rows))
        return
    if not mixed and answer is None:  # a wrapper: npm, yarn or make runs a script that answers, their text before it
        for program, args, assigned, at in code.flow.runner_runs:
            chatter = runners.chatter([program, *args], assigned, code.facts.path.parent)
            answering = runners.answering_script(chatter, Where(project=chatter.folder)) if chatter else None
            if chatter is not None and answering is not None:
                yield _mixed(code, at, "runner", runner=chatter.runner,
                                  prints=chatter.prints, script=answering.name, quiet=chatter.quiet)
                return
    if mixed:
        text, answer = mixed
        own = text.kind == script_flow.STDOUT_INPUT
        variant = ("own-input" if own else None) if claude else cursor
        yield _mixed(code, text.at, variant, text=f"`{text.what}`" if not own else
                          "its own input (a tee that is not sent to /dev/null)", text_line=text.at.line,
                          json_line=answer.at.line, event=" and ".join(code.cursor_rows))
        config = code.flow.stdout_config
        if variant is None and config is not None and text.what.endswith(LOGGING) and config.line != text.at.line:
            # (the line the user changes is where logging is sent to stdout, not each log call)
            yield _mixed(code, config, "configured", text=f"`{text.what[:-len(LOGGING)]}`",
                              text_line=text.at.line, json_line=answer.at.line)


LOGGING = " (logging to stdout)"


@CODE_RULES.rule("script/answer-sent-away")
def _answer_sent_away(code: HookCode) -> Iterator[Finding]:
    """A shell script whose lasting `exec >>log` sends its stdout elsewhere before its JSON answer."""
    sent = code.flow.stdout_sent_away
    if sent is not None:
        at, how, answer = sent
        yield code.report("script/answer-sent-away", at, how=f"`{how}`", json_line=answer.at.line)


def _mixed(code: HookCode, place: At, variant: str | None, **params: Any) -> Finding:
    """script/text-before-json's finding, naming the host that reads the stdout."""
    return code.report("script/text-before-json", place, variant, host=code.host, **params)


@CODE_RULES.rule("script/answer-on-stderr")
def _answer_on_stderr(code: HookCode) -> Iterator[Finding]:
    """A JSON answer written only to stderr, by code that never exits 2 (where stderr is the
    block's reason), writes nothing else on stdout that could be the answer, and hands its
    output to no other program: the host reads the answer from
    stdout (measured on 2.1.328: a PreToolUse deny on stderr with exit 0 let the call run)."""
    flow = code.flow
    if not flow.stderr_answers or code.facts.delegates is not None or flow.unread_output \
            or any(w.kind == script_flow.STDOUT_JSON for w in flow.writes) \
            or any(e.status == 2 or e.status is None and not e.relayed for e in flow.exits):  # (one not read may be 2)
        return
    yield code.report("script/answer-on-stderr", flow.stderr_answers[0], host=code.host)


@CODE_RULES.rule("script/answer-not-json")
def _answer_not_json(code: HookCode) -> Iterator[Finding]:
    """console.log of the answer object itself: printed in JavaScript's notation, not JSON."""
    return code.at_each("script/answer-not-json", code.flow.inspected_answers)


@CODE_RULES.rule("script/stdin-read-twice")
def _stdin_read_twice(code: HookCode) -> Iterator[Finding]:
    return code.at_each("script/stdin-read-twice", code.flow.stdin_reads)


@CODE_RULES.rule("script/stdin-read-partly")
def _stdin_read_partly(code: HookCode) -> Iterator[Finding]:
    """A read of stdin that stops before the end of a large payload (scripts/runtimes.py)."""
    for what, place in code.flow.partial_reads:
        yield code.report("script/stdin-read-partly", place, "nothing" if what.startswith(READS_NOTHING) else None,
                          what=what)


@CODE_RULES.rule("script/shell-trace")
def _shell_trace(code: HookCode) -> Iterator[Finding]:
    if code.flow.trace:
        yield code.report("script/shell-trace", code.flow.trace)


@CODE_RULES.rule("script/value-keeps-quotes")
def _value_keeps_quotes(code: HookCode) -> Iterator[Finding]:
    """A value read by jq without -r (a JSON string, quotes and all) tested with an anchored pattern."""
    for value in code.flow.quoted_values:
        yield code.report("script/value-keeps-quotes", script_flow.Place(value.line, value.column),
                          variable=value.variable, test=value.test, test_line=value.test_line)


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
