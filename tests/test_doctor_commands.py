"""What a hook's command runs (installer/doctor/shell/resolve.py), and the command rules
(installer/doctor/checks/commands.py): each rule fires on a broken config and stays quiet on the
same config fixed."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from doctor_support import doctor, found, settings
from hookwright.doctor.model import catalog
from hookwright.doctor.shell.resolve import Where, resolve_exec, resolve_handler, resolve_shell
from hypothesis import example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

PROJECT = Path("/proj")
HOME = Path("/home/me")
W = Where(project=PROJECT, home=HOME, cwd=PROJECT)
S = ".claude/settings.json"
HOOK = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'


# ---- resolve: shell form -------------------------------------------------------------------------

@pytest.mark.parametrize("command, executable, interpreter, script", [
    ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh', "/proj/.claude/hooks/x.sh", None, "/proj/.claude/hooks/x.sh"),
    ("${CLAUDE_PROJECT_DIR}/hooks/x.sh --flag", "/proj/hooks/x.sh", None, "/proj/hooks/x.sh"),
    ("$CLAUDE_PROJECT_DIR/hooks/x.sh", "/proj/hooks/x.sh", None, "/proj/hooks/x.sh"),
    ("'/opt/my hooks/x.sh'", "/opt/my hooks/x.sh", None, "/opt/my hooks/x.sh"),
    ('"/opt/my hooks/x.sh" arg', "/opt/my hooks/x.sh", None, "/opt/my hooks/x.sh"),
    ("/opt/my\\ hooks/x.sh", "/opt/my hooks/x.sh", None, "/opt/my hooks/x.sh"),
    ("~/h.sh", "/home/me/h.sh", None, "/home/me/h.sh"),
    ("$HOME/.claude/hooks/h.py", "/home/me/.claude/hooks/h.py", None, "/home/me/.claude/hooks/h.py"),
    ('"${CLAUDE_CONFIG_DIR:-$HOME/.claude}/hooks/x.sh"', "/home/me/.claude/hooks/x.sh", None,
     "/home/me/.claude/hooks/x.sh"),
    ('python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude', "python3", "python3",
     "/proj/.claude/hookwright/git-guard/git-guard"),
    ("python3 -W ignore -u ~/x.py", "python3", "python3", "/home/me/x.py"),
    ("node --require ./setup.js hooks/x.js", "node", "node", "/proj/hooks/x.js"),
    ("bash -e ~/x.sh", "bash", "bash", "/home/me/x.sh"),
    ("sh ./x.sh", "sh", "sh", "/proj/x.sh"),
    ("uv run --with rich ~/x.py", "uv", "uv run", "/home/me/x.py"),
    ("uv run python3 ~/x.py", "uv", "uv run python3", "/home/me/x.py"),
    ("bun run ~/x.ts", "bun", "bun", "/home/me/x.ts"),
    ("deno run -A ~/x.ts", "deno", "deno", "/home/me/x.ts"),
    ("FOO=1 BAR='a b' python3 ~/x.py", "python3", "python3", "/home/me/x.py"),
    ("env -u X A=1 bash ~/x.sh", "bash", "bash", "/home/me/x.sh"),
    ("timeout 5 python3 ~/x.py", "python3", "python3", "/home/me/x.py"),
    ("exec ~/x.sh", "/home/me/x.sh", None, "/home/me/x.sh"),
    ('cd "$CLAUDE_PROJECT_DIR" && python3 .claude/hooks/a.py', "python3", "python3", "/proj/.claude/hooks/a.py"),
    ("cd /opt/tool; ./run.sh", "./run.sh", None, "/opt/tool/run.sh"),
    ("cat | python3 ~/x.py 2>/dev/null", "python3", "python3", "/home/me/x.py"),
    ("python3 ~/x.py >> ~/log.txt 2>&1 || true", "python3", "python3", "/home/me/x.py"),
    ('bash -c "cd /opt && ./run.sh"', "./run.sh", None, "/opt/run.sh"),
    ("source ~/env.sh && python3 ~/x.py", "python3", "python3", "/home/me/x.py"),
    ("if [ -f ~/x.sh ]; then ~/x.sh; fi", "/home/me/x.sh", None, "/home/me/x.sh"),
])
def test_shell_form_resolves_what_runs(command, executable, interpreter, script):
    res = resolve_shell(command, W)
    assert res.resolved, res
    assert (res.executable, res.interpreter, str(res.script)) == (executable, interpreter, script)


@pytest.mark.parametrize("command, why", [
    ("node $(git rev-parse --show-toplevel)/x.js", "$(...)"),
    ("python3 `dirname $0`/x.py", "`...`"),
    ("$MY_HOOKS/x.sh", "$MY_HOOKS"),
    ("python3 ${SCRIPT_DIR}/x.py", "${SCRIPT_DIR}"),
    ("${CLAUDE_PLUGIN_ROOT}/x.sh", "${CLAUDE_PLUGIN_ROOT}"),  # no plugin root known for this file
    ("python3 'unterminated", "unterminated"),
    ("cat <<EOF\n{}\nEOF", "here-document"),
    ("for f in a b; do ./x; done", "`for`"),
    ("node C:\\\\hooks\\\\x.js", "Windows path"),
])
def test_what_only_the_running_shell_knows_is_not_resolved(command, why):
    res = resolve_shell(command, W)
    assert not res.resolved
    assert why in (res.dynamic or res.main.dynamic)
    assert all(i.path is None for i in res.invocations if i.dynamic)


def test_plugin_root_and_cursor_project_dir():
    where = Where(project=PROJECT, plugin_root=Path("/plugins/p"), home=HOME, cwd=PROJECT)
    assert str(resolve_shell("${CLAUDE_PLUGIN_ROOT}/hooks/x.sh", where).script) == "/plugins/p/hooks/x.sh"
    assert str(resolve_shell("$CURSOR_PROJECT_DIR/.cursor/x.sh", where).script) == "/proj/.cursor/x.sh"


@pytest.mark.parametrize("command, split", [
    ("$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh", ("CLAUDE_PROJECT_DIR",)),
    ("${CLAUDE_PROJECT_DIR}/x.sh --flag", ("CLAUDE_PROJECT_DIR",)),
    ("python3 ${CLAUDE_PLUGIN_ROOT}/hooks/x.py", ("CLAUDE_PLUGIN_ROOT",)),
    ("cd $CLAUDE_PROJECT_DIR && ./x.sh", ("CLAUDE_PROJECT_DIR",)),
    ("[ -f $CLAUDE_PROJECT_DIR/x.sh ] && \"$CLAUDE_PROJECT_DIR\"/x.sh", ("CLAUDE_PROJECT_DIR",)),
    ("${CLAUDE_PROJECT_DIR:-$HOME/.claude}/hooks/x.sh", ("CLAUDE_PROJECT_DIR",)),
    ("python3 ${CLAUDE_PROJECT_DIR%/}/x.py", ("CLAUDE_PROJECT_DIR",)),
    ("uv run --project $CLAUDE_PROJECT_DIR ruff check", ("CLAUDE_PROJECT_DIR",)),
    ("bash -c '$CLAUDE_PROJECT_DIR/.claude/hooks/x.sh'", ("CLAUDE_PROJECT_DIR",)),
    ("""bash -c '"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh'""", ()),
    ('bash -c "python3 $CLAUDE_PROJECT_DIR/x.py"', ("CLAUDE_PROJECT_DIR",)),  # the inner shell splits it
    ('bash -c "python3 \\"$CLAUDE_PROJECT_DIR\\"/x.py"', ()),  # quoted again for the inner shell
    ("bash -c \"python3 '${CLAUDE_PROJECT_DIR}/x.py'\"", ()),
    ("python3 ${HOOKS_DIR:-$CLAUDE_PROJECT_DIR/.claude/hooks}/x.py", ("CLAUDE_PROJECT_DIR",)),  # the default splits
    ('python3 ${HOOKS_DIR:-"$CLAUDE_PROJECT_DIR"/.claude/hooks}/x.py', ()),
    ('python3 "${HOOKS_DIR:-$CLAUDE_PROJECT_DIR/.claude/hooks}"/x.py', ()),
    ('uv run --project "$CLAUDE_PROJECT_DIR" ruff check', ()),
    ("python3 ~/x.py 2>>$CLAUDE_PROJECT_DIR/log", ()),  # sh does not split a redirection's target
    ('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh', ()),
    ('"${CLAUDE_PLUGIN_ROOT}/hooks/x.sh"', ()),
    ("'$CLAUDE_PROJECT_DIR'/x.sh", ()),  # no expansion at all: the script is missing, not split
    ('X=$CLAUDE_PROJECT_DIR/x.sh; "$X"', ()),  # an assignment is not split
    ("echo $CLAUDE_PROJECT_DIR", ()),  # not a file the command runs
    ('[[ -f $CLAUDE_PROJECT_DIR/x ]] && "$CLAUDE_PROJECT_DIR"/x', ()),  # [[ ]] does not split
    ('curl -d "$(basename "$CLAUDE_PROJECT_DIR")" https://example.com', ()),
    ("$CLAUDE_PROJECT_DIRECTORY/x.sh", ()),  # another variable
])
def test_unquoted_path_placeholders_are_found_where_they_name_a_file(command, split):
    assert resolve_shell(command, W).unquoted == split


@pytest.mark.parametrize("command, script", [
    ("bash -c \"python3 '$CLAUDE_PROJECT_DIR/x.py'\"", "/proj/x.py"),  # the outer shell expands it
    ('bash -c "python3 $CLAUDE_PROJECT_DIR/x.py"', "/proj/x.py"),
    ("bash -c \"cd '$CLAUDE_PROJECT_DIR' && ./x.sh\"", "/proj/x.sh"),
])
def test_bash_c_in_double_quotes_runs_what_the_outer_shell_expanded(command, script):
    assert str(resolve_shell(command, W).script) == script


def test_exec_form_has_no_word_splitting():
    assert resolve_exec("${CLAUDE_PROJECT_DIR}/x.sh", ("a",), W).unquoted == ()


@pytest.mark.parametrize("command", ["npx -y some-hook", "bunx x", "pnpm dlx x", "uvx ruff", "uv run ruff", "pipx run x",
                                     "bun run lint"])
def test_package_runners_run_packages_not_files(command):
    res = resolve_shell(command, W)
    assert res.main.runner and res.script is None and res.resolved


@pytest.mark.parametrize("command", ["python3 -c 'print(1)'", "python3 -m my_hooks.guard", "node -e 'x'"])
def test_inline_code_and_modules_name_no_file(command):
    res = resolve_shell(command, W)
    assert res.main.inline and res.script is None


def test_relative_paths_depend_on_the_launch_directory():
    assert resolve_shell(".claude/hooks/x.sh", W).launch_dependent
    assert resolve_shell("python3 hooks/x.py", W).launch_dependent
    assert resolve_shell("cd sub && ./x.sh", W).launch_dependent
    assert not resolve_shell("cd /opt && ./x.sh", W).launch_dependent
    assert not resolve_shell(HOOK, W).launch_dependent
    unknown_cwd = Where(project=None, home=HOME, cwd=None)
    res = resolve_shell("./x.sh", unknown_cwd)
    assert res.launch_dependent and res.script is None and "relative" in res.main.dynamic
    cursor = Where(project=PROJECT, home=HOME, cwd=PROJECT, cwd_is_launch_dir=False)
    assert not resolve_shell(".cursor/hooks/x.sh", cursor).launch_dependent


def test_hard_coded_home_paths_are_found():
    assert resolve_shell("python3 /Users/alice/hooks/x.py", W).home_paths == ("/Users/alice/",)
    assert resolve_shell("/home/bob/.claude/x.sh && /home/bob/y.sh", W).home_paths == ("/home/bob/",)
    assert resolve_shell('node "C:\\Users\\carol\\h.js"', W).home_paths == ("C:\\Users\\carol\\",)
    assert resolve_shell("~/x.sh", W).home_paths == ()
    assert resolve_shell("/opt/home/x.sh", W).home_paths == ()


def test_guards_are_recognised():
    res = resolve_shell("[ -x .claude/hooks/x.sh ] && .claude/hooks/x.sh || true", W)
    assert res.main.guarded
    assert resolve_shell("command -v rtk >/dev/null && rtk hook claude", W).main.program_guarded
    assert not resolve_shell(".claude/hooks/x.sh", W).main.guarded
    # a guard on the interpreter vouches for the interpreter, not for the script it runs
    vouched = resolve_shell('which python3 >/dev/null && python3 "$CLAUDE_PROJECT_DIR"/missing.py', W).main
    assert vouched.program_guarded and not vouched.guarded


def test_powershell_commands_are_not_read_as_posix():
    res = resolve_handler({"type": "command", "command": "& $env:CLAUDE_PROJECT_DIR/x.ps1", "shell": "powershell"}, W)
    assert not res.resolved and "PowerShell" in res.dynamic


# ---- resolve: exec form ----------------------------------------------------------------------------

def test_exec_form_runs_the_command_with_its_args():
    res = resolve_exec("python3", ("-I", "${CLAUDE_PROJECT_DIR}/x.py", "--fast"), W)
    assert (res.form, res.executable, res.interpreter, str(res.script)) == ("exec", "python3", "python3", "/proj/x.py")
    res = resolve_exec("${CLAUDE_PROJECT_DIR}/hooks/check", (), W)
    assert res.main.direct and str(res.script) == "/proj/hooks/check"
    assert resolve_exec("rtk", ("hook", "claude"), W).main.program == "rtk"


def test_exec_form_has_no_shell():
    res = resolve_exec("python3 x.py", ("a",), W)  # one executable called "python3 x.py": the spawn fails
    assert not res.resolved and "just the executable" in res.main.dynamic
    assert not resolve_exec("~/x.sh", (), W).resolved  # no shell, no ~
    assert str(resolve_exec("/opt/my hooks/x", (), W).script) == "/opt/my hooks/x"  # a path with a space is fine
    assert resolve_handler({"type": "command", "command": "node", "args": ["$HOME/x.js"]}, W).script == PROJECT / "$HOME/x.js"


def test_not_a_command_handler():
    assert resolve_handler({"type": "http", "url": "http://x"}, W).form == "none"
    assert resolve_handler("echo hi", W).form == "none"
    assert resolve_handler({"type": "command", "command": "  "}, W).form == "none"


# ---- the command rules ------------------------------------------------------------------------------

def _script(base: Path, rel: str, text: str = "#!/bin/sh\necho '{}'\n", mode: int = 0o755) -> Path:
    path = base / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def _rules(outcome, kind: str = "command/") -> list[str]:
    return [f.rule for f in outcome.findings if f.rule.startswith(kind)]


def test_script_missing_fires_and_names_the_effect(tmp_path):
    out = doctor(tmp_path / "p", {S: settings(command=HOOK)})
    (finding,) = found(out, "command/script-missing")
    assert finding.severity == "error" and "fails open" in finding.message
    assert (finding.line, finding.column) == (9, 24)  # the "command" value
    out = doctor(tmp_path / "q", {S: settings(command='python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/gone.py')})
    (finding,) = found(out, "command/script-missing")
    assert "python exits 2" in finding.message and "refused" in finding.message
    out = doctor(tmp_path / "r", {S: settings("Stop", matcher=None, command="python3 ~/gone.py")})
    assert "keep going" in found(out, "command/script-missing")[0].message


@pytest.mark.parametrize("event, command, extra, effect", [
    ("PermissionRequest", "~/gone.sh", {}, "asks for permission as if it were not there"),
    ("PermissionRequest", "python3 ~/gone.py", {}, "asks for permission"),  # exit 2 is not honoured there
    ("PostToolUse", "python3 ~/gone.py", {}, "the hook never runs (a non-blocking error)"),
])
def test_script_missing_says_what_claude_code_does(tmp_path, event, command, extra, effect):
    out = doctor(tmp_path / "p", {S: settings(event, command=command, **extra)})
    assert effect in found(out, "command/script-missing")[0].message


@pytest.mark.parametrize("entry, effect", [
    ({"command": "bash .cursor/hooks/gone.sh"}, "the gate fails open (the action proceeds)"),
    ({"command": "bash .cursor/hooks/gone.sh", "failClosed": True}, "Cursor blocks every action it matches"),
    ({"command": "python3 .cursor/hooks/gone.py"}, "which Cursor reads as a block"),
])
def test_script_missing_says_what_cursor_does(tmp_path, entry, effect):
    cursor = {"version": 1, "hooks": {"beforeShellExecution": [entry]}}
    out = doctor(tmp_path / "p", {".cursor/hooks.json": cursor})
    assert effect in found(out, "command/script-missing")[0].message


def test_script_missing_quiet_when_present_dynamic_or_guarded(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/check.sh")
    out = doctor(base, {S: settings(command=HOOK)})
    assert _rules(out) == ["command/sh-without-shell"]
    out = doctor(tmp_path / "q", {S: settings(command='node "$(git rev-parse --show-toplevel)"/hooks/x.js')})
    assert not found(out, "command/script-missing")
    out = doctor(tmp_path / "r", {S: settings(command="[ -x ~/.claude/x.sh ] && ~/.claude/x.sh || true")})
    assert not found(out, "command/script-missing")
    out = doctor(tmp_path / "s", {S: settings(command="source /dev/null; echo ok")})  # a device, not missing
    assert not found(out, "command/script-missing")


def test_script_missing_in_exec_form_points_at_the_argument(tmp_path):
    out = doctor(tmp_path / "p", {S: settings(command="python3", args=["-u", "${CLAUDE_PROJECT_DIR}/hooks/x.py"])})
    (finding,) = found(out, "command/script-missing")
    assert finding.line == 12  # the "args" item, not "command"


def test_script_missing_not_claimed_for_a_relative_path_in_user_settings(tmp_path, home):
    out = doctor(tmp_path / "p", {str(home / ".claude/settings.json"): settings(command="hooks/x.sh")})
    assert _rules(out) == ["command/relative-path", "command/sh-without-shell"]
    (relative,) = found(out, "command/relative-path")
    assert "a different folder in every project" in relative.message and "CLAUDE_PROJECT_DIR" not in relative.hint


def test_not_executable(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/check.sh", mode=0o644)
    out = doctor(base, {S: settings(command=HOOK, shell="bash")})
    (finding,) = found(out, "command/not-executable")
    assert finding.severity == "error" and "chmod +x" in finding.hint
    # through an interpreter it needs no executable bit; with it, it is fine
    assert not _rules(doctor(base, {S: settings(command="bash " + HOOK, shell="bash")}))
    (base / ".claude/hooks/check.sh").chmod(0o755)
    assert not _rules(doctor(base, {S: settings(command=HOOK, shell="bash")}))


def test_relative_path(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/check.sh")
    out = doctor(base, {S: settings(command="./.claude/hooks/check.sh", shell="bash")})
    assert _rules(out) == ["command/relative-path"]
    (relative,) = found(out, "command/relative-path")
    assert relative.severity == "warning" and "project root while the session is there" in relative.message
    assert relative.hint.startswith('write "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh (quoted)')  # no "/./"
    assert not _rules(doctor(base, {S: settings(command=HOOK, shell="bash")}))
    # Cursor runs project hooks from the project root: a relative path is how its docs write them
    cursor = {".cursor/hooks.json": {"version": 1, "hooks": {"stop": [{"command": ".claude/hooks/check.sh"}]}}}
    assert not _rules(doctor(base, cursor))


def test_home_path(tmp_path, home):
    base = tmp_path / "p"
    out = doctor(base, {S: settings(command="[ -x /Users/alice/x.sh ] && /Users/alice/x.sh", shell="bash")})
    (finding,) = found(out, "command/home-path")
    assert finding.severity == "warning" and "/Users/alice/" in finding.message
    # personal files may use their own home; not someone else's
    mine = settings(command=f"[ -x {home}/x.sh ] && {home}/x.sh", shell="bash")
    assert not _rules(doctor(base, {str(home / ".claude/settings.json"): mine}))
    theirs = settings(command="[ -x /home/zed/x.sh ] && /home/zed/x.sh", shell="bash")
    assert _rules(doctor(base, {str(home / ".claude/settings.json"): theirs})) == ["command/home-path"]
    assert not _rules(doctor(base, {S: settings(command="[ -x ~/x.sh ] && ~/x.sh", shell="bash")}))


def test_sh_without_shell(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/check.sh")
    out = doctor(base, {S: settings(command=HOOK)})
    (finding,) = found(out, "command/sh-without-shell")
    assert finding.severity == "info"
    assert not _rules(doctor(base, {S: settings(command=HOOK, shell="bash")}))
    _script(base, ".claude/hooks/check.py")
    assert not _rules(doctor(base, {S: settings(command='python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py')}))


@pytest.mark.skipif(os.name == "nt", reason="POSIX modes")
def test_world_writable(tmp_path):
    base = tmp_path / "p"
    script = _script(base, ".claude/hooks/check.sh", mode=0o777)
    out = doctor(base, {S: settings(command=HOOK, shell="bash")})
    (finding,) = found(out, "command/world-writable")
    assert finding.severity == "error" and "the script" in finding.message
    script.chmod(0o755)
    script.parent.chmod(0o777)
    (finding,) = found(doctor(base, {S: settings(command=HOOK, shell="bash")}), "command/world-writable")
    assert "the directory" in finding.message
    script.parent.chmod(0o777 | stat.S_ISVTX)  # like /tmp: others cannot replace our file
    assert not _rules(doctor(base, {S: settings(command=HOOK, shell="bash")}))
    script.parent.chmod(0o755)
    assert not _rules(doctor(base, {S: settings(command=HOOK, shell="bash")}))


def test_interpreter_not_found(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/check.py")
    missing = 'hookwright-no-such-python "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py'
    out = doctor(base, {S: settings(command=missing)})
    (finding,) = found(out, "command/interpreter-not-found")
    assert finding.severity == "error" and "hookwright-no-such-python" in finding.message
    assert not _rules(doctor(base, {S: settings(command='python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py')}))
    guarded = "command -v hookwright-no-such-tool >/dev/null && hookwright-no-such-tool hook || true"
    assert not _rules(doctor(base, {S: settings(command=guarded)}))
    out = doctor(base, {S: settings(command="hookwright-no-such-tool", args=["hook"])})
    assert _rules(out) == ["command/interpreter-not-found"]
    assert not _rules(doctor(base, {S: settings(command="python3", args=["-c", "pass"])}))


def test_unquoted_placeholder(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/check.sh")
    out = doctor(base, {S: settings(command="$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh", shell="bash")})
    (finding,) = found(out, "command/unquoted-placeholder")
    assert finding.severity == "warning" and (finding.line, finding.column) == (9, 24)
    assert "$CLAUDE_PROJECT_DIR is not in double quotes" in finding.message
    assert finding.hint.startswith('put the variable in double quotes: "$CLAUDE_PROJECT_DIR"')
    assert not _rules(doctor(base, {S: settings(command=HOOK, shell="bash")}))
    # a project whose path holds a space: the hook is broken right now, and the message says so
    spaced = tmp_path / "my project"
    _script(spaced, ".claude/hooks/check.sh")
    out = doctor(spaced, {S: settings(command="$CLAUDE_PROJECT_DIR/.claude/hooks/check.sh", shell="bash")})
    (broken,) = found(out, "command/split-path")
    assert broken.severity == "error" and f"is {spaced} here" in broken.message and "fails open" in broken.message
    _script(spaced, ".claude/hooks/check.py")  # python gets a cut-short path and exits 2: a block
    out = doctor(spaced, {S: settings(command="python3 $CLAUDE_PROJECT_DIR/.claude/hooks/check.py")})
    assert "every tool call it matches is refused" in found(out, "command/split-path")[0].message
    assert not found(out, "command/unquoted-placeholder")
    # exec form runs no shell: nothing is split
    out = doctor(base, {S: settings(command="${CLAUDE_PROJECT_DIR}/.claude/hooks/check.sh", args=[])})
    assert not found(out, "command/unquoted-placeholder")


@pytest.mark.parametrize("command", [
    'f=$(jq -r .tool_input.file_path); if [[ "$f" =~ \\.(vue|tsx|md)$ ]]; then echo "$f"; fi',  # a regex, not a pipe
    "[[ -n $X && -z $Y ]] && echo both",
    "type hookwright-no-such-tool >/dev/null 2>&1 && hookwright-no-such-tool hook",
    "hash hookwright-no-such-tool 2>/dev/null || exit 0; hookwright-no-such-tool hook",
    "shopt -s nullglob; pushd /tmp >/dev/null; let n=1; popd",  # builtins with no file on PATH
    "hookwright-no-such-tool notify 2>/dev/null || true",  # its failure is tolerated
    "( hookwright-no-such-tool notify >/dev/null 2>&1 & ) ; exit 0",  # in the background
    "{ hookwright-no-such-tool notify; echo sent; } || true",  # a group's failure is tolerated
    "if [ -n \"$TMUX\" ]; then hookwright-no-such-tool notify; fi || true",
    "hookwright-no-such-tool notify || { echo 'no notifier' >&2; exit 0; }",
    "hookwright-no-such-tool notify 2>/dev/null; true",  # the hook's status is the last command's: 0
    "if hookwright-no-such-tool check; then echo ok; fi",  # a condition's failure is a test result
])
def test_interpreter_not_found_quiet_where_the_shell_never_needs_the_program(tmp_path, command):
    out = doctor(tmp_path / "p", {S: settings("Stop", matcher=None, command=command)})
    assert not found(out, "command/interpreter-not-found"), [f.message for f in out.findings]


@pytest.mark.parametrize("event, command", [
    ("Stop", "hookwright-no-such-tool notify || exit 1"),
    ("Stop", "hookwright-no-such-tool notify || exit"),  # a bare exit keeps the failed status
    ("Stop", "hookwright-no-such-tool a || hookwright-no-such-tool b"),
    ("Stop", "[[ -n $X && -z $Y ]] && hookwright-no-such-tool notify"),  # ]] ends the test
    ("Stop", '[[ $1 == "=~" ]] || hookwright-no-such-tool notify'),  # a quoted =~ is no operator
    ("Stop", "echo [[ && hookwright-no-such-tool notify"),  # [[ as an argument opens no test
    ("PreToolUse", "hookwright-no-such-tool guard || true"),  # a guard that never runs lets every call through
    ("Stop", "{ hookwright-no-such-tool notify; } && echo sent"),
    ("Stop", "hookwright-no-such-tool notify || { echo 'no notifier' >&2; exit 1; }"),
    ("Stop", "if [ -n \"$X\" ]; then exit 0; fi; hookwright-no-such-tool notify"),
    ("Stop", "hookwright-no-such-tool notify; if [ -n \"$X\" ]; then true; fi"),  # that true may not run
    ("Stop", "{ hookwright-no-such-tool a; true; }; hookwright-no-such-tool b"),
])
def test_interpreter_not_found_where_the_failure_counts(tmp_path, event, command):
    out = doctor(tmp_path / "p", {S: settings(event, matcher="Bash" if event == "PreToolUse" else None,
                                              command=command)})
    assert found(out, "command/interpreter-not-found"), command


def test_script_missing_behind_a_guard_on_its_interpreter(tmp_path):
    command = 'which python3 >/dev/null && python3 "$CLAUDE_PROJECT_DIR"/missing.py'
    (missing,) = found(doctor(tmp_path / "p", {S: settings(command=command)}), "command/script-missing")
    assert "every tool call it matches is refused" in missing.message
    tolerated = 'python3 "$CLAUDE_PROJECT_DIR"/missing.py || true'  # `|| true` swallows python's exit 2
    (missing,) = found(doctor(tmp_path / "q", {S: settings(command=tolerated)}), "command/script-missing")
    assert "gate fails open" in missing.message and "refused" not in missing.message
    for swallowed in ('python3 "$CLAUDE_PROJECT_DIR"/missing.py; exit 0',
                      'python3 "$CLAUDE_PROJECT_DIR"/missing.py || { echo "guard missing" >&2; exit 0; }',
                      'if [ -n "$X" ]; then python3 "$CLAUDE_PROJECT_DIR"/missing.py; fi || true',
                      'python3 "$CLAUDE_PROJECT_DIR"/missing.py; echo checked >> /tmp/hook.log',  # echo's status
                      'python3 "$CLAUDE_PROJECT_DIR"/missing.py 2>&1 | tee -a /tmp/hook.log'):  # tee's status
        (missing,) = found(doctor(tmp_path / "r", {S: settings(command=swallowed)}), "command/script-missing")
        assert "refused" not in missing.message, swallowed
    for blocks in ('set -e; python3 "$CLAUDE_PROJECT_DIR"/missing.py; exit 0',  # set -e: the exit 0 never runs
                   'exec python3 "$CLAUDE_PROJECT_DIR"/missing.py; true',
                   '[ -n "$CI" ] || if [ -d .git ]; then python3 "$CLAUDE_PROJECT_DIR"/missing.py; else exit 0; fi',
                   'python3 "$CLAUDE_PROJECT_DIR"/missing.py && { notify-send checked || true; }',
                   'if [ -d .git ]; then python3 "$CLAUDE_PROJECT_DIR"/missing.py; else echo none; fi'):
        (missing,) = found(doctor(tmp_path / "s", {S: settings(command=blocks)}), "command/script-missing")
        assert "every tool call it matches is refused" in missing.message, blocks


def test_a_bash_test_in_a_shell_form_command_is_reported_where_sh_is_not_bash(tmp_path):
    """Claude Code runs shell-form hooks with /bin/sh (measured on 2.1.328: dash, "shell": "bash"
    or not); there `[[` is a command that is not found, so the guarded echo never runs."""
    command = '[[ -n "$HOME" ]] && echo guarded'
    ran = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True)
    sh_is_bash = "guarded" in ran.stdout  # (macOS: /bin/sh is bash)
    assert sh_is_bash or ran.returncode == 127
    out = doctor(tmp_path / "p", {S: settings(command=command)})
    (finding,) = found(out, "command/bash-only-syntax")
    assert "[[ ... ]]" in finding.message
    assert not found(doctor(tmp_path / "q", {S: settings(command='[ -n "$HOME" ] && echo guarded')}),
                     "command/bash-only-syntax")



DASH = shutil.which("dash")


@pytest.mark.skipif(DASH is None, reason="needs dash, Debian's and Ubuntu's /bin/sh (CI runs on Debian)")
@pytest.mark.parametrize(("command", "posix", "what"), [
    ('if [ "$A" == x ]; then echo "$A"; fi', 'if [ "$A" = x ]; then echo "$A"; fi', "== in [ ... ]"),
    ('while read -r f; do echo "$f"; done <<< "$A"', 'printf "%s\\n" "$A" | while read -r f; do echo "$f"; done',
     "a here-string"),
    ('x=(a b); echo "$A"', 'set -- a b; echo "$A"', "an array"),
    ('function check { echo "$A"; }; check', 'check() { echo "$A"; }; check', "the `function` keyword"),
    ('echo "${A//x/y}"', "echo \"$A\" | sed 's/x/y/g'", "${...} expansions"),
    ('set -euo pipefail; echo "$A"', 'set -eu; echo "$A"', "set -o pipefail"),
    ('echo "$A" &>/dev/null', 'echo "$A" >/dev/null 2>&1', "&>"),
    ('echo "$A" |& cat', 'echo "$A" 2>&1 | cat', "|& (output and errors into the pipe)"),
    # dash says "bad trap" and runs on: the failure the trap was to turn into exit 3 passes
    ("trap 'exit 3' ERR; false; echo \"$A\"", 'false || echo "$A"', "an ERR trap"),
    ("sh -c 'if [[ -n \"$A\" ]]; then echo \"$A\"; fi'", "sh -c 'if [ -n \"$A\" ]; then echo \"$A\"; fi'",
     "[[ ... ]]"),
])
def test_bash_syntax_that_dash_does_not_run_is_reported_and_its_posix_form_is_not(tmp_path, command, posix, what):
    """Each construct does one thing under bash and another under dash, which runs it where
    Claude Code's /bin/sh is dash (Debian, Ubuntu): doctor names it. The POSIX way does the same
    under both and is not reported. (The script of `sh -c '...'` is run by sh under both: there
    bash runs `bash -c '...'`, what its author meant.)"""
    def both(text):
        return [subprocess.run([shell, "-c", text.replace("sh -c", "bash -c") if shell == "bash" else text],
                               capture_output=True, text=True, env={"A": "x", "PATH": os.defpath})
                for shell in ("bash", DASH)]

    bash, dash = both(command)
    assert (bash.returncode, bash.stdout) != (dash.returncode, dash.stdout)
    bash, dash = both(posix)
    assert (bash.returncode, bash.stdout) == (dash.returncode, dash.stdout) == (0, bash.stdout)
    (finding,) = found(doctor(tmp_path / "bad", {S: settings(command=command)}), "command/bash-only-syntax")
    assert what in finding.message
    assert not found(doctor(tmp_path / "good", {S: settings(command=posix)}), "command/bash-only-syntax")


def test_bash_syntax_in_quotes_or_in_bash_c_is_not_reported(tmp_path):
    for number, command in enumerate(("echo '[[ x ]] ${A//x/y} a <<< b'", "bash -c 'x=(a b); [[ -n $x ]] && echo \"${x[0]}\"'",
                    'grep -qE "^[[:space:]]*$" f', 'echo "${A:-default}" "${#A}"', "jq -r '.a == 1'")):
        assert not found(doctor(tmp_path / str(number), {S: settings(command=command)}),
                         "command/bash-only-syntax"), command


def test_a_program_the_command_reaches_later_fails_that_part_not_the_start(tmp_path):
    """`bun` only inside the if: the hook starts and runs its test; the message says where it fails."""
    missing = "hookwright-no-such-program"
    out = doctor(tmp_path / "p", {S: settings(command=f'if [ -f package.json ]; then {missing} run check; fi')})
    (hit,) = found(out, "command/interpreter-not-found")
    assert "fails where it runs it" in hit.message and "that part of the hook never runs" in hit.message
    (hit,) = found(doctor(tmp_path / "q", {S: settings(command=f"{missing} run check")}), "command/interpreter-not-found")
    assert "cannot start" in hit.message and "that part" not in hit.message

def test_every_command_rule_is_tested():
    tested = {"command/bash-only-syntax", "command/script-missing", "command/not-executable", "command/relative-path", "command/home-path",
              "command/sh-without-shell", "command/world-writable", "command/interpreter-not-found",
              "command/unquoted-placeholder", "command/exec-arguments-in-command", "command/user-config-in-shell-form",
              "command/input-variable-never-set", "command/bad-interpreter", "command/split-path",
              "command/block-swallowed", "command/answer-diverted", "command/text-beside-answer",
              "command/block-reason-dropped", "command/plugin-variable-outside-plugin", "command/input-read-twice",
              # tests/test_doctor_reach.py: hooks shared by every project that reach into this one
              "command/plugin-script-through-project", "command/shared-hook-project-script"}
    assert {r for r in catalog() if r.startswith("command/")} == tested


# ---- robustness ------------------------------------------------------------------------------------


SHELL_BITS = st.sampled_from(['"', "'", "\\", "$", "$(", "`", "${", "}", "(", ")", "&&", "||", ";", "|", "&", "<", ">",
                              "2>&1", "<<", "~", "#", " ", "\n", "cd ", "python3 ", "x.sh", "/", ".", "..", "=", "*",
                              "$CLAUDE_PROJECT_DIR", "${HOME:-/h}", "env ", "exec ", "[ -f ", " ]", "uv run ", "-c ",
                              "if ", "then ", "else ", "fi", "while ", "do ", "done", "{ ", " }", "set -e", "true",
                              "exit 0", "bash -c "])


@hsettings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(SHELL_BITS, st.text(max_size=4)), max_size=30).map("".join))
@example("set -e \\")  # a trailing backslash leaves an empty word among set's options
def test_any_command_string_resolves_without_error(command):
    res = resolve_shell(command, W)
    assert res.form == "shell"
    res.to_json()
    exec_res = resolve_exec(command or "x", (command,), W)
    exec_res.to_json()


def test_defaults_nested_without_end_are_read_without_running_out_of_stack():
    res = resolve_shell("python3 " + "${X:-" * 400 + "x.py" + "}" * 400, W)
    assert res.main is not None and res.main.dynamic  # not resolved, and no RecursionError


@hsettings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(SHELL_BITS, st.sampled_from(list(" ab=~#*?[$'\"\\`;&|()<>\r\t\n2/.-_")),
                          st.text(max_size=3)), max_size=20).map("".join))
def test_the_plain_word_shortcut_reads_words_as_the_full_lexer_does(command):
    """The lexer takes words with nothing to unquote or expand in one regex match; with that
    shortcut turned off, every command must come out as the same words."""
    import re

    from hookwright.doctor.shell import lex

    def words():
        try:
            return [{name: getattr(w, name) for name in lex.Word.__slots__}
                    for w in lex.Lexer(command, {"HOME": "/h", "CLAUDE_PROJECT_DIR": "/p"}, Path("/h")).words()]
        except lex.Unreadable as why:
            return str(why)

    fast = words()
    shortcut, lex._SIMPLE_WORD = lex._SIMPLE_WORD, re.compile(r"(?!)")  # never matches
    try:
        assert words() == fast
    finally:
        lex._SIMPLE_WORD = shortcut


def test_exec_form_with_arguments_in_command_never_starts(tmp_path):
    base = tmp_path / "p"
    _script(base, "check.py")
    out = doctor(base, {S: settings(command="python3 -u", args=["check.py"])})
    (broken,) = found(out, "command/exec-arguments-in-command")
    assert broken.severity == "error" and '"python3 -u"' in broken.message and "fails open" in broken.message
    assert not found(doctor(base, {S: settings(command="python3", args=["-u", "check.py"])}),
                     "command/exec-arguments-in-command")
    out = doctor(base, {S: settings(command="/usr/bin/env python3", args=["check.py"])})
    assert found(out, "command/exec-arguments-in-command") and not found(out, "command/script-missing")


def test_user_config_works_only_in_exec_form(tmp_path):
    plugin = "plugin/hooks/hooks.json"
    shell = {"description": "p", **settings(command="echo level=${user_config.level}")}
    (broken,) = found(doctor(tmp_path / "p", {plugin: shell}), "command/user-config-in-shell-form")
    assert "${user_config.level}" in broken.message and broken.severity == "error"
    assert "$CLAUDE_PLUGIN_OPTION_LEVEL" in broken.hint
    exec_form = {"description": "p", **settings(command="echo", args=["level=${user_config.level}"])}
    assert not found(doctor(tmp_path / "q", {plugin: exec_form}), "command/user-config-in-shell-form")
    assert not found(doctor(tmp_path / "r", {plugin: settings(command="echo ${user_level}")}),
                     "command/user-config-in-shell-form")
    # in a settings file nothing substitutes it, and sh stops on the bad substitution with exit 2
    (settings_file,) = found(doctor(tmp_path / "s", {S: settings(command="echo level=${user_config.level}")}),
                             "command/user-config-in-shell-form")
    assert "bad substitution" in settings_file.message and "only in plugin hooks" in settings_file.hint
    ran = subprocess.run(["sh", "-c", "echo level=${user_config.level}"], capture_output=True)
    assert ran.returncode != 0 and not ran.stdout  # the echo never runs


@pytest.mark.parametrize("command, name", [
    ("""echo "$CLAUDE_TOOL_INPUT" | grep -q 'rm -rf' && exit 2 || exit 0""", "CLAUDE_TOOL_INPUT"),
    ("prettier --write $CLAUDE_FILE_PATHS", "CLAUDE_FILE_PATHS"),
    ('ruff format "${CLAUDE_TOOL_FILE_PATH}"', "CLAUDE_TOOL_FILE_PATH"),
    ("jq -r .tool_input.file_path | xargs prettier --write", None),
    ('CLAUDE_TOOL_INPUT=$(cat); echo "$CLAUDE_TOOL_INPUT" | grep -q x', None),  # set by the command itself
    ('input="${CLAUDE_TOOL_INPUT:-$(cat)}"; echo "$input"', None),  # falls back to stdin
    ('echo "$CLAUDE_PROJECT_DIR $CLAUDE_ENV_FILE $CLAUDE_CODE_SESSION_ID"', None),
    ('read -r CLAUDE_FILE_PATH < <(jq -r .tool_input.file_path); ruff format "$CLAUDE_FILE_PATH"', None),
    ('cat >> "$CLAUDE_HOOK_LOG"', None),  # set in the settings' "env" below
    ('echo "$TOOL_INPUT" | grep -q "rm -rf" && exit 2', "TOOL_INPUT"),  # the names without the prefix, too
    ('npx prettier --write "$FILE_PATH"', "FILE_PATH"),
    ('echo "$STDIN" | jq -r .tool_input.command', "STDIN"),
    ('echo "$ARGUMENTS" >> log', "ARGUMENTS"),  # a prompt hook's placeholder, nothing in a command
    ('ruff format "$CLAUDE_TOOL_ARG_file_path"', "CLAUDE_TOOL_ARG_file_path"),
    ('FILE_PATH=$(jq -r .tool_input.file_path); npx prettier --write "$FILE_PATH"', None),
    ('npx prettier --write "${FILE_PATH:-.}"', None),
])
def test_input_variables_claude_code_never_sets(tmp_path, command, name):
    out = doctor(tmp_path / "p", {S: {**settings(command=command), "env": {"CLAUDE_HOOK_LOG": "/tmp/hooks.log"}}})
    hits = found(out, "command/input-variable-never-set")
    assert [h.message.split(" ", 1)[0] for h in hits] == ([f"${name}"] if name else [])



@pytest.mark.parametrize("command, argument", [
    ('if echo "$1" | grep -qE "[.]ts$" && [ -f "$1" ]; then npx tsc --noEmit; fi', "$1"),
    ('for file in "$@"; do npx prettier --write "$file"; done', "$@"),
    ('check() { echo "$1"; }; check "$(jq -r .tool_input.command)"', None),  # the function's own argument
    ("jq -r .tool_input.command | awk '{print $1}'", None),
    ('set -- $(jq -r .tool_input.file_path); echo "$1"', None),
    ("jq -r .tool_input.file_path | xargs -I{} sh -c 'echo \"$1\"' _ {}", None),
])
def test_arguments_a_shell_form_command_never_gets(tmp_path, command, argument):
    """Measured on 2.1.328: a shell-form hook's `$#` was 0 and `$0` /bin/sh (it runs as `sh -c`)."""
    hits = found(doctor(tmp_path / "p", {S: settings(command=command)}), "command/input-variable-never-set")
    assert [h.message.split(" ")[3].rstrip(",") for h in hits] == ([argument] if argument else [])

