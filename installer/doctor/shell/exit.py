"""The shell reader's last step: which simple commands' failure can fail the hook
(`... || true`, `set -e`, `&&`, a pipe, what runs after it), so that a missing script behind
`|| true` is reported as silent and a block by exit 2 as swallowed."""
from __future__ import annotations

from .lex import Word
from .results import Invocation

COMPOUND_OPENERS = frozenset({"{", "(", "if", "while", "until"})
COMPOUND_CLOSERS = frozenset({"}", ")", "fi", "done"})
BRANCH_WORDS = frozenset({"then", "else", "elif", "do"})


class ExitStatus:
    """Which invocations cannot fail the hook (Invocation.tolerated), and whose exit status cannot
    become the hook's (Invocation.sets_status), followed as the shell's lists and compound
    commands go by.

    Tolerated: `a || true`, `a || exit 0`, `a &`, `if a; then`, `while a; do`, `{ a; } || true`,
    `a || { log; exit 0; }`, and a last `; true` or `; exit 0` that makes the hook's status 0
    whatever ran before it (not under `set -e`, nor after an `exec`). Not setting the status:
    a command another one follows in sequence, one piped into another (unless `set -o pipefail` came
    first), one followed by `||` (unless
    what follows the `||` exits with the failed status: `|| exit`, `|| { rc=$?; log; exit $rc; }`),
    one whose status `!` inverts.
    Ranges of `found` are recorded as they are seen and applied once at the end."""

    def __init__(self, found: list[Invocation]) -> None:
        self.found = found
        self.list_start = 0  # where in `found` the current `a && b || c` list began
        self.previous_list = (0, 0)  # the list before the last `;`, newline or `&`
        self.command_start = 0  # where the current simple command's invocation goes
        self.joined_by: str | None = None  # the operator before the current command
        # compound commands open ({ }, ( ), if...fi, loops): the list holding each (where it began),
        # whether it came after `||`, and the opening word
        self.opened: list[tuple[int, bool, str]] = []
        self.condition = False  # between `if`/`while`/`until` and `then`/`do`: a status the shell tests
        self.succeeded = False  # the last command was `true`, `:` or `exit 0`, not reached by `&&`
        self.last_alone = False  # ... and it began a list of its own, outside any compound command
        self.exits_early = False  # `set -e` or an `exec`: a failure ends the hook there
        self.pipefail = False  # `set -o pipefail`: a pipeline fails with the last of its commands that failed
        self.in_branch = False  # the current command follows `then`, `else`, `do`...
        self.negated = False  # the current pipeline starts with `!`: its status is inverted, 2 becomes 0
        # the command after the last `||`, while it runs: which `undecided` range the `||` made, and how
        # many compound commands were open before it (a `{ ...; }` after the `||` is one command)
        self.fallback: tuple[int, int] | None = None
        self.tolerated: list[tuple[int, int]] = []
        self.undecided: list[tuple[int, int]] = []

    def keywords(self, words: list[str]) -> None:
        self.in_branch = bool(words) and words[0] in BRANCH_WORDS  # `; then`, `; else`: no new command
        self.negated = "!" in words
        for word in words:
            self._open_or_close(word)
            self.condition = word in ("if", "elif", "while", "until") or (self.condition and word not in ("then", "do"))

    def command(self, words: list[Word], raw: list[Word]) -> None:
        """A simple command, without its keywords, wrappers and redirections (`raw`: with them)."""
        if not words:
            return
        self.command_start = len(self.found)
        if self.negated:  # (`! guard.sh`: its exit 2 becomes 0)
            self.undecided.append((self.command_start, self.command_start + 1))
            self.negated = False
        if self.joined_by in (";", "\n", "&", ";;") and not (self.in_branch or self.exits_early):
            self.undecided.append(self.previous_list)  # the list before it no longer decides the status
        self.succeeded = _succeeds(words) and self.joined_by != "&&"
        if self.fallback is not None and passes_status_on(words, first=self.joined_by == "||"):  # `|| exit $rc`
            self.undecided[self.fallback[0]] = (0, 0)
        if self.succeeded and self.joined_by == "||":
            self._tolerate(self.list_start)
        self.last_alone = self.succeeded and not self.opened and self.joined_by in (None, ";", "\n", "&")
        errexit, pipefail = shell_options([w.text for w in words[1:]]) if words[0].text == "set" else (None, None)
        if errexit or (raw and raw[0].text == "exec" and not raw[0].quoted):
            self.exits_early = True
        if pipefail is not None:
            self.pipefail = pipefail

    def tested(self, inv: Invocation) -> Invocation:
        return inv._replace(tolerated=True) if self.condition else inv

    def operator(self, token: str) -> None:
        self.in_branch = False
        self._open_or_close(token)  # a subshell's ( and )
        if token == "&":  # in the background: its exit status is nobody's
            self._tolerate(self.list_start)
        if token in ("|", "|&") and not self.pipefail:  # (under pipefail, a guard's exit 2 piped into `tee` is the pipeline's)
            self.undecided.append((self.command_start, len(self.found)))
        elif self.fallback is not None and len(self.opened) <= self.fallback[1]:
            self.fallback = None  # the command after the `||` has ended
        if token == "||":
            self.undecided.append((self.list_start, len(self.found)))
            self.fallback = (len(self.undecided) - 1, len(self.opened))
        if token in (";", "\n", "&", ";;"):
            self.previous_list = (self.list_start, len(self.found))
            self.list_start = len(self.found)
        self.joined_by = token

    def finish(self) -> None:
        """Apply what was seen to the invocations."""
        if self.last_alone and not self.exits_early:
            self._tolerate(0)
        if not (self.tolerated or self.undecided):
            return
        tolerated, undecided = _covered(self.tolerated, len(self.found)), _covered(self.undecided, len(self.found))
        for index, inv in enumerate(self.found):
            if (tolerated[index] and not inv.tolerated) or undecided[index]:
                self.found[index] = inv._replace(tolerated=inv.tolerated or tolerated[index],
                                            sets_status=not undecided[index])

    def _open_or_close(self, token: str) -> None:
        if token in COMPOUND_OPENERS:
            self.opened.append((self.list_start, self.joined_by == "||", token))
            self.list_start = len(self.found)  # inside, a list of its own
        elif token in COMPOUND_CLOSERS and self.opened:
            self.list_start, after_or, opener = self.opened.pop()  # the compound is one command of its list
            if opener in ("{", "(") and after_or and self.succeeded:  # `a || { log; exit 0; }`
                self._tolerate(self.list_start)
            if token in ("fi", "done"):  # which branch ran, and whether its last command did, is not known
                self.succeeded = False

    def _tolerate(self, start: int) -> None:
        self.tolerated.append((start, len(self.found)))


