"""Run hookwright's commands on one crafted repository (tests/test_hostile.py), in one process of
its own under an address-space limit: hookwright is imported once, then each command runs in a
child forked from here, with its own limits of CPU time (what reading the repository costs) and
of wall-clock time (for a command that waits), its stdout and stderr in files. A child past either
limit is killed with its process group and recorded as such.

    python hostile_run.py SPEC_JSON      (prints one JSON list: each command's outcome)

SPEC: {"env": {...}, "cwd": DIR, "out": DIR, "address_space": BYTES, "cpu_s": SECONDS, "wall_s": SECONDS,
"commands": [[NAME, [ARG, ...]], ...]}. A command named "probe-report" is no CLI command: it
runs doctor's probe on the project in-process and writes each probed hook's run (exit, stdout,
stderr) to its stdout file as JSON, so the test can read what a hook saw from inside its sandbox.
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import pkgutil
import resource
import signal
import sys
import time

# the packages whose modules the commands load as they need them: doctor's readers and checks, the
# plans, the commands and the hosts' adapters (a tenth of a second of each command's CPU on any repository)
WARM = ("hookwright.doctor", "hookwright.planning", "hookwright.commands", "hookwright.hosts")


def probe_report(project: str) -> int:
    from hookwright.doctor.run import context
    from hookwright.doctor.scripts import probe

    ctx = context(None, project=__import__("pathlib").Path(project), hosts={"claude"}, probe=True)
    runs = [{"command": handler.command, "exit_code": result.run.exit_code,
             "stdout": result.run.stdout.decode("utf-8", "replace"),
             "stderr": result.run.stderr.decode("utf-8", "replace")}
            for handler, result in probe.results_for(ctx)]
    print(json.dumps(runs))
    return 0


def child(name: str, argv: list[str], out: str, err: str, project: str, cpu_s: int) -> None:
    """In the forked child: the command, its output in files, its exit code as ours."""
    os.setpgid(0, 0)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))  # (SIGXCPU at the soft limit)
    for fd, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    gc.disable()  # (as the program runs, hookwright/__main__.py: a collection would only rescan what the command made)
    code = 0
    try:
        if name == "probe-report":
            code = probe_report(project)
        else:
            from hookwright.cli import main

            main(argv)
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 1
    except BaseException:  # (main turns every other exception into exit 4: this is outside it)
        import traceback

        traceback.print_exc()
        code = 4
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def run(name: str, argv: list[str], spec: dict, index: int) -> dict:
    out, err = (os.path.join(spec["out"], f"{index:02d}-{name}.{kind}") for kind in ("out", "err"))
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        child(name, argv, out, err, spec["cwd"], spec["cpu_s"])
    deadline = started + spec["wall_s"]
    status, cpu = None, 0.0
    while status is None:
        done, found, usage = os.wait4(pid, os.WNOHANG)
        if done:
            status, cpu = found, usage.ru_utime + usage.ru_stime
        elif time.monotonic() > deadline:
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            _, status = os.waitpid(pid, 0)
            return {"name": name, "argv": argv, "exit_code": None, "killed": "past the wall-clock limit",
                    "seconds": round(time.monotonic() - started, 2), "out": out, "err": err}
        else:
            time.sleep(0.01)
    try:
        os.killpg(pid, signal.SIGKILL)  # (whatever the command left running in its group)
    except OSError:
        pass
    killed = None if not os.WIFSIGNALED(status) else "past the CPU-time limit" \
        if os.WTERMSIG(status) == signal.SIGXCPU or cpu >= spec["cpu_s"] else f"signal {os.WTERMSIG(status)}"
    return {"name": name, "argv": argv, "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "killed": killed, "seconds": round(time.monotonic() - started, 2), "out": out, "err": err}


def main() -> None:
    spec = json.loads(sys.argv[1])
    os.environ.clear()
    os.environ.update(spec["env"])
    os.chdir(spec["cwd"])
    resource.setrlimit(resource.RLIMIT_AS, (spec["address_space"], spec["address_space"]))
    import hookwright.cli  # noqa: F401 (imported once: each command's child starts warm)

    for package in WARM:  # (what every command loads, imported once here and not again in each child)
        for module in pkgutil.walk_packages(importlib.import_module(package).__path__, package + "."):
            importlib.import_module(module.name)
    results = [run(name, argv, spec, index) for index, (name, argv) in enumerate(spec["commands"])]
    print(json.dumps(results))


if __name__ == "__main__":
    main()
