#!/usr/bin/env python3
"""How `hookwright doctor`'s time grows with each input a config or a script can make large:
handlers per file, distinct matchers, one command's length, a script's size (shell, Python,
JavaScript) and if-nesting depth (a shell script's, an opencode plugin's, unclosed `case` lines),
each over at least 16x.

Each input is built at five sizes (n, 2n, 4n, 8n, 16n, from a typical file's size up); each
size is one project of its own, checked by a fresh `doctor` process; the sizes take turns
(n, 2n ... 16n, n, 2n ...) so that a busy moment of the machine falls on all of them alike, and
each time is the median of REPEAT runs, in CPU seconds (user and system) of the doctor process
(--wall: by the clock). The growth exponent k is fitted on log time against
log size (least squares), twice: on the whole run's time, and on the time above the floor (doctor
on an empty settings file: the interpreter, the imports, the report), which is what the input
itself costs. Linear is k = 1; the target is k <= 1.2 for every input.

With `--baseline DIR` (another checkout, say `git worktree add /work/base-7f780f7 7f780f7`), the
same inputs are timed with that checkout's doctor in the same rounds, each run stopped after
--timeout seconds (shown as ">T").

Usage: python3 scripts/bench_growth.py [--repeat N] [--only INPUT,...] [--baseline DIR] [--timeout S] [--wall]
"""
from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[1]
REWRITER = """#!/usr/bin/env python3
import json, sys
payload = json.load(sys.stdin)
command = payload.get("tool_input", {}).get("command", "")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": command}}}))
"""


def _settings(groups: list[dict]) -> dict:
    return {"hooks": {"PreToolUse": groups}}


def _script_project(root: Path, name: str, text: str, command: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    script = root / name
    script.write_text(text, encoding="utf-8")
    script.chmod(0o755)
    _write(root, _settings([{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]))


def _write(root: Path, settings: dict, mcp: dict | None = None) -> None:
    (root / ".claude").mkdir(parents=True, exist_ok=True)
    (root / ".claude" / "settings.json").write_text(json.dumps(settings, indent=1), encoding="utf-8")
    if mcp is not None:
        (root / ".mcp.json").write_text(json.dumps({"mcpServers": mcp}), encoding="utf-8")


def handlers(root: Path, n: int) -> None:
    """n handlers on a few tools, each a command (the typical file has 20)."""
    tools = ["Bash", "Edit|Write", "Read", "mcp__memory__.*", "Grep"]
    _write(root, _settings([{"matcher": tools[i % len(tools)], "hooks": [
        {"type": "command", "command": f"echo checked {i}", "timeout": 10}]} for i in range(n)]))


def matchers(root: Path, n: int) -> None:
    """n distinct regex matchers, each on a hook whose script rewrites the tool's input, with
    three MCP servers configured: every pair of them is a possible input-rewrite race."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "rewrite.py").write_text(REWRITER, encoding="utf-8")
    (root / "rewrite.py").chmod(0o755)
    shapes = ["mcp__srv{i}__.*", "mcp__.*__tool{i}", "Tool{i}|mcp__shared__op{i}.*", "^mcp__shared__(read|write)_{i}$",
              "mcp__memory__.*entity{i}", "(Notebook|Multi)Edit{i}|mcp__github__.*_{i}$"]
    groups = [{"matcher": shapes[i % len(shapes)].format(i=i), "hooks": [
        {"type": "command", "command": f"python3 \"$CLAUDE_PROJECT_DIR\"/rewrite.py --n {i}"}]} for i in range(n)]
    servers = {name: {"command": "npx", "args": [name]} for name in ("shared", "memory", "github")}
    _write(root, _settings(groups), servers)


def command_length(root: Path, n: int) -> None:
    """One inline command of n simple commands (`echo a; ` n times: 8 bytes each)."""
    _write(root, _settings([{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo a; " * n}]}]))


SHELL_BLOCK = """
if [ "$TOOL" = "Bash{i}" ]; then
  CMD=$(echo "$INPUT" | jq -r '.tool_input.command')
  case "$CMD" in
    rm*) echo "blocked {i}" >&2; exit 2 ;;
    *) printf '%s\\n' "checked {i}" >> /tmp/log ;;
  esac
fi
"""
PYTHON_BLOCK = """
def check_{i}(payload):
    command = payload.get("tool_input", {{}}).get("command", "")
    if command.startswith("rm {i}"):
        print(json.dumps({{"decision": "block", "reason": "no rm {i}"}}))
        sys.exit(2)
    return command
