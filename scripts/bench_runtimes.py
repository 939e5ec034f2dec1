#!/usr/bin/env python3
"""What each installed pack costs a user on every tool call, on each host, before and after.

Claude Code and Cursor start a hook's process on every call. Every script a pack wires into the
host is laid out as install lays it out and started as the host starts it, `python3 -I -S <script>
--host <host>`, on that host's payload (a typical call, and for git-guard a deny, which writes a
line of the decision log), right before or after the floor `python3 -I -S -c 'import json,sys;
json.load(sys.stdin)'` on the same payload (the order shuffled). The table gives median wall time,
and its ratio to the floor's; CPU time (user + system) is shown too: it shakes less when other
work shares the machine. The target (DESIGN.md, Performance targets) is at most 1.25x. Where
python3 on PATH is a version manager's shim (the command names python3), the floor through it is
timed beside the interpreter's own: what the shim adds to every call.

opencode runs hookwright's plugin inside its own process. With --opencode, the real opencode
(scripts/setup-e2e.sh installs it) runs sessions of tool calls each pack judges (bash calls for
git-guard, an MCP tool's for path-normalizer) without hookwright and with the pack installed for
the user, the runs interleaved. A plugin of the bench's own loads the plugin install wrote and
times each call of its hook, and the fake model times a call from the request that asks for it
to the one that brings its result. Without hookwright the timed hook does nothing but let
opencode's event loop turn once, as any hook that waits for something does: opencode has work
of its own queued during a tool call (measured on 1.18.33 on a loaded machine: one setImmediate
in tool.execute.before took 30 ms median), work it does during the call either way. (Two timing
plugins around ours would not do: the user's plugin/ and plugins/ folders run in either order,
docs/hosts/opencode.md#load-order.) The added milliseconds are with minus
without, medians over every call but each session's first (whose runtime starts then, shown
apart). The target is 2 ms.

--base DIR measures another checkout of hookwright in the same run, interleaved with this one
("before" and "after"), e.g. main at 7f780f7: `git worktree add /work/base-serve 7f780f7`.
Exit 1 when this checkout is over a target, or a runtime failed (exit, stderr, a session).

    python3 scripts/bench_runtimes.py [--runs 30] [--only PACK] [--base DIR] [--opencode] [--rounds 5]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
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
FLOOR_CODE = "import json,sys; json.load(sys.stdin)"
WARMUP = 3
TARGET = 1.25
OPENCODE_TARGET_MS = 2.0
CALLS = 20  # tool calls per opencode session
PROCESS_HOSTS = ("claude", "cursor")

QUESTION = {"question": "Use tabs or spaces for this file? <qid:indent-style>",
            "header": "Indentation", "multiSelect": False,
            "options": [{"label": "Tabs (recommended)", "description": "as the rest of the repo"},
                        {"label": "Spaces", "description": "4 spaces"}]}


# ---- payloads ---------------------------------------------------------------------------------

def common(project: Path, event: str, tool: str, tool_input: dict) -> dict:
    return {"session_id": "0b6a1c1e-6f7e-4c1a-9a55-3f1f2d3c4b5a",
            "transcript_path": str(project / "transcript.jsonl"), "cwd": str(project),
            "prompt_id": "p-1", "permission_mode": "default", "effort": "medium",
            "hook_event_name": event, "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_01ABCDEFGHJKMNPQRSTVWXYZ"}


def cursor_common(project: Path, event: str, **fields: object) -> dict:
    return {"conversation_id": "c-1", "generation_id": "g-1", "model": "claude-sonnet", "cursor_version": "2.3.0",
            "workspace_roots": [str(project)], "user_email": None, "transcript_path": None,
            "hook_event_name": event, **fields}


def claude_payloads(script: str, event: str, project: Path) -> dict[str, dict]:
    """What the hook sees on an ordinary call (and git-guard on a deny), in Claude Code's words."""
    if script == "git-guard":
        return {"": common(project, "PreToolUse", "Bash", {"command": "git status", "description": "Show status"}),
                " (deny)": common(project, "PreToolUse", "Bash",
                                  {"command": "git reset --hard", "description": "Discard changes"})}
    if script == "path-normalizer":
        return {"": {**common(project, "PreToolUse", "mcp__docs__read_doc", {"path": "notes/a.txt", "mode": "r"}),
                     "mcp_server": "docs"}}
    if script == "question-preference":
        return {"": common(project, "PreToolUse", "AskUserQuestion", {"questions": [QUESTION]})}
    if script == "question-log":
        return {"": {**common(project, "PostToolUse", "AskUserQuestion", {"questions": [QUESTION]}),
                     "tool_response": {"questions": [QUESTION], "answers": {QUESTION["question"]: "Spaces"}}}}
    if script == "ask-error-fallback":
        return {"": {**common(project, "PostToolUseFailure", "AskUserQuestion", {"questions": [QUESTION]}),
                     "error": "Tool result missing due to internal error", "is_interrupt": False, "duration_ms": 12}}
    return {"": common(project, event, "Bash", {"command": "ls", "description": "List files"})}


