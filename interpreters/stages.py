"""
How the compiled engine evaluates a stage: its body over the whole iteration space,
for every (trip, item) of its lead at once.

A stage's operands arrive as arrays of shape `lead + extents`, extent 1 along every
axis they do not vary on; what the body computes from them is worked out once, when
the program is compiled:

- the *plain* evaluation runs the body's ops (the same kernels as everywhere, see
  `kernels.py`) on those arrays, numpy broadcasting them, and sums the `sum` axes in
  fp32. The parts of the body that depend on no operand (constants, `spatial.index`,
  predicates of indices) are computed once. A body that ends in a chain of f32 adds
  is a sum of *terms*; a term `select(pred, v, 0.0)` whose predicate is true on some
  rows of one axis only (`index 0 == 3`: a row of the page) is added into those rows
  instead of being spread over the whole space (`Term`). This is the plain path: it
  gives the reference engine's numbers, up to the order of the f32 adds.
- a *contraction*, a body that is a product of its inputs (each maybe widened to f32)
  summed over axes, runs as batched matrix products (`Contraction`): the pair of
  factors that share the summed axes no other factor has is multiplied with BLAS, the
  large one (the int8 weight) cast to f32 a chunk at a time into one buffer, and the
  other factors (the scales) are multiplied in and summed by `einsum` per chunk. This
  is the fast path; `tests/test_engines.py` proves it equal to the plain one.
"""

from __future__ import annotations

import itertools
import math
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, FloatAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xdsl_spatial.dialects.spatial import IndexOp, IterKind, PageType, StageOp, YieldOp
from xdsl_spatial.interpreters.kernels import Kernel, prepare
from xdsl_spatial.interpreters.values import numpy_dtype

Shape = tuple[int, ...]

CHUNK_BYTES = 4 << 20
"""The f32 buffer a contraction casts its large operand into, a chunk at a time: it
stays in the last-level cache between the cast and the matrix product."""


def broadcast(*shapes: Shape) -> Shape:
    return tuple(np.broadcast_shapes(*shapes))


