"""Codex CLI: install, uninstall, rollback and trust in `.codex/hooks.json` and `$CODEX_HOME/hooks.json`,
and the runtimes answering Codex's payloads in Codex's shape.

What Codex itself does with these files is measured in tests/e2e (test_codex_*.py, the real
Codex 0.171.0); here the files, the plans and the commands, as a shell runs them from any
folder of the project, as Codex does.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import jsonschema
import pytest
from hookwright import resources
from hookwright.hosts.base import Scope
from hookwright.hosts.codex import trust
from hookwright.planning.apply import Consent, run_plans
from support import read_json

WORK_TREE = '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"'
CODEX_GUARD = f"python3 -I -S {WORK_TREE}/.codex/hookwright/git-guard/git-guard --host codex"
HOOKS_SCHEMA = jsonschema.Draft202012Validator(
    json.loads((resources.data_root() / "schemas" / "codex-hooks.schema.json").read_text()))


def at(project: Path) -> tuple:
    return ("--host", "codex", "--scope", "project", "--project", project)


def git_init(folder: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)
    return folder


def pre_tool_use(command: str, cwd: Path) -> bytes:
    """A PreToolUse payload as Codex 0.171.0 sends one for its shell tool (docs/hosts/codex.md#stdin-payload)."""
    return json.dumps({"session_id": "s1", "transcript_path": None, "cwd": str(cwd), "hook_event_name": "PreToolUse",
                       "model": "gpt-5", "turn_id": "t1", "permission_mode": "bypassPermissions", "tool_name": "Bash",
                       "tool_input": {"command": command}, "tool_use_id": "call_1"}).encode()


def run_entry(hooks_json: Path, cwd: Path, stdin: bytes, event: str = "PreToolUse") -> subprocess.CompletedProcess:
    """The installed handler's command through a login shell, in `cwd`, as Codex runs it (`$SHELL -lc`)."""
    [group] = read_json(hooks_json)["hooks"][event]
    [handler] = group["hooks"]
    env = {key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "XDG_STATE_HOME", "LANG")}
    return subprocess.run(["bash", "-lc", handler["command"]], input=stdin, cwd=cwd, env=env, capture_output=True,
                          timeout=60)


@pytest.fixture
def repo(project: Path) -> Path:
    return git_init(project)


@pytest.fixture
def installed(hookwright, home, repo) -> Path:
    assert hookwright("install", "git-guard", *at(repo), "--yes").code == 0
    return repo


# ---- the file -----------------------------------------------------------------------------------------

def test_install_writes_a_matcher_group_whose_command_finds_the_runtime_from_the_top_of_the_work_tree(installed):
    data = read_json(installed / ".codex" / "hooks.json")

    assert data == {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": CODEX_GUARD, "timeout": 10}]}]}}
    assert not list(HOOKS_SCHEMA.iter_errors(data))
    assert os.access(installed / ".codex" / "hookwright" / "git-guard" / "git-guard", os.X_OK)
    assert (installed / ".codex" / "hookwright" / "git-guard" / "receipt.json").is_file()


def test_the_committed_command_denies_in_codexs_words_from_any_folder_of_a_checkout_elsewhere(installed, home,
                                                                                            tmp_path):
    """A teammate's checkout is somewhere else, and Codex runs the hook in the session's folder."""
    elsewhere = tmp_path / "teammate" / "checkout"
    elsewhere.parent.mkdir()
    installed.rename(elsewhere)
    deeper = elsewhere / "src" / "deeper"
    deeper.mkdir(parents=True)

    for cwd in (elsewhere, deeper):
        ran = run_entry(elsewhere / ".codex" / "hooks.json", cwd, pre_tool_use("git reset --hard", cwd))
        assert ran.returncode == 0, ran.stderr
        answer = json.loads(ran.stdout)["hookSpecificOutput"]
        assert answer["permissionDecision"] == "deny" and "reset --hard" in answer["permissionDecisionReason"]
        assert set(answer) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}

    ran = run_entry(elsewhere / ".codex" / "hooks.json", deeper, pre_tool_use("git status", deeper))
    assert (ran.returncode, ran.stdout) == (0, b"")


