"""hookwright git-guard: a PreToolUse hook for the Bash tool (Cursor: beforeShellExecution; Claude
Code's PreSkillShellCommand too, where a skill's shell line runs).

It denies commands that lose git work, with a reason the model can act on: what discards
uncommitted changes, deletes branches, tags, refs, the reflog or unreachable objects, rewrites
history, or force-updates or deletes what is on a remote; and what skips the repository's hooks.
It follows the command through the shell as bash would (shell_reader.py: variables, functions,
`bash -c`, here-documents, pipes into a shell, xargs, eval, substitutions) to every git it runs,
and reads each git command line as git does (git_cli.py: global options, aliases, abbreviated
and clustered options, `--`, refspecs). What it cannot follow it lets through and logs; with the
option deny_unparsed it denies it.

Each rule has a stable id, named at the end of its reason: hooks-path, stash, stash-drop,
reset-hard, clean-force, push-force, push-delete, checkout-discard, restore-discard,
branch-force-delete, tag-delete, ref-delete, reflog-expire, prune-objects, history-rewrite,
worktree-remove-force, submodule-force, rm-force, git-dir-delete (an `rm` of `.git`),
no-verify, and push (only with the option deny_push). Two files tune them, in one format:
the user's `<config dir>/git-guard.json` (`$XDG_CONFIG_HOME/hookwright/git-guard.json`, else
`~/.config/hookwright/git-guard.json`), then the project's, next to the host's project config
(`.claude/`, `.cursor/` or `.opencode/hookwright-git-guard.json`), each over the rules before
it, with sub-table replace semantics:

    {"rules": {"<rule-id>": ["<regex>", ...]}, "reasons": {"<rule-id>": "text"}}

A rule id in "rules" replaces the rule: its regexes are searched (Python `re`, case-sensitive)
in each git invocation, normalized as `git <subcommand> <args...>` (the argv after sudo/env/...
are stripped, quotes removed, git's global options dropped, every run of whitespace one
space); each `-c <setting>` given to git is also seen as its own `git -c <setting>`. An empty
list turns the rule off; a new id adds a rule (checked after the built-in ones, the user's
first, in file order); an id not in a file keeps what the files before it made of it. A
"reasons" entry replaces the text the model is told for that rule. Each file is checked
against schemas/git-guard-rules.schema.json (rules_files.structure_problem, held to it by a test) and
for regexes that do not compile and reasons that name no rule; an invalid file is ignored as
a whole, and the error log says why.

It must never get in the agent's way by accident: on any problem it prints nothing,
exits 0 and appends one line to the hookwright error log. The script the host runs is the
shared hook script (templates/runtime/hook_script.py); this module is what it loads.
Stdlib only, Python >= 3.8.
"""
import os

import git_cli
import hookwright_runtime as hw
import shell_reader

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from re import Pattern

    Rules = Callable[[], "list[Rule]"]  # the rules in force, read when the first git command needs them

    from git_cli import GitCall, Parsed
    from hookwright_runtime import Options


NAME = "git-guard"
PREFIX = "hookwright git-guard: "
OPTIONS = {"deny_push": False, "deny_unparsed": False}


SHELL_EVENTS = ("PreToolUse", "PreSkillShellCommand")  # a Bash tool call, a skill's shell line


def handle(call: hw.Call) -> "hw.Outcome | None":
    if call.event not in SHELL_EVENTS or call.tool_name != "Bash":
        return None
    tool_input = call.payload.get("tool_input")
    if not isinstance(tool_input, dict):
        raise hw.PassThrough("Bash tool_input is not an object")
    command = tool_input.get("command")
    if not isinstance(command, str):
        raise hw.PassThrough("Bash tool_input.command is not a string")
    decision = decide(command, call.options, lambda: active_rules(call.host, call.payload),
                      working_folder(call.payload, tool_input))
    if decision.reason:
        return hw.deny("%s%s (rule %s)" % (PREFIX, decision.reason, decision.rule))
    if decision.notes:
        unparsed = "; ".join(decision.notes)
        if call.options.get("deny_unparsed"):
            return hw.deny("%sthis command cannot be checked to the end (%s), and the option deny_unparsed "
                           "refuses what cannot be checked. Write it so that every program and argument is "
                           "spelt out in the command itself." % (PREFIX, unparsed))
        hw.log(NAME, "let through what it cannot follow: %s" % unparsed)
    return None


def working_folder(payload: "dict[str, object]", tool_input: "dict[str, object]") -> "str | None":
    """Where the command starts: the payload's `cwd` (Cursor: the shell's), or opencode's `workdir` argument."""
    cwd = payload.get("cwd")
    base = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None
    workdir = tool_input.get("workdir")
    if isinstance(workdir, str) and workdir and (base or os.path.isabs(workdir)):
        return os.path.join(base or "", workdir)
    return base


# ---- git ------------------------------------------------------------------------------------------

