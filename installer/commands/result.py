"""What every command returns: a status, the plans it ran, and a typed payload of its own."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import ExitCode

if TYPE_CHECKING:  # a read-only command (doctor, list) does not load the writing machinery
    from ..planning.plan import Plan
    from ..state import Operation


class Status:
    """How a command ended, as the JSON document's "status" says it: one of these texts (names on
    a plain class, as errors.ExitCode is)."""

    APPLIED = "applied"  # written
    UNCHANGED = "unchanged"  # already as wanted: nothing written
    DRY_RUN = "dry-run"
    NEEDS_CONFIRMATION = "needs-confirmation"  # no terminal to ask on, and no --yes
    DECLINED = "declined"
    REFUSED = "refused"  # the change introduces an error, and --allow-conflicts was not given
    LISTED = "listed"  # a read-only command's answer
    RENDERED = "rendered"
    SIMULATED = "simulated"
    CHECKED = "checked"


class Payload:
    """What a command found or made besides its plans, one class per command: plain data. The
    attributes its __init__ sets are the JSON document's fields, in that order (those named in
    `omitted_while_none` are left out while None); output.py prints it (PRINTERS), and nothing
    here knows how. (Plain classes: a dataclass compiles its methods at import, and a doctor run
    should cost little more than starting typer.)"""

    omitted_while_none: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {name: value for name, value in vars(self).items()
                if not (value is None and name in self.omitted_while_none)}


class Result:
    def __init__(self, command: str, status: str, plans: list[Plan] | None = None,
                 operation: Operation | None = None, exit_code: int = ExitCode.OK, payload: Payload | None = None,
                 shown: bool = False, notes: list[str] | None = None) -> None:
        self.command = command
        self.status = status
        self.plans = [] if plans is None else plans
        self.operation = operation
        self.exit_code = exit_code
        self.payload = payload
        self.shown = shown  # the plans were shown to a person who said yes (not so with --yes)
        self.notes = [] if notes is None else notes  # what the command says besides its plans ("nothing to do: ...")

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command, "status": self.status, "exit_code": self.exit_code,
            "plans": [p.to_json() for p in self.plans],
            "operation": self.operation.to_json() if self.operation else None,
            **({"notes": self.notes} if self.notes else {}),
            **(self.payload.to_json() if self.payload else {}),
        }
