"""The plan of an install: the packs' entries rendered into a host's config, their runtime files
and receipts, computed from the files as they are. Nothing here writes."""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import atomic, git, hosts, interpreter, state
from ..document import Document
from ..errors import ExitCode, HookwrightError, command_line
from ..hosts.base import Entry, Host, Scope, Target
from ..layout import DEFAULT_PYTHON, RECEIPT
from ..packs import FAIL_CLOSED, FAIL_OPEN, ON_FAILURE, Pack, resolve_options
from ..state import Receipt, RuntimeFile, read_receipt, sha256
from .plan import Action, PackChange, Plan, file_writes, personal_gitignore
from .uninstall import receipts_beside, receipts_in

RECEIPT_MODE = 0o644


def options_for(host: Host, packs: list[Pack], options: list[str]) -> dict[str, dict[str, Any]]:
    """The packs' options from `--option KEY=VALUE`, once the host is known to run each pack as
    it is meant and to honour every option given (else exit 3, or exit 2 for the option)."""
    chosen = resolve_options(packs, options)
    check_host(host, packs, chosen)
    return chosen


def check_host(host: Host, packs: list[Pack], chosen: dict[str, dict[str, Any]]) -> None:
    """The host runs each pack as it is meant (else exit 3) and honours every option given (else exit 2)."""
    for pack in packs:
        why = host.refusal(pack)
        if why:
            raise HookwrightError(why, code=ExitCode.REFUSED, hint="`hookwright packs --host "
                                  f"{host.name}` lists the packs that run there")
    for pack in packs:
        why = host.ignored_options(pack, chosen[pack.name])
        if why:
            raise HookwrightError(why, hint="drop that --option for this agent")


def targets_for(host: Host, scope: Scope, project: Path | None, packs: list[Pack]) -> list[tuple[Target, list[Pack]]]:
    """The files the packs go into: one for a host with one config per scope, one per pack
    for a host whose unit is a file (opencode)."""
    found: dict[Path, tuple[Target, list[Pack]]] = {}
    for pack in packs:
        target = host.target(scope, project, pack.name)
        found.setdefault(target.config, (target, []))[1].append(pack)
    return list(found.values())


def check_matchers(host: Host, pack: Pack, values: dict[str, Any]) -> None:
    """A matcher taken from an option must be one the host can use (a regex that compiles)."""
    for hook in pack.hooks_for(host.name):
        option = hook.targets[host.name].matcher_option
        if option is None:
            continue
        matcher = pack.matcher(hook, host.name, values) or ""
        try:
            re.compile(matcher)
            problem = "" if matcher.strip() else "it is empty, which matches every tool"
        except re.error as error:
            problem = f"it is not a valid regular expression: {error}"
        if problem:
            raise HookwrightError(f"option {option}={matcher!r} is not a usable matcher: {problem}",
                                  hint="give a tool name, names joined by |, or a regular expression such as mcp__.*")


def check_place(host: Host, target: Target, packs: list[Pack]) -> None:
    """The config can be written, and no folder of the install is world-writable: anyone could
    swap a script there, and the agent would run it."""
    atomic.check_writable(target.config)
    folders = [target.config.parent, target.runtime_root, *(target.pack_dir(p.name) for p in packs)]
    for folder in folders:
        if atomic.world_writable(folder):
            raise HookwrightError(f"{folder} is writable by every user; a hook runtime there could be replaced",
                                  path=folder, code=ExitCode.REFUSED, hint=f"chmod o-w {folder}")
    for pack in packs:
        for name in pack.runtime_files(host.name):
            script = target.pack_dir(pack.name) / name
            if atomic.world_writable(script):
                raise HookwrightError("this runtime file is writable by every user, so it may have been changed",
                                      path=script, code=ExitCode.REFUSED,
                                      hint=f"check it, then chmod o-w {script} (or delete it) and install again")


