"""bash's grammar and how a command is followed through it, for git-guard's shell reader.

shell_reader.Reader loads this module for any text that is not a plain command. `parse(text)`
reads bash's grammar into nodes (words keep their quoting as parts); `Follower.commands(text)`
follows the nodes as bash would run them, yielding each simple command as a shell_reader.Run
and noting what it cannot follow (see shell_reader.py). Stdlib only, Python >= 3.8.
"""
import os

from shell_reader import (
    INTERPRETERS,
    MAX_DEPTH,
    MAX_LOOP,
    MAX_SCRIPT,
    MAX_STEPS,
    MAX_TEXT,
    MAX_VALUES,
    MAX_VARIANTS,
    RUNS_STRING,
    SHELLS,
    WRAPPERS,
    Run,
    Unknown,
    add_note,
    program_name,
    quote,
    split_words,
)

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, Union

    Piece = tuple[str, bool, bool, bool, bool]  # (text, split on IFS, known, brace-expands, starts a field)
    Part = tuple[Any, ...]  # ("s"|"q", text) | ("p", name, op, operand, quoted) | ("c", node, quoted) | ...
    Word = list[Part]
    Node = tuple[Any, ...]
    Value = Union[str, list[str], None]  # a string, an array, None: not known

METACHARS = " \t\n;&|()<>"
OPERATORS = (";;&", "&>>", "<<<", "<<-", ";;", ";&", "&&", "||", "|&", "&>", ">>", ">|", ">&", "<<", "<&", "<>",
             ";", "&", "|", "(", ")", "<", ">")
REDIRECTS = frozenset(("&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<<", "<&", "<>", "<", ">"))
LIST_ENDS = frozenset((";;", ";&", ";;&", ")"))
RESERVED = frozenset(("if", "then", "elif", "else", "fi", "do", "done", "while", "until", "for", "in", "case",
                      "esac", "function", "select", "{", "}", "!", "time", "[[", "coproc"))
CLOSERS = frozenset(("then", "elif", "else", "fi", "do", "done", "esac", "}", "in"))
DECLARE = frozenset(("export", "declare", "typeset", "local", "readonly"))
NO_OUTPUT = frozenset(("true", "false", ":", "cd", "export", "unset", "set", "shift", "alias", "declare", "local",
                       "typeset", "readonly", "mkdir", "touch", "rm", "cp", "mv"))
KNOWN_ENV = ("HOME", "USER", "LOGNAME", "PATH", "SHELL", "TMPDIR", "LANG")  # taken from the hook's own environment
ANSI_C = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
          "\\": "\\", "'": "'", '"': '"', "?": "?"}


class ShellSyntaxError(Exception):
    """The text is not shell this reader understands (bash itself may refuse it too)."""


# ---- parsing: text -> nodes ---------------------------------------------------------------------

