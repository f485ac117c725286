"""
Kernels of `linalg` on tensors beyond `dense.py`'s fill and matmul: `linalg.generic`,
`linalg.transpose`, `linalg.broadcast`, `linalg.reduce`, `linalg.copy` and xDSL's named
elementwise ops (`linalg.add`, `sub`, `mul`, `exp`, `log`, `sqrt`, `max`, `min`,
`select`).

Every one of them is a *structured op*: loops, one indexing map per operand, and a
body that computes one output element from one element of each operand. The kernel
runs the body once, over the whole iteration space:

- each input is read through its map as an array over the loops, with a size-1 axis
  for every loop the map does not use: a view for a projected permutation
  (transposes, broadcasts, constant indices), a row gather (`np.take`) for a result
  of one loop such as `d0 floordiv 32` or `d1 mod 8`, fancy indexing for anything else
  whose results evaluate to integer index arrays (`d0 + d1`);
- every body op runs through its own kernel (`kernels.prepare`) on those arrays;
  `linalg.index` is an `arange` along its loop, `tensor.extract` a gather;
- each output takes the yielded value. With reduction loops, the body must read its
  output argument only as the one operand of a combining op (`addf`/`addi`: sum,
  `mulf`/`muli`: product, `maximumf`, `maxnumf`, `minimumf`, `minnumf`, `maxsi`,
  `minsi`, `maxui`, `minui`, `andi`, `ori`, `xori`); the other operand is reduced over
  the reduction loops and combined once with the initial output. An output that keeps
  the index of another's maximum (`select(cmpf ogt(v, max), index, out)`, torch's `max`
  with its index) is that maximum's first position along its one reduction loop. A
  sum of products
  (`out + a * b * ...`) is a contraction: factors that depend on fewer loops are
  multiplied into the others, and two factors left are one batched BLAS matmul
  (more, `np.einsum`), so the product over the whole space is never made.

Precision: body ops compute as their kernels do (bf16 and f16 in fp32, rounded once
per op). A reduction accumulates in fp32 for f32, f16 and bf16 (fp64 for f64, wrapping
int64 for integers) and rounds once, when combined with the initial output; the
products of a contraction are fp32 products of the factors. Sums are not in loop
order (numpy's pairwise sums, BLAS's blocking): within the fp32 summation bound of
the sequential sum, not equal to it bit for bit.

Refused at prepare time, with a `KernelError` naming the op and the reason: memref
operands, dynamic shapes, symbols in maps, an index a map reaches outside its
operand, a body op that is not elementwise (or has regions), a reduction whose body
reads its output other than as a combiner's operand, an output map that is not a
permutation of the parallel loops (a size-1 axis may be indexed by the constant 0, as
a `keepdim` reduction writes), and a body value that would span more than
`MAX_SPACE_ELEMENTS` elements of the iteration space. Nothing runs element by
element.

A body may use values defined outside the op: a constant is read when the kernel is
prepared; anything else (`tensor.extract %table[%i, %j]` of a table that is a
function argument) the kernel takes after its operands, in the order
`kernels.captured_values(op)` gives.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import (
    AddOp,
    BroadcastOp,
    CopyOp,
    ExpOp,
    GenericOp,
    IndexOp,
    LogOp,
    MaxOp,
    MinOp,
    MulOp,
    ReduceOp,
    SelectOp,
    SqrtOp,
    SubOp,
    TransposeOp,
    YieldOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from xdsl_spatial.dialects.linalg_extra import ResultsGenericOp
from xdsl_spatial.interpreters.kernels import (
    Kernel,
    KernelError,
    captured_values,
    kernel,
    prepare,
)
from xdsl_spatial.interpreters.values import numpy_dtype

MAX_SPACE_ELEMENTS = 1 << 26
"""The most elements a value computed in a body may span (64 Mi: 256 MiB of fp32)."""

# --------------------------------------------------------------------------------------
# What a structured op is
# --------------------------------------------------------------------------------------


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


def _structured(op: Operation) -> Structured:
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


def _shape_of(op: Operation, v: SSAValue, what: str) -> tuple[int, ...]:
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


# --------------------------------------------------------------------------------------
# Reading an operand through its map
# --------------------------------------------------------------------------------------

Reader = Callable[[Any], Any]


def _loop_grids(ranges: Sequence[int]) -> list[np.ndarray]:
    """Each loop's indices, shaped to broadcast over the iteration space."""
    n = len(ranges)
    return [
        np.arange(r, dtype=np.int64).reshape([r if i == d else 1 for i in range(n)])
        for d, r in enumerate(ranges)
    ]


