"""`simulate --host codex`: Codex's reading of a PreToolUse answer, and what simulate says of the
hooks Codex would not run. Agreement with the real Codex: tests/e2e/test_simulate_codex_conformance.py."""
from __future__ import annotations

import json
import shlex
import sys

import pytest
from hookwright import resources
from hookwright.hosts.codex import protocol, trust


def pre(**fields) -> bytes:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}}).encode()


@pytest.mark.parametrize(("code", "stdout", "stderr", "status"), [
    (2, b"", b"no", "blocked"),
    (2, b"", b"  ", "failed"),
    (1, pre(permissionDecision="deny", permissionDecisionReason="r"), b"", "failed"),
    (0, pre(permissionDecision="deny", permissionDecisionReason="r"), b"", "blocked"),
    (0, pre(permissionDecision="deny"), b"", "failed"),
    (0, pre(permissionDecision="allow"), b"", "failed"),
    (0, pre(permissionDecision="ask", permissionDecisionReason="r"), b"", "failed"),
    (0, pre(permissionDecision="defer"), b"", "failed"),
    (0, pre(updatedInput={"command": "x"}), b"", "failed"),
    (0, json.dumps({"continue": False}).encode(), b"", "failed"),
    (0, json.dumps({"decision": "block", "reason": "legacy"}).encode(), b"", "blocked"),
    (0, json.dumps({"decision": "approve"}).encode(), b"", "failed"),
    (0, json.dumps({"extra": 1}).encode(), b"", "failed"),
    (0, json.dumps({"hookSpecificOutput": {"permissionDecision": "deny"}}).encode(), b"", "failed"),
    (0, b"{not json", b"", "failed"),
    (0, b"plain words", b"", "completed"),
    (0, b"", b"", "completed"),
])
def test_codex_reads_a_pretooluse_answer_as_its_output_parser_does(code, stdout, stderr, status):
    assert protocol.read(code, stdout, stderr).status == status


def test_an_allow_with_updated_input_rewrites_and_a_timeout_fails_open():
    rewrite = protocol.read(0, pre(permissionDecision="allow", updatedInput={"command": "ls"}), b"")
    assert rewrite.updated_input == {"command": "ls"}
    assert protocol.applied("Bash", {"command": "ls", "workdir": "/"}) == ({"command": "ls"}, None)
    assert protocol.applied("Bash", {"cmd": "ls"})[1] == "hook returned updatedInput without string field `command`"
    assert protocol.read(None, b"", b"", failed="timed out").status == "failed"


@pytest.mark.parametrize(("matcher", "tool", "fires"), [
    (None, "Bash", True), ("*", "Bash", True), ("Bash|Read", "Bash", True), ("Bas", "Bash", False),
    ("bash", "Bash", False), ("B.sh", "Bash", True), ("Ba(sh", "Bash", None), ("Write", "apply_patch", True),
])
def test_a_codex_matcher_is_a_list_of_exact_names_or_an_unanchored_regex(matcher, tool, fires):
    assert protocol.matches(matcher, tool) is fires


def _hooks(project, *handlers):
    (project / ".codex").mkdir()
    data = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": list(handlers)}]}}
    (project / ".codex" / "hooks.json").write_text(json.dumps(data))
    return data


def test_simulate_runs_the_trusted_codex_hooks_and_says_which_it_skipped_and_how_to_trust_them(
        hookwright, home, project):
    said = f"{shlex.quote(sys.executable)} -c \"import sys; sys.stderr.write('no'); sys.exit(2)\""
    data = _hooks(project, {"type": "command", "command": said},
                  {"type": "command", "command": "echo untrusted >&2; exit 2"})
    hooks = list(trust.hooks_of(str(project / ".codex" / "hooks.json"), data))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        f'[projects."{project}"]\ntrust_level = "trusted"\n\n'
        f'[hooks.state."{hooks[0].key}"]\ntrusted_hash = "{hooks[0].hash}"\n')

    done = hookwright("simulate", "PreToolUse", "--host", "codex", "--command", "git status", "--project", project,
                      "--json")

    assert done.code == 0, done.out + done.err
    first, second = done.json["handlers"]
    assert first["fires"] and first["exit_code"] == 2
    assert not second["fires"] and "no hash is trusted for its key" in second["why"]
    assert hooks[1].hash in second["why"]
    assert (done.json["decision"], done.json["reason"], done.json["blocked"]) == ("deny", "no", True)
    assert resources.schema_errors("simulate.schema.json", done.json) == []


