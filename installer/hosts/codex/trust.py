"""Codex's trust in hooks, computed as Codex computes it (docs/hosts/codex.md#trust).

Codex runs a hook only when both hold, and skips it without a word otherwise:

- a project's hooks: the project is trusted in the user's config.toml,
  `[projects."<path>"] trust_level = "trusted"`, looked up for the folder, then its project root,
  then the root git project, each by its real path and then as given (#project-trust);
- every hook: `[hooks.state."<key>"] trusted_hash` equals the hook's current hash, and the hook
  is not turned off (`enabled = false`). The key is `<file>:<event label>:<group>:<handler>`,
  positions counted over every group and handler of the event, skipped ones included; the hash
  is `sha256:` over a canonical JSON of the hook as Codex normalises it (#trust-key, #trust-hash,
  both checked against `codex app-server`'s hooks/list on 0.171.0: tests/e2e/test_codex_trust.py).

Reading is here (status, doctor and the plan's notes ask), and so is the edit that writes trust
into the user's config.toml, which only `--trust-hooks` asks for: tomlkit keeps every other
byte of the file, and the result is read back before it is used.
"""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, Iterator, Mapping

from ... import safe_read
from ...errors import ErrorKind, HookwrightError
from ...records import Record
from ...resources import toml_from

# the events of 0.171.0 and their names in a trust key (docs/hosts/codex.md#events)
LABELS = {"PreToolUse": "pre_tool_use", "PermissionRequest": "permission_request", "PostToolUse": "post_tool_use",
          "PreCompact": "pre_compact", "PostCompact": "post_compact", "SessionStart": "session_start",
          "SessionEnd": "session_end", "UserPromptSubmit": "user_prompt_submit", "SubagentStart": "subagent_start",
          "SubagentStop": "subagent_stop", "Stop": "stop", "PreModelRequest": "pre_model_request",
          "PostModelRequest": "post_model_request", "Interrupt": "interrupt"}
NO_MATCHER = frozenset({"UserPromptSubmit", "Stop", "PreModelRequest", "PostModelRequest", "Interrupt"})
SHORT_TIMEOUT = frozenset({"SessionEnd", "Interrupt"})  # 1 s unset, at most 3 s
CONTEXT_LIMIT = frozenset({"PreToolUse", "PostToolUse", "SessionStart", "UserPromptSubmit", "SubagentStart"})
DEFAULT_TIMEOUT = 600
DEFAULT_CONTEXT_LIMIT = 2500
TRUSTED = "trusted"

# what Codex does with a hook, as status and doctor say it
RUNS = "runs"
UNTRUSTED_PROJECT = "untrusted project"  # a project's hooks, the project not trusted
UNTRUSTED = "untrusted"  # no hash stored for its key
MODIFIED = "modified"  # a hash stored for its key, not this hook's (edited, or moved to another place)
DISABLED = "disabled"  # enabled = false for its key


def trust_key(source: str, event: str, group: int, handler: int) -> str:
    return f"{source}:{LABELS[event]}:{group}:{handler}"


def trusted_hash(event: str, group: Mapping[str, Any], handler: Mapping[str, Any]) -> str:
    """The hash Codex keeps for a command hook as written in a file (the group and the handler)."""
    timeout = handler.get("timeout")
    if event in SHORT_TIMEOUT:
        timeout = min(max(1 if timeout is None else timeout, 1), 3)
    else:
        timeout = max(DEFAULT_TIMEOUT if timeout is None else timeout, 1)
    normalized: dict[str, Any] = {"type": "command", "command": handler["command"], "timeout": timeout,
                                  "async": handler.get("async") or False}
    if handler.get("statusMessage") is not None:
        normalized["statusMessage"] = handler["statusMessage"]
    limit = handler.get("additionalContextLimit")
    if event in CONTEXT_LIMIT and limit is not None and limit != DEFAULT_CONTEXT_LIMIT:
        normalized["additionalContextLimit"] = limit
    identity: dict[str, Any] = {"event_name": LABELS[event], "hooks": [normalized]}
    if event not in NO_MATCHER and group.get("matcher") is not None:
        identity["matcher"] = group["matcher"]
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    import hashlib  # (only a Codex hook's trust needs it: 3 ms of every doctor run's start otherwise, python -X importtime)

    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


