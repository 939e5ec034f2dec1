"""Conditions that can never be true against what the host really sends (tool names, absolute
paths, an `if` that names one tool of its group's matcher, PostToolUse for a failure), and
answers Codex fails a hook for: each bad case found at the line to change, its corrected twin clean."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from doctor_support import found, settings, write
from hookwright.doctor.run import run


def _line(path, text):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def _hooked(project, script_name, script, **group):
    write(project, {f".claude/hooks/{script_name}": script,
                    ".claude/settings.json": settings(command=f'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/{script_name}'
                                                      if script_name.endswith(".py") else
                                                      f'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/{script_name}', **group)})
    return project / ".claude" / "hooks" / script_name


PY_TOOL = 'import json, sys\nevent = json.load(sys.stdin)\ntool = event.get("tool_name", "")\nif tool == {name!r}:\n    sys.exit(2)\n'


@pytest.mark.parametrize("name, flagged", [("bash", True), ("Shell", True), ("Bash", False), ("mcp__db__query", False)])
def test_a_tool_name_claude_code_never_sends_makes_the_branch_never_true(project, name, flagged):
    script = _hooked(project, "guard.py", PY_TOOL.format(name=name))
    hits = found(run(None, project=project), "script/value-never-sent")
    assert [(h.path, h.line) for h in hits] == ([(str(script), _line(script, "if tool =="))] if flagged else [])


def test_a_script_that_also_compares_with_claude_codes_name_is_not_flagged(project):
    script = 'const e = JSON.parse(require("fs").readFileSync(0, "utf8"));\nconst { tool_name } = e;\n' \
             'if (tool_name === "Shell" || tool_name === "Bash") process.exit(2);\n'
    _hooked(project, "guard.js", script)
    write(project, {".claude/settings.json": settings(command='node "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.js')})
    assert not found(run(None, project=project), "script/value-never-sent")


SH_PATH = 'file=$(jq -r \'.tool_input.file_path // empty\')\ncase "$file" in\n  {pattern})\n    echo no >&2\n    exit 2\n    ;;\nesac\n'


@pytest.mark.parametrize("pattern, flagged", [("src/generated/*", 1), ("*/src/generated/*", 0), (".env", 1),
                                              (".env|secrets.json", 2), ("*.env|.env", 0), ("*/.env", 0),
                                              ("*.pem", 0)])
def test_a_relative_path_pattern_never_matches_the_absolute_file_path(project, pattern, flagged):
    """One finding for each pattern that can never match (a bare name only where no pattern beside it can)."""
    script = _hooked(project, "guard.sh", SH_PATH.format(pattern=pattern), matcher="Write|Edit")
    hits = found(run(None, project=project), "script/value-never-sent")
    assert [(h.path, h.line) for h in hits] == [(str(script), 3)] * flagged


def test_a_script_that_makes_the_path_relative_first_is_not_judged(project):
    script = 'file=$(jq -r .tool_input.file_path)\nfile=${file#"$CLAUDE_PROJECT_DIR"/}\ncase "$file" in src/*) exit 2 ;; esac\n'
    _hooked(project, "guard.sh", script, matcher="Write")
    assert not found(run(None, project=project), "script/value-never-sent")


def _if_group(project, *handlers):
    write(project, {".claude/settings.json": {"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [
        {"type": "command", "command": "echo no >&2; exit 2", **h} for h in handlers]}]}}})
    return project / ".claude" / "settings.json"


def test_an_if_for_edit_on_an_edit_and_write_group_never_runs_for_write(project):
    path = _if_group(project, {"if": "Edit(config/*.yaml)"})
    (hit,) = found(run(None, project=project), "matcher/if-narrows-matcher")
    assert (hit.line, hit.severity) == (_line(path, '"if"'), "warning") and "Write" in hit.message


def test_a_sibling_handler_with_an_if_for_write_covers_the_group(project):
    _if_group(project, {"if": "Edit(config/*.yaml)"}, {"if": "Write(config/*.yaml)"})
    assert not found(run(None, project=project), "matcher/if-narrows-matcher")


FAILURE = 'import json, sys\nevent = json.load(sys.stdin)\nresponse = event.get("tool_response") or {}\n' \
          'if response.get("exit_code", 0) != 0:\n    print("failed")\n'


def test_a_post_tool_use_hook_that_waits_for_a_failure_is_reported_at_its_event(project):
    _hooked(project, "coach.py", FAILURE)
    write(project, {".claude/settings.json": settings(event="PostToolUse", command='python3 .claude/hooks/coach.py')})
    (hit,) = found(run(None, project=project), "script/failure-in-post-tool-use")
    path = project / ".claude" / "settings.json"
    assert (hit.path, hit.line) == (str(path), _line(path, '"PostToolUse"'))
    assert hit.related[0]["path"] == str(project / ".claude" / "hooks" / "coach.py")


CODEX_DENY = 'process.stdout.write(JSON.stringify({hookSpecificOutput: {hookEventName: "PreToolUse", ' \
             'permissionDecision: "deny"REASON}}));\n'


@pytest.mark.parametrize("reason, flagged", [("", True), (', permissionDecisionReason: "sealed"', False)])
def test_a_codex_deny_without_its_reason_fails_the_hook(home, project, monkeypatch, reason, flagged):
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    write(project, {".git/HEAD": "ref: refs/heads/main\n", ".codex/hooks/guard.js": CODEX_DENY.replace("REASON", reason),
                    ".codex/hooks.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                        {"type": "command", "command": "node .codex/hooks/guard.js"}]}]}}})
    hits = found(run(None, project=project), "script/answer-incomplete")
    assert [(h.path, h.line) for h in hits] == ([(str(project / ".codex" / "hooks" / "guard.js"), 1)] if flagged else [])


@pytest.mark.parametrize("top", ["$(git rev-parse --show-toplevel)", "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"])
def test_a_codex_hook_named_from_the_top_of_the_work_tree_is_read(home, project, monkeypatch, top):
    """Codex has no project variable: a project's hook names its script from the work tree's top,
    which doctor knows ahead, so the script's answer is checked as any other's."""
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    write(project, {".git/HEAD": "ref: refs/heads/main\n", ".codex/hooks/guard.js": CODEX_DENY.replace("REASON", ""),
                    ".codex/hooks.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                        {"type": "command", "command": f'node "{top}/.codex/hooks/guard.js"'}]}]}}})
    hits = found(run(None, project=project), "script/answer-incomplete")
    assert [(h.path, h.line) for h in hits] == [(str(project / ".codex" / "hooks" / "guard.js"), 1)]


def test_a_stale_codex_trust_is_reported_at_its_hash(home, project, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    write(project, {".git/HEAD": "ref: refs/heads/main\n", ".codex/hooks.json": {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo hi"}]}]}}})
    key = f"{project / '.codex' / 'hooks.json'}:pre_tool_use:0:0"
    config = write(home, {".codex/config.toml": f'[projects."{project}"]\ntrust_level = "trusted"\n\n'
                                                f'[hooks.state."{key}"]\ntrusted_hash = "sha256:{"0" * 64}"\n'})[0]
    # (edited since it was trusted: the interactive codex asks "Hooks need review", codex exec skips it)
    (hit,) = found(run(None, project=project), "host/hook-not-yet-trusted")
    assert (hit.path, hit.line) == (str(config), 5) and hit.related[0]["path"].endswith("hooks.json")


CODEX_TOOL = 'import json, sys\nevent = json.load(sys.stdin)\nif event.get("tool_name") == {name!r}:\n    sys.exit(2)\n'


@pytest.mark.parametrize("name, flagged", [("exec_command", True), ("bash", True), ("Bash", False)])
def test_a_codex_hook_comparing_with_the_models_tool_name_never_sees_it(home, project, monkeypatch, name, flagged):
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    write(project, {".git/HEAD": "ref: refs/heads/main\n", ".codex/hooks/guard.py": CODEX_TOOL.format(name=name),
                    ".codex/hooks.json": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                        {"type": "command", "command": "python3 .codex/hooks/guard.py"}]}]}}})
    hits = found(run(None, project=project), "script/tool-name-renamed")
    assert [(h.line, "Bash" in h.message) for h in hits] == ([(3, True)] if flagged else [])


def test_a_name_made_from_the_tool_name_is_not_judged_as_the_tool_name(project):
    script = 'import json, sys\nevent = json.load(sys.stdin)\ntool = event["tool_name"].rsplit("__", 1)[-1]\n' \
             'if tool == "delete_issue":\n    sys.exit(2)\n'
    _hooked(project, "guard.py", script, matcher="mcp__tracker__.*")
    assert not found(run(None, project=project), "script/value-never-sent")


# ---- a field of tool_input read by another agent's name (opencode's filePath in a Claude Code hook) -----

JQ_GUARD = '#!/bin/bash\nf=$(jq -r \'{read}\')\ncase "$f" in *.env) echo "blocked: .env is secret" >&2; exit 2;; esac\nexit 0\n'
PY_GUARD = ('import json, sys\ndata = json.load(sys.stdin)\nti = data.get("tool_input", {{}})\npath = {read}\n'
            'if path.endswith(".env"):\n    print("blocked: .env is secret", file=sys.stderr)\n    sys.exit(2)\n')
JS_GUARD = ('const input = JSON.parse(require("fs").readFileSync(0, "utf8"));\nconst {{ {read} }} = input.tool_input;\n'
            'if (String({name}).endsWith(".env")) {{ console.error("blocked"); process.exit(2); }}\n')


@pytest.mark.parametrize("name, script, bad, twins", [
    ("guard.sh", JQ_GUARD, ".tool_input.filePath // empty",
     [".tool_input.file_path // empty", ".tool_input.file_path // .tool_input.filePath // empty"]),
    ("guard.py", PY_GUARD, 'ti.get("filePath", "")', ['ti.get("file_path", "")', 'ti.get("filePath") or ti.get("file_path", "")']),
    ("guard.js", JS_GUARD, "filePath", ["file_path"]),
])
def test_a_claude_code_guard_reading_opencodes_argument_name_is_found_and_its_twins_are_clean(
        tmp_path, name, script, bad, twins):
    def guard(folder, read, matcher="Write|Edit"):
        project = tmp_path / folder
        path = _hooked(project, name, script.format(read=read, name=read.split(":")[0]), matcher=matcher)
        if name.endswith(".js"):
            write(project, {".claude/settings.json": settings(matcher=matcher,
                                                              command=f'node "$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}')})
        return path, found(run(None, project=project), "script/tool-field-not-sent")

    path, [hit] = guard("bad", bad)
    assert (hit.path, hit.line, hit.severity) == (str(path), 2 if name != "guard.py" else 4, "error")
    assert "opencode's name" in hit.message and "tool_input.file_path" in hit.message and "Edit, Write" in hit.message
    for index, twin in enumerate(twins):
        assert guard(f"twin{index}", twin)[1] == []
    assert guard("every-tool", bad, matcher="")[1] != []  # (no tool of Claude Code's sends filePath)


def test_a_field_only_another_agent_sends_is_found_on_the_tools_that_never_carry_it(project):
    script = _hooked(project, "guard.sh", '#!/bin/bash\nd=$(jq -r .tool_input.workdir)\n'
                                          '[ "$d" = / ] && { echo "blocked" >&2; exit 2; }\nexit 0\n', matcher="Bash")
    [hit] = found(run(None, project=project), "script/tool-field-not-sent")
    assert (hit.path, hit.line) == (str(script), 2) and "(Bash) give them tool_input.command," in hit.message
    assert hit.hint.startswith("read tool_input.command,")
    script.write_text('#!/bin/bash\nin=$(cat)\nc=$(jq -r .tool_input.command <<< "$in")\n'
                      'd=$(jq -r .tool_input.workdir <<< "$in")\n[ "$d" = / ] && { echo "blocked" >&2; exit 2; }\nexit 0\n')
    [hit] = found(run(None, project=project), "script/tool-field-not-sent")
    assert hit.line == 4 and "a field opencode's tools send" in hit.message


def test_an_unknown_field_on_a_matcher_of_every_tool_and_what_the_tool_returns_are_not_judged(project):
    """An MCP tool may take a `workdir`; Write's tool_response has a filePath (its output schema)."""
    _hooked(project, "note.sh", '#!/bin/bash\nin=$(cat)\nd=$(jq -r .tool_input.workdir <<< "$in")\n'
                                'f=$(jq -r .tool_response.filePath <<< "$in")\necho "$d $f" >> log.txt\n', matcher="")
    write(project, {".claude/settings.json": {"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [
        {"type": "command", "command": 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/note.sh'}]}], "PreToolUse": [
        {"matcher": "", "hooks": [{"type": "command", "command": 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/note.sh'}]}]}}})
    assert found(run(None, project=project), "script/tool-field-not-sent") == []


def test_a_script_that_tells_the_agents_apart_may_read_each_ones_name(project):
    _hooked(project, "guard.sh", '#!/bin/bash\nif [ -n "$CURSOR_VERSION" ]; then exit 0; fi\n'
                                 'f=$(jq -r .tool_input.filePath)\n[ "$f" = .env ] && exit 2\nexit 0\n', matcher="Write")
    assert found(run(None, project=project), "script/tool-field-not-sent") == []


def test_a_matcher_that_fires_only_for_tools_whose_calls_never_carry_the_field_read_is_found(tmp_path):
    """`"matcher": "Bash"` on a guard of file paths: a Bash call has no file_path, so the test on it never holds."""
    def guard(folder, matcher):
        project = tmp_path / folder
        path = _hooked(project, "guard.py", PY_GUARD.format(read='ti.get("file_path", "")'), matcher=matcher)
        return path, found(run(None, project=project), "script/tool-field-not-sent")

    path, [hit] = guard("bad", "Bash")
    assert (hit.path, hit.line) == (str(path), 4) and "(Bash) give them tool_input.command," in hit.message
    assert guard("twin", "Write|Edit")[1] == []


def test_a_command_written_in_the_settings_that_reads_opencodes_name_is_found_at_the_command(tmp_path):
    command = "jq -r '.tool_input.{field} // empty' | grep -q '\\.env$' && {{ echo blocked >&2; exit 2; }} || exit 0"

    def inline(folder, field):
        project = tmp_path / folder
        write(project, {".claude/settings.json": settings(matcher="Write|Edit", command=command.format(field=field))})
        return found(run(None, project=project), "script/tool-field-not-sent")

    [hit] = inline("bad", "filePath")
    assert hit.path.endswith("settings.json") and "opencode's name" in hit.message
    assert inline("twin", "file_path") == []


PATCH_GUARD = """\
import json, re, sys
payload = json.load(sys.stdin)
tool_input = payload.get("tool_input", {})
patch = tool_input.get("command", "") or ""
paths = re.findall(r"^\\*\\*\\* (?:Add|Update|Delete) File: (.+)$", patch, re.M)
other = tool_input.get("file_path")
if other:
    FALLBACK
for path in paths:
    if path.strip().endswith(".env"):
        print(f"{path} is secret", file=sys.stderr)
        sys.exit(2)
"""
PATCH = "*** Begin Patch\n*** Add File: .env\n+A=1\n*** End Patch\n"


@pytest.mark.parametrize("fallback, flagged", [
    ("paths.append(other)", False),  # the fallback joins the patch's paths on their way to the test
    ("sys.exit(2 if other.endswith('.env') else 0)", True),  # a test of its own: judged as before
    ("paths = [other]", False),
])
def test_a_field_codex_never_sends_is_no_fault_where_its_value_joins_the_one_codex_sends_on_the_way_to_the_test(
        home, project, monkeypatch, fallback, flagged):
    """Codex sends an edit as apply_patch with tool_input.command only; a guard that reads the
    paths from the patch and falls back to file_path for other agents still refuses (run below
    on Codex's payload). The fallback is another agent's, not the guard's only source (found by review)."""
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    text = PATCH_GUARD.replace("FALLBACK", fallback)
    write(project, {".git/HEAD": "ref: refs/heads/main\n", ".codex/hooks/guard.py": text,
                    ".codex/hooks.json": {"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
                        {"type": "command", "command": "python3 .codex/hooks/guard.py"}]}]}}})
    ran = subprocess.run([sys.executable, str(project / ".codex/hooks/guard.py")], capture_output=True, text=True,
                         input=json.dumps({"tool_name": "apply_patch", "tool_input": {"command": PATCH}}))
    assert ran.returncode == 2, ran.stderr
    assert [h.line for h in found(run(None, project=project), "script/tool-field-not-sent")] == ([6] if flagged else [])


# reads of fields the calls carry, written beside text the field reader must not join to them: a
# guard of the edit tools that tests tool_input before it reads it (JavaScript's `&&`), and a Codex
# audit logger whose jq filter ends before its output is appended to a log under .codex
SENT_READS = {
    "claude": (".claude/hooks/guard.js", "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
               "const file = (input.tool_input && input.tool_input.file_path) || '';\n"
               "if (file.endsWith('.env')) process.exit(2);\n",
               {".claude/settings.json": settings(matcher="Write|Edit",
                                                  command='node "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.js')}),
    "codex": (".codex/hooks/audit.sh", "mkdir -p .codex/logs\n"
              "jq -c '{tool: .tool_name, input: .tool_input}' >> .codex/logs/audit.jsonl\nexit 0\n",
              {".codex/hooks.json": {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
                  {"type": "command", "command": "bash .codex/hooks/audit.sh"}]}]}}}),
}


