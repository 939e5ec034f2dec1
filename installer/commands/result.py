"""What every command returns: a status, the plans it ran, and a typed payload of its own."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from ..errors import ExitCode
from ..text_enum import TextEnum

if TYPE_CHECKING:  # a read-only command (doctor, list) does not load the writing machinery
    from ..plan import Plan
    from ..state import Operation


class Status(TextEnum):
    """How a command ended, as the JSON document's "status" says it."""

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


@dataclass
class Payload:
    """What a command found or made besides its plans, one dataclass per command: its fields are
    the JSON document's (a field with metadata omit_none is left out while None), and its
    `print_text` hands it to output.py, where all printing is."""

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)
                if not (f.metadata.get("omit_none") and getattr(self, f.name) is None)}

    def print(self, result: Result, as_json: bool) -> None:
        """The command's JSON document, or the payload as text."""
        if as_json:
            from ..output import print_json

            print_json(result.to_json())
        else:
            self.print_text(result)

    def print_text(self, result: Result) -> None:
        raise NotImplementedError


OMIT_NONE = {"omit_none": True}


@dataclass
class Result:
    command: str
    status: Status
    plans: list[Plan] = field(default_factory=list)
    operation: Operation | None = None
    exit_code: ExitCode = ExitCode.OK
    payload: Payload | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "command": self.command, "status": self.status.value, "exit_code": int(self.exit_code),
            "plans": [p.to_json() for p in self.plans],
            "operation": self.operation.to_json() if self.operation else None,
            **(self.payload.to_json() if self.payload else {}),
        }
