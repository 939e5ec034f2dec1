"""hookwright git-guard: a PreToolUse hook for the Bash tool (Cursor: beforeShellExecution).

It denies git commands that destroy uncommitted work or other people's commits
(reset --hard, clean -f, force push, stash, checkout -- <path>, ...) and commands
that bypass the repository's hooks (--no-verify), with a reason the model can act on.

Each rule has a stable id: hooks-path, stash, stash-drop, reset-hard, clean-force,
push-force, checkout-discard, restore-discard, branch-force-delete, no-verify, and push
(only with the option deny_push). A user file `<config dir>/git-guard.json`
(`$XDG_CONFIG_HOME/hookwright/git-guard.json`, else `~/.config/hookwright/git-guard.json`)
overrides them with sub-table replace semantics:

    {"rules": {"<rule-id>": ["<regex>", ...]}, "reasons": {"<rule-id>": "text"}}

A rule id in "rules" replaces the built-in rule: its regexes are searched (Python `re`,
case-sensitive) in each git invocation, normalized as `git <subcommand> <args...>` (the
argv after sudo/env/... are stripped, quotes removed, git's global options dropped, every
run of whitespace one space); each `-c <setting>` given to git is also seen as its own
`git -c <setting>`. An empty list turns the rule off; a new id adds a rule (checked after
the built-in ones, in file order); an id not in the file keeps its built-in behaviour. A
"reasons" entry replaces the text the model is told for that rule. A file that is not
valid (not JSON, wrong types, a regex that does not compile, an unknown key) is ignored
as a whole, and the error log says why.

It must never get in the agent's way by accident: on any problem it prints nothing,
exits 0 and appends one line to the hookwright error log. The script the host runs is the
shared hook script (templates/runtime/hook_script.py); this module is what it loads.
Stdlib only, Python >= 3.8.
"""
import os

import hookwright_runtime as hw

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from re import Pattern

    from hookwright_runtime import Options

    Token = tuple[str, str]  # ("w", a word) or ("op", an operator)

NAME = "git-guard"
PREFIX = "hookwright git-guard: "
OPTIONS = {"deny_push": False}


def handle(call: hw.Call) -> "hw.Outcome | None":
    if call.event != "PreToolUse" or call.tool_name != "Bash":
        return None
    tool_input = call.payload.get("tool_input")
    if not isinstance(tool_input, dict):
        raise hw.PassThrough("Bash tool_input is not an object")
    command = tool_input.get("command")
    if not isinstance(command, str):
        raise hw.PassThrough("Bash tool_input.command is not a string")
    reason = check_text(command, call.options)
    return hw.deny(PREFIX + reason) if reason else None


# ---- Bash command strings: which programs will they run? -------------------------------------

MAX_DEPTH = 6  # nesting bound for bash -c, eval and $( ... )

# Longest first, so `&&` wins over `&`.
OPERATORS = ("&>>", "<<<", "<<-", "&&", "||", ";;", ";&", "|&", "&>", "<<", "<&", "<>", ">>",
             ">&", ">|", ";", "&", "|", "(", ")", "<", ">")
REDIRECTS = frozenset(("&>>", "<<<", "<<-", "&>", "<<", "<&", "<>", ">>", ">&", ">|", "<", ">"))
KEYWORDS = frozenset(("if", "then", "else", "elif", "do", "while", "until", "!", "{", "}"))
SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "fish"))
# wrapper -> (short options taking a value, long options taking a value, positionals before the command)
WRAPPERS = {
    "sudo": ("ugCDhpRrtTU", ("--user", "--group", "--chdir", "--host", "--prompt", "--role",
                             "--type", "--other-user", "--close-from", "--command-timeout"), 0),
    "doas": ("uC", (), 0),
    "env": ("uCS", ("--unset", "--chdir", "--split-string"), 0),
    "command": ("", (), 0),
    "builtin": ("", (), 0),
    "nohup": ("", (), 0),
    "time": ("fo", ("--format", "--output"), 0),
    "exec": ("a", (), 0),
    "nice": ("n", ("--adjustment",), 0),
    "timeout": ("sk", ("--signal", "--kill-after"), 1),
    "stdbuf": ("ioe", ("--input", "--output", "--error"), 0),
    "xargs": ("adEILnPs", ("--arg-file", "--delimiter", "--max-args", "--max-procs",
                           "--max-chars", "--process-slot-var"), 0),
}


