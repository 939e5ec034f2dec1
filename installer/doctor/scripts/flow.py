"""What a hook script does at run time, read from its code: what it writes on stdout, how it
exits, how often it reads stdin, and the values it gives the fields Claude Code reads.

keys.py finds the object keys a script prints; this module follows the statements around
them, so the script rules (checks/scripts/) can judge them against the event's protocol
(installer/hosts/claude/protocol.py):
- stdout writes, each "json", "text" or "input" (the hook's own input echoed, as `tee` does),
  with its branch (two writes in the two arms of one if are never both made) and whether the
  statements right after it end the run;
- exits with their status (`sys.exit("message")` and an uncaught `raise` exit 1) and the
  message around them;
- stdin readers (each reads to the end, so a second one gets nothing);
- values of permissionDecision, decision, behavior and permission, followed through a variable
  or a lookup table where the code writes them as literals;
- updatedInput given as a string, or as a new object that drops the tool's other fields.

Python is read with `ast` (exact, flow_python.py), shell line by line with its if/case/function
nesting (here), and JavaScript/TypeScript with its braces (flow_javascript.py): a run loads the
reader of a language only when it reads code in it. Where the code is too dynamic to follow,
nothing is reported: the rules built on this module must not cry wolf.
"""

from __future__ import annotations

import bisect
import re
import shlex
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterator, Sequence, TypedDict, TypeVar, overload

from ... import safe_read
from ...errors import HookwrightError
from ...hooks.events import CLAUDE_EVENTS, CURSOR_EVENTS
from ...patterns import holds_word, lazy, stands_alone
from ...records import Record
from ..shell.lex import closing_brace, parsed_once
from . import arguments, delivery, event_branches, shell_status

if TYPE_CHECKING:  # (types only annotations name: the TypedDict compiled each of its annotations when the
    # module loaded; with the aliases below, doctor on one typical file 346.7 M -> 346.0 M instructions)
    from .delivery_javascript import EarlyExit
    from .jq import QuotedValue

    class Common(TypedDict):
        """What every language's flow reads with regular expressions over the code (Flow's fields)."""

        input_reads: tuple[tuple[str, Place], ...]
        input_as_string: tuple[Place, ...]
        continue_false: tuple[Place, ...]
        stop_flag_from_env: Place | None
        failure_fields: tuple[tuple[str, Place], ...]
        spaced_matches: tuple[tuple[str, Place], ...]


STDOUT_JSON, STDOUT_TEXT, STDOUT_INPUT = "json", "text", "input"
EVENT_NAMES = frozenset(CLAUDE_EVENTS) | CURSOR_EVENTS  # what a test of hook_event_name compares with
DECISION_FIELDS = ("permissionDecision", "decision", "behavior", "permission")
# what a refusal says: an exit near such words was meant to block
REFUSAL = lazy(r"(?i)\b(?:block(?:ed|ing|s)?|den(?:y|ied|ies)|not allowed|disallowed|forbidden|prohibited|"
                     r"refus\w*|reject\w*|prevent\w*|not permitted|dangerous|unsafe|abort(?:ed|ing)?|"
                     r"(?:allow|white|block|black|deny)-?list(?:ed)?)\b|🚫|⛔|❌")
# the fields of the tools a rewrite usually targets, for a new updatedInput that names some of them
TOOL_FIELDS = {
    "Bash": ("command", "description", "timeout", "run_in_background"),
    "Write": ("file_path", "content"),
    "Edit": ("file_path", "old_string", "new_string", "replace_all"),
    "Read": ("file_path", "offset", "limit"),
}
FAILURE_FIELD = lazy(r"""tool_(?:response|result)\\?["'`]?\s*(?:,\s*(?:\{\}|None|dict\(\))\s*\))?\]?\s*(?:\??\.|\[\s*\\?["'`]|\.get\(\s*\\?["'`])\s*"""
                           r"""(?P<field>exit_?code|exitCode|is_?[eE]rror|return_?code|returnCode|exit_status|error)\b""",
                     needs=("tool_response", "tool_result"))
STOP_FLAG_ENV = lazy(r"""(?i)\$\{?stop_hook_active\b|environ(?:\.get)?\s*[\[(]\s*["']stop_hook_active|"""
                           r"""getenv\(\s*["']stop_hook_active|process\.env\.stop_hook_active|"""
                           r"""process\.env\[\s*["']stop_hook_active""", needs=("stop_hook_active",))


class Place(Record):
    line: int
    column: int


class Arms:
    """The if/case arms a shell line is in, from the outside in, as a chain of links that every
    line of an arm shares (a tuple of them per line cost the square of the nesting depth in time
    and memory); iterated, the (frame, arm) pairs from the outside in."""

    __slots__ = ("outer", "frame", "arm", "flagged", "debug")

    def __init__(self, outer: "Arms | None", frame: int, arm: int, flagged: bool) -> None:
        self.outer = outer
        self.frame = frame  # where its if or case starts
        self.arm = arm
        self.flagged = flagged  # its if tests a debug, verbose or trace flag
        # the line is in the first arm of such an if, here or further out
        self.debug: bool = (arm == 0 and flagged) or (outer is not None and outer.debug)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        links: list[tuple[int, int]] = []
        link: "Arms | None" = self
        while link is not None:
            links.append((link.frame, link.arm))
            link = link.outer
        return reversed(links)


if TYPE_CHECKING:  # (annotations' types, which a run never evaluates)
    # ((frame, arm), ...) from the outside in: the if or try arms a statement is in
    Branch = tuple[tuple[int, int], ...] | Arms
    Offsets = Callable[[int], tuple[int, int]]  # an offset in the text to its line and column
    Places = Callable[[int], Place]  # an offset in the text to its place


class Write:
    def __init__(self, kind: str, at: Place, what: str, branch: Branch, scope: str, ends: bool, order: int,
                 exits: bool = False) -> None:
        self.kind = kind  # json | text | input
        self.at = at
        self.what = what  # a few words: `print("checking...")`
        self.branch = branch
        self.scope = scope  # the function it is in ("" at the top level)
        self.ends = ends  # the statements right after it end the run (exit, return, raise)
        self.order = order  # position in the file
        self.exits = exits  # ...by ending the process (not only by returning from its function)


class Exit:
    def __init__(self, status: int | None, how: str, message: str, at: Place, relayed: bool = False) -> None:
        self.status = status  # None: not a literal
        self.how = how  # `sys.exit("...")`, `exit 1`, `raise ValueError(...)`
        self.message = message  # what it says, or what the script printed to stderr right before
        self.at = at
        # its status is what a function returns (sys.exit(main())), each return an Exit of its own
        self.relayed = relayed


class StdinRead(Record):
    """A read of stdin (each reads to the end): where, its branch and function, its position in the file."""

    at: Place
    branch: Branch
    scope: str
    order: int


class ShellLine(Record):
    """A line of shell code (here-document bodies joined to it) with its if/case arms and its function."""

    offset: int
    text: str
    branch: Arms | tuple[()]
    scope: str


class Value:
    def __init__(self, field: str, value: str, at: Place, via: str) -> None:
        self.field = field  # permissionDecision | decision | behavior | permission
        self.value = value
        self.at = at
        self.via = via  # "" for a literal, else the variable or table it came through


# what an error says (a missing tool, a bad input): an exit near such words is not a refusal
FAILURE_WORDS = lazy(r"(?i)\b(?:not (?:installed|found)|missing|requires?|failed|cannot|can't|could not|unable|"
                     r"error|usage|invalid (?:json|input)|no such|timed? ?out|unexpected)\b")
ANSWER_NEAR = lazy(r"\breason\b|hookSpecificOutput|stopReason|systemMessage",
                   needs=("reason", "hookSpecificOutput", "stopReason", "systemMessage"))


# in a JSON object written out: the keys of an answer (a top-level decision only beside a reason)
ANSWER_OBJECT = lazy(r"""hookSpecificOutput|permissionDecision|(?<!\w)\\?["']?permission\\?["']?\s*:|"""
                     r"""(?<!\w)\\?["']?decision\\?["']?\s*:(?=.*\breason\b)""", re.S)
ANSWER_KEYS = frozenset({"hookSpecificOutput", "permissionDecision", "permission"})


def _answering(code: str, offset: int) -> bool:
    """A top-level `decision` is the hook's answer only beside a reason (or other answer fields);
    scripts keep a `decision` of their own in log records and state files."""
    return bool(ANSWER_NEAR.search(code, max(0, offset - 200), offset + 200))


_Field = TypeVar("_Field")


class Later(Generic[_Field]):
    """A field's value to work out on the first read (`flow.joined_answers = Later(...)`)."""

    __slots__ = ("work_out",)

    def __init__(self, work_out: Callable[[], _Field]) -> None:
        self.work_out = work_out


