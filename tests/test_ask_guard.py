"""Table-driven tests for the ask-guard pack: each row runs a real hook script as Claude Code does.

The scripts run with ``python -I -S <script> --host claude`` from a temporary copy of the pack
folder plus the shared runtime library, with the state, config, cache and error-log locations
and CLAUDE_PROJECT_DIR pointing into the test's tmp_path. A row gives the payload and the exact
stdout (parsed JSON compared in full, or nothing) and exit code; rows about state also check the
question log, the auto-decision markers and the error log.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import lay_out_runtime

REPO = Path(__file__).resolve().parents[1]
PACK_SRC = REPO / "templates" / "packs" / "ask-guard"
RUNTIME = REPO / "templates" / "runtime" / "hookwright_runtime.py"
SCRIPTS = ("question-preference", "question-log", "ask-error-fallback")
MODULES = ("ask_guard_common.py", "question_preference.py", "question_log.py", "ask_error_fallback.py")
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
PREFIX = "hookwright ask-guard: "
SENTINEL = "Tool result missing due to internal error"

# The preferences most rows run against (the project file).
PREFS = {
    "version": 1,
    "questions": {
        "deploy-target": "never-ask",  # registry: two-way
        "test-runner": "never-ask",  # not in the registry, harmless wording: two-way
        "color": "never-ask",
        "font": "never-ask",
        "cleanup": "never-ask",  # not in the registry, destructive wording: one-way
        "old-config": "never-ask",
        "db-plan": "never-ask",  # registry: one-way
        "cache-mode": "never-ask",  # registry: two-way, although the wording says "drop"
        "features": "never-ask",
        "log-level": "always-ask",
    },
    "doors": {"deploy-target": "two-way", "db-plan": "one-way", "cache-mode": "two-way"},
}


# ---- building payloads -------------------------------------------------------------------------

def q(text, *labels, multi=False, header="Pick"):
    return {"question": text, "header": header,
            "options": [{"label": label, "description": "about " + label} for label in labels],
            "multiSelect": multi}


DEPLOY = q("Which deploy target? <qid:deploy-target>", "staging (recommended)", "canary")
RUNNER = q("Which test runner? <qid:test-runner>", "pytest (recommended)", "unittest")
UNMARKED = q("Which test runner?", "pytest (recommended)", "unittest")


def ask(*questions, tool="AskUserQuestion", tool_use_id="toolu_01", event="PreToolUse", **extra):
    payload = {"session_id": "sess-1", "transcript_path": "/tmp/t.jsonl", "cwd": "/nonexistent/cwd",
               "permission_mode": "bypassPermissions", "hook_event_name": event, "tool_name": tool,
               "tool_input": {"questions": list(questions)}}
    if tool_use_id is not None:
        payload["tool_use_id"] = tool_use_id
    payload.update(extra)
    return payload


def short(text):
    return " ".join(re.sub(r"<qid:[^>]*>", "", text).split())


def answered(payload, answers):
    """The exact allow + updatedInput output for `answers` ({question text: label})."""
    shown = "; ".join('"%s" -> %s' % (short(text), label) for text, label in answers.items())
    updated = dict(payload["tool_input"], answers=answers)
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                   "permissionDecisionReason": PREFIX + "answered for you (never-ask): " + shown,
                                   "updatedInput": updated}}


def denied(*choices):
    """The exact deny output for (id, question text, label) choices."""
    lines = "\n".join('- [%s] "%s" -> take "%s"' % (qid, short(text), label) for qid, text, label in choices)
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": PREFIX + "the user chose never to be asked this "
                                   "(never-ask preference), so it was not shown to them. Take the recommended "
                                   "option as their answer and continue without asking again:\n" + lines}}


def h_id(text, labels):
    material = "\0".join([text] + sorted(labels))
    return "h-" + hashlib.sha1(material.encode("utf-8")).hexdigest()[:12]


# ---- the world a hook runs in ------------------------------------------------------------------

@pytest.fixture(scope="session")
def pack(tmp_path_factory) -> Path:
    """The pack folder as install lays it out: scripts, the pack modules, the runtime library."""
    return lay_out_runtime(tmp_path_factory.mktemp("ask-guard-pack") / "ask-guard", "ask-guard")


@pytest.fixture(scope="session")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")  # shared, so byte-code is compiled once


@dataclass
class Ran:
    code: int
    out: dict | None
    raw: str
    err: str


@dataclass
class Box:
    root: Path
    pack: Path
    env: dict

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def state(self) -> Path:
        return self.root / "state" / "hookwright" / "ask-guard"

    def user_prefs(self, data) -> Path:
        return self._write(self.root / "config" / "hookwright" / "ask-guard.json", data)

    def project_prefs(self, data, project: Path | None = None) -> Path:
        return self._write((project or self.project) / ".claude" / "hookwright-prefs.json", data)

    @staticmethod
    def _write(path: Path, data) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        return path

    def run(self, script: str, payload, *options: str, env: dict | None = None) -> Ran:
        argv = [sys.executable, "-I", "-S", str(self.pack / script), "--host", "claude"]
        for option in options:
            argv += ["--option", option]
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        proc = subprocess.run(argv, input=data, capture_output=True, timeout=30, cwd=self.root,
                              env=dict(self.env, **(env or {})))
        out = proc.stdout.decode()
        return Ran(proc.returncode, json.loads(out) if out.strip() else None, out, proc.stderr.decode())

    def errors(self) -> list[str]:
        path = self.root / "hooks.log"
        return path.read_text().splitlines() if path.exists() else []

    def questions(self) -> list[dict]:
        """The question log, each line's time checked and dropped."""
        path = self.state / "questions.jsonl"
        if not path.exists():
            return []
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        for line in lines:
            assert TIME.match(line.pop("time")), line
        return lines

    def marker(self, tool_use_id="toolu_01") -> Path:
        return self.state / "auto" / (tool_use_id + ".json")


@pytest.fixture
def box(tmp_path, pack, cache) -> Box:
    (tmp_path / "project").mkdir()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_CACHE_HOME": str(cache), "HOOKWRIGHT_LOG": str(tmp_path / "hooks.log"),
           "CLAUDE_PROJECT_DIR": str(tmp_path / "project")}
    return Box(tmp_path, pack, env)


@pytest.fixture
def prefs(box) -> Box:
    box.project_prefs(PREFS)
    return box


def passes_through(ran: Ran) -> bool:
    return ran.code == 0 and ran.raw == ""


# ---- question-preference ------------------------------------------------------------------------

def _param(name, payload, answers):
    return pytest.param(payload, answers, id=name)


