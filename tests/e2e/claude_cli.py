"""Run the real Claude Code CLI headless against FakeModelAPI and collect what happened.

The CLI is found at import time (HOOKWRIGHT_CLAUDE, else scripts/setup-e2e.sh's install of the
release HOOKWRIGHT_CLAUDE_VERSION names, the pin of installer/hosts/versions.toml by default),
because the test guard in tests/conftest.py removes HOOKWRIGHT_* variables and points HOME at an
unusable path before each test.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from fake_model_api import FakeModelAPI, Turn
from hookwright.hosts import versions

PIN = versions.wanted("claude@" + os.environ.get("HOOKWRIGHT_CLAUDE_VERSION", ""))
CLAUDE_VERSION = PIN.version


def _default_claude() -> Path:
    if os.environ.get("HOOKWRIGHT_CLAUDE"):
        return Path(os.environ["HOOKWRIGHT_CLAUDE"])
    return PIN.executable(versions.e2e_root())


CLAUDE = _default_claude()

# Only these come from the parent: nothing of the developer's (API keys, CLAUDE_CONFIG_DIR,
# OTEL exporters, proxies) may reach the CLI under test.
_INHERITED = ("PATH", "LANG", "LC_ALL")


@dataclass
class CliRun:
    """One headless run of an agent CLI: its exit, its JSON-lines output, what it sent to the
    model (`requests`) and what the model got back for each tool call (`tool_results`)."""

    returncode: int
    events: list[dict]
    stderr: str
    tool_results: list[dict]
    requests: list[dict] = field(repr=False)
    timed_out: bool = False


@dataclass
class Run(CliRun):
    """One Claude Code run, its events stream-json."""

    @property
    def result(self) -> dict | None:
        """The final ``{"type": "result"}`` event (subtype, result text, denials...)."""
        return next((e for e in reversed(self.events) if e.get("type") == "result"), None)

    @property
    def permission_denials(self) -> list[dict]:
        return (self.result or {}).get("permission_denials") or []


def cli_env(api_url: str, home_dir: Path, tmp_dir: str,
            overrides: Mapping[str, str] | None = None) -> dict:
    """The CLI's whole environment: offline, quiet, with its own home and temp dir."""
    env = {name: os.environ[name] for name in _INHERITED if name in os.environ}
    env.update({
        "HOME": str(home_dir),
        "IS_SANDBOX": "1",  # as root, --dangerously-skip-permissions refuses to start without it
        "ANTHROPIC_API_KEY": "dummy",
        "ANTHROPIC_BASE_URL": api_url,
        "DISABLE_TELEMETRY": "1",
        "DISABLE_ERROR_REPORTING": "1",
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "TMPDIR": tmp_dir,  # the CLI puts a messaging socket dir here
        "CLAUDE_CODE_TMPDIR": tmp_dir,
    })
    env.update(overrides or {})
    return env


def run_claude(project_dir: Path, home_dir: Path, turns: Sequence[Turn], *,
               extra_args: Sequence[str] = (), env: Mapping[str, str] | None = None,
               timeout: float = 120, sdk_mode: bool = False,
               claude: Path | str | None = None, skip_permissions: bool = True, prompt: str = "go") -> Run:
    """Run ``claude -p PROMPT`` in project_dir with the model playing ``turns`` (a prompt such as
    ``/probe`` runs the project's skill of that name).

    sdk_mode runs it the way the Agent SDK does (prompt as a stream-json message on stdin,
    permission prompts over stdio); some tools, such as AskUserQuestion, exist only there.
    skip_permissions=False runs in the default permission mode: a tool call that needs the
    user's approval is refused, as nobody can approve it in ``-p``.
    """
    if sdk_mode:
        args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json",
                "--verbose", "--permission-prompt-tool", "stdio"]
        message = {"type": "user", "message": {"role": "user", "content": prompt}}
        stdin = (json.dumps(message) + "\n").encode()
    else:
        args = ["-p", prompt, "--output-format", "stream-json", "--verbose"]
        stdin = None
    args += ["--dangerously-skip-permissions"] if skip_permissions else []
    args += list(extra_args)

    # A short temp dir of our own: a socket path under pytest's tmp_path can be too long.
    with FakeModelAPI(list(turns)) as api, tempfile.TemporaryDirectory(prefix="hw-cc-") as tmp:
        code, events, err, timed_out = run_to_end([str(claude or CLAUDE), *args], project_dir,
                                                  cli_env(api.url, home_dir, tmp, env), timeout, stdin)
        return Run(code, events, err, api.tool_results(), list(api.requests), timed_out)


