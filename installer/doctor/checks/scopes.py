"""Scopes: the files of a run together. Which files a session really reads, and which plugins its
settings leave on: a hook in a settings file the host does not read from the folder it starts in
(the git root's project settings from a subfolder, a package's settings from the root, a
user-scope settings.local.json) never runs there; a plugin the user enabled that a project or
local file switches off takes its hooks with it. Both are the host's own measured semantics
(Host.files_never_read, docs/hosts/claude-code.md#config-files). And the kill switches that
explain why hooks do not run (`disableAllHooks`, where only the value of the highest scope
counts; the managed-only settings) and the plugin manifests that name the default hooks file
again. The rules keep their `structure/` ids; they are apart from structure/'s, which read one
file at a time, so that a run over many projects can share structure out between processes
(parallel.py)."""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Iterator

from ... import hosts
from ...document import Keys, LineIndex
from ...hooks.events import DISABLE_ALL, MANAGED_ONLY_KEYS, SCOPE_ORDER
from ...hooks.firing import hooks_disabled_by
from ...hosts.claude import protocol as claude_protocol
from ...patterns import lazy
from .. import disk, handler_facts, load
from ..discovery import Candidate, installed_hook_files, known_marketplaces
from ..model import ConfigFile, Context, Finding, Handler, RuleTable, resolved
from ..scripts import intent, variables
from ..scripts import keys as script_keys
from .structure.settings import ObjectFile, settings_objects

RULES = RuleTable()
SCRIPT_NAME = lazy(r"([\w.-]+\.(?:sh|bash|py|js|mjs|cjs|ts|rb|pl|ps1))(?![\w.])")


def check(ctx: Context) -> Iterator[Finding]:
    yield from RULES.run(ctx)


def _signature(handler: Handler) -> tuple[str, frozenset[str]]:
    """What tells one hook from another across files: its event, and its command, or the scripts
    it names (a copy in another folder reaches the same script by another path)."""
    command = handler.command if isinstance(handler.command, str) else ""
    scripts = frozenset(SCRIPT_NAME.findall(command))
    return handler.event, scripts or frozenset({" ".join(command.split())})


@RULES.rule("structure/settings-not-read")
def _settings_not_read(ctx: Context) -> Iterator[Finding]:
    """A hook in a file that the session started here does not read, and that no file it reads
    holds too (a subfolder's own complete settings are fine)."""
    if not ctx.unread:
        return  # (before the signatures: their pattern is compiled for a run with unread files only)
    read = {_signature(h) for h in ctx.handlers}
    for file, why in ctx.unread:
        if why in ("not-settings", "misplaced"):
            yield from _hooks_not_read_there(ctx, file, read, why)
            continue
        if why == "opencode-below":
            yield from _opencode_below(ctx, file)
            continue
        missing = []
        for handler in load.handlers(file):
            event, scripts = _signature(handler)
            if any(e == event and scripts & s for e, s in read):
                continue
            missing.append(event)
            keys = handler.keys + ("command",) if handler.command is not None else handler.keys
            folder = file.path.parent.parent
            yield ctx.finding("structure/settings-not-read", file, keys, variant=None if why == "above" else why,
                              event=event, start=str(file.project), folder=str(folder),
                              about=(str(file.path), handler.keys))
        guards = [event for event in missing if _can_refuse(event)]
        here = _start_settings(ctx, file) if guards and why == "above" else None
        if here is not None:  # the file a guard is to be copied into: where the change is made
            data = here.document.data if here.document is not None else None
            yield ctx.finding("structure/settings-not-read", here, ("hooks",) if isinstance(data, dict) and "hooks" in data
                              else (), at_key=True, variant="here", unread=str(file.path), count=len(missing),
                              events=", ".join(dict.fromkeys(missing)), about=(str(file.path), "here"))


@RULES.rule("structure/guard-only-in-skill")
def _guard_only_in_skill(ctx: Context) -> Iterator[Finding]:
    """A guard registered only where it runs in part of a session (Host.part_time_hooks: a skill's
    frontmatter), that no file the session reads registers too: before then, no call meets it.
    At the line that registers it."""
    if ctx.project is None:
        return
    parts = [(host.guard_events, part) for host in map(hosts.get, hosts.PART_TIME_HOSTS)
             for part in host.part_time_hooks(ctx.project)]
    read: set[tuple[str, frozenset[str]]] | None = None  # (the run's signatures: only for a project with such guards)
    for guard_events, part in parts:
        guards = [(event, command) for event, commands in part.events if event in guard_events
                  for command in commands]
        if not guards:
            continue
        if read is None:
            read = {_signature(h) for h in ctx.handlers}
        missing = [(event, command) for event, command in guards
                   if not any(e == event and signature & s for e, s in read
                              for signature in [_signature_of(command)])]
        if missing:
            event, command = missing[0]
            yield ctx.finding_at("structure/guard-only-in-skill", ConfigFile(part.path, "unknown", part.host, "project"),
                                 part.line, 1, owner=part.owner, event=event, command=command, when=part.when)