def cursor_payloads(script: str, event: str, project: Path) -> dict[str, dict]:
    """The same calls as Cursor sends them to the event the pack wires there."""
    if event == "beforeShellExecution":
        return {"": cursor_common(project, event, command="git status", cwd=str(project), sandbox=False),
                " (deny)": cursor_common(project, event, command="git reset --hard", cwd=str(project), sandbox=False)}
    return {"": cursor_common(project, event, tool_name="MCP:read_doc", tool_input={"path": "notes/a.txt", "mode": "r"},
                              tool_use_id="t-1", cwd=str(project))}


# ---- the packs and the checkouts ---------------------------------------------------------------

def wired(only: list[str]) -> list[tuple[str, str, dict[str, str]]]:
    """(pack, script, {host: event}) for every script of every bundled pack."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    for manifest in sorted((REPO / "templates" / "packs").glob("*/pack.toml")):
        pack = manifest.parent.name
        for hook in tomllib.loads(manifest.read_text(encoding="utf-8")).get("hooks", []):
            if only and pack not in only and hook["script"] not in only:
                continue
            events = found.setdefault((pack, hook["script"]), {})
            for host in ("claude", "cursor", "opencode"):
                if host in hook:
                    events.setdefault(host, hook[host].get("event", "PreToolUse"))
    return [(pack, script, events) for (pack, script), events in found.items()]


class Checkout:
    """A checkout of hookwright whose own code installs and lays out its packs (run as a child
    process, with its installer/ importable as `hookwright`)."""

    def __init__(self, label: str, folder: Path, scratch: Path) -> None:
        self.label = label
        self.folder = folder
        self.path = scratch / f"import-{label}"
        self.path.mkdir()
        (self.path / "hookwright").symlink_to(folder / "installer")

    def run(self, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                              env={**env, "PYTHONPATH": str(self.path)}, check=True)

    def lay_out(self, pack: str, host: str, folder: Path, env: dict[str, str]) -> Path:
        """The pack's runtime folder as this checkout's install writes it."""
        code = ("import sys; from pathlib import Path; from hookwright.packs import load_pack\n"
                "pack = load_pack(sys.argv[1]); folder = Path(sys.argv[3]); folder.mkdir(parents=True, exist_ok=True)\n"
                "for name, data in pack.runtime_files(sys.argv[2]).items():\n"
                "    (folder / name).write_bytes(data); (folder / name).chmod(0o755 if pack.is_script(name) else 0o644)\n")
        self.run("-c", code, pack, host, str(folder), env=env)
        return folder


# ---- a process per call: Claude Code and Cursor -------------------------------------------------

def run_once(command: list[str], stdin: bytes, env: dict, cwd: Path) -> tuple[float, float, subprocess.CompletedProcess]:
    """Wall time, CPU time (user + system) and the result of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, input=stdin, capture_output=True, env=env, cwd=cwd)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def process_costs(checkouts: list[Checkout], scripts: list, python: str, runs: int, seed: int, root: Path,
                  env: dict[str, str]) -> tuple[list[tuple[str, str, str]], dict, list[str]]:
    """Every runtime of every checkout beside its floor, shuffled each round. Returns the rows
    (host, label, floor label), the timings by case, and the failures."""
    project = root / "project"
    project.mkdir()
    cases: dict[str, tuple[list[str], bytes]] = {}
    groups: list[list[str]] = []  # the cases run next to each other, in a shuffled order
    rows = []
    for host in PROCESS_HOSTS:
        for pack, script, events in scripts:
            if host not in events:
                continue
            make = claude_payloads if host == "claude" else cursor_payloads
            for suffix, payload in make(script, events[host], project).items():
                label, stdin = f"{script}{suffix}", json.dumps(payload).encode()
                floor = f"{host} {label} floor"
                cases[floor] = ([python, "-I", "-S", "-c", FLOOR_CODE], stdin)
                group = [floor]
                for checkout in checkouts:
                    folder = root / checkout.label / host / pack
                    if not folder.exists():
                        checkout.lay_out(pack, host, folder, env)
                    case = f"{host} {label} {checkout.label}"
                    cases[case] = ([python, "-I", "-S", str(folder / script), "--host", host], stdin)
                    group.append(case)
                groups.append(group)
                rows.append((host, label, floor))
    shim = _shim()
    if shim is not None:  # the floor started as a command naming python3 starts it
        stdin = cases[rows[0][2]][1]
        cases["shim floor"] = ([shim.path, "-I", "-S", "-c", FLOOR_CODE], stdin)
        cases["interpreter floor"] = ([shim.interpreter, "-I", "-S", "-c", FLOOR_CODE], stdin)
        groups.append(["shim floor", "interpreter floor"])
    failures = []
    for label, (command, stdin) in cases.items():
        for _ in range(WARMUP):  # byte-code cached, as after a hook's first call on a user's machine
            _, _, proc = run_once(command, stdin, env, project)
        if proc.returncode != 0 or proc.stderr:
            failures.append(f"{label}: exit {proc.returncode}, stderr {proc.stderr.decode(errors='replace')!r}")
    timed: dict[str, tuple[list[float], list[float]]] = {label: ([], []) for label in cases}
    shuffle = random.Random(seed)
    for _ in range(runs):
        shuffle.shuffle(groups)
        for group in groups:
            for label in shuffle.sample(group, len(group)):
                wall, cpu, _ = run_once(*cases[label], env, project)
                timed[label][0].append(wall * 1000)
                timed[label][1].append(cpu * 1000)
    return rows, timed, failures


