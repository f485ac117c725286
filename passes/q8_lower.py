"""
`q8-lower`: a decode-step matmul over a Q8_0 weight, as a view and a fold program.

A decode step is weight-bound, so the weight should move as it is stored: 1 byte per
value and one scale per 32 values (about 1.13 bytes a weight) instead of a 2-byte
bf16 copy. The pass rewrites

```mlir
%w  = q8.dequantize %W__q8, %W__q8_scale : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
%xf = arith.extf %x : tensor<1x2048xbf16> to tensor<1x2048xf32>
%y  = linalg.matmul ins(%xf, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%zero : tensor<1x4096xf32>) -> tensor<1x4096xf32>
```

into

```mlir
%v = spatial.view "q8_view_1x2048_from0" grid [2] ... ins(%x : tensor<1x2048xbf16>) -> tensor<64x32xbf16> { ... }
%y = spatial.fold "q8_gemv_2048x4096_w8" grid [16] ... ins(%v, %W__q8, %W__q8_scale : ...) -> tensor<1x4096xf32> { ... }
```

The *view* lays `x` out as the `K/32 x 32` matrix of its 32-element blocks (for a
batch of `m` rows, each row's K block of 1024 a tile of its own), made once per
value and read by every product of it. The *fold* gives each work item `wb` column
tiles of the result; per K block of 1024 rows it loads the view's tiles, the int8
values (32 tile rows x wb) and the scales (1 tile row x wb), computes each row's
`sum_b s[b, n] * sum_i x[r, 32b + i] * q[32b + i, n]`, and adds it into an fp32
carry. The K mod 1024 rows (g whole Q8_0 blocks) are a tail folded once per item.

A product is left as it is, with its reason under `report=true`, when it is no
static 1-32 row product over whole Q8_0 blocks on 32x32 tiles, when neither the
fold's buffers (at one column tile) nor the view's fit a site, or when the byte
model's (docs/lowering.md), `K*Np + scale bytes*(K/32)*Np` of weight plus the items' view reads,
are not below a bf16 copy's `2*K*Np`.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, shard, tensor
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    f32,
    i8,
)
from xdsl.dialects.linalg.ops import FillOp, MatmulOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import PassFailedException

from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.dialects import q8, spatial
from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part, stored_name, stored_part
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    FoldOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    NumericsAttr,
    PlanAttr,
    RepackAttr,
    ReturnOp,
    Role,
    StageOp,
    StoreOp,
    TargetAttr,
    TensorHandleType,
    TensorOp,
    ViewOp,
    element_bytes,
    element_name,
)
from xdsl_spatial.passes.q8_raise import RaiseDecision, host_source, raise_q8
from xdsl_spatial.passes.tensor_parallel import (
    Annotations,
    ChipSplit,
    Split,
    annotated_split,
    option_split,
    unshard,
)

ACC_BYTES = 4
"""The carry, the block sums and the result are fp32."""

# --------------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------------


def q8_rows_name(x: str, writes: int, chip: int | None = None) -> str:
    """The view of the value `x` holds after the program wrote `x` `writes` times."""
    return f"{x}__q8_rows{writes}{chip_suffix(chip)}"


def value_name(v: SSAValue, fallback: str) -> str:
    return v.name_hint or fallback


def chip_suffix(chip: int | None) -> str:
    """What a name of chip `chip`'s (a program, a tensor, a value) ends with."""
    return "" if chip is None else f"_c{chip}"


