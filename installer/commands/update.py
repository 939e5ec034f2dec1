"""`hookwright update`: move installed packs to their newest version, where they are installed,
through the same plan, check and consent as install.

The newest of a pack is where its receipt says it came from: a bundled pack's is the version
this hookwright bundles; a folder's is what the folder holds now; a repository's is its highest
version tag when the pack is pinned to a version tag, the tip of its branch when pinned to a
branch, else the tip of the repository's default branch (`--rev` names another revision).
"""
from __future__ import annotations

from pathlib import Path

from .. import hosts
from ..errors import HookwrightError
from ..hosts.base import Scope
from ..packs import Pack, load_pack, resolve_options
from ..planning.apply import Consent, run_plans
from ..planning.places import places_to_remove
from ..planning.uninstall import installed_packs
from ..provenance import Source
from ..sources import Spec, load, newest
from ..state import read_receipt
from .install import plans_for
from .result import Result, Status


def update(pack_names: list[str], *, host: str | None = None, scope: Scope | None, project: Path | None,
           rev: str | None = None, dry_run: bool, consent: Consent) -> Result:
    """Where the packs are installed for the project (as uninstall finds them: the one place, the
    place --host and --scope name, or the one a person picks; without names, every pack there),
    each pack's newest, then run_plans. `rev`: the revision of the one repository's pack named."""
    names = list(dict.fromkeys(pack_names))
    if rev is not None and len(names) != 1:
        raise HookwrightError("--rev moves one pack: name it", hint="hookwright update PACK --rev REV")
    chosen, notes = places_to_remove("update", names, host, scope, project, consent.pick, list(consent.again))
    if not chosen:
        return Result("update", Status.UNCHANGED, notes=notes)
    newest_of: dict[tuple[str, Source], Pack] = {}
    places = []
    for place in chosen:
        adapter = hosts.get(place.host)
        packs = []
        for name in place.packs or installed_packs(adapter, place.scope, project):
            receipt = read_receipt(adapter.target(place.scope, project, name).receipt_path(name))
            source = receipt.source if receipt is not None else Source("bundled")
            key = (name, source)
            if key not in newest_of:
                newest_of[key] = _newest(name, source, rev)
            packs.append(newest_of[key])
        places.append((place, packs))
    every = list({pack.name: pack for _, packs in places for pack in packs}.values())
    plans = plans_for("update", places, resolve_options(every, []), scope=scope, project=project)
    result = run_plans("update", plans, dry_run=dry_run, consent=consent)
    result.notes = notes
    return result


def _newest(name: str, source: Source, rev: str | None) -> Pack:
    """The pack of that name at its newest, from where it came."""
    if source.kind == "git" and source.location and source.rev:
        to = rev or newest(source.location, source.rev)
        return load(Spec("git", f"{source.location}@{to}", source.location, to, source.folder))
    if rev is not None:
        raise HookwrightError(f"--rev moves a pack from a git repository; {name} is "
                              + (f"from the folder {source.location}" if source.kind == "folder" else "bundled"))
    if source.kind == "folder" and source.location:
        return load(Spec("folder", source.location, folder=source.location))
    return load_pack(name)