def _shim():
    """What python3 on PATH is in front of, if it is a shim (hookwright's own reading of it)."""
    try:
        from hookwright.interpreter import shim_in_front
    except ImportError:  # (hookwright not installed where this runs: nothing to say about a shim)
        return None
    return shim_in_front()


def print_process_costs(checkouts: list[Checkout], rows, timed, python: str, runs: int, target: float) -> list[str]:
    print(f"a process per call (Claude Code, Cursor): {python} -I -S <runtime> --host <host>, {runs} runs of each, "
          f"interleaved with the floor; median wall ms (ratio to the floor), cpu ms (ratio); target <= {target:.2f}x")
    print(f"{'host':<7} {'runtime':<26} {'floor':>12}" + "".join(f" {c.label:>28}" for c in checkouts))
    over = []
    for host, label, floor in rows:
        wall0, cpu0 = (statistics.median(values) for values in timed[floor])
        cells = []
        for checkout in checkouts:
            wall, cpu = (statistics.median(values) for values in timed[f"{host} {label} {checkout.label}"])
            cells.append(f"{wall:6.1f} {wall / wall0:4.2f}x {cpu:5.1f} {cpu / cpu0 if cpu0 else 0:4.2f}x")
            if checkout.label == "after" and wall / wall0 > target:
                over.append(f"{host} {label}: {wall / wall0:.2f}x the floor")
        print(f"{host:<7} {label:<26} {wall0:6.1f} {cpu0:5.1f}" + "".join(f" {cell:>28}" for cell in cells))
    if "shim floor" in timed:
        shim = _shim()
        through, direct = (statistics.median(timed[label][0]) for label in ("shim floor", "interpreter floor"))
        cpu_through, cpu_direct = (statistics.median(timed[label][1]) for label in ("shim floor", "interpreter floor"))
        print(f"python3 on PATH is {shim.manager}'s shim ({shim.path}): the floor through it {through:.1f} ms "
              f"({cpu_through:.1f} ms cpu), through {shim.interpreter} itself {direct:.1f} ms ({cpu_direct:.1f} ms cpu): "
              f"+{through - direct:.1f} ms on every call of a hook whose command starts python3")
    return over


