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

The forms live in files of their own: `dequant.py` proves a dequantising generic
(its axis roles, `layout_roles`), `products.py` finds the products over one (and the
fused bodies), `chains.py` follows torch-mlir's unfused chain of cast generics,
broadcasting multiply, reshapes and transposes; `build.py` makes the raised weight for
all of them, and this file holds the decisions and the pass.

The pass does not consult the target: a raised product `q8-lower` does not lower (64
rows, say) stays in the canonical form, which runs the same.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import BFloat16Type, Float32Type, ModuleOp, TensorType, f32
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xdsl_spatial.dialects.linalg_extra import BatchMatmulOp
from xdsl_spatial.dialects.linalg_mixed import MixedMatmulOp
from xdsl_spatial.passes.cleanup import erase_if_unused
from xdsl_spatial.passes.q8_raise.build import _Builder, _zero_like, host_source, raise_weight
from xdsl_spatial.passes.q8_raise.chains import Chain, match_chain, match_chain_product
from xdsl_spatial.passes.q8_raise.dequant import (
    Dequant,
    _elem,
    layout_roles,
    match_dequant,
    op_label,
)
from xdsl_spatial.passes.q8_raise.products import (
    Product,
    _activation,
    match_contraction,
    match_fused,
    match_matmul,
)

__all__ = [
    "Chain",
    "Dequant",
    "Product",
    "Q8RaisePass",
    "RaiseDecision",
    "host_source",
    "layout_roles",
    "match_chain",
    "match_contraction",
    "match_dequant",
    "match_fused",
    "match_matmul",
    "raise_q8",
    "raise_weight",
]


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
    ctx: Context | None = None
    """Where the module's `dense_resource` blobs are (xDSL's own table when None)."""


def _raise(p: Product, state: _State, rewriter: PatternRewriter, where: str) -> None:
    d = p.dequant
    if d.fused:
        w = raise_weight(_Builder(rewriter, InsertPoint.before(p.op)), d, state.ctx)
    elif (w := state.weights.get(d.op)) is None:
        w = raise_weight(_Builder(rewriter, InsertPoint.after(d.op)), d, state.ctx)
        state.weights[d.op] = w
    b = _Builder(rewriter, InsertPoint.before(p.op))
    m = math.prod(p.m_shape)
    k, n = d.k, d.n
    res = p.op.results[0]
    if isinstance(p.op, MatmulOp):
        x = p.x
        if (
            p.widen
            and isinstance(_elem(x), BFloat16Type)
            and isinstance(d.weight_type, Float32Type)
        ):
            x = b.add(arith.ExtFOp(x, TensorType(f32, [m, k])))
        new = MixedMatmulOp([x, w], [p.init])
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
        mm = MixedMatmulOp([x, w], [init])
        y = b.add(mm)
        if nm == 0:
            y2 = b.collapse(y, out_groups)
        else:
            y2 = b.expand(y, out_groups, out.get_shape())
        rewriter.replace(p.op, [], [y2])
        y = y2
    y.name_hint = res.name_hint
    for dead in (p.via, *p.chain, None if d.fused else d.op, p.init.owner):
        erase_if_unused(
            dead if isinstance(dead, Operation) else None,
            rewriter,
            (tensor.EmptyOp, arith.ConstantOp),
        )
    state.decisions.append(
        RaiseDecision(where, True, f"{m}x{k}x{n}; {d.summary()}", d.rounds_to_bf16)
    )


def _decide(op: Operation, p: Product | str, state: _State, rewriter: PatternRewriter) -> None:
    """A matched product raised, or the reason it was not recorded."""
    where = op_label(op, len(state.decisions))
    if isinstance(p, str):
        state.decisions.append(RaiseDecision(where, False, p))
        return
    _raise(p, state, rewriter, where)


@dataclass
class RaiseQ8Matmul(RewritePattern):
    """`linalg.matmul(x, dequant)` or `linalg.matmul(x, transpose(dequant))`."""

    state: _State

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        p = match_matmul(op)
        if p is None:
            p = chain_product(op)
        if p is None:
            return
        _decide(op, p, self.state, rewriter)


def chain_product(op: MatmulOp | BatchMatmulOp) -> Product | str | None:
    """A `linalg.matmul` or `linalg.batch_matmul` over a weight a chain of ops
    dequantises (torch-mlir's form, `chains.py`)."""
    chain = match_chain_product(op)
    if not isinstance(chain, Chain):
        return chain
    act = _activation(op.inputs[0], False)
    if isinstance(act, str):
        return act
    x, widen = act
    xshape = cast(TensorType[Attribute], x.type).get_shape()
    m_shape = tuple(xshape[:-1])
    # torch-mlir's generic widening the activation goes with the product it fed.
    widening = (op.inputs[0].owner,) if widen and x is not op.inputs[0] else ()
    ops = (*chain.ops, *(o for o in widening if isinstance(o, Operation)))
    return Product(op, chain.dequant, None, x, widen, m_shape, op.outputs[0], ops)


@dataclass
class RaiseQ8BatchMatmul(RewritePattern):
    """`linalg.batch_matmul` of a batch of 1 over a chain-dequantised weight."""

    state: _State

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BatchMatmulOp, rewriter: PatternRewriter) -> None:
        p = chain_product(op)
        if p is None:
            return
        _decide(op, p, self.state, rewriter)


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
        _decide(op, p, self.state, rewriter)


def raise_q8(module: ModuleOp, ctx: Context | None = None) -> list[RaiseDecision]:
    """Raise every provable Q8_0 product of `module` in place; what happened to each
    product whose weight a generic dequantises. `ctx` is the context that parsed it,
    which holds the blobs of its `dense_resource` weights."""
    state = _State(ctx=ctx)
    walker = PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [RaiseQ8Matmul(state), RaiseQ8BatchMatmul(state), RaiseQ8Contraction(state)],
            dce_enabled=False,
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
        for d in raise_q8(op, ctx):
            if self.report:
                print(d.line(), file=sys.stderr)