@pytest.mark.parametrize("host", list(SENT_READS))
def test_a_read_of_tool_input_beside_other_text_reads_no_field_the_call_never_carries(home, project, monkeypatch, host):
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    name, text, config = SENT_READS[host]
    write(project, {".git/HEAD": "ref: refs/heads/main\n", name: text, **config})
    assert found(run(None, project=project), "script/tool-field-not-sent") == []


def test_a_field_codex_never_sends_is_found_where_the_field_it_sends_never_reaches_the_test(home, project, monkeypatch):
    monkeypatch.setenv("CODEX_HOME", str(home / ".codex"))
    text = ("import json, sys\ntool_input = json.load(sys.stdin).get('tool_input', {})\n"
            "patch = tool_input.get('command', '')\nprint(len(patch), file=sys.stderr)\n"
            "target = tool_input.get('file_path', '')\nif target.endswith('.env'):\n    sys.exit(2)\n")
    write(project, {".git/HEAD": "ref: refs/heads/main\n", ".codex/hooks/guard.py": text,
                    ".codex/hooks.json": {"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
                        {"type": "command", "command": "python3 .codex/hooks/guard.py"}]}]}}})
    ran = subprocess.run([sys.executable, str(project / ".codex/hooks/guard.py")], capture_output=True, text=True,
                         input=json.dumps({"tool_name": "apply_patch", "tool_input": {"command": PATCH}}))
    assert ran.returncode == 0  # the .env patch goes through
    assert [h.line for h in found(run(None, project=project), "script/tool-field-not-sent")] == [5]