class Parser(object):
    """bash's grammar, read straight from the text (words keep their quoting as parts)."""

    def __init__(self, text: str, start: int = 0) -> None:
        self.text = text
        self.i = start
        self.heredocs: "list[tuple[list[Any], str, bool, bool]]" = []  # (node to fill, delimiter, strip tabs, quoted)
        self.peeked: "tuple[str, Any] | None" = None

    # -- tokens

    def skip_blanks(self) -> None:
        t = self.text
        while self.i < len(t):
            c = t[self.i]
            if c in " \t\r":
                self.i += 1
            elif c == "\\" and t.startswith("\\\n", self.i):
                self.i += 2
            elif c == "#":
                end = t.find("\n", self.i)
                self.i = len(t) if end < 0 else end
            else:
                return

    def peek(self) -> "tuple[str, Any]":
        if self.peeked is None:
            self.peeked = self.scan()
        return self.peeked

    def take(self) -> "tuple[str, Any]":
        token = self.peek()
        self.peeked = None
        return token

    def scan(self) -> "tuple[str, Any]":
        """The next token: ("op", text), ("w", word parts), ("fd", digits) before a redirection, ("eof", None)."""
        self.skip_blanks()
        t = self.text
        if self.i >= len(t):
            return ("eof", None)
        c = t[self.i]
        if c == "\n":
            self.i += 1
            self.read_heredocs()
            return ("op", "\n")
        if c in "<>" and t.startswith("(", self.i + 1):
            return ("w", self.word())
        if c in ";&|()<>":
            op = next(o for o in OPERATORS if t.startswith(o, self.i))
            self.i += len(op)
            return ("op", op)
        start = self.i
        while self.i < len(t) and t[self.i].isdigit():
            self.i += 1
        if self.i > start and self.i < len(t) and t[self.i] in "<>" and not t.startswith("(", self.i + 1):
            return ("fd", t[start:self.i])
        self.i = start
        return ("w", self.word())

    def word(self) -> "Word":
        """One word, as parts: quoted and unquoted text, expansions, substitutions."""
        t = self.text
        parts: "Word" = []
        while self.i < len(t):
            c = t[self.i]
            if c in METACHARS:
                if c in "<>" and t.startswith("(", self.i + 1):
                    node = self.nested(self.i + 2)
                    parts.append(("ps", node))
                    continue
                if c == "(" and parts and self.assignment_open(parts):
                    parts.append(("arr", self.array()))
                    continue
                break
            if c == "\\":
                if t.startswith("\n", self.i + 1):
                    self.i += 2
                else:
                    parts.append(("q", t[self.i + 1:self.i + 2]))
                    self.i += 2
            elif c in "'\"$`":
                self.quoting(parts)
            else:
                start = self.i
                while self.i < len(t) and t[self.i] not in METACHARS and t[self.i] not in "\\'\"$`":
                    self.i += 1
                parts.append(("s", t[start:self.i]))
        return parts

    def quoting(self, parts: "Word") -> None:
        """The quoted text or expansion at self.i (a ', ", $ or `), added to `parts`."""
        t, c = self.text, self.text[self.i]
        if c == "'":
            end = t.find("'", self.i + 1)
            if end < 0:
                raise ShellSyntaxError("unbalanced single quote")
            parts.append(("q", t[self.i + 1:end]))
            self.i = end + 1
        elif c == '"':
            self.i += 1
            parts.extend(self.double_quoted())
        elif c == "$":
            parts.append(self.dollar(quoted=False))
        else:
            parts.append(("c", self.backtick(), False))

    @staticmethod
    def assignment_open(parts: "Word") -> bool:
        """Is the word so far `name=` (or `name+=`), so that `(` opens an array?"""
        if len(parts) != 1 or parts[0][0] != "s" or not parts[0][1].endswith("="):
            return False
        name = str(parts[0][1])[:-1].rstrip("+")
        return name.isidentifier()

    def array(self) -> "list[Word]":
        """The words of `name=( ... )`."""
        self.i += 1
        items: "list[Word]" = []
        while True:
            self.skip_blanks()
            while self.text.startswith("\n", self.i):
                self.i += 1
                self.skip_blanks()
            if self.i >= len(self.text):
                raise ShellSyntaxError("unbalanced ( in an array")
            if self.text[self.i] == ")":
                self.i += 1
                return items
            items.append(self.word())
            if not items[-1]:
                raise ShellSyntaxError("unexpected %r in an array" % self.text[self.i])

    def double_quoted(self) -> "Word":
        """The parts of "..." after its opening quote; self.i ends after the closing one."""
        return self.expanding('$`"\\\n', '"')

    def expanding(self, escaped: str, closing: "str | None") -> "Word":
        """Text where `$` and backticks expand and `\\` escapes only the characters `escaped`,
        up to `closing` (the end of the text when None): a "..." string, a here-document's body."""
        t = self.text
        parts: "Word" = []
        buf: "list[str]" = []
        while True:
            if self.i >= len(t):
                if closing:
                    raise ShellSyntaxError("unbalanced double quote")
                break
            c = t[self.i]
            if c == closing:
                self.i += 1
                break
            if c == "\\" and t[self.i + 1:self.i + 2] and t[self.i + 1] in escaped:
                buf.append(t[self.i + 1] if t[self.i + 1] != "\n" else "")
                self.i += 2
            elif c == "$" and (t[self.i + 1:self.i + 2] in ("(", "{") or _name_start(t, self.i + 1)):
                parts.append(("q", "".join(buf)))
                buf = []
                parts.append(self.dollar(quoted=True))
            elif c == "`":
                parts.append(("q", "".join(buf)))
                buf = []
                parts.append(("c", self.backtick(), True))
            else:
                buf.append(c)
                self.i += 1
        parts.append(("q", "".join(buf)))
        return parts

    def dollar(self, quoted: bool) -> "Part":
        """`$...` at self.i: a parameter, `${...}`, `$(...)`, `$((...))`, `$'...'`, `$"..."`."""
        t = self.text
        nxt = t[self.i + 1:self.i + 2]
        if nxt == "(" and t.startswith("((", self.i + 1):
            end = _arith_end(t, self.i + 3)
            if end >= 0:
                text = t[self.i + 3:end]
                self.i = end + 2
                return ("a", text, quoted)
        if nxt == "(":
            return ("c", self.nested(self.i + 2), quoted)
        if nxt == "{":
            return self.braced(quoted)
        if nxt == "'" and not quoted:
            return ("q", self.ansi_c())
        if nxt == '"' and not quoted:
            self.i += 2
            inner = self.double_quoted()
            return ("cat", inner)
        if nxt and (nxt in "@*#?$!-0123456789"):
            self.i += 2
            return ("p", nxt, None, None, quoted)
        if _name_start(t, self.i + 1):
            start = self.i + 1
            end = start
            while end < len(t) and (t[end].isalnum() or t[end] == "_"):
                end += 1
            self.i = end
            return ("p", t[start:end], None, None, quoted)
        self.i += 1
        return ("q" if quoted else "s", "$")

    def ansi_c(self) -> str:
        """The text of `$'...'`, its escapes decoded."""
        t = self.text
        i = self.i + 2
        out: "list[str]" = []
        while i < len(t) and t[i] != "'":
            c = t[i]
            if c != "\\" or i + 1 >= len(t):
                out.append(c)
                i += 1
                continue
            e = t[i + 1]
            i += 2
            if e in ANSI_C:
                out.append(ANSI_C[e])
            elif e in "xuU":
                size = {"x": 2, "u": 4, "U": 8}[e]
                digits = ""
                while len(digits) < size and i < len(t) and t[i] in "0123456789abcdefABCDEF":
                    digits += t[i]
                    i += 1
                out.append(chr(int(digits, 16)) if digits and int(digits, 16) < 0x110000 else "\\" + e)
            elif e in "01234567":
                digits = e
                while len(digits) < 3 and i < len(t) and t[i] in "01234567":
                    digits += t[i]
                    i += 1
                out.append(chr(int(digits, 8) & 0xFF))
            elif e == "c" and i < len(t):
                out.append(chr(ord(t[i]) & 0x1F))
                i += 1
            else:
                out.append("\\" + e)
        if i >= len(t):
            raise ShellSyntaxError("unbalanced $'")
        self.i = i + 1
        return "".join(out)

    def braced(self, quoted: bool) -> "Part":
        """`${...}`: the parameter, the operator and its operand (itself a word)."""
        t = self.text
        start = self.i + 2
        end = _brace_end(t, start)
        if end < 0:
            raise ShellSyntaxError("unbalanced ${")
        self.i = end + 1
        body = t[start:end]
        if body.startswith("#") and len(body) > 1 and (body[1:2].isalpha() or body[1:2] in "_@*" or
                                                       body[1:].split("[")[0].isdigit()):
            return ("p", body[1:].split("[")[0], "len", body[1:], quoted)
        indirect = body.startswith("!") and len(body) > 1
        if indirect:
            body = body[1:]
        j = 0
        if body[:1] and body[0] in "@*#?$!-0123456789":
            j = 1
            while body[:1].isdigit() and j < len(body) and body[j].isdigit():
                j += 1
        else:
            while j < len(body) and (body[j].isalnum() or body[j] == "_"):
                j += 1
        name = body[:j]
        index = None
        if body[j:j + 1] == "[":
            close = body.find("]", j)
            if close < 0:
                raise ShellSyntaxError("unbalanced [ in ${")
            index = body[j + 1:close]
            j = close + 1
        rest = body[j:]
        if not name:
            raise ShellSyntaxError("bad substitution ${%s}" % body)
        op = None
        operand: "Word | None" = None
        for candidate in (":-", ":=", ":+", ":?", "##", "%%", "//", "/#", "/%", "^^", ",,", "-", "=", "+", "?", "#",
                          "%", "/", "^", ",", "@", ":"):
            if rest.startswith(candidate):
                op = candidate
                operand = Parser(rest[len(candidate):]).operand()
                break
        if rest and op is None:
            raise ShellSyntaxError("bad substitution ${%s}" % body)
        if indirect:
            op = "!" + (op or "")
        return ("p", name, op, operand, quoted, index)

    def operand(self) -> "Word":
        """The operand of `${x:-...}`: text with quotes, escapes and expansions, blanks kept."""
        t = self.text
        parts: "Word" = []
        while self.i < len(t):
            c = t[self.i]
            if c == "\\":
                parts.append(("q", t[self.i + 1:self.i + 2]))
                self.i += 2
            elif c in "'\"$`":
                self.quoting(parts)
            else:
                parts.append(("s", c))
                self.i += 1
        return parts

    def nested(self, start: int) -> "Node":
        """The commands of `$( ... )` or `<( ... )` from `start`; self.i ends after the `)`."""
        inner = Parser(self.text, start)
        node = inner.list_until(")")
        if inner.take() != ("op", ")"):
            raise ShellSyntaxError("unbalanced $(")
        self.i = inner.i
        return node

    def backtick(self) -> "Node":
        t = self.text
        i = self.i + 1
        body: "list[str]" = []
        while i < len(t) and t[i] != "`":
            if t[i] == "\\" and t[i + 1:i + 2] in ("$", "`", "\\"):
                i += 1
            body.append(t[i:i + 1])
            i += 1
        if i >= len(t):
            raise ShellSyntaxError("unbalanced backtick")
        self.i = i + 1
        return parse("".join(body))

    def read_heredocs(self) -> None:
        """Fill in the bodies of the here-documents started on the line that just ended."""
        t = self.text
        for node, delimiter, strip_tabs, quoted in self.heredocs:
            lines: "list[str]" = []
            while self.i < len(t):
                end = t.find("\n", self.i)
                line = t[self.i:] if end < 0 else t[self.i:end]
                self.i = len(t) if end < 0 else end + 1
                if strip_tabs:
                    line = line.lstrip("\t")
                if line == delimiter:
                    break
                lines.append(line)
            body = "".join(line + "\n" for line in lines)
            node.append(("q", body) if quoted else ("cat", Parser(body).expanding("$`\\\n", None)))
        self.heredocs = []

    # -- grammar

    def list_until(self, *ends: str) -> "Node":
        """Commands up to (not including) one of `ends` (reserved words or operators) or the end."""
        items: "list[Node]" = []
        while True:
            kind, value = self.peek()
            if kind == "eof":
                break
            if kind == "op" and value in ("\n", ";", "&"):
                self.take()
                continue
            if kind == "op" and (value in ends or value in LIST_ENDS):
                break
            if kind == "w" and _literal(value) in ends:
                break
            items.append(self.and_or())
        return ("list", items)

    def and_or(self) -> "Node":
        parts = [("", self.pipeline())]
        while self.peek() in (("op", "&&"), ("op", "||")):
            op = self.take()[1]
            while self.peek() == ("op", "\n"):
                self.take()
            parts.append((op, self.pipeline()))
        return ("and_or", parts)

    def pipeline(self) -> "Node":
        stages = []
        while self.peek()[0] == "w" and _literal(self.peek()[1]) in ("!", "time"):
            self.take()
        while True:
            stages.append(self.command())
            if self.peek() in (("op", "|"), ("op", "|&")):
                self.take()
                while self.peek() == ("op", "\n"):
                    self.take()
                continue
            return ("pipeline", stages)

    def command(self) -> "Node":
        kind, value = self.peek()
        word = _literal(value) if kind == "w" else None
        if kind == "op" and value == "(":
            self.take()
            if self.text.startswith("(", self.i) and _arith_end(self.text, self.i + 1) >= 0:  # (( arithmetic ))
                return self.arith_command()
            body = self.list_until(")")
            self.expect(")")
            return ("subshell", body, self.redirects())
        if word == "{":
            self.take()
            body = self.list_until("}")
            self.expect_word("}")
            return ("group", body, self.redirects())
        if word in ("if", "while", "until", "for", "select", "case", "function", "[[", "coproc"):
            self.take()
            return COMPOUNDS[word](self)
        if kind == "op" and value not in REDIRECTS:
            raise ShellSyntaxError("unexpected %r" % value)
        return self.simple()

    def arith_command(self) -> "Node":
        """`(( ... ))`: only its substitutions run."""
        self.i += 1
        end = _arith_end(self.text, self.i)
        if end < 0:
            raise ShellSyntaxError("unbalanced ((")
        text = self.text[self.i:end]
        self.i = end + 2
        self.peeked = None
        return ("words", [[("a", text, False)]], self.redirects())

    def compound_cond(self) -> "Node":
        """`[[ ... ]]`: its words are expanded (their substitutions run), nothing else."""
        words = []
        while True:
            kind, value = self.take()
            if kind == "eof":
                raise ShellSyntaxError("unbalanced [[")
            if kind == "w":
                if _literal(value) == "]]":
                    break
                words.append(value)
        return ("words", words, self.redirects())

    def compound_coproc(self) -> "Node":
        return self.command()

    def compound_if(self) -> "Node":
        branches = []
        condition = self.list_until("then")
        self.expect_word("then")
        branches.append(("cond", condition))
        branches.append(("body", self.list_until("elif", "else", "fi")))
        while True:
            word = _literal(self.take()[1])
            if word == "elif":
                condition = self.list_until("then")
                self.expect_word("then")
                branches.append(("cond", condition))
                branches.append(("body", self.list_until("elif", "else", "fi")))
            elif word == "else":
                branches.append(("body", self.list_until("fi")))
            elif word == "fi":
                return ("if", branches, self.redirects())
            else:
                raise ShellSyntaxError("if without fi")

    def compound_while(self) -> "Node":
        condition = self.list_until("do")
        self.expect_word("do")
        body = self.list_until("done")
        self.expect_word("done")
        return ("while", condition, body, self.redirects())

    def compound_for(self) -> "Node":
        if self.peek() == ("op", "("):  # for (( ...; ...; ... ))
            self.take()
            if self.take() != ("op", "("):
                raise ShellSyntaxError("bad for ((")
            end = _arith_end(self.text, self.i)
            if end < 0:
                raise ShellSyntaxError("unbalanced for ((")
            self.i = end + 2
            self.peeked = None
            name, words = "", None
        else:
            kind, value = self.take()
            name = (_literal(value) or "") if kind == "w" else ""
            if not name.isidentifier():
                raise ShellSyntaxError("bad for variable")
            words = None
            while self.peek() == ("op", "\n"):
                self.take()
            if self.peek()[0] == "w" and _literal(self.peek()[1]) == "in":
                self.take()
                words = []
                while self.peek()[0] == "w":
                    words.append(self.take()[1])
        while self.peek() in (("op", ";"), ("op", "\n")):
            self.take()
        opener = _literal(self.take()[1])
        if opener not in ("do", "{"):
            raise ShellSyntaxError("for without do")
        body = self.list_until("done" if opener == "do" else "}")
        self.take()
        return ("for", name, words, body, self.redirects())

    def compound_case(self) -> "Node":
        kind, subject = self.take()
        if kind != "w":
            raise ShellSyntaxError("bad case")
        while self.peek() == ("op", "\n"):
            self.take()
        if _literal(self.take()[1]) != "in":
            raise ShellSyntaxError("case without in")
        branches: "list[Node]" = []
        while True:
            while self.peek() in (("op", "\n"), ("op", ";")):
                self.take()
            kind, value = self.peek()
            if kind == "w" and _literal(value) == "esac":
                self.take()
                return ("case", subject, branches, self.redirects())
            if kind == "eof":
                raise ShellSyntaxError("case without esac")
            if self.peek() == ("op", "("):
                self.take()
            while True:  # the patterns: words joined by |, then )
                kind, value = self.take()
                if kind == "op" and value == ")":
                    break
                if kind == "eof":
                    raise ShellSyntaxError("bad case pattern")
            branches.append(self.list_until("esac"))
            if self.peek()[0] == "op" and self.peek()[1] in (";;", ";&", ";;&"):
                self.take()

    def compound_function(self) -> "Node":
        kind, value = self.take()
        name = _literal(value) if kind == "w" else None
        if not name:
            raise ShellSyntaxError("bad function name")
        if self.peek() == ("op", "("):
            self.take()
            self.expect(")")
        return self.function_body(name)

    def function_body(self, name: str) -> "Node":
        while self.peek() == ("op", "\n"):
            self.take()
        return ("function", name, self.command())

    def expect(self, op: str) -> None:
        if self.take() != ("op", op):
            raise ShellSyntaxError("expected %r" % op)

    def expect_word(self, word: str) -> None:
        kind, value = self.take()
        if kind != "w" or _literal(value) != word:
            raise ShellSyntaxError("expected %r" % word)

    def redirects(self) -> "list[Node]":
        found: "list[Node]" = []
        while True:
            kind, value = self.peek()
            if kind == "fd":
                self.take()
                kind, value = self.peek()
                if kind != "op" or value not in REDIRECTS:
                    raise ShellSyntaxError("a file descriptor without a redirection")
            if kind != "op" or value not in REDIRECTS:
                return found
            self.take()
            kind, target = self.take()
            if kind != "w":
                raise ShellSyntaxError("redirection without a target")
            if value in ("<<", "<<-"):
                body: "list[Any]" = []
                quoted = any(part[0] != "s" for part in target)
                self.heredocs.append((body, _text_of(target), value == "<<-", quoted))
                found.append(("<<", body))
            else:
                found.append((value, target))

    def simple(self) -> "Node":
        words: "list[Word]" = []
        redirects: "list[Node]" = []
        while True:
            kind, value = self.peek()
            if kind == "w":
                if not words and _literal(value) in CLOSERS:
                    raise ShellSyntaxError("unexpected %r" % _literal(value))
                self.take()
                if len(words) == 0 and self.peek() == ("op", "(") and _literal(value) and \
                        _literal(value) not in RESERVED:  # name () { ...; }
                    self.take()
                    self.expect(")")
                    return self.function_body(_literal(value) or "")
                words.append(value)
            elif kind == "fd" or (kind == "op" and value in REDIRECTS):
                redirects += self.redirects()
            else:
                break
        if not words and not redirects:
            raise ShellSyntaxError("expected a command, found %r" % (value,))
        return ("simple", words, redirects)


