"""Hooks that run where their code cannot do what it means (EVENT_FIT_RULES, over the whole run):
a variable the host sets only on other events (CLAUDE_ENV_FILE outside SessionStart), a script
that outlasts the time its event gives it (SessionEnd's shared budget); and what a guard of files
is (read by conditions.py's rule of a matcher that leaves a tool changing them unguarded). The host
facts are the adapter's (Host.event_variables, Host.file_changing_tools, the SessionEnd budget),
measured on the real agent (docs/hosts/claude-code.md#environment, #timeouts, #matchers)."""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator

from .... import hosts
from ....hooks.firing import runs_with
from ....hosts.base import Host
from ....hosts.claude.protocol import SESSION_END_BUDGET_VARIABLE, session_end_budget
from ....patterns import lazy
from ....records import Record
from ... import handler_facts
from ...model import Context, Finding, Handler, RuleTable, rule_by_id, timeout_seconds
from ...scripts import intent
from ...scripts.variables import unguarded_use
from ..commands import PYTHON_EXITS_2, python_exit_2

EVENT_FIT_RULES = RuleTable()  # a hook's code against its events, weighed over every handler of the run
# a wait the script always makes: a top-level `sleep N` (shell), `time.sleep(N)` at the top or in
# main() (Python), an awaited setTimeout of N ms (JavaScript)
SLEEPS = {
    "shell": lazy(r"(?m)^(?:[ \t]*|.*?[;&]\s*)sleep\s+(\d+(?:\.\d+)?)s?\b", needs=("sleep",)),
    "python": lazy(r"(?m)^(?: {4})?(?:time\.)?sleep\(\s*(\d+(?:\.\d+)?)\s*\)", needs=("sleep(",)),
    "javascript": lazy(r"(?m)^\s{0,2}await\s+new\s+Promise\(.*setTimeout\([^,]*,\s*(\d+)\s*\)", needs=("setTimeout(",)),
}
TOP_LEVEL_SHELL = lazy(r"(?m)^sleep\s")  # (a sleep indented in a shell script may be in a branch)
MS = {"javascript": 1000.0}
EXIT_2 = lazy(r"\bexit 2\b", needs=("exit 2",))  # (an inline command's refusal)


class Code(Record):
    """What a handler runs: the text of its script (or of its inline command), where it is, its language."""

    text: str
    path: Path | None
    language: str


def handler_code(handler: Handler) -> Code | None:
    """The script the handler runs (its first readable one), or its shell command written inline."""
    scripts = handler_facts.script_facts(handler)
    if scripts:
        facts = scripts[0][1]
        return Code(intent.text_of(facts.path), facts.path, facts.language) if facts.readable else None
    command = handler.command
    return Code(command, None, "shell") if isinstance(command, str) else None


class CommandRun(Record):
    """A command handler of a host doctor knows, with the code it runs (None: none it can read)."""

    handler: Handler
    host: Host
    code: Code | None


def command_runs(ctx: Context) -> list[CommandRun]:
    """The run's command handlers of known hosts, each with its host and code, worked out once per
    run: every rule of this table goes over them (each asking again for each handler, the four
    took 234 M of the corpus tree's 5,176 M instructions)."""
    return ctx.once(_command_runs)


def _command_runs(ctx: Context) -> list[CommandRun]:
    return [CommandRun(handler, host, handler_code(handler)) for handler in ctx.handlers
            if (host := hosts.of(handler.file.host)) is not None and handler_facts.kind(handler) == "command"]


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _related(code: Code, offset: int, message: str) -> list[dict[str, object]]:
    return [{"path": str(code.path), "line": _line_of(code.text, offset), "column": 1, "message": message}] \
        if code.path is not None else []


