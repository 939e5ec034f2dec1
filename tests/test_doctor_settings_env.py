"""What the settings' "env" does to every hook, each defect beside its corrected twins and near
misses: a variable that makes an interpreter run a startup file printing on stdout before the
hook's JSON, and one a guard reads as its off switch (measured on Claude Code 2.1.332:
tests/e2e/test_doctor_settings_env_e2e.py, docs/hosts/claude-code.md#environment)."""
from __future__ import annotations

import pytest
from doctor_support import doctor, found, settings, write

DENY = """'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"}}'"""
GUARDS = {
    "bash": ("guard.sh", f"#!/usr/bin/env bash\ncmd=$(jq -r .tool_input.command)\n"
                         f"case \"$cmd\" in *push*) echo {DENY};; esac\nexit 0\n"),
    "sh": ("guard.sh", f"#!/bin/sh\ncmd=$(jq -r .tool_input.command)\ncase \"$cmd\" in *push*) echo {DENY};; esac\n"),
    "node": ("guard.js", "#!/usr/bin/env node\nconst input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
                         "if (input.tool_input.command.includes('push')) {\n  console.log(JSON.stringify({hookSpecificOutput: "
                         "{hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no'}}));\n}\n"),
    "python": ("guard.py", "#!/usr/bin/env python3\nimport json, sys\ncall = json.load(sys.stdin)\n"
                           "if 'push' in call['tool_input']['command']:\n    print(json.dumps({'hookSpecificOutput': "
                           "{'hookEventName': 'PreToolUse', 'permissionDecision': 'deny', 'permissionDecisionReason': 'no'}}))\n"),
}
STARTUP = {"BASH_ENV": (".claude/shell-init.sh", "bash"), "NODE_OPTIONS": (".claude/preload.js", "node"),
           "PYTHONPATH": (".claude/pylib/sitecustomize.py", "python")}
VALUES = {"BASH_ENV": ".claude/shell-init.sh", "NODE_OPTIONS": "--require ./.claude/preload.js",
          "PYTHONPATH": ".claude/pylib"}
PRINTS = {"bash": 'export GOFLAGS=-mod=mod\necho "shell-init: toolchain ready"\n',
          "node": 'process.env.TZ = "UTC";\nconsole.log("preload: ready");\n',
          "python": 'import os\nprint("site: ready")\n'}


def _startup(tmp_path, name, startup_text, guard="", command=None, env=None):
    path, language = STARTUP[name]
    script, text = GUARDS[guard or language]
    command = command or f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{script}'
    write(tmp_path, {path: startup_text, f".claude/hooks/{script}": text,
                     ".claude/settings.json": {"env": env or {name: VALUES[name]}, **settings(command=command)}})
    (tmp_path / ".claude" / "hooks" / script).chmod(0o755)
    return doctor(tmp_path, {}, given=False)


@pytest.mark.parametrize("name", list(STARTUP))
def test_a_startup_file_printing_on_stdout_before_a_json_answer_is_an_error_at_the_variable(tmp_path, name):
    (finding,) = found(_startup(tmp_path, name, PRINTS[STARTUP[name][1]]), "structure/env-startup-output")
    assert finding.severity == "error" and finding.keys == ("env", name) and finding.path.endswith("settings.json")
    assert finding.related[0]["path"].endswith(STARTUP[name][0]) and finding.related[0]["line"] == 2


@pytest.mark.parametrize("name, text", [
    ("BASH_ENV", 'echo "shell-init: ready" >&2\n'), ("BASH_ENV", "export GOFLAGS=-mod=mod\n"),
    ("BASH_ENV", '[ -t 1 ] && echo "shell-init: ready"\n'), ("BASH_ENV", 'case $- in *i*) echo "ready";; esac\n'),
    ("NODE_OPTIONS", 'console.error("preload: ready");\n'),
    ("PYTHONPATH", 'import sys\nprint("site: ready", file=sys.stderr)\n')])
