"""Where a JavaScript or TypeScript script's own exit 2 never reaches the process that runs it,
and an exit before the asynchronous work it started has run (delivery.py says what is looked for
in each language): loaded only by a run that reads JavaScript or TypeScript code."""

import re
from typing import Callable, NamedTuple

from ...patterns import lazy
from .delivery import Lost, child_script_named

# ---- JavaScript (comment-stripped code) --------------------------------------------------------------

JS_EXEC_SYNC = lazy(r"""(?<![\w$])(?P<fn>execSync|execFileSync)\s*\(""", needs=("Sync",))
JS_SPAWN_SYNC = lazy(r"""(?<![\w$])(?:(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*)?"""
                     r"""(?:[\w$]+(?:\([^()]*\))?\.)?spawnSync\s*\(""", needs=("spawnSync",))
JS_OTHER_STATUS = lazy(r"""process\.exit\s*\(\s*(?P<status>[13-9]\d*)\s*\)|process\.exitCode\s*=\s*(?P<code>[13-9]\d*)\b""")
JS_STATUS_AFTER = lazy(r"""[^;\n]*\)\s*\.status""")  # spawnSync(...).status
JS_TRY_CATCH = lazy(r"""\btry\s*\{""", needs=("try",))
JS_CATCH = lazy(r"""\s*catch\s*(?:\(\s*(?P<err>[A-Za-z_$][\w$]*)?[^)]*\))?\s*\{""")
JS_PASSES_ON = lazy(r"""\bthrow\b|process\.exit\s*\(\s*(?!0\s*\))[^)]|process\.exitCode\s*=\s*(?!0\b)|\.status\b""")
JS_EXIT_CODE_2 = lazy(r"""process\.exitCode\s*=\s*2\b""", needs=("exitCode",))
JS_EXIT_ZERO = lazy(r"""process\.exitCode\s*=\s*0\b|process\.exit\s*\(\s*0\s*\)""", needs=("process.exit",))


def javascript(code: str, place: Callable[[int], tuple[int, int]],
               close: Callable[[str, int], int], balanced: Callable[[str, int], str]) -> tuple[Lost, ...]:
    """The places of a JavaScript script where its block by exit 2 is lost; `close` finds a
    brace's closing one, `balanced` a call's arguments (flow.py's readers)."""
    found: list[Lost] = []
    tries = [(m.end() - 1, close(code, m.end() - 1)) for m in JS_TRY_CATCH.finditer(code)]
    for match in JS_EXEC_SYNC.finditer(code):
        child = child_script_named(balanced(code, match.end()))
        around = [(start, end) for start, end in tries if start < match.start() < end]
        caught = JS_CATCH.match(code, around[-1][1] + 1) if around else None
        if caught is not None:  # a catch that exits with a status of its own (not the child's 2), whatever the child
            body_start = caught.end()
            other = JS_OTHER_STATUS.search(code[body_start:close(code, body_start - 1)])
            if other is not None:
                line, column = place(body_start + other.start())
                status = other.group("status") or other.group("code")
                found.append(Lost(line, column, f"this catch exits {status} when the child {match.group('fn')} "
                                  "runs fails, exit 2 included", status, child))
                continue
        if not child:
            continue
        if not around:
            line, column = place(match.start())
            found.append(Lost(line, column, f"{match.group('fn')} throws when the child exits non-zero, and "
                              "uncaught, node exits 1 (not the child's 2)", "1", child))
            continue
        start, end = around[-1]
        catch = JS_CATCH.match(code, end + 1)
        if catch is None:
            continue
        body = code[catch.end():close(code, catch.end() - 1)]
        if not JS_PASSES_ON.search(body):
            line, column = place(catch.start() + len(catch.group(0)) - len(catch.group(0).lstrip()))
            found.append(Lost(line, column, f"this catch takes the error {match.group('fn')} throws for the child's "
                              "exit 2 and does not pass the status on", "0", child))
    for match in JS_SPAWN_SYNC.finditer(code):
        child = child_script_named(balanced(code, match.end()))
        if not child:
            continue
        var = match.group("var")
        after = code[match.end():]
        if var is None and not JS_STATUS_AFTER.match(after) or (
                var is not None and not re.search(rf"(?<![\w$]){re.escape(var)}\s*(?:\?\.|\.)\s*(?:status|signal)\b",
                                                  after)):
            line, column = place(match.start())
            found.append(Lost(line, column, "spawnSync runs the child script, and its status is never read", "0", child))
    first = JS_EXIT_CODE_2.search(code)
    if first is not None:
        later = next((m for m in JS_EXIT_ZERO.finditer(code, first.end()) if _depth(code, m.start(), close) == 0), None)
        if later is not None:
            line, column = place(later.start())
            found.append(Lost(line, column, "this sets the exit status to 0 after process.exitCode = 2 "
                              f"(line {place(first.start())[0]})", "0"))
    return tuple(sorted(set(found)))


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


def _depth(code: str, offset: int, close: Callable[[str, int], int]) -> int:
    """How many braces are open at `offset` (0: the top level)."""
    depth, brace = 0, code.find("{", 0, offset)
    while brace >= 0:
        if close(code, brace) > offset:
            depth += 1
        brace = code.find("{", brace + 1, offset)
    return depth
