"""
A factored sum's lanes as AVX512-BF16 dot products (a stage marked `kernel = "dot"`,
which `spatial-native-kernels{kind=bf16}` marks where `amx.lanes_fit` with `DOT_ROWS`
rows or more): the same operands as the AMX tiles (`amx.py`: each row sums
`extf(x) * sitofp(q)` of a bf16 activation and int8 weights over a Q8_0 block's 32
lanes, both exact in bf16), summed a pair of lanes an instruction in vector registers.
The same sums as vector fused multiply-adds, a lane an instruction (a stage marked
`kernel = "fma"`, 256-bit vectors, which `spatial-native-kernels{kind=avx2}` marks for
a CPU with AVX2 and no AVX-512, or `kernel = "fma512"`, 512-bit vectors, which
`kind=avx512` marks): `fma_loop` runs the 32 lanes carrying as many accumulators as
the kernel's `FmaShape` holds, each row's activation broadcast, each weight widened to
f32 once a trip: where it is loaded, in registers, when one register block holds
every row (each weight then multiplied once a trip), else first into a scratch that
each block reads (`widened_block`); the rest as below. (Widened through the scratch
at m = 8, SmolLM2's products under `fma512` ran at 30-33 G multiply-adds a second on
an Intel Xeon, its samples 44% in the widening, 37% on one of its loads; in registers
40-51.)

Each trip of the loops outside the lanes (a block of 32 lanes by the item's columns)
runs, for `ACCUMULATORS` rows at a time and each 16 of its columns, the 16 lane pairs
in an `scf.for` carrying a 16-column accumulator a row, each loop first asking for
its share of the rows of the block two on (`prefetch.prefetch_block`). Each step
converts its pair of the block's int8 rows to bf16 pairs in registers (word `c` the
bf16 of lane `2p` of column `c` in its low half, of lane `2p + 1` in its high:
`amx.pair_vector`, which the AMX tiles read too), then runs one `dot` a row:

```mlir
%sums:8 = scf.for %p = %c0 to %c16 step %c1 iter_args(%a0 = %zero, ...) -> (...) {
  %q0 = vector.load %block[%k, %c0] : memref<32x256xi8, strided<...>>, vector<16xi8>
  ...                                    // lanes 2p and 2p + 1, widened to f32
  %w = vector.shuffle %h0, %h1 [1, 33, 3, 35, ...] : vector<32xi16>, vector<32xi16>
  %x = vector.load %xs[%c0, %k] : memref<8x32xbf16, strided<...>>, vector<2xbf16>
  ...                                                        // the pair, broadcast
  %s0 = x86.avx512.dot %a0, %wv, %xv : vector<32xbf16> -> vector<16xf32>
  ...
}
%scale = vector.load %scales[%c0] : memref<256xf32, strided<...>>, vector<16xf32>
%y0 = vector.load %out_row0[%c0] : memref<256xf32, strided<...>>, vector<16xf32>
%y1 = vector.fma %sums#0, %scale, %y0 : vector<16xf32>
vector.store %y1, %out_row0[%c0] : memref<256xf32, strided<...>>, vector<16xf32>
```

and scales the sums where they are: each column group's 16 scales of the block loaded
once (f16 scales widened as they are loaded), each row's sums fused into its output.
Where the factor is computed in the stage's body (beyond widening) or an output is not
contiguous along the columns (`dot_scales` says), the sums are stored to a scratch for
the scaling generic instead,
as the tiles' are. The products are exact; `VDPBF16PS` adds a lane's two into its sum
in its own order and rounding (and reads denormal activations as zero, as the tiles
do), so the numbers are the lanes' loop's within the fp32 bound, and its bits on
integer-exact inputs.

Converting where they are summed, the weights' conversion runs beside the `dot`s (on
an AMD EPYC Zen 4, 4096 x 4096 at m = 8: 1.6-1.8 ms against 2.2-2.4 when each trip first
interleaved its block into a scratch).

A `dot` or `fma512` sum of at most 8 rows over a weight laid in tile columns (`holds`)
runs the loop over the blocks inside each unit instead (`held_sums`): a unit of 16
columns carries its rows' outputs in registers through every block, each block's sums
scaled into them, and stores them once, reading its strip of the weight block after
block.
The dots read the activation's bf16 pairs and the blocks' scales where their tensors
hold them (`ProgramTranslation.read_in_place`): neither is copied into a page first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float32Type,
    IndexType,
    VectorType,
    f32,
    i8,
    i32,
)
from xdsl.ir import Block, BlockArgument, OpResult, SSAValue

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.x86_avx512 import DotBF16Op
from xdsl_spatial.passes.convert_spatial_to_linalg.amx import (
    AMX_ROWS,
    TILE_GROUPS,
    TILE_ROWS,
    AmxLanes,
    TileScratch,
    TileUnits,
    Unit,
    block_column,
    block_source,
    pair_vector,
    widened_lanes,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.build import (
    convert,
    dense,
    drop,
    element,
    idx,
    inside,
    view,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import Generic, outer_offset
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import (
    AMX,
    DOT,
    FMA,
    FMA512,
    LoopAxis,
    Row,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.prefetch import (
    UNIT_AHEAD,
    prefetch_block,
    strip_rows_ahead,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope

LANES = 16
"""f32 sums a 512-bit `dot` holds: the columns of one accumulator."""

ACCUMULATORS = 16
"""Rows whose accumulators (one 16-column vector each) are held in vector registers at
once (of AVX-512's 32: the rest hold the weights being converted)."""

DOT_ROWS = 2
"""The fewest rows whose lanes' sums are `dot`s: one row streams its weight
(`loops.STREAM`). On an AMD EPYC Zen 4, 4096 x 4096 (weights in the caches), the
`dot`s took 0.89 ms at m = 2, 1.14 at 4 and 1.42 at 6 against the stream's 3.20,
3.46 and 4.10; at m = 1 0.70 against 0.66. (Before the weights were converted where
they are summed, `DOT_ROWS` was 8: on an AMD EPYC Zen 5, fewer rows had been slower.)"""


@dataclass(frozen=True)
class FmaShape:
    """The registers of an `fma` kernel: the f32 sums a vector holds, and the
    accumulators held at once (of the CPU's vector registers: the rest hold a lane's
    widened weights and the broadcast activation)."""

    vector: int
    accumulators: int


FMA_SHAPES = {FMA: FmaShape(8, 12), FMA512: FmaShape(16, 24)}
"""`fma`: 256-bit vectors, 12 of AVX2's 16 registers; `fma512`: 512-bit vectors, 24 of
AVX-512's 32."""

FMA_ROWS = 2
"""The fewest rows whose lanes' sums are the `fma` kernel's: one row streams its
weight (`loops.STREAM`)."""

LEAST_ROWS = {AMX: AMX_ROWS, DOT: DOT_ROWS, FMA: FMA_ROWS, FMA512: FMA_ROWS}
"""The fewest rows a sum must have to be built as each kernel of `loops.BLOCK_KERNELS`
(which `spatial-native-kernels` marks and the conversion checks)."""


@dataclass(frozen=True)
class DotScales:
    """What scales each row's lanes' sums in registers (`dot_scales`): the page of the
    factor every row multiplies its block's sum by (a Q8_0 block's scales: f32, or a
    narrower float widened as it is loaded) and its map, and each row's output page and
    map."""

    factor: SSAValue
    form: LinearForm
    outs: tuple[tuple[SSAValue, LinearForm], ...]


def dot_scales(
    rows: Sequence[Row], factors: Sequence[SSAValue], cols: LoopAxis
) -> DotScales | None:
    """Whether `dot_sums` can scale the rows' sums itself: each row's factor is an f32
    the stage reads as given (no table) from one page at one map, or widens from a
    narrower float there (`arith.extf`: a Q8_0 block's f16 scale), contiguous along the
    columns, and each row's output is contiguous along them. Else None: the sums go
    through a scratch to `stages.scaled`."""
    found: set[tuple[SSAValue, LinearForm]] = set()
    outs: list[tuple[SSAValue, LinearForm]] = []
    for row, f in zip(rows, factors):
        o = row.stage
        if isinstance(f, OpResult) and isinstance(f.op, arith.ExtFOp) and f.type == f32:
            f = f.op.input
        if not isinstance(f, BlockArgument) or f.owner is not o.body.block:
            return None
        if not isinstance(f.type, AnyFloat) or f.type.bitwidth > 32:
            return None
        form, out = row.forms[f.index], row.forms[-1]
        if o.indirect_of[f.index] >= 0 or form.dims[cols.axis] != 1 or out.dims[cols.axis] != 1:
            return None
        found.add((o.ins[f.index], form))
        outs.append((row.page, out))
    if len(found) != 1:
        return None
    factor, form = found.pop()
    return DotScales(factor, form, tuple(outs))


def dot_sums(
    pt: ProgramScope,
    b: Builder,
    lanes: AmxLanes,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    into: SSAValue | DotScales,
    kernel: str = DOT,
) -> None:
    """Every row's lanes' sums as `dot`s of this trip's weight pairs (`pair_vector`)
    and the row's activation pairs, broadcast; for `fma` and `fma512`, as fused
    multiply-adds of this trip's weights, widened to f32 once (`fma_loop`), and the
    row's activation, one lane a step, a vector of columns (`FMA_SHAPES`) at a time;
    for `amx`, as a tile product of
    the same pairs and the rows' activations, 16 columns and up to 16 rows at a time
    (`amx.TileUnits`, each unit's sums given a unit later). Into a `DotScales`: each
    sum times its column's factor added into the row's output, in registers. Into a
    scratch: row `j`'s columns from `c` stored at `j * columns + c`, where `lane_sums`
    would have summed them."""
    lane, cols = loops
    fma = FMA_SHAPES.get(kernel)
    vec = LANES if fma is None else fma.vector
    rows = lanes.x_rows
    blocks = register_blocks(len(rows), cols.extent, kernel)
    tiles: TileUnits | None = None
    if fma is not None:
        # Each weight is multiplied by every row once a trip: with one register block
        # of rows, where it is loaded (widened in registers); with more, widened once
        # into a scratch that each block reads.
        if len(blocks) == 1:
            weights = block_source(pt, b, lanes, loops, outer)
            assert weights[1][-1] % vec == 0, f"columns in pieces of {weights[1][-1]}"
        else:
            weights = widened_block(pt, b, lanes, loops, outer), (cols.extent,)
        x_page = pt.widened.get(lanes.x_page, pt.values[lanes.x_page])

        def lane_loop(xs: SSAValue, n: int, groups: int, c0: int) -> list[SSAValue]:
            return fma_loop(b, weights, xs, n, groups, lane.extent, c0, vec)

    else:
        block = block_source(pt, b, lanes, loops, outer)
        # a fold's tiles, so a strip, are 32 columns wide: no 16 columns cross a strip
        assert block[1][-1] % LANES == 0, f"columns in pieces of {block[1][-1]}"
        x_page = pt.values[lanes.x_page]
        if kernel == AMX:
            scratch = TileScratch.make(pt, lane.extent // 2, blocks[0][2])
            tiles = TileUnits(b, block, lane.extent // 2, scratch)

        def lane_loop(xs: SSAValue, n: int, groups: int, c0: int) -> list[SSAValue]:
            return pair_loop(b, block, xs, n, lane.extent // 2, c0)

    along = (cols.extent,), (1,)
    acc_t = VectorType(f32, (vec,))
    factor, outs = None, []  # the block's scales and each row's output, along the columns
    if isinstance(into, DotScales):
        factor = view(b, pt.values[into.factor], outer_offset(b, outer, into.form), *along)
        outs = [view(b, page, outer_offset(b, outer, f), *along) for page, f in into.outs]

    def finish(unit: Unit, sums: list[SSAValue]) -> None:
        """The unit's rows' sums (`rows x groups` vectors) scaled into their outputs, or
        stored into the scratch."""
        r0, n, groups, c0 = unit
        for h in range(groups):
            c = c0 + h * vec
            if factor is not None:
                scale = load_f32(b, factor, c, vec)
                for j in range(n):
                    out = b.insert(vector.LoadOp(outs[r0 + j], [idx(b, c)], acc_t))
                    fused = b.insert(vector.FMAOp(sums[j * groups + h], scale, out.result))
                    b.insert(vector.StoreOp(fused.res, outs[r0 + j], [idx(b, c)]))
                continue
            assert isinstance(into, SSAValue)
            for j in range(n):
                at = idx(b, (r0 + j) * cols.extent + c)
                b.insert(vector.StoreOp(sums[j * groups + h], into, [at]))

    # the trip's units (a register block's rows, some of its columns), each first
    # asking for a part of the block ahead
    units = [(r0, n, g, c0) for r0, n, g in blocks for c0 in range(0, cols.extent, g * vec)]
    xs_of: dict[int, SSAValue] = {}
    for i, unit in enumerate(units):
        r0, n, groups, c0 = unit
        if r0 not in xs_of:
            xs_of[r0] = activation_rows(pt, b, lanes, lane, outer, x_page, r0, n)
        part = range(i * lane.extent // len(units), (i + 1) * lane.extent // len(units))
        prefetch_block(pt, b, lanes.q_page, lanes.q_form, loops, outer, part)
        if tiles is None:
            finish(unit, lane_loop(xs_of[r0], n, groups, c0))
            continue
        done = tiles.made(unit, xs_of[r0], units[i + 1] if i + 1 < len(units) else None)
        if done is not None:
            finish(*done)
    if tiles is not None:
        finish(*tiles.last())


def activation_rows(
    pt: ProgramScope,
    b: Builder,
    lanes: AmxLanes,
    lane: LoopAxis,
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    x_page: SSAValue,
    r0: int,
    n: int,
) -> SSAValue:
    """Rows `r0` to `r0 + n` of this trip's activation (`x_page`, or its widened
    scratch) as a view over the rows, then the block's lanes."""
    x = Generic(b, pt, lanes.stage.iter_kinds, [lane], outer).strided(x_page, lanes.x_rows[r0])[0]
    rows = view(b, x, 0, (n, lane.extent), (lanes.x_stride, 1))
    drop(x)  # only its offset was wanted
    return rows


HELD_KERNELS = (DOT, FMA512)
"""The kernels whose sums of few rows `held_sums` runs: 512-bit ones, whose units of 16
columns hold a row's output and its sum in two of AVX-512's 32 registers."""


def holds(pt: ProgramScope, lanes: AmxLanes, kernel: str) -> bool:
    """Whether `held_sums` runs a sum: a `dot` or `fma512` one of few enough rows that
    its units' outputs fit in registers beside their sums (one vector of 16 columns a
    row each, within `ACCUMULATORS`), reading a weight laid in tile columns whose
    strips hold whole units."""
    where = pt.in_place.get(lanes.q_page)
    return (
        kernel in HELD_KERNELS
        and 2 * len(lanes.x_rows) <= ACCUMULATORS
        and where is not None
        and where.strip > 0
        and where.strip % LANES == 0
    )


def held_sums(
    pt: ProgramScope,
    b: Builder,
    lanes: AmxLanes,
    loops: Sequence[LoopAxis],
    blocks: LoopAxis,
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    into: DotScales,
    kernel: str,
) -> None:
    """`dot_sums` with the loop over the blocks (`blocks`, the sum outside the lanes)
    inside each unit rather than outside them all (`holds` says when): each unit (every
    row, 16 of the columns) loads its rows' outputs once, runs every block's
    `pair_loop` (`dot`) or `fma_loop` (`fma512`: one vector of columns a row, the
    weights widened where they are loaded, the activation read from its widened
    scratch), adds each block's sums times its scales into the outputs, held in
    registers by an `scf.for` over the blocks, and stores them once. The same terms in
    the same order as a unit a trip (each output adds its blocks' scaled sums in the
    blocks' order), without a load and a store of every output every block. A unit's
    columns lie in one strip of the laid weight, which it reads block after block: the
    strip's first unit asks for the rows `UNIT_AHEAD` on, its last for the next strip's
    rows of the same block, which the next unit starts with. (SmolLM2's step of 8
    sequences on an AMD EPYC Zen 4, each trip's units before: 4.6% faster with `dot`,
    the same bits.)"""
    lane, cols = loops
    rows = lanes.x_rows
    laid = pt.in_place[lanes.q_page].strip
    strips = cols.extent // laid
    acc_t = VectorType(f32, (LANES,))
    along = (cols.extent,), (1,)
    outs = [view(b, page, outer_offset(b, outer, f), *along) for page, f in into.outs]
    # `fma512` reads the activation widened (`stages.widen`), `dot` its bf16 pairs
    x_page = pt.widened.get(lanes.x_page, pt.values[lanes.x_page])
    for c0 in range(0, cols.extent, LANES):
        start = [b.insert(vector.LoadOp(out, [idx(b, c0)], acc_t)).result for out in outs]
        blk = Block(arg_types=[IndexType(), *([acc_t] * len(rows))])
        loop = b.insert(scf.ForOp(idx(b, 0), idx(b, blocks.extent), idx(b, 1), start, blk))
        body = inside(blk)
        trip = [*outer, (blocks, blk.args[0])]
        block = block_source(pt, body, lanes, loops, trip)
        xs = activation_rows(pt, body, lanes, lane, trip, x_page, 0, len(rows))
        strip, at = divmod(c0, laid)
        ahead = None
        if at == 0:
            ahead = range(strip, strip + 1), UNIT_AHEAD
        elif at == laid - LANES and strip + 1 < strips:
            ahead = range(strip + 1, strip + 2), 0
        if ahead is not None:
            every = range(lane.extent)
            strip_rows_ahead(pt, body, lanes.q_page, lanes.q_form, loops, trip, every, *ahead)
        if kernel == DOT:
            sums = pair_loop(body, block, xs, len(rows), lane.extent // 2, c0)
        else:
            sums = fma_loop(body, block, xs, len(rows), 1, lane.extent, c0, LANES)
        factor = view(body, pt.values[into.factor], outer_offset(body, trip, into.form), *along)
        scale = load_f32(body, factor, c0)
        added = [body.insert(vector.FMAOp(s, scale, acc)).res for s, acc in zip(sums, blk.args[1:])]
        body.insert(scf.YieldOp(*added))
        for out, v in zip(outs, loop.results):
            b.insert(vector.StoreOp(v, out, [idx(b, c0)]))


def register_blocks(rows: int, cols: int, kernel: str) -> list[tuple[int, int, int]]:
    """The register blocks of `dot_sums`, rows `r0` to `r0 + n`, `groups` vectors of
    columns a row each: for `dot`, one vector (`pair_loop` says why) and as many rows
    as `ACCUMULATORS` hold; for `amx`, a tile's rows (`amx.TILE_ROWS`) and as many of
    `amx.TILE_GROUPS` column groups as divide the columns; for `fma` and `fma512`, at
    most half as many rows as their `FmaShape`'s accumulators, each as many of 4, 2 or
    1 vectors as the accumulators hold and divide the columns (a few rows sum wider, so
    that enough sums are in flight)."""
    if kernel == AMX:
        groups = math.gcd(TILE_GROUPS, cols // LANES)
        return [(r0, min(TILE_ROWS, rows - r0), groups) for r0 in range(0, rows, TILE_ROWS)]
    fma = FMA_SHAPES.get(kernel)
    if fma is None:
        return [(r0, min(ACCUMULATORS, rows - r0), 1) for r0 in range(0, rows, ACCUMULATORS)]
    at_once = fma.accumulators // 2
    out = []
    for r0 in range(0, rows, at_once):
        n = min(at_once, rows - r0)
        fits = [g for g in (4, 2, 1) if n * g <= fma.accumulators and cols % (g * fma.vector) == 0]
        out.append((r0, n, fits[0]))
    return out


def load_f32(b: Builder, page: SSAValue, at: int, n: int = LANES) -> SSAValue:
    """The `n` elements of `page` from `at` as f32s (widened where they are narrower:
    exact)."""
    elem = element(page)
    got = b.insert(vector.LoadOp(page, [idx(b, at)], VectorType(elem, (n,)))).result
    if elem == f32:
        return got
    return b.insert(arith.ExtFOp(got, VectorType(f32, (n,)))).result


def widened_block(
    pt: ProgramScope,
    b: Builder,
    lanes: AmxLanes,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
) -> SSAValue:
    """This trip's block of int8 weights (`loops`: its 32 lanes, its columns) widened
    to f32 (exact) into a scratch by one parallel generic: what `fma_loop`
    multiplies, each weight widened once for all of the rows."""
    lane, cols = loops
    q, shape = block_source(pt, b, lanes, loops, outer)
    scratch = pt.scratch("q8_f32", lane.extent * cols.extent)
    wide = dense(b, scratch, 0, (lane.extent, cols.extent))
    by_strip = wide if shape == (cols.extent,) else dense(b, scratch, 0, (lane.extent, *shape))
    convert(b, q, by_strip, arith.SIToFPOp)
    return wide


def carried(
    b: Builder, trips: int, acc_t: VectorType[Float32Type], count: int
) -> tuple[scf.ForOp, Builder]:
    """An `scf.for` of `trips` trips carrying `count` accumulators of `acc_t`, zeros at
    first, and a builder inside its body (its block's arguments: the trip, then the
    accumulators)."""
    zero = b.insert(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(acc_t, [0.0]))).result
    blk = Block(arg_types=[IndexType(), *([acc_t] * count)])
    loop = b.insert(scf.ForOp(idx(b, 0), idx(b, trips), idx(b, 1), [zero] * count, blk))
    return loop, inside(blk)


def fma_loop(
    b: Builder,
    weights: tuple[SSAValue, tuple[int, ...]],
    xs: SSAValue,
    rows: int,
    groups: int,
    lanes: int,
    c0: int,
    vec: int,
) -> list[SSAValue]:
    """`rows x groups` accumulators of `vec` f32 sums, row `j` column group `h`: the sum
    over the `lanes` lanes `l` of `xs[j, l]` (widened, broadcast) times the weights of
    lane `l`, columns `c` to `c + vec`, `c = c0 + vec h`, each step one fused
    multiply-add, an `scf.for` over `l` carrying them: each output's terms in the
    lanes' order, as `lane_sums` adds them. `weights`: the trip's block and its
    columns' shape (`block_source`), int8 widened in registers as they are loaded, or
    f32 widened before (`widened_block`)."""
    acc_t = VectorType(f32, (vec,))
    loop, body = carried(b, lanes, acc_t, rows * groups)
    lane, *accs = loop.body.block.args
    block, shape = weights
    ws = []
    for h in range(groups):
        at = [lane, *block_column(body, shape, c0 + h * vec)]
        if element(block) == f32:
            ws.append(body.insert(vector.LoadOp(block, at, acc_t)).result)
        else:
            q = body.insert(vector.LoadOp(block, at, VectorType(i8, (vec,)))).result
            ws.append(widened_lanes(body, q))
    out: list[SSAValue] = []
    for j in range(rows):
        x = body.insert(memref.LoadOp.get(xs, [idx(body, j), lane])).res
        if x.type != f32:
            x = body.insert(arith.ExtFOp(x, f32)).result
        xv = body.insert(vector.BroadcastOp(x, acc_t)).vector
        out += [
            body.insert(vector.FMAOp(xv, ws[h], accs[j * groups + h])).res for h in range(groups)
        ]
    body.insert(scf.YieldOp(*out))
    return list(loop.results)


def pair_loop(
    b: Builder,
    block: tuple[SSAValue, tuple[int, ...]],
    xs: SSAValue,
    rows: int,
    pairs: int,
    c0: int,
) -> list[SSAValue]:
    """`rows` accumulators, row `j`'s: the sum over the `pairs` lane pairs `p` of
    `dot(pair p of columns c0 to c0 + 16, xs[j, 2p : 2p + 2] broadcast)` (the pairs
    `pair_vector` makes of `block`), an `scf.for` over `p` carrying them. Each row's pair is
    broadcast for one `dot` only, so that LLVM reads it as the instruction's
    broadcast operand (`{1to16}`) rather than broadcasting it into a register first:
    on an AMD Zen 4 such broadcasts share the CPU's shuffle units with converting the
    weights, which then no longer overlaps the `dot`s."""
    acc_t = VectorType(f32, (LANES,))
    pair_t = VectorType(BFloat16Type(), (2 * LANES,))
    word_t = VectorType(i32, (LANES,))
    loop, body = carried(b, pairs, acc_t, rows)
    p, *accs = loop.body.block.args
    k = body.insert(arith.MuliOp(p, idx(body, 2))).result
    w = pair_vector(body, *block, k, c0)
    out: list[SSAValue] = []
    for j in range(rows):
        two = body.insert(vector.LoadOp(xs, [idx(body, j), k], VectorType(BFloat16Type(), (2,))))
        word = body.insert(vector.BitcastOp(two.result, VectorType(i32, (1,)))).result
        one = body.insert(vector.ExtractOp(word, [0], i32)).result
        every = body.insert(vector.BroadcastOp(one, word_t)).vector
        xv = body.insert(vector.BitcastOp(every, pair_t)).result
        out.append(body.insert(DotBF16Op(accs[j], w, xv)).dst)
    body.insert(scf.YieldOp(*out))
    return list(loop.results)