# --------------------------------------------------------------------------------------
# The body
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One body op to run: its kernel, the slots it reads and the slot it fills."""

    kernel: Kernel
    args: tuple[int, ...]
    result: int


@dataclass(frozen=True)
class Term:
    """A term of the body's sum: the value in `slot`, added everywhere, or, when
    `rows` is set, only at those indices of axis `axis` (a select of rows)."""

    slot: int
    axis: int = -1
    rows: tuple[int, ...] = ()


class Body:
    """A stage body compiled for operands of given shapes: the slots of its values,
    the values that depend on no operand (computed now), the ops left to run, and the
    terms of the sum it yields."""

    def __init__(
        self,
        op: StageOp,
        shapes: Sequence[Shape],
        nlead: int,
        extra: int = 0,
        drop_first: bool = False,
        rows: bool = True,
    ):
        block = op.body.block
        ext = op.iter_extents
        ndim = nlead + extra + len(ext)
        self.slot: dict[SSAValue, int] = {a: i for i, a in enumerate(block.args)}
        self.static: dict[int, Any] = {}
        self.shape: dict[int, Shape] = {i: s for i, s in enumerate(shapes)}
        self.steps: list[Step] = []
        for o in block.ops:
            if isinstance(o, YieldOp):
                continue
            r = len(self.slot)
            self.slot[o.results[0]] = r
            if isinstance(o, IndexOp):
                d = nlead + extra + o.dim.data
                value: Any = np.arange(ext[o.dim.data], dtype=np.int64).reshape(
                    [ext[o.dim.data] if j == d else 1 for j in range(ndim)]
                )
                self.static[r] = value
                self.shape[r] = value.shape
                continue
            args = tuple(self.slot[v] for v in o.operands)
            kernel = prepare(o)
            if all(a in self.static for a in args):
                (value,) = kernel([self.static[a] for a in args])
                self.static[r] = value
                self.shape[r] = np.shape(value)
            else:
                self.steps.append(Step(kernel, args, r))
                self.shape[r] = broadcast(*(self.shape[a] for a in args))
        self.size = len(self.slot)
        self.ndim = ndim
        self.yielded = cast(YieldOp, block.last_op).value
        self.rows = rows
        self.terms = self._terms(block)[1 if drop_first else 0 :]
        # Operands have every axis (extent 1 where they do not vary).
        extents = tuple(
            max((sh[d] for sh in shapes), default=1) if d < nlead + extra else ext[d - nlead - extra]
            for d in range(ndim)
        )
        self.out_shape = broadcast(*(self._term_shape(t, extents) for t in self.terms)) if self.terms else (1,) * ndim
        """The shape of the yielded value, a row term's axis at its full extent."""

    def _terms(self, block: Block) -> list[Term]:
        """The yielded value as a sum: a chain of f32 adds whose inner adds have no
        other use is flattened into its terms, left to right."""
        out: list[Term] = []

        def walk(v: SSAValue, top: bool) -> None:
            o = v.owner
            if (
                isinstance(o, arith.AddfOp)
                and isinstance(v.type, Float32Type)
                and (top or v.has_one_use())
                and self.slot[v] not in self.static
            ):
                walk(o.lhs, False)
                walk(o.rhs, False)
                return
            out.append(self._term(v))

        walk(self.yielded, True)
        return out

    def _term(self, v: SSAValue) -> Term:
        o = v.owner
        slot = self.slot[v]
        if not (self.rows and isinstance(o, arith.SelectOp) and slot not in self.static):
            return Term(slot)
        cond, yes, no = (self.slot[x] for x in o.operands)
        zero = self.static.get(no)
        pred = self.static.get(cond)
        if (
            pred is None
            or not isinstance(o.operands[2].owner, arith.ConstantOp)
            or not isinstance(cast(arith.ConstantOp, o.operands[2].owner).value, FloatAttr)
            or zero != 0
            or np.signbit(zero)
            or yes in self.static
        ):
            return Term(slot)
        pred = np.asarray(pred)
        pred = pred.reshape((1,) * (self.ndim - pred.ndim) + pred.shape)
        varying = [d for d, e in enumerate(pred.shape) if e > 1]
        if len(varying) != 1:
            return Term(slot)
        axis = varying[0]
        rows = tuple(int(r) for r in np.nonzero(pred.reshape(-1))[0])
        if len(rows) * 4 > pred.shape[axis]:  # many rows: the plain select is as cheap
            return Term(slot)
        return Term(yes, axis, rows)

    def _term_shape(self, t: Term, extents: Shape) -> Shape:
        """The shape a term adds into: a row term spans its axis."""
        s = list((1,) * (len(extents) - len(self.shape[t.slot])) + tuple(self.shape[t.slot]))
        if t.rows:
            s[t.axis] = extents[t.axis]
        return tuple(s)

    def run(self, operands: Sequence[Any]) -> Any:
        """The yielded value, shape `out_shape` or broadcastable to it."""
        env: list[Any] = [None] * self.size
        for i, a in enumerate(operands):
            env[i] = a
        for k, v in self.static.items():
            env[k] = v
        for st in self.steps:
            (env[st.result],) = st.kernel([env[a] for a in st.args])
        plain = [t for t in self.terms if not t.rows]
        rows = [t for t in self.terms if t.rows]
        if not self.terms:
            return np.float32(0)
        if not rows:
            acc = env[plain[0].slot]
            for t in plain[1:]:
                acc = np.add(acc, env[t.slot], dtype=np.float32)
            return acc
        acc = np.zeros(self.out_shape, dtype=np.float32)
        for t in plain:
            np.add(acc, env[t.slot], out=acc)
        for t in rows:
            v = np.asarray(env[t.slot], dtype=np.float32)
            v = v.reshape((1,) * (acc.ndim - v.ndim) + v.shape)
            lead = (slice(None),) * t.axis
            for r in t.rows:
                acc[lead + (r,)] += v[lead + ((r if v.shape[t.axis] > 1 else 0),)]
        return acc


