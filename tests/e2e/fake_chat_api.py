"""A scripted fake of an OpenAI-compatible chat completions API, so the real opencode runs offline.

The same script of turns as fake_model_api.py: a text answer (a str) or the tool calls to
make (``{"tool": "bash", "input": {...}}`` or a list of them). The turn that answers a
request is the number of assistant messages already in it; past the end the model says
"done". A request without tools (opencode asks for a session title) gets a short text and
consumes no turn. Answers are streamed as server-sent events, as opencode asks for them.
Every request is recorded: the role "tool" messages opencode sends back are what each tool
call really returned, or the reason a plugin refused it.

Standard library only; listens on 127.0.0.1, on a free port.
"""
from __future__ import annotations

import itertools
import json
import time
from http.server import BaseHTTPRequestHandler

from fake_model_api import QuietHandler, ScriptedServer, Turn, send_json

_calls = itertools.count(1)


class FakeChatAPI(ScriptedServer):
    """``with FakeChatAPI(turns) as api:`` give opencode ``api.url`` as a provider's baseURL."""

    def __init__(self, turns: list[Turn]):
        super().__init__(turns)
        self.arrivals: list[float] = []  # time.monotonic() of each request with tools (one per model turn)

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _handler_for(self)

    @property
    def url(self) -> str:
        return self.address + "/v1"

    def answer(self, body: dict) -> tuple[str, list[dict]]:
        """(text, tool calls) answering one request body."""
        if not body.get("tools"):
            return "a title", []
        done = sum(1 for m in body.get("messages", []) if m.get("role") == "assistant")
        turn = self.turns[done] if done < len(self.turns) else "done"
        if isinstance(turn, str):
            return turn, []
        calls = [turn] if isinstance(turn, dict) else turn
        return "", [{"id": f"call_{next(_calls):06d}", "name": c["tool"], "arguments": json.dumps(c.get("input", {}))}
                    for c in calls]

    def tool_results(self) -> list[dict]:
        """Every tool message opencode sent back, once each, in order: {"tool_call_id", "content"}."""
        found, seen = [], set()
        for request in list(self.requests):
            for message in request.get("messages", []):
                if message.get("role") == "tool" and message.get("tool_call_id") not in seen:
                    seen.add(message.get("tool_call_id"))
                    content = message.get("content")
                    if isinstance(content, list):
                        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
                    found.append({"tool_call_id": message.get("tool_call_id"), "content": content})
        return found


def _handler_for(api: FakeChatAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):
        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
            else:
                self._json({"error": {"message": f"no {self.path} here"}}, 404)

        def do_POST(self) -> None:
            body = self.json_body()
            if not self.path.split("?")[0].endswith("/chat/completions"):
                self._json({"error": {"message": f"no {self.path} here"}}, 404)
                return
            with api._lock:
                api.requests.append(body)
                if body.get("tools"):
                    api.arrivals.append(time.monotonic())
            text, calls = api.answer(body)
            finish = "tool_calls" if calls else "stop"
            if not body.get("stream"):
                message = {"role": "assistant", "content": text or None}
                if calls:
                    message["tool_calls"] = [{"id": c["id"], "type": "function",
                                              "function": {"name": c["name"], "arguments": c["arguments"]}}
                                             for c in calls]
                self._json({"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                            "model": body.get("model", "fake-model"),
                            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()
            deltas = [{"role": "assistant", "content": text}]
            deltas += [{"tool_calls": [{"index": i, "id": c["id"], "type": "function",
                                        "function": {"name": c["name"], "arguments": c["arguments"]}}]}
                       for i, c in enumerate(calls)]
            for delta in deltas:
                self._event({"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}, body)
            self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}, body)
            self.wfile.write(b"data: [DONE]\n\n")

        def _event(self, chunk: dict, body: dict) -> None:
            chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
                     "model": body.get("model", "fake-model"), **chunk}
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()

        def _json(self, obj: dict, status: int = 200) -> None:
            send_json(self, status, obj)

    return Handler
