"""What a hook's jq does with the hook's input: the fields its filter reads (`root_fields`), and the
values it prints with a string's quotes kept, where a pattern anchored at either end then tests
them (`kept_quotes`). flow.py asks these of a jq whose filter is given the hook's input, and of a
shell text with a jq without a raw flag (-r): a run without such a jq does not load this module
(doctor on one typical file, whose jq says -r and quotes no filter: 330.7 M -> 330.1 M instructions)."""
from __future__ import annotations

import re
from typing import Callable, Iterator

from ...patterns import lazy
from ...records import Record
from ..shell.lex import AndOr, Command, Word, commands, parsed_once
from .flow import raw_flag

# ---- the fields a jq filter reads of its input ----------------------------------------------------

JQ_TOKEN = lazy(r"""(?P<string>")|(?P<field>(?<![\w$\]).)?"])\.(?P<name>[A-Za-z_]\w*))|(?P<word>[$A-Za-z_][\w:]*)|"""
                r"""(?P<pipe>\|(?!\|))|(?P<alternative>//)|(?P<comma>,)|(?P<open>[(\[{])|(?P<close>[)\]}])|"""
                r"""(?P<comment>#[^\n]*)""")
JQ_DEFINES = lazy(r"\bdef\s", needs=("def",))
JQ_STRING_PART = lazy(r"""\\\(|\\.|"|[^"\\]+""")
# jq builtins whose arguments see the same `.` as the call (select(.a), test(.b)); any other
# call's (map, sort_by, with_entries...) may see something else
JQ_SAME_INPUT = frozenset({"select", "test", "match", "capture", "contains", "inside", "startswith", "endswith",
                           "ltrimstr", "rtrimstr", "split", "splits", "join", "has", "index", "rindex", "indices",
                           "sub", "gsub", "first", "last", "limit", "del", "getpath", "path", "isempty", "error",
                           "tostring", "tojson", "ascii_downcase", "ascii_upcase", "if", "then", "elif", "else",
                           "and", "or", "not"})


class _JqFrame:
    """One open (...), [...], {...} or string interpolation of a jq filter, as the reader walks it."""

    def __init__(self, root: bool, interpolation: bool, first: int) -> None:
        self.root = root  # `.` is still the hook's input here
        self.interpolation = interpolation  # a string's \(...): its `)` goes back into the string
        self.first = first  # where in the fields found the expression read now began
        self.alternative = False  # that expression has a `//`


def root_fields(program: str) -> list[tuple[str, int]]:
    """The fields a jq filter reads of its input, with their offsets: `.a` where `.` is still
    the input (before any `|` at its depth, in `(...)`, `[...]`, `{...}`, a string's `\\(...)`
    or the arguments of select, test and the like), not `.b` of `.a.b` nor what follows `| `,
    map(...) or catch. Fields that stand in for each other (`.tool_input.command // .command`:
    whichever the event sends) are left out; one with a default (`.tool_input.command // ""`)
    is read. A program that defines functions is not read."""
    if JQ_DEFINES.search(program):
        return []
    found: list[tuple[str, int] | None] = []

    def ended(frame: _JqFrame) -> None:
        """The frame's expression ends: its fields go if two or more of them are alternatives."""
        if frame.alternative and sum(field is not None for field in found[frame.first:]) > 1:
            found[frame.first:] = [None] * (len(found) - frame.first)
        frame.first, frame.alternative = len(found), False

    stack = [_JqFrame(True, False, 0)]
    at, word = 0, ""
    while (match := JQ_TOKEN.search(program, at)) is not None:
        at = match.end()
        frame = stack[-1]
        if match.group("string"):
            at = _jq_string(program, at, frame.root, stack, len(found))
        elif match.group("name"):
            if match.group("field") is not None and frame.root:
                found.append((match.group("name"), match.start("name")))
        elif match.group("word"):
            word = match.group("word")
            if word == "catch":  # (its body reads the error)
                frame.root = False
            continue
        elif match.group("pipe") or match.group("comma"):
            ended(frame)
            frame.root = frame.root and not match.group("pipe")
        elif match.group("alternative"):
            frame.alternative = True
        elif match.group("open"):
            called = bool(word) and word not in JQ_SAME_INPUT
            before = program[match.start() - 1:match.start()]
            indexes = match.group("open") == "[" and (before in ("]", ")", "?", ".", '"') or before.isalnum())
            stack.append(_JqFrame(frame.root and not called and not indexes, False, len(found)))
        elif match.group("close") and len(stack) > 1:
            closed = stack.pop()
            ended(closed)
            if closed.interpolation:
                at = _jq_string(program, at, stack[-1].root, stack, len(found))
        word = ""
    for frame in reversed(stack):
        ended(frame)
    return [field for field in found if field is not None]


