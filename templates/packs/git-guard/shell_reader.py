"""What a Bash command string runs, read as bash reads it, for git-guard.

`Reader().commands(text, cwd)` yields every simple command the text may run, as a `Run`: its
words after expansion, the variables set for it, the folder it runs in and what it reads on
stdin. It parses the text into bash's grammar (lists, pipelines, `( )`, `{ }`, if/while/for/
case, functions, here-documents) and follows it as bash would, without running anything:

- variables and arrays assigned earlier in the command, `export`, `${x:-default}` and the other
  expansions, `$@` in `sh -c '...' name args` and in functions, word splitting, brace expansion,
  `$'\\x67it'`; a variable set in one branch of an `if` keeps every value it may have;
- commands inside `$( )`, backticks, `<( )`, subshells and functions (when called), aliases;
- what launches another command: sudo, env, nohup, timeout, xargs (with the items it reads),
  `find -exec`, `bash -c`, a shell reading a here-document, a here-string, a pipe or a script
  file (also one the command itself wrote), `eval`, `source`;
- the output of the few programs whose output can be known without running them (echo,
  printf, cat, base64 -d, xxd -r -p, rev, which), where it becomes a program's input or a word.

A plain command (one simple command of plain words, whose program starts no other) is read
here; any other text loads the whole of bash's grammar and its following (shell_follow.py),
whose byte-code costs more to load than the rest of the hook.

What it cannot work out it says: a word whose value it does not know is an `Unknown` (a
`str` holding the word as written), and `Reader.notes` says what it could not follow (a
program named by a variable set elsewhere, a shell reading what another program prints, a
script too long, text that is not valid shell). Cost is linear in the text, and bounded:
nesting, loop values, branches and the total text followed all have limits, past which it
notes what it left. Stdlib only, Python >= 3.8.
"""

TYPE_CHECKING = False  # mypy takes any name TYPE_CHECKING for true; typing is not loaded at run time
if TYPE_CHECKING:
    from collections.abc import Iterator

    from shell_follow import Follower

MAX_DEPTH = 8  # nesting of bash -c, eval, $( ), functions, scripts
MAX_TEXT = 512 << 10  # total characters read, scripts included
MAX_SCRIPT = 256 << 10  # a script file longer than this is not read
MAX_VARIANTS = 16  # argument lists one command may expand to (a variable with several possible values)
MAX_VALUES = 4  # possible values kept per variable
MAX_LOOP = 32  # values of a for loop followed one by one
MAX_NOTES = 16  # things it could not follow, said
MAX_STEPS = 4000  # simple commands followed in all (loops, branches and functions multiply them)

SHELLS = frozenset(("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox", "rbash", "yash", "posh"))
INTERPRETERS = {"python": "-c", "python2": "-c", "python3": "-c", "perl": "-e", "ruby": "-e", "node": "-e",
                "nodejs": "-e", "php": "-r", "deno": "eval", "bun": "-e", "osascript": "-e", "pwsh": "-c",
                "powershell": "-c", "fish": "-c", "tclsh": "", "lua": "-e"}
# wrapper -> (short options taking a value, long options taking a value, positionals before the command)
WRAPPERS = {
    "sudo": ("ugCDhpRrtTU", ("--user", "--group", "--chdir", "--host", "--prompt", "--role", "--type",
                             "--other-user", "--close-from", "--command-timeout"), 0),
    "doas": ("uC", (), 0),
    "env": ("uCS", ("--unset", "--chdir", "--split-string"), 0),
    "command": ("", (), 0),
    "builtin": ("", (), 0),
    "nohup": ("", (), 0),
    "time": ("fo", ("--format", "--output"), 0),
    "exec": ("a", (), 0),
    "nice": ("n", ("--adjustment",), 0),
    "ionice": ("cnp", ("--class", "--classdata", "--pid"), 0),
    "chrt": ("", (), 1),
    "taskset": ("", (), 1),
    "timeout": ("sk", ("--signal", "--kill-after"), 1),
    "stdbuf": ("ioe", ("--input", "--output", "--error"), 0),
    "setsid": ("", (), 0),
    "unbuffer": ("", (), 0),
    "chronic": ("", (), 0),
    "caffeinate": ("tw", (), 0),
    "flock": ("wEc", ("--timeout", "--conflict-exit-code", "--command"), 1),
    "watch": ("nd", ("--interval", "--differences"), 0),
    "xargs": ("adEILnPsl", ("--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
                            "--process-slot-var", "--eof", "--replace", "--max-lines"), 0),
    "su": ("cgGs", ("--command", "--group", "--supp-group", "--shell"), 0),
    "runuser": ("cgGs", ("--command", "--group", "--supp-group", "--shell"), 0),
    "script": ("cEeT", ("--command", "--echo", "--timing", "--log-io", "--log-in", "--log-out"), 0),
}
RUNS_STRING = {"su": ("-c", "--command"), "runuser": ("-c", "--command"), "script": ("-c", "--command"),
               "flock": ("-c", "--command")}  # wrappers whose -c value is shell text