class Hook(Record):
    """One command hook of a file, as Codex keys and hashes it."""

    event: str
    group: int
    handler: int
    key: str
    hash: str
    command: str


def hooks_of(source: str, data: Any) -> Iterator[Hook]:
    """The command hooks Codex would run from a hooks.json's data (a file Codex reads whole: see
    the schema), keyed under `source`, the file's path as Codex finds it. Handlers of another
    type and blank commands keep their place in the count (Codex skips them: #trust-key)."""
    events = data.get("hooks") if isinstance(data, dict) else None
    for event, groups in events.items() if isinstance(events, dict) else ():
        if event not in LABELS or not isinstance(groups, list):
            continue
        for gi, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for hi, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                if (isinstance(handler, dict) and handler.get("type") == "command"
                        and isinstance(handler.get("command"), str) and handler["command"].strip()):
                    try:
                        digest = trusted_hash(event, group, handler)
                    except (TypeError, ValueError, UnicodeEncodeError):  # (a type Codex refuses: the schema says so)
                        continue
                    yield Hook(event, gi, hi, trust_key(source, event, gi, hi), digest, handler["command"])


# ---- the user's config.toml --------------------------------------------------------------------

class Store(Record):
    """What the user's config.toml says about trust (an empty one where there is no file)."""

    path: Path
    projects: dict[str, str]  # path -> trust_level
    states: dict[str, dict[str, Any]]  # trust key (trimmed) -> {"trusted_hash", "enabled"}

    def state_of(self, hook: Hook) -> str:
        held = self.states.get(hook.key, {})
        if held.get("enabled") is False:
            return DISABLED
        stored = held.get("trusted_hash")
        return TRUSTED if stored == hook.hash else MODIFIED if stored is not None else UNTRUSTED


def store_from(path: Path, data: Mapping[str, Any]) -> Store:
    """The trust a config.toml's data holds: the parts of the wrong shape are no trust."""
    projects = data.get("projects")
    levels = {str(folder): table["trust_level"] for folder, table in (projects.items() if isinstance(projects, dict) else ())
              if isinstance(table, dict) and isinstance(table.get("trust_level"), str)}
    hooks = data.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    states = {str(key).strip(): table for key, table in (state.items() if isinstance(state, dict) else ())
              if isinstance(table, dict)}
    return Store(path, levels, states)


def hash_line(path: Path, key: str) -> tuple[Path, int] | None:
    """The line of the `trusted_hash` of `[hooks.state."<key>"]` in the config.toml, if it is there."""
    raw = safe_read.read_or_none(path, safe_read.STATE)
    if raw is None:
        return None
    in_table = False
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        text = line.strip()
        if text.startswith("["):
            in_table = text.startswith("[hooks.state.") and key in text
        elif in_table and text.startswith("trusted_hash"):
            return path, number
    return None


def parse_toml(raw: bytes, path: Path = Path("config.toml")) -> dict[str, Any]:
    """A config.toml's data; a HookwrightError naming the line where Codex would refuse it too."""
    try:
        return toml_from(path, raw, hint="fix the file: Codex does not start with it either")
    except RecursionError:  # (tomllib reads nested arrays and tables by recursion)
        raise HookwrightError("arrays or tables nested deeper than a TOML reader follows", path=path,
                              kind=ErrorKind.NOT_JSON, hint="fix the file: Codex does not start with it either") from None


# ---- project trust -------------------------------------------------------------------------------

