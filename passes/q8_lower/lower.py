"""
The pass: `q8-lower` raises the frontend forms `q8-raise` recognises, then rewrites
every Q8_0 matmul of a module (`LowerQ8Matmul`), one `Lowering` a run; with
`optimize`, it then runs the spatial passes over the programs it made (`OPTIMIZE`).
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriteWalker

from xdsl_spatial.passes.q8_lower.options import (
    ParallelOptions,
    TargetOptions,
    fields_of,
    resolve_target,
)
from xdsl_spatial.passes.q8_lower.pattern import Lowering, LowerQ8Matmul
from xdsl_spatial.passes.q8_lower.report import Decision
from xdsl_spatial.passes.q8_raise import RaiseDecision, raise_q8
from xdsl_spatial.passes.spatial_hoist import HoistPass
from xdsl_spatial.passes.spatial_multicast import MulticastPass
from xdsl_spatial.passes.spatial_siblings import MergeSiblingsPass
from xdsl_spatial.passes.spatial_sum_trips import SumTripsPass

OPTIMIZE: tuple[ModulePass, ...] = (
    MergeSiblingsPass(),
    SumTripsPass(),
    HoistPass(),
    MulticastPass(),
)
"""What `optimize` runs after lowering, in order: a batch's stage a row merged into
one, an accumulating K loop's trips summed as many at once as a site holds, what a
loop does the same every trip (all of a loop that runs once) taken out of it, then
the loads every item reads at one address (a fold's view) marked multicast."""

OPTIMIZED = "q8-lower{optimize=true}"
"""The pipeline the tools run by default: the lowering, then the spatial passes."""


def raise_and_lower(
    module: ModuleOp, ctx: Context | None = None, *, optimize: bool = False, **options: Any
) -> tuple[list[RaiseDecision], list[Decision]]:
    """What `q8-lower` does to `module`, in place: raise the frontend forms `q8-raise`
    recognises, then lower every Q8_0 matmul (and with `optimize`, run the spatial
    passes of `OPTIMIZE` over the result); what each step decided (the raise's
    decisions, then one per matmul). `options`: the fields of `TargetOptions` and of
    `ParallelOptions`, checked before anything is rewritten; `ctx`: the context that
    parsed the module (its `dense_resource` blobs)."""
    known = {f.name for cls in (TargetOptions, ParallelOptions) for f in dataclasses.fields(cls)}
    if unknown := sorted(set(options) - known):
        raise TypeError(f"lower_q8: unknown options {', '.join(unknown)}")
    parallel = ParallelOptions(**fields_of(ParallelOptions, options))
    parallel.check()
    run = Lowering(resolve_target(module, **fields_of(TargetOptions, options)), parallel)
    raised = raise_q8(module, ctx)
    PatternRewriteWalker(LowerQ8Matmul(run), apply_recursively=False).rewrite_module(module)
    if optimize:
        for p in OPTIMIZE:
            p.apply(ctx or Context(), module)
    return raised, run.decisions


def lower_q8(module: ModuleOp, optimize: bool = False, **options: Any) -> list[Decision]:
    """Lower every Q8_0 matmul of `module` in place (frontend forms raised first, the
    spatial passes run after with `optimize`); what happened to each matmul.
    `raise_and_lower` also says what the raise did."""
    return raise_and_lower(module, optimize=optimize, **options)[1]


@dataclass(frozen=True)
class Q8LowerPass(ParallelOptions, TargetOptions, ModulePass):
    """
    Rewrite `linalg.matmul` over a `q8.dequantize`d weight into a view and a fold.

    Options (`-p 'q8-lower{local-mem=393216 acc-tiles=4}'`):
      preset      named target: wormhole_n150 (the default: a Tenstorrent Wormhole
                  n150, a matmul's 64 sites of 1.5 MiB and 8 accumulator tiles),
                  blackhole_p150 (130 such sites, faster), tensix (the n150's figures under the
                  default's old name) or reference (320 KiB sites). The module's
                  `spatial.target` attribute, if any, is used when no preset is
                  given. The chip's figures only time the programs
                  (docs/chip_time.md); the site's decide what is built.
      local-mem   bytes of local memory on one site; the fold's and the view's
                  buffers must fit.
      acc-tiles   accumulator tiles a site holds: the widest column group.
      tile-rows, tile-cols  the tile (the fold needs 32x32).
      act         the precision activations are held in on the chip, bf16 (the
                  presets') or f32: a view holds it, and an activation of another
                  precision is converted by an explicit op before its view.
      chips       spread every product over this many chips of a tensor-parallel
                  deployment (default 1: one chip), each with its own view and fold
                  over its shard of the weight; a product whose weight carries a
                  shard.sharding follows the sharding instead.
      split       n (default): each chip folds whole column tiles of the weight and
                  the columns are gathered (tensor.concat); k: each chip folds whole
                  Q8_0 blocks of K into a partial sum and the sums are added in chip
                  order (arith.addf).
      report      print to stderr, per matmul, whether it was lowered and why, the
                  column group, items, K blocks, tail and bytes.
      optimize    then run spatial-merge-siblings, spatial-sum-trips and
                  spatial-hoist over the programs (what spatial-run and
                  spatial-generate run by default).
    """

    name = "q8-lower"

    report: bool = False
    optimize: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = {
            f.name: getattr(self, f.name)
            for cls in (TargetOptions, ParallelOptions)
            for f in dataclasses.fields(cls)
        }
        raised, decisions = raise_and_lower(op, ctx, optimize=self.optimize, **options)
        if self.report:
            for d in (*raised, *decisions):
                print(d.line(), file=sys.stderr)
