"""
A factored sum's lanes on x86's AMX-BF16 tile unit (a stage marked `kernel = "amx"`,
which `spatial-native-kernels{kind=amx}` marks where `lanes_fit`): when each of at
least `AMX_ROWS` rows sums `extf(x) * sitofp(q)` of a bf16 activation and int8 weights
over 32 lanes (a Q8_0 block, exact in bf16), each trip makes the weights' right-hand
tiles (lane pairs interleaved as the unit reads them), reads the rows' activations as
tiles straight from the bf16 page, makes every product, then stores each where the
scaling generic reads the lanes' sums.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    IntegerAttr,
    MemRefType,
    f32,
    i8,
    i32,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import StageOp
from xdsl_spatial.dialects.x86_amx import (
    TileLoadOp,
    TileMulFOp,
    TileStoreOp,
    TileType,
    TileZeroOp,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.build import drop, idx, inside, view
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import Generic
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import (
    LoopAxis,
    Row,
    factored_at,
    loop_axes,
    row_axis,
    stage_forms,
    strip_loops,
    sums,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope

TILE_COLUMNS = 16
"""f32 sums an AMX tile holds in a row (64 bytes): the columns of one weight tile."""

TILE_ROWS = 16
"""Rows an AMX tile holds: the rows of activations one tile product takes."""

AMX_ROWS = 8
"""The fewest rows whose lanes' sums go on AMX tiles: with fewer, interleaving the
weights for the unit costs more than the lanes' loop it replaces."""


@dataclass(frozen=True)
class AmxLanes:
    """A factored sum's lanes on the AMX unit (`amx_lanes`): the bf16 page its rows'
    activations come from, each row's map there, and the int8 page and map of the
    weights they all multiply."""

    stage: StageOp
    x_page: SSAValue
    x_rows: tuple[LinearForm, ...]
    x_stride: int
    """Elements from one row's activations to the next's."""
    q_page: SSAValue
    q_form: LinearForm


def amx_lanes(
    rows: Sequence[Row],
    terms: Sequence[tuple[SSAValue, SSAValue]],
    split: int,
    loops: Sequence[LoopAxis],
    least: int = AMX_ROWS,
) -> AmxLanes | None:
    """Whether the lanes' sums of a factored sum (`factored_at`) can be AMX tile
    products, and what they read: each row's `a` is `extf(x) * sitofp(q)` of a bf16
    `x` and an int8 `q` (a Q8_0 block's terms, exact in bf16), the loops summed are
    32 lanes then columns in whole tiles of 16, `x` runs along the lanes (contiguous)
    with the rows at one stride, and every row reads the same
    weights, contiguous along the columns; and there are at least `least` rows. Else
    None: `lane_sums` sums them."""
    if len(loops) - split != 2 or len(rows) < least:
        return None
    lanes, cols = loops[split:]
    if lanes.extent != 32 or lanes.step != 1 or cols.step != 1 or cols.extent % TILE_COLUMNS:
        return None
    found: list[tuple[SSAValue, LinearForm, SSAValue, LinearForm]] = []
    for row, (a, _) in zip(rows, terms):
        product = a.owner
        if not isinstance(product, arith.MulfOp):
            return None
        ops = {type(v.owner): v.owner for v in (product.lhs, product.rhs)}
        ext, to_f = ops.get(arith.ExtFOp), ops.get(arith.SIToFPOp)
        if not isinstance(ext, arith.ExtFOp) or not isinstance(to_f, arith.SIToFPOp):
            return None
        x, q = ext.input, to_f.input
        if not isinstance(x, BlockArgument) or not isinstance(q, BlockArgument):
            return None
        if x.type != BFloat16Type() or q.type != i8 or ext.result.type != f32:
            return None
        o = row.stage
        fx, fq = row.forms[x.index], row.forms[q.index]
        if fx.dims[lanes.axis] != 1 or fx.dims[cols.axis]:
            return None
        if fq.dims[cols.axis] != 1 or not fq.dims[lanes.axis]:
            return None
        found.append((o.ins[x.index], fx, o.ins[q.index], fq))
    x_page, fx0, q_page, fq = found[0]
    gaps = {b[1].const - a[1].const for a, b in itertools.pairwise(found)}
    if any(f[0] is not x_page or f[2] is not q_page or f[3] != fq for f in found):
        return None
    if any(f[1].dims != fx0.dims for f in found) or len(gaps) > 1 or min(gaps, default=32) < 32:
        return None
    stride = gaps.pop() if gaps else lanes.extent
    return AmxLanes(rows[0].stage, x_page, tuple(f[1] for f in found), stride, q_page, fq)


