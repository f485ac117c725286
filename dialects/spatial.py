"""
The `spatial` dialect: programs for a tile-based dataflow accelerator.

The chip stores every tensor as tiles (32 x 32 elements on the default target;
a tensor of R x C elements is ceil(R/32) x ceil(C/32) tiles, the last ones padded
with zeros, tile `(tr, tc)` at linear index `tr * tiles_per_row + tc`). Work is
spread over *sites*, each with a small local memory. A *program* runs one body per
*work item*; the body declares its tensors, allocates *buffers* in local memory,
*loads* blocks of tiles into them as *pages*, runs *stages* over pages, and
*stores* pages back. A page of `n` tiles is the `32 x 32n` matrix of those tiles
side by side; the tiles of an `h x w` block land row-major (block tile `(a, b)` is
page tile `a * w + b`), and stages address page elements by their flat offset
`row * 32n + col`.

```mlir
%y = spatial.fold "q8_gemv_64x64_w2" grid [1] owns (d0) -> (0, d0 * 2) size [1, 2]
    target #spatial.target<tile = 32x32, act = bf16, acc = f32, local_mem = 1572864, acc_tiles = 8>
    plan #spatial.plan<grid = [1, 1], k_blocks = 1, site = [1, 2]> numerics approx "..."
    ins(%xv, %q, %s : tensor<2x32xbf16>, tensor<64x64xi8>, tensor<2x64xf32>) -> tensor<1x64xf32> {
^bb0(%i: index, %a0: tensor<2x32xbf16>, %a1: tensor<64x64xi8>, %a2: tensor<2x64xf32>):
  %x = spatial.tensor "x__q8_rows0" external(%a0 : tensor<2x32xbf16>) : !spatial.tensor<2x32xbf16, input>
  ...
  %bx = spatial.buffer "in_x" : !spatial.buffer<1xbf16, depth 1>
  %px = spatial.load %x[0] block 1x1 stride 1 repeat 1 into %bx : !spatial.tensor<2x32xbf16, input> -> !spatial.page<1xbf16>
  %b = spatial.stage "block" iters(sum 2, par 64, sum 32)
         ins(%px[d0 * 32 + d2], %pq[d2 * 2048 + d0 * 64 + d1], %ps[d0 * 64 + d1]) into %bb[d1]
         : (...) -> !spatial.page<2xf32> { ^bb0(%xe: bf16, %qe: i8, %se: f32): ... spatial.yield %v : f32 }
  spatial.store %r to %y[%i * 2] block 1x2 stride 2 repeat 1 : !spatial.page<2xf32> -> !spatial.tensor<1x64xf32, output>
  spatial.return %y : !spatial.tensor<1x64xf32, output>
}
```
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from enum import auto
from typing import ClassVar, TypeVar, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    HasAncestor,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    MemoryWriteEffect,
    NoMemoryEffect,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.core.geometry import (
    K_INDEX,
    LinearForm,
    TileMove,
    check_all_written,
    check_block_inside,
    check_disjoint,
    check_grid,
    check_owned_inside,
    check_page_reach,
    check_writes_owned,
    item_coords,
    linear_form,
    loop_values,
    owned_rectangles,
    owned_tiles,
    single_linear,
    tile_grid,
)
from xdsl_spatial.core.memory import format_bytes, limit_text, memory_limit
from xdsl_spatial.core.quant import Q8_BLOCK
from xdsl_spatial.dialects.q8 import Q8Part, Q8PartAttr, Q8Source, Q8SourceAttr

T = TypeVar("T")

Range = tuple[int, int]
"""`start, stop` of a slice, as Python spells it."""

# --------------------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------------------


def element_bytes(t: Attribute) -> int:
    """Bytes one element of `t` occupies on the chip."""
    if isinstance(t, IntegerType):
        return max(1, t.width.data // 8)
    if isinstance(t, BFloat16Type | Float16Type):
        return 2
    if isinstance(t, Float32Type):
        return 4
    if isinstance(t, IndexType):
        return 4
    raise VerifyException(f"element type {t} has no size on the chip")


def element_name(t: Attribute) -> str:
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    return str(t)


def _is_element(t: Attribute) -> bool:
    return isinstance(t, IntegerType | BFloat16Type | Float16Type | Float32Type)


# --------------------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetPreset:
    """Numbers of a named chip; `#spatial.target<"name">` expands to them. The first two
    are a site's, what the lowering plans for; the rest are the chip's, what the time
    estimate (`xdsl_spatial.analysis.chip_time`) reads. docs/chip_time.md cites each."""

    local_mem: int
    acc_tiles: int
    sites: int
    """Sites (cores) the chip has for a program's items."""
    clock_mhz: int
    dram_gb_s: int
    """The chip's memory bandwidth, in 10^9 bytes a second."""
    noc_b_cycle: int
    """Bytes a site's links to the network-on-chip take in or give out a cycle."""
    bf16_macs: int
    """Multiply-accumulates a site does a cycle on bf16 (and int8) operands."""
    f32_macs: int
    """... and on fp32 operands."""
    launch_cycles: int
    """Cycles from one program's end to the next one's start (its dispatch)."""
    doc: str


CHIP_FIELDS = (
    "sites",
    "clock_mhz",
    "dram_gb_s",
    "noc_b_cycle",
    "bf16_macs",
    "f32_macs",
    "launch_cycles",
)
"""The chip's figures a target carries after its site's (`TargetPreset`'s fields of
those names), each optional in the attribute's text."""

_N150 = TargetPreset(
    local_mem=1536 * 1024,
    acc_tiles=8,
    sites=72,
    clock_mhz=1000,
    dram_gb_s=288,
    noc_b_cycle=64,
    bf16_macs=1024,
    f32_macs=32,
    launch_cycles=4000,
    doc="Tenstorrent's Wormhole n150 board: 72 Tensix cores at 1 GHz, 1.5 MiB of L1 and "
    "8 fp32 tiles in the destination registers each, 288 GB/s of GDDR6",
)
TARGET_PRESETS: dict[str, TargetPreset] = {
    "wormhole_n150": _N150,
    "blackhole_p150": TargetPreset(
        local_mem=1536 * 1024,
        acc_tiles=8,
        sites=140,
        clock_mhz=1350,
        dram_gb_s=512,
        noc_b_cycle=128,
        bf16_macs=1024,
        f32_macs=32,
        launch_cycles=4000,
        doc="Tenstorrent's Blackhole p150 board: 140 Tensix cores at 1.35 GHz, 1.5 MiB of "
        "L1 each, 512 GB/s of GDDR6, NoC flits twice Wormhole's",
    ),
    "tensix": replace(
        _N150,
        doc="a Tenstorrent Tensix core: 1.5 MiB of L1, 8 fp32 tiles in its destination "
        "registers, 32x32 tiles; the chip is the Wormhole n150's (the default's old name)",
    ),
    "reference": replace(
        _N150,
        local_mem=320 * 1024,
        doc="the reference lowering's site: 320 KiB, so a batch of 8 folds 2 column tiles "
        "at a time; the chip's other figures are the Wormhole n150's",
    ),
}
DEFAULT_PRESET = "wormhole_n150"
"""The default: the smaller of the two boards whose site the lowering plans for (the
p150's site is the same, so only the time differs), so an estimate errs slow."""


def _preset(name: str) -> TargetPreset:
    if name not in TARGET_PRESETS:
        raise ValueError(
            f"unknown target preset '{name}', expected one of " + ", ".join(sorted(TARGET_PRESETS))
        )
    return TARGET_PRESETS[name]


@irdl_attr_definition
class TargetAttr(ParametrizedAttribute):
    """What the chip is: tile shape, precisions, one site's budget, and the chip's
    figures a time estimate reads (sites, clock, bandwidths, work a cycle, launch)."""

    name = "spatial.target"

    tile_rows: IntAttr
    """Rows of a tile (a Q8_0 block must be exactly one tile tall)."""
    tile_cols: IntAttr
    """Columns of a tile."""
    act: Attribute
    """Element type activations are held in (bf16 on a real chip)."""
    acc: Attribute
    """Element type of accumulators (f32)."""
    local_mem: IntAttr
    """Bytes of local memory on one site; a program's buffers must fit in it."""
    acc_tiles: IntAttr
    """Accumulator tiles one site holds: the widest column group it can fold."""
    sites: IntAttr
    clock_mhz: IntAttr
    dram_gb_s: IntAttr
    noc_b_cycle: IntAttr
    bf16_macs: IntAttr
    f32_macs: IntAttr
    launch_cycles: IntAttr
    """The chip's figures, `CHIP_FIELDS` (see `TargetPreset`)."""

    def __init__(
        self,
        *,
        tile: tuple[int, int] = (32, 32),
        act: Attribute | None = None,
        acc: Attribute | None = None,
        local_mem: int | None = None,
        acc_tiles: int | None = None,
        preset: str = DEFAULT_PRESET,
        **chip: int | None,
    ):
        p = _preset(preset)
        if unknown := sorted(set(chip) - set(CHIP_FIELDS)):
            raise TypeError(f"TargetAttr: unknown figures {', '.join(unknown)}")
        super().__init__(
            IntAttr(tile[0]),
            IntAttr(tile[1]),
            act or BFloat16Type(),
            acc or Float32Type(),
            IntAttr(p.local_mem if local_mem is None else local_mem),
            IntAttr(p.acc_tiles if acc_tiles is None else acc_tiles),
            *(
                IntAttr(getattr(p, f) if chip.get(f) is None else cast(int, chip[f]))
                for f in CHIP_FIELDS
            ),
        )

    @property
    def tile(self) -> tuple[int, int]:
        return self.tile_rows.data, self.tile_cols.data

    @property
    def tile_elems(self) -> int:
        return self.tile_rows.data * self.tile_cols.data

    def chip_figures(self) -> dict[str, int]:
        """The chip's figures by name (`CHIP_FIELDS`)."""
        return {f: cast(IntAttr, getattr(self, f)).data for f in CHIP_FIELDS}

    def preset_name(self) -> str | None:
        """The preset this target is, figure for figure (the default first), if any."""
        for name in (DEFAULT_PRESET, *TARGET_PRESETS):
            if TargetAttr(tile=self.tile, act=self.act, acc=self.acc, preset=name) == self:
                return name
        return None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            if (preset := parser.parse_optional_str_literal()) is not None:
                if preset not in TARGET_PRESETS:
                    parser.raise_error(
                        f"unknown target preset '{preset}', expected one of "
                        + ", ".join(sorted(TARGET_PRESETS))
                    )
                return TargetAttr(preset=preset).parameters
            parser.parse_keyword("tile")
            parser.parse_punctuation("=")
            dims = _parse_shape_no_type(parser)
            if len(dims) != 2:
                parser.raise_error(f"expected 2 static dimensions, got {dims}")
            parser.parse_punctuation(",")
            parser.parse_keyword("act")
            parser.parse_punctuation("=")
            act = parser.parse_type()
            parser.parse_punctuation(",")
            parser.parse_keyword("acc")
            parser.parse_punctuation("=")
            acc = parser.parse_type()
            parser.parse_punctuation(",")
            parser.parse_keyword("local_mem")
            parser.parse_punctuation("=")
            local_mem = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation(",")
            parser.parse_keyword("acc_tiles")
            parser.parse_punctuation("=")
            acc_tiles = parser.parse_integer(allow_negative=False, allow_boolean=False)
            chip: dict[str, int] = {}
            # The chip's figures are optional, in any order: absent, the default preset's.
            while parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                field = parser.parse_optional_identifier()
                if field not in CHIP_FIELDS:
                    parser.raise_error(
                        "expected one of the chip's figures " + ", ".join(CHIP_FIELDS),
                        at_position=pos,
                    )
                if field in chip:
                    parser.raise_error(f"'{field}' is given twice", at_position=pos)
                parser.parse_punctuation("=")
                chip[field] = parser.parse_integer(allow_negative=False, allow_boolean=False)
        return TargetAttr(
            tile=(dims[0], dims[1]),
            act=act,
            acc=acc,
            local_mem=local_mem,
            acc_tiles=acc_tiles,
            **chip,
        ).parameters

    def print_parameters(self, printer: Printer) -> None:
        # A figure the default preset has is left out: today's targets print as they did.
        default = TARGET_PRESETS[DEFAULT_PRESET]
        chip = "".join(
            f", {f} = {v}" for f, v in self.chip_figures().items() if v != getattr(default, f)
        )
        printer.print_string(
            f"<tile = {self.tile_rows.data}x{self.tile_cols.data}, "
            f"act = {element_name(self.act)}, acc = {element_name(self.acc)}, "
            f"local_mem = {self.local_mem.data}, acc_tiles = {self.acc_tiles.data}{chip}>"
        )

    def verify(self) -> None:
        if self.tile_rows.data < 1 or self.tile_cols.data < 1:
            raise VerifyException(
                f"tile must have at least one row and column, got "
                f"{self.tile_rows.data}x{self.tile_cols.data}"
            )
        if not isinstance(self.act, BFloat16Type | Float32Type):
            raise VerifyException(
                f"activation precision must be bf16 or f32, got {element_name(self.act)}"
            )
        if not isinstance(self.acc, Float32Type):
            raise VerifyException(
                f"accumulator precision must be f32, got {element_name(self.acc)}"
            )
        if self.local_mem.data < 1:
            raise VerifyException(
                f"local memory must be at least 1 byte, got {self.local_mem.data}"
            )
        if self.acc_tiles.data < 1:
            raise VerifyException(
                f"a site must hold at least 1 accumulator tile, got {self.acc_tiles.data}"
            )
        for f, v in self.chip_figures().items():
            if v < 1:
                raise VerifyException(f"the target's {f} must be positive, got {v}")


