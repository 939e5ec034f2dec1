"""`hookwright render`: the file install would write for one pack, host and scope, unwritten."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import hosts
from ..hosts.base import Scope, implied_scope
from ..packs import load_pack
from ..planning.install import options_for, plan_install
from .result import Payload, Result, Status


class Rendered(Payload):
    def __init__(self, file: str, content: str, entries: list[dict[str, Any]], runtime_files: list[str]) -> None:
        self.file = file  # the config install would write
        self.content = content  # what it would hold
        self.entries = entries  # the entries it would add
        self.runtime_files = runtime_files  # the runtime files it would write beside it


def render(pack_name: str, *, host: str, scope: Scope | None, project: Path | None, options: list[str]) -> Result:
    """`scope` None: the project scope with --project, else the user scope (as install)."""
    adapter = hosts.get(host)
    pack = load_pack(pack_name)
    chosen = options_for(adapter, [pack], options)
    target = adapter.target(scope or implied_scope(project), project, pack.name)
    # what install would write, also over a file install would refuse to touch without --force
    plan = plan_install(adapter, target, [pack], chosen, adopt=True, force=True)
    files = {name: content for change in plan.packs for name, (content, _) in change.writes.items()}
    return Result("render", Status.RENDERED, [plan], payload=Rendered(
        str(target.config), plan.document.decode(plan.new_bytes), [entry.to_json() for entry in plan.added],
        sorted(str(plan.target.pack_dir(pack.name) / name) for name in files)))