class ReadLater(Generic[_Field]):
    """A field that may be given as Later(...): worked out when a rule first reads it, and kept.
    For the parts of a script's model only some rules read: a Flow's parts only a script file's
    (or a Cursor hook's) rules read (the 225 command texts of the corpus tree worked out the
    joined answers and the input field reads that no rule read of an inline Claude Code
    command: about 19 ms of the tree), and a ScriptFacts' whole flow, which the rewrite and
    refusal facts of a command line never read (keys.analyse_text)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.key = "_" + name

    @overload
    def __get__(self, holder: None, owner: type) -> "ReadLater[_Field]": ...

    @overload
    def __get__(self, holder: object, owner: type) -> _Field: ...

    def __get__(self, holder: object | None, owner: type) -> "_Field | ReadLater[_Field]":
        if holder is None:
            return self
        value = holder.__dict__[self.key]
        if type(value) is Later:
            value = holder.__dict__[self.key] = value.work_out()
        return value  # type: ignore[no-any-return]

    def __set__(self, holder: object, value: "_Field | Later[_Field]") -> None:
        holder.__dict__[self.key] = value


class Flow:
    """What a script's code does, as the checks read it (each place a Place)."""

    # worked out on the first read where given as Later(...) (a shell script's: _flow)
    lost_blocks: ReadLater[tuple[delivery.Lost, ...]] = ReadLater()  # its own exit 2 the host never sees (delivery.py)
    joined_answers: ReadLater[tuple[delivery.Joined, ...]] = ReadLater()  # children's stdout joined on the hook's
    field_reads: ReadLater[tuple[delivery.FieldRead, ...]] = ReadLater()  # input fields whose type differs by event

    def __init__(self, writes: tuple[Write, ...] = (), exits: tuple[Exit, ...] = (),
                 stdin_reads: tuple[Place, ...] = (), values: tuple[Value, ...] = (),
                 input_as_string: tuple[Place, ...] = (), new_inputs: tuple[tuple[Place, tuple[str, ...]], ...] = (),
                 continue_false: tuple[Place, ...] = (), trace: Place | None = None,
                 stop_flag_from_env: Place | None = None, failure_fields: tuple[tuple[str, Place], ...] = (),
                 input_reads: tuple[tuple[str, Place], ...] = (), syntax_error: tuple[str, Place] | None = None,
                 called: frozenset[str] = frozenset(), stderr_answers: tuple[Place, ...] = (),
                 unread_output: bool = False, lost_blocks: tuple[delivery.Lost, ...] = (),
                 field_reads: tuple[delivery.FieldRead, ...] = (), unflushed_exit: Place | None = None,
                 output_rewrites: tuple[tuple[str, str, Place], ...] = (),
                 spaced_matches: tuple[tuple[str, Place], ...] = ()) -> None:
        self.writes = writes
        self.exits = exits
        self.stdin_reads = stdin_reads  # the second read, when stdin is read twice on one path
        self.reads_stdin = False  # it reads stdin somewhere (`cat`, `jq` of stdin, json.load(sys.stdin)...)
        self.values = values
        self.input_as_string = input_as_string  # updatedInput given as a string
        self.new_inputs = new_inputs  # updatedInput built anew: its keys
        self.continue_false = continue_false
        self.trace = trace  # `set -x`: every command traced on stderr
        self.stop_flag_from_env = stop_flag_from_env  # stop_hook_active read from a variable that is never set
        self.failure_fields = failure_fields  # tool_response.error, exit_code...
        self.input_reads = input_reads  # top-level fields of the hook's input it reads
        # its text matches on the raw input that expect a space after a key's colon
        self.spaced_matches = spaced_matches
        self.syntax_error = syntax_error  # (what, where) when the interpreter refuses the file
        self.called = called  # the functions the script calls (Python)
        self.call_lines: dict[str, int] = {}  # the last line each of them is called on (Python)
        self.stderr_answers = stderr_answers  # a JSON answer (hookSpecificOutput, a decision...) written to stderr
        self.unread_output = unread_output  # it writes something on stdout this reader cannot tell (a JSON variable...)
        self.lost_blocks = lost_blocks
        self.joined_answers = ()
        self.field_reads = field_reads
        # an os._exit() of a Python script that writes on stdout and never flushes it: the buffer is lost
        self.unflushed_exit = unflushed_exit
        # updatedToolOutput / updatedMCPToolOutput: (field, "text" where the value is a string, else "", where)
        self.output_rewrites = output_rewrites
        # a JavaScript process.exit that ends the run before the asynchronous work started above it
        self.early_exit: EarlyExit | None = None
        # where a logger is sent to stdout (logging.basicConfig(stream=sys.stdout), pino()): its log calls are
        # text on stdout (Writes whose `what` says so), and this is the line to change
        self.stdout_config: Place | None = None
        # the lines that run only when the handler passes an argument, or only when it does not
        self.argv_regions: tuple[arguments.Region, ...] = ()
        self.argument_reads: tuple[arguments.Read, ...] = ()  # the input read from an argument
        # the lines that run only for some events (an if or case on hook_event_name)
        self.event_branches: tuple[event_branches.Branch, ...] = ()
        # text it prints at its top level, outside any if: what a module prints when it is imported
        self.import_time_text: Write | None = None
        # a shell variable read by a jq without -r (its quotes kept) and tested with an anchored pattern
        self.quoted_values: tuple[QuotedValue, ...] = ()
        # `cd NAME` to a name CDPATH may find, on stdout: the folder it prints where the hook inherits a
        # CDPATH from the user's environment, which the script cannot know
        self.cdpath_writes: tuple[Write, ...] = ()
        # a read of stdin that stops before the end of a large payload: (what, where) (runtimes.py)
        self.partial_reads: tuple[tuple[str, Place], ...] = ()
        # JavaScript: console.log(...) of an answer object itself (not JSON.stringify of it), which
        # prints it in JavaScript's notation (`{ hookSpecificOutput: { ... 'deny' } }`), not JSON
        self.inspected_answers: tuple[Place, ...] = ()
        # Python: the names whose log calls this file sends to stdout ("logging": the root logger, which
        # every logger passes its records to), and its log calls by receiver ("logging" for the root
        # logger and the loggers it gets by getLogger)
        self.stdout_loggers: frozenset[str] = frozenset()
        self.log_calls: tuple[tuple[str, Place], ...] = ()
        # two JSON answers one run can print, the first not followed by an exit (see _second_answer)
        self.second_answer: tuple[Write, Write] | None = None
        # shell: text on stdout from a line on, on every path after it (an EXIT trap that echoes, a trace to fd 1)
        self.stdout_noise: Write | None = None
        # shell: a lasting `exec >>log` before the JSON answer: (where, the exec, the answer)
        self.stdout_sent_away: tuple[Place, str, Write] | None = None
        # shell: npm, yarn or make run with their stdout the hook's: (program, arguments, assignments before it, where)
        self.runner_runs: tuple[tuple[str, tuple[str, ...], dict[str, str], Place], ...] = ()

    def mixed_output(self, cdpath: bool = False) -> tuple[Write, Write] | None:
        """A text (or echoed input) write and a JSON write that one run can both make: stdout is
        then not one JSON object, so Claude Code reads it as plain text. `cdpath`: the hook runs
        with a CDPATH, so a `cd NAME` prints too."""
        texts = [w for w in (*self.writes, *(self.cdpath_writes if cdpath else ())) if w.kind != STDOUT_JSON]
        answers = [w for w in self.writes if w.kind == STDOUT_JSON]
        noise = self.stdout_noise
        after = next((w for w in answers if noise is not None and w.at > noise.at), None)
        if noise is not None and after is not None:
            return noise, after
        for text in texts:
            for answer in answers:
                first, second = sorted((text, answer), key=lambda w: w.order)
                if _alternatives(first.branch, second.branch):
                    continue
                if first.scope == second.scope or first.scope == "":
                    if not first.ends:
                        return text, answer
                elif text.scope in self.called and not text.exits:  # printed by a function the run calls
                    return text, answer
                elif first is answer and text.scope == "" and not text.ends and (
                        self.call_lines.get(answer.scope, 0) > text.at.line):  # answered by a function called after it
                    return text, answer
        return None


def _alternatives(a: Branch, b: Branch) -> bool:
    arms = dict(a)
    return any(frame in arms and arms[frame] != arm for frame, arm in b)


def analyse(text: str, code: str, language: str, at: Offsets,
            path: Path | None = None) -> Flow:
    """The flow of a script: `text` as written, `code` with comments blanked (same offsets)."""
    flow = _flow(text, code, language, at, path)
    flow.field_reads = Later(lambda: delivery.field_reads(code, at))  # (a Cursor hook's rule reads them)
    flow.import_time_text = next((w for w in flow.writes if w.kind == STDOUT_TEXT and not w.scope
                                  and not w.branch), None)
    return flow


def _flow(text: str, code: str, language: str, at: Offsets, path: Path | None) -> Flow:
    common = _common(code, at)
    if language == "python":
        from .flow_python import python_flow  # (a Python script only: 1.5 ms of a run without one)

        return python_flow(text, common)
    if language == "javascript":
        from .flow_javascript import javascript_flow  # (JavaScript/TypeScript only: 1.5 ms of a run without it)

        return javascript_flow(text, code, at, common, path)
    if language == "perl":
        flow = _perl(code, at, common)
        flow.lost_blocks = delivery.perl(code, at)
        return flow
    flow = _shell(code, at, common, path)
    tree_of = parsed_once(code)
    if not _every_jq_raw(code):
        from .jq import kept_quotes  # (a jq without a raw flag only: see jq.py)

        flow.quoted_values = kept_quotes(code, at, tree_of)
    flow.argv_regions = arguments.shell(code, tree_of, lambda offset: at(offset)[0])
    flow.argument_reads = arguments.shell_reads(code, at)
    flow.event_branches = event_branches.shell(code, lambda offset: at(offset)[0], EVENT_NAMES)
    blocks = any(e.status == 2 for e in flow.exits) or delivery.SCRIPT_NAME.search(code) is not None
    shebang = text.split("\n", 1)[0]
    # (the model is the dearest part of reading a command line: only the delivery rules ask, of script files)
    flow.lost_blocks = Later(lambda: tuple(delivery.shell(code, at, blocks) + shell_status.lost(code, at, shebang, tree_of)))
    flow.joined_answers = Later(lambda: shell_status.joined_answers(code, at, tree_of))  # (a script file's rule)
    # (the input read in part: the rule every language shares, script/stdin-read-partly)
    flow.partial_reads = tuple((p.how, Place(p.line, p.column)) for p in shell_status.cut_short(code, at, tree_of))
    return flow


JQ_COMMAND_ENDS = "|;&()\n`"  # what ends the command a jq is in, outside quotes


def _every_jq_raw(code: str) -> bool:
    """Every jq the code runs is given a raw flag (-r, -j, --raw-output: raw_flag), written
    outside quotes before its command ends: then no value it prints keeps a string's quotes, and
    the code is not parsed for one (the corpus tree's command texts that use jq nearly all say
    -r). A jq in quotes or spelt with them, a here-document or an ANSI-C string: not told here, False.
    (String methods, not patterns: on one typical file the patterns' compiles cost more than they saved.)"""
    if "jq" not in code:
        return True
    if "<<" in code or "$'" in code or 'j"' in code or "j'" in code or "j\\" in code:
        return False  # (`j"q"`, `'j'q`, `j\q`: a jq spelt with quotes, which the shell runs all the same)
    masked = mask_quotes(code)
    ends = _jq_words(masked)
    if len(ends) != len(_jq_words(code)):  # (a jq inside quotes)
        return False
    for end in ends:
        stops = [at for at in (masked.find(ch, end) for ch in JQ_COMMAND_ENDS) if at >= 0]
        words = masked[end:min(stops, default=len(masked))].split()
        if not any(raw_flag(word) and not (i and words[i - 1].endswith(("<", ">")))  # (not a file `> -r`)
                   for i, word in enumerate(words)):
            return False
    return True


def _jq_words(text: str) -> list[int]:
    """Where each `jq` of the text that is a word of its own (no letter, digit or _ on either side) ends."""
    ends, at = [], text.find("jq")
    while at >= 0:
        if stands_alone(text, at, at + 2):
            ends.append(at + 2)
        at = text.find("jq", at + 2)
    return ends


# ---- every language: regular expressions over the code --------------------------------------------

CONTINUE_FALSE = lazy(r"""(?<![\w$])\\?["'`]?continue\\?["'`]?\s*\]?\s*[:=]\s*(?:false|False)\b""", needs=("continue",))
# a key (`updatedInput: ...`), a property or item set (`out.updatedInput = ...`), or a JavaScript
# variable later written as {updatedInput}; a shell variable of that name is neither
STRING_INPUT = lazy(r"""(?:\\?["'`]?(?:updatedInput|updated_input)\\?["'`]?\s*:|(?:(?<=[.\["'])|(?:const|let|var)\s+)"""
                          r"""updatedInput["']?\s*\]?\s*=)\s*(?P<how>JSON\.stringify\s*\(|json\.dumps\s*\(|"""
                          r"""str\s*\(|f?\\?["'](?!\s*\)))""", needs=("updatedInput", "updated_input"))
JQ_ARG = lazy(r"""--arg\s+(?P<name>[A-Za-z_]\w*)\s""", needs=("--arg",))
JQ_STRING_INPUT = lazy(r"""(?:updatedInput|updated_input)\\?["']?\s*:\s*(?:\$(?P<var>[A-Za-z_]\w*)\b(?!\s*\|)|\([^()]*\|\s*(?:tojson|@json)\s*\))""",
                       needs=("updatedInput", "updated_input"))


# the script also sets stop_hook_active, or reads it from its input (not only from the environment)
STOP_FLAG_FROM_INPUT = lazy(r"(?i)(?<![\w$])stop_hook_active\s*=(?!=)|\.stop_hook_active|"
                            r"""\[\s*["']stop_hook_active["']\s*\]|get\(\s*["']stop_hook_active["']""")


