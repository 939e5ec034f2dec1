"""git's command line, read as git itself reads it (git.c and parse-options), for git-guard.

`parse_git(args)` turns the words after `git` into a `GitCall`: the global options (`-C`,
`-c key=value`, `--git-dir`, ...), the subcommand (also from a dashed `git-reset`, or an alias
that `-c alias.<name>=...` defines), and its arguments. `GitCall.options(sub)` then reads the
arguments with the subcommand's option table the way parse-options does: long options
abbreviated to any unique prefix (`--har` is `--hard`), `--no-<name>` negations, short options
clustered (`-fdx`) with a value stuck on or in the next word (`-mmsg`, `-m msg`), options after
positionals, `--` and `--end-of-options`. An abbreviation git would call ambiguous counts as
each option it could be, but never as one that only makes a command safer (`--dry-run`): git
refuses it today, and an older git with fewer options may take it.

A word the shell reader could not work out is not a `str` but a subclass of it
(shell_reader.Unknown); the reading keeps it as a word and `GitCall.unknown` says where one
could change what git does. Stdlib only, Python >= 3.8.
"""
import os

from shell_reader import quote, split_words

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:

    Occurrence = tuple[str, "str | None", bool, bool]  # (option name, its value, positive, certain)

# Global options that take the next word as their value (git.c handle_options); `--name=value` works too.
GLOBAL_WITH_VALUE = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix",
                               "--config-env", "--attr-source"))
GLOBAL_PRINTS = frozenset(("--exec-path", "--html-path", "--man-path", "--info-path"))  # print a path, run nothing
HELP = frozenset(("-h", "--help", "-v", "--version"))  # `git --help reset` shows a page, runs nothing

