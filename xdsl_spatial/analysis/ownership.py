"""
Which work item touches which tile: a program's stores and loads, enumerated over
every item and every K trip, as tile grids (numbers in, numbers out; no drawing).

An origin is linear in the item coordinates and the K index (plus an element of a
constant table), so each move's tiles come out of one numpy expression over all
(item, trip) pairs: `core/geometry.py`'s, which the verifier enumerates too.
Nothing is refused here: a block that runs off its tensor, a tile two items write
and a tile none writes are recorded, so a refused program can be drawn with them
marked.

```python
own = ownership(program)
y = own.maps[0]                    # the stored tensors first, then the loaded ones
y.owner                            # the item writing each tile, UNTOUCHED or SHARED
y.overlap, y.unwritten, y.outside  # what the verifier refuses, tile by tile
```
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import cast

import numpy as np
from xdsl.ir import SSAValue

from xdsl_spatial.core.geometry import loop_values, tile_grid
from xdsl_spatial.dialects.spatial import (
    LoadOp,
    ProgramOp,
    Role,
    StoreOp,
    TensorOp,
    enclosing_loop,
)

Move = LoadOp | StoreOp
"""A load or a store: a block of tiles at an origin."""

UNTOUCHED = -1
"""`TileMap.owner` of a tile no item touches."""
SHARED = -2
"""`TileMap.owner` of a tile more than one item touches."""


class UnknownTiles(Exception):
    """A move whose tiles are only known at run time (read through an external table)."""


@dataclass(frozen=True)
class Touches:
    """Distinct (item, tile row, tile column) triples one tensor's moves reach."""

    items: np.ndarray
    rows: np.ndarray
    cols: np.ndarray


@dataclass(frozen=True)
class TileMap:
    """One tensor's tiles and the items that write (or read) them."""

    name: str
    role: str
    dims: tuple[int, int]
    """Elements, rows x columns."""
    tile: tuple[int, int]
    grid: tuple[int, int]
    """The tensor's tiles, rows x columns (the last ones padded)."""
    access: str
    """`write` (stored by the program) or `read` (loaded)."""
    touches: Touches
    unknown: str = ""
    """Why some of its tiles are unknown before a run ('' when all are known)."""

    @property
    def extent(self) -> tuple[int, int, int, int]:
        """(first row, first column, rows, columns) of the drawn grid: the tensor's,
        grown to hold the tiles moves reach outside it."""
        t = self.touches
        r_lo = min(0, int(t.rows.min())) if t.rows.size else 0
        c_lo = min(0, int(t.cols.min())) if t.cols.size else 0
        r_hi = max(self.grid[0], int(t.rows.max()) + 1) if t.rows.size else self.grid[0]
        c_hi = max(self.grid[1], int(t.cols.max()) + 1) if t.cols.size else self.grid[1]
        return r_lo, c_lo, r_hi - r_lo, c_hi - c_lo

    def _cells(self) -> tuple[np.ndarray, np.ndarray]:
        r_lo, c_lo, _, _ = self.extent
        return self.touches.rows - r_lo, self.touches.cols - c_lo

    @cached_property
    def count(self) -> np.ndarray:
        """Distinct items touching each tile of the extent."""
        _, _, h, w = self.extent
        out = np.zeros((h, w), dtype=np.int64)
        r, c = self._cells()
        np.add.at(out, (r, c), 1)
        return out

    @cached_property
    def owner(self) -> np.ndarray:
        """The item touching each tile, UNTOUCHED, or SHARED."""
        _, _, h, w = self.extent
        out = np.full((h, w), UNTOUCHED, dtype=np.int64)
        r, c = self._cells()
        out[r, c] = self.touches.items
        out[self.count > 1] = SHARED
        return out

    @cached_property
    def inside(self) -> np.ndarray:
        """True on the tiles of the tensor, False on those outside it."""
        r_lo, c_lo, h, w = self.extent
        rows = np.arange(h)[:, None] + r_lo
        cols = np.arange(w)[None, :] + c_lo
        return (rows >= 0) & (rows < self.grid[0]) & (cols >= 0) & (cols < self.grid[1])

    @property
    def outside(self) -> np.ndarray:
        """Tiles a move reaches outside the tensor (the verifier refuses any)."""
        return (self.count > 0) & ~self.inside

    @property
    def overlap(self) -> np.ndarray:
        """Tiles stored by two or more items (refused); reads may share tiles."""
        if self.access != "write":
            return np.zeros(self.count.shape, dtype=bool)
        return self.count > 1

    @property
    def unwritten(self) -> np.ndarray:
        """Tiles of an output no item writes (refused: an output is written whole)."""
        if self.access != "write" or self.role != Role.OUTPUT or self.unknown:
            return np.zeros(self.count.shape, dtype=bool)
        return (self.count == 0) & self.inside

    @property
    def padded(self) -> np.ndarray:
        """Tiles of the tensor that hold padding (its last tile row or column)."""
        r_lo, c_lo, h, w = self.extent
        rows = np.arange(h)[:, None] + r_lo
        cols = np.arange(w)[None, :] + c_lo
        pad_row = self.dims[0] % self.tile[0] != 0
        pad_col = self.dims[1] % self.tile[1] != 0
        last = ((rows == self.grid[0] - 1) & pad_row) | ((cols == self.grid[1] - 1) & pad_col)
        return last & self.inside

    def pad_text(self) -> str:
        """What the padding of a padded tile is, e.g. `rows 1..31 of each tile`."""
        parts = []
        r, c = self.dims[0] % self.tile[0], self.dims[1] % self.tile[1]
        if r:
            parts.append(f"rows {r}..{self.tile[0] - 1} of the last tile row")
        if c:
            parts.append(f"columns {c}..{self.tile[1] - 1} of the last tile column")
        return " and ".join(parts)


