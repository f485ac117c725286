"""
`spatial-native-layout`: which of a module's Q8_0 weights the native engine holds laid
in tile columns (`core/tile_columns.py`: each strip a tile wide, all of K in one
piece), marked on their `spatial.tensor`s (`layout = "tile_columns"`) for
`convert-spatial-to-linalg` to read so, and named for the host, which lays each such
argument once (`TileColumns`).

A product of one row streams its weight: each item sums its columns over every row.
Laid in rows (K x N), an item reads a few hundred bytes of each row, the rows a row
apart, a stream the CPU's prefetchers follow on some CPUs and not on others; laid in
tile columns, it reads a few strips, each in one piece, which every prefetcher follows
(docs/speed.md measures both: SmolLM2's decode step 1.5x faster laid on an AMD EPYC
Zen 4, 5-8% slower on another EPYC). Every other read of such a tensor copies whole
tiles, each 1 KiB in one piece.

A function argument is laid when it is a Q8_0 weight's values and every reader of it
can read it so: each use is a program input bound to `spatial.tensor`s of whole int8
tiles from outside the program (a param or an input) that only loads read (a gather's
loads placed by a table of tokens too), one of them the weight's values (`repack
q8_0.values`), at one tile width in every program; or an argument of a function it is
called with (`outline-kernels`' kernels) that is laid itself, which every caller then
passes laid. Anything else reading it (an op on the host, a call that passes something
else at that argument) keeps it in rows: one layout an array.

```mlir
%q = spatial.tensor "W__q8" external(%q_in : tensor<4096x4096xi8>)
    repack #spatial.repack<q8_0.values> : !spatial.tensor<4096x4096xi8, param>
```
becomes
```mlir
%q = spatial.tensor "W__q8" external(%q_in : tensor<4096x4096xi8>)
    repack #spatial.repack<q8_0.values> {layout = "tile_columns"} : !spatial.tensor<...>
```
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from xdsl_spatial.core.tile_columns import LAYOUT, TILE_COLUMNS
from xdsl_spatial.dialects.spatial import ProgramOp, TensorOp, is_weight_values
from xdsl_spatial.passes.convert_spatial_to_linalg.pages import laid_tensor


def laid_arguments(module: ModuleOp) -> dict[BlockArgument, int]:
    """Every function argument of `module` laid in tile columns, with its tile width
    (see the module's docstring). Each argument is joined to what it is passed to
    and what is passed for it (the arguments of the functions it is called with, the
    values each caller passes): all of a joined set are laid, at one width, or none."""
    links: dict[BlockArgument, list[SSAValue]] = {}
    widths: dict[BlockArgument, set[int]] = {}
    weights: set[BlockArgument] = set()
    for f in module.walk():
        if isinstance(f, func.FuncOp) and f.body.blocks:
            for a in f.body.block.args:
                links[a] = []
                read = _reads(a)
                if read is not None:
                    widths[a] = read[0]
                    if read[1]:
                        weights.add(a)
    for c in module.walk():
        if not isinstance(c, func.CallOp):
            continue
        callee = SymbolTable.lookup_symbol(module, c.callee)
        for i, v in enumerate(c.arguments):
            if isinstance(v, BlockArgument) and v in links:
                if not isinstance(callee, func.FuncOp) or not callee.body.blocks:
                    widths.pop(v, None)  # passed to a function this cannot see into
                    continue
                target = callee.body.block.args[i]
                links[v].append(target)
                links[target].append(v)
            elif isinstance(callee, func.FuncOp) and callee.body.blocks:
                widths.pop(callee.body.block.args[i], None)  # passed something else
    changed = True
    while changed:  # a weight's set is laid (one width)
        changed = False
        for a in list(widths):
            joined = [widths.get(cast(BlockArgument, v)) for v in links[a]]
            if a not in weights and any(v in weights for v in links[a]):
                weights.add(a)
                changed = True
            if any(w is None for w in joined):
                del widths[a]
                changed = True
                continue
            merged = widths[a].union(*cast(list[set[int]], joined))
            if len(merged) > 1:
                del widths[a]
                changed = True
            elif merged != widths[a]:
                widths[a] = merged
                changed = True
    return {a: next(iter(w)) for a, w in widths.items() if w and a in weights}


def _reads(a: BlockArgument) -> tuple[set[int], bool] | None:
    """The tile widths of the programs that read `a` (calls aside), each able to read
    it laid, and whether one reads it as a Q8_0 weight's values; or None: something
    reads it that cannot."""
    found: set[int] = set()
    weight = False
    for u in a.uses:
        o = u.operation
        if isinstance(o, func.CallOp):
            continue
        if not isinstance(o, ProgramOp):
            return None
        for bound in o.entry.args[len(o.grid_shape) + u.index].uses:
            t = bound.operation
            if not isinstance(t, TensorOp) or (w := laid_tensor(t)) is None:
                return None
            found.add(w)
            weight = weight or is_weight_values(t)
    return found, weight


@dataclass(frozen=True)
class NativeLayoutPass(ModulePass):
    """
    Marks each Q8_0 weight's values that every reader can read laid in tile columns
    (`layout = "tile_columns"`), for `convert-spatial-to-linalg` to read so; removes
    the mark from any other tensor.
    """

    name = "spatial-native-layout"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        laid = laid_arguments(op)
        for t in op.walk():
            if not isinstance(t, TensorOp):
                continue
            mark = t.source is not None and _bound_to(t.source) in laid
            if mark and t.attributes.get(LAYOUT) != StringAttr(TILE_COLUMNS):
                t.attributes[LAYOUT] = StringAttr(TILE_COLUMNS)
            elif not mark and LAYOUT in t.attributes:
                del t.attributes[LAYOUT]


def _bound_to(source: SSAValue) -> SSAValue | None:
    """The value a program's input `source` (an argument of its body) is bound to."""
    if not isinstance(source, BlockArgument):
        return None
    program = source.block.parent_op()
    if not isinstance(program, ProgramOp):
        return None
    at = source.index - len(program.grid_shape)
    return program.ins[at] if 0 <= at < len(program.ins) else None
