"""Analysis attacks: a config, a script or a plugin that would make doctor's readers hang or grow
without bound (docs/reliability.md, "Bounded analysis"). Each is a row of the hostile-repository
suite's table (tests/hostile_repos.py, run by tests/test_hostile.py): every command runs on it
under 1 GiB of address space and 30 s of CPU time, none killed, none past its time, none
exiting 4."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable


def _settings(groups: list[dict], event: str = "PreToolUse") -> dict:
    return {"hooks": {event: groups}}


def _hook(command: str, matcher: str = "Bash", **more: object) -> dict:
    return {"matcher": matcher, "hooks": [{"type": "command", "command": command, **more}]}


def _write(root: Path, relative: str, text: str, executable: bool = False) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if executable:
        path.chmod(0o755)


def _claude(root: Path, settings: dict) -> None:
    _write(root, ".claude/settings.json", json.dumps(settings))


def _script(root: Path, name: str, text: str, runner: str) -> None:
    _write(root, name, text, executable=True)
    _claude(root, _settings([_hook(f'{runner} "$CLAUDE_PROJECT_DIR"/{name}')]))


def backtracking_matcher(root: Path) -> None:
    _claude(root, _settings([_hook("echo hi", matcher="^(([a-zA-Z_]+)*)*!$"),
                             _hook("echo hi", matcher="(x+x+)+y|mcp__(a|a)*b$")]))


def backtracking_matcher_on_every_event(root: Path) -> None:
    matcher = "^(([a-zA-Z_]+)*)*!$"
    _claude(root, {"hooks": {event: [_hook("echo hi", matcher=matcher)] for event in
                             ("PreToolUse", "PostToolUse", "SubagentStop", "SessionStart", "FileChanged")}})


def backreference_and_huge_repeats(root: Path) -> None:
    _claude(root, _settings([_hook("echo a", matcher="(a|aa)+\\1$"), _hook("echo b", matcher="(?:a{999}){999}"),
                             _hook("echo c", matcher="(" * 90 + "a" + ")*" * 90),
                             _hook("echo d", matcher="|".join(f"mcp__s{i}__t{i}.*" for i in range(3000)))]))


def backtracking_if(root: Path) -> None:
    rule = "Bash(" + "*a" * 40 + "*b)"
    _claude(root, _settings([_hook("echo hi", **{"if": rule}),
                             _hook("echo hi", matcher="^(([a-zA-Z_]+)*)*!$", **{"if": "Bash(" + "(a+)+" * 20 + ")"})]))


def backtracking_off_switch(root: Path) -> None:
    """A guard's off switch tested with a regex of its own against the value the settings' env
    gives it: read by Python's backtracking engine, doctor did not end."""
    _write(root, "guard.sh", "#!/bin/bash\nif [[ $GUARD_OFF =~ ^(a+)+$ ]]; then exit 0; fi\n"
                             "grep -q 'git push' && exit 2\nexit 0\n", executable=True)
    _claude(root, {"env": {"GUARD_OFF": "a" * 40 + "!"},
                   **_settings([_hook('bash "$CLAUDE_PROJECT_DIR"/guard.sh')])})


def cursor_backtracking_matcher(root: Path) -> None:
    _write(root, ".cursor/hooks.json", json.dumps({"version": 1, "hooks": {"preToolUse": [
        {"command": "echo hi", "matcher": "^(([a-zA-Z_]+)*)*!$"}]}}))


def many_racing_matchers(root: Path) -> None:
    _write(root, "rewrite.py", "import json, sys\nprint(json.dumps({'hookSpecificOutput': {'hookEventName': "
                               "'PreToolUse', 'updatedInput': {'command': 'x'}}}))\n", executable=True)
    shapes = ["mcp__srv{i}__.*", "mcp__.*__tool{i}", "^mcp__shared__(read|write)_{i}$", ".*(a|a)*{i}"]
    _claude(root, _settings([_hook(f'python3 "$CLAUDE_PROJECT_DIR"/rewrite.py {i}', matcher=shapes[i % 4].format(i=i))
                             for i in range(400)]))
    _write(root, ".mcp.json", json.dumps({"mcpServers": {"shared": {"command": "x"}, "srv1": {"command": "y"}}}))


def long_command(root: Path) -> None:
    _claude(root, _settings([_hook("echo a; " * 28_000)]))


def long_command_of_pipes(root: Path) -> None:
    _claude(root, _settings([_hook("cat | " * 20_000 + "jq .")]))


def deep_shell(root: Path) -> None:
    _script(root, "hook.sh", "#!/bin/bash\n" + "if [ -n \"$X\" ]; then\n" * 20_000 + "echo '{\"decision\": \"block\"}'\n"
            + "fi\n" * 20_000, "bash")


def wide_shell(root: Path) -> None:
    _script(root, "hook.sh", "#!/bin/bash\n" + "echo \"$(cat)\" | jq . ; " * 20_000 + "\n", "bash")


def long_shell(root: Path) -> None:
    _script(root, "hook.sh", "#!/bin/bash\nINPUT=$(cat)\n" + "case \"$X\" in a) echo hi ;; b) exit 2 ;; esac\n" * 10_000,
            "bash")


def deep_python(root: Path) -> None:
    _script(root, "hook.py", "import sys\nx = " + "(" * 5_000 + "1" + ")" * 5_000 + "\n"
            + "".join("    " * i + "if x:\n" for i in range(90)) + "    " * 90 + "print('{}')\n", "python3")


def long_python(root: Path) -> None:
    _script(root, "hook.py", "import json, sys\n" + "print(json.dumps({'decision': 'block', 'reason': 'r'}))\n" * 8_000,
            "python3")


def deep_javascript(root: Path) -> None:
    _script(root, "hook.js", "const x = " + "[" * 5_000 + "]" * 5_000 + ";\n" + "if (x) {\n" * 3_000
            + "console.log(JSON.stringify({decision: 'block'}));\n" + "}\n" * 3_000, "node")


def long_javascript(root: Path) -> None:
    _script(root, "hook.js", "if (a) { console.log('x') } else { process.exit(2) }\n" * 8_000, "node")


def deep_plugin(root: Path) -> None:
    _write(root, ".opencode/plugin/p.js", "export const P = async () => ({ 'tool.execute.before': async (input, output) => {"
           + "if (input.tool === 'bash') {" * 3_000 + "output.args.command = 'y'" + "}" * 3_000 + "} })\n")


def long_plugin(root: Path) -> None:
    _write(root, ".opencode/plugin/p.ts", "export const P = async () => ({ 'tool.execute.before': async (input, output) => {\n"
           + "".join(f"  if (input.tool === 'bash' && output.args.command === 'x{i}') {{ output.args.command = 'y' }}\n"
                     for i in range(5_000)) + "} })\n")


CASES: dict[str, Callable[[Path], None]] = {f.__name__: f for f in (
    backtracking_matcher, backtracking_matcher_on_every_event, backreference_and_huge_repeats, backtracking_if,
    backtracking_off_switch, cursor_backtracking_matcher, many_racing_matchers, long_command, long_command_of_pipes, deep_shell, wide_shell,
    long_shell, deep_python, long_python, deep_javascript, long_javascript, deep_plugin, long_plugin)}
