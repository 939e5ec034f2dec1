"""What a script does with the arguments its handler passes: the parts of it that run only when
an argument is (or is not) given.

One script is often registered on several events with different arguments (`guard.mjs
--summary` on Stop, `guard.mjs` on PostToolUse; `hook.py pre` and `hook.py post`), and tells
them apart by its argv. Read here: an `if` whose test looks at argv for a literal (`"--summary"
in sys.argv`, `sys.argv[1] == "pre"`, `args.summary` of an argparse flag, `mode === "post"` with
`const mode = process.argv[2]`, `process.argv.includes("--x")`, Bun.argv, Deno.args), as a region
of lines where the literal is given (its body) or not (its else, and the rest of the block after
an if that ends the run). An exit in a region runs only for the handlers whose arguments agree
(`reaches`); what is not in a region runs for every handler.
"""
from __future__ import annotations

import ast
import re
from typing import Callable, Iterable

from ...document import LineIndex
from ...patterns import lazy
from ...records import Record
from ..shell.tree import AndOr, commands

Close = Callable[[str, int], int]  # the offset of the brace that closes the one at an offset
Balanced = Callable[[str, int], str]  # the text up to the parenthesis that closes the one before an offset


class Region(Record):
    first: int  # lines, 1-based, inclusive
    last: int
    argument: str  # the literal the test looks for
    given: bool  # the region runs when the argument is given (False: when it is not)


class Read(Record):
    """A read of the script's positional argument `index` (1: the first) that fails, or reads
    nothing, when the command passes none: the hook's input read from its arguments."""

    position: int
    line: int
    column: int
    what: str  # as written: `sys.argv[1]`, `JSON.parse(process.argv[2])`, `echo "$1" | jq`


def reaches(regions: Iterable[Region], line: int, arguments: tuple[str, ...]) -> bool:
    """Whether a run with these arguments reaches the line."""
    return all((region.argument in arguments) == region.given for region in regions
               if region.first <= line <= region.last)


# ---- Python ----------------------------------------------------------------------------------------

def python(tree: ast.Module, nodes: list[ast.AST]) -> tuple[Region, ...]:
    """`nodes`: every node of the script's tree, listed once for its readers."""
    names = _py_argv_names(nodes)
    regions: list[Region] = []

    def walk(body: list[ast.stmt], last: int) -> None:
        for index, stmt in enumerate(body):
            if isinstance(stmt, ast.If):
                test = _py_test(stmt.test, names)
                end = stmt.end_lineno or stmt.lineno
                if test is not None:
                    argument, given = test
                    body_last = stmt.body[-1].end_lineno or end
                    regions.append(Region(stmt.body[0].lineno, body_last, argument, given))
                    if stmt.orelse:
                        regions.append(Region(stmt.orelse[0].lineno, end, argument, not given))
                    elif _ends(stmt.body) and index + 1 < len(body):  # if "--summary" in sys.argv: sys.exit(0)
                        regions.append(Region(body[index + 1].lineno, last, argument, not given))
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


def python_reads(nodes: list[ast.AST]) -> tuple[Read, ...]:
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
    return tuple(Read(int(node.slice.value), node.lineno, node.col_offset + 1, ast.unparse(node))  # type: ignore[attr-defined]
                 for node in subscripts if not any(first <= node.lineno <= last for first, last in caught))


def _argparse_positionals(nodes: list[ast.AST]) -> tuple[Read, ...]:
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
    return (Read(len(required), last.lineno, last.col_offset + 1, ast.unparse(last).split(".")[-1]),)


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


# ---- JavaScript / TypeScript ----------------------------------------------------------------------

JS_ARGV = r"(?:process\.argv|Bun\.argv|Deno\.args)"
JS_ARGV_NAME = lazy(rf"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\]|<> ]+)?=\s*{JS_ARGV}""",
                    needs=("argv", "Deno.args"))
MENTIONS_ARGV = lazy(r"argv|Deno\.args", needs=("argv", "Deno.args"))
STATEMENT_END = lazy(r";|\n")
JS_IF = lazy(r"""(?<![\w$.])if\s*\(""", needs=("if",))
JS_ELSE = lazy(r"""\s*else\b""")


