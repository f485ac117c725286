"""
The errors a run of a function may end in, apart from the IR they come from: a model
run from the disk cache (its functions' machine code, no IR) raises and catches them
without importing the interpreters that build executables from IR.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.ir import Operation


class RunError(Exception):
    """The function could not run: a bad argument, a tensor too large to allocate,
    an op with no implementation, or something the chip refuses (see
    `SpatialRuntimeError`). `location` is the op's `FILE:LINE:COL` when known."""

    def __init__(self, message: str, location: object | None = None):
        super().__init__(message)
        self.location = location


class SpatialRuntimeError(Exception):
    """The chip could not run this: an access outside a tensor or page, a memory
    overflow, an output tile written by no item or by two."""


class KernelError(Exception):
    """An op that cannot run: a form no kernel implements, or values it refuses.
    The message names the op."""

    def __init__(self, op: Operation | str, message: str):
        self.op_name = op if isinstance(op, str) else op.name
        """The op's name: a kernel raising when it runs keeps the name, not the op (an
        executable holds nothing of the IR, so that it can be stored and loaded)."""
        self.reason = message
        super().__init__(f"{self.op_name}: {message}")
