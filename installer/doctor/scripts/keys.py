"""Static analysis of hook scripts: what a script we can read writes to its output.

Python, JavaScript/TypeScript and shell scripts, up to MAX_BYTES. The analysis does not
parse each language fully; it reads the *code* (comments and docstrings blanked out, so a
comment that explains `modifiedToolInput` is not an emission) for the object keys a hook
prints, wherever they are written: a Python dict, a JavaScript object, a jq program, JSON in
an `echo` or a here-document, an assignment such as `out["hookSpecificOutput"]["updatedInput"]
= ...` or jq's `.hookSpecificOutput.updatedInput = $x`. Braces give the nesting, so
`updatedInput` under `hookSpecificOutput` is told apart from a top-level one.

What it reports (docs/hosts/claude-code.md#several-hooks, #hook-output, #exit-codes, #json-fields, #pitfalls):
- field names Claude Code silently ignores: `modifiedToolInput`, `updatedToolInput`,
  `shouldProceed`, and `updatedInput` at the top level (only `hookSpecificOutput.updatedInput`
  rewrites input);
- `permissionDecision: "defer"` (ends `-p` runs, ignored interactively);
- a `hookSpecificOutput` without `hookEventName` (the whole object is void: a deny is lost), and
  the event names it writes as literals (void too when none is the event the script runs on);
- Claude Code's and Cursor's output shapes in one object;
- whether a Stop hook reads `stop_hook_active` and whether it can block;
- whether the script may rewrite tool input: "yes" (it writes `updatedInput` for Claude Code,
  `updated_input` for Cursor), "no" (it does not, and its output is its own), or "unknown"
  (its output may come from another program or module it hands over to).
"""
from __future__ import annotations

import bisect
import io
import os
import re
import tokenize
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator

from ... import hosts, safe_read
from ...document import LineIndex
from ...errors import HookwrightError
from ...hooks.events import GENERIC_INPUT_VARIABLE, LEGACY_INPUT_VARIABLE
from ...patterns import lazy
from .. import disk
from . import conditions
from . import flow as script_flow  # (ScriptFacts has a field named flow)

REWRITE_SHAPES = ("claude", "cursor")  # the hosts whose answer a script prints (opencode's plugins change args)

MAX_BYTES = 512 * 1024
TELLS_HOSTS_APART = lazy(r"CURSOR_|cursor_version|CLAUDE_CODE|CLAUDECODE|conversation_id",
                         needs=("CURSOR_", "cursor_version", "CLAUDE_CODE", "CLAUDECODE", "conversation_id"))

IGNORED_FIELDS = ("modifiedToolInput", "updatedToolInput", "shouldProceed")
# hookSpecificOutput's fields that, written at the top level, Claude Code drops (observed e: permissionDecision)
TOP_LEVEL_IGNORED = ("permissionDecision", "additionalContext")
TOP_LEVEL_ONLY = frozenset({"continue", "stopReason", "suppressOutput", "systemMessage", "decision"})
CLAUDE_SHAPE = frozenset({"hookSpecificOutput", "hookEventName", "permissionDecision", "permissionDecisionReason"})
# fields of hookSpecificOutput (docs/hosts/claude-code.md#decisions-per-event): an object with none of them is not an output
HSO_FIELDS = frozenset({"permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext",
                        "decision", "updatedToolOutput", "updatedMCPToolOutput", "classifierContext", "action",
                        "content", "retry", "sessionTitle", "watchPaths", "worktreePath", "displayContent",
                        "initialUserMessage", "reloadSkills", "suppressOriginalPrompt", "updatedPermissions",
                        "modifiedToolInput", "updatedToolInput"})
# each field right inside hookSpecificOutput by its name folded (lower case, no `_`): a key
# that folds to one of them but is spelt otherwise (`permission_decision`, `additionalcontext`,
# `hook_event_name`) is another name, which Claude Code ignores
SPECIFIC_BY_FOLD = {name.lower(): name for name in HSO_FIELDS - set(IGNORED_FIELDS) | {"hookEventName"}}
CURSOR_SHAPE = frozenset({"permission", "updated_input", "user_message", "agent_message", "followup_message"})

PY_SUFFIXES = (".py", ".pyw")
JS_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx")
SH_SUFFIXES = (".sh", ".bash", ".zsh", ".ksh", ".dash")
PERL_SUFFIXES = (".pl", ".pm")

KEY = lazy(r"""(?<![\w$])(?<!\$\{)(?P<q>\\?["'`]?)(?P<key>[A-Za-z_][A-Za-z0-9_]*)(?P=q)\s*:(?![:=+?-])""", needs=(":",))
QUOTED_KEY = lazy(r"""(?P<q>\\?["'`])(?P<key>[A-Za-z_][A-Za-z0-9_]*)(?P=q)\s*:(?![:=])""", needs=(":",))
ASSIGNED = lazy(r"""(?:\[\s*\\?["'`](?P<sub>[A-Za-z_]\w*)\\?["'`]\s*\]|\.(?P<attr>[A-Za-z_]\w*))\s*\|?=(?![=~])""",
                needs=("=",))
CHAIN = lazy(r"""hookSpecificOutput\\?["'`]?\s*\]?\s*(?:\??\.|\[\s*\\?["'`])(?P<key>[A-Za-z_]\w*)""",
             needs=("hookSpecificOutput",))
LABEL = lazy(r"""(?:(?P<q>\\?["'`]?)(?P<key>[A-Za-z_]\w*)(?P=q)\s*:\s*"""
                   r"""|(?:\[\s*\\?["'`](?P<sub>[A-Za-z_]\w*)\\?["'`]\s*\]|\.(?P<attr>[A-Za-z_]\w*))\s*\|?=\s*"""
                   r"""|(?<![\w.$])(?P<var>[A-Za-z_]\w*)\s*(?::\s*[\w<>\[\], |.]+)?\s*=\s*)$""", needs=(":", "="))
