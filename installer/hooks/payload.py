"""What Claude Code sends a command hook on stdin, for one event (docs/hosts/claude-code.md#stdin-payload):
the common fields, the tool's on tool events, the event's own defaults
(installer/hosts/claude/protocol.py), then whatever the caller gives. `simulate` builds its call
with it, `doctor --probe` its synthetic one, so both send the same shape.

Measured on 2.1.328 (one `claude -p` run per event, the payload a hook read compared field by
field; PreSkillShellCommand's on 2.1.332): `prompt_id` and `effort` come where PROMPT_EVENTS and EFFORT_EVENTS say, SessionStart,
SubagentStart and PreCompact get no `permission_mode`, and a file tool's relative path reaches
the hooks, and the tool, made absolute against the working directory (Edit gets its
`replace_all: false` too).
"""
from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any

from ..hosts.claude.protocol import protocol

PROMPT_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "UserPromptSubmit",
                           "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PreSkillShellCommand"})
EFFORT_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "Stop",
                           "SubagentStop", "PreSkillShellCommand"})
WITHOUT_PERMISSION_MODE = frozenset({"SessionStart", "SubagentStart", "PreCompact"})
FILE_PATH_FIELD = {"Read": "file_path", "Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path",
                   "NotebookEdit": "notebook_path"}
BASH_RESPONSE = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False, "noOutputExpected": False}


def payload_for(event: str, project: Path, transcript: Path, *, tool: str | None = None,
                tool_input: dict[str, Any] | None = None, extra: dict[str, Any] | None = None,
                permission_mode: str = "default") -> dict[str, Any]:
    """The payload of one `event` call in `project`: `extra` over the event's defaults, `tool`
    and `tool_input` (when given) over both."""
    rules = protocol(event)
    payload: dict[str, Any] = {"session_id": str(uuid.uuid4()), "transcript_path": str(transcript),
                               "cwd": str(project), "hook_event_name": event}
    if event not in WITHOUT_PERMISSION_MODE:
        payload["permission_mode"] = permission_mode
    if event in PROMPT_EVENTS:
        payload["prompt_id"] = str(uuid.uuid4())
    if event in EFFORT_EVENTS:
        payload["effort"] = {"level": "medium"}
    if rules.tool_event:
        payload["tool_input"] = {}
        if event == "PreSkillShellCommand":  # a skill's line is no tool call: "<uuid>:inner:preamble-<n>" (2.1.332)
            payload["tool_use_id"] = f"{uuid.uuid4()}:inner:preamble-0"
        elif event != "PermissionRequest":  # the one tool event without a tool_use_id (docs/hosts/claude-code.md#stdin-payload)
            payload["tool_use_id"] = f"toolu_{uuid.uuid4().hex[:24]}"
    if rules.after_the_fact:
        payload["duration_ms"] = 0
    payload.update(rules.defaults)
    payload.update(extra or {})
    payload.update((name, value) for name, value in (("tool_name", tool), ("tool_input", tool_input))
                   if value is not None)
    if event == "PostToolUse" and payload.get("tool_name") == "Bash" and payload.get("tool_response") == {}:
        payload["tool_response"] = dict(BASH_RESPONSE)
    if isinstance(payload.get("tool_input"), dict):
        payload["tool_input"] = as_the_tool_gets_it(payload.get("tool_name"), payload["tool_input"], payload["cwd"])
    return payload


def as_the_tool_gets_it(tool: Any, tool_input: dict[str, Any], cwd: str) -> dict[str, Any]:
    """A file tool's input with its path made absolute (and Edit's replace_all given), as Claude
    Code hands it to the hooks and to the tool, before and after a hook's rewrite."""
    field = FILE_PATH_FIELD.get(tool) if isinstance(tool, str) else None
    if field is None:
        return tool_input
    out = dict(tool_input)
    path = out.get(field)
    if isinstance(path, str) and path and not os.path.isabs(path) and not path.startswith("~"):
        out[field] = os.path.normpath(os.path.join(cwd, path))
    if tool == "Edit":
        out.setdefault("replace_all", False)
    return out
