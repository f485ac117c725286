"""Where the dialect's ops may lie: programs carry `IsProgram`, and the ops of a body
carry `InProgram`, so one trait names every kind of program (a body op does not list
them) and no op module imports the programs it lies in."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from xdsl.ir import Operation, Region
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException

if TYPE_CHECKING:
    from xdsl_spatial.dialects.spatial.program import ProgramOp


class IsProgram(OpTrait):
    """The op is a program: its body runs once per work item."""


def is_program(op: Operation | None) -> bool:
    return op is not None and op.has_trait(IsProgram)


def enclosing_program(op: Operation) -> ProgramOp | None:
    """The program `op` lies in, if any."""
    p = op.parent_op()
    while p is not None and not is_program(p):
        p = p.parent_op()
    return cast("ProgramOp | None", p)


def outside_programs(region: Region) -> Iterator[Operation]:
    """The ops of `region`, at any depth, that are programs or lie outside them, in
    order (each before its regions): the host's ops and the programs, never a
    program's body."""
    for block in region.blocks:
        for op in block.ops:
            yield op
            if not is_program(op):
                for r in op.regions:
                    yield from outside_programs(r)


@dataclass(frozen=True)
class InProgram(OpTrait):
    """The op lies in a program's body: as one of its ops (`direct`), or at any depth."""

    direct: bool = False

    def verify(self, op: Operation) -> None:
        if self.direct:
            # As xDSL's HasParent: a detached op is not checked.
            if (parent := op.parent_op()) is None or is_program(parent):
                return
            raise VerifyException(f"'{op.name}' must be an op of a spatial program's body")
        if enclosing_program(op) is None:
            raise VerifyException(f"'{op.name}' must lie inside a spatial program")
