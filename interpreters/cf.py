"""
Kernels of the `cf` ops a module on tensors may hold outside any branch: `cf.assert`,
which torch-mlir's export writes for each bound `torch._check` states (a KV cache's
write position, say), and inside a `linalg.generic`'s body for each bound of an
embedding's gather (a token id below the vocabulary, and not negative), where the
structured kernel hands it the condition at every point of the space at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import cf

from xdsl_spatial.interpreters.kernels import Kernel, KernelError, kernel


@kernel(cf.AssertOp)
def _assert(op: cf.AssertOp) -> Kernel:
    """Nothing, or the op's own message as an error when its condition is false (at
    any element, for a condition over a generic's space)."""
    name, message = op.name, op.msg.data  # not the op: an executable holds no IR

    def run(args: Any) -> tuple[Any, ...]:
        if not np.all(args[0]):
            raise KernelError(name, f"assertion failed: {message}")
        return ()

    return run
