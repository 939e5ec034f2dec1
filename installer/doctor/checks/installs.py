"""Our own installs: every pack hookwright put into a host's config, checked against its
receipt (entries present, runtime files present and unchanged), and a project's installs
against the pack list it commits (installer/team.py)."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ... import hosts
from ...document import Document
from ...errors import HookwrightError
from ...hosts.base import Host, Scope, Target
from ...hosts.opencode import scope_folder as opencode_folder
from ...layout import COMMANDS as COMMANDS_FILE
from ...layout import RUNTIME_FOLDER, RUNTIME_FOLDERS, is_temp_name, pack_list_files, stale_temps
from ..discovery import Candidate
from ..load import read
from ..model import ConfigFile, Context, Finding, Handler, RuleTable, cached_property, resolved, rule_by_id

if TYPE_CHECKING:  # (state loads only where a receipt exists; team where a project config does)
    from ...state import Receipt
    from ...team import TeamList

SCOPES = {"user": Scope.user, "project": Scope.project, "local": Scope.local}


class InstallAt:
    """One config file hookwright installs into, with the runtime folders beside it, as every
    rule of a whole install target reads it."""

    def __init__(self, file: ConfigFile, target: Target, ours: dict[str, Handler], pack: str | None = None) -> None:
        self.file = file
        self.target = target
        self.ours = ours  # pack: its (last) entry in the file
        self.pack = pack  # a host whose unit is a pack's own file: that pack (its runtime folder alone belongs here)

    @cached_property
    def host(self) -> Host:
        return hosts.get(self.target.host)

    @cached_property
    def document(self) -> Document | None:
        """The file as its host reads it: doctor's document, or (opencode) what the plugin file was
        made from; None where it is gone."""
        if self.file.document is not None:
            return self.file.document
        return self.host.parse(self.file.path, self.file.source) if self.file.source is not None else None

    @cached_property
    def folders(self) -> list[Path]:
        """The runtime folders of the file's packs."""
        root = self.target.runtime_root
        found = [p for p in root.iterdir() if p.is_dir()] if root.is_dir() else []
        return [p for p in found if p.name == self.pack] if self.pack is not None else found

    @cached_property
    def scope_args(self) -> str:
        return scope_args(self.target)

    @cached_property
    def installed(self) -> list[str]:
        """The packs installed here: with an entry of ours in the file, or a runtime folder with a receipt."""
        return sorted(set(self.ours) | {p.name for p in self.folders if self.target.receipt_path(p.name).is_file()})

    def receipts(self) -> Iterator[PackAt]:
        return (PackAt(self, pack) for pack in self.installed)


class PackAt:
    """One pack of an install target, as every rule of its receipt reads it."""

    def __init__(self, install: InstallAt, pack: str) -> None:
        self.install = install
        self.pack = pack

    @property
    def keys(self) -> tuple[str | int, ...]:
        """Where its findings point: its entry, else the file's "hooks"."""
        entry = self.install.ours.get(self.pack)
        return entry.keys if entry is not None else ("hooks",)

    @property
    def receipt_path(self) -> Path:
        return self.install.target.receipt_path(self.pack)

    @cached_property
    def receipt(self) -> Receipt | HookwrightError | None:
        """Its receipt, the error that keeps it from being read, or None where there is none."""
        try:
            return _read_receipt(self.receipt_path)
        except HookwrightError as error:
            return error

    @cached_property
    def problems(self) -> list[tuple[str, dict[str, Any]]]:
        """How the install differs from its receipt (receipt_problems, worked out once for the four rules)."""
        receipt, install = self.receipt, self.install
        if receipt is None or isinstance(receipt, HookwrightError):
            return []
        data = install.document.data if install.document is not None else {}
        return list(receipt_problems(install.host, install.target, data, receipt))

    def finding(self, ctx: Context, rule_id: str, keys: tuple[str | int, ...] | None = None,
                **params: Any) -> Finding:
        return ctx.finding(rule_id, self.install.file, self.keys if keys is None else keys, pack=self.pack,
                           scope_args=self.install.scope_args, **params)


class ListAt:
    """A project's pack list (team.py), as the list rules read it."""

    def __init__(self, project: Path) -> None:
        self.project = project

    @cached_property
    def read(self) -> TeamList | HookwrightError | None:
        from ...team import read_list

        try:
            return read_list(self.project)
        except HookwrightError as error:
            return error


