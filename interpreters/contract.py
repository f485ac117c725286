"""
A product body summed over some axes, contracted with BLAS.

The largest operand (the int8 weight) is cast to f32 a slice at a time into a buffer
reused through the program run, so no f32 copy of it ever exists; each slice is
multiplied by a batched matmul and, when a batch axis is summed (the Q8_0 blocks),
the products are scaled and summed while they are in cache.
"""

from __future__ import annotations

import ctypes
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.ir import BlockArgument, SSAValue

from xdsl_spatial.interpreters.body import evaluate, plain


def contract(
    factors: list[tuple[SSAValue, int | None]],
    args: Sequence[BlockArgument],
    operands: list[np.ndarray],
    ext: Sequence[int],
    lead: tuple[int, ...],
    sum_axes: tuple[int, ...],
    scratch: Scratch,
    static: dict[SSAValue, Any],
) -> np.ndarray:
    """A product body summed over `sum_axes`, contracted pairwise with BLAS."""
    env: dict[SSAValue, Any] | None = None
    terms: list[np.ndarray] = []
    for f, widened in factors:
        # A factor of one input is evaluated over that input's axes only; a plain
        # widening to f32 is left to the contraction, which casts as it arranges.
        if widened is not None:
            arr = np.asarray(operands[widened])
        else:
            if env is None:
                env = dict(zip(args, operands))
                env.update(static)
            arr = np.asarray(plain(evaluate(f, env, ext)))
            if arr.dtype != np.float32:
                arr = arr.astype(np.float32)
        terms.append(arr.reshape((1,) * (len(lead) + len(ext) - arr.ndim) + arr.shape))
    spec, keeps, full_shape, scales = _spec(
        tuple(t.shape for t in terms), (*lead, *ext), sum_axes
    )
    res = einsum(spec, [t.reshape(k) for t, k in zip(terms, keeps)], scratch)
    # Axes no factor depends on: the value is the same along them (broadcast back).
    res = res.reshape(full_shape)
    # A sum axis no factor depends on multiplies the value by its extent.
    for e in scales:
        res = res * np.float32(e)
    return res


_SPECS: dict[tuple[Any, ...], tuple[str, list[tuple[int, ...]], tuple[int, ...], list[int]]] = {}


def _spec(
    shapes: tuple[tuple[int, ...], ...], full: tuple[int, ...], sum_axes: tuple[int, ...]
) -> tuple[str, list[tuple[int, ...]], tuple[int, ...], list[int]]:
    """The einsum of terms of these shapes (extent 1 where a term does not vary) over
    the space `full`, summed over `sum_axes`: its spec, each term's shape without its
    extent-1 axes, the result's shape with extent 1 where no term varies, and the
    extents of summed axes no term varies along (each multiplies the sum). Worked
    out once per stage and shapes."""
    key = (shapes, full, sum_axes)
    hit = _SPECS.get(key)
    if hit is not None:
        return hit
    nd = len(full)
    letters = "abcdefghijklmnopqrstuvwxyz"[:nd]
    subs = []
    keeps = []
    for sh in shapes:
        keep = [d for d in range(nd) if sh[d] != 1]
        subs.append("".join(letters[d] for d in keep))
        keeps.append(tuple(sh[d] for d in keep))
    out_dims = [d for d in range(nd) if d not in sum_axes]
    present = set("".join(subs))
    spec = ",".join(subs) + "->" + "".join(letters[d] for d in out_dims if letters[d] in present)
    full_shape = tuple(full[d] if letters[d] in present else 1 for d in out_dims)
    scales = [full[d] for d in sum_axes if letters[d] not in present]
    if len(_SPECS) > 1024:
        _SPECS.clear()
    _SPECS[key] = hit = (spec, keeps, full_shape, scales)
    return hit


def factor_sources(
    factors: list[SSAValue], args: Sequence[BlockArgument]
) -> list[tuple[SSAValue, int | None]]:
    """Each factor, and the input it widens to f32 if that is all it does (by the
    input's index; None: evaluated over the space)."""
    out: list[tuple[SSAValue, int | None]] = []
    for f in factors:
        op = f.owner
        widened = None
        if isinstance(op, arith.SIToFPOp | arith.ExtFOp) and op.input in args:
            widened = list(args).index(cast(BlockArgument, op.input))
        out.append((f, widened))
    return out


CHUNK_ELEMS = 1 << 20
"""f32 elements of a big operand cast at a time (4 MiB)."""


LINE = 64
"""Bytes of a cache line: where scratch buffers start. malloc aligns only to 16, and
a cast into (or a matmul out of) a buffer that starts mid-line ran 5-7% slower here."""


def address(a: np.ndarray) -> int:
    """Where a writeable array's data starts (through ctypes' buffer protocol: a third
    of the cost of `ndarray.ctypes` when its code is out of cache)."""
    return ctypes.addressof(ctypes.c_char.from_buffer(a))


