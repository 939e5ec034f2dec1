"""A shell guard's block lost in the shell itself (installer/doctor/scripts/shell_status.py on the
script's tree, shell/lex.py): an `exit 2` that leaves only a subshell, `set -e` ending the script
with 1 before the guard decides, `local x=$(...)` hiding the status `$?` is read for, an EXIT trap's
function, a bare `wait`.

Every case is run by bash on a PreToolUse payload, so a broken case really ends with another status
than 2 and its twin really blocks (tests/e2e/test_shell_status_e2e.py shows the real CLI)."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from doctor_support import doctor, found, settings
from hookwright.doctor.scripts import arguments, shell_status
from hookwright.doctor.shell.lex import commands, parse, parsed_once
from test_doctor_delivery import GUARD, _status, _write

BLOCK = 'echo "Blocked: no shell commands here" >&2\n'
GUARD_ARGS = ' python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py'
JQ_CHECK = ('cmd=$(printf \'%s\' "$payload" | jq -r \'.tool_input.command // empty\' 2>/dev/null)\n'
            'case "$cmd" in rm*) ' + BLOCK.strip() + ' ; exit 2 ;; esac\nexit 0\n')

# name: (the rule, the script, the line doctor names, its twin)
CASES = {
    "exit 2 in a piped while loop": (
        "delivery/exit-in-subshell",
        "#!/bin/bash\njq -r .tool_input.command | while read -r part; do\n"
        '  case "$part" in rm*) ' + BLOCK.strip() + "; exit 2 ;; esac\ndone\nexit 0\n", 2,
        "#!/bin/bash\nwhile read -r part; do\n"
        '  case "$part" in rm*) ' + BLOCK.strip() + "; exit 2 ;; esac\ndone < <(jq -r .tool_input.command)\nexit 0\n"),
    "exit 2 in a function called inside $( )": (
        "delivery/exit-in-subshell",
        "check() {\n  echo 'no shell commands here'\n  exit 2\n}\ncat >/dev/null\nreason=$(check)\n"
        'echo "Blocked: $reason" >&2\nexit 0\n', 6,
        "check() {\n  echo 'no shell commands here'\n  exit 2\n}\ncat >/dev/null\nreason=$(check) || exit $?\n"
        'echo "Blocked: $reason" >&2\nexit 0\n'),
    "a function's return 2 inside $( ) whose status is not kept": (
        "delivery/exit-in-subshell",
        'check() {\n  case "$1" in *rm*) echo "no rm"; return 2 ;; esac\n}\n'
        'echo "Blocked: $(check "$(cat)")" >&2\nexit 0\n', 4,
        'check() {\n  case "$1" in *rm*) echo "no rm"; return 2 ;; esac\n}\n'
        'reason=$(check "$(cat)") || { echo "Blocked: $reason" >&2; exit 2; }\nexit 0\n'),
    "exit 2 in ( )": (
        "delivery/exit-in-subshell",
        "cat >/dev/null\n(\n  " + BLOCK + "  exit 2\n)\necho 'checked' >&2\n", 2,
        "cat >/dev/null\n{\n  " + BLOCK + "  exit 2\n}\necho 'checked' >&2\n"),
    "the last part of a pipeline exits 2 and pipefail is not needed, but a later line ends the script": (
        "delivery/exit-in-subshell",
        "set -o pipefail\ncat | { cat >/dev/null; " + BLOCK.strip() + "; exit 2; }\necho 'checked' >&2\n", 2,
        "set -eo pipefail\ncat | { cat >/dev/null; " + BLOCK.strip() + "; exit 2; }\necho 'checked' >&2\n"),
    "set -e and a grep that matches nothing": (
        "delivery/errexit-exits-early",
        "set -euo pipefail\ninput=$(cat)\nsecrets=$(printf '%s' \"$input\" | grep -o 'id_rsa')\n"
        'if [ -n "$secrets" ]; then echo "secrets" >&2; fi\n' + BLOCK + "exit 2\n", 3,
        "set -euo pipefail\ninput=$(cat)\nsecrets=$(printf '%s' \"$input\" | grep -o 'id_rsa' || true)\n"
        'if [ -n "$secrets" ]; then echo "secrets" >&2; fi\n' + BLOCK + "exit 2\n"),
    "set -e and ((n++)) from 0": (
        "delivery/errexit-exits-early",
        "#!/usr/bin/env bash\nset -e\ncat >/dev/null\ncount=0\nif true; then\n  ((count++))\nfi\n" + BLOCK + "exit 2\n", 6,
        "#!/usr/bin/env bash\nset -e\ncat >/dev/null\ncount=0\nif true; then\n  count=$((count + 1))\nfi\n" + BLOCK
        + "exit 2\n"),
    "set -e and a function that ends with [ ] &&": (
        "delivery/errexit-exits-early",
        'set -e\nnote() {\n  [ -n "${VERBOSE:-}" ] && echo "checking" >&2\n}\ncat >/dev/null\nnote\n' + BLOCK + "exit 2\n", 6,
        'set -e\nnote() {\n  if [ -n "${VERBOSE:-}" ]; then echo "checking" >&2; fi\n}\ncat >/dev/null\nnote\n' + BLOCK
        + "exit 2\n"),
    "local x=$( ) and then $?": (
        "delivery/status-masked",
        "check() {\n  echo 'no shell commands here'\n  return 1\n}\nmain() {\n  cat >/dev/null\n  local out=$(check)\n"
        '  if [ $? -ne 0 ]; then echo "Blocked: $out" >&2; return 2; fi\n}\nmain\nexit $?\n', 7,
        "check() {\n  echo 'no shell commands here'\n  return 1\n}\nmain() {\n  cat >/dev/null\n  local out\n  out=$(check)\n"
        '  if [ $? -ne 0 ]; then echo "Blocked: $out" >&2; return 2; fi\n}\nmain\nexit $?\n'),
    "an EXIT trap's function that exits 0": (
        "delivery/exit-2-lost",
        'work=$(mktemp -d)\ncleanup() {\n  rm -rf "$work"\n  exit 0\n}\ntrap cleanup EXIT\ncat >"$work/in.json"\n' + BLOCK
        + "exit 2\n", 4,
        'work=$(mktemp -d)\ncleanup() {\n  rm -rf "$work"\n}\ntrap cleanup EXIT\ncat >"$work/in.json"\n' + BLOCK + "exit 2\n"),
    "a bare wait after checks started in the background": (
        "delivery/exit-2-lost",
        'dir=$(dirname "$0")\ninput=$(cat)\nfor check in "$dir"/check-*.sh; do\n  bash "$check" <<<"$input" &\ndone\nwait\n',
        6,
        'dir=$(dirname "$0")\ninput=$(cat)\npids=()\nfor check in "$dir"/check-*.sh; do\n  bash "$check" <<<"$input" &\n'
        '  pids+=($!)\ndone\nfor pid in "${pids[@]}"; do\n  wait "$pid" || exit $?\ndone\n'),
    "a wrapper that pipes the guard its arguments name into tee": (
        "delivery/exit-2-lost", 'python3 "$(dirname "$0")/$1" 2>&1 | tee -a /dev/null >&2\n', 1,
        'set -o pipefail\npython3 "$(dirname "$0")/$1" 2>&1 | tee -a /dev/null >&2\n', " guard.py"),
    "a wrapper that runs its arguments behind || and a log line": (
        "delivery/exit-2-lost", '"$@" || echo "the guard failed" >&2\n', 1, '"$@" || exit $?\n', GUARD_ARGS),
    "a wrapper whose log line after the guard sets the status": (
        "delivery/exit-2-lost", 'HOOKS="$CLAUDE_PROJECT_DIR/.claude/hooks"\n"$HOOKS/$1"\necho "guard ran" >&2\n', 2,
        'HOOKS="$CLAUDE_PROJECT_DIR/.claude/hooks"\n"$HOOKS/$1"\nstatus=$?\necho "guard ran" >&2\nexit $status\n',
        " guard.sh"),
    "set -e and a lookup of the branch's upstream": (
        "delivery/errexit-exits-early",
        'set -euo pipefail\ninput=$(cat)\ncd "$CLAUDE_PROJECT_DIR"\nupstream=$(git rev-parse --abbrev-ref \'@{u}\')\n'
        + BLOCK + "exit 2\n", 4,
        'set -euo pipefail\ninput=$(cat)\ncd "$CLAUDE_PROJECT_DIR"\n'
        'upstream=$(git rev-parse --abbrev-ref \'@{u}\' 2>/dev/null || echo none)\n' + BLOCK + "exit 2\n"),
    "set -eu and jq -e as a statement": (
        "delivery/errexit-exits-early",
        "set -eu\ninput=$(cat)\njq -e '.tool_input.file_path' <<<\"$input\" >/dev/null\n" + BLOCK + "exit 2\n", 3,
        "set -eu\ninput=$(cat)\nif jq -e '.tool_input.file_path' <<<\"$input\" >/dev/null; then :; fi\n" + BLOCK
        + "exit 2\n"),
    "set -o errexit and a test written as a command": (
        "delivery/errexit-exits-early",
        'set -o errexit\ncat >/dev/null\n[ -f "$CLAUDE_PROJECT_DIR/.policy" ]\n' + BLOCK + "exit 2\n", 3,
        'set -o errexit\ncat >/dev/null\n[ -f "$CLAUDE_PROJECT_DIR/.policy" ] || echo "no policy file" >&2\n' + BLOCK
        + "exit 2\n"),
    "set -e reaches into a function called as a statement": (
        "delivery/errexit-exits-early",
        'set -e\nmain() {\n  cat >/dev/null\n  base=$(git -C "$CLAUDE_PROJECT_DIR" merge-base HEAD origin/main)\n'
        "  " + BLOCK + "  exit 2\n}\nmain\n", 4,
        'set -e\nmain() {\n  cat >/dev/null\n  base=$(git -C "$CLAUDE_PROJECT_DIR" merge-base HEAD origin/main)\n'
        "  " + BLOCK + "  exit 2\n}\nmain || exit $?\n"),
    "an ERR trap that exits 0": (
        "delivery/errexit-exits-early",
        "trap 'exit 0' ERR\ninput=$(cat)\nlisted=$(grep -c TODO \"$CLAUDE_PROJECT_DIR/NOTES\")\n" + BLOCK + "exit 2\n", 3,
        "trap 'exit 2' ERR\ninput=$(cat)\nlisted=$(grep -c TODO \"$CLAUDE_PROJECT_DIR/NOTES\")\n" + BLOCK + "exit 2\n"),
    "an ERR trap that exits 2 does not run inside a function without set -E": (
        "delivery/errexit-exits-early",
        "set -e\ntrap 'exit 2' ERR\ncheck() {\n  cat >/dev/null\n  command -v not-a-tool-here >/dev/null\n  " + BLOCK
        + "  exit 2\n}\ncheck\n", 5,
        "set -eE\ntrap 'exit 2' ERR\ncheck() {\n  cat >/dev/null\n  command -v not-a-tool-here >/dev/null\n  " + BLOCK
        + "  exit 2\n}\ncheck\n"),
    "set -eo pipefail in one cluster and a pipeline whose first part asks the remote": (
        "delivery/errexit-exits-early",
        'set -eo pipefail\ncat >/dev/null\ncd "$CLAUDE_PROJECT_DIR"\n'
        'head=$(git remote show origin | sed -n "s/.*HEAD branch: //p")\n' + BLOCK + "exit 2\n", 4,
        'set -eo pipefail\ncat >/dev/null\ncd "$CLAUDE_PROJECT_DIR"\n'
        'head=$(git remote show origin 2>/dev/null | sed -n "s/.*HEAD branch: //p" || true)\n' + BLOCK + "exit 2\n"),
    "a function's return 2 with the commands after its call setting the status": (
        "delivery/exit-2-lost",
        'check() {\n  case "$1" in *rm*) ' + BLOCK.strip() + '; return 2 ;; esac\n}\ncheck "$(cat)"\n'
        'echo "checked" >&2\n', 4,
        'check() {\n  case "$1" in *rm*) ' + BLOCK.strip() + '; return 2 ;; esac\n}\ncheck "$(cat)"\nstatus=$?\n'
        'echo "checked" >&2\nexit $status\n'),
    "a wrapper that reads the input and runs its arguments without it": (
        "delivery/stdin-not-passed", 'payload=$(cat)\nprintf \'%s\\n\' "$payload" >/dev/null\nexec "$@"\n', 3,
        'payload=$(cat)\nprintf \'%s\\n\' "$payload" >/dev/null\nexec "$@" <<<"$payload"\n', GUARD_ARGS),
    "a wrapper that reads the input with read and runs its guard by path": (
        "delivery/stdin-not-passed", 'IFS= read -r payload\nprintf \'%s\\n\' "$payload" >/dev/null\n'
        'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py\n', 3,
        'IFS= read -r payload\nprintf \'%s\\n\' "$payload" >/dev/null\n'
        'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py <<<"$payload"\n'),
    "a wrapper that takes the input with head -c and runs its arguments": (
        "delivery/stdin-not-passed", 'head -c 65536 >/dev/null\n"$@"\n', 2,
        'payload=$(cat)\n"$@" <<<"$payload"\n', GUARD_ARGS),
    "a wrapper whose inline python reads the input before its guard": (
        "delivery/stdin-not-passed",
        'tool=$(python3 -c \'import json, sys; print(json.load(sys.stdin)["tool_name"])\')\n"$@"\n', 2,
        'payload=$(cat)\ntool=$(python3 -c \'import json, sys; print(json.load(sys.stdin)["tool_name"])\' <<<"$payload")\n'
        '"$@" <<<"$payload"\n', GUARD_ARGS),
    "a wrapper that logs the input with tee and runs its guard": (
        "delivery/stdin-not-passed", 'tee -a /dev/null >/dev/null\n"$@"\n', 2, 'tee -a /dev/null | "$@"\n', GUARD_ARGS),
    "a wrapper that starts its arguments with </dev/null": (
        "delivery/stdin-not-passed", 'echo "guard starts" >&2\n"$@" </dev/null\n', 2, 'echo "guard starts" >&2\n"$@"\n',
        GUARD_ARGS),
    # the status a wrapper saves, or reads, and then does not pass on: its last statement decides
    "a wrapper that saves the guard's status and ends with an if whose condition is false": (
        "delivery/exit-2-lost",
        'timeout 20 "$@"\nrc=$?\nif [ "$rc" -ge 124 ]; then\n  echo "the guard timed out" >&2\nfi\n', 3,
        'timeout 20 "$@"\nrc=$?\nif [ "$rc" -ge 124 ]; then\n  echo "the guard timed out" >&2\nfi\nexit "$rc"\n',
        GUARD_ARGS),
    "a wrapper whose last line logs the guard's status": (
        "delivery/exit-2-lost", 'env HOOK=1 "$@"\necho "guard exited with $?" >&2\n', 2,
        'env HOOK=1 "$@"\nrc=$?\necho "guard exited with $rc" >&2\nexit $rc\n', GUARD_ARGS),
    "a wrapper that keeps the status in a variable and ends on a case": (
        "delivery/exit-2-lost",
        '"$@"\nstatus=$?\ncase $status in\n  0) ;;\n  *) echo "guard said $status" >&2 ;;\nesac\n', 3,
        '"$@"\nstatus=$?\ncase $status in\n  0) ;;\n  *) echo "guard said $status" >&2 ;;\nesac\nexit $status\n',
        GUARD_ARGS),
    "a wrapper whose fallback after || exits 1": (
        "delivery/exit-2-lost", '"$@" || { echo "the guard failed" >&2; exit 1; }\n', 1,
        '"$@" || { status=$?; echo "the guard failed" >&2; exit $status; }\n', GUARD_ARGS),
    "a wrapper whose fallback after || logs and then exits with the log's status": (
        "delivery/exit-2-lost", '"$@" || { echo "the guard failed" >&2; exit; }\n', 1,
        '"$@" || { rc=$?; echo "the guard failed" >&2; exit "$rc"; }\n', GUARD_ARGS),
    "a wrapper that runs its guard behind || exit 0": (
        "delivery/exit-2-lost", 'cd "$CLAUDE_PROJECT_DIR" || exit 0\n"$@" || exit 0\n', 2,
        'cd "$CLAUDE_PROJECT_DIR" || exit 0\n"$@" || exit\n', GUARD_ARGS),
    "a wrapper whose ERR trap exits 1 when its guard fails": (
        "delivery/exit-2-lost", "trap 'echo \"hook failed at line $LINENO\" >&2; exit 1' ERR\n\"$@\"\n", 2,
        "trap 'echo \"hook failed at line $LINENO\" >&2' ERR\n\"$@\"\n", GUARD_ARGS),
    # a status the commands after the guard replace: a later guard, a loop's last pass, an empty variable
    "two guards in turn by paths a variable of the script holds": (
        "delivery/exit-2-lost",
        'dir="$(cd "$(dirname "$0")" && pwd)"\npayload=$(cat)\nprintf "%s" "$payload" | bash "$dir/guard.sh"\n'
        'printf "%s" "$payload" | bash "$dir/allow.sh"\n', 3,
        'dir="$(cd "$(dirname "$0")" && pwd)"\npayload=$(cat)\nprintf "%s" "$payload" | bash "$dir/guard.sh" || exit $?\n'
        'printf "%s" "$payload" | bash "$dir/allow.sh"\n'),
    "two guards in turn under the project folder a variable holds": (
        "delivery/exit-2-lost",
        'payload=$(cat)\nHOOKS="${CLAUDE_PROJECT_DIR}/.claude/hooks"\nprintf "%s" "$payload" | bash "$HOOKS/guard.sh"\n'
        'printf "%s" "$payload" | bash "$HOOKS/allow.sh"\n', 3,
        'payload=$(cat)\nHOOKS="${CLAUDE_PROJECT_DIR}/.claude/hooks"\nprintf "%s" "$payload" | bash "$HOOKS/guard.sh" || exit\n'
        'printf "%s" "$payload" | bash "$HOOKS/allow.sh"\n'),
    "a guard tested by an if whose branch only logs": (
        "delivery/exit-2-lost",
        'payload=$(cat)\nif ! bash "$(dirname "$0")/guard.sh" <<<"$payload"; then\n  echo "guard refused" >&2\nfi\n', 2,
        'payload=$(cat)\nif ! bash "$(dirname "$0")/guard.sh" <<<"$payload"; then\n  echo "guard refused" >&2\n  exit 2\nfi\n'),
    "a for loop over guards whose last pass decides": (
        "delivery/exit-2-lost",
        'payload=$(cat)\nhere=$(dirname "$0")\nfor g in guard.sh allow.sh; do\n  bash "$here/$g" <<<"$payload"\ndone\n', 4,
        'payload=$(cat)\nhere=$(dirname "$0")\nfor g in guard.sh allow.sh; do\n  bash "$here/$g" <<<"$payload" || exit $?\n'
        'done\n'),
    "a for loop over a folder's guards whose last pass decides": (
        "delivery/exit-2-lost",
        'payload=$(cat)\nfor g in "$(dirname "$0")"/guards/*.sh; do\n  printf "%s" "$payload" | bash "$g"\ndone\n', 3,
        'set -e\npayload=$(cat)\nfor g in "$(dirname "$0")"/guards/*.sh; do\n  printf "%s" "$payload" | bash "$g"\ndone\n'),
    "exit with a misspelt status variable": (
        "delivery/exit-2-lost",
        'bash "$(dirname "$0")/guard.sh"\nstatus=$?\necho "guard said $status" >&2\nexit $stauts\n', 4,
        'bash "$(dirname "$0")/guard.sh"\nstatus=$?\necho "guard said $status" >&2\nexit $status\n'),
    "exit with a status set in a piped while loop": (
        "delivery/exit-2-lost",
        'rc=0\njq -r .tool_input.command | while read -r c; do\n  case "$c" in rm*) echo no >&2; rc=2 ;; esac\ndone\n'
        'exit $rc\n', 2,
        'rc=0\nwhile read -r c; do\n  case "$c" in rm*) echo no >&2; rc=2 ;; esac\ndone < <(jq -r .tool_input.command)\n'
        'exit $rc\n'),
    "exit with a status a function keeps local": (
        "delivery/exit-2-lost",
        'check() {\n  local rc\n  bash "$(dirname "$0")/guard.sh"\n  rc=$?\n}\ncheck\nexit $rc\n', 7,
        'check() {\n  bash "$(dirname "$0")/guard.sh"\n  rc=$?\n}\ncheck\nexit $rc\n'),
    "set -e and read -d '' after an assignment to IFS": (
        "delivery/errexit-exits-early", "set -euo pipefail\nIFS= read -r -d '' payload\n" + JQ_CHECK, 2,
        "set -euo pipefail\nIFS= read -r -d '' payload || true\n" + JQ_CHECK),
    "a helper's return 2 called in an if, and the script runs on": (
        "delivery/exit-2-lost",
        'deny() {\n  echo "Blocked: $1" >&2\n  return 2\n}\ncmd=$(jq -r .tool_input.command)\nif [[ $cmd == rm* ]]; then\n'
        '  deny "no rm"\nfi\nexit 0\n', 3,
        'deny() {\n  echo "Blocked: $1" >&2\n  return 2\n}\ncmd=$(jq -r .tool_input.command)\nif [[ $cmd == rm* ]]; then\n'
        '  deny "no rm"\n  exit $?\nfi\nexit 0\n'),
    "a case on the guard's status with no arm for 2": (
        "delivery/exit-2-lost",
        'bash "$(dirname "$0")/guard.sh"\ncase $? in\n  0) exit 0 ;;\n  1) exit 2 ;;\nesac\n', 2,
        'bash "$(dirname "$0")/guard.sh"\ncase $? in\n  0) exit 0 ;;\n  1|2) exit 2 ;;\nesac\n'),
    "a case on the status a wrapper stored whose catch-all lets 2 through": (
        "delivery/exit-2-lost",
        '"$@"\nrc=$?\ncase "$rc" in\n  1) exit 2 ;;\n  *) exit 0 ;;\nesac\n', 5,
        '"$@"\nrc=$?\ncase "$rc" in\n  1|2) exit 2 ;;\n  *) exit 0 ;;\nesac\n', GUARD_ARGS),
    "a test of the guard's status that blocks only for 1": (
        "delivery/exit-2-lost",
        'bash "$(dirname "$0")/guard.sh"\nif [ $? -eq 1 ]; then\n  echo "guard refused" >&2\n  exit 2\nfi\nexit 0\n', 2,
        'bash "$(dirname "$0")/guard.sh"\nif [ $? -ne 0 ]; then\n  echo "guard refused" >&2\n  exit 2\nfi\nexit 0\n'),
    "a stored status tested for 1 alone before the wrapper's log line": (
        "delivery/exit-2-lost", '"$@"\nrc=$?\n[ "$rc" = 1 ] && exit 2\necho "guard said $rc" >&2\n', 3,
        '"$@"\nrc=$?\n[ "$rc" = 1 ] && exit 2\necho "guard said $rc" >&2\nexit "$rc"\n', GUARD_ARGS),
    "a while read loop over the guards ls lists, whose last pass decides": (
        "delivery/exit-2-lost",
        'payload=$(cat)\nls "$(dirname "$0")"/guards/*.sh | while read -r g; do\n  bash "$g" <<<"$payload"\ndone\n', 3,
        'payload=$(cat)\nls "$(dirname "$0")"/guards/*.sh | while read -r g; do\n  bash "$g" <<<"$payload" || exit $?\n'
        'done\n'),
    "a while read loop fed the guards find lists, whose last pass decides": (
        "delivery/exit-2-lost",
        'payload=$(cat)\nwhile IFS= read -r g; do\n  bash "$g" <<<"$payload"\n'
        'done < <(find "$(dirname "$0")/guards" -name "*.sh" | sort)\necho "checked" >&2\n', 3,
        'payload=$(cat)\nwhile IFS= read -r g; do\n  bash "$g" <<<"$payload" || exit $?\n'
        'done < <(find "$(dirname "$0")/guards" -name "*.sh" | sort)\necho "checked" >&2\n'),
    "a for loop whose failing passes keep their status in a variable nothing reads": (
        "delivery/exit-2-lost",
        'payload=$(cat)\nfor g in "$(dirname "$0")"/guards/*.sh; do\n  bash "$g" <<<"$payload" || rc=$?\ndone\n', 3,
        'payload=$(cat)\nfor g in "$(dirname "$0")"/guards/*.sh; do\n  bash "$g" <<<"$payload" || rc=$?\ndone\n'
        'exit "${rc:-0}"\n'),
    # the input read only in part: a large call reaches jq cut short, and the guard lets it through
    "head -c caps the input": (
        "script/stdin-read-partly", 'payload=$(head -c 40)\n' + JQ_CHECK, 1, 'payload=$(cat)\n' + JQ_CHECK),
    "dd reads one block of the input": (
        "script/stdin-read-partly", 'payload=$(dd bs=40 count=1 2>/dev/null)\n' + JQ_CHECK, 1,
        'payload=$(dd bs=40 2>/dev/null)\n' + JQ_CHECK),
    "read -n takes the first characters": (
        "script/stdin-read-partly", 'IFS= read -r -n 40 payload\n' + JQ_CHECK, 1,
        'IFS= read -r -d "" payload\n' + JQ_CHECK),
    "cat piped into cut -c": (
        "script/stdin-read-partly", 'payload=$(cat | cut -c1-40)\n' + JQ_CHECK, 1, 'payload=$(cat | tr -d "\\r")\n' + JQ_CHECK),
    "the variable holding the input sliced": (
        "script/stdin-read-partly", 'payload=$(cat)\npayload=${payload:0:40}\n' + JQ_CHECK, 2,
        'payload=$(cat)\nshort=${payload:0:40}\necho "checking ${short}" >/dev/null\n' + JQ_CHECK.replace("$payload", "$payload")),
}
CHECK = "cat >/dev/null\n" + BLOCK + "exit 2\n"
ALLOW = "cat >/dev/null\nexit 0\n"


@pytest.mark.parametrize("twin", [False, True], ids=["broken", "twin"])
@pytest.mark.parametrize("name", list(CASES))
def test_a_block_the_shell_itself_loses_is_flagged_at_the_line_to_change(tmp_path, name, twin):
    rule, broken, line, fixed, *args = CASES[name]
    base = tmp_path / "project"
    files = {"h.sh": fixed if twin else broken, "check-a.sh": CHECK, "guard.py": GUARD, "guard.sh": CHECK,
             "allow.sh": ALLOW, "guards/10-block.sh": CHECK, "guards/20-allow.sh": ALLOW}
    command = _write(base, files, "h.sh") + "".join(args)
    (base / ".claude" / "hooks" / "guard.sh").chmod(0o755)
    assert (_status(base, command) == 2) == twin  # what the host would receive
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    flagged = [f for f in out.findings if (f.rule.startswith("delivery/") or f.rule == "script/stdin-read-partly")
               and Path(f.path).name == "h.sh"]
    assert [(f.rule, f.line) for f in flagged] == ([] if twin else [(rule, line)])


@pytest.mark.parametrize("text", [
    "set -e\ninput=$(cat)\nif grep -q rm <<<\"$input\"; then exit 2; fi\n",  # a grep in a condition
    "set -e\ninput=$(cat)\ngrep -q rm <<<\"$input\" && exit 2\nexit 0\n",  # before &&
    "set -e\ncat >/dev/null\nn=1\n((n++))\nexit 2\n",  # (only a first count from 0 fails: n++ is not flagged alone)
    "cat >/dev/null\nx=$(grep rm /dev/null)\nexit 2\n",  # no set -e
    "shopt -s lastpipe\njq -r .tool_input.command | while read -r c; do exit 2; done\nexit 0\n",
    "jq -r .tool_input.command | while read -r c; do exit 2; done\n",  # the last command: its status is the script's
    "jq -r .tool_input.command | while read -r c; do exit 2; done\nexit \"${PIPESTATUS[1]}\"\n",
    "cat >/dev/null\nout=$(exit 2)\nstatus=$?\nexit $status\n",  # x=$( ) without local keeps the status
    "cat >/dev/null\nout=$(exit 2) || exit 2\nexit 0\n",
    'payload=$(cat)\nprintf "%s" "$payload" >/dev/null\nprintf "%s" "$payload" | python3 "$(dirname "$0")/guard.py"\n',
    'echo "running the guard" >&2\nexec python3 "$(dirname "$0")/$1"\n',
    # errexit does not reach these failures, or they come after the block
    'set -e\ncat >/dev/null\nf() { local up=$(git rev-parse "@{u}"); declare b=$(git symbolic-ref HEAD); exit 2; }\nf\n',
    'set -e\ncat >/dev/null\nif git rev-parse "@{u}" >/dev/null 2>&1; then :; fi\nexit 2\n',
    'set -e\ncat >/dev/null\ngit rev-parse "@{u}" >/dev/null 2>&1 || exit 2\n',
    'set -e\ncat >/dev/null\ngit symbolic-ref HEAD >/dev/null 2>&1 && echo on-a-branch >&2 || true\nexit 2\n',
    'set -e\ncat >/dev/null\nset +e\nup=$(git rev-parse "@{u}" 2>/dev/null)\nset -e\nexit 2\n',
    'set -e\ncat >/dev/null\n! grep -q x /dev/null\nexit 2\n',
    'set -e\ncat >/dev/null\ncheck() { grep -q TODO /dev/null; exit 2; }\nif check; then :; fi\nexit 2\n',
    "set -e\ntrap 'echo failed >&2; exit 2' ERR\ncat >/dev/null\n[ -f /nonexistent ]\nexit 2\n",
    'cat >/dev/null\nup=$(git rev-parse "@{u}" 2>/dev/null)\nexit 2\n',  # no errexit
    # the revision is tested before the command that needs it
    'set -e\ncat >/dev/null\nif git rev-parse --verify -q "@{u}" >/dev/null; then\n  n=$(git rev-list --count "@{u}..HEAD")\n'
    'fi\nexit 2\n',
    'set -e\ncheck() {\n  case "$1" in *rm*) echo no >&2; return 2 ;; esac\n}\ncheck "$(cat)"\necho "checked" >&2\n',
    'check() {\n  case "$1" in *rm*) echo no >&2; return 2 ;; esac\n}\ncheck "$(cat)" || exit $?\necho ok >&2\n',
    'check() {\n  case "$1" in *rm*) echo no >&2; return 2 ;; esac\n}\nexit $(check "$(cat)")\n',
    # a wrapper that reads the status it saved and passes it on, or exits 2 of its own
    'python3 "$(dirname "$0")/$1"\nrc=$?\nif [ "$rc" -ne 0 ]; then echo "guard said $rc" >&2; fi\nexit "$rc"\n',
    'timeout 20 python3 "$(dirname "$0")/$1"\nrc=$?\n[ "$rc" -eq 2 ] && exit 2\necho "allowed" >&2\n',
    "trap 'echo \"hook failed\" >&2; exit 2' ERR\npython3 \"$(dirname \"$0\")/$1\"\n",
    # the input read whole; only a copy for the log is cut
    'payload=$(cat)\nprintf "%s" "$payload" | head -c 200 >&2\nprintf "%s" "$payload" | python3 "$(dirname "$0")/$1"\n',
    'payload=$(cat)\necho "input: ${payload:0:80}" >&2\npython3 "$(dirname "$0")/$1" <<<"$payload"\n',
    # a loop over one guard, or one that stops at the first refusal; a status variable set where it is read
    'payload=$(cat)\nfor g in guard.py; do\n  python3 "$(dirname "$0")/$g" <<<"$payload"\ndone\n',
    'payload=$(cat)\nfor g in guard.py "$1"; do\n  python3 "$(dirname "$0")/$g" <<<"$payload" || exit $?\ndone\n',
    'python3 "$(dirname "$0")/$1"\nrc=$?\necho "guard said $rc" >&2\nexit $rc\n',
    'check() {\n  python3 "$(dirname "$0")/$1"\n  rc=$?\n}\ncheck "$1"\nexit $rc\n',
    'rc=0\nwhile read -r c; do\n  case "$c" in rm*) rc=2 ;; esac\ndone < <(jq -r .tool_input.command)\nexit $rc\n',
    'cat >/dev/null\nread -r rc <<<"2"\nexit $rc\n',
    'payload=$(cat)\nif python3 "$(dirname "$0")/$1" <<<"$payload"; then\n  echo ok >&2\nelse\n  exit $?\nfi\n',
    # a helper's return 2 whose call is the script's last word; a case that maps 2 to 2
    'deny() { echo no >&2; return 2; }\ncmd=$(cat)\ncase "$cmd" in *rm*) deny x ;; esac\n',
    'deny() { echo no >&2; return 2; }\ncmd=$(cat)\nif [[ $cmd == *rm* ]]; then\n  deny x\nfi\n',
    'python3 "$(dirname "$0")/$1"\ncase $? in\n  0) exit 0 ;;\n  2) exit 2 ;;\n  *) exit 1 ;;\nesac\n',
    'python3 "$(dirname "$0")/$1"\nrc=$?\ncase $rc in\n  0) ;;\n  *) echo "guard said $rc" >&2; exit $rc ;;\nesac\n',
    # a loop that skips what it cannot run and stops at the first refusal, or keeps the worst status
    'payload=$(cat)\nfor g in "$(dirname "$0")"/$1 "$(dirname "$0")"/none.py; do\n  [ -f "$g" ] || continue\n'
    '  python3 "$g" <<<"$payload" || exit $?\ndone\n',
    'payload=$(cat)\nrc=0\nfor g in "$1" none.py; do\n  [ -f "$(dirname "$0")/$g" ] || continue\n'
    '  python3 "$(dirname "$0")/$g" <<<"$payload"\n  rc=$(( $? > rc ? $? : rc ))\ndone\nexit $rc\n',
    'python3 "$(dirname "$0")/$1"\n[ $? -eq 0 ] || exit 2\n',
    'python3 "$(dirname "$0")/$1"\nif [ $? -eq 0 ]; then\n  exit 0\nelse\n  exit 2\nfi\n',
])
def test_near_misses_that_keep_the_block_stay_clean(tmp_path, text):
    base = tmp_path / "project"
    command = _write(base, {"h.sh": text, "guard.py": GUARD}, "h.sh") + " guard.py"
    assert _status(base, command) == 2
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert [f.rule for f in out.findings if f.rule.startswith("delivery/")] == []


def test_the_shell_tree_reads_compound_commands_and_what_command_substitutions_run():
    script = ("f() { grep x || true; }\nif a; then b | c; elif d; then :; else e; fi\n"
              "while read -r l; do case $l in a|b) g ;; *) h ;; esac; done < <(i)\n"
              "for x in 1 2; do j & done\ny=$(k \"$(l)\")\n( m ) 3>&1\n((n++))\ncat <<EOF\nnot $(run)\nEOF\n")
    tree = parse(script)
    kinds = [c.kind for c in commands(tree)]
    heads = [c.head for c in commands(tree) if c.kind == "simple"]
    assert kinds.count("function") == 1 and kinds.count("case") == 1 and kinds.count("arith") == 1
    assert heads == ["grep", "true", "a", "b", "c", "d", ":", "e", "read", "g", "h", "i", "j", "y=$(...)", "k", "l",
                     "m", "cat"]
    assert [script.count("\n", 0, statement.at) + 1 for statement in tree] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_tools_run_side_by_side_before_a_bare_wait_are_no_lost_checks():
    """`ruff format "$f" & prettier --write "$f" & wait`: programs, not checks the script is given
    or ships, so the bare wait loses no block; `"$check" &` in a loop does."""
    def at(offset: int) -> tuple[int, int]:
        return 1, offset + 1

    tools = 'f=$(jq -r .tool_input.file_path)\nruff format "$f" &\nprettier --write "$f" &\nwait\n'
    checks = 'for check in "$DIR"/*.sh; do\n  "$check" &\ndone\nwait\n'
    assert [place.how for place in shell_status.lost(tools, at)] == []
    assert [place.rule for place in shell_status.lost(checks, at)] == ["exit-2-lost"]


@pytest.mark.parametrize("runs, line", [("bash -e {path}", 3), ("sh -eu {path}", 3), ("bash -o errexit {path}", 3),
                                        ("bash {path}", None), ("bash -u {path}", None)])
def test_errexit_the_command_turns_on_is_flagged_at_the_command(tmp_path, runs, line):
    """`bash -e h.sh`: errexit from the shell's command line, which the script never sets; the
    command is the line to change, the script's failing line its related place."""
    base = tmp_path / "project"
    _write(base, {"h.sh": "#!/bin/bash\ncat >/dev/null\ngrep -q TODO /dev/null\n" + BLOCK + "exit 2\n"}, "h.sh")
    command = runs.format(path='"$CLAUDE_PROJECT_DIR"/.claude/hooks/h.sh')
    assert (_status(base, command) == 2) == (line is None)
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    hits = [f for f in out.findings if f.rule == "delivery/errexit-exits-early"]
    assert [(Path(f.path).name, f.related[0]["line"]) for f in hits] == ([("settings.json", line)] if line else [])