# a guard of files that reads `path`, a field no file tool sends (Write and Edit send file_path),
# in each language and way of reading; the line is the read's
PATH_READS = {
    "guard.sh": "input=$(cat)\npath=$(jq -r '.tool_input.path // empty' <<<\"$input\")\n"
                "case \"$path\" in *.env) exit 2 ;; esac\n",
    "guard.py": "import json, sys\nevent = json.load(sys.stdin)\npath = event.get(\"tool_input\", {}).get(\"path\", \"\")\n"
                "if path.endswith('.env'):\n    sys.exit(2)\n",
    "guard.js": "const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n"
                "const path = input.tool_input?.path ?? '';\nif (path.endsWith('.env')) process.exit(2);\n",
    "guard.mjs": "import { readFileSync } from 'node:fs';\nconst { tool_input: { path = '' } } = JSON.parse(readFileSync(0, 'utf8'));\n"
                 "if (path.endsWith('.env')) process.exit(2);\n",
}


def _file_guard(project, name, text, matcher):
    program = {".sh": "bash", ".py": "python3", ".js": "node", ".mjs": "node"}[name[name.rindex("."):]]
    write(project, {f".claude/hooks/{name}": text, ".claude/settings.json": settings(
        matcher=matcher, command=f'{program} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}')})
    return project / ".claude" / "hooks" / name


