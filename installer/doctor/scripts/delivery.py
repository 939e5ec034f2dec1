"""Where a script's own exit 2 (its block) never reaches the process that runs it: a small model
of how each language's exception handling, child processes and exit hooks change the status a
hook's interpreter ends with.

- Python: `sys.exit(2)` raises SystemExit, so a bare `except:`, `except BaseException` or
  `except SystemExit` around it (or around a call of a function that exits 2) takes the exit
  back, and a `finally` that exits or returns replaces it; `subprocess.run`/`call`/`Popen` and
  `os.system` of a child script whose status is dropped, and `sys.exit(os.system(...))`, which
  exits with the child's wait status (512 for exit 2: 0 once the interpreter keeps its low byte).
- JavaScript: `execSync` of a child that exits 2 throws (uncaught: node exits 1; caught and not
  passed on: 0), `spawnSync`/`spawn` whose status nobody reads, a `process.exitCode = 2` that a
  later top-level `process.exitCode = 0` or `process.exit(0)` overwrites.
- A dispatcher that runs its guards in a loop (over a literal list, a name bound to one, or a
  folder's files) is read for each script the loop runs: a status each pass overwrites (the
  last child's 0 replaces a 2), or every exit of the script a literal of its own while it reads
  the child's (`1 if any(codes) else 0`, `failed ? 1 : 0`: measured with python 3.11 and node
  20.20.2). Bun.spawnSync's result carries `exitCode` and `success` (Bun's reference:
  SyncSubprocess; bun is not installed here). A loop that lets several children write on its
  stdout, or prints what each wrote, hands the host one JSON object per child that answers
  (rule "answers-joined": a Joined, an output fact, where the rest are Lost statuses).
- Shell: a `trap '... exit 0' EXIT`, which ends every run, an `exit 2` included, with its own status.
- Perl: `exit $?` (or `exit system(...)`), the wait status of a child (512 for exit 2), which exit
  turns into 0; `$? >> 8` is the child's status.

And the input fields some event sends as a JSON string and another as an object (Cursor's
`tool_input`), as the script reads them (field_reads).

The Python model is delivery_python.py's and the JavaScript one delivery_javascript.py's, each
loaded only by a run that reads code in that language (about 0.5 ms each); shell, Perl and what
every language shares are here.

A shell wrapper's own last command (`guard.py; echo done`, `guard || true`, a pipe) is the
command reader's (shell/resolve.py), judged where the wrapper is run (checks/delivery.py).
Each finding names the line that needs the change. What cannot be followed is not reported.
"""
from __future__ import annotations

import re
from typing import Callable

from ...patterns import lazy
from ...records import Record

# what a read of stdin before the input arrives says (runtimes.py; script/stdin-read-partly.nothing)
READS_NOTHING = "no data has arrived yet"


class Lost(Record):
    """A place where the script's block by exit 2 is lost on its way out."""

    line: int
    column: int
    how: str  # what happens there, in a few words
    status: str  # the status the host receives instead ("0", "1", "0 or 1")
    child: str = ""  # the child script whose status is lost, as the code names it ("guard.py"); "": its own
    rule: str = "exit-2-lost"  # the rule (delivery/...) that reports it
    shebang: bool = False  # it holds only where the file runs by its #! line (`#!/bin/bash -e`), not `bash file`
    flag: bool = False  # it holds only where the hook's command starts the shell with -e (`bash -e file`)
    first: str = ""  # stdin-not-passed: the child that took the input first, where the script never read it


class Joined(Record):
    """A run of a child script whose stdout is the hook's, where another child's is too in the
    same run (a loop over several guards, or two run in turn): each that answers in JSON adds an
    object to the one stdout the host reads (rule "answers-joined")."""

    line: int
    column: int
    how: str  # how the child's stdout reaches the hook's, in a few words
    child: str  # the child script, as the code names it
    runner: str = "this loop"  # what runs the children: a loop, or "the script" (two in turn)


def parted(found: tuple[Lost | Joined, ...]) -> tuple[tuple[Lost, ...], tuple[Joined, ...]]:
    """A language model's places split into lost statuses and joined answers."""
    return tuple(p for p in found if isinstance(p, Lost)), tuple(p for p in found if isinstance(p, Joined))


# ---- every language: a child script named in a call -----------------------------------------------

SCRIPT_NAME = lazy(r"""[\w.@+-]*\.(?:py|sh|bash|js|mjs|cjs|ts|rb|pl)\b""",
                   needs=(".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl"))