def _parse_shape_no_type(parser: AttrParser) -> list[int]:
    """`32x8` with no element type (`0x1` is two dimensions, not a hex literal)."""
    dims = parser.parse_dimension_list()
    if not dims or any(d < 0 for d in dims):
        got = "x".join("?" if d < 0 else str(d) for d in dims) or "nothing"
        parser.raise_error(f"expected static dimensions like 32x8, got {got}")
    return dims


@irdl_attr_definition
class PlanAttr(ParametrizedAttribute):
    """The block plan: how the items map onto sites, and the K loop they run."""

    name = "spatial.plan"

    grid: ArrayAttr[IntAttr]
    """Sites used, rows x columns."""
    k_blocks: IntAttr
    """Trips of the K loop each item runs (1 when there is no loop)."""
    site: ArrayAttr[IntAttr]
    """Output tiles one site owns, rows x columns."""

    def __init__(self, grid: tuple[int, int], k_blocks: int, site: tuple[int, int]):
        super().__init__(
            ArrayAttr(IntAttr(g) for g in grid),
            IntAttr(k_blocks),
            ArrayAttr(IntAttr(s) for s in site),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        def ints() -> ArrayAttr[IntAttr]:
            return ArrayAttr(
                IntAttr(i)
                for i in parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE,
                    lambda: parser.parse_integer(allow_boolean=False),
                )
            )

        with parser.in_angle_brackets():
            parser.parse_keyword("grid")
            parser.parse_punctuation("=")
            grid = ints()
            parser.parse_punctuation(",")
            parser.parse_keyword("k_blocks")
            parser.parse_punctuation("=")
            k_blocks = IntAttr(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(",")
            parser.parse_keyword("site")
            parser.parse_punctuation("=")
            site = ints()
        return grid, k_blocks, site

    def print_parameters(self, printer: Printer) -> None:
        g = ", ".join(str(i.data) for i in self.grid)
        s = ", ".join(str(i.data) for i in self.site)
        printer.print_string(f"<grid = [{g}], k_blocks = {self.k_blocks.data}, site = [{s}]>")

    def verify(self) -> None:
        for what, arr in (("grid", self.grid), ("site", self.site)):
            if len(arr) != 2 or any(i.data < 1 for i in arr):
                raise VerifyException(
                    f"plan {what} must be two positive integers, got {[i.data for i in arr]}"
                )
        if self.k_blocks.data < 1:
            raise VerifyException(f"plan k_blocks must be at least 1, got {self.k_blocks.data}")


class Numerics(StrEnum):
    """Whether a program's result is bit-exact."""

    EXACT = auto()
    APPROX = auto()


@irdl_attr_definition
class NumericsKindAttr(EnumAttribute[Numerics], SpacedOpaqueSyntaxAttribute):
    """`#spatial<numerics_kind exact>`; a numerics claim spells it bare."""

    name = "spatial.numerics_kind"


@irdl_attr_definition
class NumericsAttr(ParametrizedAttribute):
    """The program's numerics claim: bit-exact, or approximate with the reason."""

    name = "spatial.numerics"

    kind: NumericsKindAttr
    reason: StringAttr

    def __init__(self, kind: Numerics | str, reason: str = ""):
        super().__init__(NumericsKindAttr(Numerics(kind)), StringAttr(reason))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            kind, reason = _parse_numerics_body(parser)
        return NumericsKindAttr(kind), StringAttr(reason)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_numerics_body(self, printer)

    def verify(self) -> None:
        if self.kind.data == Numerics.APPROX and not self.reason.data:
            raise VerifyException("an 'approx' numerics claim must give its reason")


def _parse_numerics_body(parser: AttrParser) -> tuple[Numerics, str]:
    kind = Numerics(parser.parse_keyword_in([k.value for k in Numerics], " for the numerics claim"))
    reason = ""
    if kind == Numerics.APPROX:
        reason = parser.parse_str_literal(" (the reason the result is approximate)")
    return kind, reason


def _print_numerics_body(attr: NumericsAttr, printer: Printer) -> None:
    printer.print_string(attr.kind.data.value)
    if attr.kind.data == Numerics.APPROX:
        printer.print_string(" ")
        printer.print_string_literal(attr.reason.data)


class Role(StrEnum):
    """What a program does with a tensor."""

    INPUT = auto()
    """Read only; its contents come from outside the program."""
    OUTPUT = auto()
    """Written whole by the program's items."""
    STATE = auto()
    """Read and written; several programs may each write part of it."""
    PARAM = auto()
    """A weight or table the host fills before the run."""


@irdl_attr_definition
class RoleAttr(EnumAttribute[Role], SpacedOpaqueSyntaxAttribute):
    """`#spatial<role input>`; a tensor's type spells it bare: `!spatial.tensor<32x64xf32,
    input>`."""

    name = "spatial.role"


@irdl_attr_definition
class RepackAttr(ParametrizedAttribute):
    """How a host fills a param from a checkpoint: one part of a Q8_0 weight, from the
    layout the frontend stored it in (by a transpose, bit for bit, never re-quantised),
    whole or, for a chip's shard, the slice [rows, columns] of the stored tensor in its
    K x N layout (rows of values are K rows, rows of scales Q8_0 blocks):

        #spatial.repack<q8_0.values>
        #spatial.repack<q8_0.scales [32:64, 0:4096]>
        #spatial.repack<q8_0.values [0:1024, 64:128] from "NxK">
    """

    name = "spatial.repack"

    part: Q8PartAttr
    """The values or the scales."""
    shard: ArrayAttr[IntAttr]
    """Empty (the whole tensor), or row start, row stop, column start, column stop."""
    source: Q8SourceAttr
    """The frontend's layout (`KxN`, the chip's own, is not printed)."""

    def __init__(
        self,
        part: Q8Part,
        source: Q8Source | None = None,
        shard: tuple[Range, Range] | None = None,
    ):
        super().__init__(*self._parameters(part, source, shard))

    @staticmethod
    def _parameters(
        part: Q8Part, source: Q8Source | None, shard: tuple[Range, Range] | None
    ) -> tuple[Q8PartAttr, ArrayAttr[IntAttr], Q8SourceAttr]:
        bounds = () if shard is None else (*shard[0], *shard[1])
        return (
            Q8PartAttr(part),
            ArrayAttr(IntAttr(b) for b in bounds),
            Q8SourceAttr(source or Q8Source.KN),
        )

    @property
    def slice(self) -> tuple[Range, Range] | None:
        """The shard's (rows, columns) of the stored tensor, or None for all of it."""
        if len(self.shard) != 4:
            return None  # none, or a malformed one `verify` refuses
        r0, r1, c0, c1 = (b.data for b in self.shard)
        return (r0, r1), (c0, c1)

    def sharded(self, rows: Range, cols: Range) -> RepackAttr:
        """The repack of the shard that holds the weight's K rows `rows` and columns
        `cols`: for the scales, the Q8_0 blocks of those rows."""
        if self.part.data == Q8Part.SCALES:
            rows = (rows[0] // Q8_BLOCK, rows[1] // Q8_BLOCK)
        return RepackAttr(self.part.data, self.source.data, (rows, cols))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            part = Q8PartAttr.parse_parameter(parser)
            shard = None
            if parser.parse_optional_punctuation("[") is not None:

                def span() -> Range:
                    start = parser.parse_integer(allow_negative=False, allow_boolean=False)
                    parser.parse_punctuation(":")
                    return start, parser.parse_integer(allow_negative=False, allow_boolean=False)

                rows = span()
                parser.parse_punctuation(",")
                cols = span()
                parser.parse_punctuation("]")
                shard = (rows, cols)
            source = None
            if parser.parse_optional_keyword("from") is not None:
                source = Q8SourceAttr.parse_parameter(parser)
        return cls._parameters(part, source, shard)

    def text(self) -> str:
        """What the attribute prints between its brackets, e.g. `q8_0.scales [32:64,
        0:4096]` (what a picture or a message names it by)."""
        out = self.part.data.value
        if (cut := self.slice) is not None:
            (r0, r1), (c0, c1) = cut
            out += f" [{r0}:{r1}, {c0}:{c1}]"
        if self.source.data != Q8Source.KN:
            out += f' from "{self.source.data.value}"'
        return out

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.text()}>")

    def verify(self) -> None:
        if len(self.shard) not in (0, 4):
            raise VerifyException(
                f"a repack's shard is [rows, columns], got {[b.data for b in self.shard]}"
            )
        cut = self.slice
        if cut is not None and any(not 0 <= a < b for a, b in cut):
            (r0, r1), (c0, c1) = cut
            raise VerifyException(
                f"a repack's shard needs 0 <= start < stop, got [{r0}:{r1}, {c0}:{c1}]"
            )


class IterKind(StrEnum):
    """An axis of a stage's iteration space."""

    PAR = auto()
    """Parallel: every index is a distinct output element."""
    SUM = auto()
    """Reduced: the body's values along it are summed in the accumulator type."""


@irdl_attr_definition
class IterKindAttr(EnumAttribute[IterKind]):
    """`#spatial.iter_kind<par>` or `#spatial.iter_kind<sum>`."""

    name = "spatial.iter_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IterKind:
        with parser.in_angle_brackets():
            return IterKind(
                parser.parse_keyword_in([k.value for k in IterKind], " (iterator kind)")
            )

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


# --------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------


@irdl_attr_definition
class TensorHandleType(ParametrizedAttribute, TypeAttribute):
    """A tensor of a program, stored as tiles: its shape, element type and role."""

    name = "spatial.tensor"

    shape: ArrayAttr[IntAttr]
    element_type: Attribute
    role: RoleAttr

    def __init__(self, shape: Sequence[int], element_type: Attribute, role: Role | str):
        super().__init__(ArrayAttr(IntAttr(d) for d in shape), element_type, RoleAttr(Role(role)))

    @property
    def dims(self) -> tuple[int, int]:
        r, c = (d.data for d in self.shape)
        return r, c

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
            parser.parse_punctuation(",")
            role = parser.parse_keyword_in([r.value for r in Role], " (tensor role)")
        return ArrayAttr(IntAttr(d) for d in dims), elem, RoleAttr(Role(role))

    def print_parameters(self, printer: Printer) -> None:
        dims = "x".join(str(d.data) for d in self.shape)
        printer.print_string(f"<{dims}x")
        printer.print_attribute(self.element_type)
        printer.print_string(f", {self.role.data.value}>")

    def verify(self) -> None:
        if len(self.shape) != 2 or any(d.data < 1 for d in self.shape):
            raise VerifyException(
                f"a spatial tensor is 2-d with positive sizes, got {[d.data for d in self.shape]}"
            )
        if not _is_element(self.element_type):
            raise VerifyException(f"a spatial tensor holds ints or floats, got {self.element_type}")


@irdl_attr_definition
class BufferType(ParametrizedAttribute, TypeAttribute):
    """A buffer in a site's local memory: `depth` pages of `tiles` tiles each."""

    name = "spatial.buffer"

    tiles: IntAttr
    element_type: Attribute
    depth: IntAttr

    def __init__(self, tiles: int, element_type: Attribute, depth: int = 2):
        super().__init__(IntAttr(tiles), element_type, IntAttr(depth))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
            if len(dims) != 1:
                parser.raise_error("a buffer is one row of tiles: <N x type, depth D>")
            parser.parse_punctuation(",")
            parser.parse_keyword("depth")
            depth = parser.parse_integer(allow_negative=False, allow_boolean=False)
        return IntAttr(dims[0]), elem, IntAttr(depth)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.tiles.data}x")
        printer.print_attribute(self.element_type)
        printer.print_string(f", depth {self.depth.data}>")

    def bytes(self, tile_elems: int) -> int:
        """Local memory the buffer takes: depth x tiles x tile elements x element bytes."""
        return self.depth.data * self.tiles.data * tile_elems * element_bytes(self.element_type)

    def verify(self) -> None:
        if self.tiles.data < 1:
            raise VerifyException(f"a buffer holds at least 1 tile, got {self.tiles.data}")
        if self.depth.data < 1:
            raise VerifyException(f"buffer depth must be at least 1, got {self.depth.data}")
        if not _is_element(self.element_type):
            raise VerifyException(f"a buffer holds ints or floats, got {self.element_type}")


