"""
The rewrites: one `RewritePattern` per source op (a `linalg.generic`, an `arith` or
`math` op on tensors, a `tensor.insert_slice` at a run-time position, a gather by
token ids), each a program in its place. The patterns keep no state between matches:
what a run over a module shares (the target, the kind of each value made so far, a
decision per op) is a `Lowering` the pass hands them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.program_names import (
    INDEX,
    OpKind,
    program_name,
    unique_names,
)
from xdsl_spatial.dialects.spatial import NumericsAttr, ProgramOp, TargetAttr
from xdsl_spatial.passes.cleanup import erase_if_unused
from xdsl_spatial.passes.spatial_lower_ops.access import Access, shape_of
from xdsl_spatial.passes.spatial_lower_ops.build import build_program
from xdsl_spatial.passes.spatial_lower_ops.cache import (
    InsertSpec,
    Table,
    at_value,
    build_insert,
    index_spec,
    lane_row_value,
    lane_value,
    match_insert,
    match_row_write,
    plan_insert,
    rows_value,
)
from xdsl_spatial.passes.spatial_lower_ops.gather import (
    build_gather,
    lane_table,
    match_gather,
    plan_gather,
    tile_table,
)
from xdsl_spatial.passes.spatial_lower_ops.keys import inputs, program_key
from xdsl_spatial.passes.spatial_lower_ops.plan import OpPlan, plan_op
from xdsl_spatial.passes.spatial_lower_ops.report import Decision, host_ops
from xdsl_spatial.passes.spatial_lower_ops.reshape import reshaped, to_chip
from xdsl_spatial.passes.spatial_lower_ops.spec import (
    ELEMENTWISE,
    Combiner,
    Kind,
    OpSpec,
    spec_of_elementwise,
    spec_of_generic,
    spec_of_transpose,
)
from xdsl_spatial.passes.templates import Templates

SOURCES = (
    arith.ConstantOp,
    tensor.EmptyOp,
    linalg.FillOp,
    tensor.ExpandShapeOp,
    tensor.CollapseShapeOp,
    tensor.ExtractSliceOp,
    linalg.TransposeOp,
    tensor.ExtractOp,
    arith.IndexCastOp,
)
"""What made an op's operands that its rewrite may leave unused."""


@dataclass
class Lowering:
    """What one run of the pass shares among its matches."""

    target: TargetAttr
    decisions: list[Decision] = field(default_factory=list)
    kinds: dict[SSAValue, OpKind] = field(default_factory=dict)
    """The kind of each program result made so far (what reads it is classified by)."""
    reduced: set[SSAValue] = field(default_factory=set)
    """Results of reductions (a map that reads one is the rest of that norm)."""
    on_chip: dict[SSAValue, SSAValue] = field(default_factory=dict)
    """The 2-d value each tensor of another rank is bound as (one reshape each)."""
    seen: set[Operation] = field(default_factory=set)
    """The ops a decision was made about (the others left on the host are reported
    at the end: `report_the_rest`)."""
    plans: dict[Hashable, OpPlan] = field(default_factory=dict)
    templates: Templates = field(default_factory=Templates)
    """The plans and programs made so far, by their key (`keys.py`): an op of a key
    seen before gets a copy of its program."""
    indices: dict[tuple[object, ...], SSAValue] = field(default_factory=dict)
    """The index programs made so far (where a cache write lands), by what they
    compute: every layer's write at one position shares them."""

    def where(self, op: Operation) -> str:
        self.seen.add(op)
        res = op.results[0].name_hint if op.results else None
        return f"{op.name} %{res}" if res else f"{op.name} #{len(self.decisions)}"

    def classify(self, spec: OpSpec) -> OpKind:
        """The op kind of `spec` from what it reads (see `names`)."""
        read = [self.kinds.get(a.bound) for a in spec.ins]
        if spec.kind == Kind.CONTRACT or OpKind.ATTENTION in read:
            return OpKind.ATTENTION
        if spec.kind == Kind.REDUCE or any(a.bound in self.reduced for a in spec.ins):
            return OpKind.NORMS
        return OpKind.ELEMENTWISE


