"""
A streamed weight asked for ahead (`memref.prefetch`): in a stage marked `kernel =
"stream"`, each trip of a block's lanes (a row of the weight: an item's columns of it)
first asks the CPU for the same columns `AHEAD` rows further on, a cache line at a
time, then sums its row. A stage marked `dot` asks for the next block's rows the same
way, in a loop of their own before it interleaves this block's (`prefetch_block`). And
both first ask, each trip of the loop outside the lanes, for the factors (a block's
scales) that the next trip will read, which lie a row of scales (a page or more) on.

```mlir
scf.for %lane = %c0 to %c32 step %c1 {
  %at = arith.minui %ahead, %last : index        // never past the weight's end
  memref.prefetch %w[%at], read, locality<2>, data : memref<16777216xi8>
  ...                                            // a line each, the item's columns
  linalg.generic ... ins(%x_lane, %w_row) outs(%sums)   // the row, as before
}
```

Why: an item reads a strip of every row (its columns: 256 bytes of a 4096-byte row at
m = 1), the rows a page or so apart. The CPU's own prefetchers follow a stream within a
page, so each row is a fresh miss; asked for `AHEAD` rows in advance, the lines arrive
while the rows before them are summed (docs/native.md gives the measurements). A
prefetch reads and writes nothing: the sums are the same, term for term.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, SSAValue

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.memref_extra import PrefetchOp
from xdsl_spatial.dialects.spatial import element_bytes
from xdsl_spatial.passes.convert_spatial_to_linalg.build import add, counted, idx, storage, view
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import outer_offset
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import LoopAxis, Row, body_slice
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope

AHEAD = 32
"""Rows of a streamed weight between the one a lane sums and the one it asks for: a
Q8_0 block of 32 rows, far enough that the lines arrive in time, near enough that
they are still in the cache when read (32 and 64 measured alike, 128 slower:
docs/native.md)."""

LINE = 64
"""Bytes of a cache line: one prefetch each."""

LOCALITY = 2
"""MLIR's locality hint: 2, into the second-level cache (x86's `PREFETCHT1`)."""


def streamed(
    pt: ProgramScope,
    rows: Sequence[Row],
    roots: Sequence[SSAValue],
    lane: LoopAxis,
    rest: Sequence[LoopAxis],
) -> list[tuple[SSAValue, LinearForm]]:
    """The pages read where their tensor holds them that computing `roots` (a row's
    each) reads along `lane` (a loop: its next trips read elsewhere), with their maps,
    each once: what `prefetch_ahead` asks for. Only where `rest` is one loop that
    reads such a page contiguously."""
    if len(rest) != 1:
        return []
    (cols,) = rest
    found: dict[SSAValue, LinearForm] = {}
    for row, root in zip(rows, roots):
        o = row.stage
        for i in sorted(body_slice(o, [root])[1]):
            page, f = o.ins[i], row.forms[i]
            if page in found or page not in pt.in_place or o.indirect_of[i] >= 0:
                continue
            if f.dims[cols.axis] * cols.step == 1 and f.dims[lane.axis]:
                found[page] = f
    return list(found.items())


def prefetch_block(
    pt: ProgramScope,
    b: Builder,
    page: SSAValue,
    f: LinearForm,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
) -> None:
    """In a trip of `outer`, before a kernel reads a whole block of `page` (`loops`:
    its lanes, then its columns, contiguous) at once, an `scf.for` over the lanes
    asking for the same columns `AHEAD` rows on (`prefetch_ahead`): the next block,
    while this one is summed. Nothing where `page` is not read where it is held."""
    if page not in pt.in_place:
        return
    lane, cols = loops
    inner, at = counted(b, lane.extent)
    prefetch_ahead(pt, inner, [(page, f)], lane, AHEAD, [*outer, (lane, at)], cols)
    inner.insert(scf.YieldOp())


def prefetch_ahead(
    pt: ProgramScope,
    b: Builder,
    pages: Sequence[tuple[SSAValue, LinearForm]],
    along: LoopAxis,
    trips: int,
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    cols: LoopAxis,
) -> None:
    """In a trip of `outer` (among them `along`), the prefetches of `pages`
    (`streamed`): the elements a trip of `cols` reads there, as `along`'s trip
    `trips` on will read them, a line at a time, none past the tensor's last
    element."""
    for page, f in pages:
        base, first = storage(b, pt.values[page], outer_offset(b, outer, f))
        t = cast(MemRefType[Attribute], base.type)
        total = math.prod(t.get_shape())
        line = max(1, LINE // element_bytes(t.element_type))
        flat = view(b, base, 0, (total,), (1,))
        ahead = add(b, first, trips * f.dims[along.axis] * along.step)
        for c in range(0, cols.extent, line):
            at = b.insert(arith.MinUIOp(add(b, ahead, c), idx(b, total - 1))).result
            b.insert(PrefetchOp(flat, [at], LOCALITY))
