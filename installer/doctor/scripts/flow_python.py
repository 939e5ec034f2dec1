"""What a Python hook script does at run time, read from its syntax tree (`ast`): flow.py's
reader for the Python language, loaded only by a run that reads a Python script (flow.py says
what a flow holds and reads the other languages)."""

from __future__ import annotations

import ast
import sys
import warnings
import weakref
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterator

from ...patterns import lazy
from ...records import Record
from . import arguments, delivery, delivery_python, event_branches, runtimes
from .flow import (
    ANSWER_KEYS,
    DEBUG_FLAG,
    DECISION_FIELDS,
    EVENT_NAMES,
    SELF_TEST,
    STDOUT_JSON,
    STDOUT_TEXT,
    Exit,
    Flow,
    Place,
    StdinRead,
    Value,
    Write,
    _new_inputs,
    _second_answer,
    _second_reads,
)

if TYPE_CHECKING:
    from .flow import Common

# the flows of the last eight texts read (python_flow), keyed on the text: its one caller, flow.analyse,
# works `common` out of that text alone (its comments blanked, its own line index), and the flow is
# shared as keys._analyse shares a script's facts. The same script at other paths is read once: each
# project of a monorepo with git-guard installed holds its 44 KB runtime, and every install and
# uninstall checks it (20 projects' install and uninstall in one process: 4.8 s -> 2.9 s of CPU)
_KEPT: dict[str, Flow] = {}
_KEEP = 8


def python_flow(text: str, common: Common) -> Flow:
    """The flow of a Python script (`common`: what every language's reader finds in its code),
    kept for the last few texts (_KEPT)."""
    flow = _KEPT.get(text)
    if flow is None:
        flow = _KEPT[text] = _python_flow(text, common)
        if len(_KEPT) > _KEEP:
            del _KEPT[next(iter(_KEPT))]
    return flow


def _python_flow(text: str, common: Common) -> Flow:
    try:
        with warnings.catch_warnings():  # (the script's invalid escapes are for Python to warn of when it runs)
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except SyntaxError as error:
        where = Place(error.lineno or 1, error.offset or 1)
        return Flow(**common, syntax_error=(f"{error.msg}, for Python {sys.version_info[0]}.{sys.version_info[1]}",
                                            where))
    except (ValueError, RecursionError, MemoryError):
        return Flow(**common)
    flow = _python(tree, text, common)
    flow.lost_blocks, flow.joined_answers = delivery.parted(delivery_python.python(tree, _nodes(tree)))
    flow.argv_regions = _argv_regions(tree, _nodes(tree))
    flow.argument_reads = _argument_reads(_nodes(tree))
    flow.event_branches = _event_branches(_nodes(tree), EVENT_NAMES)
    return flow