def child_script_named(arguments: str) -> str:
    """The script file a child process runs, as its arguments' text spells it (the last name
    with a script's suffix); "" where none does."""
    names = SCRIPT_NAME.findall(arguments)
    return names[-1] if names else ""


# ---- shell -------------------------------------------------------------------------------------------

SH_TRAP_EXIT = lazy(r"""(?m)(?:^|[;&|]\s*)trap\s+(?P<q>["'])(?P<body>.*?)(?P=q)\s+(?:[A-Z0-9 ]*\b)?(?:EXIT|0)\b""",
                    needs=("trap",))
SH_TRAP_STATUS = lazy(r"""\bexit\s+(?P<status>[013-9]\d*)\b|\bexit\s*$""")


def shell(code: str, place: Callable[[int], tuple[int, int]], may_exit_2: bool) -> tuple[Lost, ...]:
    """A `trap '... exit N' EXIT` (N not 2) in a script that exits 2 or runs another script: the
    trap's exit is the status."""
    if not may_exit_2:
        return ()
    for match in SH_TRAP_EXIT.finditer(code):
        status = SH_TRAP_STATUS.search(match.group("body"))
        if status and status.group("status") is not None:
            line, column = place(code.index("trap", match.start()))
            return (Lost(line, column, f"this EXIT trap runs `exit {status.group('status')}` as the script ends, "
                         "so every run, an exit 2 included, ends with its status", status.group("status")),)
    return ()


# ---- Perl ----------------------------------------------------------------------------------------------

# `exit $?`, `exit($?)`, `exit system(...)`, or `exit $status` of a `$status = $?` / `= system(...)`:
# the wait status (a child's exit 2 is 512), where `$? >> 8` is the child's own status
PERL_WAIT_STATUS = lazy(r"""(?<![\w$>-])exit\s*\(?\s*(?:\$\?|system\b|\$(?P<var>\w+))(?!\s*>>)""", needs=("exit",))


def perl(code: str, place: Callable[[int], tuple[int, int]]) -> tuple[Lost, ...]:
    """Where a Perl script exits with a child's wait status, not its exit status: exit keeps the
    low byte, so the child's exit 2 (512) becomes 0."""
    for match in PERL_WAIT_STATUS.finditer(code):
        var = match.group("var")
        if var is not None and not re.search(rf"""\${var}\s*=\s*(?:\$\?|system\b)(?!\s*>>)""", code):
            continue
        line, column = place(match.start())
        return (Lost(line, column, "exit here is given the wait status ($?, or what system returns), in which a "
                     "child's exit 2 is 512, and exit keeps its low byte: 0", "0"),)
    return ()


# ---- programs whose own output lands on the hook's stdout ------------------------------------------

# the git subcommands that print on stdout (progress and most messages go to stderr: fetch, push, clone,
# checkout, switch; measured with git 2.43: pull's "Updating.../Fast-forward", stash's "Saved working
# directory", commit's and revert's summary, reset --hard's and worktree add's "HEAD is now at", rm's
# "rm 'f'", clean's "Removing", rebase's "Current branch is up to date", cherry-pick's state)
GIT_PRINTS = frozenset({"status", "log", "diff", "show", "pull", "stash", "commit", "merge", "init", "ls-files",
                        "rev-parse", "reset", "describe", "shortlog", "blame", "grep", "rebase", "rm", "clean",
                        "cherry-pick", "revert", "rev-list", "count-objects", "format-patch", "ls-remote",
                        "for-each-ref", "show-ref", "cat-file", "ls-tree", "name-rev", "whatchanged", "reflog"})
# subcommands that list (on stdout) with no name given, and only change something silently with one
GIT_LISTS = {"branch": frozenset({"-d", "-D", "-l", "--list", "-a", "-r", "-v", "-vv", "--show-current",
                                  "--contains", "--merged", "--no-merged", "--delete"}),
             "tag": frozenset({"-l", "--list", "-n", "--contains", "--points-at"}),
             "remote": frozenset({"-v", "--verbose", "get-url", "show"}),
             "worktree": frozenset({"add", "list"}),
             "config": frozenset({"--get", "--get-all", "--get-regexp", "-l", "--list"})}