@pytest.mark.parametrize("runs, flagged", [("{path}", True), ("bash {path}", False)])
def test_the_shebangs_errexit_holds_only_where_the_file_runs_by_its_shebang(tmp_path, runs, flagged):
    """`#!/bin/bash -e`: run as `bash h.sh`, the #! line is a comment and errexit is off."""
    base = tmp_path / "project"
    text = "#!/bin/bash -e\ncat >/dev/null\ngrep -q TODO /dev/null\n" + BLOCK + "exit 2\n"
    _write(base, {"h.sh": text}, "h.sh")
    path = base / ".claude" / "hooks" / "h.sh"
    path.chmod(0o755)
    command = runs.format(path='"$CLAUDE_PROJECT_DIR"/.claude/hooks/h.sh')
    assert (_status(base, command) == 2) != flagged
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert [f.line for f in out.findings if f.rule == "delivery/errexit-exits-early"] == ([3] if flagged else [])


DENY = """jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "%s"}}'\n"""


@pytest.mark.parametrize("decision, flagged", [("deny", True), ("allow", False)])
def test_errexit_before_a_json_refusal_is_flagged_and_before_an_allow_it_is_not(tmp_path, decision, flagged):
    """A failure under set -e ends the script before its deny (the call runs); before an allow,
    the call runs all the same (it is asked for, not approved)."""
    base = tmp_path / "project"
    text = 'set -e\ncat >/dev/null\ncd "$CLAUDE_PROJECT_DIR"\nup=$(git rev-parse "@{u}")\n' + DENY % decision
    command = _write(base, {"h.sh": text}, "h.sh")
    assert _status(base, command) == 128  # (the answer never printed)
    out = doctor(base, {".claude/settings.json": settings(command=command)})
    assert [f.line for f in out.findings if f.rule == "delivery/errexit-exits-early"] == ([4] if flagged else [])


