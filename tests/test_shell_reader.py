"""git-guard's shell reader (templates/packs/git-guard/shell_reader.py): what a Bash command
string runs, read as bash reads it, in-process. What git-guard then decides is
tests/test_git_guard_table.py's table."""
from __future__ import annotations

import functools
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

PACK = Path(__file__).resolve().parents[1] / "templates" / "packs" / "git-guard"


def load_reader():
    sys.path.insert(0, str(PACK))
    no_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in templates/
    import shell_reader

    sys.dont_write_bytecode = no_bytecode
    return shell_reader


READER = load_reader()


def runs(text: str, cwd: str | None = "/nowhere") -> tuple[list[list[str]], list[str]]:
    reader = READER.Reader(("git",))
    found = [run.argv for run in reader.commands(text, cwd)]
    return found, reader.notes


ROWS = [  # (text, every command it runs, in order)
    ("ls -la", [["ls", "-la"]]),
    ("cd x && git status | head -1; echo 'a;b'", [["cd", "x"], ["git", "status"], ["head", "-1"], ["echo", "a;b"]]),
    ("sudo -u root env A=1 nohup timeout 5 git push",
     [["sudo", "-u", "root", "env", "A=1", "nohup", "timeout", "5", "git", "push"],
      ["env", "A=1", "nohup", "timeout", "5", "git", "push"], ["nohup", "timeout", "5", "git", "push"],
      ["timeout", "5", "git", "push"], ["git", "push"]]),
    ("bash -lc 'git stash && ls'", [["bash", "-lc", "git stash && ls"], ["git", "stash"], ["ls"]]),
    ("echo $(git rev-parse HEAD)", [["git", "rev-parse", "HEAD"], ["echo", "$(...)"]]),
    ("cat <<EOF\ngit reset --hard\nEOF\nls", [["cat"], ["ls"]]),
    ("# git reset --hard", []),
    ("command -v git", [["command", "-v", "git"]]),
    ("git 2>&1 >/dev/null status", [["git", "status"]]),
    ("g=git; $g log", [["git", "log"]]),
    ("x='a  b'; echo $x \"$x\"", [["echo", "a", "b", "a  b"]]),
    ("a=(one 'two three'); printf %s \"${a[@]}\" ${a[1]}", [["printf", "%s", "one", "two three", "two", "three"]]),
    ("set -- p q; echo \"$@\" $# $1", [["set", "--", "p", "q"], ["echo", "p", "q", "2", "p"]]),
    ("v=abc; echo ${u:-dflt} ${v:+alt} ${#v}", [["echo", "dflt", "alt", "3"]]),
    ("v=HeLLo; echo ${v^^} ${v,,} ${v#H} ${v%o} ${v/L/l} ${v//L/l} ${v:1:2}",
     [["echo", "HELLO", "hello", "eLLo", "HeLL", "HelLo", "Hello", "eL"]]),
    ("echo {a,b}c x{1..3}", [["echo", "ac", "bc", "x1", "x2", "x3"]]),
    ("echo $'a\\tb' $\"c\"", [["echo", "a\tb", "c"]]),
    ("f() { echo in \"$1\"; }; f arg", [["echo", "in", "arg"]]),
    ("for i in 1 2; do echo $i; done", [["echo", "1"], ["echo", "2"]]),
    ("case $x in a|b) echo ab;; *) echo other;; esac", [["echo", "ab"], ["echo", "other"]]),
    ("if a; then b; elif c; then d; else e; fi", [["a"], ["b"], ["c"], ["d"], ["e"]]),
    ("while read -r line; do echo \"$line\"; done <<< 'one'", [["read", "-r", "line"], ["echo", "one"]]),
    ("printf 'a\\nb\\n' | while read l; do echo $l; done", [["printf", "a\\nb\\n"], ["read", "l"], ["echo", "a"],
                                                            ["echo", "b"]]),
    ("echo hi | xargs -I{} echo got {}", [["echo", "hi"], ["xargs", "-I{}", "echo", "got", "{}"], ["echo", "got", "hi"]]),
    ("printf 'x y' | xargs echo", [["printf", "x y"], ["xargs", "echo"], ["echo", "x", "y"]]),
    ("sh <<<'echo inner'", [["sh"], ["echo", "inner"]]),
    ("echo 'echo piped' | bash", [["echo", "echo piped"], ["bash"], ["echo", "piped"]]),
    ("bash -c 'echo $0 $1' zero one", [["bash", "-c", "echo $0 $1", "zero", "one"], ["echo", "zero", "one"]]),
    ("find . -name '*.py' -exec wc -l {} +", [["find", ".", "-name", "*.py", "-exec", "wc", "-l", "{}", "+"],
                                              ["wc", "-l", "{}"]]),
    ("echo 'echo from file' > s.sh; sh s.sh", [["echo", "echo from file"], ["sh", "s.sh"], ["echo", "from", "file"]]),
    ("[[ -n $(date) ]] && (( n = 2 ))", [["date"]]),
    ("x=$(printf '%s-%s' a b); echo $x", [["printf", "%s-%s", "a", "b"], ["echo", "a-b"]]),
    ("echo Z2l0 | base64 -d | cat", [["echo", "Z2l0"], ["base64", "-d"], ["cat"]]),
    ("alias ll='ls -l'\nll x", [["alias", "ll=ls -l"], ["ls", "-l", "x"]]),
    ("time -p make; ! false", [["-p", "make"], ["false"]]),
]


