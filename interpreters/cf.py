"""
Kernels of the `cf` ops a module on tensors may hold outside any branch: `cf.assert`,
which torch-mlir's export writes for each bound `torch._check` states (a KV cache's
write position, say).
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import cf

from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel


@kernel(cf.AssertOp)
def _assert(op: cf.AssertOp) -> Kernel:
    """Nothing, or the op's own message as an error when its condition is false."""
    message = op.msg.data

    def run(args: Any) -> tuple[Any, ...]:
        if not bool(args[0]):
            raise KernelError(op, f"assertion failed: {message}")
        return ()

    return run
