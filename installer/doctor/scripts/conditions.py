"""Tests in a hook's code that can never be true, whatever the call: the branch they guard never
runs, and a guard whose block sits there fails open.

Only forms whose meaning is certain from the text (the shells' and languages' own rules):
- `[ "$cmd" == *"rm -rf"* ]` (or `test`): `[` is a command and does no pattern matching; an
  unquoted glob there is expanded against the files of the folder, or left as it is, and compared
  as text;
- `[[ $cmd == "*rm -rf*" ]]`: a quoted pattern is text in `[[ ]]`, and so is a quoted pattern of a
  `case` arm (`"*rm -rf*")`);
- `[[ $cmd =~ "rm\\s+-rf" ]]`: a quoted regex is matched as text since bash 3.2;
- Python `"rm -rf" in command.split()` and JavaScript `command.split(" ").includes("rm -rf")`:
  split on blanks, no word holds a blank.
"""
from __future__ import annotations

import re
from typing import Iterator

from ...patterns import lazy
from ...records import Record
from ..shell.lex import closing_brace

QUOTED = lazy(r""""[^"\n]*"|'[^'\n]*'""")
_WORD = r"""(?:"[^"\n]*"|'[^'\n]*'|[^\s"'\]])+"""
SINGLE_BRACKET = lazy(rf"""(?:(?<![\[\w$])\[|\btest)[ \t]+(?P<lhs>{_WORD})[ \t]+==?[ \t]+(?P<rhs>{_WORD})"""
                      r"""(?=[ \t]+(?:\](?!\])|-[ao][ \t])|[ \t]*(?:;|&&|\|\||\n|$))""", needs=("=",))
# a quoted pattern that starts or ends with * (a text meant as "contains", "starts with"...)
_QUOTED_PATTERN = r"""(?:"(?:\*[^"\n$`\\]+|[^"\n$`\\]+\*)"|'(?:\*[^'\n]+|[^'\n]+\*)')"""
DOUBLE_BRACKET = lazy(rf"""\[\[[ \t]+[^\s\]]+[ \t]+==?[ \t]+(?P<rhs>{_QUOTED_PATTERN})(?=[ \t]*(?:\]\]|&&|\|\|))""",
                      needs=("[[",))
# a quoted regex with what only a regex means: \s \d \w \b, .* .+, a leading ^ or a trailing $, |
_REGEX_SIGNS = r"""(?:[^"'\n]*(?:\\[sSdDwWb]|\.[*+]|\|)[^"'\n]*|\^[^"'\n]*|[^"'\n]*\$)"""
QUOTED_REGEX = lazy(rf"""\[\[[ \t]+[^\s\]]+[ \t]+=~[ \t]+(?P<rhs>'{_REGEX_SIGNS}'|"(?![^"\n]*\$[\w{{(])"""
                    rf"""{_REGEX_SIGNS}")(?=[ \t]*(?:\]\]|&&|\|\|))""", needs=("=~",))
CASE_BLOCK = lazy(r"""\bcase\b[^\n]*?\bin\b(?P<body>.*?)\besac\b""", re.S, needs=("esac",))
CASE_ARM = lazy(rf"""(?:^|;;|\n)[ \t]*\(?[ \t]*(?P<pattern>{_QUOTED_PATTERN})[ \t]*(?:\||\))""")
PY_SPLIT = lazy(r"""(?P<text>(?P<q>["'])[^"'\n]*[ \t][^"'\n]*(?P=q))\s+in\s+[\w.]+(?:\[[^\]\n]*\])*"""
                r"""\.split\(\s*\)""", needs=(".split(",))
JS_SPLIT = lazy(r"""\.split\(\s*(?:" "|' '|/\\s\+?/[gu]*)\s*\)\s*\.includes\(\s*(?P<text>(?P<q>["'])[^"'\n]*\s"""
                r"""[^"'\n]*(?P=q))\s*\)""", needs=(".split(",))


class NeverTrue(Record):
    kind: str  # single-bracket | quoted-pattern | case-pattern | quoted-regex | split
    text: str  # the pattern or text as written
    offset: int


def never_true(code: str, language: str) -> Iterator[NeverTrue]:
    """The tests of `code` (comments blanked) that can never be true."""
    if language == "shell":
        for match in SINGLE_BRACKET.finditer(code):
            if "*" in QUOTED.sub("", match.group("rhs")) and "$" in match.group("lhs"):
                yield NeverTrue("single-bracket", match.group("rhs"), match.start("rhs"))
        for match in DOUBLE_BRACKET.finditer(code):
            yield NeverTrue("quoted-pattern", match.group("rhs"), match.start("rhs"))
        for match in QUOTED_REGEX.finditer(code):
            yield NeverTrue("quoted-regex", match.group("rhs"), match.start("rhs"))
        for block in CASE_BLOCK.finditer(code):
            for arm in CASE_ARM.finditer(block.group("body")):
                yield NeverTrue("case-pattern", arm.group("pattern"), block.start("body") + arm.start("pattern"))
    elif language == "python":
        for match in PY_SPLIT.finditer(code):
            yield NeverTrue("split", match.group("text"), match.start("text"))
    elif language == "javascript":
        for match in JS_SPLIT.finditer(code):
            yield NeverTrue("split", match.group("text"), match.start("text"))


