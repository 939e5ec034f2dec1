"""Doctor over many projects at once: the checks of single files and handlers shared out between processes.

The checks that read one file or handler at a time against the run's shared facts (its tools,
MCP servers, settings variables: run.LOCAL_CHECKS, the command check above all, half of a big run)
go to forked workers, in shares of whole projects; this process runs the checks that weigh files
together (a script several projects run, two hooks racing, a switch that counts once) over the
whole run meanwhile, then takes the shares the workers have not taken yet. What both sides ask of each handler (what its command runs, what its
scripts print) is worked out here first, once, and inherited by the forks. Only where nothing
can differ from one process's report: every file is a project's (or its local) settings, and
the findings come back in the report order one process gives, which a test holds any number of
workers to. Only where it pays: on Linux (fork starts a
worker in milliseconds, with every module already imported), with two cores or more, and with
enough handlers that the workers' start and the findings' trip back cost less than they save.
The workers are plain forks that take the shares' numbers from one pipe and send their findings
back through another: no pool, no threads.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from .. import hosts
from .model import ConfigFile, Context, Finding, Handler

# chosen when two workers shared beside this process: in scripts/bench_doctor.py's part 1 on two
# cores, 613 handlers (90 projects) and 1,210 (180) gained nothing, 1,884 (269 projects) 1.15 to
# 1.2x. With one process a core and the queue (below), three runs of its wall clock gave 599
# handlers (90 projects) 1.20-1.23x, 1,870 (269) 1.34-1.47x, 129 (30) 0.97-1.05x: the threshold
# could come down to about 600, once measured between 129 and 599
MIN_HANDLERS = 1500
MAX_WORKERS = 8
# a run counts this process among its processes (one per core) and cuts the projects into this
# many shares per process, which the workers and then this process take from a queue as each is
# free: every process ends within about a share of the others whatever the checks cost each
# side, and on two cores one worker does what two did (each importing, compiling and touching
# again what the other did, three processes on two cores). On the corpus tree of 269 projects
# (scripts/bench_doctor.py's part 1), all the processes' instructions 4,534 M -> 4,484 M
# (valgrind, fixed hash seed); a share costs about 1 M (2 shares a process: 4,474 M)
PARTS_PER_PROCESS = 8
PROJECT_SCOPES = frozenset({"project", "local"})


def workers(ctx: Context) -> int:
    """How many processes would check this context (1: this one alone)."""
    if sys.platform != "linux" or ctx.probe or ctx.focus:
        return 1
    if any(f.scope not in PROJECT_SCOPES or _in_code(f) or f.project is None for f in ctx.files):
        return 1
    projects = len({f.project for f in ctx.files})
    pinned = os.environ.get("HOOKWRIGHT_WORKERS", "")  # HOOKWRIGHT_WORKERS=1 turns the sharing off
    if pinned.isdigit():
        return max(1, min(int(pinned), MAX_WORKERS, projects))
    if len(ctx.handlers) < MIN_HANDLERS:
        return 1
    return max(1, min(len(os.sched_getaffinity(0)), MAX_WORKERS, projects))


def _in_code(file: ConfigFile) -> bool:
    """A file whose project's checks are not shared out: a plugin's code (opencode), another
    agent's file, a host's whose commands doctor does not read."""
    host = hosts.of(file.host)
    return host is None or not host.commands_checked


def shares(ctx: Context, count: int) -> list[Context]:
    """The context cut into `count` contexts of whole projects, of about as many handlers each."""
    handlers_of: dict[int, list[Handler]] = {}
    for handler in ctx.handlers:
        handlers_of.setdefault(id(handler.file), []).append(handler)
    projects: dict[Path | None, list[ConfigFile]] = {}
    for file in ctx.files:
        projects.setdefault(file.project, []).append(file)
    loads = [0] * count
    chosen: list[list[Path | None]] = [[] for _ in range(count)]
    weight = {p: sum(len(handlers_of.get(id(f), ())) + 1 for f in files) for p, files in projects.items()}
    for project in sorted(projects, key=lambda p: -weight[p]):  # the biggest first, to the lightest share
        lightest = loads.index(min(loads))
        chosen[lightest].append(project)
        loads[lightest] += weight[project]
    out = []
    for projects_of_share in chosen:
        wanted = set(map(id, (f for p in projects_of_share for f in projects[p])))
        files = [f for f in ctx.files if id(f) in wanted]
        out.append(ctx.narrowed(files, [h for f in files for h in handlers_of.get(id(f), ())], ctx.plugins))
    return [share for share in out if share.files]


def findings(ctx: Context, count: int, run_share: Callable[[Context], list[Finding]],
             run_whole: Callable[[], list[Finding]]) -> Sequence[Finding]:
    """`run_share` over shares of `ctx` in `count` processes, this one among them: `count - 1`
    workers take the shares one at a time from a queue while this process does `run_whole`, and
    then takes the shares left too; all the findings together (in no order yet: the caller sorts
    them, as it does one process's). A share a worker took and did not send back (it failed) is
    checked here: the report is complete either way."""
    parts = shares(ctx, PARTS_PER_PROCESS * count)
    queue = _queue(len(parts))
    children = [_fork(run_share, parts, queue) for _ in range(count - 1)] if queue is not None else []
    found: list[Finding] = list(run_whole())
    checked: dict[int, tuple[list[Finding], set[str]]] = {}
    if queue is not None:
        checked.update(_taken(run_share, parts, queue))
        os.close(queue)
    for child in children:
        checked.update(_collect(child) or {})
    for number, part in enumerate(parts):
        part_found, truncated = checked.get(number) or (run_share(part), part.truncated)
        found.extend(part_found)
        ctx.truncated |= truncated
    return found


def _queue(count: int) -> int | None:
    """A pipe holding the numbers of `count` shares, a byte each, its write end closed: its read
    end, which every process reads a number at a time (a read from a pipe is atomic), to the end."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    os.write(write_end, bytes(range(count)))  # (at most MAX_WORKERS * PARTS_PER_PROCESS bytes: never blocks)
    os.close(write_end)
    return read_end


def _taken(run_share: Callable[[Context], list[Finding]], parts: list[Context],
           queue: int) -> dict[int, tuple[list[Finding], set[str]]]:
    """The shares this process takes from the queue until it is empty, checked, by number."""
    checked = {}
    while taken := os.read(queue, 1):
        part = parts[taken[0]]
        checked[taken[0]] = (run_share(part), part.truncated)
    return checked


def _fork(run_share: Callable[[Context], list[Finding]], parts: list[Context],
          queue: int) -> tuple[int, int] | None:
    """A child process checking the shares it takes from `queue`, its findings pickled into a
    pipe: (pid, read end)."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid:
        os.close(write_end)
        return pid, read_end
    status = 1
    try:  # the child: check, send, and leave without the interpreter's teardown
        import pickle  # (from 1,500 handlers on only: about 3 ms)

        os.close(read_end)
        with os.fdopen(write_end, "wb") as out:
            sent = {number: ([tuple(f) for f in found], truncated)  # (as plain tuples: _collect)
                    for number, (found, truncated) in _taken(run_share, parts, queue).items()}
            pickle.dump(sent, out, protocol=pickle.HIGHEST_PROTOCOL)
        status = 0
    finally:
        os._exit(status)


def _collect(child: tuple[int, int] | None) -> dict[int, tuple[list[Finding], set[str]]] | None:
    if child is None:
        return None
    pid, read_end = child
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    import pickle  # (from 1,500 handlers on only: about 3 ms)

    try:
        sent: dict[int, tuple[list[tuple[Any, ...]], set[str]]] = pickle.loads(data)  # (what _fork's child dumped)
    except Exception:  # noqa: BLE001 (a worker that died mid-write: its shares are checked here)
        return None
    # each finding came as the plain tuple of its values, made a Finding again as Record.__new__
    # makes it, from all its values: pickle makes a Record through its __getnewargs__ and
    # __new__, calls from Python; the corpus tree's 2,959 local findings were dumped in 38.4 M
    # instructions and loaded in 21.5 M, as tuples in 19.0 M and 15.0 M
    return {number: ([tuple.__new__(Finding, values) for values in found], truncated)
            for number, (found, truncated) in sent.items()}
