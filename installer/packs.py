"""Hook packs: a folder with a `pack.toml`, validated against schemas/pack.schema.json.

A hook of a pack is either a module written for hookwright's runtime (`script`: its `handle`
decides, in Claude Code's words, for every host) or a command of the author's that speaks Claude
Code's hook protocol (`command`): a command pack. A command hook is wired for Claude Code
(`[hooks.claude]`); each other host's adapter says how that wiring is written there
(Host.wiring_from_claude) or why it cannot be, unless the hook gives that host's table itself.
Claude Code runs the command as written; every other host runs it behind the runtime
(command_hook.py and commands.json in the runtime folder), which hands it the call in Claude
Code's words and turns its answer into the host's.
"""
from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from . import hosts, resources, safe_read
from .errors import HookwrightError, did_you_mean
from .hosts import NAMES as HOSTS  # the wirings a pack.toml may hold (schemas/pack.schema.json)
from .hosts import get
from .layout import COMMANDS as COMMANDS_FILE
from .layout import RECEIPT as RECEIPT_NAME
from .patterns import lazy
from .provenance import BUNDLED, Source
from .records import Record

RUNTIME_LIBRARY = "hookwright_runtime.py"
HOOK_SCRIPT = "hook_script.py"  # installed under each hook's script name: it loads the hook's module
COMMAND_SCRIPT = "command_script.py"  # installed under each command hook's name where the runtime runs it
PACK_DIR = "${PACK_DIR}"  # in a command: the pack's folder, as installed (hookwright_runtime.PACK_DIR)
MANIFEST = "pack.toml"
# names a hook's module cannot have: the shared script would import the stdlib's (or the runtime's) instead
RESERVED_MODULES = frozenset(sys.stdlib_module_names) | {"hookwright_runtime", "hook_script"}

# what a hook's flags ask of a host (installer.hosts.base.Capabilities)
FLAG_NEEDS = {"rewrites_input": "rewrite_input", "blocks": "block"}
# every pack with a hook that blocks has this option, without declaring it: `block` installs its
# blocking hooks to fail closed (a hook that cannot decide blocks the call), by what each host
# offers for it and the runtime's own exit 2 (installer/hosts: Host.fail_closed_field)
ON_FAILURE = "on_failure"
FAIL_OPEN, FAIL_CLOSED = "continue", "block"


class HostTarget(Record):
    """How one hook is wired into one host: event, matcher (opencode: the tools its plugin
    runs the hook for, `mcp` or names joined by |), timeout in seconds."""

    event: str
    matcher: str | None
    timeout: float
    matcher_option: str | None = None  # the matcher is this pack option's value
    also_on: tuple[str, ...] = ()  # more events it is wired to, with the same matcher and timeout

    @property
    def events(self) -> tuple[str, ...]:
        return (self.event, *self.also_on)

    @property
    def whole_timeout(self) -> int | float:
        """The timeout as written in a config: 10, not 10.0."""
        return int(self.timeout) if float(self.timeout).is_integer() else self.timeout


class PackHook(Record):
    id: str
    script: str  # its name in the runtime folder (a command hook's: its id)
    description: str
    rewrites_input: bool
    blocks: bool
    targets: dict[str, HostTarget]
    needs: frozenset[str] = frozenset()  # host capabilities it cannot work without
    command: str | None = None  # a command hook's command, in Claude Code's protocol (${PACK_DIR}: the pack)
    unwired: tuple[tuple[str, str], ...] = ()  # (host, why the hook cannot be wired there), for a command hook

    @property
    def module(self) -> str:
        """The pack module the shared hook script loads for this hook: its `handle`, `NAME`, `OPTIONS`
        (a command hook has none: its script runs the command, command_script.py)."""
        return self.script.replace("-", "_") + ".py"

    def why_unwired(self, host: str) -> str | None:
        return dict(self.unwired).get(host)


@dataclass(frozen=True)
class PackOption:
    name: str
    type: str
    default: Any
    description: str
    choices: tuple[str, ...] = ()  # a string option's allowed values (none: any string)

    def parse(self, text: str) -> Any:
        if self.type == "list":
            return _name_list(self.name, text)
        if self.type == "bool":
            lowered = text.lower()
            if lowered in ("true", "yes", "1", "on"):
                return True
            if lowered in ("false", "no", "0", "off"):
                return False
            raise HookwrightError(f"option {self.name} takes true or false, not {text!r}")
        if self.choices and text not in self.choices:
            raise HookwrightError(f"option {self.name} takes {', '.join(self.choices)}, not {text!r}",
                                  hint=did_you_mean(text, self.choices))
        return text




