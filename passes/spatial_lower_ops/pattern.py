"""
The rewrites: one `RewritePattern` per source op (a `linalg.generic`, an `arith` or
`math` op on tensors, a `tensor.insert_slice` at a run-time position, a gather by
token ids), each a program in its place. The patterns keep no state between matches:
what a run over a module shares (the target, the kind of each value made so far, a
decision per op) is a `Lowering` the pass hands them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from xdsl_spatial.dialects.spatial import NumericsAttr, TargetAttr
from xdsl_spatial.passes.cleanup import erase_if_unused
from xdsl_spatial.passes.spatial_lower_ops.access import Access, shape_of
from xdsl_spatial.passes.spatial_lower_ops.build import build_program
from xdsl_spatial.passes.spatial_lower_ops.names import (
    OpKind,
    program_name,
    unique_names,
)
from xdsl_spatial.passes.spatial_lower_ops.plan import OpPlan, plan_op
from xdsl_spatial.passes.spatial_lower_ops.report import Decision
from xdsl_spatial.passes.spatial_lower_ops.reshape import reshaped, to_chip
from xdsl_spatial.passes.spatial_lower_ops.spec import (
    ELEMENTWISE,
    Combiner,
    Kind,
    OpSpec,
    spec_of_elementwise,
    spec_of_generic,
)

SOURCES = (
    arith.ConstantOp,
    tensor.EmptyOp,
    linalg.FillOp,
    tensor.ExpandShapeOp,
    tensor.CollapseShapeOp,
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

    def where(self, op: Operation) -> str:
        res = op.results[0].name_hint if op.results else None
        return f"{op.name} %{res}" if res else f"{op.name} #{len(self.decisions)}"

    def classify(self, spec: OpSpec) -> OpKind:
        """The op kind of `spec` from what it reads (see `names`)."""
        read = [self.kinds.get(a.root) for a in spec.ins]
        if spec.kind == Kind.CONTRACT or OpKind.ATTENTION in read:
            return OpKind.ATTENTION
        if spec.kind == Kind.REDUCE or any(a.root in self.reduced for a in spec.ins):
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


def rewrite_spec(run: Lowering, spec: OpSpec, what: str, rewriter: PatternRewriter) -> Decision:
    """Plan and build `spec`'s program in place of its op; the op as it was when
    there is no plan."""
    op = spec.op
    where = run.where(op)
    shape = "x".join(str(e) for e in spec.extents)
    plan = plan_op(spec, run.target)
    if isinstance(plan, str):
        return Decision(where, shape, False, plan)
    kind = run.classify(spec)
    bound = bind_inputs(run, plan, rewriter)
    names = unique_names(
        [tensor_name(t.value, i) for i, t in enumerate(plan.tensors[:-1])]
        + [op.results[0].name_hint or "result"]
    )
    name = program_name(kind, what, spec.extents)
    act = str(run.target.act)
    program = build_program(plan, bound, names, name, run.target, numerics_of(spec, act))
    rewriter.insert(program, InsertPoint.before(op))
    result = program.results[0]
    result.name_hint = op.results[0].name_hint
    back = reshaped(result, shape_of(op.results[0]))
    for r in back:
        rewriter.insert(r, InsertPoint.before(op))
    value = back[-1].results[0] if back else result
    if back:
        value.name_hint = op.results[0].name_hint
    run.kinds[result] = kind
    if spec.kind == Kind.REDUCE and kind == OpKind.NORMS:
        run.reduced.add(result)
    sources = list(op.operands)
    rewriter.replace(op, [], [value])
    for s in sources:
        erase_if_unused(s.owner if isinstance(s.owner, Operation) else None, rewriter, SOURCES)
    return Decision(where, shape, True, "", plan, name)


def tensor_name(v: SSAValue | None, i: int) -> str:
    """A program tensor's name: its value's, a table's `rows`, else `t<i>`."""
    if v is None:
        return "rows"
    return v.name_hint or f"t{i}"


def bind_inputs(run: Lowering, plan: OpPlan, rewriter: PatternRewriter) -> list[SSAValue]:
    """The 2-d value each input tensor of `plan` binds: its root, or a reshape of it
    made once, right after the root is."""
    out: list[SSAValue] = []
    for t in plan.tensors[:-1]:
        v = t.value
        if v is None:
            continue  # a table the program holds
        if v not in run.on_chip:
            ops = to_chip(v)
            if isinstance(v, BlockArgument):
                at = InsertPoint.at_start(v.block)
            else:
                at = InsertPoint.after(cast(Operation, v.owner))
            for r in reversed(ops):
                rewriter.insert(r, at)
            run.on_chip[v] = ops[-1].results[0] if ops else v
        out.append(run.on_chip[v])
    return out


@dataclass(frozen=True)
class LowerGeneric(RewritePattern):
    """A `linalg.generic` on static tensors -> a map, fold or view program."""

    run: Lowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, linalg.GenericOp) or _inside_program(op):
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
