"""Where a Python script's own exit 2 never reaches the process that runs it (delivery.py says
what is looked for in each language): loaded only by a run that reads a Python script."""

import ast
from typing import Callable, Iterator

from ...patterns import lazy
from .delivery import SCRIPT_NAME, Joined, Lost, child_script_named

PY_RUNS = frozenset({"subprocess.run", "subprocess.call", "subprocess.Popen", "os.system", "run", "call", "Popen",
                     "subprocess.check_call", "check_call", "subprocess.check_output", "check_output"})
PY_CHECKED = frozenset({"subprocess.check_call", "check_call", "subprocess.check_output", "check_output"})  # raise on non-zero
PY_EXITS = frozenset({"sys.exit", "exit", "quit"})  # (os._exit ends the process at once: nothing catches it)
# what starts a thread (its target's SystemExit never leaves it), and where a positional target sits
THREAD_STARTS = frozenset({"threading.Thread", "Thread", "threading.Timer", "Timer", "_thread.start_new_thread",
                           "start_new_thread"})
POSITIONAL_TARGET = {"threading.Timer": 1, "Timer": 1, "_thread.start_new_thread": 0, "start_new_thread": 0}
# what starts a child process running a function: its SystemExit ends that process alone, whose
# status the script reads as `.exitcode` (python 3.11, measured: dropped, the script ends 0)
PROCESS_STARTS = frozenset({"multiprocessing.Process", "Process", "mp.Process", "multiprocessing.context.Process"})
# an executor's runs of a function, and where it sits: its SystemExit waits in the future (or map's
# iterator, or the awaited run_in_executor) and reaches the caller only when that is read
EXECUTOR_TARGET = {"submit": 0, "map": 0, "run_in_executor": 1}
FUTURE_READS = frozenset({"result", "exception"})
CATCHES_EXIT = frozenset({"", "BaseException", "SystemExit"})  # ("": a bare except)
# where the child's status is read: it is then the script's to pass on (not reported)
STATUS_READ = frozenset({"returncode", "wait", "poll", "check_returncode"})
PROCESS_OBJECTS = frozenset({"run", "Popen"})  # (call and check_call return the status itself)
TO_EXIT_CODE = frozenset({"os.waitstatus_to_exitcode", "waitstatus_to_exitcode", "os.WEXITSTATUS", "WEXITSTATUS"})


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


def python(tree: ast.Module, nodes: list[ast.AST]) -> tuple[Lost | Joined, ...]:
    """The places of a Python script where its exit 2 is lost, and where its children's answers
    join on its stdout (`nodes`: every node of the tree)."""
    tries = [node for node in nodes if isinstance(node, ast.Try) and (node.finalbody or any(
        handler.type is None or CATCHES_EXIT & {_name(t) for t in ast.walk(handler.type)} for handler in node.handlers))]
    threads = [node for node in nodes if isinstance(node, ast.Call) and _name(node.func) in THREAD_STARTS]
    threads += _executor_runs(nodes)
    if not any(isinstance(n, ast.Attribute) and n.attr == "exitcode" for n in nodes):
        threads += [node for node in nodes if isinstance(node, ast.Call) and _name(node.func) in PROCESS_STARTS]
    if not tries and not threads:
        return tuple(sorted({*_children(tree, nodes), *_returns_dropped(tree, nodes)}))
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

    found = [*_caught_exits(tries, blocks_in), *_in_threads(threads, exiting, nodes), *_children(tree, nodes),
             *_returns_dropped(tree, nodes)]
    return tuple(sorted(set(found)))


