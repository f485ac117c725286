"""
`convert-q8-to-linalg`: the `q8` dialect as upstream `linalg.generic`s on tensors.

`q8.dequantize` becomes one elementwise generic whose scale operand is read at
`(k floordiv 32, n)`, with the interpreter's numbers (`interpreters/q8.py`): the int8
value and the scale widened to fp32, one fp32 product, rounded to nearest even when
the weight is bf16.

```mlir
%w = q8.dequantize %q, %s : tensor<64x128xi8>, tensor<2x128xf16> -> tensor<64x128xf32>
```
becomes
```mlir
%empty = tensor.empty() : tensor<64x128xf32>
%w = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                      affine_map<(d0, d1) -> (d0 floordiv 32, d1)>,
                                      affine_map<(d0, d1) -> (d0, d1)>],
                     iterator_types = ["parallel", "parallel"]}
    ins(%q, %s : tensor<64x128xi8>, tensor<2x128xf16>) outs(%empty : tensor<64x128xf32>) {
^bb0(%v: i8, %d: f16, %out: f32):
  %vf = arith.sitofp %v : i8 to f32
  %df = arith.extf %d : f16 to f32
  %x = arith.mulf %vf, %df : f32
  linalg.yield %x : f32
} -> tensor<64x128xf32>
```

`q8.quantize` is GGML's rule (`xdsl_spatial/core/quant.py`) in three generics over the
weight seen as K/32 blocks of 32 rows (`tensor.expand_shape` to K/32 x 32 x N): the
blocks' `amax = max |w|` (a reduction over the 32 rows from 0), each block's
`d = amax / 127` and `id = d == 0 ? 0 : 1 / d` (fp32), and the values
`fptosi(round(w * id))` (`math.round` rounds halves away from zero, as C's `roundf`),
the scales `d` rounded to the scale type. `q8.quantize exact` is left as it is: its
promise is a run-time refusal of a weight Q8_0 cannot hold, which a generic cannot
make; the pass says so (`report=true`), and an engine that needs every op converted
names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, math, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    f32,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_spatial.core.quant import Q8_BLOCK, Q8_MAX
from xdsl_spatial.dialects.q8 import DequantizeOp, QuantizeOp

PAR = IteratorTypeAttr.parallel()
RED = IteratorTypeAttr.reduction()


def _maps(*maps: AffineMap) -> list[AffineMapAttr]:
    return [AffineMapAttr(m) for m in maps]


def _dims(n: int, *picks: int) -> AffineMap:
    """`(d0, ..., d{n-1}) -> (d{picks[0]}, ...)`."""
    return AffineMap(n, 0, tuple(AffineExpr.dimension(p) for p in picks))


def to_f32(v: SSAValue) -> SSAValue:
    """`v` widened to fp32 (exact for every int8, f16 and bf16), inside a builder."""
    t = v.type
    if isinstance(t, Float32Type):
        return v
    if isinstance(t, IntegerType):
        return arith.SIToFPOp(v, f32).result
    return arith.ExtFOp(v, f32).result


def from_f32(v: SSAValue, t: Attribute) -> SSAValue:
    """The fp32 `v` rounded to the float type `t` (to nearest even)."""
    return v if isinstance(t, Float32Type) else arith.TruncFOp(v, t).result


def generic(
    ins: list[SSAValue],
    outs: list[SSAValue],
    maps: list[AffineMap],
    iterators: list[IteratorTypeAttr],
    body: Block,
) -> GenericOp:
    return GenericOp(
        ins,
        outs,
        Region(body),
        _maps(*maps),
        iterators,
        [o.type for o in outs],
    )


def _element(v: SSAValue) -> Attribute:
    return cast(TensorType[Attribute], v.type).element_type


def _shape(v: SSAValue) -> tuple[int, ...]:
    return tuple(cast(TensorType[Attribute], v.type).get_shape())


class DequantizePattern(RewritePattern):
    """`q8.dequantize` -> an elementwise generic over K x N reading the scale at k/32."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DequantizeOp, rewriter: PatternRewriter) -> None:
        out_t = cast(TensorType[Attribute], op.result.type)
        empty = tensor.EmptyOp([], out_t)
        body = Block(arg_types=[_element(op.values), _element(op.scales), out_t.element_type])
        with ImplicitBuilder(body) as (v, d, _):
            w = arith.MulfOp(to_f32(v), to_f32(d)).result
            YieldOp(from_f32(w, out_t.element_type))
        block_row = AffineMap(2, 0, (AffineExpr.dimension(0) // Q8_BLOCK, AffineExpr.dimension(1)))
        gen = generic(
            [op.values, op.scales],
            [empty.tensor],
            [_dims(2, 0, 1), block_row, _dims(2, 0, 1)],
            [PAR, PAR],
            body,
        )
        rewriter.replace(op, [empty, gen])


def _expand_blocks(w: SSAValue, elem: Attribute) -> tensor.ExpandShapeOp:
    """`w` (K x N) as K/32 blocks x 32 rows x N."""
    k, n = _shape(w)
    shape = (k // Q8_BLOCK, Q8_BLOCK, n)
    return tensor.ExpandShapeOp(
        w,
        [],
        ArrayAttr(
            [
                ArrayAttr([IntegerAttr(0, i64), IntegerAttr(1, i64)]),
                ArrayAttr([IntegerAttr(2, i64)]),
            ]
        ),
        DenseArrayBase.from_list(i64, shape),
        TensorType(elem, shape),
    )


class QuantizePattern(RewritePattern):
    """`q8.quantize` (not `exact`) -> GGML's rule as three generics."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: QuantizeOp, rewriter: PatternRewriter) -> None:
        if op.exact is not None:
            return  # a run-time refusal no generic can make (see the docstring)
        k, n = _shape(op.input)
        nb = k // Q8_BLOCK
        elem = _element(op.input)
        scale_t = _element(op.scales)
        ops: list[Operation] = []
        blocks = _expand_blocks(op.input, elem)
        ops.append(blocks)

        # amax over each block's 32 rows.
        amax_t = TensorType(f32, (nb, n))
        zero = arith.ConstantOp(FloatAttr(0.0, f32))
        amax_empty = tensor.EmptyOp([], amax_t)
        amax_init = FillOp((zero.result,), (amax_empty.tensor,), (amax_t,))
        ops += [zero, amax_empty, amax_init]
        body = Block(arg_types=[elem, f32])
        with ImplicitBuilder(body) as (x, acc):
            a = math.AbsFOp(to_f32(x)).result
            YieldOp(arith.MaximumfOp(acc, a).result)
        amax = generic(
            [blocks.result],
            [amax_init.res[0]],
            [_dims(3, 0, 1, 2), _dims(3, 0, 2)],
            [PAR, RED, PAR],
            body,
        )
        ops.append(amax)

        # d = amax / 127 (the stored scale) and id = 1 / d, 0 for an all-zero block.
        d_empty = tensor.EmptyOp([], TensorType(scale_t, (nb, n)))
        id_empty = tensor.EmptyOp([], amax_t)
        body = Block(arg_types=[f32, scale_t, f32])
        with ImplicitBuilder(body) as (m, _, _):
            d = arith.DivfOp(m, arith.ConstantOp(FloatAttr(float(Q8_MAX), f32))).result
            zero_f = arith.ConstantOp(FloatAttr(0.0, f32)).result
            inv = arith.DivfOp(arith.ConstantOp(FloatAttr(1.0, f32)), d).result
            is_zero = arith.CmpfOp(d, zero_f, "oeq").result
            YieldOp(from_f32(d, scale_t), arith.SelectOp(is_zero, zero_f, inv).result)
        scales = generic(
            [amax.res[0]],
            [d_empty.tensor, id_empty.tensor],
            [_dims(2, 0, 1)] * 3,
            [PAR, PAR],
            body,
        )
        ops += [d_empty, id_empty, scales]

        # q = fptosi(round(w * id)), halves away from zero.
        i8 = IntegerType(8)
        q_t = TensorType(i8, (nb, Q8_BLOCK, n))
        q_empty = tensor.EmptyOp([], q_t)
        body = Block(arg_types=[elem, f32, i8])
        with ImplicitBuilder(body) as (x, inv, _):
            r = math.RoundOp(arith.MulfOp(to_f32(x), inv)).result
            YieldOp(arith.FPToSIOp(r, i8).result)
        values = generic(
            [blocks.result, scales.res[1]],
            [q_empty.tensor],
            [_dims(3, 0, 1, 2), _dims(3, 0, 2), _dims(3, 0, 1, 2)],
            [PAR, PAR, PAR],
            body,
        )
        collapse = tensor.CollapseShapeOp(
            operands=[values.res[0]],
            result_types=[TensorType(i8, (k, n))],
            properties={"reassociation": blocks.reassociation},
        )
        ops += [q_empty, values, collapse]
        rewriter.replace(op, ops, [collapse.results[0], scales.res[0]])


@dataclass(frozen=True)
class ConvertQ8ToLinalgPass(ModulePass):
    """`q8.dequantize` and `q8.quantize` as `linalg.generic`s on tensors."""

    name = "convert-q8-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([DequantizePattern(), QuantizePattern()]),
            apply_recursively=False,
        ).rewrite_module(op)


def unconverted_q8(module: ModuleOp) -> list[Operation]:
    """The `q8` ops the pass leaves (`q8.quantize exact`)."""
    return [o for o in module.walk() if isinstance(o, DequantizeOp | QuantizeOp)]