def eval_expr(e: AffineExpr, dims: Sequence[Any]) -> Any:
    """An affine expression over integer arrays (or ints) for its dimensions."""
    if isinstance(e, AffineDimExpr):
        return dims[e.position]
    if isinstance(e, AffineConstantExpr):
        return e.value
    if isinstance(e, AffineBinaryOpExpr):
        lhs, rhs = eval_expr(e.lhs, dims), eval_expr(e.rhs, dims)
        match e.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
            case AffineBinaryOpKind.Mod:
                return np.mod(lhs, rhs)
            case AffineBinaryOpKind.FloorDiv:
                return np.floor_divide(lhs, rhs)
            case AffineBinaryOpKind.CeilDiv:
                return -np.floor_divide(np.negative(lhs), rhs)
    raise ValueError(f"cannot evaluate the affine expression {e}")


def _divisors_nonzero(e: AffineExpr) -> bool:
    """Whether every mod/floordiv/ceildiv in `e` divides by a positive constant."""
    for sub in e.dfs():
        if (
            isinstance(sub, AffineBinaryOpExpr)
            and sub.kind
            in (
                AffineBinaryOpKind.Mod,
                AffineBinaryOpKind.FloorDiv,
                AffineBinaryOpKind.CeilDiv,
            )
            and not (isinstance(sub.rhs, AffineConstantExpr) and sub.rhs.value > 0)
        ):
            return False
    return True


def make_reader(
    op: Operation, index: int, m: AffineMap, shape: tuple[int, ...], ranges: Sequence[int]
) -> Reader:
    """A function from operand `index`'s value to its elements over the iteration
    space (an array of one axis per loop, size 1 where the map does not use the loop)."""
    n = len(ranges)
    if not shape:
        if m.results:
            raise KernelError(op, f"operand #{index} is a scalar but its map has results")
        return lambda a: np.asarray(a)[()] if isinstance(a, np.ndarray) else a
    if m.num_symbols:
        raise KernelError(op, f"the map of operand #{index} has symbols: {m}")
    empty = any(r == 0 for r in ranges)
    kinds: list[tuple[str, Any]] = []
    for e in m.results:
        if not _divisors_nonzero(e):
            raise KernelError(
                op, f"the map of operand #{index} divides by a non-constant or zero: {m}"
            )
        if isinstance(e, AffineDimExpr):
            kinds.append(("dim", e.position))
        elif isinstance(e, AffineConstantExpr):
            kinds.append(("const", e.value))
        else:
            used = sorted(e.used_dims())
            if len(used) == 1:
                d = used[0]
                idx = np.asarray(eval_expr(e, [np.arange(ranges[d], dtype=np.int64)] * n))
                kinds.append(("take", (d, np.broadcast_to(idx, (ranges[d],)).copy())))
            else:
                kinds.append(("gather", e))
    # Every index the map reaches lies inside the operand.
    if not empty:
        grids = _loop_grids(ranges)
        for j, (e, size) in enumerate(zip(m.results, shape)):
            v = np.asarray(eval_expr(e, grids))
            lo, hi = int(v.min()), int(v.max())
            if lo < 0 or hi >= size:
                raise KernelError(
                    op,
                    f"the map of operand #{index} ({m}) reaches index {lo if lo < 0 else hi} "
                    f"of its dimension {j}, of size {size}",
                )
    dims_after = [x for k, x in kinds if k == "dim"] + [x[0] for k, x in kinds if k == "take"]
    if any(k == "gather" for k, _ in kinds) or len(set(dims_after)) != len(dims_after):
        return _gather_reader(m, ranges)
    return _view_reader(kinds, n)


def _view_reader(kinds: list[tuple[str, Any]], n: int) -> Reader:
    """Constant indices, then row gathers, then a transpose and new size-1 axes: a
    view of the operand unless a row gather copies."""
    const_index = tuple(x if k == "const" else slice(None) for k, x in kinds)
    has_const = any(k == "const" for k, _ in kinds)
    kept = [(k, x) for k, x in kinds if k != "const"]
    takes = [(ax, x[1]) for ax, (k, x) in enumerate(kept) if k == "take"]
    dims = [x if k == "dim" else x[0] for k, x in kept]
    perm = tuple(sorted(range(len(dims)), key=lambda i: dims[i]))
    identity = perm == tuple(range(len(dims)))
    expand = tuple(slice(None) if d in dims else None for d in range(n))
    plain = identity and len(dims) == n and not takes and not has_const

    def read(a: Any) -> Any:
        if plain:
            return a
        if has_const:
            a = a[const_index]
        for ax, idx in takes:
            a = np.take(a, idx, axis=ax)
        if not identity:
            a = a.transpose(perm)
        return a[expand]

    return read


