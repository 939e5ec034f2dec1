"""doctor reads a Python or Node hook as the host runs it: through the helper modules it imports
(their answer is its answer), with the stdout its logging is configured to, with the arguments
each handler passes, and as each host that runs it names its tools. Each bad case has a near-miss
twin that must stay clean."""
from __future__ import annotations

import os
import textwrap

import pytest
from doctor_support import doctor, found

S = ".claude/settings.json"


def _settings(*entries: tuple[str, str, str]) -> dict:
    """{"hooks": ...} with one handler per (event, matcher, command)."""
    hooks: dict = {}
    for event, matcher, command in entries:
        group = {"hooks": [{"type": "command", "command": command}]}
        if matcher:
            group["matcher"] = matcher
        hooks.setdefault(event, []).append(group)
    return {"hooks": hooks}


def _files(**files: str) -> dict:
    return {name.replace("__", "/"): textwrap.dedent(text).lstrip() for name, text in files.items()}


HOOKLIB = """
    import json, sys

    HOOK_EVENT = "{event}"

    def read_event():
        return json.load(sys.stdin)

    def emit(**fields):
        print(json.dumps({{"hookSpecificOutput": {{"hookEventName": HOOK_EVENT, **fields}}}}))
        sys.exit(0)

    def deny(reason):
        emit(permissionDecision="deny", permissionDecisionReason=reason)
    """
GUARD = """
    from hooklib import deny, read_event
    event = read_event()
    if ".env" in event["tool_input"].get("file_path", ""):
        deny("no secrets")
    """