def _common(code: str, at: Offsets) -> Common:
    def place(offset: int) -> Place:
        return Place(*at(offset))

    strings = [place(m.start()) for m in STRING_INPUT.finditer(code)
               if not (m.group("how").endswith(("'", '"')) and _object_follows(code, m.end()))]
    string_args = {m.group("name") for m in JQ_ARG.finditer(code)}
    for match in JQ_STRING_INPUT.finditer(code):
        if match.group("var") is None or match.group("var") in string_args:
            strings.append(place(match.start()))
    flag = STOP_FLAG_ENV.search(code)
    from_env = None
    if flag and not STOP_FLAG_FROM_INPUT.search(code.replace(flag.group(0), "")):
        from_env = place(flag.start())
    return {"input_reads": _input_reads(code, place),
            "input_as_string": tuple(sorted(set(strings))),
            "continue_false": tuple(place(m.start()) for m in CONTINUE_FALSE.finditer(code)),
            "stop_flag_from_env": from_env,
            "failure_fields": _failure_fields(code, place),
            "spaced_matches": _spaced_matches(code, place)}


# a JSON key and its value written with a space after the colon (`"command": "rm`), as a pattern
# looks for it in the input's text; a space followed by `*`, `?`, `+` or `{` is a pattern's own
SPACED_PAIR = lazy(r"""\\?"(?P<key>[A-Za-z_]\w*)\\?":(?P<space>[ \t]+)(?![ \t*?+{])(?=\\?["\d{\[tfn])""", needs=('":',))
GREP_OF_STDIN = lazy(r"(?:^|[;&(!{]|\bthen|\bif|\bdo)\s*(?:e|f)?grep\b(?![^|<]*[|<])")  # a grep that reads the hook's stdin
# the text the input came in, kept whole: `x=$(cat)`, `raw = sys.stdin.read()`, `readFileSync(0, ...)`, `raw += chunk`
RAW_INPUT = lazy(r"""(?<![\w$])(?P<var>[A-Za-z_]\w*)=["']?\$\((?:cat(?:\s+-)?|</dev/stdin)\)|"""
                 r"""(?<![\w$.])(?P<py>[A-Za-z_]\w*)\s*=\s*sys\.stdin\.read\(\)|"""
                 r"""(?<![\w$.])(?P<js>[A-Za-z_$][\w$]*)\s*=\s*(?:[\w.]*\.|require\(\s*["'](?:node:)?fs["']\s*\)\.)?readFileSync\(\s*(?:0|["']/dev/stdin["'])|"""
                 r"""(?<![\w$.])(?P<acc>[A-Za-z_$][\w$]*)\s*\+=\s*(?:chunk|c|data|d)\b""")
# what tests a text for a piece of it on the line (grep, a case or [[ ]] pattern, `in`, includes, a regex)
TEXT_MATCH = lazy(r"""\b(?:e|f|z)?grep\b|\brg\b|\[\[|\bcase\b|\*["']|["']\*|=~|\bin\b|"""
                  r"""\.(?:includes|indexOf|startsWith|endsWith|match|test|search|find|__contains__)\s*\(|"""
                  r"""\bre\.(?:search|match|findall|fullmatch)\s*\(""")


SPACED_VALUE = lazy(r"""\\?"?[^'"`/\\\n)*]{0,40}\\?"?""")  # the value after the space, as far as the literal goes
CASE_SUBJECT = lazy(r"""\bcase[ \t]+[^\n]*?[ \t]in\b""")


def _spaced_matches(code: str, place: Places) -> tuple[tuple[str, Place], ...]:
    """Text matches on the raw input (the text stdin gave, before any parse) that look for a key and
    its value with a space between (`grep -q '"command": "git push'`, `'"tool_name": "Bash"' in raw`),
    as (the piece looked for, where). A match on a parsed and re-serialized input (json.dumps, which
    writes the space; `jq .`) or on a value is not one."""
    if '":' not in code:
        return ()
    raw = {name for m in RAW_INPUT.finditer(code) for name in m.group("var", "py", "js", "acc") if name}
    found = []
    for match in SPACED_PAIR.finditer(code):
        start = code.rfind("\n", 0, match.start()) + 1
        end = code.find("\n", match.end())
        line = code[start:end if end >= 0 else len(code)]
        arm = CASE_SUBJECT.search(code, 0, start) if "case" not in line and ")" in line[match.end() - start:] else None
        if arm is not None:  # (a case arm's pattern: the text tested is the case's subject)
            arms = list(CASE_SUBJECT.finditer(code, 0, start))
            line = f"{arms[-1].group(0)} {line}"
        if not TEXT_MATCH.search(line) or "json.dumps" in line or "JSON.stringify" in line:
            continue
        before = code[start:match.start()]
        reads_stdin = GREP_OF_STDIN.search(before) is not None and "|" not in before and "<" not in line[len(before):]
        if reads_stdin or any(name in line and re.search(rf"(?<!\w){re.escape(name)}\b", line) for name in raw):
            value = SPACED_VALUE.match(code, match.end())
            found.append((code[match.start():value.end() if value else match.end()], place(match.start())))
    return tuple(found)


INPUT_VARIABLE = lazy(r"""(?P<var>[A-Za-z_$][\w$]*)[ \t]*(?::[ \t]*\w+[ \t]*)?=\s*(?:await\s+)?"""
                            r"""(?:json\.loads?\s*\(|JSON\.parse\s*\(|Bun\.stdin\.json\s*\()""",
                      needs=("json.load", "JSON.parse", "Bun.stdin"))
PARSED_STDIN = lazy(r"""(?:json\.loads?|JSON\.parse)\s*\((?=[^()]*(?:\bstdin\b|readFileSync\(\s*0\b))""",
                    needs=("json.load", "JSON.parse"))  # its argument reads stdin: json.load(sys.stdin)["x"] reads x
STDIN_SOURCE = lazy(r"""\bstdin\b|readFileSync\(\s*0\b|/dev/stdin""")  # what a parse reads that is the hook's input
# after the input or a variable holding it: the field read, `["x"]`, `.get("x")` or `.x` (not a method call)
FIELD_READ = lazy(r"""\s*(?:\??\.get\(\s*["'](?P<a>\w+)["']|\[\s*["'](?P<b>\w+)["']\s*\]|"""
                  r"""\??\.(?P<c>[A-Za-z_]\w*)\b(?!\s*\())""")
# JavaScript's `const { tool_input, prompt } = input` (or `= JSON.parse(...)`): each name is a field read
JS_DESTRUCTURED = lazy(r"""(?:const|let|var)\s*\{(?P<names>[^{}]*)\}\s*(?::\s*\w+\s*)?=\s*(?:await\s+)?"""
                       r"""(?:(?P<call>JSON\.parse\s*\(|Bun\.stdin\.json\s*\()|(?P<var>[A-Za-z_$][\w$]*)\s*[;\n])""",
                       needs=("const", "let", "var"))
DESTRUCTURED_NAME = lazy(r"""(?:^|,)\s*(?P<name>[A-Za-z_]\w*)\s*(?=[:=,]|$)""")
# a jq call up to the quote that opens its filter (its options, --arg NAME VALUE among them, before it)
JQ_CALL = lazy(r"""\bjq\s+(?P<options>(?:(?:--(?:arg|argjson|slurpfile|rawfile)\s+\S+\s+(?:"[^"]*"|'[^']*'|\S+)"""
               r"""|-[-\w]+)\s+)*)(?P<q>["'])""", needs=("jq",))
# options under which `.` is not the JSON read from stdin: no input (-n), raw lines (-R), all inputs in one array (-s)
JQ_OTHER_INPUT = lazy(r"(?:^|\s)(?:-[A-Za-z]*[nRs][A-Za-z]*|--null-input|--raw-input|--slurp)(?=\s|$)")
# a file the filter reads instead of stdin (not 2>/dev/null, nor <<< "$INPUT")
JQ_FILE_AFTER = lazy(r"""[ \t]+(?:(?!\d*>|&>)[^\s\-<>|;&)`]|<(?!<|\s*/dev/stdin))""")


STDIN_VARIABLE = lazy(r"""(?<![\w$])([A-Za-z_]\w*)=["']?\$\((?:cat(?:\s+-)?|</dev/stdin)\)""", needs=("$(",))


# the line before a jq filter: a variable echoed into it; after it: a variable fed as a here-string
JQ_FED_BY_ECHO = lazy(r"""(?:echo|printf)\s+(?:-\w+\s+)*(?:(?P<fq>["'])%s(?:\\n)?(?P=fq)\s+)?["']?\$\{?(?P<var>\w+)\}?["']?\s*\|\s*$""")
JQ_FED_BY_HERE_STRING = lazy(r"""[^\n|;]*<<<\s*["']?\$\{?(?P<var>\w+)""")
ENDS_IN_PIPE = lazy(r"\|\s*$")
FIELD_OF_RESULT = lazy(r"\s*(?:\?\.|\.|\[)")  # after json.loads(...): a field of the result is read


def _input_reads(code: str, place: Places) -> tuple[tuple[str, Place], ...]:
    """The top-level input fields the script reads: `data["x"]`, `data.get("x")`, `input.x` on
    the variable it parsed stdin into, and the fields a jq filter reads of its input."""
    found: dict[str, Place] = {}
    stdin_variables = set(STDIN_VARIABLE.findall(code)) if "=" in code else set()  # (every match holds both)
    for match in JQ_CALL.finditer(code):
        end = _quote_end(code, match.end(), match.group("q"))
        if JQ_OTHER_INPUT.search(match.group("options")) or JQ_FILE_AFTER.match(code, end + 1):
            continue
        line_start = code.rfind("\n", 0, match.start()) + 1
        before = code[line_start:match.start()]
        piped = JQ_FED_BY_ECHO.search(before)
        fed = piped is not None and piped.group("var") in stdin_variables
        here = JQ_FED_BY_HERE_STRING.match(code[end + 1:end + 200])
        if fed or (here is not None and here.group("var") in stdin_variables) or (
                not ENDS_IN_PIPE.search(before) and here is None):
            from .jq import root_fields  # (a jq filter given the hook's input only: see jq.py)

            for field, offset in root_fields(code[match.end():end]):
                found.setdefault(field, place(match.end() + offset))
    # the variables in the order they are parsed into (a field two of them read is placed at the first's
    # read, whatever the process's string hashing)
    parsed = dict.fromkeys(m.group("var") for m in INPUT_VARIABLE.finditer(code)
                           if not FIELD_OF_RESULT.match(_after_call(code, m.end())))
    reads = [(m.start(), _after_call(code, m.end(), 80)) for m in PARSED_STDIN.finditer(code)]
    for variable in parsed:  # the parsed input itself, not a field of it (x = JSON.parse(...).tool_input)
        reads += [(m.start(), code[m.end():m.end() + 80])
                  for m in re.finditer(rf"(?<![\w$.]){re.escape(variable)}(?![\w$])", code)]
    for start, after in reads:
        match = FIELD_READ.match(after)
        if match:
            found.setdefault(match.group("a") or match.group("b") or match.group("c"), place(start))
    for match in JS_DESTRUCTURED.finditer(code):
        call = match.group("call")
        if (call and (call.startswith("Bun") or STDIN_SOURCE.search(_balanced(code, match.end("call"))))) or \
                match.group("var") in parsed:  # (JSON.parse of another file is not the input)
            for name in DESTRUCTURED_NAME.finditer(match.group("names")):
                found.setdefault(name.group("name"), place(match.start("names") + name.start("name")))
    return tuple(sorted(found.items(), key=lambda item: item[1]))


