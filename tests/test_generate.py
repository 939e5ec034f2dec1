"""scripts/generate.py writes every generated file: it runs every build script of scripts/."""
from __future__ import annotations

import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
sys.path.insert(0, str(SCRIPTS))

import generate  # noqa: E402


def test_the_generate_script_runs_every_build_script_there_is():
    assert sorted(generate.BUILDERS) == sorted(path.name for path in SCRIPTS.glob("build_*.py"))
