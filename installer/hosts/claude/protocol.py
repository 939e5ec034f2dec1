"""How Claude Code reads a command hook's answer, per event, as data.

One row per event: what it sends on stdin, what exit 2 does there, where plain stdout goes, which
decision the event reads (and the values it accepts), which `hookSpecificOutput` fields it
knows, what `continue: false` does, and (below) which environment variables its hooks get.
`simulate` reads a hook's output through this table and doctor's script rules judge a script by
it, so a host version that changes an event is one edit here.

Sources: docs/hosts/claude-code.md#events (which events exit 2 blocks), #exit-codes (exit codes
and stdout), #json-fields and #decisions-per-event (JSON output per event), #measured (measured on
2.1.328, where it wins): exit 2 blocks whatever stdout says, and its message is the JSON's reason
when the JSON blocks too; JSON is read after leading whitespace; a `hookSpecificOutput` with a
missing or wrong `hookEventName`, an invalid decision or a wrongly typed field voids the whole
answer ("A hook gave no usable answer"); exit 1 with valid JSON is read like exit 0; unknown
field names are ignored without a word; `continue: false` lets an allowed tool run, then stops,
and in `claude -p` stops nothing on PermissionRequest, PostToolUseFailure and SessionStart (the
session went on to the model's answer); a PermissionRequest deny with `interrupt: true` ends the
run; PostToolUse's `updatedToolOutput` (and `updatedMCPToolOutput` for an MCP tool) is what the
model gets instead of the tool's result, when it has the result's shape. Measured on 2.1.332
(docs/hosts/claude-code.md#preskillshellcommand, #on-failure): a skill's shell lines and what a handler's `onFailure`
does (below the table).
"""
from __future__ import annotations

import os

from . import HOOK_ENVIRONMENT

# What exit 2 does
ANSWER_TABLE = "claude-code-answers"  # this table's name, as an adapter names the one its hooks are read by
BLOCKS = "blocks"  # the action does not happen; stderr (or the JSON's reason) says why
FEEDBACK = "feedback"  # the action happened; stderr goes to Claude
IGNORED = "ignored"  # nothing: stderr is discarded (PermissionRequest)
NOT_READ = "not read"  # a non-blocking error like any other exit code
FAILS = "fails"  # any non-zero exit fails the action (WorktreeCreate)

# Where plain (non-JSON) stdout on exit 0 goes
CONTEXT = "context"  # added to Claude's context
DEBUG_LOG = "debug log"  # nowhere the model or the user sees
PATH = "path"  # the answer itself (WorktreeCreate prints a path)

# What {"continue": false} does (docs/hosts/claude-code.md#json-fields, #decisions-per-event)
STOPS = "stops Claude"  # Claude stops after the hooks run
STOPS_AFTER = "runs the tool, then stops Claude"  # PreToolUse: the allowed tool still runs first
CONTINUE_IGNORED = "ignored"  # TaskCreated; in claude -p PermissionRequest, PostToolUseFailure, SessionStart (measured)

COMMON_INPUT = frozenset({"session_id", "transcript_path", "cwd", "hook_event_name", "prompt_id", "permission_mode",
                          "effort", "agent_id", "agent_type"})
TOOL_INPUT = frozenset({"tool_name", "tool_input"})
TASK_INPUT = frozenset({"task_id", "task_subject", "task_description", "teammate_name", "team_name"})
STOP_INPUT = frozenset({"stop_hook_active", "last_assistant_message", "background_tasks", "session_crons"})
UNIVERSAL_FIELDS = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "terminalSequence"})


class EventProtocol:
    def __init__(self, exit_2: str, plain_stdout: str = DEBUG_LOG, permission_decisions: frozenset[str] | None = None,
                 decisions: frozenset[str] | None = None, specific_fields: frozenset[str] = frozenset(),
                 tool_event: bool = False, after_the_fact: bool = False, defaults: tuple[tuple[str, object], ...] = (),
                 sends: frozenset[str] = frozenset(), continue_false: str = STOPS,
                 also_named: frozenset[str] = frozenset(), blocks_unless_allowed: bool = False,
                 exit_2_names_command: bool = True) -> None:
        self.exit_2 = exit_2
        self.plain_stdout = plain_stdout
        # hookSpecificOutput.permissionDecision values (PreToolUse), or None
        self.permission_decisions = permission_decisions
        # top-level "decision" values, or None when the event has no top-level decision
        self.decisions = decisions
        self.specific_fields = specific_fields  # hookSpecificOutput fields besides hookEventName
        self.tool_event = tool_event  # its payload carries tool_name and tool_input
        self.after_the_fact = after_the_fact  # the action has happened: a "block" is feedback to Claude, not a stop
        self.defaults = defaults  # payload fields a simulated call gets unless given
        self.sends = sends  # the input fields it adds to COMMON_INPUT (docs/hosts/claude-code.md#stdin-payload)
        self.continue_false = continue_false  # what {"continue": false} does there
        self.also_named = also_named  # hookEventName values it takes besides its own name
        # any answer but allow (or none) blocks: ask and defer (nothing can wait for an approval
        # there), a rewrite (not supported there) and continue: false, which also stops Claude
        self.blocks_unless_allowed = blocks_unless_allowed
        # exit 2's reason is "[<command>]: <stderr>" (False: stderr alone)
        self.exit_2_names_command = exit_2_names_command


