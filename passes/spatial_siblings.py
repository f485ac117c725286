"""
`spatial-merge-siblings`: sibling stages become one stage with an axis in front.

Siblings are consecutive stages (only buffers and tensors between them) that compute
one body from the same pages over the same space, each into a buffer of its own of
one kind, their input maps a constant step apart: `q8-lower`'s stage a row of a
batch, each reading its own row of the view. Sibling r becomes index r along a new
`par` axis of one stage, and its page part r of one page (part r's tiles after part
r - 1's, so its element (row, column) is at `row * R * L + r * L + column`, L the
elements of a sibling page's row); the stages that read a sibling read that part.

```mlir
%block_0 = spatial.stage "block_0" iters(sum 32, par 96, sum 32)
  ins(%p_x[d0 * 96 + d2], %p_q8[...], %p_s[...]) into %b0[d1] : ... -> !spatial.page<3xf32> {...}
%block_1 = spatial.stage "block_1" iters(sum 32, par 96, sum 32)
  ins(%p_x[d0 * 96 + d2 + 32], %p_q8[...], %p_s[...]) into %b1[d1] : ... -> !spatial.page<3xf32> {...}
%sum = spatial.stage "fold_sum" ... ins(%acc[...], %block_0[d1], %block_1[d1]) ...
```

becomes

```mlir
%block = spatial.stage "block" iters(par 2, sum 32, par 96, sum 32)
  ins(%p_x[d1 * 96 + d3 + d0 * 32], %p_q8[...], %p_s[...]) into %b[d0 * 96 + d2] : ... -> !spatial.page<6xf32> {...}
%sum = spatial.stage "fold_sum" ... ins(%acc[...], %block[d1], %block[d1 + 96]) ...
```

The merged buffer holds the siblings' pages side by side, so the local memory is
what their buffers took together. The values are the siblings' own (each point's sum
is over the same axes in the same order). Left as they are, when a sibling's page is
read other than by a stage at a (row, column) of it (a store, a carry, an indirect
read), or their buffers are shared or of different kinds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.geometry import LinearForm, in_stacked_page
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    IterKind,
    ProgramOp,
    StageOp,
    TensorOp,
)
from xdsl_spatial.passes.stage_ir import (
    enclosing_program_of,
    form_of,
    page_row_len,
    replace_buffer,
    restaged,
    stage_with_front_axis,
    unique_buffer_name,
    users,
    with_front_axis,
)

# --------------------------------------------------------------------------------------
# Which stages are siblings
# --------------------------------------------------------------------------------------


def same_body(a: StageOp, b: StageOp) -> bool:
    """Whether two stage bodies compute the same function of their inputs."""
    ba, bb = a.body.block, b.body.block
    if list(ba.arg_types) != list(bb.arg_types):
        return False
    where: dict[SSAValue, SSAValue] = dict(zip(ba.args, bb.args))
    ops_a, ops_b = list(ba.ops), list(bb.ops)
    if len(ops_a) != len(ops_b):
        return False
    for x, y in zip(ops_a, ops_b):
        if (
            type(x) is not type(y)
            or x.properties != y.properties
            or x.attributes != y.attributes
            or [r.type for r in x.results] != [r.type for r in y.results]
            or [where.get(v) for v in x.operands] != list(y.operands)
        ):
            return False
        where.update(zip(x.results, y.results))
    return True


def same_shape(a: StageOp, b: StageOp) -> bool:
    """Whether two stages compute the same body over the same space from the same
    pages, directly, into buffers of one kind at the same output map."""
    return (
        tuple(a.ins) == tuple(b.ins)
        and a.iter_extents == b.iter_extents
        and a.iter_kinds == b.iter_kinds
        and a.indirect_of == b.indirect_of
        and all(i < 0 for i in a.indirect_of)
        and a.out_map == b.out_map
        and a.buffer.type == b.buffer.type
        and same_body(a, b)
    )


def sibling_steps(run: list[StageOp]) -> list[int] | None:
    """Per input, the constant step between consecutive siblings' maps (None when
    some input's maps do not step evenly or differ otherwise)."""
    out = []
    for i in range(len(run[0].ins)):
        forms = [form_of(s.in_maps[i]) for s in run]
        f0 = forms[0]
        step = forms[1].const - f0.const if len(forms) > 1 else 0
        for r, f in enumerate(forms):
            if f.dims != f0.dims or f.syms != f0.syms or f.const != f0.const + r * step:
                return None
        out.append(step)
    return out


def sibling_run(first: StageOp) -> list[StageOp]:
    """The longest run of siblings that starts at `first` (at least `first`)."""
    run = [first]
    o = first.next_op
    while o is not None:
        if isinstance(o, StageOp) and same_shape(first, o):
            run.append(o)
        elif not isinstance(o, BufferOp | TensorOp):
            break
        o = o.next_op
    while len(run) > 1 and sibling_steps(run) is None:
        run.pop()
    return run


