"""Conditions that can never be true against what the host really sends, and answers Codex fails a
hook for: each bad case beside its corrected twin in one session on the real agent. Every hook
logs its name when its branch is taken (Claude Code) or blocks its own call (Codex); doctor flags
the bad ones where they need the change and leaves the twins alone.

Claude Code, one session (Bash `true`, Write of a relative `src/generated/a.txt`, Bash `false`):
- `tool == "bash"` never holds, `tool == "Bash"` does (script/value-never-sent);
- `case "$file" in src/generated/*)` never matches the absolute path, `*/src/generated/*` does;
- `"if": "Edit(src/**)"` in an Edit|Write group never runs on the Write; a sibling handler with
  `"if": "Write(src/**)"` does (matcher/if-narrows-matcher);
- a PostToolUse hook waiting for a failed Bash call never sees it, a PostToolUseFailure hook does
  (script/failure-in-post-tool-use, at the event the hook is registered on);
- a script reading opencode's `tool_input.filePath` reads nothing, its twin reading `file_path`
  reads the path (script/tool-field-not-sent);
- `"if": "bash(true)"` (opencode's name) and `"if": "Shell(true)"` (Cursor's) never run on the Bash
  call, `"if": "Bash(true)"` does (matcher/if-other-tool);
- a group matched on files (`src/.*|\\.txt$`) never fires, its twin matched on `Write` with
  `"if": "Write(src/**)"` does (matcher/file-pattern).
Codex, one session (three shell calls):
- a deny without permissionDecisionReason fails the hook and the call runs; with it, it is
  blocked (script/answer-incomplete);
- a hook edited after its hash was trusted is skipped (host/hook-untrusted, at the stale hash);
- a guard comparing tool_name with the model's `exec_command` never refuses: its hooks see `Bash`
  (script/tool-name-renamed); its twins compare with `Bash` and do.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from claude_cli import doctor_flags, line_of, run_claude
from codex_cli import run_codex, shell, trust_toml
from hookwright.hosts.codex import trust

pytestmark = pytest.mark.e2e

LOGGING = "import json, sys\nevent = json.load(sys.stdin)\n" \
          "def log(name):\n    open(sys.argv[1], 'a').write(name + '\\n')\n"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path




def test_conditions_claude_code_can_never_make_true_never_run_and_their_twins_do(claude_cli, home, project, tmp_path):
    log = tmp_path / "ran.log"
    hooks = project / ".claude" / "hooks"
    scripts = {name: _write(hooks / f"{name}.py", LOGGING + body) for name, body in {
        "tool_bad": 'if event.get("tool_name") == "bash":\n    log("tool_bad")\n',
        "tool_good": 'if event.get("tool_name") == "Bash":\n    log("tool_good")\n',
        "fail_bad": 'response = event.get("tool_response") or {}\nif response.get("exit_code", 0) != 0:\n'
                    '    log("fail_bad")\n',
        "fail_good": 'if event.get("error"):\n    log("fail_good")\n'}.items()}
    for name, pattern in (("path_bad", "src/generated/*"), ("path_good", "*/src/generated/*")):
        scripts[name] = _write(hooks / f"{name}.sh", f"file=$(jq -r '.tool_input.file_path // empty')\n"
                                                      f'case "$file" in\n  {pattern}) echo {name} >> {log} ;;\nesac\n')
    for name, field in (("field_bad", "filePath"), ("field_good", "file_path")):  # (opencode's name, Claude Code's)
        scripts[name] = _write(hooks / f"{name}.sh", f"file=$(jq -r '.tool_input.{field} // empty')\n"
                                                      f'[ -n "$file" ] && echo {name} >> {log}\nexit 0\n')

    def run(name: str, **fields: str) -> dict:
        program = "python3" if scripts[name].suffix == ".py" else "bash"
        return {"type": "command", "command": f"{program} {scripts[name]} {log}", **fields}

    def logger(name: str, **fields: str) -> dict:
        return {"type": "command", "command": f"echo {name} >> {log}", **fields}

    settings = _write(project / ".claude" / "settings.json", json.dumps({"hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [run("tool_bad"), run("tool_good")]},
            {"matcher": "", "hooks": [logger("name_bad", **{"if": "bash(true)"}), logger("shell_bad", **{"if": "Shell(true)"}),
                                      logger("name_good", **{"if": "Bash(true)"})]},
            {"matcher": "Write|Edit", "hooks": [run("path_bad"), run("path_good"), run("field_bad"), run("field_good")]},
            {"matcher": "src/.*|\\.txt$", "hooks": [logger("files_bad")]},
            {"matcher": "Write", "hooks": [logger("files_good", **{"if": "Write(src/**)"})]},
            {"matcher": "Edit|Write", "hooks": [logger("if_bad", **{"if": "Edit(src/**)"})]},
            {"matcher": "Edit|Write", "hooks": [logger("if_good_edit", **{"if": "Edit(src/**)"}),
                                                logger("if_good", **{"if": "Write(src/**)"})]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [run("fail_bad")]}],
        "PostToolUseFailure": [{"matcher": "Bash", "hooks": [run("fail_good")]}]}}, indent=2))

    ran = run_claude(project, home, [{"tool": "Bash", "input": {"command": "true"}},
                                     {"tool": "Write", "input": {"file_path": "src/generated/a.txt", "content": "x"}},
                                     {"tool": "Bash", "input": {"command": "false"}}], claude=claude_cli)
    assert ran.returncode == 0, ran.stderr
    assert (project / "src" / "generated" / "a.txt").exists()
    assert sorted(set(log.read_text().split())) == ["fail_good", "field_good", "files_good", "if_good", "name_good",
                                                    "path_good", "tool_good"]

    flagged = doctor_flags(home, project, {"script/value-never-sent", "matcher/if-narrows-matcher",
                                       "script/failure-in-post-tool-use", "script/tool-field-not-sent",
                                       "matcher/file-pattern", "matcher/if-other-tool"})
    assert flagged == {(str(scripts["tool_bad"]), line_of(scripts["tool_bad"], '"bash"')),
                       (str(scripts["path_bad"]), line_of(scripts["path_bad"], "src/generated/*)")),
                       (str(scripts["field_bad"]), line_of(scripts["field_bad"], "filePath")),
                       (str(settings), line_of(settings, "src/.*|")),
                       (str(settings), line_of(settings, "bash(true)")),
                       (str(settings), line_of(settings, "Shell(true)")),
                       (str(settings), line_of(settings, "\"if\": \"Edit(src/**)\"")),  # (the first: if_bad's)
                       (str(settings), line_of(settings, '"PostToolUse"'))}


CODEX_GUARD = "import json, sys\nevent = json.load(sys.stdin)\n" \
              "if event['tool_name'] == {tool!r} and {word!r} in event['tool_input'].get('command', ''):\n    {answer}\n"


def test_codex_fails_a_deny_without_its_reason_and_skips_a_hook_trusted_before_an_edit(codex_cli, home, project):
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    folder = project / ".codex"
    answers = {
        "bare": 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}))',
        "reasoned": 'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": '
                    '"deny", "permissionDecisionReason": "not here"}}))',
        "edited": 'print("not here", file=sys.stderr); sys.exit(2)',
        "renamed": 'print("not here", file=sys.stderr); sys.exit(2)'}
    scripts = {name: _write(folder / "hooks" / f"{name}.py", CODEX_GUARD.format(
        tool="exec_command" if name == "renamed" else "Bash", word=f"touch {name}", answer=answer))
        for name, answer in answers.items()}
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"python3 {scripts[name]}"} for name in answers]}]}}
    source = _write(folder / "hooks.json", json.dumps(hooks, indent=2))
    hashes = {trust.trust_key(str(source), "PreToolUse", 0, h): trust.trusted_hash("PreToolUse", group, handler)
              for group in hooks["hooks"]["PreToolUse"] for h, handler in enumerate(group["hooks"])}
    config = _write(home / ".codex" / "config.toml", trust_toml([project], hashes))
    hooks["hooks"]["PreToolUse"][0]["hooks"][2]["timeout"] = 30  # (edited after it was trusted)
    source.write_text(json.dumps(hooks, indent=2))

    ran = run_codex(project, home, [shell(f"touch {name}") for name in answers] + ["done"], codex=codex_cli)
    assert ran.returncode == 0, ran.stderr
    assert sorted(p.name for p in project.iterdir() if p.name in answers) == ["bare", "edited", "renamed"]

    flagged = doctor_flags(home, project, {"script/answer-incomplete", "host/hook-untrusted", "script/tool-name-renamed"})
    stale_key = trust.trust_key(str(source), "PreToolUse", 0, 2)
    assert flagged == {(str(scripts["bare"]), line_of(scripts["bare"], "permissionDecision")),
                       (str(config), line_of(config, stale_key) + 1),
                       (str(scripts["renamed"]), line_of(scripts["renamed"], "exec_command"))}
