"""Claude Code: its settings files per scope, and how our hooks sit in them.

`{"hooks": {Event: [{"matcher": ..., "hooks": [handler, ...]}]}}`. Claude Code strips
unknown keys when it rewrites settings, so an entry is ours by its command alone:
`python3 -I -S <...>/hookwright/<pack>/<script> --host claude [...]`.
"""
from __future__ import annotations

import copy
import os
import re
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from installer import resources
from installer.document import Document
from installer.errors import HookwrightError
from installer.hosts.base import Entry, Scope, Target

if TYPE_CHECKING:
    from installer.packs import Pack

NAME = "claude"
PROJECT_VAR = '"$CLAUDE_PROJECT_DIR"'
RUNTIME_FOLDER = {Scope.user: "hookwright", Scope.project: "hookwright", Scope.local: "hookwright-local"}
CONFIG_FILE = {Scope.user: "settings.json", Scope.project: "settings.json", Scope.local: "settings.local.json"}

_OWNED = re.compile(
    r"""^python3 -I -S .*hookwright(?:-local)?/(?P<pack>[a-z][a-z0-9-]*)/(?P<script>[a-z][a-z0-9-]*)['"]?"""
    r""" --host claude(?:\s|$)""",
    re.DOTALL,  # a home folder's name may hold a newline (quoted in the command)
)


def user_dir() -> Path:
    """~/.claude, or wherever CLAUDE_CONFIG_DIR moves it."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured).expanduser() if configured else Path.home() / ".claude"


def managed_dir() -> Path:
    """Where an administrator puts policy files: read by doctor and list, never written."""
    if sys.platform == "darwin":
        return Path("/Library/Application Support/ClaudeCode")
    if sys.platform == "win32":
        return Path(r"C:\Program Files\ClaudeCode")
    return Path("/etc/claude-code")


def managed_paths() -> list[Path]:
    base = managed_dir()
    return [base / "managed-settings.json", *sorted((base / "managed-settings.d").glob("*.json"))]


def local_settings_read(project: Path) -> list[Path]:
    """The settings.local.json files a session started in `project` reads: the one at the root
    of the git repository (or worktree) it is in, and the project's own (measured on Claude Code
    2.1.328, claude-code-observed.md j). Project settings, by contrast, come only from the
    folder the session starts in."""
    own = project / ".claude" / CONFIG_FILE[Scope.local]
    for folder in (project, *project.parents):
        if (folder / ".git").exists():
            root = folder / ".claude" / CONFIG_FILE[Scope.local]
            return [root] if root == own else [root, own]
    return [own]


def target(scope: Scope, project: Path | None) -> Target:
    if scope is Scope.user:
        base = user_dir()
        project = None
    else:
        project = (project or Path.cwd()).resolve()
        if not project.is_dir():
            raise HookwrightError(f"the project folder {project} does not exist", path=project,
                                  hint="give an existing folder with --project")
        base = project / ".claude"
        if base.resolve() == user_dir().resolve():
            raise HookwrightError(f"in {project}, {scope.value} scope is your user settings ({user_dir()})",
                                  path=base / CONFIG_FILE[scope], hint="use --scope user, or run from a project")
    return Target(NAME, scope, base / CONFIG_FILE[scope], base / RUNTIME_FOLDER[scope], project)


def script_path(target: Target, pack: str, script: str) -> Path:
    return target.pack_dir(pack) / script


def command_for(target: Target, pack: Pack, script: str, options: dict[str, Any]) -> str:
    """The shell command Claude Code runs. Project scopes go through $CLAUDE_PROJECT_DIR so a
    committed config works for every teammate; the user scope uses a quoted absolute path."""
    path = script_path(target, pack.name, script)
    if target.scope is Scope.user:
        where = shlex.quote(str(path))
    else:
        where = PROJECT_VAR + "/" + shlex.quote(path.relative_to(target.project).as_posix())
    extra = "".join(
        f" --option {name}={shlex.quote(_option_text(value))}"
        for name, value in sorted(options.items())
        if value != pack.options[name].default
    )
    return f"python3 -I -S {where} --host claude{extra}"


def _option_text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def render(target: Target, pack: Pack, options: dict[str, Any]) -> list[Entry]:
    entries = []
    for hook in pack.hooks_for(NAME):
        wiring = hook.targets[NAME]
        timeout = int(wiring.timeout) if float(wiring.timeout).is_integer() else wiring.timeout
        handler = {"type": "command", "command": command_for(target, pack, hook.script, options),
                   "timeout": timeout}
        entries.append(Entry.of(pack.name, hook.id, wiring.event, pack.matcher(hook, NAME, options), handler))
    return entries


def owner(handler: Any) -> tuple[str, str] | None:
    """(pack, script) if this handler runs one of our runtimes."""
    if not isinstance(handler, dict) or handler.get("type") != "command":
        return None
    match = _OWNED.match(str(handler.get("command", "")))
    return (match["pack"], match["script"]) if match else None


# ---- reading the document --------------------------------------------------------------

def check_document(doc: Document) -> None:
    """Refuse shapes we cannot edit without guessing (exit 2, with the position)."""
    data = doc.data

    def fail(message: str, *keys: str, hint: str) -> None:
        node = doc.node_at(*keys)
        line, col = doc.position(node) if node else (None, None)
        raise HookwrightError(message, path=doc.path, line=line, column=col, hint=hint)

    if not isinstance(data, dict):
        fail(f"the settings file must hold a JSON object, not {_kind(data)}",
             hint="wrap the settings in { } or restore the file")
    hooks = data.get("hooks")
    if "hooks" in data and not isinstance(hooks, dict):
        fail(f'"hooks" must be an object of events, not {_kind(hooks)}', "hooks",
             hint='write it as "hooks": {"PreToolUse": [...]}')
    for event, groups in (hooks or {}).items():
        if not isinstance(groups, list):
            fail(f'"hooks.{event}" must be a list of matcher groups, not {_kind(groups)}', "hooks", event,
                 hint=f'write it as "{event}": [{{"matcher": "...", "hooks": [...]}}]')


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")


def handlers(data: dict) -> Iterator[tuple[str, int, int, Any]]:
    """(event, group index, handler index, handler) for every handler in well-formed groups."""
    for event, groups in (data.get("hooks") or {}).items():
        for gi, group in enumerate(groups):
            if isinstance(group, dict) and isinstance(group.get("hooks"), list):
                for hi, handler in enumerate(group["hooks"]):
                    yield event, gi, hi, handler


def owned_entries(data: dict, pack: str) -> list[Entry]:
    """Our entries for `pack` as they stand in the file now (whatever the receipt says)."""
    found = []
    for event, gi, _, handler in handlers(data):
        who = owner(handler)
        if who and who[0] == pack:
            matcher = data["hooks"][event][gi].get("matcher")
            found.append(Entry.of(pack, who[1], event, matcher, handler))
    return found


def problems(data: Any) -> set[str]:
    """Schema violations, as comparable strings (to refuse a write that adds any)."""
    return {f"{'/'.join(map(str, e.instance_path)) or '(root)'}: {e.message}"
            for e in resources.validator("claude-settings.schema.json").iter_errors(data)}


def empty_containers(data: dict, entries: list[Entry]) -> list[str]:
    """Containers on the entries' paths that exist and are empty: they must stay after uninstall."""
    kept = []
    if data.get("hooks") == {}:
        kept.append("hooks")
    for event in {e.event for e in entries}:
        if (data.get("hooks") or {}).get(event) == []:
            kept.append(f"hooks.{event}")
    return kept