def root_of(folder: Path) -> Path:
    """The project root Codex finds for a session in `folder`: the nearest folder, it or above,
    that holds a `.git` (folder or file); else the folder itself (#config-files)."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return folder


def repo_root_of(root: Path) -> Path | None:
    """The main checkout of a linked git worktree (its `.git` file names a gitdir whose commondir
    is the main repository's), else None."""
    dot_git = root / ".git"
    if not dot_git.is_file():
        return None
    text = _head(dot_git)
    if text is None:
        return None
    if not text.startswith("gitdir:"):
        return None
    gitdir = (root / text[len("gitdir:"):].strip()).resolve()
    common = _head(gitdir / "commondir")
    if common is None:
        return None
    return (gitdir / common).resolve().parent


def _head(path: Path) -> str | None:
    """The first line or so of a small file git writes (None where it cannot be read)."""
    try:
        return safe_read.read(path, safe_read.STATE, prefix=4096).decode("utf-8", "replace").strip()
    except (OSError, HookwrightError):
        return None


def project_trust(folder: Path, store: Store) -> tuple[str | None, str]:
    """(the trust level the user's config gives the `.codex/` of `folder` for a session started
    there, None where it says nothing; the key Codex reads it from, or would write it under)."""
    real = Path(os.path.realpath(folder))
    root = root_of(real)
    repo = repo_root_of(root)
    for candidate in (real, folder, root, *([repo] if repo else [])):
        level = store.projects.get(str(candidate))
        if level is not None:
            return level, str(candidate)
    return None, str(repo or root)


# ---- writing trust -------------------------------------------------------------------------------

def with_trust(raw: bytes, projects: list[str], hashes: dict[str, str], forget: dict[str, str]) -> bytes:
    """The config.toml's bytes with these projects trusted, these hashes stored under their keys
    and the keys of `forget` dropped where they still hold that hash; every other byte as it was
    (tomlkit). Read back before it is returned: a result that does not hold exactly the data
    meant (a shape tomlkit cannot extend) is a ValueError, and nothing is written."""
    import tomlkit  # (a trust write only: 9 to 21 ms of CPU on doctor and status, which read trust.py; scripts/bench_start.py)

    before = parse_toml(raw)
    doc = tomlkit.parse(raw.decode("utf-8"))
    for folder in projects:
        _table(_table(doc, "projects"), folder)["trust_level"] = TRUSTED
    state = _table(_table(doc, "hooks"), "state") if hashes or _holds(before, forget) else None
    for key, digest in hashes.items():
        _table(state, key)["trusted_hash"] = digest
    for key, digest in forget.items():
        if state is not None and key in state and state[key].get("trusted_hash") == digest:
            if set(state[key]) <= {"trusted_hash"}:
                del state[key]
            else:
                del state[key]["trusted_hash"]
    if state is not None and not state and forget:  # (the tables the forgetting emptied go too)
        del doc["hooks"]["state"]
        if not doc["hooks"]:
            del doc["hooks"]
    text = tomlkit.dumps(doc)
    if text and not text.endswith("\n"):
        text += "\n"
    written = text.encode("utf-8")
    if parse_toml(written) != _meant(before, projects, hashes, forget):
        raise ValueError("the trust could not be added without changing what the file says")
    return written


def _holds(data: dict[str, Any], forget: dict[str, str]) -> bool:
    state = data.get("hooks", {}).get("state", {}) if isinstance(data.get("hooks"), dict) else {}
    return any(isinstance(state.get(key), dict) and state[key].get("trusted_hash") == digest
               for key, digest in forget.items())


def _table(parent: Any, name: str) -> Any:
    """parent[name], a table made (a super-table where it only holds tables) if missing."""
    import tomlkit

    if name not in parent:
        table = tomlkit.table(is_super_table=name in ("projects", "hooks", "state"))
        parent[name] = table
    return parent[name]


def _meant(before: dict[str, Any], projects: list[str], hashes: dict[str, str], forget: dict[str, str]) -> dict[str, Any]:
    data = copy.deepcopy(before)
    for folder in projects:
        data.setdefault("projects", {}).setdefault(folder, {})["trust_level"] = TRUSTED
    if hashes:
        state = data.setdefault("hooks", {}).setdefault("state", {})
        for key, digest in hashes.items():
            state.setdefault(key, {})["trusted_hash"] = digest
    state = data.get("hooks", {}).get("state", {})
    for key, digest in forget.items():
        if isinstance(state.get(key), dict) and state[key].get("trusted_hash") == digest:
            del state[key]["trusted_hash"]
            if not state[key]:
                del state[key]
    if forget and "state" in data.get("hooks", {}) and not state:
        del data["hooks"]["state"]
        if not data["hooks"]:
            del data["hooks"]
    return data


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes, DEL escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_lines(projects: list[str], hashes: dict[str, str]) -> str:
    """The lines a person adds to config.toml for the same trust."""
    lines = [f'[projects.{toml_string(folder)}]\ntrust_level = "trusted"' for folder in projects]
    lines += [f"[hooks.state.{toml_string(key)}]\ntrusted_hash = {toml_string(digest)}" for key, digest in hashes.items()]
    return "\n".join(lines)
