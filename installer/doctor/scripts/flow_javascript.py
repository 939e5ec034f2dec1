"""What a JavaScript or TypeScript hook script does at run time, read from its code with the
braces followed: flow.py's reader for that language, loaded only by a run that reads one (flow.py
says what a flow holds and reads the other languages)."""

from __future__ import annotations

import bisect
import heapq
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ...document import LineIndex
from ...patterns import lazy
from ...records import Record
from . import arguments, delivery, delivery_javascript, event_branches, runtimes
from .flow import (
    ANSWER_OBJECT,
    DEBUG_FLAG,
    EVENT_NAMES,
    SELF_TEST,
    STDOUT_JSON,
    STDOUT_TEXT,
    Arms,
    Exit,
    Flow,
    Place,
    StdinRead,
    Value,
    Write,
    _answer_values,
    _balanced,
    _close,
    _labelled_objects,
    _line_at,
    _new_inputs,
    _second_answer,
    _second_reads,
)

if TYPE_CHECKING:
    from .flow import Branch, Common, Offsets, Places


def javascript_flow(text: str, code: str, at: Offsets, common: Common, path: Path | None) -> Flow:
    """The flow of a JavaScript or TypeScript script (`common`: what every language's reader finds in its code)."""
    flow = _javascript(code, at, common)
    flow.lost_blocks, flow.joined_answers = delivery.parted(delivery_javascript.javascript(code, at, _close, _balanced)
                                                            + tuple(runtimes.js_lost_statuses(code, at, _close, _balanced)))
    flow.early_exit = delivery_javascript.javascript_early_exit(code, at, _close)
    flow.argv_regions = _argv_regions(code)
    flow.argument_reads = _argument_reads(code, at)
    flow.event_branches = _event_branches(code, lambda offset: at(offset)[0], EVENT_NAMES)
    if path is not None and path.suffix:
        from .plugins import syntax_error  # tree-sitter (about 20 ms with a grammar): only for a JavaScript file

        broken = syntax_error(path, text.encode("utf-8", "replace"))
        if broken is not None:
            flow.syntax_error = ("a syntax error", Place(broken.line, broken.column))
    return flow

JS_WRITE = lazy(r"""(?<![\w.$])(?:console\.(?P<log>log|info|debug|dir|table)|process\.stdout\.write)\s*\(""",
                needs=("console.", "process.stdout.write"))
# an exit: process.exit (Deno.exit), process.exitCode, or a throw nothing catches (Node, Bun and Deno
# then exit 1, whatever the class: docs/hosts/claude-code.md#what-a-runtime-does-on-its-own); a class is
# capitalised (`throw new MigrationLocked(...)`), a string may be thrown as it is (`throw "..."`)
JS_EXIT = lazy(r"""(?<![\w.$])(?:(?:process|Deno)\.exit\s*\(\s*(?P<code>\d+)?\s*\)|process\.exitCode\s*=\s*(?P<set>\d+)|"""
               r"""throw\s+(?:(?:new\s+)?(?P<error>[A-Z][\w$]*)\s*\(\s*(?P<msg>`[^`]*`|"[^"]*"|'[^']*')?|"""
               r"""(?P<thrown>`[^`]*`|"[^"]*"|'[^']*')))""", needs=("exit", "throw"))
# what decides the status of every uncaught throw and rejection, in place of the runtime
JS_THROW_HANDLED = lazy(r"""process\.on\(\s*["'](?:uncaughtException|unhandledRejection)|"""
                        r"""setUncaughtExceptionCaptureCallback|addEventListener\(\s*["'](?:error|unhandledrejection)""",
                        needs=("uncaught", "Uncaught", "unhandled", "Unhandled", "addEventListener"))
# node:assert's assert(cond, "message") and its checks throw an AssertionError when they fail
JS_ASSERT = lazy(r"""(?<![\w$.])assert(?:\.(?:ok|equal|strictEqual|notEqual|notStrictEqual|match|doesNotMatch|"""
                 r"""deepEqual|deepStrictEqual|fail))?\s*\(""", needs=("assert",))
