"""A command pack made from the hooks of a config that exists: a Claude Code settings file or a
plugin's hooks.json (`hookwright pack new NAME --from FILE`).

The config is read as doctor reads it (doctor/load.py). Each command handler becomes a hook of
the pack, wired for Claude Code with its event, matcher and timeout; a file its command names
through the project (`$CLAUDE_PROJECT_DIR/...`, a relative path), the plugin
(`${CLAUDE_PLUGIN_ROOT}/...`) or Claude Code's user folder is copied into the pack and named
`${PACK_DIR}/<file>` in its place, with the files those scripts name beside them; a command that
names no such file goes into a script of its own. What a pack cannot carry is said, with why:
an http, prompt, agent or mcp_tool handler, an async one, one with an `if` condition. Whether a
hook blocks or rewrites input is what its event allows and, for a rewrite, what doctor reads in
its script.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

from . import hosts, safe_read
from .doctor.discovery import Candidate
from .doctor.handler_facts import NO, rewrite
from .doctor.load import handlers, read
from .errors import HookwrightError
from .hosts.claude import user_dir
from .hosts.claude.adapter import EXACT_MATCHER, HOST
from .hosts.claude.protocol import BLOCKS, protocol
from .layout import COMMANDS as COMMANDS_FILE
from .layout import RECEIPT as RECEIPT_NAME
from .packs import FILE_NAME, MANIFEST, PACK_DIR, RUNTIME_LIBRARY
from .patterns import lazy
from .records import Record

# a path placeholder Claude Code fills in, and what it stands for
PLACEHOLDERS = (("${CLAUDE_PROJECT_DIR}", "project"), ("$CLAUDE_PROJECT_DIR", "project"),
                ("${CLAUDE_PLUGIN_ROOT}", "plugin"), ("$CLAUDE_PLUGIN_ROOT", "plugin"))
OPERATORS = ";&|()<>"
NEXT_TO_SCRIPTS = (".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".json", ".toml", ".yaml",
                   ".yml", ".txt", ".jq")  # the files beside a script that it may read, copied when it names them
NOT_CARRIED = {"http": "an http hook posts to a URL, and a pack's hooks are commands",
               "prompt": "a prompt hook asks a model, and a pack's hooks are commands",
               "agent": "an agent hook runs a model, and a pack's hooks are commands",
               "mcp_tool": "an mcp_tool hook calls a server Claude Code is connected to, and a pack's hooks are commands"}


NOT_A_NAME = lazy(r"[^A-Za-z0-9._-]")  # what a copied file's name cannot hold
CAMEL_STEP = lazy(r"([a-z0-9])([A-Z])")  # preToolUse: a hook id's words
NOT_AN_ID = lazy(r"[^a-z0-9]+")


class Copied(Record):
    source: Path
    name: str  # in the pack


class Made(Record):
    """What --from made: the pack's hooks (as pack.toml tables), the files copied, and what it left out."""

    hooks: list[dict[str, Any]]
    copied: list[Copied]
    scripts: dict[str, str]  # a command that named no file: its script's name in the pack, and its text
    not_carried: list[dict[str, Any]]  # event, matcher, what it was, why


