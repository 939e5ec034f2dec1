"""The pure-Python validity test in front of jsonschema-rs (installer/valid.py) must give
jsonschema-rs's verdict whenever it gives one: on every settings object of the corpus, every
bundled pack manifest and every Cursor hooks file of the corpus, and on mutations of them that
break one value at a time."""
from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path

import jsonschema_rs
import pytest
from hookwright import resources, valid
from hookwright.doctor.checks.structure.settings import (
    SCHEMASTORE,
    SCHEMASTORE_SOURCE,
    SchemaError,
    _without_permission_rules,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SHARED_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CORPUS = SHARED_CORPUS / "claude-settings"
BREAKERS = [None, True, 0, 1.5, -3, "", "x", "not-a-mode", [], ["x"], {}, {"unknown-key": 1}]


def _settings() -> list[dict]:
    found = []
    for path in sorted(CORPUS.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(data, dict):
            found.append(_without_permission_rules({k: v for k, v in data.items() if k != "hooks"}))
    return found


def _verdicts(value, name: str = SCHEMASTORE) -> tuple[bool | None, bool]:
    """(ours, or None when unsure; jsonschema-rs's)"""
    try:
        ours = valid.valid(resources.schema(name), value)
    except valid.Unsure:
        ours = None
    return ours, resources.validator(name).is_valid(value)


def _mutations(settings: dict, rng: random.Random):
    """Copies with one value somewhere replaced by a value of another kind."""
    paths = []

    def walk(value, path):
        paths.append(path)
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, path + (key,))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, path + (index,))

    walk(settings, ())
    for path in rng.sample(paths[1:], min(6, len(paths) - 1)):
        changed = copy.deepcopy(settings)
        parent = changed
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = rng.choice(BREAKERS)
        yield changed


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_the_fast_verdict_is_jsonschema_rs_verdict_on_every_corpus_settings_object_and_its_mutations():
    rng = random.Random(15)
    decided = disagreed = invalid_seen = 0
    for settings in _settings():
        for value in [settings, *_mutations(settings, rng)]:
            ours, theirs = _verdicts(value)
            invalid_seen += not theirs
            if ours is not None:
                decided += 1
                disagreed += ours != theirs
    assert disagreed == 0
    assert invalid_seen > 100  # the mutations do break files...
    assert decided > 1000  # ...and the fast path decides almost all of them


@pytest.mark.parametrize("schema, value, expected", [
    ({"type": "integer"}, True, False),  # a boolean is not a number
    ({"enum": [1]}, True, False),
    ({"const": False}, 0, False),
    ({"type": "object", "additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "b": 2}, False),
    ({"oneOf": [{"type": "string"}, {"minLength": 1}]}, "x", False),  # both: not exactly one
    ({"$ref": "#/$defs/s", "type": "integer", "$defs": {"s": {"type": "string"}}}, "x", True),  # siblings ignored
    ({"uniqueItems": True}, [{"a": 1}, {"a": 1}], False),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"Abc": 1}, False),
])
def test_the_fast_verdict_follows_the_draft_where_python_would_differ(schema, value, expected):
    assert valid.valid(schema, value) is expected
    draft_07 = jsonschema_rs.validator_for({"$schema": "http://json-schema.org/draft-07/schema#", **schema})
    assert draft_07.is_valid(value) is expected


@pytest.mark.parametrize("schema, value", [
    ({"type": "integer"}, 1.0),  # an integer to the drafts
    ({"pattern": "^a$"}, "a\n"),  # Python's $ matches before a final newline, ECMAScript's does not
    ({"pattern": "^\\w+$"}, "é"),  # \w is Unicode-aware in Python only
    ({"if": {"type": "string"}}, "x"),  # an assertion it does not implement
])
def test_what_it_cannot_decide_exactly_it_leaves_to_jsonschema_rs(schema, value):
    with pytest.raises(valid.Unsure):
        valid.valid(schema, value)


def _pack_manifests() -> list[dict]:
    return [tomllib.loads(path.read_text(encoding="utf-8"))
            for path in sorted((resources.packs_dir()).glob("*/pack.toml"))]


def _cursor_files() -> list:
    found = []
    for path in sorted((SHARED_CORPUS / "cursor-hooks").glob("*.json")):
        try:
            found.append(json.loads(path.read_text(encoding="utf-8")))
        except ValueError:
            pass
    return found


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="needs ../shared/corpus")
@pytest.mark.parametrize("name, documents", [("pack.schema.json", _pack_manifests),
                                             ("cursor-hooks.schema.json", _cursor_files)])
def test_the_fast_verdict_is_jsonschema_rs_verdict_on_our_own_2020_12_schemas(name, documents):
    rng = random.Random(16)
    decided = disagreed = 0
    for document in documents():
        for value in [document, *(_mutations(document, rng) if isinstance(document, dict) else ())]:
            ours, theirs = _verdicts(value, name)
            if ours is not None:
                decided += 1
                disagreed += ours != theirs
    assert disagreed == 0
    assert decided >= 10


