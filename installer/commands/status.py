"""`hookwright status`: which packs are installed where, and whether each is whole.

One row per receipt, in every host and scope of the project (and the user's), and one per pack
whose entries run our runtime without a receipt (copied, or their folder deleted): the file its
entries are in, the version installed and the one bundled, its options, and what differs from
the receipt (the same comparison as doctor's install rules). Exit 1 when an install is not
whole, so a script can tell; `hookwright install PACK` with the same scope repairs it.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .. import hosts
from ..errors import ErrorKind, ExitCode, HookwrightError
from ..hosts.base import Host, Target, check_project
from ..packs import load_pack
from ..planning.uninstall import installed_receipts
from ..project import project_of
from ..state import read_receipt
from .result import Payload, Result, Status


class Installs(Payload):
    def __init__(self, project: str, installs: list[dict[str, Any]], unreadable: list[dict[str, Any]]) -> None:
        self.project = project
        self.installs = installs  # one row per receipt (schemas/status.schema.json)
        self.unreadable = unreadable  # configs that could not be read, as error documents: the rest is listed


def status(project: Path | None = None, host: str | None = None) -> Result:
    found = installed(project, host)
    whole = all(not row["problems"] for row in found.installs)
    code = ExitCode.BAD_INPUT if found.unreadable else ExitCode.OK if whole else ExitCode.FINDINGS
    return Result("status", Status.LISTED, exit_code=code, payload=found)


def installed(project: Path | None = None, host: str | None = None) -> Installs:
    """Every pack installed for the project (and the user), one row per receipt."""
    check_project(project)
    folder = project_of(project)
    rows: list[dict[str, Any]] = []
    unreadable: list[dict[str, Any]] = []
    for adapter in [hosts.get(host)] if host else hosts.every():
        for scope in adapter.scopes:
            try:
                place = adapter.target(scope, folder)
            except HookwrightError as error:  # not a place this host installs into (a project that is the home)
                if error.kind is ErrorKind.UNREADABLE and error.to_json() not in unreadable:  # (or a link loop)
                    unreadable.append(error.to_json())
                continue
            with_receipt = installed_receipts(place)
            try:  # (one bad file hides nothing else: it is said beside the rest, its installs unchecked)
                in_config: set[str] | None = adapter.packs_in(place)
            except HookwrightError as error:
                unreadable.append(error.to_json())
                in_config = None
            rows += [_row(adapter, adapter.target(scope, folder, name), name, checked=in_config is not None)
                     for name in with_receipt]
            # entries that run our runtime without a receipt (copied, or their folder deleted): doctor's install/no-receipt
            rows += [_row(adapter, adapter.target(scope, folder, name), name, receipt=False)
                     for name in sorted((in_config or set()) - set(with_receipt))]
    return Installs(str(folder.absolute()), rows, unreadable)


def _row(host: Host, target: Target, pack: str, receipt: bool = True, checked: bool = True) -> dict[str, Any]:
    """The install's row; `checked` False: its config cannot be read, so it is not compared with its receipt."""
    from ..doctor.checks.installs import receipt_problems, reference, scope_args

    row: dict[str, Any] = {"pack": pack, "host": host.name, "scope": target.scope.value, "file": str(target.config),
                           "folder": str(target.pack_dir(pack)), "version": None,
                           "bundled_version": _bundled_version(pack), "upgrade": False, "source": None, "options": {},
                           "problems": [], "checked": checked, "reference": None}
    fields = {"pack": pack, "scope_args": scope_args(target)}
    if not receipt:
        found: list[tuple[str, dict[str, Any]]] = [("install/no-receipt", {})]
        if not target.pack_dir(pack).is_dir():  # (install puts it back, taking the entry over: --adopt)
            found.append(("install/runtime-missing", {"runtime": target.pack_dir(pack),
                                                      "scope_args": fields["scope_args"] + " --adopt"}))
        return _with_problems(row, found, fields)
    try:
        recorded = read_receipt(target.receipt_path(pack))
    except HookwrightError as error:
        found = [("install/receipt-unreadable", {"problem": error.message, "receipt": target.receipt_path(pack)})]
    else:
        assert recorded is not None  # (installed_receipts lists the folders that hold one)
        row.update(version=recorded.version, options=recorded.options,
                   upgrade=recorded.source.kind == "bundled" and _newer(row["bundled_version"], recorded.version),
                   source=recorded.source.to_json() if recorded.source.kind != "bundled" else None,
                   reference=reference(host.name, recorded))
        if not checked:
            return row
        doc = host.load(target.config)
        found = list(receipt_problems(host, target, doc.data if doc.exists else {}, recorded))
        if host.edited(doc, target):
            found.insert(0, ("install/plugin-edited", {}))
    return _with_problems(row, found, fields)


def _with_problems(row: dict[str, Any], found: list[tuple[str, dict[str, Any]]], fields: dict[str, Any]) -> dict[str, Any]:
    """The row with each problem found worded as its doctor rule words it."""
    from ..doctor.model import rule_by_id

    problems = row["problems"]
    for rule_id, more in found:
        rule = rule_by_id(rule_id)
        problems.append({"rule": rule_id, "severity": rule.severity,
                         "message": rule.message.format(**{**fields, **more}),
                         "hint": rule.hint.format(**{**fields, **more})})
    return row


def _bundled_version(pack: str) -> str | None:
    """The version of the pack this hookwright bundles (None: a pack of your own, or gone)."""
    try:
        return load_pack(pack).version
    except HookwrightError:
        return None


def _newer(bundled: str | None, installed: str) -> bool:
    """Whether the bundled version is later than the one installed (versions are dotted numbers)."""
    def parts(version: str) -> tuple[int, ...]:
        return tuple(int(p) if p.isdigit() else -1 for p in version.split("."))

    return bundled is not None and parts(bundled) > parts(installed)