# Each subcommand's options as `git <sub> --help-all` lists them (git 2.39; a test compares):
# `s|name` a short and a long spelling, `=` takes a value (the next word, or `--name=value`),
# `?` takes one only when stuck on (`--name=value`, `-Xvalue`).
SPECS = {
    "reset": "q|quiet no-refresh mixed soft hard merge keep recurse-submodules? p|patch N|intent-to-add "
             "pathspec-from-file= pathspec-file-nul",
    "checkout": "b= B= l guess overlay q|quiet recurse-submodules? progress m|merge conflict= d|detach t|track? "
                "f|force orphan= overwrite-ignore ignore-other-worktrees 2|ours 3|theirs p|patch "
                "ignore-skip-worktree-bits pathspec-from-file= pathspec-file-nul",
    "switch": "c|create= C|force-create= guess discard-changes q|quiet recurse-submodules? progress m|merge "
              "conflict= d|detach t|track? f|force orphan= overwrite-ignore ignore-other-worktrees",
    "restore": "s|source= S|staged W|worktree ignore-unmerged overlay q|quiet recurse-submodules? progress "
               "m|merge conflict= 2|ours 3|theirs p|patch ignore-skip-worktree-bits pathspec-from-file= "
               "pathspec-file-nul",
    "clean": "q|quiet n|dry-run f|force i|interactive d e|exclude= x X",
    "push": "v|verbose q|quiet repo= all branches mirror d|delete tags n|dry-run porcelain f|force force-with-lease? "
            "force-if-includes recurse-submodules= thin receive-pack= exec= u|set-upstream progress prune no-verify "
            "follow-tags signed? atomic o|push-option= 4|ipv4 6|ipv6",
    "send-pack": "all mirror dry-run f|force receive-pack= exec= remote= v|verbose q|quiet thin stateless-rpc stdin "
                 "helper-status force-with-lease? force-if-includes signed? atomic push-option= progress",
    "branch": "v|verbose q|quiet t|track? set-upstream u|set-upstream-to= unset-upstream color? r|remotes contains= "
              "no-contains= with= without= abbrev? a|all d|delete D m|move M c|copy C l|list show-current "
              "create-reflog edit-description f|force merged= no-merged= column? sort= points-at= i|ignore-case "
              "recurse-submodules format= omit-empty",
    "tag": "l|list n? d|delete v|verify a|annotate m|message= F|file= trailer= e|edit s|sign cleanup= "
           "u|local-user= f|force create-reflog column? contains= no-contains= with= without= merged= no-merged= "
           "sort= points-at= format= color? i|ignore-case omit-empty",
    "stash": "p|patch S|staged k|keep-index q|quiet u|include-untracked a|all m|message= pathspec-from-file= "
             "pathspec-file-nul only-untracked index",
    "rm": "n|dry-run q|quiet cached f|force r ignore-unmatch sparse pathspec-from-file= pathspec-file-nul",
    "mv": "v|verbose n|dry-run f|force k sparse",
    "worktree": "f|force n|dry-run v|verbose expire= reason= d|detach checkout lock orphan q|quiet track "
                "guess-remote b= B= porcelain z",
    "reflog": "expire? expire-unreachable? rewrite updateref stale-fix n|dry-run verbose all single-worktree",
    "gc": "q|quiet prune? cruft max-cruft-size= aggressive auto detach force keep-largest-pack",
    "prune": "n|dry-run v|verbose progress expire= exclude-promisor-objects",
    "repack": "a A d l f F q|quiet n window= depth= threads= window-memory= max-pack-size= k|keep-unreachable "
              "pack-kept-objects b|write-bitmap-index i|delta-islands keep-pack= g|geometric= m|write-midx "
              "unpack-unreachable= cruft cruft-expiration= max-cruft-size= filter= filter-to= expire-to= "
              "keep-largest-pack",
    "update-ref": "m= d no-deref z stdin create-reflog",
    "symbolic-ref": "q|quiet d|delete short recurse m=",
    "replace": "l|list d|delete e|edit g|graft convert-graft-file f|force raw format=",
    "fetch": "v|verbose q|quiet all set-upstream a|append atomic upload-pack= f|force m|multiple t|tags n "
             "j|jobs= prefetch p|prune P|prune-tags recurse-submodules? dry-run porcelain write-fetch-head "
             "k|keep u|update-head-ok progress depth= shallow-since= shallow-exclude= deepen= unshallow refetch "
             "submodule-prefix= recurse-submodules-default= update-shallow refmap= o|server-option= 4|ipv4 "
             "6|ipv6 negotiation-tip= negotiate-only filter= auto-maintenance auto-gc show-forced-updates "
             "write-commit-graph stdin",
    "commit": "q|quiet v|verbose F|file= author= date= m|message= c|reedit-message= C|reuse-message= fixup= "
              "squash= reset-author trailer= s|signoff t|template= e|edit cleanup= status S|gpg-sign? a|all "
              "i|include interactive p|patch o|only n|no-verify dry-run short branch ahead-behind porcelain long "
              "z|null amend no-post-rewrite u|untracked-files? pathspec-from-file= pathspec-file-nul allow-empty "
              "allow-empty-message",
    "merge": "n stat summary log? squash commit e|edit cleanup= ff ff-only rerere-autoupdate verify-signatures "
             "s|strategy= X|strategy-option= m|message= F|file= into-name= v|verbose q|quiet abort quit continue "
             "allow-unrelated-histories progress S|gpg-sign? autostash overwrite-ignore signoff no-verify",
    "rebase": "onto= keep-base no-verify q|quiet v|verbose n|no-stat signoff committer-date-is-author-date "
              "reset-author-date ignore-whitespace whitespace= C= f|force-rebase no-ff continue skip abort quit "
              "edit-todo show-current-patch m|merge apply i|interactive rerere-autoupdate empty= autosquash "
              "S|gpg-sign? autostash x|exec= r|rebase-merges? fork-point s|strategy= X|strategy-option= root "
              "reschedule-failed-exec update-refs stat",
    "am": "i|interactive b|binary 3|3way q|quiet s|signoff utf8 k|keep keep-non-patch m|message-id "
          "keep-cr no-keep-cr c|scissors whitespace= ignore-space-change ignore-whitespace directory= exclude= "
          "include= C= p= patch-format= reject resolvemsg= continue r|resolved skip abort quit show-current-patch? "
          "allow-empty committer-date-is-author-date ignore-date rerere-autoupdate S|gpg-sign? empty= "
          "n|no-verify quoted-cr=",
    "cherry-pick": "quit continue abort skip cleanup= n|no-commit e|edit s|signoff m|mainline= rerere-autoupdate "
                   "s|strategy= X|strategy-option= S|gpg-sign? ff allow-empty allow-empty-message keep-redundant-commits "
                   "x r",
    "revert": "quit continue abort skip cleanup= n|no-commit e|edit s|signoff m|mainline= rerere-autoupdate "
              "strategy= X|strategy-option= S|gpg-sign? reference",
    "pull": "v|verbose q|quiet progress recurse-submodules? r|rebase? n stat summary log? signoff? squash commit "
            "edit cleanup= ff ff-only verify verify-signatures autostash s|strategy= X|strategy-option= "
            "S|gpg-sign? allow-unrelated-histories all a|append upload-pack= f|force t|tags p|prune j|jobs? "
            "dry-run k|keep depth= shallow-since= shallow-exclude= deepen= unshallow update-shallow refmap= "
            "o|server-option= 4|ipv4 6|ipv6 negotiation-tip= show-forced-updates set-upstream no-verify",
    "read-tree": "index-output= empty v n|dry-run m reset prefix= u i trivial aggressive exclude-per-directory= "
                 "recurse-submodules? q|quiet",
    "checkout-index": "a|all f|force q|quiet n|no-create u|index z stdin temp ignore-skip-worktree-bits prefix= "
                      "stage=",
    "submodule": "q|quiet cached f|force all recursive N|no-fetch checkout merge rebase init remote depth= "
                 "reference= dissociate recommend-shallow single-branch filter= j|jobs= b|branch= name= "
                 "progress require-init",
    "filter-repo": "analyze dry-run force",
    "config": "global system local worktree f|file= blob= get get-all get-regexp get-urlmatch replace-all add "
              "unset unset-all rename-section remove-section l|list fixed-value e|edit get-color= get-colorbool= "
              "type= bool int bool-or-int path expiry-date no-type z|null name-only includes show-origin "
              "show-scope default= comment= all value= regexp url=",
}
# options whose value cannot change what git-guard decides (a message, a format, an author)
HARMLESS_VALUES = frozenset(("message", "m", "file", "F", "author", "date", "template", "reuse-message",
                             "reedit-message", "trailer", "cleanup", "format", "sort", "color", "conflict",
                             "strategy", "strategy-option", "gpg-sign", "local-user", "fixup", "squash", "reason"))