COMPOUNDS = {"if": Parser.compound_if, "while": Parser.compound_while, "until": Parser.compound_while,
             "for": Parser.compound_for, "select": Parser.compound_for, "case": Parser.compound_case,
             "function": Parser.compound_function, "[[": Parser.compound_cond, "coproc": Parser.compound_coproc}


def parse(text: str) -> "Node":
    parser = Parser(text)
    node = parser.list_until()
    if parser.peek()[0] != "eof":
        raise ShellSyntaxError("unexpected %r" % (parser.peek()[1],))
    return node


def _literal(word: "Word | None") -> "str | None":
    """The word's text when it is one plain unquoted piece (what can be a reserved word)."""
    if word and len(word) == 1 and word[0][0] == "s":
        return str(word[0][1])
    return None


def _text_of(word: "Word") -> str:
    """A here-document delimiter as bash compares it: its quotes removed, nothing expanded."""
    out = []
    for part in word:
        if part[0] in ("s", "q"):
            out.append(part[1])
        elif part[0] == "cat":
            out.append(_text_of(part[1]))
        elif part[0] == "p":
            out.append("$" + part[1])
    return "".join(out)


def _name_start(text: str, i: int) -> bool:
    c = text[i:i + 1]
    return bool(c) and (c.isalpha() or c == "_" or c in "@*#?$!-0123456789")


def _brace_end(text: str, i: int) -> int:
    """The index of the `}` closing a `${` whose body starts at i, or -1. Each nested `${` has its
    own quoting: `"${c#"${c%%x}"}"` holds quotes inside quotes."""
    double = [False]  # per open ${: inside double quotes?
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            double[-1] = not double[-1]
        elif c == "'" and not double[-1]:
            end = text.find("'", i + 1)
            if end < 0:
                return -1
            i = end
        elif c == "$" and text.startswith("{", i + 1):
            double.append(False)
            i += 1
        elif c == "}" and not double[-1]:
            double.pop()
            if not double:
                return i
        i += 1
    return -1


def _arith_end(text: str, i: int) -> int:
    """The index of the `))` closing an arithmetic expression that starts at i, or -1."""
    depth = 0
    while i < len(text) - 1:
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return i if text[i + 1] == ")" else -1
            depth -= 1
        i += 1
    return -1


# ---- following: nodes -> the commands they run ---------------------------------------------------