@dataclass(frozen=True)
class Pack:
    name: str
    version: str
    description: str
    folder: Path
    hooks: tuple[PackHook, ...]
    options: dict[str, PackOption] = field(default_factory=dict)
    modules: tuple[str, ...] = ()  # the pack's other files: modules its scripts import, or the files a command runs
    hosts: tuple[str, ...] = HOSTS  # the agents it is made for
    source: Source = BUNDLED
    executable: frozenset[str] = frozenset()  # its files that keep their run bit

    @property
    def version_key(self) -> tuple[int, ...]:
        return version_key(self.version)

    @property
    def needs(self) -> frozenset[str]:
        """What a host must let its hooks do, for the pack to work there as it says."""
        return frozenset().union(*(hook.needs for hook in self.hooks))

    def hooks_for(self, host: str) -> list[PackHook]:
        return [hook for hook in self.hooks if host in hook.targets]

    @property
    def is_command_pack(self) -> bool:
        return any(hook.command is not None for hook in self.hooks)

    def runtime_files(self, host: str) -> dict[str, bytes]:
        """What goes into the pack's runtime folder: the shared hook script under each hook's name,
        the hooks' modules, the pack's other files and the shared runtime library. Where the host
        runs a command hook as written (Claude Code), that hook needs only the files it runs."""
        as_written = get(host).runs_commands_as_written
        runtime = [hook for hook in self.hooks_for(host) if hook.command is None or not as_written]
        files: dict[str, bytes] = {}
        for hook in runtime:
            launcher = HOOK_SCRIPT if hook.command is None else COMMAND_SCRIPT
            files[hook.script] = safe_read.read(resources.runtime_dir() / launcher, safe_read.BUNDLED)
        for hook in self.hooks if any(h.command is None for h in runtime) else ():  # (every module: one may import another)
            if hook.command is None:
                files[hook.module] = safe_read.read(self.folder / hook.module, safe_read.MANIFEST)
        commands = {hook.id: {"command": hook.command, "timeout": hook.targets[host].whole_timeout}
                    for hook in runtime if hook.command is not None}
        if commands:
            files[COMMANDS_FILE] = (json.dumps({"format": 1, "hooks": commands}, indent=2, sort_keys=True)
                                    + "\n").encode()
        for name in self.modules:
            files[name] = safe_read.read(self.folder / name, safe_read.MANIFEST)
        if runtime:
            files[RUNTIME_LIBRARY] = safe_read.read(resources.runtime_dir() / RUNTIME_LIBRARY, safe_read.BUNDLED)
        return files

    def mode(self, name: str) -> int:
        """A runtime file's mode: the scripts the host runs, and a command pack's files that have
        their run bit, get it; the rest are read."""
        return 0o755 if self.is_script(name) or name in self.executable else 0o644

    def defaults(self) -> dict[str, Any]:
        return {name: option.default for name, option in self.options.items()}

    def is_script(self, name: str) -> bool:
        return any(hook.script == name for hook in self.hooks)

    def fails_closed(self, hook: PackHook, options: dict[str, Any]) -> bool:
        """Whether this hook is to block a call it cannot decide on (the pack's on_failure=block)."""
        return hook.blocks and options.get(ON_FAILURE) == FAIL_CLOSED

    def matcher(self, hook: PackHook, host: str, options: dict[str, Any]) -> str | None:
        wiring = hook.targets[host]
        return str(options[wiring.matcher_option]) if wiring.matcher_option else wiring.matcher


LIST_ITEM = lazy(r"[A-Za-z_][A-Za-z0-9_.-]*")  # a name in a list option (an argument's, say)


def _name_list(option: str, text: str) -> str:
    """A list option's value: names joined by commas, spaces around them dropped. An empty name
    or one that is no name (`/etc`) is refused (exit 2): the runtime would look for it in vain."""
    names = [name.strip() for name in text.split(",")]
    for index, name in enumerate(names):
        if not name:
            valid = ",".join(n for n in names if LIST_ITEM.fullmatch(n)) or "path,file_path"
            raise HookwrightError(f"option {option} has an empty name (item {index + 1} of {text!r})",
                                  hint=f"write the names joined by single commas, e.g. {option}={valid}")
        if not LIST_ITEM.fullmatch(name):
            raise HookwrightError(f"option {option}: {name!r} is not a name (letters, digits, _ . -)",
                                  hint="give the names of the arguments, joined by commas")
    return ",".join(names)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def bundled_pack_names() -> list[str]:
    """Every pack hookwright can install: bundled, then HOOKWRIGHT_PACKS_PATH's."""
    return sorted({p.name for folder in resources.pack_dirs() if folder.is_dir()
                   for p in folder.iterdir() if (p / "pack.toml").is_file()})


