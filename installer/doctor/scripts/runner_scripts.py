"""What a package-manager script runner, make or nvm prints of its own on stdout around the script it
runs for a hook, and the command lines it hands to `sh -c`: read from package.json, the .npmrc and
the Makefile, as runners.py has the runners measured. Loaded past runners.may_name_a_runner only."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ... import safe_read
from ...errors import HookwrightError
from ...patterns import lazy
from ...records import Record
from ..shell import Where
from ..shell.resolve import resolve_shell
from .keys import analyse

MAX_MANIFEST = 512 * 1024
NPM_RUN = frozenset({"run", "run-script", "rum", "urn"})
NPM_LIFECYCLE = frozenset({"start", "test", "t", "tst", "restart", "stop"})  # `npm test` runs the script "test"
NPM_VALUED = frozenset({"--prefix", "-C", "--loglevel", "-w", "--workspace", "--userconfig", "--cache", "--registry"})
YARN_BUILTINS = frozenset({"add", "install", "remove", "upgrade", "info", "init", "link", "unlink", "cache",
                           "config", "global", "why", "workspace", "workspaces", "exec", "node", "bin", "dlx",
                           "set", "plugin", "constraints", "dedupe", "explain", "npm", "pack", "patch", "up", "version"})
NPMRC_SILENT = lazy(r"(?m)^\s*loglevel\s*=\s*[\"']?silent\b")
MAKEFLAGS_SILENT = lazy(r"(?m)^\s*(?:export\s+)?MAKEFLAGS\s*[+:?]?=.*?(?:(?<![\w-])-[a-zA-Z]*s[a-zA-Z]*\b|--silent|--quiet)")
MAKE_VALUED = frozenset({"-C", "--directory", "-f", "--file", "--makefile", "-I", "--include-dir", "-j", "-l", "-o",
                         "-W"})


class Chatter(Record):
    """A runner's own text on stdout around the script it runs."""

    runner: str  # the program: "npm", "yarn", "make", "nvm"
    prints: str  # what it prints: "its `> pkg@1.0.0 guard` banner"
    script: str  # the script's command (package.json) or recipe line (Makefile)
    folder: Path  # the folder the script runs in
    quiet: str  # the same command told to be quiet


def chatter(words: list[str], assigned: dict[str, str], cwd: Path | None) -> Chatter | None:
    """The runner's chatter when `words` (assignments before it in `assigned`) runs a script
    through a package manager or make that prints its own text on stdout, else None."""
    if not words or cwd is None:
        return None
    program = words[0].rsplit("/", 1)[-1]
    if program == "npm":
        return _npm(words[1:], assigned, cwd)
    if program == "yarn":
        return _yarn(words[1:], cwd)
    if program in ("make", "gmake"):
        return _make(words[1:], assigned, cwd)
    if program == "nvm":
        return _nvm(words[1:], cwd)
    return None


def _nvm(args: list[str], cwd: Path) -> Chatter | None:
    """`nvm exec 20 node guard.js`, `nvm run 20 guard.js`: nvm.sh's nvm_echo "Running node v20..."
    (stdout) first, unless --silent (nvm 0.39.7's nvm.sh, read: not installed here)."""
    if "--silent" in args or len(args) < 3 or args[0] not in ("exec", "run"):
        return None
    rest = [a for a in args[1:] if not a.startswith("--")][1:]
    script = " ".join(rest if args[0] == "exec" else ["node", *rest])
    return Chatter("nvm", "its `Running node v...` line", script, cwd, " ".join(["nvm", args[0], "--silent", *args[1:]]))


def answering_script(chatter: Chatter, where: Where) -> Path | None:
    """The file of the runner's script that answers the host with a JSON decision, if one does."""
    for inv in resolve_shell(chatter.script, where._replace(cwd=chatter.folder)).invocations:
        if inv.path is not None and not inv.dynamic and inv.path.is_file() \
                and any(key in DECISIONS for key in analyse(inv.path).answers):
            return inv.path
    return None


DECISIONS = frozenset({"permissionDecision", "decision", "behavior"})  # a decision on stdout


