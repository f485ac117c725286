"""
Tensors and pages of a running program, and the strided views that read them.

A tensor lives as its tile-padded 2-d array. A page is a set of elements per item
(`Page`): a load's page places its elements in the tensor's array, a stage's page
keeps the stage's values as computed (broadcast axes at extent 1). A stage reads a
page through one strided view whenever one can express its map (`placement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np


@dataclass
class TileTensor:
    """A tensor of the program, as its tile-padded 2-d array."""

    name: str
    dims: tuple[int, int]
    data: np.ndarray
    """Shape (tile rows * tr, tiles per row * tc), C-contiguous."""
    tiles: tuple[int, int]
    output: bool = False
    """Every tile must be written (role output)."""
    writer: np.ndarray | None = None
    """For returned tensors: the item that wrote each tile (-1: none yet)."""
    written: bool = False
    """Whether a store has written any tile of it yet (the writer map is all -1 until)."""
    complete: bool = False
    """Whether its first store wrote every tile (so none is left unwritten)."""
    snapshot: np.ndarray | None = None
    """What loads read from a tensor the program also stores to."""

    @property
    def flat(self) -> np.ndarray:
        return self.data.reshape(-1)


def padded(a: np.ndarray, tiles: tuple[int, int], tile: tuple[int, int]) -> np.ndarray:
    rows, cols = tiles[0] * tile[0], tiles[1] * tile[1]
    if a.shape == (rows, cols) and a.flags.c_contiguous:
        return a
    out = np.zeros((rows, cols), dtype=a.dtype)
    out[: a.shape[0], : a.shape[1]] = a
    return out


Dense = tuple[int, tuple[tuple[int, int, int], ...]]
"""A page a stage wrote through a dense map: (reach, per axis (coefficient, extent,
stride in `base`)). Page element `o < reach` is `sum(stride * (o // coef % extent))`
past the item's offset; elements from `reach` on were not written (zero)."""


