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
from xdsl.ir import BlockArgument, SSAValue

from xdsl_spatial.core.geometry import linear_form
from xdsl_spatial.dialects.spatial import IndexOp, IterKind, PageType, StageOp, YieldOp
from xdsl_spatial.dialects.spatial.stages import sum_link
from xdsl_spatial.interpreters.kernels import Kernel, prepare
from xdsl_spatial.interpreters.values import as_f32, numpy_dtype

Shape = tuple[int, ...]

CHUNK_BYTES = 4 << 20
"""The f32 buffer a contraction casts its large operand into, a chunk at a time: it
stays in the last-level cache between the cast and the matrix product."""


LINE = 64
"""Bytes of a cache line: where the contraction's buffers start (malloc gives 16-byte
alignment, and a cast into a buffer that starts mid-line runs 5-7% slower)."""


def line_aligned(shape: Shape) -> np.ndarray:
    """An uninitialised f32 array of `shape` that starts at a cache line (when it is
    large enough for that to matter: finding the address costs microseconds)."""
    n = math.prod(shape)
    if n < (1 << 18):
        return np.empty(shape, dtype=np.float32)
    raw = np.empty(n + LINE // 4, dtype=np.float32)
    at = (-raw.ctypes.data % LINE) // 4
    return raw[at : at + n].reshape(shape)


def broadcast(*shapes: Shape) -> Shape:
    return tuple(np.broadcast_shapes(*shapes))


def map_offsets(m: Any, ext: Sequence[int]) -> np.ndarray:
    """A stage map's page offsets over the iteration space, extent 1 along the axes
    it does not read (any symbol counted as 0)."""
    form = linear_form(m.results[0], m.num_dims, m.num_symbols)
    assert form is not None, "stage maps are linear (verified)"
    return form.over_axes(ext)


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

    def __init__(self, op: StageOp, shapes: Sequence[Shape], nlead: int, rows: bool = True):
        block = op.body.block
        ext = op.iter_extents
        ndim = nlead + len(ext)
        self.slot: dict[SSAValue, int] = {a: i for i, a in enumerate(block.args)}
        self.static: dict[int, Any] = {}
        self.shape: dict[int, Shape] = dict(enumerate(shapes))
        self.steps: list[Step] = []
        for o in block.ops:
            if isinstance(o, YieldOp):
                continue
            r = len(self.slot)
            self.slot[o.results[0]] = r
            if isinstance(o, IndexOp):
                d = nlead + o.dim.data
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
        self.rows = rows
        self.terms = self._terms(cast(YieldOp, block.last_op).value)
        # The body's values indexed the slots while it was read; the compiled body
        # keeps none of them (it holds no reference into the IR, and pickles alone).
        del self.slot
        # Only the ops the terms read run (a row term's select does not).
        needed = {t.slot for t in self.terms}
        for st in reversed(self.steps):
            if st.result in needed:
                needed.update(st.args)
        self.steps = [st for st in self.steps if st.result in needed]
        # Operands have every axis (extent 1 where they do not vary).
        extents = tuple(
            max((sh[d] for sh in shapes), default=1) if d < nlead else ext[d - nlead]
            for d in range(ndim)
        )
        self.out_shape = (
            broadcast(*(self._term_shape(t, extents) for t in self.terms))
            if self.terms
            else (1,) * ndim
        )
        self.plain = [t for t in self.terms if not t.rows]
        self.template: list[Any] = [None] * self.size
        """The environment a run starts from: the static values in place."""
        for k, v in self.static.items():
            self.template[k] = v
        # Row terms of one row each, on one axis, all rows distinct: one add for all.
        singles = [t for t in self.terms if len(t.rows) == 1]
        self.row_groups: list[tuple[int, Any, list[int], list[int]]] = []
        self.stacked: list[int] = []
        """The row groups read as one stacked array each (`stack`)."""
        self.other_rows = [t for t in self.terms if len(t.rows) > 1]
        by_axis: dict[int, list[Term]] = {}
        for t in singles:
            by_axis.setdefault(t.axis, []).append(t)
        for axis, ts in by_axis.items():
            rs = [t.rows[0] for t in ts]
            if len(set(rs)) == len(rs):
                order = np.argsort(rs)
                ts = [ts[i] for i in order]
                rs = sorted(rs)
                sel: Any = (
                    slice(rs[0], rs[-1] + 1)
                    if rs == list(range(rs[0], rs[-1] + 1))
                    else np.asarray(rs)
                )
                self.row_groups.append((axis, sel, rs, [t.slot for t in ts]))
            else:
                self.other_rows += ts
        """The shape of the yielded value, a row term's axis at its full extent."""

    def _terms(self, yielded: SSAValue) -> list[Term]:
        """The yielded value as a sum: a chain of f32 adds whose inner adds have no
        other use is flattened into its terms, left to right."""
        out: list[Term] = []

        def walk(v: SSAValue, top: bool) -> None:
            add = sum_link(v, top)
            if add is not None and self.slot[v] not in self.static:
                walk(add.lhs, False)
                walk(add.rhs, False)
                return
            out.append(self._term(v))

        walk(yielded, True)
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

    def stack(self, group: int) -> None:
        """Row group `group` reads one array of its rows stacked along its axis (given
        after the operands, in the order groups are stacked) instead of a value a row."""
        self.stacked.append(group)

    def run(self, operands: Sequence[Any], stacked: Sequence[Any] = ()) -> Any:
        """The yielded value, shape `out_shape` or broadcastable to it. `stacked`: the
        arrays of the stacked row groups."""
        env = list(self.template)
        env[: len(operands)] = operands
        for st in self.steps:
            (env[st.result],) = st.kernel([env[a] for a in st.args])
        plain, rows = self.plain, self.row_groups or self.other_rows
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
        by_group = dict(zip(self.stacked, stacked))
        for g, (axis, sel, rows_, slots) in enumerate(self.row_groups):
            # Terms of one row each, distinct rows of one axis: added in one go.
            if g in by_group:
                acc[(slice(None),) * axis + (sel,)] += by_group[g]
                continue
            vals = []
            for k, r in zip(slots, rows_):
                v = np.asarray(env[k], dtype=np.float32)
                v = v.reshape((1,) * (acc.ndim - v.ndim) + v.shape)
                vals.append(v if v.shape[axis] == 1 else v.take([r], axis=axis))
            acc[(slice(None),) * axis + (sel,)] += np.concatenate(vals, axis=axis)
        for t in self.other_rows:
            v = np.asarray(env[t.slot], dtype=np.float32)
            v = v.reshape((1,) * (acc.ndim - v.ndim) + v.shape)
            lead = (slice(None),) * t.axis
            for r in t.rows:
                acc[(*lead, r)] += v[(*lead, r if v.shape[t.axis] > 1 else 0)]
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

    def __init__(
        self,
        shapes: Sequence[Shape],
        summed: Sequence[int],
        out_shape: Shape,
        big_dtype: np.dtype[Any],
    ):
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
            if (
                math.prod(shapes[b][d] for d in c) > math.prod(shapes[b][d] for d in best_c)
                or best < 0
            ):
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
        self.full = full
        self.summed = set(summed)
        self.out_shape = out_shape
        ext = lambda axes: [full[d] for d in axes]
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
        # The other factors are taken with their axes in P's order (the outer batch
        # axes first), so that each chunk of them is read as P is.
        p_order = [*self.outer, last, *self.M, *self.N]
        self.rest_perm = [
            tuple(p_order + [d for d in range(ndim) if d not in p_order]) for _ in rest
        ]
        self.rest_axes = [
            [d for d in perm if d in vary[k]] for k, perm in zip(rest, self.rest_perm)
        ]
        r_specs = [
            "".join(self.letter[d] for d in axes if d in self.letter) for axes in self.rest_axes
        ]
        # The einsum writes in P's order (its chunk axis, then M, then N), which it
        # reads fastest; the output (all axes in order) takes it through a transposed
        # view.
        o_axes = [d for d in [last, *self.M, *self.N] if d not in self.summed and out_shape[d] > 1]
        self.o_axes = o_axes
        self.o_order = tuple(sorted(o_axes).index(d) for d in o_axes)
        self.spec = ",".join([p_spec, *r_specs]) + "->" + "".join(self.letter[d] for d in o_axes)
        self.a_view = self._arrangement(shapes[a], (self.G, self.M, self.C))
        self.b_view = self._arrangement(shapes[b], (self.G, self.C, self.N))
        self.a_shape = (*(full[d] for d in self.G), self.Mf, self.Cf)
        self.b_chunk = tuple(full[d] for d in (*self.C, *self.N))
        self.p_shape = tuple(full[d] for d in (*self.M, *self.N))
        self.col_runs = [(k0, min(self.Nf, k0 + self.cols)) for k0 in range(0, self.Nf, self.cols)]
        # Every chunk, worked out now: where A, B, the other factors and the output
        # are cut, and their shapes.
        self.chunks: list[tuple[Any, ...]] = []
        for outer in itertools.product(*(range(full[d]) for d in self.outer)):
            for c0 in range(0, full[last], self.chunk):
                c1 = min(full[last], c0 + self.chunk)
                ab = (*outer, slice(c0, c1))
                rest_cuts = []
                for k, axes, perm in zip(rest, self.rest_axes, self.rest_perm):
                    idx: list[Any] = [slice(None)] * ndim
                    for d, i in zip(self.outer, outer):
                        idx[d] = slice(i, i + 1) if shapes[k][d] > 1 else slice(0, 1)
                    if last in axes:
                        idx[last] = slice(c0, c1)
                    shape = tuple(
                        c1 - c0 if d == last else full[d] for d in axes if d in self.letter
                    )
                    rest_cuts.append((tuple(idx[d] for d in perm), shape))
                tidx: list[Any] = [slice(None)] * ndim
                for d, i in zip(self.outer, outer):
                    tidx[d] = slice(i, i + 1) if out_shape[d] > 1 else slice(0, 1)
                if out_shape[last] > 1:
                    tidx[last] = slice(c0, c1)
                tshape = tuple(c1 - c0 if d == last else out_shape[d] for d in sorted(o_axes))
                self.chunks.append((ab, c1 - c0, rest_cuts, tuple(tidx), tshape))

    @staticmethod
    def _arrangement(
        shape: Shape, groups: Sequence[Sequence[int]]
    ) -> tuple[Shape, tuple[int, ...]]:
        """How to view an operand (all axes, 1 where it does not vary) with the axes
        of `groups` in that order: the shape without its other axes (all of extent
        1), then the transposition."""
        keep = [d for g in groups for d in g]
        kept = sorted(keep)
        return tuple(shape[d] for d in kept), tuple(kept.index(d) for d in keep)

    def run(self, factors: Sequence[np.ndarray], out: np.ndarray) -> None:
        """Add the contraction into `out` (shape: all axes, 1 along summed ones)."""
        (ash, aorder), (bsh, border) = self.a_view, self.b_view
        A = factors[self.a].reshape(ash).transpose(aorder)
        A = np.ascontiguousarray(A, dtype=np.float32).reshape(self.a_shape)
        B = factors[self.b].reshape(bsh).transpose(border)
        # The other factors are small (the scales): in f32 once, as the einsum wants
        # them (f16 ones widened into P's order; f32 ones a transposed view).
        rest = [as_f32(factors[k].transpose(perm)) for k, perm in zip(self.rest, self.rest_perm)]
        buf = line_aligned((self.chunk, self.Cf, self.Nf))
        prod = line_aligned((self.chunk, self.Mf, self.Nf))
        for ab, g, rest_cuts, tidx, tshape in self.chunks:
            w, p = buf[:g], prod[:g]
            np.copyto(w.reshape(g, *self.b_chunk), B[ab], casting="unsafe")
            a = A[ab]
            for k0, k1 in self.col_runs:
                np.matmul(a, w[..., k0:k1], out=p[..., k0:k1])
            ops = [p.reshape(g, *self.p_shape)]
            ops += [r[idx].reshape(shape) for r, (idx, shape) in zip(rest, rest_cuts)]
            target = out[tidx].reshape(tshape).transpose(self.o_order)
            target += np.einsum(self.spec, *ops)


# --------------------------------------------------------------------------------------
# A stage
# --------------------------------------------------------------------------------------


class StageEval:
    """One stage for a lead of (trips, items): the shape of what it yields, (lead,
    parallel extents, 1 where it does not vary), and how it computes it. `fast=False`
    takes the plain path only (no contraction, no row terms): the twin the tests
    prove the fast paths equal to."""

    def __init__(self, op: StageOp, shapes: Sequence[Shape], nlead: int = 2, fast: bool = True):
        ext = op.iter_extents
        kinds = op.iter_kinds
        base = nlead
        self.summed = [base + d for d, k in enumerate(kinds) if k == IterKind.SUM]
        self.maxed = [base + d for d, k in enumerate(kinds) if k == IterKind.MAX]
        """The axes it takes the largest value along (a stage sums or takes maxima,
        not both)."""
        reduced = self.summed + self.maxed
        self.body = Body(op, shapes, nlead, rows=fast)
        full = self.body.out_shape
        self.extents = tuple(full[d] if d < base else ext[d - base] for d in range(len(full)))
        kept = [d for d in range(len(full)) if d not in reduced]
        self.full_shape = tuple(1 if d in reduced else full[d] for d in range(len(full)))
        for t in self.body.terms:
            if t.rows:
                self.full_shape = tuple(
                    self.extents[d] if d == t.axis else e for d, e in enumerate(self.full_shape)
                )
        self.shape = tuple(self.full_shape[d] for d in kept)
        """What the stage yields: lead, the parallel axes."""
        self.dtype = numpy_dtype(cast(PageType, op.result.type).element_type)
        self.contraction: Contraction | None = None
        factors = product_factors(op) if fast and self.summed else None
        if factors is not None and self.dtype == np.float32:
            fshapes = [shapes[i] for i in factors]
            try:
                self.contraction = Contraction(
                    fshapes, self.summed, self.full_shape, np.dtype(np.float32)
                )
                self.factors = factors
            except ValueError:
                self.contraction = None

    def run(
        self, operands: Sequence[np.ndarray | None], stacked: Sequence[np.ndarray] = ()
    ) -> np.ndarray:
        """The stage's values, `self.shape`, in its buffer's element type (`stacked`:
        the arrays of its stacked row groups, see `Body.stack`; their operands are None)."""
        if self.contraction is not None:
            out = np.zeros(self.full_shape, dtype=np.float32)
            self.contraction.run([cast(np.ndarray, operands[i]) for i in self.factors], out)
            return out.reshape(self.shape)
        v = np.asarray(self.body.run(operands, stacked))
        if self.summed:
            v = np.broadcast_to(
                v,
                broadcast(
                    v.shape,
                    tuple(
                        self.extents[d] if d in self.summed else 1 for d in range(len(self.extents))
                    ),
                ),
            )
            acc = v.dtype if v.dtype.kind in "iub" else np.dtype(np.float32)
            v = v.astype(acc, copy=False).sum(axis=tuple(self.summed), dtype=acc)
        if self.maxed:
            v = np.broadcast_to(
                v,
                broadcast(
                    v.shape,
                    tuple(
                        self.extents[d] if d in self.maxed else 1 for d in range(len(self.extents))
                    ),
                ),
            )
            v = v.astype(np.float32, copy=False).max(axis=tuple(self.maxed))
        if v.shape != self.shape:
            v = np.broadcast_to(v, self.shape)
        return np.ascontiguousarray(v, dtype=self.dtype)
