"""
The AMX ops of upstream MLIR's `x86` dialect that `convert-spatial-to-linalg{amx=true}`
emits: Intel's tile matrix unit (AMX-BF16), as MLIR writes it.

```mlir
%a = x86.amx.tile_load %x[%i, %c0] : memref<8x32xbf16, strided<[256, 1], offset: ?>> into !x86.amx.tile<8x32xbf16>
%b = x86.amx.tile_load %w[%c0, %c0] : memref<16x32xbf16> into !x86.amx.tile<16x32xbf16>
%z = x86.amx.tile_zero : !x86.amx.tile<8x16xf32>
%c = x86.amx.tile_mulf %a, %b, %z : !x86.amx.tile<8x32xbf16>, !x86.amx.tile<16x32xbf16>, !x86.amx.tile<8x16xf32>
x86.amx.tile_store %sums[%c0, %c0], %c : memref<8x16xf32, strided<[32, 1], offset: ?>>, !x86.amx.tile<8x16xf32>
```

A tile is at most 16 rows of at most 64 bytes. `tile_mulf` is `TDPBF16PS`: `acc[m, n] +=
sum_k lhs[m, 2k] * rhs[k, 2n] + lhs[m, 2k+1] * rhs[k, 2n+1]`, the right-hand tile in
pairs of rows interleaved ("VNNI"): row `k` holds rows `2k` and `2k+1` of the matrix,
element by element. xDSL 0.75's `x86` dialect (assembly) has no such ops, so they are
written here, and the project's own contexts (`dialects.extensions`) read `x86` as
xDSL's dialect with them added (`with_tiles`; xDSL's dialect is unchanged): `spatial-opt`
parses and verifies them, and the native engine hands them to upstream MLIR.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    IndexType,
    IntAttr,
    MemRefType,
    f32,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    param_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

ROWS = 16
"""Rows of a tile register."""

ROW_BYTES = 64
"""Bytes of one row of a tile register."""


@irdl_attr_definition
class TileType(ParametrizedAttribute, TypeAttribute):
    """A tile register's contents: `rows x cols` elements."""

    name = "x86.amx.tile"

    shape: ArrayAttr[IntAttr] = param_def()
    element_type: Attribute = param_def()

    def __init__(self, rows: int, cols: int, element_type: Attribute):
        super().__init__(ArrayAttr((IntAttr(rows), IntAttr(cols))), element_type)

    @property
    def dims(self) -> tuple[int, int]:
        rows, cols = (d.data for d in self.shape)
        return rows, cols

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            dims, elem = parser.parse_ranked_shape()
        return ArrayAttr(IntAttr(d) for d in dims), elem

    def print_parameters(self, printer: Printer) -> None:
        rows, cols = self.dims
        printer.print_string(f"<{rows}x{cols}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")

    def verify(self) -> None:
        if len(self.shape) != 2:
            raise VerifyException(f"a tile has 2 dims, got {len(self.shape)}")
        rows, cols = self.dims
        width = 2 if isinstance(self.element_type, BFloat16Type) else 4
        if not 1 <= rows <= ROWS or not 1 <= cols * width <= ROW_BYTES:
            raise VerifyException(
                f"a tile holds at most {ROWS} rows of {ROW_BYTES} bytes, got {rows}x{cols}"
                f" of {width}-byte elements"
            )


def _tile(v: SSAValue) -> TileType:
    assert isinstance(v.type, TileType)
    return v.type


@irdl_op_definition
class TileZeroOp(IRDLOperation):
    """A tile of zeros."""

    name = "x86.amx.tile_zero"

    res = result_def(TileType)

    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, tile: TileType):
        super().__init__(result_types=[tile])


@irdl_op_definition
class TileLoadOp(IRDLOperation):
    """A tile's rows read from a memref, from `indices` on, a row of the tile a row of
    the memref (which is contiguous along its last dim)."""

    name = "x86.amx.tile_load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    stride = opt_operand_def(IndexType)
    res = result_def(TileType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$base `[` $indices `]` (`,` $stride^)? attr-dict `:` type($base) `into` type($res)"
    )

    def __init__(self, base: SSAValue, indices: Sequence[SSAValue | Operation], tile: TileType):
        super().__init__(operands=[base, indices, []], result_types=[tile])


@irdl_op_definition
class TileStoreOp(IRDLOperation):
    """A tile's rows written into a memref, from `indices` on."""

    name = "x86.amx.tile_store"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    val = operand_def(TileType)
    stride = opt_operand_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$base `[` $indices `]` `,` $val (`,` $stride^)? attr-dict `:` type($base) `,` type($val)"
    )

    def __init__(self, base: SSAValue, indices: Sequence[SSAValue | Operation], val: SSAValue):
        super().__init__(operands=[base, indices, val, []])


@irdl_op_definition
class TileMulFOp(IRDLOperation):
    """`acc + lhs . rhs` on bf16 tiles into an f32 tile (`TDPBF16PS`), `rhs` in pairs of
    rows interleaved."""

    name = "x86.amx.tile_mulf"

    T: ClassVar = VarConstraint("T", base(TileType))

    lhs = operand_def(TileType)
    rhs = operand_def(TileType)
    acc = operand_def(T)
    res = result_def(T)

    assembly_format = (
        "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)"
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue, acc: SSAValue):
        super().__init__(operands=[lhs, rhs, acc], result_types=[acc.type])

    def verify_(self) -> None:
        (m, k), (kr, n), (mr, nr) = (_tile(v).dims for v in (self.lhs, self.rhs, self.acc))
        ins = [_tile(v).element_type for v in (self.lhs, self.rhs)]
        if any(e != BFloat16Type() for e in ins):
            raise VerifyException(f"tile_mulf multiplies bf16 tiles, got {ins[0]} and {ins[1]}")
        if _tile(self.acc).element_type != f32:
            raise VerifyException(
                f"tile_mulf accumulates into an f32 tile, got {_tile(self.acc).element_type}"
            )
        if k != 2 * kr or n != 2 * nr or m != mr:
            raise VerifyException(
                f"tile_mulf of {m}x{k} and {kr}x{n} (pairs of rows) into {mr}x{nr}: expected "
                f"{m}x{k} . {k // 2}x{2 * nr} into {m}x{nr}"
            )


AMX_OPS = (TileZeroOp, TileLoadOp, TileStoreOp, TileMulFOp)


def with_tiles(factory: Callable[[], Dialect]) -> Callable[[], Dialect]:
    """A factory of xDSL's `x86` dialect with the AMX ops and `TileType` added, the
    dialect made (and xDSL's module imported) only when a context loads it."""

    def load() -> Dialect:
        x86 = factory()
        ops = [op for op in x86.operations if op not in AMX_OPS]
        attrs = [a for a in x86.attributes if a is not TileType]
        return Dialect(x86.name, [*ops, *AMX_OPS], [*attrs, TileType])

    return load
