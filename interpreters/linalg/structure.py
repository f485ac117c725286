"""
What a structured op is to its kernel: its operands, maps, loops and body, read
once from a `linalg` op, and the extent of each loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects.builtin import (
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import (
    BroadcastOp,
    ReduceOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineDimExpr,
    AffineMap,
)

from xdsl_spatial.interpreters.kernels import (
    KernelError,
)

MAX_SPACE_ELEMENTS = 1 << 26
"""The most elements a value computed in a body may span (64 Mi: 256 MiB of fp32)."""


@dataclass(frozen=True)
class Structured:
    """A structured op read off its IR: everything its kernel is built from."""

    op: Operation
    maps: tuple[AffineMap, ...]
    """One per operand, inputs then outputs."""
    reduction: tuple[bool, ...]
    """Per loop: a reduction loop (else parallel)."""
    body: Block
    n_inputs: int
    results: tuple[SSAValue, ...]


def structure_of(op: Operation) -> Structured:
    """The structured form of the linalg ops this module runs."""
    if isinstance(op, BroadcastOp):
        rank = _rank(op.init.type)
        added = set(op.dimensions.get_values())
        kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in added)
        maps = (AffineMap(rank, 0, kept), AffineMap.identity(rank))
        return Structured(op, maps, (False,) * rank, op.hidden_region.block, 1, tuple(op.result))
    if isinstance(op, ReduceOp):
        rank = _rank(op.input.type)
        dims = set(op.dimensions.get_values())
        kept = tuple(AffineDimExpr(d) for d in range(rank) if d not in dims)
        maps = (AffineMap.identity(rank), AffineMap(rank, 0, kept))
        reduction = tuple(d in dims for d in range(rank))
        return Structured(op, maps, reduction, op.region.block, 1, tuple(op.result))
    assert isinstance(op, LinalgStructuredOperation)
    maps = tuple(m.data for m in op.get_indexing_maps())
    reduction = tuple(it.data == IteratorType.REDUCTION for it in op.get_iterator_types())
    return Structured(op, maps, reduction, op.body.block, len(op.inputs), tuple(op.res))


def _rank(t: Attribute) -> int:
    return len(t.get_shape()) if isinstance(t, ShapedType) else 0


def shape_of(op: Operation, v: SSAValue, what: str) -> tuple[int, ...]:
    t = v.type
    if isinstance(t, MemRefType):
        raise KernelError(op, "only the tensor form runs (this one writes a memref)")
    if not isinstance(t, TensorType):
        return ()
    shape = tuple(cast(TensorType[Attribute], t).get_shape())
    if any(d < 0 for d in shape):
        raise KernelError(op, f"{what} has a dynamic shape ({t}); only static shapes run")
    return shape


def loop_ranges(s: Structured, shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Each loop's extent: the size of the first operand dimension a map reads as
    that loop alone."""
    n = len(s.reduction)
    ranges: list[int | None] = [None] * n
    for m, shape in zip(s.maps, shapes):
        for e, size in zip(m.results, shape):
            if isinstance(e, AffineDimExpr) and ranges[e.position] is None:
                ranges[e.position] = size
    missing = [d for d, r in enumerate(ranges) if r is None]
    if missing:
        raise KernelError(
            s.op, f"loop d{missing[0]} has no extent: no map reads it as a plain dimension"
        )
    return tuple(cast(list[int], ranges))
