"""Where a script's own exit 2 (its block) never reaches the process that runs it: a small model
of how each language's exception handling, child processes and exit hooks change the status a
hook's interpreter ends with.

- Python: `sys.exit(2)` raises SystemExit, so a bare `except:`, `except BaseException` or
  `except SystemExit` around it (or around a call of a function that exits 2) takes the exit
  back, and a `finally` that exits or returns replaces it; `subprocess.run`/`call`/`Popen` and
  `os.system` of a child script whose status is dropped, and `sys.exit(os.system(...))`, which
  exits with the child's wait status (512 for exit 2: 0 once the interpreter keeps its low byte).
- JavaScript: `execSync` of a child that exits 2 throws (uncaught: node exits 1; caught and not
  passed on: 0), `spawnSync`/`spawn` whose status nobody reads, a `process.exitCode = 2` that a
  later top-level `process.exitCode = 0` or `process.exit(0)` overwrites.
- A dispatcher that runs its guards in a loop (over a literal list, a name bound to one, or a
  folder's files) is read for each script the loop runs: a status each pass overwrites (the
  last child's 0 replaces a 2), or every exit of the script a literal of its own while it reads
  the child's (`1 if any(codes) else 0`, `failed ? 1 : 0`: measured with python 3.11 and node
  20.20.2). Bun.spawnSync's result carries `exitCode` and `success` (Bun's reference:
  SyncSubprocess; bun is not installed here). A loop that lets several children write on its
  stdout, or prints what each wrote, hands the host one JSON object per child that answers
  (rule "answers-joined").
- Shell: a `trap '... exit 0' EXIT`, which ends every run, an `exit 2` included, with its own status.
- Perl: `exit $?` (or `exit system(...)`), the wait status of a child (512 for exit 2), which exit
  turns into 0; `$? >> 8` is the child's status.

And the input fields some event sends as a JSON string and another as an object (Cursor's
`tool_input`), as the script reads them (field_reads).

A shell wrapper's own last command (`guard.py; echo done`, `guard || true`, a pipe) is the
command reader's (shell/exit.py), judged where the wrapper is run (checks/delivery.py).
Each finding names the line that needs the change. What cannot be followed is not reported.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Iterator, NamedTuple

from ...patterns import lazy

PY_RUNS = frozenset({"subprocess.run", "subprocess.call", "subprocess.Popen", "os.system", "run", "call", "Popen",
                     "subprocess.check_call", "check_call", "subprocess.check_output", "check_output"})
PY_CHECKED = frozenset({"subprocess.check_call", "check_call", "subprocess.check_output", "check_output"})  # raise on non-zero
PY_EXITS = frozenset({"sys.exit", "exit", "quit"})  # (os._exit ends the process at once: nothing catches it)
# what starts a thread (its target's SystemExit never leaves it), and where a positional target sits
THREAD_STARTS = frozenset({"threading.Thread", "Thread", "threading.Timer", "Timer", "_thread.start_new_thread",
                           "start_new_thread"})
POSITIONAL_TARGET = {"threading.Timer": 1, "Timer": 1, "_thread.start_new_thread": 0, "start_new_thread": 0}
CATCHES_EXIT = frozenset({"", "BaseException", "SystemExit"})  # ("": a bare except)
# where the child's status is read: it is then the script's to pass on (not reported)
STATUS_READ = frozenset({"returncode", "wait", "poll", "check_returncode"})
TO_EXIT_CODE = frozenset({"os.waitstatus_to_exitcode", "waitstatus_to_exitcode", "os.WEXITSTATUS", "WEXITSTATUS"})


class Lost(NamedTuple):
    """A place where the script's block by exit 2 is lost on its way out."""

    line: int
    column: int
    how: str  # what happens there, in a few words
    status: str  # the status the host receives instead ("0", "1", "0 or 1")
    child: str = ""  # the child script whose status is lost, as the code names it ("guard.py"); "": its own
    rule: str = "exit-2-lost"  # the rule (delivery/...) that reports it
    shebang: bool = False  # it holds only where the file runs by its #! line (`#!/bin/bash -e`), not `bash file`
    flag: bool = False  # it holds only where the hook's command starts the shell with -e (`bash -e file`)


# ---- Python ----------------------------------------------------------------------------------------

def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else node.attr
    return ""


def _constants(tree: ast.Module) -> dict[str, object]:
    """The module's NAME = literal assignments (BLOCK = 2)."""
    out: dict[str, object] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = stmt.value.value
    return out


def _status(node: ast.AST | None, constants: dict[str, object]) -> object:
    if node is None:
        return 0
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    return None  # not known


def _exits_2(node: ast.AST, constants: dict[str, object]) -> bool:
    if isinstance(node, ast.Call) and _name(node.func) in PY_EXITS | {"SystemExit"}:
        return _status(node.args[0] if node.args else None, constants) == 2
    if isinstance(node, ast.Raise) and node.exc is not None:
        exc = node.exc
        if isinstance(exc, ast.Call) and _name(exc.func) == "SystemExit":
            return _status(exc.args[0] if exc.args else None, constants) == 2
    return False


def python(tree: ast.Module, nodes: list[ast.AST]) -> tuple[Lost, ...]:
    """The places of a Python script where its exit 2 is lost (`nodes`: every node of the tree)."""
    tries = [node for node in nodes if isinstance(node, ast.Try) and (node.finalbody or any(
        handler.type is None or CATCHES_EXIT & {_name(t) for t in ast.walk(handler.type)} for handler in node.handlers))]
    threads = [node for node in nodes if isinstance(node, ast.Call) and _name(node.func) in THREAD_STARTS]
    if not tries and not threads:
        return tuple(sorted(set(_children(tree, nodes))))
    constants = _constants(tree)
    functions = {node.name: node for node in nodes if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    calls: dict[str, set[str]] = {}
    exiting: set[str] = set()
    for name, fn in functions.items():
        inside = list(ast.walk(fn))
        calls[name] = {_name(n.func) for n in inside if isinstance(n, ast.Call)} & functions.keys()
        if any(_exits_2(n, constants) for n in inside):
            exiting.add(name)
    changed = True
    while changed:  # and the functions that call one of them
        changed = False
        for name, called in calls.items():
            if name not in exiting and called & exiting:
                exiting.add(name)
                changed = True

    def blocks_in(body: list[ast.stmt]) -> bool:
        return any(_exits_2(n, constants) or (isinstance(n, ast.Call) and _name(n.func) in exiting)
                   for stmt in body for n in ast.walk(stmt))

    found = [*_caught_exits(tries, blocks_in), *_in_threads(threads, exiting, nodes), *_children(tree, nodes)]
    return tuple(sorted(set(found)))


def _in_threads(starts: list[ast.Call], exiting: set[str], nodes: list[ast.AST]) -> Iterator[Lost]:
    """A thread whose target exits 2: SystemExit raised in a thread ends that thread alone
    (threading's excepthook lets it pass without a word), and the process ends with the main
    thread's status. (A ThreadPoolExecutor's future.result() raises it again in the caller.)"""
    for call in starts:
        target = next((k.value for k in call.keywords if k.arg in ("target", "function")), None)
        if target is None and _name(call.func) in POSITIONAL_TARGET and len(call.args) > POSITIONAL_TARGET[_name(call.func)]:
            target = call.args[POSITIONAL_TARGET[_name(call.func)]]
        names = _functions_named(target, nodes)
        hit = next((name for name in names if name in exiting), None)
        if hit is not None:
            yield Lost(call.lineno, call.col_offset + 1, f"{hit}() exits 2 in the thread started here: SystemExit "
                       "ends only that thread, and the script goes on to exit with the main thread's status", "0")


def _functions_named(target: ast.AST | None, nodes: list[ast.AST]) -> list[str]:
    """The functions a thread's target names: `f`, `self.f`, or the loop variable of a
    `for f in (a, b)` / comprehension over names."""
    if target is None:
        return []
    name = _name(target).rpartition(".")[2]
    loops = [n.iter for n in nodes if isinstance(n, (ast.For, ast.comprehension)) and isinstance(n.target, ast.Name)
             and n.target.id == name]
    return [_name(e).rpartition(".")[2] for names in loops if isinstance(names, (ast.Tuple, ast.List))
            for e in names.elts] or [name]


def _caught_exits(tries: list[ast.Try], blocks_in: Callable[[list[ast.stmt]], bool]) -> Iterator[Lost]:
    for node in tries:
        if not blocks_in(node.body):
            continue
        for handler in node.handlers:  # the first handler that names SystemExit gets it, and no other
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            caught = {(_name(t) if t is not None else "") for t in types}
            if not caught & CATCHES_EXIT:
                continue
            if not (_passes_on(handler.body, handler.name) or _handler_status(handler.body) == "2"):
                what = "a bare except:" if "" in caught else f"except {next(iter(caught & CATCHES_EXIT))}"
                yield Lost(handler.lineno, handler.col_offset + 1,
                           f"{what} here also catches the SystemExit that sys.exit(2) raises",
                           _handler_status(handler.body))
            break
        for stmt in node.finalbody:
            ends = [n for n in ast.walk(stmt) if isinstance(n, ast.Return) or (
                isinstance(n, ast.Call) and _name(n.func) in PY_EXITS)]
            if ends:
                end = ends[0]
                what = "return" if isinstance(end, ast.Return) else f"{_name(end.func)}(...)"
                yield Lost(end.lineno, end.col_offset + 1,
                           f"the finally's {what} here replaces the exit 2 raised in its try", "0 or 1")
                break


def _passes_on(body: list[ast.stmt], bound: str | None) -> bool:
    """A handler that raises again, or exits with a status it does not spell (sys.exit(e.code))."""
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Raise):
                return True
            if isinstance(node, ast.Call) and _name(node.func) in PY_EXITS | {"os._exit"} and node.args \
                    and not isinstance(node.args[0], ast.Constant):
                return True
            if bound and isinstance(node, ast.Name) and node.id == bound and any(
                    isinstance(n, ast.Attribute) and n.attr == "code" for n in ast.walk(stmt)):
                return True
    return False


