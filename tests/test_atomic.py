import os
import stat
import subprocess

import pytest
from hookwright import atomic, layout, state
from support import read_json, write_json


def test_a_write_replaces_the_file_whole_and_leaves_no_temp_file(tmp_path):
    target = tmp_path / "settings.json"
    target.write_bytes(b"old")

    atomic.write_bytes(target, b"new", expect=b"old")

    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["settings.json"]


def test_bytes_changed_since_our_read_stop_the_replace_and_keep_the_other_writer(tmp_path):
    target = tmp_path / "settings.json"
    target.write_bytes(b"the host wrote this")

    with pytest.raises(atomic.ConcurrentChange):
        atomic.write_bytes(target, b"ours", expect=b"what we read")

    assert target.read_bytes() == b"the host wrote this"
    assert os.listdir(tmp_path) == ["settings.json"]


@pytest.mark.skipif(atomic._renameat2() is None, reason="the swap needs Linux renameat2 (RENAME_EXCHANGE)")
def test_a_write_that_lands_between_our_swap_and_the_swap_back_is_the_one_the_file_keeps(tmp_path, monkeypatch):
    """The host writes twice (plain renames, as an editor or the agent writes): once just after
    our last look at the file, so our swap takes its write out and must give it back, and once
    more while we look at what the swap took out. The file ends with the host's last write."""
    path = tmp_path / "settings.json"
    path.write_bytes(b"read by us\n")
    writes = [b"the host's first write\n", b"the host's second write\n"]
    read = atomic._current

    def the_host_writes_as_we_read(where):
        seen = read(where)
        if writes and (where == path) == (len(writes) == 2):  # after our look at the file; then at the temp
            (tmp_path / "host").write_bytes(writes.pop(0))
            os.replace(tmp_path / "host", path)
        return seen

    monkeypatch.setattr(atomic, "_current", the_host_writes_as_we_read)
    with pytest.raises(atomic.ConcurrentChange):
        atomic.write_bytes(path, b"ours\n", expect=b"read by us\n")

    assert not writes and path.read_bytes() == b"the host's second write\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]


def test_a_file_deleted_just_after_our_last_look_stays_deleted(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    path.write_bytes(b"read by us\n")
    read = atomic._current

    def deleted_as_we_look(where):
        seen = read(where)
        if where == path:
            path.unlink(missing_ok=True)
        return seen

    monkeypatch.setattr(atomic, "_current", deleted_as_we_look)
    with pytest.raises(atomic.ConcurrentChange):
        atomic.write_bytes(path, b"ours\n", expect=b"read by us\n")

    assert list(tmp_path.iterdir()) == []


def test_a_new_file_gets_the_requested_mode_whatever_the_umask(tmp_path):
    old = os.umask(0)
    try:
        atomic.write_bytes(tmp_path / "run", b"#!", mode=0o755)
        atomic.make_dir(tmp_path / "folder")
    finally:
        os.umask(old)

    assert stat.S_IMODE((tmp_path / "run").stat().st_mode) == 0o755
    assert not stat.S_IMODE((tmp_path / "folder").stat().st_mode) & 0o022


def test_temp_files_left_by_a_killed_run_are_removed_by_the_next_run(hookwright, home, project):
    settings = project / ".claude" / "settings.json"
    write_json(settings, {})
    stale = settings.parent / f".settings.json{atomic.TEMP_MARK}abc123"
    stale.write_text('{"half": ')

    ran = hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")

    assert ran.code == 0, ran.err
    assert not stale.exists()
    assert read_json(settings)["hooks"]


def test_a_temp_file_is_stale_once_its_writer_is_gone_and_never_while_it_still_runs(hookwright, home, project):
    """Something that writes with our temp names but not under our lock (a second tool on the
    same files) must not have its temp file removed mid-write by a run's clean-up."""
    settings = project / ".claude" / "settings.json"
    write_json(settings, {})
    writer = subprocess.Popen(["sleep", "60"])
    ended = subprocess.Popen(["true"])
    ended.wait()
    try:
        live = settings.parent / f".settings.json{atomic.TEMP_MARK}{writer.pid}-x1"
        dead = settings.parent / f".settings.json{atomic.TEMP_MARK}{ended.pid}-x2"
        older = settings.parent / f".settings.json{atomic.TEMP_MARK}x3"  # (a name without a pid)
        odd = [settings.parent / f".settings.json{atomic.TEMP_MARK}{pid}-x4" for pid in ("99999999999", "²", "0")]
        for temp in (live, dead, older, *odd):
            temp.write_text('{"half": ')

        assert layout.stale_temps(settings.parent) == sorted([dead, older, *odd])
        assert hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes").code == 0
        assert live.exists() and not dead.exists() and not older.exists() and not any(t.exists() for t in odd)
    finally:
        writer.kill()
        writer.wait()


def test_backups_are_rotated_to_the_newest_ones(hookwright, home, project, monkeypatch):
    monkeypatch.setattr(state, "KEEP_BACKUPS", 3)
    for _ in range(3):
        hookwright("install", "git-guard", "--scope", "project", "--project", project, "--yes")
        hookwright("uninstall", "git-guard", "--scope", "project", "--project", project, "--yes")

    journal = hookwright("rollback", "--list", "--json").json["journal"]
    kept = sorted(p.name for p in layout.backups().iterdir())

    assert len(journal) == 6
    assert kept == sorted(op["backup"] for op in journal[-3:])
