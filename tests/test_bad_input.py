"""Bad input (DESIGN.md, invariant 5): exit 2, a message that names the file and the problem
(with `path:LINE:COL` where a position applies), and every file left exactly as it was.

Each row of CASES prepares a project (and home) in a bad state, runs the CLI in-process, and
checks four things: the exit code; that stderr names the file and says what is wrong; that
nothing under the test's tmp_path changed (settings bytes, modes, directories, FIFOs, links,
receipts, the state dir: no backup, no journal, no lock); and that no temp file
(`.hookwright-tmp-`) and no runtime folder `.claude/hookwright` was left behind.
Every run is under a SIGALRM deadline, so a read that blocks (a FIFO) fails instead of hanging.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Union

import pytest

TEMP_MARK = ".hookwright-tmp-"
DEADLINE_S = 30
MIB = 1024 * 1024


# ---- where things are --------------------------------------------------------------------

@dataclass
class Paths:
    home: Path
    project: Path

    @property
    def claude(self) -> Path:
        return self.project / ".claude"

    @property
    def settings(self) -> Path:
        return self.claude / "settings.json"

    @property
    def local_settings(self) -> Path:
        return self.claude / "settings.local.json"

    @property
    def user_settings(self) -> Path:
        return self.home / ".claude" / "settings.json"

    @property
    def runtime_root(self) -> Path:
        return self.claude / "hookwright"

    @property
    def receipt(self) -> Path:
        return self.runtime_root / "git-guard" / "receipt.json"


def pos(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column (in characters) of the first `needle` in `text`, as an editor shows them."""
    offset = text.index(needle)
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


# ---- setups ------------------------------------------------------------------------------

Setup = Callable[[Paths, Callable[..., object]], None]


def settings_bytes(raw: Union[bytes, str], which: str = "settings") -> Setup:
    data = raw.encode("utf-8") if isinstance(raw, str) else raw

    def setup(p: Paths, run) -> None:
        path = getattr(p, which)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return setup


def read_only_settings(p: Paths, run) -> None:
    settings_bytes('{\n  "hooks": {}\n}\n')(p, run)
    p.settings.chmod(0o444)


def installed_then_read_only(p: Paths, run) -> None:
    """A pack to take out of a file that cannot be written (with nothing installed, there is nothing to do)."""
    valid_settings(p, run)
    assert run("install", "git-guard", "--scope", "project", "--project", p.project, "--yes").code == 0
    p.settings.chmod(0o444)


def read_only_claude_folder(p: Paths, run) -> None:
    p.claude.mkdir()
    p.claude.chmod(0o555)


def directory_at_settings(p: Paths, run) -> None:
    p.settings.mkdir(parents=True)
    (p.settings / "keep.txt").write_bytes(b"not ours\n")


def fifo_at_settings(p: Paths, run) -> None:
    p.claude.mkdir()
    os.mkfifo(p.settings)


def symlink_to_read_only_file(p: Paths, run) -> None:
    p.claude.mkdir()
    real = p.project / "shared-settings.json"
    real.write_bytes(b'{\n  "hooks": {}\n}\n')
    real.chmod(0o444)
    p.settings.symlink_to(real)


def symlink_loop(p: Paths, run) -> None:
    p.claude.mkdir()
    p.settings.symlink_to("settings.json")


def dangling_symlink(p: Paths, run) -> None:
    p.claude.mkdir()
    p.settings.symlink_to("elsewhere/settings.json")


def claude_is_a_file(p: Paths, run) -> None:
    p.claude.write_bytes(b"a file where the .claude folder belongs\n")


def oversized(p: Paths, run) -> None:
    settings_bytes(b'{"padding": "' + b"a" * (10 * MIB) + b'"}\n')(p, run)


def valid_settings(p: Paths, run) -> None:
    settings_bytes('{\n  "model": "sonnet"\n}\n')(p, run)


