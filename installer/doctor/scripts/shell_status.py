"""Where a shell script's own block (its `exit 2`) never becomes the status its process ends with:
a small model of how the shell's subshells, errexit, `local`, EXIT traps and `wait` change it,
read from the script's tree (shell/lex.py).

- an `exit 2` that runs in a subshell (a pipeline's part: `... | while read; do exit 2; done`, a
  `( ... )`, a `$( ... )`, a function called there) ends that subshell only, and the script runs
  on, unless what follows passes the status on (`set -e`, `|| exit`, `$?`, PIPESTATUS, its last
  statement, `shopt -s lastpipe` for a pipeline's last part);
- under `set -e`, a command whose failure is an ordinary outcome (`grep` that matches nothing,
  `((n++))` from 0, a function ending in `[ ... ] && ...`) ends the script with 1 before it
  reaches its `exit 2`;
- `local x=$(guard)` (export, declare, readonly) sets `$?` to the builtin's 0, so the `$?` read
  next never sees the guard's failure;
- an EXIT trap calling a function that exits with another status replaces the script's;
- a bare `wait` after jobs started with `&` returns 0 whatever they exit with;
- a wrapper's child named by a variable or the arguments (`"$@"`, `"$DIR/$1"`) whose status a pipe,
  a `||` or the commands after it replace, or which starts after the wrapper has read all of stdin
  without being given it (checks/delivery.py judges the child the handler's command names).
Each Lost names the line the user changes. What the reader cannot parse is not reported.
"""
from __future__ import annotations

from typing import Callable

from ...patterns import lazy, marked
from ..shell.lex import AndOr, parsed_once
from .delivery import SCRIPT_NAME, Joined, Lost

# what each entry below asks of a script's text before it reads the model (shell_model.py)
BLOCKS = lazy(r"\b(?:exit|return)[ \t]+2\b", needs=("2",))
# a JSON answer that refuses (or whose decision a variable holds): not an allow
DECIDES = lazy(r"""(?:permissionDecision|\bdecision|\bbehavior)\W{0,8}(?:deny|block|ask|\$)""",
               needs=("ecision", "behavior"))
# what follows a `$` whose command a variable or an argument names: it may be a child to follow
CHILD_NAMES = frozenset("{@*123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
RUNNERS = lazy(r"\brun-parts\b|\bxargs\b|-exec\b", needs=("run-parts", "xargs", "-exec"))  # (run_by_a_runner)
INTERPRETERS = lazy(r"(?:python[\d.]*|pypy3?|node|bun|deno|tsx|ruby|perl|php|bash|sh|zsh|dash|uv)$")
# the commands that read part of their stdin (shell_model's _cuts), named in a text that may cut the input
CUTTERS = lazy(r"\b(?:head|dd|read|cut)\b", needs=("head", "dd", "read", "cut"))
# what each of them is given to cut (_cuts: head -c/--bytes, dd count=, read -n/-N, cut -c/-b; --bytes holds -b)
CUT_OPTIONS = ("-c", "-b", "-n", "-N", "count=")


def _names_a_child(code: str) -> bool:
    """Whether a `$` is followed by one of CHILD_NAMES (a plain find: as a regex, a compile of 0.3 M
    instructions of doctor on a typical file)."""
    return marked(code, "$", CHILD_NAMES)


def _names_a_cut(code: str) -> bool:
    """Some option of a cut is written in the code, its quotes and backslashes taken out (as the
    shell reads a word): a code without one is not parsed for a cut (the corpus tree's command
    texts: 10 parsed, where `read`, `head` or `cut` alone had 31 parsed)."""
    plain = code.replace("\\\n", "").replace("\\", "").replace('"', "").replace("'", "")
    return any(option in plain for option in CUT_OPTIONS)


def lost(code: str, place: Callable[[int], tuple[int, int]], shebang: str = "",
         tree_of: Callable[[], list[AndOr] | None] | None = None, outside_git: bool = False) -> tuple[Lost, ...]:
    """The places of a shell script where its block by exit 2 is lost (sorted by line). `shebang`:
    its #! line, where the code given has its comments blanked; `tree_of`: the script's tree, where
    another reader has parsed it already (tree.parsed_once)."""
    if not BLOCKS.search(code) and not _names_a_child(code) and not DECIDES.search(code) and not RUNNERS.search(code):
        return ()
    tree = (tree_of or parsed_once(code))()
    if tree is None:
        return ()
    from .shell_model import Model, shebang_errexit  # (past the premises: the model is 150 KB of bytecode, 2.7 M
    # instructions of doctor on a typical file, whose hooks give it nothing to follow)

    by_shebang = shebang_errexit(shebang or code)
    model = Model(code, tree, place, "shebang" if by_shebang else "", outside_git)
    found = [*model.subshell_exits(), *model.errexit_stops(), *model.masked(), *model.traps(), *model.bare_wait(),
             *model.wrapped(), *model.returns_dropped(), *model.mapped(), *model.run_by_a_runner(), *model.looped(), *model.read_looped(), *model.shared_in_loop(), *model.tested_children(), *model.unset_status(), *model.starved()]
    if not by_shebang:  # (what errexit from the start would end early: where the command runs `bash -e file`)
        found += [stop._replace(shebang=False, flag=True) for stop in Model(code, tree, place, "flag", outside_git).errexit_stops()
                  if stop.shebang]
    return tuple(sorted(set(found)))


def cut_short(code: str, place: Callable[[int], tuple[int, int]],
              tree_of: Callable[[], list[AndOr] | None] | None = None) -> tuple[Lost, ...]:
    """The places where the hook's input is read only in part (input-cut-short, not in lost()'s), without the
    rest of its model: every hook's code is asked this, the rest only a script file's."""
    if not BLOCKS.search(code) and not _names_a_child(code) and not DECIDES.search(code):
        return ()
    if not (CUTTERS.search(code) and _names_a_cut(code)) and not ("$(cat" in code and "${" in code):
        return ()  # (nothing cuts: a command line's parse is worked out only where its rules need it)
    tree = (tree_of or parsed_once(code))()
    if tree is None:
        return ()
    from .shell_model import Model  # (past its premises: see lost())

    return tuple(sorted(set(Model(code, tree, place).cut_input())))


def joined_answers(code: str, place: Callable[[int], tuple[int, int]],
                   tree_of: Callable[[], list[AndOr] | None] | None = None) -> tuple[Joined, ...]:
    """The child scripts whose stdout is the script's own (not captured, piped on or redirected)
    where more than one can answer in one run: run in a `for` loop over several (a literal list,
    a folder's files, `"$@"`) that no break, exit or return ends, whose output each pass lets
    through or captures and prints; or two run one after the other in the same list. A child's
    answer that reaches the dispatcher's stdout is an answer of the dispatcher, and two of them
    are two JSON documents (checks/delivery.py keeps those whose children print JSON)."""
    if "done" not in code and len(SCRIPT_NAME.findall(code)) < 2:
        return ()  # (no loop, and fewer than two scripts named)
    from . import shell_model  # (past its premise: see lost())

    return shell_model.joined_answers(code, place, tree_of)