def _signature_of(command: str) -> frozenset[str]:
    """_signature's second half, for a command written outside a settings file."""
    return frozenset(SCRIPT_NAME.findall(command)) or frozenset({" ".join(command.split())})


def _hooks_not_read_there(ctx: Context, file: ConfigFile, read: set[tuple[str, frozenset[str]]],
                          why: str) -> Iterator[Finding]:
    """A "hooks" block in a file Claude Code reads no hooks from (its state file ~/.claude.json,
    and in it each project's entry; a `hooks.json` beside the settings; `.mcp.json`), or in a
    file of another host's format where that host reads none (`misplaced`: Codex's
    `.codex/hooks/hooks.json`), where no file it reads holds those hooks: one finding at the
    block, the move being the fix."""
    host = hosts.of(file.host) if why == "misplaced" else None
    words: dict[str, Any] = {"host": host.title, "instead": host.read_instead(file.path)[1]} if host is not None else {}
    data = file.document.data if file.document is not None else None
    projects = data.get("projects") if isinstance(data, dict) else None
    blocks: list[tuple[Keys, Any]] = [(("hooks",), data.get("hooks"))] if isinstance(data, dict) else []
    if isinstance(projects, dict) and file.path.name == ".claude.json":
        blocks += [(("projects", name, "hooks"), entry.get("hooks")) for name, entry in projects.items()
                   if isinstance(entry, dict)]
    for keys, hooks in blocks:
        if not isinstance(hooks, dict) or not hooks:
            continue
        events = [str(event) for event, groups in hooks.items() if isinstance(groups, list) and groups]
        unread = [h for h in load.handlers(file) if h.keys[:len(keys)] == keys] if keys == ("hooks",) else []
        if unread and all(_signature(h) in read for h in unread):
            continue  # (the same hooks are in a file the session reads)
        yield ctx.finding("structure/settings-not-read", file, keys, at_key=True, variant=why,
                          events=", ".join(events) or "none", place=str(file.path), about=(str(file.path), keys),
                          **words)


def _opencode_below(ctx: Context, file: ConfigFile) -> Iterator[Finding]:
    """A plugin of a `.opencode/` folder below the start, or an opencode.json there that lists
    plugins: opencode never loads them in a session started here (Host.files_never_read). One
    finding per file; a plugin the session's own plugins folders hold by the same name is a copy."""
    config = file.path.name.startswith("opencode.")
    folder = file.path.parent if config else file.path.parent.parent.parent
    start = ctx.project or folder
    if not config and any((start / ".opencode" / name / file.path.name).is_file() for name in ("plugin", "plugins")):
        return
    text = file.source.decode("utf-8", "replace") if file.source else ""
    at = text.find('"plugin"') if config else -1
    line = text.count("\n", 0, at) + 1 if at >= 0 else 1
    yield ctx.finding_at("structure/settings-not-read", file, line, 1, variant="opencode-config-below" if config
                         else "opencode-below", start=str(start), folder=str(folder))


def _can_refuse(event: str) -> bool:
    """Whether a hook on the event can refuse what happens (a guard), from Claude Code's protocol table."""
    row = claude_protocol.PROTOCOL.get(event)
    return row is not None and (row.permission_decisions is not None or
                                row.decisions is not None and not row.after_the_fact)


def _start_settings(ctx: Context, unread: ConfigFile) -> ConfigFile | None:
    """The project settings of the folder the session starts in, read, beside a file it does not read."""
    return next((f for f in ctx.files if f.kind == "claude-settings" and f.scope == "project" and f.project is not None
                 and f.project == unread.project and f.path.parent.parent == f.project and f.document is not None), None)


def _enabled(value: Any) -> bool:
    return value is True or (isinstance(value, list) and bool(value))


EVERY_PROJECT = frozenset({"user", "managed"})  # scopes whose settings a session reads in any project


def _sessions(ctx: Context) -> dict[Path | None, list[ConfigFile]]:
    """The settings files a session reads, per project of the run: the user's and the
    administrator's in every project, a project's own and local files in that project alone. A
    run over a tree of projects names many, and one project's `env` is not another's (chained
    across the run, each command's PATH was looked up in every file of the run: files times
    commands, eight seconds of the corpus tree four times over)."""
    settings = [f for f in ctx.files if f.scope in SCOPE_ORDER and f.document is not None
                and isinstance(f.document.data, dict)]
    everywhere = [f for f in settings if f.scope in EVERY_PROJECT]
    sessions: dict[Path | None, list[ConfigFile]] = {f.project: list(everywhere) for f in ctx.files}
    for file in settings:
        if file.scope not in EVERY_PROJECT:
            sessions[file.project].append(file)
    return sessions


def _by_precedence(files: list[ConfigFile], key: str, kind: str = "claude-settings") -> dict[str, list[tuple[ConfigFile, Any]]]:
    """Each name of a settings object (`env`, `enabledPlugins`) with the values one session's
    files of the kind give it, lowest precedence first: the last is the one that counts."""
    values: dict[str, list[tuple[ConfigFile, Any]]] = {}
    for file in sorted((f for f in files if f.kind == kind), key=lambda f: SCOPE_ORDER[f.scope]):
        given = file.document.data.get(key) if file.document else None
        for name, value in given.items() if isinstance(given, dict) else ():
            values.setdefault(name, []).append((file, value))
    return values


