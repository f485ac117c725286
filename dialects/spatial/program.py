"""Programs: one body run per work item, joined by buffers in local memory."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    Region,
    SSAValue,
)
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    NoMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import (
    LinearForm,
    check_all_written,
    check_disjoint,
    check_grid,
    check_owned_inside,
    check_writes_owned,
    item_coords,
    linear_form,
    owned_rectangles,
    owned_tiles,
    tile_grid,
)
from xdsl_spatial.core.memory import format_bytes, limit_text, memory_limit
from xdsl_spatial.dialects.spatial.attributes import (
    NumericsAttr,
    NumericsKindAttr,
    PlanAttr,
    Role,
    TargetAttr,
    parse_numerics_body,
    print_numerics_body,
)
from xdsl_spatial.dialects.spatial.loop import KLoopOp, enclosing_loop
from xdsl_spatial.dialects.spatial.moves import StoreOp, TileMoveOp
from xdsl_spatial.dialects.spatial.stages import StageOp
from xdsl_spatial.dialects.spatial.syntax import format_linear, print_attributes_and_body
from xdsl_spatial.dialects.spatial.tensors import BufferOp, ReturnOp, TensorOp
from xdsl_spatial.dialects.spatial.traits import IsProgram
from xdsl_spatial.dialects.spatial.types import BufferType


class ProgramOp(IRDLOperation):
    """A program: one body run per work item, joined by buffers in local memory."""

    program_name = prop_def(StringAttr)
    """The program's name, e.g. `q8_gemv_2048x4096_w8`: what its traffic is reported
    under. Not a symbol: every fold of one shape has the same name."""
    grid = prop_def(DenseArrayBase.constr(i64))
    """Extents of the item grid; the body's first block arguments are an item's coordinates."""
    owns = prop_def(AffineMapAttr)
    """Item coordinates -> (tile row, tile column) of the output rectangle the item owns."""
    owns_size = prop_def(DenseArrayBase.constr(i64))
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

    traits = traits_def(IsolatedFromAbove(), NoMemoryEffect(), IsProgram())

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
        return self.grid.get_values()

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

    def structure(self) -> Iterator[Operation]:
        """The ops of the body and of its K loops, in order: the program's buffers,
        moves, stages and loops, not the arithmetic inside its stages' bodies (which
        hold scalar ops only, verified), which a check of the program need not walk
        (a batch's sum stage holds hundreds of them)."""

        def ops(block: Block) -> Iterator[Operation]:
            for op in block.ops:
                yield op
                if not isinstance(op, StageOp):
                    for region in op.regions:
                        for b in region.blocks:
                            yield from ops(b)

        return ops(self.entry)

    def buffers(self) -> Iterator[BufferOp]:
        for op in self.structure():
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
            print_numerics_body(self.numerics, printer)
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
        print_attributes_and_body(printer, self, entry_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> ProgramOp:
        name = parser.parse_str_literal(" (the program's name)")
        chip = None
        if parser.parse_optional_keyword("chip") is not None:
            chip = parser.parse_integer(allow_negative=False, allow_boolean=False)

        def counts() -> list[int]:
            return parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE,
                lambda: parser.parse_integer(allow_negative=False, allow_boolean=False),
            )

        parser.parse_keyword("grid")
        grid = counts()
        parser.parse_keyword("owns")
        owns = parser.parse_affine_map()
        parser.parse_keyword("size")
        size = counts()
        parser.parse_keyword("target")
        target = parser.parse_attribute()
        parser.parse_keyword("plan")
        plan = parser.parse_attribute()
        parser.parse_keyword("numerics")
        kind, reason = parse_numerics_body(parser)
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
        loops = [o for o in self.structure() if isinstance(o, KLoopOp)]
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

        stores = [s for s in self.structure() if isinstance(s, StoreOp)]
        coords = self.item_coords()
        for t in returned:
            name = t.tensor_name.data
            ours = [s for s in stores if s.tensor.owner is t]
            if not ours:
                raise VerifyException(f"no store writes '{name}'")
            if any(s.table is not None and s.table_values() is None for s in ours):
                # Through a table bound at run time: where it writes is known, and
                # checked, only when the program runs (`check_writes_within`).
                continue
            mine = [s.written_tiles(coords) for s in ours]
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
        for mv in self.structure():
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


@irdl_op_definition
class MapOp(ProgramOp):
    """An elementwise program: each item computes its tiles of the result from its
    inputs' tiles (a K loop, if any, carries a page from trip to trip unsummed)."""

    name = "spatial.map"
    KIND: ClassVar[str] = "map"


PROGRAM_OPS = (ViewOp, FoldOp, MapOp)
