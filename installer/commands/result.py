"""What every command returns, and the confirm-then-apply step the writing commands share."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from installer.errors import ExitCode

if TYPE_CHECKING:  # a read-only command (doctor, list) does not load the writing machinery
    from installer.plan import Plan
    from installer.state import Operation

# Shows the plan and asks. True: go ahead; False: the user said no; None: nobody can be asked.
Confirm = Callable[["Plan"], "bool | None"]


@dataclass
class Result:
    command: str
    status: str  # applied | unchanged | dry-run | needs-confirmation | declined | listed
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


def run_plan(command: str, plan: Plan, *, dry_run: bool, confirm: Confirm, undoes: str | None = None) -> Result:
    from installer.apply import apply, tidy

    if not plan.changed:
        if not dry_run:
            tidy(plan)
        return Result(command, "unchanged", [plan])
    plan.check_valid()
    if dry_run:
        return Result(command, "dry-run", [plan])
    answer = confirm(plan)
    if answer is None:
        return Result(command, "needs-confirmation", [plan], exit_code=ExitCode.REFUSED)
    if not answer:
        return Result(command, "declined", [plan], exit_code=ExitCode.REFUSED)
    written, op = apply(plan, command, undoes)
    return Result(command, "applied" if op else "unchanged", [written], operation=op)
