"""Conditions that never hold for the calls a hook aims at, on the real Claude Code, each beside
its twin, and what doctor says about each (docs/hosts/claude-code.md#matchers, #permission-rules,
#stdin-payload): a glob where the host reads a regex, an MCP server named by a part of its name,
an `if` that is one exact command, a guard that reads one tool's text field. One session."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

MCP_SERVER = Path(__file__).resolve().parent / "fake_mcp_server.py"
GUARD = '''\
#!/usr/bin/env python3
"""Keep the marker out of {name}."""
import json, sys
ti = json.load(sys.stdin).get("tool_input", {{}})
text = {reads}
if ti.get("file_path", "").endswith("{name}") and "MARKER" in text:
    print("no MARKER in {name}", file=sys.stderr)
    sys.exit(2)
'''


def _log(tag: str, **handler: str) -> dict:
    return {"type": "command", "command": f'echo {tag} >> "$CLAUDE_PROJECT_DIR"/ran.log', **handler}


def _line(path: Path, text: str, after: str = "") -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if after in line)
    return next(i for i, line in enumerate(lines[start:], start + 1) if text in line)


def test_globs_near_server_names_exact_ifs_and_one_tools_text_as_claude_code_reads_them(claude_cli, home, project,
                                                                                         tmp_path):
    hooks_dir = project / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    for name, reads in (("a.py", 'ti.get("content", "")'), ("b.py", 'ti.get("content") or ti.get("new_string") or ""')):
        (project / name).write_text("x = 1\n")
        script = hooks_dir / f"guard_{name[0]}.py"
        script.write_text(GUARD.format(name=name, reads=reads))
        script.chmod(0o755)
    pre = [{"matcher": "mcp__*__read*", "hooks": [_log("glob")]},
           {"matcher": "mcp__.*__read.*", "hooks": [_log("regex")]},
           {"matcher": "mcp__docs__.*", "hooks": [_log("near")]},
           {"matcher": "mcp__docs-server__.*", "hooks": [_log("server")]},
           {"matcher": "Bash", "hooks": [_log("if_exact", **{"if": "Bash(echo publish)"}),
                                         _log("if_glob", **{"if": "Bash(echo publish *)"})]},
           {"matcher": "Write|Edit", "hooks": [
               {"type": "command", "command": f'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard_{tag}.py'}
               for tag in "ab"]}]
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"enableAllProjectMcpServers": True, "hooks": {"PreToolUse": pre}}, indent=2))
    record = tmp_path / "mcp.jsonl"
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"docs-server": {
        "command": sys.executable, "args": [str(MCP_SERVER), str(record)]}}}))
    calls = [{"tool": "mcp__docs-server__read_doc", "input": {"path": "x"}},
             {"tool": "Bash", "input": {"command": "echo publish --access public"}}]
    calls += [{"tool": "Edit", "input": {"file_path": str(project / name), "old_string": "x = 1",
                                         "new_string": "x = 1  # MARKER"}} for name in ("a.py", "b.py")]

    run = run_claude(project, home, calls, claude=claude_cli, timeout=200)
    assert run.returncode == 0, run.stderr

    assert [json.loads(line)["tool"] for line in record.read_text().splitlines()] == ["read_doc"]
    assert sorted((project / "ran.log").read_text().split()) == ["if_glob", "regex", "server"]
    assert "MARKER" in (project / "a.py").read_text() and "MARKER" not in (project / "b.py").read_text()

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    found = [(f["rule"], Path(f["path"]).name, f["line"]) for f in json.loads(doctor.stdout)["findings"]
             if f["severity"] != "info"]
    bad = [("matcher/tool-glob", "settings.json", _line(settings, '"mcp__*__read*"')),
           ("matcher/server-near-name", "settings.json", _line(settings, '"mcp__docs__.*"')),
           ("matcher/if-exact-command", "settings.json", _line(settings, '"Bash(echo publish)"')),
           ("script/written-text-not-read", "guard_a.py", 5)]
    twins = [("matcher/tool-glob", "settings.json", _line(settings, '"mcp__.*__read.*"')),
             ("matcher/server-near-name", "settings.json", _line(settings, '"mcp__docs-server__.*"')),
             ("matcher/if-exact-command", "settings.json", _line(settings, '"Bash(echo publish *)"')),
             ("script/written-text-not-read", "guard_b.py", 5)]
    assert set(bad) <= set(found), found
    assert not set(twins) & set(found), found


def _logged(tag: str) -> dict:
    return {"PreToolUse": [{"matcher": "Bash", "hooks": [_log(tag)]}]}


def test_hooks_in_files_claude_code_reads_no_hooks_from_never_run_and_doctor_names_each(claude_cli, home, project):
    state = home / ".claude.json"
    state.write_text(json.dumps({"hasCompletedOnboarding": True, "hooks": _logged("state"), "projects": {
        str(project.resolve()): {"hasTrustDialogAccepted": True, "hooks": _logged("state_project")}}}, indent=2))
    (home / ".claude").mkdir()
    (home / ".claude" / "hooks.json").write_text(json.dumps({"hooks": _logged("user_hooks_json")}, indent=2))
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": _logged("user_settings")}, indent=2))
    (project / ".claude").mkdir()
    (project / ".claude" / "hooks.json").write_text(json.dumps({"hooks": _logged("hooks_json")}, indent=2))
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {}, "hooks": _logged("mcp_json")}, indent=2))

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "true"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.log").read_text().split() == ["user_settings"]

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    found = [(f["rule"], f["path"], f["line"]) for f in json.loads(doctor.stdout)["findings"]]
    unread = {(path, line) for rule, path, line in found if rule == "structure/settings-not-read"}
    assert {(str(state), _line(state, '"hooks"')), (str(state), _line(state, '"hooks"', after="projects")),
            (str(home / ".claude" / "hooks.json"), 2), (str(project / ".claude" / "hooks.json"), 2),
            (str(project / ".mcp.json"), 3)} == unread, found
    assert not any(path.endswith("settings.json") for _, path, _ in found)


ASKED = 'jq -r ".tool_input.command // .tool_name" >> "$CLAUDE_PROJECT_DIR"/asked.log'
CALLS = ["touch allowed.txt", "touch other.txt", "python3 -c pass", "Write", "Edit"]
LOOKS_FOR = 'grep -q "touch {name}.txt" && echo {name} >> "$CLAUDE_PROJECT_DIR"/looked.log; exit 0'


@pytest.mark.parametrize("permissions, asked, looked, at", [
    ({"allow": ["Bash(touch allowed.txt)", "Bash(python3:*)"]}, ["touch other.txt", "Write", "Edit"], ["other"],
     '"Bash(touch allowed.txt)"'),
    ({"defaultMode": "bypassPermissions"}, CALLS, ["allowed", "other"], None),  # (a project's bypass is not taken up)
    ({"defaultMode": "acceptEdits"}, ["python3 -c pass"], [], '"defaultMode"'),
    ({}, CALLS, ["allowed", "other"], None)], ids=["allow rules", "bypass", "accept edits", "none"])
def test_a_permission_request_hook_runs_only_for_calls_that_would_ask(claude_cli, home, project, permissions, asked,
                                                                      looked, at):
    (home / ".claude.json").write_text(json.dumps({"hasCompletedOnboarding": True, "projects": {
        str(project.resolve()): {"hasTrustDialogAccepted": True}}}))
    hooks_dir = project / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    for name in ("allowed", "other"):
        (hooks_dir / f"look_{name}.sh").write_text("#!/usr/bin/env bash\n" + LOOKS_FOR.format(name=name) + "\n")
        (hooks_dir / f"look_{name}.sh").chmod(0o755)
    settings = project / ".claude" / "settings.json"
    groups = [{"matcher": "Bash|Write|Edit", "hooks": [{"type": "command", "command": ASKED}]}]
    groups += [{"matcher": "Bash" if not at or "allow" in at else "Write|Edit", "hooks": [
        {"type": "command", "command": f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/look_{name}.sh'}]} for name in ("allowed", "other")]
    settings.write_text(json.dumps({"permissions": permissions, "hooks": {"PermissionRequest": groups}}, indent=2))
    calls = [{"tool": "Bash", "input": {"command": command}} for command in CALLS[:3]]
    calls += [{"tool": "Write", "input": {"file_path": str(project / "new.txt"), "content": "x\n"}},
              {"tool": "Edit", "input": {"file_path": str(project / "old.txt"), "old_string": "x", "new_string": "y"}}]
    (project / "old.txt").write_text("x\n")

    run = run_claude(project, home, calls, claude=claude_cli, skip_permissions=False)
    assert run.returncode == 0, run.stderr
    logs = {name: (project / f"{name}.log").read_text().splitlines() if (project / f"{name}.log").exists() else []
            for name in ("asked", "looked")}
    assert (logs["asked"], logs["looked"]) == (asked, looked), run.tool_results

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    found = [f for f in json.loads(doctor.stdout)["findings"] if f["rule"] == "matcher/never-asked"]
    named = ["look_allowed.sh"] if at and "allow" in at else ["look_allowed.sh", "look_other.sh"] if at else []
    assert {f["line"] for f in found} == ({_line(settings, at)} if at else set()), found
    assert sorted(r["line"] for f in found for r in f["related"]) == [_line(settings, name) for name in named]


SCAN = '''\
#!/usr/bin/env python3
"""Refuse Bash calls while the scan mode is block."""
import json, os, sys
MODE = os.environ.get("SCAN_MODE", "warn")
json.load(sys.stdin)
if MODE == "block":
    print("scan: refused", file=sys.stderr)
    sys.exit(2)
'''


@pytest.mark.parametrize("local, refused", [({"SCAN_MODE": "warn"}, False), ({"OTHER": "1"}, True)],
                         ids=["local overrides", "local sets another"])
def test_the_local_settings_env_wins_over_the_projects_for_a_hook(claude_cli, home, project, local, refused):
    hooks_dir = project / ".claude" / "hooks"
    hooks_dir.mkdir(parents=True)
    (hooks_dir / "scan.py").write_text(SCAN)
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"env": {"SCAN_MODE": "block"}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py'}]}]}}, indent=2))
    local_file = project / ".claude" / "settings.local.json"
    local_file.write_text(json.dumps({"env": local}, indent=2))

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.txt"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    assert (project / "ran.txt").exists() != refused, run.tool_results

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    found = [(Path(f["path"]).name, f["line"]) for f in json.loads(doctor.stdout)["findings"]
             if f["rule"] == "structure/env-overridden"]
    assert found == ([] if refused else [("settings.local.json", _line(local_file, "SCAN_MODE"))])


@pytest.mark.parametrize("trusted", [True, False], ids=["trusted folder", "untrusted folder"])
@pytest.mark.parametrize("command", ["touch made.txt", "rm -rf build/ && touch made.txt"], ids=["touch", "rm -rf"])
def test_an_allow_rule_for_all_of_bash_keeps_permission_request_from_asking_only_where_the_folder_is_trusted(
        claude_cli, home, project, trusted, command):
    if trusted:
        (home / ".claude.json").write_text(json.dumps({"hasCompletedOnboarding": True, "projects": {
            str(project.resolve()): {"hasTrustDialogAccepted": True}}}))
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash"]}, "hooks": {"PermissionRequest": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": ASKED}]}]}}, indent=2))

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": command}}], claude=claude_cli,
                     skip_permissions=False)

    assert run.returncode == 0, run.stderr
    asked = (project / "asked.log").read_text().splitlines() if (project / "asked.log").exists() else []
    assert asked == ([] if trusted else [command]), run.tool_results

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    [found] = [f for f in json.loads(doctor.stdout)["findings"] if f["rule"] == "matcher/never-asked"]
    assert found["line"] == _line(settings, '"Bash"') and found["message"].startswith("once this folder") is not trusted


@pytest.mark.parametrize("file, permissions, call", [
    ("settings.local.json", {"allow": ["Bash"]}, {"tool": "Bash", "input": {"command": "touch made.txt"}}),
    ("settings.json", {"defaultMode": "acceptEdits"}, {"tool": "Write", "input": {"file_path": "made.txt",
                                                                                  "content": "x\n"}})],
    ids=["local allow rule", "project acceptEdits"])
@pytest.mark.parametrize("trusted", [True, False], ids=["trusted folder", "untrusted folder"])
def test_the_local_files_allow_rules_and_the_projects_mode_hold_trusted_or_not(claude_cli, home, project, file,
                                                                              permissions, call, trusted):
    """Only the project's own allow rules wait for trust (the test above): doctor words no other."""
    if trusted:
        (home / ".claude.json").write_text(json.dumps({"hasCompletedOnboarding": True, "projects": {
            str(project.resolve()): {"hasTrustDialogAccepted": True}}}))
    settings = project / ".claude" / file
    settings.parent.mkdir()
    settings.write_text(json.dumps({"permissions": permissions, "hooks": {"PermissionRequest": [
        {"matcher": call["tool"], "hooks": [{"type": "command", "command": ASKED}]}]}}, indent=2))
    if "file_path" in call["input"]:
        call = {**call, "input": {**call["input"], "file_path": str(project / "made.txt")}}

    run = run_claude(project, home, [call], claude=claude_cli, skip_permissions=False)

    assert run.returncode == 0, run.stderr
    asked = (project / "asked.log").read_text().splitlines() if (project / "asked.log").exists() else []
    assert asked == [], (asked, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    found = [f for f in json.loads(doctor.stdout)["findings"] if f["rule"] == "matcher/never-asked"]
    assert found and not any(f["message"].startswith("once this folder") for f in found), found
