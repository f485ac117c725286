"""
Upstream MLIR's `memref.prefetch`, which `convert-spatial-to-linalg` emits for a stage
marked `kernel = "stream"` (`spatial-native-kernels{kind=loop|avx2|bf16|amx}`): a hint that
an element of a memref will be read soon, which LLVM lowers to the CPU's prefetch
instruction (x86's `PREFETCHT1` for locality 2). It reads and writes nothing, so the
values a program computes are the same with it or without it.

```mlir
memref.prefetch %w[%at], read, locality<2>, data : memref<16777216xi8>
```

xDSL 0.75 has no such op, so it is written here, and the project's contexts
(`dialects.extensions`) read `memref` as xDSL's dialect with it added (`with_prefetch`;
xDSL's dialect is unchanged).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, MemRefType, i32
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

LOCALITIES = range(4)
"""MLIR's locality hints: 0 (no temporal locality) to 3 (keep in every cache level)."""


@irdl_op_definition
class PrefetchOp(IRDLOperation):
    """A hint that element `indices` of `memref` will be read (or written, `isWrite`)
    soon, to be kept in the caches as `localityHint` says (0 to 3), in the data cache
    (`isDataCache`) or the instruction cache."""

    name = "memref.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    isWrite = prop_def(BoolAttr)
    localityHint = prop_def(IntegerAttr)
    isDataCache = prop_def(BoolAttr)

    def __init__(
        self,
        mem: SSAValue,
        indices: Sequence[SSAValue],
        locality: int,
        write: bool = False,
        data: bool = True,
    ):
        super().__init__(
            operands=[mem, indices],
            properties={
                "isWrite": BoolAttr.from_bool(write),
                "localityHint": IntegerAttr(locality, i32),
                "isDataCache": BoolAttr.from_bool(data),
            },
        )

    def verify_(self) -> None:
        t = self.memref.type
        assert isinstance(t, MemRefType)
        if len(self.indices) != t.get_num_dims():
            raise VerifyException(
                f"prefetch of a rank-{t.get_num_dims()} memref takes as many indices, "
                f"got {len(self.indices)}"
            )
        if self.localityHint.type != i32 or self.localityHint.value.data not in LOCALITIES:
            raise VerifyException(
                f"prefetch locality is an i32 from 0 to 3, got {self.localityHint}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        write = "write" if self.isWrite.value.data else "read"
        cache = "data" if self.isDataCache.value.data else "instr"
        locality = self.localityHint.value.data
        printer.print_string(f"], {write}, locality<{locality}>, {cache} : ")
        printer.print_attribute(self.memref.type)

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        mem = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        write = parser.parse_optional_keyword("write")
        if write is None:
            parser.parse_keyword("read")
        parser.parse_punctuation(",")
        parser.parse_keyword("locality")
        parser.parse_punctuation("<")
        locality = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_punctuation(">")
        parser.parse_punctuation(",")
        instr = parser.parse_optional_keyword("instr")
        if instr is None:
            parser.parse_keyword("data")
        parser.parse_punctuation(":")
        mem_t = parser.parse_type()
        index = IndexType()
        return cls(
            parser.resolve_operand(mem, mem_t),
            [parser.resolve_operand(i, index) for i in indices],
            locality,
            write is not None,
            instr is None,
        )


PREFETCH_OPS = (PrefetchOp,)


def with_prefetch(factory: Callable[[], Dialect]) -> Callable[[], Dialect]:
    """A factory of the `memref` dialect `factory` makes with `prefetch` added, made
    only when a context loads it."""

    def load() -> Dialect:
        base = factory()
        ops = [op for op in base.operations if op not in PREFETCH_OPS]
        return Dialect(base.name, [*ops, *PREFETCH_OPS], list(base.attributes))

    return load
