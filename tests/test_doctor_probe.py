"""`doctor --probe` (installer/doctor/probe.py): opt-in only; each foreign PreToolUse handler runs
once on a synthetic payload, in a temporary project and home, with a minimal environment and a
short timeout; what it printed is classified the way Claude Code reads it."""
from __future__ import annotations

import json
import os
import textwrap
import time
from pathlib import Path

import pytest
from doctor_support import doctor, found

from installer.doctor import discovery, load, probe
from installer.doctor.facts import BUILTIN_TOOLS
from installer.doctor.model import Context

S = ".claude/settings.json"


@pytest.mark.parametrize("stdout, stderr, code, outcome", [
    (b"", b"", 0, "nothing"),
    (b"  \n", b"", 0, "nothing"),
    (b"{}", b"", 0, "empty-object"),
    (b"checked 3 files\n", b"", 0, "text"),
    (b"{not json", b"", 0, "invalid"),
    (b"[1, 2]", b"", 0, "invalid"),
    (b"log: start\n{\"hookSpecificOutput\": {}}", b"", 0, "invalid"),  # must start with {
    (b'{"hookSpecificOutput": {"permissionDecision": "deny"}}', b"", 0, "invalid"),
    (b'{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}', b"", 0,
     "wrong-event"),
    (b'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "x"}}}', b"", 0,
     "rewrite"),
    (b'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}', b"", 0, "decision"),
    (b'{"decision": "block", "reason": "no"}', b"", 0, "decision"),
    (b'{"systemMessage": "hi"}', b"", 0, "other"),
    (b'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}', b"", 2, "decision"),
    (b"", b"Traceback ...\n", 1, "failed"),
])
def test_classify(stdout, stderr, code, outcome):
    assert probe.classify(stdout, stderr, code).outcome == outcome


def _project(tmp_path: Path, hooks: dict[str, str], groups: list, event: str = "PreToolUse") -> Path:
    base = tmp_path / "p"
    for name, text in hooks.items():
        path = base / ".claude" / "hooks" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
        path.chmod(0o755)
    settings = {"hooks": {event: [{"matcher": m, "hooks": [{"type": "command", "command": c} for c in cs]}
                                  for m, *cs in groups]}}
    (base / ".claude").mkdir(parents=True, exist_ok=True)
    (base / S).write_text(json.dumps(settings, indent=2))
    return base


def _ctx(base: Path, probe_on: bool = True) -> Context:
    files = [load.read(c) for c in discovery.given_candidates([base / S], base)]
    return Context(files, [h for f in files for h in load.handlers(f)], probe=probe_on, tools=list(BUILTIN_TOOLS),
                   project=base)


SPY = """
    #!/bin/sh
    cat > /dev/null
    {{ echo "cwd=$(pwd)"; env; }} > {out}
    echo '{{"hookSpecificOutput": {{"hookEventName": "PreToolUse", "updatedInput": {{"command": "x"}}}}}}'
"""


