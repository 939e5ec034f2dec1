"""scripts/host_drift.py reads an agent's hook vocabulary out of its executable: the pieces,
on a made-up file holding what a minified bundle holds (the real binaries: tests/e2e/test_host_drift_e2e.py)."""
from __future__ import annotations

import json

from support import script_module

host_drift = script_module("host_drift")

BUNDLE = (
    b'\x00\x01garbage var Ab=["PreToolUse","PostToolUse","Stop","SessionStart","SessionEnd","Notification",'
    b'"PreCompact","PostCompact","Setup","CwdChanged","NewEvent"],Xy=1;'
    b'let e=u({type:P("command").describe("Shell (\\"cmd\\") {not a key:}"),command:r(),'
    b'nested:u({inner:r()}),if:H(),statusMessage:r().optional(),newKey:v().describe(`a ${b} template`)}),'
    b'm=u({type:P("http"),url:r(),tools:r()});'  # an MCP server's, not a hook's: no statusMessage
    b'function Kl(){return"## 9.9.9\\n\\n- Added a `NewEvent` hook\\n- Fixed the \\u201cdiff\\u201d view\\n'
    b'\\n## 9.9.8\\n\\n- Changed how hooks time out\\n"}'
)


def test_a_bundles_events_handler_keys_and_hook_notes_are_read(tmp_path):
    binary = tmp_path / "claude.exe"
    binary.write_bytes(BUNDLE)

    reading = host_drift.claude_reading("9.9.10", binary)

    assert reading.events[-1] == "NewEvent" and len(reading.events) == 11
    assert reading.keys == {"command": sorted(["type", "command", "nested", "if", "statusMessage", "newKey"])}
    assert reading.notes == {"9.9.9": ["- Added a `NewEvent` hook"], "9.9.8": ["- Changed how hooks time out"]}


def test_what_the_tables_lack_is_new_and_what_the_binary_lacks_removed(tmp_path):
    binary = tmp_path / "claude.exe"
    binary.write_bytes(BUNDLE)
    reading = host_drift.claude_reading("9.9.10", binary)

    found = host_drift.drift(reading, host_drift.known("claude"))
    text, document, drifted = host_drift.report(reading, host_drift.known("claude"), None)

    assert found["new_events"] == ["NewEvent"] and found["new_keys"] == {"command": ["nested", "newKey"]}
    assert "PreSkillShellCommand" in found["removed_events"]
    assert drifted and "new, not known to hookwright: NewEvent" in text
    assert json.dumps(document)  # (--json prints it)


def test_a_plugin_hook_is_what_opencodes_plugin_service_triggers_with_an_input_and_an_output(tmp_path):
    binary = tmp_path / "opencode.exe"
    binary.write_bytes(b'yield*i.trigger("tool.execute.before",{tool:k.id},{args:b});t.trigger("file.open");'
                       b't.trigger("tab.new",Be);J.trigger("brand.new.hook",{a:1},{b:2})')

    reading = host_drift.opencode_reading("1.0.0", binary)

    assert reading.events == ["brand.new.hook", "tool.execute.before"]
    assert host_drift.drift(reading, host_drift.known("opencode"))["new_events"] == ["brand.new.hook"]


def test_a_javascript_string_is_read_with_its_escapes():
    assert host_drift.js_string(r'a\nb \"c\" \u201cd\u201d \x41 \u{1F600} \'') == 'a\nb "c" \u201cd\u201d A \U0001F600 \''
