"""
Sibling stages: consecutive stages that compute the same body from the same pages
over the same space, their input maps a constant step apart (the fold's stage a row,
each reading its own row of the view). The compiled engine runs a run of siblings as
one stage with an extra leading axis.
"""

from __future__ import annotations

from typing import cast

from xdsl.ir import Operation, SSAValue

from xdsl_spatial.core.geometry import linear_form
from xdsl_spatial.dialects.spatial import StageOp, TensorOp


def sibling_run(ops: list[Operation], i: int) -> list[StageOp]:
    """The run of sibling stages that starts at `ops[i]` (at least that one)."""
    first = cast(StageOp, ops[i])
    run = [first]
    j = i + 1
    while j < len(ops):
        o = ops[j]
        if isinstance(o, TensorOp):
            j += 1
            continue
        if not isinstance(o, StageOp) or not same_shape(first, o):
            break
        run.append(o)
        j += 1
    # Siblings must step every map by one constant per stage.
    steps = sibling_steps(run)
    while len(run) > 1 and steps is None:
        run = run[:-1]
        steps = sibling_steps(run)
    return run if steps is not None else [first]


def same_shape(a: StageOp, b: StageOp) -> bool:
    """Whether two stages compute the same body over the same space from the same
    pages into buffers of the same kind, writing at the same output map."""
    if (
        tuple(a.ins) != tuple(b.ins)
        or a.iter_extents != b.iter_extents
        or a.iter_kinds != b.iter_kinds
        or a.indirect_of != b.indirect_of
        or a.out_map != b.out_map
        or a.result.type != b.result.type
    ):
        return False
    if any(i >= 0 for i in a.indirect_of):
        return False
    return same_body(a, b)


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


def sibling_steps(run: list[StageOp]) -> list[int] | None:
    """Per input, the constant step between consecutive siblings' maps (None when some
    input's maps do not step evenly or differ otherwise)."""
    if len(run) == 1:
        return [0] * len(run[0].ins)
    out = []
    for i in range(len(run[0].ins)):
        forms = [
            linear_form(s.in_maps[i].results[0], s.in_maps[i].num_dims, s.in_maps[i].num_symbols)
            for s in run
        ]
        if any(f is None for f in forms):
            return None
        f0 = forms[0]
        assert f0 is not None
        step = forms[1].const - f0.const  # type: ignore[union-attr]
        for r, f in enumerate(forms):
            assert f is not None
            if f.dims != f0.dims or f.syms != f0.syms or f.const != f0.const + r * step:
                return None
        out.append(step)
    return out
