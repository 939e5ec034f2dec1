"""Fuzz every bundled hook runtime the way Claude Code runs it, with hypothesis.

Every script any pack declares (templates/packs/*/pack.toml, `[[hooks]] script`) is laid out
with its pack's modules and the runtime library in a temporary folder, as the installer lays
them out, and fed (a) arbitrary bytes, (b) arbitrary JSON values and (c) payload-shaped
objects as `python3 -I -S <script> --host claude`. Whatever comes in, the hook must exit 0,
write nothing to stderr, and print either nothing or exactly one JSON object of the one
shape Claude Code reads (Invariant 7). New packs are picked up without touching this file.

HOOKWRIGHT_RUNTIME_PYTHON picks another interpreter (e.g. a python3.8, the oldest one the
runtimes support); HOOKWRIGHT_FUZZ_SCALE multiplies the number of examples.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import lay_out_runtime

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
PYTHON = os.environ.get("HOOKWRIGHT_RUNTIME_PYTHON") or sys.executable
SCALE = float(os.environ.get("HOOKWRIGHT_FUZZ_SCALE") or 1)
PAYLOAD_EXAMPLES = max(1, int(30 * SCALE))
RAW_EXAMPLES = max(1, int(10 * SCALE))

EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "UserPromptSubmit",
          "SessionStart", "SessionEnd", "Stop", "SubagentStop", "SubagentStart", "Notification",
          "PreCompact"]
TOOLS = ["Bash", "AskUserQuestion", "mcp__srv__AskUserQuestion", "mcp__srv__tool", "mcp__docs__read_doc",
         "Read", "Write", "Edit", "Glob", "WebFetch", ""]
SPECIFIC_KEYS = {"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput",
                 "additionalContext"}
DECISIONS = {"allow", "deny", "ask"}


def declared_scripts() -> list[tuple[str, str]]:
    """(pack, script) for every hook script of every bundled pack, from its pack.toml."""
    found = []
    for manifest in sorted(TEMPLATES.glob("packs/*/pack.toml")):
        pack = tomllib.loads(manifest.read_text(encoding="utf-8"))
        for script in sorted({hook["script"] for hook in pack.get("hooks", [])}):
            found.append((manifest.parent.name, script))
    return found


SCRIPTS = declared_scripts()


def test_every_declared_hook_has_its_module_beside_its_pack_toml_and_one_shared_script():
    assert ("git-guard", "git-guard") in SCRIPTS and ("path-normalizer", "path-normalizer") in SCRIPTS
    for pack, script in SCRIPTS:
        assert "." not in script and not (TEMPLATES / "packs" / pack / script).exists(), script
        assert (TEMPLATES / "packs" / pack / (script.replace("-", "_") + ".py")).is_file(), script
    shared = TEMPLATES / "runtime" / "hook_script.py"
    assert os.access(shared, os.X_OK) and shared.read_text(encoding="utf-8").startswith("#!/usr/bin/env python3\n")


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory) -> dict:
    """Each pack folder plus the runtime library, and a home, XDG dirs and log of their own."""
    root = tmp_path_factory.mktemp("fuzz")
    runtimes = root / "project" / ".claude" / "hookwright"
    for pack in sorted({pack for pack, _ in SCRIPTS}):
        lay_out_runtime(runtimes / pack, pack)
    config = root / "config" / "hookwright"
    config.mkdir(parents=True)
    # preferences, so that the question hooks get past "nothing is configured"
    (config / "ask-guard.json").write_text(json.dumps({
        "version": 1, "questions": {"tabs": "never-ask", "deploy": "never-ask", "style": "always-ask"},
        "doors": {"tabs": "two-way"}}))
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("XDG_", "HOOKWRIGHT_", "CLAUDE"))}
    env.update({"HOME": str(root / "home"), "XDG_CONFIG_HOME": str(root / "config"),
                "XDG_STATE_HOME": str(root / "state"), "XDG_CACHE_HOME": str(root / "cache"),
                "HOOKWRIGHT_LOG": str(root / "hooks.log"), "CLAUDE_PROJECT_DIR": str(root / "project")})
    return {"root": root, "runtimes": runtimes, "env": env, "project": root / "project"}


def feed(sandbox: dict, pack: str, script: str, stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([PYTHON, "-I", "-S", str(sandbox["runtimes"] / pack / script), "--host", "claude"],
                          input=stdin, capture_output=True, env=sandbox["env"], cwd=sandbox["project"],
                          timeout=30)


def event_of(stdin: bytes):
    """The hook_event_name a runtime may answer for, if the input is a payload at all."""
    try:
        value = json.loads(stdin.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    return value.get("hook_event_name") if isinstance(value, dict) else None


def strict_json(text: bytes):
    def refuse(word):
        raise ValueError(f"{word} is not JSON")

    return json.loads(text.decode("utf-8"), parse_constant=refuse)


def check(sandbox: dict, pack: str, script: str, stdin: bytes) -> None:
    proc = feed(sandbox, pack, script, stdin)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert proc.stderr == b""
    assert "__pycache__" not in os.listdir(sandbox["runtimes"] / pack)
    if proc.stdout == b"":
        return
    assert proc.stdout.endswith(b"\n") and proc.stdout.count(b"\n") == 1, proc.stdout
    output = strict_json(proc.stdout)
    assert isinstance(output, dict) and list(output) == ["hookSpecificOutput"], output
    specific = output["hookSpecificOutput"]
    assert isinstance(specific, dict) and set(specific) <= SPECIFIC_KEYS, specific
    event = event_of(stdin)
    assert isinstance(event, str) and specific["hookEventName"] == event, (event, specific)
    assert len(specific) > 1, "an output that says nothing"
    if "permissionDecision" in specific:
        assert specific["permissionDecision"] in DECISIONS
        assert event == "PreToolUse"
    if "permissionDecisionReason" in specific:
        assert "permissionDecision" in specific and isinstance(specific["permissionDecisionReason"], str)
    if "updatedInput" in specific:
        assert event == "PreToolUse" and isinstance(specific["updatedInput"], dict)
        assert specific.get("permissionDecision", "allow") == "allow"
    if "additionalContext" in specific:
        assert isinstance(specific["additionalContext"], str)


# --- strategies ------------------------------------------------------------------------------------

SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=20))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=12)
SHELL_FRAGMENTS = ["git", " ", "reset", "--hard", "stash", "push", "-f", "--force", "clean", "-fd",
                   "commit", "--no-verify", "-n", "checkout", "--", ".", "&&", ";", "|", "$(", ")",
                   "`", "'", '"', "\\", "\n", "sudo", "env", "A=1", "bash", "-c", "eval", "<<", "EOF",
                   "#", "ls", "-C", "x"]
SHELL_TEXT = st.lists(st.sampled_from(SHELL_FRAGMENTS), max_size=20).map("".join) | st.text(max_size=40)
LABELS = st.sampled_from(["A", "B (recommended)", "Yes", "No", "Later", "Delete it (recommended)", ""]) | st.text(max_size=12)
QUESTION_TEXT = (st.sampled_from(["Use tabs? <qid:tabs>", "Deploy to production now? <qid:deploy>",
                                  "Which style? <qid:style>\nRecommendation: B", "Drop the table? <qid:x>",
                                  "Fix now?", "<qid:>", "<qid:tabs> <qid:deploy>"])
                 | st.text(max_size=30))
QUESTION = st.fixed_dictionaries(
    {"question": QUESTION_TEXT},
    optional={"header": st.text(max_size=10), "multiSelect": st.booleans(),
              "options": st.lists(st.fixed_dictionaries({"label": LABELS},
                                                        optional={"description": st.text(max_size=10)})
                                  | JSON_VALUES, max_size=4)})
ANSWERS = st.dictionaries(QUESTION_TEXT, LABELS, max_size=3) | st.lists(LABELS, max_size=3)
PATH_VALUES = st.sampled_from(["notes/a.txt", "./a", "..", ".", "/abs/x", "~/x", "file:///x", "http://h/x",
                               "C:\\x", "", " "]) | st.text(max_size=15) | JSON_VALUES
TOOL_INPUTS = st.one_of(
    st.fixed_dictionaries({"command": SHELL_TEXT},
                          optional={"description": st.text(max_size=10), "timeout": st.integers()}),
    st.fixed_dictionaries({"questions": st.lists(QUESTION, max_size=3) | JSON_VALUES},
                          optional={"answers": ANSWERS}),
    st.dictionaries(st.sampled_from(["path", "file_path", "target_path", "directory", "dir", "mode", "x"]),
                    PATH_VALUES, max_size=5),
    JSON_VALUES,
)
TOOL_RESPONSES = st.one_of(
    JSON_VALUES,
    st.fixed_dictionaries({"answers": ANSWERS}, optional={"questions": st.lists(QUESTION, max_size=2)}),
    st.fixed_dictionaries({"questions": st.lists(QUESTION.map(lambda q: {**q, "user_answer": "A"}), max_size=2)}),
    st.sampled_from([{"is_error": True}, {"error": "boom"}, "", "Tool result missing due to internal error",
                     [{"type": "text", "text": "User has answered your questions: \"Fix now?\"=\"A\""}]]),
)


def payloads(project: str):
    return st.fixed_dictionaries(
        {"hook_event_name": st.sampled_from(EVENTS), "tool_name": st.sampled_from(TOOLS)},
        optional={
            "tool_input": TOOL_INPUTS, "tool_response": TOOL_RESPONSES,
            "cwd": st.sampled_from([project, "/nonexistent/project", "relative/dir", ""]) | JSON_VALUES,
            "session_id": st.text(max_size=12), "tool_use_id": st.sampled_from(["toolu_1", "toolu_2"]) | JSON_VALUES,
            "transcript_path": st.text(max_size=12), "permission_mode": st.sampled_from(["default", "plan"]),
            "error": st.text(max_size=20), "is_interrupt": st.booleans(), "stop_hook_active": st.booleans(),
            "prompt": st.text(max_size=20), "extra": JSON_VALUES,
        })




def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


IDS = [f"{pack}/{script}" for pack, script in SCRIPTS]


@pytest.mark.parametrize("pack, script", SCRIPTS, ids=IDS)
@fuzz(RAW_EXAMPLES)
@given(stdin=st.binary(max_size=300))
def test_runtime_survives_arbitrary_bytes(sandbox, pack, script, stdin):
    check(sandbox, pack, script, stdin)


@pytest.mark.parametrize("pack, script", SCRIPTS, ids=IDS)
@fuzz(RAW_EXAMPLES)
@given(value=JSON_VALUES)
def test_runtime_survives_arbitrary_json(sandbox, pack, script, value):
    check(sandbox, pack, script, json.dumps(value).encode())


@pytest.mark.parametrize("pack, script", SCRIPTS, ids=IDS)
@fuzz(PAYLOAD_EXAMPLES)
@given(data=st.data())
def test_runtime_answers_payload_shaped_input_in_the_one_right_shape(sandbox, pack, script, data):
    value = data.draw(payloads(str(sandbox["project"])), label="payload")
    check(sandbox, pack, script, json.dumps(value).encode())


@pytest.mark.parametrize("pack, script", SCRIPTS, ids=IDS)
def test_runtime_survives_the_classic_bad_inputs(sandbox, pack, script):
    deep = b"[" * 50000 + b"]" * 50000
    for stdin in [b"", b"\n", b"null", b"{}", b"[]", b"\xff\xfe", b'{"hook_event_name": null}',
                  b'{"hook_event_name": "PreToolUse", "tool_input": NaN}', deep,
                  b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": ' + deep + b"}",
                  json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": "x" * (2 << 20)}}).encode()]:
        check(sandbox, pack, script, stdin)


# --- the serving mode answers as a fresh process does -------------------------------------------------------

HOSTS = ["claude", "cursor", "opencode"]
SERVE_EXAMPLES = max(1, int(15 * SCALE))


class Served:
    """One runtime started with --serve, kept for every call of a test module, as opencode's plugin keeps it."""

    def __init__(self, sandbox: dict, pack: str, script: str, args: tuple[str, ...]):
        self.proc = subprocess.Popen([PYTHON, "-I", "-S", str(sandbox["runtimes"] / pack / script), *args, "--serve"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=sandbox["env"], cwd=sandbox["project"])
        self.asked = 0

    def ask(self, stdin: bytes) -> tuple[bytes, bytes, int]:
        """(stdout, stderr, exit code) as the serving runtime replies them for this payload."""
        import select

        self.asked += 1
        self.proc.stdin.write(b"%d %s\n" % (self.asked, stdin))
        self.proc.stdin.flush()
        assert select.select([self.proc.stdout], [], [], 30)[0], "no answer within 30 s"
        said = json.loads(self.proc.stdout.readline())
        assert said["id"] == self.asked
        return said.get("stdout", "").encode(), said.get("stderr", "").encode(), said["code"]

    def close(self) -> bytes:
        """Its stderr, once stdin has ended and it has exited 0."""
        _, err = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, err
        return err


@pytest.fixture(scope="module")
def served(sandbox):
    runtimes: dict = {}

    def get(pack: str, script: str, args: tuple[str, ...]) -> Served:
        if (pack, script, args) not in runtimes:
            runtimes[pack, script, args] = Served(sandbox, pack, script, args)
        return runtimes[pack, script, args]

    yield get
    assert all(runtime.close() == b"" for runtime in runtimes.values())


def log_sizes(sandbox: dict) -> tuple[int, int]:
    """The sizes of the error log and the decision log beside it."""
    return tuple(path.stat().st_size if path.exists() else 0
                 for path in (sandbox["root"] / "hooks.log", sandbox["root"] / "decisions.jsonl"))


def logged(sandbox: dict, start: tuple[int, int], end: tuple[int, int] | None = None) -> tuple[list, list]:
    """The error log's messages and the decision log's entries (without their time) between two sizes."""
    error_log, decisions = (path.read_bytes() if path.exists() else b""
                            for path in (sandbox["root"] / "hooks.log", sandbox["root"] / "decisions.jsonl"))
    errors = error_log[start[0]:end[0] if end else None].decode("utf-8", "replace").splitlines()
    entries = [json.loads(line) for line in decisions[start[1]:end[1] if end else None].splitlines()]
    return [line.split(" ", 1)[1] for line in errors], [{**entry, "time": None} for entry in entries]


def same_in_both_modes(sandbox: dict, served, pack: str, script: str, args: tuple[str, ...], stdin: bytes) -> None:
    """A fresh process and the serving one print, exit, log and record the same."""
    before = log_sizes(sandbox)
    once = subprocess.run([PYTHON, "-I", "-S", str(sandbox["runtimes"] / pack / script), *args],
                          input=stdin, capture_output=True, env=sandbox["env"], cwd=sandbox["project"], timeout=30)
    middle = log_sizes(sandbox)
    answer = served(pack, script, args).ask(stdin)
    assert (answer, logged(sandbox, middle)) == ((once.stdout, once.stderr, once.returncode),
                                                 logged(sandbox, before, middle))


SERVED = [(pack, script, ("--host", host)) for pack, script in SCRIPTS for host in HOSTS]
SERVED_IDS = [f"{pack}/{script} on {args[1]}" for pack, script, args in SERVED]


@pytest.mark.parametrize("pack, script, args", SERVED, ids=SERVED_IDS)
@fuzz(SERVE_EXAMPLES)
@given(data=st.data())
def test_a_serving_runtime_answers_every_payload_as_a_fresh_process_does(sandbox, served, pack, script, args, data):
    value = data.draw(payloads(str(sandbox["project"])), label="payload")
    same_in_both_modes(sandbox, served, pack, script, args, json.dumps(value).encode())


@pytest.mark.parametrize("closed", [False, True], ids=["", "failing closed"])
@pytest.mark.parametrize("pack, script", SCRIPTS, ids=IDS)
def test_a_serving_runtime_answers_the_classic_bad_inputs_as_a_fresh_process_does(sandbox, served, pack, script,
                                                                                   closed):
    args = ("--host", "opencode")  # (the host the serving mode is for)
    deep = b"[" * 50000 + b"]" * 50000
    for stdin in [b"", b"null", b"{}", b"[]", b"\xff\xfe", b'{"hook_event_name": null}',
                  b'{"hook_event_name": "PreToolUse", "tool_input": NaN}', deep,
                  json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": "x" * (2 << 20)}}).encode()]:
        same_in_both_modes(sandbox, served, pack, script, (*args, "--fail-closed") if closed else args, stdin)


def test_a_serving_git_guard_reads_its_rules_again_when_the_user_changes_them(sandbox, served):
    overrides = sandbox["root"] / "config" / "hookwright" / "git-guard.json"
    reset = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(sandbox["project"]),
                        "tool_input": {"command": "git reset --hard"}}).encode()
    try:
        for rules in [None, {"rules": {"reset-hard": []}}, "not json", {"rules": {}}, None]:
            if rules is None:
                overrides.unlink(missing_ok=True)
            else:
                overrides.write_text(rules if isinstance(rules, str) else json.dumps(rules))
            same_in_both_modes(sandbox, served, "git-guard", "git-guard", ("--host", "claude"), reset)
        assert served("git-guard", "git-guard", ("--host", "claude")).asked >= 5
    finally:
        overrides.unlink(missing_ok=True)
