"""hookwright's tables know every hook event and handler key the pinned binaries carry
(scripts/host_drift.py reads them from the executable): moving a pin without modelling what
the new release brings fails here."""
from __future__ import annotations

import pytest
from claude_cli import CLAUDE_VERSION
from opencode_cli import OPENCODE_VERSION
from support import script_module

pytestmark = pytest.mark.e2e

host_drift = script_module("host_drift")


@pytest.fixture(scope="module")
def claude_binary(claude_cli):
    """What the binary of the Claude Code under test carries (read once: 400 MB)."""
    return host_drift.claude_reading(CLAUDE_VERSION, claude_cli)


def test_the_tables_know_every_hook_event_and_handler_key_of_the_claude_code_under_test(claude_binary):
    reading = claude_binary
    found = host_drift.drift(reading, host_drift.known("claude"))

    assert len(reading.events) > 30 and {"PreToolUse", "SessionStart", "Stop"} <= set(reading.events)
    assert set(reading.keys) == {"command", "http", "mcp_tool", "prompt", "agent"}
    assert "command" in reading.keys["command"] and "statusMessage" in reading.keys["command"]
    assert (found["new_events"], found["new_keys"]) == ([], {}), "model what the release brings (docs/hosts/)"
    assert reading.notes, "the binary carries the release notes of the releases before it"


def test_the_tables_know_every_plugin_hook_the_opencode_under_test_triggers(opencode_cli):
    reading = host_drift.opencode_reading(OPENCODE_VERSION, opencode_cli)

    assert {"tool.execute.before", "tool.execute.after", "shell.env"} <= set(reading.events)
    assert host_drift.drift(reading, host_drift.known("opencode"))["new_events"] == []


def test_an_event_or_a_key_the_tables_lack_is_reported_new(claude_binary):
    reading = claude_binary
    tables = host_drift.known("claude")
    tables.events.discard("PreToolUse")
    tables.keys["command"].discard("onFailure")

    found = host_drift.drift(reading, tables)

    assert found["new_events"] == ["PreToolUse"] and found["new_keys"] == {"command": ["onFailure"]}
