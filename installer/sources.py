"""Where a pack comes from: bundled with hookwright or on HOOKWRIGHT_PACKS_PATH (by name), a
folder (a path), or a git repository at a pinned revision (`URL@REV`, as pre-commit pins its
hooks; `URL@REV#folder` for a pack in a folder of the repository).

A repository is fetched into a bare repository of hookwright's own, one per URL, under the
user's cache folder, and the pack is the tree of the commit the revision names, written out once
per commit (a commit's tree never changes). Every git call switches the repository's own programs
off (git.py), the tree is written from `git archive` through tarfile's data filter (no links out
of it, no devices), and the pack is then read as any pack is (packs.py: regular files only).
Nothing of the repository runs before install has shown its plan.
"""
from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

from . import git, layout, resources
from .errors import HookwrightError
from .hosts import get
from .packs import MANIFEST, Pack, load_pack, load_pack_file, version_key
from .patterns import lazy
from .planning.places import installed_places
from .provenance import Source
from .records import Record
from .state import read_receipt

# a git URL: a scheme (https, ssh, git, file), or scp-like user@host:path
_URL = lazy(r"^(?:[a-z][a-z0-9+.-]*://|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)")
VERSION_TAG = lazy(r"^v?(\d+(?:\.\d+)*)$")
_COMMIT = lazy(r"^[0-9a-f]{40}$")
HEAD_BRANCH = lazy(r"^ref: refs/heads/(\S+)\s+HEAD$", re.MULTILINE)  # as `git ls-remote --symref` says it
IN_REPOSITORY = "#"  # URL@REV#folder: the pack in a folder of the repository
FETCH_REFS = ("+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*")


class Spec(Record):
    """What the command line names: a pack by name, a folder, or a repository at a revision."""

    kind: str  # name | folder | git
    text: str
    url: str | None = None
    rev: str | None = None
    folder: str | None = None  # git: the pack's folder in the repository (None: its root)


def parse(text: str) -> Spec:
    """A pack argument as the user means it: `URL@REV` (a git repository, which a revision pins;
    a local repository's path is a URL too), a path to a folder (`./mine`, `/x/mine`, `~/mine`,
    or any folder here holding a pack.toml), else a pack's name."""
    body, hashed, folder = text.partition(IN_REPOSITORY)
    url, at, rev = body.rpartition("@")
    if at and rev and (_URL.match(url) or _is_repository(Path(url).expanduser())):
        url = url if _URL.match(url) else str(Path(url).expanduser().absolute())  # (a local one, from anywhere)
        return Spec("git", text, url, rev, folder if hashed and folder else None)
    if _URL.match(body):
        raise HookwrightError(f"{text} names a git repository without a revision",
                              hint=f"pin one, as in {body}@v1.0.0 (a tag, a branch or a commit)")
    path = Path(text).expanduser()
    if "/" in text or text.startswith((".", "~")) or (path / MANIFEST).is_file():
        return Spec("folder", text, folder=str(path))
    return Spec("name", text)


def is_url(text: str) -> bool:
    """Whether `text` is a git URL (a scheme, or scp-like user@host:path), not a path."""
    return bool(_URL.match(text))


def _is_repository(path: Path) -> bool:
    """A folder of a git repository (its work tree, or a bare repository)."""
    return (path / ".git").exists() or (path / "HEAD").is_file() and (path / "objects").is_dir()


def load(spec: Spec) -> Pack:
    """The pack the spec names, read where it lives (a repository: fetched first)."""
    if spec.kind == "name":
        return load_pack(spec.text)
    if spec.kind == "folder":
        folder = Path(spec.folder or spec.text).absolute()
        if _is_repository(folder) and not (folder / MANIFEST).is_file():
            raise HookwrightError(f"{spec.text} is a git repository: name the revision to install",
                                  hint=f"{spec.text}@v1.0.0 (a tag, a branch or a commit)")
        return from_folder(folder, Source("folder", str(folder)))
    assert spec.url is not None and spec.rev is not None
    if spec.folder is not None and (Path(spec.folder).is_absolute() or ".." in Path(spec.folder).parts):
        raise HookwrightError(f"{spec.text}: the pack's folder in the repository must be a path inside it",
                              hint="write it relative to the repository's root, as in URL@REV#packs/mine")
    tree, commit = fetch(spec.url, spec.rev)
    return from_folder(tree / (spec.folder or ""), Source("git", spec.url, spec.rev, commit, spec.folder),
                       shown=f"{spec.url}@{spec.rev}" + (IN_REPOSITORY + spec.folder if spec.folder else ""))


def load_all(texts: list[str], project: Path | None) -> dict[str, Pack]:
    """The packs the command line names, by their names. A name that is no pack hookwright has
    is the one installed for this project from elsewhere (its receipt's source, at its commit)."""
    packs: dict[str, Pack] = {}
    for text in dict.fromkeys(texts):
        spec = parse(text)
        try:
            pack = load(spec)
        except HookwrightError:
            installed = installed_source(spec.text, project) if spec.kind == "name" else None
            if installed is None:
                raise
            pack = load_source(installed, spec.text)
        if pack.name in packs and packs[pack.name].source != pack.source:
            raise HookwrightError(f"two of the packs named are called {pack.name!r}: from "
                                  f"{packs[pack.name].source.describe()} and from {pack.source.describe()}",
                                  hint="install one of them")
        packs[pack.name] = pack
    return packs