# ---- values compared with what the host sends --------------------------------------------------

class Compared(Record):
    """A literal a field of the call is compared with (`tool == "read"`, `case "$file" in src/*)`)."""
    field: str  # tool_name | file_path
    text: str  # the literal, or the pattern, as written (without its quotes)
    offset: int


COMPARED_FIELDS = ("tool_name", "file_path")
_Q = r"""["']"""
# a variable bound to a field: `tool = event.get("tool_name")`, `const { tool_name: tool } = input`,
# `file=$(jq -r '.tool_input.file_path // empty')`
_BOUND = {
    "python": r"""^[ \t]*(?P<var>[A-Za-z_]\w*)[ \t]*=[ \t]*[^\n=][^\n]*{q}{field}{q}""",
    "javascript": r"""\b(?:const|let|var)[ \t]+(?P<var>[A-Za-z_$][\w$]*)[ \t]*=[ \t]*[^\n;]*\b{field}\b""",
    "shell": r"""^[ \t]*(?:local[ \t]+|export[ \t]+)?(?P<var>[A-Za-z_]\w*)=[^\n]*\.(?:tool_input\.)?{field}\b""",
}
_DESTRUCTURED = r"""\{{[^{{}}\n]*\b{field}\b(?:[ \t]*:[ \t]*(?P<var>[A-Za-z_$][\w$]*))?[^{{}}\n]*\}}[ \t]*="""
# the field read in place: event["tool_name"], data.get("tool_name", ""), input.tool_name, jq's .tool_name
_READ_IN_PLACE = r"""(?:\[[ \t]*{q}{field}{q}[ \t]*\]|\.get\([ \t]*{q}{field}{q}[^()\n]*\)|\.{field}\b)"""
_LITERAL = r"""(?P<q>["'])(?P<lit>[^"'\n]*)(?P=q)"""
_EQUALS = r"""(?:===?|!==?)"""
LITERAL = lazy(_LITERAL)
# after the field, on the line that binds a variable to it: a method, an index or a filter that makes
# another value of it (`.rsplit("__", 1)[-1]`, `.lower()`, jq's `| ascii_downcase`), which is not judged
TRANSFORMED = lazy(r"""[\])'"]\s*(?:\.[A-Za-z_]|\[)|\.\w+\(|[^|]\|[^|]""")
ARM_PATTERNS = lazy(r"""(?:^|;;|;&|\n)[ \t]*\(?[ \t]*(?P<pats>[^\n()]+?)[ \t]*\)""")  # a case arm's patterns
ONE_PATTERN = lazy(r"""[^|\s]+""")
_NORMALISED = lazy(r"""relpath|relative|realpath|readlink|removeprefix|lstrip|\.replace\(|\$\{\w+#|cwd|PWD|resolve\(""",
                   needs=("relpath", "relative", "realpath", "readlink", "removeprefix", "lstrip", ".replace(", "${", "cwd",
                          "PWD", "resolve("))


def _names(code: str, language: str, field: str) -> list[str]:
    """How the code refers to the field: in place, or by the variables bound to it, or by the
    parameters of the functions it is handed to (`check(event.tool_name, ...)` with `function
    check(tool, args)`), each a regex."""
    binds = "=" in code  # (every binding below holds one: no pattern to compile for a text without it)
    bound = {m.group("var") for m in re.finditer(_BOUND[language].format(q=_Q, field=field), code, re.M)
             if not TRANSFORMED.search(code, m.end(), code.find("\n", m.end()) % (len(code) + 1))} if binds else set()
    if language == "javascript" and binds:
        bound |= {m.group("var") or field for m in re.finditer(_DESTRUCTURED.format(field=field), code)}

    def regex(name: str) -> str:
        return rf"\$\{{?{re.escape(name)}\}}?" if language == "shell" else rf"(?<![\w.$]){re.escape(name)}(?![\w$])"

    names = [_READ_IN_PLACE.format(q=_Q, field=field), *(regex(v) for v in sorted(bound))]
    if language != "shell":
        for _ in range(PARAMETER_DEPTH):
            more = _parameters_given(code, language, names) - bound
            if not more:
                break
            bound |= more
            names += [regex(v) for v in sorted(more)]
    return names


