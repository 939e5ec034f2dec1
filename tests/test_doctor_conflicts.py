"""Conflicts between hooks (installer/doctor/checks/conflicts/): the input-rewrite race,
duplicates across scopes and plugins, a pack in two scopes, and Cursor running Claude Code's hooks.
Each rule fires on a config that has the problem and stays quiet on valid configs, including
valid configs with several rewriting hooks that cannot meet."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from doctor_support import doctor, found
from hookwright.doctor import discovery, load
from hookwright.doctor.checks import conflicts
from hookwright.doctor.checks.conflicts.races import MAX_PAIRS
from hookwright.doctor.model import Context, catalog
from hookwright.hooks.events import BUILTIN_TOOLS

S = ".claude/settings.json"
LOCAL = ".claude/settings.local.json"
REWRITER = """
    import json, sys
    data = json.load(sys.stdin)
    print(json.dumps({"hookSpecificOutput": {"hookEventName": data["hook_event_name"], "permissionDecision": "allow",
                                             "updatedInput": dict(data["tool_input"], touched=True)}}))
"""
OBSERVER = """
    import json, sys
    json.load(sys.stdin)
    print("{}")
"""


def script(base: Path, name: str, text: str) -> str:
    path = base / ".claude" / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return f'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/{name}'


def config(*groups, event="PreToolUse") -> dict:
    """groups: (matcher, command, ...)."""
    return {"hooks": {event: [{"matcher": m, "hooks": [{"type": "command", "command": c} for c in cs]}
                              for m, *cs in groups]}}


def conflict_rules(outcome) -> list[str]:
    return [f.rule for f in outcome.findings if f.rule.startswith("conflict/")]


# ---- the input-rewrite race ------------------------------------------------------------------------

def test_two_known_rewriters_on_a_shared_tool_race(tmp_path):
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    out = doctor(base, {S: config(("Bash", a), ("Bash|Edit", b))})
    (race,) = found(out, "conflict/input-rewrite-race")
    assert race.severity == "error"
    assert "`a.py` and `b.py`" in race.message and "Bash" in race.message and "Edit" not in race.message
    assert "last to finish wins" in race.message
    assert race.line == 18  # the second handler's command
    assert race.related[0]["line"] == 9 and "updatedInput" in race.related[0]["message"]


@pytest.mark.parametrize("groups, why", [
    ((("Bash", "A"), ("Read|Edit", "B")), "matchers share no tool"),
    ((("Edit.*", "A"), ("^Write$", "B")), "regexes share no tool"),
    ((("Bash", "A"), ("bash", "B")), "matching is case-sensitive"),
    ((("Bash", "A"), ("Bash(", "B")), "an invalid regex never fires"),
    ((("Bash", "A"), ("Bash", "O")), "the other one does not rewrite"),
    ((("Bash", "A", "A"),), "one command runs once"),
    ((("Bash", "A"), ("Bash|Edit", "A")), "the same command in two groups runs once"),
    ((("mcp__srv__read_.*", "A"), ("mcp__srv__write_.*", "B")), "MCP tool prefixes are disjoint"),
])
def test_valid_configs_with_rewriters_do_not_race(tmp_path, groups, why):
    base = tmp_path / "p"
    commands = {"A": script(base, "a.py", REWRITER), "B": script(base, "b.py", REWRITER),
                "O": script(base, "o.py", OBSERVER)}
    files = {S: config(*[(m, *[commands[c] for c in cs]) for m, *cs in groups]), ".mcp.json": {"mcpServers": {"srv": {}}}}
    races = [r for r in conflict_rules(doctor(base, files)) if "race" in r]
    assert races == [], why


@pytest.mark.parametrize("rule_a, rule_b, tools", [
    ("Bash(git *)", "Read(*.py)", []), ("Read", "Edit", []), ("mcp__srv__x", "mcp__srv__y", []),
    ("Bash(git *)", "Bash(npm *)", ["Bash"]),  # (one compound command may match both)
    ("Bash(git *)", None, ["Bash"]), ("mcp__srv", "mcp__srv__x", ["mcp__srv__*"]),
], ids=["bash-and-read", "read-and-edit", "two-mcp-tools", "one-tool", "one-without-if", "a-server-and-its-tool"])
def test_if_rules_that_name_different_tools_keep_two_rewriters_apart(tmp_path, rule_a, rule_b, tools):
    """A handler's `if` names the tool it fires for (Bash of `Bash(git *)`): rewriters whose rules
    name tools apart share no call, whatever their matchers say."""
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    files = {S: config(("*", a), ("*", b)), ".mcp.json": {"mcpServers": {"srv": {}}}}
    for handler, rule in zip((group["hooks"][0] for group in files[S]["hooks"]["PreToolUse"]), (rule_a, rule_b)):
        if rule:
            handler["if"] = rule
    races = found(doctor(base, files), "conflict/input-rewrite-race")
    assert len(races) == (1 if tools else 0)
    assert [tool for race in races for tool in tools if tool in race.message] == tools


def test_one_rewriter_spelt_two_ways_in_two_scopes_runs_twice_and_races_nothing(tmp_path, home):
    """`/p/.claude/hooks/a.py` in the user's settings, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.py` in
    the project's: two command strings (both run), one script (the same answer twice: no rewrite lost)."""
    base = tmp_path / "p"
    spelt = script(base, "a.py", REWRITER)
    absolute = spelt.replace('"$CLAUDE_PROJECT_DIR"', str(base))
    out = doctor(base, {S: config(("Bash", spelt)), str(home / S): config(("Bash", absolute))}, given=False)
    assert conflict_rules(out) == ["conflict/duplicate-runs-twice"]