def _handler_status(body: list[ast.stmt]) -> str:
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and _name(node.func) in PY_EXITS | {"os._exit"}:
                arg = node.args[0] if node.args else None
                if arg is None or (isinstance(arg, ast.Constant) and arg.value is None):
                    return "0"
                if isinstance(arg, ast.Constant) and isinstance(arg.value, int):
                    return str(arg.value)
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    return "1"
    return "0"


SCRIPT_NAME = lazy(r"""[\w.@+-]*\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl)\b""",
                   needs=(".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl"))


def _child_script(call: ast.Call, loops: dict[str, tuple[str, ...]] | None = None) -> str:
    """The script file a child process runs, as its arguments spell it (the last literal with a
    script's suffix: "guard.py" of os.path.join(HERE, "guard.py")); "" where none does."""
    return next(iter(_child_scripts(call, loops or {})), "")


def _child_scripts(call: ast.Call, loops: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The script files a child process may run: the last literal of its arguments with a
    script's suffix, or else the scripts a loop variable among them takes in turn
    (`for name in ("no_rm.py", "fmt.py"): run([..., HERE / name])`)."""
    found, named = "", list[str]()
    for node in [*call.args, *(k.value for k in call.keywords if k.arg == "args")]:
        for inner in ast.walk(node):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                found = _js_child(inner.value) or found
            elif isinstance(inner, ast.Name) and inner.id in loops:
                named.extend(loops[inner.id])
    return (found,) if found else tuple(dict.fromkeys(named))


def _loop_scripts(nodes: list[ast.AST]) -> dict[str, tuple[str, ...]]:
    """The names that take script names in turn: a loop variable over ("a.py", "b.py"), over a name
    bound to such a list (GUARDS = [HERE / "a.py", ...]) or over the files of a folder
    (`sorted((HERE / "guards").glob("*.py"))`: "guards/*.py"), comprehensions included; and a name
    bound to a value built from one (`cmd = [sys.executable, HERE / name]`)."""
    bound: dict[str, ast.AST] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            bound[node.targets[0].id] = node.value
    out: dict[str, tuple[str, ...]] = {}
    for node in nodes:
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and isinstance(node.target, ast.Name):
            items = bound.get(node.iter.id) if isinstance(node.iter, ast.Name) else node.iter
            if isinstance(items, (ast.Tuple, ast.List, ast.Set)):
                names = [_js_child(" ".join(c.value for c in ast.walk(e) if isinstance(c, ast.Constant)
                                            and isinstance(c.value, str))) for e in items.elts]
                if names and all(names):
                    out[node.target.id] = tuple(names)
            elif items is not None and (pattern := _folder_pattern(items)):
                out[node.target.id] = (pattern,)
    for name, value in bound.items():
        if name not in out:
            named = tuple(dict.fromkeys(script for n in ast.walk(value) if isinstance(n, ast.Name)
                                        for script in out.get(n.id, ())))
            if named:
                out[name] = named
    return out


GLOBS = frozenset({"glob", "rglob", "glob.glob", "iglob", "glob.iglob"})


def _folder_pattern(items: ast.AST) -> str:
    """The files a loop takes from a folder, as a pattern beside the script: `(HERE / "guards").glob("*.py")`
    and `glob.glob(os.path.join(HERE, "guards", "*.py"))` are "guards/*.py"; "" for anything else."""
    call = next((n for n in ast.walk(items) if isinstance(n, ast.Call) and _name(n.func).rpartition(".")[2] in GLOBS
                 | {"iglob"}), None)
    if call is None:
        return ""
    words = [str(c.value) for c in sorted((c for c in ast.walk(call) if isinstance(c, ast.Constant)
                                           and isinstance(c.value, str)), key=lambda c: (c.lineno, c.col_offset))]
    pattern = "/".join(w.strip("/") for w in words if w and "\n" not in w)
    return pattern if SCRIPT_NAME.search(pattern) and "*" in pattern else ""


def _children(tree: ast.Module, nodes: list[ast.AST]) -> Iterator[Lost]:
    """subprocess/os.system calls of a child script whose status the script drops or garbles."""
    yield from _asyncio_children(nodes)
    loops = _loop_scripts(nodes)
    runs = [(node, _child_scripts(node, loops)) for node in nodes if isinstance(node, ast.Call)
            and _name(node.func) in PY_RUNS]
    runs = [(node, children) for node, children in runs if children or _name(node.func).endswith("system")]
    if not runs:
        return
    parents: dict[int, ast.AST] = {}
    for node in nodes:
        for inner in ast.iter_child_nodes(node):
            parents[id(inner)] = node
    for node, children in runs:
        for child in children or ("",):
            yield from _run_lost(node, child, parents, nodes, _count(children))
    yield from _joined_outputs(runs, parents, nodes)


def _count(children: tuple[str, ...]) -> int:
    """How many scripts a run may be: a folder's files ("guards/*.py") count as several."""
    return len(children) + (1 if any("*" in child for child in children) else 0)


WRITES = frozenset({"print", "sys.stdout.write", "sys.stdout.buffer.write"})


def _joined_outputs(runs: list[tuple[ast.Call, tuple[str, ...]]], parents: dict[int, ast.AST],
                    nodes: list[ast.AST]) -> Iterator[Lost]:
    """A loop that runs several child scripts one after another with their stdout the hook's
    (inherited, or taken and printed, or gathered and printed after the loop) and does not stop
    at the first: each child's answer lands on the one stdout (rule "answers-joined", one place
    per child; the check keeps those whose children answer in JSON)."""
    for node, children in runs:
        if _count(children) < 2:
            continue
        loop = parents.get(id(node))
        while loop is not None and not isinstance(loop, (ast.For, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef)):
            loop = parents.get(id(loop))
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or any(
                isinstance(n, (ast.Break, ast.Return)) or (isinstance(n, ast.Call) and _name(n.func) in PY_EXITS)
                for stmt in loop.body for n in ast.walk(stmt)):
            continue
        how = _py_forwarded(node, parents, loop, nodes)
        if how:
            for child in children:
                yield Lost(node.lineno, node.col_offset + 1, how, "", child, rule="answers-joined")


def _py_forwarded(run: ast.Call, parents: dict[int, ast.AST], loop: ast.For | ast.AsyncFor, nodes: list[ast.AST]) -> str:
    """How a child's stdout reaches the hook's in a loop: "" where it does not."""
    options = {k.arg: k.value for k in run.keywords}
    taken = "stdout" in options and not (isinstance(options["stdout"], ast.Constant) and options["stdout"].value is None
                                         or _name(options["stdout"]) == "sys.stdout")
    taken = taken or ("capture_output" in options and not (isinstance(options["capture_output"], ast.Constant)
                                                          and not options["capture_output"].value))
    name = _name(run.func)
    if not taken and not name.endswith("check_output"):
        return "each child's stdout is the hook's own"
    parent = parents.get(id(run))
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return ""
    var = parent.targets[0].id
    gathered = {var}
    for stmt in loop.body:  # out += r.stdout, outputs.append(r.stdout)
        for n in ast.walk(stmt):
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and _mentions(n.value, var):
                gathered.add(n.target.id)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("append", "extend") \
                    and any(_mentions(a, var) for a in n.args):
                gathered.add(_name(n.func.value))
    for n in nodes:
        if isinstance(n, ast.Call) and _name(n.func) in WRITES and n.args and not (
                isinstance(n.args[0], ast.Call) and _name(n.args[0].func) == "json.dumps") \
                and any(_mentions(a, v) for a in n.args for v in gathered) \
                and all(_name(k.value) == "sys.stdout" for k in n.keywords if k.arg == "file"):
            return "the loop prints each child's stdout in turn" if _mentions(n, var) else \
                "the loop gathers each child's stdout, and the script prints them all"
    return ""


def _mentions(node: ast.AST, var: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(node))


def _run_lost(node: ast.Call, child: str, parents: dict[int, ast.AST], nodes: list[ast.AST],
              count: int) -> Iterator[Lost]:
    """Where one run of a child script (`count`: of how many it may be, in a loop) loses its status."""
    name = _name(node.func)
    parent = parents.get(id(node))
    checked = any(k.arg == "check" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                  for k in node.keywords)
    if isinstance(parent, ast.Call) and _name(parent.func) in PY_EXITS | {"SystemExit"}:
        if name.endswith("system"):
            yield Lost(parent.lineno, parent.col_offset + 1, f"{_name(parent.func)}(os.system(...)) exits with "
                       "the child's wait status (exit 2 is 512, which the exit turns into 0)", "0")
        return
    target = parent.targets[0].id if isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
        and isinstance(parent.targets[0], ast.Name) else None
    if target is not None and parent is not None and name.endswith("system") \
            and _status_use(nodes, target, parent) == "wait-status":
        # (whatever the child: any failure's wait status exits 0)
        yield Lost(node.lineno, node.col_offset + 1, f"{target} = os.system(...) is the child's wait status "
                   f"(exit 2 is 512), and sys.exit({target}) turns it into 0", "0")
        return
    checked = checked or name in PY_CHECKED
    if checked and child:  # CalledProcessError: uncaught, python exits 1; caught, the handler decides
        handler = _handler_around(node, parents)
        if handler is None and not _in_try(node, parents):
            yield Lost(node.lineno, node.col_offset + 1, f"{name}(...) raises CalledProcessError when the child "
                       "exits non-zero, and uncaught, python exits 1 (not the child's 2)", "1", child)
        elif handler is not None and not _passes_status_on(handler):
            yield Lost(handler.lineno, handler.col_offset + 1, f"this handler takes the CalledProcessError "
                       f"{name}(...) raises for the child's exit 2 and does not pass its returncode on",
                       _handler_status(handler.body), child)
        return
    if _in_try(node, parents) or not child:
        return
    if isinstance(parent, ast.Expr):
        yield Lost(node.lineno, node.col_offset + 1, f"{name}(...) runs the child script and drops its exit status",
                   "0", child)
        return
    read_inline = isinstance(parent, ast.Attribute) and parent.attr == "returncode"
    if target is None and not read_inline:
        return
    use = "read" if target is None or parent is None else _status_use(nodes, target, parent)
    if use == "none":
        yield Lost(node.lineno, node.col_offset + 1,
                   f"{name}(...) runs the child script, and its exit status ({target}) is never passed on", "0", child)
        return
    if use != "read":
        return
    overwrite = _overwritten_in_loop(node, target, parents, nodes) if target is not None and count > 1 else None
    if overwrite is not None:  # each pass of the loop sets the status anew: the next child's 0 replaces a 2
        yield Lost(overwrite.lineno, overwrite.col_offset + 1, f"each pass of the loop sets "
                   f"{_name(overwrite.targets[0])} to the latest child's status, so a 2 from one child is "
                   "replaced by the next one's 0", "0", child)
        return
    if target is not None and _exit_of(nodes, target):
        return
    own = _own_exits(nodes)  # every way out has a status of its own: the child's 2 is never one of them
    if own is not None:
        failing = next(((at, said) for at, said in own if said != "0"), None)
        if failing is not None:
            at, status = failing
            yield Lost(at.lineno, at.col_offset + 1, f"this exit replaces the child's status "
                       f"({target or name + '(...).returncode'}, 2 when it refuses) with its own", status, child)
        else:
            yield Lost(node.lineno, node.col_offset + 1, f"{name}(...) runs the child script, and no exit of the "
                       "script passes its status on", "0", child)


def _overwritten_in_loop(run: ast.Call, var: str, parents: dict[int, ast.AST], nodes: list[ast.AST]) -> ast.Assign | None:
    """In the loop that runs the child, the plain assignment (not in an if) that stores its status in
    the name the script exits with (`code = proc.returncode`, or `rc = subprocess.call(...)`
    itself), where nothing in the loop stops at a non-zero status (`if rc: sys.exit(rc)`, `break`)."""
    loop = parents.get(id(run))
    while loop is not None and not isinstance(loop, (ast.For, ast.AsyncFor, ast.FunctionDef, ast.AsyncFunctionDef)):
        loop = parents.get(id(loop))
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return None
    if any(isinstance(n, (ast.Break, ast.Return)) or (isinstance(n, ast.Call) and _name(n.func) in PY_EXITS)
           for stmt in loop.body for n in ast.walk(stmt)):
        return None
    for stmt in loop.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        names = {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)}
        status = stmt.value is run or (var in names and any(isinstance(n, ast.Attribute) and n.attr == "returncode"
                                                            for n in ast.walk(stmt.value)))
        store = stmt.targets[0].id
        if status and store not in names and _exit_of(nodes, store) and (store != var or stmt.value is run):
            return stmt
    return None


