"""The README's examples are what the commands print: its session is run as shown, command by
command, in a fresh home with a git repository ~/demo, and what each prints is compared with
what the README shows (ids, times and durations aside: they differ on every run); then each
line of its list of more commands is run there and must work."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from hookwright import resources

README = resources.data_root() / "README.md"
VARYING = [  # what differs from run to run, and what it is compared as
    (re.compile(r"\d{8}-\d{6}\.\d{6}-[0-9a-f]{4}"), "<id>"),
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d|\b\d\d:\d\d:\d\d\b"), "<time>"),
    (re.compile(r"\d+(?:\.\d+)? ms\b"), "<n> ms"),
]


def _block(after: str, kind: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"```{kind}\n", text.index(after)) + len(kind) + 4
    return text[start:text.index("```", start)]


def session() -> list[tuple[str, list[str]]]:
    """The README's session: (command line, the lines it prints)."""
    steps: list[tuple[str, list[str]]] = []
    for line in _block("A session, as it prints", "console").splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


def normal(lines: list[str], home: Path | None = None) -> list[str]:
    shown = []
    for line in lines:
        if home is not None:
            line = line.replace(str(home), "~")
        for pattern, said in VARYING:
            line = pattern.sub(said, line)
        shown.append(line.rstrip())
    while shown and not shown[-1]:
        shown.pop()
    return shown


def _environment(home: Path) -> dict[str, str]:
    """The test's home, and python3 on PATH the interpreter itself (no version manager's shim)."""
    return {"HOME": str(home), "XDG_STATE_HOME": str(home / ".local" / "state"),
            "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
            "PYTHONPATH": str(resources.data_root()), "LANG": "C.UTF-8"}


def _shell(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    program = f'hookwright() {{ "{sys.executable}" -m hookwright "$@"; }}\n{line}\n'
    return subprocess.run(["bash", "-c", program], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_the_readme_session_prints_what_the_readme_shows(home):
    demo = home / "demo"
    (demo / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(demo)], check=True)
    env, cwd = _environment(home), home
    for line, shown in session():
        if line.startswith("cd "):
            cwd = (cwd / line[3:].replace("~", str(home))).resolve()
            continue
        ran = subprocess.run(["bash", "-c", f'hookwright() {{ "{sys.executable}" -m hookwright "$@"; }}\n{line} 2>&1'],
                             cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        assert normal(ran.stdout.splitlines(), home) == normal(shown), f"$ {line}\n{ran.stdout}"


def test_every_command_the_readme_lists_works_as_written(home):
    demo = home / "demo"
    demo.mkdir()
    subprocess.run(["git", "init", "-q", str(demo)], check=True)
    (demo / "prompt.json").write_text('{"prompt": "hi"}')
    env = _environment(home)
    for line in _block("More (each runs as written", "sh").splitlines():
        ran = _shell(line.split("   #")[0], demo, env)
        said = ran.stdout + ran.stderr
        assert ran.returncode in (0, 1) or ran.returncode == 3 and "needs confirmation" in said, f"{line}\n{said}"
        if ran.returncode == 3:  # what a person on a terminal says yes to
            assert _shell(line.split("   #")[0] + " --yes", demo, env).returncode == 0, line
        assert "internal error" not in said
