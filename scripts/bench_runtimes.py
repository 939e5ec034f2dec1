#!/usr/bin/env python3
"""Benchmark the bundled hook runtimes against the bare interpreter floor.

Every script any pack declares (templates/packs/*/pack.toml) is laid out as the installer
lays it (the script, the pack's modules and the runtime library in one folder) and run N
times as Claude Code runs it, `python3 -I -S <script> --host claude`, on a typical payload
for it. Right before or after each run (the order is shuffled), the floor
`python3 -I -S -c 'import json,sys; json.load(sys.stdin)'` reads the same payload. The
table gives the median wall time of each and its ratio to the floor's median (CPU time, user
plus system, is shown too: it shakes less when other work shares the machine); the target
(DESIGN.md, Performance targets) is at most 1.25x. Exit 1 when a runtime is over the target,
or failed (non-zero exit or output on stderr), so this works as a check.

The byte-code cache is warmed first (a few untimed runs), as it is after a hook's first
call on a user's machine.

    python3 scripts/bench_runtimes.py [--runs 30] [--target 1.25] [--python PATH] [--only NAME]

With --opencode, it also measures what hookwright's opencode plugin adds to one tool call in
the real opencode (scripts/setup-e2e.sh installs it): the same project, with git-guard's
plugin in its plugins folder and without, runs alternating, each run 20 bash calls; a call's
time is from the model's request that asks for it to the request that carries its result.
The added milliseconds are set beside the runtime's own cost (its spawn, as the plugin does it).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
TEMPLATES = REPO / "templates"
FLOOR_CODE = "import json,sys; json.load(sys.stdin)"
WARMUP = 3
DENY_LABEL = "git-guard (deny)"
TARGET = 1.25

QUESTION = {"question": "Use tabs or spaces for this file? <qid:indent-style>",
            "header": "Indentation", "multiSelect": False,
            "options": [{"label": "Tabs (recommended)", "description": "as the rest of the repo"},
                        {"label": "Spaces", "description": "4 spaces"}]}


def common(project: Path, event: str, tool: str, tool_input: dict) -> dict:
    return {"session_id": "0b6a1c1e-6f7e-4c1a-9a55-3f1f2d3c4b5a",
            "transcript_path": str(project / "transcript.jsonl"), "cwd": str(project),
            "prompt_id": "p-1", "permission_mode": "default", "effort": "medium",
            "hook_event_name": event, "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_01ABCDEFGHJKMNPQRSTVWXYZ"}


def typical_payload(script: str, event: str, project: Path) -> dict:
    """What the hook sees on an ordinary call: the common case, not the edge case."""
    if script == "git-guard":
        return common(project, "PreToolUse", "Bash",
                      {"command": "git status", "description": "Show working tree status"})
    if script == "path-normalizer":
        payload = common(project, "PreToolUse", "mcp__docs__read_doc", {"path": "notes/a.txt", "mode": "r"})
        payload["mcp_server"] = "docs"
        return payload
    if script == "question-preference":
        return common(project, "PreToolUse", "AskUserQuestion", {"questions": [QUESTION]})
    if script == "question-log":
        payload = common(project, "PostToolUse", "AskUserQuestion", {"questions": [QUESTION]})
        payload["tool_response"] = {"questions": [QUESTION], "answers": {QUESTION["question"]: "Spaces"}}
        return payload
    if script == "ask-error-fallback":
        payload = common(project, "PostToolUseFailure", "AskUserQuestion", {"questions": [QUESTION]})
        payload.update(error="Tool result missing due to internal error", is_interrupt=False, duration_ms=12)
        return payload
    return common(project, event, "Bash", {"command": "ls", "description": "List files"})


def discover(only: list[str]) -> list[tuple[str, str, str]]:
    """(pack, script, event) for every runtime script of every bundled pack."""
    found = []
    for manifest in sorted(TEMPLATES.glob("packs/*/pack.toml")):
        pack = tomllib.loads(manifest.read_text(encoding="utf-8"))
        for hook in pack.get("hooks", []):
            name = hook["script"]
            if (not only or name in only or manifest.parent.name in only) and \
                    name not in [s for _, s, _ in found]:
                found.append((manifest.parent.name, name, hook.get("claude", {}).get("event", "PreToolUse")))
    return found


def lay_out(root: Path, pack: str) -> Path:
    """The pack's runtime folder as the installer writes it (packs.Pack.runtime_files)."""
    from hookwright.packs import load_pack

    folder = root / ".claude" / "hookwright" / pack
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in load_pack(pack).runtime_files("claude").items():
        (folder / name).write_bytes(data)
    return folder


