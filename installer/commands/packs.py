"""`hookwright packs`: what is bundled, per hook: host wiring and whether it blocks or rewrites input."""
from __future__ import annotations

from installer.commands.result import Result
from installer.packs import bundled_pack_names, load_pack


def list_packs() -> Result:
    packs = []
    for name in bundled_pack_names():
        pack = load_pack(name)
        packs.append({
            "name": pack.name, "version": pack.version, "description": pack.description,
            "options": {o.name: {"type": o.type, "default": o.default, "description": o.description}
                        for o in pack.options.values()},
            "hooks": [{"id": h.id, "description": h.description, "rewrites_input": h.rewrites_input,
                       "blocks": h.blocks,
                       "hosts": {host: {"event": t.event, "matcher": t.matcher, "timeout": t.timeout}
                                 for host, t in h.targets.items()}}
                      for h in pack.hooks],
        })
    return Result("packs", "listed", data={"packs": packs})