class ShellSyntaxError(Exception):
    """The text is not shell this tokenizer understands."""


class _Lexer(object):
    """Split shell text into ("w", word) and ("op", operator) tokens, roughly as bash does.

    Quotes and escapes are removed from words; a newline is an operator (it ends a command).
    Bodies of $( ), `...` and <( ) are lexed too and collected in `nested`, since the shell
    runs them. Here-document bodies are skipped: they are data, not commands.
    """

    def __init__(self, text: str, start: int = 0, closing: bool = False, nested: "list[list[Token]] | None" = None,
                 level: int = 0) -> None:
        if level > MAX_DEPTH:
            raise ShellSyntaxError("substitutions nested too deeply")
        self.text, self.i, self.closing, self.level = text, start, closing, level
        self.nested = [] if nested is None else nested
        self.tokens: "list[Token]" = []
        self.word: "list[str] | None" = None  # the pieces of the word being read
        self.parens, self.done = 0, False
        self.heredocs: "list[tuple[str, bool]]" = []  # (delimiter, strip tabs) of the line being read
        self.want_delim: "bool | None" = None  # set by << (False) or <<- (True) until the delimiter word is read

    def add(self, piece: str) -> None:
        if self.word is None:
            self.word = []
        self.word.append(piece)

    def end_word(self) -> None:
        if self.word is not None:
            word, self.word = "".join(self.word), None
            if self.want_delim is not None:
                self.heredocs.append((word, self.want_delim))
                self.want_delim = None
            self.tokens.append(("w", word))

    def run(self) -> "list[Token]":
        t, n = self.text, len(self.text)
        while self.i < n and not self.done:
            c, nxt = t[self.i], t[self.i + 1:self.i + 2]
            if c in " \t\r":
                self.end_word()
                self.i += 1
            elif c == "\n":
                self.end_word()
                self.tokens.append(("op", "\n"))
                self.i += 1
                self.skip_heredocs()
            elif c == "#" and self.word is None:
                end = t.find("\n", self.i)
                self.i = n if end < 0 else end
            elif c == "\\":
                if nxt != "\n":  # backslash-newline is a line continuation
                    self.add(nxt)
                self.i += 2
            elif c == "'":
                end = t.find("'", self.i + 1)
                if end < 0:
                    raise ShellSyntaxError("unbalanced single quote")
                self.add(t[self.i + 1:end])
                self.i = end + 1
            elif c == "$" and nxt == "'":
                self.ansi_c_quoted()
            elif c == '"':
                self.double_quoted()
            elif (c == "$" or c in "<>") and nxt == "(":
                end = self.substitution(self.i + 2)
                self.add(t[self.i:end])
                self.i = end
            elif c == "`":
                end = self.backtick(self.i + 1)
                self.add(t[self.i:end])
                self.i = end
            elif c in ";&|()<>":
                self.operator()
            else:
                self.add(c)
                self.i += 1
        self.end_word()
        if self.closing and not self.done:
            raise ShellSyntaxError("unbalanced $(")
        return self.tokens

    def operator(self) -> None:
        op = next(o for o in OPERATORS if self.text.startswith(o, self.i))
        self.i += len(op)
        if op in REDIRECTS and self.word is not None and "".join(self.word).isdigit():
            self.word = None  # the 2 in `2>&1` is a file descriptor, not an argument
        self.end_word()
        if op == "(":
            self.parens += 1
        elif op == ")":
            if self.parens == 0 and self.closing:
                self.done = True
                return
            self.parens -= 1
        elif op in ("<<", "<<-"):
            self.want_delim = op == "<<-"
        self.tokens.append(("op", op))

    def double_quoted(self) -> None:
        t, i, buf = self.text, self.i + 1, []
        while True:
            if i >= len(t):
                raise ShellSyntaxError("unbalanced double quote")
            c = t[i]
            if c == '"':
                break
            if c == "\\" and t[i + 1:i + 2] in ("$", "`", '"', "\\", "\n"):
                buf.append(t[i + 1] if t[i + 1] != "\n" else "")
                i += 2
            elif c == "$" and t[i + 1:i + 2] == "(":
                end = self.substitution(i + 2)
                buf.append(t[i:end])
                i = end
            elif c == "`":
                end = self.backtick(i + 1)
                buf.append(t[i:end])
                i = end
            else:
                buf.append(c)
                i += 1
        self.add("".join(buf))
        self.i = i + 1

    def ansi_c_quoted(self) -> None:
        t, i = self.text, self.i + 2
        while i < len(t) and t[i] != "'":
            i += 2 if t[i] == "\\" else 1
        if i >= len(t):
            raise ShellSyntaxError("unbalanced $'")
        self.add(t[self.i + 2:i])
        self.i = i + 1

    def substitution(self, start: int) -> int:
        """Lex the body of $( ... ) up to its closing parenthesis; return the index after it."""
        sub = _Lexer(self.text, start, closing=True, nested=self.nested, level=self.level + 1)
        self.nested.append(sub.run())
        return sub.i

    def backtick(self, start: int) -> int:
        """Lex the body of `...`; return the index after the closing backtick."""
        t, i, body = self.text, start, []
        while i < len(t) and t[i] != "`":
            if t[i] == "\\" and t[i + 1:i + 2] in ("$", "`", "\\"):
                i += 1
            body.append(t[i:i + 1])
            i += 1
        if i >= len(t):
            raise ShellSyntaxError("unbalanced backtick")
        sub = _Lexer("".join(body), nested=self.nested, level=self.level + 1)
        self.nested.append(sub.run())
        return i + 1

    def skip_heredocs(self) -> None:
        """Skip the bodies of the here-documents started on the line that just ended."""
        t = self.text
        for delim, strip_tabs in self.heredocs:
            while self.i < len(t):
                end = t.find("\n", self.i)
                line = t[self.i:] if end < 0 else t[self.i:end]
                self.i = len(t) if end < 0 else end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delim:
                    break
        self.heredocs = []


