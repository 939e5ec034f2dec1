"""What the three ask-guard hooks share: questions, preferences, doors, recommendations, the log.

Stdlib only, Python >= 3.8, and nothing imported that the hooks do not already pay for
(json and re come with the runtime library), so a hook starts at the interpreter floor.

The question tool's input, as Claude Code sends it (2.1.328):
    {"questions": [{"question": str, "header": str, "multiSelect": bool,
                    "options": [{"label": str, "description": str}, ...]}, ...]}
A question carries its id as a `<qid:some-id>` marker in its text. Ids without a marker are
never auto-decided; the log names them `h-<hash>` instead, and that name is never a
preference key.
"""
import json
import os
import re
import time

import hookwright_runtime as runtime

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

USER_PREFS = "ask-guard.json"  # in runtime.config_dir()
PROJECT_PREFS = os.path.join(".claude", "hookwright-prefs.json")  # in the project
QUESTION_VALUES = ("never-ask", "always-ask")
DOOR_VALUES = ("one-way", "two-way")
SESSIONS = ("headless", "spawned", "interactive")
OPTIONS = {"mode": "answer", "session": "auto"}  # the pack options and their defaults (pack.toml)

# The id syntax is the one `hookwright prefs` accepts.
MARKER = re.compile(r"<qid:([A-Za-z0-9][A-Za-z0-9._:-]{0,99})>")
# Patterns most calls never reach are compiled on first use (re caches them): start-up counts.
RECOMMENDATION_LINE = r"^[ \t]*Recommendation:[ \t]*(.*?)[ \t]*$"

# Wording that makes a question a one-way door when the registry does not know its id: a
# false alarm only means the user is asked, a miss means something destructive is decided
# for them, so the net is wide. Matched as whole words, case-insensitively, against the
# question, its header and every option's label and description.
DESTRUCTIVE_WORDS = (
    r"(?<!\w)(?:"
    r"delet(?:e|es|ed|ing|ion)|remov(?:e|es|ed|ing|al)|drop(?:s|ped|ping)?|"
    r"destr(?:oy|oys|oyed|oying|uctive)|wip(?:e|es|ed|ing)|eras(?:e|es|ed|ing)|"
    r"purg(?:e|es|ed|ing)|truncat(?:e|es|ed|ing|ion)|overwrit(?:e|es|ing|ten)|"
    r"forc(?:e|es|ed|ing)|rm|rmdir|"
    r"migrat(?:e|es|ed|ing|ion|ions)|prod|production|"
    r"reset|rewrit(?:e|es|ing|ten)|rebas(?:e|es|ed|ing)|squash(?:es|ed|ing)?|"
    r"revok(?:e|es|ed|ing)|rotat(?:e|es|ed|ing|ion)|"
    r"publish(?:es|ed|ing)?|releas(?:e|es|ed|ing)|"
    r"pay|payment|charg(?:e|es|ed|ing)|billing|purchas(?:e|es|ed|ing)|refund|"
    r"irreversibl[ey]|permanent(?:ly)?|unrecoverable"
    r")(?!\w)|cannot be undone|can't be undone|can not be undone"
)

ASK_TOOL = "AskUserQuestion"
MAX_TEXT = 300  # longest question/option text quoted back to the model


# ---- the tool and its questions -----------------------------------------------------------

def is_question_tool(name: object) -> bool:
    """AskUserQuestion or an MCP server's mcp__<server>__AskUserQuestion (the matcher is a regex
    that also matches longer names, so the name is checked exactly here)."""
    if name == ASK_TOOL:
        return True
    return (isinstance(name, str) and name.startswith("mcp__") and name.endswith("__" + ASK_TOOL)
            and len(name) > len("mcp__") + len("__" + ASK_TOOL))


def questions_of(value: object) -> "list[dict[str, Any]] | None":
    """The question list of a tool input or response, or None when it is not one we understand."""
    questions = value.get("questions") if isinstance(value, dict) else None
    if not isinstance(questions, list) or not questions:
        return None
    for question in questions:
        if not isinstance(question, dict) or not isinstance(question.get("question"), str):
            return None
        if labels_of(question) is None:
            return None
    return questions


def labels_of(question: "dict[str, Any]") -> "list[str] | None":
    """Option labels in order (an option may be a bare string), or None if malformed."""
    options = question.get("options")
    if not isinstance(options, list):
        return None
    labels: "list[str]" = []
    for option in options:
        label = option.get("label") if isinstance(option, dict) else option
        if not isinstance(label, str) or not label.strip():
            return None
        labels.append(label)
    return labels


def question_id(text: str) -> "str | None":
    """The id of the question's `<qid:...>` marker; None without one or with two different ones."""
    ids: "set[str]" = set(MARKER.findall(text))
    return ids.pop() if len(ids) == 1 else None


def without_marker(text: str) -> str:
    return " ".join(MARKER.sub("", text).split())