def test_a_race_sits_at_the_copy_that_fires_for_the_tool_the_two_share(tmp_path, home):
    """b.py in the project (on Read) and in the local settings (on Bash|Read), a.py on Bash in the
    user's: the race on Bash is at the local copy, where narrowing a matcher changes something."""
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    files = {str(home / S): config(("Bash", a)), S: config(("Read", b)), LOCAL: config(("Bash|Read", b))}
    (race,) = found(doctor(base, files, given=False), "conflict/input-rewrite-race")
    assert race.path == str(base / LOCAL) and "Bash" in race.message


def test_a_known_and_an_unknown_rewriter_warn(tmp_path):
    base = tmp_path / "p"
    a = script(base, "a.py", REWRITER)
    out = doctor(base, {S: config(("Bash", a), ("*", "npx -y some-hook-package"))})
    (finding,) = found(out, "conflict/input-rewrite-race-possible")
    assert finding.severity == "warning"
    assert "`a.py` rewrites the input of Bash" in finding.message and "npx" in finding.message
    # two hooks doctor can only guess about never race on a guess
    out = doctor(base, {S: config(("Bash", "npx -y one"), ("Bash", "npx -y two"))})
    assert conflict_rules(out) == []


WRAPPERS = {  # a wrapper script's text, by what it runs
    "exec": '#!/bin/bash\nset -euo pipefail\nDIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\nexec python3 "$DIR/{name}"\n',
    "dirname": '#!/bin/sh\npython3 "$(dirname "$0")/{name}" "$@"\n',
    "cd": '#!/bin/bash\ncd "$(dirname "$0")"\nexec python3 {name}\n',
    "wrapper of a wrapper": '#!/bin/sh\nexec "$(dirname "$0")/inner-{name}.sh"\n',
}


def wrapper(base: Path, how: str, name: str) -> str:
    """A run-<name>.sh beside the hooks that runs .claude/hooks/<name> (through a second wrapper, for that one)."""
    hooks = base / ".claude" / "hooks"
    if how == "wrapper of a wrapper":
        inner = hooks / f"inner-{name}.sh"
        inner.write_text(WRAPPERS["exec"].replace("{name}", name))
        inner.chmod(0o755)
    outer = hooks / f"run-{name}.sh"
    outer.write_text(WRAPPERS[how].replace("{name}", name))
    outer.chmod(0o755)
    return f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/run-{name}.sh'


@pytest.mark.parametrize("how", sorted(WRAPPERS))
def test_two_rewriters_behind_wrappers_still_race(tmp_path, how):
    base = tmp_path / "p"
    script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    out = doctor(base, {S: config(("Bash", wrapper(base, how, "a.py")), ("Bash", wrapper(base, how, "b.py")))})
    (race,) = found(out, "conflict/input-rewrite-race")
    assert "`run-a.py.sh` and `run-b.py.sh`" in race.message
    assert "it runs " in race.related[0]["message"] and "updatedInput" in race.related[0]["message"]


@pytest.mark.parametrize("how", sorted(WRAPPERS))
def test_a_wrapper_of_a_script_that_never_rewrites_races_nothing(tmp_path, how):
    base = tmp_path / "p"
    a = script(base, "a.py", REWRITER)
    script(base, "o.py", OBSERVER)
    assert conflict_rules(doctor(base, {S: config(("Bash", a), ("Bash", wrapper(base, how, "o.py")))})) == []


