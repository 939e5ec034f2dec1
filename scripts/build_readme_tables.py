#!/usr/bin/env python3
"""Write the README's capability tables (what each host lets a hook do, which pack runs where)
from the host adapters (installer/hosts/*.py) and the packs. A test fails while the README
and the adapters disagree; run this after changing either.

    python3 scripts/build_readme_tables.py
"""
from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hookwright.commands.packs import TABLE_END, TABLE_START, capability_markdown  # noqa: E402


def with_tables(readme: str) -> str:
    start, end = readme.index(TABLE_START), readme.index(TABLE_END) + len(TABLE_END)
    return readme[:start] + capability_markdown() + readme[end:]


if __name__ == "__main__":
    path = REPO / "README.md"
    path.write_text(with_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the capability tables into {path}")
