"""
A program's stages as `linalg.generic`s: one stage, or siblings (`loops.siblings`),
their rows `ROWS` at a time; a sum that factors (a Q8_0 block: its lanes' sum, scaled
once) as two generics inside `scf.for`s over the loops outside its lanes, with what
it reads only widened (a bf16 activation, int8 weights many rows share) widened once
into a scratch; a stage marked `amx` or `dot`, the lanes' sums as tile products
(`amx.py`) or AVX512-BF16 dot products (`dot.py`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerType, MemRefType, f32
from xdsl.ir import Attribute, SSAValue

from xdsl_spatial.core.geometry import LinearForm
from xdsl_spatial.dialects.spatial import IterKind, PageType, StageOp
from xdsl_spatial.passes.convert_spatial_to_linalg.amx import (
    AmxLanes,
    amx_lanes,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.build import (
    accumulate,
    convert,
    counted,
    dense,
    fill,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.dot import (
    LEAST_ROWS,
    DotScales,
    dot_scales,
    dot_sums,
    held_sums,
    holds,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.generic import Generic
from xdsl_spatial.passes.convert_spatial_to_linalg.loops import (
    BLOCK_KERNELS,
    FMAS,
    KERNEL,
    KERNELS,
    ROWS,
    SLICE,
    STREAM,
    LoopAxis,
    Row,
    body_slice,
    factored_at,
    fills_page,
    joined,
    loop_axes,
    picked_rows,
    read_outside,
    read_rows,
    read_widened,
    row_axis,
    stage_forms,
    stage_kernel,
    strip_loops,
    sums,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.masked import skipping_blocks, skips_blocks
from xdsl_spatial.passes.convert_spatial_to_linalg.prefetch import (
    AHEAD,
    L1,
    L2,
    prefetch_ahead,
    streamed,
)
from xdsl_spatial.passes.convert_spatial_to_linalg.scope import ProgramScope
from xdsl_spatial.passes.convert_spatial_to_linalg.window import window, windowed

Terms = Sequence[tuple[SSAValue, SSAValue]]
"""Each row's two factors `(a, b)` of a factored sum (`loops.factored_at`)."""
Given = dict[tuple[SSAValue, LinearForm], SSAValue]
"""Inputs already widened to f32 into a scratch (`slices`), by page and map."""