def lanes_fit(run: Sequence[StageOp], least: int = AMX_ROWS, split: bool = True) -> bool:
    """Whether the sums of siblings `run` (`loops.siblings`) can be tile products: planned
    as `stages.stages` plans them (their rows, loops, where the sum factors), their
    lanes are what `amx_lanes` takes, `least` rows or more (the columns in blocks of
    `loops.COLUMNS`, or without `split` all of them at once). What
    `spatial-native-kernels` asks before it marks them `amx` or `dot`."""
    first = run[0]
    if not sums(first):
        return False
    by_row = row_axis(run)
    rows: list[Row] = []
    for o in run:
        fs = stage_forms(o)
        if any(c < 0 for f in fs for c in (*f.dims, *f.syms, f.const)):
            return False
        if by_row is None:
            rows.append(Row(o, tuple(fs), o.result))
        else:
            rows += [
                Row(o, tuple(f.fixed(by_row, r) for f in fs), o.result, (by_row, r))
                for r in range(o.iter_extents[by_row])
            ]
    loops = loop_axes(first, by_row, split)
    factored = factored_at(rows, loops)
    if factored is None:
        return False
    return amx_lanes(rows, factored[1], factored[0], loops, least) is not None


def vnni(
    pt: ProgramScope,
    b: Builder,
    tiles: AmxLanes,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
) -> list[SSAValue]:
    """This trip's block of int8 weights (`loops`: its 32 lanes, its columns) as
    bf16 tiles of the AMX unit's right-hand operand, a tile per 16 columns: row `p`
    of a tile holds lanes `2p` and `2p + 1`, interleaved column by column
    (`interleave`, into a byte scratch that `memref.view` reads as words and as
    bf16)."""
    lanes, cols = loops
    pairs, n = lanes.extent // 2, TILE_COLUMNS
    scratch, _ = pair_words(pt, b, tiles, loops, outer)
    both_t = MemRefType(BFloat16Type(), (pairs, 2 * cols.extent))
    both = b.insert(memref.ViewOp(scratch, idx(b, 0), [], both_t))
    tile_t = TileType(pairs, 2 * n, BFloat16Type())
    out: list[SSAValue] = []
    for h in range(cols.extent // n):
        at = view(b, both.result, 2 * n * h, tile_t.dims, (2 * cols.extent, 1))
        out.append(b.insert(TileLoadOp(at, [idx(b, 0), idx(b, 0)], tile_t)).res)
    return out


def block_source(
    pt: ProgramScope,
    b: Builder,
    tiles: AmxLanes,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
) -> tuple[SSAValue, tuple[int, ...]]:
    """This trip's block of int8 weights (`loops`: its 32 lanes, its columns) where its
    page holds it, as a view over the lanes, then the columns, and the columns' shape:
    `(columns,)`, or, read where a tensor laid in tile columns holds it, `(strips,
    strip)` (`loops.strip_loops`: a strip's rows lie apart from the next strip's)."""
    where = pt.in_place.get(tiles.q_page)
    split = strip_loops(loops, where.strip) if where is not None and where.strip else loops
    gen = Generic(b, pt, tiles.stage.iter_kinds, split, outer)
    q = gen.strided(pt.values[tiles.q_page], tiles.q_form, where)[0]
    return q, tuple(a.extent for a in split[1:])


def pair_words(
    pt: ProgramScope,
    b: Builder,
    tiles: AmxLanes,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
) -> tuple[SSAValue, SSAValue]:
    """This trip's block of int8 weights (`loops`: its 32 lanes, its columns) as bf16
    lane pairs, word `(p, c)` lanes `2p` and `2p + 1` of column `c` (`interleave`), in
    a byte scratch: the scratch (which `memref.view` also reads as bf16) and its words.
    What the AMX unit and AVX512-BF16's `dot` (`dot.py`) multiply."""
    lanes, cols = loops
    q, shape = block_source(pt, b, tiles, loops, outer)
    pairs = lanes.extent // 2
    scratch = pt.scratch("q8_vnni", 4 * pairs * cols.extent, i8)
    words = b.insert(memref.ViewOp(scratch, idx(b, 0), [], MemRefType(i32, (pairs, cols.extent))))
    into = words
    if shape != (cols.extent,):  # the same words, by strip
        into = b.insert(memref.ViewOp(scratch, idx(b, 0), [], MemRefType(i32, (pairs, *shape))))
    interleave(b, q, into.result)
    drop(q)  # only its offset and strides were wanted: the pairs view the page anew
    return scratch, words.result


def tile_sums(
    pt: ProgramScope,
    b: Builder,
    tiles: AmxLanes,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    scratch: SSAValue,
) -> None:
    """Every row's lanes' sums, as tile products: this trip's weights (`vnni`),
    times the rows' bf16 activations along the lanes, up to 16 rows a tile; row
    `j`'s 16 columns `h` stored at `j * columns + 16 h` of `scratch`, where
    `lane_sums` would have summed them. All the products are made before any is
    stored: the unit holds 8 tiles and does not rename them, so a tile reused at
    once would wait for the store of the last."""
    lanes, cols = loops
    weights = vnni(pt, b, tiles, loops, outer)
    x_page = pt.values[tiles.x_page]
    rows, stride = tiles.x_rows, tiles.x_stride
    products: list[tuple[int, int, SSAValue]] = []
    for r0 in range(0, len(rows), TILE_ROWS):
        n = min(TILE_ROWS, len(rows) - r0)
        x = Generic(b, pt, tiles.stage.iter_kinds, [lanes], outer).strided(x_page, rows[r0])[0]
        x_tile = TileType(n, lanes.extent, BFloat16Type())
        at = view(b, x, 0, x_tile.dims, (stride, 1))
        a = b.insert(TileLoadOp(at, [idx(b, 0), idx(b, 0)], x_tile)).res
        drop(x)  # only its offset was wanted
        for h, w in enumerate(weights):
            acc = b.insert(TileZeroOp(TileType(n, TILE_COLUMNS, f32))).res
            products.append((r0, h, b.insert(TileMulFOp(a, w, acc)).res))
    for r0, h, product in products:
        n = cast(TileType, product.type).dims[0]
        at = r0 * cols.extent + h * TILE_COLUMNS
        into = view(b, scratch, at, (n, TILE_COLUMNS), (cols.extent, 1))
        b.insert(TileStoreOp(into, [idx(b, 0), idx(b, 0)], product))


def interleave(b: Builder, q: SSAValue, out: SSAValue) -> None:
    """`out[p, ...]` (i32) the bf16 of `q[2p, ...]` (int8: its lanes, then its columns,
    at any strides) in its low half and of `q[2p + 1, ...]` in its high: a pair of
    lanes as the AMX unit reads it. A weight's bf16 is the top half of its f32 (an int8
    is exact in both), so each pair is made on whole words."""
    pairs, *cols = cast(MemRefType[Attribute], out.type).get_shape()
    strides = cast(MemRefType[Attribute], q.type).get_strides()
    assert strides is not None and all(isinstance(c, int) for c in strides), "a static view"
    step, *across = cast(list[int], strides)
    even, odd = (view(b, q, r * step, (pairs, *cols), (2 * step, *across)) for r in (0, 1))
    blk = Block(arg_types=[i8, i8, i32])
    body = inside(blk)
    lo, hi = (
        body.insert(arith.BitcastOp(body.insert(arith.SIToFPOp(v, f32)).result, i32)).result
        for v in blk.args[:2]
    )
    top = body.insert(arith.ConstantOp(IntegerAttr(-(1 << 16), i32))).result
    sixteen = body.insert(arith.ConstantOp(IntegerAttr(16, i32))).result
    low = body.insert(arith.ShRUIOp(lo, sixteen)).result
    high = body.insert(arith.AndIOp(hi, top)).result
    word = body.insert(arith.OrIOp(low, high))
    body.insert(LinalgYieldOp(word.result))
    rank = 1 + len(cols)
    every = AffineMapAttr(AffineMap.identity(rank))
    b.insert(
        GenericOp(
            [even, odd], [out], Region(blk), [every] * 3, [IteratorTypeAttr.parallel()] * rank
        )
    )
