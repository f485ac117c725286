"""The K loop: a program's body run once per K block, carrying pages."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from xdsl.dialects.builtin import (
    IndexType,
    IntAttr,
)
from xdsl.ir import (
    Attribute,
    BlockArgument,
    Operation,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.dialects.spatial.syntax import print_attributes_and_body
from xdsl_spatial.dialects.spatial.traits import InProgram, is_program
from xdsl_spatial.dialects.spatial.types import PageType


def enclosing_loop(op: Operation) -> KLoopOp | None:
    """The K loop `op` lies in, inside its program, if any."""
    p = op.parent_op()
    while p is not None and not is_program(p):
        if isinstance(p, KLoopOp):
            return p
        p = p.parent_op()
    return None


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

    traits = traits_def(RecursiveMemoryEffect(), InProgram())

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
        print_attributes_and_body(printer, self, entry_args=False)

    @classmethod
    def parse(cls, parser: Parser) -> KLoopOp:
        iv = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_integer(allow_boolean=False)
        if lb != 0:
            parser.raise_error(f"the K loop starts at 0, got {lb}")
        parser.parse_keyword("to")
        trips = parser.parse_integer(allow_negative=False, allow_boolean=False)
        carried: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:

            def one() -> tuple[Parser.UnresolvedArgument, UnresolvedOperand]:
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
        args = [iv.resolve(IndexType())] + [a.resolve(t) for (a, _), t in zip(carried, types)]
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