class Scratch:
    """f32 buffers reused through one program run for the arranged operands and
    products of its contractions (the big operand's cast slices among them), freed
    with the run: a program never holds more than CHUNK_ELEMS f32 for a slice. Each
    starts at a cache line."""

    def __init__(self) -> None:
        self._bufs: dict[str, np.ndarray] = {}

    def take(self, role: str, shape: Sequence[int]) -> np.ndarray:
        size = math.prod(shape)
        buf = self._bufs.get(role)
        if buf is None or buf.size < size:
            raw = np.empty(size * 4 + LINE, dtype=np.uint8)
            at = -address(raw) % LINE
            buf = raw[at : at + size * 4].view(np.float32)
            self._bufs[role] = buf
        return buf[:size].reshape(shape)


@dataclass
class _EinsumPlan:
    """How `einsum` contracts one spec over operands of given shapes."""

    big: int
    other: int
    rest: list[int]
    sizes: dict[str, int]
    batch: list[str]
    outer: list[str]
    a_order: list[str]
    big_perm: list[int]
    dims: list[str]
    fa: int
    fb: int
    nb: int
    k: int
    lead: str
    step: int
    """Indices of the big operand's leading axis cast at a time."""
    block_step: int
    """... of its first summed batch axis, when one is (the Q8_0 blocks)."""
    then_einsum: bool
    """Another operand keeps an axis the product does not have: einsum after."""
    factor_prep: list[tuple[tuple[int, ...], list[int], list[int]]]
    """Per other operand: axes summed first, transposition, shape over `dims`."""


_EINSUM_PLANS: dict[tuple[Any, ...], _EinsumPlan | None] = {}


