"""The parts of a script that run for one hook event: an `if` (a `case` arm, a `switch` case) that
tests the event's name from the input (`hook_event_name`, or a name given it) against literals.

A script registered on several events often answers each in its own branch; what a branch
answers is judged against the events it runs for (checks/scripts/script_files.py), where the rest
of the script is judged against every event it runs on. Shell is read here, by its `case` arms
and `if ... fi`; Python with `ast` by flow_python.py, and JavaScript by its braces by
flow_javascript.py, the readers a run loads for a script in that language only (arguments.py says
what that saves). What is not read is no branch.
"""
from __future__ import annotations

import re
from typing import Callable

from ...patterns import lazy
from ...records import Record

FIELD = "hook_event_name"


class Branch(Record):
    first: int  # lines, 1-based, inclusive
    last: int
    events: frozenset[str]  # the events it runs for


def events_at(branches: tuple[Branch, ...], line: int) -> frozenset[str] | None:
    """The events the line runs for, by the innermost branch around it (None: every event)."""
    around = [b for b in branches if b.first <= line <= b.last]
    return min(around, key=lambda b: b.last - b.first).events if around else None


# ---- shell -------------------------------------------------------------------------------------------

SH_HOLDER = lazy(r"""(?m)^\s*(?:local\s+|export\s+)?(?P<name>[A-Za-z_]\w*)=.*\bhook_event_name\b""", needs=(FIELD,))
SH_CASE = lazy(r"""\bcase\s+(?P<subject>[^\n]*?)\s+in\b""", needs=("case",))
SH_ARM = lazy(r"""(?m)^\s*\(?(?P<patterns>[\w"'|* \t-]+)\)""")
SH_IF = lazy(r"""(?m)^(?P<indent>[ \t]*)(?:if|elif)\s+\[\[?\s*(?P<test>[^\]\n]*)\]\]?\s*;?\s*(?:then)?""", needs=("if",))
SH_EQUALS = lazy(r"""(?P<left>"?\$\{?\w+\}?"?)\s*==?\s*["']?(?P<event>\w+)["']?""")


def shell(code: str, line: Callable[[int], int], names: frozenset[str]) -> tuple[Branch, ...]:
    if FIELD not in code:
        return ()
    holders = {m.group("name") for m in SH_HOLDER.finditer(code)}
    found: list[Branch] = []
    for case in SH_CASE.finditer(code):
        subject = case.group("subject")
        if FIELD not in subject and not any(re.search(rf"\$\{{?{h}\b", subject) for h in holders):
            continue
        end = code.find("esac", case.end())
        body = code[case.end():end if end >= 0 else len(code)]
        for arm in SH_ARM.finditer(body):
            stop = body.find(";;", arm.end())
            events = frozenset(p.strip().strip("\"'") for p in arm.group("patterns").split("|"))
            if events and events <= names:
                found.append(Branch(line(case.end() + arm.end()), line(case.end() + (stop if stop >= 0 else len(body))),
                                    events))
    for test in SH_IF.finditer(code):
        equal = SH_EQUALS.search(test.group("test"))
        if equal is None or equal.group("event") not in names or not any(
                re.search(rf"\$\{{?{h}\b", equal.group("left")) for h in holders):
            continue
        indent = test.group("indent")
        after = re.compile(rf"(?m)^{re.escape(indent)}(?:elif|else|fi)\b").search(code, test.end())
        found.append(Branch(line(test.end()), line(after.start()) - 1 if after else line(len(code)),
                            frozenset({equal.group("event")})))
    return tuple(found)