@pytest.mark.parametrize("first_line, why", [
    (b"#!/bin/sh\r\n", "carriage return"),
    (b"#!/usr/bin/env sh\r\n", 'looked for as "sh\\r"'),
    (b"#!/opt/hookwright-no-such-dir/bin/bash\n", "/opt/hookwright-no-such-dir/bin/bash, does not exist"),
    (b"#!/usr/bin/env hookwright-no-such-tool\n", "hookwright-no-such-tool is not on PATH"),
    (b"#!/bin/sh\n", None),
    (b"#!/usr/bin/env -S sh -e\n", None),
    (b"echo no shebang: the shell runs it\n", None),
])
def test_a_script_whose_interpreter_cannot_start(tmp_path, first_line, why):
    base = tmp_path / "p"
    script = base / ".claude/hooks/guard.sh"
    script.parent.mkdir(parents=True)
    script.write_bytes(first_line + b"exit 0\n")
    script.chmod(0o755)
    out = doctor(base, {S: settings(command='"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', shell="bash")})
    hits = found(out, "command/bad-interpreter")
    if why is None:
        assert not hits
    else:
        (hit,) = hits
        assert why in hit.message and "fails open" in hit.message and hit.severity == "error"
    started = subprocess.run(["sh", "-c", f"'{script}'"], capture_output=True)  # as the host starts it
    assert (started.returncode == 0) == (why is None), started.stderr


