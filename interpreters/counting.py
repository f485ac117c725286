"""
The bytes a program's loads and stores move, read off its IR (`program_traffic`): what
every engine counts for a run of it (`traffic.py` holds the records).
"""

from __future__ import annotations

from typing import cast

from xdsl_spatial.analysis.program_work import work_of
from xdsl_spatial.dialects.spatial import (
    LoadOp,
    ProgramOp,
    StoreOp,
    TensorHandleType,
    TensorOp,
    TileMoveOp,
    element_bytes,
    is_weight_scales,
    is_weight_values,
)
from xdsl_spatial.interpreters.traffic import ProgramTraffic


def move_bytes(op: TileMoveOp, program: ProgramOp, runs: int = 1) -> int:
    """Bytes `runs` runs of a load or store move for all of `program`'s items: whole
    tiles of its tensor's elements, each item's over its site's links (the NoC)."""
    bh, bw = op.block_shape
    elem = element_bytes(cast(TensorHandleType, op.moved_tensor.type).element_type)
    return program.num_items * bh * bw * program.target.tile_elems * elem * runs


def dram_bytes(op: TileMoveOp, program: ProgramOp, runs: int = 1) -> int:
    """... of which cross the chip's DRAM: every item's block, but a multicast load's
    once for all items (it is read once and sent to every site)."""
    moved = move_bytes(op, program, runs)
    if isinstance(op, LoadOp) and op.multicast is not None:
        return moved // program.num_items
    return moved


def new_record(op: ProgramOp) -> ProgramTraffic:
    """An empty record for a run of `op`, which its loads and stores fill."""
    return ProgramTraffic(
        op.program_name.data,
        op.KIND,
        op.num_items,
        op.buffer_bytes(),
        chip=op.chip_index,
        work=work_of(op, op.target.min_rows.data),
        figures=op.target.figures(),
        scale_bytes={
            t.tensor_name.data: element_bytes(t.handle.element_type)
            for t in op.body.walk()
            if isinstance(t, TensorOp) and is_weight_scales(t)
        },
    )


def program_traffic(program: ProgramOp) -> ProgramTraffic:
    """What one run of `program` moves, from its ops alone (every address is static:
    each move runs `repeat` times for every item), as the engines that run it count."""
    rec = new_record(program)
    for op in program.body.walk():
        if isinstance(op, TensorOp) and is_weight_values(op):
            r, c = op.handle.dims
            rec.weight_elems = r * c
        elif isinstance(op, LoadOp | StoreOp):
            decl = op.tensor.owner
            name = decl.tensor_name.data if isinstance(decl, TensorOp) else str(op.tensor)
            nbytes = move_bytes(op, program, op.repeat.data)
            if isinstance(op, LoadOp):
                rec.add_load(name, nbytes, dram_bytes(op, program, op.repeat.data))
            else:
                rec.add_store(name, nbytes)
    return rec
