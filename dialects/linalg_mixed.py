"""
Mixed-precision `linalg.matmul`, as MLIR writes it.

MLIR's `linalg.matmul` extends each input to the accumulator's type before it
multiplies, so `bf16 x bf16 -> f32` is a valid matmul:

```mlir
%y = linalg.matmul ins(%x, %w : tensor<1x2048xbf16>, tensor<2048x4096xbf16>)
                   outs(%acc : tensor<1x4096xf32>) -> tensor<1x4096xf32>
```

xDSL 0.75 builds the implicit body in the inputs' type (`arith.mulf` on bf16, then
`arith.addf` of a bf16 and an f32), which does not verify. `install()` gives
`linalg.matmul` MLIR's body whenever an input's element type differs from the
accumulator's: `arith.extf` (floats) or `arith.extsi` (integers) of each narrower
input, then `mulf`/`addf` in the accumulator's type. Same-type matmuls keep xDSL's
own body, untouched. A matmul without two inputs and one output (`outs(...)` left
off, say) is a `VerifyException` saying so, where xDSL's body builder would index
past its arguments.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.ops import MatmulOp, YieldOp
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.utils.exceptions import VerifyException


def _widen(value: SSAValue, to: AnyFloat | IntegerType) -> SSAValue:
    if value.type == to:
        return value
    if isinstance(to, IntegerType):
        return arith.ExtSIOp(value, to).result
    return arith.ExtFOp(value, to).result


def mixed_hidden_region(
    cls: type[NamedOperation], inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    if len(inputs) != 2 or len(outputs) != 1:
        raise VerifyException(
            "a matmul takes two inputs, ins(A, B), and one accumulator, outs(C); got "
            f"{len(inputs)} input{'s' if len(inputs) != 1 else ''} and "
            f"{len(outputs)} output{'s' if len(outputs) != 1 else ''}"
        )
    arg_types = MatmulOp.body_arg_types((*inputs, *outputs))
    acc = arg_types[-1]
    mixed = any(t != acc for t in arg_types[:-1])
    same_kind = all(isinstance(t, IntegerType) == isinstance(acc, IntegerType) for t in arg_types)
    if not (mixed and same_kind and len(arg_types) == 3):
        return MatmulOp.get_hidden_region(inputs, outputs)

    mul, add = (
        (arith.MuliOp, arith.AddiOp)
        if isinstance(acc, IntegerType)
        else (arith.MulfOp, arith.AddfOp)
    )

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        lhs = _widen(args[0], acc)
        rhs = _widen(args[1], acc)
        product = mul(lhs, rhs)
        YieldOp(add(args[2], product))

    return body


class MixedMatmulOp(MatmulOp):
    """`linalg.matmul` as MLIR has it: inputs narrower than the accumulator widened."""

    get_hidden_region = classmethod(mixed_hidden_region)  # pyright: ignore[reportAssignmentType]