RESET_HARD = (
    "`git reset --hard` discards all uncommitted changes and cannot be undone. Commit the work "
    "to a branch first, or unstage with `git restore --staged <file>`, which keeps your files.")
RESET_MERGE = (
    "`git reset --merge` throws away staged changes, which cannot be brought back. Commit the work "
    "first; `git reset --keep <commit>` moves the branch and keeps local changes, and "
    "`git restore --staged <file>` only unstages.")
READ_TREE_RESET = (
    "`git read-tree --reset -u` overwrites the index and the working tree like `git reset --hard`: "
    "uncommitted changes are lost. Commit them first, or ask the user.")
STASH_HIDE = (
    "`git stash` takes uncommitted changes out of the working tree, where they are easily "
    "forgotten or lost (and some of them may not be yours). Commit the changes to a branch "
    "instead, or ask the user.")
STASH_DROP = (
    "`git stash drop` and `git stash clear` permanently delete stashed changes. "
    "Leave the stash alone, or ask the user to drop it.")
CLEAN = (
    "`git clean -f` permanently deletes untracked files, which git cannot bring back (so does "
    "`git clean -i`, and any clean where clean.requireForce is off). Run `git clean -n` to list "
    "them and remove only files you created yourself, or ask the user.")
CLEAN_CONFIG = (
    "clean.requireForce=false makes every later `git clean` delete untracked files without -f. "
    "Leave the setting alone; run `git clean -n` to see what a clean would delete.")
PUSH_FORCE = (
    "`git push --force` (also `-f`, `--force-with-lease`, `+<refspec>`, `--mirror`) overwrites the remote "
    "branch and can destroy commits other people pushed. Push without force, or ask the user "
    "to force-push if it is really needed.")
PUSH_FORCE_CONFIG = (
    "a `+` push refspec or remote.<name>.mirror in the config makes every push a force push, which "
    "overwrites remote branches and can destroy commits other people pushed. Push without it, or ask the user.")
PUSH_DELETE = (
    "`git push --delete` / `git push <remote> :<ref>` (and `--prune`) deletes branches or tags on the "
    "remote, with the commits only they hold, for everyone. Leave the remote alone, or ask the user "
    "to delete it.")
CHECKOUT_PATHS = (
    "`git checkout -- <path>` overwrites files with the committed version, so their "
    "uncommitted changes are lost for good (so do `git checkout <commit> <path>`, `--ours`/`--theirs` "
    "and `-p`). Commit the changes first or ask the user; to only unstage, use "
    "`git restore --staged <path>`; to change branches, `git switch <branch>` never overwrites files.")
CHECKOUT_FORCE = (
    "`git checkout -f` / `git switch --discard-changes` throws away uncommitted changes "
    "while switching branches. Commit the changes first, then switch without force.")
CHECKOUT_INDEX = (
    "`git checkout-index -f` overwrites working-tree files with the staged version, so their "
    "unstaged changes are lost. Commit them first, or ask the user.")
RESTORE = (
    "`git restore <path>` overwrites the working-tree file, so its uncommitted changes are "
    "lost for good. Commit them first or ask the user; to only unstage, use "
    "`git restore --staged <path>`.")
BRANCH_DELETE = (
    "`git branch -D` deletes a branch even if its commits are not merged anywhere, so they "
    "can be lost. Use `git branch -d`, which refuses unmerged branches, or ask the user.")
BRANCH_OVERWRITE = (
    "`git branch -M` / `-C` onto a branch that exists deletes that branch and its reflog, so its "
    "commits can be lost. Use `git branch -m` / `-c`, which refuse to overwrite, with a new name, "
    "or ask the user.")
TAG_DELETE = (
    "`git tag -d` deletes a tag, and tags have no reflog: a tag that was never pushed, and an "
    "annotated tag's message and signature, cannot be brought back. Leave the tag alone, or ask the user.")
TAG_FORCE = (
    "`git tag -f` moves a tag that exists; the old one has no reflog and is gone, and everyone who "
    "fetched it keeps the old one. Create a new tag name instead, or ask the user.")
PRUNE_TAGS = (
    "`git fetch --prune-tags` deletes every local tag the remote does not have, and tags have no "
    "reflog. Fetch without it (`git fetch --prune` only tidies remote-tracking branches), or ask the user.")
REF_DELETE = (
    "`git update-ref -d` (and a zero new value, `--stdin`, `git symbolic-ref --delete`, "
    "`git replace -d`/`-f`) deletes or overwrites a ref directly, without the checks `git branch -d` "
    "makes: commits only it reached can be lost. Use `git branch -d <branch>`, or ask the user.")
REFLOG_EXPIRE = (
    "`git reflog expire` / `git reflog delete` deletes reflog entries: the record that brings back "
    "commits after a reset, a rebase or a deleted branch. Leave the reflog alone "
    "(`git reflog expire --dry-run` shows what it would drop), or ask the user.")