JS_ASSERT_IMPORTED = lazy(r"""(?:require\(\s*|from\s+)["'](?:node:)?assert(?:/strict)?["']""", needs=("assert",))
JS_LAST_STRING = lazy(r"""(`[^`]*`|"[^"]*"|'[^']*')\s*$""")
JS_CAUGHT_AFTER = lazy(r"""\s*\)\s*\.\s*catch\s*\(""")  # main().catch(...): its rejection handled
JS_READ = lazy(r"""readFileSync\s*\(\s*(?:0|["']/dev/stdin["']|process\.stdin\.fd)\s*[,)]""", needs=("readFileSync",))
JS_VALUE = lazy(r"""(?P<field>permissionDecision|decision|behavior|permission)["']?\s*:\s*"""
                      r"""(?:["'`](?P<lit>[A-Za-z_]+)["'`]\s*(?=[,}\n])|(?P<var>[A-Za-z_$][\w$]*)\s*(?:\[|[,}\n])|"""
                      r"""(?P<choice>[^,}\n?]+\?[^,}\n]+))""", needs=("decision", "behavior", "permission"))
JS_SHORTHAND = lazy(r"""[{,]\s*(?P<field>permissionDecision|decision|behavior|permission)\s*(?=[,}])""",
                    needs=("decision", "behavior", "permission"))
JS_ASSIGN = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[\w<>|" ']+)?=\s*(?P<value>[^;\n]+)""")
JS_TRY = lazy(r"""\btry\s*\{""", needs=("try",))


JS_RETURNED = lazy(r"""\breturn\s+$""", needs=("return",))  # `return console.log(...)`: the write ends the function
JS_RETURNS_AFTER = lazy(r"""\s*\)\s*;?\s*(?:return\b|process\.exit\b)""")
JS_CONSOLE_ERROR = lazy(r"""console\.(?:error|warn)\(\s*[`'"]([^`'"]*)""")
# process.exit(code) with a status that is not a literal; and stdout written past console and process.stdout (Bun's)
JS_EXIT_OTHER = lazy(r"""(?<![\w.$])process\.exit(?:Code\s*=\s*(?!\d)|\s*\(\s*(?![\d)]))""", needs=("process.exit",))
JS_OTHER_STDOUT = lazy(r"""\bBun\.stdout\b|\bBun\.write\(\s*1\b""", needs=("Bun.",))
JS_STDERR_WRITE = lazy(r"""(?<![\w.$])(?:console\.(?:error|warn)|process\.stderr\.write)\s*\(""",
                       needs=("console.", "process.stderr"))
JS_STRINGIFIED = lazy(r"""JSON\.stringify\(\s*(?P<name>[A-Za-z_$][\w$]*)\s*[,)]""", needs=("JSON.stringify",))


