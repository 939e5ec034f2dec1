"""Delivery: what travels between the host and a hook script through the code between them
(installer/doctor/scripts/delivery.py reads that code): the script's decision on its way out, and
the input fields whose type differs by event on their way in.

One unit: a readable script file with the handlers that run it (checks/scripts/units.py).
- its own exit 2 taken back on its way out (an except that catches SystemExit, a finally that
  exits, a catch around execSync, an exit status overwritten, an EXIT trap);
- a child script's exit 2 that the script running it drops (subprocess, os.system, spawnSync,
  a shell wrapper whose own last command, `|| true` or pipe decides its status);
- an answer written on stdout that never leaves the process (os._exit before Python's buffer is
  flushed), or never written (a process.exit before the asynchronous work that decides has run);
- the answers of several child scripts a dispatcher runs in a loop, joined on its one stdout.
Reported only where the host would block on exit 2 (the adapter's exit_2_blocks) and the script
gives no JSON decision on stdout, which would still get through.
- an input field read as an object where the event sends a JSON string, or parsed where it sends
  an object (Cursor's tool_input: the adapter's json_text and objects).
"""
from __future__ import annotations

import bisect
import os
from pathlib import Path
from typing import Any, Iterator

from ... import hosts, safe_read
from ...errors import HookwrightError
from ...hosts.cursor import protocol as cursor_protocol
from ...patterns import lazy
from .. import disk, handler_facts
from ..model import Context, Finding, Handler, RuleTable
from ..scripts import keys, runners, shell_status
from ..scripts.delivery import Joined, Lost
from ..scripts.flow import Place
from ..scripts.shell_status import INTERPRETERS
from ..shell import Where
from ..shell.lex import AndOr, Unreadable, parse, streams
from ..shell.resolve import SCRIPT_SUFFIXES, resolve_shell, shell_options
from .scripts.units import Script, inline_commands, scripts_of

RULES = RuleTable()
ANSWERS = frozenset({"permissionDecision", "behavior"})  # a decision on stdout decides whatever the status


def check(ctx: Context) -> Iterator[Finding]:
    for script in scripts_of(ctx):
        yield from RULES.run(script)
    for code in inline_commands(ctx):  # (a jq filter written in hooks.json reads the input too)
        misread = _misread(code.facts, code.cursor_events, code.fail_closed) if code.cursor_events else None
        if misread is not None:
            yield code.report("delivery/input-field-type", Place(1, 1), **misread)


def _blocking(script: Script) -> list[Handler]:
    """The handlers that run the script on an event whose host blocks on exit 2, where a failure
    does not block anyway (Claude Code's onFailure "block" makes exit 1 block too)."""
    found = []
    for handler in script.handlers:
        host = hosts.of(handler.file.host)
        if host is not None and handler.event in host.exit_2_blocks:
            found.append(handler)
    return found


@RULES.rule("delivery/exit-2-lost")
def _exit_2_lost(script: Script) -> Iterator[Finding]:
    """A block by exit 2 that the script's own code, or the code that runs a child script, turns
    into another status before the host sees it."""
    handlers = _blocking(script)
    facts = script.facts
    if not handlers or ANSWERS & set(facts.answers):
        return
    lost = [place for place in facts.flow.lost_blocks if place.rule == "exit-2-lost"
            and (not place.child or any(_blocks_by_exit_2(child) for child in _children(script, handlers, place.child)))]
    if lost:
        yield from _report(script, handlers, lost)
        return
    through = next(_lost_in_recipes(script, handlers), None)
    if through is not None:
        yield through
        return
    yield from _report(script, handlers, list(_wrapped(script, handlers[0])) or list(_remapped(script, handlers[0])))


ARITHMETIC_TRUTH = lazy(r"^exit[ \t]+\$\(\([^)]*(?:[!=<>]=|[<>]|&&|\|\||!)[^)]*\)\)")  # `exit $(( rc != 0 ))`: 0 or 1
LAST_EXIT = lazy(r"(?:^|[;&|{]\s*)exit[ \t]+\d+[ \t;}]*(?:#.*)?$")  # the script's last line ends it with a literal


def _piped_parts(code: str) -> list[str]:
    """The words of each command that writes into a pipe (every part of a pipeline but its last)."""
    try:
        tree = parse(code)
    except (Unreadable, RecursionError):
        return []
    return [
        " ".join(w.text for w in part.plain) for statement in _all_statements(tree) for pipeline in statement.pipelines
        for part in pipeline.commands[:-1] if part.kind == "simple"]