COLOR_LINE = q("Which color scheme? <qid:color>\nRecommendation: Dark", "Light", "Dark")
DECIDED = [
    _param("recommended label, registry two-way", ask(DEPLOY), {DEPLOY["question"]: "staging (recommended)"}),
    _param("recommended label, unknown harmless id is two-way", ask(RUNNER),
           {RUNNER["question"]: "pytest (recommended)"}),
    _param("recommended label is case-insensitive",
           ask(q("Runner? <qid:test-runner>", "pytest (Recommended) ", "nose")),
           {"Runner? <qid:test-runner>": "pytest (Recommended) "}),
    _param("Recommendation line naming a label", ask(COLOR_LINE), {COLOR_LINE["question"]: "Dark"}),
    _param("Recommendation line with a reason after the label",
           ask(q("Which color scheme? <qid:color>\nRecommendation: Dark, easier on the eyes", "Light", "Dark")),
           {"Which color scheme? <qid:color>\nRecommendation: Dark, easier on the eyes": "Dark"}),
    _param("Recommendation line, other case and a full stop",
           ask(q("Which color scheme? <qid:color>\n  recommendation:  dark.", "Light", "Dark")),
           {"Which color scheme? <qid:color>\n  recommendation:  dark.": "Dark"}),
    _param("Recommendation line: the longer of two overlapping labels",
           ask(q("Which font? <qid:font>\nRecommendation: Fira Code, for ligatures", "Fira", "Fira Code")),
           {"Which font? <qid:font>\nRecommendation: Fira Code, for ligatures": "Fira Code"}),
    _param("two Recommendation lines naming the same label",
           ask(q("Which color scheme? <qid:color>\nRecommendation: Dark\nRecommendation: Dark", "Light", "Dark")),
           {"Which color scheme? <qid:color>\nRecommendation: Dark\nRecommendation: Dark": "Dark"}),
    _param("a recommended label wins over a Recommendation line",
           ask(q("Which color scheme? <qid:color>\nRecommendation: Light", "Light", "Dark (recommended)")),
           {"Which color scheme? <qid:color>\nRecommendation: Light": "Dark (recommended)"}),
    _param("registry two-way beats destructive wording",
           ask(q("Drop the build cache first? <qid:cache-mode>", "Yes (recommended)", "No")),
           {"Drop the build cache first? <qid:cache-mode>": "Yes (recommended)"}),
    _param("several questions, all decidable", ask(DEPLOY, RUNNER),
           {DEPLOY["question"]: "staging (recommended)", RUNNER["question"]: "pytest (recommended)"}),
    _param("the marker may sit anywhere in the text",
           ask(q("<qid:deploy-target> Where to?", "staging (recommended)", "canary")),
           {"<qid:deploy-target> Where to?": "staging (recommended)"}),
    _param("the same marker twice", ask(q("Where? <qid:deploy-target> <qid:deploy-target>", "a (recommended)", "b")),
           {"Where? <qid:deploy-target> <qid:deploy-target>": "a (recommended)"}),
    _param("an MCP question tool", ask(DEPLOY, tool="mcp__ui__AskUserQuestion"),
           {DEPLOY["question"]: "staging (recommended)"}),
    _param("options given as bare strings",
           ask({"question": "Runner? <qid:test-runner>", "options": ["pytest (recommended)", "nose"]}),
           {"Runner? <qid:test-runner>": "pytest (recommended)"}),
]


@pytest.mark.parametrize("payload, answers", DECIDED)
def test_question_preference_answers(prefs, payload, answers):
    ran = prefs.run("question-preference", payload)
    assert (ran.code, ran.out) == (0, answered(payload, answers))
    assert prefs.errors() == []
    marker = json.loads(prefs.marker().read_text())
    assert [(d["question"], d["answer"]) for d in marker["decisions"]] == list(answers.items())
    assert prefs.questions() == []  # question-log writes the lines once the answer is in


def test_question_preference_exact_output_and_marker(prefs):
    """The main case spelled out in full, without helpers."""
    payload = ask(DEPLOY)
    ran = prefs.run("question-preference", payload)
    assert ran.code == 0
    assert ran.out == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": 'hookwright ask-guard: answered for you (never-ask): "Which deploy target?" '
                                    "-> staging (recommended)",
        "updatedInput": {
            "questions": [{"question": "Which deploy target? <qid:deploy-target>", "header": "Pick",
                           "options": [{"label": "staging (recommended)", "description": "about staging (recommended)"},
                                       {"label": "canary", "description": "about canary"}],
                           "multiSelect": False}],
            "answers": {"Which deploy target? <qid:deploy-target>": "staging (recommended)"}}}}
    marker = json.loads(prefs.marker().read_text())
    assert TIME.match(marker.pop("time"))
    assert marker == {"tool_use_id": "toolu_01", "session_id": "sess-1", "mode": "answer", "decisions": [
        {"id": "deploy-target", "question": "Which deploy target? <qid:deploy-target>",
         "answer": "staging (recommended)", "preference": "never-ask", "preference_source": "project",
         "door": "two-way", "door_source": "registry"}]}


def test_question_preference_echoes_every_input_field(prefs):
    payload = ask(dict(DEPLOY, extra={"kept": [1, 2]}))
    payload["tool_input"]["metadata"] = {"source": "skill"}
    ran = prefs.run("question-preference", payload)
    updated = ran.out["hookSpecificOutput"]["updatedInput"]
    assert updated == dict(payload["tool_input"], answers={DEPLOY["question"]: "staging (recommended)"})


