"""The shell reader's first step: a command string cut into words, the way a POSIX shell
quotes and expands them (quotes, `$VAR`/`${VAR}`/`${VAR:-default}`, `~`, operators,
redirections). What only the shell can know when the hook runs (`$(...)`, backticks, an
unknown variable) makes a word *dynamic*; a string the shell would reject is Unreadable.

And the words of a whole script as the shell runs them (parse, below): lists of `a && b || c`
chains of pipelines of commands, the compound commands (`{ }`, `( )`, if, loops, case, functions,
`(( ))`) with the lists they hold, and where each starts. A here-document's body is blanked first
(its text is data). What the reader cannot take (an unbalanced construct, a syntax it does not
know) makes the script Unreadable: its callers then say nothing of it.

Read from the tree here: where the output of each command of a shell-form hook command goes
(`streams`): its stdout, which carries a JSON answer to the host, and its stderr, which carries
exit 2's reason (Claude Code reads the reason from stderr and ignores stdout on exit 2:
docs/hosts/claude-code.md#exit-codes), through redirections of a command and of the compound
commands around it (`> log`, `2>/dev/null`, `2>&1`, `&>`, `>&2`), a lasting `exec 2>/dev/null`,
and pipes, where `tee`, `cat` and `jq` hand the text on and any other command (`logger`, a
`while read` loop) takes it; and which commands read the hook's own stdin (`stdin_takers`).
(The tree is built on the words, and every doctor run reads both: one module, not two.)"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from ...patterns import lazy
from ...records import Record
from . import GIT_TOP

KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}",
                      "(", ")", "time"})
# a redirection's operator, in the order the shell's reading tries them, after a descriptor's
# digits or `&` (redirect_end)
REDIRECTIONS = (">>", ">&", "<&", "<<<", "<>", ">|", ">", "<")
ASSIGNMENT = lazy(r"^[A-Za-z_][A-Za-z0-9_]*=")
# Paths the host puts in the environment; unquoted, the shell splits them where they hold a space
PATH_PLACEHOLDERS = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA", "CURSOR_PROJECT_DIR",
                     "CURSOR_PLUGIN_ROOT")


# ---- words -----------------------------------------------------------------------------------

class Unreadable(Exception):
    pass


class Word:
    # (slots, not an instance dict: a run makes one for each word of each command, 10,000 on the
    # corpus tree; 112 bytes a word where it took 161, and work_out 493.9 M -> 492.3 M instructions)
    __slots__ = ("at", "text", "dynamic", "quoted", "operator", "assignment", "redirect", "unquoted", "inner_command")

    def __init__(self, text: str, dynamic: str | None = None, quoted: bool = False, operator: bool = False,
                 assignment: bool = False, redirect: bool = False, unquoted: str | None = None,
                 inner_command: str | None = None) -> None:
        self.at = -1  # its offset in the text the Lexer read (-1: a word made elsewhere)
        self.text = text  # after quote removal and the expansions we can do
        self.dynamic = dynamic  # an expansion only the running shell can do
        self.quoted = quoted  # some part was quoted (a quoted `=` is not an assignment...)
        self.operator = operator  # &&, ||, ;, |, & , newline, ( or )
        self.assignment = assignment  # NAME=value, unquoted name
        self.redirect = redirect  # >, 2>, >>, <, &>, 2>&...: the next word is its target
        self.unquoted = unquoted  # a PATH_PLACEHOLDERS name expanded outside quotes (split at spaces)
        # `text` with the host placeholders that were expanded inside double quotes written back, for
        # telling whether a shell that runs this word as a command (`bash -c "..."`) would split them
        self.inner_command = inner_command


BRACED_PLACEHOLDER = lazy(r"\$\{([A-Za-z_][A-Za-z0-9_.]*)\}")


def placeholder_word(text: str, variables: dict[str, str | None]) -> Word:
    """Exec form: no shell; Claude Code substitutes its own `${NAME}` placeholders only."""
    dynamic = None

    def sub(match: re.Match[str]) -> str:
        nonlocal dynamic
        value = variables.get(match.group(1))
        if value is None:
            dynamic = dynamic or f"${{{match.group(1)}}} is only known when the hook runs"
            return match.group(0)
        return value

    out = BRACED_PLACEHOLDER.sub(sub, text)
    if out.startswith("~"):
        dynamic = dynamic or "exec form runs without a shell, so ~ is not expanded"
    return Word(out, dynamic=dynamic)


_GLOB = lazy(r"[*?\[]")
_OPERATOR = lazy(r"&&|\|\||;;|\|&|[;|&\n()]")
BACKTICK_DYNAMIC = "`...` is worked out when the hook runs"  # why a word with a backquote is not known ahead
ARRAY_DYNAMIC = "a bash array (NAME=(...))"  # why an array assignment's word is not known ahead
_PLAIN = lazy(r"""[^\s'"\\$`;&|()<>]+""")
_PLAIN_DQ = lazy(r"""[^"\\$`]+""")
MAX_NESTING = 50
NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")  # a variable's name (the settings' "env" names them alike)
# `git rev-parse --show-toplevel`, alone or falling back to the folder itself (`2>/dev/null || pwd`)
_GIT_TOP = lazy(r"\s*git\s+rev-parse\s+--show-toplevel(?:\s+2>\s*/dev/null)?(?:\s*\|\|\s*(?:pwd|echo\s+\.))?\s*",
                needs=("rev-parse",))
_PWD = lazy(r"\s*pwd(?:\s+-[LP])?\s*", needs=("pwd",))  # `$(pwd)`: the folder the hook runs in, as $PWD
_PARAMETER = lazy(r"([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=])(.*))?", re.S)  # inside ${...}: NAME, NAME:-default...
# what a redirection (redirect_end) or an operator (_OPERATOR) can start with
_MAY_START_OPERATOR = frozenset("0123456789&<>;|\n()")
# A word with nothing to unquote, expand or glob, not an assignment and not starting with ~ or #:
# its text is itself (the lookahead leaves anything else, a \r say, to the full reading). (Written
# with one class for all its characters and two lookaheads, where it had a class for the first
# character and a positive lookahead: it compiles in 0.58 M instructions, not 0.81 M.)
_SIMPLE_WORD = lazy(r"""(?![~#])[^\s'"\\$`;&|()<>=*?\[]+(?![^ \t\n;&|()<>])""")


def reads_the_disk(command: str) -> bool:
    """Whether reading the command asks the disk about the folders it starts in (the top of the
    work tree of `$(git rev-parse --show-toplevel)`, looked for from the folder up): its reading
    then differs from one project to the next, whatever their names."""
    return _GIT_TOP.search(command) is not None


class Lexer:
    """POSIX shell words, with the expansions that can be done statically."""

    def __init__(self, text: str, variables: dict[str, str | None], home: Path | None, depth: int = 0) -> None:
        self.text = text
        self.variables = variables
        self.home = home
        self.depth = depth  # of ${X:-...} defaults read inside each other
        self.i = 0

    def words(self) -> list[Word]:
        out: list[Word] = []
        text, n = self.text, len(self.text)
        in_test = False  # inside [[ ]]: && || ( ) are part of the test, and =~ takes a regex
        placed, begin = 0, 0  # (each turn of the loop adds one word at most: where it began)
        # (the offset a local, put back in self.i for the readers that move it, _word and
        # _regex_operand: an attribute read and written at each step took the corpus tree's
        # work_out from 480.2 M to 484.0 M instructions)
        i = self.i
        while i < n:
            if len(out) > placed:
                out[-1].at, placed = begin, len(out)
            begin = i
            if in_test and out and out[-1].text == "=~" and not out[-1].quoted and text[i] not in " \t":
                self.i = i
                out.append(self._regex_operand())
                i = self.i
                continue
            ch = text[i]
            if ch in " \t":  # (most blanks are one: a loop, not a pattern to compile; see redirect_end)
                i += 1
                while i < n and text[i] in " \t":
                    i += 1
                continue
            if ch == "\\" and text.startswith("\\\n", i):
                i += 2
                continue
            if ch == "#":  # at the start of a word: a comment
                end = text.find("\n", i)
                i = n if end < 0 else end
                continue
            starts = ch in _MAY_START_OPERATOR  # (no operator is looked for in a word that starts otherwise)
            if not starts:  # (most words: neither a redirection nor an operator)
                simple = _SIMPLE_WORD.match(text, i)
                if simple:
                    word = simple.group()
                    out.append(Word(word))
                    i = simple.end()
                    # (the one blank after most words taken here, without a turn of the loop of its
                    # own: the corpus tree's lexing 176.5 M -> 173.6 M instructions)
                    if i < n and text[i] == " ":
                        i += 1
                    in_test = in_test and word != "]]"
                    continue
            else:
                if text.startswith("<<", i) and not text.startswith("<<<", i):
                    raise Unreadable("a here-document (not read here)")
                redirect = redirect_end(text, i)
                if redirect >= 0:
                    out.append(Word(text[i:redirect], redirect=True))
                    i = redirect
                    continue
                op = _OPERATOR.match(text, i)
                if op:
                    token = op.group(0)
                    out.append(Word(token, operator=not (in_test and token in ("&&", "||", "(", ")"))))
                    i += len(token)
                    continue
                simple = _SIMPLE_WORD.match(text, i)  # (matched above where it does not start so)
                if simple:  # most words: nothing to unquote or expand
                    word = simple.group()
                    out.append(Word(word))
                    i = simple.end()
                    in_test = in_test and word != "]]"
                    continue
            self.i = i
            out.append(self._word())
            i = self.i
            in_test = in_test or (out[-1].text == "[[" and not out[-1].quoted and _starts_a_command(out[:-1]))
        self.i = i
        if len(out) > placed:
            out[-1].at = begin
        return out

    def _regex_operand(self) -> Word:
        """The pattern after `=~` in [[ ]]: one word up to a blank outside parentheses, with
        its | and ( ) (a regex, not a pipeline)."""
        text, n = self.text, len(self.text)
        start, depth = self.i, 0
        while self.i < n:
            c = text[self.i]
            if c in "'\"":
                end = text.find(c, self.i + 1)
                self.i = n if end < 0 else end + 1
                continue
            if c == "\\":
                self.i += 2
                continue
            if c in " \t\n" and depth <= 0:
                break
            depth += (c == "(") - (c == ")")
            self.i += 1
        return Word(text[start:self.i], quoted=True)

    def _word(self) -> Word:
        text, n = self.text, len(self.text)
        parts: list[str] = []
        dynamic: str | None = None
        quoted = False
        unquoted: str | None = None
        deferred: list[tuple[int, str]] = []  # (index in parts, placeholder as written) for inner_command
        start = self.i
        # a leading unquoted ~ (or ~/...) is the home directory
        if text[self.i] == "~":
            j = self.i + 1
            while j < n and (text[j].isalnum() or text[j] in "_-.") :
                j += 1
            if j == self.i + 1 and (j == n or text[j] in "/ \t;&|)\n"):
                if self.home is None:
                    dynamic = "~ is only known when the hook runs"
                    parts.append("~")
                else:
                    parts.append(str(self.home))
                self.i = j
            elif j > self.i + 1:
                dynamic = f"{text[self.i:j]} is another user's home"
                parts.append(text[self.i:j])
                self.i = j
        while self.i < n:
            ch = text[self.i]
            if ch in " \t\n;&|()<>":
                break
            if ch == "'":
                end = text.find("'", self.i + 1)
                if end < 0:
                    raise Unreadable("an unterminated ' quote")
                parts.append(text[self.i + 1:end])
                quoted = True
                self.i = end + 1
            elif ch == '"':
                self.i += 1
                quoted = True
                while True:
                    if self.i >= n:
                        raise Unreadable('an unterminated " quote')
                    c = text[self.i]
                    if c == '"':
                        self.i += 1
                        break
                    if c == "\\" and self.i + 1 < n and text[self.i + 1] in '$`"\\\n':
                        parts.append(text[self.i + 1])
                        self.i += 2
                    elif c == "$":
                        at = self.i
                        value, why, placeholder = self._dollar()
                        if placeholder:
                            deferred.append((len(parts), text[at:self.i]))
                        parts.append(value)
                        dynamic = dynamic or why
                    elif c == "`":
                        self._backtick()
                        dynamic = dynamic or BACKTICK_DYNAMIC
                    else:
                        parts.append(self._plain_run(_PLAIN_DQ))
            elif ch == "\\":
                if self.i + 1 < n:
                    parts.append(text[self.i + 1])
                self.i += 2
            elif ch == "$":
                value, why, placeholder = self._dollar()
                unquoted = unquoted or placeholder
                parts.append(value)
                dynamic = dynamic or why
            elif ch == "`":
                self._backtick()
                parts.append("`")
                dynamic = dynamic or BACKTICK_DYNAMIC
            else:
                parts.append(self._plain_run(_PLAIN))
        raw = text[start:self.i]
        word = Word("".join(parts), dynamic=dynamic, quoted=quoted)
        if deferred:
            for index, written in deferred:
                parts[index] = written
            word.inner_command = "".join(parts)
        word.assignment = "=" in raw and bool(ASSIGNMENT.match(raw))  # (most words have no "=" to look for)
        if word.assignment and raw.endswith("=") and text.startswith("(", self.i):  # bash's NAME=(a b): one word
            end = self._skip_parens(self.i)
            word.text += text[self.i:end]
            word.dynamic = ARRAY_DYNAMIC
            self.i = end
        word.unquoted = None if word.assignment else unquoted  # NAME=$X is not split
        if not quoted and _GLOB.search(raw) and not word.assignment and "=" not in raw:
            word.dynamic = word.dynamic or "a glob pattern is expanded when the hook runs"
        return word

    def _dollar(self) -> tuple[str, str | None, str | None]:
        """Expand `$...` at self.i; (text, why it is dynamic or None, the PATH_PLACEHOLDERS name
        whose value it gives: `$CLAUDE_PROJECT_DIR`, or `${X:-$CLAUDE_PROJECT_DIR}` with X unset)."""
        text, n = self.text, len(self.text)
        i = self.i + 1
        if text.startswith("((", i):
            self.i = self._skip_parens(i)
            return "$((...))", "$((...)) is worked out when the hook runs", None
        if i < n and text[i] == "(":
            self.i = self._skip_parens(i)
            top = self.variables.get(GIT_TOP) if _GIT_TOP.fullmatch(text, i + 1, self.i - 1) else \
                self.variables.get("PWD") if _PWD.fullmatch(text, i + 1, self.i - 1) else None
            if top is not None:  # (the work tree's top, the folder the hook runs in: a project's folder)
                return top, None, None
            return "$(...)", "$(...) is worked out when the hook runs", None
        if i < n and text[i] == "{":
            end = self._matching_brace(i)
            inner = text[i + 1:end]
            self.i = end + 1
            match = _PARAMETER.fullmatch(inner)
            if not match:  # ${CLAUDE_PROJECT_DIR%/}, ${#X}...: still the placeholder's value, split unquoted
                name = NAME.match(inner)
                placeholder = name.group(0) if name and name.group(0) in PATH_PLACEHOLDERS else None
                return "${" + inner + "}", f"${{{inner}}} is worked out when the hook runs", placeholder
            name, op, default = match.groups()
            placeholder = name if name in PATH_PLACEHOLDERS else None
            value = self.variables.get(name)
            if value is not None:
                return value, None, placeholder
            if op is not None:
                if self.depth >= MAX_NESTING:
                    raise Unreadable("${...} defaults nested too deep")
                sub = Lexer(default, self.variables, self.home, self.depth + 1)
                try:
                    words = sub.words()
                except Unreadable:
                    return default, f"${{{name}}} is only known when the hook runs", placeholder
                return (" ".join(w.text for w in words), next((w.dynamic for w in words if w.dynamic), None),
                        placeholder or next((w.unquoted for w in words if w.unquoted), None))
            return "${" + name + "}", f"${{{name}}} is only known when the hook runs", placeholder
        match = NAME.match(text, i)
        if match:
            self.i = match.end()
            name = match.group(0)
            placeholder = name if name in PATH_PLACEHOLDERS else None
            value = self.variables.get(name)
            if value is not None:
                return value, None, placeholder
            return "$" + name, f"${name} is only known when the hook runs", placeholder
        if i < n and (text[i].isdigit() or text[i] in "@*#?$!-"):
            self.i = i + 1
            return "$" + text[i], f"${text[i]} is only known when the hook runs", None
        self.i = i
        return "$", None, None

    def _skip_parens(self, i: int) -> int:
        depth, n, text = 0, len(self.text), self.text
        quote = None
        while i < n:
            c = text[i]
            if quote:
                if c == quote:
                    quote = None
                elif c == "\\" and quote == '"':
                    i += 1
            elif c in "'\"":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    return i + 1
            i += 1
        raise Unreadable("an unterminated $(")

    def _plain_run(self, pattern: re.Pattern[str]) -> str:
        """The text up to the next character that means something (at least one character)."""
        plain = pattern.match(self.text, self.i)
        start, self.i = self.i, plain.end() if plain else self.i + 1
        return self.text[start:self.i]

    def _matching_brace(self, i: int) -> int:
        end = closing_brace(self.text, i)
        if end is None:
            raise Unreadable("an unterminated ${")
        return end

    def _backtick(self) -> None:
        end = self.text.find("`", self.i + 1)
        if end < 0:
            raise Unreadable("an unterminated `")
        self.i = end + 1


def redirect_end(text: str, start: int) -> int:
    r"""Where the redirection that starts at `start` (`>`, `2>&`, `&>>`, `<<<`...) ends, or -1:
    what `(?:\d+|&)?(?:>>|>&|<&|<<<|<>|>\||>|<)` matches there, without compiling it: with the
    blanks between words skipped by a loop, not `[ \t]+`, doctor on a typical file went from
    370.2 M to 369.4 M instructions, the corpus tree from 4,550.3 M to 4,544.7 M."""
    at, size = start, len(text)
    while at < size and text[at].isdecimal():  # (`\d`: a decimal digit of any script)
        at += 1
    if at == start and text.startswith("&", at):
        at += 1
    if text.startswith(("<", ">"), at):
        for operator in REDIRECTIONS:
            if text.startswith(operator, at):
                return at + len(operator)
    return -1


def _starts_a_command(before: list[Word]) -> bool:
    """The next word is in command position: first, or after an operator or a keyword."""
    return not before or before[-1].operator or (before[-1].text in KEYWORDS and not before[-1].quoted)


def closing_brace(text: str, start: int) -> int | None:
    """The offset of the brace that closes the one at `start` (braces nest), or None."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return None


# ---- a whole script: the tree of its commands -------------------------------------------------

HEREDOC = lazy(r"""<<-?[ \t]*(?P<q>["']?)(?P<tag>[A-Za-z_][\w.-]*)(?P=q)""", needs=("<<",))
MAX_DEPTH = 60  # compound commands and command substitutions inside each other
STOPS = frozenset({"}", "then", "do", "done", "fi", "else", "elif", "esac"})


class Command:
    """One command of a pipeline. kind: "simple", "group" `{ }`, "subshell" `( )`, "if",
    "while", "until", "for", "case", "function", "arith" `(( ))`."""

    def __init__(self, kind: str, at: int, words: list[Word] | None = None) -> None:
        self.kind = kind
        self.at = at  # offset of its first word
        self.words = words or []  # simple: every word, redirections included; function: its name; arith: inside;
        # case: its subject
        # compound: its lists in order (if: condition, then-part, [elif condition, part]..., [else part];
        # while/until: condition, body; for: body; case: one per arm; function: its body as one list)
        self.lists: list[list[AndOr]] = []
        self.conditions: set[int] = set()  # which of `lists` are tested conditions
        self.redirects: list[Word] = []  # a compound's own redirections (`done < file`, `} 3>&1`)
        self.substitutions: list[list[AndOr]] = []  # simple: what its `$( )` run, each parsed
        self.patterns: list[list[Word]] = []  # case: the patterns of each arm (`words` holds its subject)
        self.items: list[Word] = []  # for: its name, `in` and the words it goes over, as written
        self._plain: list[Word] | None = None  # (plain, worked out on the first ask)

    @property
    def head(self) -> str:
        """A simple command's first word as written (with its quotes removed), "" if none."""
        words = self.plain if self.kind != "case" else []
        return words[0].text if words else ""

    @property
    def plain(self) -> list[Word]:
        """Its words without redirections and their targets; kept from the first ask (`words` is
        whole once the parser has built the command: the status model asks each command's words
        and head some 17 times, a tenth of doctor's CPU on a long shell script)."""
        if self._plain is None:
            out, skip = [], False
            for word in self.words:
                if skip:
                    skip = False
                elif word.redirect:
                    skip = True
                else:
                    out.append(word)
            self._plain = out
        return self._plain

    @property
    def redirections(self) -> list[tuple[str, str]]:
        """(operator, target) of every redirection, its own and a compound's."""
        words = self.words + self.redirects
        return [(w.text, words[i + 1].text if i + 1 < len(words) else "") for i, w in enumerate(words) if w.redirect]


class Pipeline:
    def __init__(self, commands: list[Command], negated: bool, at: int) -> None:
        self.commands = commands
        self.negated = negated  # `! a`: its status inverted (and never fatal under set -e)
        self.at = at


class AndOr:
    """`a && b || c`, one statement of a list; `background`: ended by `&`."""

    def __init__(self, pipelines: list[Pipeline], operators: list[str], at: int) -> None:
        self.pipelines = pipelines
        self.operators = operators  # "&&" / "||" between them
        self.background = False
        self.at = at
        self.end = at  # offset just past its last word


def parse(code: str) -> list[AndOr]:
    """The script's top-level list. Raises Unreadable."""
    return _Parser(_blank_heredocs(code), 0, 0).script()


def parsed_once(code: str) -> Callable[[], list[AndOr] | None]:
    """The script's tree, parsed on the first ask and kept (None where it cannot be read), so
    that the readers of one script (its exit status, its quoted values) share one parse."""
    kept: list[list[AndOr] | None] = []

    def tree() -> list[AndOr] | None:
        if not kept:
            try:
                kept.append(parse(code))
            except (Unreadable, RecursionError):
                kept.append(None)
        return kept[0]

    return tree


def _blank_heredocs(code: str) -> str:
    """`<<TAG` turned into a redirection from a file (same length) and the body's lines blanked,
    so that offsets and line numbers stay those of the script."""
    if "<<" not in code:
        return code
    lines = code.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        tags = [m for m in HEREDOC.finditer(line) if line[m.start():m.start() + 3] != "<<<"]
        for m in reversed(tags):
            line = line[:m.start()] + "< " + line[m.start() + 2:]
        out.append(line)
        i += 1
        for m in tags:
            strip = line[m.start():].startswith("< -")
            while i < len(lines):
                body = lines[i]
                out.append(" " * len(body))
                i += 1
                if (body.lstrip("\t") if strip else body) == m.group("tag"):
                    break
    return "\n".join(out)


class _Parser:
    def __init__(self, text: str, base: int, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise Unreadable("shell constructs nested too deep")
        self.text = text
        self.base = base  # offset of `text` in the script
        self.depth = depth
        self.words = Lexer(text, {}, None).words()
        self.i = 0

    # ---- tokens
    def _peek(self) -> Word | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def _is(self, word: Word | None, *texts: str, operator: bool | None = None) -> bool:
        if word is None or word.text not in texts or word.quoted:
            return False
        return operator is None or word.operator == operator

    def _keyword(self, *texts: str) -> bool:
        word = self._peek()
        return word is not None and not word.operator and self._is(word, *texts)

    def _take(self, *texts: str) -> Word:
        word = self._peek()
        if word is None or not self._is(word, *texts):
            raise Unreadable(f"expected {texts[0]}")
        self.i += 1
        return word

    def _at(self, word: Word | None) -> int:
        return self.base + (word.at if word is not None and word.at >= 0 else len(self.text))

    def _skip_newlines(self) -> None:
        while self._is(self._peek(), "\n", operator=True):
            self.i += 1

    # ---- grammar
    def script(self) -> list[AndOr]:
        found = self.list_(frozenset())
        if self._peek() is not None:
            raise Unreadable(f"unexpected {self.words[self.i].text}")
        return found

    def list_(self, stops: frozenset[str]) -> list[AndOr]:
        out: list[AndOr] = []
        while True:
            while self._is(self._peek(), "\n", ";", operator=True):
                self.i += 1
            word = self._peek()
            if word is None or (word.operator and word.text in (")", ";;")) or (
                    not word.operator and self._is(word, *(stops | STOPS))):
                return out
            statement = self.and_or()
            out.append(statement)
            if self._is(self._peek(), "&", operator=True):
                statement.background = True
                self.i += 1

    def and_or(self) -> AndOr:
        first = self._peek()
        pipelines, operators = [self.pipeline()], []
        while self._is(self._peek(), "&&", "||", operator=True):
            operators.append(self.words[self.i].text)
            self.i += 1
            self._skip_newlines()
            pipelines.append(self.pipeline())
        statement = AndOr(pipelines, operators, self._at(first))
        last = self.words[self.i - 1] if self.i else None
        statement.end = self._at(last) + len(last.text) if last is not None else statement.at
        return statement

    def pipeline(self) -> Pipeline:
        first = self._peek()
        negated = self._keyword("!")
        if negated:
            self.i += 1
        commands = [self.command()]
        while self._is(self._peek(), "|", "|&", operator=True):
            self.i += 1
            self._skip_newlines()
            commands.append(self.command())
        return Pipeline(commands, negated, self._at(first))

    def command(self) -> Command:
        word = self._peek()
        if word is None:
            raise Unreadable("a command is missing")
        at = self._at(word)
        if word.operator and word.text == "(":
            following = self.words[self.i + 1] if self.i + 1 < len(self.words) else None
            if following is not None and self._is(following, "(", operator=True) and following.at == word.at + 1:
                return self._redirected(self._arith(at))
            self.i += 1
            command = Command("subshell", at)
            command.lists.append(self.list_(frozenset()))
            self._take(")")
            return self._redirected(command)
        if word.operator:
            raise Unreadable(f"unexpected {word.text}")
        if not word.quoted:
            text = word.text
            if text == "{":
                self.i += 1
                return self._redirected(self._up_to(Command("group", at), "}"))
            if text == "if":
                return self._redirected(self._if(at))
            if text in ("while", "until"):
                self.i += 1
                command = self._up_to(Command(text, at), "do")
                command.conditions.add(0)
                return self._redirected(self._up_to(command, "done"))
            if text in ("for", "select"):
                return self._redirected(self._for(at))
            if text == "case":
                return self._redirected(self._case(at))
            if text == "function":
                self.i += 1
                name = self._peek()
                if name is None or name.operator:
                    raise Unreadable("a function without a name")
                self.i += 1
                if self._is(self._peek(), "(", operator=True):
                    self.i += 1
                    self._take(")")
                return self._function(name, at)
            following = self.words[self.i + 1] if self.i + 1 < len(self.words) else None
            after = self.words[self.i + 2] if self.i + 2 < len(self.words) else None
            if self._is(following, "(", operator=True) and self._is(after, ")", operator=True):
                self.i += 3
                return self._function(word, at)
        return self._simple(at)

    def _simple(self, at: int) -> Command:
        words: list[Word] = []
        processes: list[list[AndOr]] = []
        while True:
            word = self._peek()
            if word is None or word.operator:
                break
            words.append(word)
            self.i += 1
            if word.redirect and word.text in ("<", ">"):
                processes.extend(self._process_substitution())
        command = Command("simple", at, words)
        command.substitutions.extend(processes)
        for word in words:
            if "$(" in word.text or "`" in word.text:
                command.substitutions.extend(self._substitutions(word))
        return command

    def _substitutions(self, word: Word) -> Iterator[list[AndOr]]:
        """The lists a word's `$( )` run (not `$(( ))`), each read on its own."""
        start = word.at
        end = self._word_end()
        lexer = Lexer(self.text, {}, None)
        i = self.text.find("$(", start, end)
        while 0 <= i < end:
            if self.text.startswith("$((", i):
                i = self.text.find("$(", i + 3, end)
                continue
            close = lexer._skip_parens(i + 1)
            inner = self.text[i + 2:close - 1]
            yield _Parser(inner, self.base + i + 2, self.depth + 1).script()
            i = self.text.find("$(", close, end)

    def _word_end(self) -> int:
        following = self._peek()
        return following.at if following is not None and following.at >= 0 else len(self.text)

    def _redirected(self, command: Command) -> Command:
        while True:
            word = self._peek()
            if word is None or not word.redirect:
                return command
            command.redirects.append(word)
            self.i += 1
            target = self._peek()
            if word.text in ("<", ">") and self._is(target, "(", operator=True):
                command.substitutions.extend(self._process_substitution())
            elif target is not None and not target.operator and not target.redirect:
                command.redirects.append(target)
                self.i += 1

    def _process_substitution(self) -> Iterator[list[AndOr]]:
        """`<( ... )` or `>( ... )` right after the `<` or `>` just read: the list it runs."""
        word = self._peek()
        before = self.words[self.i - 1]
        if word is not None and self._is(word, "(", operator=True) and word.at == before.at + 1:
            self.i += 1
            yield self.list_(frozenset())
            self._take(")")

    def _arith(self, at: int) -> Command:
        self.i += 2
        depth, words = 2, []
        while depth > 0:
            word = self._peek()
            if word is None:
                raise Unreadable("an unterminated ((")
            if word.operator and word.text == "(":
                depth += 1
            elif word.operator and word.text == ")":
                depth -= 1
            if depth > 1 or not (word.operator and word.text == ")"):
                words.append(word)
            self.i += 1
        return Command("arith", at, words)

    def _up_to(self, command: Command, word: str) -> Command:
        """The command with the list up to `word` (a reserved word) added, the word read."""
        command.lists.append(self.list_(frozenset({word})))
        self._take(word)
        return command

    def _if(self, at: int) -> Command:
        command = Command("if", at)
        self._take("if")
        while True:
            command.conditions.add(len(command.lists))
            command.lists.append(self.list_(frozenset({"then"})))
            self._take("then")
            command.lists.append(self.list_(frozenset({"elif", "else", "fi"})))
            word = self._take("elif", "else", "fi")
            if word.text == "fi":
                return command
            if word.text == "else":
                return self._up_to(command, "fi")

    def _for(self, at: int) -> Command:
        command = Command("for", at)
        self.i += 1
        while True:  # the name and its words (or `(( ; ; ))`), up to `do` in command position
            word = self._peek()
            if word is None:
                raise Unreadable("a for loop without do")
            self.i += 1
            if not word.operator:
                command.items.append(word)
            if word.operator and word.text in (";", "\n"):
                self._skip_newlines()
                if self._keyword("do"):
                    break
            elif self._keyword("do") and word.operator and word.text == ")":
                break
        self._take("do")
        return self._up_to(command, "done")

    def _case(self, at: int) -> Command:
        command = Command("case", at)
        self.i += 1
        subject = self._peek()
        if subject is None:
            raise Unreadable("a case without a word")
        command.words.append(subject)
        self.i += 1
        self._skip_newlines()
        self._take("in")
        while True:
            self._skip_newlines()
            if self._keyword("esac"):
                self.i += 1
                return command
            if self._is(self._peek(), "(", operator=True):
                self.i += 1
            patterns: list[Word] = []
            while not self._is(self._peek(), ")", operator=True):  # the patterns
                word = self._peek()
                if word is None:
                    raise Unreadable("a case pattern without )")
                if not (word.operator and word.text == "|"):
                    patterns.append(word)
                self.i += 1
            command.patterns.append(patterns)
            self.i += 1
            command.lists.append(self.list_(frozenset({"esac"})))
            if self._is(self._peek(), ";;", operator=True):
                self.i += 1
                if self._is(self._peek(), "&", operator=True):  # ;;& (bash)
                    self.i += 1
            elif self._is(self._peek(), ";", operator=True):
                self.i += 1
                if self._is(self._peek(), "&", operator=True):  # ;& (bash)
                    self.i += 1

    def _function(self, name: Word, at: int) -> Command:
        self._skip_newlines()
        body = self.command()
        command = Command("function", at, [name])
        command.lists.append([AndOr([Pipeline([body], False, body.at)], [], body.at)])
        return command


def commands(statements: list[AndOr]) -> Iterator[Command]:
    """Every command of the list, compound commands' lists and command substitutions included,
    in the order they are written."""
    for statement in statements:
        for pipeline in statement.pipelines:
            for command in pipeline.commands:
                yield command
                for inner in command.lists:
                    yield from commands(inner)
                for inner in command.substitutions:
                    yield from commands(inner)


# ---- where each command's output goes, and who reads the hook's stdin --------------------------------

HOST_STDOUT, HOST_STDERR = "the host's stdout", "the host's stderr"
HANDS_ON = frozenset({"tee", "cat", "jq"})  # a pipe's reader that writes what it reads on to its own stdout


class Streams(Record):
    """Where one simple command's output ends up: HOST_STDOUT, HOST_STDERR, or what takes it
    instead (`> /tmp/audit.log`, `| logger`)."""

    command: Command
    stdout: str
    stderr: str


@lru_cache(maxsize=4096)
def streams(command: str) -> tuple[Streams, ...]:
    """Every simple command of a shell-form command line with where its output goes (keyed on
    the text, which is all it reads: a monorepo whose projects share their hooks parses each once;
    what the reader cannot parse gives nothing)."""
    try:
        tree = parse(command)
    except (Unreadable, RecursionError):
        return ()
    return tuple(_walk(tree, {1: HOST_STDOUT, 2: HOST_STDERR}))


def _walk(statements: list[AndOr], fds: dict[int, str]) -> Iterator[Streams]:
    for statement in statements:
        for pipeline in statement.pipelines:
            after = fds[1]  # where the last part's stdout goes; each part before writes into the pipe
            outs: list[str] = []
            for command in reversed(pipeline.commands):
                outs.append(after)
                after = _piped_into(command, after)
            for command, out in zip(pipeline.commands, reversed(outs)):
                own = _redirected(command, {1: out, 2: fds[2]})
                if command.kind == "simple":
                    if command.head == "exec" and len(command.plain) == 1:
                        fds.update(own)  # (`exec 2>/dev/null`: for the rest of the command)
                    yield Streams(command, own[1], own[2])
                for listed in command.lists:
                    yield from _walk(listed, dict(own))


def _piped_into(command: Command, after: str) -> str:
    """Where text written into a pipe that `command` reads goes."""
    if command.kind == "simple" and command.head in HANDS_ON:
        return _redirected(command, {1: after, 2: after})[1]
    return f"`| {command.head or command.kind}`"


def _redirected(command: Command, fds: dict[int, str]) -> dict[int, str]:
    """The command's stdout and stderr after its own redirections, in the order written."""
    fds = dict(fds)
    for operator, target in command.redirections:
        number = operator.rstrip("<>|&")
        fd = int(number) if number.isdigit() else 1
        if "<" in operator or fd not in (1, 2):
            continue
        where = "/dev/null (dropped)" if target == "/dev/null" else f"`{operator}{target}`"
        if operator.endswith("&") and target.isdigit():
            where = fds.get(int(target), where)
        if operator.startswith("&"):  # `&>file`, `&>>file`: both
            fds[1] = fds[2] = where
        else:
            fds[fd] = where
    return fds


@lru_cache(maxsize=4096)
def stdin_takers(command: str) -> tuple[Command, ...]:
    """The simple commands of a command line (or a script) that read the hook's own stdin, in the
    order they run: each that is not a later part of a pipe, and neither it nor a compound around
    it takes its stdin from elsewhere (`<`, `<<<`, a heredoc). Whoever of them reads the input to
    its end leaves the next nothing (dash 0.5.12 and bash 5.2: `a.sh && b.sh` both reading stdin,
    the second reads EOF)."""
    try:
        tree = parse(command)
    except (Unreadable, RecursionError):
        return ()
    return tuple(_takers(tree))


def _takers(statements: list[AndOr]) -> Iterator[Command]:
    for statement in statements:
        if statement.background:
            continue  # (a background job's stdin is /dev/null in a script without job control)
        for pipeline in statement.pipelines:
            first = pipeline.commands[0] if pipeline.commands else None
            if first is None or any("<" in operator for operator, _ in first.redirections):
                continue
            if first.kind == "simple":
                yield first
            elif first.kind in ("group", "subshell", "if", "case"):
                for listed in first.lists:
                    yield from _takers(listed)
