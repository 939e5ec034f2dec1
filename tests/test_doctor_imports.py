"""A doctor run imports what it uses: a read-only check of a Claude Code file loads neither the
writer nor the installer's modules, nor another host's checks (issue 15: imports on the doctor
path only for what the run uses). Each run is a fresh interpreter, as a user's is."""
import subprocess
import sys

from support import write_json

SETTINGS = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "jq -r .tool_input.command >> /tmp/commands.log", "timeout": 10},
    # one of ours: the file is an install target, and the install checks look at it (its runtime is missing)
    {"type": "command", "command": 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard'
                                   ' --host claude', "timeout": 10}]}]}}
NEVER_FOR_A_CHECK = ("hookwright.atomic", "hookwright.planning.plan", "hookwright.state", "hookwright.planning.apply",
                     "hookwright.planning", "hookwright.doctor.checks.opencode", "hookwright.doctor.scripts.plugins",
                     "rich", "jsonschema", "jsonschema_rs", "deepdiff", "ctypes")


def _modules_after(argv: list[str], cwd) -> set[str]:
    program = ("import sys\nfrom hookwright.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
               "print('\\n'.join(sys.modules), file=sys.stderr)")
    ran = subprocess.run([sys.executable, "-c", program, *argv], cwd=cwd, capture_output=True, text=True, timeout=60)
    return set(ran.stderr.split())


def test_a_check_of_a_claude_settings_file_imports_no_writer_no_installer_and_no_other_hosts_checks(home, project):
    write_json(project / ".claude" / "settings.json", SETTINGS)

    loaded = _modules_after(["doctor", str(project / ".claude" / "settings.json")], project)

    assert "hookwright.doctor.checks.commands" in loaded  # (the run did check the file)
    assert not {m for m in loaded if m.startswith(NEVER_FOR_A_CHECK)}


def test_a_check_of_an_opencode_plugin_imports_opencodes_checks(home, project):
    plugin = project / ".opencode" / "plugins" / "x.js"
    plugin.parent.mkdir(parents=True)
    plugin.write_text("export const X = async () => ({})\n")

    loaded = _modules_after(["doctor", str(plugin)], project)

    assert "hookwright.doctor.checks.opencode" in loaded
