"""Conditions that never hold for the calls a hook aims at, each beside its corrected twin: a glob
where Claude Code reads a regex, an MCP server named by a part of its configured name, a matcher
on an event whose calls all carry one tool name, an `if` that is one exact command, a guard that
reads the text of one file tool only (measured on Claude Code 2.1.332:
tests/e2e/test_doctor_conditions_e2e.py, docs/hosts/claude-code.md#preskillshellcommand)."""
from __future__ import annotations

import json

import pytest
from doctor_support import doctor, found, settings, write
from hookwright.doctor.run import run


def _with_server(tmp_path, server="github", **files):
    write(tmp_path, {".mcp.json": {"mcpServers": {server: {"command": "x"}}}})
    return doctor(tmp_path, files)


@pytest.mark.parametrize("matcher", ["mcp__*__delete*", "mcp__github__delete_*_issue", "Bash|mcp__*__delete*"])
def test_a_glob_matcher_whose_regex_matches_no_tool_it_stands_for_is_a_warning_at_the_matcher(tmp_path, matcher):
    outcome = _with_server(tmp_path, **{".claude/settings.json": settings(matcher=matcher)})
    (finding,) = found(outcome, "matcher/tool-glob")
    assert finding.severity == "warning" and finding.keys[-1] == "matcher"
    assert "mcp__github__delete" in finding.message and ".*" in finding.hint


@pytest.mark.parametrize("matcher", ["mcp__.*__delete.*", "mcp__github__*", "mcp__*", "Bash*", "Notebook*", "Bash"])
def test_a_glob_the_regex_reading_still_serves_and_a_regex_are_not_reported(tmp_path, matcher):
    outcome = _with_server(tmp_path, **{".claude/settings.json": settings(matcher=matcher)})
    assert not found(outcome, "matcher/tool-glob")


@pytest.mark.parametrize("matcher, server", [("mcp__linear__.*", "linear-server"), ("mcp__linear__delete_issue", "linear-server"),
                                             ("mcp__linear__.*", "mcp-linear"), ("mcp__docs-server__.*", "docs"),
                                             ("mcp__server-github__create_issue", "github"),
                                             ("mcp__Docs_MCP_Server__.*", "docs"), ("mcp__mcp-docs__.*", "docs")])
def test_a_matcher_naming_a_server_by_a_word_of_the_configured_name_is_a_warning(tmp_path, matcher, server):
    outcome = _with_server(tmp_path, server, **{".claude/settings.json": settings(matcher=matcher)})
    (finding,) = found(outcome, "matcher/server-near-name")
    assert finding.severity == "warning" and finding.keys[-1] == "matcher"
    assert f"mcp__{server}__" in finding.hint


@pytest.mark.parametrize("matcher, servers", [("mcp__linear-server__.*", ("linear-server",)),
                                              ("mcp__linear__.*", ("linear-server", "linear")),
                                              ("mcp__linear__.*", ("linear-server", "linear-bot")),
                                              ("mcp__lin__.*", ("linear-server",)), ("mcp__Linear__.*", ("linear",)),
                                              ("mcp__graphiti-memory__.*", ("memory",)),
                                              ("mcp__docs-server__.*", ("docs", "docs-server")),
                                              ("mcp__docs-server__.*", ("docs", "mcp-docs-server")),
                                              ("mcp__docserver__.*", ("docs",)), ("mcp__docs-api__.*", ("docs",)),
                                              ("mcp__linear__.*|mcp__linear-server__.*", ("linear-server",))])
def test_a_configured_server_or_no_single_near_one_is_not_reported_as_near(tmp_path, matcher, servers):
    write(tmp_path, {".mcp.json": {"mcpServers": {server: {"command": "x"} for server in servers}}})
    outcome = doctor(tmp_path, {".claude/settings.json": settings(matcher=matcher)})
    assert not found(outcome, "matcher/server-near-name")


def test_a_skill_shell_hook_matched_on_the_skills_name_never_fires_and_says_so(tmp_path):
    write(tmp_path, {".claude/skills/release/SKILL.md": "---\nname: release\n---\n!`git push`\n"})
    outcome = doctor(tmp_path, {".claude/settings.json": settings("PreSkillShellCommand", matcher="release")})
    (finding,) = found(outcome, "matcher/event-tool-never-sent")
    assert finding.severity == "warning" and finding.keys[-1] == "matcher"
    assert "skill release" in finding.message and '"Bash"' in finding.hint