# --------------------------------------------------------------------------------------
# Contraction
# --------------------------------------------------------------------------------------


def product_factors(op: StageOp) -> list[int] | None:
    """The inputs whose product (each widened to f32 by `arith.extf` or `arith.sitofp`
    or already f32) the body yields, each once; None for any other body."""
    block = op.body.block
    args = list(block.args)
    used: list[int] = []

    def leaf(v: SSAValue) -> bool:
        if isinstance(v, BlockArgument) and v.owner is block and isinstance(v.type, Float32Type):
            used.append(v.index)
            return True
        o = v.owner
        if isinstance(o, arith.ExtFOp | arith.SIToFPOp) and isinstance(v.type, Float32Type):
            src = o.operands[0]
            if isinstance(src, BlockArgument) and src.owner is block:
                used.append(src.index)
                return True
        return False

    def walk(v: SSAValue) -> bool:
        o = v.owner
        if isinstance(o, arith.MulfOp) and isinstance(v.type, Float32Type):
            return walk(o.lhs) and walk(o.rhs)
        return leaf(v)

    y = cast(YieldOp, block.last_op).value
    if not walk(y) or len(used) != len(set(used)) or len(used) < 2:
        return None
    n_ops = sum(1 for o in block.ops if not isinstance(o, YieldOp))
    casts = sum(1 for a in args if a.index in used and not isinstance(a.type, Float32Type))
    if n_ops != (len(used) - 1) + casts:
        return None  # the body does more than the product (an op nothing here reads)
    return used