def run_once(command: list[str], stdin: bytes, env: dict, cwd: Path) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall time, CPU time (user + system) and the result of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, input=stdin, capture_output=True, env=env, cwd=cwd)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="timed runs of each (default 30)")
    parser.add_argument("--target", type=float, default=TARGET, help="max ratio to the floor (default 1.25)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter to run (default: the one running this script)")
    parser.add_argument("--only", action="append", default=[], help="a pack or script name (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the shuffled run order")
    parser.add_argument("--opencode", action="store_true", help="also time a tool call in the real opencode")
    parser.add_argument("--opencode-runs", type=int, default=4, help="opencode runs with and without the plugin")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    runtimes = discover(args.only)
    if not runtimes:
        parser.error("no runtime scripts found" + (f" for {args.only}" if args.only else ""))

    with tempfile.TemporaryDirectory(prefix="hw-bench-") as tmp:
        root = Path(tmp)
        project = root / "project"
        project.mkdir()
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("XDG_", "HOOKWRIGHT_", "PYTHON"))}
        env.update({"HOME": str(root / "home"), "XDG_CONFIG_HOME": str(root / "config"),
                    "XDG_STATE_HOME": str(root / "state"), "XDG_CACHE_HOME": str(root / "cache"),
                    "HOOKWRIGHT_LOG": str(root / "hooks.log"), "CLAUDE_PROJECT_DIR": str(project)})
        cases = {}  # label -> (command, stdin)
        labels = []  # the runtimes' rows: each script on its typical payload, and git-guard denying
        for pack, script, event in runtimes:
            folder = lay_out(project, pack)
            payloads = {script: typical_payload(script, event, project)}
            if script == "git-guard":  # a deny writes a line of the decision log: its cost is timed too
                payloads[DENY_LABEL] = common(project, "PreToolUse", "Bash",
                                              {"command": "git reset --hard", "description": "Discard changes"})
            for label, payload in payloads.items():
                stdin = json.dumps(payload).encode()
                cases[label] = ([args.python, "-I", "-S", str(folder / script), "--host", "claude"], stdin)
                cases[label + " floor"] = ([args.python, "-I", "-S", "-c", FLOOR_CODE], stdin)
                labels.append(label)

        failures = []
        for label, (command, stdin) in cases.items():
            for _ in range(WARMUP):
                _, _, proc = run_once(command, stdin, env, project)
            if proc.returncode != 0 or proc.stderr:
                failures.append(f"{label}: exit {proc.returncode}, stderr {proc.stderr.decode(errors='replace')!r}")

        wall = {label: [] for label in cases}
        cpu = {label: [] for label in cases}
        shuffle = random.Random(args.seed)
        scripts = list(labels)
        for _ in range(args.runs):
            shuffle.shuffle(scripts)
            for script in scripts:  # each runtime next to its floor, in either order
                pair = [script, script + " floor"]
                shuffle.shuffle(pair)
                for label in pair:
                    command, stdin = cases[label]
                    elapsed, used, _ = run_once(command, stdin, env, project)
                    wall[label].append(elapsed)
                    cpu[label].append(used)
        log = (root / "hooks.log").read_text(errors="replace") if (root / "hooks.log").exists() else ""
        decided = (root / "decisions.jsonl").read_text(errors="replace").count("\n") \
            if (root / "decisions.jsonl").exists() else 0

    print(f"python: {args.python} ({sys.version.split()[0] if args.python == sys.executable else 'see --python'}), "
          f"{args.runs} timed runs each, interleaved; target <= {args.target:.2f}x the floor")
    print(f"{'runtime':<22} {'median ms':>10} {'floor ms':>9} {'ratio':>7}   {'cpu ms':>7} {'floor':>6} {'ratio':>6}"
          "  verdict (wall ratio)")
    over = []
    for script in labels:
        median = statistics.median(wall[script]) * 1000
        floor = statistics.median(wall[script + " floor"]) * 1000
        cpu_median = statistics.median(cpu[script]) * 1000
        cpu_floor = statistics.median(cpu[script + " floor"]) * 1000
        ratio = median / floor
        verdict = "ok" if ratio <= args.target else "OVER"
        if ratio > args.target:
            over.append(script)
        cpu_ratio = f"{cpu_median / cpu_floor:>5.2f}x" if cpu_floor else "    -"
        print(f"{script:<22} {median:>10.1f} {floor:>9.1f} {ratio:>6.2f}x   {cpu_median:>7.1f} {cpu_floor:>6.1f} "
              f"{cpu_ratio}  {verdict}")
    for failure in failures:
        print(f"FAILED {failure}")
    print(f"decisions.jsonl: {decided} lines (one per deny and rewrite run)")
    if log:
        print("hooks.log (a typical payload should log nothing):\n  " + "\n  ".join(log.splitlines()[:10]))
    if args.opencode:
        opencode_latency(args.opencode_runs)
    return 1 if over or failures else 0