def numerics_of(spec: OpSpec, act: str) -> NumericsAttr:
    """The claim: exact for a map of IEEE-rounded ops and a max; otherwise why not."""
    body = spec.body
    if spec.kind == Kind.CONTRACT:
        return NumericsAttr("approx", f"products of {act} factors summed in fp32")
    if spec.combiner == Combiner.SUM:
        return NumericsAttr("approx", "fp32 sums in an order of their own")
    if not body.exact():
        names = sorted({o.name for o in body.block.ops if o.name.startswith("math.")})
        return NumericsAttr("approx", f"{', '.join(names)} as the site computes it")
    return NumericsAttr("exact")


def emit_program(
    run: Lowering,
    spec: OpSpec,
    what: str,
    rewriter: PatternRewriter,
    before: Operation,
    name_hint: str | None,
    kind: OpKind | None = None,
) -> tuple[SSAValue, OpPlan] | str:
    """`spec`'s program, planned and built before `before`: its 2-d result and plan,
    or why there is none. `kind`: the op kind (default: read off the dataflow)."""
    kind = kind or run.classify(spec)
    numerics = numerics_of(spec, str(run.target.act))
    key = program_key(spec, what, kind, numerics)
    plan = run.plans.get(key) if key is not None else None
    if plan is None:
        made = plan_op(spec, run.target)
        if isinstance(made, str):
            return made
        plan = made
        if key is not None:
            run.plans[key] = plan
    values = inputs(spec)  # (a plan's tensors hold the values of the op it was made for)
    bound = [on_chip(run, v, rewriter) for v in values]
    tables = sum(1 for t in plan.tensors[:-1] if t.value is None)
    names = unique_names(
        [tensor_name(v, i) for i, v in enumerate(values)]
        + [tensor_name(None, 0)] * tables
        + [name_hint or "result"]
    )
    name = program_name(kind, what, spec.extents)

    def build(ins: Sequence[SSAValue], names: Sequence[str]) -> list[ProgramOp]:
        return [build_program(plan, ins, names, name, run.target, numerics)]

    # built once a key (on stand-ins for its inputs), then copied (`passes/templates.py`)
    [program] = (
        build(bound, names) if key is None else run.templates.programs(key, bound, names, build)
    )
    result = place_program(run, program, kind, before, name_hint, rewriter)
    if spec.kind == Kind.REDUCE and kind == OpKind.NORMS:
        run.reduced.add(result)
    return result, plan


def place_program(
    run: Lowering,
    program: Operation,
    kind: OpKind,
    before: Operation,
    name_hint: str | None,
    rewriter: PatternRewriter,
) -> SSAValue:
    """`program` inserted before `before`: its result, named `name_hint`, of `kind`."""
    rewriter.insert(program, InsertPoint.before(before))
    result = program.results[0]
    result.name_hint = name_hint
    run.kinds[result] = kind
    return result


def rewrite_spec(run: Lowering, spec: OpSpec, what: str, rewriter: PatternRewriter) -> Decision:
    """Plan and build `spec`'s program in place of its op; the op as it was when
    there is no plan."""
    op = spec.op
    where = run.where(op)
    shape = "x".join(str(e) for e in spec.extents)
    made = emit_program(run, spec, what, rewriter, op, op.results[0].name_hint)
    if isinstance(made, str):
        return Decision(where, shape, False, made)
    result, plan = made
    replace_by_chip_value(op, result, rewriter)
    return Decision(where, shape, True, "", plan, plan_name(result))


def plan_name(v: SSAValue) -> str:
    from xdsl_spatial.dialects.spatial import ProgramOp

    op = v.owner
    return op.program_name.data if isinstance(op, ProgramOp) else ""


def replace_by_chip_value(op: Operation, value: SSAValue, rewriter: PatternRewriter) -> None:
    """Replace `op`'s one result by the 2-d `value` (read back at the result's type
    through a reshape), then erase what made its operands if nothing else reads it."""
    back = reshaped(value, shape_of(op.results[0]))
    for r in back:
        rewriter.insert(r, InsertPoint.before(op))
    if back:
        back[-1].results[0].name_hint = op.results[0].name_hint
    sources = list(op.operands)
    rewriter.replace(op, [], [back[-1].results[0] if back else value])
    for s in sources:
        erase_if_unused(s.owner if isinstance(s.owner, Operation) else None, rewriter, SOURCES)


def tensor_name(v: SSAValue | None, i: int) -> str:
    """A program tensor's name: its value's, a table's `rows`, else `t<i>`."""
    if v is None:
        return "rows"
    return v.name_hint or f"t{i}"


