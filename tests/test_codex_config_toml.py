"""Codex's `[hooks]` in a config.toml: read by doctor and list like a hooks.json, its findings at
the TOML text's line and column, a config.toml Codex would not start with said as such, and the
trust step a finding prints working as printed (docs/hosts/codex.md#config-files, measured on
0.171.0: tests/e2e/test_codex_config_toml_e2e.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomllib
from doctor_support import doctor, found, rule_ids
from hookwright.hosts.codex import trust
from hookwright.hosts.codex.toml_places import Place, places

AOT = '''model = "gpt-5"

[[hooks.PreToolUse]]
matcher = "{matcher}"
[[hooks.PreToolUse.hooks]]
type = "command"
command = "python3 .codex/guard.py"
timeout = {timeout}
'''
INLINE = '''[hooks]
PostToolUse = [
  {{ matcher = "{matcher}", hooks = [{{ type = "command", command = "echo hi" }}] }},
]
'''


def same_shape(place: Place, data: object) -> None:
    if isinstance(data, dict):
        assert place.kind == "object" and [key for key, _, _ in place.members] == list(data)
        for key, _, value in place.members:
            same_shape(value, data[key])
    elif isinstance(data, list):
        assert place.kind == "array" and len(place.items) == len(data)
        for item, value in zip(place.items, data):
            same_shape(item, value)
    else:
        assert place.kind == "scalar"


TEXTS = [
    AOT.format(matcher="Bash", timeout=5),
    INLINE.format(matcher="Bash"),
    '# c\n[projects."/a b/c"]\ntrust_level = "trusted" # x\n[hooks.state."/p/config.toml:stop:0:0"]\n'
    'trusted_hash = "sha256:00"\n',
    'a.b."c.d" = [1, [2, "]"], { e = \'}\' }]\ns = """x\n"y"""""\nt = \'\'\'\n[z]\'\'\'\n[[x.y]]\n[[x.y]]\nk.l = 1\n',
]


@pytest.mark.parametrize("text", TEXTS)
def test_the_places_of_a_toml_text_are_the_tree_tomllib_reads(text):
    same_shape(places(text), tomllib.loads(text))


def test_a_value_is_placed_where_its_text_starts_and_an_array_table_where_its_header_is():
    text = AOT.format(matcher="Bash", timeout=5)
    tree = places(text)
    group = tree.child("hooks").child("PreToolUse").child(0)
    assert text[group.start:].startswith("[[hooks.PreToolUse]]")
    assert text[group.child("hooks").child(0).child("timeout").start:].startswith("5\n")


def codex_project(tmp_path: Path, home: Path, files: dict[str, str]) -> Path:
    """A git project that the user's config.toml trusts, with these files."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    config = home / ".codex" / "config.toml"
    config.write_text(f'[projects.{json.dumps(str(repo))}]\ntrust_level = "trusted"\n' + files.pop("user", ""))
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    return repo


@pytest.mark.parametrize("scope", ["user", ".codex/config.toml"])
def test_a_matcher_of_the_models_tool_name_in_config_toml_is_found_at_its_line_and_its_twin_is_quiet(
        tmp_path, home, scope):
    bad = codex_project(tmp_path / "bad", home, {scope: INLINE.format(matcher="exec_command")})
    outcome = doctor(bad, {}, given=False)
    [hit] = found(outcome, "matcher/tool-renamed")
    assert hit.path.endswith("config.toml") and (hit.line, hit.column) == (3 + 2 * (scope == "user"), 15)
    good = codex_project(tmp_path / "good", home, {scope: INLINE.format(matcher="Bash")})
    assert "matcher/tool-renamed" not in rule_ids(doctor(good, {}, given=False))


def test_a_wrong_type_in_hooks_of_config_toml_is_codex_not_starting_at_the_value_and_its_twin_is_quiet(
        tmp_path, home):
    repo = codex_project(tmp_path / "bad", home, {".codex/config.toml": AOT.format(matcher="Bash", timeout='"ten"')})
    [hit] = found(doctor(repo, {}, given=False), "host/file-dropped")
    assert (hit.line, hit.column) == (8, 11) and "does not start with this file" in hit.message
    good = codex_project(tmp_path / "good", home, {".codex/config.toml": AOT.format(matcher="Bash", timeout=10)})
    assert "host/file-dropped" not in rule_ids(doctor(good, {}, given=False))


def test_a_config_toml_that_is_not_toml_is_said_at_its_line_and_column_with_exit_2(tmp_path, home, hookwright):
    repo = codex_project(tmp_path, home, {".codex/config.toml": '[hooks\nStop = []\n'})
    ran = hookwright("doctor", "--project", repo, "--json")
    [hit] = [f for f in ran.json["findings"] if f["rule"] == "structure/invalid-json"]
    assert (hit["line"], hit["column"]) == (1, 7) and "does not start with this file" in hit["message"]
    assert ran.code == 2
    (repo / ".codex" / "config.toml").write_text("[hooks]\nStop = []\n")
    assert "structure/invalid-json" not in [f["rule"] for f in hookwright("doctor", "--project", repo, "--json").json["findings"]]


