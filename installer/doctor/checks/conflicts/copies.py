"""Duplicates: one command configured several times (runs once in settings files, once more per
plugin copy; docs/hosts/claude-code.md#deduplication) (COPY_RULES), or one of our packs
installed in two scopes (PACK_COPY_RULES)."""
from __future__ import annotations

import json
from collections import defaultdict
from typing import Iterator

from .... import hosts
from ....hosts.base import Host
from ... import dedup
from ...discovery import SCOPE_ORDER
from ...model import Context, Finding, Handler, RuleTable
from . import at_handler, builtins_here, place

COPY_RULES = RuleTable()  # a handler that repeats an earlier one (dedup.Copy)
PACK_COPY_RULES = RuleTable()  # one pack hook wired into several files (PackCopies)


def check(ctx: Context) -> Iterator[Finding]:
    for copy in dedup.copies(ctx.handlers, builtins_here(ctx), ctx.mcp_servers):
        yield from COPY_RULES.run(ctx, copy)
    for pack in _packs_wired_apart(ctx):
        yield from PACK_COPY_RULES.run(ctx, pack)


# ---- duplicates ----------------------------------------------------------------------------------------

@COPY_RULES.rule("conflict/duplicate-runs-twice")
def _duplicate_runs_twice(ctx: Context, copy: dedup.Copy) -> Iterator[Finding]:
    """A copy that runs again: a plugin's, one of a host that deduplicates nothing, or another
    spelling of one command."""
    if not copy.runs:
        return
    handler, of = copy.handler, copy.of
    host = hosts.of(handler.file.host)
    variant = "no-deduplication" if host and not host.dedups_commands else "respelled" if copy.respelled else None
    found = ctx.finding("conflict/duplicate-runs-twice", handler.file, handler.keys, [place(of, "the first copy")],
                        first=_where(of, handler), host=host.title if host else "", variant=variant,
                        times="twice" if copy.times == 2 else f"{copy.times} times")
    yield at_handler(found, handler)


@COPY_RULES.rule("conflict/duplicate-handler")
def _duplicate_handler(ctx: Context, copy: dedup.Copy) -> Iterator[Finding]:
    """A copy deduplicated with one that fires wherever it fires (one that repeats only some of
    its calls is needed for the rest)."""
    if copy.runs or not copy.covered:
        return
    handler, of = copy.handler, copy.of
    fields = _fields_that_differ(of, handler)
    # where both fire, the copy of the file of higher precedence runs, with its fields (measured on
    # 2.1.328: a local copy's timeout counted over the project's, the project's over the user's)
    ranks = SCOPE_ORDER.get(handler.file.scope, -1), SCOPE_ORDER.get(of.file.scope, -1)
    runs = handler if ranks[0] > ranks[1] else of if ranks[1] > ranks[0] else None  # (in one scope: not measured)
    variant = None if not fields else "fields-differ" if runs is not None else "fields-differ-one-scope"
    found = ctx.finding("conflict/duplicate-handler", handler.file, handler.keys,
                        [place(of, "the other copy" if runs is handler else "the copy that runs")],
                        first=_where(of, handler), fields=", ".join(json.dumps(f) for f in fields),
                        runs="this copy" if runs is handler else "the copy in " + _where(of, handler), variant=variant)
    yield at_handler(found, handler)


def _fields_that_differ(kept: Handler, copy: Handler) -> list[str]:
    """The fields two copies give different values (whose apply, nobody documents)."""
    a, b = kept.value, copy.value  # objects: only they have a deduplication key
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def _where(first: Handler, handler: Handler) -> str:
    line, _ = first.file.position(first.keys)
    if first.file.path == handler.file.path:
        return f"line {line} of this file"
    return f"{first.file.path}:{line}"


class PackCopies:
    """One pack hook wired into several places, as its host runs them: the first and the others."""

    def __init__(self, host: Host, pack: str, script: str, copies: list[Handler]) -> None:
        self.host = host
        self.pack = pack
        self.script = script
        self.copies = copies  # the ones that run apart: distinct commands, or distinct files


def _packs_wired_apart(ctx: Context) -> Iterator[PackCopies]:
    """Each pack hook by host and event, with its copies that run apart: Claude Code dedups only
    one command string (and ours differ between scopes); Cursor and opencode run every file's hooks."""
    by_owner: dict[tuple[str, str, str, str], list[Handler]] = defaultdict(list)
    for handler in ctx.handlers:
        if handler.owner:
            by_owner[(handler.file.host, handler.event) + handler.owner].append(handler)
    for (name, _event, pack, script), handlers in by_owner.items():
        host = hosts.get(name)
        copies: dict[str, Handler] = {}
        for handler in handlers:
            copies.setdefault(handler.command or "" if host.dedups_commands else str(handler.file.path), handler)
        yield PackCopies(host, pack, script, list(copies.values()))


@PACK_COPY_RULES.rule("conflict/pack-in-several-scopes")
def _pack_in_several_scopes(ctx: Context, at: PackCopies) -> Iterator[Finding]:
    if len(at.copies) < 2:
        return
    first, *others = at.copies
    for handler in others:
        yield ctx.finding("conflict/pack-in-several-scopes", handler.file,
                          handler.keys + (("command",) if not at.host.file_per_pack else ()),
                          [place(first, f"pack {at.pack} in the {first.file.scope} scope")], pack=at.pack,
                          script=at.script, other=f"{first.file.path} ({first.file.scope} scope)", host=at.host.title,
                          times="twice" if len(at.copies) == 2 else f"{len(at.copies)} times",
                          variant=None if at.host.dedups_commands else "every-file",
                          scope_args=_scope_args_of(at.host, handler))


def _scope_args_of(host: Host, handler: Handler) -> str:
    """The options that name the place of the file a pack's entry is in (`--host opencode --scope user`)."""
    from ....errors import HookwrightError
    from ....hosts.base import Scope
    from ..installs import scope_args

    scope = Scope(handler.file.scope) if handler.file.scope in Scope.__members__ else Scope.project
    try:
        return scope_args(host.target(scope, None if scope is Scope.user else handler.file.project))
    except HookwrightError:
        return f"--host {host.name} --scope {scope.value}"