@dataclass
class Page:
    """A page per item: element `o` of item `i` is `base.flat[offsets[i] + place(o)]`.

    A materialised page has `base` (items, tr, n*tc), `offsets[i] = i * size` and
    `place` the identity; a loaded page places its elements in the tensor's array
    (`geometry`); a stage's page keeps the stage's values as they came, broadcast axes
    and all (`dense`), and is laid out only when something needs it in page order."""

    base: np.ndarray
    offsets: np.ndarray
    tiles: int
    tile: tuple[int, int]
    geometry: tuple[int, int, int, int, int] | None = None
    """(block h, block w, tile-row step per block row, tile-col step per block row,
    row length of the tensor's array); None for a materialised page."""
    dense: Dense | None = None
    prog: Progression | None | bool = False
    """`offsets` as a progression (None: they are not one; False: not worked out yet)."""

    @property
    def size(self) -> int:
        return self.tile[0] * self.tiles * self.tile[1]

    @property
    def layout(self) -> tuple[Any, ...]:
        """What `place` depends on besides its argument (a cache key)."""
        return (self.geometry, self.dense, self.tiles, self.tile)

    def placeable(self, o: np.ndarray) -> bool:
        """Whether `place` knows where elements `o` are (a dense page's unwritten tail
        has no place: it is zero)."""
        return self.dense is None or not o.size or int(o.max()) < self.dense[0]

    def place(self, o: np.ndarray) -> np.ndarray:
        """Offsets in `base` of page elements `o` (relative to the item's offset)."""
        if self.dense is not None:
            at = np.zeros(np.shape(o), dtype=np.int64)
            for coef, extent, stride in self.dense[1]:
                if stride:
                    at += stride * (o // coef % extent)
            return at
        if self.geometry is None:
            return o
        h, w, rho, kappa, row_len = self.geometry
        tr, tc = self.tile
        r, rem = np.divmod(o, self.tiles * tc)
        t, c = np.divmod(rem, tc)
        a, b = np.divmod(t, w)
        return (a * rho * tr + r) * row_len + (a * kappa + b) * tc + c

    def in_order(self) -> np.ndarray:
        """The pages as (items, tr, tiles * tc) in page order: a view when one strided
        view expresses it (items that share a page share its view), else a copy."""
        tr, tc = self.tile
        width = self.tiles * tc
        placed = placement(self, 0, (width, 1), (tr, width))
        if placed is not None:
            view = self.view(placed[0], (tr, width), placed[1])
            if view is not None:
                return compact(view)
        return self.materialise()

    def trip(self, t: int) -> Page:
        """The pages of K trip `t` of pages loaded or computed for a batch of trips
        (offsets (trips, items))."""
        prog = self.progression()
        if prog is not None:
            prog = (prog[0] + t * prog[1][0], prog[1][1:])
        return Page(
            self.base, self.offsets[t], self.tiles, self.tile, self.geometry, self.dense, prog
        )

    def progression(self) -> Progression | None:
        if self.prog is False:
            self.prog = progression(self.offsets)
        return cast(Progression | None, self.prog)

    def view(
        self, base: int, shape: Sequence[int], strides: Sequence[int]
    ) -> np.ndarray | None:
        """The read-only view (*lead, *shape) at `base + sum(strides * idx)` past each
        item's offset, or None when the items' offsets do not step evenly."""
        prog = self.progression()
        if prog is None:
            return None
        at = (prog[0] + base, prog[1])
        return strided_view(self.base.reshape(-1), at, self.offsets.shape, shape, strides)

    def materialise(self) -> np.ndarray:
        """The pages copied out, (items, tr, tiles * tc) (the leading axes flattened)."""
        if self.offsets.ndim != 1:
            flat = Page(self.base, self.offsets.reshape(-1), self.tiles, self.tile,
                        self.geometry, self.dense)
            return flat.materialise()
        items = len(self.offsets)
        tr = self.tile[0]
        if self.dense is not None:
            reach, axes = self.dense
            out = (np.empty if reach == self.size else np.zeros)(
                (items, self.size), dtype=self.base.dtype
            )
            order = sorted(axes, reverse=True)
            src = affine_view(
                self.base.reshape(-1), self.offsets, [e for _, e, _ in order],
                [st for _, _, st in order],
            )
            assert src is not None
            np.copyto(out[:, :reach].reshape(items, *[e for _, e, _ in order]), src)
            return out.reshape(items, tr, -1)
        if self.geometry is None:
            return self.base.reshape(items, tr, -1)
        h, w, rho, kappa, row_len = self.geometry
        tc = self.tile[1]
        view = affine_view(
            self.base.reshape(-1),
            self.offsets,
            (tr, h, w, tc),
            (row_len, rho * tr * row_len + kappa * tc, tc, 1),
        )
        if view is not None:
            return np.ascontiguousarray(view).reshape(items, tr, h * w * tc)
        o = np.arange(self.size)
        idx = self.offsets[:, None] + self.place(o)[None, :]
        return self.base.reshape(-1)[idx].reshape(items, tr, -1)

    def laid_out(self) -> Page:
        """The same pages with every element in `base` (materialised if dense)."""
        if self.dense is None:
            return self
        vals = self.materialise()
        n = self.offsets.size
        offsets = (np.arange(n) * self.size).reshape(self.offsets.shape)
        return Page(vals.reshape(n, -1), offsets, self.tiles, self.tile)


def shared_offsets(offsets: np.ndarray) -> np.ndarray:
    """One offset for items that all read the same place (a page every item shares)."""
    if offsets.ndim != 1 or len(offsets) < 2:
        return offsets
    if offsets[-1] == offsets[0] and (offsets == offsets[0]).all():
        return offsets[:1]
    return offsets


def compact(a: np.ndarray) -> np.ndarray:
    """`a` with every broadcast (stride 0) axis cut to extent 1, so that numpy keeps
    results that do not vary along it small."""
    if a.ndim and 0 in a.strides:
        cut = tuple(
            slice(0, 1) if st == 0 and e > 1 else slice(None) for st, e in zip(a.strides, a.shape)
        )
        return a[cut]
    return a


Progression = tuple[int, tuple[int, ...]]
"""Offsets that step evenly along each of their axes: (first offset, step per axis)."""


def progression(offsets: np.ndarray) -> Progression | None:
    """`offsets` as a progression, or None when they do not step evenly."""
    lead = offsets.shape
    start = int(offsets.flat[0])
    if len(lead) == 1:
        n = lead[0]
        step = int(offsets[1] - offsets[0]) if n > 1 else 0
        if n > 2 and (offsets[2:] - offsets[1:-1] != step).any():
            return None
        return start, (step,)
    steps = tuple(
        int(offsets[tuple(int(k == j) for k in range(len(lead)))]) - start if e > 1 else 0
        for j, e in enumerate(lead)
    )
    if not np.array_equal(start + grid_sum(steps, lead), offsets):
        return None
    return start, steps


def strided_view(
    flat: np.ndarray,
    prog: Progression,
    lead: tuple[int, ...],
    shape: Sequence[int],
    strides: Sequence[int],
    writeable: bool = False,
) -> np.ndarray | None:
    """The view (*lead, *shape) of `flat` at `start + sum(steps * lead index) +
    sum(strides * idx)`, or None when it would leave `flat`."""
    start, steps = prog
    isz = flat.itemsize
    all_strides = (*steps, *strides)
    all_shape = (*lead, *shape)
    lo = hi = start
    for st, e in zip(all_strides, all_shape):
        if st < 0:
            lo += st * (e - 1)
        else:
            hi += st * (e - 1)
    if lo < 0 or hi >= flat.size:
        return None
    # The constructor, not `as_strided`: a view is made per stage operand per run.
    view = np.ndarray(
        all_shape,
        dtype=flat.dtype,
        buffer=flat,
        offset=start * isz,
        strides=tuple(st * isz for st in all_strides),
    )
    if not writeable:
        view.flags.writeable = False
    return view


def affine_view(
    flat: np.ndarray,
    offsets: np.ndarray,
    shape: Sequence[int],
    strides: Sequence[int],
    writeable: bool = False,
) -> np.ndarray | None:
    """The view (*offsets.shape, *shape) of `flat` at `offsets[i] + sum(strides * idx)`,
    or None when the offsets do not step evenly along each of their axes."""
    prog = progression(offsets)
    if prog is None:
        return None
    return strided_view(flat, prog, offsets.shape, shape, strides, writeable)


_PLACEMENTS: dict[tuple[Any, ...], tuple[int, tuple[int, ...]] | None] = {}


def placement(
    page: Page,
    const: int,
    coeffs: tuple[int, ...],
    ext: tuple[int, ...],
) -> tuple[int, tuple[int, ...]] | None:
    """Base offset and per-axis strides that place a map over a page in the page's
    array, when one strided view expresses it (checked at every point once, then
    remembered: the answer depends on the page's layout and the map only)."""
    key = (page.layout, const, coeffs, ext)
    if key in _PLACEMENTS:
        return _PLACEMENTS[key]
    o = const + grid_sum(coeffs, ext)
    result: tuple[int, tuple[int, ...]] | None = None
    if not o.size or (o.min() >= 0 and o.max() < page.size and page.placeable(o)):
        placed = page.place(o)
        base = int(placed.reshape(-1)[0]) if placed.size else 0
        strides = []
        for j in range(len(ext)):
            idx = [0] * len(ext)
            idx[j] = 1
            strides.append(int(placed[tuple(idx)]) - base if ext[j] > 1 else 0)
        if np.array_equal(base + grid_sum(strides, ext), placed):
            result = base, tuple(strides)
    if len(_PLACEMENTS) > 4096:
        _PLACEMENTS.clear()
    _PLACEMENTS[key] = result
    return result


def grid_sum(coeffs: Sequence[int], ext: Sequence[int]) -> np.ndarray:
    """`sum(c_d * idx_d)` over the grid `ext`, shape `ext`."""
    if len(ext) == 1:
        return coeffs[0] * np.arange(ext[0], dtype=np.int64)
    total = np.zeros(tuple(ext), dtype=np.int64)
    for d, (c, e) in enumerate(zip(coeffs, ext)):
        shape = [1] * len(ext)
        shape[d] = e
        total = total + c * np.arange(e, dtype=np.int64).reshape(shape)
    return total


_GRIDS: dict[tuple[tuple[int, ...], tuple[int, ...]], np.ndarray] = {}


def shared_grid(coeffs: tuple[int, ...], ext: tuple[int, ...]) -> np.ndarray:
    """`grid_sum(coeffs, ext)`, made once and shared (read-only): the offsets of a
    stage's pages, the same every run."""
    key = (coeffs, ext)
    grid = _GRIDS.get(key)
    if grid is None:
        grid = grid_sum(coeffs, ext)
        grid.flags.writeable = False
        if len(_GRIDS) > 1024:
            _GRIDS.clear()
        _GRIDS[key] = grid
    return grid
