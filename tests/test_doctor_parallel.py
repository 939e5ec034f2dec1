"""Doctor over many projects shares them out between processes (installer/doctor/parallel.py):
the report must be the same, finding for finding and in the same order, whatever the number of
workers, and a worker that dies must not cost a finding."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hookwright.doctor import parallel, run
from support import SHARED

SETTINGS = SHARED / "corpus" / "claude-settings"


@pytest.fixture
def projects(tmp_path, home) -> list[Path]:
    """Two copies of 60 corpus projects (the same hooks in several projects: pairs that must
    stay inside one project), each file as its project's .claude/settings.json."""
    if not SETTINGS.is_dir():
        pytest.skip(f"needs ../shared/corpus ({SETTINGS})")
    paths = []
    for copy in range(2):
        for n, source in enumerate(sorted(SETTINGS.glob("*.json"))[:60]):
            target = tmp_path / f"copy{copy}" / f"p{n:02d}" / ".claude" / "settings.json"
            target.parent.mkdir(parents=True)
            shutil.copyfile(source, target)
            paths.append(target)
    return paths


def _report(paths: list[Path], project: Path, monkeypatch, workers: int) -> list[dict]:
    monkeypatch.setenv("HOOKWRIGHT_WORKERS", str(workers))
    return [f.to_json() for f in run.run(paths, project=project, machine=True).findings]


def test_the_report_is_the_same_whatever_the_number_of_workers(projects, tmp_path, monkeypatch):
    ctx = run.context(projects, project=tmp_path)
    monkeypatch.setenv("HOOKWRIGHT_WORKERS", "3")
    assert parallel.workers(ctx) == 3
    alone = _report(projects, tmp_path, monkeypatch, 1)
    assert len(alone) > 200
    assert _report(projects, tmp_path, monkeypatch, 2) == alone
    assert _report(projects, tmp_path, monkeypatch, 3) == alone


def test_a_worker_that_dies_leaves_its_share_to_the_main_process(projects, tmp_path, monkeypatch):
    alone = _report(projects, tmp_path, monkeypatch, 1)
    main = os.getpid()
    checked = run._checked

    def dies_in_a_worker(ctx, checks):
        if os.getpid() != main:
            os._exit(3)
        return checked(ctx, checks)

    monkeypatch.setattr(run, "_checked", dies_in_a_worker)
    assert _report(projects, tmp_path, monkeypatch, 2) == alone


def test_files_every_session_loads_are_never_shared_out(projects, tmp_path, home, monkeypatch):
    """A user's settings pair with every project's: one process sees them all."""
    user = home / ".claude" / "settings.json"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo user"}]}]}}))
    monkeypatch.setenv("HOOKWRIGHT_WORKERS", "2")
    ctx = run.context([user, *projects], project=tmp_path)
    assert parallel.workers(ctx) == 1


def test_without_a_pinned_number_only_a_big_run_is_shared_out(projects, tmp_path, monkeypatch):
    monkeypatch.delenv("HOOKWRIGHT_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    ctx = run.context(projects, project=tmp_path)
    assert len(ctx.handlers) < parallel.MIN_HANDLERS
    assert parallel.workers(ctx) == 1
    monkeypatch.setattr(parallel, "MIN_HANDLERS", len(ctx.handlers))
    assert parallel.workers(ctx) == 4


def test_what_several_projects_share_is_found_once_whatever_the_number_of_workers(tmp_path, home, monkeypatch):
    """(found by review) A script three projects run is one script with one finding, and the
    rewriting hooks of two projects race in one report as in the other: the checks that weigh
    files together see the whole run."""
    shared = tmp_path / "shared" / "hook.py"
    shared.parent.mkdir()
    shared.write_text('import json, sys\njson.load(sys.stdin)\nprint(json.dumps({"updatedInput": {"command": "ls"}}))\n')
    paths = []
    for name in ("p1", "p2", "p3"):
        rewriter = tmp_path / name / "rw.py"
        rewriter.parent.mkdir()
        rewriter.write_text('import json, sys\ndata = json.load(sys.stdin)\nprint(json.dumps({"hookSpecificOutput": '
                            '{"hookEventName": "PreToolUse", "permissionDecision": "allow", '
                            '"updatedInput": data["tool_input"]}}))\n')
        settings = tmp_path / name / ".claude" / "settings.json"
        settings.parent.mkdir()
        settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": f"python3 {shared}"},
            {"type": "command", "command": f"python3 {rewriter}"}]}]}}))
        paths.append(settings)
    alone = _report(paths, tmp_path, monkeypatch, 1)
    assert sum(f["path"] == str(shared) for f in alone) >= 1
    assert _report(paths, tmp_path, monkeypatch, 2) == alone
    assert _report(paths, tmp_path, monkeypatch, 3) == alone



