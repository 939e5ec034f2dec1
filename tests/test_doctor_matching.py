"""How doctor reads a matcher: Claude Code's exact-or-regex rule (measured on 2.1.328), and
JavaScript regex syntax judged through Python's re and matched by doctor's own engine."""
from __future__ import annotations

import re

import pytest
from hookwright.hooks.regex import TOOL_NAME, can_match_a_name, classify, empty_alternative, js_regex
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize("matcher, kind, names", [
    (None, "all", ()), ("", "all", ()), ("*", "all", ()), ("  ", "all", ()),
    ("Bash", "exact", ("Bash",)), ("Bash ", "exact", ("Bash",)), ("Edit|Write", "exact", ("Edit", "Write")),
    ("Edit, Write", "exact", ("Edit", "Write")), ("code-reviewer", "exact", ("code-reviewer",)),
    ("mcp__memory__create_entities", "exact", ("mcp__memory__create_entities",)),
    ("Edit.*", "regex", ()), ("^Bash$", "regex", ()), ("mcp__.*", "regex", ()),
])
def test_classify(matcher, kind, names):
    m = classify(matcher)
    assert (m.kind, m.names) == (kind, names)


@pytest.mark.parametrize("matcher, tool, hit", [
    # claude-code-observed.md f: all measured on Claude Code 2.1.328 with the Bash tool
    ("Bash", "Bash", True), ("Ba.*", "Bash", True), (".*sh", "Bash", True), ("^Bash$", "Bash", True),
    ("Bash|Read", "Read", True), ("Bash|bash", "Bash", True), ("*", "Bash", True), ("", "Bash", True),
    ("a.h", "Bash", True), ("as.*", "Bash", True), ("^B", "Bash", True), ("sh$", "Bash", True), ("B.", "Bash", True),
    ("bash", "Bash", False), ("Bas", "Bash", False), ("B", "Bash", False), ("Bash(echo:*)", "Bash", False),
    ("mcp__.*__X", "mcp__srv__X", True), ("mcp__srv__.*", "mcp__srv__X", True), ("mcp__.*", "mcp__srv__X", True),
    ("X", "mcp__srv__X", False), ("mcp__srv__Y", "mcp__srv__X", False), ("Re", "Read", False),
    ("Edit.*", "NotebookEdit", True), ("^Edit", "NotebookEdit", False),  # unanchored (hooks reference §2.2)
])
def test_matching_as_measured(matcher, tool, hit):
    assert classify(matcher).matches(tool) is hit


def test_file_changed_uses_the_narrow_exact_set():
    assert classify(".env|.envrc", "FileChanged").kind == "regex"
    assert classify("code-reviewer", "FileChanged").kind == "regex"
    assert classify("code-reviewer", "SubagentStop").kind == "exact"


@pytest.mark.parametrize("source, python", [
    ("(?<name>a)\\k<name>", "(?P<name>a)(?P=name)"),
    ("[^]", "[\\s\\S]"), ("x[]", "x(?!)"),
    ("\\e\\y", "ey"),  # identity escapes: the letters themselves
    ("\\cA", "\\x01"), ("\\0", "\\x00"), ("\\u0041\\x41", "\\u0041\\x41"),
    ("[[]", "[\\[]"),
    ("a{2}", "a{2}"),
])
def test_javascript_syntax_is_translated(source, python):
    t = js_regex(source)
    assert (t.python, t.error, t.dialect) == (python, None, [])
    assert t.pattern is not None


@pytest.mark.parametrize("source, rejected", [
    ("(?i)bash", True), ("(?P<n>x)", True), ("(?#note)x", True), ("(?>ab)", True), ("a++", True),
    ("\\Abash", False), ("bash\\Z", False),  # read as the letters A and Z
])
def test_constructs_javascript_rejects_or_reads_differently(source, rejected):
    t = js_regex(source)
    assert t.dialect
    assert (t.pattern is None) is rejected
    if not rejected:
        assert t.pattern.search("Abash") or t.pattern.search("bashZ")


@pytest.mark.parametrize("source", ["Bash(", "a**", "*.py", "a\\", "[abc", "x{2,1}"])
def test_invalid_patterns(source):
    t = js_regex(source)
    assert t.error and t.pattern is None


