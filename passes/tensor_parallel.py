"""
Tensor parallelism for `q8-lower`: over how many chips a Q8_0 product runs, and which
share of its weight each chip holds.

A product `y = x . W` (`W` K x N) runs over C chips in one of two ways, as
Megatron-style tensor parallelism does:

- **split on N**: chip c holds the columns `n_c .. n_c+1` of `W` (values and scales)
  and the whole activation, and computes those columns of `y`; the chips' columns are
  gathered into `y`;
- **split on K**: chip c holds the rows `k_c .. k_c+1` of `W` (and the scale rows
  `k_c/32 .. k_c+1/32`) and the same columns of `x`, and computes a partial sum of the
  whole `y`; the partial sums are added, in chip order.

The split comes from MLIR's `shard` dialect, on the weight's values and scales (and,
for a K split, optionally the activation's K axis):

```mlir
shard.grid @chips(shape = 4)
%cols = shard.sharding @chips split_axes = [[], [0]] : !shard.sharding
%q = shard.shard %W__q8 to %cols : tensor<2048x4096xi8>
%s = shard.shard %W__q8_scale to %cols : tensor<64x4096xf32>
```

or, for a module without annotations, from the pass options `chips=C split=n|k`.
This file reads either into a `ChipSplit` (numbers only) or says why the product
cannot be split; `q8_lower/` builds each chip's programs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import Enum
from typing import cast

from xdsl.dialects import shard
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import SymbolTable

from xdsl_spatial.core.quant import Q8_BLOCK


class Split(str, Enum):
    """The axis of a product's weight its chips divide."""

    N = "n"
    """Columns: every chip computes its columns of y from the whole x."""
    K = "k"
    """Rows: every chip computes a partial sum of y from its K slice of x."""


@dataclass(frozen=True)
class ChipSplit:
    """A product over `chips` chips: the axis cut and where each chip's share starts
    and ends (C + 1 offsets along that axis, in elements: columns for N, rows for K)."""

    axis: Split
    bounds: tuple[int, ...]
    origin: str
    """Where the split came from, for messages: `shard.sharding @chips` or `chips=4`."""

    @property
    def chips(self) -> int:
        return len(self.bounds) - 1

    def share(self, chip: int) -> tuple[int, int]:
        return self.bounds[chip], self.bounds[chip + 1]

    def rows(self, chip: int, k: int) -> tuple[int, int]:
        """The weight rows chip `chip` holds."""
        return self.share(chip) if self.axis == Split.K else (0, k)

    def cols(self, chip: int, n: int) -> tuple[int, int]:
        """The weight columns chip `chip` holds."""
        return self.share(chip) if self.axis == Split.N else (0, n)

    def describe(self, chip: int) -> str:
        lo, hi = self.share(chip)
        what = "columns" if self.axis == Split.N else "K rows"
        return f"{what} {lo}..{hi}"


# --------------------------------------------------------------------------------------
# The pass options
# --------------------------------------------------------------------------------------


