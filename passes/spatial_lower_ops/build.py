"""
Building the program a plan describes (`build_program`), with xDSL's builders: its
tensors, buffers, loads, the stage that runs the op's body over the stage axes, the K
loop that folds a reduced axis a K block at a time into an fp32 carry, and the store
of each item's rectangle of the result. The builder only emits what the plan says.

```mlir
%r = spatial.fold "norm_sum_1x576" grid [1] owns (d0) -> (0, 0) size [1, 1] ...
    ins(%x : tensor<1x576xf32>) -> tensor<1x1xf32> {
^bb0(%item: index, %x_in: tensor<1x576xf32>):
  %t0 = spatial.tensor "blk.0.x" external(%x_in : tensor<1x576xf32>) : !spatial.tensor<1x576xf32, input>
  %t1 = spatial.tensor "blk.0.ss" zero : !spatial.tensor<1x1xf32, output>
  %in0 = spatial.buffer "in0" : !spatial.buffer<18xf32, depth 1>
  %out = spatial.buffer "out" : !spatial.buffer<1xf32, depth 1>
  %p0 = spatial.load %t0[0] block 1x18 stride 18 repeat 1 into %in0 : ...
  %s = spatial.stage "sum" iters(sum 576) ins(%p0[d0]) into %out[0] : ... {
  ^bb0(%a: f32):
    %sq = arith.mulf %a, %a : f32
    spatial.yield %sq : f32
  }
  spatial.store %s to %t1[0] block 1x1 stride 1 repeat 1 : ...
  spatial.return %t1 : !spatial.tensor<1x1xf32, output>
}
```
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar, cast

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, FloatAttr, IndexType, TensorType, f32
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.core.ir_io import dense_attr
from xdsl_spatial.dialects.spatial import (
    FoldOp,
    IndexOp,
    IterKind,
    KLoopOp,
    KYieldOp,
    MapOp,
    NumericsAttr,
    PageType,
    PlanAttr,
    ProgramOp,
    Role,
    StageOp,
    TargetAttr,
    ViewOp,
    YieldOp,
)
from xdsl_spatial.passes.q8_lower.build import ProgramBuilder
from xdsl_spatial.passes.q8_lower.plan import Allocation
from xdsl_spatial.passes.spatial_lower_ops.plan import Move, OpPlan
from xdsl_spatial.passes.spatial_lower_ops.spec import IDENTITY, Combiner, Kind, index_value

COMBINE: dict[Combiner, type[arith.AddfOp] | type[arith.MaximumfOp]] = {
    Combiner.SUM: arith.AddfOp,
    Combiner.MAX: arith.MaximumfOp,
}
ITER: dict[Combiner, IterKind] = {Combiner.SUM: IterKind.SUM, Combiner.MAX: IterKind.MAX}

Scalar = Callable[[Sequence[SSAValue]], SSAValue]
"""A stage body: given its arguments, its value (its ops made where the implicit
builder is: the body's block)."""


def affine(form: LinearForm, axes: Sequence[int]) -> AffineExpr:
    """A form over the space's axes as an expression of the stage dims `axes`."""
    e = AffineExpr.constant(form.const)
    for k, a in enumerate(axes):
        if c := form.dims[a]:
            e = e + AffineExpr.dimension(k) * c
    return e


def stage(
    name: str,
    iters: Sequence[tuple[IterKind, int]],
    ins: Sequence[tuple[SSAValue, AffineExpr]],
    buffer: SSAValue,
    out: AffineExpr,
    body: Scalar,
    indirect: Sequence[int] | None = None,
) -> SSAValue:
    """A stage (made where the implicit builder is) whose body `body` builds; input
    `k` adds input `indirect[k]`'s element as `s0` when that is not -1. A stage of no
    axis (one point) has one of extent 1."""
    iters = list(iters) or [(IterKind.PAR, 1)]
    nd = len(iters)
    via = list(indirect) if indirect is not None else [-1] * len(ins)
    elems = [cast(PageType, p.type).element_type for p, _ in ins]
    block = Block(arg_types=elems)
    with ImplicitBuilder(block):
        YieldOp(body(block.args))
    op = StageOp(
        name,
        iters,
        [p for p, _ in ins],
        [AffineMap(nd, 1 if v >= 0 else 0, (e,)) for (_, e), v in zip(ins, via)],
        buffer,
        AffineMap(nd, 0, (out,)),
        Region(block),
        via,
    )
    op.result.name_hint = name
    return op.result


def _const(value: float) -> SSAValue:
    return arith.ConstantOp(FloatAttr(value, f32)).result


def _combine(c: Combiner, init: float | None) -> Scalar:
    """`combine(a, b)` of two pages' elements (`combine(init, a)` of one)."""

    def body(args: Sequence[SSAValue]) -> SSAValue:
        if init is not None and len(args) == 1:
            return COMBINE[c](_const(init), args[0]).result
        if len(args) == 1:
            return args[0]
        return COMBINE[c](args[0], args[1]).result

    return body


def program_class(kind: Kind) -> type[ProgramOp]:
    if kind in (Kind.REDUCE, Kind.CONTRACT):
        return FoldOp
    if kind == Kind.COPY:
        return ViewOp
    return MapOp


def build_program(
    plan: OpPlan,
    bound: Sequence[SSAValue],
    names: Sequence[str],
    program_name: str,
    target: TargetAttr,
    numerics: NumericsAttr,
) -> ProgramOp:
    """The program of `plan`: `bound`, the 2-d value each input tensor binds; `names`,
    each tensor's name on the chip (the result's last)."""
    spec = plan.spec
    space = plan.space
    alloc = Allocation(plan.buffers)
    tr, tc = plan.tile
    stage_axes = plan.stage_axes
    coord_names = [f"i{k}" for k in range(len(plan.grid))]
    p = ProgramBuilder(plan.grid, coord_names, bound)
    trip = plan.trip_axis
    out_t = plan.tensors[-1]
    result_type = TensorType(out_t.element, out_t.dims)

    def steps(mv: Move, kb: SSAValue | None) -> list[tuple[SSAValue, int]]:
        out: list[tuple[SSAValue, int]] = [(p.coords[k], s) for k, s in enumerate(mv.per_item) if s]
        if mv.per_trip and kb is not None:
            out.append((kb, mv.per_trip))
        return out

    with ImplicitBuilder(p.block):
        tensors = []
        arg = 0
        for i, t in enumerate(plan.tensors[:-1]):
            if t.values is not None:
                values = dense_attr(TensorType(t.element, t.dims), list(t.values))
                tensors.append(
                    p.tensor(names[i], t.dims, t.element, Role.PARAM, values=values, hint=f"t{i}")
                )
                continue
            tensors.append(p.tensor(names[i], t.dims, t.element, Role.INPUT, arg=arg, hint=f"t{i}"))
            arg += 1
        result = p.tensor(names[-1], out_t.dims, out_t.element, Role.OUTPUT, hint="result")
        buffers = {b.name: p.buffer(alloc.take(b.name)) for b in plan.buffers}
        pages: dict[int, SSAValue] = {}

        def load(i: int, kb: SSAValue | None) -> None:
            mv = plan.loads[i]
            repeat = plan.trips if kb is not None else 1
            pages[i] = p.load(
                tensors[mv.tensor],
                buffers[f"in{i}"],
                mv.first,
                steps(mv, kb),
                mv.block,
                mv.stride,
                repeat,
            )

        for i in range(len(plan.loads)):
            if not plan.in_loop(i):
                load(i, None)

        kinds = [
            ITER[spec.combiner]
            if space.axes[a].dim in spec.reduced and spec.combiner
            else IterKind.PAR
            for a in stage_axes
        ]
        iters = list(zip(kinds, (space.axes[a].extent for a in stage_axes)))
        position = {a: k for k, a in enumerate(stage_axes)}

        def main_body(args: Sequence[SSAValue]) -> SSAValue:
            def index(dim: int) -> SSAValue:
                terms = [
                    (IndexOp(position[a]).result, space.axes[a].scale) for a in space.of_dim(dim)
                ]
                return index_value(terms)

            return spec.body.emit(args, index)

        def main(into: SSAValue) -> SSAValue:
            ins: list[tuple[SSAValue, AffineExpr]] = []
            via: list[int] = []
            tables: list[tuple[SSAValue, AffineExpr]] = []
            for r in plan.reads:
                offset = affine(r.offset, stage_axes)
                if r.table is None or r.table_offset is None:
                    via.append(-1)
                else:
                    via.append(len(plan.reads) + len(tables))
                    offset = offset + AffineExpr.symbol(0)
                    tables.append((pages[r.table], affine(r.table_offset, stage_axes)))
                ins.append((pages[r.load], offset))
            return stage(
                str(spec.kind),
                iters,
                ins + tables,
                into,
                affine(plan.out_offset, stage_axes),
                main_body,
                via + [-1] * len(tables),
            )

        page_tiles = plan.owns_size[0] * plan.owns_size[1]
        whole = [(IterKind.PAR, tr), (IterKind.PAR, tc * page_tiles)]
        ident = AffineExpr.dimension(0) * (tc * page_tiles) + AffineExpr.dimension(1)
        c = spec.combiner
        if trip is not None:
            assert c is not None
            carry_buf = buffers["carry"]
            zero = stage("init", whole, [], carry_buf, ident, lambda _: _const(IDENTITY[c]))
            loop_block = Block(arg_types=[IndexType(), zero.type])
            kb, acc = loop_block.args
            kb.name_hint, acc.name_hint = "kb", "acc"
            with ImplicitBuilder(loop_block):
                for i in range(len(plan.loads)):
                    if plan.in_loop(i):
                        load(i, kb)
                part = main(buffers["part"])
                folded = stage(
                    "fold",
                    whole,
                    [(acc, ident), (part, ident)],
                    carry_buf,
                    ident,
                    _combine(c, None),
                )
                KYieldOp([folded])
            loop = KLoopOp(plan.trips, [zero], Region(loop_block))
            loop.results[0].name_hint = "carried"
            out_page = stage(
                "result",
                whole,
                [(loop.results[0], ident)],
                buffers["out"],
                ident,
                _combine(c, spec.init),
            )
        elif c is not None and spec.init is not None:
            part = main(buffers["part"])
            out_page = stage(
                "result", whole, [(part, ident)], buffers["out"], ident, _combine(c, spec.init)
            )
        else:
            out_page = main(buffers["out"])
        st = plan.store
        p.store(out_page, result, st.first, steps(st, None), st.block, st.stride)
    alloc.done()
    k_plan = PlanAttr((1, plan.items), plan.trips, plan.owns_size)
    region = p.finish([result])
    return program_op(
        program_class(spec.kind),
        program_name,
        plan,
        target,
        k_plan,
        numerics,
        bound,
        result_type,
        region,
    )


ProgramT = TypeVar("ProgramT", bound=ProgramOp)


class ItemsOwning(Protocol):
    """What a program's plan says of its items: their grid, and the rectangle of tiles
    each owns (item 0's first tile and its step per grid axis)."""

    @property
    def grid(self) -> list[int]: ...
    @property
    def owns_size(self) -> tuple[int, int]: ...
    @property
    def owns_first(self) -> tuple[int, int]: ...
    @property
    def owns_per_item(self) -> tuple[tuple[int, int], ...]: ...


def program_op(
    cls: type[ProgramT],
    name: str,
    plan: ItemsOwning,
    target: TargetAttr,
    k_plan: PlanAttr,
    numerics: NumericsAttr,
    ins: Sequence[SSAValue],
    result_type: Attribute,
    body: Region,
) -> ProgramT:
    """The program of `plan`'s items over `body`."""
    first, steps = plan.owns_first, plan.owns_per_item
    owns = AffineMap(
        len(plan.grid),
        0,
        (owns_expr(first[0], [s[0] for s in steps]), owns_expr(first[1], [s[1] for s in steps])),
    )
    return cls(
        name,
        grid=plan.grid,
        owns=owns,
        owns_size=plan.owns_size,
        target=target,
        plan=k_plan,
        numerics=numerics,
        ins=list(ins),
        result_types=[result_type],
        body=body,
    )


def owns_expr(first: int, steps: Sequence[int]) -> AffineExpr:
    e = AffineExpr.constant(first)
    for k, s in enumerate(steps):
        if s:
            e = e + AffineExpr.dimension(k) * s
    return e


def is_f32(t: Attribute) -> bool:
    return isinstance(t, Float32Type)
