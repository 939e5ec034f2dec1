"""Settings that change other files' hooks, on the real Claude Code, each beside its twin, and
what doctor says about each (docs/hosts/claude-code.md#environment, #permission-rules): a
variable of the settings' "env" that makes an interpreter run a file of its own before the hook
(BASH_ENV, NODE_OPTIONS, PYTHONPATH's sitecustomize) and print there, one that is a guard's off
switch, and a permission mode that never asks, so a PermissionRequest guard never runs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_cli import doctor_flags, line_of, run_claude, run_gates

pytestmark = pytest.mark.e2e

DENY = ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
        '"permissionDecisionReason": "no %s"}}')
GUARDS = {
    "bash": ("guard_bash.sh", "#!/usr/bin/env bash\ngrep -q ran-bash && echo '{deny}'\nexit 0\n"),
    "sh": ("guard_sh.sh", "#!/bin/sh\ngrep -q ran-sh && echo '{deny}'\nexit 0\n"),
    "node": ("guard_node.js", "#!/usr/bin/env node\nconst text = require('fs').readFileSync(0, 'utf8');\n"
                              "if (text.includes('ran-node')) console.log('{deny}');\n"),
    "py": ("guard_py.py", "#!/usr/bin/env python3\nimport sys\nif 'ran-py' in sys.stdin.read():\n"
                          "    print('{deny}')\n"),
}
# the files the startup variables name, printing on stdout (the defect) or stderr (its twin)
STARTUP = {
    "BASH_ENV": (".claude/shell-init.sh", 'echo "shell-init: ready"', 'echo "shell-init: ready" >&2'),
    "NODE_OPTIONS": (".claude/preload.js", 'console.log("preload: ready");', 'console.error("preload: ready");'),
    "PYTHONPATH": (".claude/pylib/sitecustomize.py", 'print("site: ready")',
                   'import sys\nprint("site: ready", file=sys.stderr)'),
    # read by interactive shells and interpreters only: printing on stdout in the twin too
    "ENV": (".claude/sh-init.sh", 'echo "sh-init: ready"', 'echo "sh-init: ready"'),
    "PYTHONSTARTUP": (".claude/startup.py", 'print("startup: ready")', 'print("startup: ready")'),
}
VALUES = {"BASH_ENV": ".claude/shell-init.sh", "NODE_OPTIONS": "--require ./.claude/preload.js",
          "PYTHONPATH": ".claude/pylib", "ENV": ".claude/sh-init.sh", "PYTHONSTARTUP": ".claude/startup.py"}
STARTUP_RULE = {"structure/env-startup-output"}


def _guarded_project(project: Path, env: dict[str, str]) -> Path:
    hooks_dir = project / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    groups = []
    for tag, (name, text) in GUARDS.items():
        (hooks_dir / name).write_text(text.replace("{deny}", DENY % tag))
        (hooks_dir / name).chmod(0o755)
        groups.append({"type": "command", "command": f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}'})
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"env": env, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": groups}]}},
                                   indent=2))
    return settings


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_startup_file_an_env_variable_names_prints_before_every_answer_of_its_interpreter(claude_cli, home,
                                                                                          project, stream):
    for path, on_stdout, on_stderr in STARTUP.values():
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text((on_stdout if stream == "stdout" else on_stderr) + "\n")
    settings = _guarded_project(project, VALUES)

    ran, run = run_gates(project, home, list(GUARDS), claude=claude_cli)

    # BASH_ENV, NODE_OPTIONS' --require and PYTHONPATH's sitecustomize run before the hook, and
    # their line on stdout spoils its JSON; ENV and PYTHONSTARTUP are not read by a hook's sh or python
    assert ran == ({"bash", "node", "py"} if stream == "stdout" else set()), run.tool_results
    flagged = doctor_flags(home, project, STARTUP_RULE)
    assert flagged == ({(str(settings), line_of(settings, f'"{name}"')) for name in ("BASH_ENV", "NODE_OPTIONS",
                                                                                     "PYTHONPATH")}
                       if stream == "stdout" else set())


OFF_SWITCH = '''\
#!/usr/bin/env bash
payload="$(cat)"
# escape hatch: GUARD_BASH_OFF=1
[ "${GUARD_BASH_OFF:-0}" = "1" ] && exit 0
if printf '%s' "$payload" | grep -q 'ran-guard'; then
  echo "guard: refused" >&2
  exit 2
fi
exit 0
'''


@pytest.mark.parametrize("value, refused", [("1", False), ("0", True)], ids=["switched off", "left on"])
def test_a_settings_env_that_sets_a_guards_off_switch_lets_its_calls_run(claude_cli, home, project, value, refused):
    hooks_dir = project / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    (hooks_dir / "guard.sh").write_text(OFF_SWITCH)
    (hooks_dir / "guard.sh").chmod(0o755)
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'}]}]}}, indent=2))
    local = project / ".claude" / "settings.local.json"
    local.write_text(json.dumps({"env": {"GUARD_BASH_OFF": value}}, indent=2))

    ran, run = run_gates(project, home, ["guard"], claude=claude_cli)

    assert ran == (set() if refused else {"guard"}), run.tool_results
    flagged = doctor_flags(home, project, {"structure/env-switches-guard-off"})
    assert flagged == (set() if refused else {(str(local), line_of(local, "GUARD_BASH_OFF"))})


ON_SWITCH = OFF_SWITCH.replace('[ "${GUARD_BASH_OFF:-0}" = "1" ] && exit 0', '[ "$GUARD_MODE" = "enforce" ] || exit 0')


@pytest.mark.parametrize("env, refused", [({}, False), ({"GUARD_MODE": "enforce"}, True)], ids=["set nowhere", "set"])
def test_a_guard_that_checks_only_when_a_variable_no_settings_set_holds_a_value_never_checks(claude_cli, home, project,
                                                                                            env, refused):
    hooks_dir = project / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    (hooks_dir / "guard.sh").write_text(ON_SWITCH)
    (hooks_dir / "guard.sh").chmod(0o755)
    (project / ".claude" / "settings.json").write_text(json.dumps({"env": env, "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'}]}]}},
        indent=2))

    ran, run = run_gates(project, home, ["guard"], claude=claude_cli)

    assert ran == (set() if refused else {"guard"}), run.tool_results
    flagged = doctor_flags(home, project, {"structure/env-switches-guard-off"})
    guard = hooks_dir / "guard.sh"
    assert flagged == (set() if refused else {(str(guard), line_of(guard, "GUARD_MODE"))})


ASKED = 'jq -r ".tool_input.command" >> "$CLAUDE_PROJECT_DIR"/asked.log'
FILE_COMMANDS = ["touch a.txt", "mkdir d", "cp a.txt b.txt", "mv b.txt c.txt", "rm c.txt", "rmdir d",
                 "chmod 600 a.txt", "sed -i s/x/y/ a.txt", "ln -s a.txt l.txt", "python3 -c pass"]


BYPASS = {"permissions": {"defaultMode": "bypassPermissions"}}


@pytest.mark.parametrize("mode, user, asked", [
    ("skip", {}, []),
    ("default", BYPASS, []),
    ("local", BYPASS, FILE_COMMANDS),  # (a local or project bypass is not taken up)
    ("default", {}, FILE_COMMANDS),
    ("acceptEdits", {}, ["chmod 600 a.txt", "ln -s a.txt l.txt", "python3 -c pass"])],
    ids=["skip permissions", "user bypass", "local bypass", "default", "accept edits"])
def test_a_permission_request_hook_never_runs_where_the_session_asks_for_nothing(claude_cli, home, project, mode, user,
                                                                                 asked):
    (home / ".claude.json").write_text(json.dumps({"hasCompletedOnboarding": True, "projects": {
        str(project.resolve()): {"hasTrustDialogAccepted": True}}}))
    (home / ".claude").mkdir()
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.local.json" if mode == "local" else home / ".claude" / "settings.json").write_text(
        json.dumps(user, indent=2))
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PermissionRequest": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": ASKED}]}]}}, indent=2))
    calls = [{"tool": "Bash", "input": {"command": command}} for command in FILE_COMMANDS]

    extra = ["--permission-mode", mode] if mode not in ("skip", "default", "local") else []
    run = run_claude(project, home, calls, claude=claude_cli, skip_permissions=mode == "skip", extra_args=extra,
                     timeout=240)
    assert run.returncode == 0, run.stderr
    log = project / "asked.log"
    assert (log.read_text().splitlines() if log.exists() else []) == asked, run.tool_results
    assert (project / "a.txt").exists() == ("touch a.txt" not in asked), run.tool_results
    flagged = doctor_flags(home, project, {"matcher/never-asked"})
    user_file = home / ".claude" / "settings.json"
    assert flagged == ({(str(user_file), line_of(user_file, "defaultMode"))} if user and mode == "default" else set())
