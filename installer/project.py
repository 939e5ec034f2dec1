"""Which project a command acts on: the folder --project names, else the one the working folder
is in, found as git finds its repository.

Walking up from the working folder, the project is the nearest folder that holds an agent's
project config folder (each host's places name its own: `.claude`, `.cursor`, `.opencode`),
looking no further than the root of the git repository the folder is in; else that git root;
else the working folder itself. The home folder is never a project found this way: `~/.claude`
and `~/.cursor` are the user scope, and `~/.opencode` is where opencode installs itself.
Reading the folders needs no git: a `.git` folder (or a worktree's `.git` file) marks the root.
"""
from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from . import hosts


def project_of(given: Path | None) -> Path:
    """The project a command acts on: `given` (--project), else the one found from the working folder."""
    return given.absolute() if given is not None else found(Path.cwd())


def found(start: Path) -> Path:
    """The project `start` is in (see the module's docstring), absolute."""
    start = start.absolute()
    home = _real(Path.home())
    for folder in (start, *start.parents):
        if _real(folder) != home and any(_is_project_folder(folder / name) for name in _markers()):
            return folder
        if (folder / ".git").exists():
            return folder
    return start


def away_from(project: Path) -> bool:
    """Whether the project is not the working folder (the output then names it)."""
    return _real(project) != _real(Path.cwd())


@cache
def _markers() -> tuple[str, ...]:
    """The folder names a project holds its agents' configs in, as the hosts' places say them."""
    return hosts.project_folders()


def _is_project_folder(path: Path) -> bool:
    """An agent's config folder of a project: not one of a host's user folders (~/.claude)."""
    return path.is_dir() and _real(path) not in _user_folders()


def _user_folders() -> frozenset[Path]:
    return frozenset(_real(folder) for folder in hosts.user_folders())


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))
