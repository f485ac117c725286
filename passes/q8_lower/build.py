"""
Building the programs a plan describes: the view of an activation (`build_view`) and
the fold of a product (`build_fold`), emitted through xDSL's `ImplicitBuilder` (an op
made inside `with ImplicitBuilder(block)` lands at the end of that block). The
builders only emit what the plan says: every buffer is one of the plan's, allocated
once (`Allocation`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.builder import Builder, ImplicitBuilder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    i8,
)
from xdsl.ir import Attribute, Block, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from xdsl_spatial.core.ir_io import dense_attr
from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part, stored_name
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    FoldOp,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    LoadOp,
    NumericsAttr,
    PageType,
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
    YieldOp,
)
from xdsl_spatial.passes.q8_lower.names import chip_suffix
from xdsl_spatial.passes.q8_lower.plan import Allocation, BufferPlan, FoldPlan, ViewPlan, view_rows
from xdsl_spatial.passes.q8_lower.weights import WeightInit

Body = Callable[[Sequence[BlockArgument]], SSAValue]
"""A stage body: given the block's arguments (one element per input), the ops that
compute the yielded value, made inside the body's implicit builder."""


def linear(const: int = 0, **terms: int) -> AffineExpr:
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


def origin(base: int, steps: Sequence[tuple[SSAValue, int]]) -> tuple[AffineMap, list[SSAValue]]:
    """A move's origin `base + sum(coef * var)` as a map over its loop variables."""
    vars_: list[SSAValue] = []
    expr = AffineExpr.constant(base)
    for v, c in steps:
        if v not in vars_:
            vars_.append(v)
        expr = expr + AffineExpr.symbol(vars_.index(v)) * c
    return AffineMap(0, len(vars_), (expr,)), vars_


# --------------------------------------------------------------------------------------
# Stage bodies (built inside the body block's implicit builder)
# --------------------------------------------------------------------------------------


def to_f32(v: SSAValue) -> SSAValue:
    if isinstance(v.type, Float32Type):
        return v
    if isinstance(v.type, IntegerType):
        return arith.SIToFPOp(v, f32).result
    return arith.ExtFOp(v, f32).result


def f32_const(value: float) -> SSAValue:
    return arith.ConstantOp(FloatAttr(value, f32)).result


def row_select(v: SSAValue, row: int, index: SSAValue, zero: SSAValue) -> SSAValue:
    """`v` on row `row` of the iteration space (`index`, its first axis), `zero`
    elsewhere."""
    on_row = arith.CmpiOp(index, arith.ConstantOp(IntegerAttr(row, IndexType())), "eq")
    return arith.SelectOp(on_row, v, zero).result


def copy_body(args: Sequence[BlockArgument]) -> SSAValue:
    return args[0]


def zero_body(args: Sequence[BlockArgument]) -> SSAValue:
    return f32_const(0.0)


def product_body(args: Sequence[BlockArgument]) -> SSAValue:
    """`x * q * s` in fp32: an int8 times a bf16 is exact in fp32, the scale is fp32."""
    x, q, s = (to_f32(a) for a in args)
    return arith.MulfOp(arith.MulfOp(x, q), s).result


def sum_body(m: int, carried: bool) -> Body:
    """`carry + sum_r [row == r] * sum_r`: a single row's sum is every row's. The rows'
    selects read one `spatial.index` and one 0.0 (a 32-row fold's body had 62 more ops
    in each of its sums, SmolLM2's `@prefill` 15k of its 57k, which every pass after
    walks and `templates` copies)."""

    def body(args: Sequence[BlockArgument]) -> SSAValue:
        terms = list(args[1:] if carried else args)
        if m > 1:
            index, zero = IndexOp(0).result, f32_const(0.0)
            terms = [row_select(t, r, index, zero) for r, t in enumerate(terms)]
        acc = args[0] if carried else terms.pop(0)
        for t in terms:
            acc = arith.AddfOp(acc, t).result
        return acc

    return body


# --------------------------------------------------------------------------------------
# A program's body
# --------------------------------------------------------------------------------------


