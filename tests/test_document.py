"""Where each value lies in a config file: the spans every position and every edit rely on."""
from __future__ import annotations

import json
import subprocess
import sys
from json.decoder import scanstring
from pathlib import Path

import pytest
from hookwright.document import MAX_DEPTH, Document
from hookwright.errors import HookwrightError
from hypothesis import given, settings
from hypothesis import strategies as st

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
        assert doc.start_of(keys) == node.start
        for key, key_start, _ in node.members:
            assert scanstring(doc.text, key_start + 1)[0] == key
            assert doc.start_of(keys + (key,), at_key=True) == key_start


@pytest.mark.parametrize("raw", [
    # strings that end in an escaped backslash, or hold an escaped quote, as keys, values and items
    r'{"a\\": "x\\", "b": ["\\", "\"", "q\\\"", "\\\\"], "c\"": {"d\u0041": "e\\"}, "f": 1}',
    '{ "a" : [ ] , "b" : { } , "c" : [ [ ] , { } , -1.5e3 , true , null ] }',
    r'[{"k": "\\"}, "\"]", "[{", 2]',
])
def test_values_are_found_past_strings_with_escapes_and_brackets(raw):
    data = json.loads(raw)
    doc = Document.parse(Path("settings.json"), raw.encode())
    for keys, node, value in every_node(doc.root, data):
        assert json.loads(doc.text[doc.start_of(keys):node.end]) == value, keys


def test_a_key_position_is_where_its_quote_opens():
    doc = Document.parse(Path("s.json"), b'{\n  "a": 1,\n  "b\\"c": {"d": [true, {"e": null}]}\n}\n')
    (_, a_start, _), (b_key, b_start, b_value) = doc.root.members
    assert doc.text[a_start:a_start + 3] == '"a"' and b_key == 'b"c' and doc.text[b_start] == '"'
    assert doc.position(doc.node_at("b\"c", "d", 1, "e")) == (3, 30)
    assert doc.node_at("b\"c", "d", 2) is None and doc.node_at("nope") is None
    # a path that is not there: its nearest parent that is
    assert doc.start_of(("b\"c", "d", 2)) == doc.node_at("b\"c", "d").start
    assert doc.start_of(("nope", "x"), at_key=True) == doc.root.start


def refusal(raw: bytes):
    with pytest.raises(HookwrightError) as refused:
        Document.parse(Path("s.json"), raw)
    return refused.value


@pytest.mark.parametrize("raw, key, line, column", [
    (b'{"hooks": {"Stop": []},\n "x": {"k": 1, "k": 2},\n "hooks": {}}', "k", 2, 16),
    (b'{"a":1,"a":2,"b":{"x":1,"x":2}}', "a", 1, 8),  # json.loads trips over "x" first; "a" comes first
    # json.loads stops at the object with the repeated key: what follows need not be JSON
    (b'{"hooks": {"Stop": [], "Stop": []}, "env": [1, 2', "Stop", 1, 24),
    (b'[{"a":1,"a":2}', "a", 1, 9),
    (b'[{"a":1,"a":2}]]]', "a", 1, 9),
    (b'[{"a":1,"a":2},"x]', "a", 1, 9),
])
def test_a_repeated_key_is_reported_where_it_first_repeats(raw, key, line, column):
    error = refusal(raw)
    assert f'duplicate key "{key}"' in error.message and (error.line, error.column) == (line, column)




def test_a_value_deeper_than_the_limit_is_refused_even_when_it_is_no_container():
    assert "nested more than" in refusal(("[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1)).encode()).message
    assert "nested more than" in refusal(('{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)).encode()).message


def test_trailing_whitespace_does_not_make_finding_a_value_slow():
    """A regex that backtracked over the text after the last bracket took twice as long for each
    trailing newline (11 s for 26): in a child process, so that a relapse fails instead of hanging."""
    code = ("from pathlib import Path; from hookwright.document import Document\n"
            "raw = b'{\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"x\"}]}]}}' + b'\\n' * 5000\n"
            "doc = Document.parse(Path('s.json'), raw)\n"
            "print(doc.position(doc.node_at('hooks', 'Stop', 0, 'hooks', 0, 'command')))\n")
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[1])
    assert ran.stdout.strip() == "(1, 57)", ran.stderr


def test_errors_say_their_kind_so_that_no_caller_reads_their_message(tmp_path):
    from hookwright.document import read_document
    from hookwright.errors import ErrorKind, HookwrightError

    cases = {"comment.json": (b'{// no\n}', ErrorKind.NOT_JSON, "a comment"),
             "twice.json": (b'{"a": 1, "a": 2}', ErrorKind.DUPLICATE_KEY, None),
             "latin1.json": (b'{"a": "\xe9"}', ErrorKind.NOT_JSON, None)}
    for name, (raw, kind, reason) in cases.items():
        (tmp_path / name).write_bytes(raw)
        try:
            read_document(tmp_path / name)
        except HookwrightError as error:
            assert error.kind is kind, name
            assert reason is None or error.reason == reason
        else:
            raise AssertionError(f"{name} was read")
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(HookwrightError) as folder:
        read_document(tmp_path / "folder.json")
    assert folder.value.kind is ErrorKind.UNREADABLE