GUARD_SETTINGS = _settings(("PreToolUse", "Read", 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'))


@pytest.mark.parametrize("event, wrong", [("PostToolUse", True), ("PreToolUse", False)])
def test_a_helper_module_that_names_another_event_makes_the_guard_that_calls_it_lose_its_deny(tmp_path, event, wrong):
    files = _files(**{".claude__hooks__hooklib.py": HOOKLIB.format(event=event), ".claude__hooks__guard.py": GUARD})
    hits = found(doctor(tmp_path, {S: GUARD_SETTINGS, **files}), "script/wrong-event-name")
    if not wrong:
        assert hits == []
        return
    (hit,) = hits
    assert hit.path.endswith("hooklib.py") and hit.line == 3  # the line that sets the name
    assert "imported by guard.py" in hit.message and "PreToolUse" in hit.message


def test_a_helper_shared_with_a_post_tool_use_hook_is_judged_for_each_script_that_calls_it(tmp_path):
    files = _files(**{".claude__hooks__hooklib.py": HOOKLIB.format(event="PostToolUse"),
                      ".claude__hooks__guard.py": GUARD,
                      ".claude__hooks__lint.py": "from hooklib import emit\nemit(additionalContext='lint ok')\n"})
    config = _settings(("PreToolUse", "Read", 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'),
                       ("PostToolUse", "Edit", 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/lint.py"'))
    (hit,) = found(doctor(tmp_path, {S: config, **files}), "script/wrong-event-name")
    assert "imported by guard.py" in hit.message

    files[".claude/hooks/guard.py"] = files[".claude/hooks/guard.py"].replace("deny(\"no secrets\")", "sys.exit(2)") \
        .replace("from hooklib import deny, read_event", "import sys\nfrom hooklib import deny, read_event")
    assert not found(doctor(tmp_path, {S: config, **files}), "script/wrong-event-name")  # (calls none of its answers)


@pytest.mark.parametrize("layout", ["package", "sys-path", "relative"])
def test_a_helper_in_a_package_or_a_folder_put_on_sys_path_is_followed(tmp_path, layout):
    lib = HOOKLIB.format(event="Stop")
    if layout == "package":
        files = _files(**{".claude__hooks__lib__hooks.py": lib, ".claude__hooks__lib____init__.py": "",
                          ".claude__hooks__guard.py": GUARD.replace("from hooklib", "from lib.hooks")})
    elif layout == "sys-path":
        files = _files(**{".claude__shared__hooklib.py": lib, ".claude__hooks__guard.py": (
            "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), 'shared'))\n"
            + textwrap.dedent(GUARD))})
    else:
        files = _files(**{".claude__hooks__pkg__hooklib.py": lib, ".claude__hooks__pkg____init__.py": "",
                          ".claude__hooks__pkg__guard.py": GUARD.replace("from hooklib", "from .hooklib")})
    command = "python3 -m pkg.guard" if layout == "relative" else 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'
    if layout == "relative":  # (run as a file: its package folder is where it is)
        command = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/pkg/guard.py"'
    config = _settings(("PreToolUse", "Read", command))
    (hit,) = found(doctor(tmp_path, {S: config, **files}), "script/wrong-event-name")
    assert hit.path.endswith(".py") and "Stop" in hit.message


JS_LIB = """
    export const EVENT = "{event}";
    export function deny(reason) {{
      console.log(JSON.stringify({{ hookSpecificOutput: {{ hookEventName: EVENT, permissionDecision: "deny",
        permissionDecisionReason: reason }} }}));
    }}
    """
JS_GUARD = """
    import {{ readFileSync }} from "node:fs";
    import {{ deny }} from "./lib/answer{suffix}";
    const input = JSON.parse(readFileSync(0, "utf8"));
    if (/rm -rf/.test(input.tool_input.command)) deny("no");
    """


@pytest.mark.parametrize("event, suffix", [("PostToolUse", ".mjs"), ("PreToolUse", ".mjs"), ("PostToolUse", "")])
def test_a_node_helper_module_is_read_as_the_guards_answer(tmp_path, event, suffix):
    files = _files(**{".claude__hooks__lib__answer.mjs": JS_LIB.format(event=event),
                      ".claude__hooks__guard.mjs": JS_GUARD.format(suffix=suffix)})
    config = _settings(("PreToolUse", "Bash", 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"'))
    hits = found(doctor(tmp_path, {S: config, **files}), "script/wrong-event-name")
    assert [h.line for h in hits] == ([1] if event == "PostToolUse" else [])


def test_a_helper_linked_from_outside_the_project_or_a_fifo_is_not_followed(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "hooklib.py").write_text(textwrap.dedent(HOOKLIB.format(event="PostToolUse")))
    base = tmp_path / "deep" / "p"
    files = _files(**{".claude__hooks__guard.py": GUARD})
    (base / ".claude" / "hooks").mkdir(parents=True)
    os.symlink(outside / "hooklib.py", base / ".claude" / "hooks" / "hooklib.py")
    assert not found(doctor(base, {S: GUARD_SETTINGS, **files}), "script/wrong-event-name")
    os.unlink(base / ".claude" / "hooks" / "hooklib.py")
    os.mkfifo(base / ".claude" / "hooks" / "hooklib.py")  # (never opened: doctor would hang)
    assert not found(doctor(base, {S: GUARD_SETTINGS, **files}), "script/wrong-event-name")


# ---- stdout configured at one place, written at another ------------------------------------------------

DENY_PY = ('print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",'
           ' "permissionDecisionReason": "no"}}))')
BASH_GUARD = _settings(("PreToolUse", "Bash", 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.py"'))


def _py_logging(setup: str, call: str = "warning") -> str:
    return f"import json, logging, sys\n{setup}\nlog = logging.getLogger(__name__)\n" \
           f"data = json.load(sys.stdin)\nlog.{call}('checking')\n{DENY_PY}\n"


@pytest.mark.parametrize("setup, config_line", [
    ("logging.basicConfig(\n    level=logging.INFO,\n    stream=sys.stdout,\n)", 4),
    ("logging.getLogger().addHandler(logging.StreamHandler(sys.stdout))", 2),
    ("logging.getLogger().addHandler(logging.StreamHandler(stream=sys.stdout))", 2),
    ("import logging.config\nlogging.config.dictConfig({'version': 1, 'handlers': {'out': {\n"
     "    'class': 'logging.StreamHandler', 'stream': 'ext://sys.stdout'}}, 'root': {'handlers': ['out']}})", 4),
    ("logging.basicConfig(level=logging.INFO)", None),  # (logging's default stream is stderr)
    ("logging.getLogger().addHandler(logging.StreamHandler(sys.stderr))", None),
    ("logging.basicConfig(stream=sys.stderr)", None),
])
def test_logging_sent_to_stdout_is_reported_where_it_is_configured_and_where_it_logs(tmp_path, setup, config_line):
    files = {".claude/hooks/guard.py": _py_logging(setup)}
    lines = sorted(f.line for f in found(doctor(tmp_path, {S: BASH_GUARD, **files}), "script/text-before-json"))
    log_line = files[".claude/hooks/guard.py"].splitlines().index("log.warning('checking')") + 1
    assert lines == ([] if config_line is None else sorted({config_line, log_line}))


@pytest.mark.parametrize("setup, bad", [
    ("logging.basicConfig(stream=sys.stdout)", False),  # (the root logger's level is WARNING: info is dropped)
    ("logging.getLogger().addHandler(logging.StreamHandler(sys.stdout))", False),
    ("logging.basicConfig(stream=sys.stdout, level=logging.INFO)", True),
    ("logging.basicConfig(stream=sys.stdout)\nlogging.getLogger().setLevel('DEBUG')", True),
])
def test_a_log_info_on_stdout_is_text_only_where_a_level_lets_it_through(tmp_path, setup, bad):
    files = {".claude/hooks/guard.py": _py_logging(setup, "info")}
    assert bool(found(doctor(tmp_path, {S: BASH_GUARD, **files}), "script/text-before-json")) is bad


JS_LOGGING_GUARD = """\
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(0, "utf8"));
function log(message) {
  console.log(`[guard] ${message}`);
}
log(`checking ${input.tool_name}`);
if ((input.tool_input.command || "").includes("rm -rf")) {
  process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse",
    permissionDecision: "deny", permissionDecisionReason: "no rm -rf" } }));
}
"""


@pytest.mark.parametrize("stream, line", [("console.log", 4), ("console.error", None)])
def test_a_node_helper_that_logs_on_stdout_before_the_answer_is_mixed_with_it(tmp_path, stream, line):
    files = {".claude/hooks/guard.js": JS_LOGGING_GUARD.replace("console.log", stream)}
    command = _settings(("PreToolUse", "Bash", 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.js"'))
    lines = [f.line for f in found(doctor(tmp_path, {S: command, **files}), "script/text-before-json")]
    assert lines == ([line] if line else [])


def test_an_answer_printed_by_a_function_called_after_a_log_line_is_mixed_with_it(tmp_path):
    guard = ("import json, logging, sys\nlogging.basicConfig(level=logging.INFO, stream=sys.stdout)\n"
             "log = logging.getLogger('guard')\n\n\ndef answer(reason):\n    " + DENY_PY.replace('"no"', "reason") +
             "\n\n\ndata = json.load(sys.stdin)\nlog.info('checking')\nif 'rm' in data['tool_input']['command']:\n"
             "    answer('no')\n")
    twin = guard.replace("log.info('checking')", "log.debug('checking')").replace("level=logging.INFO, ", "")
    lines = {f.line for f in found(doctor(tmp_path, {S: BASH_GUARD, ".claude/hooks/guard.py": guard}),
                                   "script/text-before-json")}
    assert lines == {2, 11}
    assert not found(doctor(tmp_path, {S: BASH_GUARD, ".claude/hooks/guard.py": twin}), "script/text-before-json")


@pytest.mark.parametrize("sink, bad", [("sys.stdout", True), ("sys.stderr", False)])
def test_a_loguru_sink_on_stdout_is_text_before_the_answer(tmp_path, sink, bad):
    files = {".claude/hooks/guard.py": f"import json, sys\nfrom loguru import logger\nlogger.add({sink})\n"
                                       f"logger.info('checking')\n{DENY_PY}\n"}
    hits = found(doctor(tmp_path, {S: BASH_GUARD, **files}), "script/text-before-json")
    assert sorted(h.line for h in hits) == ([3, 4] if bad else [])


DENY_JS = ('console.log(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", '
           'permissionDecision: "deny", permissionDecisionReason: "no" } }));')


@pytest.mark.parametrize("make, bad", [
    ('const log = require("pino")();', True),
    ('import pino from "pino";\nconst log = pino({ level: "info" });', True),
    ('import pino from "pino";\nconst log = pino(pino.destination(2));', False),
    ('import pino from "pino";\nconst log = pino({ level: "info" }, process.stderr);', False),
    ('import winston from "winston";\nconst log = winston.createLogger({ transports: [new winston.transports.Console()] });',
     True),
    ('import winston from "winston";\nconst log = winston.createLogger({ transports: [\n'
     '  new winston.transports.Console({ stderrLevels: ["error", "warn", "info", "debug"] })] });', False),
])
def test_a_node_logger_that_writes_to_stdout_is_text_before_the_answer(tmp_path, make, bad):
    script = f"{make}\nconst input = JSON.parse(require('fs').readFileSync(0, 'utf8'));\nlog.info('checking');\n{DENY_JS}\n"
    config = _settings(("PreToolUse", "Bash", 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.js"'))
    hits = found(doctor(tmp_path, {S: config, ".claude/hooks/guard.js": script}), "script/text-before-json")
    made = make.rindex("pino" if "pino" in make else "createLogger")
    assert sorted(h.line for h in hits) == (sorted({make[:made].count("\n") + 1, make.count("\n") + 3})
                                            if bad else [])


@pytest.mark.parametrize("module, bad", [
    ("import sys\nprint('hooklib loaded')\ndef ok():\n    return True\n", True),
    ("import sys\ndef ok():\n    return True\nif __name__ == '__main__':\n    print('self test')\n", False),
    ("import sys\nprint('hooklib loaded', file=sys.stderr)\n", False),
])
def test_a_module_that_prints_when_it_is_imported_puts_text_before_the_answer(tmp_path, module, bad):
    files = {".claude/hooks/hooklib.py": module,
             ".claude/hooks/guard.py": f"import json, sys\nimport hooklib\ndata = json.load(sys.stdin)\n{DENY_PY}\n"}
    hits = found(doctor(tmp_path, {S: BASH_GUARD, **files}), "script/text-before-json")
    assert [(h.path.rsplit("/", 1)[-1], h.line) for h in hits] == ([("hooklib.py", 2)] if bad else [])


# ---- the arguments each handler passes -----------------------------------------------------------------

GUARD_MJS = """
    import { readFileSync } from "node:fs";
    if (process.argv.includes("--summary")) process.exit(0);
    const cmd = JSON.parse(readFileSync(0, "utf8")).tool_input?.command ?? "";
    if (/curl[^|]*\\|\\s*sh/.test(cmd)) {
      console.error("Blocked: piping a download into a shell.");
      process.exit(2);
    }
    """


@pytest.mark.parametrize("guard_event, after", [("PostToolUse", True), ("PreToolUse", False)])
def test_a_guard_whose_refusal_runs_only_for_the_post_tool_use_handlers_arguments_is_after_the_call(
        tmp_path, guard_event, after):
    run = 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"'
    config = _settings((guard_event, "Bash", run), ("Stop", None, f"{run} --summary"))
    outcome = doctor(tmp_path, {S: config, **_files(**{".claude__hooks__guard.mjs": GUARD_MJS})})
    hits = found(outcome, "script/exit-2-does-not-block")
    assert [(h.path.endswith("settings.json"), h.line) for h in hits] == ([(True, 3)] if after else [])  # (the event)
    assert not found(outcome, "script/stop-hook-active")  # (its Stop run ends before it can block)


HOOK_PY = """
    import json, sys
    mode = sys.argv[1] if len(sys.argv) > 1 else "pre"
    data = json.load(sys.stdin)
    if mode == "pre":
        if "rm -rf" in data["tool_input"]["command"]:
            print("rm -rf is not allowed", file=sys.stderr)
            sys.exit(2)
    elif mode == "post":
        print("ran", file=sys.stderr)
    """


@pytest.mark.parametrize("pre_argument, after", [("post", True), ("pre", False)])
def test_a_python_hook_told_its_part_by_argv_is_judged_for_the_part_each_handler_runs(tmp_path, pre_argument, after):
    run = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/hook.py"'
    other = "pre" if pre_argument == "post" else "post"
    config = _settings(("PreToolUse", "Bash", f"{run} {pre_argument}"), ("PostToolUse", "Bash", f"{run} {other}"))
    hits = found(doctor(tmp_path, {S: config, **_files(**{".claude__hooks__hook.py": HOOK_PY})}),
                 "script/exit-2-does-not-block")
    assert len(hits) == (1 if after else 0)


def test_an_argparse_flag_that_ends_the_run_keeps_the_guard_from_its_handler(tmp_path):
    script = ("import argparse, json, sys\nparser = argparse.ArgumentParser()\n"
              "parser.add_argument('--report-only', action='store_true')\nargs = parser.parse_args()\n"
              "data = json.load(sys.stdin)\nif args.report_only:\n    sys.exit(0)\n"
              "if 'rm -rf' in data['tool_input']['command']:\n    print('blocked: rm -rf', file=sys.stderr)\n"
              "    sys.exit(2)\n")
    run = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/hook.py"'
    for pre, post, hit in (("--report-only", "", 1), ("", "--report-only", 0)):
        config = _settings(("PreToolUse", "Bash", f"{run} {pre}".strip()), ("PostToolUse", "Bash", f"{run} {post}".strip()))
        assert len(found(doctor(tmp_path, {S: config, ".claude/hooks/hook.py": script}),
                         "script/exit-2-does-not-block")) == hit


# ---- tool names another host sends ------------------------------------------------------------------

@pytest.mark.parametrize("script, lines", [
    # handed to a function: its parameter is tool_name
    ("def check(tool, command):\n    if tool == 'bash' and 'rm -rf' in command:\n        sys.exit(2)\n"
     "check(data['tool_name'], data['tool_input'].get('command', ''))\n", [4]),
    ("def check(tool, command):\n    if tool == 'Bash' and 'rm -rf' in command:\n        sys.exit(2)\n"
     "check(data['tool_name'], data['tool_input'].get('command', ''))\n", []),
    # looked up in a table of the file
    ("GUARDS = {\n    'bash': lambda i: 'rm -rf' in i.get('command', ''),\n    'write': lambda i: False,\n}\n"
     "guard = GUARDS.get(data['tool_name'])\nif guard and guard(data['tool_input']):\n    sys.exit(2)\n", [4, 5]),
    ("GUARDS = {\n    'Bash': lambda i: 'rm -rf' in i.get('command', ''),\n    'write': lambda i: False,\n}\n"
     "guard = GUARDS.get(data['tool_name'])\nif guard and guard(data['tool_input']):\n    sys.exit(2)\n", []),
    # in a tuple; and lower-cased first (a normalised comparison: clean)
    ("if data['tool_name'] in ('bash', 'shell'):\n    sys.exit(2)\n", [3, 3]),
    ("if data['tool_name'].lower() in ('bash', 'shell'):\n    sys.exit(2)\n", []),
])
def test_a_tool_name_compared_through_parameters_and_tables_with_names_claude_code_never_sends(tmp_path, script, lines):
    files = {".claude/hooks/guard.py": "import json, sys\ndata = json.load(sys.stdin)\n" + script}
    hits = found(doctor(tmp_path, {S: BASH_GUARD, **files}), "script/value-never-sent")
    assert sorted(h.line for h in hits) == lines


SHARED_JS = """
    import { readFileSync } from "node:fs";
    export function check(tool, args) {
      switch (tool) {
        case "NAME": return String(args.command).includes("rm -rf") ? "no" : null;
      }
      return null;
    }
    const event = JSON.parse(readFileSync(0, "utf8"));
    if (check(event.tool_name, event.tool_input ?? {})) process.exit(2);
    """


@pytest.mark.parametrize("name, bad", [("bash", True), ("Bash", False)])
def test_a_node_guard_shared_with_opencode_is_judged_by_the_names_claude_code_sends(tmp_path, name, bad):
    files = _files(**{".claude__hooks__guard.mjs": SHARED_JS.replace("NAME", name),
                      ".opencode__plugins__guard.js": 'import { check } from "../../.claude/hooks/guard.mjs";\n'
                                                      "export const G = async () => ({ 'tool.execute.before': async "
                                                      "(input, output) => { if (check(input.tool, output.args)) "
                                                      "throw new Error('no'); } });\n"})
    config = _settings(("PreToolUse", "Bash", 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"'))
    hits = found(doctor(tmp_path, {S: config, **files}), "script/value-never-sent")
    assert [h.line for h in hits] == ([4] if bad else [])


# ---- a status returned by the main() the exit is made of -------------------------------------------------

@pytest.mark.parametrize("ending", ["process.exit(main());", "process.exitCode = await main();",
                                    "main().then(process.exit);", "main().then((code) => process.exit(code));"])
def test_a_node_guards_return_2_from_the_main_its_exit_is_made_of_is_its_exit_2(tmp_path, ending):
    guard = ("import { readFileSync } from 'node:fs';\nasync function main() {\n"
             "  const cmd = JSON.parse(readFileSync(0, 'utf8')).tool_input.command;\n"
             "  if (cmd.includes('rm -rf')) {\n    console.error('Blocked: rm -rf');\n    return 2;\n  }\n"
             f"  return 0;\n}}\n{ending}\n")
    on_post = _settings(("PostToolUse", "Bash", 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"'))
    (hit,) = found(doctor(tmp_path, {S: on_post, ".claude/hooks/guard.mjs": guard}), "script/exit-2-does-not-block")
    assert (hit.path.endswith("settings.json"), hit.line) == (True, 3) and "its line 6" in hit.message  # (the event)
    on_pre = _settings(("PreToolUse", "Bash", 'node "$CLAUDE_PROJECT_DIR/.claude/hooks/guard.mjs"'))
    assert not found(doctor(tmp_path, {S: on_pre, ".claude/hooks/guard.mjs": guard}), "script/exit-2-does-not-block")


@pytest.mark.parametrize("child_ends, lost", [("process.exit(main());", True), ("main();", False)])
def test_a_dispatcher_that_drops_a_node_childs_returned_2_loses_the_block(tmp_path, child_ends, lost):
    child = ("function main() {\n  console.error('Blocked');\n  return 2;\n}\n" + child_ends + "\n")
    dispatcher = ("import subprocess, sys\nsubprocess.run(['node', 'child.mjs'])\n")
    files = {".claude/hooks/child.mjs": child, ".claude/hooks/dispatch.py": dispatcher}
    config = _settings(("PreToolUse", "Bash", 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/dispatch.py"'))
    hits = found(doctor(tmp_path, {S: config, **files}), "delivery/exit-2-lost")
    assert [h.line for h in hits] == ([2] if lost else [])
