"""How long a hook's code may wait in a loop of a known count whose body sleeps (a retry, a poll):
the retry variant of script/outlasts-its-time, which event_fit.py asks only of code that names a
wait a loop's body may make (event_fit.may_sleep): a run without such code does not import it
(doctor on one typical file 344.4 M -> 344.2 M instructions)."""
from __future__ import annotations

import re
from typing import Iterator

from ....patterns import lazy
from .event_fit import BODY_SLEEPS, CALL_LIMITS, MS, Code

# a loop of a known count whose body sleeps: (the count, where the loop starts); the body is read by language
RETRY_LOOPS = {
    "python": lazy(r"""(?m)^(?P<indent>[ \t]*)for\s+(?P<var>\w+)\s+in\s+range\(\s*(?:(?P<first>\d+)\s*,\s*)?(?P<last>\d+)\s*\)\s*:""",
                   needs=("range(",)),
    "shell": lazy(r"""(?m)\bfor\s+(?P<var>\w+)\s+in\s+(?:\$\(\s*seq\s+(?:(?P<first>\d+)\s+)?(?P<last>\d+)\s*\)|"""
                  r"""\{(?P<first2>\d+)\.\.(?P<last2>\d+)\})\s*;?\s*(?:\n\s*)?do\b""", needs=("for",)),
    "javascript": lazy(r"""\bfor\s*\(\s*(?:let|var)\s+(?P<var>\w+)\s*=\s*(?P<first>\d+)\s*;\s*(?P=var)\s*(?P<op><=?)\s*"""
                       r"""(?P<last>\d+)\s*;[^)]*\)\s*\{""", needs=("for",)),
}
# a counted `while` loop: `while attempt < 10:`, `while [ "$n" -lt 10 ]; do`, `until [ $n -ge 10 ]`, `while (i < 10) {`
RETRY_WHILES = {
    "python": lazy(r"""(?m)^(?P<indent>[ \t]*)while\s+(?P<var>\w+)\s*(?P<op><=?)\s*(?P<last>\d+)\s*:""", needs=("while",)),
    "shell": lazy(r"""\b(?:while\s+\[\[?\s*"?\$\{?(?P<var>\w+)\}?"?\s+-(?P<op>lt|le)|until\s+\[\[?\s*"?\$\{?"""
                  r"""(?P<var2>\w+)\}?"?\s+-(?P<op2>ge|gt))\s+(?P<last>\d+)\s*\]\]?\s*;?\s*(?:\n\s*)?do\b""",
                  needs=("while", "until")),
    "javascript": lazy(r"""\bwhile\s*\(\s*(?P<var>\w+)\s*(?P<op><=?)\s*(?P<last>\d+)\s*\)\s*\{""", needs=("while",)),
}
NUMBER = lazy(r"\d+(?:\.\d+)?")
MAX_PASSES = 64  # (a growing back-off's sum over more passes than this is beyond any hook's time anyway)




def retry_wait(code: Code) -> tuple[float, int, str] | None:
    """The longest a loop of a known count can wait when each pass sleeps (a retry or a poll:
    `for attempt in range(10): ... time.sleep(5)`, `for i in $(seq 30); do ...; sleep 2; done`,
    `for (let i = 0; i < 20; i++) { ... await sleep(3000) }`): passes times the sleep, in seconds,
    where the loop starts, and how. The loop may end early (the lock freed, the service up), so
    this is the most it waits, not what it always waits."""
    loops, sleeps = RETRY_LOOPS.get(code.language), BODY_SLEEPS.get(code.language)
    if loops is None or sleeps is None:
        return None
    found = None
    for loop, count in [*_counted_for_loops(code, loops), *_counted_while_loops(code)]:
        body = _loop_body(code, loop)
        if count < 2:
            continue
        waits = [wait for m in sleeps.finditer(body)
                 if (wait := _pass_waits(code, m, body, loop.start(), count, loop.groupdict().get("var")))]
        if not waits:
            continue
        total, how = max(waits)
        limit = _call_limit(code, body)
        if limit:
            total, how = total + count * limit, f"{how}, after a call that may wait {limit:g} s"
        if found is None or total > found[0]:
            found = (total, loop.start(), f"{count} passes of a loop that sleeps {how}")
    return found


def _counted_for_loops(code: Code, loops: re.Pattern[str]) -> Iterator[tuple[re.Match[str], int]]:
    for loop in loops.finditer(code.text):
        groups = loop.groupdict()
        first = int(groups.get("first") or groups.get("first2") or (1 if code.language == "shell" else 0))
        last = int(groups.get("last") or groups.get("last2") or 0)
        yield loop, {"python": last - first, "shell": last - first + 1,
                     "javascript": last - first + (1 if groups.get("op") == "<=" else 0)}[code.language]


def _counted_while_loops(code: Code) -> Iterator[tuple[re.Match[str], int]]:
    """`while n < 10` (and the shell's `-lt`, `until ... -ge`) over a counter the body steps by
    one, from the value it is given before the loop (0 where none is seen)."""
    pattern = RETRY_WHILES.get(code.language)
    for loop in pattern.finditer(code.text) if pattern is not None else ():
        var = loop.group("var") or loop.groupdict().get("var2") or ""
        op = loop.group("op") or loop.groupdict().get("op2") or ""
        body = _loop_body(code, loop)
        if not re.search(rf"(?<![\w$]){var}\s*(?:\+=\s*1\b|\+\+)|\+\+\s*{var}\b|{var}\s*=\s*\$?\(\(\s*\$?{var}\s*\+\s*1\s*\)\)"
                         rf"|\blet\s+\"?{var}\+\+|{var}\s*=\s*{var}\s*\+\s*1\b", body):
            continue
        given = list(re.finditer(rf"(?<![\w$.]){var}\s*=\s*(\d+)\b", code.text[:loop.start()]))
        first = int(given[-1].group(1)) if given else 0
        yield loop, int(loop.group("last")) - first + (1 if op in ("<=", "le", "gt") else 0)