# The subcommands that are a set of subcommands: (theirs, the one that runs when none is named).
ACTIONS = {
    "stash": ("list show drop pop apply branch push save clear create store", "push"),
    "worktree": ("add list lock move prune remove repair unlock", None),
    "reflog": ("show expire delete exists drop list", "show"),
    "submodule": ("add status init deinit update set-branch set-url summary foreach sync absorbgitdirs", "status"),
    "config": ("list get set unset rename-section remove-section edit get-color get-colorbool", None),
    "remote": ("add rename remove rm set-head set-branches get-url set-url show prune update", None),
}

_tables: "dict[str, tuple[dict[str, str], dict[str, tuple[str, str]]]]" = {}


def _table(sub: str) -> "tuple[dict[str, str], dict[str, tuple[str, str]]]":
    """(long name -> arity, short letter -> (long name, arity)) of a subcommand, built on first use.

    Arity is "" (a flag), "=" (takes a value) or "?" (takes one only when stuck on).
    """
    table = _tables.get(sub)
    if table is None:
        longs: "dict[str, str]" = {}
        shorts: "dict[str, tuple[str, str]]" = {}
        for entry in SPECS.get(sub, "").split():
            arity = entry[-1] if entry[-1] in "=?" else ""
            names = entry[:len(entry) - len(arity)]
            short, bar, long = names.partition("|")
            if not bar and len(names) == 1:
                short, long = names, names  # a short option without a long one goes by its letter
            elif not bar:
                short, long = "", names
            if len(long) > 1:
                longs[long] = arity
            if short:
                shorts[short] = (long, arity)
        table = _tables[sub] = (longs, shorts)
    return table