PY_ANSWER_KEYS = {"reason", "hookSpecificOutput", "continue", "stopReason", "systemMessage", "suppressOutput"}
EXIT_CALLS = {"sys.exit", "exit", "quit", "os._exit", "_exit"}
STDIN_READS = {"sys.stdin.read", "sys.stdin.readlines", "sys.stdin.buffer.read", "sys.stdin.readline", "input"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else ""
    return ""


def _python(tree: ast.Module, text: str, common: Common) -> Flow:
    strings = _PyStrings(tree, text)
    loggers, stdout_config = _stdout_loggers(tree)
    loud = LOG_CALLS if _levelled(tree) else LOG_CALLS - BELOW_WARNING
    consoles = _rich_consoles(tree)
    writes, exits, reads, values, new_objects, string_inputs, stderr_answers = [], [], [], [], [], [], []
    sent_away: list[tuple[Place, str, Write]] = []  # an answer printed where stdout is a file or a buffer
    stops: list[tuple[Place, tuple[tuple[int, int], ...], str]] = []  # returns, raises and exits: the run ends there
    unread_output = False
    order = 0
    # what the file's try statements catch: a raise in a function may be caught where it is called
    caught = _caught_around_calls(tree)
    handed_out = _handed_out(tree)  # called by code of another file, which may catch what they raise

    def place(node: Any) -> Place:
        return Place(node.lineno, node.col_offset + 1)

    exit_through = _exit_through(tree)
    diverted = _stdout_diverted(tree)  # the functions that run only where stdout is stderr: where it was made so

    def walk(body: list[ast.stmt], branch: tuple[tuple[int, int], ...], scope: str, guarded: bool,
             debug: bool = False, redirected: Diverted | None = None) -> None:
        nonlocal order, unread_output
        for index, stmt in enumerate(body):
            redirected = _made_stderr(stmt, place) or (None if _restored(stmt) else redirected)
            if isinstance(stmt, ast.Return) and scope in exit_through and stmt.value is not None:
                status, message = _py_status(stmt.value, strings)  # sys.exit(main()): main's return is the status
                exits.append(Exit(status, f"return {_brief(stmt.value)} from {scope}() (the exit status)",
                                  message or _stderr_before(body, index, strings), place(stmt)))
            after = body[index + 1:]
            if _py_terminal(stmt) and not isinstance(stmt, (ast.Continue, ast.Break)):
                stops.append((place(stmt), branch, scope))
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                walk(stmt.body, (), stmt.name, False, redirected=diverted.get(stmt.name))
                continue
            if isinstance(stmt, ast.ClassDef):
                walk(stmt.body, (), stmt.name, False)
                continue
            for call in _calls(stmt):
                order += 1
                name = _name(call.func)
                write = _py_write(call, name, strings, loggers, consoles, loud)
                unread_output = unread_output or (write is None and _py_write(call, name, None, loggers, (), loud)
                                                  is not None)
                if _py_stderr_answer(call, name, strings):  # (at print's file=sys.stderr, the part to change)
                    stream = next((k.value for k in call.keywords if k.arg == "file"), call)
                    stderr_answers.append(place(stream))
                if write is not None and redirected is not None:  # (print() inside redirect_stdout(sys.stderr))
                    if write[0] == STDOUT_JSON and _py_answer_written(call, strings):
                        if redirected.stderr:
                            stderr_answers.append(redirected.at)
                        else:
                            sent_away.append((redirected.at, redirected.how, Write(write[0], place(call), write[1],
                                                                                 branch, scope, False, order)))
                elif write is not None and not (debug and write[0] == STDOUT_TEXT):
                    kind, what = write
                    writes.append(Write(kind, place(call), what, branch, scope, _ends_before_next_write(after), order,
                                        # (a return from a function whose result is the exit status ends it all)
                                        _ends_before_next_write(after, process=scope not in exit_through)))
                if name in EXIT_CALLS:
                    status, message = _py_status(call.args[0] if call.args else None, strings)
                    exits.append(Exit(status, f"{name}({_brief(call.args[0]) if call.args else ''})",
                                      message or _stderr_before(body, index, strings), place(call),
                                      _relays(call.args, exit_through)))
                if name in STDIN_READS or (name in ("json.load",) and call.args and _name(call.args[0]) == "sys.stdin"):
                    reads.append(StdinRead(place(call), branch, scope, order))
            if isinstance(stmt, ast.Assert) and stmt.msg is not None and not guarded and scope not in handed_out \
                    and not SELF_TEST.search(scope) and not (scope and _caught(caught.get(scope, set()), "AssertionError")):
                said = strings.text(stmt.msg)  # (a failed assert raises AssertionError: exit 1)
                exits.append(Exit(1, "assert ... (an AssertionError when it fails)", said or "", place(stmt)))
            if isinstance(stmt, ast.Raise) and stmt.exc is not None:
                exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
                args = stmt.exc.args if isinstance(stmt.exc, ast.Call) else []
                if _name(exc) == "SystemExit":
                    status, message = _py_status(args[0] if args else None, strings)
                    exits.append(Exit(status, f"raise SystemExit({_brief(args[0]) if args else ''})",
                                      message, place(stmt), _relays(args, exit_through)))
                elif not guarded and scope not in handed_out and not (scope and _caught(caught.get(scope, set()),
                                                                                         _name(exc))):
                    said = strings.text(args[0]) if args else None
                    exits.append(Exit(1, f"raise {_name(exc) or 'an exception'}(...)", said or "", place(stmt)))
            for child_body, arm in _arms(stmt):
                inner_guarded = guarded or (isinstance(stmt, ast.Try) and arm == 0 and bool(stmt.handlers))
                # a debug print behind a flag (if DEBUG:, if os.environ.get("HOOK_VERBOSE"):) is off by default
                flagged = debug or (isinstance(stmt, ast.If) and arm == 0 and DEBUG_FLAG.search(ast.unparse(stmt.test)))
                within = _redirect_to_stderr(stmt, place) if isinstance(stmt, (ast.With, ast.AsyncWith)) else None
                walk(child_body, branch + ((id(stmt), arm),) if arm is not None else branch, scope, inner_guarded,
                     bool(flagged), within or redirected)

    walk(tree.body, (), "", False)
    output_rewrites: list[tuple[str, str, Place]] = []
    functions = {node.name: node for node in _nodes(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in _nodes(tree):
        for field, value_node, at_node in _py_fields(node):
            if field == "decision" and isinstance(node, ast.Dict) and not {
                    k.value for k in node.keys if isinstance(k, ast.Constant)} & PY_ANSWER_KEYS:
                continue  # a record of the script's own, not its answer
            if field in DECISION_FIELDS:
                for value, via in strings.values(value_node):
                    values.append(Value(field, value, place(at_node), via))
            elif field in ("updatedInput", "updated_input"):
                # a name given its object in each arm of an if/else: each arm's object is the answer's
                arms = _alternative_values(tree, value_node.id) if isinstance(value_node, ast.Name) else None
                for target in arms or [strings.resolve(value_node) or value_node]:
                    built = place(target) if target is not value_node else place(at_node)  # (where the object is made)
                    if isinstance(target, ast.Dict):
                        keys = [k.value for k in target.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
                        spread = any(k is None for k in target.keys)
                        if isinstance(value_node, ast.Name):  # new = {}; new["file_path"] = ...: filled key by key
                            filled, merged = _filled_in(tree, value_node.id)
                            keys, spread = list(dict.fromkeys(keys + filled)), spread or merged
                        new_objects.append((built, keys, spread))
                    elif isinstance(target, ast.Call) and _name(target.func) == "dict" and not target.args:
                        new_objects.append((built, [k.arg for k in target.keywords if k.arg], False))
                    elif _is_string(target):
                        string_inputs.append(place(at_node))
            elif field in OUTPUT_REWRITES:
                output_rewrites.append((field, "text" if _py_text(value_node, strings, functions) else "", place(at_node)))
    call_lines: dict[str, int] = {}
    for node in _nodes(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            call_lines[name] = max(call_lines.get(name, 0), node.lineno)
    called = frozenset(call_lines)
    flow = Flow(unflushed_exit=_unflushed_exit(tree, text) if writes else None, output_rewrites=tuple(output_rewrites),
                writes=tuple(writes), exits=tuple(exits), stdin_reads=_second_reads(reads) or _reads_through_calls(tree, reads),
                values=tuple(values), called=called, stderr_answers=tuple(stderr_answers), unread_output=unread_output,
                new_inputs=_new_inputs(new_objects),
                input_as_string=tuple(sorted(set(string_inputs))),
                continue_false=common["continue_false"], stop_flag_from_env=common["stop_flag_from_env"],
                failure_fields=common["failure_fields"], input_reads=common["input_reads"],
                spaced_matches=common["spaced_matches"])
    flow.stdout_config = stdout_config
    flow.call_lines = call_lines
    flow.reads_stdin = bool(reads)
    flow.second_answer = _second_answer(writes, stops) or _py_finally_answer(tree, writes)
    flow.partial_reads = tuple((what, place(call)) for call, what in runtimes.python_partial_reads(tree, _name))
    flow.stdout_loggers = frozenset(loggers)
    flow.log_calls = _log_calls(tree)
    if sent_away and not writes:  # (no answer printed on the real stdout besides)
        flow.stdout_sent_away = sent_away[0]
    return flow


def _py_finally_answer(tree: ast.Module, writes: list[Write]) -> tuple[Write, Write] | None:
    """A JSON answer printed in a try and another in its finally: the finally runs after the
    try's return or sys.exit too, so one run prints both."""
    answers = {w.at: w for w in writes if w.kind == STDOUT_JSON}
    if len(answers) < 2:
        return None
    for node in _nodes(tree):
        if not isinstance(node, ast.Try) or not node.finalbody:
            continue
        tried = [Place(n.lineno, n.col_offset + 1) for part in (node.body, *(h.body for h in node.handlers), node.orelse)
                 for stmt in part for n in ast.walk(stmt) if isinstance(n, ast.Call)]
        final = [Place(n.lineno, n.col_offset + 1) for stmt in node.finalbody for n in ast.walk(stmt)
                 if isinstance(n, ast.Call)]
        first = next((answers[at] for at in tried if at in answers), None)
        second = next((answers[at] for at in final if at in answers), None)
        if first is not None and second is not None:
            return first, second
    return None


def _log_calls(tree: ast.Module) -> tuple[tuple[str, Place], ...]:
    """The file's log calls by receiver: a name (`log.info`, a logger a module hands it), or
    "logging" for the root logger and every logger the file gets by getLogger (their records go
    up to the root's handlers)."""
    own = {t.id for node in _nodes(tree) if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
           and _name(node.value.func) in ("logging.getLogger", "getLogger") for t in node.targets if isinstance(t, ast.Name)}
    calls = []
    for node in _nodes(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LOG_CALLS:
            receiver = _name(node.func.value)
            if receiver and "." not in receiver:
                calls.append(("logging" if receiver in own else receiver, Place(node.lineno, node.col_offset + 1)))
    return tuple(calls)


# what empties or bypasses Python's stdout buffer before the process ends
FLUSHES = lazy(r"\bflush\b|reconfigure|write_through|line_buffering|PYTHONUNBUFFERED|\bsys\.stdout\s*=|"
               r"\A#![^\n]*\s-[a-zA-Z]*u", needs=("flush", "reconfigure", "write_through", "line_buffering",
                                                 "PYTHONUNBUFFERED", "stdout", "#!"))


def _unflushed_exit(tree: ast.Module, text: str) -> Place | None:
    """The first os._exit() of a script that writes on stdout and never flushes it: stdout to a
    pipe is block-buffered, and os._exit ends the process without emptying the buffer, so what
    was written never leaves (a flush, print(..., flush=True), `-u` on the #! line or
    PYTHONUNBUFFERED keep it)."""
    exits = [node for node in _nodes(tree) if isinstance(node, ast.Call) and _name(node.func) in ("os._exit", "_exit")]
    if not exits or FLUSHES.search(text):
        return None
    first = min(exits, key=lambda n: (n.lineno, n.col_offset))
    return Place(first.lineno, first.col_offset + 1)


def _alternative_values(tree: ast.Module, name: str) -> list[ast.AST] | None:
    """The values a name is given, when it is given one in each of several arms of if/elif/else
    (`if ...: new = {**call, ...} else: new = {"command": ...}`) and nowhere else; else None."""
    found: list[tuple[tuple[tuple[int, int], ...], ast.AST]] = []

    def visit(body: list[ast.stmt], arms: tuple[tuple[int, int], ...]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                found.append((arms, stmt.value))
            if isinstance(stmt, ast.If):
                visit(stmt.body, arms + ((id(stmt), 0),))
                visit(stmt.orelse, arms + ((id(stmt), 1),))
            else:
                for inner in (getattr(stmt, field, None) for field in ("body", "orelse", "finalbody", "handlers")):
                    if isinstance(inner, list):
                        visit([s for s in inner if isinstance(s, ast.stmt)] +
                              [s for h in inner if isinstance(h, ast.ExceptHandler) for s in h.body], arms)

    visit(tree.body, ())
    if len(found) < 2 or any(name in {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} for _, value in found):
        return None
    for index, (arms, _) in enumerate(found):
        for other, _ in found[index + 1:]:
            if not any(a[0] == b[0] and a[1] != b[1] for a in arms for b in other):
                return None  # (one after the other: the last one counts)
    return [value for _, value in found]


def _filled_in(tree: ast.Module, name: str) -> tuple[list[str], bool]:
    """The string keys a dict variable is given one by one (`name["key"] = ...`), and whether
    anything else may be merged into it (name.update(...), name |= ..., name[key] = ...)."""
    keys, merged = [], False
    for node in _nodes(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == name:
                    if isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str):
                        keys.append(target.slice.value)
                    else:
                        merged = True  # new[key] = call[key] in a loop: it may copy them all
        elif isinstance(node, ast.Call) and _name(node.func) in (f"{name}.update", f"{name}.setdefault"):
            merged = True
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            merged = True
    return keys, merged


LINE_BREAK = lazy(r"(\r\n|\r|\n)")


def _exit_through(tree: ast.Module) -> set[str]:
    """The functions whose return value is the exit status: sys.exit(main()), raise
    SystemExit(main()), sys.exit(asyncio.run(main()))."""
    out = set()
    for node in _nodes(tree):
        if isinstance(node, ast.Call) and _name(node.func) in EXIT_CALLS | {"SystemExit"}:
            out.add(_called(node.args))
    return out - {""}


def _called(args: list[ast.expr]) -> str:
    """The function an exit's argument calls (`main` in sys.exit(main()) and sys.exit(asyncio.run(main()))), else ""."""
    called = args[0] if args else None
    if isinstance(called, ast.Call) and _name(called.func) == "asyncio.run" and called.args:
        called = called.args[0]
    return called.func.id if isinstance(called, ast.Call) and isinstance(called.func, ast.Name) else ""


def _relays(args: list[ast.expr], exit_through: set[str]) -> bool:
    """The exit's status is a function's return value, which the flow reads at each return."""
    return _called(args) in exit_through  # (never "": _exit_through leaves it out)


def _caught_around_calls(tree: ast.Module) -> dict[str, set[str]]:
    """{function: the exceptions a try around a call of it catches} ("*" for a bare except)."""
    out: dict[str, set[str]] = {}
    for node in _nodes(tree):
        if not isinstance(node, ast.Try) or not node.handlers:
            continue
        names = {(_name(t) if t is not None else "") or "*" for handler in node.handlers
                 for t in (handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type])}
        for stmt in node.body:
            for call in ast.walk(stmt):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name):
                    out.setdefault(call.func.id, set()).update(names)
    return out


def _handed_out(tree: ast.Module) -> set[str]:
    """The functions this file hands to code it does not hold (`hw.run(NAME, handle)`, a
    decorator, a callback argument), and those they call: what they raise goes back to that code,
    which may well catch it (a hook library's pass-through), so it is no known exit 1."""
    defined = {node.name: node for node in _nodes(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    handed = {name for name, node in defined.items() if node.decorator_list}
    for node in _nodes(tree):
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in defined):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if isinstance(arg, ast.Name) and arg.id in defined:
                    handed.add(arg.id)
    pending = list(handed)
    while pending:  # and the file's own functions they call
        for node in ast.walk(defined[pending.pop()]):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in defined \
                    and node.func.id not in handed:
                handed.add(node.func.id)
                pending.append(node.func.id)
    return handed


def _caught(caught: set[str], name: str) -> bool:
    return bool(caught & {"*", "Exception", "BaseException", name})


_NODES: weakref.WeakKeyDictionary[ast.Module, list[ast.AST]] = weakref.WeakKeyDictionary()


def _nodes(tree: ast.Module) -> list[ast.AST]:
    """Every node of the tree, listed once per tree (the readers below each go over all of them)."""
    listed = _NODES.get(tree)
    if listed is None:
        listed = _NODES[tree] = list(ast.walk(tree))
    return listed




def _reads_through_calls(tree: ast.Module, reads: list[StdinRead]) -> tuple[Place, ...]:
    """Functions that read stdin, called twice between them (`def tool_name(): return
    json.load(sys.stdin)[...]` next to `def tool_input(): ...`): the second call gets nothing."""
    readers = {scope: place for place, _, scope, _ in reversed(reads) if scope}
    calls = sorted(((node.lineno, node.col_offset), node.func.id) for node in _nodes(tree)
                   if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in readers)
    direct = sum(1 for _, _, scope, _ in reads if not scope)
    if calls and len(calls) + direct >= 2:
        return (readers[calls[-1][1]],)
    return ()


def _is_string(node: ast.AST | None) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Call) and _name(node.func) in ("json.dumps", "str"))


def _arms(stmt: Any) -> Iterator[tuple[list[ast.stmt], int | None]]:
    """The statement lists inside a statement, each with its arm (None: not a branch)."""
    if isinstance(stmt, ast.If):
        yield stmt.body, 0
        yield stmt.orelse, 1
    elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        yield stmt.body, 0
        for i, handler in enumerate(stmt.handlers):
            yield handler.body, i + 1
        yield stmt.orelse, 0
        yield stmt.finalbody, None
    elif isinstance(stmt, ast.Match):
        for i, case in enumerate(stmt.cases):
            yield case.body, i
    elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
        yield stmt.body, 0
        yield stmt.orelse, 1
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        yield stmt.body, None


_CALLS: weakref.WeakKeyDictionary[ast.stmt, list[ast.Call]] = weakref.WeakKeyDictionary()


def _calls(stmt: ast.stmt) -> list[ast.Call]:
    """The calls a statement makes itself (not those in its nested statements), listed once per
    statement: the flow's walk, its look-ahead to the next write and the stdout diversion each
    ask for them (three walks of the long Python script of tests/hostile_analysis.py were a
    third of doctor's time on it). Keyed on the statement itself, which nothing changes once
    parsed."""
    listed = _CALLS.get(stmt)
    if listed is None:
        listed = _CALLS[stmt] = _own_calls(stmt)
    return listed


def _own_calls(stmt: ast.stmt) -> list[ast.Call]:
    roots: list[ast.AST] = []
    if isinstance(stmt, (ast.If, ast.While)):
        roots = [stmt.test]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        roots = [stmt.iter]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        roots = [item.context_expr for item in stmt.items]
    elif isinstance(stmt, (ast.Try, ast.Match)) or type(stmt).__name__ == "TryStar":
        roots = [stmt.subject] if isinstance(stmt, ast.Match) else []
    elif not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        roots = [stmt]
    calls = [n for root in roots for n in ast.walk(root) if isinstance(n, ast.Call)]
    return sorted(calls, key=lambda n: (n.lineno, n.col_offset))


def _brief(node: ast.AST) -> str:
    """An argument as written, or `...` when it is long."""
    text = ast.unparse(node)
    return text if len(text) <= 40 else "..."


def _ends_before_next_write(after: list[ast.stmt], process: bool = False) -> bool:
    """Do the statements after a write end the run (`process`: the process, not just its
    function) before anything else is written?"""
    for stmt in after:
        if _py_terminal(stmt) and not (process and isinstance(stmt, (ast.Return, ast.Continue, ast.Break))):
            return True
        if any(_py_write(call, _name(call.func), None) is not None for call in _calls(stmt)):
            return False
        if not isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Import, ast.ImportFrom)):
            return False  # a branch or a loop: it may go either way
    return False


def _py_terminal(stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _name(stmt.value.func) in EXIT_CALLS


LOG_CALLS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
# what the standard logging drops while no level is set: the root logger's is WARNING (measured, python 3.11:
# basicConfig(stream=sys.stdout) with log.info prints nothing); loguru's sinks take every level
BELOW_WARNING = frozenset({"debug", "info"})


def _levelled(tree: ast.Module) -> bool:
    """The file sets a logging level (basicConfig(level=...), setLevel, a dictConfig's "level"),
    or logs through loguru: its debug and info records may then be printed."""
    for node in _nodes(tree):
        if isinstance(node, ast.Call) and (any(k.arg == "level" for k in node.keywords)
                                           or getattr(node.func, "attr", "") == "setLevel"
                                           or _name(node.func) == "logger.add"):
            return True
        if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "level" for k in node.keys):
            return True
    return False


def _stdout_loggers(tree: ast.Module) -> tuple[set[str], Place | None]:
    """The names whose log calls reach stdout, and where the file sends them there (the line to
    change): `logging` itself after `logging.basicConfig(stream=sys.stdout)`, a logger given a
    StreamHandler(sys.stdout) (taken as every logger of the file: handlers are inherited), a
    dictConfig handler with "stream": "ext://sys.stdout", loguru's `logger.add(sys.stdout)`.
    logging's default stream, and a handler given sys.stderr, are stderr."""
    calls = [node for node in _nodes(tree) if isinstance(node, ast.Call)]
    config = next((found for call in calls if (found := _to_stdout(call))), None)
    if config is None and any(_name(call.func).endswith("dictConfig") for call in calls):
        config = next((("dictConfig", Place(node.lineno, node.col_offset + 1)) for node in _nodes(tree)
                       if isinstance(node, ast.Constant) and node.value == "ext://sys.stdout"), None)
    if config is None:
        return set(), None
    loggers = {"logging", "logger"} if "loguru" in config[0] else {"logging"}
    for node in _nodes(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and _name(node.value.func) in ("logging.getLogger", "getLogger"):
            loggers |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return loggers, config[1]


def _to_stdout(call: ast.Call) -> tuple[str, Place] | None:
    """(what, where) when this call sends log records to stdout."""
    name = _name(call.func)
    streams = [k.value for k in call.keywords if k.arg == "stream"]
    if name in ("logging.StreamHandler", "StreamHandler"):
        streams += call.args[:1]
    elif name == "logger.add" and call.args:  # loguru: a sink added beside its default (stderr) one
        streams += [call.args[0]] if _name(call.args[0]) == "sys.stdout" else []
        return ("loguru", Place(streams[0].lineno, streams[0].col_offset + 1)) if streams else None
    elif name != "logging.basicConfig":
        return None
    for stream in streams:
        if _name(stream) == "sys.stdout":
            return name, Place(stream.lineno, stream.col_offset + 1)
    return None


# rich's Console writes on sys.stdout unless made with stderr=True or file=..., and wraps what it
# prints at 80 columns when stdout is not a terminal (measured: rich 15.0.0), so even a JSON
# answer printed through it is text
RICH_CONSOLES = frozenset({"Console", "rich.console.Console", "console.Console"})
RICH_WRITES = frozenset({"print", "log", "rule", "print_json", "out"})


def _rich_consoles(tree: ast.Module) -> set[str]:
    """The names given a rich Console that writes on stdout (`console = Console()`)."""
    return {_name(target) for node in _nodes(tree) if isinstance(node, (ast.Assign, ast.AnnAssign))
            and _stdout_console(node.value)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])}


def _stdout_console(node: ast.AST | None) -> bool:
    """`Console()`: a rich Console made without stderr=True or another file."""
    return isinstance(node, ast.Call) and _name(node.func) in RICH_CONSOLES and not any(
        (k.arg == "stderr" and not (isinstance(k.value, ast.Constant) and not k.value.value))
        or (k.arg == "file" and _name(k.value) != "sys.stdout") for k in node.keywords)


ECHOES = frozenset({"click.echo", "click.secho", "typer.echo", "typer.secho"})
PRETTY_PRINTS = frozenset({"pprint", "pprint.pprint", "pp", "pprint.pp"})


def _py_write(call: ast.Call, name: str, strings: "_PyStrings | None",
              loggers: Collection[str] = (), consoles: Collection[str] = (),
              loud: Collection[str] = LOG_CALLS) -> tuple[str, str] | None:
    """(json | text, what) for a call that writes on stdout, else None; `loud`: the log calls that print."""
    receiver, _, method = name.rpartition(".")
    if receiver in loggers and method in loud:
        return STDOUT_TEXT, f"{name}(...) (logging to stdout)"
    if isinstance(call.func, ast.Attribute) and call.func.attr in RICH_WRITES and (
            receiver in consoles or _stdout_console(call.func.value)):
        return STDOUT_TEXT, f"{name or 'Console().' + call.func.attr}(...) (a rich Console on stdout)"
    if name == "print":
        target = next((k.value for k in call.keywords if k.arg == "file"), None)
        if target is not None and _name(target) not in ("sys.stdout",):
            return None
        if not call.args:
            return None  # a bare newline: leading whitespace is fine
        arg = call.args[0]
    elif name in ("sys.stdout.write", "sys.stdout.buffer.write"):
        if not call.args:
            return None
        arg = call.args[0]
    elif name in ECHOES:  # click.echo(...), typer.echo(...): stdout unless err=True
        if not call.args or any(k.arg == "err" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                                for k in call.keywords):
            return None
        arg = call.args[0]
    elif name in PRETTY_PRINTS:  # pprint(...) writes on stdout unless given a stream
        return None if any(k.arg == "stream" for k in call.keywords) or len(call.args) > 1 else \
            (STDOUT_TEXT, f"{name}(...)")
    elif name == "json.dump":
        return (STDOUT_JSON, "json.dump(...)") if len(call.args) > 1 and _name(call.args[1]) == "sys.stdout" else None
    else:
        return _py_child_output(call, name)
    if strings is None:  # only whether it writes on stdout
        return STDOUT_TEXT, name
    kind = strings.kind(arg)
    if kind is None:
        return None
    return kind, strings.source(call)


PY_CHILD_RUNS = frozenset({"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.Popen", "os.system"})


def _py_child_output(call: ast.Call, name: str) -> tuple[str, str] | None:
    """A child process whose own text lands on the hook's stdout (its stdout not taken or sent
    elsewhere): subprocess.run(["git", "pull"]), os.system("npm test")."""
    if name not in PY_CHILD_RUNS or not call.args or any(
            (k.arg == "stdout" and not _py_own_stdout(k.value)) or (k.arg == "capture_output" and not (
                isinstance(k.value, ast.Constant) and k.value.value is False)) for k in call.keywords):
        return None
    first = call.args[0]
    if isinstance(first, (ast.List, ast.Tuple)):
        # (a word the code computes, `git -C cwd status`, stands as a placeholder: the literal ones decide)
        words = [e.value if isinstance(e, ast.Constant) and isinstance(e.value, str) else "?" for e in first.elts]
        if not words or words[0] == "?" or any(isinstance(e, ast.Starred) for e in first.elts):
            return None
    elif isinstance(first, ast.Constant) and isinstance(first.value, str) and ">" not in first.value \
            and "|" not in first.value:
        words = first.value.split()
    else:
        return None
    if words and delivery.prints_on_stdout(words[0], words[1:]):
        return STDOUT_TEXT, f"{name}({_brief(first)}) (its own output)"
    return None


def _py_own_stdout(value: ast.AST) -> bool:
    """Whether a child's stdout= is the hook's own: None (the default: inherited), sys.stdout, fd 1."""
    return (isinstance(value, ast.Constant) and value.value in (None, 1)) or _name(value) == "sys.stdout"


REDIRECTS = frozenset({"contextlib.redirect_stdout", "redirect_stdout"})
STDERR = frozenset({"sys.stderr", "sys.__stderr__"})
STDOUT = frozenset({"sys.stdout", "sys.__stdout__"})


class Diverted(Record):
    """Where stdout was made another stream: its place, how (the code as written), and whether
    that stream is stderr (else a file, os.devnull or a buffer: the answer never leaves)."""

    at: Place
    how: str
    stderr: bool


def _redirect_to_stderr(stmt: ast.With | ast.AsyncWith, place: Callable[[Any], Place]) -> Diverted | None:
    """`with contextlib.redirect_stdout(sys.stderr):` (or io.StringIO(), open(os.devnull, "w")):
    inside it, print() and sys.stdout write on that stream (python 3.11: the name sys.stdout is it there)."""
    for item in stmt.items:
        call = item.context_expr
        if isinstance(call, ast.Call) and _name(call.func) in REDIRECTS and call.args and _elsewhere(call.args[0]):
            return Diverted(place(call), _brief(call), _name(call.args[0]) in STDERR)
    return None


BUFFERS = frozenset({"io.StringIO", "StringIO", "io.BytesIO", "BytesIO"})


def _elsewhere(stream: ast.AST) -> bool:
    """A stream that is not the hook's stdout: sys.stderr, a buffer, or a file opened by a name
    (os.devnull, a log): `open(1, "w")` and a wrapper of sys.stdout (io.TextIOWrapper(sys.stdout.buffer))
    are stdout still."""
    if _name(stream) in STDERR:
        return True
    if not isinstance(stream, ast.Call):
        return False
    if _name(stream.func) in BUFFERS:
        return True
    target = stream.args[0] if stream.args else None
    return _name(stream.func) == "open" and target is not None and (
        _name(target) == "os.devnull" or isinstance(target, ast.Constant) and isinstance(target.value, str))


def _made_stderr(stmt: ast.stmt, place: Callable[[Any], Place]) -> Diverted | None:
    """`sys.stdout = sys.stderr` (or a file, os.devnull): every print after it writes there."""
    if isinstance(stmt, ast.Assign) and any(_name(t) == "sys.stdout" for t in stmt.targets) and _elsewhere(stmt.value):
        return Diverted(place(stmt), f"sys.stdout = {_brief(stmt.value)}", _name(stmt.value) in STDERR)
    return None


def _restored(stmt: ast.stmt) -> bool:
    """`sys.stdout = sys.__stdout__` (or a saved stdout): prints go to stdout again."""
    return isinstance(stmt, ast.Assign) and any(_name(t) == "sys.stdout" for t in stmt.targets) \
        and _made_stderr(stmt, lambda node: Place(1, 1)) is None


def _stdout_diverted(tree: ast.Module) -> dict[str, Diverted]:
    """The functions whose every call runs inside a `with redirect_stdout(sys.stderr)` (or after
    `sys.stdout = sys.stderr` at the top level): what they print goes to stderr. Name -> the
    place of the redirect."""
    inside: dict[str, Diverted] = {}
    outside: set[str] = set()

    def place(node: Any) -> Place:
        return Place(node.lineno, node.col_offset + 1)

    def visit(body: list[ast.stmt], redirected: Diverted | None) -> None:
        for stmt in body:
            redirected = _made_stderr(stmt, place) or (None if _restored(stmt) else redirected)
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for call in _calls(stmt):
                if isinstance(call.func, ast.Name):
                    if redirected is not None:
                        inside.setdefault(call.func.id, redirected)
                    else:
                        outside.add(call.func.id)
            for child_body, _ in _arms(stmt):
                within = _redirect_to_stderr(stmt, place) if isinstance(stmt, (ast.With, ast.AsyncWith)) else None
                visit(child_body, within or redirected)

    visit(tree.body, None)
    return {name: at for name, at in inside.items() if name not in outside}


def _py_answer_written(call: ast.Call, strings: "_PyStrings") -> bool:
    """The call writes an answer's JSON: json.dump of an answer, or a print or write of its json.dumps."""
    if not call.args:
        return False
    if _name(call.func) == "json.dump":
        return _py_answer(strings.resolve(call.args[0]))
    return _py_dumped_answer(call.args[0], strings)


def _py_dumped_answer(value: ast.AST, strings: "_PyStrings") -> bool:
    """The value is json.dumps of an answer (a dict literal, a name bound to one, or a helper's
    parameter, `def emit(obj): print(json.dumps(obj))`: what its calls give it)."""
    dumped = strings.resolve(value)
    while isinstance(dumped, ast.BinOp) and isinstance(dumped.op, ast.Add):  # json.dumps(answer) + "\n"
        dumped = strings.resolve(dumped.left)
    if isinstance(dumped, ast.JoinedStr):  # f"{json.dumps(answer)}\n"
        dumped = next((part.value for part in dumped.values if isinstance(part, ast.FormattedValue)), None)
    if not (isinstance(dumped, ast.Call) and _name(dumped.func) in ("json.dumps", "dumps") and dumped.args):
        return False
    written = dumped.args[0]
    given = strings.arguments(written.id) if isinstance(written, ast.Name) and written.id in strings.parameters else []
    return any(_py_answer(strings.resolve(node)) for node in [written, *given])


def _py_stderr_answer(call: ast.Call, name: str, strings: "_PyStrings") -> bool:
    """Whether the call writes an answer's JSON to stderr: print(json.dumps({...}), file=sys.stderr),
    sys.stderr.write(json.dumps(...)) or json.dump({...}, sys.stderr)."""
    if name == "json.dump" and len(call.args) > 1 and _name(call.args[1]) == "sys.stderr":
        return _py_answer(strings.resolve(call.args[0]))
    target = next((k.value for k in call.keywords if k.arg == "file"), None) if name == "print" else None
    if not call.args or not ((target is not None and _name(target) == "sys.stderr") or name == "sys.stderr.write"):
        return False
    return _py_dumped_answer(call.args[0], strings)


def _py_answer(node: ast.AST | None) -> bool:
    """A dict written as an answer: hookSpecificOutput, permissionDecision, Cursor's permission, or a decision with a reason."""
    if not isinstance(node, ast.Dict):
        return False
    keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
    return bool(keys & ANSWER_KEYS) or {"decision", "reason"} <= keys


def _py_status(arg: ast.AST | None, strings: "_PyStrings") -> tuple[int | None, str]:
    """The exit status a sys.exit(arg) gives, and its message (a string argument exits 1)."""
    if arg is None or (isinstance(arg, ast.Constant) and arg.value is None):
        return 0, ""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, bool):
        return int(arg.value), ""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, int):
        return arg.value, ""
    text = strings.text(arg)
    if text is not None:
        return 1, text
    built = _built_string(strings.resolve(arg))
    if built is not None:  # sys.exit("Fix these:\n" + "\n".join(problems)): a string all the same
        return 1, built
    return None, ""


