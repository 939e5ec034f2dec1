"""What a language's runtime does with a hook's stdin and stdout that its code does not say in
so many words: a child process whose output lands on the hook's stdout (Bun's `$` shell without
`.quiet()`, a child run with stdio "inherit"), and a read of stdin that stops before the end of
the payload (the first chunk of a stream, one read of a pipe, a read of N characters).

Measured on Node 20, Bun 1.3.14, Deno 2.9.6 and Python 3.11, the payload written to a pipe
(docs/hosts/claude-code.md#what-a-runtime-does-on-its-own): one chunk of process.stdin, of
Bun.stdin.stream() or Deno.stdin.readable or of `for await` over them, one fs.readSync, one
Deno.stdin.read and one os.read are at most 65,536 bytes (Claude Code's stdin is a socket: one
os.read took 219,264 bytes there, Node's first chunk 65,536); `await $\\`git branch --show-current\\`` prints the branch on the script's stdout
(its .stdout is filled as well), and `.quiet()`, `.text()`, `.json()`, `.lines()` do not;
Bun.spawn's stdout is a pipe unless `stdout: "inherit"`.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Iterator

from ...patterns import lazy
from .delivery import READS_NOTHING, SCRIPT_NAME, Lost, prints_on_stdout

PIPE_CHUNK = 65536  # one read of a pipe (Node's and Bun's stream chunk, os.read): bytes
CUT_OFF = 1 << 20  # a read of at most this many characters is a cap a large Write's payload passes

# ---- JavaScript (comment-blanked code) -------------------------------------------------------------

BUN_SHELL_IMPORT = lazy(r"""import\s*\{(?P<names>[^{}]*)\}\s*from\s*["']bun["']""", needs=("bun",))
# zx's `$` (zx 8.8.5): it prints nothing on stdout (with $.verbose = true, the command and its
# output go to stderr), but it throws a ProcessOutput for a child that exits non-zero: uncaught,
# node exits 1, and `$.nothrow = true` or `.nothrow()` keeps the exitCode (measured with `$` imported
# from "zx"); `$` imported from "zx" or "zx/core", or the global of zx/globals and of a zx #! line
ZX_IMPORT = lazy(r"""import\s*\{(?P<names>[^{}]*)\}\s*from\s*["']zx(?:/core)?["']|"""
                 r"""(?P<globals>import\s*["']zx/globals["']|^#!.*\bzx\b)""", needs=("zx",))
BUN_SHELL_NAME = lazy(r"""(?:^|,)\s*\$(?:\s+as\s+(?P<alias>[A-Za-z_$][\w$]*))?\s*(?=,|$)""")
SILENT_METHODS = frozenset({"quiet", "text", "json", "lines", "blob", "arrayBuffer", "bytes"})
CHAINED_CALL = lazy(r"""\s*\.\s*(?P<method>[A-Za-z_$][\w$]*)\s*\(""")
STDOUT_REDIRECTED = lazy(r"""(?:^|\s)(?:1|&)?>""", needs=(">",))
AWAITED = lazy(r"""\bawait\s*\(?\s*$""", needs=("await",))
RESULT_STDOUT = lazy(r"""\s*(?:\)\s*)?\.\s*stdout\b""")
ASSIGNED = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=\s*(?:await\s*)?$""")

NODE_CHILD = lazy(r"""(?<![\w$])(?P<fn>execSync|execFileSync|spawnSync|spawn|execa|execaSync|execFile|exec|"""
                  r"""Bun\.spawnSync|Bun\.spawn)\s*\(""", needs=("exec", "spawn"))
INHERITS = lazy(r"""\bstdio\s*:\s*(?:["']inherit["']|\[\s*[^,\]]*,\s*(?:["']inherit["']|1\b|process\.stdout\b))|"""
                r"""\bstdout\s*:\s*(?:["']inherit["']|1\b|process\.stdout\b)""", needs=("std",))
STRING = lazy(r"""(["'`])((?:\\.|(?!\1).)*)\1""", re.S)

FIRST_CHUNK = lazy(r"""process\.stdin\.once\(\s*["'](?:data|readable)["']""", needs=("once",))
DATA_HANDLER = lazy(r"""process\.stdin\.(?:on|addListener)\(\s*["']data["']\s*,\s*(?:async\s*)?"""
                    r"""(?:function\s*[\w$]*\s*\(\s*(?P<a>[A-Za-z_$][\w$]*)|\(\s*(?P<b>[A-Za-z_$][\w$]*)[^()]*\)\s*=>|"""
                    r"""(?P<c>[A-Za-z_$][\w$]*)\s*=>)""", needs=("data",))
FOR_AWAIT = lazy(r"""for\s+await\s*\(\s*(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s+of\s+"""
                 r"""(?:process\.stdin|Bun\.stdin\.stream\(\s*\)|Deno\.stdin\.readable)\s*\)\s*\{""", needs=("await",))
ONE_READ = lazy(r"""(?<![\w$])(?:(?:fs\.)?readSync\(\s*(?:0|process\.stdin\.fd)\s*,|Deno\.stdin\.read\(|"""
                r"""getReader\(\s*\)\s*\.read\(\s*\))""", needs=("readSync", "Deno.stdin", "getReader"))
READER = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=\s*[^;\n]*?\.getReader\(\s*\)""", needs=("getReader",))
# `process.stdin.read()` where no "readable" or "data" listener waits for the data: called as the
# script starts, before any has arrived, it returns null (node 20.20.2, measured on a pipe and on a
# socket: null; `fs.readFileSync(0)` read all of it on both)
SYNC_STDIN_READ = lazy(r"""(?<![\w$])process\.stdin\.read\(\s*\)""", needs=("process.stdin.read",))
STDIN_LISTENER = lazy(r"""process\.stdin\s*\.\s*(?:on|once|addListener|pipe)\s*\(|\bfor\s+await\b|createInterface|"""
                      r"""stream/consumers|\bresume\s*\(""")
LOOP = lazy(r"""\b(?:while|for)\s*\(|\bdo\s*\{""", needs=("while", "for", "do"))
BREAKS = lazy(r"""\bbreak\b""", needs=("break",))


def js_child_output(code: str, balanced: Callable[[str, int], str]) -> Iterator[tuple[int, str]]:
    """(offset, what) of each child process whose own stdout is the hook's: an awaited Bun `$`
    command without .quiet() (or .text(), .json()...) and without a redirection, that prints
    (its result's .stdout is read, or the program is one that prints); a child run with stdio
    "inherit" (Node) or stdout "inherit" (Bun.spawn) whose program prints, other than a script
    (a dispatcher passes its guard's answer on so, by design)."""
    tags = _bun_shell_tags(code)
    for tag in tags:
        for match in re.finditer(rf"(?<![\w$.]){re.escape(tag)}\s*`", code):
            end = _template_end(code, match.end())
            template = code[match.end():end]
            if not AWAITED.search(code, max(0, match.start() - 20), match.start()) or \
                    STDOUT_REDIRECTED.search(template.rsplit("|", 1)[-1]):
                continue
            methods, after = _chain(code, end + 1, balanced)
            if methods & SILENT_METHODS:
                continue
            if _reads_stdout(code, match.start(), after) or _printer(_words(template)):
                yield match.start(), f"{tag}`{' '.join(template.split())[:40]}` (its output, without .quiet())"
    for match in NODE_CHILD.finditer(code):
        arguments = balanced(code, match.end())
        if not INHERITS.search(arguments):
            continue
        words = _child_words(arguments)
        if words and not SCRIPT_NAME.search(" ".join(words)) and _printer(words):
            yield match.start(), f"{match.group('fn')}({' '.join(words)[:40]}, stdio inherited) (its output)"


BUN_NO_THROW = lazy(r"""(?<![\w$])\$\s*\.\s*(?:nothrow\s*(?:\(\s*\)|=\s*true\b)|throws\s*\(\s*false\s*\))""",
                    needs=("nothrow", "throws"))  # (zx: `$.nothrow = true`)
STATUS_READ = lazy(r"""\s*(?:\)\s*)?\.\s*exitCode\b""")
TRY = lazy(r"""\btry\s*\{""", needs=("try",))
SPAWN_SYNC_STATUS = lazy(r"""(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*(?:[\w$]+(?:\([^()]*\))?\.)?spawnSync\s*\(""",
                         needs=("spawnSync",))
BUN_SPAWN = lazy(r"""(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*Bun\.spawn\s*\(""", needs=("Bun.spawn",))
TIMEOUT_OPTION = lazy(r"""\btimeout\s*:""", needs=("timeout",))


def js_lost_statuses(code: str, place: Callable[[int], tuple[int, int]], close: Callable[[str, int], int],
                     balanced: Callable[[str, int], str]) -> Iterator[Lost]:
    """Where a JavaScript dispatcher loses its child script's exit 2 through its runtime: an
    awaited Bun `$` command that runs the script without .nothrow() (the child's 2 throws a
    ShellError, and uncaught, Bun exits 1) or with .nothrow() and its exitCode never read (0);
    a spawnSync with a timeout whose `.status` goes to process.exit as it is (null when the
    timeout kills the child, and process.exit(null) exits 0); a Bun.spawn whose `exited` is
    never awaited (its exitCode is still null)."""
    tries = [(m.end() - 1, close(code, m.end() - 1)) for m in TRY.finditer(code)]
    no_throw = BUN_NO_THROW.search(code) is not None
    zx = _zx_shell_tags(code)
    for tag in _bun_shell_tags(code) + zx:
        runtime = ("zx's $", "a ProcessOutput", "node") if tag in zx else ("Bun's $", "a ShellError", "bun")
        for match in re.finditer(rf"(?<![\w$.]){re.escape(tag)}\s*`", code):
            end = _template_end(code, match.end())
            child = SCRIPT_NAME.findall(code[match.end():end])
            if not child or not AWAITED.search(code, max(0, match.start() - 20), match.start()):
                continue
            methods, after = _chain(code, end + 1, balanced)
            line, column = place(match.start())
            if "nothrow" not in methods and not no_throw:
                if not any(start < match.start() < stop for start, stop in tries):
                    yield Lost(line, column, f"{runtime[0]} throws {runtime[1]} when the child exits non-zero, "
                               f"and uncaught, {runtime[2]} exits 1 (not the child's 2)", "1", child[-1])
            elif not STATUS_READ.match(code, after) and not _reads_exit_code(code, match.start(), after):
                yield Lost(line, column, f"{runtime[0]} runs the child script with .nothrow(), and its exitCode is "
                           "never read", "0", child[-1])
    for match in SPAWN_SYNC_STATUS.finditer(code):
        arguments = balanced(code, match.end())
        child = SCRIPT_NAME.findall(arguments)
        if not child or not TIMEOUT_OPTION.search(arguments):
            continue
        var = re.escape(match.group("var"))
        passed = re.search(rf"process\.exit(?:\s*\(\s*|Code\s*=\s*){var}\s*\??\.\s*status\s*(?![\s?|]*(?:\?\?|\|\|))",
                           code[match.end():])
        if passed is not None:
            line, column = place(match.end() + passed.start())
            yield Lost(line, column, "spawnSync's status is null when its timeout kills the child, and "
                       "process.exit(null) exits 0", "0", child[-1])


    for match in BUN_SPAWN.finditer(code):
        arguments = balanced(code, match.end())
        child = SCRIPT_NAME.findall(arguments)
        var = re.escape(match.group("var"))
        rest = code[match.end() + len(arguments):]
        if not child or re.search(rf"(?<![\w$.]){var}\s*\.\s*exited\b", rest):
            continue
        read = re.search(rf"(?<![\w$.]){var}\s*\.\s*exitCode\b", rest)
        at = match.end() + len(arguments) + read.start() if read is not None else match.start()
        line, column = place(at)
        yield Lost(line, column, "Bun.spawn's child runs on: its exitCode is null until `await proc.exited`, "
                   "and process.exit(null) exits 0" if read is not None else
                   "Bun.spawn runs the child script, and its exit status is never awaited (proc.exited)", "0", child[-1])


    yield from _mapped_statuses(code, place, balanced)


CHILD_RESULT = lazy(r"""(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*(?:await\s+)?(?:[\w$]+(?:\([^()]*\))?\.)?"""
                    r"""(?P<fn>spawnSync|spawn|Bun\.spawn|Bun\.spawnSync)\s*\(""", needs=("spawn",))
EXIT_HANDLER = lazy(r"""\.on\(\s*["'](?:exit|close)["']\s*,\s*(?:async\s*)?(?:function\s*\(\s*|\(\s*)?(?P<param>[A-Za-z_$][\w$]*)""",
                    needs=("exit", "close"))


def _mapped_statuses(code: str, place: Callable[[int], tuple[int, int]],
                     balanced: Callable[[str, int], str]) -> Iterator[Lost]:
    """Where a dispatcher turns its child script's status into 0 or 1 of its own: `process.exit(
    r.status === 0 ? 0 : 1)`, `if (r.status !== 0) process.exit(1)`, an "exit" handler's
    `process.exit(code ? 1 : 0)`; the child's 2 never reaches the host."""
    for match in CHILD_RESULT.finditer(code):
        arguments = balanced(code, match.end())
        child = SCRIPT_NAME.findall(arguments)
        if not child:
            continue
        rest_at = match.end() + len(arguments)
        names = [rf"{re.escape(match.group('var'))}\s*\??\.\s*(?:status|exitCode)"]
        handler = EXIT_HANDLER.search(code, rest_at)
        if handler is not None and re.match(rf"\s*\)\s*(?:\.on|;?\s*{re.escape(match.group('var'))}\s*\.on)",
                                            code[rest_at:handler.start() + 3]) is not None:
            names.append(rf"(?<![\w$.]){re.escape(handler.group('param'))}\b")
        alternatives = "|".join(names)
        rest = code[rest_at:]
        if re.search(rf"process\.exit(?:Code\s*=\s*|\s*\(\s*)(?:await\s+)?(?:{alternatives})\s*(?:\)|\?\?|\|\||;|$)", rest, re.M):
            continue  # (the status passed on as it is)
        mapped = re.search(rf"process\.exit(?:Code\s*=\s*|\s*\(\s*)[^;\n)]*(?:{alternatives})[^;\n)]*\?\s*[01]\s*:\s*[01]\b|"
                           rf"\bif\s*\([^()\n]*(?:{alternatives})[^()\n]*\)\s*\{{?\s*(?:[^{{}};\n]*;\s*)?"
                           rf"process\.exit(?:\s*\(\s*1\s*\)|Code\s*=\s*1\b)", rest)
        if mapped is not None:
            line, column = place(rest_at + mapped.start())
            yield Lost(line, column, "this turns the child's status (2 when it refuses) into 0 or 1 of its own",
                       "1", child[-1])


def _reads_exit_code(code: str, start: int, end: int) -> bool:
    assigned = ASSIGNED.search(code, max(0, start - 60), start)
    return assigned is not None and re.search(
        rf"(?<![\w$.]){re.escape(assigned.group('name'))}\s*\??\.\s*exitCode\b", code[end:]) is not None


def _bun_shell_tags(code: str) -> list[str]:
    """The names Bun's `$` goes by in the file: `$` (or its alias) imported from "bun", Bun.$."""
    tags = ["Bun.$"] if "Bun.$" in code else []
    for match in BUN_SHELL_IMPORT.finditer(code):
        for name in BUN_SHELL_NAME.finditer(match.group("names")):
            tags.append(name.group("alias") or "$")
    return tags


def _zx_shell_tags(code: str) -> list[str]:
    """The names zx's `$` goes by in the file (imported from "zx", or global)."""
    tags: list[str] = []
    for match in ZX_IMPORT.finditer(code):
        tags += ["$"] if match.group("globals") else [
            name.group("alias") or "$" for name in BUN_SHELL_NAME.finditer(match.group("names"))]
    return list(dict.fromkeys(tags))


def _template_end(code: str, start: int) -> int:
    """The offset of the backtick that ends a template literal opened just before `start`."""
    i, depth = start, 0
    while i < len(code):
        char = code[i]
        if char == "\\":
            i += 2
            continue
        if depth == 0 and char == "`":
            return i
        if char == "$" and code.startswith("${", i):
            depth += 1
            i += 2
            continue
        if depth and char == "{":
            depth += 1
        elif depth and char == "}":
            depth -= 1
        i += 1
    return len(code)


def _chain(code: str, at: int, balanced: Callable[[str, int], str]) -> tuple[set[str], int]:
    """The methods called on a value, in a chain from `at` (`.nothrow().quiet()`), and where it ends."""
    methods: set[str] = set()
    while True:
        call = CHAINED_CALL.match(code, at)
        if call is None:
            return methods, at
        methods.add(call.group("method"))
        at = call.end() + len(balanced(code, call.end())) + 1


def _reads_stdout(code: str, start: int, end: int) -> bool:
    """Whether the script reads the command's .stdout (so it prints something): on the result at
    once, or through the variable it is assigned to."""
    if RESULT_STDOUT.match(code, end):
        return True
    assigned = ASSIGNED.search(code, max(0, start - 60), start)
    return assigned is not None and re.search(
        rf"(?<![\w$.]){re.escape(assigned.group('name'))}\s*\??\.\s*stdout\b", code[end:]) is not None


def _words(template: str) -> list[str]:
    """A command's words, each interpolation `${...}` standing as one placeholder word."""
    return [word if "${" not in word else "?" for word in template.split()]


def _child_words(arguments: str) -> list[str]:
    """The program and arguments a child process call names in string literals: `"git status"`
    or `"git", ["status"]`."""
    strings: list[str] = [m.group(2) for m in STRING.finditer(arguments.split("{", 1)[0])]
    if not strings:
        return []
    return strings[0].split() + strings[1:] if len(strings) > 1 else strings[0].split()


def _printer(words: list[str]) -> bool:
    return bool(words) and words[0] != "?" and prints_on_stdout(words[0], words[1:])


def js_partial_reads(code: str, close: Callable[[str, int], int],
                     balanced: Callable[[str, int], str]) -> Iterator[tuple[int, str]]:
    """(offset, what) of each read of stdin that the script parses before the payload's end: the
    first chunk (`process.stdin.once("data")`), each chunk parsed on its own in a "data" handler
    or a `for await` loop (or the loop left after one), a single readSync of fd 0, one
    `reader.read()` of Bun.stdin.stream(), one Deno.stdin.read()."""
    for match in FIRST_CHUNK.finditer(code):
        yield match.start(), "process.stdin.once(...) takes the first chunk only"
    for match in DATA_HANDLER.finditer(code):
        chunk = match.group("a") or match.group("b") or match.group("c")
        if re.search(rf"JSON\.parse\(\s*(?:String\(\s*)?{re.escape(chunk)}\b", balanced(code, match.end())):
            yield match.start(), f"JSON.parse of each \"data\" chunk ({chunk}) on its own"
    for match in FOR_AWAIT.finditer(code):
        body = code[match.end():close(code, match.end() - 1)]
        var = match.group("var")
        if re.search(rf"JSON\.parse\(\s*(?:String\(\s*)?{re.escape(var)}\b", body) or BREAKS.search(body):
            yield match.start(), f"a `for await` over stdin that parses its first chunk ({var}) alone"
    readers = {m.group("name") for m in READER.finditer(code)}
    reads = list(ONE_READ.finditer(code)) + [m for name in readers for m in re.finditer(
        rf"(?<![\w$.]){re.escape(name)}\.read\(\s*\)", code)]
    for match in reads:
        if not _in_loop(code, match.start(), close):
            yield match.start(), f"one {match.group(0).rstrip('(, ')}(...) gets one chunk, {PIPE_CHUNK} bytes from a pipe"
    early = SYNC_STDIN_READ.search(code)
    if early is not None and not STDIN_LISTENER.search(code) and not _in_loop(code, early.start(), close):
        yield early.start(), f"{READS_NOTHING} when process.stdin.read() runs as the script starts: it returns null"
    yield from _used_before_the_data(code, close)


# a "data" handler that gathers the chunks into a name: `data += chunk`, `chunks.push(c)`
GATHERED = lazy(r"""process\.stdin\.(?:on|addListener)\(\s*["']data["'][^;]*?(?P<name>[A-Za-z_$][\w$]*)\s*(?:\+=|\.push\()""",
                needs=("data",))
WAITS = lazy(r"""["'](?:end|close|finish)["']|\bawait\b|\.then\s*\(|\bsetTimeout\b|\bsetImmediate\b""")
FUNCTION_BODY = lazy(r"""=>\s*\{|\bfunction\b[^{;]*\{""")


def _used_before_the_data(code: str, close: Callable[[str, int], int]) -> Iterator[tuple[int, str]]:
    """The chunks a "data" handler gathers, parsed by the script's top-level code right after it
    registers the handler, with no "end" handler, await or callback in between: the handler runs
    only once that code has finished, so the script parses an empty text (node 20.20.2,
    measured: a guard parsing `data` there read {} and let the call run)."""
    gathered = GATHERED.search(code)
    if gathered is None:
        return
    name = gathered.group("name")
    start = code.find(";", gathered.end())
    for use in re.finditer(rf"JSON\.parse\(\s*(?:String\(\s*)?(?:Buffer\.concat\(\s*)?{re.escape(name)}\b|"
                           rf"\b{re.escape(name)}\s*\?\s*JSON\.parse", code[start:] if start > 0 else ""):
        at = start + use.start()
        if WAITS.search(code, gathered.end(), at) or any(
                body.start() < at < close(code, body.end() - 1) for body in FUNCTION_BODY.finditer(code, 0, at)):
            return
        yield at, f"{READS_NOTHING} when the script parses {name} (the \"data\" handler fills it later, once the script's own code has run): it is empty"
        return


def _in_loop(code: str, offset: int, close: Callable[[str, int], int]) -> bool:
    """Whether a loop's header or body holds `offset` (a loop opened in the 2,000 characters before)."""
    for loop in LOOP.finditer(code, max(0, offset - 2000), offset):
        brace = code.find("{", loop.end() - 1)
        if brace < 0 or brace > offset or close(code, brace) > offset:
            return True
    return False


# ---- Python ------------------------------------------------------------------------------------------

STDIN_FD = frozenset({"sys.stdin.fileno", "sys.stdin.buffer.fileno"})
READS_UP_TO = frozenset({"sys.stdin.read", "sys.stdin.buffer.read"})
ONE_READ_OF = frozenset({"sys.stdin.buffer.read1", "sys.stdin.buffer.raw.read"})


def python_partial_reads(tree: ast.Module, name: Callable[[ast.AST], str]) -> Iterator[tuple[ast.Call, str]]:
    """(call, what) of each read of stdin that stops before a large payload's end: read(N) of
    fewer than CUT_OFF characters, one os.read(0, N) or read1() outside a loop (one pipe chunk)."""
    def walk(node: ast.AST, looping: bool) -> Iterator[tuple[ast.Call, str]]:
        for child in ast.iter_child_nodes(node):
            inner = looping or isinstance(child, (ast.While, ast.For, ast.AsyncFor, ast.comprehension))
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = False
            if isinstance(child, ast.Call):
                called = name(child.func)
                size = child.args[0] if child.args else None
                if called in READS_UP_TO and isinstance(size, ast.Constant) and isinstance(size.value, int) \
                        and 0 < size.value < CUT_OFF:
                    yield child, f"{called}({size.value}) reads at most {size.value} characters"
                elif not inner and (called in ONE_READ_OF or (called == "os.read" and child.args and (
                        (isinstance(child.args[0], ast.Constant) and child.args[0].value == 0)
                        or (isinstance(child.args[0], ast.Call) and name(child.args[0].func) in STDIN_FD)))):
                    yield child, f"one {called}(...) gets what is there, {PIPE_CHUNK} bytes from a pipe"
            yield from walk(child, inner)
    yield from walk(tree, False)
