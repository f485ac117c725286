"""q8-raise: a dequantising `linalg.generic` proven Q8_0, and the role of each axis of its weight and scales."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    IntegerType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
)

from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.dialects.q8 import (
    Q8_BLOCK,
    Q8Source,
    stored_part,
)
from xdsl_spatial.dialects.spatial import element_name

# Axis roles of a dequantised weight: K, N, or K split into groups and lanes.
K, N, GROUP, LANE = "k", "n", "g", "l"
# Axis roles of its scales: the K block, N, or a size-1 axis.
BLOCK, UNIT = "b", "1"

# --------------------------------------------------------------------------------------
# Names and types
# --------------------------------------------------------------------------------------


def _tensor(v: SSAValue) -> TensorType[Attribute] | None:
    t = v.type
    return cast(TensorType[Attribute], t) if isinstance(t, TensorType) else None


def _elem(v: SSAValue) -> Attribute:
    t = v.type
    return cast(TensorType[Attribute], t).get_element_type() if isinstance(t, ShapedType) else t


def op_label(op: Operation, fallback: int) -> str:
    """`linalg.generic %w`, or `linalg.generic #3` for an unnamed result."""
    hint = op.results[0].name_hint if op.results else None
    return f"{op.name} %{hint}" if hint else f"{op.name} #{fallback}"


def _weight_stem(values: SSAValue) -> str | None:
    """The weight a frontend's values tensor names (`W` of `%W__q8` or of `%W`)."""
    hint = values.name_hint
    if hint is None:
        return None
    parsed = stored_part(hint)
    return parsed[0] if parsed is not None else hint


# --------------------------------------------------------------------------------------
# The dequantisation
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Dequant:
    """A `linalg.generic` proven to dequantise a Q8_0 weight."""

    op: GenericOp
    values: SSAValue
    scales: SSAValue
    roles: tuple[str, ...]
    """The role of each axis of the weight (and of the values): K, N, or GROUP, LANE."""
    scale_roles: tuple[str, ...]
    """The role of each axis of the scales: BLOCK, N or UNIT."""
    weight_type: Attribute
    """f32, or bf16 (MLIR's mixed form: every weight rounded to bf16)."""
    fused: bool = False
    """The product's own body dequantises (`op` is the product)."""

    @property
    def source(self) -> Q8Source:
        if GROUP in self.roles:
            return Q8Source.GROUPED
        return Q8Source.KN if self.roles.index(K) < self.roles.index(N) else Q8Source.NK

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(cast(TensorType[Attribute], self.values.type).get_shape())

    @property
    def k(self) -> int:
        return math.prod(s for s, r in zip(self.shape, self.roles) if r in (K, GROUP, LANE))

    @property
    def n(self) -> int:
        return self.shape[self.roles.index(N)]

    def summary(self) -> str:
        s = _tensor(self.scales)
        assert s is not None
        scale = f"{element_name(s.element_type)} scales {'x'.join(map(str, s.get_shape()))}"
        vals = "x".join(map(str, self.shape))
        text = f"values {vals} i8 ({self.source.value}), {scale}"
        if self.fused:
            text += ", dequantised in the product's own body"
        if self.rounds_to_bf16:
            text += (
                "; dequantised to bf16: unlowered, every weight q*s is rounded to bf16 "
                "(relative error up to 2^-8); the fold multiplies the exact q*s, so the "
                "two differ by up to 2^-8 sum|x||w|"
            )
        return text

    @property
    def rounds_to_bf16(self) -> bool:
        """The source rounds every weight to bf16 (MLIR's mixed form)."""
        return isinstance(self.weight_type, BFloat16Type)


def is_dequant_candidate(op: object) -> bool:
    """A `linalg.generic` of all-parallel loops that reads an integer tensor and yields
    floats: something that means to dequantise, Q8_0 or not."""
    if not isinstance(op, GenericOp) or len(op.res) != 1:
        return False
    if any(it.data != IteratorType.PARALLEL for it in op.iterator_types):
        return False
    ints = [v for v in op.inputs if (t := _tensor(v)) and isinstance(t.element_type, IntegerType)]
    return bool(ints) and not isinstance(_elem(op.res[0]), IntegerType)