@irdl_attr_definition
class PageType(ParametrizedAttribute, TypeAttribute):
    """One page of a buffer: `tiles` tiles side by side, a 32 x 32*tiles matrix."""

    name = "spatial.page"

    tiles: IntAttr
    element_type: Attribute

    def __init__(self, tiles: int, element_type: Attribute):
        super().__init__(IntAttr(tiles), element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
            if len(dims) != 1:
                parser.raise_error("a page is one row of tiles: <N x type>")
        return IntAttr(dims[0]), elem

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.tiles.data}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        if self.tiles.data < 1:
            raise VerifyException(f"a page holds at least 1 tile, got {self.tiles.data}")
        if not _is_element(self.element_type):
            raise VerifyException(f"a page holds ints or floats, got {self.element_type}")


# --------------------------------------------------------------------------------------
# Linear forms, as the ops spell them
# --------------------------------------------------------------------------------------


def linear_terms(form: LinearForm, dims: Sequence[T], syms: Sequence[T]) -> list[tuple[T, int]]:
    """The (variable, coefficient) terms of `form` over variables `dims` and `syms`,
    by falling |coefficient| (dims before syms among equals), without zero ones."""
    terms = [(n, c) for c, n in zip(form.dims, dims) if c]
    terms += [(n, c) for c, n in zip(form.syms, syms) if c]
    terms.sort(key=lambda t: -abs(t[1]))
    return terms


def format_linear(expr: AffineExpr, dim_names: Sequence[str], sym_names: Sequence[str]) -> str:
    """`d2 * 8192 + d0 * 256 + d1`: terms by falling coefficient, the constant last."""
    form = linear_form(expr, len(dim_names), len(sym_names))
    if form is None:
        return str(expr)
    parts = [n if c == 1 else f"{n} * {c}" for n, c in linear_terms(form, dim_names, sym_names)]
    if form.const or not parts:
        parts.append(str(form.const))
    return " + ".join(parts)


def _print_linear_values(printer: Printer, expr: AffineExpr, values: Sequence[SSAValue]) -> None:
    """`format_linear` of an origin, its symbols spelled as the SSA values they stand for."""
    form = linear_form(expr, 0, len(values))
    if form is None:
        printer.print_string(str(expr))
        return
    terms = linear_terms(form, (), values)

    def one(term: tuple[SSAValue, int]) -> None:
        printer.print_ssa_value(term[0])
        if term[1] != 1:
            printer.print_string(f" * {term[1]}")

    printer.print_list(terms, one, " + ")
    if form.const or not terms:
        printer.print_string(f"{' + ' if terms else ''}{form.const}")


def _stage_map_str(m: AffineMap) -> str:
    return format_linear(
        m.results[0], [f"d{i}" for i in range(m.num_dims)], ["s0"][: m.num_symbols]
    )


_AFTER_LINEAR = " after a linear form (a sum of integers times variables)"
"""Where a linear form ends early: `d0 mod 2` is no address the chip computes."""

_TABLE_TERM = AffineConstantExpr(0)
"""What an origin's variable parser gives for its indirect table's element, which adds
nothing to the linear part (`_parse_linear` refuses to scale or negate it)."""


def _parse_linear(parser: Parser, variable: Callable[[], AffineExpr | None]) -> AffineExpr:
    """`term ((+ | -) term)*`, a term `n`, `v`, `v * n` or `n * v` for an integer `n` and
    a variable `v` (`variable` parses one, or gives None where there is none): the linear
    forms `format_linear` prints, the only ones the chip computes."""

    def term() -> AffineExpr:
        scale = parser.parse_optional_integer(allow_boolean=False)
        if scale is not None and parser.parse_optional_punctuation("*") is None:
            return AffineExpr.constant(scale)
        v = variable()
        if v is None:
            parser.raise_error("expected an integer or a variable (a linear form)")
        if scale is None and parser.parse_optional_punctuation("*") is not None:
            scale = parser.parse_integer(allow_boolean=False)
        if v is _TABLE_TERM and scale is not None:
            parser.raise_error("an indirect table's element is added as it is, not scaled")
        return v if scale is None else v * scale

    expr = term()
    while True:
        if parser.parse_optional_punctuation("+") is not None:
            expr = expr + term()
        elif parser.parse_optional_punctuation("-") is not None:
            t = term()
            if t is _TABLE_TERM:
                parser.raise_error("an indirect table's element is added, not subtracted")
            expr = expr - t
        else:
            return expr


def _defined_type(parser: Parser, operand: UnresolvedOperand) -> Attribute:
    """The type of an SSA value defined above, for an operand whose type the syntax
    implies (a buffer, an indirect table)."""
    values = parser.ssa_values.get(operand.operand_name, ())
    if operand.index >= len(values):
        parser.raise_error(f"use of undefined value %{operand.operand_name}", operand.span)
    return values[operand.index].type


# --------------------------------------------------------------------------------------
# Memory effects: what xDSL's passes (cse, dce, licm) may do with an op
# --------------------------------------------------------------------------------------


