"""The model shell_status.py reads a shell script's status with, past the premises that tell most
scripts apart at once (shell_status's docstring says what it finds): the script's subshells,
errexit, assignments, traps, `wait`, the children it runs and the input it cuts short. A module
of its own: a run whose hooks give it nothing to follow (most of them) never loads it."""
from __future__ import annotations

import difflib
import fnmatch
import re
import shlex
from typing import Callable, Iterator

from ...hooks.model import cached_property
from ...patterns import lazy
from ...records import Record
from ..shell.fails import Failure, ordinary_failure
from ..shell.lex import AndOr, Command, Pipeline, Unreadable, Word, commands, parse, parsed_once
from ..shell.resolve import SCRIPT_SUFFIXES, passes_status_on, shell_options
from .delivery import Joined, Lost
from .shell_status import BLOCKS, DECIDES, INTERPRETERS, RUNNERS

MASKING = frozenset({"local", "export", "declare", "typeset", "readonly"})
ERREXIT_FLAG = lazy(r"-[a-zA-Z]*e[a-zA-Z]*$")
STEP = lazy(r"^[A-Za-z_]\w*(?:\+\+|--)$|^(?:\+\+|--)[A-Za-z_]\w*$")  # n++: its value before the step
COMPARISON = lazy(r"[<>]|==|!=")
ASSIGNS = lazy(r"(?<![=!<>])=(?!=)|\+\+|--")
STATUS_READ = lazy(r"\$\?|\$\{\?\}|PIPESTATUS", needs=("$?", "${?}", "PIPESTATUS"))
PROCESS_FED = lazy(r"\bdone\s*<\s*<\(([^()\n]*(?:\([^()\n]*\)[^()\n]*)*)\)")  # `done < <(find ...)`
INLINE_STDIN = lazy(r"sys\.stdin|process\.stdin|readFileSync\(\s*0|/dev/stdin|\bSTDIN\b|\$stdin")
# a test of a status for one value: `[ $? -eq 1 ]`, `[ "$rc" = 1 ]`, `(( rc == 1 ))`, `[[ $status == 1 ]]`
STATUS_EQUALS = lazy(r"""(?:\$\{?\?\}?|\$\{?(?P<name>[A-Za-z_]\w*)\}?|(?<![\w$])(?P<bare>[A-Za-z_]\w*))["']?\s*(?:-eq|==?)\s*["']?(?P<value>\d+)\b""",
                     needs=("-eq", "="))
ELSE = lazy(r"\belse\b", needs=("else",))
ANY_FAILURE = lazy(r"-ne|-gt|!=|-ge")  # a test of a status for any failure
LOOP_WORDS = lazy(r"([^;\n]*?)\s*(?:;|\n)\s*do\b")  # a `for` loop's words, up to its `do`
EXIT_VARIABLE = lazy(r"exit[ \t]+\$(?:\{(?P<braced>[A-Za-z_]\w*)\}|(?P<name>[A-Za-z_]\w*))(?=[ \t]*(?:$|[;&|#)]))",
                     re.M, needs=("exit",))  # `exit $rc` unquoted: an empty rc is a bare `exit` ("$rc" empty is an error, status 2)
STATUS_VALUE = lazy(r"\$\{?\?|\$\{?PIPESTATUS|[1-9]\d*$")  # a value that carries a status: $?, PIPESTATUS, 2
# a loop body that looks at a pass's status or leaves the loop: the status may be passed on
LOOP_LOOKS = lazy(r"\$\?|PIPESTATUS|\|\||&&|\b(?:if|exit|return|break|until|while)\b|\bset\s+-\w*e")
WRAPPERS = frozenset({"command", "nohup", "time", "builtin", "stdbuf", "nice"})


class _Where(Record):
    """A statement in the shell's own process, with what holds there."""

    statement: AndOr
    siblings: list[AndOr]  # the list it is in
    position: int
    errexit: int  # offset of the `set -e` in force, or -1
    pipefail: bool
    tested: bool  # in an if/while condition: its status is looked at
    function: str  # the function whose body holds it, "" at the top
    err_trap: tuple[str, int] | None  # an ERR trap that exits: (its status, "" for the failing one; its offset)
    errtrace: bool  # `set -E`: the ERR trap runs inside functions too


