"""
Hexadecimal numbers in dense literals, read as MLIR reads them: a float's bit pattern.

MLIR prints a float it cannot spell exactly in decimal (NaN, ±inf; torch-mlir's `-inf`
of a causal mask) as the bits of its type in hexadecimal, and reads such a literal back
the same way: `dense<0xFF800000> : tensor<5x5xf32>` is a 5 x 5 splat of `-inf`,
`dense<0x7E00> : tensor<2xf16>` two f16 NaNs, `dense<[0x0000, 0x8000]> : tensor<2xbf16>`
+0.0 and -0.0. An integer element's hex is its value (`0xFF` in an `i8` literal is the
bits 0xFF: -1).

xDSL 0.75 reads the scalar `arith.constant 0xFF800000 : f32` right, but in a dense
literal it takes the hex as an integer and converts its value to the float type:
4286578688.0, a finite number where MLIR has `-inf` (a mask that masks nothing), or an
error for an f16 pattern above 65519. Its printer writes such floats in hex too, so
it does not read back what it printed.

The package's parser (`ir_io.SourceParser`) leaves a dense literal without a hex
number to xDSL, and reads one with a hex number itself (`parse_dense_with_hex`),
through xDSL's public parser API, to the same attribute xDSL makes, each hex float
element its bits: a literal's shape, a splat, the checks of integer elements (`true`
only in `i1`, no negative unsigned value) and their messages are xDSL's;
MLIR's two refusals are added, a hex float with a leading minus and one with more bits
than its type.

```python
if has_hex(source.content, parser.pos):             # at the `<` after `dense`
    attr = parse_dense_with_hex(parser, source, type)
```
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, cast

from xdsl.dialects.builtin import (
    AnyFloat,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.parser import AttrParser
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span

_TOKEN = re.compile(
    r"""(?P<skip>\s+|//[^\n]*)
      | (?P<hex>0x[0-9a-fA-F]+)
      | (?P<num>[0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?|true|false)
      | (?P<punct>[-\[\](),<])
      | (?P<end>>)""",
    re.VERBOSE,
)
"""The tokens of a dense literal's elements as xDSL's lexer makes them (only `0x`, in
lower case, starts a hex number); anything else (the `"0x..."` string of a literal of
raw bytes, which xDSL reads right) ends the scan."""

_HEX_AT = re.compile(r"(-)?(?:\s+|//[^\n]*)*(0x[0-9a-fA-F]+)")


def has_hex(text: str, start: int) -> bool:
    """Whether the dense literal whose `<` is at `start` holds a hexadecimal number.
    Only a literal with `0x` (or a comment, which may hold a `>`) before the first
    `>` is scanned."""
    end = text.find(">", start)
    end = len(text) if end < 0 else end
    if text.find("0x", start, end) < 0 and text.find("//", start, end) < 0:
        return False
    pos = start
    while (m := _TOKEN.match(text, pos)) is not None and m.lastgroup != "end":
        if m.lastgroup == "hex":
            return True
        pos = m.end()
    return False


@dataclass
class _Number:
    value: int | float | bool
    span: Span
    hex: bool


def _number(parser: AttrParser, source: Input) -> _Number:
    """One number of the literal (`true`/`false`, an integer, a float, a hex number)."""
    at = parser.pos
    if (b := parser.parse_optional_boolean()) is not None:
        return _Number(b, Span(at, at + len(str(b)), source), False)
    m = _HEX_AT.match(cast(str, source.content), at)
    value = parser.parse_number(context_msg=" in dense attribute")
    if m is None:
        return _Number(value, Span(at, at + 1, source), False)
    span = Span(m.start(2), m.end(2), source)
    if m.group(1):
        raise ParseError(span, "a hexadecimal float literal cannot have a leading minus")
    return _Number(int(m.group(2), 16), span, True)


def _literal(parser: AttrParser, source: Input, out: list[list[_Number]]) -> list[int]:
    """A (nested) tensor literal's elements appended to `out` (each its numbers: two
    for a complex), in order; its shape ([] for one element)."""
    subs = parser.parse_optional_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: _literal(parser, source, out)
    )
    if subs is not None:
        if not subs:
            return [0]
        if any(s != subs[0] for s in subs):
            parser.raise_error("Tensor literal has inconsistent ranks between elements")
        return [len(subs), *subs[0]]
    if parser.parse_optional_punctuation("(") is not None:
        real = _number(parser, source)
        parser.parse_punctuation(",")
        imag = _number(parser, source)
        parser.parse_punctuation(")")
        out.append([real, imag])
    else:
        out.append([_number(parser, source)])
    return []


def _dense_type(parser: AttrParser) -> Any:
    start = parser.pos
    t = parser.parse_type()
    if not isinstance(t, TensorType | VectorType | MemRefType) or not isinstance(
        t.get_element_type(), IntegerType | IndexType | AnyFloat | ComplexType
    ):
        parser.raise_error(
            "Expected memref, vector or tensor type of integer, index, float, or complex type",
            start,
            parser.pos,
        )
    if any(d < 0 for d in t.get_shape()):
        parser.raise_error("Dense literal attribute should have a static shape.", start, parser.pos)
    return t


def _integer(n: _Number, et: IntegerType | IndexType) -> int:
    """An integer element, with xDSL's checks (`AttrParser._TensorLiteralElement.to_int`)."""
    unsigned = isinstance(et, IntegerType) and et.signedness.data == Signedness.UNSIGNED
    if unsigned and not n.hex and n.value < 0:
        raise ParseError(n.span, "Expected non-negative integer values")
    if isinstance(n.value, bool) and not (isinstance(et, IntegerType) and et.width.data == 1):
        raise ParseError(n.span, "Boolean values are only allowed for i1 types")
    if isinstance(n.value, float):
        raise ParseError(n.span, "Expected integer value")
    return int(n.value)


def _float_bytes(numbers: list[_Number], ft: AnyFloat) -> bytes:
    """The numbers packed as `ft` (as xDSL packs them), each hex one its bits."""
    for n in numbers:
        if n.hex and int(n.value).bit_length() > ft.bitwidth:
            raise ParseError(n.span, f"hexadecimal float constant out of range for type {ft}")
    width = ft.compile_time_size
    data = bytearray(ft.pack([0.0 if n.hex else float(n.value) for n in numbers]))
    for i, n in enumerate(numbers):
        if n.hex:
            data[i * width : (i + 1) * width] = int(n.value).to_bytes(width, "little")
    return bytes(data)


def parse_dense_with_hex(
    parser: AttrParser, source: Input, type: Attribute | None
) -> DenseIntOrFPElementsAttr:
    """The dense literal at the parser's `<` (and its type, unless given), read as
    `AttrParser.parse_dense_int_or_fp_elements_attr` reads it, but each hexadecimal
    float its bits; the parser is left after it."""
    parser.parse_punctuation("<", " in dense attribute")
    elements: list[list[_Number]] = []
    shape = _literal(parser, source, elements)
    parser.parse_punctuation(">", " in dense attribute")
    if type is None:
        parser.parse_punctuation(":", " in dense attribute")
        type = _dense_type(parser)
    t = cast(Any, type)
    type_shape = list(t.get_shape())
    if shape and shape != type_shape:
        parser.raise_error(
            f"Shape mismatch in dense literal. Expected {type_shape} shape from the type, "
            f"but got {shape} shape."
        )
    et = t.get_element_type()
    repeat = math.prod(type_shape) if not shape else 1
    if isinstance(et, AnyFloat) or (
        isinstance(et, ComplexType) and isinstance(et.element_type, AnyFloat)
    ):
        ft = et if isinstance(et, AnyFloat) else cast(AnyFloat, et.element_type)
        for e in elements:
            if len(e) != (2 if isinstance(et, ComplexType) else 1):
                why = (
                    "No conversion from complex to float"
                    if len(e) == 2
                    else (f"expected a complex element (real, imaginary) of {et}")
                )
                raise ParseError(e[0].span, why)
        data = _float_bytes([n for e in elements for n in e], ft)
        return DenseIntOrFPElementsAttr(t, BytesAttr(data * repeat))
    if isinstance(et, ComplexType):
        inner = cast(IntegerType, et.element_type)
        pairs = [(_integer(e[0], inner), _integer(e[-1], inner)) for e in elements]
        return DenseIntOrFPElementsAttr.from_list(t, pairs)
    if any(len(e) != 1 for e in elements):
        raise ParseError(elements[0][0].span, "No conversion from complex to integer")
    return DenseIntOrFPElementsAttr.from_list(t, [_integer(e[0], et) for e in elements])
