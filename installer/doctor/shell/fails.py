"""Commands whose failure is an ordinary outcome: the state of the world decides it (a branch
without upstream, a detached HEAD, a grep that matches nothing, a service that is down, a test
that is false), not a mistake in the script. Under `set -e` or an ERR trap that exits, such a
command ends the script with its own status wherever it runs outside a test.

Each entry gives why it fails and the status it fails with ("" where it varies)."""
from __future__ import annotations

from ...patterns import lazy
from ...records import Record

GREPS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "zgrep", "pgrep"})  # exit 1 when nothing matches
TESTS = frozenset({"[", "[[", "test"})
DIFFS = frozenset({"diff", "cmp"})  # exit 1 when the files differ
LOOKUPS = frozenset({"which", "type"})  # exit 1 when the command is not there
FETCHES = frozenset({"curl", "wget"})  # a service that is down, a 4xx/5xx with -f
JQ_EXIT_STATUS = lazy(r"-[a-zA-Z]*e[a-zA-Z]*$|--exit-status$")
READ_TO_NUL = lazy(r"-[a-zA-Z]*d$")  # `read -d ''`: reads to a NUL that never comes, and fails at the end
# git: a revision that may not exist (an upstream, a remote branch, a reflog entry)
GIT_REVISION = lazy(r"@\{|^origin/|^upstream/|^refs/remotes/|^FETCH_HEAD$|^ORIG_HEAD$|^MERGE_HEAD$")
GIT_ALWAYS = {  # subcommands that fail as an answer or on a state of the repository: (why, status)
    "symbolic-ref": ("fails with 128 on a detached HEAD (a rebase, a bisect, a checked-out tag)", "128"),
    "merge-base": ("fails when the branches share no commit or a name does not resolve (and `--is-ancestor` "
                   "answers no with 1)", "1"),
    "describe": ("fails with 128 where no tag is reachable", "128"),
    "show-ref": ("exits 1 when no ref matches", "1"),
    "ls-remote": ("fails when the remote cannot be reached", "128"),
    "fetch": ("fails when the remote cannot be reached (offline, no such remote, no access)", "128"),
    "pull": ("fails when the remote cannot be reached or the merge stops on a conflict", "1"),
    "push": ("fails when the remote refuses or cannot be reached", "1"),
}
GIT_QUIET_DIFF = frozenset({"diff", "diff-index", "diff-files"})


class Failure(Record):
    why: str
    status: str  # the status it ends the script with, "" where it varies
    subject: str = ""  # what it depends on (a revision, a key, a file): a test of it before may guard it


def ordinary_failure(words: list[str], outside_git: bool = False) -> Failure | None:
    """Why a simple command (its words, redirections left out) can fail as an ordinary outcome
    (`outside_git`: the hook runs in a folder that is in no git repository)."""
    if not words:
        return None
    head, args = words[0].rsplit("/", 1)[-1], words[1:]
    if head == "git" and outside_git:
        failure = _outside_a_repository(args)
        if failure is not None:
            return failure
    if head in GREPS:
        return Failure(f"`{head}` exits 1 when nothing matches", "1")
    if head in TESTS:
        return Failure(f"`{' '.join(words)[:40]}` is a test written as a command: it fails with 1 when false", "1")
    if head in DIFFS:
        return Failure(f"`{head}` exits 1 when the files differ", "1")
    if head in LOOKUPS or (head == "command" and args[:1] in (["-v"], ["-V"])):
        return Failure(f"`{' '.join(words[:3])}` exits 1 when the command is not installed", "1")
    if head in FETCHES:
        return Failure(f"`{head}` fails when the service is down or, with -f, answers an error", "")
    if head == "jq" and any(JQ_EXIT_STATUS.match(a) for a in args):
        return Failure("`jq -e` exits 1 when the value is null or false", "1")
    if head == "read" and any(READ_TO_NUL.match(a) and following in ("", "\\0", "$'\\0'")
                              for a, following in zip(args, args[1:])):
        return Failure("`read -d ''` reaches the end of its input before a NUL and returns 1", "1")
    if head == "mkdir" and not any(a.startswith("-") and not a.startswith("--") and "p" in a or a == "--parents"
                                   for a in args):
        return Failure("`mkdir` without -p fails when the folder is already there (every run after the first)", "1")
    if head == "git":
        return _git(args)
    return None


def _revision(text: str) -> str:
    """The name a revision range or expression depends on (`@{u}..HEAD`: `@{u}`)."""
    for part in text.replace("...", "..").split(".."):
        if GIT_REVISION.search(part):
            return part
    return text


def _git(args: list[str]) -> Failure | None:
    index = 0
    while index < len(args) and args[index].startswith("-"):  # git's own options: -C dir, -c k=v
        index += 2 if args[index] in ("-C", "-c", "--git-dir", "--work-tree") else 1
    if index >= len(args):
        return None
    sub, rest = args[index], args[index + 1:]
    if sub in GIT_ALWAYS:
        why, status = GIT_ALWAYS[sub]
        return Failure(f"`git {sub}` {why}", status)
    if sub == "describe" and "--always" not in rest:
        return Failure("`git describe` fails with 128 where no tag is reachable", "128")
    revisions = [a for a in rest if not a.startswith("-")]
    if sub in ("rev-parse", "rev-list", "log", "show", "cat-file", "diff", "diff-tree", "cherry") and (
            any(GIT_REVISION.search(r) for r in revisions) or (sub == "rev-parse" and "--verify" in rest)
            or (sub == "cat-file" and "-e" in rest)):
        named = next((r for r in revisions if GIT_REVISION.search(r)), revisions[-1] if revisions else "")
        return Failure(f"`git {sub} {' '.join(rest)[:40]}` fails with 128 where that revision does not exist "
                       "(a branch without upstream, a remote not fetched)", "128", _revision(named))
    if sub == "config" and ({"--get", "--get-all", "--get-regexp"} & set(rest) or len(revisions) == 1):
        return Failure(f"`git config {' '.join(revisions)[:30]}` exits 1 when the key is not set", "1",
                       revisions[0] if revisions else "")
    if sub in GIT_QUIET_DIFF and {"--quiet", "--exit-code"} & set(rest):
        return Failure(f"`git {sub} --quiet` exits 1 when there are changes", "1")
    if sub == "remote" and rest[:1] in (["get-url"], ["show"]):
        return Failure(f"`git remote {rest[0]}` fails when the remote is not configured (or, for show, not reached)",
                       "2" if rest[0] == "get-url" else "128")
    if sub == "ls-files" and "--error-unmatch" in rest:
        return Failure("`git ls-files --error-unmatch` fails for a file git does not track", "1")
    return None


# what git runs outside a repository (git 2.39: `git init`, `clone`, `config --global`... need none)
GIT_WITHOUT_A_REPOSITORY = frozenset({"init", "clone", "version", "help", "config", "ls-remote", "hash-object",
                                      "var", "credential", "archive", "check-ref-format", "stripspace", "bugreport"})


def _outside_a_repository(args: list[str]) -> Failure | None:
    """A git command that needs a repository, run where there is none (and no -C or --git-dir
    names one): git 2.39 ends it with 128, "not a git repository"."""
    if any(a in ("-C", "--git-dir", "--work-tree") or a.startswith(("--git-dir=", "--work-tree=")) for a in args):
        return None
    sub = next((a for a in args if not a.startswith("-")), None)
    if sub is None or sub in GIT_WITHOUT_A_REPOSITORY or "--version" in args:
        return None
    return Failure(f"`git {sub}` fails with 128 here: the folder the hook runs in is not in a git repository "
                   "(no .git above it), and git needs one", "128", "git ")