class Model:
    def __init__(self, code: str, tree: list[AndOr], place: Callable[[int], tuple[int, int]],
                 errexit_from_start: str = "", outside_git: bool = False) -> None:
        self.code = code
        self.outside_git = outside_git  # the hook runs in a folder that is in no git repository
        # errexit on from the first line: by the #! line ("shebang") or the hook's command (`bash -e`: "flag")
        self.errexit_from_start = errexit_from_start
        shebang_errexit = bool(errexit_from_start)
        self.shebang_errexit = shebang_errexit
        self.tree = tree
        self.place = place
        every = list(commands(tree))
        self.functions = {c.words[0].text: c for c in every if c.kind == "function" and c.words}
        self.lastpipe = any(c.head == "shopt" and "lastpipe" in {w.text for w in c.plain} for c in every)
        self.exiting = self._exiting_functions()
        # the functions whose `return 2` is their block (a call's status is then the script's to pass on)
        self.returning = {name for name, fn in self.functions.items()
                          if name not in self.exiting and any(_return_2(c) for c in _own(fn.lists[0]))}

    @cached_property
    def where(self) -> list[_Where]:
        """Each statement's place in the model, walked on the first ask: cut_input, asked of every
        hook's code, does not walk (cut_short: the corpus tree's command texts walked for nothing)."""
        return list(self._walk(self.tree, _State(0 if self.shebang_errexit else -1, False), False, ""))

    # ---- the model
    def _exiting_functions(self) -> set[str]:
        """The functions that run `exit 2` in the caller's process (directly or through another)."""
        calls = {name: {c.head for c in _own(fn.lists[0])} for name, fn in self.functions.items()}
        exiting = {name for name, fn in self.functions.items() if any(_exit_2(c) for c in _own(fn.lists[0]))}
        changed = True
        while changed:
            changed = False
            for name, called in calls.items():
                if name not in exiting and called & exiting:
                    exiting.add(name)
                    changed = True
        return exiting

    def _blocks(self, command: Command) -> bool:
        return _exit_2(command) or (command.kind == "simple" and command.head in self.exiting)

    def _walk(self, statements: list[AndOr], state: _State, tested: bool, function: str) -> Iterator[_Where]:
        """The statements the script's own process runs, in order, with the errexit and pipefail
        options set by the `set` commands before them."""
        for index, statement in enumerate(statements):
            yield _Where(statement, statements, index, state.errexit, state.pipefail, tested, function, state.err_trap,
                         state.errtrace)
            for pipeline in statement.pipelines:
                last = len(pipeline.commands) - 1
                for position, command in enumerate(pipeline.commands):
                    if last and not (self.lastpipe and position == last):
                        continue  # (a pipeline's part runs in a subshell)
                    if command.kind == "simple" and command.head == "set":
                        state.apply(command)
                    if command.kind == "simple" and command.head == "trap":
                        self._err_trap(command, state)
                    if command.kind in ("subshell", "simple"):
                        continue
                    inner = command.words[0].text if command.kind == "function" else function
                    for number, listed in enumerate(command.lists):
                        yield from self._walk(listed, state, tested or number in command.conditions, inner)

    def _err_trap(self, command: Command, state: _State) -> None:
        """`trap ACTION ERR`: the status its action exits with ("" for a bare `exit`, which keeps
        the failing command's), or no trap where it does not exit."""
        words = [w.text for w in command.plain]
        if len(words) < 3 or "ERR" not in words[2:]:
            return
        state.err_trap = None
        try:
            action = parse(words[1])
        except (Unreadable, RecursionError):
            return
        handlers = [c for c in _own(action)] + [inner for c in _own(action) if c.head in self.functions
                                                 for inner in _own(self.functions[c.head].lists[0])]
        for inner in handlers:
            if inner.kind == "simple" and inner.head == "exit" and not inner.plain[0].quoted:
                status = _exit_status(inner)
                state.err_trap = ("" if status is None and len(inner.plain) == 1 else str(status)
                                  if status is not None else "?", command.at)
                return

    def _line(self, offset: int) -> tuple[int, int]:
        return self.place(offset)

    def _followed_by_status_read(self, where: _Where) -> bool:
        following = where.siblings[where.position + 1] if where.position + 1 < len(where.siblings) else None
        return following is not None and bool(STATUS_READ.search(self.code, following.at, following.end))

    def _passes_on(self, where: _Where) -> bool:
        """The statement's status goes on: `set -e`, a `$?` read next, or the last of its list."""
        return where.errexit >= 0 or self._followed_by_status_read(where) or where.position == len(where.siblings) - 1

    # ---- exit 2 in a subshell
    def subshell_exits(self) -> Iterator[Lost]:
        for where in self.where:
            if where.tested or where.statement.background:
                continue
            statement = where.statement
            for number, pipeline in enumerate(statement.pipelines):
                if number < len(statement.operators) or pipeline.negated:
                    continue  # (`a || exit`, `a && ...`: its status is looked at)
                last = len(pipeline.commands) - 1
                for position, command in enumerate(pipeline.commands):
                    forked = command.kind == "subshell" or (last > 0 and not (position == last and self.lastpipe))
                    reaches = position == last or where.pipefail
                    if forked and command.kind != "simple" and any(
                            self._blocks(c) for listed in command.lists for c in _own(listed)):
                        if not (reaches and self._passes_on(where)):
                            yield self._lost(statement.at, _subshell_how(command, position, last), "exit-in-subshell")
                            return
                    for listed in command.substitutions:
                        last_call = listed[-1].pipelines[-1].commands[-1] if listed and not listed[-1].operators \
                            else None
                        returns = last_call is not None and last_call.head in self.returning and \
                            len(listed[-1].pipelines[-1].commands) == 1
                        if not returns and not any(self._blocks(c) for c in _own(listed)):
                            continue
                        assignment = command.kind == "simple" and all(w.assignment for w in command.plain)
                        kept = command.kind == "simple" and command.head == "exit" and len(command.plain) == 2
                        if not ((assignment or (returns and kept)) and reaches and self._passes_on(where)):
                            what = f"{last_call.head}() returns 2" if returns and last_call is not None else \
                                "the `exit 2` runs"
                            yield self._lost(statement.at, f"{what} inside `$( ... )`, a subshell of its own: it ends "
                                             "that subshell only, its status is not kept, and the script runs on",
                                             "exit-in-subshell")
                            return

    # ---- set -e, an ERR trap that exits
    def errexit_stops(self) -> Iterator[Lost]:
        """Every command that can fail as an ordinary outcome where a failure ends the script
        (`set -e`, or an ERR trap exiting with another status than 2), before a block: an `exit 2`,
        a `return 2`, a JSON decision, or a call of a function that makes one."""
        calls = self._errexit_calls()
        last_point = max(self._block_points(), default=-1)  # (a block after a place: one after it is the last)
        for where in self.where:
            statement = where.statement
            if where.tested or statement.background:
                continue
            pipeline = statement.pipelines[-1]
            if pipeline.negated:
                continue
            stop = self._stop(where, calls)
            if stop is None:
                continue
            after = [statement.end] + ([calls[where.function][1]] if where.function in calls else [])
            if last_point <= min(after):
                continue
            counted = pipeline.commands if where.pipefail else pipeline.commands[-1:]
            failure = next((f for f in (self._fails(c, where.pipefail) for c in counted) if f), None)
            if failure is None or (failure.status == "2" and not stop[1]):
                continue  # (a function's `return 2` under set -e ends the script with 2: its block)
            if failure.subject and any(w.tested and w.statement.at < statement.at and failure.subject in
                                       self.code[w.statement.at:w.statement.end] for w in self.where):
                continue  # (`if git rev-parse --verify -q @{u}; then ... @{u}..HEAD`: tested first)
            how, status = stop
            line, column = self._line(statement.at)
            errexit = calls[where.function][0] if where.function in calls else where.errexit
            here = f"at line {line}" if self.errexit_from_start == "flag" and errexit == 0 else "here"
            yield Lost(line, column, f"{how} {failure.why}, and that ends the script {here} with "
                       f"{'status ' + (status or failure.status) if status or failure.status else 'its status'} "
                       "before it reaches its `exit 2` or its answer", status or failure.status or "1",
                       rule="errexit-exits-early", shebang=errexit == 0 and not status and self.shebang_errexit)

    def _stop(self, where: _Where, calls: dict[str, tuple[int, int]]) -> tuple[str, str] | None:
        """(what ends the script at a failure there, the status it ends with: "" for the failing
        command's), or None where a failure does not end it, or ends it with 2."""
        trap = where.err_trap if not where.function or where.errtrace else None
        if trap is not None:
            status, at = trap
            if status == "2":
                return None  # (fails closed)
            return f"the ERR trap (line {self._line(at)[0]}) exits {'with ' + status if status else 'then'}, and", \
                status if status != "?" else ""
        if where.function and where.function not in calls:
            return None
        errexit = calls[where.function][0] if where.function else where.errexit
        if errexit < 0:
            return None
        if errexit == 0 and self.errexit_from_start == "flag":
            return f"under it{' (in ' + where.function + '() too)' if where.function else ''}", ""
        line = self._line(errexit)[0] if errexit > 0 else 1
        inside = f" (which {where.function}() runs under, called at line {self._line(calls[where.function][1])[0]})" \
            if where.function else ""
        return f"under `set -e` (line {line}){inside}", ""

    def _errexit_calls(self) -> dict[str, tuple[int, int]]:
        """The functions a failure ends the script in: called (directly or through another) from
        where errexit is in force and not ignored (not in a condition, before `&&`/`||`, after
        `!`): name -> (the errexit offset, the offset of the call from the top)."""
        found: dict[str, tuple[int, int]] = {}
        changed = True
        while changed:
            changed = False
            for where in self.where:
                statement = where.statement
                if where.tested or statement.background or (where.function and where.function not in found):
                    continue
                errexit, at = found[where.function] if where.function else (where.errexit, statement.at)
                pipeline = statement.pipelines[-1]
                if errexit < 0 or pipeline.negated or len(pipeline.commands) != 1:
                    continue
                command = pipeline.commands[0]
                if command.kind == "simple" and command.head in self.functions and command.head not in found:
                    found[command.head] = (errexit, at)
                    changed = True
        return found

    def _block_points(self) -> list[int]:
        """Where the script refuses: an `exit 2`/`return 2`, a JSON decision, a call of a function
        that does either."""
        points = [m.start() for m in BLOCKS.finditer(self.code)] + [m.start() for m in DECIDES.finditer(self.code)]
        deciding: set[str] = set()
        for name, fn in self.functions.items():
            end = _end(fn.lists)
            if BLOCKS.search(self.code, fn.at, end) or DECIDES.search(self.code, fn.at, end):
                deciding.add(name)
        changed = True
        while changed:
            changed = False
            for name, fn in self.functions.items():
                if name not in deciding and {c.head for c in commands(fn.lists[0])} & deciding:
                    deciding.add(name)
                    changed = True
        points += [c.at for c in commands(self.tree) if c.kind == "simple" and c.head in deciding]
        return points

    def _fails(self, command: Command, pipefail: bool) -> Failure | None:
        """Why a command's failure is an ordinary outcome, or None."""
        if command.kind == "arith":
            text = "".join(w.text for w in command.words)
            if COMPARISON.search(text) and not ASSIGNS.search(text):
                return Failure(f"`(( {' '.join(w.text for w in command.words)} ))` as a command fails with 1 when "
                               "false", "1")
            return Failure(f"`(({text}))` is 0, and so fails, when the value before the step is 0", "1") \
                if STEP.match(text) and self._may_be_0(text.strip("+-"), command.at) else None
        if command.kind != "simple":
            return None
        head = "" if all(w.assignment for w in command.plain) else command.head
        if head == "let" and any(STEP.match(w.text) and self._may_be_0(w.text.strip("+-"), command.at)
                                 for w in command.plain[1:]):
            return Failure("`let` fails when its last value is 0, as `n++` from 0 is", "1")
        if head in self.functions and head not in self.exiting:
            body = self.functions[head].lists[0]
            inner = body[0].pipelines[0].commands[0].lists[0] if body and body[0].pipelines[0].commands[0].lists else []
            if inner and inner[-1].operators and inner[-1].operators[-1] == "&&":
                return Failure(f"{head}() ends with `... && ...`, which returns 1 when its test is false", "1")
            if any(_return_2(c) for c in _own(body)):
                return Failure(f"{head}() returns 2 (its block)", "2")
        if head and head not in self.functions:  # (`IFS= read -r -d '' x`: the command after its assignments)
            failure = ordinary_failure([w.text for w in command.plain[next(
                i for i, w in enumerate(command.plain) if not w.assignment):]], self.outside_git)
            if failure is not None:
                return failure
        if command.substitutions and all(w.assignment for w in command.plain):
            for listed in command.substitutions:
                if listed and listed[-1].pipelines and not listed[-1].pipelines[-1].negated:
                    inner_pipeline = listed[-1].pipelines[-1]
                    counted = inner_pipeline.commands if pipefail else inner_pipeline.commands[-1:]
                    failure = next((f for f in (self._fails(c, pipefail) for c in counted) if f), None)
                    if failure and not listed[-1].operators:
                        return failure._replace(why=f"the assignment takes the status of its `$( )`, where "
                                                    f"{failure.why}")
        return None

    def _may_be_0(self, name: str, before: int) -> bool:
        """The variable is unset or 0 as far as the last literal assignment before `before` says."""
        values = re.findall(rf"(?<![\w$]){re.escape(name)}=(\d+)\b", self.code[:before])
        return not values or int(values[-1]) == 0

    # ---- local x=$(...); $?
    def masked(self) -> Iterator[Lost]:
        for where in self.where:
            statement = where.statement
            if len(statement.pipelines) != 1 or len(statement.pipelines[0].commands) != 1:
                continue
            command = statement.pipelines[0].commands[0]
            if command.kind != "simple" or command.head not in MASKING or not command.substitutions:
                continue
            if self._followed_by_status_read(where):
                yield self._lost(statement.at, f"`{command.head}` gives `$?` its own status (0), not the status of "
                                 "the `$( ... )` it assigns, so the `$?` read on the next line never sees a failure",
                                 "status-masked")
                return

    # ---- EXIT traps calling a function
    def traps(self) -> Iterator[Lost]:
        for command in commands(self.tree):
            words = [w.text for w in command.plain]
            if command.head != "trap" or len(words) < 3 or not {"EXIT", "0"} & set(words[2:]):
                continue
            handler = self.functions.get(words[1].strip())
            if handler is None:
                continue
            for inner in _own(handler.lists[0]):
                status = _exit_status(inner)
                if status is not None and status != 2:
                    yield self._lost(inner.at, f"the EXIT trap (line {self._line(command.at)[0]}) runs {words[1]}(), "
                                     f"whose `exit {status}` here replaces the status the script ends with, an exit 2 "
                                     "included", "exit-2-lost", status=str(status))
                    return

    # ---- a bare wait
    def bare_wait(self) -> Iterator[Lost]:
        if not self.tree:
            return
        final = self.tree[-1]
        command = final.pipelines[-1].commands[-1]
        if len(final.pipelines) != 1 or command.kind != "simple" or [w.text for w in command.plain] != ["wait"]:
            return
        started = [c for c in commands(self.tree[:-1]) if (_child(c) is not None or any(
            w.text.endswith(SCRIPT_SUFFIXES) for w in c.plain[:2])) and _in_background(c, self.tree)]
        looped = any(c.kind in ("for", "while", "until") and any(s.background for listed in c.lists for s in listed)
                     for c in commands(self.tree[:-1]))
        if started and (looped or len(started) > 1):  # (checks run side by side, not one notifier let go)
            yield self._lost(final.at, f"the bare `wait` returns 0 whatever the commands started with `&` (line "
                             f"{self._line(started[0].at)[0]}) exit with, and it is the script's last command",
                             "exit-2-lost", status="0")

    # ---- a child the script runs, named by a variable or its arguments
    def wrapped(self) -> Iterator[Lost]:
        """A child (`"$@"`, `"$DIR/$1"`, `$PY "$script"`), or a function whose block is its `return
        2`, whose status is not the script's: piped on without pipefail, behind `||`, or followed by
        commands that set the status. The child is judged by whoever knows what the arguments name
        (checks/delivery.py)."""
        for where in self.where:
            statement = where.statement
            if where.tested or statement.background or where.function:
                continue
            for number, pipeline in enumerate(statement.pipelines):
                last = len(pipeline.commands) - 1
                for position, command in enumerate(pipeline.commands):
                    child = _child(command)
                    returning = command.kind == "simple" and command.head in self.returning
                    if (child is None or child[1]) and not returning:  # (exec: the child's status is the process's)
                        continue
                    how, at = self._dropped(where, number, position, last)
                    if how and returning:
                        yield self._lost(at or command.at, f"the script calls {command.head}() here, whose `return 2` "
                                         f"is its block, and {how}", "exit-2-lost")
                        return
                    if how and child is not None:
                        yield self._lost(at or command.at, f"the wrapper runs {child[0]} {'here' if at is None else 'on line ' + str(self._line(command.at)[0])} and {how}",
                                         "exit-2-lost", child=child[0])
                        return

    def run_by_a_runner(self) -> Iterator[Lost]:
        """Guards run by a program that runs many and ends with a status of its own (GNU findutils
        4.9.0 and Debian run-parts 5.7, measured): `xargs` ends 123 when a command it ran exits 1 to
        125 (a guard's 2 included), `find ... -exec CMD {} \\;` ends 0 whatever the commands
        exit, `run-parts DIR` ends 1. The children are the files the
        runner is given (`run-parts DIR`: DIR/*; `find DIR -name PATTERN`: DIR/PATTERN; xargs: what
        the pipeline's first part lists)."""
        if not RUNNERS.search(self.code):
            return  # (no runner named: each command's head is not written out to find none)
        for where in self.where:
            if where.tested or where.statement.background:
                continue
            for pipeline in where.statement.pipelines:
                for position, command in enumerate(pipeline.commands):
                    ran = _runner(command, pipeline.commands[0] if position else None, self._written)
                    if ran is not None:
                        runner, children, status = ran
                        yield self._lost(command.at, f"{runner} runs each guard and ends with {status} when one of "
                                         "them exits 2: the host never sees the refusal", "exit-2-lost", status=status,
                                         child=children)
                        return

    def _written(self, word: Word) -> str:
        """A word as the script writes it, quotes removed (`"$(dirname "$0")/pre.d"`: the tree keeps
        only `$(...)/pre.d`), for keys.with_own_folder to write the folder in."""
        if word.at < 0:
            return word.text
        end = self.code.find("\n", word.at)
        lexer = shlex.shlex(self.code[word.at:end if end >= 0 else len(self.code)], posix=True)
        lexer.whitespace_split = True
        try:
            return next(iter(lexer), word.text)
        except ValueError:
            return word.text

    def mapped(self) -> Iterator[Lost]:
        """A child's status mapped by a `case` on it (`"$BIN"; case $? in 0) exit 0;; 1) exit 2;; *)
        exit 0;; esac`, or `rc=$?` and `case $rc in`): the arm a status of 2 takes (its own `2)` or a
        catch-all after the ones that block) exits with another status, or no arm takes it and the
        script ends with the case's 0. The child is named for checks/delivery.py, which reports it
        where the child refuses by exit 2 (a script's `exit 2`, a compiled guard's source)."""
        for where in self.where:
            statement = where.statement
            if where.tested or len(statement.pipelines[0].commands) != 1 or where.position == 0:
                continue
            case = statement.pipelines[0].commands[0]
            if case.kind in ("if", "simple", "arith") and where.siblings is self.tree:
                found = next(self._tested_for_another(where), None)
                if found is not None:
                    yield found
                    return
                continue
            if case.kind != "case" or not case.words or statement.operators:
                continue
            subject = case.words[0].text.strip('"')
            source = self._status_of(where, "" if subject in ("$?", "${?}") else subject.strip("${}"))
            if source is None:
                continue
            run, child = source
            taken = next((i for i, patterns in enumerate(case.patterns)
                          if any(fnmatch.fnmatchcase("2", p.text.strip("\"'")) for p in patterns)), None)
            exits = [[c for c in _own(listed) if c.kind == "simple" and c.head == "exit"] for listed in case.lists]
            if not any(_exit_2(c) for arm in exits for c in arm):
                continue  # (a case that never blocks: not a mapping to the host's exit 2)
            if taken is None:
                how = f"no arm of the `case` on its status takes a 2, so {child[0]}'s refusal ends the `case` with 0"
                yield self._lost(case.at, how, "exit-2-lost", status="0", child=child[0])
                return
            other = next((c for c in exits[taken] if not _exit_2(c)), None)
            if other is None or any(_exit_2(c) for c in exits[taken]):
                continue
            status = _exit_status(other)
            label = "|".join(p.text for p in case.patterns[taken])
            yield self._lost(other.at, f"the `case` on the status of {child[0]} (line {self._line(run.at)[0]}) maps "
                             f"its 2 to the arm `{label})`, which exits {status if status is not None else 'with another status'} "
                             "here: the host never sees the refusal", "exit-2-lost",
                             status=str(status) if status is not None else "0", child=child[0])
            return

    def _status_of(self, where: _Where, name: str) -> tuple[Command, tuple[str, bool]] | None:
        """(the command, the child) whose status a statement reads: the statement before it, for
        `$?` (name ""), or the one before `name=$?` right before it."""
        before = where.siblings[where.position - 1]
        if name:
            store = before.pipelines[0].commands[0] if len(before.pipelines) == 1 else None
            if store is None or store.kind != "simple" or len(store.plain) != 1 or where.position < 2 or \
                    store.plain[0].text.strip('"') not in (f"{name}=$?", f"{name}=${{?}}"):
                return None
            before = where.siblings[where.position - 2]
        if before.operators or before.background:
            return None
        run = before.pipelines[-1].commands[-1]
        child = _child(run) or _script_run(run) or _program(run)
        return (run, child) if child is not None else None

    def _tested_for_another(self, where: _Where) -> Iterator[Lost]:
        """`guard; if [ $? -eq 1 ]; then exit 2; fi` (or `rc=$?` first, or `[ "$rc" = 1 ] && exit 2`):
        the wrapper blocks only for another status than 2, so the child's own 2 goes on to the
        script's end."""
        statement = where.statement
        text = self.code[statement.at:statement.end]
        compared = STATUS_EQUALS.search(text)
        if compared is None or compared.group("value") in ("0", "2") or not BLOCKS.search(text) or "||" in text \
                or ELSE.search(text):
            return  # (`[ $? -eq 0 ] || exit 2`: any failure blocks)
        name = compared.group("name") or ""
        if name and (re.search(rf"\$\{{?{name}\b\}}?\W{{0,3}}(?:-ne|-gt|-ge|!=|-eq\s*\W?2\b|==?\s*\W?2\b)|"
                               rf"\bexit\s+\W?\$\{{?{name}\b", self.code[statement.end:]) or ANY_FAILURE.search(text)):
            return  # (its status is passed on or tested for any failure later)
        source = self._status_of(where, name)
        if source is None:
            return
        run, child = source
        yield self._lost(statement.at, f"the test on the status of {child[0]} (line {self._line(run.at)[0]}) blocks "
                         f"only when it is {compared.group('value')}, so its 2 goes on past it, and the script ends "
                         "with another status", "exit-2-lost", status="0", child=child[0])

    def returns_dropped(self) -> Iterator[Lost]:
        """A function whose block is its `return 2` (`deny() { echo ... >&2; return 2; }`), called
        inside an if, case or `{ }` (the top level's calls are wrapped()'s) with nothing after the
        call that passes its status on (`|| exit $?`, `exit $?`, errexit), and commands after the
        compound that set the status the script ends with: `return` ends only the function, the
        script runs on (bash 5.2 and dash). At the `return 2`, where `exit 2` is the fix."""
        if not self.returning:
            return
        owners: dict[int, _Where] = {}  # a compound's list -> the statement that holds the compound
        for where in self.where:
            for pipeline in where.statement.pipelines:
                for command in pipeline.commands:
                    for listed in command.lists:
                        owners[id(listed)] = where
        for where in self.where:
            statement = where.statement
            if where.tested or where.function or statement.background or where.siblings is self.tree \
                    or where.errexit >= 0 or statement.operators or len(statement.pipelines[0].commands) != 1:
                continue
            call = statement.pipelines[0].commands[0]
            if call.kind != "simple" or call.head not in self.returning or statement.pipelines[0].negated:
                continue
            decides = self._status_kept(where, owners)
            if decides is None:
                continue
            function = self.functions[call.head]
            back = next(c for c in _own(function.lists[0]) if _return_2(c))
            yield self._lost(back.at, f"`return 2` ends only {call.head}(): the call on line "
                             f"{self._line(call.at)[0]} does not pass its status on, and {decides}",
                             "exit-2-lost", status="0")
            return

    def _status_kept(self, where: _Where, owners: dict[int, _Where]) -> str | None:
        """How a nested statement's status is replaced on its way to the script's end (what sets the
        status instead, in a few words), or None where it may reach it: the last of each list up to
        the top level's last statement, or read by a `$?` right after it."""
        while True:
            if self._followed_by_status_read(where) or where.errexit >= 0:
                return None
            if where.position < len(where.siblings) - 1:
                following = where.siblings[where.position + 1]
                return f"the commands after it (line {self._line(following.at)[0]}) set the status the script ends with"
            if where.siblings is self.tree:
                return None
            owner = owners.get(id(where.siblings))
            if owner is None or owner.tested or owner.function or owner.statement.operators:
                return None
            where = owner

    def looped(self) -> Iterator[Lost]:
        """A top-level `for` loop that runs a child named by its variable on each pass (`for g in
        "$DIR"/guards/*.sh; do "$g"; done`, `for g in a.sh b.sh; do "$DIR/$g" <<<"$in"; done`) where
        nothing from the child's statement on looks at a pass's status (no `$?`, `||`, `if`, exit or
        break; a `[ -x "$g" ] || continue` before it does not count), or only stores it anew each
        pass (`"$g"; rc=$?` ... `exit $rc`): the loop's status (or the stored one) is its last
        pass's, so an earlier child's exit 2 is replaced by the next one's 0 (bash 5.2 and dash)."""
        for where, loop in self._top_level_compounds():
            statement = where.statement
            texts = [w.text for w in loop.items]
            arguments = loop.kind == "for" and (len(texts) == 1 or texts[1:] in (["in", "$@"], ["in", "$*"]))
            if loop.kind != "for" or (len(texts) < 3 or texts[1] != "in") and not arguments or not loop.lists:
                continue
            # (`for g; do` and `for g in "$@"` go over the script's arguments: the handler's command names them)
            items = ["$1", "$2"] if arguments else \
                self._as_written(loop) if any(w.dynamic for w in loop.items[2:]) else texts[2:]
            if len(items) < 2 and "*" not in items[0] if items else True:
                continue
            variable = re.compile(rf"\$(?:{re.escape(texts[0])}\b|\{{{re.escape(texts[0])}\}})")
            body = loop.lists[0]
            for index, inner in enumerate(body):
                command = inner.pipelines[0].commands[-1]
                child = _child(command)
                if child is None or not variable.search(child[0]) or inner.background:
                    continue
                line = self._line(loop.at)[0]
                failed_into = _stored_on_failure(inner)
                stored = self._stored_each_pass(body[index + 1:], statement) if failed_into is None else None
                if failed_into is not None:  # (`"$g" || rc=$?`: the last failing pass's status, or the loop's 0)
                    if LOOP_LOOKS.search(self.code, inner.end, statement.end):
                        break
                    if re.search(rf"\$(?:{re.escape(failed_into)}\b|\{{{re.escape(failed_into)}\b)", self.code[statement.end:]):
                        break  # (read after the loop: `exit $rc` hands on the last failure, a 2 unless a later one fails)
                    how = (f"`{failed_into}` keeps a failing pass's status, but nothing after the `for` loop (line {line}) "
                           "reads it: the loop ends with its last pass's 0, and so does the script")
                elif stored is None and LOOP_LOOKS.search(self.code, inner.at, statement.end):
                    break
                elif stored is not None:
                    how = (f"each pass of the `for` loop (line {line}) stores the status of the child it runs in "
                           f"`{stored[1]}` anew, and the `exit` after the loop passes on the last pass's: an earlier "
                           "one's exit 2 is replaced by the next one's 0")
                else:
                    how = (f"each pass of the `for` loop (line {line}) runs the next child here, and the loop ends "
                           "with the last pass's status: an earlier one's exit 2 is replaced by the next one's 0")
                for item in items:
                    yield self._lost(stored[0].at if stored is not None else command.at, how, "exit-2-lost",
                                     status="0", child=variable.sub(item.replace("\\", "\\\\"), child[0]))
                return

    def read_looped(self) -> Iterator[Lost]:
        """A top-level `while read -r g` loop over a listing of guards (`ls DIR/*.sh | while ...`,
        `done < <(find DIR -name '*.sh')`) that runs `"$g"` (or `bash "$g"`) on each pass and,
        from the child on, never looks at a pass's status: the loop ends with its last pass's (bash
        5.2), and the pipeline or the script with it, so an earlier guard's 2 is replaced."""
        for where in self.where:
            statement = where.statement
            if where.siblings is not self.tree or where.errexit >= 0 or where.err_trap is not None \
                    or statement.operators or statement.background:
                continue
            pipeline = statement.pipelines[0]
            loop = pipeline.commands[-1]
            if loop.kind != "while" or len(loop.lists) < 2 or (len(pipeline.commands) > 1 and where.pipefail):
                continue
            reads = [[w for w in c.plain if not w.assignment] for c in _own(loop.lists[0]) if c.kind == "simple"]
            reads = [words for words in reads if words and words[0].text == "read"]  # (`IFS= read -r g`)
            names = [w.text for w in reads[0][1:] if not w.text.startswith("-")] if len(reads) == 1 else []
            if len(names) != 1:
                continue
            source = self._listing(pipeline, statement)
            if not source:
                continue
            variable = re.compile(rf"\$(?:{re.escape(names[0])}\b|\{{{re.escape(names[0])}\}})")
            for inner in loop.lists[1]:
                command = inner.pipelines[0].commands[-1]
                child = _child(command)
                if child is None or not variable.search(child[0]) or inner.background:
                    continue
                if LOOP_LOOKS.search(self.code, inner.at, _end(loop.lists)):
                    break
                yield self._lost(command.at, f"each pass of the `while read` loop (line {self._line(loop.at)[0]}) "
                                 "runs the next guard here, and the loop ends with the last pass's status: an earlier "
                                 "one's exit 2 is replaced by the next one's 0", "exit-2-lost", status="0",
                                 child=variable.sub(source.replace("\\", "\\\\"), child[0]))
                return

    def _listing(self, pipeline: Pipeline, statement: AndOr) -> str:
        """The files a `while read` loop is given, as a pattern: what the pipeline's first part
        lists (`ls DIR/*.sh`, `find DIR -name '*.sh'`), or the `done < <(...)` after it."""
        if len(pipeline.commands) > 1:
            first = pipeline.commands[0]
            words = [self._written(w) for w in first.plain] if first.kind == "simple" else []
        else:
            fed = PROCESS_FED.search(self.code, statement.at, statement.end)
            try:
                words = shlex.split(fed.group(1)) if fed else []
            except ValueError:
                return ""
        if not words:
            return ""
        if words[0] == "find":
            return _found(words)
        return next((w for w in words[1:] if "*" in w), "") if words[0] in ("ls", "printf", "echo") else ""

    def _stored_each_pass(self, after: list[AndOr], loop: AndOr) -> tuple[AndOr, str] | None:
        """(the statement, the name) where a loop's body stores the status of the child run just
        before in a name (`rc=$?`), the rest of the body looks at no status, and an `exit` after
        the loop passes that name on: each pass overwrites it."""
        if not after or len(after[0].pipelines) != 1:
            return None
        store = after[0].pipelines[0].commands[0]
        if store.kind != "simple" or len(store.plain) != 1 or not store.plain[0].assignment:
            return None
        name, _, value = store.plain[0].text.partition("=")
        if value.strip('"') not in ("$?", "${?}") or LOOP_LOOKS.search(self.code, after[0].end, loop.end):
            return None
        tail = self.code[loop.end:]
        passed = re.search(rf"\bexit[ \t]+\"?\$(?:{re.escape(name)}\b|\{{{re.escape(name)}\}})", tail)
        return (after[0], name) if passed is not None else None

    def shared_in_loop(self) -> Iterator[Lost]:
        """A top-level `for` loop over several children, run before the script has read its stdin
        and without giving them the input (`for g in a.sh b.sh; do "$DIR/$g"; done`): the first
        pass's child is given the hook's stdin and reads it to its end, each later one reads
        nothing (bash 5.2, measured: the second pass's `$(cat)` is empty)."""
        read_before = None
        for where, loop in [*self._top_level_compounds(), (None, None)]:
            if where is None or loop is None:
                return
            texts = [w.text for w in loop.items]
            arguments = loop.kind == "for" and (len(texts) == 1 or texts[1:] in (["in", "$@"], ["in", "$*"]))
            if loop.kind == "for" and loop.lists and read_before is None and (arguments or len(texts) >= 4 or
                                                                            any("*" in t for t in texts[2:])):
                variable = re.compile(rf"\$(?:{re.escape(texts[0])}\b|\{{{re.escape(texts[0])}\}})")
                for inner in loop.lists[0]:
                    command = inner.pipelines[0].commands[0]
                    child = _child(command)
                    if child is None or not variable.search(child[0]) or inner.background or _given_input(command) \
                            or ("<", "/dev/null") in command.redirections or loop.redirects:
                        continue
                    named = variable.sub("$1", child[0]) if arguments else None
                    items = ["$1"] if arguments else self._as_written(loop) if any(
                        w.dynamic for w in loop.items[2:]) else texts[2:]
                    line = self._line(loop.at)[0]
                    for item in items:
                        each = named or variable.sub(item.replace("\\", "\\\\"), child[0])
                        yield self._lost(command.at, f"each pass of the `for` loop (line {line}) starts its child here "
                                         "with the hook's own stdin: the first reads the input to its end, and every "
                                         "child after it reads nothing", "stdin-not-passed", child=each,
                                         status="")._replace(first=each)
                    return
            if read_before is None:
                read_before = next((c for c in commands([where.statement]) if c.kind == "simple" and _reads_stdin(c)),
                                   None)

    def _top_level_compounds(self) -> Iterator[tuple[_Where, Command]]:
        """The statements of the script's top level that are one command alone, where no errexit
        or ERR trap would end the script at a failure inside them."""
        for where in self.where:
            statement = where.statement
            if where.siblings is self.tree and where.errexit < 0 and where.err_trap is None and \
                    len(statement.pipelines) == 1 and len(statement.pipelines[0].commands) == 1:
                yield where, statement.pipelines[0].commands[0]

    def tested_children(self) -> Iterator[Lost]:
        """A top-level `if` whose condition is a child alone (`if ! "$DIR/guard.sh"; then echo
        refused >&2; fi`), where the branch that runs when the child fails ends with no exit of a
        failing status: the `if` ends with that branch's status (or 0), not the child's 2."""
        for _, test in self._top_level_compounds():
            if test.kind != "if" or len(test.lists) < 2 or len(test.lists[0]) != 1:
                continue
            condition = test.lists[0][0]
            if len(condition.pipelines) != 1 or len(condition.pipelines[0].commands) != 1:
                continue
            child = _child(condition.pipelines[0].commands[0])
            if child is None:
                continue
            negated = condition.pipelines[0].negated
            failing = test.lists[1] if negated else (test.lists[2] if len(test.lists) == 3 else [])
            if any(c.head in ("exit", "return") and (len(c.plain) == 1 or c.plain[1].text != "0")
                   for c in _own(failing)):
                continue
            line = self._line(test.at)[0]
            yield self._lost(test.at, f"the `if` on line {line} tests {child[0]}, and when it refuses the branch that "
                             "runs ends with no exit of its own: the `if` ends with that branch's status, not the "
                             "child's 2", "exit-2-lost", status="0", child=child[0])
            return

    def _as_written(self, loop: Command) -> list[str]:
        """A `for` loop's words as written, quotes removed (`"$(dirname "$0")"/guards/*.sh`: the
        tree keeps only `$(...)/guards/*.sh`), for keys.with_own_folder to write the folder in."""
        match = LOOP_WORDS.match(self.code, loop.items[2].at)
        try:
            return shlex.split(match.group(1)) if match else []
        except ValueError:
            return []

    def unset_status(self) -> Iterator[Lost]:
        """`exit $rc` at the top level where the script's own process holds no status in rc: a
        misspelt name, a name set only in a subshell (a pipeline's `while` loop, `( )`, `$( )`) or
        only as a function's `local`. `exit` with an empty word is a bare `exit`, which ends with the
        status of the command before it (bash 5.2 and dash: `false; echo x; exit $unset` exits 0)."""
        if EXIT_VARIABLE.search(self.code) is None:
            return  # (no `exit $name` anywhere: the script's assignments are not gathered)
        own: dict[str, list[str]] = {}
        for command in _own(self.tree):
            for name in _assigned(command):
                own.setdefault(name, []).append(self._value(name, command))
        local: dict[str, Command] = {}
        for fn in self.functions.values():
            declared: set[str] = set()  # (a name declared local stays the function's for its later assignments)
            for command in _own(fn.lists[0]):
                for name in _assigned(command):
                    if command.head in ("local", "declare", "typeset"):
                        local.setdefault(name, command)
                        declared.add(name)
                    elif name not in declared:
                        own.setdefault(name, []).append(self._value(name, command))
        anywhere: dict[str, list[Command]] = {}
        for command in commands(self.tree):
            for name in _assigned(command):
                anywhere.setdefault(name, []).append(command)
        sources = any(c.head in ("source", ".") for c in commands(self.tree))
        for command in _own(self.tree):
            match = EXIT_VARIABLE.match(self.code, command.at) if command.head == "exit" else None
            if match is None:
                continue
            name = match.group("braced") or match.group("name")
            values = own.get(name, [])
            elsewhere = [c for c in anywhere.get(name, ()) if STATUS_VALUE.match(self._value(name, c))]
            if values and not (elsewhere and all(v in ("0", "") for v in values)):
                continue
            if name in local:
                how = f"`{name}` is set only as a local of a function (line {self._line(local[name].at)[0]}), so " \
                      "it is empty here"
            elif elsewhere:
                subshell = next(s for s in self.tree if s.at <= elsewhere[0].at <= s.end)
                how = f"`{name}` gets its status on line {self._line(elsewhere[0].at)[0]} in the subshell this starts " \
                      f"(a pipeline's part, `( )` or `$( )`), which the script's own variable never sees, so the " \
                      f"`exit ${name}` on line {self._line(command.at)[0]} finds it " + \
                      ("still 0" if values else "empty")
                if not values:
                    how += ", and `exit` with no number ends with the status of the command before it"
                yield self._lost(subshell.at, how, "exit-2-lost", status="0")
                return
            else:
                close = [n for n in own if any(STATUS_VALUE.match(v) for v in own[n])]
                near = difflib.get_close_matches(name, close, n=1, cutoff=0.7)
                if sources or not near:
                    continue
                how = f"`{name}` is set nowhere in the script (`{near[0]}` is): it is empty here"
            if not values:
                how += ", and `exit` with no number ends with the status of the command before it"
            yield self._lost(command.at, how, "exit-2-lost", status="0")
            return

    def _value(self, name: str, command: Command) -> str:
        """The value a command gives a name, as written (`rc=$?`: "$?"); "" where none is written."""
        match = re.compile(rf"(?<![\w$]){re.escape(name)}\+?=(\"[^\"]*\"|'[^']*'|[^\s;&|)]*)").search(
            self.code, command.at, command.at + 400)
        return match.group(1).strip("\"'") if match else ""

    def _dropped(self, where: _Where, number: int, position: int, last: int) -> tuple[str, int | None]:
        """How the status of a pipeline's part at (number, position) in a top-level statement is
        lost on the way to the script's end, and the offset of the statement that decides instead
        where that is the line to change (None: the child's own); ("", None) where it is kept."""
        statement = where.statement
        if position < last and not where.pipefail and not self._followed_by_status_read(where):
            after = statement.pipelines[number].commands[last]
            return (f"pipes it into `{after.head or after.kind}`, whose status is the pipeline's (no "
                    "`set -o pipefail`)"), None
        if number < len(statement.operators) and statement.operators[number] == "||":
            fallback = statement.pipelines[number + 1].commands[0]
            runs = [fallback] if fallback.kind == "simple" else list(_own(fallback.lists[0] if fallback.lists else []))
            exits = [c for c in runs if c.head == "exit"]
            if any(passes_status_on(c.plain, first=c is runs[0]) for c in exits) or fallback.kind not in (
                    "simple", "group"):
                return "", None
            what = " ".join(w.text for w in exits[0].plain[:2]) if exits else fallback.head or "{ ... }"
            return f"`|| {what}` takes its failure, and with it the status", None
        trap = where.err_trap
        if trap is not None and trap[0] not in ("2", "") and number == len(statement.pipelines) - 1 and (
                position == last or where.pipefail):
            status = trap[0] if trap[0] != "?" else "another status"
            return (f"its failure runs the ERR trap set on line {self._line(trap[1])[0]}, which exits with {status}"
                    ), None
        if number < len(statement.pipelines) - 1 or where.errexit >= 0 or where.siblings is not self.tree \
                or where.position == len(where.siblings) - 1:  # (inside a compound command: what follows is not followed)
            return "", None
        following = where.siblings[where.position + 1]
        if not self._followed_by_status_read(where):
            return f"the commands after it (line {self._line(following.at)[0]}) set the status the script ends with", None
        if self._exits_with_a_status(where.position + 1):
            return "", None
        final = self.tree[-1]
        ends = _ends_with(final.pipelines[-1].commands[-1])
        return (f"line {self._line(following.at)[0]} reads its status, but no `exit` passes it on: the script ends "
                f"with the status of its last command here{ends}, not the child's"), final.at

    def _exits_with_a_status(self, start: int) -> bool:
        """From the top-level statement `start` on (and in any function), an `exit` or `return` with
        a status it is given (`exit "$status"`, `exit $?`) or an `exit 2` of its own."""
        def passes(command: Command) -> bool:
            words = command.plain
            return command.kind == "simple" and len(words) > 1 and words[0].text in ("exit", "return") and (
                bool(words[1].dynamic) or words[1].text == "2")
        bodies = [fn.lists[0] for fn in self.functions.values()]
        return any(passes(c) for listed in [self.tree[start:], *bodies] for c in commands(listed))

    def starved(self) -> Iterator[Lost]:
        """A child started after the script has read all of its stdin (`payload=$(cat)`, `cat
        >file`, a `jq` of stdin) without being given the input again (`<<<`, `<`, a pipe into it),
        or started with `</dev/null`."""
        read = None
        first: tuple[Command, str] | None = None  # the first child given the hook's own stdin
        for where in self.where:
            if where.function:
                continue
            for pipeline in where.statement.pipelines:
                for position, command in enumerate(pipeline.commands):
                    child = _child(command)
                    if child is not None and ("<", "/dev/null") in command.redirections:
                        yield self._lost(command.at, f"{child[0]} starts here with /dev/null for its stdin, not the "
                                         "hook's input", "stdin-not-passed", child=child[0], status="")
                        return
                    if read is None:
                        read = next((c for c in _with_substitutions(command, position)
                                     if c is not None and _reads_stdin(c)), None)
                        if read is None and position == 0 and not where.statement.background and not _given_input(command):
                            taker = child or _script_run(command)
                            if taker is not None and first is not None and taker[0] != first[1]:
                                yield self._lost(command.at, f"{first[1]} (line {self._line(first[0].at)[0]}) is "
                                                 "given the hook's stdin first and reads the input to its end, so "
                                                 f"{taker[0]} starts here with nothing left on it", "stdin-not-passed",
                                                 child=taker[0], status="")._replace(first=first[1])
                                return
                            if taker is not None and first is None:
                                first = (command, taker[0])
                        continue
                    child = child or _script_run(command)
                    if child is None or position > 0 or _given_input(command):
                        continue
                    yield self._lost(command.at, f"line {self._line(read.at)[0]} has already read the hook's input to "
                                     f"its end, so {child[0]} starts here with nothing on its stdin", "stdin-not-passed",
                                     child=child[0], status="")
                    return

    def cut_input(self) -> Iterator[Lost]:
        """The hook's input read only in part: `head -c N`, `dd ... count=N`, `read -n N`, `cut -c`
        on stdin (or on what a `cat` of stdin pipes on, before anything parses it), or the
        variable holding it cut with `${payload:0:N}`. The host sends all of it, a Write's whole
        content included; cut, it is no longer JSON."""
        for statement in _statements(self.tree):
            for pipeline in statement.pipelines:
                cut = self._first_cut(pipeline.commands)
                if cut is not None:
                    yield self._lost(cut[0].at, f"`{cut[1]}` keeps the first {cut[2]}", "input-cut-short", status="")
                    return
        for match in INPUT_SAVED.finditer(self.code):
            name = re.escape(match.group("var"))
            for sliced in re.finditer(r"\$\{" + name + r":0?:\s*(\d+|\$\w+)\}", self.code[match.end():]):
                at = match.end() + sliced.start()
                line = self.code[self.code.rfind("\n", 0, at) + 1:self.code.find("\n", at) % (len(self.code) + 1)]
                if re.match(r"\s*(?:local\s+|export\s+)?" + name + r"=", line) or PARSES.search(line):
                    yield self._lost(at, f"`{sliced.group(0)}` keeps the first "
                                     f"{_amount(sliced.group(1), 'characters')}", "input-cut-short", status="")
                    return

    def _first_cut(self, pipeline: list[Command]) -> tuple[Command, str, str] | None:
        """(the command, as written, how much) where the pipeline starts by reading the hook's input
        and cuts it before anything parses it."""
        first = pipeline[0]
        if not _reads_stdin(first) and not _cuts(first):
            return None
        if _cuts(first) and _given_input(first):
            return None
        for command in pipeline:
            cut = _cuts(command)
            if cut is not None:
                return command, *cut
            if command.kind != "simple" or command.head not in PASS_ON:
                return None
        return None

    def _lost(self, offset: int, how: str, rule: str, status: str = "0", child: str = "") -> Lost:
        line, column = self._line(offset)
        return Lost(line, column, how, status, child=child, rule=rule)