def _once_per_name(ctx: Context, key: str) -> Iterator[tuple[Path | None, str, list[tuple[ConfigFile, Any]]]]:
    """Each project, name and the name's chain in that project's sessions; a chain that only the
    files of every project make (the user's, the administrator's) given once for the run."""
    seen: set[tuple[str, tuple[int, ...]]] = set()
    for project, files in ctx.once(_sessions).items():
        for name, chain in _by_precedence(files, key).items():
            mark = (name, tuple(id(file) for file, _ in chain))
            if mark not in seen:
                seen.add(mark)
                yield project, name, chain


def _paths_given(ctx: Context) -> dict[tuple[str, Path | None], list[tuple[ConfigFile, Any]] | None]:
    """The chain of `env.PATH` per kind of settings file and project (asked for each command)."""
    kinds = {f.kind for files in ctx.once(_sessions).values() for f in files}
    return {(kind, project): _by_precedence(files, "env", kind).get("PATH")
            for project, files in ctx.once(_sessions).items() for kind in kinds}


def settings_path(ctx: Context, file: ConfigFile) -> tuple[ConfigFile, str] | None:
    """The PATH the settings' "env" gives the hooks of this file's host, with the file that sets
    it (of the highest precedence, as the host merges "env": Host.settings_env_kind); None where
    none sets it, or where it names another variable (`$PATH:...`: not known here)."""
    host = hosts.of(file.host)
    if host is None or host.settings_env_kind is None:
        return None
    chain = ctx.once(_paths_given).get((host.settings_env_kind, file.project))
    if not chain:
        return None
    last, value = chain[-1]
    return (last, value) if isinstance(value, str) and value and "$" not in value and "~" not in value else None


# a refusal in a hook's code: an exit 2, or an answer that denies or blocks
REFUSES = lazy(r"""\bexit\(?\s*2\b|["'](?:permissionDecision|decision|behavior)["']\s*:\s*["'](?:deny|block)["']""",
               needs=("exit", "ecision", "behavior"))


@RULES.rule("structure/env-overridden")
def _env_overridden(ctx: Context) -> Iterator[Finding]:
    """`"env": {"MODE": "warn"}` in the local settings over the project's `"MODE": "block"`, where
    a guard refuses only when MODE is "block": the value of the highest file that sets a variable
    is the one a hook gets (measured on Claude Code 2.1.332, docs/hosts/claude-code.md#environment),
    so the guard the project meant never refuses here. At the overriding value."""
    scripts: dict[Path | None, dict[Path, str]] | None = None
    for project, name, chain in _once_per_name(ctx, "env"):
        chain = [(file, str(value)) for file, value in chain
                 if isinstance(value, (str, int, float)) and not isinstance(value, bool)]
        if not chain:
            continue
        last, value = chain[-1]
        meant = [(file, earlier) for file, earlier in chain[:-1] if earlier != value]
        for file, earlier in meant[-1:]:
            if scripts is None:
                scripts = _script_texts(ctx)
            guard = _guard_needing(scripts.get(project, {}), name, earlier, value)
            if guard is not None:
                yield ctx.finding("structure/env-overridden", last, ("env", name), name=name, value=json.dumps(value),
                                  earlier=json.dumps(earlier), scope=file.scope, script=guard.name,
                                  related=[{"path": str(file.path), "line": file.position(("env", name), False)[0],
                                            "column": 1, "message": f"the {file.scope} settings' value"},
                                           {"path": str(guard), "line": 1, "column": 1, "message": "the guard"}])


def _script_texts(ctx: Context) -> dict[Path | None, dict[Path, str]]:
    """Per project, the text of each readable script its sessions' hooks run (the user's hooks in
    every project), in the order of their handlers: each read once for all the variables a run
    overrides, not once per variable and handler (that was a third of a second on the corpus
    tree, whose projects override dozens of variables)."""
    texts: dict[Path, str] = {}
    own: dict[Path | None, list[tuple[int, Path]]] = {}
    everywhere: list[tuple[int, Path]] = []
    for order, handler in enumerate(ctx.handlers):
        for _, facts in handler_facts.script_facts(handler):
            if facts.path not in texts:
                texts[facts.path] = intent.text_of(facts.path) if facts.readable else ""
            wide = handler.file.scope in EVERY_PROJECT
            (everywhere if wide else own.setdefault(handler.file.project, [])).append((order, facts.path))
    return {project: {path: texts[path] for _, path in sorted(everywhere + own.get(project, []))}
            for project in {*own, *ctx.once(_sessions)}}