def load_pack(name: str) -> Pack:
    """The pack of that name. Two folders on the pack path holding one (yours named like a bundled
    one, say) is an error: which of them an install, upgrade or uninstall means cannot be told."""
    found = list(dict.fromkeys(manifest.resolve() for folder in resources.pack_dirs()
                               if (manifest := folder / name / "pack.toml").is_file()))  # (a folder named twice is one)
    if len(found) > 1:
        raise HookwrightError(f"two packs are named {name!r}: {found[0].parent} and {found[1].parent}",
                              hint="rename your own pack (its folder and the name in its pack.toml)")
    if found:
        bundled = found[0].parent.parent == resources.packs_dir().resolve()
        return load_pack_file(found[0], BUNDLED if bundled else Source("folder", str(found[0].parent)))
    known = bundled_pack_names()
    raise HookwrightError(f"unknown pack {name!r}",
                          hint=did_you_mean(name, known) or f"available packs: {', '.join(known)}")


def load_pack_file(manifest: Path, source: Source = BUNDLED, named: bool = True) -> Pack:
    """The pack whose manifest this is; any fault in it (the manifest, a file it names, a
    command hook's wiring) is an error at its place (exit 2). `named`: found by its name (the
    pack folders), so its folder must have that name; a folder or a repository named on the
    command line is a pack whatever its folder is called."""
    raw = resources.read_toml(manifest, hint="fix the pack manifest (schemas/pack.schema.json)",
                              kind=safe_read.MANIFEST)
    errors = sorted(resources.schema_errors("pack.schema.json", raw),
                    key=lambda e: [str(p) for p in e.instance_path])
    if errors:
        first = errors[0]
        where = ".".join(str(p) for p in first.instance_path) or "(top level)"
        raise HookwrightError(f"invalid pack manifest at {where}: {first.message}", path=manifest,
                              hint="see schemas/pack.schema.json",
                              detail="\n".join(f"{'.'.join(map(str, e.instance_path))}: {e.message}" for e in errors))
    if named and raw["name"] != manifest.parent.name:
        raise HookwrightError(f"pack name {raw['name']!r} differs from its folder {manifest.parent.name!r}",
                              path=manifest)
    folder = manifest.parent
    files = list(raw.get("files", []))
    hooks = []
    for item in raw["hooks"]:
        if ("script" in item) == ("command" in item):
            raise HookwrightError(f"hook {item['id']!r} must have either a script (a module of hookwright's runtime) "
                                  "or a command (in Claude Code's hook protocol), not " +
                                  ("both" if "script" in item else "neither"), path=manifest)
        targets = {host: HostTarget(t["event"], t.get("matcher", t.get("tools")), t["timeout"], t.get("matcher_option"),
                                    tuple(t.get("also_on", ())))
                   for host, t in item.items() if host in HOSTS}
        needs = frozenset(item.get("needs", [])) | {need for flag, need in FLAG_NEEDS.items() if item[flag]}
        hook = PackHook(item["id"], item.get("script", item["id"]), item["description"],
                        item["rewrites_input"], item["blocks"], targets, needs, item.get("command"))
        if hook.command is not None:
            hook = _wired_command_hook(manifest, hook)
            files += [name for name in command_files(manifest, hook) if name not in files]
        hooks.append(hook)
    for hook in hooks:
        if hook.command is None and hook.module[:-3] in RESERVED_MODULES:
            raise HookwrightError(f"hook {hook.id!r} would run module {hook.module!r}, which is a module of Python's "
                                  "own or hookwright's: the hook's script would load that one", path=manifest,
                                  hint=f"give the hook another {'id' if hook.command else 'script name'} than "
                                       f"{hook.script!r}")
        if hook.command is None and not (folder / hook.module).is_file():
            raise HookwrightError(f"hook {hook.id!r} runs module {hook.module!r} (its script {hook.script!r}"
                                  " with _ for -), which is not in the pack", path=manifest,
                                  hint="the module defines handle(call), NAME and OPTIONS")
    ids = [h.id for h in hooks]
    if len(set(ids)) != len(ids):
        raise HookwrightError("two hooks share one id", path=manifest)
    _check_same_commands(manifest, hooks)
    options = {name: PackOption(name, o["type"], o["default"], o["description"], tuple(o.get("choices", ())))
               for name, o in raw.get("options", {}).items()}
    if ON_FAILURE in options:
        raise HookwrightError(f"option {ON_FAILURE} is hookwright's own (every pack with a hook that blocks has it)",
                              path=manifest, hint="give the option another name")
    if any(hook.blocks for hook in hooks):
        options[ON_FAILURE] = PackOption(
            ON_FAILURE, "string", FAIL_OPEN,
            "What a blocking hook does when it cannot decide (its module does not load, it fails, it times out): "
            "`continue` lets the call go on, with a line in hooks.log and the decision log; `block` blocks it "
            "(fails closed), by what the agent offers for it (Claude Code's onFailure, Cursor's failClosed, the "
            "opencode plugin's throw) and the runtime's exit 2.", (FAIL_OPEN, FAIL_CLOSED))
    for option in options.values():
        if option.choices and option.default not in option.choices:
            raise HookwrightError(f"option {option.name}'s default {option.default!r} is not one of its choices",
                                  path=manifest)
    for hook in hooks:
        for wiring in hook.targets.values():
            if wiring.matcher_option and wiring.matcher_option not in options:
                raise HookwrightError(f"hook {hook.id!r} takes its matcher from option {wiring.matcher_option!r},"
                                      " which the pack does not declare", path=manifest)
    executable = _check_files(manifest, files, hooks)
    commands = any(hook.command is not None for hook in hooks)  # (a module's mode is 0644 whatever its file's)
    return Pack(raw["name"], raw["version"], raw["description"], folder, tuple(hooks), options, tuple(files),
                tuple(raw.get("hosts", HOSTS)), source, frozenset(executable if commands else ()))


