"""The words every doctor check speaks: config files, the handlers in them, findings.

Checks are plain functions `check(ctx: Context) -> Iterable[Finding]` in
installer/doctor/checks/<kind>.py. They build findings with `ctx.finding(rule_id, file,
keys, **params)`: the rule's severity, message and hint come from the catalog
(installer/doctor/rules/<kind>.toml), the line and column from the JSON path `keys`.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from installer.document import Document

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SEVERITIES = ("error", "warning", "info")
RULES_DIR = Path(__file__).resolve().parent / "rules"


@dataclass(frozen=True)
class Rule:
    id: str  # "<kind>/<name>", stable: tools and users refer to it
    kind: str  # structure | matcher | command | script | conflict | host
    severity: str
    message: str  # str.format template, filled from the finding's params
    hint: str
    explanation: str


@cache
def catalog() -> dict[str, Rule]:
    """Every rule, from the TOML files in rules/ (one per kind): `[rule-name]` tables."""
    rules = {}
    for path in sorted(RULES_DIR.glob("*.toml")):
        kind = path.stem
        for name, raw in tomllib.loads(path.read_text(encoding="utf-8")).items():
            rule_id = f"{kind}/{name}"
            if raw["severity"] not in SEVERITIES:
                raise ValueError(f"{path}: {rule_id} has severity {raw['severity']!r}")
            rules[rule_id] = Rule(rule_id, kind, raw["severity"], raw["message"], raw["hint"],
                                  raw["explanation"].strip())
    return rules


@dataclass
class ConfigFile:
    """One file that holds (or should hold) hooks."""

    path: Path
    kind: str  # claude-settings | claude-plugin-hooks | cursor-hooks | opencode-config | opencode-plugin | unknown
    host: str  # claude | cursor | opencode
    scope: str  # user | project | local | managed | plugin | given
    document: Document | None = None  # None for files that are not JSON (opencode plugins) or unreadable
    project: Path | None = None  # what $CLAUDE_PROJECT_DIR is for this file's hooks
    plugin: str | None = None  # "name@marketplace" for a plugin's hooks file

    def position(self, keys: tuple) -> tuple[int | None, int | None]:
        node = self.document.node_at(*keys) if self.document and self.document.root else None
        return self.document.position(node) if node is not None else (None, None)


@dataclass
class Handler:
    """One hook handler as the host would load it."""

    file: ConfigFile
    event: str
    matcher: str | None  # None: no matcher (matches everything)
    value: Any  # the handler's JSON (a dict; a bare string where someone wrote one)
    keys: tuple  # JSON path to the handler, e.g. ("hooks", "PreToolUse", 0, "hooks", 1)
    group_keys: tuple  # JSON path to its matcher group (Claude); == keys for flat Cursor entries
    owner: tuple[str, str] | None = None  # (pack, script) when it runs one of our runtimes

    @property
    def command(self) -> str | None:
        return self.value.get("command") if isinstance(self.value, dict) else None


@dataclass
class Finding:
    rule: str
    severity: str
    path: str
    line: int | None
    column: int | None
    message: str
    hint: str
    related: list[dict] = field(default_factory=list)  # other places involved: {"path", "line", "column", "message"}

    def to_json(self) -> dict:
        return {"rule": self.rule, "severity": self.severity, "path": self.path, "line": self.line,
                "column": self.column, "message": self.message, "hint": self.hint, "related": self.related}


@dataclass
class Context:
    files: list[ConfigFile]
    handlers: list[Handler]
    probe: bool = False
    tools: list[str] = field(default_factory=list)  # real tool names: built-ins and configured MCP tools

    def finding(self, rule_id: str, file: ConfigFile, keys: tuple = (), related: list[dict] | None = None,
                **params: Any) -> Finding:
        rule = catalog()[rule_id]
        line, column = file.position(keys)
        return Finding(rule.id, rule.severity, str(file.path), line, column, rule.message.format(**params),
                       rule.hint.format(**params), related or [])