INSTALL_RULES = RuleTable()  # the rules of one install target (a file and its runtime folders), one function each
RECEIPT_RULES = RuleTable()  # the rules of one pack installed there, against its receipt, one function each
LIST_RULES = RuleTable()  # the rules of a project's pack list, against the installs of its project scope


def check(ctx: Context) -> Iterator[Finding]:
    for install in _installs(ctx):
        yield from INSTALL_RULES.run(ctx, install)
        for pack in install.receipts():
            yield from RECEIPT_RULES.run(ctx, pack)
    if ctx.project is not None:
        if pack_list_files(ctx.project):  # (a project without hookwright's config costs a few stat calls)
            yield from LIST_RULES.run(ctx, ListAt(ctx.project))


def _installs(ctx: Context) -> Iterator[InstallAt]:
    """Every install target among the files doctor read, and each opencode pack's own plugin file."""
    ours: dict[int, dict[str, Handler]] = {}  # per file: pack -> its (last) entry there
    for handler in ctx.handlers:
        if handler.owner:
            ours.setdefault(id(handler.file), {})[handler.owner[0]] = handler
    for file in ctx.files:
        mine = ours.get(id(file), {})
        target = install_target(file) if mine or _traces_beside(file) else None
        if target is not None:
            yield InstallAt(file, target, mine)
    if ctx.project is not None:
        yield from _opencode_installs(ctx, ctx.project, ours)


def _opencode_installs(ctx: Context, project: Path, ours: dict[int, dict[str, Handler]]) -> Iterator[InstallAt]:
    """opencode's unit is a pack's own plugin file: each runtime folder of ours is checked with
    its plugin file, also where that file is gone (an interrupted install, a deleted plugin). A
    project and a user without opencode's runtime folder have none (nearly every run: its adapter
    is not loaded to say so)."""
    if not any((opencode_folder(scope_project) / RUNTIME_FOLDER).is_dir() for scope_project in (None, project)):
        return
    host = hosts.get("opencode")
    files = {resolved(f.path): f for f in ctx.files if f.kind == "opencode-plugin"}
    for scope in host.scopes:
        try:
            root = host.target(scope, project).runtime_root
        except HookwrightError:
            continue
        for pack in sorted(p.name for p in root.iterdir() if p.is_dir()) if root.is_dir() else []:
            target = host.target(scope, project, pack)
            file = files.get(resolved(target.config)) or read(Candidate(target.config, scope.value, "opencode-plugin",
                                                                        project))
            if file.error is not None:  # (its place, for the findings about what should be there)
                file = ConfigFile(target.config, "opencode-plugin", "opencode", scope.value, project=project)
            yield InstallAt(file, target, ours.get(id(file), {}), pack=pack)


def _traces_beside(file: ConfigFile) -> bool:
    """Whether the file's folder holds a runtime folder or a temp file of ours (runtimes live
    beside the settings file in every scope): without them and without entries of ours, there
    is nothing to check, and no need to work out the install target."""
    try:
        names = os.listdir(file.path.parent)
    except OSError:
        return False
    return any(name in RUNTIME_FOLDERS or is_temp_name(name) for name in names)


def install_target(file: ConfigFile) -> Target | None:
    """The install target this settings file is, if it is one of the scopes we write."""
    host = hosts.of_kind(file.kind)  # (a shared config hookwright writes into: its host's first kind)
    if host is None or host.file_per_pack or file.kind != host.file_kinds[0] or file.scope not in SCOPES \
            or file.document is None:
        return None
    if not isinstance(file.document.data, dict) or not isinstance(file.document.data.get("hooks", {}), dict):
        return None
    try:
        target = host.target(SCOPES[file.scope], file.project)
    except HookwrightError:  # not a place hookwright installs into (a project that is the home, Cursor's local)
        return None
    try:
        return target if os.path.samefile(target.config, file.path) else None
    except OSError:  # the target's file is not there: the file is some other one
        return None


# ---- an install target: the file and its runtime folders ---------------------------------------------

