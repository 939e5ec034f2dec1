#!/usr/bin/env bash
# Installs the Claude Code CLI that tests/e2e drive, pinned (an unpinned install once got
# 2.1.197, far behind "latest"), into ${HOOKWRIGHT_E2E_DIR:-~/.cache/hookwright-e2e}.
# Safe to re-run: npm is skipped when that version is already there.
set -euo pipefail

version=2.1.328
dir=${HOOKWRIGHT_E2E_DIR:-$HOME/.cache/hookwright-e2e}
claude=$dir/node_modules/@anthropic-ai/claude-code/bin/claude.exe

installed() { [[ -x $claude ]] && [[ $("$claude" --version 2>/dev/null) == "$version "* ]]; }

if ! installed; then
  mkdir -p "$dir"
  # its own package.json, so npm installs here and not into some parent project
  [[ -f $dir/package.json ]] ||
    echo '{"name": "hookwright-e2e", "private": true}' >"$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact \
    "@anthropic-ai/claude-code@$version" >&2
  installed || { echo "error: $claude is not Claude Code $version after npm install" >&2; exit 1; }
fi
"$claude" --version
echo "installed at $claude" >&2
