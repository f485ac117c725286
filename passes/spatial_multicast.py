"""
`spatial-multicast`: a load every item of a program reads from the same address (a
fold's view of its activation, an RMSNorm's weight, a rotary table, a query every
item of an attention's scores reads) is marked `multicast`: the chip reads its block
from DRAM once a run and sends it over the network to every item's site, where each
item reading it would read DRAM once an item.

```mlir
%p = spatial.load %w[0] block 1x18 stride 18 repeat 1 into %in1 : ...     // grid [3]
```

becomes

```mlir
%p = spatial.load %w[0] block 1x18 stride 18 repeat 1 multicast into %in1 : ...
```

A load is marked when its program has more than one item and neither its origin nor
where it reads its table uses an item coordinate (the K loop's index may step it:
every item then reads the same block each trip). Nothing else changes: every item
still receives the block (the NoC's bytes are the same), DRAM's are one item's.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import K_INDEX, single_linear
from xdsl_spatial.dialects.spatial import LoadOp, ProgramOp, outside_programs


def same_for_every_item(load: LoadOp) -> bool:
    """Whether `load`'s address uses no item coordinate."""
    try:
        variables = load.loop_variables()
        forms = [single_linear(load.origin.data, "load origin")]
        if load.table_at is not None:
            forms.append(single_linear(load.table_at.data, "load table position"))
    except VerifyException:
        return False  # what the verifier refuses is not rewritten
    return all(not c or axis == K_INDEX for form in forms for axis, c in zip(variables, form.syms))


def mark_multicast(module: ModuleOp) -> int:
    """Mark every load of `module` that all of its program's items read at one
    address; how many were marked."""
    marked = 0
    for program in outside_programs(module.body):
        if not isinstance(program, ProgramOp) or program.num_items < 2:
            continue
        for op in program.body.walk():
            if isinstance(op, LoadOp) and op.multicast is None and same_for_every_item(op):
                op.multicast = UnitAttr()
                marked += 1
    return marked


@dataclass(frozen=True)
class MulticastPass(ModulePass):
    """Mark the loads every item of a program reads at one address as multicast."""

    name = "spatial-multicast"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        mark_multicast(op)
