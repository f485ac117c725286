"""
An operand read through its indexing map as an array over the loops: a view, a row
gather or fancy indexing, by the map's form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from xdsl_spatial.interpreters.kernels import (
    KernelError,
)

Reader = Callable[[Any], Any]


def loop_grids(ranges: Sequence[int]) -> list[np.ndarray]:
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
        grids = loop_grids(ranges)
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
    grids = loop_grids(ranges)
    n = len(ranges)
    index = tuple(np.asarray(eval_expr(e, grids), dtype=np.intp) for e in m.results)
    if n and all(i.ndim == 0 for i in index):
        index = tuple(i.reshape((1,) * n) for i in index)
    return lambda a: a[index]
