"""Eight hookwright processes and a host, all writing one settings.local.json at once.

Each worker is a process of its own, forked from the test with hookwright imported, that runs
the command line's main once per step; the host is the test process itself.

Each worker owns a pack and installs and uninstalls it, round after round; meanwhile a
process that behaves like Claude Code saving permission approvals adds rules to the same
file through its own atomic read-modify-write (it does not know our lock). At the end every
pack that was left installed is there exactly once, every removed pack is gone, every rule
the host added is still there, no run crashed, and every refused run exited 3 saying why.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import time
from pathlib import Path

import filelock  # noqa: F401  (imported before the forks, as everything a worker runs)
import platformdirs  # noqa: F401
import pytest
from hookwright import atomic
from hookwright.cli import main  # (imported once, before the forks)
from hookwright.hosts.codex import trust
from support import forked, write_json

pytestmark = pytest.mark.slow  # (eight installers at once, three times over)

WORKERS = 8
ROUNDS = 3
HOST_WRITES = 30  # at least; the host goes on writing, one write per PACE_S, until the last worker ends
PACE_S = 0.25  # (every 50 ms starved the last installers on a slower disk: each write they make
# between reading the file and replacing it, backup and journal synced, took longer than the host's pause)
PASS_THROUGH_MODULE = "NAME, OPTIONS = 'race', {}\n\n\ndef handle(call):\n    return None\n"  # the hook's module


def make_packs(folder: Path) -> list[str]:
    names = []
    for i in range(WORKERS):
        name = f"race-{i}"
        (folder / name).mkdir(parents=True)
        (folder / name / "pack.toml").write_text(
            f'name = "{name}"\nversion = "1.0.0"\ndescription = "Concurrency test pack {i}."\n\n'
            f'[[hooks]]\nid = "{name}"\nscript = "{name}"\ndescription = "Observes Tool{i}."\n'
            f'rewrites_input = false\nblocks = false\n\n[hooks.claude]\nevent = "PreToolUse"\n'
            f'matcher = "Tool{i}"\ntimeout = 5\n\n[hooks.cursor]\nevent = "preToolUse"\nmatcher = "Tool{i}"\n'
            f'timeout = 5\n\n[hooks.opencode]\nevent = "tool.execute.before"\ntools = "tool{i}"\ntimeout = 5\n\n'
            f'[hooks.codex]\nevent = "PreToolUse"\nmatcher = "Tool{i}"\ntimeout = 5\n')
        (folder / name / (name.replace("-", "_") + ".py")).write_text(PASS_THROUGH_MODULE)
        names.append(name)
    return names


def worker(env: dict, project: Path, pack: str, installs_last: bool, where: tuple, log: Path) -> None:
    """In a process of its own: its pack installed and uninstalled round after round, each run
    through the command line's main, in-process (forked with hookwright imported: no interpreter
    start per run), each run's (pack, step, exit code, stderr) a line in `log`."""
    os.environ.clear()
    os.environ.update(env)
    scope = (*where, "--project", str(project), "--yes")
    steps = ["install", "uninstall"] * ROUNDS + (["install"] if installs_last else [])
    with open(log, "w", encoding="utf-8") as out:
        for step in steps:
            while True:  # a refused run (exit 3) is retried: the final state must be the one we asked for
                said = io.StringIO()
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(said):
                    try:
                        main([step, pack, *scope])
                        code = 0
                    except SystemExit as done:
                        code = int(done.code or 0)
                out.write(json.dumps([pack, step, code, said.getvalue()]) + "\n")
                out.flush()
                if code != 3:
                    break


def host(settings: Path, written: list[str], k: int) -> None:
    """Claude Code saving an approval: read, add a rule, write back atomically; retry if it changed."""
    rule = f"Bash(echo host-{k})"
    while True:
        raw = settings.read_bytes()
        data = json.loads(raw)
        data.setdefault("permissions", {}).setdefault("allow", []).append(rule)
        try:
            atomic.write_bytes(settings, (json.dumps(data, indent=2) + "\n").encode(), expect=raw)
            break
        except atomic.ConcurrentChange:
            continue
    written.append(rule)


def edit_json(path: Path, change) -> None:
    """Someone else's edit of a JSON file: read, `change(data)`, write back atomically; again if
    the file changed meanwhile (our lock unknown to them)."""
    while True:
        raw = path.read_bytes()
        data = json.loads(raw)
        change(data)
        try:
            atomic.write_bytes(path, (json.dumps(data, indent=2) + "\n").encode(), expect=raw)
            return
        except atomic.ConcurrentChange:
            continue