@pytest.mark.parametrize("attributes, at", [
    (None, ("guard.sh", 1)),  # no .gitattributes: the script's #! line is the line to mend
    ("* text=auto\n*.sh text eol=crlf\n", (".gitattributes", 2)),
    ("*.sh text eol=crlf\n.claude/hooks/*.sh eol=lf\n", ("guard.sh", 1)),  # (the last match sets LF: mend the copy)
    ("*.sh text eol=crlf\n", (".gitattributes", 1)),
])
def test_a_script_with_windows_line_endings_is_reported_where_they_come_from(tmp_path, attributes, at):
    base = tmp_path / "p"
    (base / ".git").mkdir(parents=True)
    if attributes is not None:
        (base / ".gitattributes").write_text(attributes)
    script = base / ".claude/hooks/guard.sh"
    script.parent.mkdir(parents=True)
    script.write_bytes(b"#!/bin/bash\r\nexit 2\r\n")
    script.chmod(0o755)
    out = doctor(base, {S: settings(command='"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', shell="bash")})
    (hit,) = found(out, "command/bad-interpreter")
    assert (Path(hit.path).name, hit.line) == at
    assert hit.related[0]["path"].endswith("settings.json")
    started = subprocess.run(["sh", "-c", f"'{script}'"], capture_output=True)  # as the host starts it
    assert started.returncode == 127, started.stderr  # (dash: "bash\r" not found) the hook never runs, its exit 2 unseen
    script.write_bytes(b"#!/bin/bash\nexit 2\n")  # the twin
    assert not found(doctor(base, {S: settings(command='"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', shell="bash")}),
                     "command/bad-interpreter")


