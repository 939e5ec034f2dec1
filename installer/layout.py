"""Where hookwright's own files are: the user folders it keeps (state, config) and the names of
what it puts beside a host's config. Each host's own files are that host adapter's to know
(installer/hosts/); the hook runtimes find the same user folders with their own stdlib reading
(templates/runtime/hookwright_runtime.py), and tests/test_layout.py holds the two together."""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "hookwright"

# beside a host's config
RUNTIME_FOLDER = "hookwright"  # <config folder>/hookwright/<pack>/: a pack's runtime files and receipt
LOCAL_RUNTIME_FOLDER = "hookwright-local"  # Claude Code's local scope: personal, git-ignored
RUNTIME_FOLDERS = frozenset({RUNTIME_FOLDER, LOCAL_RUNTIME_FOLDER})
RECEIPT = "receipt.json"  # in each pack's runtime folder: what we installed there (state.Receipt)
COMMANDS = "commands.json"  # in a command pack's runtime folder: each hook's command (hookwright_runtime.COMMANDS_FILE)
PLUGIN_PREFIX = "hookwright-"  # opencode: one plugin file per pack, hookwright-<pack>.js
TEMP_MARK = ".hookwright-tmp-"  # in the name of a temp file atomic.py writes beside its target
DECISION_LOG = "decisions.jsonl"  # the runtimes' log of what they decided (hookwright_runtime.DECISION_LOG)
# what a runtime's command starts: whatever python3 is on PATH where the hook runs (the portable
# command; interpreter.py offers an absolute path in its place)
DEFAULT_PYTHON = "python3"


# in a project: hookwright's config files that may hold its list of packs (team.py), and the table
PACK_LIST_FILES = ((".hookwright.toml", ("packs",)), ("pyproject.toml", ("tool", "hookwright", "packs")))


def pack_list_files(project: Path) -> list[tuple[Path, tuple[str, ...]]]:
    """hookwright's project config files at or above `project`, nearest first, each with the
    table that would list packs (no file is read: doctor asks on every run, and loads team.py
    only where there is one)."""
    return [(folder / name, keys) for folder in [project.absolute(), *project.absolute().parents]
            for name, keys in PACK_LIST_FILES if (folder / name).is_file() and not (folder / name).is_symlink()]


def is_temp_name(name: str) -> bool:
    """A temp file of ours (written beside its target, then renamed over it)."""
    return name.startswith(".") and TEMP_MARK in name


def stale_temps(folder: Path) -> list[Path]:
    """The temp files a killed run left in a folder, sorted: ours, and no longer being written
    (their writer's process is gone), so that a write that takes no lock of ours is never cut
    short by another run's clean-up."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [folder / name for name in sorted(names) if is_temp_name(name) and not _writer_alive(name)]


def _writer_alive(name: str) -> bool:
    """Whether the process whose pid the temp file's name carries (.<file>.hookwright-tmp-<pid>-...)
    still runs; a name without one is an older hookwright's, and left behind. On Windows, where
    signal 0 is no liveness test (it is CTRL_C_EVENT), every temp file counts as left behind."""
    written = name.split(TEMP_MARK, 1)[1].split("-", 1)[0]
    if os.name != "posix" or not (written.isascii() and written.isdigit()):
        return False
    pid = int(written)
    if not 0 < pid < 1 << 22 or pid == os.getpid():  # (Linux pids stay under 2**22)
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (another user's process: alive)
        return True
    return True


def plugin_file(pack: str) -> str:
    return f"{PLUGIN_PREFIX}{pack}.js"


# ask-guard's preferences (its runtime reads the same names: ask_guard_common.USER_PREFS, PROJECT_PREFS)
USER_PREFS = "ask-guard.json"  # in config_dir()
PROJECT_PREFS = Path(".claude") / "hookwright-prefs.json"  # in the project


# git-guard's rules files (its runtime reads the same names: git_guard.USER_RULES, PROJECT_RULES, HOST_FOLDERS)
GIT_GUARD_USER_RULES = "git-guard.json"  # in config_dir()
GIT_GUARD_PROJECT_RULES = {"claude": Path(".claude") / "hookwright-git-guard.json",  # in the project, per host
                           "cursor": Path(".cursor") / "hookwright-git-guard.json",
                           "opencode": Path(".opencode") / "hookwright-git-guard.json"}


def state_dir() -> Path:
    """The journal, backups and locks (and the runtimes' error log): $XDG_STATE_HOME/hookwright."""
    import platformdirs  # the writing side only: 3.7 ms on every command's start otherwise (python -X importtime)

    return Path(platformdirs.user_state_dir(APP, appauthor=False))


def config_dir() -> Path:
    """The user's settings for the packs (ask-guard's preferences, git-guard's rules)."""
    import platformdirs

    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def runtime_config_dir() -> Path:
    """Where the pack runtimes read the user's settings from (hookwright_runtime.config_dir, a
    test holds the two equal): what doctor checks there is what the runtimes read, and it costs
    doctor no platformdirs (5 ms or more to import, beside a run that needs nothing else of it)."""
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if sys.platform == "darwin" and not xdg:
        return Path.home() / "Library" / "Application Support" / APP
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".config") / APP


def hooks_log() -> Path:
    """The runtimes' error log: $HOOKWRIGHT_LOG, else hooks.log in the state folder (hookwright_runtime.log_path)."""
    return Path(os.environ.get("HOOKWRIGHT_LOG") or state_dir() / "hooks.log")


def decision_log() -> Path:
    """The runtimes' decision log, beside their error log (hookwright_runtime.decisions_path); the
    one before it, once it grew past its bound, is <log>.1."""
    return hooks_log().parent / DECISION_LOG


def journal() -> Path:
    return state_dir() / "journal.jsonl"


def backups() -> Path:
    return state_dir() / "backups"


def locks() -> Path:
    return state_dir() / "locks"


def user_prefs() -> Path:
    return config_dir() / USER_PREFS


def project_prefs(project: Path) -> Path:
    return project.resolve() / PROJECT_PREFS


def valid_pack_name(name: object) -> bool:
    """A pack's name as schemas/pack.schema.json allows it (lowercase words joined by -): it names
    a folder, so a receipt or journal that says `../x` or `a/b` names no pack."""
    return (isinstance(name, str) and 0 < len(name) <= 40 and name.isascii() and name[0].isalpha()
            and name[0].islower() and all(c.islower() or c.isdigit() or c == "-" for c in name)
            and "--" not in name and not name.endswith("-"))