PRUNE_OBJECTS = (
    "`git gc --prune=now` (also `git prune`, `git repack -a -d`, and gc.pruneExpire or "
    "gc.reflogExpire settings sooner than the defaults) deletes unreachable objects at once: dropped "
    "stashes and commits lost in a reset or rebase can no longer be recovered. Run plain `git gc`, "
    "which keeps them two weeks, or ask the user.")
HISTORY_REWRITE = (
    "`git filter-branch` / `git filter-repo` rewrites every commit of the branches it touches (and "
    "filter-repo expires the reflog and prunes the old objects): every clone stops matching and the old "
    "history is gone. Ask the user; `git filter-repo --analyze` only writes a report.")
WORKTREE_REMOVE = (
    "`git worktree remove --force` deletes a worktree together with its uncommitted changes and "
    "untracked files. Commit them there first, then run `git worktree remove` without --force, which "
    "refuses while the worktree has changes.")
SUBMODULE_FORCE = (
    "`git submodule deinit --force` / `git submodule update --force` throws away uncommitted changes "
    "inside the submodules. Commit them in the submodule first, or run it without --force, which refuses "
    "while there are changes.")
RM_FORCE = (
    "`git rm -f` deletes files even when they have uncommitted changes, which are then lost. Commit "
    "them first; `git rm --cached <file>` stops tracking a file and keeps it on disk.")
MV_FORCE = (
    "`git mv -f` overwrites the file at the target, which is lost if it was not committed. Move onto a "
    "name that is free, or ask the user.")
GIT_DIR_DELETE = (
    "deleting `.git` (or its refs, logs or objects) destroys the repository: every commit, branch, stash "
    "and reflog that was not pushed. Leave `.git` alone; a stale `.git/index.lock` may be removed by itself.")
NO_VERIFY = (
    "`--no-verify` (`git commit -n`) skips the repository's git hooks and the checks they run. "
    "Fix what the failing hook reports and run the command again without `--no-verify`.")
HOOKS_PATH = (
    "`-c core.hooksPath=...` replaces the repository's git hooks and skips their checks. "
    "Fix what the failing hook reports and run git without overriding core.hooksPath.")
PUSH_DENIED = (
    "pushing is turned off for this project (git-guard option deny_push). "
    "Leave the commits local and ask the user to push.")

GC_DEFAULT_DAYS = {"gc.pruneexpire": 14, "gc.reflogexpire": 90, "gc.reflogexpireunreachable": 30}
UNIT_DAYS = {"second": 1 / 86400.0, "minute": 1 / 1440.0, "hour": 1 / 24.0, "day": 1.0, "week": 7.0,
             "month": 30.0, "year": 365.0}

def days(text: str) -> "float | None":
    """An expiry date as git's approxidate reads the usual spellings, in days ago: `now` 0,
    `2.weeks.ago` 14, `never`/`false` infinite; None for a spelling this does not read."""
    text = text.strip().lower()
    if text in ("never", "false"):
        return float("inf")
    if text in ("now", "all", "0"):
        return 0.0
    words = text.replace(".", " ").replace("_", " ").split()
    if words and words[-1] == "ago":
        words = words[:-1]
    if len(words) == 2 and words[0].isdigit():
        unit = words[1][:-1] if words[1].endswith("s") else words[1]
        if unit in UNIT_DAYS:
            return int(words[0]) * UNIT_DAYS[unit]
    return None


def persisted(call: "GitCall") -> "tuple[str, str] | None":
    """(key, value) that `git config [--global ...] <key> <value>` (or `git config set`) writes, else None."""
    if call.sub != "config" or call.action not in (None, "set"):
        return None
    opts = call.options
    if opts.on("get", "get-all", "get-regexp", "get-urlmatch", "unset", "unset-all", "rename-section",
               "remove-section", "list", "edit", "get-color", "get-colorbool"):
        return None
    words = opts.positionals
    if len(words) < 2:
        return None
    return git_cli.config_key("%s=%s" % (words[0], words[1]))


def settings(call: "GitCall") -> "list[tuple[str, str]]":
    """What this call sets, for itself (`-c`) or for good (`git config`)."""
    kept = persisted(call)
    return call.config + ([kept] if kept else [])


def rule_hooks_path(call: "GitCall", options: "Options") -> "str | None":
    """`-c core.hooksPath=...` swaps the repository's hooks for others (or none); so does `git config`."""
    if any(key == "core.hookspath" for key, _ in settings(call)):
        return HOOKS_PATH
    return None


def rule_stash(call: "GitCall", options: "Options") -> "str | None":
    """Bare `git stash` and options without a subcommand mean push; list/show/apply/pop are safe."""
    if call.sub == "stash" and call.action in ("push", "save") and not call.options.help:
        return STASH_HIDE
    return None


def rule_stash_drop(call: "GitCall", options: "Options") -> "str | None":
    if call.sub == "stash" and call.action in ("drop", "clear"):
        return STASH_DROP
    return None


