"""Whether a pack's hook modules load where its hooks run: `python3 -I -S`, beside the runtime
library, with the standard library alone.

A hook whose module does not load lets every call through (it logs, and blocks only when
installed to fail closed), so install loads each pack's modules once, for real, in that
interpreter before it writes anything: the pack is the user's own, to be run on every call
anyway. doctor and status read other people's repositories, so they never run what they find:
they read the installed modules instead (syntax, the names the hook script takes from them,
imports nothing beside them or in the standard library provides).
"""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from . import safe_read
from .errors import ExitCode, HookwrightError

if TYPE_CHECKING:
    from .packs import Pack

INTERPRETER = "python3"  # as the hosts start the runtimes: `python3 -I -S <script>`
LOAD_TIMEOUT_S = 20
HOOK_NAMES = ("NAME", "handle", "OPTIONS")  # what the hook script takes from a hook's module (hook_script.py)
# run as `python3 -I -S -B -c LOADER <folder> <module>...`: one JSON list of problems on stdout
LOADER = r"""
import json, sys, traceback
folder = sys.argv[1]
sys.path.insert(0, folder)
problems = []
for name in sys.argv[2:]:
    try:
        module = __import__(name)
        missing = [n for n in ("NAME", "handle", "OPTIONS") if not hasattr(module, n)]
        if missing:
            problems.append({"module": name, "message": "defines no " + ", ".join(missing)})
        elif not callable(module.handle):
            problems.append({"module": name, "message": "its handle is not a function"})
    except SyntaxError as error:
        problems.append({"module": name, "message": "%s: %s" % (type(error).__name__, error.msg),
                         "file": error.filename, "line": error.lineno, "column": error.offset})
    except BaseException as error:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.startswith(folder)]
        last = frames[-1] if frames else None
        problems.append({"module": name, "message": "%s: %s" % (type(error).__name__, error),
                         "file": last.filename if last else None, "line": last.lineno if last else None})
print(json.dumps(problems))
"""


class LoadProblem(NamedTuple):
    module: str
    message: str
    file: Path | None = None
    line: int | None = None
    column: int | None = None


def check_loads(packs: list[Pack], host: str, python: str | None = None) -> None:
    """Load each pack's hook modules in the runtime interpreter, as the host will (`python`: the
    one the hooks are to start, else python3 on PATH): a module that does not load is refused
    before anything is written (exit 2), with the error and its place."""
    for pack in packs:
        problem = _first_problem(pack, host, python or INTERPRETER)
        if problem is not None:
            raise HookwrightError(
                f"pack {pack.name}'s hook module {problem.module}.py does not load in {INTERPRETER} -I -S, so its "
                f"hook would let every call through: {problem.message}", path=problem.file or pack.folder,
                line=problem.line, column=problem.column,
                hint="fix the module, then install again (`python3 -I -S` has the standard library alone: a "
                     "module the pack needs goes beside it, listed in pack.toml's files)")


def _first_problem(pack: Pack, host: str, interpreter: str) -> LoadProblem | None:
    from .packs import RUNTIME_LIBRARY
    from .resources import runtime_dir

    python = shutil.which(interpreter)
    if python is None:
        raise HookwrightError(f"{interpreter} is not on PATH: the hooks run as `{interpreter} -I -S`, and would not "
                              "start", code=ExitCode.REFUSED, hint=f"install Python 3.8 or newer as {interpreter}")
    modules = sorted({hook.module[:-3] for hook in pack.hooks_for(host)})
    with tempfile.TemporaryDirectory(prefix="hookwright-load-") as folder:
        for name, content in pack.runtime_files(host).items():
            (Path(folder) / name).write_bytes(content)
        try:
            done = subprocess.run([python, "-I", "-S", "-B", "-c", LOADER, folder, *modules], capture_output=True,
                                  timeout=LOAD_TIMEOUT_S, cwd=folder, stdin=subprocess.DEVNULL)
            found = json.loads(done.stdout)
        except subprocess.TimeoutExpired:
            return LoadProblem(modules[0], f"loading took longer than {LOAD_TIMEOUT_S}s")
        except ValueError:
            return LoadProblem(modules[0], f"{INTERPRETER} exited {done.returncode}: "
                                           f"{done.stderr.decode('utf-8', 'replace').strip()[-300:]}")
        sources = {**{name: pack.folder / name for name in pack.runtime_files(host)},
                   RUNTIME_LIBRARY: runtime_dir() / RUNTIME_LIBRARY}
        for item in found:
            written = Path(item["file"]).name if item.get("file") else None
            module_file = sources.get(f"{item['module']}.py")  # (a problem without a place: the module's file)
            return LoadProblem(item["module"], item["message"], sources.get(written or "", module_file),
                               item.get("line"), item.get("column"))
    return None


# ---- read, not run: doctor and status ---------------------------------------------------------------

def static_problems(folder: Path, names: list[str], hook_modules: set[str]) -> list[LoadProblem]:
    """What keeps the installed modules `names` (files in `folder`) from loading, read without
    running them: a syntax error, a hook module without the names the hook script takes, an
    import at the top that neither the standard library nor the folder provides. Files that are
    byte for byte a module hookwright ships are known to load and are not read again."""
    beside = {name[:-3] for name in names if name.endswith(".py")}
    problems = []
    for name in names:
        path = folder / name
        raw = safe_read.read_or_none(path, safe_read.RUNTIME) if name.endswith(".py") else None
        if raw is None or _digest(raw) in _shipped():
            continue
        problems += _read_module(path, raw, name[:-3], beside, name[:-3] in hook_modules)
    return problems


def _read_module(path: Path, raw: bytes, module: str, beside: set[str], hook: bool) -> list[LoadProblem]:
    try:
        tree = ast.parse(raw, filename=str(path))
    except SyntaxError as error:
        return [LoadProblem(module, f"SyntaxError: {error.msg}", path, error.lineno, error.offset)]
    except ValueError as error:  # (a NUL byte)
        return [LoadProblem(module, f"it cannot be read as Python: {error}", path)]
    problems = []
    defined: set[str] = set()
    star = False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            defined.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            star = star or any(alias.name == "*" for alias in node.names)
            defined.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
            for top in _imported(node):
                if top not in beside and top not in sys.stdlib_module_names:
                    problems.append(LoadProblem(module, f"it imports {top}, which neither the standard library "
                                                        f"nor the runtime folder has (`{INTERPRETER} -I -S` "
                                                        "reads no site-packages)", path, node.lineno,
                                                node.col_offset + 1))
        elif isinstance(node, (ast.If, ast.Try)):
            star = True  # (names defined in a branch: not followed; no finding on what may be there)
    missing = [name for name in HOOK_NAMES if name not in defined]
    if hook and missing and not star:
        problems.append(LoadProblem(module, f"it defines no {', '.join(missing)}, which the hook script takes from "
                                            "it", path, 1, 1))
    return problems


def _imported(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The top-level packages an import statement loads (a relative import: none that can fail here)."""
    if isinstance(node, ast.ImportFrom):
        return [] if node.level or not node.module else [node.module.split(".")[0]]
    return [alias.name.split(".")[0] for alias in node.names]


def _digest(raw: bytes) -> str:
    import hashlib

    return hashlib.sha256(raw).hexdigest()


@cache
def _shipped() -> frozenset[str]:
    """The digests of every module hookwright ships (the bundled packs', the runtime library)."""
    from .resources import packs_dir, runtime_dir

    files = [*runtime_dir().glob("*.py"), *packs_dir().glob("*/*.py")]
    return frozenset(_digest(safe_read.read(path, safe_read.BUNDLED)) for path in files)