def _resolve_long(given: str, longs: "dict[str, str]") -> "list[tuple[str, bool]]":
    """The options `--given` may be: [(name, positive)], exact first, else every unique-prefix reading."""
    if given in longs:
        return [(given, True)]
    if given.startswith("no-") and given[3:] in longs and not given[3:].startswith("no-"):
        return [(given[3:], False)]
    if "no-" + given in longs:
        return [("no-" + given, False)]
    found = []
    for name in longs:
        if name.startswith(given):
            found.append((name, True))
        if not name.startswith("no-") and ("no-" + name).startswith(given):
            found.append((name, False))
        elif name.startswith("no-") and name[3:].startswith(given):
            found.append((name, False))
    return found if found else [(given, True)]  # an option git does not know: kept under its own name


class Parsed(object):
    """A subcommand's arguments as parse-options reads them."""

    def __init__(self) -> None:
        self.occurrences: "list[Occurrence]" = []
        self.positionals: "list[str]" = []
        self.after_dashdash: "list[str]" = []  # the words after `--` (paths, for most subcommands)
        self.dashdash = False
        self.help = False  # `-h`: git prints the usage and runs nothing

    def on(self, *names: str) -> bool:
        """Was any of these options given (its last spelling not negated)? Ambiguous readings count."""
        return any(self._last(name, certain_only=False) for name in names)

    def surely(self, *names: str) -> bool:
        """Like `on`, but only for options git reads without doubt (for what makes a command safe)."""
        return any(self._last(name, certain_only=True) for name in names)

    def _last(self, name: str, certain_only: bool) -> bool:
        for option, _, positive, certain in reversed(self.occurrences):
            if option == name and (certain or not certain_only):
                return positive
        return False

    def values(self, name: str) -> "list[str]":
        return [value for option, value, positive, _ in self.occurrences
                if option == name and positive and value is not None]

    def unknown(self) -> "list[str]":
        """Words not known to the shell reader where they may change what git does: positionals,
        options, and the values of options other than messages and formats."""
        found = [word for word in self.positionals + self.after_dashdash if is_unknown(word)]
        return found + [value for name, value, _, _ in self.occurrences
                        if value is not None and is_unknown(value) and name not in HARMLESS_VALUES]

    def given(self, name: str) -> bool:
        """Was it spelled at all, negated or not (a `--prune` with or without a date)?"""
        return any(option == name for option, _, _, _ in self.occurrences)


def parse_options(sub: str, args: "list[str]", stop_at_positional: bool = False) -> Parsed:
    """Read `args` with `sub`'s option table. `stop_at_positional`: everything from the first
    positional on is positional (git's PARSE_OPT_STOP_AT_NON_OPTION, as `submodule foreach` has)."""
    longs, shorts = _table(sub)
    parsed = Parsed()
    i = 0
    while i < len(args):
        word = args[i]
        i += 1
        if word == "--":
            parsed.dashdash = True
            parsed.after_dashdash = args[i:]
            break
        if word == "--end-of-options":
            parsed.positionals += args[i:]
            break
        if type(word) is not str or not word.startswith("-") or word == "-":
            parsed.positionals.append(word)
            if stop_at_positional:
                parsed.positionals += args[i:]
                break
            continue
        if word.startswith("--"):
            given, eq, value = word[2:].partition("=")
            readings = _resolve_long(given, longs)
            certain = len(readings) == 1
            for name, positive in readings:
                arity = longs.get(name, "")
                taken: "str | None" = value if eq else None
                if positive and arity == "=" and not eq and certain and i < len(args):
                    taken = args[i]
                    i += 1
                parsed.occurrences.append((name, taken, positive, certain))
            continue
        if word == "-h" and "h" not in shorts:
            parsed.help = True
            continue
        for j in range(1, len(word)):
            letter = word[j]
            name, arity = shorts.get(letter, (letter, ""))
            rest = word[j + 1:]
            if arity == "=":
                if rest:
                    parsed.occurrences.append((name, rest, True, True))
                elif i < len(args):
                    parsed.occurrences.append((name, args[i], True, True))
                    i += 1
                else:
                    parsed.occurrences.append((name, None, True, True))
                break
            if arity == "?":
                parsed.occurrences.append((name, rest or None, True, True))
                break
            parsed.occurrences.append((name, None, True, True))
    return parsed


