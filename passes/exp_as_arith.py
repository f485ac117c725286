"""
`math-exp-as-arith`: every `math.exp` of f32 values (a scalar, or a vector or tensor of
them) written as `arith` ops in f64, which LLVM vectorises where the loop around it
is: a call of libm's `expf` an element keeps a generic's loop scalar (SwiGLU's
`silu` and attention's softmax, about 4% of an 8-sequence decode step's time in
`expf` alone). The native engine runs it on every module it compiles.

For x (f32), in f64:

```
c = x clamped to [-104, 89]      // e^-104 rounds to 0 in f32, e^89 past its largest
z = c * log2(e)                  // e^x = 2^z
k = z rounded to an integer      // by adding 1.5 * 2^52 and taking it away
f = z - k                        // |f| <= 1/2
p = 1 + f ln2 + (f ln2)^2/2! + ... + (f ln2)^10/10!   // 2^f, Horner, from the highest term
y = p * 2^k                      // 2^k made from its exponent bits: k in [-150, 128]
```

then `y` rounded once to f32 (which makes f32's subnormals and its overflow to
infinity). A NaN stays one all the way (the clamps propagate it, and no step turns
it into an integer: `k`'s bits are read from the sum's). The series' truncation
(below 1e-12 of the result) and the f64 rounding errors (about 1e-14) are far below
half an f32 ulp (6e-8 of the result), so the result is e^x rounded to f32 except
where e^x lies within about 1e-12 of a rounding boundary, and within one ulp of it
always (`tests/test_exp_as_arith.py` checks both on the native engine, on every
991st f32 from -110 to 95 and the special values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    VectorType,
    f32,
    f64,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.type import get_element_type_or_self

LOWEST, HIGHEST = -104.0, 89.0
"""Where x is clamped: e^-104 (6.8e-46) is nearer 0 than f32's least subnormal
(1.4e-45), e^89 (4.5e38) past its largest finite value (3.4e38)."""

TERMS = 11
"""Terms of 2^f's series in f ln 2 (degrees 0-10): at |f| = 1/2 the first left out
is 2e-13 of the sum."""

ROUNDER = 1.5 * 2.0**52
"""Added to z and taken away again, z rounded to the nearest integer, ties to even
(f64's own rounding); in between, that integer is in the sum's low bits."""

ROUNDER_BITS = 0x4338000000000000
"""`ROUNDER`'s bits: taken from the sum's, the integer."""

COEFFICIENTS = tuple(math.log(2) ** i / math.factorial(i) for i in range(TERMS))
"""2^f = sum over i of (ln 2)^i / i! f^i."""


def expand_exp(x: SSAValue) -> tuple[list[Operation], SSAValue]:
    """The ops computing e^x for f32 `x` (or a vector or tensor of f32) as the module
    docstring writes it, and their result."""
    ops: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    given = x.type
    shaped = given if isinstance(given, VectorType | TensorType) else None

    def like(elem: Attribute) -> Attribute:
        if isinstance(shaped, VectorType):
            return VectorType(elem, shaped.get_shape())
        if isinstance(shaped, TensorType):
            return TensorType(elem, shaped.get_shape())
        return elem

    def const(v: float | int, elem: Attribute) -> SSAValue:
        t = like(elem)
        if isinstance(t, VectorType | TensorType):
            splat = DenseIntOrFPElementsAttr.from_list(cast(Any, t), [v])
            return add(arith.ConstantOp(splat))
        return add(arith.ConstantOp(FloatAttr(v, f64) if elem == f64 else IntegerAttr(int(v), i64)))

    d = add(arith.ExtFOp(x, like(f64)))
    c = add(arith.MinimumfOp(add(arith.MaximumfOp(d, const(LOWEST, f64))), const(HIGHEST, f64)))
    z = add(arith.MulfOp(c, const(1 / math.log(2), f64)))
    magic = const(ROUNDER, f64)
    m = add(arith.AddfOp(z, magic))  # k in its low bits
    k = add(arith.SubfOp(m, magic))
    f = add(arith.SubfOp(z, k))
    p = const(COEFFICIENTS[-1], f64)
    for a in reversed(COEFFICIENTS[:-1]):
        p = add(arith.AddfOp(add(arith.MulfOp(p, f)), const(a, f64)))
    ki = add(arith.SubiOp(add(arith.BitcastOp(m, like(i64))), const(ROUNDER_BITS, i64)))
    biased = add(arith.AddiOp(ki, const(1023, i64)))
    scale = add(arith.BitcastOp(add(arith.ShLIOp(biased, const(52, i64))), like(f64)))
    return ops, add(arith.TruncFOp(add(arith.MulfOp(p, scale)), x.type))


class ExpAsArith(RewritePattern):
    """`math.exp` of f32 -> `expand_exp`'s ops."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: xmath.ExpOp, rewriter: PatternRewriter) -> None:
        if get_element_type_or_self(op.result.type) != f32:
            return
        ops, result = expand_exp(op.operand)
        rewriter.replace(op, ops, [result])


@dataclass(frozen=True)
class ExpAsArithPass(ModulePass):
    """Every `math.exp` of f32 values as `arith` ops in f64 (the module docstring)."""

    name = "math-exp-as-arith"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ExpAsArith(), apply_recursively=False).rewrite_module(op)