REFUSED = [
    pytest.param(ask(UNMARKED), id="unmarked question"),
    pytest.param(ask(q("Log level? <qid:log-level>", "info (recommended)", "debug")), id="always-ask"),
    pytest.param(ask(q("Indent? <qid:indent-width>", "4 (recommended)", "2")), id="no preference for the id"),
    pytest.param(ask(q("Plan the schema? <qid:db-plan>", "Plan A (recommended)", "Plan B")),
                 id="one-way door from the registry"),
    pytest.param(ask(q("Delete the merged branches? <qid:cleanup>", "Yes (recommended)", "No")),
                 id="one-way door from the classifier: question"),
    pytest.param(ask(q("What about the old config? <qid:old-config>", "Overwrite it (recommended)", "Keep it")),
                 id="one-way door from the classifier: option label"),
    pytest.param(ask({"question": "Next step? <qid:old-config>", "header": "Step", "multiSelect": False,
                      "options": [{"label": "A (recommended)", "description": "runs the migration"},
                                  {"label": "B", "description": "waits"}]}),
                 id="one-way door from the classifier: option description"),
    pytest.param(ask(q("Clean up? <qid:cleanup>", "rm -rf build (recommended)", "leave it")),
                 id="one-way door from the classifier: rm"),
    pytest.param(ask(q("Push how? <qid:cleanup>", "git push --force (recommended)", "plain push")),
                 id="one-way door from the classifier: --force"),
    pytest.param(ask(q("Ship it? <qid:cleanup>", "to production (recommended)", "wait")),
                 id="one-way door from the classifier: production"),
    pytest.param(ask(q("Which color scheme? <qid:color>", "Light", "Dark")),
                 id="ambiguous: no recommendation at all"),
    pytest.param(ask(q("Which color scheme? <qid:color>", "Light (recommended)", "Dark (recommended)")),
                 id="ambiguous: two recommended labels"),
    pytest.param(ask(q("Which color scheme? <qid:color>\nRecommendation: Light or Dark", "Light", "Dark")),
                 id="ambiguous: a Recommendation line naming two labels"),
    pytest.param(ask(q("Which color scheme? <qid:color>\nRecommendation: Blue", "Light", "Dark")),
                 id="ambiguous: a Recommendation line naming no label"),
    pytest.param(ask(q("Which color scheme? <qid:color>\nRecommendation: Light\nRecommendation: Dark",
                       "Light", "Dark")),
                 id="ambiguous: two Recommendation lines, two labels"),
    pytest.param(ask(q("Which font? <qid:font>\nRecommendation: Fira, not Fira Code", "Fira", "Fira Code")),
                 id="ambiguous: a shorter label also named on its own"),
    pytest.param(ask(q("Which color? <qid:color> We recommend Dark", "Light", "Dark")),
                 id="ambiguous: a recommendation that is not a Recommendation line"),
    pytest.param(ask(DEPLOY, UNMARKED), id="mixed call: decidable + unmarked"),
    pytest.param(ask(DEPLOY, q("Log level? <qid:log-level>", "info (recommended)", "debug")),
                 id="mixed call: decidable + always-ask"),
    pytest.param(ask(DEPLOY, q("Which color scheme? <qid:color>", "Light", "Dark")),
                 id="mixed call: decidable + ambiguous"),
    pytest.param(ask(q("Drop them? <qid:cleanup>", "Yes (recommended)", "No"), DEPLOY),
                 id="mixed call: one-way + decidable"),
    pytest.param(ask(DEPLOY, dict(DEPLOY, options=[{"label": "canary (recommended)", "description": "x"},
                                                   {"label": "staging", "description": "y"}])),
                 id="two questions with the same text"),
    pytest.param(ask(q("Which features? <qid:features>", "a (recommended)", "b", multi=True)),
                 id="multi-select question"),
    pytest.param(ask(q("Where? <qid:deploy-target> <qid:test-runner>", "a (recommended)", "b")),
                 id="two different markers in one question"),
    pytest.param(ask(dict(DEPLOY, question="Which deploy target? <qid:deploy target>")),
                 id="a marker with an invalid id"),
    pytest.param(dict(ask(DEPLOY), tool_input={"questions": [DEPLOY], "answers": {DEPLOY["question"]: "canary"}}),
                 id="already answered"),
    pytest.param(ask(DEPLOY, tool="AskUserQuestionV2"), id="another tool"),
    pytest.param(ask(DEPLOY, tool="mcp__ui__AskUserQuestionV2"), id="another MCP tool"),
    pytest.param(ask(DEPLOY, tool="mcp____AskUserQuestion"), id="an MCP name without a server"),
    pytest.param(ask(DEPLOY, event="PostToolUse"), id="another event"),
    pytest.param(dict(ask(DEPLOY), tool_input={"questions": "Which deploy target? <qid:deploy-target>"}),
                 id="questions not a list"),
    pytest.param(dict(ask(DEPLOY), tool_input={"questions": []}), id="no questions"),
    pytest.param(ask({"question": "Where? <qid:deploy-target>", "options": [{"label": 3}, {"label": "b"}]}),
                 id="an option without a text label"),
    pytest.param(ask({"question": "Where? <qid:deploy-target>"}), id="a question without options"),
    pytest.param(dict(ask(DEPLOY), tool_input=["not", "an", "object"]), id="tool_input not an object"),
]


@pytest.mark.parametrize("payload", REFUSED)
def test_question_preference_leaves_the_question_to_the_user(prefs, payload):
    ran = prefs.run("question-preference", payload)
    assert passes_through(ran), ran
    assert not (prefs.state / "auto").exists()
    assert prefs.questions() == []
    assert prefs.errors() == []


@pytest.mark.parametrize("payload", REFUSED[:6])
def test_question_preference_refuses_in_deny_mode_too(prefs, payload):
    assert passes_through(prefs.run("question-preference", payload, "mode=deny"))
    assert prefs.questions() == []


def test_deny_mode_names_the_chosen_options_and_logs_them(prefs):
    payload = ask(DEPLOY, COLOR_LINE)
    ran = prefs.run("question-preference", payload, "mode=deny")
    assert (ran.code, ran.out) == (0, denied(("deploy-target", DEPLOY["question"], "staging (recommended)"),
                                             ("color", COLOR_LINE["question"], "Dark")))
    assert not (prefs.state / "auto").exists()  # PostToolUse does not fire after a deny
    why = {"preference": "never-ask", "preference_source": "project", "door": "two-way"}
    assert prefs.questions() == [
        {"id": "deploy-target", "question": DEPLOY["question"], "options": ["staging (recommended)", "canary"],
         "answer": "staging (recommended)", "source": "auto-deny", "session_id": "sess-1",
         "tool_use_id": "toolu_01", "why": dict(why, door_source="registry")},
        {"id": "color", "question": COLOR_LINE["question"], "options": ["Light", "Dark"], "answer": "Dark",
         "source": "auto-deny", "session_id": "sess-1", "tool_use_id": "toolu_01",
         "why": dict(why, door_source="default")},
    ]


def test_deny_mode_exact_output(prefs):
    ran = prefs.run("question-preference", ask(DEPLOY), "mode=deny")
    assert ran.out == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "hookwright ask-guard: the user chose never to be asked this (never-ask "
                                    "preference), so it was not shown to them. Take the recommended option as "
                                    "their answer and continue without asking again:\n"
                                    '- [deploy-target] "Which deploy target?" -> take "staging (recommended)"'}}


# -- where preferences come from ---------------------------------------------------------------

def _prefs(questions=None, doors=None):
    return {"version": 1, "questions": questions or {}, "doors": doors or {}}


