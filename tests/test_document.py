"""Where each value lies in a config file: the spans every position and every edit rely on."""
from __future__ import annotations

import json
from json.decoder import scanstring
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from installer.document import MAX_DEPTH, Document

text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8)
scalars = st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.floats(allow_nan=False,
                                                                            allow_infinity=False) | text
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
                      max_leaves=25)
layouts = st.sampled_from([{"indent": None}, {"indent": None, "separators": (",", ":")}, {"indent": 2},
                           {"indent": "\t", "ensure_ascii": False}, {"indent": 1, "separators": (" ,", " : ")}])


def every_node(node, data, keys=()):
    yield keys, node, data
    if isinstance(data, dict):
        assert [key for key, _, _ in node.members] == list(data)
        for key, _, child in node.members:
            yield from every_node(child, data[key], keys + (key,))
    elif isinstance(data, list):
        assert len(node.items) == len(data)
        for index, child in enumerate(node.items):
            yield from every_node(child, data[index], keys + (index,))


@settings(max_examples=300, deadline=None)
@given(data=values, layout=layouts, padding=st.sampled_from(["", " ", "\n", "\r\n  "]))
def test_every_value_is_found_where_its_text_is(data, layout, padding):
    raw = (padding + json.dumps(data, **layout) + padding).encode()
    doc = Document.parse(Path("settings.json"), raw)
    for keys, node, value in every_node(doc.root, data):
        assert json.loads(doc.text[node.start:node.end]) == value, keys
        assert doc.node_at(*keys) is node
        for key, key_start, _ in node.members:
            assert scanstring(doc.text, key_start + 1)[0] == key


def test_a_key_position_is_where_its_quote_opens():
    doc = Document.parse(Path("s.json"), b'{\n  "a": 1,\n  "b\\"c": {"d": [true, {"e": null}]}\n}\n')
    (_, a_start, _), (b_key, b_start, b_value) = doc.root.members
    assert doc.text[a_start:a_start + 3] == '"a"' and b_key == 'b"c' and doc.text[b_start] == '"'
    assert doc.position(doc.node_at("b\"c", "d", 1, "e")) == (3, 30)
    assert doc.node_at("b\"c", "d", 2) is None and doc.node_at("nope") is None


def test_the_first_of_two_equal_keys_is_reported_where_the_second_one_is():
    raw = b'{"hooks": {"Stop": []},\n "x": {"k": 1, "k": 2},\n "hooks": {}}'
    try:
        Document.parse(Path("s.json"), raw)
    except Exception as error:  # noqa: BLE001 - HookwrightError
        assert (error.line, error.column) == (2, 16) and 'duplicate key "k"' in str(error)
    else:
        raise AssertionError("a duplicate key was accepted")


def test_nesting_deeper_than_the_limit_is_refused_and_the_limit_itself_is_not():
    at_limit = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert Document.parse(Path("s.json"), at_limit.encode()).root.kind == "array"
    too_deep = "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2)
    try:
        Document.parse(Path("s.json"), too_deep.encode())
    except Exception as error:  # noqa: BLE001 - HookwrightError
        assert "nested more than" in str(error)
    else:
        raise AssertionError("a too deeply nested file was accepted")
