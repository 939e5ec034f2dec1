#!/usr/bin/env python3
"""Benchmarks for `hookwright doctor` (DESIGN.md and issue 15, performance targets).

Every timing is the best (and the median) wall time of REPEAT fresh processes, the commands of a
part taking turns so that a busy moment of the machine falls on all of them alike. Each part
first times the floor: what the interpreter and the mandated libraries cost doing nothing. With
`--clock cpu`, the time is the CPU time each process used (user and system, from the kernel's
accounting of the child), which a machine others keep busy changes far less than the wall time
(it still counts the time a process loses to a busy cache, so take ratios from one run).

1. A tree of projects: the 269 Claude Code settings files of the shared corpus, each staged as
   the project settings of a project of its own (`fNNN/.claude/settings.json`), all named in one
   run, against agnix (PyPI `agnix`, a Rust linter for agent configs) on the same files (target:
   at most 2.5x); then four copies of the tree (1,076 files) for growth. Then which defect
   classes each tool reports over every hook config of the corpus (Claude settings, plugin
   hooks.json, Cursor hooks.json), as a table: files with at least one finding (findings).
2. Synthetic settings files with 100, 1,000 and 10,000 handlers (and an MCP server, scripts that
   rewrite input, regex and exact matchers): how doctor's time grows, and the 10,000-handler
   file against agnix (target: at most 2x).
3. One typical settings file, text output, against `python -c "import typer, json"` (a bare
   typer start; target: at most 1.3x), beside `hookwright --version`, the bare interpreter and
   agnix; then the modules that cost most to import on that run (`python -X importtime`), so
   that a regression shows.

With `--python PATH`, every command runs that interpreter (say a virtual environment's, with
hookwright installed from this checkout as the README installs it): an editable install's import
hook makes each of hookwright's imports a little dearer than a user's install does.

With `--baseline DIR` (another checkout of hookwright, say `git worktree add /tmp/old <commit>`),
each doctor timing is taken beside that checkout's doctor on the same input, interleaved in the
same run, and the table says how much faster this one is.

Usage: python3 scripts/bench_doctor.py [--repeat N] [--sizes 100,1000,10000] [--corpus DIR] [--only PART]
                                       [--baseline DIR] [--python PATH]
Needs `agnix` on PATH for the comparisons (`pip install agnix==0.59.3`); the rest runs without it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
STAGED_AS = {"claude-settings": None, "claude-plugin-hooks": "hooks/hooks.json", "cursor-hooks": ".cursor/hooks.json"}

# ---- defect classes: what each tool's rules are about ---------------------------------------------

DOCTOR_CLASSES = {
    "structure/invalid-json": "not strict JSON (host ignores the file)",
    "structure/duplicate-key": "not strict JSON (host ignores the file)",
    "structure/unreadable": "not strict JSON (host ignores the file)",
    "structure/top-level-event": "hook events at the top level (ignored)",
    "structure/unknown-event": "unknown event name",
    "host/cursor-claude-event": "Claude Code event names in a Cursor file",
    "structure/timeout-invalid": "invalid timeout",
    "structure/timeout-milliseconds": "timeout written in milliseconds",
    "structure/once-ignored": "`once` outside skill frontmatter",
    "structure/matcher-ignored": "matcher on an event without matchers",
    "structure/type-unsupported-event": "handler type the event does not run",
    "structure/if-never-runs": "`if` on a non-tool event",
    "structure/settings-schema": "settings schema (SchemaStore) violations",
    "matcher/invalid-regex": "invalid regex matcher",
    "matcher/not-javascript": "invalid regex matcher",
    "matcher/needs-recent-host": "matcher syntax older hosts read differently",
    "command/script-missing": "missing script (gate fails open)",
    "command/not-executable": "script not executable",
    "command/relative-path": "relative script path",
    "command/home-path": "hard-coded home directory",
    "command/sh-without-shell": ".sh without \"shell\": \"bash\" (Windows)",
    "command/world-writable": "world-writable script",
    "command/interpreter-not-found": "interpreter not on PATH",
    "command/unquoted-placeholder": "unquoted path placeholder",
    "command/split-path": "unquoted path placeholder",
    "command/bad-interpreter": "script whose #! interpreter cannot start",
    "command/input-variable-never-set": "hook input read from variables never set",
    "command/exec-arguments-in-command": "exec form with arguments in command",
    "command/user-config-in-shell-form": "${user_config.*} in a shell-form hook",
    "command/block-swallowed": "exit-2 block swallowed by the command around it",
    "command/plugin-variable-outside-plugin": "${CLAUDE_PLUGIN_ROOT} outside a plugin",
    "structure/timeout-long": "long timeout in whole minutes (a note)",
    "conflict/duplicate-handler": "duplicate handlers",
    "conflict/duplicate-runs-twice": "duplicate handlers",
    "conflict/pack-in-several-scopes": "duplicate handlers",
    "conflict/input-rewrite-race": "two hooks rewriting one tool's input",
    "conflict/input-rewrite-race-mcp": "two hooks rewriting one tool's input",
    "conflict/input-rewrite-race-possible": "two hooks rewriting one tool's input",
    "conflict/cursor-runs-claude-hooks": "Cursor running Claude Code hooks twice",
    "conflict/session-end-budget": "SessionEnd timeout above its budget",
}
DOCTOR_PREFIXES = {
    "structure/": "group/handler shape, types, unknown keys",
    "matcher/": "matcher that never fires as meant (case, mcp__server, permission syntax...)",
    "script/": "script output the host ignores (modifiedToolInput, no hookEventName, defer...)",
    "host/": "other agents' files recognised",
}
AGNIX_CLASSES = {
    "CC-HK-012": "not strict JSON (host ignores the file)",
    "CC-HK-001": "unknown event name",
    "CUR-011": "unknown event name",
    "CC-HK-011": "invalid timeout",
    "CC-HK-010": "SessionEnd timeout above its budget",
    "CC-HK-014": "`once` outside skill frontmatter",
    "CC-HK-018": "matcher on an event without matchers",
    "CC-HK-002": "handler type the event does not run",
    "CC-HK-021": "`if` on a non-tool event",
    "CC-HK-025": "matcher that never fires as meant (case, mcp__server, permission syntax...)",
    "CC-HK-033": "matcher that never fires as meant (case, mcp__server, permission syntax...)",
    "CC-HK-008": "missing script (gate fails open)",
    "CUR-022": "relative script path",
    "CC-HK-005": "group/handler shape, types, unknown keys",
    "CC-HK-006": "group/handler shape, types, unknown keys",
    "CC-HK-016": "group/handler shape, types, unknown keys",
    "CC-HK-022": "group/handler shape, types, unknown keys",
    "CC-HK-003": "matcher hints (agnix)",
    "CC-HK-009": "dangerous command patterns (agnix)",
    "CC-HK-030": "unquoted path placeholder",  # also relative paths: see agnix_class
    "CC-HK-035": "broad PermissionRequest matcher (agnix)",
    "CUR-032": "MCP permission hook fails open (agnix)",
}
AGNIX_PREFIXES = {"CC-SET-": "settings keys and permission rules, not hooks (agnix)", "CC-HK-": "other hook rules (agnix)",
                  "CUR-": "other Cursor rules (agnix)", "VER-": "version pinning (agnix)"}


def doctor_class(rule: str) -> str:
    return DOCTOR_CLASSES.get(rule) or next((c for p, c in DOCTOR_PREFIXES.items() if rule.startswith(p)), "other")


def agnix_class(rule: str, message: str = "") -> str:
    if rule == "CC-HK-030" and "relative path" in message:  # agnix files relative paths under this rule too
        return "relative script path"
    return AGNIX_CLASSES.get(rule) or next((c for p, c in AGNIX_PREFIXES.items() if rule.startswith(p)), "other")


# ---- staging and timing ---------------------------------------------------------------------------

def stage(corpus: Path, dest: Path, folders=tuple(STAGED_AS)) -> list[Path]:
    """Each corpus file of `folders` at the path its host reads it from, in a project folder of its own."""
    paths = []
    for n, source in enumerate(p for folder in folders for p in sorted((corpus / folder).iterdir()) if p.is_file()):
        folder = source.parent.name
        relative = STAGED_AS[folder] or (".claude/settings.local.json" if source.name.endswith("settings.local.json")
                                          else ".claude/settings.json")
        target = dest / f"f{n:03d}" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        paths.append(target)
    return paths


def timed(commands: dict[str, list[str]], *, cwd: Path, env: dict, repeat: int,
          extra_env: dict[str, dict] | None = None) -> dict[str, tuple]:
    """Per command: (best, median) seconds (wall, or CPU with --clock cpu) over `repeat` runs, and the last run's stdout and
    stderr. The commands take turns (a, b, c, a, b, c...) so that a busy moment of the machine
    falls on all of them alike; one untimed run each first (bytecode caches, disk cache).
    `extra_env`: variables for some of the commands only, by name."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    last: dict[str, tuple[str, str]] = {}
    for round_ in range(repeat + 1):
        for name, argv in commands.items():
            started, used = time.perf_counter(), _children_cpu()
            proc = subprocess.run(argv, cwd=cwd, env={**env, **(extra_env or {}).get(name, {})}, capture_output=True,
                                  text=True)
            if round_:
                times[name].append(_children_cpu() - used if CLOCK == "cpu" else time.perf_counter() - started)
            if proc.returncode not in (0, 1, 2):  # doctor: 2 when a file cannot be parsed (the report is complete)
                raise SystemExit(f"{argv[0]} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
            last[name] = (proc.stdout, proc.stderr)
    return {name: (min(t), statistics.median(t), *last[name]) for name, t in times.items()}


def _children_cpu() -> float:
    """The CPU seconds (user and system) of every child process waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


CLOCK = "wall"  # --clock: what a timing measures, the wall time or the process's CPU time
BASELINE: Path | None = None  # --baseline: an older checkout timed beside this one
PYTHON = sys.executable  # --python: the interpreter whose hookwright (and typer) every command runs
BASE = " @ baseline"


def with_baseline(commands: dict[str, list[str]], *names: str) -> tuple[dict[str, list[str]], dict[str, dict]]:
    """The commands, and with --baseline each named one again run by the baseline checkout."""
    if BASELINE is None:
        return commands, {}
    extra = {name + BASE: {"PYTHONPATH": str(BASELINE)} for name in names}
    return {**commands, **{name + BASE: _from_checkout(commands[name]) for name in names}}, extra


def _from_checkout(argv: list[str]) -> list[str]:
    """`-m hookwright` as a checkout on PYTHONPATH runs it: by its folder's name, installer (the
    import name hookwright is the installed package's, which is this checkout's)."""
    return [("installer" if part == "hookwright" and argv[index - 1] == "-m" else part)
            for index, part in enumerate(argv)]


def baseline_rows(runs: dict, name: str, label: str, *cells) -> list[list]:
    """Table rows for the baseline's run of `name`, if there is one, with this run's speed-up."""
    if name + BASE not in runs:
        return []
    return [[f"{label} (baseline {BASELINE.name}; this one is {runs[name + BASE][0] / runs[name][0]:.2f}x as fast)",
             *cells, *_times(runs[name + BASE])]]


def doctor_argv(paths: list[Path]) -> list[str]:
    return [PYTHON, "-m", "hookwright", "doctor", *map(str, paths), "--format", "json"]


# doctor as it starts (collector off, the same CLI, discovery, strict reading, context, report),
# with every check switched off: what the run costs before any rule runs. The ratio targets are
# measured against it: what a target leaves above this is all the rules may take.
NO_CHECKS = """import gc, sys
gc.disable()
from hookwright.doctor import run
run.findings.__defaults__ = ((),) + run.findings.__defaults__[1:]  # no checks; the other defaults kept
from hookwright.cli import entry
entry()
"""


def no_checks_argv(paths: list[Path]) -> list[str]:
    return [PYTHON, "-c", NO_CHECKS, "doctor", *map(str, paths), "--format", "json"]


def rule_budget(label: str, target: float, reference: float, parsed: float, no_checks: float, doctor: float,
                handlers: int) -> None:
    """What a target of `target` x `reference` leaves for the rules, per handler, above each floor
    (typer + reading and parsing the files; doctor with every check off), beside what the rules
    take now (doctor's time above its own no-check run)."""
    allowed = target * reference
    now = (doctor - no_checks) / handlers * 1e6
    floors = {"typer + reading and parsing": parsed, "doctor, every check off": no_checks}
    print(f"{label}: the target allows {allowed:.3f} s; the rules take {now:.0f} us per handler now "
          f"({handlers:,} handlers). Left for all the rules, per handler, above:")
    for name, floor in floors.items():
        left = (allowed - floor) / handlers * 1e6
        print(f"  {name} ({floor:.3f} s, {floor / reference:.2f}x): {left:.0f} us"
              + (" (nothing: the floor is over the target)" if left <= 0 else " (the rules are within it)"
                 if now <= left else f" (the rules must take {now / left:.1f}x less than now)"))


def environment(home: Path) -> dict:
    """The caller's environment without its agent and hookwright settings, and with bytecode
    caching on (PYTHONDONTWRITEBYTECODE would make every run compile hookwright from source,
    which no installed copy does)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CLAUDE", "HOOKWRIGHT", "XDG_")) and k != "PYTHONDONTWRITEBYTECODE"}
    env.update(HOME=str(home), PYTHONPATH=str(REPO), AGNIX_TELEMETRY="0", DO_NOT_TRACK="1")
    return env


def table(header: list[str], rows: list[list]) -> None:
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]
    print("| " + " | ".join(str(h).ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(str(x).ljust(w) for x, w in zip(row, widths)) + " |")


# ---- part 1: doctor and agnix over a tree of projects ---------------------------------------------

PARSE_ONLY = """import json, sys
for path in sys.argv[1:]:
    try:
        json.loads(open(path, 'rb').read())
    except ValueError:
        pass
"""


def compare(corpus: Path, work: Path, repeat: int) -> None:
    agnix = shutil.which("agnix")
    env = environment(work / "home")
    (work / "home").mkdir()
    tree = stage(corpus, work / "tree", folders=("claude-settings",))
    copies = [p for k in range(4) for p in stage(corpus, work / "monorepo" / f"copy{k}", folders=("claude-settings",))]
    print(f"## 1. A tree of {len(tree)} projects, one Claude Code settings file each (one run names them all; "
          f"best of {repeat})\n")
    commands = {"doctor": doctor_argv(tree),
                "no checks": no_checks_argv(tree),
                "python": [PYTHON, "-c", "pass"],
                # the least any Python linter does: read and parse every file (and import a CLI framework)
                "parse": [PYTHON, "-c", PARSE_ONLY, *map(str, tree)],
                "parse+cli": [PYTHON, "-c", "import typer\n" + PARSE_ONLY, *map(str, tree)],
                "doctor x4": doctor_argv(copies)}
    if agnix:
        commands["agnix"] = [agnix, "--format", "json", *map(str, tree)]
        commands["agnix x4"] = [agnix, "--format", "json", *map(str, copies)]
    commands, extra = with_baseline(commands, "doctor", "doctor x4")
    runs = timed(commands, cwd=work, env=env, repeat=repeat, extra_env=extra)

    def findings(name: str) -> int:
        doc = json.loads(runs[name][2])
        return len(doc["findings"] if "findings" in doc else doc["diagnostics"])

    rows = [["python -c pass", "-", *_times(runs["python"]), "-"],
            ["python reading and json-parsing the files, nothing else", len(tree), *_times(runs["parse"]), "-"],
            ["  the same after importing typer", len(tree), *_times(runs["parse+cli"]), "-"],
            ["hookwright doctor, every check off (reads, discovers, reports)", len(tree),
             *_times(runs["no checks"]), findings("no checks")],
            ["hookwright doctor", len(tree), *_times(runs["doctor"]), findings("doctor")],
            *[row + ["-"] for row in baseline_rows(runs, "doctor", "  the same", len(tree))],
            ["hookwright doctor, four copies of the tree", len(copies), *_times(runs["doctor x4"]),
             findings("doctor x4")],
            *[row + ["-"] for row in baseline_rows(runs, "doctor x4", "  the same", len(copies))]]
    if agnix:
        version = subprocess.run([agnix, "--version"], capture_output=True, text=True).stdout.strip()
        rows += [[version, len(tree), *_times(runs["agnix"]), findings("agnix")],
                 [f"{version}, four copies of the tree", len(copies), *_times(runs["agnix x4"]), findings("agnix x4")]]
    table(["command", "files", f"best {CLOCK} s", f"median {CLOCK} s", "findings"], rows)
    d_best, d4_best = runs["doctor"][0], runs["doctor x4"][0]
    print(f"\ngrowth: {d4_best / d_best:.2f}x the time for 4x the files")
    if agnix:
        a_best = runs["agnix"][0]
        print(f"ratio doctor / agnix on the tree (best {CLOCK}): {d_best / a_best:.2f}x (target: at most 2.5x); "
              f"four copies: {d4_best / runs['agnix x4'][0]:.2f}x")
        print(f"floor for a Python CLI: reading, parsing and importing typer alone is "
              f"{runs['parse+cli'][0] / a_best:.2f}x agnix")
        print(f"doctor with every check off is {runs['no checks'][0] / a_best:.2f}x agnix")
        rule_budget("2.5x agnix on the tree", 2.5, a_best, runs["parse+cli"][0], runs["no checks"][0],
                    d_best, json.loads(runs["doctor"][2])["summary"]["handlers"])
    print()
    sharing(tree, work, env, repeat)
    breakdown(tree, work / "tree", env["HOME"])
    if agnix:
        defect_classes(corpus, work / "all", env, agnix)


def sharing(tree: list[Path], work: Path, env: dict, repeat: int) -> None:
    """Where sharing the projects out between processes pays (installer/doctor/parallel.py):
    the first N projects of the tree, checked by one process and by as many as there are cores
    (pinned, whatever the size: the table is what the threshold is chosen from)."""
    rows = []
    cores = len(os.sched_getaffinity(0))
    for count in (10, 30, 90, len(tree)):
        paths = tree[:count]
        commands = {"one": doctor_argv(paths), "shared": doctor_argv(paths)}
        runs = timed(commands, cwd=work, env=env, repeat=repeat,
                     extra_env={"one": {"HOOKWRIGHT_WORKERS": "1"}, "shared": {"HOOKWRIGHT_WORKERS": str(cores)}})
        handlers = json.loads(runs["one"][2])["summary"]["handlers"]
        rows.append([count, handlers, *_times(runs["one"]), *_times(runs["shared"]),
                     f"{runs['one'][0] / runs['shared'][0]:.2f}x"])
    print(f"Sharing the projects out ({cores} cores; on its own, doctor shares from "
          f"{_min_handlers()} handlers on)\n")
    table(["projects", "handlers", "one process best s", "median s", "shared best s", "median s", "speed-up"], rows)
    print()


def _min_handlers() -> int:
    sys.path.insert(0, str(REPO))
    from hookwright.doctor.parallel import MIN_HANDLERS

    return MIN_HANDLERS


def _times(run: tuple) -> list[str]:
    return [f"{run[0]:.3f}", f"{run[1]:.3f}"]


def defect_classes(corpus: Path, work: Path, env: dict, agnix: str) -> None:
    """Which defect classes each tool reports over every hook config of the corpus (one run each)."""
    paths = stage(corpus, work)

    def run(argv: list[str]) -> dict:
        return json.loads(subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True).stdout)

    doctor_doc, agnix_doc = run(doctor_argv(paths)), run([agnix, "--format", "json", *map(str, paths)])
    found: dict[str, dict[str, set]] = defaultdict(lambda: {"doctor": set(), "agnix": set()})
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"doctor": 0, "agnix": 0})
    for finding in doctor_doc["findings"]:
        cls = doctor_class(finding["rule"])
        found[cls]["doctor"].add(Path(finding["path"]).resolve())
        counts[cls]["doctor"] += 1
    for diag in agnix_doc["diagnostics"]:
        cls = agnix_class(diag["rule"], diag.get("message", ""))
        found[cls]["agnix"].add((work / diag["file"]).resolve())
        counts[cls]["agnix"] += 1
    rows = []
    for cls in sorted(found, key=lambda c: (-len(found[c]["doctor"] & found[c]["agnix"]), c)):
        d, a = found[cls]["doctor"], found[cls]["agnix"]
        rows.append([cls, f"{len(d)} ({counts[cls]['doctor']})" if d else "-",
                     f"{len(a)} ({counts[cls]['agnix']})" if a else "-", len(d & a) if d and a else "-"])
    print(f"Defect classes over all {len(paths)} hook config files of the corpus: files with at least one finding "
          f"(findings)\n")
    table(["defect class", "doctor", "agnix", "files both"], rows)
    print()


def breakdown(paths: list[Path], project: Path, home: str) -> None:
    """Where doctor's time goes, in-process (no interpreter start): reading, then each check, on a
    first (cold) and a second (warm caches) pass."""
    os.environ["HOME"] = home
    sys.path.insert(0, str(REPO))
    started = time.perf_counter()
    from hookwright.doctor import discovery, load
    from hookwright.doctor.model import Context
    from hookwright.doctor.run import check_functions
    from hookwright.hooks.events import BUILTIN_TOOLS

    checks = check_functions()
    imported = time.perf_counter() - started
    rows = {"import doctor modules": [imported, 0.0]}
    for run_number in (0, 1):
        started = time.perf_counter()
        files = [load.read(c) for c in discovery.given_candidates(paths, project)]
        ctx = Context(files, [h for f in files for h in load.handlers(f)], tools=list(BUILTIN_TOOLS), project=project)
        rows.setdefault("discover + read files", [0.0, 0.0])[run_number] = time.perf_counter() - started
        for check in checks:
            started = time.perf_counter()
            list(check(ctx))
            rows.setdefault(f"check {check.__module__.rsplit('.', 1)[-1]}", [0.0, 0.0])[run_number] = \
                time.perf_counter() - started
    print("Where doctor's time goes (in-process, seconds):\n")
    table(["step", "first run", "second run"], [[k, f"{a:.3f}", f"{b:.3f}" if b else "-"] for k, (a, b) in rows.items()])
    print()


# ---- part 2: synthetic settings files ---------------------------------------------------------------

REWRITER = ('import json, sys\ndata = json.load(sys.stdin)\nprint(json.dumps({"hookSpecificOutput": '
            '{"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": data["tool_input"]}}))\n')
OBSERVER = 'import json, sys\njson.load(sys.stdin)\nprint("{}")\n'
MATCHERS = ["Bash", "Edit|Write", "Read", "mcp__srv__.*", "Web.*", "*", "Task", "mcp__.*__query", "Notebook.*",
            "Grep|Glob", "^Bash$", "Bash|Read|Edit"]
EVENTS = ["PreToolUse"] * 5 + ["PostToolUse"] * 3 + ["Stop", "SessionStart"]


def synthetic(project: Path, handlers: int) -> Path:
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True, exist_ok=True)
    for i in range(20):
        (hooks / f"h{i}.py").write_text(REWRITER if i % 5 == 0 else OBSERVER)
        (hooks / f"s{i}.sh").write_text("#!/bin/sh\ncat >/dev/null\necho '{}'\n")
        (hooks / f"s{i}.sh").chmod(0o755)
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"srv": {"command": "srv"}}}))
    config: dict = {"hooks": {}}
    for i in range(handlers):
        event = EVENTS[i % len(EVENTS)]
        kind = i % 10
        if kind < 6:
            command = f'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/h{i % 20}.py --id {i}'
        elif kind < 8:
            command = f'"$CLAUDE_PROJECT_DIR"/.claude/hooks/s{i % 20}.sh {i}'
        elif kind == 8:
            command = f"npx -y hook-tool-{i % 7} --id {i}"
        else:
            command = f'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/missing{i % 3}.py --id {i}'
        groups = config["hooks"].setdefault(event, [])
        if not groups or len(groups[-1]["hooks"]) >= 10:
            group: dict = {"hooks": []}
            if event in ("PreToolUse", "PostToolUse"):
                group["matcher"] = MATCHERS[len(groups) % len(MATCHERS)]
            groups.append(group)
        groups[-1]["hooks"].append({"type": "command", "command": command, "timeout": 10})
    path = project / ".claude" / "settings.json"
    path.write_text(json.dumps(config, separators=(",", ":")))
    return path


def scaling(work: Path, sizes: list[int], repeat: int) -> None:
    print(f"## 2. Synthetic settings files (doctor CLI, fresh process each run, best of {repeat})\n")
    agnix = shutil.which("agnix")
    home = work / "home2"
    home.mkdir()
    env = environment(home)
    rows, previous, last_ratio = [], None, None
    budget: tuple[float, float, float, float, int] | None = None
    for size in sizes:
        project = work / f"synthetic-{size}"
        path = synthetic(project, size)
        commands = {"doctor": doctor_argv([path]), "no checks": no_checks_argv([path]),
                    "typer": [PYTHON, "-c", "import typer\n" + PARSE_ONLY, str(path)]}
        if agnix:
            commands["agnix"] = [agnix, "--format", "json", str(path)]
        commands, extra = with_baseline(commands, "doctor")
        runs = timed(commands, cwd=project, env=env, repeat=repeat, extra_env=extra)
        best, median, out, _ = runs["doctor"]
        doc = json.loads(out)
        growth = f"{best / previous[1]:.1f}x for {size // previous[0]}x handlers" if previous else "-"
        row = [size, f"{path.stat().st_size / 1e6:.2f}", f"{best:.3f}", f"{median:.3f}",
               f"{best / size * 1000:.3f}", growth, len(doc["findings"]), f"{runs['no checks'][0]:.3f}"]
        if BASELINE is not None:
            row.append(f"{runs['doctor' + BASE][0]:.3f} ({runs['doctor' + BASE][0] / best:.2f}x)")
        a_out = ""
        if agnix:
            a_best, _, a_out, a_err = runs["agnix"]
            try:
                row.append(f"{a_best:.3f} ({len(json.loads(a_out)['diagnostics'])} findings)")
            except ValueError:
                row.append("refused: " + (a_err.strip().splitlines() or ["no output"])[-1][:60])
        rows.append(row)
        previous = (size, best)
        last_ratio = f"{best / a_best:.2f}x" if agnix and a_out.strip() else None
        if last_ratio:
            budget = (a_best, runs["typer"][0], runs["no checks"][0], best, size)
    header = ["handlers", "file MB", "best s", "median s", "ms/handler", "growth", "findings",
              "every check off best s", *([f"baseline {BASELINE.name} best s (this one: x as fast)"] if BASELINE is not None else [])]
    table(header + (["agnix best s"] if agnix else []), rows)
    if agnix and last_ratio:
        print(f"\nratio doctor / agnix on {sizes[-1]:,} handlers (best {CLOCK}): {last_ratio} (target: at most 2x)")
    if budget:
        rule_budget(f"2x agnix on {size:,} handlers", 2, *budget)
    print("\n(The files are compact JSON. agnix refuses files over 1 MiB, so indented 10,000-handler files are "
          "beyond it; it also resolves $CLAUDE_PROJECT_DIR to '/', so it calls the synthetic project's scripts "
          "missing.)")
    print()


# ---- part 3: one typical settings file ---------------------------------------------------------------

TYPICAL = {  # what a project's settings often hold: a guard, a formatter, a notifier, one of our packs
    "permissions": {"allow": ["Bash(npm run test *)", "Read"], "deny": ["Read(.env)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', "timeout": 10, "shell": "bash"},
            {"type": "command", "command": 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard'
                                           ' --host claude', "timeout": 10}]}],
        "PostToolUse": [{"matcher": "Edit|Write", "hooks": [
            {"type": "command", "command": "npx prettier --write \"$(jq -r .tool_input.file_path)\"", "timeout": 30}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo done >> /tmp/claude-stop.log"}]}],
    },
}


def one_file(work: Path, repeat: int) -> None:
    """One typical project settings file, text output (as a person or pre-commit runs it), against
    a bare typer start, beside the CLI's own start-up, the bare interpreter and agnix."""
    project = work / "typical"
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "guard.sh").write_text("#!/bin/sh\ncat >/dev/null\necho '{}'\n")
    (hooks / "guard.sh").chmod(0o755)
    path = project / ".claude" / "settings.json"
    path.write_text(json.dumps(TYPICAL, indent=2) + "\n")
    home = work / "home3"
    home.mkdir()
    env = environment(home)
    doctor = [PYTHON, "-m", "hookwright", "doctor", str(path)]
    commands = {"python -c pass": [PYTHON, "-c", "pass"],
                'python -c "import typer, json"': [PYTHON, "-c", "import typer, json"],
                # hookwright imports typer with the collector off (__main__.py): the same start, stricter
                "  the same with the collector off": [PYTHON, "-c", "import gc; gc.disable(); import typer, json"],
                "hookwright --version": [PYTHON, "-m", "hookwright", "--version"],
                "doctor (text)": doctor,
                "doctor --format json": doctor_argv([path])}
    agnix = shutil.which("agnix")
    if agnix:
        commands["agnix"] = [agnix, str(path)]
    commands, extra = with_baseline(commands, "doctor (text)")
    runs = timed(commands, cwd=project, env=env, repeat=repeat, extra_env=extra)
    print(f"## 3. One typical settings file ({len(TYPICAL['hooks'])} events, 4 handlers; fresh process each run, "
          f"best of {repeat})\n")
    table(["command", f"best {CLOCK} s", f"median {CLOCK} s"],
          [[name, f"{best:.3f}", f"{median:.3f}"] for name, (best, median, _, _) in runs.items()])
    text_best, typer_best = runs["doctor (text)"][0], runs['python -c "import typer, json"'][0]
    strict_best = runs["  the same with the collector off"][0]
    print(f"\nratio doctor (text) / a bare typer start (best {CLOCK}): {text_best / typer_best:.2f}x (target: at most "
          f"1.3x); {text_best - typer_best:.3f} s above it; {text_best / strict_best:.2f}x the start with the "
          f"collector off, as doctor starts")
    if "doctor (text)" + BASE in runs:
        base_best = runs["doctor (text)" + BASE][0]
        print(f"the baseline's doctor (text): {base_best / typer_best:.2f}x a bare typer start")
    print()
    importtime(doctor, project, env)


