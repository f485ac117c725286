"""
The `q8` dialect: weights stored in GGML's Q8_0 format.

A weight `W` (K x N, `y = x . W`) is stored as blocks of 32 consecutive K-rows of
one column: 32 int8 values `q` and one scale `d`, `w ~= q * d`. The dialect holds
the two tensors apart, the way a chip stores them:

```mlir
%w = q8.dequantize %q, %s : tensor<2048x4096xi8>, tensor<64x4096xf32> -> tensor<2048x4096xf32>
%q, %s = q8.quantize %w exact : tensor<2048x4096xf32> -> tensor<2048x4096xi8>, tensor<64x4096xf32>
```

A weight a frontend stored in another layout (PyTorch's `Linear` and GGUF keep it
N x K; IREE groups it N x G x 32) keeps its operands K x N and names where they came
from, so a host fills the chip's tensors by a transpose of the source, never by
re-quantising it:

```mlir
%w = q8.dequantize %q, %s source "NxK" : tensor<2048x4096xi8>, tensor<64x4096xf16> -> tensor<2048x4096xf32>
```
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, SpacedOpaqueSyntaxAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.core.q8_names import Q8Part as Q8Part
from xdsl_spatial.core.q8_names import stored_name as stored_name
from xdsl_spatial.core.q8_names import stored_part as stored_part
from xdsl_spatial.core.quant import Q8_BLOCK
from xdsl_spatial.dialects.element_types import element_name


class Q8Source(StrEnum):
    """The layout a frontend stored a Q8_0 weight in (values, scales)."""

    KN = "KxN"
    """Values K x N, scales K/32 x N: the chip's own layout."""
    NK = "NxK"
    """Values N x K, scales N x K/32: PyTorch's `Linear` weight, GGUF's tensors."""
    GROUPED = "NxGx32"
    """Values N x G x 32 (G = K/32 groups of 32 lanes), scales N x G x 1 or N x G:
    IREE's grouped quantised matmuls."""


@irdl_attr_definition
class Q8PartAttr(EnumAttribute[Q8Part], SpacedOpaqueSyntaxAttribute):
    """`#q8<part q8_0.values>` or `#q8<part q8_0.scales>`."""

    name = "q8.part"