def _literal_statuses(node: ast.AST | None) -> str:
    """The statuses an exit's argument can be when each is a literal ("1", "0 or 1"); "" otherwise."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return "0"
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return str(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return "1"  # (sys.exit("message"))
    if isinstance(node, ast.IfExp):
        body, orelse = _literal_statuses(node.body), _literal_statuses(node.orelse)
        return " or ".join(sorted({*body.split(" or "), *orelse.split(" or ")})) if body and orelse else ""
    return ""


def _own_exits(nodes: list[ast.AST]) -> list[tuple[ast.Call | ast.Return, str]] | None:
    """Every exit of the script (sys.exit, SystemExit, the return of a main() whose value is the
    status) with the statuses it spells, where each is a literal other than 2; None where one is not."""
    defined = {n.name for n in nodes if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    through = {_name(n.args[0].func) for n in nodes if isinstance(n, ast.Call) and _name(n.func) in PY_EXITS
               and n.args and isinstance(n.args[0], ast.Call)} & defined
    statuses: list[tuple[ast.Call | ast.Return, ast.AST | None]] = [
        (n, n.args[0] if n.args else None) for n in nodes if isinstance(n, ast.Call)
        and _name(n.func) in PY_EXITS | {"SystemExit", "os._exit"}]
    statuses += [(n, n.value) for fn in nodes if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and fn.name in through for n in ast.walk(fn) if isinstance(n, ast.Return)]
    spelled = [(n, _literal_statuses(arg)) for n, arg in statuses
               if not (isinstance(arg, ast.Call) and _name(arg.func) in through)]
    if any(not said or "2" in said.split(" or ") for _, said in spelled):
        return None
    return sorted(spelled, key=lambda item: (item[0].lineno, item[0].col_offset))


ASYNCIO_RUNS = frozenset({"asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell",
                          "create_subprocess_exec", "create_subprocess_shell"})
ASYNCIO_WAITS = frozenset({"wait", "communicate"})


def _asyncio_children(nodes: list[ast.AST]) -> Iterator[Lost]:
    """`proc = await asyncio.create_subprocess_exec(...)` of a child script: it returns once the
    child has started, and proc.returncode stays None until `await proc.wait()` (or
    communicate()); sys.exit(None) exits 0 (measured: Python 3.11)."""
    for node in nodes:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Await)):
            continue
        call = node.value.value
        if not (isinstance(call, ast.Call) and _name(call.func) in ASYNCIO_RUNS and _child_script(call)):
            continue
        var = node.targets[0].id
        waited = [n for n in nodes if isinstance(n, ast.Await) and isinstance(n.value, ast.Call)
                  and isinstance(n.value.func, ast.Attribute) and n.value.func.attr in ASYNCIO_WAITS
                  and _name(n.value.func.value) == var]
        reads = [n for n in nodes if isinstance(n, ast.Attribute) and n.attr == "returncode" and _name(n.value) == var]
        first_wait = min(((w.lineno, w.col_offset) for w in waited), default=None)
        early = [r for r in reads if first_wait is None or (r.lineno, r.col_offset) < first_wait]
        if early:
            yield Lost(early[0].lineno, early[0].col_offset + 1, f"{var}.returncode is still None here: "
                       f"{_name(call.func)} returns once the child has started, and only `await {var}.wait()` "
                       "sets it (sys.exit(None) exits 0)", "0", _child_script(call))
        elif not reads and not waited:
            yield Lost(call.lineno, call.col_offset + 1, f"{_name(call.func)}(...) starts the child script, and "
                       "nothing waits for it or reads its exit status", "0", _child_script(call))


def _handler_around(node: ast.AST, parents: dict[int, ast.AST]) -> ast.ExceptHandler | None:
    """The except clause that catches what `node` raises: CalledProcessError, SubprocessError,
    Exception or anything (the first such handler of the innermost try around it)."""
    at, inner = parents.get(id(node)), node
    while at is not None and not isinstance(at, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if isinstance(at, ast.Try) and inner in at.body:
            for handler in at.handlers:
                caught = {_name(t).rsplit(".", 1)[-1] for t in ast.walk(handler.type)} if handler.type else {""}
                if caught & {"", "CalledProcessError", "SubprocessError", "Exception", "BaseException"}:
                    return handler
        inner, at = at, parents.get(id(at))
    return None


def _passes_status_on(handler: ast.ExceptHandler) -> bool:
    """Whether a handler passes the child's status on: it reads returncode (not only to print or log
    it), raises, or exits 2."""
    told = {id(n) for node in ast.walk(handler) if isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Call) and _name(node.func).rpartition(".")[2] in TELLS) for n in ast.walk(node)}
    for node in ast.walk(handler):
        if isinstance(node, ast.Raise) or (isinstance(node, ast.Attribute) and node.attr == "returncode"
                                           and id(node) not in told):
            return True
        if isinstance(node, ast.Call) and _name(node.func) in PY_EXITS and node.args and _status(node.args[0], {}) == 2:
            return True
    return False


TELLS = frozenset({"print", "write", "debug", "info", "warning", "warn", "error", "exception", "log"})  # print, log


def _exit_of(nodes: list[ast.AST], var: str) -> bool:
    """Whether an exit hands on a value made from the variable (sys.exit(rc), sys.exit(r.returncode),
    or `return rc` from the main() whose value sys.exit is given)."""
    return any(isinstance(n, ast.Name) and n.id == var for value in _exit_values(nodes) for n in ast.walk(value))


def _exit_values(nodes: list[ast.AST]) -> list[ast.expr]:
    """What the script's exits are given: sys.exit's argument, and the values a function returns
    where sys.exit(f()) makes that value the status."""
    exits = [n for n in nodes if isinstance(n, ast.Call) and _name(n.func) in PY_EXITS | {"SystemExit"} and n.args]
    through = {_name(n.args[0].func) for n in exits if isinstance(n.args[0], ast.Call)}
    return [n.args[0] for n in exits] + [r.value for fn in nodes if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
                                         and fn.name in through for r in ast.walk(fn)
                                         if isinstance(r, ast.Return) and r.value is not None]


def _in_try(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    at = parents.get(id(node))
    while at is not None:
        if isinstance(at, ast.Try) and at.handlers:
            return True
        if isinstance(at, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
        at = parents.get(id(at))
    return False


def _status_use(nodes: list[ast.AST], var: str, assign: ast.AST) -> str:
    """How the script uses the variable holding a child's result: "none" (never read, or only
    printed), "wait-status" (handed to sys.exit as it is), or "read"."""
    reads = [n for n in nodes if isinstance(n, ast.Name) and n.id == var and isinstance(n.ctx, ast.Load)]
    if not reads:
        return "none"
    # (the variable, or a name it is copied to as it is: `status = rc`)
    held = {var} | {n.targets[0].id for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
                    and isinstance(n.targets[0], ast.Name) and isinstance(n.value, ast.Name) and n.value.id == var}
    for node in nodes:
        if isinstance(node, ast.Call) and _name(node.func) in PY_EXITS | {"SystemExit"} and node.args \
                and isinstance(node.args[0], ast.Name) and node.args[0].id in held:
            return "wait-status"
    for node in nodes:
        if isinstance(node, ast.Call) and _name(node.func) in ("print", "logging.info", "logging.debug", "log") \
                or isinstance(node, ast.JoinedStr):
            continue
        if isinstance(node, ast.Attribute) and node.attr in STATUS_READ and _name(node.value) == var:
            return "read"
        if isinstance(node, (ast.Compare, ast.If, ast.Return, ast.BoolOp, ast.BinOp)) or (
                isinstance(node, ast.Call) and _name(node.func) in TO_EXIT_CODE):
            if any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(node)):
                return "read"
    return "none"


# ---- JavaScript (comment-stripped code) --------------------------------------------------------------

JS_EXEC_SYNC = lazy(r"""(?<![\w$])(?P<fn>execSync|execFileSync)\s*\(""", needs=("Sync",))
JS_SPAWN_SYNC = lazy(r"""(?<![\w$])(?:(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*)?"""
                     r"""(?:[\w$]+(?:\([^()]*\))?\.)?spawnSync\s*\(""", needs=("spawnSync",))
JS_OTHER_STATUS = lazy(r"""process\.exit\s*\(\s*(?P<status>[13-9]\d*)\s*\)|process\.exitCode\s*=\s*(?P<code>[13-9]\d*)\b""")
JS_STATUS_AFTER = lazy(r"""[^;\n]*\)\s*\.status""")  # spawnSync(...).status
JS_TRY_CATCH = lazy(r"""\btry\s*\{""", needs=("try",))
JS_CATCH = lazy(r"""\s*catch\s*(?:\(\s*(?P<err>[A-Za-z_$][\w$]*)?[^)]*\))?\s*\{""")
JS_CONSOLE_CALL = lazy(r"""console\.\w+\s*\(""", needs=("console.",))
JS_PASSES_ON = lazy(r"""\bthrow\b|process\.exit\s*\(\s*(?!0\s*\))[^)]|process\.exitCode\s*=\s*(?!0\b)|\.status\b""")
JS_EXIT_CODE_2 = lazy(r"""process\.exitCode\s*=\s*2\b""", needs=("exitCode",))
JS_EXIT_ZERO = lazy(r"""process\.exitCode\s*=\s*0\b|process\.exit\s*\(\s*0\s*\)""", needs=("process.exit",))


def javascript(code: str, place: Callable[[int], tuple[int, int]],
               close: Callable[[str, int], int], balanced: Callable[[str, int], str]) -> tuple[Lost, ...]:
    """The places of a JavaScript script where its block by exit 2 is lost; `close` finds a
    brace's closing one, `balanced` a call's arguments (flow.py's readers). A child named by a
    loop variable (`for (const g of ["no_rm.py", "fmt.py"])`) is each script the loop runs."""
    found: list[Lost] = []
    loops = _js_loop_scripts(code)
    own = _js_own_exits(code)
    tries = [(m.end() - 1, close(code, m.end() - 1)) for m in JS_TRY_CATCH.finditer(code)]
    for match in JS_EXEC_SYNC.finditer(code):
        children = _js_children(balanced(code, match.end()), loops)
        around = [(start, end) for start, end in tries if start < match.start() < end]
        caught = JS_CATCH.match(code, around[-1][1] + 1) if around else None
        if caught is not None:  # a catch that exits with a status of its own (not the child's 2), whatever the child
            body_start = caught.end()
            other = JS_OTHER_STATUS.search(code[body_start:close(code, body_start - 1)])
            if other is not None:
                line, column = place(body_start + other.start())
                status = other.group("status") or other.group("code")
                found.extend(Lost(line, column, f"this catch exits {status} when the child {match.group('fn')} "
                                  "runs fails, exit 2 included", status, child) for child in children or ("",))
                continue
        if not children:
            continue
        if not around:
            line, column = place(match.start())
            found.extend(Lost(line, column, f"{match.group('fn')} throws when the child exits non-zero, and "
                              "uncaught, node exits 1 (not the child's 2)", "1", child) for child in children)
            continue
        start, end = around[-1]
        catch = JS_CATCH.match(code, end + 1)
        if catch is None:
            continue
        body = code[catch.end():close(code, catch.end() - 1)]
        for said in JS_CONSOLE_CALL.finditer(body):  # (a status it only logs is not passed on)
            told = balanced(body, said.end())
            body = body[:said.end()] + " " * len(told) + body[said.end() + len(told):]
        if not JS_PASSES_ON.search(body):
            line, column = place(catch.start() + len(catch.group(0)) - len(catch.group(0).lstrip()))
            status = " or ".join(sorted({s for _, said in own or () for s in said.split(" or ")} - {"0"})) or "0"
            found.extend(Lost(line, column, f"this catch takes the error {match.group('fn')} throws for the child's "
                              "exit 2 and does not pass the status on", status, child) for child in children)
    for match in JS_SPAWN_SYNC.finditer(code):
        children = _js_children(balanced(code, match.end()), loops)
        if not children:
            continue
        var = match.group("var")
        after = code[match.end():]
        read = re.compile(rf"(?<![\w$]){re.escape(var)}\s*(?:\?\.|\.)\s*(?:status|signal|exitCode|success)\b") \
            if var is not None else None
        if var is None and not JS_STATUS_AFTER.match(after) or (read is not None and not read.search(after)):
            line, column = place(match.start())
            found.extend(Lost(line, column, "spawnSync runs the child script, and its status is never read", "0", child)
                         for child in children)
            continue
        if var is None:
            continue
        last = _js_overwritten(code, match.start(), var, close) if len(children) > 1 else None
        if last is not None:
            line, column = place(last[0])
            found.extend(Lost(line, column, f"each pass of the loop sets {last[1]} to the latest child's status, so "
                              "a 2 from one child is replaced by the next one's 0", "0", child) for child in children)
        elif own is not None:  # its status is read, and every exit of the script has a status of its own
            failing = next(((at, said) for at, said in own if said != "0"), None)
            line, column = place(failing[0] if failing is not None else match.start())
            how = f"this exit replaces the child's status ({var}.status, 2 when it refuses) with its own" \
                if failing is not None else "spawnSync runs the child script, and no exit of the script passes its " \
                                            "status on"
            found.extend(Lost(line, column, how, failing[1] if failing is not None else "0", child)
                         for child in children)
    for match in JS_ASYNC_RUN.finditer(code) if own is not None else ():  # its status comes later, to a callback
        children = _js_children(balanced(code, match.end()), loops)
        failing = next(((at, said) for at, said in own or () if said != "0"), None)
        line, column = place(failing[0] if failing is not None else match.start())
        how = ("this exit gives a status of the script's own, and no exit passes on the child's" if failing is not None
               else f"{match.group('fn')} runs the child script, and no exit of the script passes its status on")
        found.extend(Lost(line, column, how, failing[1] if failing is not None else "0", child) for child in children)
    found.extend(_js_joined_outputs(code, place, close, balanced, loops))
    first = JS_EXIT_CODE_2.search(code)
    if first is not None:
        later = next((m for m in JS_EXIT_ZERO.finditer(code, first.end()) if _depth(code, m.start(), close) == 0), None)
        if later is not None:
            line, column = place(later.start())
            found.append(Lost(line, column, "this sets the exit status to 0 after process.exitCode = 2 "
                              f"(line {place(first.start())[0]})", "0"))
    return tuple(sorted(set(found)))


# a child started whose status arrives later (a callback, an event, a promise): spawn, exec, execFile, fork, Bun.spawn
JS_ASYNC_RUN = lazy(r"""(?<![\w$.])(?:(?:child_process|childProcess|cp|Bun)\.)?(?P<fn>spawn|execFile|exec|fork)\s*\(""",
                    needs=("spawn", "exec", "fork"))
JS_ARRAY = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[\w<>\[\]]+\s*)?=\s*\[(?P<items>[^\[\]]*)\]""")
JS_FOR_OF = lazy(r"""\bfor\s*\(\s*(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s+of\s+(?:(?P<name>[A-Za-z_$][\w$]*)\s*\)|"""
                 r"""\[(?P<items>[^\[\]]*)\])|(?:(?P<name2>[A-Za-z_$][\w$]*)|\[(?P<items2>[^\[\]]*)\])\s*\.\s*"""
                 r"""(?:forEach|map|some|every)\s*\(\s*(?:async\s*)?(?:function\s*)?\(?\s*(?P<var2>[A-Za-z_$][\w$]*)""")
JS_NAME_IN = lazy(r"""(?<![\w$.'"`/])[A-Za-z_$][\w$]*""")


def _js_loop_scripts(code: str) -> dict[str, tuple[str, ...]]:
    """The loop variables that take script names in turn: `for (const g of ["a.py", "b.py"])`,
    over an array bound to a name, or `GUARDS.forEach((g) => ...)`."""
    arrays = {m.group("name"): m.group("items") for m in JS_ARRAY.finditer(code)}
    out: dict[str, tuple[str, ...]] = {}
    for match in JS_FOR_OF.finditer(code):
        name = match.group("name") or match.group("name2")
        items = match.group("items") or match.group("items2") or arrays.get(name or "", "")
        names = SCRIPT_NAME.findall(items)
        if names:
            out[match.group("var") or match.group("var2")] = tuple(dict.fromkeys(names))
    return out


def _js_children(arguments: str, loops: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The script files a child process may run: the one its arguments spell, or else those a loop
    variable among them takes in turn."""
    child = _js_child(arguments)
    if child:
        return (child,)
    return tuple(dict.fromkeys(n for word in JS_NAME_IN.findall(arguments) for n in loops.get(word, ())))


JS_EXIT_ARGUMENT = lazy(r"""(?<![\w$.])process\.exit\s*\(\s*(?P<arg>[^()]*?)\s*\)|"""
                        r"""(?<![\w$.])process\.exitCode\s*=\s*(?P<set>[^;\n]+)""", needs=("process.exit",))
JS_LITERAL_STATUS = lazy(r"""^(?P<one>\d+)?$|^[^?]+\?\s*(?P<yes>\d+)\s*:\s*(?P<no>\d+)$""")


def _js_own_exits(code: str) -> list[tuple[int, str]] | None:
    """Every process.exit / process.exitCode of the script with the statuses it spells (`failed ?
    1 : 0`: "0 or 1"), where each is a literal other than 2; None where one is not."""
    out = []
    for match in JS_EXIT_ARGUMENT.finditer(code):
        literal = JS_LITERAL_STATUS.match((match.group("arg") if match.group("arg") is not None
                                           else match.group("set")).strip().rstrip(";").strip())
        if literal is None:
            return None
        said = {str(int(s)) for s in literal.group("one", "yes", "no") if s is not None} or {"0"}
        if "2" in said:
            return None
        out.append((match.start(), " or ".join(sorted(said))))
    return out


JS_DECLARED_BEFORE = lazy(r"""(?:\b(?:const|let|var)|\bif\s*\([^\n]*|\?|&&|\|\|)\s*$""")


def _js_overwritten(code: str, run: int, var: str, close: Callable[[str, int], int]) -> tuple[int, str] | None:
    """In the loop body that runs the child, the plain assignment at the body's own level that
    stores its status (`status = r.status`) in a name the script exits with, where nothing in the
    loop stops at a non-zero status: (where, the name)."""
    loop = next((m for m in reversed(list(JS_LOOP_START.finditer(code, 0, run)))
                 if close(code, m.end() - 1) > run), None)
    if loop is None:
        return None
    body = code[loop.end():close(code, loop.end() - 1)]
    if JS_STOPS.search(body):
        return None
    level = _depth(code, run, close)
    for match in re.finditer(rf"(?<![\w$.])(?P<name>[A-Za-z_$][\w$]*)\s*=\s*{re.escape(var)}\s*\??\.\s*"
                             rf"(?:status|exitCode)\s*(?:;|\n|\}})", body):
        at, name = loop.end() + match.start(), match.group("name")
        line_start = code.rfind("\n", 0, at) + 1
        if JS_DECLARED_BEFORE.search(code[line_start:at]) or _depth(code, at, close) != level or name == var:
            continue
        if re.search(rf"process\.exit(?:\s*\(\s*|Code\s*=\s*){re.escape(name)}\b", code[close(code, loop.end() - 1):]):
            return at, name
    return None


JS_CHILD_RUN = lazy(r"""(?<![\w$])(?:(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*|(?P<acc>[A-Za-z_$][\w$]*)\s*\+=\s*)?"""
                   r"""(?:[\w$]+(?:\([^()]*\))?\.)?(?P<fn>execSync|execFileSync|spawnSync)\s*\(""", needs=("Sync",))
# stdout given to the child as the hook's own: stdio "inherit", or [.., "inherit" | 1 | process.stdout, ..] second
JS_INHERITS_STDOUT = lazy(r"""\bstdio\s*:\s*["'`]inherit["'`]|\bstdio\s*:\s*\[\s*[^,\]]*,\s*(?:["'`]inherit["'`]|1\b|"""
                          r"""process\.stdout\b)|\bstdout\s*:\s*["'`]inherit["'`]""")
JS_STDOUT_WRITE = lazy(r"""(?:process\.stdout\.write|console\.log)\s*\(""", needs=("stdout", "console"))


def _js_joined_outputs(code: str, place: Callable[[int], tuple[int, int]], close: Callable[[str, int], int],
                       balanced: Callable[[str, int], str], loops: dict[str, tuple[str, ...]]) -> Iterator[Lost]:
    """A loop that runs several child scripts one after another with their stdout the hook's
    (stdio "inherit", or each result written, or gathered and written after the loop) and does not
    stop at the first (rule "answers-joined", one place per child)."""
    for match in JS_CHILD_RUN.finditer(code):
        arguments = balanced(code, match.end())
        children = _js_children(arguments, loops)
        if len(children) < 2:
            continue
        loop = next((m for m in reversed(list(JS_LOOP_START.finditer(code, 0, match.start())))
                     if close(code, m.end() - 1) > match.start()), None)
        if loop is None:
            continue
        end = close(code, loop.end() - 1)
        body = code[loop.end():end]
        if JS_STOPS.search(body):
            continue
        how = "each child's stdout is the hook's own" if JS_INHERITS_STDOUT.search(arguments) else ""
        gathered = {v for v in match.group("var", "acc") if v}
        for name in list(gathered):  # out += r.stdout, outputs.push(r.stdout)
            gathered |= {m.group(1) for m in re.finditer(rf"([A-Za-z_$][\w$]*)\s*(?:\+=|\.push\s*\()[^;\n]*"
                                                          rf"(?<![\w$.]){re.escape(name)}\b", body)}
        for write in JS_STDOUT_WRITE.finditer(code, loop.start()) if not how and gathered else ():
            said = balanced(code, write.end())
            if said.lstrip().startswith("JSON.stringify"):
                continue  # (one object made of them all)
            if any(re.search(rf"(?<![\w$.]){re.escape(name)}\b", said) for name in gathered):
                how = "the loop prints each child's stdout in turn" if write.start() < end else \
                    "the loop gathers each child's stdout, and the script prints them all"
                break
        if how:
            line, column = place(match.start("fn"))
            yield from (Lost(line, column, how, "", child, rule="answers-joined") for child in children)


JS_LOOP_START = lazy(r"""\bfor\s*\([^{}]*\)\s*\{|\.\s*forEach\s*\([^{}]*\{""", needs=("for",))
JS_STOPS = lazy(r"""\bbreak\b|\breturn\b|process\.exit\b|\bthrow\b""")


# ---- JavaScript: an exit before the asynchronous work the script started has run --------------------

# what starts work that finishes later: stdin read by events or a stream, an async function or
# async arrow called without `await`
JS_ASYNC_STDIN = lazy(r"""process\.stdin\.(?:on|once|addListener|pipe)\s*\(|\bcreateInterface\s*\(|"""
                      r"""Bun\.stdin\.(?:text|json|stream|arrayBuffer)\s*\(|"""
                      r"""\b(?:text|json|buffer)\s*\(\s*process\.stdin\s*\)|\bgetStdin\s*\(""", needs=("stdin", "Stdin", "Interface"))
# a callback Node or Bun runs later: a child's completion (`execFile(cmd, args, (err) => ...)`), its
# `close`/`exit` event, an fs call's (the run goes on to the end of the top level first). (A timer
# is left out: one set before a top-level exit is a watchdog, meant never to run.)
JS_LATER_CALLBACK = lazy(r"""(?<![\w$.])(?:(?:child_process|childProcess|cp)\.)?(?:execFile|exec)\s*\((?=[^;]*=>|[^;]*\bfunction\b)|"""
                         r"""(?<![\w$])(?:fs\.)?(?:readFile|writeFile|appendFile)\s*\((?=[^;]*=>|[^;]*\bfunction\b)|"""
                         r"""(?<!process)\.on(?:ce)?\s*\(\s*["'](?:close|exit)["']""",
                         needs=("exec", "File", ".on"))
JS_ASYNC_FUNCTION = lazy(r"""\basync\s+function\s*\*?\s*(?P<a>[A-Za-z_$][\w$]*)|"""
                         r"""(?:const|let|var)\s+(?P<b>[A-Za-z_$][\w$]*)\s*=\s*async\b""", needs=("async",))
JS_ASYNC_ARROW_CALLED = lazy(r"""\(\s*async\s*(?:function\b|\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>)""", needs=("async",))
JS_DEFINED_HERE = lazy(r"""function\s*\*?\s*$""")  # `async function main(`: the definition, not a call
JS_PROCESS_EXIT = lazy(r"""(?<![\w$.])process\.exit\s*\(""", needs=("process.exit",))
JS_AWAIT_BEFORE = lazy(r"""\bawait\s*\(?\s*$""")  # a module's top-level `await Bun.stdin.text()` ends before the next line
JS_AWAITED = lazy(r"""(?:\bawait|\bvoid|\breturn|[=(,:?]|=>)\s*$""")
JS_CONTROL = lazy(r"""(?:\b(?:if|while|for|with|else|do)|=>|[?:&|])\s*$""")


class EarlyExit(NamedTuple):
    """A top-level process.exit that ends the run before asynchronous work started above it runs."""

    line: int
    column: int
    what: str  # the work, as the code starts it
    started: int  # its line


def javascript_early_exit(code: str, place: Callable[[int], tuple[int, int]],
                          close: Callable[[str, int], int]) -> EarlyExit | None:
    """The first process.exit(...) run unconditionally at the top level after the script started
    asynchronous work there that it does not wait for: a stdin read by events or a stream (not one
    an ES module awaits at its top level), an
    async function called without `await` (`main();`, `main().catch(...)`), or a callback run
    later (execFile's, a child's `close`, an fs call's). Node and Bun end at once: the work never
    runs, so the hook reads nothing and decides nothing."""
    if "process.exit" not in code:
        return None
    starts: list[tuple[int, str]] = [(m.start(), m.group(0).rstrip("( ")) for m in JS_ASYNC_STDIN.finditer(code)
                                     if not JS_AWAIT_BEFORE.search(code[max(0, m.start() - 40):m.start()])]
    starts += [(m.start(), f"{m.group(0).rstrip('( ')}(...) and its callback") for m in JS_LATER_CALLBACK.finditer(code)]
    names = {m.group("a") or m.group("b") for m in JS_ASYNC_FUNCTION.finditer(code)}
    for name in names:
        for call in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*\(", code):
            if not JS_AWAITED.search(code[max(0, call.start() - 40):call.start()]) and \
                    not JS_DEFINED_HERE.search(code[max(0, call.start() - 20):call.start()]):
                starts.append((call.start(), f"{name}()"))
    for arrow in JS_ASYNC_ARROW_CALLED.finditer(code):
        if not JS_AWAITED.search(code[max(0, arrow.start() - 40):arrow.start()]):
            starts.append((arrow.start(), "an async function called at once"))
    starts = [(offset, what) for offset, what in starts if _depth(code, offset, close) == 0]
    if not starts:
        return None
    first, what = min(starts)
    for match in JS_PROCESS_EXIT.finditer(code, first):
        if _depth(code, match.start(), close) == 0 and _statement_start(code, match.start()):
            line, column = place(match.start())
            return EarlyExit(line, column, what, place(first)[0])
    return None


def _statement_start(code: str, offset: int) -> bool:
    """Whether a statement of its own starts at `offset`, run whatever happens before it (not
    the body of an `if`, a loop, an arrow or a `&&`)."""
    before = code[:offset].rstrip()
    if not before or before[-1] in ";}":
        return True
    if before[-1] == ")":  # the end of a call statement, or of an `if (...)` whose body this is
        depth, i = 0, len(before) - 1
        while i >= 0:
            depth += {")": 1, "(": -1}.get(before[i], 0)
            if depth == 0:
                break
            i -= 1
        return not JS_CONTROL.search(before[:max(i, 0)]) and "\n" in code[len(before):offset]
    return "\n" in code[len(before):offset] and not JS_CONTROL.search(before) and before[-1] not in "=+-*/,.(["


def _js_child(arguments: str) -> str:
    """The script file a child process runs, as its arguments' text spells it (the last name
    with a script's suffix); "" where none does."""
    names = SCRIPT_NAME.findall(arguments)
    return names[-1] if names else ""


def _depth(code: str, offset: int, close: Callable[[str, int], int]) -> int:
    """How many braces are open at `offset` (0: the top level)."""
    depth, brace = 0, code.find("{", 0, offset)
    while brace >= 0:
        if close(code, brace) > offset:
            depth += 1
        brace = code.find("{", brace + 1, offset)
    return depth


# ---- shell -------------------------------------------------------------------------------------------

SH_TRAP_EXIT = lazy(r"""(?m)(?:^|[;&|]\s*)trap\s+(?P<q>["'])(?P<body>.*?)(?P=q)\s+(?:[A-Z0-9 ]*\b)?(?:EXIT|0)\b""",
                    needs=("trap",))
SH_TRAP_STATUS = lazy(r"""\bexit\s+(?P<status>[013-9]\d*)\b|\bexit\s*$""")


def shell(code: str, place: Callable[[int], tuple[int, int]], may_exit_2: bool) -> tuple[Lost, ...]:
    """A `trap '... exit N' EXIT` (N not 2) in a script that exits 2 or runs another script: the
    trap's exit is the status."""
    if not may_exit_2:
        return ()
    for match in SH_TRAP_EXIT.finditer(code):
        status = SH_TRAP_STATUS.search(match.group("body"))
        if status and status.group("status") is not None:
            line, column = place(code.index("trap", match.start()))
            return (Lost(line, column, f"this EXIT trap runs `exit {status.group('status')}` as the script ends, "
                         "so every run, an exit 2 included, ends with its status", status.group("status")),)
    return ()


# ---- Perl ----------------------------------------------------------------------------------------------

# `exit $?`, `exit($?)`, `exit system(...)`, or `exit $status` of a `$status = $?` / `= system(...)`:
# the wait status (a child's exit 2 is 512), where `$? >> 8` is the child's own status
PERL_WAIT_STATUS = lazy(r"""(?<![\w$>-])exit\s*\(?\s*(?:\$\?|system\b|\$(?P<var>\w+))(?!\s*>>)""", needs=("exit",))


def perl(code: str, place: Callable[[int], tuple[int, int]]) -> tuple[Lost, ...]:
    """Where a Perl script exits with a child's wait status, not its exit status: exit keeps the
    low byte, so the child's exit 2 (512) becomes 0."""
    for match in PERL_WAIT_STATUS.finditer(code):
        var = match.group("var")
        if var is not None and not re.search(rf"""\${var}\s*=\s*(?:\$\?|system\b)(?!\s*>>)""", code):
            continue
        line, column = place(match.start())
        return (Lost(line, column, "exit here is given the wait status ($?, or what system returns), in which a "
                     "child's exit 2 is 512, and exit keeps its low byte: 0", "0"),)
    return ()


# ---- programs whose own output lands on the hook's stdout ------------------------------------------

# the git subcommands that print on stdout (progress and most messages go to stderr: fetch, push, clone,
# checkout, switch; measured with git 2.43: pull's "Updating.../Fast-forward", stash's "Saved working
# directory", commit's and revert's summary, reset --hard's and worktree add's "HEAD is now at", rm's
# "rm 'f'", clean's "Removing", rebase's "Current branch is up to date", cherry-pick's state)
GIT_PRINTS = frozenset({"status", "log", "diff", "show", "pull", "stash", "commit", "merge", "init", "ls-files",
                        "rev-parse", "reset", "describe", "shortlog", "blame", "grep", "rebase", "rm", "clean",
                        "cherry-pick", "revert", "rev-list", "count-objects", "format-patch", "ls-remote",
                        "for-each-ref", "show-ref", "cat-file", "ls-tree", "name-rev", "whatchanged", "reflog"})
# subcommands that list (on stdout) with no name given, and only change something silently with one
GIT_LISTS = {"branch": frozenset({"-d", "-D", "-l", "--list", "-a", "-r", "-v", "-vv", "--show-current",
                                  "--contains", "--merged", "--no-merged", "--delete"}),
             "tag": frozenset({"-l", "--list", "-n", "--contains", "--points-at"}),
             "remote": frozenset({"-v", "--verbose", "get-url", "show"}),
             "worktree": frozenset({"add", "list"}),
             "config": frozenset({"--get", "--get-all", "--get-regexp", "-l", "--list"})}
PACKAGE_MANAGERS = frozenset({"npm", "pnpm", "yarn"})  # `npm run x` prints "> x" and the script's output
PIP_PRINTS = frozenset({"install", "list", "freeze", "show", "download"})
QUIET = frozenset({"-q", "--quiet", "-s", "--silent", "--porcelain=v0"})
DIRECTORY_STACK = frozenset({"pushd", "popd", "dirs"})  # bash prints the stack after each, on stdout
SEARCHES = frozenset({"grep", "egrep", "fgrep", "rg"})  # print the lines they match (a test in an `if` too)
SEARCH_QUIET = lazy(r"-[a-zA-Z]*q[a-zA-Z]*$|--quiet$|--silent$")
CURL_TO_FILE = lazy(r"-[a-zA-Z]*[oO][a-zA-Z]*$|--output\b|--remote-name")
LOOKUPS = frozenset({"which", "type"})  # print where a command is
# runners and checkers that report on stdout: what they run or find (a clean run of most says nothing,
# a finding is printed: prettier --write lists the files it wrote, ruff and pytest print a summary)
RUNNERS = frozenset({"npx", "pnpx", "bunx", "poetry", "bundle", "eslint", "prettier", "tsc", "ruff", "mypy",
                     "pytest", "jest", "vitest", "shellcheck", "flake8", "pylint", "rubocop", "isort"})
VERBOSE = frozenset({"mkdir", "cp", "mv", "rm", "ln", "chmod", "chown", "rsync"})  # with -v: a line per file
CHATTY = frozenset({"git", "make", "pip", "pip3", "curl", "cd", "command", "nvm"}) | PACKAGE_MANAGERS | \
    DIRECTORY_STACK | SEARCHES | LOOKUPS | RUNNERS | VERBOSE
VERBOSE_FLAG = lazy(r"-[a-zA-Z]*v[a-zA-Z]*$|--verbose$")


def prints_on_stdout(program: str, args: list[str]) -> bool:
    """Whether a program run as `program args...` writes text of its own on stdout: git's
    reporting subcommands, npm/pnpm/yarn, make, pip install (unless told to be quiet), bash's
    pushd and popd, a grep without -q (the lines it matches, in an `if` too), curl's response
    body, `which`/`type`/`command -v`, `cd -`, `nvm use`, npx and the checkers (eslint, prettier,
    ruff, tsc, pytest...), mkdir/cp/mv/rm with -v."""
    program = program.rsplit("/", 1)[-1]
    if program in DIRECTORY_STACK or program in LOOKUPS:
        return True
    if program in SEARCHES:
        return not any(SEARCH_QUIET.match(a) for a in args)
    if program == "curl":  # the response's body, unless it goes to a file
        return not any(CURL_TO_FILE.match(a) for a in args)
    if program == "cd":
        return args == ["-"]  # (cd - prints the directory it goes to)
    if program == "command":
        return bool(args) and args[0] in ("-v", "-V")
    if program in VERBOSE:
        return any(VERBOSE_FLAG.match(a) for a in args) if program != "rsync" else not QUIET & set(args)
    if program == "nvm":  # (nvm.sh's nvm_echo: stdout; `exec` and `run` say "Running node v...")
        return bool(args) and args[0] in ("use", "install", "current", "ls", "alias", "exec", "run") \
            and "--silent" not in args
    if program not in CHATTY or QUIET & set(args) or any(a.startswith("--quiet") for a in args):
        return False
    words = [a for a in args if not a.startswith("-")]
    if program == "git":
        # (`git -C dir status`: the option's value is not the subcommand)
        for index, arg in enumerate(args):
            if arg in ("-C", "-c"):
                words = [a for a in args[index + 2:] if not a.startswith("-")]
        if not words:
            return False
        if words[0] in GIT_LISTS:  # (`git branch` lists, `git branch new` says nothing; `git config k` prints k)
            listing = GIT_LISTS[words[0]]
            return len(words) == 1 or bool(listing & set(args)) or (words[0] == "config" and len(words) == 2)
        return words[0] in GIT_PRINTS and not (words[0] == "diff" and "--exit-code" in args)
    if program in ("pip", "pip3"):
        return bool(words) and words[0] in PIP_PRINTS
    return True


# what writes on stderr in an ordinary run (measured with git 2.39.5 and curl 7.88.1: `git checkout -b x` says
# "Switched to a new branch" there, fetch, pull, push and clone their progress; curl its progress meter
# when its output is not a terminal): with `2>&1`, on the hook's stdout
GIT_TALKS = frozenset({"fetch", "pull", "push", "clone", "checkout", "switch"})
CURL_SILENT = lazy(r"-[a-zA-Z]*s[a-zA-Z]*$|--silent$")


def talks_on_stderr(program: str, args: list[str]) -> bool:
    """Whether a program run as `program args...` writes on stderr in an ordinary run."""
    program = program.rsplit("/", 1)[-1]
    if program == "curl":
        return not any(CURL_SILENT.match(a) for a in args)
    words = [a for a in args if not a.startswith("-")]
    return program == "git" and bool(words) and words[0] in GIT_TALKS and not QUIET & set(args)


# ---- input fields read as one type where an event sends another ------------------------------------

SHAPED_FIELDS = ("tool_input", "tool_output")  # the fields some host event sends as JSON text, another as an object
FIELD_AS_OBJECT = lazy(r"""(?<![\w$])(?P<field>tool_input|tool_output)(?:\\?["'`])?(?:\s*\])?(?:\s*,\s*(?:\{\}|dict\(\))\s*\))?\s*"""
                       r"""(?:\??\.\s*(?:(?:get|items|keys|values)\s*\(|[A-Za-z_]\w*\b(?!\s*\())|\[\s*\\?["'`])""",
                       needs=SHAPED_FIELDS)
FIELD_AS_TEXT = lazy(r"""(?:json\.loads|JSON\.parse)\s*\([^()\n]*?(?P<field>tool_input|tool_output)\b|"""
                     r"""(?P<jq>tool_input|tool_output)\s*\|\s*fromjson\b(?!\?)""", needs=SHAPED_FIELDS)
FIELD_VARIABLE = lazy(r"""(?:(?:const|let|var)\s+)?(?P<var>[A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\]|, ]+)?=\s*[^=\n;]*?"""
                      r"""(?:\[\s*["'](?P<a>tool_input|tool_output)["']\s*\]|\.get\(\s*["'](?P<b>tool_input|tool_output)["']"""
                      r"""[^)\n]*\)|\.(?P<c>tool_input|tool_output)\b)\s*(?:\|\||or\b|\?\?|;|$)""", re.M,
                      needs=SHAPED_FIELDS)
EITHER_TYPE = lazy(r"""isinstance\s*\(|typeof\b|\btype\s*==|fromjson\?|try\s+fromjson|Array\.isArray""",
                   needs=("isinstance", "type", "fromjson", "Array.isArray"))


class FieldRead(NamedTuple):
    field: str  # tool_input | tool_output
    shape: str  # "object" (a member of it is read) | "text" (it is parsed as JSON)
    line: int
    column: int


def field_reads(code: str, place: Callable[[int], tuple[int, int]]) -> tuple[FieldRead, ...]:
    """How the script reads each input field some event sends as JSON text and another as an
    object: its first read as an object (a member: `["tool_input"]["command"]`, `.tool_input.command`,
    a variable holding it and then read so) and its first parse as JSON text. None where the code
    looks at the type (isinstance, typeof, jq's type, `fromjson?`): it may take either."""
    if EITHER_TYPE.search(code):
        return ()
    found: dict[tuple[str, str], int] = {}
    for match in FIELD_AS_OBJECT.finditer(code):
        found.setdefault((match.group("field"), "object"), match.start())
    for match in FIELD_VARIABLE.finditer(code):
        field, var = match.group("a") or match.group("b") or match.group("c"), match.group("var")
        use = re.search(rf"""(?<![\w$.]){re.escape(var)}\s*(?:\??\.\s*(?:(?:get|items|keys|values)\s*\(|"""
                        rf"""[A-Za-z_]\w*\b(?!\s*\())|\[\s*["'`])""", code[match.end():])
        if use is not None:
            found.setdefault((field, "object"), match.end() + use.start())
        parsed = re.search(rf"(?:json\.loads|JSON\.parse)\s*\(\s*{re.escape(var)}\b", code[match.end():])
        if parsed is not None:
            found.setdefault((field, "text"), match.end() + parsed.start())
    for match in FIELD_AS_TEXT.finditer(code):
        found.setdefault((match.group("field") or match.group("jq"), "text"), match.start())
    reads = [FieldRead(field, shape, *place(offset)) for (field, shape), offset in found.items()]
    return tuple(sorted(reads, key=lambda r: (r.line, r.column)))