PACKAGE_MANAGERS = frozenset({"npm", "pnpm", "yarn"})  # `npm run x` prints "> x" and the script's output
PIP_PRINTS = frozenset({"install", "list", "freeze", "show", "download"})
QUIET = frozenset({"-q", "--quiet", "-s", "--silent", "--porcelain=v0"})
DIRECTORY_STACK = frozenset({"pushd", "popd", "dirs"})  # bash prints the stack after each, on stdout
SEARCHES = frozenset({"grep", "egrep", "fgrep", "rg"})  # print the lines they match (a test in an `if` too)
SEARCH_QUIET = lazy(r"-[a-zA-Z]*q[a-zA-Z]*$|--quiet$|--silent$")
CURL_TO_FILE = lazy(r"-[a-zA-Z]*[oO][a-zA-Z]*$|--output\b|--remote-name")
LOOKUPS = frozenset({"which", "type"})  # print where a command is
# runners and checkers that report on stdout: what they run or find (a clean run of most says nothing,
# a finding is printed: prettier --write lists the files it wrote, ruff and pytest print a summary)
RUNNERS = frozenset({"npx", "pnpx", "bunx", "poetry", "bundle", "eslint", "prettier", "tsc", "ruff", "mypy",
                     "pytest", "jest", "vitest", "shellcheck", "flake8", "pylint", "rubocop", "isort"})
VERBOSE = frozenset({"mkdir", "cp", "mv", "rm", "ln", "chmod", "chown", "rsync"})  # with -v: a line per file
CHATTY = frozenset({"git", "make", "pip", "pip3", "curl", "cd", "command", "nvm"}) | PACKAGE_MANAGERS | \
    DIRECTORY_STACK | SEARCHES | LOOKUPS | RUNNERS | VERBOSE
VERBOSE_FLAG = lazy(r"-[a-zA-Z]*v[a-zA-Z]*$|--verbose$")


def prints_on_stdout(program: str, args: list[str]) -> bool:
    """Whether a program run as `program args...` writes text of its own on stdout: git's
    reporting subcommands, npm/pnpm/yarn, make, pip install (unless told to be quiet), bash's
    pushd and popd, a grep without -q (the lines it matches, in an `if` too), curl's response
    body, `which`/`type`/`command -v`, `cd -`, `nvm use`, npx and the checkers (eslint, prettier,
    ruff, tsc, pytest...), mkdir/cp/mv/rm with -v."""
    program = program.rsplit("/", 1)[-1]
    if program in DIRECTORY_STACK or program in LOOKUPS:
        return True
    if program in SEARCHES:
        return not any(SEARCH_QUIET.match(a) for a in args)
    if program == "curl":  # the response's body, unless it goes to a file
        return not any(CURL_TO_FILE.match(a) for a in args)
    if program == "cd":
        return args == ["-"]  # (cd - prints the directory it goes to)
    if program == "command":
        return bool(args) and args[0] in ("-v", "-V")
    if program in VERBOSE:
        return any(VERBOSE_FLAG.match(a) for a in args) if program != "rsync" else not QUIET & set(args)
    if program == "nvm":  # (nvm.sh's nvm_echo: stdout; `exec` and `run` say "Running node v...")
        return bool(args) and args[0] in ("use", "install", "current", "ls", "alias", "exec", "run") \
            and "--silent" not in args
    if program not in CHATTY or QUIET & set(args) or any(a.startswith("--quiet") for a in args):
        return False
    words = [a for a in args if not a.startswith("-")]
    if program == "git":
        # (`git -C dir status`: the option's value is not the subcommand)
        for index, arg in enumerate(args):
            if arg in ("-C", "-c"):
                words = [a for a in args[index + 2:] if not a.startswith("-")]
        if not words:
            return False
        if words[0] in GIT_LISTS:  # (`git branch` lists, `git branch new` says nothing; `git config k` prints k)
            listing = GIT_LISTS[words[0]]
            return len(words) == 1 or bool(listing & set(args)) or (words[0] == "config" and len(words) == 2)
        return words[0] in GIT_PRINTS and not (words[0] == "diff" and "--exit-code" in args)
    if program in ("pip", "pip3"):
        return bool(words) and words[0] in PIP_PRINTS
    return True


# what writes on stderr in an ordinary run (measured with git 2.39.5 and curl 7.88.1: `git checkout -b x` says
# "Switched to a new branch" there, fetch, pull, push and clone their progress; curl its progress meter
# when its output is not a terminal): with `2>&1`, on the hook's stdout
GIT_TALKS = frozenset({"fetch", "pull", "push", "clone", "checkout", "switch"})
CURL_SILENT = lazy(r"-[a-zA-Z]*s[a-zA-Z]*$|--silent$")