@pytest.mark.parametrize("matcher", ["Read", "Edit|Write", "^Skill$"])
def test_a_skill_shell_matcher_for_another_tool_never_fires(tmp_path, matcher):
    outcome = doctor(tmp_path, {".claude/settings.json": settings("PreSkillShellCommand", matcher=matcher)})
    assert found(outcome, "matcher/event-tool-never-sent")


@pytest.mark.parametrize("event, matcher", [("PreSkillShellCommand", "Bash"), ("PreSkillShellCommand", None),
                                            ("PreSkillShellCommand", "Ba.*"), ("PreSkillShellCommand", "Bash|release"),
                                            ("PreToolUse", "release")])
def test_a_skill_shell_matcher_that_meets_bash_or_another_event_is_not_reported(tmp_path, event, matcher):
    outcome = doctor(tmp_path, {".claude/settings.json": settings(event, matcher=matcher)})
    assert not found(outcome, "matcher/event-tool-never-sent")


@pytest.mark.parametrize("condition, command", [("Bash(npm publish)", "npm publish"), ("Bash(terraform  apply)", "terraform apply"),
                                                ("Bash(rm)", "rm")])
def test_an_if_that_is_one_exact_command_is_a_warning_at_the_if(tmp_path, condition, command):
    outcome = doctor(tmp_path, {".claude/settings.json": settings(**{"if": condition})})
    (finding,) = found(outcome, "matcher/if-exact-command")
    assert finding.severity == "warning" and finding.keys[-1] == "if"
    assert json.dumps(f"Bash({command} *)") in finding.hint


@pytest.mark.parametrize("condition", ["Bash(npm publish *)", "Bash(npm publish:*)", "Bash(git push*)", "Bash",
                                       "Edit(src/a.ts)", "Bash(*)"])
def test_an_if_with_a_wildcard_or_for_another_tool_is_not_reported_as_exact(tmp_path, condition):
    outcome = doctor(tmp_path, {".claude/settings.json": settings(**{"if": condition})})
    assert not found(outcome, "matcher/if-exact-command")


SCAN = '''\
import json, re, sys
ti = json.load(sys.stdin).get("tool_input", {{}})
path = ti.get("file_path", "")
text = {reads}
if re.search(r"breakpoint\\(\\)", text):
    print("no breakpoint() in " + path, file=sys.stderr)
    sys.exit(2)
'''
HOOK = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/scan.py"'


def _scan(tmp_path, reads, matcher="Write|Edit", event="PreToolUse"):
    write(tmp_path, {".claude/hooks/scan.py": SCAN.format(reads=reads)})
    return doctor(tmp_path, {".claude/settings.json": settings(event, matcher=matcher, command=HOOK)})


@pytest.mark.parametrize("reads, matcher, missed", [('ti.get("content", "")', "Write|Edit", "Edit"),
                                                    ('ti.get("content", "")', None, "Edit, NotebookEdit"),
                                                    ('ti["new_string"]', "Edit|Write", "Write")])
def test_a_guard_reading_one_tools_written_text_on_a_matcher_for_others_is_a_warning_at_the_read(
        tmp_path, reads, matcher, missed):
    (finding,) = found(_scan(tmp_path, reads, matcher), "script/written-text-not-read")
    assert finding.severity == "warning" and finding.line == 4 and finding.path.endswith("scan.py")
    assert f"also fires for {missed}:" in finding.message


@pytest.mark.parametrize("reads, matcher, event", [('ti.get("content") or ti.get("new_string") or ""', "Write|Edit", "PreToolUse"),
                                                   ('ti.get("content", "")', "Write", "PreToolUse"),
                                                   ('ti.get("content", "")', "Write|Edit", "PostToolUse"),
                                                   ('ti.get("command", "")', "Bash|Edit", "PreToolUse")])
def test_a_guard_reading_the_text_of_each_tool_it_fires_for_is_clean(tmp_path, reads, matcher, event):
    assert not found(_scan(tmp_path, reads, matcher, event), "script/written-text-not-read")


