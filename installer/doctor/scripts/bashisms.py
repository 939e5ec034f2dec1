"""Shell that bash reads and a POSIX sh does not, for the code sh runs: a shell-form command
(Claude Code starts it with /bin/sh: measured on 2.1.328 on Linux, dash here, with "shell": "bash"
too), the script of `sh -c '...'`, and a script run as `sh x.sh` or without a `#!` line.

On Debian and Ubuntu /bin/sh is dash, which stops at most of these with exit 2 (measured with
dash 0.5.12: a syntax error, "Bad substitution", `set -o pipefail`), and exit 2 is the code that
Claude Code reads as a block: a PreToolUse hook then refuses every call it matches, a Stop hook
never lets Claude stop. On macOS /bin/sh is bash, which reads them all: that is how such hooks
get written and pass their author's test.
"""
from __future__ import annotations

from functools import lru_cache

from ...patterns import lazy
from ...records import Record
from ..shell.lex import ARRAY_DYNAMIC, KEYWORDS, Lexer, Unreadable, Word
from .flow import mask_quotes, shell_lines

STOPS = "sh stops the hook there with exit 2, which Claude Code reads as a block"


class BashOnly(Record):
    """One construct: how the message names it, what dash does with it, the POSIX way, and the
    text that starts it (to find its column)."""

    what: str
    effect: str
    instead: str
    marker: str


DOUBLE_BRACKET = BashOnly("[[ ... ]]", "`[[` is not found: the test is false whatever it tests, so what it guards "
                          "never runs", "[ ... ] (the POSIX test)", "[[")
DOUBLE_EQUALS = BashOnly("== in [ ... ]", "`[` stops with \"unexpected operator\": the test is false whatever it "
                         "compares", "= to compare strings in [ ... ]", "==")
HERE_STRING = BashOnly("a here-string (<<<)", f"it is a syntax error: {STOPS}",
                       "printf '%s\\n' \"$text\" | command", "<<<")
ARRAY = BashOnly("an array", f"it is a syntax error: {STOPS}", "set -- one two (the positional parameters)", "=(")
FUNCTION = BashOnly("the `function` keyword", f"it is a syntax error: {STOPS}", "name() { ...; }", "function")
PARAMETER = BashOnly("bash's ${...} expansions (substring, replace, arrays, indirection, case)",
                     f"it is a \"Bad substitution\": {STOPS}", "sed, cut or case", "${")
PIPEFAIL = BashOnly("set -o pipefail", f"set stops with \"Illegal option\" (dash 0.5.12, as in Debian 12 and Ubuntu "
                    f"24.04): {STOPS}", "a check of each command's status", "pipefail")
AMPERSAND_REDIRECT = BashOnly("&> (output and errors to one file)", "`command &> file` runs the command in the "
                              "background and empties the file: the output is not redirected and the command's exit "
                              "status is lost", "> file 2>&1", "&>")
PIPE_BOTH = BashOnly("|& (output and errors into the pipe)", f"it is a syntax error: {STOPS}", "2>&1 |", "|&")
SOURCE = BashOnly("`source`", "`source` is not found (exit 127): what `&&` joins after it never runs, and the "
                  "variables it was to set stay unset", ". FILE (the POSIX dot command)", "source")
PROCESS_SUBSTITUTION = BashOnly("process substitution (<(...) or >(...))", f"it is a syntax error: {STOPS}",
                                "a pipe, or a temporary file made with mktemp", "<(")
ANSI_QUOTE = BashOnly("$'...' quoting", "the $ and the backslashes stay in the string as written (dash 0.5.12), so "
                      "a value or pattern built from it never matches what bash made of it",
                      "printf '\\t' (or the character itself) in ordinary quotes", "$'")
ARITHMETIC = BashOnly("an arithmetic test ((( ... )))", "it reads (( as two subshells and runs the expression as a "
                      "command, which is not found (exit 127): the test is false whatever it tests",
                      "[ \"$n\" -gt 1 ] (or $(( ... )) inside [ ... ])", "((")
SELECT = BashOnly("`select`", f"it is a syntax error: {STOPS}", "a case on the value read", "select")
SEQUENCE = BashOnly("a brace sequence ({1..3})", "it is not expanded: the loop runs once, on the text {1..3} itself",
                    "$(seq 1 3), or a while loop with a counter", "{")
ERR_TRAP = BashOnly("an ERR trap", "dash says \"trap: ERR: bad trap\" and runs on without it: the trap never runs, "
                    "so the failure it was meant to log or turn into a block passes unseen",
                    "`command || { ...; exit 2; }` after each command it watches", "ERR")

# bash's builtins that dash has not: each is "not found" (exit 127), and the script runs on without it
BASH_BUILTINS = frozenset({"shopt", "let", "pushd", "popd", "dirs", "declare", "typeset", "mapfile", "readarray",
                           "coproc", "disown", "enable"})
BRACE_SEQUENCE = lazy(r"\{-?\w+\.\.-?\w+(?:\.\.-?\d+)?\}")