def _guard_needing(scripts: dict[Path, str], name: str, meant: str, given: str) -> Path | None:
    """The script of a hook that reads the variable and refuses where it holds `meant`: it compares
    it with that value (`== "block"`) and not with the value given (a default may be that), and it
    refuses somewhere."""
    if not any(name in text and meant in text for text in scripts.values()):
        return None  # (no pattern made of the values to compile)
    compared, given_too = (re.compile(rf"""(?:==|!=|\bis)\s*["']{re.escape(value)}["']|["']{re.escape(value)}["']\s*(?:==|!=)|"""
                                      rf"""\bin\s*[(\[{{][^)\]}}\n]*["']{re.escape(value)}["']""") for value in (meant, given))
    for path, text in scripts.items():
        if name in text and meant in text and compared.search(text) and not given_too.search(text) \
                and REFUSES.search(text):
            return path
    return None


def _session_env(ctx: Context, file: ConfigFile, kind: str) -> dict[str, tuple[ConfigFile, Any]]:
    """The "env" a hook of this file gets from the settings of its session (the user's, the
    administrator's, its own project's), each variable with the file of highest precedence that
    sets it (worked out once per project and kind of file)."""
    return ctx.once(_envs_given).get((kind, file.project), {})


def _envs_given(ctx: Context) -> dict[tuple[str, Path | None], dict[str, tuple[ConfigFile, Any]]]:
    """The settings' `env` per kind of settings file and project: each name's last (highest) file and value."""
    kinds = {f.kind for files in ctx.once(_sessions).values() for f in files}
    return {(kind, project): {name: chain[-1] for name, chain in _by_precedence(files, "env", kind).items()}
            for project, files in ctx.once(_sessions).items() for kind in kinds}


def _assigned(command: object, name: str) -> str | None:
    """The value a hook's own command gives the variable (`X=1 guard.sh`, `export X=1; ...`), else None."""
    if not isinstance(command, str) or f"{name}=" not in command:
        return None
    found = re.search(rf"""(?:^|[\s;&|(])(?:export[ \t]+)?{re.escape(name)}=("[^"]*"|'[^']*'|[^\s;&|]*)""", command)
    return found[1].strip("'\"") if found else None


ASSIGNMENT = lazy(r"(\w+)=", needs=("=",))  # a variable a command line sets (`GUARD_OFF=1 guard.sh`)
# where a script refuses (an exit 2, a deny or a block), or calls a function of its own that does
REFUSAL_SITE = lazy(r"""\bexit\(?\s*2\b|["']?(?:permissionDecision|decision|behavior)["']?\s*[:=]\s*["'](?:deny|block)["']""",
                    needs=("exit", "ecision", "behavior"))
FUNCTION_START = lazy(r"""^(?P<indent>[ \t]*)(?:def[ \t]+(?P<py>\w+)\(|(?:function[ \t]+)?(?P<sh>[\w-]+)[ \t]*\(\)[ \t]*\{|"""
                      r"""function[ \t]+(?P<js>[\w$]+)[ \t]*\()""", re.M)


def _last_refusal(code: str, facts: script_keys.ScriptFacts) -> int:
    """The line of the last place the code refuses, counting a call of a function that refuses
    where it is called (a shell `block() {...}` defined at the top and called below), and an exit 2
    the script's flow reads (a `return 2` of a main() whose returns are its status); 0 for none."""
    last = max([0, *(site.line for site in (*facts.blocks, *facts.denies)),
                *(exit_.at.line for exit_ in facts.flow.exits if exit_.status == 2)])
    starts = list(FUNCTION_START.finditer(code))
    index = LineIndex(code)

    def line_of(offset: int) -> int:
        return index.at(offset)[0]

    refusing: dict[str, int] = {}  # a function that refuses: where its definition ends
    for found in REFUSAL_SITE.finditer(code):
        last = max(last, line_of(found.start()))
        inside = [f for f in starts if f.start() < found.start()]
        name = (inside[-1]["py"] or inside[-1]["sh"] or inside[-1]["js"]) if inside else None
        if name and name not in refusing:
            refusing[name] = inside[-1].end()
    for name, after in refusing.items():  # (each function's calls looked for once)
        calls = [m.start() for m in re.finditer(rf"(?<![\w$.-]){re.escape(name)}\b(?![\w-]*[ \t]*\(\)[ \t]*\{{)", code)
                 if m.start() > after]
        last = max([last, *map(line_of, calls)])
    return last