BASH_HOOKS = {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo guard"}]}]}


@pytest.mark.parametrize("place", ["home/.claude.json", "home/.claude/hooks.json", "project/.claude/hooks.json",
                                   "project/.mcp.json"])
def test_a_hooks_block_where_claude_code_reads_no_hooks_is_named_at_the_block(tmp_path, home, place):
    project = tmp_path / "project"
    path = home / place[len("home/"):] if place.startswith("home/") else tmp_path / place
    write(path.parent, {path.name: {"mcpServers": {}, "hooks": BASH_HOOKS}})
    outcome = doctor(project, {}, given=False, start=project)
    (finding,) = found(outcome, "structure/settings-not-read")
    assert finding.severity == "warning" and finding.keys == ("hooks",) and str(path) in finding.message


def test_a_project_entry_of_the_state_file_with_hooks_is_named_too(tmp_path, home):
    project = tmp_path / "project"
    write(home, {".claude.json": {"projects": {str(project): {"hooks": BASH_HOOKS}, "/elsewhere": {}}}})
    (finding,) = found(doctor(project, {}, given=False, start=project), "structure/settings-not-read")
    assert finding.keys == ("projects", str(project), "hooks")


def test_hooks_in_the_users_settings_and_a_state_file_without_hooks_are_not_named(tmp_path, home):
    project = tmp_path / "project"
    write(home, {".claude.json": {"projects": {str(project): {"allowedTools": []}}, "mcpServers": {}},
                 ".claude/settings.json": {"hooks": BASH_HOOKS}})
    write(project, {".mcp.json": {"mcpServers": {"docs": {"command": "x"}}}})
    assert not found(doctor(project, {}, given=False, start=project), "structure/settings-not-read")


def test_a_block_whose_hooks_a_read_file_also_holds_is_not_named(tmp_path, home):
    project = tmp_path / "project"
    write(home, {".claude.json": {"hooks": BASH_HOOKS}, ".claude/settings.json": {"hooks": BASH_HOOKS}})
    assert not found(doctor(project, {}, given=False, start=project), "structure/settings-not-read")


GUARD_PUSH = '''\
import json, re, sys
cmd = json.load(sys.stdin).get("tool_input", {}).get("command", "")
if re.search(r"\\bgit\\s+push\\b", cmd) and "--force" in cmd:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                      "decision": {"behavior": "deny", "message": "no force pushes"}}}))
'''


def _asked(tmp_path, permissions, matcher="Bash", event="PermissionRequest", **handler):
    write(tmp_path, {".claude/hooks/guard.py": GUARD_PUSH})
    body = settings(event, matcher=matcher, command='python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"', **handler)
    return doctor(tmp_path, {".claude/settings.json": {"permissions": permissions, **body}})


@pytest.mark.parametrize("allow, index", [(["Bash(git status:*)", "Bash(git push:*)"], 1), (["Bash(git push *)"], 0),
                                          (["Bash"], 0), (["Read", "Bash(*)"], 1)])
def test_an_allow_rule_for_the_calls_a_permission_request_guard_looks_for_is_a_warning_at_the_rule(
        tmp_path, allow, index):
    (finding,) = found(_asked(tmp_path, {"allow": allow}), "matcher/never-asked")
    assert finding.severity == "warning" and finding.keys == ("permissions", "allow", index)
    assert finding.related and finding.related[0]["path"].endswith("settings.json")


@pytest.mark.parametrize("trust, once_trusted", [
    (None, True), ({"hasTrustDialogAccepted": False}, True), ({"hasTrustDialogAccepted": True}, False),
    ("parent", False)], ids=["no entry", "not accepted", "trusted", "a parent folder trusted"])
def test_a_project_allow_rule_in_a_folder_this_machine_does_not_trust_is_worded_with_that_condition(
        tmp_path, home, trust, once_trusted):
    project = tmp_path / "project"
    entry = {str(tmp_path): {"hasTrustDialogAccepted": True}} if trust == "parent" else \
        {str(project): trust} if trust else {}
    write(home, {".claude.json": {"projects": entry}})

    (finding,) = found(_asked(project, {"allow": ["Bash"]}), "matcher/never-asked")

    assert finding.severity == "warning" and finding.keys == ("permissions", "allow", 0)
    assert finding.message.startswith("once this folder is trusted") is once_trusted, finding.message
    assert ("never runs" in finding.message) and ("the hook runs" in finding.message) is once_trusted


@pytest.mark.parametrize("allow, matcher, event", [(["Bash(git status:*)", "Bash(npm test:*)"], "Bash", "PermissionRequest"),
                                                   (["Bash(re:*)", "Bash(json:*)"], "Bash", "PermissionRequest"),
                                                   (["Read"], "Read|Bash", "PermissionRequest"),
                                                   (["Bash(git push:*)"], "Bash", "PreToolUse"),
                                                   (["Bash"], "Bash|Write", "PermissionRequest"),
                                                   (["Write(src/**)"], "Bash", "PermissionRequest")])
def test_allow_rules_that_leave_the_guard_its_calls_are_not_reported(tmp_path, allow, matcher, event):
    assert not found(_asked(tmp_path, {"allow": allow}, matcher, event), "matcher/never-asked")


def test_an_if_for_the_allowed_command_is_reported_without_reading_the_script(tmp_path):
    outcome = _asked(tmp_path, {"allow": ["Bash(npm publish:*)"]}, **{"if": "Bash(npm publish *)"})
    (finding,) = found(outcome, "matcher/never-asked")
    assert "npm publish" in finding.message


@pytest.mark.parametrize("mode, matcher, reported", [("acceptEdits", "Write|Edit", True), ("acceptEdits", "Write", True),
                                                     ("acceptEdits", "Bash|Write", False), ("default", "Write|Edit", False),
                                                     ("bypassPermissions", "Write|Edit", False)])
def test_a_mode_that_lets_every_tool_of_the_guard_through_is_a_warning_at_the_mode(tmp_path, mode, matcher, reported):
    outcome = _asked(tmp_path, {"defaultMode": mode}, matcher)
    assert [f.keys for f in found(outcome, "matcher/never-asked")] == ([("permissions", "defaultMode")] if reported else [])


def test_a_bypass_mode_in_the_users_settings_lets_every_call_through_and_is_a_warning_there(tmp_path, home):
    write(home, {".claude/settings.json": {"permissions": {"defaultMode": "bypassPermissions"}}})
    write(tmp_path, {".claude/hooks/guard.py": GUARD_PUSH, ".claude/settings.json": settings(
        "PermissionRequest", command='python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"')})
    (finding,) = found(doctor(tmp_path, {}, given=False), "matcher/never-asked")
    assert finding.path == str(home / ".claude" / "settings.json") and finding.keys == ("permissions", "defaultMode")


@pytest.mark.parametrize("looks_for, reported", [("rm -rf", True), ("rm\\s+-rf", True), ("mv .*/etc", True),
                                                 ("git push", False), ("chmod 777", False), ("confirm -y", False)])
def test_accept_edits_lets_the_file_commands_a_bash_guard_looks_for_through_unasked(tmp_path, looks_for, reported):
    guard = GUARD_PUSH.replace("\\bgit\\s+push\\b", looks_for)
    write(tmp_path, {".claude/hooks/guard.py": guard})
    body = settings("PermissionRequest", command='python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"')
    outcome = doctor(tmp_path, {".claude/settings.json": {"permissions": {"defaultMode": "acceptEdits"}, **body}})
    assert [f.keys for f in found(outcome, "matcher/never-asked")] == ([("permissions", "defaultMode")] if reported else [])


@pytest.mark.parametrize("place, text", [
    ("README.md", "# api\n\nAgents run in the devcontainer as `claude --dangerously-skip-permissions`.\n"),
    ("Makefile", "agent:\n\tclaude  --permission-mode  bypassPermissions -p \"$(TASK)\"\n"),
    (".devcontainer/devcontainer.json", '{"postAttachCommand": "claude --permission-mode=bypassPermissions"}\n'),
    ("package.json", '{"scripts": {"agent": "claude --dangerously-skip-permissions"}}\n')])
def test_a_project_that_starts_its_agent_in_bypass_mode_never_asks_and_is_a_warning_at_the_event(tmp_path, place, text):
    write(tmp_path, {place: text})
    (finding,) = found(_asked(tmp_path, {}), "matcher/never-asked")
    assert finding.keys == ("hooks", "PermissionRequest") and finding.related[0]["path"].endswith(place)
    assert finding.related[0]["line"] == next(n for n, line in enumerate(text.splitlines(), 1) if "claude" in line)


@pytest.mark.parametrize("place, text, event", [
    ("README.md", "Never run the agent with --dangerously-skip-permissions: the guard asks first.\n", "PermissionRequest"),
    ("README.md", "Do not use `--permission-mode bypassPermissions` here.\n", "PermissionRequest"),
    ("README.md", "Agents run as `claude --dangerously-skip-permissions`.\n", "PreToolUse"),
    ("Makefile", "agent:\n\tclaude --permission-mode acceptEdits\n", "PermissionRequest"),
    ("notes/launch.md", "claude --dangerously-skip-permissions\n", "PermissionRequest")])
def test_a_project_that_says_not_to_bypass_or_whose_guard_runs_before_the_prompt_is_clean(tmp_path, place, text, event):
    write(tmp_path, {place: text})
    assert not found(_asked(tmp_path, {}, event=event), "matcher/never-asked")


TRIAGE = '''\
#!/usr/bin/env python3
"""{head}"""
import json, re, sys
payload = json.load(sys.stdin)
resp = payload.get("tool_response") or {{}}
failed = re.findall(r"^FAILED (\\S+)", resp.get("stdout", ""), re.M)
if failed:
    print(json.dumps({{"hookSpecificOutput": {{"hookEventName": "PostToolUse", "additionalContext": " ".join(failed)}}}}))
'''


@pytest.mark.parametrize("head", ["When a test run fails, tell Claude which tests are known flakes.",
                                  "Triage: on a failing pytest run, log the failures."])
def test_a_post_tool_use_script_that_says_it_acts_on_a_failure_is_reported_at_its_event(tmp_path, head):
    write(tmp_path, {".claude/hooks/triage.py": TRIAGE.format(head=head)})
    command = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/triage.py"'
    outcome = doctor(tmp_path, {".claude/settings.json": settings("PostToolUse", command=command)})
    (finding,) = found(outcome, "script/failure-in-post-tool-use")
    assert finding.severity == "warning" and finding.path.endswith("settings.json") and finding.line == 3
    assert "PostToolUseFailure" in finding.hint


@pytest.mark.parametrize("event, head", [("PostToolUseFailure", "When a test run fails, tell Claude which tests are known flakes."),
                                         ("PostToolUse", "Tell Claude which tests are known flakes.")])
def test_a_failure_script_on_the_failure_event_or_one_that_says_nothing_of_failures_is_clean(tmp_path, event, head):
    write(tmp_path, {".claude/hooks/triage.py": TRIAGE.format(head=head)})
    command = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/triage.py"'
    outcome = doctor(tmp_path, {".claude/settings.json": settings(event, command=command)})
    assert not found(outcome, "script/failure-in-post-tool-use")


MODE_GUARD = '''\
import json, os, sys
MODE = os.environ.get("SCAN_MODE", "warn")
if MODE == "block":
    sys.exit(2)
'''


def _modes(tmp_path, project_env, local_env, guard=MODE_GUARD):
    write(tmp_path, {".claude/hooks/scan.py": guard,
                     ".claude/settings.json": {"env": project_env, **settings(
                         command='python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py')},
                     ".claude/settings.local.json": {"env": local_env}})
    return doctor(tmp_path, {}, given=False)


def test_a_local_env_value_over_the_one_a_guard_refuses_on_is_a_warning_at_the_local_value(tmp_path):
    (finding,) = found(_modes(tmp_path, {"SCAN_MODE": "block"}, {"SCAN_MODE": "warn"}), "structure/env-overridden")
    assert finding.severity == "warning" and finding.keys == ("env", "SCAN_MODE")
    assert finding.path.endswith("settings.local.json") and '"block"' in finding.message


@pytest.mark.parametrize("project_env, local_env, guard", [
    ({"SCAN_MODE": "block"}, {"SCAN_MODE": "block"}, MODE_GUARD), ({"SCAN_MODE": "block"}, {"OTHER": "x"}, MODE_GUARD),
    ({"SCAN_MODE": "block"}, {"SCAN_MODE": "strict"}, MODE_GUARD.replace('MODE == "block"', 'MODE in ("block", "strict")')),
    ({"SCAN_MODE": "block"}, {"SCAN_MODE": "warn"}, MODE_GUARD.replace("sys.exit(2)", "print('would block')"))])
def test_an_override_the_guard_reads_as_well_or_that_refuses_nothing_is_not_reported(tmp_path, project_env, local_env, guard):
    assert not found(_modes(tmp_path, project_env, local_env, guard), "structure/env-overridden")


def _on_path(tmp_path, path_by_scope, command='python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py', script=MODE_GUARD,
             name="scan.py"):
    """A guard started as `command`, and an "env" PATH in each scope's settings file ({scope: PATH})."""
    places = {"project": ".claude/settings.json", "local": ".claude/settings.local.json"}
    files = {".claude/hooks/" + name: script, places["project"]: {**settings(command=command)}}
    for scope, path in path_by_scope.items():
        files[places[scope]] = {**files.get(places[scope], {}), "env": {"PATH": path}}
    write(tmp_path, files)
    (tmp_path / ".claude" / "hooks" / name).chmod(0o755)
    return doctor(tmp_path, {}, given=False)


def _holds(program):
    """A folder on this machine that holds the program (the twin's PATH)."""
    import shutil
    from pathlib import Path
    return str(Path(shutil.which(program)).parent)


SH_GUARD = "#!/usr/bin/env bash\n[ \"$SCAN_MODE\" = block ] && exit 2\nexit 0\n"


@pytest.mark.parametrize("command, name, program", [
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py', "scan.py", "python3"),
    ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py', "scan.py", "python3"),  # (its `#!/usr/bin/env python3` line)
    ('bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.sh', "scan.sh", "bash"),
    ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.sh', "scan.sh", "bash")])
def test_a_settings_path_without_the_program_a_hook_starts_is_an_error_at_that_path(tmp_path, command, name, program):
    script = SH_GUARD if name.endswith(".sh") else "#!/usr/bin/env python3\n" + MODE_GUARD
    outcome = _on_path(tmp_path, {"project": "/opt/toolchain/bin"}, command, script, name)
    hits = found(outcome, "command/interpreter-not-found")
    assert [(h.path.endswith(".claude/settings.json"), h.keys, h.severity) for h in hits][:1] == \
        [(True, ("env", "PATH"), "error")]
    assert f"`{program}`" in hits[0].message and _holds(program) in hits[0].hint
    assert hits[0].related[0]["message"] == f"a hook that starts {program}"


@pytest.mark.parametrize("paths", [
    {"project": None},  # the twin: the folder that holds it is on that PATH
    {"project": "$HOME/bin:$PATH"},  # another variable: not known here, not judged
    {"project": "/opt/toolchain/bin", "local": None},  # the local file's PATH wins, and has it
])
def test_a_settings_path_that_holds_the_program_or_is_not_known_here_is_clean(tmp_path, paths):
    given = {scope: path or f"/opt/toolchain/bin:{_holds('python3')}:/usr/bin:/bin" for scope, path in paths.items()}
    outcome = _on_path(tmp_path, given, '"$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py', "#!/usr/bin/env python3\n" + MODE_GUARD)
    assert not found(outcome, "command/interpreter-not-found")


def test_a_local_settings_path_over_the_projects_is_the_one_judged(tmp_path):
    outcome = _on_path(tmp_path, {"project": f"{_holds('python3')}:/usr/bin:/bin", "local": "/opt/toolchain/bin"})
    (hit,) = found(outcome, "command/interpreter-not-found")
    assert hit.path.endswith("settings.local.json") and "local settings" in hit.message


def test_two_hooks_that_start_one_program_hidden_by_the_path_are_one_finding(tmp_path):
    write(tmp_path, {".claude/hooks/a.py": MODE_GUARD, ".claude/hooks/b.py": MODE_GUARD,
                     ".claude/settings.json": {"env": {"PATH": "/opt/toolchain/bin"}, "hooks": {"PreToolUse": [
                         {"matcher": "Bash", "hooks": [{"type": "command", "command": f"python3 .claude/hooks/{n}.py"}
                                                       for n in "ab"]}]}}})
    assert len(found(doctor(tmp_path, {}, given=False), "command/interpreter-not-found")) == 1


NO_RM = "#!/bin/sh\n# Refuse destructive commands.\ngrep -q 'rm -rf' && { echo 'refused: rm -rf' >&2; exit 2; }\nexit 0\n"
SKILL = "---\nname: cleanup\ndescription: Clean the build\n---\nState:\n!`rm -rf build; echo cleaned`\n"


def _skills_and_guard(home, project, skill=SKILL, where="project", **more):
    folder = (project / ".claude" if where == "project" else home / ".claude") / "skills" / "cleanup"
    guard = {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-rm.sh'}
    hooks = {"PreToolUse": [{"matcher": "Bash", "hooks": [guard]}], **more}
    write(project, {".claude/hooks/no-rm.sh": NO_RM, ".claude/settings.json": {"hooks": hooks}})
    (project / ".claude" / "hooks" / "no-rm.sh").chmod(0o755)
    write(folder, {"SKILL.md": skill})
    return doctor(project, {}, given=False)


@pytest.mark.parametrize("where", ["project", "user"])
def test_a_shell_guard_on_pre_tool_use_alone_misses_a_skills_shell_lines_at_its_matcher(home, project, where):
    outcome = _skills_and_guard(home, project, where=where)
    (hit,) = found(outcome, "matcher/guard-misses-skill-lines")
    assert (hit.severity, hit.keys) == ("warning", ("hooks", "PreToolUse", 0, "matcher"))
    assert "PreSkillShellCommand" in hit.hint and hit.related[0]["line"] == 6
    assert hit.related[0]["path"].endswith("skills/cleanup/SKILL.md")


SHELL_LINE_GUARD = {"hooks": [{"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/no-rm.sh'}]}


@pytest.mark.parametrize("skill, more", [
    (SKILL, {"PreSkillShellCommand": [{"matcher": "Bash", **SHELL_LINE_GUARD}]}),  # the twin: the lines are guarded
    (SKILL, {"PreSkillShellCommand": [SHELL_LINE_GUARD]}),  # (no matcher: every line)
    (SKILL.replace("!`rm -rf build; echo cleaned`", "Run `make clean`."), {}),  # a skill without shell lines
])
def test_a_skill_whose_lines_are_guarded_or_that_runs_none_leaves_the_guard_clean(home, project, skill, more):
    assert not found(_skills_and_guard(home, project, skill, **more), "matcher/guard-misses-skill-lines")


def test_a_logger_on_bash_is_no_guard_that_misses_skill_lines(home, project):
    write(project, {".claude/settings.json": settings(command="echo ran >> /tmp/log"),
                    ".claude/skills/cleanup/SKILL.md": SKILL})
    assert not found(doctor(project, {}, given=False), "matcher/guard-misses-skill-lines")


def test_one_projects_settings_path_is_not_the_path_of_another_project_named_in_the_same_run(tmp_path):
    write(tmp_path / "a", {".claude/settings.json": {"env": {"PATH": "/opt/toolchain/bin"}, **settings(command="true")}})
    write(tmp_path / "b", {".claude/hooks/scan.py": MODE_GUARD,
                           ".claude/settings.json": settings(command="python3 .claude/hooks/scan.py")})
    (tmp_path / "b" / ".claude" / "settings.local.json").write_text('{"env": {"PATH": "/opt/toolchain/bin"}}\n')
    paths = [tmp_path / "a" / ".claude" / "settings.json", tmp_path / "b" / ".claude" / "settings.json"]
    assert not found(run(paths, project=tmp_path), "command/interpreter-not-found")
    (hit,) = found(run(paths + [tmp_path / "b" / ".claude" / "settings.local.json"], project=tmp_path),
                   "command/interpreter-not-found")  # the twin: b's own local PATH hides python3 from b's hook
    assert hit.path == str(tmp_path / "b" / ".claude" / "settings.local.json")


def test_an_env_value_of_one_project_does_not_override_another_projects_in_the_same_run(tmp_path):
    command = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/scan.py'
    for name, mode in (("a", "block"), ("b", "warn")):
        write(tmp_path / name, {".claude/hooks/scan.py": MODE_GUARD,
                                ".claude/settings.json": {"env": {"SCAN_MODE": mode}, **settings(command=command)}})
    paths = [tmp_path / name / ".claude" / "settings.json" for name in "ab"]
    assert not found(run(paths, project=tmp_path), "structure/env-overridden")
    write(tmp_path / "b", {".claude/settings.json": {"env": {"SCAN_MODE": "block"}, **settings(command=command)},
                           ".claude/settings.local.json": {"env": {"SCAN_MODE": "warn"}}})
    (finding,) = found(run(paths + [tmp_path / "b" / ".claude" / "settings.local.json"], project=tmp_path),
                       "structure/env-overridden")  # the twin: b's local value over b's own
    assert finding.path == str(tmp_path / "b" / ".claude" / "settings.local.json")
