"""Run the real Codex CLI (`codex exec`) headless against FakeResponsesAPI and collect what happened.

The model provider is given on the command line (`-c model_providers.fake=...`), so
`$CODEX_HOME/config.toml` stays the test's own: the hooks, the project trust and the hook
trust a test (or hookwright) writes there are all Codex reads from it. Measured on 0.171.0
(docs/hosts/codex.md#measured): Codex sends `POST /v1/responses` with `stream: true`, the
model's shell tool is `exec_command` with a string `cmd`, and `codex exec` exits 0 even when
a hook blocked a call, so what a tool did is read from the requests and from its effects.

The CLI is found at import time (HOOKWRIGHT_CODEX, else scripts/setup-e2e.sh's install of the
release HOOKWRIGHT_CODEX_VERSION names, the pin of installer/hosts/versions.toml by default),
because the test guard in tests/conftest.py removes HOOKWRIGHT_* and replaces HOME first.
"""
from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import shlex
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from claude_cli import CliRun, _kill_tree, run_to_end
from fake_model_api import Turn
from fake_responses_api import FakeResponsesAPI
from hookwright.hosts import versions

PIN = versions.wanted("codex@" + os.environ.get("HOOKWRIGHT_CODEX_VERSION", ""))
HERE = Path(__file__).resolve().parent
ANSWER_HOOK = HERE / "answer_hook.py"

_INHERITED = ("PATH", "LANG", "LC_ALL")  # nothing else of the developer's (OPENAI_API_KEY...) reaches Codex


def _default_codex() -> Path:
    if os.environ.get("HOOKWRIGHT_CODEX"):
        return Path(os.environ["HOOKWRIGHT_CODEX"])
    return PIN.executable(versions.e2e_root())


CODEX = _default_codex()


def shell(cmd: str) -> dict:
    """One scripted call of Codex's shell tool."""
    return {"tool": "exec_command", "input": {"cmd": cmd}}


@dataclass
class CodexRun(CliRun):
    """One `codex exec --json` run; tool_results are {"call_id", "output"}."""

    def outputs(self) -> list[str]:
        return [result["output"] for result in self.tool_results]

    def errors(self) -> list[str]:
        """The messages of the run's error items: where `codex exec --json` reports a config it
        dropped (without --json, these are `warning:` lines on stderr), but for the one that
        every run has: Codex knows no metadata for the fake model."""
        return [event["item"].get("message", "") for event in self.events
                if event.get("type") == "item.completed" and event.get("item", {}).get("type") == "error"
                and not event["item"].get("message", "").startswith("Model metadata for `fake-model` not found")]


# a model whose metadata (bundled in 0.171.0) offer apply_patch as a freeform tool: the fake model's
# have none, so Codex offers it no apply_patch (docs/hosts/codex.md#tool-names)
PATCHING_MODEL = "gpt-5.5"


def provider_args(api_url: str, model: str = "fake-model") -> list[str]:
    """`-c` options pointing Codex at the fake: no retries, no websockets, no update check."""
    provider = (f'{{name = "Fake", base_url = {json.dumps(api_url)}, env_key = "FAKE_API_KEY", '
                'wire_api = "responses", supports_websockets = false, '
                'request_max_retries = 0, stream_max_retries = 0}')
    settings = {"model": json.dumps(model), "model_provider": '"fake"', "model_providers.fake": provider,
                "check_for_update_on_startup": "false", "analytics.enabled": "false"}
    return [arg for key, value in settings.items() for arg in ("-c", f"{key}={value}")]


