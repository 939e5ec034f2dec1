"""The modules of its own a hook script imports, and which of their functions build an answer.

A hook often answers through a helper of its project: `from hooklib import deny`, `import
{ deny } from "./lib.mjs"`. The answer's keys, its hookEventName and its decision then live in
the helper, and the helper is read as the script's own (checks/scripts/units.py). Followed: a
module beside the script (`helpers.py`, `./lib.mjs`, `../shared/x.ts`), a package folder
(`hooklib/__init__.py`, `lib/guard.py`), a relative import (`from .lib import x`) and a folder
the script puts on sys.path from its own (`sys.path.insert(0, os.path.join(HERE, "lib"))`).
Bounded: MAX_MODULES per script, and only files whose real path stays inside the folder two
levels above the script (a link out of the project is not followed); a FIFO or a device is no
file (disk.is_file). A module found on a search path, or named by a computed string, is not
followed.
"""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

from ...patterns import lazy
from .. import disk

MAX_MODULES = 8
JS_MODULE_SUFFIXES = ("", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", "/index.js", "/index.mjs", "/index.ts")
PY_IMPORT = lazy(r"""^\s*(?:from\s+(?P<from>\.*[A-Za-z_][\w.]*|\.+)\s+import\s+(?P<names>\(?[\w\s,]+\)?)"""
                 r"""|import\s+(?P<imp>[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))""", re.M)
JS_IMPORT = lazy(r"""(?:require\(\s*|from\s+|import\s*\(\s*|import\s+)['"](?P<mod>\.{1,2}/[^'"]+)['"]""",
                 needs=("require(", "from", "import"))
# a folder put on sys.path from the script's own: sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib"))
SYS_PATH = lazy(r"""sys\.path\.(?:insert|append)\((?P<args>[^\n]*)\)""", needs=("sys.path",))
QUOTED = lazy(r"""["']([\w.\-/]+)["']""")
UP = lazy(r"\.parent\b|\bdirname\(|['\"]\.\.['\"]")


def local_modules(code: str, language: str, path: Path) -> tuple[Path, ...]:
    """The files of its own the script at `path` imports (comments blanked in `code`)."""
    found: list[Path] = []
    if language == "javascript":
        for match in JS_IMPORT.finditer(code):
            base = path.parent / match.group("mod")
            found += [candidate for candidate in (Path(f"{base}{suffix}") for suffix in JS_MODULE_SUFFIXES)
                      if disk.is_file(candidate)][:1]
    elif language == "python":
        folders = [path.parent, *_sys_path_folders(code, path)]
        for match in PY_IMPORT.finditer(code):
            found += _python_modules(match, folders, path)
    if not found:
        return ()  # (a shell script's, or a command line's, without asking the disk where it is)
    inside = os.path.realpath(path.parent.parent.parent if len(path.parents) > 2 else path.parent)
    unique = [p for i, p in enumerate(found) if p != path and p not in found[:i]
              and os.path.realpath(p).startswith(inside + os.sep)]
    return tuple(unique[:MAX_MODULES])


def _python_modules(match: re.Match[str], folders: list[Path], path: Path) -> list[Path]:
    """The files one import statement names, in the folders it is looked for in."""
    relative = match.group("from") or ""
    if relative.startswith("."):  # from .lib import x: from the script's package (up one folder per extra dot)
        dots = len(relative) - len(relative.lstrip("."))
        base = path.parent
        for _ in range(dots - 1):
            base = base.parent
        folders = [base]
        relative = relative.lstrip(".")
    names = [relative] if relative else []
    if match.group("names") and (not relative or "." not in relative):  # from pkg import mod: pkg/mod.py too
        subs = [n.strip() for n in match.group("names").strip("() \n").split(",") if n.strip()]
        names += [f"{relative}.{n}" if relative else n for n in subs]
    if match.group("imp"):
        names += [n.strip() for n in match.group("imp").split(",")]
    out = []
    for name in names:
        for folder in folders:
            parts = name.split(".")
            for candidate in (folder.joinpath(*parts).with_suffix(".py"), folder.joinpath(*parts, "__init__.py")):
                if disk.is_file(candidate):
                    out.append(candidate)
                    break
    return out


def _sys_path_folders(code: str, path: Path) -> list[Path]:
    """The folders the script adds to sys.path from its own: a quoted name joined to its folder
    (or to a folder above it, one level per `.parent`, `dirname(` beyond the first, or `".."`)."""
    folders = []
    for match in SYS_PATH.finditer(code):
        args = match.group("args")
        if "__file__" not in args and "HERE" not in args.upper() and "DIR" not in args.upper():
            continue
        ups = len(UP.findall(args))
        base = path.parent
        for _ in range(max(0, ups - 1)):
            base = base.parent
        names = [q for q in QUOTED.findall(args) if q != ".."]
        folders.append(base.joinpath(*names) if names else base)
    return folders


PY_DEF = lazy(r"^(?P<indent>[ \t]*)(?:async\s+)?def\s+(?P<name>\w+)\s*\(", re.M)
JS_FUNCTION = lazy(r"""(?:function\s*\*?\s*(?P<fn>[A-Za-z_$][\w$]*)\s*\(|(?:const|let|var)\s+(?P<arrow>[A-Za-z_$][\w$]*)\s*"""
                   r"""(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*(?::\s*[^=]+)?=>|[A-Za-z_$][\w$]*\s*=>))""")


def answer_functions(code: str, language: str, answers: str = "hookEventName") -> frozenset[str]:
    """The functions of a module that write an answer (their text holds `answers`) or call one
    that does: what a script that imports the module must call for the module's answer to be its."""
    spans = function_spans(code, language)
    direct = {name for name, (start, end) in spans.items() if answers in code[start:end]}
    found = set(direct)
    for _ in range(len(spans)):  # (callers of callers, to the fixed point)
        more = {name for name, (start, end) in spans.items() if name not in found
                and any(re.search(rf"(?<![\w$]){re.escape(f)}\s*\(", code[start:end]) for f in found)}
        if not more:
            break
        found |= more
    return frozenset(found)


def function_spans(code: str, language: str) -> dict[str, tuple[int, int]]:
    """{function name: (start, end)} of the module's functions (Python: by indentation; JavaScript: by braces)."""
    spans: dict[str, tuple[int, int]] = {}
    if language == "python":
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return spans
        lines = code.splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                spans.setdefault(node.name, (starts[node.lineno - 1], starts[min(node.end_lineno, len(lines))]))
        return spans
    if language == "javascript":
        from .flow import _close

        for match in JS_FUNCTION.finditer(code):
            name = match.group("fn") or match.group("arrow")
            brace = code.find("{", match.end() - 1)
            line_end = code.find("\n", match.end())
            if brace < 0 or (0 <= line_end < brace and not code[match.end():line_end].strip().endswith(("{", "("))):
                end = line_end if line_end >= 0 else len(code)  # (an arrow with an expression body)
            else:
                end = _close(code, brace)
            spans.setdefault(name, (match.start(), end))
    return spans