def _gather_reader(m: AffineMap, ranges: Sequence[int]) -> Reader:
    """Fancy indexing with one broadcast index array per map result."""
    grids = _loop_grids(ranges)
    n = len(ranges)
    index = tuple(np.asarray(eval_expr(e, grids), dtype=np.intp) for e in m.results)
    if n and all(i.ndim == 0 for i in index):
        index = tuple(i.reshape((1,) * n) for i in index)
    return lambda a: a[index]


# --------------------------------------------------------------------------------------
# The body
# --------------------------------------------------------------------------------------

_BODY_TYPES = (tensor.ExtractOp, IndexOp)
"""Body ops besides `arith` and `math` ones (which are all elementwise)."""

_SUM = (arith.AddfOp, arith.AddiOp)
_COMBINERS: dict[type[Operation], Any] = {
    arith.AddfOp: np.add,
    arith.AddiOp: np.add,
    arith.MulfOp: np.multiply,
    arith.MuliOp: np.multiply,
    arith.MaximumfOp: np.maximum,
    arith.MinimumfOp: np.minimum,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
    arith.MaxSIOp: np.maximum,
    arith.MinSIOp: np.minimum,
    arith.MaxUIOp: np.maximum,
    arith.MinUIOp: np.minimum,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
}
"""Ops a reduction may combine its output with, and the numpy reduction of each."""
_UNSIGNED = (arith.MaxUIOp, arith.MinUIOp)


def _compute_dtype(t: Attribute) -> np.dtype[Any]:
    """What a reduction accumulates in for element type `t`."""
    dt = numpy_dtype(t)
    if dt == np.float64:
        return dt
    if isinstance(t, AnyFloat):
        return np.dtype(np.float32)
    return np.dtype(np.int64) if dt.kind in "iu" else dt


@dataclass
class _Step:
    kernel: Kernel
    ins: tuple[int, ...]
    out: int
    """The slot of the first result."""


@dataclass(frozen=True)
class _Group:
    """Factors of a sum of products multiplied together before the sum."""

    slots: tuple[int, ...]
    dims: tuple[int, ...]
    """The loops it spans."""
    alone: tuple[int, ...]
    """Its axes (positions in `dims`) along reduction loops no other group spans:
    summed in the group first."""
    kept: tuple[int, ...]
    """Its loops after that sum."""


@dataclass(frozen=True)
class _Reduce:
    """An output over reduction loops: `combine(out, reduce(f))`. Everything about
    the loops is decided when the kernel is prepared; a call only computes."""

    combine: Kernel
    out_first: bool
    """The output is the combiner's first operand."""
    fn: Any
    """numpy's reduction ufunc."""
    groups: tuple[_Group, ...]
    """Factors of a sum or product; a single group of one slot is a plain reduction
    of that value."""
    acc: np.dtype[Any]
    unsigned: np.dtype[Any] | None
    n: int
    """Loops of the iteration space."""
    red_axes: tuple[int, ...]
    """The reduction loops."""
    empty: bool
    """A reduction loop has no iterations: the output is its initial value."""
    full_shape: tuple[int, ...]
    """A plain reduction's value over every loop (broadcast where it does not vary)."""
    scale: int
    """Times each product is added: the trips of reduction loops no group spans."""
    axes: tuple[int, ...]
    """One group: its axes summed after the groups' own sums."""
    spec: str | None
    """More than two groups: the einsum."""
    vdims: tuple[int, ...]
    """The loops of the summed value, in the order the sum leaves them."""
    perm: tuple[int, ...]
    """From that order to loop order."""
    expand: tuple[Any, ...]
    """Size-1 axes for the loops the value does not span."""