def test_list_shows_the_hooks_of_a_config_toml(tmp_path, home, hookwright):
    repo = codex_project(tmp_path, home, {".codex/config.toml": AOT.format(matcher="Bash", timeout=5)})
    rows = hookwright("list", "--project", repo, "--host", "codex", "--json").json["hooks"]
    assert [(row["event"], row["source"]["path"]) for row in rows] == [
        ("PreToolUse", str(repo / ".codex" / "config.toml"))]


SKIPPED_RULES = ("host/hook-untrusted", "host/hook-not-yet-trusted")


def untrusted_hint(hookwright, repo: Path) -> str:
    """The hint of the one hook Codex skips until it is trusted (one it asks about: not yet trusted)."""
    [hit] = [f for f in hookwright("doctor", "--project", repo, "--json").json["findings"] if f["rule"] in SKIPPED_RULES]
    return hit["hint"]


def skips_none(hookwright, repo: Path) -> bool:
    return not any(rule in hookwright("doctor", "--project", repo, "--json").out for rule in SKIPPED_RULES)


def follow(hint: str, config: Path) -> None:
    """Do what a hint that adds lines says, as a person would: the lines at the end of the file."""
    assert f"add these lines at the end of {config}:\n" in hint
    config.write_text(config.read_text() + hint.split(":\n", 1)[1] + "\n")


def test_the_trust_step_of_an_untrusted_hook_works_as_printed_for_an_untrusted_project_too(tmp_path, home, hookwright):
    repo = codex_project(tmp_path, home, {".codex/config.toml": AOT.format(matcher="Bash", timeout=5)})
    config = home / ".codex" / "config.toml"
    config.write_text('model = "gpt-5"\n')  # (nothing trusted: the project, then the hook)
    follow(untrusted_hint(hookwright, repo), config)
    assert skips_none(hookwright, repo)
    tomllib.loads(config.read_text())


def test_a_stale_hash_is_set_where_it_is_not_added_as_a_second_table(tmp_path, home, hookwright):
    repo = codex_project(tmp_path, home, {".codex/config.toml": AOT.format(matcher="Bash", timeout=5)})
    config = home / ".codex" / "config.toml"
    key = f"{repo}/.codex/config.toml:pre_tool_use:0:0"
    config.write_text(config.read_text() + trust.toml_lines([], {key: "sha256:old"}) + "\n")
    hint = untrusted_hint(hookwright, repo)
    [hook] = trust.hooks_of(str(repo / ".codex" / "config.toml"), tomllib.loads((repo / ".codex" / "config.toml").read_text()))
    assert hint == (f"read the hook, then answer that question, or in {config}, set trusted_hash = \"{hook.hash}\" "
                    f"in [hooks.state.\"{key}\"]")
    config.write_text(config.read_text().replace("sha256:old", hook.hash))
    assert skips_none(hookwright, repo)


HOOKS_JSON = json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}})


@pytest.mark.parametrize("key", ["hooks", "codex_hooks"])
def test_hooks_switched_off_in_the_users_config_is_said_at_the_switch_and_a_projects_true_over_it_is_quiet(
        tmp_path, home, key):
    bad = codex_project(tmp_path / "bad", home, {"user": f"[features]\n{key} = false\n", ".codex/hooks.json": HOOKS_JSON})
    [hit] = found(doctor(bad, {}, given=False), "host/hooks-switched-off")
    assert (hit.path, hit.line) == (str(home / ".codex" / "config.toml"), 4) and ".codex/hooks.json" in hit.message
    good = codex_project(tmp_path / "good", home, {"user": f"[features]\n{key} = false\n", ".codex/hooks.json": HOOKS_JSON,
                                                    ".codex/config.toml": "[features]\nhooks = true\n"})
    assert "host/hooks-switched-off" not in rule_ids(doctor(good, {}, given=False))


def test_a_projects_switch_turns_off_the_users_hooks_too_and_is_said_in_the_project(tmp_path, home):
    repo = codex_project(tmp_path, home, {"user": INLINE.format(matcher="Bash"), ".codex/config.toml": "[features]\nhooks = false\n"})
    [hit] = found(doctor(repo, {}, given=False), "host/hooks-switched-off")
    assert hit.path == str(repo / ".codex" / "config.toml") and str(home / ".codex" / "config.toml") in hit.message


@pytest.mark.parametrize("raw, says", [(b"a = " + b"[" * 50000 + b"]" * 50000 + b"\n", "nested deeper"),
                                       (b'x = "\xff"\n', "utf-8")], ids=["deep", "not-utf-8"])
def test_a_hostile_config_toml_is_said_with_exit_2_and_never_an_internal_error(tmp_path, home, hookwright, raw, says):
    repo = codex_project(tmp_path, home, {})
    (repo / ".codex").mkdir()
    (repo / ".codex" / "config.toml").write_bytes(raw)
    ran = hookwright("doctor", "--project", repo, "--json")
    [hit] = [f for f in ran.json["findings"] if f["rule"] == "structure/invalid-json"]
    assert ran.code == 2 and says in hit["message"].lower() and "Codex CLI does not start" in hit["message"]