def rule_reset_hard(call: "GitCall", options: "Options") -> "str | None":
    """--hard overwrites the working tree and --merge the staged changes; --soft/--mixed/--keep keep the files."""
    if call.sub == "reset":
        opts = call.options
        if opts.on("hard"):
            return RESET_HARD
        if opts.on("merge"):
            return RESET_MERGE
    elif call.sub == "read-tree" and call.options.on("reset") and call.options.on("u"):
        return READ_TREE_RESET
    return None


def rule_clean_force(call: "GitCall", options: "Options") -> "str | None":
    """Every clean but a dry run: without -f git refuses only while clean.requireForce is on, and
    -i deletes what the answers pick."""
    if call.sub == "clean":
        return None if call.options.surely("dry-run") or call.options.help else CLEAN
    for key, value in settings(call):
        if key == "clean.requireforce" and value.lower() in ("false", "no", "off", "0"):
            return CLEAN_CONFIG
    return None


def _push_opts(call: "GitCall") -> "Parsed | None":
    """A push's (or send-pack's) options, unless it is a dry run or a help page."""
    if call.sub not in ("push", "send-pack"):
        return None
    opts = call.options
    return None if opts.surely("dry-run") or opts.help else opts


def refspecs_of(opts: "Parsed") -> "list[str]":
    """A push's refspecs: the words after the repository (all of them when --repo names it)."""
    words = opts.positionals if opts.values("repo") or opts.values("remote") else opts.positionals[1:]
    return words + opts.after_dashdash


def rule_push_force(call: "GitCall", options: "Options") -> "str | None":
    """Any form of force, including a `+` refspec, can drop commits on the remote.

    --force-if-includes alone changes nothing: it only qualifies --force-with-lease.
    """
    for key, value in settings(call):
        if key.startswith("remote.") and (
                (key.endswith(".push") and value.startswith("+")) or
                (key.endswith(".mirror") and value.lower() in ("true", "yes", "on", "1"))):
            return PUSH_FORCE_CONFIG
    opts = _push_opts(call)
    if opts is None:
        return None
    if opts.on("force", "force-with-lease", "mirror"):
        return PUSH_FORCE
    if any(ref.startswith("+") for ref in refspecs_of(opts)):
        return PUSH_FORCE
    return None


def rule_push_delete(call: "GitCall", options: "Options") -> "str | None":
    """`--delete`, a refspec with nothing before its colon, or `--prune` removes refs on the remote."""
    opts = _push_opts(call)
    if opts is None:
        return None
    if opts.on("delete", "prune") or any(ref.lstrip("+").startswith(":") and ref != ":" for ref in refspecs_of(opts)):
        return PUSH_DELETE
    return None


def rule_checkout_discard(call: "GitCall", options: "Options") -> "str | None":
    """Switching branches is fine; checking out paths (or forcing) overwrites local changes."""
    if call.sub == "switch":
        opts = call.options
        return CHECKOUT_FORCE if opts.on("force", "discard-changes") else None
    if call.sub == "checkout-index":
        return CHECKOUT_INDEX if call.options.on("force") else None
    if call.sub != "checkout":
        return None
    opts = call.options
    if opts.help:
        return None
    if opts.on("patch") or opts.given("pathspec-from-file") or opts.dashdash and opts.after_dashdash:
        return CHECKOUT_PATHS
    if opts.on("force"):
        return CHECKOUT_FORCE
    if opts.on("b", "B", "orphan"):
        return None  # a new branch: git refuses paths with it
    words = opts.positionals
    if len(words) > 1 or any(is_path(call, word) for word in words) or (words and opts.on("ours", "theirs")):
        return CHECKOUT_PATHS  # `<tree-ish> <path>`, a path, or --ours/--theirs (which take only paths)
    return None


def is_path(call: "GitCall", word: str) -> bool:
    """Would `git checkout <word>` read the word as paths, not as a branch or commit?"""
    if word in (".", "..") or word.startswith(("./", "../", ":/", ":(")) or any(c in word for c in "*?["):
        return True
    if word == "-" or word.startswith("-") or not call.cwd:
        return False
    if not os.path.lexists(os.path.join(call.cwd, word)):
        return False  # neither a file nor (we guess) anything git would overwrite
    git_dir = git_cli.find_git_dir(call.cwd, call.git_dir)
    return git_dir is None or git_cli.names_ref(git_dir, word) is not True


def rule_restore_discard(call: "GitCall", options: "Options") -> "str | None":
    """Restore touches the working tree unless it is told to touch only the index."""
    if call.sub != "restore" or call.options.help:
        return None
    opts = call.options
    return None if opts.surely("staged") and not opts.on("worktree") else RESTORE