def on_chip(run: Lowering, v: SSAValue, rewriter: PatternRewriter) -> SSAValue:
    """`v` as the 2-d tensor the chip holds: itself, or a reshape of it made once,
    right after `v` is."""
    if v not in run.on_chip:
        ops = to_chip(v)
        if isinstance(v, BlockArgument):
            at = InsertPoint.at_start(v.block)
        else:
            at = InsertPoint.after(cast(Operation, v.owner))
        for r in ops:  # each before the op that followed the root: in order
            rewriter.insert(r, at)
        run.on_chip[v] = ops[-1].results[0] if ops else v
    return run.on_chip[v]


@dataclass(frozen=True)
class LowerGeneric(RewritePattern):
    """A `linalg.generic` on static tensors -> a map, fold or view program."""

    run: Lowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.GenericOp) or _inside_program(op):
            return
        if any(isinstance(o, tensor.ExtractOp) for o in op.body.block.ops):
            self.run.decisions.append(lower_gather(self.run, op, rewriter))
            return
        write = match_row_write(op)
        made = lower_cache_write(self.run, write, rewriter) if write is not None else None
        if made is not None:
            self.run.decisions.append(made)
            return
        spec = spec_of_generic(op, self.run.target.act)
        if isinstance(spec, str):
            self.run.decisions.append(Decision(self.run.where(op), "", False, spec))
            return
        self.run.decisions.append(rewrite_spec(self.run, spec, _what(spec), rewriter))


@dataclass(frozen=True)
class LowerElementwise(RewritePattern):
    """An `arith` or `math` op on tensors -> a map program."""

    run: Lowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, ELEMENTWISE) or not _on_tensors(op) or _inside_program(op):
            return
        spec = spec_of_elementwise(op)
        if isinstance(spec, str):
            self.run.decisions.append(Decision(self.run.where(op), "", False, spec))
            return
        what = op.name.split(".")[-1]
        self.run.decisions.append(rewrite_spec(self.run, spec, what, rewriter))


@dataclass(frozen=True)
class LowerInsertSlice(RewritePattern):
    """A `tensor.insert_slice` at a run-time position (a KV cache write) -> the
    programs that find where it lands and the write of those tiles."""

    run: Lowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tensor.InsertSliceOp) or _inside_program(op):
            return
        run = self.run
        spec = match_insert(op)
        if isinstance(spec, str):
            shape = "x".join(str(e) for e in shape_of(op.source))
            run.decisions.append(Decision(run.where(op), shape, False, spec))
            return
        made = lower_cache_write(run, spec, rewriter)
        if made is not None:
            run.decisions.append(made)


def lower_cache_write(
    run: Lowering, spec: InsertSpec, rewriter: PatternRewriter
) -> Decision | None:
    """A cache write (`cache.py`) -> the programs that find where it lands and the
    write of those tiles (its decision); a row write that has no plan: None (it is
    lowered as the map it is), an insert's: the reason."""
    op = spec.op
    where, shape = run.where(op), "x".join(str(e) for e in shape_of(spec.source))
    plan = plan_insert(spec, run.target)
    if isinstance(plan, str):
        return None if spec.rows else Decision(where, shape, False, plan)
    n = spec.rows
    tables: list[tuple[str, Table, tuple[int, ...], int | None, list[tuple[int, int]]]]
    if n:  # a row write: an entry a row, a lane tile a row (`lane_row_value`)
        tile_cols = run.target.tile[1]
        tables = [
            ("at", at_value(plan), (1, n), 1, []),
            ("lane", lane_row_value(plan), (n, tile_cols), 0, [(1, n * tile_cols)]),
        ]
    else:
        tables = [
            ("at", at_value(plan), (1, 1), None, []),
            ("lane", lane_value(plan), (1, 1), None, []),
        ]
    if spec.size > 1:
        tables.append(("rows", rows_value(plan), (1, plan.tensors[4].dims[1]), None, []))
    values: list[SSAValue] = []
    for what, value, dims, row, wanted in tables:
        key: tuple[object, ...] = (spec.offset, n, what, spec.extent, spec.size, plan.window)
        if what == "at":  # the window's first tile, scaled by the cache's row of tiles
            key += (plan.along, plan.tensors[0].dims)
        if key not in run.indices:
            made = emit_program(
                run,
                index_spec(op, spec.offset, dims, value, row, wanted),
                f"{INDEX}{what}",
                rewriter,
                op,
                f"{what}",
                OpKind.CACHE,
            )
            assert not isinstance(made, str), "a map of one position a row fits any site"
            run.indices[key] = made[0]
        values.append(run.indices[key])
    bound = [on_chip(run, cast(SSAValue, t.value), rewriter) for t in plan.tensors[:2]]
    names = unique_names(
        [tensor_name(plan.tensors[0].value, 0), tensor_name(plan.tensors[1].value, 1)]
        + [f"{w}" for w, *_ in tables]
    )
    name = program_name(OpKind.CACHE, "write", shape_of(spec.source))
    program = build_insert(plan, [*bound, *values], names, name, run.target)
    result = place_program(run, program, OpKind.CACHE, op, op.results[0].name_hint, rewriter)
    replace_by_chip_value(op, result, rewriter)
    return Decision(where, shape, True, "", None, name)