@RULES.rule("structure/env-switches-guard-off")
def _env_switches_guard_off(ctx: Context) -> Iterator[Finding]:
    """A variable the settings' "env" (or the hook's own command) gives every hook, that a guard's
    script reads as its off switch: under a test of it, which holds for that value, the script ends
    without an answer before it refuses anything (`[ "${GUARD_OFF:-0}" = "1" ] && exit 0`,
    `if os.environ.get("SKIP_GUARD"): sys.exit(0)`). Measured on Claude Code 2.1.332
    (docs/hosts/claude-code.md#environment): a settings.local.json `"GUARD_BASH_OFF": "1"` let the
    call run, "0" left it refused. At the value, or at the command that sets it; and a guard that
    checks only while a variable nothing sets holds a value, at its test (_never_switched_on)."""
    from ..scripts.keys import strip_comments

    names = {name for f in ctx.files if f.kind == "claude-settings" and f.document is not None
             and isinstance(f.document.data, dict) and isinstance(f.document.data.get("env"), dict)
             for name in f.document.data["env"]}
    reported: set[tuple[str, str, str]] = set()
    codes: dict[Path, str] = {}
    for handler in ctx.handlers:
        host = hosts.of(handler.file.host)
        if host is None or host.settings_env_kind is None:
            continue
        for _, facts in handler_facts.script_facts(handler):
            text = intent.text_of(facts.path) if facts.readable and facts.language in variables.READ else ""
            command = handler.value.get("command") if isinstance(handler.value, dict) else None
            if not text:
                continue
            code = codes[facts.path] if facts.path in codes else codes.setdefault(
                facts.path, strip_comments(text, facts.language))  # (a script many handlers run: once)
            yield from _never_switched_on(ctx, handler, host, facts, code, reported)
            named = [n for n in names if n in text] + [n for n in ASSIGNMENT.findall(command or "")
                                                         if n not in names and n in text]
            env: dict[str, tuple[ConfigFile, Any]] | None = None
            for name in dict.fromkeys(named):
                if env is None:
                    env = _session_env(ctx, handler.file, host.settings_env_kind)
                inline = _assigned(command, name)
                given = inline if inline is not None else env[name][1] if name in env else None
                if isinstance(given, bool) or not isinstance(given, (str, int, float)):
                    continue
                value = str(given)
                from ..scripts import off_switch  # (a script reading a variable set here: 1.4 M instructions)

                at = off_switch.quits_when(code, facts.language, name, value)
                line = code.count("\n", 0, at) + 1 if at is not None else 0
                if at is None or line > _last_refusal(code, facts):
                    continue
                where, keys = (handler.file, handler.keys + ("command",)) if inline is not None else \
                    (env[name][0], ("env", name))
                key = (str(where.path), name, str(facts.path))
                if key in reported:
                    continue
                reported.add(key)
                yield ctx.finding("structure/env-switches-guard-off", where, keys, variant="command" if inline else None,
                                  name=name, value=json.dumps(value), script=facts.path.name, line=line,
                                  related=[{"path": str(facts.path), "line": line, "column": 1,
                                            "message": f"where the script stops when {name} is {json.dumps(value)}"}])


# variables every hook process has from its system, or that a user sets for every program: never a guard's own switch
SYSTEM_VARIABLES = frozenset({"HOME", "PATH", "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "TMPDIR", "TMP", "TEMP", "LANG",
                              "TERM", "HOSTNAME", "SHLVL", "CI", "DEBUG", "VERBOSE", "EDITOR", "XDG_CONFIG_HOME"})


def _never_switched_on(ctx: Context, handler: Handler, host: Any, facts: script_keys.ScriptFacts, code: str,
                       reported: set[tuple[str, str, str]]) -> Iterator[Finding]:
    """A guard that checks only while a variable holds a value (`[ "$GUARD_MODE" = "enforce" ] ||
    exit 0`) that no settings file of its session sets, its command does not, its host does not
    (CLAUDE_PROJECT_DIR...) and the shell doctor runs in does not export: it ends there on every
    call (measured on 2.1.332: the call ran; with the variable in the settings' "env" it was
    refused). At the script's test: the value is to be given somewhere."""
    from ..model import rule_by_id

    command = handler.value.get("command") if isinstance(handler.value, dict) else None
    session: dict[str, tuple[ConfigFile, Any]] | None = None
    for name in variables.read_variables(code, facts.language):
        if name in SYSTEM_VARIABLES or name in os.environ or name in (host.hook_variables or ()) \
                or name.startswith(("CLAUDE", "ANTHROPIC")) or _assigned(command, name) is not None:
            continue
        session = _session_env(ctx, handler.file, host.settings_env_kind) if session is None else session
        from ..scripts import off_switch  # (a script reading a variable: 1.4 M instructions)

        at = off_switch.quits_unless_set(code, facts.language, name) if name not in session else None
        line = code.count("\n", 0, at) + 1 if at is not None else 0
        if at is None or line > _last_refusal(code, facts) or ("", name, str(facts.path)) in reported:
            continue
        reported.add(("", name, str(facts.path)))
        rule = rule_by_id("structure/env-switches-guard-off")
        message, hint = rule.worded("unset")
        words = {"name": name, "script": facts.path.name, "line": line}
        config_line, column = handler.file.position(handler.keys + ("command",) if command else handler.keys)
        yield Finding(rule.id, rule.severity, str(facts.path), line, 1, message.format(**words), hint.format(**words),
                      [{"path": str(handler.file.path), "line": config_line, "column": column,
                        "message": f"the {handler.event} hook that runs it"}])