def race(tmp_path: Path, project: Path, where: tuple, meanwhile) -> tuple[list[str], list]:
    """WORKERS installers (each its own pack and process, the even ones ending installed) and, in
    this process, `meanwhile(k)` for k = 0, 1, ... (at least HOST_WRITES times) for as long as any
    of them runs; returns the packs and each run's (pack, step, exit code, stderr)."""
    packs = make_packs(tmp_path / "packs")
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"),
               HOOKWRIGHT_PACKS_PATH=str(tmp_path / "packs"))
    logs = [tmp_path / f"{pack}.log" for pack in packs]
    pids = [forked(lambda i=i, pack=pack: worker(env, project, pack, i % 2 == 0, where, logs[i]))
            for i, pack in enumerate(packs)]
    statuses: dict[int, int] = {}
    k, deadline = 0, time.monotonic() + 300
    while (len(statuses) < len(pids) or k < HOST_WRITES) and time.monotonic() < deadline:
        meanwhile(k)
        k += 1
        time.sleep(PACE_S)
        for pid in set(pids) - set(statuses):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                statuses[pid] = os.waitstatus_to_exitcode(status)
    for pid in set(pids) - set(statuses):  # (past the deadline: a worker hangs)
        os.kill(pid, signal.SIGKILL)
        statuses[pid] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    statuses = [statuses[pid] for pid in pids]
    assert statuses == [0] * WORKERS, statuses
    return packs, [tuple(json.loads(line)) for log in logs for line in log.read_text(encoding="utf-8").splitlines()]


def test_eight_installers_and_the_host_writing_at_once_lose_nothing(tmp_path):
    project = tmp_path / "project"
    settings = project / ".claude" / "settings.local.json"
    foreign = {"model": "opus", "permissions": {"allow": ["Read"]},
               "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}
    write_json(settings, foreign)
    host_rules: list[str] = []
    packs, outcomes = race(tmp_path, project, ("--scope", "local"), lambda k: host(settings, host_rules, k))

    data = json.loads(settings.read_bytes())
    crashed = [(p, s, c, e) for p, s, c, e in outcomes if c not in (0, 3)]
    refused = [e for *_, c, e in outcomes if c == 3]
    assert not crashed, crashed
    assert all(any(word in e for word in ("changed", "changing", "lock")) for e in refused), refused
    commands = [h["command"] for g in data["hooks"].get("PreToolUse", []) for h in g["hooks"]]
    for i, pack in enumerate(packs):
        expected = 1 if i % 2 == 0 else 0
        assert sum(f"hookwright-local/{pack}/{pack}" in c for c in commands) == expected, pack
    assert data["model"] == "opus"
    assert data["hooks"]["Stop"] == foreign["hooks"]["Stop"]
    assert data["permissions"]["allow"] == ["Read", *host_rules] and len(host_rules) >= HOST_WRITES
    assert list(settings.parent.glob(f"*{atomic.TEMP_MARK}*")) == []
    runs = len(outcomes)
    assert runs >= WORKERS * ROUNDS * 2


def test_eight_installers_into_one_cursor_file_while_someone_edits_it_lose_nothing(tmp_path):
    """The same race on Cursor's hooks.json, edited meanwhile by hand (or another tool)."""
    project = tmp_path / "project"
    hooks = project / ".cursor" / "hooks.json"
    write_json(hooks, {"version": 1, "hooks": {"stop": [{"command": "say done"}]}})
    edits: list[str] = []

    def editor(k):
        edit_json(hooks, lambda data: data["hooks"].setdefault("afterFileEdit", []).append({"command": f"echo edit-{k}"}))
        edits.append(f"echo edit-{k}")

    packs, outcomes = race(tmp_path, project, ("--host", "cursor", "--scope", "project"), editor)

    data = json.loads(hooks.read_bytes())
    assert not [o for o in outcomes if o[2] not in (0, 3)], outcomes
    commands = [e["command"] for e in data["hooks"].get("preToolUse", [])]
    for i, pack in enumerate(packs):
        assert sum(f"hookwright/{pack}/{pack}" in c for c in commands) == (1 if i % 2 == 0 else 0), pack
    assert data["hooks"]["stop"] == [{"command": "say done"}]
    assert [e["command"] for e in data["hooks"]["afterFileEdit"]] == edits and len(edits) >= HOST_WRITES


def test_eight_installers_trusting_their_codex_hooks_while_codex_writes_its_trust_lose_nothing(tmp_path):
    """Codex: eight installers into one project's .codex/hooks.json, each with --trust-hooks (so
    each also writes the user's config.toml, and re-trusts the hooks its change moves: a trust key
    is a hook's place), while Codex writes trust of its own into config.toml (as its app-server's
    config/batchWrite does) and someone adds hooks of their own to hooks.json. At the end every
    hook of ours in the file is trusted at its place, and every line Codex wrote is still there."""
    project = tmp_path / "project"
    hooks = project / ".codex" / "hooks.json"
    write_json(hooks, {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}})
    config = tmp_path / "home" / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('# mine\nmodel = "o4"\n')
    codex_keys: list[str] = []
    edits: list[str] = []

    def codex_and_someone(k):
        """One write in four turns: Codex's trust, then someone's hook (each a read, a change and
        an atomic write, retried where the file changed meanwhile; our lock unknown to them)."""
        if k % 2:
            return
        if k % 4 == 0:
            codex_trusts(k)
        else:
            someone_adds(k)

    def codex_trusts(k):
        key = f"/elsewhere/.codex/hooks.json:stop:0:{k}"
        while True:
            raw = config.read_bytes()
            more = f'\n[hooks.state."{key}"]\ntrusted_hash = "sha256:{k:064x}"\n'.encode()
            try:
                atomic.write_bytes(config, raw + more, expect=raw)
                break
            except atomic.ConcurrentChange:
                continue
        codex_keys.append(key)

    def someone_adds(k):
        edit_json(hooks, lambda data: data["hooks"]["Stop"][0]["hooks"].append({"type": "command",
                                                                               "command": f"echo edit-{k}"}))
        edits.append(f"echo edit-{k}")

    packs, outcomes = race(tmp_path, project, ("--host", "codex", "--scope", "project", "--trust-hooks"),
                           codex_and_someone)

    assert not [o for o in outcomes if o[2] not in (0, 3)], outcomes
    data = json.loads(hooks.read_bytes())
    commands = [h["command"] for g in data["hooks"].get("PreToolUse", []) for h in g["hooks"]]
    for i, pack in enumerate(packs):
        assert sum(f"hookwright/{pack}/{pack}" in c for c in commands) == (1 if i % 2 == 0 else 0), pack
    assert [h["command"] for h in data["hooks"]["Stop"][0]["hooks"]] == ["say done", *edits]
    store = trust.store_from(config, trust.parse_toml(config.read_bytes(), config))
    ours = [h for h in trust.hooks_of(str(hooks.resolve()), data) if "hookwright/race-" in h.command]
    assert len(ours) == WORKERS // 2 and all(store.state_of(h) == trust.TRUSTED for h in ours), ours
    states = trust.parse_toml(config.read_bytes(), config)["hooks"]["state"]
    assert all(key in states for key in codex_keys) and len(codex_keys) >= HOST_WRITES // 4
    assert config.read_text().startswith('# mine\nmodel = "o4"\n')
    assert list(hooks.parent.glob(f"*{atomic.TEMP_MARK}*")) == [] == list(config.parent.glob(f"*{atomic.TEMP_MARK}*"))


