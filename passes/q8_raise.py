"""
`q8-raise`: Q8_0 products as frontends write them, raised to the form `q8-lower`
lowers, `linalg.matmul(x, q8.dequantize(values, scales))`.

No frontend emits `q8.dequantize`. MLIR's quant lowering, IREE and torch-mlir write a
Q8_0 weight as an `i8` tensor and a scale tensor, dequantised by a `linalg.generic`
(`arith.sitofp`, then `arith.mulf` by the block's scale), and the product as a
`linalg.matmul` or a contraction `linalg.generic`. Three layouts are raised:

```mlir
// K x N, one scale per 32 K-rows (MLIR's sub-channel quant lowering):
%w = linalg.generic {indexing_maps = [(k, n) -> (k, n), (k, n) -> (k floordiv 32, n), (k, n) -> (k, n)], ...}
       ins(%q, %s : tensor<2048x4096xi8>, tensor<64x4096xf16>) outs(...) {
  ^bb0(%v: i8, %d: f16, %o: f32):
    %f = arith.sitofp %v : i8 to f32
    %e = arith.extf %d : f16 to f32
    %r = arith.mulf %f, %e : f32
    linalg.yield %r : f32 } -> tensor<2048x4096xf32>
%y = linalg.matmul ins(%x, %w : ...) outs(%zero : tensor<1x4096xf32>)

// N x K (PyTorch's Linear, GGUF): scales (n, k) -> (n, k floordiv 32), and the
// product a generic (m, n, k) -> (m, k), (n, k), (m, n), or linalg.transpose + matmul

// IREE's grouped N x G x 32: scales (n, g, l) -> (n, g, 0) of an N x G x 1 (or N x G)
// tensor, the product a generic reducing the group and the lane:
%y = linalg.generic {indexing_maps = [(a, b, n, g, l) -> (a, b, g, l), (a, b, n, g, l) -> (n, g, l),
                                      (a, b, n, g, l) -> (a, b, n)], ...}
       ins(%x, %w : tensor<1x1x64x32xf32>, tensor<4096x64x32xf32>) outs(%zero : tensor<1x1x4096xf32>)
```

each becomes

```mlir
%qt = linalg.transpose ins(%q : tensor<4096x2048xi8>) outs(...) permutation = [1, 0]   // N x K only
%w  = q8.dequantize %qt, %st source "NxK" : tensor<2048x4096xi8>, tensor<64x4096xf16> -> tensor<2048x4096xf32>
%y  = linalg.matmul ins(%x2, %w : tensor<1x2048xf32>, tensor<2048x4096xf32>) outs(%zero2 : tensor<1x4096xf32>)
```

The chip keeps K x N values and K/32 x N scales. A weight stored otherwise reaches
that layout through explicit ops (`linalg.transpose`, `tensor.collapse_shape`) made
once after its dequantisation, run by the host, never a re-quantisation; the
`q8.dequantize` names the source layout (`source "NxK"`, `"NxGx32"`). The activation
and the result are reshaped to `m x K` and back with `tensor.collapse_shape` /
`tensor.expand_shape`, which move no element.

A dequantisation is Q8_0 only when it is proven so: the values are signed `i8`
(`arith.sitofp`, optionally after `arith.extsi`), the scale is indexed by
`k floordiv 32` (or by the group of a grouped layout whose lane axis is 32 wide) and by
the column, there is no zero point (or one that is a constant zero), and the body is
exactly convert-then-multiply in either operand order, with an optional `arith.extf`
of the scale. Anything else (`arith.extui` / `arith.uitofp`, a zero point, groups of
16 or 64, a scale blocked along the wrong axis, extra arithmetic) leaves the IR
exactly as it was, with the reason in the pass's decisions (`report=true`).

A dequantisation to bf16 (MLIR's mixed form: `sitofp` to bf16, `mulf` in bf16) stays
bf16 in the `q8.dequantize` result type: every weight rounds to bf16 before the
product; the decision line says so.

The pass does not consult the target: a raised product `q8-lower` does not lower (64
rows, say) stays in the canonical form, which runs the same.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    ShapedType,
    TensorType,
    f32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.ir_io import dense_array
from xdsl_spatial.dialects import linalg_mixed
from xdsl_spatial.dialects.q8 import (
    Q8_BLOCK,
    DequantizeOp,
    Q8Part,
    Q8Source,
    stored_name,
    stored_part,
)
from xdsl_spatial.dialects.spatial import RepackAttr, element_name
from xdsl_spatial.passes.cleanup import erase_if_unused

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
    return t.get_element_type() if isinstance(t, ShapedType) else t


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


def is_dequant_candidate(op: Operation | None) -> bool:
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
            return f"the scale map {smap} has no block along K"
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


# --------------------------------------------------------------------------------------
# The product
# --------------------------------------------------------------------------------------


@dataclass
class Product:
    """A product of an activation and a proven Q8_0 weight, as the raise rebuilds it."""

    op: Operation
    """The `linalg.matmul` or contraction `linalg.generic`."""
    dequant: Dequant
    via: TransposeOp | None
    """A `linalg.transpose` between the dequantisation and a `linalg.matmul`."""
    x: SSAValue
    """The activation (bf16 behind an `arith.extf`, whether on the tensor or in the body)."""
    widen: bool
    """The product reads the activation widened to f32."""
    m_shape: tuple[int, ...]
    """The activation's row axes (none for a vector)."""
    init: SSAValue
    """The accumulator."""


