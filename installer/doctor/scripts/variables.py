"""Where a hook's code reads a variable with nothing standing in for it when it is unset: read
by the rule of a variable one agent sets for its hooks and another does not
(script/variable-of-another-host: a Codex command, a script two agents share, an opencode plugin)."""
from __future__ import annotations

import re


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
