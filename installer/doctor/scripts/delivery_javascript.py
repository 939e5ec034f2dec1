"""Where a JavaScript or TypeScript script's own exit 2 never reaches the process that runs it,
and an exit before the asynchronous work it started has run (delivery.py says what is looked for
in each language): loaded only by a run that reads JavaScript or TypeScript code."""

import re
from typing import Callable, Iterator

from ...patterns import lazy
from ...records import Record
from .delivery import SCRIPT_NAME, Joined, Lost, child_script_named

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
JS_EXIT_WITH = lazy(r"""process\.exit(?:Code\s*=\s*|\s*\(\s*)$""")  # what a status read right after is handed to
JS_MISSING_FIELD_TEST = lazy(r"""\.(?:code|exitCode)\s*(?:[!=]==?\s*[12]\b|\))""", needs=("code", "exitCode"))
JS_EXIT_ZERO = lazy(r"""process\.exitCode\s*=\s*0\b|process\.exit\s*\(\s*0\s*\)""", needs=("process.exit",))


def javascript(code: str, place: Callable[[int], tuple[int, int]],
               close: Callable[[str, int], int], balanced: Callable[[str, int], str]) -> tuple[Lost | Joined, ...]:
    """The places of a JavaScript script where its block by exit 2 is lost; `close` finds a
    brace's closing one, `balanced` a call's arguments (flow.py's readers). A child named by a
    loop variable (`for (const g of ["no_rm.py", "fmt.py"])`) is each script the loop runs."""
    found: list[Lost | Joined] = []
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
        error = catch.group("err")
        wrong = re.search(rf"process\.exit(?:Code\s*=\s*|\s*\(\s*){re.escape(error)}\s*\??\.\s*code\b", body) \
            if error else None
        if wrong is not None:
            line, column = place(catch.end() + wrong.start())
            found.extend(Lost(line, column, f"{error}.code is not the child's status (it names a failure to start, "
                              f"and is undefined for a child that exits 2: its status is {error}.status): this exits 0",
                              "0", child) for child in children)
            continue
        for said in JS_CONSOLE_CALL.finditer(body):  # (a status it only logs is not passed on)
            told = balanced(body, said.end())
            body = body[:said.end()] + " " * len(told) + body[said.end() + len(told):]
        if not JS_PASSES_ON.search(body):
            line, column = place(catch.start() + len(catch.group(0)) - len(catch.group(0).lstrip()))
            status = " or ".join(sorted({s for _, said in own or () for s in said.split(" or ")} - {"0"})) or "0"
            found.extend(Lost(line, column, f"this catch takes the error {match.group('fn')} throws for the child's "
                              "exit 2 and does not pass the status on", status, child) for child in children)
    read = JS_READS_STDIN.search(code)
    if read is None:
        found.extend(_js_stdin_shared(code, place, balanced, loops))
    for match in [*JS_EXEC_SYNC.finditer(code), *JS_SPAWN_SYNC.finditer(code)] if read is not None else ():
        arguments = balanced(code, match.end())
        if match.start() > read.start() and not JS_GIVES_INPUT.search(arguments):
            line, column = place(match.start())
            found.extend(Lost(line, column, f"the script has read all of its stdin (line {place(read.start())[0]}) "
                              f"and the child started here is given no input (no `input:` option)", "0", child,
                              rule="stdin-not-passed") for child in _js_children(arguments, loops))
    for match in JS_SPAWN_SYNC.finditer(code):
        children = _js_children(balanced(code, match.end()), loops)
        var = match.group("var")
        if not children and var is not None and (own is not None and _js_told_apart(code[match.end():], var)
                                                  or JS_MISSING_FIELD_TEST.search(code, match.end()) and re.search(
                                                      rf"(?<![\w$.]){re.escape(var)}\s*\??\.\s*(?:code|exitCode)\s*"
                                                      r"(?:[!=]==?\s*[12]\b|\))", code[match.end():])):
            children = ("",)  # a child the script cannot name, but whose 2 it reads as a refusal (or means to)
        if not children:
            continue
        after = code[match.end():]
        read = re.compile(rf"(?<![\w$]){re.escape(var)}\s*(?:\?\.|\.)\s*(?:status|signal|exitCode|success|code)\b") \
            if var is not None else None
        if var is None and not JS_STATUS_AFTER.match(after) or (read is not None and not read.search(after)):
            line, column = place(match.start())
            found.extend(Lost(line, column, "spawnSync runs the child script, and its status is never read", "0", child)
                         for child in children)
            continue
        if var is None:
            continue
        bun = match.group(0).lstrip().startswith(("const", "let", "var")) and "Bun." in match.group(0) \
            or match.group(0).startswith("Bun.")
        # Node's result holds `status`; Bun's `exitCode` (Bun's reference, SyncSubprocess: bun is not installed here)
        held, others = ("exitCode", "status|code") if bun else ("status", "exitCode|code")
        # (any read of a field the result lacks: `process.exit(r.code)`, `if (r.code === 2)`, `r.exitCode !== 0`)
        missing = re.search(rf"(?<![\w$.]){re.escape(var)}\s*\??\.\s*(?P<prop>{others})\b(?!\s*=[^=])", after)
        if missing is not None and not re.search(rf"(?<![\w$.]){re.escape(var)}\s*\??\.\s*{held}\b", after):
            line, column = place(match.end() + missing.start())
            at = match.end() + missing.start()
            exits = JS_EXIT_WITH.search(code[max(0, at - 30):at]) is not None
            found.extend(Lost(line, column, f"{'Bun.' if bun else ''}spawnSync's result has no {missing.group('prop')} "
                              f"(the child's status is {var}.{held}): {var}.{missing.group('prop')} is undefined, so "
                              + ("this exits with undefined, which is 0" if exits else
                                 "the test of the child's status here is never true and its 2 is never passed on"),
                              "0", child) for child in children)
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
    if "Worker" in code:
        found.extend(_js_worker_exits(code, place, close, balanced, loops))
    found.extend(_js_returns_dropped(code, place, close))
    first = JS_EXIT_CODE_2.search(code)
    if first is not None:
        later = next((m for m in JS_EXIT_ZERO.finditer(code, first.end()) if _depth(code, m.start(), close) == 0), None)
        if later is not None:
            line, column = place(later.start())
            found.append(Lost(line, column, "this sets the exit status to 0 after process.exitCode = 2 "
                              f"(line {place(first.start())[0]})", "0"))
    return tuple(sorted(set(found)))