def _dim(e) -> int | None:
    return e.position if isinstance(e, AffineDimExpr) else None


def _floordiv(e) -> tuple[int, int] | None:
    """(loop, divisor) of `d floordiv c`."""
    if (
        isinstance(e, AffineBinaryOpExpr)
        and e.kind == AffineBinaryOpKind.FloorDiv
        and isinstance(e.lhs, AffineDimExpr)
        and isinstance(e.rhs, AffineConstantExpr)
    ):
        return e.lhs.position, e.rhs.value
    return None


def _is_zero(v: SSAValue, generic: GenericOp) -> bool:
    """Whether a body value is a constant zero: a zero `arith.constant` (in the body or
    above it), or a block argument fed by an all-zero dense constant, through any
    `sitofp`/`extf`."""
    while isinstance(v.owner, arith.SIToFPOp | arith.ExtFOp | arith.ExtSIOp):
        v = v.owner.operands[0]
    if isinstance(v, BlockArgument) and v.block is generic.body.block:
        if v.index >= len(generic.inputs):
            return False
        v = generic.inputs[v.index]
    c = v.owner
    if not isinstance(c, arith.ConstantOp):
        return False
    if isinstance(c.value, DenseIntOrFPElementsAttr):
        return not dense_array(c.value).any()
    value = getattr(c.value, "value", None)
    return value is not None and value.data == 0


def match_dequant(op: GenericOp) -> Dequant | str:
    """The proven Q8_0 dequantisation, or why `op` is not one."""
    if len(op.outputs) != 1 or len(op.res) != 1:
        return "not a tensor generic with one result"
    operands = (*op.inputs, op.outputs[0])
    if any(d < 0 for v in operands if (t := _tensor(v)) for d in t.get_shape()):
        return "dynamic shapes"
    wtype = _elem(op.res[0])
    if not isinstance(wtype, Float32Type | BFloat16Type):
        return f"it dequantises to {element_name(wtype)}; q8.dequantize gives f32 or bf16"
    body = _match_body(op)
    if isinstance(body, str):
        return body
    v_index, s_index = body
    layout = _match_layout(op, v_index, s_index)
    if isinstance(layout, str):
        return layout
    roles, scale_roles = layout
    return Dequant(op, op.inputs[v_index], op.inputs[s_index], roles, scale_roles, wtype)


def _match_body(op: GenericOp) -> tuple[int, int] | str:
    """The inputs holding the values and the scales of a convert-then-multiply body:
    `mulf(sitofp(q), s)` in either order, `q` optionally `extsi`-widened first, `s`
    optionally `extf`-widened, `sitofp(q)` optionally minus a constant zero."""
    body = op.body.block
    yielded = body.last_op
    assert isinstance(yielded, YieldOp)
    mul = yielded.operands[0].owner
    if not isinstance(mul, arith.MulfOp):
        what = mul.name if isinstance(mul, Operation) else "a block argument"
        return f"the body does more than convert and scale: it yields {what}, not arith.mulf"
    sides = list(mul.operands)
    conv_side = next((i for i, v in enumerate(sides) if _reaches_int(v, body)), None)
    if conv_side is None:
        return "neither operand of the arith.mulf reads the integer values"
    used: set[Operation] = {mul}
    values = _values_factor(sides[conv_side], op, used)
    if isinstance(values, str):
        return values
    v_index, zero_inputs = values
    scale = _float_input(sides[1 - conv_side], op, used, "scale")
    if isinstance(scale, str):
        return scale
    if not isinstance(body.args[scale].type, Float32Type | Float16Type | BFloat16Type):
        return f"the scales are {element_name(body.args[scale].type)}; f32, f16 or bf16 expected"
    extra = [b for b in body.ops if b is not yielded and b not in used]
    if extra:
        return f"the body does more than convert and scale: {extra[0].name}"
    if set(range(len(op.inputs))) - {v_index, scale} - zero_inputs:
        return "the body reads inputs besides the values and the scales"
    return v_index, scale