def _dequant_label(gen: GenericOp) -> str:
    hint = gen.res[0].name_hint
    return (
        f"the weight's dequantization (linalg.generic %{hint})"
        if hint
        else "the weight's dequantization"
    )


def _weight_source(v: SSAValue) -> tuple[GenericOp | None, TransposeOp | None]:
    """The generic behind a matmul's weight operand, and a transpose between them."""
    o = v.owner
    if isinstance(o, TransposeOp) and list(o.permutation.get_values()) == [1, 0]:
        inner = o.inputs[0].owner
        return (inner if isinstance(inner, GenericOp) else None), o
    return (o if isinstance(o, GenericOp) else None), None


def match_matmul(op: MatmulOp) -> Product | str | None:
    """A `linalg.matmul` over a dequantising generic (None: not a candidate)."""
    if len(op.inputs) != 2 or len(op.res) != 1:
        return None
    gen, via = _weight_source(op.inputs[1])
    if not is_dequant_candidate(gen):
        return None
    assert gen is not None
    if op.indexing_maps != MatmulOp.get_irdl_definition().properties["indexing_maps"].default_value:
        return "the matmul has transposed or broadcast indexing maps"
    d = match_dequant(gen)
    if isinstance(d, str):
        return f"{_dequant_label(gen)} is not Q8_0: {d}"
    if GROUP in d.roles:
        return "a grouped weight reaches the matmul without a reshape to K x N"
    # The matmul contracts its weight's first axis (after the transpose, if any).
    contracted = d.roles[1] if via is not None else d.roles[0]
    if contracted != K:
        return (
            "the scale is blocked along one axis of the weight and the product "
            "contracts the other (a scale map on the wrong axis)"
        )
    x, widen = op.inputs[0], False
    xt = _tensor(x)
    if xt is None or xt.get_num_dims() != 2:
        return "the activation is not a matrix"
    return Product(op, d, via, x, widen, (xt.get_shape()[0],), op.outputs[0])