def test_a_startup_file_that_prints_on_stderr_nothing_or_only_in_a_terminal_is_clean(tmp_path, name, text):
    assert not found(_startup(tmp_path, name, text), "structure/env-startup-output")


@pytest.mark.parametrize("name, guard, command", [
    ("BASH_ENV", "sh", None),  # (sh never reads BASH_ENV)
    ("PYTHONPATH", "python", 'python3 -I "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py'),
    ("PYTHONPATH", "python", 'python3 -S "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py'),
    ("BASH_ENV", "python", None)])
def test_a_startup_file_no_hook_of_its_interpreter_reads_is_clean(tmp_path, name, guard, command):
    assert not found(_startup(tmp_path, name, PRINTS[STARTUP[name][1]], guard, command), "structure/env-startup-output")


def test_a_startup_file_before_hooks_that_answer_by_exit_status_alone_is_clean(tmp_path):
    write(tmp_path, {".claude/shell-init.sh": PRINTS["bash"], ".claude/hooks/guard.sh":
                     "#!/usr/bin/env bash\ngrep -q push && { echo 'no push' >&2; exit 2; }\nexit 0\n",
                     ".claude/settings.json": {"env": {"BASH_ENV": ".claude/shell-init.sh"},
                                               **settings(command='bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh')}})
    assert not found(doctor(tmp_path, {}, given=False), "structure/env-startup-output")


@pytest.mark.parametrize("name, value", [("ENV", ".claude/shell-init.sh"), ("PYTHONSTARTUP", ".claude/pylib/sitecustomize.py")])
def test_the_variables_only_interactive_shells_read_are_clean(tmp_path, name, value):
    write(tmp_path, {".claude/pylib/sitecustomize.py": PRINTS["python"]})
    outcome = _startup(tmp_path, "BASH_ENV", PRINTS["bash"], env={name: value})
    assert not found(outcome, "structure/env-startup-output")


SWITCHES = {
    "shell": ("guard.sh", '#!/usr/bin/env bash\npayload="$(cat)"\n# escape hatch: {name}=1\n{switch}\n'
                          'block() {{\n  echo "refused: $1" >&2\n  exit 2\n}}\n'
                          'printf "%s" "$payload" | grep -q "db:drop" && block "no drop"\nexit 0\n'),
    "python": ("guard.py", '#!/usr/bin/env python3\nimport json, os, sys\n\n\ndef main():\n    call = json.load(sys.stdin)\n'
                           '{switch}\n    if "db:drop" in call["tool_input"]["command"]:\n'
                           '        print("refused", file=sys.stderr)\n        return 2\n    return 0\n\n\n'
                           'sys.exit(main())\n'),
    "javascript": ("guard.js", "#!/usr/bin/env node\nconst input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
                               "{switch}\nif (input.tool_input.command.includes('db:drop')) {{\n"
                               "  console.error('refused');\n  process.exit(2);\n}}\n"),
}