@EVENT_FIT_RULES.rule("script/variable-not-on-event")
def _variable_not_on_event(ctx: Context) -> Iterator[Finding]:
    """A hook's code that uses a variable its host sets only on other events, with no handler that
    runs it on one of them: the variable is empty there (CLAUDE_ENV_FILE on UserPromptSubmit)."""
    by_code: dict[object, list[tuple[Handler, Code, dict[str, frozenset[str]]]]] = {}
    for handler, host, code in command_runs(ctx):
        if host.event_variables and code is not None:
            by_code.setdefault(code.path or code.text, []).append((handler, code, host.event_variables))
    for runs in by_code.values():
        handler, code, variables = runs[0]
        if not any(map(code.text.__contains__, variables)):
            continue  # (no variable named at all, as nearly every command's code: no events to gather)
        events = {h.event for h, _, _ in runs}
        for variable, given_on in variables.items():
            use = re.search(rf"\b{variable}\b", code.text) if variable in code.text else None
            if use is None or events & given_on:
                continue
            yield ctx.finding("script/variable-not-on-event", handler.file, handler.keys[:2], at_key=True,
                              variable=variable, event=handler.event, events=", ".join(sorted(given_on)),
                              related=_related(code, use.start(), f"where it uses {variable}"))


@EVENT_FIT_RULES.rule("script/variable-of-another-host")
def _variable_of_another_host(ctx: Context) -> Iterator[Finding]:
    """A hook's command or script that builds a path from a variable another host sets for its hooks
    and its own host never does (`"$CLAUDE_PROJECT_DIR"/.codex/hooks/x.sh` under Codex): the path
    starts at /, or the script stops at the missing name, and the hook fails. Said once per
    command and per script, at the command where it is written there, else at the script's line."""
    said: set[object] = set()
    others_of: dict[Host, dict[str, str]] = {}  # (each host's, asked once)
    for handler, host, code in command_runs(ctx):
        if host.hook_variables is None:
            continue
        if host not in others_of:
            others_of[host] = hosts.variables_of_others(host)
        others = others_of[host]
        command = handler.command if isinstance(handler.command, str) else ""
        for text, path in ((command, None), *(((code.text, code.path),) if code and code.path is not None else ())):
            if not any(map(text.__contains__, others)):
                continue  # (none of them named: most texts, asked here without a generator's setup)
            found = next(((variable, other, at) for variable, other in others.items() if variable in text
                          and (at := unguarded_use(text, variable)) is not None), None)
            if found is None or (path or (handler.file.path, handler.keys)) in said:
                continue
            said.add(path or (handler.file.path, handler.keys))
            variable, name, at = found
            other = hosts.get(name)
            main = handler_facts.resolution(handler).main if path is None else None
            effect = host.unstarted_effect(handler.event, handler.value, python_exit_2(main, PYTHON_EXITS_2))
            if path is None:
                yield ctx.finding("script/variable-of-another-host", handler.file, handler.keys + ("command",),
                                  variable=variable, other=other.title, host=host.title, effect=effect)
            else:
                rule = rule_by_id("script/variable-of-another-host")
                message, hint = rule.worded("script")
                line, column = handler.file.position(handler.keys + ("command",))
                params = {"variable": variable, "other": other.title, "host": host.title, "effect": effect,
                          "event": handler.event}
                yield Finding(rule.id, rule.severity, str(path), _line_of(text, at), 1, message.format(**params),
                              hint.format(**params), [{"path": str(handler.file.path), "line": line, "column": column,
                                                       "message": f"the {host.title} hook that runs it"}])
            break


@EVENT_FIT_RULES.rule("script/guard-after-the-call")
def _guard_after_the_call(ctx: Context) -> Iterator[Finding]:
    """A guard (a PreToolUse-shaped deny, or a refusal by a script that says it stops the call and
    reads nothing of its result) on an event its host runs after the call (Host.after_the_call):
    nothing is stopped. Said at the event the handler is registered on, where the fix is."""
    for handler, host, code in command_runs(ctx):
        if handler.event not in host.after_the_call:
            continue
        facts = [f for _, f in handler_facts.script_facts(handler)]
        if code is None or not facts:
            continue
        denies = next((f.denies[0] for f in facts if f.permission_decisions and f.denies), None)
        refusal = denies or next((site for f in facts for site in f.blocks), None)
        if refusal is None or denies is None and not intent.guard_after_the_fact(code.text, code.path):
            continue
        how = "a deny" if denies else "exit 2" if refusal.what == "exit 2" else "a block"
        keys, at_key = handler_facts.registration(handler)
        yield ctx.finding("script/guard-after-the-call", handler.file, keys, at_key=at_key,
                          script=code.path.name if code.path else "the command", how=how, line=refusal.line,
                          event=handler.event, host=host.title, effect=host.after_the_call[handler.event],
                          related=[{"path": str(facts[0].path), "line": refusal.line, "column": 1,
                                    "message": "where it refuses"}])