_BLOCK = frozenset({"block"})

PROTOCOL: dict[str, EventProtocol] = {
    "PreToolUse": EventProtocol(
        BLOCKS, permission_decisions=frozenset({"allow", "deny", "ask", "defer"}),
        decisions=frozenset({"approve", "block"}),  # deprecated: mapped to allow and deny
        specific_fields=frozenset({"permissionDecision", "permissionDecisionReason", "updatedInput",
                                   "additionalContext"}), tool_event=True,
        sends=TOOL_INPUT | {"tool_use_id"}, continue_false=STOPS_AFTER),
    # a skill's !`cmd` shell line, before it runs (2.1.332; a PreToolUse hook never sees these lines):
    # additionalContext and plain stdout reach nobody (docs/hosts/claude-code.md#preskillshellcommand)
    "PreSkillShellCommand": EventProtocol(
        BLOCKS, permission_decisions=frozenset({"allow", "deny", "ask", "defer"}),
        decisions=frozenset({"approve", "block"}),
        specific_fields=frozenset({"permissionDecision", "permissionDecisionReason", "updatedInput"}), tool_event=True,
        sends=TOOL_INPUT | {"tool_use_id", "command_name", "command_source", "invoked_by"},
        defaults=(("command_name", "skill"), ("command_source", "projectSettings"), ("invoked_by", "user")),
        also_named=frozenset({"PreToolUse"}), blocks_unless_allowed=True, exit_2_names_command=False),
    "PermissionRequest": EventProtocol(IGNORED, specific_fields=frozenset({"decision"}), tool_event=True,
                                       sends=TOOL_INPUT | {"permission_suggestions"}, continue_false=CONTINUE_IGNORED),
    "PostToolUse": EventProtocol(FEEDBACK, decisions=_BLOCK, tool_event=True, after_the_fact=True,
                                 defaults=(("tool_response", {}),), specific_fields=frozenset(
        {"additionalContext", "classifierContext", "updatedToolOutput", "updatedMCPToolOutput"}),
        sends=TOOL_INPUT | {"tool_response", "tool_use_id", "duration_ms"}),
    "PostToolUseFailure": EventProtocol(FEEDBACK, decisions=_BLOCK, tool_event=True, after_the_fact=True,
                                        defaults=(("error", ""), ("is_interrupt", False)),
                                        specific_fields=frozenset({"additionalContext"}),
                                        sends=TOOL_INPUT | {"tool_use_id", "error", "is_interrupt", "duration_ms"},
                                        continue_false=CONTINUE_IGNORED),
    "PermissionDenied": EventProtocol(NOT_READ, tool_event=True, specific_fields=frozenset({"retry"}),
                                      sends=TOOL_INPUT | {"tool_use_id", "reason"}),
    "PostToolBatch": EventProtocol(BLOCKS, decisions=_BLOCK, specific_fields=frozenset({"additionalContext"}),
                                   sends=frozenset({"tool_calls"})),
    "UserPromptSubmit": EventProtocol(BLOCKS, CONTEXT, decisions=_BLOCK, defaults=(("prompt", ""),), specific_fields=frozenset(
        {"additionalContext", "sessionTitle", "suppressOriginalPrompt"}), sends=frozenset({"prompt"})),
    "UserPromptExpansion": EventProtocol(BLOCKS, CONTEXT, decisions=_BLOCK,
                                         specific_fields=frozenset({"additionalContext"}), sends=frozenset(
        {"expansion_type", "command_name", "command_args", "command_source", "prompt"})),
    "Stop": EventProtocol(BLOCKS, decisions=_BLOCK, specific_fields=frozenset({"additionalContext"}),
                          defaults=(("stop_hook_active", False), ("last_assistant_message", "")),
                          sends=STOP_INPUT),
    "SubagentStop": EventProtocol(BLOCKS, decisions=_BLOCK, specific_fields=frozenset({"additionalContext"}),
                                  defaults=(("stop_hook_active", False), ("agent_type", "")),
                                  sends=STOP_INPUT | {"agent_transcript_path"}),
    "SessionStart": EventProtocol(NOT_READ, CONTEXT, defaults=(("source", "startup"),), specific_fields=frozenset(
        {"additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"}),
        sends=frozenset({"source", "model", "session_title"}), continue_false=CONTINUE_IGNORED),
    "Setup": EventProtocol(NOT_READ, defaults=(("trigger", "init"),), specific_fields=frozenset({"additionalContext"}),
                           sends=frozenset({"trigger"})),
    "SubagentStart": EventProtocol(NOT_READ, specific_fields=frozenset({"additionalContext"})),
    "PreCompact": EventProtocol(BLOCKS, decisions=_BLOCK, defaults=(("trigger", "manual"), ("custom_instructions", None)),
                                sends=frozenset({"trigger", "custom_instructions"})),
    "ConfigChange": EventProtocol(BLOCKS, decisions=_BLOCK, sends=frozenset({"source", "file_path"})),
    "TeammateIdle": EventProtocol(BLOCKS, sends=frozenset({"teammate_name", "team_name"})),
    "TaskCompleted": EventProtocol(BLOCKS, sends=TASK_INPUT),
    "TaskCreated": EventProtocol(BLOCKS, decisions=_BLOCK, sends=TASK_INPUT, continue_false=CONTINUE_IGNORED),
    "WorktreeCreate": EventProtocol(FAILS, PATH, specific_fields=frozenset({"worktreePath"}), sends=frozenset({"name"})),
    "Elicitation": EventProtocol(BLOCKS, specific_fields=frozenset({"action", "content"}), sends=frozenset(
        {"mcp_server_name", "message", "mode", "url", "elicitation_id", "requested_schema"})),
    "ElicitationResult": EventProtocol(BLOCKS, specific_fields=frozenset({"action", "content"}), sends=frozenset(
        {"mcp_server_name", "action", "mode", "elicitation_id", "content"})),
    "MessageDisplay": EventProtocol(NOT_READ, specific_fields=frozenset({"displayContent"})),
    "PreModelSwitch": EventProtocol(BLOCKS, decisions=_BLOCK,
                                    permission_decisions=frozenset({"allow", "deny", "ask"}), sends=frozenset(
        {"from_model", "to_model", "requested_model", "source", "context_tokens"})),
    # no decision control (docs/hosts/claude-code.md#decisions-per-event)
    "Notification": EventProtocol(NOT_READ, sends=frozenset({"message", "title", "notification_type"})),
    "SessionEnd": EventProtocol(NOT_READ, sends=frozenset({"reason"})),
    "PostCompact": EventProtocol(NOT_READ, sends=frozenset({"trigger", "compact_summary"})),
    "StopFailure": EventProtocol(NOT_READ, sends=frozenset({"error", "error_details", "last_assistant_message"})),
    "CwdChanged": EventProtocol(NOT_READ, sends=frozenset({"old_cwd", "new_cwd"})),
    "FileChanged": EventProtocol(NOT_READ, sends=frozenset({"file_path", "event"})),
    "WorktreeRemove": EventProtocol(NOT_READ, sends=frozenset({"worktree_path"})),
    "DirectoryAdded": EventProtocol(NOT_READ, sends=frozenset({"directory", "source"})),
}
NO_DECISION = EventProtocol(NOT_READ)  # InstructionsLoaded and events newer than this table