def test_a_wrapper_that_runs_a_script_named_at_run_time_may_rewrite(tmp_path):
    base = tmp_path / "p"
    a = script(base, "a.py", REWRITER)
    script(base, "b.py", REWRITER)
    runner = base / ".claude" / "hooks" / "run-hook.sh"
    runner.write_text('#!/bin/bash\nexec "$(dirname "$0")/$1"\n')
    runner.chmod(0o755)
    out = doctor(base, {S: config(("Bash", a), ("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/run-hook.sh b.py'))})
    assert [f.rule for f in out.findings if "race" in f.rule] == ["conflict/input-rewrite-race-possible"]


def test_a_script_run_directly_and_through_a_wrapper_prints_one_answer_and_races_nothing(tmp_path):
    base = tmp_path / "p"
    a = script(base, "a.py", REWRITER)
    assert conflict_rules(doctor(base, {S: config(("Bash", a), ("Bash", wrapper(base, "exec", "a.py")))})) == []


def test_permission_request_races_too(tmp_path):
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    out = doctor(base, {S: config(("Bash", a), ("Bash", b), event="PermissionRequest")})
    assert conflict_rules(out) == ["conflict/input-rewrite-race"]
    out = doctor(base, {S: config(("Bash", a), ("Bash", b), event="PostToolUse")})
    assert conflict_rules(out) == []


def test_our_packs_are_known_by_their_pack_toml(tmp_path, home):
    base = tmp_path / "p"
    question = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/ask-guard/question-preference --host claude'
    guard = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude'
    foreign = script(base, "answer.py", REWRITER)
    out = doctor(base, {S: config(("AskUserQuestion|mcp__.*__AskUserQuestion", question),
                                  ("AskUserQuestion", foreign))})
    (race,) = found(out, "conflict/input-rewrite-race")
    assert "hookwright pack ask-guard (question-preference)" in race.message and "AskUserQuestion" in race.message
    # git-guard blocks but never rewrites: no race with a rewriter on Bash
    out = doctor(base, {S: config(("Bash", guard), ("Bash", foreign))})
    assert conflict_rules(out) == []


def test_mcp_overlap_uses_the_configured_servers(tmp_path):
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    files = {S: config(("mcp__.*", a), ("mcp__docs__.*", b))}
    # no MCP server configured where doctor looks: the race is a warning that says so
    assert conflict_rules(doctor(base, files)) == ["conflict/input-rewrite-race-unseen-servers"]
    files[".mcp.json"] = {"mcpServers": {"docs": {"command": "docs-server"}}}
    (race,) = found(doctor(base, files), "conflict/input-rewrite-race")
    assert "mcp__docs__*" in race.message  # every tool of the server
    # they meet only at tool names the server may not have: a warning
    files[S] = config(("AskUserQuestion|mcp__.*__AskUserQuestion", a), ("mcp__docs__.*", b))
    (maybe,) = found(doctor(base, files), "conflict/input-rewrite-race-mcp")
    assert maybe.severity == "warning" and "mcp__docs__AskUserQuestion" in maybe.message


def test_race_checking_stays_linear_and_bounded(tmp_path):
    """2,000 handlers, 1,000 of them known rewriters on one tool: the findings are capped, and the
    check does not enumerate the million pairs."""
    base = tmp_path / "p"
    a = script(base, "a.py", REWRITER)
    groups = [("Bash", f"{a} --n {i}") for i in range(1000)] + [(f"Tool{i}", f"{a} --m {i}") for i in range(1000)]
    path = base / S
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config(*groups)))
    (file,) = [load.read(c) for c in discovery.given_candidates([path], base)]
    ctx = Context([file], load.handlers(file), tools=list(BUILTIN_TOOLS), project=base)
    races = [f for f in conflicts.check(ctx) if f.rule == "conflict/input-rewrite-race"]
    assert len(races) == MAX_PAIRS


# ---- duplicates ----------------------------------------------------------------------------------------

def test_the_same_command_in_several_settings_files_runs_once(tmp_path):
    base = tmp_path / "p"
    files = {S: config(("Bash|Read", "echo guard")), LOCAL: config(("Bash", "echo guard"))}
    out = doctor(base, files, given=False)
    (dup,) = found(out, "conflict/duplicate-handler")
    assert dup.severity == "info" and dup.path == str(base / LOCAL) and "runs it once" in dup.message
    assert dup.related[0]["path"] == str(base / S)
    files[LOCAL] = config(("Bash", "echo other"))
    assert conflict_rules(doctor(base, files, given=False)) == []


@pytest.mark.parametrize("event, kept, copy", [
    ("PreToolUse", "Bash", "Read"),  # the same logger on two tools: Claude Code runs it for both
    ("PreToolUse", "Bash|Edit", "Bash|Read"),  # each is the only copy on one tool
    ("PreToolUse", "Bash", "mcp__github__.*"),
    ("PostToolUse", "Edit|Write", "^Write.*|Read"),
    ("SessionStart", "startup", "resume|clear"),
    ("Notification", "permission_prompt", "idle_.*"),
])
def test_copies_whose_matchers_reach_tools_the_other_does_not_are_each_needed(tmp_path, event, kept, copy):
    """Claude Code deduplicates among the hooks that match one call; removing a copy that fires
    where the other does not would switch the hook off there (the real CLI ran the same logger
    on Bash and on Read, once each)."""
    base = tmp_path / "p"
    files = {S: config((kept, "echo log"), event=event), LOCAL: config((copy, "echo log"), event=event)}
    assert not found(doctor(base, files, given=False), "conflict/duplicate-handler")


@pytest.mark.parametrize("event, kept, copy", [
    ("PreToolUse", "Bash|Read", "Read"),
    ("PreToolUse", "*", "mcp__github__.*"),
    ("PreToolUse", "", "Bash"),
    ("PreToolUse", "Edit|Write", "Edit"),
    ("PreToolUse", "mcp__github__.*", "mcp__github__create_issue"),
    ("SessionStart", "startup|resume", "resume"),
    ("Notification", "idle_.*", "idle_prompt"),
    ("Stop", None, None),
])
def test_a_copy_that_fires_only_where_an_earlier_copy_fires_adds_nothing(tmp_path, event, kept, copy):
    base = tmp_path / "p"
    files = {S: config((kept, "echo log"), event=event), LOCAL: config((copy, "echo log"), event=event)}
    (dup,) = found(doctor(base, files, given=False), "conflict/duplicate-handler")
    assert dup.path == str(base / LOCAL) and "changes nothing" in dup.message


def test_cursor_copies_run_twice_only_where_their_regexes_share_a_tool(tmp_path):
    def entries(*matchers):
        return {"version": 1, "hooks": {"preToolUse": [{"command": "echo log", "matcher": m} for m in matchers]}}

    assert not found(doctor(tmp_path / "p", {".cursor/hooks.json": entries("^Shell$", "^Read$")}),
                     "conflict/duplicate-runs-twice")
    (twice,) = found(doctor(tmp_path / "q", {".cursor/hooks.json": entries("^Shell$", "Shell|Write")}),
                     "conflict/duplicate-runs-twice")
    assert "Cursor documents no deduplication" in twice.message


def test_the_narrower_copy_is_the_extra_one_wherever_it_stands(tmp_path):
    """`Bash` before `Bash|Read`: the later copy fires on every call the first does, so the
    first adds nothing (and removing the wider one would lose the hook on Read)."""
    base = tmp_path / "p"
    for first, second in (("Bash", "*"), ("Bash", "Bash|Read")):
        files = {S: config((first, "echo log")), LOCAL: config((second, "echo log"))}
        (dup,) = found(doctor(base, files, given=False), "conflict/duplicate-handler")
        assert dup.path == str(base / S) and dup.related[0]["path"] == str(base / LOCAL), (first, second)


def test_copies_that_no_session_loads_together_are_no_duplicates(tmp_path, home):
    """Two projects never share a session, and a loose file named on the command line is loaded
    by none known; the user's settings are loaded with every project."""
    same = config(("Bash", "echo guard"))
    files = {"a/.claude/settings.json": same, "b/.claude/settings.json": same, "loose.json": same}
    assert conflict_rules(doctor(tmp_path, files)) == []
    files[str(home / ".claude/settings.json")] = same
    dups = found(doctor(tmp_path, files), "conflict/duplicate-handler")
    assert sorted(Path(d.path).parts[-3] for d in dups) == ["a", "b"]  # each project's copy, once
    assert all(d.related[0]["path"] == str(home / ".claude/settings.json") for d in dups)


def test_copies_with_different_if_conditions_are_each_needed(tmp_path):
    hooks = [{"type": "command", "command": "~/deny-refs.sh", "if": rule} for rule in ("Bash(git commit *)",
                                                                                        "Bash(gh pr create *)")]
    group = {"matcher": "Bash", "hooks": hooks}
    assert not found(doctor(tmp_path / "p", {S: {"hooks": {"PreToolUse": [group]}}}), "conflict/duplicate-handler")


def test_copies_in_two_files_that_differ_in_timeout_name_the_copy_that_runs(tmp_path):
    """The copy of the file of higher precedence runs, with its timeout (measured on 2.1.328; the
    e2e scenario "copies run with the timeout of the file of highest precedence")."""
    base = tmp_path / "p"
    files = {S: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo a",
                                                                         "timeout": 1}]}]}},
             LOCAL: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo a",
                                                                             "timeout": 5}]}]}}}
    (dup,) = found(doctor(base, files, given=False), "conflict/duplicate-handler")
    assert dup.path == str(base / LOCAL) and "this copy runs, with its fields" in dup.message
    assert dup.related[0]["message"] == "the other copy"