def plan_install(host: Host, target: Target, packs: list[Pack], options: dict[str, dict[str, Any]], adopt: bool,
                 force: bool = False, python: str | None = None) -> Plan:
    """`python`: the interpreter the hooks start (None: the one their entries start now, else python3)."""
    doc = host.read(target, force)
    data = doc.data if doc.exists else host.new_document_data()
    added: list[Entry] = []
    removed: list[Entry] = []
    wired = []  # (pack, values, entries, keep_empty, receipt) once the data is final
    interpreters: set[str] = set()
    for pack in packs:
        receipt = read_receipt(target.receipt_path(pack.name))
        kept = {k: v for k, v in (receipt.options if receipt else {}).items() if k in pack.options}
        values = pack.defaults() | kept | options[pack.name]
        check_matchers(host, pack, values)
        present = host.owned_entries(data, pack.name)
        if receipt is None and present and not adopt:
            raise HookwrightError(
                f"{len(present)} entr{'y' if len(present) == 1 else 'ies'} already run{'s' if len(present) == 1 else ''} "
                f"{pack.name}'s runtime, but no receipt says hookwright put {'it' if len(present) == 1 else 'them'} there",
                path=target.config, code=ExitCode.REFUSED,
                hint="rerun with --adopt to take them over, or remove them by hand")
        starts = python or next((host.interpreter_of(e.handler) or DEFAULT_PYTHON for e in present),
                                DEFAULT_PYTHON)
        wanted = host.render(target, pack, values, starts)
        entries_before = len(added) + len(removed)
        keep_empty = receipt.keep_empty if receipt else host.empty_containers(doc.data, wanted)
        by_script: dict[tuple[str, tuple[str, str] | None], Entry] = {}
        for entry in present:
            by_script.setdefault((entry.event, host.owner(entry.handler)), entry)
        for entry in wanted:
            old = by_script.get((entry.event, host.owner(entry.handler)))
            if old is None:
                data = host.add(data, entry)
                added.append(entry)
            elif old.handler != entry.handler:  # another version or option, or edited by hand: make it ours again
                data = host.replace(data, old, entry)
                removed.append(old)
                added.append(entry)
        wanted_scripts = {host.owner(e.handler) for e in wanted}
        for entry in present:
            if host.owner(entry.handler) not in wanted_scripts:  # a hook the new version dropped
                data = host.remove(data, entry, keep_empty)
                removed.append(entry)
        wired.append((pack, values, wanted, keep_empty, receipt, len(added) + len(removed) != entries_before))
        if any(hook.command is None or not host.runs_commands_as_written for hook in pack.hooks_for(host.name)):
            interpreters.add(starts)  # (a command hook run as written starts what its command says)
    made = _made_for(target, doc.exists)
    new_bytes = doc.render(data) if host.file_per_pack and data else None  # a file wholly ours is its rendering
    written = sha256(new_bytes) if new_bytes is not None else None
    changes = [_runtime_change(host, target, pack, values, wanted, keep_empty, receipt, made, written, rewired,
                               _kept_options(target, pack, receipt, options[pack.name]))
               for pack, values, wanted, keep_empty, receipt, rewired in wired]
    return Plan("install", target, doc, data, added, removed, changes,
                replan=lambda: plan_install(host, target, packs, options, adopt, force, python),
                notes=_git_notes(target) + _required_key_notes(host, doc, data)
                + _shim_notes(host, target, packs, interpreters)
                + host.change_notes(target, doc.data if doc.exists else {}, data,
                                    ["install", *(p.name for p in packs), *target.place_args]),
                made_folders=made[1], exact_bytes=new_bytes,  # (also over an edit, which only --force gets to)
                other_writes=personal_gitignore(target, changes))


def _kept_options(target: Target, pack: Pack, receipt: Receipt | None, given: dict[str, Any]) -> list[str]:
    """The note for the options an install keeps from the one before without the command line
    giving them (a value other than the default): so that a value set once is never a surprise."""
    kept = {name: value for name, value in (receipt.options if receipt else {}).items()
            if name in pack.options and name not in given and value != pack.options[name].default}
    if not kept:
        return []

    shown = ", ".join(f"{name}={_option_text(value)}" for name, value in kept.items())
    defaults = [arg for name in kept for arg in ("--option", f"{name}={_option_text(pack.options[name].default)}")]
    return [f"{pack.name} keeps {shown} from the install before (the command line did not say); "
            f"`{command_line('install', pack.name, *target.place_args, *defaults)}` puts back the default"]