def lower_gather(run: Lowering, op: linalg.GenericOp, rewriter: PatternRewriter) -> Decision:
    """A gather by token ids -> the tokens' tables and the gather's program."""
    where = run.where(op)
    spec = match_gather(op, run.target.tile)
    if isinstance(spec, str):
        return Decision(where, "", False, spec)
    shape = f"{spec.m}x{spec.k}"
    plan = plan_gather(spec, run.target)
    if isinstance(plan, str):
        return Decision(where, shape, False, plan)
    tables = []
    for what, table in (("tiles", tile_table), ("lanes", lane_table)):
        made = emit_program(
            run,
            table(spec, run.target.tile),
            f"{INDEX}{what}",
            rewriter,
            op,
            f"token_{what}",
            OpKind.EMBEDDING,
        )
        if isinstance(made, str):
            return Decision(where, shape, False, f"its token {what}: {made}")
        tables.append(made[0])
    bound = [on_chip(run, e.tensor, rewriter) for e in spec.extracts]
    names = unique_names(
        [tensor_name(e.tensor, j) for j, e in enumerate(spec.extracts)]
        + ["token_tiles", "token_lanes", op.results[0].name_hint or "result"]
    )
    name = program_name(OpKind.EMBEDDING, "gather", (spec.m, spec.k))
    program = build_gather(plan, [*bound, *tables], names, name, run.target)
    result = place_program(run, program, OpKind.EMBEDDING, op, op.results[0].name_hint, rewriter)
    replace_by_chip_value(op, result, rewriter)
    return Decision(where, shape, True, "", None, name)


@dataclass(frozen=True)
class LowerTranspose(RewritePattern):
    """A `linalg.transpose` the host still reads after the ops that read it through
    were lowered -> a copy (a view program)."""

    run: Lowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.TransposeOp) or _inside_program(op):
            return
        spec = spec_of_transpose(op)
        if isinstance(spec, str):
            self.run.decisions.append(Decision(self.run.where(op), "", False, spec))
            return
        self.run.decisions.append(rewrite_spec(self.run, spec, "transpose", rewriter))


def report_the_rest(run: Lowering, fn: Operation) -> None:
    """A decision for every op left computing on the host that none was made about:
    an op of no kind the pass lowers, or one that only serves an op left."""
    for op in host_ops(fn):
        if op in run.seen:
            continue
        users = {u.operation for r in op.results for u in r.uses}
        why = (
            f"it only feeds ops left on the host ({', '.join(sorted({u.name for u in users}))})"
            if users
            and all(u.parent_block() is op.parent_block() for u in users)
            and not isinstance(op, linalg.GenericOp)
            else f"no lowering of {op.name}"
        )
        run.decisions.append(Decision(run.where(op), "", False, why))


def _what(spec: OpSpec) -> str:
    if spec.combiner is not None and spec.kind == Kind.REDUCE:
        return str(spec.combiner)
    return str(spec.kind)


def _on_tensors(op: Operation) -> bool:
    from xdsl.dialects.builtin import TensorType

    return bool(op.results) and isinstance(op.results[0].type, TensorType)


def _inside_program(op: Operation) -> bool:
    from xdsl_spatial.dialects.spatial import enclosing_program

    return enclosing_program(op) is not None


def accesses(spec: OpSpec) -> Sequence[Access]:
    return [*spec.ins, spec.out]
