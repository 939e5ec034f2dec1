"""Which real tools two matchers both match (installer/hooks/regex/__init__.py): the host's matcher
semantics, built-in tools, and the open `mcp__<server>__<tool>` space intersected as automata."""
from __future__ import annotations

import re

import pytest
from hookwright.hooks.events import BUILTIN_TOOLS
from hookwright.hooks.regex import classify, matched_builtins, mcp_overlap, overlap, server_reach
from hypothesis import given, settings
from hypothesis import strategies as st

TOOLS = BUILTIN_TOOLS
SERVERS = ["srv", "memory", "plugin_tools_fs"]


@pytest.mark.parametrize("matcher, matches, misses", [
    (None, ["Bash", "mcp__srv__x"], []),
    ("", ["Bash"], []),
    ("*", ["Bash", "Read"], []),
    ("Bash", ["Bash"], ["bash", "BashOutput", "KillBash"]),  # exact: no substring match
    ("Edit|Write", ["Edit", "Write"], ["NotebookEdit", "MultiEdit"]),
    ("Edit, Write", ["Edit", "Write"], ["Edit, Write"]),  # comma list (2.1.191+)
    ("Bash ", ["Bash"], []),  # trailing space trimmed
    ("code-reviewer", ["code-reviewer"], ["my-code-reviewer"]),  # hyphen: exact (2.1.195+)
    ("Edit.*", ["Edit", "NotebookEdit", "MultiEdit"], ["Write"]),  # regex: unanchored
    ("a.h", ["Bash"], ["Read"]),
    ("^Bash$", ["Bash"], ["BashOutput"]),
    ("bash", [], ["Bash"]),  # case-sensitive
    ("mcp__srv", [], ["mcp__srv__x"]),  # exact: matches nothing real
    ("mcp__srv__.*", ["mcp__srv__x"], ["mcp__memory__x"]),
])
def test_matchers_read_as_the_host_reads_them(matcher, matches, misses):
    m = classify(matcher, "PreToolUse")
    assert all(m.matches(name) for name in matches)
    assert not any(m.matches(name) for name in misses)


@pytest.mark.parametrize("a, b, builtins, mcp", [
    ("Bash", "Bash|Edit", ("Bash",), ()),
    ("Bash", "Read", (), ()),
    ("*", "Bash", ("Bash",), ()),
    (None, "", TOOLS, tuple(f"mcp__{s}__*" for s in SERVERS)),
    ("Edit.*", "NotebookEdit|Write", ("NotebookEdit",), ()),
    ("^Bash$", "a.h", ("Bash",), ()),
    ("[Ww]rite", "Write|Edit", ("Write",), ()),
    ("bash", "Bash", (), ()),
    ("Bash(", "Bash", (), ()),  # an invalid regex never fires
    ("Write|Edit", "Edit, Write", ("Edit", "Write"), ()),
    ("*", "mcp__srv__.*", (), ("mcp__srv__*",)),
    ("mcp__srv__.*", "mcp__srv__.*", (), ("mcp__srv__*",)),
    ("AskUserQuestion|mcp__.*__AskUserQuestion", "mcp__srv__.*", (), ("mcp__srv__AskUserQuestion",)),
    ("AskUserQuestion|mcp__.*__AskUserQuestion", "mcp__memory__create_entities", (), ()),
    ("mcp__srv__A.*", "mcp__srv__B.*", (), ()),  # disjoint tool prefixes: no shared name
    ("mcp__srv__A.*", "mcp__.*", (), ("mcp__srv__A",)),
    ("mcp__memory__create_entities", "mcp__memory__.*", (), ("mcp__memory__create_entities",)),
    ("mcp__memory__create_entities", "mcp__memory__read_graph", (), ()),
    ("^mcp__srv__x$", "mcp__srv__.*", (), ("mcp__srv__x",)),
    (".*_fs__.*", "mcp__plugin_tools_fs__.*", (), ("mcp__plugin_tools_fs__*",)),
    (".*__fs.*", "mcp__plugin_tools_fs__.*", (), ("mcp__plugin_tools_fs__fs",)),  # only tools named fs...
    ("(?=B)Bash", "B.*", ("Bash", "BashOutput", "KillBash"), ("mcp__srv__Bash", "mcp__memory__Bash",
                                                             "mcp__plugin_tools_fs__Bash")),  # sampled
])
def test_overlap_on_real_tool_names(a, b, builtins, mcp):
    found = overlap(a, b, TOOLS, SERVERS)
    assert found.builtins == tuple(t for t in TOOLS if t in builtins)
    assert found.mcp == mcp
    assert overlap(b, a, TOOLS, SERVERS).names == found.names  # symmetric