def _npm_script(args: list[str], cwd: Path) -> tuple[str | None, Path, bool]:
    """For npm's arguments: the package.json script it runs (`npm run NAME`, `npm test`, `npm
    start`; None for another command), the folder it looks for package.json from (`--prefix`),
    and whether it is told to be silent (`-s`, `--silent`, `--loglevel silent`)."""
    command, name, folder, silent, skip = None, None, cwd, False, False
    for index, arg in enumerate(args):
        if skip:
            skip = False
        elif arg == "--":
            break
        elif arg in ("-s", "--silent", "--loglevel=silent"):
            silent = True
        elif arg in NPM_VALUED:
            value = args[index + 1] if index + 1 < len(args) else ""
            silent = silent or arg == "--loglevel" and value == "silent"
            if arg in ("--prefix", "-C"):
                folder = cwd / value
            skip = True
        elif arg.startswith("--prefix="):
            folder = cwd / arg.split("=", 1)[1]
        elif arg.startswith("-"):
            continue
        elif command is None:
            command = arg
            if arg in NPM_LIFECYCLE:
                name = {"t": "test", "tst": "test"}.get(arg, arg)
        elif command in NPM_RUN and name is None:
            name = arg
    return (name if command in NPM_RUN | NPM_LIFECYCLE else None), folder, silent


def _npm(args: list[str], assigned: dict[str, str], cwd: Path) -> Chatter | None:
    level = {k.lower(): v for k, v in assigned.items()}.get("npm_config_loglevel")
    name, folder, silent = _npm_script(args, cwd)
    if level == "silent" or silent or name is None:
        return None
    found = _package(folder)
    if found is None:
        return None
    root, manifest = found
    home = os.environ.get("HOME")  # (the project's .npmrc, then the user's: measured, either silences it)
    for npmrc in (_text(root / ".npmrc"), _text(Path(home) / ".npmrc") if home else None):
        if npmrc is not None and NPMRC_SILENT.search(npmrc) and level is None:  # (the variable outranks .npmrc)
            return None
    script = _script(manifest, name)
    if script is None:
        return None
    label = f"{manifest.get('name', '')}@{manifest.get('version', '')}" if manifest.get("name") else ""
    return Chatter("npm", f"its `> {label} {name}` banner".replace("  ", " "), script, root,
                   " ".join(["npm", "--silent", *args]))


def _npm_recipe(args: list[str], cwd: Path) -> list[Recipe]:
    """The package.json script `npm run NAME` (`npm test`, `npm start`, `--prefix DIR`) runs."""
    name, folder, _ = _npm_script(args, cwd)
    found = _package(folder) if name is not None else None
    script = _script(found[1], name) if found is not None and name is not None else None
    if found is None or script is None:
        return []
    manifest = found[0] / "package.json"
    text = _text(manifest) or ""
    at = re.search(rf'"{re.escape(name or "")}"\s*:', text)
    return [Recipe("npm", manifest, text.count("\n", 0, at.start()) + 1 if at else 1, script, found[0], "")]


def _yarn(args: list[str], cwd: Path) -> Chatter | None:
    if "-s" in args or "--silent" in args:
        return None
    words = [a for a in args if not a.startswith("-")]
    if not words:
        return None
    name = words[1] if words[0] == "run" and len(words) > 1 else words[0]
    if words[0] != "run" and name in YARN_BUILTINS:
        return None
    found = _package(cwd)
    if found is None:
        return None
    root, manifest = found
    manager = manifest.get("packageManager")
    if isinstance(manager, str) and manager.startswith("yarn@") and not manager.startswith("yarn@1.") \
            or (root / ".yarnrc.yml").exists():
        return None  # yarn 2+ (berry) prints nothing of its own on stdout
    script = _script(manifest, name)
    if script is None:
        return None
    return Chatter("yarn", "its `yarn run v1...` and `$ command` lines", script, root,
                   " ".join(["yarn", "--silent", *args]))


class Recipe(Record):
    """A command line a runner hands to `sh -c` for the hook: a make target's recipe line, a
    package.json script. The runner ends with its status: npm 11.19.1 (`npm run`, `npm test`,
    `npm exec`, npx) passes a script's own status on, 2 included (measured: a script `bash -c 'exit
    2'` made npm exit 2, `... || echo failed >&2` and `...; echo done` 0); GNU make 4.3 exits 2 at a
    line that fails, and 0 where it ignores the failure (`-` before the line, `make -i`, `.IGNORE:`:
    measured, `-@python3 guard.py` exiting 2 made make exit 0)."""

    runner: str  # "make", "npm"
    file: Path  # the Makefile or package.json that holds it
    line: int
    text: str  # the command line, variables written in
    folder: Path  # where it runs
    ignored: str  # why the runner ignores its failure (a make `-`, `-i`, `.IGNORE:`), "" where it does not


def recipes(words: list[str], cwd: Path | None) -> list[Recipe]:
    """The command lines `words` has a runner run for it: each recipe line of the make target (its
    prerequisites' first, as make runs them), or the package.json script `npm run NAME` (`npm test`,
    `npm start`) runs."""
    if not words or cwd is None:
        return []
    program = words[0].rsplit("/", 1)[-1]
    if program in ("make", "gmake"):
        return _make_recipes(words[1:], cwd)
    if program == "npm":
        return _npm_recipe(words[1:], cwd)
    return []