OUTPUT_REWRITES = ("updatedToolOutput", "updatedMCPToolOutput")
# the calls that give a string: str's own methods, re's sub, json.dumps
TEXT_CALLS = frozenset({"sub", "replace", "strip", "lstrip", "rstrip", "join", "format", "lower", "upper", "decode",
                        "dumps", "str", "read_text", "getvalue", "removeprefix", "removesuffix"})


def _py_text(node: ast.AST | None, strings: "_PyStrings", functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
             depth: int = 0) -> bool:
    """Whether a value is a string: a literal or one the code builds, a call of str's methods or
    re's sub, a function of the file annotated `-> str`, or a name every assignment of which is one."""
    if node is None or depth > 4:
        return False
    if _is_string(node) or _built_string(node) is not None:
        return True
    if isinstance(node, ast.Call):
        name = _name(node.func)
        function = functions.get(name)
        if function is not None:
            return function.returns is not None and _name(function.returns) == "str"
        method = node.func.attr if isinstance(node.func, ast.Attribute) else name  # (`x["stdout"].replace`)
        return method in TEXT_CALLS
    if isinstance(node, ast.Name):
        values = strings.assigned.get(node.id, ())
        return bool(values) and all(_py_text(value, strings, functions, depth + 1) or (
            isinstance(value, ast.Name) and value.id == node.id) for value in values[:8])
    return False