class State(object):
    """What the shell knows at one point: variables (each with its possible values), functions,
    aliases, positional parameters, the folder, files the command wrote."""

    def __init__(self, cwd: "str | None") -> None:
        self.vars: "dict[str, list[Value]]" = {}
        self.exported: "set[str]" = set()
        self.functions: "dict[str, Node]" = {}
        self.aliases: "dict[str, str]" = {}
        self.positional: "list[str] | None" = []  # None: not known
        self.arg0 = "bash"
        self.cwd = cwd
        self.stdin: "str | None" = None  # what a command with no input of its own reads (a loop's here-string)
        self.files: "dict[str, str | None]" = {}  # written by the command itself: path -> text (None: not known)

    def copy(self) -> "State":
        other = State(self.cwd)
        other.vars = dict(self.vars)
        other.exported = set(self.exported)
        other.functions = dict(self.functions)
        other.aliases = dict(self.aliases)
        other.positional = self.positional
        other.arg0 = self.arg0
        other.files = dict(self.files)
        other.stdin = self.stdin
        return other

    def merge(self, other: "State") -> None:
        """After a branch: each variable may hold what it held on either path."""
        for name in set(self.vars) | set(other.vars):
            mine = self.values(name)
            theirs = other.values(name)
            if mine != theirs:
                merged = list(mine)
                for value in theirs:
                    if value not in merged:
                        merged.append(value)
                self.vars[name] = merged[:MAX_VALUES] + ([None] if len(merged) > MAX_VALUES else [])
        self.exported |= other.exported
        self.functions.update(other.functions)
        self.aliases.update(other.aliases)
        self.files.update(other.files)
        if self.cwd != other.cwd:
            self.cwd = None if other.cwd is None or self.cwd is None else self.cwd
        if self.positional != other.positional:
            self.positional = None

    def set(self, name: str, value: "Value") -> None:
        self.vars[name] = [value]

    def values(self, name: str) -> "list[Value]":
        if name in self.vars:
            return self.vars[name]
        if name in KNOWN_ENV and name in os.environ:
            return [os.environ[name]]
        if name == "PWD" and self.cwd:
            return [self.cwd]
        if name == "IFS":
            return [" \t\n"]
        return [None]