def _make_recipes(args: list[str], cwd: Path) -> list[Recipe]:
    found = _makefile(args, cwd)
    if found is None:
        return []
    folder, makefile, text, targets = found
    flag = next((a for a in args if a in ("-i", "--ignore-errors") or (
        a.startswith("-") and not a.startswith("--") and "i" in a and a not in MAKE_VALUED)), None)
    ignore = MAKE_IGNORE.search(text)
    ignored_targets = ignore.group("names").split() if ignore is not None else []
    variables = {m.group("name"): m.group("value").strip() for m in MAKE_VARIABLE.finditer(text)}
    for arg in args:  # (`make check X=1`)
        if "=" in arg and not arg.startswith("-"):
            name, _, value = arg.partition("=")
            variables[name] = value
    out = []
    for target, line, body in _target_lines(text, targets[0] if targets else None):
        prefix = body[:len(body) - len(body.lstrip("@-+ \t"))]
        how = ("the `-` before this recipe line" if "-" in prefix else f"`make {flag}`" if flag else
               f"`.IGNORE:` (line {text.count(chr(10), 0, ignore.start()) + 1})"
               if ignore is not None and (not ignored_targets or target in ignored_targets) else "")
        command = MAKE_REFERENCE.sub(lambda m: variables.get(m.group("name"), m.group(0)), body.lstrip("@-+ \t"))
        out.append(Recipe("make", makefile, line, command, folder, how))
    return out


def swallowed(recipe: Recipe) -> tuple[Path, str] | None:
    """(the script, why) where a script of the recipe refuses only by exiting 2 and the runner
    does not end with that 2: it ignores the line's failure, or the line's own `|| ...`, a command
    after the script or a pipe sets the line's status."""
    for inv in resolve_shell(recipe.text, Where(cwd=recipe.folder)).invocations:
        if inv.path is None or inv.dynamic or not inv.path.is_file():
            continue
        facts = analyse(inv.path)
        if not facts.readable or not facts.exits_2() or DECISIONS & set(facts.answers):
            continue
        if recipe.ignored:
            return inv.path, recipe.ignored
        if inv.tolerated or not inv.sets_status:
            return inv.path, (f"its `|| ...` takes {inv.path.name}'s exit 2" if inv.tolerated else
                              f"the command after {inv.path.name} on the line (or the pipe it feeds) sets the line's "
                              "status")
    return _lost_in_the_line(recipe)


def _lost_in_the_line(recipe: Recipe) -> tuple[Path, str] | None:
    """A recipe line that loses a child's 2 in its own shell code (shell_status's model: a `for`
    loop whose last pass decides, a `case` on `$?` that lets 2 through, xargs...), make's `$$`
    written as the shell gets it, the child looked for in the folder the line runs in."""
    from . import shell_status

    text = recipe.text.replace("$$", "$") if recipe.runner == "make" else recipe.text
    for place in shell_status.lost(text, lambda offset: (recipe.line, offset + 1)):
        if place.rule != "exit-2-lost" or not place.child:
            continue
        named = place.child.rsplit(" ", 1)[-1]
        if "$" in named:
            continue
        for path in sorted(recipe.folder.glob(named))[:MAX_PREREQUISITES] if "*" in named else [recipe.folder / named]:
            facts = analyse(path) if path.is_file() else None
            if facts is not None and facts.readable and facts.exits_2() and not DECISIONS & set(facts.answers):
                return path, place.how
    return None


MAX_PREREQUISITES = 32  # the targets a make run is followed through


def _target_lines(text: str, target: str | None) -> list[tuple[str, int, str]]:
    """(target, line number, recipe line) for the target and, first, its prerequisites that are
    targets of the same file, depth first and each once."""
    rules: dict[str, tuple[list[str], list[tuple[int, str]]]] = {}
    first = None
    lines = text.splitlines()
    for index, line in enumerate(lines):
        rule = MAKE_RULE.match(line)
        if rule is None or rule.group("targets").startswith("."):
            continue
        after = line[rule.end():].split("#", 1)[0].split(";", 1)[0]
        body = _recipe_lines(text, rule.group("targets").split()[0], index)
        for name in rule.group("targets").split():
            rules.setdefault(name, (after.replace("|", " ").split(), body))
            first = first or name
    out: list[tuple[str, int, str]] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen or name not in rules or len(seen) >= MAX_PREREQUISITES:
            return
        seen.add(name)
        needs, body = rules[name]
        for need in needs:
            visit(need)
        out.extend((name, number, line) for number, line in body)

    visit(target or first or "")
    return out


