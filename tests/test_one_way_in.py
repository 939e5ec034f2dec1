"""Every file hookwright reads goes through installer/safe_read.py: the package's source is read
for every other way Python has to open a file for reading, and each place that may (a pipe
between two processes, a write) says why here."""
from __future__ import annotations

import ast
import os
import stat

import pytest
from hookwright import resources, safe_read
from hookwright.errors import ErrorKind, HookwrightError
from hostile_repos import fifo, link, sock

PACKAGE = resources.data_root() / "installer"

# calls that open or read a file whatever their arguments (a method of any object, or a module's function)
READ_METHODS = {"read_bytes", "read_text"}
READ_FUNCTIONS = {"shutil.copyfile", "shutil.copy", "shutil.copy2", "shutil.copytree", "shutil.copyfileobj",
                  "mmap.mmap", "json.load", "tomllib.load", "tomli.load", "pickle.load", "marshal.load",
                  "hashlib.file_digest", "linecache.getline", "linecache.getlines", "io.open_code", "os.read",
                  "os.pread", "os.readv"}
# (file, call): why it is no read of a file someone else wrote
ALLOWED = {
    ("safe_read.py", "os.open"): "the one way in",
    ("safe_read.py", "os.read"): "the one way in",
    ("sources.py", "tarfile.open"): "reads the bytes of our own `git archive` from memory, no file",
    ("doctor/parallel.py", "os.fdopen"): "the two ends of an os.pipe() between doctor's worker processes",
    ("doctor/parallel.py", "os.read"): "the queue of share numbers, an os.pipe() doctor's processes take them from",
    ("faults.py", "open"): "appends to the fault-injection trace a test asked for (mode 'a')",
    ("sandbox_init.py", "open"): "the kernel's own /proc/self/mountinfo, read inside a hook's sandbox by a script "
                                 "that cannot import the package",
    ("hosts/versions.py", "FILE.read_text"): "hookwright's own versions.toml, read by a script that runs before any "
                                             "virtual environment exists (scripts/setup-e2e.sh)",
}
WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_APPEND", "O_CREAT", "O_DIRECTORY")


def _name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        owner = func.value.id if isinstance(func.value, ast.Name) else ""
        return f"{owner}.{func.attr}" if owner else func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _opens_for_reading(call: ast.Call, name: str) -> bool:
    short = name.rsplit(".", 1)[-1]
    if name == "os.open":
        flags = ast.unparse(call.args[1]) if len(call.args) > 1 else ""
        return not any(flag in flags for flag in WRITE_FLAGS)
    if name in ("open", "io.open", "codecs.open", "os.fdopen"):
        mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
        return not (isinstance(mode, ast.Constant) and any(c in str(mode.value) for c in "wax"))
    if short == "open":  # Path.open(), gzip.open(), tarfile.open(), ...
        return True
    return name in READ_FUNCTIONS or short in READ_METHODS and not name.startswith("safe_read.")


def _reads(source: str, where: str) -> list[tuple[str, int, str]]:
    """(file, line, call) of each call in `source` that opens a file for reading, in line order."""
    tree = ast.parse(source, where)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _name(node)
            if name and _opens_for_reading(node, name) and (where, name) not in ALLOWED:
                found.append((where, node.lineno, name))
    return sorted(found)


def test_no_code_but_safe_read_opens_a_file_for_reading():
    sources = sorted(p for p in PACKAGE.rglob("*.py") if "regex_programs" not in p.parts)
    found = [hit for source in sources
             for hit in _reads(source.read_text(encoding="utf-8"), source.relative_to(PACKAGE).as_posix())]

    assert len(sources) > 50
    assert found == [], "read these files with installer/safe_read.py: " + ", ".join(
        f"{where}:{line} {name}()" for where, line, name in found)


def test_the_lint_finds_each_way_of_reading_it_looks_for_and_passes_writes():
    """The check above can fail: each read here is found, and no write."""
    reads = ['p.read_bytes()', 'p.read_text()', 'open(p)', 'open(p, "rb")', 'p.open()', 'os.open(p, os.O_RDONLY)',
             'shutil.copy2(a, b)', 'json.load(f)', 'tomllib.load(f)', 'os.fdopen(fd, "rb")', 'io.open(p)']
    writes = ['open(p, "w")', 'os.open(p, os.O_WRONLY | os.O_CREAT)', 'os.fdopen(fd, "wb")', 'json.loads(text)',
              'safe_read.read_text(p, safe_read.SCRIPT)']

    found = _reads("\n".join(reads + writes), "sample.py")

    assert [name for _, _, name in found] == [
        "p.read_bytes", "p.read_text", "open", "open", "p.open", "os.open", "shutil.copy2", "json.load", "tomllib.load",
        "os.fdopen", "io.open"]


# ---- what the one way in does with what is not a regular file -----------------------------------------

@pytest.mark.parametrize(("make", "said"), [
    (lambda tmp: fifo(tmp / "fifo"), "FIFO"), (lambda tmp: link(tmp / "zero", "/dev/zero"), "device"),
    (lambda tmp: link(tmp / "loop", "loop"), "loop"), (lambda tmp: sock(tmp / "sock"), "socket"),
    (lambda tmp: tmp, "directory"),
], ids=["a FIFO", "a link to /dev/zero", "a link loop", "a socket", "a folder"])
def test_what_is_not_a_regular_file_is_unreadable_said_in_words_without_a_blocking_read(tmp_path, make, said):
    path = make(tmp_path)

    with pytest.raises(HookwrightError) as caught:
        safe_read.read(path, safe_read.CONFIG)

    assert caught.value.kind is ErrorKind.UNREADABLE and said in caught.value.message
    assert caught.value.path == str(path) and caught.value.hint


def test_a_file_beyond_its_kinds_cap_is_refused_without_reading_it_whole(tmp_path):
    big = tmp_path / "receipt.json"
    with open(big, "wb") as out:  # sparse: 2 GiB on paper
        out.truncate(2 * 1024 ** 3)

    with pytest.raises(HookwrightError) as caught:
        safe_read.read(big, safe_read.RECEIPT)

    assert "receipt larger than 1 MiB" in caught.value.message


def test_a_link_to_a_regular_file_is_followed_and_a_missing_file_is_file_not_found(tmp_path):
    real = tmp_path / "real.json"
    real.write_bytes(b"{}")
    (tmp_path / "link.json").symlink_to(real)
    (tmp_path / "dangling.json").symlink_to(tmp_path / "gone.json")

    assert safe_read.read(tmp_path / "link.json", safe_read.CONFIG) == b"{}"
    assert safe_read.read(real, safe_read.CONFIG, prefix=1) == b"{"
    with pytest.raises(FileNotFoundError):
        safe_read.read(tmp_path / "dangling.json", safe_read.CONFIG)
    assert stat.S_ISLNK(os.lstat(tmp_path / "dangling.json").st_mode)