PRECEDENCE = [
    pytest.param(_prefs({"deploy-target": "never-ask"}), None, "user", id="user file only"),
    pytest.param(None, _prefs({"deploy-target": "never-ask"}), "project", id="project file only"),
    pytest.param(_prefs({"deploy-target": "always-ask"}), _prefs({"deploy-target": "never-ask"}), "project",
                 id="project never-ask over user always-ask"),
    pytest.param(_prefs({"deploy-target": "never-ask"}), _prefs({"deploy-target": "always-ask"}), None,
                 id="project always-ask over user never-ask"),
    pytest.param(_prefs({"deploy-target": "never-ask"}), _prefs({"other": "always-ask"}), "user",
                 id="per id: a project file without the id keeps the user's"),
    pytest.param(_prefs({"deploy-target": "never-ask"}, {"deploy-target": "one-way"}),
                 _prefs(doors={"deploy-target": "two-way"}), "user", id="project door two-way over user one-way"),
    pytest.param(_prefs({"deploy-target": "never-ask"}, {"deploy-target": "two-way"}),
                 _prefs(doors={"deploy-target": "one-way"}), None, id="project door one-way over user two-way"),
    pytest.param({"questions": {"deploy-target": "never-ask"}}, None, "user", id="version and doors may be left out"),
    pytest.param(None, None, None, id="no preference files"),
]


@pytest.mark.parametrize("user, project, source", PRECEDENCE)
def test_preferences_project_over_user(box, user, project, source):
    if user is not None:
        box.user_prefs(user)
    if project is not None:
        box.project_prefs(project)
    payload = ask(q("Where to? <qid:deploy-target>", "staging (recommended)", "canary"))
    ran = box.run("question-preference", payload)
    if source is None:
        assert passes_through(ran)
    else:
        assert ran.out == answered(payload, {"Where to? <qid:deploy-target>": "staging (recommended)"})
        decision = json.loads(box.marker().read_text())["decisions"][0]
        assert decision["preference_source"] == source
    assert box.errors() == []


INVALID = [
    pytest.param("{not json", "not valid JSON", id="not JSON"),
    pytest.param('["deploy-target"]', "expected a JSON object", id="not an object"),
    pytest.param({"version": 2, "questions": {"deploy-target": "never-ask"}}, "version 2", id="unknown version"),
    pytest.param({"version": 1, "questions": {"deploy-target": "sometimes"}}, '"questions" must map',
                 id="unknown preference value"),
    pytest.param({"version": 1, "questions": ["deploy-target"]}, '"questions" must map', id="questions not a map"),
    pytest.param({"version": 1, "doors": {"deploy-target": "revolving"}}, '"doors" must map', id="unknown door"),
    pytest.param(b"\xff\xfe{}", "not valid JSON", id="not UTF-8"),
    pytest.param('{"version": 1, "questions": {"deploy-target": NaN}}', "not valid JSON", id="NaN"),
]


@pytest.mark.parametrize("content, why", INVALID)
def test_an_invalid_project_file_is_ignored_with_one_log_line(box, content, why):
    box.user_prefs(_prefs({"deploy-target": "never-ask"}))
    path = box.project / ".claude" / "hookwright-prefs.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(content if isinstance(content, bytes) else
                     (content if isinstance(content, str) else json.dumps(content)).encode())
    ran = box.run("question-preference", ask(DEPLOY))
    assert ran.out == answered(ask(DEPLOY), {DEPLOY["question"]: "staging (recommended)"})  # the user file counts
    [line] = box.errors()
    assert " question-preference ignored the project preferences file " + str(path) in line
    assert why in line


def test_an_invalid_user_file_is_ignored_with_one_log_line(box):
    path = box.user_prefs({"version": 1, "questions": {"deploy-target": 1}})
    box.project_prefs(_prefs({"test-runner": "never-ask"}))
    ran = box.run("question-preference", ask(RUNNER))
    assert ran.out == answered(ask(RUNNER), {RUNNER["question"]: "pytest (recommended)"})
    [line] = box.errors()
    assert "ignored the user preferences file " + str(path) in line


def test_an_invalid_file_never_turns_a_preference_on(box):
    box.project_prefs("{broken")
    assert passes_through(box.run("question-preference", ask(DEPLOY)))
    assert len(box.errors()) == 1


def test_without_claude_project_dir_the_payload_cwd_is_the_project(box):
    elsewhere = box.root / "elsewhere"
    box.project_prefs(_prefs({"deploy-target": "never-ask"}), project=elsewhere)
    payload = ask(DEPLOY, cwd=str(elsewhere))
    ran = box.run("question-preference", payload, env={"CLAUDE_PROJECT_DIR": ""})
    assert ran.out == answered(payload, {DEPLOY["question"]: "staging (recommended)"})
    # and CLAUDE_PROJECT_DIR, when set, wins over the cwd
    box.marker().unlink()
    assert passes_through(box.run("question-preference", payload))


def test_xdg_config_home_moves_the_user_file(box):
    other = box.root / "other-config"
    (other / "hookwright").mkdir(parents=True)
    (other / "hookwright" / "ask-guard.json").write_text(json.dumps(_prefs({"deploy-target": "never-ask"})))
    assert passes_through(box.run("question-preference", ask(DEPLOY)))
    ran = box.run("question-preference", ask(DEPLOY), env={"XDG_CONFIG_HOME": str(other)})
    assert ran.out == answered(ask(DEPLOY), {DEPLOY["question"]: "staging (recommended)"})


@pytest.mark.parametrize("tool_use_id", [None, "../../escape", "", "x" * 200])
def test_answer_mode_needs_a_usable_tool_use_id(prefs, tool_use_id):
    """Without a marker the answer could not be told from the user's, so the user is asked."""
    ran = prefs.run("question-preference", ask(DEPLOY, tool_use_id=tool_use_id))
    assert passes_through(ran)
    [line] = prefs.errors()
    assert "no usable tool_use_id" in line
    assert not (prefs.state / "auto").exists()


def test_an_unknown_mode_decides_nothing(prefs):
    assert passes_through(prefs.run("question-preference", ask(DEPLOY), "mode=auto"))
    [line] = prefs.errors()
    assert "unknown mode 'auto'" in line


def test_an_unwritable_state_dir_leaves_the_question_to_the_user(prefs):
    blocker = prefs.root / "state-file"
    blocker.write_text("a file where the state dir should be")
    ran = prefs.run("question-preference", ask(DEPLOY), env={"XDG_STATE_HOME": str(blocker)})
    assert passes_through(ran)
    assert len(prefs.errors()) == 1


def test_stale_markers_are_cleaned_when_a_new_one_is_written(prefs):
    stale = prefs.marker("toolu_old")
    stale.parent.mkdir(parents=True)
    stale.write_text("{}")
    os.utime(stale, (1, 1))
    fresh = prefs.marker("toolu_recent")
    fresh.write_text("{}")
    prefs.run("question-preference", ask(DEPLOY))
    assert sorted(p.name for p in stale.parent.iterdir()) == ["toolu_01.json", "toolu_recent.json"]


# ---- question-log ------------------------------------------------------------------------------

def posted(*questions, response, tool_use_id="toolu_01", tool="AskUserQuestion", tool_input=None):
    payload = ask(*questions, tool=tool, tool_use_id=tool_use_id, event="PostToolUse")
    if tool_input is not None:
        payload["tool_input"] = tool_input
    if response is not ...:
        payload["tool_response"] = response
    return payload


