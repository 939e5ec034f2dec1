"""A variable a hook's code reads as its off switch: where the code ends the run without a word
(`exit 0`, `sys.exit(0)`, `process.exit(0)`, a bare `return`) under a test of the variable, and
whether that test holds for the value the hook is given. Read by structure/env-switches-guard-off
(checks/scopes.py), for the variables the settings' "env" gives every hook.

Each test is evaluated, not guessed from its look: `[ "${X:-0}" = "1" ]` holds for "1" and not
for "0", `os.environ.get("X")` holds for any value but "" (Python's truth of a string), `-z "$X"`
for none. A test this reader cannot evaluate (another variable beside it, a command's status, a
pattern it does not know) is never taken as holding."""
from __future__ import annotations

import ast
import bisect
import fnmatch
import re
from itertools import islice
from typing import Any, Callable, Iterator

from ...patterns import lazy

Value = str | None  # the variable's value; None: unset
Test = Callable[[Value], bool | None]  # whether a condition holds for the value; None: cannot tell

MAX_TESTS = 64  # the tests of one variable read in a script: an off switch is one of its first lines
BODY_WINDOW = 2000  # the characters after an `if` where its quiet quit is looked for
# the small patterns the readers below share
TEST_JOINER = lazy(r"\|\||&&|[ \t]-[ao][ \t]")
SH_TOKEN = lazy(r""""[^"]*"|'[^']*'|[^\s"']+(?:"[^"]*")?""")
AND_OR = lazy(r"&&|\|\|")
SH_NOT_QUIET = lazy(r"\bexit[ \t]+[1-9]|\bif\b|deny|block")
JS_NOT_QUIET = lazy(r"exit\([1-9]|deny|block|throw")
JS_INCLUDES = lazy(r"(\[[^\[\]]*\])\.includes\(")
QUOTED_WORD = lazy(r"""["']([\w.-]{1,40})["']""")
SH_BRACKETS = lazy(r"\[\[[^\n]*?\]\]|\[[ \t][^\n]*?[ \t]\]")
SH_EXIT_NONZERO = lazy(r"\bexit[ \t]+[1-9]")
JS_NOT = lazy(r"!(?!=)")

# ---- shell ---------------------------------------------------------------------------------------

# the statement that ends the run without an answer: `exit 0`, a bare `exit`, `{ echo ...; exit 0; }`
_SH_QUIT = r"""(?:\{[^{}\n]*?;?[ \t]*)?\bexit(?:[ \t]+0)?[ \t]*(?:;[ \t]*\})?[ \t]*(?:;|$|#)"""
_SH_TEST = r"""(?P<test>!?[ \t]*(?:\[\[[^\n]*?\]\]|\[[ \t][^\n]*?[ \t]\]|test[ \t][^\n;&|]*))"""
SH_ONE_LINE = lazy(rf"""^[ \t]*{_SH_TEST}(?P<more>(?:[ \t]*(?:&&|\|\|)[ \t]*(?:\[\[[^\n]*?\]\]|\[[ \t][^\n]*?[ \t]\]))*)"""
                   rf"""[ \t]*(?P<op>&&|\|\|)[ \t]*{_SH_QUIT}""", re.M)
SH_IF = lazy(rf"""^[ \t]*if[ \t]+{_SH_TEST}[ \t]*(?:;[ \t]*then\b|\n[ \t]*then\b)""", re.M)
SH_BODY_QUIT = lazy(r"""^[ \t]*exit(?:[ \t]+0)?[ \t]*(?:;|$|#)""", re.M)
SH_BODY_END = lazy(r"""^[ \t]*(?:fi|else|elif)\b|\bfi[ \t]*$""", re.M)
SH_CASE = lazy(r"""^[ \t]*case[ \t]+(?P<word>"[^"\n]*"|\$\{?\w+[^ \t\n]*)[ \t]+in\b""", re.M)  # its body: to the next esac
SH_ESAC = lazy(r"\besac\b")
SH_ARM = lazy(r"""(?:^|;;)[ \t\n]*\(?(?P<patterns>[^()\n;]+)\)(?P<body>.*?)(?=;;|$)""", re.S)
SH_WORD = lazy(r"""^["']?\$\{?(?P<name>\w+)(?:(?P<lower>,,)|(?P<op>:?[-=+?])(?P<default>[^}"']*))?\}?["']?$""")
SH_LITERAL = lazy(r"""^(?:"(?P<d>[^"$`\\]*)"|'(?P<s>[^']*)'|(?P<bare>[^\s"'$`\\]*))$""")
SH_FUNCTION = lazy(r"""^[ \t]*(?:function[ \t]+)?(?P<name>[\w-]+)[ \t]*(?:\(\)[ \t]*)?\{""", re.M)


