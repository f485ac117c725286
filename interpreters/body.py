"""
Stage bodies evaluated over their whole iteration space with numpy.

A body's ops are read once into steps (`Step`); a select that picks a few rows of a
page, and sums of such selects, stay lazy (`RowSelect`, `OwnedSum`) so that adding
them into a carry touches only the rows they pick.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Block, Operation, SSAValue

from xdsl_spatial.dialects.spatial import IndexOp
from xdsl_spatial.interpreters.values import SpatialRuntimeError, numpy_dtype


def product_factors(v: SSAValue) -> list[SSAValue] | None:
    """`v` as a product of f32 factors (mulf nodes flattened), if it is one."""
    op = v.owner
    if isinstance(op, arith.MulfOp) and isinstance(v.type, Float32Type):
        left = product_factors(op.lhs)
        right = product_factors(op.rhs)
        if left is None or right is None:
            return None
        return left + right
    return [v]


FEW_ROWS = 8
"""Up to this many picked hyperplanes, a select's rows are added one view at a time."""


@dataclass
class RowSelect:
    """`select(cond, yes, +0.0)` with a condition on few axes (the rows of a page),
    kept unexpanded so that adding it into a sum touches only the rows it picks."""

    cond: np.ndarray
    yes: Any
    dtype: np.dtype[Any]

    def expand(self) -> np.ndarray:
        return _select(self.cond, self.yes, self.dtype.type(0.0), self.dtype)


@dataclass
class OwnedSum:
    """An array this evaluation made and only one op reads: added into in place."""

    array: np.ndarray


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """`np.broadcast_shapes` for shapes known to broadcast (values of one stage body
    over one iteration space), without its cost per call."""
    nd = max(len(sh) for sh in shapes)
    out = [1] * nd
    for sh in shapes:
        off = nd - len(sh)
        for j, e in enumerate(sh):
            if e != 1:
                out[off + j] = e
    return tuple(out)


def trip_of(w: Any, t: int, full: int) -> Any:
    """Trip `t` of a body value computed for a batch of trips: arrays of `full`
    dimensions (a trip axis, an item axis, the iteration space) lose their trip axis;
    lower ones (static values, constants) hold for every trip."""
    if isinstance(w, RowSelect):
        return RowSelect(w.cond, trip_of(w.yes, t, full), w.dtype)
    w = plain(w)
    if isinstance(w, np.ndarray) and w.ndim == full:
        return w[t if w.shape[0] > 1 else 0]
    return w


def plain(x: Any) -> Any:
    if isinstance(x, RowSelect):
        return x.expand()
    if isinstance(x, OwnedSum):
        return x.array
    return x


_PICKS: dict[
    tuple[int, int], tuple[np.ndarray, tuple[int, ...], Any, list[tuple[Any, ...]] | None]
] = {}


def _picks(
    cond: np.ndarray, ndim: int
) -> tuple[tuple[int, ...], Any, list[tuple[Any, ...]] | None]:
    """The axes a select's condition varies along, the indices it picks there and,
    when they are few, the basic index of each picked hyperplane. A condition on the
    iteration indices is a static value of its stage (the same array every run), so
    this is worked out once per condition."""
    key = (id(cond), ndim)
    hit = _PICKS.get(key)
    if hit is not None and hit[0] is cond:
        return hit[1], hit[2], hit[3]
    c = cond.reshape((1,) * (ndim - cond.ndim) + cond.shape)
    varying = tuple(d for d, e in enumerate(c.shape) if e > 1)
    nz = np.nonzero(c.reshape([c.shape[d] for d in varying]))
    few = None
    if len(nz[0]) <= FEW_ROWS:
        few = []
        for hit_at in zip(*nz):
            at: list[Any] = [slice(None)] * ndim
            for d, j in zip(varying, hit_at):
                at[d] = int(j)
            few.append(tuple(at))
    if len(_PICKS) > 4096:
        _PICKS.clear()
    _PICKS[key] = (cond, varying, nz, few)
    return varying, nz, few