def test_a_setting_the_runs_files_merge_and_a_kill_switch_read_the_same_whatever_the_number_of_workers(
        tmp_path, home, monkeypatch):
    """structure's rules are shared out by project, the kill switches' (scopes.py) are not: httpHookAllowedEnvVars
    merges over the run's files, so one project's list still limits another project's hook in
    a worker that holds only that other project; `disableAllHooks` is read over the whole run."""
    contents = {
        "p1": {"httpHookAllowedEnvVars": ["TOKEN"]},
        "p2": {"hooks": {"Notification": [{"hooks": [{"type": "http", "url": "http://localhost:8080/n",
                                                      "headers": {"X-Key": "$KEY"}, "allowedEnvVars": ["KEY"]}]}]}},
        "p3": {"disableAllHooks": True, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}},
    }
    paths = []
    for name, data in contents.items():
        settings = tmp_path / name / ".claude" / "settings.json"
        settings.parent.mkdir(parents=True)
        settings.write_text(json.dumps(data))
        paths.append(settings)
    alone = _report(paths, tmp_path, monkeypatch, 1)
    assert {"structure/http-header-variable-not-in-settings", "structure/hooks-disabled"} <= {f["rule"] for f in alone}
    assert _report(paths, tmp_path, monkeypatch, 2) == alone
    assert _report(paths, tmp_path, monkeypatch, 3) == alone

def test_what_the_handlers_run_is_worked_out_before_the_workers_start(projects, tmp_path, monkeypatch):
    """The workers' command check and this process's script checks both need it: worked out
    once, here, and inherited by the forked workers."""
    from hookwright.doctor import handler_facts

    ctx = run.context(projects, project=tmp_path)
    monkeypatch.setenv("HOOKWRIGHT_WORKERS", "2")
    known_when_shared_out = []

    def shared_out(ctx, count, run_share, run_whole):
        cached = [handler_facts._RESOLVED.get(id(h)) for h in ctx.handlers]
        known_when_shared_out.extend(h for h, c in zip(ctx.handlers, cached) if c is not None and c[0]() is h)
        return []

    monkeypatch.setattr(parallel, "findings", shared_out)
    run.findings(ctx)
    assert len(known_when_shared_out) == len(ctx.handlers) > 100


def test_each_share_is_taken_once_from_the_queue():
    """The workers and the main process take the shares' numbers from one pipe: each number
    once, whoever reads it, until the pipe is empty."""
    class Part:
        def __init__(self, name: str) -> None:
            self.name, self.truncated = name, {name} if name == "c" else set()

    parts = [Part(name) for name in "abcde"]
    queue = parallel._queue(len(parts))
    assert queue is not None
    assert os.read(queue, 1) == b"\x00"  # (another process took the first share)
    mine = parallel._taken(lambda part: [part.name], parts, queue)
    assert parallel._taken(lambda part: [part.name], parts, queue) == {}
    os.close(queue)
    assert mine == {1: (["b"], set()), 2: (["c"], {"c"}), 3: (["d"], set()), 4: (["e"], set())}
