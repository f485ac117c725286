"""
The rewrite: `linalg.matmul(x, q8.dequantize(values, scales))` -> a view of `x` and a
fold (or a view and a fold per chip, and the gather or sum of their results).

The pattern keeps no state between matches: what a module's run needs across them
(the target, the chips, the names given so far, the decisions made) is a `Lowering`
the pass makes and hands to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, shard, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, TensorType
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.ir_io import dense_array, dense_attr
from xdsl_spatial.dialects import q8
from xdsl_spatial.dialects.q8 import Q8_BLOCK, Q8Part
from xdsl_spatial.dialects.spatial import (
    FoldOp,
    ProgramOp,
    TargetAttr,
    ViewOp,
    element_bytes,
    element_name,
)
from xdsl_spatial.passes.cleanup import erase_if_unused
from xdsl_spatial.passes.q8_lower.build import build_fold, build_view
from xdsl_spatial.passes.q8_lower.match import Q8Matmul, match_q8_matmul
from xdsl_spatial.passes.q8_lower.names import (
    Naming,
    chip_suffix,
    q8_rows_name,
    value_name,
    view_tensor_name,
)
from xdsl_spatial.passes.q8_lower.options import ParallelOptions
from xdsl_spatial.passes.q8_lower.plan import (
    ChipPlan,
    FoldPlan,
    ViewPlan,
    declines,
    plan_product,
)
from xdsl_spatial.passes.q8_lower.report import Decision
from xdsl_spatial.passes.q8_lower.weights import WeightInit, weight_init
from xdsl_spatial.passes.templates import Templates
from xdsl_spatial.passes.tensor_parallel import ChipSplit, Split, annotated_split, option_split

SOURCES = (arith.ConstantOp, tensor.EmptyOp, q8.QuantizeOp, shard.ShardOp, shard.ShardingOp)
"""What made a product's operands that its rewrite may leave unused, besides the
ops it read directly."""


@dataclass
class Lowering:
    """What one run of the pass over a module shares among its matches: the chip it
    lowers for, the chips products are spread over, the names given so far, a
    decision per matmul and, unless None, the kinds of program made so far (a view or
    fold of the same plan is then a copy of the first, `templates.py`). The pass
    makes it; the pattern reads and extends it."""

    target: TargetAttr
    parallel: ParallelOptions = field(default_factory=ParallelOptions)
    names: Naming = field(default_factory=Naming)
    decisions: list[Decision] = field(default_factory=list)
    templates: Templates | None = None

    def where(self, op: MatmulOp) -> str:
        res = op.res[0].name_hint if op.res else None
        return f"linalg.matmul %{res}" if res else f"linalg.matmul #{len(self.decisions)}"

    def split(self, mm: Q8Matmul) -> ChipSplit | str | None:
        """Over which chips the product runs: as its `shard` annotations say, else as
        the options do (None: on one chip, as a product without chips)."""
        if mm.ann.any():
            return annotated_split(mm.ann, mm.k, mm.n, self.target.tile_cols.data)
        if self.parallel.chips == 1:
            return None
        axis = Split(self.parallel.split)
        return option_split(mm.k, mm.n, self.parallel.chips, axis, self.target.tile_cols.data)


@dataclass(frozen=True)
class LowerQ8Matmul(RewritePattern):
    """`linalg.matmul(x, q8.dequantize(values, scales))` -> view + fold, or a view and a
    fold per chip and the gather or sum of their results."""

    run: Lowering

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        run, where = self.run, self.run.where(op)
        mm = match_q8_matmul(op)
        if isinstance(mm, str):
            run.decisions.append(Decision(where, "", False, mm))
            return
        if (why := declines(mm.m, mm.k, mm.n, run.target)) is not None:
            run.decisions.append(Decision(where, mm.shape, False, why))
            return
        # A constant weight is quantised before anything is planned: one that is not
        # exactly Q8_0 is an error even where the gate would read the product dense.
        init = weight_init(mm.dequant, run.names.weight_as(mm.dequant))
        split = run.split(mm)
        if isinstance(split, str):
            run.decisions.append(Decision(where, mm.shape, False, split))
        elif split is not None:
            run.decisions.append(lower_over_chips(run, mm, init, split, rewriter, where))
        else:
            run.decisions.append(lower_on_one_chip(run, mm, init, rewriter, where))


def lower_on_one_chip(
    run: Lowering, mm: Q8Matmul, init: WeightInit, rewriter: PatternRewriter, where: str
) -> Decision:
    """A view and a fold; the product as it was when it cannot fold."""
    plan, view_plan, why = plan_product(mm.m, mm.k, mm.n, mm.scale_type, run.target)
    if why is None:
        why = run.names.view_conflict(mm.x, None, (0, mm.k))
    if plan is None or view_plan is None or why is not None:
        return Decision(where, mm.shape, False, why or "", plan, view_plan)
    view = view_of(run, mm, view_plan, rewriter, None, (0, mm.k))
    fold = make_fold(
        run,
        view,
        run.names.weight(mm.dequant),
        value_name(mm.op.res[0], "y"),
        init,
        plan,
        numerics_claim(mm, view_plan.act),
    )
    rewriter.replace(mm.op, fold)
    fold.results[0].name_hint = mm.op.res[0].name_hint
    erase_sources(mm, rewriter)
    return Decision(where, mm.shape, True, "", plan, view_plan)


def lower_over_chips(
    run: Lowering,
    mm: Q8Matmul,
    init: WeightInit,
    split: ChipSplit,
    rewriter: PatternRewriter,
    where: str,
) -> Decision:
    """A view and a fold per chip over its shard, then the chips' results gathered
    (N) or added in chip order (K); the product as it was when a chip cannot fold
    its share."""
    op = mm.op
    chips: list[ChipPlan] = []
    for c in range(split.chips):
        rows, cols = split.rows(c, mm.k), split.cols(c, mm.n)
        plan, view_plan, why = plan_product(
            mm.m, rows[1] - rows[0], cols[1] - cols[0], mm.scale_type, run.target
        )
        if why is None:
            why = run.names.view_conflict(mm.x, c, rows)
        if plan is None or view_plan is None or why is not None:
            reason = f"chip {c} of {split.chips} ({split.describe(c)}): {why}"
            return Decision(where, mm.shape, False, reason, split=split)
        made = (mm.x, c) not in run.names.views
        chips.append(ChipPlan(c, rows, cols, plan, view_plan, made))
    weight = run.names.weight(mm.dequant)
    y = value_name(op.res[0], "y")
    claim = numerics_claim(mm, run.target.act)
    results: list[SSAValue] = []
    for cp in chips:
        view = view_of(run, mm, cp.view, rewriter, cp.chip, cp.rows)
        fold = make_fold(
            run,
            view,
            weight,
            f"{y}{chip_suffix(cp.chip)}",
            shard_init(run, init, cp, op, rewriter),
            cp.plan,
            claim
            + f"; chip {cp.chip} of {split.chips}: {split.describe(cp.chip)}"
            + ("" if split.axis == Split.N else ", a partial sum the chips add in order"),
            cp.chip,
        )
        fold.results[0].name_hint = f"{y}{chip_suffix(cp.chip)}"
        rewriter.insert(fold, InsertPoint.before(op))
        results.append(fold.results[0])
    gather = gather_ops(results, split.axis, cast(TensorType[Attribute], op.res[0].type), y)
    rewriter.replace(op, gather, [gather[-1].results[0]] if gather else [results[0]])
    erase_sources(mm, rewriter)
    return Decision(where, mm.shape, True, "", split=split, chips=tuple(chips))


def make_fold(
    run: Lowering,
    view: SSAValue,
    weight: str,
    y_name: str,
    init: WeightInit,
    plan: FoldPlan,
    numerics: str,
    chip: int | None = None,
) -> FoldOp:
    """`build_fold` of the view, or a copy of the fold of the same kind the run made
    before (`run.templates`): a fold is its plan, claim, chip and weight's kind (each
    part bound from outside, zero or its constant values, and its repack), its inputs
    and names aside."""
    view_name = view_tensor_name(view)
    if run.templates is None:
        return build_fold(view, view_name, weight, y_name, init, plan, run.target, numerics, chip)
    parts = [init.part(p) for p in (Q8Part.VALUES, Q8Part.SCALES)]
    kinds = tuple(True if isinstance(v, SSAValue) else v for v in parts)
    key = (
        "fold",
        plan,
        run.target,
        numerics,
        chip,
        kinds,
        init.repack(Q8Part.VALUES),
        init.repack(Q8Part.SCALES),
    )

    def build(ins: Sequence[SSAValue], names: Sequence[str]) -> list[ProgramOp]:
        bound = iter(ins[1:])
        stand_in = [next(bound) if isinstance(v, SSAValue) else v for v in parts]
        w = WeightInit(stand_in[0], stand_in[1], init.repacks, init.shard)
        return [
            build_fold(ins[0], names[0], names[1], names[2], w, plan, run.target, numerics, chip)
        ]

    ins = [view, *(v for v in parts if isinstance(v, SSAValue))]
    made = run.templates.programs(key, ins, [view_name, weight, y_name], build)
    return cast(FoldOp, made[0])


def make_views(
    run: Lowering, x: SSAValue, x_name: str, view_name: str, plan: ViewPlan, chip: int | None
) -> list[ViewOp]:
    """`build_view` of `x`, or a copy of the view of the same plan and chip the run
    made before (`run.templates`)."""
    if run.templates is None:
        return build_view(x, x_name, view_name, plan, run.target, chip)

    def build(ins: Sequence[SSAValue], names: Sequence[str]) -> list[ProgramOp]:
        return list(build_view(ins[0], names[0], names[1], plan, run.target, chip))

    made = run.templates.programs(("view", plan, run.target, chip), [x], [x_name, view_name], build)
    return [cast(ViewOp, v) for v in made]


def erase_sources(mm: Q8Matmul, rewriter: PatternRewriter) -> None:
    for dead in mm.sources():
        erase_if_unused(dead, rewriter, SOURCES)


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


def shard_init(
    run: Lowering, init: WeightInit, cp: ChipPlan, op: Operation, rewriter: PatternRewriter
) -> WeightInit:
    """The chip's shard of the weight: a slice of each stored tensor (values K rows,
    scales their Q8_0 blocks), made once per shard and read by every product."""
    rows, cols = cp.rows, cp.cols
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
            parts.append(dense_attr(t, a.reshape(-1).tolist()))
        else:
            parts.append(weight_slice(run, v, (r0, r1), cols, cp.chip, op, rewriter))
    return WeightInit(parts[0], parts[1], init.repacks, (rows, cols))


def weight_slice(
    run: Lowering,
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
    if key not in run.names.slices:
        size = (rows[1] - rows[0], cols[1] - cols[0])
        sl = tensor.ExtractSliceOp(
            v, [rows[0], cols[0]], list(size), [1, 1], TensorType(t.element_type, size)
        )
        sl.result.name_hint = f"{value_name(v, 'w')}{chip_suffix(chip)}"
        run.names.slices[key] = sl.result
        rewriter.insert(sl, InsertPoint.before(op))
    return run.names.slices[key]


def view_of(
    run: Lowering,
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
    names = run.names
    if (made := names.views.get((mm.x, chip))) is not None:
        return made[0]
    base, writes = names.value(mm.x)
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
    if (last := names.after.get(mm.x)) is not None:
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
    views = make_views(run, x, tensor_name, name, plan, chip)
    for i, v in enumerate(views):
        v.results[0].name_hint = name + ("" if i == len(views) - 1 else f"_part{i}")
    inserted += views
    for o in inserted:
        rewriter.insert(o, point)
    if chip is not None:
        names.after[mm.x] = inserted[-1]
    names.views[(mm.x, chip)] = (views[-1].results[0], cols)
    return views[-1].results[0]


def gather_ops(
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