def read_config(path: Path) -> Made:
    """The hooks of the Claude Code config at `path`, as a command pack would hold them."""
    path = path.absolute()
    plugin_root = path.parent.parent if path.parent.name == "hooks" and path.name != "settings.json" else None
    project = path.parent.parent if path.parent.name == ".claude" else Path.cwd()
    file = read(Candidate(path, "plugin" if plugin_root else "project", None, project, None, plugin_root))
    if file.error is not None:
        raise file.error
    if file.host != hosts.DEFAULT:  # (a command pack's hooks are written in its words: packs.py)
        raise HookwrightError(f"{path.name} is not Claude Code's ({file.kind}): --from reads a Claude Code settings file "
                              "or a plugin's hooks.json", path=path)
    roots = {"project": project, "plugin": plugin_root}
    made = Made([], [], {}, [])
    used = {MANIFEST, COMMANDS_FILE, RECEIPT_NAME, RUNTIME_LIBRARY}
    for handler in handlers(file):
        value = handler.value if isinstance(handler.value, dict) else {}
        kind = value.get("type", "command")
        said = {"event": handler.event, "matcher": handler.matcher, "type": kind,
                "line": file.position(handler.keys)[0]}
        why = NOT_CARRIED.get(kind) or ("its command is not text" if not isinstance(value.get("command"), str) else
                                        "it runs async, and a pack's hooks are waited for" if value.get("async") else
                                        f"its if condition ({value.get('if')}) has no place in a pack"
                                        if "if" in value else None)
        if why:
            made.not_carried.append({**said, "why": why})
            continue
        command = _shell_form(value)
        command, copied = _files_named(command, roots, path, used)
        made.copied.extend(copied)
        for found in copied:
            for extra in _beside(found.source, used):
                made.copied.append(extra)
        hook_id = _hook_id(handler.event, handler.matcher, copied, used | {h["id"] for h in made.hooks})
        if not copied:  # a command that runs no file of its own: it becomes a script of the pack
            script = _free(f"{hook_id}.sh", used)
            made.scripts[script] = "#!/bin/sh\n" + command + "\n"
            command = f"sh {PACK_DIR}/{script}"
        timeout = value.get("timeout") if isinstance(value.get("timeout"), (int, float)) else 60
        _add(made.hooks, {"id": hook_id, "command": command, "event": handler.event, "matcher": handler.matcher,
                          "timeout": timeout, "rewrites_input": _rewrites(handler), "blocks": _blocks(handler.event)})
    if not made.hooks:
        raise HookwrightError(f"{path} holds no command hook a pack can carry", path=path,
                              detail="\n".join(f"{n['event']}: {n['type']}: {n['why']}" for n in made.not_carried) or None)
    return made


def _shell_form(value: dict[str, Any]) -> str:
    """The handler's command as sh runs it (an exec form's program and args, quoted)."""
    command = str(value["command"])
    args = value.get("args")
    if isinstance(args, list):
        return shlex.join([command, *(str(a) for a in args)])
    return command


def _files_named(command: str, roots: dict[str, Path | None], config: Path, used: set[str]) -> tuple[str, list[Copied]]:
    """The command with each word that names a file of the project, the plugin or Claude Code's
    user folder as `${PACK_DIR}/<name>`, and those files."""
    copied: list[Copied] = []
    out, last = [], 0
    for start, end in words(command):
        path = _path_of(command[start:end], roots)
        if path is None:
            continue
        name = next((c.name for c in copied if c.source == path), None) or _free(_safe_name(path.name), used)
        if all(c.source != path for c in copied):
            copied.append(Copied(path, name))
        out.append(command[last:start] + f"{PACK_DIR}/{name}")
        last = end
    return "".join(out) + command[last:], copied


