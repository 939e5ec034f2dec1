"""How Cursor talks to a hook, per event, as data.

One row per event: the fields its stdin carries (and which of them come as a JSON string or as
an object, where that differs by event), the output fields it honours, which
`permission` values it reads (and what `ask` does there), whether exit 2 / a deny blocks,
whether a `followup_message` keeps the agent going, and what its `matcher` is tested against.
doctor's Cursor checks (the entry side in checks/cursor.py, a script's answer in
checks/scripts/) read Cursor through this table, so a Cursor version that changes an event is
one edit here.

Sources: docs/hosts/cursor.md#events (events, stdin, output fields honoured, exit codes: 0
reads stdout's JSON, 2 blocks like `permission: "deny"`, anything else fails open unless
`failClosed`; `stop` ignores `permission`), #matchers, #file-format (`loop_limit` caps `stop` /
`subagentStop` follow-ups), with Cursor's hooks docs behind them (#sources).
"""
from __future__ import annotations

# What a matcher is tested against (docs/hosts/cursor.md#matchers)
ANSWER_TABLE = "cursor-answers"  # this table's name, as an adapter names the one its hooks are read by
TOOL = "tool"  # the tool type: Shell, Read, Write, Grep, Delete, Task, MCP:<tool>
COMMAND = "command"  # the full shell command text
SUBAGENT = "subagent"  # the subagent type: generalPurpose, explore, shell...
LITERAL = "literal"  # one fixed value (`literal`): beforeSubmitPrompt's is UserPromptSubmit
FILE = "file"  # the kind of file operation: Read, TabRead / Write, TabWrite
NONE = "none"  # the docs name no matcher subject for the event
# The tool types a TOOL matcher names (Edit, StrReplace, TabWrite: third-party configs, unconfirmed)
TOOL_TYPES = ("Shell", "Read", "Write", "Grep", "Delete", "Task", "Edit", "StrReplace", "TabWrite")
# the Claude Code tools a Cursor tool type in a matcher fires for (docs/hosts/cursor.md#matchers)
CLAUDE_TOOLS_OF_TYPE = {"Shell": ("Bash",), "Read": ("Read",), "Write": ("Write", "Edit", "MultiEdit"),
                        "Edit": ("Edit", "MultiEdit"), "Grep": ("Grep",), "Task": ("Task", "Agent")}

# What `permission: "ask"` does where the event reads `permission`
ASKS = "asks"  # the user is asked
NOT_ENFORCED = "not enforced"  # accepted by the schema, the action goes on (preToolUse)
DENIES = "denies"  # treated as deny (subagentStart)

# Every agent hook's stdin (workspaceOpen, an app hook, has none of the conversation fields)
COMMON_STDIN = frozenset({"conversation_id", "generation_id", "model", "model_id", "model_params", "hook_event_name",
                          "cursor_version", "workspace_roots", "user_email", "transcript_path"})


class CursorEventProtocol:
    def __init__(self, stdin_fields: frozenset[str], output_fields: frozenset[str],
                 permissions: frozenset[str] | None = None, ask: str | None = None, blocks: bool = False,
                 continues: bool = False, matcher_subject: str = NONE, literal: str | None = None,
                 json_text: frozenset[str] = frozenset(), objects: frozenset[str] = frozenset()) -> None:
        self.stdin_fields = stdin_fields
        self.output_fields = output_fields  # the answer's fields the event honours; any other is ignored
        self.permissions = permissions  # accepted values of `permission`; None: not read
        self.ask = ask  # what `ask` does (ASKS, NOT_ENFORCED, DENIES), where it is accepted
        self.blocks = blocks  # exit 2 or a deny stops the action; also what `failClosed` can do
        self.continues = continues  # `followup_message` keeps the agent going, capped by `loop_limit`
        self.matcher_subject = matcher_subject
        self.literal = literal  # the one value a LITERAL matcher is tested against
        # stdin fields whose type differs by event: sent as a JSON string here, or as an object here
        self.json_text = json_text
        self.objects = objects


def _stdin(*extra: str) -> frozenset[str]:
    return COMMON_STDIN | frozenset(extra)


_TOOL_STDIN = ("tool_name", "tool_input", "tool_use_id", "cwd")
_INPUT_OBJECT = frozenset({"tool_input"})  # (beforeMCPExecution sends tool_input as a JSON string)
_ALLOW_DENY = frozenset({"allow", "deny"})
_ALLOW_DENY_ASK = frozenset({"allow", "deny", "ask"})
_MESSAGES = frozenset({"permission", "user_message", "agent_message"})
_NOTHING: frozenset[str] = frozenset()