@pytest.mark.parametrize("name", sorted(PATH_READS))
@pytest.mark.parametrize("matcher", ["Write|Edit|MultiEdit", "Edit|Write", "Write"])
def test_a_file_guard_reading_a_field_write_and_edit_never_send_is_an_error_at_the_read(project, name, matcher):
    script = _file_guard(project, name, PATH_READS[name], matcher)
    (hit,) = found(run(None, project=project), "script/tool-field-not-sent")
    assert (hit.path, hit.line, hit.severity) == (str(script), 2 if name != "guard.py" else 3, "error")
    assert "tool_input.path" in hit.message and "file_path" in hit.hint


@pytest.mark.parametrize("name, text, matcher", [
    ("guard.sh", PATH_READS["guard.sh"].replace(".tool_input.path", ".tool_input.file_path"), "Write|Edit|MultiEdit"),
    ("guard.sh", PATH_READS["guard.sh"].replace(".tool_input.path //", ".tool_input.path // .tool_input.file_path //"),
     "Write|Edit"),  # (a fallback beside the field sent)
    ("guard.py", PATH_READS["guard.py"].replace('get("path", "")', 'get("file_path", "")'), "Write|Edit"),
    ("guard.mjs", PATH_READS["guard.mjs"].replace("{ path = '' }", "{ file_path: path = '' }"), "Write|Edit"),
    ("guard.sh", PATH_READS["guard.sh"], "Glob|Grep"),  # (Glob and Grep send path)
    ("guard.sh", PATH_READS["guard.sh"], "MultiEdit"),  # (a matcher naming only a tool not offered: not judged here)
])
def test_a_guard_reading_a_field_its_tools_send_is_clean(project, name, text, matcher):
    _file_guard(project, name, text, matcher)
    assert not found(run(None, project=project), "script/tool-field-not-sent")


