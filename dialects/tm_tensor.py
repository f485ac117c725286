"""
The ops of torch-mlir's own `tm_tensor` dialect that its `linalg-on-tensors` output
holds for Hugging Face models, as torch-mlir prints them.

```mlir
%sum:2 = tm_tensor.scan dimension(1) inclusive(true)
           ins(%x : tensor<1x8xi64>) outs(%init, %acc : tensor<1x8xi64>, tensor<1xi64>) {
^bb0(%a: i64, %b: i64):
  %s = arith.addi %a, %b : i64
  tm_tensor.yield %s : i64
} -> tensor<1x8xi64>, tensor<1xi64>
```

`tm_tensor.scan` is `torch.cumsum` (transformers' check for packed sequences, made
when a model is exported without an `attention_mask`): along `dimension`, each
output element is the accumulator combined with the inputs up to it (`inclusive`) or
before it; the second result is the accumulator after the last. The project reads it
(the engines run it as `interpreters/tm_tensor.py` does; for the native engine,
`passes/convert_tm_tensor.py` rewrites an additive scan as `linalg.generic`s) and
refuses, naming it, any other op of the dialect (`core.mlir_text.unread_op`).
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import I64, BoolAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import HasParent, IsTerminator
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class ScanOp(IRDLOperation):
    """A prefix combination (cumsum) of `inputs` along `dimension`, seeded by the second
    output (the accumulator); the results are the scan and the final accumulator."""

    name = "tm_tensor.scan"

    inputs = var_operand_def()
    outputs = var_operand_def()
    results_ = var_result_def()
    dimension = prop_def(IntegerAttr[I64])
    """The axis scanned along."""
    inclusive = prop_def(BoolAttr)
    """Each output includes its own input (`cumsum`), or only those before it."""
    region = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)` `inclusive` `(` $inclusive `)` "
        "`ins` `(` $inputs `:` type($inputs) `)` `outs` `(` $outputs `:` type($outputs) `)` "
        "$region `->` type($results_)"
    )

    def verify_(self) -> None:
        if len(self.inputs) != 1:
            raise VerifyException(f"expected one input, got {len(self.inputs)}")
        if len(self.outputs) != 2:
            raise VerifyException(
                f"expected two outputs (the scan and the accumulator), got {len(self.outputs)}"
            )
        types: list[Attribute] = [self.inputs[0].type, *(o.type for o in self.outputs)]
        if not all(isinstance(t, TensorType) for t in types):
            raise VerifyException("expected tensor operands")
        x, out, acc = (t for t in types if isinstance(t, TensorType))
        if x.get_shape() != out.get_shape():
            raise VerifyException(
                f"the scan's output must have the input's shape {list(x.get_shape())}, "
                f"got {list(out.get_shape())}"
            )
        rank = x.get_num_dims()
        d = self.dimension.value.data
        if not 0 <= d < rank:
            raise VerifyException(f"dimension {d} is outside the input's {rank} axes")
        want = [s for i, s in enumerate(x.get_shape()) if i != d]
        if list(acc.get_shape()) != want:
            raise VerifyException(
                f"the accumulator must have the input's shape without axis {d}, {want}, "
                f"got {list(acc.get_shape())}"
            )
        if [r.type for r in self.results_] != [out, acc]:
            raise VerifyException("the results must have the outputs' types")


@irdl_op_definition
class YieldOp(IRDLOperation):
    """The combined value of a `tm_tensor.scan`'s body."""

    name = "tm_tensor.yield"

    values = var_operand_def()

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    traits = traits_def(IsTerminator(), HasParent(ScanOp))


def scan_combiner(op: ScanOp) -> str | None:
    """Why the scan's body is not a sum of its two arguments (None: it is)."""
    body = op.region.block
    ops = list(body.ops)
    if len(ops) != 2 or not isinstance(ops[0], arith.AddiOp | arith.AddfOp):
        names = ", ".join(o.name for o in ops[:-1]) or "nothing"
        return f"the scan combines by {names}; only a sum (arith.addi, arith.addf: torch.cumsum) is read"
    if set(ops[0].operands) != set(body.args) or ops[1].operands[0] is not ops[0].results[0]:
        return "the scan's body does not add its two arguments"
    return None


TMTensor = Dialect("tm_tensor", [ScanOp, YieldOp])