def line(question, answer, source, qid=None, **extra):
    labels = [o["label"] if isinstance(o, dict) else o for o in question["options"]]
    record = {"id": qid or h_id(question["question"], labels), "question": question["question"],
              "options": labels, "answer": answer, "source": source, "session_id": "sess-1",
              "tool_use_id": "toolu_01"}
    record.update(extra)
    return record


FEATURES = q("Which features? <qid:features>", "lint", "types", "docs", multi=True)
SHAPES = [
    pytest.param(posted(DEPLOY, response={"questions": [DEPLOY], "answers": {DEPLOY["question"]: "canary"}}),
                 [line(DEPLOY, "canary", "user", "deploy-target")], id="answers map (Claude Code 2.1.328)"),
    pytest.param(posted(UNMARKED, RUNNER, response={"questions": [UNMARKED, RUNNER],
                                                    "answers": {UNMARKED["question"]: "unittest"}}),
                 [line(UNMARKED, "unittest", "user"), line(RUNNER, None, "user", "test-runner")],
                 id="answers map, one question unanswered"),
    pytest.param(posted(DEPLOY, response={"questions": [DEPLOY], "answers": {}}),
                 [line(DEPLOY, None, "user", "deploy-target")], id="answers map, nobody answered"),
    pytest.param(posted(DEPLOY, FEATURES, response={"questions": [DEPLOY, FEATURES], "answers": {
        DEPLOY["question"]: "canary", FEATURES["question"]: "lint, docs"}}),
                 [line(DEPLOY, "canary", "user", "deploy-target"), line(FEATURES, "lint, docs", "user", "features")],
                 id="answers map, multi-select"),
    pytest.param(posted(DEPLOY, response={"answers": {DEPLOY["question"]: "canary"}}),
                 [line(DEPLOY, "canary", "user", "deploy-target")], id="answers map, questions from the input"),
    pytest.param(posted(DEPLOY, UNMARKED, response={"answers": [
        {"question": UNMARKED["question"], "answer": "pytest (recommended)"},
        {"question": DEPLOY["question"], "answer": "canary"}]}),
                 [line(DEPLOY, "canary", "user", "deploy-target"), line(UNMARKED, "pytest (recommended)", "user")],
                 id="answers array of objects"),
    pytest.param(posted(DEPLOY, UNMARKED, response={"answers": ["canary", "unittest"]}),
                 [line(DEPLOY, "canary", "user", "deploy-target"), line(UNMARKED, "unittest", "user")],
                 id="answers array in question order"),
    pytest.param(posted(DEPLOY, FEATURES, response={"answers": ["canary", ["lint", "docs"]]}),
                 [line(DEPLOY, "canary", "user", "deploy-target"),
                  line(FEATURES, ["lint", "docs"], "user", "features")],
                 id="answers array with a list for a multi-select"),
    pytest.param(posted(DEPLOY, response={"questions": [dict(DEPLOY, user_answer="canary")]}),
                 [line(DEPLOY, "canary", "user", "deploy-target")], id="questions[*].user_answer"),
    pytest.param(posted(DEPLOY, UNMARKED, response={"questions": [dict(DEPLOY, user_answer="canary"), UNMARKED]}),
                 [line(DEPLOY, "canary", "user", "deploy-target"), line(UNMARKED, None, "user")],
                 id="questions[*].user_answer, one missing"),
    pytest.param(posted(DEPLOY, response=json.dumps({"answers": {DEPLOY["question"]: "canary"}})),
                 [line(DEPLOY, "canary", "user", "deploy-target")], id="an answers map as JSON text"),
    pytest.param(posted(DEPLOY, tool="mcp__ui__AskUserQuestion", response=[
        {"type": "text", "text": json.dumps({"answers": {DEPLOY["question"]: "canary"}})}]),
                 [line(DEPLOY, "canary", "user", "deploy-target")], id="MCP text block holding an answers map"),
    pytest.param(posted(DEPLOY, tool="mcp__ui__AskUserQuestion", response={"content": [
        {"type": "text", "text": json.dumps({"questions": [dict(DEPLOY, user_answer="canary")]})}]}),
                 [line(DEPLOY, "canary", "user", "deploy-target")], id="MCP result holding user_answer"),
]


@pytest.mark.parametrize("payload, expected", SHAPES)
def test_question_log_reads_the_response_shapes(box, payload, expected):
    ran = box.run("question-log", payload)
    assert passes_through(ran), ran
    assert box.questions() == expected
    assert box.errors() == []


UNKNOWN = [
    pytest.param("Your questions have been answered: \"Q\"=\"A\".", "str", None, id="the result text"),
    pytest.param(..., "null", None, id="no tool_response"),
    pytest.param(None, "null", None, id="null"),
    pytest.param({"result": "canary"}, "dict", ["result"], id="an object without answers"),
    pytest.param({"answers": ["canary", "unittest"]}, "dict", ["answers"], id="answers array of the wrong length"),
    pytest.param({"answers": [{"answer": "canary"}]}, "dict", ["answers"],
                 id="answers array of objects without question"),
    pytest.param({"answers": "canary"}, "dict", ["answers"], id="answers as a string"),
    pytest.param(["canary"], "list", None, id="a list"),
    pytest.param("{not json", "str", None, id="broken JSON text"),
    pytest.param(42, "int", None, id="a number"),
]


@pytest.mark.parametrize("response, kind, keys", UNKNOWN)
def test_question_log_records_an_unknown_shape_without_guessing(box, response, kind, keys):
    ran = box.run("question-log", posted(DEPLOY, response=response))
    assert passes_through(ran)
    expected = {"source": "unknown-shape", "tool_name": "AskUserQuestion", "session_id": "sess-1",
                "tool_use_id": "toolu_01", "response_type": kind, "auto_marker": False, "ids": ["deploy-target"]}
    if keys is not None:
        expected["response_keys"] = keys
    assert box.questions() == [expected]


def test_question_log_marker_round_trip(prefs):
    """question-preference answers and marks; question-log sees Claude Code's result, logs 'auto'
    and consumes the marker; the next call with the same id is the user's again."""
    pre = ask(DEPLOY, RUNNER)
    assert prefs.run("question-preference", pre).out is not None
    assert prefs.marker().exists()
    answers = {DEPLOY["question"]: "staging (recommended)", RUNNER["question"]: "pytest (recommended)"}
    post = posted(DEPLOY, RUNNER, response={"questions": [DEPLOY, RUNNER], "answers": answers},
                  tool_input=dict(pre["tool_input"], answers=answers))
    assert passes_through(prefs.run("question-log", post))
    assert not prefs.marker().exists()
    why = {"preference": "never-ask", "preference_source": "project", "door": "two-way"}
    assert prefs.questions() == [
        line(DEPLOY, "staging (recommended)", "auto", "deploy-target", why=dict(why, door_source="registry")),
        line(RUNNER, "pytest (recommended)", "auto", "test-runner", why=dict(why, door_source="default")),
    ]
    assert passes_through(prefs.run("question-log", post))
    assert [r["source"] for r in prefs.questions()[2:]] == ["user", "user"]


