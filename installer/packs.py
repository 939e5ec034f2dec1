"""Hook packs: `templates/packs/<name>/pack.toml`, validated against schemas/pack.schema.json."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from . import resources, safe_read
from .errors import HookwrightError, did_you_mean
from .hosts import NAMES as HOSTS  # the wirings a pack.toml may hold (schemas/pack.schema.json)
from .patterns import lazy

RUNTIME_LIBRARY = "hookwright_runtime.py"
HOOK_SCRIPT = "hook_script.py"  # installed under each hook's script name: it loads the hook's module
# names a hook's module cannot have: the shared script would import the stdlib's (or the runtime's) instead
RESERVED_MODULES = frozenset(sys.stdlib_module_names) | {"hookwright_runtime", "hook_script"}

# what a hook's flags ask of a host (installer.hosts.base.Capabilities)
FLAG_NEEDS = {"rewrites_input": "rewrite_input", "blocks": "block"}
# every pack with a hook that blocks has this option, without declaring it: `block` installs its
# blocking hooks to fail closed (a hook that cannot decide blocks the call), by what each host
# offers for it and the runtime's own exit 2 (installer/hosts: Host.fail_closed_field)
ON_FAILURE = "on_failure"
FAIL_OPEN, FAIL_CLOSED = "continue", "block"


class HostTarget(NamedTuple):
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


class PackHook(NamedTuple):
    id: str
    script: str
    description: str
    rewrites_input: bool
    blocks: bool
    targets: dict[str, HostTarget]
    needs: frozenset[str] = frozenset()  # host capabilities it cannot work without

    @property
    def module(self) -> str:
        """The pack module the shared hook script loads for this hook: its `handle`, `NAME`, `OPTIONS`."""
        return self.script.replace("-", "_") + ".py"


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
    modules: tuple[str, ...] = ()  # pack-local modules its scripts import

    @property
    def version_key(self) -> tuple[int, ...]:
        return version_key(self.version)

    @property
    def needs(self) -> frozenset[str]:
        """What a host must let its hooks do, for the pack to work there as it says."""
        return frozenset().union(*(hook.needs for hook in self.hooks))

    def hooks_for(self, host: str) -> list[PackHook]:
        return [hook for hook in self.hooks if host in hook.targets]

    def runtime_files(self, host: str) -> dict[str, bytes]:
        """What goes into the pack's runtime folder: the shared hook script under each hook's name,
        the hooks' modules, the pack's other modules and the shared runtime library."""
        script = safe_read.read(resources.runtime_dir() / HOOK_SCRIPT, safe_read.BUNDLED)
        files = {hook.script: script for hook in self.hooks_for(host)}
        for name in [hook.module for hook in self.hooks] + list(self.modules):  # (every module: one may import another)
            files[name] = safe_read.read(self.folder / name, safe_read.MANIFEST)
        files[RUNTIME_LIBRARY] = safe_read.read(resources.runtime_dir() / RUNTIME_LIBRARY, safe_read.BUNDLED)
        return files

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
        return load_pack_file(found[0])
    known = bundled_pack_names()
    raise HookwrightError(f"unknown pack {name!r}",
                          hint=did_you_mean(name, known) or f"available packs: {', '.join(known)}")


def load_pack_file(manifest: Path) -> Pack:
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
    if raw["name"] != manifest.parent.name:
        raise HookwrightError(f"pack name {raw['name']!r} differs from its folder {manifest.parent.name!r}",
                              path=manifest)
    hooks = []
    for item in raw["hooks"]:
        targets = {host: HostTarget(t["event"], t.get("matcher", t.get("tools")), t["timeout"], t.get("matcher_option"),
                                    tuple(t.get("also_on", ())))
                   for host, t in item.items() if host in HOSTS}
        needs = frozenset(item.get("needs", [])) | {need for flag, need in FLAG_NEEDS.items() if item[flag]}
        hooks.append(PackHook(item["id"], item["script"], item["description"],
                              item["rewrites_input"], item["blocks"], targets, needs))
    for hook in hooks:
        if hook.module[:-3] in RESERVED_MODULES:
            raise HookwrightError(f"hook {hook.id!r} would run module {hook.module!r}, which is a module of Python's "
                                  "own or hookwright's: the hook's script would load that one", path=manifest,
                                  hint=f"give the hook another script name than {hook.script!r}")
        if not (manifest.parent / hook.module).is_file():
            raise HookwrightError(f"hook {hook.id!r} runs module {hook.module!r} (its script {hook.script!r}"
                                  " with _ for -), which is not in the pack", path=manifest,
                                  hint="the module defines handle(call), NAME and OPTIONS")
    ids = [h.id for h in hooks]
    if len(set(ids)) != len(ids):
        raise HookwrightError("two hooks share one id", path=manifest)
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
    for name in raw.get("files", []):
        if not (manifest.parent / name).is_file():
            raise HookwrightError(f"files names {name!r}, which is not in the pack", path=manifest)
    return Pack(raw["name"], raw["version"], raw["description"], manifest.parent, tuple(hooks), options,
                tuple(raw.get("files", [])))


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