JS_FUNCTION = lazy(r"""(?:\bfunction\s+(?P<a>[A-Za-z_$][\w$]*)\s*\([^()]*\)|"""
                  r"""\b(?:const|let|var)\s+(?P<b>[A-Za-z_$][\w$]*)\s*=\s*(?:function\b[^(]*\([^()]*\)|"""
                  r"""\([^()]*\)\s*=>|[A-Za-z_$][\w$]*\s*=>))\s*\{""", needs=("function", "=>"))
JS_RETURN_2 = lazy(r"""\breturn\s+2\s*;?""", needs=("return",))


def _js_returns_dropped(code: str, place: Callable[[int], tuple[int, int]],
                        close: Callable[[str, int], int]) -> list[Lost]:
    """A function whose block is its `return 2` (`function deny(why) { console.error(why); return 2; }`)
    whose every call is a statement of its own (`deny("no rm");`): nothing hands the value to
    process.exit or process.exitCode, so node ends 0. At the `return 2`."""
    if not JS_RETURN_2.search(code):
        return []
    for match in JS_FUNCTION.finditer(code):
        name = match.group("a") or match.group("b")
        end = close(code, match.end() - 1)
        back = JS_RETURN_2.search(code, match.end(), end)
        if back is None or re.search(r"\bprocess\.exit", code[match.end():end]):
            continue
        # (a return inside a nested function or callback is that one's)
        if any(inner.start() < back.start() < close(code, inner.end() - 1)
               for inner in JS_FUNCTION.finditer(code, match.end(), end)):
            continue
        uses = [m for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\b", code) if not match.start() <= m.start() < match.end()]
        calls = [m for m in uses if re.match(r"\s*\(", code[m.end():])]
        if not calls or len(calls) != len(uses):
            continue  # (handed on as a value: a table of checks, a callback)
        if all(_js_statement_call(code, m.start()) and not JS_CHAINED.match(code, _js_call_end(code, m.end()))
               for m in calls):
            line, column = place(back.start())
            return [Lost(line, column, f"`return 2` hands 2 back to the caller of {name}(), and its call (line "
                         f"{place(calls[0].start())[0]}) drops the value: nothing makes it the process's status, so "
                         "node runs on and ends 0", "0")]
    return []


JS_CHAINED = lazy(r"""\s*(?:\?\.|\.)""")  # `main().then(...)`: the value is used


def _js_call_end(code: str, after_name: int) -> int:
    """Just past the parentheses of a call whose name ends at `after_name` (its end where unbalanced)."""
    depth, at = 0, code.find("(", after_name)
    while 0 <= at < len(code):
        depth += {"(": 1, ")": -1}.get(code[at], 0)
        at += 1
        if depth == 0:
            return at
    return len(code)


def _js_statement_call(code: str, at: int) -> bool:
    """A call that is a statement of its own: at a line's start or after `;`, `{`, `}` or `)` (an if's
    condition), and not awaited, returned or assigned."""
    before = code[max(0, code.rfind("\n", 0, at)):at].rstrip()
    return before in ("", "\n") or before.endswith((";", "{", "}", ")", "else", "=>"))


JS_READS_STDIN = lazy(r"""readFileSync\s*\(\s*(?:0|["']/dev/stdin["']|process\.stdin\.fd)\s*[,)]""",
                     needs=("readFileSync",))
# a run given the input again, or whose options are not spelt here (`...options`, a variable)
JS_GIVES_INPUT = lazy(r"""\binput\s*:|\binput\b\s*[,}]|\.\.\.|,\s*[A-Za-z_$][\w$]*\s*$""")


JS_INHERITS_STDIN = lazy(r"""\bstdio\s*:\s*(?:["'`]inherit["'`]|\[\s*(?:["'`]inherit["'`]|0\b|process\.stdin\b))""",
                        needs=("stdio",))


def _js_stdin_shared(code: str, place: Callable[[int], tuple[int, int]], balanced: Callable[[str, int], str],
                     loops: dict[str, tuple[str, ...]]) -> list[Lost]:
    """Children run one after another with the hook's own stdin (`stdio: "inherit"`, `[0, ...]`),
    which the script never read: the first reads the input to its end, and each after it reads
    nothing (measured with node 20.20.2: of two spawnSync or execFileSync children in a loop, the
    second's `$(cat)` is empty)."""
    found: list[Lost] = []
    seen = 0
    for match in sorted([*JS_EXEC_SYNC.finditer(code), *JS_SPAWN_SYNC.finditer(code)], key=lambda m: m.start()):
        arguments = balanced(code, match.end())
        children = _js_children(arguments, loops)
        if not children or not JS_INHERITS_STDIN.search(arguments) or JS_GIVES_INPUT.search(arguments):
            continue
        starved = children if seen else children[1:]
        seen += len(children)
        line, column = place(match.start())
        found.extend(Lost(line, column, "each child started here inherits the hook's stdin (stdio \"inherit\", no "
                          "`input:`), and the first of them reads it to its end: every child after it reads nothing",
                          "0", child, rule="stdin-not-passed") for child in starved)
    return found


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
    over an array bound to a name, or `GUARDS.forEach((g) => ...)`; and over a folder's files
    (`fs.readdirSync(path.join(__dirname, "guards")).filter((f) => f.endsWith(".js"))`: "guards/*.js")."""
    arrays = {m.group("name"): m.group("items") for m in JS_ARRAY.finditer(code)}
    out: dict[str, tuple[str, ...]] = {}
    for match in JS_FOR_OF.finditer(code):
        name = match.group("name") or match.group("name2")
        items = match.group("items") or match.group("items2") or arrays.get(name or "", "")
        names = SCRIPT_NAME.findall(items)
        if names:
            out[match.group("var") or match.group("var2")] = tuple(dict.fromkeys(names))
    for match in JS_FOLDER_LOOP.finditer(code) if "readdir" in code else ():
        source = match.group("source") or match.group("source2")
        bound = JS_BOUND.search(code, 0, match.start()) if JS_NAME_ONLY.fullmatch(source.strip()) else None
        pattern = _js_folder_pattern(code, bound.group("value") if bound else source)
        if pattern:
            out[match.group("var") or match.group("var2")] = (pattern,)
    return out


# a loop over a list: `for (const g of SOURCE)` or `SOURCE.forEach((g) =>` (SOURCE: up to the loop's own paren)
JS_FOLDER_LOOP = lazy(r"""\bfor\s*\(\s*(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s+of\s+(?P<source>[^\n{]*)\)\s*\{|"""
                      r"""^[ \t]*(?P<source2>[^\n]*?)\s*\.\s*(?:forEach|map)\s*\(\s*(?:async\s*)?(?:function\s*)?\(?\s*"""
                      r"""(?P<var2>[A-Za-z_$][\w$]*)""", re.M)
JS_NAME_ONLY = lazy(r"[A-Za-z_$][\w$]*")
JS_BOUND = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=\s*(?P<value>[^;\n]*readdir[^;\n]*)""")
JS_READDIR = lazy(r"""\breaddir(?:Sync)?\s*\(\s*(?P<folder>[^()]*(?:\([^()]*\)[^()]*)*)\)""")
JS_FOLDER_WORDS = lazy(r"""["'`]\.?/?([\w.@+-]+(?:/[\w.@+-]+)*)/?["'`]""")
JS_ENDS_WITH = lazy(r"""endsWith\(\s*["'`](\.[\w]+)["'`]\s*\)""")


def _js_folder_pattern(code: str, source: str) -> str:
    """The files a loop's source takes from a folder beside the script, as a pattern ("guards/*.js"):
    readdir of `path.join(__dirname, "guards")` (or a name bound to it, or `__dirname + "/guards"`),
    with the suffix its filter keeps; "" for anything else."""
    call = JS_READDIR.search(source)
    if call is None:
        return ""
    folder = call.group("folder").strip()
    if JS_NAME_ONLY.fullmatch(folder):
        bound = re.search(rf"(?:const|let|var)\s+{re.escape(folder)}\s*=\s*([^;\n]+)", code)
        folder = bound.group(1) if bound else ""
    if "__dirname" not in folder and "import.meta" not in folder:
        return ""
    words = JS_FOLDER_WORDS.findall(folder)
    suffix = JS_ENDS_WITH.search(source)
    return "/".join([*words, "*" + (suffix.group(1) if suffix else "")]) if words else ""


def _js_children(arguments: str, loops: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The script files a child process may run: the one its arguments spell, or else those a loop
    variable among them takes in turn."""
    child = child_script_named(arguments)
    if child:
        return (child,)
    found: list[str] = []
    for word in JS_NAME_IN.finditer(arguments):
        names = loops.get(word.group(0), ())
        if not names:
            continue
        # (`path.join(__dirname, 'checks', name)`, `` `${__dirname}/checks/${name}` ``: the folder written before it)
        before = arguments[:word.start()]
        joined = max(before.rfind("join("), before.rfind("resolve("))
        template = before.rfind("`") if before.count("`") % 2 else -1
        start = template if template >= 0 else joined
        folder = "/".join(m.group(1) or m.group(2) for m in JS_FOLDER_BEFORE.finditer(before, start)) if start >= 0 else ""
        found += [n if "/" in n or not folder else f"{folder}/{n}" for n in names]
    return tuple(dict.fromkeys(found))


# a folder's name written as a string or a template's literal part before a loop's name
JS_FOLDER_BEFORE = lazy(r"""["'](\w[\w@+-]*(?:/[\w@+-]+)*)/?["']\s*,|(?<=\})/(\w[\w@+-]*(?:/[\w@+-]+)*)/(?=\$\{)""")


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


def _js_told_apart(after: str, var: str) -> bool:
    """The script tests the child's status against 2 (`r.status === 2`, `status !== 2`): it knows
    that 2 is the child's refusal, whatever the child is."""
    return re.search(rf"(?<![\w$]){re.escape(var)}\s*(?:\?\.|\.)\s*(?:status|exitCode)\s*[!=]==?\s*2\b|"
                     rf"\b2\s*[!=]==?\s*{re.escape(var)}\s*(?:\?\.|\.)\s*(?:status|exitCode)\b", after) is not None


JS_WORKER = lazy(r"""\bnew\s+Worker\s*\(""", needs=("Worker",))
JS_WORKER_BRANCH = lazy(r"""\bif\s*\(\s*(?P<not>!\s*)?(?:[\w$]+\.)?isMainThread\s*\)\s*\{""", needs=("isMainThread",))
JS_ELSE = lazy(r"""\s*else\b[^{;]*\{""")
JS_EXIT_2 = lazy(r"""process\.exit\s*\(\s*2\s*\)|process\.exitCode\s*=\s*2\b""", needs=("process.exit",))
# the main thread ends with the worker's status: `worker.on("exit", (code) => process.exit(code))`
JS_WORKER_STATUS_PASSED = lazy(r"""\.on\(\s*["'`]exit["'`]\s*,\s*(?:async\s*)?\(?\s*(?P<code>[A-Za-z_$][\w$]*)\s*\)?\s*=>"""
                               r"""[^;]*?process\.exit(?:Code\s*=\s*|\s*\(\s*)(?P=code)\b""", needs=("exit",))


def _js_worker_exits(code: str, place: Callable[[int], tuple[int, int]], close: Callable[[str, int], int],
                     balanced: Callable[[str, int], str], loops: dict[str, tuple[str, ...]]) -> list[Lost]:
    """A refusal made in a worker thread (worker_threads): process.exit() there ends the worker
    alone, and the main thread ends with its own status, 0, unless its worker's `exit` handler
    passes the code on (node 20.20.2, measured). The worker's code is this file's part that runs
    where isMainThread is false, or a script of its own that `new Worker(...)` names."""
    starts = list(JS_WORKER.finditer(code))
    if not starts or JS_WORKER_STATUS_PASSED.search(code):
        return []
    found = []
    for branch in JS_WORKER_BRANCH.finditer(code):
        end = close(code, branch.end() - 1)
        region = (branch.end(), end)
        if branch.group("not") is None:  # `if (isMainThread) {...} else {...}`: the worker's is the else
            other = JS_ELSE.match(code, end + 1)  # (`else {`, or `else if (...) {`: the worker's part)
            if other is None:
                continue
            region = (other.end(), close(code, other.end() - 1))
        refusal = JS_EXIT_2.search(code, *region)
        if refusal is not None:
            line, column = place(refusal.start())
            found.append(Lost(line, column, "this exit runs in a worker thread (worker_threads): it ends the worker "
                              "alone, and the main thread ends with its own status, since nothing passes the worker's "
                              "exit code on", "0"))
            return found
    for start in starts:
        line, column = place(start.start())
        found.extend(Lost(line, column, "the worker thread started here runs the child script, and its exit ends the "
                          "worker alone: the main thread ends with its own status, since nothing passes the worker's "
                          "exit code on", "0", child) for child in _js_children(balanced(code, start.end()), loops))
    return found


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
                       balanced: Callable[[str, int], str], loops: dict[str, tuple[str, ...]]) -> Iterator[Joined]:
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
            yield from (Joined(line, column, how, child) for child in children)


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


class EarlyExit(Record):
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


def _depth(code: str, offset: int, close: Callable[[str, int], int]) -> int:
    """How many braces are open at `offset` (0: the top level)."""
    depth, brace = 0, code.find("{", 0, offset)
    while brace >= 0:
        if close(code, brace) > offset:
            depth += 1
        brace = code.find("{", brace + 1, offset)
    return depth
