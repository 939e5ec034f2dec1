"""`hookwright render`: the file install would write for one pack, host and scope, unwritten."""
from __future__ import annotations

from pathlib import Path

from .. import hosts
from ..hosts.base import Scope, implied_scope
from ..packs import load_pack
from .install import options_for, plan_install
from .result import Result


def render(pack_name: str, *, host: str, scope: Scope | None, project: Path | None, options: list[str]) -> Result:
    """`scope` None: the project scope with --project, else the user scope (as install)."""
    adapter = hosts.get(host)
    pack = load_pack(pack_name)
    chosen = options_for(adapter, [pack], options)
    target = adapter.target(scope or implied_scope(project), project, pack.name)
    # what install would write, also over a file install would refuse to touch without --force
    plan = plan_install(adapter, target, [pack], chosen, adopt=True, force=True)
    files = {name: content for change in plan.packs for name, (content, _) in change.writes.items()}
    return Result("render", "rendered", [plan], data={
        "file": str(target.config), "content": (plan.new_bytes or b"").decode("utf-8"),
        "entries": [entry.to_json() for entry in plan.added],
        "runtime_files": sorted(str(plan.target.pack_dir(pack.name) / name) for name in files)})
