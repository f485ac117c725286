"""
A factored sum's lanes on x86's AMX-BF16 tile unit (a stage marked `kernel = "amx"`,
which `spatial-native-kernels{kind=amx}` marks where `lanes_fit`): when each of at
least `AMX_ROWS` rows sums `extf(x) * sitofp(q)` of a bf16 activation and int8 weights
over 32 lanes (a Q8_0 block, exact in bf16), `dot.dot_sums` runs each trip's block of
weights, read where it lies, as units of `TileUnits`: the weights' lane pairs converted
in registers (`pair_vector`, which AVX512-BF16's `dot` multiplies too) and stored as
the rows of right-hand tiles, the rows' activations a tile read straight from the bf16
page, `TILE_GROUPS` products of 16 columns made, then each stored and read back a row
a vector (a unit behind), and scaled into the outputs in registers.

On an Intel Xeon with AMX (family 6 model 207), 4096 x 4096 from cold caches, one
thread: m = 8 took 3.1 ms against 5.9 when each trip first copied the block's page,
then interleaved it into a scratch by a generic and stored the products for a scaling
generic; m = 32 5.9 against 8.7 (`kind=bf16`'s dots: 5.6 and 17.6 ms).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm, scf, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    VectorType,
    f32,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import BlockArgument, SSAValue

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import StageOp
from xdsl_spatial.dialects.x86_amx import (
    TileLoadOp,
    TileMulFOp,
    TileStoreOp,
    TileType,
    TileZeroOp,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.build import counted, dense, idx
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

AMX_ROWS = 2
"""The fewest rows whose lanes' sums go on AMX tiles: one row streams its weight
(`loops.STREAM`). On an Intel Xeon with AMX (family 6 model 207), 4096 x 4096 from
cold caches, the tiles took 3.2 ms at m = 2 and 2.8 at m = 4, against 6.7 and 6.4
under `kind=loop` and 3.2 and 3.2 for `kind=bf16`'s dots."""


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


def lanes_fit(run: Sequence[StageOp], least: int) -> bool:
    """Whether the sums of siblings `run` (`loops.siblings`) can be one of
    `dot.dot_sums`' kernels: planned as `stages.stages` plans them (their rows, loops
    with all of their columns at once, where the sum factors), their lanes are what
    `amx_lanes` takes, `least` rows or more. What `spatial-native-kernels` asks before
    it marks them `amx`, `dot` or `fma`."""
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
    loops = loop_axes(first, by_row, split=False)
    factored = factored_at(rows, loops)
    if factored is None:
        return False
    return amx_lanes(rows, factored[1], factored[0], loops, least) is not None


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


def widened_lanes(b: Builder, q: SSAValue) -> SSAValue:
    """The int8 of `q` (a vector) as f32 (exact): LLVM's `sext` and `sitofp` (xDSL's
    `arith.extsi` and `arith.sitofp` take scalars only; LLVM's take vectors, and are
    what those become)."""
    n = cast(VectorType[Any], q.type).get_shape()[0]
    wide = llvm.SExtOp.create(operands=[q], result_types=[VectorType(i32, (n,))])
    f = llvm.SIToFPOp.create(
        operands=[b.insert(wide).results[0]], result_types=[VectorType(f32, (n,))]
    )
    return b.insert(f).results[0]


