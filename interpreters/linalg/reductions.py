"""
Outputs over reduction loops: a combiner's reduction (a sum of products as one matmul
or einsum), and the index of another output's maximum.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerType,
)
from xdsl.dialects.linalg.ops import (
    IndexOp,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from xdsl_spatial.interpreters.kernels import (
    Kernel,
    KernelError,
    prepare,
)
from xdsl_spatial.interpreters.linalg.structure import Structured
from xdsl_spatial.interpreters.values import numpy_dtype
from xdsl_spatial.passes.spatial_lower_ops.spec import masked_term

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
class Reduce:
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
    mask: int | None = None
    """A masked sum (`out + (ok ? product : +0.0)`): the slot of `ok`."""
    mask_after: bool = False
    """`ok` spans no reduction loop: the output is `out + sum` where it holds and
    `out + 0.0` elsewhere. Otherwise every group spans `ok`'s loops and is zeroed
    where it fails, so a term there is +0.0 exactly, whatever the factors hold."""


def _plan_reduce(
    combine: Kernel,
    out_first: bool,
    fn: Any,
    groups: Sequence[tuple[list[int], tuple[int, ...]]],
    acc: np.dtype[Any],
    unsigned: np.dtype[Any] | None,
    ranges: Sequence[int],
    reduction: Sequence[bool],
) -> Reduce:
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
    return Reduce(
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
class ArgReduce:
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


def plan_reduction(
    s: Structured,
    j: int,
    y: SSAValue,
    o: BlockArgument,
    deps: dict[SSAValue, frozenset[int]],
    slot: dict[SSAValue, int],
    skip: set[Operation],
    ranges: Sequence[int],
) -> Reduce:
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
    mask, mask_after = None, False
    if type(c) in _SUM:
        product = arith.MulfOp if isinstance(c, arith.AddfOp) else arith.MuliOp
        masked = _masked_term(f, body)
        if masked is not None:
            ok, term = masked
            inner = _factors(term, product, body, True) if term.has_one_use() else [term]
            after = not any(s.reduction[d] for d in deps[ok])
            # summed over a loop of the mask, every group must span the mask's loops
            # (else the select runs over the whole space, as any other value does)
            if after or all(deps[ok] <= set(d) for _, d in _groups(inner, deps, slot)):
                skip.add(cast(Operation, f.owner))
                mask, mask_after, f = slot[ok], after, term
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
    r = _plan_reduce(
        prepare(c), out_first, _COMBINERS[type(c)], groups, acc, unsigned, ranges, s.reduction
    )
    return replace(r, mask=mask, mask_after=mask_after)


def plan_arg_reduction(
    s: Structured,
    j: int,
    y: SSAValue,
    o: BlockArgument,
    slot: dict[SSAValue, int],
    skip: set[Operation],
    ranges: Sequence[int],
) -> ArgReduce | None:
    """Output `j` as the index of another output's maximum (`ArgReduce`), or None
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
    return ArgReduce(slot[v], k, red[0], tuple(ranges))


_OGT = 2
"""`arith.cmpf`'s predicate `ogt`."""


def run_arg_reduce(r: ArgReduce, env: list[Any], init: Any, init_max: Any) -> Any:
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


def _masked_term(f: SSAValue, body: Block) -> tuple[SSAValue, SSAValue] | None:
    """`(ok, term)` when `f` is `select(ok, term, +0.0)` of the body, used once."""
    op = f.owner
    if not (isinstance(op, Operation) and op.parent is body and f.has_one_use()):
        return None
    return masked_term(f)


def _skip_products(v: SSAValue, factors: set[SSAValue], skip: set[Operation]) -> None:
    """Mark the multiplies of a product tree (down to its factors) as not run."""
    if v in factors:
        return
    op = cast(Operation, v.owner)
    skip.add(op)
    for o in op.operands:
        _skip_products(o, factors, skip)


def run_reduce(r: Reduce, env: list[Any], init: Any) -> Any:
    if r.empty:
        return init
    if r.fn is np.add:
        red = _sum_of_products(r, env)
        if r.mask_after:
            ok = env[cast(int, r.mask)]
            zero = r.acc.type(0)
            both = ([init, red], [init, zero]) if r.out_first else ([red, init], [zero, init])
            return np.where(ok, r.combine(both[0])[0], r.combine(both[1])[0])
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


def _sum_of_products(r: Reduce, env: list[Any]) -> np.ndarray:
    """`sum over the reduction loops of the product of every group`, with a size-1
    axis for each reduction loop."""
    n, acc = r.n, r.acc
    arrays: list[np.ndarray] = []
    for grp in r.groups:
        g = np.asarray(env[grp.slots[0]]).astype(acc, copy=False)
        for k in grp.slots[1:]:
            g = g * np.asarray(env[k]).astype(acc, copy=False)
        if r.mask is not None and not r.mask_after:
            g = np.where(env[r.mask], g, acc.type(0))
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