PROTOCOL: dict[str, CursorEventProtocol] = {
    "sessionStart": CursorEventProtocol(
        _stdin("session_id", "is_background_agent", "composer_mode"), frozenset({"env", "additional_context"})),
    "sessionEnd": CursorEventProtocol(
        _stdin("session_id", "reason", "duration_ms", "is_background_agent", "final_status", "error_message"),
        _NOTHING),
    "preToolUse": CursorEventProtocol(
        _stdin(*_TOOL_STDIN, "agent_message"), _MESSAGES | {"updated_input"}, _ALLOW_DENY_ASK, NOT_ENFORCED,
        blocks=True, matcher_subject=TOOL, objects=_INPUT_OBJECT),
    "postToolUse": CursorEventProtocol(
        _stdin(*_TOOL_STDIN, "tool_output", "duration"), frozenset({"additional_context", "updated_mcp_tool_output"}),
        matcher_subject=TOOL, objects=_INPUT_OBJECT, json_text=frozenset({"tool_output"})),
    "postToolUseFailure": CursorEventProtocol(
        _stdin(*_TOOL_STDIN, "error_message", "failure_type", "duration", "is_interrupt"), _NOTHING,
        matcher_subject=TOOL, objects=_INPUT_OBJECT),
    "subagentStart": CursorEventProtocol(
        _stdin("subagent_id", "subagent_type", "task", "parent_conversation_id", "tool_call_id", "subagent_model",
               "is_parallel_worker", "git_branch"),
        frozenset({"permission", "user_message"}), _ALLOW_DENY_ASK, DENIES, blocks=True, matcher_subject=SUBAGENT),
    "subagentStop": CursorEventProtocol(
        _stdin("subagent_type", "status", "task", "description", "summary", "duration_ms", "message_count",
               "tool_call_count", "loop_count", "modified_files", "agent_transcript_path"),
        frozenset({"followup_message"}), continues=True, matcher_subject=SUBAGENT),
    "beforeShellExecution": CursorEventProtocol(
        _stdin("command", "cwd", "sandbox"), _MESSAGES, _ALLOW_DENY_ASK, ASKS, blocks=True, matcher_subject=COMMAND),
    "afterShellExecution": CursorEventProtocol(
        _stdin("command", "output", "duration", "sandbox"), _NOTHING, matcher_subject=COMMAND),
    "beforeMCPExecution": CursorEventProtocol(
        _stdin("tool_name", "tool_input", "url", "command"), _MESSAGES, _ALLOW_DENY_ASK, ASKS, blocks=True,
        json_text=frozenset({"tool_input"})),
    "afterMCPExecution": CursorEventProtocol(
        _stdin("tool_name", "tool_input", "result_json", "duration"), _NOTHING),
    "beforeReadFile": CursorEventProtocol(
        _stdin("file_path", "content", "attachments"), frozenset({"permission", "user_message"}), _ALLOW_DENY,
        blocks=True, matcher_subject=FILE),
    "afterFileEdit": CursorEventProtocol(_stdin("file_path", "edits"), _NOTHING, matcher_subject=FILE),
    "beforeSubmitPrompt": CursorEventProtocol(
        _stdin("prompt", "attachments"), frozenset({"continue", "user_message"}), blocks=True,
        matcher_subject=LITERAL, literal="UserPromptSubmit"),
    "preCompact": CursorEventProtocol(
        _stdin("trigger", "context_usage_percent", "context_tokens", "context_window_size", "message_count",
               "messages_to_compact", "is_first_compaction"), frozenset({"user_message"})),
    "stop": CursorEventProtocol(
        _stdin("status", "loop_count"), frozenset({"followup_message"}), continues=True,
        matcher_subject=LITERAL, literal="Stop"),
    "afterAgentResponse": CursorEventProtocol(_stdin("text"), _NOTHING, matcher_subject=LITERAL,
                                              literal="AgentResponse"),
    "afterAgentThought": CursorEventProtocol(_stdin("text", "duration_ms"), _NOTHING, matcher_subject=LITERAL,
                                             literal="AgentThought"),
    "beforeTabFileRead": CursorEventProtocol(
        _stdin("file_path", "content"), frozenset({"permission"}), _ALLOW_DENY, blocks=True),
    "afterTabFileEdit": CursorEventProtocol(_stdin("file_path", "edits"), _NOTHING),
    "workspaceOpen": CursorEventProtocol(
        frozenset({"workspace_roots", "cursor_version", "user_email"}), frozenset({"pluginPaths"})),
}


def protocol(event: str) -> CursorEventProtocol | None:
    """The event's row; None for a name Cursor does not have."""
    return PROTOCOL.get(event)
