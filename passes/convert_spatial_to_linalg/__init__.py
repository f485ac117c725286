"""
`convert-spatial-to-linalg`: every `spatial.view` and `spatial.fold` as upstream
dialects only (`scf`, `memref`, `linalg`, `arith`, `bufferization` at the tensor
boundary), keeping what a site does visible.

Where tensors become buffers: at the program. Outside it the function stays on
tensors (upstream's one-shot bufferization decides the rest); the program's inputs
enter as `bufferization.to_buffer ... read_only` and its results leave as
`bufferization.to_tensor ... restrict`. Inside, everything is a memref:

- each `spatial.tensor` is its tile-padded buffer: an input as it is when its shape is
  whole tiles or when its columns are and each load reads whole tile rows or the last
  one alone (a load of the last copies the rows there, and zeros past them where a
  read of its page may reach those: a decode step's activations, a product's scales),
  else copied once into a zero-padded one, a `values` tensor a private
  `memref.global`, and a tensor that stores write a buffer of its own, so loads read
  the contents as the program started (items run in parallel on the chip); an input
  marked `layout = "tile_columns"` (`spatial-native-layout`: a weight's 32-column
  strips each all of K in one piece) is read as it is laid, tile by tile;
- each `spatial.buffer` a `memref.alloca` of exactly its declared bytes, shaped
  `depth x 32 x 32n` (the site's local memory), made once and reused by the items;
- the item grid a nest of `scf.for`, one loop per axis;
- each load and store a `linalg.copy` of whole tiles between a strided view of the
  tensor (`memref.reinterpret_cast` at the block's first element, which the item and
  K block decide) and the page (an output of one tile row, a product's m rows, is held
  as its live rows, and its stores write those alone); a load every item makes alike
  (outside any K loop, at an origin no item coordinate moves, through no table, of a
  tensor no store writes, into a buffer nothing else writes) made once, before the
  item loops;
- each page a slot of its buffer, taken in turn (a ring of `depth` pages: a buffer
  of depth 2 holds this K block's load while the stage reads the last one);
- each stage a `linalg.generic` over strided views of its pages (a map's flat
  offset `sum(c_d * d) + c` is the view's strides and offset), the stage's body ops
  as they are, the `sum` axes as reduction iterators accumulating in the output
  page, which starts as zeros, and `max` axes as reduction iterators taking the
  largest value (`arith.maximumf`) into an output that starts at -inf; an indirect
  input (`s0 = inN`) a `memref.load` in the body at the offset its table gives (a
  table another program made when the step runs: the offset kept within the page);
  sibling stages (the same space, a page in
  common: a fold's stage per row) one generic with an output each, so the page they
  share is read once; a masked fold (each term `select(ok, term, e)`, `e` the fold's
  identity, +0.0 in a sum and -inf in a largest: a decode step's scores, a
  softmax's largest and sum) whose mask varies along the generic's outermost loop
  (a parallel one, or the fold's own axis, the keys), that loop as an `scf.for` and
  each trip's generic inside an `scf.if` whether the mask keeps some point of it
  (`masked.py`: the keys past every row's position not read);
- the K loop an `scf.for` carrying its pages;
- a move through a table another program made when the step runs (a KV cache write
  at the step's position, a gather by token ids: nothing bounds its entries before
  then) inside an `scf.if`: made only when its block lies inside its tensor, and a
  store's inside the tiles its item owns, so never a copy out of bounds (the
  compiled engine refuses such a move with a message; machine code leaves it out).

```mlir
%y = spatial.fold "q8_gemv_64x64_w2" grid [1] ... ins(%xv, %q, %s : ...) -> tensor<1x64xf32> {
^bb0(%item: index, %xv_in: ..., %q_in: ..., %s_in: ...):
  %q = spatial.tensor "W__q8" external(%q_in : tensor<64x64xi8>) ... : !spatial.tensor<64x64xi8, param>
  %in_q8 = spatial.buffer "in_q8" : !spatial.buffer<4xi8, depth 2>
  ...
  %sum = spatial.k_loop %kb = 0 to 1 iter_args(%acc = %init_sum) -> (!spatial.page<2xf32>) {
    %p_q8 = spatial.load %q[%kb * 4 + %item * 2] block 2x2 stride 2 repeat 1 into %in_q8 : ...
    %block = spatial.stage "block" iters(sum 2, par 64, sum 32) ins(...) into %b[d1] : ... { ... }
    ...
  }
  spatial.store %result to %y_t[%item * 2] block 1x2 stride 2 repeat 1 : ...
  spatial.return %y_t : !spatial.tensor<1x64xf32, output>
}
```
becomes
```mlir
%q = bufferization.to_buffer %W__q8 read_only : tensor<64x64xi8> to memref<64x64xi8>
%y_t = memref.alloc() : memref<32x64xf32>
%in_q8 = memref.alloca() : memref<2x32x128xi8>
...
scf.for %item = %c0 to %c1 step %c1 {
  %sum = scf.for %kb = %c0 to %c1 step %c1 iter_args(%acc = %init_sum) -> (memref<32x64xf32, strided<[64, 1], offset: ?>>) {
    %p_q8 = memref.reinterpret_cast %in_q8 to offset: [%slot], sizes: [32, 128], strides: [128, 1] : ...
    %src = memref.reinterpret_cast %base to offset: [%first], sizes: [2, 32, 64], strides: [2048, 64, 1] : ...
    %dst = memref.reinterpret_cast %base_1 to offset: [%off], sizes: [2, 32, 64], strides: [64, 128, 1] : ...
    linalg.copy ins(%src : ...) outs(%dst : ...)
    linalg.generic {..., iterator_types = ["reduction", "reduction", "parallel"]} ins(...) outs(...) { ... }
    ...
    scf.yield %fold_sum : memref<32x64xf32, strided<[64, 1], offset: ?>>
  }
  ...
}
%y = bufferization.to_tensor %y_live restrict writable : memref<1x64xf32> to tensor<1x64xf32>
```

The package, one job a file: `pages.py` and `loops.py` plan (numbers from the IR),
`build.py` emits ops through the builder it is given, `generic.py` assembles a
`linalg.generic` from stages, `program.py` and `stages.py` translate a program op by
op, `amx.py` puts a Q8_0 block's lanes on AMX tiles (a stage marked so), `globals.py`
makes the module's globals; the pattern and the pass are here.

The output is target-neutral: the kernels a CPU prefers are chosen by a pass of the
native pipeline before this one, `spatial-native-kernels` (`passes/native_kernels.py`),
which marks the stages it chooses for (`kernel = "stream"`: a product of one row reads
its weight in place and sums all its columns at once, attention reads the caches in
place; `kernel = "amx"`: a block's lanes on AMX tiles). This pass builds a marked
stage as its mark says, or declines, naming it, where the mark cannot be honoured; an
unmarked stage the plain way.

A stage's generic runs its axes in another order than the stage lists them: the
`sum` axes outside, the parallel ones inside, the one along which the output is
contiguous innermost. Each output element is then an fp32 sum in a fixed order (the
reference's is numpy's: within the same fp32 bound, not the same bits), and the
innermost loop runs over contiguous outputs, which LLVM vectorises without
reassociating a sum. An axis of extent 1 is left out (`spatial.index` of it is 0).
A summing generic's innermost axis, when longer than `COLUMNS`, is split
(`loop_axes`): its blocks outermost, `COLUMNS` outputs innermost, which stay in
registers while they sum; a generic computes at most `ROWS` rows (`Row`: siblings,
or the rows of a stage's `row_axis`). The sum's add and a product it adds are fused
(`CONTRACT`). A sum of `a * b` with `b` the same along its innermost `sum` axis sums
`a` first and multiplies once (`factored_at`); a bf16 page it reads only widened, as a
broadcast, is widened once (`widen`), and so are the int8 weights more than `ROWS` rows
read (`slices`); only what may be read starts as zeros (`read_outside`). A load of
several tile rows copies in the page's order, so that its writes are contiguous.

The pass declines, naming the program and the reason, a program whose ring of pages
would overwrite a page still to be read (the dialect does not promise there is
none), a map with a negative coefficient, a stage axis no map reads, a move
through a table the pass cannot read, and a stage marked for a kernel it cannot be
(`PlanError`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import Rewriter

from xdsl_spatial.dialects.spatial import ProgramOp
from xdsl_spatial.passes.convert_spatial_to_linalg.amx import AMX_ROWS
from xdsl_spatial.passes.convert_spatial_to_linalg.globals import Globals, make_globals
from xdsl_spatial.passes.convert_spatial_to_linalg.pages import (
    PlanError,
    ring_conflict,
    ring_slots,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.program import ProgramTranslation
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import Options

__all__ = ["AMX_ROWS", "ConvertProgram", "ConvertSpatialToLinalgPass", "PlanError"]


def _decline(program: ProgramOp, why: str) -> PlanError:
    return PlanError(f'{program.name} "{program.program_name.data}": {why}')


@dataclass
class ConvertProgram(RewritePattern):
    """A `spatial.view` or `spatial.fold` -> its buffers, item loops, copies and
    generics (`ProgramTranslation`), reading the module's globals the pass made."""

    globals: Globals
    options: Options

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ProgramOp, rewriter: PatternRewriter) -> None:
        slots = ring_slots(op)
        why = ring_conflict(op, slots)
        if why is not None:
            raise _decline(op, why)
        translation = ProgramTranslation(op, slots, self.globals, self.options)
        results = translation.build(rewriter, list(op.ins))
        for old, new in zip(op.results, results):
            new.name_hint = old.name_hint
        rewriter.replace(op, [], results)


@dataclass(frozen=True)
class ConvertSpatialToLinalgPass(ModulePass):
    """
    Every `spatial` program as `scf`, `memref`, `linalg` and `arith`.

    Options:
      parallel  a program's items as one `scf.parallel`, each with buffers of its own
                (allocas inside the loop), for `convert-scf-to-openmp` to run on
                threads (what `--engine native --threads N` compiles).

    Target-neutral: a stage is built another way only where a target's pass has
    marked it (`kernel = "stream"` or `"amx"`, `spatial-native-kernels`).
    """

    name = "convert-spatial-to-linalg"

    parallel: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        made = make_globals(op, Rewriter())
        PatternRewriteWalker(
            ConvertProgram(made, Options(self.parallel)),
            apply_recursively=False,
            walk_regions_first=False,
        ).rewrite_module(op)