def _jq_string(program: str, at: int, root: bool, stack: list[_JqFrame], first: int) -> int:
    """Past a jq string that starts at `at`; at a `\\(`, a frame for its interpolation is pushed
    and the offset right after it returned."""
    part: re.Match[str]
    for part in JQ_STRING_PART.finditer(program, at):
        if part.group(0) == '"':
            return part.end()
        if part.group(0) == "\\(":
            stack.append(_JqFrame(root, True, first))
            return part.end()
    return len(program)


# ---- a value jq keeps quoted, tested with an anchored pattern ---------------------------------------
#
# A value read from the hook's input with `jq` and no `-r`: jq prints a string as JSON, its
# quotes included (`"npm publish"`), so a pattern anchored at either end (`^npm`, `git*`,
# `case ... in rm*)`, `[ "$tool" = Bash ]`, `grep '^git'`) can never match it. The condition is
# never true (or, with `!=`, always true), and the guard never refuses.
#
# Read from the script's tree (shell/lex.py): the variable a `$( ... | jq FILTER)` assigns, where the
# filter is a path to a field that holds text, and each anchored test of it after.

# a path to a field, with a default: `.tool_input.command // ""`, `.tool_name`, `.["tool_input"].file_path // empty`
FIELD_PATH = lazy(r"""^\s*(?:\.[\w"\[\]?]+|\.\[[^\]]*\])+(?:\s*//\s*(?:empty|"[^"]*"|\.[\w.]+))?\s*$""")
NOT_TEXT = lazy(r"stop_hook_active|interrupted|is_error|exit_code|success|replace_all|run_in_background|"
                r"\boffset\b|\blimit\b|\btimeout\b|\bline\b|"
                r"(?:tool_input|tool_response|tool_output|edits|todos)[\"\]?]*\s*(?://.*)?$")  # (objects print bare)
DECLARES = frozenset({"local", "declare", "typeset", "export", "readonly"})
TESTS = frozenset({"[", "test"})
COMPARE = frozenset({"=", "==", "!="})
GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})
FEEDS = frozenset({"echo", "printf"})


class QuotedValue(Record):
    line: int  # the jq that keeps the quotes: where `-r` goes
    column: int
    variable: str
    test: str  # the test that never matches, as written
    test_line: int


def kept_quotes(code: str, place: Callable[[int], tuple[int, int]],
                tree_of: Callable[[], list[AndOr] | None] | None = None) -> tuple[QuotedValue, ...]:
    """Each variable read with a jq that keeps a string's quotes and then tested with an anchored
    pattern, at the jq (the first such test named). `tree_of`: the script's tree, where another
    reader has parsed it already (tree.parsed_once)."""
    if "jq" not in code or "$(" not in code:
        return ()  # (the value is assigned from a `$( )`: a text without one is not parsed for it)
    tree = (tree_of or parsed_once(code))()
    if tree is None:
        return ()
    every = list(commands(tree))
    assigned = dict(_assignments(every))
    if not assigned:
        return ()
    found = {}
    for command, statement_words in _tests(tree):
        for variable, text in _anchored(command, statement_words):
            if variable in assigned and variable not in found and assigned[variable].at < command.at:
                found[variable] = QuotedValue(*place(assigned[variable].at), variable, text, place(command.at)[0])
    return tuple(sorted(found.values()))


def _assignments(every: list[Command]) -> Iterator[tuple[str, Command]]:
    """(variable, the jq command) for `x=$(... jq FILTER ...)` (local, declare... too) where jq prints
    a text field with its quotes."""
    for command in every:
        if command.kind != "simple" or not command.substitutions:
            continue
        words = command.plain
        if words and words[0].text in DECLARES and not words[0].quoted:
            words = words[1:]
        targets = [w.text.split("=", 1)[0] for w in words if "=$(" in w.text or "=`" in w.text]
        if len(targets) != 1 or len(command.substitutions) != 1:
            continue
        jq = _quoting_jq(command.substitutions[0])
        if jq is not None:
            yield targets[0], jq


