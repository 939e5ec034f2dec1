"""A whole shell script as the shell runs it: lists of `a && b || c` chains of pipelines of
commands, the compound commands (`{ }`, `( )`, if, loops, case, functions, `(( ))`) with the
lists they hold, and where each starts. Built on the word reader (lex.py); a here-document's
body is blanked first (its text is data). What the reader cannot take (an unbalanced construct,
a syntax it does not know) makes the script Unreadable: its callers then say nothing of it.

Read from the tree here: where the output of each command of a shell-form hook command goes
(`streams`): its stdout, which carries a JSON answer to the host, and its stderr, which carries
exit 2's reason (Claude Code reads the reason from stderr and ignores stdout on exit 2:
docs/hosts/claude-code.md#exit-codes), through redirections of a command and of the compound
commands around it (`> log`, `2>/dev/null`, `2>&1`, `&>`, `>&2`), a lasting `exec 2>/dev/null`,
and pipes, where `tee`, `cat` and `jq` hand the text on and any other command (`logger`, a
`while read` loop) takes it; and which commands read the hook's own stdin (`stdin_takers`)."""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterator

from ...patterns import lazy
from ...records import Record
from .lex import Lexer, Unreadable, Word

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
