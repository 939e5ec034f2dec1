"""A team's list of packs: what a project commits in hookwright's project config, which
`hookwright install` with no pack named installs for the agents found on the machine (as
`pre-commit install` does from its config), and doctor compares with what is installed.

The list is `[[packs]]` in .hookwright.toml, or `[[tool.hookwright.packs]]` in pyproject.toml,
in the nearest folder at or above the project that has one (.hookwright.toml first, as for
doctor's settings); schemas/project-config.schema.json says what an entry holds. A pack's
folder or a local repository is named relative to the config's folder, so every clone means
the same pack.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from . import hosts, resources, safe_read
from .errors import HookwrightError, command_line
from .hosts.base import Scope
from .layout import pack_list_files
from .records import Record

if TYPE_CHECKING:
    from .hosts.base import Host
    from .state import Receipt

class Wanted(Record):
    """One pack of the list: as install names it (name, folder, URL@REV#folder), its options, and
    the agents it is for (None: every agent found)."""

    spec: str
    options: dict[str, Any]
    hosts: tuple[str, ...] | None


class TeamList(Record):
    path: Path  # the config file
    packs: list[Wanted]

    @property
    def table(self) -> str:
        return "[[tool.hookwright.packs]]" if self.path.name == "pyproject.toml" else "[[packs]]"


def read_list(project: Path) -> TeamList | None:
    """The nearest list at or above `project` (None: no config there lists packs)."""
    for path, keys in pack_list_files(project):
        data: Any = resources.read_toml(path, hint="fix the TOML (schemas/project-config.schema.json)",
                                       kind=safe_read.SETTINGS)
        for key in keys:
            data = data.get(key) if isinstance(data, dict) else None
        if data is not None:
            return _checked(path, keys, data)
    return None


def _checked(path: Path, keys: tuple[str, ...], entries: Any) -> TeamList:
    from .sources import IN_REPOSITORY, is_url

    errors = resources.schema_errors("project-config.schema.json", {"packs": entries})
    if errors:
        first = errors[0]
        place = [str(p) for p in first.instance_path]
        index = int(place[1]) if len(place) > 1 and place[1].isdigit() else None
        headers = _header_lines(path, f"[[{'.'.join(keys)}]]")
        raise HookwrightError(f"invalid pack list at {'.'.join(place) or 'packs'}: {first.message}", path=path,
                              line=headers[index] if index is not None and index < len(headers) else None,
                              hint="see schemas/project-config.schema.json")
    wanted = []
    for entry in entries:
        spec = str(entry["pack"])
        if spec.startswith((".", "~")) or "/" in spec and not is_url(spec):  # a folder or a local repository
            spec = str((path.parent / Path(spec).expanduser()).resolve())
        if "rev" in entry:
            spec += f"@{entry['rev']}" + (f"{IN_REPOSITORY}{entry['folder']}" if entry.get("folder") else "")
        hosts = tuple(entry["hosts"]) if "hosts" in entry else None
        wanted.append(Wanted(spec, dict(entry.get("options", {})), hosts))
    return TeamList(path, wanted)


def option_assignments(pack: str, options: dict[str, Any]) -> list[str]:
    """The list's options for a pack as install's --option takes them (PACK.KEY=VALUE)."""
    return [f"{pack}.{key}={str(value).lower() if isinstance(value, bool) else value}"
            for key, value in options.items()]


class Difference(Record):
    """Where the project's installs differ from its list: the wording (None: a listed pack not
    installed; elsewhere, options, unlisted), the line of the list it is about, and the words."""

    variant: str | None
    line: int
    words: dict[str, Any]


def differences(project: Path, listed: TeamList) -> Iterator[Difference]:
    """A listed pack not installed in an agent's project scope, installed from another revision
    or with other option values, and a pack installed there that the list does not name. An
    entry that names no agents is compared where the project has installs of ours (else in the
    agents found on this machine), and not where the agent cannot run the pack."""
    installed = _project_receipts(project)  # host: pack: receipt
    matched: set[tuple[str, str]] = set()
    for index, wanted in enumerate(listed.packs):
        line = _entry_line(listed, index)
        for host in _hosts_for(wanted, installed):
            adapter = hosts.get(host)
            words = {"config": listed.path.name, "host": adapter.title, "pack": wanted.spec,
                     "install_command": command_line("install", "--host", host, "--project", project)}
            receipt = _receipt_for(wanted, installed.get(host, {}))
            if receipt is None:
                if _runs_there(wanted, adapter):
                    yield Difference(None, line, words)
                continue
            matched.add((host, receipt.pack))
            if receipt.source.kind == "git" and receipt.source.spec != wanted.spec:
                yield Difference("elsewhere", line, {**words, "installed": receipt.source.describe()})
            for option, value in wanted.options.items():
                if _text(receipt.options.get(option)) != _text(value):
                    yield Difference("options", line, {**words, "option": option, "wanted": _text(value),
                                                       "installed": _text(receipt.options.get(option))})
    for host, receipts in installed.items():
        for pack in sorted(set(receipts) - {name for where, name in matched if where == host}):
            yield Difference("unlisted", 1, {"config": listed.path.name, "pack": pack, "host": hosts.get(host).title,
                                             "uninstall_command": command_line("uninstall", pack, "--host", host,
                                                                               "--scope", "project", "--project",
                                                                               project)})


def _project_receipts(project: Path) -> dict[str, dict[str, Receipt]]:
    """The receipts of ours in each agent's project scope."""
    from .planning.places import installed_places
    from .state import read_receipt

    found: dict[str, dict[str, Receipt]] = {}
    for place in installed_places(project, scope=Scope.project):
        adapter = hosts.get(place.host)
        for pack in place.packs:
            try:
                receipt = read_receipt(adapter.target(Scope.project, project, pack).receipt_path(pack))
            except HookwrightError:  # (install/receipt-unreadable says so)
                continue
            if receipt is not None:
                found.setdefault(place.host, {})[pack] = receipt
    return found


