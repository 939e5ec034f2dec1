"""What Claude Code sends a command hook on stdin, for one event (docs/hosts/claude-code.md#stdin-payload;
docs/hosts/claude-code.md#stdin-payload): the common fields, the tool's on tool events, the event's own defaults
(installer/hosts/claude_protocol.py), then whatever the caller gives. `simulate` builds its call
with it, `doctor --probe` its synthetic one, so both send the same shape.
"""
from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from ..hosts.claude_protocol import protocol


def payload_for(event: str, project: Path, transcript: Path, *, tool: str | None = None,
                tool_input: dict[str, Any] | None = None, extra: dict[str, Any] | None = None,
                permission_mode: str = "default") -> dict[str, Any]:
    """The payload of one `event` call in `project`: `extra` over the event's defaults, `tool`
    and `tool_input` (when given) over both."""
    rules = protocol(event)
    payload: dict[str, Any] = {"session_id": str(uuid.uuid4()), "transcript_path": str(transcript),
                               "cwd": str(project), "permission_mode": permission_mode, "hook_event_name": event}
    if rules.tool_event:
        payload["tool_input"] = {}
        if event != "PermissionRequest":  # the one tool event without a tool_use_id (docs/hosts/claude-code.md#stdin-payload)
            payload["tool_use_id"] = f"toolu_{uuid.uuid4().hex[:24]}"
    payload.update(rules.defaults)
    payload.update(extra or {})
    payload.update((name, value) for name, value in (("tool_name", tool), ("tool_input", tool_input))
                   if value is not None)
    return payload
