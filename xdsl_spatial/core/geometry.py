"""
The tile arithmetic of a spatial program: where a load or a store lands, which tiles
an item owns, and the checks that refuse what cannot run. Numbers in, numbers out:
the `spatial` verifier, the ownership analysis and both engines call it, so every
address is worked out, and every refusal worded, in one place.

A tensor of R x C elements is stored as `tile_grid` tiles, tile `(tr, tc)` at the
linear index `tr * tiles_per_row + tc`. A move's origin is linear in its loop
variables (an item's coordinates, the K loop's index), so its first tile for every
item and every K trip is one numpy expression; block row `a` of its block then
starts `a * stride` tiles further on, and block tile `(a, b)` is page tile
`a * w + b`:

```python
move = TileMove(origin=LinearForm(0, (), (4096, 8)), block=(32, 8), stride=128)
values = loop_values(item_coords((16,)), 2, (K_INDEX, 0))  # (items, trips) each
t0 = move.first_tiles(values, (16, 2))                      # the first tile, (16, 2)
move.tiles(t0)                                              # (16, 2, 32, 8) linear tiles
check_block_inside(t0, move.block, move.stride, (64, 128), "load", "W__q8")
```

The checks raise `VerifyException`: the verifier calls them on what it can enumerate
statically, and an engine on what it runs, reporting the same message as a runtime
error of the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.utils.exceptions import VerifyException

Pair = tuple[int, int]
"""Rows x columns: of a tile in elements, of a tensor or a block in tiles."""

# --------------------------------------------------------------------------------------
# Tile grids
# --------------------------------------------------------------------------------------


def tile_grid(dims: Pair, tile: Pair) -> Pair:
    """Tile rows and tiles per row of a tensor of `dims` elements (the last ones padded)."""
    return -(-dims[0] // tile[0]), -(-dims[1] // tile[1])


def check_grid(grid: Sequence[int]) -> None:
    """A program's item grid: at least one axis, every extent positive."""
    if not grid or any(g < 1 for g in grid):
        raise VerifyException(f"item grid must have positive extents, got {list(grid)}")


def item_coords(grid: Sequence[int]) -> np.ndarray:
    """Coordinates of every item, shape (items, rank), row-major over the grid."""
    check_grid(grid)
    return np.indices(tuple(grid)).reshape(len(grid), -1).T.astype(np.int64)


# --------------------------------------------------------------------------------------
# Linear forms: the addresses the chip can compute
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LinearForm:
    """`const + sum(dims[i] * d_i) + sum(syms[j] * s_j)`."""

    const: int
    dims: tuple[int, ...]
    syms: tuple[int, ...]

    def at(self, values: Sequence[np.ndarray | int], shape: tuple[int, ...]) -> np.ndarray:
        """The form at the symbols' `values` (arrays broadcasting to `shape`), int64."""
        acc = np.full(shape, self.const, dtype=np.int64)
        for c, v in zip(self.syms, values):
            if c:
                acc = acc + c * np.asarray(v, dtype=np.int64)
        return acc

    def fixed(self, axis: int, value: int) -> LinearForm:
        """The form with dim `axis` at `value`."""
        dims = tuple(0 if d == axis else c for d, c in enumerate(self.dims))
        return LinearForm(self.const + self.dims[axis] * value, dims, self.syms)

    def over_axes(self, extents: Sequence[int]) -> np.ndarray:
        """The form at every point of an iteration space of `extents` over its dims
        (symbols counted as 0), extent 1 along the axes it does not read."""
        n = len(extents)
        out = np.full((1,) * n, self.const, dtype=np.int64)
        for d, (c, e) in enumerate(zip(self.dims, extents)):
            if c:
                out = out + c * np.arange(e, dtype=np.int64).reshape(
                    [e if j == d else 1 for j in range(n)]
                )
        return out

    def bounds(self, extents: Sequence[int]) -> Pair:
        """The least and the greatest value over the dims' `extents` (symbols as 0)."""
        lo = self.const + sum(min(0, c * (e - 1)) for c, e in zip(self.dims, extents))
        hi = self.const + sum(max(0, c * (e - 1)) for c, e in zip(self.dims, extents))
        return lo, hi