def _product_loops(
    xmap: AffineMap, wmap: AffineMap, omap: AffineMap, roles: Sequence[str], iters: Sequence[bool]
) -> list[int] | str:
    """The activation's row loops of a contraction `y = x . w` over the maps that
    read x, the weight (axes in `roles`) and y, or why it is no such product."""
    xdims = [cast(int, _dim(e)) for e in xmap.results]
    wdims = [cast(int, _dim(e)) for e in wmap.results]
    odims = [cast(int, _dim(e)) for e in omap.results]
    red = {i for i, r in enumerate(iters) if r}
    # The weight's K axes are the product's reduction loops, its N axis a parallel one.
    k_loops = [lp for lp, r in zip(wdims, roles) if r in (K, GROUP, LANE)]
    n_loop = wdims[roles.index(N)]
    if set(k_loops) != red:
        return (
            "the product does not contract the weight's K axes (the one its scale is "
            "blocked along): a scale map on the wrong axis"
        )
    if n_loop not in odims or n_loop in xdims:
        return "the weight's N axis is not a column of the result"
    m_loops = [lp for lp in xdims if lp not in red]
    if xdims != m_loops + k_loops:
        return "the activation is not laid out as rows then K, in the weight's K order"
    if odims != [*m_loops, n_loop]:
        return "the result is not laid out as the activation's rows then N"
    if len(set(xdims) | set(wdims) | set(odims)) != len(iters):
        return "the product has a loop neither operand reads"
    return m_loops


def _activation(x: SSAValue, widen: bool) -> tuple[SSAValue, bool] | str:
    """The activation as the view should read it: the bf16 value behind a tensor
    `arith.extf`, and whether the product widens it."""
    if (
        not widen
        and isinstance(x.owner, arith.ExtFOp)
        and isinstance(_elem(x.owner.input), BFloat16Type)
    ):
        x, widen = x.owner.input, True
    if not isinstance(_elem(x), Float32Type | BFloat16Type):
        return f"the activation is {element_name(_elem(x))}; bf16 or f32 expected"
    return x, widen


def match_contraction(op: GenericOp) -> Product | str | None:
    """A contraction generic of an activation and a dequantising generic (None: not a
    candidate)."""
    if len(op.inputs) != 2 or len(op.res) != 1 or len(op.outputs) != 1:
        return None
    iters = [it.data == IteratorType.REDUCTION for it in op.iterator_types]
    if not any(iters):
        return None
    w_index = next((i for i in (1, 0) if is_dequant_candidate(op.inputs[i].owner)), None)
    if w_index is None:
        return None
    gen = cast(GenericOp, op.inputs[w_index].owner)
    d = match_dequant(gen)
    if isinstance(d, str):
        return f"{_dequant_label(gen)} is not Q8_0: {d}"
    x_index = 1 - w_index
    maps = [m.data for m in op.indexing_maps]
    if any(_dim(e) is None for m in maps for e in m.results):
        return "the product's maps are not projected permutations"
    m_loops = _product_loops(maps[x_index], maps[w_index], maps[-1], d.roles, iters)
    if isinstance(m_loops, str):
        return m_loops
    # The body: addf(out, mulf(x', w')), x' and w' the elements or their arith.extf.
    body = op.body.block
    y = body.last_op
    assert isinstance(y, YieldOp)
    add = y.operands[0].owner
    out_arg = body.args[2]
    if not isinstance(add, arith.AddfOp) or out_arg not in add.operands:
        return "the product's body is not an accumulation (arith.addf of its output)"
    mul = (add.rhs if add.lhs is out_arg else add.lhs).owner
    if not isinstance(mul, arith.MulfOp):
        return "the product's body adds something other than a product"
    if not isinstance(_elem(op.res[0]), Float32Type):
        return (
            f"the product accumulates in {element_name(_elem(op.res[0]))}; the fold accumulates f32"
        )
    widened = {}
    for v in mul.operands:
        base = v.owner.input if isinstance(v.owner, arith.ExtFOp) else v
        if not (isinstance(base, BlockArgument) and base.block is body and base.index < 2):
            return "the product's body does more than multiply the two elements"
        widened[base.index] = base is not v
    if set(widened) != {0, 1} or len(list(body.ops)) != 3 + sum(widened.values()):
        return "the product's body does more than multiply the two elements and add"
    act = _activation(op.inputs[x_index], widened[x_index])
    if isinstance(act, str):
        return act
    x, widen = act
    if widened[w_index] and not isinstance(d.weight_type, BFloat16Type):
        return "the product widens an f32 weight"
    xshape = cast(TensorType[Attribute], x.type).get_shape()
    return Product(op, d, None, x, widen, tuple(xshape[: len(m_loops)]), op.outputs[0])