def test_a_project_below_the_top_of_its_repository_names_its_runtime_from_there(hookwright, home, repo):
    """Codex loads sub/.codex/ for a session in sub or below it, whose work tree's top is the repository's."""
    sub = repo / "packages" / "app"
    sub.mkdir(parents=True)
    assert hookwright("install", "git-guard", *at(sub), "--yes").code == 0
    [group] = read_json(sub / ".codex" / "hooks.json")["hooks"]["PreToolUse"]
    command = group["hooks"][0]["command"]

    assert command == f"python3 -I -S {WORK_TREE}/packages/app/.codex/hookwright/git-guard/git-guard --host codex"
    (sub / "lib").mkdir()
    ran = run_entry(sub / ".codex" / "hooks.json", sub / "lib", pre_tool_use("git clean -fd", sub / "lib"))
    assert json.loads(ran.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", ran.stderr


def test_outside_git_the_command_finds_the_runtime_in_the_folder_codex_runs_it_in(hookwright, home, project):
    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0

    ran = run_entry(project / ".codex" / "hooks.json", project, pre_tool_use("git push --force", project))
    assert json.loads(ran.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny", ran.stderr


def test_the_user_scope_is_codex_home_and_names_the_runtime_by_its_absolute_path(hookwright, home, tmp_path,
                                                                                 monkeypatch):
    assert hookwright("install", "git-guard", "--host", "codex", "--scope", "user", "--yes").code == 0
    [group] = read_json(home / ".codex" / "hooks.json")["hooks"]["PreToolUse"]
    assert group["hooks"][0]["command"] == f"python3 -I -S {home}/.codex/hookwright/git-guard/git-guard --host codex"

    elsewhere = tmp_path / "codex-home"
    monkeypatch.setenv("CODEX_HOME", str(elsewhere))
    assert hookwright("install", "git-guard", "--host", "codex", "--scope", "user", "--yes").code == 0
    [group] = read_json(elsewhere / "hooks.json")["hooks"]["PreToolUse"]
    assert group["hooks"][0]["command"].startswith(f"python3 -I -S {elsewhere}/hookwright/git-guard/git-guard ")


def test_path_normalizer_goes_on_pre_tool_use_for_every_mcp_tool(hookwright, home, repo):
    assert hookwright("install", "path-normalizer", *at(repo), "--yes").code == 0
    data = read_json(repo / ".codex" / "hooks.json")

    [group] = data["hooks"]["PreToolUse"]
    assert group["matcher"] == "^mcp__" and group["hooks"][0]["command"].endswith("path-normalizer --host codex")
    assert not list(HOOKS_SCHEMA.iter_errors(data))


def test_foreign_hooks_and_formatting_survive_and_uninstall_gives_back_the_bytes(hookwright, home, repo):
    hooks = repo / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    original = ('{\n  "description": "team hooks",\n  "hooks": {\n    "PreToolUse": [\n'
                '      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "./audit.sh", "timeout": 5 } ] }\n'
                '    ],\n    "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]\n  }\n}\n').encode()
    hooks.write_bytes(original)

    assert hookwright("install", "git-guard", "path-normalizer", *at(repo), "--yes").code == 0
    data = read_json(hooks)
    assert data["hooks"]["PreToolUse"][0]["hooks"] == [{"type": "command", "command": "./audit.sh", "timeout": 5}]
    assert len(data["hooks"]["PreToolUse"]) == 3  # ours in groups of their own, after the team's
    assert b'    "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]' in hooks.read_bytes()
    assert hookwright("uninstall", "git-guard", "path-normalizer", *at(repo), "--yes").code == 0
    assert hooks.read_bytes() == original
    assert not (repo / ".codex" / "hookwright").exists()


def test_uninstall_removes_a_file_and_folder_it_created_and_rollback_undoes_an_install(hookwright, installed):
    assert hookwright("uninstall", "git-guard", *at(installed), "--yes").code == 0
    assert not (installed / ".codex").exists()
    assert hookwright("install", "git-guard", *at(installed), "--yes").code == 0
    assert hookwright("rollback", "--host", "codex", "--project", installed, "--yes").code == 0
    assert not (installed / ".codex").exists()


def test_render_prints_what_install_writes(hookwright, home, repo):
    shown = hookwright("render", "git-guard", *at(repo))
    assert hookwright("install", "git-guard", *at(repo), "--yes").code == 0

    assert shown.code == 0 and shown.out == (repo / ".codex" / "hooks.json").read_text()


@pytest.mark.parametrize("args, code, says", [
    (("install", "ask-guard"), 3, "needs to answer a question, which Codex CLI hooks cannot do"),
    (("install", "git-guard", "--scope", "local"), 2, "Codex CLI has no local scope"),
])
def test_what_codex_cannot_do_is_refused_with_the_reason(hookwright, home, project, args, code, says):
    ran = hookwright(*args, "--host", "codex", "--project", project, "--yes")

    assert ran.code == code and says in ran.err
    assert not (project / ".codex").exists()


def test_a_command_pack_of_your_own_is_refused_on_codex_with_why_not_a_missing_event(hookwright, home, project):
    """Codex has PreToolUse; what it lacks is Claude Code's reading of an answer, so the reason says that."""
    assert hookwright("pack", "new", "my-guard", "--into", project).code == 0
    ran = hookwright("install", str(project / "my-guard"), "--host", "codex", "--project", project, "--yes")

    assert ran.code != 0 and "does not wire a command pack into Codex CLI yet" in ran.err
    assert "no event for" not in ran.err and not (project / ".codex").exists()


@pytest.mark.parametrize("content, says, line, column", [
    ('{"$schema": "https://x/s.json", "hooks": {}}', 'its top level takes "description" and "hooks" only, not "$schema"',
     1, 2),
    ('{"hooks": {}, "version": 1}', 'not "version"', 1, 15),
    ('\ufeff{"hooks": {}}', "byte-order mark", 1, 1),
    ('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": "ten"}]}]}}',
     "Codex drops this whole file: hooks.Stop[0].hooks[0].timeout", 1, 79),
    ('{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "u"}]}]}}', "hooks.Stop[0].hooks[0].type", 1, 41),
    ('{"hooks": {"PreToolUse": [{"matcher": 5, "hooks": []}]}}', "hooks.PreToolUse[0].matcher", 1, 39),
    ('{"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}', "hooks.Stop[0].hooks[0]", 1, 32),
    ('{"hooks": {"Stop": [ }', "invalid JSON", None, None),
    ('{"hooks": []}', '"hooks" must be an object', 1, 11),
])
def test_a_file_codex_would_drop_or_we_cannot_read_is_left_byte_identical_with_exit_2(hookwright, home, project,
                                                                                    content, says, line, column):
    """An install into a file Codex drops whole would report success for a hook that never runs."""
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_bytes(content.encode())
    ran = hookwright("install", "git-guard", *at(project), "--yes")

    assert ran.code == 2 and says in ran.err, ran.err
    assert f"{hooks}:{line}:{column}" in ran.err if line else f"{hooks}" in ran.err
    assert hooks.read_bytes() == content.encode()


def test_unknown_events_and_keys_codex_ignores_do_not_stop_an_install(hookwright, home, project):
    hooks = project / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text('{"hooks": {"Stopp": [{"hooks": []}], "Stop": [{"x": 1, "hooks": [{"type": "command", '
                     '"command": "true", "y": 2}]}]}}')

    assert hookwright("install", "git-guard", *at(project), "--yes").code == 0
    assert read_json(hooks)["hooks"]["Stopp"] == [{"hooks": []}]


# ---- trust ------------------------------------------------------------------------------------------

def codex_config(home: Path) -> Path:
    return home / ".codex" / "config.toml"


def keys_and_hashes(project: Path) -> dict[str, str]:
    source = f"{os.path.realpath(project)}/.codex/hooks.json"
    return {hook.key: hook.hash for hook in trust.hooks_of(source, read_json(project / ".codex" / "hooks.json"))}


def test_the_plan_says_codex_will_skip_the_new_hook_and_how_to_trust_it(hookwright, home, repo):
    planned = hookwright("install", "git-guard", *at(repo), "--dry-run", "--json").json
    notes = planned["plans"][0]["notes"]

    project_note = next(note for note in notes if "until you trust the project" in note)
    assert str(repo) in project_note and str(codex_config(home)) in project_note
    hook_note = next(note for note in notes if "Codex will skip 1 hook" in note)
    assert "PreToolUse (git-guard/git-guard)" in hook_note
    assert f"`hookwright install git-guard --host codex --scope project --project {repo} --trust-hooks`" in hook_note
    assert not codex_config(home).exists()  # never written without --trust-hooks

    assert hookwright("install", "git-guard", *at(repo), "--yes").code == 0
    [(key, digest)] = keys_and_hashes(repo).items()
    assert f'[hooks.state."{key}"]\ntrusted_hash = "{digest}"' in hook_note
    assert f'[projects."{repo}"]\ntrust_level = "trusted"' in hook_note


def test_trust_hooks_writes_the_trust_into_the_users_config_keeping_every_other_byte(hookwright, home, repo):
    config = codex_config(home)
    config.parent.mkdir()
    mine = b'# my settings\nmodel = "o3"   # the one I like\n\n[tui]\nnotifications = true\n'
    config.write_bytes(mine)

    ran = hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes")

    assert ran.code == 0, ran.err
    written = config.read_bytes()
    assert written.startswith(mine)
    [(key, digest)] = keys_and_hashes(repo).items()
    assert trust.parse_toml(written) == {"model": "o3", "tui": {"notifications": True},
                                         "projects": {str(repo): {"trust_level": "trusted"}},
                                         "hooks": {"state": {key: {"trusted_hash": digest}}}}
    store = trust.store_from(config, trust.parse_toml(written))
    assert trust.project_trust(repo, store)[0] == "trusted"
    assert [store.state_of(hook) for hook in trust.hooks_of(key.rsplit(":", 4)[0], read_json(
        repo / ".codex" / "hooks.json"))] == ["trusted"]
    again = hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes", "--json")
    assert again.json["status"] == "unchanged" and config.read_bytes() == written


def test_a_hook_moved_by_an_uninstall_is_said_and_trusted_again_only_with_trust_hooks(hookwright, home, repo):
    """The trust key is positional: taking out a group before another moves that one to a new key."""
    assert hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0
    assert hookwright("install", "path-normalizer", *at(repo), "--trust-hooks", "--yes").code == 0
    config = codex_config(home)
    [normalizer_at_1] = [key for key in keys_and_hashes(repo) if key.endswith(":pre_tool_use:1:0")]

    planned = hookwright("uninstall", "git-guard", *at(repo), "--dry-run", "--json").json
    [note] = [note for note in planned["plans"][0]["notes"] if "Codex will skip" in note]
    assert "PreToolUse (path-normalizer/path-normalizer)" in note and "git-guard" not in note.split(". `")[0]

    assert hookwright("uninstall", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0
    [(key, digest)] = keys_and_hashes(repo).items()
    states = trust.parse_toml(config.read_bytes())["hooks"]["state"]
    assert key.endswith(":pre_tool_use:0:0") and states[key] == {"trusted_hash": digest}
    assert normalizer_at_1 not in states  # the trust of git-guard's old place is gone with it


def planned_uninstall(repo: Path, pack: str) -> list:
    """The plans `uninstall PACK --trust-hooks` shows (its dry run), to run later: as a person who
    reads a plan before saying yes while other runs write the same files."""
    from hookwright.commands.uninstall import uninstall

    return uninstall([pack], host="codex", scope=Scope.project, project=repo, dry_run=True,
                     consent=Consent(yes=True, trust=True)).plans


def run_later(plans: list) -> int:
    return run_plans("uninstall", plans, dry_run=False, consent=Consent(yes=True, trust=True)).exit_code


def test_the_trust_is_written_for_the_places_the_change_wrote_when_another_install_moved_them_meanwhile(
        hookwright, home, repo):
    """An uninstall of a hook never trusted plans no trust; meanwhile another install puts its
    trusted hook after it; the uninstall, made again under its lock, moves that hook into the
    place its own held. The trust follows the place written: it is not dropped because the trust
    plan made before the other install had nothing to do (the replay of a race eight installers
    hit about once in thirty runs)."""
    assert hookwright("install", "git-guard", *at(repo), "--yes").code == 0
    plans = planned_uninstall(repo, "git-guard")
    assert [plan.changed for plan in plans] == [True, False]
    assert hookwright("install", "path-normalizer", *at(repo), "--trust-hooks", "--yes").code == 0

    assert run_later(plans) == 0

    [(key, digest)] = keys_and_hashes(repo).items()
    assert key.endswith(":pre_tool_use:0:0")
    assert trust.parse_toml(codex_config(home).read_bytes())["hooks"]["state"][key] == {"trusted_hash": digest}


def test_a_hook_someone_trusted_after_the_plan_was_made_is_trusted_again_where_the_change_moves_it(
        hookwright, home, repo):
    """The hooks a change moves that were trusted at their old place are trusted at the new one:
    as the file was when the change was written, not as it was when the plan was made."""
    assert hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0
    plans = planned_uninstall(repo, "git-guard")
    hooks = repo / ".codex" / "hooks.json"
    data = read_json(hooks)
    data["hooks"]["PreToolUse"].append({"hooks": [{"type": "command", "command": "echo mine"}]})
    hooks.write_text(json.dumps(data, indent=2) + "\n")
    [(key, digest)] = [(k, d) for k, d in keys_and_hashes(repo).items() if k.endswith(":1:0")]
    with codex_config(home).open("a") as config:  # (as Codex's own review of hooks trusts one)
        config.write(f'\n[hooks.state."{key}"]\ntrusted_hash = "{digest}"\n')

    assert run_later(plans) == 0

    [(moved, same)] = keys_and_hashes(repo).items()
    assert moved.endswith(":pre_tool_use:0:0") and same == digest
    assert trust.parse_toml(codex_config(home).read_bytes())["hooks"]["state"][moved] == {"trusted_hash": digest}


def codex_problems(hookwright, repo: Path) -> list[dict]:
    rows = hookwright("status", "--project", repo, "--json").json["installs"]
    [row] = [row for row in rows if row["host"] == "codex"]
    return row["problems"]


def test_status_says_codex_skips_a_hook_until_its_project_and_hash_are_trusted_and_again_once_edited(
        hookwright, home, repo):
    assert hookwright("install", "git-guard", *at(repo), "--yes").code == 0
    [problem] = codex_problems(hookwright, repo)  # (Codex asks "Trust this folder?": not yet trusted, a warning)
    assert (problem["rule"], problem["severity"]) == ("install/hook-not-yet-trusted", "warning")
    assert "the project is not trusted" in problem["message"] and f"--project {repo} --trust-hooks" in problem["hint"]

    config = codex_config(home)
    config.parent.mkdir()
    config.write_text(f'[projects."{repo}"]\ntrust_level = "trusted"\n')
    [problem] = codex_problems(hookwright, repo)
    assert "no hash is trusted for its key" in problem["message"]

    assert hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0
    assert codex_problems(hookwright, repo) == []
    assert hookwright("status", "--project", repo).code == 0

    hooks = repo / ".codex" / "hooks.json"
    hooks.write_text(hooks.read_text().replace('"timeout": 10', '"timeout": 11'))
    assert [p["rule"] for p in codex_problems(hookwright, repo)] == ["install/entry-differs", "install/hook-not-yet-trusted"]
    assert "edited or moved since it was trusted" in codex_problems(hookwright, repo)[1]["message"]


def test_status_says_codex_never_runs_our_hook_in_a_project_marked_untrusted_an_error(hookwright, home, repo):
    assert hookwright("install", "git-guard", *at(repo), "--yes").code == 0
    config = codex_config(home)
    config.parent.mkdir()
    config.write_text(f'[projects."{repo}"]\ntrust_level = "untrusted"\n')
    [problem] = codex_problems(hookwright, repo)  # (Codex asks nothing there: it skips the hook)
    assert (problem["rule"], problem["severity"]) == ("install/hook-untrusted", "error")
    assert 'trust_level = "untrusted"' in problem["message"]


def doctor_says(hookwright, repo: Path) -> list[tuple[str, str]]:
    found = hookwright("doctor", "--project", repo, "--json").json["findings"]
    return [(f["rule"], f["message"]) for f in found if f["rule"].endswith(("hook-untrusted", "hook-not-yet-trusted"))]


def test_doctor_says_which_hooks_codex_skips_ours_and_others_and_nothing_once_they_are_trusted(hookwright, home, repo):
    hooks = repo / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    team = {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo team"}]}]}}
    hooks.write_text(json.dumps(team))
    assert hookwright("install", "git-guard", *at(repo), "--yes").code == 0

    said = doctor_says(hookwright, repo)  # (the team's: Codex asks "Trust this folder?" first, a warning)
    assert sorted(rule for rule, _ in said) == ["host/hook-not-yet-trusted", "install/hook-not-yet-trusted"]
    assert all("the project is not trusted" in message for _, message in said)

    assert hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0
    [(rule, message)] = doctor_says(hookwright, repo)  # the team's hook: hookwright trusts only its own
    assert rule == "host/hook-not-yet-trusted" and "Stop hook" in message and "no hash is trusted" in message
    assert "Hooks need review" in message

    [stop] = [h for h in trust.hooks_of(f"{os.path.realpath(repo)}/.codex/hooks.json", read_json(hooks))
              if h.event == "Stop"]
    with codex_config(home).open("a") as config:
        config.write(trust.toml_lines([], {stop.key: stop.hash}) + "\n")
    assert doctor_says(hookwright, repo) == []


# ---- what switches every hook off ----------------------------------------------------------------------

@pytest.fixture
def system(tmp_path, monkeypatch) -> Path:
    """Codex's /etc/codex, a folder of the test's (docs/hosts/codex.md#switches)."""
    from hookwright.hosts.codex import adapter

    folder = tmp_path / "etc-codex"
    folder.mkdir()
    monkeypatch.setattr(adapter, "SYSTEM_FOLDER", folder)
    return folder


@pytest.fixture
def trusted(hookwright, home, repo, system) -> Path:
    assert hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0
    assert codex_problems(hookwright, repo) == []
    return repo


def test_status_says_a_codex_switched_off_runs_none_of_our_hooks_and_a_switch_on_over_it_is_fine(
        hookwright, home, trusted):
    config = codex_config(home)
    trust_lines = config.read_text()
    config.write_text(trust_lines + "\n[features]\nhooks = false\n")

    [problem] = codex_problems(hookwright, trusted)
    assert problem["rule"] == "install/hooks-off" and problem["severity"] == "error"
    line = trust_lines.count("\n") + 3
    assert f"{config}:{line}" in problem["message"] and "Codex runs no hook at all" in problem["message"]
    assert hookwright("status", "--project", trusted).code == 1

    (trusted / ".codex" / "config.toml").write_text("[features]\nhooks = true\n")  # a trusted project's, over the user's
    assert codex_problems(hookwright, trusted) == []


@pytest.mark.parametrize("required, rule", [
    ("allow_managed_hooks_only = true\n", "install/hooks-off"),
    ("[features]\nhooks = false\n", "install/hooks-off"),
    ("allow_managed_hooks_only = false\n[features]\nhooks = true\n", None),
    ('allow_managed_hooks_only = false\nhooks_dir = "/srv/hooks"\n', "install/hooks-off-unknown"),
])
def test_status_reads_codexs_managed_requirements_and_says_what_it_has_not_measured(
        hookwright, home, system, trusted, required, rule):
    (system / "requirements.toml").write_text("# the administrator's\n" + required)
    (system / "config.toml").write_text("[features]\nhooks = false\n")  # (the user's config goes over the system's)
    codex_config(home).write_text(codex_config(home).read_text() + "[features]\nhooks = true\n")

    problems = codex_problems(hookwright, trusted)

    assert [p["rule"] for p in problems] == ([rule] if rule else [])
    if rule == "install/hooks-off-unknown":
        assert problems[0]["severity"] == "warning" and "has not measured" in problems[0]["message"]
        assert "ignore" not in problems[0]["message"]


def test_doctor_says_where_codexs_managed_requirements_keep_every_hook_off_and_nothing_where_they_do_not(
        hookwright, home, system, trusted):
    hooks = trusted / ".codex" / "hooks.json"
    data = read_json(hooks)
    data["hooks"]["Stop"] = [{"hooks": [{"type": "command", "command": "echo team"}]}]
    hooks.write_text(json.dumps(data))
    requirements = system / "requirements.toml"
    requirements.write_text("# the administrator's\nallow_managed_hooks_only = true\n")

    def said() -> list[tuple[str, str, int]]:
        found = hookwright("doctor", "--project", trusted, "--format", "json").json["findings"]
        return sorted((f["rule"], f["path"], f["line"]) for f in found if "hooks-off" in f["rule"])

    # the team's hook and ours: one finding at the line to change, install/'s (with the pack's name)
    assert said() == [("install/hooks-off", str(requirements), 2)]
    assert hookwright("uninstall", "git-guard", *at(trusted), "--yes").code == 0
    assert said() == [("host/hooks-off-elsewhere", str(requirements), 2)]  # the team's alone: host/'s
    requirements.write_text("# the administrator's\nallow_managed_hooks_only = false\n")
    assert said() == []


def test_doctor_says_a_config_toml_switch_once_where_it_keeps_ours_and_a_teams_hook_off(hookwright, home, trusted):
    config = codex_config(home)
    config.write_text(config.read_text() + "\n[features]\nhooks = false\n")
    hooks = trusted / ".codex" / "hooks.json"
    data = read_json(hooks)
    data["hooks"]["Stop"] = [{"hooks": [{"type": "command", "command": "echo team"}]}]
    hooks.write_text(json.dumps(data))

    found = hookwright("doctor", "--project", trusted, "--format", "json").json["findings"]

    line = config.read_text().count("\n")
    assert [(f["rule"], f["line"]) for f in found if f["path"] == str(config)] == [("install/hooks-off", line)]


def test_doctor_finds_two_hooks_rewriting_one_codex_call_a_race_the_last_to_finish_wins(hookwright, home, repo):
    """Codex starts every matching hook at once and keeps the rewrite that finished last
    (docs/hosts/codex.md#several-hooks); its hooks answer in Claude Code's hookSpecificOutput."""
    rewrite = ('import json\nprint(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", '
               '"permissionDecision": "allow", "updatedInput": {"command": "ls"}}}))\n')
    for name in ("a.py", "b.py"):
        (repo / name).write_text(rewrite)
    hooks = repo / ".codex" / "hooks.json"
    hooks.parent.mkdir()
    hooks.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"python3 {repo}/a.py"}, {"type": "command", "command": f"python3 {repo}/b.py"}]}]}}))

    found = hookwright("doctor", "--project", repo, "--json").json["findings"]
    [race] = [f for f in found if f["rule"] == "conflict/input-rewrite-race"]
    assert "`a.py` and `b.py` both rewrite the input of Bash" in race["message"]