# what a word of a plain command may hold: nothing the shell expands, quotes, splits or redirects
PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@%+,^ \t")
STARTS_OTHERS = frozenset(("eval", "source", ".", "find", "exec", "if", "then", "elif", "else", "fi", "do", "done",
                           "while", "until", "for", "in", "case", "esac", "function", "select", "time", "coproc"))


class Unknown(str):
    """A word whose text cannot be known without running the command; its str is the word as written."""


class Run(object):
    """One simple command that may run: its words, the variables set for it, its folder, its input."""

    def __init__(self, argv: "list[str]", env: "dict[str, str]", cwd: "str | None", stdin: "str | None") -> None:
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.stdin = stdin  # what it reads on stdin, when known

    def __repr__(self) -> str:
        return "Run(%r)" % (self.argv,)


class Reader(object):
    """Follows command text the way bash would run it; `notes` collects what it could not follow."""

    def __init__(self, programs: "tuple[str, ...]" = ()) -> None:
        self.notes: "list[str]" = []
        self.programs = programs  # names the reading of text that is not valid shell looks for
        self._follower: "Follower | None" = None

    def note(self, text: str) -> None:
        add_note(self.notes, text)

    def commands(self, text: str, cwd: "str | None" = None, depth: int = 0) -> "Iterator[Run]":
        """Every simple command `text` may run, wrappers and launchers followed to what they start."""
        argv = plain_command(text)
        if argv is not None:
            if argv:
                yield Run(argv, {}, cwd, None)
            return
        if self._follower is None:
            from shell_follow import Follower

            self._follower = Follower(self.programs, self.notes)
        yield from self._follower.commands(text, cwd, depth)


def split_words(text: str, escapes_in_double: bool = True) -> "list[str]":
    """Blank-separated words with '...' and "..." quotes and backslashes, as git splits an alias
    (a backslash escapes outside single quotes) and xargs its items (only outside quotes)."""
    words: "list[str]" = []
    word: "list[str] | None" = None
    quote = ""
    i = 0
    while i < len(text):
        c = text[i]
        i += 1
        if c == "\\" and i < len(text) and (not quote or quote == '"' and escapes_in_double):
            word = (word or []) + [text[i]]
            i += 1
        elif quote:
            if c == quote:
                quote = ""
            else:
                word = (word or []) + [c]
        elif c in "'\"":
            quote, word = c, word or []
        elif c.isspace():
            if word is not None:
                words.append("".join(word))
                word = None
        else:
            word = (word or []) + [c]
    if word is not None:
        words.append("".join(word))
    return words


def add_note(notes: "list[str]", text: str) -> None:
    """One thing the reader could not follow, said once (and at most MAX_NOTES of them)."""
    if text not in notes and len(notes) < MAX_NOTES:
        notes.append(text)


def plain_command(text: str) -> "list[str] | None":
    """The words of a plain command, [] for blank text; None when the text needs bash's grammar:
    anything the shell expands, quotes or redirects, more than one command, an assignment, or a
    program that starts others (a shell, a wrapper, a script by its path)."""
    if not PLAIN.issuperset(text):
        return None
    argv = text.split()
    if not argv:
        return argv
    name = argv[0]
    if "=" in name or "/" in name or name in STARTS_OTHERS or name in WRAPPERS or name in SHELLS or \
            name in INTERPRETERS or name.startswith(("python", "node")):
        return None
    return argv


def quote(word: str) -> str:
    """The word quoted for the shell."""
    return "'" + word.replace("'", "'\\''") + "'"


def program_name(word: str) -> str:
    """`/usr/bin/git` runs git too; `\\git` is git."""
    return word.rsplit("/", 1)[-1]