def shell_options(words: list[str]) -> tuple[bool | None, bool | None]:
    """(errexit, pipefail) as a `set` command's options or a shell's own flags turn them on (True)
    or off (False), None where they say nothing: `-e`, `-euo pipefail`, `-o errexit`, `+o pipefail`.
    (A shell's flags end at its first operand: the caller passes the words before it.)"""
    errexit: bool | None = None
    pipefail: bool | None = None
    for index, word in enumerate(words):
        if word[:1] not in "-+" or word in ("-", "--", "-c"):
            continue
        on = word[0] == "-"
        named = words[index + 1] if word[1:].endswith(("o",)) and index + 1 < len(words) else ""
        if "e" in word[1:] and word[1:].isalpha():
            errexit = on
        if named == "pipefail":
            pipefail = on
        elif named == "errexit":
            errexit = on
    return errexit, pipefail


def _covered(ranges: list[tuple[int, int]], size: int) -> list[bool]:
    """For each index below `size`, whether one of the [start, end) ranges holds it."""
    depth, marks = [0] * (size + 1), []
    for start, end in ranges:
        depth[start] += 1
        depth[end] -= 1
    running = 0
    for index in range(size):
        running += depth[index]
        marks.append(running > 0)
    return marks


def passes_status_on(command: list[Word], first: bool) -> bool:
    """After `||`: `exit $rc` (a status saved from `$?`, or any the hook computes) or `exit 2`, and as
    the first command there `exit` or `exit $?` (later, they give the status of what ran before them):
    a failure before the `||` still ends the shell with a blocking status. (Read by the command line's
    model here and by a wrapper script's, scripts/shell_status.py.)"""
    if command[0].text != "exit":  # (a quoted "exit" is still the builtin)
        return False
    if len(command) == 1 or command[1].text in ("$?", "${?}"):
        return first
    return command[1].dynamic is not None or command[1].text == "2"


def _succeeds(command: list[Word]) -> bool:
    """`true`, `:` or `exit 0`: after `||`, the list before it can fail without failing the hook
    (a bare `exit` keeps the failed status)."""
    head, args = command[0].text, [w.text for w in command[1:]]
    return (head in ("true", ":") and not command[0].quoted) or (head == "exit" and args == ["0"])
