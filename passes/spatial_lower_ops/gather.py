"""
The embedding gather: a `linalg.generic` whose body reads columns of tensors by token
id, as a program that loads each token's column through a table of the tokens' tiles.

```mlir
%embd = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], ...}
    ins(%tokens : tensor<1xi32>) outs(%e : tensor<1x576xf32>) {
^bb0(%t: i32, %acc: f32):
  %col = arith.index_cast %t : i32 to index
  %k = linalg.index 1 : index
  %b = arith.divui %k, %c32 : index
  %q = tensor.extract %W__q8[%k, %col] : tensor<576x49152xi8>
  %s = tensor.extract %W__q8_scale[%b, %col] : tensor<18x49152xf16>
  ... the dequantised element ...
}
```

becomes index programs (`embd_index_*`: each token's tile column `t div 32`, and its
lane `t mod 32` in a tile of its own) and

```mlir
%embd = spatial.map "embd_gather_1x576" grid [1] ... {
  %q = spatial.load %W__q8[%tile[0]] block 18x1 stride 1536 ... // the token's column of tiles
  %s = spatial.load %W__q8_scale[%tile[0]] block 1x1 stride 1536 ...
  %l = spatial.load %lane[0] block 1x1 ...
  %c = spatial.stage "gather" iters(par 18, par 32) ins(%q[d1 * 32 + d0 * 32 + s0 | s0 = in2], ...) ...
}
```

Several tokens (a prefill chunk, at most a tile's rows) are a K loop of one trip a
token, each placing its column in its row of the result. A token past the tensor's
columns makes its table entry point past its tiles: the load refuses it when the
program runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.core.ir_io import dense_attr
from xdsl_spatial.dialects.spatial import (
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    MapOp,
    NumericsAttr,
    PlanAttr,
    Role,
    StoreOp,
    TargetAttr,
)
from xdsl_spatial.passes.q8_lower.build import ProgramBuilder, origin
from xdsl_spatial.passes.q8_lower.plan import Allocation, BufferPlan
from xdsl_spatial.passes.spatial_lower_ops.access import Access, element_of, resolve, shape_of
from xdsl_spatial.passes.spatial_lower_ops.build import stage
from xdsl_spatial.passes.spatial_lower_ops.spec import BODY_TYPES, Body, Kind, OpSpec, synthetic


@dataclass(frozen=True)
class Extract:
    """A `tensor.extract` of the body: row `k div div` (k the result's other dim),
    column the token, of the 2-d tensor `tensor`."""

    op: tensor.ExtractOp
    tensor: SSAValue
    div: int


@dataclass
class GatherSpec:
    """A gather of `m` tokens' columns, `k` elements each."""

    op: linalg.GenericOp
    tokens: SSAValue
    m: int
    k: int
    extracts: list[Extract]
    body: Body
    element: Attribute


def _address(v: SSAValue, block: Block, token: BlockArgument, k_dim: int) -> tuple[str, int] | None:
    """What an extract's index is: (`token`, 0), (`k`, 1) or (`k`, c) for `k div c`."""
    o = v.owner
    if isinstance(o, arith.IndexCastOp) and o.input is token:
        return "token", 0
    if isinstance(o, linalg.IndexOp) and int(o.dim.value.data) == k_dim:
        return "k", 1
    if isinstance(o, arith.DivUIOp) and isinstance(o.lhs.owner, linalg.IndexOp):
        c = o.rhs.owner
        if (
            int(o.lhs.owner.dim.value.data) == k_dim
            and isinstance(c, arith.ConstantOp)
            and isinstance(c.value, IntegerAttr)
        ):
            return "k", int(c.value.value.data)
    return None


def match_gather(op: linalg.GenericOp, tile: tuple[int, int]) -> GatherSpec | str:
    """The gather `op` is, or why it is none the pass lowers."""
    block = op.body.block
    if not any(isinstance(o, tensor.ExtractOp) for o in block.ops):
        return "no tensor.extract"
    if len(op.inputs) != 1 or len(op.outputs) != 1:
        return "a gather of one token tensor into one result"
    kinds = [str(k.data) for k in op.iterator_types]
    maps = [m.data for m in op.indexing_maps]
    res = shape_of(op.res[0])
    if kinds != ["parallel", "parallel"] or len(res) != 2:
        return "a gather over (token, element) only"
    in_map, out_map = maps
    ident = [AffineDimExpr(0), AffineDimExpr(1)]
    if list(out_map.results) != ident or list(in_map.results) != [AffineDimExpr(0)]:
        return "a gather of token row d0, element d1"
    if not isinstance(element_of(op.inputs[0]), IntegerType):
        return "the tokens are not integers"
    m, k = res
    if m > tile[0] or k % tile[0]:
        return f"{m} tokens of {k} elements; a gather takes at most {tile[0]} tokens of whole tiles"
    token, acc = block.args
    if acc.first_use is not None:
        return "the body reads its output's element"
    extracts: list[Extract] = []
    for o in block.ops:
        if not isinstance(o, tensor.ExtractOp):
            continue
        t = o.tensor
        if len(shape_of(t)) != 2 or len(o.indices) != 2:
            return "a gather reads 2-d tensors"
        if isinstance(t, BlockArgument) and t.owner is block:
            return "a gather reads tensors from outside its body"
        row, col = (_address(i, block, token, 1) for i in o.indices)
        if col != ("token", 0) or row is None or row[0] != "k" or row[1] not in (1, tile[0]):
            return "a gather reads [k or k / 32, token] of each tensor"
        extracts.append(Extract(o, t, row[1]))
    address = _address_ops(block, {e.op for e in extracts})
    for o in block.ops:
        if o in address or isinstance(o, tensor.ExtractOp | linalg.YieldOp):
            continue
        if not isinstance(o, BODY_TYPES) or token in o.operands:
            return f"its body runs {o.name} on what a stage does not read"
    value = block.last_op.operands[0] if isinstance(block.last_op, linalg.YieldOp) else None
    if value is None:
        return "its body yields nothing"
    body = Body(
        block, [e.op.result for e in extracts], value, set(address) | {e.op for e in extracts}
    )
    return GatherSpec(op, op.inputs[0], m, k, extracts, body, element_of(op.res[0]))


def _address_ops(block: Block, extracts: set[Operation]) -> set[Operation]:
    """The ops whose results are read only as extract indices (or by such ops)."""
    out: set[Operation] = set()
    changed = True
    while changed:
        changed = False
        for o in block.ops:
            if o in out or o in extracts or isinstance(o, linalg.YieldOp) or not o.results:
                continue
            users = {u.operation for r in o.results for u in r.uses}
            if users and users <= (out | extracts):
                out.add(o)
                changed = True
    return out


# --------------------------------------------------------------------------------------
# The tokens' tables
# --------------------------------------------------------------------------------------


def token_spec(
    op: Operation,
    tokens: SSAValue,
    extents: tuple[int, ...],
    out: Access,
    value: Callable[[SSAValue], SSAValue],
) -> OpSpec:
    """A map over `extents` (dim 0 the token) whose element is `value(token)` (index
    arithmetic), an i32 written where `out` says."""
    ndims = len(extents)
    unit = LinearForm(0, tuple(1 if j == 0 else 0 for j in range(ndims)), ())
    src = resolve(tokens, [unit], ndims)
    assert not isinstance(src, str), "a vector reads as its elements"

    def build(args: Sequence[SSAValue], index: Callable[[int], SSAValue]) -> SSAValue:
        t = arith.IndexCastOp(args[0], IndexType()).result
        return arith.IndexCastOp(value(t), i32).result

    body = synthetic([element_of(tokens)], i32, build)
    return OpSpec(op, Kind.MAP, extents, frozenset(), [src], out, body)


def tile_table(spec: GatherSpec, tile: tuple[int, int]) -> OpSpec:
    """Each token's tile column, (1, m)."""
    m = spec.m
    out = Access(None, (1, m), (LinearForm(0, (0,), ()), LinearForm(0, (1,), ())), None)

    def value(t: SSAValue) -> SSAValue:
        return arith.DivUIOp(t, _index(tile[1])).result

    return token_spec(spec.op, spec.tokens, (m,), out, value)


def lane_table(spec: GatherSpec, tile: tuple[int, int]) -> OpSpec:
    """Each token's lane `t mod 32`, in a tile of its own: (1, 32 m)."""
    m, tc = spec.m, tile[1]
    out = Access(None, (1, tc * m), (LinearForm(0, (0, 0), ()), LinearForm(0, (tc, 1), ())), None)

    def value(t: SSAValue) -> SSAValue:
        return arith.RemUIOp(t, _index(tc)).result

    return token_spec(spec.op, spec.tokens, (m, tc), out, value)


def _index(v: int) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(v, IndexType())).result