def _pass_waits(code: Code, sleep: re.Match[str], body: str, start: int, count: int,
                counter: str | None = None) -> tuple[float, str] | None:
    """The most `count` passes wait at this sleep, in seconds, and how it waits: a number each
    pass, or a variable given a number before the loop that the body multiplies each pass (a
    back-off: `delay *= 2`, `delay=$((delay * 2))`, `delay = delay * 2`), or a sum of the loop's
    counter (`time.sleep(1 + attempt)`, `sleep $((2 ** i))`), summed over the passes."""
    scale = MS.get(code.language, 1.0)
    number = next((g for g in sleep.groups() if g and NUMBER.fullmatch(g)), None)
    if number is not None:
        each = float(number) / scale
        return count * each, f"{each:g} s"
    expression = sleep.groupdict().get("expr") or sleep.groupdict().get("expr2")
    if expression and counter:
        counted_from = _counter_start(code, start)
        waits = [_arithmetic(expression, counter, value)
                 for value in range(counted_from, counted_from + min(count, MAX_PASSES))]
        if waits and None not in waits:
            return sum(w for w in waits if w is not None) / scale, f"({expression.strip()}) s" if scale == 1 \
                else f"({expression.strip()}) ms"
        return None
    var = sleep.groupdict().get("var") or sleep.groupdict().get("var2")
    if not var:
        return None
    given = list(re.finditer(rf"(?<![\w$.]){re.escape(var)}\s*=\s*(\d+(?:\.\d+)?)\b", code.text[:start]))
    grows = re.search(rf"(?<![\w$]){re.escape(var)}\s*\*=\s*(\d+)|{re.escape(var)}\s*=\s*\$?\(?\(?\s*\$?"
                      rf"{re.escape(var)}\s*\*\s*(\d+)", body)
    if not given:
        return None
    first = float(given[-1].group(1)) / scale
    factor = float(next(g for g in grows.groups() if g)) if grows else 1.0
    passes = min(count, MAX_PASSES)
    total = first * passes if factor == 1 else first * (factor ** passes - 1) / (factor - 1)
    return total, (f"{first:g} s" if factor == 1 else f"{first:g} s, then {factor:g} times longer each pass")


def _counter_start(code: Code, start: int) -> int:
    """The first value of the loop's counter at `start` (range(1, 4): 1; seq 3: 1; else 0)."""
    loop = RETRY_LOOPS[code.language].match(code.text, start) if code.language in RETRY_LOOPS else None
    groups = loop.groupdict() if loop else {}
    return int(groups.get("first") or groups.get("first2") or (1 if code.language == "shell" else 0))


def _arithmetic(expression: str, counter: str, value: int) -> float | None:
    """The value of a sleep's arithmetic over the loop's counter (`1 + attempt`, `2 ** i`,
    `$i * 2`), numbers and + - * / ** only; None for anything else (a call, another name)."""
    import ast

    try:
        tree = ast.parse(expression.replace("$", "").strip(), mode="eval")
    except (SyntaxError, ValueError):
        return None

    def value_of(node: ast.AST) -> float | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id == counter:
            return float(value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
            left, right = value_of(node.left), value_of(node.right)
            if left is None or right is None or (isinstance(node.op, ast.Pow) and abs(right) > 16) \
                    or (isinstance(node.op, ast.Div) and right == 0):
                return None
            return {ast.Add: left + right, ast.Sub: left - right, ast.Mult: left * right}.get(type(node.op)) \
                if not isinstance(node.op, (ast.Div, ast.Pow)) else left / right if isinstance(node.op, ast.Div) \
                else left ** right
        return None

    return value_of(tree.body)


def _call_limit(code: Code, body: str) -> float | None:
    """The longest time limit a call in the loop's body is given (seconds), None if none is."""
    pattern = CALL_LIMITS.get(code.language)
    limits = [float(next(g for g in m.groups() if g)) / MS.get(code.language, 1.0)
              for m in pattern.finditer(body)] if pattern is not None else []
    return max(limits) if limits else None


SH_DONE = lazy(r"(?<![\w-])done(?![\w-])", needs=("done",))


def _loop_body(code: Code, loop: re.Match[str]) -> str:
    """The text of a loop's body: its indented lines (Python), up to its `done` (shell), inside its braces (JavaScript)."""
    rest = code.text[loop.end():]
    if code.language == "python":
        indent = len(loop.group("indent").expandtabs())
        lines = rest.split("\n")[1:]
        body = []
        for line in lines:
            if line.strip() and len(line) - len(line.lstrip()) <= indent:
                break
            body.append(line)
        return "\n".join(body)
    if code.language == "shell":
        done = SH_DONE.search(rest)
        return rest[:done.start()] if done else ""
    depth = 1
    for index, char in enumerate(rest):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return rest[:index]
    return ""
