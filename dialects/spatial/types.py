"""The dialect's types: a program's tensors, its buffers in local memory and their pages."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
)
from xdsl.ir import (
    Attribute,
    ParametrizedAttribute,
    TypeAttribute,
)
from xdsl.irdl import (
    irdl_attr_definition,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.dialects.spatial.attributes import Role, RoleAttr
from xdsl_spatial.dialects.spatial.elements import element_bytes, is_element


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
            role = parser.parse_keyword_in([str(r) for r in Role], " (tensor role)")
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
        if not is_element(self.element_type):
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
        if not is_element(self.element_type):
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
        if not is_element(self.element_type):
            raise VerifyException(f"a page holds ints or floats, got {self.element_type}")