def test_uninstall_with_trust_hooks_forgets_our_trust_and_the_tables_it_emptied(hookwright, home, repo):
    config = codex_config(home)
    config.parent.mkdir()
    config.write_bytes(b'model = "o3"\n')
    assert hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0

    assert hookwright("uninstall", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0
    assert trust.parse_toml(config.read_bytes()) == {"model": "o3", "projects": {str(repo): {"trust_level": "trusted"}}}


def test_rollback_of_an_install_with_trust_hooks_undoes_both_files(hookwright, home, repo):
    config = codex_config(home)
    config.parent.mkdir()
    config.write_bytes(b'model = "o3"\n')
    assert hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes").code == 0

    ran = hookwright("rollback", "--project", repo, "--yes")
    assert ran.code == 0, ran.err
    assert config.read_bytes() == b'model = "o3"\n' and not (repo / ".codex").exists()


def test_a_config_toml_codex_cannot_read_is_named_at_its_line_and_left_alone(hookwright, home, repo):
    config = codex_config(home)
    config.parent.mkdir()
    config.write_bytes(b'model = "o3"\n[tui\n')

    ran = hookwright("install", "git-guard", *at(repo), "--trust-hooks", "--yes")
    assert ran.code == 2 and f"{config}:2" in ran.err and "invalid TOML" in ran.err
    assert config.read_bytes() == b'model = "o3"\n[tui\n'


def test_trust_hooks_on_an_agent_without_trust_of_its_own_is_a_usage_error(hookwright, home, project):
    ran = hookwright("install", "git-guard", "--host", "claude", "--project", project, "--trust-hooks", "--yes")
    assert ran.code == 2 and "Claude Code runs hooks without a trust of their own" in ran.err


def test_the_trust_hash_is_the_one_codex_0_171_0_reported_for_these_hooks():
    """Hashes `codex app-server` (hooks/list) gave for these hooks on 0.171.0, by hand; the e2e
    suite holds the algorithm to the real Codex on every kind of hook (test_codex_trust.py)."""
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "timeout": 10, "command":
             f'python3 -I -S {WORK_TREE}/.codex/hookwright/git-guard/git-guard --host codex'}]}]}}
    [hook] = trust.hooks_of("/p/.codex/hooks.json", hooks)

    assert hook.key == "/p/.codex/hooks.json:pre_tool_use:0:0"
    assert hook.hash == "sha256:2ab3834f4bb3bccd2b16a254949deb6f9ee95cda63a35dd58f90f3a6b1070bb0"