RECEIVER = r"(?:[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*)?"  # what a field is read from: `event`, `input.data`
PARAMETER = lazy(r"[ \t]*([A-Za-z_$][\w$]*)")
PARAMETER_DEPTH = 2  # a function that hands the value to another is followed once more
CALL = lazy(r"""(?<![\w$.])(?P<fn>[A-Za-z_$][\w$]*)[ \t]*\(""")
DEFINITION = {
    "python": r"""\bdef[ \t]+{fn}[ \t]*\((?P<params>[^)]*)\)""",
    "javascript": r"""(?:\bfunction[ \t]*\*?[ \t]*{fn}[ \t]*\((?P<params>[^)]*)\)|\b{fn}[ \t]*=[ \t]*(?:async[ \t]+)?"""
                  r"""(?:function[ \t]*)?\((?P<params2>[^)]*)\)|^[ \t]*(?:async[ \t]+)?{fn}[ \t]*\((?P<params3>[^)]*)\)[ \t]*\{{)""",
}


def _parameters_given(code: str, language: str, names: list[str]) -> set[str]:
    """The parameters of the functions of the file that a call hands one of these values to, by
    its place among the arguments (not a method, not an argument spread or named)."""
    given = re.compile(rf"""^[ \t]*{RECEIVER}(?:{"|".join(names)})[ \t]*$""")
    found: set[str] = set()
    for call in CALL.finditer(code):
        if call.group("fn") in ("if", "while", "for", "switch", "return", "print", "len", "str", "String"):
            continue
        args = _arguments(code, call.end())
        places = [i for i, arg in enumerate(args) if given.match(arg)]
        if not places:
            continue
        definition = re.search(DEFINITION[language].format(fn=re.escape(call.group("fn"))), code, re.M)
        if definition is None:
            continue
        params = next(p for p in definition.groups() if p is not None).split(",")
        if params and params[0].strip() in ("self", "cls"):
            params = params[1:]
        for place in places:
            if place < len(params):
                name = PARAMETER.match(params[place])
                if name and not params[place].lstrip().startswith(("*", "...", "{", "[")):
                    found.add(name.group(1))
    return found


def compared_values(code: str, language: str) -> Iterator[Compared]:
    """The literals `code` (comments blanked) compares a field of the call with, by equality, in a
    list or set it looks the value up in, in a `case` arm, or as a prefix (startswith); a path's
    only where the code does not turn the path into another first."""
    if language not in _BOUND:
        return
    for field in COMPARED_FIELDS if not normalises_paths(code) else COMPARED_FIELDS[:1]:
        if field not in code:  # every way of reading it below names it: no pattern to build (and compile)
            continue
        # each pattern below is built from the field's names and compiled for this text: the words
        # one of which every match of it holds are looked for first (`doctor FILE` on a typical
        # file compiled four such patterns, about 7 M instructions, for a command that compares nothing)
        equality, case = "=" in code, "case" in code
        for name in _names(code, language, field):
            named = rf"""["']?{name}["']?""" if language == "shell" else name
            equals = r"(?:={1,3}|!==?)" if language == "shell" else _EQUALS
            for m in re.finditer(rf"""{named}[ \t]*\)?[ \t]*{equals}[ \t]*{_LITERAL}""", code) if equality else ():
                yield Compared(field, m.group("lit"), m.start("lit"))
            for m in re.finditer(rf"""{_LITERAL}[ \t]*{_EQUALS}[ \t]*{named}""", code) if equality else ():
                yield Compared(field, m.group("lit"), m.start("lit"))
            if language == "shell":
                for m in re.finditer(rf"""\[\[?[ \t]+{named}[ \t]+(?:==?|!=)[ \t]+(?P<lit>[^\s"'\]]+)""",
                                     code) if equality else ():
                    yield Compared(field, m.group("lit"), m.start("lit"))
                for block in re.finditer(rf"""\bcase[ \t]+{named}[ \t]+in\b(?P<body>.*?)\besac\b""", code,
                                         re.S) if case else ():
                    for arm in ARM_PATTERNS.finditer(block.group("body")):
                        start = block.start("body") + arm.start("pats")
                        for pattern in ONE_PATTERN.finditer(arm.group("pats")):
                            yield Compared(field, pattern.group().strip("\"'"), start + pattern.start())
            else:
                for m in re.finditer(rf"""{name}[ \t]+(?:not[ \t]+)?in[ \t]*[\(\[\{{](?P<items>[^\)\]\}}\n]*)""",
                                     code) if "in" in code else ():
                    for item in LITERAL.finditer(m.group("items")):
                        yield Compared(field, item.group("lit"), m.start("items") + item.start("lit"))
                for m in re.finditer(rf"""\[(?P<items>[^\[\]\n]*)\]\.includes\([ \t]*{name}[ \t]*\)""",
                                     code) if ".includes(" in code else ():
                    for item in LITERAL.finditer(m.group("items")):
                        yield Compared(field, item.group("lit"), m.start("items") + item.start("lit"))
                for m in re.finditer(rf"""{name}\.(?:startswith|startsWith)\([ \t]*\(?(?P<items>[^)\n]*)""",
                                     code) if "startswith(" in code or "startsWith(" in code else ():
                    for item in LITERAL.finditer(m.group("items")):
                        yield Compared(field, item.group("lit") + "*", m.start("items") + item.start("lit"))
                if field == "tool_name":
                    yield from _looked_up(code, name)


