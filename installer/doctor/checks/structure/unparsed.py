"""A file that could not be read or parsed (UNPARSED_RULES)."""
from __future__ import annotations

from typing import Any, Iterator

from .... import hosts
from ....errors import ErrorKind, HookwrightError
from ...model import HOST_NAMES, ConfigFile, Context, Finding, RuleTable

UNPARSED_RULES = RuleTable()  # a file that could not be read or parsed

# ---- a file that did not parse -----------------------------------------------------------------------

class Unparsed:
    """A file doctor could not read, or whose JSON did not parse."""

    def __init__(self, file: ConfigFile, error: HookwrightError) -> None:
        self.file = file
        self.error = error  # why it could not be read or parsed

    def finding(self, ctx: Context, rule_id: str, variant: str | None = None, **params: Any) -> Finding:
        """At the error's own line and column, with the reader's hint."""
        return ctx.finding_at(rule_id, self.file, self.error.line, self.error.column, variant=variant,
                              hint=self.error.hint or "fix the file", **params)


@UNPARSED_RULES.rule("structure/unreadable")
def _unreadable(ctx: Context, at: Unparsed) -> Iterator[Finding]:
    if at.error.kind is ErrorKind.UNREADABLE:
        yield at.finding(ctx, "structure/unreadable", error=at.error.message)


@UNPARSED_RULES.rule("structure/duplicate-key")
def _duplicate_key(ctx: Context, at: Unparsed) -> Iterator[Finding]:
    if at.error.kind is ErrorKind.DUPLICATE_KEY:
        yield at.finding(ctx, "structure/duplicate-key", error=at.error.message)


@UNPARSED_RULES.rule("structure/invalid-json")
def _invalid_json(ctx: Context, at: Unparsed) -> Iterator[Finding]:
    if at.error.kind not in (ErrorKind.UNREADABLE, ErrorKind.DUPLICATE_KEY):
        known = hosts.of_kind(at.file.kind)
        host = known.title if known is not None else HOST_NAMES.get(at.file.host, HOST_NAMES["claude"])  # (unknown: as Claude Code's)
        effect = known.unparsed_effect(at.file.path) if known is not None else None  # (a host's other format)
        yield at.finding(ctx, "structure/invalid-json", detail=at.error.reason if effect is None else at.error.message,
                         host=host, variant=effect)