def block_column(b: Builder, shape: tuple[int, ...], c: int) -> list[SSAValue]:
    """Where column `c` of a trip's block of `shape` (`block_source`: `(columns,)` or
    `(strips, strip)`) is, after its lane."""
    return [idx(b, c)] if len(shape) == 1 else [idx(b, c // shape[1]), idx(b, c % shape[1])]


def pair_vector(
    b: Builder, block: SSAValue, shape: tuple[int, ...], k: SSAValue, c: int
) -> SSAValue:
    """Lanes `k` and `k + 1` (`k = 2p`) of columns `c` to `c + 16` of a trip's int8
    `block` (its lanes, then its columns: `shape`, `(columns,)` or, where a weight
    laid in tile columns holds it, `(strips, strip)`) as bf16 lane pairs, converted in
    registers: word `i` the bf16 of lane `k` of column `c + i` in its low half, of lane
    `k + 1` in its high. What a row of the unit's right-hand tile holds, and what
    AVX512-BF16's `dot` (`dot.py`) multiplies. A weight's bf16 is the top half of its
    f32 (an int8 is exact in both), so each pair is two halves of two f32 vectors."""
    n = TILE_COLUMNS
    at = block_column(b, shape, c)
    halves: list[SSAValue] = []
    for r in (0, 1):
        lane = k if r == 0 else b.insert(arith.AddiOp(k, idx(b, 1))).result
        q = b.insert(vector.LoadOp(block, [lane, *at], VectorType(i8, (n,)))).result
        f = widened_lanes(b, q)
        halves.append(b.insert(vector.BitcastOp(f, VectorType(i16, (2 * n,)))).result)
    tops = DenseArrayBase.from_list(i64, [2 * i + 1 + r * 2 * n for i in range(n) for r in (0, 1)])
    both = b.insert(
        vector.ShuffleOp(halves[0], halves[1], tops, result_type=VectorType(i16, (2 * n,)))
    )
    return b.insert(vector.BitcastOp(both.result, VectorType(BFloat16Type(), (2 * n,)))).result


TILE_GROUPS = 2
"""Column groups of 16 a unit of `TileUnits` multiplies: each its own right-hand and
product tiles. The unit does not rename its 8 tiles, so a unit's products are stored
only after the next unit's are made (the rows' left-hand tile, a right-hand tile and
two units' products: 6 of the 8 live at once)."""

PAIR_SLOTS = 2
"""Units whose right-hand tiles the scratch holds at once: the next unit's weights are
paired before this unit's tiles are loaded, so their stores have reached memory when
the tile loads read them."""


@dataclass(frozen=True)
class TileScratch:
    """Where `TileUnits` makes the units' right-hand tiles (the weights' pairs, `pairs x
    32` bf16 a column group, `PAIR_SLOTS` units' worth) and stores their products
    (`TILE_ROWS x TILE_COLUMNS` f32 a group): made once for a kernel's every trip."""

    pairs: SSAValue
    sums: SSAValue
    groups: int
    """The most column groups of a unit."""

    @staticmethod
    def make(pt: ProgramScope, pairs: int, groups: int) -> TileScratch:
        words = PAIR_SLOTS * groups * pairs * 2 * TILE_COLUMNS
        return TileScratch(
            pt.scratch("q8_pairs", words, BFloat16Type()),
            pt.scratch("tile_sums", groups * TILE_ROWS * TILE_COLUMNS),
            groups,
        )


Unit = tuple[int, int, int, int]
"""A unit of `dot.dot_sums`' trip, `(r0, rows, groups, c0)`: rows `r0` to `r0 + rows`,
`groups` column groups from column `c0`."""


@dataclass
class TileUnits:
    """A trip's units on the tile unit, in order (`made` each, then `last`): each its
    block's weights' lane pairs made into right-hand tiles (`pair_vector`, an
    `scf.for` over the `pairs` lane pairs, one unit ahead), its rows' left-hand tile
    (loaded once a trip), a product a column group; its products stored and read back
    a row a vector only after the next unit's are made (`made` gives each unit's sums
    once the next is under way, `last` the last one's). On an Intel Xeon with AMX
    (family 6 model 207), the SmolLM2 step at 8 sequences took 33.1, 41.8 and 45.8 ms
    against 34.9, 43.8 and 48.0 when each unit's weights were paired, multiplied, stored
    and read back in turn (4 groups a unit): three runs, each with both steps
    interleaved in one process."""

    b: Builder
    block: tuple[SSAValue, tuple[int, ...]]
    pairs: int
    scratch: TileScratch
    units: int = 0
    """Units whose weights were paired so far (the next one's slot)."""
    ahead: int | None = None
    """The slot of the unit paired ahead, if one was."""
    lefts: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    """Each row block's left-hand tile, by its activations' view."""
    views: dict[tuple[int, int], list[SSAValue]] = field(
        default_factory=dict[tuple[int, int], list[SSAValue]]
    )
    """Each slot's right-hand tiles (`words`), by slot and groups."""
    waiting: tuple[Unit, list[SSAValue]] | None = None
    """The unit whose products are made, not yet stored, and its products."""

    def paired(self, unit: Unit) -> int:
        """The slot the weights of `unit`'s column groups were paired into."""
        _, _, groups, c0 = unit
        slot, self.units = self.units % PAIR_SLOTS, self.units + 1
        words = self.words(slot, groups)
        body, p = counted(self.b, self.pairs)
        k = body.insert(arith.MuliOp(p, idx(body, 2))).result
        for h, w in enumerate(words):
            pair = pair_vector(body, *self.block, k, c0 + h * TILE_COLUMNS)
            body.insert(vector.StoreOp(pair, w, [p, idx(body, 0)]))
        body.insert(scf.YieldOp())
        return slot

    def words(self, slot: int, groups: int) -> list[SSAValue]:
        """Slot `slot`'s right-hand tiles of `groups` column groups (views made once)."""
        views = self.views.get((slot, groups))
        if views is None:
            size = self.pairs * 2 * TILE_COLUMNS
            at = slot * self.scratch.groups * size
            shape = (self.pairs, 2 * TILE_COLUMNS)
            views = [dense(self.b, self.scratch.pairs, at + h * size, shape) for h in range(groups)]
            self.views[slot, groups] = views
        return views

    def made(
        self, unit: Unit, xs: SSAValue, after: Unit | None
    ) -> tuple[Unit, list[SSAValue]] | None:
        """Make `unit`'s products (its rows' activations `xs`; the weights of the next
        unit, `after`, paired ahead), then store the previous unit's: that unit and its
        sums, if there was one."""
        b, zero, bf16 = self.b, idx(self.b, 0), BFloat16Type()
        _, rows, groups, _ = unit
        slot = self.ahead if self.ahead is not None else self.paired(unit)
        self.ahead = None if after is None else self.paired(after)
        a = self.lefts.get(xs)
        if a is None:
            left = TileLoadOp(xs, [zero, zero], TileType(rows, 2 * self.pairs, bf16))
            a = self.lefts[xs] = b.insert(left).res
        products: list[SSAValue] = []
        for w in self.words(slot, groups):
            right_t = TileType(self.pairs, 2 * TILE_COLUMNS, bf16)
            right = b.insert(TileLoadOp(w, [zero, zero], right_t)).res
            acc = b.insert(TileZeroOp(TileType(rows, TILE_COLUMNS, f32))).res
            products.append(b.insert(TileMulFOp(a, right, acc)).res)
        done, self.waiting = self.waiting, (unit, products)
        return None if done is None else (done[0], self.sums(*done))

    def last(self) -> tuple[Unit, list[SSAValue]]:
        """The last unit and its sums."""
        assert self.waiting is not None, "no unit was made"
        done, self.waiting = self.waiting, None
        return done[0], self.sums(*done)

    def sums(self, unit: Unit, products: list[SSAValue]) -> list[SSAValue]:
        """`rows x groups` vectors of 16 sums, row `j` column group `h` at `j * groups +
        h`: each product stored to the scratch and read back a row a vector."""
        b, zero, n = self.b, idx(self.b, 0), TILE_COLUMNS
        _, rows, groups, _ = unit
        at = [dense(b, self.scratch.sums, h * TILE_ROWS * n, (rows, n)) for h in range(groups)]
        for where, product in zip(at, products):
            b.insert(TileStoreOp(where, [zero, zero], product))
        row_t = VectorType(f32, (n,))
        return [
            b.insert(vector.LoadOp(at[h], [idx(b, j), zero], row_t)).result
            for j in range(rows)
            for h in range(groups)
        ]
