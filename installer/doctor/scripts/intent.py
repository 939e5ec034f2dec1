"""What a hook script says it is for, read from its name and its opening comment or docstring:
a guard that means to stop a change, or a checker that runs a program on what was written and
tells Claude about it. The rules that judge a hook by what its author meant (a guard on an event
that runs after the call, a guard whose matcher misses a tool that does the same) read it here."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ... import safe_read
from ...errors import HookwrightError
from ...patterns import lazy
from .. import disk
from .flow import REFUSAL

HEAD_LINES = 15  # the opening comment or docstring: where a script says what it is for
# words of a guard's purpose beside the refusal words (flow.REFUSAL): "protect", "never edit", "owned by"
GUARD_WORDS = lazy(r"(?i)\b(?:protect\w*|guard\w*|forbid\w*|must not|may not|must never|never (?:be )?(?:hand-?)?"
                   r"(?:edit|chang|writ|touch|modif|overwrit|delet|read)\w*|owned by|off[- ]limits|read[- ]only|"
                   r"keep \w+ out)\b")
GUARD_NAME = lazy(r"(?i)protect|guard|block|deny|forbid|prevent|refus")
# a script that runs a checker on what was written (a linter, a formatter, a type checker, tests):
# its exit 2 is feedback on the result, which is what an after-the-call hook is for
RUNS_A_CHECKER = lazy(r"(?m)\b(?:subprocess|os\.system|os\.popen|execSync|execFileSync|spawnSync|execa|child_process|"
                      r"Bun\.spawn|Bun\.\$)\b|node_modules/\.bin/|(?:^|[;&|(]|\$\(|\bthen|\bdo|\bif|!)\s*(?:"
                      r"ruff|eslint|prettier|tsc|mypy|pyright|pytest|black|flake8|pylint|shellcheck|gofmt|golangci-lint|"
                      r"cargo|rustfmt|npm|npx|pnpm|yarn|bunx|jest|vitest|rubocop|biome|make|go)\b")
# it looks at what was written: the new content, or the file itself (a check of the result); a text
# tool counts where it starts a command (and so reads a file it is given), not where a pipe feeds it a
# string: `printf '%s' "$cmd" | grep -Eq 'terraform apply'` tests the call's input, as a guard does
READS_THE_RESULT = lazy(r"\b(?:content|new_string|newString|edits|readFileSync|readFile|read_text)\b|"
                        r"(?:^|[;&(!]|\$\(|\bthen|\bdo|\bif|\belse)[ \t]*(?:grep|rg|awk|wc|diff)\b|"
                        r"\bopen\(|\bcat\s+[\"$]", re.M)
# a change the guard means for new files only: Write alone is what creates one
NEW_FILES_ONLY = lazy(r"(?i)\b(?:creat\w*|new files?|does not exist|not exists?|os\.path\.exists|existsSync|-e \")")


def text_of(path: Path) -> str:
    """A script's text as doctor reads a script (bounded, undecodable bytes replaced); "" where it
    cannot be read. Kept while its size and mtime stay the same, as keys.analyse keeps its facts."""
    stat = disk.stat(path)
    return "" if stat is None else _text_of(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=1024)
def _text_of(path: Path, size: int, mtime: int) -> str:
    try:
        return safe_read.read(path, safe_read.SCRIPT).decode("utf-8", "replace")
    except (OSError, HookwrightError):
        return ""


def head(text: str) -> str:
    """Its first lines: the shebang, the opening comment or docstring."""
    return "\n".join(text.splitlines()[:HEAD_LINES])


def says_it_guards(text: str, path: Path | None) -> bool:
    """Its name or opening lines say it stops something (refuses, blocks, protects, forbids)."""
    opening = head(text)
    named = path is not None and GUARD_NAME.search(path.stem) is not None
    return named or REFUSAL.search(opening) is not None or GUARD_WORDS.search(opening) is not None


def judges_the_result(text: str) -> bool:
    """It runs a checker on what was written, reads the tool's result or looks at the content
    written: its exit 2 after the call is feedback on that result, not a refusal that came too late."""
    return "tool_response" in text or "toolResponse" in text or RUNS_A_CHECKER.search(text) is not None \
        or READS_THE_RESULT.search(text) is not None


def guard_after_the_fact(text: str, path: Path | None) -> bool:
    """A script that says it stops a change and decides from the call's input alone."""
    return bool(text) and says_it_guards(text, path) and not judges_the_result(text)


def for_new_files_only(text: str) -> bool:
    """It says or tests that it is about creating files (what Write alone does)."""
    return NEW_FILES_ONLY.search(text) is not None
