"""Every command's --json document validates against its schema in schemas/, on real output.

Each test runs the CLI in-process in a temporary home (the `home` fixture) and validates what it
printed with jsonschema (draft 2020-12, formats not checked). The documents share
result.schema.json's definitions (a plan, an entry, an operation, the error document): the
schemas refer to each other by their $id, resolved here from schemas/ itself. A strict
schema must also reject the same document with one unknown field more, or another `schema`
version, so that an output that drifts from its schema fails here.
"""
from __future__ import annotations

import inspect
import json
import sys
from functools import cache
from pathlib import Path

import jsonschema
import pytest
from hookwright import resources
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from support import write_json
from test_plan_findings import at, project_rewriter

SCHEMAS = resources.data_root() / "schemas"
SHARED_SCHEMAS = ("result.schema.json", "error.schema.json")  # the hookwright/1 definitions every document uses

# Which schemas cover what each command prints (its error document included).
COMMAND_SCHEMAS = {
    "install": ["result.schema.json", "error.schema.json"],
    "update": ["result.schema.json", "error.schema.json"],
    "uninstall": ["result.schema.json", "error.schema.json"],
    "rollback": ["result.schema.json", "rollback-list.schema.json", "error.schema.json"],
    "render": ["render.schema.json", "error.schema.json"],
    "packs": ["packs.schema.json", "error.schema.json"],
    "list": ["list.schema.json", "error.schema.json"],
    "status": ["status.schema.json", "error.schema.json"],
    "doctor": ["doctor.schema.json", "doctor-explain.schema.json", "error.schema.json"],
    "simulate": ["simulate.schema.json", "error.schema.json"],
    "log": ["log.schema.json", "error.schema.json"],
    "prefs set": ["prefs.schema.json", "error.schema.json"],
    "prefs unset": ["prefs.schema.json", "error.schema.json"],
    "prefs list": ["prefs.schema.json", "error.schema.json"],
    "pack new": ["pack-new.schema.json", "error.schema.json"],
    "pack test": ["pack-test.schema.json", "error.schema.json"],
}
# the schemas of files, not of a command's output (a pack's manifest)
FILE_SCHEMAS = {"pack.schema.json", "pack-case.schema.json"}
# doctor's report and simulate's document are not closed (no additionalProperties: false at the top)
NOT_STRICT = {"doctor.schema.json", "simulate.schema.json"}


@cache
def schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


@cache
def registry() -> Registry:
    """Every schema of schemas/ by its $id, so that `result.schema.json#/$defs/plan` resolves."""
    found = [schema(path.name) for path in sorted(SCHEMAS.glob("*.schema.json"))]
    return Registry().with_resources(
        (s["$id"], Resource.from_contents(s, default_specification=DRAFT202012)) for s in found)


@cache
def validator(name: str) -> jsonschema.Draft202012Validator:
    jsonschema.Draft202012Validator.check_schema(schema(name))
    return jsonschema.Draft202012Validator(schema(name), registry=registry())  # no format_checker: formats unchecked


def errors(name: str, doc) -> list[str]:
    found = sorted(validator(name).iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:300]}" for e in found]


def validate(name: str, doc: dict) -> dict:
    """`doc` validates against schemas/<name>; a strict schema rejects it with a field more or
    another version."""
    assert errors(name, doc) == [], json.dumps(doc, indent=1)[:3000]
    if name not in NOT_STRICT:
        assert not validator(name).is_valid(dict(doc, unexpected_field=True)), f"{name} is not closed"
    assert not validator(name).is_valid(dict(doc, schema=doc["schema"] + "-drifted")), f"{name} does not pin the version"
    return doc


def ok(ran) -> None:
    assert ran.code == 0, ran.out + ran.err


def ran_json(ran, code: int = 0) -> dict:
    """The one document a run printed, with the exit code it says (the process's)."""
    assert ran.code == code, ran.out + ran.err
    doc = json.loads(ran.out)
    said = doc["summary"]["exit_code"] if doc.get("schema") == "hookwright-doctor/1" else doc["exit_code"]
    assert said == ran.code
    return doc


@pytest.fixture(autouse=True)
def _in_the_project(project, monkeypatch):
    monkeypatch.chdir(project)  # (the commands that default to cwd never look at the repo)