class _State:
    """The options `set` has switched on so far."""

    def __init__(self, errexit: int, pipefail: bool) -> None:
        self.errexit = errexit
        self.pipefail = pipefail
        self.err_trap: tuple[str, int] | None = None  # set by `trap ... ERR` (Model._err_trap)
        self.errtrace = False

    def apply(self, command: Command) -> None:
        words = [w.text for w in command.plain[1:]]
        errexit, pipefail = shell_options(words)
        if errexit is not None:
            self.errexit = command.at if errexit else -1
        if pipefail is not None:
            self.pipefail = pipefail
        for i, word in enumerate(words):
            option = words[i + 1] if i + 1 < len(words) and word[:1] in "-+" and word.endswith("o") else ""
            if word.startswith("-") and not word.startswith("--") and ("E" in word or option == "errtrace"):
                self.errtrace = True


def shebang_errexit(code: str) -> bool:
    first = code.split("\n", 1)[0]
    return first.startswith("#!") and any(ERREXIT_FLAG.match(w) for w in first.split()[1:])


def _assigned(command: Command) -> set[str]:
    """The names a command sets: `rc=$?`, `local rc=2`, `read -r rc`, `printf -v rc`, `for rc in`."""
    if command.kind == "for":
        return {command.items[0].text} if command.items else set()
    if command.kind != "simple":
        return set()
    words = command.plain
    names = {w.text.split("=", 1)[0].rstrip("+") for w in words if w.assignment}
    rest = [w.text for w in words[1:] if not w.text.startswith("-")] if command.head else []
    if command.head in MASKING or command.head in ("read", "mapfile", "readarray"):
        names |= {w.split("=", 1)[0] for w in rest if w and (w[0].isalpha() or w[0] == "_")}
    elif command.head == "printf" and len(words) > 2 and words[1].text == "-v":
        names.add(words[2].text)
    return names


