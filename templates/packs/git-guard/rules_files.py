"""git-guard's rules files, read only when there is one: each checked as a whole (the schema's
checks, schemas/git-guard-rules.schema.json, in a small checker a test holds to it; regexes that
do not compile, reasons for no rule, a key twice), and the layers combined over the built-in
rules (git_guard.active_rules finds the files and keeps what they make). Stdlib only, Python >= 3.8.
"""

import hookwright_runtime as hw
from git_guard import NAME, RULE_IDS, RULES, Rule

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from collections.abc import Sequence
    from re import Pattern
    from typing import NoReturn

MAX_RULES_FILE = 1 << 20
FILE_KEYS = ("$schema", "rules", "reasons")
# Unicode's White_Space, as the schema's pattern spells it out (Python's str.isspace counts \x1c-\x1f too)
WHITE_SPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                        "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def structure_problem(data: object) -> "str | None":
    """What makes a rules file invalid by schemas/git-guard-rules.schema.json, or None. (The
    runtime cannot load a schema validator; a test keeps this checker and the schema in step.)"""
    if not isinstance(data, dict):
        return "expected a JSON object"
    for key in data:
        if key not in FILE_KEYS:
            return "unknown key %r (expected \"rules\" and \"reasons\")" % key
    if not isinstance(data.get("$schema", ""), str):
        return "\"$schema\" must be a string"
    for table in ("rules", "reasons"):
        if not isinstance(data.get(table, {}), dict):
            return "\"%s\" must be an object of rule ids" % table
        for rule_id, value in data.get(table, {}).items():
            if not rule_id:
                return "a rule id must not be empty"
            if table == "rules" and (not isinstance(value, list) or not all(isinstance(r, str) for r in value)):
                return "rules.%s must be a list of regex strings" % rule_id
            if table == "reasons" and (not isinstance(value, str) or all(c in WHITE_SPACE for c in value)):
                return "reasons.%s must be a non-empty string" % rule_id
    return None


class Layer(object):
    """One valid rules file: its rules (id -> compiled regexes) and reasons, in file order."""

    def __init__(self, path: str, patterns: "dict[str, list[Pattern[str]]]", reasons: "dict[str, str]") -> None:
        self.path, self.patterns, self.reasons = path, patterns, reasons


def layer_of(data: object, path: str = "") -> Layer:
    """A rules file's layer; ValueError says what makes it invalid: the schema's checks, a regex
    Python's re does not compile, or a reason for a rule neither built in nor in this file."""
    import re  # json has imported it already

    problem = structure_problem(data)
    if problem or not isinstance(data, dict):
        raise ValueError(problem or "expected a JSON object")
    patterns: "dict[str, list[Pattern[str]]]" = {}
    for rule_id, regexes in data.get("rules", {}).items():
        compiled: "list[Pattern[str]]" = []
        for regex in regexes:
            try:
                compiled.append(re.compile(regex))
            except (re.error, RecursionError, OverflowError) as error:
                raise ValueError("rules.%s: regex %r does not compile: %s" % (rule_id, regex, error)) from None
        patterns[rule_id] = compiled
    reasons = dict(data.get("reasons", {}))
    for rule_id in reasons:
        if rule_id not in patterns and rule_id not in RULE_IDS:
            raise ValueError("reasons.%s names no rule" % rule_id)
    return Layer(path, patterns, reasons)


def combined(layers: "Sequence[Layer]") -> "list[Rule]":
    """The rules in force: the built-ins, each replaced (or switched off) by the last layer naming
    it, then the rules the layers add, in the order they first appear."""
    patterns: "dict[str, list[Pattern[str]]]" = {}
    reasons: "dict[str, str]" = {}
    sources: "dict[str, str]" = {}
    for layer in layers:
        patterns.update(layer.patterns)
        reasons.update(layer.reasons)
        sources.update((rule_id, layer.path) for rule_id in layer.patterns)
    active = []
    for rule_id, check, default_reason in RULES:
        if rule_id not in patterns:
            active.append(Rule(rule_id, check, reason=reasons.get(rule_id)))
        elif patterns[rule_id]:
            active.append(Rule(rule_id, patterns=patterns[rule_id], reason=reasons.get(rule_id) or default_reason))
    for rule_id, compiled in patterns.items():
        if rule_id not in RULE_IDS and compiled:
            active.append(Rule(rule_id, patterns=compiled, reason=reasons.get(rule_id), source=sources[rule_id]))
    return active


def rules_from(data: object) -> "list[Rule]":
    """The rules in force with one rules file's contents; ValueError says what is wrong."""
    return combined([layer_of(data)])


def read_layer(path: str) -> "Layer | None":
    """The layer of the rules file at `path`; None if there is none, or (logged) if it is invalid."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_RULES_FILE + 1)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        hw.log(NAME, "%s ignored as a whole, its rules are not in force: cannot be read: %s"
               % (path, error.strerror or error))
        return None
    try:
        if len(raw) > MAX_RULES_FILE:
            raise ValueError("larger than %d bytes" % MAX_RULES_FILE)
        return layer_of(_strict_json(raw), path)
    except ValueError as error:
        hw.log(NAME, "%s ignored as a whole, its rules are not in force: %s" % (path, error))
        return None


def _strict_json(raw: bytes) -> object:
    """JSON as git-guard reads a rules file: UTF-8, no NaN, no key twice in one object."""
    import json

    def no_constant(word: str) -> "NoReturn":
        raise ValueError("%s is not JSON" % word)

    def no_duplicates(pairs: "list[tuple[str, object]]") -> "dict[str, object]":
        found: "dict[str, object]" = {}
        for key, value in pairs:
            if key in found:
                raise ValueError("the key %r is there twice" % key)
            found[key] = value
        return found

    try:
        return json.loads(raw.decode("utf-8"), object_pairs_hook=no_duplicates, parse_constant=no_constant)
    except UnicodeDecodeError:
        raise ValueError("not UTF-8") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except ValueError as error:
        raise ValueError("not valid JSON: %s" % error) from None