def _sh_word(word: str, name: str) -> Callable[[Value], "str | None"] | None:
    """What a word of a test expands to for the value (its default where the value is unset or
    empty), or None where the word is neither the variable nor a literal."""
    found = SH_WORD.match(word)
    if found is not None:
        if found["name"] != name:
            return None
        op, default, lower = found["op"] or "", found["default"] or "", bool(found["lower"])

        def expand(value: Value) -> str | None:
            got = value
            if op in (":-", ":=") and not value or op in ("-", "=") and value is None:
                got = default
            elif op in (":+", "+"):
                got = default if (value if op == ":+" else value is not None) else ""
            got = got or ""
            return got.lower() if lower else got
        return expand
    literal = SH_LITERAL.match(word)
    if literal is None:
        return None
    text = next(part for part in (literal["d"], literal["s"], literal["bare"], "") if part is not None)
    return lambda value: text


def _sh_atom(tokens: list[str], name: str, double: bool) -> Test | None:
    """A test of `[ ]`, `[[ ]]` or `test` with no `&&`/`||` in it."""
    negate = False
    while tokens and tokens[0] == "!":
        negate, tokens = not negate, tokens[1:]
    test = _sh_compare(tokens, name, double)
    if test is None or not negate:
        return test
    positive: Test = test
    return lambda value: _not(positive(value))


Expand = Callable[[Value], "str | None"]


def _sh_compare(tokens: list[str], name: str, double: bool) -> Test | None:
    """`-n W`, `-z W`, `W`, `A = B`, `A != B`, `A =~ RE` over the variable's value."""
    words = [_sh_word(token, name) for token in tokens]
    if any(word is None for word in words) and not (len(tokens) == 3 and tokens[1] == "=~"):
        return None
    if len(tokens) == 2 and tokens[0] in ("-n", "-z"):
        word: Expand = words[1]  # type: ignore[assignment]
        empty = tokens[0] == "-z"
        return lambda value: (word(value) == "") == empty
    if len(tokens) == 1:
        only: Expand = words[0]  # type: ignore[assignment]
        return lambda value: only(value) != ""
    if len(tokens) != 3:
        return None
    left: Expand = words[0]  # type: ignore[assignment]
    if tokens[1] in ("=", "==", "!="):
        right: Expand = words[2]  # type: ignore[assignment]
        pattern = double and not tokens[2].startswith(("'", '"'))  # (`[[ $x == y* ]]`: a pattern)
        want = tokens[1] != "!="

        def compared(value: Value) -> bool:
            a, b = left(value) or "", right(value) or ""
            return (fnmatch.fnmatchcase(a, b) if pattern else a == b) == want
        return compared
    if tokens[1] == "=~" and double and left is not None:
        from ...hooks.regex.engine import Regex  # (a test with =~ only: 1.6 M instructions of a run without one)

        regex = Regex(tokens[2].strip("'\""))  # (the script's own regex: doctor's engine, bounded)
        if regex.undecided is not None:
            return None
        return lambda value: regex.search(left(value) or "")
    return None


def _not(held: bool | None) -> bool | None:
    return None if held is None else not held


def _sh_test(text: str, name: str) -> Test | None:
    """The test of `[ ... ]`, `[[ ... ]]`, `test ...` (with `!`, `-a`/`-o`, `&&`/`||` inside `[[ ]]`)."""
    text = text.strip()
    negate = text.startswith("!")
    text = text.lstrip("!").strip()
    double = text.startswith("[[")
    inner = text[2:-2] if double else text[1:-1] if text.startswith("[") else text[len("test"):]
    joiner = "||" if ("||" in inner or " -o " in inner) else "&&"
    parts = TEST_JOINER.split(inner)
    tests = [_sh_atom(_sh_tokens(part), name, double) for part in parts]
    if any(t is None for t in tests) or not tests:
        return None
    combine = any if joiner == "||" else all
    test: Test = lambda value: _combine(combine, [t(value) for t in tests])  # type: ignore[misc]  # noqa: E731
    return (lambda value: _not(test(value))) if negate else test