def test_runs_in_a_temporary_world_with_a_minimal_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "do-not-leak")
    spy = tmp_path / "spy.txt"
    base = _project(tmp_path, {"spy.sh": SPY.format(out=spy)}, [("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/spy.sh')])
    ((handler, result),) = probe.results_for(_ctx(base))
    assert result.outcome == "rewrite" and result.tool == "Bash"
    seen = dict(line.split("=", 1) for line in spy.read_text().splitlines() if "=" in line)
    names = set(seen) - {"cwd", "PWD", "SHLVL", "_", "OLDPWD"}
    assert names == {"PATH", "LANG", "HOME", "TMPDIR", "CLAUDE_PROJECT_DIR"}
    assert seen["cwd"] == seen["CLAUDE_PROJECT_DIR"] != str(base)  # a copy of the project, not the real one
    assert seen["HOME"] != os.environ["HOME"] and "hookwright-probe-" in seen["HOME"]
    assert not Path(seen["CLAUDE_PROJECT_DIR"]).exists()  # cleaned up


def test_a_hanging_hook_is_killed_with_its_children(tmp_path):
    pidfile = tmp_path / "child.pid"
    hang = f"""
        #!/bin/sh
        sleep 60 &
        echo $! > {pidfile}
        wait
    """
    base = _project(tmp_path, {"hang.sh": hang}, [("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hang.sh')])
    ctx = _ctx(base)
    started = time.monotonic()
    ((_, result),) = probe.results_for(ctx, timeout=1)
    assert result.outcome == "timeout" and time.monotonic() - started < 10
    child = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the hook's child process outlived the probe")


def test_never_run_without_probe(tmp_path):
    marker = tmp_path / "ran"
    base = _project(tmp_path, {}, [("Bash", f"touch {marker}")])
    assert probe.results_for(_ctx(base, probe_on=False)) == []
    doctor(base, {}, given=False)
    assert not marker.exists()
    doctor(base, {}, given=False, probe=True)
    assert marker.exists()


def test_only_foreign_pretooluse_handlers_each_command_once(tmp_path):
    ours = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude'
    base = _project(tmp_path, {}, [("Bash", "echo '{}'", ours), ("Edit", "echo '{}'"), ("NoSuchTool", "echo x")])
    ((handler, result),) = probe.results_for(_ctx(base))
    assert handler.command == "echo '{}'" and result.outcome == "empty-object"
    post = _project(tmp_path / "post", {}, [("Bash", "echo '{}'")], event="PostToolUse")
    assert probe.results_for(_ctx(post)) == []


def test_the_tool_is_one_the_matcher_matches(tmp_path):
    base = _project(tmp_path, {}, [("Write|Edit", "cat"), ("mcp__.*", "cat -")])
    ctx = _ctx(base)
    assert [t for _, t in probe.candidates(ctx)] == ["Write"]  # no MCP server configured: not probed
    ctx.mcp_servers = ["docs"]
    assert [t for _, t in probe.candidates(ctx)] == ["Write", "mcp__docs__probe"]


def test_results_are_computed_once_per_run(tmp_path):
    counter = tmp_path / "count"
    base = _project(tmp_path, {}, [("Bash", f"echo x >> {counter}")])
    ctx = _ctx(base)
    probe.results_for(ctx)
    probe.results_for(ctx)
    probe.by_handler(ctx)
    assert counter.read_text().count("x") == 1


def test_exec_form(tmp_path):
    base = _project(tmp_path, {"rw.py": """
        import json, sys
        json.load(sys.stdin)
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {}}}))
    """}, [])
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3", "args": ["${CLAUDE_PROJECT_DIR}/.claude/hooks/rw.py"]},
        {"type": "command", "command": "hookwright-no-such-program", "args": []}]}]}}
    (base / S).write_text(json.dumps(settings))
    results = [r.outcome for _, r in probe.results_for(_ctx(base))]
    assert results == ["rewrite", "failed"]


# ---- the probe rules, and what the conflict check makes of a probe ---------------------------------

@pytest.mark.parametrize("rule, bad, good", [
    ("script/probe-invalid-output", "echo '{not json'", "echo '{}'"),
    ("script/probe-wrong-event",
     """echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}'""",
     """echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'"""),
    ("script/probe-timeout", "sleep 30", "true"),
])
def test_probe_rules(tmp_path, monkeypatch, rule, bad, good):
    monkeypatch.setattr(probe, "TIMEOUT", 1.0)
    out = doctor(tmp_path / "bad", {S: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": bad}]}]}}}, probe=True)
    (finding,) = found(out, rule)
    assert finding.path == str(tmp_path / "bad" / S) and finding.line == 9  # the command
    quiet = doctor(tmp_path / "good", {S: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": good}]}]}}}, probe=True)
    assert not [f for f in quiet.findings if f.rule.startswith("script/probe")]
    unprobed = doctor(tmp_path / "bad", {}, probe=False)
    assert not found(unprobed, rule)


def test_a_probed_rewrite_turns_the_warning_into_the_error(tmp_path):
    base = _project(tmp_path, {"rw.py": """
        import json, sys
        json.load(sys.stdin)
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {}}}))
    """}, [])
    # hidden.sh hands over to another program with exec: statically its output is unknown
    hidden = base / ".claude/hooks/hidden.sh"
    hidden.write_text('#!/bin/sh\nexec python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rw.py\n')
    hidden.chmod(0o755)
    settings = {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/rw.py'}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hidden.sh'}]},
    ]}}
    (base / S).write_text(json.dumps(settings))
    plain = doctor(base, {}, given=False)
    assert [f.rule for f in plain.findings if "race" in f.rule] == ["conflict/input-rewrite-race-possible"]
    probed = doctor(base, {}, given=False, probe=True)
    (race,) = [f for f in probed.findings if "race" in f.rule]
    assert race.rule == "conflict/input-rewrite-race" and "`hidden.sh`" in race.message


def test_hooks_are_probed_side_by_side_as_claude_code_runs_them(tmp_path):
    """Each hook waits for the other to have started: run one after the other, both time out."""
    meet = tmp_path / "meet"
    meet.mkdir()
    hook = """
        #!/bin/sh
        touch {meet}/{me}
        for i in $(seq 1 200); do [ -e {meet}/{other} ] && {{ echo '{{}}'; exit 0; }}; sleep 0.05; done
        exit 1
    """
    base = _project(tmp_path, {"a.sh": hook.format(meet=meet, me="a", other="b"),
                               "b.sh": hook.format(meet=meet, me="b", other="a")},
                    [("Bash", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh'),
                     ("Edit", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/b.sh')])
    assert [r.outcome for _, r in probe.results_for(_ctx(base), timeout=20)] == ["empty-object", "empty-object"]


def test_a_hook_gets_its_own_timeout_when_shorter_and_the_message_says_which_limit_stopped_it(tmp_path, monkeypatch):
    monkeypatch.setattr(probe, "TIMEOUT", 3.0)
    hooks = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "sleep 30", "timeout": 1},
        {"type": "command", "command": "sleep 31"}]}]}}
    out = doctor(tmp_path / "p", {S: hooks}, probe=True)
    own, default = found(out, "script/probe-timeout")
    assert "within 1 s" in own.message and "stopped at its own timeout" in own.message
    assert "within 3 s" in default.message and "its own timeout, 600 s, is longer" in default.message
    assert "waits up to 600 s" in default.hint
