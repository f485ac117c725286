"""
What `spatial-lower-ops` did with each op it looked at (`Decision`), and the line
`report=true` prints for it: lowered, as which program and with what plan, or why not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects import arith, func, tensor
from xdsl.ir import Operation

from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.passes.report import LoweringDecision
from xdsl_spatial.passes.spatial_lower_ops.plan import OpPlan, plan_bytes

LAYOUT_ONLY = (
    ProgramOp,
    func.ReturnOp,
    tensor.EmptyOp,
    arith.ConstantOp,
    tensor.ExpandShapeOp,
    tensor.CollapseShapeOp,
)
"""What a lowered step holds besides host computation: programs, the function's
return, empty tensors, constants and reshapes that only rename a layout."""


def host_ops(fn: Operation) -> list[Operation]:
    """The ops of `fn`'s body that compute on the host (not a program, a constant, an
    empty tensor, a reshape or the return)."""
    return [o for o in fn.regions[0].block.ops if not isinstance(o, LAYOUT_ONLY)]


@dataclass
class Decision(LoweringDecision):
    """What the pass did with one op."""

    PASS: ClassVar[str] = "spatial-lower-ops"

    plan: OpPlan | None = None
    program: str = ""

    def lowered_line(self, head: str) -> str:
        extra = ""
        if self.plan is not None:
            loads, stores = plan_bytes(self.plan)
            extra = f", {self.plan.describe()}; moves {loads:,} + {stores:,} B"
        return head + f"lowered: {self.program}{extra}"
