"""Claude Code settings: SchemaStore's schema outside "hooks", with the permission rules read as
Claude Code reads them, and settings files as objects (scopes.py reads them together)."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, TypedDict

from .... import resources, valid
from ....document import Keys
from ....hooks.events import (
    BUILTIN_TOOLS,
)
from ....hosts.base import describe
from ....patterns import joins
from ...model import ConfigFile
from ...shell.lex import NAME

SCHEMASTORE_SOURCE = "schemastore/claude-code-settings.json"  # the settings schema the editors use
SCHEMASTORE = "schemastore/claude-code-settings.assertions.json"  # ...without its descriptions (build_rule_catalog.py)


if TYPE_CHECKING:  # (a type only annotations name: a TypedDict compiles each of its annotations when its module loads)
    class ProblemFields(TypedDict, total=False):
        """The fields the schema rules' wordings fill in."""

        where: str  # the JSON path, as a/b/0
        found: str  # the value, as shown
        rule: str  # a permission rule, quoted
        allowed: str  # an enum's values
        types: str  # the types a value may have
        problem: str  # jsonschema-rs's own message, where no wording of ours fits


class SettingsProblem:
    """One thing wrong in a settings file outside "hooks", which of the two schema rules says it,
    and in which of its wordings."""

    def __init__(self, rule: str, keys: Keys, variant: str | None, fields: ProblemFields) -> None:
        self.rule = rule  # structure/settings-schema or structure/settings-schema-opinion
        self.keys = keys
        self.variant = variant
        self.fields = fields


def shown_value(value: Any) -> str:
    """A value as a message shows it: as written, or its type where that is long (the handler rules
    show a field's value so too)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else describe(value)


# ---- Claude Code settings: SchemaStore's schema outside "hooks" --------------------------------------

def problems_outside_hooks(rest: dict[str, Any]) -> list[SettingsProblem]:
    """A Claude Code settings file's problems outside "hooks": its permission rules first, then
    SchemaStore's complaints."""
    found = list(_permission_problems(rest.get("permissions")))
    for error in settings_schema_errors(_without_permission_rules(rest)):
        rule = "structure/settings-schema-opinion" if _opinion(error) else "structure/settings-schema"
        variant, fields = _problem(error)
        fields["where"] = "/".join(str(k) for k in error.keys) or "the top level"
        found.append(SettingsProblem(rule, error.keys, variant, fields))
    return found


class SchemaError:
    """One schema violation, as the rules below read it."""

    def __init__(self, keys: Keys, validator: str, instance: Any, allowed: tuple[Any, ...] = (), message: str = "") -> None:
        self.keys = keys  # where the offending value is
        self.validator = validator  # the schema keyword it breaks: type, enum, pattern, additionalProperties...
        self.instance = instance  # the offending value (for a key name that breaks propertyNames: the name)
        self.allowed = allowed  # enum: the allowed values; type: the allowed types; additionalProperties: the extra keys
        self.message = message

    @classmethod
    def of(cls, error: Any) -> SchemaError:
        keys = tuple(error.instance_path)
        if error.kind.name == "propertyNames":  # judge the key name itself
            error = error.kind.error
        kind = error.kind
        allowed: Iterable[Any] = (getattr(kind, "options", None) or getattr(kind, "types", None)
                                  or getattr(kind, "unexpected", None) or ())
        return cls(keys, kind.name, error.instance, tuple(allowed), error.message)


def settings_schema_errors(settings: dict[str, Any]) -> list[SchemaError]:
    """SchemaStore's complaints about a settings object, in document order of their paths: told
    and listed by valid.py where it can (jsonschema-rs's errors, the same ones), else by
    jsonschema-rs (a run with no other error spares its import: 77 M instructions a process)."""
    schema = resources.schema(SCHEMASTORE)
    try:
        errors = [] if valid.valid(schema, settings) else [
            SchemaError(*error) for error in valid.violations(schema, resources.encodable(settings))]
    except valid.Unsure:
        errors = [SchemaError.of(error) for error in resources.schema_errors(SCHEMASTORE, settings)]
    return sorted(errors, key=lambda e: [str(k) for k in e.keys])


PERMISSION_LISTS = ("allow", "deny", "ask")
BUILTIN_TOOL_NAMES = frozenset(BUILTIN_TOOLS)
NAME_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def _without_permission_rules(settings: dict[str, Any]) -> dict[str, Any]:
    """Permission rules are read by our own check below: SchemaStore's pattern for them is one
    huge regex (four fifths of the time doctor spent on a corpus) and lags the host's tools."""
    permissions = settings.get("permissions")
    if not isinstance(permissions, dict):
        return settings
    lists: dict[str, list[Any]] = {key: [] for key in PERMISSION_LISTS if isinstance(permissions.get(key), list)}
    return {**settings, "permissions": {**permissions, **lists}}


def _permission_problems(permissions: Any) -> Iterator[SettingsProblem]:
    """Each rule must read as `Tool` or `Tool(specifier)`; a tool Claude Code does not have is
    worth a warning (SchemaStore's list lags the host, so not an error)."""
    if not isinstance(permissions, dict):
        return
    for key in PERMISSION_LISTS:
        rules = permissions.get(key)
        for index, rule in enumerate(rules if isinstance(rules, list) else []):
            if not isinstance(rule, str):
                yield SettingsProblem("structure/settings-schema", ("permissions", key, index), "not-string",
                                      {"where": f"permissions/{key}/{index}", "found": describe(rule)})
            elif (variant := _rule_problem(rule)) == "not-a-rule":
                yield SettingsProblem("structure/settings-schema", ("permissions", key, index), "not-a-rule",
                                      {"where": f"permissions/{key}/{index}", "rule": json.dumps(rule)})
            elif variant == "unknown-tool":
                yield SettingsProblem("structure/settings-schema-opinion", ("permissions", key, index), "unknown-tool",
                                      {"where": f"permissions/{key}/{index}", "rule": json.dumps(rule)})