GUARDS = {  # a guard that refuses by exiting 2: written, or the status its main() returns
    "guard.sh": "#!/bin/sh\ngrep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; }\nexit 0\n",
    "guard.py": ("import json, sys\ndef main():\n    if 'rm -rf' in sys.stdin.read():\n        print('no rm -rf', "
                 "file=sys.stderr)\n        return 2\n    return 0\nif __name__ == '__main__':\n    sys.exit(main())\n"),
}


def _ran(base: Path, command: str) -> subprocess.CompletedProcess[bytes]:
    """The command run by sh as the host runs it, on an input the guard refuses."""
    return subprocess.run(["sh", "-c", command], input=b"rm -rf /", capture_output=True, cwd=base,
                          env={**os.environ, "CLAUDE_PROJECT_DIR": str(base)})


@pytest.mark.parametrize("guard, command, swallowed", [
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh | tee -a /tmp/hook.log', True),
    ("guard.sh", '{ "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh; } || true', True),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh; exit 0', True),
    ("guard.sh", 'if "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh; then echo ok; else echo failed; fi', True),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', False),
    ("guard.sh", 'set -e; "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh; exit 0', False),
    ("guard.sh", 'cd "$CLAUDE_PROJECT_DIR" && .claude/hooks/guard.sh', False),
    ("guard.sh", '! "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh', True),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh || echo "guard failed" >&2', True),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh && echo "checked" >&2', False),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh || { rc=$?; echo "guard exited $rc" >&2; exit $rc; }',
     False),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh || exit $?', False),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh || exit', False),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh || { echo "guard failed" >&2; exit; }', True),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh || { echo "guard failed" >&2; exit 1; }', True),
    ("guard.sh", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh || exit 0', True),
    ("guard.py", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py || { s=$?; logger -t hook "guard $s"; exit "$s"; }',
     False),
    ("guard.sh", 'timeout 5 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh 2>>/tmp/hook-errors.log', False),
    ("guard.py", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py | tee -a /tmp/hook-audit.log', True),
    ("guard.py", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py 2>&1 | tee -a /tmp/hook-audit.log', True),
    ("guard.py", 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', False),
    # under pipefail a pipeline fails with its last failing command: the guard's 2 piped into tee is the hook's
    ("guard.py", "bash -c 'set -o pipefail; python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py 2>&1 | tee -a "
                 "/tmp/hook-audit.log >&2'", False),
    ("guard.py", "bash -c 'set -euo pipefail; python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py | tee -a "
                 "/tmp/hook-audit.log'", False),
    ("guard.py", "bash -c 'python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py 2>&1 | tee -a /tmp/hook-audit.log'",
     True),
    ("guard.py", "bash -c 'set -o pipefail; set +o pipefail; python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py | "
                 "tee -a /tmp/hook-audit.log'", True),
    # bash's own flags hold in the string it runs: `bash -o pipefail -c`, `bash -euo pipefail -c`
    ("guard.py", "bash -o pipefail -c 'python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py | tee -a "
                 "/tmp/hook-audit.log'", False),
    ("guard.py", "bash -euo pipefail -c 'python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py 2>&1 | tee -a "
                 "/tmp/hook-audit.log >&2'", False),
    ("guard.py", "bash -e -c 'python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py | tee -a /tmp/hook-audit.log'",
     True),
])
def test_a_block_the_command_around_the_script_swallows(tmp_path, guard, command, swallowed):
    base = tmp_path / "p"
    _script(base, f".claude/hooks/{guard}")
    (base / ".claude/hooks" / guard).write_text(GUARDS[guard])
    out = doctor(base, {S: settings(command=command, shell="bash")})
    assert bool(found(out, "command/block-swallowed")) == swallowed
    assert (_ran(base, command).returncode != 2) == swallowed  # what the shell really returns


LOGS_INPUT = '#!/bin/sh\ncat >> "$CLAUDE_PROJECT_DIR/hook.log"\nexit 0\n'  # reads the whole input, refuses nothing
HOOKS = '"$CLAUDE_PROJECT_DIR"/.claude/hooks'


@pytest.mark.parametrize("command, starved", [
    (f"{HOOKS}/log.sh && python3 {HOOKS}/guard.py", True),
    (f"{HOOKS}/log.sh; python3 {HOOKS}/guard.py", True),
    (f"{HOOKS}/log.sh || true; python3 {HOOKS}/guard.py", True),
    (f"{{ {HOOKS}/log.sh; python3 {HOOKS}/guard.py; }}", True),
    (f"if {HOOKS}/log.sh; then python3 {HOOKS}/guard.py; fi", True),
    # the near-misses: a pipe, the input read once and handed to each, the first's stdin its own, a background job
    (f"{HOOKS}/log.sh | python3 {HOOKS}/guard.py", False),
    (f"input=$(cat); printf '%s' \"$input\" | {HOOKS}/log.sh; printf '%s' \"$input\" | python3 {HOOKS}/guard.py",
     False),
    (f"{HOOKS}/log.sh </dev/null; python3 {HOOKS}/guard.py", False),
    (f"python3 {HOOKS}/guard.py && {HOOKS}/log.sh", False),  # (the guard reads first: it sees the input)
    (f"echo start >&2; python3 {HOOKS}/guard.py", False),
])
def test_two_scripts_of_one_command_that_read_the_one_stdin_leave_the_second_nothing(tmp_path, command, starved):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/log.sh", LOGS_INPUT)
    _script(base, ".claude/hooks/guard.py", GUARDS["guard.py"])
    hits = found(doctor(base, {S: settings(command=command)}), "command/input-read-twice")
    line = next(n for n, text in enumerate((base / S).read_text().splitlines(), 1) if '"command":' in text)
    assert [(Path(h.path).name, h.line) for h in hits] == ([("settings.json", line)] if starved else [])
    if " | " not in command:
        assert (_ran(base, command).returncode != 2) == starved  # what the shell really gives the guard


MAKE = 'PY ?= python3\n\n.PHONY: pre-bash other\n\npre-bash:\n\t{prefix}$(PY) guard.py\n\nother:\n\t@true\n{extra}'


@pytest.mark.parametrize("prefix, flags, extra, line", [
    ("-@", "", "", 6),  # make ignores the line's failure and exits 0
    ("@", "-i ", "", 6),
    ("@", "", ".IGNORE:\n", 6),
    ("@", "", ".IGNORE: pre-bash\n", 6),
    ("@", "", "", None),  # a failing line makes make exit 2: the block lands
    ("@", "", ".IGNORE: other\n", None),
    ("@", "-k ", "", None),  # (-k goes on with other targets, and still exits 2)
])
def test_a_make_recipe_line_whose_failure_make_ignores_swallows_the_block(tmp_path, prefix, flags, extra, line):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py", GUARDS["guard.py"])
    (base / ".claude/hooks/Makefile").write_text(MAKE.format(prefix=prefix, extra=extra))
    command = f'make -s {flags}-C "$CLAUDE_PROJECT_DIR"/.claude/hooks pre-bash'
    hits = found(doctor(base, {S: settings(command=command)}), "command/block-swallowed")
    assert [(Path(h.path).name, h.line) for h in hits] == ([("Makefile", line)] if line else [])
    assert (_ran(base, command).returncode != 2) == bool(line)  # what GNU make really returns


LOOPED = "pre-bash:\n\t@payload=$$(cat); for g in checks/*.py; do printf '%s' \"$$payload\" | $(PY) $$g{fix}; done\n"


@pytest.mark.parametrize("fix, line", [("", 3), (" || exit $$?", None)], ids=["last pass decides", "stops at a refusal"])
def test_a_make_recipe_line_whose_own_loop_loses_the_block(tmp_path, fix, line):
    """The recipe line's shell code is read like a script's (`$$` as the shell gets it): a `for`
    loop over the guards whose last pass decides ends the line, and make, with 0 (GNU make 4.3:
    what make really returns is asserted too)."""
    base = tmp_path / "p"
    _script(base, ".claude/hooks/checks/a-guard.py", GUARDS["guard.py"])
    _script(base, ".claude/hooks/checks/b-pass.py", "import sys\nsys.stdin.read()\n")
    (base / ".claude/hooks/Makefile").write_text("PY ?= python3\n" + LOOPED.format(fix=fix))
    command = 'make -s -C "$CLAUDE_PROJECT_DIR"/.claude/hooks pre-bash'
    hits = found(doctor(base, {S: settings(command=command)}), "command/block-swallowed")
    assert [(Path(h.path).name, h.line) for h in hits] == ([("Makefile", line)] if line else [])
    assert (_ran(base, command).returncode != 2) == bool(line)


DENIES = ("import json, sys\nif 'rm -rf' in sys.stdin.read():\n    print(json.dumps({'hookSpecificOutput': {"
          "'hookEventName': 'PreToolUse', 'permissionDecision': 'deny', 'permissionDecisionReason': 'no rm -rf'}}))\n")


@pytest.mark.parametrize("command, where", [
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py >> /tmp/hook-audit.log', "`>>/tmp/hook-audit.log`"),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py | tee -a /tmp/hook-audit.log >/dev/null', "/dev/null"),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py | logger -t claude-hook', "`| logger`"),
    ('{ python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py; } >&2', "stderr"),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py | tee -a /tmp/hook-audit.log', None),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py 2>>/tmp/hook-errors.log', None),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py | jq -c .', None),
])
def test_an_answer_the_command_sends_away_from_the_host(tmp_path, command, where):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py")
    (base / ".claude/hooks/guard.py").write_text(DENIES)
    hits = found(doctor(base, {S: settings(command=command)}), "command/answer-diverted")
    assert [where in h.message for h in hits] == ([True] if where else [])
    if "logger" not in command:  # (logger writes to the system log)
        assert ("permissionDecision" in _ran(base, command.replace("/tmp/", f"{tmp_path}/")).stdout.decode()) == (
            where is None)