def _all_statements(statements: list[AndOr]) -> Iterator[AndOr]:
    for statement in statements:
        yield statement
        for pipeline in statement.pipelines:
            for command in pipeline.commands:
                for listed in command.lists:
                    yield from _all_statements(listed)


def _remapped(script: Script, handler: Handler) -> Iterator[Lost]:
    """A shell wrapper that runs a child able to end with 2 (a guard refusing by exit 2, or make or
    `npm run` running one) and ends every run with a status of its own, none of them 2 (`[ $status
    -eq 0 ] || exit 1; exit 0`, `guard.sh || exit 1`): it knows the child failed, and tells the host
    with a status the host does not read as a block. At its first exit other than 0."""
    exits = [(e, 1 if e.status is None and ARITHMETIC_TRUTH.search(e.how) else e.status) for e in script.facts.flow.exits]
    if script.facts.language != "shell" or not exits or any(status is None or status == 2 for _, status in exits):
        return
    last = next((line for line in reversed(script.text.splitlines()) if line.strip() and not line.lstrip().startswith("#")), "")
    if not any(status for _, status in exits) or not LAST_EXIT.search(last.strip()) and not ARITHMETIC_TRUTH.search(last):
        return  # (a run that ends with its last command may end with the child's status)
    where = handler_facts.where(handler.file)
    child, at = None, 0
    lines = script.text.splitlines()
    code = script.facts.runs_scripts or keys.with_own_folder(script.text, script.facts.path) or script.text
    for inv in resolve_shell(code, where).invocations:  # (`"$(dirname "$0")/guard.py"`: beside the wrapper)
        if inv.path is not None and inv.path != script.facts.path and _blocks_by_exit_2(inv.path):
            child = inv.path.name
            at = next((n for n, text in enumerate(lines, 1) if child in text), 0)
            break
    if child is None and runners.may_name_a_runner(script.text):
        for found in streams(script.text):
            words = [w.text for w in found.command.plain if not w.assignment] if found.command.kind == "simple" else []
            for recipe in runners.recipes(words, where.cwd):
                guard = next((inv.path for inv in resolve_shell(recipe.text, Where(cwd=recipe.folder)).invocations
                              if inv.path is not None and _blocks_by_exit_2(inv.path)), None)
                if guard is not None and runners.swallowed(recipe) is None:
                    child, at = f"{recipe.runner} (through {guard.name})", script.text.count("\n", 0, found.command.at) + 1
                    break
            if child is not None:
                break
    failing = next(((e, status) for e, status in exits if status and e.at.line >= at), None)
    if child is not None and failing is not None:
        told = "0 or 1 (a test's truth)" if failing[0].status is None else str(failing[1])
        yield Lost(failing[0].at.line, failing[0].at.column, f"this exit replaces the status of {child}, 2 when it "
                   f"refuses, with the wrapper's own {told}", str(failing[1]))


def _lost_in_recipes(script: Script, handlers: list[Handler]) -> Iterator[Finding]:
    """A shell wrapper that runs make or `npm run`, whose recipe line (a Makefile's, a package.json
    script) runs a guard refusing by exit 2 and ends with another status (runners.swallowed): at
    that line, the wrapper's line related."""
    if script.facts.language != "shell" or not runners.may_name_a_runner(script.text):
        return
    cwd = handler_facts.where(handlers[0].file).cwd
    for found in streams(script.text):
        if found.command.kind != "simple":
            continue
        for recipe in runners.recipes([w.text for w in found.command.plain if not w.assignment], cwd):
            lost = runners.swallowed(recipe)
            if lost is None:
                continue
            line = script.text.count("\n", 0, found.command.at) + 1
            finding = script.finding("delivery/exit-2-lost", Place(line, 1), handlers,
                                     how=f"{recipe.runner} runs {lost[0].name} on line {recipe.line} of "
                                         f"{recipe.file.name}, and {lost[1]}", status="0", action=_action(handlers[0]))
            yield finding._replace(path=str(recipe.file), line=recipe.line, column=1, related=[
                {"path": str(script.facts.path), "line": line, "column": 1,
                 "message": f"the line of {script.facts.path.name} that runs {recipe.runner}"}, *finding.related])


