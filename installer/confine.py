"""Writes stay where the scope says: every path a plan writes or deletes, resolved first.

A repository is someone else's to write, links included: a committed `.claude/settings.json`
linked to `~/.claude/settings.json` once took a project install into the user's own settings
(every project then ran a hook whose script was missing there), and a pack folder linked out of
the project made uninstall delete files wherever it pointed. So before a plan is shown or
written, each of its paths is resolved (links followed) and the plan is refused (exit 3), both
paths named, where one

- leaves its scope's folder (`.claude`, `.cursor`, `.opencode` in the project; the folder
  itself linked elsewhere counts too), or
- lands on another scope's file, or on another file the plan writes (a receipt linked to the
  settings file), or
- is deleted through a linked folder (uninstall and rollback delete the link, never through it).

DESIGN.md's "a symlinked config is written through, the link kept" holds inside the scope's
folder; a link out of it is written through only with --allow-outside-scope, which the refusal
names (deletes through a link, never). A user scope's folder is the user's own to place (a
dotfiles repository linked in as ~/.claude): only the other two rules hold there.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from . import hosts
from .errors import ExitCode, HookwrightError
from .hosts.base import Scope
from .records import Record

if TYPE_CHECKING:
    from .hosts.base import Target
    from .planning.plan import Plan

FLAG = "--allow-outside-scope"


class Touch(Record):
    """One path a plan writes (or deletes), and what it is to the plan."""

    path: Path
    what: str  # "the config", "a runtime file", ...
    deletes: bool = False


def real(path: Path) -> Path:
    """Where `path` really is: every link on the way followed (a part that is not there yet kept as written)."""
    return Path(os.path.realpath(path))


def touches(plan: Plan) -> Iterator[Touch]:
    """Every path the plan writes or deletes (the folders it makes on the way are their files')."""
    if plan.delete_config and plan.document.exists:
        yield Touch(plan.target.config, "the config", deletes=True)
    elif plan.config_changed:
        yield Touch(plan.target.config, "the config")
    for path in plan.other_writes:
        yield Touch(path, "a file beside the runtimes")
    for change in plan.packs:
        for name in change.writes:
            yield Touch(change.folder / name, f"{change.pack}'s runtime file")
        for name in change.removes:
            yield Touch(change.folder / name, f"{change.pack}'s runtime file", deletes=True)
    for folder in plan.remove_folders:
        yield Touch(folder, "a folder hookwright made", deletes=True)


def scope_folder(target: Target) -> Path:
    """The folder a scope's files live in: `.claude`, `.cursor`, `.opencode`, or the user's."""
    return target.runtime_root.parent


def check(plan: Plan, allow_outside: bool = False) -> None:
    """Refuse (exit 3) a plan that writes or deletes where its scope does not reach."""
    target = plan.target
    folder = scope_folder(target)
    in_project = target.project is not None
    where = real(folder) if not in_project else real(folder.parent) / folder.name
    if in_project and real(folder) != where and not allow_outside:
        raise _refusal(folder, real(folder), f"the {target.scope.value} scope's folder is a link to {real(folder)}, "
                                             f"outside the project {folder.parent}", outside=True)
    others = _other_scopes_files(target)
    seen: dict[Path, Touch] = {}
    for touch in [Touch(target.config, "the config"), *touches(plan)]:
        found = real(touch.path)
        link = _link_on_the_way(touch.path, folder.parent if in_project else folder) if touch.deletes else None
        if link is not None:
            raise _refusal(touch.path, found, f"{touch.what} would be deleted through the link {link} (to "
                                              f"{real(link)})", deletes=True)
        if in_project and where not in found.parents and found != where and not allow_outside:
            raise _refusal(touch.path, found, f"{touch.what} leads to {found}, outside the {target.scope.value} "
                                              f"scope's folder {folder}", outside=True)
        if found in others and not allow_outside:
            raise _refusal(touch.path, found, f"{touch.what} leads to {found}, which is {others[found]}", outside=True)
        earlier = seen.get(found)
        if earlier is not None and earlier.path != touch.path:
            raise _refusal(touch.path, found, f"{touch.what} and {earlier.what} ({earlier.path}) are one file, "
                                              f"{found}")
        seen.setdefault(found, touch)


def confined(plan: Plan, allow_outside: bool = False) -> bool:
    """Whether `check` lets the plan through (a tidy-up that only removes our temp files asks)."""
    try:
        check(plan, allow_outside)
    except HookwrightError:
        return False
    return True


def _link_on_the_way(path: Path, top: Path) -> Path | None:
    """The first folder on `path`'s way up to `top` (not included) that is a link, if any."""
    folder = path.parent
    while folder != top and top in folder.parents:
        if folder.is_symlink():
            return folder
        folder = folder.parent
    return None


def _other_scopes_files(target: Target) -> dict[Path, str]:
    """{where it really is: what it is} of the configs of this host's other scopes."""
    host = hosts.get(target.host)
    packs = [target.config.stem.removeprefix("hookwright-")] if host.file_per_pack else [None]
    found = {}
    for scope in host.scopes:
        for pack in packs:
            try:
                other = host.target(scope, target.project if scope is not Scope.user else None, pack)
            except HookwrightError:
                continue
            if other.config != target.config:
                found[real(other.config)] = f"the {scope.value} scope's config ({other.config})"
    return found


def _refusal(path: Path, found: Path, said: str, *, outside: bool = False, deletes: bool = False) -> HookwrightError:
    if deletes:
        hint = f"hookwright deletes a link, never through one: remove the link, or delete {found} by hand"
    elif outside:
        hint = f"replace the link with a file of its own, or run again with {FLAG} to write to {found}"
    else:
        hint = "replace the link with a file of its own"
    return HookwrightError(f"refused: {said}; nothing was written", path=path, code=ExitCode.REFUSED, hint=hint,
                           detail=f"{path} -> {found}")
