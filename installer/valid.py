"""Is a value valid against a JSON Schema? Decided exactly, in Python, for the keywords of
SchemaStore's settings schema (draft-07) and ours (2020-12), so that a file with nothing wrong
costs no jsonschema-rs: importing it alone takes longer (about 40 ms) than doctor takes to check a
typical project. Anything this module cannot decide exactly (an assertion it does not implement, a
float where an integer is asked for, a string a regex engine other than ECMAScript's could read
differently) raises Unsure, and the caller asks jsonschema-rs, which also words every error.
The commonest errors of a settings file (a wrong type, a value an enum lacks, an unknown key, an env
name SchemaStore's pattern refuses) are listed here too (`violations`), as jsonschema-rs reports them.
tests/test_valid.py holds it to jsonschema-rs's verdict and errors on the corpus and on mutations.
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Callable

from .patterns import marked

# the draft's other assertions (a keyword no draft knows is ignored, as every validator does)
UNDECIDED = frozenset({"if", "then", "else", "patternProperties", "dependencies", "dependentRequired",
                       "dependentSchemas", "contains", "additionalItems", "prefixItems", "minProperties",
                       "maxProperties", "multipleOf", "unevaluatedItems", "unevaluatedProperties", "minContains",
                       "maxContains", "$dynamicRef", "$recursiveRef"})
LINE_BREAKS = ("\n", "\r", "\u2028", "\u2029")  # where ECMAScript's `.` and `$` part from Python's
ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


# what a schema says to people and editors, never to a validator (the drafts' meta-data, VS Code's)
ANNOTATIONS = frozenset({"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly",
                         "$comment", "markdownDescription", "enumDescriptions", "markdownEnumDescriptions",
                         "deprecationMessage"})
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
SCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
SCHEMAS = frozenset({"additionalItems", "additionalProperties", "propertyNames", "contains", "not", "if", "then",
                     "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema"})


def assertions(schema: Any) -> Any:
    """The schema without its annotations: all a validator reads. (SchemaStore's settings schema
    is four fifths descriptions, and doctor reads the schema on every run: build_rule_catalog.py
    writes this form of it.) Data inside a schema (an enum's values, a const) stays as it is."""
    if not isinstance(schema, dict):
        return schema
    kept: dict[str, Any] = {}
    for keyword, argument in schema.items():
        if keyword in ANNOTATIONS:
            continue
        if keyword in SCHEMA_MAPS and isinstance(argument, dict):
            argument = {name: assertions(sub) for name, sub in argument.items()}
        elif keyword in SCHEMA_LISTS and isinstance(argument, list) or keyword == "items" and isinstance(argument, list):
            argument = [assertions(sub) for sub in argument]
        elif keyword in SCHEMAS or keyword == "items":
            argument = assertions(argument)
        elif keyword == "dependencies" and isinstance(argument, dict):
            argument = {name: assertions(sub) for name, sub in argument.items()}  # (a list of names stays one)
        kept[keyword] = argument
    return kept


class Unsure(Exception):
    """This module cannot decide; jsonschema-rs can."""


def valid(schema: Any, value: Any, root: Any = None) -> bool:
    """Whether `value` satisfies `schema` (`root`: the document `$ref`s point into)."""
    if schema is True or schema == {}:
        return True
    if schema is False:
        return False
    if not isinstance(schema, dict):
        raise Unsure
    root = schema if root is None else root
    if "$ref" in schema:
        if not valid(_target(root, schema["$ref"]), value, root):
            return False
        if _ref_stands_alone(root):  # up to draft-07 the keywords beside a $ref are ignored
            return True
    for keyword, argument in schema.items():
        check = KEYWORDS.get(keyword)
        if check is None:
            if keyword in UNDECIDED:
                raise Unsure
        elif not check(argument, value, root, schema):
            return False
    return True


def _ref_stands_alone(root: dict[str, Any]) -> bool:
    return not any(draft in str(root.get("$schema", "")) for draft in ("2019-09", "2020-12"))


def _target(root: Any, ref: str) -> Any:
    if not ref.startswith("#"):
        raise Unsure
    found = root
    for part in ref[1:].split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(found, dict) or part not in found:
            raise Unsure
        found = found[part]
    return found


def _type_is(name: str, value: Any) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "number":
        return _number(value)
    if name == "integer":
        if isinstance(value, float):
            raise Unsure  # 1.0 is an integer to the drafts
        return isinstance(value, int) and not isinstance(value, bool)
    raise Unsure


def _same(a: Any, b: Any) -> bool:
    """JSON equality: true is not 1, and 1 is 1.0 (left to jsonschema-rs)."""
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if type(a) is not type(b) or not (_number(a) and _number(b)):
            raise Unsure
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _number(value: Any) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        raise Unsure  # 1e400 reads as infinity here, which jsonschema-rs takes for null
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _pattern(pattern: str, text: str) -> bool:
    if _class_escape(pattern) or any(c in text for c in LINE_BREAKS):
        raise Unsure
    return re.search(pattern, text) is not None


def _class_escape(pattern: str) -> bool:
    """Whether a pattern holds a backslash and a letter (\\w, \\d, \\s, \\b...: Unicode-aware in Python,
    ASCII in ECMAScript): what `\\\\[A-Za-z]` found, without its compile in each process that
    checks a settings file."""
    return marked(pattern, "\\", ASCII_LETTERS)


def _properties(argument: dict[str, Any], value: Any, root: Any, _schema: dict[str, Any]) -> bool:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in argument and not valid(argument[key], item, root):
                return False
    return True


def _type(argument: str | list[str], value: Any, _root: Any, _schema: dict[str, Any]) -> bool:
    if isinstance(argument, str):
        return _type_is(argument, value)
    return any(_type_is(name, value) for name in argument)


def _enum(argument: list[Any], value: Any, _root: Any, _schema: dict[str, Any]) -> bool:
    if type(value) is str:  # (a string is the same as a string only, by ==: as _same says)
        return value in argument
    return any(_same(value, allowed) for allowed in argument)


def _additional(argument: Any, value: Any, root: Any, schema: dict[str, Any]) -> bool:
    if not isinstance(value, dict):
        return True
    if "patternProperties" in schema:
        raise Unsure
    known = schema.get("properties", {})
    for key, item in value.items():
        if key not in known and not valid(argument, item, root):
            return False
    return True


def _items(argument: Any, value: Any, root: Any, _schema: dict[str, Any]) -> bool:
    if isinstance(argument, list):
        raise Unsure  # (tuple form: not in the schemas checked)
    return not isinstance(value, list) or all(valid(argument, item, root) for item in value)


def _unique(argument: bool, value: Any, _root: Any, _schema: dict[str, Any]) -> bool:
    if not (argument and isinstance(value, list)):
        return True
    return not any(_same(a, b) for i, a in enumerate(value) for b in value[i + 1:])


def _any_of(argument: list[Any], value: Any, root: Any, _schema: dict[str, Any]) -> bool:
    for schema in argument:
        if valid(schema, value, root):
            return True
    return False


def _one_of(argument: list[Any], value: Any, root: Any, _schema: dict[str, Any]) -> bool:
    return sum(valid(s, value, root) for s in argument) == 1


# (the keywords every settings file meets, properties, additionalProperties, anyOf, type and enum, are
# plain loops and tests, not all() or any() over a generator: the corpus tree's 268 settings files
# took 15.4 ms to tell valid, now 7.6 ms)
Keyword = Callable[[Any, Any, Any, dict[str, Any]], bool]  # (argument, value, root schema, schema)
KEYWORDS: dict[str, Keyword] = {
    "$ref": lambda a, v, r, s: True,  # (followed above)
    "type": _type,
    "enum": _enum,
    "const": lambda a, v, r, s: _same(v, a),
    "properties": _properties,
    "additionalProperties": _additional,
    "required": lambda a, v, r, s: not isinstance(v, dict) or all(k in v for k in a),
    "propertyNames": lambda a, v, r, s: not isinstance(v, dict) or all(valid(a, k, r) for k in v),
    "items": _items,
    "minItems": lambda a, v, r, s: not isinstance(v, list) or len(v) >= a,
    "maxItems": lambda a, v, r, s: not isinstance(v, list) or len(v) <= a,
    "uniqueItems": _unique,
    "minLength": lambda a, v, r, s: not isinstance(v, str) or len(v) >= a,
    "maxLength": lambda a, v, r, s: not isinstance(v, str) or len(v) <= a,
    "pattern": lambda a, v, r, s: not isinstance(v, str) or _pattern(a, v),
    "minimum": lambda a, v, r, s: not _number(v) or v >= a,
    "maximum": lambda a, v, r, s: not _number(v) or v <= a,
    "exclusiveMinimum": lambda a, v, r, s: not _number(v) or v > a,
    "exclusiveMaximum": lambda a, v, r, s: not _number(v) or v < a,
    "anyOf": _any_of,
    "allOf": lambda a, v, r, s: all(valid(x, v, r) for x in a),
    "oneOf": _one_of,
    "not": lambda a, v, r, s: not valid(a, v, r),
}


# ---- what is wrong, as jsonschema-rs reports it -----------------------------------------------------

if TYPE_CHECKING:  # (a type only annotations name)
    # one error as jsonschema-rs's reads: where (its instance_path), the keyword (its kind.name; for a
    # key's name under propertyNames, the name's own), the offending value, what its kind lists (an
    # enum's options, a type's types, the unexpected keys) and its message where doctor shows it
    # (an unknown key's; "" for a type, an enum and a pattern, which doctor words itself)
    Violation = tuple[tuple[Any, ...], str, Any, tuple[Any, ...], str]


def violations(schema: Any, value: Any, where: tuple[Any, ...] = (), root: Any = None) -> list[Violation]:
    """Every error jsonschema-rs reports for `value` (the same errors, perhaps in another order),
    for the keywords whose errors are listed here; Unsure where any other fails. (On the corpus
    tree, the files with an error had only these: in a run of many projects each process that
    checks settings files would otherwise load jsonschema-rs, 77 M instructions, to word them.)"""
    if schema is True or schema == {}:
        return []
    if not isinstance(schema, dict):
        raise Unsure  # (false: jsonschema-rs's falseSchema error)
    root = schema if root is None else root
    found: list[Violation] = []
    if "$ref" in schema:
        found += violations(_target(root, schema["$ref"]), value, where, root)
        if _ref_stands_alone(root):
            return found
    for keyword, argument in schema.items():
        check = KEYWORDS.get(keyword)
        if check is None:
            if keyword in UNDECIDED:
                raise Unsure
        elif not check(argument, value, root, schema):
            found += _violated(keyword, argument, value, where, root, schema)
    return found


def _violated(keyword: str, argument: Any, value: Any, where: tuple[Any, ...], root: Any,
              schema: dict[str, Any]) -> list[Violation]:
    """The errors of one keyword `value` fails."""
    if keyword == "type" and isinstance(argument, str):  # (several types: jsonschema-rs lists them in an order of its own)
        return [(where, "type", value, (argument,), "")]
    if keyword == "enum":
        return [(where, "enum", value, tuple(argument), "")]
    if keyword == "pattern":
        return [(where, "pattern", value, (), "")]
    if keyword == "properties":
        return [error for key, item in value.items() if key in argument
                for error in violations(argument[key], item, (*where, key), root)]
    if keyword == "items":
        return [error for index, item in enumerate(value) for error in violations(argument, item, (*where, index), root)]
    if keyword == "propertyNames":  # each name's errors, at the object (SchemaError.of reads them so)
        return [error for key in value for error in violations(argument, key, where, root)]
    if keyword == "additionalProperties":
        known = schema.get("properties", {})
        extra = [key for key in value if key not in known]
        if argument is not False:
            return [error for key in extra for error in violations(argument, value[key], (*where, key), root)]
        if "properties" in schema:  # (without it, jsonschema-rs reports a falseSchema error per key)
            listed = ", ".join(f"'{key}'" for key in extra)
            message = f"Additional properties are not allowed ({listed} {'was' if len(extra) == 1 else 'were'} unexpected)"
            return [(where, "additionalProperties", value, tuple(extra), message)]
    raise Unsure