# --------------------------------------------------------------------------------------
# The plan: numbers in, numbers out
# --------------------------------------------------------------------------------------


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
            items = s.kbs * (self.m // self.rows if self.m > 1 else 1)
            tiles = s.width // self.tile[1] * act
            if self.m > 1:
                tiles += self.rows * element_bytes(s.buffers[-1].element)
            total += items * tiles * te
        return total

    def store_bytes(self) -> int:
        """Bytes the view's sections store: each item its tiles of the view."""
        te = self.tile[0] * self.tile[1]
        items = sum(s.kbs * (self.m // self.rows if self.m > 1 else 1) for s in self.sections)
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


# --------------------------------------------------------------------------------------
# Matching
# --------------------------------------------------------------------------------------


@dataclass
class Q8Matmul:
    """A `linalg.matmul` whose weight is a `q8.dequantize`, and what it reads."""

    op: MatmulOp
    x: SSAValue
    """The activation as the view reads it (the bf16 value behind an `arith.extf`)."""
    extf: arith.ExtFOp | None
    dequant: q8.DequantizeOp
    fill: Operation | None
    m: int
    k: int
    n: int
    ann: Annotations
    """The `shard.shard` ops on its operands, which say over which chips it runs."""

    @property
    def values(self) -> SSAValue:
        """The weight's int8 values, as stored (behind any `shard.shard`)."""
        return unshard(self.dequant.values)[0]

    @property
    def scales(self) -> SSAValue:
        return unshard(self.dequant.scales)[0]

    @property
    def x_type(self) -> Attribute:
        return cast(TensorType[Attribute], self.x.type).element_type

    @property
    def scale_type(self) -> Attribute:
        return cast(TensorType[Attribute], self.dequant.scales.type).element_type


def _zero_fill(v: SSAValue) -> Operation | None:
    """The op that makes `v` all zeros (a `linalg.fill` of 0 or a zero constant)."""
    op = v.owner
    if isinstance(op, FillOp):
        c = op.inputs[0].owner
        is_zero = (
            isinstance(c, arith.ConstantOp)
            and isinstance(c.value, FloatAttr | IntegerAttr)
            and c.value.value.data == 0
        )
        return op if is_zero else None
    if isinstance(op, arith.ConstantOp) and _is_zero_constant(op):
        return op
    return None


def _is_zero_constant(op: Operation) -> bool:
    if not isinstance(op, arith.ConstantOp):
        return False
    v = op.value
    if isinstance(v, DenseIntOrFPElementsAttr):
        return not np.any(dense_array(v))
    if isinstance(v, FloatAttr | IntegerAttr):
        return v.value.data == 0
    return False


def match_q8_matmul(op: MatmulOp) -> Q8Matmul | str:
    """The matched product, or why `op` is not one `q8-lower` rewrites."""
    if len(op.inputs) != 2 or len(op.outputs) != 1 or len(op.res) != 1:
        return "not a tensor matmul with two inputs and one result"
    if op.indexing_maps != MatmulOp.get_irdl_definition().properties["indexing_maps"].default_value:
        return "transposed or broadcast indexing maps"
    a, b = op.inputs
    a, x_ann = unshard(a)
    b, w_ann = unshard(b)
    dq = b.owner
    if not isinstance(dq, q8.DequantizeOp):
        return "the weight is not a q8.dequantize"
    at, bt, yt = a.type, b.type, op.res[0].type
    if not all(isinstance(t, TensorType) for t in (at, bt, yt)):
        return "operands are not tensors"
    at, bt, yt = (cast(TensorType[Attribute], t) for t in (at, bt, yt))
    if any(t.get_num_dims() != 2 for t in (at, bt, yt)):
        return "operands are not matrices"
    if any(d < 0 for t in (at, yt) for d in t.get_shape()):
        return f"dynamic shape {at} x {bt} -> {yt}; the fold is planned for static sizes"
    if not isinstance(yt.element_type, Float32Type):
        return f"the result is {element_name(yt.element_type)}; the fold accumulates f32"
    (m, k), (_, n) = at.get_shape(), bt.get_shape()
    x, extf = a, None
    if isinstance(a.owner, arith.ExtFOp):
        src = cast(TensorType[Attribute], a.owner.input.type)
        if isinstance(src.element_type, BFloat16Type):
            x, extf = a.owner.input, a.owner
            if x_ann is None:
                x, x_ann = unshard(x)
    xe = cast(TensorType[Attribute], x.type).element_type
    if not isinstance(xe, BFloat16Type | Float32Type):
        return f"the activation is {element_name(xe)}; the view holds bf16 or f32"
    fill = _zero_fill(op.outputs[0])
    if fill is None:
        return "the accumulator is not zero (y = x . W + acc is not a fold)"
    ann = Annotations(unshard(dq.values)[1], unshard(dq.scales)[1], w_ann, x_ann)
    return Q8Matmul(op, x, extf, dq, fill, m, k, n, ann)


# --------------------------------------------------------------------------------------
# Building programs
# --------------------------------------------------------------------------------------


def _lin(const: int = 0, **terms: int) -> AffineExpr:
    """`const + sum(coef * dN)` for keyword args `dN=coef` (and `s0=coef`)."""
    e = AffineExpr.constant(const)
    for name, c in terms.items():
        v = (
            AffineExpr.symbol(int(name[1:]))
            if name.startswith("s")
            else AffineExpr.dimension(int(name[1:]))
        )
        e = e + v * c
    return e


class _Program:
    """Appends the ops of one program body."""

    def __init__(self, grid: Sequence[int], coord_names: Sequence[str], ins: Sequence[SSAValue]):
        self.grid = list(grid)
        self.ins = list(ins)
        self.block = Block(arg_types=[IndexType()] * len(grid) + [v.type for v in ins])
        self.coords = list(self.block.args[: len(grid)])
        self.args = list(self.block.args[len(grid) :])
        for c, n in zip(self.coords, coord_names):
            c.name_hint = n
        self.into = self.block

    def add(self, op: Operation) -> Operation:
        self.into.add_op(op)
        return op

    def tensor(
        self,
        name: str,
        shape: tuple[int, int],
        elem: Attribute,
        role: Role,
        *,
        arg: int | None = None,
        values: DenseIntOrFPElementsAttr | None = None,
        repack: RepackAttr | None = None,
        hint: str | None = None,
    ) -> SSAValue:
        op = TensorOp(
            name,
            TensorHandleType(shape, elem, role),
            source=self.args[arg] if arg is not None else None,
            values=values,
            repack=repack,
        )
        if arg is not None and hint:
            self.args[arg].name_hint = f"{hint}_in"
        op.results[0].name_hint = hint
        return self.add(op).results[0]

    def buffer(self, plan: BufferPlan) -> SSAValue:
        """Buffers live for the whole program, outside any loop."""
        op = BufferOp(plan.name, plan.tiles, plan.element, plan.depth)
        self.block.add_op(op)
        op.results[0].name_hint = plan.name
        return op.results[0]

    def load(
        self,
        tensor_: SSAValue,
        buffer: SSAValue,
        base: int,
        steps: Sequence[tuple[SSAValue, int]],
        block: tuple[int, int],
        stride: int,
        repeat: int = 1,
    ) -> SSAValue:
        origin, vars_ = _origin(base, steps)
        op = LoadOp(tensor_, buffer, origin, vars_, block, stride, repeat)
        op.results[0].name_hint = f"p_{buffer.name_hint}" if buffer.name_hint else None
        return self.add(op).results[0]

    def store(
        self,
        page: SSAValue,
        tensor_: SSAValue,
        base: int,
        steps: Sequence[tuple[SSAValue, int]],
        block: tuple[int, int],
        stride: int,
    ) -> None:
        origin, vars_ = _origin(base, steps)
        self.add(StoreOp(page, tensor_, origin, vars_, block, stride, 1))

    def stage(
        self,
        name: str,
        iters: Sequence[tuple[IterKind, int]],
        ins: Sequence[tuple[SSAValue, AffineExpr]],
        buffer: SSAValue,
        out: AffineExpr,
        body: Callable[[Block, Sequence[SSAValue]], SSAValue],
        indirect: Sequence[int] | None = None,
    ) -> SSAValue:
        nd = len(iters)
        via = list(indirect) if indirect is not None else [-1] * len(ins)
        maps = [AffineMap(nd, 1 if v >= 0 else 0, (e,)) for (_, e), v in zip(ins, via)]
        elems = [cast(spatial.PageType, p.type).element_type for p, _ in ins]
        block = Block(arg_types=elems)
        result = body(block, block.args)
        block.add_op(spatial.YieldOp(result))
        op = StageOp(
            name,
            iters,
            [p for p, _ in ins],
            maps,
            buffer,
            AffineMap(nd, 0, (out,)),
            Region(block),
            via,
        )
        op.results[0].name_hint = name
        return self.add(op).results[0]

    def finish(self, ret: Sequence[SSAValue]) -> Region:
        self.block.add_op(ReturnOp(ret))
        return Region(self.block)


def _origin(base: int, steps: Sequence[tuple[SSAValue, int]]) -> tuple[AffineMap, list[SSAValue]]:
    vars_: list[SSAValue] = []
    expr = AffineExpr.constant(base)
    for v, c in steps:
        if v not in vars_:
            vars_.append(v)
        expr = expr + AffineExpr.symbol(vars_.index(v)) * c
    return AffineMap(0, len(vars_), (expr,)), vars_


def _emit(block: Block, op: Operation) -> SSAValue:
    block.add_op(op)
    return op.results[0]


def _to_f32(block: Block, v: SSAValue) -> SSAValue:
    t = v.type
    if isinstance(t, Float32Type):
        return v
    if isinstance(t, IntegerType):
        return _emit(block, arith.SIToFPOp(v, f32))
    return _emit(block, arith.ExtFOp(v, f32))


def _f32_const(block: Block, value: float) -> SSAValue:
    return _emit(block, arith.ConstantOp(FloatAttr(value, f32)))


def _row_select(block: Block, v: SSAValue, row: int) -> SSAValue:
    """`v` on row `row` of the iteration space, 0 elsewhere."""
    idx = _emit(block, spatial.IndexOp(0))
    r = _emit(block, arith.ConstantOp(IntegerAttr(row, IndexType())))
    on_row = _emit(block, arith.CmpiOp(idx, r, "eq"))
    return _emit(block, arith.SelectOp(on_row, v, _f32_const(block, 0.0)))


def _copy_body(block: Block, args: Sequence[SSAValue]) -> SSAValue:
    return args[0]


def _product_body(block: Block, args: Sequence[SSAValue]) -> SSAValue:
    """`x * q * s` in fp32: an int8 times a bf16 is exact in fp32, the scale is fp32."""
    x, q, s = (_to_f32(block, a) for a in args)
    return _emit(block, arith.MulfOp(_emit(block, arith.MulfOp(x, q)), s))


def _sum_body(m: int, carried: bool) -> Callable[[Block, Sequence[SSAValue]], SSAValue]:
    """`carry + sum_r [row == r] * sum_r`: a single row's sum is every row's."""

    def body(block: Block, args: Sequence[SSAValue]) -> SSAValue:
        terms = list(args[1:] if carried else args)
        picked = [t if m == 1 else _row_select(block, t, r) for r, t in enumerate(terms)]
        acc = args[0] if carried else picked.pop(0)
        for t in picked:
            acc = _emit(block, arith.AddfOp(acc, t))
        return acc

    return body


def build_view(
    x: SSAValue,
    x_name: str,
    view_name: str,
    plan: ViewPlan,
    target: TargetAttr,
    chip: int | None = None,
) -> list[ViewOp]:
    """The view of `x` (of the plan's element type) in sections: the whole
    1024-blocks, then the tail; on `chip` of a tensor-parallel deployment, programs
    named for it."""
    m, k, act, rows = plan.m, plan.k, plan.act, plan.rows
    tr, tc = target.tile
    block = tr * Q8_BLOCK
    shape = (view_rows(m, k), Q8_BLOCK)
    chunks = m // rows
    out: list[ViewOp] = []
    prev: SSAValue | None = None
    part = len(plan.sections) > 1
    for section in plan.sections:
        kb0, kbs, width = section.kb0, section.kbs, section.width
        alloc = Allocation(section.buffers)
        page_t = width // tc
        g = width // Q8_BLOCK
        page_w = page_t * tc
        ins = [x] if prev is None else [x, prev]
        p = _Program([kbs, chunks] if m > 1 else [kbs], ["kb", "c"], ins)
        src = p.tensor(x_name, (m, k), act, Role.INPUT, arg=0, hint="x")
        role = Role.STATE if part else Role.OUTPUT
        dst = p.tensor(
            view_name, shape, act, role, arg=1 if prev is not None else None, hint="view"
        )
        x_in = p.buffer(alloc.take("in_block"))
        o = p.buffer(alloc.take("out"))
        kb = p.coords[0]
        px = p.load(src, x_in, kb0 * (block // tc), [(kb, page_t)], (1, page_t), k // tc)
        if m == 1:
            lifted = p.stage(
                "lift_rows",
                [(IterKind.PAR, g), (IterKind.PAR, tc)],
                [(px, _lin(d0=tc, d1=1))],
                o,
                _lin(d0=tc, d1=1),
                _copy_body,
            )
            store_steps = [(kb, 1)]
            owns = AffineMap(1, 0, (_lin(kb0, d0=1), _lin()))
        else:
            in_lanes = alloc.take("in_lanes")
            ix = in_lanes.element
            lanes = np.array(
                [(c // tc) * page_w + c % tc for c in range(chunks * rows * tc)],
                dtype=np.int64,
            ).reshape(1, -1)
            table = p.tensor(
                f"{view_name}__lanes{kb0}",
                (1, lanes.size),
                ix,
                Role.PARAM,
                values=DenseIntOrFPElementsAttr.from_list(
                    TensorType(ix, lanes.shape), lanes.reshape(-1).tolist()
                ),
                hint="lanes",
            )
            l_in = p.buffer(in_lanes)
            c = p.coords[1]
            pl = p.load(table, l_in, 0, [(c, rows)], (1, rows), chunks * rows)
            lifted = p.stage(
                "lift_rows",
                [(IterKind.PAR, g), (IterKind.PAR, rows * tc)],
                [(px, _lin(d0=tc, s0=1)), (pl, _lin(d1=1))],
                o,
                _lin(d0=rows * tc, d1=1),
                _copy_body,
                indirect=[1, -1],
            )
            store_steps = [(kb, m), (c, rows)]
            owns = AffineMap(2, 0, (_lin(kb0 * m, d0=m, d1=rows), _lin()))
        p.store(lifted, dst, kb0 * (m if m > 1 else 1), store_steps, (rows, 1), 1)
        alloc.done()
        items = kbs * chunks
        view = ViewOp(
            f"q8_view_{m}x{k}_from{kb0}" + chip_suffix(chip),
            grid=p.grid,
            owns=owns,
            owns_size=(rows, 1),
            target=target,
            plan=PlanAttr((1, items) if part else (items, 1), 1, (rows, 1)),
            numerics=NumericsAttr("exact"),
            ins=ins,
            result_types=[TensorType(act, shape)],
            body=p.finish([dst]),
            chip=chip,
        )
        out.append(view)
        prev = view.results[0]
    return out


@dataclass
class WeightInit:
    """How the fold's weight tensors start: bound from outside, zero, or given values;
    how a host fills each from a checkpoint (`#spatial.repack<q8_0.values>`, or one
    `from "NxK"` for a frontend's weight stored N x K: filled by a transpose); and on a
    chip, which shard of the weight they hold (K rows, columns)."""

    values: SSAValue | DenseIntOrFPElementsAttr | None
    scales: SSAValue | DenseIntOrFPElementsAttr | None
    repacks: tuple[RepackAttr, RepackAttr] = (
        RepackAttr(Q8Part.VALUES),
        RepackAttr(Q8Part.SCALES),
    )
    shard: tuple[tuple[int, int], tuple[int, int]] | None = None

    def repack(self, part: Q8Part) -> RepackAttr:
        whole = self.repacks[0 if part == Q8Part.VALUES else 1]
        return whole if self.shard is None else whole.sharded(*self.shard)


def build_fold(
    view: SSAValue,
    view_name: str,
    weight: str,
    y_name: str,
    init: WeightInit,
    plan: FoldPlan,
    target: TargetAttr,
    numerics: str,
    chip: int | None = None,
) -> FoldOp:
    """The fold the plan describes; `numerics`, the reason its result is approximate;
    on `chip` of a tensor-parallel deployment, named for it."""
    m, k, n, wb = plan.m, plan.k, plan.n, plan.wb
    act, scale_type = plan.act, plan.scale
    alloc = Allocation(plan.buffers())
    tr, tc = target.tile
    n_t, nb, g = plan.col_tiles, plan.k_blocks, plan.tail_blocks
    cols = wb * tc
    ins: list[SSAValue] = [view]
    arg_of: dict[str, int] = {}
    for part, v in (("values", init.values), ("scales", init.scales)):
        if isinstance(v, SSAValue):
            arg_of[part] = len(ins)
            ins.append(v)
    p = _Program([plan.items], ["item"], ins)
    y = p.coords[0]
    xt = p.tensor(view_name, (view_rows(m, k), Q8_BLOCK), act, Role.INPUT, arg=0, hint="view")

    def param(
        part: Q8Part, shape: tuple[int, int], elem: Attribute, key: str, hint: str
    ) -> SSAValue:
        v = getattr(init, key)
        return p.tensor(
            stored_name(weight, part),
            shape,
            elem,
            Role.PARAM,
            arg=arg_of.get(key),
            values=v if isinstance(v, DenseIntOrFPElementsAttr) else None,
            repack=init.repack(part),
            hint=hint,
        )

    qt = param(Q8Part.VALUES, (k, n), i8, "values", "q")
    st = param(Q8Part.SCALES, (k // Q8_BLOCK, n), scale_type, "scales", "s")
    yt = p.tensor(y_name, (m, n), f32, Role.OUTPUT, hint="y")
    pointwise = [(IterKind.PAR, tr), (IterKind.PAR, cols)]
    ident = _lin(d0=cols, d1=1)

    def block_sums(
        stem: str, px: SSAValue, pq: SSAValue, ps: SSAValue, blocks: int
    ) -> list[SSAValue]:
        """Each row's `sum_b s[b, n] * sum_i x[r, 32b + i] * q[32b + i, n]`."""
        sums = []
        for r, name in enumerate(plan.row_names(stem)):
            buf = p.buffer(alloc.take(name))
            sums.append(
                p.stage(
                    name,
                    [(IterKind.SUM, blocks), (IterKind.PAR, cols), (IterKind.SUM, Q8_BLOCK)],
                    [
                        (px, _lin(r * tc, d0=m * tc, d2=1)),
                        (pq, _lin(d2=blocks * cols, d0=cols, d1=1)),
                        (ps, _lin(d0=cols, d1=1)),
                    ],
                    buf,
                    _lin(d1=1),
                    _product_body,
                )
            )
        return sums

    partials: list[SSAValue] = []
    carried = None
    if nb:
        bx, bq, bs, run = (
            p.buffer(alloc.take(b)) for b in ("in_x", "in_q8", "in_scale", "run_sum")
        )
        zero = p.stage("init_sum", pointwise, [], run, ident, lambda b, a: _f32_const(b, 0.0))
        loop_block = Block(arg_types=[IndexType(), zero.type])
        kb, acc = loop_block.args
        kb.name_hint, acc.name_hint = "kb", "acc"
        p.into = loop_block
        px = p.load(xt, bx, 0, [(kb, m)], (m, 1), 1, nb)
        pq = p.load(qt, bq, 0, [(kb, tr * n_t), (y, wb)], (tr, wb), n_t, nb)
        ps = p.load(st, bs, 0, [(kb, n_t), (y, wb)], (1, wb), n_t, nb)
        sums = block_sums("block", px, pq, ps, Q8_BLOCK)
        folded = p.stage(
            "fold_sum",
            pointwise,
            [(acc, ident)] + [(s, _lin(d1=1)) for s in sums],
            run,
            ident,
            _sum_body(m, carried=True),
        )
        loop_block.add_op(KYieldOp([folded]))
        p.into = p.block
        loop = KLoopOp(nb, [zero], Region(loop_block))
        loop.results[0].name_hint = "sum"
        p.add(loop)
        carried = loop.results[0]
    if g:
        bx, bq, bs = (p.buffer(alloc.take(b)) for b in ("in_x_tail", "in_q8_tail", "in_scale_tail"))
        px = p.load(xt, bx, nb * m, [], (m, 1), 1)
        pq = p.load(qt, bq, tr * nb * n_t, [(y, wb)], (g, wb), n_t)
        ps = p.load(st, bs, nb * n_t, [(y, wb)], (1, wb), n_t)
        partials = block_sums("tail", px, pq, ps, g)
    out = p.buffer(alloc.take("out"))
    alloc.done()
    result_ins = ([(carried, ident)] if carried is not None else []) + [
        (t, _lin(d1=1)) for t in partials
    ]
    if carried is not None and not partials:
        body = _copy_body
    else:
        body = _sum_body(m, carried=carried is not None)
    result = p.stage("result", pointwise, result_ins, out, ident, body)
    p.store(result, yt, 0, [(y, wb)], (1, wb), n_t)
    name = f"q8_gemv_{k}x{n}_w{wb}" if m == 1 else f"q8_gemm_{m}x{k}x{n}_w{wb}"
    return FoldOp(
        name + chip_suffix(chip),
        grid=[plan.items],
        owns=AffineMap(1, 0, (_lin(), _lin(d0=wb))),
        owns_size=(1, wb),
        target=target,
        plan=PlanAttr((1, plan.items), max(nb, 1), (1, wb)),
        numerics=NumericsAttr("approx", numerics),
        ins=ins,
        result_types=[TensorType(f32, (m, n))],
        body=p.finish([yt]),
        chip=chip,
    )


# --------------------------------------------------------------------------------------
# Weights
# --------------------------------------------------------------------------------------


def weight_name(dq: q8.DequantizeOp, index: int) -> str:
    """The weight's name: from its stored parts' names, else its own, else `w<index>`
    (a `shard.shard` annotation names nothing: the value it annotates does)."""
    values, scales = unshard(dq.values)[0], unshard(dq.scales)[0]
    for v in (values, scales):
        if v.name_hint and (parsed := stored_part(v.name_hint)) is not None:
            return parsed[0]
    src = values.owner
    if isinstance(src, q8.QuantizeOp) and src.input.name_hint:
        return src.input.name_hint
    return dq.result.name_hint or values.name_hint or f"w{index}"


def weight_init(dq: q8.DequantizeOp, weight: str) -> WeightInit:
    """Zero constants start zero; a quantised constant is quantised now and must be exact."""
    vals, scales = unshard(dq.values)[0], unshard(dq.scales)[0]
    vo, so = vals.owner, scales.owner
    if _is_zero_constant(vo) and _is_zero_constant(so):
        return WeightInit(None, None)
    if (
        isinstance(vo, q8.QuantizeOp)
        and so is vo
        and isinstance(c := vo.input.owner, arith.ConstantOp)
        and isinstance(c.value, DenseIntOrFPElementsAttr)
    ):
        return _quantised_constant(vo, c.value, weight)
    out: list[SSAValue | DenseIntOrFPElementsAttr | None] = []
    for v in (vals, scales):
        o = v.owner
        if isinstance(o, arith.ConstantOp) and isinstance(o.value, DenseIntOrFPElementsAttr):
            out.append(o.value)
        else:
            out.append(v)
    repacks = tuple(
        found[1] if (found := host_source(dq, part)) is not None else RepackAttr(part)
        for part in (Q8Part.VALUES, Q8Part.SCALES)
    )
    return WeightInit(out[0], out[1], cast(tuple[RepackAttr, RepackAttr], repacks))


def _quantised_constant(
    op: q8.QuantizeOp, value: DenseIntOrFPElementsAttr, weight: str
) -> WeightInit:
    from xdsl_spatial.core.quant import NotExactQ8_0, exact_q8_0

    vt = cast(TensorType[Attribute], op.values.type)
    st = cast(TensorType[Attribute], op.scales.type)
    w = dense_array(value).astype(np.float64)
    sdt = np.float16 if isinstance(st.element_type, Float16Type) else np.float32
    if not np.any(w):
        return WeightInit(None, None)
    try:
        qv, sv = exact_q8_0(w, sdt)
    except NotExactQ8_0 as e:
        why = str(e).removeprefix("the weight is not exactly Q8_0: ")
        raise PassFailedException(
            f"q8-lower: weight '{weight}' ({op.name} of a constant) is not exact "
            f"Q8_0, so it cannot be stored as int8 values and scales: {why}"
        ) from None
    return WeightInit(
        DenseIntOrFPElementsAttr.from_list(vt, qv.reshape(-1).tolist()),
        DenseIntOrFPElementsAttr.from_list(st, sv.astype(np.float64).reshape(-1).tolist()),
    )


# --------------------------------------------------------------------------------------
# The pattern
# --------------------------------------------------------------------------------------


def plan_q8_matmul(
    mm: Q8Matmul, target: TargetAttr
) -> tuple[FoldPlan | None, ViewPlan | None, str | None]:
    """The fold's and the view's plans, and why the product is not lowered (None when
    it is). The view holds the target's activation precision."""
    return plan_product(mm.m, mm.k, mm.n, mm.scale_type, target)


def plan_product(
    m: int, k: int, n: int, scale: Attribute, target: TargetAttr
) -> tuple[FoldPlan | None, ViewPlan | None, str | None]:
    """`plan_q8_matmul` for an m x K activation and a K x N weight with `scale`
    scales: also each chip's share of a product split over chips."""
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
            (
                f"no column group fits: one column tile needs {need} B of local memory, "
                f"a site has {budget}"
            ),
        )
    view = ViewPlan.make(m, k, act, target)
    if (need := view.buffer_bytes()) > budget:
        return (
            plan,
            view,
            (f"the view's buffers need {need} B of local memory, a site has {budget}"),
        )
    if not plan.profitable():
        return (
            plan,
            view,
            (
                f"weight {plan.model_weight_bytes()} B + view reads {plan.view_reads()} B "
                f"= {plan.model_bytes()} B >= a bf16 copy's {plan.dense_bytes()} B"
            ),
        )
    return plan, view, None


def numerics_claim(mm: Q8Matmul, act: Attribute) -> str:
    """Why the fold's result is approximate, and what it rounds that the source did
    not, or the other way round."""
    rows = "row" if mm.m == 1 else "rows"
    claim = f"a Q8_0 product over {mm.m} {element_name(act)} {rows}"
    if element_bytes(mm.x_type) > element_bytes(act):
        claim += f"; the {element_name(mm.x_type)} activation is rounded to {element_name(act)}"
    w = cast(TensorType[Attribute], mm.dequant.result.type).element_type
    if not isinstance(w, Float32Type):
        claim += (
            f"; the source rounds its weight to {element_name(w)}, the fold multiplies "
            "q * s exactly"
        )
    return claim


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


@dataclass
class Decision:
    """What the pass did with one matmul, for `report=true`."""

    where: str
    shape: str
    lowered: bool
    reason: str
    plan: FoldPlan | None = None
    view: ViewPlan | None = None
    split: ChipSplit | None = None
    """The chips it runs on, when lowered over several (then `chips` holds their plans
    and `plan` and `view` are None)."""
    chips: tuple[ChipPlan, ...] = ()

    @property
    def view_bytes(self) -> int:
        """Local memory of the view's buffers (its largest section)."""
        return self.view.buffer_bytes() if self.view is not None else 0

    def line(self) -> str:
        head = f"q8-lower: {self.where}{' ' + self.shape if self.shape else ''}: "
        if not self.lowered:
            return head + f"not lowered: {self.reason}"
        if self.split is not None:
            return self._chip_lines(head)
        pl = self.plan
        assert pl is not None
        moved = pl.weight_bytes() + pl.view_reads()
        return head + (
            f"lowered: wb = {pl.wb}, items = {pl.items}, K blocks = {pl.k_blocks}, "
            f"tail = {pl.tail_blocks} Q8_0 blocks, local memory = {pl.buffer_bytes():,} B "
            f"(view {self.view_bytes:,} B); bytes: weight {pl.model_weight_bytes():,} + view "
            f"reads {pl.view_reads():,} = {pl.model_bytes():,} < bf16 copy "
            f"{pl.dense_bytes():,}; moves {moved:,} B ({pl.bytes_per_weight():.4f} B/weight)"
        )

    def _chip_lines(self, head: str) -> str:
        sp = self.split
        assert sp is not None
        gather = (
            "columns gathered by tensor.concat"
            if sp.axis == Split.N
            else "partial sums added in chip order by arith.addf"
        )
        lines = [
            head + f"lowered over {sp.chips} chips ({sp.origin}), split on "
            f"{sp.axis.value.upper()}, {gather}"
        ]
        for cp in self.chips:
            pl = cp.plan
            loads, stores = cp.moved()
            view = (
                f"view {cp.view.load_bytes():,} + {cp.view.store_bytes():,} B"
                if cp.made_view
                else "view shared"
            )
            lines.append(
                f"q8-lower:   chip {cp.chip}: {sp.describe(cp.chip)}: {pl.k}x{pl.n}, "
                f"wb = {pl.wb}, items = {pl.items}, K blocks = {pl.k_blocks}, tail = "
                f"{pl.tail_blocks} Q8_0 blocks, local memory = {pl.buffer_bytes():,} B "
                f"(view {cp.view.buffer_bytes():,} B); moves: fold {pl.weight_bytes():,} + "
                f"{pl.view_reads():,} + {pl.store_bytes():,} B ({pl.bytes_per_weight():.4f} "
                f"B/weight), {view}; chip loads {loads:,} B, stores {stores:,} B"
            )
        return "\n".join(lines)


@dataclass
class Naming:
    """What the pattern has named so far in one module, so that names stay one per
    thing: every product of an activation value reads one view of it (one per chip it
    runs on), named after the value and how often its variable was written before
    (`x__q8_rows1`: `x`'s second value; `x__q8_rows1_c2`: its view on chip 2); every
    weight (its values and scales) has one name however often it is read, and every
    shard of it one slice."""

    views: dict[tuple[SSAValue, int | None], tuple[SSAValue, tuple[int, int]]] = field(
        default_factory=dict
    )
    """The view of each activation value on each chip, and the K columns it views."""
    viewed: dict[SSAValue, tuple[str, int]] = field(default_factory=dict)
    """Each viewed value's name and writes before it."""
    after: dict[SSAValue, Operation] = field(default_factory=dict)
    """The last op the pattern put after each viewed value (its chips' views in order)."""
    writes: dict[SSAValue, int] = field(default_factory=dict)
    """How many same-named tensors a function defined before each named value."""
    unnamed: dict[Operation, int] = field(default_factory=dict)
    """Unnamed activations viewed so far, per function."""
    weights: dict[tuple[SSAValue, SSAValue], str] = field(default_factory=dict)
    """The name of each weight (values, scales)."""
    slices: dict[tuple[SSAValue, tuple[int, int], tuple[int, int]], SSAValue] = field(
        default_factory=dict
    )
    """The slice (rows, columns) of a weight's values or scales each chip reads."""

    def weight(self, dq: q8.DequantizeOp) -> str:
        key = (unshard(dq.values)[0], unshard(dq.scales)[0])
        if key not in self.weights:
            self.weights[key] = weight_name(dq, len(self.weights))
        return self.weights[key]

    def value(self, x: SSAValue) -> tuple[str, int]:
        """The name a view of `x` takes after, and how often it was written before."""
        if x not in self.viewed:
            self.viewed[x] = (value_name(x, "x"), self.writes_before(x))
        return self.viewed[x]

    def view_conflict(self, x: SSAValue, chip: int | None, cols: tuple[int, int]) -> str | None:
        """Why a product cannot read a view of columns `cols` of `x` on `chip`: the
        chip already views another slice of `x` under the one name a chip's view has."""
        made = self.views.get((x, chip))
        if made is None or made[1] == cols:
            return None
        base, writes = self.value(x)
        return (
            f"{q8_rows_name(base, writes, chip)} already views columns "
            f"{made[1][0]}..{made[1][1]} of %{base}; this product reads {cols[0]}..{cols[1]}"
        )

    def writes_before(self, x: SSAValue) -> int:
        """How many times the function wrote the tensor `x` names before `x`: the
        tensors of that name it defines earlier (`%x`, then `%x_1`, ...). An unnamed
        value is viewed as `x`, numbered after every tensor the function names `x`."""
        fn = _function_of(x)
        if x.name_hint is None:
            named = sum(1 for v in _defined_tensors(fn) if v.name_hint == "x")
            self.unnamed[fn] = self.unnamed.get(fn, 0) + 1
            return named + self.unnamed[fn] - 1
        if x not in self.writes:
            seen: dict[str, int] = {}
            for v in _defined_tensors(fn):
                if v.name_hint is not None:
                    self.writes[v] = seen.get(v.name_hint, 0)
                    seen[v.name_hint] = self.writes[v] + 1
        return self.writes.get(x, 0)


@dataclass
class LowerQ8Matmul(RewritePattern):
    """`linalg.matmul(x, q8.dequantize(values, scales))` -> view + fold, or a view and a
    fold per chip and the gather or sum of their results."""

    target: TargetAttr
    parallel: ParallelOptions = field(default_factory=lambda: ParallelOptions())
    names: Naming = field(default_factory=Naming)
    decisions: list[Decision] = field(default_factory=list)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        res = op.res[0].name_hint if op.res else None
        where = f"linalg.matmul %{res}" if res else f"linalg.matmul #{len(self.decisions)}"
        mm = match_q8_matmul(op)
        if isinstance(mm, str):
            self.decisions.append(Decision(where, "", False, mm))
            return
        shape = f"{mm.m}x{mm.k}x{mm.n}"
        split = self._split(mm)
        if isinstance(split, str):
            self.decisions.append(Decision(where, shape, False, split))
            return
        if split is not None:
            self.decisions.append(self._lower_over_chips(mm, split, rewriter, where, shape))
            return
        plan, view_plan, why = plan_q8_matmul(mm, self.target)
        if plan is None or view_plan is None or why is not None:
            self.decisions.append(Decision(where, shape, False, why or "", plan, view_plan))
            return
        if (why := self.names.view_conflict(mm.x, None, (0, mm.k))) is not None:
            self.decisions.append(Decision(where, shape, False, why, plan, view_plan))
            return
        weight = self.names.weight(mm.dequant)
        init = weight_init(mm.dequant, weight)
        view = self._view_of(mm, view_plan, rewriter, None, (0, mm.k))
        fold = build_fold(
            view,
            _view_tensor_name(view),
            weight,
            value_name(op.res[0], "y"),
            init,
            plan,
            self.target,
            numerics_claim(mm, view_plan.act),
        )
        rewriter.replace(op, fold)
        fold.results[0].name_hint = op.res[0].name_hint
        self._erase_sources(mm, rewriter)
        self.decisions.append(Decision(where, shape, True, "", plan, view_plan))

    def _split(self, mm: Q8Matmul) -> ChipSplit | str | None:
        """Over which chips the product runs: as its `shard` annotations say, else as
        the pass options do (None: on one chip, as a product without chips)."""
        if mm.ann.any():
            return annotated_split(mm.ann, mm.k, mm.n, self.target.tile_cols.data)
        if self.parallel.chips == 1:
            return None
        axis = Split(self.parallel.split)
        return option_split(mm.k, mm.n, self.parallel.chips, axis, self.target.tile_cols.data)

    def _lower_over_chips(
        self, mm: Q8Matmul, split: ChipSplit, rewriter: PatternRewriter, where: str, shape: str
    ) -> Decision:
        """A view and a fold per chip over its shard, then the chips' results gathered
        (N) or added in chip order (K); the product as it was when a chip cannot fold
        its share."""
        op = mm.op
        chips: list[ChipPlan] = []
        for c in range(split.chips):
            rows, cols = split.rows(c, mm.k), split.cols(c, mm.n)
            plan, view_plan, why = plan_product(
                mm.m, rows[1] - rows[0], cols[1] - cols[0], mm.scale_type, self.target
            )
            if why is None:
                why = self.names.view_conflict(mm.x, c, rows)
            if plan is None or view_plan is None or why is not None:
                return Decision(
                    where,
                    shape,
                    False,
                    f"chip {c} of {split.chips} ({split.describe(c)}): {why}",
                    split=split,
                )
            made = (mm.x, c) not in self.names.views
            chips.append(ChipPlan(c, rows, cols, plan, view_plan, made))
        weight = self.names.weight(mm.dequant)
        init = weight_init(mm.dequant, weight)
        y = value_name(op.res[0], "y")
        claim = numerics_claim(mm, self.target.act)
        results: list[SSAValue] = []
        for cp in chips:
            view = self._view_of(mm, cp.view, rewriter, cp.chip, cp.rows)
            fold = build_fold(
                view,
                _view_tensor_name(view),
                weight,
                f"{y}{chip_suffix(cp.chip)}",
                self._shard_init(init, cp.chip, cp.rows, cp.cols, op, rewriter),
                cp.plan,
                self.target,
                claim
                + f"; chip {cp.chip} of {split.chips}: {split.describe(cp.chip)}"
                + ("" if split.axis == Split.N else ", a partial sum the chips add in order"),
                cp.chip,
            )
            fold.results[0].name_hint = f"{y}{chip_suffix(cp.chip)}"
            rewriter.insert(fold, InsertPoint.before(op))
            results.append(fold.results[0])
        gather = _gather(results, split.axis, cast(TensorType[Attribute], op.res[0].type), y)
        rewriter.replace(op, gather, [gather[-1].results[0]] if gather else [results[0]])
        self._erase_sources(mm, rewriter)
        return Decision(where, shape, True, "", split=split, chips=tuple(chips))

    def _shard_init(
        self,
        init: WeightInit,
        chip: int,
        rows: tuple[int, int],
        cols: tuple[int, int],
        op: Operation,
        rewriter: PatternRewriter,
    ) -> WeightInit:
        """The chip's shard of the weight: a slice of each stored tensor (values K rows,
        scales their Q8_0 blocks), made once per shard and read by every product."""
        parts: list[SSAValue | DenseIntOrFPElementsAttr | None] = []
        for v, (r0, r1) in (
            (init.values, rows),
            (init.scales, (rows[0] // Q8_BLOCK, rows[1] // Q8_BLOCK)),
        ):
            if v is None:
                parts.append(None)
            elif isinstance(v, DenseIntOrFPElementsAttr):
                a = dense_array(v)[r0:r1, cols[0] : cols[1]]
                t = TensorType(v.get_element_type(), a.shape)
                parts.append(DenseIntOrFPElementsAttr.from_list(t, a.reshape(-1).tolist()))
            else:
                parts.append(self._slice(v, (r0, r1), cols, chip, op, rewriter))
        return WeightInit(parts[0], parts[1], init.repacks, (rows, cols))

    def _slice(
        self,
        v: SSAValue,
        rows: tuple[int, int],
        cols: tuple[int, int],
        chip: int,
        op: Operation,
        rewriter: PatternRewriter,
    ) -> SSAValue:
        """`v[rows, cols]` as a `tensor.extract_slice` (`v` itself when that is all of it)."""
        t = cast(TensorType[Attribute], v.type)
        r, c = t.get_shape()
        if rows == (0, r) and cols == (0, c):
            return v
        key = (v, rows, cols)
        if key not in self.names.slices:
            size = (rows[1] - rows[0], cols[1] - cols[0])
            sl = tensor.ExtractSliceOp(
                v, [rows[0], cols[0]], list(size), [1, 1], TensorType(t.element_type, size)
            )
            sl.result.name_hint = f"{value_name(v, 'w')}{chip_suffix(chip)}"
            self.names.slices[key] = sl.result
            rewriter.insert(sl, InsertPoint.before(op))
        return self.names.slices[key]

    def _erase_sources(self, mm: Q8Matmul, rewriter: PatternRewriter) -> None:
        for dead in (mm.fill, mm.dequant, mm.extf, *mm.ann.ops()):
            _erase_if_unused(dead, rewriter)

    def _view_of(
        self,
        mm: Q8Matmul,
        plan: ViewPlan,
        rewriter: PatternRewriter,
        chip: int | None,
        cols: tuple[int, int],
    ) -> SSAValue:
        """One view per value and chip: made after the value is defined (and, on a chip
        of a K split, after the slice of its columns the chip holds; converted to the
        target's activation precision by an explicit op, when it is held in another),
        shared by its products on the chip."""
        if (made := self.names.views.get((mm.x, chip))) is not None:
            return made[0]
        base, writes = self.names.value(mm.x)
        name = q8_rows_name(base, writes, chip)
        # The tensor the view reads is the value as printed (`%x_1` is `x_1`).
        tensor_name = base if not writes else f"{base}_{writes}"
        x = mm.x
        if (
            mm.x_type != plan.act
            and mm.extf is not None
            and mm.extf.result.type == mm.op.inputs[0].type
            and cast(TensorType[Attribute], mm.extf.result.type).element_type == plan.act
        ):
            x = mm.extf.result  # the activation the matmul reads, already widened
        if (last := self.names.after.get(mm.x)) is not None:
            point = InsertPoint.after(last)
        elif isinstance(x, BlockArgument):
            point = InsertPoint.at_start(x.block)
        else:
            point = InsertPoint.after(cast(Operation, x.owner))
        inserted: list[Operation] = []
        xt = cast(TensorType[Attribute], x.type)
        if cols != (0, mm.k):
            tensor_name += chip_suffix(chip)
            size = (mm.m, cols[1] - cols[0])
            sl = tensor.ExtractSliceOp(
                x, [0, cols[0]], list(size), [1, 1], TensorType(xt.element_type, size)
            )
            sl.result.name_hint = tensor_name
            inserted.append(sl)
            x = sl.result
        if cast(TensorType[Attribute], x.type).element_type != plan.act:
            shaped = TensorType(plan.act, cast(TensorType[Attribute], x.type).get_shape())
            convert = (
                arith.ExtFOp(x, shaped)
                if element_bytes(plan.act) > element_bytes(mm.x_type)
                else arith.TruncFOp(x, shaped)
            )
            convert.result.name_hint = f"{tensor_name}_{element_name(plan.act)}"
            inserted.append(convert)
            x = convert.result
        views = build_view(x, tensor_name, name, plan, self.target, chip)
        for i, v in enumerate(views):
            v.results[0].name_hint = name + ("" if i == len(views) - 1 else f"_part{i}")
        inserted += views
        for o in inserted:
            rewriter.insert(o, point)
        if chip is not None:
            self.names.after[mm.x] = inserted[-1]
        self.names.views[(mm.x, chip)] = (views[-1].results[0], cols)
        return views[-1].results[0]


def _gather(
    results: Sequence[SSAValue], axis: Split, y: TensorType[Attribute], name: str
) -> list[Operation]:
    """What makes `y` of the chips' results: their columns side by side
    (`tensor.concat`), or their partial sums added in chip order (`arith.addf`); nothing
    for one chip."""
    if len(results) == 1:
        return []
    if axis == Split.N:
        return [tensor.ConcatOp(list(results), 1, y)]
    ops: list[Operation] = []
    acc = results[0]
    for c, r in enumerate(results[1:], start=1):
        add = arith.AddfOp(acc, r)
        add.result.name_hint = f"{name}_sum{c}" if c < len(results) - 1 else None
        ops.append(add)
        acc = add.result
    return ops


def _function_of(v: SSAValue) -> Operation:
    """The nearest op isolated from above (the function) that defines `v`."""
    block = v.owner if isinstance(v, BlockArgument) else cast(Operation, v.owner).parent
    op = block.parent_op() if isinstance(block, Block) else None
    while op is not None and not op.has_trait(IsolatedFromAbove):
        op = op.parent_op()
    assert op is not None, "a value the pass reads is inside a module"
    return op


def _defined_tensors(scope: Operation) -> Iterator[SSAValue]:
    """The tensors `scope`'s regions define, in program order, not looking into programs
    or nested functions."""
    for region in scope.regions:
        for block in region.blocks:
            yield from (a for a in block.args if isinstance(a.type, TensorType))
            for op in block.ops:
                if not op.has_trait(IsolatedFromAbove):
                    yield from _defined_tensors(op)
                yield from (r for r in op.results if isinstance(r.type, TensorType))


def _view_tensor_name(view: SSAValue) -> str:
    prog = cast(ViewOp, view.owner)
    ret = prog.body.block.last_op
    assert isinstance(ret, ReturnOp)
    return cast(TensorOp, ret.values[0].owner).tensor_name.data


def _erase_if_unused(op: Operation | None, rewriter: PatternRewriter) -> None:
    if op is None or op.parent is None or any(r.uses for r in op.results):
        return
    producers = [o.owner for o in op.operands if isinstance(o.owner, Operation)]
    rewriter.erase(op)
    for p in producers:
        if isinstance(
            p, arith.ConstantOp | tensor.EmptyOp | q8.QuantizeOp | shard.ShardOp | shard.ShardingOp
        ):
            _erase_if_unused(p, rewriter)


# --------------------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetOptions:
    """The options that override the chip the pass lowers for (each None: the
    module's `spatial.target`, else the preset's)."""

    preset: str | None = None
    local_mem: int | None = None
    acc_tiles: int | None = None
    tile_rows: int | None = None
    tile_cols: int | None = None
    act: str | None = None


@dataclass(frozen=True)
class ParallelOptions:
    """The options that spread every product without a `shard` annotation over chips
    (an annotated product follows its annotation)."""

    chips: int = 1
    split: str = Split.N.value

    def check(self) -> None:
        if self.chips < 1:
            raise PassFailedException(f"q8-lower: chips must be positive, got {self.chips}")
        if self.split not in [s.value for s in Split]:
            raise PassFailedException(
                f"q8-lower: split must be one of {', '.join(s.value for s in Split)}, "
                f"got '{self.split}'"
            )


def _options(cls: type, options: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in options.items() if k in names}


def resolve_target(module: ModuleOp, **options: Any) -> TargetAttr:
    """The module's `spatial.target` (or a preset), with any option given overriding it
    (the fields of `TargetOptions`)."""
    o = TargetOptions(**options)
    preset, act = o.preset, o.act
    local_mem, acc_tiles, tile_rows, tile_cols = o.local_mem, o.acc_tiles, o.tile_rows, o.tile_cols
    base = module.attributes.get("spatial.target")
    if preset is not None or not isinstance(base, TargetAttr):
        if preset is not None and preset not in spatial.TARGET_PRESETS:
            raise PassFailedException(
                f"q8-lower: unknown target preset '{preset}', expected one of "
                + ", ".join(sorted(spatial.TARGET_PRESETS))
            )
        base = TargetAttr(preset=preset or spatial.DEFAULT_PRESET)
    for name, v in (
        ("local-mem", local_mem),
        ("acc-tiles", acc_tiles),
        ("tile-rows", tile_rows),
        ("tile-cols", tile_cols),
    ):
        if v is not None and v < 1:
            raise PassFailedException(f"q8-lower: {name} must be positive, got {v}")
    acts = {"bf16": BFloat16Type(), "f32": Float32Type()}
    if act is not None and act not in acts:
        raise PassFailedException(f"q8-lower: act must be one of {', '.join(acts)}, got '{act}'")
    return TargetAttr(
        tile=(tile_rows or base.tile_rows.data, tile_cols or base.tile_cols.data),
        act=acts[act] if act is not None else base.act,
        acc=base.acc,
        local_mem=local_mem if local_mem is not None else base.local_mem.data,
        acc_tiles=acc_tiles if acc_tiles is not None else base.acc_tiles.data,
        **base.chip_figures(),
    )


def raise_and_lower(
    module: ModuleOp, ctx: Context | None = None, **options: Any
) -> tuple[list[RaiseDecision], list[Decision]]:
    """What `q8-lower` does to `module`, in place: raise the frontend forms `q8-raise`
    recognises, then lower every Q8_0 matmul; what each step decided (the raise's
    decisions, then one per matmul). `options`: the fields of `TargetOptions` and of
    `ParallelOptions`, checked before anything is rewritten; `ctx`: the context that
    parsed the module (its `dense_resource` blobs)."""
    known = {f.name for cls in (TargetOptions, ParallelOptions) for f in dataclasses.fields(cls)}
    if unknown := sorted(set(options) - known):
        raise TypeError(f"lower_q8: unknown options {', '.join(unknown)}")
    parallel = ParallelOptions(**_options(ParallelOptions, options))
    parallel.check()
    target = resolve_target(module, **_options(TargetOptions, options))
    raised = raise_q8(module, ctx)
    pattern = LowerQ8Matmul(target, parallel)
    PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(module)
    return raised, pattern.decisions


def lower_q8(module: ModuleOp, **options: Any) -> list[Decision]:
    """Lower every Q8_0 matmul of `module` in place (frontend forms raised first);
    what happened to each matmul. `raise_and_lower` also says what the raise did."""
    return raise_and_lower(module, **options)[1]


@dataclass(frozen=True)
class Q8LowerPass(ParallelOptions, TargetOptions, ModulePass):
    """
    Rewrite `linalg.matmul` over a `q8.dequantize`d weight into a view and a fold.

    Options (`-p 'q8-lower{local-mem=393216 acc-tiles=4}'`):
      preset      named target: wormhole_n150 (the default: a Tenstorrent Wormhole
                  n150, 72 sites of 1.5 MiB and 8 accumulator tiles), blackhole_p150
                  (140 such sites, faster), tensix (the n150's figures under the
                  default's old name) or reference (320 KiB sites). The module's
                  `spatial.target` attribute, if any, is used when no preset is
                  given. The chip's figures only time the programs
                  (docs/chip_time.md); the site's decide what is built.
      local-mem   bytes of local memory on one site; the fold's and the view's
                  buffers must fit.
      acc-tiles   accumulator tiles a site holds: the widest column group.
      tile-rows, tile-cols  the tile (the fold needs 32x32).
      act         the precision activations are held in on the chip, bf16 (the
                  presets') or f32: a view holds it, and an activation of another
                  precision is converted by an explicit op before its view.
      chips       spread every product over this many chips of a tensor-parallel
                  deployment (default 1: one chip), each with its own view and fold
                  over its shard of the weight; a product whose weight carries a
                  shard.sharding follows the sharding instead.
      split       n (default): each chip folds whole column tiles of the weight and
                  the columns are gathered (tensor.concat); k: each chip folds whole
                  Q8_0 blocks of K into a partial sum and the sums are added in chip
                  order (arith.addf).
      report      print to stderr, per matmul, whether it was lowered and why, the
                  column group, items, K blocks, tail and bytes.
    """

    name = "q8-lower"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = {
            f.name: getattr(self, f.name)
            for cls in (TargetOptions, ParallelOptions)
            for f in dataclasses.fields(cls)
        }
        raised, decisions = raise_and_lower(op, ctx, **options)
        if self.report:
            for d in (*raised, *decisions):
                print(d.line(), file=sys.stderr)