def _add_rows(acc: Any, rows: RowSelect, dt: np.dtype[Any]) -> OwnedSum:
    """`acc + select(c, v, +0.0)`, exactly: every element is `acc + 0` (which only
    turns -0 into +0), then the picked rows add `v`. Added once per element, a sum
    that starts from `x + 0` is never -0, so later `+ 0`s change nothing."""
    yes = np.asarray(rows.yes)
    shape = broadcast_shape(np.shape(plain(acc)), rows.cond.shape, yes.shape)
    if isinstance(acc, OwnedSum) and acc.array.shape == shape:
        out = acc.array
    else:
        out = np.empty(shape, dtype=dt)
        np.add(plain(acc), dt.type(0.0), out=out)
    varying, nz, few = _picks(rows.cond, len(shape))
    if few is not None:
        # A few hyperplanes (a row-select fold picks one row): added through views,
        # `v` read where it varies and broadcast where it does not.
        yes = yes.reshape((1,) * (len(shape) - yes.ndim) + yes.shape)
        for at in few:
            src = tuple(
                0 if yes.shape[d] == 1 and isinstance(a, int) else a for d, a in enumerate(at)
            )
            out[at] += yes[src]
        return OwnedSum(out)
    front = list(range(len(varying)))
    dst = np.moveaxis(out, varying, front)
    src = np.moveaxis(np.broadcast_to(yes, shape), varying, front)
    dst[nz] += src[nz]
    return OwnedSum(out)


def add_rows_trips(
    acc: np.ndarray, ws: Sequence[RowSelect], trips: int, full: int
) -> np.ndarray | None:
    """`acc + w1[t] + w2[t] + ...` for t = 0, 1, ... where every w is a select of a
    few rows (`RowSelect`, each `yes` with a trip axis when it has `full`
    dimensions): the adds `_add_rows` makes, in the same order, with where each row
    goes worked out once for all trips. None when a w picks too many rows."""
    shapes = [np.shape(acc)]
    yeses = []
    for w in ws:
        y = np.asarray(w.yes)
        yeses.append(y)
        shapes += [w.cond.shape, y.shape[1:] if y.ndim == full else y.shape]
    shape = broadcast_shape(*shapes)
    places = []
    for w, y in zip(ws, yeses):
        _, _, few = _picks(w.cond, len(shape))
        if few is None:
            return None
        ys = y.shape[1:] if y.ndim == full else y.shape
        ys = (1,) * (len(shape) - len(ys)) + ys
        src = [
            tuple(0 if ys[d] == 1 and isinstance(a, int) else a for d, a in enumerate(at))
            for at in few
        ]
        has_trips = y.ndim == full
        places.append((has_trips, y.reshape(y.shape[:1] + ys if has_trips else ys), few, src))
    # Every element is `acc + 0` first (only -0 changes), as the first select's add.
    out = np.empty(shape, dtype=_F32)
    np.add(acc, _F32.type(0.0), out=out)
    for t in range(trips):
        for has_trips, y, few, src in places:
            yt = y[t if y.shape[0] > 1 else 0] if has_trips else y
            for at, sa in zip(few, src):
                out[at] += yt[sa]
    return out


def evaluate(v: SSAValue, env: dict[SSAValue, Any], ext: Sequence[int]) -> Any:
    """The value of `v` over the iteration space (numpy broadcasting does the rest)."""
    if v in env:
        return env[v]
    op = v.owner
    assert isinstance(op, Operation)
    val = Step.of(op).run([evaluate(x, env, ext) for x in op.operands], ext)
    env[v] = val
    return val


@dataclass
class Step:
    """One op of a stage body, ready to evaluate over the iteration space: what it
    reads and the numpy that computes it, worked out once per op."""

    result: SSAValue
    operands: tuple[SSAValue, ...]
    plain: Any
    """(plain operand values, extents) -> value."""
    lazy: Any
    """(operand values) -> a lazy value, or None to evaluate plainly; or None."""

    @staticmethod
    def of(op: Operation) -> Step:
        return Step(op.results[0], tuple(op.operands), _op_fn(op), _lazy_fn(op))

    def run(self, args: list[Any], ext: Sequence[int]) -> Any:
        if self.lazy is not None and (val := self.lazy(args)) is not None:
            return val
        return self.plain([plain(a) for a in args], ext)


