"""Compute stages: a generic over pages, its body's index and yield, and the ops a body may run."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    Float32Type,
    IndexType,
    IntAttr,
    IntegerType,
    StringAttr,
    i64,
)
from xdsl.ir import (
    Attribute,
    Operation,
    Region,
    SSAValue,
)
from xdsl.ir.affine import AffineExpr, AffineMap, AffineSymExpr
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.core.geometry import (
    LinearForm,
    check_page_reach,
    single_linear,
)
from xdsl_spatial.dialects.spatial.attributes import IterKind, IterKindAttr
from xdsl_spatial.dialects.spatial.effects import FillsPage
from xdsl_spatial.dialects.spatial.elements import element_name
from xdsl_spatial.dialects.spatial.syntax import (
    AFTER_LINEAR,
    defined_type,
    parse_linear,
    print_attributes_and_body,
    stage_map_str,
)
from xdsl_spatial.dialects.spatial.traits import InProgram, enclosing_program
from xdsl_spatial.dialects.spatial.types import BufferType, PageType


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
    extents = prop_def(DenseArrayBase.constr(i64))
    """Each axis's extent."""
    maps = prop_def(ArrayAttr[AffineMapAttr])
    """One map per input and one for the output: axes -> flat element offset in the page."""
    indirect = prop_def(DenseArrayBase.constr(i64))
    """Per input: -1, or the input whose element (at its own map) is the map's symbol s0."""
    ins = var_operand_def(PageType)
    buffer = operand_def(BufferType)
    """The buffer the output page is written into."""
    result = result_def(PageType)
    body = region_def("single_block")

    traits = traits_def(FillsPage(), InProgram())

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
        return self.extents.get_values()

    @property
    def in_maps(self) -> tuple[AffineMap, ...]:
        return tuple(m.data for m in self.maps.data[:-1])

    @property
    def out_map(self) -> AffineMap:
        return self.maps.data[-1].data

    @property
    def indirect_of(self) -> tuple[int, ...]:
        return self.indirect.get_values()

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.stage_name.data)
        its = ", ".join(f"{k} {e}" for k, e in zip(self.iter_kinds, self.iter_extents))
        printer.print_string(f" iters({its})")
        with printer.indented():
            printer.print_string("\nins(")

            def one(i: int) -> None:
                printer.print_ssa_value(self.ins[i])
                printer.print_string(f"[{stage_map_str(self.in_maps[i])}")
                if (j := self.indirect_of[i]) >= 0:
                    printer.print_string(f" | s0 = in{j}")
                printer.print_string("]")

            printer.print_list(range(len(self.ins)), one)
            printer.print_string(") into ")
            printer.print_ssa_value(self.buffer)
            printer.print_string(f"[{stage_map_str(self.out_map)}] : (")
            printer.print_list(self.ins.types, printer.print_attribute)
            printer.print_string(") -> ")
            printer.print_attribute(self.result.type)
        print_attributes_and_body(printer, self, entry_args=True)

    @classmethod
    def parse(cls, parser: Parser) -> StageOp:
        name = parser.parse_str_literal(" (the stage's name)")
        parser.parse_keyword("iters")

        def one_iter() -> tuple[str, int]:
            kind = parser.parse_keyword_in([str(k) for k in IterKind], " (iterator kind)")
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

            return parse_linear(parser, axis)

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
            parser.parse_punctuation("]", AFTER_LINEAR)
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
        parser.parse_punctuation("]", AFTER_LINEAR)
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
            operands=[ins, parser.resolve_operand(buf, defined_type(parser, buf))],
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
        if IterKind.SUM in kinds and IterKind.MAX in kinds:
            raise VerifyException(
                f"stage '{name}' both sums and takes the largest along its axes; a stage "
                "reduces one way"
            )
        for d, (k, c) in enumerate(zip(kinds, out.dims)):
            if k != IterKind.PAR and c:
                raise VerifyException(
                    f"stage '{name}' output map uses d{d}, a reduced axis; the reduction "
                    "has one value per parallel point"
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
                    "arith and math ops on scalars, spatial.index and spatial.yield"
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
    arith.DivUIOp,
    arith.RemUIOp,
    arith.DivSIOp,
    arith.RemSIOp,
    arith.MaxSIOp,
    arith.MinSIOp,
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
    xmath.ExpOp,
    xmath.Exp2Op,
    xmath.LogOp,
    xmath.RsqrtOp,
    xmath.SqrtOp,
    xmath.CosOp,
    xmath.SinOp,
    xmath.TanhOp,
    xmath.ErfOp,
    xmath.AbsFOp,
    xmath.PowFOp,
    xmath.FmaOp,
    IndexOp,
    YieldOp,
)
"""What a stage body may hold: each runs as one numpy expression over the whole space."""


def sum_link(v: SSAValue, top: bool) -> arith.AddfOp | None:
    """The f32 add that makes `v` when it links a stage body's sum: the sum itself
    (`top`), or an add whose one use is the add above it. The compiled engine sums a
    body's terms by this rule, and spatial-sum-trips reads a body's sum by it."""
    o = v.owner
    if isinstance(o, arith.AddfOp) and isinstance(v.type, Float32Type) and (top or v.has_one_use()):
        return o
    return None