def _product_factors(v: SSAValue, body, used: set[Operation]) -> list[SSAValue]:
    """The factors of a tree of f32 `arith.mulf`s rooted at `v` (its inner products
    used once), the multiplies added to `used`."""
    o = v.owner
    if not (isinstance(o, arith.MulfOp) and o.parent is body and v.has_one_use()):
        return [v]
    used.add(o)
    return [f for x in o.operands for f in _product_factors(x, body, used)]


def match_fused(op: GenericOp) -> Product | str | None:
    """A contraction generic whose own body dequantises its weight (what linalg's
    elementwise-op fusion makes of a dequantising generic and its product):
    `out + x' * sitofp(q) * s'` in any order and association, over maps that read the
    values as stored and the scale by block (None: not a candidate)."""
    n_in = len(op.inputs)
    if len(op.res) != 1 or len(op.outputs) != 1 or n_in < 3:
        return None
    iters = [it.data == IteratorType.REDUCTION for it in op.iterator_types]
    ints = [i for i, v in enumerate(op.inputs) if isinstance(_elem(v), IntegerType)]
    if not any(iters) or not ints:
        return None
    body = op.body.block
    y = body.last_op
    assert isinstance(y, YieldOp)
    add, out_arg = y.operands[0].owner, body.args[n_in]
    if not isinstance(add, arith.AddfOp) or out_arg not in add.operands:
        return "the product's body is not an accumulation (arith.addf of its output)"
    if not isinstance(_elem(op.res[0]), Float32Type):
        return (
            f"the product accumulates in {element_name(_elem(op.res[0]))}; the fold accumulates f32"
        )
    used: set[Operation] = {add}
    factors = _product_factors(add.rhs if add.lhs is out_arg else add.lhs, body, used)
    q_factor = [f for f in factors if _reaches_int(f, body)]
    if len(factors) != 3 or len(q_factor) != 1:
        return "the body does not multiply the activation, the converted values and a scale"
    values = _values_factor(q_factor[0], op, used)
    if isinstance(values, str):
        return f"the weight the body dequantises is not Q8_0: {values}"
    v_index, zero_inputs = values
    a, b = (f for f in factors if f is not q_factor[0])
    widened = {}
    for f in (a, b):
        i = _float_input(f, op, used, "scale")
        if isinstance(i, str):
            return f"the weight the body dequantises is not Q8_0: {i}"
        widened[i] = isinstance(f.owner, arith.ExtFOp)
    if len(widened) != 2:
        return "the body does not multiply the activation, the converted values and a scale"
    ia, ib = widened
    extra = [o for o in body.ops if o is not y and o not in used]
    if extra:
        return f"the body does more than dequantise and multiply-add: {extra[0].name}"
    if set(range(n_in)) - {v_index, ia, ib} - zero_inputs:
        return "the body reads inputs besides the activation, the values and the scales"
    maps = [m.data for m in op.indexing_maps]
    red = {i for i, r in enumerate(iters) if r}
    # The activation reads every reduction loop as it is; the scale reads K by block.
    reads_k = [
        i for i in (ia, ib) if red <= {d for e in maps[i].results if (d := _dim(e)) is not None}
    ]
    if len(reads_k) != 1:
        return "cannot tell the scale from the activation: one of them must read K only by block"
    x_index = reads_k[0]
    s_index = ib if x_index == ia else ia
    shape = lambda i: cast(TensorType[Attribute], op.inputs[i].type).get_shape()
    roles = layout_roles(maps[v_index], maps[s_index], shape(v_index), shape(s_index))
    if isinstance(roles, str):
        return f"the weight the body dequantises is not Q8_0: {roles}"
    if not isinstance(_elem(op.inputs[s_index]), Float32Type | Float16Type | BFloat16Type):
        return (
            f"the scales are {element_name(_elem(op.inputs[s_index]))}; f32, f16 or bf16 expected"
        )
    if any(_dim(e) is None for e in maps[x_index].results):
        return "the activation's map is not a projected permutation"
    m_loops = _product_loops(maps[x_index], maps[v_index], maps[-1], roles[0], iters)
    if isinstance(m_loops, str):
        return m_loops
    act = _activation(op.inputs[x_index], widened[x_index])
    if isinstance(act, str):
        return act
    x, widen = act
    d = Dequant(op, op.inputs[v_index], op.inputs[s_index], roles[0], roles[1], f32, fused=True)
    xshape = cast(TensorType[Attribute], x.type).get_shape()
    return Product(op, d, None, x, widen, tuple(xshape[: len(m_loops)]), op.outputs[0])