def body_steps(block: Block, yielded: SSAValue, static: dict[SSAValue, Any]) -> list[Step]:
    """The body's ops the yielded value needs (other than its static values), in order."""
    need: set[SSAValue] = set()
    todo = [yielded]
    while todo:
        v = todo.pop()
        if v in need or v in static or not isinstance(v.owner, Operation):
            continue
        need.add(v)
        todo.extend(v.owner.operands)
    return [Step.of(o) for o in block.ops if o.results and o.results[0] in need]


_F32 = np.dtype(np.float32)

_CASTS = (
    arith.ExtFOp,
    arith.TruncFOp,
    arith.SIToFPOp,
    arith.ExtSIOp,
    arith.TruncIOp,
    arith.IndexCastOp,
)
"""Ops that convert a value to their result's type (numpy's astype does it)."""


def _lazy_fn(op: Operation) -> Any:
    """A select of rows, or a sum of selected rows, kept lazy (None: always plain)."""
    if not op.results or not isinstance(op.results[0].type, Float32Type):
        return None
    if isinstance(op, arith.SelectOp):

        def select(args: list[Any]) -> Any:
            c, yes, no = args
            if (
                isinstance(no, np.floating)
                and no == 0
                and not np.signbit(no)
                and isinstance(c, np.ndarray)
                and not isinstance(yes, RowSelect | OwnedSum)
                and c.size * 4 <= math.prod(broadcast_shape(c.shape, np.shape(yes)))
            ):
                return RowSelect(c, yes, _F32)
            return None

        return select
    if isinstance(op, arith.AddfOp):
        shared = (op.lhs.has_more_than_one_use(), op.rhs.has_more_than_one_use())

        def add(args: list[Any]) -> Any:
            a, b = args
            a_shared = shared[0]
            if isinstance(a, RowSelect) and not isinstance(b, RowSelect):
                a, b, a_shared = b, a, shared[1]
            if isinstance(b, RowSelect) and not isinstance(a, RowSelect):
                if isinstance(a, OwnedSum) and a_shared:
                    a = a.array.copy()  # another op still reads it
                return _add_rows(a, b, _F32)
            return None

        return add
    return None


def _select(cond: Any, yes: Any, no: Any, dt: np.dtype[Any] | None) -> Any:
    """`arith.select` over broadcast arrays. A condition that varies along few axes
    (an index predicate: one row of a page) is applied by copying the hyperplanes it
    picks, not by a pass of `np.where` over the whole space."""
    c = np.asarray(cond)
    shape = broadcast_shape(c.shape, np.shape(yes), np.shape(no))
    if c.ndim != len(shape) or c.size * 4 > math.prod(shape) or dt is None:
        out = np.where(c, yes, no)
        return out.astype(dt, copy=False) if dt is not None else out
    varying = [d for d, e in enumerate(c.shape) if e > 1]
    picked = c.reshape([c.shape[d] for d in varying]) if varying else c.reshape(())
    out = np.empty(shape, dtype=dt)
    out[...] = no
    if varying:
        nz = np.nonzero(picked)
        front = list(range(len(varying)))
        dst = np.moveaxis(out, varying, front)
        src = np.moveaxis(np.broadcast_to(yes, shape), varying, front)
        dst[nz] = src[nz]
    elif bool(picked):
        out[...] = yes
    return out


def _op_fn(op: Operation) -> Any:
    """`(plain operand values, extents) -> value` for one op, its element type and
    kind looked up now rather than at every evaluation."""
    rt = op.results[0].type if op.results else None
    if isinstance(rt, TensorType):
        rt = rt.element_type
    dt = numpy_dtype(rt) if rt is not None and not isinstance(op, arith.ConstantOp) else None
    binary = {
        arith.AddfOp: np.add, arith.AddiOp: np.add, arith.SubfOp: np.subtract,
        arith.SubiOp: np.subtract, arith.MulfOp: np.multiply, arith.MuliOp: np.multiply,
        arith.DivfOp: np.divide,
    }.get(type(op))
    if binary is not None and dt is not None:
        return lambda a, ext: binary(a[0], a[1]).astype(dt, copy=False)
    if isinstance(op, _CASTS):
        return lambda a, ext: np.asarray(a[0]).astype(dt)
    if isinstance(op, arith.SelectOp):
        return lambda a, ext: _select(a[0], a[1], a[2], dt)
    return lambda a, ext: eval_op(op, a, ext)


