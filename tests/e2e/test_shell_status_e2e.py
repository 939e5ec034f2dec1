"""Shell guards whose `exit 2` the shell itself loses before the real Claude Code sees it, and their
corrected twins, all in one session.

Each gate means to refuse the Bash call that names its own token: an `exit 2` inside a piped
`while` loop or a `$( )` (a subshell: the script runs on to `exit 0`), `set -e` ending the script
with 1 at a grep that matches nothing or a `((n++))` from 0, `local x=$( )` hiding the status `$?`
is read for, an EXIT trap's function that exits 0, a bare `wait` after checks run in the
background, a wrapper piping the guard its arguments name into `tee`, a wrapper that reads the
input to log it and runs its guard without it (or runs it with </dev/null), a `grep` in an `if` that prints the command before
the deny JSON; `set -e` ending the script at a lookup of the branch's upstream (128) or, through a
function called as a statement, at a `git merge-base`; an ERR trap that exits 0; a function whose
`return 2` the next line replaces; a value read by jq without -r (its quotes kept) tested with `^`;
pushd printing the directory stack before the deny JSON; a wrapper that saves its guard's status and
ends with an `if` whose condition is false, or whose ERR trap exits 1 when the guard fails; the
input read with `head -c 100`; a wrapper whose second guard (run in
turn, or by a `for` loop's last pass) sets the status, and an `exit $rc` whose variable is misspelt,
set in a piped `while` loop or local to a function; and the command line in the settings: a guard whose main() returns 2
piped into `tee`, a deny JSON appended to a log file (`>>`), a guard run with `bash -e`, an `echo`
before the deny JSON and one after it, and a guard's stderr sent to /dev/null (refused all the same,
without its reason); a `cd .claude`
that the CDPATH the CLI inherits makes print the folder before the deny JSON; a function that prints
the deny JSON and does not exit, so the allow after it prints too; `npm run` (not `--silent`) of a
package.json script that answers, its banner before the JSON; two scripts of one command line, a logger
and then a guard, both reading the one stdin. Every gate runs on every call (one matcher), and lets through the calls that do not
name its token. The real CLI runs the call past each broken gate and not past its twin; doctor
flags each broken gate at the line marked `HERE`, with the rule named, and not its twin.
"""
from __future__ import annotations

import json
import subprocess

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, only_its_call, run_gates

pytestmark = pytest.mark.e2e

BLOCK = 'echo "Blocked: TOKEN" >&2; exit 2'
PIPED_LOOP = """\
#!/bin/bash
jq -r .tool_input.command | while read -r part; do  # HERE
  case "$part" in *TOKEN*) %s ;; esac
done
exit 0
""" % BLOCK
SUBSTITUTION = """\
#!/bin/bash
input=$(cat)
check() {
  case "$1" in *TOKEN*) echo "TOKEN is not allowed"; exit 2 ;; esac
}
reason=$(check "$input")  # HERE
[ -n "$reason" ] && echo "Blocked: $reason" >&2
exit 0
"""
GREP = """\
#!/bin/bash
set -euo pipefail
input=$(cat)
keys=$(printf '%%s' "$input" | grep -o 'id_rsa')  # HERE
case "$input" in *TOKEN*) %s ;; esac
exit 0
""" % BLOCK
COUNT = """\
#!/bin/bash
set -e
input=$(cat)
found=0
case "$input" in *TOKEN*) ((found++)) ;; esac  # HERE
if [ "$found" -gt 0 ]; then %s; fi
exit 0
""" % BLOCK
MASKED = """\
#!/bin/bash
check() { case "$1" in *TOKEN*) echo "TOKEN is not allowed"; return 1 ;; esac; }
main() {
  local input=$(cat)
  local report=$(check "$input")  # HERE
  if [ $? -ne 0 ]; then echo "Blocked: $report" >&2; return 2; fi
}
main
exit $?
"""
TRAP = """\
#!/bin/bash
work=$(mktemp -d)
cleanup() {
  rm -rf "$work"
  exit 0  # HERE
}
trap cleanup EXIT
cat >"$work/in.json"
if grep -q TOKEN "$work/in.json"; then %s; fi
exit 0
""" % BLOCK
WAIT = """\
#!/bin/bash
input=$(cat)
for check in "$(dirname "$0")"/TOKEN-check-*.sh; do
  bash "$check" <<<"$input" &
done
wait  # HERE
"""
WAIT_EACH = """\
#!/bin/bash
input=$(cat)
pids=()
for check in "$(dirname "$0")"/TOKEN-check-*.sh; do
  bash "$check" <<<"$input" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || exit $?; done
"""
CHECK = "#!/bin/bash\nif grep -q TOKEN; then %s; fi\nexit 0\n" % BLOCK
TEE = """\
#!/bin/bash
python3 "$(dirname "$0")/$1" 2>&1 | tee -a "$(dirname "$0")/TOKEN.log" >&2  # HERE
"""
STDIN = """\
#!/bin/bash
payload=$(cat)
printf '%s\\n' "$payload" >> "$(dirname "$0")/TOKEN.log"
"$@"  # HERE
"""
DENY = ('{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
        '"permissionDecisionReason": "TOKEN is not allowed"}}')