# the variables that make an interpreter run a file of the user's before a hook's own code, and
# the interpreter each is read by (measured on Claude Code 2.1.332, docs/hosts/claude-code.md#environment:
# a line those files printed on stdout came before each hook's JSON, and its deny was lost; ENV and
# PYTHONSTARTUP, read by interactive shells and interpreters only, changed nothing)
STARTUP_VARIABLES = {"BASH_ENV": "bash", "NODE_OPTIONS": "node", "PYTHONPATH": "python"}
PYTHON_ISOLATED = frozenset({"-I", "-E", "-S"})  # flags with which python reads neither PYTHONPATH nor sitecustomize
# a startup file that prints only in an interactive shell (`[ -t 1 ] && echo`, `case $- in *i*`)
INTERACTIVE_ONLY = lazy(r"""\$-|-t[ \t]+[012]\b|\bPS1\b|isatty""", needs=("$-", "-t", "PS1", "isatty"))
NODE_PRELOAD = lazy(r"""(?:--require|-r|--import)(?:=|[ \t]+)(?P<file>["']?[.~/][^\s"']*)""")


def _startup_files(name: str, value: str, cwd: Path) -> list[Path]:
    """The files the variable's value makes its interpreter run first: BASH_ENV's file (bash expands
    $HOME in it), NODE_OPTIONS' --require and --import of a path, PYTHONPATH's sitecustomize."""
    home = os.environ.get("HOME", "")
    if name == "BASH_ENV":
        paths = [value.replace("${HOME}", home).replace("$HOME", home)] if "$" not in value.replace("$HOME", "").replace(
            "${HOME}", "") else []
    elif name == "NODE_OPTIONS":
        paths = [m["file"].strip("'\"") for m in NODE_PRELOAD.finditer(value) if not m["file"].startswith("~")]
    else:
        paths = [f"{folder}/{module}.py" for folder in value.split(":") if folder and "$" not in folder
                 for module in ("sitecustomize", "usercustomize")]
    return [cwd / path for path in paths if path]


def _started_by(handler: Handler, inv: Any, text: str) -> str | None:
    """The interpreter of STARTUP_VARIABLES that runs the invocation's script, None for another or
    for python with a flag that keeps it from reading them."""
    words = [str(word) for word in handler_facts.runs(handler) or ()]
    if inv.interpreter:
        program = inv.interpreter.split()[0]
        flags = words[words.index(program) + 1:] if program in words else []
    elif inv.direct and text.startswith("#!"):
        shebang = text.split("\n", 1)[0][2:].split()
        program, flags = (shebang[1:2] or [""])[0] if shebang[:1] and shebang[0].endswith("/env") else (
            shebang[0] if shebang else ""), shebang[1:]
        flags = [f for f in flags if f.startswith("-") and f != "-S"] if shebang[0].endswith("/env") else flags
    else:
        return None
    base = program.rsplit("/", 1)[-1]
    if base == "bash":
        return "bash"
    if base in ("node", "nodejs"):
        return "node"
    if base.startswith("python") or base == "uv":
        return None if PYTHON_ISOLATED & {flag for word in flags for flag in (word, word[:2])} else "python"
    return None


@RULES.rule("structure/env-startup-output")
def _env_startup_output(ctx: Context) -> Iterator[Finding]:
    """`"env": {"BASH_ENV": ".claude/shell-init.sh"}` where that file echoes a line: bash runs it
    before every bash hook, and the line comes before the hook's JSON on stdout, so the answer is
    not JSON and is lost (a deny lets the call run). The same for NODE_OPTIONS' --require and a
    sitecustomize on PYTHONPATH. At the variable, the file's printing line related; only where a
    hook of that interpreter answers in JSON."""
    for _, name, chain in _once_per_name(ctx, "env"):
        if name not in STARTUP_VARIABLES:
            continue
        last, value = chain[-1]
        if not isinstance(value, str) or not value.strip():
            continue
        cwd = handler_facts.where(last).cwd or last.project
        printed = [(path, write) for path in (_startup_files(name, value.strip(), cwd) if cwd is not None else [])
                   for write in _prints(path)[:1]]
        if not printed:
            continue
        answering = [(handler, facts.path) for handler in ctx.handlers if _gets_env(handler, last)
                     for inv, facts in handler_facts.script_facts(handler)
                     if _started_by(handler, inv, intent.text_of(facts.path)) == STARTUP_VARIABLES[name]
                     and (facts.answers or any(w.kind == "json" for w in facts.flow.writes))]
        if not answering:
            continue
        (path, write), (_, script) = printed[0], answering[0]
        shown = path.relative_to(cwd) if cwd is not None and path.is_relative_to(cwd) else path
        yield ctx.finding("structure/env-startup-output", last, ("env", name), name=name, startup=str(shown),
                          line=write.at.line, what=write.what, script=script.name,
                          others=f" and {len(answering) - 1} other hook(s)" if len(answering) > 1 else "",
                          interpreter=STARTUP_VARIABLES[name],
                          related=[{"path": str(path), "line": write.at.line, "column": 1,
                                    "message": "what it prints on stdout"},
                                   {"path": str(script), "line": 1, "column": 1,
                                    "message": "a hook whose answer the line comes before"}])


