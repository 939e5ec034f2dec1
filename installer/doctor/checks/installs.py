"""Our own installs: every pack hookwright put into a host's config, checked against its
receipt (entries present, runtime files present and unchanged)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ... import atomic, hosts
from ...errors import HookwrightError
from ...hosts.base import Host, Scope, Target
from ...layout import RUNTIME_FOLDERS
from ..model import ConfigFile, Context, Finding, Handler, resolved

if TYPE_CHECKING:  # (state loads only where a receipt exists)
    from ...state import Receipt

SCOPES = {"user": Scope.user, "project": Scope.project, "local": Scope.local}
INSTALL_KINDS = {"claude-settings": "claude", "cursor-hooks": "cursor"}  # the configs hookwright writes into


def check(ctx: Context) -> Iterator[Finding]:
    ours: dict[int, dict[str, Handler]] = {}  # per file: pack -> its (last) entry there
    for handler in ctx.handlers:
        if handler.owner:
            ours.setdefault(id(handler.file), {})[handler.owner[0]] = handler
    for file in ctx.files:
        mine = ours.get(id(file), {})
        target = _target(file) if mine or _traces_beside(file) else None
        if target is not None:
            yield from _check_file(ctx, file, target, mine)
    if ctx.project is not None:
        yield from _opencode(ctx, ours)


def _opencode(ctx: Context, ours: dict[int, dict[str, Handler]]) -> Iterator[Finding]:
    """opencode's unit is a pack's own plugin file: each runtime folder of ours is checked with
    its plugin file, also where that file is gone (an interrupted install, a deleted plugin)."""
    from ..discovery import Candidate
    from ..load import read

    host = hosts.get("opencode")
    files = {resolved(f.path): f for f in ctx.files if f.kind == "opencode-plugin"}
    for scope in host.scopes:
        try:
            root = host.target(scope, ctx.project).runtime_root
        except HookwrightError:
            continue
        for pack in sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
            target = host.target(scope, ctx.project, pack)
            file = files.get(resolved(target.config)) or read(Candidate(target.config, scope.value, "opencode-plugin",
                                                                        ctx.project))
            if file.error is not None:  # (its place, for the findings about what should be there)
                file = ConfigFile(target.config, "opencode-plugin", "opencode", scope.value, project=ctx.project)
            elif file.source is not None and host.edited(host.parse(file.path, file.source), target):
                yield ctx.finding_at("install/plugin-edited", file, 1, 1, pack=pack, scope_args=scope_args(target))
            yield from _check_file(ctx, file, target, ours.get(id(file), {}), packs={pack})


def _traces_beside(file: ConfigFile) -> bool:
    """Whether the file's folder holds a runtime folder or a temp file of ours (runtimes live
    beside the settings file in every scope): without them and without entries of ours, there
    is nothing to check, and no need to work out the install target."""
    try:
        names = os.listdir(file.path.parent)
    except OSError:
        return False
    return any(name in RUNTIME_FOLDERS or atomic.is_temp_name(name) for name in names)


def _target(file: ConfigFile) -> Target | None:
    """The install target this settings file is, if it is one of the scopes we write."""
    if file.kind not in INSTALL_KINDS or file.scope not in SCOPES or file.document is None:
        return None
    if not isinstance(file.document.data, dict) or not isinstance(file.document.data.get("hooks", {}), dict):
        return None
    try:
        target = hosts.get(INSTALL_KINDS[file.kind]).target(SCOPES[file.scope], file.project)
    except HookwrightError:  # not a place hookwright installs into (a project that is the home, Cursor's local)
        return None
    try:
        return target if os.path.samefile(target.config, file.path) else None
    except OSError:  # the target's file is not there: the file is some other one
        return None


def _check_file(ctx: Context, file: ConfigFile, target: Target, ours: dict[str, Handler],
                packs: set[str] | None = None) -> Iterator[Finding]:
    """`packs`: only these runtime folders belong to this file (a host whose unit is a pack's file)."""
    host = hosts.get(target.host)
    if file.document is not None:
        data = file.document.data
    else:  # opencode: what the plugin file was made from (nothing, where it is gone)
        data = host.parse(file.path, file.source).data if file.source is not None else {}
    folders = [p for p in target.runtime_root.iterdir() if p.is_dir()] if target.runtime_root.is_dir() else []
    if packs is not None:
        folders = [p for p in folders if p.name in packs]
    for folder in [target.config.parent, *folders]:
        for temp in atomic.stale_temps(folder):
            if packs is None or folder != target.config.parent or f".{target.config.name}." in temp.name:
                yield ctx.finding("install/interrupted-write", file, (), temp=temp)
    if not (ours or folders):
        return
    names = set(ours) | {p.name for p in folders if target.receipt_path(p.name).is_file()}
    again = scope_args(target)
    for folder in folders:
        if folder.name not in names and any(folder.iterdir()):
            yield ctx.finding("install/leftover-runtime", file, ("hooks",), folder=folder, pack=folder.name,
                              scope_args=again)
    for pack in sorted(names):
        where = ours[pack].keys if pack in ours else ("hooks",)
        params = dict(pack=pack, scope_args=again)
        try:
            receipt = _read_receipt(target.receipt_path(pack))
        except HookwrightError as error:
            yield ctx.finding("install/receipt-unreadable", file, where, problem=error.message,
                              receipt=target.receipt_path(pack), **params)
            continue
        if receipt is None:
            yield ctx.finding("install/no-receipt", file, where, **params)
            continue
        for rule, fields in receipt_problems(host, target, data, receipt):
            yield ctx.finding(rule, file, ("hooks",) if rule == "install/entry-missing" else where, **fields, **params)


def receipt_problems(host: Host, target: Target, data: Any, receipt: Receipt) -> Iterator[tuple[str, dict]]:
    """How an install differs from its receipt: (rule id, the rule's fields besides pack and
    scope_args) for each entry missing or changed in the config `data`, and each runtime file
    missing or changed (`hookwright status` shows the same)."""
    from ...state import runtime_matches

    for entry in receipt.entries:
        current = host.find(data, entry)
        if current is None:
            yield "install/entry-missing", {"event": entry.event, "hook": entry.hook}
        elif current != entry.handler:
            yield "install/entry-differs", {"event": entry.event, "hook": entry.hook}
    folder = target.pack_dir(receipt.pack)
    for item in receipt.files:
        if not (folder / item.name).is_file():
            yield "install/runtime-missing", {"runtime": folder / item.name}
        elif not runtime_matches(folder, item.name, item.sha256):
            yield "install/runtime-changed", {"runtime": folder / item.name}


def _read_receipt(path: Path):
    """state.read_receipt, without loading the install machinery where there is no receipt."""
    if not os.path.lexists(path):
        return None
    from ...state import read_receipt

    return read_receipt(path)


def scope_args(target: Target) -> str:
    host = "" if target.host == hosts.DEFAULT else f"--host {target.host} "
    if target.scope is Scope.user:
        return host + "--scope user"
    return host + f"--scope {target.scope.value} --project {target.project}"