def test_question_log_an_answer_other_than_the_marked_one_is_not_auto(prefs):
    prefs.run("question-preference", ask(DEPLOY))
    post = posted(DEPLOY, response={"questions": [DEPLOY], "answers": {DEPLOY["question"]: "canary"}})
    prefs.run("question-log", post)
    assert prefs.questions() == [line(DEPLOY, "canary", "user", "deploy-target")]
    assert not prefs.marker().exists()


def test_question_log_marker_of_another_call_does_not_count(prefs):
    prefs.run("question-preference", ask(DEPLOY, tool_use_id="toolu_other"))
    post = posted(DEPLOY, response={"questions": [DEPLOY], "answers": {DEPLOY["question"]: "staging (recommended)"}})
    prefs.run("question-log", post)
    assert prefs.questions() == [line(DEPLOY, "staging (recommended)", "user", "deploy-target")]
    assert prefs.marker("toolu_other").exists()


def test_question_log_unknown_shape_still_consumes_the_marker(prefs):
    prefs.run("question-preference", ask(DEPLOY))
    prefs.run("question-log", posted(DEPLOY, response="answered"))
    [record] = prefs.questions()
    assert (record["source"], record["auto_marker"]) == ("unknown-shape", True)
    assert not prefs.marker().exists()


def test_question_log_hash_ids_ignore_option_order(box):
    one = q("Which test runner?", "pytest", "unittest")
    two = q("Which test runner?", "unittest", "pytest")
    for question in (one, two):
        box.run("question-log", posted(question, response={"answers": {question["question"]: "pytest"}}))
    first, second = box.questions()
    assert first["id"] == second["id"] == h_id("Which test runner?", ["pytest", "unittest"])
    assert first["id"] != h_id("Which test runner??", ["pytest", "unittest"])


@pytest.mark.parametrize("payload", [
    pytest.param(posted(DEPLOY, tool="Bash", response={"answers": {}}), id="another tool"),
    pytest.param(dict(posted(DEPLOY, response={"answers": {}}), hook_event_name="PreToolUse"), id="another event"),
])
def test_question_log_ignores_other_calls(box, payload):
    assert passes_through(box.run("question-log", payload))
    assert box.questions() == []


def test_question_log_keeps_appending(box):
    for answer in ("canary", "staging (recommended)"):
        box.run("question-log", posted(DEPLOY, response={"answers": {DEPLOY["question"]: answer}}))
    assert [r["answer"] for r in box.questions()] == ["canary", "staging (recommended)"]


# ---- ask-error-fallback ------------------------------------------------------------------------

DB = q("Which database? <qid:db-engine>", "Postgres (recommended)", "SQLite")
WIPE = q("Wipe the test database? <qid:wipe-db>", "Yes (recommended)", "No")
OPEN = q("Which color scheme?", "Light", "Dark")

HEAD = ("hookwright ask-guard: the question tool {tool} failed ({problem}), so the user has not seen these "
        "questions. Do not call {tool} again for them. ")
BODY = {
    "headless": "Nobody can answer questions in this session (a headless run). Do not choose an option on the "
                "user's behalf: stop the work that depends on these answers and end with a short report that "
                "you are blocked on the questions below, with their options and your recommendation.",
    "spawned": "This session was started by a program or another agent, and no person is there to answer. "
               "For each question below, take the option shown and continue, and say in your final report which "
               "option you took. Where it says BLOCKED, do not choose: stop that part of the work and report that "
               "you are blocked on that question.",
    "interactive": "Ask the user in plain text instead: write each question below with its options and your "
                   "recommendation, then end your turn and wait for their reply before doing anything that "
                   "depends on it.",
}
LISTING = ('\n- "Which database?"\n  - Postgres (recommended): about Postgres (recommended)\n'
           "  - SQLite: about SQLite\n  Recommended: Postgres (recommended)")
ITEMS = {"headless": LISTING, "interactive": LISTING,
         "spawned": '\n- "Which database?" -> take "Postgres (recommended)".'}


def context(event, session, problem, tool="AskUserQuestion", items=None):
    text = HEAD.format(tool=tool, problem=problem) + BODY[session] + (ITEMS[session] if items is None else items)
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def failed(*questions, error="Error: the question UI crashed", tool="AskUserQuestion", **extra):
    payload = ask(*questions, tool=tool, event="PostToolUseFailure", **extra)
    if error is not ...:
        payload["error"] = error
    return payload


SESSIONS = ("headless", "spawned", "interactive")


@pytest.mark.parametrize("session", SESSIONS)
def test_fallback_on_failure_for_each_session(box, session):
    ran = box.run("ask-error-fallback", failed(DB), "session=" + session)
    assert (ran.code, ran.out) == (0, context("PostToolUseFailure", session, "Error: the question UI crashed"))


def test_fallback_exact_text_interactive(box):
    """One case spelled out in full."""
    ran = box.run("ask-error-fallback", failed(DB), "session=interactive")
    assert ran.out == {"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext":
        "hookwright ask-guard: the question tool AskUserQuestion failed (Error: the question UI crashed), so the "
        "user has not seen these questions. Do not call AskUserQuestion again for them. Ask the user in plain "
        "text instead: write each question below with its options and your recommendation, then end your turn "
        "and wait for their reply before doing anything that depends on it.\n"
        '- "Which database?"\n'
        "  - Postgres (recommended): about Postgres (recommended)\n"
        "  - SQLite: about SQLite\n"
        "  Recommended: Postgres (recommended)"}}


ERROR_SHAPES = [
    pytest.param(..., "it returned nothing", id="no tool_response"),
    pytest.param(None, "it returned nothing", id="null"),
    pytest.param("", "it returned nothing", id="empty string"),
    pytest.param("  \n", "it returned nothing", id="blank string"),
    pytest.param({}, "it returned nothing", id="empty object"),
    pytest.param([], "it returned nothing", id="empty list"),
    pytest.param({"is_error": True, "content": "the dialog was closed"},
                 "it reported an error: the dialog was closed", id="is_error with content"),
    pytest.param({"isError": True, "content": [{"type": "text", "text": "UI bridge down"}]},
                 "it reported an error: UI bridge down", id="MCP isError"),
    pytest.param({"is_error": True}, "it reported an error: (no message)", id="is_error alone"),
    pytest.param({"error": "timed out after 300s"}, "it reported an error: timed out after 300s", id="error field"),
    pytest.param({"error": {"message": "no TTY"}}, "it reported an error: no TTY", id="error object"),
    pytest.param(SENTINEL, "it returned: " + SENTINEL, id="the missing-result sentinel"),
    pytest.param("[" + SENTINEL + "]", "it returned: " + SENTINEL, id="the sentinel inside text"),
    pytest.param([{"type": "text", "text": SENTINEL}], "it returned: " + SENTINEL, id="the sentinel in a text block"),
    pytest.param({"content": [{"type": "text", "text": SENTINEL}]}, "it returned: " + SENTINEL,
                 id="the sentinel in an MCP result"),
    pytest.param({"content": []}, "it returned nothing", id="an MCP result without content"),
    pytest.param([{"type": "text", "text": ""}], "it returned nothing", id="an empty text block"),
]