@EVENT_FIT_RULES.rule("script/outlasts-its-time")
def _outlasts_its_time(ctx: Context) -> Iterator[Finding]:
    """A hook whose code always waits longer than its event gives it: it is stopped before what
    comes after the wait (SessionEnd's shared budget of 1.5 s, or the handler's own timeout)."""
    budget_set = os.environ.get(SESSION_END_BUDGET_VARIABLE) or any(
        isinstance(f.document.data, dict) and isinstance(f.document.data.get("env"), dict)
        and SESSION_END_BUDGET_VARIABLE in f.document.data["env"] for f in ctx.files if f.document)
    raised: list[float] | None = None  # the SessionEnd timeouts, worked out once (not once per SessionEnd hook)
    for handler, host, code in command_runs(ctx):
        if code is None or not isinstance(handler.value, dict) or not may_wait(code):
            continue
        own = timeout_seconds(handler.value.get("timeout"))
        given: float | None
        if handler.event == "SessionEnd" and host.shares_session_end_budget:
            if budget_set:
                continue
            if raised is None:
                raised = [t for h in ctx.handlers if h.event == "SessionEnd" and runs_with(h)[0] != "plugin"
                          and isinstance(h.value, dict) and (t := timeout_seconds(h.value.get("timeout"))) is not None]
            given = session_end_budget(raised)
        else:
            given = own if own is not None else host.default_timeout("command", handler.event)
        if given is None:
            continue
        keys = handler.keys + (("timeout",) if own is not None else ("command",))
        wait = _longest_wait(code)
        if wait is not None and wait[0] > given:
            yield ctx.finding("script/outlasts-its-time", handler.file, keys, variant="session-end"
                              if handler.event == "SessionEnd" else None, wait=f"{wait[0]:g}", given=f"{given:g}",
                              event=handler.event, host=host.title, related=_related(code, wait[1], "the wait"))
            continue
        retry = None
        if may_sleep(code):
            from .waits import retry_wait  # (past its premise: see waits.py)

            retry = retry_wait(code)
        if retry is not None and retry[0] > given:
            yield ctx.finding("script/outlasts-its-time", handler.file, keys, variant="retry", wait=f"{retry[0]:g}",
                              given=f"{given:g}", event=handler.event, host=host.title, how=retry[2],
                              related=_related(code, retry[1], "the loop that waits"))
            continue
        call = _longest_call(code) if retry is None else None
        if call is not None and call[0] > given:
            yield ctx.finding("script/outlasts-its-time", handler.file, keys, variant="call", wait=f"{call[0]:g}",
                              given=f"{given:g}", event=handler.event, host=host.title, how=call[2],
                              related=_related(code, call[1], "the call that may wait"))


def _longest_wait(code: Code) -> tuple[float, int] | None:
    """The longest wait the code always makes, in seconds, and where it is."""
    pattern = SLEEPS.get(code.language)
    if pattern is None:
        return None
    found = None
    for match in pattern.finditer(code.text):
        if code.language == "shell" and code.path is not None and not TOP_LEVEL_SHELL.match(match.group(0)):
            continue
        seconds = float(match.group(1)) / MS.get(code.language, 1.0)
        if found is None or seconds > found[0]:
            found = (seconds, match.start())
    return found