def rule_branch_force_delete(call: "GitCall", options: "Options") -> "str | None":
    """-d refuses unmerged branches; -D (or -d --force) deletes them anyway. -M/-C (or -m/-c
    --force) onto a branch that exists deletes it."""
    if call.sub != "branch":
        return None
    opts = call.options
    force = opts.on("force")
    if opts.on("D") or (opts.on("delete") and force):
        return BRANCH_DELETE
    if opts.on("M", "C") or (opts.on("move", "copy") and force):
        words = opts.positionals
        if words and not opts.on("remotes") and _ref_may_exist(call, "refs/heads/" + words[-1], words):
            return BRANCH_OVERWRITE
    return None


def _ref_may_exist(call: "GitCall", ref: str, words: "list[str]") -> bool:
    """Does the ref exist (or can that not be told)? Renaming the checked-out branch onto itself is no overwrite."""
    git_dir = git_cli.find_git_dir(call.cwd, call.git_dir) if call.cwd else None
    if git_dir is None:
        return True
    found = git_cli.ref_exists(git_dir, [ref])
    if found is False:
        return False
    if len(words) == 1:
        try:
            with open(os.path.join(git_dir, "HEAD"), encoding="utf-8") as handle:
                if handle.read(4096).strip() == "ref: " + ref:
                    return False
        except OSError:
            pass
    return True


def rule_tag_delete(call: "GitCall", options: "Options") -> "str | None":
    """A tag has no reflog: deleting or moving one loses it; fetch --prune-tags deletes local-only tags."""
    if call.sub == "fetch":
        return PRUNE_TAGS if call.options.on("prune-tags") and not call.options.surely("dry-run") else None
    if call.sub != "tag":
        return None
    opts = call.options
    if opts.on("delete"):
        return TAG_DELETE
    if opts.on("force") and not opts.on("list", "verify"):
        words = opts.positionals
        if words and _ref_may_exist(call, "refs/tags/" + words[0], words + ["(two)"]):
            return TAG_FORCE
    return None


ZERO_IDS = ("0" * 40, "0" * 64)


def rule_ref_delete(call: "GitCall", options: "Options") -> "str | None":
    """Plumbing that deletes refs: update-ref -d (or to the zero id, or from stdin), symbolic-ref -d, replace -d/-f."""
    opts = call.options if call.sub in ("update-ref", "symbolic-ref", "replace") else None
    if opts is None or opts.help:
        return None
    if call.sub == "update-ref":
        if opts.on("d", "stdin") or (len(opts.positionals) > 1 and opts.positionals[1] in ZERO_IDS):
            return REF_DELETE
    elif opts.on("delete") or (call.sub == "replace" and opts.on("force")):
        return REF_DELETE
    return None


def rule_reflog_expire(call: "GitCall", options: "Options") -> "str | None":
    if call.sub == "reflog" and call.action in ("expire", "delete", "drop"):
        opts = call.options
        return None if opts.surely("dry-run") or opts.help else REFLOG_EXPIRE
    return None


def rule_prune_objects(call: "GitCall", options: "Options") -> "str | None":
    """gc with an explicit prune date, or with expiry settings sooner than git's defaults; prune; repack -a -d."""
    for key, value in settings(call):
        default = GC_DEFAULT_DAYS.get(key)
        if default is None and key.startswith("gc.") and key.endswith((".reflogexpire", ".reflogexpireunreachable")):
            default = 30
        if default is not None:
            ago = days(value)
            if ago is None or ago < default:
                return PRUNE_OBJECTS
    if call.sub == "gc":
        for date in call.options.values("prune"):
            ago = days(date)
            if ago is None or ago < GC_DEFAULT_DAYS["gc.pruneexpire"]:
                return PRUNE_OBJECTS
    elif call.sub == "prune":
        return None if call.options.surely("dry-run") or call.options.help else PRUNE_OBJECTS
    elif call.sub == "repack":
        opts = call.options
        if opts.on("a") and opts.on("d") and not opts.on("A", "cruft", "keep-unreachable"):
            return PRUNE_OBJECTS
    return None


def rule_history_rewrite(call: "GitCall", options: "Options") -> "str | None":
    if call.sub == "filter-branch" and not call.options.help:
        return HISTORY_REWRITE
    if call.sub == "filter-repo":
        opts = call.options
        return None if opts.surely("analyze", "dry-run") or opts.help else HISTORY_REWRITE
    return None


def rule_worktree_remove_force(call: "GitCall", options: "Options") -> "str | None":
    if call.sub == "worktree" and call.action == "remove" and call.options.on("force"):
        return WORKTREE_REMOVE
    return None


def rule_submodule_force(call: "GitCall", options: "Options") -> "str | None":
    if call.sub == "submodule" and call.action in ("deinit", "update") and call.options.on("force"):
        return SUBMODULE_FORCE
    return None


def rule_rm_force(call: "GitCall", options: "Options") -> "str | None":
    """`git rm` refuses files with changes unless forced; --cached leaves the files on disk. `git mv -f` overwrites."""
    if call.sub not in ("rm", "mv"):
        return None
    opts = call.options
    if not opts.on("force") or opts.surely("dry-run") or opts.help:
        return None
    if call.sub == "mv":
        return MV_FORCE
    return None if opts.on("cached") else RM_FORCE