def test_copies_that_differ_in_other_fields_say_so(tmp_path):
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo a"},
                                          {"type": "command", "command": "echo a", "timeout": 5, "async": False}]}
    (dup,) = found(doctor(tmp_path / "p", {S: {"hooks": {"PreToolUse": [group]}}}), "conflict/duplicate-handler")
    assert 'differ in "async", "timeout"' in dup.message and "changes nothing" not in dup.message
    assert "in one scope is not known" in dup.message
    # one copy with an `if`, one without: both run (measured on 2.1.328), no duplicate
    group["hooks"][1] = {"type": "command", "command": "echo a", "if": "Bash(git *)"}
    assert not found(doctor(tmp_path / "r", {S: {"hooks": {"PreToolUse": [group]}}}), "conflict/duplicate-handler")
    (same,) = found(doctor(tmp_path / "q", {S: config(("Bash", "echo a", "echo a"))}), "conflict/duplicate-handler")
    assert "differ" not in same.message and "changes nothing" in same.message


def test_twice_in_one_group_is_a_duplicate(tmp_path):
    out = doctor(tmp_path / "p", {S: config(("Bash", "echo a", "echo a"))})
    (dup,) = found(out, "conflict/duplicate-handler")
    assert "line 7 of this file" in dup.message



def test_copies_on_a_matcher_that_matches_nothing_are_no_duplicates(tmp_path):
    """Neither copy ever runs (matcher/matches-nothing says why): there is no "copy that runs"."""
    out = doctor(tmp_path / "p", {S: config(('tool == "Bash"', "echo a"), ('tool in ["Bash"]', "echo a"))})
    assert found(out, "conflict/duplicate-handler") == [] and len(found(out, "matcher/matches-nothing")) == 2
    out = doctor(tmp_path / "q", {S: config(("Bash", "echo a"), ("Ba.*", "echo a"))})
    assert len(found(out, "conflict/duplicate-handler")) == 1

def enabled_plugins(tmp_path, monkeypatch, plugins: dict[str, dict]) -> dict:
    """Install plugins (name -> hooks) under CLAUDE_CONFIG_DIR as Claude Code records them; the
    settings fragment that enables them all."""
    home = tmp_path / "claude-home"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home))
    installs = {}
    for name, hooks in plugins.items():
        root = home / "plugins" / "cache" / name
        (root / "hooks").mkdir(parents=True)
        (root / "hooks" / "hooks.json").write_text(json.dumps({"description": name, "hooks": hooks}))
        installs[f"{name}@tools"] = [{"scope": "user", "installPath": str(root), "version": "1.0.0"}]
    (home / "plugins" / "installed_plugins.json").write_text(json.dumps({"version": 2, "plugins": installs}))
    return {"enabledPlugins": {plugin: True for plugin in installs}}


def test_a_plugin_copy_runs_separately(tmp_path, monkeypatch):
    base = tmp_path / "p"
    enable = enabled_plugins(tmp_path, monkeypatch, {"guard": config(("Bash", "echo guard"))["hooks"]})
    out = doctor(base, {S: {**config(("Bash", "echo guard")), **enable}}, given=False)
    (twice,) = found(out, "conflict/duplicate-runs-twice")
    assert twice.severity == "warning" and "plugin" in twice.message
    assert "runs twice for every" in twice.message
    out = doctor(base, {S: {**config(("Bash", "echo other")), **enable}}, given=False)
    assert conflict_rules(out) == []
    out = doctor(base, {S: {**config(("Read|Write", "echo guard")), **enable}}, given=False)
    assert conflict_rules(out) == []  # no call fires both copies: each runs once, on its own tools


