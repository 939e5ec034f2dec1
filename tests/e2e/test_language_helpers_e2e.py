"""Python and Node guards whose answer, stdout or refusal lives somewhere else than the lines that
decide, and their corrected twins, all in one session of the real Claude Code.

Each gate means to refuse the Bash call that names its own token: through a helper module that
writes the deny with a hookEventName it sets by name (Python and Node), with logging sent to
stdout before its deny, importing a module that prints when it is imported, comparing the tool
name with opencode's lower-case name in a function the entry point hands tool_name to, and with
its refusal in the part only the PostToolUse handler's arguments reach (the Stop handler passes
`--summary`), printing its deny with console.log(answer) (JavaScript's notation, not JSON),
printing a line through a rich Console (stdout) before its deny, and exiting 0 at the top level
before the callback of the execFile that runs its check (an exit in that callback, its twin,
counts: node waits for it). The real CLI runs the call past each broken gate and not past its twin; doctor
flags each broken gate at the line marked `HERE` (the PostToolUse one at its event in the
settings), with the rule named, and not its twin.
"""
from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest
from claude_cli import CLAUDE_VERSION, hookwright, run_gates

pytestmark = pytest.mark.e2e
PY = shlex.quote(sys.executable)

PY_LIB = """\
import json, sys
HOOK_EVENT = "EVENT"  # HERE
def deny(reason):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": HOOK_EVENT, "permissionDecision": "deny",
                                             "permissionDecisionReason": reason}}))
    sys.exit(0)
"""
PY_GUARD = """\
import json, sys
from TOKEN_lib import deny
if "TOKEN" in json.load(sys.stdin)["tool_input"]["command"]:
    deny("TOKEN is not allowed")
"""
JS_LIB = """\
export const EVENT = "NAME";  // HERE
export function deny(reason) {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: EVENT, permissionDecision: "deny",
    permissionDecisionReason: reason } }));
}
"""
JS_GUARD = """\
import { readFileSync } from "node:fs";
import { deny } from "./TOKEN-lib.mjs";
if (JSON.parse(readFileSync(0, "utf8")).tool_input.command.includes("TOKEN")) deny("TOKEN is not allowed");
"""
DENY = ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
        '"permissionDecisionReason": "TOKEN is not allowed"}}))')
LOGGING = """\
import json, logging, sys
logging.basicConfig(level=logging.INFO, stream=sys.stdout)  # HERE
log = logging.getLogger("TOKEN")
command = json.load(sys.stdin)["tool_input"]["command"]
log.info("checking %%s", command)  # HERE
if "TOKEN" in command:
    %s
""" % DENY
PRINTING_LIB = 'print("TOKEN helpers loaded")  # HERE\nLIMIT = 3\n'
IMPORTS_PRINTING = """\
import json, sys
import TOKEN_lib
if "TOKEN" in json.load(sys.stdin)["tool_input"]["command"]:
    %s
""" % DENY
SHARED = """\
import { readFileSync } from "node:fs";
export function check(tool, args) {
  if (tool === "NAME" && String(args.command).includes("TOKEN")) return "TOKEN is not allowed";  // HERE
  return null;
}
const event = JSON.parse(readFileSync(0, "utf8"));
const reason = check(event.tool_name, event.tool_input ?? {});
if (reason) { process.stderr.write(reason + "\\n"); process.exit(2); }
"""
SUMMARY = """\
import { readFileSync } from "node:fs";
if (process.argv.includes("--summary")) process.exit(0);
const command = JSON.parse(readFileSync(0, "utf8")).tool_input?.command ?? "";
if (command.includes("TOKEN")) {
  console.error("Blocked: TOKEN");
  process.exit(2);
}
"""
INSPECTED = """\
import { readFileSync } from "node:fs";
const command = JSON.parse(readFileSync(0, "utf8")).tool_input.command;
const answer = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny",
  permissionDecisionReason: "TOKEN is not allowed" } };
if (command.includes("TOKEN")) console.log(answer);  // HERE
"""
RICH = """\
import json, sys
from rich.console import Console
console = Console()
command = json.load(sys.stdin)["tool_input"]["command"]
console.print(f"checking {command}")  # HERE
if "TOKEN" in command:
    %s
""" % DENY
CALLBACK = """\
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
const command = JSON.parse(readFileSync(0, "utf8")).tool_input.command;
execFile("sh", ["-c", command.includes("TOKEN") ? "exit 2" : "exit 0"], (err) => {
  if (err) { console.error("TOKEN is not allowed"); process.exit(2); }
});
process.exit(0);  // HERE
"""