# the input parsed from an argument: JSON.parse(process.argv[2]), or from a name given one (no default)
JS_PARSED_ARGUMENT = lazy(r"""(?:JSON\.parse|readFileSync|readFile)\(\s*(?P<argv>process\.argv|Bun\.argv|Deno\.args)"""
                          r"""\[(?P<n>\d+)\]\s*[,)]""", needs=("JSON.parse", "readFile"))
JS_ARGUMENT_NAME = lazy(r"""(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=\s*(?P<argv>process\.argv|Bun\.argv|"""
                        r"""Deno\.args)\[(?P<n>\d+)\]\s*(?:;|$)""", re.M, needs=("argv", "Deno.args"))


def javascript_reads(code: str, at: Callable[[int], tuple[int, int]]) -> tuple[Read, ...]:
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
            reads.append(Read(index, *at(match.start()), what))
    return tuple(reads)


def javascript(code: str, close: Close, balanced: Balanced) -> tuple[Region, ...]:
    """The regions of a Node, Bun or Deno script's argv tests (`close` gives the brace that
    closes one, `balanced` the text up to the parenthesis that closes one)."""
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

    regions: list[Region] = []
    for match in JS_IF.finditer(code):
        condition = balanced(code, match.end())
        test = _js_test(condition, tests)
        if test is None:
            continue
        argument, given = test
        after = match.end() + len(condition) + 1
        body_start, body_end, ends = _js_body(code, after, close)
        regions.append(Region(line_of(body_start), line_of(body_end), argument, given))
        otherwise = JS_ELSE.match(code, body_end + 1)
        if otherwise:
            start = otherwise.end()
            else_start, else_end, _ = _js_body(code, start, close)
            regions.append(Region(line_of(else_start), line_of(else_end), argument, not given))
        elif ends:
            outer = _enclosing_end(code, match.start(), close)
            regions.append(Region(line_of(body_end) + 1, line_of(outer), argument, not given))
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


def _js_body(code: str, start: int, close: Close) -> tuple[int, int, bool]:
    """(start, end, whether it ends the run) of the statement or block an if's test is followed by."""
    i = start
    while i < len(code) and code[i] in " \t\r\n":
        i += 1
    if i < len(code) and code[i] == "{":
        end = close(code, i)
    else:
        found = STATEMENT_END.search(code, i)
        end = found.start() if found else len(code)
    return i, end, bool(JS_ENDS.search(code[i:end + 1]))


def _enclosing_end(code: str, offset: int, close: Close) -> int:
    """The end of the block an offset is in (the end of the code at the top level)."""
    depth, i = 0, offset
    while i > 0:
        i -= 1
        if code[i] == "}":
            depth += 1
        elif code[i] == "{":
            if depth == 0:
                return close(code, i)
            depth -= 1
    return len(code) - 1



# ---- shell ---------------------------------------------------------------------------------------

SH_ARGUMENT = lazy(r"""^\$\{?1(?:[:]?[-=?][^}]*)?\}?$""")  # $1, ${1}, ${1:-pre}
SH_ALIAS = lazy(r"""(?:^|[\s;])(?:local\s+|readonly\s+|declare\s+)?(?P<name>[A-Za-z_]\w*)=["']?\$\{?1(?:[:]?[-=?][^}"'\s]*)?\}?["']?(?=[\s;]|$)""",
                re.M, needs=("1",))
SH_GLOB = frozenset("*?[")


# the input handed to a reader from $1 (or a name given $1): `echo "$1" | jq`, `printf '%s' "$1" |
# python3 ...`, `jq ... <<< "$1"`
SH_HANDED = r"""(?:\b(?:echo|cat|printf(?:\s+(?:'[^'\n]*'|"[^"\n]*"))?)\s+"?\$\{{?{name}\}}?"?\s*\|\s*""" \
            r"""(?:jq|python3?|node|gojq|yq)\b|\b(?:jq|gojq|python3?)\b[^\n|;]*<<<\s*"?\$\{{?{name}\}}?"?)"""
SH_FIRST_ARGUMENT = lazy(SH_HANDED.format(name="1"), needs=("$",))
SH_GIVEN_FIRST = lazy(r"""(?m)^(?:export\s+|readonly\s+)?(?P<name>[A-Za-z_]\w*)=["']?\$\{?1\}?["']?[ \t]*(?:;|$|#)""",
                      needs=("$",))