def trust_plans(plans: list[Plan]) -> list[Plan]:
    """--trust-hooks: for each host the plans change that keeps its own trust in hooks (Codex),
    the plan that writes that trust, after them."""
    found = []
    trusting_hosts = [host for name in dict.fromkeys(plan.target.host for plan in plans)
                      if (host := hosts.get(name)).trust_store]
    if plans and not trusting_hosts:  # (a change in several agents trusts in those that keep a trust)
        titles = sorted({hosts.get(plan.target.host).title for plan in plans})
        raise HookwrightError(f"--trust-hooks: {' and '.join(titles)} {'runs' if len(titles) == 1 else 'run'} hooks "
                              "without a trust of their own",
                              hint="drop --trust-hooks")
    for host in trusting_hosts:
        name = host.name
        trusting = host.trust_plan([plan for plan in plans if plan.target.host == name])
        if trusting is not None:
            found.append(replace(trusting, project=next(plan.project for plan in plans if plan.target.host == name)))
    return found


def _option_text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _made_for(target: Target, config_exists: bool) -> tuple[bool, list[str]]:
    """(the config is new, the folders the install makes for it and its runtimes). Every receipt in
    the runtime root keeps the whole set, so whichever uninstall comes last takes them all away."""
    base = target.runtime_root.parent.parent
    missing = {f for r in receipts_beside(target) for f in r.created_folders}
    for folder in (target.config.parent, target.runtime_root.parent):  # (the runtime root is ours anyway)
        while folder != base and base in folder.parents and not folder.exists():
            missing.add(folder.relative_to(base).as_posix())
            folder = folder.parent
    # an install killed halfway made some of them already: its journal entry says which it meant to make
    for op in state.read_journal():
        if op.state == "pending" and op.target.get("config") == str(target.config):
            missing.update(op.made_folders)
    same_file = receipts_in(target)
    return (any(r.created_config for r in same_file) if same_file else not config_exists), sorted(missing)


def _required_key_notes(host: Host, doc: Document, data: Any) -> list[str]:
    """The keys the host needs that the install adds to an existing file, and why."""
    if not doc.exists or not isinstance(doc.data, dict) or not isinstance(data, dict):
        return []
    return [f"adds {json.dumps(key)}: {json.dumps(value)} at the top: {why}"
            for key, (value, why) in host.required_keys.items() if key not in doc.data and key in data]


def _shim_notes(host: Host, target: Target, packs: list[Pack], interpreters: set[str]) -> list[str]:
    """Where the hooks start python3 on every call and python3 is a version manager's shim: say
    so, and, for a config of this machine's (not a project's, which is committed), the command
    that writes the interpreter behind it instead."""
    if DEFAULT_PYTHON not in interpreters or not host.starts_per_call:
        return []
    shim = interpreter.shim_in_front()
    if shim is None:
        return []
    if target.scope is Scope.project:
        return [f"{shim.says()}; a project's committed command keeps python3, which works wherever it is "
                "checked out"]
    where = ["--scope", target.scope.value] + (["--project", str(target.project)] if target.project else [])
    command = shlex.join(["hookwright", "install", *(p.name for p in packs), "--host", host.name, *where,
                          "--python", shim.interpreter])
    return [f"{shim.says()}: `{command}` starts that interpreter directly (a path of this machine's: status "
            "and doctor say so if it goes)"]