# --------------------------------------------------------------------------------------
# The program
# --------------------------------------------------------------------------------------


@dataclass
class GatherPlan:
    """Every number the gather's program is built from."""

    spec: GatherSpec
    tile: tuple[int, int]
    blocks: list[tuple[int, int]]
    """Tile rows of each extract's tensor a token's column spans (one tile column)."""
    split: bool
    """Whether the K blocks are cut into steps of a tile's rows (more than 32 of them:
    a scale row is then a tile row and a row in it)."""
    buffers: list[BufferPlan]

    @property
    def k_tiles(self) -> int:
        return self.spec.k // self.tile[0]


def plan_gather(spec: GatherSpec, target: TargetAttr) -> GatherPlan | str:
    tile = target.tile
    tr = tile[0]
    kt = spec.k // tr
    split = kt > tr
    if split and kt % tr:
        return f"{kt} K blocks are not whole tiles of {tr}"
    blocks = []
    for e in spec.extracts:
        rows, _ = shape_of(e.tensor)
        need = spec.k if e.div == 1 else kt
        if rows < need:
            return f"%{e.tensor.name_hint or 'tensor'} has {rows} rows, the gather reads {need}"
        blocks.append((-(-need // tr), 1))
    loop = spec.m > 1
    depth = 2 if loop else 1
    buffers = [
        BufferPlan(f"in{j}", h * w, element_of(e.tensor), depth)
        for j, (e, (h, w)) in enumerate(zip(spec.extracts, blocks))
    ]
    buffers.append(BufferPlan("lane", 1, i32, depth))
    if loop:
        buffers += [
            BufferPlan("row", 1, i32, depth),
            BufferPlan("part", kt, spec.element, 1),
            BufferPlan("carry", kt, spec.element, 2),
        ]
    else:
        buffers.append(BufferPlan("out", kt, spec.element, 1))
    plan = GatherPlan(spec, tile, blocks, split, buffers)
    need = sum(b.bytes(tile) for b in buffers)
    if need > target.local_mem.data:
        return f"its buffers need {need:,} B of local memory, a site has {target.local_mem.data:,}"
    return plan


def build_gather(
    plan: GatherPlan,
    bound: Sequence[SSAValue],
    names: Sequence[str],
    program_name: str,
    target: TargetAttr,
) -> MapOp:
    """The gather's program: `bound` binds the extracts' tensors, then the tile table
    and the lane table."""
    spec = plan.spec
    tr, tc = plan.tile
    m, kt = spec.m, plan.k_tiles
    n = len(spec.extracts)
    alloc = Allocation(plan.buffers)
    p = ProgramBuilder([1], ["i0"], bound)
    loop = m > 1
    with ImplicitBuilder(p.block):
        tensors = [
            p.tensor(
                names[j],
                _pair(shape_of(e.tensor)),
                element_of(e.tensor),
                Role.INPUT,
                arg=j,
                hint=f"t{j}",
            )
            for j, e in enumerate(spec.extracts)
        ]
        tiles_t = p.tensor(names[n], (1, m), i32, Role.INPUT, arg=n, hint="tiles")
        lanes_t = p.tensor(names[n + 1], (1, tc * m), i32, Role.INPUT, arg=n + 1, hint="lanes")
        rows_t = None
        if loop:
            iota = dense_attr(TensorType(i32, (1, tc * m)), [j // tc for j in range(tc * m)])
            rows_t = p.tensor("token_rows", (1, tc * m), i32, Role.PARAM, values=iota, hint="rows")
        result = p.tensor(names[-1], (m, spec.k), spec.element, Role.OUTPUT, hint="result")
        bufs = {b.name: p.buffer(alloc.take(b.name)) for b in plan.buffers}
        whole = [(IterKind.PAR, tr), (IterKind.PAR, tc * kt)]
        ident = AffineExpr.dimension(0) * (tc * kt) + AffineExpr.dimension(1)

        def column(kb: SSAValue | None, into: SSAValue) -> SSAValue:
            """Load the token's column of every tensor and gather it into row 0."""
            vars_ = [kb] if kb is not None else []
            at = AffineMap(
                0, len(vars_), (AffineExpr.symbol(0) if kb is not None else AffineExpr.constant(0),)
            )
            zero = AffineMap(0, len(vars_), (AffineExpr.constant(0),))
            repeat = m if loop else 1
            pages = []
            for j, (e, blk) in enumerate(zip(spec.extracts, plan.blocks)):
                stride = -(-shape_of(e.tensor)[1] // tc)
                pages.append(
                    LoadOp(
                        tensors[j], bufs[f"in{j}"], zero, vars_, blk, stride, repeat, tiles_t, at
                    ).result
                )
            lane_at, lane_vars = origin(0, [(kb, 1)] if kb is not None else [])
            lane = LoadOp(lanes_t, bufs["lane"], lane_at, lane_vars, (1, 1), m, repeat).result
            if plan.split:
                axes = [(IterKind.PAR, kt // tr), (IterKind.PAR, tr), (IterKind.PAR, tr)]
                a_hi, a_lo, r = (AffineExpr.dimension(d) for d in range(3))
                a = a_hi * tr + a_lo
            else:
                axes = [(IterKind.PAR, kt), (IterKind.PAR, tr)]
                a_hi = a_lo = None
                a, r = AffineExpr.dimension(0), AffineExpr.dimension(1)
            ins: list[tuple[SSAValue, AffineExpr]] = []
            for page, e, (h, _) in zip(pages, spec.extracts, plan.blocks):
                if e.div == 1:
                    ins.append((page, r * (tc * h) + a * tc + AffineExpr.symbol(0)))
                elif plan.split:
                    assert a_hi is not None and a_lo is not None
                    ins.append((page, a_lo * (tc * h) + a_hi * tc + AffineExpr.symbol(0)))
                else:
                    ins.append((page, a * (tc * h) + AffineExpr.symbol(0)))
            ins.append((lane, AffineExpr.constant(0)))

            def body(args: Sequence[SSAValue]) -> SSAValue:
                def index(dim: int) -> SSAValue:
                    if plan.split:
                        hi = arith.MuliOp(IndexOp(0).result, _index(tr * tr)).result
                        lo = arith.MuliOp(IndexOp(1).result, _index(tr)).result
                        return arith.AddiOp(arith.AddiOp(hi, lo).result, IndexOp(2).result).result
                    k0 = arith.MuliOp(IndexOp(0).result, _index(tr)).result
                    return arith.AddiOp(k0, IndexOp(1).result).result

                return spec.body.emit(args[:n], index)

            return stage(
                "gather",
                axes,
                ins,
                into,
                a * tc + r,
                body,
                [n] * n + [-1],
            )

        if not loop:
            page = column(None, bufs["out"])
        else:
            assert rows_t is not None
            zero = stage("init", whole, [], bufs["carry"], ident, lambda _: _zero(spec.element))
            loop_block = Block(arg_types=[IndexType(), zero.type])
            kb, acc = loop_block.args
            kb.name_hint, acc.name_hint = "kb", "acc"
            with ImplicitBuilder(loop_block):
                part = column(kb, bufs["part"])
                row_at, row_vars = origin(0, [(kb, 1)])
                row = LoadOp(rows_t, bufs["row"], row_at, row_vars, (1, 1), m, m).result

                def place(args: Sequence[SSAValue]) -> SSAValue:
                    here = arith.CmpiOp(
                        IndexOp(0).result, arith.IndexCastOp(args[2], IndexType()).result, "eq"
                    )
                    return arith.SelectOp(here.result, args[1], args[0]).result

                placed = stage(
                    "place",
                    whole,
                    [(acc, ident), (part, AffineExpr.dimension(1)), (row, AffineExpr.constant(0))],
                    bufs["carry"],
                    ident,
                    place,
                )
                KYieldOp([placed])
            k_loop = KLoopOp(m, [zero], Region(loop_block))
            k_loop.results[0].name_hint = "gathered"
            page = k_loop.results[0]
        StoreOp(page, result, AffineMap(0, 0, (AffineExpr.constant(0),)), [], (1, kt), kt, 1)
    alloc.done()
    return MapOp(
        program_name,
        grid=[1],
        owns=AffineMap(1, 0, (AffineExpr.constant(0), AffineExpr.constant(0))),
        owns_size=(1, kt),
        target=target,
        plan=PlanAttr((1, 1), m if loop else 1, (1, kt)),
        numerics=NumericsAttr("exact")
        if spec.body.exact()
        else NumericsAttr("approx", "math ops as the site computes them"),
        ins=list(bound),
        result_types=[TensorType(spec.element, (m, spec.k))],
        body=p.finish([result]),
    )


def _zero(elem: Attribute) -> SSAValue:
    return arith.ConstantOp(FloatAttr(0.0, cast(AnyFloat, elem))).result


def _pair(shape: tuple[int, ...]) -> tuple[int, int]:
    """A 2-d shape (the gather reads 2-d tensors: matched)."""
    return shape[0], shape[1]