def corrupt_receipt(p: Paths, run) -> None:
    valid_settings(p, run)
    p.receipt.parent.mkdir(parents=True)
    p.receipt.write_bytes(b"{bad")


def installed_then_receipt_points_outside(p: Paths, run) -> None:
    """A real install, then a receipt whose file list names ../../evil, and a file there whose
    hash matches: a tool that trusted the name would delete .claude/evil on uninstall."""
    valid_settings(p, run)
    ran = run("install", "git-guard", "--scope", "project", "--project", p.project, "--yes")
    assert ran.code == 0, ran.err
    evil = p.claude / "evil"
    evil.write_bytes(b"a file hookwright never wrote\n")
    receipt = json.loads(p.receipt.read_bytes())
    receipt["files"].append({"name": "../../evil", "sha256": hashlib.sha256(evil.read_bytes()).hexdigest(),
                             "mode": "0644"})
    p.receipt.write_bytes((json.dumps(receipt, indent=2) + "\n").encode())


# ---- the table ---------------------------------------------------------------------------

INSTALL = ("install", "git-guard", "--scope", "project", "--project", "{project}", "--yes")
INSTALL_DRY = ("install", "git-guard", "--scope", "project", "--project", "{project}", "--dry-run")
UNINSTALL = ("uninstall", "git-guard", "--scope", "project", "--project", "{project}", "--yes")
UNINSTALL_ALL = ("uninstall", "--scope", "project", "--project", "{project}", "--yes")
UNINSTALL_DRY = ("uninstall", "git-guard", "--scope", "project", "--project", "{project}", "--dry-run")


Phrase = Union[str, tuple]  # a phrase, or a tuple of alternatives (any one will do)


@dataclass
class Case:
    setup: Setup
    says: tuple[Phrase, ...]  # what the problem is, case-insensitive
    at: Optional[tuple[int, int]] = None  # line, column in the named file
    names: Optional[str] = "settings"  # the Paths attribute of the file the message must name
    args: tuple[str, ...] = INSTALL
    code: int = 2


MISSING_BRACE = '{\n  "permissions": {"allow": []\n  "hooks": {}\n}\n'
STRAY_CHAR = '{\n  "hooks": {} x\n}\n'
EXTRA_AFTER_END = '{\n  "hooks": {}\n}\n}\n'
TRUNCATED_BETWEEN = '{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Bash", '
TRUNCATED_IN_STRING = '{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Ba'
LINE_COMMENT = '{\n  // hooks for this repo\n  "hooks": {}\n}\n'
BLOCK_COMMENT = '{\n  "hooks": {} /* filled in later */\n}\n'
HASH_COMMENT = '{\n  # hooks\n  "hooks": {}\n}\n'
BOM_COMMENT = '\ufeff{\n  // hooks\n  "hooks": {}\n}\n'
TRAILING_COMMA_OBJECT = '{\n  "model": "sonnet",\n}\n'
TRAILING_COMMA_ARRAY = '{\n  "permissions": {"allow": ["Bash", "Edit",]}\n}\n'
DUPLICATE_TOP = '{\n  "hooks": {},\n  "model": "sonnet",\n  "hooks": {"PreToolUse": []}\n}\n'
DUPLICATE_NESTED = (
    '{\n  "hooks": {\n    "PreToolUse": [\n'
    '      {"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]},\n'
    '      {"matcher": "Edit", "hooks": [{"type": "command", "command": "b", "command": "c"}]}\n'
    '    ]\n  }\n}\n'
)
NUL_BYTE = '{\n  "hooks": {},\n  "model": "son\x00net"\n}\n'
HOOKS_LIST = '{\n  "model": "sonnet",\n  "hooks": []\n}\n'
HOOKS_STRING = '{\n  "hooks": "x"\n}\n'
HOOKS_NULL = '{\n  "hooks": null\n}\n'
EVENT_OBJECT = '{\n  "hooks": {\n    "PreToolUse": {}\n  }\n}\n'
EVENT_STRING = '{\n  "hooks": {\n    "PreToolUse": "x"\n  }\n}\n'
EVENT_NULL = '{\n  "hooks": {\n    "Stop": [],\n    "PreToolUse": null\n  }\n}\n'
LATIN_1 = b'{\n  "model": "caf\xe9"\n}\n'
NAN = '{\n  "model": "sonnet",\n  "cleanupPeriodDays": NaN\n}\n'
NAN_AFTER_STRING = '{\n  "model": "NaN-tolerant",\n  "cleanupPeriodDays": NaN\n}\n'
INFINITY = '{\n  "cleanupPeriodDays": -Infinity\n}\n'
HUGE_INTEGER = '{\n  "cleanupPeriodDays": 1' + "0" * 5000 + '\n}\n'
NESTED_300 = '{\n  "deep": ' + "[" * 300 + "]" * 300 + "\n}\n"