def _combine(combine: Callable[[list[bool]], bool], held: list[bool | None]) -> bool | None:
    return None if None in held else combine(held)  # type: ignore[arg-type]


def _sh_tokens(text: str) -> list[str]:
    return list(SH_TOKEN.findall(text))


def _shell(text: str, name: str) -> Iterator[tuple[int, Test]]:
    """(offset, test) of each place the shell code quits when the test holds."""
    for found in SH_ONE_LINE.finditer(text):
        if name not in found.group(0):
            continue
        tests = [found["test"], *SH_BRACKETS.findall(found["more"] or "")]
        joiners = AND_OR.findall(found["more"] or "")
        if any(j != "&&" for j in joiners):
            continue  # (`[ a ] || [ b ] && exit`: not read)
        read = [_sh_test(t, name) for t in tests]
        known = [t for t, raw in zip(read, tests) if t is not None]
        if len(known) != len(tests):
            continue
        quit_when = found["op"] == "&&"
        yield found.start("test"), _chain(known, quit_when)
    for found in SH_IF.finditer(text):
        if name not in found["test"]:
            continue
        body = text[found.end():found.end() + BODY_WINDOW]  # (a quiet quit is a few lines: never the rest of the file)
        if "exit" not in body:
            continue  # (no quit to find: its end is not looked for, which was 40% of doctor's CPU on 20,000 nested ifs)
        end = SH_BODY_END.search(body)
        block = body[:end.start()] if end else body
        if not SH_BODY_QUIT.search(block) or SH_NOT_QUIET.search(block):
            continue
        test = _sh_test(found["test"], name)
        if test is not None:
            yield found.start("test"), test
    esacs = [found.start() for found in SH_ESAC.finditer(text)]  # (once: each case looking on to the
    read_to = 0                                                   # script's end for its esac was quadratic)
    for found in SH_CASE.finditer(text):
        at = bisect.bisect_left(esacs, found.end())
        if at == len(esacs):
            break  # (no esac after it: neither this case nor a later one is whole)
        if found.start() < read_to:
            continue  # (a case inside the one before)
        end = esacs[at]
        read_to = end + len("esac")
        word = _sh_word(found["word"], name)
        if word is None:
            continue
        for arm in SH_ARM.finditer(text[found.end():end]):
            if not SH_BODY_QUIT.search(arm["body"].replace(";", "\n")) or SH_EXIT_NONZERO.search(arm["body"]):
                continue
            patterns = [p.strip().strip("'\"") for p in arm["patterns"].split("|")]
            if "*" in patterns:
                continue
            yield found.end() + arm.start("patterns"), _case_arm(word, patterns)


def _case_arm(word: Expand, patterns: list[str]) -> Test:
    """Whether a `case` on the word takes the arm of these patterns."""
    return lambda value: any(fnmatch.fnmatchcase(word(value) or "", p) for p in patterns)


def _chain(tests: list[Test], quit_when: bool) -> Test:
    """`[ a ] && [ b ] && exit 0` quits when all hold; `... || exit 0` when not all hold."""
    def held(value: Value) -> bool | None:
        all_held = _combine(all, [t(value) for t in tests])
        return all_held if quit_when else _not(all_held)
    return held


# ---- Python ----------------------------------------------------------------------------------------

PY_IF = lazy(r"""^(?P<indent>[ \t]*)if[ \t]+(?P<test>[^\n]+?):[ \t]*(?P<inline>[^\n#]*)""", re.M)
PY_QUIT = lazy(r"""^(?:sys\.exit\((?:0)?\)|exit\((?:0)?\)|os\._exit\(0\)|return(?:[ \t]+(?:0|None))?|raise[ \t]+SystemExit(?:\(0\))?)[ \t]*(?:#.*)?$""")
PY_FLAG = lazy(r"""^[ \t]*(?P<flag>[A-Za-z_]\w*)[ \t]*(?::[^=\n]+)?=[ \t]*(?P<expr>[^\n]+)$""", re.M)