def some_project_hooks(project: Path) -> None:
    """Foreign hooks of several types, one with a timeout in milliseconds (a doctor finding)."""
    write_json(project / ".claude" / "settings.json", {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true", "timeout": 5000,
                                                      "if": "Bash(git *)"},
                                                     {"type": "http", "url": "http://127.0.0.1:9/"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}})
    write_json(project / ".cursor" / "hooks.json", {"version": 1, "hooks": {"beforeShellExecution": [{"command": "true"}]}})


# ---- install / uninstall / rollback: result.schema.json ------------------------------------------------

def test_install_dry_run_json_validates_against_the_result_schema(hookwright, home):
    doc = validate("result.schema.json", ran_json(hookwright("install", "git-guard", "--dry-run", "--json")))
    assert doc["status"] == "dry-run" and doc["operation"] is None and doc["plans"][0]["added"]


def test_update_json_validates_against_the_result_schema_with_where_the_pack_came_from(hookwright, home, tmp_path):
    from test_command_packs import make_pack

    pack = make_pack(tmp_path / "mine")
    assert hookwright("install", str(pack), "--yes").code == 0
    (pack / "pack.toml").write_text((pack / "pack.toml").read_text().replace('"1.0.0"', '"1.0.1"'))

    doc = validate("result.schema.json", ran_json(hookwright("update", "--yes", "--json")))

    assert doc["command"] == "update" and doc["operation"]["kind"] == "update"
    assert doc["plans"][0]["packs"][0]["source_to"] == str(pack)


def test_install_yes_json_validates_against_the_result_schema_applied_then_unchanged(hookwright, home):
    applied = validate("result.schema.json", ran_json(hookwright("install", "git-guard", "--yes", "--json")))
    again = validate("result.schema.json", ran_json(hookwright("install", "git-guard", "--yes", "--json")))
    assert (applied["status"], again["status"]) == ("applied", "unchanged")
    assert applied["operation"]["kind"] == "install" and again["operation"] is None


def test_install_without_consent_and_a_refused_conflict_validate_against_the_result_schema(hookwright, home,
                                                                                            project):
    project_rewriter(project)  # path-normalizer beside it is an input-rewrite race: an error the plan introduces
    asked = validate("result.schema.json", ran_json(hookwright("install", "path-normalizer", *at(project), "--json"),
                                                    code=3))
    refused = validate("result.schema.json", ran_json(
        hookwright("install", "path-normalizer", *at(project), "--yes", "--json"), code=3))
    assert (asked["status"], refused["status"]) == ("needs-confirmation", "refused")
    assert any(f["change"] == "introduced" for f in refused["plans"][0]["findings"])


def test_a_declined_change_validates_against_the_result_schema(home, capsys):
    """Declined needs a person who says no on a terminal, which --json never asks: printed here
    through the same print_result as the CLI, from the command's own result."""
    from hookwright import output
    from hookwright.commands.install import install
    from hookwright.hosts.base import Scope
    from hookwright.planning.apply import Consent

    result = install(["git-guard"], host="claude", scope=Scope.user, project=None, options=[], adopt=False,
                     dry_run=False, consent=Consent(ask=lambda *_: False))
    capsys.readouterr()
    output.print_result(result, True)
    doc = validate("result.schema.json", json.loads(capsys.readouterr().out))
    assert doc["status"] == "declined" and doc["exit_code"] == 3


def test_uninstall_yes_json_validates_against_the_result_schema(hookwright, home):
    ok(hookwright("install", "git-guard", "--yes"))
    dry = validate("result.schema.json", ran_json(hookwright("uninstall", "git-guard", "--dry-run", "--json")))
    done = validate("result.schema.json", ran_json(hookwright("uninstall", "git-guard", "--yes", "--json")))
    assert (dry["status"], done["status"]) == ("dry-run", "applied")
    assert done["operation"]["kind"] == "uninstall" and done["plans"][0]["removed"]


def test_rollback_yes_json_validates_against_the_result_schema(hookwright, home):
    ok(hookwright("install", "git-guard", "--yes"))
    dry = validate("result.schema.json", ran_json(hookwright("rollback", "--scope", "user", "--dry-run", "--json")))
    done = validate("result.schema.json", ran_json(hookwright("rollback", "--scope", "user", "--yes", "--json")))
    assert (dry["status"], done["status"]) == ("dry-run", "applied")
    assert done["operation"]["kind"] == "rollback" and done["operation"]["undoes"]