class Allocates(MemoryEffect):
    """Allocates the memory its result names (a buffer in a site's local memory, a
    tensor in the chip's), as `memref.alloc` does: `cse` never merges two, and `dce`
    drops one nobody uses."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset((EffectInstance(MemoryEffectKind.ALLOC, op.results[0]),))


class FillsPage(MemoryEffect):
    """Writes a page of its buffer (a stage's output): `cse` never merges two, since the
    page kept would have to stay in the buffer past the pages filled between them."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset((EffectInstance(MemoryEffectKind.WRITE, op.operands[-1]),))


class LoadsPage(MemoryEffect):
    """Reads a block of its tensor and writes it as a page of its buffer (a load):
    `cse` never merges two, for the page's sake as with `FillsPage` and because the
    traffic a program reports is what its loads move."""

    @classmethod
    def get_effects(cls, op: Operation) -> AbstractSet[EffectInstance]:
        return frozenset(
            (
                EffectInstance(MemoryEffectKind.READ, op.operands[0]),
                EffectInstance(MemoryEffectKind.WRITE, op.operands[1]),
            )
        )


# --------------------------------------------------------------------------------------
# Program ops
# --------------------------------------------------------------------------------------


class ProgramOp(IRDLOperation):
    """A program: one body run per work item, joined by buffers in local memory."""

    program_name = prop_def(StringAttr)
    """The program's name, e.g. `q8_gemv_2048x4096_w8`: what its traffic is reported
    under. Not a symbol: every fold of one shape has the same name."""
    grid = prop_def(DenseArrayBase)
    """Extents of the item grid; the body's first block arguments are an item's coordinates."""
    owns = prop_def(AffineMapAttr)
    """Item coordinates -> (tile row, tile column) of the output rectangle the item owns."""
    owns_size = prop_def(DenseArrayBase)
    """Tiles of that rectangle, rows x columns."""
    target = prop_def(TargetAttr)
    """The chip the program is built for."""
    plan = prop_def(PlanAttr)
    """The block plan."""
    numerics = prop_def(NumericsAttr)
    """Whether the result is bit-exact."""
    chip = opt_prop_def(IntegerAttr[I64])
    """The chip of a tensor-parallel deployment the program runs on (absent: the one
    chip of a single-chip deployment)."""

    ins = var_operand_def(TensorType)
    """Tensors from outside; the body sees them as block arguments after the coordinates."""
    outs = var_result_def(TensorType)
    """The output and state tensors, in the order `spatial.return` names them."""
    body = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), NoMemoryEffect())

    KIND: ClassVar[str]

    def __init__(
        self,
        name: str,
        *,
        grid: Sequence[int],
        owns: AffineMap,
        owns_size: tuple[int, int],
        target: TargetAttr,
        plan: PlanAttr,
        numerics: NumericsAttr,
        ins: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Region,
        chip: int | None = None,
    ):
        properties: dict[str, Attribute] = {
            "program_name": StringAttr(name),
            "grid": DenseArrayBase.from_list(i64, grid),
            "owns": AffineMapAttr(owns),
            "owns_size": DenseArrayBase.from_list(i64, owns_size),
            "target": target,
            "plan": plan,
            "numerics": numerics,
        }
        if chip is not None:
            properties["chip"] = IntegerAttr(chip, i64)
        super().__init__(
            operands=[ins],
            result_types=[result_types],
            regions=[body],
            properties=properties,
        )

    @property
    def chip_index(self) -> int | None:
        """The chip the program runs on, or None on a single-chip deployment."""
        return self.chip.value.data if self.chip is not None else None

    @property
    def grid_shape(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.grid.get_values())

    @property
    def num_items(self) -> int:
        return math.prod(self.grid_shape)

    @property
    def entry(self) -> Block:
        block = self.body.block
        return block

    @property
    def coords(self) -> Sequence[BlockArgument]:
        return self.entry.args[: len(self.grid_shape)]

    @property
    def in_args(self) -> Sequence[BlockArgument]:
        return self.entry.args[len(self.grid_shape) :]

    def tensors(self) -> Iterator[TensorOp]:
        for op in self.entry.ops:
            if isinstance(op, TensorOp):
                yield op

    def buffers(self) -> Iterator[BufferOp]:
        for op in self.body.walk():
            if isinstance(op, BufferOp):
                yield op

    def buffer_bytes(self) -> int:
        tile = self.target.tile_elems
        return sum(cast(BufferType, b.result.type).bytes(tile) for b in self.buffers())

    def item_coords(self) -> np.ndarray:
        """Coordinates of every item, shape (items, rank), row-major over the grid
        (checked first: the ops inside a program, verified before it, ask for them)."""
        return item_coords(self.grid_shape)

    # --- syntax ---------------------------------------------------------------------

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.program_name.data)
        if self.chip is not None:
            printer.print_string(f" chip {self.chip.value.data}")
        grid = ", ".join(str(g) for g in self.grid_shape)
        owns = self.owns.data
        dims = [f"d{i}" for i in range(owns.num_dims)]
        rc = ", ".join(format_linear(e, dims, ()) for e in owns.results)
        printer.print_string(f" grid [{grid}] owns ({', '.join(dims)}) -> ({rc}) size ")
        sz = ", ".join(str(g) for g in self.owns_size.get_values())
        printer.print_string(f"[{sz}]")
        with printer.indented():
            printer.print_string("\ntarget ")
            printer.print_attribute(self.target)
            printer.print_string("\nplan ")
            printer.print_attribute(self.plan)
            printer.print_string(" numerics ")
            _print_numerics_body(self.numerics, printer)
            printer.print_string("\nins(")
            printer.print_list(self.ins, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.ins.types, printer.print_attribute)
            printer.print_string(") -> ")
            if len(self.outs) == 1:
                printer.print_attribute(self.outs[0].type)
            else:
                printer.print_string("(")
                printer.print_list(self.outs.types, printer.print_attribute)
                printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> ProgramOp:
        name = parser.parse_str_literal(" (the program's name)")
        chip = None
        if parser.parse_optional_keyword("chip") is not None:
            chip = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_keyword("grid")
        grid = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE,
            lambda: parser.parse_integer(allow_negative=False, allow_boolean=False),
        )
        parser.parse_keyword("owns")
        owns = parser.parse_affine_map()
        parser.parse_keyword("size")
        size = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE,
            lambda: parser.parse_integer(allow_negative=False, allow_boolean=False),
        )
        parser.parse_keyword("target")
        target = parser.parse_attribute()
        parser.parse_keyword("plan")
        plan = parser.parse_attribute()
        parser.parse_keyword("numerics")
        kind, reason = _parse_numerics_body(parser)
        parser.parse_keyword("ins")
        parser.parse_punctuation("(")
        unresolved: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_punctuation(")") is None:
            unresolved = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
        pos = parser.pos
        ins = parser.resolve_operands(unresolved, types, pos)
        parser.parse_punctuation("->")
        if parser.parse_optional_punctuation("(") is not None:
            res_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
        else:
            res_types = [parser.parse_type()]
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if not isinstance(target, TargetAttr):
            parser.raise_error(f"expected a #spatial.target, got {target}")
        if not isinstance(plan, PlanAttr):
            parser.raise_error(f"expected a #spatial.plan, got {plan}")
        if len(size) != 2:
            parser.raise_error(f"owns size must be [rows, cols], got {size}")
        op = cls(
            name,
            grid=grid,
            owns=owns,
            owns_size=(size[0], size[1]),
            target=target,
            plan=plan,
            numerics=NumericsAttr.new((NumericsKindAttr(kind), StringAttr(reason))),
            ins=ins,
            result_types=res_types,
            body=body,
            chip=chip,
        )
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    # --- verification ---------------------------------------------------------------

    def verify_(self) -> None:
        if self.chip is not None and self.chip.value.data < 0:
            raise VerifyException(
                f"a program's chip is an index from 0, got {self.chip.value.data}"
            )
        self.verify_item_count()
        check_grid(self.grid_shape)
        self.verify_signature()
        returned = self.verify_tensors()
        self.check_local_memory()
        self.verify_plan()
        if returned:
            self.verify_items(returned)

    def verify_item_count(self) -> None:
        """Items own disjoint, non-empty rectangles of the first result, so there are
        no more of them than its tiles hold. Checked before the items are enumerated:
        a grid of millions is refused at once, not laid out in memory first."""
        if not self.outs or self.num_items < 1:
            return
        shape = cast(TensorType[Attribute], self.outs[0].type).get_shape()
        size = [int(x) for x in self.owns_size.get_values()]
        tr, tc = self.target.tile
        if len(shape) != 2 or len(size) != 2 or min(*shape, *size, tr, tc) < 1:
            return  # the checks of each say what is wrong
        h, w = size
        tiles = -(-shape[0] // tr) * -(-shape[1] // tc)
        if self.num_items * h * w > tiles:
            raise VerifyException(
                f"program '{self.program_name.data}': {self.num_items:,} items owning "
                f"{h}x{w} tiles each need {self.num_items * h * w:,} tiles, but its "
                f"result ({shape[0]}x{shape[1]}) has {tiles:,}"
            )

    def verify_signature(self) -> None:
        """The body takes the item coordinates, then the inputs."""
        grid = self.grid_shape
        args = list(self.entry.args)
        if len(args) != len(grid) + len(self.ins):
            raise VerifyException(
                f"program body takes {len(grid)} item coordinates and {len(self.ins)} "
                f"inputs, got {len(args)} block arguments"
            )
        for a in args[: len(grid)]:
            if not isinstance(a.type, IndexType):
                raise VerifyException(f"item coordinates are index, got {a.type}")
        for a, v in zip(args[len(grid) :], self.ins):
            if a.type != v.type:
                raise VerifyException(
                    f"program input #{a.index - len(grid)} is {v.type} but the body takes {a.type}"
                )

    def verify_tensors(self) -> list[TensorOp]:
        """Tensor names are unique, outputs and states are returned once each, in the
        order and types of the results: the returned tensors."""
        names: dict[str, TensorOp] = {}
        for t in self.tensors():
            if t.tensor_name.data in names:
                raise VerifyException(f"tensor '{t.tensor_name.data}' is declared twice")
            names[t.tensor_name.data] = t
        term = self.entry.last_op
        if not isinstance(term, ReturnOp):
            raise VerifyException("a program body must end with spatial.return")
        returned: list[TensorOp] = []
        for v in term.values:
            if not isinstance(v.owner, TensorOp):
                raise VerifyException("spatial.return takes tensors declared by spatial.tensor")
            returned.append(v.owner)
        for t in names.values():
            role = t.handle.role.data
            n = sum(r is t for r in returned)
            if role in (Role.OUTPUT, Role.STATE) and n != 1:
                raise VerifyException(
                    f"{role} tensor '{t.tensor_name.data}' must be returned once, got {n}"
                )
            if role in (Role.INPUT, Role.PARAM) and n:
                raise VerifyException(
                    f"{role} tensor '{t.tensor_name.data}' is not a result of the program"
                )
        if len(returned) != len(self.outs):
            raise VerifyException(
                f"program has {len(self.outs)} results but returns {len(returned)} tensors"
            )
        for t, r in zip(returned, self.outs):
            rt = cast(TensorType[Attribute], r.type)
            if tuple(rt.get_shape()) != t.handle.dims or rt.element_type != t.handle.element_type:
                raise VerifyException(
                    f"result {rt} does not match the returned tensor '{t.tensor_name.data}'"
                )
        return returned

    def check_local_memory(self) -> None:
        """The program's buffers fit one site's local memory."""
        used = self.buffer_bytes()
        if used > self.target.local_mem.data:
            parts = ", ".join(
                f"{b.buffer_name.data} "
                f"{cast(BufferType, b.result.type).bytes(self.target.tile_elems)}"
                for b in self.buffers()
            )
            raise VerifyException(
                f"buffers need {used} bytes of local memory but a site has "
                f"{self.target.local_mem.data} ({parts})"
            )

    def verify_plan(self) -> None:
        """The block plan agrees with the item grid, the K loop and what an item owns."""
        loops = [o for o in self.body.walk() if isinstance(o, KLoopOp)]
        plan = self.plan
        plan_items = math.prod(g.data for g in plan.grid)
        if plan_items != self.num_items:
            raise VerifyException(
                f"plan grid {[g.data for g in plan.grid]} holds {plan_items} items, the "
                f"program has {self.num_items}"
            )
        if not loops and plan.k_blocks.data != 1:
            raise VerifyException(
                f"plan k_blocks must be 1 with no K loop, got {plan.k_blocks.data}"
            )
        if loops and plan.k_blocks.data != loops[0].trips.data:
            raise VerifyException(
                f"plan k_blocks is {plan.k_blocks.data} but the K loop runs "
                f"{loops[0].trips.data} trips"
            )
        size = tuple(self.owns_size.get_values())
        if len(size) != 2:
            raise VerifyException(f"owns size must be [rows, cols], got {list(size)}")
        if any(s < 1 for s in size):
            raise VerifyException(
                f"an item owns at least 1x1 tiles, got {'x'.join(map(str, size))}"
            )
        if tuple(s.data for s in plan.site) != size:
            raise VerifyException(
                f"plan site {[s.data for s in plan.site]} must be the tiles an item owns, "
                f"{list(size)}"
            )

    def owned_rectangles(self) -> np.ndarray | None:
        """(items, 4): the tile row, tile column, rows and columns each item owns of
        the first result; None when `owns` is not two linear forms of the coordinates."""
        owns = self.owns.data
        size = tuple(int(s) for s in self.owns_size.get_values())
        if owns.num_dims != len(self.grid_shape) or owns.num_symbols or len(owns.results) != 2:
            return None
        forms = [linear_form(e, owns.num_dims, 0) for e in owns.results]
        if any(f is None for f in forms) or len(size) != 2:
            return None
        return owned_rectangles(
            cast(list[LinearForm], forms), (size[0], size[1]), self.item_coords()
        )

    def verify_items(self, returned: list[TensorOp]) -> None:
        """Items own disjoint rectangles; stores write exactly what items own; outputs
        are whole."""
        self.check_enumerable()
        owns = self.owns.data
        if owns.num_dims != len(self.grid_shape) or owns.num_symbols or len(owns.results) != 2:
            raise VerifyException(
                f"owns must map the {len(self.grid_shape)} item coordinates to (tile row, "
                f"tile column), got {owns}"
            )
        rects = self.owned_rectangles()
        if rects is None:
            raise VerifyException(f"owns must be linear, got {owns}")
        tile = self.target.tile
        first = returned[0]
        grid = tile_grid(first.handle.dims, tile)
        check_owned_inside(rects, grid, first.tensor_name.data)
        owned = owned_tiles(rects, grid[1])
        check_disjoint(*owned, "own", first.tensor_name.data, grid)

        stores = [s for s in self.body.walk() if isinstance(s, StoreOp)]
        for t in returned:
            name = t.tensor_name.data
            mine = [s.written_tiles(self) for s in stores if s.tensor.owner is t]
            if not mine:
                raise VerifyException(f"no store writes '{name}'")
            items = np.concatenate([w[0] for w in mine])
            tiles = np.concatenate([w[1] for w in mine])
            t_grid = tile_grid(t.handle.dims, tile)
            check_disjoint(items, tiles, "write", name, t_grid)
            if t.handle.role.data == Role.OUTPUT:
                check_all_written(tiles, t_grid, name)
            if t is first:
                check_writes_owned((items, tiles), owned, t_grid, name)

    def check_enumerable(self) -> None:
        """The checks that enumerate every item's tiles (moves, owned rectangles) fit
        the memory limit: a program too large for them is refused before they
        allocate, not after minutes of swapping (`XDSL_SPATIAL_MEMORY_LIMIT` sets the
        limit)."""
        items = self.num_items
        tiles = items * math.prod(int(x) for x in self.owns_size.get_values())
        for mv in self.body.walk():
            if isinstance(mv, TileMoveOp):
                bh, bw = mv.block_shape
                loop = enclosing_loop(mv)
                trips = loop.trips.data if loop is not None else 1
                tiles = max(tiles, items * trips * bh * (bw if isinstance(mv, StoreOp) else 1))
        need = tiles * 8 * ENUMERATION_COPIES
        limit = memory_limit()
        if need > limit:
            raise VerifyException(
                f"program '{self.program_name.data}': checking its {items:,} items "
                f"enumerates {tiles:,} tiles at once, {format_bytes(need)}, more than "
                f"{limit_text(limit)}"
            )


ENUMERATION_COPIES = 4
"""Arrays of a check's size alive at once (its indices, their rows and columns, a sort)."""


def enclosing_program(op: Operation) -> ProgramOp | None:
    """The program `op` lies in, if any."""
    p = op.parent_op()
    while p is not None and not isinstance(p, ProgramOp):
        p = p.parent_op()
    return p


def enclosing_loop(op: Operation) -> KLoopOp | None:
    """The K loop `op` lies in, inside its program, if any."""
    p = op.parent_op()
    while p is not None and not isinstance(p, ProgramOp):
        if isinstance(p, KLoopOp):
            return p
        p = p.parent_op()
    return None


@irdl_op_definition
class ViewOp(ProgramOp):
    """A relayout program: rewrites a tensor's tiles into the layout a fold reads."""

    name = "spatial.view"
    KIND: ClassVar[str] = "view"


@irdl_op_definition
class FoldOp(ProgramOp):
    """A product program: folds its K blocks into an fp32 carry and stores the result."""

    name = "spatial.fold"
    KIND: ClassVar[str] = "fold"


PROGRAM_OPS = (ViewOp, FoldOp)


@irdl_op_definition
class TensorOp(IRDLOperation):
    """Declares a tensor of the program: its name, role, initial contents and repack."""

    name = "spatial.tensor"

    tensor_name = prop_def(StringAttr, prop_name="tensor_name")
    """The tensor's name on the chip (a host binds external tensors by it)."""
    source = opt_operand_def(TensorType)
    """Initialised from outside: the program's input bound to this tensor."""
    zero = opt_prop_def(UnitAttr)
    """Initialised to zeros."""
    values = opt_prop_def(DenseIntOrFPElementsAttr)
    """Initialised to these values (a table, or a weight quantised at lowering)."""
    repack = opt_prop_def(RepackAttr)
    """For a param: how the host fills it from a checkpoint."""
    result = result_def(TensorHandleType)

    traits = traits_def(Allocates(), HasParent(ViewOp, FoldOp))

    assembly_format = (
        "$tensor_name (`external` `(` $source^ `:` type($source) `)`)? "
        "(`zero` $zero^)? (`values` $values^)? (`repack` $repack^)? "
        "attr-dict `:` type($result)"
    )

    def __init__(
        self,
        name: str,
        handle: TensorHandleType,
        *,
        source: SSAValue | None = None,
        values: DenseIntOrFPElementsAttr | None = None,
        repack: RepackAttr | None = None,
    ):
        props: dict[str, Attribute] = {"tensor_name": StringAttr(name)}
        if source is None and values is None:
            props["zero"] = UnitAttr()
        if values is not None:
            props["values"] = values
        if repack is not None:
            props["repack"] = repack
        super().__init__(
            operands=[[source] if source is not None else []],
            result_types=[handle],
            properties=props,
        )

    @property
    def handle(self) -> TensorHandleType:
        return cast(TensorHandleType, self.result.type)

    @property
    def init(self) -> str:
        if self.source is not None:
            return "external"
        if self.values is not None:
            return "values"
        return "zero"

    def verify_(self) -> None:
        h = self.handle
        inits = [
            name
            for name, present in (
                ("external", self.source is not None),
                ("zero", self.zero is not None),
                ("values", self.values is not None),
            )
            if present
        ]
        if len(inits) != 1:
            raise VerifyException(
                f"tensor '{self.tensor_name.data}' needs exactly one init "
                f"(external, zero or values), got {' and '.join(inits) or 'none'}"
            )
        if not self.tensor_name.data:
            raise VerifyException("a tensor needs a name")
        if self.source is not None:
            st = cast(TensorType[Attribute], self.source.type)
            if tuple(st.get_shape()) != h.dims or st.element_type != h.element_type:
                raise VerifyException(
                    f"tensor '{self.tensor_name.data}' is {_handle_str(h)} but is bound to {st}"
                )
            if not (
                isinstance(self.source, BlockArgument)
                and isinstance(self.source.owner.parent_op(), ProgramOp)
            ):
                raise VerifyException(
                    f"tensor '{self.tensor_name.data}' must be bound to an input of "
                    "its program (a block argument of the program's body)"
                )
        if self.values is not None:
            vt = self.values.get_type()
            if tuple(vt.get_shape()) != h.dims or vt.element_type != h.element_type:
                raise VerifyException(
                    f"tensor '{self.tensor_name.data}' is {_handle_str(h)} but its values are {vt}"
                )
        role = h.role.data
        if role == Role.INPUT and self.init != "external":
            raise VerifyException(
                f"input tensor '{self.tensor_name.data}' must be external, got {self.init}"
            )
        if role == Role.OUTPUT and self.init == "external":
            raise VerifyException(
                f"output tensor '{self.tensor_name.data}' starts as zero or values; "
                "a tensor the program also reads is a state"
            )
        if self.repack is not None and role != Role.PARAM:
            raise VerifyException(
                f"only a param has a host repack, '{self.tensor_name.data}' is {role}"
            )


def _handle_str(h: TensorHandleType) -> str:
    r, c = h.dims
    return f"{r}x{c}x{element_name(h.element_type)}"


@irdl_op_definition
class BufferOp(IRDLOperation):
    """Allocates a buffer in the site's local memory."""

    name = "spatial.buffer"

    buffer_name = prop_def(StringAttr, prop_name="buffer_name")
    """The buffer's name, e.g. `in_q8`."""
    result = result_def(BufferType)

    traits = traits_def(Allocates(), HasAncestor(ViewOp, FoldOp))

    assembly_format = "$buffer_name attr-dict `:` type($result)"

    def __init__(self, name: str, tiles: int, element_type: Attribute, depth: int = 2):
        super().__init__(
            result_types=[BufferType(tiles, element_type, depth)],
            properties={"buffer_name": StringAttr(name)},
        )

    def verify_(self) -> None:
        program = enclosing_program(self)
        if program is None:
            return
        name = self.buffer_name.data
        first = next(b for b in program.buffers() if b.buffer_name.data == name)
        if first is not self:
            raise VerifyException(
                f"buffer '{name}' is allocated twice in program '{program.program_name.data}'; "
                "a program's buffers have distinct names"
            )


class TileMoveOp(IRDLOperation):
    """What loads and stores share: a block of tiles at an origin."""

    origin = prop_def(AffineMapAttr)
    """`()[s...] -> (tile)`: the block's first tile, linear in the loop variables."""
    origin_vars = var_operand_def(IndexType)
    """The loop variables (item coordinates, the K block) the origin's symbols stand for."""
    table = opt_operand_def(TensorHandleType)
    """Optional indirect table: its element at `table_at` is added to the origin."""
    table_at = opt_prop_def(AffineMapAttr)
    """`()[s...] -> (element)`: where the table is read, over the same variables."""
    block = prop_def(DenseArrayBase)
    """The block's tiles, rows x columns."""
    stride = prop_def(IntAttr)
    """Tiles between the first tiles of consecutive block rows."""
    repeat = prop_def(IntAttr)
    """Times the move runs per item: the trip count of the enclosing K loop, else 1."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    KIND: ClassVar[str]
    """`load` or `store`, as messages name the move."""

    @property
    def page_type(self) -> PageType:
        """The page the move fills or empties."""
        raise NotImplementedError

    @property
    def moved_tensor(self) -> SSAValue:
        """The tensor the move reads or writes."""
        raise NotImplementedError

    @property
    def block_shape(self) -> tuple[int, int]:
        h, w = self.block.get_values()
        return cast(int, h), cast(int, w)

    @property
    def tensor_name(self) -> str:
        decl = self.moved_tensor.owner
        return decl.tensor_name.data if isinstance(decl, TensorOp) else str(self.moved_tensor)

    def tile_move(self) -> TileMove:
        """The move as numbers (its origin and table position linear, or a
        `VerifyException` saying which is not)."""
        kind = self.KIND
        table_at = None
        if self.table_at is not None:
            table_at = single_linear(self.table_at.data, f"{kind} table position")
        return TileMove(
            single_linear(self.origin.data, f"{kind} origin"),
            self.block_shape,
            self.stride.data,
            table_at,
        )

    def loop_variables(self) -> tuple[int, ...]:
        """What each of the origin's variables is: an axis of the enclosing program's
        item grid, or `K_INDEX`, the enclosing K loop's index."""
        program, loop = enclosing_program(self), enclosing_loop(self)
        out = []
        for v in self.origin_vars:
            if (
                program is not None
                and isinstance(v, BlockArgument)
                and v.owner is program.entry
                and v.index < len(program.grid_shape)
            ):
                out.append(v.index)
            elif loop is not None and loop.body.block.args and v is loop.induction_var:
                out.append(K_INDEX)
            else:
                raise VerifyException(
                    f"{self.KIND} origin may only use item coordinates and the enclosing "
                    f"K loop's index, got {_value_str(v)}"
                )
        return tuple(out)

    def table_values(self) -> np.ndarray | None:
        """The indirect table's elements (flat, row-major) when it is declared with
        constant values; None for no table or one bound at run time."""
        decl = self.table.owner if self.table is not None else None
        if not (isinstance(decl, TensorOp) and decl.values is not None):
            return None
        return np.asarray(decl.values.get_values()).reshape(-1).astype(np.int64)

    def first_tiles(self, program: ProgramOp) -> np.ndarray | None:
        """The block's first tile for every (item, K trip) of `program`, None when it
        reads an external table (known only when the program runs)."""
        move = self.tile_move()
        loop = enclosing_loop(self)
        trips = loop.trips.data if loop is not None else 1
        values = loop_values(program.item_coords(), trips, self.loop_variables())
        table = self.table_values()
        if move.table_at is not None and table is None:
            return None
        return move.first_tiles(values, (program.num_items, trips), table, self.KIND)

    # --- syntax ---------------------------------------------------------------------

    def _print_origin(self, printer: Printer) -> None:
        printer.print_string("[")
        origin = self.origin.data.results[0]
        values = list(self.origin_vars)
        # `[%tbl[%i]]` rather than `[0 + %tbl[%i]]`: the parser reads both.
        if not (
            self.table is not None and isinstance(origin, AffineConstantExpr) and origin.value == 0
        ):
            _print_linear_values(printer, origin, values)
            if self.table is not None:
                printer.print_string(" + ")
        if self.table is not None and self.table_at is not None:
            printer.print_ssa_value(self.table)
            printer.print_string("[")
            _print_linear_values(printer, self.table_at.data.results[0], values)
            printer.print_string("]")
        printer.print_string("]")
        h, w = self.block_shape
        printer.print_string(f" block {h}x{w} stride {self.stride.data} repeat {self.repeat.data}")

    @staticmethod
    def _parse_origin(
        parser: Parser,
    ) -> tuple[list[SSAValue], list[SSAValue], dict[str, Attribute]]:
        """`[%a * 4 + %b + %tbl[%a]] block HxW stride S repeat R`: the origin's
        variables, the table (or nothing) and the properties."""
        # The origin and the table position share one symbol space (the loop variables).
        found: dict[str, int] = {}
        spans: list[UnresolvedOperand] = []
        tables: list[tuple[UnresolvedOperand, AffineExpr]] = []

        def symbol(v: UnresolvedOperand) -> AffineExpr:
            found.setdefault(v.span.text, len(found))
            if found[v.span.text] == len(spans):
                spans.append(v)
            return AffineExpr.symbol(found[v.span.text])

        def position() -> AffineExpr | None:
            if (v := parser.parse_optional_unresolved_operand()) is None:
                return None
            if parser.parse_optional_punctuation("[") is not None:
                parser.raise_error("an indirect table cannot be read indirectly")
            return symbol(v)

        def variable() -> AffineExpr | None:
            if (v := parser.parse_optional_unresolved_operand()) is None:
                return None
            if parser.parse_optional_punctuation("[") is None:
                return symbol(v)
            if tables:
                parser.raise_error("an origin has at most one indirect table")
            tables.append((v, _parse_linear(parser, position)))
            parser.parse_punctuation("]", _AFTER_LINEAR)
            return _TABLE_TERM

        parser.parse_punctuation("[")
        origin = _parse_linear(parser, variable)
        parser.parse_punctuation("]", _AFTER_LINEAR)
        parser.parse_keyword("block")
        dims = _parse_shape_no_type(parser)
        if len(dims) != 2:
            parser.raise_error(f"block must be rows x columns, got {dims}")
        parser.parse_keyword("stride")
        stride = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_keyword("repeat")
        repeat = parser.parse_integer(allow_negative=False, allow_boolean=False)
        n = len(spans)
        props: dict[str, Attribute] = {
            "origin": AffineMapAttr(AffineMap(0, n, (origin,))),
            "block": DenseArrayBase.from_list(i64, dims),
            "stride": IntAttr(stride),
            "repeat": IntAttr(repeat),
        }
        table: list[SSAValue] = []
        if tables:
            (t, at) = tables[0]
            props["table_at"] = AffineMapAttr(AffineMap(0, n, (at,)))
            table = [parser.resolve_operand(t, _defined_type(parser, t))]
        return [parser.resolve_operand(s, IndexType()) for s in spans], table, props

    @staticmethod
    def _properties(
        origin: AffineMap,
        block: tuple[int, int],
        stride: int,
        repeat: int,
        table_at: AffineMap | None,
    ) -> dict[str, Attribute]:
        props: dict[str, Attribute] = {
            "origin": AffineMapAttr(origin),
            "block": DenseArrayBase.from_list(i64, block),
            "stride": IntAttr(stride),
            "repeat": IntAttr(repeat),
        }
        if table_at is not None:
            props["table_at"] = AffineMapAttr(table_at)
        return props

    # --- verification ---------------------------------------------------------------

    def verify_(self) -> None:
        program = enclosing_program(self)
        if program is not None:
            program.verify_item_count()  # before the move is checked for every item
        kind = self.KIND
        h = cast(TensorHandleType, self.moved_tensor.type)
        pt = self.page_type
        if len(self.block) != 2:
            raise VerifyException(
                f"{kind} block must be rows x columns, got {list(self.block.get_values())}"
            )
        bh, bw = self.block_shape
        if bh < 1 or bw < 1:
            raise VerifyException(f"{kind} block must be at least 1x1 tiles, got {bh}x{bw}")
        if self.stride.data < 0:
            raise VerifyException(f"{kind} stride must be non-negative, got {self.stride.data}")
        if pt.tiles.data != bh * bw:
            raise VerifyException(
                f"{kind} block {bh}x{bw} moves {bh * bw} tiles but the page holds {pt.tiles.data}"
            )
        if pt.element_type != h.element_type:
            raise VerifyException(
                f"{kind} of {element_name(h.element_type)} tensor needs a "
                f"{element_name(h.element_type)} page, got {element_name(pt.element_type)}"
            )
        omap = self.origin.data
        if omap.num_dims != 0 or omap.num_symbols != len(self.origin_vars):
            raise VerifyException(
                f"{kind} origin must have one symbol per loop variable "
                f"({len(self.origin_vars)}), got {omap}"
            )
        single_linear(omap, f"{kind} origin")
        if (self.table is None) != (self.table_at is None):
            raise VerifyException(
                f"{kind} with an indirect table needs both the table and where it is read"
            )
        if self.table is not None:
            th = cast(TensorHandleType, self.table.type)
            if not isinstance(th.element_type, IntegerType):
                raise VerifyException(
                    f"{kind} indirect table must hold integers, got {element_name(th.element_type)}"
                )
        move = self.tile_move()
        if kind == "store" and h.role.data in (Role.INPUT, Role.PARAM):
            article = "an" if h.role.data == Role.INPUT else "a"
            raise VerifyException(
                f"a store writes an output or a state, not {article} {h.role.data}"
            )
        if program is None:
            return
        loop = enclosing_loop(self)
        trips = loop.trips.data if loop is not None else 1
        if self.repeat.data != trips:
            where = "its K loop's trip count" if loop is not None else "1 outside a K loop"
            raise VerifyException(f"{kind} repeat must be {where}, {trips}, got {self.repeat.data}")
        self.loop_variables()
        if not (program.num_items and trips):
            return  # no item or no trip: the program's or the loop's verifier says so
        program.check_enumerable()
        t0 = self.first_tiles(program)
        if t0 is None:
            return  # an external table's values are checked when the program runs
        check_block_inside(
            t0,
            move.block,
            move.stride,
            tile_grid(h.dims, program.target.tile),
            kind,
            self.tensor_name,
            range(trips) if loop is not None else None,
        )


def _value_str(v: SSAValue) -> str:
    if v.name_hint:
        return f"%{v.name_hint}"
    if isinstance(v, BlockArgument):
        return f"block argument #{v.index}"
    return f"a result of {cast(Operation, v.owner).name}"


@irdl_op_definition
class LoadOp(TileMoveOp):
    """Moves a block of a tensor's tiles into a buffer, as one page."""

    name = "spatial.load"
    KIND: ClassVar[str] = "load"

    tensor = operand_def(TensorHandleType)
    buffer = operand_def(BufferType)
    result = result_def(PageType)

    traits = traits_def(LoadsPage(), HasAncestor(ViewOp, FoldOp))

    def __init__(
        self,
        tensor: SSAValue,
        buffer: SSAValue,
        origin: AffineMap,
        origin_vars: Sequence[SSAValue],
        block: tuple[int, int],
        stride: int,
        repeat: int = 1,
        table: SSAValue | None = None,
        table_at: AffineMap | None = None,
    ):
        bt = cast(BufferType, buffer.type)
        super().__init__(
            operands=[tensor, buffer, origin_vars, [table] if table else []],
            result_types=[PageType(block[0] * block[1], bt.element_type)],
            properties=self._properties(origin, block, stride, repeat, table_at),
        )

    @property
    def page_type(self) -> PageType:
        return cast(PageType, self.result.type)

    @property
    def moved_tensor(self) -> SSAValue:
        return self.tensor

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor)
        self._print_origin(printer)
        printer.print_string(" into ")
        printer.print_ssa_value(self.buffer)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        tensor = parser.parse_unresolved_operand()
        vars_, table, props = cls._parse_origin(parser)
        parser.parse_keyword("into")
        buffer = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        ttype = parser.parse_type()
        parser.parse_punctuation("->")
        ptype = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(tensor, ttype),
                parser.resolve_operand(buffer, _defined_type(parser, buffer)),
                vars_,
                table,
            ],
            result_types=[ptype],
            properties=props,
        )

    def verify_(self) -> None:
        super().verify_()
        bt = cast(BufferType, self.buffer.type)
        pt = self.page_type
        if bt.tiles.data != pt.tiles.data or bt.element_type != pt.element_type:
            raise VerifyException(
                f"load into buffer <{bt.tiles.data}x{element_name(bt.element_type)}> "
                f"must give a page of the same tiles, got <{pt.tiles.data}x"
                f"{element_name(pt.element_type)}>"
            )


