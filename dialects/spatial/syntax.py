"""The custom syntax the ops share: shapes without an element type, linear forms (the
only addresses the chip computes) and operands whose type the syntax implies."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.ir import (
    Attribute,
    Operation,
    SSAValue,
)
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer

from xdsl_spatial.core.geometry import (
    LinearForm,
    linear_form,
)

T = TypeVar("T")


def parse_shape(parser: AttrParser) -> list[int]:
    """`32x8` with no element type (`0x1` is two dimensions, not a hex literal)."""
    dims = parser.parse_dimension_list()
    if not dims or any(d < 0 for d in dims):
        got = "x".join("?" if d < 0 else str(d) for d in dims) or "nothing"
        parser.raise_error(f"expected static dimensions like 32x8, got {got}")
    return dims


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


def print_linear_values(printer: Printer, expr: AffineExpr, values: Sequence[SSAValue]) -> None:
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


def stage_map_str(m: AffineMap) -> str:
    return format_linear(
        m.results[0], [f"d{i}" for i in range(m.num_dims)], ["s0"][: m.num_symbols]
    )


AFTER_LINEAR = " after a linear form (a sum of integers times variables)"
"""Where a linear form ends early: `d0 mod 2` is no address the chip computes."""

TABLE_TERM = AffineConstantExpr(0)
"""What an origin's variable parser gives for its indirect table's element, which adds
nothing to the linear part (`parse_linear` refuses to scale or negate it)."""


def parse_linear(parser: Parser, variable: Callable[[], AffineExpr | None]) -> AffineExpr:
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
        if v is TABLE_TERM and scale is not None:
            parser.raise_error("an indirect table's element is added as it is, not scaled")
        return v if scale is None else v * scale

    expr = term()
    while True:
        if parser.parse_optional_punctuation("+") is not None:
            expr = expr + term()
        elif parser.parse_optional_punctuation("-") is not None:
            t = term()
            if t is TABLE_TERM:
                parser.raise_error("an indirect table's element is added, not subtracted")
            expr = expr - t
        else:
            return expr


def defined_type(parser: Parser, operand: UnresolvedOperand) -> Attribute:
    """The type of an SSA value defined above, for an operand whose type the syntax
    implies (a buffer, an indirect table)."""
    values = parser.ssa_values.get(operand.operand_name, ())
    if operand.index >= len(values):
        parser.raise_error(f"use of undefined value %{operand.operand_name}", operand.span)
    return values[operand.index].type


def print_attributes_and_body(printer: Printer, op: Operation, entry_args: bool) -> None:
    """The end of a region op's syntax: `attributes {...}` when it has any, then its one
    region (with its entry block's arguments when `entry_args`)."""
    printer.print_op_attributes(op.attributes, print_keyword=True)
    printer.print_string(" ")
    printer.print_region(op.regions[0], print_entry_block_args=entry_args)