def _built_string(node: ast.AST | None) -> str | None:
    """A string the code builds (`"a" + b`, `"a {}".format(b)`, `"\n".join(b)`, `"a %s" % b`):
    its literal parts, else None (not known to be a string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left, right = _built_string(node.left), _built_string(node.right)
        if left is not None or (isinstance(node.op, ast.Add) and right is not None):
            return (left or "") + (right or "") if isinstance(node.op, ast.Add) else left
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("format", "join") \
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str):
        return node.func.value.value if node.func.attr == "format" else ""
    return None


def _stderr_before(body: list[ast.stmt], index: int, strings: "_PyStrings") -> str:
    """What the statements right before an exit print to stderr."""
    said = []
    for stmt in body[max(0, index - 3):index + 1]:
        for call in _calls(stmt):
            name = _name(call.func)
            to_stderr = name == "sys.stderr.write" or (name == "print" and any(
                k.arg == "file" and _name(k.value) == "sys.stderr" for k in call.keywords))
            if to_stderr and call.args:
                said.append(strings.text(call.args[0]) or ast.unparse(call.args[0]))
    return " ".join(said)


def _py_fields(node: ast.AST) -> Iterator[tuple[str, ast.expr, ast.AST]]:
    """(field, value node, where) for each dict key or subscript assignment naming a field."""
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                yield key.value, value, key
    elif isinstance(node, ast.Call) and _name(node.func) == "dict":
        for keyword in node.keywords:
            if keyword.arg:
                yield keyword.arg, keyword.value, keyword.value
    elif isinstance(node, ast.Assign):
        for target in node.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant) \
                    and isinstance(target.slice.value, str):
                yield target.slice.value, node.value, target


class _PyStrings:
    """The module's simple assignments, to follow a name to the literal(s) it holds."""

    def __init__(self, tree: ast.Module, code: str) -> None:
        self.code = code  # the script as written, to quote it
        self._lines: list[str] | None = None  # its lines, split once (see source())
        self.assigned: dict[str, list[ast.AST]] = {}
        self.unpacked: dict[str, list[tuple[str, int]]] = {}
        for node in _nodes(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.assigned.setdefault(target.id, []).append(node.value)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                self.assigned.setdefault(node.target.id, []).append(node.value)
            elif isinstance(node, (ast.For, ast.comprehension)):
                self._loop(node.target, node.iter)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
                table = node.value.value if isinstance(node.value, ast.Subscript) else (
                    node.value.func.value if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute)
                    and node.value.func.attr == "get" else None)
                for index, element in enumerate(node.targets[0].elts):
                    if isinstance(table, ast.Name) and isinstance(element, ast.Name):
                        self.unpacked.setdefault(element.id, []).append((table.id, index))  # a, b = TABLE[key]
        # a parameter: the arguments its function's calls give it
        self.parameters: dict[str, list[tuple[str, int]]] = {}
        self.calls: dict[str, list[ast.Call]] = {}
        for node in _nodes(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for index, arg in enumerate(node.args.args):
                    self.parameters.setdefault(arg.arg, []).append((node.name, index))
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                self.calls.setdefault(node.func.id, []).append(node)

    def arguments(self, parameter: str) -> list[ast.AST]:
        """What the calls of the functions with this parameter pass for it."""
        out: list[ast.AST] = []
        for function, index in self.parameters.get(parameter, ()):
            for call in self.calls.get(function, ()):
                if index < len(call.args):
                    out.append(call.args[index])
                out += [k.value for k in call.keywords if k.arg == parameter]
        return out

    def _loop(self, target: ast.AST, iterable: ast.AST) -> None:
        """`for key, value in TABLE.items()` / `for value in TABLE.values()`: the loop variable
        holds the table's values (recorded as a lookup in it)."""
        if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute)
                and isinstance(iterable.func.value, ast.Name)):
            return
        table = ast.Subscript(value=iterable.func.value, slice=ast.Constant(None))
        if iterable.func.attr == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2 \
                and isinstance(target.elts[1], ast.Name):
            self.assigned.setdefault(target.elts[1].id, []).append(table)
        elif iterable.func.attr == "values" and isinstance(target, ast.Name):
            self.assigned.setdefault(target.id, []).append(table)

    def source(self, node: ast.AST, limit: int = 50) -> str:
        """The code of a node as written (cut at `limit`), from the script's lines split once
        (ast.get_source_segment splits the whole script again for every node it is asked for)."""
        written = " ".join((self._segment(node, 4 * limit) or ast.unparse(node)).split())
        return written if len(written) <= limit else written[:limit - 3] + "..."

    def _segment(self, node: ast.AST, enough: int) -> str | None:
        """The node's text as ast.get_source_segment gives it, its first `enough` characters or more."""
        end_line, end_col = getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None)
        if end_line is None or end_col is None:
            return None
        if self._lines is None:
            self._lines = LINE_BREAK.split(self.code)[::2]  # (split as the tokenizer does: \r\n, \r or \n)
        lines: list[str] = self._lines
        first: int = node.lineno - 1  # type: ignore[attr-defined]
        if end_line - 1 >= len(lines):
            return None
        start = lines[first].encode()[node.col_offset:].decode(errors="replace")  # type: ignore[attr-defined]
        if end_line - 1 == first:
            return lines[first].encode()[node.col_offset:end_col].decode(errors="replace")  # type: ignore[attr-defined]
        parts, size = [start], len(start)
        for index in range(first + 1, end_line - 1):
            if size > enough:
                return "\n".join(parts)
            parts.append(lines[index])
            size += len(lines[index])
        parts.append(lines[end_line - 1].encode()[:end_col].decode(errors="replace"))
        return "\n".join(parts)

    def resolve(self, node: ast.AST | None) -> ast.AST | None:
        """A name assigned exactly once, to what it was assigned."""
        if isinstance(node, ast.Name) and len(self.assigned.get(node.id, ())) == 1:
            return self.assigned[node.id][0]
        return node

    def text(self, node: ast.AST | None) -> str | None:
        node = self.resolve(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                           else "{" + ast.unparse(getattr(v, "value", v)) + "}" for v in node.values)
        return None

    def kind(self, written: ast.AST) -> str | None:
        """json, text or None (unknown) for what a print of `written` writes."""
        node = self.resolve(written)
        if isinstance(node, ast.Call) and _name(node.func) in ("json.dumps", "dumps"):
            return STDOUT_JSON
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.FormattedValue):
            # f"{...} rest": what the first value prints decides
            return STDOUT_JSON if "dumps" in ast.unparse(node.values[0]) else None
        text = self.text(node)
        if text is None:
            return None
        stripped = text.strip()
        if not stripped:
            return None
        return STDOUT_JSON if stripped.startswith("{") else STDOUT_TEXT

    def values(self, node: ast.AST, depth: int = 0) -> list[tuple[str, str]]:
        """The string literals a decision field can get: directly, through a variable, a
        conditional expression, or a lookup table (TABLE[key], TABLE.get(key, default))."""
        if depth > 3:
            return []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [(node.value, "")]
        if isinstance(node, ast.IfExp):
            return self.values(node.body, depth + 1) + self.values(node.orelse, depth + 1)
        if isinstance(node, ast.JoinedStr) and len(node.values) == 1 and isinstance(node.values[0], ast.FormattedValue):
            return self.values(node.values[0].value, depth + 1)  # f"{v}"
        if isinstance(node, ast.Name) and node.id in self.unpacked:  # a, b = TABLE[key]: the tuples' a
            return [(element.value, table) for table, index in self.unpacked[node.id]
                    for value in self.assigned.get(table, ()) if isinstance(value, ast.Dict)
                    for item in value.values if isinstance(item, ast.Tuple) and index < len(item.elts)
                    for element in [item.elts[index]] if isinstance(element, ast.Constant) and isinstance(element.value, str)]
        if isinstance(node, ast.Name) and node.id in self.parameters:
            return [(v, via or node.id) for argument in self.arguments(node.id)
                    for v, via in self.values(argument, depth + 1)]
        if isinstance(node, ast.Name):
            out = []
            for value in self.assigned.get(node.id, ()):
                out += [(v, via or node.id) for v, via in self.values(value, depth + 1)]
            return out
        table = None
        if isinstance(node, ast.Subscript):
            table = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            table = node.func.value
        if isinstance(table, ast.Name):
            out = []
            for value in self.assigned.get(table.id, ()):
                if isinstance(value, ast.Dict):
                    out += [(v.value, table.id) for v in value.values
                            if isinstance(v, ast.Constant) and isinstance(v.value, str)]
            return out
        return []