def tokenize(text: str, level: int = 0) -> "list[list[Token]]":
    """All token lists the text runs: the text itself and every command substitution in it."""
    lexer = _Lexer(text, level=level)
    return [lexer.run()] + lexer.nested


def simple_commands(tokens: "list[Token]") -> "Iterator[list[str]]":
    """Group tokens into the argv of each simple command, dropping redirections and their targets."""
    argv: "list[str]" = []
    skip_target = False
    for kind, text in tokens:
        if kind == "w":
            if skip_target:
                skip_target = False
            else:
                argv.append(text)
        elif text in REDIRECTS:
            skip_target = True
        else:
            if argv:
                yield argv
            argv, skip_target = [], False
    if argv:
        yield argv


def program_name(word: str) -> str:
    """`/usr/bin/git` runs git too."""
    return word.rsplit("/", 1)[-1]


def is_assignment(word: str) -> bool:
    """`NAME=value` before a command only sets its environment."""
    name, eq, _ = word.partition("=")
    return bool(eq) and name.rstrip("+").isidentifier()


def _skip_options(args: "list[str]", short_value: str, long_value: "tuple[str, ...]") -> "list[str]":
    """Drop leading options (and their values) of a wrapper; return what follows them."""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            return args[i + 1:]
        if not a.startswith("-"):
            break
        i += 1
        if a.startswith("--"):
            if "=" not in a and a in long_value:
                i += 1
            continue
        for j, ch in enumerate(a[1:]):
            if ch in short_value:
                i += 1 if j == len(a) - 2 else 0  # `-u root`, not `-uroot`
                break
    return args[i:]


def unwrap(argv: "list[str]") -> "list[str]":
    """Strip what only launches the real command: assignments, sudo, env, nohup, time, ..."""
    for _ in range(32):
        while argv and (is_assignment(argv[0]) or argv[0] in KEYWORDS):
            argv = argv[1:]
        if not argv:
            return argv
        name = program_name(argv[0])
        if name not in WRAPPERS:
            return argv
        if name == "command" and any(a.startswith("-") and ("v" in a or "V" in a) for a in argv[1:2]):
            return []  # `command -v git` only looks git up
        short_value, long_value, positionals = WRAPPERS[name]
        argv = _skip_options(argv[1:], short_value, long_value)[positionals:]
    return argv


def shell_script(args: "list[str]") -> "str | None":
    """The command string of `bash -c '...'` (options may be clustered: -lc, -ec); else None."""
    has_c, i = False, 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            i += 2
        elif len(a) > 1 and a[0] in "-+":
            has_c = has_c or (a[0] == "-" and not a.startswith("--") and "c" in a)
            i += 1
        else:
            break
    return args[i] if has_c and i < len(args) else None


