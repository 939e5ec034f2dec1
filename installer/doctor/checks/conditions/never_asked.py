"""A hook of the event its host asks before a call that needs permission (Host.prompt_event:
Claude Code's PermissionRequest) for calls that never ask (PROMPT_RULES). conditions.check
imports it for such a hook only."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

from .... import hosts, safe_read
from ....hooks.events import BUILTIN_TOOLS, SCOPE_ORDER
from ....hooks.firing import rule_tool
from ....hooks.regex import matched_builtins
from ....patterns import lazy
from ... import disk, handler_facts
from ...model import ConfigFile, Context, Finding, Handler, RuleTable
from ..scripts.event_fit import handler_code
from . import if_condition

PROMPT_RULES = RuleTable()  # a hook of the host's prompt event
PROMPTED_TOOL = "Bash"  # the tool whose allow rules were measured to skip PermissionRequest (2.1.332)
# a regex's blank or word edge, in a script that names a command (`\bgit\s+push`, `git[ ]push`)
REGEX_BLANK = lazy(r"\\s[+*?]?|\[ \][+*?]?|\\ |\\b", needs=("\\s", "[ ]", "\\ ", "\\b"))


@PROMPT_RULES.rule("matcher/never-asked")
def _never_asked(ctx: Context, handler: Handler) -> Iterator[Finding]:
    """A PermissionRequest hook for calls that never ask (Host.prompt_event): an allow rule of a
    file the session reads covers the commands its script guards (or every call of the tools its
    matcher fires for), or the permission mode lets those tools through (acceptEdits: Write, Edit).
    Measured on 2.1.332 (docs/hosts/claude-code.md#permission-rules): the hook ran for no such call."""
    host = hosts.get(handler.file.host)  # (a host with a prompt event: the premise)
    matched = matched_builtins(handler.matcher, BUILTIN_TOOLS, handler.event)
    if not matched:
        return
    settings = sorted((f for f in _one_session(ctx, handler.file) if f.document is not None
                       and isinstance(f.document.data, dict) and isinstance(f.document.data.get("permissions"), dict)),
                      key=lambda f: SCOPE_ORDER.get(f.scope or "", -1))
    modes = [(f, f.document.data["permissions"].get("defaultMode")) for f in settings]  # type: ignore[union-attr]
    file, mode = next(((f, m) for f, m in reversed(modes) if isinstance(m, str)
                       and f.scope in host.prompt_mode_scopes.get(m, {f.scope})), (None, None))
    freed = host.prompt_free_modes.get(mode or "", frozenset())
    if file is not None and matched <= freed:
        yield ctx.finding("matcher/never-asked", file, ("permissions", "defaultMode"), variant="mode", mode=mode,
                          tools=", ".join(sorted(matched)), related=_hook_at(handler))
        return
    command = _freed_command(handler, host.prompt_free_commands.get(mode or "", frozenset())) if file else None
    if file is not None and command is not None:
        yield ctx.finding("matcher/never-asked", file, ("permissions", "defaultMode"), variant="commands", mode=mode,
                          command=command, related=_hook_at(handler))
        return
    launched = _launched(handler, host.prompt_mode_flags) if handler.file.project is not None else None
    keys, at_key = handler_facts.registration(handler)
    if launched is not None and matched <= host.prompt_free_modes.get(launched[3], frozenset()) and not any(
            h.file is handler.file and handler_facts.registration(h)[0] == keys for h in ctx.handlers[:ctx.handlers.index(handler)]):
        path, line, flag, mode = launched
        yield ctx.finding("matcher/never-asked", handler.file, keys, at_key=at_key, variant="launched",
                          flag=flag, mode=mode, place=f"{path.name}:{line}", tools=", ".join(sorted(matched)),
                          related=[{"path": str(path), "line": line, "column": 1, "message": f"the agent started with {flag}"}])
        return
    for file in settings:
        allow = file.document.data["permissions"].get("allow")  # type: ignore[union-attr]
        for index, rule in enumerate(allow if isinstance(allow, list) else []):
            what = _allowed_guard(handler, rule, matched) if isinstance(rule, str) else None
            if what is not None:
                untrusted = rule_tool(rule) == PROMPTED_TOOL and host.allow_rules_wait_for_trust(file.scope, file.project)
                yield ctx.finding("matcher/never-asked", file, ("permissions", "allow", index), rule=json.dumps(rule),
                                  what=what, related=_hook_at(handler), variant="once-trusted" if untrusted else None)
                return


def _freed_command(handler: Handler, commands: frozenset[str]) -> str | None:
    """A command the mode lets through unasked that the hook's script looks for (`rm -rf`), where
    its matcher fires for the shell tool alone."""
    if not commands or matched_builtins(handler.matcher, BUILTIN_TOOLS, handler.event) != {PROMPTED_TOOL}:
        return None
    code = handler_code(handler)
    if code is None or not any(word in code.text for word in commands):
        return None
    text = REGEX_BLANK.sub(" ", code.text)
    found = re.search(r"(?<![\w./-])(" + "|".join(sorted(commands)) + r") +-?[\w*./-]", text)
    return found[0].rstrip("-") if found else None


# the files that say how a project starts its agent, read for a flag that sets its permission mode
LAUNCH_FILES = ("README.md", "README", "CLAUDE.md", "AGENTS.md", "CONTRIBUTING.md", "Makefile", "justfile", "package.json",
                ".devcontainer/devcontainer.json", ".devcontainer/Dockerfile", "Dockerfile", "docker-compose.yml",
                "compose.yaml", ".envrc", "docs/README.md")
NEGATED = lazy(r"(?i)\b(?:never|don'?t|do not|avoid|without|instead of|not|no longer)\b")


def _launched(handler: Handler, flags: dict[str, str]) -> tuple[Path, int, str, str] | None:
    """Where the project says its agent is started with a flag that sets a permission mode
    (`claude --dangerously-skip-permissions` in the README, a Makefile, the devcontainer): the
    file, the line, the flag and the mode; None where no such file says so, or says not to."""
    project = handler.file.project
    if not flags or project is None:
        return None
    firsts = {flag.split()[0].split("=")[0] for flag in flags}
    for name in LAUNCH_FILES:
        raw = safe_read.read_or_none(project / name, safe_read.SCRIPT) if disk.is_file(project / name) else None
        text = raw.decode("utf-8", "replace") if raw else ""
        if not any(first in text for first in firsts):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            spaced = " ".join(line.split())
            for flag, mode in flags.items():
                at = spaced.find(flag)
                if at >= 0 and not spaced[at + len(flag):at + len(flag) + 1].isalnum() and not NEGATED.search(spaced[:at]):
                    return project / name, number, flag, mode
    return None


def _one_session(ctx: Context, file: ConfigFile) -> list[ConfigFile]:
    """The file and the others of its host a session that loads it reads with it: the user's and
    the managed ones, and its own project's; none beside a file named on the command line (judged
    alone, as scopes.py judges one)."""
    return [f for f in ctx.files if f is file or f.host == file.host and "given" not in (f.scope, file.scope)
            and (f.scope not in ("project", "local") or f.project == file.project)]


def _allowed_guard(handler: Handler, rule: str, matched: frozenset[str]) -> str | None:
    """What of the hook's calls an allow rule lets through unasked: every call of the tools it fires
    for (`Bash`, `Bash(*)`), or a command its script or its `if` names (`Bash(git push:*)` for a
    script that refuses `git push`); None where the rule leaves it something to ask about."""
    tool = rule_tool(rule)
    if tool != PROMPTED_TOOL or tool not in matched:
        return None
    spec = rule.strip()[len(tool):].strip("()")
    if spec in ("", "*"):
        return f"every {tool} call" if matched == {tool} else None
    words = spec[:-2] if spec.endswith(":*") else spec[:-2] if spec.endswith(" *") else spec
    if "*" in words or len(words.split()) < 2:
        return None  # (one word, `cat` or `uv`, a script runs as often as it looks for it)
    condition = if_condition(handler)
    if condition is not None and rule_tool(condition) == tool:
        named = condition.strip()[len(tool):].strip("()").rstrip("* :")
        return f"`{named}` (the command of the hook's \"if\")" if named and (
            named.startswith(words) or words.startswith(named)) else None
    code = handler_code(handler)
    if code is None or words.split()[0] not in code.text:
        return None
    text = REGEX_BLANK.sub(" ", code.text)
    pattern = r"(?<![\w-])" + r" +".join(map(re.escape, words.split())) + r"(?![\w-])"
    return f"`{words}` (a command the hook's script looks for)" if re.search(pattern, text) else None


def _hook_at(handler: Handler) -> list[dict[str, object]]:
    document = handler.file.document
    keys = handler.keys + ("command",) if handler.command is not None else handler.keys
    node = document.node_at(*keys) if document is not None else None
    line, column = document.position(node) if document is not None and node is not None else (1, 1)
    return [{"path": str(handler.file.path), "line": line, "column": column, "message": "the PermissionRequest hook"}]