def _git_notes(target: Target) -> list[str]:
    """A personal config (Claude Code's settings.local.json) must stay out of git; Claude Code
    git-ignores it when it creates the file itself. Say so where git would pick it up, and above
    all where git already tracks it: its entries then reach everyone who pulls, but not the
    runtimes they run (their folder is git-ignored), and a hook whose runtime is missing exits 2,
    refusing every call it matches."""
    if not target.personal or target.project is None or not git.available():
        return []
    name = target.config.relative_to(target.project).as_posix()
    if target.config.exists():
        tracked = git.run(target.project, "ls-files", "--error-unmatch", "--", name)
        if tracked is not None and tracked.returncode == 0:
            return [f"git tracks {target.config}, which is personal: the hooks written there reach everyone who "
                    "pulls it, but not their runtimes (git ignores those), and a hook whose runtime is missing "
                    f"refuses every call it matches: untrack it (git rm --cached '{name}') and add it to .gitignore"]
    done = git.run(target.project, "check-ignore", "-q", str(target.config))
    if done is None or done.returncode != 1:  # 0: ignored; 128: not a git repository
        return []
    return [f"{target.config} is personal but git does not ignore it here: add "
            f"'{name}' to .gitignore (Claude Code does so itself when it creates the file)"]


def _runtime_change(host: Host, target: Target, pack: Pack, values: dict[str, Any], wanted: list[Entry], keep_empty: list[str],
                    receipt: Receipt | None, made: tuple[bool, list[str]], written: str | None,
                    rewired: bool, notes: list[str]) -> PackChange:
    """`rewired`: the plan adds or replaces some of the pack's entries in the config; `notes`: the
    pack line's notes (the options kept from its receipt)."""
    folder = target.pack_dir(pack.name)
    scripts = pack.runtime_files(host.name)
    created_config, created_folders = (receipt.created_config, receipt.created_folders) if receipt else made
    recorded = {k: v for k, v in values.items() if k != ON_FAILURE or v != FAIL_OPEN}  # (as receipts had it before)
    new_receipt = Receipt(pack.name, pack.version, host.name, target.scope.value, target.config.name, recorded,
                          wanted, [RuntimeFile(name, sha256(content), pack.mode(name)) for name, content in scripts.items()],
                          keep_empty, created_config, created_folders, written, source=pack.source)
    wanted_files = {name: (content, pack.mode(name)) for name, content in scripts.items()}
    if receipt is None or receipt.to_json() | {"tool_version": None} != new_receipt.to_json() | {"tool_version": None}:
        wanted_files[RECEIPT] = (new_receipt.dumps(), RECEIPT_MODE)
    writes = file_writes(folder, wanted_files)
    stale = [f.name for f in (receipt.files if receipt else []) if f.name not in scripts]
    if receipt is None:
        action = Action.INSTALL
    elif receipt.version != pack.version or receipt.source != pack.source:
        action = Action.UPGRADE  # (another version, or the same from another place or revision)
    elif receipt.options != recorded:
        action = Action.RECONFIGURE
    else:
        action = Action.REPAIR if writes or stale or rewired else Action.UNCHANGED
    elsewhere = pack.source.kind != "bundled" or receipt is not None and receipt.source != pack.source
    on_failure = values.get(ON_FAILURE)
    return PackChange(pack.name, action, folder, writes, stale, receipt.version if receipt else None, pack.version,
                      notes=notes, on_failure=on_failure,
                      on_failure_how=_on_failure_how(host, values[ON_FAILURE]) if ON_FAILURE in values else "",
                      source_from=receipt.source.describe() if elsewhere and receipt is not None else None,
                      source_to=pack.source.describe() if elsewhere else None)


def _on_failure_how(host: Host, value: str) -> str:
    """What the pack's blocking hooks do when they cannot decide, in this host."""
    if value != FAIL_CLOSED:
        return (f"fails open: a hook that cannot decide lets the call go on, with a line in hooks.log "
                f"(--option {ON_FAILURE}={FAIL_CLOSED} to fail closed)")
    offered = (f"{host.fail_closed_field[0]}: {json.dumps(host.fail_closed_field[1])} and the runtime's exit 2"
               if host.fail_closed_field else "the runtime's exit 2, and the plugin blocks a call it could not have judged")
    return f"fails closed: a hook that cannot decide blocks the call ({offered})"