class Follower(object):
    """Follows command text the way bash would run it; `notes` collects what it could not follow."""

    def __init__(self, programs: "tuple[str, ...]" = (), notes: "list[str] | None" = None) -> None:
        self.notes: "list[str]" = [] if notes is None else notes
        self.budget = MAX_TEXT
        self.steps = MAX_STEPS
        self.outputs: "dict[int, str | None]" = {}  # id of a `$( )` part -> what it printed, as last followed
        self.programs = programs  # names the reading of text that is not valid shell looks for

    def note(self, text: str) -> None:
        add_note(self.notes, text)

    # -- entry points

    def commands(self, text: str, cwd: "str | None" = None, depth: int = 0,
                 state: "State | None" = None) -> "Iterator[Run]":
        """Every simple command `text` may run, wrappers and launchers followed to what they start.
        Text it cannot follow to the end (not valid shell, or past a bound) is also read word by
        word, so that every git and rm it names is still seen."""
        if depth > MAX_DEPTH:
            self.note("nested more than %d levels deep: the rest was read word by word" % MAX_DEPTH)
            yield from self.crude(text, cwd)
            return
        self.budget -= len(text)
        if self.budget < 0:
            self.note("more than %d characters of shell to follow: the rest was read word by word" % MAX_TEXT)
            yield from self.crude(text, cwd)
            return
        try:
            node = parse(text)
        except (ShellSyntaxError, RecursionError) as error:
            self.note("not valid shell (%s): read word by word" % error)
            yield from self.crude(text, cwd)
            return
        if state is None:
            state = State(cwd)
        yield from self.follow(node, state, depth)
        if self.steps < 0 and depth == 0:  # (past MAX_STEPS: what was not followed is still read)
            yield from self.crude(text, cwd)

    def crude(self, text: str, cwd: "str | None") -> "Iterator[Run]":
        for argv in _crude_commands(text[:MAX_TEXT], self.programs):
            yield Run(argv, {}, cwd, None)

    def follow(self, node: "Node", state: State, depth: int,
               out: "list[str | None] | None" = None) -> "Iterator[Run]":
        """Follow a list, an and-or list or a pipeline; what it prints (when known) is appended to `out`."""
        kind = node[0]
        if kind in ("list", "and_or"):
            texts: "list[str | None]" = []
            for n, item in enumerate(node[1]):
                if kind == "list" or n == 0:
                    yield from self.follow(item if kind == "list" else item[1], state, depth, texts)
                else:  # `a && b`: b may not run, and what it assigns may not happen
                    branch = state.copy()
                    yield from self.follow(item[1], branch, depth, texts)
                    state.merge(branch)
            if out is not None:
                out.append(None if None in texts else "".join(t for t in texts if t is not None))
        elif kind == "pipeline":
            yield from self.pipeline(node[1], state, depth, out)
        else:
            yield from self.command(node, state, depth, None, out)

    def pipeline(self, stages: "list[Node]", state: State, depth: int,
                 out: "list[str | None] | None") -> "Iterator[Run]":
        if len(stages) == 1:
            yield from self.command(stages[0], state, depth, None, out)
            return
        stdin: "str | None" = None
        for stage in stages:  # each stage runs in a subshell: what it assigns stays there
            outputs: "list[str | None]" = []
            yield from self.command(stage, state.copy(), depth, stdin, outputs)
            stdin = outputs[-1] if outputs else None
        if out is not None:
            out.append(stdin)

    def command(self, node: "Node", state: State, depth: int, stdin: "str | None",
                outputs: "list[str | None] | None" = None) -> "Iterator[Run]":
        """Follow one command; its output (when known) is appended to `outputs`."""
        kind = node[0]
        if kind == "simple":
            yield from self.simple(node[1], node[2], state, depth, stdin, outputs)
            return
        redirects = node[-1] if kind not in ("function",) else []
        for run in self.redirect_runs(redirects, state, depth):
            yield run
        given = self.redirect_input(redirects, state, depth, stdin, None)
        saved_stdin = state.stdin
        if given is not None or redirects:
            state.stdin = given  # what the commands inside read
        yield from self.compound(node, state, depth, outputs)
        state.stdin = saved_stdin

    def compound(self, node: "Node", state: State, depth: int, outputs: "list[str | None] | None") -> "Iterator[Run]":
        kind = node[0]
        if kind in ("subshell", "group"):
            yield from self.follow(node[1], state.copy() if kind == "subshell" else state, depth, outputs)
            return
        elif kind == "words":
            for word in node[1]:
                for run in self.expand_runs(word, state, depth):
                    yield run
        elif kind == "if":
            ends: "list[State]" = []
            start = state
            for role, body in node[1]:
                if role == "cond":
                    yield from self.follow(body, start, depth)
                    start = start.copy()
                else:
                    branch = start.copy()
                    yield from self.follow(body, branch, depth)
                    ends.append(branch)
            if len(node[1]) % 2 == 0:  # no else: every condition may be false
                ends.append(start)
            self.join(state, ends)
        elif kind == "while":
            seen: "set[tuple[str, ...]]" = set()
            for _ in range(2):  # a second pass when the first assigned what the next may use
                branch = state.copy()
                yield from _new(self.follow(node[1], branch, depth), seen)
                yield from _new(self.follow(node[2], branch, depth), seen)
                changed = branch.vars != state.vars
                state.merge(branch)
                if not changed:
                    break
        elif kind == "for":
            yield from self.for_loop(node, state, depth)
        elif kind == "case":
            for run in self.expand_runs(node[1], state, depth):
                yield run
            ends = []
            for body in node[2]:
                branch = state.copy()
                yield from self.follow(body, branch, depth)
                ends.append(branch)
            self.join(state, ends + [state.copy()])
        elif kind == "function":
            state.functions[node[1]] = node[2]
        if outputs is not None:
            outputs.append(None)

    @staticmethod
    def join(state: State, ends: "list[State]") -> None:
        """`state` becomes what any of `ends` may hold: after the branches of an if or a case."""
        first = ends[0]
        for other in ends[1:]:
            first.merge(other)
        state.__dict__.update(first.__dict__)

    def for_loop(self, node: "Node", state: State, depth: int) -> "Iterator[Run]":
        _, name, words, body, _ = node
        values: "list[str | None]"
        if not name:
            values = [None]
        elif words is None:
            values = list(state.positional) if state.positional is not None else [None]
        else:
            fields = []
            for word in words:
                yield from self.expand_runs(word, state, depth)
                fields.extend(self.fields(word, state, depth))
            values = [None] if any(isinstance(f, Unknown) for f in fields) else list(fields)
        if len(values) > MAX_LOOP:
            values = values[:MAX_LOOP] + [None]
        start = state.copy()
        for value in values or [""]:
            branch = start.copy()
            if name:
                branch.set(name, value)
            before, seen = dict(branch.vars), set()  # type: dict[str, list[Value]], set[tuple[str, ...]]
            yield from _new(self.follow(body, branch, depth), seen)
            if branch.vars != before:  # a second pass sees what the first assigned
                yield from _new(self.follow(body, branch, depth), seen)
            state.merge(branch)

    # -- simple commands

    def simple(self, words: "list[Word]", redirects: "list[Node]", state: State, depth: int,
               stdin: "str | None", outputs: "list[str | None] | None") -> "Iterator[Run]":
        self.steps -= 1
        if self.steps < 0:
            if self.steps == -1:
                self.note("more than %d commands to follow: the rest was read word by word" % MAX_STEPS)
            return
        assigns: "list[tuple[str, Word]]" = []
        rest = list(words)
        while rest and _assignment(rest[0]):
            assigns.append(_assignment(rest[0]) or ("", []))
            rest.pop(0)
        for word in words:  # substitutions in any word run before the command
            for run in self.expand_runs(word, state, depth):
                yield run
        for run in self.redirect_runs(redirects, state, depth):
            yield run
        stdin = self.redirect_input(redirects, state, depth, stdin if stdin is not None else state.stdin, outputs)
        env: "dict[str, str]" = {}
        for name, value in assigns:
            known = self.assigned(value, state, depth)
            if rest:
                env[name] = known[0] if len(known) == 1 and isinstance(known[0], str) else Unknown("$" + name)
            else:
                state.vars[name] = known
        if not rest:
            if outputs is not None:
                outputs.append("")
            return
        for argv in self.argvs(rest, state, depth):
            yield from self.run(argv, env, state, depth, stdin, redirects, outputs)

    def assigned(self, value: "Word", state: State, depth: int) -> "list[Value]":
        """The possible values of `name=value` (an array for `name=(...)`)."""
        if value and value[0][0] == "arr":
            items: "list[str]" = []
            for word in value[0][1]:
                items.extend(self.fields(word, state, depth))
            return [items]
        return [None if isinstance(v, Unknown) else v for v in self.joined(value, state, depth)]

    def run(self, argv: "list[str]", env: "dict[str, str]", state: State, depth: int, stdin: "str | None",
            redirects: "list[Node]", outputs: "list[str | None] | None") -> "Iterator[Run]":
        """One expanded command: builtins that change the state, functions, launchers, or a program."""
        if not argv:
            return
        name = argv[0]
        if isinstance(name, Unknown):
            self.note("cannot tell which program `%s` runs" % " ".join(argv)[:200])
            yield Run(argv, env, state.cwd, stdin)
            return
        if name in state.aliases and depth < MAX_DEPTH:
            text = state.aliases[name] + " " + " ".join(quote(word) for word in argv[1:])
            yield from self.commands(text, state.cwd, depth + 1, state)
            return
        if name in state.functions:
            if depth >= MAX_DEPTH:
                self.note("nested more than %d levels deep: the function %s was not followed" % (MAX_DEPTH, name))
                return
            saved = state.positional
            state.positional = argv[1:]
            yield from self.command(state.functions[name], state, depth + 1, stdin)
            state.positional = saved
            return
        output = None
        yield Run(argv, dict(self.exported_env(state), **env), state.cwd, stdin)
        if name == "cd":
            target = argv[1] if len(argv) > 1 else os.environ.get("HOME", "")
            state.cwd = None if state.cwd is None or isinstance(target, Unknown) or target == "-" \
                else os.path.normpath(os.path.join(state.cwd, os.path.expanduser(target)))
        elif name in DECLARE or name in ("unset", "set", "shift", "alias", "unalias", "read"):
            self.builtin(argv, state, depth, stdin)
        elif name == "eval":
            yield from self.commands(" ".join(argv[1:]), state.cwd, depth + 1, state)
        elif name in ("source", ".") and len(argv) > 1:
            script = self.script(argv[1], state)
            if script is not None:
                saved = state.positional
                state.positional = argv[2:] or state.positional
                yield from self.commands(script, state.cwd, depth + 1, state)
                state.positional = saved
        else:
            for run in self.launched(argv, env, state, depth, stdin):
                yield run
            output = self.output(argv, stdin, state)
        for kind, target in redirects:
            if kind in (">", ">|", ">>", "&>", "&>>"):
                path = self.joined(target, state, depth)[0]
                if state.cwd and not isinstance(path, Unknown):
                    full = os.path.normpath(os.path.join(state.cwd, path))
                    before = state.files.get(full, "") if kind.endswith(">>") else ""
                    state.files[full] = None if output is None or before is None else before + output
                output = ""
        if outputs is not None:
            outputs.append(output)

    def exported_env(self, state: State) -> "dict[str, str]":
        env = {}
        for name in state.exported:
            values = state.vars.get(name, [None])
            env[name] = values[0] if len(values) == 1 and isinstance(values[0], str) else Unknown("$" + name)
        return env

    def builtin(self, argv: "list[str]", state: State, depth: int, stdin: "str | None") -> None:
        name = argv[0]
        if name in DECLARE:
            array = any(w.startswith("-") and ("a" in w or "A" in w) for w in argv[1:])
            for word in argv[1:]:
                if word.startswith("-") or isinstance(word, Unknown):
                    continue
                key, eq, value = word.partition("=")
                if not key.isidentifier():
                    continue
                if eq:
                    state.set(key, value.strip("()").split() if array else value)
                if name == "export":
                    state.exported.add(key)
        elif name == "unset":
            for word in argv[1:]:
                state.vars.pop(word, None)
                state.functions.pop(word, None)
        elif name == "set":
            if "--" in argv:
                state.positional = argv[argv.index("--") + 1:]
            elif len(argv) > 1 and not argv[1].startswith(("-", "+")):
                state.positional = argv[1:]
        elif name == "shift":
            count = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 1
            if state.positional is not None:
                state.positional = state.positional[count:]
        elif name == "alias":
            for word in argv[1:]:
                key, eq, value = word.partition("=")
                if eq:
                    state.aliases[key] = value
        elif name == "unalias":
            for word in argv[1:]:
                state.aliases.pop(word, None)
        elif name == "read":  # in a loop it reads each line in turn: each is a possible value
            names = [w for w in argv[1:] if not w.startswith("-") and w.isidentifier()] or ["REPLY"]
            lines = [line for line in stdin.split("\n") if line.strip()][:MAX_VALUES] if stdin is not None else []
            for i, key in enumerate(names):
                values: "list[Value]" = []
                for line in lines:
                    fields = line.split(None, len(names) - 1)
                    value = fields[i] if i < len(fields) else ""
                    if value not in values:
                        values.append(value)
                state.vars[key] = values if stdin is not None and values else [None if stdin is None else ""]

    # -- what launches another command

    def launched(self, argv: "list[str]", env: "dict[str, str]", state: State, depth: int,
                 stdin: "str | None") -> "Iterator[Run]":
        """What `argv` starts in its turn: a wrapper's command, a shell's script, xargs' and find's commands."""
        name = program_name(argv[0])
        if depth >= MAX_DEPTH:
            if name in WRAPPERS or name in SHELLS or name == "find":
                self.note("nested more than %d levels deep: what `%s` runs was read word by word" % (MAX_DEPTH, name))
                yield from self.crude(" ".join(argv[1:]), state.cwd)
            return
        if name in WRAPPERS:
            inner, extra_env, text = _unwrap(name, argv)
            if text is not None:
                yield from self.commands(text, state.cwd, depth + 1, state.copy())
                return
            if name == "xargs":
                yield from self.xargs(argv, inner, dict(env, **extra_env), state, depth, stdin)
                return
            if inner:
                sub = state.copy()
                yield from self.run(inner, dict(env, **extra_env), sub, depth + 1, stdin, [], None)
            return
        if name in SHELLS:
            yield from self.shell(argv, state, depth, stdin)
        elif name == "find":
            for inner in _find_exec(argv):
                yield from self.run(inner, env, state.copy(), depth + 1, None, [], None)
        elif name in INTERPRETERS or name.startswith(("python", "node")):
            flag = INTERPRETERS.get(name, "-c" if name.startswith("python") else "-e")
            code = argv[argv.index(flag) + 1] if flag in argv[1:-1] else (stdin or "")
            if "git" in code:
                self.note("cannot follow the %s program `%s`" % (name, code[:120]))
        elif argv[0].startswith(("./", "/", "../")) and "/" in argv[0]:
            text = self.script(argv[0], state, executable=True)
            if text is not None:
                sub = state.copy()
                sub.positional, sub.arg0 = argv[1:], argv[0]
                yield from self.commands(text, state.cwd, depth + 1, sub)

    def shell(self, argv: "list[str]", state: State, depth: int, stdin: "str | None") -> "Iterator[Run]":
        """`bash -c text [name args]`, `bash script [args]`, or bash reading its script on stdin."""
        text, rest, reads_stdin = _shell_script(argv)
        sub = State(state.cwd)
        sub.files = state.files
        for name in state.exported:  # a new shell sees the exported variables only
            sub.vars[name] = state.vars.get(name, [None])
            sub.exported.add(name)
        if text is not None:
            sub.positional, sub.arg0 = rest[1:], (rest[0] if rest else argv[0])
        elif not reads_stdin and rest:
            text = self.script(rest[0], state)
            if text is None:
                return
            sub.positional, sub.arg0 = rest[1:], rest[0]
        else:
            if stdin is None:
                self.note("cannot tell what `%s` reads on stdin and runs" % " ".join(argv)[:120])
                return
            text = stdin
            sub.positional = rest
        if isinstance(text, Unknown):
            self.note("cannot tell what `%s` runs" % " ".join(argv)[:200])
            return
        yield from self.commands(text, state.cwd, depth + 1, sub)

    def xargs(self, argv: "list[str]", inner: "list[str]", env: "dict[str, str]", state: State, depth: int,
              stdin: "str | None") -> "Iterator[Run]":
        """xargs runs its command with the items it reads (in place of -I's string, or appended)."""
        replace = _xargs_replace(argv)
        inner = inner or ["echo"]
        if stdin is None:
            items: "list[str]" = [Unknown("<what xargs reads>")]
        elif replace is not None or _xargs_lines(argv):
            items = [line for line in stdin.split("\n") if line.strip()]
        else:
            items = split_words(stdin, escapes_in_double=False)  # xargs: no escapes inside quotes
        commands = [[item if word == replace else word.replace(replace, item) if replace and replace in word
                     else word for word in inner] for item in items] if replace else [inner + items]
        for command in commands[:MAX_VARIANTS]:
            yield from self.run(command, env, state.copy(), depth + 1, None, [], None)

    def script(self, path: str, state: State, executable: bool = False) -> "str | None":
        """The text of a script a shell runs (one the command wrote itself first); None, noted, if unknown."""
        if isinstance(path, Unknown) or not state.cwd and not os.path.isabs(path):
            self.note("cannot tell which script `%s` is" % path)
            return None
        full = os.path.normpath(os.path.join(state.cwd or "", os.path.expanduser(path)))
        if path in state.files or full in state.files:
            full = full if full in state.files else path
            text = state.files[full]
            if text is None:
                self.note("cannot tell what the command writes into %s, which it then runs" % path)
            return text
        try:
            with open(full, "rb") as handle:
                data = handle.read(256)
                if executable and not _shell_shebang(data):
                    return None
                data += handle.read(MAX_SCRIPT + 1 - len(data))
        except OSError:
            return None  # not there: the shell fails too
        if len(data) > MAX_SCRIPT:
            self.note("the script %s is longer than %d bytes: not followed" % (path, MAX_SCRIPT))
            return None
        return data.decode("utf-8", "replace")

    # -- input and output

    def redirect_input(self, redirects: "list[Node]", state: State, depth: int, stdin: "str | None",
                       outputs: "list[str | None] | None") -> "str | None":
        """What a command reads on stdin after its redirections: a here-document, a here-string, a file."""
        for kind, target in redirects:
            if kind == "<<":
                stdin = self.joined(target, state, depth)[0]
            elif kind == "<<<":
                value = self.joined(target, state, depth)[0]
                stdin = None if isinstance(value, Unknown) else value + "\n"
            elif kind == "<":
                path = self.joined(target, state, depth)[0]
                stdin = None if isinstance(path, Unknown) else self.file_text(path, state)
        return None if isinstance(stdin, Unknown) else stdin

    def redirect_runs(self, redirects: "list[Node]", state: State, depth: int) -> "Iterator[Run]":
        """Substitutions in redirection targets and here-documents run too."""
        for _, target in redirects:
            for run in self.expand_runs(target, state, depth):
                yield run

    def file_text(self, path: str, state: State) -> "str | None":
        full = os.path.normpath(os.path.join(state.cwd or "", path))
        if full in state.files:
            return state.files[full]
        if not state.cwd and not os.path.isabs(path):
            return None
        try:
            with open(full, "rb") as handle:
                data = handle.read(MAX_SCRIPT + 1)
        except OSError:
            return None
        return data.decode("utf-8", "replace") if len(data) <= MAX_SCRIPT else None

    def output(self, argv: "list[str]", stdin: "str | None", state: State) -> "str | None":
        """What a program prints, for the few whose output is known without running them; else None."""
        name = program_name(argv[0])
        args = argv[1:]
        if any(isinstance(word, Unknown) for word in args):
            return None
        if name == "echo":
            newline, escapes = True, False
            while args and args[0] in ("-n", "-e", "-E", "-ne", "-en"):
                newline = newline and "n" not in args[0]
                escapes = "e" in args[0]
                args = args[1:]
            text = " ".join(args)
            return (_escapes(text) if escapes else text) + ("\n" if newline else "")
        if name == "printf":
            return _printf(args) if args and not args[0].startswith("-v") else None
        if name == "cat":
            files = [word for word in args if word != "-" and not word.startswith("-")]
            if not files:
                return stdin
            texts = [self.file_text(path, state) for path in files]
            return None if any(text is None for text in texts) else "".join(t for t in texts if t is not None)
        if name == "base64" and any(word in ("-d", "--decode", "-D") for word in args) and stdin is not None:
            import binascii

            try:
                return binascii.a2b_base64("".join(stdin.split())).decode("utf-8", "replace")
            except (binascii.Error, ValueError):
                return None
        if name == "xxd" and "-r" in args and "-p" in args and stdin is not None:
            try:
                return bytes.fromhex("".join(stdin.split())).decode("utf-8", "replace")
            except ValueError:
                return None
        if name == "rev" and stdin is not None and not args:
            return "".join(line[::-1] + "\n" for line in stdin.split("\n")[:-1]) + stdin.split("\n")[-1][::-1]
        if name in ("which", "type") or (name == "command" and args[:1] in (["-v"], ["-V"])):
            found = [word for word in args if not word.startswith("-")]
            return "".join("/usr/bin/%s\n" % word for word in found)
        if name in NO_OUTPUT:
            return ""
        return None

    # -- words

    def argvs(self, words: "list[Word]", state: State, depth: int) -> "list[list[str]]":
        """The argument lists the words may expand to (several when a variable may hold several values)."""
        variants: "list[list[str]]" = [[]]
        for word in words:
            choices = self.field_choices(word, state, depth)
            if len(choices) == 1:
                for variant in variants:
                    variant.extend(choices[0])
                continue
            grown = [variant + choice for variant in variants for choice in choices]
            if len(grown) > MAX_VARIANTS:
                self.note("more than %d ways to read one command: the rest were not followed" % MAX_VARIANTS)
                grown = grown[:MAX_VARIANTS]
            variants = grown
        return variants

    def fields(self, word: "Word", state: State, depth: int) -> "list[str]":
        """The fields of a word, taking each variable's first possible value."""
        return self.field_choices(word, state, depth)[0]

    def joined(self, word: "Word", state: State, depth: int) -> "list[str]":
        """The word's possible texts without field splitting (an assignment's value, a redirection target)."""
        return [_join(pieces) for pieces in self.pieces(word, state, depth)]

    def field_choices(self, word: "Word", state: State, depth: int) -> "list[list[str]]":
        choices = []
        for pieces in self.pieces(word, state, depth):
            fields = []
            for expanded in _braces(pieces) if any(p[3] and "{" in p[0] for p in pieces) else [pieces]:
                fields.extend(_fields(expanded, state))
            if fields not in choices:
                choices.append(fields)
        return choices[:MAX_VARIANTS] or [[]]

    def pieces(self, word: "Word", state: State, depth: int) -> "list[list[Piece]]":
        """The word's expansions, one list of pieces for each way its variables may be read."""
        variants: "list[list[Piece]]" = [[]]
        for part in word:
            kind = part[0]
            if kind in ("s", "q"):
                choices = [[(part[1], False, True, kind == "s", False)]]
            elif kind == "cat":
                choices = [[(_join(p), False, all(piece[2] for piece in p), False, False)]
                           for p in self.pieces(part[1], state, depth)]
            elif kind == "p":
                choices = [_value_pieces(value, part[4], part[1], state) for value in self.parameter(part, state, depth)]
            elif kind == "c":
                text = self.substitution(part, state, depth)
                choices = [[(text.rstrip("\n") if text is not None else "$(...)", not part[2], text is not None,
                             False, False)]]
            elif kind == "a":
                choices = [[(_arith(part[1]), False, True, False, False)]]
            elif kind == "ps":  # <( ... ): a file holding its output, for `source <(...)` and `bash <(...)`
                path = "/dev/fd/%d" % (63 - len(state.files))
                state.files[path] = self.substitution(part, state, depth)
                choices = [[(path, False, True, False, False)]]
            else:  # "arr": `name=(...)` is read by assigned()
                choices = [[("(...)", False, True, False, False)]]
            variants = [variant + choice for variant in variants for choice in choices][:MAX_VARIANTS]
        return variants

    def parameter(self, part: "Part", state: State, depth: int) -> "list[Value]":
        """The possible values of `$name` / `${name<op>operand}` (None: not known; a list: fields)."""
        name, op, operand = part[1], part[2], part[3]
        index = part[5] if len(part) > 5 else None
        if name in ("@", "*"):
            values: "list[Value]" = [list(state.positional) if state.positional is not None else None]
        elif name == "#":
            values = [str(len(state.positional)) if state.positional is not None else None]
        elif name.isdigit():
            n = int(name)
            if n == 0:
                values = [state.arg0]
            elif state.positional is None:
                values = [None]
            else:
                values = [state.positional[n - 1] if n <= len(state.positional) else ""]
        elif name in ("?", "$", "!", "-"):
            values = ["0"]
        else:
            values = list(state.values(name))
        out: "list[Value]" = []
        for value in values:
            if isinstance(value, list) and name not in ("@", "*") and index not in ("@", "*"):
                value = value[int(index)] if index and index.isdigit() and int(index) < len(value) else \
                    (value[0] if value and not index else "")
            if op == "len":
                value = str(len(value)) if isinstance(value, (str, list)) else None
            elif op is not None:
                value = self.operate(name, value, op, operand, state, depth)
            out.append(value)
        return out

    def operate(self, name: str, value: "Value", op: str, operand: "Word | None", state: State,
                depth: int) -> "Value":
        """`${name<op>operand}` on one possible value."""
        word = self.joined(operand or [], state, depth)[0]
        if op.startswith("!"):
            if op == "!" and isinstance(value, str) and value.isidentifier():
                found = state.values(value)
                return found[0] if len(found) == 1 and not isinstance(found[0], list) else None
            return None
        unset = value is None and name not in state.vars
        empty = unset or value == ""
        if op in (":-", ":=", "-", "="):
            use = empty if op.startswith(":") else unset
            if use:
                if op.endswith("="):
                    state.set(name, word)
                return None if isinstance(word, Unknown) else word
            return value
        if op in (":+", "+"):
            use = not empty if op == ":+" else not unset
            return (None if isinstance(word, Unknown) else word) if use else ""
        if op in (":?", "?"):
            return value
        if value is None or isinstance(value, list) or isinstance(word, Unknown):
            return None
        if op in ("^^", "^"):
            return value.upper() if op == "^^" else value[:1].upper() + value[1:]
        if op in (",,", ","):
            return value.lower() if op == ",," else value[:1].lower() + value[1:]
        if op in ("#", "##", "%", "%%"):
            return _trim(value, word, op)
        if op in ("/", "//", "/#", "/%"):
            pattern, _, replacement = word.partition("/")
            return _replace(value, pattern, replacement, op)
        if op == ":":
            return _substring(value, word)
        return None  # ${x@Q} and the like

    def substitution(self, part: "Part", state: State, depth: int) -> "str | None":
        """The output of `$( ... )` when known: as expand_runs found it following the commands inside,
        or worked out again without yielding them (an operand of `${...}`)."""
        if id(part) in self.outputs:
            return self.outputs[id(part)]
        saved, self.notes = self.notes, []  # noted on the pass that yielded the runs
        box: "list[str | None]" = []
        try:
            for _ in self.follow(part[1], state.copy(), depth + 1, box):
                pass
        finally:
            self.notes = saved
        return box[0] if box else None

    def expand_runs(self, word: "Word", state: State, depth: int) -> "Iterator[Run]":
        """The commands inside a word's substitutions (`$( )`, backticks, `<( )`, operands of `${...}`);
        what each prints is kept for the word's expansion, which follows."""
        for part in word:
            kind = part[0]
            if kind in ("c", "ps"):
                box: "list[str | None]" = []
                yield from self.follow(part[1], state.copy(), depth + 1, box)
                self.outputs[id(part)] = box[0] if box else None
            elif kind == "cat":
                yield from self.expand_runs(part[1], state, depth)
            elif kind == "p" and isinstance(part[3], list):  # `${#name}` keeps its name as text
                yield from self.expand_runs(part[3], state, depth)
            elif kind == "arr":
                for item in part[1]:
                    yield from self.expand_runs(item, state, depth)