class ProgramBuilder:
    """The body of one program: its block (the item coordinates, then the inputs) and
    the ops that make its tensors, buffers, moves and stages. The ops land where the
    caller's implicit builder is (the body, or a K loop's body in it)."""

    def __init__(self, grid: Sequence[int], coord_names: Sequence[str], ins: Sequence[SSAValue]):
        self.grid = list(grid)
        self.ins = list(ins)
        self.block = Block(arg_types=[IndexType()] * len(grid) + [v.type for v in ins])
        self.coords = list(self.block.args[: len(grid)])
        self.args = list(self.block.args[len(grid) :])
        for c, n in zip(self.coords, coord_names):
            c.name_hint = n

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
        op.result.name_hint = hint
        return op.result

    def buffer(self, plan: BufferPlan) -> SSAValue:
        """A buffer lives for the whole program: allocated in its body, outside any loop."""
        op = BufferOp(plan.name, plan.tiles, plan.element, plan.depth)
        op.result.name_hint = plan.name
        return op.result

    def load(
        self,
        tensor: SSAValue,
        buffer: SSAValue,
        base: int,
        steps: Sequence[tuple[SSAValue, int]],
        block: tuple[int, int],
        stride: int,
        repeat: int = 1,
    ) -> SSAValue:
        at, vars_ = origin(base, steps)
        op = LoadOp(tensor, buffer, at, vars_, block, stride, repeat)
        op.result.name_hint = f"p_{buffer.name_hint}" if buffer.name_hint else None
        return op.result

    def store(
        self,
        page: SSAValue,
        tensor: SSAValue,
        base: int,
        steps: Sequence[tuple[SSAValue, int]],
        block: tuple[int, int],
        stride: int,
    ) -> None:
        at, vars_ = origin(base, steps)
        StoreOp(page, tensor, at, vars_, block, stride, 1)

    def stage(
        self,
        name: str,
        iters: Sequence[tuple[IterKind, int]],
        ins: Sequence[tuple[SSAValue, AffineExpr]],
        buffer: SSAValue,
        out: AffineExpr,
        body: Body,
        indirect: Sequence[int] | None = None,
    ) -> SSAValue:
        nd = len(iters)
        via = list(indirect) if indirect is not None else [-1] * len(ins)
        maps = [AffineMap(nd, 1 if v >= 0 else 0, (e,)) for (_, e), v in zip(ins, via)]
        elems = [p.type.element_type for p, _ in ins if isinstance(p.type, PageType)]

        @Builder.implicit_region(elems)
        def region(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(body(args))

        op = StageOp(
            name, iters, [p for p, _ in ins], maps, buffer, AffineMap(nd, 0, (out,)), region, via
        )
        op.result.name_hint = name
        return op.result

    def finish(self, ret: Sequence[SSAValue]) -> Region:
        self.block.add_op(ReturnOp(ret))
        return Region(self.block)


# --------------------------------------------------------------------------------------
# The view
# --------------------------------------------------------------------------------------


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
    chunks = plan.chunks
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
        p = ProgramBuilder([kbs, chunks] if m > 1 else [kbs], ["kb", "c"], ins)
        with ImplicitBuilder(p.block):
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
                    [(px, linear(d0=tc, d1=1))],
                    o,
                    linear(d0=tc, d1=1),
                    copy_body,
                )
                store_steps = [(kb, 1)]
                owns = AffineMap(1, 0, (linear(kb0, d0=1), linear()))
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
                    values=dense_attr(TensorType(ix, lanes.shape), lanes.reshape(-1).tolist()),
                    hint="lanes",
                )
                l_in = p.buffer(in_lanes)
                c = p.coords[1]
                pl = p.load(table, l_in, 0, [(c, rows)], (1, rows), chunks * rows)
                lifted = p.stage(
                    "lift_rows",
                    [(IterKind.PAR, g), (IterKind.PAR, rows * tc)],
                    [(px, linear(d0=tc, s0=1)), (pl, linear(d1=1))],
                    o,
                    linear(d0=rows * tc, d1=1),
                    copy_body,
                    indirect=[1, -1],
                )
                store_steps = [(kb, m), (c, rows)]
                owns = AffineMap(2, 0, (linear(kb0 * m, d0=m, d1=rows), linear()))
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