@dataclass(frozen=True)
class Siblings:
    """A run of siblings to merge: their input steps, their buffers, and the stages
    that read them."""

    stages: list[StageOp]
    steps: list[int]
    buffers: list[BufferOp]
    readers: list[StageOp]
    program: ProgramOp


def siblings_of(first: StageOp) -> Siblings | str:
    """The siblings that start at `first`, or why there are none to merge."""
    run = sibling_run(first)
    if len(run) < 2:
        return "no sibling"
    program = enclosing_program_of(first)
    if program is None:
        return "not in a program"
    buffers = []
    for s in run:
        owner = s.buffer.owner
        if not isinstance(owner, BufferOp) or users(s.buffer) != {s}:
            return f"stage '{s.stage_name.data}' shares its buffer"
        buffers.append(owner)
    readers: list[StageOp] = []
    tile = program.target.tile
    row_len = page_row_len(first.result, tile)
    for s in run:
        for use in s.result.uses:
            r = use.operation
            if not isinstance(r, StageOp) or use.index >= len(r.ins):
                return f"stage '{s.stage_name.data}' is read by {r.name}, not a stage"
            if r.indirect_of[use.index] >= 0:
                return f"stage '{s.stage_name.data}' is read indirectly"
            form = form_of(r.in_maps[use.index])
            if in_stacked_page(form, r.iter_extents, row_len, len(run)) is None:
                return f"stage '{r.stage_name.data}' reads a sibling across its rows"
            if r not in readers:
                readers.append(r)
    if in_stacked_page(form_of(first.out_map), first.iter_extents, row_len, len(run)) is None:
        return "the siblings write across their rows"
    steps = sibling_steps(run)
    assert steps is not None
    return Siblings(run, steps, buffers, readers, program)


def stem(names: list[str]) -> str:
    """What the names share in front (`block_0`, `block_1` -> `block`), or the first."""
    n = 0
    while all(len(x) > n and x[n] == names[0][n] for x in names):
        n += 1
    return names[0][:n].rstrip("_") or names[0]


# --------------------------------------------------------------------------------------
# The rewrite
# --------------------------------------------------------------------------------------


def merge(sib: Siblings, rewriter: PatternRewriter) -> None:
    first, n_sib = sib.stages[0], len(sib.stages)
    row_len = page_row_len(first.result, sib.program.target.tile)
    tiles = cast(BufferType, first.buffer.type).tiles.data
    depth = cast(BufferType, first.buffer.type).depth.data
    buf_name = unique_buffer_name(
        sib.program, stem([b.buffer_name.data for b in sib.buffers]), sib.buffers
    )
    buffer = replace_buffer(sib.buffers[0], n_sib * tiles, depth, rewriter, buf_name)
    out = in_stacked_page(form_of(first.out_map), first.iter_extents, row_len, n_sib)
    assert out is not None
    merged = stage_with_front_axis(
        first,
        IterKind.PAR,
        n_sib,
        first.ins,
        [with_front_axis(form_of(m), step) for m, step in zip(first.in_maps, sib.steps)],
        buffer.result,
        with_front_axis(out, row_len),
        stem([s.stage_name.data for s in sib.stages]),
    )
    rewriter.insert(merged, InsertPoint.before(first))
    part: dict[SSAValue, int] = {s.result: r for r, s in enumerate(sib.stages)}
    for reader in sib.readers:
        ins: list[SSAValue] = []
        forms: list[LinearForm] = []
        for v, m in zip(reader.ins, reader.in_maps):
            form = form_of(m)
            if v in part:
                stacked = in_stacked_page(form, reader.iter_extents, row_len, n_sib)
                assert stacked is not None
                form = LinearForm(stacked.const + part[v] * row_len, stacked.dims, stacked.syms)
                v = merged.result
            ins.append(v)
            forms.append(form)
        rewriter.replace(reader, restaged(reader, ins, forms))
    for s in reversed(sib.stages):
        rewriter.erase(s)
    for b in sib.buffers:
        rewriter.erase(b)


class MergeSiblings(RewritePattern):
    """A run of sibling stages -> one stage with an axis in front."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: StageOp, rewriter: PatternRewriter) -> None:
        sib = siblings_of(op)
        if isinstance(sib, Siblings):
            merge(sib, rewriter)


@dataclass(frozen=True)
class MergeSiblingsPass(ModulePass):
    """
    Merge runs of sibling stages (one body from the same pages, input maps a constant
    step apart, a buffer each) into one stage with an axis in front, its page the
    siblings' pages side by side.
    """

    name = "spatial-merge-siblings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(MergeSiblings(), apply_recursively=False).rewrite_module(op)