# ---- helpers -------------------------------------------------------------------------------------

def _new(runs: "Iterator[Run]", seen: "set[tuple[str, ...]]") -> "Iterator[Run]":
    """The runs not yielded before (a loop's second pass repeats most of its first)."""
    for run in runs:
        key = tuple(run.argv)
        if key not in seen:
            seen.add(key)
            yield run


def _assignment(word: "Word") -> "tuple[str, Word] | None":
    """(name, value parts) when the word is `name=value` (or `name+=value`) before a command."""
    if not word or word[0][0] != "s":
        return None
    head = word[0][1]
    name, eq, value = head.partition("=")
    if not eq or not name.rstrip("+").isidentifier():
        return None
    rest: "Word" = ([("s", value)] if value else []) + list(word[1:])
    return name.rstrip("+"), rest


def _value_pieces(value: "Value", quoted: bool, name: str, state: State) -> "list[Piece]":
    """The pieces of one expanded parameter: an unknown value, a string, or fields ("$@", arrays)."""
    if value is None:
        return [(Unknown("$" + name), not quoted, False, False, False)]
    if isinstance(value, str):
        return [(value, not quoted, True, False, False)]
    if not quoted or name == "*":
        return [(" ".join(value), not quoted, True, False, False)]
    return [(item, False, True, False, n > 0) for n, item in enumerate(value)]


