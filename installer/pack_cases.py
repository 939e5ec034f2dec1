"""`hookwright pack test`: a pack's hooks on its test cases, in every agent it is made for, as
each agent would run them, before anything is installed where the user works.

For each agent the pack is installed, as `hookwright install` installs it, into a scratch
project under a scratch home (nothing of the user's is read or written), and each case is
`hookwright simulate` on that project for that agent: the agent's own payload, the runtime
between (Cursor, opencode), the answer read as the agent reads it. Cursor's answers are also
checked against Cursor's output schema (schemas/cursor-hook-output.schema.json). A case's
`expect` (schemas/pack-case.schema.json) is compared with each agent's outcome; a pack with no
cases is tried on one sample call per hook.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import hosts, resources, safe_read
from .errors import HookwrightError
from .packs import Pack
from .records import Record

CASES = "tests"  # the pack's folder of cases: tests/<case>.json
MOST_CASES = 200
CASE_BYTES = 1_000_000
RUN_TIMEOUT = 300.0  # seconds for one install or one simulate in the scratch home
SCRATCH_ENV = ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "CLAUDE_CONFIG_DIR",
               "CODEX_HOME")


class Case(Record):
    name: str
    body: dict[str, Any]


def read_cases(pack: Pack) -> list[Case]:
    """The pack's cases (tests/*.json, each checked against its schema), else one sample call
    per hook."""
    folder = pack.folder / CASES
    paths = sorted(folder.glob("*.json")) if folder.is_dir() and not folder.is_symlink() else []
    if len(paths) > MOST_CASES:
        raise HookwrightError(f"{folder} holds {len(paths)} cases: pack test reads at most {MOST_CASES}", path=folder)
    cases = []
    for path in paths:
        body = _read_case(path)
        cases.append(Case(path.stem, body))
    if cases:
        return cases
    from .commands.pack import sample_case

    words = hosts.DEFAULT  # (a case is a call in Claude Code's words, as simulate takes it)
    return [Case(f"{hook.id}-sample", sample_case(hook.id, hook.targets[words].event, hook.targets[words].matcher))
            for hook in pack.hooks if words in hook.targets]


def _read_case(path: Path) -> dict[str, Any]:
    if path.is_symlink() or not path.is_file():
        raise HookwrightError("a test case is not a regular file", path=path, hint="put the file itself in tests/")
    data = safe_read.read(path, safe_read.INPUT, prefix=CASE_BYTES + 1)
    if len(data) > CASE_BYTES:
        raise HookwrightError(f"a test case is larger than {CASE_BYTES} bytes", path=path)
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        line, column = (err.lineno, err.colno) if isinstance(err, json.JSONDecodeError) else (None, None)
        raise HookwrightError(f"a test case is not JSON: {err}", path=path, line=line, column=column) from None
    errors = resources.schema_errors("pack-case.schema.json", body)
    if errors:
        where = "/".join(str(p) for p in errors[0].instance_path) or "(top level)"
        raise HookwrightError(f"invalid test case at {where}: {errors[0].message}", path=path,
                              hint="see schemas/pack-case.schema.json")
    return body  # type: ignore[no-any-return]


def try_on(pack: Pack, host: str, cases: list[Case]) -> dict[str, Any]:
    """The pack installed for `host` in a scratch project, and each case simulated there."""
    with tempfile.TemporaryDirectory(prefix="hookwright-pack-test-") as scratch:
        root = Path(scratch)
        project = root / "project"
        project.mkdir()
        env = _scratch_env(root)
        installed = _hookwright(env, "install", str(pack.folder), "--host", host, "--scope", "project",
                                "--project", str(project), "--yes", "--json")
        if installed.get("exit_code") != 0:
            error = installed.get("error", {})
            return {"tested": False, "why": "install refused it: " + str(error.get("message") or installed),
                    "cases": []}
        return {"tested": True, "why": None, "cases": [_simulated(case, host, project, env, root) for case in cases]}


def _scratch_env(root: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in SCRATCH_ENV
           and not name.startswith(("HOOKWRIGHT_", "CLAUDE_"))}
    home = root / "home"
    env.update(HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state"),
               XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"),
               XDG_DATA_HOME=str(home / ".local" / "share"))
    return env


def _hookwright(env: dict[str, str], *args: str) -> dict[str, Any]:
    """One hookwright command in the scratch home, its JSON document."""
    try:
        done = subprocess.run([sys.executable, "-m", "hookwright", *args], env=env, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT, cwd=env["HOME"] if Path(env["HOME"]).is_dir() else None)
    except subprocess.TimeoutExpired:
        return {"exit_code": None, "error": {"message": f"hookwright {args[0]} ran longer than {RUN_TIMEOUT:g} s"}}
    try:
        doc: dict[str, Any] = json.loads(done.stdout)
        return doc
    except json.JSONDecodeError:
        return {"exit_code": done.returncode, "error": {"message": (done.stderr or done.stdout).strip()[:600]}}


def _simulated(case: Case, host: str, project: Path, env: dict[str, str], root: Path) -> dict[str, Any]:
    """One case simulated for one agent: what it would do, and whether that is what the case expects."""
    body = case.body
    args = ["simulate", body.get("event", "PreToolUse"), "--host", host, "--project", str(project), "--json"]
    if "tool_name" in body:
        args += ["--tool", body["tool_name"], "--input", json.dumps(body.get("tool_input", {}))]
    if "payload" in body:
        payload = root / f"{case.name}.payload.json"
        payload.write_text(json.dumps(body["payload"]), encoding="utf-8")
        args += ["--payload", str(payload)]
    doc = _hookwright(env, *args)
    row: dict[str, Any] = {"case": case.name, "description": body.get("description"), "expect": body.get("expect")}
    entry = next((e for e in doc.get("hosts", []) if e.get("host") == host), None)
    if entry is None:
        error = doc.get("error", {})
        return {**row, "simulated": False, "why": str(error.get("message") or "simulate gave no outcome"),
                "passed": None}
    row.update(simulated=bool(entry.get("simulated")), why=entry.get("why"), decision=entry.get("decision"),
               blocked=entry.get("blocked"), reason=entry.get("reason"), tool_input=entry.get("tool_input"),
               effect=entry.get("effect"))
    given = body.get("tool_input")
    row["rewritten_to"] = row["tool_input"] if row["simulated"] and not row["blocked"] and given is not None \
        and row["tool_input"] != given else None
    handlers = doc.get("handlers", []) if doc.get("host") == host else entry.get("handlers", [])
    schema = hosts.get(host).answer_schema
    row["schema_errors"] = answer_schema_errors(handlers, schema) if schema else []
    row["differs"] = _differences(body.get("expect"), row) if row["simulated"] else []
    row["passed"] = None if not row["simulated"] else not row["differs"] and not row["schema_errors"]
    return row


def answer_schema_errors(handlers: list[dict[str, Any]], schema_name: str) -> list[str]:
    """What of each hook's answer (exit 0, JSON on stdout) its event's schema refuses (the host's
    answer_schema: a schema per event under $defs)."""
    import jsonschema_rs

    whole = resources.schema(schema_name)
    found = []
    for handler in handlers:
        stdout = (handler.get("stdout") or "").strip()
        if handler.get("exit_code") != 0 or not stdout or handler.get("event") not in whole["$defs"]:
            continue
        try:
            answer = json.loads(stdout)
        except json.JSONDecodeError:
            found.append(f"{handler['event']}: stdout is not JSON: {stdout[:80]!r}")
            continue
        schema = {"$schema": whole["$schema"], "$defs": whole["$defs"], "$ref": f"#/$defs/{handler['event']}"}
        found += [f"{handler['event']}: {error.message}"
                  for error in jsonschema_rs.validator_for(schema).iter_errors(answer)]
    return found


def _differences(expect: dict[str, Any] | None, outcome: dict[str, Any]) -> list[str]:
    """What of `expect` the outcome does not do (an agent without `ask` that blocks where ask was
    expected is a difference: the case says what it means)."""
    differs = []
    for key, wanted in (expect or {}).items():
        got = outcome.get(key)
        if key == "reason_contains":
            if wanted not in (outcome.get("reason") or ""):
                differs.append(f"the reason {outcome.get('reason')!r} does not say {wanted!r}")
        elif key == "decision" and wanted in ("none", "allow") and got in ("none", "allow", None):
            continue  # (an agent tells a silent hook from an allowing one, or not: both let the call go on)
        elif got != wanted:
            differs.append(f"{key}: expected {json.dumps(wanted)}, got {json.dumps(got)}")
    return differs
