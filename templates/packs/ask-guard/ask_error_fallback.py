"""hookwright ask-guard ask-error-fallback: when the question tool itself failed.

Registered twice: on PostToolUseFailure (what Claude Code fires for a failing tool), and
defensively on PostToolUse, where it acts only on an error-shaped response: empty, `is_error`
(or MCP `isError`) true, a non-empty `error` field, or the "Tool result missing due to internal
error" sentinel. An ordinary answer that merely mentions an error is left alone.

It adds context telling the model how to go on without the tool, by session kind (pack option
`session` = auto | headless | spawned | interactive; auto reads what Claude Code tells hooks,
see ask_guard_common.detect_session):
- headless: nobody can answer; stop and report being blocked on the questions;
- spawned (an Agent SDK program or a subagent): take each recommended option and say so, but
  stop and report blocked on a question without a single recommendation or behind a one-way door;
- interactive: ask the user in prose, with the options and the recommendation.
Stdlib only, Python >= 3.8.
"""
import ask_guard_common as common
import hookwright_runtime as runtime

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from typing import Any

OPTIONS = common.OPTIONS
NAME = "ask-error-fallback"
PREFIX = "hookwright ask-guard: "
SENTINEL = "Tool result missing due to internal error"
MAX_CONTEXT = 8000  # Claude Code cuts additionalContext at 10,000 characters
MAX_QUESTIONS = 8
MAX_OPTIONS = 8


def handle(call: runtime.Call) -> "runtime.Outcome | None":
    if not common.is_question_tool(call.tool_name):
        return None
    problem = failure(call)
    if problem is None:
        return None
    session = call.option("session", "auto")
    if session == "auto":
        session = common.detect_session(call.payload)
    elif session not in common.SESSIONS:
        runtime.log(NAME, "unknown session %r (auto, headless, spawned or interactive); used auto" % (session,))
        session = common.detect_session(call.payload)
    return runtime.add_context(advice(call, session, problem))


def failure(call: runtime.Call) -> "str | None":
    """How the question tool failed, in a few words for the model; None when it did not."""
    if call.event == "PostToolUseFailure":
        error = call.payload.get("error")
        return common.clip(error, 200) if isinstance(error, str) and error.strip() else "it failed"
    if call.event == "PostToolUse":
        return error_shape(call.payload.get("tool_response"))
    return None


def error_shape(response: object) -> "str | None":
    """What makes a PostToolUse response an error, or None for an ordinary result."""
    if response is None:
        return "it returned nothing"
    if isinstance(response, str):
        if not response.strip():
            return "it returned nothing"
        return "it returned: " + SENTINEL if SENTINEL.lower() in response.lower() else None
    if isinstance(response, (dict, list)) and not response:
        return "it returned nothing"
    if isinstance(response, dict):
        if response.get("is_error") is True or response.get("isError") is True:
            return "it reported an error: " + common.clip(_text(response.get("error") or response.get("content")) or
                                                          "(no message)", 200)
        if response.get("error") not in (None, "", False, [], {}):
            return "it reported an error: " + common.clip(_text(response["error"]) or "(no message)", 200)
        content = response.get("content")
        if isinstance(content, list) and "answers" not in response:
            return error_shape(content) if content else "it returned nothing"
        return None
    # a list: an MCP result's content blocks
    text = _text(response)
    if text is None:
        return None
    if not text.strip():
        return "it returned nothing"
    return "it returned: " + SENTINEL if SENTINEL.lower() in text.lower() else None


def _text(value: object) -> "str | None":
    """The text of a message, or of MCP text blocks; None for anything else."""
    if isinstance(value, str):
        return value
    message = value.get("message") if isinstance(value, dict) else None
    if isinstance(message, str):
        return message
    if isinstance(value, list) and all(isinstance(b, dict) and b.get("type") == "text" for b in value):
        return "\n".join(str(b.get("text", "")) for b in value)
    return None


def advice(call: runtime.Call, session: str, problem: str) -> str:
    tool = call.tool_name
    questions = common.questions_of(call.tool_input) or []
    head = "%sthe question tool %s failed (%s), so the user has not seen these questions. Do not call %s " \
           "again for them. " % (PREFIX, tool, problem, tool)
    if session == "headless":
        body = ("Nobody can answer questions in this session (a headless run). Do not choose an option on the "
                "user's behalf: stop the work that depends on these answers and end with a short report that you "
                "are blocked on the questions below, with their options and your recommendation.")
        items = [_listing(q, recommend=True) for q in questions[:MAX_QUESTIONS]]
    elif session == "spawned":
        preferences_doors = common.load_preferences(call.payload, NAME)[1]
        body = ("This session was started by a program or another agent, and no person is there to answer. "
                "For each question below, take the option shown and continue, and say in your final report "
                "which option you took. Where it says BLOCKED, do not choose: stop that part of the work and "
                "report that you are blocked on that question.")
        items = [_spawned_item(q, preferences_doors) for q in questions[:MAX_QUESTIONS]]
    else:
        body = ("Ask the user in plain text instead: write each question below with its options and your "
                "recommendation, then end your turn and wait for their reply before doing anything that "
                "depends on it.")
        items = [_listing(q, recommend=True) for q in questions[:MAX_QUESTIONS]]
    if len(questions) > MAX_QUESTIONS:
        items.append("- (%d more questions not shown)" % (len(questions) - MAX_QUESTIONS))
    text = head + body + ("\n" + "\n".join(items) if items else "")
    return text if len(text) <= MAX_CONTEXT else text[:MAX_CONTEXT - 1] + "\u2026"


def _listing(question: "dict[str, Any]", recommend: bool) -> str:
    lines = ['- "%s"' % common.clip(common.without_marker(question["question"]))]
    options = question.get("options") or []
    for option in options[:MAX_OPTIONS]:
        label = option.get("label") if isinstance(option, dict) else option
        description = option.get("description") if isinstance(option, dict) else None
        lines.append("  - %s%s" % (common.clip(label, 120),
                                   (": " + common.clip(description, 200)) if isinstance(description, str)
                                   and description.strip() else ""))
    if len(options) > MAX_OPTIONS:
        lines.append("  - (%d more options not shown)" % (len(options) - MAX_OPTIONS))
    if recommend:
        label = common.recommended(question)
        lines.append("  Recommended: %s" % common.clip(label, 120) if label is not None else
                     "  No single option is marked as recommended.")
    return "\n".join(lines)


def _spawned_item(question: "dict[str, Any]", doors: "dict[str, str]") -> str:
    text = common.clip(common.without_marker(question["question"]))
    label = common.recommended(question)
    door = common.door(common.question_id(question["question"]), question, doors)[0]
    if door == "one-way":
        return '- "%s" -> BLOCKED: the choice looks destructive or hard to undo (a one-way door).' % text
    if label is None or question.get("multiSelect") is True:
        return '- "%s" -> BLOCKED: no single option is recommended.' % text
    return '- "%s" -> take "%s".' % (text, common.clip(label, 120))
