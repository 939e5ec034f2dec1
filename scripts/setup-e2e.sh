#!/usr/bin/env bash
# Installs the agent CLIs that tests/e2e drive, each release in a folder of its own,
# ${HOOKWRIGHT_E2E_DIR:-~/.cache/hookwright-e2e}/<agent>/<version>, so that several releases sit
# side by side. Without arguments: every agent at the release installer/hosts/versions.toml
# pins (an unpinned install once got Claude Code 2.1.197, far behind "latest"); with
# `claude@2.1.328`, that release beside the pin (scripts/e2e_on_version.py runs the suites on it).
# Safe to re-run: npm is skipped for a release that is already there. $PYTHON reads the pins
# (python3 by default; on Python 3.10, one with tomli).
set -euo pipefail
cd "$(dirname "$0")/.."
root=${HOOKWRIGHT_E2E_DIR:-$HOME/.cache/hookwright-e2e}
wanted=$("${PYTHON:-python3}" installer/hosts/versions.py --root "$root" "$@")
scratch=$(mktemp -d)  # opencode writes its folders into HOME even for --version
trap 'rm -rf "$scratch"' EXIT

installed() {  # EXECUTABLE EXPECTED: is it there, and does --version print EXPECTED?
  [[ -x $1 ]] && [[ $(HOME=$scratch "$1" --version 2>/dev/null) == "$2" ]]
}

while read -r host npm version folder executable expected; do
  if ! installed "$executable" "$expected"; then
    mkdir -p "$folder"
    # its own package.json, so npm installs here and not into some parent project
    [[ -f $folder/package.json ]] || echo "{\"name\": \"hookwright-e2e-$host\", \"private\": true}" >"$folder/package.json"
    npm install --prefix "$folder" --no-audit --no-fund --save-exact "$npm@$version" >&2
    installed "$executable" "$expected" || { echo "error: $executable is not $host $version after npm install" >&2; exit 1; }
  fi
  echo "$host $version"
  echo "installed at $executable" >&2
done <<<"$wanted"
