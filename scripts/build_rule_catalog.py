#!/usr/bin/env python3
"""Compile what doctor reads at run time from the TOML it is written in: the rules
(installer/doctor/rules/<kind>.toml into installer/doctor/rules/catalog.json, and their explanations,
which a run reads only to explain a rule, into explanations.json) and which bundled
pack hooks rewrite input (templates/packs/*/pack.toml into templates/packs/flags.json). A JSON
file is parsed in a fraction of the time one TOML file takes, without importing tomllib. And
SchemaStore's settings schema without its descriptions (schemas/schemastore/*.assertions.json:
a fifth of the text to parse on every run). Run it after editing a rule or a pack, or replacing
the schema; a test fails while they disagree.

    python3 scripts/build_rule_catalog.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hookwright import resources, valid  # noqa: E402
from hookwright.doctor.checks.structure.settings import SCHEMASTORE, SCHEMASTORE_SOURCE  # noqa: E402
from hookwright.doctor.model import CATALOG, EXPLANATIONS, RULES_DIR, compile_catalog, compile_explanations  # noqa: E402
from hookwright.packs import compile_flags  # noqa: E402


def catalog_text() -> str:
    return json.dumps(compile_catalog(), indent=1, ensure_ascii=False) + "\n"


def explanations_text() -> str:
    return json.dumps(compile_explanations(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    for name, text in ((CATALOG, catalog_text()), (EXPLANATIONS, explanations_text())):
        (RULES_DIR / name).write_text(text, encoding="utf-8")
        print(f"wrote {RULES_DIR / name}")
    flags = resources.packs_dir() / "flags.json"
    flags.write_text(json.dumps(compile_flags(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {flags}")
    schemas = resources.data_root() / "schemas"
    source = json.loads((schemas / SCHEMASTORE_SOURCE).read_text(encoding="utf-8"))
    (schemas / SCHEMASTORE).write_text(json.dumps(valid.assertions(source), indent=1, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    print(f"wrote {schemas / SCHEMASTORE}")
