"""
What the native engine hands to upstream MLIR: a function converted to upstream
dialects only, outlined into kernels (`outline.py`), and printed once.

```python
prepared = prepare(fn)          # outlined; fn is left as it is
prepared.source                 # printed before conversion: the compile cache's key
text = convert(prepared)        # the module upstream MLIR parses
prepared.programs               # the programs it runs, in order, for their traffic
```

Steps, each on a copy of the function:

1. outline: each computing op into a private kernel function of its own, ops that
   compute the same into one (`outline.fingerprint`), so each of the rest is done
   once per kernel, not once per op;
2. `convert-spatial-to-linalg` then `convert-q8-to-linalg` on the whole module;
3. each `tensor.insert_slice` written as a `linalg.copy` into the slice it replaces
   (`extract_slice`, copy, `insert_slice` of the copy): bufferized, the copy writes
   the destination's subview in place and the insert is a copy of a buffer onto
   itself, which canonicalisation erases. Left as it is, bufferization copies the
   source into a strided subview with `memref.copy`, which LLVM lowers to a call of
   `memrefCopy` from MLIR's runtime library, which the wheel does not ship; for the
   same reason each `tensor.extract_slice` is copied into a tensor of its own, and a
   `tensor.concat` is its inputs inserted (so copied) into a new tensor;
4. each `linalg.generic` whose innermost loop is a reduction reordered so that its
   output's contiguous axis runs innermost (`ContiguousOutputInnermost`; the same
   sums in the same order).

A program that reads an address from a table at run time (an indirect move or
stage map) is first compiled by the compiled engine, for its refusals: machine code
reads where the table says without checking, so an address outside a page or a
tensor is refused here, with the compiled engine's message, or never.

A module that still holds an op of another dialect after that (a `q8.quantize
exact`, whose run-time refusal no generic can make) is refused here, naming the op.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import AffineMapAttr, IntegerAttr, ShapedType, TensorType, i64
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import CopyOp, GenericOp, IndexOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from xdsl_spatial.core.ir_io import op_text
from xdsl_spatial.dialects.spatial import ProgramOp, StageOp, TileMoveOp
from xdsl_spatial.interpreters.native.outline import Outlined, ir_text, outline
from xdsl_spatial.interpreters.program import ProgramCompiler
from xdsl_spatial.interpreters.traffic import ProgramTraffic, program_traffic
from xdsl_spatial.interpreters.values import SpatialRuntimeError
from xdsl_spatial.passes.convert_q8_to_linalg import ConvertQ8ToLinalgPass
from xdsl_spatial.passes.convert_spatial_to_linalg import ConvertSpatialToLinalgPass

UPSTREAM_DIALECTS = frozenset(
    {
        "builtin",
        "func",
        "arith",
        "math",
        "linalg",
        "tensor",
        "memref",
        "scf",
        "bufferization",
        "x86",
    }
)
"""The dialects the converted module may hold: upstream MLIR's own."""


class PrepareError(Exception):
    """A function the native engine cannot hand to upstream MLIR; names the op."""


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


class ContiguousOutputInnermost(RewritePattern):
    """A `linalg.generic` whose innermost loop is a reduction (attention's `q . k` over
    a head's dims, `p . v` over the cache's positions): its loops reordered so that the
    axis along which its output is contiguous runs innermost, the reductions just
    outside it. `convert-linalg-to-loops` runs the loops in the generic's order, and an
    innermost fp32 reduction is a chain of dependent adds that LLVM may not reassociate
    (one add per latency of the unit); an innermost output axis is independent sums,
    which it vectorises. Each output's terms are added in the same order: the same
    bits. (The converted programs' generics have a parallel axis innermost already.)"""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        kinds = [cast(IteratorTypeAttr, t).data for t in op.iterator_types]
        if len(kinds) < 2 or kinds[-1] != IteratorType.REDUCTION or len(op.outputs) != 1:
            return
        out_map = op.indexing_maps.data[-1].data
        shape = cast(ShapedType, op.outputs[0].type).get_shape()
        if not out_map.results or not shape or shape[-1] <= 1:
            return
        last = out_map.results[-1]
        if not isinstance(last, AffineDimExpr) or kinds[last.position] != IteratorType.PARALLEL:
            return
        n = len(kinds)
        order = [d for d in range(n) if d != last.position] + [last.position]
        new_of_old = {old: new for new, old in enumerate(order)}
        dims = [AffineExpr.dimension(new_of_old[d]) for d in range(n)]
        for o in op.body.walk():
            if isinstance(o, IndexOp):
                o.dim = IntegerAttr(new_of_old[o.dim.value.data], i64)
        rewriter.replace(
            op,
            GenericOp(
                op.inputs,
                op.outputs,
                rewriter.move_region_contents_to_new_regions(op.body),
                [
                    AffineMapAttr(m.data.replace_dims_and_symbols(dims, [], n, 0))
                    for m in op.indexing_maps
                ],
                [op.iterator_types.data[d] for d in order],
                op.result_types,
            ),
        )


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


