"""The dialect's attributes: the target, the block plan, the numerics claim, tensor roles,
host repacks and iterator kinds."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import auto
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float32Type,
    IntAttr,
    StringAttr,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
)
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xdsl_spatial.core.quant import Q8_BLOCK
from xdsl_spatial.core.targets import (
    CHIP_FIELDS,
    DEFAULT_PRESET,
    TARGET_PRESETS,
    ChipFigures,
    target_preset,
)
from xdsl_spatial.dialects.q8 import Q8Part, Q8PartAttr, Q8Source, Q8SourceAttr
from xdsl_spatial.dialects.spatial.elements import element_name
from xdsl_spatial.dialects.spatial.syntax import parse_shape

Range = tuple[int, int]
"""`start, stop` of a slice, as Python spells it."""


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
    bfp8_macs: IntAttr
    bfp4_macs: IntAttr
    f32_macs: IntAttr
    launch_cycles: IntAttr
    min_rows: IntAttr
    """The chip's figures, `CHIP_FIELDS` (see `ChipFigures`)."""

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
        p = target_preset(preset)
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
                IntAttr(getattr(p.chip, f) if chip.get(f) is None else cast(int, chip[f]))
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

    def figures(self) -> ChipFigures:
        """The chip's figures, named after the preset they are (if they are one)."""
        return ChipFigures(self.preset_name(), **self.chip_figures())

    def preset_name(self) -> str | None:
        """The preset this target is, figure for figure (the default first), if any."""
        for name in (DEFAULT_PRESET, *TARGET_PRESETS):
            if _preset_target(name, self.tile, self.act, self.acc) == self:
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
            dims = parse_shape(parser)
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
            preset=DEFAULT_PRESET,
            **chip,
        ).parameters

    def print_parameters(self, printer: Printer) -> None:
        # A figure the default preset has is left out: today's targets print as they did.
        default = TARGET_PRESETS[DEFAULT_PRESET]
        chip = "".join(
            f", {f} = {v}" for f, v in self.chip_figures().items() if v != getattr(default.chip, f)
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


@functools.cache
def _preset_target(name: str, tile: tuple[int, int], act: Attribute, acc: Attribute) -> TargetAttr:
    """The target of the preset `name` with this tile and these precisions, made once
    (`TargetAttr.preset_name` asks of every program a model's step prepares)."""
    return TargetAttr(tile=tile, act=act, acc=acc, preset=name)


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
            kind, reason = parse_numerics_body(parser)
        return NumericsKindAttr(kind), StringAttr(reason)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_numerics_body(self, printer)

    def verify(self) -> None:
        if self.kind.data == Numerics.APPROX and not self.reason.data:
            raise VerifyException("an 'approx' numerics claim must give its reason")


def parse_numerics_body(parser: AttrParser) -> tuple[Numerics, str]:
    kind = Numerics(parser.parse_keyword_in([str(k) for k in Numerics], " for the numerics claim"))
    reason = ""
    if kind == Numerics.APPROX:
        reason = parser.parse_str_literal(" (the reason the result is approximate)")
    return kind, reason


def print_numerics_body(attr: NumericsAttr, printer: Printer) -> None:
    printer.print_string(str(attr.kind.data))
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
    MAX = auto()
    """Reduced: the largest of the body's values along it (`arith.maximumf`: a NaN
    wins), in fp32."""


@irdl_attr_definition
class IterKindAttr(EnumAttribute[IterKind]):
    """`#spatial.iter_kind<par>`, `#spatial.iter_kind<sum>` or `#spatial.iter_kind<max>`."""

    name = "spatial.iter_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IterKind:
        with parser.in_angle_brackets():
            return IterKind(parser.parse_keyword_in([str(k) for k in IterKind], " (iterator kind)"))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")
