"""What a program's body declares: its tensors, its buffers, and the tensors it returns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    BlockArgument,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import (
    IsTerminator,
    Pure,
)
from xdsl.utils.exceptions import VerifyException

from xdsl_spatial.dialects.q8 import Q8Part
from xdsl_spatial.dialects.spatial.attributes import RepackAttr, Role
from xdsl_spatial.dialects.spatial.effects import Allocates
from xdsl_spatial.dialects.spatial.elements import element_name
from xdsl_spatial.dialects.spatial.traits import InProgram, enclosing_program, is_program
from xdsl_spatial.dialects.spatial.types import BufferType, TensorHandleType


@irdl_op_definition
class TensorOp(IRDLOperation):
    """Declares a tensor of the program: its name, role, initial contents and repack."""

    name = "spatial.tensor"

    tensor_name = prop_def(StringAttr, prop_name="tensor_name")
    """The tensor's name on the chip (a host binds external tensors by it)."""
    source = opt_operand_def(TensorType)
    """Initialised from outside: the program's input bound to this tensor."""
    zero = opt_prop_def(UnitAttr)
    """Initialised to zeros."""
    values = opt_prop_def(DenseIntOrFPElementsAttr)
    """Initialised to these values (a table, or a weight quantised at lowering)."""
    repack = opt_prop_def(RepackAttr)
    """For a param: how the host fills it from a checkpoint."""
    result = result_def(TensorHandleType)

    traits = traits_def(Allocates(), InProgram(direct=True))

    assembly_format = (
        "$tensor_name (`external` `(` $source^ `:` type($source) `)`)? "
        "(`zero` $zero^)? (`values` $values^)? (`repack` $repack^)? "
        "attr-dict `:` type($result)"
    )

    def __init__(
        self,
        name: str,
        handle: TensorHandleType,
        *,
        source: SSAValue | None = None,
        values: DenseIntOrFPElementsAttr | None = None,
        repack: RepackAttr | None = None,
    ):
        props: dict[str, Attribute] = {"tensor_name": StringAttr(name)}
        if source is None and values is None:
            props["zero"] = UnitAttr()
        if values is not None:
            props["values"] = values
        if repack is not None:
            props["repack"] = repack
        super().__init__(
            operands=[[source] if source is not None else []],
            result_types=[handle],
            properties=props,
        )

    @property
    def handle(self) -> TensorHandleType:
        return cast(TensorHandleType, self.result.type)

    @property
    def init(self) -> str:
        if self.source is not None:
            return "external"
        if self.values is not None:
            return "values"
        return "zero"

    def verify_(self) -> None:
        h = self.handle
        inits = [
            name
            for name, present in (
                ("external", self.source is not None),
                ("zero", self.zero is not None),
                ("values", self.values is not None),
            )
            if present
        ]
        if len(inits) != 1:
            raise VerifyException(
                f"tensor '{self.tensor_name.data}' needs exactly one init "
                f"(external, zero or values), got {' and '.join(inits) or 'none'}"
            )
        if not self.tensor_name.data:
            raise VerifyException("a tensor needs a name")
        if self.source is not None:
            st = cast(TensorType[Attribute], self.source.type)
            if tuple(st.get_shape()) != h.dims or st.element_type != h.element_type:
                raise VerifyException(
                    f"tensor '{self.tensor_name.data}' is {handle_str(h)} but is bound to {st}"
                )
            if not (
                isinstance(self.source, BlockArgument) and is_program(self.source.owner.parent_op())
            ):
                raise VerifyException(
                    f"tensor '{self.tensor_name.data}' must be bound to an input of "
                    "its program (a block argument of the program's body)"
                )
        if self.values is not None:
            vt = self.values.type
            if tuple(vt.get_shape()) != h.dims or vt.element_type != h.element_type:
                raise VerifyException(
                    f"tensor '{self.tensor_name.data}' is {handle_str(h)} but its values are {vt}"
                )
        role = h.role.data
        if role == Role.INPUT and self.init != "external":
            raise VerifyException(
                f"input tensor '{self.tensor_name.data}' must be external, got {self.init}"
            )
        if role == Role.OUTPUT and self.init == "external":
            raise VerifyException(
                f"output tensor '{self.tensor_name.data}' starts as zero or values; "
                "a tensor the program also reads is a state"
            )
        if self.repack is not None and role != Role.PARAM:
            raise VerifyException(
                f"only a param has a host repack, '{self.tensor_name.data}' is {role}"
            )


def is_weight_scales(op: TensorOp) -> bool:
    """A param filled with a Q8_0 weight's scales."""
    return op.repack is not None and op.repack.part.data == Q8Part.SCALES


def is_weight_values(op: TensorOp) -> bool:
    """A param filled with a Q8_0 weight's int8 values: its K x N elements are the
    weight a fold reads."""
    return op.repack is not None and op.repack.part.data == Q8Part.VALUES


def handle_str(h: TensorHandleType) -> str:
    r, c = h.dims
    return f"{r}x{c}x{element_name(h.element_type)}"


@irdl_op_definition
class BufferOp(IRDLOperation):
    """Allocates a buffer in the site's local memory."""

    name = "spatial.buffer"

    buffer_name = prop_def(StringAttr, prop_name="buffer_name")
    """The buffer's name, e.g. `in_q8`."""
    result = result_def(BufferType)

    traits = traits_def(Allocates(), InProgram())

    assembly_format = "$buffer_name attr-dict `:` type($result)"

    def __init__(self, name: str, tiles: int, element_type: Attribute, depth: int = 2):
        super().__init__(
            result_types=[BufferType(tiles, element_type, depth)],
            properties={"buffer_name": StringAttr(name)},
        )

    def verify_(self) -> None:
        program = enclosing_program(self)
        if program is None:
            return
        name = self.buffer_name.data
        first = next(b for b in program.buffers() if b.buffer_name.data == name)
        if first is not self:
            raise VerifyException(
                f"buffer '{name}' is allocated twice in program '{program.program_name.data}'; "
                "a program's buffers have distinct names"
            )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Ends a program: the output and state tensors it gives back, in result order."""

    name = "spatial.return"

    values = var_operand_def(TensorHandleType)

    traits = traits_def(IsTerminator(), Pure(), InProgram(direct=True))

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[values])