@irdl_op_definition
class StoreOp(TileMoveOp):
    """Moves a page's tiles into a block of a tensor."""

    name = "spatial.store"
    KIND: ClassVar[str] = "store"

    page = operand_def(PageType)
    tensor = operand_def(TensorHandleType)

    traits = traits_def(MemoryWriteEffect(), HasAncestor(ViewOp, FoldOp))

    def __init__(
        self,
        page: SSAValue,
        tensor: SSAValue,
        origin: AffineMap,
        origin_vars: Sequence[SSAValue],
        block: tuple[int, int],
        stride: int,
        repeat: int = 1,
        table: SSAValue | None = None,
        table_at: AffineMap | None = None,
    ):
        super().__init__(
            operands=[page, tensor, origin_vars, [table] if table else []],
            properties=self._properties(origin, block, stride, repeat, table_at),
        )

    @property
    def page_type(self) -> PageType:
        return cast(PageType, self.page.type)

    @property
    def moved_tensor(self) -> SSAValue:
        return self.tensor

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.page)
        printer.print_string(" to ")
        printer.print_ssa_value(self.tensor)
        self._print_origin(printer)
        printer.print_string(" : ")
        printer.print_attribute(self.page.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.tensor.type)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        page = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        tensor = parser.parse_unresolved_operand()
        vars_, table, props = cls._parse_origin(parser)
        parser.parse_punctuation(":")
        ptype = parser.parse_type()
        parser.parse_punctuation("->")
        ttype = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(page, ptype),
                parser.resolve_operand(tensor, ttype),
                vars_,
                table,
            ],
            properties=props,
        )

    def written_tiles(self, program: ProgramOp) -> tuple[np.ndarray, np.ndarray]:
        """(item, linear tile) of every tile the store writes, over all items and trips."""
        t0 = self.first_tiles(program)
        if t0 is None:
            raise VerifyException("a store through an external table cannot be checked for overlap")
        tiles = self.tile_move().tiles(t0)
        items = np.broadcast_to(np.arange(program.num_items)[:, None, None, None], tiles.shape)
        return items.reshape(-1), tiles.reshape(-1)