def test_eight_installers_into_one_opencode_plugins_folder_lose_nothing(tmp_path):
    """opencode: each pack is a file of its own, all in one folder, and the runtimes share one
    folder that the last uninstall removes; meanwhile someone adds plugins of their own there."""
    project = tmp_path / "project"
    plugins = project / ".opencode" / "plugins"
    plugins.mkdir(parents=True)
    (plugins / "theirs.js").write_text("export const Theirs = async () => ({})\n")

    mine: list[str] = []

    def someone(k):
        atomic.write_bytes(plugins / f"mine-{k}.js", f"export const Mine{k} = async () => ({{}})\n".encode())
        mine.append(f"mine-{k}.js")

    packs, outcomes = race(tmp_path, project, ("--host", "opencode", "--scope", "project"), someone)

    assert not [o for o in outcomes if o[2] not in (0, 3)], outcomes
    for i, pack in enumerate(packs):
        installed = i % 2 == 0
        assert (plugins / f"hookwright-{pack}.js").is_file() == installed, pack
        assert (project / ".opencode" / "hookwright" / pack / pack).is_file() == installed, pack
    assert (plugins / "theirs.js").read_text() == "export const Theirs = async () => ({})\n"
    assert sorted(p.name for p in plugins.glob("mine-*.js")) == sorted(mine) and len(mine) >= HOST_WRITES
    assert list(plugins.glob(f"*{atomic.TEMP_MARK}*")) == []


def test_one_pack_installed_by_several_runs_at_once_ends_installed_once_and_every_run_exits_0(tmp_path, monkeypatch):
    """The runs that come second find the work done: nothing to write, exit 0 (not 3, "the
    change is no longer the one planned": what they were asked for holds)."""
    project = tmp_path / "project"
    settings = project / ".claude" / "settings.json"
    write_json(settings, {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}})
    env = dict(os.environ, HOME=str(tmp_path / "home"), XDG_STATE_HOME=str(tmp_path / "state"))

    def install(log: Path) -> None:
        os.environ.clear()
        os.environ.update(env)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                main(["install", "git-guard", "--project", str(project), "--yes"])
                code = 0
            except SystemExit as done:
                code = int(done.code or 0)
        log.write_text(str(code))

    for round_ in range(3):
        logs = [tmp_path / f"run-{round_}-{i}.log" for i in range(WORKERS)]
        pids = [forked(lambda log=log: install(log)) for log in logs]
        assert [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids] == [0] * WORKERS
        assert [log.read_text() for log in logs] == ["0"] * WORKERS, round_
        groups = json.loads(settings.read_bytes())["hooks"]["PreToolUse"]
        assert len(groups) == 1 and len(groups[0]["hooks"]) == 1
        for name in ("HOME", "XDG_STATE_HOME"):
            monkeypatch.setenv(name, env[name])
        with contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit) as done:
            main(["uninstall", "git-guard", "--project", str(project), "--yes"])
        assert done.value.code in (0, None)