# a wait in a loop's body: seconds (Python, shell) or milliseconds (JavaScript: setTimeout, a sleep(ms) helper),
# a number or a variable (a back-off that grows: `delay *= 2`)
# arithmetic of numbers and names, with one level of parentheses: `1 + attempt`, `1000 * (i + 1)`
EXPRESSION = r"[\w\s+*/.-]*(?:\([\w\s+*/.-]*\)[\w\s+*/.-]*)*"
BODY_SLEEPS = {
    "python": lazy(rf"""\bsleep\(\s*(?:(\d+(?:\.\d+)?)|(?P<var>[A-Za-z_]\w*)|(?P<expr>{EXPRESSION}))\s*\)""",
                   needs=("sleep(",)),
    "shell": lazy(r"""(?:^|[;&|\s])sleep\s+(?:(\d+(?:\.\d+)?)s?\b|"?\$\{?(?P<var>[A-Za-z_]\w*)\}?"?|"""
                  r""""?\$\(\((?P<expr>[^()\n]*(?:\([^()\n]*\)[^()\n]*)*)\)\)"?)""", needs=("sleep",)),
    "javascript": lazy(rf"""\bsetTimeout\([^,]*,\s*(?:(\d+)|(?P<var>[A-Za-z_$][\w$]*)|(?P<expr>{EXPRESSION}))\s*\)|"""
                       rf"""\bawait\s+(?:sleep|delay|wait)\(\s*(?:(\d+)|(?P<var2>[A-Za-z_$][\w$]*)|(?P<expr2>{EXPRESSION}))\s*\)""",
                       needs=("setTimeout(", "await")),
}
# what one pass may wait besides its sleep: a call's own time limit (seconds; JavaScript's in ms),
# reached when the service it calls does not answer (urlopen(..., timeout=2), requests' timeout=,
# subprocess.run(timeout=), curl --max-time 5 or -m 5, read -t 5, `timeout 5 cmd`, fetch's
# AbortSignal.timeout(5000))
CALL_LIMITS = {
    "python": lazy(r"""\btimeout\s*=\s*(\d+(?:\.\d+)?)\b""", needs=("timeout",)),
    "shell": lazy(r"""(?:\b(?:curl|wget)\b[^\n|;]*?(?:--max-time[=\s]|\s-m\s*|--timeout[=\s]|\s-T\s*)|"""
                  r"""\bread\s+(?:-\w+\s+)*-t\s*|(?:^|[;&|\s])timeout\s+)(\d+(?:\.\d+)?)\b""",
                  needs=("curl", "wget", "read", "timeout")),
    "javascript": lazy(r"""\btimeout\s*:\s*(\d+)\b|AbortSignal\.timeout\(\s*(\d+)\s*\)""", needs=("timeout",)),
}
# the words one of which the code names where it may wait at all (a literal of SLEEPS, BODY_SLEEPS or
# CALL_LIMITS): a code without any is passed over at once (on the corpus tree, nearly every one of
# its 1,842 command handlers: three asks each, 69 M instructions, were one)
WAIT_WORDS = {language: tuple(dict.fromkeys([*SLEEPS[language].needs, *BODY_SLEEPS[language].needs,
                                             *CALL_LIMITS[language].needs])) for language in SLEEPS}


def may_wait(code: Code) -> bool:
    """Whether the code names a wait of any kind _outlasts_its_time looks for (WAIT_WORDS)."""
    return any(map(code.text.__contains__, WAIT_WORDS.get(code.language, ())))


def may_sleep(code: Code) -> bool:
    """Whether the code names a wait a loop's body may make (a literal of BODY_SLEEPS), the premise of
    the retry loops waits.py looks for: its loops are not looked for otherwise."""
    sleeps = BODY_SLEEPS.get(code.language)
    return sleeps is not None and any(word in code.text for word in sleeps.needs)


def _longest_call(code: Code) -> tuple[float, int, str] | None:
    """The longest time limit a call of the code is given, where it is and as written."""
    pattern = CALL_LIMITS.get(code.language)
    found = None
    for match in pattern.finditer(code.text) if pattern is not None else ():
        limit = float(next(g for g in match.groups() if g)) / MS.get(code.language, 1.0)
        if found is None or limit > found[0]:
            found = (limit, match.start(), match.group(0).strip())
    return found


def guards_files(code: Code, handler: Handler, missed: list[str]) -> bool:
    """The code reads the call's file path and refuses, says it guards or compares the tool's name
    with a tool its matchers miss, and is not about new files alone."""
    if "file_path" not in code.text and "filePath" not in code.text:
        return False
    facts = [f for _, f in handler_facts.script_facts(handler)]
    refuses = any(f.exits_2() or f.denies for f in facts) if facts else EXIT_2.search(code.text)
    names = {site.what.split(":", 1)[1] for f in facts for site in f.compared if site.what.startswith("tool_name:")}
    meant = intent.says_it_guards(code.text, code.path) or bool(names & set(missed))
    return bool(refuses) and meant and not intent.for_new_files_only(code.text)
