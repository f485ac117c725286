"""
The AVX512-BF16 op of upstream MLIR's `x86` dialect that `convert-spatial-to-linalg`
emits for a stage marked `kernel = "dot"` (`spatial-native-kernels{kind=bf16}`): a
vector of bf16 pairs times another, summed pair by pair into f32 lanes, as MLIR writes it.

```mlir
%acc1 = x86.avx512.dot %acc, %x, %w : vector<32xbf16> -> vector<16xf32>
```

`dot` is `VDPBF16PS`: `acc[i] + a[2i] * b[2i] + a[2i + 1] * b[2i + 1]` for each of the
16 (or 8, at 256 bits) f32 lanes, each product of two bf16 exact in fp32, the two added
in the unit's order and rounding, denormal inputs and results read and written as zero.
xDSL 0.75 has no such op, so it is written here, and the project's contexts
(`dialects.extensions`) read `x86` as xDSL's dialect with it added (`with_dot`; xDSL's
dialect is unchanged).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects.builtin import BFloat16Type, VectorType, f32
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

WIDTHS = (8, 16)
"""The f32 lanes of a `dot` (256 or 512 bits)."""


@irdl_op_definition
class DotBF16Op(IRDLOperation):
    """`src + a . b` pair by pair: each f32 lane of `src` plus the two products of the
    bf16 pair of `a` and of `b` in that lane (`VDPBF16PS`)."""

    name = "x86.avx512.dot"

    T: ClassVar = VarConstraint("T", base(VectorType))
    P: ClassVar = VarConstraint("P", base(VectorType))

    src = operand_def(T)
    a = operand_def(P)
    b = operand_def(P)
    dst = result_def(T)

    assembly_format = "$src `,` $a `,` $b attr-dict `:` type($a) `->` type($src)"

    def __init__(self, src: SSAValue, a: SSAValue, b: SSAValue):
        super().__init__(operands=[src, a, b], result_types=[src.type])

    def verify_(self) -> None:
        acc, pairs = self.src.type, self.a.type
        assert isinstance(acc, VectorType) and isinstance(pairs, VectorType)
        (lanes,) = acc.get_shape() if acc.get_num_dims() == 1 else (0,)
        if acc.element_type != f32 or lanes not in WIDTHS:
            raise VerifyException(
                f"dot accumulates into vector<8xf32> or vector<16xf32>, got {acc}"
            )
        if pairs.element_type != BFloat16Type() or pairs.get_shape() != (2 * lanes,):
            raise VerifyException(
                f"dot of {acc} multiplies vector<{2 * lanes}xbf16> pairs, got {pairs}"
            )


DOT_OPS = (DotBF16Op,)


def with_dot(factory: Callable[[], Dialect]) -> Callable[[], Dialect]:
    """A factory of the `x86` dialect `factory` makes with `dot` added, made only when
    a context loads it."""

    def load() -> Dialect:
        x86 = factory()
        ops = [op for op in x86.operations if op not in DOT_OPS]
        return Dialect(x86.name, [*ops, *DOT_OPS], list(x86.attributes))

    return load