def _own(statements: list[AndOr]) -> Iterator[Command]:
    """The commands a list runs in its own process: not those of a pipeline's parts (each a
    subshell), of `( )` or of `$( )`."""
    for statement in statements:
        for pipeline in statement.pipelines:
            if len(pipeline.commands) > 1:
                continue
            command = pipeline.commands[0]
            yield command
            if command.kind not in ("subshell", "function"):
                for listed in command.lists:
                    yield from _own(listed)


def _exit_status(command: Command) -> int | None:
    words = command.plain
    if command.kind != "simple" or not words or words[0].text != "exit" or words[0].quoted:
        return None
    if len(words) == 1:
        return None  # (a bare exit keeps the status)
    return int(words[1].text) if words[1].text.isdigit() and not words[1].dynamic else None


def _exit_2(command: Command) -> bool:
    return _exit_status(command) == 2


def _end(lists: list[list[AndOr]]) -> int:
    """The offset just past the last word of the lists (a compound command's end, near enough)."""
    ends = [statement.end for listed in lists for statement in listed]
    ends += [_end(command.lists) for listed in lists for statement in listed for pipeline in statement.pipelines
             for command in pipeline.commands if command.lists]
    return max(ends, default=0)


def _return_2(command: Command) -> bool:
    words = command.plain
    return command.kind == "simple" and len(words) == 2 and words[0].text == "return" and words[1].text == "2"