@RULES.rule("delivery/exit-in-subshell")
def _exit_in_subshell(script: Script) -> Iterator[Finding]:
    """An `exit 2` that ends only the subshell it runs in (a pipeline's part, `( )`, `$( )`), while
    the script runs on to another status."""
    yield from _shell_lost(script, "exit-in-subshell")


@RULES.rule("delivery/errexit-exits-early")
def _errexit_exits_early(script: Script) -> Iterator[Finding]:
    """Under `set -e` (or an ERR trap that exits), each command whose failure is an ordinary
    outcome ends the script with its own status before its `exit 2` or its JSON answer."""
    handlers = _blocking(script)
    flagged = [h for h in handlers if _errexit_flag(h, script.facts.path)]
    direct = [h for h in handlers if _by_shebang(h)] + flagged
    places = list(script.facts.flow.lost_blocks)
    if handlers and not any(p.rule == "errexit-exits-early" for p in places):
        places += _stops_outside_git(script, handlers)
    for place in places:
        who = direct if place.shebang else flagged if place.flag else handlers
        if place.rule != "errexit-exits-early" or not who:
            continue
        if place.flag and not (place.status == "1" and script.code.claude_fails_closed):
            handler = who[0]  # (at the command that turns errexit on: the script alone does not end early)
            related = [{"path": str(script.facts.path), "line": place.line, "column": place.column,
                        "message": f"the line of {script.facts.path.name} that fails"}]
            yield script.ctx.finding("delivery/errexit-exits-early", handler.file, handler.keys + ("command",),
                                     related, variant="flag", script=script.facts.path.name, how=place.how,
                                     status=place.status, action=_action(handler))
        elif not place.flag:
            yield from _report(script, who, [place])


