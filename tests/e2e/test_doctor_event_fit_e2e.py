"""Hooks placed where their code cannot do what it means, on the real Claude Code, each beside its
twin, and what doctor says about each (docs/hosts/claude-code.md#environment, #timeouts, #matchers,
#marketplaces): one session holds the variable, budget, matcher and MCP-name cases; the
marketplace cases need a session each."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

MCP_SERVER = Path(__file__).resolve().parent / "fake_mcp_server.py"
EVENTS = ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd")
RECORD = ('echo "$(jq -r .hook_event_name) ${CLAUDE_ENV_FILE:+env-file}" >> "$CLAUDE_PROJECT_DIR"/events.log')
PIN = 'cat >/dev/null\necho "export PINNED_{tag}=yes" >> "$CLAUDE_ENV_FILE"\n'
GUARD = '''\
#!/usr/bin/env python3
"""Protect {name}: never edit it by hand."""
import json, sys
if json.load(sys.stdin).get("tool_input", {{}}).get("file_path", "").endswith("{name}"):
    print("{name} is generated", file=sys.stderr)
    sys.exit(2)
'''


def _command(script: str) -> dict:
    return {"type": "command", "command": f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/{script}'}


def _script(project: Path, name: str, text: str) -> None:
    path = project / ".claude" / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/usr/bin/env bash\n" + text if not text.startswith("#!") else text)
    path.chmod(0o755)


def _findings(home: Path, project: Path) -> list[tuple[str, int]]:
    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    return [(f["rule"], f["line"]) for f in json.loads(doctor.stdout)["findings"] if f["severity"] != "info"]


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_variables_budgets_matchers_and_mcp_names_as_claude_code_gives_them(claude_cli, home, project, tmp_path):
    for name in ("a.cfg", "b.cfg"):
        (project / name).write_text("x=1\n")
        _script(project, f"guard_{name[0]}.py", GUARD.format(name=name))
    _script(project, "pin_prompt.sh", PIN.format(tag="PROMPT"))
    _script(project, "pin_start.sh", PIN.format(tag="START"))
    _script(project, "late.sh", 'sleep 2\ntouch "$CLAUDE_PROJECT_DIR"/late.txt\n')
    _script(project, "early.sh", 'sleep 1\ntouch "$CLAUDE_PROJECT_DIR"/early.txt\n')
    hooks: dict[str, list] = {event: [{"hooks": [{"type": "command", "command": RECORD}]}] for event in EVENTS}
    hooks["UserPromptSubmit"].append({"hooks": [_command("pin_prompt.sh")]})
    hooks["SessionStart"].append({"hooks": [_command("pin_start.sh")]})
    hooks["PreToolUse"] += [{"matcher": "Write", "hooks": [_command("guard_a.py")]},
                            {"matcher": "Write|Edit", "hooks": [_command("guard_b.py")]}]
    hooks["SessionEnd"] += [{"hooks": [_command("late.sh")]}, {"hooks": [_command("early.sh")]}]
    hooks["PreToolUse"] += [{"matcher": f"mcp__{server}__.*", "hooks": [
        {"type": "command", "command": f'echo {server} >> "$CLAUDE_PROJECT_DIR"/mcp-hooks.log'}]}
        for server in ("my_docs_v2", "my-docs_v2")]
    hooks["PreToolUse"] += [{"matcher": "", "hooks": [  # an `if` naming the server in another case never runs
        {"type": "command", "command": f'echo {tag} >> "$CLAUDE_PROJECT_DIR"/mcp-if.log', "if": f"mcp__{server}__read_doc"}
        for tag, server in (("if_bad", "My-docs_v2"), ("if_good", "my-docs_v2"))]}]
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"enableAllProjectMcpServers": True, "hooks": hooks}, indent=2))
    record = tmp_path / "mcp.jsonl"
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"my-docs.v2": {
        "command": sys.executable, "args": [str(MCP_SERVER), str(record)]}}}))
    calls = [{"tool": "Read", "input": {"file_path": str(project / name)}} for name in ("a.cfg", "b.cfg")]
    calls += [{"tool": "Edit", "input": {"file_path": str(project / name), "old_string": "x=1", "new_string": "x=2"}}
              for name in ("a.cfg", "b.cfg")]
    calls += [{"tool": tool, "input": {"path": tool}} for tool in ("mcp__my-docs_v2__read_doc", "mcp__my_docs_v2__read_doc")]
    calls += [{"tool": "Bash", "input": {"command": 'echo "${PINNED_START:-no}/${PINNED_PROMPT:-no}" > pinned.txt'}},
              {"tool": "Bash", "input": {"command": "false"}}]  # (a failed call: PostToolUseFailure)

    run = run_claude(project, home, calls, claude=claude_cli, timeout=200)
    assert run.returncode == 0, run.stderr

    seen = dict(line.split(" ", 1) if " " in line else (line, "") for line in (project / "events.log").read_text().splitlines())
    assert {event for event, env in seen.items() if env == "env-file"} == {"SessionStart"}
    assert set(seen) == set(EVENTS)
    assert (project / "pinned.txt").read_text().strip() == "yes/no"  # written at SessionStart only
    assert (project / "a.cfg").read_text() == "x=2\n" and (project / "b.cfg").read_text() == "x=1\n"
    assert [json.loads(line)["arguments"]["path"] for line in record.read_text().splitlines()] == [
        "mcp__my-docs_v2__read_doc"]  # the '-' kept, the '.' made '_'
    assert (project / "early.txt").exists() and not (project / "late.txt").exists()
    assert (project / "mcp-hooks.log").read_text().split() == ["my-docs_v2"]  # the matcher spelt as the tool is
    assert (project / "mcp-if.log").read_text().split() == ["if_good"]

    found = _findings(home, project)
    assert ("matcher/guard-misses-tools", _line(settings, '"matcher": "Write"')) in found
    assert ("script/variable-not-on-event", _line(settings, '"UserPromptSubmit"')) in found
    assert ("script/outlasts-its-time", _line(settings, "late.sh")) in found
    assert ("matcher/case-mismatch", _line(settings, "mcp__my_docs_v2__")) in found
    assert ("matcher/if-other-tool", _line(settings, "mcp__My-docs_v2__read_doc")) in found
    twins = [("matcher/guard-misses-tools", _line(settings, '"matcher": "Write|Edit"')),
             ("script/outlasts-its-time", _line(settings, "early.sh")),
             ("script/variable-not-on-event", _line(settings, '"SessionStart"')),
             ("matcher/case-mismatch", _line(settings, "mcp__my-docs_v2__")),
             ("matcher/if-other-tool", _line(settings, '"if": "mcp__my-docs_v2__read_doc"'))]
    assert not set(twins) & set(found)


MARKET = {"name": "acme-tools", "owner": {"name": "acme"}, "plugins": [{"name": "secops", "source": "./secops"}]}
REFUSE = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "echo refused by secops >&2; exit 2"}]}]}}


@pytest.mark.parametrize("declared_in, loads, rule", [
    (None, False, "structure/plugin-marketplace-unknown"),
    ("user", True, "structure/plugin-marketplace-not-shared")], ids=["no file", "the user's settings only"])
def test_a_plugin_the_project_enables_loads_only_where_its_marketplace_is_known(
        claude_cli, home, project, tmp_path, declared_in, loads, rule):
    market = tmp_path / "market"
    (market / ".claude-plugin").mkdir(parents=True)
    (market / ".claude-plugin" / "marketplace.json").write_text(json.dumps(MARKET))
    plugin = market / "secops"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "secops", "version": "1.0.0"}))
    (plugin / "hooks").mkdir()
    (plugin / "hooks" / "hooks.json").write_text(json.dumps(REFUSE))
    if declared_in == "user":
        (home / ".claude").mkdir(exist_ok=True)
        (home / ".claude" / "settings.json").write_text(json.dumps(
            {"extraKnownMarketplaces": {"acme-tools": {"source": {"source": "directory", "path": str(market)}}}}))
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"enabledPlugins": {"secops@acme-tools": True}}, indent=2))

    run = run_claude(project, home, [{"tool": "Bash", "input": {"command": "touch ran.txt"}}], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    init = next(e for e in run.events if e.get("subtype") == "init")
    assert ("secops@acme-tools" in [p.get("source") for p in init.get("plugins", [])]) == loads
    assert (project / "ran.txt").exists() != loads

    assert (rule, _line(settings, "secops@acme-tools")) in _findings(home, project)