def _einsum_plan(spec: str, shapes: tuple[tuple[int, ...], ...]) -> _EinsumPlan | None:
    """The plan for `spec` (None: a plain einsum does it), worked out once per spec,
    shapes and slice size."""
    key = (spec, shapes, CHUNK_ELEMS)
    if key in _EINSUM_PLANS:
        return _EINSUM_PLANS[key]
    inputs, out = spec.split("->")
    subs = inputs.split(",")
    n_in = len(subs)
    big = max(range(n_in), key=lambda i: math.prod(shapes[i]))
    sizes = {c: e for s_, sh in zip(subs, shapes) for c, e in zip(s_, sh)}

    def plan(other: int):
        rest = [i for i in range(n_in) if i not in (big, other)]
        later = set(out) | set("".join(subs[i] for i in rest))
        sb, sa = subs[big], subs[other]
        batch = [c for c in sb if c in sa and c in later]
        contract = [c for c in sb if c in sa and c not in later]
        free_b = [c for c in sb if c not in sa]
        free_a = [c for c in sa if c not in sb]
        size = math.prod(sizes[c] for c in batch + free_a + free_b)
        return size, rest, batch, contract, free_a, free_b

    other = min((i for i in range(n_in) if i != big), key=lambda i: plan(i)[0])
    _, rest, batch, contract, free_a, free_b = plan(other)
    result: _EinsumPlan | None = None
    if contract:
        # Batch axes the result keeps (the K trips of a batch) before the first one it
        # sums (the Q8_0 blocks): each index of them is contracted on its own.
        outer: list[str] = []
        for c in batch:
            if c not in out:
                break
            outer.append(c)
        # The big operand keeps its own order (batch, contract, free), so the copy that
        # casts it to f32 reads its memory in runs; it is cast a slice of its leading
        # axis at a time, into a reused buffer, so no full f32 copy of it ever exists.
        order_b = batch + contract + free_b
        dims = batch + free_a + free_b

        def slicing(at: int) -> int:
            unit = math.prod(sizes[c] for c in order_b[at + 1 :])
            return max(1, min(sizes[order_b[at]], CHUNK_ELEMS // max(unit, 1)))

        prep = []
        for i in rest:
            missing = [c for c in subs[i] if c not in dims]
            sub = "".join(c for c in subs[i] if c not in missing)
            prep.append(
                (
                    tuple(subs[i].index(c) for c in missing),
                    [sub.index(c) for c in dims if c in sub],
                    [sizes[c] if c in sub else 1 for c in dims],
                )
            )
        result = _EinsumPlan(
            big, other, rest, sizes, batch, outer, batch + free_a + contract,
            [subs[big].index(c) for c in order_b], dims,
            math.prod(sizes[c] for c in free_a), math.prod(sizes[c] for c in free_b),
            math.prod(sizes[c] for c in batch), math.prod(sizes[c] for c in contract),
            order_b[0], slicing(0), slicing(len(outer)) if len(outer) < len(batch) else 0,
            any(c in out and c not in dims for i in rest for c in subs[i]), prep,
        )
    if len(_EINSUM_PLANS) > 1024:
        _EINSUM_PLANS.clear()
    _EINSUM_PLANS[key] = result
    return result


def einsum(spec: str, arrays: list[np.ndarray], scratch: Scratch) -> np.ndarray:
    """`np.einsum`, with the largest operand first contracted by a batched matmul
    against the operand that leaves the smallest result, the rest multiplied in."""
    if len(arrays) < 2:
        return np.einsum(spec, *[_f32(a) for a in arrays])
    pl = _einsum_plan(spec, tuple(a.shape for a in arrays))
    if pl is None:
        return np.einsum(spec, *[_f32(a) for a in arrays], optimize=True)
    inputs, out = spec.split("->")
    subs = inputs.split(",")
    sizes, dims, batch = pl.sizes, pl.dims, pl.batch
    A = _arrange(arrays[pl.other], subs[pl.other], pl.a_order, scratch, "A")
    big_t = arrays[pl.big].transpose(pl.big_perm)
    if pl.then_einsum:
        prod = _chunked_matmul(
            A, _f32_slices(big_t, pl.step, scratch), pl.nb, pl.fa, pl.k, pl.fb,
            sizes[pl.lead], bool(batch),
        )
        return np.einsum(
            ",".join(["".join(dims)] + [subs[i] for i in pl.rest]) + "->" + out,
            prod.reshape([sizes[c] for c in dims]),
            *[_f32(arrays[i]) for i in pl.rest],
            optimize=True,
        )
    # Every other factor multiplies in elementwise, broadcast to the product's axes.
    factors = []
    for i, (missing, perm, shape) in zip(pl.rest, pl.factor_prep):
        f = _f32(arrays[i])
        if missing:
            f = f.sum(axis=missing)
        factors.append(f.transpose(perm).reshape(shape))
    no = len(pl.outer)
    if no < len(batch):
        # A batch axis is summed (after the kept ones): scaled and summed in slices.
        prod = _contract_blocks(
            A, big_t, factors, dims, no, sizes, pl.fa, pl.k, pl.fb, pl.block_step, scratch
        )
        dims = pl.outer + dims[no + 1 :]
    else:
        prod = _chunked_matmul(
            A, _f32_slices(big_t, pl.step, scratch), pl.nb, pl.fa, pl.k, pl.fb,
            sizes[pl.lead], bool(batch),
        )
        prod = prod.reshape([sizes[c] for c in dims])
        for f in factors:
            prod = prod * f
    drop = tuple(j for j, c in enumerate(dims) if c not in out)
    res = prod.sum(axis=drop, dtype=np.float32) if drop else prod
    kept = [c for c in dims if c in out]
    return res.transpose([kept.index(c) for c in out])


P_WHOLE = 1 << 20
"""Bytes of products up to which a whole run of summed blocks is multiplied before it
is scaled and summed by one call (else each slice is, while it is in cache)."""


def _contract_blocks(
    A: np.ndarray,
    big_t: np.ndarray,
    factors: list[np.ndarray],
    dims: list[str],
    no: int,
    sizes: dict[str, int],
    fa: int,
    k: int,
    fb: int,
    step: int,
    scratch: Scratch,
) -> np.ndarray:
    """The product summed over batch axis `dims[no]` (the Q8_0 blocks), for each index
    of the kept batch axes before it (`dims[:no]`, the K trips): the big operand is
    cast a slice of blocks at a time, each slice multiplied by one batched matmul, and
    the products scaled and summed while they are in cache. Result: the kept axes,
    then `dims[no + 1:]`."""
    osz = [sizes[c] for c in dims[:no]]
    blocks = sizes[dims[no]]
    rest = [sizes[c] for c in dims[no + 1 :]]
    inner = math.prod(rest) // (fa * fb)
    total = np.zeros(osz + rest, dtype=np.float32)
    A4 = A.reshape(math.prod(osz), blocks * inner, fa, k)
    sub = "".join(dims[no:])
    whole = blocks * inner * fa * fb * 4 <= P_WHOLE
    P = scratch.take("P", (blocks * inner if whole else step * inner, fa, fb))
    # One factor along the summed axis (a Q8_0 block's scale) is multiplied in and
    # summed by one einsum, a single pass over the products.
    fused = f_sq = None
    f_shape = factors[0].shape[no:] if len(factors) == 1 else ()
    if f_shape and f_shape[0] > 1:
        f_sub = "".join(c for c, e in zip(sub, f_shape) if e > 1)
        fused = f"{sub},{f_sub}->{sub[1:]}"
        f_sq_shape = [e for e in f_shape if e > 1]
    # Each factor over every index of the kept axes (stride 0 where it does not vary),
    # and the buffer the slices are cast into: both once, not once a trip.
    per_trip = [np.broadcast_to(f, (*osz, *f.shape[no:])) for f in factors]
    buf = scratch.take("B", (min(step, blocks), *big_t.shape[no + 1 :]))
    for oi, o in enumerate(itertools.product(*map(range, osz))):
        fo = [f[o] for f in per_trip]
        if fused is not None:
            f_sq = fo[0].reshape(f_sq_shape)
        A_o = A4[oi]
        for j0, j1, Bc in _f32_slices(big_t[o], step, buf):
            rows = inner * (j1 - j0)
            at = j0 * inner if whole else 0
            _matmul(A_o[j0 * inner : j0 * inner + rows], Bc.reshape(rows, k, fb), P[at : at + rows])
            if not whole:
                _fold(total, o, P[:rows], j0, j1, rest, fused, f_sq, fo)
        if whole:
            _fold(total, o, P, 0, blocks, rest, fused, f_sq, fo)
    return total


def _fold(
    total: np.ndarray,
    o: tuple[int, ...],
    p: np.ndarray,
    j0: int,
    j1: int,
    rest: list[int],
    fused: str | None,
    f_sq: np.ndarray | None,
    factors: list[np.ndarray],
) -> None:
    """Add blocks j0..j1 of the products `p`, scaled by the factors, into `total[o]`."""
    p = p.reshape([j1 - j0] + rest)
    if fused is not None:
        total[o] += np.einsum(fused, p, cast(np.ndarray, f_sq)[j0:j1])
        return
    for f in factors:
        p *= f[j0:j1] if f.shape[0] > 1 else f
    total[o] += p.sum(axis=0, dtype=np.float32)


MATMUL_COLS = 2048
"""Columns of one matmul call: wider ones fall out of OpenBLAS's cache blocking (a
(8 x 32) @ (32 x 4096) f32 product runs 2.5x slower per column than at 2048 here).
A one-row product (a vector times a matrix) is not split: it pays per call instead."""


def _matmul(a: np.ndarray, b: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """`a @ b` for stacks of matrices, a block of at most MATMUL_COLS columns at a time."""
    if out is None:
        out = np.empty((*np.broadcast_shapes(a.shape[:-2], b.shape[:-2]), a.shape[-2], b.shape[-1]), np.float32)
    cols = b.shape[-1]
    if cols <= MATMUL_COLS or a.shape[-2] == 1:
        return np.matmul(a, b, out=out)
    for c0 in range(0, cols, MATMUL_COLS):
        c1 = min(cols, c0 + MATMUL_COLS)
        np.matmul(a, b[..., c0:c1], out=out[..., c0:c1])
    return out


def _f32_slices(
    big_t: np.ndarray, step: int, into: Scratch | np.ndarray
) -> Iterator[tuple[int, int, np.ndarray]]:
    """`big_t` cast to f32, `step` indices of its leading axis at a time, each slice in
    the same buffer (so no full f32 copy of it ever exists): `into`, or one taken from
    it."""
    shape = (min(step, big_t.shape[0]), *big_t.shape[1:])
    buf = into.take("B", shape) if isinstance(into, Scratch) else into
    for j0 in range(0, big_t.shape[0], step):
        j1 = min(big_t.shape[0], j0 + step)
        Bc = buf[: j1 - j0]
        np.copyto(Bc, big_t[j0:j1], casting="unsafe")
        yield j0, j1, Bc


def _chunked_matmul(
    A: np.ndarray,
    slices: Iterator[tuple[int, int, np.ndarray]],
    nb: int,
    fa: int,
    k: int,
    fb: int,
    lead: int,
    batched: bool,
) -> np.ndarray:
    """(batch, free_a, free_b) = A @ B, B given as f32 slices of its leading axis (of
    `lead` indices): a batch axis when `batched`, else the first contracted axis."""
    prod = np.zeros((nb, fa, fb), dtype=np.float32)
    for j0, j1, Bc in slices:
        if batched:
            rows = (nb // lead) * (j1 - j0)
            start = j0 * (nb // lead)
            a_part = A.reshape(nb, fa, k)[start : start + rows]
            _matmul(a_part, Bc.reshape(rows, k, fb), out=prod[start : start + rows])
        else:
            kk = k // lead
            a_part = A.reshape(fa, k)[:, j0 * kk : j1 * kk]
            prod[0] += a_part @ Bc.reshape((j1 - j0) * kk, fb)
    return prod


def _f32(a: np.ndarray) -> np.ndarray:
    return a if a.dtype == np.float32 else a.astype(np.float32)


def _arrange(
    a: np.ndarray, sub: str, order: list[str], scratch: Scratch, role: str
) -> np.ndarray:
    t = a.transpose([sub.index(c) for c in order])
    buf = scratch.take(role, t.shape)
    np.copyto(buf, t, casting="unsafe")
    return buf