@irdl_attr_definition
class Q8SourceAttr(EnumAttribute[Q8Source], SpacedOpaqueSyntaxAttribute):
    """The layout a frontend stored a weight in: `#q8<source "NxK">` (an op prints it
    as `source "NxK"`)."""

    name = "q8.source"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string_literal(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Q8Source:
        at = parser.pos
        text = parser.parse_identifier_or_str_literal(" (a source layout)")
        if text not in set(Q8Source):
            parser.raise_error(
                "source must be one of "
                + ", ".join(f'"{v.value}"' for v in Q8Source)
                + f', got "{text}"',
                at,
                parser.pos,
            )
        return Q8Source(text)


def verify_q8_pair(
    values: Attribute, scales: Attribute, weight: Attribute, weight_role: str
) -> None:
    """Check that `values`/`scales` store the Q8_0 weight of type `weight`."""
    for role, t in (("values", values), ("scales", scales), (weight_role, weight)):
        if not isinstance(t, TensorType):
            raise VerifyException(f"{role} must be a ranked tensor, got {t}")
        if t.get_num_dims() != 2:
            raise VerifyException(
                f"{role} must be a 2-d tensor (K x N), got rank {t.get_num_dims()}"
            )
        if any(d < 0 for d in t.get_shape()):
            raise VerifyException(f"{role} must have a static shape, got {t}")
    assert isinstance(values, TensorType)
    assert isinstance(scales, TensorType)
    assert isinstance(weight, TensorType)
    k, n = values.get_shape()
    if k % Q8_BLOCK:
        raise VerifyException(f"K must be a multiple of the Q8_0 block ({Q8_BLOCK}), got K = {k}")
    if not (isinstance(values.element_type, IntegerType) and values.element_type.width.data == 8):
        raise VerifyException(
            f"values must have element type i8, got {element_name(values.element_type)}"
        )
    if not isinstance(scales.element_type, Float32Type | Float16Type | BFloat16Type):
        raise VerifyException(
            "scales must have element type f32, f16 or bf16, got "
            f"{element_name(scales.element_type)}"
        )
    if not isinstance(weight.element_type, Float32Type | BFloat16Type):
        raise VerifyException(
            f"{weight_role} must have element type f32 or bf16, got "
            f"{element_name(weight.element_type)}"
        )
    sk, sn = scales.get_shape()
    if sk != k // Q8_BLOCK:
        raise VerifyException(f"scales must have K/{Q8_BLOCK} = {k // Q8_BLOCK} rows, got {sk}")
    if sn != n:
        raise VerifyException(f"scales must have N = {n} columns, got {sn}")
    if tuple(weight.get_shape()) != (k, n):
        raise VerifyException(
            f"{weight_role} must have the shape of values, {k}x{n}, got "
            f"{'x'.join(map(str, weight.get_shape()))}"
        )


@irdl_op_definition
class DequantizeOp(IRDLOperation):
    """The float weight `w[k, n] = values[k, n] * scales[k / 32, n]` of a Q8_0 pair."""

    name = "q8.dequantize"

    values = operand_def(TensorType)
    """The int8 values, K x N."""
    scales = operand_def(TensorType)
    """One scale per 32 K-rows of each column, K/32 x N (f32, f16 as GGML stores it, or bf16)."""
    result = result_def(TensorType)
    """The weight, K x N, in f32 or bf16 (a bf16 weight is `q * s` rounded to bf16)."""
    source = opt_prop_def(Q8SourceAttr)
    """The layout the frontend stored the weight in, when not K x N: the operands are
    its transposes, which a host makes when it fills the chip's tensors."""

    traits = traits_def(NoMemoryEffect())

    assembly_format = (
        "$values `,` $scales (`source` $source^)? attr-dict `:` type($values) `,` "
        "type($scales) `->` type($result)"
    )

    def __init__(
        self,
        values: SSAValue,
        scales: SSAValue,
        element_type: Attribute | None = None,
        source: Q8Source | None = None,
    ):
        vt = values.type
        assert isinstance(vt, TensorType)
        result = TensorType(element_type or Float32Type(), vt.get_shape())
        props = {"source": Q8SourceAttr(source)} if source is not None else {}
        super().__init__(operands=[values, scales], result_types=[result], properties=props)

    @property
    def source_layout(self) -> Q8Source | None:
        """The frontend's layout of the weight, or None for the chip's own."""
        return self.source.data if self.source is not None else None

    def verify_(self) -> None:
        verify_q8_pair(self.values.type, self.scales.type, self.result.type, "result")


@irdl_op_definition
class QuantizeOp(IRDLOperation):
    """GGML's Q8_0 quantisation of a float weight: `d = max|w| / 127`, `q = round(w / d)`."""

    name = "q8.quantize"

    input = operand_def(TensorType)
    """The float weight, K x N."""
    exact = opt_prop_def(UnitAttr)
    """Fail at run time unless every value is an int8 multiple of its block's scale."""
    values = result_def(TensorType)
    """The int8 values, K x N."""
    scales = result_def(TensorType)
    """The scales, K/32 x N, in the result's float type."""

    traits = traits_def(NoMemoryEffect())

    assembly_format = (
        "$input (`exact` $exact^)? attr-dict `:` type($input) `->` type($values) `,` type($scales)"
    )

    def __init__(self, input: SSAValue, exact: bool = False, scale_type: Attribute | None = None):
        it = input.type
        assert isinstance(it, TensorType)
        k, n = it.get_shape()
        super().__init__(
            operands=[input],
            result_types=[
                TensorType(IntegerType(8), (k, n)),
                TensorType(scale_type or Float32Type(), (k // Q8_BLOCK, n)),
            ],
            properties={"exact": UnitAttr()} if exact else {},
        )

    def verify_(self) -> None:
        verify_q8_pair(self.values.type, self.scales.type, self.input.type, "input")


Q8 = Dialect("q8", [DequantizeOp, QuantizeOp], [Q8PartAttr, Q8SourceAttr])
