"""
`linalg-contraction-in-registers`: an f32 `linalg.generic` that sums products over
one axis into an output whose last axis is contiguous in the output and in the
operand it reads whole rows of, as vector code whose sums stay in registers through
the sum. Attention's `q . k` and `p . v` on the host are such generics: each output
row (a query head's scores over the cached keys, or its values over a head's dims)
is the sum over a cached tensor's rows, each scaled by one element of the other
operand.

```mlir
%r = linalg.generic {indexing_maps = [(h, s, r, g, c) -> (h, g, s, r),   // a: one element
                                      (h, s, r, g, c) -> (s, h, r, c),   // b: a row of c
                                      (h, s, r, g, c) -> (h, g, s, c)],  // out
                     iterator_types = [par, par, red, par, par]}
       ins(%a, %b) outs(%init) { %m = arith.mulf %x, %y   %s = arith.addf %acc, %m }
```
becomes, over buffers of the three tensors and a new one for the result,
```mlir
scf.for %s { scf.for %h {                          // b's other axes, in b's order
  %acc = vector.load %init[%h, %g, %s, %c0] ...    // every g, every 16 columns
  %sums = scf.for %r iter_args(%acc) {
    memref.prefetch %b_flat[row of the next trip of %h], read, locality<3>, data
    %row = vector.load %b[%s, %h, %r, %c0] ...     // the row, 16 columns at a time
    %x = memref.load %a[%h, %g, %s, %r]            // one element for each g
    %acc' = arith.addf %acc, (arith.mulf (vector.broadcast %x), %row)
  }
  vector.store %sums, %out[%h, %g, %s, %c0] ...
}}
```

Why: `convert-linalg-to-loops` makes each output element a load, an add and a store at
every step of the sum (`linalg-contiguous-output-innermost` already runs the
contiguous axis innermost, and the axes the row operand does not read, the query heads
that share a KV head, just outside it), and LLVM keeps those sums in memory: a
function's result is a buffer its caller passes, which may alias the operands. Here
the sums are the loop's values. The row operand's blocks are read in the order they
lie, each step of the sum asking for the same row of the next block into the
first-level cache (`prefetch.L1`), so a cache a decode step reads once streams from
memory (on an AMD EPYC, Zen 5, SmolLM2's attention at 8 sequences took 4.2% of the
step's samples so, 4.7% asking into the last-level cache, 5.7% asking for nothing,
9.5% before this pass: docs/native.md). Each output's terms are added in
the same order, each product and sum rounded as before (the ops and their fastmath
flags are the body's): the same bits.

What is taken: f32 throughout; static shapes; maps that each pick distinct axes;
exactly one reduction axis, read by both inputs and not by the output; the output's
last axis (a parallel one, its extent a nonzero multiple of `dot.LANES`) also the row operand's last and
not the other's; the output reading every parallel axis; a body that is one `mulf`
of the two inputs and one `addf` of it and the output, yielded; at most
`ACCUMULATORS` rows held (the axes the row operand does not read). Where the held
rows' columns come to more than `ACCUMULATORS` vectors, the sum runs once for each
chunk of the columns (`column_chunks`), each run reading its columns of every row: the
scores of 8 sequences at 128 positions or more (3 query heads x 8 vectors a KV head
and sequence) had been left to `convert-linalg-to-loops`. Any other generic is left
as it is.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, bufferization, memref, scf, vector
from xdsl.dialects.builtin import (
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
    UnitAttr,
    VectorType,
    f32,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_spatial.passes.convert_spatial_to_linalg.build import counted, idx, inside, view
from xdsl_spatial.passes.convert_spatial_to_linalg.dot import LANES
from xdsl_spatial.passes.convert_spatial_to_linalg.prefetch import L1, prefetch_row
from xdsl_spatial.passes.spatial_lower_ops.access import row_major

ACCUMULATORS = 16
"""The most vector sums held through a run of the sum (of the 32 AVX-512 registers;
the row's vectors and a broadcast take others): attention at 8 sequences holds 12,
three query heads' 64 scores or values (at 128 positions, two runs of 64 scores)."""


@dataclass(frozen=True)
class Contraction:
    """A generic this pass takes: which input is the row operand (`b`, the other `a`),
    the reduction axis, the output's contiguous axis, the axes the row operand reads
    besides those (`outer`, in its order), and the parallel axes it does not read
    (`held`: their sums are held together)."""

    b: int
    red: int
    col: int
    outer: tuple[int, ...]
    held: tuple[int, ...]


def _axes(op: GenericOp, i: int) -> list[int] | None:
    """The axes operand `i`'s map picks, in order; None unless each is one distinct axis."""
    res = op.indexing_maps.data[i].data.results
    if not all(isinstance(e, AffineDimExpr) for e in res):
        return None
    axes = [cast(AffineDimExpr, e).position for e in res]
    return axes if len(set(axes)) == len(axes) else None


def _is_f32_tensor(v: SSAValue) -> bool:
    t = v.type
    return isinstance(t, TensorType) and t.get_element_type() == f32 and t.has_static_shape()


def contraction(op: GenericOp) -> Contraction | None:
    """What makes `op` one this pass takes (the module docstring lists it), or None."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    if not all(_is_f32_tensor(v) for v in (*op.inputs, *op.outputs)):
        return None
    kinds = [cast(IteratorTypeAttr, t).data for t in op.iterator_types]
    reds = [d for d, k in enumerate(kinds) if k == IteratorType.REDUCTION]
    maps = [_axes(op, i) for i in range(3)]
    if len(reds) != 1 or any(m is None for m in maps):
        return None
    a0, a1, out = cast(list[list[int]], maps)
    (red,) = reds
    pars = [d for d, k in enumerate(kinds) if k == IteratorType.PARALLEL]
    if red in out or sorted(out) != pars or red not in a0 or red not in a1 or not out:
        return None
    col = out[-1]
    b = 0 if a0 and a0[-1] == col else 1 if a1 and a1[-1] == col else -1
    if b < 0 or col in (a1 if b == 0 else a0) or not _body_is_sum_of_products(op):
        return None
    ranges = op.get_static_loop_ranges()
    rows = a0 if b == 0 else a1
    held = tuple(d for d in pars if d not in rows)
    if not ranges[col] or ranges[col] % LANES or math.prod(ranges[d] for d in held) > ACCUMULATORS:
        return None
    outer = tuple(d for d in rows if d not in (red, col))
    return Contraction(b, red, col, outer, held)


def column_chunks(vectors: int, groups: int) -> int:
    """How many of a row's `vectors` column vectors one run of the sum holds for each
    of the `groups` held rows: the most that divides `vectors` with `groups` times it
    at most `ACCUMULATORS` (at least one: `contraction` takes no more groups)."""
    return max(n for n in range(1, vectors + 1) if vectors % n == 0 and groups * n <= ACCUMULATORS)


def _body_is_sum_of_products(op: GenericOp) -> bool:
    """The body is `m = mulf(x, y)` of the two inputs, `s = addf` of `m` and the
    output, `yield s`."""
    ops = list(op.body.block.ops)
    if len(ops) != 3:
        return False
    mul, add, done = ops
    x, y, acc = op.body.block.args
    return (
        isinstance(mul, arith.MulfOp)
        and {mul.lhs, mul.rhs} == {x, y}
        and mul.lhs != mul.rhs
        and isinstance(add, arith.AddfOp)
        and {add.lhs, add.rhs} == {mul.result, acc}
        and isinstance(done, LinalgYieldOp)
        and list(done.operands) == [add.result]
    )


def _buffer(b: Builder, v: SSAValue) -> SSAValue:
    t = cast(TensorType[Attribute], v.type)
    return b.insert(
        bufferization.ToBufferOp.build(
            operands=[v],
            result_types=[MemRefType(f32, t.get_shape())],
            properties={"read_only": UnitAttr()},
        )
    ).memref


def lower(op: GenericOp, c: Contraction, b: Builder) -> SSAValue:
    """`op` as the loops the module docstring shows, inserted by `b`: the result."""
    ranges = op.get_static_loop_ranges()
    mul, add = list(op.body.block.ops)[:2]
    mul, add = cast(arith.MulfOp, mul), cast(arith.AddfOp, add)
    x, y, acc_arg = op.body.block.args
    a_index = 1 - c.b
    mem = [_buffer(b, v) for v in op.inputs]
    init = _buffer(b, op.outputs[0])
    out_t = cast(MemRefType[Attribute], init.type)
    result = b.insert(memref.AllocOp([], [], MemRefType(f32, out_t.get_shape()))).memref
    maps = [cast(list[int], _axes(op, i)) for i in range(3)]
    vec_t = VectorType(f32, (LANES,))
    groups = list(itertools.product(*(range(ranges[d]) for d in c.held)))

    # b's other axes, in the order b lays them out: its blocks are read as they lie
    at: dict[int, SSAValue] = {}
    loops = [b]
    for d in c.outer:
        nested, at[d] = counted(loops[-1], ranges[d])
        loops.append(nested)
    inner = loops[-1]

    def index(bb: Builder, axes: list[int], fixed: dict[int, int]) -> list[SSAValue]:
        return [at[d] if d in at else idx(bb, fixed[d]) for d in axes]

    def out_index(bb: Builder, g: tuple[int, ...], col: int) -> list[SSAValue]:
        return index(bb, maps[2], {**dict(zip(c.held, g)), c.col: col})

    def run(chunk: range, first: bool) -> None:
        """The sum over the reduction axis for the columns `chunk` of every held
        row, its sums carried by the loop, stored into the result after it; the first
        run asks for the next block's rows (whole: every run's)."""
        start = [
            inner.insert(vector.LoadOp(init, out_index(inner, g, col), vec_t)).result
            for g in groups
            for col in chunk
        ]
        ahead = _next_block(inner, mem[c.b], maps[c.b], at, c) if first else None
        blk = Block(arg_types=[IndexType(), *([vec_t] * len(start))])
        zero, end = idx(inner, 0), idx(inner, ranges[c.red])
        loop = inner.insert(scf.ForOp(zero, end, idx(inner, 1), start, blk))
        body = inside(blk)
        at[c.red] = blk.args[0]
        sums = list(blk.args[1:])
        if ahead is not None:
            _prefetch_step(body, ahead, mem[c.b], maps[c.b], at[c.red], c)
        row = [
            body.insert(vector.LoadOp(mem[c.b], index(body, maps[c.b], {c.col: col}), vec_t)).result
            for col in chunk
        ]
        new: list[SSAValue] = []
        for gi, g in enumerate(groups):
            where = index(body, maps[a_index], dict(zip(c.held, g)))
            one = body.insert(memref.LoadOp.get(mem[a_index], where)).res
            every = body.insert(vector.BroadcastOp(one, vec_t)).vector
            for ci, v in enumerate(row):
                # each operand where the body has it: the same rounding, the same flags
                pick: dict[SSAValue, SSAValue] = (
                    {x: every, y: v} if a_index == 0 else {x: v, y: every}
                )
                p = body.insert(arith.MulfOp(pick[mul.lhs], pick[mul.rhs], mul.fastmath)).result
                s = sums[gi * len(row) + ci]
                lhs, rhs = (s, p) if add.lhs == acc_arg else (p, s)
                new.append(body.insert(arith.AddfOp(lhs, rhs, add.fastmath)).result)
        body.insert(scf.YieldOp(*new))
        del at[c.red]
        for k, (g, col) in enumerate(itertools.product(groups, chunk)):
            inner.insert(vector.StoreOp(loop.results[k], result, out_index(inner, g, col)))

    # a run of the sum for each chunk of the columns whose sums the registers hold
    width = column_chunks(ranges[c.col] // LANES, len(groups)) * LANES
    for at_col in range(0, ranges[c.col], width):
        run(range(at_col, at_col + width, LANES), at_col == 0)
    for nested in reversed(loops[1:]):
        nested.insert(scf.YieldOp())
    return b.insert(bufferization.ToTensorOp(result, restrict=True, writable=True)).tensor


def _next_block(
    b: Builder, mem: SSAValue, axes: list[int], at: dict[int, SSAValue], c: Contraction
) -> tuple[SSAValue, SSAValue] | None:
    """The row operand flat, and where its next block starts: the element the next
    trip of the innermost outer loop reads at the sum's first step (its block lies
    next where the outer loops run in the operand's order). None without outer loops."""
    if not c.outer:
        return None
    shape = cast(MemRefType[Attribute], mem.type).get_shape()
    strides = row_major(shape)
    flat = view(b, mem, 0, (math.prod(shape),), (1,))
    start = idx(b, strides[axes.index(c.outer[-1])])
    for d in c.outer:
        term = b.insert(arith.MuliOp(at[d], idx(b, strides[axes.index(d)]))).result
        start = b.insert(arith.AddiOp(start, term)).result
    return flat, start


