"""
A streamed weight asked for ahead (`memref.prefetch`): in a stage marked `kernel =
"stream"`, each trip of a block's lanes (a row of the weight: an item's columns of it)
first asks the CPU for the same columns `AHEAD` rows further on, a cache line at a
time, into the first-level cache, then sums its row. A stage marked `dot` asks for the
rows of the block `BLOCK_AHEAD` rows on, into the second-level cache, a few before each
of its trip's pair loops (`prefetch_block`), so that the trip's asking is spread over
its work. And both first ask, each trip of the loop outside the lanes, for the factors
(a block's scales) that the next trip will read, which lie a row of scales (a page or
more) on. A weight laid in tile columns (`spatial-native-layout`): a stream asks for
nothing (each strip is a stream the CPU's prefetchers follow), a `dot` trip for each
strip's rows of the block two on (`strip_rows_ahead`).

```mlir
scf.for %lane = %c0 to %c32 step %c1 {
  %row = arith.minui %ahead, %last : index       // the row's lines all in the weight
  memref.prefetch %w[%row], read, locality<3>, data : memref<16777216xi8>
  %at = arith.addi %row, %c64 : index
  memref.prefetch %w[%at], read, locality<3>, data : memref<16777216xi8>
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
from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, SSAValue

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.memref_extra import PrefetchOp
from xdsl_spatial.dialects.spatial import element_bytes
from xdsl_spatial.passes.convert_spatial_to_linalg.build import add, idx, storage, view
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import outer_offset, placed
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import (
    LoopAxis,
    Row,
    body_slice,
    strip_loops,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope

AHEAD = 32
"""Rows of a streamed weight between the one a lane sums and the one it asks for: a
Q8_0 block of 32 rows, far enough that the lines arrive in time, near enough that
they are still in the cache when read (32 and 64 measured alike, 128 slower:
docs/native.md)."""

BLOCK_AHEAD = 64
"""Rows between a `dot` trip's block and the one it asks for: two Q8_0 blocks on (on
an AMD EPYC Zen 5, 4096 x 4096 at m = 8 from cold caches: 1.35 ms one block on, 1.19
two, 1.21 three; 2.28 asking for the next block all at once before its trip)."""

UNIT_AHEAD = 256
"""Rows between the block a unit of `dot.held_sums` sums and the one it asks for, in
its strip: eight Q8_0 blocks on. (SmolLM2's step of 8 sequences on an AMD EPYC Zen 4,
two trees alternating: 64 rows on 25.35 ms a step, 128 24.83, 256 24.70.)"""

LINE = 64
"""Bytes of a cache line: one prefetch each."""

L1 = 3
"""MLIR's locality hint 3: into the first-level cache (x86's `PREFETCHT0`), what a
stream's rows ask for: a row is summed once, soon (the EPYC, 4096 x 4096 at m = 1 from
cold caches: 0.81 ms into the second level, 0.69-0.73 into the first in one run, no
difference in a later one: docs/native.md)."""

L2 = 2
"""MLIR's locality hint 2: into the second-level cache (x86's `PREFETCHT1`), what a
`dot` trip asks for (its block is read once, to pair it, with 16 KiB of pairs beside
it: into the first level, 4096 x 4096 at m = 8 took 2.5 ms, not 1.3), the factors, and
the next block's rows that `linalg-contraction-in-registers` asks for (a block as large
as a first-level cache)."""


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
    reads such a page contiguously; never a tensor laid in tile columns, whose strips
    the CPU's prefetchers follow themselves."""
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
            if pt.in_place[page].strip:
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
    lanes: range,
) -> None:
    """In a trip of `outer`, where a kernel reads a whole block of `page` (`loops`:
    its lanes, then its columns, contiguous) at once, the prefetches of the rows
    `lanes` of the block `BLOCK_AHEAD` rows on (`prefetch_ahead`, into the second-level
    cache): a trip asks for a part of that block before each of its loops. Nothing
    where `page` is not read where it is held. Laid in tile columns, those rows of
    each of the block's strips (`strip_rows_ahead`)."""
    if page not in pt.in_place:
        return
    if pt.in_place[page].strip:
        strip_rows_ahead(pt, b, page, f, loops, outer, lanes)
        return
    lane, cols = loops
    for r in lanes:
        at = [*outer, (lane, idx(b, r))]
        prefetch_ahead(pt, b, [(page, f)], lane, BLOCK_AHEAD, at, cols, L2)


def strip_rows_ahead(
    pt: ProgramScope,
    b: Builder,
    page: SSAValue,
    f: LinearForm,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    lanes: range,
    strips: range | None = None,
    rows_on: int = BLOCK_AHEAD,
) -> None:
    """`prefetch_block` for a page of a tensor laid in tile columns: the rows `lanes`
    of each of the block's strips (or of `strips`) `rows_on` rows on, which lie one
    after another in the strip (`strip` elements a row), a line at a time, into the
    second-level cache."""
    where = pt.in_place[page]
    split = strip_loops(loops, where.strip)
    at, steps = placed(b, where, f, outer, split)
    count, apart = (split[1].extent, steps[1]) if len(split) == 3 else (1, 0)
    base, first = storage(b, pt.values[page], at)
    total = math.prod(cast(MemRefType[Attribute], base.type).get_shape())
    flat = view(b, base, 0, (total,), (1,))
    ahead = add(b, first, (rows_on + lanes.start) * where.strip)
    for j in range(count) if strips is None else strips:
        prefetch_row(b, flat, add(b, ahead, j * apart), len(lanes) * where.strip, L2)


def prefetch_ahead(
    pt: ProgramScope,
    b: Builder,
    pages: Sequence[tuple[SSAValue, LinearForm]],
    along: LoopAxis,
    trips: int,
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    cols: LoopAxis,
    locality: int,
) -> None:
    """In a trip of `outer` (among them `along`), the prefetches of `pages`
    (`streamed`): the elements a trip of `cols` reads there, as `along`'s trip
    `trips` on will read them, a line at a time, into the cache `locality` names
    (`L1`, `L2`). Where those run past the tensor's last element, the last `cols`
    elements instead: the start is clamped once, so each line is an add."""
    for page, f in pages:
        base, first = storage(b, pt.values[page], outer_offset(b, outer, f))
        total = math.prod(cast(MemRefType[Attribute], base.type).get_shape())
        flat = view(b, base, 0, (total,), (1,))
        ahead = add(b, first, trips * f.dims[along.axis] * along.step)
        prefetch_row(b, flat, ahead, cols.extent, locality)


def prefetch_row(b: Builder, flat: SSAValue, start: SSAValue, extent: int, locality: int) -> None:
    """The prefetches of `extent` elements of the 1-d memref `flat` from `start`, a
    line at a time, into the cache `locality` names (`L1`, `L2`); where they would run
    past its last element, its last `extent` instead: the start is clamped once, so
    each line is an add."""
    t = cast(MemRefType[Attribute], flat.type)
    line = max(1, LINE // element_bytes(t.element_type))
    last = idx(b, max(0, t.get_shape()[0] - extent))
    row = b.insert(arith.MinUIOp(start, last)).result
    for c in range(0, extent, line):
        b.insert(PrefetchOp(flat, [add(b, row, c)], locality))
