#!/usr/bin/env python3
"""Compile doctor's rules (installer/doctor/rules/<kind>.toml, where they are written) into
installer/doctor/rules/catalog.json, which doctor reads at run time (a JSON file is parsed in a
fraction of the time one TOML file takes). Run it after editing a rule; a test fails while the
two disagree.

    python3 scripts/build_rule_catalog.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from installer.doctor.model import CATALOG, RULES_DIR, compile_catalog  # noqa: E402


def catalog_text() -> str:
    return json.dumps(compile_catalog(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    (RULES_DIR / CATALOG).write_text(catalog_text(), encoding="utf-8")
    print(f"wrote {RULES_DIR / CATALOG}")