# ---- the call: global options, subcommand, aliases ----------------------------------------------

# git's own commands (`git help -a`, git 2.39): an alias named like one of them is never used, and
# `git-<name>` (as in `$(git --exec-path)/git-reset`) runs it.
COMMANDS = frozenset((
    "add am annotate apply archimport archive bisect blame branch bugreport bundle cat-file check-attr "
    "check-ignore check-mailmap check-ref-format checkout checkout-index cherry cherry-pick citool clean "
    "clone column commit commit-graph commit-tree config count-objects credential credential-cache "
    "credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff diff-files diff-index "
    "diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref "
    "for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id gitk gitweb grep gui "
    "hash-object help hook http-backend http-fetch http-push imap-send index-pack init init-db instaweb "
    "interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base "
    "merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive merge-resolve "
    "merge-subtree merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes p4 pack-objects "
    "pack-redundant pack-refs patch-id prune prune-packed pull push quiltimport range-diff read-tree rebase "
    "receive-pack reflog remote remote-ext remote-fd remote-ftp remote-ftps remote-http remote-https repack "
    "replace request-pull rerere reset restore rev-list rev-parse revert rm send-email send-pack "
    "sh-i18n--envsubst shell shortlog show show-branch show-index show-ref sparse-checkout stage stash "
    "status stripspace submodule svn switch symbolic-ref tag unpack-file unpack-objects update-index "
    "update-ref update-server-info upload-archive upload-pack var verify-commit verify-pack verify-tag "
    "version web--browse whatchanged worktree write-tree").split())
MAX_ALIASES = 8  # git stops at an alias loop; we stop here


def is_unknown(word: str) -> bool:
    """A word the shell reader could not work out (shell_reader.Unknown)."""
    return type(word) is not str


class GitCall(object):
    """One run of git: its `-c` settings, where it runs, the subcommand and its arguments."""

    def __init__(self, sub: "str | None", args: "list[str]", config: "list[tuple[str, str]]", cwd: "str | None",
                 git_dir: "str | None" = None, alias: "str | None" = None, raw_config: "list[str] | None" = None,
                 program: str = "git") -> None:
        self.program = program  # "git", or "rm" for the one rule that reads another program
        self.sub = sub  # None: git runs no subcommand (`git --version`, `git -C x`)
        self.raw_config = raw_config or []  # each -c as written
        self.args = args
        self.config = config  # (key lowercased as git compares it, value), in order
        self.cwd = cwd  # the folder git works in (after -C), when it is known
        self.git_dir = git_dir
        self.alias = alias  # the alias this call came from, if any
        self._parsed: "Parsed | None" = None

    @property
    def action(self) -> "str | None":
        """Which of its own subcommands stash, worktree, reflog, submodule, config or remote runs
        (`stash drop`), or the one that runs when none is named; None for other subcommands."""
        return self._split()[0]

    @property
    def options(self) -> Parsed:
        """The arguments read with the subcommand's option table (after the action, if it has one)."""
        if self._parsed is None:
            action, rest = self._split()
            self._parsed = parse_options(self.sub or "", rest, stop_at_positional=action == "foreach")
        return self._parsed

    def _split(self) -> "tuple[str | None, list[str]]":
        """(the action, the arguments after it); `git submodule --quiet foreach ...` has options first."""
        known = ACTIONS.get(self.sub or "")
        if known is None:
            return None, self.args
        names, default = known
        for i, word in enumerate(self.args):
            if is_unknown(word) or not word.startswith("-"):
                if word in names.split():
                    return word, self.args[:i] + self.args[i + 1:]
                if self.sub == "config" or (i == 0 and self.sub != "submodule"):
                    break
                return word, self.args[i + 1:]
            if self.sub not in ("submodule", "config"):
                break
        return default, self.args

    def setting(self, key: str) -> "str | None":
        """The last value a `-c` gave to `key` (lowercase section and name)."""
        found = None
        for name, value in self.config:
            if name == key:
                found = value
        return found

    def text(self) -> str:
        """`git <sub> <args>` with every run of whitespace one space: what a rules file's regexes see."""
        return " ".join(" ".join(["git", self.sub or ""] + self.args).split())

    def unknown(self) -> "list[str]":
        """The words of the call the shell reader could not work out."""
        return [word for word in [self.sub or ""] + self.args if is_unknown(word)] + \
            [value for _, value in self.config if is_unknown(value)]


