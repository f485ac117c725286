"""
What a lowering pass did with one op, for its `report=true` (`LoweringDecision`): the
line starts `PASS: WHERE SHAPE: ` and goes on `not lowered: WHY`, or with what the
pass says of the op it lowered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass
class LoweringDecision:
    """What the pass did with one op."""

    where: str
    shape: str
    lowered: bool
    reason: str
    """Why not, when not lowered."""

    PASS: ClassVar[str]
    """The pass's name, which starts its lines."""

    def line(self) -> str:
        head = f"{self.PASS}: {self.where}{' ' + self.shape if self.shape else ''}: "
        if not self.lowered:
            return head + f"not lowered: {self.reason}"
        return self.lowered_line(head)

    def lowered_line(self, head: str) -> str:
        """The line (or lines) of a lowered op, after `head`."""
        raise NotImplementedError
