"""How hookwright talks: --quiet and --verbose, progress on a slow doctor run, a closed pipe."""
import subprocess
import sys
import time

from support import write_json

NOISY = {"hooks": {"PreToolUse": [
    {"matcher": "bash", "hooks": [{"type": "command", "command": "echo hi", "timeout": 30000}]}]}}


def test_quiet_doctor_prints_the_findings_alone(hookwright, home, project):
    write_json(project / ".claude" / "settings.json", NOISY)

    normal = hookwright("doctor", "--project", project)
    quiet = hookwright("--quiet", "doctor", "--project", project)

    assert normal.code == quiet.code == 1
    assert "hint:" in normal.out and "hint:" not in quiet.out
    assert "matcher/case-mismatch" in quiet.out and "1 error" not in quiet.out
    assert len(quiet.out.splitlines()) < len(normal.out.splitlines())


def test_quiet_doctor_on_a_clean_project_prints_nothing(hookwright, home, project):
    write_json(project / ".claude" / "settings.json", {"hooks": {}})

    ran = hookwright("-q", "doctor", "--project", project)

    assert ran.code == 0 and ran.out == ""


def test_verbose_doctor_shows_the_other_places_a_finding_involves(hookwright, home, project):
    script = project / ".claude" / "hooks" / "check.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o755)
    hook = {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh'}
    write_json(project / ".claude" / "settings.json", {"hooks": {
        event: [{"matcher": "Bash", "hooks": [hook]}] for event in ("PreToolUse", "PostToolUse")}})

    normal = hookwright("doctor", "--project", project)
    verbose = hookwright("--verbose", "doctor", "--project", project)

    assert "also at" not in normal.out and "also at" in verbose.out  # sh-without-shell's second hook


def test_quiet_install_says_nothing_when_it_worked_and_verbose_shows_what_it_wrote(hookwright, home, project):
    quiet = hookwright("-q", "install", "git-guard", "--project", project, "--yes")
    verbose = hookwright("-v", "install", "path-normalizer", "--project", project, "--yes")

    assert quiet.code == verbose.code == 0
    assert quiet.out == ""
    assert "+ add" in verbose.out and "done:" in verbose.out


def test_a_closed_pipe_ends_quietly_by_sigpipe_not_with_an_exit_code_that_means_findings(tmp_path, home):
    # 100 kB of rules, more than a pipe holds, to a reader that stops after one line
    ran = subprocess.run(["bash", "-c", f"{sys.executable} -m hookwright doctor --explain --json | head -1; "
                          "echo ${PIPESTATUS[0]} >&2"], capture_output=True, text=True, cwd=tmp_path, timeout=60)

    assert ran.stdout == "{\n"
    assert ran.stderr.strip() == "141"  # killed by SIGPIPE, as Unix tools are: no message, no exit 1


def test_a_doctor_run_longer_than_a_second_shows_progress_on_the_terminal_and_leaves_no_trace(tmp_path, home,
                                                                                            project):
    import test_interactive

    write_json(project / ".claude" / "settings.json", {"hooks": {"Stop": [
        {"hooks": [{"type": "command", "command": "sleep 2"}]}]}})
    env = {"HOME": str(home), "XDG_STATE_HOME": str(home / ".state"), "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(test_interactive.resources.data_root()), "TERM": "xterm"}
    log = tmp_path / "terminal.log"
    terminal = test_interactive.Tmux(tmp_path, ["sh", "-c", "sleep 0.5; exec \"$0\" \"$@\"", sys.executable, "-m",
                                                "hookwright", "doctor", "--probe", "--project", str(project)], env)
    try:
        terminal.run("pipe-pane", "-o", "-t", "main", f"cat >> {log}")  # every byte written to the terminal
        assert terminal.exit_code(timeout=60) == 0, terminal.screen()
        time.sleep(0.3)
        final = terminal.screen()
    finally:
        terminal.close()
    assert "checking" in log.read_text(errors="replace")  # the spinner was drawn while it ran
    assert "checking" not in final  # and cleared when the report came


def test_a_command_built_alone_for_its_run_has_the_options_and_help_it_has_in_the_whole_command_line():
    from hookwright import cli

    whole = cli._command()
    names = sorted(whole.commands)
    assert {"doctor", "install", "prefs"} <= set(names)
    for name in names:
        alone = cli._command(name)
        assert list(alone.commands) == [name]
        built, original = alone.commands[name], whole.commands[name]
        assert [p.opts for p in built.params] == [p.opts for p in original.params]
        assert built.help == original.help


def test_every_help_text_is_written_in_paragraphs_the_terminal_wraps():
    from hookwright import cli

    def helps(command):
        yield command.name, command.help or ""
        for sub in getattr(command, "commands", {}).values():
            yield from helps(sub)

    for name, text in helps(cli._command()):
        assert "\n" not in text.replace("\n\n", ""), name  # (typer would print the source's line breaks)


def test_only_options_that_change_no_listing_let_a_run_build_its_command_alone():
    from hookwright.cli import _asked_for

    assert _asked_for(["-q", "doctor", "x.json"]) == "doctor"
    assert _asked_for(["prefs", "set"]) == "prefs"
    assert _asked_for(["--help", "doctor"]) is None  # the group's help lists every command
    assert _asked_for(["docter"]) is None  # typer suggests the right name from the whole group
    assert _asked_for([]) is None
    assert _asked_for(["-q", "--version", "doctor"]) == "--version"  # (the version ends the run: no command)
    assert _asked_for(["--help", "--version"]) is None


def test_the_names_the_command_line_knows_before_loading_the_commands_are_its_commands_in_order():
    from hookwright import cli

    assert tuple(cli._command().commands) == cli.COMMANDS  # (the order --help lists them in)


def test_a_console_made_for_a_terminal_never_prints_into_a_pipe_at_the_terminals_width(monkeypatch):
    """The width is fixed when a console is made: one made for a terminal (80 columns where the
    size cannot be read) went on wrapping status and list at 80 in a pipe, in the same process."""
    import io

    from hookwright import output

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdout", Terminal())
    assert output.out().width < 1000
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert output.out().width == 1000
