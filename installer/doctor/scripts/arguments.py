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

A shell script's tests are read here; a Python script's by its reader, flow_python.py, and a
JavaScript one's by flow_javascript.py, which a run loads for a script in that language only
(every run loaded their readers here: with event_branches.py's, doctor on one typical file went
from 346.0 M to 345.0 M instructions).
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

from ...patterns import lazy
from ...records import Record
from ..shell.lex import AndOr, commands


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