def hashed_id(question: "dict[str, Any]") -> str:
    """`h-` + a short hash of the text and the sorted option labels: for the log only."""
    if TYPE_CHECKING:
        from hashlib import sha1  # _sha1 has no stubs: hashlib's sha1 is the same function
    else:
        try:
            from _sha1 import sha1  # the C module: hashlib would cost ~10 ms of start-up
        except ImportError:  # pragma: no cover - interpreters without it
            from hashlib import sha1
    labels = labels_of(question) or []
    material = "\0".join([question.get("question", "")] + sorted(labels))
    return "h-" + sha1(material.encode("utf-8")).hexdigest()[:12]


def log_id(question: "dict[str, Any]") -> str:
    return question_id(question.get("question", "")) or hashed_id(question)


def recommended(question: "dict[str, Any]") -> "str | None":
    """The one recommended option label, or None when there is none or more than one.

    First the labels ending in `(recommended)`: exactly one wins, two or more are ambiguous.
    Without such a label, the question's `Recommendation: X` lines must name exactly one
    option label between them.
    """
    labels = labels_of(question) or []
    marked = [label for label in labels if label.rstrip().lower().endswith("(recommended)")]
    if marked:
        return marked[0] if len(marked) == 1 else None
    named: "set[str]" = set()
    for phrase in re.findall(RECOMMENDATION_LINE, question.get("question", ""), re.IGNORECASE | re.MULTILINE):
        found = _labels_named(phrase, labels)
        if not found:
            return None  # a recommendation line that names no option: we cannot tell what it means
        named.update(found)
    return named.pop() if len(named) == 1 else None


def _labels_named(phrase: str, labels: "list[str]") -> "list[str]":
    """The labels a recommendation phrase names: an exact match, else the labels that occur in
    it as whole words somewhere other than inside another label's occurrence ("Fira Code"
    does not name "Fira"; "Fira, not Fira Code" names both)."""
    wanted = phrase.strip().rstrip(".").strip().casefold()
    exact = [label for label in labels if label.strip().casefold() == wanted]
    if exact:
        return exact
    spans: "dict[str, list[tuple[int, int]]]" = {}
    for label in labels:
        pattern = r"(?<!\w)" + re.escape(label.strip().casefold()) + r"(?!\w)"
        spans[label] = [m.span() for m in re.finditer(pattern, wanted)]
    every = [(label, span) for label in labels for span in spans[label]]
    return [label for label in labels
            if any(not any(other != label and o[0] <= s[0] and s[1] <= o[1] and o != s for other, o in every)
                   for s in spans[label])]


def looks_destructive(question: "dict[str, Any]") -> bool:
    parts = [question.get("question", ""), question.get("header", "")]
    for option in question.get("options") or []:
        if isinstance(option, dict):
            parts.extend(v for v in (option.get("label"), option.get("description")) if isinstance(v, str))
        elif isinstance(option, str):
            parts.append(option)
    text = without_marker("\n".join(p for p in parts if isinstance(p, str)))
    return re.search(DESTRUCTIVE_WORDS, text, re.IGNORECASE) is not None


def door(qid: "str | None", question: "dict[str, Any]", doors: "dict[str, str]") -> "tuple[str, str]":
    """("one-way" | "two-way", where that came from). The registry (prefs `doors`) decides for
    the ids it knows; any other question is one-way when its wording looks destructive and
    two-way otherwise."""
    if qid is not None and qid in doors:
        return doors[qid], "registry"
    if looks_destructive(question):
        return "one-way", "classifier"
    return "two-way", "default"


# ---- preferences --------------------------------------------------------------------------

def project_dir(payload: "dict[str, Any]") -> "str | None":
    return os.environ.get("CLAUDE_PROJECT_DIR") or (payload.get("cwd") if isinstance(payload.get("cwd"), str) else None)


def preference_files(payload: "dict[str, Any]") -> "list[tuple[str, str]]":
    """[(source, path)] in increasing precedence: the user file, then the project file."""
    files = [("user", os.path.join(runtime.config_dir(), USER_PREFS))]
    project = project_dir(payload)
    if project:
        files.append(("project", os.path.join(project, PROJECT_PREFS)))
    return files


def load_preferences(payload: "dict[str, Any]", name: str) -> "tuple[dict[str, str], dict[str, str], dict[str, str]]":
    """(questions, doors, sources): the merged maps, project entries over user entries per id,
    and which file each question preference came from. A missing file adds nothing; an invalid
    one adds nothing and leaves one line in the error log."""
    questions: "dict[str, str]" = {}
    doors: "dict[str, str]" = {}
    sources: "dict[str, str]" = {}
    for source, path in preference_files(payload):
        try:
            data = runtime.read_json_file(path)
            problem = None if data is None else _preference_problem(data)
        except ValueError as error:
            data, problem = None, "cannot be read as a JSON object (%s)" % error
        if problem:
            runtime.log(name, "ignored the %s preferences file %s: it %s" % (source, path, problem))
            continue
        if data is None:
            continue  # no such file
        for qid, value in (data.get("questions") or {}).items():
            questions[qid] = value
            sources[qid] = source
        doors.update(data.get("doors") or {})
    return questions, doors, sources