@pytest.mark.parametrize("command, dropped", [
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py 2>/dev/null', "/dev/null"),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py 2>>/tmp/hook-errors.log', "hook-errors.log"),
    ('exec 2>/dev/null; python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', "/dev/null"),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py 2>&1', "stdout"),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py >/dev/null', None),  # (stdout: unread on exit 2)
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py 2>&1 | tee -a /tmp/hook.log', None),  # swallowed instead
])
def test_a_blocks_reason_the_command_sends_away_from_the_host(tmp_path, command, dropped):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py")
    (base / ".claude/hooks/guard.py").write_text(GUARDS["guard.py"])
    hits = found(doctor(base, {S: settings(command=command)}), "command/block-reason-dropped")
    assert [dropped in h.message for h in hits] == ([True] if dropped else [])
    ran = _ran(base, command.replace("/tmp/", f"{tmp_path}/"))
    assert ran.returncode != 2 or (b"no rm -rf" in ran.stderr) == (dropped is None)


@pytest.mark.parametrize("command, text", [
    ('echo "[hook] checking" && python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', 'echo [hook] checking'),
    ('cd "$CLAUDE_PROJECT_DIR" && git status && python3 .claude/hooks/guard.py', "git status"),
    ('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py; echo done', "echo done"),
    ('echo "[hook] checking" >&2 && python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', None),
    ('git status --porcelain >/dev/null && python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', None),
    ('date >> /tmp/hook.log; python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py', None),
])
def test_text_the_command_line_prints_beside_the_answer(tmp_path, command, text):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py")
    (base / ".claude/hooks/guard.py").write_text(DENIES)
    subprocess.run(["git", "init", "-q", str(base)], check=True)
    hits = found(doctor(base, {S: settings(command=command)}), "command/text-beside-answer")
    assert [text in h.message for h in hits] == ([True] if text else [])
    printed = _ran(base, command.replace("/tmp/", f"{tmp_path}/")).stdout.decode().strip()
    assert (printed.startswith("{") and printed.endswith("}")) == (text is None)  # one JSON object, or not