def test_a_plugin_copy_with_another_if_rule_never_runs_on_the_same_call(tmp_path, monkeypatch):
    def guarded(rule):
        return {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo guard", "if": rule}]}]}

    enable = enabled_plugins(tmp_path, monkeypatch, {"guard": guarded("Bash(git push *)")})
    out = doctor(tmp_path / "p", {S: {"hooks": guarded("Bash(gh pr create *)"), **enable}}, given=False)
    assert conflict_rules(out) == []
    out = doctor(tmp_path / "q", {S: {"hooks": guarded("Bash(git push *)"), **enable}}, given=False)
    assert conflict_rules(out) == ["conflict/duplicate-runs-twice"]


def test_a_settings_copy_is_deduplicated_with_its_own_scope_not_with_a_plugin(tmp_path, monkeypatch):
    base = tmp_path / "p"
    enable = enabled_plugins(tmp_path, monkeypatch, {"guard": config(("Bash", "echo guard"))["hooks"]})
    out = doctor(base, {S: {**config(("Bash", "echo guard", "echo guard")), **enable}}, given=False)
    (dup,) = found(out, "conflict/duplicate-handler")
    assert dup.path == str(base / S) and dup.related[0]["path"] == str(base / S)  # not the plugin's copy


def test_one_plugin_root_template_in_two_plugins_names_two_scripts(tmp_path, monkeypatch):
    template = config(("", "${CLAUDE_PLUGIN_ROOT}/hooks-handlers/session-start.sh"))["hooks"]
    enable = enabled_plugins(tmp_path, monkeypatch, {"learning": template, "explanatory": template})
    out = doctor(tmp_path / "p", {S: enable}, given=False)
    assert not [r for r in conflict_rules(out) if r.startswith("conflict/duplicate")]


def test_a_plugin_file_named_on_the_command_line_is_paired_with_nothing(tmp_path, home):
    """Nothing says which settings enable a loose plugin hooks.json; the user's own copies are
    still compared with each other."""
    base = tmp_path / "p"
    plugin = {"description": "x", "hooks": config(("Bash", "echo guard"))["hooks"]}
    out = doctor(base, {S: config(("Bash", "echo guard")), "plugin/hooks/hooks.json": plugin})
    assert conflict_rules(out) == []
    user = str(home / ".claude/settings.json")
    out = doctor(base, {user: config(("Bash", "echo guard", "echo guard")), "plugin/hooks/hooks.json": plugin})
    (dup,) = found(out, "conflict/duplicate-handler")
    assert dup.path == user


def test_copies_of_one_rewriter_do_not_race_each_other(tmp_path, monkeypatch):
    base = tmp_path / "p"
    a = script(base, "a.py", REWRITER)
    enable = enabled_plugins(tmp_path, monkeypatch, {"guard": config(("Bash", a))["hooks"]})
    out = doctor(base, {S: {**config(("Bash", a)), **enable}}, given=False)
    assert conflict_rules(out) == ["conflict/duplicate-runs-twice"]  # it runs twice, with one answer


def test_cursor_duplicates_run_twice(tmp_path):
    cursor = {"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/fmt.sh"}, {"command": "./hooks/fmt.sh"}]}}
    out = doctor(tmp_path / "p", {".cursor/hooks.json": cursor})
    (twice,) = found(out, "conflict/duplicate-runs-twice")
    assert "Cursor" in twice.message
    cursor["hooks"]["afterFileEdit"].pop()
    assert conflict_rules(doctor(tmp_path / "p", {".cursor/hooks.json": cursor})) == []


def test_a_pack_installed_in_two_scopes_runs_twice(tmp_path, home):
    base = tmp_path / "p"
    user = f"python3 -I -S {home}/.claude/hookwright/git-guard/git-guard --host claude"
    project = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude'
    files = {str(home / ".claude/settings.json"): config(("Bash", user)), S: config(("Bash", project))}
    out = doctor(base, files, given=False)
    (finding,) = found(out, "conflict/pack-in-several-scopes")
    assert finding.severity == "warning" and "git-guard" in finding.message and "runs it twice" in finding.message
    assert "hookwright uninstall git-guard" in finding.hint
    files[LOCAL] = config(("Bash", project.replace("python3 -I -S", "python3 -I -S -u")))
    three = found(doctor(base, files, given=False), "conflict/pack-in-several-scopes")
    assert len(three) == 2 and all("runs it 3 times" in f.message for f in three)
    del files[S], files[LOCAL]
    assert conflict_rules(doctor(tmp_path / "q", files, given=False)) == []


# ---- Cursor's third-party loading ----------------------------------------------------------------------

