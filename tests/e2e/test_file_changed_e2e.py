"""How the real Claude Code reads a FileChanged matcher (docs/hosts/claude-code.md#filechanged), and
that doctor says so: the matcher split on `|` is the list of files to watch, each a literal
path (no glob is expanded), and a change runs a group's hook only when the file's name matches
the whole matcher (as a regex here: a glob is not a valid one)."""
from __future__ import annotations

import json
import shlex
import sys

import pytest
from claude_cli import hookwright, run_claude

pytestmark = pytest.mark.e2e

GROUPS = {  # matcher: the name its hook writes to fired.log
    "*.proto": "glob", "src/**/*.ts": "globstar", "api.proto|*.proto": "literal-with-glob",
    "src/a.ts|b.ts": "path", "api.proto": "literal", "a.ts": "name"}
EDIT = {"tool": "Bash", "input": {"command": "sleep 2; echo v2 >> api.proto; echo v2 >> src/a.ts; sleep 5",
                                  "description": "edit two watched files"}}


def recorder(name: str) -> str:
    """A hook that writes its name and the changed file to fired.log."""
    return f"{shlex.quote(sys.executable)} -c " + shlex.quote(
        "import json, os, sys; d = json.load(sys.stdin); "
        "open(os.path.join(os.environ['CLAUDE_PROJECT_DIR'], 'fired.log'), 'a')"
        f".write({name!r} + ' ' + os.path.relpath(d['file_path'], os.environ['CLAUDE_PROJECT_DIR']) + '\\n')")


def test_a_file_changed_glob_or_folder_never_runs_its_hook_and_doctor_says_so(claude_cli, home, project):
    (project / "api.proto").write_text("v1\n")
    (project / "src").mkdir()
    (project / "src" / "a.ts").write_text("v1\n")
    settings = {"hooks": {"FileChanged": [{"matcher": matcher, "hooks": [{"type": "command", "command": recorder(name)}]}
                                          for matcher, name in GROUPS.items()]}}
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps(settings, indent=2))

    run = run_claude(project, home, [EDIT], claude=claude_cli)
    assert run.returncode == 0, run.stderr
    fired = (project / "fired.log").read_text().splitlines() if (project / "fired.log").exists() else []
    # api.proto is watched through "api.proto"; src/a.ts through "src/a.ts|b.ts", but only "a.ts" matches its name
    assert sorted(fired) == ["literal api.proto", "name src/a.ts"]

    checked = hookwright("doctor", "--format", "json", ".claude/settings.json", home=home, project=project)
    reported = {(f["rule"], f["message"].split(" ")[2]) for f in json.loads(checked.stdout)["findings"]
                if f["rule"].startswith("matcher/file-changed")}
    assert reported == {("matcher/file-changed-glob", json.dumps(m)) for m in ("*.proto", "src/**/*.ts", "api.proto|*.proto")} \
        | {("matcher/file-changed-path", json.dumps("src/a.ts|b.ts"))}
