"""Whether the interpreter a hook's command starts can load its script (LOAD_RULES, one script file
at a time): a Node script written for the other module system than the one Node loads it as, and
an import the interpreter cannot resolve. Either ends the script before it reads its input (exit
1, a non-blocking error): a gate fails open without a word. Measured here (node 20.20, python3
3.11) and on Claude Code 2.1.332 (tests/e2e/test_doctor_hook_start_e2e.py)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Iterator

from .... import safe_read
from ....errors import HookwrightError
from ....patterns import lazy
from ... import disk, handler_facts
from ...model import Finding, Handler, RuleTable
from ...scripts import variables
from ...scripts.keys import Site, strip_comments
from .units import Script

LOAD_RULES = RuleTable()

MAX_FOLDERS_UP = 40  # package.json and node_modules are looked for this many folders up, at most

# ---- which program starts the script ---------------------------------------------------------------

def runners(script: Script) -> list[tuple[Handler, str]]:
    """Each handler that starts the script, with the program that runs it as written (`node`,
    `/usr/bin/python3`, `tsx`, `uv`; a script run by its path: the program its #! line names)."""
    found = []
    for handler in script.handlers:
        for inv in handler_facts.resolution(handler).invocations:
            if inv.path != script.facts.path:
                continue
            if inv.direct:
                words = disk.first_line(inv.path).decode("utf-8", "replace")[2:].split() \
                    if disk.first_line(inv.path).startswith(b"#!") else []
                name = words[1] if len(words) > 1 and words[0].endswith("/env") and not words[1].startswith("-") \
                    else words[0] if words else ""
            else:
                name = (inv.interpreter or "").split(" ")[0]
            if name:
                found.append((handler, name))
    return found


def program_name(program: str) -> str:
    """`python3` of `/usr/bin/python3` (a runner may be named by its path)."""
    return program.rsplit("/", 1)[-1]


# ---- a Node script's module system ------------------------------------------------------------------

# what only CommonJS has (Node's ES module scope has no require, module, exports, __dirname, __filename)
CJS_ONLY = lazy(r"""(?<![\w$.])(?:require\s*\(|module\.exports\b|exports\.[A-Za-z_$]|__dirname\b|__filename\b)""",
                needs=("require", "module.exports", "exports.", "__dirname", "__filename"))
MADE_REQUIRE = lazy(r"""\bcreateRequire\b|(?:const|let|var)\s+(?:require|__dirname|__filename)\s*=""",
                    needs=("createRequire", "require", "__dirname", "__filename"))
# what only an ES module has: a static import or export statement, import.meta
ESM_ONLY = lazy(r"""(?m)^[ \t]*(?:import\s*(?:[\w$*{][^;\n]*?\bfrom\s*)?["'][^"'\n]+["']|export\s+(?:default\b|const\b|"""
                r"""let\b|var\b|function\b|async\b|class\b|\{))|\bimport\.meta\b|"""
                r"""^(?:(?:const|let|var)\s+[\w${}\[\],\s]+=\s*)?await\b""",  # (an await at the top level: column 0)
                needs=("import", "export", "await"))
NODE_RUNNERS = frozenset({"node", "nodejs"})


def module_type(script: Path) -> tuple[str, Path | None]:
    """How Node loads the file: "module" or "commonjs", by its extension (.mjs, .cjs), else by the
    "type" of the nearest package.json above it ("" where that has none: Node 20.19 and later then
    tell by the syntax), with that package.json."""
    if script.suffix == ".mjs":
        return "module", None
    if script.suffix == ".cjs":
        return "commonjs", None
    folder = script.parent
    for _ in range(MAX_FOLDERS_UP):
        manifest = folder / "package.json"
        if disk.is_file(manifest):
            try:
                data = json.loads(safe_read.read_text(manifest, safe_read.SETTINGS))
            except (OSError, HookwrightError, ValueError):
                return "", manifest
            kind = data.get("type") if isinstance(data, dict) else None
            return (kind if kind in ("module", "commonjs") else ""), manifest
        if folder.parent == folder:
            break
        folder = folder.parent
    return "", None


@LOAD_RULES.rule("script/module-system")
def _module_system(script: Script) -> Iterator[Finding]:
    """CommonJS in a file Node loads as an ES module (ReferenceError: require is not defined),
    or an import statement in one it loads as CommonJS (SyntaxError): measured on node 20.20,
    each exits 1. A .js file under no "type" at all Node 20.20 loads by its syntax (with a
    warning on stderr), so that one is not reported."""
    if script.facts.language != "javascript" or script.facts.path.suffix not in (".js", ".mjs", ".cjs", *TYPESCRIPT):
        return
    if script.facts.path.suffix in TYPESCRIPT:
        yield from _typescript_in_node(script)
        return
    started = [handler for handler, name in runners(script) if program_name(name) in NODE_RUNNERS]
    if not started:
        return
    kind, manifest = module_type(script.facts.path)
    code = strip_comments(script.text, "javascript")
    if kind == "module":
        found = CJS_ONLY.search(code)
        if found and not MADE_REQUIRE.search(code):
            line, column = _place(code, found.start())
            yield script.finding("script/module-system", Site(found.group(0), line, column), started,
                                 what=f"{found.group(0).rstrip('( ')} is not defined", loads="an ES module",
                                 why=_why(script.facts.path, manifest, "module"),
                                 instead="rename the file to .cjs, or use import (and import.meta.dirname for "
                                         "__dirname)")
    elif kind == "commonjs":
        found = ESM_ONLY.search(code)
        if found:
            line, column = _place(code, found.start() + len(found.group(0)) - len(found.group(0).lstrip()))
            word = "await" if "await" in found.group(0) else found.group(0).strip().split()[0].split(".")[0]
            yield script.finding("script/module-system", Site(word, line, column), started,
                                 what=f"{'an ' + word + ' statement' if word != 'await' else 'await at the top level'}"
                                      " is a syntax error",
                                 loads="CommonJS",
                                 why=_why(script.facts.path, manifest, "commonjs"),
                                 instead="rename the file to .mjs, or use require()")


TYPESCRIPT = (".ts", ".mts", ".cts")
STRIPS_TYPES = (22, 18)  # the first Node that runs a .ts file as it is (type stripping on by default: 22.18, 23.6)
LOADER_FLAGS = ("--import", "--loader", "--experimental-loader", "--require", "-r", "--experimental-strip-types",
                "--experimental-transform-types")
_node_version: list[tuple[int, int] | None] = []
# what only TypeScript writes: an annotation of a name or a parameter, an interface, a type alias, `as X`
TYPE_SYNTAX = lazy(r"""(?m)^[ \t]*(?:export\s+)?(?:interface|type)\s+[A-Za-z_$][\w$]*\s*[={<]|"""
                   r"""(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*:\s*[A-Za-z_${\[]|"""
                   r"""\(\s*[A-Za-z_$][\w$]*\s*:\s*[A-Za-z_${\[][^()]*\)|\)\s*:\s*(?:Promise<|void\b|string\b|number\b)|"""
                   r"""\bas\s+(?:const\b|string\b|number\b|any\b|unknown\b|[A-Z]\w*)""")


def _typescript_in_node(script: Script) -> Iterator[Finding]:
    """A .ts file run by a `node` that does not strip types (node 20 here: it loads the file as
    JavaScript and stops at the first annotation with a SyntaxError, exit 1), with no loader."""
    started = [h for h, name in runners(script) if program_name(name) in NODE_RUNNERS
               and not any(flag in (h.command or "") for flag in LOADER_FLAGS)]
    code = strip_comments(script.text, "javascript") if started else ""
    typed = TYPE_SYNTAX.search(code)
    version = _node() if typed else None
    if typed is None or version is None or version >= STRIPS_TYPES:
        return
    line, column = _place(code, typed.start())
    yield script.finding("script/module-system", Site("type", line, column), started, variant="typescript",
                         version=".".join(map(str, version)))


def _node() -> tuple[int, int] | None:
    """The major and minor version of the node on PATH (asked once per run), None if none."""
    if not _node_version:
        located = disk.which("node")
        try:
            said = subprocess.run([located, "--version"], capture_output=True, text=True, timeout=10,
                                  stdin=subprocess.DEVNULL).stdout.strip().lstrip("v").split(".") if located else []
            _node_version.append((int(said[0]), int(said[1])) if len(said) > 1 else None)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            _node_version.append(None)
    return _node_version[0]


def _why(path: Path, manifest: Path | None, kind: str) -> str:
    if manifest is None:
        return f"its name ends in {path.suffix}"
    said = f'"type": "{kind}"' if kind == "module" else 'its "type": "commonjs"'
    return f"the nearest package.json above it, {manifest}, says {said}"


def _place(code: str, offset: int) -> tuple[int, int]:
    line = code.count("\n", 0, offset) + 1
    return line, offset - (code.rfind("\n", 0, offset) + 1) + 1


# ---- an import the interpreter cannot resolve -----------------------------------------------------------

PY_TOP_IMPORT = lazy(r"""(?m)^(?:import[ \t]+(?P<names>[\w. \t,]+?)(?:[ \t]+as[ \t]+\w+)?[ \t]*$|"""
                     r"""from[ \t]+(?P<from>[A-Za-z_][\w.]*)[ \t]+import\b)""", needs=("import",))
PY_RUNNERS = lazy(r"python(?:3(?:\.\d+)?)?")
# a script that changes where it imports from before its imports: what it can import is not known
PY_PATH_CHANGED = lazy(r"""\bsys\.path\b|\bsite\.addsitedir\b|^# /// script""", needs=("sys.path", "addsitedir", "///"))
JS_BARE_IMPORT = lazy(r"""(?m)^(?:(?:const|let|var)\s+[\w${}\s,:]+?=\s*require\s*\(\s*|import\s*(?:[\w$*{][^;\n]*?\bfrom\s*)?)"""
                      r"""["'](?P<spec>[^"'./][^"'\n]*)["']""", needs=("require", "import"))


@LOAD_RULES.rule("script/import-not-found")
def _import_not_found(script: Script) -> Iterator[Finding]:
    """A top-level import (not in a try, not in a function) of a module the interpreter that runs
    the hook does not have: not its own (stdlib, builtin), not installed where it looks, not
    beside the script. Python is asked (the python3 on PATH, in the project, of a name
    written bare); a venv's python, `uv run` and the like are left alone. Node's bare packages
    are looked for in the node_modules folders above the script, as Node resolves them."""
    language = script.facts.language
    if language == "python":
        yield from _python_imports(script)
    elif language == "javascript":
        yield from _node_imports(script)


def _python_imports(script: Script) -> Iterator[Finding]:
    started = [(handler, name) for handler, name in runners(script) if PY_RUNNERS.fullmatch(program_name(name))]
    if not started or "import" not in script.text or _search_path_given(script, "PYTHONPATH"):
        return
    code = strip_comments(script.text, "python")
    if PY_PATH_CHANGED.search(code):
        return
    imports = []
    for match in PY_TOP_IMPORT.finditer(code):
        names = [match["from"]] if match["from"] else [n.strip().split()[0] for n in match["names"].split(",") if n.strip()]
        for name in names:
            top = name.split(".")[0]
            if top and top not in sys.builtin_module_names and not _beside(script.facts.path.parent, top):
                imports.append((top, match.start()))
    unknown = [(top, at) for top, at in imports if top not in sys.stdlib_module_names]
    if not unknown:
        return
    program = started[0][1]
    found = _python_finds(program, script, tuple(sorted({top for top, _ in unknown})))
    for top, at in unknown:
        if found is not None and found.get(top) is False:
            line, column = _place(code, at)
            yield script.finding("script/import-not-found", Site(top, line, column), [h for h, _ in started],
                                 module=top, interpreter=found.get("", program),
                                 instead=f"install it for that interpreter ({found.get('', program)} -m pip install "
                                         f"{PYPI_NAMES.get(top, top)}), or run the script with the one that has it (a venv's python, "
                                         f"uv run), or fall back in an except ImportError")
            return


# modules whose package on PyPI has another name (pip install <the package>)
PYPI_NAMES = {"yaml": "PyYAML", "cv2": "opencv-python", "PIL": "Pillow", "bs4": "beautifulsoup4",
              "sklearn": "scikit-learn", "dateutil": "python-dateutil", "dotenv": "python-dotenv", "jwt": "PyJWT",
              "magic": "python-magic", "Crypto": "pycryptodome", "git": "GitPython", "serial": "pyserial",
              "attr": "attrs", "OpenSSL": "pyOpenSSL", "docx": "python-docx", "Levenshtein": "python-Levenshtein"}


def _search_path_given(script: Script, variable: str) -> bool:
    """The hook may get a search path doctor does not follow: the variable in a settings file's
    "env", or set by the command that runs the script (one set here python is asked with, and
    NODE_PATH is not followed: see _node_imports)."""
    return variable in script.ctx.settings_env or any(
        isinstance(h.command, str) and variable in h.command for h in script.handlers)


def _beside(folder: Path, name: str) -> bool:
    """A module of the script's own folder (name.py, or a package folder)."""
    mode = disk.mode(folder / name)
    return disk.exists(folder / f"{name}.py") or (mode is not None and stat.S_ISDIR(mode))


FIND_SPECS = ("import importlib.util, json, sys\n"
              "sys.path[0:0] = [sys.argv[1]]\n"
              "print(json.dumps({'': sys.executable, **{n: importlib.util.find_spec(n) is not None for n in sys.argv[2:]}}))")
_asked: dict[tuple[str, str, tuple[str, ...]], dict[str, object] | None] = {}


def _python_finds(program: str, script: Script, names: tuple[str, ...]) -> dict[str, object] | None:
    """{name: whether the interpreter finds it, "": the interpreter's own path}, asked of the
    python the command names on PATH, run in the script's folder (one inside the project, which a
    repository could ship, is never run: None); None when it cannot tell."""
    folder = script.facts.path.parent
    key = (program, str(folder), names)
    if key in _asked:
        return _asked[key]
    located = program if program.startswith("/") and disk.exists(program) else disk.which(program)
    answer = None
    if located is not None and not _shipped(Path(located), script):
        try:
            done = subprocess.run([located, "-c", FIND_SPECS, str(folder), *names], capture_output=True, text=True,
                                  timeout=10, cwd=folder, stdin=subprocess.DEVNULL,
                                  env={k: v for k, v in os.environ.items() if k not in ("PYTHONSTARTUP", "PYTHONINSPECT")})
            answer = json.loads(done.stdout) if done.returncode == 0 else None
        except (OSError, ValueError, subprocess.TimeoutExpired):
            answer = None
    _asked[key] = answer
    return answer


def _shipped(program: Path, script: Script) -> bool:
    """The program lives in a project of the run (its own path or the file it links to)."""
    projects = {os.path.realpath(h.file.project) for h in script.handlers if h.file.project is not None}
    projects.add(os.path.realpath(script.facts.path.parent))
    places = (os.path.abspath(program), os.path.realpath(program))
    return any(place == root or place.startswith(root + os.sep) for place in places for root in projects)


def _node_imports(script: Script) -> Iterator[Finding]:
    started = [handler for handler, name in runners(script) if program_name(name) in NODE_RUNNERS]
    if not started or os.environ.get("NODE_PATH") or _search_path_given(script, "NODE_PATH"):
        return
    from ....hosts.opencode.adapter import NODE_MODULES  # (a script Node runs only: no opencode adapter for the rest)

    code = strip_comments(script.text, "javascript")
    for match in JS_BARE_IMPORT.finditer(code):
        spec = match["spec"]
        if spec.startswith(("node:", "file:")) or spec in NODE_MODULES or spec.split("/")[0] in NODE_MODULES:
            continue
        package = "/".join(spec.split("/")[:2]) if spec.startswith("@") else spec.split("/")[0]
        if not _in_node_modules(script.facts.path.parent, package):
            line, column = _place(code, match.start("spec"))
            yield script.finding("script/import-not-found", Site(spec, line, column), started, module=package,
                                 interpreter="node",
                                 instead=f"install it where Node looks (npm install {package}, in the folder of the "
                                         f"package.json above the script)")
            return


def _in_node_modules(folder: Path, package: str) -> bool:
    """In a node_modules folder above the script (Node's lookup), or a Yarn PnP project (not read)."""
    for above in (folder, *folder.parents)[:MAX_FOLDERS_UP]:
        if disk.exists(above / "node_modules" / package) or disk.exists(above / ".pnp.cjs"):
            return True
    return False


# ---- a PATH the script sets, under which a program it runs is not found ------------------------------

@LOAD_RULES.rule("command/interpreter-not-found")
def _program_off_the_scripts_path(script: Script) -> Iterator[Finding]:
    """A shell script that sets PATH to literal folders (no $PATH kept), then runs a program that
    is installed here but in none of them: "command not found" (127), and what it was to read or
    decide is empty (measured on Claude Code 2.1.332 with jq in /usr/bin: the guard read nothing
    and the call ran)."""
    if script.facts.language != "shell" or "PATH=" not in script.text:
        return
    from ..commands import SHELL_BUILTINS  # (only for a script that sets PATH)

    code = strip_comments(script.text, "shell")
    hidden = variables.hidden_by_own_path(code, SHELL_BUILTINS)
    if hidden is not None:
        line, column = _place(code, hidden.offset)
        yield script.finding("command/interpreter-not-found", Site("PATH", line, column), script.handlers,
                             variant="script-path", program=hidden.program, path=hidden.path, folder=hidden.folder)