def _javascript(code: str, at: Offsets, common: Common) -> Flow:
    def place(offset: int) -> Place:
        return Place(*at(offset))

    blocks = _js_blocks(code)
    tries = _Spans([(m.end() - 1, _close(code, m.end() - 1)) for m in JS_TRY.finditer(code)])
    guarded_calls: dict[str, bool] = {}  # function: called inside a try
    writes, exits, reads, inspected = [], [], [], []
    unread_output = JS_OTHER_STDOUT.search(code) is not None
    for match in JS_WRITE.finditer(code):
        argument = _balanced(code, match.end())
        kind = _js_kind(argument.strip(), code)
        if kind is None:
            unread_output = True
            if match.group("log") and _js_answer_object(argument.strip(), code):
                inspected.append(place(match.start()))
            continue
        branch, scope = blocks(match.start())
        line = _line_at(code, match.start())
        if kind == STDOUT_TEXT and (DEBUG_FLAG.search(line[:line.find("console")]) or (
                isinstance(branch, Arms) and branch.debug)):
            continue  # behind a debug flag
        after = code[match.end() + len(argument):match.end() + len(argument) + 120]
        ends = bool(JS_RETURNS_AFTER.match(after) or JS_RETURNED.search(code, max(0, match.start() - 20), match.start()))
        writes.append(Write(kind, place(match.start()), code[match.start():match.end()] + argument[:40] + ")",
                            branch, scope, ends, match.start()))
    for offset, what in runtimes.js_child_output(code, _balanced):
        branch, scope = blocks(offset)
        writes.append(Write(STDOUT_TEXT, place(offset), what, branch, scope, False, offset))
    loggers, stdout_config = _js_stdout_loggers(code)
    for match in JS_LOG_CALL.finditer(code) if loggers else ():
        if match.group("name") in loggers:
            branch, scope = blocks(match.start())
            writes.append(Write(STDOUT_TEXT, place(match.start()), f"{match.group(0)}...) (logging to stdout)",
                                branch, scope, False, match.start()))
    writes.sort(key=lambda write: write.order)
    handled = JS_THROW_HANDLED.search(code) is not None
    for match in JS_EXIT.finditer(code):
        if match.group("error") or match.group("thrown"):
            if handled or tries.inside(match.start()) or _js_caught_where_called(
                    code, blocks(match.start())[1], blocks, tries, guarded_calls):
                continue
            said = (match.group("msg") or match.group("thrown") or "").strip("`'\"")
            exits.append(Exit(1, f"throw {match.group('error')}(...)" if match.group("error") else "throw (a string)",
                              said, place(match.start())))
            continue
        status = match.group("code") or match.group("set") or "0"
        before = code[max(0, match.start() - 240):match.start()]
        said = " ".join(m.group(1) for m in JS_CONSOLE_ERROR.finditer(before))
        exits.append(Exit(int(status), match.group(0), said, place(match.start())))
    for match in JS_ASSERT.finditer(code) if JS_ASSERT_IMPORTED.search(code) and not handled else ():
        message = JS_LAST_STRING.search(_balanced(code, match.end()))
        function = blocks(match.start())[1]
        if message is not None and not tries.inside(match.start()) and not SELF_TEST.search(function) and \
                not _js_caught_where_called(code, function, blocks, tries, guarded_calls):
            exits.append(Exit(1, f"{match.group(0).rstrip('( ')}(...) (an AssertionError when it fails)",
                              message.group(1).strip("`'\""), place(match.start())))
    exits += [Exit(None, match.group(0), "", place(match.start())) for match in JS_EXIT_OTHER.finditer(code)]
    exits += _js_returned_statuses(code, place)
    for match in JS_READ.finditer(code):
        branch, scope = blocks(match.start())
        reads.append(StdinRead(place(match.start()), branch, scope, match.start()))
    stderr_answers = tuple(place(m.start()) for m in JS_STDERR_WRITE.finditer(code)
                           if _js_answer(_balanced(code, m.end()).strip(), code))
    flow = Flow(writes=tuple(writes), exits=tuple(exits), stdin_reads=_second_reads(reads),
                values=_js_values(code, place), stderr_answers=stderr_answers, unread_output=unread_output, **common,
                new_inputs=_new_inputs(_labelled_objects(code, place, javascript=True)))
    flow.stdout_config = place(stdout_config) if stdout_config is not None else None
    flow.reads_stdin = bool(reads)
    flow.partial_reads = tuple((what, place(offset)) for offset, what in runtimes.js_partial_reads(code, _close, _balanced))
    flow.inspected_answers = tuple(inspected)
    flow.second_answer = _second_answer(writes, [])
    # the functions that write, called where every run goes (the top level, outside any if) or
    # beside an answer (in the function that prints it): not a CLI mode's helper in another arm
    scopes = {w.scope for w in writes if w.scope}
    answering = {w.scope for w in writes if w.kind != STDOUT_TEXT}
    for match in JS_CALL.finditer(code) if scopes else ():
        if match.group(1) in scopes:
            branch, scope = blocks(match.start())
            if (not scope and not tuple(branch)) or (scope and scope in answering):
                flow.call_lines[match.group(1)] = place(match.start()).line
    flow.called = frozenset(flow.call_lines)
    return flow


JS_CALL = lazy(r"(?<![\w$.])(?<!function )([A-Za-z_$][\w$]*)\s*\(")  # a call (not the definition) of a name


JS_OBJECT_DECLARED = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[\w<>|" ']+)?=\s*\{""")


def _js_answer_object(argument: str, code: str) -> bool:
    """console.log's only argument is an answer object: a literal (`{hookSpecificOutput: ...}`) or a
    name declared with one, holding the answer's keys. console.log formats an object with
    util.inspect (unquoted keys, single quotes), not as JSON (measured: node 20.20.2, bun 1.3.14)."""
    if argument.startswith("{"):
        return _close(argument, 0) == len(argument) - 1 and ANSWER_OBJECT.search(argument) is not None
    if not JS_NAME.match(argument):
        return False
    for declared in JS_OBJECT_DECLARED.finditer(code):
        if declared.group("name") == argument:
            return ANSWER_OBJECT.search(code[declared.end() - 1:_close(code, declared.end() - 1) + 1]) is not None
    return False