MAKE_IGNORE = lazy(r"(?m)^\.IGNORE\s*:(?P<names>[^\n#]*)")
MAKE_VARIABLE = lazy(r"(?m)^(?:override\s+)?(?P<name>[A-Za-z_][\w.-]*)\s*(?:\?|:{1,3}|\+)?=(?P<value>[^\n#]*)")
MAKE_REFERENCE = lazy(r"\$[({](?P<name>[A-Za-z_][\w.-]*)[)}]")


def _makefile(args: list[str], cwd: Path) -> tuple[Path, Path, str, list[str]] | None:
    """(its folder, the makefile, its text, the targets named) for make's arguments."""
    folder, makefile, targets, skip = cwd, None, [], False
    for index, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg in MAKE_VALUED:
            value = args[index + 1] if index + 1 < len(args) else ""
            if arg in ("-C", "--directory"):
                folder = cwd / value
            elif arg in ("-f", "--file", "--makefile"):
                makefile = value
            skip = True
        elif arg.startswith("--directory="):
            folder = cwd / arg.split("=", 1)[1]
        elif not arg.startswith("-") and "=" not in arg:
            targets.append(arg)
    for name in ([makefile] if makefile else ["GNUmakefile", "makefile", "Makefile"]):
        text = _text(folder / name)
        if text is not None:
            return folder, folder / name, text, targets
    return None


def _make(args: list[str], assigned: dict[str, str], cwd: Path) -> Chatter | None:
    if MAKEFLAGS_SILENT.search("MAKEFLAGS=" + assigned.get("MAKEFLAGS", "")) or any(a in ("-s", "--silent", "--quiet") or (a.startswith("-") and not a.startswith("--") and "s" in a
                                                      and a not in MAKE_VALUED) for a in args):
        return None
    found = _makefile(args, cwd)
    if found is None:
        return None
    folder, _, text, targets = found
    directory = any(a in ("-C", "--directory") or a.startswith("--directory=") for a in args) \
        and "--no-print-directory" not in args
    if ".SILENT:" in text or MAKEFLAGS_SILENT.search(text):
        return None
    recipe = _recipe(text, targets[0] if targets else None)
    if recipe is None:
        return None
    echoed = not recipe.lstrip("-+").startswith("@")
    if not echoed and not directory:
        return None
    prints = "the recipe line it runs" if echoed else "its `make: Entering directory` line"
    return Chatter("make", prints, recipe.lstrip("@-+ "), folder, " ".join(["make", "-s", *args]))


MAKE_RULE = lazy(r"^(?P<targets>[^\s:#=][^:#=]*?)\s*::?(?!=)")


def _recipe(text: str, target: str | None) -> str | None:
    """The first recipe line of the target (the first target when None)."""
    return next((body for _, body in _recipe_lines(text, target)), None)


def _recipe_lines(text: str, target: str | None, start: int = 0) -> list[tuple[int, str]]:
    """The recipe lines of the target (the first target when None), with their line numbers; from
    the line index `start` on."""
    lines = text.splitlines()
    for index, line in enumerate(lines[start:], start):
        rule = MAKE_RULE.match(line)
        if rule is None or rule.group("targets").startswith("."):
            continue
        if target is not None and target not in rule.group("targets").split():
            continue
        found = []
        for number, body in enumerate(lines[index + 1:], index + 2):
            if body.startswith("\t"):
                if body.strip():
                    found.append((number, body.strip()))
                continue
            if body.strip() and not body.lstrip().startswith("#"):
                break
        return found
    return []


def _package(folder: Path) -> tuple[Path, dict[str, Any]] | None:
    """The nearest package.json at or above the folder, as npm and yarn look for it."""
    for candidate in (folder, *folder.parents):
        text = _text(candidate / "package.json")
        if text is not None:
            try:
                manifest = json.loads(text)
            except ValueError:
                return None
            return (candidate, manifest) if isinstance(manifest, dict) else None
    return None


def _script(manifest: dict[str, Any], name: str) -> str | None:
    scripts = manifest.get("scripts")
    script = scripts.get(name) if isinstance(scripts, dict) else None
    return script if isinstance(script, str) and script.strip() else None


def _text(path: Path) -> str | None:
    try:
        return safe_read.read(path, safe_read.Kind("package manifest", MAX_MANIFEST)).decode("utf-8", "replace")
    except (OSError, HookwrightError):
        return None
