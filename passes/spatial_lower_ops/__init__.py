"""
`spatial-lower-ops`: the ops of a decode step that are not Q8_0 products, as spatial
programs. After `q8-lower` has put the products on the chip, this pass puts the rest
there: elementwise `linalg.generic`s and `arith`/`math` ops on tensors (residual adds,
SwiGLU, RoPE and its angle table, casts), reductions (RMSNorm's sum of squares, the
softmax's max and sum), contractions of two activations (attention's `q . k` and
`p . v`, grouped-query heads), the KV cache write at a run-time position and the
embedding gather by token id.

```mlir
%ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                      iterator_types = ["parallel", "reduction"]}
    ins(%x : tensor<1x576xf32>) outs(%zero : tensor<1xf32>) {
^bb0(%a: f32, %acc: f32):
  %sq = arith.mulf %a, %a : f32
  %s = arith.addf %acc, %sq : f32
  linalg.yield %s : f32
} -> tensor<1xf32>
```

becomes

```mlir
%r = spatial.fold "norm_sum_1x576" grid [1] owns (d0) -> (0, 0) size [1, 1] ...
    ins(%x : tensor<1x576xf32>) -> tensor<1x1xf32> {
  ... spatial.load %x[0] block 1x18 ... ; spatial.stage "reduce" iters(sum 576) ... ; spatial.store ...
}
%ss = tensor.collapse_shape %r [[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
```

A program reads its operands through the ops that only rename a layout
(`expand_shape`, `collapse_shape`, `transpose`: `access.py`), so those vanish with the
ops that read them; what is left between programs is reshapes of their 2-d results.
An op the pass cannot lower stays as it is, with the reason under `report=true`.

The pass in files of one role each:

- `axes.py`: an op's iteration space and the cuts that keep addresses linear in tiles;
- `access.py`: where an operand lives on the chip, through layout-only ops;
- `spec.py`: what an op computes (`OpSpec`): its dims, accesses, body and combiner;
- `plan.py`: the plan (numbers in, numbers out): items, K trips, moves and buffers;
- `build.py`: the program a plan describes;
- `reshape.py`: the layout-only ops it inserts;
- `core/program_names.py` (outside the pass: the traffic tables read it too): program
  names and the op kinds a step's programs group by;
- `report.py`: `Decision`, its `report=true` line;
- `keys.py`: what a program is built from, so that an op like one lowered before
  gets a copy of its program (`passes/templates.py`);
- `pattern.py`: one rewrite per source op, handed a `Lowering` per run;
- this file: `lower_ops` and the pass, `SpatialLowerOpsPass`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, RewritePattern

from xdsl_spatial.core.memory import collector_paused
from xdsl_spatial.dialects.spatial import outside_programs
from xdsl_spatial.passes.q8_lower.options import TargetOptions, fields_of, resolve_target
from xdsl_spatial.passes.spatial_lower_ops.pattern import (
    LowerElementwise,
    LowerGeneric,
    Lowering,
    LowerInsertSlice,
    LowerTranspose,
    report_the_rest,
)
from xdsl_spatial.passes.spatial_lower_ops.report import Decision, host_ops
from xdsl_spatial.passes.spatial_lower_ops.reshape import fold_round_trips
from xdsl_spatial.passes.spatial_multicast import mark_multicast

__all__ = ["Decision", "SpatialLowerOpsPass", "host_ops", "lower_ops"]


def lower_ops(module: ModuleOp, **options: object) -> list[Decision]:
    """Lower every op of `module` the pass lowers, in place; a decision per op it
    looked at. `options`: the fields of `TargetOptions`. Python's collector is paused
    throughout (`memory.collector_paused`): callers need not pause it."""
    run = Lowering(resolve_target(module, **fields_of(TargetOptions, dict(options))))
    patterns = [LowerGeneric(run), LowerElementwise(run), LowerInsertSlice(run)]
    with collector_paused():
        _rewrite_once(module, GreedyRewritePatternApplier(patterns))
        # A transpose read through by every op that read it has gone with them; one
        # the host still reads is copied on the chip.
        _rewrite_once(module, LowerTranspose(run))
        fold_round_trips(module)
        for fn in module.ops:
            if isinstance(fn, func.FuncOp) and not fn.is_declaration:
                report_the_rest(run, fn)
        mark_multicast(module)
    return run.decisions


def _rewrite_once(module: ModuleOp, pattern: RewritePattern) -> None:
    """`pattern` once on each op of `module` outside the programs (a walker's
    `apply_recursively=False` pass, without visiting the programs' bodies: the pass's
    output, never its input, and most of a lowered step's ops), in order; an op an
    earlier rewrite took out of the module is passed over."""
    for op in list(outside_programs(module.body)):
        if _in(op, module):
            pattern.match_and_rewrite(op, PatternRewriter(op))


def _in(op: Operation, root: Operation) -> bool:
    """Whether `op` still lies in `root` (no rewrite detached it or an op around it)."""
    p: Operation | None = op
    while p is not None and p is not root:
        p = p.parent_op()
    return p is root


@dataclass(frozen=True)
class SpatialLowerOpsPass(TargetOptions, ModulePass):
    """
    Lower the ops of a step that are not Q8_0 products into spatial programs.

    Options (`-p 'spatial-lower-ops{report=true}'`): the target's, as `q8-lower`
    takes them (preset, local-mem, acc-tiles, tile-rows, tile-cols, act: the precision
    a contraction of two activations multiplies in), and
      report      print to stderr, per op, whether it was lowered and why, its
                  program, items, K trips and bytes.
    """

    name = "spatial-lower-ops"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = {k: getattr(self, k) for k in TargetOptions.__dataclass_fields__}
        decisions = lower_ops(op, **options)
        if self.report:
            for d in decisions:
                print(d.line(), file=sys.stderr)