def _quoting_jq(listed: list[AndOr]) -> Command | None:
    """The jq that prints the substitution's output, where it keeps a text value's quotes."""
    if len(listed) != 1 or listed[0].operators:
        return None
    parts = listed[0].pipelines[-1].commands
    while len(parts) > 1 and _passes_quotes(parts[-1]):  # (`jq .x | head -1`: the quotes go through)
        parts = parts[:-1]
    last = parts[-1]
    words = [w.text for w in last.plain]
    if last.kind != "simple" or not words or words[0] != "jq" or any(map(raw_flag, words[1:])):
        return None
    filters = [w for w in words[1:] if not w.startswith("-")]
    if not filters or not FIELD_PATH.match(filters[0]) or NOT_TEXT.search(filters[0]):
        return None
    return last


def _passes_quotes(command: Command) -> bool:
    """A filter after jq that keeps the quotes: head, tail, `tr` that does not name a quote."""
    words = [w.text for w in command.plain]
    if command.kind != "simple" or not words:
        return False
    return words[0] in ("head", "tail") or (words[0] == "tr" and not any('"' in w for w in words[1:]))


def _tests(tree: list[AndOr]) -> Iterator[tuple[Command, list[Word]]]:
    """Every command with the words of the statement's first pipeline (what feeds a grep)."""
    for statement in tree:
        for pipeline in statement.pipelines:
            for position, command in enumerate(pipeline.commands):
                feeder = pipeline.commands[position - 1].plain if position else []
                yield command, feeder
                for inner in command.lists:
                    yield from _tests(inner)
                for inner in command.substitutions:
                    yield from _tests(inner)


def _variable(word: Word) -> str:
    """The variable a word is made of alone (`$cmd`, `${cmd}`), or ""."""
    text = word.text
    if text.startswith("${") and text.endswith("}") and text[2:-1].isidentifier():
        return text[2:-1]
    return text[1:] if text.startswith("$") and text[1:].isidentifier() else ""


def _anchored(command: Command, feeder: list[Word]) -> Iterator[tuple[str, str]]:
    """(variable, the test) for each test of a variable by a pattern anchored at either end."""
    if command.kind == "case" and command.words:
        variable = _variable(command.words[0])
        for arm in command.patterns:
            for pattern in arm:
                if variable and _glob_anchored(pattern):
                    yield variable, f"case {command.words[0].text} in {pattern.text})"
                    return
        return
    words = command.plain
    if command.kind != "simple" or not words:
        return
    head = words[0].text
    if head == "[[" or head in TESTS:
        for left, operator, right in zip(words, words[1:], words[2:]):
            if not _variable(left) and _variable(right) and operator.text in COMPARE and head in TESTS:
                left, right = right, left  # (`[ "Bash" = "$tool" ]`)
            variable = _variable(left)
            if not variable or operator.quoted or _mentions_quote(right) or _variable(right):
                continue
            if operator.text == "=~" and head == "[[" and (right.text.startswith("^") or right.text.endswith("$")):
                yield variable, f"[[ {left.text} =~ {right.text} ]]"
            elif operator.text in COMPARE and (head in TESTS or _glob_anchored(right)):
                closing = {"[[": " ]]", "[": " ]"}.get(head, "")
                yield variable, f"{head} {left.text} {operator.text} {right.text}{closing}"
    elif head in GREPS:
        options = [w.text for w in words[1:] if w.text.startswith("-")]
        regex = next((w.text for w in words[1:] if not w.text.startswith("-")), "")
        fed = [w for w in command.words if w.redirect and w.text == "<<<"]
        source = command.words[command.words.index(fed[0]) + 1] if fed else (
            feeder[1] if len(feeder) > 1 and feeder[0].text in FEEDS else None)
        variable = _variable(source) if source is not None else ""
        if variable and '"' not in regex and (regex.startswith("^") or regex.endswith("$") or any(
                o.startswith("-") and not o.startswith("--") and "x" in o for o in options)):
            yield variable, f"{head} {' '.join(options)} {regex}".replace("  ", " ")


def _glob_anchored(pattern: Word) -> bool:
    """A glob that must match from the first character or to the last (`rm*`, `*.env`, `Bash`)."""
    text = pattern.text
    if not text or _mentions_quote(pattern) or text == "*" or text.startswith("$"):
        return False
    return not (text.startswith("*") and text.endswith("*"))


def _mentions_quote(word: Word) -> bool:
    return '"' in word.text or "\\\"" in word.text