"""
JS_BLOCK = """
function check{i}(payload) {{
  const command = (payload.tool_input || {{}}).command || "";
  if (command.startsWith("rm {i}")) {{
    console.log(JSON.stringify({{ decision: "block", reason: "no rm {i}" }}));
    process.exit(2);
  }}
  return command;
}}
"""


def shell_script(root: Path, n: int) -> None:
    """A shell hook script of n if/case blocks (about 240 bytes each)."""
    text = "#!/bin/bash\nINPUT=$(cat)\nTOOL=$(echo \"$INPUT\" | jq -r .tool_name)\n" + \
        "".join(SHELL_BLOCK.format(i=i) for i in range(n)) + "exit 0\n"
    _script_project(root, "hook.sh", text, "bash \"$CLAUDE_PROJECT_DIR\"/hook.sh")


def python_script(root: Path, n: int) -> None:
    """A Python hook script of n functions (about 250 bytes each)."""
    text = "#!/usr/bin/env python3\nimport json, sys\n" + "".join(PYTHON_BLOCK.format(i=i) for i in range(n)) + \
        "\npayload = json.load(sys.stdin)\ncheck_0(payload)\n"
    _script_project(root, "hook.py", text, "python3 \"$CLAUDE_PROJECT_DIR\"/hook.py")


def js_script(root: Path, n: int) -> None:
    """A JavaScript hook script of n functions (about 260 bytes each)."""
    text = "#!/usr/bin/env node\nconst fs = require('fs');\n" + "".join(JS_BLOCK.format(i=i) for i in range(n)) + \
        "\nconst payload = JSON.parse(fs.readFileSync(0, 'utf8'));\ncheck0(payload);\n"
    _script_project(root, "hook.js", text, "node \"$CLAUDE_PROJECT_DIR\"/hook.js")


def nesting(root: Path, n: int) -> None:
    """A shell script of n if statements nested in one another, an answer at the bottom."""
    text = "#!/bin/bash\n" + "if [ -n \"$X\" ]; then\n" * n + \
        "echo '{\"decision\": \"block\", \"reason\": \"deep\"}'\n" + "fi\n" * n
    _script_project(root, "hook.sh", text, "bash \"$CLAUDE_PROJECT_DIR\"/hook.sh")


def case_depth(root: Path, n: int) -> None:
    """A shell script of n `case` lines never closed, each with an exit: every line one arm deeper
    (the hostile suite's long scripts hold such lines by the thousand)."""
    text = "#!/bin/bash\n" + "".join(f'case "$1" in a{i}) echo "x{i}" ; exit 2\n' for i in range(n))
    _script_project(root, "hook.sh", text, "bash \"$CLAUDE_PROJECT_DIR\"/hook.sh")


def plugin_nesting(root: Path, n: int) -> None:
    """An opencode plugin whose tool.execute.before hook nests n ifs, each copying the call's
    arguments, a rewrite at the bottom."""
    text = "export const P = async () => ({ 'tool.execute.before': async (input, output) => {\n" + \
        "if (input.tool === 'bash') { let args = output.args;\n" * n + "output.args.command = 'true'\n" + \
        "}\n" * n + "} })\n"
    (root / ".opencode" / "plugins").mkdir(parents=True)
    (root / ".opencode" / "plugins" / "deep.ts").write_text(text)


# input: (build, first size, unit)
INPUTS: dict[str, tuple[Callable[[Path, int], None], int, str]] = {
    "handlers per file": (handlers, 20, "handlers"),
    "distinct matchers": (matchers, 20, "matchers"),
    "command length": (command_length, 500, "commands"),
    "shell script size": (shell_script, 25, "blocks"),
    "Python script size": (python_script, 25, "functions"),
    "JavaScript script size": (js_script, 25, "functions"),
    "nesting depth": (nesting, 256, "ifs"),
    "plugin nesting depth": (plugin_nesting, 128, "ifs"),
    "unclosed case depth": (case_depth, 250, "lines"),
}
SETTINGS = ".claude/settings.json"  # the file doctor is named to check, in each project
CHECKED = {"plugin nesting depth": ".opencode/plugins/deep.ts"}  # the inputs whose file is another
SIZES = (1, 2, 4, 8, 16)
WALL = False  # --wall: time the runs by the clock, not by their CPU time


def run_once(argv: list[str], cwd: Path, env: dict, timeout: float) -> float | None:
    """The CPU time (user and system) of one fresh doctor process: on a machine others share,
    wall time says more about them than about doctor (--wall: wall time instead)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        proc = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}) in {cwd}:\n{proc.stderr[-2000:]}")
    if WALL:
        return time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fit(sizes: list[int], times: list[float]) -> float | None:
    """The slope of log(time) on log(size), least squares."""
    points = [(math.log(s), math.log(t)) for s, t in zip(sizes, times) if t and t > 0]
    if len(points) < 3:
        return None
    mx = statistics.fmean(x for x, _ in points)
    my = statistics.fmean(y for _, y in points)
    return sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated input names (or the start of one)")
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    args = parser.parse_args()
    global WALL
    WALL = args.wall
    chosen = {name: spec for name, spec in INPUTS.items()
              if not args.only or any(name.lower().startswith(o.strip().lower()) for o in args.only.split(","))}
    with tempfile.TemporaryDirectory(prefix="hookwright-growth-") as tmp:
        base = Path(tmp)
        home = base / "home"
        home.mkdir()
        env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
               "CLAUDE_CONFIG_DIR": str(home / ".claude"), "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("PYTHONPATH", None)
        doctors = {"this": ([sys.executable, "-m", "hookwright", "doctor"], env)}
        if args.baseline is not None:
            doctors["baseline"] = ([sys.executable, "-m", "installer", "doctor"],
                                   {**env, "PYTHONPATH": str(args.baseline.resolve())})
        floor_dir = base / "floor"
        _write(floor_dir, {"hooks": {}})
        projects: dict[tuple[str, int], Path] = {}
        for name, (build, first, _) in chosen.items():
            for factor in SIZES:
                folder = base / f"{name.replace(' ', '-')}-{factor}"
                build(folder, first * factor)
                projects[name, factor] = folder
        times: dict[tuple[str, str, int], list[float | None]] = {}
        for _ in range(args.repeat + 1):  # (the first round warms the caches and is not counted)
            for doctor, (argv, doctor_env) in doctors.items():
                times.setdefault((doctor, "floor", 0), []).append(
                    run_once([*argv, SETTINGS], floor_dir, doctor_env, args.timeout))
            for (name, factor), folder in projects.items():
                for doctor, (argv, doctor_env) in doctors.items():
                    previous = times.get((doctor, name, factor - 1 if factor > 1 else 0), [])
                    if factor > 1 and previous and previous[-1] is None:  # (a smaller size already timed out)
                        times.setdefault((doctor, name, factor), []).append(None)
                        continue
                    times.setdefault((doctor, name, factor), []).append(
                        run_once([*argv, CHECKED.get(name, SETTINGS)], folder, doctor_env, args.timeout))
        report(times, chosen, doctors, args.timeout)


def _median(values: list[float | None]) -> float | None:
    counted = values[1:]
    if any(v is None for v in counted):
        return None
    return statistics.median(v for v in counted if v is not None)


def report(times: dict, chosen: dict, doctors: dict, timeout: float) -> None:
    for doctor in doctors:
        floor = _median(times[doctor, "floor", 0]) or 0.0
        print(f"\n## doctor: {doctor} ({'wall' if WALL else 'CPU'} seconds; floor, an empty settings file: {floor:.3f} s)\n")
        print("| input | sizes | " + " | ".join(f"{f}x" for f in SIZES) + " | k | k above floor |")
        print("| --- | --- | " + " | ".join("---:" for _ in SIZES) + " | ---: | ---: |")
        for name, (_, first, unit) in chosen.items():
            medians = [_median(times[doctor, name, f]) for f in SIZES]
            cells = [f"{m:.3f}" if m is not None else f">{timeout:.0f}" for m in medians]
            sizes = [first * f for f in SIZES]
            known = [(s, m) for s, m in zip(sizes, medians) if m is not None]
            k = fit([s for s, _ in known], [m for _, m in known])
            above = fit([s for s, _ in known], [max(m - floor, 1e-4) for _, m in known])
            print(f"| {name} | {first}-{first * SIZES[-1]} {unit} | " + " | ".join(cells) +
                  f" | {k:.2f} | {above:.2f} |" if k is not None and above is not None else
                  f"| {name} | {first}-{first * SIZES[-1]} {unit} | " + " | ".join(cells) + " | - | - |")


if __name__ == "__main__":
    main()