CASES = [
    # -- the file is not JSON -------------------------------------------------------------
    pytest.param(Case(settings_bytes(MISSING_BRACE), ("invalid JSON", "delimiter"), pos(MISSING_BRACE, '"hooks"')),
                 id="a missing closing brace"),
    pytest.param(Case(settings_bytes(STRAY_CHAR), ("invalid JSON",), pos(STRAY_CHAR, "x")),
                 id="a stray character"),
    pytest.param(Case(settings_bytes(EXTRA_AFTER_END), ("invalid JSON", "after the JSON value has ended"), (4, 1)),
                 id="a stray closing brace after the end"),
    pytest.param(Case(settings_bytes(TRUNCATED_BETWEEN), ("invalid JSON", "truncated"), (4, 27)),
                 id="a file cut off between two tokens"),
    pytest.param(Case(settings_bytes(TRUNCATED_IN_STRING), ("invalid JSON", "unterminated string"),
                      pos(TRUNCATED_IN_STRING, '"Ba')),
                 id="a file cut off inside a string"),
    pytest.param(Case(settings_bytes(b""), ("empty",), (1, 1)), id="an empty file"),
    pytest.param(Case(settings_bytes(b"  \n\n"), ("empty",)), id="a file of only whitespace"),
    pytest.param(Case(settings_bytes(LINE_COMMENT), ("comment",), pos(LINE_COMMENT, "//")),
                 id="a // comment"),
    pytest.param(Case(settings_bytes(BLOCK_COMMENT), ("comment",), pos(BLOCK_COMMENT, "/*")),
                 id="a block comment"),
    pytest.param(Case(settings_bytes(HASH_COMMENT), ("comment",), pos(HASH_COMMENT, "#")),
                 id="a # comment"),
    pytest.param(Case(settings_bytes(BOM_COMMENT), ("comment",), pos(BOM_COMMENT[1:], "//")),
                 id="a comment after a UTF-8 BOM (column counted without the BOM)"),
    pytest.param(Case(settings_bytes(TRAILING_COMMA_OBJECT), ("trailing comma",),
                      pos(TRAILING_COMMA_OBJECT, ",\n}")),
                 id="a trailing comma in an object"),
    pytest.param(Case(settings_bytes(TRAILING_COMMA_ARRAY), ("trailing comma",),
                      pos(TRAILING_COMMA_ARRAY, ",]")),
                 id="a trailing comma in an array"),
    pytest.param(Case(settings_bytes(DUPLICATE_TOP), ("duplicate key", '"hooks"'),
                      pos(DUPLICATE_TOP, '"hooks": {"PreToolUse"')),
                 id="a duplicate top-level key"),
    pytest.param(Case(settings_bytes(DUPLICATE_NESTED), ("duplicate key", '"command"'),
                      pos(DUPLICATE_NESTED, '"command": "c"')),
                 id="a duplicate key in a handler, located at its second occurrence in that object"),
    pytest.param(Case(settings_bytes(NUL_BYTE), ("NUL byte",), pos(NUL_BYTE, "\x00")), id="a NUL byte"),
    pytest.param(Case(settings_bytes(LATIN_1), ("UTF-8", "0xe9"), pos(LATIN_1.decode("latin-1"), "\xe9")),
                 id="a latin-1 byte (not UTF-8)"),
    pytest.param(Case(settings_bytes(b"\xfe\xff" + '{"model": "x"}\n'.encode("utf-16-be")), ("UTF-16 big-endian",),
                      (1, 1)), id="a UTF-16 big-endian file with its byte-order mark (Claude Code does not read it)"),
    pytest.param(Case(settings_bytes('{"model": "x"}\n'.encode("utf-16-le")), ("UTF-16 little-endian", "byte-order mark"),
                      (1, 2)), id="a UTF-16 little-endian file without a byte-order mark (nor that)"),
    pytest.param(Case(oversized, ("10 MiB",)), id="a file over 10 MiB"),
    pytest.param(Case(settings_bytes("[" * 100_000), ("nested", "200")),
                 id="100000 unclosed brackets"),
    pytest.param(Case(settings_bytes("[" * 100_000 + "]" * 100_000), ("nested", "200")),
                 id="100000 levels of balanced brackets"),
    pytest.param(Case(settings_bytes(NESTED_300), ("nested", "200")),
                 id="300 levels of brackets inside an object (valid JSON, too deep to edit)"),
    pytest.param(Case(settings_bytes(NAN), ("NaN",), pos(NAN, "NaN")),
                 id="a NaN literal (Python accepts it, JSON and the hosts do not)"),
    pytest.param(Case(settings_bytes(NAN_AFTER_STRING), ("NaN",), pos(NAN_AFTER_STRING, "NaN\n")),
                 id="a NaN literal after a string that holds the word NaN"),
    pytest.param(Case(settings_bytes(INFINITY), ("Infinity",), pos(INFINITY, "-Infinity")),
                 id="an -Infinity literal"),
    pytest.param(Case(settings_bytes(HUGE_INTEGER), (("digits", "number"),), pos(HUGE_INTEGER, "1000")),
                 id="an integer of 5001 digits"),
    # -- JSON, but not a settings file we can edit ----------------------------------------------
    pytest.param(Case(settings_bytes("[]\n"), ("JSON object", "a list"), (1, 1)),
                 id="a top-level array"),
    pytest.param(Case(settings_bytes("null\n"), ("JSON object", "null"), (1, 1)),
                 id="a top-level null"),
    pytest.param(Case(settings_bytes(HOOKS_LIST), ('"hooks" must be an object', "a list"), pos(HOOKS_LIST, "[]")),
                 id="hooks is a list"),
    pytest.param(Case(settings_bytes(HOOKS_STRING), ('"hooks" must be an object', "a string"),
                      pos(HOOKS_STRING, '"x"')),
                 id="hooks is a string"),
    pytest.param(Case(settings_bytes(HOOKS_NULL), ('"hooks" must be an object', "null"), pos(HOOKS_NULL, "null")),
                 id="hooks is null"),
    pytest.param(Case(settings_bytes(EVENT_OBJECT), ('"hooks.PreToolUse" must be a list', "an object"),
                      pos(EVENT_OBJECT, "{}")),
                 id="an event holds an object instead of a list"),
    pytest.param(Case(settings_bytes(EVENT_STRING), ('"hooks.PreToolUse" must be a list', "a string"),
                      pos(EVENT_STRING, '"x"')),
                 id="an event holds a string instead of a list"),
    pytest.param(Case(settings_bytes(EVENT_NULL), ('"hooks.PreToolUse" must be a list', "null"),
                      pos(EVENT_NULL, "null")),
                 id="an event holds null instead of a list"),
    # -- the file system says no -------------------------------------------------------------
    pytest.param(Case(read_only_settings, ("read-only",)), id="a read-only settings file"),
    pytest.param(Case(read_only_claude_folder, ("not writable",)),
                 id="a read-only .claude folder and no settings file yet"),
    pytest.param(Case(directory_at_settings, ("directory",)), id="a directory where the settings file belongs"),
    pytest.param(Case(fifo_at_settings, (("not a regular file", "fifo", "named pipe"),)),
                 id="a FIFO where the settings file belongs (must not block)"),
    pytest.param(Case(fifo_at_settings, (("not a regular file", "fifo", "named pipe"),), args=UNINSTALL_ALL),
                 id="uninstall of every pack with a FIFO where the settings file belongs"),
    pytest.param(Case(dangling_symlink, ("symlink whose target does not exist",), args=UNINSTALL),
                 id="uninstall of a pack through a dangling symlink"),
    pytest.param(Case(symlink_to_read_only_file, ("read-only",)), id="a symlink to a read-only file"),
    pytest.param(Case(symlink_loop, ("symlink loop",)), id="a symlink loop"),
    pytest.param(Case(dangling_symlink, ("symlink whose target does not exist",)), id="a dangling symlink"),
    pytest.param(Case(claude_is_a_file, ("a file, not a folder",)), id="a file where the .claude folder belongs"),
    # -- other scopes -------------------------------------------------------------------------
    pytest.param(Case(settings_bytes(LINE_COMMENT, "user_settings"), ("comment",), pos(LINE_COMMENT, "//"),
                      names="user_settings", args=("install", "git-guard", "--scope", "user", "--yes")),
                 id="a comment in the user settings file"),
    pytest.param(Case(settings_bytes(TRAILING_COMMA_OBJECT, "local_settings"), ("trailing comma",),
                      pos(TRAILING_COMMA_OBJECT, ",\n}"), names="local_settings",
                      args=("install", "git-guard", "--scope", "local", "--project", "{project}", "--yes")),
                 id="a trailing comma in settings.local.json"),
    # -- our own state is bad -------------------------------------------------------------------
    pytest.param(Case(corrupt_receipt, ("receipt", "not valid JSON"), (1, 2), names="receipt"),
                 id="a corrupt receipt on install"),
    pytest.param(Case(corrupt_receipt, ("receipt", "not valid JSON"), (1, 2), names="receipt", args=UNINSTALL),
                 id="a corrupt receipt on uninstall"),
    pytest.param(Case(installed_then_receipt_points_outside, ("receipt", "../../evil", "outside"), names="receipt"),
                 id="a receipt naming ../../evil on install"),
    pytest.param(Case(installed_then_receipt_points_outside, ("receipt", "../../evil", "outside"), names="receipt",
                      args=UNINSTALL),
                 id="a receipt naming ../../evil on uninstall"),
    # -- bad arguments --------------------------------------------------------------------------
    pytest.param(Case(valid_settings, ("unknown pack", "nope", "git-guard"), names=None,
                      args=("install", "nope", "--scope", "project", "--project", "{project}", "--yes")),
                 id="an unknown pack name (the message lists the bundled packs)"),
    pytest.param(Case(valid_settings, ("nope", "no chosen pack has this option"), names=None,
                      args=INSTALL + ("--option", "nope=1")),
                 id="an option no pack has"),
    pytest.param(Case(valid_settings, ("deny_push", "true or false", "maybe"), names=None,
                      args=INSTALL + ("--option", "deny_push=maybe")),
                 id="a bool option given a word that is not a bool"),
    pytest.param(Case(valid_settings, ("KEY=VALUE",), names=None, args=INSTALL + ("--option", "deny_push")),
                 id="an option without a value"),
    pytest.param(Case(valid_settings, ("unknown host", "gemini"), names=None, args=INSTALL + ("--host", "gemini")),
                 id="a host hookwright does not know"),
    pytest.param(Case(valid_settings, ("invalid value", "nope"), names=None, args=INSTALL + ("--scope", "nope")),
                 id="an unknown scope"),
    pytest.param(Case(valid_settings, ("no such option", "--bogus"), names=None, args=INSTALL + ("--bogus",)),
                 id="an unknown option"),
    pytest.param(Case(valid_settings, ("is a file",), names="settings",
                      args=("install", "git-guard", "--scope", "project", "--project", "{settings}", "--yes")),
                 id="a --project that names a file"),
    pytest.param(Case(valid_settings, ("at least one pack",), names=None,
                      args=("install", "--scope", "project", "--project", "{project}", "--yes")),
                 id="install without a pack name and no terminal to ask on"),
    # -- the same file-level problems on uninstall and on a dry run ------------------------------
    pytest.param(Case(settings_bytes(MISSING_BRACE), ("invalid JSON",), pos(MISSING_BRACE, '"hooks"'), args=UNINSTALL),
                 id="uninstall of a pack from invalid JSON"),
    pytest.param(Case(settings_bytes(LINE_COMMENT), ("comment",), pos(LINE_COMMENT, "//"), args=UNINSTALL),
                 id="uninstall of a pack from a file with a comment"),
    pytest.param(Case(settings_bytes(HOOKS_LIST), ('"hooks" must be an object',), pos(HOOKS_LIST, "[]"),
                      args=UNINSTALL),
                 id="uninstall of a pack where hooks is a list"),
    pytest.param(Case(settings_bytes(MISSING_BRACE), ("invalid JSON",), pos(MISSING_BRACE, '"hooks"'),
                      args=UNINSTALL_ALL),
                 id="uninstall of every pack from invalid JSON"),
    pytest.param(Case(settings_bytes(LINE_COMMENT), ("comment",), pos(LINE_COMMENT, "//"), args=UNINSTALL_ALL),
                 id="uninstall of every pack from a file with a comment"),
    pytest.param(Case(settings_bytes(HOOKS_LIST), ('"hooks" must be an object',), pos(HOOKS_LIST, "[]"),
                      args=UNINSTALL_ALL),
                 id="uninstall of every pack where hooks is a list"),
    pytest.param(Case(installed_then_read_only, ("read-only",), args=UNINSTALL), id="uninstall from a read-only file"),
    pytest.param(Case(settings_bytes(MISSING_BRACE), ("invalid JSON",), pos(MISSING_BRACE, '"hooks"'),
                      args=INSTALL_DRY),
                 id="a dry run on invalid JSON"),
    pytest.param(Case(settings_bytes(LINE_COMMENT), ("comment",), pos(LINE_COMMENT, "//"), args=INSTALL_DRY),
                 id="a dry run on a file with a comment"),
    pytest.param(Case(settings_bytes(HOOKS_LIST), ('"hooks" must be an object',), pos(HOOKS_LIST, "[]"),
                      args=INSTALL_DRY),
                 id="a dry run where hooks is a list"),
    pytest.param(Case(read_only_settings, ("read-only",), args=INSTALL_DRY), id="a dry run on a read-only file"),
    pytest.param(Case(settings_bytes(LINE_COMMENT), ("comment",), pos(LINE_COMMENT, "//"), args=UNINSTALL_DRY),
                 id="a dry run of uninstall on a file with a comment"),
]