def _prints(path: Path) -> list[Any]:
    """The text a startup file writes on stdout in a shell or interpreter without a terminal."""
    facts = script_keys.analyse(path) if disk.is_file(path) else None
    if facts is None or not facts.readable or INTERACTIVE_ONLY.search(intent.text_of(path)):
        return []
    return [write for write in facts.flow.writes if write.kind in ("text", "json")]


def _gets_env(handler: Handler, settings: ConfigFile) -> bool:
    """Whether the hook gets the "env" of this settings file: a hook of the same host and session."""
    file = handler.file
    return file.host == settings.host and "given" not in (file.scope, settings.scope) and (
        settings.scope not in ("project", "local") or settings.project == file.project) or file is settings


@RULES.rule("structure/plugin-switched-off")
def _plugin_switched_off(ctx: Context) -> Iterator[Finding]:
    """`enabledPlugins: {"x@y": false}` in a file of higher precedence than one that enables the
    plugin (measured on Claude Code 2.1.332: a project's false switched off a plugin the user's
    settings enabled, and its hooks): the plugin's guards stop in this project without a word.
    Only for an installed plugin with hooks; managed settings are the administrator's choice."""
    for _, plugin_id, chain in _once_per_name(ctx, "enabledPlugins"):
        last, value = chain[-1]
        on = [file for file, earlier in chain[:-1] if _enabled(earlier)]
        if _enabled(value) or not on or last.scope == "managed" or ctx.project is None:
            continue
        hook_files = installed_hook_files(plugin_id, ctx.project)
        if hook_files:
            yield ctx.finding("structure/plugin-switched-off", last, ("enabledPlugins", plugin_id), at_key=True,
                              plugin=plugin_id, enabled_in=str(on[-1].path), scope=last.scope,
                              related=[{"path": str(on[-1].path), "line": on[-1].position(("enabledPlugins", plugin_id))[0],
                                        "column": 1, "message": "enabled here"},
                                       *({"path": str(p), "line": 1, "column": 1, "message": "its hooks do not run"}
                                         for p in hook_files)])


@RULES.rule("structure/plugin-marketplace-unknown")
def _plugin_marketplace_unknown(ctx: Context) -> Iterator[Finding]:
    """A plugin of a marketplace that no file on this machine declares either: it loads nowhere."""
    return (f for f in ctx.once(_marketplace_findings) if f.rule == "structure/plugin-marketplace-unknown")


@RULES.rule("structure/plugin-marketplace-not-shared")
def _plugin_marketplace_not_shared(ctx: Context) -> Iterator[Finding]:
    """A plugin of a marketplace only this machine knows: it loads for this user alone."""
    return (f for f in ctx.once(_marketplace_findings) if f.rule == "structure/plugin-marketplace-not-shared")


def _marketplace_findings(ctx: Context) -> list[Finding]:
    """The findings of both marketplace rules, worked out once for the two."""
    return list(_undeclared_marketplaces(ctx))


def _undeclared_marketplaces(ctx: Context) -> Iterator[Finding]:
    """A project's shared settings enable `plugin@marketplace` without declaring the marketplace
    (extraKnownMarketplaces): measured on Claude Code 2.1.332, a marketplace no file declares loads
    nothing, without a word; one the user's settings declare loads for that user only. The project
    is shared: what this machine knows does not travel with it."""
    for file in ctx.files:
        host = hosts.of(file.host)
        data = file.document.data if file.document is not None else None
        if host is None or not host.has_plugins or file.scope != "project" or file.kind != "claude-settings" \
                or file.path.name != "settings.json" or not isinstance(data, dict):
            continue
        enabled, declared = data.get("enabledPlugins"), data.get("extraKnownMarketplaces")
        declared = set(declared) if isinstance(declared, dict) else set()
        for plugin_id, value in enabled.items() if isinstance(enabled, dict) else ():
            _, at, market = plugin_id.rpartition("@")
            if not at or not _enabled(value) or market in declared or market in host.builtin_marketplaces:
                continue
            here = _declared_here(ctx, market)
            yield ctx.finding("structure/plugin-marketplace-not-shared" if here else "structure/plugin-marketplace-unknown",
                              file, ("enabledPlugins", plugin_id), at_key=True, plugin=plugin_id, marketplace=market,
                              where=here or "")


def _declared_here(ctx: Context, market: str) -> str | None:
    """Where this machine knows the marketplace from: a settings file of the user (or the
    administrator, or the local file) that declares it, or the marketplaces Claude Code added."""
    declared = ctx.once(_machine_marketplaces).get(market)
    return declared or ("the marketplaces and plugins added on this machine" if market in ctx.once(_known_marketplaces)
                        else None)


def _known_marketplaces(ctx: Context) -> frozenset[str]:
    """The marketplaces Claude Code added here, read once per run (two files of the user's folder:
    read again for each plugin a project enables, 69 times on the corpus tree)."""
    return known_marketplaces()