# A handler's `onFailure` (command and http hooks; mcp_tool since 2.1.328), docs/hosts/claude-code.md#on-failure:
# "block" makes a failure (it could not start, timed out, exited with a code other than 0 and 2,
# even beside valid JSON, or printed JSON that fails the event's schema) count as exit 2; plain
# text and invalid JSON on exit 0 are no failure. "continue", the default, lets it pass.
ON_FAILURE_VALUES = ("continue", "block")
FAILS_CLOSED = "block"
ON_FAILURE_IGNORED = frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"})  # and async hooks
# the events whose handlers guard an action: one handler there that breaks the settings schema
# (a wrong type, a missing field, an onFailure of another value) makes Claude Code ignore the whole
# settings file, its permission rules too; elsewhere only that handler is dropped (measured on 2.1.332,
# docs/hosts/claude-code.md#invalid-handlers)
GUARD_EVENTS = frozenset({"PreToolUse", "PermissionRequest", "PreSkillShellCommand"})


def fails_closed(event: str, handler: dict[str, object]) -> bool:
    """Whether a failure of this handler blocks what the event guards (`onFailure: "block"`, on
    an event and a handler where the host reads it; an mcp_tool hook reads any other value than
    "continue" as "block")."""
    value = handler.get("onFailure")
    wanted = value not in (None, "continue") if handler.get("type") == "mcp_tool" else value == FAILS_CLOSED
    return (wanted and event not in ON_FAILURE_IGNORED
            and handler.get("async") is not True and handler.get("asyncRewake") is not True)