def _quote_end(code: str, start: int, quote: str) -> int:
    """The offset of the quote that closes a shell string opened right before `start`."""
    if quote == "'":
        end = code.find("'", start)
        return len(code) if end < 0 else end
    at = start
    while at < len(code) and code[at] != '"':
        at += 2 if code[at] == "\\" else 1
    return min(at, len(code))


RESPONSE_ALIAS = lazy(r"""(?<![\w$.])(?:(?:const|let|var)\s+)?(?P<alias>[A-Za-z_$][\w$]*)\s*=\s*[\w$.]+\s*"""
                            r"""(?:\??\.get\(\s*["']tool_response["']|\[\s*["']tool_response["']\s*\]|\??\.tool_response\b)""",
                      needs=("tool_response",))


def _failure_fields(code: str, place: Places) -> tuple[tuple[str, Place], ...]:
    """tool_response's error or exit code, read directly or through a variable holding it."""
    found = [(m.group("field"), place(m.start("field"))) for m in FAILURE_FIELD.finditer(code)]
    for alias in {m.group("alias") for m in RESPONSE_ALIAS.finditer(code)}:
        read = re.compile(rf"""(?<![\w$.]){re.escape(alias)}\s*(?:\??\.get\(\s*["']|\[\s*["']|\??\.)"""
                          r"""(?P<field>exit_?code|exitCode|is_?[eE]rror|return_?code|returnCode|exit_status|error)\b""")
        found += [(m.group("field"), place(m.start("field"))) for m in read.finditer(code)]
    return tuple(sorted(found, key=lambda item: item[1]))


def _after_call(code: str, start: int, count: int = 4) -> str:
    """The few characters after the call whose arguments start at `start`."""
    end = start + len(_balanced(code, start)) + 1
    return code[end:end + count]


def _object_follows(code: str, end: int) -> bool:
    """A quote right after `updatedInput:` that opens a string holding JSON text is a string; one
    that is the escaped quote of a shell JSON key inside an object is not (`\\"updatedInput\\": {`)."""
    return code[end:end + 1] == "{"


def _new_inputs(objects: list[tuple[Place, list[str], bool]]) -> tuple[tuple[Place, tuple[str, ...]], ...]:
    """updatedInput objects written key by key, without a spread of the original input."""
    out = []
    for place, keys, spread in objects:
        if not spread and keys and dropped_fields(tuple(keys)):
            out.append((place, tuple(keys)))
    return tuple(out)


def dropped_fields(keys: tuple[str, ...], tools: frozenset[str] | None = None) -> tuple[str, ...]:
    """What a new input with `keys` drops, for the tools its hook's matcher reaches (all when None)."""
    named = set(keys)
    meant = [fields for tool, fields in TOOL_FIELDS.items() if named <= set(fields) and (tools is None or tool in tools)]
    return tuple(dict.fromkeys(f for fields in meant for f in fields if f not in named))


# ---- every language: what the readers share --------------------------------------------------------

SELF_TEST = lazy(r"(?i)test", needs=("test",))  # a function of the script's own tests: its asserts are not refusals
DEBUG_FLAG = lazy(r"(?i)debug|verbose|trace", needs=("debug", "verbose", "trace"))


def _second_reads(reads: list[StdinRead]) -> tuple[Place, ...]:
    """The first stdin read that comes after another on a path both can be on (same function,
    not the other arm of an if or try)."""
    for i, (place, branch, scope, _) in enumerate(reads):
        for first_place, first_branch, first_scope, _ in reads[:i]:
            if first_scope == scope and not _alternatives(first_branch, branch) and first_place != place:
                return (place,)
    return ()


def _balanced(code: str, start: int) -> str:
    """The text from `start` to the parenthesis that closes the one just before it."""
    depth, i = 1, start
    while i < len(code) and depth:
        if code[i] in "([{":
            depth += 1
        elif code[i] in ")]}":
            depth -= 1
        i += 1
    return code[start:i - 1]


def _close(code: str, start: int) -> int:
    """The offset of the brace that closes the one at `start` (the end of the code if none does)."""
    if start < len(code) and code[start] == "{":
        return _brace_pairs(code).get(start, len(code))
    end = closing_brace(code, start)
    return len(code) if end is None else end