def test_a_grep_guard_reading_file_path_reads_nothing(project):
    text = "p=$(jq -r '.tool_input.file_path // empty')\n[ \"$p\" = secrets ] && exit 2\nexit 0\n"
    script = _file_guard(project, "guard.sh", text, "Grep")
    (hit,) = found(run(None, project=project), "script/tool-field-not-sent")
    assert (hit.path, hit.line) == (str(script), 1) and "path" in hit.hint


@pytest.mark.parametrize("reads", [".tool_input.file_path // .tool_input.path", ".tool_input.path // .tool_input.file_path"])
def test_a_fallback_read_in_one_jq_expression_of_a_command_is_clean(project, reads):
    command = f"bash -c 'FILE=$(cat | jq -r \"{reads} // empty\"); case \"$FILE\" in *.env) exit 2 ;; esac; exit 0'"
    write(project, {".claude/settings.json": settings(matcher="Write|Edit|MultiEdit", command=command)})
    assert not found(run(None, project=project), "script/tool-field-not-sent")
    bare = command.replace(reads, ".tool_input.path")
    write(project, {".claude/settings.json": settings(matcher="Write|Edit|MultiEdit", command=bare)})
    assert found(run(None, project=project), "script/tool-field-not-sent")  # (the twin without the fallback)