def even_bounds(size: int, unit: int, chips: int) -> tuple[int, ...]:
    """`size` elements in whole units of `unit` (the last one possibly short) dealt as
    evenly as possible over `chips`, the larger shares last."""
    units = -(-size // unit)
    return tuple(min(size, (c * units // chips) * unit) for c in range(chips + 1))


def option_split(k: int, n: int, chips: int, axis: Split, tile_cols: int) -> ChipSplit | str:
    """The split `chips=C split=n|k` asks for: whole column tiles (N) or whole Q8_0
    blocks (K) dealt evenly; the reason when there are fewer than chips."""
    origin = f"chips={chips} split={axis.value}"
    if axis == Split.N:
        tiles = -(-n // tile_cols)
        if tiles < chips:
            return f"{origin}: N = {n} is {tiles} column tiles, fewer than the chips"
        return ChipSplit(axis, even_bounds(n, tile_cols, chips), origin)
    blocks = k // Q8_BLOCK
    if blocks < chips:
        return f"{origin}: K = {k} is {blocks} Q8_0 blocks, fewer than the chips"
    return ChipSplit(axis, even_bounds(k, Q8_BLOCK, chips), origin)


# --------------------------------------------------------------------------------------
# Annotations
# --------------------------------------------------------------------------------------


def unshard(v: SSAValue) -> tuple[SSAValue, shard.ShardOp | None]:
    """The value a `shard.shard` annotates (or `v` itself), and the annotation."""
    op = v.owner
    if isinstance(op, shard.ShardOp):
        return op.src, op
    return v, None


@dataclass(frozen=True)
class AxisSplit:
    """How one annotation cuts one tensor: its dimension `dim` into `bounds`."""

    grid: str
    dim: int
    bounds: tuple[int, ...]


def annotation_split(ann: shard.ShardOp, what: str) -> AxisSplit | str | None:
    """The cut a `shard.shard` makes of its tensor: None when the sharding replicates
    it, the reason when the pass cannot honour it."""
    sharding = ann.sharding.owner
    if not isinstance(sharding, shard.ShardingOp):
        return f"{_of(what)} sharding is not a shard.sharding op"
    grid_name = sharding.grid.root_reference.data
    grid = SymbolTable.lookup_symbol(ann, sharding.grid)
    if not isinstance(grid, shard.GridOp):
        return f"{_of(what)} sharding names @{grid_name}, which is no shard.grid"
    shape = tuple(grid.shape.get_values())
    if len(shape) != 1:
        return (
            f"grid @{grid_name} is {'x'.join(map(str, shape))}: the pass splits a "
            "product over a 1-d grid of chips"
        )
    chips = shape[0]
    if chips < 1:
        return f"grid @{grid_name} has a dynamic size; the pass needs a static number of chips"
    if sharding.dynamic_halo_sizes or sharding.static_halo_sizes.get_values():
        return f"{_of(what)} sharding has halo sizes; the chips' shares must not overlap"
    if sharding.dynamic_sharded_dims_offsets:
        return f"{_of(what)} sharding has dynamic offsets; the pass needs static ones"
    t = cast(TensorType[Attribute], ann.src.type)
    dims = t.get_shape()
    axes = [tuple(a.get_values()) for a in sharding.split_axes.axes.data]
    if len(axes) > len(dims):
        return f"{_of(what)} sharding splits {len(axes)} dimensions of a rank-{len(dims)} tensor"
    split = [(d, a) for d, a in enumerate(axes) if a]
    if not split:
        return None
    if len(split) > 1:
        return f"the {what} is split on {len(split)} dimensions; the pass splits one"
    dim, grid_axes = split[0]
    if grid_axes != (0,):
        return (
            f"{_of(what)} dimension {dim} is split over grid axes {list(grid_axes)}; "
            f"grid @{grid_name} has one axis, 0"
        )
    size = dims[dim]
    offsets = tuple(sharding.static_sharded_dims_offsets.get_values())
    if offsets:
        if len(offsets) != chips + 1 or offsets[0] != 0 or offsets[-1] != size:
            return (
                f"{_of(what)} sharded_dims_offsets {list(offsets)} are not {chips + 1} "
                f"offsets from 0 to {size}"
            )
        if any(b <= a for a, b in itertools.pairwise(offsets)):
            return f"{_of(what)} sharded_dims_offsets {list(offsets)} leave a chip empty"
        return AxisSplit(grid_name, dim, offsets)
    if size % chips:
        return (
            f"{_of(what)} dimension {dim} ({size}) does not divide over the {chips} chips "
            "of an even split (give sharded_dims_offsets)"
        )
    return AxisSplit(grid_name, dim, tuple(c * (size // chips) for c in range(chips + 1)))


@dataclass(frozen=True)
class Annotations:
    """The `shard.shard` ops on a product's operands (None where there is none)."""

    values: shard.ShardOp | None
    scales: shard.ShardOp | None
    weight: shard.ShardOp | None
    """On the dequantised weight the matmul reads."""
    x: shard.ShardOp | None

    def any(self) -> bool:
        return any(a is not None for a in (self.values, self.scales, self.weight, self.x))

    def ops(self) -> list[Operation]:
        return [a for a in (self.weight, self.values, self.scales, self.x) if a is not None]


def annotated_split(ann: Annotations, k: int, n: int, tile_cols: int) -> ChipSplit | str | None:
    """The split the annotations ask for (None: the product stays on one chip), or the
    reason the pass cannot honour them."""
    cuts: list[tuple[str, AxisSplit]] = []
    for what, a, rows_per in (
        ("weight", ann.weight, 1),
        ("values", ann.values, 1),
        ("scales", ann.scales, Q8_BLOCK),
    ):
        if a is None:
            continue
        cut = annotation_split(a, what)
        if isinstance(cut, str):
            return cut
        if cut is not None and cut.dim == 0 and rows_per != 1:
            # Scale rows are Q8_0 blocks: in the weight's rows, 32 a row.
            cut = AxisSplit(cut.grid, 0, tuple(b * rows_per for b in cut.bounds))
        cuts.append((what, cut) if cut is not None else (what, AxisSplit("", -1, ())))
    if (ann.values is None) != (ann.scales is None) and ann.weight is None:
        have = "values" if ann.values is not None else "scales"
        other = "scales" if have == "values" else "values"
        return (
            f"the {have} are annotated with a sharding and the {other} are not; a chip "
            "holds the values and scales of the same rows and columns"
        )
    weight_cuts = [(w, c) for w, c in cuts if c.dim >= 0]
    if len({(c.grid, c.dim, c.bounds) for _, c in cuts}) > 1:
        described = "; ".join(f"{w} {'replicated' if c.dim < 0 else _cut_str(c)}" for w, c in cuts)
        return f"the values and scales are sharded differently ({described})"
    x_cut = annotation_split(ann.x, "activation") if ann.x is not None else None
    if isinstance(x_cut, str):
        return x_cut
    if not weight_cuts:
        if x_cut is not None:
            return (
                f"the activation is split ({_cut_str(x_cut)}) but its weight is "
                "replicated; a K split shards the weight's rows alike"
            )
        return None
    cut = weight_cuts[0][1]
    origin = f"shard.sharding @{cut.grid}"
    if cut.dim == 1:
        if x_cut is not None:
            return (
                f"{origin} splits the weight on N, which reads the whole activation on "
                f"every chip, but the activation is split ({_cut_str(x_cut)})"
            )
        inner = [b for b in cut.bounds[1:-1] if b % tile_cols]
        if inner:
            return (
                f"{origin}: a chip's columns start at {inner[0]}, inside a "
                f"{tile_cols}-column tile; every chip but the last holds whole column tiles"
            )
        return ChipSplit(Split.N, cut.bounds, origin)
    if x_cut is not None and (x_cut.grid, x_cut.dim, x_cut.bounds) != (cut.grid, 1, cut.bounds):
        return (
            f"{origin} splits the weight's rows {_bounds_str(cut.bounds)}, but the "
            f"activation is {_cut_str(x_cut)}; a K split needs its K axis split alike "
            "(or not at all)"
        )
    inner = [b for b in cut.bounds[1:-1] if b % Q8_BLOCK]
    if inner:
        return (
            f"{origin}: a chip's K rows start at {inner[0]}, inside a Q8_0 block of "
            f"{Q8_BLOCK}; every chip holds whole blocks"
        )
    return ChipSplit(Split.K, cut.bounds, origin)


def _of(what: str) -> str:
    """`the values'` / `the weight's`: whose sharding a message is about."""
    return f"the {what}'" if what.endswith("s") else f"the {what}'s"


def _bounds_str(bounds: tuple[int, ...]) -> str:
    return ", ".join(f"{a}..{b}" for a, b in itertools.pairwise(bounds))


def _cut_str(cut: AxisSplit) -> str:
    return f"dimension {cut.dim} into {_bounds_str(cut.bounds)} over @{cut.grid}"
