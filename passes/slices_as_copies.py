"""
`tensor-slices-as-copies`: every `tensor.insert_slice`, `extract_slice` and `concat`
written with `linalg.copy`, so that bufferization leaves no strided `memref.copy`
(which LLVM lowers to a call of `memrefCopy` from MLIR's runtime library, which the
wheel the native engine uses does not ship).

```mlir
%r = tensor.insert_slice %s into %d[0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
```
becomes
```mlir
%w = tensor.extract_slice %d[0, 4] [2, 4] [1, 1] : tensor<2x8xf32> to tensor<2x4xf32>
%c = linalg.copy ins(%s : tensor<2x4xf32>) outs(%w : tensor<2x4xf32>) -> tensor<2x4xf32>
%r = tensor.insert_slice %c into %d[0, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<2x8xf32>
```
bufferized, the copy writes the destination's subview in place and the insert is a
copy of a buffer onto itself, which canonicalisation erases. An `extract_slice` is
copied into a tensor of its own (a buffer with the identity layout, not a strided
subview), a `concat` is its inputs inserted into a new tensor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg.ops import CopyOp
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


class ConcatAsInserts(RewritePattern):
    """`tensor.concat` -> each input inserted into a new tensor at its offset along the
    axis (then each insert a copy, as `InsertSliceAsCopy` writes it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ConcatOp, rewriter: PatternRewriter) -> None:
        axis = op.dim.value.data
        empty = tensor.EmptyOp([], op.result.type)
        ops: list[Operation] = [empty]
        acc: SSAValue = empty.tensor
        at = 0
        for v in op.inputs:
            shape = list(cast(TensorType[Attribute], v.type).get_shape())
            offsets = [0] * len(shape)
            offsets[axis] = at
            ins = tensor.InsertSliceOp.get(v, acc, shape, offsets)
            ops.append(ins)
            acc = ins.result
            at += shape[axis]
        rewriter.replace(op, ops, [acc])


class InsertSliceAsCopy(RewritePattern):
    """`insert_slice %s into %d[...]` -> `insert_slice (copy %s into extract_slice
    %d[...]) into %d[...]`, so no strided `memref.copy` is left after bufferization."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.InsertSliceOp, rewriter: PatternRewriter) -> None:
        if isinstance(op.source.owner, CopyOp):
            return
        props = {k: op.properties[k] for k in ("static_offsets", "static_sizes", "static_strides")}
        index = [list(op.offsets), list(op.sizes), list(op.strides)]
        window = tensor.ExtractSliceOp.build(
            operands=[op.dest, *index], result_types=[op.source.type], properties=props
        )
        copy = CopyOp([op.source], [window.result])
        insert = tensor.InsertSliceOp.build(
            operands=[copy.res[0], op.dest, *index],
            result_types=[op.result.type],
            properties=props,
        )
        rewriter.replace(op, [window, copy, insert])


class ExtractSliceAsCopy(RewritePattern):
    """`%s = extract_slice %t[...]` -> a `linalg.copy` of it into a new tensor, so the
    slice reaches the kernel's result (or another kernel) as a buffer of its own with
    the identity layout, not as a strided subview that bufferization would copy with
    `memref.copy` (`memrefCopy`, from the runtime library the wheel lacks)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
        if any(isinstance(u.operation, CopyOp) for u in op.result.uses):
            return
        empty = tensor.EmptyOp([], op.result.type)
        copy = CopyOp([op.result], [empty.tensor])
        rewriter.insert([empty, copy], InsertPoint.after(op))
        rewriter.replace_uses_with_if(op.result, copy.res[0], lambda u: u.operation is not copy)


@dataclass(frozen=True)
class SlicesAsCopiesPass(ModulePass):
    """Every `tensor.insert_slice`, `extract_slice` and `concat` with `linalg.copy`."""

    name = "tensor-slices-as-copies"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [ConcatAsInserts(), InsertSliceAsCopy(), ExtractSliceAsCopy()]
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns), apply_recursively=True
        ).rewrite_module(op)