# --------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------


def _reassociation(groups: Sequence[Sequence[int]]) -> ArrayAttr:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in groups])


def _groups_dropping_units(roles: Sequence[str]) -> list[list[int]]:
    """Reassociation groups that merge each UNIT axis into its neighbour."""
    groups: list[list[int]] = []
    pending: list[int] = []
    for i, r in enumerate(roles):
        if r == UNIT:
            (groups[-1] if groups else pending).append(i)
        else:
            groups.append([*pending, i])
            pending = []
    return groups


@dataclass
class _Builder:
    rewriter: PatternRewriter
    point: InsertPoint

    def add(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op, self.point)
        return op.results[0]

    def collapse(self, v: SSAValue, groups: list[list[int]]) -> SSAValue:
        t = cast(TensorType[Attribute], v.type)
        shape = t.get_shape()
        if len(groups) == len(shape):
            return v
        new = TensorType(t.element_type, [math.prod(shape[i] for i in g) for g in groups])
        return self.add(
            tensor.CollapseShapeOp.build(
                operands=[v],
                result_types=[new],
                properties={"reassociation": _reassociation(groups)},
            )
        )

    def expand(self, v: SSAValue, groups: list[list[int]], shape: Sequence[int]) -> SSAValue:
        t = cast(TensorType[Attribute], v.type)
        if len(shape) == len(t.get_shape()):
            return v
        new = TensorType(t.element_type, list(shape))
        return self.add(tensor.ExpandShapeOp(v, [], _reassociation(groups), list(shape), new))

    def transpose(self, v: SSAValue) -> SSAValue:
        t = cast(TensorType[Attribute], v.type)
        a, b = t.get_shape()
        out = TensorType(t.element_type, [b, a])
        empty = self.add(tensor.EmptyOp([], out))
        return self.add(TransposeOp(v, empty, DenseArrayBase.from_list(i64, [1, 0])))


def _to_kn(b: _Builder, v: SSAValue, roles: Sequence[str]) -> SSAValue:
    """`v` (axes in `roles`) as a K x N matrix: K axes collapsed, then transposed."""
    k_axes = [i for i, r in enumerate(roles) if r in (K, GROUP, LANE, BLOCK)]
    n_axis = roles.index(N)
    groups = _groups_dropping_units(roles)
    # Merge the K axes (group, lane) into one.
    merged: list[list[int]] = []
    for g in groups:
        if merged and any(i in k_axes for i in g) and any(i in k_axes for i in merged[-1]):
            merged[-1] = merged[-1] + g
        else:
            merged.append(g)
    v = b.collapse(v, merged)
    if any(n_axis in g for g in merged[:1]):
        v = b.transpose(v)
    return v


