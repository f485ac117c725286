"""
`spatial-native-kernels{kind=generic|loop|avx2|avx512|bf16|amx}`: the kernels a CPU runs a program's
sums as, chosen for the native engine's host (`interpreters/native/host.py` picks
`kind` from the CPU's features), before `convert-spatial-to-linalg` builds them.

The conversion is target-neutral: it builds every stage the plain way (every page
copied, a block's lanes summed `COLUMNS` columns and `ROWS` rows at a time) unless a
stage is marked for another kernel. This pass makes that choice and marks it, each
summing stage of a program (with its siblings, which one generic computes) gets
`kernel = "stream"`, `"fma"`, `"fma512"`, `"dot"` or `"amx"` (`loops.KERNEL`):

- `generic`: no marks (it removes any): the plain kernels, on any CPU.
- `loop`: every summing stage `stream`: a product of one row reads the pages only its
  sum reads, each element once, where the weight holds them (no copy), and runs a
  block's lanes over all of an item's columns at once; a sum of several rows that
  reads its pages as they are (attention's, of the KV caches) reads them in place
  too. Plain loops: any CPU.
- `avx2`: as `loop`, but a run of `FMA_ROWS` rows or more whose lanes are a Q8_0
  block's bf16 x int8 terms (`amx.lanes_fit`) `fma`: its lanes' sums vector fused
  multiply-adds, a lane an instruction, its weights widened once a trip, the sums held
  in 12 256-bit registers (`dot.FMA_SHAPES`; a CPU with AVX2 and FMA).
- `avx512`: as `avx2`, but such a run `fma512`: the same fused multiply-adds in 512-bit
  vectors, the sums held in 24 registers (a CPU with AVX-512).
- `bf16`: as `loop`, but a run of `DOT_ROWS` rows or more whose lanes are a Q8_0
  block's bf16 x int8 terms (`amx.lanes_fit`) `dot`: its lanes' sums AVX512-BF16 dot
  products, a pair of lanes an instruction (a CPU that has AVX512-BF16).
- `amx`: as `loop`, but a run of `AMX_ROWS` rows or more whose lanes are a Q8_0
  block's bf16 x int8 terms (`amx.lanes_fit`) `amx`: its lanes' sums tile products of
  x86's AMX-BF16 unit (a CPU that has it).

The same sums in the same order whatever the kind (`tests/test_kernels.py`).

```mlir
%block = spatial.stage "block" iters(sum 32, par 256)
    ins(%xs[d0], %q[d0 * 256 + d1]) into %b[d1] : (...) -> !spatial.page<8xf32> { ... }
```
with `kind=loop` becomes
```mlir
%block = spatial.stage "block" iters(sum 32, par 256)
    ins(%xs[d0], %q[d0 * 256 + d1]) into %b[d1] : (...) -> !spatial.page<8xf32>
    attributes {kernel = "stream"} { ... }
```

The pass declines an unknown `kind`, naming it and the kinds it knows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from xdsl_spatial.dialects.spatial import KLoopOp, ProgramOp, StageOp
from xdsl_spatial.passes.convert_spatial_to_linalg.amx import lanes_fit
from xdsl_spatial.passes.convert_spatial_to_linalg.dot import LEAST_ROWS
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import (
    AMX,
    DOT,
    FMA,
    FMA512,
    KERNEL,
    STREAM,
    item_ops,
    row_count,
    siblings,
    sums,
)

KINDS = ("generic", "loop", "avx2", "avx512", "bf16", "amx")
"""The kinds of kernels the pass chooses between (`kind`)."""

BLOCK_MARKS = {"avx2": FMA, "avx512": FMA512, "bf16": DOT, "amx": AMX}
"""The block kernel (`loops.BLOCK_KERNELS`) each kind marks a run of enough rows whose
lanes fit (`choose`); the other summing runs `stream`."""


def runs(ops: Sequence[Operation]) -> Iterator[list[StageOp]]:
    """The runs of sibling stages (`loops.siblings`) among `ops` and inside their K
    loops, as the conversion groups them into generics."""
    i = 0
    while i < len(ops):
        o = ops[i]
        if isinstance(o, StageOp):
            run = siblings(ops, i)
            yield run
            i += len(run)
            continue
        if isinstance(o, KLoopOp):
            yield from runs(list(o.body.block.ops))
        i += 1


def choose(run: Sequence[StageOp], kind: str) -> str | None:
    """The kernel a run of siblings is built as under `kind`: None (the plain one) for
    `generic` or a run that does not sum."""
    if kind == "generic" or not sums(run[0]):
        return None
    mark = BLOCK_MARKS.get(kind)
    if mark is not None:
        least = LEAST_ROWS[mark]
        if row_count(run) >= least and lanes_fit(run, least):
            return mark
    return STREAM


@dataclass(frozen=True)
class MarkKernels(RewritePattern):
    """A `spatial.view` or `spatial.fold` -> the same, each summing stage marked with
    the kernel `kind` chooses for it (`choose`)."""

    kind: str

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ProgramOp, rewriter: PatternRewriter) -> None:
        for run in runs(item_ops(op)):
            mark = choose(run, self.kind)
            for o in run:
                now = o.attributes.get(KERNEL)
                if mark is None and now is not None:
                    del o.attributes[KERNEL]
                elif mark is not None and now != StringAttr(mark):
                    o.attributes[KERNEL] = StringAttr(mark)
                else:
                    continue
                rewriter.notify_op_modified(o)


@dataclass(frozen=True)
class NativeKernelsPass(ModulePass):
    """
    Marks each summing stage with the kernel a CPU runs it as, for
    `convert-spatial-to-linalg` to build.

    Options:
      kind  generic (no marks: the plain kernels), loop (a product of one row streams
            its weight, attention reads the caches in place; any CPU), avx2 (loop,
            and the lanes of 2 rows or more as 256-bit fused multiply-adds held in
            registers), avx512 (avx2 in 512-bit vectors), bf16 (loop, and the lanes
            of 2 rows or more as AVX512-BF16 dot products) or amx (loop, and the
            lanes of 2 rows or more on AMX-BF16 tiles). The native engine picks it
            from the host's features.
    """

    name = "spatial-native-kernels"

    kind: str = "loop"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.kind not in KINDS:
            raise PassFailedException(
                f"spatial-native-kernels: unknown kind '{self.kind}', "
                f"expected one of {', '.join(KINDS)}"
            )
        PatternRewriteWalker(
            MarkKernels(self.kind), apply_recursively=False, walk_regions_first=False
        ).rewrite_module(op)