def shell_commands(text: str, fallback_names: "tuple[str, ...]" = (), depth: int = 0) -> "Iterator[list[str]]":
    """Yield the argv of every simple command a Bash command string runs, launchers stripped.

    Sees through `;`, `&&`, pipes, subshells, `$( )`, backticks, `sudo`/`env`/`nohup`/...,
    `VAR=x` prefixes, `bash -c '...'` and `eval`. Here-document bodies, comments and quoted
    text are not commands. Text this tokenizer cannot read (an unbalanced quote) is scanned
    crudely instead: every word named in `fallback_names` starts a command, which errs toward
    seeing a command that is not really there.
    """
    if depth > MAX_DEPTH:
        for argv in _fallback_commands(text, fallback_names):
            yield argv
        return
    try:
        token_lists = tokenize(text, depth)
    except ShellSyntaxError:
        for argv in _fallback_commands(text, fallback_names):
            yield argv
        return
    for tokens in token_lists:
        for argv in simple_commands(tokens):
            argv = unwrap(argv)
            if not argv:
                continue
            yield argv
            name = program_name(argv[0])
            inner = None
            if name in SHELLS:
                inner = shell_script(argv[1:])
            elif name == "eval":
                inner = " ".join(argv[1:])
            if inner is not None:
                for nested in shell_commands(inner, fallback_names, depth + 1):
                    yield nested


def _fallback_commands(text: str, names: "tuple[str, ...]") -> "Iterator[list[str]]":
    """For text that cannot be tokenized: each `name ...` of every operator-separated piece."""
    if not names:
        return
    import re  # json has imported it already

    for piece in re.split(r"&&|\|\||[;|&\n()`]", text):
        words = re.sub(r"[\"'\\]", "", piece).split()
        for i, word in enumerate(words):
            if program_name(word) in names:
                yield words[i:]


# ---- git ------------------------------------------------------------------------------------------

OVERRIDES = "git-guard.json"  # in the user config dir

RESET_HARD = (
    "`git reset --hard` discards all uncommitted changes and cannot be undone. Commit the work "
    "to a branch first, or unstage with `git restore --staged <file>`, which keeps your files.")
STASH_HIDE = (
    "`git stash` takes uncommitted changes out of the working tree, where they are easily "
    "forgotten or lost (and some of them may not be yours). Commit the changes to a branch "
    "instead, or ask the user.")
STASH_DROP = (
    "`git stash drop` and `git stash clear` permanently delete stashed changes. "
    "Leave the stash alone, or ask the user to drop it.")
CLEAN = (
    "`git clean -f` permanently deletes untracked files, which git cannot bring back. Run "
    "`git clean -n` to list them and remove only files you created yourself, or ask the user.")
PUSH_FORCE = (
    "`git push --force` (also `-f`, `--force-with-lease`, `+<refspec>`) overwrites the remote "
    "branch and can destroy commits other people pushed. Push without force, or ask the user "
    "to force-push if it is really needed.")
CHECKOUT_PATHS = (
    "`git checkout -- <path>` overwrites files with the committed version, so their "
    "uncommitted changes are lost for good. Commit the changes first or ask the user; "
    "to only unstage, use `git restore --staged <path>`.")
CHECKOUT_FORCE = (
    "`git checkout -f` / `git switch --discard-changes` throws away uncommitted changes "
    "while switching branches. Commit the changes first, then switch without force.")
RESTORE = (
    "`git restore <path>` overwrites the working-tree file, so its uncommitted changes are "
    "lost for good. Commit them first or ask the user; to only unstage, use "
    "`git restore --staged <path>`.")
BRANCH_DELETE = (
    "`git branch -D` deletes a branch even if its commits are not merged anywhere, so they "
    "can be lost. Use `git branch -d`, which refuses unmerged branches, or ask the user.")
NO_VERIFY = (
    "`--no-verify` (`git commit -n`) skips the repository's git hooks and the checks they run. "
    "Fix what the failing hook reports and run the command again without `--no-verify`.")
HOOKS_PATH = (
    "`-c core.hooksPath=...` replaces the repository's git hooks and skips their checks. "
    "Fix what the failing hook reports and run git without overriding core.hooksPath.")
PUSH_DENIED = (
    "pushing is turned off for this project (git-guard option deny_push). "
    "Leave the commits local and ask the user to push.")