# ---- the parts that run only when an argument is given, or not (arguments.py) ----------------------

def _argv_regions(tree: ast.Module, nodes: list[ast.AST]) -> tuple[arguments.Region, ...]:
    """`nodes`: every node of the script's tree, listed once for its readers."""
    names = _py_argv_names(nodes)
    regions: list[arguments.Region] = []

    def walk(body: list[ast.stmt], last: int) -> None:
        for index, stmt in enumerate(body):
            if isinstance(stmt, ast.If):
                test = _py_test(stmt.test, names)
                end = stmt.end_lineno or stmt.lineno
                if test is not None:
                    argument, given = test
                    body_last = stmt.body[-1].end_lineno or end
                    regions.append(arguments.Region(stmt.body[0].lineno, body_last, argument, given))
                    if stmt.orelse:
                        regions.append(arguments.Region(stmt.orelse[0].lineno, end, argument, not given))
                    elif _ends(stmt.body) and index + 1 < len(body):  # if "--summary" in sys.argv: sys.exit(0)
                        regions.append(arguments.Region(body[index + 1].lineno, last, argument, not given))
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(stmt, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], (ast.stmt, ast.excepthandler)):
                    inner_last = inner[-1].end_lineno or last
                    if field == "handlers":
                        for handler in inner:
                            walk(handler.body, handler.end_lineno or inner_last)
                    else:
                        walk(inner, inner_last)

    walk(tree.body, max((getattr(n, "end_lineno", 0) or 0) for n in tree.body) if tree.body else 0)
    return tuple(regions)