def _values_factor(
    converted: SSAValue, op: GenericOp, used: set[Operation]
) -> tuple[int, set[int]] | str:
    """The input holding signed int8 values behind `converted` (`sitofp`, optionally
    of an `extsi`, optionally minus a constant zero), and the inputs the zero point
    reads; the ops on the way are added to `used`."""
    body = op.body.block
    sub = converted.owner if isinstance(converted.owner, arith.SubfOp) else None
    conv = sub.lhs.owner if sub is not None else converted.owner
    if isinstance(conv, arith.UIToFPOp):
        ext = isinstance(conv.input.owner, arith.ExtUIOp)
        kind = "arith.extui, arith.uitofp" if ext else "arith.uitofp"
        return f"the values are read as unsigned ({kind}); Q8_0 values are signed int8"
    if isinstance(conv, arith.SIToFPOp) and isinstance(conv.input.owner, arith.ExtUIOp):
        return "the values are read as unsigned (arith.extui); Q8_0 values are signed int8"
    if not isinstance(conv, arith.SIToFPOp):
        what = conv.name if isinstance(conv, Operation) else "a block argument"
        return f"the body does more than convert and scale: the values reach the multiply through {what}"
    zero_inputs: set[int] = set()
    if sub is not None:
        if not _is_zero(sub.rhs, op):
            return "the values are offset by a zero point (arith.subf); Q8_0 has none"
        zp = _chain(sub.rhs, body)
        used.update([sub, *zp])
        zero_inputs = {
            v.index
            for o in zp
            for v in o.operands
            if isinstance(v, BlockArgument) and v.block is body
        } | ({sub.rhs.index} if isinstance(sub.rhs, BlockArgument) else set())
    used.add(conv)
    src = conv.input
    if isinstance(src.owner, arith.ExtSIOp):
        used.add(src.owner)
        src = src.owner.input
    if not (isinstance(src, BlockArgument) and src.block is body and src.index < len(op.inputs)):
        return "the converted value is not an input element"
    if not (isinstance(src.type, IntegerType) and src.type.width.data == 8):
        return f"the values are {element_name(src.type)}; Q8_0 stores signed i8"
    return src.index, zero_inputs


def _float_input(v: SSAValue, op: GenericOp, used: set[Operation], what: str) -> int | str:
    """The input behind `v`, itself or widened by `arith.extf` (added to `used`)."""
    body = op.body.block
    if isinstance(v.owner, arith.ExtFOp):
        used.add(v.owner)
        v = v.owner.input
    if isinstance(v.owner, arith.TruncFOp):
        return f"the {what} is rounded (arith.truncf) before the multiply"
    if not (isinstance(v, BlockArgument) and v.block is body and v.index < len(op.inputs)):
        how = (
            f"computed by {v.owner.name}"
            if isinstance(v.owner, Operation)
            else "a value from outside"
        )
        return f"the body does more than convert and scale: the {what} is {how}"
    return v.index


def _match_layout(
    op: GenericOp, v_index: int, s_index: int
) -> tuple[tuple[str, ...], tuple[str, ...]] | str:
    """The role of each axis of the values and of the scales of a dequantising
    generic, whose result is laid out as its values."""
    maps = [m.data for m in op.indexing_maps]
    vmap, omap = maps[v_index], maps[-1]
    if vmap != omap or any(_dim(e) is None for e in omap.results):
        return f"the values are not read in the result's layout ({vmap} for a result {omap})"
    return layout_roles(
        vmap,
        maps[s_index],
        cast(TensorType[Attribute], op.inputs[v_index].type).get_shape(),
        cast(TensorType[Attribute], op.inputs[s_index].type).get_shape(),
    )


