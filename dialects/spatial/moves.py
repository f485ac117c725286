"""Loads and stores: blocks of tiles between a tensor and a page."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerType,
    UnitAttr,
    i64,
)
from xdsl.ir import (
    Attribute,
    BlockArgument,
    Operation,
    SSAValue,
)
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    MemoryWriteEffect,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import (
    K_INDEX,
    TileMove,
    check_block_inside,
    loop_values,
    single_linear,
    tile_grid,
)
from xdsl_spatial.dialects.spatial.attributes import Role
from xdsl_spatial.dialects.spatial.effects import LoadsPage
from xdsl_spatial.dialects.spatial.elements import element_name
from xdsl_spatial.dialects.spatial.loop import enclosing_loop
from xdsl_spatial.dialects.spatial.syntax import (
    AFTER_LINEAR,
    TABLE_TERM,
    defined_type,
    parse_linear,
    parse_shape,
    print_linear_values,
)
from xdsl_spatial.dialects.spatial.tensors import TensorOp
from xdsl_spatial.dialects.spatial.traits import InProgram, enclosing_program
from xdsl_spatial.dialects.spatial.types import BufferType, PageType, TensorHandleType

MoveT = TypeVar("MoveT", bound="TileMoveOp")


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
    block = prop_def(DenseArrayBase.constr(i64))
    """The block's tiles, rows x columns."""
    stride = prop_def(IntAttr)
    """Tiles between the first tiles of consecutive block rows."""
    repeat = prop_def(IntAttr)
    """Times the move runs per item: the trip count of the enclosing K loop, else 1."""

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    KIND: ClassVar[str]
    """`load` or `store`, as messages name the move."""
    FILLS_PAGE: ClassVar[bool]
    """A load fills a page (its result) from a tensor; a store empties one into a tensor."""

    def __init__(
        self,
        source: SSAValue,
        destination: SSAValue,
        origin: AffineMap,
        origin_vars: Sequence[SSAValue],
        block: tuple[int, int],
        stride: int,
        repeat: int = 1,
        table: SSAValue | None = None,
        table_at: AffineMap | None = None,
    ):
        """A block of tiles moved from `source` to `destination`: a tensor into a buffer
        (a load, whose result is the page) or a page into a tensor (a store)."""
        pages: list[Attribute] = []
        if self.FILLS_PAGE:
            buffer = cast(BufferType, destination.type)
            pages.append(PageType(block[0] * block[1], buffer.element_type))
        super().__init__(
            operands=[source, destination, origin_vars, [table] if table else []],
            result_types=pages,
            properties=self._properties(origin, block, stride, repeat, table_at),
        )

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
        return h, w

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
                    f"K loop's index, got {value_str(v)}"
                )
        return tuple(out)

    def table_values(self) -> np.ndarray | None:
        """The indirect table's elements (flat, row-major) when it is declared with
        constant values; None for no table or one bound at run time."""
        decl = self.table.owner if self.table is not None else None
        if not (isinstance(decl, TensorOp) and decl.values is not None):
            return None
        return np.asarray(decl.values.get_values()).reshape(-1).astype(np.int64)

    def first_tiles(self, coords: np.ndarray) -> np.ndarray | None:
        """The block's first tile for every (item, K trip), the items' coordinates
        `coords` (`ProgramOp.item_coords`), None when it reads an external table (known
        only when the program runs)."""
        move = self.tile_move()
        loop = enclosing_loop(self)
        trips = loop.trips.data if loop is not None else 1
        values = loop_values(coords, trips, self.loop_variables())
        table = self.table_values()
        if move.table_at is not None and table is None:
            return None
        return move.first_tiles(values, (len(coords), trips), table, self.KIND)

    # --- syntax ---------------------------------------------------------------------

    def _print_origin(self, printer: Printer) -> None:
        printer.print_string("[")
        origin = self.origin.data.results[0]
        values = list(self.origin_vars)
        # `[%tbl[%i]]` rather than `[0 + %tbl[%i]]`: the parser reads both.
        if not (
            self.table is not None and isinstance(origin, AffineConstantExpr) and origin.value == 0
        ):
            print_linear_values(printer, origin, values)
            if self.table is not None:
                printer.print_string(" + ")
        if self.table is not None and self.table_at is not None:
            printer.print_ssa_value(self.table)
            printer.print_string("[")
            print_linear_values(printer, self.table_at.data.results[0], values)
            printer.print_string("]")
        printer.print_string("]")
        h, w = self.block_shape
        printer.print_string(f" block {h}x{w} stride {self.stride.data} repeat {self.repeat.data}")

    def _print_types(self, printer: Printer, source: Attribute, destination: Attribute) -> None:
        printer.print_string(" : ")
        printer.print_attribute(source)
        printer.print_string(" -> ")
        printer.print_attribute(destination)

    @classmethod
    def _parse_types_and_build(
        cls: type[MoveT],
        parser: Parser,
        source: UnresolvedOperand,
        destination: UnresolvedOperand,
        origin: tuple[list[SSAValue], list[SSAValue], dict[str, Attribute]],
    ) -> MoveT:
        """`: SOURCE -> TYPE`, and the move of the parsed operands and origin: a load's
        TYPE is its page's (its buffer's type is where the buffer is defined), a
        store's its tensor's."""
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_punctuation("->")
        to_type = parser.parse_type()
        into = defined_type(parser, destination) if cls.FILLS_PAGE else to_type
        vars_, table, props = origin
        return cls.build(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(destination, into),
                vars_,
                table,
            ],
            result_types=[to_type] if cls.FILLS_PAGE else [],
            properties=props,
        )

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
            tables.append((v, parse_linear(parser, position)))
            parser.parse_punctuation("]", AFTER_LINEAR)
            return TABLE_TERM

        parser.parse_punctuation("[")
        origin = parse_linear(parser, variable)
        parser.parse_punctuation("]", AFTER_LINEAR)
        parser.parse_keyword("block")
        dims = parse_shape(parser)
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
            table = [parser.resolve_operand(t, defined_type(parser, t))]
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
        t0 = self.first_tiles(program.item_coords())
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


