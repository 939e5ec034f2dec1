"""hookwright ask-guard question-log: PostToolUse on AskUserQuestion (and MCP variants).

Appends one JSON line per question to <state dir>/ask-guard/questions.jsonl:
id (the question's `<qid:...>` marker, else `h-` + a hash of its text and sorted option
labels), question, options, answer, source, session_id, tool_use_id, time. The source is
"auto" when question-preference left a marker for this tool_use_id with the same answer (the
marker is consumed), else "user".

The tool_response shapes it reads, and nothing else:
- an `answers` map keyed by question text (Claude Code 2.1.328:
  `{"questions": [...], "answers": {"<text>": "<label>"}}`, `{}` when nobody answered);
- an `answers` array: `{"question": text, "answer": ...}` objects, or one answer per question
  in order;
- `questions[*].user_answer`;
each also as the JSON text of a string or of an MCP text block. Any other response is logged as
one diagnostic line with source "unknown-shape" and no answers guessed. Prints nothing.
Stdlib only, Python >= 3.8.
"""
import json

import ask_guard_common as common

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from typing import Any

    import hookwright_runtime as runtime

    Answered = list[tuple[dict[str, Any], Any]]  # each question with its answer, as the response gave it

OPTIONS = common.OPTIONS
NAME = "question-log"


def handle(call: "runtime.Call") -> None:
    if call.event != "PostToolUse" or not common.is_question_tool(call.tool_name):
        return None
    payload = call.payload
    marker = common.take_marker(common.marker_path(payload.get("tool_use_id")))
    response = payload.get("tool_response")
    answered = read_answers(response, call.tool_input)
    if answered is None:
        common.append_log([diagnostic(call, response, marker)])
        return None
    decided: "dict[str, dict[str, Any]]" = {}
    for decision in (marker or {}).get("decisions") or []:
        if isinstance(decision, dict) and isinstance(decision.get("question"), str):
            decided[decision["question"]] = decision
    records: "list[dict[str, object]]" = []
    for question, answer in answered:
        decision = decided.get(question["question"])
        if decision is not None and decision.get("answer") == answer:
            why = dict((k, decision.get(k)) for k in ("preference", "preference_source", "door", "door_source"))
            records.append(common.log_record(question, answer, "auto", payload, why=why))
        else:
            records.append(common.log_record(question, answer, "user", payload))
    common.append_log(records)
    return None


def read_answers(response: object, tool_input: "dict[str, Any]") -> "Answered | None":
    """[(question, answer or None)] for a shape we know, else None."""
    response = _decoded(response)
    if not isinstance(response, dict):
        return None
    questions = common.questions_of(response) or common.questions_of(tool_input)
    answers = response.get("answers")
    if isinstance(answers, dict) and questions:
        return [(q, answers.get(q["question"])) for q in questions]
    if isinstance(answers, list) and questions:
        return _from_list(answers, questions)
    own = common.questions_of(response)
    if "answers" not in response and own and any("user_answer" in q for q in own):
        return [(q, q.get("user_answer")) for q in own]
    return None


def _from_list(answers: "list[Any]", questions: "list[dict[str, Any]]") -> "Answered | None":
    if answers and all(isinstance(a, dict) and isinstance(a.get("question"), str) for a in answers):
        by_text = dict((a["question"], a.get("answer")) for a in answers)
        return [(q, by_text.get(q["question"])) for q in questions]
    if len(answers) == len(questions) and all(_is_answer(a) for a in answers):
        return list(zip(questions, answers))
    return None


def _is_answer(value: object) -> bool:
    return value is None or isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(v, str) for v in value))


def _decoded(response: object) -> object:
    """A JSON object sent as text (a string, or an MCP result's one text block), decoded."""
    if isinstance(response, dict) and isinstance(response.get("content"), list) and "answers" not in response:
        response = response["content"]
    if isinstance(response, list) and len(response) == 1 and isinstance(response[0], dict) \
            and response[0].get("type") == "text":
        response = response[0].get("text")
    if isinstance(response, str) and response.lstrip().startswith("{"):
        try:
            return json.loads(response)
        except ValueError:
            return None
    return response


def diagnostic(call: "runtime.Call", response: object, marker: "dict[str, Any] | None") -> "dict[str, object]":
    record: "dict[str, object]" = {
        "source": "unknown-shape",
        "tool_name": call.tool_name,
        "session_id": call.payload.get("session_id"),
        "tool_use_id": call.payload.get("tool_use_id"),
        "response_type": type(response).__name__ if response is not None else "null",
        "auto_marker": marker is not None,
        "time": common.now_iso(),
    }
    if isinstance(response, dict):
        record["response_keys"] = sorted(str(k) for k in response)[:20]
    questions = common.questions_of(call.tool_input)
    if questions:
        record["ids"] = [common.log_id(q) for q in questions]
    return record
