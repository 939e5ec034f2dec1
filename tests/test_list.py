"""`hookwright list`: the merged, effective view of every hook from every scope and plugin."""
from __future__ import annotations

import json
from pathlib import Path

from support import write_json


def group(matcher, *handlers):
    entry = {"hooks": list(handlers)}
    if matcher is not None:
        entry["matcher"] = matcher
    return entry


def cmd(command, **extra):
    return {"type": "command", "command": command, **extra}


def rows(ran) -> list[dict]:
    assert ran.code == 0, ran.err
    return ran.json["hooks"]


def by_what(hooks: list[dict]) -> dict[str, dict]:
    return {h["runs"]: h for h in hooks}


def test_no_hooks(hookwright, home, project):
    ran = hookwright("list", "--project", project)
    assert ran.code == 0 and "no hooks" in ran.out
    assert rows(hookwright("list", "--project", project, "--json")) == []


def test_every_scope_and_plugin_merged(hookwright, home, project, tmp_path):
    rewriter = project / ".claude" / "hooks" / "rewrite.py"
    rewriter.parent.mkdir(parents=True)
    rewriter.write_text('import json\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", '
                        '"updatedInput": {}}}))\n')
    write_json(home / ".claude" / "settings.json", {
        "enabledPlugins": {"fmt@market": True},
        "hooks": {"PreToolUse": [group("Bash", cmd("echo user-guard", timeout=5))],
                  "UserPromptSubmit": [group(None, cmd("echo prompt"))]}})
    write_json(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        group("Bash|Edit", cmd('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rewrite.py'),
              cmd("echo user-guard")),
        group("Bash", {"type": "http", "url": "http://127.0.0.1:9/hook"}, {"type": "prompt", "prompt": "ok?"})]}})
    write_json(project / ".claude" / "settings.local.json", {"hooks": {"Stop": [group(None, cmd("echo local"))]}})
    plugin = tmp_path / "plugins" / "fmt"
    write_json(plugin / "hooks" / "hooks.json", {"description": "fmt", "hooks": {
        "PostToolUse": [group("Edit|Write", cmd("${CLAUDE_PLUGIN_ROOT}/fmt.sh"))]}})
    write_json(home / ".claude" / "plugins" / "installed_plugins.json",
               {"version": 2, "plugins": {"fmt@market": [{"scope": "user", "installPath": str(plugin)}]}})

    data = hookwright("list", "--project", project, "--json").json
    hooks = by_what(data["hooks"])
    assert [h["event"] for h in data["hooks"]] == ["PreToolUse"] * 5 + ["PostToolUse", "Stop", "UserPromptSubmit"]

    user = [h for h in data["hooks"] if h["runs"] == "echo user-guard"]
    assert [(h["source"]["scope"], h["matcher"], h["timeout"]) for h in user] == [
        ("user", "Bash", {"seconds": 5, "default": False}), ("project", "Bash|Edit", {"seconds": 600, "default": True})]
    # the project's Bash|Edit fires on every call the user's Bash copy fires on: that one adds nothing here
    assert user[0]["deduplicated"].startswith("runs once, as ") and user[1]["deduplicated"] is None

    rewrite = hooks['python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rewrite.py']
    assert rewrite["rewrites_input"]["status"] == "yes" and rewrite["owner"] == "foreign"
    assert hooks["http://127.0.0.1:9/hook"]["type"] == "http"
    assert hooks["http://127.0.0.1:9/hook"]["rewrites_input"]["status"] == "unknown"
    assert hooks["ok?"]["rewrites_input"]["status"] == "no"
    assert hooks["ok?"]["timeout"] == {"seconds": 30, "default": True}
    assert hooks["echo prompt"]["timeout"] == {"seconds": 30, "default": True}  # UserPromptSubmit's default
    assert hooks["echo local"]["source"]["scope"] == "local"
    fmt = hooks["${CLAUDE_PLUGIN_ROOT}/fmt.sh"]
    assert fmt["source"]["plugin"] == "fmt@market" and fmt["source"]["scope"] == "plugin"
    assert fmt["rewrites_input"] == {"status": "no", "why": "PostToolUse hooks cannot rewrite tool input"}
    assert data["plugins"] == [{"id": "fmt@market", "installed": True}]

    text = hookwright("list", "--project", project)
    assert text.code == 0
    assert "PreToolUse (claude)" in text.out and "Stop (claude)" in text.out
    header = next(line for line in text.out.splitlines() if "rewrites" in line)
    column = header.index("rewrites")
    assert any(line[column:].startswith("yes ") for line in text.out.splitlines())  # the rewriter's row
    assert "runs once, as" in text.out and "[plugin fmt@market]" in text.out