def rule_no_verify(call: "GitCall", options: "Options") -> "str | None":
    """--no-verify on any command that runs hooks; -n too for commit (and am), where value-taking options end a cluster."""
    if call.sub is None:
        return None
    if call.sub in git_cli.SPECS:
        return NO_VERIFY if call.options.on("no-verify") else None
    return NO_VERIFY if "--no-verify" in call.args else None


def rule_push(call: "GitCall", options: "Options") -> "str | None":
    """With the option deny_push, any push."""
    if call.sub in ("push", "send-pack") and options.get("deny_push") and _push_opts(call) is not None:
        return PUSH_DENIED
    return None


# what .git keeps that a `rm` must not touch (a stale index.lock, say, may go)
PROTECTED = ("refs", "logs", "objects", "packed-refs", "HEAD", "reftable", "worktrees", "modules", "hooks", "config",
             "index", "info")


def rule_git_dir_delete(call: "GitCall", options: "Options") -> "str | None":
    """`rm` of `.git`, of what it keeps (refs, reflogs, objects, hooks...), or of a folder that holds a repository."""
    if call.program != "rm":
        return None
    operands, options_done = [], False
    for word in call.args:
        if word == "--" and not options_done:
            options_done = True
        elif options_done or not word.startswith("-") or word == "-":
            operands.append(word)
    for word in operands:
        parts = [part for part in word.replace("\\", "/").split("/") if part not in ("", ".")]
        if ".git" in parts:
            inside = parts[parts.index(".git") + 1:]
            if not inside or inside[0] in PROTECTED:
                return GIT_DIR_DELETE
        elif call.cwd and os.path.isdir(os.path.join(call.cwd, os.path.expanduser(word), ".git")):
            return GIT_DIR_DELETE
    return None


# In the order they are checked: the first rule that matches gives the reason.
RULES = (
    ("hooks-path", rule_hooks_path, HOOKS_PATH),
    ("stash", rule_stash, STASH_HIDE),
    ("stash-drop", rule_stash_drop, STASH_DROP),
    ("reset-hard", rule_reset_hard, RESET_HARD),
    ("clean-force", rule_clean_force, CLEAN),
    ("push-force", rule_push_force, PUSH_FORCE),
    ("push-delete", rule_push_delete, PUSH_DELETE),
    ("checkout-discard", rule_checkout_discard, CHECKOUT_PATHS),
    ("restore-discard", rule_restore_discard, RESTORE),
    ("branch-force-delete", rule_branch_force_delete, BRANCH_DELETE),
    ("tag-delete", rule_tag_delete, TAG_DELETE),
    ("ref-delete", rule_ref_delete, REF_DELETE),
    ("reflog-expire", rule_reflog_expire, REFLOG_EXPIRE),
    ("prune-objects", rule_prune_objects, PRUNE_OBJECTS),
    ("history-rewrite", rule_history_rewrite, HISTORY_REWRITE),
    ("worktree-remove-force", rule_worktree_remove_force, WORKTREE_REMOVE),
    ("submodule-force", rule_submodule_force, SUBMODULE_FORCE),
    ("rm-force", rule_rm_force, RM_FORCE),
    ("git-dir-delete", rule_git_dir_delete, GIT_DIR_DELETE),  # the only rule that reads `rm`, not git
    ("no-verify", rule_no_verify, NO_VERIFY),
    ("push", rule_push, PUSH_DENIED),
)
RULE_IDS = tuple(rule_id for rule_id, _, _ in RULES)



class Rule(object):
    """An active rule: a built-in check or, without one, the regexes of an override; `reason` overrides the text."""

    def __init__(self, rule_id: str, check: "Callable[[GitCall, Options], str | None] | None" = None,
                 patterns: "Sequence[Pattern[str]]" = (), reason: "str | None" = None, source: str = "") -> None:
        self.id, self.check, self.patterns, self.reason = rule_id, check, patterns, reason
        self.source = source  # the rules file that added it

    def verdict(self, call: "GitCall", options: "Options") -> "str | None":
        if self.check is not None:
            found = self.check(call, options)
            return (self.reason or found) if found else None
        if not self.patterns:
            return None
        for text in texts(call):
            for pattern in self.patterns:
                if pattern.search(text):
                    return self.reason or (
                        "`%s` matches the git-guard rule %r of %s. Do not run it; ask the user if it is "
                        "really needed." % (text, self.id, self.source or "a git-guard rules file"))
        return None


def texts(call: "GitCall") -> "list[str]":
    """What override regexes see: `git <sub> <args>`, and `git -c <setting>` for each -c."""
    if call.program != "git":
        return []
    return [call.text()] + [" ".join(("git -c " + setting).split()) for setting in call.raw_config]


BUILTINS = [Rule(rule_id, check) for rule_id, check, _ in RULES]


# ---- the rules files: the user's, then the project's, each over the rules before it ---------------

