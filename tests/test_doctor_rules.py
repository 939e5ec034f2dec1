"""Every structure, matcher and host rule: a config that makes it fire, and the same config fixed,
on which it stays quiet. One table; a test makes sure no rule of those kinds is missing from it."""
from __future__ import annotations

import json
import re

import pytest
from doctor_support import ECHO, doctor, found, rule_ids, settings
from hookwright.doctor.model import catalog
from hookwright.hosts import versions
from hookwright.hosts.opencode.adapter import render_plugin

S = ".claude/settings.json"
CURSOR = ".cursor/hooks.json"
GROUP = {"matcher": "Bash", "hooks": [ECHO]}
MCP_LINEAR = {"mcpServers": {"linear": {"command": "npx", "args": ["linear-mcp"]}}}
OC = ".opencode/plugins/"
PLUGIN = ('export const P = async () => ({"tool.execute.before": async (input, output) => {\n'
          '  if (input.tool === "bash") output.args.command = "x"\n}})\n')
AFTER = 'export const P = async () => ({"tool.execute.after": async (input, output) => {\n  if (input.tool === "bash") BODY\n}})\n'
OURS = render_plugin({"format": 1, "pack": "git-guard", "hooks": [
    {"script": "../hookwright/git-guard/git-guard", "args": ["--host", "opencode"], "tools": "bash", "timeout": 10}]}
).decode()


def case(rule, bad, good, given=True, config=None, note=""):
    """bad/good: {relative path: content}; config: files under CLAUDE_CONFIG_DIR (project mode)."""
    return pytest.param(rule, bad, good, given, config or {}, id=f"{rule}{'-' + note if note else ''}")


CODEX = ".codex/hooks.json"