DISPATCH = ('#!/bin/bash\ninput=$(cat)\ncase "$1" in\n  pre)\n    case "$input" in *rm*) ' + BLOCK.strip() +
            '; exit 2 ;; esac\n    ;;\n  post)\n    echo "formatted" >&2\n    ;;\nesac\nexit 0\n')


@pytest.mark.parametrize("pre, post, found", [
    ("pre", "post", []),
    ("PreToolUse", "PostToolUse", [("delivery/argument-unmatched", "PreToolUse")]),  # another spelling: no arm runs
    ("post", "pre", [("script/exit-2-does-not-block", "PostToolUse")]),  # swapped: the block runs after the call
])
def test_a_script_that_branches_on_the_argument_its_handler_passes(tmp_path, pre, post, found):
    """`hook.sh pre` on PreToolUse and `hook.sh post` on PostToolUse: each handler runs the arm its
    argument names (scripts/arguments.py reads `case "$1"` and `if [ "$1" = ... ]` as regions)."""
    base = tmp_path / "project"
    command = _write(base, {"h.sh": DISPATCH}, "h.sh")
    assert (_status(base, f"{command} {pre}") == 2) == (pre == "pre")  # (the payload names rm)
    out = doctor(base, {".claude/settings.json": {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"{command} {pre}"}]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": f"{command} {post}"}]}]}}})
    hits = [f for f in out.findings if f.rule in ("delivery/argument-unmatched", "script/exit-2-does-not-block")]
    assert [(f.rule, next(e for e in ("PreToolUse", "PostToolUse") if e in f.message)) for f in hits] == found


def test_the_shell_reads_the_arguments_branches_as_regions():
    def line_of(offset: int) -> int:
        return code.count("\n", 0, offset) + 1

    code = ('mode="${1:-pre}"\nif [ "$mode" = stop ]; then\n  exit 0\nelse\n  echo go\nfi\n'
            'case $1 in\n  a) x ;;\n  b|c) y ;;\n  *) z ;;\nesac\n[[ $2 == q ]] && exit 0\n')
    regions = arguments.shell(code, parsed_once(code), line_of)
    assert sorted(regions) == sorted([arguments.Region(3, 3, "stop", True), arguments.Region(5, 5, "stop", False),
                                      arguments.Region(8, 8, "a", True), *(arguments.Region(10, 10, name, False)
                                                                             for name in ("a", "b", "c"))])


OUTSIDE_GIT = """\
#!/bin/bash
set -euo pipefail
cmd=$(jq -r '.tool_input.command // empty')
{line}
case "$cmd" in
  rm*) echo "no rm" >&2; exit 2 ;;
esac
exit 0
"""


@pytest.mark.parametrize("line, repository, stops", [
    ('branch=$(git rev-parse --abbrev-ref HEAD)', False, True),
    ('top=$(git rev-parse --show-toplevel)', False, True),
    ('git diff --cached --name-only > /dev/null', False, True),
    ('branch=$(git rev-parse --abbrev-ref HEAD)', True, False),  # (in a repository with a commit: it runs)
    ('branch=$(git rev-parse --abbrev-ref HEAD 2>/dev/null || echo none)', False, False),
    ('git --version > /dev/null', False, False),
    ('user=$(git config --global user.email || true)', False, False),
], ids=["rev-parse", "show-toplevel", "diff", "in a repository", "|| echo", "--version", "config --global"])
def test_under_set_e_a_git_command_in_a_project_that_is_no_repository_ends_the_guard_first(tmp_path, line, repository,
                                                                                           stops):
    base = tmp_path / "project"
    hook = base / ".claude/hooks/guard.sh"
    hook.parent.mkdir(parents=True)
    hook.write_text(OUTSIDE_GIT.format(line=line))
    if repository:
        subprocess.run(["git", "init", "-q", str(base)], check=True)
        subprocess.run(["git", "-C", str(base), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q",
                        "--allow-empty", "-m", "start"], check=True)
    ran = subprocess.run(["bash", str(hook)], input='{"tool_input":{"command":"rm -rf /"}}', text=True,
                         capture_output=True, cwd=base)
    assert (ran.returncode != 2) == stops  # git 2.39 exits 128 outside a repository
    out = doctor(base, {".claude/settings.json": settings(command='bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh')})
    assert [f.line for f in found(out, "delivery/errexit-exits-early")] == ([4] if stops else [])


@pytest.mark.parametrize("runner, status", [
    ('run-parts "$(dirname "$0")/pre.d"', 1),
    ('find "$(dirname "$0")/pre.d" -type f -exec {} \\;', 0),
    ('ls "$(dirname "$0")"/pre.d/* | xargs -n1 sh', 123),
], ids=["run-parts", "find -exec ;", "xargs"])
def test_guards_run_by_a_program_that_runs_many_end_with_its_status_not_theirs(tmp_path, runner, status):
    """run-parts, find -exec and xargs end with a status of their own when a command they run
    exits 2 (GNU findutils 4.9.0, Debian run-parts 5.7: what the hook really ends with is asserted
    first); the twin, a loop that stops at the first refusal, refuses and is clean."""
    base = tmp_path / "project"
    loop = 'for g in "$(dirname "$0")"/pre.d/*; do\n  "$g" || exit $?\ndone\n'
    for twin, text in ((False, f"#!/bin/bash\n{runner}\n"), (True, f"#!/bin/bash\n{loop}")):
        command = _write(base, {"h.sh": text, "pre.d/10-block": "#!/bin/sh\n" + BLOCK + "exit 2\n",
                                "pre.d/20-allow": "#!/bin/sh\nexit 0\n"}, "h.sh")
        for name in ("10-block", "20-allow"):
            (base / ".claude" / "hooks" / "pre.d" / name).chmod(0o755)
        assert _status(base, command) == (2 if twin else status)
        out = doctor(base, {".claude/settings.json": settings(command=command)})
        assert [(f.rule, f.line) for f in out.findings if Path(f.path).name == "h.sh" and f.rule.startswith(
            "delivery/")] == ([] if twin else [("delivery/exit-2-lost", 2)])
