"""
Named linalg ops that torch-mlir prints and xDSL 0.75 does not register.

torch-mlir's `linalg-on-tensors` output writes a batched product (`torch.bmm`,
`torch.matmul` of 3-d tensors: a model's attention) as

```mlir
%s = linalg.batch_matmul ins(%q, %k : tensor<2x8x64xf32>, tensor<2x64x16xf32>)
                         outs(%acc : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
```

`linalg_dialect()` is xDSL's `linalg` dialect with `linalg.batch_matmul` added and
two ops read as MLIR reads them; the project's own contexts load it
(`dialects.extensions`), and xDSL's classes and its `linalg` dialect are left as they
are (stock `xdsl-opt` reads neither form). The batch product's implicit body is MLIR's,
as `linalg_mixed` gives `linalg.matmul`: each input widened to the accumulator's type
when they differ.

A `linalg.generic` of several results (torch-mlir's `max` with its index, say) is
printed by MLIR, and by xDSL, as `-> (tensor<2x1xf32>, tensor<2x1xi64>)`; xDSL 0.75's
parser reads only an unparenthesised list there. `ResultsGenericOp` reads the
parenthesised one too: the generic's own parser runs as before, with the result
types read through `_ResultTypes`, which takes the parentheses when they are there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, cast

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType, TensorType
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, MatmulOp
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.dialects.linalg_mixed import MixedMatmulOp, mixed_hidden_region


@irdl_op_definition
class BatchMatmulOp(NamedOperation):
    """`C[b, i, j] += A[b, i, k] * B[b, k, j]`: one matmul per batch index."""

    name = "linalg.batch_matmul"

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=ArrayAttr(
            [
                AffineMapAttr(AffineMap.from_callable(lambda b, i, _, k: (b, i, k))),
                AffineMapAttr(AffineMap.from_callable(lambda b, _, j, k: (b, k, j))),
                AffineMapAttr(AffineMap.from_callable(lambda b, i, j, _: (b, i, j))),
            ]
        ),
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if res is None:
            res = [o.type for o in outputs if isinstance(o.type, TensorType)]
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    get_hidden_region = classmethod(mixed_hidden_region)  # pyright: ignore[reportAssignmentType]

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        p, r = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr([p, p, p, r])

    def verify_(self) -> None:
        ranks = [
            t.get_num_dims()
            for v in (*self.inputs, *self.outputs)
            if isinstance(t := v.type, ShapedType)
        ]
        if len(ranks) != 3 or any(r != 3 for r in ranks):
            raise VerifyException(
                "a batch_matmul takes two 3-d inputs and one 3-d accumulator "
                f"(batch x rows x cols), got ranks {ranks}"
            )
        super().verify_()


class _ResultTypes:
    """A parser as `GenericOp.parse` uses it, whose list of result types may be in
    parentheses; everything else is the parser's own."""

    def __init__(self, parser: Parser):
        self.parser = parser

    def __getattr__(self, name: str) -> Any:
        return getattr(self.parser, name)

    def parse_comma_separated_list(
        self, delimiter: Parser.Delimiter, parse: Callable[[], Any], context_msg: str = ""
    ) -> list[Any]:
        p = self.parser
        if (
            delimiter == Parser.Delimiter.NONE
            and parse == p.parse_attribute
            and p.parse_optional_punctuation("(") is not None
        ):
            types = p.parse_comma_separated_list(Parser.Delimiter.NONE, p.parse_type)
            p.parse_punctuation(")", " to end the generic's result types")
            return types
        return p.parse_comma_separated_list(delimiter, parse, context_msg)


class ResultsGenericOp(GenericOp):
    """`linalg.generic` whose result types may be in parentheses, as MLIR prints them."""

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        return super().parse(cast(Parser, _ResultTypes(parser)))


EXTRA_OPS = (BatchMatmulOp,)
"""What this module adds to `linalg`."""

READ_AS = {MatmulOp: MixedMatmulOp, GenericOp: ResultsGenericOp}
"""xDSL's ops and the subclasses the project reads them as."""


def linalg_dialect() -> Dialect:
    """xDSL's `linalg` dialect with `EXTRA_OPS` added and the ops of `READ_AS` read
    as MLIR reads them (a new dialect object: xDSL's is unchanged)."""
    ops = [READ_AS.get(op, op) for op in Linalg.operations]
    return Dialect(Linalg.name, [*ops, *EXTRA_OPS], list(Linalg.attributes))
