"""`hookwright pack new NAME [--from FILE]`: a command pack of one's own, made to install as it
is: a guard to start from with its test cases, or the hooks of a Claude Code config
(installer/pack_from.py), each with a sample call to try it on. `hookwright pack test [PACK]`:
its cases on every agent it is made for, as each would run them (installer/pack_cases.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .. import atomic, hosts, safe_read, sources
from ..errors import ExitCode, HookwrightError, command_line
from ..hosts.claude.adapter import EXACT_MATCHER
from ..hosts.claude.protocol import protocol
from ..pack_cases import CASES, read_cases, try_on
from ..pack_from import manifest_text, read_config
from ..packs import MANIFEST, PACK_DIR, load_pack_file
from ..patterns import lazy
from .result import Payload, Result, Status

NAME = lazy(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")  # schemas/pack.schema.json's name
GUARD = '''#!/usr/bin/env python3
"""{name}'s guard, in Claude Code's hook protocol: the call on stdin as JSON; exit 2 blocks it
with stderr as the reason; exit 0 lets it through (stdout may hold a JSON answer:
hookSpecificOutput's permissionDecision, updatedInput, additionalContext)."""
import json
import sys

call = json.load(sys.stdin)
command = call.get("tool_input", {{}}).get("command", "")
if "rm -rf" in command:
    print("{name}: rm -rf is not allowed here", file=sys.stderr)
    sys.exit(2)
'''
STARTER_CASES = {
    "blocks-rm-rf": {"description": "rm -rf is blocked", "event": "PreToolUse", "tool_name": "Bash",
                     "tool_input": {"command": "rm -rf build"}, "expect": {"blocked": True}},
    "lets-ls-through": {"description": "ls goes on as asked", "event": "PreToolUse", "tool_name": "Bash",
                        "tool_input": {"command": "ls"}, "expect": {"blocked": False, "tool_input": {"command": "ls"}}},
}
SAMPLE_INPUTS = {"Bash": {"command": "echo hello"}, "Write": {"file_path": "notes.txt", "content": "hello\n"},
                 "Edit": {"file_path": "notes.txt", "old_string": "hello", "new_string": "goodbye"},
                 "Read": {"file_path": "notes.txt"}}


class PackMade(Payload):
    def __init__(self, name: str, folder: str, source: str | None, hooks: list[dict[str, Any]],
                 files: list[dict[str, Any]], not_carried: list[dict[str, Any]], next_steps: list[str]) -> None:
        self.name = name
        self.folder = folder
        self.source = source  # --from: the config the hooks came from
        self.hooks = hooks  # id, event, matcher, command
        self.files = files  # each file written: its name in the pack, and what it was copied from
        self.not_carried = not_carried  # --from: the hooks left out, and why
        self.next_steps = next_steps  # commands to run next, as printed


def new_pack(name: str, from_file: Path | None = None, into: Path | None = None) -> Result:
    """Write the pack folder `into/name`: the manifest, its hooks' files and test cases; it is
    read back as install reads it before it takes its place."""
    if not NAME.fullmatch(name) or len(name) > 40:
        raise HookwrightError(f"{name!r} is not a pack name: lowercase letters and digits, words joined by -",
                              hint=command_line("pack", "new", "my-guard"))
    folder = (into or Path.cwd()).absolute() / name
    files: dict[str, tuple[bytes, int]] = {}
    copied_from: dict[str, str] = {}
    if from_file is None:
        hooks: list[dict[str, Any]] = [{
            "id": "guard", "command": f"python3 {PACK_DIR}/guard.py", "event": "PreToolUse", "matcher": "Bash",
            "timeout": 10, "rewrites_input": False, "blocks": True,
            "description": "Blocks rm -rf (exit 2, the reason on stderr); lets the rest through."}]
        files["guard.py"] = (GUARD.format(name=name).encode(), 0o755)
        cases: dict[str, dict[str, Any]] = STARTER_CASES
        not_carried: list[dict[str, Any]] = []
        description = "My own hooks, in Claude Code's hook protocol."
    else:
        made = read_config(from_file)
        hooks, not_carried = made.hooks, made.not_carried
        for copied in made.copied:
            data, mode = _read_copied(copied.source)
            files[copied.name] = (data, mode)
            copied_from[copied.name] = str(copied.source)
        for script, text in made.scripts.items():
            files[script] = (text.encode(), 0o755)
        cases = {f"{hook['id']}-sample": sample_case(hook["id"], hook["event"], hook["matcher"]) for hook in hooks}
        description = f"The hooks of {from_file.name}, as a pack for every agent."

    files[MANIFEST] = (manifest_text(name, description, hooks, []).encode(), 0o644)
    for case, body in cases.items():
        files[f"{CASES}/{case}.json"] = ((json.dumps(body, indent=2) + "\n").encode(), 0o644)
    atomic.write_new_folder(folder, files, check=_check)
    shown = [{"name": file, "from": copied_from.get(file)} for file in sorted(files)]
    steps = [command_line("pack", "test", folder), command_line("install", folder, "--host", "cursor")]
    return Result("pack new", Status.APPLIED, notes=[], payload=PackMade(
        name, str(folder), str(from_file.absolute()) if from_file else None,
        [{"id": h["id"], "event": h["event"], "matcher": h["matcher"], "command": h["command"]} for h in hooks],
        shown, not_carried, steps))


def _check(folder: Path) -> None:
    """The pack as made, read as install reads it (a fault here is a bug of ours or a file --from
    copied that cannot run: said at its place)."""
    load_pack_file(folder / MANIFEST, named=False)


def _read_copied(source: Path) -> tuple[bytes, int]:
    try:
        data = safe_read.read(source, safe_read.SCRIPT)
        executable = source.stat().st_mode & 0o100
    except OSError as err:
        raise HookwrightError(f"cannot read {source}: {err.strerror}", path=source) from None
    return data, 0o755 if executable else 0o644


def sample_case(hook: str, event: str, matcher: str | None) -> dict[str, Any]:
    """A call the hook fires on, to see what each agent makes of its answer (no expectation: the
    author writes it in `expect`)."""
    matcher = matcher or ""
    names = [n.strip() for n in matcher.replace(",", "|").split("|") if n.strip()] if EXACT_MATCHER.fullmatch(
        matcher) else []
    tool = next((n for n in names if n in SAMPLE_INPUTS), names[0] if names else "Bash")
    case: dict[str, Any] = {"description": f"what {hook} makes of a {tool} call", "event": event}
    if protocol(event).tool_event:
        case.update(tool_name=tool, tool_input=SAMPLE_INPUTS.get(tool, {}))
    return case


class PackTested(Payload):
    def __init__(self, pack: str, folder: str, hosts: list[dict[str, Any]]) -> None:
        self.pack = pack
        self.folder = folder  # where the pack was read (a repository's: its tree at the commit)
        self.hosts = hosts  # each agent: tested or why not, and each case's outcome there


def try_pack(text: str | None, host: str | None = None) -> Result:
    """The pack's cases on each agent it is made for (or `host`); exit 1 when one does not pass."""
    pack = sources.load(sources.parse(text or "."))
    cases = read_cases(pack)
    rows = []
    for name in [host] if host else list(pack.hosts):
        adapter = hosts.get(name)
        why = adapter.refusal(pack)
        tried = {"tested": False, "why": why, "cases": []} if why else try_on(pack, name, cases)
        rows.append({"host": name, "title": adapter.title, **tried})
    failed = any(case["passed"] is False for row in rows for case in row["cases"])
    return Result("pack test", Status.CHECKED, exit_code=ExitCode.FINDINGS if failed else ExitCode.OK,
                  payload=PackTested(pack.name, str(pack.folder), rows))
