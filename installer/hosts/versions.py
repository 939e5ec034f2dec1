"""The release of each agent that hookwright's facts are measured on (versions.toml), and where
the e2e installs keep each release: a folder per agent and version under one root
(`<root>/claude/2.1.332/node_modules/...`), so that several versions sit side by side and the
suites can run on any of them.

Standard library only, and runnable as a script, because scripts/setup-e2e.sh reads it before
any virtual environment exists: `python3 installer/hosts/versions.py [--root DIR] [HOST[@VERSION]...]`
prints one line per agent (every pinned one by default): `host npm version folder executable
expected`, the last what its `--version` prints.
"""
from __future__ import annotations

import os
import pwd
import sys
from functools import cache
from pathlib import Path
from typing import NamedTuple  # (not a Record: this module also runs as a script, without the package)

FILE = Path(__file__).with_name("versions.toml")
ROOT_VARIABLE = "HOOKWRIGHT_E2E_DIR"


class Pin(NamedTuple):
    """One agent at one release: its npm package and the executable in it."""

    host: str
    npm: str
    version: str
    program: str  # the executable, inside the npm package
    version_output: str  # what `--version` prints, {version} standing for the version

    def at(self, version: str) -> Pin:
        return self._replace(version=version)

    def says_it_is(self, printed: str) -> bool:
        """Whether `--version`'s output is this release's."""
        return printed.strip() == self.version_output.format(version=self.version)

    def folder(self, root: Path) -> Path:
        """The npm prefix this release is installed into."""
        return root / self.host / self.version

    def executable(self, root: Path) -> Path:
        return self.folder(root) / "node_modules" / self.npm / self.program


@cache
def pins() -> dict[str, Pin]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    data = tomllib.loads(FILE.read_text(encoding="utf-8"))
    return {host: Pin(host, table["npm"], table["version"], table["program"], table["version_output"])
            for host, table in data.items()}


def pin(host: str) -> Pin | None:
    """The pinned release of `host` (None: hookwright has measured no release of it)."""
    return pins().get(host)


def e2e_root() -> Path:
    """Where the e2e installs live: $HOOKWRIGHT_E2E_DIR, else ~/.cache/hookwright-e2e of the real
    home (not $HOME, which tests replace)."""
    given = os.environ.get(ROOT_VARIABLE)
    return Path(given) if given else Path(pwd.getpwuid(os.getuid()).pw_dir, ".cache", "hookwright-e2e")


def wanted(spec: str) -> Pin:
    """`claude` (the pin) or `claude@2.1.328` (another release of it)."""
    host, _, version = spec.partition("@")
    found = pin(host)
    if found is None:
        raise SystemExit(f"error: no agent {host!r} in {FILE} (agents: {', '.join(pins())})")
    return found.at(version) if version else found


def main(argv: list[str]) -> int:
    root = e2e_root()
    if argv[:1] == ["--root"]:
        root, argv = Path(argv[1]), argv[2:]
    for found in [wanted(spec) for spec in argv] or list(pins().values()):
        print(found.host, found.npm, found.version, found.folder(root), found.executable(root),
              found.version_output.format(version=found.version))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
