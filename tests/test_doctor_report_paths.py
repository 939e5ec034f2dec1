"""The report shows each path relative to the working folder with its links followed
(report.shown_path): hooks.model.real_path asks the disk only of a path's last part where its folder was
followed before, and must give what Path.resolve gives, links, loops and missing files included."""
from __future__ import annotations

from pathlib import Path

from hookwright.doctor import report
from hookwright.hooks.model import real_path, resolved


def _tree(root: Path) -> list[str]:
    """Files, folders and links of every kind, and the paths to them a report can show."""
    (root / "real" / "sub").mkdir(parents=True)
    (root / "real" / "sub" / "settings.json").write_text("{}")
    (root / "real" / "script.sh").write_text("")
    (root / "linked").symlink_to("real")  # a folder that is a link
    (root / "real" / "sub" / "alias.json").symlink_to("settings.json")  # a file that is a link
    (root / "real" / "up.sh").symlink_to("../real/script.sh")
    (root / "real" / "dangling.json").symlink_to("nowhere.json")
    (root / "loop").symlink_to("loop")
    (root / "absolute").symlink_to(root / "real" / "sub")
    names = ["real/sub/settings.json", "real/script.sh", "linked/sub/settings.json", "linked/script.sh",
             "real/sub/alias.json", "linked/sub/alias.json", "real/up.sh", "real/dangling.json",
             "real/missing.json", "missing/settings.json", "loop/settings.json", "loop", "absolute/settings.json",
             "real/sub/../script.sh", "linked/sub/../script.sh", "real/./script.sh", "real//script.sh", "real/sub/",
             "real", "."]
    return [str(root / name) for name in names] + names + ["/", "/tmp", "settings.json"]


def test_a_real_path_is_what_resolve_gives(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    paths = _tree(tmp_path)
    folders: dict[str, str] = {}
    for path in paths + paths:  # (the second time, with every folder followed before)
        assert real_path(path, folders) == str(resolved(Path(path))), path
    assert folders


def test_a_path_is_shown_as_with_pathlib(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path / "..")
    paths = _tree(tmp_path)
    base = resolved(tmp_path / "linked")
    folders: dict[str, str] = {}
    for path in paths:
        try:
            expected = resolved(Path(path)).relative_to(base).as_posix()
        except ValueError:
            expected = path
        assert report.shown_path(path, base, folders) == expected, path
    assert report.shown_path(str(tmp_path / "real" / "sub"), base) == "sub"
    assert report.shown_path(str(tmp_path / "real"), base) == "."
    assert report.shown_path("/tmp", resolved(Path("/"))) == "tmp"