def test_our_packs_are_named(hookwright, home, project):
    assert hookwright("install", "git-guard", "ask-guard", "--scope", "project", "--project", project,
                      "--yes").code == 0
    hooks = rows(hookwright("list", "--project", project, "--json"))
    owners = {(h["owner"], h["hook"], h["event"]): h["rewrites_input"]["status"] for h in hooks}
    assert owners[("git-guard", "git-guard", "PreToolUse")] == "no"
    assert owners[("ask-guard", "question-preference", "PreToolUse")] == "yes"
    assert owners[("ask-guard", "question-log", "PostToolUse")] == "no"
    assert all(h["owner"] != "foreign" for h in hooks)


def test_cursor_hooks_and_the_host_filter(hookwright, home, project):
    write_json(project / ".cursor" / "hooks.json", {"version": 1, "hooks": {
        "preToolUse": [{"command": "echo '{\"permission\": \"allow\", \"updated_input\": {}}'", "matcher": "Shell"}],
        "stop": [{"command": ".cursor/hooks/stop.sh"}]}})
    write_json(project / ".claude" / "settings.json", {"hooks": {"Stop": [group(None, cmd("echo claude"))]}})
    hooks = rows(hookwright("list", "--project", project, "--json", "--host", "cursor"))
    assert {h["host"] for h in hooks} == {"cursor"}
    pre = next(h for h in hooks if h["event"] == "preToolUse")
    assert pre["rewrites_input"]["status"] == "yes" and pre["timeout"] == {"seconds": None, "default": True}
    both = rows(hookwright("list", "--project", project, "--json"))
    assert {h["host"] for h in both} == {"claude", "cursor"}


def test_unreadable_files_and_kill_switches_are_shown(hookwright, home, project):
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text('{"hooks": {}, // no comments\n}')
    write_json(project / ".claude" / "settings.local.json", {"disableAllHooks": True, "hooks": {
        "Stop": [group(None, cmd("echo x"))]}})
    ran = hookwright("list", "--project", project, "--json")
    files = {Path(f["path"]).name: f for f in ran.json["files"]}
    assert not files["settings.json"]["readable"] and files["settings.json"]["error"]
    assert (files["settings.json"]["line"], files["settings.json"]["column"]) == (1, 15)  # the comment
    assert ran.json["disabled_by"] == [str(project / ".claude" / "settings.local.json")]
    assert ran.code == 2 and ran.json["exit_code"] == 2  # the rest is listed, and the exit code says so
    text = hookwright("list", "--project", project)
    assert "unreadable" in text.out and "disableAllHooks" in text.out and text.code == 2
    assert f"{project / '.claude' / 'settings.json'}:1:15: invalid JSON: a comment" in text.out.replace("\n", "")
    (project / ".claude" / "settings.json").write_text('{"hooks": {}}')
    assert hookwright("list", "--project", project).code == 0


def test_bad_arguments(hookwright, home, project):
    assert hookwright("list", "--host", "vim", "--project", project).code == 2
    assert hookwright("list", "--project", project / "missing").code == 2


def test_json_document_is_versioned(hookwright, home, project):
    doc = hookwright("list", "--project", project, "--json").json
    assert doc["schema"] == "hookwright/1" and doc["command"] == "list" and doc["exit_code"] == 0
    json.dumps(doc)


def test_a_higher_scope_false_overrides_a_lower_scope_disable_all_hooks(hookwright, home, project):
    """hooks.md §1.3: the value that wins after precedence counts, so a local `false` beats the
    user's `true`."""
    write_json(home / ".claude" / "settings.json", {"disableAllHooks": True})
    write_json(project / ".claude" / "settings.local.json", {"disableAllHooks": False, "hooks": {
        "Stop": [group(None, cmd("echo x"))]}})
    ran = hookwright("list", "--project", project, "--json")
    assert ran.json["disabled_by"] == []
    write_json(project / ".claude" / "settings.local.json", {"hooks": {"Stop": [group(None, cmd("echo x"))]}})
    ran = hookwright("list", "--project", project, "--json")
    assert ran.json["disabled_by"] == [str(home / ".claude" / "settings.json")]


def test_a_file_whose_shape_gives_no_hooks_says_so(hookwright, home, project):
    write_json(project / ".claude" / "settings.json", [])
    write_json(project / ".claude" / "settings.local.json", {"hooks": []})
    ran = hookwright("list", "--project", project)
    assert "no hooks read from" in ran.out and "holds a list, not an object" in ran.out
    assert '"hooks" is a list, not an object' in ran.out
    data = hookwright("list", "--project", project, "--json").json
    assert {Path(f["path"]).name: f["no_hooks_read"] for f in data["files"]} == {
        "settings.json": "the file holds a list, not an object",
        "settings.local.json": '"hooks" is a list, not an object'}


