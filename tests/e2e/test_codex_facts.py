"""The facts of docs/hosts/codex.md, each measured on the real Codex by one experiment.

Where the page says "measured (test_codex_facts.py::NAME)", NAME is here. A run tries many cases
at once (many tool calls in one `codex exec`, many folders in one hooks/list), so the whole
module costs a few seconds. Hooks run with --dangerously-bypass-hook-trust except where trust is
the fact (test_codex_trust.py, test_codex_harness.py).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from codex_cli import answer_hook, hook_calls, hooks_file, hooks_list, run_codex, shell, trust_toml
from conftest import git

pytestmark = pytest.mark.e2e

EVENTS = ["PreModelRequest", "PostModelRequest", "PreToolUse", "PermissionRequest", "PostToolUse",
          "PreCompact", "PostCompact", "SessionStart", "SessionEnd", "UserPromptSubmit",
          "SubagentStart", "SubagentStop", "Stop", "Interrupt"]


def pre_answer(**fields: object) -> dict:
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", **fields}}


def deny(reason: str) -> dict:
    return pre_answer(permissionDecision="deny", permissionDecisionReason=reason)


def rewrite(command: str) -> dict:
    return pre_answer(permissionDecision="allow", updatedInput={"command": command})


def write_hooks(folder: Path, document: dict | str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "hooks.json").write_text(document if isinstance(document, str) else json.dumps(document))
    return folder / "hooks.json"


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q")
    return path


def blocked(command: str, reason: str) -> str:
    return f"Command blocked by PreToolUse hook: {reason}. Command: {command}"


def test_user_hooks_are_read_from_codex_home_in_hooks_json_and_config_toml_and_both_load(codex_cli, home, project, tmp_path):
    codex_home = tmp_path / "elsewhere"
    write_hooks(home / ".codex", hooks_file(("PreToolUse", None, [answer_hook(tmp_path, "dot-codex")])))
    write_hooks(codex_home, hooks_file(("PreToolUse", None, [answer_hook(tmp_path, "json")])))
    (codex_home / "config.toml").write_text(
        f'[[hooks.PreToolUse]]\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n'
        f'command = {json.dumps(answer_hook(tmp_path, "toml"))}\n')

    run_codex(project, home, [shell("true"), "done"], codex_home=codex_home, bypass_hook_trust=True)
    [found] = hooks_list(home, [project], codex_home=codex_home)

    assert sorted(call["name"] for call in hook_calls(tmp_path)) == ["json", "toml"]
    assert found["warnings"] == [f"loading hooks from both {codex_home}/hooks.json and {codex_home}/config.toml;"
                                 " prefer a single representation for this layer"]


def test_project_hooks_load_from_each_codex_folder_between_the_git_root_and_the_cwd_of_a_trusted_project(codex_cli, home, tmp_path):
    repo = new_repo(tmp_path / "repo")
    (repo / "a" / "b" / "c").mkdir(parents=True)
    (repo / "x").mkdir()
    plain = tmp_path / "plain"  # no .git: the project is the cwd alone
    (plain / "sub").mkdir(parents=True)
    untrusted = new_repo(tmp_path / "untrusted")
    for folder in (repo, repo / "a", repo / "a" / "b" / "c", plain, untrusted):
        write_hooks(folder / ".codex", hooks_file(("Stop", None, ["true"])))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml([repo, plain]))
    cwds = [repo, repo / "a" / "b", repo / "x", plain, plain / "sub", untrusted]

    found = hooks_list(home, cwds)

    files = [[Path(hook["sourcePath"]).parent.parent for hook in entry["hooks"]] for entry in found]
    assert files == [[repo], [repo, repo / "a"], [repo], [plain], [], []]
    assert {hook["source"] for entry in found for hook in entry["hooks"]} == {"project"}


def test_a_project_is_trusted_by_its_real_path_or_the_path_as_given_and_hook_keys_use_the_path_as_given(codex_cli, home, tmp_path):
    repo = new_repo(tmp_path / "repo")
    other = new_repo(tmp_path / "other")
    for folder in (repo, other):
        write_hooks(folder / ".codex", hooks_file(("Stop", None, ["true"])))
    (tmp_path / "repo-link").symlink_to(repo)
    (tmp_path / "other-link").symlink_to(other)
    (home / ".codex").mkdir()
    # repo trusted by its real path; other only by a symlink's path, and once with a trailing slash
    (home / ".codex" / "config.toml").write_text(trust_toml([repo, tmp_path / "other-link", f"{other}/"]))

    found = hooks_list(home, [tmp_path / "repo-link", other, tmp_path / "other-link"])

    keys = [[hook["key"] for hook in entry["hooks"]] for entry in found]
    assert keys == [[f"{tmp_path}/repo-link/.codex/hooks.json:stop:0:0"], [],
                    [f"{tmp_path}/other-link/.codex/hooks.json:stop:0:0"]]


FORMATS = {  # hooks.json text -> (hook keys Codex keeps, its warning after "<file>: ", before " at line L column C")
    "schema": ('{"$schema": "https://example.com/s.json", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}',
               [], "unknown field `$schema`, expected `description` or `hooks`"),
    "description": ('{"description": "d", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}',
                    ["stop:0:0"], None),
    "truncated": ('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}', [],
                  "EOF while parsing an object"),
    "timeout-string": ('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": "ten"}]}]}}', [],
                       'invalid type: string "ten", expected u64'),
    "unknown-keys": ('{"hooks": {"Stop": [{"x": 1, "hooks": [{"type": "command", "command": "true", "y": 2}]}]}}',
                     ["stop:0:0"], None),
    "unknown-event": ('{"hooks": {"Stopp": [{"hooks": []}], "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}',
                      ["stop:0:0"], None),
    "lowercase-event": ('{"hooks": {"stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}', [], None),
    "comment": ('// c\n{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}', [],
                "expected value"),
    "trailing-comma": ('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}],}}', [],
                       "trailing comma"),
    # a group without "hooks" is a group of no handler, its other keys ignored: only the Stop hook loads
    "flat-handler": ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "type": "command", "command": "true"}], '
                     '"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}', ["stop:0:0"], None),
    "handlers-list": ('{"hooks": {"PreToolUse": [{"matcher": "Bash", "handlers": [{"type": "command", "command": "true"}]}], '
                      '"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}', ["stop:0:0"], None),
    "http-type": ('{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "u"}, {"type": "command", "command": "true"}]}]}}', [],
                  "unknown variant `http`, expected one of `command`, `mcp_tool`, `prompt`, `agent`"),
}


def test_a_hooks_json_that_breaks_the_format_is_dropped_whole_with_a_warning_and_unknown_keys_are_not(codex_cli, home, tmp_path):
    repos = {name: new_repo(tmp_path / name) for name in FORMATS}
    for name, (text, _, _) in FORMATS.items():
        write_hooks(repos[name] / ".codex", text)
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml(repos.values()))

    found = dict(zip(FORMATS, hooks_list(home, list(repos.values()))))

    for name, (_, kept, warning) in FORMATS.items():
        source = repos[name] / ".codex" / "hooks.json"
        assert [hook["key"] for hook in found[name]["hooks"]] == [f"{source}:{key}" for key in kept], name
        said = [re.sub(r" at line \d+ column \d+$", "", text) for text in found[name]["warnings"]]
        assert said == ([f"failed to parse hooks config {source}: {warning}"] if warning else []), name


STOP_JSON = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}'
STOP_TOML = '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "true"\n'
NEVER_READ = {  # a hooks file written where Codex reads none (doctor: structure/settings-not-read, misplaced)
    ".codex/hooks/hooks.json": STOP_JSON, "hooks.json": STOP_JSON, ".codex/hooks.toml": STOP_TOML,
    ".codex/settings.json": STOP_JSON,
    # the handlers as a TOML table of another name: the group loads with no handler
    ".codex/config.toml": '[[hooks.Stop]]\n[[hooks.Stop.handlers]]\ntype = "command"\ncommand = "true"\n',
}


def test_hooks_in_a_subfolder_of_codex_beside_the_config_or_at_the_top_of_the_project_are_read_nowhere(codex_cli, home, tmp_path):
    repos = {place: new_repo(tmp_path / f"repo{i}") for i, place in enumerate(NEVER_READ)}
    twin = new_repo(tmp_path / "twin")  # the same hooks where Codex reads them
    for place, repo in repos.items():
        (repo / place).parent.mkdir(parents=True, exist_ok=True)
        (repo / place).write_text(NEVER_READ[place])
    write_hooks(twin / ".codex", STOP_JSON)
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml([*repos.values(), twin]))

    found = hooks_list(home, [*repos.values(), twin])

    assert [(entry["hooks"], entry["warnings"], entry["errors"]) for entry in found[:-1]] == [([], [], [])] * len(repos)
    assert [hook["key"] for hook in found[-1]["hooks"]] == [f"{twin}/.codex/hooks.json:stop:0:0"]


def test_a_skipped_handler_or_group_keeps_its_place_in_the_keys_of_the_others(codex_cli, home, tmp_path):
    (home / ".codex").mkdir()
    source = write_hooks(home / ".codex", {"hooks": {"PreToolUse": [
        {"matcher": "Ba(sh", "hooks": [{"type": "command", "command": "true"}]},
        {"hooks": [{"type": "prompt", "prompt": "p"}, {"type": "command", "command": " "},
                   {"type": "command", "command": "true"}]}]}})

    [found] = hooks_list(home, [tmp_path])

    assert [hook["key"] for hook in found["hooks"]] == [f"{source}:pre_tool_use:1:2"]
    assert found["warnings"] == [
        f'invalid matcher "Ba(sh" in {source}: regex parse error:\n    Ba(sh\n      ^\nerror: unclosed group',
        f"skipping prompt hook in {source}: prompt hooks are not supported yet",
        f"skipping empty hook command in {source}"]


def test_one_exec_run_fires_these_events_in_this_order_with_these_payloads(codex_cli, home, project, tmp_path):
    hooks = hooks_file(*[(event, None, [answer_hook(tmp_path, event)]) for event in EVENTS])
    for event in ("SessionEnd", "Interrupt"):  # 1 s unless set: a busy machine starts Python slower
        hooks["hooks"][event][0]["hooks"][0]["timeout"] = 3
    write_hooks(home / ".codex", hooks)

    run_codex(project, home, [shell("echo hello"), "done"], bypass_hook_trust=True)

    calls = hook_calls(tmp_path)
    names = [call["name"] for call in calls]
    assert [name for name in names if name != "PostModelRequest"] == [
        "SessionStart", "UserPromptSubmit", "PreModelRequest", "PreToolUse", "PostToolUse", "PreModelRequest",
        "Stop", "SessionEnd"]
    # one after each model request, but not waited for: it may run beside the tool call that follows
    assert names.count("PostModelRequest") == 2
    assert names.index("PostModelRequest") > names.index("PreModelRequest")
    payload = {call["name"]: call["input"] for call in calls}
    common = {"session_id", "transcript_path", "cwd", "hook_event_name", "model"}
    assert set(payload["PreToolUse"]) == common | {"turn_id", "permission_mode", "tool_name", "tool_input", "tool_use_id"}
    assert payload["PreToolUse"]["tool_name"] == "Bash"
    assert payload["PreToolUse"]["tool_input"] == {"command": "echo hello"}
    assert payload["PreToolUse"]["permission_mode"] == "bypassPermissions"
    assert payload["PreToolUse"]["tool_use_id"] == payload["PostToolUse"]["tool_use_id"]
    assert payload["PostToolUse"]["tool_response"] == "hello\n"
    assert payload["SessionStart"]["source"] == "startup"
    assert payload["UserPromptSubmit"]["prompt"] == "go"
    assert payload["Stop"]["last_assistant_message"] == "done"
    assert payload["Stop"]["stop_hook_active"] is False
    assert payload["SessionEnd"]["reason"] == "other"
    assert {call["input"]["cwd"] for call in calls} == {str(project)}


MATCHERS = {"Bash": True, "bash": False, "Bas": False, "B.sh": True, "a.h": True, "^Bash$": True,
            "Bash|Write": True, "Write|Edit": False, "exec_command": False, "*": True, "": True,
            "(?i)BASH": True, "Bash ": False}


def test_a_matcher_of_letters_digits_underscores_and_bars_is_exact_names_anything_else_a_regex_searched(codex_cli, home, project, tmp_path):
    groups = [("PreToolUse", matcher, [answer_hook(tmp_path, f"m{n}")]) for n, matcher in enumerate(MATCHERS)]
    write_hooks(home / ".codex", hooks_file(*groups, ("PreToolUse", None, [answer_hook(tmp_path, "none")])))

    run_codex(project, home, [shell("true"), "done"], bypass_hook_trust=True)

    fired = {call["name"] for call in hook_calls(tmp_path)}
    assert {matcher: f"m{n}" in fired for n, matcher in enumerate(MATCHERS)} == MATCHERS
    assert "none" in fired


PRE_TOOL_USE = {  # case -> (answer, what becomes of `touch <case>.txt`: "ran", "rewritten" or the model's text)
    "exit2": (dict(stderr="R-exit2", exit=2), blocked("touch exit2.txt", "R-exit2")),
    "exit2-silent": (dict(exit=2), "ran"),
    "exit1": (dict(stderr="R-exit1", exit=1), "ran"),
    "deny": (dict(stdout=deny("R-deny")), blocked("touch deny.txt", "R-deny")),
    "deny-without-reason": (dict(stdout=pre_answer(permissionDecision="deny")), "ran"),
    "deny-unknown-field": (dict(stdout={**deny("R"), "bogus": 1}), "ran"),
    "deny-exit1": (dict(stdout=deny("R"), exit=1), "ran"),
    "deny-on-stderr": (dict(stderr=json.dumps(deny("R"))), "ran"),
    "legacy-block": (dict(stdout={"decision": "block", "reason": "R-legacy"}), blocked("touch legacy-block.txt", "R-legacy")),
    "allow-rewrite": (dict(stdout=rewrite("touch allow-rewrite-new.txt")), "rewritten"),
    "rewrite-without-allow": (dict(stdout=pre_answer(updatedInput={"command": "touch x-new.txt"})), "ran"),
    "rewrite-without-command": (dict(stdout=pre_answer(permissionDecision="allow", updatedInput={"cmd": "true"})),
                                "hook returned updatedInput without string field `command`"),
    "ask": (dict(stdout=pre_answer(permissionDecision="ask", permissionDecisionReason="R")), "ran"),
    "allow": (dict(stdout=pre_answer(permissionDecision="allow")), "ran"),
    "continue-false": (dict(stdout={"continue": False, "stopReason": "R"}), "ran"),
    "not-json": (dict(stdout="not json"), "ran"),
}


def test_pretooluse_answers_block_rewrite_or_let_the_call_run_as_the_page_says(codex_cli, home, project, tmp_path):
    answers = {f"touch {case}.txt": answer for case, (answer, _) in PRE_TOOL_USE.items()}
    answers["touch context.txt"] = dict(stdout=pre_answer(additionalContext="context-for-the-model"))
    write_hooks(home / ".codex", hooks_file(("PreToolUse", "Bash", [answer_hook(tmp_path, "pre", answers=answers)])))
    question = {"tool": "request_user_input", "input": {"questions": [{
        "id": "q", "header": "Q", "question": "Which?",
        "options": [{"label": "A", "description": "a"}, {"label": "B", "description": "b"}]}]}}

    run = run_codex(project, home, [*[shell(command) for command in answers], question, "done"], bypass_hook_trust=True)

    outputs = dict(zip([*answers, "question"], run.outputs()))
    for case, (_, outcome) in PRE_TOOL_USE.items():
        ran, made = "Process exited with code 0" in outputs[f"touch {case}.txt"], (project / f"{case}.txt").exists()
        if outcome == "ran":
            assert ran and made, case
        elif outcome == "rewritten":
            assert ran and not made and (project / f"{case}-new.txt").exists(), case
        else:
            assert outputs[f"touch {case}.txt"] == outcome and not made, case
    developer_texts = [part.get("text") for item in run.requests[-1]["input"] if item.get("role") == "developer"
                       for part in item.get("content", [])]
    assert "context-for-the-model" in developer_texts
    assert outputs["question"] == "request_user_input is unavailable in Default mode"


def test_several_hooks_start_together_the_first_configured_block_names_the_reason_and_the_last_rewrite_to_finish_wins(codex_cli, home, project, tmp_path):
    # margins of a second: on a busy machine one hook's Python can start a good while after another's
    slow, together = 1.2, {"touch together.txt": dict(sleep=1.0)}
    first = answer_hook(tmp_path, "first", answers={
        **together, "touch race1.txt": dict(stdout=rewrite("touch first1.txt"), sleep=slow),
        "touch race2.txt": dict(stdout=rewrite("touch first2.txt")),
        "touch deny.txt": dict(stdout=deny("first-reason"), sleep=slow),
        "touch deny-rewrite.txt": dict(stdout=rewrite("touch rewritten.txt"))})
    second = answer_hook(tmp_path, "second", answers={
        **together, "touch race1.txt": dict(stdout=rewrite("touch second1.txt")),
        "touch race2.txt": dict(stdout=rewrite("touch second2.txt"), sleep=slow),
        "touch deny.txt": dict(stderr="second-reason", exit=2),
        "touch deny-rewrite.txt": dict(stdout=deny("second-reason"), sleep=slow)})
    third = answer_hook(tmp_path, "third", answers=together)
    write_hooks(home / ".codex", hooks_file(("PreToolUse", "Bash", [first, second]), ("PreToolUse", None, [third])))
    commands = ["touch together.txt", "touch race1.txt", "touch race2.txt", "touch deny.txt", "touch deny-rewrite.txt"]

    run = run_codex(project, home, [*[shell(command) for command in commands], "done"], bypass_hook_trust=True)

    together = [call for call in hook_calls(tmp_path) if call["input"]["tool_input"]["command"] == commands[0]]
    assert len(together) == 3 and max(c["start"] for c in together) < min(c["end"] for c in together)
    assert sorted(p.name for p in project.iterdir()) == ["first1.txt", "second2.txt", "together.txt"]
    outputs = run.outputs()
    assert outputs[3] == blocked("touch deny.txt", "first-reason")
    assert outputs[4] == blocked("touch deny-rewrite.txt", "second-reason")


def test_the_same_command_configured_four_times_runs_four_times(codex_cli, home, tmp_path):
    repo = new_repo(tmp_path / "repo")
    same = answer_hook(tmp_path, "same")
    write_hooks(home / ".codex", hooks_file(("PreToolUse", "Bash", [same, same]), ("PreToolUse", None, [same])))
    write_hooks(repo / ".codex", hooks_file(("PreToolUse", "Bash", [same])))
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

    run_codex(repo, home, [shell("true"), "done"], bypass_hook_trust=True)

    calls = hook_calls(tmp_path)
    assert len(calls) == 4 and len({call["pid"] for call in calls}) == 4


def test_timeouts_are_seconds_and_a_hook_that_times_out_crashes_or_is_missing_lets_the_call_run(codex_cli, home, project, tmp_path):
    timed = answer_hook(tmp_path, "timed", answers={"touch quick.txt": dict(stderr="R-quick", exit=2, sleep=0.2),
                                                    "touch slow.txt": dict(stderr="R-slow", exit=2, sleep=6)})
    write_hooks(home / ".codex", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": timed, "timeout": 3},
                                      {"type": "command", "command": "kill -9 $$"},
                                      {"type": "command", "command": f"{tmp_path}/no-such-hook"}]}]}})

    run = run_codex(project, home, [shell("touch quick.txt"), shell("touch slow.txt"), "done"], bypass_hook_trust=True)

    assert run.outputs()[0] == blocked("touch quick.txt", "R-quick")
    assert (project / "slow.txt").exists() and not (project / "quick.txt").exists()
    assert [call["name"] for call in hook_calls(tmp_path)] == ["timed"]  # the slow one was killed


def test_a_posttooluse_block_replaces_the_output_and_a_stop_block_goes_on_with_the_reason_as_a_prompt(codex_cli, home, project, tmp_path):
    post = answer_hook(tmp_path, "post", stdout={
        "decision": "block", "reason": "post-reason",
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "post-context"}})
    flag = tmp_path / "stopped-once"
    stop = f"test -e {flag} || {{ touch {flag}; echo '{{\"decision\": \"block\", \"reason\": \"go on\"}}'; }}"
    source = write_hooks(home / ".codex", hooks_file(("PostToolUse", None, [post]), ("Stop", None, [stop])))

    run = run_codex(project, home, [shell("touch made.txt"), "first end", "second end"], bypass_hook_trust=True)

    assert (project / "made.txt").exists()
    assert run.outputs() == ["post-reason"]
    texts = [part.get("text") for item in run.requests[-1]["input"] for part in item.get("content", [])
             if isinstance(part, dict)]
    assert "post-context" in texts
    # the run id is the event, the hook's place among all loaded hooks (the PostToolUse one is 0), its file
    assert f'<hook_prompt hook_run_id="stop:1:{source}">go on</hook_prompt>' in texts
    assert [event["item"]["text"] for event in run.events if event.get("item", {}).get("type") == "agent_message"] \
        == ["first end", "second end"]


def test_a_hook_runs_in_the_session_cwd_with_codex_environment_and_no_project_variable(codex_cli, home, tmp_path):
    repo = new_repo(tmp_path / "repo")
    (repo / "sub").mkdir()
    report = tmp_path / "where.txt"
    write_hooks(repo / ".codex", hooks_file(("PreToolUse", None, [f"{{ pwd; env | cut -d= -f1 | sort; }} > {report}"])))
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(trust_toml([repo]))

    run_codex(repo / "sub", home, [shell("true"), "done"], bypass_hook_trust=True, env={"OUTER": "1"})

    cwd, *names = report.read_text().split("\n")
    assert cwd == str(repo / "sub")
    assert {"OUTER", "CODEX_HOME", "HOME", "PATH"} <= set(names)
    assert not [name for name in names if "PROJECT" in name]
    assert os.path.isdir(cwd)