@pytest.mark.parametrize("session", SESSIONS)
@pytest.mark.parametrize("response, problem", ERROR_SHAPES)
def test_fallback_on_error_shaped_post_tool_use(box, response, problem, session):
    payload = posted(DB, response=response)
    ran = box.run("ask-error-fallback", payload, "session=" + session)
    assert (ran.code, ran.out) == (0, context("PostToolUse", session, problem))


NOT_ERRORS = [
    pytest.param({"questions": [DB], "answers": {DB["question"]: "SQLite"}}, id="an ordinary answer"),
    pytest.param({"questions": [DB], "answers": {DB["question"]: "Show me the error log"}},
                 id="an answer that mentions an error"),
    pytest.param({"questions": [DB], "answers": {DB["question"]: SENTINEL}},
                 id="an answer that quotes the sentinel"),
    pytest.param({"questions": [DB], "answers": {}}, id="nobody answered"),
    pytest.param({"questions": [DB], "answers": {DB["question"]: "SQLite"}, "error": None},
                 id="an empty error field"),
    pytest.param({"questions": [DB], "answers": {DB["question"]: "SQLite"}, "is_error": False}, id="is_error false"),
    pytest.param('Your questions have been answered: "Which database?"="error handling first".',
                 id="the answered text mentioning error"),
    pytest.param([{"type": "text", "text": "User chose: fix the error"}], id="an MCP answer mentioning error"),
    pytest.param([{"type": "image", "data": "..."}], id="a non-text block"),
]


@pytest.mark.parametrize("session", SESSIONS)
@pytest.mark.parametrize("response", NOT_ERRORS)
def test_fallback_leaves_ordinary_answers_alone(box, response, session):
    assert passes_through(box.run("ask-error-fallback", posted(DB, response=response), "session=" + session))


AUTO = [
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "cli", "CLAUDE_CODE_SESSION_ATTENDED": "1"}, {}, "interactive",
                 id="interactive claude (2.1.328)"),
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "sdk-cli", "CLAUDE_CODE_SESSION_ATTENDED": "0"}, {}, "headless",
                 id="claude -p (2.1.328)"),
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "sdk-py", "CLAUDE_CODE_SESSION_ATTENDED": "0"}, {}, "spawned",
                 id="Agent SDK, Python"),
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "sdk-ts", "CLAUDE_CODE_SESSION_ATTENDED": "0"}, {}, "spawned",
                 id="Agent SDK, TypeScript"),
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "sdk-ts", "CLAUDE_CODE_SESSION_ATTENDED": "1"}, {}, "interactive",
                 id="an SDK app that says a person is there"),
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "cli", "CLAUDE_CODE_SESSION_ATTENDED": "1"},
                 {"agent_id": "a1", "agent_type": "general-purpose"}, "spawned", id="a subagent"),
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "claude-vscode"}, {}, "interactive", id="an editor entrypoint"),
    pytest.param({"CLAUDE_CODE_ENTRYPOINT": "sdk-cli"}, {}, "headless", id="sdk-cli without ATTENDED"),
    pytest.param({"CLAUDE_CODE_SESSION_ATTENDED": "0"}, {}, "headless", id="unattended, no entrypoint"),
    pytest.param({}, {"permission_mode": "dontAsk"}, "headless", id="nothing known, dontAsk mode"),
    pytest.param({"CI": "true"}, {}, "headless", id="nothing known, CI"),
    pytest.param({}, {}, "interactive", id="nothing known"),
]


@pytest.mark.parametrize("env, extra, session", AUTO)
def test_fallback_detects_the_session(box, env, extra, session):
    payload = failed(DB, **extra)
    ran = box.run("ask-error-fallback", payload, env=env)
    assert ran.out == context("PostToolUseFailure", session, "Error: the question UI crashed")
    ran = box.run("ask-error-fallback", payload, "session=auto", env=env)
    assert ran.out == context("PostToolUseFailure", session, "Error: the question UI crashed")


def test_fallback_session_option_overrides_detection(box):
    attended = {"CLAUDE_CODE_ENTRYPOINT": "cli", "CLAUDE_CODE_SESSION_ATTENDED": "1"}
    ran = box.run("ask-error-fallback", failed(DB), "session=headless", env=attended)
    assert ran.out == context("PostToolUseFailure", "headless", "Error: the question UI crashed")


def test_fallback_unknown_session_option_uses_detection_and_logs(box):
    ran = box.run("ask-error-fallback", failed(DB), "session=robot", env={"CLAUDE_CODE_SESSION_ATTENDED": "0"})
    assert ran.out == context("PostToolUseFailure", "headless", "Error: the question UI crashed")
    [line_] = box.errors()
    assert "unknown session 'robot'" in line_


def test_fallback_spawned_blocks_one_way_doors_and_open_questions(box):
    box.project_prefs(_prefs(doors={"db-engine": "one-way", "wipe-db": "two-way"}))
    ran = box.run("ask-error-fallback", failed(DB, WIPE, OPEN, RUNNER, FEATURES), "session=spawned")
    assert ran.out == context("PostToolUseFailure", "spawned", "Error: the question UI crashed", items=(
        '\n- "Which database?" -> BLOCKED: the choice looks destructive or hard to undo (a one-way door).'
        '\n- "Wipe the test database?" -> take "Yes (recommended)".'
        '\n- "Which color scheme?" -> BLOCKED: no single option is recommended.'
        '\n- "Which test runner?" -> take "pytest (recommended)".'
        '\n- "Which features?" -> BLOCKED: no single option is recommended.'))


def test_fallback_spawned_classifier_without_registry(box):
    ran = box.run("ask-error-fallback", failed(WIPE), "session=spawned")
    assert ran.out == context("PostToolUseFailure", "spawned", "Error: the question UI crashed", items=(
        '\n- "Wipe the test database?" -> BLOCKED: the choice looks destructive or hard to undo (a one-way door).'))