# --------------------------------------------------------------------------------------
# Stages
# --------------------------------------------------------------------------------------


@irdl_op_definition
class StageOp(IRDLOperation):
    """
    A generic compute stage: for every point of its iteration space, the body's
    value from the inputs' elements at their maps, summed over the `sum` axes and
    written to the output page at the output map.
    """

    name = "spatial.stage"

    stage_name = prop_def(StringAttr, prop_name="stage_name")
    """The stage's name, e.g. `block` or `fold_sum`."""
    iterators = prop_def(ArrayAttr[IterKindAttr])
    """Each axis: `par` or `sum`."""
    extents = prop_def(DenseArrayBase)
    """Each axis's extent."""
    maps = prop_def(ArrayAttr[AffineMapAttr])
    """One map per input and one for the output: axes -> flat element offset in the page."""
    indirect = prop_def(DenseArrayBase)
    """Per input: -1, or the input whose element (at its own map) is the map's symbol s0."""
    ins = var_operand_def(PageType)
    buffer = operand_def(BufferType)
    """The buffer the output page is written into."""
    result = result_def(PageType)
    body = region_def("single_block")

    traits = traits_def(FillsPage(), HasAncestor(ViewOp, FoldOp))

    def __init__(
        self,
        name: str,
        iterators: Sequence[tuple[IterKind, int]],
        ins: Sequence[SSAValue],
        in_maps: Sequence[AffineMap],
        buffer: SSAValue,
        out_map: AffineMap,
        body: Region,
        indirect: Sequence[int] | None = None,
    ):
        bt = cast(BufferType, buffer.type)
        super().__init__(
            operands=[ins, buffer],
            result_types=[PageType(bt.tiles.data, bt.element_type)],
            regions=[body],
            properties={
                "stage_name": StringAttr(name),
                "iterators": ArrayAttr(IterKindAttr(k) for k, _ in iterators),
                "extents": DenseArrayBase.from_list(i64, [e for _, e in iterators]),
                "maps": ArrayAttr(AffineMapAttr(m) for m in (*in_maps, out_map)),
                "indirect": DenseArrayBase.from_list(
                    i64, indirect if indirect is not None else [-1] * len(ins)
                ),
            },
        )

    @property
    def iter_kinds(self) -> tuple[IterKind, ...]:
        return tuple(k.data for k in self.iterators)

    @property
    def iter_extents(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.extents.get_values())

    @property
    def in_maps(self) -> tuple[AffineMap, ...]:
        return tuple(m.data for m in self.maps.data[:-1])

    @property
    def out_map(self) -> AffineMap:
        return self.maps.data[-1].data

    @property
    def indirect_of(self) -> tuple[int, ...]:
        return cast(tuple[int, ...], self.indirect.get_values())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.stage_name.data)
        its = ", ".join(f"{k} {e}" for k, e in zip(self.iter_kinds, self.iter_extents))
        printer.print_string(f" iters({its})")
        with printer.indented():
            printer.print_string("\nins(")

            def one(i: int) -> None:
                printer.print_ssa_value(self.ins[i])
                printer.print_string(f"[{_stage_map_str(self.in_maps[i])}")
                if (j := self.indirect_of[i]) >= 0:
                    printer.print_string(f" | s0 = in{j}")
                printer.print_string("]")

            printer.print_list(range(len(self.ins)), one)
            printer.print_string(") into ")
            printer.print_ssa_value(self.buffer)
            printer.print_string(f"[{_stage_map_str(self.out_map)}] : (")
            printer.print_list(self.ins.types, printer.print_attribute)
            printer.print_string(") -> ")
            printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> StageOp:
        name = parser.parse_str_literal(" (the stage's name)")
        parser.parse_keyword("iters")

        def one_iter() -> tuple[str, int]:
            kind = parser.parse_keyword_in([k.value for k in IterKind], " (iterator kind)")
            return kind, parser.parse_integer(allow_negative=False, allow_boolean=False)

        iters = parser.parse_comma_separated_list(parser.Delimiter.PAREN, one_iter)
        dims = [f"d{i}" for i in range(len(iters))]

        def expr(syms: list[str]) -> AffineExpr:
            def axis() -> AffineExpr | None:
                if (name := parser.parse_optional_identifier()) is None:
                    return None
                if name in dims:
                    return AffineExpr.dimension(dims.index(name))
                if name in syms:
                    return AffineExpr.symbol(syms.index(name))
                parser.raise_error(f"expected one of {', '.join(dims + syms)}, got {name}")

            return _parse_linear(parser, axis)

        def one_in() -> tuple[UnresolvedOperand, AffineMap, int]:
            v = parser.parse_unresolved_operand()
            parser.parse_punctuation("[")
            e = expr(["s0"])
            via = -1
            if parser.parse_optional_punctuation("|") is not None:
                parser.parse_keyword("s0")
                parser.parse_punctuation("=")
                tok = parser.parse_identifier(context_msg=" (`inN`)")
                if not (tok.startswith("in") and tok[2:].isdigit()):
                    parser.raise_error(f"expected `inN`, got {tok}")
                via = int(tok[2:])
            parser.parse_punctuation("]", _AFTER_LINEAR)
            uses_s0 = any(isinstance(x, AffineSymExpr) for x in e.dfs())
            if uses_s0 and via < 0:
                parser.raise_error("s0 is used but no `| s0 = inN` says which input gives it")
            return v, AffineMap(len(dims), 1 if via >= 0 else 0, (e,)), via

        parser.parse_keyword("ins")
        parsed_ins = parser.parse_comma_separated_list(parser.Delimiter.PAREN, one_in)
        parser.parse_keyword("into")
        buf = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        out_expr = expr([])
        parser.parse_punctuation("]", _AFTER_LINEAR)
        parser.parse_punctuation(":")
        in_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        res_type = parser.parse_type()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        if len(in_types) != len(parsed_ins):
            parser.raise_error(
                f"stage has {len(parsed_ins)} inputs but {len(in_types)} input types"
            )
        ins = [parser.resolve_operand(v, t) for (v, _, _), t in zip(parsed_ins, in_types)]
        op = cls.build(
            operands=[ins, parser.resolve_operand(buf, _defined_type(parser, buf))],
            result_types=[res_type],
            regions=[body],
            properties={
                "stage_name": StringAttr(name),
                "iterators": ArrayAttr(IterKindAttr(IterKind(k)) for k, _ in iters),
                "extents": DenseArrayBase.from_list(i64, [e for _, e in iters]),
                "maps": ArrayAttr(
                    [AffineMapAttr(m) for _, m, _ in parsed_ins]
                    + [AffineMapAttr(AffineMap(len(dims), 0, (out_expr,)))]
                ),
                "indirect": DenseArrayBase.from_list(i64, [v for _, _, v in parsed_ins]),
            },
        )
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def verify_(self) -> None:
        name = self.stage_name.data
        kinds = self.iter_kinds
        ext = self.iter_extents
        if len(kinds) != len(ext) or not kinds:
            raise VerifyException(
                f"stage '{name}' needs one extent per iterator, got {len(kinds)} iterators "
                f"and {len(ext)} extents"
            )
        if any(e < 1 for e in ext):
            raise VerifyException(f"stage '{name}' extents must be positive, got {list(ext)}")
        if len(self.maps) != len(self.ins) + 1:
            raise VerifyException(
                f"stage '{name}' needs one map per input and one for the output "
                f"({len(self.ins) + 1}), got {len(self.maps)}"
            )
        if len(self.indirect_of) != len(self.ins):
            raise VerifyException(
                f"stage '{name}' needs one indirect entry per input, got {len(self.indirect_of)}"
            )
        bt = cast(BufferType, self.buffer.type)
        rt = cast(PageType, self.result.type)
        if bt.tiles.data != rt.tiles.data or bt.element_type != rt.element_type:
            raise VerifyException(
                f"stage '{name}' writes buffer <{bt.tiles.data}x"
                f"{element_name(bt.element_type)}> but gives page <{rt.tiles.data}x"
                f"{element_name(rt.element_type)}>"
            )
        forms = self.verify_maps()
        self.verify_output(forms[-1])
        program = enclosing_program(self)
        tile = program.target.tile if program is not None else (32, 32)
        pages = [cast(PageType, v.type) for v in self.ins] + [rt]
        for i, (f, pt) in enumerate(zip(forms, pages)):
            if i < len(self.ins) and self.indirect_of[i] >= 0:
                continue  # the table's part is checked when the stage runs
            lo, hi = f.bounds(ext)
            size = pt.tiles.data * tile[0] * tile[1]
            check_page_reach(lo, hi, pt.tiles.data, size, name, i if i < len(self.ins) else None)
        self.verify_body([p.element_type for p in pages[:-1]], rt.element_type)

    def verify_maps(self) -> list[LinearForm]:
        """Every map is linear in the stage's axes; an input's map has the symbol s0
        exactly when another, direct input of integers gives it: their forms."""
        name = self.stage_name.data
        forms: list[LinearForm] = []
        for i, m in enumerate(self.maps.data):
            m = m.data
            what = f"stage '{name}' map #{i}" if i < len(self.ins) else f"stage '{name}' output map"
            if m.num_dims != len(self.iter_kinds):
                raise VerifyException(
                    f"{what} has {m.num_dims} dims but the stage has "
                    f"{len(self.iter_kinds)} iterators"
                )
            forms.append(single_linear(m, what))
            if i >= len(self.ins):
                if m.num_symbols:
                    raise VerifyException(f"{what} cannot be indirect")
                continue
            via = self.indirect_of[i]
            if (via >= 0) != (m.num_symbols == 1) or m.num_symbols > 1:
                raise VerifyException(f"{what}: a map has symbol s0 exactly when an input gives it")
            if via < 0:
                continue
            if via == i or via >= len(self.ins) or self.indirect_of[via] >= 0:
                raise VerifyException(
                    f"{what} reads s0 from input {via}, which must be another, direct input"
                )
            vt = cast(PageType, self.ins[via].type).element_type
            if not isinstance(vt, IntegerType):
                raise VerifyException(
                    f"{what} reads s0 from input {via}, which holds "
                    f"{element_name(vt)}, not integers"
                )
        return forms

    def verify_output(self, out: LinearForm) -> None:
        """The output map reads no summed axis and writes each element once."""
        name = self.stage_name.data
        kinds, ext = self.iter_kinds, self.iter_extents
        for d, (k, c) in enumerate(zip(kinds, out.dims)):
            if k == IterKind.SUM and c:
                raise VerifyException(
                    f"stage '{name}' output map uses d{d}, a summed axis; the sum has one "
                    "value per parallel point"
                )
        par = sorted((abs(c), ext[d]) for d, c in enumerate(out.dims) if kinds[d] == IterKind.PAR)
        reach = 0
        for c, e in par:
            if e > 1 and c <= reach:
                raise VerifyException(
                    f"stage '{name}' output map {self.out_map.results[0]} writes some element twice"
                )
            reach += c * (e - 1)

    def verify_body(self, in_elems: list[Attribute], out_elem: Attribute) -> None:
        """The body takes one element per input and yields the output's, running only
        ops the chip runs on scalars."""
        name = self.stage_name.data
        body = self.body.block
        if list(body.arg_types) != in_elems:
            raise VerifyException(
                f"stage '{name}' body takes one element per input "
                f"({', '.join(element_name(t) for t in in_elems)}), got "
                f"({', '.join(element_name(t) for t in body.arg_types)})"
            )
        term = body.last_op
        if not isinstance(term, YieldOp):
            raise VerifyException(f"stage '{name}' body must end with spatial.yield")
        for o in body.ops:
            if not isinstance(o, BODY_OPS):
                raise VerifyException(
                    f"stage '{name}' body cannot run {o.name} on the chip; a body holds "
                    "arith ops on scalars, spatial.index and spatial.yield"
                )
        if term.value.type != out_elem:
            raise VerifyException(
                f"stage '{name}' yields {element_name(term.value.type)} into a "
                f"{element_name(out_elem)} buffer"
            )