def _in_background(command: Command, tree: list[AndOr]) -> bool:
    """The command is started by a statement ended with `&` (at any depth)."""
    def walk(statements: list[AndOr], background: bool) -> bool:
        for statement in statements:
            for pipeline in statement.pipelines:
                for inner in pipeline.commands:
                    if inner is command:
                        return background or statement.background
                    if any(walk(listed, background or statement.background) for listed in inner.lists):
                        return True
        return False
    return walk(tree, False)


def _ends_with(command: Command) -> str:
    """What the script's last command ends with, where it is not plain to see."""
    if command.kind == "if" and len(command.lists) % 2 == 0:
        return " (an `if` without `else` ends with 0 when its condition is false)"
    if command.kind == "simple" and command.plain and all(w.assignment for w in command.plain):
        return " (an assignment: 0)"
    if command.kind in ("for", "while", "until", "case"):
        return f" (a `{command.kind}`: the status of the last command it ran, or 0)"
    return ""


def _subshell_how(command: Command, position: int, last: int) -> str:
    if command.kind == "subshell":
        return "the `exit 2` runs inside `( ... )`, a subshell: it ends that subshell only and the script runs on"
    part = "last part" if position == last else "a part"
    return (f"the `exit 2` runs in the {command.kind} loop that is {part} of a pipeline, a subshell of its own: it ends "
            "that subshell only and the script runs on") if command.kind in ("while", "until", "for") else (
        f"the `exit 2` runs in {part} of a pipeline, a subshell of its own: it ends that subshell only and the script "
        "runs on")