def stages(pt: ProgramScope, b: Builder, run: Sequence[StageOp]) -> None:
    """One stage, or siblings: each stage's page and the zeros it starts with, then
    its rows (`Row`) `ROWS` at a time, each group one `linalg.generic` (`rows`), or a
    factored sum (`factored`)."""
    first = run[0]
    kinds = first.iter_kinds
    ext = first.iter_extents
    summed = sums(first)
    maxed = any(k == IterKind.MAX and e > 1 for k, e in zip(kinds, ext))
    kernel = run_kernel(pt, run) if summed else None
    every = loop_axes(first)
    forms: list[list[LinearForm]] = []
    rows: list[Row] = []
    by_row = row_axis(run) if summed else picked_rows(run)

    def live(t: SSAValue) -> int:  # the rows of each tile tensor `t`'s buffer holds
        return pt.held[t].plan.written_rows

    for o in run:
        name = o.stage_name.data
        fs = stage_forms(o)
        if any(c < 0 for f in fs for c in (*f.dims, *f.syms, f.const)):
            raise pt.fail(o, f"stage '{name}': a map with a negative coefficient")
        for i, v in enumerate(o.ins):
            # read where its tensor holds it (checked by the load); laid in tile
            # columns, placed loop by loop (`Generic.strided`)
            if v in pt.in_place and not pt.in_place[v].strip:
                fs[i] = cast(LinearForm, pt.in_place[v].form(fs[i], ext))
        forms.append(fs)
        out_t = cast(PageType, o.result.type)
        out_elem = out_t.element_type
        if summed and not isinstance(out_elem, IntegerType) and out_elem != f32:
            raise pt.fail(o, f"stage '{name}': a sum into a {out_elem} page (fp32 sums only)")
        if o.result in pt.written_in_place:  # its tensor's buffer (`updates`): every element
            page, where = pt.written_in_place[o.result]
            fs[-1] = cast(LinearForm, where.form(fs[-1], ext))
            pt.values[o.result] = page
            rows.append(Row(o, tuple(fs), page))
            continue
        page = pt.page(b, o)
        page.name_hint = o.result.name_hint
        if not fills_page(o, pt.tile) and read_outside(o, fs[-1], pt.tile, live):
            fill(b, 0, out_elem, page)  # what it does not write is zeros
        elif summed:
            fill(b, 0, out_elem, Generic(b, pt, kinds, every, []).strided(page, fs[-1])[0])
        if maxed:  # the largest of no value yet: every value is at least -inf
            start = Generic(b, pt, kinds, every, []).strided(page, fs[-1])[0]
            fill(b, -math.inf, out_elem, start)
        pt.values[o.result] = page
        if by_row is None:
            rows.append(Row(o, tuple(fs), page))
        else:
            # rows of a stage that does not sum are computed where something reads them
            at = read_rows(o, fs[-1], by_row, pt.tile, live) if not summed else range(ext[by_row])
            rows += [Row(o, tuple(f.fixed(by_row, r) for f in fs), page, (by_row, r)) for r in at]
    read = {d for fs in forms for f in fs for d, c in enumerate(f.dims) if c}
    missing = [a.axis for a in every if a.axis not in read]
    if missing:
        raise pt.fail(
            first, f"stage '{first.stage_name.data}': axis d{missing[0]} is read by no map"
        )
    # A streamed row sums all of its columns at once: no registers to share; dots hold
    # their sums in registers themselves, and read each weight row's columns at once.
    whole = (kernel == STREAM and len(rows) == 1) or kernel in BLOCK_KERNELS
    loops = loop_axes(first, by_row, split=not whole)
    laid = max((pt.in_place[v].strip for o in run for v in o.ins if v in pt.in_place), default=0)
    if kernel == STREAM and whole and laid:
        # a weight laid in tile columns, read where it lies: a lane's columns a strip
        # at a time (`dot` and `fma` split their blocks' columns themselves:
        # `amx.block_source`)
        loops = strip_loops(loops, laid)
    factored = factored_at(rows, loops) if summed else None
    tiles = None
    if kernel in BLOCK_KERNELS:
        least = LEAST_ROWS[kernel]
        if factored is not None:
            tiles = amx_lanes(rows, factored[1], factored[0], loops, least)
        if tiles is None:
            raise pt.fail(
                first,
                f"stage '{first.stage_name.data}' is marked {KERNEL} = \"{kernel}\", but its "
                f"sum is not {least} or more rows of a bf16 x int8 Q8_0 block's 32 lanes",
            )
    # What the tiles and dots read is the bf16 page itself (`fma` reads it widened).
    skip = {tiles.x_page} if tiles is not None and kernel not in FMAS else set()
    pt.widened = widen(pt, b, run, forms, loops, skip) if summed else {}
    if factored is not None:
        factored_sums(pt, b, rows, loops, *factored, tiles, kernel)
        return
    if first in pt.updated:  # a stage that writes its tensor's buffer: maybe a window of it
        old = list(first.ins).index(pt.updated[first][0].result)
        if (win := window(first, old)) is not None:
            windowed(pt, b, rows[0], loops, win, lambda w: generic_rows(pt, w, rows, loops, False))
            return
    for g in range(0, len(rows), ROWS):
        group = rows[g : g + ROWS]
        if (summed or maxed) and skips_blocks(pt, group, loops):
            # a masked fold: the blocks its mask hides are not computed (`masked.py`)
            skipping_blocks(
                pt,
                b,
                group,
                loops,
                lambda w, rest, outer: generic_rows(pt, w, group, rest, summed, maxed, outer),
            )
        else:
            generic_rows(pt, b, group, loops, summed, maxed)


def run_kernel(pt: ProgramScope, run: Sequence[StageOp]) -> str | None:
    """The kernel a summing run of siblings is marked for (`loops.KERNEL`): the one
    every stage of it names, or None (the plain one); else the pass declines."""
    marks = {stage_kernel(o) for o in run}
    first = run[0]
    if len(marks) > 1:
        raise pt.fail(first, f"siblings of stage '{first.stage_name.data}' name other kernels")
    mark = marks.pop()
    if mark is not None and mark not in KERNELS:
        raise pt.fail(
            first,
            f"stage '{first.stage_name.data}': unknown {KERNEL} \"{mark}\", "
            f"expected one of {', '.join(KERNELS)}",
        )
    return mark


