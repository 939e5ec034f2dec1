"""Where the bundled templates and schemas are: inside the wheel, or at the repo root."""
from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from pathlib import Path


@cache
def data_root() -> Path:
    packaged = Path(str(files("installer"))) / "_data"
    return packaged if packaged.is_dir() else Path(__file__).resolve().parent.parent


def packs_dir() -> Path:
    return data_root() / "templates" / "packs"


def runtime_dir() -> Path:
    return data_root() / "templates" / "runtime"


@cache
def schema(name: str) -> dict:
    return json.loads((data_root() / "schemas" / name).read_text(encoding="utf-8"))