@INSTALL_RULES.rule("install/interrupted-write")
def _interrupted_write(ctx: Context, install: InstallAt) -> Iterator[Finding]:
    """A temp file a killed write left beside the config or in a runtime folder (where the host's
    unit is a pack's own file, beside the config only the temps of that file count)."""
    config = install.target.config
    for folder in [config.parent, *install.folders]:
        for temp in stale_temps(folder):
            if install.pack is None or folder != config.parent or f".{config.name}." in temp.name:
                yield ctx.finding("install/interrupted-write", install.file, (), temp=temp)


@INSTALL_RULES.rule("install/plugin-edited")
def _plugin_edited(ctx: Context, install: InstallAt) -> Iterator[Finding]:
    """A file that is wholly one pack's (opencode's plugin), changed by hand since it was written."""
    document = install.document
    if install.pack is not None and install.file.source is not None and document is not None and \
            install.host.edited(document, install.target):
        yield ctx.finding("install/plugin-edited", install.file, (), pack=install.pack, scope_args=install.scope_args)


@INSTALL_RULES.rule("install/leftover-runtime")
def _leftover_runtime(ctx: Context, install: InstallAt) -> Iterator[Finding]:
    """A runtime folder with files in it that neither a receipt nor an entry of the file accounts for."""
    for folder in install.folders:
        if folder.name not in install.installed and any(folder.iterdir()):
            yield ctx.finding("install/leftover-runtime", install.file, ("hooks",), folder=folder, pack=folder.name,
                              scope_args=install.scope_args)


# ---- one pack installed there, against its receipt -----------------------------------------------------