def generic_rows(
    pt: ProgramScope,
    b: Builder,
    rows: Sequence[Row],
    loops: Sequence[LoopAxis],
    summed: bool,
    maxed: bool = False,
    outer: Sequence[tuple[LoopAxis, SSAValue]] = (),
) -> None:
    """One `linalg.generic` over `loops` computing `rows`, an output each, each
    input page read once however many rows read it; summing or taking the largest
    (`arith.maximumf`: a NaN wins) along the reduced axes; inside the loops `outer`
    (`scf.for`s, with their induction variables)."""
    gen = Generic(b, pt, rows[0].stage.iter_kinds, loops, outer)
    reads = [gen.add_reads(r, [r.yielded]) for r in rows]
    accs = [gen.add_output(r.page, r.forms[-1]) for r in rows]
    gen.span_the_rest(rows[0].page)

    def body(b: Builder, ins: Sequence[SSAValue], accs_in: Sequence[SSAValue]) -> list[SSAValue]:
        values = [gen.clone(b, r, ins, m)[r.yielded] for r, m in zip(rows, reads)]
        if maxed:
            return [b.insert(arith.MaximumfOp(accs_in[a], v)).result for a, v in zip(accs, values)]
        if not summed:
            return values
        return [accumulate(b, accs_in[a], v) for a, v in zip(accs, values)]

    gen.build(body)


def factored_sums(
    pt: ProgramScope,
    b: Builder,
    rows: Sequence[Row],
    loops: Sequence[LoopAxis],
    split: int,
    terms: Terms,
    tiles: AmxLanes | None = None,
    kernel: str | None = None,
) -> None:
    """Each row's sum of `a * b`, where `b` is the same all along loop `split`
    (`factored_at`), as the sum of `a` along it times `b`: the loops outside it are
    `scf.for`s, and inside them, for each `ROWS` rows, one generic sums each row's
    `a` over the loops from `split` on into a scratch (held in registers while it
    sums), another adds the scratch times `b` into the output (over the loops
    inside `split`). One multiplication a term where there were two, as the
    reference computes a Q8_0 block: its lanes' sum, scaled once. With more than
    `ROWS` rows, the int8 values they all read are widened once a trip for all of
    them (`slices`). With `tiles`, `dot.dot_sums` makes the lanes' sums: for a
    `kernel` `amx` tile products, for `dot` AVX512-BF16 dot products, for `fma`
    vector fused multiply-adds, scaled in registers where `dot.dot_scales` finds how
    (else stored to a scratch the scaling generic reads). For a `kernel` `stream`,
    each lane's trip first asks for the weight's rows ahead
    (`prefetch.prefetch_ahead`); for every marked kernel, each trip first asks for the
    factors (a block's scales) the next trip will read."""
    kinds = rows[0].stage.iter_kinds
    rest = loops[split + 1 :]
    flat = joined(rest)  # what the scaling runs over: it reads nothing laid in strips
    shape = [a.extent for a in rest]
    size = math.prod(shape)
    pairs = list(zip(rows, terms))
    groups = [pairs[g : g + ROWS] for g in range(0, len(pairs), ROWS)]
    # Dots scale their sums themselves where they can.
    dots = kernel in BLOCK_KERNELS
    scales = dot_scales(rows, [f for _, f in terms], rest[0]) if dots else None
    # The tiles' sums are all stored before the first group scales them.
    held = len(rows) if tiles is not None else len(groups[0])
    scratch = None if scales else pt.scratch(f"{rows[0].stage.stage_name.data}_sums", held * size)

    # a `dot` or `fma512` sum of few rows runs the blocks' loop inside each unit
    # (`dot.held_sums`)
    in_units = (
        tiles is not None
        and isinstance(scales, DotScales)
        and split > 0
        and kinds[loops[split - 1].axis] != IterKind.PAR
        and holds(pt, tiles, kernel or "")
    )
    built = split - 1 if in_units else split

    def nest(b: Builder, at: int, outer: list[tuple[LoopAxis, SSAValue]]) -> None:
        if in_units and at == built:
            assert tiles is not None and isinstance(scales, DotScales) and kernel is not None
            held_sums(pt, b, tiles, loops[split:], loops[built], outer, scales, kernel)
            return
        if at < split:
            inner, i = counted(b, loops[at].extent)
            nest(inner, at + 1, [*outer, (loops[at], i)])
            inner.insert(scf.YieldOp())
            return
        summing = [a for a, _ in outer if kinds[a.axis] != IterKind.PAR]
        if kernel is not None and summing:
            # the next block's factors (its scales), asked for while this one sums
            trip = summing[-1]
            if factors := streamed(pt, rows, [f for _, f in terms], trip, flat):
                prefetch_ahead(pt, b, factors, trip, 1, outer, flat[0], L2)
        if tiles is not None and kernel is not None:  # a kernel of `loops.BLOCK_KERNELS`
            into = scales if scales is not None else scratch
            assert into is not None
            dot_sums(pt, b, tiles, loops[split:], outer, into, kernel)
            if scales is not None:
                return
        assert scratch is not None
        wide = tiles is None and len(groups) > 1
        given = slices(pt, b, rows, terms, loops[split:], outer) if wide else {}
        for g, part in enumerate(groups):
            first = g * ROWS if tiles is not None else 0
            sums = [dense(b, scratch, (first + j) * size, shape) for j in range(len(part))]
            if tiles is None:
                lane_sums(pt, b, part, sums, loops[split:], outer, given, kernel == STREAM)
            if flat != list(rest):  # the same scratch, over the loops joined again
                starts = [(first + j) * size for j in range(len(part))]
                sums = [dense(b, scratch, a, [x.extent for x in flat]) for a in starts]
            scaled(pt, b, part, sums, kinds, flat, outer)

    nest(b, 0, [])