COMPACT = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                      "tool_input": {"command": "git push --force"}}, separators=(",", ":"))  # as Claude Code writes it
SPACED = {  # name: (the guard, whether it looks for a spaced text in the raw input)
    "grep on stdin": ("s.sh", "#!/bin/bash\nif grep -q '\"command\": \"git push'; then\n  echo no >&2\n  exit 2\nfi\n", True),
    "a case arm on $(cat)": ("s.sh", "#!/bin/bash\ninput=$(cat)\ncase \"$input\" in\n"
                             "  *'\"command\": \"git push'*) echo no >&2; exit 2 ;;\nesac\n", True),
    "[[ == ]] on $(cat)": ("s.sh", "#!/bin/bash\nraw=$(cat)\nif [[ $raw == *'\"tool_name\": \"Bash\"'* ]]; then\n"
                           "  echo no >&2; exit 2\nfi\n", True),
    "Python's in on sys.stdin.read()": ("s.py", "import sys\nraw = sys.stdin.read()\n"
                                        "if '\"command\": \"git push' in raw:\n    sys.exit(2)\n", True),
    "a regex in Node on the chunks read": (
        "s.js", "let raw = '';\nprocess.stdin.on('data', (chunk) => (raw += chunk));\nprocess.stdin.on('end', () => {\n"
                "  if (/\"command\": \"git push/.test(raw)) process.exit(2);\n});\n", True),
    # the near-misses: a pattern that takes any spacing, the compact text, a re-serialized input, a parsed value
    "grep -E with ' *'": ("s.sh", "#!/bin/bash\nif grep -Eq '\"command\" *: *\"git push'; then\n  exit 2\nfi\n", False),
    "grep with [[:space:]]*": ("s.sh", "#!/bin/bash\nif grep -Eq '\"command\":[[:space:]]*\"git push'; then\n"
                                "  exit 2\nfi\n", False),
    "the compact text": ("s.sh", "#!/bin/bash\nif grep -q '\"command\":\"git push'; then\n  exit 2\nfi\n", False),
    "json.dumps of the parsed input": ("s.py", "import json, sys\ntext = json.dumps(json.load(sys.stdin))\n"
                                       "if '\"command\": \"git push' in text:\n    sys.exit(2)\n", False),
    "jq . pretty-prints before grep": ("s.sh", "#!/bin/bash\nif jq . | grep -q '\"command\": \"git push'; then\n"
                                       "  exit 2\nfi\n", False),
    "Python's re with \\s*": ("s.py", "import re, sys\nraw = sys.stdin.read()\n"
                              "if re.search(r'\"command\":\\s*\"git push', raw):\n    sys.exit(2)\n", False),
    "an answer printed with spaces": ("s.sh", "#!/bin/bash\ncat >/dev/null\necho '{\"decision\": \"block\", "
                                      "\"reason\": \"no\"}'\n", False),
}
RUN = {".sh": ["bash"], ".py": [sys.executable], ".js": ["node"]}