@dataclass
class Prepared:
    """A function outlined into kernels, before and after its conversion."""

    name: str
    outlined: Outlined
    """The entry and its kernels (converted in place by `convert`)."""
    programs: tuple[ProgramTraffic, ...]
    """What each program of the function moves in one call, in the order they run."""
    source: str
    """The outlined module before conversion, printed: what decides the machine code
    (the compile cache's key), made without converting anything."""
    text: str = ""
    """The converted module, printed: what upstream MLIR parses (after `convert`)."""


def _foreign(ops: Iterable[Operation]) -> Operation | None:
    for o in ops:
        if o.name.split(".", 1)[0] not in UPSTREAM_DIALECTS:
            return o
    return None


def reads_through_tables(program: ProgramOp) -> bool:
    """Whether some address of `program` is read from a table at run time (a move's
    indirect origin, a stage's indirect map), which the verifier cannot bound."""
    return any(
        (isinstance(o, TileMoveOp) and o.table is not None)
        or (isinstance(o, StageOp) and any(v >= 0 for v in o.indirect_of))
        for o in program.body.walk()
    )


def check_tables(program: ProgramOp) -> None:
    """The compiled engine's refusals of a program that reads addresses from tables
    (a table that is not constant, an address outside its page or tensor), made now:
    machine code does not check an address before it reads there."""
    try:
        ProgramCompiler(program).compile()
    except SpatialRuntimeError as e:
        raise PrepareError(str(e)) from None


def prepare(fn: func.FuncOp) -> Prepared:
    """`fn` (verified, one block) outlined into kernels, the same ones merged; `fn` is
    unchanged."""
    programs = tuple(program_traffic(o) for o in fn.body.block.ops if isinstance(o, ProgramOp))
    out = outline(fn)
    return Prepared(fn.sym_name.data, out, programs, ir_text(out.module))


def convert(
    prepared: Prepared, parallel: bool = False, amx: bool = False, stream: bool = False
) -> str:
    """The kernels converted to upstream dialects (the checks of programs that read
    through tables first; with `parallel`, each program's items an `scf.parallel`;
    with `amx`, Q8_0 blocks' lanes on the AMX unit); the module's text, also kept in
    `prepared.text`."""
    out = prepared.outlined
    for k in out.kernels:
        for o in k.body.block.ops:
            if isinstance(o, ProgramOp) and reads_through_tables(o):
                check_tables(o)
    ctx = Context()
    ConvertSpatialToLinalgPass(parallel=parallel, amx=amx, stream=stream).apply(ctx, out.module)
    ConvertQ8ToLinalgPass().apply(ctx, out.module)
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [
                ConcatAsInserts(),
                InsertSliceAsCopy(),
                ExtractSliceAsCopy(),
                ContiguousOutputInnermost(),
            ]
        ),
        apply_recursively=True,
    ).rewrite_module(out.module)
    for k in out.kernels:
        bad = _foreign(k.walk())
        if bad is not None:
            src = out.sources[k.sym_name.data][0]
            raise PrepareError(
                f"{src.name}: cannot run natively: after conversion it leaves "
                f"{bad.name}, which upstream MLIR does not know ({op_text(src)[:120]})"
            )
    prepared.text = ir_text(out.module)
    return prepared.text