def _plan_reduce(
    combine: Kernel,
    out_first: bool,
    fn: Any,
    groups: Sequence[tuple[list[int], tuple[int, ...]]],
    acc: np.dtype[Any],
    unsigned: np.dtype[Any] | None,
    ranges: Sequence[int],
    reduction: Sequence[bool],
) -> _Reduce:
    """The reduction of `groups` over `ranges`, every decision about its loops made now."""
    n = len(ranges)
    red_axes = tuple(d for d in range(n) if reduction[d])
    red = set(red_axes)
    planned: list[_Group] = []
    for i, (slots, dims) in enumerate(groups):
        others = {d for k, (_, ds) in enumerate(groups) if k != i for d in ds}
        alone = tuple(a for a, d in enumerate(dims) if d in red and d not in others)
        kept = tuple(d for d in dims if d not in red or d in others)
        planned.append(_Group(tuple(slots), tuple(dims), alone if fn is np.add else (), kept))
    # A reduction loop no group spans adds the same product that many times.
    scale = math.prod(ranges[d] for d in red if not any(d in g.dims for g in planned))
    axes: tuple[int, ...] = ()
    spec = None
    if len(planned) == 1:
        kept = planned[0].kept
        axes = tuple(a for a, d in enumerate(kept) if d in red)
        vdims = tuple(d for d in kept if d not in red)
    elif len(planned) == 2:
        (da, db) = (list(g.kept) for g in planned)
        batch = [d for d in da if d in db and d not in red]
        vdims = tuple(batch + [d for d in da if d not in db] + [d for d in db if d not in da])
    else:
        letters = {d: chr(ord("a") + d) for d in range(n)}
        vdims = tuple(sorted({d for g in planned for d in g.kept if d not in red}))
        spec = ",".join("".join(letters[d] for d in g.kept) for g in planned)
        spec += "->" + "".join(letters[d] for d in vdims)
    perm = tuple(sorted(range(len(vdims)), key=lambda i: vdims[i]))
    expand = tuple(slice(None) if d in vdims else None for d in range(n))
    return _Reduce(
        combine,
        out_first,
        fn,
        tuple(planned),
        acc,
        unsigned,
        n,
        red_axes,
        any(ranges[d] == 0 for d in red_axes),
        tuple(ranges[d] if d in red else 1 for d in range(n)),
        scale,
        axes,
        spec,
        vdims,
        perm,
        expand,
    )


@dataclass(frozen=True)
class _ArgReduce:
    """An output that keeps the index where another output's maximum was first
    reached (torch-mlir's `max` with its index): `select(cmpf ogt(v, max), index, out)`
    beside `max = maximumf(max, v)`, over one reduction loop."""

    value: int
    """The slot of the value maximised."""
    of: int
    """The output holding the running maximum."""
    loop: int
    """The reduction loop whose index is kept."""
    full_shape: tuple[int, ...]
    """The iteration space's extents."""


@dataclass(frozen=True)
class _Output:
    slot: int | None
    """The yielded value's slot (parallel outputs)."""
    reduce: _Reduce | _ArgReduce | None
    dims: tuple[int, ...]
    """The loop of each output axis."""
    dtype: np.dtype[Any]
    n: int
    """Loops of the iteration space."""
    select: tuple[Any, ...]
    """From a value over every loop, the parallel ones (index 0 along the others)."""
    over_parallel: tuple[int, ...]
    """The parallel loops' extents."""
    order: tuple[int, ...] | None
    """From the parallel loops to the output's axes (None: the same order)."""
    shape: tuple[int, ...]
    """The output tensor's shape."""


def _output(
    slot: int | None,
    reduce: _Reduce | _ArgReduce | None,
    dims: tuple[int, ...],
    dtype: np.dtype[Any],
    ranges: Sequence[int],
    reduction: Sequence[bool],
    shape: tuple[int, ...],
) -> _Output:
    n = len(ranges)
    parallel = tuple(d for d in range(n) if not reduction[d])
    order = tuple(parallel.index(d) for d in dims)
    return _Output(
        slot,
        reduce,
        dims,
        dtype,
        n,
        tuple(slice(None) if d in parallel else 0 for d in range(n)),
        tuple(ranges[d] for d in parallel),
        None if order == tuple(range(len(order))) else order,
        shape,
    )


def _deps(
    s: Structured, body_ops: Sequence[Operation], captures: Sequence[SSAValue]
) -> dict[SSAValue, frozenset[int]]:
    """The loops each body value depends on."""
    deps: dict[SSAValue, frozenset[int]] = {}
    for i, a in enumerate(s.body.args):
        deps[a] = frozenset(s.maps[i].used_dims()) if i < len(s.maps) else frozenset()
    for v in captures:
        deps[v] = frozenset()
    for op in body_ops:
        for v in op.operands:
            if isinstance(v.owner, arith.ConstantOp) and v not in deps:
                deps[v] = frozenset()
        if any(v not in deps for v in op.operands):
            break
        if isinstance(op, IndexOp):
            d: frozenset[int] = frozenset({op.dim.value.data})
        elif isinstance(op, tensor.ExtractOp):
            d = frozenset().union(*(deps[v] for v in op.indices))
        else:
            d = frozenset().union(*(deps[v] for v in op.operands))
        for r in op.results:
            deps[r] = d
    return deps


def _factors(v: SSAValue, product: type[Operation], body: Block, top: bool) -> list[SSAValue]:
    """The factors of a product tree rooted at `v`: through the top multiply, and
    through inner multiplies of the same kind whose rounding the fp32 product keeps
    (f32, f64, integers) and whose value has no other use."""
    op = v.owner
    if not (isinstance(op, product) and op.parent is body):
        return [v]
    if not top:
        t = v.type
        if not v.has_one_use() or not (isinstance(t, IntegerType) or numpy_dtype(t).itemsize >= 4):
            return [v]
    return [f for o in op.operands for f in _factors(o, product, body, False)]


