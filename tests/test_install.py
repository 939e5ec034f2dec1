import json
import os
import shlex
import shutil
import stat
import subprocess
import sys

import pytest
from hookwright import resources
from hookwright.packs import load_pack
from support import GIT_GUARD_COMMAND, commands, handlers, read_json, write_json

RESET_PAYLOAD = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                            "tool_input": {"command": "git reset --hard"}})


def project_args(project):
    return ("--scope", "project", "--project", project)


def backups(home):
    folder = home / ".local" / "state" / "hookwright" / "backups"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def test_install_leaves_foreign_hooks_on_the_same_event_and_matcher_untouched(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    foreign = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh", "timeout": 5}]}
    write_json(settings, {"model": "opus", "hooks": {"PreToolUse": [foreign]}})

    ran = hookwright("install", "git-guard", *project_args(project), "--yes")

    assert ran.code == 0, ran.err
    data = read_json(settings)
    assert data["model"] == "opus"
    assert data["hooks"]["PreToolUse"][0] == foreign
    assert commands(data) == ["./mine.sh", GIT_GUARD_COMMAND]


def test_install_twice_writes_nothing_and_takes_no_backup_the_second_time(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"hooks": {}})
    hookwright("install", "git-guard", *project_args(project), "--yes")
    first, first_backups = settings.read_bytes(), backups(home)

    again = hookwright("install", "git-guard", *project_args(project), "--yes", "--json")

    assert again.code == 0
    assert again.json["status"] == "unchanged"
    assert settings.read_bytes() == first
    assert backups(home) == first_backups and len(first_backups) == 1


def test_without_a_terminal_and_without_yes_install_shows_the_plan_and_exits_3(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    original = write_json(settings, {"hooks": {}})

    ran = hookwright("install", "git-guard", *project_args(project))

    assert ran.code == 3
    assert "+ add" in ran.out and "PreToolUse on Bash" in ran.out
    assert "--yes" in ran.err
    assert settings.read_bytes() == original
    assert not (project / ".claude" / "hookwright").exists()


def test_dry_run_shows_the_diff_and_writes_nothing(hookwright, home, project):
    ran = hookwright("install", "git-guard", *project_args(project), "--dry-run", "--json")

    assert ran.code == 0
    plan = ran.json["plans"][0]
    assert ran.json["status"] == "dry-run"
    assert '\\"$CLAUDE_PROJECT_DIR\\"' in plan["diff"] and plan["diff"].startswith("--- /dev/null")
    assert plan["changed_paths"] == ["hooks"]
    assert not (project / ".claude").exists()
    assert backups(home) == []


def test_install_copies_the_runtime_with_its_run_bit_and_writes_a_receipt(hookwright, home, project):
    hookwright("install", "git-guard", *project_args(project), "--yes")

    folder = project / ".claude" / "hookwright" / "git-guard"
    script = folder / "git-guard"
    mode = stat.S_IMODE(script.stat().st_mode)
    assert mode & 0o100 and not mode & 0o022
    assert not stat.S_IMODE(folder.stat().st_mode) & 0o022
    assert script.read_bytes() == (resources.runtime_dir() / "hook_script.py").read_bytes()
    receipt = json.loads((folder / "receipt.json").read_text())
    assert receipt["pack"] == "git-guard" and receipt["scope"] == "project"
    assert receipt["entries"][0]["handler"]["command"] == GIT_GUARD_COMMAND
    shipped = load_pack("git-guard").runtime_files("claude")
    assert sorted(f["name"] for f in receipt["files"]) == sorted(shipped) and "hookwright_runtime.py" in shipped


def run_hook_command(command, env, cwd):
    return subprocess.run(["sh", "-c", command], input=RESET_PAYLOAD, capture_output=True, text=True,
                          env=dict(os.environ, **env), cwd=cwd, timeout=30)


def test_the_project_scope_command_runs_for_any_teammate_through_claude_project_dir(hookwright, home, tmp_path):
    project = tmp_path / "a project with 'quotes' and $dollar"
    project.mkdir()
    hookwright("install", "git-guard", *project_args(project), "--yes")
    [command] = commands(read_json(project / ".claude" / "settings.json"))

    clone = tmp_path / "teammate's clone"
    shutil.copytree(project, clone)
    done = run_hook_command(command, {"CLAUDE_PROJECT_DIR": str(clone), "HOOKWRIGHT_LOG": str(tmp_path / "log")},
                            cwd=clone)

    assert command.startswith('python3 -I -S "$CLAUDE_PROJECT_DIR"/')
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize("odd_name", ["my home", "o'brien", "cost$HOME", "back`tick`", "-dash"])
def test_the_user_scope_command_is_an_absolute_path_quoted_for_the_shell(hookwright, tmp_path, monkeypatch, odd_name):
    home = tmp_path / odd_name
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    ran = hookwright("install", "git-guard", "--scope", "user", "--yes")

    assert ran.code == 0, ran.err
    [command] = commands(read_json(home / ".claude" / "settings.json"))
    assert shlex.split(command)[3] == str(home / ".claude" / "hookwright" / "git-guard" / "git-guard")
    done = run_hook_command(command, {"HOOKWRIGHT_LOG": str(tmp_path / "log")}, cwd=tmp_path)
    assert json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_user_scope_honours_claude_config_dir(hookwright, home, tmp_path, monkeypatch):
    config_dir = tmp_path / "elsewhere"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config_dir))

    ran = hookwright("install", "git-guard", "--scope", "user", "--yes")

    assert ran.code == 0, ran.err
    assert str(config_dir / "hookwright" / "git-guard" / "git-guard") in commands(read_json(config_dir / "settings.json"))[0]
    assert not (home / ".claude").exists()


