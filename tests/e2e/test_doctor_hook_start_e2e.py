"""Guards that never start, start in the wrong interpreter or shell, never get their input, or never
finish in their time, each beside its corrected twin on the real Claude Code, all in one session.

Every gate refuses its own call (run_gates) once it runs and reads its input; the broken one fails
before it decides, and the call runs:
- `#!/usr/bin/env bash -e` (Linux passes `bash -e` to env as one name: 127), twin `env -S`;
  a byte-order mark before `#!/bin/bash` (the kernel sees no `#!`: sh runs the script, whose
  `[[` is not found), twin without it (command/bad-interpreter, at the `#!` line);
- `"shell": "powershell"` on a machine without PowerShell: the hook never runs, twin without
  the field (command/interpreter-not-found, at "shell"); `source` in a command with
  `"shell": "bash"`: sh runs it, `source` is not found and the guard after `&&` never runs, twin
  with `.` (command/bash-only-syntax, at the command);
- a guard that reads its input from `sys.argv[1]`, which a hook never gets, twin reading stdin and
  taking the project folder as its argument (command/input-variable-never-set, at the read);
- a script whose PATH leaves out /usr/bin, where jq is here: jq is not found, the guard reads
  nothing, twin with /usr/bin (command/interpreter-not-found, at the PATH);
- a Node guard using `require` in a `.js` file under `"type": "module"` (ReferenceError, exit 1),
  twin named `.cjs` (script/module-system, at the require);
- a Python guard importing a package this python3 does not have (ImportError, exit 1), twin with
  an `except ImportError` fallback (script/import-not-found, at the import);
- a guard whose retry waits outlast the handler's timeout: Claude Code kills it and the call runs,
  twin with room for them (script/outlasts-its-time, at the timeout).
"""
from __future__ import annotations

import json
import shutil

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, only_its_call, run_gates

pytestmark = pytest.mark.e2e

REFUSE_SH = 'input=$(cat)\nif [[ -n "$input" ]]; then echo "refused" >&2; exit 2; fi\nexit 0\n'
REFUSE_PY = "import json, sys\n\njson.load(sys.stdin)\nprint('refused', file=sys.stderr)\nsys.exit(2)\n"
ARGV = "import json, sys\n\npayload = json.loads(sys.argv[1])  # HERE\nprint('refused', file=sys.stderr)\nsys.exit(2)\n"
ARGV_TWIN = "import json, os, sys\n\nproject = sys.argv[1]\npayload = json.load(sys.stdin)\n" \
            "print('refused in', os.path.basename(project), file=sys.stderr)\nsys.exit(2)\n"
PINNED = '#!/usr/bin/env bash\nexport PATH="/opt/homebrew/bin:/usr/local/bin%s"  # HERE\n' \
         "cmd=$(jq -r '.tool_input.command // \"\"' 2>/dev/null)\n" \
         'if [ -n "$cmd" ]; then echo "refused" >&2; exit 2; fi\nexit 0\n'
NODE = 'const fs = require("fs");  // HERE\nJSON.parse(fs.readFileSync(0, "utf8"));\n' \
       'console.error("refused");\nprocess.exit(2);\n'
IMPORT = "import json\nimport sys\n\nimport bashlex_not_here  # HERE\n\n" + REFUSE_PY.split("\n", 2)[2]
IMPORT_TWIN = "import json\nimport sys\n\ntry:\n    import bashlex_not_here\nexcept ImportError:\n" \
              "    bashlex_not_here = None\n\n" + REFUSE_PY.split("\n", 2)[2]
RETRY = "import json, sys, time\n\npayload = json.load(sys.stdin)\nfor attempt in range(3):\n" \
        "    time.sleep(1 + attempt)  # the service is down: back off\n" + REFUSE_PY.split("\n", 3)[3]