def _returns_dropped(tree: ast.Module, nodes: list[ast.AST]) -> Iterator[Lost]:
    """A function whose block is its `return 2` (`def deny(why): print(why, file=sys.stderr);
    return 2`) whose every call is a statement of its own (`deny("no rm")`): nothing turns the value
    into the process's status, and the script runs on to end 0. At the `return 2`, where
    `sys.exit(2)` is the fix."""
    constants = _constants(tree)
    functions = {node.name: node for node in nodes if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if not functions:
        return
    calls: dict[str, list[ast.Call]] = {}
    for node in nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
            calls.setdefault(node.func.id, []).append(node)
    bare = {id(n.value) for n in nodes if isinstance(n, ast.Expr)}
    # (`asyncio.run(main())` as a statement drops what main returns too)
    bare |= {id(n.value.args[0]) for n in nodes if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
             and _name(n.value.func) in ("asyncio.run", "run", "trio.run", "anyio.run") and n.value.args}
    for name, found in calls.items():
        back = next((n for n in _own_nodes(functions[name]) if isinstance(n, ast.Return) and n.value is not None
                     and _status(n.value, constants) == 2), None)
        if back is None or not all(id(c) in bare for c in found):
            continue
        if len([n for n in nodes if isinstance(n, ast.Name) and n.id == name]) != len(found):
            continue  # (handed on as a value: a table of checks, a callback)
        yield Lost(back.lineno, back.col_offset + 1, f"`return 2` hands 2 back to the caller of {name}(), and its "
                   f"call (line {found[0].lineno}) drops the value: nothing makes it the process's status, so the "
                   "script runs on and ends 0", "0")
        return


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function's body, not those of the functions and lambdas defined in it."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(node))


def _in_threads(starts: list[ast.Call], exiting: set[str], nodes: list[ast.AST]) -> Iterator[Lost]:
    """A thread whose target exits 2: SystemExit raised in a thread ends that thread alone
    (threading's excepthook lets it pass without a word), and the process ends with the main
    thread's status. (A ThreadPoolExecutor's future.result() raises it again in the caller.)"""
    for call in starts:
        target = next((k.value for k in call.keywords if k.arg in ("target", "function")), None)
        if isinstance(call.func, ast.Attribute) and call.func.attr in EXECUTOR_TARGET:
            target = call.args[EXECUTOR_TARGET[call.func.attr]]
        elif target is None and _name(call.func) in POSITIONAL_TARGET and len(call.args) > POSITIONAL_TARGET[_name(call.func)]:
            target = call.args[POSITIONAL_TARGET[_name(call.func)]]
        names = _functions_named(target, nodes)
        hit = next((name for name in names if name in exiting), None)
        if hit is None:
            continue
        if _name(call.func) in PROCESS_STARTS:
            yield Lost(call.lineno, call.col_offset + 1, f"{hit}() exits 2 in the child process started here: "
                       "SystemExit ends only that process, whose status (its exitcode) the script never reads, and "
                       "the script goes on to exit with its own", "0")
        elif isinstance(call.func, ast.Attribute) and call.func.attr in EXECUTOR_TARGET:
            yield Lost(call.lineno, call.col_offset + 1, f"{hit}() exits 2 in an executor's worker thread here, and "
                       "nothing reads what it ended with (future.result(), the map's results, an await): SystemExit "
                       "stays in the future, and the script goes on to exit with the main thread's status", "0")
        else:
            yield Lost(call.lineno, call.col_offset + 1, f"{hit}() exits 2 in the thread started here: SystemExit "
                       "ends only that thread, and the script goes on to exit with the main thread's status", "0")


def _executor_runs(nodes: list[ast.AST]) -> list[ast.Call]:
    """The executor runs whose outcome the script never reads: `pool.submit(f)` in a script that
    reads no future (`.result()`, `.exception()`), `pool.map(f, ...)` or
    `loop.run_in_executor(None, f)` as a statement of its own (its iterator never consumed, never
    awaited). Measured with python 3.11: each ends 0 when f exits 2; `.result()`, `list(map(...))`
    and `await` end 2."""
    calls = [node for node in nodes if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
             and node.func.attr in EXECUTOR_TARGET and len(node.args) > EXECUTOR_TARGET[node.func.attr]]
    if not calls:
        return []
    dropped = {id(node.value) for node in nodes if isinstance(node, ast.Expr)}
    read = any(isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FUTURE_READS
               for node in nodes)
    return [call for call in calls if id(call) in dropped or (call.func.attr == "submit" and not read)]  # type: ignore[attr-defined]


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


def _child_script(call: ast.Call, loops: dict[str, tuple[str, ...]] | None = None) -> str:
    """The script file a child process runs, as its arguments spell it (the last literal with a
    script's suffix: "guard.py" of os.path.join(HERE, "guard.py")); "" where none does."""
    return next(iter(_child_scripts(call, loops or {})), "")


def _child_scripts(call: ast.Call, loops: dict[str, tuple[str, ...]],
                   bound: dict[str, ast.AST] | None = None) -> tuple[str, ...]:
    """The script files a child process may run: the last literal of its arguments with a
    script's suffix, or else the scripts a loop variable among them takes in turn
    (`for name in ("no_rm.py", "fmt.py"): run([..., HERE / name])`)."""
    found, named = "", list[str]()
    for node in [*call.args, *(k.value for k in call.keywords if k.arg == "args")]:
        for inner in ast.walk(node):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                found = child_script_named(inner.value) or found
            elif isinstance(inner, ast.Name) and inner.id in loops:
                folder = _folder_before(node, inner, bound or {})
                named.extend(n if "/" in n or not folder else f"{folder}/{n}" for n in loops[inner.id])
    return (found,) if found else tuple(dict.fromkeys(named))


def _folder_before(node: ast.AST, name: ast.Name, bound: dict[str, ast.AST]) -> str:
    """The folders a path built around a name writes before it: `os.path.join(HERE, "checks", name)`,
    `HERE / "checks" / name`, f"{HERE}/checks/{name}" are "checks", and so is `CHECKS / name` where
    the module binds CHECKS = HERE / "checks" (`bound`); "" where none is written."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call) and _name(inner.func).endswith("join"):
            parts = inner.args
        elif isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Div):
            parts, left = [inner.right], inner.left
            while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Div):
                parts, left = [left.right, *parts], left.left
            parts = [left, *parts]
        elif isinstance(inner, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.FormattedValue) else v for v in inner.values]
        else:
            continue
        if name not in parts:
            continue
        written = [c.value for p in parts[:parts.index(name)]
                   for c in ([p] if not isinstance(p, ast.Name) or p.id not in bound else sorted(
                       (n for n in ast.walk(bound[p.id]) if isinstance(n, ast.Constant)),
                       key=lambda n: (n.lineno, n.col_offset)))
                   if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        return "/".join(w.strip("/") for w in written if FOLDER.fullmatch(w.strip("/")))
    return ""


FOLDER = lazy(r"[\w@+][\w.@+-]*(?:/[\w.@+-]+)*")  # a folder's name ("checks", "hooks/checks/")


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
            table = _table_of(node.iter, bound)
            if table is not None:  # GUARDS.get(tool, []), GUARDS[tool]: the scripts any of its lists names
                names = [_script_path(c.value) for c in ast.walk(table) if isinstance(c, ast.Constant)
                         and isinstance(c.value, str) and c not in table.keys]
                if [n for n in names if n]:
                    out[node.target.id] = tuple(dict.fromkeys(n for n in names if n))
            elif isinstance(items, (ast.Tuple, ast.List, ast.Set)):
                names = [_script_path(" ".join(c.value for c in ast.walk(e) if isinstance(c, ast.Constant)
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


def _script_path(text: str) -> str:
    """The script a string names: itself where it is a relative path ("guards/shell.py", looked for
    beside the dispatcher), else the last script name in it."""
    return text if RELATIVE_SCRIPT.fullmatch(text) else child_script_named(text)


RELATIVE_SCRIPT = lazy(r"(?:[\w.@+-]+/)+[\w.@+-]*\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl)")


def _table_of(iterated: ast.AST, bound: dict[str, ast.AST]) -> ast.Dict | None:
    """The dict literal a loop takes one list of (`GUARDS.get(tool, [])`, `GUARDS[tool]`)."""
    if isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "get":
        iterated = iterated.func.value
    elif isinstance(iterated, ast.Subscript):
        iterated = iterated.value
    else:
        return None
    table = bound.get(iterated.id) if isinstance(iterated, ast.Name) else None
    return table if isinstance(table, ast.Dict) else None


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


def _children(tree: ast.Module, nodes: list[ast.AST]) -> Iterator[Lost | Joined]:
    """subprocess/os.system calls of a child script whose status the script drops or garbles."""
    yield from _asyncio_children(nodes)
    loops = _loop_scripts(nodes)
    bound: dict[str, ast.AST] = {n.targets[0].id: n.value for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
             and isinstance(n.targets[0], ast.Name)}  # (a module's folders: CHECKS = HERE / "checks")
    runs = [(node, _child_scripts(node, loops, bound)) for node in nodes if isinstance(node, ast.Call)
            and _name(node.func) in PY_RUNS]
    runs = [(node, children) for node, children in runs if children or _name(node.func).endswith("system")
            or _tells_2_apart(node, nodes)]
    if not runs:
        return
    parents: dict[int, ast.AST] = {}
    for node in nodes:
        for inner in ast.iter_child_nodes(node):
            parents[id(inner)] = node
    read = _stdin_read(nodes)
    yield from _stdin_shared(runs, read)
    for node, children in runs:
        for child in children or ("",):
            yield from _run_lost(node, child, parents, nodes, _count(children))
            if read is not None and child and read.lineno < node.lineno and not _given_input(node):
                yield Lost(node.lineno, node.col_offset + 1, f"the script has read all of its stdin (line "
                           f"{read.lineno}) and {_name(node.func)}(...) here gives the child no input= (it inherits "
                           "the stdin that is now at its end)", "0", child, rule="stdin-not-passed")
    yield from _joined_outputs(runs, parents, nodes)


def _stdin_shared(runs: list[tuple[ast.Call, tuple[str, ...]]], read: ast.Call | None) -> Iterator[Lost]:
    """Children run one after another (a loop's, or in turn) with the stdin the script never read
    and never gives them: the first reads the hook's input to its end, and each after it reads
    nothing (measured with python 3.11: of two `subprocess.run(["bash", g])` in a loop, the second
    child's `$(cat)` is empty)."""
    if read is not None:
        return  # (the script's own read leaves every child nothing: the rule's other form, below)
    seen = 0
    for node, children in sorted(runs, key=lambda item: (item[0].lineno, item[0].col_offset)):
        if _given_input(node) or not children:
            continue
        starved = children if seen else children[1:] + tuple(c for c in children if "*" in c)
        seen += _count(children)
        for child in starved:
            yield Lost(node.lineno, node.col_offset + 1, f"each child {_name(node.func)}(...) starts here inherits "
                       "the hook's stdin (no input=), and the first of them reads it to its end: every child after "
                       "it reads nothing", "0", child, rule="stdin-not-passed")


STDIN_READS = frozenset({"sys.stdin.read", "sys.stdin.readlines", "json.load", "sys.stdin.buffer.read"})


def _stdin_read(nodes: list[ast.AST]) -> ast.Call | None:
    """The first read of the whole of stdin: json.load(sys.stdin), sys.stdin.read()."""
    return min((n for n in nodes if isinstance(n, ast.Call) and _name(n.func) in STDIN_READS and (
        _name(n.func) != "json.load" or (n.args and _name(n.args[0]) == "sys.stdin"))),
        key=lambda n: (n.lineno, n.col_offset), default=None)


def _given_input(run: ast.Call) -> bool:
    """A child run given its input: input=..., a stdin= other than the script's own (PIPE, a file),
    or, for a command a shell runs (os.system, shell=True), a redirection or a pipe written in it
    (`f"{guard} < {saved.name}"`, `f"cat {saved.name} | {guard}"`)."""
    for keyword in run.keywords:
        if keyword.arg == "input" or keyword.arg is None:  # (**options: not known)
            return True
        if keyword.arg == "stdin" and _name(keyword.value) not in ("sys.stdin", "None"):
            return True
    return _through_a_shell(run) and any("<" in text or "|" in text for text in _command_literals(run))


def _through_a_shell(run: ast.Call) -> bool:
    return _name(run.func).endswith("system") or any(
        k.arg == "shell" and not (isinstance(k.value, ast.Constant) and not k.value.value) for k in run.keywords)


def _command_literals(run: ast.Call) -> list[str]:
    """The literal text of the command a call runs (its first argument: a string or an f-string)."""
    if not run.args:
        return []
    return [n.value for n in ast.walk(run.args[0]) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _count(children: tuple[str, ...]) -> int:
    """How many scripts a run may be: a folder's files ("guards/*.py") count as several."""
    return len(children) + (1 if any("*" in child for child in children) else 0)


WRITES = frozenset({"print", "sys.stdout.write", "sys.stdout.buffer.write"})


def _joined_outputs(runs: list[tuple[ast.Call, tuple[str, ...]]], parents: dict[int, ast.AST],
                    nodes: list[ast.AST]) -> Iterator[Joined]:
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
                yield Joined(node.lineno, node.col_offset + 1, how, child)


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
        elif name.rpartition(".")[2] in PROCESS_OBJECTS:
            yield Lost(parent.lineno, parent.col_offset + 1, f"{_name(parent.func)}({name}(...)) is handed the "
                       "process object, not its returncode: Python prints it and exits 1", "1")
        return
    target = parent.targets[0].id if isinstance(parent, ast.Assign) and len(parent.targets) == 1 \
        and isinstance(parent.targets[0], ast.Name) else None
    if target is not None and parent is not None and name.rpartition(".")[2] in PROCESS_OBJECTS \
            and _status_use(nodes, target, parent) == "wait-status":
        yield Lost(node.lineno, node.col_offset + 1, f"{target} = {name}(...) is the process object, and "
                   f"sys.exit({target}) prints it and exits 1 (its status is {target}.returncode)", "1", child)
        return
    if target is not None and name.rpartition(".")[2] == "Popen" and _unwaited(nodes, target):
        yield Lost(node.lineno, node.col_offset + 1, f"{target}.returncode is read without {target}.wait() (or "
                   "communicate()): it is still None while the child runs, and sys.exit(None) exits 0", "0", child)
        return
    if target is not None and parent is not None and name.endswith("system") \
            and _status_use(nodes, target, parent) == "wait-status":
        # (whatever the child: any failure's wait status exits 0)
        yield Lost(node.lineno, node.col_offset + 1, f"{target} = os.system(...) is the child's wait status "
                   f"(exit 2 is 512), and sys.exit({target}) turns it into 0", "0")
        return
    misread = _small_status_test(node, parent, target, nodes) if name.endswith("system") else None
    if misread is not None:
        yield Lost(misread.lineno, misread.col_offset + 1, "os.system(...) returns the child's wait status on Linux and macOS (its "
                   "exit 2 is 512), so this test of an exit status is never true and the refusal is never passed on",
                   "0")
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
    if _in_try(node, parents) or not child and not _tells_2_apart(node, nodes):
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
    if use not in ("read", "wait-status"):  # (`sys.exit(rc)` of subprocess.call's rc: its status, handed on)
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


def _unwaited(nodes: list[ast.AST], var: str) -> bool:
    """A Popen whose returncode the script reads but whose end it never waits for (wait,
    communicate, poll, a `with` block, which waits on leaving it)."""
    reads = [n for n in nodes if isinstance(n, ast.Attribute) and n.attr == "returncode" and _name(n.value) == var]
    waits = [n for n in nodes if isinstance(n, ast.Attribute) and n.attr in ("wait", "communicate", "poll")
             and _name(n.value) == var]
    within = any(isinstance(n, ast.withitem) and isinstance(n.optional_vars, ast.Name) and n.optional_vars.id == var
                 for n in nodes)
    return bool(reads) and not waits and not within


def _small_status_test(run: ast.Call, parent: ast.AST | None, target: str | None,
                       nodes: list[ast.AST]) -> ast.Compare | None:
    """A test of os.system's result against an exit status of 1 to 255 (`rc == 2`, `rc in (1, 2)`,
    `os.system(...) == 2`), where the result is never turned into an exit status first (`>> 8`,
    os.waitstatus_to_exitcode, WEXITSTATUS): never true, since it is the wait status (2 is 512)."""
    if isinstance(parent, ast.Compare):
        tests = [parent]
    elif target is not None:
        if any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.RShift, ast.FloorDiv, ast.BitAnd))
               and _mentions(n, target) or isinstance(n, ast.Call) and (_name(n.func) in TO_EXIT_CODE or
                                                                       _name(n.func).startswith("os.W"))
               and _mentions(n, target) for n in nodes):
            return None
        tests = [n for n in nodes if isinstance(n, ast.Compare) and any(isinstance(side, ast.Name) and side.id == target
                                                                         for side in (n.left, *n.comparators))]
    else:
        return None
    for test in tests:
        values = [c.value for side in (test.left, *test.comparators)
                  for c in ([side] if isinstance(side, ast.Constant) else getattr(side, "elts", []))
                  if isinstance(c, ast.Constant) and isinstance(c.value, int) and not isinstance(c.value, bool)]
        if values and all(0 < v < 256 for v in values):
            return test
    return None


def _tells_2_apart(run: ast.Call, nodes: list[ast.AST]) -> bool:
    """The result of this run, stored in a name, is tested against 2: the script knows 2 is the
    child's refusal, whatever the child is (`r = subprocess.run(...)`, `if r.returncode == 2`)."""
    for node in nodes:
        if isinstance(node, ast.Assign) and node.value is run and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            var = node.targets[0].id
            return any(isinstance(n, ast.Compare) and any(_mentions(side, var) for side in (n.left, *n.comparators))
                       and any(isinstance(c, ast.Constant) and c.value == 2 for c in (n.left, *n.comparators))
                       for n in nodes)
    return False


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
    if _truth(node) or isinstance(node, ast.Constant) and isinstance(node.value, bool):
        return "0 or 1"
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
    or `return rc` from the main() whose value sys.exit is given); a truth value made from it
    (sys.exit(rc != 0)) is 0 or 1, not the child's status."""
    return any(isinstance(n, ast.Name) and n.id == var for value in _exit_values(nodes) if not _truth(value)
               for n in ast.walk(value))


def _truth(node: ast.AST) -> bool:
    """A value that is True or False: a comparison, a `not`, an `and`/`or` of them, bool(), any(),
    all(): sys.exit() of it exits 1 or 0 (python 3.11, measured: sys.exit(True) is exit 1)."""
    if isinstance(node, ast.Compare) or isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return True
    if isinstance(node, ast.BoolOp):
        return all(_truth(value) for value in node.values)
    return isinstance(node, ast.Call) and _name(node.func) in ("bool", "any", "all")


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
