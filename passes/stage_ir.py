"""
What the spatial-to-spatial passes share: a stage's maps as linear forms and back, a
stage rebuilt with an axis in front of its own (its body's `spatial.index` axes moved
along), and the users of a page or a buffer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, IntAttr, StringAttr, i64
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.geometry import LinearForm, linear_form
from xdsl_spatial.dialects.spatial import (
    BufferOp,
    BufferType,
    IndexOp,
    IterKind,
    IterKindAttr,
    KLoopOp,
    PageType,
    ProgramOp,
    StageOp,
)


def form_of(m: AffineMap) -> LinearForm:
    """The linear form of a one-result map (stage maps and move origins are linear:
    verified)."""
    form = linear_form(m.results[0], m.num_dims, m.num_symbols)
    assert form is not None, "spatial maps are linear (verified)"
    return form


def expr_of(form: LinearForm) -> AffineExpr:
    """`const + sum(c * d_i) + sum(c * s_j)`, the terms with a coefficient only."""
    e = AffineExpr.constant(form.const)
    for i, c in enumerate(form.dims):
        if c:
            e = e + AffineExpr.dimension(i) * c
    for j, c in enumerate(form.syms):
        if c:
            e = e + AffineExpr.symbol(j) * c
    return e


def map_of(form: LinearForm) -> AffineMap:
    return AffineMap(len(form.dims), len(form.syms), (expr_of(form),))


def with_front_axis(form: LinearForm, coef: int = 0) -> LinearForm:
    """The form over one more axis, in front of the others, read `coef` times."""
    return LinearForm(form.const, (coef, *form.dims), form.syms)


def page_row_len(page: SSAValue, tile: tuple[int, int]) -> int:
    """Elements of a row of a page: its tiles side by side."""
    return tile[1] * cast(PageType, page.type).tiles.data


def body_with_front_axis(stage: StageOp) -> Region:
    """A copy of the stage's body for the stage with one more axis in front: each
    `spatial.index k` reads axis k + 1."""
    body = stage.body.clone()
    for op in body.walk():
        if isinstance(op, IndexOp):
            op.dim = IntAttr(op.dim.data + 1)
    return body


def stage_with_front_axis(
    stage: StageOp,
    kind: IterKind,
    extent: int,
    ins: Sequence[SSAValue],
    in_forms: Sequence[LinearForm],
    buffer: SSAValue,
    out_form: LinearForm,
    name: str | None = None,
) -> StageOp:
    """`stage` over one more axis (`kind`, `extent`) in front of its own, reading `ins`
    at `in_forms` (over the new axes) into `buffer` at `out_form`."""
    op = StageOp.create(
        operands=[*ins, buffer],
        result_types=[
            PageType(
                cast(BufferType, buffer.type).tiles.data, cast(BufferType, buffer.type).element_type
            )
        ],
        regions=[body_with_front_axis(stage)],
        properties={
            **stage.properties,
            "stage_name": stage.stage_name if name is None else StringAttr(name),
            "iterators": ArrayAttr((IterKindAttr(kind), *stage.iterators.data)),
            "extents": DenseArrayBase.from_list(i64, (extent, *stage.iter_extents)),
            "maps": ArrayAttr(
                [AffineMapAttr(map_of(f)) for f in in_forms] + [AffineMapAttr(map_of(out_form))]
            ),
        },
        attributes=dict(stage.attributes),
    )
    op.result.name_hint = stage.result.name_hint
    return op


def restaged(stage: StageOp, ins: Sequence[SSAValue], in_forms: Sequence[LinearForm]) -> StageOp:
    """`stage` reading `ins` at `in_forms` instead (its axes, buffer and body as they were)."""
    op = StageOp.create(
        operands=[*ins, stage.buffer],
        result_types=[stage.result.type],
        regions=[stage.body.clone()],
        properties={
            **stage.properties,
            "maps": ArrayAttr([AffineMapAttr(map_of(f)) for f in in_forms] + [stage.maps.data[-1]]),
        },
        attributes=dict(stage.attributes),
    )
    op.result.name_hint = stage.result.name_hint
    return op


def only_user(v: SSAValue) -> Operation | None:
    """The one op that uses `v` (maybe several times), or None."""
    users = {u.operation for u in v.uses}
    return users.pop() if len(users) == 1 else None


def users(v: SSAValue) -> set[Operation]:
    return {u.operation for u in v.uses}


def enclosing_program_of(op: Operation) -> ProgramOp | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, ProgramOp):
        p = p.parent_op()
    return p


def unique_buffer_name(program: ProgramOp, wanted: str, freed: Sequence[BufferOp]) -> str:
    """`wanted`, unless a buffer of the program other than `freed` has that name: then
    the first of `freed`'s names."""
    taken = {b.buffer_name.data for b in program.buffers() if b not in freed}
    return wanted if wanted not in taken else freed[0].buffer_name.data


def loop_of(op: Operation) -> KLoopOp | None:
    p = op.parent_op()
    return p if isinstance(p, KLoopOp) else None


def replace_buffer(
    old: BufferOp, tiles: int, depth: int, rewriter: PatternRewriter, name: str | None = None
) -> BufferOp:
    """A buffer like `old` of `tiles` tiles and `depth` pages, where `old` was (its
    users still to be moved onto it)."""
    bt = cast(BufferType, old.result.type)
    new = BufferOp(name or old.buffer_name.data, tiles, bt.element_type, depth)
    new.result.name_hint = old.result.name_hint
    rewriter.insert(new, InsertPoint.before(old))
    return new