def test_no_servers_no_mcp_names():
    assert not overlap("mcp__.*", "mcp__srv__.*", TOOLS, [])


def test_server_reach():
    assert server_reach("mcp__.*", "srv") == "all"
    assert server_reach("*", "srv") == "all"
    assert server_reach("mcp__srv__read.*", "srv") == "some"
    assert server_reach("mcp__srv__read_file", "srv") == "some"
    assert server_reach("mcp__other__.*", "srv") == "none"
    assert server_reach("Bash", "srv") == "none"
    assert server_reach("mcp__srv", "srv") == "none"


def test_describe_shortens_long_lists():
    found = overlap("*", "*", TOOLS, [])
    assert found.describe(3).endswith(f"and {len(TOOLS) - 3} more")


POOL = ["*", "Bash", "Bash|Edit", "Edit|Write", "Read", "Edit.*", ".*Edit", "^Bash$", "B.*", "a.h", "Web.*",
        "mcp__srv__.*", "mcp__.*", "mcp__.*__AskUserQuestion", "AskUserQuestion|mcp__.*__AskUserQuestion",
        "mcp__srv__read_.*", "mcp__srv__write_file", "mcp__memory__.*", "Task|Agent", "Notebook(Edit|Read)",
        "[A-Z]ead", "Todo.*|Task.*", "mcp__(srv|memory)__x.*"]
SAMPLES = ["x", "read_file", "write_file", "read_x", "AskUserQuestion", "create_entities", "xyz", "Bash", "Edit"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(POOL), st.sampled_from(POOL))
def test_overlap_agrees_with_brute_force(a, b):
    """Built-ins: exactly the names both match. MCP: every name reported is matched by both, and a
    sample name both match is never missed (the automaton answer is exact, sampling only checks it)."""
    ma, mb = classify(a), classify(b)
    found = overlap(a, b, TOOLS, SERVERS)
    assert set(found.builtins) == {t for t in TOOLS if ma.matches(t) and mb.matches(t)}
    for server in SERVERS:
        shared = mcp_overlap(a, b, server)
        names = [f"mcp__{server}__{s}" for s in SAMPLES]
        both = [n for n in names if ma.matches(n) and mb.matches(n)]
        if shared is None:
            assert not both
        elif shared.endswith("__*"):
            assert len(both) == len(names)
        else:
            assert ma.matches(shared) and mb.matches(shared) and shared.startswith(f"mcp__{server}__")
            assert re.fullmatch(r"mcp__[A-Za-z0-9_-]+__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*_?", shared)


def test_builtins_are_computed_once_per_matcher():
    matched_builtins.cache_clear()
    for _ in range(1000):
        matched_builtins("Edit.*", TOOLS)
    assert matched_builtins.cache_info().misses == 1


@pytest.mark.parametrize("matcher, server, reach", [
    (r"(^mcp__srv__\w)", "srv", "some"),  # an anchor inside a group (a tool part may start with "-")
    ("(^Bash$|^mcp__.+$)", "srv", "all"),  # anchors inside a group are the automaton's too
    ("mcp__git__*hub__create", "git_hub", "some"),  # the quantifier applies to the last `_`: it names git_hub too
    ("mcp__git__*hub__.*$", "git_hub", "all"),
    ("mcp__fs__.*", "gh", "none"),  # a literal server prefix of another server
    ("mcp__fs__.*|mcp__gh__x", "gh", "some"),
    ("mcp__fs__.?", "fs", "all"),  # found inside the prefix, nothing looks past it
    ("mcp__fs__$", "fs", "none"),
])
def test_the_quick_answers_agree_with_what_the_regex_matches(matcher, server, reach):
    assert server_reach(matcher, server) == reach


def test_a_quantifier_after_a_literal_server_prefix_still_meets_the_other_server():
    assert mcp_overlap("mcp__a__?b__tool", "mcp__.*", "a_b") == "mcp__a_b__tool"


def test_path_normalizers_default_reaches_every_tool_of_a_server_and_not_the_question_tools():
    """Every MCP tool but mcp__<server>__AskUserQuestion, which ask-guard rewrites: a race with another
    rewriter of a server's tools is certain, and none with ask-guard's question tools."""
    default = "^mcp__(?!.*__AskUserQuestion$)"
    assert server_reach(default, "fs") == "all"
    assert not overlap(default, "AskUserQuestion|mcp__.*__AskUserQuestion", TOOLS, ["fs"])