def only_its_call(gate: str) -> str:
    """A gate's handler `if`: the gate runs for the one call that names it (run_gates), not for
    every gate's call, so a session of N gates starts N hook processes, not N squared (the `if`
    is a permission rule matched on the whole command: docs/hosts/claude-code.md)."""
    return f"Bash(touch ran-{gate}.txt)"


def run_gates(project_dir: Path, home_dir: Path, gates: Sequence[str], *, claude: Path | str | None = None,
              env: Mapping[str, str] | None = None) -> tuple[set[str], Run]:
    """The gates whose call ran, and the run: the model calls `touch ran-GATE.txt` once per gate, in one session
    (each gate is a hook that should refuse its own call), and the file says the call ran."""
    calls = [{"tool": "Bash", "input": {"command": f"touch ran-{gate}.txt"}} for gate in gates]
    run = run_claude(project_dir, home_dir, calls, claude=claude, timeout=240, env=env)
    assert run.returncode == 0, run.stderr
    return {gate for gate in gates if (project_dir / f"ran-{gate}.txt").exists()}, run


def run_to_end(args: Sequence[str], cwd: Path, env: Mapping[str, str], timeout: float,
               stdin: bytes | None = None) -> tuple[int, list[dict], str, bool]:
    """Run a CLI in a session of its own until it ends, or kill it and all it started past
    `timeout` seconds: its exit code, the JSON lines of its stdout, its stderr, whether it timed out."""
    proc = subprocess.Popen(list(args), cwd=cwd, env=dict(env),
                            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_tree(proc.pid)
        out, err = proc.communicate()
        timed_out = True
    return proc.returncode, _parse_lines(out), err.decode("utf-8", "replace"), timed_out


def _kill_tree(pid: int) -> None:
    """SIGKILL the CLI, its process group and every descendant's group.

    Killing the CLI's group is not enough: it starts each Bash tool command in a session
    of its own, which would outlive the test (seen with 2.1.328).
    """
    for member in [pid, *_descendants(pid)]:
        with contextlib.suppress(OSError):
            group = os.getpgid(member)
            if group != os.getpgrp():
                os.killpg(group, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(member, signal.SIGKILL)


def _descendants(pid: int) -> list[int]:
    """All processes below pid, from Linux's /proc (elsewhere: none found)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def _parse_lines(out: bytes) -> list[dict]:
    events = []
    for line in out.decode("utf-8", "replace").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            if line.strip():
                events.append({"type": "unparsed", "line": line})
    return events


REPO_ROOT = Path(__file__).resolve().parents[2]


def hookwright(*args: str, home: Path, project: Path,
               env: Mapping[str, str | None] | None = None) -> subprocess.CompletedProcess:
    """``python -m hookwright ARGS`` from the working tree (it need not be pip-installed),
    with the test's home and XDG dirs, in the project. `env`: variables to set instead
    (None: unset)."""
    pythonpath = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    child = dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state"),
                 XDG_CONFIG_HOME=str(home / ".config"), PYTHONPATH=pythonpath)
    for name, value in (env or {}).items():
        if value is None:
            child.pop(name, None)
        else:
            child[name] = value
    return subprocess.run([sys.executable, "-m", "hookwright", *args], cwd=project, env=child,
                          capture_output=True, text=True, timeout=60)


def line_of(path: Path, text: str) -> int:
    """The first line of the file that holds `text`."""
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def doctor_flags(home: Path, start: Path, rules: set[str]) -> set[tuple[str, int]]:
    """(path, line) of each error and warning of these rules that `hookwright doctor` run in `start` reports."""
    doctor = hookwright("doctor", "--format", "json", home=home, project=start)
    return {(f["path"], f["line"]) for f in json.loads(doctor.stdout)["findings"]
            if f["rule"] in rules and f["severity"] in ("error", "warning")}