def test_rollback_list_json_validates_against_its_schema(hookwright, home):
    empty = validate("rollback-list.schema.json", ran_json(hookwright("rollback", "--list", "--json")))
    ok(hookwright("install", "git-guard", "--yes"))
    ok(hookwright("rollback", "--scope", "user", "--yes"))
    listed = validate("rollback-list.schema.json", ran_json(hookwright("rollback", "--list", "--json")))
    validate("result.schema.json", listed)  # which covers rollback's documents, this one too
    assert empty["journal"] == []
    assert [(row["kind"], row["undone"]) for row in listed["journal"]] == [("install", True), ("rollback", False)]


@pytest.mark.parametrize("args", [["uninstall", "--yes", "--json"], ["uninstall", "git-guard", "--yes", "--json"],
                                  ["rollback", "--yes", "--json"]])
def test_nothing_to_do_is_exit_0_and_a_result_document_that_says_why(hookwright, home, args):
    doc = validate("result.schema.json", ran_json(hookwright(*args)))
    assert (doc["status"], doc["exit_code"], doc["plans"]) == ("unchanged", 0, [])
    assert doc["notes"][0].startswith("nothing to do: ")


# ---- the other commands ---------------------------------------------------------------------------------

def test_log_json_validates_against_its_schema_with_a_deny_a_rewrite_and_an_error(hookwright, home, project,
                                                                                  monkeypatch):
    empty = validate("log.schema.json", ran_json(hookwright("log", "--project", project, "--json")))
    state = home / ".local" / "state" / "hookwright"
    state.mkdir(parents=True)
    lines = [{"time": "2026-12-04T10:00:00.000", "pack": "git-guard", "hook": "git-guard", "host": "claude",
              "event": "PreToolUse", "tool": "Bash", "decision": "deny", "reason": "no", "project": str(project),
              "session": "s"},
             {"time": "2026-12-04T10:00:01.000", "pack": "path-normalizer", "hook": "path-normalizer",
              "host": "claude", "event": "PreToolUse", "tool": "mcp__fs__read", "decision": "rewrite", "reason": None,
              "project": str(project / "src"), "session": "s", "changed": {"path": ["a", "/p/a"]}},
             {"time": "2026-12-04T10:00:02.000", "pack": "git-guard", "hook": "git-guard", "host": "claude",
              "event": None, "tool": None, "decision": "error", "reason": "cannot load", "project": "/elsewhere",
              "session": None, "blocked": False}]
    (state / "decisions.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines) + "{cut sh")
    listed = validate("log.schema.json", ran_json(hookwright("log", "--project", project, "--json")))
    every = validate("log.schema.json", ran_json(hookwright("log", "--all", "--decision", "error", "--json")))
    assert empty["entries"] == [] and empty["files"] == []
    assert [e["decision"] for e in listed["entries"]] == ["rewrite", "deny"]  # newest first, this project's
    assert listed["skipped"] == 1 and listed["project"] == str(project.resolve())
    assert [e["project"] for e in every["entries"]] == ["/elsewhere"] and every["project"] is None


def test_render_json_validates_against_its_schema(hookwright, home, project):
    for host in ("claude", "cursor", "opencode"):
        doc = validate("render.schema.json", ran_json(hookwright("render", "git-guard", "--host", host, "--json")))
        assert doc["content"] and doc["entries"] and doc["runtime_files"], host
    ok(hookwright("install", "git-guard", "--yes"))
    installed = validate("render.schema.json", ran_json(hookwright("render", "git-guard", "--host", "claude", "--json")))
    assert installed["entries"] == [] and installed["runtime_files"] == []


def test_packs_json_validates_against_its_schema(hookwright, home):
    every = validate("packs.schema.json", ran_json(hookwright("packs", "--json")))
    cursor = validate("packs.schema.json", ran_json(hookwright("packs", "--host", "cursor", "--json")))
    assert "host" not in every and cursor["host"] == "cursor"
    assert {p["name"] for p in every["packs"]} == {p["name"] for p in cursor["packs"]} | set(cursor["not_for_host"])


def test_list_json_validates_against_its_schema(hookwright, home, project):
    empty = validate("list.schema.json", ran_json(hookwright("list", "--project", project, "--json")))
    assert empty["hooks"] == []
    ok(hookwright("install", "git-guard", "--yes"))
    some_project_hooks(project)
    full = validate("list.schema.json", ran_json(hookwright("list", "--project", project, "--json")))
    assert {row["owner"] for row in full["hooks"]} == {"git-guard", "foreign"}
    assert {row["host"] for row in full["hooks"]} == {"claude", "cursor"}
    (project / ".claude" / "settings.local.json").write_text("{not json")
    unreadable = validate("list.schema.json", ran_json(hookwright("list", "--project", project, "--json"), code=2))
    assert [f["readable"] for f in unreadable["files"] if f["path"].endswith("settings.local.json")] == [False]


def test_status_json_validates_against_its_schema_whole_with_a_problem_and_with_an_unreadable_config(hookwright, home, project):
    empty = validate("status.schema.json", ran_json(hookwright("status", "--project", project, "--json")))
    ok(hookwright("install", "git-guard", "--project", project, "--yes"))
    whole = validate("status.schema.json", ran_json(hookwright("status", "--project", project, "--json")))
    (project / ".claude" / "hookwright" / "git-guard" / "git-guard").unlink()
    broken = validate("status.schema.json", ran_json(hookwright("status", "--project", project, "--json"), code=1))
    (project / ".cursor").mkdir()
    (project / ".cursor" / "hooks.json").write_text("{,}")
    unreadable = validate("status.schema.json", ran_json(hookwright("status", "--project", project, "--json"), code=2))

    assert empty["installs"] == [] and whole["installs"][0]["problems"] == []
    assert broken["installs"][0]["problems"][0]["rule"] == "install/runtime-missing"
    assert unreadable["unreadable"][0]["path"] == str(project / ".cursor" / "hooks.json")


def test_doctor_format_json_validates_against_its_schema(hookwright, home, project):
    some_project_hooks(project)
    doc = validate("doctor.schema.json", ran_json(hookwright("doctor", "--project", project, "--format", "json")))
    same = validate("doctor.schema.json", ran_json(hookwright("doctor", "--project", project, "--json")))
    assert "structure/timeout-milliseconds" in {f["rule"] for f in doc["findings"]}
    assert same["findings"] == doc["findings"]


def test_doctor_explain_json_validates_against_its_schema(hookwright, home):
    for fmt in ("json", "sarif"):  # (--format sarif prints this JSON document too)
        doc = validate("doctor-explain.schema.json", ran_json(
            hookwright("doctor", "--explain", "structure/timeout-milliseconds", "--format", fmt)))
        assert doc["rule"]["id"] == "structure/timeout-milliseconds" and doc["format"] == fmt


def test_doctor_explain_without_a_rule_lists_every_rule_and_validates_against_its_schema(hookwright, home):
    doc = validate("doctor-explain.schema.json", ran_json(hookwright("doctor", "--explain", "--json")))

    assert len(doc["rules"]) > 100 and "rule" not in doc


def test_simulate_list_only_json_validates_against_its_schema(hookwright, home, project):
    some_project_hooks(project)
    doc = validate("simulate.schema.json", ran_json(
        hookwright("simulate", "--list-only", "--command", "ls", "--project", project, "--json")))
    assert doc["ran"] is False and doc["status"] == "listed" and len(doc["handlers"]) == 2


def test_prefs_set_json_validates_against_its_schema(hookwright, home, project):
    applied = validate("prefs.schema.json", ran_json(hookwright("prefs", "set", "deploy", "never-ask", "--json")))
    dry = validate("prefs.schema.json", ran_json(
        hookwright("prefs", "set", "deploy", "one-way", "--project", project, "--dry-run", "--json")))
    same = validate("prefs.schema.json", ran_json(hookwright("prefs", "set", "deploy", "never-ask", "--json")))
    assert (applied["status"], dry["status"], same["status"]) == ("applied", "dry-run", "unchanged")
    assert "diff" not in same


def test_prefs_unset_json_validates_against_its_schema(hookwright, home):
    ok(hookwright("prefs", "set", "deploy", "never-ask"))
    applied = validate("prefs.schema.json", ran_json(hookwright("prefs", "unset", "deploy", "--json")))
    same = validate("prefs.schema.json", ran_json(hookwright("prefs", "unset", "deploy", "--json")))
    assert (applied["status"], same["status"]) == ("applied", "unchanged")


def test_prefs_list_json_validates_against_its_schema(hookwright, home, project):
    empty = validate("prefs.schema.json", ran_json(hookwright("prefs", "list", "--project", project, "--json")))
    ok(hookwright("prefs", "set", "deploy", "never-ask"))
    ok(hookwright("prefs", "set", "deploy", "always-ask", "--project", project))
    ok(hookwright("prefs", "set", "deploy", "two-way", "--project", project))
    listed = validate("prefs.schema.json", ran_json(hookwright("prefs", "list", "--project", project, "--json")))
    assert empty["preferences"] == []
    assert {(r["kind"], r["value"], r["overrides"]) for r in listed["preferences"]} == {
        ("question", "always-ask", "user"), ("door", "two-way", None)}


def test_pack_new_json_validates_against_its_schema(hookwright, home, project, tmp_path):
    from test_command_packs import FIXTURE

    made = validate("pack-new.schema.json", ran_json(hookwright("pack", "new", "mine", "--into", tmp_path, "--json")))
    converted = validate("pack-new.schema.json", ran_json(hookwright(
        "pack", "new", "theirs", "--from", FIXTURE / ".claude" / "settings.json", "--into", tmp_path, "--json")))
    assert (made["source"], converted["files"][0]) == (None, {"name": "guard.py", "from": str(
        FIXTURE / ".claude" / "hooks" / "guard.py")})


def test_pack_test_json_validates_against_its_schema(hookwright, home, project, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ok(hookwright("pack", "new", "mine"))
    passed = validate("pack-test.schema.json", ran_json(hookwright("pack", "test", "./mine", "--host", "cursor",
                                                                   "--json")))
    write_json(tmp_path / "mine" / "tests" / "wrong.json", {"tool_name": "Bash", "tool_input": {"command": "ls"},
                                                             "expect": {"blocked": True}})
    failed = validate("pack-test.schema.json", ran_json(hookwright("pack", "test", "./mine", "--host", "claude",
                                                                   "--json"), code=1))
    assert [c["passed"] for c in passed["hosts"][0]["cases"]] == [True, True]
    assert [c["passed"] for c in failed["hosts"][0]["cases"]] == [True, True, False]


# ---- the error document ---------------------------------------------------------------------------------

def _invalid_prefs_file(home: Path, project: Path) -> None:
    write_json(home / ".config" / "hookwright" / "ask-guard.json", {"version": 2})


def _installed_for_you(home: Path, project: Path) -> None:
    from hookwright.cli import main

    with pytest.raises(SystemExit) as done:
        main(["install", "git-guard", "--scope", "user", "--yes"])
    assert done.value.code == 0


ERRORS = [  # (id, arguments, the command's own schema if it covers its errors too, setup)
    ("install-unknown-pack", ["install", "no-such-pack", "--yes", "--json"], "result.schema.json", None),
    ("uninstall-unknown-host", ["uninstall", "--host", "nope", "--yes", "--json"], "result.schema.json", None),
    ("update-rev-without-a-pack", ["update", "--rev", "v1", "--yes", "--json"], "result.schema.json", None),
    ("rollback-unknown-operation", ["rollback", "--to", "20200101-000000.000000-abcd", "--scope", "user", "--yes",
                                    "--json"], "result.schema.json", _installed_for_you),
    ("render-unknown-pack", ["render", "no-such-pack", "--host", "claude", "--json"], "render.schema.json", None),
    ("log-unknown-decision", ["log", "--decision", "blocked", "--json"], "log.schema.json", None),
    ("packs-unknown-host", ["packs", "--host", "nope", "--json"], "packs.schema.json", None),
    ("list-unknown-host", ["list", "--host", "nope", "--json"], "list.schema.json", None),
    ("status-missing-project", ["status", "--project", "/no/such/folder", "--json"], "status.schema.json", None),
    ("doctor-unknown-rule", ["doctor", "--explain", "nope", "--format", "json"], "doctor-explain.schema.json", None),
    ("doctor-unknown-host", ["doctor", "--host", "nope", "--format", "json"], None, None),
    ("simulate-unknown-host", ["simulate", "--host", "nope", "--command", "ls", "--json"], None, None),
    ("prefs-set-bad-value", ["prefs", "set", "deploy", "sometimes", "--json"], "prefs.schema.json", None),
    ("prefs-unset-bad-id", ["prefs", "unset", "not an id", "--json"], "prefs.schema.json", None),
    ("prefs-list-invalid-file", ["prefs", "list", "--json"], "prefs.schema.json", _invalid_prefs_file),
    ("pack-new-bad-name", ["pack", "new", "Not_A_Name", "--json"], "pack-new.schema.json", None),
    ("pack-test-no-pack-here", ["pack", "test", "./no-such-folder", "--json"], "pack-test.schema.json", None),
]


@pytest.mark.parametrize("args, own_schema, setup", [pytest.param(*rest, id=name) for name, *rest in ERRORS])
def test_an_error_json_validates_against_the_error_schema(hookwright, home, project, args, own_schema, setup):
    if setup:
        setup(home, project)
    ran = hookwright(*args)
    assert ran.code in (2, 3), ran.out + ran.err
    doc = validate("error.schema.json", ran_json(ran, code=ran.code))
    assert doc["error"]["exit_code"] == doc["exit_code"] == ran.code
    if own_schema:
        validate(own_schema, doc)


def test_every_command_is_covered_by_an_error_case():
    covered = {" ".join(args[:2]) if args[0] in ("prefs", "pack") else args[0] for _, args, _, _ in ERRORS}
    assert covered == set(COMMAND_SCHEMAS)


# ---- the schemas themselves -----------------------------------------------------------------------------

def _cli_commands() -> set[str]:
    """Every command the CLI has, a group's as "group sub" (prefs set...)."""
    from hookwright import cli

    def walk(group, prefix: str) -> set[str]:
        found = set()
        for name, command in group.commands.items():
            sub = getattr(command, "commands", None)
            found |= walk(command, f"{prefix}{name} ") if sub is not None else {prefix + name}
        return found

    return walk(cli._command(), "")


def _tests_naming(name: str) -> list[str]:
    module = sys.modules[__name__]
    return [fn for fn, obj in vars(module).items() if fn.startswith("test_") and callable(obj)
            and f'"{name}"' in inspect.getsource(obj)]


def test_every_command_has_its_schemas_and_no_command_schema_is_an_orphan():
    commands = _cli_commands()
    assert set(COMMAND_SCHEMAS) == commands  # a new command needs its schema here
    top = {command.split()[0] for command in commands}
    command_schemas = {path.name for path in SCHEMAS.glob("*.schema.json")
                       if path.name.removesuffix(".schema.json").split("-")[0] in top} - FILE_SCHEMAS | set(SHARED_SCHEMAS)
    mapped = {name for names in COMMAND_SCHEMAS.values() for name in names}
    assert command_schemas == mapped
    for name in sorted(command_schemas):
        assert (SCHEMAS / name).is_file(), name
        assert _tests_naming(name), f"no test here validates a document against {name}"


@pytest.mark.parametrize("name", sorted(path.name for path in SCHEMAS.glob("*.schema.json")))
def test_every_schema_is_a_valid_2020_12_schema_with_its_id_and_a_title(name):
    found = schema(name)
    jsonschema.Draft202012Validator.check_schema(found)
    assert found["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert found["$id"] == f"https://hookwright.dev/schemas/{name}"
    assert found.get("title")


def test_every_reference_between_the_schemas_resolves():
    def refs(node):
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                yield node["$ref"]
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    for names in COMMAND_SCHEMAS.values():
        for name in names:
            resolver = registry().resolver(base_uri=schema(name)["$id"])
            for ref in refs(schema(name)):
                assert resolver.lookup(ref).contents is not None, (name, ref)


def test_the_error_schema_rejects_an_error_without_its_hint_or_with_a_field_more():
    doc = {"schema": "hookwright/1", "hookwright_version": "0", "exit_code": 2,
           "error": {"message": "m", "exit_code": 2, "path": None, "line": None, "column": None, "hint": None,
                     "detail": None}}
    assert errors("error.schema.json", doc) == []
    assert not validator("error.schema.json").is_valid(dict(doc, error={k: v for k, v in doc["error"].items()
                                                                        if k != "hint"}))
    assert not validator("error.schema.json").is_valid(dict(doc, error=dict(doc["error"], where="x")))
