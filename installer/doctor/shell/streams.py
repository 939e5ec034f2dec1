"""Where the output of each command of a shell-form hook command goes: its stdout, which carries
a JSON answer to the host, and its stderr, which carries exit 2's reason (Claude Code reads the
reason from stderr and ignores stdout on exit 2: docs/hosts/claude-code.md#exit-codes). Read from
the command's tree (tree.py): redirections of a command and of the compound commands around it
(`> log`, `2>/dev/null`, `2>&1`, `&>`, `>&2`), a lasting `exec 2>/dev/null`, and pipes, where
`tee`, `cat` and `jq` hand the text on and any other command (`logger`, a `while read` loop) takes
it. What the reader cannot parse gives nothing."""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from ...records import Record
from .lex import Unreadable
from .tree import AndOr, Command, parse

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
    the text, which is all it reads: a monorepo whose projects share their hooks parses each once)."""
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