FILE_NAME = lazy(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,99}")  # a pack file's name: no folder, no leading dot
_PACK_FILE = lazy(r"\$\{PACK_DIR\}/(?P<name>[^\s'\"/;&|<>()`$\\]+)")  # a file a command names


def command_files(manifest: Path, hook: PackHook) -> list[str]:
    """The pack files a command hook's command names (`${PACK_DIR}/<file>`): at least one, each
    a file of the pack's own folder, written where a shell reads it as one word (outside quotes:
    hookwright quotes the folder itself)."""
    command = hook.command or ""
    quoted = _quoted_spans(command)
    for at in _places(command, PACK_DIR):
        if any(start <= at < end for start, end in quoted):
            raise HookwrightError(f"hook {hook.id!r}: write {PACK_DIR} outside quotes in its command (hookwright quotes "
                                  "the folder it stands for itself)", path=manifest,
                                  hint=f"e.g. command = \"bash {PACK_DIR}/guard.sh\"")
    names = list(dict.fromkeys(found["name"] for found in _PACK_FILE.finditer(command)))
    if not names:
        raise HookwrightError(f"hook {hook.id!r}: its command names no file of the pack ({PACK_DIR}/<file>)",
                              path=manifest, hint=f"a command pack's hook runs a file of its folder, e.g. "
                                                  f"command = \"bash {PACK_DIR}/guard.sh\" (a one-line command goes "
                                                  "into a script of its own)")
    return names


def _places(text: str, word: str) -> list[int]:
    found, at = [], text.find(word)
    while at >= 0:
        found.append(at)
        at = text.find(word, at + 1)
    return found


def _quoted_spans(command: str) -> list[tuple[int, int]]:
    """Where a shell reads `command` inside single or double quotes (backslash escapes kept)."""
    spans, quote, start, index = [], "", 0, 0
    while index < len(command):
        char = command[index]
        if char == "\\" and quote != "'":
            index += 2
            continue
        if quote and char == quote:
            spans.append((start, index))
            quote = ""
        elif not quote and char in "'\"":
            quote, start = char, index
        index += 1
    if quote:
        spans.append((start, len(command)))
    return spans


def _wired_command_hook(manifest: Path, hook: PackHook) -> PackHook:
    """A command hook with a wiring for every host: Claude Code's own, the tables it gives, and
    for each other host the adapter's rendering of the Claude Code wiring, or why there is none."""
    claude = hook.targets.get("claude")
    if claude is None:
        raise HookwrightError(f"hook {hook.id!r} runs a command in Claude Code's protocol, so it needs its "
                              "[hooks.claude] table (event, matcher, timeout): the other agents' wiring is made "
                              "from it", path=manifest)
    if claude.matcher_option:
        raise HookwrightError(f"hook {hook.id!r}: a command hook's matcher is written in its table, not taken from "
                              "an option", path=manifest)
    targets, unwired = dict(hook.targets), []
    for name in HOSTS:
        if name in targets:
            continue
        made = hosts.get(name).wiring_from_claude(hook, claude)
        if isinstance(made, str):
            unwired.append((name, made))
        else:
            targets[name] = made
    return hook._replace(targets=targets, unwired=tuple(unwired))