def test_cursor_hook_doing_a_claude_hooks_job(tmp_path):
    base = tmp_path / "p"
    for name in (".claude/hooks/rtk-rewrite.sh", ".cursor/hooks/rtk-rewrite.sh", ".cursor/hooks/other.sh"):
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text("#!/bin/sh\nexit 0\n")
        (base / name).chmod(0o755)
    claude = config(("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/rtk-rewrite.sh'))
    cursor = {"version": 1, "hooks": {"preToolUse": [{"command": ".cursor/hooks/rtk-rewrite.sh", "matcher": "Shell"}]}}
    out = doctor(base, {S: claude, ".cursor/hooks.json": cursor}, given=False)
    (finding,) = found(out, "conflict/cursor-runs-claude-hooks")
    assert finding.severity == "warning" and "rtk-rewrite.sh" in finding.message
    assert finding.path == str(base / ".cursor/hooks.json") and finding.related[0]["path"] == str(base / S)
    # beforeShellExecution does a PreToolUse job too
    cursor["hooks"] = {"beforeShellExecution": cursor["hooks"]["preToolUse"]}
    assert found(doctor(base, {S: claude, ".cursor/hooks.json": cursor}, given=False),
                 "conflict/cursor-runs-claude-hooks")
    # a different job, or a different event, is no double run
    cursor["hooks"] = {"preToolUse": [{"command": ".cursor/hooks/other.sh"}]}
    assert conflict_rules(doctor(base, {S: claude, ".cursor/hooks.json": cursor}, given=False)) == []
    cursor["hooks"] = {"stop": [{"command": ".cursor/hooks/rtk-rewrite.sh"}]}
    assert conflict_rules(doctor(base, {S: claude, ".cursor/hooks.json": cursor}, given=False)) == []


@pytest.mark.parametrize("cursor_entry, why", [
    ({"beforeReadFile": [{"command": ".cursor/hooks/check.sh"}]}, "reads files, where the Claude hook guards Bash"),
    ({"preToolUse": [{"command": ".cursor/hooks/check.sh", "matcher": "Bash"}]}, "Cursor never calls a tool Bash"),
    ({"preToolUse": [{"command": ".cursor/hooks/check.sh", "matcher": "MCP:query"}]}, "an MCP tool, not Bash"),
    ({"preToolUse": [{"command": ".cursor/hooks/missing.sh", "matcher": "Shell"}]}, "its script is missing"),
    ({"preToolUse": [{"command": ".cursor/hooks/other/check.sh", "matcher": "Shell"}]}, "another check.sh"),
])
def test_no_double_run_claimed_where_no_call_runs_both(tmp_path, cursor_entry, why):
    base = tmp_path / "p"
    for name, text in ((".claude/hooks/check.sh", "#!/bin/sh\nexit 0\n"), (".cursor/hooks/check.sh", "#!/bin/sh\nexit 0\n"),
                       (".cursor/hooks/other/check.sh", "#!/bin/sh\necho other\n")):
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(text)
        (base / name).chmod(0o755)
    claude = config(("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'))
    out = doctor(base, {S: claude, ".cursor/hooks.json": {"version": 1, "hooks": cursor_entry}}, given=False)
    assert not found(out, "conflict/cursor-runs-claude-hooks"), why


def test_a_cursor_hook_running_the_claude_hooks_very_script_says_so(tmp_path):
    base = tmp_path / "p"
    check = base / ".claude/hooks/check.sh"
    check.parent.mkdir(parents=True)
    check.write_text("#!/bin/sh\nexit 0\n")
    check.chmod(0o755)
    claude = config(("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'))
    cursor = {"version": 1, "hooks": {"preToolUse": [{"command": str(check), "matcher": "Shell"}]}}
    (finding,) = found(doctor(base, {S: claude, ".cursor/hooks.json": cursor}, given=False),
                       "conflict/cursor-runs-claude-hooks")
    assert f"do the same job (both run {check}):" in finding.message


def test_one_pack_installed_for_claude_code_and_for_cursor_is_said_to_run_twice_in_cursor(hookwright, home, project):
    for host in ("claude", "cursor"):
        ran = hookwright("install", "git-guard", "--host", host, "--scope", "project", "--project", project, "--yes")
        assert ran.code == 0, ran.err
    out = hookwright("doctor", "--project", project, "--json")
    (twice,) = [f for f in out.json["findings"] if f["rule"] == "conflict/cursor-runs-claude-hooks"]
    assert "do the same job (both run hookwright pack git-guard's git-guard):" in twice["message"]


def test_files_of_unrelated_projects_are_not_paired(tmp_path):
    claude = config(("Bash", "echo same"))
    cursor = {"version": 1, "hooks": {"preToolUse": [{"command": "echo same"}]}}
    out = doctor(tmp_path / "x", {"one/.claude/settings.json": claude, "two/.cursor/hooks.json": cursor})
    assert conflict_rules(out) == []
    out = doctor(tmp_path / "y", {"one/.claude/settings.json": claude, "one/.cursor/hooks.json": cursor})
    assert conflict_rules(out) == ["conflict/cursor-runs-claude-hooks"]


def test_two_rewriters_on_the_mcp_name_space_race_even_where_no_server_can_be_seen(tmp_path):
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    out = doctor(base, {S: config(("mcp__.*", a), ("mcp__.*__AskUserQuestion", b))})
    (race,) = found(out, "conflict/input-rewrite-race-unseen-servers")
    assert race.severity == "warning" and "mcp__<server>__AskUserQuestion" in race.message
    assert str(base / ".mcp.json") in race.message and "managed-mcp.json" in race.message  # where it looked
    assert not found(out, "conflict/input-rewrite-race")


def test_where_the_server_is_seen_the_race_is_the_error_and_not_also_the_unseen_warning(tmp_path):
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    out = doctor(base, {S: config(("mcp__.*", a), ("mcp__.*", b)), ".mcp.json": {"mcpServers": {"fs": {}}}})
    assert conflict_rules(out) == ["conflict/input-rewrite-race"]
    assert "mcp__fs__*" in found(out, "conflict/input-rewrite-race")[0].message


@pytest.mark.parametrize("matchers, expected", [
    (("mcp__github__.*", "mcp__.*"), ["conflict/input-rewrite-race-unseen-servers"]),  # github: named, not configured
    (("mcp__github__.*", "mcp__gitlab__.*"), []),  # two servers: no tool both match
    (("mcp__.*", "Bash"), []),
])
def test_an_unseen_server_race_needs_matchers_that_meet_in_the_mcp_name_space(tmp_path, matchers, expected):
    base = tmp_path / "p"
    a, b = script(base, "a.py", REWRITER), script(base, "b.py", REWRITER)
    out = doctor(base, {S: config((matchers[0], a), (matchers[1], b)), ".mcp.json": {"mcpServers": {"fs": {}}}})
    assert [r for r in conflict_rules(out) if "race" in r] == expected


def test_unseen_servers_are_not_guessed_about_for_a_hook_that_only_may_rewrite(tmp_path):
    base = tmp_path / "p"
    out = doctor(base, {S: config(("mcp__.*", script(base, "a.py", REWRITER)), ("mcp__.*", "npx some-hook"))})
    assert [r for r in conflict_rules(out) if "race" in r] == []


NORMALIZER = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/path-normalizer/path-normalizer --host claude'
GIT_GUARD = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude'
EXIT_2_GUARD = """
    import json, sys
    if "secret" in json.load(sys.stdin)["tool_input"].get("path", ""):
        print("not there", file=sys.stderr)
        sys.exit(2)
"""
DENY_GUARD = """
    import json, sys
    json.load(sys.stdin)
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "no"}}))
"""


@pytest.mark.parametrize("guard", [EXIT_2_GUARD, DENY_GUARD])
def test_a_foreign_guard_on_the_same_calls_makes_a_rewriting_pack_hook_moot(tmp_path, guard):
    base = tmp_path / "p"
    out = doctor(base, {S: config(("mcp__fs__.*", NORMALIZER), ("mcp__fs__read", script(base, "g.py", guard))),
                        ".mcp.json": {"mcpServers": {"fs": {}}}})
    (moot,) = found(out, "conflict/pack-hook-moot")
    assert moot.severity == "warning" and moot.line == 9  # on our entry's command
    assert "path-normalizer" in moot.message and "mcp__fs__read" in moot.message and "g.py" in moot.message
    assert moot.related[0]["line"] == 18


@pytest.mark.parametrize("groups", [
    (("mcp__fs__.*", NORMALIZER), ("Bash", "G")),  # no call in common
    (("mcp__fs__.*", NORMALIZER), ("mcp__fs__.*", "O")),  # it never refuses
    (("Bash", GIT_GUARD), ("Bash", "G")),  # git-guard refuses too: nothing of ours is lost
])
def test_a_pack_hook_is_not_moot_beside_hooks_that_cannot_refuse_its_calls(tmp_path, groups):
    base = tmp_path / "p"
    commands = {"G": script(base, "g.py", DENY_GUARD), "O": script(base, "o.py", OBSERVER)}
    out = doctor(base, {S: config(*[(m, commands.get(c, c)) for m, c in groups]), ".mcp.json": {"mcpServers": {"fs": {}}}})
    assert not found(out, "conflict/pack-hook-moot")


def test_every_conflict_rule_is_tested():
    tested = {"conflict/input-rewrite-race", "conflict/input-rewrite-race-mcp", "conflict/input-rewrite-race-possible",
              "conflict/input-rewrite-race-unseen-servers", "conflict/pack-hook-moot", "conflict/plugin-args-race",
              "conflict/duplicate-handler", "conflict/duplicate-runs-twice", "conflict/pack-in-several-scopes",
              "conflict/cursor-runs-claude-hooks", "conflict/session-end-budget", "conflict/cursor-input-rewrite-conflict"}
    assert {r for r in catalog() if r.startswith("conflict/")} == tested


# ---- SessionEnd's shared budget ----------------------------------------------------------------------

def session_end(timeout, command="echo bye") -> dict:
    return {"SessionEnd": [{"hooks": [{"type": "command", "command": command, "timeout": timeout}]}]}


def test_a_session_end_timeout_above_a_minute_is_cut_to_60_seconds(tmp_path):
    (cut,) = found(doctor(tmp_path / "p", {S: {"hooks": session_end(120)}}), "conflict/session-end-budget")
    assert cut.severity == "warning" and "cut to 60 s" in cut.message and cut.line == 9  # the "timeout" value
    assert not found(doctor(tmp_path / "q", {S: {"hooks": session_end(60)}}), "conflict/session-end-budget")
    # milliseconds are another rule's finding; the variable that sets the budget turns this off
    assert not found(doctor(tmp_path / "r", {S: {"hooks": session_end(5000)}}), "conflict/session-end-budget")
    budget = {"env": {"CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS": "180000"}, "hooks": session_end(120)}
    assert not found(doctor(tmp_path / "s", {S: budget}), "conflict/session-end-budget")


def test_a_plugin_session_end_timeout_does_not_raise_the_budget(tmp_path, monkeypatch):
    enable = enabled_plugins(tmp_path, monkeypatch, {"uploader": session_end(10, "echo upload")})
    out = doctor(tmp_path / "p", {S: enable}, given=False)
    (cut,) = found(out, "conflict/session-end-budget")
    assert "cut to 1.5 s" in cut.message and "plugin" in cut.message and cut.path.endswith("hooks/hooks.json")
    raised = {**enable, "hooks": session_end(15)}  # a settings file's SessionEnd timeout raises it for all
    assert not found(doctor(tmp_path / "p", {S: raised}, given=False), "conflict/session-end-budget")


def test_one_script_spelled_two_ways_runs_twice(tmp_path):
    """Claude Code deduplicates by the command string (claude-code-observed.md i): two spellings of
    one script are two hooks."""
    base = tmp_path / "p"
    (base / ".claude/hooks").mkdir(parents=True)
    files = {S: config(("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh')),
             LOCAL: config(("Bash", '"${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh"'))}
    (twice,) = found(doctor(base, files, given=False), "conflict/duplicate-runs-twice")
    assert twice.path == str(base / LOCAL) and "written differently" in twice.message
    files[LOCAL] = config(("Read", '"${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh"'))  # never on one call
    assert not found(doctor(base, files, given=False), "conflict/duplicate-runs-twice")
    files[LOCAL] = config(("Bash", '"${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.sh" --strict'))  # other arguments
    assert not found(doctor(base, files, given=False), "conflict/duplicate-runs-twice")


# ---- Cursor: two preToolUse entries that both answer updated_input -----------------------------------

CURSOR_REWRITER = """
    import json, sys
    data = json.load(sys.stdin)
    print(json.dumps({"permission": "allow", "updated_input": dict(data["tool_input"], touched=True)}))
"""


def cursor_script(base: Path, name: str, text: str) -> str:
    path = base / ".cursor" / "hooks" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return f"python3 .cursor/hooks/{name}"


def cursor_hooks(*entries) -> dict:
    """entries: (matcher, command)."""
    return {"version": 1, "hooks": {"preToolUse": [{"command": c, **({"matcher": m} if m else {})} for m, c in entries]}}


def test_two_cursor_rewriters_on_a_shared_tool_type_lose_one_rewrite(tmp_path):
    base = tmp_path / "p"
    a, b = cursor_script(base, "a.py", CURSOR_REWRITER), cursor_script(base, "b.py", CURSOR_REWRITER)
    out = doctor(base, {".cursor/hooks.json": cursor_hooks(("Shell", a), ("Shell|Read", b))})
    (conflict,) = found(out, "conflict/cursor-input-rewrite-conflict")
    assert conflict.severity == "warning" and conflict.line == 10, conflict  # the later command
    assert "`a.py` and `b.py`" in conflict.message and "of Shell (updated_input)" in conflict.message
    assert "which of two entries of one file wins" in conflict.message
    assert conflict.related[0]["line"] == 6  # the earlier command


@pytest.mark.parametrize("second", ["MCP:search", "MCP:.*", None, "MCP:search|Shell"])
def test_two_cursor_rewriters_of_one_mcp_tool_conflict(tmp_path, second):
    """An MCP tool a matcher names outright (`MCP:search`) is one both may fire for."""
    base = tmp_path / "p"
    a, b = cursor_script(base, "a.py", CURSOR_REWRITER), cursor_script(base, "b.py", CURSOR_REWRITER)
    (conflict,) = found(doctor(base, {".cursor/hooks.json": cursor_hooks(("MCP:search", a), (second, b))}),
                        "conflict/cursor-input-rewrite-conflict")
    assert "of MCP:search (updated_input)" in conflict.message


@pytest.mark.parametrize("first, second", [("Shell", "Read"), ("MCP:fetch", "Shell|Write"),
                                           ("MCP:search", "MCP:fetch")])
def test_cursor_rewriters_on_different_tool_types_do_not_conflict(tmp_path, first, second):
    base = tmp_path / "p"
    a, b = cursor_script(base, "a.py", CURSOR_REWRITER), cursor_script(base, "b.py", CURSOR_REWRITER)
    assert not found(doctor(base, {".cursor/hooks.json": cursor_hooks((first, a), (second, b))}),
                     "conflict/cursor-input-rewrite-conflict")


def test_a_cursor_rewriter_beside_one_that_only_answers_allow_conflicts_with_nothing(tmp_path):
    base = tmp_path / "p"
    a = cursor_script(base, "a.py", CURSOR_REWRITER)
    b = cursor_script(base, "b.py", 'import json\nprint(json.dumps({"permission": "allow"}))\n')
    assert not found(doctor(base, {".cursor/hooks.json": cursor_hooks((None, a), (None, b))}),
                     "conflict/cursor-input-rewrite-conflict")


def test_a_cursor_rewriter_for_every_tool_meets_one_for_mcp_tools_in_the_user_file(tmp_path, home):
    base = tmp_path / "p"
    a = cursor_script(base, "a.py", CURSOR_REWRITER)
    b = cursor_script(home, "b.py", CURSOR_REWRITER).replace(".cursor/", f"{home}/.cursor/")
    files = {".cursor/hooks.json": cursor_hooks((None, a)), str(home / ".cursor/hooks.json"): cursor_hooks(("MCP:.*", b))}
    (conflict,) = found(doctor(base, files, given=False), "conflict/cursor-input-rewrite-conflict")
    assert "of MCP tools" in conflict.message and "the higher-priority file wins (project over user)" in conflict.message


@pytest.mark.parametrize("host, race", [("cursor", "conflict/cursor-input-rewrite-conflict"),
                                         ("opencode", "conflict/plugin-args-race")])
def test_one_pack_in_two_scopes_of_cursor_or_opencode_runs_twice_and_does_not_race_with_itself(
        hookwright, home, project, host, race):
    for scope in ("user", "project"):
        ran = hookwright("install", "path-normalizer", "--host", host, "--scope", scope, "--project", project, "--yes")
        assert ran.code == 0, ran.err
    out = hookwright("doctor", "--project", project, "--json")
    assert race not in [f["rule"] for f in out.json["findings"]]
    (twice,) = [f for f in out.json["findings"] if f["rule"] == "conflict/pack-in-several-scopes"]
    title = {"cursor": "Cursor", "opencode": "opencode"}[host]
    assert f"{title} runs the hooks of every file it loads" in twice["message"] and "runs it twice" in twice["message"]
