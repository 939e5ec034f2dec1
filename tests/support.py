"""Small helpers for tests: build settings files from dicts, read them back."""
from __future__ import annotations

import json
from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"  # the team's ../shared, beside the repo
GIT_GUARD_COMMAND = 'python3 -I -S "$CLAUDE_PROJECT_DIR"/.claude/hookwright/git-guard/git-guard --host claude'


def write_json(path: Path, data, indent=2, final_newline=True) -> bytes:
    """Write a settings file the way a user might have; returns its bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = (json.dumps(data, indent=indent, ensure_ascii=False) + ("\n" if final_newline else "")).encode()
    path.write_bytes(raw)
    return raw


def read_json(path: Path):
    return json.loads(path.read_bytes())


def handlers(data: dict, event: str = "PreToolUse") -> list[dict]:
    return [h for group in data.get("hooks", {}).get(event, []) for h in group.get("hooks", [])]


def commands(data: dict, event: str = "PreToolUse") -> list[str]:
    return [h.get("command") for h in handlers(data, event)]


def lay_out_runtime(folder: Path, pack: str, host: str = "claude") -> Path:
    """A pack's runtime folder as install writes it (packs.Pack.runtime_files): the shared hook
    script under each hook's name, executable, beside the pack's modules and the runtime library."""
    from hookwright.packs import load_pack

    loaded = load_pack(pack)
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in loaded.runtime_files(host).items():
        (folder / name).write_bytes(data)
        (folder / name).chmod(0o755 if loaded.is_script(name) else 0o644)
    return folder


def forked(run, stderr: Path | None = None) -> int:
    """`run()` in a child forked from this process, with everything it imported loaded already;
    returns the child's pid. The child never returns into pytest: it exits 0, or 1 with its
    traceback on its stderr (into the file `stderr`, when given)."""
    import os
    import traceback

    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            if stderr is not None:
                with open(stderr, "w", encoding="utf-8") as stream:
                    os.dup2(stream.fileno(), 2)
            run()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(code)
    return pid


def script_module(name: str):
    """One of scripts/*.py, imported as a module (for the tests of a script's pieces)."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (its dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module