GIT_GLOBAL_VALUE = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace",
                              "--super-prefix", "--config-env"))


def parse_git(args: "list[str]") -> "tuple[list[str], str | None, list[str]]":
    """Split `git [global options] <sub> [args]` into (`-c` settings, sub, args)."""
    config: "list[str]" = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in GIT_GLOBAL_VALUE:
            if a == "-c" and i + 1 < len(args):
                config.append(args[i + 1])
            i += 2
        elif a.startswith("-"):
            i += 1
        else:
            return config, a, args[i + 1:]
    return config, None, []


def scan(args: "list[str]", short_value: str = "", long_value: "tuple[str, ...]" = (), short_optional: str = ""
         ) -> "tuple[set[str], list[str], list[str], list[str]]":
    """Parse git-style options into (short letters, long names, positionals, args after `--`).

    Short clusters stop at an option that takes a value, and that value is skipped, so
    `-am "no"` is -a -m and `-m -n` is a message, not -n.
    """
    shorts: "set[str]" = set()
    longs: "list[str]" = []
    positionals: "list[str]" = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            return shorts, longs, positionals, args[i:]
        if a.startswith("--"):
            name = a.split("=", 1)[0]
            longs.append(name)
            if "=" not in a and name in long_value:
                i += 1
        elif a.startswith("-") and len(a) > 1:
            for j, ch in enumerate(a[1:]):
                shorts.add(ch)
                if ch in short_value or ch in short_optional:
                    if ch in short_value and j == len(a) - 2:
                        i += 1
                    break
        else:
            positionals.append(a)
    return shorts, longs, positionals, []


def has_long(longs: "list[str]", *names: str) -> bool:
    """True if a long option was given, also abbreviated as git allows (`--forc`)."""
    return any(given == name or (len(given) >= 5 and name.startswith(given))
               for given in longs for name in names)


class Invocation(object):
    """One git command: its `-c` settings, subcommand and arguments (quotes already removed)."""

    def __init__(self, config: "list[str]", sub: str, args: "list[str]") -> None:
        self.config, self.sub, self.args = config, sub, args

    def texts(self) -> "list[str]":
        """What override regexes see: `git <sub> <args>`, and `git -c <setting>` for each -c."""
        main = " ".join(" ".join(["git", self.sub] + self.args).split())
        return [main] + [" ".join(("git -c " + setting).split()) for setting in self.config]


def rule_hooks_path(inv: Invocation, options: "Options") -> "str | None":
    """`-c core.hooksPath=...` swaps the repository's hooks for others (or none)."""
    if any(setting.lower().startswith("core.hookspath") for setting in inv.config):
        return HOOKS_PATH
    return None


def rule_stash(inv: Invocation, options: "Options") -> "str | None":
    """Bare `git stash` and options without a subcommand mean push; list/show/apply/pop are safe."""
    if inv.sub != "stash":
        return None
    args = inv.args
    sub = args[0] if args and not args[0].startswith("-") else "push"
    return STASH_HIDE if sub in ("push", "save") else None


def rule_stash_drop(inv: Invocation, options: "Options") -> "str | None":
    if inv.sub == "stash" and inv.args and inv.args[0] in ("drop", "clear"):
        return STASH_DROP
    return None


def rule_reset_hard(inv: Invocation, options: "Options") -> "str | None":
    """--hard overwrites the working tree; --soft/--mixed keep the files."""
    if inv.sub == "reset" and has_long(scan(inv.args)[1], "--hard"):
        return RESET_HARD
    return None


def rule_clean_force(inv: Invocation, options: "Options") -> "str | None":
    """Only a forced clean deletes (without -f git refuses: clean.requireForce); -n is a dry run."""
    if inv.sub != "clean":
        return None
    shorts, longs, _, _ = scan(inv.args, "e", ("--exclude",))
    if "n" in shorts or has_long(longs, "--dry-run"):
        return None
    return CLEAN if "f" in shorts or has_long(longs, "--force") else None


def rule_push_force(inv: Invocation, options: "Options") -> "str | None":
    """Any form of force, including a `+` refspec, can drop commits on the remote.

    --force-if-includes alone changes nothing: it only qualifies --force-with-lease.
    """
    if inv.sub != "push":
        return None
    shorts, longs, positionals, after = scan(
        inv.args, "o", ("--repo", "--push-option", "--receive-pack", "--exec"))
    forced = "f" in shorts or has_long(longs, "--force", "--force-with-lease", "--mirror")
    if forced or any(ref.startswith("+") for ref in positionals + after):
        return PUSH_FORCE
    return None