def _prefetch_step(
    b: Builder,
    ahead: tuple[SSAValue, SSAValue],
    mem: SSAValue,
    axes: list[int],
    step: SSAValue,
    c: Contraction,
) -> None:
    """At step `step` of the sum, the row the next block holds there asked for into
    the first-level cache (`prefetch.prefetch_row`: a line at a time, clamped to the
    operand's last row)."""
    flat, start = ahead
    shape = cast(MemRefType[Attribute], mem.type).get_shape()
    stride = row_major(shape)[axes.index(c.red)]
    offset = b.insert(arith.MuliOp(step, idx(b, stride))).result
    row = b.insert(arith.AddiOp(start, offset)).result
    prefetch_row(b, flat, row, shape[-1], L1)


class ContractionInRegisters(RewritePattern):
    """A sum of products this pass takes (`contraction`) as vector code whose sums are
    the loop's values (the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        c = contraction(op)
        if c is None:
            return
        rewriter.replace(op, [], [lower(op, c, rewriter)])


@dataclass(frozen=True)
class ContractionInRegistersPass(ModulePass):
    """Every f32 sum of products over one axis into rows contiguous in the output and
    in the operand it reads rows of, as vector code holding the sums in registers."""

    name = "linalg-contraction-in-registers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ContractionInRegisters(), apply_recursively=False).rewrite_module(op)