def eval_op(op: Operation, a: list[Any], ext: Sequence[int]) -> Any:
    rt = op.results[0].type if op.results else None
    if isinstance(rt, TensorType):
        rt = rt.element_type
    if isinstance(op, arith.ConstantOp):
        attr = op.value
        if isinstance(attr, FloatAttr):
            return numpy_dtype(rt).type(attr.value.data)
        if isinstance(attr, IntegerAttr):
            return numpy_dtype(rt).type(attr.value.data)
        raise SpatialRuntimeError(f"unsupported constant {attr}")
    if isinstance(op, IndexOp):
        d = op.dim.data
        shape = [1] * (1 + len(ext))
        shape[1 + d] = ext[d]
        return np.arange(ext[d], dtype=np.int64).reshape(shape)
    dt = numpy_dtype(rt) if rt is not None else None
    if isinstance(op, arith.AddfOp | arith.AddiOp):
        return np.add(a[0], a[1]).astype(dt, copy=False)
    if isinstance(op, arith.SubfOp | arith.SubiOp):
        return np.subtract(a[0], a[1]).astype(dt, copy=False)
    if isinstance(op, arith.MulfOp | arith.MuliOp):
        return np.multiply(a[0], a[1]).astype(dt, copy=False)
    if isinstance(op, arith.DivfOp):
        return np.divide(a[0], a[1]).astype(dt, copy=False)
    if isinstance(op, arith.NegfOp):
        return np.negative(a[0])
    if isinstance(op, arith.MaximumfOp):
        return np.maximum(a[0], a[1])
    if isinstance(op, arith.MinimumfOp):
        return np.minimum(a[0], a[1])
    if isinstance(op, _CASTS):
        return np.asarray(a[0]).astype(dt)
    if isinstance(op, arith.UIToFPOp | arith.ExtUIOp):
        src = np.asarray(a[0])
        if src.dtype.kind == "i":
            src = src.view(src.dtype.str.replace("i", "u"))
        return src.astype(dt)
    if isinstance(op, arith.FPToSIOp):
        return np.trunc(np.asarray(a[0], dtype=np.float64)).astype(dt)
    if isinstance(op, arith.CmpiOp):
        pred = op.predicate.value.data
        x, y = a
        if pred >= 6:  # unsigned predicates compare the bit patterns
            x = np.asarray(x).astype(np.uint64)
            y = np.asarray(y).astype(np.uint64)
        return [np.equal, np.not_equal, np.less, np.less_equal, np.greater,
                np.greater_equal, np.less, np.less_equal, np.greater, np.greater_equal][pred](x, y)
    if isinstance(op, arith.CmpfOp):
        pred = op.predicate.value.data
        x, y = np.asarray(a[0], np.float64), np.asarray(a[1], np.float64)
        table = {
            0: lambda: np.zeros(np.broadcast(x, y).shape, bool),
            1: lambda: x == y, 2: lambda: x > y, 3: lambda: x >= y, 4: lambda: x < y,
            5: lambda: x <= y, 6: lambda: (x != y) & ~np.isnan(x) & ~np.isnan(y),
            7: lambda: ~np.isnan(x) & ~np.isnan(y), 8: lambda: (x == y) | np.isnan(x) | np.isnan(y),
            9: lambda: ~(x <= y), 10: lambda: ~(x < y), 11: lambda: ~(x >= y),
            12: lambda: ~(x > y), 13: lambda: x != y, 14: lambda: np.isnan(x) | np.isnan(y),
            15: lambda: np.ones(np.broadcast(x, y).shape, bool),
        }
        return table[pred]()
    if isinstance(op, arith.SelectOp):
        return _select(a[0], a[1], a[2], dt)
    if isinstance(op, arith.AndIOp):
        return np.bitwise_and(a[0], a[1])
    if isinstance(op, arith.OrIOp):
        return np.bitwise_or(a[0], a[1])
    if isinstance(op, arith.XOrIOp):
        return np.bitwise_xor(a[0], a[1])
    raise SpatialRuntimeError(f"{op.name} cannot run in a stage body")
