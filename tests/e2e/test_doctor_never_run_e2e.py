"""Hooks Claude Code never runs, or runs where they cannot refuse, each bad case beside its corrected
twin on the real Claude Code; doctor flags the bad ones where the change is made and leaves the
twins alone (docs/hosts/claude-code.md#events, #environment, #stdin-payload).

One session (a Write of `config/prod.env`, then Bash `touch ran.mark` and `touch blocked.mark`):
- a logger under `preToolUse` (Cursor's spelling) never runs, its twin under `PreToolUse` does
  (structure/event-never-runs, at the key); a PreToolUse logger under `"Hooks"` in the local
  settings never runs, and takes the file's `"env"` with it (structure/hooks-key-misspelt);
- a file guard on `Write|Edit|MultiEdit` reading `tool_input.path` reads nothing, its twin reading
  `tool_input.file_path` reads the path (script/tool-field-not-sent, at the read);
- a branch guard on SessionStart exits 2 and the session goes on: its Bash call runs; the same
  guard on PreToolUse refuses the call it names (script/exit-2-does-not-block, at the event that
  registers it);
- the tools the model is offered: no MultiEdit; a MultiEdit call is answered "No such tool
  available" and fires no hook (Host.tools_not_offered).
Two sessions: a settings `"env"` PATH without python3 keeps a `python3 guard.py` guard from
starting and the call it refuses runs; with python3's folder on that PATH it refuses the call
(command/interpreter-not-found, at the PATH).
Two sessions: a skill's shell line runs past a PreToolUse `Bash` guard that refuses everything;
with the same guard on PreSkillShellCommand too it does not run (matcher/guard-misses-skill-lines,
at the PreToolUse matcher).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from claude_cli import doctor_flags, line_of, run_claude
from hookwright.hosts.claude.adapter import Claude

pytestmark = pytest.mark.e2e

BRANCH_GUARD = "#!/bin/sh\n# Refuse to work before a feature branch is made.\ncat >/dev/null\n" \
               "echo 'You are on main: refuse to start here' >&2\nexit 2\n"
BLOCKED_TOUCH = "#!/bin/sh\n# Refuse the one command it names.\ngrep -q 'touch blocked.mark' && " \
                "{ echo 'refused: not this one' >&2; exit 2; }\nexit 0\n"


def _write(path: Path, text: str, executable: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(0o755)
    return path


def test_names_claude_code_never_runs_fields_it_never_sends_and_a_guard_that_cannot_refuse(claude_cli, home,
                                                                                          project, tmp_path):
    log = tmp_path / "ran.log"
    hooks = project / ".claude" / "hooks"
    fields = {name: _write(hooks / f"{name}.sh", f"p=$(jq -r '.tool_input.{field} // empty')\n"
                                                 f'[ -n "$p" ] && echo {name} >> {log}\nexit 0\n')
              for name, field in (("path_bad", "path"), ("path_good", "file_path"))}
    start_guard = _write(hooks / "branch-guard.sh", BRANCH_GUARD, executable=True)
    call_guard = _write(hooks / "touch-guard.sh", BLOCKED_TOUCH, executable=True)

    def logger(name: str) -> dict:
        return {"type": "command", "command": f"echo {name} >> {log}"}

    settings = _write(project / ".claude" / "settings.json", json.dumps({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command", "command": str(start_guard)}]}],
        "preToolUse": [{"matcher": "Bash", "hooks": [logger("lower_bad")]}],
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [logger("upper_good"), {"type": "command", "command": str(call_guard)}]},
            {"matcher": "Write|Edit|MultiEdit", "hooks": [{"type": "command", "command": f"bash {fields[name]}"}
                                                          for name in ("path_bad", "path_good")]}]}}, indent=2))

    edits = [{"old_string": "A=1", "new_string": "A=2"}]
    local = _write(project / ".claude" / "settings.local.json", json.dumps({"env": {"SEEN": "yes"}, "Hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [logger("key_bad")]}]}}, indent=2))
    settings_data = json.loads(settings.read_text())
    settings_data["hooks"]["PreToolUse"][0]["hooks"].append(
        {"type": "command", "command": f'[ "$SEEN" = yes ] && echo env_seen >> {log}; exit 0'})
    settings.write_text(json.dumps(settings_data, indent=2))

    ran = run_claude(project, home, [
        {"tool": "Write", "input": {"file_path": str(project / "config" / "prod.env"), "content": "A=1"}},
        {"tool": "MultiEdit", "input": {"file_path": str(project / "config" / "prod.env"), "edits": edits}},
        {"tool": "Bash", "input": {"command": "touch ran.mark"}},
        {"tool": "Bash", "input": {"command": "touch blocked.mark"}}], claude=claude_cli)
    assert ran.returncode == 0, ran.stderr
    # (the Write, then the two Bash calls; with a PreToolUse under its "Hooks", the local file is not
    # read at all: neither those hooks nor its "env")
    assert log.read_text().split() == ["path_good", "upper_good", "upper_good"]
    assert (project / "ran.mark").exists() and not (project / "blocked.mark").exists()

    offered = {tool["name"] for request in ran.requests if isinstance(request["body"], dict)
               for tool in request["body"].get("tools", [])}
    assert {"Write", "Edit", "Read", "Bash"} <= offered and not Claude.tools_not_offered & offered
    assert "No such tool available: MultiEdit" in ran.tool_results[1]["content"]  # (and no hook saw it)
    assert (project / "config" / "prod.env").read_text() == "A=1"

    flagged = doctor_flags(home, project, {"structure/event-never-runs", "structure/unknown-event",
                                           "structure/hooks-key-misspelt", "script/tool-field-not-sent",
                                           "script/exit-2-does-not-block"})
    assert flagged == {(str(settings), line_of(settings, '"preToolUse"')), (str(local), line_of(local, '"Hooks"')),
                       (str(fields["path_bad"]), 1),
                       (str(settings), line_of(settings, '"SessionStart"'))}


GUARD = "import json, sys\nif 'touch blocked.mark' in json.load(sys.stdin)['tool_input']['command']:\n" \
        "    print('refused', file=sys.stderr)\n    sys.exit(2)\n"


@pytest.mark.parametrize("with_python", [False, True], ids=["path-without-python3", "twin"])
def test_a_settings_path_without_python3_keeps_the_guard_from_starting(claude_cli, home, project, with_python):
    guard = _write(project / ".claude" / "hooks" / "guard.py", GUARD)
    folder = str(Path(shutil.which("python3") or "/usr/bin/python3").parent)
    path = "/opt/toolchain/bin" + (f":{folder}" if with_python else "")
    settings = _write(project / ".claude" / "settings.json", json.dumps({"env": {"PATH": path}, "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"python3 {guard}"}]}]}},
        indent=2))

    ran = run_claude(project, home, [{"tool": "Bash", "input": {"command": "/usr/bin/touch blocked.mark"}}],
                     claude=claude_cli)
    assert ran.returncode == 0, ran.stderr
    assert (project / "blocked.mark").exists() is not with_python

    flagged = doctor_flags(home, project, {"command/interpreter-not-found"})
    assert flagged == (set() if with_python else {(str(settings), line_of(settings, '"PATH"'))})


SKILL = "---\nname: cleanup\ndescription: Clean the build\n---\nState:\n!`touch skill-ran.mark; echo cleaned`\n"
REFUSE_ALL = "#!/bin/sh\n# Refuse every shell command.\ncat >/dev/null\necho 'refused: no shell here' >&2\nexit 2\n"


@pytest.mark.parametrize("shell_line_guard", [False, True], ids=["pre-tool-use-only", "twin"])
def test_a_skills_shell_line_passes_a_pre_tool_use_guard_and_meets_a_pre_skill_shell_command_one(
        claude_cli, home, project, shell_line_guard):
    guard = _write(project / ".claude" / "hooks" / "no-shell.sh", REFUSE_ALL, executable=True)
    _write(project / ".claude" / "skills" / "cleanup" / "SKILL.md", SKILL)
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": str(guard)}]}
    settings = _write(project / ".claude" / "settings.json", json.dumps({"hooks": {
        "PreToolUse": [group], **({"PreSkillShellCommand": [group]} if shell_line_guard else {})}}, indent=2))

    ran = run_claude(project, home, ["done"], claude=claude_cli, prompt="/cleanup")
    assert ran.returncode == 0, ran.stderr
    assert (project / "skill-ran.mark").exists() is not shell_line_guard

    flagged = doctor_flags(home, project, {"matcher/guard-misses-skill-lines"})
    assert flagged == (set() if shell_line_guard else {(str(settings), line_of(settings, '"matcher"'))})


GUARDED_SKILL = "---\nname: release\ndescription: Cut a release\nhooks:\n  PreToolUse:\n    - matcher: Bash\n" \
                "      hooks:\n        - type: command\n          command: {guard}\n---\n\n# Release\nTag and push.\n"


@pytest.mark.parametrize("where, prompt, refused", [("skill", "go", False), ("skill", "/release", True),
                                                    ("skill and settings", "go", True)],
                         ids=["skill only", "skill only, the skill run", "twin: settings too"])
def test_a_guard_in_a_skills_frontmatter_runs_only_once_the_skill_has_run(claude_cli, home, project, where, prompt,
                                                                          refused):
    guard = _write(project / ".claude" / "hooks" / "no-shell.sh", REFUSE_ALL, executable=True)
    skill = _write(project / ".claude" / "skills" / "release" / "SKILL.md", GUARDED_SKILL.format(guard=guard))
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": str(guard)}]}
    _write(project / ".claude" / "settings.json", json.dumps(
        {"hooks": {"PreToolUse": [group]}} if where != "skill" else {"permissions": {}}, indent=2))

    ran = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.mark"}}], claude=claude_cli,
                     prompt=prompt)
    assert ran.returncode == 0, ran.stderr
    assert (project / "ran.mark").exists() is not refused, ran.tool_results

    flagged = doctor_flags(home, project, {"structure/guard-only-in-skill"})
    assert flagged == (set() if where != "skill" else {(str(skill), 4)})
