"""What the hosts accept, as data: events, their matchers and handler types, handler fields, tools.

Sources: docs/hosts/claude-code.md (#events, #matchers, #handler-fields; #measured: what Claude
Code 2.1.328 and 2.1.332 really do), docs/hosts/cursor.md (Cursor). Where the docs and the real
CLI disagree, the real CLI wins.
"""
from __future__ import annotations

from ..hosts.claude.protocol import ON_FAILURE_VALUES
from ..hosts.cursor import protocol as cursor_protocol

# ---- Claude Code -----------------------------------------------------------------------------

ALL_TYPES = frozenset({"command", "http", "mcp_tool", "prompt", "agent"})
CHM = frozenset({"command", "http", "mcp_tool"})
CM = frozenset({"command", "mcp_tool"})

TOOL = "tool"  # the matcher filters tool names
OPEN = "open"  # the matcher filters values we cannot list (agent types, MCP servers, file names...)


class Event:
    def __init__(self, name: str, matcher: str | frozenset[str] | None, types: frozenset[str]) -> None:
        self.name = name
        self.matcher = matcher  # TOOL, OPEN, a closed set of values, or None (no matcher support)
        self.types = types  # handler types the event runs


def _values(*names: str) -> frozenset[str]:
    return frozenset(names)


_EVENTS = [
    Event("PreToolUse", TOOL, ALL_TYPES),
    Event("PostToolUse", TOOL, ALL_TYPES),
    Event("PostToolUseFailure", TOOL, ALL_TYPES),
    Event("PermissionRequest", TOOL, ALL_TYPES),
    Event("PermissionDenied", TOOL, ALL_TYPES),
    Event("Notification", _values("permission_prompt", "idle_prompt", "auth_success", "elicitation_dialog",
                                  "elicitation_url_dialog", "elicitation_complete", "elicitation_response",
                                  "agent_needs_input", "agent_completed"), CHM),
    Event("Stop", None, ALL_TYPES),
    Event("SubagentStop", OPEN, ALL_TYPES),
    Event("SubagentStart", OPEN, CHM),
    Event("PreCompact", _values("manual", "auto"), CHM),
    Event("PostCompact", _values("manual", "auto"), CHM),
    Event("UserPromptSubmit", None, ALL_TYPES),
    Event("UserPromptExpansion", OPEN, ALL_TYPES),
    Event("SessionStart", _values("startup", "resume", "clear", "compact", "fork"), CM),
    # bypass_permissions_disabled was removed in 2.1.234; older hosts still send it
    Event("SessionEnd", _values("clear", "resume", "logout", "prompt_input_exit", "other",
                                "bypass_permissions_disabled"), CHM),
    Event("Setup", _values("init", "maintenance"), CM),
    Event("TeammateIdle", None, ALL_TYPES),
    Event("TaskCreated", None, ALL_TYPES),
    Event("TaskCompleted", None, ALL_TYPES),
    Event("ConfigChange", _values("user_settings", "project_settings", "local_settings", "policy_settings",
                                  "skills"), CHM),
    Event("WorktreeCreate", None, CHM),
    Event("WorktreeRemove", None, CHM),
    Event("InstructionsLoaded", _values("session_start", "nested_traversal", "path_glob_match", "include",
                                        "compact"), CHM),
    Event("Elicitation", OPEN, CHM),
    Event("ElicitationResult", OPEN, CHM),
    Event("StopFailure", _values("rate_limit", "overloaded", "authentication_failed", "oauth_org_not_allowed",
                                 "billing_error", "invalid_request", "model_not_found", "server_error",
                                 "max_output_tokens", "unknown"), CHM),
    Event("CwdChanged", None, CHM),
    Event("FileChanged", OPEN, CHM),
    Event("PostToolBatch", None, ALL_TYPES),
    Event("MessageDisplay", None, CHM),
    Event("DirectoryAdded", _values("slash_command", "register_repo_root"), CHM),
    Event("PreModelSwitch", OPEN, CHM),  # 2.1.251 ([H-new]); not in SchemaStore yet
    Event("PostModelSwitch", OPEN, ALL_TYPES),  # 2.1.251, third-party report: nothing else known
    # 2.1.332: a skill's shell line; the matcher is tested against tool_name, Bash (measured); its
    # handler types are the binary's description's (prompt and agent hooks do not run there)
    Event("PreSkillShellCommand", TOOL, CHM),
]
CLAUDE_EVENTS: dict[str, Event] = {e.name: e for e in _EVENTS}

# `if` is evaluated only on these; on any other event a handler with `if` never runs
# (PreSkillShellCommand: measured on 2.1.332, `Bash(echo *)` fired on `echo ...`, `Bash(git *)` did not)
IF_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied",
                       "PreSkillShellCommand"})
# events whose exact-match matcher set is narrower (letters, digits, _ and | only)
NARROW_EXACT_EVENTS = frozenset({"FileChanged", "StopFailure"})
# events added after 2.1.195 (docs/hosts/claude-code.md#events): every host that runs them reads matchers the new way
NEWER_THAN_MATCHER_CHANGE = frozenset({"DirectoryAdded", "PreModelSwitch", "PostModelSwitch"})

class OneOf(frozenset[str]):
    """A field whose value must be one of these strings."""