_PARAMETER = r"\$\{(?:!|#?[A-Za-z_][A-Za-z0-9_]*\[|[A-Za-z_][A-Za-z0-9_]*(?:/|:[\s\d(]|\^|,))"
BASH_PARAMETER = lazy(_PARAMETER, needs=("${",))
# a line without one of these has none of the constructs (most commands: nothing is lexed)
SIGNS = lazy(rf"\[\[|==|<<<|&>|=\(|pipefail|function|\|&|\bERR\b|{_PARAMETER}|<\(|>\(|\$'|\(\(|\.\.|"
             r"\b(?:source|select|shopt|let|pushd|popd|dirs|declare|typeset|mapfile|readarray|coproc|disown|enable)\b",
             needs=("[[", "==", "<<<", "&>", "=(", "pipefail", "function", "|&", "ERR", "${", "<(", ">(", "$'", "((",
                    "..", "source", "select", "shopt", "let", "pushd", "popd", "dirs", "declare", "typeset", "mapfile",
                    "readarray", "coproc", "disown", "enable"))
SH_NAMES = frozenset({"sh", "dash"})


@lru_cache(maxsize=4096)
def first(code: str) -> tuple[BashOnly, int] | None:
    """The first construct in code that sh runs, and its offset in the code (comments out). Kept
    per text (a function of the text alone: the lexer is given no variables and no home): the
    corpus tree asks it of 1,746 commands, 1,506 texts."""
    if not SIGNS.search(code):
        return None
    for line in shell_lines(code):
        if line.text != code and not SIGNS.search(line.text):  # (a line that is the whole code was asked above)
            continue
        try:
            found = in_words(Lexer(line.text, {}, None).words())
        except Unreadable:  # a here-document, an unclosed quote...: nothing said
            continue
        if found is None and "$'" in line.text and "$'" in mask_quotes(line.text):
            found = ANSI_QUOTE
        if found:
            column = mask_quotes(line.text).find(found.marker)
            return found, line.offset + max(column if column >= 0 else line.text.find(found.marker), 0)
    return None


def in_words(words: list[Word]) -> BashOnly | None:
    """The first construct in a command's words; the script of a `sh -c '...'` in them too."""
    in_test = False  # inside `[ ... ]` or `test ...`: the words up to the end of that command
    for i, word in enumerate(words):
        at_command = i == 0 or words[i - 1].operator or (words[i - 1].text in KEYWORDS and not words[i - 1].quoted)
        if word.operator:
            if word.text == "|&":
                return PIPE_BOTH
            if word.text == "(" and at_command and nxt_is(words, i, "("):
                return ARITHMETIC
            in_test = False
            continue
        if word.dynamic is ARRAY_DYNAMIC:
            return ARRAY
        if word.dynamic and BASH_PARAMETER.search(word.text):  # (a word without "${" is answered at once)
            return PARAMETER
        if word.quoted:
            continue
        text = word.text
        if word.redirect:
            if text in ("<", ">") and nxt_is(words, i, "("):
                return PROCESS_SUBSTITUTION._replace(marker=text + "(")
            if text.endswith("<<<"):
                return HERE_STRING
            if text.startswith("&>"):
                return AMPERSAND_REDIRECT
            continue
        nxt = words[i + 1] if i + 1 < len(words) else None
        if at_command:
            if text == "[[":
                return DOUBLE_BRACKET
            if text == "source" and nxt is not None and not nxt.operator:
                return SOURCE
            if text == "select" and nxt is not None and not nxt.operator:
                return SELECT
            if text in BASH_BUILTINS:
                return BashOnly(f"bash's `{text}`", f"`{text}` is not found (exit 127), and the script runs on "
                                "without what it does", "what POSIX sh has (the dash manual lists its commands)", text)
            if text in ("[", "test"):
                in_test = True
            elif text == "function" and nxt is not None and not nxt.operator:
                return FUNCTION
            elif text == "set" and _sets_pipefail(words, i + 1):
                return PIPEFAIL
            elif text == "trap" and _traps_err(words, i + 1):
                return ERR_TRAP
            elif text.rsplit("/", 1)[-1] in SH_NAMES and nxt is not None and nxt.text == "-c" \
                    and i + 2 < len(words) and words[i + 2].quoted:
                inner = _inner(words[i + 2].text)
                if inner:
                    return inner
        if in_test and text == "==":
            return DOUBLE_EQUALS
        if "{" in text and ".." in text and not word.dynamic and BRACE_SEQUENCE.search(text):
            return SEQUENCE
    return None


def nxt_is(words: list[Word], i: int, text: str) -> bool:
    """The word after words[i] is the operator `text`."""
    return i + 1 < len(words) and words[i + 1].operator and words[i + 1].text == text


def _sets_pipefail(words: list[Word], start: int) -> bool:
    for word in words[start:]:
        if word.operator:
            return False
        if word.text == "pipefail":
            return True
    return False


def _traps_err(words: list[Word], start: int) -> bool:
    """`trap ACTION ERR`: ERR among the conditions after the action (dash has no ERR condition)."""
    for word in words[start + 1:]:
        if word.operator:
            return False
        if word.text == "ERR" and not word.quoted:
            return True
    return False


def _inner(script: str) -> BashOnly | None:
    found = first(script)
    return found[0] if found else None
