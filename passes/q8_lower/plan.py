"""
The plan of a lowered Q8_0 product: every number its view and fold are built from,
computed from m, K, N, the element types and the target, before any op is built.

Numbers in, numbers out: `choose_wb` picks the fold's column group, `FoldPlan` and
`ViewPlan` say what each program allocates and moves, `plan_product` says whether the
product is lowered at all and why not (docs/lowering.md, "The plan" and "The byte
model").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, f32, i8
from xdsl.ir import Attribute

from xdsl_spatial.core.quant import Q8_BLOCK
from xdsl_spatial.dialects.spatial import TargetAttr, element_bytes

ACC_BYTES = 4
"""The carry, the block sums and the result are fp32."""


def declines(m: int, k: int, n: int, target: TargetAttr) -> str | None:
    """Why a product of an m x K activation and a K x N Q8_0 weight cannot fold, or None."""
    tr, tc = target.tile
    if tr != Q8_BLOCK or tc != tr:
        return (
            f"the tile must be square with {Q8_BLOCK} rows (one Q8_0 block), "
            f"the target's is {tr}x{tc}"
        )
    if not 1 <= m <= tr:
        return f"m = {m} rows; the fold takes 1 to {tr} (a tile's rows)"
    if k <= 0 or k % Q8_BLOCK:
        return f"K = {k} is not a positive multiple of the Q8_0 block ({Q8_BLOCK})"
    if n <= 0:
        return f"N = {n} is not positive"
    return None


def view_rows(m: int, k: int) -> int:
    """Rows of the view: one row's K/32 blocks, or a tile row per (K block, row) of a batch."""
    if m == 1:
        return k // Q8_BLOCK
    return m * -(-k // (Q8_BLOCK * Q8_BLOCK)) * Q8_BLOCK


def lift_rows(m: int, acc_tiles: int) -> int:
    """View tiles one view item writes: the largest divisor of m the accumulator holds."""
    return max(d for d in range(1, min(m, acc_tiles) + 1) if m % d == 0)


def view_sections(k: int, tile_rows: int) -> list[tuple[int, int, int]]:
    """The view's sections as (first K block, K blocks, width in elements): the whole
    K blocks of `tile_rows` Q8_0 blocks, then the tail."""
    block = tile_rows * Q8_BLOCK
    nb, tail = divmod(k, block)
    return ([(0, nb, block)] if nb else []) + ([(nb, 1, tail)] if tail else [])


def lanes_width(m: int, page_w: int) -> int:
    """Bits of a lanes-table entry: an element offset below `m * page_w`."""
    return 16 if m * page_w < 2**15 else 32


@dataclass(frozen=True)
class BufferPlan:
    """A buffer a program allocates: the builders allocate exactly the plan's list, and
    the local memory reported and checked is this list's sum."""

    name: str
    tiles: int
    element: Attribute
    depth: int

    def bytes(self, tile: tuple[int, int]) -> int:
        return self.depth * self.tiles * tile[0] * tile[1] * element_bytes(self.element)


class Allocation:
    """The buffers of a plan, handed out by name as a builder allocates them; `done`
    checks that it allocated every one, once."""

    def __init__(self, buffers: Sequence[BufferPlan]):
        self.left = {b.name: b for b in buffers}

    def take(self, name: str) -> BufferPlan:
        return self.left.pop(name)

    def done(self) -> None:
        assert not self.left, f"planned but not allocated: {sorted(self.left)}"


@dataclass(frozen=True)
class ViewSection:
    """One program of the view: K blocks `kb0 .. kb0 + kbs - 1`, each `width` elements
    of every row (the whole blocks of 1024, or the tail)."""

    kb0: int
    kbs: int
    width: int
    buffers: tuple[BufferPlan, ...]


@dataclass(frozen=True)
class ViewPlan:
    """Every number the view is built from: its sections, each a program on a site of
    its own, and what each allocates."""

    m: int
    k: int
    act: Attribute
    rows: int
    """View tiles one item writes (m = 1: 1)."""
    tile: tuple[int, int]
    sections: tuple[ViewSection, ...]

    @staticmethod
    def make(m: int, k: int, act: Attribute, target: TargetAttr) -> ViewPlan:
        tr, tc = target.tile
        rows = 1 if m == 1 else lift_rows(m, target.acc_tiles.data)
        sections = []
        for kb0, kbs, width in view_sections(k, tr):
            page_t = width // tc
            bufs = [BufferPlan("in_block", page_t, act, 2), BufferPlan("out", rows, act, 2)]
            if m > 1:
                lanes = IntegerType(lanes_width(m, page_t * tc))
                bufs.append(BufferPlan("in_lanes", rows, lanes, 1))
            sections.append(ViewSection(kb0, kbs, width, tuple(bufs)))
        return ViewPlan(m, k, act, rows, target.tile, tuple(sections))

    @property
    def chunks(self) -> int:
        """Items along a section's second axis: groups of `rows` of the m rows."""
        return self.m // self.rows

    def buffer_bytes(self) -> int:
        """Local memory of the largest section's buffers."""
        return max(sum(b.bytes(self.tile) for b in s.buffers) for s in self.sections)

    def load_bytes(self) -> int:
        """Bytes the view's sections load: each item its K block of the activation
        (and, for a batch, its tiles of the lanes table)."""
        te = self.tile[0] * self.tile[1]
        act = element_bytes(self.act)
        total = 0
        for s in self.sections:
            items = s.kbs * (self.chunks if self.m > 1 else 1)
            tiles = s.width // self.tile[1] * act
            if self.m > 1:
                tiles += self.rows * element_bytes(s.buffers[-1].element)
            total += items * tiles * te
        return total

    def store_bytes(self) -> int:
        """Bytes the view's sections store: each item its tiles of the view."""
        te = self.tile[0] * self.tile[1]
        items = sum(s.kbs * (self.chunks if self.m > 1 else 1) for s in self.sections)
        return items * self.rows * te * element_bytes(self.act)


@dataclass(frozen=True)
class FoldPlan:
    """Every number the fold is built from."""

    m: int
    k: int
    n: int
    wb: int
    """Column tiles one item owns."""
    act: Attribute
    """The view's element type: the target's activation precision."""
    scale: Attribute
    """The scales' element type."""
    tile: tuple[int, int]

    @property
    def act_bytes(self) -> int:
        return element_bytes(self.act)

    @property
    def scale_bytes(self) -> int:
        return element_bytes(self.scale)

    @property
    def col_tiles(self) -> int:
        return -(-self.n // self.tile[1])

    @property
    def n_padded(self) -> int:
        return self.col_tiles * self.tile[1]

    @property
    def items(self) -> int:
        return self.col_tiles // self.wb

    @property
    def block_rows(self) -> int:
        """K rows of one K block: a tile row of scales, 32 Q8_0 blocks."""
        return self.tile[0] * Q8_BLOCK

    @property
    def k_blocks(self) -> int:
        """Whole K blocks, folded in the K loop."""
        return self.k // self.block_rows

    @property
    def tail_blocks(self) -> int:
        """Q8_0 blocks of the tail (K mod 1024 rows), folded once per item."""
        return (self.k % self.block_rows) // Q8_BLOCK

    @property
    def x_loads(self) -> int:
        """View loads per item: one per K block and one for the tail."""
        return self.k_blocks + (1 if self.tail_blocks else 0)

    def row_names(self, stem: str) -> list[str]:
        """The names of a stage (and its buffer) per row: `stem` for one row."""
        return [stem] if self.m == 1 else [f"{stem}_{r}" for r in range(self.m)]

    def buffers(self) -> tuple[BufferPlan, ...]:
        """What the fold allocates, in order: for the K loop its pages of the view, the
        values and the scales (double-buffered), the running sum and each row's block
        sums; for the tail the same, once; the result's page."""
        tr = self.tile[0]
        m, wb, g = self.m, self.wb, self.tail_blocks
        out: list[BufferPlan] = []
        if self.k_blocks:
            out += [
                BufferPlan("in_x", m, self.act, 2),
                BufferPlan("in_q8", tr * wb, i8, 2),
                BufferPlan("in_scale", wb, self.scale, 2),
                BufferPlan("run_sum", wb, f32, 2),
            ]
            out += [BufferPlan(name, wb, f32, 1) for name in self.row_names("block")]
        if g:
            out += [
                BufferPlan("in_x_tail", m, self.act, 1),
                BufferPlan("in_q8_tail", g * wb, i8, 1),
                BufferPlan("in_scale_tail", wb, self.scale, 1),
            ]
            out += [BufferPlan(name, wb, f32, 1) for name in self.row_names("tail")]
        out.append(BufferPlan("out", wb, f32, 2))
        return tuple(out)

    def buffer_bytes(self) -> int:
        """Local memory of the fold's buffers."""
        return sum(b.bytes(self.tile) for b in self.buffers())

    def weight_bytes(self) -> int:
        """Bytes the weight moves: its values, and its scales in whole tile rows (a
        tail's tile row of scales is padded past its `g` rows)."""
        scale_rows = self.x_loads * self.tile[0]
        return self.k * self.n_padded + self.scale_bytes * scale_rows * self.n_padded

    def model_weight_bytes(self) -> int:
        """The weight in the profitability model (docs/lowering.md, the reference's):
        `K * Np` values and `(K/32) * Np` scales, the padding of a tail's scale tile
        row not counted."""
        return (self.k + self.scale_bytes * (self.k // Q8_BLOCK)) * self.n_padded

    def view_reads(self) -> int:
        """Bytes of view every item reads: m tiles per K block and tail."""
        te = self.tile[0] * self.tile[1]
        return self.items * self.x_loads * self.m * te * self.act_bytes

    def store_bytes(self) -> int:
        """Bytes the fold stores: one fp32 tile row of the result per column tile."""
        return self.col_tiles * self.tile[0] * self.tile[1] * ACC_BYTES

    def dense_bytes(self) -> int:
        """What a bf16 copy of the weight would move."""
        return 2 * self.k * self.n_padded

    def bytes_per_weight(self) -> float:
        return (self.weight_bytes() + self.view_reads()) / (self.k * self.n)

    def model_bytes(self) -> int:
        """What the profitability gate weighs against a bf16 copy."""
        return self.model_weight_bytes() + self.view_reads()

    def profitable(self) -> bool:
        return self.model_bytes() < self.dense_bytes()


def choose_wb(
    m: int, k: int, n: int, act: Attribute, scale: Attribute, target: TargetAttr
) -> FoldPlan | None:
    """The widest column group: a divisor of the column tiles, at most the accumulator's
    tiles, whose buffers fit the local memory; None when not even one tile fits."""
    n_t = -(-n // target.tile[1])
    for wb in range(min(n_t, target.acc_tiles.data), 0, -1):
        if n_t % wb:
            continue
        plan = FoldPlan(m, k, n, wb, act, scale, target.tile)
        if plan.buffer_bytes() <= target.local_mem.data:
            return plan
    return None


def plan_product(
    m: int, k: int, n: int, scale: Attribute, target: TargetAttr
) -> tuple[FoldPlan | None, ViewPlan | None, str | None]:
    """The fold's and the view's plans for an m x K activation and a K x N weight with
    `scale` scales (a whole product, or one chip's share of one), and why the product
    is not lowered (None when it is). The view holds the target's activation precision."""
    if (why := declines(m, k, n, target)) is not None:
        return None, None, why
    act = target.act
    plan = choose_wb(m, k, n, act, scale, target)
    budget = target.local_mem.data
    if plan is None:
        need = FoldPlan(m, k, n, 1, act, scale, target.tile).buffer_bytes()
        return (
            None,
            None,
            f"no column group fits: one column tile needs {need} B of local memory, "
            f"a site has {budget}",
        )
    view = ViewPlan.make(m, k, act, target)
    if (need := view.buffer_bytes()) > budget:
        return plan, view, f"the view's buffers need {need} B of local memory, a site has {budget}"
    if not plan.profitable():
        return (
            plan,
            view,
            f"weight {plan.model_weight_bytes()} B + view reads {plan.view_reads()} B "
            f"= {plan.model_bytes()} B >= a bf16 copy's {plan.dense_bytes()} B",
        )
    return plan, view, None


@dataclass(frozen=True)
class ChipPlan:
    """One chip's share of a product split over chips: the weight rows and columns it
    holds, and its fold's and view's plans."""

    chip: int
    rows: tuple[int, int]
    cols: tuple[int, int]
    plan: FoldPlan
    view: ViewPlan
    made_view: bool = True
    """Whether this product made the chip's view (False: an earlier product of the
    same value on the chip did, and this one reads it)."""

    def moved(self) -> tuple[int, int]:
        """The bytes the chip loads and stores for this product: its fold's (its shard
        and its view reads, its columns of the result) and, when it made it, its view's."""
        loads = self.plan.weight_bytes() + self.plan.view_reads()
        stores = self.plan.store_bytes()
        if self.made_view:
            loads += self.view.load_bytes()
            stores += self.view.store_bytes()
        return loads, stores
