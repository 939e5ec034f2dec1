"""The shell reader: what a hook's command runs, read without running it (resolve.py is its entry).

Here, what it reports (every module of the reader and its callers read these): each simple
command's program and file (Invocation), the whole command's (Resolution), and what the
command's placeholders and relative paths mean for one config file (Where)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from ...records import Record

# ---- results ---------------------------------------------------------------------------------

class Invocation(Record):
    """One simple command in the string: what it runs and which file, if any."""

    executable: str  # the program as the shell sees it after expansion ("python3", "/abs/x.sh", "npx")
    program: str | None = None  # a bare name the shell looks up on PATH ("python3", "node", "rtk")
    interpreter: str | None = None  # set when a script runs through a program ("python3", "uv run", "source")
    script: str | None = None  # the file it runs, as written after expansion (may be relative)
    path: Path | None = None  # that file, absolute; None when it cannot be known statically
    direct: bool = False  # the file itself is executed (needs its executable bit)
    relative: bool = False  # the file's path is relative to the directory the host was started in
    runner: bool = False  # a package runner (npx, uvx...): runs a package, not a file
    inline: bool = False  # the interpreter runs code given inline (-c, -e, -m module)
    dynamic: str | None = None  # why the file cannot be known statically ($(...), a variable...)
    guarded: bool = False  # a `test -f`/`[ -x ]` on the same file runs first
    program_guarded: bool = False  # a `command -v`/`type`/`hash`/`which` of its program runs first
    tolerated: bool = False  # its failure cannot fail the hook: `... || true`, `... || exit 0`, `... &`
    sets_status: bool = True  # its exit status can become the hook's (nothing runs after it, no pipe, no ||)


class Resolution(Record):
    form: str  # "shell" | "exec" | "none" (not a command handler, or no command)
    invocations: tuple[Invocation, ...] = ()
    main: Invocation | None = None  # the one that does the hook's work (the script it runs, if any)
    dynamic: str | None = None  # the whole command could not be read (PowerShell, a `for` loop...)
    home_paths: tuple[str, ...] = ()  # hard-coded home directories in the command (/Users/x/, /home/x/)
    # host path placeholders outside double quotes in a word that names a file or a `cd` target
    unquoted: tuple[str, ...] = ()
    broken: str | None = None  # why the host cannot start the command at all
    # shell form: the words the shell runs, expanded, the script as its absolute path (so that
    # `"$CLAUDE_PROJECT_DIR"/x.sh` and `"${CLAUDE_PROJECT_DIR}/x.sh"` compare equal); None if dynamic
    runs: tuple[str | Path, ...] | None = None

    @property
    def resolved(self) -> bool:
        """Everything the main invocation runs is known statically."""
        return self.dynamic is None and self.main is not None and self.main.dynamic is None

    @property
    def executable(self) -> str | None:
        return self.main.executable if self.main else None

    @property
    def interpreter(self) -> str | None:
        return self.main.interpreter if self.main else None

    @property
    def script(self) -> Path | None:
        return self.main.path if self.main else None

    @property
    def launch_dependent(self) -> bool:
        return any(i.relative for i in self.invocations)

    @property
    def scripts(self) -> tuple[Invocation, ...]:
        """Every invocation that runs a file we can name (the ones to check on disk)."""
        return tuple(i for i in self.invocations if i.path is not None)

    def to_json(self) -> dict[str, Any]:
        main = self.main
        return {"form": self.form, "resolved": self.resolved, "dynamic": self.dynamic or (main.dynamic if main else None),
                "executable": self.executable, "interpreter": self.interpreter,
                "script": str(self.script) if self.script else None,
                "launch_dependent": self.launch_dependent, "home_paths": list(self.home_paths)}


class Where(Record):
    """What the command's placeholders and relative paths mean for one config file."""

    project: Path | None = None  # $CLAUDE_PROJECT_DIR (and Cursor's $CURSOR_PROJECT_DIR)
    plugin_root: Path | None = None  # ${CLAUDE_PLUGIN_ROOT}
    home: Path | None = None  # $HOME and ~
    cwd: Path | None = None  # the working directory the host gives the command
    cwd_is_launch_dir: bool = True  # cwd is "wherever the host was started" (Claude Code), not a fixed folder
    env: tuple[tuple[str, str], ...] = ()  # other variables known to be set (name, value)

    @property
    def variables(self) -> dict[str, str | None]:
        """The values the placeholders stand for (None: set, but only known when the hook runs);
        computed once per Where, and never changed."""
        return _variables(self)


# `$(git rev-parse --show-toplevel)`, the project's folder for a host with no project variable
# (Codex): known ahead where the project holds the top of its work tree, from the folder the command
# starts in up to the project's (a work tree above the project depends on where it was checked out)
GIT_TOP = "git rev-parse --show-toplevel"


class _Known(dict[str, "str | None"]):
    """The placeholders' values; the work tree's top (a stat of `.git` in each folder up to the
    project) is looked for only when a command asks for it, then kept."""

    def __init__(self, where: Where) -> None:
        super().__init__(where.env)
        self.where = where

    def get(self, name: str, default: str | None = None) -> str | None:  # type: ignore[override]
        if name == GIT_TOP and name not in self:
            self[name] = _work_tree_top(self.where)
        return super().get(name, default)


@lru_cache(maxsize=1024)
def _variables(where: Where) -> dict[str, str | None]:
    known = _Known(where)
    for name, value in (("CLAUDE_PROJECT_DIR", where.project), ("CURSOR_PROJECT_DIR", where.project),
                        ("CLAUDE_PLUGIN_ROOT", where.plugin_root), ("CURSOR_PLUGIN_ROOT", where.plugin_root),
                        ("HOME", where.home), ("PWD", where.cwd or where.project)):
        known[name] = str(value) if value is not None else None
    return known


def _work_tree_top(where: Where) -> str | None:
    if where.project is None:
        return None
    start = where.cwd or where.project
    chain = (start, *start.parents)
    folders = chain[:chain.index(where.project) + 1] if where.project in chain else (where.project,)
    return next((str(folder) for folder in folders if (folder / ".git").exists()), None)
