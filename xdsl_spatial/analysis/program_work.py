"""
What one item of a spatial program computes, read off its IR (`work_of`): the
multiply-accumulates of its stages by the unit each runs on (`stage_unit`), which the
chip-time estimate (`chip_time.py`, numbers only) turns into cycles.

```python
work = work_of(fold, fold.target.min_rows.data)
chip_time.program_time(items, dram_bytes, noc_bytes, work, fold.target.figures())
```
"""

from __future__ import annotations

import math
from enum import auto

from xdsl.dialects.builtin import BFloat16Type, Float16Type, IntegerType, TensorType
from xdsl.ir import Attribute, BlockArgument
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.analysis.chip_time import Work
from xdsl_spatial.dialects.spatial import (
    IterKind,
    PageType,
    ProgramOp,
    StageOp,
    YieldOp,
    enclosing_loop,
)


class StageUnit(StrEnum):
    """Where a stage's work runs on a site."""

    NONE = auto()
    """A stage that only fills, copies or converts: data movement, no arithmetic unit."""
    MATRIX = auto()
    """A contraction of bf16 pages: the matrix unit at its bf16 rate."""
    BLOCK = auto()
    """A contraction of a bf16 page with int8 weights (a Q8_0 weight, which the chip
    holds as block-float-8): the matrix unit at its block-float-8 rate."""
    VECTOR = auto()
    """Any other arithmetic (fp32 sums, maps, reductions): the vector unit."""


_COMPUTING = frozenset(
    (
        "arith.addf",
        "arith.subf",
        "arith.mulf",
        "arith.divf",
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.maximumf",
        "arith.minimumf",
        "arith.negf",
    )
)
"""Body ops that do arithmetic; the others (constants, casts, selects, `spatial.index`)
only place or convert values."""


def stage_kind(stage: StageOp) -> str:
    """What a stage does, in one word: constant, copy, contraction, reduction or map."""
    body = [o for o in stage.body.block.ops if not isinstance(o, YieldOp)]
    term = stage.body.block.last_op
    sums = IterKind.SUM in stage.iter_kinds
    if not stage.ins:
        return "constant"
    if not body and isinstance(term, YieldOp) and isinstance(term.value, BlockArgument):
        return "reduction" if sums else "copy"
    if sums:
        return (
            "contraction"
            if any(o.name in ("arith.mulf", "arith.muli") for o in body)
            else "reduction"
        )
    return "map"


def _page_elements(stage: StageOp) -> list[Attribute]:
    return [v.type.element_type for v in stage.ins if isinstance(v.type, PageType)]


def stage_unit(stage: StageOp) -> StageUnit:
    """Which unit a stage's work runs on (`StageUnit`)."""
    kind = stage_kind(stage)
    if kind in ("constant", "copy"):
        return StageUnit.NONE
    if kind == "map" and not any(o.name in _COMPUTING for o in stage.body.block.ops):
        return StageUnit.NONE
    elems = _page_elements(stage)
    if kind != "contraction" or not any(isinstance(e, BFloat16Type | Float16Type) for e in elems):
        return StageUnit.VECTOR
    if any(isinstance(e, IntegerType) and e.width.data == 8 for e in elems):
        return StageUnit.BLOCK
    return StageUnit.MATRIX


def program_rows(program: ProgramOp) -> int:
    """The rows of a program's products: its result's (1 for a result of one dimension
    or none)."""
    t = program.results[0].type if program.results else None
    shape = t.get_shape() if isinstance(t, TensorType) else ()
    return shape[0] if len(shape) > 1 else 1


def work_of(program: ProgramOp, min_rows: int = 1) -> Work:
    """The work of one item of `program`, its contractions' rows padded to `min_rows`
    (1: as the IR counts them)."""
    macs = dict.fromkeys(StageUnit, 0)
    for op in program.body.walk():
        if isinstance(op, StageOp):
            loop = enclosing_loop(op)
            trips = loop.trips.data if loop is not None else 1
            macs[stage_unit(op)] += math.prod(op.iter_extents) * trips
    rows = program_rows(program)
    padded = -(-rows // min_rows) * min_rows
    return Work(
        macs[StageUnit.MATRIX] * padded // rows,
        macs[StageUnit.BLOCK] * padded // rows,
        macs[StageUnit.VECTOR],
    )