class Contraction:
    """`sum over summed axes of prod(factors)` as batched matrix products.

    Axes are the lead and iteration axes. The pair (A, B) is the large operand B and
    the factor A sharing with it the most summed axes no other factor has (`C`, the
    matrix product's inner axes); `G` are the other axes both vary on (the batch), `M`
    A's own axes, `N` B's. Per chunk of the last batch axis: B's chunk is cast to f32
    into one buffer, `A @ B` gives `P[g, M, N]`, and `einsum` multiplies the other
    factors in and sums what is summed into the output.
    """

    def __init__(self, shapes: Sequence[Shape], summed: Sequence[int], out_shape: Shape, big_dtype: np.dtype[Any]):
        self.nfac = len(shapes)
        ndim = len(out_shape)
        vary = [{d for d, e in enumerate(s) if e > 1} for s in shapes]
        sizes = [math.prod(s) for s in shapes]
        b = int(np.argmax(sizes))
        best, best_c = -1, set()
        for a in range(self.nfac):
            if a == b:
                continue
            others = set().union(*(vary[k] for k in range(self.nfac) if k not in (a, b)))
            c = {d for d in summed if d in vary[a] and d in vary[b] and d not in others}
            if math.prod(shapes[b][d] for d in c) > math.prod(shapes[b][d] for d in best_c) or best < 0:
                best, best_c = a, c
        if best < 0 or not best_c:
            raise ValueError("no pair of factors shares a summed axis")
        a = best
        self.a, self.b = a, b
        full = [max(s[d] for s in shapes) for d in range(ndim)]
        self.C = sorted(best_c)
        self.G = sorted((vary[a] & vary[b]) - best_c)
        self.M = sorted(vary[a] - vary[b])
        self.N = sorted(vary[b] - vary[a])
        if not self.G:
            raise ValueError("no batch axis to chunk the large operand along")
        rest = [k for k in range(self.nfac) if k not in (a, b)]
        known = set(self.G) | set(self.M) | set(self.N)
        if any(not vary[k] <= known for k in rest):
            raise ValueError("a factor varies along an axis neither A nor B does")
        self.rest = rest
        self.rest_axes = [[d for d in range(ndim) if d in vary[k]] for k in rest]
        self.full = full
        self.summed = set(summed)
        self.out_shape = out_shape
        ext = lambda axes: [full[d] for d in axes]  # noqa: E731
        self.Mf, self.Cf, self.Nf = (math.prod(ext(x)) for x in (self.M, self.C, self.N))
        last = self.G[-1]
        self.outer = self.G[:-1]
        per = self.Cf * self.Nf * 4
        self.chunk = max(1, min(full[last], CHUNK_BYTES // max(per, 1)))
        self.cols = self.Nf if self.Mf == 1 else min(self.Nf, 2048)
        # Letters for einsum: the last batch axis, then M and N.
        letters = iter(string.ascii_letters)
        self.letter = {d: next(letters) for d in [last, *self.M, *self.N]}
        p_spec = self.letter[last] + "".join(self.letter[d] for d in (*self.M, *self.N))
        r_specs = ["".join(self.letter[d] for d in range(ndim) if d in vary[k] and d in self.letter) for k in rest]
        o_axes = [d for d in range(ndim) if d in self.letter and d not in self.summed and out_shape[d] > 1]
        self.o_axes = o_axes
        self.spec = ",".join([p_spec, *r_specs]) + "->" + "".join(self.letter[d] for d in o_axes)
        self.big_dtype = big_dtype

    def _arrange(self, x: np.ndarray, first: Sequence[int], second: Sequence[int], third: Sequence[int]) -> np.ndarray:
        """`x` (all axes, 1 where it does not vary) with the axes `first`, `second`,
        `third` in that order and every other axis dropped (it has extent 1)."""
        keep = [*first, *second, *third]
        drop = [d for d in range(x.ndim) if d not in keep]
        y = x.reshape([x.shape[d] for d in range(x.ndim) if d not in drop]) if drop else x
        order = [sorted(keep).index(d) for d in keep]
        return y.transpose(order)

    def run(self, factors: Sequence[np.ndarray], out: np.ndarray) -> None:
        """Add the contraction into `out` (shape: all axes, 1 along summed ones)."""
        A = self._arrange(factors[self.a], self.G, self.M, self.C)
        A = np.ascontiguousarray(A, dtype=np.float32)
        gsh = [self.full[d] for d in self.G]
        A = A.reshape(*gsh, self.Mf, self.Cf)
        B = self._arrange(factors[self.b], self.G, self.C, self.N)
        last = self.G[-1]
        n_last = self.full[last]
        g = self.chunk
        buf = np.empty((g, self.Cf, self.Nf), dtype=np.float32)
        prod = np.empty((g, self.Mf, self.Nf), dtype=np.float32)
        bview_shape = [*(self.full[d] for d in self.C), *(self.full[d] for d in self.N)]
        rest = list(zip((factors[k] for k in self.rest), self.rest_axes))
        for outer in itertools.product(*(range(self.full[d]) for d in self.outer)):
            a_o = A[outer]
            b_o = B[outer]
            rest_o = [(self._select(r, outer), axes) for r, axes in rest]
            for c0 in range(0, n_last, g):
                c1 = min(n_last, c0 + g)
                w = buf[: c1 - c0]
                np.copyto(w.reshape(c1 - c0, *bview_shape), b_o[c0:c1], casting="unsafe")
                p = prod[: c1 - c0]
                for k0 in range(0, self.Nf, self.cols):
                    np.matmul(a_o[c0:c1], w[..., k0 : k0 + self.cols], out=p[..., k0 : k0 + self.cols])
                pfull = p.reshape(c1 - c0, *(self.full[d] for d in (*self.M, *self.N)))
                ops = [pfull] + [self._chunk(r, axes, last, c0, c1) for r, axes in rest_o]
                target = self._target(out, outer, last, c0, c1)
                target += np.einsum(self.spec, *ops)

    def _select(self, r: np.ndarray, outer: tuple[int, ...]) -> np.ndarray:
        """A rest factor at the outer batch indices (kept at all axes)."""
        idx: list[Any] = [slice(None)] * r.ndim
        for d, i in zip(self.outer, outer):
            idx[d] = i if r.shape[d] > 1 else 0
            idx[d] = slice(idx[d], idx[d] + 1)
        return r[tuple(idx)]

    def _chunk(self, r: np.ndarray, axes: list[int], last: int, c0: int, c1: int) -> np.ndarray:
        """A rest factor's chunk, its axes those the einsum names for it (`axes`
        that are not outer batch axes)."""
        idx: list[Any] = [slice(None)] * r.ndim
        if last in axes:
            idx[last] = slice(c0, c1)
        y = r[tuple(idx)]
        keep = [d for d in axes if d in self.letter]
        return y.reshape([y.shape[d] for d in keep])

    def _target(self, out: np.ndarray, outer: tuple[int, ...], last: int, c0: int, c1: int) -> np.ndarray:
        idx: list[Any] = [slice(None)] * out.ndim
        for d, i in zip(self.outer, outer):
            idx[d] = slice(i, i + 1) if out.shape[d] > 1 else slice(0, 1)
        if out.shape[last] > 1:
            idx[last] = slice(c0, c1)
        y = out[tuple(idx)]
        return y.reshape([y.shape[d] for d in self.o_axes])


# --------------------------------------------------------------------------------------
# A stage
# --------------------------------------------------------------------------------------


class StageEval:
    """One stage for a lead of (trips, items), and an optional extra leading axis of
    the iteration space (siblings run as one): the shape of what it yields, (lead,
    [extra], parallel extents, 1 where it does not vary), and how it computes it.
    `fast=False` takes the plain path only (no contraction, no row terms): the twin
    the tests prove the fast paths equal to."""

    def __init__(
        self,
        op: StageOp,
        shapes: Sequence[Shape],
        nlead: int = 2,
        extra: int = 0,
        drop_first: bool = False,
        fast: bool = True,
    ):
        self.op = op
        ext = op.iter_extents
        kinds = op.iter_kinds
        base = nlead + extra
        self.summed = [base + d for d, k in enumerate(kinds) if k == IterKind.SUM]
        self.body = Body(op, shapes, nlead, extra, drop_first, rows=fast)
        full = self.body.out_shape
        self.extents = tuple(
            full[d] if d < base else ext[d - base] for d in range(len(full))
        )
        kept = [d for d in range(len(full)) if d not in self.summed]
        self.full_shape = tuple(1 if d in self.summed else full[d] for d in range(len(full)))
        for t in self.body.terms:
            if t.rows:
                self.full_shape = tuple(
                    self.extents[d] if d == t.axis else e for d, e in enumerate(self.full_shape)
                )
        self.shape = tuple(self.full_shape[d] for d in kept)
        """What the stage yields: lead, [extra], the parallel axes."""
        self.dtype = numpy_dtype(cast(PageType, op.result.type).element_type)
        self.contraction: Contraction | None = None
        factors = product_factors(op) if fast and self.summed and not drop_first else None
        if factors is not None and self.dtype == np.float32:
            fshapes = [shapes[i] for i in factors]
            try:
                self.contraction = Contraction(
                    fshapes, self.summed, self.full_shape, np.dtype(np.float32)
                )
                self.factors = factors
            except ValueError:
                self.contraction = None

    def run(self, operands: Sequence[np.ndarray]) -> np.ndarray:
        """The stage's values, `self.shape`, in its buffer's element type."""
        if self.contraction is not None:
            out = np.zeros(self.full_shape, dtype=np.float32)
            self.contraction.run([operands[i] for i in self.factors], out)
            return out.reshape(self.shape)
        v = np.asarray(self.body.run(operands))
        if self.summed:
            v = np.broadcast_to(v, broadcast(v.shape, tuple(self.extents[d] if d in self.summed else 1 for d in range(len(self.extents)))))
            acc = v.dtype if v.dtype.kind in "iub" else np.dtype(np.float32)
            v = v.astype(acc, copy=False).sum(axis=tuple(self.summed), dtype=acc)
        v = np.broadcast_to(v, self.shape)
        return np.ascontiguousarray(v, dtype=self.dtype)
