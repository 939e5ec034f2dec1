"""Hooks that never start, start in the wrong interpreter or shell, never get their input, or never
finish in their time: each bad form beside the near-miss that works (the real Claude Code's side of
each is measured in tests/e2e/test_doctor_hook_start_e2e.py; the runtimes' side here, where the
test runs the script as the host would)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from doctor_support import doctor, found, settings

S = ".claude/settings.json"
HOOKS = ".claude/hooks"
AT_PROJECT = '"$CLAUDE_PROJECT_DIR"/'


def _run(tmp_path: Path, script: str, text: str, command: str, executable: bool = False, extra: dict | None = None,
         **handler: object) -> list:
    base = tmp_path / "p"
    files = {f"{HOOKS}/{script}": text, **(extra or {}), S: settings(command=command, **handler)}
    out = doctor(base, files, given=False)
    if executable:
        (base / HOOKS / script).chmod(0o755)
        out = doctor(base, {}, given=False)
    return out.findings


# ---- the #! line -----------------------------------------------------------------------------------

REFUSES = 'input=$(cat)\nif [[ -n "$input" ]]; then echo refused >&2; exit 2; fi\nexit 0\n'
REFUSES_IN_SH = REFUSES.replace("[[", "[").replace("]]", "]")


@pytest.mark.parametrize("first, why", [
    ("#!/usr/bin/env bash -e", '"bash -e" to env as one word'),
    ("#!/usr/bin/env -S bash -e", None),
    ("#!/usr/bin/env python3 -u", '"python3 -u" to env'),
    ("#!/bin/bash -e -u", '"-e -u" to bash as one argument'),
    ("#!/bin/bash -eu", None),
    ("#!/usr/bin/python3 -u -B", '"-u -B" to python3'),
    ("#!/usr/bin/python3 -u", None),
    ("\ufeff#!/bin/bash", "byte-order mark"),
    ("\ufeff#!/bin/sh", None),  # (sh runs it either way: the mark's line is only a "not found" on stderr)
    ("#!/bin/bash", None),
])
def test_a_hash_bang_line_the_system_cannot_start_as_written_is_named_at_line_1(tmp_path, first, why):
    body = REFUSES_IN_SH if first.endswith("/sh") else REFUSES
    hits = found_in(_run(tmp_path, "guard", f"{first}\n{body}", f"{AT_PROJECT}{HOOKS}/guard", executable=True),
                    "command/bad-interpreter")
    assert [(Path(f.path).name, f.line) for f in hits] == ([("guard", 1)] if why else [])
    if why:
        assert why in hits[0].message
    script = tmp_path / "p" / HOOKS / "guard"
    if shutil.which("python3") and "python3" not in first:  # as the host starts it: sh -c, the input on stdin
        started = subprocess.run(["sh", "-c", f"'{script}'"], input=b"{}", capture_output=True)
        assert (started.returncode == 2) == (why is None), started.stderr


@pytest.mark.parametrize("name, text, bad", [
    ("guard.py", "import json, sys\njson.load(sys.stdin)\nsys.exit(2)\n", True),
    ("guard.js", "const fs = require('fs');\nprocess.exit(2);\n", True),
    ("guard.sh", "cat >/dev/null\nexit 2\n", False),  # (a shell script sh runs as it is)
])
def test_a_script_in_another_language_without_a_hash_bang_line_is_run_by_sh(tmp_path, name, text, bad):
    hits = found_in(_run(tmp_path, name, text, f"{AT_PROJECT}{HOOKS}/{name}", executable=True),
                    "command/bad-interpreter")
    assert [(Path(f.path).name, f.line) for f in hits] == ([(name, 1)] if bad else [])
    if bad:
        assert "sh runs it as a shell script" in hits[0].message and "exit 2" in hits[0].message
    started = subprocess.run(["sh", "-c", f"'{tmp_path / 'p' / HOOKS / name}'"], input=b"{}", capture_output=True)
    assert started.returncode == 2  # (dash: a syntax error in the other language, or the script's own exit 2)


def found_in(findings: list, rule: str) -> list:
    return [f for f in findings if f.rule == rule]


# ---- the shell that runs a command ----------------------------------------------------------------------

@pytest.mark.parametrize("command, what", [
    ('source "$CLAUDE_PROJECT_DIR/.claude/env.sh" && python3 g.py', "`source`"),
    ('. "$CLAUDE_PROJECT_DIR/.claude/env.sh" && python3 g.py', None),
    ("cat <(echo hi)", "process substitution"),
    ("x=$'a\\tb'; printf '%s' \"$x\"", "$'...' quoting"),
    ("echo '$x' \"$y\"", None),
    ("n=$(jq '.n'); (( n > 1 )) && exit 2", "arithmetic test"),
    ('n=$(jq .n); [ "$((n + 1))" -gt 2 ] && exit 2', None),
    ("shopt -s nocasematch; echo ok", "`shopt`"),
    ("for i in {1..3}; do echo $i; done", "brace sequence"),
    ("find . -name '*.py' -exec ruff check {} +", None),
    ("node - <<'EOF'\nlet x = 1;\nselect(x);\nEOF", None),  # (a here-document's body is not the shell's)
    ("echo 'source it; let it be'", None),
])
def test_bash_only_syntax_in_a_command_sh_runs_even_with_shell_bash(tmp_path, command, what):
    hits = found(doctor(tmp_path / "p", {S: settings(command=command, shell="bash")}), "command/bash-only-syntax")
    assert [what in h.message for h in hits] == ([True] if what else [])
    if what and "<<" not in command:  # dash refuses or changes it: the command does not do what bash does
        bash = subprocess.run(["bash", "-c", command], input=b'{"n": 3}', capture_output=True, cwd=tmp_path)
        dash = subprocess.run(["sh", "-c", command], input=b'{"n": 3}', capture_output=True, cwd=tmp_path)
        assert (dash.returncode, dash.stdout, b"not found" in dash.stderr) != \
            (bash.returncode, bash.stdout, b"not found" in bash.stderr)


@pytest.mark.skipif(bool(shutil.which("pwsh") or shutil.which("powershell")), reason="PowerShell is installed here")
@pytest.mark.parametrize("shell", ["powershell", "bash", None])
def test_a_powershell_hook_on_a_machine_without_powershell_never_runs(tmp_path, shell):
    out = doctor(tmp_path / "p", {S: settings(command="python3 g.py", shell=shell)})
    hits = found(out, "command/interpreter-not-found")
    lines = (tmp_path / "p" / S).read_text().splitlines()
    at = next((n for n, line in enumerate(lines, 1) if '"shell"' in line), None)
    assert [(h.line, "pwsh" in h.message) for h in hits] == ([(at, True)] if shell == "powershell" else [])


# ---- the input read from where the host does not put it -------------------------------------------------

@pytest.mark.parametrize("name, text, command, read", [
    ("g.py", "import json, sys\npayload = json.loads(sys.argv[1])\n", "python3 {s}", (2, "sys.argv[1]")),
    ("g.py", "import json, sys\nproject = sys.argv[1]\npayload = json.load(sys.stdin)\n",
     'python3 {s} "$CLAUDE_PROJECT_DIR"', None),
    ("g.py", "import json, sys\nmode = sys.argv[1] if len(sys.argv) > 1 else 'pre'\n", "python3 {s}", None),
    ("g.py", "import sys\ntry:\n    mode = sys.argv[1]\nexcept IndexError:\n    mode = 'pre'\n", "python3 {s}", None),
    ("g.py", "import sys\nmode = sys.argv[2]\n", "python3 {s} pre", (2, "sys.argv[2]")),
    ("g.js", "const input = JSON.parse(process.argv[2]);\n", "node {s}", (1, "JSON.parse(process.argv[2])")),
    ("g.js", "const raw = process.argv[2];\nconst input = JSON.parse(raw);\n", "node {s}", (1, "JSON.parse(raw)")),
    ("g.js", "const mode = process.argv[2] || 'pre';\nconst input = JSON.parse(require('fs').readFileSync(0));\n",
     "node {s}", None),
    ("g.sh", 'cmd=$(echo "$1" | jq -r .tool_input.command)\n[ -n "$cmd" ] && exit 2\n', "bash {s}",
     (1, 'echo "$1" | jq')),
    ("g.sh", 'check() { echo "$1" | jq -r .tool_input.command; }\ncheck "$(cat)"\n', "bash {s}", None),
])
def test_a_script_that_reads_its_input_from_an_argument_the_command_never_passes(tmp_path, name, text, command, read):
    hits = found_in(_run(tmp_path, name, text, command.format(s=f"{AT_PROJECT}{HOOKS}/{name}")),
                    "command/input-variable-never-set")
    assert [(h.line, read[1] in h.message) for h in hits] == ([(read[0], True)] if read else [])


# ---- a PATH under which a program is not found ---------------------------------------------------------

JQ_GUARD = "#!/usr/bin/env bash\n%s\ncmd=$(jq -r '.tool_input.command // \"\"' 2>/dev/null)\n" \
           '[ -n "$cmd" ] && { echo refused >&2; exit 2; }\nexit 0\n'


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed here")
@pytest.mark.parametrize("line, bad", [
    ('export PATH="/opt/hookwright-none/bin:/opt/hookwright-other/bin"', True),
    ("PATH=/opt/hookwright-none/bin", True),
    ('export PATH="/opt/hookwright-none/bin:$PATH"', False),
    (f'export PATH="/opt/hookwright-none/bin:{Path(shutil.which("jq") or "/usr/bin/jq").parent}"', False),
    ('export PATH="/opt/hookwright-none/bin"\ncommand -v jq >/dev/null || { echo "no jq" >&2; exit 2; }', False),
])
def test_a_path_the_script_sets_without_the_folder_of_a_program_it_runs(tmp_path, line, bad):
    text = JQ_GUARD % line
    hits = found_in(_run(tmp_path, "g.sh", text, f"bash {AT_PROJECT}{HOOKS}/g.sh"), "command/interpreter-not-found")
    assert [(h.line, "`jq`" in h.message) for h in hits] == ([(2, True)] if bad else [])
    ran = subprocess.run(["bash", str(tmp_path / "p" / HOOKS / "g.sh")], input=b'{"tool_input": {"command": "rm"}}',
                         capture_output=True)
    assert (ran.returncode == 0) == bad  # (jq not found: the guard read nothing and let it through)


# ---- how the interpreter loads the script -----------------------------------------------------------------

NODE_GUARD = 'const fs = require("fs");\nJSON.parse(fs.readFileSync(0, "utf8"));\nprocess.exit(2);\n'
ESM_GUARD = 'import fs from "fs";\nJSON.parse(fs.readFileSync(0, "utf8"));\nprocess.exit(2);\n'


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed here")
@pytest.mark.parametrize("name, text, manifest, line", [
    ("g.js", NODE_GUARD, {"type": "module"}, 1),
    ("g.cjs", NODE_GUARD, {"type": "module"}, None),
    ("g.js", "import { createRequire } from 'module';\nconst require = createRequire(import.meta.url);\n" + NODE_GUARD,
     {"type": "module"}, None),
    ("g.js", "// reads __dirname? no\nconsole.log(__dirname);\nprocess.exit(2);\n", {"type": "module"}, 2),
    ("g.js", ESM_GUARD, {"type": "commonjs"}, 1),
    ("g.cjs", ESM_GUARD, {}, 1),
    ("g.js", ESM_GUARD, {"name": "no-type"}, None),  # (node 20.19+ tells it by its syntax)
    ("g.mjs", ESM_GUARD, {}, None),
    ("g.js", NODE_GUARD, {}, None),
])
def test_a_node_script_written_for_the_other_module_system(tmp_path, name, text, manifest, line):
    hits = found_in(_run(tmp_path, name, text, f"node {AT_PROJECT}{HOOKS}/{name}",
                         extra={f"{HOOKS}/package.json": manifest}), "script/module-system")
    assert [h.line for h in hits] == ([line] if line else [])
    ran = subprocess.run(["node", str(tmp_path / "p" / HOOKS / name)], input=b"{}", capture_output=True)
    assert ran.returncode == (1 if line else 2), ran.stderr


@pytest.mark.parametrize("name, text, command, extra, line", [
    ("g.py", "import json\nimport hookwright_no_such_module\n", "python3 {s}", {}, 2),
    ("g.py", "import json\ntry:\n    import hookwright_no_such_module\nexcept ImportError:\n    pass\n", "python3 {s}",
     {}, None),
    ("g.py", "import json\nimport policy\n", "python3 {s}", {f"{HOOKS}/policy.py": "X = 1\n"}, None),
    ("g.py", "import json, sqlite3\nfrom os import path\n", "python3 {s}", {}, None),
    ("g.py", "import hookwright_no_such_module\n", ".venv/bin/python {s}", {}, None),  # (the venv's own packages)
    ("g.py", "import hookwright_no_such_module\n", "uv run {s}", {}, None),
    ("g.js", 'const q = require("hookwright-no-such-package");\n', "node {s}", {}, 1),
    ("g.js", 'const q = require("hookwright-no-such-package");\n', "node {s}",
     {"node_modules/hookwright-no-such-package/index.js": "module.exports = 1;\n"}, None),
    ("g.mjs", 'import fs from "node:fs";\nimport path from "path";\n', "node {s}", {}, None),
])
def test_an_import_the_interpreter_that_runs_the_hook_cannot_resolve(tmp_path, name, text, command, extra, line):
    hits = found_in(_run(tmp_path, name, text, command.format(s=f"{AT_PROJECT}{HOOKS}/{name}"), extra=extra),
                    "script/import-not-found")
    assert [h.line for h in hits] == ([line] if line else [])


# ---- a wait longer than the hook's time ---------------------------------------------------------------------

RETRY = "import json, sys, time, urllib.request\npayload = json.load(sys.stdin)\nfor attempt in range(3):\n" \
        "    try:\n        urllib.request.urlopen('http://127.0.0.1:9', timeout=%s)\n        break\n" \
        "    except OSError:\n        time.sleep(%s)\nsys.exit(2)\n"


@pytest.mark.parametrize("text, timeout, wait", [
    (RETRY % (2, "1 + attempt"), 5, "12"),  # 3 x 2 s of calls and 1 + 2 + 3 s of back-off
    (RETRY % (2, "1 + attempt"), 15, None),
    (RETRY % (1, "2 ** attempt"), 5, "10"),
    (RETRY % (1, "0.1"), 5, None),
    ("import json, sys, urllib.request\njson.load(sys.stdin)\nurllib.request.urlopen('http://x', timeout=10)\n", 5,
     "10"),
    ("import json, sys, urllib.request\njson.load(sys.stdin)\nurllib.request.urlopen('http://x', timeout=3)\n", 5, None),
])
def test_a_guard_whose_waits_outlast_the_handlers_timeout(tmp_path, text, timeout, wait):
    hits = found_in(_run(tmp_path, "g.py", text, f"python3 {AT_PROJECT}{HOOKS}/g.py", timeout=timeout),
                    "script/outlasts-its-time")
    assert [(Path(h.path).name, f"up to {wait} s" in h.message) for h in hits] == (
        [("settings.json", True)] if wait else [])


@pytest.mark.parametrize("body, timeout, bad", [
    ("for i in 1 2 3; do :; done\nfor i in $(seq 3); do curl -sf --max-time 5 http://x && break; sleep 1; done", 10,
     True),
    ("for i in $(seq 3); do curl -sf --max-time 1 http://x && break; sleep 1; done", 10, False),
    ("read -t 30 line || true", 10, True),
    ("grep -m 30 x file || true", 10, False),
])
def test_a_shell_guards_call_limits_count_toward_its_time(tmp_path, body, timeout, bad):
    hits = found_in(_run(tmp_path, "g.sh", f"#!/bin/sh\n{body}\nexit 2\n", f"sh {AT_PROJECT}{HOOKS}/g.sh",
                         timeout=timeout), "script/outlasts-its-time")
    assert bool(hits) == bad


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed here")
@pytest.mark.parametrize("command, bad", [
    ("PATH=/opt/hookwright-none/bin jq -r .tool_input.command | grep -q rm && exit 2; exit 0", True),
    ("export PATH=/opt/hookwright-none/bin; jq -r .tool_input.command | grep -q rm && exit 2; exit 0", True),
    ("export PATH=/opt/hookwright-none/bin:$PATH; jq -r .tool_input.command | grep -q rm && exit 2; exit 0", False),
    (f"PATH={Path(shutil.which('jq') or '/usr/bin/jq').parent} jq -r .tool_input.command | grep -q rm && exit 2; exit 0",
     False),
])
def test_a_path_the_command_sets_without_the_folder_of_a_program_it_runs(tmp_path, command, bad):
    hits = found(doctor(tmp_path / "p", {S: settings(command=command)}), "command/interpreter-not-found")
    assert [("`jq`" in h.message, h.path.endswith("settings.json")) for h in hits] == ([(True, True)] if bad else [])
    ran = subprocess.run(["sh", "-c", command], input=b'{"tool_input": {"command": "rm -rf x"}}', capture_output=True)
    assert (ran.returncode == 0) == bad  # (jq not found: the command read nothing and let it through)


@pytest.mark.parametrize("where", ["settings-env", "command"])
def test_an_import_from_a_search_path_the_hook_is_given_is_not_judged(tmp_path, where):
    guard = f"{AT_PROJECT}{HOOKS}/g.py"
    config = settings(command=f"PYTHONPATH=\"$CLAUDE_PROJECT_DIR\"/src python3 {guard}" if where == "command"
                      else f"python3 {guard}")
    if where == "settings-env":
        config["env"] = {"PYTHONPATH": "src"}
    out = doctor(tmp_path / "p", {f"{HOOKS}/g.py": "import hookwright_no_such_module\n", S: config}, given=False)
    assert not found(out, "script/import-not-found")


@pytest.mark.parametrize("name, text, command, read", [
    ("g.py", "import argparse, json\np = argparse.ArgumentParser()\np.add_argument('payload')\nargs = p.parse_args()\n",
     "python3 {s}", (3, "add_argument('payload')")),
    ("g.py", "import argparse, json\np = argparse.ArgumentParser()\np.add_argument('mode', nargs='?')\n"
             "args = p.parse_args()\n", "python3 {s}", None),
    ("g.py", "import argparse, json\np = argparse.ArgumentParser()\np.add_argument('mode')\nargs = p.parse_args()\n",
     "python3 {s} pre", None),
    ("g.js", "const fs = require('fs');\nconst input = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));\n",
     "node {s}", (2, "readFileSync(process.argv[2]")),
    ("g.sh", 'cmd=$(cat "$1" | jq -r .tool_input.command)\n[ -n "$cmd" ] && exit 2\n', "bash {s}", (1, 'cat "$1" | jq')),
])
def test_more_forms_of_an_argument_the_command_never_passes(tmp_path, name, text, command, read):
    hits = found_in(_run(tmp_path, name, text, command.format(s=f"{AT_PROJECT}{HOOKS}/{name}")),
                    "command/input-variable-never-set")
    assert [(h.line, read[1] in h.message) for h in hits] == ([(read[0], True)] if read else [])
    if command == "python3 {s}":  # as the host runs it: no argument, the input on stdin
        ran = subprocess.run(["python3", str(tmp_path / "p" / HOOKS / name)], input=b"{}", capture_output=True)
        assert (ran.returncode == 2) == bool(read)