def test_a_script_that_also_prints_its_decision_is_not_swallowed(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py")
    (base / ".claude/hooks/guard.py").write_text(
        "import json, sys\nprint(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', "
        "'permissionDecision': 'deny'}}))\nsys.exit(2)\n")
    out = doctor(base, {S: settings(command='python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py | tee -a /tmp/x')})
    assert not found(out, "command/block-swallowed")


def test_plugin_variables_are_empty_outside_a_plugin(tmp_path):
    out = doctor(tmp_path / "p", {S: settings(command="${CLAUDE_PLUGIN_ROOT}/scripts/check.sh", shell="bash")})
    (empty,) = found(out, "command/plugin-variable-outside-plugin")
    assert empty.message.startswith("$CLAUDE_PLUGIN_ROOT is set only for a plugin's own hooks")
    assert "fails open" in empty.message and not found(out, "command/unquoted-placeholder")
    fallback = settings(command='"${CLAUDE_PLUGIN_ROOT:-$HOME/.my-plugin}"/scripts/check.sh')
    assert not found(doctor(tmp_path / "f", {S: fallback}), "command/plugin-variable-outside-plugin")
    plugin = {"description": "p", **settings(command='"${CLAUDE_PLUGIN_ROOT}"/scripts/check.sh')}
    assert not found(doctor(tmp_path / "q", {"plugin/hooks/hooks.json": plugin}), "command/plugin-variable-outside-plugin")
    ran = subprocess.run(["sh", "-c", "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"], capture_output=True,
                         env={k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_PLUGIN")})
    assert ran.returncode == 127  # /scripts/check.sh: not found


def test_a_missing_script_whose_failure_the_command_swallows_fails_silently(tmp_path):
    out = doctor(tmp_path / "p", {S: settings(command='"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh || true')})
    (missing,) = found(out, "command/script-missing")
    assert "silently: the command still exits 0" in missing.message and "non-blocking error" not in missing.message


# ---- one reading of a command for every project ---------------------------------------------------

FRAGMENTS = ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh', "$CLAUDE_PROJECT_DIR/hooks/b.py", "${CLAUDE_PROJECT_DIR}/x",
             "python3", "node", "bash -c 'echo hi'", "cd", "sub", "./run.sh", "scripts/c.js", "&&", "||", "|",
             ";", "true", "exit 2", "~/bin/t", "[ -f", "]", "-x", "npx prettier", "uv run", "$(jq -r .x)",
             "'$CLAUDE_PROJECT_DIR/q'", "CURSOR_PROJECT_DIR=/tmp/p", "$CURSOR_PROJECT_DIR/c.sh", "source", "env A=1",
             "$(git rev-parse --abbrev-ref HEAD)", '"$(git rev-parse --show-toplevel)"/g.sh']


@hsettings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8),
       st.sampled_from(["/proj", "/srv/monorepo/apps/web", "/tmp/a.b/c-d"]))
