"""Switches: the files of a run together. The kill switches that explain why hooks do not run
(`disableAllHooks`, where only the value of the highest scope counts; the managed-only settings)
and the plugin manifests that name the default hooks file again. The rules keep their
`structure/` ids; they are apart from structure/'s, which read one file at a time, so that a
run over many projects can share structure out between processes (parallel.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from ...document import Keys
from ...hooks.events import DISABLE_ALL, MANAGED_ONLY_KEYS
from ...hooks.firing import hooks_disabled_by
from .. import load
from ..discovery import Candidate
from ..model import ConfigFile, Context, Finding, RuleTable, resolved
from .structure.settings import ObjectFile, settings_objects

RULES = RuleTable()


def check(ctx: Context) -> Iterator[Finding]:
    yield from RULES.run(ctx)


def _disabling(files: list[ConfigFile]) -> list[ObjectFile]:
    by_file = {id(settings.file): settings for settings in settings_objects(files)}
    return [by_file[id(file)] for file in hooks_disabled_by(files)]


def _switched_off(ctx: Context, settings: ObjectFile) -> list[ConfigFile]:
    """The other files whose hooks a `disableAllHooks: true` that counts switches off: every scope's
    and every plugin's (measured on Claude Code 2.1.332: true in the user, project or local file
    stopped the hooks of all three and of a plugin), of one session: another project's files are
    not read with it. None for managed settings (an administrator's choice, hooks-disabled's note)
    nor for a file named on the command line (it is judged alone)."""
    if settings.file.scope == "given" or settings.managed:
        return []
    off = {id(h.file): h.file for h in ctx.handlers if h.file is not settings.file and h.file.host == settings.file.host
           and h.file.scope not in ("given", "managed")
           and (h.file.scope not in ("project", "local") or h.file.project == settings.file.project)}
    return list(off.values())


@RULES.rule("structure/hooks-disabled")
def _hooks_disabled(ctx: Context) -> Iterator[Finding]:
    for settings in _disabling(ctx.files):
        if not _switched_off(ctx, settings):  # (else: hooks-disabled-elsewhere)
            yield ctx.finding("structure/hooks-disabled", settings.file, (DISABLE_ALL,),
                              variant="managed" if settings.managed else None)


@RULES.rule("structure/hooks-disabled-elsewhere")
def _hooks_disabled_elsewhere(ctx: Context) -> Iterator[Finding]:
    """`disableAllHooks: true` in one file (the user's, a git-ignored local file) that also
    switches off the hooks of other files: a project's guards stop without a word."""
    for settings in _disabling(ctx.files):
        off = _switched_off(ctx, settings)
        if off:
            shown = ", ".join(str(f.path) for f in off[:3]) + (f" and {len(off) - 3} more" if len(off) > 3 else "")
            yield ctx.finding("structure/hooks-disabled-elsewhere", settings.file, (DISABLE_ALL,), files=shown,
                              related=[{"path": str(f.path), "line": 1, "column": 1,
                                        "message": "its hooks do not run"} for f in off])


@RULES.rule("structure/managed-hooks-only")
def _managed_hooks_only(ctx: Context) -> Iterator[Finding]:
    for settings in settings_objects(ctx.files):
        for key in MANAGED_ONLY_KEYS:
            value = settings.data.get(key)
            on = value is True if key == "allowManagedHooksOnly" else (
                value is True or (isinstance(value, list) and "hooks" in value))
            if on:
                yield ctx.finding("structure/managed-hooks-only", settings.file, (key,), key=key,
                                  variant=None if settings.managed else "outside-managed")


@RULES.rule("structure/plugin-manifest-names-default-hooks")
def _manifests_naming_default_hooks(ctx: Context) -> Iterator[Finding]:
    """A plugin's `.claude-plugin/plugin.json` whose `hooks` names `hooks/hooks.json`: Claude Code
    loads that file anyway, and refuses the second load ("Duplicate hooks file detected")."""
    roots = {resolved(p.install_path) for p in ctx.plugins if p.install_path is not None}
    roots |= {resolved(f.plugin_root) for f in ctx.files if f.plugin_root is not None}
    for root in sorted(roots):
        default = root / "hooks" / "hooks.json"
        manifest = _manifest(ctx, root / ".claude-plugin" / "plugin.json")
        if manifest is None:
            continue
        named = manifest.data.get("hooks")
        listed: list[tuple[Keys, Any]] = [(("hooks",), named)] if isinstance(named, str) else \
            [(("hooks", i), item) for i, item in enumerate(named)] if isinstance(named, list) else []
        for keys, item in listed:
            if isinstance(item, str) and default.is_file() and resolved(root / item) == resolved(default):
                yield ctx.finding("structure/plugin-manifest-names-default-hooks", manifest.file, keys,
                                  value=json.dumps(item))


def _manifest(ctx: Context, path: Path) -> ObjectFile | None:
    """The manifest as doctor read it (inline hooks make it a hooks file), else read now; None
    when there is none, or it does not parse into an object."""
    if not path.is_file():
        return None
    file = next((f for f in ctx.files if f.path == path), None) or load.read(Candidate(path, "plugin", "claude-plugin-hooks"))
    if file.document is None or not isinstance(file.document.data, dict):
        return None
    return ObjectFile(file, file.document.data)
