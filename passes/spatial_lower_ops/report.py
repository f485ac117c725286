"""
What `spatial-lower-ops` did with each op it looked at (`Decision`), and the line
`report=true` prints for it: lowered, as which program and with what plan, or why not.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl_spatial.passes.spatial_lower_ops.plan import OpPlan, plan_bytes


@dataclass
class Decision:
    """What the pass did with one op."""

    where: str
    shape: str
    lowered: bool
    reason: str
    plan: OpPlan | None = None
    program: str = ""

    def line(self) -> str:
        head = f"spatial-lower-ops: {self.where}{' ' + self.shape if self.shape else ''}: "
        if not self.lowered:
            return head + f"not lowered: {self.reason}"
        extra = ""
        if self.plan is not None:
            loads, stores = plan_bytes(self.plan)
            extra = f", {self.plan.describe()}; moves {loads:,} + {stores:,} B"
        return head + f"lowered: {self.program}{extra}"