def _join(pieces: "list[Piece]") -> str:
    text = "".join(piece[0] for piece in pieces)
    return text if all(piece[2] for piece in pieces) else Unknown(text)


def _fields(pieces: "list[Piece]", state: State) -> "list[str]":
    """Word splitting: unquoted expansions split on IFS; a word with an unknown piece is one Unknown field."""
    if not all(piece[2] for piece in pieces):
        return [Unknown("".join(piece[0] for piece in pieces))]
    ifs_values = state.values("IFS")
    ifs = ifs_values[0] if isinstance(ifs_values[0], str) else " \t\n"
    fields: "list[str]" = []
    current: "list[str] | None" = None
    for text, splittable, _, _, new_field in pieces:
        if new_field and current is not None:
            fields.append("".join(current))
            current = None
        if not splittable:
            current = (current or []) + [text]
            continue
        chunks = _split(text, ifs)
        for n, chunk in enumerate(chunks):
            if n > 0:
                if current is not None:
                    fields.append("".join(current))
                current = None
            if chunk:
                current = (current or []) + [chunk]
    if current is not None:
        joined = "".join(current)
        if joined or any(not piece[1] for piece in pieces):
            fields.append(joined)
    return fields


def _split(text: str, ifs: str) -> "list[str]":
    """Split one expansion on IFS: runs of IFS whitespace are one separator; edges count as breaks."""
    if not ifs:
        return [text]
    out: "list[str]" = [""]
    for c in text:
        if c in ifs:
            if out[-1] or c not in " \t\n":
                out.append("")
        else:
            out[-1] += c
    return out


def _braces(variant: "list[Piece]") -> "list[list[Piece]]":
    """Brace expansion of the unquoted literal pieces: `{git,}` -> `git` and ``, `x{a,b}` -> xa xb."""
    for n, piece in enumerate(variant):
        if not piece[3]:
            continue
        text = piece[0]
        start = text.find("{")
        while start >= 0:
            end, items = _brace_items(text, start)
            if items is not None:
                before, after = text[:start], text[end + 1:]
                out = []
                for item in items:
                    replaced = list(variant)
                    replaced[n] = (before + item + after, piece[1], piece[2], True, piece[4])
                    out.extend(_braces(replaced))
                return out[:MAX_VARIANTS]
            start = text.find("{", start + 1)
    return [variant]


def _brace_items(text: str, start: int) -> "tuple[int, list[str] | None]":
    """(where the brace group from `start` ends, its items; None when it is no brace expansion)."""
    depth, i, last = 0, start, start + 1
    items: "list[str]" = []
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                items.append(text[last:i])
                if len(items) > 1:
                    return i, items
                body = items[0]
                low, dots, high = body.partition("..")
                if dots and low.isdigit() and high.isdigit() and abs(int(high) - int(low)) < MAX_LOOP:
                    step = 1 if int(high) >= int(low) else -1
                    return i, [str(n) for n in range(int(low), int(high) + step, step)]
                if dots and len(low) == 1 and len(high) == 1 and abs(ord(high) - ord(low)) < MAX_LOOP:
                    step = 1 if high >= low else -1
                    return i, [chr(n) for n in range(ord(low), ord(high) + step, step)]
                return i, None
        elif c == "," and depth == 1:
            items.append(text[last:i])
            last = i + 1
        i += 1
    return i, None


def _arith(text: str) -> str:
    """`$(( ))`: a plain number as it is, anything else 0 (a number never names a program or an option)."""
    text = text.strip()
    return text if text.isdigit() else "0"