def talks_on_stderr(program: str, args: list[str]) -> bool:
    """Whether a program run as `program args...` writes on stderr in an ordinary run."""
    program = program.rsplit("/", 1)[-1]
    if program == "curl":
        return not any(CURL_SILENT.match(a) for a in args)
    words = [a for a in args if not a.startswith("-")]
    return program == "git" and bool(words) and words[0] in GIT_TALKS and not QUIET & set(args)


# ---- input fields read as one type where an event sends another ------------------------------------

SHAPED_FIELDS = ("tool_input", "tool_output")  # the fields some host event sends as JSON text, another as an object
FIELD_AS_OBJECT = lazy(r"""(?<![\w$])(?P<field>tool_input|tool_output)(?:\\?["'`])?(?:\s*\])?(?:\s*,\s*(?:\{\}|dict\(\))\s*\))?\s*"""
                       r"""(?:\??\.\s*(?:(?:get|items|keys|values)\s*\(|[A-Za-z_]\w*\b(?!\s*\())|\[\s*\\?["'`])""",
                       needs=SHAPED_FIELDS)
FIELD_AS_TEXT = lazy(r"""(?:json\.loads|JSON\.parse)\s*\([^()\n]*?(?P<field>tool_input|tool_output)\b|"""
                     r"""(?P<jq>tool_input|tool_output)\s*\|\s*fromjson\b(?!\?)""",
                     needs=("json.loads", "JSON.parse", "fromjson"))  # (rarer than the fields' names)
FIELD_VARIABLE = lazy(r"""(?:(?:const|let|var)\s+)?(?P<var>[A-Za-z_$][\w$]*)\s*(?::\s*[\w\[\]|, ]+)?=\s*[^=\n;]*?"""
                      r"""(?:\[\s*["'](?P<a>tool_input|tool_output)["']\s*\]|\.get\(\s*["'](?P<b>tool_input|tool_output)["']"""
                      r"""[^)\n]*\)|\.(?P<c>tool_input|tool_output)\b)\s*(?:\|\||or\b|\?\?|;|$)""", re.M,
                      needs=SHAPED_FIELDS)
EITHER_TYPE = lazy(r"""isinstance\s*\(|typeof\b|\btype\s*==|fromjson\?|try\s+fromjson|Array\.isArray""",
                   needs=("isinstance", "type", "fromjson", "Array.isArray"))


class FieldRead(Record):
    field: str  # tool_input | tool_output
    shape: str  # "object" (a member of it is read) | "text" (it is parsed as JSON)
    line: int
    column: int


def field_reads(code: str, place: Callable[[int], tuple[int, int]]) -> tuple[FieldRead, ...]:
    """How the script reads each input field some event sends as JSON text and another as an
    object: its first read as an object (a member: `["tool_input"]["command"]`, `.tool_input.command`,
    a variable holding it and then read so) and its first parse as JSON text. None where the code
    looks at the type (isinstance, typeof, jq's type, `fromjson?`): it may take either."""
    if EITHER_TYPE.search(code):
        return ()
    found: dict[tuple[str, str], int] = {}
    for match in FIELD_AS_OBJECT.finditer(code):
        found.setdefault((match.group("field"), "object"), match.start())
    for match in FIELD_VARIABLE.finditer(code) if "=" in code else ():  # (an assignment: every match holds "=")
        field, var = match.group("a") or match.group("b") or match.group("c"), match.group("var")
        use = re.search(rf"""(?<![\w$.]){re.escape(var)}\s*(?:\??\.\s*(?:(?:get|items|keys|values)\s*\(|"""
                        rf"""[A-Za-z_]\w*\b(?!\s*\())|\[\s*["'`])""", code[match.end():])
        if use is not None:
            found.setdefault((field, "object"), match.end() + use.start())
        parsed = re.search(rf"(?:json\.loads|JSON\.parse)\s*\(\s*{re.escape(var)}\b", code[match.end():])
        if parsed is not None:
            found.setdefault((field, "text"), match.end() + parsed.start())
    for match in FIELD_AS_TEXT.finditer(code):
        found.setdefault((match.group("field") or match.group("jq"), "text"), match.start())
    reads = [FieldRead(field, shape, *place(offset)) for (field, shape), offset in found.items()]
    return tuple(sorted(reads, key=lambda r: (r.line, r.column)))
