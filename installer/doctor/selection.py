"""Which findings a doctor run reports: --select, --ignore and --min-severity, over what the
project's config says (`[tool.hookwright.doctor]` in pyproject.toml, or `[doctor]` in
.hookwright.toml), in the manner of ruff.

A selector is a rule id (`command/home-path`) or a prefix of ids (`command`, `conflict/input`):
a selector that names no rule is a usage error with the closest ids, never a silent no-op.
The config is the nearest one at or above the project folder; .hookwright.toml wins over
pyproject.toml in the same folder. On the command line --select replaces the config's list,
--ignore adds to it, --min-severity replaces it.

A config can silence doctor's errors, so it is taken only from inside the project (its folders
up to its git root) or from a file owned by the user running doctor: a `.hookwright.toml` that
someone else left in a shared parent folder (/tmp, a world-writable checkout root) is skipped,
and the report says which file chose the rules and which were skipped, and why.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .. import safe_read
from ..errors import HookwrightError, did_you_mean
from ..resources import read_toml
from .model import SEVERITIES, Finding, catalog

CONFIG_FILES = ((".hookwright.toml", ("doctor",)), ("pyproject.toml", ("tool", "hookwright", "doctor")))
KEYS = ("select", "ignore", "min-severity", "strict")
RANK = {severity: rank for rank, severity in enumerate(reversed(SEVERITIES))}  # info 0, warning 1, error 2


class Selection:
    def __init__(self, select: tuple[str, ...] = (), ignore: tuple[str, ...] = (), min_severity: str = "info",
                 strict: bool = False, config: str | None = None, skipped: tuple[dict[str, str], ...] = ()) -> None:
        self.select = select  # () : every rule
        self.ignore = ignore
        self.min_severity = min_severity
        self.strict = strict
        self.config = config  # the file the settings came from
        self.skipped = skipped  # configs not read: {"path", "why"} (someone else's, outside the project)

    def _with_skipped(self, skipped: list[dict[str, str]]) -> Selection:
        self.skipped = tuple(skipped)
        return self

    def keeps(self, finding: Finding) -> bool:
        return (RANK[finding.severity] >= RANK[self.min_severity] and not _matches(finding.rule, self.ignore)
                and (not self.select or _matches(finding.rule, self.select)))

    def to_json(self) -> dict[str, Any]:
        return {"select": list(self.select), "ignore": list(self.ignore), "min_severity": self.min_severity,
                "config": self.config, "skipped_configs": list(self.skipped)}


def _matches(rule_id: str, selectors: tuple[str, ...]) -> bool:
    return any(rule_id.startswith(selector) for selector in selectors)


def choose(project: Path, *, select: list[str] | None = None, ignore: list[str] | None = None,
           min_severity: str | None = None, strict: bool = False, use_config: bool = True) -> Selection:
    """The run's selection: the command line's over the config's (`use_config` False: no config)."""
    base = from_config(project) if use_config else Selection()
    return Selection(
        tuple(_checked(_split(select), "--select")) if select else base.select,
        base.ignore + tuple(_checked(_split(ignore or []), "--ignore")),
        _severity(min_severity, "--min-severity") if min_severity else base.min_severity,
        strict or base.strict, base.config, base.skipped)


def from_config(project: Path) -> Selection:
    """The nearest config at or above `project` that has doctor settings (none: every rule), of
    those doctor may take (inside the project up to its git root, or the user's own)."""
    folders = [project.absolute(), *project.absolute().parents]
    inside = folders[:_git_root_index(folders) + 1]
    skipped: list[dict[str, str]] = []
    for folder in folders:
        for name, table_path in CONFIG_FILES:
            path = folder / name
            if not os.path.lexists(path):  # (a FIFO or a link to a device is there, and said unreadable)
                continue
            owner = _owner(path)
            if folder not in inside and owner != os.geteuid():
                skipped.append({"path": str(path), "why": f"it is outside the project and owned by "
                                f"{_user_name(owner)}, not by you: it could silence doctor's findings"})
                continue
            table = _table(path, table_path)
            if table is not None:
                return _settings(path, table)._with_skipped(skipped)
    return Selection(skipped=tuple(skipped))


def _git_root_index(folders: list[Path]) -> int:
    """How far up the project goes: to the folder that holds `.git` (the project alone outside git)."""
    return next((i for i, folder in enumerate(folders) if os.path.lexists(folder / ".git")), 0)


def _owner(path: Path) -> int | None:
    try:
        return os.stat(path).st_uid
    except OSError:
        return None


def _user_name(uid: int | None) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})" if uid is not None else "nobody known"
    except (ImportError, KeyError):
        return f"uid {uid}"


def _table(path: Path, table_path: tuple[str, ...]) -> dict[str, Any] | None:
    data: Any = read_toml(path, hint="fix the TOML, or run doctor with --no-config", kind=safe_read.SETTINGS)
    for key in table_path:
        data = data.get(key) if isinstance(data, dict) else None
    if data is not None and not isinstance(data, dict):
        raise HookwrightError(f"[{'.'.join(table_path)}] must be a table", path=path, hint="see docs/commands/doctor.md")
    return data


def _settings(path: Path, table: dict[str, Any]) -> Selection:
    where = f"[{'tool.hookwright.doctor' if path.name == 'pyproject.toml' else 'doctor'}]"  # (the error names the file)
    for key in table:
        if key not in KEYS:
            raise HookwrightError(f"unknown doctor setting {key!r} in {where}", path=path,
                                  hint=did_you_mean(key, KEYS) or f"the settings are {', '.join(KEYS)}")
    lists = {}
    for key in ("select", "ignore"):
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise HookwrightError(f"{key} in {where} must be a list of rule ids or prefixes", path=path,
                                  hint=f'for example {key} = ["conflict", "command/home-path"]')
        lists[key] = tuple(_checked(value, f"{key} in {where}"))
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise HookwrightError(f"strict in {where} must be true or false", path=path)
    severity = table.get("min-severity", "info")
    return Selection(lists["select"], lists["ignore"], _severity(severity, f"min-severity in {where}"), strict,
                     str(path))


def _split(values: list[str]) -> list[str]:
    """`--select a,b --select c` is a, b and c."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def _checked(selectors: list[str], what: str) -> list[str]:
    if not selectors:  # (no catalog to read: a run reads the rules it words findings with alone, model.rule_by_id)
        return selectors
    rules = catalog()
    for selector in selectors:
        if not any(rule.startswith(selector) for rule in rules):
            raise HookwrightError(f"{what}: {selector!r} is no rule id and no prefix of one",
                                  hint=did_you_mean(selector, sorted({r.split("/")[0] for r in rules}) + list(rules))
                                  or "`hookwright doctor --explain` lists every rule")
    return selectors


def _severity(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in SEVERITIES:
        raise HookwrightError(f"{what} must be one of {', '.join(SEVERITIES)}, not {value!r}")
    return value
