#!/usr/bin/env python3
"""What the imports inside functions save the commands a user waits on (docs/contributing.md).

Each command (`hookwright --help`, `hookwright status` in a project with nothing installed,
`hookwright doctor FILE` on a typical settings file) runs as a fresh process as shipped, and
again with one group of modules imported before the CLI starts: what the run would cost if that
group were imported at the top of its module. The runs take turns (as shipped, group 1, group
2..., as shipped...) so that a busy moment of the machine falls on all of them alike. The figure
is CPU time (user + system, of the process and what it started): it shakes far less than wall
time when other work shares the machine. The table gives each group's median above the median
as shipped, in milliseconds; a group the command loads anyway shows about 0.

    python3 scripts/bench_start.py [--repeat 15] [--python PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# the groups a module imports inside a function, each as the module names it brings in
GROUPS = {
    "the commands' modules (cli.py)": ["hookwright.commands.install", "hookwright.commands.uninstall",
                                       "hookwright.commands.status", "hookwright.commands.list",
                                       "hookwright.commands.doctor", "hookwright.commands.simulate",
                                       "hookwright.commands.pack", "hookwright.commands.log",
                                       "hookwright.interactive", "hookwright.output"],
    "the other commands' printers (output.py)": ["hookwright.printers"],
    "the shell status model (scripts/shell_status.py)": ["hookwright.doctor.scripts.shell_model"],
    "rich (output.py, interactive.py)": ["rich.console", "rich.table", "rich.text", "rich.prompt", "rich.syntax"],
    "tomlkit (hosts/codex/trust.py)": ["tomlkit"],
    "deepdiff (planning/plan.py)": ["deepdiff"],
    "jsonschema_rs (resources.py, pack_cases.py)": ["jsonschema_rs"],
    "json5 (hosts/opencode/adapter.py)": ["json5"],
    "filelock (state.py)": ["filelock"],
    "platformdirs (layout.py, sources.py)": ["platformdirs"],
    "hashlib (hosts/codex/trust.py)": ["hashlib"],
    "ctypes (atomic.py)": ["ctypes"],
}
SETTINGS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', "timeout": 10}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "echo done >> /tmp/claude-stop.log"}]}]}}
START = "import gc; gc.disable()\n{imports}from hookwright.cli import entry\nentry()\n"  # as __main__.py starts


def argv(python: str, modules: list[str], args: list[str]) -> list[str]:
    imports = "".join(f"import {name}\n" for name in modules)
    return [python, "-c", START.format(imports=imports), *args]


def cpu_time(command: list[str], cwd: Path, env: dict) -> tuple[float, int, str]:
    """(user + system seconds of the run and its children, exit code, stderr)."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        err.seek(0)
        return usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status), err.read().decode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--python", default=sys.executable)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hookwright-start-") as scratch:
        home, project = Path(scratch) / "home", Path(scratch) / "project"
        (project / ".claude" / "hooks").mkdir(parents=True)
        home.mkdir()
        (project / ".git").mkdir()
        settings = project / ".claude" / "settings.json"
        settings.write_text(json.dumps(SETTINGS, indent=2))
        (project / ".claude" / "hooks" / "guard.sh").write_text("#!/bin/sh\ncat >/dev/null\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE", "HOOKWRIGHT", "XDG_", "CODEX"))}
        env.update(HOME=str(home), PYTHONPATH=str(REPO), COLUMNS="100")
        commands = {"--help": ["--help"], "status": ["status"], "doctor FILE": ["doctor", str(settings)]}
        rows = []
        for label, args in commands.items():
            variants = {"as shipped": argv(options.python, [], args),
                        **{group: argv(options.python, modules, args) for group, modules in GROUPS.items()}}
            times: dict[str, list[float]] = {name: [] for name in variants}
            for round_ in range(options.repeat + 1):  # one untimed round first (bytecode, disk cache)
                for name, command in variants.items():
                    cpu, code, err = cpu_time(command, project, env)
                    if round_:
                        times[name].append(cpu)
                    if code not in (0, 1):
                        raise SystemExit(f"{label} ({name}) exited {code}:\n{err[-2000:]}")
            shipped = statistics.median(times["as shipped"])
            rows.append((label, "as shipped", f"{shipped * 1000:.0f}", "-"))
            for group in GROUPS:
                rows.append((label, group, f"{statistics.median(times[group]) * 1000:.0f}",
                             f"{(statistics.median(times[group]) - shipped) * 1000:+.0f}"))
        widths = [max(len(row[i]) for row in rows) for i in range(4)]
        print(f"Median CPU ms of {options.repeat} fresh runs each; load average {os.getloadavg()[0]:.1f}\n")
        header = ("command", "imported first", "median ms", "above as shipped")
        widths = [max(w, len(h)) for w, h in zip(widths, header)]
        print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
        print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        for row in rows:
            print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |")


if __name__ == "__main__":
    main()
