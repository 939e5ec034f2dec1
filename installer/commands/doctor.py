"""`hookwright doctor`: lint every hook config of every scope (or the files given), or explain a rule."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..doctor import report
from ..doctor.model import catalog
from ..doctor.run import run
from ..errors import ExitCode, HookwrightError, command_line, did_you_mean
from ..hosts import NAMES as HOSTS
from ..hosts.base import check_project
from ..project import found, project_of
from .result import Payload, Result, Status


class Report(Payload):
    """A doctor run's document (`hookwright-doctor/1`), printed as it is, as SARIF, or as text."""

    def __init__(self, format: str, report: dict[str, Any]) -> None:
        self.format = format  # text | json | sarif
        self.report = report


class Rules(Payload):
    """--explain RULE (one rule) or --explain alone (every rule)."""

    def __init__(self, format: str, rules: list[dict[str, Any]], one: bool = False) -> None:
        self.format = format
        self.rules = rules  # report.explanation of each
        self.one = one  # --explain RULE: the JSON holds "rule", that one

    def to_json(self) -> dict[str, Any]:
        return {"format": self.format, **({"rule": self.rules[0]} if self.one else {"rules": self.rules})}


def doctor(paths: list[Path], *, host: str | None = None, project: Path | None = None, fmt: str = "text",
           probe: bool = False, strict: bool = False, isolated: bool = False, select: list[str] | None = None,
           ignore: list[str] | None = None, min_severity: str | None = None, use_config: bool = True,
           probe_without_sandbox: bool = False) -> Result:
    """Named files are checked with their conflicts with what the host loads with them on this
    machine (doctor/run.py: around) unless `isolated`; those findings count for the exit code too:
    the hooks do race on this machine. The findings reported are the ones the selection keeps
    (doctor/report.py: the command line over the project's config)."""
    if host is not None and host not in HOSTS:
        raise HookwrightError(f"doctor does not check host {host!r}", hint=f"use --host {' or '.join(HOSTS)}")
    check_project(project)
    # where the agent would be started: the working folder, or the folder named (`doctor DIR`)
    start = Path.cwd() if project is None and not paths else paths[0] if len(paths) == 1 and paths[0].is_dir() else None
    project, paths = _folder_named(paths, project)
    if isolated and not paths:
        raise HookwrightError("--isolated is about the files named on the command line",
                              hint="name the files to check alone, or drop --isolated")
    if probe:
        _check_sandbox(probe_without_sandbox)
    project = project_of(project)  # (found once: the selection and the run ask it, a walk up with stat calls)
    chosen = report.choose(project, select=select, ignore=ignore, min_severity=min_severity, strict=strict,
                           use_config=use_config)
    outcome = run(paths or None, project=project, hosts=(host,) if host else HOSTS, probe=probe,
                  machine=not isolated, start=start)
    hidden = len(outcome.findings)
    outcome.findings = [f for f in outcome.findings if chosen.keeps(f)]
    notes: list[str] = []
    if probe:
        from ..doctor.scripts.probe import left_out

        notes += [note for note in [left_out(outcome.context)] if note]
    doc = report.document(outcome, strict=chosen.strict, selection=chosen, hidden=hidden - len(outcome.findings),
                          notes=notes)
    return Result("doctor", Status.CHECKED, exit_code=doc["summary"]["exit_code"], payload=Report(fmt, doc))


def _check_sandbox(without: bool) -> None:
    """--probe runs the repository's hook commands: only in a sandbox, unless the user names the risk."""
    from .. import sandbox

    why = sandbox.why_not()
    if why is not None and not without:
        raise HookwrightError(f"--probe runs the project's hook commands, and no sandbox can be made here: {why}",
                              code=ExitCode.REFUSED,
                              hint="run doctor without --probe, or add --probe-without-sandbox to run them with your "
                                   "home folder, your files and the network in their reach")


def _folder_named(paths: list[Path], project: Path | None) -> tuple[Path | None, list[Path]]:
    """`doctor DIR` checks the project DIR is in, as `doctor` run there would (`doctor .` too)."""
    folders = [path for path in paths if path.is_dir()]
    if not folders:
        return project, paths
    if len(paths) > 1:
        raise HookwrightError("is a directory: doctor checks files, or the project a folder is in, not both at once",
                              path=folders[0], hint=command_line("doctor", folders[0]))
    if project is not None:
        raise HookwrightError("is a directory, and --project names the project: doctor checks files, or the "
                              "project a folder is in", path=folders[0], hint=command_line("doctor", folders[0]))
    return found(folders[0]), []


def explain(rule_id: str, fmt: str = "text") -> Result:
    rules = catalog()
    if rule_id not in rules:
        raise HookwrightError(f"no doctor rule {rule_id!r}", hint=did_you_mean(rule_id, rules, cutoff=0.5) or
                              "rule ids look like structure/timeout-milliseconds; every finding names its rule")
    return Result("doctor", Status.LISTED, payload=Rules(fmt, [report.explanation(rule_id)], one=True))


def rules(fmt: str = "text") -> Result:
    """Every rule: id, severity and message (`--explain RULE` tells more of one)."""
    return Result("doctor", Status.LISTED, payload=Rules(fmt, [report.explanation(r) for r in sorted(catalog())]))