def _child(command: Command) -> tuple[str, bool] | None:
    """(how the script names it, whether `exec` runs it) for a command that runs a program the
    script is given, by its arguments or a variable: `"$@"`, `"$HOOKS_DIR/$1"`, `$PY "$script"`."""
    if command.kind != "simple":
        return None
    words = [w for w in command.plain if not w.assignment] if command.head else []
    execs = bool(words) and words[0].text == "exec" and not words[0].quoted
    while words and not words[0].quoted and (words[0].text in WRAPPERS or words[0].text == "exec"):
        words = words[1:]
    while words and words[0].text.startswith("-") and not words[0].quoted:
        words = words[1:]
    words = _after_prefix(words)
    if not words:
        return None
    first = words[0]
    if _named(first):
        return first.text, execs
    if INTERPRETERS.match(first.text.rsplit("/", 1)[-1]):
        script = next((w for w in words[1:] if not w.text.startswith("-")), None)
        if script is not None and _named(script):
            return f"{first.text} {script.text}", execs
    return None


def _after_prefix(words: list[Word]) -> list[Word]:
    """The command a `timeout [OPTIONS] DURATION`, `env [NAME=value]...` or `nice -n N` prefix runs
    (each passes the status of what it runs on; timeout's own 124 aside)."""
    head = words[0].text if words and not words[0].quoted else ""
    if head not in ("timeout", "env", "nice"):
        return words
    rest, valued = words[1:], {"timeout": ("-s", "-k", "--signal", "--kill-after"), "nice": ("-n",), "env": ("-u",)}
    while rest and rest[0].text.startswith("-") and not rest[0].quoted:
        rest = rest[2:] if rest[0].text in valued[head] else rest[1:]
    while head == "env" and rest and "=" in rest[0].text and not rest[0].text.startswith("$"):
        rest = rest[1:]
    return rest[1:] if head == "timeout" else rest