def test_columns_line_up_whatever_the_matcher_length_and_nothing_is_cut_in_a_pipe(hookwright, home, project):
    long = "mcp__github__create_pull_request_review_comment|Bash"
    write_json(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        group(long, cmd("echo a")), group("Bash", cmd("echo b"))]}})
    lines = [line for line in hookwright("list", "--project", project).out.splitlines() if "foreign" in line]
    assert len(lines) == 2 and len({line.index("foreign") for line in lines}) == 1
    assert any(long in line for line in lines)  # one row per line, whole, for grep


def test_a_copy_that_shares_only_some_calls_is_shown_as_such(hookwright, home, project):
    write_json(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        group("Bash|Edit", cmd("echo log")), group("Bash|Read", cmd("echo log"))]}})
    rows = hookwright("list", "--project", project, "--json").json["hooks"]
    notes = sorted(str(r["deduplicated"]) for r in rows)
    assert notes[0] == "None" and notes[1].startswith("runs once with ") and notes[1].endswith("where both match")


def test_started_in_a_subfolder_of_a_repository_the_local_settings_come_from_its_root_and_the_subfolder(
        hookwright, home, project):
    """Measured on Claude Code 2.1.328 (claude-code-observed.md j): started in a subfolder of a
    repository, it reads settings.local.json at the repository root and in the subfolder;
    project settings only from the folder it starts in."""
    (project / ".git").mkdir()
    write_json(project / ".claude" / "settings.local.json", {"hooks": {"Stop": [group(None, cmd("echo root-local"))]}})
    write_json(project / ".claude" / "settings.json", {"hooks": {"Stop": [group(None, cmd("echo root-shared"))]}})
    sub = project / "sub"
    write_json(sub / ".claude" / "settings.local.json", {"hooks": {"Stop": [group(None, cmd("echo sub-local"))]}})
    ran = [h["runs"] for h in hookwright("list", "--project", sub, "--json").json["hooks"]]
    assert ran == ["echo root-local", "echo sub-local"]


def test_the_if_rule_is_shown_and_a_redundant_copy_is_never_the_one_that_runs(hookwright, home, project):
    guard = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'
    write_json(home / ".claude" / "settings.json", {"hooks": {"PreToolUse": [group("Bash", cmd(guard))]}})
    write_json(project / ".claude" / "settings.json", {"hooks": {"PreToolUse": [group("Bash|Edit", cmd(guard))]}})
    write_json(project / ".claude" / "settings.local.json", {"hooks": {"PreToolUse": [
        group("Bash", cmd(guard, **{"if": "Bash(git *)"}))]}})
    rows = hookwright("list", "--project", project, "--json").json["hooks"]
    by_scope = {r["source"]["scope"]: r for r in rows}
    assert by_scope["local"]["if"] == "Bash(git *)" and by_scope["user"]["if"] is None
    project_file = str(project / ".claude" / "settings.json")
    assert by_scope["user"]["deduplicated"].startswith(f"runs once, as {project_file}")
    # a copy with an `if` the others lack runs on its own (measured on 2.1.328: both ran)
    assert by_scope["local"]["deduplicated"] is None
    assert by_scope["project"]["deduplicated"] is None
    assert "Bash if Bash(git *)" in hookwright("list", "--project", project).out


def _mixed(hookwright, home, project):
    """A foreign Stop hook in the user scope, a foreign PreToolUse hook and git-guard in the project."""
    write_json(home / ".claude" / "settings.json", {"hooks": {"Stop": [group(None, cmd("echo user-stop"))]}})
    write_json(project / ".claude" / "settings.json",
               {"hooks": {"PreToolUse": [group("Bash", cmd("echo project-bash"))]}})
    assert hookwright("install", "git-guard", "--project", project, "--yes").code == 0


def test_list_filters_by_scope_event_and_ours_and_the_filters_combine(hookwright, home, project):
    _mixed(hookwright, home, project)

    def listed(*filters):
        return sorted(h["runs"].split()[-1] if h["owner"] == "foreign" else h["owner"]
                      for h in rows(hookwright("list", "--project", project, "--json", *filters)))

    # (git-guard is on PreToolUse and on PreSkillShellCommand, a skill's shell lines)
    assert listed() == ["git-guard", "git-guard", "project-bash", "user-stop"]
    assert listed("--scope", "user") == ["user-stop"]
    assert listed("--event", "PreToolUse") == ["git-guard", "project-bash"]
    assert listed("--mine") == ["git-guard", "git-guard"]
    assert listed("--scope", "project", "--event", "Stop") == []


def test_an_event_no_agent_has_is_a_usage_error_that_names_the_one_meant(hookwright, home, project):
    ran = hookwright("list", "--project", project, "--event", "PreTooluse")

    assert ran.code == 2 and "did you mean PreToolUse" in ran.err


def test_a_filter_that_matches_nothing_says_so_with_the_filter(hookwright, home, project):
    _mixed(hookwright, home, project)

    ran = hookwright("list", "--project", project, "--scope", "local")

    assert ran.code == 0 and "no hooks matching --scope local" in ran.out