CALLS = 20  # bash calls per opencode run


def opencode_latency(runs: int) -> None:
    sys.path.insert(0, str(REPO / "tests" / "e2e"))
    from opencode_cli import OPENCODE, run_opencode

    if not OPENCODE.exists():
        print(f"opencode: {OPENCODE} is not there; run scripts/setup-e2e.sh")
        return
    with tempfile.TemporaryDirectory(prefix="hw-bench-oc-") as tmp:
        root = Path(tmp)
        project, home = root / "project", root / "home"
        project.mkdir()
        env = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "HOOKWRIGHT_"))}
        env.update(HOME=str(home), PYTHONPATH=str(REPO))
        subprocess.run([sys.executable, "-m", "hookwright", "install", "git-guard", "--host", "opencode", "--scope",
                        "project", "--project", str(project), "--yes"], env=env, check=True, capture_output=True)
        plugin = project / ".opencode" / "plugins" / "hookwright-git-guard.js"
        parked = root / "hookwright-git-guard.js.off"
        turns = [{"tool": "bash", "input": {"command": "true", "description": f"call {n}"}} for n in range(CALLS)] + ["done"]
        per_call: dict[str, list[float]] = {"with the plugin": [], "without": []}
        order = ["with the plugin", "without"] * runs
        random.Random(0).shuffle(order)
        for label in ["without", "with the plugin", *order]:  # the first two warm the caches, untimed
            (parked.rename(plugin) if label == "with the plugin" else plugin.rename(parked)) \
                if (label == "with the plugin") != plugin.exists() else None
            run = run_opencode(project, home, turns, env={"HOOKWRIGHT_LOG": str(root / "hooks.log")})
            if run.returncode != 0 or len(run.arrivals) < CALLS + 1:
                print(f"opencode run failed ({label}): rc {run.returncode}\n{run.stderr[-2000:]}")
                return
            gaps = [b - a for a, b in zip(run.arrivals, run.arrivals[1:])][:CALLS]
            if label in per_call and len(per_call[label]) < runs * CALLS:
                per_call[label] += gaps
        payload = json.dumps(common(project, "PreToolUse", "Bash", {"command": "true"})).encode()
        script = project / ".opencode" / "hookwright" / "git-guard" / "git-guard"
        python3 = shutil.which("python3", path=env.get("PATH"))  # what the plugin runs (a pyenv shim costs ~0.1 s)
        spawn = [run_once([python3, "-I", "-S", str(script), "--host", "opencode"], payload, env, project)[0]
                 for _ in range(30)]
    with_plugin, without = (statistics.median(per_call[k]) * 1000 for k in ("with the plugin", "without"))
    own = statistics.median(spawn) * 1000
    print(f"opencode {runs} runs of {CALLS} bash calls each, with git-guard's plugin and without, alternating:")
    print(f"  one tool call: {without:.1f} ms without the plugin, {with_plugin:.1f} ms with it: "
          f"+{with_plugin - without:.1f} ms; the runtime alone, started as the plugin starts it "
          f"({python3} -I -S ...): {own:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