# ---- the schema doctor reads: SchemaStore's without its annotations ---------------------------------

def test_the_settings_schema_doctor_reads_is_schemastores_without_its_annotations():
    """After replacing SchemaStore's schema: python3 scripts/build_rule_catalog.py."""
    source = resources.schema(SCHEMASTORE_SOURCE)
    read = resources.schema(SCHEMASTORE)
    assert read == valid.assertions(source)
    assert len(json.dumps(read)) < len(json.dumps(source)) / 2  # (most of it was descriptions)


def test_dropping_annotations_keeps_every_assertion_and_the_data_inside_them():
    schema = {"title": "t", "type": "object", "description": "d", "$comment": "c",
              "properties": {"description": {"type": "string", "description": "a property named description"},
                             "mode": {"enum": [{"description": "a value, not an annotation"}], "default": "x"}},
              "anyOf": [{"const": {"title": "data"}, "examples": [1]}], "items": [{"default": 1, "minimum": 0}],
              "dependencies": {"a": ["b"], "c": {"description": "d", "required": ["e"]}}}
    assert valid.assertions(schema) == {
        "type": "object",
        "properties": {"description": {"type": "string"}, "mode": {"enum": [{"description": "a value, not an annotation"}]}},
        "anyOf": [{"const": {"title": "data"}}], "items": [{"minimum": 0}],
        "dependencies": {"a": ["b"], "c": {"required": ["e"]}}}


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_schemastores_schema_and_its_assertions_find_the_same_errors_in_the_corpus_and_its_mutations():
    rng = random.Random(16)
    errors_seen = 0
    for settings in _settings():
        for value in [settings, *_mutations(settings, rng)]:
            found = [[(list(e.instance_path), e.message) for e in resources.validator(name).iter_errors(value)]
                     for name in (SCHEMASTORE_SOURCE, SCHEMASTORE)]
            assert found[0] == found[1], value
            errors_seen += bool(found[0])
    assert errors_seen > 100  # (the mutations broke many of them)


# ---- the errors: listed here where they can be, as jsonschema-rs lists them ---------------------------

KEY_BREAKERS = ["_note", "// NOTE", "$comment", "a b", "lower", "Ünïcode", "it's", "x\ny"]


def _renamed_keys(settings: dict, rng: random.Random):
    """Copies with one key of an object somewhere renamed (an unknown key, or an env name
    SchemaStore's pattern refuses), and one with two keys added to the same object."""
    objects = []

    def walk(value):
        if isinstance(value, dict):
            objects.append(value)
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(settings)
    for index in rng.sample(range(len(objects)), min(4, len(objects))):
        changed = copy.deepcopy(settings)
        found: list[dict] = []
        walk_changed = [changed]
        while walk_changed:  # the same object in the copy, by its place in the walk's order
            value = walk_changed.pop(0)
            if isinstance(value, dict):
                found.append(value)
                walk_changed[:0] = list(value.values())
            elif isinstance(value, list):
                walk_changed[:0] = value
        target = found[index]
        if target and rng.random() < 0.5:
            key = rng.choice(list(target))
            target[rng.choice(KEY_BREAKERS)] = target.pop(key)
        else:
            target.update({rng.choice(KEY_BREAKERS): rng.choice(BREAKERS), "// second": 1})
        yield changed


def _read(error: SchemaError) -> tuple:
    """What doctor's rules read of an error (the message only where they show it)."""
    shown = "" if error.validator in ("type", "enum", "pattern") else error.message
    return (error.keys, error.validator, json.dumps(error.instance), json.dumps(error.allowed), shown)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
def test_the_errors_listed_in_python_are_jsonschema_rs_errors_on_the_corpus_and_its_mutations():
    """The same errors; their order may differ, which the report does not see: it orders the
    findings by place, severity, rule and message."""
    schema = resources.schema(SCHEMASTORE)
    rng = random.Random(17)
    listed = unsure = 0
    for settings in _settings():
        for value in [settings, *_mutations(settings, rng), *_renamed_keys(settings, rng)]:
            theirs = sorted(_read(SchemaError.of(e)) for e in resources.validator(SCHEMASTORE).iter_errors(value))
            try:
                ours = sorted(_read(SchemaError(*v)) for v in valid.violations(schema, resources.encodable(value)))
            except valid.Unsure:
                unsure += 1
                continue
            assert ours == theirs, value
            listed += bool(theirs)
    assert listed > 500  # the mutations do break files, and most of their errors are listed here
    assert unsure < listed


@pytest.mark.parametrize("schema, value", [
    ({"required": ["a"]}, {}),  # jsonschema-rs words it
    ({"type": ["string", "null"]}, 1),  # it lists the types in an order of its own
    ({"additionalProperties": False}, {"a": 1}),  # without "properties": a falseSchema error per key
    ({"anyOf": [{"type": "string"}, {"type": "null"}]}, 1),
])
def test_an_error_it_does_not_list_is_left_to_jsonschema_rs(schema, value):
    with pytest.raises(valid.Unsure):
        valid.violations(schema, value)