# what catches an IndexError (a bare except, Exception and its ancestors)
CATCHES_INDEX_ERROR = frozenset({"IndexError", "LookupError", "Exception", "BaseException"})


def _argument_reads(nodes: list[ast.AST]) -> tuple[arguments.Read, ...]:
    """Each `sys.argv[N]` (N >= 1) that raises IndexError without N arguments (exit 1): none in a
    script that asks len(sys.argv), nor one inside a try that catches IndexError. `nodes`: every
    node of the script's tree, listed once for its readers."""
    positional = _argparse_positionals(nodes)
    if positional:
        return positional
    subscripts = [node for node in nodes if isinstance(node, ast.Subscript)
                  and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int and node.slice.value >= 1
                  and isinstance(node.value, ast.Attribute) and node.value.attr == "argv"
                  and ast.unparse(node.value) == "sys.argv"]
    if not subscripts or any(isinstance(node, ast.Call) and ast.unparse(node) == "len(sys.argv)"
                             for node in nodes):
        return ()
    caught = [(node.body[0].lineno, node.body[-1].end_lineno or node.body[0].lineno) for node in nodes
              if isinstance(node, ast.Try) and any(h.type is None or CATCHES_INDEX_ERROR & set(ast.unparse(h.type).strip(
                  "()").replace(" ", "").split(",")) for h in node.handlers)]
    return tuple(arguments.Read(int(node.slice.value), node.lineno, node.col_offset + 1, ast.unparse(node))  # type: ignore[attr-defined]
                 for node in subscripts if not any(first <= node.lineno <= last for first, last in caught))


