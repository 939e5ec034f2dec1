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
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from . import safe_read
from .errors import ExitCode, HookwrightError
from .packs import PACK_DIR, RUNTIME_LIBRARY, command_files
from .records import Record
from .resources import packs_dir, runtime_dir

if TYPE_CHECKING:
    from .packs import Pack, PackHook

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


class LoadProblem(Record):
    module: str
    message: str
    file: Path | None = None
    line: int | None = None
    column: int | None = None


def check_loads(packs: list[Pack], host: str, python: str | None = None) -> None:
    """Load each pack's hook modules in the runtime interpreter, as the host will (`python`: the
    one the hooks are to start, else python3 on PATH), and read each command hook's command and
    scripts as their interpreters read them (command_problem): a module that does not load, or a
    command that would not run, is refused before anything is written (exit 2), with the error
    and its place."""
    for pack in packs:
        for hook in pack.hooks_for(host):
            if hook.command is not None:
                command_problem(pack, hook)
        problem = _first_problem(pack, host, python or INTERPRETER)
        if problem is not None:
            raise HookwrightError(
                f"pack {pack.name}'s hook module {problem.module}.py does not load in {INTERPRETER} -I -S, so its "
                f"hook would let every call through: {problem.message}", path=problem.file or pack.folder,
                line=problem.line, column=problem.column,
                hint="fix the module, then install again (`python3 -I -S` has the standard library alone: a "
                     "module the pack needs goes beside it, listed in pack.toml's files)")


def _first_problem(pack: Pack, host: str, interpreter: str) -> LoadProblem | None:
    python = shutil.which(interpreter)
    if python is None:
        raise HookwrightError(f"{interpreter} is not on PATH: the hooks run as `{interpreter} -I -S`, and would not "
                              "start", code=ExitCode.REFUSED, hint=f"install Python 3.8 or newer as {interpreter}")
    files = pack.runtime_files(host)
    modules = sorted({hook.module[:-3] for hook in pack.hooks_for(host) if hook.command is None})
    if not modules:  # (command hooks a host runs as written: command_problems reads them)
        return None
    with tempfile.TemporaryDirectory(prefix="hookwright-load-") as folder:
        for name, content in files.items():
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


# ---- a command hook: its command and the scripts it runs ----------------------------------------------

SHELLS = ("sh", "bash", "dash", "zsh", "ksh")
# how each interpreter reads a file without running it: argv after the interpreter, and what it prints
PYTHON_CHECK = ("import json, sys\n"
                "try:\n    compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')\n"
                "except SyntaxError as e:\n    print(json.dumps(['SyntaxError: %s' % e.msg, e.lineno, e.offset]))\n")
INTERPRETER_OF_SUFFIX = {".py": "python3", ".js": "node", ".mjs": "node"}  # (a hint's example; else bash)


def command_problem(pack: Pack, hook: PackHook) -> None:
    """A command hook's command must parse in sh (the agents run it by `sh -c`), each pack file it
    runs must be one its interpreter can start (found on PATH; a file run directly has its run
    bit), and must parse in that interpreter (Python, a shell, node); else the pack is refused at
    install, with the file, the line and the interpreter's words (exit 2)."""
    folder = str(pack.folder)
    command = (hook.command or "").replace(PACK_DIR, shlex.quote(folder))
    parsed = _ran(["sh", "-n", "-c", command])
    if parsed is not None and parsed.returncode != 0:
        raise HookwrightError(f"pack {pack.name}'s hook {hook.id}: its command is not one sh can read: "
                              f"{_said(parsed)}", path=pack.folder / "pack.toml",
                              hint="fix the command in pack.toml, then install again")
    words = shlex.split((hook.command or "").replace(PACK_DIR, "\0"))
    program = next((w for w in words if not _assignment(w) and w != "exec"), "")
    if program and not program.startswith("\0") and not _found(program):
        raise HookwrightError(f"pack {pack.name}'s hook {hook.id} runs {program}, which is not on PATH here: every "
                              "call would fail to start it", path=pack.folder / "pack.toml", code=ExitCode.REFUSED,
                              hint=f"install {program}, or run the hook with a program that is here")
    for name in command_files(pack.folder / "pack.toml", hook):
        script = pack.folder / name
        at = next((i for i, word in enumerate(words) if word.startswith("\0/" + name)), None)
        itself = at is not None and not any(w for w in words[:at] if not _assignment(w) and w != "exec")
        if itself and not os.access(script, os.X_OK):
            raise HookwrightError(f"pack {pack.name}'s hook {hook.id} runs {name} itself, and it has no run bit: "
                                  "the agent's shell cannot start it", path=script,
                                  hint=f"chmod +x {script}, or name its interpreter in the command "
                                       f"({INTERPRETER_OF_SUFFIX.get(script.suffix, 'bash')} {PACK_DIR}/{name})")
        runner = _runner(words[:at] if at is not None else [], script)
        if runner is None:
            continue
        found = shutil.which(runner)
        if found is None:
            raise HookwrightError(f"pack {pack.name}'s hook {hook.id} runs {name} with {runner}, which is not on PATH "
                                  "here: every call would fail to start it", path=script, code=ExitCode.REFUSED,
                                  hint=f"install {runner}, or run the script with an interpreter that is here")
        _check_syntax(pack, hook, script, runner, found)