@pytest.mark.parametrize("name", list(SPACED))
def test_a_text_match_on_the_raw_input_that_expects_a_space_after_the_colon_never_holds(project, name):
    file, text, spaced = SPACED[name]
    script = _hooked(project, file, text)
    if "exit 2" in text or "sys.exit(2)" in text:  # what the guard does on the input Claude Code sends
        ran = subprocess.run([*RUN[script.suffix], str(script)], input=COMPACT, text=True, capture_output=True)
        assert (ran.returncode == 2) != spaced
    flagged = found(run(None, project=project), "script/input-text-spaced")
    assert [f.line for f in flagged] == ([_line(script, '": ')] if spaced else [])


PY_PATH = 'import json, sys\nevent = json.load(sys.stdin)\npath = event["tool_input"].get("file_path", "")\n{test}\n    sys.exit(2)\n'


@pytest.mark.parametrize("test, flagged", [('if path in (".env", "secrets.json"):', 2),
                                           ('if path.startswith(".env"):', 1),
                                           ('if path == "config/prod.yaml":', 1),
                                           ('if path.endswith("/.env"):', 0),
                                           ('if path.startswith("/etc/"):', 0),
                                           ('if os.path.basename(path) in (".env", "secrets.json"):', 0)])
def test_a_python_guard_comparing_the_absolute_file_path_with_bare_names_never_refuses(project, test, flagged):
    """Claude Code sends file_path absolute (a relative one reaches the hooks made absolute, measured):
    a bare name (".env") equals no such path, and none starts with it."""
    script = _hooked(project, "guard.py", PY_PATH.format(test=test), matcher="Write|Edit")
    hits = found(run(None, project=project), "script/value-never-sent")
    assert [(h.path, h.line) for h in hits] == [(str(script), 4)] * flagged