CASES = {  # name: (the rule, (file, text) of the broken gate, of its twin, the script the handler runs)
    "pyhelper": ("script/wrong-event-name", {"TOKEN_lib.py": PY_LIB.replace("EVENT", "PostToolUse"),
                                             "TOKEN.py": PY_GUARD},
                 {"TOKEN_lib.py": PY_LIB.replace("EVENT", "PreToolUse"), "TOKEN.py": PY_GUARD}, "TOKEN.py"),
    "jshelper": ("script/wrong-event-name", {"TOKEN-lib.mjs": JS_LIB.replace("NAME", "PostToolUse"),
                                             "TOKEN.mjs": JS_GUARD},
                 {"TOKEN-lib.mjs": JS_LIB.replace("NAME", "PreToolUse"), "TOKEN.mjs": JS_GUARD}, "TOKEN.mjs"),
    "logging": ("script/text-before-json", {"TOKEN.py": LOGGING},
                {"TOKEN.py": LOGGING.replace(", stream=sys.stdout", "")}, "TOKEN.py"),
    "printing": ("script/text-before-json", {"TOKEN_lib.py": PRINTING_LIB, "TOKEN.py": IMPORTS_PRINTING},
                 {"TOKEN_lib.py": PRINTING_LIB.replace(")", ", file=sys.stderr)").replace("print", "import sys\nprint"),
                  "TOKEN.py": IMPORTS_PRINTING}, "TOKEN.py"),
    "inspect": ("script/answer-not-json", {"TOKEN.mjs": INSPECTED},
                {"TOKEN.mjs": INSPECTED.replace("console.log(answer)", "console.log(JSON.stringify(answer))")},
                "TOKEN.mjs"),
    "rich": ("script/text-before-json", {"TOKEN.py": RICH}, {"TOKEN.py": RICH.replace("Console()", "Console(stderr=True)")},
             "TOKEN.py"),
    "callback": ("delivery/exit-before-async-work", {"TOKEN.mjs": CALLBACK},
                 {"TOKEN.mjs": CALLBACK.replace("process.exit(0);  // HERE\n", "")}, "TOKEN.mjs"),
    "shared": ("script/value-never-sent", {"TOKEN.mjs": SHARED.replace("NAME", "bash")},
               {"TOKEN.mjs": SHARED.replace("NAME", "Bash")}, "TOKEN.mjs"),
}


def _command(script: str) -> str:
    runner = "node" if script.endswith(".mjs") else PY
    return f'{runner} "$CLAUDE_PROJECT_DIR"/.claude/hooks/{script}'


def test_answers_and_refusals_built_elsewhere_than_the_guard_fail_on_the_real_cli_and_doctor_names_the_line(
        claude_cli, home, project):
    hooks = project / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    gates, pre, expected = [], [], set()
    for name, (rule, broken, twin, script) in CASES.items():
        for kind, files in (("broken", broken), ("twin", twin)):
            token = f"{name}_{kind}"
            for file, text in files.items():
                (hooks / file.replace("TOKEN", token)).write_text(text.replace("TOKEN", token))
                if kind == "broken":
                    expected |= {(file.replace("TOKEN", token), rule, n)
                                 for n, line in enumerate(text.splitlines(), 1) if "HERE" in line}
            gates.append(token)
            pre.append(_command(script.replace("TOKEN", token)))
    # the refusal only the PostToolUse handler's arguments reach: after the call (its twin on PreToolUse)
    for kind in ("broken", "twin"):
        token = f"summary_{kind}"
        (hooks / f"{token}.mjs").write_text(SUMMARY.replace("TOKEN", token))
        gates.append(token)
    settings = {"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": c}
                                                     for c in [*pre, _command("summary_twin.mjs")]]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": _command("summary_broken.mjs")}]}],
        "Stop": [{"hooks": [{"type": "command", "command": _command(f"summary_{kind}.mjs") + " --summary"}
                            for kind in ("broken", "twin")]}]}}
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))
    subprocess.run(["git", "init", "-q", str(project)], check=True)

    ran, run = run_gates(project, home, gates, claude=claude_cli)
    # what the real CLI did with each gate's answer (Claude Code CLAUDE_VERSION)
    assert ran == {token for token in gates if token.endswith("_broken")}, (CLAUDE_VERSION, run.tool_results)

    doctor = hookwright("doctor", "--format", "json", home=home, project=project)
    findings = json.loads(doctor.stdout)["findings"]
    rules = {rule for rule, *_ in CASES.values()}
    flagged = {(f["path"].rsplit("/", 1)[1], f["rule"], f["line"]) for f in findings
               if f["rule"] in rules and f["severity"] in ("error", "warning")}
    assert flagged == expected
    after = [f for f in findings if f["rule"] == "script/exit-2-does-not-block"]
    # (the event that registers it, PostToolUse: the line of its key)
    post_line = next(n for n, line in enumerate(json.dumps(settings, indent=2).splitlines(), 1)
                     if '"PostToolUse"' in line)
    assert [(f["path"].rsplit("/", 1)[1], f["line"], "summary_broken.mjs" in f["message"]) for f in after] == [
        ("settings.json", post_line, True)]