def _escapes(text: str) -> str:
    """echo -e / printf %b escapes."""
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            e = text[i + 1]
            if e in ANSI_C and e not in "'\"?":
                out.append(ANSI_C[e])
                i += 2
                continue
            if e == "x":
                digits = text[i + 2:i + 4]
                hexdigits = ""
                for d in digits:
                    if d in "0123456789abcdefABCDEF":
                        hexdigits += d
                    else:
                        break
                if hexdigits:
                    out.append(chr(int(hexdigits, 16)))
                    i += 2 + len(hexdigits)
                    continue
            if e == "0":
                digits = ""
                j = i + 2
                while j < len(text) and len(digits) < 3 and text[j] in "01234567":
                    digits += text[j]
                    j += 1
                out.append(chr(int(digits or "0", 8) & 0xFF))
                i = j
                continue
            if e == "c":
                break
        out.append(c)
        i += 1
    return "".join(out)


def _printf(args: "list[str]") -> "str | None":
    """printf FORMAT ARGS: %s %b %d %c %%, escapes; the format is reused while arguments remain."""
    fmt, rest = args[0], list(args[1:])
    out: "list[str]" = []
    for _ in range(64):
        i, used = 0, False
        fmt_text = _escapes(fmt.replace("\\'", "'"))
        while i < len(fmt_text):
            c = fmt_text[i]
            if c != "%":
                out.append(c)
                i += 1
                continue
            j = i + 1
            while j < len(fmt_text) and fmt_text[j] in "-+ #0123456789.":
                j += 1
            spec = fmt_text[j:j + 1]
            i = j + 1
            if spec == "%":
                out.append("%")
            elif spec in ("s", "b", "q"):
                value = rest.pop(0) if rest else ""
                out.append(_escapes(value) if spec == "b" else value)
                used = True
            elif spec in ("d", "i", "u", "x", "o", "c", "f", "e", "g"):
                value = rest.pop(0) if rest else ""
                out.append(value[:1] if spec == "c" else value)
                used = True
            else:
                return None
        if not rest or not used:
            return "".join(out)
    return "".join(out)


def _trim(value: str, pattern: str, op: str) -> str:
    import fnmatch

    sizes = range(len(value) + 1) if op in ("#", "%") else range(len(value), -1, -1)
    for size in sizes:
        if op.startswith("#") and fnmatch.fnmatchcase(value[:size], pattern):
            return value[size:]
        if op.startswith("%") and fnmatch.fnmatchcase(value[len(value) - size:], pattern):
            return value[:len(value) - size]
    return value


def _replace(value: str, pattern: str, replacement: str, op: str) -> str:
    import fnmatch
    import re

    regex = fnmatch.translate(pattern)[4:-3] if pattern else ""  # (?s:...)\Z -> the pattern alone
    if op == "/#":
        regex = "^(?:%s)" % regex
    elif op == "/%":
        regex = "(?:%s)$" % regex
    try:
        return re.sub(regex, lambda _: replacement, value, count=0 if op == "//" else 1) if regex else value
    except re.error:
        return value


def _substring(value: str, spec: str) -> "str | None":
    offset, _, length = spec.partition(":")
    try:
        start = int(offset.strip() or "0")
        if length:
            size = int(length.strip())
            return value[start:start + size] if size >= 0 else value[start:size]
        return value[start:]
    except ValueError:
        return None


def _skip_options(args: "list[str]", short_value: str, long_value: "tuple[str, ...]") -> "tuple[list[str], dict[str, str]]":
    """Drop a wrapper's leading options (and their values); return what follows them and those values."""
    i = 0
    values: "dict[str, str]" = {}
    while i < len(args):
        a = args[i]
        if a == "--":
            return args[i + 1:], values
        if isinstance(a, Unknown) or not a.startswith("-") or a == "-":
            break
        i += 1
        if a.startswith("--"):
            name, eq, value = a.partition("=")
            if name in long_value:
                if not eq and i < len(args):
                    value = args[i]
                    i += 1
                values[name] = value
            continue
        for j, ch in enumerate(a[1:]):
            if ch in short_value:
                if j == len(a) - 2:
                    values["-" + ch] = args[i] if i < len(args) else ""
                    i += 1
                else:
                    values["-" + ch] = a[j + 2:]
                break
    return args[i:], values


def _unwrap(name: str, argv: "list[str]") -> "tuple[list[str], dict[str, str], str | None]":
    """(the command a wrapper runs, variables it sets, shell text it runs instead)."""
    short_value, long_value, positionals = WRAPPERS[name]
    if name == "command" and any(a in ("-v", "-V") for a in argv[1:2]):
        return [], {}, None  # `command -v git` only looks git up
    rest, values = _skip_options(argv[1:], short_value, long_value)
    env: "dict[str, str]" = {}
    if name == "env":
        while rest and "=" in rest[0] and rest[0].split("=", 1)[0].isidentifier():
            key, _, value = rest.pop(0).partition("=")
            env[key] = value
        split = values.get("-S") or values.get("--split-string")
        if split:
            return [], env, split + " " + " ".join(quote(w) for w in rest)
    for flag in RUNS_STRING.get(name, ()):
        if flag in values:
            return [], env, values[flag]
    if name == "watch" and rest:
        return [], env, " ".join(rest)
    if name in ("sudo", "su", "runuser") and (values.get("-s") is not None or "-s" in argv or "-i" in argv) \
            and rest and name == "sudo":
        return [], env, " ".join(rest)
    if name in ("su", "runuser"):
        return [], env, None
    return rest[positionals:], env, None


def _shell_script(argv: "list[str]") -> "tuple[str | None, list[str], bool]":
    """(`-c`'s text, the words after the script or text, whether the shell reads its script on stdin)."""
    has_c, reads_stdin, i = False, False, 1
    if program_name(argv[0]) == "busybox":
        i = 2
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
        elif len(a) > 1 and a[0] in "-+" and not isinstance(a, Unknown):
            has_c = has_c or (a[0] == "-" and not a.startswith("--") and "c" in a)
            reads_stdin = reads_stdin or (a[0] == "-" and not a.startswith("--") and "s" in a)
            i += 1
        else:
            break
    if has_c:
        return (argv[i] if i < len(argv) else ""), argv[i + 1:], False
    return None, argv[i:], reads_stdin or i >= len(argv)


def _xargs_replace(argv: "list[str]") -> "str | None":
    for n, a in enumerate(argv[1:], 1):
        if a == "-I" and n + 1 < len(argv):
            return argv[n + 1]
        if a.startswith("-I") and len(a) > 2:
            return a[2:]
        if a.startswith("--replace"):
            return a.partition("=")[2] or "{}"
        if a == "-i" or (a.startswith("-i") and len(a) > 2):
            return a[2:] or "{}"
        if not a.startswith("-"):
            break
    return None


def _xargs_lines(argv: "list[str]") -> bool:
    return any(a in ("-L", "-0", "--null") or a.startswith(("-L", "-d", "--delimiter")) for a in argv[1:])


def _shell_shebang(head: bytes) -> bool:
    """Does a file start with `#!` naming a shell (`#!/bin/sh`, `#!/usr/bin/env bash`)?"""
    if not head.startswith(b"#!"):
        return False
    words = head[2:].split(b"\n", 1)[0].decode("utf-8", "replace").split()
    if words and program_name(words[0]) == "env":
        words = [w for w in words[1:] if not w.startswith("-")]
    return bool(words) and program_name(words[0]) in SHELLS


def _find_exec(argv: "list[str]") -> "Iterator[list[str]]":
    """The commands of find's -exec/-execdir/-ok/-okdir (up to `;` or `+`); `{}` is a found path."""
    starts = []
    for word in argv[1:]:
        if word.startswith(("-", "(", "!")) and word != "-":
            break
        starts.append(word)
    i = 1
    while i < len(argv):
        if argv[i] in ("-exec", "-execdir", "-ok", "-okdir"):
            j = i + 1
            while j < len(argv) and argv[j] not in (";", "+"):
                j += 1
            command = [Unknown("{}") if word == "{}" else word for word in argv[i + 1:j]]
            if command:
                yield command
            i = j
        elif argv[i] == "-delete":
            yield ["rm", "-r", "--"] + (starts or ["."])
        i += 1


def _crude_commands(text: str, programs: "tuple[str, ...]") -> "Iterator[list[str]]":
    """For text that is not valid shell: in every operator-separated piece, quotes dropped, each
    word naming one of `programs` starts a command (erring toward seeing a command that is not there)."""
    import re  # json has imported it already

    for piece in re.split(r"&&|\|\||[;|&\n()`]", text):
        words = re.sub(r"[\"'\\]", "", piece).split()
        for i, word in enumerate(words):
            if program_name(word) in programs:
                yield words[i:]