GREP_PRINTS = """\
#!/bin/bash
cmd=$(jq -r .tool_input.command)
if echo "$cmd" | grep -E 'TOKEN'; then  # HERE
  echo '%s'
fi
""" % DENY
UPSTREAM = """\
#!/bin/bash
set -euo pipefail
cmd=$(jq -r .tool_input.command)
cd "$CLAUDE_PROJECT_DIR"
upstream=$(git rev-parse --abbrev-ref '@{u}')  # HERE
case "$cmd" in *TOKEN*) %s ;; esac
exit 0
""" % BLOCK
ERR_TRAP = """\
#!/bin/bash
trap 'exit 0' ERR
input=$(cat)
todo=$(grep -c TODO "$CLAUDE_PROJECT_DIR/NOTES.md")  # HERE
case "$input" in *TOKEN*) %s ;; esac
exit 0
""" % BLOCK
IN_FUNCTION = """\
#!/bin/bash
set -e
main() {
  input=$(cat)
  base=$(git -C "$CLAUDE_PROJECT_DIR" merge-base HEAD origin/main)  # HERE
  case "$input" in *TOKEN*) %s ;; esac
}
main
""" % BLOCK
RETURNS = """\
#!/bin/bash
check() { case "$1" in *TOKEN*) echo "Blocked: TOKEN" >&2; return 2 ;; esac; }
check "$(cat)"  # HERE
echo "checked" >&2
"""
NOT_RAW = """\
#!/bin/bash
cmd=$(jq '.tool_input.command')  # HERE
if [[ $cmd =~ ^touch[[:space:]]ran-TOKEN ]]; then %s; fi
exit 0
""" % BLOCK
PUSHD = """\
#!/bin/bash
cmd=$(jq -r .tool_input.command)
if [[ $cmd == *TOKEN* ]]; then
  pushd "$CLAUDE_PROJECT_DIR"  # HERE
  jq -n --arg r "$cmd <is> not allowed" \\
    '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: $r}}'
  popd >/dev/null
fi
"""
TWO_GUARDS = """\
#!/bin/bash
payload=$(cat)
dir="$(cd "$(dirname "$0")" && pwd)"
printf '%s' "$payload" | bash "$dir/TOKEN-check-a.sh"  # HERE
printf '%s' "$payload" | bash "$dir/TOKEN-pass.sh"
"""
FOR_LOOP = """\
#!/bin/bash
payload=$(cat)
here=$(dirname "$0")
for g in TOKEN-check-a.sh TOKEN-pass.sh; do
  bash "$here/$g" <<<"$payload"  # HERE
done
"""
TYPO = """\
#!/bin/bash
bash "$(dirname "$0")/TOKEN-check-a.sh"
status=$?
echo "TOKEN check said $status" >> "$(dirname "$0")/TOKEN.log"
exit $stauts  # HERE
"""
PIPED_RC = """\
#!/bin/bash
rc=0
jq -r .tool_input.command | while read -r c; do  # HERE
  case "$c" in *TOKEN*) echo "Blocked: TOKEN" >&2; rc=2 ;; esac
done
exit $rc
"""
PIPED_RC_TWIN = """\
#!/bin/bash
rc=0
while read -r c; do
  case "$c" in *TOKEN*) echo "Blocked: TOKEN" >&2; rc=2 ;; esac
done < <(jq -r .tool_input.command)
exit $rc
"""
LOCAL_RC = """\
#!/bin/bash
check() {
  local rc
  bash "$(dirname "$0")/TOKEN-check-a.sh"
  rc=$?
}
check
exit $rc  # HERE
"""
PASS = "#!/bin/bash\ncat >/dev/null\nexit 0\n"
GUARD = """\
import json, sys
if "TOKEN" in json.load(sys.stdin)["tool_input"]["command"]:
    print("Blocked: TOKEN", file=sys.stderr)
    sys.exit(2)
"""