def linear_form(expr: AffineExpr, num_dims: int, num_syms: int) -> LinearForm | None:
    """The coefficients of a linear affine expression; None if it is not linear."""
    const = 0
    dims = [0] * num_dims
    syms = [0] * num_syms

    def walk(e: AffineExpr, scale: int) -> bool:
        nonlocal const
        if isinstance(e, AffineConstantExpr):
            const += scale * e.value
            return True
        if isinstance(e, AffineDimExpr):
            dims[e.position] += scale
            return True
        if isinstance(e, AffineSymExpr):
            syms[e.position] += scale
            return True
        if isinstance(e, AffineBinaryOpExpr):
            if e.kind == AffineBinaryOpKind.Add:
                return walk(e.lhs, scale) and walk(e.rhs, scale)
            if e.kind == AffineBinaryOpKind.Mul:
                if isinstance(e.rhs, AffineConstantExpr):
                    return walk(e.lhs, scale * e.rhs.value)
                if isinstance(e.lhs, AffineConstantExpr):
                    return walk(e.rhs, scale * e.lhs.value)
        return False

    if not walk(expr, 1):
        return None
    return LinearForm(const, tuple(dims), tuple(syms))


def single_linear(m: AffineMap, what: str) -> LinearForm:
    """The linear form of a one-result map, or a `VerifyException` naming `what`."""
    if len(m.results) != 1:
        raise VerifyException(f"{what} must have one result, got {len(m.results)}")
    form = linear_form(m.results[0], m.num_dims, m.num_symbols)
    if form is None:
        raise VerifyException(
            f"{what} must be linear (sums of variables times constants), got {m.results[0]}"
        )
    return form


# --------------------------------------------------------------------------------------
# Moves: where a load reads and a store writes
# --------------------------------------------------------------------------------------

K_INDEX = -1
"""A move's loop variable that is the K loop's index (the others are item axes)."""


def row_starts(t0: np.ndarray, rows: int, stride: int) -> np.ndarray:
    """The linear tile each of a block's `rows` rows starts at, `stride` tiles apart,
    for first tiles `t0`: shape t0.shape + (rows,)."""
    return t0[..., None] + stride * np.arange(rows)


def loop_values(coords: np.ndarray, trips: int, variables: Sequence[int]) -> list[np.ndarray]:
    """Each loop variable's value for every (item, K trip), arrays of shape (items,
    trips): `variables[j]` is an item axis of `coords` (items, rank), or `K_INDEX`."""
    shape = (len(coords), trips)
    out = []
    for axis in variables:
        if axis == K_INDEX:
            out.append(np.broadcast_to(np.arange(trips, dtype=np.int64)[None, :], shape))
        else:
            out.append(np.broadcast_to(coords[:, axis][:, None], shape))
    return out


@dataclass(frozen=True)
class TileMove:
    """A load or a store as numbers: a block of `block` tiles (rows x columns) whose
    first tile is `origin` over the loop variables, plus, with `table_at`, the element
    of an indirect table at that position; its block rows `stride` tiles apart."""

    origin: LinearForm
    block: Pair
    stride: int
    table_at: LinearForm | None = None

    def first_tiles(
        self,
        values: Sequence[np.ndarray | int],
        shape: tuple[int, ...],
        table: np.ndarray | None = None,
        kind: str = "move",
        clip: bool = False,
    ) -> np.ndarray:
        """The first tile of the block at the loop variables' `values` (broadcasting
        to `shape`). With a table term, `table` holds the table's elements (flat,
        row-major): a position outside it is refused, or with `clip` (to draw what
        a refused program does) read at the nearest end."""
        t0 = self.origin.at(values, shape)
        if self.table_at is None:
            return t0
        assert table is not None, "a move through a table needs the table's elements"
        at = self.table_at.at(values, shape)
        if clip:
            at = np.clip(at, 0, table.size - 1)
        else:
            check_table_reach(at, table.size, kind)
        return t0 + table[at].astype(np.int64)

    def row_starts(self, t0: np.ndarray) -> np.ndarray:
        """The linear tile each block row starts at: shape t0.shape + (block rows,)."""
        return row_starts(t0, self.block[0], self.stride)

    def tiles(self, t0: np.ndarray) -> np.ndarray:
        """The linear tile of every block tile: shape t0.shape + block."""
        return self.row_starts(t0)[..., None] + np.arange(self.block[1])

    def cells(self, t0: np.ndarray, tiles_per_row: int) -> tuple[np.ndarray, np.ndarray]:
        """(tile row, tile column) of every block tile, shape t0.shape + block: a
        block row runs on to the right of its start, past the tensor's edge when the
        move is wrong (where the linear index would wrap to the next row)."""
        row, col = np.divmod(self.row_starts(t0), tiles_per_row)
        rows = np.broadcast_to(row[..., None], (*row.shape, self.block[1]))
        return rows, col[..., None] + np.arange(self.block[1])

    def row_origins(self, t0: np.ndarray, tile: Pair, tiles_per_row: int) -> np.ndarray:
        """The flat element, in the tensor's tile-padded array, of each block row's
        first element: shape t0.shape + (block rows,)."""
        row, col = np.divmod(self.row_starts(t0), tiles_per_row)
        return row * tile[0] * (tiles_per_row * tile[1]) + col * tile[1]


