"""hookwright ask-guard question-preference: PreToolUse on AskUserQuestion (and MCP variants).

Answers a question for the user when they asked never to be asked it, and only then:
every question in the call carries a `<qid:id>` marker, its id is `never-ask` in the
preferences (project file over user file), it is a two-way door (the `doors` registry in the
preferences; for ids it does not list, a question whose wording looks destructive is one-way),
it is single-choice, and exactly one option is recommended (a label ending in `(recommended)`,
else `Recommendation: X` lines naming one option). One question that fails any of this and the
whole call is left to the user.

mode=answer (default): `allow` + updatedInput = the original input plus
`answers: {question text: label}` (Claude Code 2.1.328 then returns an ordinary answered result
and fires PostToolUse), after leaving a marker for question-log in the state dir.
mode=deny: `deny` with a reason naming the chosen option of each question; PostToolUse does not
fire then, so the question-log lines (source "auto-deny") are written here.
Anything else: no output. Stdlib only, Python >= 3.8.
"""
import ask_guard_common as common
import hookwright_runtime as runtime

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from typing import Any, TypedDict

    class Decision(TypedDict):
        """One question answered for the user, and why: what the marker left for question-log holds."""
        id: str
        question: str
        answer: str
        preference: str
        preference_source: str | None
        door: str
        door_source: str

OPTIONS = common.OPTIONS
NAME = "question-preference"
PREFIX = "hookwright ask-guard: "
MODES = ("answer", "deny")


def handle(call: runtime.Call) -> "runtime.Outcome | None":
    if call.event != "PreToolUse" or not common.is_question_tool(call.tool_name):
        return None
    mode = call.option("mode", "answer")
    if mode not in MODES:
        raise runtime.PassThrough("unknown mode %r (answer or deny); nothing auto-decided" % (mode,))
    tool_input = call.tool_input
    if "answers" in tool_input:
        return None  # already answered by someone else
    questions = common.questions_of(tool_input)
    if questions is None or len(set(q["question"] for q in questions)) < len(questions):
        return None  # answers are keyed by question text: it must tell the questions apart
    ids = [qid for qid in (common.question_id(q["question"]) for q in questions) if qid is not None]
    if len(ids) < len(questions):
        return None  # an unmarked question is never auto-decided, nor are the others in its call
    preferences, doors, sources = common.load_preferences(call.payload, NAME)
    decisions: "list[Decision]" = []
    for qid, question in zip(ids, questions):
        decision = decide(qid, question, preferences, doors, sources)
        if decision is None:
            return None  # all or nothing
        decisions.append(decision)
    if mode == "deny":
        return deny_all(call, questions, decisions)
    return answer_all(call, decisions)


def decide(qid: str, question: "dict[str, Any]", preferences: "dict[str, str]", doors: "dict[str, str]",
           sources: "dict[str, str]") -> "Decision | None":
    if preferences.get(qid) != "never-ask":
        return None
    door, door_source = common.door(qid, question, doors)
    if door != "two-way":
        return None
    if question.get("multiSelect") is True:
        return None  # a recommended option is not a whole multi-select answer
    label = common.recommended(question)
    if label is None:
        return None
    return {"id": qid, "question": question["question"], "answer": label,
            "preference": "never-ask", "preference_source": sources.get(qid),
            "door": door, "door_source": door_source}


def answer_all(call: runtime.Call, decisions: "list[Decision]") -> runtime.Outcome:
    marker = common.marker_path(call.payload.get("tool_use_id"))
    if marker is None:
        raise runtime.PassThrough("no usable tool_use_id, so the answer could not be marked as automatic;"
                                  " left the question to the user")
    common.write_marker(marker, {"tool_use_id": call.payload.get("tool_use_id"),
                                 "session_id": call.payload.get("session_id"),
                                 "mode": "answer", "time": common.now_iso(), "decisions": decisions})
    updated = dict(call.tool_input)
    updated["answers"] = dict((d["question"], d["answer"]) for d in decisions)
    shown = "; ".join('"%s" -> %s' % (common.clip(common.without_marker(d["question"]), 120), d["answer"])
                      for d in decisions)
    return runtime.allow(updated, reason=PREFIX + "answered for you (never-ask): " + shown)


def deny_all(call: runtime.Call, questions: "list[dict[str, Any]]", decisions: "list[Decision]") -> runtime.Outcome:
    common.append_log([common.log_record(q, d["answer"], "auto-deny", call.payload, why=why(d))
                       for q, d in zip(questions, decisions)])
    lines = ['- [%s] "%s" -> take "%s"' % (d["id"], common.clip(common.without_marker(d["question"])), d["answer"])
             for d in decisions]
    return runtime.deny(PREFIX + "the user chose never to be asked this (never-ask preference), so it was not "
                        "shown to them. Take the recommended option as their answer and continue without "
                        "asking again:\n" + "\n".join(lines))


def why(decision: "Decision") -> "dict[str, object]":
    return dict((k, decision[k]) for k in ("preference", "preference_source", "door", "door_source"))