# ---- editing -----------------------------------------------------------------------------

def add(data: dict, entry: Entry) -> dict:
    """Our handler goes into a group of our own (never into a foreign group), at the end."""
    data = copy.deepcopy(data)
    groups = data.setdefault("hooks", {}).setdefault(entry.event, [])
    for group in groups:
        if (isinstance(group, dict) and group.get("matcher") == entry.matcher
                and isinstance(group.get("hooks"), list) and group["hooks"]
                and all((owner(h) or ("",))[0] == entry.pack for h in group["hooks"])):
            group["hooks"].append(entry.handler)
            return data
    group = {"matcher": entry.matcher} if entry.matcher is not None else {}
    group["hooks"] = [entry.handler]
    groups.append(group)
    return data


def remove(data: dict, entry: Entry, keep_empty: list[str]) -> dict:
    """Take out the handler that runs `entry`'s script; drop containers this emptied."""
    data = copy.deepcopy(data)
    for event, gi, hi, handler in list(handlers(data)):
        if event == entry.event and owner(handler) == (entry.pack, _script_of(entry)):
            groups = data["hooks"][event]
            del groups[gi]["hooks"][hi]
            if not groups[gi]["hooks"]:
                del groups[gi]
            if not groups and f"hooks.{event}" not in keep_empty:
                del data["hooks"][event]
            if not data["hooks"] and "hooks" not in keep_empty:
                del data["hooks"]
            return data
    return data


def replace(data: dict, old: Entry, new: Entry) -> dict:
    """Upgrade in place: same position when event and matcher stay, else remove and add."""
    if (old.event, old.matcher) == (new.event, new.matcher):
        data = copy.deepcopy(data)
        for event, gi, hi, handler in handlers(data):
            if event == old.event and owner(handler) == (old.pack, _script_of(old)):
                data["hooks"][event][gi]["hooks"][hi] = new.handler
                return data
    return add(remove(data, old, keep_empty=[]), new)


def find(data: dict, entry: Entry) -> Any | None:
    """The handler now in the file that runs `entry`'s script (ours by its command), if any."""
    for event, _, _, handler in handlers(data):
        if event == entry.event and owner(handler) == (entry.pack, _script_of(entry)):
            return handler
    return None


def _script_of(entry: Entry) -> str:
    who = owner(entry.handler)
    return who[1] if who else ""
