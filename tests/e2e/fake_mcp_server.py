#!/usr/bin/env python3
"""A tiny MCP server for the e2e tests: one tool, `read_doc`, that records what it was called with.

Speaks MCP's stdio transport: JSON-RPC 2.0 messages, one per line, on stdin and stdout.
It answers `initialize`, `ping`, `tools/list` and `tools/call`, ignores notifications, and
answers any other request with "method not found". Each `tools/call` appends one line
`{"tool": name, "arguments": {...}}` to the record file named by the first argument (or
by $FAKE_MCP_RECORD), so a test can see exactly which arguments reached the server after
every hook had its say. Standard library only.

    python3 fake_mcp_server.py RECORD_FILE
"""
from __future__ import annotations

import json
import os
import sys

SERVER_INFO = {"name": "fake-docs", "version": "1.0.0"}
FALLBACK_PROTOCOL = "2025-06-18"
READ_DOC = {
    "name": "read_doc",
    "description": "Read a document from the project (test double: it only records its arguments).",
    "inputSchema": {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "the document's path"},
            "mode": {"type": "string", "description": "how to open it, e.g. r"},
        },
        "required": ["path"],
    },
}
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602


def record_file() -> str:
    if len(sys.argv) > 1:
        return sys.argv[1]
    return os.environ.get("FAKE_MCP_RECORD", "fake_mcp_calls.jsonl")


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(request_id, value: dict) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "result": value})


def error(request_id, code: int, text: str) -> None:
    send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}})


def call_tool(request_id, params: dict) -> None:
    name, arguments = params.get("name"), params.get("arguments") or {}
    if name != READ_DOC["name"]:
        error(request_id, INVALID_PARAMS, f"unknown tool {name!r}")
        return
    with open(record_file(), "a", encoding="utf-8") as out:
        out.write(json.dumps({"tool": name, "arguments": arguments}, sort_keys=True) + "\n")
    text = f"read_doc got {json.dumps(arguments, sort_keys=True)}"
    result(request_id, {"content": [{"type": "text", "text": text}], "isError": False})


def handle(message: dict) -> None:
    method, request_id = message.get("method"), message.get("id")
    if request_id is None:  # a notification (notifications/initialized, cancelled, ...)
        return
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    if method == "initialize":
        result(request_id, {"protocolVersion": params.get("protocolVersion") or FALLBACK_PROTOCOL,
                            "capabilities": {"tools": {"listChanged": False}},
                            "serverInfo": SERVER_INFO})
    elif method == "ping":
        result(request_id, {})
    elif method == "tools/list":
        result(request_id, {"tools": [READ_DOC]})
    elif method == "tools/call":
        call_tool(request_id, params)
    else:
        error(request_id, METHOD_NOT_FOUND, f"method not found: {method}")


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue  # not JSON-RPC; a real server would answer a parse error, the CLI never sends one
        if isinstance(message, dict):
            handle(message)
        elif isinstance(message, list):  # a JSON-RPC batch
            for item in message:
                if isinstance(item, dict):
                    handle(item)
    return 0


if __name__ == "__main__":
    sys.exit(main())