def _machine_marketplaces(ctx: Context) -> dict[str, str]:
    """Each marketplace a user, local or managed settings file of the run declares, with the first
    such file (asked for each plugin a project enables: a scan of the run's files for each was
    files times plugins, a second of the corpus tree four times over)."""
    declared: dict[str, str] = {}
    for file in ctx.files:
        data = file.document.data if file.document is not None else None
        if file.kind == "claude-settings" and file.scope in ("user", "local", "managed") and isinstance(data, dict) \
                and isinstance(data.get("extraKnownMarketplaces"), dict):
            for market in data["extraKnownMarketplaces"]:
                declared.setdefault(market, str(file.path))
    return declared


# ---- the kill switches, and the plugin manifests that name the default hooks file again ----------------

def _disabling(files: list[ConfigFile]) -> list[ObjectFile]:
    by_file = {id(settings.file): settings for settings in settings_objects(files)}
    return [by_file[id(file)] for file in hooks_disabled_by(files)]


def _switched_off(ctx: Context, settings: ObjectFile) -> list[ConfigFile]:
    """The other files whose hooks a `disableAllHooks: true` that counts switches off: every scope's
    and every plugin's (measured on Claude Code 2.1.332: true in the user, project or local file
    stopped the hooks of all three and of a plugin), of one session: another project's files are
    not read with it. None for managed settings (an administrator's choice, hooks-disabled's note)
    nor for a file named on the command line (it is judged alone)."""
    if settings.file.scope == "given" or settings.managed:
        return []
    off = {id(h.file): h.file for h in ctx.handlers if h.file is not settings.file and h.file.host == settings.file.host
           and h.file.scope not in ("given", "managed")
           and (h.file.scope not in ("project", "local") or h.file.project == settings.file.project)}
    return list(off.values())


@RULES.rule("structure/hooks-disabled")
def _hooks_disabled(ctx: Context) -> Iterator[Finding]:
    for settings in _disabling(ctx.files):
        if not _switched_off(ctx, settings):  # (else: hooks-disabled-elsewhere)
            yield ctx.finding("structure/hooks-disabled", settings.file, (DISABLE_ALL,),
                              variant="managed" if settings.managed else None)


@RULES.rule("structure/hooks-disabled-elsewhere")
def _hooks_disabled_elsewhere(ctx: Context) -> Iterator[Finding]:
    """`disableAllHooks: true` in one file (the user's, a git-ignored local file) that also
    switches off the hooks of other files: a project's guards stop without a word."""
    for settings in _disabling(ctx.files):
        off = _switched_off(ctx, settings)
        if off:
            shown = ", ".join(str(f.path) for f in off[:3]) + (f" and {len(off) - 3} more" if len(off) > 3 else "")
            yield ctx.finding("structure/hooks-disabled-elsewhere", settings.file, (DISABLE_ALL,), files=shown,
                              related=[{"path": str(f.path), "line": 1, "column": 1,
                                        "message": "its hooks do not run"} for f in off])


@RULES.rule("structure/managed-hooks-only")
def _managed_hooks_only(ctx: Context) -> Iterator[Finding]:
    for settings in settings_objects(ctx.files):
        for key in MANAGED_ONLY_KEYS:
            value = settings.data.get(key)
            on = value is True if key == "allowManagedHooksOnly" else (
                value is True or (isinstance(value, list) and "hooks" in value))
            if on:
                yield ctx.finding("structure/managed-hooks-only", settings.file, (key,), key=key,
                                  variant=None if settings.managed else "outside-managed")


@RULES.rule("structure/plugin-manifest-names-default-hooks")
def _manifests_naming_default_hooks(ctx: Context) -> Iterator[Finding]:
    """A plugin's `.claude-plugin/plugin.json` whose `hooks` names `hooks/hooks.json`: Claude Code
    loads that file anyway, and refuses the second load ("Duplicate hooks file detected")."""
    roots = {resolved(p.install_path) for p in ctx.plugins if p.install_path is not None}
    roots |= {resolved(f.plugin_root) for f in ctx.files if f.plugin_root is not None}
    for root in sorted(roots):
        default = root / "hooks" / "hooks.json"
        manifest = _manifest(ctx, root / ".claude-plugin" / "plugin.json")
        if manifest is None:
            continue
        named = manifest.data.get("hooks")
        listed: list[tuple[Keys, Any]] = [(("hooks",), named)] if isinstance(named, str) else \
            [(("hooks", i), item) for i, item in enumerate(named)] if isinstance(named, list) else []
        for keys, item in listed:
            if isinstance(item, str) and default.is_file() and resolved(root / item) == resolved(default):
                yield ctx.finding("structure/plugin-manifest-names-default-hooks", manifest.file, keys,
                                  value=json.dumps(item))


def _manifest(ctx: Context, path: Path) -> ObjectFile | None:
    """The manifest as doctor read it (inline hooks make it a hooks file), else read now; None
    when there is none, or it does not parse into an object."""
    if not path.is_file():
        return None
    file = next((f for f in ctx.files if f.path == path), None) or load.read(Candidate(path, "plugin", "claude-plugin-hooks"))
    if file.document is None or not isinstance(file.document.data, dict):
        return None
    return ObjectFile(file, file.document.data)