def config_key(setting: str) -> "tuple[str, str]":
    """`Section.sub.Name=value` as git compares keys: section and name lowercase, the middle as written."""
    key, eq, value = setting.partition("=")
    if not eq:
        value = "true"  # `-c core.bare` means true
    section, _, rest = key.partition(".")
    middle, dot, name = rest.rpartition(".")
    key = section.lower() + "." + (middle + dot if dot else "") + name.lower()
    return key, value


def env_config(env: "dict[str, str]") -> "list[tuple[str, str]]":
    """Settings given in the environment: GIT_CONFIG_COUNT with GIT_CONFIG_KEY_<n>/VALUE_<n>, and
    GIT_CONFIG_PARAMETERS (what `git -c` hands to the git it starts)."""
    found: "list[tuple[str, str]]" = []
    text = env.get("GIT_CONFIG_PARAMETERS")
    if text:
        for word in split_words(text):
            found.append(config_key(word))
    count = env.get("GIT_CONFIG_COUNT", "")
    if count.isdigit():
        for n in range(min(int(count), 64)):
            key = env.get("GIT_CONFIG_KEY_%d" % n)
            if key:
                found.append(config_key("%s=%s" % (key, env.get("GIT_CONFIG_VALUE_%d" % n, ""))))
    return found


def parse_git(args: "list[str]", cwd: "str | None" = None, env: "dict[str, str] | None" = None) -> GitCall:
    """Read `git [global options] <sub> [args]` (the words after `git`), following aliases `-c` defines."""
    env = env or {}
    config = env_config(env) if "GIT_CONFIG_COUNT" in env or "GIT_CONFIG_PARAMETERS" in env else []
    raw: "list[str]" = []
    git_dir = env.get("GIT_DIR")
    i = 0
    while i < len(args):
        word = args[i]
        if is_unknown(word) or not word.startswith("-"):
            break
        name, eq, value = word.partition("=")
        if word in HELP:
            return GitCall("help", [], config, cwd, git_dir, raw_config=raw)
        if word in GLOBAL_PRINTS:
            return GitCall(None, [], config, cwd, git_dir, raw_config=raw)
        if name in GLOBAL_WITH_VALUE and (eq or word in ("-C", "-c") or name == word):
            if not eq:
                i += 1
                value = args[i] if i < len(args) else ""
            if name == "-C" and cwd is not None and not is_unknown(value):
                cwd = os.path.join(cwd, os.path.expanduser(value)) if value else cwd
            elif name == "-c":
                config.append(config_key(value))
                raw.append(value)
            elif name == "--config-env":
                key, _, variable = value.partition("=")
                config.append(config_key("%s=%s" % (key, env.get(variable, ""))))
            elif name == "--git-dir":
                git_dir = value
        i += 1
    if i >= len(args):
        return GitCall(None, [], config, cwd, git_dir, raw_config=raw)
    sub, rest = args[i], args[i + 1:]
    if rest[:1] == ["--help"]:  # git.c: `git <sub> --help` is `git help <sub>`
        return GitCall("help", [sub], config, cwd, git_dir, raw_config=raw)
    sub, rest, alias = _expand_alias(sub, rest, config)
    return GitCall(sub, rest, config, cwd, git_dir, alias, raw)