@pytest.mark.parametrize("text, expected", ROWS, ids=[row[0][:50] for row in ROWS])
def test_the_reader_lists_what_bash_would_run(text, expected):
    found, notes = runs(text)
    assert found == expected
    assert notes == []


def test_bash_itself_runs_what_the_reader_says_for_the_expansions_it_follows(tmp_path):
    """The rows that only echo: bash prints exactly the words the reader expands them to."""
    for text in ["x='a  b'; echo $x \"$x\"", "v=abc; echo ${u:-dflt} ${v:+alt} ${#v}",
                 "v=HeLLo; echo ${v^^} ${v,,} ${v#H} ${v%o} ${v/L/l} ${v//L/l} ${v:1:2}",
                 "echo {a,b}c x{1..3}", "set -- p q; echo \"$@\" $# $1", "IFS=,; v=a,b; echo $v"]:
        done = subprocess.run(["bash", "-c", text], capture_output=True, text=True, cwd=tmp_path)
        (*_, last), _ = runs(text)
        assert done.stdout == " ".join(last[1:]) + "\n", text


UNFOLLOWED = [  # (text, what the note says)
    ("$CMD run", "cannot tell which program"),
    ("curl -s x | sh", "reads on stdin"),
    ("bash -c \"$SCRIPT\"", "cannot tell what"),
    ("echo 'unbalanced", "not valid shell"),
    ("python3 -c 'import os; os.system(\"git push -f\")'", "cannot follow the python3 program"),
]


@pytest.mark.parametrize("text, says", UNFOLLOWED, ids=[row[0] for row in UNFOLLOWED])
def test_the_reader_says_what_it_cannot_follow(text, says):
    _, notes = runs(text)
    assert len(notes) == 1 and says in notes[0], notes


def test_text_that_is_not_valid_shell_is_read_word_by_word_from_each_program_named():
    found, _ = runs("echo 'unbalanced && git push -f")
    assert found == [["git", "push", "-f"]]


def test_a_word_the_reader_cannot_know_is_an_unknown_holding_the_word_as_written():
    found, _ = runs("git push origin $BRANCH")
    (argv,) = found
    assert isinstance(argv[3], READER.Unknown) and argv[3] == "$BRANCH"
    assert not any(isinstance(word, READER.Unknown) for word in argv[:3])


@pytest.mark.parametrize("text", [
    "a=1; " * 4100 + "git reset --hard",  # past MAX_STEPS
    "f() { f; f; }; f; git reset --hard",  # a function calling itself
    functools.reduce(lambda text, _: "bash -c " + shlex.quote(text), range(10), "git reset --hard"),  # past MAX_DEPTH
    "$(" * 600 + "git reset --hard" + ")" * 600,  # deeper than Python's recursion
])
def test_past_a_bound_the_rest_is_still_read_word_by_word(text):
    found, notes = runs(text)
    assert ["git", "reset", "--hard"] in found and notes


def test_loops_branches_and_nesting_are_bounded_and_say_so():
    found, notes = runs("f() { f; f; }; f")
    assert notes and "levels deep" in notes[0]
    found, notes = runs("for a in " + " ".join(map(str, range(100))) + "; do echo $a; done")
    assert len(found) <= 2 * (READER.MAX_LOOP + 1)


@pytest.mark.parametrize("text, plain", [
    ("git status", ["git", "status"]), ("git log -5 --format=%h", ["git", "log", "-5", "--format=%h"]),
    ("ls -la src/", ["ls", "-la", "src/"]), ("  ", []),
    ("git status; ls", None), ("echo $HOME", None), ("git 'x'", None), ("A=1 git log", None), ("sudo git log", None),
    ("bash x.sh", None), ("./x.sh", None), ("eval git status", None), ("xargs git", None), ("rm *.txt", None),
    ("echo {a,b}", None), ("git log > out", None), ("for x in a; do :; done", None), ("python3 -c x", None),
])
def test_a_plain_command_is_read_without_bashs_grammar_and_anything_else_is_not(text, plain):
    assert READER.plain_command(text) == plain
    found, notes = runs(text)
    if plain is not None:
        assert found == ([plain] if plain else []) and notes == []


FRAGMENTS = ["git", "reset", "--hard", "$x", "x=", "${", "}", "$(", ")", "`", "'", '"', "\\", "\n", ";", "&&", "|",
             "<<", "EOF", "<<<", "bash", "-c", "for", "in", "do", "done", "if", "then", "fi", "case", "esac", "{", "(",
             "$'", "[@]", "=(", "xargs", "eval", " ", "\t", "#", "2>&1", "f()"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join))
@example("${#case}")  # a length's name that starts with "c" was once followed as a command substitution
def test_the_reader_never_raises_on_any_text(text):
    found, notes = runs(text)
    assert all(isinstance(argv, list) for argv in found) and all(isinstance(note, str) for note in notes)


@settings(max_examples=500)
@given(st.lists(st.sampled_from(["/", "//", "///", ".", "..", "a", "b c", "x.sh", "\\", "~"]), max_size=8).map("".join))
@example("//a/b")
@example("/a/b/.")
@example("/a/../b/")
def test_a_path_the_reader_names_is_the_normalised_text_made_whole(text):
    """resolve._normal builds a path from its folder's Path and its name, and leaves normpath
    out where there is no `..`: the same Path as the text normalised and made whole."""
    import posixpath

    from hookwright.doctor.shell.resolve import _normal

    made = _normal(text)
    assert made == Path(posixpath.normpath(text)) and str(made) == str(Path(posixpath.normpath(text)))