IF_LAST = """\
#!/bin/bash
timeout 20 "$@"
rc=$?
if [ "$rc" -ge 124 ]; then  # HERE
  echo "the guard timed out" >&2
fi
"""
ERR_WRAPPER = """\
#!/bin/bash
trap 'echo "hook failed at line $LINENO" >&2; exit 1' ERR
"$@"  # HERE
"""
CUT = """\
#!/bin/bash
payload=$(head -c 100)  # HERE
cmd=$(printf '%%s' "$payload" | jq -r '.tool_input.command // empty' 2>/dev/null)
case "$cmd" in *TOKEN*) %s ;; esac
exit 0
""" % BLOCK
CD = """\
#!/bin/bash
cmd=$(jq -r .tool_input.command)
if [[ $cmd == *TOKEN* ]]; then
  cd .claude  # HERE
  jq -n '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no"}}'
fi
"""
GREP_FIRST = """\
#!/bin/bash
input=$(cat)
grep -q TODO /dev/null
case "$input" in *TOKEN*) %s ;; esac
exit 0
""" % BLOCK
MAIN_RETURNS_2 = """\
import json, sys
def main():
    if "TOKEN" in json.load(sys.stdin)["tool_input"]["command"]:
        print("Blocked: TOKEN", file=sys.stderr)
        return 2
    return 0
sys.exit(main())
"""
DENIES = """\
import json, sys
if "TOKEN" in json.load(sys.stdin)["tool_input"]["command"]:
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "TOKEN is not allowed"}}))
"""
TWO_ANSWERS = """\
#!/bin/bash
answer() {
  jq -cn --arg d "$1" --arg r "$2" \\
    '{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: $d, permissionDecisionReason: $r}}'
}
cmd=$(jq -r .tool_input.command)
case "$cmd" in
  *TOKEN*) answer deny "TOKEN is not allowed" ;;  # HERE
esac
answer allow ok
"""
EXIT_TRAP = """\
#!/bin/bash
trap 'echo "guard done"' EXIT  # HERE
cmd=$(jq -r .tool_input.command)
if [[ $cmd == *TOKEN* ]]; then
  echo '%s'
  exit 0
fi
""" % DENY
CRASHES = """\
import json, sys
if "TOKEN" in json.load(sys.stdin)["tool_input"]["command"]:
    sys.exit(1)
"""
CDPATH = {"CDPATH": ".:/tmp"}  # the user's environment, which the CLI hands its hooks (its settings' env: not CDPATH)
HOOKS = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/'
# the command line in the settings decides: name: (the rule, the script, the broken command, its twin)
COMMAND_CASES = {
    "cmdtee": ("command/block-swallowed", MAIN_RETURNS_2, f"python3 {HOOKS}TOKEN.py | tee -a {HOOKS}TOKEN.log",
               f"python3 {HOOKS}TOKEN.py"),
    "cmdlog": ("command/answer-diverted", DENIES, f"python3 {HOOKS}TOKEN.py >> {HOOKS}TOKEN.log",
               f"python3 {HOOKS}TOKEN.py | tee -a {HOOKS}TOKEN.log"),
    "cmderrexit": ("delivery/errexit-exits-early", GREP_FIRST, f"bash -e {HOOKS}TOKEN.sh", f"bash {HOOKS}TOKEN.sh"),
    "cmdecho": ("command/text-beside-answer", DENIES, f'echo "[hook] checking" && python3 {HOOKS}TOKEN.py',
                f'echo "[hook] checking" >&2 && python3 {HOOKS}TOKEN.py'),
    # refused either way: the broken one without its reason (asserted below)
    "cmdreason": ("command/block-reason-dropped", GUARD, f"python3 {HOOKS}TOKEN.py 2>/dev/null", f"python3 {HOOKS}TOKEN.py"),
    "cmddone": ("command/text-beside-answer", DENIES, f"python3 {HOOKS}TOKEN.py; echo done",
                f"python3 {HOOKS}TOKEN.py; echo done >&2"),
    # package.json's script TOKEN runs the guard (written below); npm's banner lands on stdout before its JSON
    "npmrun": ("command/text-beside-answer", DENIES, "npm run TOKEN", "npm run --silent TOKEN"),
    # an ERR trap meant to turn the guard's failure into a block: the shell the CLI runs the command with decides
    "cmderrtrap": ("command/bash-only-syntax", CRASHES, f"trap 'exit 2' ERR; python3 {HOOKS}TOKEN.py",
                   f"python3 {HOOKS}TOKEN.py || exit 2"),
    "cmderrbash": ("command/bash-only-syntax", CRASHES, f"trap 'exit 2' ERR; python3 {HOOKS}TOKEN.py",
                   f"python3 {HOOKS}TOKEN.py || exit 2"),
    # two scripts of one line share its stdin: the logger reads the input to its end, the guard after it gets nothing
    "cmdtwice": ("command/input-read-twice", GUARD, f"bash {HOOKS}TOKEN-log.sh && python3 {HOOKS}TOKEN.py",
                 f"input=$(cat); printf '%s' \"$input\" | bash {HOOKS}TOKEN-log.sh && "
                 f"printf '%s' \"$input\" | python3 {HOOKS}TOKEN.py"),
}
LOGS_INPUT = "#!/bin/bash\njq -c '{tool: .tool_name}' >> \"$(dirname \"$0\")/TOKEN.log\"\n"
# the command-line cases whose package.json runs them through npm
THROUGH_NPM = frozenset({"npmrun"})
WITH_SHELL_BASH = frozenset({"cmderrbash"})  # handlers with "shell": "bash"

