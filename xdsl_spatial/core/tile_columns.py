"""
A matrix laid in tile columns: its columns cut into strips one tile wide, each strip
its K rows one after another, the strips one after another. Element `(k, n)` of a
K x N matrix in strips `w` wide lies at

    (n // w) * w * K  +  k * w  +  n % w

so a 32 x 32 tile is 1 KiB in one piece, and a tile column (a strip) all of K in one
piece. The native engine takes a Q8_0 weight's values laid so (`spatial-native-layout`
marks which; `convert-spatial-to-linalg` reads them so): an item of a product of one
row reads its columns of every row, and laid in rows those are a few hundred bytes of
each 4 KiB row, which the CPU's prefetchers do not follow; laid in tile columns they
are a few long streams, which they do (docs/speed.md measures both).

```python
laid = TileColumns.lay(w)          # once: a copy, its data in tile-column order
exe(x, laid, s)                    # what the native engine reads as it is
laid.plain()                       # w again (a copy)
```
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from xdsl_spatial.core.memory import aligned_empty, in_huge_pages

LAYOUT = "layout"
"""The attribute of a `spatial.tensor` that names the layout of its memory, set by a
target's pass (`spatial-native-layout`); a tensor without it is laid in rows."""

TILE_COLUMNS = "tile_columns"
"""`LAYOUT`'s value for a tensor laid in tile columns, its strips as wide as its
program's tiles."""


class LayoutError(ValueError):
    """An array that cannot be laid in tile columns; the message says why."""


@dataclass(frozen=True, eq=False)
class TileColumns:
    """A K x N matrix laid in tile columns `width` wide: `data` holds its strips,
    `(N / width, K, width)`, C-contiguous, starting on a cache line."""

    data: np.ndarray
    width: int

    @staticmethod
    def lay(a: Any, width: int = 32) -> TileColumns:
        """`a` (a K x N array, N a multiple of `width`) laid in tile columns: a copy."""
        a = np.asarray(a)
        if a.ndim != 2 or width < 1 or a.shape[1] % width:
            raise LayoutError(
                f"an array laid in tile columns {width} wide is 2-d with a multiple of "
                f"{width} columns, got {a.dtype} {a.shape}"
            )
        k, n = a.shape
        out = aligned_empty((n // width, k, width), a.dtype)
        out[...] = a.reshape(k, n // width, width).transpose(1, 0, 2)
        return TileColumns(out, width)

    @property
    def shape(self) -> tuple[int, int]:
        """The matrix's shape, K x N."""
        strips, k, w = self.data.shape
        return (k, strips * w)

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.data.dtype

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)

    def plain(self) -> np.ndarray:
        """The matrix laid in rows (a copy)."""
        k, n = self.shape
        return np.ascontiguousarray(self.data.transpose(1, 0, 2)).reshape(k, n)


def placed(arrays: Sequence[Any]) -> list[Any]:
    """`arrays` (numpy arrays and `TileColumns`) in one mapping of huge pages
    (`memory.in_huge_pages`: a `TileColumns`' data), each the same object where it
    lies there already."""
    data = [a.data if isinstance(a, TileColumns) else a for a in arrays]
    moved = in_huge_pages(data)
    return [
        TileColumns(m, a.width)
        if isinstance(a, TileColumns) and m is not a.data
        else (a if isinstance(a, TileColumns) else m)
        for a, m in zip(arrays, moved)
    ]