@dataclass(frozen=True)
class PageGeometry:
    """A move's page against its tensor: page element `e` (flat, `row * page width +
    column`) lies in block row `a` of its tile, at `w` elements past that block row's
    first element in the tensor's tile-padded array (rows `row_len` elements long)."""

    tile: Pair
    block: Pair
    row_len: int

    @property
    def page_width(self) -> int:
        return self.tile[1] * self.block[0] * self.block[1]

    @property
    def size(self) -> int:
        return self.tile[0] * self.page_width

    def split(self, e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(block row `a`, offset `w`) of page elements `e`."""
        r, col = np.divmod(e, self.page_width)
        pt, c = np.divmod(col, self.tile[1])
        a, b = np.divmod(pt, self.block[1])
        return a, r * self.row_len + b * self.tile[1] + c

    def elements(self, origins: np.ndarray) -> np.ndarray:
        """The tensor's flat element of every page element, for block-row origins
        `origins` (..., block rows): shape origins.shape[:-1] + (page size,)."""
        a, w = self.split(np.arange(self.size, dtype=np.int64))
        return origins[..., a] + w


def in_stacked_page(
    form: LinearForm, extents: Sequence[int], row_len: int, parts: int
) -> LinearForm | None:
    """A stage map over a page whose rows are `row_len` elements, read in a page of
    `parts` such pages side by side (part j's tiles after part j - 1's, each row
    `parts * row_len` long): the map's element offset there, in part 0 (part j is
    `j * row_len` further). None when the map is not one of (row, column) at every
    point of `extents`: a column that leaves its row, or a symbol (an indirect read)."""
    if any(form.syms):
        return None
    row_dims = [c // row_len if c % row_len == 0 else 0 for c in form.dims]
    col = LinearForm(
        form.const % row_len,
        tuple(0 if c % row_len == 0 else c for c in form.dims),
        (),
    )
    lo, hi = col.bounds(extents)
    if lo < 0 or hi >= row_len:
        return None
    wide = parts * row_len
    return LinearForm(
        form.const // row_len * wide + col.const,
        tuple(r * wide + c for r, c in zip(row_dims, col.dims)),
        (),
    )


# --------------------------------------------------------------------------------------
# What items own
# --------------------------------------------------------------------------------------


def owned_rectangles(owns: Sequence[LinearForm], size: Pair, coords: np.ndarray) -> np.ndarray:
    """(items, 4): the tile row, tile column, rows and columns each item owns, its
    corner `owns` (two forms over the item coordinates) and its size `size`."""
    r0, c0 = (f.const + coords @ np.asarray(f.dims, dtype=np.int64) for f in owns)
    n = len(coords)
    return np.stack([r0, c0, np.full(n, size[0]), np.full(n, size[1])], axis=1)


def owned_tiles(rects: np.ndarray, tiles_per_row: int) -> tuple[np.ndarray, np.ndarray]:
    """(item, linear tile) of every tile the `owned_rectangles` hold, flat, item by
    item (all rectangles of one size)."""
    if not len(rects):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    h, w = int(rects[0, 2]), int(rects[0, 3])
    r0, c0 = rects[:, 0], rects[:, 1]
    tiles = (
        (r0[:, None, None] + np.arange(h)[None, :, None]) * tiles_per_row
        + c0[:, None, None]
        + np.arange(w)[None, None, :]
    )
    return np.repeat(np.arange(len(rects)), h * w), tiles.reshape(-1)


# --------------------------------------------------------------------------------------
# Checks: what cannot run
# --------------------------------------------------------------------------------------


def check_table_reach(at: np.ndarray, size: int, kind: str) -> None:
    """Every element index `at` of an indirect table lies inside its `size` elements."""
    if at.size and (at.min() < 0 or at.max() >= size):
        bad = int(np.argmax((at < 0) | (at >= size)))
        raise VerifyException(
            f"{kind} reads its table at element {int(at.flat[bad])}, outside its {size} elements"
        )


def check_block_inside(
    t0: np.ndarray,
    block: Pair,
    stride: int,
    grid: Pair,
    kind: str,
    name: str,
    trips: Sequence[int] | None = None,
) -> None:
    """Every block of tiles a move reads or writes lies inside its tensor: `t0` is the
    first tile of each item's block, (items, K trips), the trips' numbers `trips`
    (None outside a K loop); `grid` the tensor's (tile rows, tiles per row)."""
    tr, tpr = grid
    bh, bw = block
    starts = row_starts(t0, bh, stride)
    row, col = np.divmod(starts, tpr)
    bad = (starts < 0) | (row >= tr) | (col + bw > tpr)
    if bad.any():
        item, trip, a = (int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape))
        raise VerifyException(
            f"{kind} block {bh}x{bw} at tile {int(t0[item, trip])} (row {a} starts at "
            f"tile {int(starts[item, trip, a])}) runs outside tensor '{name}' "
            f"({tr}x{tpr} tiles) for item {item}"
            + (f" at K block {trips[trip]}" if trips is not None else "")
        )