SWITCH = lazy(r"""\bswitch[ \t]*\(""", needs=("switch",))
CASE_LABEL = lazy(r"""\bcase[ \t]+(?P<q>["'`])(?P<lit>[^"'`\n]*)(?P=q)[ \t]*:""", needs=("case",))
TABLE = r"""(?<![\w$.])(?P<table>[A-Za-z_$][\w$]*)[ \t]*(?:\.get\([ \t]*|\[[ \t]*){receiver}(?:{name})[ \t]*[,)\]]"""
TABLE_KEY = lazy(r"""(?:^|[{{,\n])[ \t]*(?P<q>["'`]?)(?P<lit>[A-Za-z_][\w-]*)(?P=q)[ \t]*:(?![:=])""")


def _arguments(code: str, start: int) -> list[str]:
    """A call's arguments, from just after its `(` to the `)` that closes it on the same line,
    split at the commas outside brackets and strings."""
    args: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for ch in code[start:code.find("\n", start) % (len(code) + 1)]:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return [*args, "".join(current)]
            depth -= 1
        elif ch == "," and depth == 0:
            args.append("".join(current))
            current = []
            continue
        current.append(ch)
    return []


def _looked_up(code: str, name: str) -> Iterator[Compared]:
    """A tool name looked up in a table the file writes (`GUARDS.get(tool)`, `HANDLERS[tool]`: its
    keys are the names compared) or switched on (`switch (tool) { case "bash": ... }`)."""
    for m in SWITCH.finditer(code):
        subject = code[m.end():code.find(")", m.end()) % (len(code) + 1)]
        if re.fullmatch(rf"[ \t]*{RECEIVER}(?:{name})[ \t]*", subject):
            body_start = code.find("{", m.end())
            body = code[body_start:_block_end(code, body_start)] if body_start >= 0 else ""
            for label in CASE_LABEL.finditer(body):
                yield Compared("tool_name", label.group("lit"), body_start + label.start("lit"))
    for m in re.finditer(TABLE.format(name=name, receiver=RECEIVER), code):
        written = re.search(rf"""(?<![\w$.]){re.escape(m.group("table"))}[ \t]*(?::[^=\n]*)?=[ \t]*\{{""", code)
        if written is None:
            continue
        start = written.end() - 1
        body = code[start:_block_end(code, start)]
        depth_one = _outer_level(body)
        for key in TABLE_KEY.finditer(depth_one):
            yield Compared("tool_name", key.group("lit"), start + key.start("lit"))


def _block_end(code: str, start: int) -> int:
    """The offset just past the brace that closes the one at `start` (the code's end if none does)."""
    closing = closing_brace(code, start)
    return len(code) if closing is None else closing + 1


def _outer_level(body: str) -> str:
    """A table's text with what is nested deeper than its own keys blanked (offsets kept)."""
    out, depth = [], 0
    for ch in body:
        if ch in "{[(":
            depth += 1
            out.append(ch if depth == 1 else " ")
        elif ch in "}])":
            out.append(ch if depth == 1 else " ")
            depth -= 1
        else:
            out.append(ch if depth == 1 else (" " if ch != "\n" else ch))
    return "".join(out)


def relative_path_pattern(text: str) -> bool:
    """A pattern for a file's path that only a relative path can match (`src/generated/*`,
    `./src/*`): the host sends `file_path` absolute."""
    return "/" in text and not text.startswith(("/", "*", "~", "$", "?", "[")) and " " not in text


def bare_name(text: str) -> bool:
    """A file's bare name or a pattern anchored at one (`.env`, `secrets.json`, `.env*` of a
    startswith): an absolute path never equals it, nor starts with it."""
    return "." in text and text not in ("null", "None", "undefined", "-") and " " not in text \
        and not text.startswith(("/", "*", "~", "$", "?", "[", "\\"))


def normalises_paths(code: str) -> bool:
    """Whether the code may turn the path it got into another (relative to the project...)."""
    return bool(_NORMALISED.search(code))