@lru_cache(maxsize=8)
def _brace_pairs(code: str) -> dict[int, int]:
    """{opening brace: its closing brace} for the whole text, braces counted in one pass (each
    found by counting from its own opening, a deep nest cost the square of its depth)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for match in BRACE.finditer(code):
        if match.group() == "{":
            stack.append(match.start())
        elif stack:
            pairs[stack.pop()] = match.start()
    return pairs


BRACE = lazy(r"[{}]")


# ---- shell --------------------------------------------------------------------------------------------

# where a command of interest starts: after `;`, `&`, `|`, `(`, `{`, a backtick, a newline, `$(`,
# then/do/else/if/while (SH_COMMAND_START, or the line's start), and any assignments, `!` or exec:
# the command's word (SH_COMMAND_WORD, matched at such a place), looked up in SH_WORDS (the words
# written into a pattern as an alternation took 7.7 M instructions to compile, a fifth of the
# compiling of doctor on one typical file)
SH_COMMAND_START = lazy(r"""[;&|({`\n]|\b(?:then|do|else|if|while)""")
SH_COMMAND_WORD = lazy(r"""[ \t]*(?:(?:[A-Za-z_]\w*=\S*|!|exec)[ \t]+)*(?P<word>[A-Za-z_]\w*)\b(?![-.=])""")
SH_WORDS = frozenset({
    "echo", "printf", "jq", "cat", "tee", "read", "exit", "set", "git", "npm", "pnpm", "yarn", "make", "pip", "pip3",
    "pushd", "popd", "grep", "egrep", "fgrep", "rg", "curl", "cd", "which", "type", "command", "nvm", "dirs", "npx",
    "pnpx", "bunx", "poetry", "bundle", "eslint", "prettier", "tsc", "ruff", "mypy", "pytest", "jest", "vitest",
    "shellcheck", "flake8", "pylint", "rubocop", "isort", "mkdir", "cp", "mv", "rm", "ln", "chmod", "chown", "rsync"})


def sh_words(line: str) -> Iterator[re.Match[str]]:
    """The commands of SH_WORDS a (quote-masked) line starts, left to right: at each place a
    command may start, the word that starts there (after its assignments, `!` or exec); where
    that word is another, the next place is tried, and after a command of SH_WORDS, the first
    place past it. (The places are found first, and the word matched at each: one pattern with
    the places as lookbehinds, searched from each, tried them at every character of the line:
    the corpus tree went from 5,273 M to 5,206 M instructions, valgrind, fixed hash seed.)"""
    position = 0
    for start in (0, *(m.end() for m in SH_COMMAND_START.finditer(line))):
        if start < position:
            continue
        match = SH_COMMAND_WORD.match(line, start)
        if match is not None and match.group("word") in SH_WORDS:
            yield match
            position = match.end()


SH_FUNCTION = lazy(r"""^\s*(?:function\s+)?(?P<name>[A-Za-z_][\w-]*)\s*\(\s*\)\s*\{?|^\s*function\s+(?P<name2>[A-Za-z_][\w-]*)""",
                   needs=("(", "function"))
SH_WRITERS = ("echo", "printf", "jq", "cat", "tee")
SH_PIPED_IN = lazy(r"(?<!\|)\|\s*(?:[{(]\s*)?(?:[A-Za-z_]\w*=\S*\s+)*$", needs=("|",))  # the command reads a pipe
ENDS_RUN = lazy(r"\s*(?:;|&&|\n)\s*(?:exit|return)\b", needs=("exit", "return"))  # after a write: the run ends
TRACED_SHEBANG = lazy(r"#![^\n]*\s-\w*x", needs=("#!",))  # #!/bin/bash -x
SH_VALUE = lazy(r"""(?P<field>permissionDecision|decision|behavior|permission)\\?["']?\s*:\s*"""
                      r"""(?:\\?["'](?P<lit>[A-Za-z_]+)\\?["']|\\?"?\$\{?(?P<var>[A-Za-z_]\w*)\}?\\?"?)""",
                needs=("decision", "behavior", "permission"))
SH_ASSIGN = lazy(r"""(?:^|[\s;(])(?:local\s+|export\s+|readonly\s+)?(?P<name>[A-Za-z_]\w*)=(?P<q>["']?)(?P<value>[A-Za-z_]+)(?P=q)(?=[\s;)]|$)""",
                 re.M, needs=("=",))
SH_JQ_ARG = lazy(r"""--arg\s+(?P<name>[A-Za-z_]\w*)\s+(?P<q>["']?)(?:(?P<lit>[A-Za-z_]+)|\$\{?(?P<var>[A-Za-z_]\w*)\}?)(?P=q)""",
                 needs=("--arg",))
SH_JQ_USE = lazy(r"""(?P<field>permissionDecision|decision|behavior|permission)\s*:\s*\$(?P<name>[A-Za-z_]\w*)""",
                 needs=("decision", "behavior", "permission"))


SH_XTRACE = lazy(r"(?:^|\s)-\w*x|-o\s+xtrace")  # `set -x`: each command echoed on stderr
SH_EXIT_STATUS = lazy(r"\s*(\d+)")
SH_WHILE_READ = lazy(r"\bwhile\s+(?:IFS=\S*\s+)?$")  # `while read line`: reads lines, not the one JSON
SH_TRACE_TO_FILE = lazy(r"BASH_XTRACEFD|\bexec\s+2>>?\s*(?!&)\S")


def _shell(code: str, at: Offsets, common: Common, path: Path | None = None, depth: int = 0) -> Flow:
    def place(offset: int) -> Place:
        return Place(*at(offset))

    lines = shell_lines(code)
    starts = [start for start, _, _, _ in lines]
    writes, exits, reads, stderr_answers, cdpath_writes = [], [], [], [], []
    unread_output = False
    trace = None
    order = 0
    printers, sourced = _sh_printers(code, lines, path, depth)
    cdpath = "CDPATH=" in code  # (cd to a name found through CDPATH prints the directory it goes to)
    calls = re.compile(rf"""(?:^|(?<=[;&|({{]))[ \t]*(?:(?:then|do|else|!)[ \t]+)?(?P<fn>{'|'.join(map(re.escape, printers))})"""
                       r"""(?![\w=(-])""") if printers else None
    stops: list[tuple[Place, Branch, str]] = []  # exit or return: where, its arms, function
    runner_runs: list[tuple[str, tuple[str, ...], dict[str, str], Place]] = []
    for offset, line, branch, scope in lines:
        masked = mask_quotes(line)
        arm = CASE_ARM.match(masked) if _closes_before_a_blank(masked) else None
        if arm:  # `pattern) command ;;`: the command after the pattern starts the line
            masked = " " * arm.end() + masked[arm.end():]
        inline = _inline_arms(masked) if ";;" in masked else []
        for start, end, _, _ in inline:  # `case $x in a) cmd;; b) cmd;; esac` on one line: each cmd starts a command
            masked = masked[:start - 1] + ";" + masked[start:] if end > start else masked
        if "exit" in masked or "return" in masked:  # (SH_STOP's words, tested before the pattern is asked)
            stops += [(place(offset + m.start("stop")), branch, scope) for m in SH_STOP.finditer(masked)]
        for library in SH_SOURCE.finditer(line) if sourced else ():  # a library that prints when it is sourced
            printed = sourced.get(library.group("file"))
            if printed is not None:
                order += 1
                writes.append(Write(STDOUT_TEXT, place(offset + library.start("file")),
                                    f"{printed} (in {library.group('file')}, when it is sourced)", branch, scope, False,
                                    order))
        called = _Before(masked)
        for match in calls.finditer(masked) if calls else ():  # a function that prints text on stdout
            rest = _sh_segment(line, match.end())
            called.advance(match.start("fn"))
            if scope != match.group("fn") and called.opened <= called.closed \
                    and not _sent_elsewhere(rest) and not _piped_on(line, match.end() + len(rest)):
                order += 1
                printed, where, exits_after = printers[match.group("fn")]
                ends = exits_after or _ends_run(line, match.end() + len(rest), lines, starts, offset)
                writes.append(Write(printed, place(offset + match.start("fn")),
                                    f"{match.group('fn')}{rest.rstrip()[:30]} ({where})", branch, scope, ends, order))
        unarmed = line if not arm else " " * arm.end() + line[arm.end():]  # (an arm's `)` closes no `$(`)
        for start, end, _, _ in inline:
            unarmed = unarmed[:start - 1] + ";" + unarmed[start:] if end > start else unarmed
        before = _Before(unarmed)
        for match in sh_words(masked):
            word = match.group("word")
            rest = _sh_segment(line, match.end())
            start = offset + match.start("word")
            order += 1
            before.advance(match.start("word"))
            end = match.end() + len(rest)
            around = before.around(line, end)
            if word == "set" and SH_XTRACE.search(rest):
                trace = trace or place(start)
            elif word == "exit":
                exits.append(Exit(_sh_exit_status(rest), f"exit{rest.rstrip()[:20]}",
                                  _sh_message(before.since_exit(), _prev_line(lines, starts, offset)), place(start)))
                before.exited()
            elif word in SH_WRITERS:
                kind = _sh_stdout_kind(word, rest, around, code, offset + end)
                debug = before.debug or (isinstance(branch, Arms) and branch.debug)
                if kind and not (debug and kind == STDOUT_TEXT):
                    ends = _ends_run(line, end, lines, starts, offset)
                    within = _in_inline_arm(inline, match.start("word"), branch, offset)
                    writes.append(Write(kind, place(start), f"{word}{rest.rstrip()[:40]}", within, scope, ends, order))
                elif _sh_stderr_answer(word, rest, around, code, offset + end):
                    redirect = SH_TO_STDERR.search(rest)  # (reported at the `>&2` that sends it there)
                    stderr_answers.append(place(offset + match.end() + redirect.start() + (redirect.group()[:1].isspace())))
                elif kind is None and _sh_to_stdout(rest, around):
                    unread_output = True
            elif word in delivery.CHATTY and not (before.debug or (isinstance(branch, Arms) and branch.debug)) \
                    and _sh_to_stdout(rest, around) and (delivery.prints_on_stdout(word, _sh_args(rest)) or (
                        word == "cd" and cdpath and _relative_cd(_sh_args(rest))) or (
                        SH_JOINED.search(mask_quotes(rest)) and delivery.talks_on_stderr(word, _sh_args(rest)))):
                writes.append(Write(STDOUT_TEXT, place(start), f"{word}{rest.rstrip()[:40]} (its own output)", branch,
                                    scope, _ends_run(line, end, lines, starts, offset), order))
                if word in SH_SCRIPT_RUNNERS:  # (whether the script it runs answers: checks/scripts/answers.py)
                    assigned = dict(SH_ASSIGNED.findall(line[match.start():match.start("word")]))
                    runner_runs.append((word, tuple(_sh_args(rest)), assigned, place(start)))
            elif word == "cd" and _relative_cd(_sh_args(rest)) and _sh_to_stdout(rest, around) \
                    and not (before.debug or (isinstance(branch, Arms) and branch.debug)):
                cdpath_writes.append(Write(STDOUT_TEXT, place(start), f"cd{rest.rstrip()[:40]} (the folder it prints, "
                                           "found through the CDPATH the hook inherits)", branch, scope,
                                           _ends_run(line, end, lines, starts, offset), order))
            if word in ("cat", "jq", "read") and not around.piped_in and "<" not in rest and _sh_reads_stdin(word, rest):
                if not (word == "read" and SH_WHILE_READ.search(before.command())):
                    reads.append(StdinRead(place(start), branch, scope, order))
    if TRACED_SHEBANG.match(code) and trace is None:
        trace = Place(1, 1)
    if trace and SH_TRACE_TO_FILE.search(code):
        trace = None  # the trace goes to a file of its own
    flow = Flow(writes=tuple(writes), exits=tuple(exits), stdin_reads=_second_reads(reads),
                values=_sh_values(code, place), trace=trace, stderr_answers=tuple(stderr_answers),
                unread_output=unread_output, **common,
                new_inputs=_new_inputs(_labelled_objects(code, place)))
    flow.cdpath_writes = tuple(cdpath_writes)
    flow.reads_stdin = bool(reads)
    flow.second_answer = _second_answer(writes, stops)
    flow.runner_runs = tuple(runner_runs)
    flow.stdout_noise = _stdout_noise(code, lines, printers, place, trace is not None or "set -x" in code)
    flow.stdout_sent_away = _stdout_sent_away(lines, writes, place)
    return flow


# a lasting `exec` whose redirections move stdout: to a file, to stderr, or into a process substitution
SH_EXEC_REDIRECTS = lazy(r"""(?:^|(?<=[;&|{])|(?<=\bthen))[ \t]*exec(?P<redirections>(?:[ \t]+\d*(?:&>>?|>>?|>\|)[ \t]*"""
                         r"""(?:>\((?:[^()]|\([^()]*\))*\)|&?(?:"[^"]*"|'[^']*'|[^\s;&|()"'])+))+)[ \t]*(?:$|[;&|#])""",
                         re.M, needs=("exec",))
SH_REDIRECT = lazy(r"""(?P<fd>\d*)(?P<op>&>>?|>>?|>\|)[ \t]*(?P<to>>\((?:[^()]|\([^()]*\))*\)|"""
                   r"""&?(?:"[^"]*"|'[^']*'|[^\s;&|()"'])+)""")
SH_KEEPS_STDOUT = lazy(r""">\s*\S|>&\s*2|&>|\|""")  # inside a process substitution: the tee's own stdout sent on


def _stdout_sent_away(lines: list[ShellLine], writes: list[Write], place: Places) -> tuple[Place, str, Write] | None:
    """A lasting `exec >>log 2>&1` (`exec 1>file`, `exec >&2`, `exec > >(tee log >/dev/null)`) at
    the top level, and a JSON answer written to stdout after it: the answer goes where stdout was
    sent, and the host reads nothing (an `exec 1>&3` back to a saved stdout before it restores it).
    (where, the exec as written, the answer)."""
    answers = [w for w in writes if w.kind == STDOUT_JSON]
    if not answers:
        return None
    away: tuple[Place, str] | None = None
    for offset, line, branch, scope in lines:
        found = SH_EXEC_REDIRECTS.search(line) if "exec" in line else None
        if found is not None and not scope and not branch:
            for redirect in SH_REDIRECT.finditer(found.group("redirections")):
                fd, op, to = redirect.group("fd", "op", "to")
                if fd not in ("", "1") and not op.startswith("&"):
                    continue  # (2>log, 3>&1: stdout stays)
                if to.startswith(">("):
                    moved = SH_KEEPS_STDOUT.search(to[2:-1].split("tee", 1)[-1]) is not None
                else:
                    moved = not (to.startswith("&") and to[1:] not in ("2", "-"))  # (>&3: back to a saved stdout)
                away = (place(offset + line.index("exec", found.start())),
                        f"exec{found.group('redirections')}".strip()) if moved else None
        if away is not None:
            answer = next((w for w in answers if w.at.line == place(offset)[0] and w.at > away[0]), None)
            if answer is not None:
                return away[0], away[1][:60], answer
    return None


SH_TRAP_EXIT = lazy(r"""(?:^|(?<=[;&|{])|(?<=\bthen)|(?<=\bdo)|(?<=\belse))[ \t]*(?P<trap>trap)[ \t]+"""
                    r"""(?P<action>'[^']*'|"[^"]*"|[^\s;&|'"]+)(?P<conditions>(?:[ \t]+[A-Z0-9]+)+)""")
SH_ACTION_WRITE = lazy(r"(?:^|[;&|{]|\bthen|\belse)\s*(?P<word>echo|printf)\b")
SH_XTRACE_TO_STDOUT = lazy(r"""(?:^|[\s;&|])(?:export[ \t]+)?BASH_XTRACEFD=["']?1\b""")
# a lasting `exec ... 2>&1` (or `&>`) that keeps stdout the hook's: nothing after it but a process substitution's tee
SH_EXEC_JOIN = lazy(r"""(?:^|(?<=[;&|{])|(?<=\bthen))[ \t]*exec(?P<redirections>(?:[ \t]+(?:>>?[ \t]*>\([ \t]*tee\b[^)>]*\)|"""
                    r"""2>&1|&>>?[ \t]*>\([ \t]*tee\b[^)>]*\)))+)[ \t]*(?:$|[;&|#])""", re.M)
SH_TO_STDERR_AFTER = lazy(r">&\s*2\b|\bset[ \t]+-[a-z]*x", needs=(">&", "set"))


def _stdout_noise(code: str, lines: list[ShellLine], printers: dict[str, tuple[str, str, bool]], place: Places,
                  traced: bool) -> Write | None:
    """Text a shell script puts on stdout from a line on, whatever path its run takes after it: an
    EXIT trap whose action prints (it runs when the script ends, after the answer and its exit), a
    `set -x` trace sent to stdout (BASH_XTRACEFD=1), a lasting `exec 2>&1` with what is written to
    stderr after it (measured with bash 5.2.15: each put its text on stdout with the JSON)."""
    for offset, line, branch, scope in lines:
        if isinstance(branch, Arms) and branch.debug:
            continue
        for trap in SH_TRAP_EXIT.finditer(line) if "trap" in line else ():  # (the words each pattern needs, tested
                                                                            # first: most lines have neither)
            if not {"EXIT", "0"} & set(trap.group("conditions").split()):
                continue
            action = trap.group("action").strip("'\"")
            printed = printers.get(action)
            rests = [(w.group("word"), _sh_segment(action, w.end())) for w in SH_ACTION_WRITE.finditer(action)]
            if printed is not None and printed[0] == STDOUT_TEXT or any(
                    _sh_to_stdout(rest, Around(False, False, "")) and _sh_write_kind(word, rest, False, action, 0)
                    == STDOUT_TEXT for word, rest in rests):
                return Write(STDOUT_TEXT, place(offset + trap.start("trap")),
                             f"trap {trap.group('action')[:30]} EXIT (run when the script ends, after its answer)",
                             (), scope, False, 0)
        xtrace = SH_XTRACE_TO_STDOUT.search(line) if traced else None
        if xtrace is not None:
            return Write(STDOUT_TEXT, place(offset + xtrace.start()), "BASH_XTRACEFD=1 (the set -x trace of every "
                         "command, the answer's included)", (), scope, False, 0)
        joined = SH_EXEC_JOIN.search(line) if "exec" in line else None
        if joined is not None and ("2>&1" in joined.group("redirections") or "&>" in joined.group("redirections")) \
                and SH_TO_STDERR_AFTER.search(code, offset + len(line)):
            return Write(STDOUT_TEXT, place(offset + joined.start()), f"exec{joined.group('redirections')[:30]} "
                         "(what the script writes to stderr after it)", (), scope, False, 0)
    return None


SH_SCRIPT_RUNNERS = frozenset({"npm", "yarn", "make", "nvm"})  # print text of their own around a script they run
SH_ASSIGNED = lazy(r"([A-Za-z_]\w*)=(\S*)")
SH_STOP = lazy(r"(?:^|(?<=[;&|{])|(?<=\bthen)|(?<=\bdo)|(?<=\belse))[ \t]*(?P<stop>exit|return)(?![\w-])")


def _second_answer(writes: list[Write], stops: Sequence[tuple[Place, Branch, str]]) -> tuple[Write, Write] | None:
    """(the first, the second) of two JSON answers one run of a script can print: the first
    not followed by an exit or return (at its line, in the function that prints it, or further on
    in its own arm or one around it, before the second), in the same function, and the two not in
    arms of one if or case. Two objects on stdout are not one. A stop's arms are spelt out only
    between two answers (each line's, spelt out as it was read, cost the square of the nesting:
    4,000 unclosed `case` lines with an exit each took 2 s)."""
    answers = [w for w in writes if w.kind == STDOUT_JSON][:MAX_ANSWERS]
    for index, first in enumerate(answers):
        if first.ends:
            continue
        arms = tuple(first.branch)
        second = next((w for w in answers[index + 1:] if w.scope == first.scope
                       and not _alternatives(first.branch, w.branch)), None)
        # (an exit between the two ends the run before every later answer too)
        if second is not None and not any(first.at < at < second.at and scope == first.scope
                                          and _within(arms, around) for at, around, scope in stops):
            return first, second
    return None


def _within(arms: tuple[tuple[int, int], ...], around: Branch) -> bool:
    """Whether `around` is the arm `arms` is in or one around it (its links a prefix of them)."""
    links = tuple(around)
    return arms[:len(links)] == links


MAX_ANSWERS = 256  # the JSON writes of a shell script paired (a hook has a few; a generated file may have thousands)


class Around(Record):
    """What a command's place on its line says of its output and input."""

    captured: bool  # inside an open $(...) or `...`
    piped_in: bool  # it reads a pipe
    piped_on: str  # "|" or "||" right after it, else ""


class _Before:
    """What a line says before a position, for positions asked in increasing order, worked out
    in one pass over the line (asked of `line[:position]` afresh, a long command line cost the
    square of its length)."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.at = 0
        self.opened = self.closed = self.ticks = 0  # `$(`, `)` and backquotes so far
        self.boundary = 0  # where the current command's text starts (see command())
        self.exit_at = 0  # after the last `exit` on the line
        first = next(DEBUG_FLAG.finditer(line), None)  # (its literals: the first found ends first)
        self._debug_end = first.end() if first else None

    def advance(self, position: int) -> None:
        line, at = self.line, self.at
        self.opened += line.count("$(", at, position)
        self.closed += line.count(")", at, position)
        self.ticks += line.count("`", at, position)
        last = max(line.rfind(";", at, position), line.rfind("&", at, position), line.rfind("|", at, position),
                   line.rfind("\n", at, position))
        if last >= 0:
            self.boundary = max(last - 1, 0)
        self.at = position

    def command(self) -> str:
        """The line's text before the position, from the last `;`, `&`, `|` or newline on
        (with the character before it, so that `||` is told from `|`)."""
        return self.line[self.boundary:self.at]

    @property
    def captured(self) -> bool:
        return self.opened > self.closed or self.ticks % 2 == 1

    @property
    def debug(self) -> bool:
        """A debug, verbose or trace word before the position."""
        return self._debug_end is not None and self._debug_end <= self.at

    def since_exit(self) -> str:
        return self.line[self.exit_at:self.at]

    def exited(self) -> None:
        self.exit_at = self.at

    def around(self, line: str, end: int) -> Around:
        return Around(self.captured, bool(SH_PIPED_IN.search(self.command())), _piped_on(line, end))


SH_NEXT_PIPE = lazy(r"[ \t\n]*(\|\|?)", needs=("|",))


def _piped_on(line: str, end: int) -> str:
    """"|" or "||" when that comes next on the line after `end`, else ""."""
    found = SH_NEXT_PIPE.match(line, end)
    return found.group(1) if found else ""


def _ends_run(line: str, end: int, lines: list[ShellLine], starts: list[int], offset: int) -> bool:
    """Whether the statements right after a write (on its line, or the next two lines when the
    line ends) end the run."""
    if ENDS_RUN.match(line, end):
        return True
    return not line[end:].strip() and bool(ENDS_RUN.match("\n" + _next_lines(lines, starts, offset, 2)))


@lru_cache(maxsize=4096)
def _quoted(line: str) -> tuple[tuple[bool, ...], bool]:
    """Which characters of the line are quoted (or escaped) text, and whether a quote is still
    open at its end. A `$(...)` inside double quotes is code again."""
    spans, still_open = _quoted_spans(line)
    if not spans:
        return (False,) * len(line), still_open
    marks = [False] * len(line)
    for start, end in spans:
        marks[start:end] = (True,) * (end - start)
    return tuple(marks), still_open


# what ends a run of characters the walk need not look at one by one (_quoted_spans)
PLAIN_STOP = lazy(r"""['"\\()]""")  # outside quotes
DOUBLE_STOP = lazy(r'[\\"]|\$\(')  # inside double quotes


@lru_cache(maxsize=4096)
def _quoted_spans(line: str) -> tuple[tuple[tuple[int, int], ...], bool]:
    """The line's quoted (or escaped) text as (start, end) spans, and whether a quote is still
    open at its end: the walk goes from one quote, backslash or parenthesis to the next (a
    character at a time, the corpus tree's 1,693 command lines took 34 ms to walk and mask; 7.5 ms so)."""
    if "'" not in line and '"' not in line and "\\" not in line:
        return (), False  # (nothing quoted or escaped)
    spans: list[tuple[int, int]] = []
    quotes = [""]  # per command-substitution level: its open quote
    parentheses = [0]  # and its open parentheses
    i, size = 0, len(line)
    while i < size:
        quote = quotes[-1]
        if quote == "'":
            end = line.find("'", i)
            if end < 0:
                spans.append((i, size))
                break
            spans.append((i, end))
            quotes[-1] = ""
            i = end + 1
        elif quote:  # inside double quotes: text up to a backslash, the closing quote or a `$(`
            found = DOUBLE_STOP.search(line, i)
            end = found.start() if found else size
            if end > i:
                spans.append((i, end))
            if found is None:
                break
            if line[end] == "$":  # `$(`: code again, one level down
                quotes.append("")
                parentheses.append(0)
                i = end + 2
            elif line[end] == "\\":  # the backslash and the character it escapes (or the last one alone)
                spans.append((end, min(end + 2, size)))
                i = end + 2
            else:
                quotes[-1] = ""
                i = end + 1
        else:
            found = PLAIN_STOP.search(line, i)
            if found is None:
                break
            i, ch = found.start(), found.group()
            if ch in "'\"":
                quotes[-1] = ch
            elif ch == "\\":
                if i + 1 < size:
                    spans.append((i + 1, i + 2))
                    i += 1
            elif ch == "(":
                parentheses[-1] += 1
            elif len(quotes) > 1:  # ")"
                if parentheses[-1] == 0:
                    quotes.pop()
                    parentheses.pop()
                else:
                    parentheses[-1] -= 1
            i += 1
    return tuple(spans), any(quotes)


def _open_quote(line: str) -> bool:
    """Does a quote opened on this line run past its end?"""
    return _quoted_spans(line)[1]


def _line_at(code: str, offset: int) -> str:
    """The line of code an offset is on."""
    start = code.rfind("\n", 0, offset) + 1
    end = code.find("\n", offset)
    return code[start:end if end >= 0 else len(code)]


def mask_quotes(line: str) -> str:
    """The line with what is inside quotes replaced by underscores (same length), so that a
    word in a string (`sed 's/^cat /x/'`) is not taken for a command."""
    spans = _quoted_spans(line)[0]
    if not spans:
        return line
    parts: list[str] = []
    last = 0
    for start, end in spans:
        parts += (line[last:start], "\n".join("_" * len(piece) for piece in line[start:end].split("\n")))
        last = end
    parts.append(line[last:])
    return "".join(parts)


def _sh_segment(line: str, start: int) -> str:
    """The rest of a simple command from `start`: up to an unquoted ;, |, && or || (a `>&2` is
    part of it), the end of the line, or the `)` that closes its `$(`."""
    marks, depth = _quoted(line)[0], 0
    for i in range(start, len(line)):
        ch = line[i]
        if marks[i]:
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return line[start:i]
            depth -= 1
        elif (ch in ";|\n" and not (ch == "\n" and line[i - 1:i] == "\\")) or (
                ch == "&" and line[i - 1:i] != ">" and line[i + 1:i + 2] != ">"):
            return line[start:i]
    return line[start:]


CASE_ARM = lazy(r"""^\s*\(?[^\s()|;&]+(?:\s*\|\s*[^\s()|;&]+)*\)(?=\s)""", needs=(")",))
# an arm of a case written on one line with it: `case "$x" in a) ...;; b|c) ...;; esac`
SH_INLINE_ARM = lazy(r"""(?:(?P<case>\bcase[ \t]+[^;\n]*?[ \t]in[ \t]+)|;;&?[ \t]*|;&[ \t]*)"""
                     r"""\(?[^\s()|;&]+(?:[ \t]*\|[ \t]*[^\s()|;&]+)*\)""", needs=(";;", ";&", "case"))
SH_ARM_END = lazy(r";;|;&|\besac\b")


def _inline_arms(masked: str) -> list[tuple[int, int, int, int]]:
    """(where its command starts, where it ends, where its case starts, its number) for each arm of
    a case written on one line; [] where the line holds none."""
    arms: list[tuple[int, int, int, int]] = []
    frame = number = -1
    for match in SH_INLINE_ARM.finditer(masked):
        if match.group("case") is not None:
            frame, number = match.start(), 0
        elif frame < 0:
            continue
        else:
            number += 1
        finish = SH_ARM_END.search(masked, match.end())
        arms.append((match.end(), finish.start() if finish else len(masked), frame, number))
    return arms


def _in_inline_arm(inline: list[tuple[int, int, int, int]], position: int, branch: Branch, offset: int) -> Branch:
    """The branch of a command at a position of its line: the line's own, or within the arm of a
    one-line case it is in (arms of one case are alternatives)."""
    for start, end, frame, number in inline:
        if start <= position < end:
            return Arms(branch if isinstance(branch, Arms) else None, offset + frame, number, False)
    return branch
SH_SOURCE = lazy(r"""(?:^|[;&|]|\bthen)[ \t]*(?:source|\.)[ \t]+[^\n;&|]*?(?P<file>[\w.-]+\.(?:sh|bash))\b""",
                 re.M, needs=(".sh", ".bash"))
MAX_LIBRARY = 256 * 1024


SH_COMMENT_LINE = lazy(r"(?m)^[ \t]*#.*$")


def _sh_printers(code: str, lines: list[ShellLine], path: Path | None,
                 depth: int) -> tuple[dict[str, tuple[str, str, bool]], dict[str, str]]:
    """{function: (json | text, where it is defined, whether it exits)} for the functions that print
    one kind of output on stdout: this script's, and those of a library it sources from its own
    folder. A function with an `exit` in its body is taken to end the run after it prints. And
    {library: the text it prints when it is sourced} for those libraries (`echo "env loaded"`)."""
    kinds: dict[str, set[str]] = {}
    where: dict[str, str] = {}
    exiting: set[str] = set()
    sourced: dict[str, str] = {}
    for scope, kind, _ in _function_writes(code, lines, exiting, top_level=False):
        kinds.setdefault(scope, set()).add(kind)
        where.setdefault(scope, "it prints on stdout")
    libraries = [path.parent / m.group("file") for m in SH_SOURCE.finditer(code)] if path is not None and not depth else []
    for library in libraries:
        try:
            if library == path:
                continue
            text = safe_read.read(library, safe_read.Kind("sourced script", MAX_LIBRARY)).decode("utf-8", "replace")
        except (OSError, HookwrightError):
            continue
        text = SH_COMMENT_LINE.sub("", text)
        for scope, kind, what in _function_writes(text, shell_lines(text), exiting, top_level=True):
            if not scope:
                if kind == STDOUT_TEXT:
                    sourced.setdefault(library.name, what)
                continue
            kinds.setdefault(scope, set()).add(kind)
            where.setdefault(scope, f"it prints on stdout, in {library.name}")
    printers = {name: (found.pop(), where[name], name in exiting) for name, found in kinds.items() if len(found) == 1}
    return printers, sourced


SH_EXIT_WORD = lazy(r"(?<![\w$-])exit(?![\w-])", needs=("exit",))


def _function_writes(code: str, lines: list[ShellLine], exiting: set[str],
                     top_level: bool) -> list[tuple[str, str, str]]:
    """(function, json | text, what) for each stdout write inside a function (calls not followed),
    and with `top_level` ("" for the function) each outside any function and any if; the functions
    with an `exit` in their body are added to `exiting`."""
    out = []
    for offset, line, branch, scope in lines:
        if not scope and (not top_level or branch):
            continue
        if scope and SH_EXIT_WORD.search(mask_quotes(line)):
            exiting.add(scope)
        before = _Before(line)
        for match in sh_words(mask_quotes(line)):
            word = match.group("word")
            if word not in SH_WRITERS:
                continue
            rest = _sh_segment(line, match.end())
            before.advance(match.start("word"))
            end = match.end() + len(rest)
            kind = _sh_stdout_kind(word, rest, before.around(line, end), code, offset + end)
            if kind in (STDOUT_TEXT, STDOUT_JSON):
                out.append((scope, kind, f"{word}{rest.rstrip()[:30]}"))
    return out


def _sh_stdout_kind(word: str, rest: str, around: Around, code: str, end: int) -> str | None:
    """What an echo, printf, jq, cat or tee writes on the hook's stdout (json, text, its input),
    or None: captured by $(...), redirected, piped on, or not known."""
    if not _sh_to_stdout(rest, around):
        return None
    return _sh_write_kind(word, rest, around.piped_in, code, end)


def _relative_cd(args: list[str]) -> bool:
    """`cd NAME` to a name CDPATH may find (not a path from /, ./, ../, ~ or a variable; `.claude` is one)."""
    return bool(args) and bool(args[0]) and args[0][0] not in "/~$-" and args[0] not in (".", "..") \
        and not args[0].startswith(("./", "../"))


def _sh_args(rest: str) -> list[str]:
    """A command's arguments as the shell splits them (as written, where it cannot)."""
    try:
        return shlex.split(rest)
    except ValueError:
        return rest.split()


def _sh_exit_status(rest: str) -> int | None:
    """The status `exit` gives: its number; 0 for `exit` alone (or before ; && ||), where it is the
    last command's, taken to be 0; None for a word only the run knows (`exit "$CODE"`)."""
    status = SH_EXIT_STATUS.match(rest)
    if status:
        return int(status.group(1))
    said = rest.strip().split(";", 1)[0].strip()
    return 0 if said[:1] in ("", "&", "|", "#") else None


def _sent_elsewhere(rest: str) -> bool:
    """Whether a command's output is redirected: a `>` with a target after it (`>&2`, `> file`,
    `2>x` too), or `&>` (str finds: the pattern's compile was 0.5 M instructions of doctor on a
    typical file; anything after a later `>` is after the first one as well)."""
    first = rest.find(">")
    return first >= 0 and (rest[first + 1:].strip() != "" or "&>" in rest)


def _sh_to_stdout(rest: str, around: Around) -> bool:
    """Whether what a writer prints reaches the hook's stdout: not captured by $(...), redirected or piped on
    (`2>&1` sends its errors there too, and its output stays)."""
    unquoted = SH_JOINED.sub(" ", mask_quotes(rest))  # (a `>` or a /dev/null inside a quoted message redirects nothing)
    return not (around.captured or around.piped_on == "|" or _sent_elsewhere(unquoted)
                or "/dev/null" in unquoted)


SH_JOINED = lazy(r"(?<![\d>&])2>&1\b", needs=("2>&1",))  # its stderr sent where its stdout goes (asked of each command)


SH_TO_STDERR = lazy(r"(?:^|\s)1?>&\s*2\b|>>?\s*/dev/stderr\b", needs=(">&", "/dev/stderr"))


def _sh_stderr_answer(word: str, rest: str, around: Around, code: str, end: int) -> bool:
    """Whether an echo, printf, jq or cat writes an answer's JSON to stderr (`echo '{"hookSpecificOutput":
    ...}' >&2`), not captured by $(...) nor piped on."""
    if around.captured or around.piped_on or not SH_TO_STDERR.search(rest):
        return False
    written = code[end:end + 600].split("\n", 1)[-1] if word == "cat" else rest
    return _sh_write_kind(word, rest, False, code, end) == STDOUT_JSON and bool(ANSWER_OBJECT.search(written))


HEREDOC_START = lazy(r"<<-?\s*(['\"]?)([A-Za-z_]\w*)\1", needs=("<<",))


SH_BLOCK_WORD = lazy(r"(?<![\w-])(if|elif|else|fi|case|esac|;;)(?![\w-])|(\{)\s*$|^\s*(\})",
                     needs=("if", "else", "fi", "case", "esac", ";;", "{", "}"))


# A line of a script is asked for each pattern below; most lines hold none of what every match
# holds, and these str tests tell them apart before the pattern is compiled (SH_FUNCTION,
# SH_BLOCK_WORD and CASE_ARM were 3.2 M instructions of doctor on a typical file, whose four
# lines of shell use none of them).
BLOCK_WORDS = ("if", "elif", "else", "fi", "case", "esac", ";;")


def _opens_or_closes(stripped: str) -> bool:
    """What SH_BLOCK_WORD finds in a stripped line: a block's word (no word character or `-`
    around it), a `{` at its end, a `}` at its start."""
    return stripped.endswith("{") or stripped.startswith("}") or holds_word(stripped, BLOCK_WORDS, also="-")


def _empty_parentheses(line: str) -> bool:
    """`(` and `)` with blanks at most between them, as every function SH_FUNCTION finds has."""
    at = line.find("(")
    while at >= 0:
        close = line.find(")", at + 1)
        if close < 0:
            return False
        if close == at + 1 or line[at + 1:close].isspace():
            return True
        at = line.find("(", at + 1)
    return False


def _closes_before_a_blank(line: str) -> bool:
    """A `)` with a blank after it, as every case arm CASE_ARM finds has."""
    at = line.find(")")
    while at >= 0:
        if line[at + 1:at + 2].isspace():
            return True
        at = line.find(")", at + 1)
    return False


def shell_lines(code: str) -> list[ShellLine]:
    """(offset, text, branch, function) per line of code: here-document bodies joined to the
    line that opens them, `if/elif/else/fi` and `case` arms as branches."""
    out = []
    arms: Arms | None = None  # the innermost open if or case
    scope, scope_depth, depth = "", 0, 0
    offset = 0
    raw = code.split("\n")
    i = 0
    while i < len(raw):
        line, start, first = raw[i], offset, i
        offset += len(line) + 1
        i += 1
        while i < len(raw) and (line.endswith("\\") or _open_quote(line)):  # one command on several lines
            line += "\n" + raw[i]
            offset += len(raw[i]) + 1
            i += 1
        heredoc = HEREDOC_START.search(line)
        if heredoc and "<<<" not in line:
            tag = heredoc.group(2)
            body = []
            while i < len(raw) and raw[i].strip() != tag:
                body.append(raw[i])
                offset += len(raw[i]) + 1
                i += 1
            if i < len(raw):
                offset += len(raw[i]) + 1
                i += 1
            line = line + "\n" + "\n".join(body)
        stripped = line.strip()
        function = SH_FUNCTION.match(line) if "function" in line or _empty_parentheses(line) else None
        if function and not stripped.startswith(("if", "case", "for", "while")):
            scope, scope_depth = function.group("name") or function.group("name2"), depth
        for token in SH_BLOCK_WORD.findall(stripped) if _opens_or_closes(stripped) else ():
            keyword, brace_open, brace_close = token
            if keyword in ("if", "case"):
                arms = Arms(arms, start, 0, bool(DEBUG_FLAG.search(raw[first])))
            elif keyword in ("elif", "else", ";;") and arms is not None:
                arms = Arms(arms.outer, arms.frame, arms.arm + 1, arms.flagged)
            elif keyword in ("fi", "esac") and arms is not None:
                arms = arms.outer
            elif brace_open:
                depth += 1
            elif brace_close:
                depth -= 1
                if scope and depth <= scope_depth:
                    scope = ""
        out.append(ShellLine(start, line, () if arms is None else arms, scope))
    return out


def _next_lines(lines: list[ShellLine], starts: list[int], offset: int, count: int) -> str:
    index = bisect.bisect_right(starts, offset)
    return "\n".join(text.strip() for _, text, _, _ in lines[index:index + count])


def _prev_line(lines: list[ShellLine], starts: list[int], offset: int) -> str:
    index = bisect.bisect_left(starts, offset)
    return lines[index - 1][1] if index else ""


SH_ECHO_TO_STDERR = lazy(r"""(?:echo|printf)\s+(?:-\w+\s+)*(?P<msg>"[^"]*"|'[^']*'|[^;&|>]*)[^;&|]*>&\s*2""")


def _sh_message(same_line: str, previous: str) -> str:
    """What an `exit` says: an echo to stderr on its line or the line before."""
    said = []
    for text in (previous, same_line):
        for match in SH_ECHO_TO_STDERR.finditer(text):
            said.append(match.group("msg").strip("'\""))
    return " ".join(said)


SH_PRINTF_FORMAT = lazy(r"^(['\"])%s(?:\\n)?\1\s*")  # printf '%s\n' "$x": prints $x


def _without_echo_flags(rest: str) -> str:
    """An echo's arguments after its flags (-n, -e, -E and their groups), each with its blanks (a
    str walk: the pattern's compile was 0.5 M instructions of doctor on a typical file)."""
    rest = rest.lstrip()
    while rest.startswith("-"):
        end = len(rest) - len(rest[1:].lstrip("neE"))
        if end == 1 or not rest[end:end + 1].isspace():
            break
        rest = rest[end:].lstrip()
    return rest


def _sh_write_kind(word: str, rest: str, piped_in: bool, code: str, end: int) -> str | None:
    if word == "jq":
        return STDOUT_JSON if "-r" not in rest.split() and "--raw-output" not in rest else None
    if word == "tee":
        return STDOUT_INPUT if piped_in else None
    if word == "cat":
        if "<<" in rest:
            body = code[end:end + 200].split("\n", 1)[-1].lstrip()
            return STDOUT_JSON if body.startswith("{") else (STDOUT_TEXT if body else None)
        return None
    argument = _without_echo_flags(rest).strip()
    if word == "printf":
        argument = SH_PRINTF_FORMAT.sub("", argument) if argument.startswith(("'%s", '"%s')) else argument
    if not argument or argument in ('""', "''"):
        return None
    bare = argument.strip("'\"")
    if bare.startswith(("{", "$", "`", "%s")) or argument.startswith(("$", "\"$", "'{", "\"{", "\"${")):
        if bare.startswith("{"):
            return STDOUT_JSON
        variable = SH_BARE_VARIABLE.match(bare)
        return STDOUT_JSON if variable is not None and variable.group(1) in _json_variables(code) else None
    return STDOUT_TEXT


SH_BARE_VARIABLE = lazy(r"^\$\{?([A-Za-z_]\w*)\}?$")
# a variable given a JSON object: `out=$(jq -n ...)` (an object built, not a value read), `out='{...'`
SH_JSON_VARIABLE = lazy(r"""(?:^|[\s;&|(])(?:local[ \t]+|declare[ \t]+(?:-\w+[ \t]+)*|readonly[ \t]+)?"""
                        r"""(?P<name>[A-Za-z_]\w*)=(?:\$\((?P<jq>[ \t]*jq[ \t]+(?:-[a-zA-Z]*[ \t]+)*-[a-zA-Z]*n[a-zA-Z]*\b)"""
                        r"""|["']\{)""", re.M, needs=("=",))
JQ_RAW = lazy(r"(?:^|\s)-[a-zA-Z]*[rj]|--raw-output|--join-output")


@lru_cache(maxsize=256)
def _json_variables(code: str) -> frozenset[str]:
    """The variables the shell code gives a JSON object (a jq -n without -r, or a literal)."""
    return frozenset(m.group("name") for m in SH_JSON_VARIABLE.finditer(code)
                     if m.group("jq") is None or not JQ_RAW.search(m.group("jq")))


def _redirection_end(word: str) -> int | None:
    """Where a redirection that starts a word ends: digits, then `>`, `>>`, `&>` or `&>>` (`>&` and
    `>|` are read as their `>`), None for a word that is none (the pattern's compile was 0.5 M
    instructions of doctor on a typical file)."""
    at = 0
    while at < len(word) and word[at].isdecimal():
        at += 1
    if word.startswith(">", at):
        return at + 1 + word.startswith(">", at + 1)
    if word.startswith("&>", at):
        return at + 2 + word.startswith(">", at + 2)
    return None


def _sh_reads_stdin(word: str, rest: str) -> bool:
    """Does this cat, jq or read take its input from the hook's stdin (no file, no -n)?"""
    words = rest.split()
    if "'" in rest or '"' in rest:  # a quoted filter with spaces ('.a // empty') is one word
        try:
            words = shlex.split(rest)
        except ValueError:
            pass
    if word == "read":
        return True
    kept, target = [], False  # (a redirection's target is no file it reads: `cat >> log`)
    for w in words:
        if target:
            target = False
        elif (redirection := _redirection_end(w)) is not None:
            target = redirection == len(w)
        else:
            kept.append(w)
    words = kept
    if word == "cat":
        files = [w for w in words if not w.startswith("-") or w == "-"]
        return not files or files == ["-"] or files == ["/dev/stdin"]
    options_with_value = {"--arg", "--argjson", "--slurpfile", "--rawfile", "--indent", "-L", "--tab"}
    if any(w in ("-n", "--null-input") or (w.startswith("-") and not w.startswith("--") and "n" in w) for w in words):
        return False
    positional, skip = [], 0
    for w in words:
        if skip:
            skip -= 1
            continue
        if w in ("--arg", "--argjson", "--slurpfile", "--rawfile"):
            skip = 2
        elif w in options_with_value:
            skip = 1
        elif w in ("-f", "--from-file"):
            positional.append("<filter>")
            skip = 0
        elif not w.startswith("-"):
            positional.append(w)
    return len(positional) <= 1


def _answer_values(code: str, pattern: Any) -> Iterator[tuple[str, re.Match[str]]]:
    """(field, match) for each value `pattern` finds written to an answer's field (a "decision"
    only where the code answers: see _answering)."""
    for match in pattern.finditer(code):
        field = match.group("field")
        if field != "decision" or _answering(code, match.start()):
            yield field, match


def _sh_values(code: str, place: Places) -> tuple[Value, ...]:
    assigned: dict[str, list[str]] = {}
    for match in SH_ASSIGN.finditer(code):
        assigned.setdefault(match.group("name"), []).append(match.group("value"))
    out = []
    for field, match in _answer_values(code, SH_VALUE):
        if match.group("lit"):
            out.append(Value(field, match.group("lit"), place(match.start()), ""))
        elif match.group("var") in assigned:
            out += [Value(field, v, place(match.start()), match.group("var")) for v in assigned[match.group("var")]]
    args = {m.group("name"): m for m in SH_JQ_ARG.finditer(code)}
    for match in SH_JQ_USE.finditer(code):
        arg = args.get(match.group("name"))
        if arg is None:
            continue
        if arg.group("lit"):
            out.append(Value(match.group("field"), arg.group("lit"), place(match.start()), "$" + match.group("name")))
        elif arg.group("var") in assigned:
            out += [Value(match.group("field"), v, place(match.start()), arg.group("var"))
                    for v in assigned[arg.group("var")]]
    return tuple(out)


# ---- Perl: its exits, what it says on stderr before them, and whether it prints on stdout ------------------

PERL_EXIT = lazy(r"""(?<![\w$>-])exit\b\s*\(?\s*(?P<status>\d+\b)?""", needs=("exit",))
PERL_STDERR = lazy(r"""(?:print|printf|say)\s*\(?\s*(?:STDERR|\*STDERR|\{\s*\*?STDERR\s*\})\s+(?P<said>"[^"\n]*"|'[^'\n]*')|"""
                   r"""\bwarn\s*\(?\s*(?P<warned>"[^"\n]*"|'[^'\n]*')""")
PERL_STDOUT = lazy(r"""(?<![\w$>-])(?:print|printf|say)\b(?!\s*\(?\s*(?:STDERR|\*STDERR|\{|\$\w+\s))""",
                   needs=("print", "say"))


def _perl(code: str, at: Offsets, common: Common) -> Flow:
    """A Perl script's exits (`exit 2;`, `exit($status)`) with the stderr line just before each;
    what it prints on stdout is not told apart (unread_output), so the rules of its answer's
    shape stay quiet."""
    exits = []
    for match in PERL_EXIT.finditer(code):
        status = match.group("status")
        arg_follows = status is None and code[match.end():match.end() + 1] not in (";", "}", ")", "")
        said = [m.group("said") or m.group("warned") for m in PERL_STDERR.finditer(code, max(0, match.start() - 240),
                                                                                     match.start())]
        exits.append(Exit(None if arg_follows else int(status or 0), match.group(0).strip(),
                          " ".join(text.strip("\"'") for text in said), Place(*at(match.start()))))
    return Flow(exits=tuple(exits), unread_output=PERL_STDOUT.search(code) is not None, **common)


# ---- objects written as text (shell JSON, jq, JavaScript) ----------------------------------------------

LABELLED_INPUT = lazy(r"""\\?["'`]?(?:updatedInput|updated_input)\\?["'`]?\s*:\s*\{|"""
                      r"""(?:const|let|var)\s+updatedInput\s*=\s*\{""", needs=("updatedInput", "updated_input"))


JS_PLUS = lazy(r"\s*\+")
OBJECT_TOKEN = lazy(r"""[{}\[\]]|(?P<q>\\?["'`]?)(?P<key>[A-Za-z_]\w*)(?P=q)\s*:(?!:)|"""
                    r"""(?:^|(?<=,))\s*(?P<short>[A-Za-z_$][\w$]*)\s*(?=,|$)""")  # a bracket, a key, a shorthand


def _labelled_objects(code: str, place: Places, javascript: bool = False) -> list[tuple[Place, list[str], bool]]:
    """Each `updatedInput: {...}` object: where, its direct keys, whether it spreads or merges
    another object in; in JavaScript also each object the code assigns to a variable it gives as
    updatedInput."""
    out, seen = [], set()
    for match in LABELLED_INPUT.finditer(code):
        seen.add(match.end() - 1)
        out += _object_keys(code, match.end() - 1, place(match.start()))
    return out + (_js_variable_inputs(code, place, seen) if javascript else [])


def _object_keys(code: str, start: int, at: Place) -> list[tuple[Place, list[str], bool]]:
    """The object whose `{` is at `start`: [(at, its direct keys, whether it spreads or merges
    another object in)], or [] where it names no key."""
    end = _close(code, start)
    body = code[start + 1:end]
    spread = "..." in body or "**" in body or JS_PLUS.match(code[end + 1:end + 8]) is not None
    keys, depth = [], 0
    for token in OBJECT_TOKEN.finditer(body):
        if token.group(0) in "{[":
            depth += 1
        elif token.group(0) in "}]":
            depth -= 1
        elif depth == 0 and (token.group("key") or token.group("short")):
            keys.append(token.group("key") or token.group("short"))
    return [(at, keys, spread)] if keys else []


JS_INPUT_VARIABLE = lazy(r"""(?:updatedInput|updated_input)\s*:\s*(?P<var>[A-Za-z_$][\w$]*)\s*[,}\n]|"""
                         r"""[{,]\s*(?P<short>updatedInput|updated_input)\s*(?=[,}])""",
                         needs=("updatedInput", "updated_input"))
JS_GOES_ON = lazy(r"""\n\s*(?:[?:|&.+]|\?\?)""")  # the next line carries the expression on (`? {...}`, `: {...}`)


def _js_variable_inputs(code: str, place: Places, seen: set[int]) -> list[tuple[Place, list[str], bool]]:
    """The objects the code assigns to a variable it gives as updatedInput (`updatedInput: next`,
    or the shorthand `{updatedInput}`): each arm of a `cond ? {...} : {...}` and each branch's
    assignment, where the object is written."""
    names = {m.group("var") or m.group("short") for m in JS_INPUT_VARIABLE.finditer(code)}
    out = []
    for name in sorted(names):
        for match in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*(?::\s*[\w<>|\[\]\"' ]+)?=(?![=>])", code):
            for start in _js_objects_of(code, match.end()):
                if start not in seen:
                    seen.add(start)
                    out += _object_keys(code, start, place(start))
    return out


def _js_objects_of(code: str, start: int) -> list[int]:
    """The `{` of each object literal the expression starting at `start` may give (the arms of
    `?:`, `||`, `??`), up to the end of its statement."""
    found: list[int] = []
    i, depth = start, 0
    while i < len(code):
        ch = code[i]
        if ch == "{" and depth == 0:
            found.append(i)
            i = _close(code, i) + 1
            continue
        if ch in "\"'`":
            end = code.find(ch, i + 1)
            while end > 0 and code[end - 1] == "\\":
                end = code.find(ch, end + 1)
            i = len(code) if end < 0 else end + 1
            continue
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (ch in ";,}" or (ch == "\n" and found and not JS_GOES_ON.match(code, i))):
            break
        i += 1
    return found


def raw_flag(word: str) -> bool:
    """Whether an option makes jq print a string raw: -r or -j, alone or among one-letter flags
    (-rc), --raw-output[0], --join-output (a plain test: as a regex, a compile of 0.8 M instructions
    of doctor on a typical file)."""
    word = word[:-1] if word.endswith("\n") else word  # (as `$` read it)
    if word in ("--raw-output", "--raw-output0", "--join-output"):
        return True
    letters = word[1:]
    return word.startswith("-") and letters.isascii() and letters.isalpha() and ("r" in letters or "j" in letters)