def test_the_local_scope_writes_settings_local_and_keeps_its_runtimes_out_of_git(hookwright, home, project):
    subprocess.run(["git", "init", "-q", str(project)], check=True)

    ran = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--yes")

    assert ran.code == 0, ran.err
    [command] = commands(read_json(project / ".claude" / "settings.local.json"))
    assert ".claude/hookwright-local/git-guard/git-guard" in command
    assert not (project / ".claude" / "settings.json").exists()
    ignored = subprocess.run(["git", "-C", str(project), "check-ignore", "-q",
                              ".claude/hookwright-local/git-guard/git-guard"])
    assert ignored.returncode == 0



def test_a_local_install_warns_where_git_would_share_the_personal_file(hookwright, home, project):
    """Tracked, its entries reach every clone without their runtimes, whose absence refuses every
    call; untracked and not ignored, git would pick it up."""
    local = project / ".claude" / "settings.local.json"

    def notes() -> list[str]:
        planned = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--dry-run", "--json")
        return planned.json["plans"][0]["notes"]

    subprocess.run(["git", "init", "-q", str(project)], check=True)
    assert any("git does not ignore it" in note for note in notes())  # (the file does not exist yet)
    local.parent.mkdir(parents=True)
    local.write_text("{}\n")
    assert any("git does not ignore it" in note for note in notes())
    subprocess.run(["git", "-C", str(project), "add", "-f", str(local)], check=True)
    assert any("git tracks" in note and "git rm --cached" in note for note in notes())
    subprocess.run(["git", "-C", str(project), "rm", "-q", "--cached", str(local)], check=True)
    (project / ".gitignore").write_text(".claude/settings.local.json\n")
    assert not notes()

