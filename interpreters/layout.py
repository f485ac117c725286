"""
Where a page's elements live while a compiled program runs, and how a stage or a
store reaches them.

Every address of a program is known when it is compiled (they are linear in the
item coordinates and the K index, and tables are constants), so the compiled engine
works out, once, where each element a stage reads or a store writes sits in an array
that exists at run time, and turns the whole access into one strided view of that
array when the addresses are affine, else into one gather (or scatter) through an
index array made once.

A page value is held in one of three ways (`Layout`):
- `Placed`: a load's page, still in its tensor: page element `e` of lead position
  `l` is tensor element `A[l, a(e)] + w(e)`, `a(e)` the block row of its tile and
  `w(e)` its place inside the block, `A` a small table of block-row origins;
- `Values`: a stage's values as it computed them, shape `lead + parallel extents`
  (extent 1 along every axis they do not vary on), written at the stage's output map;
- `Dense`: a page laid out in full, (lead..., page elements).

`lead` is (K trips, items): a value made once for every trip of a K loop has a trip
axis; everything else has trip extent 1. Either extent is 1 when the value is the
same for every trip or item.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from xdsl_spatial.core.geometry import PageGeometry

Lead = tuple[int, int]
"""(trips, items) of a value."""

Env = list[Any]
"""The runtime arrays of a compiled program, by slot."""

Step = Callable[[Env, "int | None"], None]
"""A step of a compiled program: runs on the environment, for every trip of its lead
at once (`None`) or for one K trip."""


# --------------------------------------------------------------------------------------
# Affine index arrays
# --------------------------------------------------------------------------------------


def affine_strides(idx: np.ndarray) -> tuple[int, tuple[int, ...]] | None:
    """(offset, per-axis strides) when `idx[x] == offset + sum(strides * x)` for every
    index `x` of the array, else None (an axis of extent 1 has stride 0)."""
    if idx.size == 0:
        return 0, (0,) * idx.ndim
    base = int(idx.flat[0])
    strides = []
    for d, e in enumerate(idx.shape):
        if e == 1:
            strides.append(0)
            continue
        at = [0] * idx.ndim
        at[d] = 1
        strides.append(int(idx[tuple(at)]) - base)
    pred = np.full(idx.shape, base, dtype=np.int64)
    for d, (e, s) in enumerate(zip(idx.shape, strides)):
        if s:
            pred = pred + s * np.arange(e, dtype=np.int64).reshape(
                [e if j == d else 1 for j in range(idx.ndim)]
            )
    if not np.array_equal(pred, idx):
        return None
    return base, tuple(strides)


def strided(
    flat: np.ndarray, offset: int, shape: Sequence[int], strides: Sequence[int]
) -> np.ndarray:
    """The view of the contiguous 1-d array `flat` whose element `x` is
    `flat[offset + sum(strides * x)]` (strides in elements). numpy checks that every
    element it reaches lies inside `flat`."""
    item = flat.itemsize
    if 0 in shape:
        return np.empty(shape, dtype=flat.dtype)
    return np.ndarray(
        tuple(shape), flat.dtype, flat, offset * item, tuple(s * item for s in strides)
    )


@dataclass(frozen=True)
class Access:
    """How to reach an array of shape `shape` (lead first) in the flat elements of a
    runtime array: a strided view when `strides` is set, else a gather through
    `index`. `read_trip` reaches one K trip of it (for a step that runs once a trip
    reading a value made for every trip at once)."""

    shape: tuple[int, ...]
    offset: int
    strides: tuple[int, ...] | None
    index: np.ndarray | None

    @staticmethod
    def of(lead: np.ndarray, inner: np.ndarray) -> Access:
        """The access of the elements at `lead + inner` (numpy broadcasting: `lead`
        has the lead axes first and extent 1 along `inner`'s axes, or their extents
        when the two do not separate), as a view wherever it is affine. An axis along
        which the elements do not change gets extent 1 (the value is the same along
        it: numpy broadcasts it)."""
        nl = lead.ndim - inner.ndim
        parts = None
        if all(e == 1 for e in lead.shape[nl:]):
            la = affine_strides(lead.reshape(lead.shape[:nl]))
            ia = affine_strides(inner)
            if la is not None and ia is not None:
                parts = la[0] + ia[0], la[1] + ia[1]
        idx = None
        if parts is None:
            idx = np.broadcast_to(
                lead + inner, (*lead.shape[:nl], *np.broadcast_shapes(lead.shape[nl:], inner.shape))
            )
            parts = affine_strides(idx)
        if parts is not None:
            full = (*lead.shape[:nl], *np.broadcast_shapes(lead.shape[nl:], inner.shape))
            shape = tuple(1 if st == 0 else e for e, st in zip(full, parts[1]))
            return Access(shape, parts[0], parts[1], None)
        assert idx is not None
        for d in range(idx.ndim):  # keep one copy along axes it does not vary on
            if idx.shape[d] > 1 and (idx == idx.take([0], axis=d)).all():
                idx = idx.take([0], axis=d)
        idx = np.ascontiguousarray(idx)
        idx.flags.writeable = False
        return Access(idx.shape, 0, None, idx)

    def read(self, flat: np.ndarray) -> np.ndarray:
        if self.strides is not None:
            if 0 in self.shape:
                return np.empty(self.shape, dtype=flat.dtype)
            item = flat.itemsize
            return np.ndarray(
                self.shape,
                flat.dtype,
                flat,
                self.offset * item,
                tuple(s * item for s in self.strides),
            )
        assert self.index is not None
        return flat[self.index]

    def read_trip(self, flat: np.ndarray, trip: int) -> np.ndarray:
        if self.shape[0] == 1:
            return self.read(flat)
        if self.strides is not None:
            return strided(
                flat, self.offset + trip * self.strides[0], (1, *self.shape[1:]), self.strides
            )
        assert self.index is not None
        return flat[self.index[trip : trip + 1]]

    def write(self, flat: np.ndarray, values: Any) -> None:
        if self.strides is not None:
            dst = strided(flat, self.offset, self.shape, self.strides)
            np.copyto(dst, values, casting="unsafe")
            return
        assert self.index is not None
        flat[self.index] = np.broadcast_to(values, self.shape)

    def write_trip(self, flat: np.ndarray, values: Any, trip: int) -> None:
        if self.shape[0] == 1:
            self.write(flat, values)
        elif self.strides is not None:
            shape = (1, *self.shape[1:])
            at = self.offset + trip * self.strides[0]
            np.copyto(strided(flat, at, shape, self.strides), values, casting="unsafe")
        else:
            assert self.index is not None
            idx = self.index[trip : trip + 1]
            flat[idx] = np.broadcast_to(values, idx.shape)


# --------------------------------------------------------------------------------------
# Page layouts
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """A load's page, in its tensor: element `e` at lead `(t, i)` is the tensor's flat
    element `origins[t, i, a(e)] + w(e)`."""

    tensor: int
    """The slot of the tensor in the program's environment."""
    origins: np.ndarray
    """(trips, items, block rows): flat element of each block row's first element."""
    geometry: PageGeometry

    @property
    def lead(self) -> Lead:
        return self.origins.shape[0], self.origins.shape[1]

    def origins_for(self, want: Lead) -> np.ndarray:
        """The block-row origins of every lead position of `want` (trips, items, block
        rows): a page of trip (item) extent 1 is shared along that axis."""
        o = self.origins
        src_t = np.arange(want[0]) if o.shape[0] > 1 else np.zeros(want[0], np.int64)
        src_i = np.arange(want[1]) if o.shape[1] > 1 else np.zeros(want[1], np.int64)
        return o[src_t[:, None], src_i[None, :]]


