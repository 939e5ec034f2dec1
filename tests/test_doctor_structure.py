"""The structure rules' wordings of one case (the `[rule.variant]` tables of structure.toml), and
the handler rules both hosts share, read on a Cursor entry as Cursor has it."""
from __future__ import annotations

import pytest
from doctor_support import doctor, found, settings

S = ".claude/settings.json"
HTTP = {"type": "http", "command": None, "url": "https://h.test", "headers": {"Authorization": "Bearer $TOKEN"}}


def cursor(**entry: object) -> dict:
    return {".cursor/hooks.json": {"version": 1, "hooks": {"preToolUse": [{"command": "./x.sh", **entry}]}}}


@pytest.mark.parametrize("rule, config, message, hint", [
    ("structure/group-hooks-missing", {S: {"hooks": {"Stop": [{"matcher": ""}]}}},
     'this matcher group has no "hooks" list, so it runs nothing', 'add "hooks": [{"type": "command"'),
    ("structure/group-hooks-missing", {S: {"hooks": {"Stop": [{"type": "command", "command": "x"}]}}},
     "(the handler is written straight into the group), so it runs nothing", 'wrap the handler: {"matcher": "..."'),
    # a key hookwright's facts do not have is a note that says so, never a claim that the host ignores it
    ("structure/group-unknown-key", {S: settings(group={"frobnicate": 1})},
     '"frobnicate" is not a matcher group key known to hookwright (facts measured on Claude Code 2.',
     'a group holds "matcher" and "hooks"; if your Claude Code is newer'),
    ("structure/group-misplaced-key", {S: settings(group={"matchers": "Bash"})},
     "Claude Code ignores it", 'did you mean "matcher"?'),
    ("structure/group-misplaced-key", {S: settings(group={"timeout": 5})},
     "ignores it (it is a handler field, placed on the group)", 'move "timeout" into each handler of the group\'s'),
    ("structure/handler-unknown-key", {S: settings(frobnicate=1)},
     '"frobnicate" is not a handler key known to hookwright (facts measured on Claude Code 2.',
     'a "command" handler has type, if, timeout'),
    ("structure/handler-misplaced-key", {S: settings(cmd="x")}, "Claude Code ignores it", 'did you mean "command"?'),
    ("structure/handler-misplaced-key", {S: settings(url="https://h.test")}, "Claude Code ignores it",
     '"url" belongs to another handler type; a "command" handler has: type, if, timeout, statusMessage, command'),
    ("structure/field-type", {S: settings(onFailure="Block")}, '"onFailure" must be "continue" or "block", not "Block"',
     'write "onFailure" as "continue" or "block"'),
    ("structure/guard-handler-breaks-file", {S: settings(onFailure="Block")},
     'this PreToolUse handler breaks Claude Code\'s settings schema ("onFailure" is "Block", not "continue" or '
     '"block"): Claude Code then ignores this whole settings file', "fix the handler"),
    ("structure/on-failure-ignored", {S: {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x",
                                                                              "onFailure": "block"}]}]}}},
     '"onFailure": "block" does nothing on Stop: a failure of this hook lets Claude stop', "to refuse on a failure"),
    ("structure/on-failure-ignored", {S: settings(onFailure="block", **{"async": True})},
     '"onFailure": "block" does nothing on an async hook', "to refuse on a failure"),
    ("structure/http-header-variable-not-allowed", {S: settings(**HTTP)},
     "does not list (the handler has no allowedEnvVars): Claude Code sends", 'add "TOKEN" to the handler\'s'),
    ("structure/http-header-variable-not-allowed", {S: settings(**HTTP, allowedEnvVars=["OTHER"])},
     "does not list: Claude Code sends", 'add "TOKEN" to the handler\'s'),
    ("structure/hooks-disabled", {S: {"disableAllHooks": True}},
     "(hooks from settings files and plugins are off; managed hooks still run)", "set it to false"),
    ("structure/unknown-event", {S: {"hooks": {"PreToolUsed": []}}},
     '"PreToolUsed" is not a Claude Code hook event known to hookwright (facts measured on Claude Code 2.',
     "if your Claude Code is newer"),
    ("structure/event-never-runs", {S: {"hooks": {"PreTooluse": []}}},
     '"PreTooluse" is not a Claude Code hook event: event names are exact and case-sensitive, and Claude Code '
     'never runs the hooks under this one (its event is "PreToolUse")', 'rename the key to "PreToolUse"'),
    ("structure/hooks-key-misspelt", {S: {"Hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": []}]}}},
     '"Hooks" is not "hooks": Claude Code reads its hooks under "hooks" alone, and with guard events under this key '
     'it ignores this whole settings file, its other settings too', 'rename the key to "hooks"'),
    ("structure/hooks-key-misspelt", {S: {"HOOKS": {"Stop": [{"hooks": []}]}}},
     '"HOOKS" is not "hooks": Claude Code reads its hooks under "hooks" alone (keys are exact and case-sensitive), '
     "so the hooks under this key never run", 'rename the key to "hooks"'),
    ("structure/event-never-runs", {S: {"hooks": {"beforeShellExecution": []}}},
     '"beforeShellExecution" is Cursor\'s hook event, not Claude Code\'s: Claude Code never runs the hooks under it',
     'use Claude Code\'s event: "PreToolUse"'),
    ("structure/unknown-event", {S: {"hooks": {"Frobnicate": []}}},
     '"Frobnicate" is not a Claude Code hook event known to hookwright', "if your Claude Code is newer"),
    ("structure/settings-schema", {S: {"permissions": {"allow": [3]}}},
     "permissions/allow/0: a number should be a string (SchemaStore's", "fix the setting"),
    ("structure/settings-schema", {S: {"permissions": {"allow": ["Write:**"]}}},
     'permissions/allow/0: "Write:**" is not a permission rule (Tool or Tool(specifier))', "fix the setting"),
    ("structure/settings-schema", {S: {"cleanupPeriodDays": "thirty"}},
     'cleanupPeriodDays: "thirty" should be of type integer', "fix the setting"),
    ("structure/settings-schema-opinion", {S: {"permissions": {"allow": ["Datadog"]}}},
     'permissions/allow/0: "Datadog" names a tool Claude Code does not list (SchemaStore\'s', "check the setting"),
])
def test_each_wording_of_a_structure_rule_is_the_catalogs_own(tmp_path, rule, config, message, hint):
    (finding,) = found(doctor(tmp_path, config), rule)
    assert message in finding.message and finding.hint.startswith(hint)