def scaled(
    pt: ProgramScope,
    b: Builder,
    part: Sequence[tuple[Row, tuple[SSAValue, SSAValue]]],
    sums: Sequence[SSAValue],
    kinds: Sequence[IterKind],
    rest: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
) -> None:
    """Each row's lanes' sum (its scratch in `sums`) times its `b`, added into its
    output: one generic over the loops inside the lanes for the rows of `part`."""
    scale = Generic(b, pt, kinds, rest, outer)
    reads = [scale.add_reads(r, [f]) for r, (_, f) in part]
    summed = [scale.add_scratch(v, 0, output=False) for v in sums]
    outs = [scale.add_output(r.page, r.forms[-1]) for r, _ in part]

    def body(b: Builder, ins: Sequence[SSAValue], accs: Sequence[SSAValue]) -> list[SSAValue]:
        out: list[SSAValue] = []
        for (r, (_, f)), m, s, y in zip(part, reads, summed, outs):
            factor = scale.clone(b, r, ins, m)[f]
            out.append(accumulate(b, accs[y], b.insert(arith.MulfOp(ins[s], factor)).result))
        return out

    scale.build(body)


def lane_sums(
    pt: ProgramScope,
    b: Builder,
    part: Sequence[tuple[Row, tuple[SSAValue, SSAValue]]],
    sums: Sequence[SSAValue],
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
    given: Given,
    ahead: bool = False,
) -> None:
    """Each row's sum of its `a` over `loops` (a block's lanes, then its columns)
    into its scratch `sums`: one generic for the rows of `part`. With `ahead`, where
    they read a weight where it is held (`prefetch.streamed`), the lanes are an
    `scf.for` instead, each trip the prefetches of the rows ahead
    (`prefetch.prefetch_ahead`) and a generic over the columns: the same sums."""
    for v in sums:
        fill(b, 0, f32, v)
    lane, *rest = loops
    rows, roots = [r for r, _ in part], [a for _, (a, _) in part]
    pages = streamed(pt, rows, roots, lane, rest) if ahead else []
    at, skip = b, 1  # the scratch spans the loops from `skip` on
    if pages:
        at, i = counted(b, lane.extent)
        loops, skip = rest, 0
        outer = [*outer, (lane, i)]
        prefetch_ahead(pt, at, pages, lane, AHEAD, outer, rest[0], L1)
    kinds = part[0][0].stage.iter_kinds
    lanes = Generic(at, pt, kinds, loops, outer, given)
    reads = [lanes.add_reads(r, [a]) for r, (a, _) in part]
    into = [lanes.add_scratch(v, skip, output=True) for v in sums]

    def body(b: Builder, ins: Sequence[SSAValue], accs: Sequence[SSAValue]) -> list[SSAValue]:
        return [
            accumulate(b, accs[s], lanes.clone(b, r, ins, m)[a])
            for (r, (a, _)), m, s in zip(part, reads, into)
        ]

    lanes.build(body)
    if pages:
        at.insert(scf.YieldOp())