def same_tiles(a: TileMoveOp, b: TileMoveOp) -> bool:
    """Whether two moves reach the same tiles, item by item: the same address (origin
    and its variables, table and where it is read, block, stride, repeat)."""
    return (
        a.origin == b.origin
        and tuple(a.origin_vars) == tuple(b.origin_vars)
        and a.table is b.table
        and a.table_at == b.table_at
        and a.block == b.block
        and a.stride == b.stride
        and a.repeat == b.repeat
    )


def value_str(v: SSAValue) -> str:
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
    FILLS_PAGE: ClassVar[bool] = True

    tensor = operand_def(TensorHandleType)
    buffer = operand_def(BufferType)
    result = result_def(PageType)
    multicast = opt_prop_def(UnitAttr)
    """Every item reads the same block (the address does not depend on the item): it
    is read from DRAM once a run and sent over the network to each item's site."""

    traits = traits_def(LoadsPage(), InProgram())

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
        if self.multicast is not None:
            printer.print_string(" multicast")
        printer.print_string(" into ")
        printer.print_ssa_value(self.buffer)
        self._print_types(printer, self.tensor.type, self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        tensor = parser.parse_unresolved_operand()
        origin = cls._parse_origin(parser)
        if parser.parse_optional_keyword("multicast") is not None:
            origin[2]["multicast"] = UnitAttr()
        parser.parse_keyword("into")
        buffer = parser.parse_unresolved_operand()
        return cls._parse_types_and_build(parser, tensor, buffer, origin)

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
        if self.multicast is not None:
            self.verify_multicast()

    def verify_multicast(self) -> None:
        """A multicast reads one address for every item: neither its origin nor where
        it reads its table uses an item coordinate (the K loop's index may step it)."""
        forms = [single_linear(self.origin.data, "load origin")]
        if self.table_at is not None:
            forms.append(single_linear(self.table_at.data, "load table position"))
        variables = self.loop_variables()
        for form in forms:
            for v, axis, c in zip(self.origin_vars, variables, form.syms):
                if c and axis != K_INDEX:
                    raise VerifyException(
                        f"a multicast load reads one address for every item, but its "
                        f"address depends on the item through {value_str(v)}"
                    )


@irdl_op_definition
class StoreOp(TileMoveOp):
    """Moves a page's tiles into a block of a tensor."""

    name = "spatial.store"
    KIND: ClassVar[str] = "store"
    FILLS_PAGE: ClassVar[bool] = False

    page = operand_def(PageType)
    tensor = operand_def(TensorHandleType)

    traits = traits_def(MemoryWriteEffect(), InProgram())

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
        self._print_types(printer, self.page.type, self.tensor.type)

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        page = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        tensor = parser.parse_unresolved_operand()
        return cls._parse_types_and_build(parser, page, tensor, cls._parse_origin(parser))

    def written_tiles(self, coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(item, linear tile) of every tile the store writes, over all items (their
        coordinates `coords`) and trips."""
        t0 = self.first_tiles(coords)
        if t0 is None:
            raise VerifyException("a store through an external table cannot be checked for overlap")
        tiles = self.tile_move().tiles(t0)
        items = np.broadcast_to(np.arange(len(coords))[:, None, None, None], tiles.shape)
        return items.reshape(-1), tiles.reshape(-1)