def layout_roles(
    vmap: AffineMap, smap: AffineMap, shape: Sequence[int], sshape: Sequence[int]
) -> tuple[tuple[str, ...], tuple[str, ...]] | str:
    """The role of each axis of the values and of the scales, from the maps that read
    them over the same loops: K x N / N x K have one loop the scale divides by 32 (the K
    block) and one it reads as it is (N); N x G x 32 has a lane loop the scale does not
    read, 32 wide, after the group loop it does read."""
    if any(_dim(e) is None for e in vmap.results):
        return f"the values are not read as they are stored ({vmap})"
    loops = [cast(int, _dim(e)) for e in vmap.results]
    if len(set(loops)) != len(loops):
        return f"the values map {vmap} reads a loop twice"
    rank = len(shape)
    if rank not in (2, 3):
        return f"the values have rank {rank}; Q8_0 weights are K x N, N x K or N x G x 32"
    divided: dict[int, int] = {}
    plain: list[int] = []
    for e, size in zip(smap.results, sshape):
        if (fd := _floordiv(e)) is not None:
            divided[fd[0]] = fd[1]
        elif (d := _dim(e)) is not None:
            plain.append(d)
        elif not (isinstance(e, AffineConstantExpr) and e.value == 0 and size == 1):
            return f"the scale map {smap} reads neither a loop, a loop floordiv a constant, nor 0"
    unread = [d for d in loops if d not in divided and d not in plain]
    if rank == 2:
        if not divided:
            if len(plain) == 1:
                return "one scale per column (per-channel), not one per 32 values along K"
            if len(plain) == 2 and not unread:
                return (
                    "one scale per weight element (the scales have the weight's shape), "
                    "not one per 32 values along K"
                )
            return f"the scale map {smap} reads no block of 32 values along K"
        if len(divided) != 1 or unread or len(plain) != 1:
            return f"the scale map {smap} is not one block along K and one column"
        (k_loop, group), n_loop = next(iter(divided.items())), plain[0]
        if group != Q8_BLOCK:
            return (
                f"one scale per {group} values along K (floordiv {group}); "
                f"Q8_0's block is {Q8_BLOCK}"
            )
        role = {k_loop: K, n_loop: N}
        block = {k_loop: BLOCK, n_loop: N}
        k = shape[loops.index(k_loop)]
        if k % Q8_BLOCK:
            return f"K = {k} is not a multiple of {Q8_BLOCK}"
    else:
        if divided:
            return f"the scale map {smap} divides a loop of a grouped (rank 3) weight"
        if len(unread) != 1 or len(plain) != 2:
            return f"the scale map {smap} is not one scale per (column, group)"
        lane = loops.index(unread[0])
        if lane == 0 or loops[lane - 1] not in plain:
            return "the lane axis (the one the scale does not read) does not follow the group axis"
        if shape[lane] != Q8_BLOCK:
            return (
                f"one scale per group of {shape[lane]} values along K; Q8_0's block is {Q8_BLOCK}"
            )
        g_loop = loops[lane - 1]
        n_loop = next(d for d in plain if d != g_loop)
        role = {unread[0]: LANE, g_loop: GROUP, n_loop: N}
        block = {g_loop: BLOCK, n_loop: N}
    if sorted(plain + list(divided)) != sorted(set(plain) | set(divided)):
        return f"the scale map {smap} reads a loop twice"
    scale_roles = tuple(
        block[d] if (d := _dim(e)) is not None else BLOCK if _floordiv(e) else UNIT
        for e in smap.results
    )
    return tuple(role[d] for d in loops), scale_roles


def _reaches_int(v: SSAValue, body) -> bool:
    """Whether `v` is computed from an integer block argument of `body`."""
    seen = [v]
    while seen:
        x = seen.pop()
        if isinstance(x, BlockArgument):
            if x.block is body and isinstance(x.type, IntegerType):
                return True
            continue
        o = x.owner
        if isinstance(o, Operation) and o.parent is body:
            seen.extend(o.operands)
    return False


def _chain(v: SSAValue, body) -> list[Operation]:
    """The body ops `v` is computed by."""
    out, todo = [], [v]
    while todo:
        x = todo.pop()
        o = x.owner
        if isinstance(o, Operation) and o.parent is body:
            out.append(o)
            todo.extend(o.operands)
    return out