@dataclass(frozen=True)
class Values:
    """A stage's values, a strided window of a runtime array: shape `shape` = lead +
    parallel extents (1 where they do not vary), element `x` at flat element
    `offset + sum(strides * x)` of the array in `slot`; written at page elements
    `out` (one per parallel point, shape = the parallel extents) of a page of `size`
    elements, the others zero."""

    slot: int
    shape: tuple[int, ...]
    offset: int
    strides: tuple[int, ...]
    out: np.ndarray
    size: int
    index: np.ndarray | None = None
    """When set, element `x` is flat element `index[x]` instead (shape `shape`): the
    values of a stage that passes its input on unchanged, read through a gather."""

    @property
    def lead(self) -> Lead:
        return self.shape[0], self.shape[1]

    def flat_index(self, want: Lead, k: np.ndarray, per_lead: bool = False) -> np.ndarray:
        """The flat elements of the parallel points `k` for every lead position of
        `want`: shape `want + k.shape` (with `per_lead`, `k` is already `want + ...`:
        each lead position's own points)."""
        inner = k.shape[2:] if per_lead else k.shape
        coords = np.unravel_index(k, self.out.shape) if self.out.ndim else ()
        ex = (1,) * len(inner)
        t = (np.arange(want[0]) if self.shape[0] > 1 else np.zeros(want[0], np.int64)).reshape(
            -1, 1, *ex
        )
        i = (np.arange(want[1]) if self.shape[1] > 1 else np.zeros(want[1], np.int64)).reshape(
            1, -1, *ex
        )
        if self.index is not None:
            at = [c if e > 1 else np.zeros_like(c) for c, e in zip(coords, self.shape[2:])]
            return np.broadcast_to(self.index[(t, i, *at)], (*want, *inner))
        flat = self.offset + t * self.strides[0] + i * self.strides[1]
        for c, st in zip(coords, self.strides[2:]):
            flat = flat + c * st
        return np.broadcast_to(flat, (*want, *inner))

    def covers(self) -> bool:
        """Whether it writes every element of its page."""
        return self.out.size == self.size and np.unique(self.out).size == self.size

    def inverse(self) -> np.ndarray:
        """For every page element, the flat parallel point that writes it (-1: none)."""
        inv = np.full(self.size, -1, dtype=np.int64)
        inv[self.out.reshape(-1)] = np.arange(self.out.size)
        return inv