def _switched(tmp_path, language, switch, env, name="GUARD_OFF", command=None, where=".claude/settings.local.json",
              project_env=None):
    script, text = SWITCHES[language]
    hooks = settings(command=command or f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{script}')
    write(tmp_path, {f".claude/hooks/{script}": text.format(name=name, switch=switch),
                     ".claude/settings.json": {**({"env": project_env} if project_env else {}), **hooks},
                     **({where: {"env": env}} if env is not None else {})})
    (tmp_path / ".claude" / "hooks" / script).chmod(0o755)
    return doctor(tmp_path, {}, given=False)


@pytest.mark.parametrize("language, switch, env", [
    ("shell", '[ "${GUARD_OFF:-0}" = "1" ] && exit 0', {"GUARD_OFF": "1"}),
    ("shell", 'if [ -n "$GUARD_OFF" ]; then\n  echo "guard: off" >&2\n  exit 0\nfi', {"GUARD_OFF": "0"}),
    ("shell", '[ "$GUARD_MODE" = "enforce" ] || exit 0', {"GUARD_MODE": "warn"}),
    ("shell", 'case "${GUARD_OFF:-}" in\n  1|true|yes) exit 0 ;;\nesac', {"GUARD_OFF": "yes"}),
    ("python", '    if os.environ.get("GUARD_OFF"):\n        return 0', {"GUARD_OFF": "false"}),
    ("python", '    if os.getenv("GUARD_OFF", "").lower() in ("1", "true"):\n        sys.exit(0)', {"GUARD_OFF": "TRUE"}),
    ("javascript", "if (process.env.GUARD_OFF === '1') process.exit(0);", {"GUARD_OFF": 1}),
    ("javascript", "const off = ['1', 'true'].includes((process.env.GUARD_OFF || '').toLowerCase());\n"
                   "if (off) {\n  process.exit(0);\n}", {"GUARD_OFF": "true"})])
def test_an_env_value_a_guard_reads_as_its_off_switch_is_a_warning_at_the_value(tmp_path, language, switch, env):
    (finding,) = found(_switched(tmp_path, language, switch, env), "structure/env-switches-guard-off")
    assert finding.severity == "warning" and finding.path.endswith("settings.local.json")
    assert finding.keys == ("env", next(iter(env)))
    script = finding.related[0]
    first = SWITCHES[language][1].format(name="GUARD_OFF", switch=switch).splitlines().index(switch.splitlines()[0]) + 1
    assert script["path"].endswith(SWITCHES[language][0]) and first <= script["line"] < first + len(switch.splitlines())


@pytest.mark.parametrize("language, switch, env", [
    ("shell", '[ "${GUARD_OFF:-0}" = "1" ] && exit 0', {"GUARD_OFF": "0"}),  # the value the guard treats as on
    ("shell", '[ "${GUARD_OFF:-0}" = "1" ] && exit 0', {"GUARD_OFF_NOTE": "set GUARD_OFF=1 to switch it off"}),
    ("shell", '[ "${GUARD_OFF:-0}" = "1" ] && exit 0', None),  # (set nowhere)
    ("shell", '# [ "${GUARD_OFF:-0}" = "1" ] && exit 0', {"GUARD_OFF": "1"}),  # only in a comment
    ("shell", '[ "$GUARD_OFF" = "1" ] && [ "$CI" = "true" ] && exit 0', {"GUARD_OFF": "1"}),  # another variable decides
    ("shell", '[ "$GUARD_OFF" = "1" ] && echo "guard: would skip" >&2', {"GUARD_OFF": "1"}),  # says so, goes on
    ("shell", '[ "$GUARD_MODE" = "enforce" ] || exit 0', {"GUARD_MODE": "enforce"}),
    ("python", '    if os.environ.get("GUARD_OFF") == "1":\n        return 0', {"GUARD_OFF": "0"}),
    ("python", '    if os.environ.get("GUARD_OFF"):\n        print("note", file=sys.stderr)', {"GUARD_OFF": "1"}),
    ("javascript", "if (process.env.GUARD_OFF === '1') process.exit(0);", {"GUARD_OFF": "0"})])
def test_a_value_the_guard_treats_as_on_a_comment_or_a_test_that_does_not_quit_is_clean(tmp_path, language, switch, env):
    assert not found(_switched(tmp_path, language, switch, env), "structure/env-switches-guard-off")


def test_a_switch_read_after_the_guard_refused_is_clean(tmp_path):
    guard = ('#!/usr/bin/env bash\npayload="$(cat)"\nprintf "%s" "$payload" | grep -q "db:drop" && { echo no >&2; exit 2; }\n'
             '[ -n "$QUIET_LOG" ] && exit 0\necho "$payload" >> "$CLAUDE_PROJECT_DIR"/.claude/audit.log\n')
    write(tmp_path, {".claude/hooks/guard.sh": guard, ".claude/settings.local.json": {"env": {"QUIET_LOG": "1"}},
                     ".claude/settings.json": settings(command='bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh')})
    assert not found(doctor(tmp_path, {}, given=False), "structure/env-switches-guard-off")


def test_a_switch_set_on_the_hooks_own_command_is_a_warning_at_the_command(tmp_path):
    command = 'GUARD_OFF=1 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'
    (finding,) = found(_switched(tmp_path, "shell", '[ "${GUARD_OFF:-0}" = "1" ] && exit 0', None, command=command),
                       "structure/env-switches-guard-off")
    assert finding.keys[-1] == "command" and finding.path.endswith("settings.json") and "GUARD_OFF=" in finding.hint


def test_the_user_settings_value_counts_where_no_project_file_sets_it(tmp_path, home):
    write(home, {".claude/settings.json": {"env": {"GUARD_OFF": "1"}}})
    (finding,) = found(_switched(tmp_path, "shell", '[ "${GUARD_OFF:-0}" = "1" ] && exit 0', None),
                       "structure/env-switches-guard-off")
    assert finding.path == str(home / ".claude" / "settings.json")


def test_a_local_value_that_puts_the_guard_back_on_over_the_projects_off_is_clean(tmp_path):
    outcome = _switched(tmp_path, "shell", '[ "${GUARD_OFF:-0}" = "1" ] && exit 0', {"GUARD_OFF": "0"},
                        project_env={"GUARD_OFF": "1"})
    assert not found(outcome, "structure/env-switches-guard-off")


@pytest.mark.parametrize("language, switch", [
    ("shell", '[ "$GUARD_MODE" = "enforce" ] || exit 0'),
    ("shell", 'if [ -z "${GUARD_ENABLED:-}" ]; then\n  exit 0\nfi'),
    ("python", '    if os.environ.get("GUARD_MODE") != "enforce":\n        return 0'),
    ("javascript", "if (!process.env.GUARD_ENABLED) process.exit(0);")])
def test_a_guard_that_checks_only_when_a_variable_no_settings_file_sets_is_a_warning_at_its_test(tmp_path, language,
                                                                                                 switch):
    (finding,) = found(_switched(tmp_path, language, switch, None), "structure/env-switches-guard-off")
    assert finding.severity == "warning" and finding.path.endswith(SWITCHES[language][0]) and finding.keys == ()
    assert "settings" in finding.hint and finding.line == SWITCHES[language][1].format(
        name="X", switch=switch).splitlines().index(switch.splitlines()[0]) + 1


@pytest.mark.parametrize("language, switch", [
    ("shell", '[ -z "$CLAUDE_PROJECT_DIR" ] && exit 0'),  # (Claude Code sets it for every hook)
    ("shell", '[ -z "$HOME" ] && exit 0'),
    ("shell", 'GUARD_MODE="${GUARD_MODE:-enforce}"\n[ "$GUARD_MODE" = "enforce" ] || exit 0'),  # (its own default)
    ("shell", ': "${GUARD_MODE:=enforce}"\n[ "$GUARD_MODE" = "enforce" ] || exit 0'),
    ("shell", '[ "${GUARD_MODE:-enforce}" = "off" ] && exit 0'),  # (on unless switched off)
    ("python", '    if os.environ.get("GUARD_OFF"):\n        return 0')])
def test_a_variable_the_host_sets_the_script_gives_a_value_or_whose_absence_leaves_the_guard_on_is_clean(
        tmp_path, language, switch):
    assert not found(_switched(tmp_path, language, switch, None), "structure/env-switches-guard-off")


def test_a_variable_the_shell_that_starts_the_agent_exports_is_clean(tmp_path, monkeypatch):
    monkeypatch.setenv("GUARD_MODE", "enforce")
    assert not found(_switched(tmp_path, "shell", '[ "$GUARD_MODE" = "enforce" ] || exit 0', None),
                     "structure/env-switches-guard-off")