SH_FUNCTION = lazy(r"""\b[A-Za-z_][\w-]*\s*\(\s*\)|\bfunction\s+\w|\bset\s+--|\bshift\b""",
                   needs=("(", "function", "set", "shift"))


def shell_reads(code: str, at: Callable[[int], tuple[int, int]]) -> tuple[Read, ...]:
    """The hook's input handed to jq (or python, node) from $1, or from a name the script gives
    $1 at its top level, which is empty without it: jq reads nothing. None in a script with a
    function (whose own $1 it may be), a `set --` or a `shift`."""
    if "$1" not in code and "${1}" not in code:
        return ()
    found = SH_FIRST_ARGUMENT.search(code)
    if found is None:
        for given in SH_GIVEN_FIRST.finditer(code):
            found = re.search(SH_HANDED.format(name=re.escape(given["name"])), code[given.end():])
            if found is not None:
                return () if SH_FUNCTION.search(code) else (Read(1, *at(given.start()), given.group(0).strip()),)
        return ()
    if SH_FUNCTION.search(code):
        return ()
    return (Read(1, *at(found.start()), found.group(0)),)


def shell(code: str, tree_of: Callable[[], list[AndOr] | None], line_of: Callable[[int], int]) -> tuple[Region, ...]:
    """The regions of a shell script's tests of its first argument (`$1`, or a variable set from
    it): each arm of a `case "$1" in pre) ... ;;` (the `*)` arm: none of the others' literals),
    and an `if [ "$1" = pre ]`'s body and else."""
    if "$1" not in code and "${1" not in code:
        return ()
    tree = tree_of()
    if tree is None:
        return ()
    names = {m.group("name") for m in SH_ALIAS.finditer(code)}

    def is_argument(text: str) -> bool:
        return bool(SH_ARGUMENT.match(text)) or text.lstrip("$").strip("{}") in names

    regions: list[Region] = []
    for command in commands(tree):
        if command.kind == "case" and command.words and is_argument(command.words[0].text):
            literals = [[w.text for w in patterns] for patterns in command.patterns]
            for patterns, listed in zip(literals, command.lists):
                if not listed:
                    continue
                first, last = line_of(listed[0].at), line_of(_last_offset(listed))
                if patterns == ["*"]:
                    regions.extend(Region(first, last, other, False) for others in literals for other in others
                                   if others != ["*"] and not SH_GLOB & set(other))
                elif len(patterns) == 1 and not SH_GLOB & set(patterns[0]):
                    regions.append(Region(first, last, patterns[0], True))
        elif command.kind == "if" and len(command.lists) in (2, 3):
            test = _sh_test(command.lists[0], is_argument)
            if test is None:
                continue
            argument, given = test
            for number, given_here in ((1, given), (2, not given)):
                if number < len(command.lists) and command.lists[number]:
                    listed = command.lists[number]
                    regions.append(Region(line_of(listed[0].at), line_of(_last_offset(listed)), argument, given_here))
    return tuple(regions)


def _sh_test(condition: list[AndOr], is_argument: Callable[[str], bool]) -> tuple[str, bool] | None:
    """(the literal, whether the test is true when it is given) of `[ "$1" = pre ]`, `[[ $1 == pre ]]`,
    `test "$1" != pre` (either side)."""
    if len(condition) != 1 or len(condition[0].pipelines) != 1 or len(condition[0].pipelines[0].commands) != 1:
        return None
    words = [w.text for w in condition[0].pipelines[0].commands[0].plain]
    if words[:1] in (["["], ["[["]):
        words = words[1:-1] if words[-1:] in (["]"], ["]]"]) else []
    elif words[:1] == ["test"]:
        words = words[1:]
    else:
        return None
    if len(words) != 3 or words[1] not in ("=", "==", "!="):
        return None
    left, operator, right = words
    literal = right if is_argument(left) else left if is_argument(right) else None
    if literal is None or SH_GLOB & set(literal) or "$" in literal:
        return None
    return literal, operator != "!="


def _last_offset(listed: list[AndOr]) -> int:
    """The offset of the last word a list runs (a compound's inner lists included)."""
    ends: list[int] = [statement.end for statement in listed] + [c.at for c in commands(listed)]
    return max(ends)