USER_RULES = "git-guard.json"  # in the user's hookwright config folder
PROJECT_RULES = "hookwright-git-guard.json"  # in the project's folder of the host: .claude/, .cursor/, .opencode/
HOST_FOLDERS = {"claude": ".claude", "cursor": ".cursor", "opencode": ".opencode"}
def user_rules_path() -> str:
    return os.path.join(hw.config_dir(), USER_RULES)


def project_folder(host: str, payload: "dict[str, object]") -> "str | None":
    """The project the host runs the hook for: Claude Code's CLAUDE_PROJECT_DIR, Cursor's
    CURSOR_PROJECT_DIR or the workspace root holding the command's folder, else the payload's
    `cwd` (opencode's plugin sends its project folder there)."""
    cwd = payload.get("cwd")
    cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None
    if host == "claude":
        chosen = os.environ.get("CLAUDE_PROJECT_DIR")
    elif host == "cursor":
        chosen = os.environ.get("CURSOR_PROJECT_DIR")
        roots = payload.get("workspace_roots")
        if not chosen and isinstance(roots, list):
            roots = [root for root in roots if isinstance(root, str) and os.path.isabs(root)]
            inside = [root for root in roots if cwd and (cwd + "/").startswith(root.rstrip("/") + "/")]
            chosen = (inside or roots)[0] if inside or roots else None
    else:
        chosen = None
    return chosen if chosen and os.path.isabs(chosen) else cwd


def project_rules_path(host: str, start: "str | None") -> "str | None":
    """The project's rules file for this host: in the nearest folder from `start` up to the
    repository's root (the first folder with a .git) that has one, never in the home folder."""
    folder_name = HOST_FOLDERS.get(host)
    if not folder_name or not start:
        return None
    home = os.path.expanduser("~")
    folder = os.path.normpath(start)
    for _ in range(32):
        if folder == home:
            return None
        path = os.path.join(folder, folder_name, PROJECT_RULES)
        if os.path.isfile(path):
            return path
        parent = os.path.dirname(folder)
        if parent == folder or os.path.exists(os.path.join(folder, ".git")):
            return None
        folder = parent
    return None


_cache: "dict[tuple[object, ...], list[Rule]]" = {}


def active_rules(host: "str | None" = None, payload: "dict[str, object] | None" = None) -> "list[Rule]":
    """The rules in force for a call: the built-ins, under the user's file, under the project's.
    Read again when either file changes (a serving runtime answers many calls)."""
    paths = [user_rules_path()]
    project = project_rules_path(host or "", project_folder(host or "", payload or {})) if host else None
    if project:
        paths.append(project)
    key = tuple(hw.file_signature(path) or path for path in paths)
    if key not in _cache:
        _cache.clear()
        _cache[key] = BUILTINS
        if any(isinstance(part, tuple) for part in key):  # a file is there: read it (rules_files.py)
            import rules_files

            layers = [layer for layer in (rules_files.read_layer(path) for path in paths) if layer is not None]
            _cache[key] = rules_files.combined(layers) if layers else BUILTINS
    return _cache[key]


def _provider(rules: "list[Rule] | Rules | None") -> "Rules":
    """The rules as a function that reads them once, when the first git command needs them."""
    if isinstance(rules, list):
        given = rules
        return lambda: given
    source = rules or active_rules
    kept: "list[list[Rule]]" = []

    def read() -> "list[Rule]":
        if not kept:
            kept.append(source())
        return kept[0]
    return read


class Decision(object):
    """What git-guard makes of one command string: the rule that denies it (with its reason), and
    what it could not follow."""

    def __init__(self) -> None:
        self.rule: "str | None" = None
        self.reason: "str | None" = None
        self.notes: "list[str]" = []


def decide(text: str, options: "Options", rules: "list[Rule] | Rules | None" = None,
           cwd: "str | None" = None) -> Decision:
    """Follow a shell command string to every program it runs, and check each git (and rm) run
    against `rules` (a list, or a function giving it when first needed; default: active_rules())."""
    reader = shell_reader.Reader(("git", "rm"))
    decision = Decision()
    found = _first_denial(reader, reader.commands(text, cwd), options, _provider(rules), 0, set())
    if found:
        decision.rule, decision.reason = found
    decision.notes = reader.notes
    return decision


def _first_denial(reader: "shell_reader.Reader", runs: "Iterator[shell_reader.Run]", options: "Options",
                  rules: "Rules", depth: int, seen: "set[tuple[str, ...]]") -> "tuple[str, str] | None":
    for run in runs:
        key = tuple(run.argv) + ("@", run.cwd or "")
        if key in seen:
            continue
        seen.add(key)
        call = program_call(run)
        if call is None:
            continue
        found = check_call(call, options, rules)
        if found:
            return found
        for text in call_shell_texts(call, run.env):
            found = _first_denial(reader, reader.commands(text, call.cwd, depth + 1), options, rules, depth + 1, seen)
            if found:
                return found
        found = _alias_denial(reader, call, options, rules, depth, seen)
        if found:
            return found
        if call.program == "git" and call.unknown() and _matters(call, rules):
            reader.note("cannot tell what `%s` does: %s not known" % (
                call.text()[:160], ", ".join(sorted(set(call.unknown())))[:120]))
    return None