SPACED = """\
#!/bin/bash
if grep -q '"command": "touch ran-TOKEN.txt'; then  # HERE
  echo "Blocked: TOKEN" >&2
  exit 2
fi
exit 0
"""
FOR_ARGUMENTS = """\
#!/bin/bash
DIR="$(dirname "$0")"
payload=$(cat)
for g; do
  bash "$DIR/$g" <<<"$payload"  # HERE
done
"""
FIRST_TAKES_ALL = """\
#!/bin/bash
DIR="$(dirname "$0")"
for g; do
  bash "$DIR/$g" || exit $?  # HERE
done
"""
TRUTH = """\
#!/bin/bash
python3 "$(dirname "$0")/TOKEN-guard.py"
rc=$?
exit $(( rc != 0 ))  # HERE
"""
CASES = {  # name: (the rule, the broken gate, its twin)
    "pipe": ("delivery/exit-in-subshell", PIPED_LOOP,
             PIPED_LOOP.replace("jq -r .tool_input.command | while", "while").replace(
                 "done\n", "done < <(jq -r .tool_input.command)\n")),
    "subst": ("delivery/exit-in-subshell", SUBSTITUTION,
              SUBSTITUTION.replace('reason=$(check "$input")  # HERE', 'reason=$(check "$input") || exit $?')),
    "errgrep": ("delivery/errexit-exits-early", GREP, GREP.replace("'id_rsa')", "'id_rsa' || true)")),
    "count": ("delivery/errexit-exits-early", COUNT, COUNT.replace("((found++))", "found=$((found + 1))")),
    "local": ("delivery/status-masked", MASKED,
              MASKED.replace('local report=$(check "$input")', 'local report; report=$(check "$input")')),
    "trap": ("delivery/exit-2-lost", TRAP, TRAP.replace("  exit 0  # HERE\n", "")),
    "wait": ("delivery/exit-2-lost", WAIT, WAIT_EACH),
    "devnull": ("delivery/stdin-not-passed", '#!/bin/bash\necho "guard starts" >&2\n"$@" </dev/null  # HERE\n',
                '#!/bin/bash\necho "guard starts" >&2\n"$@"\n', ' python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/TOKEN-guard.py'),
    "grep": ("script/text-before-json", GREP_PRINTS, GREP_PRINTS.replace("grep -E", "grep -qE")),
    "upstream": ("delivery/errexit-exits-early", UPSTREAM,
                 UPSTREAM.replace("'@{u}')  # HERE", "'@{u}' 2>/dev/null || echo none)")),
    "errtrap": ("delivery/errexit-exits-early", ERR_TRAP, ERR_TRAP.replace('.md")  # HERE', '.md" || true)')),
    "infunction": ("delivery/errexit-exits-early", IN_FUNCTION, IN_FUNCTION.replace("\nmain\n", "\nmain || exit $?\n")),
    "returns": ("delivery/exit-2-lost", RETURNS, RETURNS.replace('"$(cat)"  # HERE', '"$(cat)" || exit $?')),
    "noraw": ("script/value-keeps-quotes", NOT_RAW, NOT_RAW.replace("jq '", "jq -r '")),
    "pushd": ("script/text-before-json", PUSHD, PUSHD.replace('DIR"  # HERE', 'DIR" >/dev/null')),
    # wrappers of a guard the handler's command names after them
    "tee": ("delivery/exit-2-lost", TEE, "#!/bin/bash\nset -o pipefail\n" + TEE.split("\n", 1)[1], " TOKEN-guard.py"),
    "stdin": ("delivery/stdin-not-passed", STDIN, STDIN.replace('"$@"  # HERE', '"$@" <<<"$payload"'),
              ' python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/TOKEN-guard.py'),
    "iflast": ("delivery/exit-2-lost", IF_LAST, IF_LAST + 'exit "$rc"\n',
               ' python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/TOKEN-guard.py'),
    "errwrap": ("delivery/exit-2-lost", ERR_WRAPPER, ERR_WRAPPER.replace("; exit 1'", "'"),
                ' python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/TOKEN-guard.py'),
    "cut": ("script/stdin-read-partly", CUT, CUT.replace("head -c 100", "cat")),
    # a status the commands after the guard replace: the next guard, a loop's last pass, an empty variable
    "twoguards": ("delivery/exit-2-lost", TWO_GUARDS, TWO_GUARDS.replace('"  # HERE', '" || exit $?')),
    "forloop": ("delivery/exit-2-lost", FOR_LOOP, FOR_LOOP.replace('"  # HERE', '" || exit $?')),
    "typo": ("delivery/exit-2-lost", TYPO, TYPO.replace("$stauts", "$status")),
    "pipedrc": ("delivery/exit-2-lost", PIPED_RC, PIPED_RC_TWIN),
    "localrc": ("delivery/exit-2-lost", LOCAL_RC, LOCAL_RC.replace("  local rc\n", "")),
    # the CLI (and doctor) run with a CDPATH, as from a user's shell: `cd .claude` prints the folder before the JSON
    "cdpath": ("script/text-before-json", CD, CD.replace("cd .claude  # HERE", "cd .claude >/dev/null")),
    # a function that prints the deny and does not exit: the allow after the case prints too (two objects)
    "twoanswers": ("script/text-before-json", TWO_ANSWERS, TWO_ANSWERS.replace('allowed" ;;', 'allowed"; exit 0 ;;')),
    # an EXIT trap runs after the answer and its exit: its echo follows the JSON
    "exittrap": ("script/text-before-json", EXIT_TRAP, EXIT_TRAP.replace('done"\'', 'done" >&2\'')),
    # the input's text is compact JSON: a match that expects a space after the colon never holds
    # a loop over the guards the command names: the last pass's 0 decides; the first pass's child takes the input
    "forargs": ("delivery/exit-2-lost", FOR_ARGUMENTS, FOR_ARGUMENTS.replace('"  # HERE', '" || exit $?'),
                " TOKEN-check-a.sh TOKEN-pass.sh"),
    "forstdin": ("delivery/stdin-not-passed", FIRST_TAKES_ALL,
                 FIRST_TAKES_ALL.replace('DIR="$(dirname "$0")"\n', 'DIR="$(dirname "$0")"\npayload=$(cat)\n').replace(
                     '"$DIR/$g" ||', '"$DIR/$g" <<<"$payload" ||'), " TOKEN-pass.sh TOKEN-check-a.sh"),
    # the wrapper tells the guard's 2 as its test's truth, 1
    "truth": ("delivery/exit-2-lost", TRUTH, TRUTH.replace("$(( rc != 0 ))  # HERE", "$rc")),
    "spaced": ("script/input-text-spaced", SPACED, SPACED.replace("grep -q '\"command\": \"", "grep -Eq '\"command\" *: *\"")),
}