@RECEIPT_RULES.rule("install/receipt-unreadable", alone=True)
def _receipt_unreadable(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    if isinstance(pack.receipt, HookwrightError):
        yield pack.finding(ctx, "install/receipt-unreadable", problem=pack.receipt.message, receipt=pack.receipt_path)


@RECEIPT_RULES.rule("install/no-receipt", alone=True)
def _no_receipt(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    if pack.receipt is None:
        yield pack.finding(ctx, "install/no-receipt")


def _problems(ctx: Context, pack: PackAt, rule_id: str, keys: tuple[str | int, ...] | None = None) -> Iterator[Finding]:
    """This rule's findings among the install's differences from its receipt (PackAt.problems)."""
    for rule, fields in pack.problems:
        if rule == rule_id:
            yield pack.finding(ctx, rule, keys, **fields)


@RECEIPT_RULES.rule("install/entry-missing")
def _entry_missing(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/entry-missing", ("hooks",))  # (it has no place of its own)


@RECEIPT_RULES.rule("install/entry-differs")
def _entry_differs(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/entry-differs")


@RECEIPT_RULES.rule("install/runtime-missing")
def _runtime_missing(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/runtime-missing")


@RECEIPT_RULES.rule("install/interpreter-missing")
def _interpreter_missing(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/interpreter-missing")


@RECEIPT_RULES.rule("install/hook-untrusted")
def _hook_untrusted(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/hook-untrusted")


@RECEIPT_RULES.rule("install/hook-not-yet-trusted")
def _hook_not_yet_trusted(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/hook-not-yet-trusted")


@RECEIPT_RULES.rule("install/hooks-off")
def _hooks_off(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _at_the_setting(pack, "install/hooks-off")


@RECEIPT_RULES.rule("install/hooks-off-unknown")
def _hooks_off_unknown(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _at_the_setting(pack, "install/hooks-off-unknown")


HOOKS_OFF_RULES = frozenset({"install/hooks-off", "install/hooks-off-unknown"})  # a setting keeps a pack of ours off


def hooks_off_places(ctx: Context) -> set[tuple[str, int]]:
    """Where install/hooks-off and install/hooks-off-unknown speak in this run: (path, line) of each
    setting that keeps a pack of ours from running (the host/ rules of the same switch step aside there)."""
    return {(str(fields["at"][0]), fields["at"][1]) for install in _installs(ctx) for pack in install.receipts()
            for rule, fields in pack.problems if rule in HOOKS_OFF_RULES}


def _at_the_setting(pack: PackAt, rule_id: str) -> Iterator[Finding]:
    """A setting of the host's that keeps the pack's hooks from running, said where it is set (the
    line to change), not in the hooks file."""
    for rule, fields in pack.problems:
        if rule == rule_id:
            path, line = fields["at"]
            yield _at(rule_id, path, line, None, pack=pack.pack, scope_args=pack.install.scope_args, **fields)


@RECEIPT_RULES.rule("install/runtime-changed")
def _runtime_changed(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/runtime-changed")


@RECEIPT_RULES.rule("install/runtime-modified")
def _runtime_modified(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/runtime-modified")


@RECEIPT_RULES.rule("install/runtime-cannot-load")
def _runtime_cannot_load(ctx: Context, pack: PackAt) -> Iterator[Finding]:
    yield from _problems(ctx, pack, "install/runtime-cannot-load")


# ---- a project's pack list ------------------------------------------------------------------------------

@LIST_RULES.rule("install/list-invalid", alone=True)
def _list_invalid(ctx: Context, listed: ListAt) -> Iterator[Finding]:
    if isinstance(listed.read, HookwrightError):
        yield _at("install/list-invalid", Path(listed.read.path or listed.project), listed.read.line or 1, None,
                  problem=listed.read.message)


@LIST_RULES.rule("install/list-differs")
def _list_differs(ctx: Context, listed: ListAt) -> Iterator[Finding]:
    from ...team import TeamList, differences

    if isinstance(listed.read, TeamList):
        for difference in differences(listed.project, listed.read):
            yield _at("install/list-differs", listed.read.path, difference.line, difference.variant,
                      **difference.words)


def _at(rule_id: str, path: Path, line: int, variant: str | None, **words: Any) -> Finding:
    """A finding in hookwright's own project config (a file doctor reads no hooks from)."""
    rule = rule_by_id(rule_id)
    message, hint = rule.worded(variant)
    return Finding(rule.id, rule.severity, str(path), line, 1, message.format(**words), hint.format(**words))


def receipt_problems(host: Host, target: Target, data: Any, receipt: Receipt) -> Iterator[tuple[str, dict[str, Any]]]:
    """How an install differs from its receipt: (rule id, the rule's fields besides pack and
    scope_args) for each entry missing or changed in the config `data`, and each runtime file
    missing or changed (`hookwright status` shows the same)."""
    from ... import interpreter  # (an install with a receipt only: 0.6 M instructions of doctor on a typical file)

    gone: dict[str, str] = {}  # interpreter: the first hook that starts it
    for entry in receipt.entries:
        current = host.find(data, entry)
        if current is None:
            yield "install/entry-missing", {"event": entry.event, "hook": entry.hook}
        elif current != entry.handler:
            yield "install/entry-differs", {"event": entry.event, "hook": entry.hook}
        python = host.interpreter_of(current) if current is not None else None
        if python is not None and python not in gone and interpreter.missing(python):
            gone[python] = entry.hook
    for skipped in host.skipped(target, data):
        owner = host.owner(skipped.handler)
        if owner is not None and owner[0] == receipt.pack:
            # (one whose trust the interactive agent asks for, a fresh clone's: not yet trusted, a warning)
            yield "install/hook-not-yet-trusted" if skipped.asked else "install/hook-untrusted", {
                "event": skipped.event, "hook": owner[1], "host": host.title, "why": skipped.why,
                "asked": skipped.asked}
    for setting in host.hooks_off(target.project or Path.cwd()):
        yield ("install/hooks-off" if setting.known else "install/hooks-off-unknown",
               {"why": setting.why, "fix": setting.fix, "setting": f"{setting.path}:{setting.line}",
                "at": (setting.path, setting.line)})
    for python, hook in gone.items():
        yield "install/interpreter-missing", {"hook": hook, "interpreter": python, "why": interpreter.missing(python),
                                              "effect": _never_runs(host)}
    yield from runtime_problems(host.name, target.pack_dir(receipt.pack), receipt)
    yield from _cannot_load(host, target.pack_dir(receipt.pack), receipt)


def runtime_problems(host: str, folder: Path, receipt: Receipt) -> Iterator[tuple[str, dict[str, Any]]]:
    """How the runtime files in `folder` differ from what they should be: for a bundled pack at
    the version the receipt names, the files this hookwright ships (a receipt lives beside them
    and proves nothing by itself: anyone who changed a runtime could rewrite its hashes); for
    any other, the receipt's hashes, the only record there is (reference() says which)."""
    from ... import __version__, safe_read
    from ...packs import shipped_runtime
    from ...state import runtime_matches

    shipped = shipped_runtime(receipt.pack, receipt.version, host)
    if shipped is not None:
        for name, content in sorted(shipped.items()):
            found = safe_read.read_or_none(folder / name, safe_read.RUNTIME)
            if found is None:
                yield "install/runtime-missing", {"runtime": folder / name}
            elif found != content:
                yield "install/runtime-modified", {"runtime": folder / name, "version": receipt.version,
                                                   "tool_version": __version__}
        return
    for item in receipt.files:
        if not (folder / item.name).is_file():
            yield "install/runtime-missing", {"runtime": folder / item.name}
        elif not runtime_matches(folder, item.name, item.sha256):
            yield "install/runtime-changed", {"runtime": folder / item.name, "version": receipt.version}


def not_as_shipped(host: str, folder: Path) -> str | None:
    """Why the runtime in `folder` is not what its pack installed (modified, missing, or without
    a receipt to say what it is), in words; None when it is as shipped (or as its receipt says,
    for a pack this hookwright does not ship)."""
    try:
        receipt = _read_receipt(folder / "receipt.json")
    except HookwrightError as error:
        return f"its receipt cannot be read ({error.message})"
    if receipt is None:
        return f"no receipt in {folder} says what hookwright installed there"
    for rule, fields in runtime_problems(host, folder, receipt):
        state = {"install/runtime-missing": "is missing", "install/runtime-modified": "is modified (not the file "
                 f"hookwright ships for {receipt.pack} {receipt.version})"}.get(rule, "differs from its receipt")
        return f"its runtime file {fields['runtime']} {state}"
    return None


def reference(host: str, receipt: Receipt) -> str:
    """What an install's runtime files are compared with: "shipped" (the bundled pack of the
    receipt's version) or "receipt" (its hashes: a pack of your own, or a version not bundled)."""
    from ...packs import shipped_runtime

    return "shipped" if shipped_runtime(receipt.pack, receipt.version, host) is not None else "receipt"


def _cannot_load(host: Host, folder: Path, receipt: Receipt) -> Iterator[tuple[str, dict[str, Any]]]:
    """The installed modules that would not load, read without running them (runtime_check)."""
    from ...runtime_check import static_problems

    scripts = {who[1] for entry in receipt.entries if (who := host.owner(entry.handler))}
    names = [item.name for item in receipt.files]
    if COMMANDS_FILE in names:  # a command pack: its files are the author's, which the runtime never imports
        scripts -= set(_command_hooks(folder / COMMANDS_FILE))
        names = [name for name in names if name[:-3] in {s.replace("-", "_") for s in scripts}]
    for problem in static_problems(folder, names, {script.replace("-", "_") for script in scripts}):
        where = f"{problem.file}:{problem.line}:{problem.column or 1}" if problem.line else str(problem.file)
        yield "install/runtime-cannot-load", {"module": problem.module + ".py", "problem": problem.message,
                                              "runtime": where}


def _command_hooks(path: Path) -> list[str]:
    """The command hooks a command pack's commands.json names (none, if it cannot be read: the
    receipt's hash of it says so as install/runtime-changed)."""
    import json

    from ... import safe_read

    try:
        hooks = json.loads(safe_read.read_or_none(path, safe_read.RUNTIME) or b"{}").get("hooks")
    except (ValueError, AttributeError):
        return []
    return list(hooks) if isinstance(hooks, dict) else []


def _never_runs(host: Host) -> str:
    """What a hook whose interpreter is gone does in this host."""
    if host.starts_per_call:  # (the shell cannot start it: exit 127, an error that does not block)
        return "the shell cannot start it, and every call it matches goes on unchecked"
    return "opencode's plugin cannot start it, and every call it matches goes on unchecked (a line in hooks.log each)"


def _read_receipt(path: Path) -> Receipt | None:
    """state.read_receipt, without loading the install machinery where there is no receipt."""
    if not os.path.lexists(path):
        return None
    from ...state import read_receipt  # (our installs only: about 4 ms)

    return read_receipt(path)


def scope_args(target: Target) -> str:
    """The options that name an install's place, as a command printed in a hint takes them (quoted
    for the shell: it works as printed)."""
    import shlex

    return " ".join(map(shlex.quote, target.place_args))