def _stops_outside_git(script: Script, handlers: list[Handler]) -> list[Lost]:
    """The stops of errexit at a git command that needs a repository, where every handler's hook
    runs in a folder that is in none (the project is not a git repository): there git exits 128."""
    if script.facts.language != "shell" or "git" not in script.text or "-e" not in script.text and \
            "errexit" not in script.text:
        return []
    folders = {handler_facts.where(h.file).cwd for h in handlers}
    if not folders or any(folder is None or _in_a_repository(folder) for folder in folders):
        return []
    starts = [0, *(i + 1 for i, c in enumerate(script.text) if c == "\n")]

    def place(offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    return [p for p in shell_status.lost(script.text, place, outside_git=True)
            if p.rule == "errexit-exits-early" and "not in a git repository" in p.how]


def _in_a_repository(folder: Path) -> bool:
    """A `.git` (a folder, or a worktree's file) in the folder or one above it."""
    return any(disk.exists(parent / ".git") for parent in (folder, *folder.parents))


@RULES.rule("delivery/status-masked")
def _status_masked(script: Script) -> Iterator[Finding]:
    """`local x=$(guard)` (export, declare...) followed by a read of `$?`, which is the builtin's 0."""
    yield from _shell_lost(script, "status-masked")


def _by_shebang(handler: Handler) -> bool:
    """The handler runs its script as a program, so its #! line (and the options there) holds:
    not `bash file.sh`, where the shell given reads the file and the #! line is a comment."""
    main = handler_facts.resolution(handler).main
    return main is None or main.direct or main.interpreter is None


def _errexit_flag(handler: Handler, path: Path) -> bool:
    """The handler's command starts the shell that reads the script with errexit on (`bash -e
    file.sh`, `sh -eu file.sh`, `bash -o errexit file.sh`)."""
    runs = handler_facts.resolution(handler).runs or ()
    if path not in runs:
        return False
    words = [w for w in runs[:runs.index(path)] if isinstance(w, str)]
    start = max((i for i, w in enumerate(words) if SHELLS.match(w.rsplit("/", 1)[-1])), default=None)
    if start is None:
        return False
    return bool(shell_options(words[start + 1:])[0])


def _shell_lost(script: Script, rule: str) -> Iterator[Finding]:
    """The places of a shell script's model (scripts/shell_status.py) that one rule reports."""
    handlers = _blocking(script)
    if handlers and not ANSWERS & set(script.facts.answers):
        yield from _report(script, handlers, [place for place in script.facts.flow.lost_blocks if place.rule == rule])


def _report(script: Script, handlers: list[Handler], lost: list[Lost]) -> Iterator[Finding]:
    for place in lost[:1]:
        if place.status == "1" and script.code.claude_fails_closed:
            continue  # (exit 1 blocks there too)
        yield script.finding(f"delivery/{place.rule}", Place(place.line, place.column), handlers, how=place.how,
                             status=place.status, action=_action(handlers[0]))


@RULES.rule("delivery/output-lost-at-exit")
def _output_lost_at_exit(script: Script) -> Iterator[Finding]:
    """A Python script whose answer on stdout stays in its buffer: os._exit() ends the process
    before the buffer is written, unless the interpreter runs unbuffered (`python3 -u`, or
    PYTHONUNBUFFERED from the command or the settings' env)."""
    place = script.facts.flow.unflushed_exit
    if place is None or "PYTHONUNBUFFERED" in script.ctx.settings_env:
        return
    handlers = [h for h in script.handlers if not UNBUFFERED.search(str(h.command or ""))]
    if handlers:
        yield script.finding("delivery/output-lost-at-exit", place, handlers)


@RULES.rule("delivery/exit-before-async-work")
def _exit_before_async_work(script: Script) -> Iterator[Finding]:
    """A Node or Bun script whose top-level process.exit ends the run before the asynchronous
    work it started (its stdin read, its async main) has run: nothing it decides reaches the host."""
    early = script.facts.flow.early_exit
    if early is not None and script.handlers:
        yield script.finding("delivery/exit-before-async-work", Place(early.line, early.column), script.handlers,
                             what=early.what, started=early.started)


PLACEHOLDER = lazy(r"\$\{([A-Z_]+)\}|\$([A-Z_]+)\b", needs=("$",))
SHELLS = lazy(r"(?:ba|da|k|z)?sh$")
UNBUFFERED = lazy(r"PYTHONUNBUFFERED|\bpython[\d.]*\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*u", needs=("PYTHON", "python"))


@RULES.rule("delivery/stdin-not-passed")
def _stdin_not_passed(script: Script) -> Iterator[Finding]:
    """A shell wrapper that reads the hook's input itself and then starts the script it wraps
    without handing it on, where that script reads the hook's input or refuses by exit 2."""
    for place in script.facts.flow.lost_blocks:
        if place.rule != "stdin-not-passed":
            continue
        readers = [child for child in _children(script, script.handlers, place.child)
                   if keys.analyse(child).flow.input_reads or _blocks_by_exit_2(child)]
        if place.first and not any(_reads_input(first) for first in _children(script, script.handlers, place.first)):
            continue  # (the first child may leave the input alone: the next one then gets it)
        if readers:
            starved = readers[1] if place.first == place.child and len(readers) > 1 else readers[0]  # (a loop's second)
            yield script.finding("delivery/stdin-not-passed", Place(place.line, place.column), script.handlers,
                                 how=place.how, child=starved.name)
            return


@RULES.rule("delivery/answers-joined")
def _answers_joined(script: Script) -> Iterator[Finding]:
    """A dispatcher whose loop runs several child scripts with their stdout the hook's, two of
    which print a JSON answer: one run can put two objects on stdout, which is no answer."""
    places: dict[tuple[int, int], list[Joined]] = {}
    for place in script.facts.flow.joined_answers:
        places.setdefault((place.line, place.column), []).append(place)
    for (line, column), children in places.items():
        answering = list(dict.fromkeys(path.name for child in children
                                       for path in _children(script, script.handlers, child.child)
                                       if any(w.kind == "json" for w in keys.analyse(path).flow.writes)))
        if len(answering) >= 2:
            yield script.finding("delivery/answers-joined", Place(line, column), script.handlers,
                                 runner=children[0].runner, how=children[0].how,
                                 first=answering[0], second=answering[1])
            return


@RULES.rule("delivery/argument-unmatched")
def _argument_unmatched(script: Script) -> Iterator[Finding]:
    """A script that branches on its first argument (`case "$1" in pre) ...`, `if [ "$1" = post ]`,
    `if sys.argv[1] == "pre":`, `mode === "post"` with `const mode = process.argv[2]`), run by a
    handler whose first argument none of those branches names: the part the hook was meant to run
    never does (a typo, another spelling of the event's name). (A Python or JavaScript test of a
    flag anywhere in argv, `"--summary" in sys.argv`, is no branch on the first argument: flags
    are left out there.)"""
    flow = script.facts.flow
    shell = script.facts.language == "shell"
    names = sorted({r.argument for r in flow.argv_regions if r.given and (shell or not r.argument.startswith("-"))})
    blocks = any(r.given and r.first <= e.at.line <= r.last for r in flow.argv_regions for e in flow.exits
                 if e.status == 2)
    if script.facts.language not in ("shell", "python", "javascript") or not names or (len(names) < 2 and not blocks):
        return  # (one `if [ "$1" = --help ]` in a wrapper is no dispatch on the argument)
    for handler in script.handlers:
        for args in script.arguments_of(handler):
            if args and args[0] not in names and "$" not in args[0] and "/" not in args[0] and (
                    shell or not args[0].startswith("-")):
                first = min(r.first for r in script.facts.flow.argv_regions)
                yield script.ctx.finding(
                    "delivery/argument-unmatched", handler.file, handler.keys + ("command",),
                    [{"path": str(script.facts.path), "line": first, "column": 1,
                      "message": f"the first of {script.facts.path.name}'s branches on its argument"}],
                    argument=args[0], script=script.facts.path.name, names=", ".join(f"`{n}`" for n in names),
                    event=handler.event)
                return


def _children(script: Script, handlers: list[Handler], child: str) -> list[Path]:
    """The files a child the script names may be: as written, beside the script or absolute; and
    for one named by a variable or the script's arguments (`"$@"`, `"$DIR/$1"`), the files the
    handlers' commands name after the script (`run-hook.sh guard.py`, `audit.sh python3 x.py`),
    as written, beside the script or in the folder the hook starts in, with a script suffix added
    where the name has none (`run-hook.sh bash_guard` runs `$DIR/$1.py`). `"$DIR/guard.py"` is
    looked for beside the script."""
    first, _, rest = child.partition(" ")
    word = rest if rest and INTERPRETERS.match(first.rsplit("/", 1)[-1]) else child  # (`python3 $DIR/x.py`: the file)
    if "$" in word and script.facts.language == "shell":  # `dir="$(dirname "$0")/guards"` ... `"$dir/x.sh"`
        word = _written_in(script, word, handlers)
    if "$" not in word:
        return _beside(script.facts, word)
    wrapper, out = script.facts.path, []
    if "$" not in word.rsplit("/", 1)[-1]:  # `"$DIR/guard.py"`: beside the script, most likely
        out.append(wrapper.parent / word.rsplit("/", 1)[-1])
    for handler in handlers:
        runs = handler_facts.resolution(handler).runs
        if not runs or wrapper not in runs:
            continue
        cwd = handler_facts.where(handler.file).cwd
        for arg in runs[runs.index(wrapper) + 1:]:
            if isinstance(arg, Path):
                out.append(arg)
                continue
            if arg.startswith("-"):
                continue
            bases = [Path(arg)] if arg.startswith("/") else [folder / arg for folder in (wrapper.parent, cwd) if folder]
            out.extend(next((Path(f"{base}{suffix}") for suffix in ("", *SCRIPT_SUFFIXES)
                             if disk.is_file(Path(f"{base}{suffix}"))), base) for base in bases)
    return [path for path in dict.fromkeys(out) if disk.is_file(path)]


def _written_in(script: Script, word: str, handlers: list[Handler]) -> str:
    """A child's word with the folders the script's own variables hold written in
    (keys.with_own_folder: `$(dirname "$0")`, `$(cd ... && pwd)` and the variables set to one), the
    host's placeholders (`$CLAUDE_PROJECT_DIR`) as the first handler's file gives them."""
    known = {name: value for name, value in handler_facts.where(handlers[0].file).variables.items()
             if value is not None and name.isupper()} if handlers else {}
    text = PLACEHOLDER.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), f"{script.text}\n{word}")
    written = keys.with_own_folder(text, script.facts.path) if script.text else None
    return written.rsplit("\n", 1)[-1].replace('"', "") if written else word


