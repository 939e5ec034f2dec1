"""A value read from the hook's input with `jq` and no `-r`: jq prints a string as JSON, its
quotes included (`"npm publish"`), so a pattern anchored at either end (`^npm`, `git*`,
`case ... in rm*)`, `[ "$tool" = Bash ]`, `grep '^git'`) can never match it. The condition is
never true (or, with `!=`, always true), and the guard never refuses.

Read from the script's tree (tree.py): the variable a `$( ... | jq FILTER)` assigns, where the
filter is a path to a field that holds text, and each anchored test of it after."""
from __future__ import annotations

from typing import Callable, Iterator

from ...patterns import lazy
from ...records import Record
from .lex import Word
from .tree import AndOr, Command, commands, parsed_once

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


def raw_flag(word: str) -> bool:
    """Whether an option makes jq print a string raw: -r or -j, alone or among one-letter flags
    (-rc), --raw-output[0], --join-output (a plain test: as a regex, a compile of 0.8 M instructions
    of doctor on a typical file)."""
    word = word[:-1] if word.endswith("\n") else word  # (as `$` read it)
    if word in ("--raw-output", "--raw-output0", "--join-output"):
        return True
    letters = word[1:]
    return word.startswith("-") and letters.isascii() and letters.isalpha() and ("r" in letters or "j" in letters)


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
