"""Read each file strictly into a ConfigFile, and list the handlers its host would load."""
from __future__ import annotations

import os

from .. import hosts, safe_read
from ..document import Document
from ..errors import ErrorKind, HookwrightError
from .discovery import RULES_FILE, Candidate, recognise
from .model import ConfigFile, Handler

# the kinds of file of agents hookwright does not install into, and their agent (a host's own:
# Host.file_kinds)
OTHER_KINDS = {"gemini-hooks": "gemini", "grok-hooks": "grok", RULES_FILE: "hookwright"}
NOT_PARSED = ("opencode-config", "opencode-plugin", "unknown")  # JSONC, JavaScript, anything else
MAX_TEXT_BYTES = 10 * 1024 * 1024


def read(candidate: Candidate, staged: bytes | None = None) -> ConfigFile:
    """The file with its strict JSON document, or with the error that stopped reading it.
    `staged`: the bytes a plan would write there, read instead of the disk's."""
    path = candidate.path
    try:
        raw = safe_read.read(path, safe_read.CONFIG) if staged is None else staged
    except FileNotFoundError:
        linked = path.is_symlink()  # (a link into a shared folder a fresh clone does not have: its hooks never run)
        error = HookwrightError(f"cannot be read: it links to {os.readlink(path)}, which does not exist" if linked
                                else "cannot be read: no such file", path=path, kind=ErrorKind.UNREADABLE,
                                hint="restore the file it links to, or replace the link with the file" if linked
                                else "check the path")
        return _file(candidate, "unknown", error=error)
    except HookwrightError as error:
        return _file(candidate, "unknown", error=error)
    text = raw[:MAX_TEXT_BYTES].decode("utf-8", "replace")
    kind = candidate.kind
    recognised = kind is None
    if kind is None:
        kind, _ = recognise(path, text, None, parsed=False)
    if kind == "opencode-config":  # JSONC; one opencode cannot read is not checked further (exit 2)
        from ..hosts.opencode import adapter as opencode  # (an opencode file only: see _plugin_handlers)

        try:
            opencode.read_config(path, raw)
        except HookwrightError as error:
            return _file(candidate, kind, error=error, source=raw)
    if kind in NOT_PARSED or recognised and kind in ("gemini-hooks", "grok-hooks"):
        return _file(candidate, kind, source=raw[:MAX_TEXT_BYTES])
    known = hosts.of_kind(kind)  # (a host's own file: the host reads it, as its format is; JSON otherwise)
    try:
        document = known.parse(path, raw, lenient=True) if known is not None else Document.parse(path, raw)
    except HookwrightError as error:
        return _file(candidate, kind, error=error)
    if recognised:
        kind, _ = recognise(path, text, document.data, parsed=True)
    return _file(candidate, kind, document=document)


def _file(candidate: Candidate, kind: str, document: Document | None = None,
          error: HookwrightError | None = None, source: bytes | None = None) -> ConfigFile:
    known = hosts.of_kind(kind)
    host = known.name if known is not None else OTHER_KINDS.get(kind, "unknown")
    return ConfigFile(candidate.path, kind, host, candidate.scope, document=document, project=candidate.project,
                      plugin=candidate.plugin, plugin_root=candidate.plugin_root, error=error, source=source)


def handlers(file: ConfigFile) -> list[Handler]:
    """Every handler the host would load from this file, in file order. Claude Code: the entries
    of each well-formed matcher group; Cursor: the flat entries. A bare string where a handler
    belongs is included (its checks say what is wrong with it); anything that is not even in the
    right place (events at the top level, a handler without its group) is not."""
    if file.kind == "opencode-plugin":
        return _plugin_handlers(file)
    host = hosts.of(file.host)
    if file.document is None or file.host == "hookwright" or (host is not None and host.plugin_file_kind):
        return []  # (no hooks tree in these)
    walker = host or hosts.get(hosts.DEFAULT)  # another agent's file in Claude Code's shape: read as one, nobody's
    return [Handler(file, place.event, place.matcher if isinstance(place.matcher, str) else None, place.value,
                    place.keys, place.group, owner=host.owner(place.value) if host else None)
            for place in walker.walk(file.document.data) if walker.loads(place.value)]



def _plugin_handlers(file: ConfigFile) -> list[Handler]:
    """An opencode plugin that opencode loads: one handler per hook of a hookwright plugin (from
    its first line), one for a foreign plugin's tool.execute.before (with what it writes)."""
    from ..hosts.opencode import adapter as opencode  # (a run with no opencode file loads no opencode adapter)

    if file.source is None or not file.plugin and opencode.why_not_loaded(file.path):  # (plugin: listed in a config)
        return []
    ours = opencode.read_plugin(file.path, file.source).data
    if ours:
        return [Handler(file, opencode.EVENT, hook.get("tools"), hook, ("hooks", index), ("hooks", index),
                        owner=opencode.HOST.owner(hook))
                for index, hook in enumerate(ours.get("hooks") or []) if isinstance(hook, dict)]
    from .scripts import plugins  # (opencode plugins only: the tree-sitter reader)

    facts = plugins.analyse(file.path, file.source)
    if plugins.HOOK not in facts.hooks or facts.syntax_error or any(e.what for e in facts.exports):
        return []  # (a file opencode drops whole runs no hook: the host rules say why)
    writes = [[w.key, w.place.line, w.place.column] for w in facts.writes]
    return [Handler(file, opencode.EVENT, "|".join(sorted(facts.tools)) if facts.tools else None,
                    {"writes": writes}, (), ())]
