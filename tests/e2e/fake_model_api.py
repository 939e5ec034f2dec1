"""A scripted fake of the Anthropic Messages API, so the real Claude Code CLI runs offline.

The "model" follows a script of turns. A turn is a text answer (a str) or the tool calls
to make (one ``{"tool": "Bash", "input": {...}}`` or a list of them). The turn that answers
a request is the number of assistant messages already in it, so request 1 gets turn 0 and
the request carrying turn 0's tool results gets turn 1; past the end the model says
"done". Every request is recorded: the tool_result blocks the CLI sends back are the only
reliable record of what a tool really did (or why a hook denied it).

Standard library only; listens on 127.0.0.1, on a free port.
"""
from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Union

ToolCall = dict  # {"tool": name, "input": {...}}
Turn = Union[str, ToolCall, list]

_USAGE = {"input_tokens": 10, "output_tokens": 5,
          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def _blocks(turn: Turn | None) -> tuple[list[dict], str]:
    """The content blocks and stop reason of one scripted turn."""
    if turn is None:
        turn = "done"
    if isinstance(turn, str):
        return [{"type": "text", "text": turn}], "end_turn"
    calls = [turn] if isinstance(turn, dict) else turn
    return [{"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:24]}",
             "name": call["tool"], "input": call.get("input", {})} for call in calls], "tool_use"


def _text_of(content: Any) -> str:
    """tool_result content is a string or a list of blocks; the text parts, joined."""
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content or [] if b.get("type") == "text")


class QuietHandler(BaseHTTPRequestHandler):
    """The request handler of a fake API: silent, and closing the connection after each answer
    (HTTP/1.0), which ends a stream of server-sent events without chunked encoding or a
    content-length."""

    protocol_version = "HTTP/1.0"

    def log_message(self, *args: object) -> None:
        pass

    def json_body(self) -> dict:
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return {"unparsed": raw[:2000].decode("utf-8", "replace")}
        return body if isinstance(body, dict) else {"unparsed": body}


def send_json(handler: BaseHTTPRequestHandler, status: int, obj: dict) -> None:
    data = json.dumps(obj).encode()
    handler.send_response(status)
    handler.send_header("content-type", "application/json")
    handler.send_header("content-length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


class ScriptedServer:
    """A model API on 127.0.0.1 that plays a script of turns, as a context manager (the server
    runs while the block does); subclasses give the HTTP handler."""

    def __init__(self, turns: list[Turn]):
        self.turns = list(turns)
        self.requests: list[dict] = []  # in arrival order
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self._server.daemon_threads = True

    def handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    @property
    def address(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self):
        # (shutdown() waits for the loop's next look at its flag: every 0.5 s by default, a third
        # of a second lost at the end of each of the e2e suite's several hundred agent runs)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


class FakeModelAPI(ScriptedServer):
    """``with FakeModelAPI(turns) as api:`` point ANTHROPIC_BASE_URL at ``api.url``."""

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _handler_for(self)

    @property
    def url(self) -> str:
        return self.address

    def reply(self, body: dict) -> tuple[list[dict], str]:
        """Content blocks and stop reason answering one POST /v1/messages body."""
        if not body.get("tools"):  # a side query (title, probe): answer it, consume no turn
            return [{"type": "text", "text": "ok"}], "end_turn"
        done = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        return _blocks(self.turns[done] if done < len(self.turns) else None)

    def record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append({"method": method, "path": path, "body": body})

    def tool_results(self) -> list[dict]:
        """Every tool_result the CLI sent back, once each, in order."""
        results, seen = [], set()
        for request in list(self.requests):
            body = request["body"] if isinstance(request["body"], dict) else {}
            for message in body.get("messages", []):
                if message.get("role") != "user" or not isinstance(message.get("content"), list):
                    continue
                for block in message["content"]:
                    if block.get("type") == "tool_result" and block["tool_use_id"] not in seen:
                        seen.add(block["tool_use_id"])
                        results.append({"tool_use_id": block["tool_use_id"],
                                        "content": _text_of(block.get("content")),
                                        "is_error": bool(block.get("is_error", False))})
        return results


def _handler_for(api: FakeModelAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):
        def do_GET(self) -> None:
            api.record("GET", self.path, None)
            if self.path.split("?")[0] == "/v1/models":
                model = {"type": "model", "id": "claude-fake", "display_name": "fake",
                         "created_at": "2025-01-01T00:00:00Z"}
                self._json(200, {"data": [model], "has_more": False,
                                 "first_id": "claude-fake", "last_id": "claude-fake"})
            else:
                self._not_found()

        def do_POST(self) -> None:
            body = self.json_body()
            api.record("POST", self.path, body)
            path = self.path.split("?")[0]
            if path == "/v1/messages/count_tokens":
                self._json(200, {"input_tokens": 100})
            elif path == "/v1/messages":
                blocks, stop = api.reply(body)
                model = body.get("model", "claude-fake")
                if body.get("stream"):
                    self._stream(model, blocks, stop)
                else:
                    self._json(200, {"id": _msg_id(), "type": "message", "role": "assistant",
                                     "model": model, "content": blocks, "stop_reason": stop,
                                     "stop_sequence": None, "usage": _USAGE})
            else:
                self._not_found()

        def _json(self, status: int, obj: dict) -> None:
            send_json(self, status, obj)

        def _not_found(self) -> None:
            self._json(404, {"type": "error", "error": {
                "type": "not_found_error", "message": f"fake API has no {self.path}"}})

        def _stream(self, model: str, blocks: list[dict], stop: str) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.end_headers()
            for event in _sse_events(model, blocks, stop):
                self.wfile.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
            self.wfile.flush()

    return Handler


def _msg_id() -> str:
    return f"msg_{uuid.uuid4().hex[:24]}"


def _sse_events(model: str, blocks: list[dict], stop: str) -> list[dict]:
    """The event sequence of one streamed message, as the real API sends it."""
    events: list[dict] = [{"type": "message_start", "message": {
        "id": _msg_id(), "type": "message", "role": "assistant", "model": model,
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": dict(_USAGE, output_tokens=1)}}]
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            start = dict(block, input={})
            # the input arrives as JSON text in pieces; several pieces prove they are joined
            text = json.dumps(block["input"])
            deltas = [{"type": "input_json_delta", "partial_json": text[i:i + 16]}
                      for i in range(0, len(text), 16)]
        else:
            start = {"type": "text", "text": ""}
            deltas = [{"type": "text_delta", "text": block["text"]}]
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        events += [{"type": "content_block_delta", "index": index, "delta": d} for d in deltas]
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                   "usage": {"output_tokens": 5}})
    events.append({"type": "message_stop"})
    return events