@dataclass(frozen=True)
class Ownership:
    """Everything the tile map of one program shows."""

    program: str
    kind: str
    grid: tuple[int, ...]
    """The item grid (items are numbered row-major over it)."""
    owned: np.ndarray
    """(items, 4): tile row, tile column, rows, columns each item owns of the output;
    empty when `owns` is not linear."""
    maps: list[TileMap]
    """The stored tensors, then the loaded ones, in program order."""

    @property
    def num_items(self) -> int:
        return int(np.prod(self.grid))

    def strays(self) -> list[tuple[int, int, int]]:
        """(item, tile row, tile column) of the first output's tiles an item writes
        outside what it owns (refused); empty when ownership is unknown."""
        if not self.maps or self.maps[0].access != "write" or not self.owned.size:
            return []
        t = self.maps[0].touches
        r0, c0, h, w = (self.owned[t.items, i] for i in range(4))
        bad = (t.rows < r0) | (t.rows >= r0 + h) | (t.cols < c0) | (t.cols >= c0 + w)
        return [(int(i), int(r), int(c)) for i, r, c in zip(t.items[bad], t.rows[bad], t.cols[bad])]


def move_touches(move: Move, program: ProgramOp, tiles_per_row: int) -> Touches:
    """The tiles `move` reaches, over every item and K trip, as `TileMove.cells` gives
    them (a block row runs on past the tensor's edge when the move is wrong); a table
    read outside its table is read at its nearest end."""
    geometry = move.tile_move()
    table = move.table_values()
    if geometry.table_at is not None and table is None:
        raise UnknownTiles("it reads its origin through an external table")
    loop = enclosing_loop(move)
    trips = loop.trips.data if loop is not None else 1
    values = loop_values(program.item_coords(), trips, move.loop_variables())
    t0 = geometry.first_tiles(values, (program.num_items, trips), table, clip=True)
    rows, cols = geometry.cells(t0, tiles_per_row)  # (items, trips, bh, bw)
    items = np.broadcast_to(np.arange(program.num_items)[:, None, None, None], rows.shape)
    triples = np.unique(
        np.stack([items.reshape(-1), rows.reshape(-1), cols.reshape(-1)], axis=1), axis=0
    )
    return Touches(triples[:, 0], triples[:, 1], triples[:, 2])


def _concat(parts: list[Touches]) -> Touches:
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return Touches(empty, empty, empty)
    triples = np.unique(
        np.concatenate([np.stack([p.items, p.rows, p.cols], axis=1) for p in parts], axis=0),
        axis=0,
    )
    return Touches(triples[:, 0], triples[:, 1], triples[:, 2])


def ownership(program: ProgramOp) -> Ownership:
    """The tile maps of `program`: each stored tensor (who writes which tile), then
    each loaded tensor (who reads which tile)."""
    tile = program.target.tile
    owned = program.owned_rectangles()
    stored: dict[SSAValue, list[Move]] = {}
    loaded: dict[SSAValue, list[Move]] = {}
    for op in program.body.walk():
        if isinstance(op, StoreOp):
            stored.setdefault(op.tensor, []).append(op)
        elif isinstance(op, LoadOp):
            loaded.setdefault(op.tensor, []).append(op)
    maps: list[TileMap] = []
    for access, moves in (("write", stored), ("read", loaded)):
        for tensor, ops in moves.items():
            decl = tensor.owner
            name = decl.tensor_name.data if isinstance(decl, TensorOp) else str(tensor)
            h = cast(TensorOp, decl).handle if isinstance(decl, TensorOp) else None
            if h is None:
                continue
            grid = tile_grid(h.dims, tile)
            parts, unknown = [], ""
            for op in ops:
                try:
                    parts.append(move_touches(op, program, grid[1]))
                except UnknownTiles as e:
                    unknown = str(e)
            maps.append(
                TileMap(name, h.role.data, h.dims, tile, grid, access, _concat(parts), unknown)
            )
    return Ownership(
        program.program_name.data,
        program.KIND,
        program.grid_shape,
        owned if owned is not None else np.zeros((0, 4), dtype=np.int64),
        maps,
    )