def _beside(facts: keys.ScriptFacts, child: str) -> list[Path]:
    """The child script a script names, looked for where it is written (an absolute path) or in
    the script's own folder (a path whose first folders lead there from elsewhere, the project's
    `.claude/hooks/x.sh`, is looked for by its last parts); a pattern ("guards/*.py": a loop over a folder's files) is each file
    it matches there (the first MAX_MATCHED). Empty: not there to be read."""
    if "*" in child:
        base, pattern = (Path("/"), child[1:]) if child.startswith("/") else (facts.path.parent, child)
        return [path for path in sorted(base.glob(pattern))[:MAX_MATCHED] if disk.is_file(path)] if pattern else []
    if child.startswith("/"):
        return [Path(child)] if disk.is_file(Path(child)) else []
    parts = child.split("/")
    # (`path.join(root, ".claude", "hooks", name)` from the project's folder: the script's own folder ends that path)
    for start in range(len(parts)):
        path = facts.path.parent.joinpath(*parts[start:])
        if disk.is_file(path):
            return [path]
    return []


MAX_MATCHED = 32  # the files of a dispatcher's folder read as its children


def _reads_input(path: Path) -> bool:
    """A script that reads the hook's input from its stdin (to its end: each read does)."""
    flow = keys.analyse(path).flow
    return bool(flow.reads_stdin or flow.input_reads)