# --------------------------------------------------------------------------------------
# The fold
# --------------------------------------------------------------------------------------


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
    alloc = Allocation(plan.buffers())
    tr, tc = target.tile
    n_t, nb, g = plan.col_tiles, plan.k_blocks, plan.tail_blocks
    cols = wb * tc
    ins: list[SSAValue] = [view]
    arg_of: dict[Q8Part, int] = {}
    for part in (Q8Part.VALUES, Q8Part.SCALES):
        if isinstance(v := init.part(part), SSAValue):
            arg_of[part] = len(ins)
            ins.append(v)
    p = ProgramBuilder([plan.items], ["item"], ins)
    y = p.coords[0]
    pointwise = [(IterKind.PAR, tr), (IterKind.PAR, cols)]
    ident = linear(d0=cols, d1=1)

    def param(part: Q8Part, shape: tuple[int, int], elem: Attribute, hint: str) -> SSAValue:
        v = init.part(part)
        return p.tensor(
            stored_name(weight, part),
            shape,
            elem,
            Role.PARAM,
            arg=arg_of.get(part),
            values=v if isinstance(v, DenseIntOrFPElementsAttr) else None,
            repack=init.repack(part),
            hint=hint,
        )

    def block_sum(
        r: int, name: str, buf: SSAValue, px: SSAValue, pq: SSAValue, ps: SSAValue, blocks: int
    ) -> SSAValue:
        """Row r's `sum_b s[b, n] * sum_i x[r, 32b + i] * q[32b + i, n]`: a stage named
        as its buffer."""
        return p.stage(
            name,
            [(IterKind.SUM, blocks), (IterKind.PAR, cols), (IterKind.SUM, Q8_BLOCK)],
            [
                (px, linear(r * tc, d0=m * tc, d2=1)),
                (pq, linear(d2=blocks * cols, d0=cols, d1=1)),
                (ps, linear(d0=cols, d1=1)),
            ],
            buf,
            linear(d1=1),
            product_body,
        )

    with ImplicitBuilder(p.block):
        xt = p.tensor(
            view_name, (view_rows(m, k), Q8_BLOCK), plan.act, Role.INPUT, arg=0, hint="view"
        )
        qt = param(Q8Part.VALUES, (k, n), i8, "q")
        st = param(Q8Part.SCALES, (k // Q8_BLOCK, n), plan.scale, "s")
        yt = p.tensor(y_name, (m, n), f32, Role.OUTPUT, hint="y")
        partials: list[SSAValue] = []
        carried = None
        if nb:
            bx, bq, bs, run = (
                p.buffer(alloc.take(b)) for b in ("in_x", "in_q8", "in_scale", "run_sum")
            )
            zero = p.stage("init_sum", pointwise, [], run, ident, zero_body)
            names = plan.row_names("block")
            sums_in = [p.buffer(alloc.take(name)) for name in names]
            loop_block = Block(arg_types=[IndexType(), zero.type])
            kb, acc = loop_block.args
            kb.name_hint, acc.name_hint = "kb", "acc"
            with ImplicitBuilder(loop_block):
                px = p.load(xt, bx, 0, [(kb, m)], (m, 1), 1, nb)
                pq = p.load(qt, bq, 0, [(kb, tr * n_t), (y, wb)], (tr, wb), n_t, nb)
                ps = p.load(st, bs, 0, [(kb, n_t), (y, wb)], (1, wb), n_t, nb)
                sums = [
                    block_sum(r, name, buf, px, pq, ps, Q8_BLOCK)
                    for r, (name, buf) in enumerate(zip(names, sums_in))
                ]
                folded = p.stage(
                    "fold_sum",
                    pointwise,
                    [(acc, ident)] + [(s, linear(d1=1)) for s in sums],
                    run,
                    ident,
                    sum_body(m, carried=True),
                )
                KYieldOp([folded])
            loop = KLoopOp(nb, [zero], Region(loop_block))
            loop.results[0].name_hint = "sum"
            carried = loop.results[0]
        if g:
            bx, bq, bs = (
                p.buffer(alloc.take(b)) for b in ("in_x_tail", "in_q8_tail", "in_scale_tail")
            )
            px = p.load(xt, bx, nb * m, [], (m, 1), 1)
            pq = p.load(qt, bq, tr * nb * n_t, [(y, wb)], (g, wb), n_t)
            ps = p.load(st, bs, nb * n_t, [(y, wb)], (1, wb), n_t)
            for r, name in enumerate(plan.row_names("tail")):
                buf = p.buffer(alloc.take(name))
                partials.append(block_sum(r, name, buf, px, pq, ps, g))
        out = p.buffer(alloc.take("out"))
        result_ins = ([(carried, ident)] if carried is not None else []) + [
            (t, linear(d1=1)) for t in partials
        ]
        if carried is not None and not partials:
            body = copy_body
        else:
            body = sum_body(m, carried=carried is not None)
        result = p.stage("result", pointwise, result_ins, out, ident, body)
        p.store(result, yt, 0, [(y, wb)], (1, wb), n_t)
    alloc.done()
    name = f"q8_gemv_{k}x{n}_w{wb}" if m == 1 else f"q8_gemm_{m}x{k}x{n}_w{wb}"
    return FoldOp(
        name + chip_suffix(chip),
        grid=[plan.items],
        owns=AffineMap(1, 0, (linear(), linear(d0=wb))),
        owns_size=(1, wb),
        target=target,
        plan=PlanAttr((1, plan.items), max(nb, 1), (1, wb)),
        numerics=NumericsAttr("approx", numerics),
        ins=ins,
        result_types=[TensorType(f32, (m, n))],
        body=p.finish([yt]),
        chip=chip,
    )