def _ifs(text: str, name: str, if_pattern: Any, flag_pattern: Any, before: str) -> Iterator[tuple[re.Match[str], dict[str, str]]]:
    """Each `if` whose test reads the variable or a flag made of it (`off = ...X...`), with the flags."""
    flags = {m["flag"]: m["expr"] for m in flag_pattern.finditer(text) if name in m["expr"]}
    for found in if_pattern.finditer(text):
        if name in found["test"] or any(re.search(rf"{before}{re.escape(f)}\b", found["test"]) for f in flags):
            yield found, flags


def _python(text: str, name: str) -> Iterator[tuple[int, Test]]:
    for found, flags in _ifs(text, name, PY_IF, PY_FLAG, r"\b"):
        test_text = found["test"]
        body = found["inline"].strip()
        if not body:
            lines = text[found.end():found.end() + BODY_WINDOW].split("\n")[1:]
            inner = [line for line in lines if line.strip() and not line.strip().startswith("#")]
            indent = len(found["indent"])
            block = []
            for line in inner:
                if len(line) - len(line.lstrip()) <= indent:
                    break
                block.append(line.strip())
            body = next((line for line in block if not line.startswith(("print(", "sys.stderr.write", "log"))), "")
        if not PY_QUIT.match(body):
            continue
        test = _py_test(test_text, name, flags)
        if test is not None:
            yield found.start("test"), test


def _py_test(text: str, name: str, flags: dict[str, str]) -> Test | None:
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    for flag, expr in flags.items():  # (a flag made of the variable: its expression)
        try:
            flag_tree = ast.parse(expr.strip(), mode="eval").body
        except SyntaxError:
            continue
        tree = _Substitute(flag, flag_tree).visit(tree)

    def held(value: Value) -> bool | None:
        try:
            return bool(_PyValue(name, value).eval(tree))
        except _Unknown:
            return None
    return held


class _Unknown(Exception):
    """An expression this reader does not evaluate."""


class _Substitute(ast.NodeTransformer):
    def __init__(self, name: str, tree: ast.expr) -> None:
        self.name, self.tree = name, tree

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self.tree if node.id == self.name else node