# ---- checking ----------------------------------------------------------------------------

class Hang(BaseException):
    """Raised by SIGALRM; a BaseException so the CLI's `except Exception` cannot swallow it."""


@pytest.fixture(autouse=True)
def deadline():
    def on_alarm(signum, frame):
        raise Hang(f"hookwright did not return within {DEADLINE_S}s (blocked reading a FIFO?)")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(DEADLINE_S)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def paths(home, project) -> Paths:
    return Paths(home, project.resolve())


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under root (links not followed): its kind, mode, and content (or link target)."""
    seen = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            info = os.lstat(path)
            kind, mode = stat.S_IFMT(info.st_mode), stat.S_IMODE(info.st_mode)
            if stat.S_ISLNK(info.st_mode):
                seen[str(path)] = ("symlink", os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                seen[str(path)] = ("file", oct(mode), hashlib.sha256(path.read_bytes()).hexdigest())
            else:
                seen[str(path)] = (stat.filemode(info.st_mode)[0], oct(mode), kind)
    return seen


def read_if_file(path: Path) -> Optional[bytes]:
    return path.read_bytes() if path.is_file() and not path.is_symlink() else None


def says(text: str, phrase: Phrase) -> bool:
    alternatives = phrase if isinstance(phrase, tuple) else (phrase,)
    return any(a.lower() in text.lower() for a in alternatives)


def leftovers(root: Path) -> list[str]:
    return [str(Path(folder, name)) for folder, dirs, files in os.walk(root)
            for name in dirs + files if TEMP_MARK in name]


@pytest.mark.parametrize("case", CASES)
def test_bad_input_exits_2_with_a_message_naming_the_file_and_leaves_every_file_as_it_was(
        case: Case, paths: Paths, tmp_path: Path, hookwright):
    case.setup(paths, hookwright)
    had_runtime_root = paths.runtime_root.exists()
    named = getattr(paths, case.names) if case.names else None
    before_bytes = read_if_file(named) if named else None
    before = snapshot(tmp_path)

    ran = hookwright(*(a.format(project=paths.project, settings=paths.settings) for a in case.args))

    assert ran.code == case.code, f"exit {ran.code}, expected {case.code}\nstderr:\n{ran.err}\nstdout:\n{ran.out}"
    assert "Traceback" not in ran.err and "internal error" not in ran.err, ran.err
    assert any(line.lower().startswith("error") for line in ran.err.splitlines()), ran.err
    if named is not None:
        assert str(named) in ran.err, f"the message does not name {named}:\n{ran.err}"
    for phrase in case.says:
        assert says(ran.err, phrase), f"the message does not say {phrase!r}:\n{ran.err}"
    if case.at is not None:
        line, column = case.at
        assert f"{named}:{line}:{column}:" in ran.err, f"expected {named}:{line}:{column} in:\n{ran.err}"
    if named is not None and before_bytes is not None:
        assert read_if_file(named) == before_bytes
    assert snapshot(tmp_path) == before, "a file or folder changed, appeared or vanished"
    assert leftovers(tmp_path) == []
    if not had_runtime_root:
        assert not paths.runtime_root.exists() and not os.path.lexists(paths.runtime_root)


# ---- --json: one document on stdout ---------------------------------------------------------

JSON_CASES = [
    pytest.param(LINE_COMMENT, pos(LINE_COMMENT, "//"), "comment", id="a comment"),
    pytest.param(TRAILING_COMMA_ARRAY, pos(TRAILING_COMMA_ARRAY, ",]"), "trailing comma", id="a trailing comma"),
    pytest.param(HOOKS_LIST, pos(HOOKS_LIST, "[]"), "must be an object", id="hooks is a list"),
]


@pytest.mark.parametrize("text, at, phrase", JSON_CASES)
def test_with_json_a_bad_file_gives_one_json_document_with_path_line_column_and_exit_code_2(
        text, at, phrase, paths: Paths, tmp_path: Path, hookwright):
    settings_bytes(text)(paths, hookwright)
    before = snapshot(tmp_path)

    ran = hookwright(*(a.format(project=paths.project) for a in INSTALL), "--json")

    assert ran.code == 2
    doc = json.loads(ran.out)  # exactly one document: json.loads refuses anything after it
    assert doc["exit_code"] == 2
    assert doc["schema"].startswith("hookwright/")
    error = doc["error"]
    assert error["path"] == str(paths.settings)
    assert (error["line"], error["column"]) == at
    assert error["exit_code"] == 2
    assert phrase in error["message"]
    assert error["hint"]
    assert "Traceback" not in ran.err
    assert snapshot(tmp_path) == before


def test_with_json_a_read_only_file_gives_a_path_and_no_position(paths: Paths, tmp_path: Path, hookwright):
    read_only_settings(paths, hookwright)
    before = snapshot(tmp_path)

    ran = hookwright(*(a.format(project=paths.project) for a in INSTALL), "--json")

    assert ran.code == 2
    doc = json.loads(ran.out)
    assert doc["exit_code"] == 2 and doc["error"]["exit_code"] == 2
    assert doc["error"]["path"] == str(paths.settings)
    assert doc["error"]["line"] is None and doc["error"]["column"] is None
    assert "read-only" in doc["error"]["message"]
    assert snapshot(tmp_path) == before


def test_with_json_an_unknown_pack_gives_the_bundled_packs_in_the_hint(paths: Paths, hookwright):
    ran = hookwright("install", "nope", "--scope", "project", "--project", paths.project, "--yes", "--json")

    assert ran.code == 2
    doc = json.loads(ran.out)
    assert doc["exit_code"] == 2
    assert "nope" in doc["error"]["message"] and "git-guard" in doc["error"]["hint"]
    assert not paths.claude.exists()


def symlinks_looping_through_each_other(p: Paths, run) -> None:
    p.claude.mkdir()
    (p.claude / "a").symlink_to("b")
    (p.claude / "b").symlink_to("a")
    p.settings.symlink_to("a")


@pytest.mark.parametrize("setup, phrase", [
    (fifo_at_settings, "FIFO"),
    (symlink_loop, "symlinks form a loop"),
    (symlinks_looping_through_each_other, "symlinks form a loop"),
    (directory_at_settings, "is a directory"),
])
@pytest.mark.parametrize("command", [("doctor",), ("doctor", "{settings}"), ("list",)])
def test_doctor_and_list_report_a_file_they_cannot_read_and_exit_2_without_blocking(
        setup, phrase, command, paths: Paths, tmp_path: Path, hookwright):
    setup(paths, hookwright)
    before = snapshot(tmp_path)

    ran = hookwright(*(a.format(settings=paths.settings) for a in command), "--project", paths.project)

    assert ran.code == 2, ran.out + ran.err
    assert "Traceback" not in ran.err and "internal error" not in ran.err, ran.err
    if setup is directory_at_settings and len(command) == 2:  # a folder named where files belong: usage
        assert "doctor checks files" in ran.err
    else:
        assert phrase in ran.out
        assert command[0] == "list" or "structure/unreadable" in ran.out
    assert snapshot(tmp_path) == before


def test_a_named_file_doctor_may_not_read_is_a_finding_and_the_other_files_are_still_checked(home, tmp_path):
    """A real permission check, so in a subprocess: as root, without the capabilities that let root
    read any file (util-linux setpriv)."""
    unreadable, broken = tmp_path / "unreadable.json", tmp_path / "broken.json"
    unreadable.write_text("{}")
    unreadable.chmod(0)
    broken.write_text('{"hooks": {},}')
    drop = []
    if os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) is needed to drop root's file capabilities"
        caps = "-dac_override,-dac_read_search"
        drop = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"]
    ran = subprocess.run([*drop, sys.executable, "-m", "hookwright", "doctor", "--project", str(tmp_path),
                          str(unreadable), str(broken)], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "HOME": str(home)})
    assert ran.returncode == 2, ran.stdout + ran.stderr
    assert "Usage" not in ran.stderr and "Traceback" not in ran.stderr
    assert "structure/unreadable" in ran.stdout and "permission denied" in ran.stdout
    assert "structure/invalid-json" in ran.stdout  # the next file was checked too