def test_a_pack_option_is_rendered_into_the_command_and_a_new_value_reconfigures_in_place(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    hookwright("install", "git-guard", *project_args(project), "--yes")

    ran = hookwright("install", "git-guard", *project_args(project), "--option", "deny_push=true", "--yes", "--json")

    assert ran.code == 0
    assert commands(read_json(settings)) == [GIT_GUARD_COMMAND + " --option deny_push=true"]
    assert commands(read_json(settings), "PreSkillShellCommand") == [GIT_GUARD_COMMAND + " --option deny_push=true"]
    assert [e["handler"]["command"] for e in ran.json["plans"][0]["removed"]] == [GIT_GUARD_COMMAND] * 2


def test_a_newer_pack_version_upgrades_its_own_entry_in_place(hookwright, home, project, tmp_path, monkeypatch):
    settings = project / ".claude" / "settings.json"
    foreign = {"matcher": "Write", "hooks": [{"type": "command", "command": "fmt"}]}
    hookwright("install", "git-guard", *project_args(project), "--yes")
    data = read_json(settings)
    data["hooks"]["PreToolUse"].append(foreign)
    write_json(settings, data)
    newer = tmp_path / "packs"
    shutil.copytree(resources.packs_dir(), newer)
    manifest = newer / "git-guard" / "pack.toml"
    bundled = load_pack("git-guard").version
    manifest.write_text(manifest.read_text().replace(f'version = "{bundled}"', 'version = "9.0.0"')
                        .replace("timeout = 10", "timeout = 7"))
    monkeypatch.setattr(resources, "packs_dir", lambda: newer)

    ran = hookwright("install", "git-guard", *project_args(project), "--yes", "--json")

    assert ran.code == 0, ran.err
    assert ran.json["plans"][0]["packs"][0]["action"] == "upgrade"
    groups = read_json(settings)["hooks"]["PreToolUse"]
    assert groups[0]["hooks"][0]["timeout"] == 7 and groups[1] == foreign
    receipt = json.loads((project / ".claude/hookwright/git-guard/receipt.json").read_text())
    assert receipt["version"] == "9.0.0"


def test_an_entry_running_our_runtime_without_a_receipt_is_adopted_only_when_asked(hookwright, home, project):
    hookwright("install", "git-guard", *project_args(project), "--yes")
    (project / ".claude/hookwright/git-guard/receipt.json").unlink()

    refused = hookwright("install", "git-guard", *project_args(project), "--yes")
    adopted = hookwright("install", "git-guard", *project_args(project), "--yes", "--adopt")

    assert refused.code == 3 and "--adopt" in refused.err
    assert adopted.code == 0
    assert (project / ".claude/hookwright/git-guard/receipt.json").is_file()
    assert commands(read_json(project / ".claude" / "settings.json")) == [GIT_GUARD_COMMAND]


def test_a_settings_file_linked_inside_its_scopes_folder_is_written_through_and_stays_a_link(hookwright, home,
                                                                                           project):
    real = project / ".claude" / "shared" / "settings.json"
    write_json(real, {"theme": "dark"})
    link = project / ".claude" / "settings.json"
    link.symlink_to(real)

    ran = hookwright("install", "git-guard", *project_args(project), "--yes")

    assert ran.code == 0, ran.err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert commands(read_json(real)) == [GIT_GUARD_COMMAND]


def test_a_settings_file_linked_out_of_its_scopes_folder_is_written_only_with_the_flag_the_refusal_names(
        hookwright, home, project, tmp_path):
    real = tmp_path / "dotfiles" / "settings.json"
    before = write_json(real, {"theme": "dark"})
    link = project / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(real)

    refused = hookwright("install", "git-guard", *project_args(project), "--yes")
    assert refused.code == 3 and str(link) in refused.err and str(real) in refused.err
    assert "--allow-outside-scope" in refused.err and real.read_bytes() == before

    ran = hookwright("install", "git-guard", *project_args(project), "--yes", "--allow-outside-scope")

    assert ran.code == 0, ran.err
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert commands(read_json(real)) == [GIT_GUARD_COMMAND]


def test_the_settings_file_keeps_its_mode(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {})
    settings.chmod(0o600)

    hookwright("install", "git-guard", *project_args(project), "--yes")

    assert stat.S_IMODE(settings.stat().st_mode) == 0o600
    assert handlers(read_json(settings))


@pytest.mark.parametrize("indent", [2, 4, "\t", None], ids=["2", "4", "tab", "minified"])
@pytest.mark.parametrize("final_newline", [True, False])
def test_install_keeps_the_files_indent_key_order_final_newline_and_non_ascii(hookwright, home, project, indent,
                                                                               final_newline):
    settings = project / ".claude" / "settings.json"
    original = {"zeta": "ünïcödé ✓", "alpha": [1, 2], "hooks": {"Stop": [{"hooks": [{"type": "command",
                                                                                        "command": "say hi"}]}]}}
    raw = write_json(settings, original, indent=indent, final_newline=final_newline)

    hookwright("install", "git-guard", *project_args(project), "--yes")
    text = settings.read_text(encoding="utf-8")
    hookwright("uninstall", "git-guard", *project_args(project), "--yes")

    assert list(json.loads(text)) == ["zeta", "alpha", "hooks"]
    assert "ünïcödé ✓" in text
    assert text.endswith("\n") == final_newline
    if indent is None:
        assert "\n" not in text.strip()
    else:
        unit = indent if isinstance(indent, str) else " " * indent
        assert f"\n{unit}{unit}\"PreToolUse\"" in text
    assert settings.read_bytes() == raw


def test_crlf_line_endings_survive_an_install(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_bytes(b'{\r\n  "a": 1\r\n}\r\n')

    hookwright("install", "git-guard", *project_args(project), "--yes")

    raw = settings.read_bytes()
    assert raw.count(b"\n") == raw.count(b"\r\n") > 3


def test_a_file_changed_while_we_ask_is_shown_again_and_asked_about_again(home, project):
    from hookwright.commands.install import install
    from hookwright.hosts.base import Scope
    from hookwright.planning.apply import Consent

    settings = project / ".claude" / "settings.json"
    write_json(settings, {"permissions": {"allow": []}})
    asked = []

    def host_writes_then_user_says_yes(plan, changed_since):
        asked.append((changed_since, plan.document.raw))
        if len(asked) == 1:
            write_json(settings, {"permissions": {"allow": ["Bash(npm test)"]}})
        return True

    result = install(["git-guard"], scope=Scope.project, project=project, options=[], adopt=False,
                     dry_run=False, consent=Consent(ask=host_writes_then_user_says_yes))

    assert result.status == "applied"
    assert [again for again, _ in asked] == [False, True] and b"npm test" in asked[1][1]
    data = read_json(settings)
    assert data["permissions"]["allow"] == ["Bash(npm test)"]
    assert commands(data) == [GIT_GUARD_COMMAND]


def test_saying_no_to_the_plan_asked_again_after_an_edit_writes_nothing_of_ours(home, project):
    from hookwright.commands.install import install
    from hookwright.hosts.base import Scope
    from hookwright.planning.apply import Consent

    settings = project / ".claude" / "settings.json"
    write_json(settings, {})

    def edit_then_decline(plan, changed_since):
        if not changed_since:
            write_json(settings, {"env": {"A": "1"}})
        return not changed_since

    result = install(["git-guard"], scope=Scope.project, project=project, options=[], adopt=False,
                     dry_run=False, consent=Consent(ask=edit_then_decline))

    assert result.status == "declined" and result.exit_code == 3
    assert read_json(settings) == {"env": {"A": "1"}}
    assert not (project / ".claude" / "hookwright").exists()


def test_a_change_made_while_we_ask_that_already_does_what_the_plan_would_writes_nothing(hookwright, home,
                                                                                          project):
    from hookwright.commands.install import install
    from hookwright.hosts.base import Scope
    from hookwright.planning.apply import Consent

    def someone_else_installs_first(plan, changed_since):
        assert hookwright("install", "git-guard", *project_args(project), "--yes").code == 0
        return True

    result = install(["git-guard"], scope=Scope.project, project=project, options=[], adopt=False,
                     dry_run=False, consent=Consent(ask=someone_else_installs_first))

    assert result.status == "unchanged" and result.operation is None
    assert commands(read_json(project / ".claude" / "settings.json")) == [GIT_GUARD_COMMAND]


def test_a_result_the_host_would_reject_is_never_written(home, project):
    from hookwright.document import Document
    from hookwright.errors import HookwrightError
    from hookwright.hosts.base import Scope
    from hookwright.hosts.claude import adapter as claude
    from hookwright.planning.plan import Plan

    target = claude.HOST.target(Scope.project, project)
    bad = {"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "timeout": 0}]}]}}
    plan = Plan("install", target, Document.new(target.config), bad)

    with pytest.raises(HookwrightError) as refused:
        plan.check_valid()

    assert refused.value.code == 3 and "timeout" in refused.value.detail


def test_a_plan_and_its_pack_changes_cannot_be_changed_once_built(home, project):
    """What is shown is what is checked and written: a step that wants more makes a new plan."""
    import dataclasses
    import operator

    from hookwright.hosts.base import Scope
    from hookwright.hosts.claude import adapter as claude
    from hookwright.planning.install import plan_install

    target = claude.HOST.target(Scope.project, project)
    plan = plan_install(claude.HOST, target, [load_pack("git-guard")], {"git-guard": {}}, adopt=False)
    [change] = plan.packs

    assert plan.added and change.writes
    for grow in (lambda: plan.added.append(plan.added[0]), lambda: plan.notes.append("later"),  # type: ignore
                 lambda: change.removes.append("x"), lambda: change.notes.append("later")):  # type: ignore
        with pytest.raises(AttributeError):
            grow()
    for mapping, key, value in ((change.writes, "x", (b"", 0o644)), (plan.other_writes, project / "x", b"")):
        with pytest.raises(TypeError):
            operator.setitem(mapping, key, value)  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.batch = "another"  # type: ignore[misc]
    later = dataclasses.replace(plan, notes=[*plan.notes, "later"])
    assert later.notes[-1] == "later" and isinstance(later.notes, tuple) and "later" not in plan.notes


def test_the_packs_command_lists_git_guard_with_its_option(hookwright):
    ran = hookwright("packs", "--json")

    [pack] = [p for p in ran.json["packs"] if p["name"] == "git-guard"]
    assert pack["hooks"][0]["blocks"] is True and "deny_push" in pack["options"]


def test_packs_for_one_agent_lists_the_packs_that_run_there_and_why_the_others_do_not(hookwright):
    ran = hookwright("packs", "--host", "opencode", "--json")

    assert ran.code == 0 and ran.json["host"] == "opencode"
    assert sorted(p["name"] for p in ran.json["packs"]) == ["git-guard", "path-normalizer"]
    assert "answer a question" in ran.json["not_for_host"]["ask-guard"]
    assert hookwright("packs", "--host", "vim").code == 2


def test_hookwright_runs_as_a_module_and_prints_help(tmp_path):
    done = subprocess.run([sys.executable, "-m", "hookwright", "--help"], capture_output=True, text=True,
                          cwd=resources.data_root(), env=dict(os.environ, HOME=str(tmp_path)))
    assert done.returncode == 0 and "install" in done.stdout and "rollback" in done.stdout


def test_reinstalling_without_options_keeps_the_options_chosen_before(hookwright, home, project):
    hookwright("install", "git-guard", *project_args(project), "--option", "deny_push=true", "--yes")

    again = hookwright("install", "git-guard", *project_args(project), "--yes", "--json")

    assert again.json["status"] == "unchanged"
    assert commands(read_json(project / ".claude" / "settings.json")) == [GIT_GUARD_COMMAND + " --option deny_push=true"]


def test_a_matcher_option_that_is_not_a_usable_regex_is_refused(hookwright, home, project):
    ran = hookwright("install", "path-normalizer", *project_args(project), "--option", "tools=(", "--yes")

    assert ran.code == 2 and "not a usable matcher" in ran.err
    assert not (project / ".claude").exists()


def test_a_project_folder_that_does_not_exist_is_refused_not_created(hookwright, home, tmp_path):
    ran = hookwright("install", "git-guard", "--scope", "project", "--project", tmp_path / "nope", "--yes")

    assert ran.code == 2 and "does not exist" in ran.err
    assert not (tmp_path / "nope").exists()


def test_project_scope_in_the_home_folder_is_refused_because_it_is_the_user_settings(hookwright, home):
    ran = hookwright("install", "git-guard", "--scope", "project", "--project", home, "--yes")

    assert ran.code == 2 and "user settings" in ran.err
    assert not (home / ".claude").exists()


def test_a_new_settings_local_json_that_git_would_commit_comes_with_a_note(hookwright, home, project):
    subprocess.run(["git", "init", "-q", str(project)], check=True)

    ran = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--yes")
    again = hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")

    assert ran.code == 0 and ".gitignore" in ran.out and "settings.local.json" in ran.out
    assert ".gitignore" not in again.out


def test_project_without_scope_means_the_project_scope(hookwright, home, project):
    assert hookwright("install", "git-guard", "--project", project, "--yes").code == 0
    assert commands(read_json(project / ".claude" / "settings.json")) == [GIT_GUARD_COMMAND]
    assert not (home / ".claude").exists()
    assert hookwright("uninstall", "git-guard", "--project", project, "--yes").code == 0
    assert not (project / ".claude").exists()


def test_the_readme_capability_tables_are_what_the_host_adapters_say():
    import sys

    from hookwright import resources

    sys.path.insert(0, str(resources.data_root() / "scripts"))
    from build_readme_tables import with_tables

    readme = (resources.data_root() / "README.md").read_text(encoding="utf-8")
    assert with_tables(readme) == readme, "run scripts/build_readme_tables.py"


def test_project_without_scope_installs_into_the_project_and_the_plan_header_says_why(hookwright, home, project):
    ran = hookwright("install", "git-guard", "--project", project, "--dry-run")

    assert ran.code == 0
    assert f"{project / '.claude' / 'settings.json'}" in ran.out.replace("\n", "")
    assert "project scope: --project without --scope" in ran.out


def test_an_option_change_reads_as_one_update_naming_the_field_not_a_removal_and_an_addition(hookwright, home,
                                                                                           project):
    hookwright("install", "path-normalizer", *project_args(project), "--yes")

    ran = hookwright("install", "path-normalizer", *project_args(project), "-o", "tools=mcp__fs__.*", "--dry-run")

    assert ran.code == 0 and "~ update" in ran.out
    assert '"^mcp__(?!.*__AskUserQuestion$)" → "mcp__fs__.*"' in ran.out
    assert "+ add" not in ran.out and "- remove" not in ran.out


def test_an_entry_deleted_by_hand_is_repaired_and_the_pack_line_says_repair_not_unchanged(hookwright, home,
                                                                                          project):
    hookwright("install", "git-guard", *project_args(project), "--yes")
    write_json(project / ".claude" / "settings.json", {})

    ran = hookwright("install", "git-guard", *project_args(project), "--dry-run")

    assert "pack git-guard: repair" in ran.out and "+ add" in ran.out
    assert "unchanged" not in ran.out


def test_the_local_scope_plan_names_the_gitignore_it_writes_and_the_write_makes_it(hookwright, home, project):
    ignore = project / ".claude" / "hookwright-local" / ".gitignore"

    planned = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--dry-run", "--json")
    ran = hookwright("install", "git-guard", "--scope", "local", "--project", project, "--yes")

    assert planned.json["plans"][0]["other_writes"] == [str(ignore)]
    assert ran.code == 0 and ignore.read_text().endswith("*\n")


def test_a_misspelt_option_or_pack_is_refused_with_the_name_meant(hookwright, home, project):
    option = hookwright("install", "git-guard", *project_args(project), "-o", "deny_psuh=true", "--yes")
    pack = hookwright("install", "git-gaurd", *project_args(project), "--yes")

    assert option.code == pack.code == 2
    assert "did you mean deny_push?" in option.err and "did you mean git-guard?" in pack.err
    assert not (project / ".claude").exists()


def test_render_with_project_alone_renders_the_projects_file(hookwright, home, project):
    ran = hookwright("render", "git-guard", "--host", "claude", "--project", project, "--json")

    assert ran.code == 0 and ran.json["file"] == str(project / ".claude" / "settings.json")


def test_an_option_with_choices_refuses_another_value_with_the_one_meant(hookwright, home, project):
    ran = hookwright("install", "ask-guard", *project_args(project), "-o", "mode=deni", "--yes")

    assert ran.code == 2 and "option mode takes answer, deny, not 'deni'" in ran.err and "did you mean deny?" in ran.err
    assert not (project / ".claude").exists()
    assert hookwright("packs", "--json").json["packs"][0]["options"]["mode"]["choices"] == ["answer", "deny"]