def _script_run(command: Command) -> tuple[str, bool] | None:
    """A script the command runs by its written name (`./guard.sh`, `python3 hooks/guard.py`)."""
    words = [w.text for w in command.plain if not w.assignment] if command.kind == "simple" else []
    if words and words[0] == "exec":
        words = words[1:]
    if words and words[0].endswith(SCRIPT_SUFFIXES) and "/" in words[0]:
        return words[0], False
    if len(words) > 1 and INTERPRETERS.match(words[0].rsplit("/", 1)[-1]):
        script = next((w for w in words[1:] if not w.startswith("-")), "")
        if script.endswith(SCRIPT_SUFFIXES):
            return f"{words[0]} {script}", False
    return None


def _runner(command: Command, source: Command | None, written: Callable[[Word], str]) -> tuple[str, str, str] | None:
    """(the runner as written, the children it runs, the status it ends with) for `run-parts DIR`,
    `find DIR ... -exec CMD {} ;|+` and `... | xargs CMD` (the files the pipeline's first part
    lists: `ls DIR/*.sh`, `printf '%s\\n' DIR/*`, `find DIR -name PATTERN`)."""
    plain = [w for w in command.plain if not w.assignment] if command.kind == "simple" else []
    if not plain:
        return None
    head = written(plain[0]).rsplit("/", 1)[-1]
    if head not in ("run-parts", "find", "xargs"):
        return None  # (each word written out only for a runner: a shlex of its line, dear on every command)
    words = [written(w) for w in plain]
    if head == "run-parts":
        folder = next((w for w in words[1:] if not w.startswith("-")), None)
        return ("`run-parts`", f"{folder.rstrip('/')}/*", "1") if folder else None
    if head == "find" and "-exec" in words and words[-1] in (";", "\\;") and _found(words) \
            and _runs_each(words[words.index("-exec") + 1:-1]):
        return "`find -exec ... ;`", _found(words), "0"  # (`{} +` hands every file to one command: not each run)
    if head == "xargs" and source is not None and source.kind == "simple" and _runs_each(_xargs_command(words[1:])):
        listed = [written(w) for w in source.plain]
        children = _found(listed) if listed and listed[0] == "find" else next(
            (w for w in listed[1:] if "*" in w or w.endswith(SCRIPT_SUFFIXES)), "") if listed and listed[0] in (
                "ls", "printf", "echo") else ""
        return ("`xargs`", children, "123") if children else None
    return None


XARGS_VALUED = frozenset({"-n", "-I", "-P", "-L", "-d", "-s", "-E", "-a", "--max-args", "--max-procs",
                          "--delimiter", "--arg-file", "--replace"})


def _xargs_command(args: list[str]) -> list[str]:
    """The command xargs runs (its options and their values skipped)."""
    while args and args[0].startswith("-"):
        args = args[2:] if args[0] in XARGS_VALUED else args[1:]
    return args


def _runs_each(command: list[str]) -> bool:
    """The command a runner runs for each file runs that file: `{}` itself, or an interpreter (or
    `sh -c`) given it; not a tool that only reads it (`ruff check {}`, `prettier --check`)."""
    return bool(command) and (command[0] == "{}" or INTERPRETERS.match(command[0].rsplit("/", 1)[-1]) is not None)


def _found(words: list[str]) -> str:
    """The files a `find DIR -name PATTERN` lists, as a pattern ("DIR/PATTERN"); "" where not plain."""
    folder = words[1] if len(words) > 1 and not words[1].startswith("-") else ""
    pattern = words[words.index("-name") + 1] if "-name" in words[:-1] else "*"
    return f"{folder.rstrip('/')}/{pattern}" if folder and "-maxdepth" not in words[:1] else ""


def _stored_on_failure(statement: AndOr) -> str | None:
    """NAME for `child || NAME=$?`: the status kept only when the child fails."""
    if statement.operators != ["||"]:
        return None
    store = statement.pipelines[1].commands[0]
    if store.kind != "simple" or len(store.plain) != 1 or not store.plain[0].assignment:
        return None
    name, _, value = store.plain[0].text.partition("=")
    return name if value.strip('"') in ("$?", "${?}") else None


def _program(command: Command) -> tuple[str, bool] | None:
    """A program the command runs by its path (`./bin/guard`, `"$DIR/bin/guard"`, `tools/guard`),
    as written: a compiled guard has no script suffix."""
    words = [w for w in command.plain if not w.assignment] if command.kind == "simple" else []
    if words and words[0].text == "exec":
        words = words[1:]
    words = _after_prefix(words)
    return (words[0].text, False) if words and "/" in words[0].text and "(" not in words[0].text else None


def _named(word: Word) -> bool:
    """A word that names a program through a variable or an argument (`"$@"`, `$PY`,
    `"$(dirname "$0")/$1"`), not the output of a command (`$(which x)`)."""
    return bool(word.dynamic) and word.text.startswith("$") and ("(" not in word.text or "/" in word.text)


def _with_substitutions(command: Command, position: int) -> Iterator[Command | None]:
    """The command (when it starts its pipeline) and the first commands of its `$( )`'s pipelines."""
    yield command if position == 0 else None
    for listed in command.substitutions:
        for statement in listed:
            yield statement.pipelines[0].commands[0]


def _reads_stdin(command: Command) -> bool:
    """`cat` with no file (or `-`), `jq FILTER` with no file, `read`, `mapfile`, `head`/`tail`/`dd`
    with no file, with no input of their own. (`read` takes a line: the hook's input is one.)"""
    if command.kind != "simple" or _given_input(command):
        return False
    words = [w.text for w in command.plain if not w.assignment]  # (`IFS= read -r x`)
    if not words:
        return False
    operands = [w for w in words[1:] if not w.startswith("-") or w == "-"]
    if words[0] in ("read", "mapfile", "readarray"):
        return not any(w.startswith("-u") for w in words[1:])
    if words[0] in ("head", "tail"):
        counts = {i + 1 for i, w in enumerate(words) if w in ("-c", "-n", "--bytes", "--lines")}
        return all(i in counts or w == "-" for i, w in enumerate(words) if i and not w.startswith("-"))
    if words[0] == "dd":
        return not any(w.startswith("if=") for w in words)
    if words[0] == "tee":  # (reads all of it, whatever it writes)
        return True
    if INTERPRETERS.match(words[0].rsplit("/", 1)[-1]) and len(words) > 2 and words[1] in ("-c", "-e"):
        return bool(INLINE_STDIN.search(words[2]))
    if words[0] == "cat":
        return all(w == "-" for w in operands)
    if words[0] == "jq" and not {"-n", "--null-input"} & set(words):
        return len([w for w in operands if w != "-"]) <= 1 and not any(
            w in ("--arg", "--argjson", "--slurpfile", "--rawfile", "-f", "--from-file") for w in words)
    return False