def raise_weight(b: _Builder, d: Dequant) -> SSAValue:
    """`q8.dequantize` of the weight's values and scales, in the chip's K x N layout."""
    q = _to_kn(b, d.values, d.roles)
    s = _to_kn(b, d.scales, d.scale_roles)
    stem = _weight_stem(d.values)
    if stem is not None:
        if q is not d.values:
            q.name_hint = stored_name(stem, Q8Part.VALUES)
        if s is not d.scales:
            s.name_hint = stored_name(stem, Q8Part.SCALES)
    source = None if d.source == Q8Source.KN else d.source
    # Unnamed: q8-lower names the weight after its values (`W` of `%W` or `%W__q8`).
    return b.add(DequantizeOp(q, s, d.weight_type, source))


def host_source(dq: DequantizeOp, part: Q8Part) -> tuple[SSAValue, RepackAttr] | None:
    """The frontend's tensor a raised weight's `part` is made from, through the
    layout ops the raise put before its `q8.dequantize` (a `linalg.transpose`, a
    `tensor.collapse_shape`), and the host repack that fills the chip's tensor from it
    (`#spatial.repack<q8_0.values from "NxK">`); None for a weight stored K x N (no
    layout ops): what q8-lower can bind a param from instead of the transposes' result."""
    source = dq.source_layout
    if source is None or source == Q8Source.KN:
        return None
    v = dq.values if part == Q8Part.VALUES else dq.scales
    while isinstance(v.owner, TransposeOp | tensor.CollapseShapeOp):
        v = v.owner.operands[0]
    return v, RepackAttr(part, source)


def _zero_like(
    b: _Builder, init: SSAValue, shape: Sequence[int], groups, forward: bool
) -> SSAValue:
    """The accumulator `init` reshaped: a fill or a dense constant is remade at the new
    shape (so it still reads as one), anything else is reshaped."""
    t = cast(TensorType[Attribute], init.type)
    new = TensorType(t.element_type, list(shape))
    o = init.owner
    if isinstance(o, FillOp) and len(o.inputs) == 1:
        empty = b.add(tensor.EmptyOp([], new))
        return b.add(FillOp([o.inputs[0]], [empty], [new]))
    if isinstance(o, arith.ConstantOp) and isinstance(o.value, DenseIntOrFPElementsAttr):
        arr = dense_array(o.value).reshape(shape)
        return b.add(
            arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(new, arr.reshape(-1).tolist()))
        )
    return b.collapse(init, groups) if forward else b.expand(init, groups, shape)


# --------------------------------------------------------------------------------------
# Decisions and patterns
# --------------------------------------------------------------------------------------


@dataclass
class RaiseDecision:
    """What the pass did with one product whose weight a generic dequantises."""

    where: str
    raised: bool
    detail: str
    """The raised form, or why not."""
    bf16_weight: bool = False
    """A raised product whose source rounds every weight to bf16: before lowering it
    multiplies bf16 weights, after it the exact `q * s`."""

    def line(self) -> str:
        if self.raised:
            return (
                f"q8-raise: {self.where}: raised to linalg.matmul over q8.dequantize: {self.detail}"
            )
        return f"q8-raise: {self.where}: not raised: {self.detail}"


@dataclass
class _State:
    decisions: list[RaiseDecision] = field(default_factory=list)
    weights: dict[GenericOp, SSAValue] = field(default_factory=dict)
    """The `q8.dequantize` made for each dequantisation, shared by all its products."""


