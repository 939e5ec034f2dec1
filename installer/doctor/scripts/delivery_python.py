"""Where a Python script's own exit 2 never reaches the process that runs it (delivery.py says
what is looked for in each language): loaded only by a run that reads a Python script."""

import ast
from typing import Callable, Iterator

from .delivery import Lost, child_script_named

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


def _child_script(call: ast.Call) -> str:
    """The script file a child process runs, as its arguments spell it (the last literal with a
    script's suffix: "guard.py" of os.path.join(HERE, "guard.py")); "" where none does."""
    found = ""
    for node in [*call.args, *(k.value for k in call.keywords if k.arg == "args")]:
        for inner in ast.walk(node):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                found = child_script_named(inner.value) or found
    return found


def _children(tree: ast.Module, nodes: list[ast.AST]) -> Iterator[Lost]:
    """subprocess/os.system calls of a child script whose status the script drops or garbles."""
    yield from _asyncio_children(nodes)
    runs = [node for node in nodes if isinstance(node, ast.Call) and _name(node.func) in PY_RUNS
            and (_child_script(node) or _name(node.func).endswith("system"))]
    if not runs:
        return
    parents: dict[int, ast.AST] = {}
    for node in nodes:
        for inner in ast.iter_child_nodes(node):
            parents[id(inner)] = node
    for node in runs:
        name, child = _name(node.func), _child_script(node)
        parent = parents.get(id(node))
        checked = any(k.arg == "check" and not (isinstance(k.value, ast.Constant) and not k.value.value)
                      for k in node.keywords)
        if isinstance(parent, ast.Call) and _name(parent.func) in PY_EXITS | {"SystemExit"}:
            if name.endswith("system"):
                yield Lost(parent.lineno, parent.col_offset + 1, f"{_name(parent.func)}(os.system(...)) exits with "
                           "the child's wait status (exit 2 is 512, which the exit turns into 0)", "0")
            continue
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name) \
                and name.endswith("system") and _status_use(nodes, parent.targets[0].id, parent) == "wait-status":
            var = parent.targets[0].id  # (whatever the child: any failure's wait status exits 0)
            yield Lost(node.lineno, node.col_offset + 1, f"{var} = os.system(...) is the child's wait status "
                       f"(exit 2 is 512), and sys.exit({var}) turns it into 0", "0")
            continue
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
            continue
        if _in_try(node, parents) or not child:
            continue
        if isinstance(parent, ast.Expr):
            yield Lost(node.lineno, node.col_offset + 1, f"{name}(...) runs the child script and drops its exit status",
                       "0", child)
            continue
        if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
            var = parent.targets[0].id
            use = _status_use(nodes, var, parent)
            if use == "none":
                yield Lost(node.lineno, node.col_offset + 1,
                           f"{name}(...) runs the child script, and its exit status ({var}) is never passed on", "0", child)
            elif use == "read" and not _exit_of(nodes, var):
                mapped = _exit_on_test_of(nodes, var)  # if rc != 0: sys.exit(1): every failure made one status
                if mapped is not None:
                    status = _status(mapped.args[0], {})
                    yield Lost(mapped.lineno, mapped.col_offset + 1, f"this exit replaces the child's status ({var}, "
                               "2 when it refuses) with its own", str(int(status) if isinstance(status, int) else 1),
                               child)


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
    """Whether a handler passes the child's status on: it reads returncode, raises, or exits 2."""
    for node in ast.walk(handler):
        if isinstance(node, ast.Raise) or (isinstance(node, ast.Attribute) and node.attr == "returncode"):
            return True
        if isinstance(node, ast.Call) and _name(node.func) in PY_EXITS and node.args and _status(node.args[0], {}) == 2:
            return True
    return False


def _exit_of(nodes: list[ast.AST], var: str) -> bool:
    """Whether an exit hands on a value made from the variable (sys.exit(rc), sys.exit(r.returncode))."""
    return any(isinstance(node, ast.Call) and _name(node.func) in PY_EXITS | {"SystemExit"} and node.args
               and any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(node.args[0])) for node in nodes)


def _exit_on_test_of(nodes: list[ast.AST], var: str) -> ast.Call | None:
    """The exit with a constant status other than 2 in the body of an `if` that tests the variable."""
    for node in nodes:
        if isinstance(node, ast.If) and any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(node.test)):
            for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                if isinstance(inner, ast.Call) and _name(inner.func) in PY_EXITS and inner.args \
                        and isinstance(_status(inner.args[0], {}), int) and _status(inner.args[0], {}) not in (0, 2):
                    return inner
    return None


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
    for node in nodes:
        if isinstance(node, ast.Call) and _name(node.func) in PY_EXITS | {"SystemExit"} and node.args \
                and isinstance(node.args[0], ast.Name) and node.args[0].id == var:
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
