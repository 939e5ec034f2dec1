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
from typing import Iterator, NamedTuple

from ...patterns import lazy

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


class NeverTrue(NamedTuple):
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