# ---- opencode: the plugin in opencode's own process -----------------------------------------------

# the bench's own plugin, the only one the user's plugins folder holds: it loads the plugin install wrote
# (moved beside it, so that opencode does not load it twice) and times each call of its hook
TIMER = """import { appendFileSync } from "node:fs";
%s
export const HwBench = async (context) => {
  const plugins = await Promise.all(Object.values(inner).map((plugin) => plugin(context)));
  return {
    "tool.execute.before": async (input, output) => {
      const started = process.hrtime.bigint();
      try {
        for (const hooks of plugins) await hooks["tool.execute.before"]?.(input, output);
        if (!plugins.length) await new Promise((done) => setImmediate(done)); // (one turn of the loop, below)
      } finally {
        appendFileSync(process.env.HW_BENCH_SPANS, `${Number(process.hrtime.bigint() - started) / 1e6}\\n`);
      }
    },
  };
};
"""
MCP_SERVER = REPO / "tests" / "e2e" / "fake_mcp_server.py"


def opencode_costs(checkouts: list[Checkout], scripts: list, rounds: int, seed: int, root: Path,
                   env: dict[str, str]) -> dict[str, dict[str, dict[str, list[float]]]] | None:
    """pack -> variant ("without" or a checkout) -> {"span", "first", "gap"}: ms per call."""
    sys.path.insert(0, str(REPO / "tests" / "e2e"))
    from opencode_cli import OPENCODE, run_opencode

    if not OPENCODE.exists():
        print(f"opencode: {OPENCODE} is not there; run scripts/setup-e2e.sh")
        return None
    found: dict[str, dict[str, dict[str, list[float]]]] = {}
    shuffle = random.Random(seed)
    for pack in dict.fromkeys(pack for pack, _, events in scripts if "opencode" in events):
        base = root / "opencode" / pack
        project, home = base / "project", base / "home"
        project.mkdir(parents=True)
        home.mkdir()
        homes = {variant: base / f"config-{variant}" for variant in ["without", *(c.label for c in checkouts)]}
        for checkout in checkouts:
            checkout.run("-m", "hookwright", "install", pack, "--host", "opencode", "--scope", "user", "--yes",
                         env={**env, "HOME": str(home), "XDG_CONFIG_HOME": str(homes[checkout.label]),
                              "XDG_STATE_HOME": str(base / f"state-{checkout.label}")})
        for variant, config in homes.items():
            plugins, beside = config / "opencode" / "plugins", config / "opencode" / "timed"
            plugins.mkdir(parents=True, exist_ok=True)
            beside.mkdir()
            installed = plugins / f"hookwright-{pack}.js"
            if installed.exists():
                installed.rename(beside / installed.name)  # (its runtime stays where ../hookwright/ finds it)
            inner = f'import * as inner from "../timed/{installed.name}";' if variant != "without" else "const inner = {};"
            (plugins / "hw-bench.js").write_text(TIMER % inner)
        if pack == "git-guard":
            call, mcp = {"tool": "bash", "input": {"command": "true", "description": "call"}}, None
        else:
            call = {"tool": "docs_read_doc", "input": {"path": "notes/a.md", "mode": "r"}}
            mcp = {"docs": [sys.executable, str(MCP_SERVER), str(base / "mcp-calls.jsonl")]}
        found[pack] = {variant: {"span": [], "first": [], "gap": []} for variant in homes}
        order = [variant for _ in range(rounds) for variant in shuffle.sample(list(homes), len(homes))]
        for n, variant in enumerate([*homes, *order]):  # one session of each first, untimed (caches)
            spans = base / f"spans-{n}.txt"
            run = run_opencode(project, home, [call] * CALLS + ["done"], mcp=mcp,
                               env={"XDG_CONFIG_HOME": str(homes[variant]), "HW_BENCH_SPANS": str(spans),
                                    "HOOKWRIGHT_LOG": str(base / "hooks.log")})
            timed = [float(line) for line in spans.read_text().split()] if spans.exists() else []
            if run.returncode != 0 or len(run.arrivals) < CALLS + 1 or len(timed) != CALLS:
                print(f"opencode session failed ({pack}, {variant}): rc {run.returncode}, {len(timed)} calls timed\n"
                      f"{run.stderr[-2000:]}")
                return None
            if n >= len(homes):
                gaps = [(b - a) * 1000 for a, b in zip(run.arrivals, run.arrivals[1:])][:CALLS]
                found[pack][variant]["first"].append(timed[0])
                found[pack][variant]["span"] += timed[1:]
                found[pack][variant]["gap"] += gaps[1:]
        log = base / "hooks.log"
        if log.exists():
            print(f"opencode {pack}: hooks.log (it should be empty):\n  " + "\n  ".join(log.read_text().splitlines()[:5]))
    return found