def slices(
    pt: ProgramScope,
    b: Builder,
    rows: Sequence[Row],
    terms: Terms,
    loops: Sequence[LoopAxis],
    outer: Sequence[tuple[LoopAxis, SSAValue]],
) -> Given:
    """The integer inputs that every row's lanes' sum (`factored_sums`) reads at the
    same place, and only converted to f32 (`arith.sitofp`): a fold's int8 weights.
    What one trip of the loops `outer` reads of each is converted once into an f32
    scratch (at most `SLICE` elements, dense over `loops` in order) that each `ROWS`
    rows then read, where each would convert the same values anew. The same values,
    converted once."""
    shared: dict[tuple[SSAValue, LinearForm], tuple[Row, int]] | None = None
    for r, (a, _) in zip(rows, terms):
        o = r.stage
        mine = {
            (o.ins[i], r.forms[i]): (r, i)
            for i in body_slice(o, [a])[1]
            if o.indirect_of[i] < 0 and read_widened(o.body.block.args[i], arith.SIToFPOp)
        }
        shared = mine if shared is None else {k: v for k, v in shared.items() if k in mine}
    given: Given = {}
    for key, (r, i) in (shared or {}).items():
        form = r.forms[i]
        gen = Generic(b, pt, r.stage.iter_kinds, [x for x in loops if form.dims[x.axis]], outer)
        sizes = [x.extent for x in gen.loops]
        if math.prod(sizes) > SLICE:
            continue
        src, _ = gen.strided(pt.values[key[0]], form, pt.in_place.get(key[0]))
        name = f"{key[0].name_hint or 'page'}_f32"
        wide = dense(b, pt.scratch(name, math.prod(sizes)), 0, sizes)
        convert(b, src, wide, arith.SIToFPOp)
        given[key] = wide
    return given


def widen(
    pt: ProgramScope,
    b: Builder,
    run: Sequence[StageOp],
    forms: Sequence[Sequence[LinearForm]],
    loops: Sequence[LoopAxis],
    skip: set[SSAValue],
) -> dict[SSAValue, SSAValue]:
    """The pages a sum reads only to widen them to f32 (`arith.extf`), one element
    for all of its innermost loop (a fold's activation, one value times a row of
    weights), each widened once into an f32 scratch: the inner loop then reads an
    f32, which the CPU broadcasts as it loads, where a bf16 would be widened and
    broadcast anew for every row of weights. The same values: `extf` is exact. Only
    the page's rows the sum reads are widened (a decode step's activation fills a few
    rows of its page: the others hold nothing)."""
    inner = loops[-1].axis
    fit: dict[SSAValue, bool] = {}
    last: dict[SSAValue, int] = {}
    for o, fs in zip(run, forms):
        tables = {v for v in o.indirect_of if v >= 0}
        for a in o.body.block.args:
            i = a.index
            ok = (
                o.indirect_of[i] < 0
                and i not in tables
                and fs[i].dims[inner] == 0
                and read_widened(a, arith.ExtFOp)
            )
            fit[o.ins[i]] = fit.get(o.ins[i], True) and ok
            last[o.ins[i]] = max(last.get(o.ins[i], 0), fs[i].bounds(o.iter_extents)[1])
    widened: dict[SSAValue, SSAValue] = {}
    for page, ok in fit.items():
        if not ok or page in skip:
            continue
        rows, cols = cast(MemRefType[Attribute], pt.values[page].type).get_shape()
        src = pt.values[page]
        if (read := last[page] // cols + 1) < rows:
            rows, src = read, dense(b, src, 0, (read, cols))
        scratch = pt.scratch(f"{page.name_hint or 'page'}_f32", rows * cols)
        wide = dense(b, scratch, 0, (rows, cols))
        convert(b, src, wide, arith.ExtFOp)
        widened[page] = wide
    return widened
