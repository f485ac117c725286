"""
What `q8-lower` did with each matmul (`Decision`), and the line `report=true` prints
for it: lowered, with its plan and both byte counts (docs/lowering.md), or why not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl_spatial.passes.q8_lower.plan import ChipPlan, FoldPlan, ViewPlan
from xdsl_spatial.passes.report import LoweringDecision
from xdsl_spatial.passes.tensor_parallel import ChipSplit, Split


@dataclass
class Decision(LoweringDecision):
    """What the pass did with one matmul, for `report=true`."""

    PASS: ClassVar[str] = "q8-lower"

    plan: FoldPlan | None = None
    view: ViewPlan | None = None
    split: ChipSplit | None = None
    """The chips it runs on, when lowered over several (then `chips` holds their plans
    and `plan` and `view` are None)."""
    chips: tuple[ChipPlan, ...] = ()

    @property
    def view_bytes(self) -> int:
        """Local memory of the view's buffers (its largest section)."""
        return self.view.buffer_bytes() if self.view is not None else 0

    def lowered_line(self, head: str) -> str:
        if self.split is not None:
            return self._chip_lines(head)
        pl = self.plan
        assert pl is not None
        moved = pl.weight_bytes() + pl.view_reads()
        return head + (
            f"lowered: wb = {pl.wb}, items = {pl.items}, K blocks = {pl.k_blocks}, "
            f"tail = {pl.tail_blocks} Q8_0 blocks, local memory = {pl.buffer_bytes():,} B "
            f"(view {self.view_bytes:,} B); bytes: weight {pl.model_weight_bytes():,} + view "
            f"reads {pl.view_reads():,} = {pl.model_bytes():,} < bf16 copy "
            f"{pl.dense_bytes():,}; moves {moved:,} B ({pl.bytes_per_weight():.4f} B/weight)"
        )

    def _chip_lines(self, head: str) -> str:
        sp = self.split
        assert sp is not None
        gather = (
            "columns gathered by tensor.concat"
            if sp.axis == Split.N
            else "partial sums added in chip order by arith.addf"
        )
        lines = [
            head + f"lowered over {sp.chips} chips ({sp.origin}), split on "
            f"{sp.axis.value.upper()}, {gather}"
        ]
        for cp in self.chips:
            pl = cp.plan
            loads, stores = cp.moved()
            view = (
                f"view {cp.view.load_bytes():,} + {cp.view.store_bytes():,} B"
                if cp.made_view
                else "view shared"
            )
            lines.append(
                f"q8-lower:   chip {cp.chip}: {sp.describe(cp.chip)}: {pl.k}x{pl.n}, "
                f"wb = {pl.wb}, items = {pl.items}, K blocks = {pl.k_blocks}, tail = "
                f"{pl.tail_blocks} Q8_0 blocks, local memory = {pl.buffer_bytes():,} B "
                f"(view {cp.view.buffer_bytes():,} B); moves: fold {pl.weight_bytes():,} + "
                f"{pl.view_reads():,} + {pl.store_bytes():,} B ({pl.bytes_per_weight():.4f} "
                f"B/weight), {view}; chip loads {loads:,} B, stores {stores:,} B"
            )
        return "\n".join(lines)
