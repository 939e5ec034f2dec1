"""The README's terminal pictures (docs/pictures/*.svg) are drawn by scripts/build_pictures.py
from real runs of the CLI: they must be what it draws today, and show what they are about."""
from __future__ import annotations

import sys
import tempfile

import pytest
from hookwright import resources


@pytest.fixture
def script():
    sys.path.insert(0, str(resources.data_root() / "scripts"))
    import build_pictures

    return build_pictures


@pytest.fixture
def pictures(script, home) -> dict:
    return {p.name: p for p in script.render(home)}


def test_the_pictures_are_what_the_script_draws_today(script, pictures):
    for name, picture in pictures.items():
        committed = script.PICTURES / name
        assert committed.is_file() and committed.read_text(encoding="utf-8") == picture.svg, \
            f"docs/pictures/{name} is stale: run python3 scripts/build_pictures.py"


def test_the_install_picture_shows_the_conflict_it_is_about(pictures):
    text = pictures["install-conflict.svg"].text
    assert "this change introduces 1 finding" in text and "error conflict/input-rewrite-race " in text
    assert "dry run: nothing written" in text


def test_the_doctor_picture_shows_findings_with_rule_ids(pictures):
    text = pictures["doctor-report.svg"].text
    for rule in ("matcher/case-mismatch", "command/unquoted-placeholder", "structure/timeout-milliseconds",
                 "command/script-missing"):
        assert rule in text
    assert "2 errors, 2 warnings in 1 file" in text


def test_no_temporary_path_is_left_in_a_picture(pictures):
    for picture in pictures.values():
        assert tempfile.gettempdir() not in picture.svg, f"{picture.name} would change on every run"