def _raise(p: Product, state: _State, rewriter: PatternRewriter, where: str) -> None:
    d = p.dequant
    if d.fused:
        w = raise_weight(_Builder(rewriter, InsertPoint.before(p.op)), d)
    elif (w := state.weights.get(d.op)) is None:
        w = raise_weight(_Builder(rewriter, InsertPoint.after(d.op)), d)
        state.weights[d.op] = w
    b = _Builder(rewriter, InsertPoint.before(p.op))
    m = math.prod(p.m_shape)
    k, n = d.k, d.n
    res = p.op.results[0]
    if isinstance(p.op, MatmulOp):
        new = MatmulOp([p.x, w], [p.init])
        rewriter.replace(p.op, new)
        y = new.res[0]
    else:
        x = p.x
        xt = cast(TensorType[Attribute], x.type)
        nm = len(p.m_shape)
        xr = len(xt.get_shape())
        if nm == 0:
            x = b.collapse(x, [list(range(xr))])
            x = b.expand(x, [[0, 1]], [1, k])
        else:
            x = b.collapse(x, [list(range(nm)), list(range(nm, xr))])
        if (
            p.widen
            and isinstance(_elem(x), BFloat16Type)
            and isinstance(d.weight_type, Float32Type)
        ):
            x = b.add(arith.ExtFOp(x, TensorType(f32, [m, k])))
        out = cast(TensorType[Attribute], res.type)
        out_groups = [[0, 1]] if nm == 0 else [list(range(nm)), [nm]]
        if tuple(cast(TensorType[Attribute], p.init.type).get_shape()) == (m, n):
            init = p.init
        else:
            init = _zero_like(b, p.init, [m, n], out_groups, forward=nm > 0)
        linalg_mixed.install()
        mm = MatmulOp([x, w], [init])
        y = b.add(mm)
        if nm == 0:
            y2 = b.collapse(y, out_groups)
        else:
            y2 = b.expand(y, out_groups, out.get_shape())
        rewriter.replace(p.op, [], [y2])
        y = y2
    y.name_hint = res.name_hint
    for dead in (p.via, None if d.fused else d.op, p.init.owner):
        erase_if_unused(
            dead if isinstance(dead, Operation) else None,
            rewriter,
            (tensor.EmptyOp, arith.ConstantOp),
        )
    state.decisions.append(
        RaiseDecision(where, True, f"{m}x{k}x{n}; {d.summary()}", d.rounds_to_bf16)
    )


@dataclass
class RaiseQ8Matmul(RewritePattern):
    """`linalg.matmul(x, dequant)` or `linalg.matmul(x, transpose(dequant))`."""

    state: _State

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        p = match_matmul(op)
        if p is None:
            return
        where = op_label(op, len(self.state.decisions))
        if isinstance(p, str):
            self.state.decisions.append(RaiseDecision(where, False, p))
            return
        _raise(p, self.state, rewriter, where)


@dataclass
class RaiseQ8Contraction(RewritePattern):
    """A contraction `linalg.generic` of an activation and a dequantising generic."""

    state: _State

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        p = match_contraction(op)
        if p is None:
            p = match_fused(op)
        if p is None:
            return
        where = op_label(op, len(self.state.decisions))
        if isinstance(p, str):
            self.state.decisions.append(RaiseDecision(where, False, p))
            return
        _raise(p, self.state, rewriter, where)


def raise_q8(module: ModuleOp) -> list[RaiseDecision]:
    """Raise every provable Q8_0 product of `module` in place; what happened to each
    product whose weight a generic dequantises."""
    state = _State()
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [RaiseQ8Matmul(state), RaiseQ8Contraction(state)], dce_enabled=False
        ),
        apply_recursively=False,
    )
    walker.rewrite_module(module)
    return state.decisions


@dataclass(frozen=True)
class Q8RaisePass(ModulePass):
    """
    Raise the Q8_0 products frontends write (a dequantising `linalg.generic` and a
    `linalg.matmul` or contraction generic; K x N, N x K or grouped N x G x 32 weights)
    to `linalg.matmul` over `q8.dequantize`. `q8-lower` runs it first.

    Options:
      report  print to stderr, per product whose weight a generic dequantises,
              whether it was raised and, if not, why.
    """

    name = "q8-raise"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for d in raise_q8(op):
            if self.report:
                print(d.line(), file=sys.stderr)
