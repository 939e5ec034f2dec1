"""`hookwright doctor`: lint every hook config of every scope (or the files given), or explain a rule."""
from __future__ import annotations

from pathlib import Path

from installer.commands.result import Result
from installer.errors import ExitCode, HookwrightError

FORMATS = ("text", "json", "sarif")


def doctor(paths: list[Path], *, host: str | None = None, project: Path | None = None, fmt: str = "text",
           probe: bool = False, strict: bool = False, isolated: bool = False) -> Result:
    """Named files are checked with their conflicts with what the host loads with them on this
    machine (doctor/machine.py) unless `isolated`; those findings count for the exit code too:
    the hooks do race on this machine."""
    from installer.doctor import report
    from installer.doctor.run import HOSTS, run

    if host is not None and host not in HOSTS:
        raise HookwrightError(f"doctor does not check host {host!r}", hint=f"use --host {' or '.join(HOSTS)}")
    if project is not None and not project.is_dir():
        raise HookwrightError("the project folder does not exist", path=project, hint="check --project")
    if isolated and not paths:
        raise HookwrightError("--isolated is about the files named on the command line",
                              hint="name the files to check alone, or drop --isolated")
    outcome = run(paths or None, project=project, hosts=(host,) if host else HOSTS, probe=probe,
                  machine=not isolated)
    doc = report.document(outcome, strict=strict)
    return Result("doctor", "checked", exit_code=ExitCode(doc["summary"]["exit_code"]),
                  data={"format": fmt, "report": doc})


def explain(rule_id: str, fmt: str = "text") -> Result:
    from installer.doctor import report
    from installer.doctor.model import catalog

    rules = catalog()
    if rule_id not in rules:
        import difflib  # only for a rule id that does not exist

        close = difflib.get_close_matches(rule_id, list(rules), n=3, cutoff=0.5)
        close += [r for r in rules if r.endswith("/" + rule_id) and r not in close]
        raise HookwrightError(f"no doctor rule {rule_id!r}",
                              hint=f"did you mean {', '.join(close)}?" if close else
                              "rule ids look like structure/timeout-milliseconds; every finding names its rule")
    return Result("doctor", "listed", data={"format": fmt, "rule": report.explanation(rule_id)})