def _blocks_by_exit_2(path: Path | None) -> bool:
    """A script that refuses by exiting 2 (an exit 2, or a `return 2` from the main() its status
    is: the flow model's exits) and gives no JSON decision (which its stdout would still carry to
    the host)."""
    if path is None:
        return False
    child = keys.analyse(path)
    if not child.readable and child.why_not == "a binary file":
        return _compiled_exits_2(path)
    if not child.readable or ANSWERS & set(child.answers):
        return False
    return child.exits_2()


# a compiled guard's source that ends the process with 2: Rust, Go, C/C++, Zig, Swift
SOURCE_EXIT_2 = lazy(r"""\bprocess::exit\(\s*2\s*\)|\bExitCode::from\(\s*2\s*\)|\bos\.Exit\(\s*2\s*\)|"""
                     r"""(?<![\w.])(?:std::)?_?exit\(\s*2\s*\)|\bexit\(\s*2\s*\);""", needs=("2",))
# where a build names what it makes: Cargo's package or [[bin]] name, go.mod's module
BUILD_NAMES = {"Cargo.toml": (lazy(r"""(?m)^\s*name\s*=\s*["']([^"']+)["']"""), "src", (".rs",)),
               "go.mod": (lazy(r"""(?m)^module\s+(\S+)"""), "", (".go",))}
MAX_SOURCES = 64  # source files read for one compiled guard


def _compiled_exits_2(binary: Path) -> bool:
    """A compiled guard (an executable doctor cannot read) whose source beside it ends the process
    with 2: the build file in its folder or up to three above (Cargo.toml, go.mod) that names it
    (its package, a [[bin]], the module's last part or its folder), and a file of the sources that
    exits 2. Without its source, what the binary does is not known: not reported."""
    for folder in [binary.parent, *binary.parents][:4]:
        for build, (named, sources, suffixes) in BUILD_NAMES.items():
            text = _head(folder / build, 64 * 1024)
            if text is None:
                continue
            names = {n.rsplit("/", 1)[-1] for n in named.findall(text)} | {folder.name}
            if binary.name not in names and not disk.exists(folder / "cmd" / binary.name):
                continue
            found = _sources(folder / sources if sources else folder, suffixes)
            return any(SOURCE_EXIT_2.search(_head(p, 256 * 1024) or "") for p in found)
    return False


