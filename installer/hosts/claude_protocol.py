"""How Claude Code reads a command hook's answer, per event, as data.

One row per event: what exit 2 does there, where plain stdout goes, which decision the event
reads (and the values it accepts), which `hookSpecificOutput` fields it knows, and which
top-level fields. `simulate` reads a hook's output through this table, so a host version that
changes an event is one edit here.

Sources: ../shared/reference/claude-code-hooks.md §2.1 (which events exit 2 blocks), §5 (exit
codes and stdout), §6 (JSON output per event); claude-code-observed.md a-h, m, n (measured on
2.1.328, where it wins): exit 2 blocks whatever stdout says, and its message is the JSON's reason
when the JSON blocks too; JSON is read after leading whitespace; a `hookSpecificOutput` with a
missing or wrong `hookEventName`, an invalid decision or a wrongly typed field voids the whole
answer ("A hook gave no usable answer"); exit 1 with valid JSON is read like exit 0; unknown
field names are ignored without a word; `continue: false` lets an allowed tool run, then stops.
"""
from __future__ import annotations

from typing import NamedTuple

# What exit 2 does
BLOCKS = "blocks"  # the action does not happen; stderr (or the JSON's reason) says why
FEEDBACK = "feedback"  # the action happened; stderr goes to Claude
IGNORED = "ignored"  # nothing: stderr is discarded (PermissionRequest)
NOT_READ = "not read"  # a non-blocking error like any other exit code
FAILS = "fails"  # any non-zero exit fails the action (WorktreeCreate)

# Where plain (non-JSON) stdout on exit 0 goes
CONTEXT = "context"  # added to Claude's context
DEBUG_LOG = "debug log"  # nowhere the model or the user sees
PATH = "path"  # the answer itself (WorktreeCreate prints a path)

UNIVERSAL_FIELDS = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "terminalSequence"})


class EventProtocol(NamedTuple):
    exit_2: str
    plain_stdout: str = DEBUG_LOG
    # hookSpecificOutput.permissionDecision values (PreToolUse), or None
    permission_decisions: frozenset[str] | None = None
    # top-level "decision" values, or None when the event has no top-level decision
    decisions: frozenset[str] | None = None
    specific_fields: frozenset[str] = frozenset()  # hookSpecificOutput fields besides hookEventName
    tool_event: bool = False  # its payload carries tool_name and tool_input
    stop_event: bool = False  # a block keeps Claude going (the payload carries stop_hook_active)
    after_the_fact: bool = False  # the action has happened: a "block" is feedback to Claude, not a stop
    defaults: tuple[tuple[str, object], ...] = ()  # payload fields a simulated call gets unless given


_BLOCK = frozenset({"block"})

PROTOCOL: dict[str, EventProtocol] = {
    "PreToolUse": EventProtocol(
        BLOCKS, permission_decisions=frozenset({"allow", "deny", "ask", "defer"}),
        decisions=frozenset({"approve", "block"}),  # deprecated: mapped to allow and deny
        specific_fields=frozenset({"permissionDecision", "permissionDecisionReason", "updatedInput",
                                   "additionalContext"}), tool_event=True),
    "PermissionRequest": EventProtocol(IGNORED, specific_fields=frozenset({"decision"}), tool_event=True),
    "PostToolUse": EventProtocol(FEEDBACK, decisions=_BLOCK, tool_event=True, after_the_fact=True,
                                 defaults=(("tool_response", {}),), specific_fields=frozenset(
        {"additionalContext", "classifierContext", "updatedToolOutput", "updatedMCPToolOutput"})),
    "PostToolUseFailure": EventProtocol(FEEDBACK, decisions=_BLOCK, tool_event=True, after_the_fact=True,
                                        defaults=(("error", ""), ("is_interrupt", False)),
                                        specific_fields=frozenset({"additionalContext"})),
    "PermissionDenied": EventProtocol(NOT_READ, tool_event=True, specific_fields=frozenset({"retry"})),
    "PostToolBatch": EventProtocol(BLOCKS, decisions=_BLOCK, specific_fields=frozenset({"additionalContext"})),
    "UserPromptSubmit": EventProtocol(BLOCKS, CONTEXT, decisions=_BLOCK, defaults=(("prompt", ""),), specific_fields=frozenset(
        {"additionalContext", "sessionTitle", "suppressOriginalPrompt"})),
    "UserPromptExpansion": EventProtocol(BLOCKS, CONTEXT, decisions=_BLOCK,
                                         specific_fields=frozenset({"additionalContext"})),
    "Stop": EventProtocol(BLOCKS, decisions=_BLOCK, specific_fields=frozenset({"additionalContext"}),
                          stop_event=True, defaults=(("stop_hook_active", False), ("last_assistant_message", ""))),
    "SubagentStop": EventProtocol(BLOCKS, decisions=_BLOCK, specific_fields=frozenset({"additionalContext"}),
                                  stop_event=True, defaults=(("stop_hook_active", False), ("agent_type", ""))),
    "SessionStart": EventProtocol(NOT_READ, CONTEXT, defaults=(("source", "startup"),), specific_fields=frozenset(
        {"additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"})),
    "Setup": EventProtocol(NOT_READ, defaults=(("trigger", "init"),), specific_fields=frozenset({"additionalContext"})),
    "SubagentStart": EventProtocol(NOT_READ, specific_fields=frozenset({"additionalContext"})),
    "PreCompact": EventProtocol(BLOCKS, decisions=_BLOCK, defaults=(("trigger", "manual"), ("custom_instructions", ""))),
    "ConfigChange": EventProtocol(BLOCKS, decisions=_BLOCK),
    "TeammateIdle": EventProtocol(BLOCKS),
    "TaskCompleted": EventProtocol(BLOCKS),
    "TaskCreated": EventProtocol(BLOCKS, decisions=_BLOCK),
    "WorktreeCreate": EventProtocol(FAILS, PATH, specific_fields=frozenset({"worktreePath"})),
    "Elicitation": EventProtocol(BLOCKS, specific_fields=frozenset({"action", "content"})),
    "ElicitationResult": EventProtocol(BLOCKS, specific_fields=frozenset({"action", "content"})),
    "MessageDisplay": EventProtocol(NOT_READ, specific_fields=frozenset({"displayContent"})),
    "PreModelSwitch": EventProtocol(BLOCKS, decisions=_BLOCK,
                                    permission_decisions=frozenset({"allow", "deny", "ask"})),
}
NO_DECISION = EventProtocol(NOT_READ)  # Notification, SessionEnd, PostCompact, StopFailure, CwdChanged...
# the events whose hooks get CLAUDE_ENV_FILE, a file whose `export` lines the session keeps (hooks.md §10)
ENV_FILE_EVENTS = frozenset({"SessionStart", "Setup", "CwdChanged", "FileChanged"})


def protocol(event: str) -> EventProtocol:
    return PROTOCOL.get(event, NO_DECISION)