CASES = [
    # ---- structure ---------------------------------------------------------------------------
    case("structure/invalid-json", {S: '{\n  "hooks": {} // no comments in JSON\n}\n'}, {S: '{\n  "hooks": {}\n}\n'}),
    case("structure/invalid-json", {S: '{"hooks": {},}'}, {S: '{"hooks": {}}'}, note="trailing-comma"),
    case("structure/duplicate-key", {S: '{"hooks": {}, "hooks": {}}'}, {S: '{"hooks": {}}'}),
    case("structure/unreadable", {S: None}, {S: {}}, given=False),
    case("structure/not-object", {S: []}, {S: {}}),
    case("structure/hooks-not-object", {S: {"hooks": [{"event": "Stop"}]}}, {S: {"hooks": {}}}),
    case("structure/top-level-event", {S: {"PreToolUse": [GROUP]}}, {S: {"hooks": {"PreToolUse": [GROUP]}}}),
    case("structure/top-level-event", {"hooks/hooks.json": {"session-start": {"command": "x"}}},
         {"hooks/hooks.json": {"hooks": {"SessionStart": [{"hooks": [ECHO]}]}}}, note="plugin-kebab"),
    case("structure/unknown-event", {S: {"hooks": {"PreToolUsed": [GROUP]}}}, {S: {"hooks": {"PreToolUse": [GROUP]}}}),
    case("structure/unknown-event", {S: {"hooks": {"PreModelSwap": [GROUP]}}},
         {S: {"hooks": {"PreModelSwitch": [{"hooks": [ECHO]}]}}}, note="newest-event-known"),
    case("structure/event-never-runs", {S: {"hooks": {"preToolUse": [GROUP]}}}, {S: {"hooks": {"PreToolUse": [GROUP]}}}),
    case("structure/hooks-key-misspelt", {S: {"Hooks": {"PreToolUse": [GROUP]}}}, {S: {"hooks": {"PreToolUse": [GROUP]}}}),
    case("structure/hooks-key-misspelt", {S: {"hook": {"Stop": [{"hooks": [ECHO]}]}}},
         {S: {"hook": "a note", "hooks": {"Stop": [{"hooks": [ECHO]}]}}}, note="stop-only"),
    case("structure/event-never-runs", {S: {"hooks": {"BeforeTool": [GROUP]}}},
         {S: {"hooks": {"PreToolUse": [GROUP]}}}, note="other-agent"),
    case("structure/event-not-list", {S: {"hooks": {"Stop": {"hooks": [ECHO]}}}},
         {S: {"hooks": {"Stop": [{"hooks": [ECHO]}]}}}),
    case("structure/group-not-object", {S: {"hooks": {"Stop": ["echo hi"]}}},
         {S: {"hooks": {"Stop": [{"hooks": [ECHO]}]}}}),
    case("structure/group-hooks-missing", {S: {"hooks": {"PreToolUse": [{"matcher": "Bash", **ECHO}]}}},
         {S: {"hooks": {"PreToolUse": [GROUP]}}}),
    case("structure/group-hooks-not-list", {S: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": ECHO}]}}},
         {S: {"hooks": {"PreToolUse": [GROUP]}}}),
    case("structure/group-misplaced-key", {S: settings(group={"if": "Bash(git *)"})},
         {S: settings(**{"if": "Bash(git *)"})}),
    case("structure/group-misplaced-key", {S: settings(group={"matchers": "Bash"})}, {S: settings()}, note="typo"),
    case("structure/group-misplaced-key", {S: settings(group={"continueOnBlock": True})}, {S: settings()},
         note="a-prompt-field-beside-command-handlers"),
    case("structure/group-unknown-key", {S: settings(group={"priority": 3})}, {S: settings()}),
    case("structure/group-note-key", {S: settings(group={"description": "guard"})}, {S: settings()}),
    case("structure/hooks-note-key", {S: {"hooks": {"$comment": "guards", **settings()["hooks"]}}}, {S: settings()}),
    case("structure/hooks-note-key", {S: {"hooks": {"_comment": ["one", "two"], **settings()["hooks"]}}},
         {S: settings()}, note="a-list-of-lines"),
    case("structure/handler-string", {S: {"hooks": {"Stop": [{"hooks": ["echo hi"]}]}}},
         {S: {"hooks": {"Stop": [{"hooks": [ECHO]}]}}}),
    case("structure/handler-not-object", {S: {"hooks": {"Stop": [{"hooks": [42]}]}}},
         {S: {"hooks": {"Stop": [{"hooks": [ECHO]}]}}}),
    case("structure/type-missing", {S: settings(type=None)}, {S: settings()}),
    case("structure/type-unknown", {S: settings(type="shell")}, {S: settings(type="command")}),
    case("structure/field-missing", {S: settings(command=None, cmd="echo hi")}, {S: settings()}),
    case("structure/field-missing", {S: settings(type="mcp_tool", command=None, tool="lint")},
         {S: settings(type="mcp_tool", command=None, server="linter", tool="lint")}, note="mcp-server"),
    case("structure/field-type", {S: settings(**{"async": "true"})}, {S: settings(**{"async": True})}),
    case("structure/field-type", {S: settings(args="--fast")}, {S: settings(args=["--fast"])}, note="args"),
    case("structure/handler-misplaced-key", {S: settings(timeOut=5)}, {S: settings(timeout=5)}),
    case("structure/handler-misplaced-key", {S: settings(type="agent", command=None, prompt="p", continueOnBlock=True)},
         {S: settings(type="prompt", command=None, prompt="p", continueOnBlock=True)}, note="other-type"),
    case("structure/handler-unknown-key", {S: settings(retries=3)}, {S: settings(onFailure="block")}),
    case("matcher/tool-glob", {S: settings(matcher="mcp__*__delete*")}, {S: settings(matcher="mcp__.*__delete.*")}),
    case("matcher/event-tool-never-sent", {S: settings("PreSkillShellCommand", matcher="release")},
         {S: settings("PreSkillShellCommand", matcher="Bash")}),
    case("matcher/if-exact-command", {S: settings(**{"if": "Bash(npm publish)"})},
         {S: settings(**{"if": "Bash(npm publish *)"})}),
    case("matcher/never-asked", {S: {"permissions": {"allow": ["Bash"]}, **settings("PermissionRequest")}},
         {S: {"permissions": {"allow": ["Bash(git status:*)"]}, **settings("PermissionRequest")}}),
    case("structure/guard-handler-breaks-file", {S: settings(timeout="30")}, {S: settings(timeout=30)}),
    case("structure/guard-handler-breaks-file", {S: settings(onFailure=True)}, {S: settings(onFailure="continue")},
         note="on-failure"),
    case("structure/guard-handler-breaks-file", {S: {"hooks": {"PreToolUse": [{"matcher": 5, "hooks": [ECHO]}]}}},
         {S: {"hooks": {"PreToolUse": [GROUP], "PostToolUse": [{"matcher": 5, "hooks": [ECHO]}]}}},
         note="a-group-and-only-on-a-guard-event"),
    case("structure/on-failure-ignored", {S: settings(onFailure="block", **{"async": True})},
         {S: settings(onFailure="block")}),
    case("structure/handler-note-key", {S: settings(_comment="blocks rm -rf")}, {S: settings()}),
    case("structure/handler-note-key",
         {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x", "description": "d"}]}}},
         {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x"}]}}}, note="cursor"),
    case("structure/timeout-invalid", {S: settings(timeout=0)}, {S: settings(timeout=30)}),
    case("structure/timeout-invalid", {S: settings(timeout="30")}, {S: settings(timeout=30)}, note="string"),
    case("structure/timeout-milliseconds", {S: settings(timeout=5000)}, {S: settings(timeout=5)}),
    case("structure/timeout-milliseconds", {S: settings(timeout=1500)}, {S: settings(timeout=1800)},
         note="round-milliseconds-not-minutes"),
    case("structure/timeout-long", {S: settings("PermissionRequest", timeout=345600)},
         {S: settings("PermissionRequest", timeout=600)}),
    case("structure/timeout-long", {S: settings(timeout=3600)}, {S: settings(timeout=60000)}, note="an-hour"),
    case("structure/once-ignored", {S: settings(once=True)}, {S: settings()}),
    case("structure/http-header-variable-not-allowed", {S: settings(
        type="http", command=None, url="https://h.test", headers={"Authorization": "Bearer $TOKEN"})},
         {S: settings(type="http", command=None, url="https://h.test", headers={"Authorization": "Bearer $TOKEN"},
                      allowedEnvVars=["TOKEN"])}),
    case("structure/http-header-variable-not-in-settings", {S: {**settings(
        type="http", command=None, url="https://h.test", headers={"X-Key": "${KEY}"}, allowedEnvVars=["KEY"]),
        "httpHookAllowedEnvVars": ["OTHER"]}},
         {S: {**settings(type="http", command=None, url="https://h.test", headers={"X-Key": "${KEY}"},
                         allowedEnvVars=["KEY"]), "httpHookAllowedEnvVars": ["KEY"]}}),
    case("structure/plugin-manifest-names-default-hooks",
         {"hooks/hooks.json": {"hooks": {}}, ".claude-plugin/plugin.json": {"name": "p", "hooks": "./hooks/hooks.json"}},
         {"hooks/hooks.json": {"hooks": {}}, ".claude-plugin/plugin.json": {"name": "p", "hooks": "./more.json"}}),
    case("structure/async-non-command", {S: settings(type="prompt", command=None, prompt="ok?", **{"async": True})},
         {S: settings(type="prompt", command=None, prompt="ok?")}),
    case("structure/matcher-ignored", {S: settings("Stop", matcher="Bash")}, {S: settings("Stop", matcher="*")}),
    case("structure/if-never-runs", {S: settings("Stop", matcher=None, **{"if": "Bash(git *)"})},
         {S: settings("PreToolUse", **{"if": "Bash(git *)"})}),
    case("structure/type-unsupported-event", {S: settings("SessionStart", matcher=None, type="prompt", command=None,
                                                          prompt="say hi")},
         {S: settings("SessionStart", matcher=None)}),
    case("structure/shell-invalid", {S: settings(shell="fish")}, {S: settings(shell="bash")}),
    case("structure/shell-ignored", {S: settings(shell="bash", command="echo", args=["hi"])},
         {S: settings(command="echo", args=["hi"])}),
    case("structure/hooks-disabled", {S: {"disableAllHooks": True}}, {S: {"disableAllHooks": False}}),
    case("structure/hooks-disabled-elsewhere", {S: settings()}, {S: {**settings(), "disableAllHooks": False}},
         given=False, config={"settings.json": {"disableAllHooks": True}}),
    case("structure/hooks-disabled-elsewhere", {S: settings(), ".claude/settings.local.json": {"disableAllHooks": True}},
         {S: settings(), ".claude/settings.local.json": {"disableAllHooks": False}}, given=False, note="local"),
    case("structure/managed-hooks-only", {S: {"allowManagedHooksOnly": True}}, {S: {"allowManagedHooksOnly": False}}),
    case("structure/settings-schema", {S: {"cleanupPeriodDays": "thirty"}}, {S: {"cleanupPeriodDays": 30}}),
    case("structure/settings-schema", {S: {"permissions": {"allow": ["Write:**/*.ts"]}}},
         {S: {"permissions": {"allow": ["Write(**/*.ts)"]}}}, note="permission-rule-syntax"),
    case("structure/settings-schema", {S: {"permissions": {"allow": ["Bash(npm run test), Bash(npm run lint)"]}}},
         {S: {"permissions": {"allow": ["Bash(npm run test)", "Bash(npm run lint)"]}}}, note="two-rules-in-one"),
    case("structure/settings-schema", {S: {"permissions": {"allow": ['Bash(python -c "print(1)") x']}}},
         {S: {"permissions": {"allow": ['Bash(python -c "json.load\\(sys.stdin\\)")', "Bash(echo (a))"]}}},
         note="parentheses-inside-the-specifier"),  # as Claude Code saves an approved command
    case("structure/settings-schema", {S: {"env": {"HAS SPACE": "1"}}}, {S: {"env": {"HAS_SPACE": "1"}}},
         note="env-name"),
    case("structure/settings-schema", {S: {"extraKnownMarketplaces": {"m": {"source": {"source": "url", "url": 5}}}}},
         {S: {"extraKnownMarketplaces": {"m": {"source": {"source": "url", "url": "marketplace.json"}}}}},
         note="format-is-no-check"),  # draft 7's "format" annotates; a relative URL is no error
    case("structure/settings-schema-opinion", {S: {"permissions": {"allow": ["Datadog"]}}},
         {S: {"permissions": {"allow": ["Read"]}}}),
    case("structure/settings-schema-opinion", {S: {"env": {"my_var": "1"}}}, {S: {"env": {"MY_VAR": "1"}}},
         note="env-lower-case"),
    case("structure/settings-schema-opinion", {S: {"permissions": {"_note": "x", "allow": []}}},
         {S: {"permissions": {"allow": []}}}, note="comment-key"),
    # ---- matchers -----------------------------------------------------------------------------
    case("command/bash-only-syntax", {S: settings(command='[[ -f x ]] && echo found')},
         {S: settings(command='[ -f x ] && echo found')}),
    case("command/bash-only-syntax", {S: settings(command='#!/bin/bash\nif [[ -n "$X" ]]; then echo x; fi')},
         {S: settings(command="bash -c '[[ -f x ]] && echo found'")}, note="a shebang in a command is a comment"),
    case("matcher/not-string", {S: settings(matcher=["Bash", "Read"])}, {S: settings(matcher="Bash|Read")}),
    case("matcher/invalid-regex", {S: settings(matcher="Bash(")}, {S: settings(matcher="Bash")}),
    case("matcher/file-pattern", {S: settings(matcher="*.py|*.ts")}, {S: settings(matcher="Edit|Write")}, note="glob"),
    case("matcher/file-pattern", {S: settings(matcher=r"\.env$|secrets/")},
         {S: settings(matcher="Edit|Write", **{"if": "Edit(secrets/**)"})}, note="regex"),
    case("matcher/file-pattern", {S: settings("PostToolUse", matcher="src/**")},
         {S: settings("PostToolUse", matcher="Write|Edit")}, note="folder"),
    case("matcher/file-pattern", {S: settings(matcher=r"\.(ts|tsx)$")}, {S: settings(matcher="Edit.*|Write")},
         note="extensions"),
    case("matcher/not-javascript", {S: settings(matcher="(?i)bash")}, {S: settings(matcher="[Bb]ash")}),
    case("matcher/not-javascript", {S: settings(matcher=r"\ABash\Z")}, {S: settings(matcher="^Bash$")},
         note="python-anchors"),
    case("matcher/case-mismatch", {S: settings(matcher="bash")}, {S: settings(matcher="Bash")}),
    case("matcher/tool-renamed", {".codex/hooks.json": settings(matcher="exec_command")},
         {".codex/hooks.json": settings(matcher="Bash")}),
    case("matcher/tool-typo", {S: settings(matcher="Edit|Wirte")}, {S: settings(matcher="Edit|Write")}),
    case("matcher/tool-typo", {S: settings(matcher="Bsah")}, {S: settings(matcher="SomeNewTool|Cron")},
         note="swapped-letters-and-new-tools"),
    case("matcher/tool-typo", {S: settings(matcher="Shell|Read")}, {S: settings(matcher="Bash|Read")},
         note="cursor-tool-name"),
    case("matcher/case-mismatch", {S: settings(matcher="^bash$")}, {S: settings(matcher="^Bash$")}, note="regex"),
    case("matcher/case-mismatch", {S: settings("SessionStart", matcher="Startup")},
         {S: settings("SessionStart", matcher="startup")}, note="session-source"),
    case("matcher/case-mismatch", {S: settings(matcher="mcp__Linear__.*"), ".mcp.json": MCP_LINEAR},
         {S: settings(matcher="mcp__linear__.*"), ".mcp.json": MCP_LINEAR}, given=False, note="mcp-server"),
    case("matcher/case-mismatch", {S: settings(matcher="mcp__Linear__create_issue"), ".mcp.json": MCP_LINEAR},
         {S: settings(matcher="mcp__linear__create_issue|mcp__Jira__x"), ".mcp.json": MCP_LINEAR}, given=False,
         note="mcp-tool"),
    case("matcher/case-mismatch", {S: settings("Elicitation", matcher="Linear"), ".mcp.json": MCP_LINEAR},
         {S: settings("Elicitation", matcher="linear"), ".mcp.json": MCP_LINEAR}, given=False, note="elicitation"),
    case("matcher/mcp-no-tool", {S: settings(matcher="mcp__memory")}, {S: settings(matcher="mcp__memory__.*")}),
    case("matcher/mcp-no-tool", {S: settings(matcher="mcp__linear_"), ".mcp.json": MCP_LINEAR},
         {S: settings(matcher="mcp__linear__.*"), ".mcp.json": MCP_LINEAR}, given=False, note="trailing-underscore"),
    case("matcher/if-other-tool", {S: settings(matcher="Edit", **{"if": "Bash(git *)"})},
         {S: settings(matcher="Bash", **{"if": "Bash(git *)"})}),
    case("matcher/if-other-tool", {S: settings(matcher="", **{"if": "bash(git *)"})},
         {S: settings(matcher="", **{"if": "Bash(git *)"})}, note="case"),
    case("matcher/if-other-tool", {S: settings(matcher="", **{"if": "Shell(git *)"})},
         {S: settings(matcher="", **{"if": "SomeNewTool(git *)"})}, note="another-agents-name"),
    case("matcher/if-other-tool", {S: settings(matcher="", **{"if": "mcp__Linear__create_issue"}), ".mcp.json": MCP_LINEAR},
         {S: settings(matcher="", **{"if": "mcp__linear__create_issue"}), ".mcp.json": MCP_LINEAR}, given=False,
         note="mcp-server-case"),
    case("matcher/permission-rule", {S: settings(matcher="Bash(git:*)")},
         {S: settings(matcher="Bash", **{"if": "Bash(git:*)"})}),
    case("matcher/matches-nothing", {S: settings(matcher='tool == "Bash"')}, {S: settings(matcher="Bash")}),
    case("matcher/undecided", {S: settings(matcher="(Ba)\\1sh")}, {S: settings(matcher="(Ba)sh")}),
    case("matcher/undecided", {S: settings(matcher="(?:Bash{100}){100}")}, {S: settings(matcher="(?:Bash{10}){10}")}),
    case("matcher/matches-nothing", {S: settings("SubagentStop", matcher='subagent_name == "reviewer"')},
         {S: settings("SubagentStop", matcher="code-reviewer|Explore")}, note="agent-type"),
    case("matcher/empty-alternative", {S: settings(matcher='tool == "Edit" || tool == "Write"')},
         {S: settings(matcher="Edit|Write")}),
    case("matcher/empty-alternative", {S: settings(matcher="Edit.*|")}, {S: settings(matcher="Edit.*")},
         note="trailing-bar"),
    case("matcher/unknown-value", {S: settings("SessionStart", matcher="start")},
         {S: settings("SessionStart", matcher="startup|resume")}),
    case("matcher/needs-recent-host", {S: settings(matcher="Edit, Write")}, {S: settings(matcher="Edit|Write")}),
    # FileChanged (measured on 2.1.328): each entry a literal path to watch, the file's name tested against the matcher
    case("matcher/file-changed-glob", {S: settings("FileChanged", matcher="*.proto|*.graphql")},
         {S: settings("FileChanged", matcher="api.proto|schema.graphql")}),
    case("matcher/file-changed-glob", {S: settings("FileChanged", matcher="src/**/*.ts")},
         {S: settings("FileChanged", matcher="*")}, note="a-lone-star-runs-for-whatever-is-watched"),
    case("matcher/file-changed-glob-watches-nothing", {S: settings("FileChanged", matcher=".env*")},
         {S: settings("FileChanged", matcher=r"\.env(\..*)?$")}),
    case("matcher/file-changed-path", {S: settings("FileChanged", matcher="src/env.ts")},
         {S: settings("FileChanged", matcher="src/env.ts|env.ts")}),
    case("matcher/file-changed-path", {S: settings("FileChanged", matcher="config/app.json|.envrc")},
         {S: settings("FileChanged", matcher=".envrc|.env")}, note="one-path-among-names"),
    case("matcher/needs-recent-host", {S: settings("SubagentStop", matcher="code-reviewer")},
         {S: settings("PreModelSwitch", matcher="claude-opus")}, note="an-event-newer-than-the-change"),
    # ---- hosts --------------------------------------------------------------------------------
    case("host/other-agent-format", {".gemini/settings.json": {"hooks": {"BeforeTool": [GROUP]}}}, {S: settings()}),
    case("host/unrecognised-file", {"hooks/guard.sh": "#!/bin/sh\nexit 0\n"}, {S: settings()}),
    case("host/cursor-claude-event", {CURSOR: {"version": 1, "hooks": {"PreToolUse": [{"command": "x"}]}}},
         {CURSOR: {"version": 1, "hooks": {"preToolUse": [{"command": "x"}]}}}),
    case("host/cursor-claude-event", {CURSOR: {"version": 1, "hooks": {"userPromptSubmit": [{"command": "x"}]}}},
         {CURSOR: {"version": 1, "hooks": {"beforeSubmitPrompt": [{"command": "x"}]}}}, note="lower-camel"),
    case("host/cursor-claude-group", {CURSOR: {"version": 1, "hooks": {"preToolUse": [GROUP]}}},
         {CURSOR: {"version": 1, "hooks": {"preToolUse": [{"command": "x", "matcher": "Shell"}]}}}),
    case("host/cursor-claude-tool-name", {CURSOR: {"version": 1, "hooks": {"preToolUse": [
        {"command": "x", "matcher": "Bash|Write"}]}}},
         {CURSOR: {"version": 1, "hooks": {"preToolUse": [{"command": "x", "matcher": "Shell|Write"}]}}}),
    case("host/cursor-claude-tool-name", {CURSOR: {"version": 1, "hooks": {"preToolUse": [
        {"command": "x", "matcher": "^Bash$"}]}}},
         {CURSOR: {"version": 1, "hooks": {"preToolUse": [{"command": "x", "matcher": "^Shell$"}]}}}, note="anchored"),
    case("host/cursor-claude-tool-name", {CURSOR: {"version": 1, "hooks": {"postToolUse": [
        {"command": "x", "matcher": "mcp__github__create_issue"}]}}},
         {CURSOR: {"version": 1, "hooks": {"postToolUse": [{"command": "x", "matcher": "MCP:create_issue"}],
                                            "beforeShellExecution": [{"command": "x", "matcher": "Bash"}]}}},
         note="mcp-and-shell-commands"),
    case("host/cursor-claude-tool-name", {CURSOR: {"version": 1, "hooks": {"preToolUse": [
        {"command": "x", "matcher": "mcp__github__.*"}]}}},
         {CURSOR: {"version": 1, "hooks": {"preToolUse": [{"command": "x", "matcher": "MCP:.*"}]}}}, note="mcp-regex"),
    case("host/cursor-version-invalid", {CURSOR: {"version": "1", "hooks": {"stop": [{"command": "x"}]}}},
         {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x"}]}}}),
    case("host/cursor-version-invalid", {CURSOR: {"version": 2, "hooks": {"stop": [{"command": "x"}]}}},
         {CURSOR: {"version": 1.0, "hooks": {"stop": [{"command": "x"}]}}}, note="another-number"),
    case("host/file-dropped", {CODEX: {"$schema": "https://x/s.json", "hooks": {}}}, {CODEX: {"hooks": {}}}),
    case("host/file-dropped", {CODEX: {"hooks": {"Stop": [{"hooks": [{**ECHO, "timeout": "ten"}]}]}}},
         {CODEX: {"hooks": {"Stop": [{"hooks": [{**ECHO, "timeout": 10}]}]}}}, note="type"),
    case("host/cursor-version-missing", {CURSOR: {"hooks": {"stop": [{"command": "x"}]}}},
         {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x"}]}}}),
    case("host/cursor-claude-field", {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x", "async": True}]}}},
         {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x"}]}}}),
    case("host/cursor-field-no-effect", {CURSOR: {"version": 1, "hooks": {"afterFileEdit": [
        {"command": "x", "loop_limit": 3}]}}},
         {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x", "loop_limit": 3}]}}}),
    case("host/cursor-command-matcher-names-tool", {CURSOR: {"version": 1, "hooks": {"beforeShellExecution": [
        {"command": "x", "matcher": "Shell"}]}}},
         {CURSOR: {"version": 1, "hooks": {"beforeShellExecution": [{"command": "x", "matcher": "^git push"}]}}}),
    case("host/cursor-matcher-misses-literal", {CURSOR: {"version": 1, "hooks": {"stop": [
        {"command": "x", "matcher": "Write"}]}}},
         {CURSOR: {"version": 1, "hooks": {"stop": [{"command": "x", "matcher": "Stop"}]}}}),
    # opencode (project mode: its plugins folders, as opencode reads them)
    case("host/opencode-plugin-not-loaded", {OC + "p.mjs": PLUGIN}, {OC + "p.js": PLUGIN}, given=False),
    case("host/opencode-plugin-not-loaded", {OC + "helpers/p.js": PLUGIN}, {OC + "p.js": PLUGIN}, given=False,
         note="subfolder"),
    case("host/opencode-plugin-syntax-error", {OC + "p.ts": PLUGIN.replace("}})\n", "}\n")}, {OC + "p.ts": PLUGIN},
         given=False),
    case("host/opencode-plugin-export-not-function", {OC + "p.js": PLUGIN + 'export const VERSION = "1"\n'},
         {OC + "p.js": PLUGIN + 'const VERSION = "1"\n'}, given=False),
    case("host/opencode-args-reassigned", {OC + "p.js": PLUGIN.replace('output.args.command = "x"',
                                                                       'output.args = {command: "x"}')},
         {OC + "p.js": PLUGIN}, given=False),
    case("host/opencode-tool-name", {OC + "p.js": PLUGIN.replace('"bash"', '"Bash"')}, {OC + "p.js": PLUGIN},
         given=False),
    case("host/opencode-tool-name", {OC + "p.js": PLUGIN.replace('"bash"', '"mcp__fs__write"')},
         {OC + "p.js": PLUGIN.replace('"bash"', '"fs_write"')}, given=False, note="mcp"),
    case("host/opencode-tool-name", {OC + "p.js": PLUGIN.replace('if (input.tool === "bash")',
                                                                 'const t = input.tool\n  if (t === "Bash")')},
         {OC + "p.js": PLUGIN.replace('if (input.tool === "bash")', 'const t = input.tool\n  if (t === "bash")')},
         given=False, note="through-a-name"),
    case("host/opencode-tool-name", {OC + "p.js": 'export const P = async () => ({"tool.execute.after": async (input) => {\n'
                                                  '  if (input.tool !== "TodoWrite") return\n}})\n'},
         {OC + "p.js": 'export const P = async () => ({"tool.execute.after": async (input) => {\n'
                       '  if (input.tool !== "todowrite") return\n}})\n'}, given=False, note="after-the-call"),
    case("host/opencode-args-reassigned", {OC + "p.js": PLUGIN.replace("(input, output)", "({ tool }, { args })").replace(
        'input.tool === "bash") output.args.command = "x"', 'tool === "bash") args = {command: "x"}')},
         {OC + "p.js": PLUGIN.replace("(input, output)", "({ tool }, { args })").replace(
             'input.tool === "bash") output.args.command = "x"', 'tool === "bash") args.command = "x"')},
         given=False, note="destructured"),
    case("host/opencode-hook-never-called", {OC + "p.js": PLUGIN.replace('"tool.execute.before"', '"tool.before"')},
         {OC + "p.js": PLUGIN}, given=False),
    case("host/opencode-hook-never-called", {OC + "p.js": PLUGIN.replace('"tool.execute.before"', "PreToolUse")},
         {OC + "p.js": PLUGIN}, given=False, note="claude-event"),
    case("host/opencode-plugin-commonjs", {OC + "p.js": PLUGIN.replace("export const P =", "module.exports =")},
         {OC + "p.js": PLUGIN}, given=False),
    case("host/opencode-process-exit", {OC + "p.js": PLUGIN.replace('output.args.command = "x"', "process.exit(1)")},
         {OC + "p.js": PLUGIN.replace('output.args.command = "x"', 'throw new Error("refused")')}, given=False),
    case("host/opencode-after-the-call", {OC + "p.js": AFTER.replace("BODY", 'throw new Error("refused")')},
         {OC + "p.js": AFTER.replace("BODY", 'output.output = "checked"')}, given=False),
    case("host/opencode-after-the-call", {OC + "p.js": AFTER.replace("BODY", 'input.args.command = "x"')},
         {OC + "p.js": PLUGIN}, given=False, note="args"),
    case("host/opencode-guard-after-the-call", {OC + "p.js": AFTER.replace(
        "BODY", 'if (input.args.command.includes("rm")) throw new Error("refused")')},
         {OC + "p.js": PLUGIN.replace('output.args.command = "x"',
                                      'if (output.args.command.includes("rm")) throw new Error("refused")')}, given=False),
    case("host/opencode-argument-name", {OC + "p.js": PLUGIN.replace('"bash"', '"read"').replace(
        "output.args.command", "output.args.file_path")},
         {OC + "p.js": PLUGIN.replace('"bash"', '"read"').replace("output.args.command", "output.args.filePath")},
         given=False),
    case("host/opencode-hook-never-called", {OC + "p.js": 'export const P = async () => ({"session.idle": async () => {}})\n'},
         {OC + "p.js": 'export const P = async () => ({event: async ({event}) => {}})\n'}, given=False, note="bus-event"),
    case("host/opencode-tool-name", {OC + "p.js": PLUGIN.replace('"bash"', '"my.docs_read"')},
         {OC + "p.js": PLUGIN.replace('"bash"', '"my_docs_read"')}, given=False, note="replaced"),
    case("host/opencode-tool-prefix-name", {OC + "p.js": PLUGIN.replace('input.tool === "bash"',
                                                                       'input.tool.startsWith("my.docs_")')},
         {OC + "p.js": PLUGIN.replace('input.tool === "bash"', 'input.tool.startsWith("my_docs_")')}, given=False),
    case("host/opencode-argument-not-there", {OC + "p.js": PLUGIN.replace('output.args.command = "x"',
                                                                         'if (output.args.cmd) throw new Error("no")')},
         {OC + "p.js": PLUGIN.replace('output.args.command = "x"', 'if (output.args.command) throw new Error("no")')},
         given=False),
    case("host/opencode-argument-not-there", {OC + "p.js": PLUGIN.replace('"bash"', '"read"').replace(
        'output.args.command = "x"', 'if (output.args.file_path) throw new Error("no")')},
         {OC + "p.js": PLUGIN.replace('"bash"', '"read"').replace(
             'output.args.command = "x"', 'if (output.args.filePath) throw new Error("no")')}, given=False, note="claude"),
    case("host/opencode-return-does-not-block", {OC + "p.js": PLUGIN.replace('output.args.command = "x"', "return false")},
         {OC + "p.js": PLUGIN.replace('output.args.command = "x"', 'throw new Error("refused")')}, given=False),
    case("host/opencode-promise-not-awaited", {OC + "p.js": PLUGIN.replace(
        'output.args.command = "x"', '$`./check`.then((r) => { if (r.exitCode) throw new Error("no") })')},
         {OC + "p.js": PLUGIN.replace(
             'output.args.command = "x"', 'await $`./check`.then((r) => { if (r.exitCode) throw new Error("no") })')},
         given=False),
    case("host/opencode-plugin-no-id", {OC + "p.js": PLUGIN.replace("export const P = async", "export default {server: async")
                                        .replace("}})\n", "}})}\n")},
         {OC + "p.js": PLUGIN.replace("export const P = async", 'export default {id: "p", server: async')
          .replace("}})\n", "}})}\n")}, given=False),
    case("host/opencode-hook-never-called", {OC + "p.js": PLUGIN.replace('"tool.execute.before"', '"permission.ask"')},
         {OC + "p.js": PLUGIN}, given=False, note="permission-ask"),
    case("host/opencode-rewritten-before-check",
         {"opencode.json": '{"plugin": ["./tools/pager.js"]}', "tools/pager.js": PLUGIN.replace(
             '"x"', "`PAGER=cat ${output.args.command}`"), OC + "guard.js": PLUGIN.replace(
             'output.args.command = "x"', 'if (/^git\\s+push/.test(output.args.command)) throw new Error("no")')},
         {"opencode.json": '{"plugin": ["./tools/pager.js"]}', "tools/pager.js": PLUGIN.replace(
             '"x"', "`PAGER=cat ${output.args.command}`"), OC + "guard.js": PLUGIN.replace(
             'output.args.command = "x"', 'if (/\\bgit\\s+push/.test(output.args.command)) throw new Error("no")')},
         given=False),
    case("host/opencode-plugin-import-missing", {OC + "p.js": 'import mm from "micromatch"\n' + PLUGIN},
         {OC + "p.js": 'import mm from "micromatch"\n' + PLUGIN,
          ".opencode/package.json": '{"dependencies": {"micromatch": "^4.0.8"}}'}, given=False),
    case("host/opencode-plugin-import-missing", {OC + "p.js": 'import { rules } from "./lib/rules"\n' + PLUGIN},
         {OC + "p.js": 'import { rules } from "./lib/rules"\n' + PLUGIN, OC + "lib/rules.ts": "export const rules = []\n"},
         given=False, note="file"),
    case("host/opencode-plugin-import-missing", {OC + "p.js": 'import mm from "micromatch"\n' + PLUGIN,
                                                 "package.json": '{"devDependencies": {"micromatch": "^4.0.8"}}'},
         {OC + "p.js": 'import mm from "micromatch"\n' + PLUGIN, "package.json": '{"devDependencies": {"micromatch": "^4"}}',
          "node_modules/micromatch/index.js": "module.exports = () => true\n"}, given=False, note="not-installed"),
    case("host/opencode-plugin-throws-at-load", {OC + "p.js": PLUGIN.replace(
        "async () => (", 'async () => (JSON.parse(require("fs").readFileSync("policy.json", "utf8")), ')},
         {OC + "p.js": PLUGIN.replace(
             "async () => (", 'async () => (JSON.parse(require("fs").readFileSync("policy.json", "utf8")), '),
          "policy.json": "{}"}, given=False),
    case("host/opencode-plugin-throws-at-load", {
        OC + "p.js": 'import { readFileSync } from "node:fs"\nconst RULES = readFileSync("rules.txt", "utf8")\n' + PLUGIN},
         {OC + "p.js": 'import { readFileSync } from "node:fs"\n'
                       'const RULES = readFileSync(new URL("../rules.txt", import.meta.url), "utf8")\n' + PLUGIN},
         given=False, note="top-level"),
    case("host/opencode-runtime-missing", {OC + "hookwright-git-guard.js": OURS},
         {OC + "hookwright-git-guard.js": OURS, ".opencode/hookwright/git-guard/git-guard": "# the runtime\n"},
         given=False),
    case("host/opencode-config-unreadable", {"opencode.json": "{ nope"},
         {"opencode.json": '{\n  // JSONC: comments and trailing commas are fine\n  "plugin": [],\n}\n'}, given=False),
    case("host/opencode-plugin-list", {"opencode.json": '{"plugin": "my-plugin"}'}, {"opencode.json": '{"plugin": ["my-plugin"]}'},
         given=False),
    case("host/opencode-plugin-list", {"opencode.json": '{"plugin": ["my-plugin", 42]}'},
         {"opencode.json": '{"plugin": ["my-plugin", ["other", {"a": 1}]]}'}, given=False, note="entry"),
    case("host/opencode-plugin-missing", {"opencode.json": '{"plugin": ["./tools/gone.js"]}'},
         {"opencode.json": '{"plugin": ["./tools/here.js", ["npm-plugin", {"a": 1}]]}', "tools/here.js": PLUGIN},
         given=False),
    case("host/plugin-not-installed", {S: {"enabledPlugins": {"guard@tools": True}}},
         {S: {"enabledPlugins": {"guard@tools": True}}}, given=False,
         config={"plugins/installed_plugins.json": {"version": 2, "plugins": {}}}),
]
GOOD_CONFIG = {  # what the "good" variant of a case adds under CLAUDE_CONFIG_DIR
    "host/plugin-not-installed": lambda root: {
        "plugins/installed_plugins.json": {"version": 2, "plugins": {
            "guard@tools": [{"scope": "user", "installPath": str(root / "guard"), "version": "1.0.0"}]}},
        "guard/hooks/hooks.json": {"hooks": {"Stop": [{"hooks": [ECHO]}]}},
    },
}


def _run(tmp_path, monkeypatch, files, given, config):
    home = tmp_path / "claude-home"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    for name, content in config.items():
        path = home / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))
    return doctor(tmp_path / "project", files, given=given)


@pytest.mark.parametrize("rule, bad, good, given, config", CASES)
def test_rule_fires(rule, bad, good, given, config, tmp_path, monkeypatch):
    outcome = _run(tmp_path, monkeypatch, bad, given, config)
    hits = found(outcome, rule)
    assert hits, f"{rule} did not fire; found {rule_ids(outcome)}"
    for hit in hits:
        assert hit.line >= 1 and hit.column >= 1 and hit.message and hit.severity == catalog()[rule].severity


@pytest.mark.parametrize("rule, bad, good, given, config", CASES)
def test_rule_quiet_on_the_fixed_config(rule, bad, good, given, config, tmp_path, monkeypatch):
    if rule in GOOD_CONFIG:
        config = GOOD_CONFIG[rule](tmp_path / "claude-home")
    outcome = _run(tmp_path, monkeypatch, good, given, config)
    assert rule not in rule_ids(outcome), [f.message for f in found(outcome, rule)]


# rules whose case needs more than files (a program on PATH): tested below
# and a plugin's hooks file named alone (its .mcp.json named too would read as a settings file):
# tests/test_doctor_conditions.py; the folder the agent starts in, an installed plugin:
# tests/test_doctor_scopes.py; an `if` beside its group's other handlers: tests/test_doctor_never_sent.py;
# a switch in the user's config.toml over a project's hooks: tests/test_codex_config_toml.py; the
# places Codex never runs, in both of its formats: tests/test_codex_rules.py; a hook's script or the
# project's package.json beside its `if`: tests/test_doctor_conditions.py; a plugin and the Claude Code
# script it runs: tests/test_doctor_opencode_ways.py; Codex's managed requirements, in a folder
# standing for /etc/codex: tests/test_codex.py; a project the user's config.toml marks untrusted, or
# says nothing of: tests/test_codex_rules.py; a project's MCP servers beside a matcher, a local
# settings' env beside the project's and a guard, a skill's shell line beside a guard:
# tests/test_doctor_never_hold.py; a settings env beside the startup file or the guard script it
# changes: tests/test_doctor_settings_env.py; a settings file's bytes in each encoding:
# tests/test_settings_encodings.py; a guard in a skill's frontmatter: tests/test_doctor_scopes.py
CASED_BELOW = {"structure/not-utf8", "structure/guard-only-in-skill", "structure/env-startup-output", "structure/env-switches-guard-off", "matcher/server-near-name", "matcher/guard-misses-skill-lines", "structure/env-overridden", "host/hook-untrusted", "host/hook-not-yet-trusted", "host/newer-than-facts", "structure/plugin-marketplace-unknown", "structure/plugin-marketplace-not-shared",
               "matcher/guard-misses-tools", "matcher/plugin-server-bare-name", "structure/settings-not-read",
               "structure/plugin-switched-off", "matcher/if-narrows-matcher", "host/hooks-switched-off",
               "host/hook-never-loaded", "matcher/if-legacy-prefix", "host/opencode-script-reads-claude-names",
               "host/hooks-off-elsewhere", "host/opencode-script-exit-unheard",
               "host/opencode-guard-misses-tools", "host/opencode-refusal-caught",
               "host/opencode-tool-pattern", "host/opencode-checked-before-rewrite",
               "host/opencode-variable-of-another-host",
               "host/opencode-bridge-without-input",  # (the seven before: test_doctor_opencode_ways.py)
               "host/opencode-hook-twice", "host/opencode-refusal-unread", "host/opencode-path-compared-relative",
               "host/opencode-plugin-not-a-path"}  # (the last four: test_doctor_opencode_lost.py)


def test_every_rule_of_these_kinds_has_a_case():
    covered = {p.values[0] for p in CASES} | CASED_BELOW
    mine = {r for r in catalog() if r.split("/")[0] in ("structure", "matcher", "host")}
    assert mine - covered == set()


def _claude_on_path(tmp_path, monkeypatch, version: str, native: bool = False) -> None:
    """A `claude` on PATH whose release can be read without running it: an npm package's
    package.json above it, or the native installer's versions/<version>."""
    if native:
        program = tmp_path / "share" / "claude" / "versions" / version
        program.parent.mkdir(parents=True)
    else:
        package = tmp_path / "lib" / "node_modules" / "@anthropic-ai" / "claude-code"
        (package / "bin").mkdir(parents=True)
        (package / "package.json").write_text(json.dumps({"name": "@anthropic-ai/claude-code", "version": version}))
        program = package / "bin" / "claude.exe"
    program.write_text("#!/bin/sh\nexit 99\n")  # (never run: a run would say so)
    program.chmod(0o755)
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "claude").symlink_to(program)
    monkeypatch.setenv("PATH", f"{folder}:/usr/bin:/bin")


@pytest.mark.parametrize("native", [False, True], ids=["npm", "native installer"])
def test_a_claude_code_newer_than_the_facts_is_said_once_with_the_rules_of_the_findings_it_may_affect(
        native, tmp_path, monkeypatch):
    _claude_on_path(tmp_path, monkeypatch, "2.9.0", native)
    outcome = doctor(tmp_path / "project", {S: {"hooks": {"PreToolUsed": [GROUP]}}, "local.json": settings()})

    (note,) = found(outcome, "host/newer-than-facts")
    assert note.message.startswith(f"Claude Code 2.9.0 is installed here ({tmp_path}/")
    pinned = versions.pin("claude").version
    assert f"newer than {pinned}, which doctor's facts are measured on: these findings rest on what {pinned} did, " \
           "which may have changed: structure/unknown-event;" in note.message
    assert note.severity == "info" and note.path.endswith(S)


@pytest.mark.parametrize("version", [versions.pin("claude").version, "2.1.328"])
def test_a_claude_code_at_or_before_the_pinned_release_is_not_mentioned(version, tmp_path, monkeypatch):
    _claude_on_path(tmp_path, monkeypatch, version)
    assert not found(doctor(tmp_path / "project", {S: {"hooks": {"PreTooluse": [GROUP]}}}), "host/newer-than-facts")


def test_a_clean_settings_file_has_no_findings(tmp_path):
    clean = {
        "$schema": "https://json.schemastore.org/claude-code-settings.json",
        "permissions": {"allow": ["Bash(git status)"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo pre", "timeout": 10}]},
                           {"matcher": "Edit|Write|mcp__memory__.*", "hooks": [ECHO]}],
            "PostToolUse": [{"matcher": "Edit.*", "hooks": [{"type": "prompt", "prompt": "ok? $ARGUMENTS"}]}],
            "SessionStart": [{"matcher": "startup|resume", "hooks": [ECHO]}],
            "Stop": [{"hooks": [{"type": "agent", "prompt": "done?", "timeout": 60}]}],
            "Notification": [{"matcher": "idle_prompt", "hooks": [
                {"type": "http", "url": "http://localhost:8080/n", "headers": {"X": "$T"}, "allowedEnvVars": ["T"]}]}],
            "PreModelSwitch": [{"hooks": [ECHO]}],
        },
    }
    outcome = doctor(tmp_path, {S: clean})
    assert outcome.findings == []


def test_a_note_key_is_said_to_be_lost_only_where_the_host_rewrites_the_file(tmp_path):
    entry = settings(group={"_comment": "guard"})
    (in_settings,) = found(doctor(tmp_path / "a", {S: entry}), "structure/group-note-key")
    assert "drops it when it rewrites the file" in in_settings.message
    (in_plugin,) = found(doctor(tmp_path / "b", {"plugin/hooks/hooks.json": entry}), "structure/group-note-key")
    assert in_plugin.message.endswith("Claude Code ignores it")


def test_an_expression_matcher_is_told_to_match_the_tools_it_names(tmp_path):
    out = doctor(tmp_path / "a", {S: settings(matcher='tool_name in ["Write", "Edit"]')})
    (nothing,) = found(out, "matcher/matches-nothing")
    assert '"matcher": "Write|Edit"' in nothing.hint and "Write(src/**)" in nothing.hint
    (fetch,) = found(doctor(tmp_path / "c", {S: settings(matcher='tool_name == "WebFetch"')}), "matcher/matches-nothing")
    assert "WebFetch(domain:example.com)" in fetch.hint
    (mcp,) = found(doctor(tmp_path / "d", {S: settings(matcher='tool == "mcp__github__create_issue"')}),
                   "matcher/matches-nothing")
    assert '"matcher": "mcp__github__create_issue"' in mcp.hint and "e.g." not in mcp.hint
    (plain,) = found(doctor(tmp_path / "b", {S: settings(matcher='input.command matches "rm"')}),
                     "matcher/matches-nothing")
    assert '"matcher": "Bash"' in plain.hint


def test_a_note_under_hooks_is_not_read_as_matcher_groups(tmp_path):
    out = doctor(tmp_path, {S: {"hooks": {"_comment": ["one", "two"], **settings()["hooks"]}}})
    assert rule_ids(out) == ["structure/hooks-note-key"]


@pytest.mark.parametrize("rule, parses", [
    ("Bash", True), ("Bash(npm run test:*)", True), ("Read(~/.ssh/**)", True), ("mcp__github__create_issue", True),
    ('Bash(python -c "json.load\\(sys.stdin\\)")', True), ("Bash(echo (a) (b))", True), ("Bash(a\\)b)", True),
    ("Bash()", False), ("Bash(a", False), ("Bash((a)", False), ("Bash(a))", False), ("Bash(a) x", False),
    ("Bash(a), Bash(b)", False), ("Bash(\\(", False), ("Bash:*", False), ("(a)", False),
])
def test_permission_rule_syntax(rule, parses):
    from hookwright.doctor.checks.structure.settings import _parses_as_permission_rule

    assert _parses_as_permission_rule(rule) is parses


def test_an_unknown_value_with_a_hyphen_gets_no_note_about_hyphens(tmp_path):
    out = doctor(tmp_path / "p", {S: settings("Notification", matcher="permission-prompt")})
    assert rule_ids(out) == ["matcher/unknown-value"]
    out = doctor(tmp_path / "q", {S: settings("SessionStart", matcher="startup, resume")})
    assert rule_ids(out) == ["matcher/needs-recent-host"]


def test_the_mcp_no_tool_hint_writes_the_server_as_configured(tmp_path):
    files = {S: settings(matcher="mcp__LINEAR"), ".mcp.json": MCP_LINEAR}
    out = doctor(tmp_path / "p", files, given=False)
    (finding,) = found(out, "matcher/mcp-no-tool")
    assert '"mcp__linear__.*"' in finding.hint
    # a plugin's servers are mcp__plugin_<plugin>_<server>__<tool>: the prefix of them all keeps one "_"
    (finding,) = found(doctor(tmp_path / "q", {S: settings(matcher="mcp__plugin_devops_")}), "matcher/mcp-no-tool")
    assert '"mcp__plugin_devops_.*"' in finding.hint


def rule_tables() -> dict[str, object]:
    """Every model.RuleTable of the check modules (and of the check packages' modules), by check and name."""
    import importlib
    import pkgutil

    from hookwright.doctor import checks
    from hookwright.doctor.model import RuleTable

    found = {}
    for info in pkgutil.walk_packages(checks.__path__, f"{checks.__name__}."):
        module = importlib.import_module(info.name)
        check = info.name.split(".")[3]  # (a check package's tables are its check's: conflicts.RACE_RULES)
        found.update({f"{check}.{name}": value for name, value in vars(module).items()
                      if isinstance(value, RuleTable)})
    return found


# a rule looked for in two units, by one function in each unit's table: a legacy input variable
# read in a command's own text (commands.RULES) and in the script it runs (scripts.SCRIPT_RULES)...
IN_TWO_TABLES = {"command/input-variable-never-set": {"commands.RULES", "scripts.SCRIPT_RULES"},
                 # a plugin's MCP server named bare in a group's matcher, and in a handler's `if`
                 "matcher/plugin-server-bare-name": {"conditions.GROUP_RULES", "conditions.IF_RULES"},
                 # an async hook's answer, by Claude Code's protocol table and by Codex's rejected answers
                 "script/async-answer-never-read": {"scripts.SCRIPT_RULES", "scripts.REJECTED_RULES"},
                 # a program not found on the hooks' PATH, and on a PATH a hook's script sets itself
                 "command/interpreter-not-found": {"commands.RULES", "scripts.LOAD_RULES"}}


def test_each_rule_in_a_rule_table_is_one_function_of_its_own_and_a_catalog_rule():
    tables = rule_tables()
    ids = [rule for table in tables.values() for rule in table.functions]
    functions = [function for table in tables.values() for function in table.functions.values()]
    assert {"commands.RULES", "matchers.RULES", "structure.UNPARSED_RULES", "structure.FILE_RULES",
            "structure.EVENT_RULES", "structure.GROUP_RULES", "structure.HANDLER_RULES", "scopes.RULES",
            "hosts.FILE_RULES", "cursor.FILE_RULES", "cursor.ENTRY_RULES", "hosts.PLUGIN_RULES", "installs.INSTALL_RULES",
            "installs.RECEIPT_RULES", "conflicts.RACE_RULES", "conflicts.CURSOR_RACE_RULES",
            "conflicts.PLUGIN_RACE_RULES", "conflicts.MOOT_RULES", "conflicts.COPY_RULES", "conflicts.PACK_COPY_RULES",
            "conflicts.CURSOR_CLAUDE_RULES", "conflicts.SESSION_END_RULES", "scripts.SCRIPT_RULES",
            "scripts.CODE_RULES", "scripts.CLAUDE_ANSWER_RULES", "scripts.CURSOR_ANSWER_RULES", "scripts.INPUT_RULES",
            "scripts.PROBE_RULES", "opencode.PLUGIN_RULES", "opencode.CONFIG_RULES"} <= set(tables)
    assert set(ids) <= set(catalog())
    once = [rule for rule in ids if rule not in IN_TWO_TABLES]
    assert len(set(once)) == len(once)
    for rule, holders in IN_TWO_TABLES.items():
        assert {name for name, table in tables.items() if rule in table.functions} == holders
    assert len(set(functions)) == len(functions)  # no function answers for two rules


def rules_of(tables: str) -> set[str]:
    """The rule ids of a table ("commands.RULES"), or of every table of a module ("installs")."""
    return {rule for name, table in rule_tables().items() if tables in (name, name.split(".")[0])
            for rule in table.functions}


def test_every_catalog_rule_is_found_by_a_rule_table():
    assert set(catalog()) == {rule for table in rule_tables().values() for rule in table.functions}


@pytest.mark.parametrize("tables, prefix", [
    ("commands", "command/"), ("matchers.RULES+conditions", "matcher/"), ("structure+scopes", "structure/"),
    ("installs", "install/"), ("conflicts", "conflict/"), ("scripts", "script/"), ("delivery+http_services", "delivery/"),
    ("opencode", "host/opencode-"),  # (the other host rules are hosts.py's)
])
def test_a_rule_kind_held_whole_by_its_tables_has_every_one_of_its_rules_there(tables, prefix):
    borrowed = {rule for rule in IN_TWO_TABLES if not rule.startswith(prefix)}
    held = set().union(*map(rules_of, tables.split("+")))  # (structure/: structure/'s and scopes.py's)
    assert held - borrowed == {rule for rule in catalog() if rule.startswith(prefix)}


@pytest.mark.parametrize("module", ["structure", "scopes", "hosts", "installs", "conflicts", "scripts", "opencode"])
def test_every_rule_id_a_check_module_names_is_found_by_one_of_its_tables(module):
    """Where a rule kind is split across modules (host/: hosts.py and opencode.py), each module
    names no rule its own tables do not hold."""
    from pathlib import Path

    from hookwright.doctor import checks

    where = Path(checks.__path__[0]) / module  # a module, or a package of one module per family
    source = "".join(p.read_text(encoding="utf-8") for p in sorted(where.glob("*.py")) or [where.with_suffix(".py")])
    named = set(re.findall(r'"((?:%s)/[a-z0-9-]+)"' % "|".join({r.split("/")[0] for r in catalog()}), source))
    assert named and named <= rules_of(module)


def test_the_host_rules_of_hosts_py_and_cursor_py_are_every_host_rule_but_opencodes():
    assert rules_of("hosts") | rules_of("cursor") == {rule for rule in catalog()
                                                      if rule.startswith("host/") and not rule.startswith("host/opencode-")}
    assert rules_of("cursor") == {rule for rule in catalog() if rule.startswith("host/cursor-")}


def test_a_matcher_that_is_no_string_is_reported_in_another_agents_file_too(tmp_path):
    """A Gemini CLI file in Claude Code's shape: not checked as Claude Code's, but its matcher's type still is."""
    outcome = doctor(tmp_path, {".gemini/settings.json": {"hooks": {"BeforeTool": [dict(GROUP, matcher=5)]}}})
    assert {"host/other-agent-format", "matcher/not-string"} <= set(rule_ids(outcome))


@pytest.mark.parametrize("hooks, rule, message, hint", [
    ({"Notification": [{"command": "x"}]}, "host/cursor-claude-event",
     '"Notification" is a Claude Code event name; Cursor has no such event, so these hooks never run',
     "Cursor has no such event: keep this hook in Claude Code's settings"),
    ({"PreToolUse": [{"command": "x"}]}, "host/cursor-claude-event",
     '"PreToolUse" is a Claude Code event name; Cursor has no such event, so these hooks never run (Cursor calls it '
     '"preToolUse")', 'rename it to "preToolUse"'),
    ({"stop": [{"command": "x", "if": "Bash(git *)"}]}, "host/cursor-claude-field", None,
     "put the condition in the matcher or in the script"),
    ({"stop": [{"command": "x", "args": ["-v"]}]}, "host/cursor-claude-field", None,
     'write the arguments into "command": Cursor runs it as one shell string'),
    ({"stop": [{"command": "x", "url": "https://h.test"}]}, "host/cursor-claude-field", None,
     "Cursor runs commands only: call the endpoint from a script (curl ...)"),
    ({"stop": [{"command": "x", "statusMessage": "hi"}]}, "host/cursor-claude-field", None, 'remove "statusMessage"'),
    ({"sessionEnd": [{"command": "x", "loop_limit": 3}]}, "host/cursor-field-no-effect",
     '"loop_limit" does nothing on this sessionEnd entry: it caps the follow-up messages of subagentStop and stop, '
     'and sessionEnd sends none', None),
    ({"sessionEnd": [{"command": "x", "failClosed": True}]}, "host/cursor-field-no-effect",
     '"failClosed" does nothing on this sessionEnd entry: it makes a failed hook block the action, and sessionEnd '
     'cannot block', None),
    ({"stop": [{"command": "x", "model": "fast"}]}, "host/cursor-field-no-effect",
     '"model" does nothing on this stop entry: it belongs to a prompt hook ("type": "prompt"), and this entry runs a '
     'command', None),
    ({"beforeShellExecution": [{"command": "x", "matcher": "Bash|Shell"}]}, "host/cursor-command-matcher-names-tool",
     None, "remove the matcher: beforeShellExecution runs for every shell command"),
    ({"beforeShellExecution": [{"command": "x", "matcher": "Read|git"}]}, "host/cursor-command-matcher-names-tool",
     None, 'write a pattern over the command text, e.g. "^git push|rm -rf", or remove the matcher'),
])
def test_each_case_of_a_cursor_rule_is_worded_as_its_catalog_variant_says(tmp_path, hooks, rule, message, hint):
    (finding,) = found(doctor(tmp_path, {CURSOR: {"version": 1, "hooks": hooks}}), rule)
    assert (finding.message if message else None, finding.hint if hint else None) == (message, hint)


def test_a_users_cursor_hooks_file_may_leave_the_version_out(tmp_path, home):
    """other-hosts.md 1.2: required in project files; the docs say nothing of the user's."""
    base = tmp_path / "p"
    out = doctor(base, {str(home / CURSOR): {"hooks": {"stop": [{"command": "x"}]}},
                        CURSOR: {"hooks": {"stop": [{"command": "x"}]}}}, given=False)
    assert [f.path for f in found(out, "host/cursor-version-missing")] == [str(base / CURSOR)]


@pytest.mark.parametrize("matcher, flagged", [
    (r"\.env$|secrets/", True), ("*.ts", True), (".env", True), (r".*\.py$", True), ("**/*.md", True),
    ("Write|src/.*", False),  # (it fires for Write)
    ("mcp__fs__.*", False), ("Edit.*", False), ("^(Edit|Write)$", False), ("Notebook.*", False), ("Bash(", False)])
def test_a_matcher_written_for_files_is_told_apart_from_a_tool_name_regex(tmp_path, matcher, flagged):
    out = doctor(tmp_path, {S: settings(matcher=matcher)})
    assert bool(found(out, "matcher/file-pattern")) == flagged
    assert not (flagged and found(out, "matcher/invalid-regex"))  # (one finding for one defect)


def test_every_rule_read_alone_from_the_catalogs_text_is_the_rule_the_whole_catalog_holds():
    from hookwright.doctor import model

    for rule_id, rule in model.catalog().items():
        assert vars(model.rule_by_id(rule_id)) == vars(rule), rule_id
    with pytest.raises(KeyError):
        model.rule_by_id("command/no-such-rule")