@irdl_op_definition
class IndexOp(IRDLOperation):
    """The index of the current point along one axis of the enclosing stage."""

    name = "spatial.index"

    dim = prop_def(IntAttr)
    result = result_def(IndexType)

    traits = traits_def(Pure(), HasParent(StageOp))

    def __init__(self, dim: int):
        super().__init__(result_types=[IndexType()], properties={"dim": IntAttr(dim)})

    # `spatial.index 0 : index`, as MLIR spells `linalg.index` (a declarative format
    # would print the IntAttr as `#builtin.int<0>`).
    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.dim.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> IndexOp:
        dim = parser.parse_integer(allow_boolean=False, context_msg=" (the stage axis)")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls.build(result_types=[parser.parse_type()], properties={"dim": IntAttr(dim)})
        op.attributes.update(attrs)
        return op

    def verify_(self) -> None:
        stage = self.parent_op()
        assert isinstance(stage, StageOp)
        n = len(stage.iter_extents)
        if not 0 <= self.dim.data < n:
            raise VerifyException(
                f"index {self.dim.data} is not an axis of stage "
                f"'{stage.stage_name.data}', which has {n}"
            )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a stage body with the value of one point."""

    name = "spatial.yield"

    value = operand_def(Attribute)

    traits = traits_def(IsTerminator(), Pure(), HasParent(StageOp))

    assembly_format = "$value attr-dict `:` type($value)"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


@irdl_op_definition
class KLoopOp(IRDLOperation):
    """The K loop: runs its body once per K block, carrying pages (the running sum)."""

    name = "spatial.k_loop"

    trips = prop_def(IntAttr)
    """K blocks folded."""
    inits = var_operand_def(PageType)
    """Initial values of the carried pages."""
    res = var_result_def(PageType)
    """The carried pages after the last trip."""
    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect(), HasAncestor(ViewOp, FoldOp))

    def __init__(self, trips: int, inits: Sequence[SSAValue], body: Region):
        super().__init__(
            operands=[inits],
            result_types=[[v.type for v in inits]],
            regions=[body],
            properties={"trips": IntAttr(trips)},
        )

    @property
    def induction_var(self) -> BlockArgument:
        return self.body.block.args[0]

    def print(self, printer: Printer) -> None:
        block = self.body.block
        printer.print_string(" ")
        printer.print_ssa_value(block.args[0])
        printer.print_string(f" = 0 to {self.trips.data}")
        if self.inits:
            printer.print_string(" iter_args(")

            def one(i: int) -> None:
                printer.print_ssa_value(block.args[i + 1])
                printer.print_string(" = ")
                printer.print_ssa_value(self.inits[i])

            printer.print_list(range(len(self.inits)), one)
            printer.print_string(") -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> KLoopOp:
        iv = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_integer(allow_boolean=False)
        if lb != 0:
            parser.raise_error(f"the K loop starts at 0, got {lb}")
        parser.parse_keyword("to")
        trips = parser.parse_integer(allow_negative=False, allow_boolean=False)
        carried: list[tuple[object, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:

            def one() -> tuple[object, UnresolvedOperand]:
                arg = parser.parse_argument(expect_type=False)
                parser.parse_punctuation("=")
                return arg, parser.parse_unresolved_operand()

            carried = parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)
            parser.parse_punctuation("->")
            types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        if len(types) != len(carried):
            parser.raise_error(f"{len(carried)} carried values but {len(types)} result types")
        inits = [parser.resolve_operand(u, t) for (_, u), t in zip(carried, types)]
        args = [iv.resolve(IndexType())] + [
            a.resolve(t)
            for (a, _), t in zip(carried, types)  # type: ignore[attr-defined]
        ]
        body = parser.parse_region(args)
        op = cls(trips, inits, body)
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def verify_(self) -> None:
        block = self.body.block
        if self.trips.data < 1:
            raise VerifyException(f"the K loop must run at least once, got {self.trips.data}")
        expected = [IndexType(), *self.inits.types]
        if list(block.arg_types) != expected:
            raise VerifyException(
                "K loop body arguments must be (index, carried pages) = "
                f"({', '.join(map(str, expected))}), got "
                f"({', '.join(map(str, block.arg_types))})"
            )
        term = block.last_op
        if not isinstance(term, KYieldOp):
            raise VerifyException("the K loop body must end with spatial.k_yield")
        if list(term.values.types) != list(self.inits.types):
            raise VerifyException(
                "spatial.k_yield must carry the loop's pages "
                f"({', '.join(map(str, self.inits.types))}), got "
                f"({', '.join(map(str, term.values.types))})"
            )
        if self.parent_op() is not None and any(isinstance(a, KLoopOp) for a in _ancestors(self)):
            raise VerifyException("K loops do not nest")


def _ancestors(op: Operation) -> Iterator[Operation]:
    p = op.parent_op()
    while p is not None:
        yield p
        p = p.parent_op()


@irdl_op_definition
class KYieldOp(IRDLOperation):
    """Ends a K loop trip with the pages carried into the next."""

    name = "spatial.k_yield"

    values = var_operand_def(PageType)

    traits = traits_def(IsTerminator(), Pure(), HasParent(KLoopOp))

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[values])


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Ends a program: the output and state tensors it gives back, in result order."""

    name = "spatial.return"

    values = var_operand_def(TensorHandleType)

    traits = traits_def(IsTerminator(), Pure(), HasParent(ViewOp, FoldOp))

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[values])


