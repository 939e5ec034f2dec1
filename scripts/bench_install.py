#!/usr/bin/env python3
"""Benchmark what checking a plan for conflicts adds to an install.

A project with 50 foreign hooks spread over the user, project and local settings (guards,
loggers, formatters, a rewriter on MCP tools, inline commands and scripts that exist), and the
three bundled packs installed into its project scope with `--yes --allow-conflicts` (the
rewriter races with path-normalizer, as it would in real life), then uninstalled again, N
times. Each install runs as a fresh `hookwright` process twice, interleaved in a shuffled
order: as shipped, and with the plan check switched off (Plan.checked replaced by a no-op
in the same process, before the CLI starts). The figure is the ratio of the medians (and of the
best runs); DESIGN.md's target is at most 1.3 (the check adds at most 30%). The floor of any
typer CLI (`python -c "import typer, json"`) and `hookwright --version` are timed beside them.

    python3 scripts/bench_install.py [--runs 20] [--target 1.3]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKS = ["git-guard", "path-normalizer", "ask-guard"]
WITHOUT_CHECK = ("import sys; from hookwright.planning.plan import Plan; Plan.checked = lambda self: self; "
                 "from hookwright.__main__ import main; main()")
AS_SHIPPED = "import sys; from hookwright.__main__ import main; main()"
SCRIPTS = {
    "guard.py": "import json, sys\nd = json.load(sys.stdin)\nif 'rm -rf' in d['tool_input'].get('command', ''):\n"
                "    print('no', file=sys.stderr)\n    sys.exit(2)\n",
    "log.sh": "#!/bin/sh\ncat >> \"$HOME/hooks.log\"\n",
    "format.py": "import json, sys, subprocess\nd = json.load(sys.stdin)\nprint('{}')\n",
    "rewrite.py": "import json, sys\nd = json.load(sys.stdin)\nprint(json.dumps({'hookSpecificOutput': {"
                  "'hookEventName': 'PreToolUse', 'permissionDecision': 'allow', 'updatedInput': d['tool_input']}}))\n",
}


def foreign_hooks(folder: Path, count: int, start: int) -> dict:
    """`count` handlers of the kinds real settings files hold, over the usual events."""
    for name, text in SCRIPTS.items():
        (folder / name).write_text(text)
        (folder / name).chmod(0o755)
    kinds = [
        ("PreToolUse", "Bash", f"python3 {folder / 'guard.py'}"),
        ("PreToolUse", "mcp__fs__.*", f"python3 {folder / 'rewrite.py'}"),
        ("PostToolUse", "Edit|Write|MultiEdit", f"python3 {folder / 'format.py'}"),
        ("PostToolUse", "*", f"{folder / 'log.sh'}"),
        ("Stop", None, "echo done >> /tmp/hookwright-bench-stop.log"),
        ("SessionStart", "startup", "git status --short || true"),
        ("UserPromptSubmit", None, f"{folder / 'log.sh'}"),
        ("Notification", None, "notify-send Claude \"$CLAUDE_PROJECT_DIR\" || true"),
    ]
    hooks: dict[str, list] = {}
    for i in range(count):
        event, matcher, command = kinds[(start + i) % len(kinds)]
        group = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": f"{command} # {start + i}", "timeout": 30}]
        hooks.setdefault(event, []).append(group)
    return {"permissions": {"allow": ["Bash(npm test)"]}, "hooks": hooks}


def lay_out(root: Path) -> tuple[Path, Path]:
    home, project = root / "home", root / "project"
    scripts = root / "scripts"
    for folder in (home / ".claude", project / ".claude", scripts):
        folder.mkdir(parents=True)
    (project / ".git").mkdir()
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"fs": {"command": "fs-server"}}}))
    for path, count, start in ((home / ".claude" / "settings.json", 17, 0),
                               (project / ".claude" / "settings.json", 17, 17),
                               (project / ".claude" / "settings.local.json", 16, 34)):
        path.write_text(json.dumps(foreign_hooks(scripts, count, start), indent=2) + "\n")
    return home, project


def environment(home: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CLAUDE", "HOOKWRIGHT", "XDG_")) and k != "PYTHONDONTWRITEBYTECODE"}
    return dict(env, HOME=str(home), PYTHONPATH=str(REPO))


def timed(argv: list[str], env: dict, cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--target", type=float, default=1.3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home, project = lay_out(Path(tmp))
        env = environment(home)
        where = ["--scope", "project", "--project", str(project)]
        install = ["install", *PACKS, *where, "--yes", "--allow-conflicts"]
        uninstall = ["uninstall", *PACKS, *where, "--yes"]
        variants = {"install, as shipped": AS_SHIPPED, "install, plan check off": WITHOUT_CHECK}
        floors = {"python -c 'import typer, json'": [sys.executable, "-c", "import typer, json"],
                  "hookwright --version": [sys.executable, "-c", AS_SHIPPED, "--version"]}
        times: dict[str, list[float]] = {name: [] for name in [*variants, *floors]}
        for _ in range(2):  # warm the byte-code cache and the disk
            timed([sys.executable, "-c", AS_SHIPPED, *install], env, project)
            timed([sys.executable, "-c", AS_SHIPPED, *uninstall], env, project)
        for _ in range(args.runs):
            order = list(variants) + list(floors)
            random.shuffle(order)
            for name in order:
                if name in floors:
                    times[name].append(timed(floors[name], env, project))
                    continue
                times[name].append(timed([sys.executable, "-c", variants[name], *install], env, project))
                timed([sys.executable, "-c", AS_SHIPPED, *uninstall], env, project)
        base_median = statistics.median(times["install, plan check off"])
        base_best = min(times["install, plan check off"])
        print(f"{'':34} {'median s':>9} {'best s':>8} {'x off (median)':>15} {'x off (best)':>13}")
        for name, values in times.items():
            print(f"{name:34} {statistics.median(values):9.3f} {min(values):8.3f} "
                  f"{statistics.median(values) / base_median:15.2f} {min(values) / base_best:13.2f}")
        ratio = statistics.median(times["install, as shipped"]) / base_median
        print(f"\nthe plan check adds {100 * (ratio - 1):.0f}% to the install (median; target at most "
              f"{100 * (args.target - 1):.0f}%), over {args.runs} interleaved runs of each")
        sys.exit(0 if ratio <= args.target else 1)


if __name__ == "__main__":
    main()