def test_fallback_interactive_without_a_recommendation(box):
    ran = box.run("ask-error-fallback", failed(OPEN), "session=interactive")
    assert ran.out == context("PostToolUseFailure", "interactive", "Error: the question UI crashed", items=(
        '\n- "Which color scheme?"\n  - Light: about Light\n  - Dark: about Dark\n'
        "  No single option is marked as recommended."))


@pytest.mark.parametrize("error, problem", [
    pytest.param(..., "it failed", id="no error field"),
    pytest.param("", "it failed", id="empty error"),
    pytest.param(["not", "text"], "it failed", id="error not text"),
    pytest.param("line one\n  line two", "line one line two", id="whitespace folded"),
    pytest.param("x" * 500, "x" * 199 + "\u2026", id="long error clipped"),
])
def test_fallback_error_text(box, error, problem):
    ran = box.run("ask-error-fallback", failed(DB, error=error), "session=headless")
    assert ran.out == context("PostToolUseFailure", "headless", problem)


def test_fallback_mcp_question_tool(box):
    ran = box.run("ask-error-fallback", failed(DB, tool="mcp__conductor__AskUserQuestion", error="MCP error -32000"),
                  "session=headless")
    assert ran.out == context("PostToolUseFailure", "headless", "MCP error -32000",
                              tool="mcp__conductor__AskUserQuestion")


def test_fallback_without_readable_questions_still_advises(box):
    payload = failed(DB)
    payload["tool_input"] = {"questions": "?"}
    ran = box.run("ask-error-fallback", payload, "session=interactive")
    assert ran.out == context("PostToolUseFailure", "interactive", "Error: the question UI crashed", items="")


def test_fallback_context_stays_under_the_host_cap(box):
    many = [q("Question %d? %s" % (i, "words " * 80), *["option %d %s" % (j, "x" * 150) for j in range(12)])
            for i in range(12)]
    ran = box.run("ask-error-fallback", failed(*many), "session=interactive")
    text = ran.out["hookSpecificOutput"]["additionalContext"]
    assert len(text) <= 8000
    assert "(4 more questions not shown)" in text or text.endswith("\u2026")


@pytest.mark.parametrize("payload", [
    pytest.param(dict(failed(DB), tool_name="Bash"), id="another tool"),
    pytest.param(dict(failed(DB), hook_event_name="PreToolUse"), id="another event"),
    pytest.param(dict(failed(DB), tool_name="mcp__x__AskUserQuestionLater"), id="a longer tool name"),
])
def test_fallback_ignores_other_calls(box, payload):
    assert passes_through(box.run("ask-error-fallback", payload, "session=headless"))


# ---- every script: never a crash, never a stray output -----------------------------------------

@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("stdin", [b"", b"not json", b"[]", b"\xff\xfe", b'{"hook_event_name": 3}', b"{}",
                                   json.dumps({"hook_event_name": "PreToolUse", "tool_name": "AskUserQuestion",
                                               "tool_input": None}).encode()],
                         ids=["empty", "text", "array", "binary", "bad event", "empty object", "null input"])
def test_bad_stdin_passes_through(prefs, script, stdin):
    ran = prefs.run(script, stdin)
    assert passes_through(ran), ran
    assert ran.err == ""


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("missing", ["ask_guard_common.py", "the hook's module", RUNTIME.name])
def test_a_missing_module_passes_through(tmp_path, script, missing):
    folder = lay_out_runtime(tmp_path / "ask-guard", "ask-guard")
    (folder / (script.replace("-", "_") + ".py" if missing == "the hook's module" else missing)).unlink()
    proc = subprocess.run([sys.executable, "-I", "-S", str(folder / script), "--host", "claude"],
                          input=json.dumps(ask(DEPLOY)).encode(), capture_output=True, timeout=30,
                          env={"PATH": os.environ.get("PATH", ""), "XDG_CACHE_HOME": str(tmp_path / "cache"),
                               "HOME": str(tmp_path)})
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert f"hookwright ask-guard/{script}: cannot load its modules: ".encode() in proc.stderr


def test_only_our_modules_byte_code_goes_to_the_user_cache(tmp_path):
    """Nothing lands beside the scripts (that would be the project's repository); the pack's
    modules and the runtime library load from the user cache; the stdlib keeps its own."""
    folder = lay_out_runtime(tmp_path / "project" / ".claude" / "hookwright" / "ask-guard", "ask-guard")
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path / "home"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "HOOKWRIGHT_LOG": str(tmp_path / "log")}
    for script, payload in (("question-preference", ask(DEPLOY)), ("question-log", posted(DEPLOY, response={})),
                            ("ask-error-fallback", posted(DEPLOY, response={}))):
        for _ in range(2):
            proc = subprocess.run([sys.executable, "-I", "-S", str(folder / script), "--host", "claude"],
                                  input=json.dumps(payload).encode(), env=env, capture_output=True, timeout=30,
                                  cwd=tmp_path / "project")
            assert (proc.returncode, proc.stderr) == (0, b"")
    assert sorted(p.name for p in folder.iterdir()) == sorted([*SCRIPTS, *MODULES, RUNTIME.name])
    cached = (tmp_path / "cache" / "hookwright" / "pycache").rglob("*.pyc")
    assert sorted(p.name.split(".")[0] for p in cached) == sorted(
        [m[:-3] for m in MODULES] + ["hookwright_runtime"])
    assert not (tmp_path / "log").exists()


# ---- the pack itself ---------------------------------------------------------------------------

def test_pack_manifest_wires_four_hooks():
    from hookwright.packs import load_pack

    pack = load_pack("ask-guard")
    wiring = [(h.id, h.script, h.targets["claude"].event, h.targets["claude"].matcher, h.rewrites_input)
              for h in pack.hooks]
    matcher = "AskUserQuestion|mcp__.*__AskUserQuestion"
    assert wiring == [
        ("question-preference", "question-preference", "PreToolUse", matcher, True),
        ("question-log", "question-log", "PostToolUse", matcher, False),
        ("ask-error-fallback", "ask-error-fallback", "PostToolUseFailure", matcher, False),
        ("ask-error-fallback-post", "ask-error-fallback", "PostToolUse", matcher, False),
    ]
    assert {name: o.default for name, o in pack.options.items()} == {"mode": "answer", "session": "auto",
                                                                     "on_failure": "continue"}  # (a guard's own)
    assert sorted(pack.runtime_files("claude")) == sorted([*SCRIPTS, *MODULES, "hookwright_runtime.py"])


def test_option_defaults_agree_with_the_manifest():
    """The scripts type their options by ask_guard_common.OPTIONS; it must match pack.toml."""
    from hookwright.packs import ON_FAILURE, load_pack

    tree = ast.parse((PACK_SRC / "ask_guard_common.py").read_text())
    [options] = [ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "OPTIONS" for t in node.targets)]
    assert options == {n: o.default for n, o in load_pack("ask-guard").options.items() if n != ON_FAILURE}
