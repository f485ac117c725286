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
from xdsl.dialects.linalg.ops import MatmulOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from xdsl_spatial.core.memory import collector_paused
from xdsl_spatial.core.progress import Count, Progress
from xdsl_spatial.dialects.spatial import ProgramOp
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
from xdsl_spatial.passes.templates import Templates

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


@dataclass(frozen=True)
class _Counted(RewritePattern):
    """The lowering, its progress told after each matmul (`q8-lower: 120 of 422
    products (28%)`): SmolLM2's 422 take minutes on a loaded machine."""

    inner: LowerQ8Matmul
    count: Count

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        self.inner.match_and_rewrite(op, rewriter)
        if isinstance(op, MatmulOp):
            self.count(len(self.inner.run.decisions))


def raise_and_lower(
    module: ModuleOp,
    ctx: Context | None = None,
    *,
    optimize: bool = False,
    progress: Progress | None = None,
    templates: bool = True,
    **options: Any,
) -> tuple[list[RaiseDecision], list[Decision]]:
    """What `q8-lower` does to `module`, in place: raise the frontend forms `q8-raise`
    recognises, then lower every Q8_0 matmul (and with `optimize`, run the spatial
    passes of `OPTIMIZE` over the result); what each step decided (the raise's
    decisions, then one per matmul). `options`: the fields of `TargetOptions` and of
    `ParallelOptions`, checked before anything is rewritten; `ctx`: the context that
    parsed the module (its `dense_resource` blobs); `progress`: told how far it is.

    With `templates` (the default), a view or fold of the same kind as one made before
    is a copy of it (`passes/templates.py`), and in a module that held no program
    before, the passes of `optimize` run once per kind, on its first program, not on
    the module: the same module as `templates=False` gives, built and optimised
    program by program (`tests/test_templates.py`)."""
    known = {f.name for cls in (TargetOptions, ParallelOptions) for f in dataclasses.fields(cls)}
    if unknown := sorted(set(options) - known):
        raise TypeError(f"lower_q8: unknown options {', '.join(unknown)}")
    parallel = ParallelOptions(**fields_of(ParallelOptions, options))
    parallel.check()
    ctx = ctx or Context()
    passes = OPTIMIZE if optimize else ()

    def run_passes(m: ModuleOp) -> None:
        for p in passes:
            if progress is not None:  # on the module, or on each kind's first program
                progress(f"q8-lower: {p.name}")
            p.apply(ctx, m)

    # The passes rewrite every program of a module: with programs there before, they
    # run on the module, over those and the ones made here alike.
    alone = templates and not any(isinstance(o, ProgramOp) for o in module.walk())
    made = Templates(run_passes if alone else None) if templates else None
    run = Lowering(
        resolve_target(module, **fields_of(TargetOptions, options)), parallel, templates=made
    )
    with collector_paused():
        if progress is not None:
            progress("q8-lower: raising the frontend forms")
        raised = raise_q8(module, ctx)
        pattern: RewritePattern = LowerQ8Matmul(run)
        if progress is not None:
            total = sum(1 for op in module.walk() if isinstance(op, MatmulOp))
            pattern = _Counted(LowerQ8Matmul(run), Count(progress, "q8-lower", total, "products"))
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(module)
        if not alone:
            run_passes(module)
    return raised, run.decisions


def lower_q8(
    module: ModuleOp, optimize: bool = False, progress: Progress | None = None, **options: Any
) -> list[Decision]:
    """Lower every Q8_0 matmul of `module` in place (frontend forms raised first, the
    spatial passes run after with `optimize`); what happened to each matmul.
    `raise_and_lower` also says what the raise did."""
    return raise_and_lower(module, optimize=optimize, progress=progress, **options)[1]


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