def _hosts_for(wanted: Wanted, installed: dict[str, dict[str, Receipt]]) -> list[str]:
    if wanted.hosts is not None:
        return [name for name in wanted.hosts if name in hosts.NAMES]
    return sorted(installed) or [adapter.name for adapter in hosts.every() if adapter.found_on_this_machine()]


def _receipt_for(wanted: Wanted, receipts: dict[str, Receipt]) -> Receipt | None:
    """The receipt of the pack the entry means: by its source (a folder; a repository, whatever
    the revision), or by its name for a pack named so."""
    from .sources import parse

    spec = parse(wanted.spec)
    for receipt in receipts.values():
        source = receipt.source
        if spec.kind == "name" and receipt.pack == wanted.spec and source.kind != "git":
            return receipt
        if spec.kind == "folder" and source.kind == "folder" and source.location == spec.folder:
            return receipt
        if spec.kind == "git" and source.kind == "git" and (source.location, source.folder) == (spec.url, spec.folder):
            return receipt
    return None


def _runs_there(wanted: Wanted, adapter: Host) -> bool:
    """Whether the agent runs the pack (one read here, by name or folder; a repository's is not
    fetched for a check, and counts as running)."""
    from .sources import load, parse

    spec = parse(wanted.spec)
    if wanted.hosts is not None or spec.kind == "git":
        return True
    try:
        return adapter.refusal(load(spec)) is None
    except HookwrightError:
        return True


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _entry_line(listed: TeamList, index: int) -> int:
    """The line of the entry's table header, 1 where it cannot be told."""
    at = _header_lines(listed.path, listed.table)
    return at[index] if index < len(at) else 1


def _header_lines(path: Path, header: str) -> list[int]:
    """The lines of a file where `header` (`[[packs]]`) opens a table."""
    try:
        lines = safe_read.read(path, safe_read.SETTINGS).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError, HookwrightError):
        return []
    return [number for number, text in enumerate(lines, 1) if text.split("#")[0].strip() == header]