def test_a_command_read_once_for_every_project_reads_as_if_read_for_each(fragments, folder):
    """resolve_shell reads a command that another project holds too with a stand-in for the
    project folder and names the folder after: the same Resolution, field for field, as reading
    it with the folder."""
    from hookwright.doctor.shell.resolve import _resolve_shell

    command = " ".join(fragments)
    resolve_shell(command, Where(project=Path("/another/project"), home=HOME, cwd=Path("/another/project")))
    where = Where(project=Path(folder), home=HOME, cwd=Path(folder))
    shared, direct = resolve_shell(command, where), _resolve_shell(command, where, None)
    assert shared == direct
    if shared.main is not None:  # the main invocation is one of the invocations, as the checks expect
        assert any(inv is shared.main for inv in shared.invocations)


def test_only_the_words_the_reader_answers_from_the_disk_keep_a_command_from_being_read_once_for_every_project(tmp_path):
    """A `$(git rev-parse --show-toplevel)` is answered by looking for `.git` above the folder (a
    project's own disk); any other git call is only known when the hook runs, and reads alike in
    every project (found by review: the text `rev-parse` anywhere used to keep a command apart)."""
    from hookwright.doctor.shell.lex import reads_the_disk

    assert reads_the_disk('"$(git rev-parse --show-toplevel)"/hooks/g.sh')
    assert not reads_the_disk('b=$(git rev-parse --abbrev-ref HEAD); "$CLAUDE_PROJECT_DIR"/g.sh "$b"')
    command = '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/hooks/g.sh'
    for name, tree in (("one", True), ("two", False), ("three", True)):  # a work tree's top, or not (known then)
        project = tmp_path / name
        (project / (".git" if tree else "src")).mkdir(parents=True)
        main = resolve_shell(command, Where(project=project, home=HOME, cwd=project)).main
        assert main is not None and main.path == (project / "hooks" / "g.sh" if tree else None)


