#!/usr/bin/env python3
"""Write every generated file, in the order they build on one another: doctor's rule catalog,
the pack flags and SchemaStore's assertions (build_rule_catalog.py), docs/rules.md from the
catalog (build_rules_doc.py), the README's capability tables from the adapters and the packs
(build_readme_tables.py), the pack format in docs/your-own-hooks.md from the pack schemas
(build_pack_format.py), then the README's terminal pictures (build_pictures.py). Each file's
own test still fails while it is stale; this is the one command that mends them all.

    python3 scripts/generate.py

(doctor's corpus snapshot is a test's record of what doctor finds, not built from the code: a
change meant to move findings rewrites it with
UPDATE_DOCTOR_SNAPSHOT=1 pytest tests/test_doctor_corpus.py -k before_it_was_made_fast)
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
BUILDERS = ("build_rule_catalog.py", "build_rules_doc.py", "build_readme_tables.py", "build_pack_format.py",
            "build_pictures.py")


def main() -> int:
    for builder in BUILDERS:
        done = subprocess.run([sys.executable, str(SCRIPTS / builder)], check=False)
        if done.returncode != 0:
            print(f"{builder} failed (exit {done.returncode}): the files after it were not written", file=sys.stderr)
            return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
