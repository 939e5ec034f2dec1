"""Scripts: what each readable hook script writes, judged against what the host reads.

Three units (units.py, probed.py), each with its tables of rules, one module per family:
- a script file with the handlers that run it (script_files.py): the Claude Code answer fields
  it writes and what its handlers' events make of them;
- the code a hook runs, a script file or a shell command written inline in the config: what it
  answers and reads (answers.py: whatever the event, and against the hosts' protocols: the
  Claude Code events it runs on, its answer as Cursor reads it, the input fields it reads; and
  for a script, the answers its host rejects: rejected.py), and its tests that can never be true;
- a script file, as the interpreter its command starts loads it (loads.py): its module system,
  its imports;
- every handler of the run at once (event_fit.py): a variable its events never have, a wait
  longer than the time its event gives it;
- with `--probe`, one foreign Claude Code handler run once on its event (probed.py): what it
  printed and how it exited (installer/doctor/scripts/probe.py runs it).

Findings about a script point at the script (its line and column); each carries a `related`
entry per handler that runs it. Findings about an inline command or a probed run point at the
handler's command.
"""
from __future__ import annotations

from typing import Iterator

from ...model import Context, Finding
from .answers import (
    CLAUDE_ANSWER_RULES,
    CODE_RULES,
    CONDITION_RULES,
    CURSOR_ANSWER_RULES,
    INPUT_RULES,
    RENAMED_TOOL_RULES,
    TOOL_FIELD_RULES,
    rejecting_scripts,
    renaming_scripts,
    tool_field_readers,
)
from .event_fit import EVENT_FIT_RULES
from .script_files import SCRIPT_RULES
from .units import HookCode, Script, inline_commands, scripts_of

CODE_TABLES = (CODE_RULES, CLAUDE_ANSWER_RULES, CURSOR_ANSWER_RULES, INPUT_RULES, CONDITION_RULES)  # the code a hook runs, in this order


# the rules of an answer's shape, which also read a module a hook's script imports (its other
# rules are about a whole hook: how it exits, what it reads)
# (not the rules of the values it may answer: a library answers for many hosts and events)
MODULE_RULES = ("script/ignored-output-field", "script/defer", "script/no-event-name", "script/misspelt-field",
                "script/wrong-event-name", "script/mixed-shapes")


def check(ctx: Context) -> Iterator[Finding]:
    for script in scripts_of(ctx):
        if script.imported_by is not None:
            yield from module_findings(script)
            continue
        yield from SCRIPT_RULES.run(script)
        if _may_not_load(script):
            from .loads import LOAD_RULES  # (past its premise: see _may_not_load)

            yield from LOAD_RULES.run(script)
        yield from code_findings(script.code)
    for command in inline_commands(ctx):
        yield from code_findings(command)
    for script in rejecting_scripts(ctx):
        from .rejected import REJECTED_RULES  # (past its premise: Codex's scripts only, rejected.py's figure)

        yield from REJECTED_RULES.run(script)
    for script in renaming_scripts(ctx):
        yield from RENAMED_TOOL_RULES.run(script)
    for reader in tool_field_readers(ctx):
        yield from TOOL_FIELD_RULES.run(reader)
    yield from EVENT_FIT_RULES.run(ctx)
    if ctx.probe:
        from .probed import PROBE_RULES, probed_runs  # (--probe only: 0.3 ms of every other run)

        for probed in probed_runs(ctx):
            yield from PROBE_RULES.run(probed)


def _may_not_load(script: Script) -> bool:
    """Whether the interpreter its command starts may fail to load the script, the premise of every
    rule of loads.py: a Python or JavaScript script (its module system, its imports), or a shell
    script that sets PATH. loads.py is imported by a run with such a script only (a run with shell
    hooks alone: 0.9 M instructions of doctor on one typical file)."""
    language = script.facts.language
    return language in ("python", "javascript") or (language == "shell" and "PATH=" in script.text)


def module_findings(module: Script) -> list[Finding]:
    """What the rules of an answer's shape find in a module a hook's script imports."""
    return [finding for rule_id in MODULE_RULES for finding in SCRIPT_RULES.functions[rule_id](module)]


def code_findings(code: HookCode) -> list[Finding]:
    """What every rule of the code a hook runs finds in it."""
    return [finding for table in CODE_TABLES for finding in table.run(code)]