@dataclass(frozen=True)
class Dense:
    """A page laid out in full: a runtime array (trips, items, page elements)."""

    slot: int
    lead: Lead
    size: int


Layout = Placed | Values | Dense


def c_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Element strides of a C-contiguous array of `shape`, 0 along extents of 1."""
    out = []
    step = 1
    for e in reversed(shape):
        out.append(step if e > 1 else 0)
        step *= e
    return tuple(reversed(out))


def lead_index(lead: Lead, want: Lead, strides: tuple[int, int]) -> np.ndarray:
    """Offsets of each (trip, item) of `want` into a source of lead `lead` with lead
    strides `strides`: a source of trip (item) extent 1 is shared along that axis."""
    t = np.arange(want[0]) if lead[0] > 1 else np.zeros(want[0], dtype=np.int64)
    i = np.arange(want[1]) if lead[1] > 1 else np.zeros(want[1], dtype=np.int64)
    return (t[:, None] * strides[0] + i[None, :] * strides[1]).astype(np.int64)


def page_index(
    layout: Layout, e: np.ndarray, want: Lead, per_lead: bool = False
) -> tuple[np.ndarray, np.ndarray] | None:
    """Where page elements `e` (any shape) of `layout` sit in its runtime array's flat
    elements, for every lead position of `want`: (lead offsets, shape `want` + 1s;
    inner offsets, shape `e.shape`), the element at their sum. A layout of trip (item)
    extent 1 is shared along that axis. With `per_lead`, `e`'s first two axes are lead
    axes (extent 1 or `want`'s): the elements differ by trip or item. None when some
    element of `e` is not held (a `Values` page's unwritten element)."""
    if per_lead:
        return _page_index_per_lead(layout, e, want)
    if isinstance(layout, Placed):
        a, w = layout.geometry.split(e)
        sel = layout.origins_for(want)  # (want trips, want items, block rows)
        ones = (1,) * e.ndim
        rows = sel - sel[:, :, :1]
        if (rows == rows[:1, :1]).all():  # block rows at the same offsets for every lead
            return sel[:, :, 0].reshape(*want, *ones), np.take(rows[0, 0], a) + w
        return np.take(sel, a.reshape(-1), axis=2).reshape(*want, *e.shape), w
    if isinstance(layout, Values):
        k = layout.inverse()[e]
        if (k < 0).any():
            return None
        if layout.index is not None:
            return layout.flat_index(want, k), np.zeros((1,) * e.ndim, dtype=np.int64)
        inner = np.full(k.shape, layout.offset, dtype=np.int64)
        if layout.out.ndim:
            for c, st in zip(np.unravel_index(k, layout.out.shape), layout.strides[2:]):
                inner = inner + c * st
        lead = lead_index(layout.lead, want, (layout.strides[0], layout.strides[1]))
        return lead.reshape(*want, *(1,) * e.ndim), inner
    lead = lead_index(layout.lead, want, (layout.lead[1] * layout.size, layout.size))
    return lead.reshape(*want, *(1,) * e.ndim), e.astype(np.int64)


VERIFY_CHUNK = 1 << 16
"""Page elements `placed_view` checks at a time (its memory, in int64 elements)."""


def placed_view(layout: Placed, e: np.ndarray, want: Lead) -> Access | None:
    """`Access.of(*page_index(layout, e, want))` when that is a strided view whose lead
    and page parts are each affine, found without an index array of `e`'s size (a weight
    page of millions of elements): the strides are read off `e`'s first element and its
    unit steps, then checked against every element `VERIFY_CHUNK` at a time. None
    otherwise (the caller takes `page_index`'s way, which decides the rest)."""
    sel = layout.origins_for(want)
    rows = sel - sel[:, :, :1]
    if e.size == 0 or not (rows == rows[:1, :1]).all():
        return None
    la = affine_strides(sel[:, :, 0])
    if la is None:
        return None
    first = rows[0, 0]

    def inner(x: np.ndarray) -> np.ndarray:
        a, w = layout.geometry.split(x)
        return np.take(first, a) + w

    base = int(inner(e.reshape(-1)[:1])[0])
    steps = []
    for d, n in enumerate(e.shape):
        at = [0] * e.ndim
        if n > 1:
            at[d] = 1
        steps.append(int(inner(np.array([e[tuple(at)]]))[0]) - base if n > 1 else 0)
    flat = e.reshape(-1)
    for c0 in range(0, flat.size, VERIFY_CHUNK):
        k = np.arange(c0, min(flat.size, c0 + VERIFY_CHUNK))
        want_at = np.full(k.size, base, dtype=np.int64)
        for coord, st in zip(np.unravel_index(k, e.shape), steps):
            if st:
                want_at += st * coord
        if not np.array_equal(inner(flat[k]), want_at):
            return None
    strides = (*la[1], *steps)
    full = (*want, *e.shape)
    shape = tuple(1 if st == 0 else n for n, st in zip(full, strides))
    return Access(shape, la[0] + base, strides, None)


def _page_index_per_lead(
    layout: Layout, e: np.ndarray, want: Lead
) -> tuple[np.ndarray, np.ndarray] | None:
    inner = e.shape[2:]
    ee = np.broadcast_to(e, (*want, *inner))
    zeros = np.zeros((1,) * len(inner), dtype=np.int64)
    if isinstance(layout, Placed):
        a, w = layout.geometry.split(ee)
        sel = layout.origins_for(want)
        first = np.take_along_axis(sel, a.reshape(*want, -1), axis=2).reshape(ee.shape)
        return first + w, zeros
    if isinstance(layout, Values):
        k = layout.inverse()[ee]
        if (k < 0).any():
            return None
        return layout.flat_index(want, k, per_lead=True), zeros
    lead = lead_index(layout.lead, want, (layout.lead[1] * layout.size, layout.size))
    return ee + lead.reshape(*want, *(1,) * len(inner)), zeros


@dataclass(frozen=True)
class Reader:
    """An access into the runtime array of one slot."""

    access: Access
    slot: int

    def read(self, env: Env) -> np.ndarray:
        return self.access.read(env[self.slot])

    def read_trip(self, env: Env, trip: int) -> np.ndarray:
        return self.access.read_trip(env[self.slot], trip)


def paired_access(dst: np.ndarray, src: np.ndarray) -> tuple[Access, Access]:
    """Accesses that write the elements `dst` from the elements `src` (index arrays of
    one shape, lead axes first), as strided views wherever both are affine, splitting
    an axis of whole tiles into tiles and lanes when that makes them so (a page's
    columns of several tiles, moved tile by tile)."""
    zeros = np.zeros((), dtype=np.int64)
    d, s_ = Access.of(dst, zeros), Access.of(src, zeros)
    if d.strides is not None and s_.strides is not None:
        return d, s_
    split = list(dst.shape[:2])
    for e in dst.shape[2:]:
        split += [e // 32, 32] if e > 32 and e % 32 == 0 else [e]
    d2, s2 = Access.of(dst.reshape(split), zeros), Access.of(src.reshape(split), zeros)
    if d2.strides is not None and s2.strides is not None:
        return d2, s2
    return d, s_


def stacked_reader(readers: list[Reader], axis: int, per_trip: bool) -> Reader | None:
    """One reader of the values `readers` read, stacked along `axis` (where each has
    extent 1), when they are windows of one array a constant step apart."""
    first = readers[0].access
    if first.strides is None or (per_trip and first.shape[0] > 1) or first.shape[axis] != 1:
        return None
    step = readers[1].access.offset - first.offset if len(readers) > 1 else 0
    for j, r in enumerate(readers):
        a = r.access
        if (
            r.slot != readers[0].slot
            or a.strides != first.strides
            or a.shape != first.shape
            or a.offset != first.offset + j * step
        ):
            return None
    shape = tuple(len(readers) if d == axis else e for d, e in enumerate(first.shape))
    strides = tuple(step if d == axis else st for d, st in enumerate(first.strides))
    return Reader(Access(shape, first.offset, strides, None), readers[0].slot)


def live_box(mask: np.ndarray, keep: int) -> tuple[slice, ...] | None:
    """The box of leading indices along each axis where `mask` is true, when `mask`
    is exactly that box (the first `keep` axes kept whole); None otherwise."""
    box = []
    for d in range(mask.ndim):
        # All axes but d reduced: a 1-D array (numpy's stubs allow a scalar here).
        along = cast(np.ndarray, mask.any(axis=tuple(j for j in range(mask.ndim) if j != d)))
        n = int(along.sum())
        if not along[:n].all() or (d < keep and n != mask.shape[d]):
            return None
        box.append(slice(0, n))
    sel = np.zeros_like(mask)
    sel[tuple(box)] = True
    return tuple(box) if np.array_equal(sel, mask) else None