def words(command: str) -> list[tuple[int, int]]:
    """Where each word of a command line is (start, end), as sh splits it: at blanks and
    operators outside quotes."""
    found, start, quote, index = [], None, "", 0
    while index < len(command):
        char = command[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 2
                continue
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
            start = index if start is None else start
        elif char == "\\":
            start = index if start is None else start
            index += 2
            continue
        elif char.isspace() or char in OPERATORS:
            if start is not None:
                found.append((start, index))
                start = None
        elif start is None:
            start = index
        index += 1
    if start is not None:
        found.append((start, len(command)))
    return found


def _path_of(word: str, roots: dict[str, Path | None]) -> Path | None:
    """The file a word names, when it is one of the project's, the plugin's or the user's
    Claude Code folder's (a regular file, not a link)."""
    text = word
    for placeholder, root in PLACEHOLDERS:
        if placeholder in text:
            if roots.get(root) is None:
                return None
            text = text.replace(placeholder, str(roots[root]))
    if text.startswith("~/"):
        text = str(Path.home()) + text[1:]
    try:
        parts = shlex.split(text)
    except ValueError:
        return None
    if len(parts) != 1 or "$" in parts[0] or "`" in parts[0] or "=" in parts[0].split("/")[0]:
        return None
    project = roots.get("project")
    path = Path(parts[0]) if parts[0].startswith("/") else (project / parts[0] if project else None)
    if path is None or not path.is_file() or path.is_symlink():
        return None
    inside = [r for r in (project, roots.get("plugin"), user_dir()) if r is not None]
    return path if any(root.absolute() in path.absolute().parents for root in inside) else None


def _beside(script: Path, used: set[str]) -> list[Copied]:
    """The files beside a copied script that it names (a library it sources, a config it reads)."""
    data = safe_read.read_or_none(script, safe_read.SCRIPT)
    if data is None:
        return []
    text = data[:200_000].decode("utf-8", errors="replace")
    found = []
    for sibling in sorted(script.parent.iterdir()):
        if (sibling != script and sibling.suffix in NEXT_TO_SCRIPTS and sibling.is_file() and not sibling.is_symlink()
                and re.search(r"(?<![\w.-])" + re.escape(sibling.name) + r"(?![\w.-])", text)
                and sibling.name not in used and FILE_NAME.fullmatch(sibling.name)):
            used.add(sibling.name)
            found.append(Copied(sibling, sibling.name))
    return found


def _safe_name(name: str) -> str:
    cleaned = NOT_A_NAME.sub("-", name).lstrip(".-") or "script"
    return cleaned[:100]


def _free(name: str, used: set[str]) -> str:
    """`name`, or name-2, name-3... where it is taken; then taken."""
    stem, dot, suffix = name.partition(".")
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{stem}-{n}{dot}{suffix}"
    used.add(candidate)
    return candidate


def _hook_id(event: str, matcher: str | None, copied: list[Copied], taken: set[str]) -> str:
    """A hook's id: its script's name, else its event and matcher, in the id's letters."""
    base = Path(copied[0].name).stem if copied else f"{event}-{matcher or 'all'}"
    slug = CAMEL_STEP.sub(r"\1-\2", base).lower()
    slug = NOT_AN_ID.sub("-", slug).strip("-")[:30].strip("-") or "hook"
    return _free(slug if slug[0].isalpha() else "hook-" + slug, taken)


def _add(hooks: list[dict[str, Any]], hook: dict[str, Any]) -> None:
    """A hook running the same command on the same event as one made already joins it: its
    matcher is added to that one's (a pack runs a command once per event, as Claude Code does)."""
    for other in hooks:
        if (other["event"], other["command"]) == (hook["event"], hook["command"]):
            other["matcher"] = _either(other["matcher"], hook["matcher"])
            other["timeout"] = max(other["timeout"], hook["timeout"])
            other["rewrites_input"] |= hook["rewrites_input"]
            return
    hooks.append(hook)


def _either(one: str | None, other: str | None) -> str | None:
    """A matcher that matches what either matches (Claude Code's syntax: names, or a regex)."""
    if one in (None, "", "*") or other in (None, "", "*"):
        return None
    if EXACT_MATCHER.fullmatch(one or "") and EXACT_MATCHER.fullmatch(other or ""):
        return "|".join(dict.fromkeys(n.strip() for m in (one, other) for n in (m or "").replace(",", "|").split("|")))
    return "|".join(f"^({m})$" if EXACT_MATCHER.fullmatch(m or "") else f"(?:{m})" for m in (one, other))


def _rewrites(handler: Any) -> bool:
    """Whether the hook may rewrite the tool's input: its event reads a rewrite, and doctor does
    not find that its script never writes one."""
    return handler.event in HOST.rewrite_events and rewrite(handler).status != NO


def _blocks(event: str) -> bool:
    """Whether a hook on this event can stop what the event is about (its exit 2 blocks)."""
    return protocol(event).exit_2 == BLOCKS


def manifest_text(name: str, description: str, hooks: list[dict[str, Any]], files: list[str]) -> str:
    """The pack.toml of a command pack, in TOML (its strings as JSON writes them: TOML reads them alike)."""
    def text(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False) if not isinstance(value, bool) else str(value).lower()

    lines = [f"name = {text(name)}", 'version = "0.1.0"', f"description = {text(description)}"]
    if files:
        lines.append(f"files = [{', '.join(text(f) for f in files)}]")
    for hook in hooks:
        lines += ["", "[[hooks]]", f"id = {text(hook['id'])}", f"command = {text(hook['command'])}",
                  f"description = {text(hook.get('description') or _describe(hook))}",
                  f"rewrites_input = {text(hook['rewrites_input'])}", f"blocks = {text(hook['blocks'])}", "",
                  "[hooks.claude]", f"event = {text(hook['event'])}"]
        if hook["matcher"] not in (None, ""):
            lines.append(f"matcher = {text(hook['matcher'])}")
        lines.append(f"timeout = {text(hook['timeout'])}")
    return "\n".join(lines) + "\n"


def _describe(hook: dict[str, Any]) -> str:
    on = f" on {hook['matcher']}" if hook["matcher"] else ""
    return f"{hook['event']}{on}: runs {hook['command']}"
