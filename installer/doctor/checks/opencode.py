"""opencode: will it load each plugin file, and does each plugin change calls the way opencode reads it?

Measured on opencode 1.18.33 (docs/hosts/opencode.md#plugin-loading): a plugins
folder's `*.js` and `*.ts` load, `.mjs`, `.cjs` and files in subfolders do not, all without a
word; a file with a syntax error is skipped silently; one export that is not a function drops
the whole file; `output.args = {...}` is ignored (only changes in place count). hookwright's
own plugins run a runtime beside the plugins folder, which must be there.
"""
from __future__ import annotations

from typing import Iterator

from ...hosts import opencode
from ..model import ConfigFile, Context, Finding, describe
from ..scripts import plugins


def check(ctx: Context) -> Iterator[Finding]:
    for file in ctx.files:
        if file.kind == "opencode-plugin" and file.source is not None:
            yield from _plugin(ctx, file)
        elif file.kind == "opencode-config" and (file.source is not None or file.error is not None):
            yield from _config(ctx, file)


def _plugin(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    why = None if file.plugin else opencode.why_not_loaded(file.path)  # (a file a config lists loads wherever it is)
    if why and _in_plugins_folder(file):
        yield ctx.finding_at("host/opencode-plugin-not-loaded", file, 1, 1, why=why)
        return
    ours = opencode.read_plugin(file.path, file.source).data
    if ours:
        for index, hook in enumerate(ours.get("hooks") or []):
            script = (file.path.parent / str(hook.get("script", ""))).resolve()
            if not script.is_file():
                yield ctx.finding("host/opencode-runtime-missing", file, ("hooks", index), runtime=script,
                                  pack=ours.get("pack"))
        return
    facts = plugins.analyse(file.path, file.source)
    if facts.syntax_error:
        yield ctx.finding_at("host/opencode-plugin-syntax-error", file, *facts.syntax_error)
        return
    for export in facts.exports:
        if export.what:
            yield ctx.finding_at("host/opencode-plugin-export-not-function", file, *export.place, name=export.name,
                                 what=export.what, error="Cannot call a class constructor without |new|"
                                 if export.what == "a class" else "Plugin export is not a function")
    for place in facts.reassigns:
        yield ctx.finding_at("host/opencode-args-reassigned", file, *place)


def _in_plugins_folder(file: ConfigFile) -> bool:
    """Found in (or just below) a config folder's plugins folder; a file named on the command
    line elsewhere is judged for its code only."""
    return file.scope != "given" or file.path.parent.name in opencode.PLUGIN_FOLDERS or \
        file.path.parent.parent.name in opencode.PLUGIN_FOLDERS


def _config(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    """opencode.json(c) is JSONC (comments, trailing commas): its `plugin` list names npm
    packages and local files; a local file that is not there loads nothing."""
    if file.error is not None:
        yield ctx.finding_at("host/opencode-config-unreadable", file, file.error.line, file.error.column,
                             detail=file.error.message)
        return
    data = opencode.read_config(file.path, file.source)
    listed = data.get("plugin") if isinstance(data, dict) else None
    if listed is None:
        return
    if not isinstance(listed, list):
        yield ctx.finding_at("host/opencode-plugin-list", file, *_line_of(file, "plugin"),
                             detail=f"it is {describe(listed)}, not a list")
        return
    for entry in opencode.plugin_specs(data):
        spec = entry[0] if isinstance(entry, list) and entry and isinstance(entry[0], str) else entry
        if not isinstance(spec, str):
            yield ctx.finding_at("host/opencode-plugin-list", file, *_line_of(file, "plugin"),
                                 detail=f"an entry is {describe(entry)}: each is a package or path, "
                                        "or [package or path, options]")
            continue
        path = opencode.local_plugin(file.path, entry)
        if path is not None and not path.exists():
            yield ctx.finding_at("host/opencode-plugin-missing", file, *_line_of(file, spec), spec=spec, path=path)


def _line_of(file: ConfigFile, text: str) -> tuple[int, int]:
    """Where `text` first appears in the file (JSONC has no strict parse to take positions from)."""
    source = file.source.decode("utf-8", "replace")
    offset = source.find(f'"{text}"')
    if offset < 0:
        return 1, 1
    line = source.count("\n", 0, offset) + 1
    return line, offset - (source.rfind("\n", 0, offset) + 1) + 1
