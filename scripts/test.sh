#!/usr/bin/env bash
# The test command: a fresh virtual environment with hookwright and its test dependencies,
# the pinned Claude Code and opencode CLIs for the e2e tests, then pytest on every core
# (pytest-xdist, each worker taking tests from the others once its own are done; extra arguments
# go to pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[test]"
PYTHON=.venv/bin/python bash scripts/setup-e2e.sh
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