def codex_env(home: Path, codex_home: Path, tmp_dir: str, overrides: Mapping[str, str | None] | None = None) -> dict:
    """The CLI's whole environment: offline, with its own HOME, CODEX_HOME and temp dir."""
    env = {name: os.environ[name] for name in _INHERITED if name in os.environ}
    env.update({"HOME": str(home), "CODEX_HOME": str(codex_home), "FAKE_API_KEY": "dummy", "TMPDIR": tmp_dir})
    for name, value in (overrides or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


def run_codex(project: Path, home: Path, turns: Sequence[Turn], *, codex_home: Path | None = None,
              extra_args: Sequence[str] = (), env: Mapping[str, str | None] | None = None,
              bypass_hook_trust: bool = False, timeout: float = 120, codex: Path | str | None = None,
              model: str = "fake-model") -> CodexRun:
    """`codex exec --json` in `project` with the model playing `turns`.

    CODEX_HOME is `codex_home` (default `home/.codex`, created if missing). Hooks run only as
    Codex's trust allows (docs/hosts/codex.md#trust): `bypass_hook_trust` passes
    `--dangerously-bypass-hook-trust`. `env`: variables to set instead (None: unset). `model`: the
    model Codex believes it talks to (PATCHING_MODEL: one it offers apply_patch).
    """
    codex_home = codex_home or home / ".codex"
    codex_home.mkdir(parents=True, exist_ok=True)
    with FakeResponsesAPI(list(turns)) as api, tempfile.TemporaryDirectory(prefix="hw-cx-") as tmp:
        args = [str(codex or CODEX), "exec", "--json", "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox", *provider_args(api.url, model)]
        args += ["--dangerously-bypass-hook-trust"] if bypass_hook_trust else []
        args += [*extra_args, "go"]
        # stdin stays closed: with a pipe or a terminal, `codex exec` waits to read more prompt
        code, events, err, timed_out = run_to_end(args, project, codex_env(home, codex_home, tmp, env), timeout)
        return CodexRun(code, events, err, api.tool_results(), list(api.requests), timed_out)


def answer_hook(folder: Path, name: str, *, stdout: str | dict = "", stderr: str = "", exit: int = 0,
                sleep: float = 0, answers: Mapping[str, Mapping] | None = None) -> str:
    """The command of a hook that records its input in `folder/hooks.jsonl` and answers as told
    (tests/e2e/answer_hook.py; `answers`: other answers for given commands), its spec written
    beside as `folder/<name>.json`."""
    def answer(stdout: str | dict = "", stderr: str = "", exit: int = 0, sleep: float = 0) -> dict:
        return {"stdout": stdout if isinstance(stdout, str) else json.dumps(stdout),
                "stderr": stderr, "exit": exit, "sleep": sleep}

    spec = {"name": name, **answer(stdout, stderr, exit, sleep), "record": str(folder / "hooks.jsonl"),
            "answers": {command: answer(**given) for command, given in (answers or {}).items()}}
    spec_file = folder / f"{name}.json"
    spec_file.write_text(json.dumps(spec))
    return shlex.join([sys.executable, str(ANSWER_HOOK), str(spec_file)])


def hook_calls(folder: Path) -> list[dict]:
    """What each answer_hook in `folder` received, in the order they started: {"name", "input", ...}."""
    log = folder / "hooks.jsonl"
    lines = log.read_text().splitlines() if log.exists() else []
    return sorted((json.loads(line) for line in lines), key=lambda call: call["start"])


def hooks_file(*groups_by_event: tuple[str, str | None, Sequence[str]]) -> dict:
    """A hooks.json document: (event, matcher or None, [commands]) for each matcher group."""
    hooks: dict[str, list] = {}
    for event, matcher, commands in groups_by_event:
        group: dict = {"matcher": matcher} if matcher is not None else {}
        group["hooks"] = [{"type": "command", "command": command} for command in commands]
        hooks.setdefault(event, []).append(group)
    return {"hooks": hooks}


def hooks_list(home: Path, cwds: Sequence[Path], *, codex_home: Path | None = None, timeout: float = 60) -> list[dict]:
    """Codex's own account of the hooks it finds for each folder, from `codex app-server`'s
    JSON-RPC method hooks/list: per folder {"cwd", "hooks", "warnings", "errors"}, each hook with
    its trust "key", "currentHash" and "trustStatus" (untrusted, trusted, modified, managed)."""
    codex_home = codex_home or home / ".codex"
    messages = [{"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "hookwright-e2e", "version": "0"}}},
                {"method": "initialized"},
                {"id": 2, "method": "hooks/list", "params": {"cwds": [str(cwd) for cwd in cwds]}}]
    with tempfile.TemporaryDirectory(prefix="hw-cx-") as tmp:
        proc = subprocess.Popen([str(CODEX), "app-server"], env=codex_env(home, codex_home, tmp),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                start_new_session=True)
        watchdog = threading.Timer(timeout, _kill_tree, [proc.pid])
        watchdog.start()
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("".join(json.dumps(message) + "\n" for message in messages).encode())
            proc.stdin.flush()
            for line in proc.stdout:
                answer = json.loads(line)
                if answer.get("id") == 2:
                    if "result" not in answer:
                        raise RuntimeError(f"codex app-server hooks/list: {answer}")
                    return list(answer["result"]["data"])
            raise RuntimeError("codex app-server ended without answering hooks/list")
        finally:
            watchdog.cancel()
            _kill_tree(proc.pid)
            proc.wait()


def trust_toml(projects: Iterable[Path | str] = (), hashes: Mapping[str, str] | None = None) -> str:
    """config.toml text trusting these project folders and these hooks (trust key: hash)."""
    def quoted(text: str) -> str:  # a TOML basic string: JSON's escapes, no surrogate pairs, DEL escaped
        return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")

    lines = []
    for folder in projects:
        lines += [f"[projects.{quoted(str(folder))}]", 'trust_level = "trusted"', ""]
    for key, hash_ in (hashes or {}).items():
        lines += [f"[hooks.state.{quoted(key)}]", f"trusted_hash = {quoted(hash_)}", ""]
    return "\n".join(lines)


# what the interactive Codex asks of a terminal before it draws (0.171.0), and what a terminal answers:
# the cursor's place, the colours, a mode, the device's attributes, the keyboard protocol
_TERMINAL_ANSWERS = ((b"\x1b[6n", b"\x1b[1;1R"), (b"]10;?", b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\"),
                     (b"]11;?", b"\x1b]11;rgb:0000/0000/0000\x1b\\"), (b"[?1007$p", b"\x1b[?1007;2$y"),
                     (b"\x1b[c", b"\x1b[?62;22c"), (b"[?u", b"\x1b[?0u"))
_TERMINAL_CODES = re.compile(rb"\x1b\[[0-9;?<>=$]*[A-Za-z~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]")


def tui_screen(project: Path, home: Path, until: Sequence[str], timeout: float = 30) -> str:
    """The text the interactive `codex` (the TUI) draws when started in `project`, in a terminal of
    120x40 this process plays, until one of `until` is on it (or `timeout` seconds), its
    drawing codes and runs of blanks taken out; no key is pressed, and the process is killed."""
    with FakeResponsesAPI(["hello"]) as api, tempfile.TemporaryDirectory(prefix="hw-cx-") as tmp:
        args = [str(CODEX), *provider_args(api.url)]
        env = {**codex_env(home, home / ".codex", tmp), "TERM": "xterm-256color"}
        pid, fd = pty.fork()
        if pid == 0:  # (the child: Codex, in the project)
            os.chdir(project)
            os.execvpe(args[0], args, env)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        drawn, end, text = b"", time.monotonic() + timeout, ""
        try:
            while time.monotonic() < end and not any(mark in text for mark in until):
                if not select.select([fd], [], [], 0.2)[0]:
                    continue
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                drawn += chunk
                os.write(fd, b"".join(answer for asked, answer in _TERMINAL_ANSWERS if asked in chunk))
                text = " ".join(_TERMINAL_CODES.sub(b" ", drawn).decode("utf-8", "replace").split())
        finally:
            _kill_tree(pid)
            os.waitpid(pid, 0)
            os.close(fd)
        return text