def _sources(root: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The first MAX_SOURCES source files under a folder (not following links, nor into hidden,
    build or vendored folders), in a walk of at most MAX_FOLDERS folders."""
    found: list[Path] = []
    for number, (folder, subfolders, files) in enumerate(os.walk(root)):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") and d not in NOT_SOURCES)
        found += [Path(folder, f) for f in sorted(files) if f.endswith(suffixes)]
        if len(found) >= MAX_SOURCES or number >= MAX_FOLDERS:
            break
    return found[:MAX_SOURCES]


NOT_SOURCES = frozenset({"target", "node_modules", "vendor", "build", "dist"})
MAX_FOLDERS = 256


def _head(path: Path, limit: int) -> str | None:
    """The first `limit` bytes of a regular file, as text; None where it is not there or not read."""
    if not disk.is_file(path):
        return None
    try:
        return safe_read.read(path, safe_read.SCRIPT, prefix=limit).decode("utf-8", "replace")
    except (OSError, HookwrightError):
        return None


def _action(handler: Handler) -> str:
    host = hosts.of(handler.file.host)
    effect = host.exit_2_blocks.get(handler.event, "") if host is not None else ""
    return f"what exit 2 would stop ({effect}) goes ahead" if effect else "the action goes ahead"


def _wrapped(script: Script, handler: Handler) -> Iterator[Lost]:
    """A shell wrapper that runs a script blocking by exit 2 where the wrapper's own last command,
    a `|| true` or a pipe decides the status (shell/resolve.py), and the wrapper neither passes the
    status on itself (`$?`, PIPESTATUS, pipefail) nor exits 2 of its own."""
    code = script.facts.runs_scripts
    if code is None or "PIPESTATUS" in code or "pipefail" in code or any(
            e.status == 2 for e in script.facts.flow.exits):
        return
    piped = _piped_parts(code) if "$?" in code else None  # (`$?` passes a status on, but after a pipe it is the last part's)
    lines = code.splitlines()
    for inv in resolve_shell(code, handler_facts.where(handler.file)).invocations:
        path = handler_facts.script_of(inv)
        if path is None or (inv.sets_status and not inv.tolerated) or path == script.facts.path:
            continue
        if piped is not None and not any(path.name in text for text in piped):
            continue
        if not _blocks_by_exit_2(path):
            continue
        line = next((n for n, text in enumerate(lines, 1) if path.name in text), 1)
        if piped is not None:
            yield Lost(line, 1, f"the wrapper pipes {path.name} into another command here, and without pipefail the "
                       "pipe's status, which `$?` reads after it, is that last command's (tee's 0)", "0")
            return
        why = f"`|| true` (or a test around it) here takes {path.name}'s exit 2" if inv.tolerated else \
            f"the wrapper runs {path.name} here and its status is not the wrapper's: the command after it " \
            "(or the pipe it feeds) sets that"
        yield Lost(line, 1, why, "0")
        return


SHAPES = {"object": "an object", "text": "a JSON string"}
# what reading a field in the wrong shape does, per language of the script: (read as an object, parsed as text)
EFFECTS = {
    "python": ("the lookup raises (TypeError or AttributeError) and the hook exits 1",
               "json.loads raises TypeError and the hook exits 1"),
    "javascript": ("the member is undefined, so the check built on it never matches",
                   "JSON.parse throws and node exits 1"),
    "shell": ("jq stops with an error and the value comes out empty, so the check built on it never matches",
              "jq's fromjson stops with an error and the value comes out empty"),
}
FIXES = {"object": "parse it first where this event sends text: json.loads(data[\"{field}\"]) (JavaScript "
                   "JSON.parse(input.{field}), jq .{field} | fromjson), or look at its type when the script serves "
                   "several events",
         "text": "read it as the object it is on this event (no json.loads / JSON.parse / fromjson), or look at its "
                 "type when the script serves several events"}


@RULES.rule("delivery/input-field-type")
def _input_field_type(script: Script) -> Iterator[Finding]:
    """An input field read in the shape one Cursor event sends it, by a script Cursor runs on an
    event that sends it in the other (the adapter's json_text and objects), that does not tell the
    events apart."""
    misread = _misread(script.facts, [h.event for h in script.cursor], script.code.fail_closed) \
        if script.cursor else None
    if misread is not None:
        yield script.finding("delivery/input-field-type", Place(misread["line"], misread.pop("column")),
                             script.cursor, **misread)


def _misread(facts: keys.ScriptFacts, events: list[str], fail_closed: bool) -> dict[str, Any] | None:
    """The first input field the code reads in the shape one of these Cursor events does not send
    it in, with the words of its finding; None if none (or the code tells the events apart)."""
    if facts.reads_event_name or not facts.flow.field_reads:
        return None
    for event in events:
        row = cursor_protocol.protocol(event)
        if row is None:
            continue
        for read in facts.flow.field_reads:
            sent = "text" if read.field in row.json_text else "object" if read.field in row.objects else None
            if sent is None or sent == read.shape:
                continue
            effect = EFFECTS.get(facts.language, EFFECTS["python"])[0 if read.shape == "object" else 1]
            if "exits 1" in effect:
                effect += (", which Cursor takes for a failed hook, and with \"failClosed\": true blocks every "
                           "action the hook matches") if fail_closed else \
                    ", which Cursor takes for a failed hook: the action goes ahead"
            return {"field": read.field, "read_as": SHAPES[read.shape], "line": read.line, "column": read.column,
                    "event": event, "sent_as": SHAPES[sent], "effect": effect,
                    "fix": FIXES[read.shape].format(field=read.field)}
    return None