def rule_checkout_discard(inv: Invocation, options: "Options") -> "str | None":
    """Switching branches is fine; checking out paths (or forcing) overwrites local changes."""
    if inv.sub == "switch":
        shorts, longs, _, _ = scan(inv.args, "cC", ("--orphan",))
        forced = "f" in shorts or has_long(longs, "--force", "--discard-changes")
        return CHECKOUT_FORCE if forced else None
    if inv.sub != "checkout":
        return None
    shorts, longs, positionals, after = scan(inv.args, "bB", ("--orphan",))
    if "f" in shorts or has_long(longs, "--force"):
        return CHECKOUT_FORCE
    looks_like_path = any(p in (".", "..") or p.startswith(("./", "../", ":/")) or "*" in p
                          for p in positionals)
    if after or len(positionals) > 1 or looks_like_path or has_long(longs, "--pathspec-from-file"):
        return CHECKOUT_PATHS  # `<tree-ish> <path>` or a path: files get overwritten
    return None


def rule_restore_discard(inv: Invocation, options: "Options") -> "str | None":
    """Restore touches the working tree unless it is told to touch only the index."""
    if inv.sub != "restore":
        return None
    shorts, longs, _, _ = scan(inv.args, "s", ("--source",))
    staged = "S" in shorts or has_long(longs, "--staged")
    worktree = "W" in shorts or has_long(longs, "--worktree")
    return None if staged and not worktree else RESTORE


def rule_branch_force_delete(inv: Invocation, options: "Options") -> "str | None":
    """-d refuses unmerged branches; -D (or -d --force) deletes them anyway."""
    if inv.sub != "branch":
        return None
    shorts, longs, _, _ = scan(inv.args, "u", ("--set-upstream-to",))
    delete = "d" in shorts or has_long(longs, "--delete")
    force = "f" in shorts or has_long(longs, "--force")
    return BRANCH_DELETE if "D" in shorts or (delete and force) else None


def rule_no_verify(inv: Invocation, options: "Options") -> "str | None":
    """--no-verify anywhere; -n too for commit, where value-taking options end a cluster (-am is not -n)."""
    if inv.sub != "commit":
        return NO_VERIFY if has_long(scan(inv.args)[1], "--no-verify") else None
    shorts, longs, _, _ = scan(
        inv.args, "mFCct",
        ("--message", "--file", "--reuse-message", "--reedit-message", "--template", "--author",
         "--date", "--fixup", "--squash", "--trailer", "--cleanup", "--pathspec-from-file"),
        short_optional="Su")
    return NO_VERIFY if "n" in shorts or has_long(longs, "--no-verify") else None


def rule_push(inv: Invocation, options: "Options") -> "str | None":
    """With the option deny_push, any push."""
    return PUSH_DENIED if inv.sub == "push" and options.get("deny_push") else None


# In the order they are checked: the first rule that matches gives the reason.
RULES = (
    ("hooks-path", rule_hooks_path, HOOKS_PATH),
    ("stash", rule_stash, STASH_HIDE),
    ("stash-drop", rule_stash_drop, STASH_DROP),
    ("reset-hard", rule_reset_hard, RESET_HARD),
    ("clean-force", rule_clean_force, CLEAN),
    ("push-force", rule_push_force, PUSH_FORCE),
    ("checkout-discard", rule_checkout_discard, CHECKOUT_PATHS),
    ("restore-discard", rule_restore_discard, RESTORE),
    ("branch-force-delete", rule_branch_force_delete, BRANCH_DELETE),
    ("no-verify", rule_no_verify, NO_VERIFY),
    ("push", rule_push, PUSH_DENIED),
)
RULE_IDS = tuple(rule_id for rule_id, _, _ in RULES)