def _argparse_positionals(nodes: list[ast.AST]) -> tuple[arguments.Read, ...]:
    """The last positional argument argparse requires (`add_argument("payload")`, no nargs "?" or
    "*", no default): without it parse_args() prints its usage and exits 2, which a host that reads
    exit 2 as a block takes for a refusal of every call."""
    calls = [node for node in nodes if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)]
    if not any(call.func.attr == "parse_args" and not call.args for call in calls):  # type: ignore[attr-defined]
        return ()
    required = [call for call in calls if call.func.attr == "add_argument" and call.args  # type: ignore[attr-defined]
                and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
                and not call.args[0].value.startswith("-")
                and not any(k.arg == "default" or (k.arg == "nargs" and isinstance(k.value, ast.Constant)
                                                   and k.value.value in ("?", "*")) for k in call.keywords)]
    if not required:
        return ()
    last = sorted(required, key=lambda call: (call.lineno, call.col_offset))[-1]
    return (arguments.Read(len(required), last.lineno, last.col_offset + 1, ast.unparse(last).split(".")[-1]),)


def _ends(body: list[ast.stmt]) -> bool:
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    return isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and \
        ast.unparse(last.value.func) in ("sys.exit", "exit", "quit", "os._exit")


def _py_argv_names(nodes: list[ast.AST]) -> dict[str, str]:
    """{name: what it holds}: "argv" for a name bound to sys.argv or an item or slice of it
    (`mode = sys.argv[1]`, `args = sys.argv[1:]`), "parsed" for argparse's result, and
    `parsed.<dest>` for each flag's destination (`--summary` -> summary)."""
    names: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            text = ast.unparse(node.value)
            if "sys.argv" in text:
                names[node.targets[0].id] = "argv"
            elif ".parse_args(" in text or ".parse_known_args(" in text:
                names[node.targets[0].id] = "parsed"
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith(".add_argument") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                flag = first.value
                dest = next((str(k.value.value) for k in node.keywords if k.arg == "dest"
                             and isinstance(k.value, ast.Constant)), flag.lstrip("-").replace("-", "_"))
                names[f".{dest}"] = flag if flag.startswith("-") else ""
    return names


