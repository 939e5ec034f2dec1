"""What every command returns, and the confirm-then-apply step the writing commands share."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple

from ..errors import ExitCode

if TYPE_CHECKING:  # a read-only command (doctor, list) does not load the writing machinery
    from ..plan import Plan
    from ..state import Operation


class Consent(NamedTuple):
    """How a writing command may go ahead: a person asked on a terminal (`ask` shows the plan
    and returns the answer), --yes, or nobody (no terminal: the plan is shown, exit 3). An
    error the change introduces (a conflict) stops --yes unless --allow-conflicts is given."""

    ask: Callable[["Plan", bool], bool] | None = None  # (plan, asked before and the files changed since)
    yes: bool = False
    allow_conflicts: bool = False


@dataclass
class Result:
    command: str
    status: str  # applied | unchanged | dry-run | needs-confirmation | declined | refused | listed
    plans: list[Plan] = field(default_factory=list)
    operation: Operation | None = None
    exit_code: ExitCode = ExitCode.OK
    data: dict[str, Any] = field(default_factory=dict)  # command-specific extras for --json

    def to_json(self) -> dict:
        return {
            "command": self.command, "status": self.status, "exit_code": int(self.exit_code),
            "plans": [p.to_json() for p in self.plans],
            "operation": self.operation.to_json() if self.operation else None,
            **self.data,
        }


def run_plans(command: str, plans: Iterable[Plan], *, dry_run: bool, consent: Consent) -> Result:
    """Run plans one after the other (one per file), stopping at the first that does not go
    through; the result holds every plan run, the last operation and the worst exit code.
    `plans` may be a generator: each plan is then made after the one before was carried out."""
    results = []
    from .. import state  # (doctor, which writes nothing, never needs it)

    batch = state.new_id()
    for plan in plans:
        plan.batch = batch
        results.append(run_plan(command, plan, dry_run=dry_run, consent=consent))
        if results[-1].exit_code != ExitCode.OK:
            break
    statuses = [r.status for r in results]
    stopped = results[-1].exit_code != ExitCode.OK
    status = statuses[-1] if stopped else next((s for s in ("applied", "dry-run") if s in statuses), statuses[-1])
    written = [r for r in results if r.operation]
    return Result(command, status, [p for r in results for p in r.plans],
                  written[-1].operation if written else None, max(r.exit_code for r in results))


def _approved(plan: Plan, ask: Callable[["Plan", bool], bool]) -> Plan | None:
    """The plan the person said yes to. The files may change while the question waits (an
    editor, the agent): then the new plan is shown and asked about again, so what is written
    is always what was shown. None: declined."""
    again = False
    while ask(plan, again):
        fresh = plan.again()
        if fresh.document.raw == plan.document.raw and fresh.signature() == plan.signature():
            return plan
        if not fresh.changed:
            return fresh
        fresh.check_valid()
        fresh.check_findings()
        plan, again = fresh, True
    return None


def run_plan(command: str, plan: Plan, *, dry_run: bool, consent: Consent) -> Result:
    from ..apply import apply, tidy

    if not plan.changed:
        if not dry_run:
            tidy(plan)
        return Result(command, "unchanged", [plan])
    plan.check_valid()
    plan.check_findings()
    if dry_run:
        return Result(command, "dry-run", [plan])
    if consent.yes:
        if plan.blocking_findings and not consent.allow_conflicts:
            return Result(command, "refused", [plan], exit_code=ExitCode.REFUSED)
    elif consent.ask is None:
        return Result(command, "needs-confirmation", [plan], exit_code=ExitCode.REFUSED)
    else:
        approved = _approved(plan, consent.ask)
        if approved is None:
            return Result(command, "declined", [plan], exit_code=ExitCode.REFUSED)
        plan = approved
    written, op = apply(plan, command)
    written.findings = plan.findings  # (the same change, made again under the lock)
    return Result(command, "applied" if op else "unchanged", [written], operation=op)