def _js_caught_where_called(code: str, function: str, blocks: Callable[[int], tuple[Branch, str]],
                            tries: "_Spans", known: dict[str, bool]) -> bool:
    """Whether what a function throws is caught where it is called: a call inside a try, a call
    whose promise has a .catch, or a call from a function that is itself caught so (a throw at
    the top level is caught nowhere)."""
    if not function:
        return False
    if function not in known:
        known[function] = False  # (a function that calls itself: its own calls decide nothing)
        caught = False
        for call in re.finditer(rf"(?<![\w$.]){re.escape(function)}\s*\(", code):
            if delivery_javascript.JS_DEFINED_HERE.search(code[max(0, call.start() - 20):call.start()]):
                continue
            arguments = _balanced(code, call.end())
            if tries.inside(call.start(), call.end()) or JS_CAUGHT_AFTER.match(code, call.end() + len(arguments)) or \
                    _js_caught_where_called(code, blocks(call.start())[1], blocks, tries, known):
                caught = True
                break
        known[function] = caught
    return known[function]


# loggers that write to stdout unless told otherwise: pino (its destination is fd 1 by default) and
# winston's Console transport (stdout for every level not in stderrLevels / consoleWarnLevels)
JS_LOGGER = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=\s*(?:(?P<pino>(?:require\(\s*["']pino["']\s*\)|"""
                 r"""\bpino)\s*\()|(?P<winston>(?:winston\.)?createLogger\s*\())""", needs=("pino", "createLogger"))
JS_CONSOLE_TRANSPORT = lazy(r"""transports\.Console\s*\(""", needs=("Console",))
JS_LOG_CALL = lazy(r"""(?<![\w$.])(?P<name>[A-Za-z_$][\w$]*)\.(?:info|warn|error|debug|trace|fatal|log|verbose|http)\s*\(""")
# what sends a logger elsewhere than stdout: pino's destination other than fd 1, or a transport
# this does not follow; winston's levels sent to stderr
JS_PINO_ELSEWHERE = lazy(r"""process\.stderr|destination\s*\(\s*(?!1\b|\))|\bdest(?:ination)?\s*:\s*(?!1\b)|\btransports?\s*:|"""
                         r"""\bstream\s*:""")
JS_WINSTON_ELSEWHERE = lazy(r"""stderrLevels|consoleWarnLevels|process\.stderr""")


def _js_stdout_loggers(code: str) -> tuple[set[str], int | None]:
    """The loggers a Node script makes that write to stdout (their names), and where the first is
    made (the line to change): `pino()` without a destination, a winston logger with a Console
    transport and no stderrLevels."""
    names, first = set(), None
    for match in JS_LOGGER.finditer(code):
        arguments = _balanced(code, match.end())
        if (JS_PINO_ELSEWHERE.search(arguments) if match.group("pino") else
                JS_WINSTON_ELSEWHERE.search(arguments) or not JS_CONSOLE_TRANSPORT.search(arguments)):
            continue
        names.add(match.group("name"))
        if first is None:
            first = match.start("pino" if match.group("pino") else "winston")
    return names, first


# a function whose return value is the exit status: process.exit(main()), process.exitCode = await main(),
# main().then(process.exit), main().then((code) => process.exit(code))
JS_EXIT_THROUGH = lazy(r"""process\.exit(?:Code\s*=\s*|\s*\(\s*)(?:await\s+)?(?P<fn>[A-Za-z_$][\w$]*)\s*\(|"""
                       r"""(?<![\w$.])(?P<then>[A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\.then\(\s*(?:process\.exit\b|\(?\s*"""
                       r"""(?P<v>[A-Za-z_$][\w$]*)\s*\)?\s*=>\s*\{?\s*process\.exit(?:Code\s*=\s*|\s*\(\s*)(?P=v)\b)""",
                       needs=("process.exit",))
JS_RETURN_STATUS = lazy(r"""(?<![\w$.])return\s+(?P<status>\d+)\s*[;}\n]""", needs=("return",))


def _js_returned_statuses(code: str, place: Places) -> list[Exit]:
    """`return 2` in a function whose return value is the exit status (JS_EXIT_THROUGH): an exit
    with that status, where it returns."""
    names = {m.group("fn") or m.group("then") for m in JS_EXIT_THROUGH.finditer(code)}
    if not names:
        return []
    from .imports import function_spans

    spans = function_spans(code, "javascript")
    out = []
    for name in sorted(names & spans.keys()):
        start, end = spans[name]
        for match in JS_RETURN_STATUS.finditer(code, start, end):
            before = code[max(0, match.start() - 240):match.start()]
            said = " ".join(m.group(1) for m in JS_CONSOLE_ERROR.finditer(before))
            out.append(Exit(int(match.group("status")), f"return {match.group('status')} from {name}() (the exit status)",
                            said, place(match.start())))
    return out


class _Spans:
    """(start, end) spans of a text, asked whether they hold an offset (or a stretch)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = sorted(spans)
        self.starts = [start for start, _ in self.spans]
        self.reach: list[int] = []  # the furthest end among the spans up to each
        for _, end in self.spans:
            self.reach.append(max(end, self.reach[-1]) if self.reach else end)

    def inside(self, start: int, end: int | None = None) -> bool:
        """Whether a span holds start (strictly), and the stretch to `end` with it."""
        index = bisect.bisect_left(self.starts, start) - 1
        if index < 0 or self.reach[index] <= start:
            return False
        if end is None:
            return True
        return any(s < start and end <= e for s, e in self.spans[:index + 1])


def _js_answer(argument: str, code: str) -> bool:
    """Whether a write of `argument` writes an answer's JSON: JSON.stringify of an object with an
    answer's keys, written in place or assigned to the variable it names (`const out = {...}`)."""
    if _js_kind(argument, code) != STDOUT_JSON:
        return False
    named = JS_STRINGIFIED.match(argument)
    if named:
        assigned = re.search(rf"(?<![\w$.]){re.escape(named.group('name'))}\s*=\s*\{{", code)
        return assigned is not None and bool(ANSWER_OBJECT.search(_balanced(code, assigned.end())))
    return bool(ANSWER_OBJECT.search(argument))




JS_STRING_START = lazy(r"""^(["'`])(.*)""", re.S)
JS_NAME = lazy(r"^[A-Za-z_$][\w$]*$")


def _js_kind(argument: str, code: str) -> str | None:
    if "JSON.stringify" in argument:
        return STDOUT_JSON
    literal = JS_STRING_START.match(argument)
    if literal:
        body = literal.group(2).strip()
        if not body or body.startswith("${"):
            return None
        return STDOUT_JSON if body.startswith("{") else STDOUT_TEXT
    if JS_NAME.match(argument):
        declared = _js_declared(code).get(argument)
        if declared:
            return STDOUT_JSON if declared == "JSON.stringify" else None
    return None


JS_DECLARED = lazy(r"""(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(JSON\.stringify|["'`])""")


@lru_cache(maxsize=8)
def _js_declared(code: str) -> dict[str, str]:
    """{name: JSON.stringify or the quote} of the first string or JSON.stringify each name is
    declared with (one pass over the code, not a search per write)."""
    declared: dict[str, str] = {}
    for match in JS_DECLARED.finditer(code):
        declared.setdefault(match.group(1), match.group(2))
    return declared


JS_BLOCK_START = lazy(r"""\b(?P<kw>if|else|catch|try)\b[^{;]*\{|"""
                      r"""(?:function\s+(?P<fn>[\w$]+)[^{]*|(?P<arrow>[\w$]+)\s*=\s*(?:async\s*)?\([^)]*\)\s*=>\s*)\{""")


class _JsBlock(Record):
    start: int  # its opening brace
    end: int  # its closing brace
    arms: Arms | None  # the if/else arms it is in, itself included when it is one
    function: str  # the function it is in ("" at the top level)


def _js_blocks(code: str) -> Callable[[int], tuple[Branch, str]]:
    """A function giving, for an offset, its branch (if/else arms) and its function. Blocks nest
    (their braces are matched by counting), so the blocks around an offset are a stack that
    offsets asked in increasing order open and close as they go: each block is met once per
    sweep, and each arm's chain of outer arms is built once."""
    blocks: list[_JsBlock] = []
    open_blocks: list[_JsBlock] = []
    pending: list[tuple[int, int, int]] = []  # ended if/else arms: (end, start, frame), by end
    latest: tuple[int, int] | None = None  # (end, frame) of the arm ending last among those ended: the one before
    arm_counts: dict[int, int] = {}  # frame: its arms so far
    for match in JS_BLOCK_START.finditer(code):
        start = match.end() - 1
        end = _close(code, start)
        while open_blocks and open_blocks[-1].end <= start:
            open_blocks.pop()
        outer = open_blocks[-1] if open_blocks else None
        arms, function = (outer.arms, outer.function) if outer else (None, "")
        if match.group("kw"):
            keyword = match.group("kw")
            while pending and pending[0][0] < start:
                ended = heapq.heappop(pending)
                if latest is None or ended[0] > latest[0]:
                    latest = (ended[0], ended[2])
            if keyword in ("if", "try"):
                frame, arm = start, 0
            else:  # the frame of the arm that ended last before it (an else or a catch belongs to it)
                frame = latest[1] if latest is not None else start
                arm = 1 + arm_counts.get(frame, 0)
            arm_counts[frame] = arm_counts.get(frame, 0) + 1
            heapq.heappush(pending, (end, start, frame))
            flagged = arm == 0 and bool(DEBUG_FLAG.search(code[max(0, frame - 80):frame].rsplit("if", 1)[-1]))
            arms = Arms(arms, frame, arm, flagged)
        else:
            function = match.group("fn") or match.group("arrow")
        block = _JsBlock(start, end, arms, function)
        blocks.append(block)
        open_blocks.append(block)
    sweep: list[_JsBlock] = []  # the blocks open at the last offset asked
    at = [0, -1]  # [next block to open, last offset asked]

    def where(offset: int) -> tuple[Branch, str]:
        if offset < at[1]:  # (asked again from the start: sweep again)
            sweep.clear()
            at[0] = 0
        at[1] = offset
        while at[0] < len(blocks) and blocks[at[0]].start < offset:
            block = blocks[at[0]]
            while sweep and sweep[-1].end <= block.start:
                sweep.pop()
            sweep.append(block)
            at[0] += 1
        while sweep and sweep[-1].end <= offset:
            sweep.pop()
        if not sweep:
            return (), ""
        inner = sweep[-1]
        return (() if inner.arms is None else inner.arms), inner.function

    return where


JS_TABLE_VALUE = lazy(r""":\s*["'`]([A-Za-z_]+)["'`]""")  # a lookup table's values
JS_QUOTED_WORD = lazy(r"""["'`]([A-Za-z_]+)["'`]""")
JS_SUBSCRIPT = lazy(r"\[[^\]]*\]")
JS_LOOKUP = lazy(r"\s*([A-Za-z_$][\w$]*)\s*(?:\[|\?\.\[|\.get\()")  # table[key], table.get(key)


def _js_values(code: str, place: Places) -> tuple[Value, ...]:
    assigned: dict[str, list[tuple[str, int]]] = {}
    for match in JS_ASSIGN.finditer(code):
        assigned.setdefault(match.group("name"), []).append((match.group("value"), match.start("value")))

    def literals(name: str, depth: int = 0) -> list[str]:
        found = []
        for value, start in assigned.get(name, ()) if depth < 3 else ():
            if value.lstrip().startswith("{"):  # a lookup table: its values
                table = code[start:_close(code, start + value.index("{"))]
                found += JS_TABLE_VALUE.findall(table)
                continue
            found += JS_QUOTED_WORD.findall(JS_SUBSCRIPT.sub("", value))
            lookup = JS_LOOKUP.match(value)
            if lookup:
                found += literals(lookup.group(1), depth + 1)
        return found

    out = []
    for field, match in _answer_values(code, JS_VALUE):
        if match.group("lit"):
            out.append(Value(field, match.group("lit"), place(match.start()), ""))
        elif match.group("choice"):  # a ? "x" : "y"
            out += [Value(field, v, place(match.start()), "") for v in
                    JS_QUOTED_WORD.findall(match.group("choice").split("?", 1)[1])]
        else:
            out += [Value(field, v, place(match.start()), match.group("var")) for v in literals(match.group("var"))]
    for field, match in _answer_values(code, JS_SHORTHAND):  # {behavior} is {behavior: behavior}
        out += [Value(field, v, place(match.start("field")), field) for v in literals(field)]
    return tuple(out)


# ---- the parts that run only when an argument is given, or not (arguments.py) ----------------------

JS_ARGV = r"(?:process\.argv|Bun\.argv|Deno\.args)"
JS_ARGV_NAME = lazy(rf"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\]|<> ]+)?=\s*{JS_ARGV}""",
                    needs=("argv", "Deno.args"))
MENTIONS_ARGV = lazy(r"argv|Deno\.args", needs=("argv", "Deno.args"))
STATEMENT_END = lazy(r";|\n")
JS_ARGV_IF = lazy(r"""(?<![\w$.])if\s*\(""", needs=("if",))
JS_ELSE = lazy(r"""\s*else\b""")


# the input parsed from an argument: JSON.parse(process.argv[2]), or from a name given one (no default)
JS_PARSED_ARGUMENT = lazy(r"""(?:JSON\.parse|readFileSync|readFile)\(\s*(?P<argv>process\.argv|Bun\.argv|Deno\.args)"""
                          r"""\[(?P<n>\d+)\]\s*[,)]""", needs=("JSON.parse", "readFile"))
JS_ARGUMENT_NAME = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=\s*(?P<argv>process\.argv|Bun\.argv|"""
                        r"""Deno\.args)\[(?P<n>\d+)\]\s*(?:;|$)""", re.M, needs=("argv", "Deno.args"))


def _argument_reads(code: str, at: Callable[[int], tuple[int, int]]) -> tuple[arguments.Read, ...]:
    """The hook's input parsed from an argument, or read from the file it names (JSON.parse of
    undefined throws, and readFileSync of it: exit 1)."""
    if ("JSON.parse" not in code and "readFile" not in code) or not MENTIONS_ARGV.search(code):
        return ()
    found = [(m, m.group(0).rstrip(",")) for m in JS_PARSED_ARGUMENT.finditer(code)]
    for named in JS_ARGUMENT_NAME.finditer(code):
        parsed = re.search(rf"(?:JSON\.parse|readFileSync|readFile)\(\s*{re.escape(named['name'])}\s*[,)]",
                           code[named.end():])
        if parsed:
            found.append((named, parsed.group(0).rstrip(",") + ("" if parsed.group(0).endswith(")") else ")")))
    reads = []
    for match, what in found:
        index = int(match["n"]) + (1 if match["argv"] == "Deno.args" else -1)  # (argv[0] is node, [1] the script)
        if index >= 1:
            reads.append(arguments.Read(index, *at(match.start()), what))
    return tuple(reads)


def _argv_regions(code: str) -> tuple[arguments.Region, ...]:
    """The regions of a Node, Bun or Deno script's argv tests."""
    if not MENTIONS_ARGV.search(code):
        return ()
    names = {m.group("name") for m in JS_ARGV_NAME.finditer(code)}
    argv = rf"(?:{JS_ARGV}|{'|'.join(map(re.escape, sorted(names)))})" if names else JS_ARGV
    tests = [
        (re.compile(rf"^\s*(?P<neg>!?)\s*{argv}(?:\.slice\([^)]*\))?\.includes\(\s*[\"'`](?P<lit>[^\"'`]+)[\"'`]\s*\)\s*$"), True),
        (re.compile(rf"^\s*{argv}(?:\[\d+\])?\s*(?P<op>===?|!==?)\s*[\"'`](?P<lit>[^\"'`]+)[\"'`]\s*$"), None),
        (re.compile(rf"^\s*[\"'`](?P<lit>[^\"'`]+)[\"'`]\s*(?P<op>===?|!==?)\s*{argv}(?:\[\d+\])?\s*$"), None),
    ]
    index = LineIndex(code)

    def line_of(offset: int) -> int:
        return index.at(offset)[0]

    regions: list[arguments.Region] = []
    for match in JS_ARGV_IF.finditer(code):
        condition = _balanced(code, match.end())
        test = _js_test(condition, tests)
        if test is None:
            continue
        argument, given = test
        after = match.end() + len(condition) + 1
        body_start, body_end, ends = _js_body(code, after)
        regions.append(arguments.Region(line_of(body_start), line_of(body_end), argument, given))
        otherwise = JS_ELSE.match(code, body_end + 1)
        if otherwise:
            start = otherwise.end()
            else_start, else_end, _ = _js_body(code, start)
            regions.append(arguments.Region(line_of(else_start), line_of(else_end), argument, not given))
        elif ends:
            outer = _enclosing_end(code, match.start())
            regions.append(arguments.Region(line_of(body_end) + 1, line_of(outer), argument, not given))
    return tuple(regions)


def _js_test(condition: str, tests: list[tuple[re.Pattern[str], bool | None]]) -> tuple[str, bool] | None:
    for pattern, includes in tests:
        found = pattern.match(condition)
        if found:
            if includes:
                return found.group("lit"), not found.group("neg")
            return found.group("lit"), found.group("op").startswith("=")
    return None


JS_ENDS = lazy(r"""(?:process\.exit|Deno\.exit)\s*\([^)]*\)\s*;?\s*\}?\s*$|\breturn\b[^;\n]*;?\s*\}?\s*$|\bthrow\b""")


def _js_body(code: str, start: int) -> tuple[int, int, bool]:
    """(start, end, whether it ends the run) of the statement or block an if's test is followed by."""
    i = start
    while i < len(code) and code[i] in " \t\r\n":
        i += 1
    if i < len(code) and code[i] == "{":
        end = _close(code, i)
    else:
        found = STATEMENT_END.search(code, i)
        end = found.start() if found else len(code)
    return i, end, bool(JS_ENDS.search(code[i:end + 1]))


def _enclosing_end(code: str, offset: int) -> int:
    """The end of the block an offset is in (the end of the code at the top level)."""
    depth, i = 0, offset
    while i > 0:
        i -= 1
        if code[i] == "}":
            depth += 1
        elif code[i] == "{":
            if depth == 0:
                return _close(code, i)
            depth -= 1
    return len(code) - 1


# ---- the parts that run for some events only (event_branches.py) ----------------------------------

JS_HOLDER = lazy(r"""(?:const|let|var)\s+(?:(?P<name>[A-Za-z_$][\w$]*)\s*=\s*[^;\n]*\bhook_event_name\b|"""
                 r"""\{[^{}]*\bhook_event_name\s*(?::\s*(?P<alias>[A-Za-z_$][\w$]*))?[^{}]*\}\s*=)""", needs=(event_branches.FIELD,))
JS_EVENT_IF = lazy(r"""\bif\s*\((?P<test>[^(){}]*)\)\s*\{""", needs=("if",))
JS_EQUALS = lazy(r"""(?P<left>[\w$.\[\]"']+)\s*===?\s*["'`](?P<event>\w+)["'`]|["'`](?P<event2>\w+)["'`]\s*===?\s*(?P<left2>[\w$.\[\]"']+)""")
JS_SWITCH = lazy(r"""\bswitch\s*\((?P<subject>[^(){}]*)\)\s*\{""", needs=("switch",))
JS_CASE = lazy(r"""\bcase\s+["'`](?P<event>\w+)["'`]\s*:|\bdefault\s*:""")


def _event_branches(code: str, line: Callable[[int], int], names: frozenset[str]) -> tuple[event_branches.Branch, ...]:
    if event_branches.FIELD not in code:
        return ()
    holders = {event_branches.FIELD} | {m.group("name") or m.group("alias") or event_branches.FIELD for m in JS_HOLDER.finditer(code)}
    found: list[event_branches.Branch] = []
    for match in JS_EVENT_IF.finditer(code):
        tested: set[str] = set()
        for part in match.group("test").split("||"):
            equal = JS_EQUALS.search(part)
            if equal is None:
                tested = set()
                break
            left, event = equal.group("left") or equal.group("left2"), equal.group("event") or equal.group("event2")
            if event not in names or not _js_names_field(left, holders):
                tested = set()
                break
            tested.add(event)
        if tested:
            found.append(event_branches.Branch(line(match.end()), line(_close(code, match.end() - 1)), frozenset(tested)))
    for match in JS_SWITCH.finditer(code):
        if not _js_names_field(match.group("subject"), holders):
            continue
        end = _close(code, match.end() - 1)
        cases = list(JS_CASE.finditer(code, match.end(), end))
        for index, case in enumerate(cases):
            stop = cases[index + 1].start() if index + 1 < len(cases) else end
            if case.group("event") in names:
                # (cases that fall through to this one share its body)
                shared = {case.group("event")}
                back = index - 1
                while back >= 0 and not code[cases[back].end():case.start()].strip() and cases[back].group("event"):
                    shared.add(cases[back].group("event"))
                    back -= 1
                found.append(event_branches.Branch(line(case.end()), line(stop), frozenset(shared)))
    return tuple(found)


def _js_names_field(text: str | None, holders: set[str]) -> bool:
    return text is not None and any(re.search(rf"(?<![\w$]){re.escape(h)}(?![\w$])", text) for h in holders)