def served_costs(checkout: Checkout, scripts: list, python: str, root: Path, env: dict[str, str],
                 calls: int = 2000) -> dict[str, tuple[float, float, float]]:
    """The serving runtime alone, without opencode: script -> (median and 90th percentile of a
    call's round trip over its pipes, the runtime's CPU per call), all in ms. What the plugin's
    runtime costs wherever opencode's own event loop is not in the way."""
    found = {}
    for pack, script, events in scripts:
        if "opencode" not in events:
            continue
        folder = checkout.lay_out(pack, "opencode", root / "served" / pack, env)
        payload = opencode_payload(script, root / "project")
        child = subprocess.Popen([python, "-I", "-S", str(folder / script), "--host", "opencode", "--serve"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        assert child.stdin is not None and child.stdout is not None
        times, used = [], 0.0
        for n in range(WARMUP * 10 + calls):
            if n == WARMUP * 10:
                used = _cpu_of(child.pid)
            started = time.perf_counter()
            child.stdin.write(b"%d %s\n" % (n, payload))
            child.stdin.flush()
            child.stdout.readline()
            times.append((time.perf_counter() - started) * 1000)
        used = _cpu_of(child.pid) - used
        child.stdin.close()
        child.wait()
        times = sorted(times[WARMUP * 10:])
        found[script] = (statistics.median(times), times[int(len(times) * 0.9)], used * 1000 / calls)
    return found


def opencode_payload(script: str, project: Path) -> bytes:
    """What the plugin sends for a call it judges (opencode's tool names, Claude Code's words)."""
    tool, tool_input = ("Bash", {"command": "true", "description": "call"}) if script == "git-guard" else \
        ("docs_read_doc", {"path": "notes/a.md", "mode": "r"})
    return json.dumps({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
                       "tool_use_id": "call_1", "session_id": "ses_1", "cwd": str(project),
                       "permission_mode": "default"}).encode()


def _cpu_of(pid: int) -> float:
    """A process's CPU time so far (user + system), in seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def print_opencode_costs(checkouts: list[Checkout], found, rounds: int) -> list[str]:
    print(f"opencode (the real one): {rounds} sessions of {CALLS} calls with each variant, interleaved; per call, "
          "median ms: in the plugin's hook, and model request to request; "
          "+ms: with minus without; target <= +2 ms")
    print(f"{'pack':<16} {'variant':<8} {'in hooks':>9} {'added':>8} {'first call':>11} {'per call':>9} {'added':>8}")
    over = []
    for pack, variants in found.items():
        span0, gap0 = (statistics.median(variants["without"][k]) for k in ("span", "gap"))
        for variant, values in variants.items():
            span, gap, first = (statistics.median(values[k]) for k in ("span", "gap", "first"))
            added = f"{span - span0:+8.2f}" if variant != "without" else ""
            added_gap = f"{gap - gap0:+8.1f}" if variant != "without" else ""
            print(f"{pack:<16} {variant:<8} {span:9.2f} {added:>8} {first:11.1f} {gap:9.1f} {added_gap:>8}")
            if variant == "after" and span - span0 > OPENCODE_TARGET_MS:
                over.append(f"opencode {pack}: +{span - span0:.2f} ms a call")
    return over


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="timed runs of each process (default 30)")
    parser.add_argument("--target", type=float, default=TARGET, help="max ratio to the floor (default 1.25)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter to start (default: the one running this script)")
    parser.add_argument("--only", action="append", default=[], help="a pack or script name (repeatable)")
    parser.add_argument("--base", type=Path, help="another checkout of hookwright, measured as 'before'")
    parser.add_argument("--seed", type=int, default=0, help="seed of the shuffled run order")
    parser.add_argument("--opencode", action="store_true", help="also time tool calls in the real opencode")
    parser.add_argument("--rounds", type=int, default=5, help="opencode sessions of each variant (default 5)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.rounds < 1:
        parser.error("--runs and --rounds must be at least 1")
    scripts = wired(args.only)
    if not scripts:
        parser.error("no runtime scripts found" + (f" for {args.only}" if args.only else ""))
    with tempfile.TemporaryDirectory(prefix="hw-bench-") as tmp:
        root = Path(tmp)
        checkouts = ([Checkout("before", args.base.resolve(), root)] if args.base else []) + \
            [Checkout("after", REPO, root)]
        env = {key: value for key, value in os.environ.items() if not key.startswith(("XDG_", "HOOKWRIGHT_", "PYTHON"))}
        env.update({"HOME": str(root / "home"), "XDG_CONFIG_HOME": str(root / "config"),
                    "XDG_STATE_HOME": str(root / "state"), "XDG_CACHE_HOME": str(root / "cache"),
                    "HOOKWRIGHT_LOG": str(root / "hooks.log"), "CLAUDE_PROJECT_DIR": str(root / "project")})
        print("load average (1, 5, 15 min) at the start: %.1f %.1f %.1f on %d cores"
              % (*os.getloadavg(), os.cpu_count() or 0))
        rows, timed, failures = process_costs(checkouts, scripts, args.python, args.runs, args.seed, root, env)
        over = print_process_costs(checkouts, rows, timed, args.python, args.runs, args.target)
        log = root / "hooks.log"
        if log.exists():
            print("hooks.log (a typical payload should log nothing):\n  " + "\n  ".join(log.read_text().splitlines()[:10]))
        if args.opencode:
            found = opencode_costs(checkouts, scripts, args.rounds, args.seed, root, env)
            if found is None:
                failures.append("opencode")
            else:
                over += print_opencode_costs(checkouts, found, args.rounds)
            for script, (median, p90, cpu) in served_costs(checkouts[-1], scripts, args.python, root, env).items():
                print(f"the serving runtime alone ({script}, {args.python}): a call's round trip {median:.3f} ms "
                      f"median ({p90:.3f} ms p90), {cpu:.3f} ms of its CPU")
        print("load average (1, 5, 15 min) at the end: %.1f %.1f %.1f on %d cores"
              % (*os.getloadavg(), os.cpu_count() or 0))
    for failure in failures:
        print(f"FAILED {failure}")
    for line in over:
        print(f"OVER {line}")
    return 1 if over or failures else 0


if __name__ == "__main__":
    sys.exit(main())