def importtime(argv: list[str], cwd: Path, env: dict, top: int = 12) -> None:
    """The modules that cost most to import on one doctor run, by their own time (python -X importtime)."""
    proc = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], cwd=cwd, env=env, capture_output=True, text=True)
    rows = []
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            own, cumulative, name = line[len("import time:"):].split("|")
            rows.append((int(own), int(cumulative), name.strip()))
    ours = sum(own for own, _, name in rows if name.startswith(("hookwright", "installer")))
    print(f"Imports on that run (python -X importtime): {len(rows)} modules, {sum(r[0] for r in rows) / 1000:.1f} ms "
          f"in all, {ours / 1000:.1f} ms of it hookwright's own; the costliest by their own time:\n")
    table(["module", "own ms", "with its imports ms"],
          [[name, f"{own / 1000:.1f}", f"{cumulative / 1000:.1f}"] for own, cumulative, name in sorted(rows)[::-1][:top]])
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--only", type=int, choices=(1, 2, 3), help="run one part")
    parser.add_argument("--baseline", type=Path, help="another hookwright checkout to time beside this one")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time each process's wall time, or the CPU time it used (steadier on a busy machine)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter to run: a virtual environment's with hookwright installed as users "
                             "install it (pip install .), rather than this editable checkout's")
    args = parser.parse_args()
    global BASELINE, PYTHON, CLOCK
    BASELINE = args.baseline.resolve() if args.baseline else None
    CLOCK = args.clock
    PYTHON = args.python
    with tempfile.TemporaryDirectory(prefix="hookwright-bench-") as scratch:
        work = Path(scratch)
        if args.only in (None, 1):
            if args.corpus.is_dir():
                compare(args.corpus, work, args.repeat)
            else:
                print(f"no corpus at {args.corpus}: part 1 skipped\n")
        if args.only in (None, 2):
            scaling(work, [int(s) for s in args.sizes.split(",")], args.repeat)
        if args.only in (None, 3):
            one_file(work, args.repeat)


if __name__ == "__main__":
    main()