def test_a_cursor_entry_of_an_unknown_type_is_told_cursors_types(tmp_path):
    (finding,) = found(doctor(tmp_path, cursor(type="shell")), "structure/type-unknown")
    assert finding.message == '"type": "shell" is not a handler type of Cursor (command, prompt)'


def test_a_cursor_entry_without_a_type_is_a_command_entry_and_needs_its_command(tmp_path):
    out = doctor(tmp_path, {".cursor/hooks.json": {"version": 1, "hooks": {"stop": [{"timeout": 5}]}}})
    assert not found(out, "structure/type-missing")
    (finding,) = found(out, "structure/field-missing")
    assert finding.message == 'a "command" handler needs "command"'


def test_a_cursor_entry_is_told_cursors_fields_whatever_its_type(tmp_path):
    (finding,) = found(doctor(tmp_path, cursor(type="prompt", prompt="ok?", frobnicate=1)),
                       "structure/handler-unknown-key")
    assert finding.message == '"frobnicate" is not a handler key known to hookwright (facts from Cursor\'s documentation)'
    assert finding.hint.startswith('a "prompt" handler has command, type, prompt, model, timeout, matcher, loop_limit, '
                                   'failClosed')


def test_claude_codes_handler_fields_on_a_cursor_entry_are_left_to_the_host_rules(tmp_path):
    out = doctor(tmp_path, cursor(shell="fish", once=True, args="x", **{"async": "yes"}))
    assert not {"structure/shell-invalid", "structure/once-ignored", "structure/field-type",
                "structure/handler-unknown-key"} & {f.rule for f in out.findings}


def test_the_timeout_rules_read_a_cursor_entry_as_they_read_a_claude_code_handler(tmp_path):
    (finding,) = found(doctor(tmp_path, cursor(timeout=5000)), "structure/timeout-milliseconds")
    assert finding.message.startswith('"timeout": 5000 means 1.39 hours')