# the events whose hooks get CLAUDE_ENV_FILE, a file whose `export` lines the session keeps (docs/hosts/claude-code.md#environment)
ENV_FILE_EVENTS = frozenset({"SessionStart", "Setup", "CwdChanged", "FileChanged"})


def session_variables(session_id: str) -> dict[str, str]:
    """The values of HOOK_ENVIRONMENT's session variables a simulated call gives its hooks (measured
    on 2.1.328: CLAUDECODE=1, the payload's session_id, the effort; CLAUDE_PID the agent's)."""
    return {"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": session_id, "CLAUDE_EFFORT": "medium",
            "CLAUDE_PID": str(os.getpid())}


def environment(event: str) -> frozenset[str]:
    """The variables a command hook of `event` finds set (docs/hosts/claude-code.md#environment)."""
    return HOOK_ENVIRONMENT | ({"CLAUDE_ENV_FILE"} if event in ENV_FILE_EVENTS else frozenset())


def protocol(event: str) -> EventProtocol:
    return PROTOCOL.get(event, NO_DECISION)


# the required fields of the built-in tools' input, with their JSON types: a hook's updatedInput
# that lacks one or gives it another type fails the tool's schema, and the call is refused
# (measured on 2.1.328: "returned updatedInput that failed schema validation")
TOOL_INPUT_REQUIRED: dict[str, dict[str, type]] = {
    "Bash": {"command": str}, "Read": {"file_path": str}, "Write": {"file_path": str, "content": str},
    "Edit": {"file_path": str, "old_string": str, "new_string": str}, "MultiEdit": {"file_path": str, "edits": list},
    "Glob": {"pattern": str}, "Grep": {"pattern": str}, "WebFetch": {"url": str, "prompt": str},
    "WebSearch": {"query": str}, "NotebookEdit": {"notebook_path": str, "new_source": str},
}


def input_schema_error(tool: str | None, tool_input: dict[str, object]) -> str | None:
    """Why a rewritten input fails the tool's schema (a required field missing or of another type), or None."""
    for name, kind in TOOL_INPUT_REQUIRED.get(tool or "", {}).items():
        if name not in tool_input:
            return f"the required parameter `{name}` is missing"
        if not isinstance(tool_input[name], kind) or isinstance(tool_input[name], bool):
            return f"`{name}` is not a {'string' if kind is str else 'list'}"
    return None


def cannot_block(event: str, payload: dict[str, object]) -> str | None:
    """Why no hook can block this call of an event that blocks otherwise (docs/hosts/claude-code.md#events:
    ConfigChange blocks, except a change to the managed policy settings), or None."""
    if event == "ConfigChange" and payload.get("source") == "policy_settings":
        return "a change to the managed policy settings cannot be blocked"
    return None


# SessionEnd hooks share one budget: 1.5 s, raised to the largest timeout a settings file gives one of
# them (a plugin's does not count), up to 60 s; CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS sets it
# (docs/hosts/claude-code.md#timeouts)
SESSION_END_BUDGET = 1.5
SESSION_END_MAX_BUDGET = 60.0
SESSION_END_BUDGET_VARIABLE = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"


def session_end_budget(timeouts: list[float]) -> float:
    """The budget the SessionEnd timeouts of the settings files give (a plugin's do not count)."""
    return max(SESSION_END_BUDGET, min(max(timeouts, default=0), SESSION_END_MAX_BUDGET))


# what exit 2 does per event (docs/hosts/claude-code.md#events, #exit-codes): `python3 missing.py` exits 2
BLOCKED_BY_EXIT_2 = {
    "PreToolUse": "every tool call it matches is refused",
    "UserPromptSubmit": "every prompt is erased",
    "UserPromptExpansion": "every expansion is blocked",
    "Stop": "Claude is told to keep going each time it tries to stop",
    "SubagentStop": "subagents are told to keep going each time they try to stop",
    "PreCompact": "compaction is blocked",
    "ConfigChange": "settings changes are blocked",
    "TeammateIdle": "the event is blocked", "TaskCreated": "every task creation is rolled back",
    "TaskCompleted": "the event is blocked", "PostToolBatch": "the agent loop stops",
    "Elicitation": "the elicitation is blocked", "ElicitationResult": "the elicitation result is blocked",
    "WorktreeCreate": "worktree creation fails", "PreModelSwitch": "model switches are refused",
}

CLAUDE_GATES = frozenset({"PreToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "ConfigChange"})
ACTION_GUARDS = frozenset({"PreToolUse", "PermissionRequest", "UserPromptSubmit", "ConfigChange"})