def program_call(run: "shell_reader.Run") -> "GitCall | None":
    """The run as a git call (also `git-reset`, `/usr/bin/g?t`), an rm call, or None for other programs."""
    word = run.argv[0]
    name = word.rsplit("/", 1)[-1]
    if git_cli.is_unknown(word) and (name == word or "$" in name):
        return None  # (`$(git --exec-path)/git-reset` is still git-reset)
    if any(c in name for c in "*?["):  # a glob the shell may expand into git
        import fnmatch

        name = next((program for program in ("git", "rm") if fnmatch.fnmatchcase(program, name)), name)
    if name == "git":
        return git_cli.parse_git(run.argv[1:], run.cwd, run.env)
    if name.startswith("git-") and name[4:] in git_cli.COMMANDS:
        return git_cli.parse_git([name[4:]] + run.argv[1:], run.cwd, run.env)
    if name == "rm":
        return git_cli.GitCall(None, run.argv[1:], [], run.cwd, program="rm")
    return None


def check_call(call: "GitCall", options: "Options", rules: "Rules") -> "tuple[str, str] | None":
    """(rule id, reason) of the first rule that denies one run of git (or of rm), or None."""
    if call.program == "git" and call.sub is None:
        return None
    for rule in rules():
        reason = rule.verdict(call, options)
        if reason:
            return rule.id, reason
    return None


SHELL_SETTINGS = ("core.pager", "core.editor", "sequence.editor", "core.sshcommand")
SHELL_VARIABLES = ("GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_SSH_COMMAND")


def call_shell_texts(call: "GitCall", env: "dict[str, str]") -> "list[str]":
    """Shell text a git run starts: a `!` alias, `submodule foreach`, `rebase --exec`, `bisect run`,
    and the editor, pager and ssh commands it may be given."""
    texts = []
    alias = git_cli.shell_alias(call)
    if alias is not None:
        texts.append(alias)
    if call.sub == "submodule" and call.action == "foreach":
        texts.append(" ".join(call.options.positionals))
    elif call.sub == "rebase":
        texts.extend(call.options.values("exec"))
    elif call.sub == "bisect" and call.args[:1] == ["run"]:
        texts.append(" ".join(shell_reader.quote(word) for word in call.args[1:]))
    texts.extend(value for key, value in call.config if key in SHELL_SETTINGS or key.startswith("pager."))
    texts.extend(env[name] for name in SHELL_VARIABLES if name in env)
    return [text for text in texts if text and not git_cli.is_unknown(text)]


def _alias_denial(reader: "shell_reader.Reader", call: "GitCall", options: "Options", rules: "Rules",
                  depth: int, seen: "set[tuple[str, ...]]") -> "tuple[str, str] | None":
    """`git config alias.x <value>` is denied when what the alias runs is."""
    kept = persisted(call)
    if not kept or not kept[0].startswith("alias.") or not kept[1].strip() or depth >= shell_reader.MAX_DEPTH:
        return None
    value = kept[1].strip()
    if value.startswith("!"):
        found = _first_denial(reader, reader.commands(value[1:], call.cwd, depth + 1), options, rules, depth + 1, seen)
    else:
        found = check_call(git_cli.parse_git(shell_reader.split_words(value), call.cwd), options, rules)
    if found:
        return found[0], "the alias `%s` would run what this guard denies: %s" % (kept[0][6:], found[1])
    return None


# the subcommands a built-in rule reads: an argument of theirs that is not known may change the decision
RULED = frozenset(("reset", "read-tree", "stash", "clean", "push", "send-pack", "checkout", "switch", "checkout-index",
                   "restore", "branch", "tag", "fetch", "update-ref", "symbolic-ref", "replace", "reflog", "gc",
                   "prune", "repack", "filter-branch", "filter-repo", "worktree", "submodule", "rm", "mv", "config",
                   "commit", "am", "merge", "rebase", "pull", "bisect"))


def _matters(call: "GitCall", rules: "Rules") -> bool:
    """Could a word of the call that is not known change what git-guard decides?"""
    if call.sub is None or git_cli.is_unknown(call.sub) or call.sub not in git_cli.COMMANDS:
        return True
    if any(git_cli.is_unknown(value) for _, value in call.config):
        return True
    if any(rule.patterns for rule in rules()):
        return True
    return call.sub in RULED and bool(call.options.unknown())


def check_text(text: str, options: "Options", rules: "list[Rule] | Rules | None" = None,
               cwd: "str | None" = None) -> "str | None":
    """Deny reason for the first dangerous command a shell command string runs, or None."""
    return decide(text, options, rules, cwd).reason