COMMON_FIELDS = {"type": str, "if": str, "timeout": (int, float), "statusMessage": str}
# onFailure: "continue" or "block" (docs/hosts/claude-code.md#on-failure); an mcp_tool hook reads any other value as "block"
ON_FAILURE = OneOf(ON_FAILURE_VALUES)
# the keys the binary's schema marks @internal (docs/hosts/claude-code.md#handler-fields): `cloud`
# ("device" or "skip"; any other value reads as "skip"), `rewakeMessage` and `rewakeSummary` (an
# asyncRewake hook's words), `holdsTools` (2.1.332; the official security-guidance plugin's)
INTERNAL_COMMAND_FIELDS = {"cloud": object, "rewakeMessage": str, "rewakeSummary": str, "holdsTools": bool}
TYPE_FIELDS: dict[str, dict[str, object]] = {
    "command": {"command": str, "args": "strings", "async": bool, "asyncRewake": bool, "shell": str,
                "onFailure": ON_FAILURE, **INTERNAL_COMMAND_FIELDS},
    "http": {"url": str, "headers": "string-map", "allowedEnvVars": "strings", "onFailure": ON_FAILURE,
             "cloud": object},
    "mcp_tool": {"server": str, "tool": str, "input": dict, "onFailure": object},
    "prompt": {"prompt": str, "model": str, "continueOnBlock": bool},
    "agent": {"prompt": str, "model": str},
}
REQUIRED_FIELDS = {"command": ("command",), "http": ("url",), "mcp_tool": ("server", "tool"),
                   "prompt": ("prompt",), "agent": ("prompt",)}
SHELLS = ("bash", "powershell")
GROUP_KEYS = frozenset({"matcher", "hooks"})

# Built-in tool names, current and former (a matcher on a former name is not a typo). The
# current list is SchemaStore's permission-rule tool list (Claude Code ~2.1.220) plus the
# tools the hooks reference and the corpus name.
BUILTIN_TOOLS = (
    "Agent", "Artifact", "AskUserQuestion", "Bash", "BashOutput", "Cd", "CronCreate", "CronDelete",
    "CronList", "Edit", "EnterPlanMode", "EnterWorktree", "ExitPlanMode", "ExitWorktree", "Glob", "Grep",
    "KillBash", "KillShell", "LS", "LSP", "ListMcpResourcesTool", "MCPSearch", "Monitor", "MultiEdit",
    "NotebookEdit", "NotebookRead", "PowerShell", "Read", "ReadMcpResourceTool", "SendMessage",
    "ShareOnboardingGuide", "Skill", "SlashCommand", "Task", "TaskCreate", "TaskGet", "TaskList",
    "TaskOutput", "TaskStop", "TaskUpdate", "TeamCreate", "TeamDelete", "TodoRead", "TodoWrite",
    "ToolSearch", "WebFetch", "WebSearch", "Workflow", "Write",
)

# Kill switches and policy keys that explain why hooks "don't run" (docs/hosts/claude-code.md#kill-switches)
SCOPE_ORDER = {"user": 0, "project": 1, "local": 2, "managed": 3}  # precedence of ordinary keys, low to high
DISABLE_ALL = "disableAllHooks"
MANAGED_ONLY_KEYS = ("allowManagedHooksOnly", "strictPluginOnlyCustomization")

# ---- Cursor ----------------------------------------------------------------------------------

CURSOR_EVENTS = frozenset(cursor_protocol.PROTOCOL)
CURSOR_FIELDS = {"command": str, "type": str, "prompt": str, "model": str, "timeout": (int, float),
                 "matcher": str, "loop_limit": (int, type(None)), "failClosed": bool}
CURSOR_TYPES = ("command", "prompt")
# Claude Code handler fields a Cursor entry does not have (`once`: Claude Code's skill frontmatter)
CLAUDE_ONLY_FIELDS = frozenset({*COMMON_FIELDS, *(key for fields in TYPE_FIELDS.values() for key in fields),
                                "once"}) - set(CURSOR_FIELDS)
# Cursor's name for a Claude Code event, where it has one
CLAUDE_TO_CURSOR = {
    "PreToolUse": "preToolUse", "PostToolUse": "postToolUse", "PostToolUseFailure": "postToolUseFailure",
    "SessionStart": "sessionStart", "SessionEnd": "sessionEnd", "SubagentStart": "subagentStart",
    "SubagentStop": "subagentStop", "PreCompact": "preCompact", "Stop": "stop",
    "UserPromptSubmit": "beforeSubmitPrompt",
}

# ---- other agents (recognised so that they are not reported as broken Claude files) ------------

GEMINI_EVENTS = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel",
                           "BeforeToolSelection", "PreCompress"})
OPENCODE_HOOK_KEYS = ("tool.execute.before", "tool.execute.after", "@opencode-ai/plugin", "chat.message",
                      "experimental.chat.", "session.idle", "permission.ask", "shell.env")


def fold(name: str) -> str:
    """Compare event names loosely: `session-start`, `Session_Start` and `SessionStart` are one name."""
    return name.replace("-", "").replace("_", "").replace(" ", "").lower()


FOLDED_CLAUDE_EVENTS = {fold(name): name for name in CLAUDE_EVENTS}
FOLDED_CURSOR_EVENTS = {fold(name): name for name in CURSOR_EVENTS}


# Hook input in environment variables, as old docs and blog posts show it: Claude Code sets none of
# these; the input comes only on stdin (docs/hosts/claude-code.md#environment)
LEGACY_INPUT_VARIABLE = r"CLAUDE_(?:TOOL|HOOK|FILE|BASH|NOTIFICATION|EXIT)[A-Za-z0-9_]*"
# the same, without the prefix, as some examples write them: only where the command itself is read
# (a script of its own may well set FILE_PATH before it reads it)
GENERIC_INPUT_VARIABLE = r"TOOL_(?:INPUT|NAME|OUTPUT|RESPONSE)|FILE_PATHS?|STDIN|ARGUMENTS"