def test_blocks_the_shell_loses_let_the_call_run_on_the_real_cli_and_doctor_names_the_line(claude_cli, home,
                                                                                            project):
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    gates, commands, bash_shell = [], [], set()
    for name, (_, broken, twin, *args) in CASES.items():
        for kind, text in (("broken", broken), ("twin", twin)):
            token = f"{name}-{kind}"
            (hooks / f"{token}.sh").write_text(text.replace("TOKEN", token))
            (hooks / f"{token}-check-a.sh").write_text(CHECK.replace("TOKEN", token))
            (hooks / f"{token}-guard.py").write_text(GUARD.replace("TOKEN", token))
            (hooks / f"{token}-pass.sh").write_text(PASS)
            gates.append(token)
            commands.append(f'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/{token}.sh' + "".join(args).replace("TOKEN", token))
    for name, (_, script, broken, twin) in COMMAND_CASES.items():
        for kind, command in (("broken", broken), ("twin", twin)):
            token = f"{name}-{kind}"
            suffix = ".sh" if script.startswith("#!") else ".py"
            (hooks / f"{token}{suffix}").write_text(script.replace("TOKEN", token))
            (hooks / f"{token}-log.sh").write_text(LOGS_INPUT.replace("TOKEN", token))
            gates.append(token)
            commands.append(command.replace("TOKEN", token))
            if name in WITH_SHELL_BASH:
                bash_shell.add(commands[-1])
    (project / "package.json").write_text(json.dumps({"name": "gates", "version": "1.4.0", "scripts": {
        token: f"python3 .claude/hooks/{token}.py" for token in gates if token.startswith(tuple(THROUGH_NPM))}}))
    settings = project / ".claude" / "settings.json"  # (one command a line: the line a finding names)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command, "if": only_its_call(gate),
         **({"shell": "bash"} if command in bash_shell else {})} for gate, command in zip(gates, commands)]}]}},
        indent=1))
    subprocess.run(["git", "init", "-q", str(project)], check=True)

    ran, run = run_gates(project, home, gates, claude=claude_cli, env=CDPATH)
    # what the real CLI did with each gate's answer (Claude Code CLAUDE_VERSION)
    assert ran == {token for token in gates if token.endswith("-broken") and token != "cmdreason-broken"}, (
        CLAUDE_VERSION, run.tool_results)
    reasons = {token: next(r["content"] for r in run.tool_results if f"{token}.py" in str(r["content"]))
               for token in ("cmdreason-broken", "cmdreason-twin")}
    assert "Blocked: cmdreason-twin" in reasons["cmdreason-twin"], reasons
    assert "Blocked" not in reasons["cmdreason-broken"] and "No stderr output" in reasons["cmdreason-broken"], reasons

    doctor = hookwright("doctor", "--format", "json", home=home, project=project, env=CDPATH)
    rules = {rule for rule, *_ in [*CASES.values(), *COMMAND_CASES.values()]}
    flagged = {(f["path"].rsplit("/", 1)[1], f["rule"], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in rules}
    expected = set()
    for name, (rule, broken, *_) in CASES.items():
        line = next(n for n, text in enumerate(broken.splitlines(), 1) if "HERE" in text)
        expected.add((f"{name}-broken.sh", rule, line))
    lines = settings.read_text().splitlines()
    for name, (rule, *_) in COMMAND_CASES.items():
        line = next(n for n, text in enumerate(lines, 1) if '"command"' in text and f"{name}-broken" in text)
        expected.add(("settings.json", rule, line))
    assert flagged == expected


# a guard reached through a runner (make, `npm run`) from a wrapper or the command line: the runner's line, or
# the wrapper around it, decides the status Claude Code receives. name: (the broken files, the twin's, the command,
# where doctor names the broken one: (file, rule, the line marked HERE in it))
RUNNER_GUARD = GUARD.replace("TOKEN", "ran-TOKEN.txt")
MAKEFILE = "GUARD := .claude/hooks/TOKEN-guard.py\n\ncheck: shell\n\nshell:\n\t%s\n"
POLICY = 'payload=$(mktemp)\ncat > "$payload"\n%s < "$payload"\nstatus=$?\nrm -f "$payload"\n%s'
RUNNER_CASES = {
    "makedash": ({"TOKEN.mk": MAKEFILE % "-@python3 $(GUARD)  # HERE",
                  "TOKEN.sh": POLICY % ("make -s -f .claude/hooks/TOKEN.mk check", 'exit "$status"\n')},
                 {"TOKEN.mk": MAKEFILE % "@python3 $(GUARD)",
                  "TOKEN.sh": POLICY % ("make -s -f .claude/hooks/TOKEN.mk check", 'exit "$status"\n')},
                 "bash .claude/hooks/TOKEN.sh", ("TOKEN.mk", "delivery/exit-2-lost")),
    "remap": ({"TOKEN.mk": MAKEFILE % "@python3 $(GUARD)",
               "TOKEN.sh": POLICY % ("make -s -f .claude/hooks/TOKEN.mk check",
                                     "[ $status -eq 0 ] || exit 1  # HERE\nexit 0\n")},
              {"TOKEN.mk": MAKEFILE % "@python3 $(GUARD)",
               "TOKEN.sh": POLICY % ("make -s -f .claude/hooks/TOKEN.mk check", "exit $status\n")},
              "bash .claude/hooks/TOKEN.sh", ("TOKEN.sh", "delivery/exit-2-lost")),
    "npmecho": ({"package.json": "python3 .claude/hooks/TOKEN-guard.py || echo 'guard reported a problem' >&2"},
                {"package.json": "python3 .claude/hooks/TOKEN-guard.py"},
                "npm run --silent TOKEN", ("package.json", "command/block-swallowed")),
}


def test_blocks_lost_in_a_runner_let_the_call_run_on_the_real_cli_and_doctor_names_the_line(claude_cli, home, project):
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    gates, commands, scripts, expected = [], [], {}, set()
    for name, (broken, twin, command, (file, rule)) in RUNNER_CASES.items():
        for kind, files in (("broken", broken), ("twin", twin)):
            token = f"{name}-{kind}"
            (hooks / f"{token}-guard.py").write_text(RUNNER_GUARD.replace("TOKEN", token))
            for path, text in files.items():
                if path == "package.json":
                    scripts[token] = text.replace("TOKEN", token)
                else:
                    (hooks / path.replace("TOKEN", token)).write_text(text.replace("TOKEN", token))
            gates.append(token)
            commands.append(command.replace("TOKEN", token))
            if kind == "broken" and file != "package.json":
                text = files[file]
                expected.add((file.replace("TOKEN", token), rule,
                              next(n for n, line in enumerate(text.splitlines(), 1) if "HERE" in line)))
    (project / "package.json").write_text(json.dumps({"name": "gates", "version": "1.0.0", "scripts": scripts},
                                                     indent=1))
    package = (project / "package.json").read_text().splitlines()
    expected.add(("package.json", "command/block-swallowed",
                  next(n for n, line in enumerate(package, 1) if '"npmecho-broken"' in line)))
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command, "if": only_its_call(gate)}
        for gate, command in zip(gates, commands)]}]}}, indent=1))

    ran, run = run_gates(project, home, gates, claude=claude_cli)
    # what the real CLI did with each gate's status (Claude Code CLAUDE_VERSION; GNU make 4.3, npm 11.19.1)
    assert ran == {gate for gate in gates if gate.endswith("-broken")}, (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    rules = {rule for *_, (_, rule) in RUNNER_CASES.values()}
    flagged = {(f["path"].rsplit("/", 1)[1], f["rule"], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in rules}
    assert flagged == expected
