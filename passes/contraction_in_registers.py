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
second-level cache (`prefetch.L2`), so a cache a decode step reads once streams from
memory. A block (a KV head's rows: 32 KiB of keys at 128 positions) is as large as a
first-level cache, so what is asked for a block ahead does not stay there: on an AMD
EPYC Zen 4 (32 KiB), SmolLM2's scores and `p . v` at 8 sequences and 128 positions
took 12.5-13.0% of the step's samples asking into the first level, 13.7% asking for
nothing, 8.8-9.1% into the second and 8.7% into the last (on a Zen 5, 48 KiB, at 64
positions: 4.2% into the first level, 4.7% into the last, 5.7% asking for nothing,
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

A masked sum is taken too: a third input (a batched step's positions, one a row)
and the body `out + select(ok, mulf(x, y), +0.0)`, where `ok` is computed from that
input, `linalg.index` and constants alone (`masked_sum`), reads the third input only
at the loops around the sum, and does not vary along the held axes, nor along both
the sum and the columns. `ok` is cloned where it is needed, so the rule lives in the
body alone:

- varying along the sum (`p . v`, the position is the sum's axis): each step is an
  `scf.if ok`, whose other branch loads nothing and notes that it was skipped; the
  +0.0 the body adds to each sum at such a step is added once after the loop, where
  a step was skipped (x + 0.0 is x but for -0.0, which it makes +0.0, and a sum that
  has been so is -0.0 no more: the same bits);
- else (the scores, the position is the output's columns): the sum runs once for
  each vector of the columns; a run none of whose columns `ok` holds is not run
  (each sum is its initial value plus +0.0), and after a run each column `ok` does
  not hold is written so, an element at a time; each run asks for its own columns
  of the next block's rows, not the whole rows.

So a step of many sequences reads each cache only up to its sequence's position,
however many positions the cache holds, with the bits of the generic's own loop
(`tests/test_contraction_in_registers.py`: a cache holding NaN past every position).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, bufferization, memref, scf, vector
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    UnitAttr,
    VectorType,
    f32,
    i1,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
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
from xdsl_spatial.passes.convert_spatial_to_linalg.prefetch import L2, prefetch_row
from xdsl_spatial.passes.spatial_lower_ops.access import row_major
from xdsl_spatial.passes.spatial_lower_ops.spec import masked_term

ACCUMULATORS = 16
"""The most vector sums held through a run of the sum (of the 32 AVX-512 registers;
the row's vectors and a broadcast take others): attention at 8 sequences holds 12,
three query heads' 64 scores or values (at 128 positions, two runs of 64 scores)."""


@dataclass(frozen=True)
class Contraction:
    """A generic this pass takes: which input is the row operand (`b`, the other `a`),
    the reduction axis, the output's contiguous axis, the axes the row operand reads
    besides those (`outer`, in its order), and the parallel axes it does not read
    (`held`: their sums are held together). A masked sum's `ok` and the body's ops
    that compute it (`masked_sum`); None for a plain one."""

    b: int
    red: int
    col: int
    outer: tuple[int, ...]
    held: tuple[int, ...]
    ok: SSAValue | None = None
    mask_ops: frozenset[Operation] = frozenset()
    on_red: bool = False
    """The mask varies along the sum (else along the columns, or neither)."""


def axes_of(op: GenericOp, i: int) -> list[int] | None:
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
    if len(op.inputs) not in (2, 3) or len(op.outputs) != 1 or len(op.results) != 1:
        return None
    if not all(_is_f32_tensor(v) for v in (*op.inputs[:2], *op.outputs)):
        return None
    mask = None
    if len(op.inputs) == 3:
        guard = cast(TensorType[Attribute], op.inputs[2].type)
        if not guard.has_static_shape() or (mask := masked_sum(op)) is None:
            return None
    kinds = [cast(IteratorTypeAttr, t).data for t in op.iterator_types]
    reds = [d for d, k in enumerate(kinds) if k == IteratorType.REDUCTION]
    maps = [axes_of(op, i) for i in range(len(op.operands))]
    if len(reds) != 1 or any(m is None for m in maps):
        return None
    a0, a1, out = (cast(list[int], m) for m in (maps[0], maps[1], maps[-1]))
    (red,) = reds
    pars = [d for d, k in enumerate(kinds) if k == IteratorType.PARALLEL]
    if red in out or sorted(out) != pars or red not in a0 or red not in a1 or not out:
        return None
    col = out[-1]
    b = 0 if a0 and a0[-1] == col else 1 if a1 and a1[-1] == col else -1
    if b < 0 or col in (a1 if b == 0 else a0):
        return None
    if mask is None and not _body_is_sum_of_products(op):
        return None
    ranges = op.get_static_loop_ranges()
    rows = a0 if b == 0 else a1
    held = tuple(d for d in pars if d not in rows)
    if not ranges[col] or ranges[col] % LANES or math.prod(ranges[d] for d in held) > ACCUMULATORS:
        return None
    outer = tuple(d for d in rows if d not in (red, col))
    if mask is not None:
        # the mask: one value a block of the row operand (its position), read where
        # the loops around the sum have their indices, at one step of the sum or for
        # a run's columns, the same for every held row
        ok, ops = mask
        read = set(cast(list[int], maps[2]))
        axes = read | {o.dim.value.data for o in ops if isinstance(o, IndexOp)}
        if not read <= set(outer) or axes & set(held):
            return None
        if {red, col} <= axes:
            return None
        return Contraction(b, red, col, outer, held, ok, ops, red in axes)
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


def masked_sum(op: GenericOp) -> tuple[SSAValue, frozenset[Operation]] | None:
    """`ok` of a body `s = addf(out, select(ok, mulf(x, y), +0.0))`, `yield s`, of
    the first two inputs `x`, `y`, whose other ops compute `ok` alone from the third
    input, `linalg.index` and constants (a batched step's attention: whether a row
    sees the key), and those ops; else None."""
    ops = list(op.body.block.ops)
    x, y, _, acc = op.body.block.args
    done = ops[-1]
    if not (isinstance(done, LinalgYieldOp) and len(done.operands) == 1):
        return None
    add = done.operands[0].owner
    if not (isinstance(add, arith.AddfOp) and acc in (add.lhs, add.rhs)):
        return None
    pick = add.rhs if add.lhs == acc else add.lhs
    if (masked := masked_term(pick)) is None:
        return None
    ok, term = masked
    sel, mul = cast(arith.SelectOp, pick.owner), term.owner
    if not (isinstance(mul, arith.MulfOp) and {mul.lhs, mul.rhs} == {x, y} and x != y):
        return None
    if any(len(tuple(v.uses)) != 1 for v in (mul.result, sel.result, add.result)):
        return None
    rest = {o for o in ops if o not in (mul, sel, add, done, sel.rhs.owner)}
    found = computed_from(ok, op, {2})
    return (ok, frozenset(found)) if found is not None and found == rest else None


def computed_from(ok: SSAValue, op: GenericOp, inputs: set[int]) -> set[Operation] | None:
    """The body's ops `ok` is computed by; None unless each is a `linalg.index`, a
    constant or an `arith` op without regions, and every value they read is one of
    theirs, the block argument of one of the `inputs` or defined outside the body."""
    body = op.body.block
    seen: set[Operation] = set()
    todo = [ok]
    while todo:
        v = todo.pop()
        if isinstance(v, BlockArgument):
            if v.owner is body and v.index not in inputs:
                return None
            continue
        o = cast(Operation, v.owner)
        if o.parent is not body or o in seen:
            continue
        if not isinstance(o, IndexOp) and (o.dialect_name() != "arith" or o.regions):
            return None
        seen.add(o)
        todo.extend(o.operands)
    return seen


def read_only_buffer(b: Builder, v: SSAValue) -> SSAValue:
    t = cast(TensorType[Attribute], v.type)
    return b.insert(
        bufferization.ToBufferOp.build(
            operands=[v],
            result_types=[MemRefType(t.get_element_type(), t.get_shape())],
            properties={"read_only": UnitAttr()},
        )
    ).memref


def lower(op: GenericOp, c: Contraction, b: Builder) -> SSAValue:
    """`op` as the loops the module docstring shows, inserted by `b`: the result."""
    ranges = op.get_static_loop_ranges()
    args = op.body.block.args
    x, y, acc_arg = args[0], args[1], args[-1]
    add = cast(arith.AddfOp, cast(LinalgYieldOp, op.body.block.last_op).operands[0].owner)
    term = add.rhs if add.lhs == acc_arg else add.lhs
    if c.ok is not None:
        term = cast(arith.SelectOp, term.owner).lhs
    mul = cast(arith.MulfOp, term.owner)
    a_index = 1 - c.b
    mem = [read_only_buffer(b, v) for v in op.inputs]
    init = read_only_buffer(b, op.outputs[0])
    out_t = cast(MemRefType[Attribute], init.type)
    result = b.insert(memref.AllocOp([], [], MemRefType(f32, out_t.get_shape()))).memref
    maps = [cast(list[int], axes_of(op, i)) for i in range(len(op.operands))]
    vec_t = VectorType(f32, (LANES,))
    groups = list(itertools.product(*(range(ranges[d]) for d in c.held)))
    col_chunked = c.ok is not None and not c.on_red
    mask = (cast(SSAValue, c.ok), c.mask_ops)  # read only when the sum is masked
    # what the body adds for a term the row does not see (a plain sum reads neither)
    zero = zero_one = acc_arg
    if c.ok is not None:
        zero = b.insert(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(vec_t, [0.0]))).result
        zero_one = b.insert(arith.ConstantOp(FloatAttr(0.0, f32))).result

    def plus(bb: Builder, s: SSAValue, p: SSAValue) -> SSAValue:
        """The body's add of a sum and a term: its operand order, its flags."""
        lhs, rhs = (s, p) if add.lhs == acc_arg else (p, s)
        return bb.insert(arith.AddfOp(lhs, rhs, add.fastmath)).result

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
        return index(bb, maps[-1], {**dict(zip(c.held, g)), c.col: col})

    def run(chunk: range, first: bool) -> None:
        """The sum over the reduction axis for the columns `chunk` of every held
        row, its sums carried by the loop, stored into the result after it; the first
        run asks for the next block's rows (whole: every run's). Masked along the
        columns, the run is skipped where the row sees none of its columns (each sum
        its initial value plus +0.0, as the body adds), a column it does not see is
        so overwritten after it, and the run asks for its own columns of the next
        block."""
        where = inner
        if col_chunked:
            then, skipped = Block(), Block()
            lo, hi = chunk.start, chunk.start + len(chunk) * LANES
            seen = seen_along(op, inner, at, mem, mask, c.col, lo, hi)
            inner.insert(scf.IfOp(seen, [], [then], [skipped]))
            other = inside(skipped)
            for g in groups:
                for col in chunk:
                    v = other.insert(vector.LoadOp(init, out_index(other, g, col), vec_t)).result
                    other.insert(
                        vector.StoreOp(plus(other, v, zero), result, out_index(other, g, col))
                    )
            other.insert(scf.YieldOp())
            where = inside(then)
        start = [
            where.insert(vector.LoadOp(init, out_index(where, g, col), vec_t)).result
            for g in groups
            for col in chunk
        ]
        asks = first or col_chunked
        ahead = _next_block(where, mem[c.b], maps[c.b], at, c) if asks else None
        columns = (chunk.start, len(chunk) * LANES) if col_chunked else None
        # masked along the sum, the loop also carries whether it skipped a step
        flags = [where.insert(arith.ConstantOp(IntegerAttr(0, i1))).result] if c.on_red else []
        blk = Block(arg_types=[IndexType(), *([vec_t] * len(start)), *([i1] * len(flags))])
        zero_i, end = idx(where, 0), idx(where, ranges[c.red])
        loop = where.insert(scf.ForOp(zero_i, end, idx(where, 1), [*start, *flags], blk))
        body = inside(blk)
        at[c.red] = blk.args[0]
        sums = list(blk.args[1 : 1 + len(start)])
        skipped_any = list(blk.args[1 + len(start) :])
        work, seen_here = body, None
        if c.on_red:
            # masked along the sum: a step whose key is not seen reads nothing; the
            # body adds +0.0 to each sum there, which the loop adds once after it
            # (x + 0.0 is x but for -0.0, which it makes +0.0, and once a sum has
            # been so it is a -0.0 no more: the same bits however many such steps)
            then, skipped = Block(), Block()
            ok = cloned_at(op, body, at, mem, *mask)
            result_types = [vec_t] * len(sums) + [i1]
            seen_here = body.insert(scf.IfOp(ok, result_types, [then], [skipped]))
            other = inside(skipped)
            yes = other.insert(arith.ConstantOp(IntegerAttr(1, i1))).result
            other.insert(scf.YieldOp(*sums, yes))
            work = inside(then)
        if ahead is not None:
            _prefetch_step(work, ahead, mem[c.b], maps[c.b], at[c.red], c, columns)
        row = [
            work.insert(vector.LoadOp(mem[c.b], index(work, maps[c.b], {c.col: col}), vec_t)).result
            for col in chunk
        ]
        new: list[SSAValue] = []
        for gi, g in enumerate(groups):
            where_a = index(work, maps[a_index], dict(zip(c.held, g)))
            one = work.insert(memref.LoadOp.get(mem[a_index], where_a)).res
            every = work.insert(vector.BroadcastOp(one, vec_t)).vector
            for ci, v in enumerate(row):
                # each operand where the body has it: the same rounding, the same flags
                pick: dict[SSAValue, SSAValue] = (
                    {x: every, y: v} if a_index == 0 else {x: v, y: every}
                )
                p = work.insert(arith.MulfOp(pick[mul.lhs], pick[mul.rhs], mul.fastmath)).result
                new.append(plus(work, sums[gi * len(row) + ci], p))
        work.insert(scf.YieldOp(*new, *skipped_any))
        if seen_here is not None:
            body.insert(scf.YieldOp(*seen_here.results))
        del at[c.red]
        done = list(loop.results[: len(start)])
        if c.on_red:
            flag = loop.results[-1]
            done = [
                where.insert(arith.SelectOp(flag, plus(where, s, zero), s)).result for s in done
            ]
        for k, (g, col) in enumerate(itertools.product(groups, chunk)):
            where.insert(vector.StoreOp(done[k], result, out_index(where, g, col)))
        if col_chunked:
            # a column the row does not see: its initial value plus +0.0
            cols, at[c.col] = counted(where, len(chunk) * LANES, chunk.start)
            then, unseen = Block(), Block()
            ok = cloned_at(op, cols, at, mem, *mask)
            cols.insert(scf.IfOp(ok, [], [then], [unseen]))
            inside(then).insert(scf.YieldOp())
            fix = inside(unseen)
            for g in groups:
                here = index(fix, maps[-1], dict(zip(c.held, g)))
                v = fix.insert(memref.LoadOp.get(init, here)).res
                fix.insert(memref.StoreOp.get(plus(fix, v, zero_one), result, here))
            fix.insert(scf.YieldOp())
            cols.insert(scf.YieldOp())
            del at[c.col]
            where.insert(scf.YieldOp())

    # a run of the sum for each chunk of the columns whose sums the registers hold
    # (masked along the columns, a vector of them a run: only the vectors a row sees
    # are read, SmolLM2's step of 8 at 256 positions 1.06x faster than at 4 a run)
    width = LANES if col_chunked else column_chunks(ranges[c.col] // LANES, len(groups)) * LANES
    for at_col in range(0, ranges[c.col], width):
        run(range(at_col, at_col + width, LANES), at_col == 0)
    for nested in reversed(loops[1:]):
        nested.insert(scf.YieldOp())
    return b.insert(bufferization.ToTensorOp(result, restrict=True, writable=True)).tensor


def seen_along(
    op: GenericOp,
    b: Builder,
    at: dict[int, SSAValue],
    mem: Sequence[SSAValue],
    mask: tuple[SSAValue, frozenset[Operation]],
    axis: int,
    first: SSAValue | int,
    end: SSAValue | int,
) -> SSAValue:
    """Whether `ok` (`mask`: it and the body's ops that compute it) holds at any of
    loop `axis`'s `first`, ..., `end - 1`, the other loops at `at`: an `scf.for`
    carrying the answer."""
    blk = Block(arg_types=[IndexType(), i1])
    no = b.insert(arith.ConstantOp(IntegerAttr(0, i1))).result
    lo, hi = (v if isinstance(v, SSAValue) else idx(b, v) for v in (first, end))
    loop = b.insert(scf.ForOp(lo, hi, idx(b, 1), [no], blk))
    body = inside(blk)
    ok = cloned_at(op, body, {**at, axis: blk.args[0]}, mem, *mask)
    body.insert(scf.YieldOp(body.insert(arith.OrIOp(blk.args[1], ok)).result))
    return loop.results[0]


def cloned_at(
    op: GenericOp,
    b: Builder,
    at: Mapping[int, SSAValue],
    mem: Sequence[SSAValue],
    wanted: SSAValue,
    ops: frozenset[Operation] | None = None,
) -> SSAValue:
    """`wanted`, a value of `op`'s body, computed by `b` where the loops are at `at`
    (loop -> index): the body's ops (only `ops`, if given) cloned with their flags,
    each input they read loaded from its buffer in `mem` where its map says."""
    body = op.body.block
    values: dict[SSAValue, SSAValue] = {}
    for i, arg in enumerate(body.args[: len(op.inputs)]):
        if any(ops is None or u.operation in ops for u in arg.uses):
            where = [at[d] for d in cast(list[int], axes_of(op, i))]
            values[arg] = b.insert(memref.LoadOp.get(mem[i], where)).res
    for o in body.ops:
        if isinstance(o, LinalgYieldOp) or (ops is not None and o not in ops):
            continue
        if isinstance(o, IndexOp):
            values[o.result] = at[o.dim.value.data]
            continue
        new = b.insert(o.clone(value_mapper=values))
        values.update(zip(o.results, new.results))
    return values.get(wanted, wanted)


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
    columns: tuple[int, int] | None,
) -> None:
    """At step `step` of the sum, the row the next block holds there asked for into
    the second-level cache (`prefetch.prefetch_row`: a line at a time, clamped to the
    operand's last row); with `columns` (first, count), only those of it."""
    flat, start = ahead
    shape = cast(MemRefType[Attribute], mem.type).get_shape()
    stride = row_major(shape)[axes.index(c.red)]
    first, count = columns if columns is not None else (0, shape[-1])
    offset = b.insert(arith.MuliOp(step, idx(b, stride))).result
    row = b.insert(arith.AddiOp(start, offset)).result
    if first:
        row = b.insert(arith.AddiOp(row, idx(b, first))).result
    prefetch_row(b, flat, row, count, L2)


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
