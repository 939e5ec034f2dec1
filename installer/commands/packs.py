"""`hookwright packs`: what is bundled, per hook: host wiring and whether it blocks or rewrites
input; and what each host lets a hook do, which is the README's capability table."""
from __future__ import annotations

from typing import Any

from .. import hosts
from ..hosts.base import CAPABILITY_WORDS
from ..packs import bundled_pack_names, load_pack
from .result import Payload, Result, Status

TABLE_START = "<!-- capability table: scripts/build_readme_tables.py writes it from the host adapters -->"
TABLE_END = "<!-- end of the capability table -->"


class PackList(Payload):
    omitted_while_none = ("host", "not_for_host")

    def __init__(self, packs: list[dict[str, Any]], hosts: dict[str, Any], host: str | None = None,
                 not_for_host: dict[str, str] | None = None) -> None:
        self.packs = packs  # name, version, description, options, hooks (schemas/packs.schema.json)
        self.hosts = hosts  # what each host lets a hook do (host_capabilities)
        self.host = host  # --host: the packs that run there
        self.not_for_host = not_for_host  # and why the others do not


def list_packs(host: str | None = None) -> Result:
    """Every bundled pack; with `host`, the ones that run there, and why each other one does not."""
    adapter = hosts.get(host) if host else None
    packs, not_here = [], {}
    for name in bundled_pack_names():
        pack = load_pack(name)
        why = adapter.refusal(pack) if adapter else None
        if why:
            not_here[name] = why
            continue
        packs.append({
            "name": pack.name, "version": pack.version, "description": pack.description,
            "options": {o.name: {"type": o.type, "default": o.default, "description": o.description,
                                 "choices": list(o.choices) or None}
                        for o in pack.options.values()},
            "hooks": [{"id": h.id, "description": h.description, "rewrites_input": h.rewrites_input,
                       "blocks": h.blocks,
                       "hosts": {host: {"event": t.event, "also_on": list(t.also_on), "matcher": t.matcher,
                                        "timeout": t.timeout}
                                 for host, t in h.targets.items()}}
                      for h in pack.hooks],
        })
    listed = PackList(packs, host_capabilities(), *((adapter.name, not_here) if adapter else ()))
    return Result("packs", Status.LISTED, payload=listed)


def host_capabilities() -> dict[str, Any]:
    """What each host lets a hook do, and which bundled pack runs there (or why not)."""
    return {host.name: {"title": host.title, "scopes": [s.value for s in host.scopes],
                        "can": dict(host.capabilities._asdict()),
                        "packs": {name: host.refusal(load_pack(name)) for name in bundled_pack_names()}}
            for host in hosts.every()}


def capability_markdown() -> str:
    """The README's two tables: host by capability, and pack by host."""
    found = host_capabilities()
    titles = [found[name]["title"] for name in found]
    lines = ["| can a hook ... | " + " | ".join(titles) + " |", "| --- |" + " --- |" * len(titles)]
    for key, words in CAPABILITY_WORDS.items():
        lines.append(f"| {words} | " + " | ".join("yes" if found[h]["can"][key] else "no" for h in found) + " |")
    lines.append("| scopes | " + " | ".join(", ".join(found[h]["scopes"]) for h in found) + " |")
    lines += ["", "| pack | " + " | ".join(titles) + " |", "| --- |" + " --- |" * len(titles)]
    for name in bundled_pack_names():
        cells = []
        for host in found:
            why = found[host]["packs"][name]
            cells.append("yes" if why is None else "no: " + why.split(": ", 1)[-1].replace(f"{name} ", "", 1))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join([TABLE_START, *lines, TABLE_END])