def test_the_same_command_in_many_projects_is_read_twice_at_most_and_names_each_project():
    """Read for the first project, then once for all the others."""
    from hookwright.doctor.shell.resolve import _resolve_shell

    command = 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/unique-to-this-test.py && echo ok'
    before = _resolve_shell.cache_info().misses
    scripts = {str(resolve_shell(command, Where(project=Path(f"/mono/app{n}"), home=HOME,
                                                cwd=Path(f"/mono/app{n}"))).script) for n in range(8)}
    assert scripts == {f"/mono/app{n}/.claude/hooks/unique-to-this-test.py" for n in range(8)}
    assert _resolve_shell.cache_info().misses == before + 2


@pytest.mark.parametrize("folder", ["/my projects/web", "/a/$b", "/q'uote", "/x/../y"])
def test_a_project_folder_with_a_name_the_shell_could_read_otherwise_is_read_as_it_is(folder):
    from hookwright.doctor.shell.resolve import _resolve_shell

    where = Where(project=Path(folder), home=HOME, cwd=Path(folder))
    for command in ("$CLAUDE_PROJECT_DIR/.claude/x.sh", '"$CLAUDE_PROJECT_DIR"/x.sh && cd sub && ./y.sh'):
        assert resolve_shell(command, where) == _resolve_shell(command, where, None)


@pytest.mark.parametrize("command", [
    'test -f /home/u/a/h.sh && "$CLAUDE_PROJECT_DIR"/h.sh',  # the guard spells the folder itself
    '[ -x ~/a/h.sh ] && "$CLAUDE_PROJECT_DIR"/h.sh',  # through ~
    '[ -x "$HOME"/a/h.sh ] && "$CLAUDE_PROJECT_DIR"/h.sh',  # through $HOME
    'cd /home/u/a && test -f h.sh && "$CLAUDE_PROJECT_DIR"/h.sh',
])
def test_a_guard_that_spells_the_project_folder_another_way_still_guards(command):
    """(found by review: the stand-in for the folder must not change what a text comparison sees)"""
    from hookwright.doctor.shell.resolve import _resolve_shell

    home = Path("/home/u")
    resolve_shell(command, Where(project=home / "b", home=home, cwd=home / "b"))  # another project first
    where = Where(project=home / "a", home=home, cwd=home / "a")
    assert resolve_shell(command, where) == _resolve_shell(command, where, None)
    assert resolve_shell(command, where).main.guarded


def test_sh_without_shell_is_said_once_per_file_with_the_other_hooks_listed_with_it(tmp_path):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/check.sh")
    three = {"hooks": {event: [{"matcher": "Bash", "hooks": [{"type": "command", "command": HOOK}]}]
                       for event in ("PreToolUse", "PostToolUse", "PostToolUseFailure")}}

    (finding,) = found(doctor(base, {S: three}), "command/sh-without-shell")

    assert "nor do 2 more in this file (listed with it)" in finding.message
    assert sorted(r["line"] for r in finding.related) == sorted({r["line"] for r in finding.related}) != []
    assert len(finding.related) == 2 and all(r["line"] > finding.line for r in finding.related)


def test_the_work_tree_top_is_looked_for_only_when_a_command_asks_for_it(tmp_path):
    """(a stat of `.git` per folder: most configs never ask for `$(git rev-parse --show-toplevel)`)"""
    from hookwright.doctor.shell import GIT_TOP

    (tmp_path / ".git").mkdir()
    where = Where(project=tmp_path, home=HOME, cwd=tmp_path)
    assert GIT_TOP not in where.variables
    assert where.variables.get(GIT_TOP) == str(tmp_path)
    assert Where(project=tmp_path / "sub", home=HOME, cwd=tmp_path / "sub").variables.get(GIT_TOP) is None


RUNNER_PACKAGE = {"name": "orders", "version": "1.4.0",
                  "scripts": {"guard": "python3 .claude/hooks/guard.py", "test": "python3 .claude/hooks/guard.py",
                              "lint": "python3 .claude/hooks/plain.py"}}


@pytest.mark.parametrize("command, files, prints", [
    ("npm run guard", {}, "npm prints its `> orders@1.4.0 guard` banner"),
    ("npm test", {}, "npm prints its `> orders@1.4.0 test` banner"),
    # the runner's name spelt with quotes or a backslash is still the runner the shell starts
    ('"np"m run guard', {}, "npm prints its `> orders@1.4.0 guard` banner"),
    ("ya\\rn guard", {}, "yarn prints its `yarn run v1...`"),
    ("npm run --silent guard", {}, None),
    ("npm run guard --silent", {}, None),  # (npm reads its options after the script's name too)
    ("npm -s run guard", {}, None),
    ("npm_config_loglevel=silent npm run guard", {}, None),
    ("npm run guard", {".npmrc": "loglevel=silent\n"}, None),
    ("npm run lint", {}, None),  # a guard that answers by its exit status alone: nothing to spoil
    ("yarn guard", {}, "yarn prints its `yarn run v1...`"),
    ("yarn -s guard", {}, None),
    ("yarn guard", {".yarnrc.yml": "nodeLinker: node-modules\n"}, None),  # yarn 2+ prints nothing on stdout
    ("pnpm run guard", {}, None),
    ("nvm exec 20 python3 .claude/hooks/guard.py", {}, "nvm prints its `Running node v...` line"),
    ("nvm exec --silent 20 python3 .claude/hooks/guard.py", {}, None),
    ("bun run guard", {}, None),
    ("make guard", {"Makefile": "guard:\n\tpython3 .claude/hooks/guard.py\n"}, "make prints the recipe line"),
    ("make guard", {"Makefile": "guard:\n\t@python3 .claude/hooks/guard.py\n"}, None),
    ("make -s guard", {"Makefile": "guard:\n\tpython3 .claude/hooks/guard.py\n"}, None),
    ("make guard", {"Makefile": "MAKEFLAGS += -s\nguard:\n\tpython3 .claude/hooks/guard.py\n"}, None),
    ("make -C . guard", {"Makefile": "guard:\n\t@python3 .claude/hooks/guard.py\n"}, "make prints its `make: Entering"),
])
def test_a_package_runner_whose_own_text_lands_before_the_answer_of_its_script(tmp_path, command, files, prints):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py", DENIES)
    _script(base, ".claude/hooks/plain.py", GUARDS["guard.py"])
    (base / "package.json").write_text(json.dumps(RUNNER_PACKAGE))
    for name, text in files.items():
        (base / name).write_text(text)
    hits = found(doctor(base, {S: settings(command=command)}), "command/text-beside-answer")
    assert [h.message.startswith(prints) for h in hits] == ([True] if prints else []), [h.message for h in hits]
    if command.split()[0].startswith(("npm", "npm_config")):  # (npm ships with node, here and in CI)
        printed = _ran(base, command).stdout.decode().strip()
        assert (printed.startswith("{") and printed.endswith("}")) == (prints is None) or "lint" in command


def test_npm_kept_quiet_by_the_users_npmrc_is_not_reported(tmp_path, home):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py", DENIES)
    (base / "package.json").write_text(json.dumps(RUNNER_PACKAGE))
    out = doctor(base, {S: settings(command="npm run guard")})
    assert found(out, "command/text-beside-answer")
    (home / ".npmrc").write_text("loglevel=silent\n")
    assert not found(doctor(base, {S: settings(command="npm run guard")}), "command/text-beside-answer")
    printed = subprocess.run(["sh", "-c", "npm run guard"], input=b"rm -rf /", capture_output=True, cwd=base,
                             env={**os.environ, "HOME": str(home)}).stdout.decode().strip()
    assert printed.startswith("{") and printed.endswith("}")  # (measured: the user's .npmrc silences it)


@pytest.mark.parametrize("env, files, loud", [
    ({"npm_config_loglevel": "silent"}, {}, False),
    ({"npm_config_loglevel": "notice"}, {".npmrc": "loglevel=silent\n"}, True),  # (the variable outranks .npmrc)
    ({"NPM_CONFIG_LOGLEVEL": "warn"}, {}, True),
], ids=["silenced by the settings", "made loud by the settings over .npmrc", "warn still prints the banner"])
def test_npm_made_quiet_or_loud_by_the_settings_env_is_judged_with_it(tmp_path, env, files, loud):
    base = tmp_path / "p"
    _script(base, ".claude/hooks/guard.py", DENIES)
    (base / "package.json").write_text(json.dumps(RUNNER_PACKAGE))
    for name, text in files.items():
        (base / name).write_text(text)
    hits = found(doctor(base, {S: {**settings(command="npm run guard"), "env": env}}), "command/text-beside-answer")
    assert bool(hits) == loud
    # (Claude Code hands the settings' env to its hooks: measured on 2.1.332)
    printed = subprocess.run(["sh", "-c", "npm run guard"], input=b"rm -rf /", capture_output=True, cwd=base,
                             env={**os.environ, **env}).stdout.decode().strip()
    assert (printed.startswith("{") and printed.endswith("}")) != loud