def installed_source(name: str, project: Path | None) -> Source | None:
    """Where the pack of that name installed for this project (or for the user) came from, if
    from a folder or a repository (the first place status lists it in)."""
    for place in installed_places(project):
        if name in place.packs:
            host = get(place.host)
            receipt = read_receipt(host.target(place.scope, project, name).receipt_path(name))
            if receipt is not None and receipt.source.kind != "bundled":
                return receipt.source
    return None


def load_source(source: Source, name: str) -> Pack:
    """The pack a receipt says was installed from `source`: a repository's at the very commit."""
    if source.kind == "git" and source.location and source.commit:
        tree, _ = fetch(source.location, source.commit)
        return from_folder(tree / (source.folder or ""), source)
    if source.kind == "folder" and source.location:
        return from_folder(Path(source.location), source)
    return load_pack(name)


def from_folder(folder: Path, source: Source, shown: str | None = None) -> Pack:
    manifest = folder / MANIFEST
    if not manifest.is_file():
        raise HookwrightError(f"{shown or folder} holds no {MANIFEST}", path=folder,
                              hint="name the folder of a pack (one with a pack.toml); `hookwright pack new NAME` "
                                   "makes one")
    pack = load_pack_file(manifest, source, named=False)
    same_name = [d / pack.name for d in resources.pack_dirs() if (d / pack.name / MANIFEST).is_file()]
    if any(other.resolve() != folder.resolve() for other in same_name):
        raise HookwrightError(f"the pack in {shown or folder} is named {pack.name!r}, like a pack hookwright installs "
                              "by that name", path=manifest, hint="rename it (its folder and the name in its pack.toml)")
    return pack


# ---- git ----------------------------------------------------------------------------------------

def cache_root() -> Path:
    """hookwright's copies of repositories: in the user's cache folder (XDG_CACHE_HOME)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir(layout.APP, appauthor=False)) / "repos"


def fetch(url: str, rev: str) -> tuple[Path, str]:
    """(the tree of the commit `rev` names in the repository at `url`, written out in the cache;
    that commit). What is fetched once is not fetched again for a commit; a branch or a tag is
    asked of the repository each time."""
    bare = _bare(url)
    commit = _commit(bare, rev) if _COMMIT.match(rev) else None
    if commit is None:
        _fetch(bare, url)
        commit = _commit(bare, rev)
    if commit is None:
        raise HookwrightError(f"{url} has no revision {rev!r}",
                              hint="name a tag, a branch or a commit of the repository")
    tree = bare.parent / _key(url) / commit
    if not tree.is_dir():
        _write_tree(bare, commit, tree)
    return tree, commit


def newest(url: str, rev: str) -> str:
    """The revision `hookwright update` moves a repository's pack to: the highest version tag
    when the pack is pinned to one (v1.2.0, 1.2), the branch itself when pinned to a branch (its
    tip now), else the tip of the repository's default branch."""
    bare = _bare(url)
    _fetch(bare, url)
    if VERSION_TAG.match(rev):
        tags = [tag for tag in _git(bare, "tag", "--list").stdout.decode().split() if VERSION_TAG.match(tag)]
        if tags:
            return max(tags, key=lambda tag: version_key(VERSION_TAG.match(tag)[1]))
    if _commit(bare, f"refs/remotes/origin/{rev}") is not None:
        return rev
    head = _git(bare, "ls-remote", "--symref", url, "HEAD").stdout.decode()
    branch = HEAD_BRANCH.search(head)
    return branch[1] if branch else rev


def _key(url: str) -> str:
    return hashlib.sha256(url.encode()).hexdigest()[:20]


def _bare(url: str) -> Path:
    bare = cache_root() / f"{_key(url)}.git"
    if not (bare / "HEAD").is_file():
        bare.mkdir(parents=True, exist_ok=True)
        _git(bare, "init", "--bare", "--quiet")
    return bare


def _fetch(bare: Path, url: str) -> None:
    _git(bare, "fetch", "--quiet", "--force", "--no-recurse-submodules", "--", url, *FETCH_REFS, what=f"fetch {url}")


def _commit(bare: Path, rev: str) -> str | None:
    """The commit `rev` names in our copy (a branch as the repository has it), if it is there."""
    names = [rev] if _COMMIT.match(rev) or rev.startswith("refs/") else [f"refs/tags/{rev}", f"refs/remotes/origin/{rev}"]
    for name in names:
        done = git.run(bare, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{name}^{{commit}}")
        if done is not None and done.returncode == 0:
            return done.stdout.decode().strip()
    return None


def _write_tree(bare: Path, commit: str, tree: Path) -> None:
    """The commit's files, without git's attributes and filters: `git archive` read through
    tarfile's data filter, into a folder that is renamed into place whole."""
    done = _git(bare, "archive", "--format=tar", commit, what=f"read the files of {commit[:12]}")
    tree.parent.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=".tree-", dir=tree.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
            archive.extractall(temp, filter="data")
        os.replace(temp, tree)
    except OSError as error:
        if not tree.is_dir():  # (another run may have written the same commit's tree first)
            raise HookwrightError(f"cannot write the files of {commit[:12]}: {error}", path=tree) from None
    except tarfile.TarError as error:
        raise HookwrightError(f"the files of {commit[:12]} cannot be read: {error}", path=bare) from None
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def _git(folder: Path, *args: str, what: str = "") -> subprocess.CompletedProcess[bytes]:
    done = git.run(folder, *args)
    if done is None or done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] if done is not None else []
        raise HookwrightError(f"git could not {what or args[0]}" + (f": {said[0]}" if said else " (is git installed?)"),
                              hint="check the URL and the revision")
    return done
