"""A scripted fake of the OpenAI Responses API, so the real Codex CLI runs offline.

The same script of turns as fake_model_api.py: a text answer (a str) or the tool calls to
make (``{"tool": "exec_command", "input": {"cmd": "..."}}`` or a list of them). A call whose
input is a string is a freeform (custom) tool's, streamed as a ``custom_tool_call`` item: how
the model calls ``apply_patch`` with the patch text on models whose metadata offer it freeform
(``apply_patch_tool_type``; docs/hosts/codex.md#tool-names). Codex sends
back the whole conversation in each request's ``input``; the turn that answers a request is
the number of scripted turns already in it (the id of each call and message names its turn),
so a request that Codex repeats gets the same answer. Past the end the model says
"done", which ends ``codex exec``. Every request is recorded: the ``function_call_output``
items Codex sends back are what each tool call really returned, or why a hook blocked it.

Answers are streamed as server-sent events, the only way Codex asks for them
(``stream: true``). Standard library only; listens on 127.0.0.1, on a free port.
"""
from __future__ import annotations

import json
import re
import time
from http.server import BaseHTTPRequestHandler
from typing import Any

from fake_model_api import QuietHandler, ScriptedServer, Turn, send_json

_TURN_ID = re.compile(r"(?:call_t(\d+)_\d+|msg_t(\d+))$")  # the ids answer() gives, naming their turn
_USAGE = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
          "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}


class FakeResponsesAPI(ScriptedServer):
    """``with FakeResponsesAPI(turns) as api:`` give Codex ``api.url`` as a provider's base_url."""

    @property
    def url(self) -> str:
        return self.address + "/v1"

    def handler(self) -> type[BaseHTTPRequestHandler]:
        return _handler_for(self)

    def answer(self, body: dict) -> list[dict]:
        """The output items answering one request body."""
        answered = {m.group(1) or m.group(2) for item in _items(body)
                    if (m := _TURN_ID.match(str(item.get("call_id") or item.get("id") or "")))}
        index = len(answered)
        turn: Turn = self.turns[index] if index < len(self.turns) else "done"
        if isinstance(turn, str):
            return [{"type": "message", "id": f"msg_t{index}", "role": "assistant", "status": "completed",
                     "content": [{"type": "output_text", "text": turn, "annotations": []}]}]
        calls = [turn] if isinstance(turn, dict) else turn
        return [_call_item(call, index, n) for n, call in enumerate(calls)]

    def tool_results(self) -> list[dict]:
        """Every function_call_output (and custom_tool_call_output) Codex sent back, once each, in
        order: {"call_id", "output"}."""
        found, seen = [], set()
        for body in list(self.requests):
            for item in _items(body):
                if item.get("type") in _OUTPUTS and item.get("call_id") not in seen:
                    seen.add(item.get("call_id"))
                    found.append({"call_id": item.get("call_id"), "output": _text_of(item.get("output"))})
        return found


_OUTPUTS = ("function_call_output", "custom_tool_call_output")


def _call_item(call: dict, turn: int, n: int) -> dict:
    """One scripted call as the output item that makes it: a function call (JSON arguments), or
    a freeform tool's custom_tool_call (its input a string, passed as it is)."""
    namespace = {"namespace": call["namespace"]} if "namespace" in call else {}
    given = call.get("input", {})
    if isinstance(given, str):
        return {"type": "custom_tool_call", "id": f"ctc_t{turn}_{n}", "call_id": f"call_t{turn}_{n}",
                "name": call["tool"], "input": given, "status": "completed", **namespace}
    return {"type": "function_call", "id": f"fc_t{turn}_{n}", "call_id": f"call_t{turn}_{n}",
            "name": call["tool"], "arguments": json.dumps(given), "status": "completed", **namespace}


def _items(body: dict) -> list[dict]:
    items = body.get("input")
    return [item for item in items if isinstance(item, dict)] if isinstance(items, list) else []


def _text_of(output: Any) -> str:
    """A function_call_output's output: a string, or a list of content items."""
    if isinstance(output, str):
        return output
    if isinstance(output, list):
        return "".join(part.get("text", "") for part in output if isinstance(part, dict))
    return json.dumps(output)


def _handler_for(api: FakeResponsesAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):
        def do_GET(self) -> None:
            if self.path.split("?")[0].rstrip("/").endswith("/models"):
                send_json(self, 200, {"object": "list", "data": [], "models": []})
            else:
                send_json(self, 404, {"error": {"message": f"fake API has no {self.path}"}})

        def do_POST(self) -> None:
            body = self.json_body()
            if not self.path.split("?")[0].endswith("/responses"):
                send_json(self, 404, {"error": {"message": f"fake API has no {self.path}"}})
                return
            with api._lock:
                api.requests.append(body)
            self._stream(body.get("model", "fake-model"), api.answer(body))

        def _stream(self, model: str, items: list[dict]) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("cache-control", "no-cache")
            self.end_headers()
            response = {"id": f"resp_{time.monotonic_ns()}", "object": "response",
                        "created_at": int(time.time()), "model": model, "status": "in_progress", "output": []}
            self._event("response.created", {"response": response})
            for index, item in enumerate(items):
                self._event("response.output_item.added",
                            {"output_index": index, "item": dict(item, status="in_progress")})
                if item["type"] == "message":
                    self._event("response.output_text.delta", {"output_index": index, "item_id": item["id"],
                                                               "content_index": 0,
                                                               "delta": item["content"][0]["text"]})
                self._event("response.output_item.done", {"output_index": index, "item": item})
            self._event("response.completed",
                        {"response": dict(response, status="completed", output=items, usage=_USAGE)})
            self.wfile.flush()

        def _event(self, kind: str, data: dict) -> None:
            self.wfile.write(f"event: {kind}\ndata: {json.dumps(dict(data, type=kind))}\n\n".encode())

    return Handler