# ---- the runtime's answers, as Codex reads them --------------------------------------------------------

@pytest.fixture(scope="module")
def runtime():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "templates" / "runtime"))
    import hookwright_runtime

    return hookwright_runtime


def test_a_question_becomes_a_deny_with_its_reason_because_codex_cannot_ask(runtime):
    said = runtime.render(runtime.Outcome(decision="ask", reason="push? ask the user"), "codex", "PreToolUse")

    assert said == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                           "permissionDecisionReason": "push? ask the user"}}


def test_a_deny_always_carries_a_reason_codex_lets_a_deny_without_one_run(runtime):
    said = runtime.render(runtime.deny(""), "codex", "PreToolUse")["hookSpecificOutput"]
    assert said["permissionDecision"] == "deny" and said["permissionDecisionReason"]


def test_a_rewrite_is_allow_with_the_new_input_and_allow_alone_says_nothing(runtime):
    new = {"path": "/abs/a.txt", "mode": "r"}
    assert runtime.render(runtime.rewrite(new), "codex", "PreToolUse") == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": new}}
    assert runtime.render(runtime.allow(), "codex", "PreToolUse") is None  # (Codex: "unsupported permissionDecision:allow")
    assert runtime.render(runtime.add_context("look"), "codex", "PostToolUse") == {"hookSpecificOutput": {
        "hookEventName": "PostToolUse", "additionalContext": "look"}}


def test_path_normalizer_answers_a_codex_mcp_call_with_the_absolute_path(hookwright, home, repo):
    assert hookwright("install", "path-normalizer", *at(repo), "--yes").code == 0
    payload = json.loads(pre_tool_use("x", repo))
    payload.update(tool_name="mcp__docs__read_doc", tool_input={"path": "notes/a.txt", "mode": "r"})

    ran = run_entry(repo / ".codex" / "hooks.json", repo, json.dumps(payload).encode())

    assert json.loads(ran.stdout) == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "allow",
        "updatedInput": {"path": f"{repo}/notes/a.txt", "mode": "r"}}}, ran.stderr


def test_a_teams_list_installed_with_trust_hooks_trusts_what_it_puts_into_codex(hookwright, home, repo):
    (repo / ".hookwright.toml").write_text('[[packs]]\npack = "git-guard"\n')

    ran = hookwright("install", "--host", "codex", "--project", repo, "--trust-hooks", "--yes")

    assert ran.code == 0, ran.err
    [(key, digest)] = keys_and_hashes(repo).items()
    assert trust.parse_toml(codex_config(home).read_bytes())["hooks"]["state"] == {key: {"trusted_hash": digest}}