def _check_same_commands(manifest: Path, hooks: list[PackHook]) -> None:
    """Two command hooks running one command on one event would be one entry to an agent that
    runs a command once per call (Claude Code): a pack that means both says so in one hook."""
    seen: dict[tuple[str, str], str] = {}
    for hook in hooks:
        if hook.command is None:
            continue
        key = (hook.targets["claude"].event, hook.command)
        if key in seen:
            raise HookwrightError(f"hooks {seen[key]!r} and {hook.id!r} run the same command on {key[0]}",
                                  path=manifest, hint="make them one hook whose matcher names both "
                                                      "(Bash|Write), or give them different commands")
        seen[key] = hook.id


def _check_files(manifest: Path, files: list[str], hooks: list[PackHook]) -> set[str]:
    """Each file the pack names is a regular file of its folder (a link is refused: a repository
    could point it anywhere), named so that it cannot take the place of a file of hookwright's
    own in the runtime folder. Returns the names whose run bit is set."""
    ours = {RUNTIME_LIBRARY, COMMANDS_FILE, RECEIPT_NAME, MANIFEST} | {h.script for h in hooks}
    executable = set()
    for name in files:
        where = manifest.parent / name
        if not FILE_NAME.fullmatch(name):
            raise HookwrightError(f"the pack file {name!r} has a name hookwright does not copy (letters, digits, "
                                  "_ . -, no folder, not starting with a dot)", path=manifest)
        if name in ours:
            raise HookwrightError(f"the pack file {name!r} has the name of a file hookwright writes into the runtime "
                                  "folder (a hook's script or module, commands.json, receipt.json)", path=manifest,
                                  hint="rename the file, or give the hook another id")
        try:
            found = os.lstat(where)
        except FileNotFoundError:
            raise HookwrightError(f"the pack names {name!r}, which is not in the pack's folder", path=manifest,
                                  hint=f"add {where}, or fix the name in pack.toml") from None
        if not stat.S_ISREG(found.st_mode):
            raise HookwrightError(f"the pack file {name!r} is not a regular file" +
                                  (" (a symbolic link)" if stat.S_ISLNK(found.st_mode) else ""), path=where,
                                  hint="put the file itself in the pack's folder")
        if found.st_mode & stat.S_IXUSR:
            executable.add(name)
    return executable


@cache
def shipped_runtime(name: str, version: str, host: str) -> dict[str, bytes] | None:
    """The runtime files this hookwright ships for pack `name` at `version` in `host`: what an
    install of it holds, whatever its receipt says; None for a pack it does not bundle (your
    own, from HOOKWRIGHT_PACKS_PATH) or another version of one it does."""
    manifest = resources.packs_dir() / name / "pack.toml"
    if not manifest.is_file():
        return None
    try:
        pack = load_pack_file(manifest)
    except HookwrightError:
        return None
    return pack.runtime_files(host) if pack.version == version and pack.hooks_for(host) else None


def compile_flags() -> dict[str, dict[str, bool]]:
    """templates/packs/flags.json's content: for each bundled pack, whether each of its hooks'
    scripts rewrites the tool's input. doctor reads it (resources.pack_flags) instead of loading
    the packs: tomllib and this module cost a tenth of a small project's whole check."""
    packs = [load_pack_file(manifest) for manifest in sorted(resources.packs_dir().glob("*/pack.toml"))]
    return {pack.name: {hook.script: hook.rewrites_input for hook in pack.hooks} for pack in packs}


def resolve_options(packs: list[Pack], assignments: list[str]) -> dict[str, dict[str, Any]]:
    """Turn `--option key=value` into per-pack values; each key must belong to exactly one pack."""
    chosen: dict[str, dict[str, Any]] = {pack.name: {} for pack in packs}
    for assignment in assignments:
        key, sep, value = assignment.partition("=")
        if not sep:
            raise HookwrightError(f"--option {assignment!r}: expected KEY=VALUE")
        pack_name, dot, option = key.rpartition(".")
        owners = [p for p in packs if option in p.options and (not dot or p.name == pack_name)]
        if not owners:
            known = [name for p in packs for name in p.options]
            raise HookwrightError(f"--option {key!r}: no chosen pack has this option",
                                  hint=did_you_mean(option, known) or "`hookwright packs` lists each pack's options")
        if len(owners) > 1:
            raise HookwrightError(f"--option {key!r} is ambiguous", hint="write it as PACK.KEY=VALUE")
        chosen[owners[0].name][option] = owners[0].options[option].parse(value)
    return chosen
