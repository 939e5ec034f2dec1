from pathlib import Path

import pytest


def test_a_test_without_the_home_fixture_cannot_write_to_home():
    with pytest.raises(OSError):
        (Path.home() / ".claude").mkdir(parents=True)


def test_the_home_fixture_gives_a_writable_temporary_home(home):
    (Path.home() / ".claude").mkdir()
    assert Path.home() == home