class Rule(object):
    """An active rule: a built-in check or, without one, the regexes of an override; `reason` overrides the text."""

    def __init__(self, rule_id: str, check: "Callable[[Invocation, Options], str | None] | None" = None,
                 patterns: "Sequence[Pattern[str]]" = (), reason: "str | None" = None) -> None:
        self.id, self.check, self.patterns, self.reason = rule_id, check, patterns, reason

    def verdict(self, inv: Invocation, options: "Options") -> "str | None":
        if self.check is not None:
            found = self.check(inv, options)
            return (self.reason or found) if found else None
        for text in inv.texts():
            for pattern in self.patterns:
                if pattern.search(text):
                    return self.reason or (
                        "`%s` matches the git-guard rule %r of the user's git-guard.json. "
                        "Do not run it; ask the user if it is really needed." % (text, self.id))
        return None


BUILTINS = [Rule(rule_id, check) for rule_id, check, _ in RULES]


def override_path() -> str:
    return os.path.join(hw.config_dir(), OVERRIDES)


def rules_from(data: object) -> "list[Rule]":
    """The active rules for the contents of an override file; ValueError says what is wrong."""
    import re  # json has imported it already

    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    unknown = sorted(set(data) - {"rules", "reasons"})
    if unknown:
        raise ValueError("unknown key %r (expected \"rules\" and \"reasons\")" % unknown[0])
    table, reasons = data.get("rules", {}), data.get("reasons", {})
    if not isinstance(table, dict):
        raise ValueError("\"rules\" must be an object of rule ids")
    if not isinstance(reasons, dict):
        raise ValueError("\"reasons\" must be an object of rule ids")
    patterns: "dict[str, list[Pattern[str]]]" = {}
    for rule_id, regexes in table.items():
        if not rule_id:
            raise ValueError("a rule id must not be empty")
        if not isinstance(regexes, list) or not all(isinstance(r, str) for r in regexes):
            raise ValueError("rules.%s must be a list of regex strings" % rule_id)
        compiled: "list[Pattern[str]]" = []
        for regex in regexes:
            try:
                compiled.append(re.compile(regex))
            except (re.error, RecursionError, OverflowError) as error:
                raise ValueError("rules.%s: regex %r does not compile: %s" % (rule_id, regex, error)) from None
        patterns[rule_id] = compiled
    for rule_id, text in reasons.items():
        if not isinstance(text, str) or not text.strip():
            raise ValueError("reasons.%s must be a non-empty string" % rule_id)
        if rule_id not in patterns and rule_id not in RULE_IDS:
            raise ValueError("reasons.%s names no rule" % rule_id)
    active = []
    for rule_id, check, default_reason in RULES:
        if rule_id not in patterns:
            active.append(Rule(rule_id, check, reason=reasons.get(rule_id)))
        elif patterns[rule_id]:
            active.append(Rule(rule_id, patterns=patterns[rule_id],
                               reason=reasons.get(rule_id) or default_reason))
    for rule_id, compiled in patterns.items():
        if rule_id not in RULE_IDS and compiled:
            active.append(Rule(rule_id, patterns=compiled, reason=reasons.get(rule_id)))
    return active


_active: "tuple[object, list[Rule]] | None" = None  # (the file's signature, its rules)


def active_rules() -> "list[Rule]":
    """The rules in force: the override file's, else (absent or invalid: logged) the built-ins.
    Read again whenever the file changes: a serving runtime answers many calls."""
    global _active
    path = override_path()
    signature = hw.file_signature(path)
    if _active is None or _active[0] != signature:
        try:
            data = hw.read_json_file(path)
            rules = BUILTINS if data is None else rules_from(data)
        except ValueError as error:
            why = str(error).replace(path + ": ", "")
            hw.log("git-guard", "%s ignored, using the built-in rules: %s" % (path, why))
            rules = BUILTINS
        _active = (signature, rules)
    return _active[1]


def check_git(args: "list[str]", options: "Options", rules: "list[Rule] | None" = None) -> "str | None":
    """Deny reason for one git invocation (the arguments after `git`), or None."""
    config, sub, rest = parse_git(args)
    if sub is None:
        return None
    inv = Invocation(config, sub, rest)
    for rule in active_rules() if rules is None else rules:
        reason = rule.verdict(inv, options)
        if reason:
            return reason
    return None


def check_text(text: str, options: "Options", rules: "list[Rule] | None" = None) -> "str | None":
    """Deny reason for the first dangerous git command a shell command string runs, or None."""
    for argv in shell_commands(text, fallback_names=("git",)):
        if program_name(argv[0]) == "git":
            reason = check_git(argv[1:], options, rules)
            if reason:
                return reason
    return None
