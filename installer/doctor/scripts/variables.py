"""Where a hook's code reads a variable with nothing standing in for it when it is unset: read
by the rule of a variable one agent sets for its hooks and another does not
(script/variable-of-another-host: a Codex command, a script two agents share, an opencode plugin);
and a PATH the code sets itself, under which a program it runs is not found
(command/interpreter-not-found, for a command and for a shell script); and the variables a guard
reads from its environment, where the off-switch rules look for its switch (off_switch.py, loaded
only for a script that reads one)."""
from __future__ import annotations

import re
from pathlib import Path

from ...patterns import lazy
from ...records import Record
from .. import disk


def unguarded_use(text: str, variable: str) -> int | None:
    """Where the code makes a path of the variable, or reads it where a missing one stops the code
    (`os.environ["X"]`), with nothing standing in for it anywhere: no default (`${X:-.}`,
    `os.environ.get("X", ...)`, `process.env.X ?? ...`), no test of it, no value of its own; else None."""
    name = re.escape(variable)
    if re.search(rf"\$\{{{name}:?[-=+]|-[nz]\s+\"?\$\{{?{name}\b|[\"']{name}[\"']\s*(?:,|\)\s*or\b|\]\s*(?:\?\?|\|\|)|"
                 rf"\s+(?:not\s+)?in\b)|\b{name}\s*(?:\?\?|\|\||[!=]==?)|(?:^|[\s;&|(])(?:export\s+|declare\s+-x\s+)?{name}=|"
                 rf"[\"']{name}[\"']\s*\]\s*=(?!=)|\.{name}\s*=(?!=)|setdefault\(\s*[\"']{name}", text, re.M):
        return None
    for held in re.finditer(rf"(?m)^\s*(?:local\s+|export\s+|const\s+|let\s+|var\s+)?(\w+)\s*=\s*.*\b{name}\b", text):
        kept = re.escape(held.group(1))  # (a name given its value, tested or given a default where it is used)
        if re.search(rf"\$\{{{kept}:?[-=+]|-[nz]\s+\"?\$\{{?{kept}\b|\bnot\s+{kept}\b|\b{kept}\s+(?:or\b|is\s+None)|"
                     rf"\bif\s+{kept}\b|!{kept}\b|\b{kept}\s*(?:\?\?|\|\|)", text):
            return None
    use = re.search(rf"\$\{{?{name}\}}?\"?/|environ\[\s*[\"']{name}[\"']\s*\]|(?:environ\.get|getenv)\(\s*[\"']{name}[\"']\s*\)|"
                    rf"process\.env(?:\.{name}\b|\[\s*[\"']{name}[\"']\s*\])", text)
    return use.start() if use else None


SH_PATH_SET = lazy(r"""(?m)(?:^|[;&|]\s*|\benv\s+)(?:export[ \t]+)?PATH=(?P<value>"[^"\n$`]*"|'[^'\n]*'|[^\s;$`'"]+)"""
                   r"""(?:[ \t]*(?:;|&&|$|#)|(?P<prefix>[ \t]+(?=[A-Za-z_/])))""", needs=("PATH=",))
GUARDED = lazy(r"""\b(?:command\s+-v|type|hash|which)\s+(?:-\w+\s+)*(?P<name>[\w.+-]+)""",
               needs=("command", "type", "hash", "which"))
# a word where the shell looks a program up: at the start of a command, a pipe's part, a $( ) or a branch
AT_COMMAND = lazy(r"""(?:^|[;&|(`]|\$\(|\b(?:then|do|else|if|while|until|!)\s)\s*(?P<name>[A-Za-z_][\w.+-]*)(?=[\s;)`]|$)""")
SINGLE_QUOTED = lazy(r"'[^'\n]*'")  # (a $( ) in double quotes still runs its program)
SHELL_KEYWORDS = frozenset({"if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac",
                            "in", "function", "select", "time", "!", "{", "}", "(", ")", "[[", "]]", "local",
                            "export", "readonly", "declare"})


class Hidden(Record):
    """A program a PATH set in shell code hides: the PATH, where its value starts, the program,
    and the folder it is in here."""

    path: str
    offset: int
    program: str
    folder: str


def hidden_by_own_path(code: str, builtins: frozenset[str]) -> Hidden | None:
    """In shell code (comments out), the first program run after a PATH the code sets to literal
    folders (no $PATH kept: `export PATH=...`, or `PATH=... cmd` for that command) that is
    installed here but in none of them (`builtins`: the shell's own commands); a program checked
    first with `command -v` is left alone."""
    pinned = SH_PATH_SET.search(code) if "PATH=" in code else None
    if pinned is None:
        return None
    value = pinned["value"].strip("\"'")
    guarded = {m["name"] for m in GUARDED.finditer(code)}
    rest = code[pinned.end("value"):]
    lines = [rest.split("\n", 1)[0]] if pinned["prefix"] else rest.split("\n")  # (PATH=... cmd: that command)
    for line in lines:
        for found in AT_COMMAND.finditer(SINGLE_QUOTED.sub("''", line)) if line.strip() else ():
            name = found["name"]
            if name in builtins or name in SHELL_KEYWORDS or name in guarded:
                continue
            here = disk.which(name)
            if here is not None and disk.which(name, value) is None:
                return Hidden(value, pinned.start("value"), name, str(Path(here).parent))
            if pinned["prefix"]:  # (the one command the assignment is for)
                return None
    return None


# the variables a script reads from its environment, by language (upper-case names: a guard's own settings)
READ = {"shell": lazy(r"""\$\{?([A-Z][A-Z0-9_]*)""", needs=("$",)),
        "python": lazy(r"""(?:environ\.get|getenv)\([ \t]*["']([A-Z][A-Z0-9_]*)["']|environ\[[ \t]*["']([A-Z][A-Z0-9_]*)["']""",
                       needs=("environ", "getenv")),
        "javascript": lazy(r"""process\.env(?:\.([A-Z][A-Z0-9_]*)|\[[ \t]*["'`]([A-Z][A-Z0-9_]*)["'`])""",
                           needs=("process.env",))}
# a shell script that gives the variable a value of its own (`MODE=${MODE:-on}`, `: ${MODE:=on}`, `read MODE`)
SH_ASSIGNED = r"""(?m)(?:^[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+|declare[ \t]+(?:-\w+[ \t]+)*)?{name}=|\$\{{{name}:?=|\bread[ \t]+(?:-\w+[ \t]+)*{name}\b|\bfor[ \t]+{name}[ \t])"""


def read_variables(text: str, language: str) -> list[str]:
    """The upper-case variables the code reads from its environment, in order, each once; in a
    shell script, not those it gives a value of its own."""
    pattern = READ.get(language)
    names = dict.fromkeys(next(filter(None, found.groups())) for found in pattern.finditer(text)) if pattern else {}
    if language == "shell":
        return [name for name in names if not re.search(SH_ASSIGNED.format(name=re.escape(name)), text)]
    return list(names)
