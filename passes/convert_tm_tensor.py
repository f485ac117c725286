"""
`convert-tm-tensor-to-linalg`: torch-mlir's additive `tm_tensor.scan` (`torch.cumsum`)
as `linalg.generic`s, which upstream MLIR compiles (the native engine runs it so).

```mlir
%out, %acc = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<1x6xi64>)
    outs(%o, %a : tensor<1x6xi64>, tensor<1xi64>) {
^bb0(%p: i64, %q: i64):
  %s = arith.addi %p, %q : i64
  tm_tensor.yield %s : i64
} -> tensor<1x6xi64>, tensor<1xi64>
```
becomes a seed (zero; for an exclusive scan, the accumulator along the axis), the sum
over a second loop `j` along the axis of the inputs with `j <= i` (`j < i` exclusive),
and the last output along the axis as the accumulator:
```mlir
%seed = linalg.generic {maps [(d0, d1) -> (d0, d1)], parallel x 2} outs(%e0) { yield %c0 }
%out = linalg.generic {maps [(d0, d1, d2) -> (d0, d2), (d0, d1, d2) -> (d0, d1)],
                       parallel, parallel, reduction} ins(%x) outs(%seed) {
^bb0(%v: i64, %o: i64):
  %i = linalg.index 1 : index
  %j = linalg.index 2 : index
  %in = arith.cmpi ule, %j, %i : index
  %t = arith.select %in, %v, %c0 : i64
  %s = arith.addi %o, %t : i64
  linalg.yield %s : i64
}
%acc = linalg.generic {maps [(d0) -> (d0, 5), (d0) -> (d0)], parallel} ins(%out) outs(%e1)
```
Each output is its inputs summed in the scan's own order (`out[i-1] + x[i]`, as the
interpreter's `np.cumsum` and MLIR's scalar definition of the op), the later ones
adding zero, which changes no sum; the work is n^2 along the axis (a window's
positions: tens). The scan's `outs` are not read, as the op's definition reads none
but the exclusive accumulator. A scan that combines by anything but a sum is left as it
is (the native engine then refuses it, naming it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, AnyFloat, FloatAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from xdsl_spatial.dialects.tm_tensor import ScanOp, scan_combiner

PARALLEL = IteratorTypeAttr.parallel()
REDUCTION = IteratorTypeAttr.reduction()


def _map(dims: int, results: list[AffineExpr]) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(dims, 0, tuple(results)))


def _zero(elem: Any) -> arith.ConstantOp:
    if isinstance(elem, AnyFloat):
        return arith.ConstantOp(FloatAttr(0.0, elem))
    return arith.ConstantOp.from_int_and_width(0, elem)


def _seed(x: TensorType[Any], acc: SSAValue, axis: int, inclusive: bool) -> list[Operation]:
    """The scan's output before any input is added: zeros, or (exclusive) the
    accumulator along the axis."""
    rank = x.get_num_dims()
    d = [AffineExpr.dimension(i) for i in range(rank)]
    elem = x.get_element_type()
    empty = tensor.EmptyOp([], x)
    if inclusive:
        block = Block(arg_types=[elem])
        zero = _zero(elem)
        block.add_ops([zero, YieldOp(zero.result)])
        ins, maps = [], [_map(rank, d)]
    else:
        block = Block(arg_types=[elem, elem])
        block.add_op(YieldOp(block.args[0]))
        ins, maps = [acc], [_map(rank, [e for i, e in enumerate(d) if i != axis]), _map(rank, d)]
    gen = GenericOp(ins, [empty.tensor], Region(block), maps, [PARALLEL] * rank, [x])
    return [empty, gen]


class ScanAsGenerics(RewritePattern):
    """An additive `tm_tensor.scan` -> seed, triangular sum, last output (see above)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ScanOp, rewriter: PatternRewriter) -> None:
        if scan_combiner(op) is not None:
            return
        x = cast(TensorType[Any], op.inputs[0].type)
        acc_t = cast(TensorType[Any], op.outputs[1].type)
        axis = op.dimension.value.data
        inclusive = bool(op.inclusive.value.data)
        rank, n = x.get_num_dims(), x.get_shape()[axis]
        elem = x.get_element_type()
        ops = _seed(x, op.outputs[1], axis, inclusive)
        seed = ops[-1].results[0]
        # the sum: loops d0..d(rank-1) over the output, d(rank) = j along the axis
        d = [AffineExpr.dimension(i) for i in range(rank + 1)]
        x_map = [d[rank] if i == axis else d[i] for i in range(rank)]
        body = Block(arg_types=[elem, elem])
        i_ = IndexOp(axis)
        j_ = IndexOp(rank)
        cmp = arith.CmpiOp(j_.result, i_.result, "ule" if inclusive else "ult")
        floating = isinstance(elem, AnyFloat)
        zero = _zero(elem)
        term = arith.SelectOp(cmp.result, body.args[0], zero.result)
        add = (arith.AddfOp if floating else arith.AddiOp)(body.args[1], term.result)
        body.add_ops([i_, j_, cmp, zero, term, add, YieldOp(add.result)])
        total = GenericOp(
            [op.inputs[0]],
            [seed],
            Region(body),
            [_map(rank + 1, x_map), _map(rank + 1, d[:rank])],
            [PARALLEL] * rank + [REDUCTION],
            [x],
        )
        # the accumulator: the last output along the axis
        a = [AffineExpr.dimension(i) for i in range(rank - 1)]
        at = [*a[:axis], AffineExpr.constant(n - 1), *a[axis:]]
        last = Block(arg_types=[elem, elem])
        last.add_op(YieldOp(last.args[0]))
        empty = tensor.EmptyOp([], acc_t)
        final = GenericOp(
            [total.results[0]],
            [empty.tensor],
            Region(last),
            [_map(rank - 1, at), _map(rank - 1, a)],
            [PARALLEL] * (rank - 1),
            [acc_t],
        )
        rewriter.replace(op, [*ops, total, empty, final], [total.results[0], final.results[0]])


@dataclass(frozen=True)
class ConvertTMTensorPass(ModulePass):
    """Every additive `tm_tensor.scan` as `linalg.generic`s (see the module docstring)."""

    name = "convert-tm-tensor-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ScanAsGenerics(), apply_recursively=False).rewrite_module(op)