def _assignment(word: str) -> bool:
    """`NAME=value` before a command's program."""
    name, equals, _ = word.partition("=")
    return bool(equals) and name.replace("_", "a").isalnum() and not name[:1].isdigit()


def _found(program: str) -> bool:
    """Whether sh finds the program (on PATH, a path that runs, or one of its builtins)."""
    done = _ran(["sh", "-c", 'command -v "$1" >/dev/null', "sh", program])
    return done is None or done.returncode == 0


def _runner(before: list[str], script: Path) -> str | None:
    """The interpreter that reads the script: the command's word before it (past env assignments
    and exec), or, for a script run itself, its #! line's."""
    words = [w for w in before if not _assignment(w) and w != "exec"]
    if words:
        name = os.path.basename(words[-1])
    else:
        try:
            first = safe_read.read(script, safe_read.SCRIPT, prefix=200).split(b"\n", 1)[0].decode("utf-8", "replace")
        except (OSError, HookwrightError):
            return None
        line = first[2:].split() if first.startswith("#!") else []
        if line and os.path.basename(line[0]) == "env":
            line = [w for w in line[1:] if not w.startswith("-")]
        name = os.path.basename(line[0]) if line else ""
    if name in SHELLS or name == "node" or name.startswith("python"):
        return name
    return None


def _check_syntax(pack: Pack, hook: PackHook, script: Path, runner: str, program: str) -> None:
    if runner.startswith("python"):
        done = _ran([program, "-B", "-c", PYTHON_CHECK, str(script)])
        found = json.loads(done.stdout or b"null") if done is not None and done.returncode == 0 else None
        if found:
            raise HookwrightError(f"pack {pack.name}'s hook {hook.id}: {script.name} does not parse in {runner}: {found[0]}",
                                  path=script, line=found[1], column=found[2], hint="fix the script, then install again")
        return
    done = _ran([program, "-n" if runner in SHELLS else "--check", str(script)])
    if done is not None and done.returncode != 0:
        said = _said(done)
        line = re.search(re.escape(str(script)) + r"(?::\s*|: line )(\d+)", done.stderr.decode("utf-8", "replace"))
        raise HookwrightError(f"pack {pack.name}'s hook {hook.id}: {script.name} does not parse in {runner}: {said}",
                              path=script, line=int(line[1]) if line else None, hint="fix the script, then install again")


def _ran(argv: list[str]) -> subprocess.CompletedProcess[bytes] | None:
    try:
        return subprocess.run(argv, capture_output=True, timeout=LOAD_TIMEOUT_S, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None


def _said(done: subprocess.CompletedProcess[bytes]) -> str:
    lines = [line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    syntax = [line for line in lines if "rror" in line]
    return (syntax or lines or [f"exit {done.returncode}"])[-1][:300]


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
    return hashlib.sha256(raw).hexdigest()


@cache
def _shipped() -> frozenset[str]:
    """The digests of every module hookwright ships (the bundled packs', the runtime library)."""
    files = [*runtime_dir().glob("*.py"), *packs_dir().glob("*/*.py")]
    return frozenset(_digest(safe_read.read(path, safe_read.BUNDLED)) for path in files)