def _groups(
    factors: Sequence[SSAValue],
    deps: dict[SSAValue, frozenset[int]],
    slot: dict[SSAValue, int],
) -> list[tuple[list[int], tuple[int, ...]]]:
    """Factors merged into groups: one whose loops are a subset of another's is
    multiplied into it (that costs no more than the larger factor)."""
    groups: list[tuple[list[int], frozenset[int]]] = [([slot[f]], deps[f]) for f in factors]
    merged = True
    while merged and len(groups) > 1:
        merged = False
        for i, (si, di) in enumerate(groups):
            j = next((j for j, (_, dj) in enumerate(groups) if j != i and di <= dj), None)
            if j is not None:
                groups[j] = (groups[j][0] + si, groups[j][1])
                del groups[i]
                merged = True
                break
    return [(s, tuple(sorted(d))) for s, d in groups]


def _output_dims(s: Structured, j: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The loop of each output axis that a loop indexes (a size-1 axis indexed by the
    constant 0, as a `keepdim` reduction writes, takes none)."""
    m = s.maps[s.n_inputs + j]
    dims = []
    for e, size in zip(m.results, shape):
        if isinstance(e, AffineConstantExpr) and e.value == 0 and size == 1:
            continue
        if not isinstance(e, AffineDimExpr):
            raise KernelError(s.op, f"output #{j}'s map {m} is not a permutation of loops")
        dims.append(e.position)
    parallel = [d for d, r in enumerate(s.reduction) if not r]
    if sorted(dims) != parallel:
        raise KernelError(
            s.op,
            f"output #{j}'s map {m} must use each parallel loop once and no reduction loop",
        )
    return tuple(dims)


def structured_kernel(s: Structured) -> Kernel:
    """The kernel of a structured op (see the module docstring)."""
    op = s.op
    operands = op.operands
    if not s.results or len(s.results) != len(operands) - s.n_inputs:
        raise KernelError(op, "only the tensor form runs (one result per output)")
    shapes = [_shape_of(op, v, f"operand #{i}") for i, v in enumerate(operands)]
    if len(s.maps) != len(operands):
        raise KernelError(op, f"{len(s.maps)} indexing maps for {len(operands)} operands")
    ranges = loop_ranges(s, shapes)
    n = len(ranges)
    readers = [make_reader(op, i, m, shapes[i], ranges) for i, m in enumerate(s.maps)]
    captures = captured_values(op)
    body = s.body
    body_ops = list(body.ops)
    yield_op = body_ops.pop()
    if not isinstance(yield_op, YieldOp) or len(yield_op.operands) != len(s.results):
        raise KernelError(op, "the body must end in a linalg.yield of one value per output")
    for b in body_ops:
        if b.regions or not (isinstance(b, _BODY_TYPES) or b.dialect_name() in ("arith", "math")):
            raise KernelError(op, f"{b.name} in the body is not an elementwise op")
        tensors = [v for v in b.operands if isinstance(v.type, TensorType)]
        if tensors and not (isinstance(b, tensor.ExtractOp) and tensors == [b.operands[0]]):
            raise KernelError(op, f"{b.name} in the body takes a tensor")
    deps = _deps(s, body_ops, captures)
    if any(v not in deps for b in body_ops for v in b.operands):
        raise KernelError(
            op, "the body reads a value that is neither an operand, a capture nor its own"
        )

    # Slots: block arguments, captured values, then every body op's results.
    if len(body.args) != len(operands):
        raise KernelError(
            op, f"the body takes {len(body.args)} arguments for {len(operands)} operands"
        )
    slot: dict[SSAValue, int] = {a: i for i, a in enumerate(body.args)}
    for i, v in enumerate(captures):
        slot[v] = len(operands) + i
    # Constants defined above the body are read now, as attributes are (the body's
    # own constants are body ops, with slots of their own below).
    const: dict[int, Any] = {}
    for b in [*body_ops, yield_op]:
        for v in b.operands:
            if (
                v not in slot
                and isinstance(c := v.owner, arith.ConstantOp)
                and c.parent is not body
            ):
                slot[v] = len(slot)
                const[slot[v]] = prepare(c)(())[0]
    for b in body_ops:
        for r in b.results:
            slot[r] = len(slot)
    n_slots = len(slot)
    skip: set[Operation] = set()
    reduces = any(s.reduction)
    outputs: list[_Output] = []
    # An output keeping another's arg-max reads that one's argument in its compare
    # (skipped, so that argument is still read by its combiner alone).
    arg_outputs = {
        j: a
        for j, y in enumerate(yield_op.operands)
        if reduces and (a := _arg_reduction(s, j, y, body.args[s.n_inputs + j], slot, skip, ranges))
    }
    for j, y in enumerate(yield_op.operands):
        o = body.args[s.n_inputs + j]
        shape = shapes[s.n_inputs + j]
        dims = _output_dims(s, j, shape)
        dt = numpy_dtype(cast(TensorType[Attribute], operands[s.n_inputs + j].type).element_type)
        if not reduces:
            outputs.append(_output(slot[y], None, dims, dt, ranges, s.reduction, shape))
            continue
        arg = arg_outputs.get(j)
        r = arg if arg is not None else _reduction(s, j, y, o, deps, slot, skip, ranges)
        outputs.append(_output(None, r, dims, dt, ranges, s.reduction, shape))

    steps: list[_Step] = []
    for b in body_ops:
        if b in skip:
            continue
        for r in b.results:
            size = math.prod(ranges[d] for d in deps[r])
            if size > MAX_SPACE_ELEMENTS:
                raise KernelError(
                    op,
                    f"{b.name} in the body spans {size} elements of the iteration space "
                    f"(the limit is {MAX_SPACE_ELEMENTS}); write it as a contraction",
                )
        if isinstance(b, IndexOp):
            d = b.dim.value.data
            if d >= n:
                raise KernelError(op, f"linalg.index {d} of a {n}-loop space")
            const[slot[b.result]] = _loop_grids(ranges)[d]
            continue
        steps.append(_Step(prepare(b), tuple(slot[v] for v in b.operands), slot[b.results[0]]))
    n_ops, n_captures = len(operands), len(captures)
    arg_reads = [(i, readers[i]) for i in range(n_ops) if body.args[i].first_use is not None]
    out_reads = [(s.n_inputs + j, readers[s.n_inputs + j]) for j in range(len(outputs))]
    n_inputs = s.n_inputs  # not `s`: the kernel holds no IR (it is cached on disk)

    def run(args: Sequence[Any]) -> tuple[Any, ...]:
        env: list[Any] = [None] * n_slots
        for i, read in arg_reads:
            env[i] = read(args[i])
        for i in range(n_ops, n_ops + n_captures):
            env[i] = args[i]
        for k, v in const.items():
            env[k] = v
        for st in steps:
            vals = st.kernel([env[i] for i in st.ins])
            env[st.out : st.out + len(vals)] = vals
        results = []
        for out, (i, read) in zip(outputs, out_reads):
            if out.reduce is None:
                v = env[cast(int, out.slot)]
            elif isinstance(out.reduce, _ArgReduce):
                k = n_inputs + out.reduce.of
                v = _run_arg_reduce(out.reduce, env, read(args[i]), readers[k](args[k]))
            else:
                v = _run_reduce(out.reduce, env, read(args[i]))
            results.append(_write(v, out))
        return tuple(results)

    return run


def _reduction(
    s: Structured,
    j: int,
    y: SSAValue,
    o: BlockArgument,
    deps: dict[SSAValue, frozenset[int]],
    slot: dict[SSAValue, int],
    skip: set[Operation],
    ranges: Sequence[int],
) -> _Reduce:
    """How output `j` reduces: its combiner, and the value (or factors) reduced."""
    op, body = s.op, s.body
    c = y.owner
    uses = [u.operation for u in o.uses if u.operation not in skip]
    if not (
        isinstance(c, Operation)
        and c.parent is body
        and type(c) in _COMBINERS
        and uses == [c]
        and sum(v is o for v in c.operands) == 1
    ):
        raise KernelError(
            op,
            f"output #{j} is reduced, but the body does not yield a combining op "
            "(addf, mulf, maximumf, maxsi, ...) of its output argument and another value, "
            "reading the output nowhere else",
        )
    if [u.operation for u in y.uses] != [s.body.last_op]:
        raise KernelError(op, f"output #{j}'s combined value is used again in the body")
    skip.add(c)
    out_first = c.operands[0] is o
    f = c.operands[1] if out_first else c.operands[0]
    rtype = c.results[0].type
    factors = [f]
    if type(c) in _SUM:
        product = arith.MulfOp if isinstance(c, arith.AddfOp) else arith.MuliOp
        factors = _factors(f, product, body, True) if f.has_one_use() else [f]
        if len(factors) > 1:
            _skip_products(f, set(factors), skip)
    groups = (
        _groups(factors, deps, slot) if len(factors) > 1 else [([slot[f]], tuple(sorted(deps[f])))]
    )
    unsigned = None
    if isinstance(c, _UNSIGNED):
        unsigned = np.dtype(numpy_dtype(rtype).str.replace("i", "u"))
    acc = _compute_dtype(rtype)
    return _plan_reduce(
        prepare(c), out_first, _COMBINERS[type(c)], groups, acc, unsigned, ranges, s.reduction
    )


def _arg_reduction(
    s: Structured,
    j: int,
    y: SSAValue,
    o: BlockArgument,
    slot: dict[SSAValue, int],
    skip: set[Operation],
    ranges: Sequence[int],
) -> _ArgReduce | None:
    """Output `j` as the index of another output's maximum (`_ArgReduce`), or None
    when its body is not that."""
    body = s.body
    sel = y.owner
    if not (isinstance(sel, arith.SelectOp) and sel.parent is body and sel.rhs is o):
        return None
    cmp, idx = sel.cond.owner, sel.lhs.owner
    if not (isinstance(cmp, arith.CmpfOp) and cmp.predicate.value.data == _OGT):
        return None
    if isinstance(idx, arith.IndexCastOp):
        idx = idx.input.owner
    v, running = cmp.lhs, cmp.rhs
    outs = body.args[s.n_inputs :]
    if not (isinstance(idx, IndexOp) and isinstance(running, BlockArgument) and running in outs):
        return None
    k = outs.index(running)
    mx = body.last_op.operands[k].owner if body.last_op is not None else None
    red = [d for d, r in enumerate(s.reduction) if r]
    if not (
        isinstance(mx, arith.MaximumfOp | arith.MaxnumfOp)
        and set(mx.operands) == {v, running}
        and red == [idx.dim.value.data]
        and [u.operation for u in o.uses] == [sel]
    ):
        return None
    skip.update(x for x in (sel, cmp, sel.lhs.owner) if isinstance(x, Operation))
    return _ArgReduce(slot[v], k, red[0], tuple(ranges))


_OGT = 2
"""`arith.cmpf`'s predicate `ogt`."""


def _run_arg_reduce(r: _ArgReduce, env: list[Any], init: Any, init_max: Any) -> Any:
    """Where along the loop the value first exceeds every earlier one and the
    initial maximum: its first maximum, or the initial index when none exceeds it."""
    f = np.asarray(env[r.value])
    if f.ndim < len(r.full_shape):
        f = f.reshape((1,) * (len(r.full_shape) - f.ndim) + f.shape)
    f = np.broadcast_to(f, tuple(e if g == 1 else g for e, g in zip(f.shape, r.full_shape)))
    if f.shape[r.loop] == 0:
        return init
    at = np.argmax(f, axis=r.loop, keepdims=True)
    best = np.take_along_axis(f, at, axis=r.loop)
    return np.where(best > init_max, at.astype(np.asarray(init).dtype), init)


def _skip_products(v: SSAValue, factors: set[SSAValue], skip: set[Operation]) -> None:
    """Mark the multiplies of a product tree (down to its factors) as not run."""
    if v in factors:
        return
    op = cast(Operation, v.owner)
    skip.add(op)
    for o in op.operands:
        _skip_products(o, factors, skip)


def _run_reduce(r: _Reduce, env: list[Any], init: Any) -> Any:
    if r.empty:
        return init
    if r.fn is np.add:
        red = _sum_of_products(r, env)
    else:
        f = np.asarray(env[r.groups[0].slots[0]])
        if r.unsigned is not None:
            f = f.astype(r.unsigned) if f.ndim == 0 else f.view(r.unsigned)
        elif r.acc.kind == "f":
            f = f.astype(r.acc, copy=False)
        if f.ndim < r.n:
            f = f.reshape((1,) * (r.n - f.ndim) + f.shape)
        # Over every reduction loop, a broadcast view where it does not vary.
        f = np.broadcast_to(f, tuple(e if g == 1 else g for e, g in zip(f.shape, r.full_shape)))
        if r.fn is np.multiply:
            red = np.multiply.reduce(f, axis=r.red_axes, keepdims=True, dtype=r.acc)
        else:
            red = r.fn.reduce(f, axis=r.red_axes, keepdims=True)
        if r.unsigned is not None:
            red = red.view(np.dtype(r.unsigned.str.replace("u", "i")))
    args = [init, red] if r.out_first else [red, init]
    return r.combine(args)[0]


def _sum_of_products(r: _Reduce, env: list[Any]) -> np.ndarray:
    """`sum over the reduction loops of the product of every group`, with a size-1
    axis for each reduction loop."""
    n, acc = r.n, r.acc
    arrays: list[np.ndarray] = []
    for grp in r.groups:
        g = np.asarray(env[grp.slots[0]]).astype(acc, copy=False)
        for k in grp.slots[1:]:
            g = g * np.asarray(env[k]).astype(acc, copy=False)
        if g.ndim < n:
            g = g.reshape((1,) * (n - g.ndim) + g.shape)
        g = g.reshape(tuple(g.shape[d] for d in grp.dims))  # drop the size-1 axes
        if grp.alone:
            g = np.add.reduce(g, axis=grp.alone, dtype=acc)
        arrays.append(g)
    if len(arrays) == 1:
        v = np.add.reduce(arrays[0], axis=r.axes, dtype=acc) if r.axes else arrays[0]
    elif len(arrays) == 2:
        red = set(r.red_axes)
        v = _matmul((arrays[0], list(r.groups[0].kept)), (arrays[1], list(r.groups[1].kept)), red)[
            0
        ]
    else:
        v = np.einsum(cast(str, r.spec), *arrays, optimize="greedy")
    if r.scale != 1:
        v = v * acc.type(r.scale)
    v = np.asarray(v, dtype=acc)
    return v.transpose(r.perm)[r.expand]


def _matmul(
    a: tuple[np.ndarray, list[int]], b: tuple[np.ndarray, list[int]], red: set[int]
) -> tuple[np.ndarray, list[int]]:
    """The contraction of two factors over their shared reduction loops, as one
    batched matmul: (batch, a's own, shared) x (batch, shared, b's own)."""
    (ga, da), (gb, db) = a, b
    shared = [d for d in da if d in db and d in red]
    batch = [d for d in da if d in db and d not in red]
    fa = [d for d in da if d not in db]
    fb = [d for d in db if d not in da]
    ta = ga.transpose([da.index(d) for d in batch + fa + shared])
    tb = gb.transpose([db.index(d) for d in batch + shared + fb])
    nb = math.prod(ta.shape[: len(batch)])
    na = math.prod(ta.shape[len(batch) : len(batch) + len(fa)])
    nk = math.prod(ta.shape[len(batch) + len(fa) :])
    nbb = math.prod(tb.shape[len(batch) + len(shared) :])
    y = np.matmul(ta.reshape(nb, na, nk), tb.reshape(nb, nk, nbb))
    shape = ta.shape[: len(batch) + len(fa)] + tb.shape[len(batch) + len(shared) :]
    return y.reshape(shape), batch + fa + fb


def _write(v: Any, out: _Output) -> np.ndarray:
    """The output tensor: the value over the parallel loops, in the output's axis
    order, as a new array (never a view of an operand)."""
    v = np.asarray(v)
    if v.ndim:
        if v.ndim < out.n:
            v = v.reshape((1,) * (out.n - v.ndim) + v.shape)
        v = v[out.select]
        if v.shape != out.over_parallel:
            v = np.broadcast_to(v, out.over_parallel)
        if out.order is not None:
            v = v.transpose(out.order)
        if v.ndim != len(out.shape):
            v = v.reshape(out.shape)
    if v.shape != out.shape:
        v = np.broadcast_to(v, out.shape)
    return np.array(v, dtype=out.dtype, order="C")


# --------------------------------------------------------------------------------------
# Registration
# --------------------------------------------------------------------------------------


def transpose_bytes(a: np.ndarray) -> np.ndarray:
    """`a.T` of a matrix of 1-byte elements whose sides are multiples of 8, copied as
    8-byte words and then shuffled within cache-sized rows: numpy copies a transposed
    int8 matrix one strided byte at a time, several times slower. (A fast path of the
    plain transpose; tests/test_linalg_kernels.py checks they are equal.)"""
    n, k = a.shape
    words = np.ascontiguousarray(a).view(np.uint64).reshape(n, k // 8)
    t = np.ascontiguousarray(words.T).view(a.dtype).reshape(k // 8, n, 8)
    return np.ascontiguousarray(t.transpose(0, 2, 1)).reshape(k, n)


@kernel(TransposeOp)
def _transpose(op: TransposeOp) -> Kernel:
    plain = structured_kernel(_structured(op))  # also checks the op runs at all
    t = op.inputs[0].type
    if (
        isinstance(t, TensorType)
        and list(op.permutation.get_values()) == [1, 0]
        and numpy_dtype(t.element_type).itemsize == 1
        and all(d % 8 == 0 and d > 0 for d in t.get_shape())
    ):
        return lambda args: (transpose_bytes(args[0]),)
    return plain


@kernel(
    GenericOp,
    ResultsGenericOp,
    BroadcastOp,
    ReduceOp,
    AddOp,
    SubOp,
    MulOp,
    ExpOp,
    LogOp,
    SqrtOp,
    MaxOp,
    MinOp,
    SelectOp,
    CopyOp,
)
def _structured_op(op: Operation) -> Kernel:
    return structured_kernel(_structured(op))