def _py_test(test: ast.expr, names: dict[str, str]) -> tuple[str, bool] | None:
    """(argument, given) for a test of argv against a literal, else None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _py_test(test.operand, names)
        return (inner[0], not inner[1]) if inner else None
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):  # len(sys.argv) > 1 and sys.argv[1] == "x"
        found = [t for t in (_py_test(v, names) for v in test.values) if t is not None]
        return found[0] if len(found) == 1 else None
    if isinstance(test, ast.Attribute) and isinstance(test.value, ast.Name) \
            and names.get(test.value.id) == "parsed" and names.get(f".{test.attr}", "").startswith("-"):
        return names[f".{test.attr}"], True  # args.summary (a store_true flag)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, (ast.In, ast.NotIn)) and _literal(left) is not None and _is_argv(right, names):
        return _literal(left), isinstance(op, ast.In)  # type: ignore[return-value]
    if isinstance(op, (ast.Eq, ast.NotEq)):
        for value, other in ((left, right), (right, left)):
            literal = _literal(other)
            if literal is not None and _is_argv(value, names):
                return literal, isinstance(op, ast.Eq)
    return None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value else None


def _is_argv(node: ast.expr, names: dict[str, str]) -> bool:
    """sys.argv, an item or slice of it, a name bound to one, or a positional argparse destination."""
    if isinstance(node, ast.Subscript):
        node = node.value
    text = ast.unparse(node)
    if text == "sys.argv" or (isinstance(node, ast.Name) and names.get(node.id) == "argv"):
        return True
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
        and names.get(node.value.id) == "parsed" and names.get(f".{node.attr}") == ""


# ---- the parts that run for some events only (event_branches.py) ----------------------------------

def _event_branches(nodes: list[ast.AST], names: frozenset[str]) -> tuple[event_branches.Branch, ...]:
    """`nodes`: every node of the script's tree (listed once for its readers); `names`: the event
    names a test may compare with (the host's events)."""
    holders = {node.targets[0].id for node in nodes if isinstance(node, ast.Assign)
               and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _mentions_field(node.value)}
    found: list[event_branches.Branch] = []
    for node in nodes:
        if isinstance(node, ast.If) and node.body:
            events = _py_events(node.test, holders, names)
            if events:
                found.append(event_branches.Branch(node.body[0].lineno, node.body[-1].end_lineno or node.body[0].lineno, events))
        elif isinstance(node, ast.Match) and _mentions_field(node.subject, holders):
            for case in node.cases:
                events = frozenset(c.value for c in ast.walk(case.pattern) if isinstance(c, ast.Constant)
                                   and isinstance(c.value, str) and c.value in names)
                if events and case.body:
                    found.append(event_branches.Branch(case.body[0].lineno, case.body[-1].end_lineno or case.body[0].lineno, events))
    return tuple(found)


def _mentions_field(node: ast.AST, holders: frozenset[str] | set[str] = frozenset()) -> bool:
    return any((isinstance(n, ast.Constant) and n.value == event_branches.FIELD) or (isinstance(n, ast.Name) and n.id in holders)
               or (isinstance(n, ast.Attribute) and n.attr == event_branches.FIELD) for n in ast.walk(node))


def _py_events(test: ast.AST, holders: set[str], names: frozenset[str]) -> frozenset[str]:
    """The events a test holds for: `event == "PreToolUse"`, `data["hook_event_name"] in ("A", "B")`,
    joined by `or`; empty where it is no such test."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [_py_events(value, holders, names) for value in test.values]
        return frozenset().union(*parts) if all(parts) else frozenset()
    if isinstance(test, ast.BoolOp):  # `event == "PreToolUse" and ...`: the other tests narrow it further
        tested = [events for value in test.values if (events := _py_events(value, holders, names))]
        return frozenset.intersection(*tested) if tested else frozenset()
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.In))):
        return frozenset()
    left, right = test.left, test.comparators[0]
    if not _mentions_field(left, holders):
        left, right = right, left
        if not _mentions_field(left, holders):
            return frozenset()
    values = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
    events = frozenset(v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return events if events and events <= names else frozenset()