def test_simulate_on_codex_says_which_events_it_does_not_run(hookwright, home, project):
    _hooks(project, {"type": "command", "command": "true"})

    done = hookwright("simulate", "SessionEnd", "--host", "codex", "--project", project, "--json")

    assert done.code == 0, done.out + done.err
    [entry] = done.json["hosts"]
    assert not entry["simulated"] and "not SessionEnd's" in entry["why"] and "Stop" in entry["why"]


def _trusted(home, project, hooks):
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}))
    found = list(trust.hooks_of(str(project / ".codex" / "hooks.json"), {"hooks": hooks}))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n\n' + "".join(
        f'[hooks.state."{hook.key}"]\ntrusted_hash = "{hook.hash}"\n' for hook in found))


def test_simulate_on_codexs_other_events_reads_only_the_answers_whose_effect_is_measured(hookwright, home, project):
    """docs/hosts/codex.md#what-the-model-gets: a Stop or PostToolUse block with its reason; any
    other answer there, and every answer on UserPromptSubmit and SessionStart, is said not known."""
    def group(command, matcher=None):
        return [{**({"matcher": matcher} if matcher else {}), "hooks": [{"type": "command", "command": command}]}]

    block = "echo '{\"decision\": \"block\", \"reason\": \"go on\"}'"
    _trusted(home, project, {"Stop": group(block), "PostToolUse": group(block, "Bash") + group("exit 2", "Edit"),
                             "UserPromptSubmit": group("echo hi"),
                             "SessionStart": group("true", "startup") + group("echo resumed", "resume")})

    def outcome(*args):
        done = hookwright("simulate", *args, "--host", "codex", "--project", project, "--json")
        assert done.code == 0, done.out + done.err
        [entry] = done.json["hosts"]
        return entry

    stop = outcome("Stop")
    assert (stop["decision"], stop["blocked"], stop["reason"]) == ("block", True, "go on")
    assert "turn goes on" in stop["effect"] and stop["handlers"][0]["decision"] == "block"
    post = outcome("PostToolUse", "--command", "ls")
    assert (post["decision"], post["reason"]) == ("block", "go on") and "instead of its output" in post["effect"]
    assert [h["fires"] for h in post["handlers"]] == [True, False]
    edit = outcome("PostToolUse", "--tool", "Edit", "--input", json.dumps({"command": "*** Begin Patch"}))
    assert edit["decision"] is None and "not measured" in edit["effect"]  # (an exit 2 on PostToolUse)
    prompt = outcome("UserPromptSubmit")
    assert prompt["decision"] is None and "not measured" in prompt["effect"]
    start = outcome("SessionStart")
    assert [h["fires"] for h in start["handlers"]] == [True, False]  # (its matcher is tried on the source)
    assert (start["decision"], start["blocked"]) == ("none", False)


def test_simulate_on_codex_runs_an_edit_as_apply_patch_the_way_codexs_hooks_get_it(hookwright, home, project):
    """Measured on 0.171.0 (docs/hosts/codex.md#tool-names): an edit reaches the hooks as
    apply_patch, selected by `Edit` as by `apply_patch`, with the patch as tool_input.command."""
    record = project / "got.json"
    data = {"hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": f"cat > {record}"}]},
                                     {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}
    (project / ".codex").mkdir()
    (project / ".codex" / "hooks.json").write_text(json.dumps(data))
    hooks = list(trust.hooks_of(str(project / ".codex" / "hooks.json"), data))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(f'[projects."{project}"]\ntrust_level = "trusted"\n\n' + "".join(
        f'[hooks.state."{hook.key}"]\ntrusted_hash = "{hook.hash}"\n' for hook in hooks))
    patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch\n"

    def simulate(tool_input):
        done = hookwright("simulate", "PreToolUse", "--host", "codex", "--tool", "Edit", "--input",
                          json.dumps(tool_input), "--project", project, "--json")
        assert done.code == 0, done.out + done.err
        return done.json

    said = simulate({"command": patch})
    edit, shell = said["handlers"]
    assert edit["fires"] and not shell["fires"]
    got = json.loads(record.read_text())
    assert (got["tool_name"], got["tool_input"]) == ("apply_patch", {"command": patch})
    [entry] = said["hosts"]
    assert entry["tool"] == "apply_patch" and [n for n in entry["notes"] if "as apply_patch" in n]
    assert not [n for n in entry["notes"] if "passed as it is" in n]
    [entry] = simulate({"file_path": "a.txt", "old_string": "one", "new_string": "two"})["hosts"]
    assert [n for n in entry["notes"] if "tool_input with command only" in n and "passed as it is" in n]
