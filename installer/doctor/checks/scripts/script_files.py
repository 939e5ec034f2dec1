"""A script file and the handlers that run it (SCRIPT_RULES): the Claude Code answer fields it
writes and what its handlers' events make of them."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from .... import hosts, safe_read
from ....document import LineIndex
from ....errors import HookwrightError
from ....hooks.events import BUILTIN_TOOLS
from ....hooks.regex import ANY_OTHER_SERVER, matched_builtins, named_servers, server_reach
from ....hosts.claude import protocol as claude_protocol
from ....hosts.cursor import protocol as cursor_protocol
from ... import disk, handler_facts
from ...model import Finding, Handler, RuleTable
from ...scripts import bashisms, event_branches
from ...scripts.keys import SPECIFIC_BY_FOLD, Site, fold, strip_comments
from .units import DECISION_INSTEAD, NO_DECISION, Script, decision_in_wrong_event, decisions_in_wrong_branch

if TYPE_CHECKING:  # (an annotation's type: units.py defines it for mypy alone)
    from .units import At

STOP_EVENTS = ("Stop", "SubagentStop")

# the fields that carry a hook's answer itself: spelt otherwise, the hook has not answered
ANSWER_KEYS = frozenset({"permissionDecision", "decision", "updatedInput", "action", "retry", "worktreePath"})

SCRIPT_RULES = RuleTable()  # the rules of a script file with the handlers that run it, one function each

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
        variant = None if site.what == "hookSpecificOutput" else "from-input" if site.what == "input.hookEventName" \
            else "misspelt"
        yield script.finding("script/no-event-name", site, script.claude, variant, key=site.what)


@SCRIPT_RULES.rule("script/misspelt-field")
def _misspelt_field(script: Script) -> Iterator[Finding]:
    """A key right inside hookSpecificOutput spelt otherwise than the field it means
    (`permission_decision`): another name, which Claude Code drops without a word, and which a host
    whose answers take no unknown field (Host.rejects_unknown_fields: Codex's PreToolUse) rejects
    with the whole answer."""
    rejecting = _rejecting_unknown_fields(script) if not script.claude and script.facts.misspelt else []
    for site in script.facts.misspelt if script.claude or rejecting else ():
        meant = SPECIFIC_BY_FOLD[fold(site.what)]
        if rejecting:
            host = hosts.of(rejecting[0].file.host)
            yield script.finding("script/misspelt-field", site, rejecting, "rejected", key=site.what, field=meant,
                                 host=host.title if host is not None else "the host")
            continue
        yield script.finding("script/misspelt-field", site, script.claude,
                             "answer" if meant in ANSWER_KEYS else None, key=site.what, field=meant)


def _rejecting_unknown_fields(script: Script) -> list[Handler]:
    """The handlers that run the script, where every one is on an event whose host rejects an answer
    with a field it does not know (none otherwise)."""
    found = [h for h in script.handlers if (host := hosts.of(h.file.host)) is not None
             and h.event in host.rejects_unknown_fields]
    return found if found and len(found) == len(script.handlers) else []


@SCRIPT_RULES.rule("script/wrong-event-name")
def _wrong_event_name(script: Script) -> Iterator[Finding]:
    """Literal hookEventName values that name none of the events the script runs on (one that
    serves two events and answers only one of them may print nothing on the other)."""
    written = {site.what for site in script.facts.event_names}
    for handlers in _answered_for(script):
        events = sorted({h.event for h in handlers})
        if written and not written & set(events):
            site = script.facts.event_names[0]
            yield script.finding("script/wrong-event-name", site, handlers, found=site.what, event=" and ".join(events))
            return
    yield from _wrong_event_name_by_argument(script)
    branches = script.facts.flow.event_branches
    for site in script.facts.event_names if branches else ():  # (in a branch for some events: judged against those)
        meant = event_branches.events_at(branches, site.line) or frozenset()
        runs = [h for h in script.claude if h.event in meant]
        if runs and site.what not in meant:
            yield script.finding("script/wrong-event-name", site, runs, "branch", found=site.what,
                                 event=" and ".join(sorted({h.event for h in runs})))
            return


def _wrong_event_name_by_argument(script: Script) -> Iterator[Finding]:
    """A script that serves several events told apart by its argument (`hook.py pre`, `hook.py
    post`), whose part for one handler's argument answers (a key of the answer written there and
    in no other handler's run) while every event name that run can write is another event's: one
    helper that writes "PostToolUse" for every mode, the PreToolUse deny included."""
    regions = script.facts.flow.argv_regions
    if not regions or not script.facts.event_names:
        return
    for handler in script.claude:
        others = [h for h in script.claude if h is not handler]
        own = [site for site in script.facts.output_keys if site.what not in ("hookSpecificOutput", "hookEventName")
               and script.reaches(handler, site.line) and others and not any(script.reaches(h, site.line) for h in others)]
        names = [site for site in script.facts.event_names if script.reaches(handler, site.line)]
        if own and names and handler.event not in {site.what for site in names}:
            argument = next((args[0] for args in script.arguments_of(handler) if args), "")
            yield script.finding("script/wrong-event-name", names[0], [handler], "argument", found=names[0].what,
                                 event=handler.event, argument=argument, line=own[0].line)
            return


def _answered_for(script: Script) -> Iterator[list[Handler]]:
    """The Claude Code handlers a script's answer is given for, in groups that each answer one
    way: all of a script's at once; a module's, per file that imports it and calls a function of
    it that writes the answer (a helper the lint hook and the guards share answers for each)."""
    if script.imported_by is None:
        if script.claude:
            yield script.claude
        return
    for importer, handlers in script.importers.values():
        if script.facts.answer_functions and not importer.called & script.facts.answer_functions:
            continue  # (it imports something else of it)
        claude = [h for h in handlers if h in script.claude]
        if claude and not importer.reads_event_name:
            yield claude


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
    if decision_in_wrong_event(facts, events):
        yield script.finding("script/decision-wrong-event", facts.permission_decisions[0], script.claude,
                             event=events[0], instead=DECISION_INSTEAD.get(events[0], NO_DECISION))
        return
    for site, meant in decisions_in_wrong_branch(facts, events)[:1]:  # (in the part for an event that reads none)
        yield script.finding("script/decision-wrong-event", site, [h for h in script.claude if h.event in meant],
                             "branch", event=" and ".join(meant), instead=DECISION_INSTEAD.get(meant[0], NO_DECISION))


@SCRIPT_RULES.rule("command/input-variable-never-set")
def _input_variable_never_set(script: Script) -> Iterator[Finding]:
    """A legacy input variable the script reads that no settings file's "env" sets (the command
    rule of the same id reads the command's own text)."""
    for site in script.facts.legacy_variables if script.claude else ():
        if site.what not in script.ctx.settings_env and not any(  # (nor the command that runs it: NAME=... x.py)
                isinstance(h.command, str) and f"{site.what}=" in h.command for h in script.handlers):
            yield script.finding("command/input-variable-never-set", site, script.claude, name=site.what,
                                 host="Claude Code")
    yield from _input_read_from_argument(script)


def _input_read_from_argument(script: Script) -> Iterator[Finding]:
    """The script's first read of an argument that its handlers' commands never pass, on a host
    that gives a hook its input on stdin alone (Host.input_on_stdin_only): `sys.argv[1]` raises
    IndexError (exit 1), `JSON.parse(process.argv[2])` throws, `echo "$1" | jq` reads nothing."""
    for read in script.facts.flow.argument_reads[:1]:
        short = [h for h in script.handlers if (host := hosts.of(h.file.host)) is not None and host.input_on_stdin_only
                 and all(args is not None and len(args) < read.position for args in script.arguments_of(h))]
        if short:
            args = next(script.arguments_of(short[0])) or ()
            host = hosts.of(short[0].file.host)
            effect = "it reads nothing there, and the guard decides on nothing" if script.facts.language == "shell" \
                else "argparse prints its usage and exits 2, which reads as a block: every call the hook matches " \
                "is refused" if read.what.startswith("add_argument") \
                else "it fails there (exit 1), a non-blocking error: the hook does nothing, and a gate fails open"
            yield script.finding("command/input-variable-never-set", Site(read.what, read.line, read.column), short,
                                 "script-argument", what=read.what, host=host.title if host else "the host",
                                 given="no argument" if not args else f"only {len(args)} ({' '.join(args)})",
                                 effect=effect)


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
    goes_on = [site for site in (*facts.blocks, *context) if any(script.reaches(h, site.line) for h in stops)]
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
    exits = [site for site in facts.blocks if site.what == "exit 2"] or [  # (or a status the flow follows to exit 2)
        Site(end.how, end.at.line, end.at.column) for end in facts.flow.exits if end.status == 2]
    answers = sorted([*(exits or facts.blocks)] if blocking else [], key=lambda s: (s.line, s.column))
    refusals = len(answers)
    answers += sorted([*facts.denies, *dict(facts.rewrite_sites).get("claude", ())] if deciding else [],
                      key=lambda s: (s.line, s.column))
    if answers:  # at the handler's "async": the line to change
        handlers = blocking if refusals else deciding
        related = [{"path": str(facts.path), "line": answers[0].line, "column": answers[0].column,
                    "message": f"the answer {facts.path.name} gives ({answers[0].what})"}]
        for handler in handlers:
            yield script.ctx.finding("script/async-answer-never-read", handler.file, handler.keys + ("async",),
                                     related, at_key=True, event=handler.event, how=answers[0].what,
                                     script=facts.path.name, line=answers[0].line, host=hosts.get(handler.file.host).title)


# the built-in tools whose result is an object (Bash: stdout, stderr, interrupted...), so a string as
# updatedToolOutput is not their output's shape (measured: docs/hosts/claude-code.md#rewriting-output)
OBJECT_OUTPUT_TOOLS = frozenset({"Bash"})


@SCRIPT_RULES.rule("script/output-rewrite-ignored")
def _output_rewrite_ignored(script: Script) -> Iterator[Finding]:
    """A PostToolUse output rewrite the tools its handlers match never take: updatedMCPToolOutput
    where no handler can fire for an MCP tool, or updatedToolOutput as a string where every tool
    matched gives an object."""
    yield from _cursor_mcp_output_ignored(script)
    post = [h for h in script.claude if h.event == "PostToolUse"]
    if not post or len(post) < len(script.claude):
        return
    if any(server_reach(h.matcher, ANY_OTHER_SERVER, h.event) != "none"
           or named_servers(h.matcher or "") for h in post):
        return  # (an MCP tool's output may be either)
    tools = frozenset().union(*(matched_builtins(h.matcher, BUILTIN_TOOLS, h.event) for h in post))
    named = ", ".join(sorted(tools)[:4]) + (", ..." if len(tools) > 4 else "") or "no MCP tool"
    for field, shape, place in script.facts.flow.output_rewrites:
        if field == "updatedMCPToolOutput":
            yield script.finding("script/output-rewrite-ignored", place, post, "mcp", tools=named)
            return
        if shape == "text" and tools and tools <= OBJECT_OUTPUT_TOOLS:
            yield script.finding("script/output-rewrite-ignored", place, post, tools=named)
            return


def _cursor_mcp_output_ignored(script: Script) -> Iterator[Finding]:
    """updated_mcp_tool_output from a script whose Cursor postToolUse handlers all match built-in
    tool types by name (`Shell|Read`): Cursor replaces the output of MCP tools only
    (docs/hosts/cursor.md#answer-fields); a matcher that may reach an MCP tool is left alone."""
    post = [h for h in script.cursor if h.event == "postToolUse"]
    if not post or len(post) < len(script.cursor):
        return
    named = [set((h.matcher or "").split("|")) for h in post]
    if not all(names and names <= set(cursor_protocol.TOOL_TYPES) for names in named):
        return
    for site in script.facts.output_keys:
        if site.what == "updated_mcp_tool_output":
            tools = ", ".join(sorted(set().union(*named)))
            yield script.finding("script/output-rewrite-ignored", site, post, "cursor-mcp", tools=tools)
            return


@SCRIPT_RULES.rule("script/mixed-shapes")
def _mixed_shapes(script: Script) -> Iterator[Finding]:
    for site in script.facts.mixed_shapes:
        yield script.finding("script/mixed-shapes", site, script.handlers, written=site.what)


@SCRIPT_RULES.rule("script/bash-only-syntax")
def _bash_only_syntax(script: Script) -> Iterator[Finding]:
    """Bash's syntax in a shell script that sh runs: `sh x.sh`, a `#!/bin/sh` line (any agent's
    hook run by its path), or no `#!` line under the /bin/sh that runs a Claude Code command
    (scripts/bashisms.py)."""
    if script.facts.language != "shell":
        return
    run_by_sh = [(handler, how) for handler in script.handlers
                 if (how := _how_sh_runs(handler, script.facts.path, handler in script.claude))]
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


def _how_sh_runs(handler: Handler, path: Path, claude: bool) -> str | None:
    """How the handler's command has sh run the script at path, said for the message (None: it
    does not). `claude`: a Claude Code handler, whose shell-form command /bin/sh runs (another
    host's runs in a shell of its own: only `sh x.sh` and a `#!/bin/sh` line are sh there too)."""
    for inv, facts in handler_facts.script_facts(handler):
        if facts.path != path:
            continue
        shebang = sh_shebang(disk.first_line(path).decode("utf-8", "replace"))
        if inv.direct and shebang:
            return f"its #! line runs it with {shebang}, not bash"
    if handler_facts.resolution(handler).form != "shell":
        return None  # (exec form: a script without a #! line does not start at all)
    for inv, facts in handler_facts.script_facts(handler):
        if facts.path != path:
            continue
        if inv.interpreter and inv.executable.rsplit("/", 1)[-1] in bashisms.SH_NAMES:
            return f"the command runs it with `{inv.executable}`, whatever its #! line says"
        if claude and inv.executable == ".":
            return "the command reads it into Claude Code's /bin/sh with `.`, whatever its #! line says"
        if claude and inv.direct and not disk.first_line(path).startswith(b"#!"):
            return "it has no #! line, so the /bin/sh that runs the command runs it too"
    return None


def sh_shebang(line: str) -> str | None:
    """The program a `#!/bin/sh` or `#!/bin/dash` line names (or /usr/bin's, or by env): `/bin/sh`,
    `/usr/bin/env dash` (a plain test: as a regex, a compile of 0.8 M instructions of doctor on a
    typical file)."""
    if not line.startswith("#!"):
        return None
    at = len(line) - len(line[2:].lstrip(" \t"))
    at += 4 if line.startswith("/usr/bin/", at) else 0
    if not line.startswith("/bin/", at):
        return None
    at += 5
    if line.startswith("env", at) and line[at + 3:at + 4] in (" ", "\t"):
        at = len(line) - len(line[at + 3:].lstrip(" \t"))
    for shell in ("sh", "dash"):
        end = at + len(shell)
        if line.startswith(shell, at) and (line[end:] in ("", "\n") or line[end] in " \t"):
            return line[2:end].strip()
    return None