HSO_VARIABLE = lazy(r"""hookSpecificOutput\\?["'`]?\s*[:=]\s*(?P<var>[A-Za-z_]\w*)\s*[,}\n;)]""",
                    needs=("hookSpecificOutput",))
EVENT_NAME = lazy(r"""hookEventName\\?["'`]?\s*\]?\s*[:=]\s*\\?["'`](?P<name>[A-Za-z]+)\\?["'`]""",
                  needs=("hookEventName",))
CALLED = lazy(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(", needs=("(",))
# hookEventName's value given by a name (`"hookEventName": HOOK_EVENT`), and a name set once to a literal
EVENT_NAME_BY_NAME = lazy(r"""hookEventName\\?["'`]?\s*\]?\s*[:=]\s*(?P<var>[A-Za-z_$][\w$]*)\s*(?=[,}\n;)])""",
                          needs=("hookEventName",))
CONSTANT = lazy(r"""^[ \t]*(?:export[ \t]+)?(?:(?:const|let|var)[ \t]+)?(?P<name>[A-Za-z_$][\w$]*)[ \t]*"""
                r"""(?::[ \t]*[\w.\[\]]+[ \t]*)?=[ \t]*["'`](?P<value>[A-Za-z]+)["'`][ \t]*;?[ \t]*$""", re.M)
# hookEventName's value read from the input's `hookEventName`, a field it does not have (the input's is
# hook_event_name): undefined or None, with no fallback after it (`?? "PreToolUse"`, `.get(..., "Stop")`)
EVENT_NAME_FROM_INPUT = lazy(r"""hookEventName\\?["'`]?\s*[:=]\s*[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*"""
                             r"""(?P<read>\??\.hookEventName\b|\[\s*["']hookEventName["']\s*\]|"""
                             r"""\.get\(\s*["']hookEventName["']\s*\))(?!\s*(?:\?\?|\|\||\bor\b))""",
                             needs=("hookEventName",))
DEFER = lazy(r"""permissionDecision\\?["'`]?\s*\]?\s*[:=]\s*\\?["'`]defer\\?["'`]""", needs=("defer",))
DENY_VALUE = lazy(r"""\\?["'`]deny\\?["'`]""", needs=("deny",))  # a permissionDecision (or behavior) of "deny"
BLOCK_DECISION = lazy(r"""(?<![\w.])decision\\?["'`]?\s*\]?\s*[:=]\s*\\?["'`]block\\?["'`]""", needs=("block",))
LEGACY_READ = lazy(rf"(?<![\w])({LEGACY_INPUT_VARIABLE})(?![\w])", needs=("CLAUDE_",))
# the names without the prefix, where a script reads them from its environment by name (a script
# may well set a FILE_PATH of its own: its `$FILE_PATH` alone says nothing)
GENERIC_ENV_READ = lazy(rf"""(?:os\.environ(?:\.get)?\s*[\[(]\s*|os\.getenv\(\s*|process\.env\.|process\.env\[\s*|"""
                        rf"""Deno\.env\.get\(\s*|Bun\.env\.)["'`]?({GENERIC_INPUT_VARIABLE}|HOOK_(?:INPUT|PAYLOAD))(?![\w])""",
                        needs=("environ", "getenv", ".env"))
EXIT_TWO = {
    "shell": lazy(r"\bexit\s+2\b", needs=("exit",)),
    "python": lazy(r"\b(?:sys\.exit|exit|os\._exit|quit)\(\s*2\s*\)", needs=("exit", "quit")),
    "javascript": lazy(r"\b(?:process\.exit|Deno\.exit)\(\s*2\s*\)|process\.exitCode\s*=\s*2\b", needs=("exit",)),
    "perl": lazy(r"(?<![\w$>-])exit\s*\(?\s*2\b", needs=("exit",)),
}
# a Perl script that hands its work to another program: its status and output are that program's too
PERL_DELEGATE = lazy(r"""(?<![\w$>-])(?:system|exec)\b|`|\bqx\s*[^\w\s]|\bopen\s*\([^)]*["']-?\|-?["']""",
                     needs=("system", "exec", "`", "qx", "open"))
SH_DELEGATE = lazy(
    r"""(?:^|&&|\|\||;)[ \t]*(?:if\s+!?\s*|then\s+|else\s+|do\s+)?(?:exec[ \t]+(?![<>&\d])(?P<exec>\S+)"""
    r"""|(?:[A-Za-z_]\w*=\S*[ \t]+)*(?P<run>python3?|node|npx|bunx?|deno|uvx?|ruby|perl|php|tsx|ts-node)\b"""
    r"""|(?:source[ \t]|\. |\.\t)[ \t]*(?P<source>\S+))""", re.M,  # (". " and ".\t" spelt out: a text without them compiles none)
    needs=("exec", "python", "node", "npx", "bun", "deno", "uv", "ruby", "perl", "php", "tsx", "source", ". ", ".\t"))
SH_PIPE_DELEGATE = lazy(r"""\|\s*(?P<run>python3?|node|npx|bunx?|deno|uvx?|ruby|perl|php|tsx)\s""", needs=("|",))
PY_DELEGATE = lazy(r"""\bos\.(?:exec\w*|system)\s*\(|\bsubprocess\.(?:run|call|check_call|Popen)\s*\(""",
                   needs=("os.", "subprocess."))
JS_DELEGATE = lazy(r"""stdio\s*:\s*['"]inherit['"]|\.pipe\(\s*process\.stdout\s*\)""", needs=("stdio", ".pipe("))


class Site:
    """A place in the script: what is there, its 1-based line and column."""

    def __init__(self, what: str, line: int, column: int) -> None:
        self.what = what
        self.line = line
        self.column = column


class ScriptFacts:
    # what it prints, exits and reads, in order: worked out on the first read (analyse_text), as
    # the rewrite and refusal facts of a command line (handler_facts) never read it
    flow: script_flow.ReadLater[script_flow.Flow] = script_flow.ReadLater()
    # where its output may come from another program: a command line's, on the first read (analyse_text)
    delegates: script_flow.ReadLater[Site | None] = script_flow.ReadLater()

    def __init__(self, path: Path, language: str, readable: bool = True, why_not: str | None = None,
                 ignored: tuple[Site, ...] = (), top_level_updated_input: tuple[Site, ...] = (),
                 top_level_fields: tuple[Site, ...] = (),
                 defer: tuple[Site, ...] = (), no_event_name: tuple[Site, ...] = (),
                 event_names: tuple[Site, ...] = (), mixed_shapes: tuple[Site, ...] = (),
                 rewrite_sites: tuple[tuple[str, tuple[Site, ...]], ...] = (), blocks: tuple[Site, ...] = (),
                 permission_decisions: tuple[Site, ...] = (), denies: tuple[Site, ...] = (),
                 answers: tuple[str, ...] = (), reads_event_name: bool = False,
                 legacy_variables: tuple[Site, ...] = (), reads_stop_hook_active: bool = False,
                 delegates: Site | None | script_flow.Later[Site | None] = None, output_keys: tuple[Site, ...] = (),
                 specific_keys: tuple[Site, ...] = (), tells_hosts_apart: bool = False,
                 flow: script_flow.Flow | script_flow.Later[script_flow.Flow] = script_flow.Flow(), handed_to: tuple[str, ...] = (),
                 runs_scripts: str | None = None, modules: tuple[Path, ...] = (), misspelt: tuple[Site, ...] = (),
                 never_true: tuple[Site, ...] = (), compared: tuple[Site, ...] = (),
                 answer_functions: frozenset[str] = frozenset(), called: frozenset[str] = frozenset()) -> None:
        self.path = path
        self.language = language  # python | javascript | shell | unknown
        self.readable = readable
        self.why_not = why_not  # why it was not analysed (too big, binary, unreadable)
        self.ignored = ignored  # fields Claude Code ignores (what = the field name)
        self.top_level_updated_input = top_level_updated_input
        self.top_level_fields = top_level_fields  # TOP_LEVEL_IGNORED fields outside hookSpecificOutput
        self.defer = defer
        self.no_event_name = no_event_name  # hookSpecificOutput objects without hookEventName
        # the hookEventName values it writes (what = the name), when every one it writes is a literal
        self.event_names = event_names
        self.mixed_shapes = mixed_shapes  # objects with Claude Code and Cursor keys at once
        self.rewrite_sites = rewrite_sites  # (host, sites)
        self.blocks = blocks  # decision "block" or exit 2
        self.permission_decisions = permission_decisions  # where it writes permissionDecision
        self.denies = denies  # a "deny" it may answer with (beside permissionDecision or behavior)
        self.answers = answers  # the decision keys it writes: permissionDecision, behavior, decision
        self.reads_event_name = reads_event_name  # it looks at hook_event_name (so it may answer each event its own way)
        self.legacy_variables = legacy_variables  # hook input it reads from variables Claude Code never sets
        self.reads_stop_hook_active = reads_stop_hook_active
        self.delegates = delegates  # output may come from another program or module (what = which)
        self.output_keys = output_keys  # the first place each output key is written
        self.specific_keys = specific_keys  # the first place each key is written right inside a hookSpecificOutput
        self.tells_hosts_apart = tells_hosts_apart  # it looks at which host runs it (CURSOR_*, cursor_version...)
        self.flow = flow
        # a shell script's commands that its output may come from (`exec python3 "$DIR/x.py"`), its
        # own folder written in for `$(dirname "$0")` and the variables that hold it
        self.handed_to = handed_to
        # keys right inside a hookSpecificOutput spelt otherwise than the field they fold to (what = the key)
        self.misspelt = misspelt
        self.never_true = never_true  # tests that can never be true (what = kind: the text; scripts/conditions.py)
        self.compared = compared  # literals a field of the call is compared with (what = field: the literal)
        self.modules = modules  # the modules of its own it imports (a file beside it), which may build its answer
        self.answer_functions = answer_functions  # its functions that write a hookEventName or call one that does
        self.called = called  # the names it calls (`deny(`, `lib.deny(`): a module's answer is its where it calls one
        # a shell script that runs other programs: its code, its own folder written in, for where
        # the status of the scripts it runs goes (checks/delivery.py)
        self.runs_scripts = runs_scripts

    def exits_2(self) -> bool:
        """It can end with status 2: an `exit 2`, or a `return 2` from the main() its status is
        (the flow model's exits: `sys.exit(main())`, `process.exit(main())`)."""
        return any(s.what == "exit 2" for s in self.blocks) or any(e.status == 2 for e in self.flow.exits)

    def rewrites(self, host: str = "claude") -> tuple[str, str]:
        """("yes" | "no" | "unknown", why)."""
        if not self.readable:
            return "unknown", f"the script could not be analysed ({self.why_not})"
        sites = dict(self.rewrite_sites).get(hosts.get(host).answers_as, ())
        if sites:
            return "yes", f"it writes {hosts.get(host).rewrite_field} (line {sites[0].line})"
        if self.delegates is not None:
            return "unknown", f"its output may come from {self.delegates.what} (line {self.delegates.line})"
        return "no", "it never writes " + hosts.get(host).rewrite_field.rsplit(".", 1)[-1]

    def to_json(self) -> dict[str, Any]:
        def sites(items: tuple[Site, ...]) -> list[dict[str, Any]]:
            return [{"what": s.what, "line": s.line, "column": s.column} for s in items]

        return {"path": str(self.path), "language": self.language, "readable": self.readable,
                "why_not": self.why_not, "ignored_fields": sites(self.ignored),
                "top_level_updated_input": sites(self.top_level_updated_input), "defer": sites(self.defer),
                "hook_specific_output_without_event_name": sites(self.no_event_name),
                "mixed_shapes": sites(self.mixed_shapes), "blocks": sites(self.blocks),
                "reads_stop_hook_active": self.reads_stop_hook_active,
                "rewrites": {host: self.rewrites(host)[0] for host in REWRITE_SHAPES}}


def analyse(path: Path) -> ScriptFacts:
    """The facts of the script at `path` (cached while its size and mtime stay the same)."""
    stat = disk.stat(path)
    if stat is None:
        return ScriptFacts(path, "unknown", readable=False, why_not="cannot be read")
    return _analyse(path, stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=4096)
def _analyse(path: Path, size: int, mtime: int) -> ScriptFacts:
    if not os.path.isfile(path):
        return ScriptFacts(path, "unknown", readable=False, why_not="not a regular file")
    if size > MAX_BYTES:
        return ScriptFacts(path, "unknown", readable=False, why_not=f"larger than {MAX_BYTES // 1024} KiB")
    try:
        raw = safe_read.read(path, safe_read.SCRIPT)
    except (OSError, HookwrightError) as err:
        return ScriptFacts(path, "unknown", readable=False, why_not=_why_not_read(err))
    if b"\x00" in raw[:8192]:
        return ScriptFacts(path, "unknown", readable=False, why_not="a binary file")
    text = raw.decode("utf-8", "replace")
    language = detect_language(path, text)
    return analyse_text(text, language, path)


def _why_not_read(err: OSError | HookwrightError) -> str:
    """What kept the script from being read, as a fact says it ("a FIFO (named pipe), not a regular file")."""
    if isinstance(err, HookwrightError):
        return err.message.removeprefix("cannot be read: ")
    return err.strerror or "cannot be read"


JS_SHEBANG = lazy(r"\b(node|nodejs|deno|bun|tsx|ts-node)\b")
SH_SHEBANG = lazy(r"\b(sh|bash|zsh|dash|ksh)\b")


def detect_language(path: Path, text: str) -> str:
    name = path.name.lower()
    if name.endswith(PY_SUFFIXES):
        return "python"
    if name.endswith(JS_SUFFIXES):
        return "javascript"
    if name.endswith(SH_SUFFIXES):
        return "shell"
    if name.endswith(PERL_SUFFIXES):
        return "perl"
    first = text.split("\n", 1)[0]
    if first.startswith("#!"):
        if "python" in first or "pypy" in first:
            return "python"
        if "perl" in first:
            return "perl"
        if JS_SHEBANG.search(first):
            return "javascript"
        if SH_SHEBANG.search(first):
            return "shell"
        return "unknown"
    return "shell"  # a file without a shebang is run by sh


# ---- the analysis ------------------------------------------------------------------------------

class _Object:
    def __init__(self, start: int, label: str | None, parent: int | None, keys: list[tuple[str, int]] | None = None,
                 end: int | None = None) -> None:
        self.start = start  # offset of "{"
        self.label = label  # the key this object is the value of ("hookSpecificOutput"), if written so
        self.parent = parent  # index of the enclosing object
        self.keys = [] if keys is None else keys  # direct keys: (name, offset)
        self.end = end


INLINE = Path("<command>")  # the path of the code a command runs written in the config itself


@lru_cache(maxsize=4096)
def command_facts(command: str) -> ScriptFacts:
    """Shell code written in a config (a command line, or the script its `bash -c` runs), read
    once however many checks ask: the rewrite and refusal facts, the inline command rules and
    the tool-field rule all read this one analysis (three analyses of each command were 40% of
    the corpus tree's script time). Keyed on the text: nothing else goes into it."""
    return analyse_text(command, "shell", INLINE)


def analyse_text(text: str, language: str, path: Path = Path("<text>")) -> ScriptFacts:
    if language == "unknown":
        return ScriptFacts(path, language, readable=False, why_not="not a Python, JavaScript or shell script")
    code = strip_comments(text, language)
    where = LineIndex(text)
    objects, owner_of = _objects(code)
    key_re = QUOTED_KEY if language == "python" else KEY
    keys: list[tuple[str, int, int | None]] = []  # (name, offset, innermost object index)
    for match in key_re.finditer(code):
        name, offset = match.group("key"), match.start()
        index = owner_of(offset)
        keys.append((name, offset, index))
        if index is not None:
            objects[index].keys.append((name, offset))
    assigned = {m.start("sub") if m.group("sub") else m.start("attr"): m.group("sub") or m.group("attr")
                for m in ASSIGNED.finditer(code)}
    chain_children = {m.start("key"): m.group("key") for m in CHAIN.finditer(code)}
    mentions_hso = "hookSpecificOutput" in code
    hso_variables = {"=" + m.group("var") for m in HSO_VARIABLE.finditer(code)}
    mentions_event_name = "hookEventName" in code

    def site(what: str, offset: int) -> Site:
        line, column = where.at(offset)
        return Site(what, line, column)

    def under_hso(index: int | None) -> bool:
        while index is not None:
            if objects[index].label == "hookSpecificOutput" or objects[index].label in hso_variables:
                return True
            index = objects[index].parent
        return False

    emitted: dict[str, list[tuple[int, int | None, bool]]] = {}  # name -> (offset, object, under hSO by chain)
    for name, offset, index in keys:
        emitted.setdefault(name, []).append((offset, index, False))
    for offset, name in chain_children.items():
        emitted.setdefault(name, []).append((offset, None, True))
    for offset, name in assigned.items():
        if offset not in chain_children:
            emitted.setdefault(name, []).append((offset, None, False))

    # the keys written right inside a hookSpecificOutput object (or after `hookSpecificOutput.`), first place each
    specific: dict[str, int] = {}
    for offset, name in chain_children.items():
        specific[name] = min(offset, specific.get(name, offset))
    for obj in objects:
        if obj.label == "hookSpecificOutput" or obj.label in hso_variables:
            for name, offset in obj.keys:
                if _opens_a_member(code, offset) and not _in_string(code, obj.start, offset):
                    specific[name] = min(offset, specific.get(name, offset))

    ignored = [site(name, off) for name in IGNORED_FIELDS for off, _, _ in emitted.get(name, ())]

    top_level: list[Site] = []
    rewrites_claude: list[Site] = []
    for offset, index, via_chain in emitted.get("updatedInput", ()):
        nested = via_chain or under_hso(index)
        siblings = {k for k, _ in objects[index].keys} if index is not None else set()
        top = not nested and (not mentions_hso or (
            bool(siblings & TOP_LEVEL_ONLY) and not siblings & {"hookEventName", "permissionDecision", "behavior"}))
        (top_level if top else rewrites_claude).append(site("updatedInput", offset))
    rewrites_cursor = [site("updated_input", off) for off, _, _ in emitted.get("updated_input", ())]
    # a hookSpecificOutput field from code that never writes hookSpecificOutput: at the top level, ignored
    top_fields = [] if mentions_hso else [site(name, off) for name in TOP_LEVEL_IGNORED
                                             for off, index, via_chain in emitted.get(name, ()) if not via_chain]

    misspelt = {name: offset for name, offset in specific.items()
                if SPECIFIC_BY_FOLD.get(fold(name), name) != name}
    no_event = []
    for obj in objects:
        names = {k for k, _ in obj.keys}
        direct = obj.label == "hookSpecificOutput"
        via_variable = obj.label in hso_variables and not mentions_event_name
        if (direct or via_variable) and names & (HSO_FIELDS | misspelt.keys()) and "hookEventName" not in names:
            body = code[obj.start:obj.end or len(code)]
            if "..." not in body and "**" not in body:  # (the misspelt name, where it is one, is the place)
                named = [(offset, name) for name, offset in obj.keys if fold(name) == "hookeventname"]
                no_event.append(site(min(named)[1], min(named)[0]) if named else site("hookSpecificOutput", obj.start))

    if "hook_event_name" not in code.replace("hookEventName", ""):  # (a script that maps the one to the other)
        no_event += [site("input.hookEventName", m.start()) for m in EVENT_NAME_FROM_INPUT.finditer(code)]
    literal_names = [site(m.group("name"), m.start()) for m in EVENT_NAME.finditer(code)]
    literal_names += _event_names_by_name(code, site)
    all_literal = len(literal_names) >= len(emitted.get("hookEventName", ())) and code.count("hookEventName") == len(
        literal_names)

    mixed = []
    for obj in objects:
        names = {k for k, _ in obj.keys}
        claude, cursor = names & CLAUDE_SHAPE, names & CURSOR_SHAPE
        if obj.label == "hookSpecificOutput":
            claude = claude | {"hookSpecificOutput"}
        if claude and cursor:
            mixed.append(site(f"{', '.join(sorted(claude))} with {', '.join(sorted(cursor))}", obj.start))

    blocks = [site("decision: block", m.start()) for m in BLOCK_DECISION.finditer(code)]
    exit_two = EXIT_TWO.get(language)
    if exit_two:
        blocks += [site("exit 2", m.start()) for m in exit_two.finditer(code)]

    own_output = bool(keys) and _has_output_keys(emitted)
    # a command line's delegates are worked out when a rule first reads them: the few that do ask
    # their own premise first, and the shell's pattern compiled and scanned each command line (doctor
    # on one typical file 339.3 M -> 336.3 M instructions, the tree 4,372.5 M -> 4,364.2 M)
    script_file = path.name != "<text>" and path != INLINE
    delegates = _delegates(code, language, path, where, own_output) if script_file else \
        script_flow.Later(lambda: _delegates(code, language, path, where, own_output))
    modules, answer_functions = _own_modules(code, language, path, mentions_event_name)
    # what a shell script file hands its output to, and runs of its own folder: read of a script file only
    # (handler_facts, checks/delivery.py); a command line's took the corpus tree 4,446.1 M -> 4,427.9 M
    # instructions (valgrind, fixed hash seed)
    shell_file_delegating = script_file and language == "shell" and delegates is not None
    return ScriptFacts(
        path, language,
        ignored=tuple(_unique(ignored)),
        top_level_updated_input=tuple(_unique(top_level)),
        top_level_fields=tuple(_unique(top_fields)),
        defer=tuple(_unique(site("defer", m.start()) for m in DEFER.finditer(code))),
        no_event_name=tuple(_unique(no_event)),
        event_names=tuple(_unique(literal_names)) if all_literal else (),
        mixed_shapes=tuple(_unique(mixed)),
        rewrite_sites=(("claude", tuple(_unique(rewrites_claude))), ("cursor", tuple(_unique(rewrites_cursor)))),
        blocks=tuple(_unique(blocks)),
        permission_decisions=tuple(_unique(site("permissionDecision", off) for off, _, _ in
                                           emitted.get("permissionDecision", ()))),
        denies=tuple(_unique(site("deny", m.start()) for m in DENY_VALUE.finditer(code)))
        if "permissionDecision" in emitted or "behavior" in emitted else (),
        answers=tuple(key for key in ("permissionDecision", "behavior", "decision") if key in emitted),
        reads_stop_hook_active="stop_hook_active" in code,
        reads_event_name="hook_event_name" in code,
        legacy_variables=tuple(_legacy_variables(code, site)),
        delegates=delegates,
        handed_to=_handed_to(code, path, own_output) if shell_file_delegating else (),
        runs_scripts=with_own_folder(code, path) if shell_file_delegating else None,
        tells_hosts_apart=bool(TELLS_HOSTS_APART.search(code)),
        output_keys=tuple(_unique(site(name, min(off for off, _, _ in places)) for name, places in emitted.items())),
        specific_keys=tuple(_unique(site(name, offset) for name, offset in specific.items())),
        flow=script_flow.Later(lambda: script_flow.analyse(text, code, language, where.at,
                                                       path if path.name != "<text>" else None)),
        modules=modules,
        answer_functions=answer_functions,
        # (read of a script that imports a module of its own only, script_files._answered_for: a shell
        # script or a command line imports none, and each was scanned for its calls, and compiled
        # the pattern: doctor on a typical file 370.7 M -> 370.2 M instructions, the tree 4,571.8 M
        # -> 4,550.3 M)
        called=frozenset(CALLED.findall(code)) if modules else frozenset(),
        never_true=tuple(_unique(site(f"{t.kind}:{t.text}", t.offset) for t in conditions.never_true(code, language))),
        compared=tuple(_unique(site(f"{c.field}:{c.text}", c.offset) for c in conditions.compared_values(code, language))),
        misspelt=tuple(_unique(site(name, offset) for name, offset in misspelt.items()
                               if fold(name) != "hookeventname")),  # (that one: no_event_name)
    )


def _event_names_by_name(code: str, site: Callable[[str, int], Site]) -> list[Site]:
    """hookEventName given by a name the file sets once, to a literal (`HOOK_EVENT = "PostToolUse"`):
    the event name, at the line that sets it (where it is changed)."""
    out = []
    for match in EVENT_NAME_BY_NAME.finditer(code):
        name = match.group("var")
        if name in ("true", "false", "null", "None", "undefined"):
            continue
        sets = [m for m in CONSTANT.finditer(code) if m.group("name") == name]
        if len(sets) == 1 and len(re.findall(rf"(?<![\w$.]){re.escape(name)}\s*(?::[^=\n]*)?=(?!=)", code)) == 1:
            out.append(site(sets[0].group("value"), sets[0].start("value") - 1))
    return out


def fold(name: str) -> str:
    """A key's name as a misspelling of it reads: lower case, without `_`."""
    return name.lower().replace("_", "")


def _legacy_variables(code: str, site: Callable[[str, int], Site]) -> list[Site]:
    """The first read of each legacy input variable the script does not set itself (NAME=...,
    os.environ["NAME"] = ..., process.env.NAME = ...)."""
    found = {}
    for match in [*LEGACY_READ.finditer(code), *GENERIC_ENV_READ.finditer(code)]:
        name = match.group(1)
        if name not in found and not re.search(rf"(?<![\w$]){name}['\"\]]*\s*=(?!=)", code):
            found[name] = site(name, match.start(1))
    return list(found.values())


def _has_output_keys(emitted: Collection[str]) -> bool:
    """It writes any of the keys of an answer (`emitted`: the keys it writes)."""
    return any(name in emitted for name in ("hookSpecificOutput", "permissionDecision", "decision", "updatedInput",
                                            "updated_input", "permission", "continue", "systemMessage"))


def _opens_a_member(code: str, offset: int) -> bool:
    """Whether a key found at `offset` comes right after `{` or `,` (else it is a word and a
    colon in a string's text: `"additionalContext": "Reminder: ..."`)."""
    at = offset - 1
    while at >= 0 and code[at] in " \t\r\n":
        at -= 1
    return at >= 0 and code[at] in "{,"


def _in_string(code: str, start: int, offset: int) -> bool:
    """Whether `offset` lies inside a string literal that opens after `start` (an object's `{`):
    `"Today, branch: main"` holds no key `branch`. Quotes escaped once (`\\"`, as in a shell
    string of JSON) count as quotes."""
    quote = None
    at = start
    while at < offset:
        c = code[at]
        if c == "\\" and at + 1 < offset and code[at + 1] in "\"'`":
            c = code[at + 1]
            at += 1
            if quote is None or c == quote:  # \" around a key of JSON in a shell string
                quote = None if quote == c else c
            at += 1
            continue
        if quote is None and c in "\"'`":
            quote = c
        elif c == quote:
            quote = None
        at += 1
    return quote is not None


def _unique(sites: Iterable[Site]) -> list[Site]:
    seen, out = set(), []
    for s in sorted(sites, key=lambda s: (s.line, s.column, s.what)):
        if (s.line, s.column, s.what) not in seen:
            seen.add((s.line, s.column, s.what))
            out.append(s)
    return out


PY_CAPTURED = lazy(r"capture_output|stdout\s*=")  # a subprocess whose output the script takes


def _own_modules(code: str, language: str, path: Path, mentions_event_name: bool) -> tuple[tuple[Path, ...], frozenset[str]]:
    """The files of its own a script imports, and (where it names hookEventName) its functions that
    write an answer: what a script importing it must call (imports.py). Only Python and JavaScript
    are followed, so imports.py is loaded for a script in one of them only, as their flow readers
    are (a run with shell hooks alone: 0.6 M instructions of doctor on one typical file); a
    command's text imports none."""
    if language not in ("python", "javascript"):
        return (), frozenset()
    from . import imports

    modules = imports.local_modules(code, language, path) if path.name != "<text>" else ()
    return modules, imports.answer_functions(code, language) if mentions_event_name else frozenset()


def _delegates(code: str, language: str, path: Path, where: LineIndex, own_output: bool) -> Site | None:
    """Where the script hands its output over to another program or module, if it may."""

    def at(what: str, offset: int) -> Site:
        line, column = where.at(offset)
        return Site(what, line, column)

    if language == "shell":
        for match in SH_DELEGATE.finditer(code):
            if match.group("exec"):
                return at(f"`exec {match.group('exec')}`", match.start("exec"))
            if match.group("source") and not own_output:
                return at(f"the sourced file {match.group('source')}", match.start("source"))
            if match.group("run") and not own_output:
                return at(f"`{match.group('run')}`", match.start("run"))
        if not own_output:
            match = SH_PIPE_DELEGATE.search(code)
            if match:
                return at(f"`{match.group('run')}`", match.start("run"))
        return None
    if language == "python":
        for match in PY_DELEGATE.finditer(code):
            call = code[match.start():match.start() + 400]
            if match.group(0).startswith("os.") or not PY_CAPTURED.search(call):
                return at(f"`{match.group(0).rstrip('( ')}`", match.start())
        if not own_output:
            from .imports import PY_IMPORT  # (Python and JavaScript only: see _own_modules)

            for match in PY_IMPORT.finditer(code):
                module = (match.group("from") or match.group("imp")).lstrip(".").split(",")[0].split(".")[0].strip()
                if module and ((path.parent / f"{module}.py").exists() or (path.parent / module).is_dir()):
                    return at(f"the module {module}", match.start())
        return None
    if language == "perl":
        match = PERL_DELEGATE.search(code)
        return at(f"`{match.group(0).strip()}`", match.start()) if match else None
    if language == "javascript":
        match = JS_DELEGATE.search(code)
        if match:
            return at(f"`{match.group(0)}`", match.start())
        if not own_output:
            from .imports import JS_IMPORT  # (Python and JavaScript only: see _own_modules)

            match = JS_IMPORT.search(code)
            if match:
                return at(f"the module {match.group('mod')}", match.start("mod"))
    return None


# the script's own folder: $(dirname "$0"), $(dirname -- "${BASH_SOURCE[0]}"), then `/..` to go up
OWN_FOLDER = lazy(r"""\$\(\s*dirname\s+(?:--\s+)?["']?(?:\$0|\$\{0\}|\$\{BASH_SOURCE(?:\[0\])?\}|\$BASH_SOURCE)["']?\s*\)"""
                  r"""(?P<up>(?:/\.\.)*)""", needs=("dirname",))
CD_PWD = lazy(r"""\$\(\s*cd\s+(?:--\s+)?["']?(?P<path>/[^"'$`;&|()\s]*)["']?\s*(?:[&\d]?>\s*/dev/null\s*)?&&\s*pwd(?:\s+-P)?\s*\)""",
            needs=("pwd",))
FOLDER_VARIABLE = lazy(r"""^[ \t]*(?:export\s+|readonly\s+|local\s+)?(?P<name>[A-Za-z_]\w*)=["']?(?P<path>/[^"'$`;&|()\s]*)["']?[ \t]*$""",
                       re.M, needs=("=",))
STATEMENT_ENDS = ("&&", "||", ";", "\n")
CD_LINE = lazy(r"""^[ \t]*cd[ \t]+(?:--[ \t]+)?["']?(?P<path>[^"'\s;&|]*)["']?[ \t]*(?:$|;|&&)""", re.M, needs=("cd",))
OUTPUT_ELSEWHERE = lazy(r"""(?<![<>&\d])(?:1?>(?!&2)|&>)|\|""",
                        needs=(">", "|"))  # its stdout sent to a file, or piped on


def with_own_folder(code: str, path: Path) -> str | None:
    """A shell script's code with its own folder written in where `$(dirname "$0")`, `$(cd
    "$(dirname "$0")" && pwd)` or a variable set to one of them names it (None: a folder whose
    name the shell would read as more than a path)."""
    folder = str(path.parent)
    if not folder or not all(c.isalnum() or c in "_./+-" for c in folder):  # (written into a command as it is)
        return None
    code = OWN_FOLDER.sub(lambda m: os.path.normpath(folder + m.group("up")), code)
    code = CD_PWD.sub(lambda m: m.group("path"), code)
    for match in FOLDER_VARIABLE.finditer(code):
        written = match.group("path").replace("\\", "\\\\")  # (as re.sub's replacement)
        code = re.sub(rf"\$(?:{match.group('name')}\b|\{{{match.group('name')}\}})", written, code)
    return code


def _statement_end(code: str, start: int) -> int:
    """Where the statement at `start` ends: its `&&`, `||`, `;`, newline or the code's end (plain
    finds: the regex's compile was 0.4 M instructions of doctor on a typical file)."""
    return min((at for at in (code.find(end, start) for end in STATEMENT_ENDS) if at >= 0), default=len(code))


def _handed_to(code: str, path: Path, own_output: bool) -> tuple[str, ...]:
    """The commands a shell script hands its output to (_delegates' statements), with its own
    folder written in (with_own_folder); none where one sends its output elsewhere (a file, a pipe)."""
    written = with_own_folder(code, path)
    if written is None:
        return ()
    code = written
    commands = []
    for match in SH_DELEGATE.finditer(code):
        if (match.group("run") or match.group("source")) and own_output:
            continue
        start = match.start("source") if match.group("source") else match.start("exec") if match.group("exec") \
            else match.start("run")
        command = ("source " if match.group("source") else "") + code[start:_statement_end(code, start)].strip()
        moves = list(CD_LINE.finditer(code, 0, start))  # (the last `cd` before it is where it runs)
        if OUTPUT_ELSEWHERE.search(command) or (moves and not moves[-1].group("path").startswith("/")):
            return ()
        commands.append(f"cd {moves[-1].group('path')} && {command}" if moves else command)
    return tuple(commands)


def _braces(code: str) -> Iterator[int]:
    """Where each `{` and `}` is, in order: found by str.find, not by a Python loop over every character."""
    opening, closing = code.find("{"), code.find("}")
    while opening >= 0 or closing >= 0:
        if closing < 0 or 0 <= opening < closing:
            yield opening
            opening = code.find("{", opening + 1)
        else:
            yield closing
            closing = code.find("}", closing + 1)


def _objects(code: str) -> tuple[list[_Object], Callable[[int], int | None]]:
    """Every `{...}` with the key it is the value of; and a function giving the innermost
    object that contains an offset."""
    objects: list[_Object] = []
    stack: list[int] = []
    for i in _braces(code):
        if code[i] == "{":
            before = code[max(0, i - 120):i]
            match = LABEL.search(before)
            if match is None:
                label = None
            elif match.group("var"):
                label = "=" + match.group("var")  # a variable holding the object
            else:
                label = match.group("key") or match.group("sub") or match.group("attr")
            objects.append(_Object(i, label, stack[-1] if stack else None))
            stack.append(len(objects) - 1)
        elif stack:  # (a `}`)
            objects[stack.pop()].end = i
    starts = [o.start for o in objects]

    def owner_of(offset: int) -> int | None:
        index = bisect.bisect_left(starts, offset) - 1
        while index >= 0:
            obj = objects[index]
            if obj.end is None or obj.end > offset:
                return index
            index = obj.parent if obj.parent is not None else -1
        return None

    return objects, owner_of


# ---- comments out, offsets kept ------------------------------------------------------------------

@lru_cache(maxsize=8)
def strip_comments(text: str, language: str) -> str:
    """The text with comments (and Python docstrings) replaced by spaces; newlines and every
    other character stay where they were, so offsets still give the line and column. Kept for
    the last few texts (keyed on the text itself): analyse_text and two script checks ask it of
    the same script, and tokenizing a 440 KB Python script took a fifth of doctor's run there."""
    if language == "python":
        return _strip_python(text)
    if language == "javascript":
        return _strip_js(text)
    if language == "perl":
        return _strip_hash_lines(text)  # (a `#` inside a line may be a regex's delimiter or `$#list`)
    return _strip_shell(text)


def _blank(chars: list[str], start: int, end: int) -> None:
    for k in range(start, min(end, len(chars))):
        if chars[k] != "\n":
            chars[k] = " "


def _strip_python(text: str) -> str:
    chars = list(text)
    starts = LineIndex(text).starts

    def offset(row: int, col: int) -> int:
        return starts[row - 1] + col if row - 1 < len(starts) else len(text)

    try:
        previous = tokenize.NEWLINE
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                _blank(chars, offset(*token.start), offset(*token.end))
            elif token.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                                                                tokenize.NL, tokenize.ENCODING):
                _blank(chars, offset(*token.start), offset(*token.end))  # a docstring or bare string
            if token.type not in (tokenize.COMMENT, tokenize.NL):
                previous = token.type
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return _strip_hash_lines(text)
    return "".join(chars)


HASH_LINE = lazy(r"(?m)^[ \t]*#[^\n]*")


def _strip_hash_lines(text: str) -> str:
    blanked: str = HASH_LINE.sub(lambda m: " " * len(m.group(0)), text)
    return blanked


def _strip_js(text: str) -> str:
    chars = list(text)
    i, n = 0, len(text)
    last = ""  # last significant character outside strings and comments
    while i < n:
        ch = text[i]
        if ch == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            _blank(chars, i, end)
            i = end
        elif ch == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            _blank(chars, i, end)
            i = end
        elif ch == "#" and i == 0 and text.startswith("#!"):
            end = text.find("\n")
            i = n if end < 0 else end
        elif ch in "'\"":
            i = _skip_string(text, i, ch, multiline=False)
            last = ch
        elif ch == "`":
            i = _skip_string(text, i, ch, multiline=True)
            last = ch
        elif ch == "/" and (last == "" or last in "(,=:[!&|?{};+-*%<>~^" ):
            j = i + 1
            in_class = False
            while j < n and text[j] != "\n":
                c = text[j]
                if c == "\\":
                    j += 2
                    continue
                if c == "[":
                    in_class = True
                elif c == "]":
                    in_class = False
                elif c == "/" and not in_class:
                    break
                j += 1
            i = j + 1
            last = "/"
        else:
            if not ch.isspace():
                last = ch
            i += 1
    return "".join(chars)


def _skip_string(text: str, i: int, quote: str, multiline: bool) -> int:
    j, n = i + 1, len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if c == "\n" and not multiline:
            return j
        j += 1
    return n


HEREDOC = lazy(r"""<<-?[ \t]*(?P<q>['"]?)(?P<tag>[A-Za-z_][A-Za-z0-9_]*)(?P=q)""")


def _strip_shell(text: str) -> str:
    if "#" not in text:
        return text  # (no comment to blank)
    chars = list(text)
    i, n = 0, len(text)
    pending: list[str] = []  # here-document delimiters whose bodies start at the next line
    while i < n:
        ch = text[i]
        if ch == "\n":
            i += 1
            for tag in pending:  # a here-document body: kept as is, not scanned for quotes
                while i < n:
                    end = text.find("\n", i)
                    end = n if end < 0 else end
                    line = text[i:end]
                    i = end + 1
                    if line.strip() == tag:
                        break
            pending = []
            continue
        if ch == "\\":
            i += 2
            continue
        if ch == "'":
            end = text.find("'", i + 1)
            i = n if end < 0 else end + 1
            continue
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "#" and (i == 0 or text[i - 1] in " \t\n;&|("):
            end = text.find("\n", i)
            end = n if end < 0 else end
            _blank(chars, i, end)
            i = end
            continue
        if ch == "<" and text.startswith("<<", i) and not text.startswith("<<<", i):
            match = HEREDOC.match(text, i)
            if match:
                pending.append(match.group("tag"))
                i = match.end()
                continue
        i += 1
    return "".join(chars)