def check_owned_inside(rects: np.ndarray, grid: Pair, name: str) -> None:
    """Every item's `owned_rectangles` lies inside the output's `grid` of tiles."""
    r0, c0, h, w = (rects[:, i] for i in range(4))
    outside = (r0 < 0) | (c0 < 0) | (r0 + h > grid[0]) | (c0 + w > grid[1])
    if outside.any():
        i = int(np.argmax(outside))
        raise VerifyException(
            f"item {i} owns tiles ({int(r0[i])}, {int(c0[i])}) size {int(h[i])}x{int(w[i])}, "
            f"outside '{name}' ({grid[0]}x{grid[1]} tiles)"
        )


def check_disjoint(items: np.ndarray, tiles: np.ndarray, verb: str, name: str, grid: Pair) -> None:
    """No two items `verb` (own, write) one tile: `items[j]` and linear `tiles[j]`
    are pairs, `grid` the tensor's (tile rows, tiles per row)."""
    pairs = np.unique(np.stack([tiles, items], axis=1), axis=0)
    t, first = np.unique(pairs[:, 0], return_index=True)
    if len(t) != len(pairs):
        dup = np.setdiff1d(np.arange(len(pairs)), first)[0]
        tile = int(pairs[dup, 0])
        others = pairs[pairs[:, 0] == tile, 1]
        r, c = divmod(tile, grid[1])
        raise VerifyException(
            f"items {int(others[0])} and {int(others[1])} both {verb} tile ({r}, {c}) of '{name}'"
        )


def check_all_written(tiles: np.ndarray, grid: Pair, name: str) -> None:
    """Every tile of an output (`grid` its tile rows and tiles per row) is among the
    linear `tiles` its stores write."""
    ttr, ttpr = grid
    missing = np.setdiff1d(np.arange(ttr * ttpr), tiles)
    if missing.size:
        r, c = divmod(int(missing[0]), ttpr)
        raise VerifyException(
            f"tile ({r}, {c}) of output '{name}' is written by no "
            f"item ({missing.size} of {ttr * ttpr} tiles unwritten)"
        )


def check_writes_within(
    written: tuple[np.ndarray, np.ndarray],
    owned: tuple[np.ndarray, np.ndarray],
    grid: Pair,
    name: str,
) -> None:
    """The (item, linear tile) pairs a store through a run-time table writes lie in
    what their items own (a cache write owns every tile its window may reach)."""
    n = grid[0] * grid[1]
    outside = np.setdiff1d(written[0] * n + written[1], owned[0] * n + owned[1])
    if outside.size:
        item, tile = divmod(int(outside[0]), n)
        r, c = divmod(tile, grid[1])
        raise VerifyException(
            f"item {item} writes tile ({r}, {c}) of '{name}' outside what it owns"
        )


def check_writes_owned(
    written: tuple[np.ndarray, np.ndarray],
    owned: tuple[np.ndarray, np.ndarray],
    grid: Pair,
    name: str,
) -> None:
    """The (item, linear tile) pairs an output's stores write are exactly those its
    items own."""
    n = grid[0] * grid[1]
    pairs_w = np.unique(written[0] * n + written[1])
    pairs_o = np.unique(owned[0] * n + owned[1])
    if not np.array_equal(pairs_w, pairs_o):
        diff = np.setxor1d(pairs_w, pairs_o)
        item, tile = divmod(int(diff[0]), n)
        r, c = divmod(tile, grid[1])
        verb = "writes" if np.isin(diff[0], pairs_w) else "owns but never writes"
        raise VerifyException(
            f"item {item} {verb} tile ({r}, {c}) of '{name}'"
            + (" outside what it owns" if verb == "writes" else "")
        )


def check_page_reach(
    lo: int, hi: int, tiles: int, size: int, stage: str, input_: int | None
) -> None:
    """A stage's input `input_` (None: its output) reaches page elements `lo..hi`,
    which must lie inside the `tiles`-tile page of `size` elements."""
    if lo < 0 or hi >= size:
        what = f"input #{input_}" if input_ is not None else "output"
        raise VerifyException(
            f"stage '{stage}' {what} reaches elements {lo}..{hi} of a "
            f"{tiles}-tile page ({size} elements)"
        )