def _expand_alias(sub: str, rest: "list[str]", config: "list[tuple[str, str]]") -> "tuple[str, list[str], str | None]":
    """(subcommand, arguments, the alias they came from) once the aliases `-c` defines are expanded;
    a `!` alias is shell text (shell_alias) and stays as it is."""
    alias = None
    for _ in range(MAX_ALIASES):
        if is_unknown(sub) or sub in COMMANDS or sub in SPECS:
            break
        value = None
        for key, setting in config:
            if key == "alias." + sub.lower():
                value = setting
        if value is None or value.startswith("!") or is_unknown(value):
            break
        words = split_words(value)
        if not words:
            break
        alias = alias or sub
        sub, rest = words[0], words[1:] + rest
    return sub, rest, alias


def shell_alias(call: GitCall) -> "str | None":
    """The shell text a `!` alias from `-c alias.<name>=!...` runs (git appends the arguments)."""
    if call.sub is None or is_unknown(call.sub) or call.sub in COMMANDS:
        return None
    value = call.setting("alias." + call.sub.lower())
    if value is None or is_unknown(value) or not value.startswith("!"):
        return None
    return " ".join([value[1:]] + [quote(word) for word in call.args])


# ---- the repository on disk: which refs exist -----------------------------------------------------

def find_git_dir(start: "str | None", git_dir: "str | None" = None) -> "str | None":
    """The repository's common git folder (where refs live) for a folder git works in, or None."""
    found = os.path.join(start or "", git_dir) if git_dir else _nearest_git(start)
    if found is None:
        return None
    if os.path.isfile(found):  # a worktree or submodule: "gitdir: <path>"
        try:
            with open(found, encoding="utf-8") as handle:
                line = handle.read(4096).strip()
        except (OSError, ValueError):
            return None
        if not line.startswith("gitdir:"):
            return None
        found = os.path.join(os.path.dirname(found), line[7:].strip())
    try:
        with open(os.path.join(found, "commondir"), encoding="utf-8") as handle:
            found = os.path.join(found, handle.read(4096).strip())
    except (OSError, ValueError):
        pass
    return found if os.path.isdir(found) else None


def _nearest_git(folder: "str | None") -> "str | None":
    """The `.git` (a folder, or a worktree's file) of the nearest folder up from `folder` that has one."""
    for _ in range(64):
        if not folder:
            return None
        candidate = os.path.join(folder, ".git")
        if os.path.isdir(candidate) or os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


def ref_exists(git_dir: str, refs: "list[str]") -> "bool | None":
    """Does any of these full ref names exist? None when the refs cannot be read (reftable)."""
    if os.path.isdir(os.path.join(git_dir, "reftable")):
        return None
    for ref in refs:
        if os.path.isfile(os.path.join(git_dir, ref)):
            return True
    try:
        with open(os.path.join(git_dir, "packed-refs"), encoding="utf-8", errors="replace") as handle:
            wanted = set(refs)
            for line in handle:
                parts = line.split()
                if len(parts) == 2 and parts[1] in wanted:
                    return True
    except OSError:
        pass
    return False


def names_ref(git_dir: str, name: str) -> "bool | None":
    """Would git read `name` as a branch, tag or remote-tracking branch (`git checkout <name>`'s guess too)?"""
    refs = ["refs/heads/" + name, "refs/tags/" + name, "refs/remotes/" + name, name]
    try:
        remotes = os.listdir(os.path.join(git_dir, "refs", "remotes"))
    except OSError:
        remotes = []
    refs += ["refs/remotes/%s/%s" % (remote, name) for remote in remotes]
    return ref_exists(git_dir, refs)
