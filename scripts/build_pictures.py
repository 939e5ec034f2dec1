#!/usr/bin/env python3
"""Draw the README's terminal pictures (docs/pictures/*.svg): an install whose plan shows the
conflict it would introduce, and a doctor report. Each command runs in-process on a small demo
project in a throwaway home, so nothing real is read or written and the pictures come out the
same on every machine. A test fails while a picture differs from what this draws; run this
after changing what those commands print.

    python3 scripts/build_pictures.py           # write the pictures
    python3 scripts/build_pictures.py --check   # exit 1 if one is stale
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PICTURES = REPO / "docs" / "pictures"
WIDTH = 100

# A foreign hook that rewrites the input of every MCP call, as tests/test_plan_findings.py builds
# one: path-normalizer rewrites the same calls, so the last of the two to finish would win.
REWRITER = textwrap.dedent("""\
    import json, sys
    data = json.load(sys.stdin)
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                             "updatedInput": dict(data["tool_input"], path="/elsewhere")}}))
""")


def _command(script: str, quoted: bool = True, **handler) -> dict:
    where = '"$CLAUDE_PROJECT_DIR"' if quoted else "$CLAUDE_PROJECT_DIR"
    return {"type": "command", "command": f"python3 {where}/.claude/hooks/{script}", **handler}


# Each picture: the command, run from ~, the exit code it should give (anything else means the
# picture would not show what it is about) and the files of ~/demo it runs on.
SCENES = {
    "install-conflict.svg": (["install", "path-normalizer", "--project", "demo", "--dry-run"], 0, {
        ".mcp.json": {"mcpServers": {"fs": {"command": "fs-server"}}},
        ".claude/hooks/rewrite.py": REWRITER,
        ".claude/settings.json": {"hooks": {"PreToolUse": [{"matcher": "mcp__.*", "hooks": [_command("rewrite.py")]}]}},
    }),
    # typical mistakes: a matcher in the wrong case, an unquoted placeholder, a timeout in
    # milliseconds, a script that is not there
    "doctor-report.svg": (["doctor", "--project", "demo"], 1, {
        ".claude/hooks/guard.py": "import sys\nsys.exit(0)\n",
        ".claude/hooks/format.py": "import sys\nsys.exit(0)\n",
        ".claude/settings.json": {"hooks": {
            "PreToolUse": [{"matcher": "bash", "hooks": [_command("guard.py")]}],
            "PostToolUse": [{"matcher": "Edit|Write", "hooks": [_command("format.py", quoted=False, timeout=30000)]}],
            "Stop": [{"hooks": [_command("notify.py")]}],
        }},
    }),
}


@dataclass(frozen=True)
class Picture:
    name: str
    text: str  # what the terminal showed, without styles
    svg: str


def _write(path: Path, content: str | dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content, indent=2) + "\n", encoding="utf-8")


@contextlib.contextmanager
def _inside(home: Path):
    """Every place hookwright and the agents read or write inside `home`, and the working
    directory there; put back afterwards (a test's process goes on)."""
    saved, cwd = dict(os.environ), Path.cwd()
    # python3 on PATH is the interpreter itself, never a version manager's shim, which the install
    # plan would name in a note of this machine's
    interpreters = home / ".interpreters"
    interpreters.mkdir(parents=True, exist_ok=True)
    (interpreters / "python3").symlink_to(os.path.realpath(sys.executable))
    os.environ.update(PATH=os.pathsep.join((str(interpreters), os.environ.get("PATH", os.defpath))),
                      HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_STATE_HOME=str(home / ".state"),
                      XDG_DATA_HOME=str(home / ".data"), XDG_CACHE_HOME=str(home / ".cache"),
                      CLAUDE_CONFIG_DIR=str(home / ".claude"),
                      TTY_COMPATIBLE="1")  # doctor prints plain text unless it believes it is on a terminal
    os.chdir(home)
    try:
        yield
    finally:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(saved)


def _console(width: int):
    """A recording terminal that the environment cannot change (with a width but no height,
    rich takes 80x25 where TERM is dumb)."""
    from rich.console import Console

    return Console(record=True, width=width, height=25, force_terminal=True, color_system="truecolor",
                   no_color=False, highlight=False, file=io.StringIO())


def _run(argv: list[str], expected: int) -> str:
    """What `hookwright argv` prints on both streams, in ANSI. The CLI prints through the consoles
    hookwright.output.out() and err() build once; this swaps in one recording console for both,
    wide enough that no line wraps before the temporary paths in it are shortened."""
    from hookwright import cli, output

    console = _console(10_000)
    saved = output.out, output.err
    output.out = output.err = lambda: console
    try:
        cli.main(argv)  # always ends in sys.exit
    except SystemExit as done:
        if done.code != expected:
            raise RuntimeError(f"hookwright {' '.join(argv)} exited {done.code}, not {expected}") from None
    finally:
        output.out, output.err = saved
    return console.export_text(styles=True)


def _picture(name: str, argv: list[str], expected: int, home: Path) -> Picture:
    """The run with `~` for the home, wrapped at the README's width as a terminal would."""
    from rich.text import Text

    command = "hookwright " + " ".join(argv)
    console = _console(WIDTH)
    console.print(Text(f"~ $ {command}", style="bold"))
    console.print(Text.from_ansi(_run(argv, expected).replace(str(home), "~")), end="")
    return Picture(name, console.export_text(clear=False), console.export_svg(title=command))


def render(folder: Path) -> list[Picture]:
    """Every picture, each drawn in its own home in `folder` (an empty temporary folder)."""
    pictures = []
    for name, (argv, expected, files) in SCENES.items():
        home = folder.resolve() / Path(name).stem
        for path, content in files.items():
            _write(home / "demo" / path, content)
        with _inside(home):
            pictures.append(_picture(name, argv, expected, home))
    return pictures


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print("usage: python3 scripts/build_pictures.py [--check]", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        pictures = render(Path(folder))
    if argv == ["--check"]:
        stale = [f"docs/pictures/{p.name}" for p in pictures
                 if not (PICTURES / p.name).is_file() or (PICTURES / p.name).read_text(encoding="utf-8") != p.svg]
        if stale:
            print(f"stale: {', '.join(stale)}; run python3 scripts/build_pictures.py", file=sys.stderr)
        return 1 if stale else 0
    for picture in pictures:
        _write(PICTURES / picture.name, picture.svg)
        print(f"wrote {PICTURES / picture.name}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main(sys.argv[1:]))
