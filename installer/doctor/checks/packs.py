"""hookwright's own packs' files: git-guard's rules files, checked as git-guard reads them
(schemas/git-guard-rules.schema.json, and the regexes and reasons the schema cannot judge)."""
from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, Iterator

from ... import resources
from ...document import Keys
from ...errors import ErrorKind, did_you_mean
from ...records import Record
from ..model import ConfigFile, Context, Finding, RuleTable
from .structure.settings import SchemaError

SCHEMA = "git-guard-rules.schema.json"
RULES = RuleTable()


class Problem(Record):
    """Why git-guard would ignore the file: where, what, and what to do."""

    keys: Keys
    at_key: bool
    problem: str
    hint: str


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        if file.kind == "git-guard-rules":
            yield from RULES.run(ctx, file)


@cache
def builtin_rules() -> tuple[str, ...]:
    """git-guard's own rule ids, as the schema lists them (a test holds the list to the pack's)."""
    return tuple(resources.schema(SCHEMA)["$defs"]["builtin"]["enum"])


@RULES.rule("pack/git-guard-rules-invalid")
def _invalid(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    error = file.error
    if error is not None:
        problem = error.reason or error.message
        if error.kind is ErrorKind.DUPLICATE_KEY:
            problem = problem.split(":", 1)[0] + ": git-guard refuses a file with a key twice in one object"
        yield ctx.finding_at("pack/git-guard-rules-invalid", file, error.line, error.column, problem=problem,
                             hint=error.hint or "fix the file")
        return
    for found in problems(file.document.data if file.document is not None else None):
        yield ctx.finding("pack/git-guard-rules-invalid", file, found.keys, at_key=found.at_key,
                          problem=found.problem, hint=found.hint)


@RULES.rule("pack/git-guard-rule-off-unknown")
def _off_unknown(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    data = file.document.data if file.document is not None else None
    table = data.get("rules") if isinstance(data, dict) else None
    if not isinstance(table, dict) or problems(data):  # (an ignored file switches nothing off either)
        return
    for rule_id, regexes in table.items():
        if regexes == [] and rule_id not in builtin_rules():
            close = did_you_mean(rule_id, builtin_rules())
            yield ctx.finding("pack/git-guard-rule-off-unknown", file, ("rules", rule_id), at_key=True, rule=rule_id,
                              hint=close or f"the built-in rules: {', '.join(builtin_rules())}")


@RULES.rule("pack/git-guard-rules-weakened")
def _weakened(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    data = file.document.data if file.document is not None else None
    table = data.get("rules") if isinstance(data, dict) else None
    if file.scope == "user" or not isinstance(table, dict) or problems(data):
        return
    named = [rule_id for rule_id in table if rule_id in builtin_rules()]
    if named:
        described = ", ".join(f"{rule_id} ({'off' if table[rule_id] == [] else 'replaced'})" for rule_id in named)
        yield ctx.finding("pack/git-guard-rules-weakened", file, ("rules", named[0]), at_key=True, rules=described)


def problems(data: Any) -> list[Problem]:
    """Everything that makes git-guard ignore a rules file with this content: what breaks the
    schema, then, of what holds to it, the regexes and reasons git-guard cannot use."""
    found = sorted((_schema_problem(SchemaError.of(error)) for error in resources.schema_errors(SCHEMA, data)),
                   key=lambda p: [str(k) for k in p.keys])
    if not isinstance(data, dict):
        return found
    rules: dict[str, Any] = data["rules"] if isinstance(data.get("rules"), dict) else {}
    reasons: dict[str, Any] = data["reasons"] if isinstance(data.get("reasons"), dict) else {}
    for rule_id, regexes in rules.items():
        for index, regex in enumerate(regexes if isinstance(regexes, list) else []):
            if not isinstance(regex, str):
                continue
            try:
                re.compile(regex)
            except (re.error, RecursionError, OverflowError) as error:
                found.append(Problem(("rules", rule_id, index), False, f"the regex {json.dumps(regex)} does not "
                                     f"compile with Python's re: {error}", "fix the regex (it is Python's re syntax)"))
    for rule_id in reasons:
        if rule_id not in rules and rule_id not in builtin_rules():
            close = did_you_mean(rule_id, [*builtin_rules(), *rules])
            found.append(Problem(("reasons", rule_id), True, f"reasons.{rule_id} names no rule: it is neither built "
                                 "in nor in this file's rules", close or "name a built-in rule, or add it to rules"))
    return found


def _schema_problem(error: SchemaError) -> Problem:
    """A schema violation in the file's words: which key or value, and what it should be."""
    where = ".".join(str(k) for k in error.keys) or "the file"
    if error.validator == "additionalProperties":
        extra = [str(name) for name in error.allowed] or ["?"]
        return Problem(error.keys + (extra[0],), True, f"unknown key {json.dumps(extra[0])} in {where}",
                       'the file holds "rules" and "reasons" (and "$schema")')
    if error.validator == "minLength" and error.keys[:1] in (("rules",), ("reasons",)):
        return Problem(error.keys + ("",), True, f"an empty rule id in {where}", "give the rule an id")
    if error.validator == "pattern":
        return Problem(error.keys, False, f"{where} is blank", "write what the model should be told")
    return Problem(error.keys, False, f"{where}: {error.message}", f"see schemas/{SCHEMA}")