PARSES = lazy(r"\bjq\b|json|\bpython|\bnode\b")  # a line that hands the value to a JSON parser
PASS_ON = frozenset({"cat", "tee", "tr"})  # what hands the input on whole (before a cut)
INPUT_SAVED = lazy(r"(?P<var>[A-Za-z_]\w*)=[\"']?\$\((?:cat|cat -|cat /dev/stdin)\)", needs=("$(cat",))


def _cuts(command: Command) -> tuple[str, str] | None:
    """(the command as written, how much it keeps) for a command that reads only part of its
    stdin: `head -c N`, `dd ... count=N`, `read -n N`/`-N N`, `cut -c`/`-b`, with no file."""
    if command.kind != "simple" or _given_input(command) or any(
            op in (">", "1>") and target == "/dev/null" for op, target in command.redirections):
        return None  # (`head -c N >/dev/null`: drained, not parsed)
    plain = command.plain
    words = [w.text for w in plain[next((i for i, w in enumerate(plain) if not w.assignment), len(plain)):]]
    if not words:
        return None
    head, args = words[0], words[1:]
    written = " ".join(words[:4])
    if head == "head":
        count = _option(args, "-c", "--bytes")
        files = [w for w in args if not w.startswith("-") and w != count]
        if count is not None and not files:
            return written, _amount(count, "bytes")
    if head == "dd" and not any(w.startswith("if=") for w in args):
        count = next((w[6:] for w in args if w.startswith("count=")), None)
        size = next((w.split("=", 1)[1] for w in args if w.startswith(("bs=", "ibs="))), "512")
        if count is not None:
            return written, f"{count} block(s) of {size} bytes" if count != "1" else _amount(size, "bytes")
    if head == "read" and not any(w.startswith("-u") for w in args):
        count = _option(args, "-n", "-N")
        if count is not None:
            return written, _amount(count, "characters")
    if head == "cut" and _option(args, "-c", "-b") is not None and not [w for w in args if not w.startswith("-")]:
        return written, "characters of each line it names (" + " ".join(args) + ")"
    return None


def _option(args: list[str], *names: str) -> str | None:
    """The value of an option given as `-c N`, `-cN`, `--bytes=N` or `--bytes N`."""
    for i, arg in enumerate(args):
        for name in names:
            if arg == name and i + 1 < len(args):
                return args[i + 1]
            if arg.startswith(name) and len(arg) > len(name) and (arg[len(name)] == "=" or name.count("-") == 1):
                return arg[len(name):].lstrip("=")
    return None


def _amount(count: str, unit: str) -> str:
    return f"{count} {unit}" if count.isdigit() else f"{count} {unit} (the value the script sets)"


def _statements(statements: list[AndOr]) -> Iterator[AndOr]:
    """Every statement of the list, in compound commands and command substitutions too."""
    for statement in statements:
        yield statement
        for pipeline in statement.pipelines:
            for command in pipeline.commands:
                for inner in (*command.lists, *command.substitutions):
                    yield from _statements(inner)


def _given_input(command: Command) -> bool:
    return any(op.endswith("<") or op.endswith("<<<") for op, _ in command.redirections)


# ---- children's answers on the one stdout ------------------------------------------------------------

STOPS_LOOP = frozenset({"break", "exit", "return"})
STDOUT_AWAY = frozenset({">", ">>", ">|", "1>", "1>>", "&>", "&>>"})  # (and `>&2`, `1>&2`)


def joined_answers(code: str, place: Callable[[int], tuple[int, int]],
                   tree_of: Callable[[], list[AndOr] | None] | None = None) -> tuple[Joined, ...]:
    """shell_status.joined_answers past its premise."""
    tree = (tree_of or parsed_once(code))()
    if tree is None:
        return ()
    found: list[Joined] = []

    def joined(command: Command, how: str, children: list[str], runner: str = "this loop") -> None:
        line, column = place(command.at)
        found.extend(Joined(line, column, how, child, runner) for child in children)

    for loop in (c for c in commands(tree) if c.kind == "for" and c.lists and not _stdout_away(c)):
        body = loop.lists[0]
        if any(c.kind == "simple" and c.head in STOPS_LOOP for c in commands(body)):
            continue
        name = loop.items[0].text if loop.items else ""
        items = [w.text for w in loop.items[2:]] if len(loop.items) > 2 and loop.items[1].text == "in" else []
        for command, child in _children_on_stdout(body):
            joined(command, "each child's stdout is the hook's own", _each(child, name, items))
        for command, child, printer in _captured_and_printed(body):
            joined(command, f"the loop prints each child's stdout in turn (`{printer}`)", _each(child, name, items))
    for listed in _lists(tree):  # two children one after the other, in the same list
        runs = list(_run_in_turn(listed))
        if len({child for _, child in runs}) >= 2:
            joined(runs[0][0], "each has the hook's stdout", [child for _, child in runs], "the script")
    return tuple(dict.fromkeys(found))


def _run_in_turn(listed: list[AndOr]) -> Iterator[tuple[Command, str]]:
    """The child scripts a list's own statements run with the hook's stdout, up to the first that
    ends the run after them (`child && exit 0`, an `exit` of its own)."""
    for statement in listed:
        for number, pipeline in enumerate(statement.pipelines):
            command = pipeline.commands[-1]
            if command.kind == "simple" and command.head in STOPS_LOOP and (
                    number == 0 or statement.operators[number - 1] == "&&"):
                return
            child = _child(command) or _script_run(command) if command.kind == "simple" else None
            if child is not None and not _stdout_away(command) and (
                    number == 0 or statement.operators[number - 1] == "&&"):
                yield command, child[0]


def _stdout_away(command: Command) -> bool:
    """Its stdout goes to a file or to stderr (its own redirection or a compound's)."""
    return any(op in STDOUT_AWAY or (op in (">&", "1>&") and target != "1") for op, target in command.redirections)


def _children_on_stdout(statements: list[AndOr]) -> Iterator[tuple[Command, str]]:
    """The child scripts the list runs with the hook's stdout: a pipeline's last part (what comes
    before pipes into it), in a `{ }`, `( )`, if, case or loop whose output is not sent away."""
    for statement in statements:
        for pipeline in statement.pipelines:
            command = pipeline.commands[-1]
            if _stdout_away(command):
                continue
            if command.kind == "simple":
                child = _child(command) or _script_run(command)
                if child is not None:
                    yield command, child[0]
            elif command.kind != "function":
                for number, listed in enumerate(command.lists):
                    if number not in command.conditions:
                        yield from _children_on_stdout(listed)


def _captured_and_printed(body: list[AndOr]) -> Iterator[tuple[Command, str, str]]:
    """`out=$(child)` and, later in the same body, an echo or printf of `$out` on the hook's stdout."""
    every = list(commands(body))
    for index, command in enumerate(every):
        if command.kind != "simple" or not command.plain or not command.plain[0].assignment \
                or not command.substitutions:
            continue
        variable = command.plain[0].text.split("=", 1)[0]
        child = next((found for listed in command.substitutions for statement in listed
                      for pipeline in statement.pipelines for found in [_child(pipeline.commands[-1])
                                                                        or _script_run(pipeline.commands[-1])]
                      if found is not None), None)
        if child is None:
            continue
        printer = next((c for c in every[index + 1:] if c.kind == "simple" and c.head in ("echo", "printf")
                        and not _stdout_away(c) and any(w.text in (f"${variable}", f"${{{variable}}}")
                                                        for w in c.plain[1:])), None)
        if printer is not None:
            yield command, child[0], " ".join(w.text for w in printer.plain)[:40]


def _each(child: str, name: str, items: list[str]) -> list[str]:
    """The scripts a child run in a loop is: its words with the loop's variable given each item
    (the folders a variable names before it dropped: `$DIR/guards/*.py` is guards/*.py beside
    the script); the run as written where the loop's variable is not in it."""
    if not name or not items or not re.search(rf"\$\{{?{re.escape(name)}\b", child):
        return [child]
    out = []
    for item in items:
        given = re.sub(rf"\$\{{?{re.escape(name)}\}}?(?!\w)", item.replace("\\", "\\\\"), child)  # (the item as written)
        head, _, last = given.rpartition(" ")
        parts = last.split("/")
        while len(parts) > 1 and "$" in parts[0]:
            parts = parts[1:]
        out.append(f"{head} {'/'.join(parts)}".strip())
    return list(dict.fromkeys(out))


def _lists(statements: list[AndOr]) -> Iterator[list[AndOr]]:
    """The list and every list inside its compound commands (not loops' bodies: their own rule)."""
    yield statements
    for statement in statements:
        for pipeline in statement.pipelines:
            for command in pipeline.commands:
                if command.kind not in ("for", "while", "until", "function"):
                    for listed in command.lists:
                        yield from _lists(listed)