def _preference_problem(data: "dict[str, Any]") -> "str | None":
    """Why a preferences file is unusable (the same rules as `hookwright prefs`), or None."""
    if data.get("version", 1) != 1:
        return "has version %r; this pack knows version 1" % (data.get("version"),)
    for table, allowed in (("questions", QUESTION_VALUES), ("doors", DOOR_VALUES)):
        values = data.get(table, {})
        if not isinstance(values, dict) or any(v not in allowed for v in values.values()):
            return '"%s" must map ids to one of %s' % (table, ", ".join(allowed))
    return None


# ---- state: auto-decision markers and the question log -------------------------------------

SAFE_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def state_root() -> str:
    return os.path.join(runtime.state_dir(), "ask-guard")


def marker_path(tool_use_id: object) -> "str | None":
    """Where PreToolUse leaves its note for PostToolUse; None for an id unfit for a file name."""
    if not isinstance(tool_use_id, str) or not 0 < len(tool_use_id) <= 128 or not SAFE_ID_CHARS.issuperset(tool_use_id):
        return None
    return os.path.join(state_root(), "auto", tool_use_id + ".json")


def write_marker(path: str, record: "dict[str, object]", max_age: float = 86400.0) -> None:
    """Write atomically; drop markers older than max_age whose PostToolUse never came."""
    folder = os.path.dirname(path)
    os.makedirs(folder, 0o700, exist_ok=True)
    now = time.time()
    for entry in os.listdir(folder):
        try:
            old = os.path.join(folder, entry)
            if now - os.path.getmtime(old) > max_age:
                os.remove(old)
        except OSError:
            pass
    temp = "%s.%d.tmp" % (path, os.getpid())
    with open(temp, "w") as out:
        out.write(json.dumps(record))
    os.replace(temp, path)


def take_marker(path: "str | None") -> "dict[str, Any] | None":
    """The marker's record, removed from disk; None if there is none (or it is unreadable)."""
    if path is None:
        return None
    try:
        with open(path) as handle:
            record = json.loads(handle.read())
    except (IOError, OSError, ValueError):
        return None
    finally:
        try:
            os.remove(path)
        except OSError:
            pass
    return record if isinstance(record, dict) else None


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def append_log(records: "list[dict[str, object]]") -> None:
    """One JSON line per record in <state>/ask-guard/questions.jsonl, in one append."""
    if not records:
        return
    folder = state_root()
    os.makedirs(folder, 0o700, exist_ok=True)
    text = "".join(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n" for record in records)
    with open(os.path.join(folder, "questions.jsonl"), "a", encoding="utf-8") as out:
        out.write(text)


def log_record(question: "dict[str, Any]", answer: object, source: str, payload: "dict[str, Any]",
               why: "dict[str, object] | None" = None) -> "dict[str, object]":
    record: "dict[str, object]" = {
        "id": log_id(question),
        "question": question.get("question"),
        "options": labels_of(question) or [],
        "answer": answer,
        "source": source,
        "session_id": payload.get("session_id"),
        "tool_use_id": payload.get("tool_use_id"),
        "time": now_iso(),
    }
    if why is not None:
        record["why"] = why
    return record


def clip(text: object, limit: int = MAX_TEXT) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


# ---- which kind of session is this? ---------------------------------------------------------

def detect_session(payload: "dict[str, Any]", environ: "Mapping[str, str] | None" = None) -> str:
    """headless | spawned | interactive, from what Claude Code tells its hooks.

    Measured on 2.1.328: an interactive session gives hooks CLAUDE_CODE_ENTRYPOINT=cli and
    CLAUDE_CODE_SESSION_ATTENDED=1; `claude -p` (also in the SDK's stream-json transport)
    gives sdk-cli and 0, and resets an inherited `cli`/`1`; an Agent SDK program sets the
    entrypoint itself (sdk-ts, sdk-py), which the CLI keeps. Inside a subagent the payload
    carries agent_id.
    """
    env = os.environ if environ is None else environ
    entrypoint = env.get("CLAUDE_CODE_ENTRYPOINT", "")
    attended = env.get("CLAUDE_CODE_SESSION_ATTENDED", "")
    if payload.get("agent_id"):
        return "spawned"  # a subagent: the agent that started it reads its answer, not a person
    if attended == "1":
        return "interactive"
    if entrypoint.startswith("sdk-") and entrypoint != "sdk-cli":
        return "spawned"  # a program drives the session through the Agent SDK
    if attended == "0" or entrypoint == "sdk-cli":
        return "headless"
    if entrypoint:
        return "interactive"  # cli, or an editor / desktop entrypoint
    if payload.get("permission_mode") == "dontAsk" or env.get("CI", "").lower() in ("1", "true"):
        return "headless"
    return "interactive"  # unknown: asking in prose never acts on the user's behalf