# kept per rule text: a settings file holds tens to hundreds of rules, and the projects of a tree
# share many (the corpus tree's 7,888 rules are 4,314 texts); each rule's tests are about 10,000
# instructions, a kept verdict a few hundred: the tree's permission rules 80 M -> 63 M instructions
@lru_cache(maxsize=8192)
def _rule_problem(rule: str) -> str | None:
    """What is wrong with a permission rule: "not-a-rule" where it does not parse, "unknown-tool"
    where it names a tool Claude Code does not have (not an MCP tool); None for a good rule."""
    if not _parses_as_permission_rule(rule):
        return "not-a-rule"
    if not rule.startswith("mcp__") and rule.split("(", 1)[0] not in BUILTIN_TOOL_NAMES:
        return "unknown-tool"
    return None


def _opinion(error: SchemaError) -> bool:
    """Where SchemaStore is stricter than the host, as the corpus of real configs and the real CLI
    show: the tools a permission rule may name (it lags the host's tool list), env names and
    values, enum values it lacks, and top-level settings newer than the schema. A permission rule
    that cannot parse, a wrong type (measured on 2.1.332: `"cleanupPeriodDays": "thirty"` made
    Claude Code ignore the whole file), a missing field or an unknown key inside a known setting
    stays an error."""
    keys = error.keys
    if error.validator == "additionalProperties":  # newer top-level settings, and notes to the reader
        return not keys or all(k.startswith(("_", "$", "//")) for k in error.allowed)
    if keys == ("env",):  # a variable's name: upper case is SchemaStore's taste, a space a real error
        return NAME.fullmatch(str(error.instance)) is not None
    if keys[:1] == ("env",):  # a variable's value: a number read as one (measured on 2.1.332: the file loaded)
        return error.validator in ("pattern", "enum", "type")
    # a value SchemaStore's enum lacks: its lists lag the host (measured on 2.1.332: effortLevel "max" loaded)
    return error.validator == "enum"


def _plain_rule(rule: str) -> bool:
    """`mcp__...` without a parenthesis, or `Tool`, or `Tool(specifier)` whose specifier holds no
    parenthesis or backslash (str methods, not a pattern: its compile was 0.7 M instructions of
    doctor on a typical file)."""
    if rule.startswith("mcp__") and "(" not in rule:
        return True
    name, parenthesis, rest = rule.partition("(")
    tail = name[1:].replace("-", "").replace("_", "")  # (after its first character: `\w` or `-`)
    if not name or name[0] not in NAME_STARTS or tail and not tail.isalnum():
        return False
    specifier = rest[:-1]
    return not parenthesis or (rest.endswith(")") and specifier != "" and "(" not in specifier
                               and ")" not in specifier and "\\" not in specifier)


def _parses_as_permission_rule(rule: str) -> bool:
    """`Tool` or `Tool(specifier)`: a non-empty specifier whose parentheses balance and close the
    rule. It may hold parentheses itself, escaped or balanced (Claude Code saves approved commands
    such as `Bash(python -c "json.load\\(sys.stdin\\)")`); two rules in one string do not parse."""
    if _plain_rule(rule):  # most rules: nothing to balance (a file of 160,000: 5 s to 0.2 s)
        return True
    # the tool's name (`[A-Za-z_][\w-]*`), then each escaped character (`\\.`) passed over and each
    # parenthesis counted: str tests, not the two patterns, whose compiles were each process's
    # that met a rule with a parenthesis in its specifier
    if not rule or rule[0] not in NAME_STARTS:
        return False
    end = 1
    while end < len(rule) and joins(rule[end], "-"):
        end += 1
    specifier = rule[end:]
    if not specifier:
        return True
    if len(specifier) < 3 or specifier[0] != "(":
        return False
    depth, at = 0, 0
    while at < len(specifier):
        character = specifier[at]
        if character == "\\":
            at += 2
            continue
        if character in "()":
            depth += 1 if character == "(" else -1
            if depth == 0:
                return at + 1 == len(specifier)
        at += 1
    return False


def _problem(error: SchemaError) -> tuple[str | None, ProblemFields]:
    """The schema rules' wording of one violation, and its fields: ours for the common
    validators, else jsonschema-rs's own message (cut short)."""
    shown = shown_value(error.instance)
    if error.validator == "pattern":
        return "pattern", {"found": shown}
    if error.validator == "enum":
        allowed = ", ".join(json.dumps(v) for v in error.allowed[:8]) + (", ..." if len(error.allowed) > 8 else "")
        return "enum", {"found": shown, "allowed": allowed}
    if error.validator == "type":
        return "type", {"found": shown, "types": " or ".join(error.allowed)}
    message = error.message
    return None, {"problem": message if len(message) <= 160 else message[:157] + "..."}


# ---- settings files as objects (scopes.py reads them together) ----------------------------------

class ObjectFile:
    """A file doctor read whose JSON is an object: a Claude Code settings file, a plugin's manifest."""

    def __init__(self, file: ConfigFile, data: dict[str, Any]) -> None:
        self.file = file
        self.data = data

    @property
    def managed(self) -> bool:
        return self.file.scope == "managed" or self.file.path.name.startswith("managed-settings")


def settings_objects(files: list[ConfigFile]) -> list[ObjectFile]:
    return [ObjectFile(f, f.document.data) for f in files if f.kind == "claude-settings" and f.document is not None
            and isinstance(f.document.data, dict)]