BODY_OPS: tuple[type[Operation], ...] = (
    arith.ConstantOp,
    arith.AddfOp,
    arith.SubfOp,
    arith.MulfOp,
    arith.DivfOp,
    arith.NegfOp,
    arith.MaximumfOp,
    arith.MinimumfOp,
    arith.ExtFOp,
    arith.TruncFOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.AddiOp,
    arith.SubiOp,
    arith.MuliOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
    arith.IndexCastOp,
    arith.CmpiOp,
    arith.CmpfOp,
    arith.SelectOp,
    arith.AndIOp,
    arith.OrIOp,
    arith.XOrIOp,
    IndexOp,
    YieldOp,
)
"""What a stage body may hold: each runs as one numpy expression over the whole space."""


Spatial = Dialect(
    "spatial",
    [
        ViewOp,
        FoldOp,
        TensorOp,
        BufferOp,
        LoadOp,
        StoreOp,
        StageOp,
        IndexOp,
        YieldOp,
        KLoopOp,
        KYieldOp,
        ReturnOp,
    ],
    [
        TargetAttr,
        PlanAttr,
        NumericsKindAttr,
        NumericsAttr,
        RoleAttr,
        RepackAttr,
        IterKindAttr,
        TensorHandleType,
        BufferType,
        PageType,
    ],
)