# name: ((broken files, broken handler), (twin files, twin handler), (the file doctor names, rule, its line marker))
# (files under .claude/hooks/TOKEN/; "x" in a name marks it executable; the marker "#!" is line 1)
GATES = {
    "envopts": (({"g.sh x": "#!/usr/bin/env bash -e\n" + REFUSE_SH}, {"command": "D/g.sh"}),
                ({"g.sh x": "#!/usr/bin/env -S bash -e\n" + REFUSE_SH}, {"command": "D/g.sh"}),
                ("g.sh", "command/bad-interpreter", "#!")),
    "bom": (({"g.sh x": "\ufeff#!/bin/bash\n" + REFUSE_SH}, {"command": "D/g.sh"}),
            ({"g.sh x": "#!/bin/bash\n" + REFUSE_SH}, {"command": "D/g.sh"}),
            ("g.sh", "command/bad-interpreter", "#!")),
    "powershell": (({"g.py": REFUSE_PY}, {"command": "python3 D/g.py", "shell": "powershell"}),
                   ({"g.py": REFUSE_PY}, {"command": "python3 D/g.py"}),
                   ("settings.json", "command/interpreter-not-found", '"powershell"')),
    "source": (({"env.sh": "export LEVEL=strict\n", "g.py": REFUSE_PY},
                {"command": 'source "D/env.sh" && python3 D/g.py', "shell": "bash"}),
               ({"env.sh": "export LEVEL=strict\n", "g.py": REFUSE_PY},
                {"command": '. "D/env.sh" && python3 D/g.py', "shell": "bash"}),
               ("settings.json", "command/bash-only-syntax", "source ")),
    "argv": (({"g.py": ARGV}, {"command": "python3 D/g.py"}),
             ({"g.py": ARGV_TWIN}, {"command": 'python3 D/g.py "$CLAUDE_PROJECT_DIR"'}),
             ("g.py", "command/input-variable-never-set", "HERE")),
    "pinned": (({"g.sh": PINNED % ""}, {"command": "bash D/g.sh"}),
               ({"g.sh": PINNED % ":/usr/bin:/bin"}, {"command": "bash D/g.sh"}),
               ("g.sh", "command/interpreter-not-found", "HERE")),
    "esm": (({"package.json": '{"type": "module"}\n', "g.js": NODE}, {"command": "node D/g.js"}),
            ({"package.json": '{"type": "module"}\n', "g.cjs": NODE}, {"command": "node D/g.cjs"}),
            ("g.js", "script/module-system", "HERE")),
    "import": (({"g.py": IMPORT}, {"command": "python3 D/g.py"}),
               ({"g.py": IMPORT_TWIN}, {"command": "python3 D/g.py"}),
               ("g.py", "script/import-not-found", "HERE")),
    "timeout": (({"g.py": RETRY}, {"command": "python3 D/g.py", "timeout": 2}),
                ({"g.py": RETRY}, {"command": "python3 D/g.py", "timeout": 20}),
                ("settings.json", "script/outlasts-its-time", '"timeout": 2')),
}
RULES = {rule for *_, (_, rule, _) in GATES.values()}


@pytest.mark.skipif(shutil.which("pwsh") or shutil.which("powershell"), reason="PowerShell is installed here")
def test_guards_that_never_start_or_never_get_their_input_let_the_call_run_and_doctor_names_the_line(
        claude_cli, home, project):
    handlers, expected = [], set()
    for name, (broken, twin, _) in GATES.items():
        for kind, (files, handler) in (("broken", broken), ("twin", twin)):
            gate = f"{name}-{kind}"
            folder = project / ".claude" / "hooks" / gate
            folder.mkdir(parents=True)
            for spec, text in files.items():
                path = folder / spec.split()[0]
                path.write_bytes(text.encode())
                if spec.endswith(" x"):
                    path.chmod(0o755)
            handlers.append((gate, {"type": "command", "if": only_its_call(gate), **{
                key: value.replace("D/", f"{folder}/") if isinstance(value, str) else value
                for key, value in handler.items()}}))
    settings = project / ".claude" / "settings.json"
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [handler for _, handler in handlers]}]}}, indent=2))
    lines = settings.read_text().splitlines()
    for name, (_, _, (file, rule, marker)) in GATES.items():
        if file == "settings.json":  # (the broken gate's handler: the first line holding the marker after its `if`)
            start = next(n for n, line in enumerate(lines) if f"ran-{name}-broken.txt" in line)
            expected.add((str(settings), rule, next(n for n, line in enumerate(lines[start:], start + 1)
                                                    if marker in line)))
        else:
            path = project / ".claude" / "hooks" / f"{name}-broken" / file
            expected.add((str(path), rule, next(n for n, line in enumerate(path.read_text().splitlines(), 1)
                                                if marker in line)))

    ran, run = run_gates(project, home, [gate for gate, _ in handlers], claude=claude_cli)
    # what the real CLI did with each gate (Claude Code CLAUDE_VERSION; node 20, python3 3.11, dash 0.5.12, coreutils env)
    assert ran == {gate for gate, _ in handlers if gate.endswith("-broken")}, (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    flagged = {(f["path"], f["rule"], f["line"]) for f in json.loads(doctor.stdout)["findings"]
               if f["rule"] in RULES and f["severity"] in ("error", "warning")}
    assert flagged == expected