def test_a_repeat_without_its_minimum_is_text_to_javascript():
    """`/Ba{,2}sh/.test("Bash")` is false in node, `.test("Ba{,2}sh")` true; Python's re reads {0,2}."""
    t = js_regex("Ba{,2}sh")
    assert t.dialect and not t.pattern.search("Bash") and t.pattern.search("Ba{,2}sh")
    assert js_regex("Ba{1,2}sh").pattern.search("Bash")


def test_a_lookahead_after_a_name_is_no_permission_rule():
    """`Bash(?=)` matches Bash in JavaScript: a group, not permission-rule syntax."""
    from hookwright.doctor.checks.matchers import PERMISSION_RULE

    assert PERMISSION_RULE.fullmatch("Bash(?=)") is None and PERMISSION_RULE.fullmatch("Bash(git:*)")
    assert js_regex("Bash(?=)").pattern.search("Bash")


def test_a_group_after_an_mcp_name_is_an_alternation_not_a_permission_rule():
    """`mcp__srv__(a|b)` fires for mcp__srv__a and mcp__srv__b on the real Claude Code 2.1.332 (a blind
    round's clean case); MCP permission rules take no specifier, so the parentheses are a group."""
    from hookwright.doctor.checks.matchers import PERMISSION_RULE

    assert PERMISSION_RULE.fullmatch("mcp__plugin_tracker-bridge_tracker__(delete_issue|transition_issue)") is None
    assert PERMISSION_RULE.fullmatch("mcp__github__create_(issue|pull_request)") is None
    assert PERMISSION_RULE.fullmatch("WebFetch(domain:example.com)")
    assert js_regex("mcp__srv__(a|b)").pattern.search("mcp__srv__b")


def test_variable_width_lookbehind_is_valid_javascript():
    t = js_regex("(?<=a+)b")
    assert t.error is None and t.dialect == []


@pytest.mark.parametrize("source, possible", [
    ('tool == "Bash"', False), ("a b", False), ('x "y"$', False), ("Bash\\(git.*\\)", False),
    ('tool == "Edit" && path matches "\\.ts$"', False), ("x:(){ :|:& };:", False),
    ("Bash", True), ("^Bash$", True), ("B.*h", True), ("mcp__.*__X", True), ("(?=B)Bash", True),  # undecidable: True
    ("\\s+", False), ("[^A-Za-z0-9_.-]", False), ("a{0}\\s", False), ("(a|b) (c|d)", False), ("[:]", False),
    ("\\s*Bash", True), ("(a|\\s)", True), ("(?:\\s)?x", True), ("[^\\w]", True), ("\\d", True), ("a{0} ", False),
    ("x(?= )", True), ("(a)\\1", True), ("[^\\s]", True), ("\\W", True), ("", True), ("[\\s\\d]", True),
    ("(?!)", False), ("Bash(?!)", False), ("a(?!b)", True),  # JavaScript's empty class [] reads as (?!)
])
def test_can_match_a_name(source, possible):
    assert can_match_a_name(js_regex(source).pattern) is possible


@settings(max_examples=300, deadline=None)
@given(pattern=st.lists(st.tuples(st.sampled_from(["a", "B", "_", ".", "-", " ", "=", '"', "\\s", "\\d", "\\w",
                                                   "\\W", "[^a-z]", "[a-c]", "[0-9]", "[ :]", "(x|\\s)", "(?:\\S)", "[^\\w]", "."]),
                                  st.sampled_from(["", "*", "+", "?", "{0}", "{2}", "{0,1}"])), min_size=1, max_size=4)
       .map(lambda parts: "".join(atom + repeat for atom, repeat in parts)),
       names=st.lists(st.text(alphabet=sorted(TOOL_NAME), max_size=6), min_size=40, max_size=40))
def test_a_pattern_said_to_match_no_name_matches_none(pattern, names):
    """Soundness, the property the "matches nothing" rule rests on: never a false alarm."""
    if not can_match_a_name(js_regex(pattern).pattern):
        assert not any(re.search(pattern, name) for name in names)


@pytest.mark.parametrize("source, empty", [
    ("a||b", True), ("|a", True), ("a|", True), ('tool == "Edit" || tool == "Write"', True),
    ("a|b", False), ("(a|)b", False), ("a\\||b", False), ("[|]|a", False), (".*", False), ("(|a)", False),
])
def test_empty_alternative(source, empty):
    assert empty_alternative(source) is empty
