#!/usr/bin/env bash
# Installs the agent CLIs that tests/e2e drive, pinned (an unpinned install once got Claude
# Code 2.1.197, far behind "latest"), into ${HOOKWRIGHT_E2E_DIR:-~/.cache/hookwright-e2e}:
# Claude Code 2.1.328 and opencode 1.18.33 (npm opencode-ai).
# Safe to re-run: npm is skipped when those versions are already there.
set -euo pipefail

claude_version=2.1.328
opencode_version=1.18.33
dir=${HOOKWRIGHT_E2E_DIR:-$HOME/.cache/hookwright-e2e}
claude=$dir/node_modules/@anthropic-ai/claude-code/bin/claude.exe
opencode=$dir/node_modules/opencode-ai/bin/opencode.exe

claude_installed() { [[ -x $claude ]] && [[ $("$claude" --version 2>/dev/null) == "$claude_version "* ]]; }
scratch=$(mktemp -d)  # opencode writes its folders into HOME even for --version
trap 'rm -rf "$scratch"' EXIT
opencode_installed() { [[ -x $opencode ]] && [[ $(HOME=$scratch "$opencode" --version 2>/dev/null) == "$opencode_version" ]]; }

wanted=()
claude_installed || wanted+=("@anthropic-ai/claude-code@$claude_version")
opencode_installed || wanted+=("opencode-ai@$opencode_version")
if (( ${#wanted[@]} )); then
  mkdir -p "$dir"
  # its own package.json, so npm installs here and not into some parent project
  [[ -f $dir/package.json ]] || echo '{"name": "hookwright-e2e", "private": true}' >"$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --save-exact "${wanted[@]}" >&2
  claude_installed || { echo "error: $claude is not Claude Code $claude_version after npm install" >&2; exit 1; }
  opencode_installed || { echo "error: $opencode is not opencode $opencode_version after npm install" >&2; exit 1; }
fi
"$claude" --version
echo "opencode $(HOME=$scratch "$opencode" --version)"
echo "installed at $claude and $opencode" >&2
