"""The parts of a script that run for one hook event: an `if` (a `case` arm, a `switch` case) that
tests the event's name from the input (`hook_event_name`, or a name given it) against literals.

A script registered on several events often answers each in its own branch; what a branch
answers is judged against the events it runs for (checks/scripts/script_files.py), where the rest
of the script is judged against every event it runs on. Python is read with `ast`, JavaScript by
its braces, shell by its `case` arms and `if ... fi`. What is not read is no branch.
"""
from __future__ import annotations

import ast
import re
from typing import Callable

from ...patterns import lazy
from ...records import Record

FIELD = "hook_event_name"
Close = Callable[[str, int], int]  # the offset of the brace that closes the one at an offset
Lines = Callable[[int], int]  # an offset to its line


class Branch(Record):
    first: int  # lines, 1-based, inclusive
    last: int
    events: frozenset[str]  # the events it runs for


def events_at(branches: tuple[Branch, ...], line: int) -> frozenset[str] | None:
    """The events the line runs for, by the innermost branch around it (None: every event)."""
    around = [b for b in branches if b.first <= line <= b.last]
    return min(around, key=lambda b: b.last - b.first).events if around else None


# ---- Python ------------------------------------------------------------------------------------------

def python(nodes: list[ast.AST], names: frozenset[str]) -> tuple[Branch, ...]:
    """`nodes`: every node of the script's tree (listed once for its readers); `names`: the event
    names a test may compare with (the host's events)."""
    holders = {node.targets[0].id for node in nodes if isinstance(node, ast.Assign)
               and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and _mentions_field(node.value)}
    found: list[Branch] = []
    for node in nodes:
        if isinstance(node, ast.If) and node.body:
            events = _py_events(node.test, holders, names)
            if events:
                found.append(Branch(node.body[0].lineno, node.body[-1].end_lineno or node.body[0].lineno, events))
        elif isinstance(node, ast.Match) and _mentions_field(node.subject, holders):
            for case in node.cases:
                events = frozenset(c.value for c in ast.walk(case.pattern) if isinstance(c, ast.Constant)
                                   and isinstance(c.value, str) and c.value in names)
                if events and case.body:
                    found.append(Branch(case.body[0].lineno, case.body[-1].end_lineno or case.body[0].lineno, events))
    return tuple(found)


def _mentions_field(node: ast.AST, holders: frozenset[str] | set[str] = frozenset()) -> bool:
    return any((isinstance(n, ast.Constant) and n.value == FIELD) or (isinstance(n, ast.Name) and n.id in holders)
               or (isinstance(n, ast.Attribute) and n.attr == FIELD) for n in ast.walk(node))


def _py_events(test: ast.AST, holders: set[str], names: frozenset[str]) -> frozenset[str]:
    """The events a test holds for: `event == "PreToolUse"`, `data["hook_event_name"] in ("A", "B")`,
    joined by `or`; empty where it is no such test."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [_py_events(value, holders, names) for value in test.values]
        return frozenset().union(*parts) if all(parts) else frozenset()
    if isinstance(test, ast.BoolOp):  # `event == "PreToolUse" and ...`: the other tests narrow it further
        tested = [events for value in test.values if (events := _py_events(value, holders, names))]
        return frozenset.intersection(*tested) if tested else frozenset()
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.In))):
        return frozenset()
    left, right = test.left, test.comparators[0]
    if not _mentions_field(left, holders):
        left, right = right, left
        if not _mentions_field(left, holders):
            return frozenset()
    values = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
    events = frozenset(v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return events if events and events <= names else frozenset()


# ---- JavaScript (comment-stripped code) --------------------------------------------------------------

JS_HOLDER = lazy(r"""(?:const|let|var)\s+(?:(?P<name>[A-Za-z_$][\w$]*)\s*=\s*[^;\n]*\bhook_event_name\b|"""
                 r"""\{[^{}]*\bhook_event_name\s*(?::\s*(?P<alias>[A-Za-z_$][\w$]*))?[^{}]*\}\s*=)""", needs=(FIELD,))
JS_IF = lazy(r"""\bif\s*\((?P<test>[^(){}]*)\)\s*\{""", needs=("if",))
JS_EQUALS = lazy(r"""(?P<left>[\w$.\[\]"']+)\s*===?\s*["'`](?P<event>\w+)["'`]|["'`](?P<event2>\w+)["'`]\s*===?\s*(?P<left2>[\w$.\[\]"']+)""")
JS_SWITCH = lazy(r"""\bswitch\s*\((?P<subject>[^(){}]*)\)\s*\{""", needs=("switch",))
JS_CASE = lazy(r"""\bcase\s+["'`](?P<event>\w+)["'`]\s*:|\bdefault\s*:""")


def javascript(code: str, line: Lines, close: Close, names: frozenset[str]) -> tuple[Branch, ...]:
    if FIELD not in code:
        return ()
    holders = {FIELD} | {m.group("name") or m.group("alias") or FIELD for m in JS_HOLDER.finditer(code)}
    found: list[Branch] = []
    for match in JS_IF.finditer(code):
        tested: set[str] = set()
        for part in match.group("test").split("||"):
            equal = JS_EQUALS.search(part)
            if equal is None:
                tested = set()
                break
            left, event = equal.group("left") or equal.group("left2"), equal.group("event") or equal.group("event2")
            if event not in names or not _js_names_field(left, holders):
                tested = set()
                break
            tested.add(event)
        if tested:
            found.append(Branch(line(match.end()), line(close(code, match.end() - 1)), frozenset(tested)))
    for match in JS_SWITCH.finditer(code):
        if not _js_names_field(match.group("subject"), holders):
            continue
        end = close(code, match.end() - 1)
        cases = list(JS_CASE.finditer(code, match.end(), end))
        for index, case in enumerate(cases):
            stop = cases[index + 1].start() if index + 1 < len(cases) else end
            if case.group("event") in names:
                # (cases that fall through to this one share its body)
                shared = {case.group("event")}
                back = index - 1
                while back >= 0 and not code[cases[back].end():case.start()].strip() and cases[back].group("event"):
                    shared.add(cases[back].group("event"))
                    back -= 1
                found.append(Branch(line(case.end()), line(stop), frozenset(shared)))
    return tuple(found)


def _js_names_field(text: str | None, holders: set[str]) -> bool:
    return text is not None and any(re.search(rf"(?<![\w$]){re.escape(h)}(?![\w$])", text) for h in holders)


# ---- shell -------------------------------------------------------------------------------------------

SH_HOLDER = lazy(r"""(?m)^\s*(?:local\s+|export\s+)?(?P<name>[A-Za-z_]\w*)=.*\bhook_event_name\b""", needs=(FIELD,))
SH_CASE = lazy(r"""\bcase\s+(?P<subject>[^\n]*?)\s+in\b""", needs=("case",))
SH_ARM = lazy(r"""(?m)^\s*\(?(?P<patterns>[\w"'|* \t-]+)\)""")
SH_IF = lazy(r"""(?m)^(?P<indent>[ \t]*)(?:if|elif)\s+\[\[?\s*(?P<test>[^\]\n]*)\]\]?\s*;?\s*(?:then)?""", needs=("if",))
SH_EQUALS = lazy(r"""(?P<left>"?\$\{?\w+\}?"?)\s*==?\s*["']?(?P<event>\w+)["']?""")


def shell(code: str, line: Lines, names: frozenset[str]) -> tuple[Branch, ...]:
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