class _PyValue:
    """Evaluates an `if` test of Python over the variable's value: its reads through os.environ,
    os.getenv, strings' lower/strip/upper, comparisons, `in`, `not`, `and`, `or`, literals."""

    def __init__(self, name: str, value: Value) -> None:
        self.name, self.value = name, value

    def eval(self, node: ast.AST) -> object:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return [self.eval(e) for e in node.elts]
        if isinstance(node, ast.BoolOp):
            values = [self.eval(v) for v in node.values]
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.eval(node.operand)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                and self._environ(node.comparators[0]) and self._names(node.left):
            return (self.value is not None) == isinstance(node.ops[0], ast.In)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            left, right, op = self.eval(node.left), self.eval(node.comparators[0]), node.ops[0]
            if isinstance(op, (ast.Eq, ast.NotEq)):
                return (left == right) == isinstance(op, ast.Eq)
            if isinstance(op, (ast.In, ast.NotIn)):
                if not isinstance(right, (list, str)) or isinstance(right, str) and not isinstance(left, str):
                    raise _Unknown
                return (left in right) == isinstance(op, ast.In)
            if isinstance(op, (ast.Is, ast.IsNot)) and right is None:
                return (left is None) == isinstance(op, ast.Is)
            raise _Unknown
        if isinstance(node, ast.Subscript) and self._environ(node.value) and self._names(node.slice):
            if self.value is None:
                raise _Unknown  # (a KeyError: not a quiet exit)
            return self.value
        if isinstance(node, ast.Call):
            return self._call(node)
        raise _Unknown

    def _call(self, node: ast.Call) -> object:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("lower", "upper", "strip", "casefold") and not node.args:
            got = self.eval(func.value)
            if not isinstance(got, str):
                raise _Unknown
            return {"lower": got.lower, "upper": got.upper, "strip": got.strip, "casefold": got.casefold}[func.attr]()
        reads = isinstance(func, ast.Attribute) and (func.attr == "getenv" or func.attr == "get" and self._environ(func.value)) \
            or isinstance(func, ast.Name) and func.id == "getenv"
        if reads and node.args and self._names(node.args[0]):
            default = self.eval(node.args[1]) if len(node.args) > 1 else None
            return self.value if self.value is not None else default
        raise _Unknown

    def _environ(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "environ" or isinstance(node, ast.Name) and node.id == "environ"

    def _names(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Constant) and node.value == self.name:
            return True
        raise _Unknown


# ---- JavaScript ----------------------------------------------------------------------------------

JS_IF = lazy(r"""\bif[ \t]*\((?P<test>[^\n]*?)\)[ \t]*(?:\{[ \t]*\n?(?P<block>[^{}]*?)\}|(?P<inline>[^\n;]*;?))""")
JS_QUIT = lazy(r"""(?:^|;|\n)[ \t]*(?:process\.exit\((?:0)?\)|return(?:[ \t]*;|[ \t]*$|[ \t]+(?:0|undefined)\b))""")
JS_FLAG = lazy(r"""(?:const|let|var)[ \t]+(?P<flag>[A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?P<expr>[^;\n]+)""")


def _javascript(text: str, name: str) -> Iterator[tuple[int, Test]]:
    for found, flags in _ifs(text, name, JS_IF, JS_FLAG, r"(?<![\w$.])"):
        test_text = found["test"]
        body = found["block"] if found["block"] is not None else found["inline"]
        if not JS_QUIT.search(body) or JS_NOT_QUIET.search(body):
            continue
        for flag, expr in flags.items():
            test_text = re.sub(rf"(?<![\w$.]){re.escape(flag)}\b", f"({expr})", test_text)
        test = _js_test(test_text, name)
        if test is not None:
            yield found.start("test"), test


def _js_test(text: str, name: str) -> Test | None:
    """A JavaScript test, read as the Python one it spells: `===` `==`, `!` `not`, `&&` `and`,
    `process.env.X` a read of the variable (undefined: None), `.toLowerCase()` `.lower()`,
    `[...].includes(x)` `x in [...]`."""
    read = rf"""process\.env(?:\.{re.escape(name)}\b|\[[ \t]*["'`]{re.escape(name)}["'`][ \t]*\])"""
    text = re.sub(rf"""{read}[ \t]*(?:\?\?|\|\|)[ \t]*(["'][^"'\n]*["'])""", rf'getenv("{name}", \1)', text)
    text = re.sub(read, f'getenv("{name}")', text)
    if "process.env" in text or "?" in text:
        return None
    text = _includes_as_in(text)
    text = text.replace("===", "==").replace("!==", "!=").replace("&&", " and ").replace("||", " or ")
    text = JS_NOT.sub(" not ", text).replace(".toLowerCase()", ".lower()").replace(".toUpperCase()", ".upper()")
    text = text.replace(".trim()", ".strip()").replace("undefined", "None")

    def truthy(value: Value) -> bool | None:
        return _py_test(text, name, {})(value)  # type: ignore[misc]

    return truthy if _py_test(text, name, {}) is not None else None


def _includes_as_in(text: str) -> str:
    """`[a, b].includes(x)` as `(x in [a, b])` (x may hold calls of its own)."""
    while (found := JS_INCLUDES.search(text)) is not None:
        depth, end = 1, found.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        if depth:
            return text
        text = f"{text[:found.start()]}({text[found.end():end - 1]} in {found[1]}){text[end:]}"
    return text


READERS = {"shell": _shell, "python": _python, "javascript": _javascript}
PROBES = ("1", "true", "yes", "on")  # values beside the script's own literals that an "on" switch may want


def quits_when(text: str, language: str, name: str, value: Value) -> int | None:
    """The offset of the first test of the variable under which the code quits without an answer,
    where the test holds for `value`; None where none does (or none this reader can evaluate)."""
    reader = READERS.get(language)
    if reader is None or name not in text:
        return None
    for offset, test in islice(reader(text, name), MAX_TESTS):
        if test(value) is True:
            return offset
    return None


def quits_unless_set(text: str, language: str, name: str) -> int | None:
    """The offset of a test under which the code quits without an answer while the variable is
    unset, and goes on for a value it names or a usual "on" value: a guard switched on only by
    a variable; None where there is none."""
    reader = READERS.get(language)
    if reader is None or name not in text:
        return None
    literals = set(QUOTED_WORD.findall(text)) | set(PROBES)
    for offset, test in islice(reader(text, name), MAX_TESTS):
        if test(None) is True and any(test(value) is False for value in literals):
            return offset
    return None
